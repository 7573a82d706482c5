// Issue 4, the shared part: lasting effects of events (8.65), foreign aid (8.5, 14), the Wallenstein Phase
// and track (7), the economy's decisions (dispatch, prompts), and the optional rules 19.4c, 19.5, 19.11.
// Recruitment is in recruit.cpp; pay, loot and pillage in pay.cpp; revolts, peace and the scenario set-up
// in politics.cpp; the nations in nations.cpp.
#include "rules/economy.h"

#include <algorithm>

namespace wp::rules {

namespace {

bool played(const GameData& d, const GameState& s, const char* id) {
    const int ci = d.card(QLatin1String(id));
    return ci >= 0 && s.eventPlayed[ci];
}

QString lastTurnKey(const QString& key) {
    return key + QLatin1Char('@');
}

bool isLastTurnKey(const QString& key) {
    return key.endsWith(QLatin1Char('@'));
}

// 19.4a: events are retroactive to the start of the turn: the AID cards of this turn are re-counted.
void recountAid(Ctx& c) {
    GameState& s = c.s;
    for (int side : {kCatholic, kProtestant}) {
        int total = 0;
        for (int16_t card : s.aidCards[side])
            total += aidCardValue(c.d, s, side, card);
        const int delta = total - s.aidFromCards[side];
        if (delta == 0)
            continue;
        s.aidFromCards[side] = static_cast<int16_t>(total);
        s.aidPoints[side] = static_cast<int8_t>(std::clamp(s.aidPoints[side] + delta, 0, 99));
        if (side == kProtestant)
            s.aidSwedish = std::min(s.aidSwedish, s.aidPoints[side]);
        WP_SAY(c,
               QStringLiteral("19.4a %1's AID cards of this turn are re-counted: %2%3 Aid Points (total %4)")
                   .arg(sideName(side))
                   .arg(delta > 0 ? "+" : "")
                   .arg(delta)
                   .arg(s.aidPoints[side]),
               side);
    }
}

std::vector<int> recallCities(const Ctx& c) {
    std::vector<int> out;
    const int w = c.d.leader(QStringLiteral("wallenstein"));
    if (w < 0)
        return out;
    for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
        const int city = static_cast<int>(ci);
        std::vector<int> units = unitsOutside(c.s, city, kCatholic, c.d);
        std::vector<int> leaders;
        for (int l : leadersAt(c.s, city, kCatholic, c.d))
            if (!(c.s.leaders[l].flags & kInside))
                leaders.push_back(l);
        // 7.22 / 3.2: an army (leaders and units) with Imperial units, not with Tilly.
        bool imperial = false;
        for (int u : units)
            imperial |= unitNatId(c.d, c.s, u) == QLatin1String("imperial");
        if (!imperial || leaders.empty())
            continue;
        bool tilly = false;
        for (int l : leaders)
            tilly |= c.d.leaders[l].id == QLatin1String("tilly");
        if (tilly || !pieceMayEnter(c, c.d.leaders[w].nationality, city))
            continue;
        leaders.push_back(w);
        if (mixAllowed(c, units, leaders))
            out.push_back(city);
    }
    return out;
}

void placeWallenstein(Ctx& c, int city) {
    const int w = c.d.leader(QStringLiteral("wallenstein"));
    c.s.leaders[w] = LeaderState{static_cast<int16_t>(city), LeaderStatus::InPlay, 0};
    c.s.wallensteinUses |= 2;
    WP_SAY(c,
           QStringLiteral("7.22 Wallenstein is recalled and joins the army at %1").arg(cityName(c.d, city)),
           kCatholic);
}

} // namespace

// ---------------------------------------------------------------- lasting effects

void setEffect(Ctx& c, const QString& key, int value, int lastTurn) {
    c.s.markers[key] = value;
    c.s.markers[lastTurnKey(key)] = lastTurn;
    if (c.s.options.aid_no_limit &&
        (key.startsWith(QLatin1String("aid.")) || key.startsWith(QLatin1String("noaid."))))
        recountAid(c);
}

