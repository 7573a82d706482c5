// Politics: Peasant Revolts (9.4), peace negotiations (5.3) and the scenarios' pillage set-up (18.24,
// 18.34), with the End Phase checks of the nations (17.Sp.3, 19.7).
#include "rules/economy.h"

#include <QJsonArray>

#include <algorithm>
#include <deque>

namespace wp::rules {

namespace {

using eco::choose;
using eco::top;

int vpSign(int side) {
    return side == kCatholic ? 1 : -1;
}

QString sideId(int side) {
    return side == kCatholic ? QStringLiteral("catholic") : QStringLiteral("protestant");
}

// ---------------------------------------------------------------- revolts

// Cities a revolt at `city` may spread to (9.44): same Area (on-map France for French cities), joined to it
// by a pathway, not a Supply Base, no units, not already in revolt.
bool anySupplyBase(const GameData& d, const GameState& s, int city) {
    for (qsizetype n = 0; n < d.nationalities.size(); ++n)
        if (d.nationalities[n].supplyCities.contains(city) || isSupplyBase(d, s, static_cast<int>(n), city))
            return true;
    return city == s.swedishBase;
}

bool sameRegion(const GameData& d, int a, int b) {
    const City& x = d.cities[a];
    const City& y = d.cities[b];
    if (x.france || y.france)
        return x.france && y.france && !x.offmap && !y.offmap;
    return !x.independent && !y.independent && x.area >= 0 && x.area == y.area;
}

std::vector<int16_t> spreadOptions(const GameData& d, const GameState& s, int city) {
    std::vector<int16_t> out;
    for (int n : d.cities[city].neighbours) {
        if (!sameRegion(d, city, n) || s.cities[n].revolt || anySupplyBase(d, s, n))
            continue;
        if (anyUnitsAt(s, n, kCatholic, d) || anyUnitsAt(s, n, kProtestant, d))
            continue;
        out.push_back(static_cast<int16_t>(n));
    }
    return out;
}

// 9.44: the player who does not control the Area rolls.
int spreadRoller(const GameData& d, const GameState& s, int city) {
    const City& ct = d.cities[city];
    int ctl = kNone;
    if (ct.france)
        ctl = s.franceInWar ? kProtestant : kNone;
    else if (ct.area >= 0) {
        ctl = s.areas[ct.area].control;
        if (ctl == kNone && static_cast<size_t>(ct.area) < s.areaMarks.size()) {
            const uint8_t m = s.areaMarks[ct.area];
            ctl = (m & kAreaRevoltCath) ? kCatholic : (m & kAreaRevoltProt) ? kProtestant : kNone;
        }
    }
    if (ctl != kNone)
        return other(ctl);
    // interpretation: nobody controls it: the side holding fewer of its cities rolls (ties: the Protestant)
    int held[2] = {0, 0};
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci)
        if (sameRegion(d, city, static_cast<int>(ci))) {
            const int k = effectiveCityControl(d, s, static_cast<int>(ci));
            if (k != kNone)
                held[k]++;
        }
    return held[kCatholic] < held[kProtestant] ? kCatholic : kProtestant;
}

// 19.7: once Wallenstein is in the game, Imperial units still stacked with Bavarians at the end of the turn
// are removed (available to recruit again).
void separationCheck(Ctx& c) {
    GameState& s = c.s;
    const int w = c.d.leader(QStringLiteral("wallenstein"));
    if (!s.options.tilly_dynamic || !s.imperialBavarianBan || w < 0 ||
        s.leaders[w].status == LeaderStatus::NotEntered)
        return;
    for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
        const std::vector<int> units = unitsAt(s, static_cast<int>(ci), kCatholic, c.d);
        bool imp = false, bav = false;
        for (int u : units) {
            imp |= unitNatId(c.d, s, u) == QLatin1String("imperial");
            bav |= unitNatId(c.d, s, u) == QLatin1String("bavarian");
        }
        if (imp && bav)
            for (int u : units)
                if (unitNatId(c.d, s, u) == QLatin1String("imperial"))
                    eliminateUnit(c, u, false,
                                  QStringLiteral("19.7 (Imperial and Bavarian units still together)"));
    }
}

