// Helpers shared by the card events of both sides (see common.h).
#include "events/common.h"

#include "rules/economy.h"

#include <QJsonArray>
#include <QJsonObject>

#include <algorithm>

namespace wp::rules::ev {

namespace {

int16_t i16(int v) {
    return static_cast<int16_t>(v);
}

ChoiceFrame& topChoice(GameState& s) {
    return std::get<ChoiceFrame>(s.frames.back());
}

bool topIsChoice(const GameState& s) {
    return !s.frames.empty() && std::holds_alternative<ChoiceFrame>(s.frames.back());
}

const Card& cardOf(const Ctx& c, const ChoiceFrame& f) {
    return c.d.cards[f.data];
}

QString kindName(UnitKind k) {
    return unitKindId(k);
}

UnitKind kindOf(const GameData& d, const GameState& s, int unit) {
    return d.unitTypes[s.units[unit].type].kind;
}

bool alive(const GameState& s, int unit) {
    return s.units[unit].loc >= 0 && s.units[unit].steps > 0;
}

// ---- frames of the helpers: legal options

std::vector<int16_t> encodePlacement(const GameData& d, const Placement& p) {
    const int flags = (p.fallbackFrance ? 1 : 0) | (p.spanishZone ? 2 : 0) | (p.fallbackAlways ? 4 : 0);
    return {i16(natIdx(d, p.nat)), i16(p.fallbackArea), i16(flags), i16(p.only)};
}

Placement decodePlacement(const GameData& d, const std::vector<int16_t>& e) {
    Placement p;
    if (e.size() < 4)
        return p;
    p.nat = e[0] >= 0 ? d.nationalities[e[0]].id : QString();
    p.fallbackArea = e[1];
    p.fallbackFrance = e[2] & 1;
    p.spanishZone = e[2] & 2;
    p.fallbackAlways = e[2] & 4;
    p.only = e[3];
    return p;
}

// Recovery frames: extra = cities recovered so far (a city twice = its two levels); count = levels left.
std::vector<int16_t> recoveryOptions(const Ctx& c, const ChoiceFrame& f) {
    bool twiceUsed = false;
    for (size_t i = 0; i < f.extra.size(); ++i)
        for (size_t j = i + 1; j < f.extra.size(); ++j)
            twiceUsed |= f.extra[i] == f.extra[j];
    std::vector<int16_t> out;
    for (int16_t city : recoveryCities(c, f.actor)) {
        const bool done = std::find(f.extra.begin(), f.extra.end(), city) != f.extra.end();
        if (done && twiceUsed)
            continue; // 8.63 (as written on the cards): only one city may recover two levels
        out.push_back(city);
    }
    return out;
}

std::vector<int16_t> saxonyFriendlyCities(const Ctx& c, int side) {
    std::vector<int16_t> out;
    const int area = areaIdx(c.d, QStringLiteral("saxony"));
    if (area < 0)
        return out;
    for (int city : c.d.areas[area].cities)
        if (effectiveCityControl(c.d, c.s, city) == side && !hasEnemyUnits(c.d, c.s, city, side))
            out.push_back(i16(city));
    return out;
}

// 16.22 a: German Protestant replacement leaders whose counter is free (front not on the map).
std::vector<int16_t> upReplacements(const Ctx& c) {
    std::vector<int16_t> out;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l) {
        const Leader& ld = c.d.leaders[l];
        if (!ld.replacement || c.s.leaders[l].status != LeaderStatus::NotEntered ||
            c.d.nationalities[ld.nationality].id != QLatin1String("protestant"))
            continue;
        // the front of this counter: the leader whose reverse it is
        bool frontFree = true;
        for (qsizetype f = 0; f < c.d.leaders.size(); ++f)
            if (c.d.leaders[f].reverse == l) {
                const LeaderStatus st = c.s.leaders[f].status;
                frontFree =
                    st == LeaderStatus::Dead || st == LeaderStatus::Removed || st == LeaderStatus::Aside;
            }
        if (frontFree)
            out.push_back(i16(kLeaderBase + static_cast<int>(l)));
    }
    return out;
}

std::vector<int16_t> upRetreatCities(const Ctx& c) {
    std::vector<int16_t> out;
    for (const char* id : {"lingen", "wesel"}) {
        const int city = c.d.city(QString::fromLatin1(id));
        if (city >= 0 && !hasEnemyUnits(c.d, c.s, city, kProtestant))
            out.push_back(i16(city));
    }
    return out;
}

std::vector<Action> commonLegal(const Ctx& c, const ChoiceFrame& f) {
    switch (codeOf(f)) {
    case kCodePlaceLeader: {
        if (f.extra.size() < 5)
            return {};
        return chooseEach(leaderPlaces(c, f.actor, f.extra[4], decodePlacement(c.d, f.extra)));
    }
    case kCodeFamineStack:
    case kCodeMutinyStack:
    case kCodeRevolt:
        return chooseEach(f.options);
    case kCodeRecovery: {
        const auto opts = recoveryOptions(c, f);
        return opts.empty() ? std::vector<Action>{} : chooseEach(opts, true);
    }
    case kCodeSaxonTeleport: {
        // 8.66: any friendly Saxony space; the spaces where the Saxons from this location fit (10.21) if any
        const std::vector<int16_t> all = saxonyFriendlyCities(c, f.actor);
        int moving = 0;
        if (!f.extra.empty())
            for (qsizetype u = 0; u < static_cast<qsizetype>(c.s.units.size()); ++u)
                moving += c.s.units[u].loc == f.extra.front() &&
                          natOf(c.d, c.s, static_cast<int>(u)) == QLatin1String("saxon");
        std::vector<int16_t> room;
        for (int16_t city : all)
            if (static_cast<int>(unitsAt(c.s, city, f.actor, c.d).size()) + moving <= 8)
                room.push_back(city);
        return chooseEach(room.empty() ? all : room);
    }
    case kCodeUpResponseStep: {
        std::vector<int16_t> opts;
        for (int u : upUnits(c.d, c.s, kProtestant))
            opts.push_back(i16(u));
        return chooseEach(opts);
    }
    case kCodeUpLeaderless: {
        auto opts = upReplacements(c);
        if (opts.empty())
            opts = upRetreatCities(c);
        return chooseEach(opts);
    }
    default:
        return {};
    }
}

void runCommon(Ctx& c);

// Applies one choice of a helper frame (the frame is on top of the stack).
void commonApply(Ctx& c, const Action& a) {
    ChoiceFrame& f = topChoice(c.s);
    const int side = f.actor;
    const QString id = cardOf(c, f).id;
    switch (codeOf(f)) {
    case kCodePlaceLeader: {
        const int leader = f.extra[4];
        placeLeader(c, leader, a.target, QStringLiteral("9.21 %1:").arg(id));
        f.extra.erase(f.extra.begin() + 4);
        break;
    }
    case kCodeFamineStack: {
        const int city = a.target;
        const bool fallback = f.count == 0; // no pillaged city held an enemy stack
        const int steps = fallback ? 1 : (c.s.cities[city].pillage >= 2 ? 2 : 1);
        WP_SAY(c,
               QStringLiteral("%1 Famine & Plague strikes the %2 stack at %3: %4 step%5")
                   .arg(id, sideName(other(side)), cityName(c.d, city))
                   .arg(steps)
                   .arg(steps > 1 ? "s" : ""),
               side);
        const int cardIdx = f.data;
        c.s.frames.pop_back();
        stepLosses(c, other(side), cardIdx, stackAt(c.d, c.s, city, other(side)), steps, false,
                   QStringLiteral("15.223"));
        return;
    }
    case kCodeMutinyStack: {
        const int city = a.target;
        const int cardIdx = f.data;
        c.s.frames.pop_back();
        std::vector<int> mercs;
        for (int u : stackAt(c.d, c.s, city, other(side)))
            if (kindOf(c.d, c.s, u) == UnitKind::Mercenary)
                mercs.push_back(u);
        WP_SAY(c,
               QStringLiteral("%1 Mutiny: the %2 Mercenaries at %3 loot as if Unpaid (15.2)")
                   .arg(id, sideName(other(side)), cityName(c.d, city)),
               side);
        lootRoll(c, cardIdx, city, mercs, QStringLiteral("15.224"));
        return;
    }
    case kCodeRevolt: {
        const int city = a.target;
        c.s.frames.pop_back();
        placeRevolt(c, city, side, QStringLiteral("9.41 %1:").arg(id));
        return;
    }
    case kCodeRecovery: {
        if (a.kind == ActionKind::Pass) {
            WP_SAY(c, QStringLiteral("%1 Recovery ends").arg(id), side);
            c.s.frames.pop_back();
            return;
        }
        recoverPillage(c, a.target, QStringLiteral("15.252 %1 Recovery:").arg(id)); // economy (15.24 VP)
        f.extra.push_back(a.target);
        f.count = i16(f.count - 1);
        break;
    }
    case kCodeSaxonTeleport: {
        const int to = a.target;
        const int from = f.extra.front();
        f.extra.erase(f.extra.begin());
        std::vector<int> moved;
        for (qsizetype u = 0; u < static_cast<qsizetype>(c.s.units.size()); ++u)
            if (c.s.units[u].loc == from && natOf(c.d, c.s, static_cast<int>(u)) == QLatin1String("saxon")) {
                c.s.units[u].loc = i16(to);
                c.s.units[u].flags = 0;
                moved.push_back(static_cast<int>(u));
            }
        for (qsizetype l = 0; l < c.d.leaders.size(); ++l)
            if (c.s.leaders[l].loc == from && c.s.leaders[l].status == LeaderStatus::InPlay &&
                leaderNat(c.d, static_cast<int>(l)) == QLatin1String("saxon")) {
                c.s.leaders[l].loc = i16(to);
                c.s.leaders[l].flags = 0;
            }
        WP_SAY(
            c,
            QStringLiteral("8.66 the Saxons at %1 return to %2").arg(cityName(c.d, from), cityName(c.d, to)),
            side);
        // 8.66: "if no space is available due to stacking limits, the overstacked Saxon units are destroyed"
        for (int excess = static_cast<int>(unitsAt(c.s, to, side, c.d).size()) - 8;
             excess > 0 && !moved.empty(); --excess) {
            eliminateUnit(c, moved.back(), false, QStringLiteral("8.66 overstacked:"));
            moved.pop_back();
        }
        if (isCity(i16(from)))
            checkSiegeMaintained(c, from);
        break;
    }
    case kCodeUpResponseStep: {
        const int u = a.target;
        c.s.frames.pop_back();
        UnitState& us = c.s.units[u];
        WP_SAY(c, QStringLiteral("16.252 the responding army loses a step: %1").arg(unitLabel(c.d, c.s, u)),
               side);
        us.steps = static_cast<uint8_t>(us.steps - 1);
        if (us.steps == 0)
            eliminateUnit(c, u, false, QStringLiteral("16.252"));
        return;
    }
    case kCodeUpLeaderless: {
        const int up = upLoc(c.d);
        c.s.frames.pop_back();
        if (isLeaderPiece(a.target)) {
            const int l = a.target - kLeaderBase;
            placeLeader(c, l, up, QStringLiteral("16.22a"));
        } else {
            for (int u : upUnits(c.d, c.s, kProtestant)) {
                c.s.units[u].loc = a.target;
                c.s.units[u].flags = 0;
            }
            WP_SAY(c,
                   QStringLiteral("16.22b the leaderless Protestant army leaves the UP for %1")
                       .arg(cityName(c.d, a.target)),
                   kProtestant);
            checkStacking(c, a.target, kProtestant);
        }
        return;
    }
    default:
        c.s.frames.pop_back();
        return;
    }
    runCommon(c);
}

// What happens when a helper frame has nothing (left) to choose.
void finishCommon(Ctx& c) {
    ChoiceFrame f = topChoice(c.s);
    c.s.frames.pop_back();
    const QString id = cardOf(c, f).id;
    switch (codeOf(f)) {
    case kCodeSaxonTeleport: {
        // no friendly Saxony city: the remaining Saxon pieces are destroyed (8.66)
        for (int16_t from : f.extra) {
            for (qsizetype u = 0; u < static_cast<qsizetype>(c.s.units.size()); ++u)
                if (c.s.units[u].loc == from &&
                    natOf(c.d, c.s, static_cast<int>(u)) == QLatin1String("saxon"))
                    eliminateUnit(c, static_cast<int>(u), false,
                                  QStringLiteral("8.66 no Saxony city to return to:"));
            for (int l : leadersAt(c.s, from, f.actor, c.d))
                if (leaderNat(c.d, l) == QLatin1String("saxon"))
                    killLeader(c, l, QStringLiteral("12.43"));
        }
        const int area = areaIdx(c.d, QStringLiteral("saxony"));
        if (area >= 0)
            for (int city : c.d.areas[area].cities)
                checkStacking(c, city, f.actor); // 8.66, 10.22
        return;
    }
    case kCodeUpLeaderless: {
        for (int u : upUnits(c.d, c.s, kProtestant))
            eliminateUnit(c, u, false, QStringLiteral("16.22c"));
        return;
    }
    case kCodePlaceLeader:
        if (f.extra.size() > 4)
            WP_SAY(c,
                   QStringLiteral("9.23 %1: %2 has no place to enter").arg(id, leaderName(c.d, f.extra[4])),
                   f.actor);
        return;
    default:
        return;
    }
}

// Advances the helper frame on top: skips what cannot be chosen, applies single options, finishes.
void runCommon(Ctx& c) {
    for (int guard = 0; guard < 1000; ++guard) {
        if (!topIsChoice(c.s))
            return;
        ChoiceFrame& f = topChoice(c.s);
        if (codeOf(f) < kCodeCommon)
            return;
        const int code = codeOf(f);
        // finished?
        bool done = false;
        if (code == kCodePlaceLeader) {
            // skip leaders without a place (logged), finish when the queue is empty
            while (f.extra.size() > 4 &&
                   !anyLeaderPlace(c, f.actor, f.extra[4], decodePlacement(c.d, f.extra))) {
                WP_SAY(c,
                       QStringLiteral("9.23 %1: %2 has no place to enter")
                           .arg(cardOf(c, f).id, leaderName(c.d, f.extra[4])),
                       f.actor);
                f.extra.erase(f.extra.begin() + 4);
            }
            done = f.extra.size() <= 4;
        } else if (code == kCodeRecovery) {
            done = f.count <= 0;
        } else if (code == kCodeSaxonTeleport) {
            done = f.extra.empty();
        }
        if (done) {
            if (code == kCodeSaxonTeleport) {
                finishCommon(c);
            } else {
                c.s.frames.pop_back();
            }
            return;
        }
        const std::vector<Action> legal = commonLegal(c, f);
        if (legal.empty()) {
            finishCommon(c);
            return;
        }
        if (legal.size() == 1 && legal.front().kind == ActionKind::Choose) {
            commonApply(c, legal.front());
            return; // commonApply runs the next step itself
        }
        return; // a decision
    }
}

} // namespace