void clearEffect(Ctx& c, const QString& key) {
    c.s.markers.remove(key);
    c.s.markers.remove(lastTurnKey(key));
    if (c.s.options.aid_no_limit &&
        (key.startsWith(QLatin1String("aid.")) || key.startsWith(QLatin1String("noaid."))))
        recountAid(c);
}

int effect(const GameState& s, const QString& key) {
    const auto it = s.markers.constFind(key);
    if (it == s.markers.constEnd())
        return 0;
    if (s.turn > s.markers.value(lastTurnKey(key), kForever))
        return 0;
    return it.value();
}

int effectSum(const GameState& s, const QString& prefix) {
    int sum = 0;
    for (auto it = s.markers.lowerBound(prefix); it != s.markers.constEnd() && it.key().startsWith(prefix);
         ++it)
        if (!isLastTurnKey(it.key()))
            sum += effect(s, it.key());
    return sum;
}

bool effectAny(const GameState& s, const QString& head, const QString& id) {
    const auto it = s.markers.lowerBound(head);
    if (it == s.markers.constEnd() || !it.key().startsWith(head))
        return false;
    return effectAny(s, head + id + QLatin1Char('.'));
}

bool effectAny(const GameState& s, const QString& prefix) {
    for (auto it = s.markers.lowerBound(prefix); it != s.markers.constEnd() && it.key().startsWith(prefix);
         ++it)
        if (!isLastTurnKey(it.key()) && effect(s, it.key()) != 0)
            return true;
    return false;
}

// ---------------------------------------------------------------- foreign aid

// A Catholic event's lasting switch (C5, C36): played as an Event, not ended by its Protestant answer (the
// events' reminder "<id>.ended", or the answering card played).
bool catholicSwitchOn(const GameData& d, const GameState& s, const char* id, const char* ender) {
    return played(d, s, id) && s.markers.value(QLatin1String(id) + QStringLiteral(".ended")) == 0 &&
           !played(d, s, ender);
}

bool donorEligible(const GameData& d, const GameState& s, int side, const QString& donor) {
    const bool listed = s.aidSources[side].contains(donor);
    if (effectAny(s, QStringLiteral("noaid."), donor))
        return false;                     // C42 and the like (economy.h)
    if (donor == QLatin1String("france")) // 14.3: after P9; not while C36 is in effect (until P2)
        return (listed || played(d, s, "P9")) && !catholicSwitchOn(d, s, "C36", "P2");
    if (donor == QLatin1String("england")) // 14.3, 17.E.1: until C40
        return listed && !played(d, s, "C40");
    if (donor == QLatin1String("up")) // 14.3, 16.13: ends for good at the +5 box
        return listed && s.dutchWar < 5;
    if (donor == QLatin1String("spain")) // 14.4: only while the Val Telline Passes are open
        return s.valTellineOpen;
    if (donor == QLatin1String("pope")) {
        // 14.4, 17.P.2: not under Urban VIII (P15) until Innocent X (C44); P5's interregnum (the reminder
        // "P5.papalAidResumesTurn": the turn Papal Aid comes back).
        if (s.turn < s.markers.value(QStringLiteral("P5.papalAidResumesTurn"), 0))
            return false;
        return !(played(d, s, "P15") && !played(d, s, "C44"));
    }
    return listed;
}

int donorPoints(const GameData& d, const GameState& s, int side, const QString& donor, int printed) {
    if (!donorEligible(d, s, side, donor))
        return 0;
    int v = printed + effectSum(s, QStringLiteral("aid.%1.").arg(donor));
    if (donor == QLatin1String("up"))
        v += s.dutchAidModifier; // 16.13, 16.131: the box most recently occupied
    if (donor == QLatin1String("england") && catholicSwitchOn(d, s, "C5", "P20"))
        v -= 2; // C5 until P20
    if (donor == QLatin1String("spain")) {
        // C16 +2 for the rest of the game (its reminder "C16.spanishAid" if the event left one)
        const auto c16 = s.markers.constFind(QStringLiteral("C16.spanishAid"));
        v += c16 != s.markers.constEnd() ? c16.value() : played(d, s, "C16") ? 2 : 0;
        if (s.markers.value(QStringLiteral("P43.spainAidMinus2")) != 0 || played(d, s, "P43"))
            v -= 2; // P43 for the rest of the game
        if (s.markers.value(QStringLiteral("P42.spainAidMinus2")) != 0)
            v -= 2; // P42 without a Spanish Veteran to remove
        if (s.markers.value(QStringLiteral("P24.spainAidMinus3ThroughTurn"), -1) >= s.turn)
            v -= 3; // P24 until the end of the next turn
    }
    return std::max(0, v);
}

