// Recruitment (8.4): a REC card of value N gives N attempts, one leader at most twice; each attempt rolls
// on the Recruitment Table for Mercenaries or Militia of the nationality the leader may raise where he
// stands (17.x); the steps come as full or reduced units within the counter mix (8.412) and the stacking
// limit (8.42). Wallenstein's track rises by one per unit he raises (7.1).
#include "rules/economy.h"
#include "rules/named.h"

#include <algorithm>

namespace wp::rules {

namespace {

using eco::top;

bool areaIs(const GameData& d, const City& ct, const char* id) {
    return ct.area >= 0 && d.areas[ct.area].id == QLatin1String(id);
}

bool areaIn(const GameData& d, const City& ct, std::initializer_list<const char*> ids) {
    for (const char* id : ids)
        if (areaIs(d, ct, id))
            return true;
    return false;
}

// "Protestant-controlled Independent City or Area" (17.F.2, 17.G.2, 17.Sw.3).
bool protestantPlace(const GameData& d, const GameState& s, int city) {
    const City& ct = d.cities[city];
    if (ct.independent)
        return effectiveCityControl(d, s, city) == kProtestant;
    return ct.area >= 0 && s.areas[ct.area].control == kProtestant && !s.cities[city].revolt;
}

// The unit type `leader` may recruit as `kind` where he stands (17.A.3, 17.B.3, 17.D.2, 17.F.2, 17.G.2,
// 17.H.2-17.H.3, 17.Sa.2, 17.Sp.4, 17.Sw.3), or -1.
int recruitType(const Ctx& c, int leader, UnitKind kind) {
    const GameData& d = c.d;
    const GameState& s = c.s;
    const int city = s.leaders[leader].loc;
    if (!isCity(static_cast<int16_t>(city)))
        return -1;
    const City& ct = d.cities[city];
    const int nat = d.leaders[leader].nationality;
    const Nationality& n = d.nationalities[nat];
    if (effectAny(s, QStringLiteral("norecruit."), n.id))
        return -1; // C43
    // 17.H.3: while Hungary is in rebellion only Hungarian Militia are recruited there.
    const bool hungaryLocked = areaIs(d, ct, "hungary") && s.hungaryRebellion && n.code != NatCode::Hungarian;
    if (hungaryLocked)
        return -1;
    int unitNat = nat; // the nationality of the units raised
    auto protestantNat = [&] { return named(d, Named::ProtestantNationality); };
    switch (n.code) {
    case NatCode::Imperial: // 17.A.3
        if (ct.france || (!ct.independent && areaIs(d, ct, "bavaria")))
            return -1;
        break;
    case NatCode::Bavarian: // 17.B.3
        if (ct.france ||
            (!ct.independent && areaIn(d, ct, {"austria", "tyrol", "hungary", "silesia", "moravia"})))
            return -1;
        break;
    case NatCode::Saxon: // 17.Sa.2
        if (kind != UnitKind::Militia || !areaIs(d, ct, "saxony"))
            return -1;
        break;
    case NatCode::Hungarian: // 17.H.2
        if (kind != UnitKind::Militia || !areaIs(d, ct, "hungary"))
            return -1;
        break;
    case NatCode::Protestant: // 17.G.2
    case NatCode::Swedish:    // 17.Sw.3
        if (ct.france)
            return -1;
        if (kind == UnitKind::Militia &&
            (!protestantPlace(d, s, city) ||
             (!ct.independent && areaIn(d, ct, {"spanish-netherlands", "austria", "bavaria", "hungary"}))))
            return -1;
        unitNat = protestantNat();
        break;
    case NatCode::French: // 17.F.2
        if (kind == UnitKind::Militia) {
            const int lorraine = d.area(QStringLiteral("lorraine"));
            const bool inLorraine =
                areaIs(d, ct, "lorraine") && lorraine >= 0 && s.areas[lorraine].control == kProtestant;
            if (!ct.france && !inLorraine)
                return -1;
        } else {
            if (ct.france || !protestantPlace(d, s, city))
                return -1;
            unitNat = protestantNat();
        }
        break;
    default:
        return -1; // 17.D.2 Danes, 17.Sp.4 Spaniards never recruit
    }
    const UnitType* t = d.unitType(unitNat, kind);
    if (!t)
        return -1;
    return static_cast<int>(t - &d.unitTypes[0]);
}

// The counter mix per unit type (count and first unit), counted once for the questions about many leaders
// asked of one unchanged state (who may recruit).
struct PoolMemo {
    bool counted = false;
    std::vector<int> count, first;
    void at(const Ctx& c, int type, int* n, int* firstUnit) {
        if (!counted) { // one pass over the counters for every type
            counted = true;
            count.assign(static_cast<size_t>(c.d.unitTypes.size()), 0);
            first.assign(count.size(), -1);
            for (size_t u = 0; u < c.s.units.size(); ++u) {
                const UnitState& us = c.s.units[u];
                if (us.loc != kPool || size_t(us.type) >= count.size())
                    continue;
                if (count[size_t(us.type)]++ == 0)
                    first[size_t(us.type)] = static_cast<int>(u);
            }
        }
        *n = count[size_t(type)];
        *firstUnit = first[size_t(type)];
    }
};

// How many units of `type` the leader's space can receive: counter mix (8.412), stacking (8.42, 10.24),
// nationality stacking (17.A.2 and the others).
int capacity(const Ctx& c, int leader, int type, PoolMemo* memo = nullptr) {
    const int city = c.s.leaders[leader].loc;
    const int side = leaderSide(c.d, c.s, leader);
    std::vector<int> units = unitsAt(c.s, city, side, c.d);
    const int room = 8 - static_cast<int>(units.size());
    if (room <= 0)
        return 0;
    int first = -1, pool = 0;
    if (memo)
        memo->at(c, type, &pool, &first);
    else // the counter mix, counted only as far as the room (the answer is the smaller)
        for (size_t u = 0; u < c.s.units.size() && pool < room; ++u)
            if (c.s.units[u].type == type && c.s.units[u].loc == kPool && pool++ == 0)
                first = static_cast<int>(u);
    if (pool == 0)
        return 0;
    units.push_back(first);
    if (!mixAllowed(c, units, leadersAt(c.s, city, side, c.d)))
        return 0;
    return std::min(room, pool);
}

int feasibleType(const Ctx& c, int leader, UnitKind kind, PoolMemo* memo = nullptr) {
    const int t = recruitType(c, leader, kind);
    return t >= 0 && capacity(c, leader, t, memo) > 0 ? t : -1;
}

bool besiegedLeader(const GameState& s, int leader) {
    const LeaderState& ls = s.leaders[leader];
    if (!(ls.flags & kInside) || !isCity(ls.loc))
        return false;
    const CityState& cs = s.cities[ls.loc];
    return cs.siege > 0 && cs.sieger != kNone;
}

// May `leader` make a recruitment attempt now (8.4)?
bool leaderMayRecruit(const Ctx& c, int side, int leader, const ChoiceFrame* f, PoolMemo* memo = nullptr) {
    const LeaderState& ls = c.s.leaders[leader];
    if (ls.status != LeaderStatus::InPlay || !isCity(ls.loc) || leaderSide(c.d, c.s, leader) != side)
        return false;
    if (besiegedLeader(c.s, leader))
        return false; // 8.4: besieged leaders cannot recruit
    if (c.s.cities[ls.loc].pillage >= 2)
        return false; // 8.4, 15.24: never at Pillage-2
    if (f) {
        if (std::count(f->extra.begin(), f->extra.end(), leader) >= 2)
            return false; // 8.4: one leader at most twice
        if (!f->options.empty() && std::find(f->options.begin(), f->options.end(),
                                             c.d.leaders[leader].nationality) == f->options.end())
            return false; // an event's recruiting (P23) names the leaders' nationalities
    }
    return feasibleType(c, leader, UnitKind::Mercenary, memo) >= 0 ||
           feasibleType(c, leader, UnitKind::Militia, memo) >= 0;
}

std::vector<int> recruiters(const Ctx& c, int side, const ChoiceFrame* f) {
    std::vector<int> out;
    PoolMemo memo;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l)
        if (leaderMayRecruit(c, side, static_cast<int>(l), f, &memo))
            out.push_back(static_cast<int>(l));
    return out;
}

bool anyRecruiter(const Ctx& c, int side, const ChoiceFrame* f) {
    PoolMemo memo;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l)
        if (leaderMayRecruit(c, side, static_cast<int>(l), f, &memo))
            return true;
    return false;
}