// ---------------------------------------------------------------- identifiers and queries

int cardIdx(const GameData& d, const QString& id) {
    return d.card(id);
}
int leaderIdx(const GameData& d, const QString& id) {
    return d.leader(id);
}
int natIdx(const GameData& d, const QString& id) {
    return id.isEmpty() ? -1 : d.nationality(id);
}
int areaIdx(const GameData& d, const QString& id) {
    return d.area(id);
}
int boxLoc(const GameData& d, const QString& boxId) {
    const int b = d.box(boxId);
    return b < 0 ? -1 : kBoxBase + b;
}
int upLoc(const GameData& d) {
    return boxLoc(d, QStringLiteral("up"));
}
QString natOf(const GameData& d, const GameState& s, int unit) {
    return unitNationality(d, s, unit).id;
}
QString leaderNat(const GameData& d, int leader) {
    return d.nationalities[d.leaders[leader].nationality].id;
}
bool eventDone(const GameData& d, const GameState& s, const QString& cardId) {
    const int i = d.card(cardId);
    return i >= 0 && s.eventPlayed[i];
}
int cityArea(const GameData& d, int city) {
    const City& ct = d.cities[city];
    return ct.area >= 0 ? ct.area : ct.within;
}

bool leaderOnMap(const GameState& s, int leader) {
    return s.leaders[leader].status == LeaderStatus::InPlay && s.leaders[leader].loc >= 0;
}