int aidCardValue(const GameData& d, const GameState& s, int side, int card) {
    int total = 0;
    const Card& cd = d.cards[card];
    for (auto it = cd.aid.begin(); it != cd.aid.end(); ++it)
        total += donorPoints(d, s, side, it.key(), it.value());
    return s.options.half_aid_side == side ? total / 2 : total; // the issue-8 handicap
}

int aidCardPoints(const Ctx& c, int side, int card) {
    GameState& s = c.s;
    const Card& cd = c.d.cards[card];
    int total = 0, swedish = 0;
    QStringList parts;
    for (auto it = cd.aid.begin(); it != cd.aid.end(); ++it) {
        const int v = donorPoints(c.d, s, side, it.key(), it.value());
        total += v;
        if (it.key() == QLatin1String("france"))
            swedish += v;
        parts << QStringLiteral("%1 %2%3").arg(it.key()).arg(v).arg(
            donorEligible(c.d, s, side, it.key()) ? QString() : QStringLiteral(" (not eligible)"));
    }
    if (s.options.half_aid_side == side) { // issue 8's difficulty handicap: half, rounded down
        total /= 2;
        swedish /= 2;
        parts << QStringLiteral("halved by the handicap: %1").arg(total);
    }
    WP_SAY(c,
           QStringLiteral("14.2 %1 from %2: %3").arg(sideName(side), cd.id, parts.join(QLatin1String(", "))),
           side);
    s.aidCards[side].push_back(static_cast<int16_t>(card));
    s.aidFromCards[side] = static_cast<int16_t>(s.aidFromCards[side] + total);
    if (side == kProtestant)
        s.aidSwedish = static_cast<int8_t>(std::min(99, s.aidSwedish + swedish));
    return total;
}

void receiveAidPoints(Ctx& c, int side, int points, const QString& donor, const QString& rule) {
    GameState& s = c.s;
    s.aidPoints[side] = static_cast<int8_t>(std::clamp(s.aidPoints[side] + points, 0, 99));
    // 17.Sw.1: French and Swedish points may pay Swedish units; English, Dutch and Savoyard may not.
    if (side == kProtestant && (donor == QLatin1String("france") || donor == QLatin1String("sweden")))
        s.aidSwedish = static_cast<int8_t>(std::min(99, s.aidSwedish + points));
    WP_SAY(c,
           QStringLiteral("%1 %2 receives %3 Aid Points from %4 (total %5)")
               .arg(rule, sideName(side))
               .arg(points)
               .arg(donor)
               .arg(s.aidPoints[side]),
           side);
}

// ---------------------------------------------------------------- Wallenstein (7)

std::vector<Action> wallensteinLegal(const Ctx& c) {
    std::vector<Action> out;
    if (!c.s.setupPillageDone)
        return out; // the scenario's set-up comes first (politics.cpp)
    const int w = c.d.leader(QStringLiteral("wallenstein"));
    if (w < 0)
        return out;
    const LeaderStatus st = c.s.leaders[w].status;
    const bool dismissed = c.s.wallensteinUses & 1, recalled = c.s.wallensteinUses & 2;
    auto add = [&](int16_t t) {
        Action a;
        a.kind = ActionKind::Wallenstein;
        a.target = t;
        out.push_back(a);
    };
    if (st == LeaderStatus::InPlay && !dismissed)
        add(0); // 7.21
    if (st == LeaderStatus::Aside && dismissed && !recalled && !recallCities(c).empty())
        add(1); // 7.22
    if (st == LeaderStatus::InPlay && dismissed && recalled)
        add(2); // 7.23
    return out;
}