// ---------------------------------------------------------------- peace

const QJsonObject* peaceCondition(const GameData& d, int side, QJsonObject* store) {
    for (const QJsonValue& v : d.tables.peace.extra.value(QStringLiteral("conditions")).toArray()) {
        const QJsonObject o = v.toObject();
        if (o.value(QStringLiteral("offer")).toString() == sideId(side)) {
            *store = o;
            return store;
        }
    }
    return nullptr;
}

bool vpTest(int vp, const QJsonObject& t) {
    if (t.isEmpty())
        return false;
    bool ok = false;
    if (t.contains(QStringLiteral("vpAtMost")))
        ok |= vp <= t.value(QStringLiteral("vpAtMost")).toInt();
    if (t.contains(QStringLiteral("vpAtLeast")))
        ok |= vp >= t.value(QStringLiteral("vpAtLeast")).toInt();
    if (t.contains(QStringLiteral("orVpAtLeast")))
        ok |= vp >= t.value(QStringLiteral("orVpAtLeast")).toInt();
    return ok;
}

bool mustAccept(const GameData& d, const GameState& s, int offerer) {
    QJsonObject o;
    return peaceCondition(d, offerer, &o) && vpTest(s.vp, o.value(QStringLiteral("mustAcceptIf")).toObject());
}

// The cities the side started the scenario holding (and those of its start Areas): 5.32's exclusions.
bool startHeldArea(const GameData& d, const GameState& s, int side, int area) {
    const Scenario* sc = d.scenario(s.scenario);
    return sc && sc->controlAreas[side].contains(area);
}

bool startHeldCity(const GameData& d, const GameState& s, int side, int city) {
    const Scenario* sc = d.scenario(s.scenario);
    return sc && sc->controlCities[side].contains(city);
}

bool piecesAt(const GameData& d, const GameState& s, int city, int side) {
    return anyUnitsAt(s, city, side, d) || anyLeadersAt(s, city, side, d);
}

// 5.32: what the chooser may name for `withdrawer`: Areas (kAreaCode + index) and Independent Cities, where
// the withdrawer has pieces, not held by him at the start, for the Protestant not the Swedish Base's Area.
std::vector<int16_t> withdrawOptions(const GameData& d, const GameState& s, int withdrawer, int firstCity) {
    std::vector<int16_t> out;
    if (firstCity < 0)
        for (qsizetype a = 0; a < d.areas.size(); ++a) {
            const int area = static_cast<int>(a);
            if (startHeldArea(d, s, withdrawer, area))
                continue;
            if (withdrawer == kProtestant && s.swedishBase >= 0 && d.cities[s.swedishBase].area == area)
                continue;
            bool any = false;
            for (int city : d.areas[area].cities)
                any |= piecesAt(d, s, city, withdrawer);
            if (any)
                out.push_back(static_cast<int16_t>(kAreaCode + area));
        }
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const int city = static_cast<int>(ci);
        if (!d.cities[city].independent || city == firstCity || startHeldCity(d, s, withdrawer, city))
            continue;
        if (piecesAt(d, s, city, withdrawer))
            out.push_back(static_cast<int16_t>(city));
    }
    return out;
}

std::vector<int> baseCitiesFor(const GameData& d, const GameState& s, int nationality) {
    std::vector<int> out;
    const QString n = nationalityId(d, nationality);
    for (qsizetype ci = 0; ci < d.cities.size(); ++ci) {
        const City& ct = d.cities[ci];
        const QString area = ct.area >= 0 ? d.areas[ct.area].id : QString();
        bool base = d.nationalities[nationality].supplyCities.contains(static_cast<int>(ci));
        if (n == QLatin1String("spanish"))
            base = area == QLatin1String("spanish-netherlands");
        else if (n == QLatin1String("french"))
            base = ct.france || area == QLatin1String("lorraine");
        else if (n == QLatin1String("swedish"))
            base = s.swedishBase >= 0 ? ci == s.swedishBase : false;
        if (base)
            out.push_back(static_cast<int>(ci));
    }
    return out;
}