std::vector<int> unitsOfNat(const GameData& d, const GameState& s, const QString& nat, bool citiesOnly) {
    std::vector<int> out;
    const int want = d.nationality(nat);
    if (want < 0)
        return out;
    for (size_t u = 0; u < s.units.size(); ++u) {
        const int16_t loc = s.units[u].loc;
        if (loc < 0 || (citiesOnly && !isCity(loc)))
            continue;
        if (d.unitTypes[s.units[u].type].nationality == want)
            out.push_back(static_cast<int>(u));
    }
    return out;
}

std::vector<int> stackAt(const GameData& d, const GameState& s, int loc, int side) {
    return unitsAt(s, loc, side, d);
}

bool besiegedOrMasked(const GameData& d, const GameState& s, int city, int side) {
    return hasEnemyUnits(d, s, city, side) && !anyUnitsOutside(s, city, side, d);
}

std::vector<int> upUnits(const GameData& d, const GameState& s, int side) {
    const int up = upLoc(d);
    return up < 0 ? std::vector<int>{} : unitsAt(s, up, side, d);
}

std::vector<int> upLeaders(const GameData& d, const GameState& s, int side) {
    const int up = upLoc(d);
    return up < 0 ? std::vector<int>{} : leadersAt(s, up, side, d);
}