void wallensteinApply(Ctx& c, const Action& a) {
    GameState& s = c.s;
    const int w = c.d.leader(QStringLiteral("wallenstein"));
    if (w < 0 || a.kind != ActionKind::Wallenstein)
        return;
    switch (a.target) {
    case 0: {
        const int16_t from = s.leaders[w].loc;
        const int cut = (s.wallensteinTrack + 1) / 2;
        s.leaders[w] = LeaderState{kAside, LeaderStatus::Aside, 0};
        s.wallensteinUses |= 1;
        s.wallensteinTrack = static_cast<int8_t>(s.wallensteinTrack - cut);
        WP_SAY(c,
               QStringLiteral("7.21 Wallenstein is dismissed (from %1): track -%2 -> %3")
                   .arg(cityName(c.d, from))
                   .arg(cut)
                   .arg(s.wallensteinTrack),
               kCatholic);
        if (isCity(from))
            checkSiegeMaintained(c, from);
        return;
    }
    case 1: {
        const std::vector<int> cities = recallCities(c);
        if (cities.size() == 1) {
            placeWallenstein(c, cities.front());
            return;
        }
        ChoiceFrame f;
        f.actor = kCatholic;
        f.purpose = kWallensteinRecall;
        for (int city : cities)
            f.options.push_back(static_cast<int16_t>(city));
        s.frames.push_back(f);
        return;
    }
    case 2: {
        const int16_t from = s.leaders[w].loc;
        s.leaders[w] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
        WP_SAY(c,
               QStringLiteral("7.23 Wallenstein is assassinated (at %1) and leaves the game")
                   .arg(cityName(c.d, from)),
               kCatholic);
        return;
    }
    default:
        return;
    }
}

void advanceWallenstein(Ctx& c, int boxes, const QString& why) {
    GameState& s = c.s;
    if (boxes <= 0)
        return;
    const int from = s.wallensteinTrack;
    int extra = 0;
    if (s.options.wallenstein_ambition && from >= 16) {
        // 19.6: in the last five spaces, a roll of 9+ (+1 at 30-34 VP, +2 at 35+) moves one box more.
        const int drm = s.vp >= 35 ? 2 : s.vp >= 30 ? 1 : 0;
        const int r = WP_ROLL(c, QStringLiteral("19.6 Wallenstein's Ambition, DRM %1").arg(drm), kCatholic);
        if (r + drm >= 9)
            extra = 1;
    }
    s.wallensteinTrack = static_cast<int8_t>(std::min(20, from + boxes + extra));
    WP_SAY(c,
           QStringLiteral("7.1 %1: Wallenstein track %2 -> %3%4")
               .arg(why)
               .arg(from)
               .arg(s.wallensteinTrack)
               .arg(extra ? QStringLiteral(" (19.6 one box more)") : QString()),
           kCatholic);
}

bool canTryWallensteinEnemies(const Ctx& c, int side) {
    const GameState& s = c.s;
    return s.options.wallenstein_enemies && side == kProtestant && s.wallensteinTrack >= 16 &&
           wallensteinInPlay(c.d, s) && s.enemiesTurn != s.turn && !s.hand[side].empty();
}

void tryWallensteinEnemies(Ctx& c, int side, int card) {
    GameState& s = c.s;
    s.enemiesTurn = s.turn;
    discardCard(c, side, card, false);
    WP_SAY(c,
           QStringLiteral("19.11 Wallenstein's Enemies: the Protestant discards %1").arg(c.d.cards[card].id),
           side);
    const int r = WP_ROLL(c, QStringLiteral("19.11 Wallenstein's Enemies"), kCatholic);
    if (r + s.wallensteinTrack >= 26) {
        const int w = c.d.leader(QStringLiteral("wallenstein"));
        const int16_t from = s.leaders[w].loc;
        s.leaders[w] = LeaderState{kRemoved, LeaderStatus::Removed, 0};
        WP_SAY(c, QStringLiteral("19.11 %1 + %2 >= 26: Wallenstein is assassinated at %3")
                      .arg(r)
                      .arg(s.wallensteinTrack)
                      .arg(cityName(c.d, from)));
        if (isCity(from))
            checkSiegeMaintained(c, from);
    } else {
        WP_SAY(c, QStringLiteral("19.11 %1 + %2 < 26: Wallenstein survives").arg(r).arg(s.wallensteinTrack));
    }
}