UnitKind kindOf(int code) {
    return code == 2 ? UnitKind::Militia : UnitKind::Mercenary;
}

int recruitDrm(const Ctx& c, int leader, bool apSpent, QStringList* why) {
    const RollTable& t = c.d.tables.recruit;
    int drm = 0;
    auto add = [&](const char* id, int fallback, const QString& text) {
        const int v = eco::tableDrm(t, QLatin1String(id), fallback);
        drm += v;
        if (why)
            *why << QStringLiteral("%1%2 %3").arg(v > 0 ? "+" : "").arg(v).arg(text);
    };
    if (c.d.leaders[leader].id == QLatin1String("wallenstein"))
        add("wallenstein", 2, QStringLiteral("Wallenstein"));
    else if (effectiveStars(c.d, c.s, leader) > 0)
        add("dynamic", 1, QStringLiteral("Dynamic leader"));
    if (c.s.cities[c.s.leaders[leader].loc].pillage == 1)
        add("pillage1", -1, QStringLiteral("Pillage-1"));
    if (c.s.options.aid_recruit && !apSpent)
        add("no-ap", -1, QStringLiteral("no Aid Point spent (19.4b)"));
    return drm;
}

// The distinct ways to take `steps` (full units f, reduced units r) within `limit` units (8.411, 8.42).
std::vector<std::pair<int, int>> outcomes(int steps, int limit) {
    std::vector<std::pair<int, int>> out;
    for (int f = 0; f <= std::min(steps / 2, limit); ++f)
        out.emplace_back(f, std::max(0, std::min(steps - 2 * f, limit - f)));
    return out;
}