bool spinolaArmyInUp(const GameData& d, const GameState& s) {
    int spanish = 0;
    for (int u : upUnits(d, s, kCatholic))
        spanish += natOf(d, s, u) == QLatin1String("spanish");
    if (spanish < 3)
        return false;
    for (int l : upLeaders(d, s, kCatholic))
        if (leaderNat(d, l) == QLatin1String("spanish"))
            return true;
    // 16.21(3): three Spanish units alone, when no Spanish leader is in play at all
    for (qsizetype l = 0; l < d.leaders.size(); ++l)
        if (s.leaders[l].status == LeaderStatus::InPlay &&
            leaderNat(d, static_cast<int>(l)) == QLatin1String("spanish"))
            return false;
    return true;
}

// ---------------------------------------------------------------- choice frames

void pushChoice(Ctx& c, int actor, int cardIdx, int code, std::vector<int16_t> options, int count,
                std::vector<int16_t> extra) {
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(actor);
    f.purpose = i16(kChooseEventBase + code);
    f.options = std::move(options);
    f.count = i16(count);
    f.data = i16(cardIdx);
    f.extra = std::move(extra);
    c.s.frames.push_back(std::move(f));
}

int codeOf(const ChoiceFrame& f) {
    return f.purpose - kChooseEventBase;
}

std::vector<Action> chooseEach(const std::vector<int16_t>& options, bool withPass) {
    std::vector<Action> out;
    for (int16_t o : options) {
        Action a;
        a.kind = ActionKind::Choose;
        a.target = o;
        out.push_back(a);
    }
    if (withPass)
        out.push_back(passAction());
    return out;
}

Action passAction() {
    return Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}};
}

void popChoice(Ctx& c) {
    if (topIsChoice(c.s))
        c.s.frames.pop_back();
}

// Issue 5: what the helper frames offer (notation, prompt, UI).
static EventChoiceInfo commonChoiceInfo(const GameData& d, const GameState& s, const ChoiceFrame& f) {
    (void)s;
    switch (codeOf(f)) {
    case kCodePlaceLeader:
        return {EventOption::City,
                f.extra.size() > 4
                    ? QStringLiteral("where %1 enters (9.21-9.23)").arg(leaderName(d, f.extra[4]))
                    : QStringLiteral("where the new leader enters (9.21-9.23)")};
    case kCodeFamineStack:
        return {EventOption::City,
                f.count > 0 ? QStringLiteral("the enemy stack in a pillaged city that loses steps")
                            : QStringLiteral("the enemy stack of four or more units that loses a step")};
    case kCodeMutinyStack:
        return {EventOption::City, QStringLiteral("the enemy stack whose Mercenaries mutiny")};
    case kCodeRecovery:
        return {EventOption::City,
                QStringLiteral("a city to recover one pillage level (%1 left), or pass").arg(f.count)};
    case kCodeRevolt:
        return {EventOption::City, QStringLiteral("the city where the peasants revolt (9.41)")};
    case kCodeSaxonTeleport:
        return {EventOption::City, f.extra.empty()
                                       ? QStringLiteral("a Saxony city for the Saxon pieces (8.66)")
                                       : QStringLiteral("a Saxony city for the Saxon pieces at %1 (8.66)")
                                             .arg(cityName(d, f.extra.front()))};
    case kCodeUpLeaderless:
        return {EventOption::LeaderOrCity,
                QStringLiteral(
                    "a replacement leader for the army in the UP, or the city it retreats to (16.22)")};
    case kCodeUpResponseStep:
        return {EventOption::Unit,
                QStringLiteral("the unit of the army in the UP that loses a step (16.252)")};
    default:
        return {};
    }
}

EventDef withCommon(EventDef def) {
    auto ownLegal = def.choiceLegal;
    auto ownApply = def.choiceApply;
    auto ownInfo = def.choiceInfo;
    def.choiceInfo = [ownInfo](const GameData& d, const GameState& s, const ChoiceFrame& f) {
        if (codeOf(f) >= kCodeCommon)
            return commonChoiceInfo(d, s, f);
        return ownInfo ? ownInfo(d, s, f) : EventChoiceInfo{};
    };
    def.choiceLegal = [ownLegal](const Ctx& c, const ChoiceFrame& f) -> std::vector<Action> {
        if (codeOf(f) >= kCodeCommon)
            return commonLegal(c, f);
        return ownLegal ? ownLegal(c, f) : chooseEach(f.options);
    };
    def.choiceApply = [ownApply](Ctx& c, const ChoiceFrame& f, const Action& a) {
        if (codeOf(f) >= kCodeCommon) {
            commonApply(c, a);
            return;
        }
        if (ownApply)
            ownApply(c, f, a);
        else
            popChoice(c);
    };
    return def;
}

void add(EventRegistry& r, const QString& cardId, EventDef def) {
    r.add(cardId, withCommon(std::move(def)));
}

// ---------------------------------------------------------------- New Leaders