// ---------------------------------------------------------------- optional rules with their own action

void upIntervention(Ctx& c, int side, int card) {
    const int value = c.d.cards[card].value;
    if (dutchWarOver(c.s)) {
        WP_SAY(c, QStringLiteral("19.5 the Dutch War is over: no effect"), side);
        return;
    }
    const int r = WP_ROLL(c, QStringLiteral("19.5 United Provinces Increased Intervention"), side);
    const int m = side == kCatholic ? r + value : r - value;
    WP_SAY(c,
           QStringLiteral("19.5 %1 %2 %3 = %4").arg(r).arg(side == kCatholic ? "+" : "-").arg(value).arg(m),
           side);
    if (m > 9)
        moveDutchWar(c, 1, QStringLiteral("19.5"));
    else if (m < 0)
        moveDutchWar(c, -1, QStringLiteral("19.5"));
}

bool freeActionAffordable(const GameState& s, int side) {
    return !s.options.aid_free_action || s.aidPoints[side] >= 1;
}

void payFreeAction(Ctx& c, int side) {
    GameState& s = c.s;
    if (!s.options.aid_free_action)
        return;
    s.aidPoints[side] = static_cast<int8_t>(std::max(0, s.aidPoints[side] - 1));
    if (side == kProtestant)
        s.aidSwedish = std::min(s.aidSwedish, s.aidPoints[side]);
    WP_SAY(c, QStringLiteral("19.4c the Free Action costs 1 Aid Point (%1 left)").arg(s.aidPoints[side]),
           side);
}

// ---------------------------------------------------------------- the economy's decisions

namespace eco {

ChoiceFrame& top(GameState& s) {
    return std::get<ChoiceFrame>(s.frames.back());
}

int turnStep(const GameState& s) {
    return std::get<TurnFrame>(s.frames.front()).step;
}

void setTurnStep(GameState& s, int step) {
    std::get<TurnFrame>(s.frames.front()).step = static_cast<int16_t>(step);
}

const RollBand* tableLookup(const RollTable& t, int modified) {
    const int m = std::clamp(modified, t.rollMin, t.rollMax);
    return t.lookup(m);
}

int tableDrm(const RollTable& t, const QString& id, int fallback) {
    for (const QJsonValue& v : t.modifiers) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("id")).toString() == id && o.value(QStringLiteral("drm")).isDouble())
            return o.value(QStringLiteral("drm")).toInt();
    }
    return fallback;
}

bool enemyUnitsAtOrNextTo(const GameData& d, const GameState& s, int city, int side) {
    if (hasEnemyUnits(d, s, city, side))
        return true;
    for (int n : d.cities[city].neighbours)
        if (hasEnemyUnits(d, s, n, side))
            return true;
    return false;
}

void pushChoice(Ctx& c, ChoiceFrame f) {
    c.s.frames.push_back(std::move(f));
}

Action choose(int16_t target) {
    Action a;
    a.kind = ActionKind::Choose;
    a.target = target;
    return a;
}

Action pass() {
    return Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}};
}

} // namespace eco

std::vector<Action> economyChoiceLegal(const Ctx& c, const ChoiceFrame& f) {
    if (f.purpose >= kRecruitLeader && f.purpose <= kRecruitAp)
        return eco::recruitLegal(c, f);
    if (f.purpose >= kPayUnits && f.purpose < kWallensteinRecall)
        return eco::payLegal(c, f);
    if (f.purpose == kWallensteinRecall) {
        std::vector<Action> out;
        for (int16_t city : f.options)
            out.push_back(eco::choose(city));
        return out;
    }
    return eco::politicsLegal(c, f);
}