std::vector<int> distancesFrom(const GameData& d, const std::vector<int>& sources) {
    std::vector<int> dist(static_cast<size_t>(d.cities.size()), 1 << 20);
    std::deque<int> q;
    for (int c : sources) {
        dist[c] = 0;
        q.push_back(c);
    }
    while (!q.empty()) {
        const int at = q.front();
        q.pop_front();
        for (int n : d.cities[at].neighbours)
            if (dist[n] > dist[at] + 1) {
                dist[n] = dist[at] + 1;
                q.push_back(n);
            }
    }
    return dist;
}

// 5.32: the withdrawn pieces go to friendly cities as close as possible to their Supply Base.
void withdraw(Ctx& c, int side, const std::vector<int>& cities, const QString& what) {
    GameState& s = c.s;
    WP_SAY(c, QStringLiteral("5.32 %1 withdraws every unit and leader from %2").arg(sideName(side), what),
           side);
    std::vector<int> units, leaders;
    for (int city : cities) {
        for (int u : unitsAt(s, city, side, c.d))
            units.push_back(u);
        for (int l : leadersAt(s, city, side, c.d))
            leaders.push_back(l);
    }
    auto destination = [&](int nationality, bool unit, const std::vector<int>& extraLeaders) -> int {
        const std::vector<int> dist = distancesFrom(c.d, baseCitiesFor(c.d, s, nationality));
        int best = -1;
        for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci) {
            const int to = static_cast<int>(ci);
            if (std::find(cities.begin(), cities.end(), to) != cities.end())
                continue;
            if (effectiveCityControl(c.d, s, to) != side || hasEnemyUnits(c.d, s, to, side) ||
                !pieceMayEnter(c, nationality, to))
                continue;
            std::vector<int> us = unitsAt(s, to, side, c.d);
            std::vector<int> ls = leadersAt(s, to, side, c.d);
            ls.insert(ls.end(), extraLeaders.begin(), extraLeaders.end());
            if (unit && us.size() >= 8)
                continue;
            if (!mixAllowed(c, us, ls))
                continue;
            if (best < 0 || dist[to] < dist[best])
                best = to;
        }
        return best;
    };
    for (int u : units) {
        const int nat = c.d.unitTypes[s.units[u].type].nationality;
        // check the mix with the unit itself in place
        const int16_t from = s.units[u].loc;
        s.units[u].loc = kPool;
        const int to = destination(nat, true, {});
        if (to < 0) {
            s.units[u].loc = from;
            eliminateUnit(c, u, false, QStringLiteral("5.32 (no friendly city to withdraw to)"));
            continue;
        }
        s.units[u].loc = static_cast<int16_t>(to);
        s.units[u].flags &= static_cast<uint8_t>(~kInside);
        WP_SAY(c, QStringLiteral("5.32 %1 -> %2").arg(unitLabel(c.d, s, u), cityName(c.d, to)), side);
        catchLoneLeaders(c, to, side); // 11.22, as by any arrival of units (fuzzer, campaign seed 506673)
    }
    for (int l : leaders) {
        const int16_t from = s.leaders[l].loc;
        s.leaders[l].loc = kPool;
        const int to = destination(c.d.leaders[l].nationality, false, {l});
        if (to < 0) {
            s.leaders[l].loc = from;
            WP_SAY(c, QStringLiteral("5.32 no friendly city for %1").arg(leaderName(c.d, l)), side);
            killLeader(c, l, QStringLiteral("12.43"));
            continue;
        }
        s.leaders[l] = LeaderState{static_cast<int16_t>(to), LeaderStatus::InPlay, 0};
        WP_SAY(c, QStringLiteral("5.32 %1 -> %2").arg(leaderName(c.d, l), cityName(c.d, to)), side);
    }
    for (int city : cities)
        checkSiegeMaintained(c, city);
}

void pushWithdrawal(Ctx& c, int withdrawer) {
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(other(withdrawer));
    f.purpose = kPeaceWithdraw;
    f.kind = static_cast<int8_t>(withdrawer);
    f.count = 2;
    if (withdrawOptions(c.d, c.s, withdrawer, -1).empty()) {
        WP_SAY(c, QStringLiteral("5.32 %1 has nothing to withdraw").arg(sideName(withdrawer)), withdrawer);
        return;
    }
    c.s.frames.push_back(f);
}