namespace {
// leaderPlaces, or (firstOnly) at most one of them, for the preconditions that only ask whether there is any.
std::vector<int16_t> placesFor(const Ctx& c, int side, int leader, const Placement& p, bool firstOnly) {
    std::vector<int16_t> out;
    const GameData& d = c.d;
    const int lnat = d.leaders[leader].nationality;
    auto okAt = [&](int city) {
        if (!pieceMayEnter(c, lnat, city))
            return false;
        if (p.spanishZone && !d.cities[city].spanishZone)
            return false;
        std::vector<int> ls = leadersAt(c.s, city, side, d);
        ls.push_back(leader);
        return mixAllowed(c, unitsAt(c.s, city, side, d), ls); // 17.x, 7.24: stacking at all times
    };
    if (p.only >= 0) {
        if (isCity(i16(p.only)) && okAt(p.only) && !besiegedOrMasked(d, c.s, p.only, side))
            out.push_back(i16(p.only));
        return out;
    }
    // 9.21: with units of the named nationality (cities only: new leaders never enter a box, 16.21)
    if (!p.nat.isEmpty()) {
        for (int u : unitsOfNat(d, c.s, p.nat, true)) {
            const int city = c.s.units[u].loc;
            if (std::find(out.begin(), out.end(), city) != out.end() || unitSide(d, c.s, u) != side ||
                besiegedOrMasked(d, c.s, city, side) || !okAt(city))
                continue;
            out.push_back(i16(city));
            if (firstOnly)
                return out;
        }
    }
    // 9.23: with none of them on the map where he may join them, any friendly-controlled city.
    if (p.nat.isEmpty() || out.empty() || p.fallbackAlways) {
        const bool restricted = p.fallbackArea >= 0 || p.fallbackFrance;
        for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
            const int city = static_cast<int>(ci);
            const City& ct = d.cities[ci];
            if (restricted && !(p.fallbackArea >= 0 && ct.area == p.fallbackArea) &&
                !(p.fallbackFrance && ct.france))
                continue;
            if (effectiveCityControl(d, c.s, city) != side ||
                std::find(out.begin(), out.end(), city) != out.end() || hasEnemyUnits(d, c.s, city, side) ||
                !okAt(city))
                continue;
            out.push_back(i16(city));
            if (firstOnly)
                return out;
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}
} // namespace

std::vector<int16_t> leaderPlaces(const Ctx& c, int side, int leader, const Placement& p) {
    return placesFor(c, side, leader, p, false);
}

bool anyLeaderPlace(const Ctx& c, int side, int leader, const Placement& p) {
    return !placesFor(c, side, leader, p, true).empty();
}

void placeLeader(Ctx& c, int leader, int loc, const QString& rule) {
    LeaderState& ls = c.s.leaders[leader];
    ls.status = LeaderStatus::InPlay;
    ls.loc = i16(loc);
    ls.flags = 0;
    WP_SAY(c, QStringLiteral("%1 %2 enters at %3").arg(rule, leaderName(c.d, leader), cityName(c.d, loc)),
           leaderSide(c.d, c.s, leader));
}

int placeNewLeaders(Ctx& c, int side, int cardIdx, const std::vector<int>& leaders, const Placement& p) {
    std::vector<int16_t> extra = encodePlacement(c.d, p);
    int n = 0;
    for (int l : leaders) {
        if (l < 0)
            continue;
        if (c.s.leaders[l].status != LeaderStatus::NotEntered) {
            WP_SAY(c,
                   QStringLiteral("9.21 %1 is already in the game and does not arrive again")
                       .arg(leaderName(c.d, l)),
                   side);
            continue;
        }
        extra.push_back(i16(l));
        ++n;
    }
    if (n == 0)
        return 0;
    pushChoice(c, side, cardIdx, kCodePlaceLeader, {}, 1, extra);
    runCommon(c);
    return n;
}

// ---------------------------------------------------------------- the counter mix

std::vector<int> poolUnits(const GameData& d, const GameState& s, const QString& nat, UnitKind kind) {
    std::vector<int> out;
    for (size_t u = 0; u < s.units.size(); ++u) {
        const UnitType& t = d.unitTypes[s.units[u].type];
        if (s.units[u].loc == kPool && t.kind == kind && d.nationalities[t.nationality].id == nat)
            out.push_back(static_cast<int>(u));
    }
    return out;
}

std::vector<int> placeFromPool(Ctx& c, const QString& nat, UnitKind kind, int count, int loc,
                               const QString& rule) {
    std::vector<int> placed;
    for (int u : poolUnits(c.d, c.s, nat, kind)) {
        if (static_cast<int>(placed.size()) >= count)
            break;
        c.s.units[u].loc = i16(loc);
        c.s.units[u].steps = 2;
        c.s.units[u].flags = 0;
        placed.push_back(u);
    }
    const int nid = natIdx(c.d, nat);
    const QString natName = nid >= 0 ? c.d.nationalities[nid].name : nat;
    WP_SAY(c, QStringLiteral("%1 %2 %3 %4 unit%5 placed at %6%7")
                  .arg(rule)
                  .arg(placed.size())
                  .arg(natName, kindName(kind))
                  .arg(placed.size() == 1 ? "" : "s")
                  .arg(cityName(c.d, loc))
                  .arg(static_cast<int>(placed.size()) < count
                           ? QStringLiteral(" (the counter mix has no more, 8.412)")
                           : QString()));
    if (!placed.empty() && isCity(i16(loc)))
        catchLoneLeaders(c, loc, unitSide(c.d, c.s, placed.front()));
    return placed;
}

// ---------------------------------------------------------------- war entry of an Area

bool areaMayEnter(const GameData& d, const GameState& s, int area) {
    for (int city : d.areas[area].cities)
        if (!anyUnitsAt(s, city, kCatholic, d))
            return true;
    return false;
}

std::vector<int16_t> areaCitiesFreeOf(const GameData& d, const GameState& s, int area, int enemySide) {
    std::vector<int16_t> out;
    for (int city : d.areas[area].cities)
        if (!anyUnitsAt(s, city, enemySide, d))
            out.push_back(i16(city));
    return out;
}

void areaEntersWar(Ctx& c, int area, const QString& rule) {
    const Area& ar = c.d.areas[area];
    AreaState& as = c.s.areas[area];
    if (as.neutral || as.control == kNone) {
        // 9.13: no neutrality violation; the Area is Protestant and its VP leave the Catholic total
        as.neutral = false;
        for (int city : ar.cities) {
            CityState& cs = c.s.cities[city];
            // 9.22: a Catholic-controlled city occupied by Catholic units keeps its marker; every other city
            // is now held through the Area's control (a fortress the Catholic besieges included)
            if (cs.marker == kCath && anyUnitsOutside(c.s, city, kCatholic, c.d))
                continue;
            cs.marker = kNone;
        }
        as.control = kProt;
        WP_SAY(c,
               QStringLiteral("%1 %2 enters the war on the Protestant side (no neutrality violation)")
                   .arg(rule, ar.name),
               kProtestant);
        for (int city : ar.cities)
            endSiegeOfOwnCity(c, city);
        addVp(c, -ar.vp, QStringLiteral("9.13 %1 to Protestant:").arg(ar.name));
        updateElectors(c);
        return;
    }
    // 9.22: every city not occupied by Catholic units switches; the Area follows its cities (3.13)
    for (int city : ar.cities)
        if (!anyUnitsAt(c.s, city, kCatholic, c.d) && !c.s.cities[city].revolt &&
            effectiveCityControl(c.d, c.s, city) != kProt)
            setCityControl(c, city, kProt, QStringLiteral("9.22"));
}

// ---------------------------------------------------------------- Peasant Revolts

// The cities where `side` may place a revolt under `r`, in city order; with `firstOnly`, at most one.
static std::vector<int16_t> revoltCitiesUpTo(const Ctx& c, int side, const RevoltRule& r, bool firstOnly) {
    std::vector<int16_t> out;
    const GameData& d = c.d;
    bool france = false, germany = false; // the scope, once per call
    std::vector<char> areaInScope(static_cast<size_t>(d.areas.size()), 0);
    for (const QString& a : r.areas) {
        if (a == QLatin1String("france"))
            france = true;
        else if (a == QLatin1String("germany"))
            germany = true;
        else if (const int ai = d.area(a); ai >= 0)
            areaInScope[size_t(ai)] = 1;
    }
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const City& ct = d.cities[ci];
        const int city = static_cast<int>(ci);
        const int area = ct.area; // Independent cities are not "within the Area" (2.2)
        if (c.s.cities[city].revolt || (r.onMapOnly && ct.offmap))
            continue;
        const bool inScope = (france && ct.france) ||
                             (area >= 0 && ((germany && d.areas[area].germany) || areaInScope[size_t(area)]));
        if (!inScope || r.except.contains(ct.id))
            continue;
        if (r.ofControl != kNone && (area < 0 || c.s.areas[area].control != r.ofControl))
            continue;
        if (anyUnitsAt(c.s, city, other(side), d))
            continue; // 9.41: no enemy army in the city
        if (r.notSupplyBase) {
            bool base = false;
            for (const Nationality& n : d.nationalities)
                base |= n.supplyCities.contains(city);
            base |= c.s.swedishBase == city;
            if (base)
                continue;
        }
        out.push_back(i16(city));
        if (firstOnly)
            break;
    }
    return out;
}