void nextAttempt(Ctx& c) {
    ChoiceFrame& f = top(c.s);
    f.count = static_cast<int16_t>(f.count - 1);
    f.purpose = kRecruitLeader;
    f.leader = -1;
    f.kind = 0;
    f.steps = 0;
}

void place(Ctx& c, int full, int reduced) {
    ChoiceFrame& f = top(c.s);
    const int leader = f.leader;
    const int type = recruitType(c, leader, kindOf(f.kind));
    const int city = c.s.leaders[leader].loc;
    const uint8_t inside = c.s.leaders[leader].flags & kInside;
    int placed = 0; // from the counter mix, in counter order
    for (size_t p = 0; p < c.s.units.size() && placed < full + reduced; ++p) {
        UnitState& u = c.s.units[p];
        if (u.type != type || u.loc != kPool)
            continue;
        u.loc = static_cast<int16_t>(city);
        u.steps = placed < full ? 2 : 1;
        u.flags = inside;
        ++placed;
    }
    if (placed > 0 && !inside)
        catchLoneLeaders(c, city, leaderSide(c.d, c.s, leader)); // 11.22
    const int lost = f.steps - 2 * full - reduced;
    WP_SAY(c,
           QStringLiteral("8.411 %1 raises %2 full-strength and %3 reduced %4 %5 at %6%7")
               .arg(leaderName(c.d, leader))
               .arg(full)
               .arg(reduced)
               .arg(c.d.nationalities[c.d.unitTypes[type].nationality].name,
                    unitKindId(c.d.unitTypes[type].kind))
               .arg(cityName(c.d, city))
               .arg(lost > 0
                        ? QStringLiteral(" (%1 step%2 not received: counter mix or stacking, 8.412/8.42)")
                              .arg(lost)
                              .arg(lost > 1 ? "s" : "")
                        : QString()),
           f.actor);
    if (placed > 0 && c.d.leaders[leader].id == QLatin1String("wallenstein"))
        advanceWallenstein(
            c, placed, QStringLiteral("Wallenstein raises %1 unit%2").arg(placed).arg(placed > 1 ? "s" : ""));
}