void truce(Ctx& c) {
    GameState& s = c.s;
    WP_SAY(c, QStringLiteral("5.32 Truce: the turn ends; every Siege marker is removed"));
    for (CityState& cs : s.cities) {
        cs.siege = 0;
        cs.sieger = kNone;
    }
    s.truce = true;
    s.aidPoints[0] = s.aidPoints[1] = 0;
    s.aidCardPlayed[0] = s.aidCardPlayed[1] = false;
    s.aidSwedish = 0;
    s.aidCards[0].clear();
    s.aidCards[1].clear();
    s.aidFromCards[0] = s.aidFromCards[1] = 0;
    s.roundsUsed[0] = s.roundsUsed[1] = 6;
    s.frames.resize(1);
    std::get<TurnFrame>(s.frames.front()) = TurnFrame{Phase::EndOfTurn, 0};
    // 17.Sp.3: the turn ends here, so a Cardinal Infante's army whose deadline is this turn and which has not
    // reached the Spanish Zone is eliminated now (the Revolt Phase, which checks it, is skipped).
    cardinalDeadline(c);
    // 6.D: each player holds at most one card (the engine's hold-one-card decision)
    for (int side : {kCatholic, kProtestant})
        if (s.hand[side].size() > 1) {
            ChoiceFrame ch;
            ch.actor = static_cast<int8_t>(side);
            ch.purpose = kChooseDiscard;
            ch.options = s.hand[side];
            s.frames.push_back(ch);
        }
}

void resolvePeace(Ctx& c, int offerer) {
    GameState& s = c.s;
    const RollTable& t = c.d.tables.peace;
    int drm = 0;
    QStringList why;
    if (electorsControlled(c.d, s, kCatholic) == 7) {
        drm += eco::tableDrm(t, QStringLiteral("catholic-all-electors"), 1);
        why << QStringLiteral("+1 the Catholic holds every Elector");
    }
    if (electorsControlled(c.d, s, kProtestant) == 7) {
        drm += eco::tableDrm(t, QStringLiteral("protestant-all-electors"), -1);
        why << QStringLiteral("-1 the Protestant holds every Elector");
    }
    const int r = WP_ROLL(c, QStringLiteral("5.31 Peace Negotiation"), offerer);
    const RollBand* b = eco::tableLookup(t, r + drm);
    const QString res = b ? b->result.value(QStringLiteral("result")).toString() : QStringLiteral("TRUCE");
    WP_SAY(c, QStringLiteral("5.32 %1%2 = %3: %4 — %5")
                  .arg(r)
                  .arg(why.isEmpty() ? QString() : QStringLiteral(" ") + why.join(QLatin1Char(' ')))
                  .arg(r + drm)
                  .arg(res, t.extra.value(QStringLiteral("results")).toObject().value(res).toString()));
    if (res == QLatin1String("PMV")) {
        endGame(c, kProtestant, QStringLiteral("Protestant Minor Victory (5.32 peace, VP %1)").arg(s.vp));
    } else if (res == QLatin1String("CMV")) {
        endGame(c, kCatholic, QStringLiteral("Catholic Minor Victory (5.32 peace, VP %1)").arg(s.vp));
    } else if (res == QLatin1String("TRUCE")) {
        truce(c);
    } else if (res == QLatin1String("CW")) {
        pushWithdrawal(c, kCatholic);
    } else if (res == QLatin1String("PW")) {
        pushWithdrawal(c, kProtestant);
    } else if (res == QLatin1String("BW")) {
        // high roller withdraws first; re-roll ties
        int first = kNone;
        for (int guard = 0; guard < 50 && first == kNone; ++guard) {
            const int p = WP_ROLL(c, QStringLiteral("5.32 Both Withdraw: who withdraws first"), kProtestant);
            const int k = WP_ROLL(c, QStringLiteral("5.32 Both Withdraw: who withdraws first"), kCatholic);
            if (p != k)
                first = p > k ? kProtestant : kCatholic;
        }
        if (first == kNone)
            first = kProtestant;
        WP_SAY(c, QStringLiteral("5.32 %1 withdraws first").arg(sideName(first)));
        pushWithdrawal(c, other(first)); // resolved second
        pushWithdrawal(c, first);
    }
}