std::vector<int16_t> revoltCities(const Ctx& c, int side, const RevoltRule& r) {
    return revoltCitiesUpTo(c, side, r, false);
}

bool anyRevoltCity(const Ctx& c, int side, const RevoltRule& r) {
    return !revoltCitiesUpTo(c, side, r, true).empty();
}

void placeRevolt(Ctx& c, int city, int side, const QString& rule) {
    Q_UNUSED(side);
    wp::rules::placeRevolt(c, city, rule); // economy (9.41-9.42, the Area's VP through reconcileAreas)
}

bool chooseRevolt(Ctx& c, int side, int cardIdx, const RevoltRule& r) {
    const std::vector<int16_t> cities = revoltCities(c, side, r);
    if (cities.empty())
        return false;
    pushChoice(c, side, cardIdx, kCodeRevolt, cities);
    runCommon(c);
    return true;
}

// ---------------------------------------------------------------- losses

void stepLosses(Ctx& c, int owner, int cardIdx, const std::vector<int>& units, int steps, bool permanent,
                const QString& rule) {
    Q_UNUSED(cardIdx);
    takeStepLosses(c, owner, units, steps, permanent, -1, rule); // economy (15.222-15.224)
}

// ---------------------------------------------------------------- Famine & Plague

namespace {
// How many units of `side` stand in each city (inside or outside its fortress), in one pass over the units;
// mercenariesOnly counts only Mercenary units.
std::vector<int> unitsPerCity(const Ctx& c, int side, bool mercenariesOnly) {
    std::vector<int> count(static_cast<size_t>(c.d.cities.size()), 0);
    for (const UnitState& u : c.s.units) {
        if (u.loc < 0 || !isCity(u.loc) || u.loc >= c.d.cities.size())
            continue;
        const UnitType& t = c.d.unitTypes[u.type];
        if (c.s.nationSide[t.nationality] != side || (mercenariesOnly && t.kind != UnitKind::Mercenary))
            continue;
        ++count[size_t(u.loc)];
    }
    return count;
}
} // namespace