void rollAttempt(Ctx& c) {
    ChoiceFrame& f = top(c.s);
    f.extra.push_back(f.leader); // 8.4: the attempt counts against the leader
    QStringList why;
    const int drm = recruitDrm(c, f.leader, f.flag, c.log ? &why : nullptr);
    const int r = WP_ROLL(c,
                          QStringLiteral("8.41 %1 recruits %2 at %3")
                              .arg(leaderName(c.d, f.leader), f.kind == 2 ? "Militia" : "Mercenaries",
                                   cityName(c.d, c.s.leaders[f.leader].loc)),
                          f.actor);
    const RollBand* b = eco::tableLookup(c.d.tables.recruit, r + drm);
    const int steps = b ? b->result.value(QStringLiteral("steps")).toInt() : 0;
    ChoiceFrame& g = top(c.s);
    g.steps = static_cast<int8_t>(steps);
    g.purpose = kRecruitSteps;
    WP_SAY(c,
           QStringLiteral("8.41 %1%2 = %3: %4 step%5")
               .arg(r)
               .arg(why.isEmpty() ? QString() : QStringLiteral(" ") + why.join(QLatin1Char(' ')))
               .arg(r + drm)
               .arg(steps)
               .arg(steps == 1 ? "" : "s"),
           f.actor);
}

// Runs the automatic steps of the recruitment on top of the stack up to the next decision.
void advanceRecruit(Ctx& c) {
    for (int guard = 0; guard < 100; ++guard) {
        if (c.s.frames.empty() || !std::holds_alternative<ChoiceFrame>(c.s.frames.back()))
            return;
        ChoiceFrame& f = top(c.s);
        switch (f.purpose) {
        case kRecruitAp:
            return;
        case kRecruitLeader:
            if (f.count <= 0 || !anyRecruiter(c, f.actor, &f)) {
                c.s.frames.pop_back();
                return;
            }
            return;
        case kRecruitKind: {
            const bool merc = feasibleType(c, f.leader, UnitKind::Mercenary) >= 0;
            const bool mil = feasibleType(c, f.leader, UnitKind::Militia) >= 0;
            if (merc && mil)
                return;
            f.kind = merc ? 1 : 2;
            rollAttempt(c);
            continue;
        }
        case kRecruitSteps: {
            if (f.steps <= 0) {
                nextAttempt(c);
                continue;
            }
            const int type = recruitType(c, f.leader, kindOf(f.kind));
            const auto opts = outcomes(f.steps, type >= 0 ? capacity(c, f.leader, type) : 0);
            if (opts.size() > 1)
                return;
            if (opts.size() == 1)
                place(c, opts.front().first, opts.front().second);
            nextAttempt(c);
            continue;
        }
        default:
            return;
        }
    }
}

} // namespace

bool canRecruit(const Ctx& c, int side, int card) {
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(side);
    f.data = static_cast<int16_t>(card);
    if (c.d.cards[card].value <= 0)
        return false;
    return anyRecruiter(c, side, &f);
}

static void beginRecruitment(Ctx& c, ChoiceFrame f) {
    if (!anyRecruiter(c, f.actor, &f)) {
        WP_SAY(c, QStringLiteral("8.4 no leader of %1 can recruit now").arg(sideName(f.actor)), f.actor);
        return;
    }
    if (c.s.options.aid_recruit) {
        if (c.s.aidPoints[f.actor] >= 1)
            f.purpose = kRecruitAp;
        else
            WP_SAY(c, QStringLiteral("19.4b no Aid Point to spend: the recruiting rolls get -1"), f.actor);
    }
    c.s.frames.push_back(std::move(f));
    advanceRecruit(c);
}

void startRecruitment(Ctx& c, int side, int card) {
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(side);
    f.purpose = kRecruitLeader;
    f.data = static_cast<int16_t>(card);
    f.count = static_cast<int16_t>(c.d.cards[card].value); // 8.4: attempts = the card's value
    WP_SAY(c,
           QStringLiteral("8.4 %1 may make %2 recruitment attempt%3")
               .arg(sideName(side))
               .arg(f.count)
               .arg(f.count == 1 ? "" : "s"),
           side);
    beginRecruitment(c, std::move(f));
}