void economyChoiceApply(Ctx& c, const Action& a) {
    const ChoiceFrame& f = eco::top(c.s);
    if (f.purpose >= kRecruitLeader && f.purpose <= kRecruitAp) {
        eco::recruitApply(c, a);
        return;
    }
    if (f.purpose >= kPayUnits && f.purpose < kWallensteinRecall) {
        eco::payApply(c, a);
        return;
    }
    if (f.purpose == kWallensteinRecall) {
        c.s.frames.pop_back();
        placeWallenstein(c, a.target);
        return;
    }
    eco::politicsApply(c, a);
}

int economyTargetKind(const ChoiceFrame& f) {
    switch (f.purpose) {
    case kRecruitLeader:
        return 3;
    case kPayUnits:
    case kStepLoss:
        return 2;
    case kLeadersPlace:
    case kRecoverPillage:
    case kWallensteinRecall:
    case kRevoltSpread:
    case kSetupPillage:
        return 1;
    default:
        return 0;
    }
}

QString economyPrompt(const GameData& d, const GameState& s, const ChoiceFrame& f) {
    const QString who = sideName(f.actor);
    switch (f.purpose) {
    case kRecruitLeader:
        return QStringLiteral("%1: choose a leader to recruit (%2 attempt%3 left, 8.4), or pass")
            .arg(who)
            .arg(f.count)
            .arg(f.count == 1 ? "" : "s");
    case kRecruitKind:
        return QStringLiteral("%1: %2 recruits Mercenaries (choose 1) or Militia (choose 2) (8.41)")
            .arg(who, leaderName(d, f.leader));
    case kRecruitSteps:
        return QStringLiteral("%1: %2 steps recruited: choose how many full-strength units (8.411)")
            .arg(who)
            .arg(f.steps);
    case kRecruitAp:
        return QStringLiteral("%1: spend 1 Aid Point to avoid the -1 recruiting DRM? (choose 1 or 0, 19.4b)")
            .arg(who);
    case kPayUnits:
        return QStringLiteral(
                   "%1: choose a unit to pay (%2 Aid Points left, 15.13), or pass to leave the rest Unpaid")
            .arg(who)
            .arg(s.aidPoints[f.actor]);
    case kStepLoss:
        return QStringLiteral("%1: choose the unit that loses a step (%2 to take, 15.223)")
            .arg(who)
            .arg(f.count);
    case kLeadersPlace:
        return QStringLiteral("%1: choose a friendly city for the leaders left alone at %2 (15.225)")
            .arg(who, cityName(d, f.city));
    case kRecoverPillage:
        return QStringLiteral("%1: choose a city to recover one Pillage level (%2 left, 15.25), or pass")
            .arg(who)
            .arg(f.count);
    case kWallensteinRecall:
        return QStringLiteral("%1: choose the army Wallenstein joins (7.22)").arg(who);
    case kRevoltSpread:
        return QStringLiteral("%1: choose the city the Peasant Revolt at %2 spreads to (9.44)")
            .arg(who, cityName(d, f.city));
    case kPeaceAnswer:
        return QStringLiteral("%1: %2 offers peace: accept or decline (5.31)")
            .arg(who, sideName(other(f.actor)));
    case kPeaceWithdraw:
        return QStringLiteral("%1: choose the Area (%2+) or Independent Cities the %3 withdraws from (5.32)")
            .arg(who)
            .arg(kAreaCode)
            .arg(sideName(f.kind));
    case kSetupPillage:
        return QStringLiteral("%1: place a Pillage marker (%2 left, %3)")
            .arg(who)
            .arg(s.setupPillage)
            .arg(d.scenario(s.scenario) ? d.scenario(s.scenario)->pillage.toObject().value("rule").toString()
                                        : QString());
    default:
        return QStringLiteral("%1: choose").arg(who);
    }
}

} // namespace wp::rules