std::vector<int16_t> famineTargets(const Ctx& c, int side) {
    std::vector<int16_t> pillaged, big;
    const std::vector<int> count = unitsPerCity(c, other(side), false);
    for (size_t ci = 0; ci < count.size(); ++ci) {
        const int city = static_cast<int>(ci);
        const int n = count[ci];
        if (n == 0)
            continue;
        if (c.s.cities[city].pillage > 0)
            pillaged.push_back(i16(city));
        if (n >= 4)
            big.push_back(i16(city));
    }
    return pillaged.empty() ? big : pillaged;
}

bool famine(Ctx& c, int side, int cardIdx) {
    const std::vector<int16_t> targets = famineTargets(c, side);
    if (targets.empty())
        return false;
    bool anyPillaged = false;
    for (int16_t t : targets)
        anyPillaged |= c.s.cities[t].pillage > 0;
    // count = 1: a pillaged city; 0: the fallback (a stack of 4 or more, 1 step)
    pushChoice(c, side, cardIdx, kCodeFamineStack, targets, anyPillaged ? 1 : 0);
    runCommon(c);
    return true;
}

// ---------------------------------------------------------------- Recovery

std::vector<int16_t> recoveryCities(const Ctx& c, int side) {
    std::vector<int16_t> out;
    for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
        const City& ct = c.d.cities[ci];
        const int city = static_cast<int>(ci);
        if (c.s.cities[city].pillage <= 0)
            continue;
        bool ok;
        if (ct.independent || ct.area < 0) {
            const int ctl = effectiveCityControl(c.d, c.s, city);
            ok = ctl == side || ctl == kNone;
        } else {
            const int ctl = c.s.areas[ct.area].control;
            ok = ctl == side || ctl == kNone;
        }
        if (ok)
            out.push_back(i16(city));
    }
    return out;
}

bool recovery(Ctx& c, int side, int cardIdx, int levels) {
    if (recoveryCities(c, side).empty())
        return false;
    pushChoice(c, side, cardIdx, kCodeRecovery, {}, levels);
    runCommon(c);
    return true;
}

// ---------------------------------------------------------------- Mutiny

std::vector<int16_t> mutinyTargets(const Ctx& c, int side) {
    std::vector<int16_t> out;
    const std::vector<int> count = unitsPerCity(c, other(side), true);
    for (size_t ci = 0; ci < count.size(); ++ci)
        if (count[ci] > 0)
            out.push_back(i16(static_cast<int>(ci)));
    return out;
}

bool mutiny(Ctx& c, int side, int cardIdx) {
    const std::vector<int16_t> targets = mutinyTargets(c, side);
    if (targets.empty())
        return false;
    pushChoice(c, side, cardIdx, kCodeMutinyStack, targets);
    runCommon(c);
    return true;
}

void lootRoll(Ctx& c, int cardIdx, int city, const std::vector<int>& units, const QString& rule) {
    Q_UNUSED(cardIdx);
    if (units.empty())
        return;
    lootStack(c, city, unitSide(c.d, c.s, units.front()), units, rule); // economy (15.2, 15.224, 15.225)
}

// ---------------------------------------------------------------- Saxony switches sides

void saxonySwitches(Ctx& c, int toSide, int cardIdx, const QString& rule) {
    const int sax = natIdx(c.d, QStringLiteral("saxon"));
    if (sax < 0 || c.s.nationSide[sax] == toSide)
        return;
    const int fromSide = other(toSide);
    // Saxon pieces stacked with pieces of the side they leave (same location, the same side of a wall)
    std::vector<int16_t> groups;
    auto isSaxonUnit = [&](int u) { return natOf(c.d, c.s, u) == QLatin1String("saxon"); };
    auto isSaxonLeader = [&](int l) { return leaderNat(c.d, l) == QLatin1String("saxon"); };
    std::vector<int16_t> locs;
    for (size_t u = 0; u < c.s.units.size(); ++u)
        if (c.s.units[u].loc >= 0 && isSaxonUnit(static_cast<int>(u)))
            locs.push_back(c.s.units[u].loc);
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l)
        if (leaderOnMap(c.s, static_cast<int>(l)) && isSaxonLeader(static_cast<int>(l)))
            locs.push_back(c.s.leaders[l].loc);
    std::sort(locs.begin(), locs.end());
    locs.erase(std::unique(locs.begin(), locs.end()), locs.end());
    for (int16_t loc : locs) {
        bool mixed = false;
        for (int u : unitsAt(c.s, loc, fromSide, c.d))
            mixed |= !isSaxonUnit(u);
        for (int l : leadersAt(c.s, loc, fromSide, c.d))
            mixed |= !isSaxonLeader(l);
        if (mixed)
            groups.push_back(loc);
    }
    c.s.nationSide[sax] = static_cast<int8_t>(toSide);
    WP_SAY(c,
           QStringLiteral("%1 Saxony switches sides: John George and the Saxon units are now %2")
               .arg(rule, sideName(toSide)),
           toSide);
    // 13.14: Saxons who besieged beside their former friends leave that besieging force now (they return
    // to Saxony below): a siege that falls below its Siege Level is lifted at once
    for (int16_t loc : groups)
        if (isCity(loc) && c.s.cities[loc].sieger == fromSide)
            checkSiegeMaintained(c, loc);
    // sieges between the Saxons and their new friends end (8.66)
    for (int16_t loc : locs) {
        if (!isCity(loc))
            continue;
        CityState& cs = c.s.cities[loc];
        if (cs.siege == 0 || std::find(groups.begin(), groups.end(), loc) != groups.end())
            continue;
        if (!anyUnitsAt(c.s, loc, other(cs.sieger), c.d) || !anyUnitsOutside(c.s, loc, cs.sieger, c.d)) {
            WP_SAY(c, QStringLiteral("8.66 the siege of %1 ends").arg(cityName(c.d, loc)), toSide);
            cs.siege = 0;
            cs.sieger = kNone;
        }
    }
    for (int16_t loc : locs) {
        if (!isCity(loc) || std::find(groups.begin(), groups.end(), loc) != groups.end())
            continue;
        if (!hasEnemyUnits(c.d, c.s, loc, toSide)) {
            for (int u : unitsAt(c.s, loc, toSide, c.d))
                c.s.units[u].flags &= static_cast<uint8_t>(~kInside);
            for (int l : leadersAt(c.s, loc, toSide, c.d))
                c.s.leaders[l].flags &= static_cast<uint8_t>(~kInside);
        }
    }
    // every Saxony city not occupied by units of the side they leave switches (Area, VP, Electors follow)
    const int area = areaIdx(c.d, QStringLiteral("saxony"));
    if (area >= 0)
        for (int city : c.d.areas[area].cities)
            if (!anyUnitsAt(c.s, city, fromSide, c.d) && !c.s.cities[city].revolt &&
                effectiveCityControl(c.d, c.s, city) != toSide)
                setCityControl(c, city, toSide, QStringLiteral("8.66"));
    updateElectors(c);
    if (groups.empty())
        return;
    pushChoice(c, toSide, cardIdx, kCodeSaxonTeleport, {}, 1, groups);
    runCommon(c);
}