void startRecruitAttempts(Ctx& c, int side, int attempts, const QStringList& leaderNationalities,
                          const QString& rule) {
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(side);
    f.purpose = kRecruitLeader;
    f.count = static_cast<int16_t>(attempts);
    for (const QString& n : leaderNationalities)
        if (c.d.nationality(n) >= 0)
            f.options.push_back(static_cast<int16_t>(c.d.nationality(n)));
    WP_SAY(c,
           QStringLiteral("%1 %2 may make %3 recruitment attempt%4")
               .arg(rule, sideName(side))
               .arg(attempts)
               .arg(attempts == 1 ? "" : "s"),
           side);
    beginRecruitment(c, std::move(f));
}

namespace eco {

std::vector<Action> recruitLegal(const Ctx& c, const ChoiceFrame& f) {
    std::vector<Action> out;
    switch (f.purpose) {
    case kRecruitAp:
        out.push_back(choose(1));
        out.push_back(choose(0));
        break;
    case kRecruitLeader:
        for (int l : recruiters(c, f.actor, &f))
            out.push_back(choose(static_cast<int16_t>(kLeaderBase + l)));
        if (!out.empty())
            out.push_back(pass());
        break;
    case kRecruitKind:
        if (feasibleType(c, f.leader, UnitKind::Mercenary) >= 0)
            out.push_back(choose(1));
        if (feasibleType(c, f.leader, UnitKind::Militia) >= 0)
            out.push_back(choose(2));
        break;
    case kRecruitSteps: {
        const int type = recruitType(c, f.leader, kindOf(f.kind));
        for (const auto& o : outcomes(f.steps, type >= 0 ? capacity(c, f.leader, type) : 0))
            out.push_back(choose(static_cast<int16_t>(o.first)));
        break;
    }
    default:
        break;
    }
    return out;
}

void recruitApply(Ctx& c, const Action& a) {
    ChoiceFrame& f = top(c.s);
    switch (f.purpose) {
    case kRecruitAp:
        f.purpose = kRecruitLeader;
        if (a.target == 1) {
            f.flag = true;
            c.s.aidPoints[f.actor] = static_cast<int8_t>(c.s.aidPoints[f.actor] - 1);
            if (f.actor == kProtestant)
                c.s.aidSwedish = std::min(c.s.aidSwedish, c.s.aidPoints[f.actor]);
            WP_SAY(c,
                   QStringLiteral("19.4b %1 spends 1 Aid Point on recruiting (%2 left)")
                       .arg(sideName(f.actor))
                       .arg(c.s.aidPoints[f.actor]),
                   f.actor);
        } else {
            WP_SAY(c,
                   QStringLiteral("19.4b %1 spends no Aid Point: the recruiting rolls get -1")
                       .arg(sideName(f.actor)),
                   f.actor);
        }
        break;
    case kRecruitLeader:
        if (a.kind == ActionKind::Pass) {
            WP_SAY(c,
                   QStringLiteral("8.4 %1 stops recruiting (%2 attempt%3 unused)")
                       .arg(sideName(f.actor))
                       .arg(f.count)
                       .arg(f.count == 1 ? "" : "s"),
                   f.actor);
            c.s.frames.pop_back();
            return;
        }
        f.leader = static_cast<int16_t>(a.target - kLeaderBase);
        f.purpose = kRecruitKind;
        break;
    case kRecruitKind:
        f.kind = static_cast<int8_t>(a.target);
        rollAttempt(c);
        break;
    case kRecruitSteps: {
        const int type = recruitType(c, f.leader, kindOf(f.kind));
        const int limit = type >= 0 ? capacity(c, f.leader, type) : 0;
        const int full = a.target;
        place(c, full, std::max(0, std::min(f.steps - 2 * full, limit - full)));
        nextAttempt(c);
        break;
    }
    default:
        c.s.frames.pop_back();
        return;
    }
    advanceRecruit(c);
}

} // namespace eco

} // namespace wp::rules