// ---------------------------------------------------------------- the scenarios' pillage set-up

std::vector<int16_t> setupPillageOptions(const GameData& d, const GameState& s) {
    std::vector<int16_t> out;
    const Scenario* sc = d.scenario(s.scenario);
    if (!sc)
        return out;
    const QJsonObject p = sc->pillage.toObject();
    const int perArea =
        p.value(QStringLiteral("perAreaMax")).isDouble() ? p.value(QStringLiteral("perAreaMax")).toInt() : -1;
    const bool neutralOk = p.value(QStringLiteral("neutralAreas")).toBool();
    for (qsizetype a = 0; a < d.areas.size(); ++a) {
        if (s.areas[a].neutral && !neutralOk)
            continue;
        int pillaged = 0;
        for (int city : d.areas[a].cities)
            pillaged += s.cities[city].pillage > 0;
        for (int city : d.areas[a].cities) {
            const int lvl = s.cities[city].pillage;
            if (lvl >= 2 || (lvl == 0 && perArea >= 0 && pillaged >= perArea))
                continue;
            out.push_back(static_cast<int16_t>(city));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

// ---------------------------------------------------------------- revolts: the public part

void placeRevolt(Ctx& c, int city, const QString& rule) {
    CityState& cs = c.s.cities[city];
    if (cs.revolt)
        return;
    const City& ct = c.d.cities[city];
    const int before = effectiveCityControl(c.d, c.s, city);
    cs.revolt = true;
    cs.marker = kNone; // 9.42: the city becomes Neutral
    if (!ct.independent && ct.area >= 0)
        c.s.markers[QStringLiteral("9.41.") + ct.id] = before; // whose city it was (9.41)
    WP_SAY(c, QStringLiteral("%1 a Peasant Revolt breaks out at %2").arg(rule, ct.name));
    if ((ct.independent || ct.france) && ct.vp > 0 && before != kNone) {
        // interpretation of 9.42 ("Neutral for all game purposes"): its controller loses its VP while it
        // lasts
        addVp(c, -vpSign(before) * ct.vp, QStringLiteral("9.42 %1 is Neutral while in revolt:").arg(ct.name));
        c.s.markers[QStringLiteral("9.42.%1").arg(ct.id)] = before;
        updateElectors(c);
    }
    reconcileAreas(c);
    if (ct.elector)
        updateElectors(c);
}

void removeRevolt(Ctx& c, int city, int side, const QString& rule) {
    CityState& cs = c.s.cities[city];
    if (!cs.revolt)
        return;
    cs.revolt = false;
    WP_SAY(c, QStringLiteral("%1 the Peasant Revolt at %2 is over").arg(rule, cityName(c.d, city)));
    if (side != kNone)
        setCityControl(c, city, side, rule);
    const City& ct = c.d.cities[city];
    if (!ct.independent && ct.area >= 0)
        recheckAreaControl(c, ct.area, rule);
    // 9.43, 13.1: a city that is no longer Neutral may now belong to the side besieging it (a fortress
    // follows its Area again, 3.13): that siege ends.
    endSiegeOfOwnCity(c, city);
    if (!ct.independent && ct.area >= 0)
        for (int other : c.d.areas[ct.area].cities)
            endSiegeOfOwnCity(c, other);
    reconcileAreas(c);
}

bool revoltPhase(Ctx& c) {
    GameState& s = c.s;
    const int step = eco::turnStep(s);
    if (step == 0) {
        nationalEffects(c);
        reconcileAreas(c);
        s.pendingCities.clear();
        for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci)
            if (s.cities[ci].revolt)
                s.pendingCities.push_back(static_cast<int16_t>(ci));
        eco::setTurnStep(s, 1);
        return true;
    }
    const size_t i = static_cast<size_t>(step - 1);
    if (i < s.pendingCities.size()) {
        eco::setTurnStep(s, step + 1);
        const int city = s.pendingCities[i];
        if (!s.cities[city].revolt)
            return true;
        const int roller = spreadRoller(c.d, s, city);
        const int r = WP_ROLL(
            c, QStringLiteral("9.44 spread of the Peasant Revolt at %1").arg(cityName(c.d, city)), roller);
        if (r > 1)
            return true;
        const std::vector<int16_t> options = spreadOptions(c.d, s, city);
        if (options.empty()) {
            WP_SAY(c, QStringLiteral("9.44 no city meets the conditions: the revolt does not spread"),
                   roller);
            return true;
        }
        if (options.size() == 1) {
            placeRevolt(c, options.front(), QStringLiteral("9.44"));
            return true;
        }
        ChoiceFrame f;
        f.actor = static_cast<int8_t>(roller);
        f.purpose = kRevoltSpread;
        f.city = static_cast<int16_t>(city);
        f.options = options;
        s.frames.push_back(f);
        return true;
    }
    s.pendingCities.clear();
    separationCheck(c);
    cardinalDeadline(c);
    nationalEffects(c);
    reconcileAreas(c);
    return false;
}

// ---------------------------------------------------------------- peace: the public part

bool canOfferPeace(const Ctx& c, int side) {
    const Scenario* sc = c.d.scenario(c.s.scenario);
    if (sc && sc->noPeaceOffer && sideIndex(*sc->noPeaceOffer) == side)
        return false; // 18.13, 18.25
    QJsonObject o;
    return peaceCondition(c.d, side, &o) && vpTest(c.s.vp, o.value(QStringLiteral("offerIf")).toObject());
}

void offerPeace(Ctx& c, int side) {
    WP_SAY(c,
           QStringLiteral("5.3 %1 offers peace (VP %2); the %3 %4 accept")
               .arg(sideName(side))
               .arg(c.s.vp)
               .arg(sideName(other(side)),
                    mustAccept(c.d, c.s, side) ? QStringLiteral("must") : QStringLiteral("may")),
           side);
    ChoiceFrame f;
    f.actor = static_cast<int8_t>(other(side));
    f.purpose = kPeaceAnswer;
    f.kind = static_cast<int8_t>(side);
    c.s.frames.push_back(f);
}

// ---------------------------------------------------------------- the scenarios' set-up

void scenarioStartExtras(Ctx& c, const Scenario& sc) {
    reconcileAreas(c); // the Area bookkeeping starts from the set-up
    if (sc.pillage.isObject() && !sc.pillage.toObject().value(QStringLiteral("table")).toArray().isEmpty()) {
        c.s.setupPillage = -1; // rolled at the start of play (recoverySetup)
        c.s.setupPillageDone = false;
    }
}

namespace eco {

bool recoverySetup(Ctx& c) {
    GameState& s = c.s;
    const Scenario* sc = c.d.scenario(s.scenario);
    const QJsonObject p = sc ? sc->pillage.toObject() : QJsonObject();
    const QString rule = p.value(QStringLiteral("rule")).toString(QStringLiteral("18.24"));
    const QString nextKey = QStringLiteral("setup.pillage.next");
    if (s.setupPillage < 0) {
        const int r = WP_ROLL(c, QStringLiteral("%1 Pillage markers at set-up").arg(rule), kProtestant);
        int n = 0;
        for (const QJsonValue& v : p.value(QStringLiteral("table")).toArray()) {
            const QJsonObject o = v.toObject();
            if (r >= o.value(QStringLiteral("min")).toInt() && r <= o.value(QStringLiteral("max")).toInt())
                n = o.value(QStringLiteral("markers")).toInt();
        }
        s.setupPillage = static_cast<int8_t>(n);
        s.markers[nextKey] = p.value(QStringLiteral("first")).toString() == QLatin1String("catholic")
                                 ? kCatholic
                                 : kProtestant;
        WP_SAY(c, QStringLiteral("%1 %2 Pillage placements, the players alternate, %3 first")
                      .arg(rule)
                      .arg(n)
                      .arg(sideName(s.markers[nextKey])));
        return true;
    }
    if (s.setupPillage > 0) {
        const std::vector<int16_t> options = setupPillageOptions(c.d, s);
        if (options.empty()) {
            WP_SAY(c, QStringLiteral("%1 no location can take another Pillage marker (%2 left unplaced)")
                          .arg(rule)
                          .arg(s.setupPillage));
            s.setupPillage = 0;
            return true;
        }
        ChoiceFrame f;
        f.actor = static_cast<int8_t>(s.markers.value(nextKey, kProtestant));
        f.purpose = kSetupPillage;
        f.options = options;
        s.frames.push_back(f);
        return true;
    }
    s.setupPillageDone = true;
    s.markers.remove(nextKey);
    std::get<TurnFrame>(s.frames.front()) = TurnFrame{Phase::Wallenstein, 0}; // now the turn begins (6.A)
    return true;
}

std::vector<Action> politicsLegal(const Ctx& c, const ChoiceFrame& f) {
    std::vector<Action> out;
    switch (f.purpose) {
    case kRevoltSpread:
    case kSetupPillage:
        for (int16_t city : f.options)
            out.push_back(choose(city));
        break;
    case kPeaceAnswer: {
        Action a;
        a.kind = ActionKind::Accept;
        out.push_back(a);
        if (!mustAccept(c.d, c.s, f.kind)) {
            a.kind = ActionKind::Decline;
            out.push_back(a);
        }
        break;
    }
    case kPeaceWithdraw:
        for (int16_t o : withdrawOptions(c.d, c.s, f.kind, f.city))
            out.push_back(choose(o));
        break;
    default:
        break;
    }
    return out;
}

void politicsApply(Ctx& c, const Action& a) {
    ChoiceFrame& f = top(c.s);
    switch (f.purpose) {
    case kRevoltSpread:
        c.s.frames.pop_back();
        placeRevolt(c, a.target, QStringLiteral("9.44"));
        return;
    case kSetupPillage: {
        const int side = f.actor;
        c.s.frames.pop_back();
        c.s.setupPillage = static_cast<int8_t>(c.s.setupPillage - 1);
        c.s.markers[QStringLiteral("setup.pillage.next")] = other(side);
        const Scenario* sc = c.d.scenario(c.s.scenario);
        addPillage(c, a.target, 1,
                   QStringLiteral("%1 %2 places a Pillage marker at")
                       .arg(sc ? sc->pillage.toObject().value(QStringLiteral("rule")).toString()
                               : QStringLiteral("18.24"),
                            sideName(side)));
        return;
    }
    case kPeaceAnswer: {
        const int offerer = f.kind;
        c.s.frames.pop_back();
        if (a.kind == ActionKind::Decline) {
            WP_SAY(c, QStringLiteral("5.31 %1 declines the offer of peace").arg(sideName(other(offerer))),
                   other(offerer));
            return;
        }
        WP_SAY(c, QStringLiteral("5.31 %1 accepts the offer of peace").arg(sideName(other(offerer))),
               other(offerer));
        resolvePeace(c, offerer);
        return;
    }
    case kPeaceWithdraw: {
        const int withdrawer = f.kind;
        if (a.target >= kAreaCode) {
            c.s.frames.pop_back();
            const int area = a.target - kAreaCode;
            std::vector<int> cities(c.d.areas[area].cities.begin(), c.d.areas[area].cities.end());
            withdraw(c, withdrawer, cities, c.d.areas[area].name);
            return;
        }
        // an Independent City: the first of two
        const int first = f.city;
        if (first < 0) {
            f.city = a.target;
            withdraw(c, withdrawer, {a.target}, cityName(c.d, a.target));
            if (withdrawOptions(c.d, c.s, withdrawer, a.target).empty() || politicsLegal(c, top(c.s)).empty())
                c.s.frames.pop_back();
            return;
        }
        c.s.frames.pop_back();
        withdraw(c, withdrawer, {a.target}, cityName(c.d, a.target));
        return;
    }
    default:
        c.s.frames.pop_back();
        return;
    }
}

} // namespace eco

} // namespace wp::rules