// ---------------------------------------------------------------- the UP

void upLeaderless(Ctx& c, int cardIdx) {
    if (upUnits(c.d, c.s, kProtestant).empty() || !upLeaders(c.d, c.s, kProtestant).empty())
        return;
    WP_SAY(c, QStringLiteral("16.22 the Protestant army in the UP has lost its leader"), kProtestant);
    pushChoice(c, kProtestant, cardIdx, kCodeUpLeaderless, {});
    runCommon(c);
}

// ---------------------------------------------------------------- Spinola Besieges

namespace {
const char* const kSiegeCards[] = {"C3", "C4"};
QString respondKey(const char* card) {
    return QStringLiteral("%1.respond").arg(QLatin1String(card));
}
} // namespace

bool dutchSiegePending(const GameState& s) {
    if (s.markers.isEmpty())
        return false;
    static const QString keys[] = {respondKey(kSiegeCards[0]), respondKey(kSiegeCards[1])};
    for (const QString& key : keys)
        if (s.markers.contains(key))
            return true;
    return false;
}

void dutchSiegeResponse(Ctx& c) {
    if (!dutchSiegePending(c.s))
        return;
    const std::vector<int> units = upUnits(c.d, c.s, kProtestant);
    if (units.size() < 3 || upLeaders(c.d, c.s, kProtestant).empty())
        return; // 16.251: at least one leader and three units
    for (const char* card : kSiegeCards) {
        if (!c.s.markers.contains(respondKey(card)))
            continue;
        c.s.markers.remove(respondKey(card));
        WP_SAY(c,
               QStringLiteral("16.251 the Protestant army in the UP Responds to %1").arg(QLatin1String(card)),
               kProtestant);
        pushChoice(c, kProtestant, cardIdx(c.d, QLatin1String(card)), kCodeUpResponseStep, {});
        runCommon(c);
    }
}

void dutchSiegeEndOfTurn(Ctx& c) {
    for (const char* card : kSiegeCards) {
        if (!c.s.markers.contains(respondKey(card)))
            continue;
        c.s.markers.remove(respondKey(card));
        if (dutchWarOver(c.s))
            continue;
        moveDutchWar(c, 1, QStringLiteral("16.253 no Protestant Response to %1:").arg(QLatin1String(card)));
    }
}

// ---------------------------------------------------------------- preconditions

void setCheck(EventDef& def, Check check) {
    def.playable = [check](const Ctx& c, int side) { return check(c, side).isEmpty(); };
    def.whyNot = [check](const Ctx& c, int side) { return check(c, side); };
}

// ---------------------------------------------------------------- combat cards

const std::vector<int16_t>& combatUnits(const CombatFrame& f, int side) {
    return side == f.attacker ? f.attackUnits : f.defendUnits;
}

const std::vector<int16_t>& combatLeaders(const CombatFrame& f, int side) {
    return side == f.attacker ? f.attackLeaders : f.defendLeaders;
}

int combatCommander(const CombatFrame& f, int side) {
    return side == f.attacker ? f.attackCommander : f.defendCommander;
}

bool armyHasNat(const Ctx& c, const CombatFrame& f, int side, const QString& nat, int kind) {
    for (int u : combatUnits(f, side))
        if (alive(c.s, u) && natOf(c.d, c.s, u) == nat &&
            (kind < 0 || kindOf(c.d, c.s, u) == static_cast<UnitKind>(kind)))
            return true;
    return false;
}

bool armyHasKind(const Ctx& c, const CombatFrame& f, int side, UnitKind kind) {
    for (int u : combatUnits(f, side))
        if (alive(c.s, u) && kindOf(c.d, c.s, u) == kind)
            return true;
    return false;
}

bool surpriseBlocks(const Ctx& c, const CombatFrame& f, int side) {
    if (side == f.attacker)
        return false;
    for (int16_t card : f.cards[f.attacker]) {
        const QString& id = c.d.cards[card].id;
        if (id == QLatin1String("C48") || id == QLatin1String("P12"))
            return true;
    }
    return false;
}

std::function<bool(const Ctx&, const CombatFrame&, int)>
combatRule(std::function<bool(const Ctx&, const CombatFrame&, int)> cond) {
    return [cond = std::move(cond)](const Ctx& c, const CombatFrame& f, int side) {
        if (surpriseBlocks(c, f, side))
            return false; // C48/P12: the defender may play no combat card
        return !cond || cond(c, f, side);
    };
}

} // namespace wp::rules::ev
