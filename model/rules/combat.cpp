// Regular combat (12.1-12.5), overruns (12.6). Sallies (13.17) use the same procedure.
#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <algorithm>
#include <map>

namespace wp::rules {

namespace {

enum CombatStep : int8_t {
    kCardsAttacker = 0, // 12.23
    kCardsDefender,
    kResolve,      // 12.24-12.26 (automatic)
    kLossAttacker, // 12.31
    kLossDefender,
    kAftermath, // 12.4 leader loss, 12.28 winner (automatic)
    kRetreat,   // 12.5
    kFinished,
    // issue 12, linked battles (docs/linked-battles.md): after both sides' combat cards (12.23), instead of
    // the CRT roll (12.26), the result comes from the tabletop.
    kAskTable, // battles=ask: the attacker asks for the table ("battle tvbd|tercios") or not ("battle crt")
    kAnswerTable,  // battles=ask: the defender agrees ("battle accept") or keeps the CRT ("battle decline")
    kTableResult,  // the attacker enters the winner and each side's Loss Number ("battle-result ...")
    kTableLeaders, // the attacker enters the leaders lost on the table ("battle-leader ID", "... done")
    kTableConfirm, // the defender confirms ("battle confirm") or disputes ("battle dispute") the result
};

CombatFrame& top(GameState& s) {
    return std::get<CombatFrame>(s.frames.back());
}

int defenderOf(const CombatFrame& f) {
    return other(f.attacker);
}

std::vector<int16_t>& unitsOf(CombatFrame& f, int side) {
    return side == f.attacker ? f.attackUnits : f.defendUnits;
}
const std::vector<int16_t>& unitsOf(const CombatFrame& f, int side) {
    return side == f.attacker ? f.attackUnits : f.defendUnits;
}

std::vector<int> alive(const GameState& s, const std::vector<int16_t>& units) {
    std::vector<int> out;
    for (int u : units)
        if (s.units[u].loc >= 0 && s.units[u].steps > 0)
            out.push_back(u);
    return out;
}

int commanderOf(const GameData& d, const GameState& s, const std::vector<int16_t>& leaders) {
    // 10.14/12.24: a Dynamic leader leads the army he is in (Gustavus above all); otherwise the best
    // Battle rating commands.
    int best = -1;
    auto score = [&](int l) { return effectiveStars(d, s, l) * 100 + d.leaders[l].battle; };
    for (int l : leaders)
        if (best < 0 || score(l) > score(best))
            best = l;
    return best;
}

// Issue 12: the largest Loss Number a table result may give `side`: enough to eliminate every unit it
// brought to the battle (12.31 then removes all of them).
int tableLossCap(const GameData& d, const GameState& s, const CombatFrame& f, int side) {
    int cap = 0;
    for (int u : alive(s, unitsOf(f, side)))
        cap += d.unitTypes[s.units[u].type].lf * s.units[u].steps;
    return std::min(cap, 99);
}

Action battleChoice(int16_t target) {
    Action a;
    a.kind = ActionKind::Choose;
    a.target = target;
    return a;
}

// Issue 12: the seed of a battle that goes to the table, from the generator's next two values, which are
// not drawn (no die is rolled: the dice of the game are as without the table), mixed with the city.
uint64_t tableBattleSeed(const GameState& s, int city) {
    Rng r = s.rng;
    const uint64_t hi = r.next(), lo = r.next();
    return ((hi << 32) | lo) ^ (static_cast<uint64_t>(city) * 0x9e3779b97f4a7c15ULL);
}

QString tableRulesName(int table) {
    return table == kBattlesTercios ? QStringLiteral("Tercios") : QStringLiteral("Tilly's Very Bad Day");
}

int combatCardsPlayed(const CombatFrame& f, int side) {
    return static_cast<int>(f.cards[side].size());
}

// 12.31: every canonical way to fulfil `loss` as closely as possible without exceeding it. Identical
// units (same counter type and steps) are interchangeable, so each distinct allocation is listed once.
std::vector<Action> allocations(const GameData& d, const GameState& s, const std::vector<int>& units,
                                int loss) {
    std::map<std::pair<int, int>, std::vector<int>> groups; // (type, steps) -> units
    for (int u : units)
        groups[{s.units[u].type, s.units[u].steps}].push_back(u);
    struct G {
        std::vector<int> units;
        int steps, lf;
    };
    std::vector<G> gs;
    for (auto& [k, v] : groups)
        gs.push_back(G{v, k.second, d.unitTypes[k.first].lf});
    // enumerate (one-step losses, two-step losses) per group
    std::vector<std::pair<int, int>> pick(gs.size());
    int best = -1;
    std::vector<std::vector<std::pair<int, int>>> bestPicks;
    std::function<void(size_t, int)> rec = [&](size_t i, int total) {
        if (total > loss)
            return;
        if (i == gs.size()) {
            if (total > best) {
                best = total;
                bestPicks.clear();
            }
            if (total == best)
                bestPicks.push_back(pick);
            return;
        }
        const G& g = gs[i];
        const int k = static_cast<int>(g.units.size());
        for (int two = 0; two <= (g.steps == 2 ? k : 0); ++two)
            for (int one = 0; one + two <= k; ++one) {
                pick[i] = {one, two};
                rec(i + 1, total + (one + 2 * two) * g.lf);
            }
    };
    rec(0, 0);
    std::vector<Action> out;
    for (const auto& p : bestPicks) {
        Action a;
        a.kind = ActionKind::Losses;
        for (size_t i = 0; i < gs.size(); ++i) {
            int idx = 0;
            for (int n = 0; n < p[i].second; ++n) {
                a.list.push_back(static_cast<int16_t>(gs[i].units[static_cast<size_t>(idx++)]));
                a.counts.push_back(2);
            }
            for (int n = 0; n < p[i].first; ++n) {
                a.list.push_back(static_cast<int16_t>(gs[i].units[static_cast<size_t>(idx++)]));
                a.counts.push_back(1);
            }
        }
        // a stable order: by unit
        std::vector<size_t> order(a.list.size());
        for (size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return a.list[x] < a.list[y]; });
        Action sorted = a;
        for (size_t i = 0; i < order.size(); ++i) {
            sorted.list[i] = a.list[order[i]];
            sorted.counts[i] = a.counts[order[i]];
        }
        out.push_back(sorted);
    }
    return out;
}

// 12.54: where the defeated defender may go.
std::vector<int16_t> defenderRetreats(const Ctx& c, const CombatFrame& f, bool* insideOk) {
    const int side = defenderOf(f);
    const int city = f.city;
    const City& ct = c.d.cities[city];
    // 12.52: an army defeated in regular combat may retreat inside a friendly-controlled fortress in the
    // same space (not when relieving a siege, 13.15).
    *insideOk = ct.fortress && effectiveCityControl(c.d, c.s, city) == side && !f.relief && !f.sally;
    std::vector<int16_t> friendly, enemy;
    for (int n : ct.neighbours) {
        if (n == f.attackerFrom)
            continue; // not into the space the attacker came from
        const City& nc = c.d.cities[n];
        const CityState& ns = c.s.cities[n];
        // A Fortress besieged or masked by the retreating side: the enemy there is shut inside.
        const bool besiegedOrMasked =
            nc.fortress && ((ns.siege > 0 && ns.sieger == side) || anyUnitsOutside(c.s, n, side, c.d));
        if (anyUnitsOutside(c.s, n, other(side), c.d) ||
            (anyUnitsInside(c.s, n, other(side), c.d) && !besiegedOrMasked))
            continue; // not into a space with an enemy unit
        const int ctl = effectiveCityControl(c.d, c.s, n);
        if (nc.france && (!c.s.franceInWar || (nc.offmap && side != kProtestant)))
            continue; // 11.31-11.32
        if (ctl == other(side) && nc.fortress && !besiegedOrMasked)
            continue; // not into a non-besieged/masked enemy fortress
        if (ctl == side)
            friendly.push_back(static_cast<int16_t>(n));
        else
            enemy.push_back(static_cast<int16_t>(n));
    }
    // "Must retreat into friendly controlled City spaces if possible"
    return friendly.empty() ? enemy : friendly;
}

void discardCombatCards(Ctx& c, CombatFrame& f) {
    for (int side : {kCatholic, kProtestant}) {
        for (int16_t card : f.cards[side]) {
            c.s.hand[side].push_back(card);   // discardCard takes it from the hand
            discardCard(c, side, card, true); // 9.51: Played pile, or removed if asterisked
        }
        f.cards[side].clear();
    }
}

// Moves every piece of `side` outside the fortress at `from` to `to` (or inside at -2).
void retreatPieces(Ctx& c, CombatFrame& f, int side, int to) {
    const int from = f.city;
    std::vector<int> units = unitsOutside(c.s, from, side, c.d);
    std::vector<int> leaders;
    for (int l : leadersAt(c.s, from, side, c.d))
        if (!(c.s.leaders[l].flags & kInside))
            leaders.push_back(l);
    if (to == -2) {
        for (int u : units)
            c.s.units[u].flags |= kInside;
        for (int l : leaders)
            c.s.leaders[l].flags |= kInside;
        WP_SAY(c,
               QStringLiteral("12.52 %1 forces retreat inside the fortress of %2")
                   .arg(sideName(side), cityName(c.d, from)),
               side);
        return;
    }
    if (to < 0) {
        // 12.54: units that cannot retreat are eliminated; their leaders are lost with them (12.43).
        for (int u : units)
            eliminateUnit(c, u, false, QStringLiteral("12.54 no retreat:"));
        for (int l : leaders)
            killLeader(c, l, QStringLiteral("12.43"));
        return;
    }
    if (isBox(static_cast<int16_t>(to))) {
        // 12.53: an attacker that came from a box (the United Provinces, 16.2) goes back there.
        for (int u : units) {
            c.s.units[u].loc = static_cast<int16_t>(to);
            c.s.units[u].flags &= static_cast<uint8_t>(~kInside);
        }
        for (int l : leaders) {
            c.s.leaders[l].loc = static_cast<int16_t>(to);
            c.s.leaders[l].flags &= static_cast<uint8_t>(~kInside);
        }
        WP_SAY(c,
               QStringLiteral("12.53 %1 retreats %2 -> %3")
                   .arg(sideName(side), cityName(c.d, from), cityName(c.d, to)),
               side);
        checkSiegeMaintained(c, from);
        return;
    }
    const City& dest = c.d.cities[to];
    // 17.Sp.2/17.Sp.31: the Cardinal Infante's army, while it marches and has not yet reached the Zone
    // (17.Sp.32), operates as a regular Catholic army: it retreats like one. His army is the Spanish units
    // stacked with him (it must stay together, 17.Sp.31).
    bool cardinalMarching = false;
    if (effect(c.s, QStringLiteral("cardinalInfante")) > 0 && !c.d.cities[from].spanishZone)
        for (int l : leaders)
            cardinalMarching |= c.d.leaders[l].id.startsWith(QLatin1String("cardinal-infante"));
    for (int u : units) {
        // 17.Sp.2: Spanish units forced out of the Spanish Zone are eliminated instead.
        if (unitNationality(c.d, c.s, u).id == QLatin1String("spanish") && !dest.spanishZone &&
            !cardinalMarching) {
            eliminateUnit(c, u, false, QStringLiteral("17.Sp.2 retreat out of the Spanish Zone:"));
            continue;
        }
        c.s.units[u].loc = static_cast<int16_t>(to);
        c.s.units[u].flags &= static_cast<uint8_t>(~kInside);
    }
    for (int l : leaders) {
        c.s.leaders[l].loc = static_cast<int16_t>(to);
        c.s.leaders[l].flags &= static_cast<uint8_t>(~kInside);
    }
    WP_SAY(c,
           QStringLiteral("12.5 %1 forces retreat %2 -> %3")
               .arg(sideName(side), cityName(c.d, from), cityName(c.d, to)),
           side);
    catchLoneLeaders(c, to, side); // 11.22: a retreating army eliminates lone enemy leaders where it arrives
    const bool hasUnits = anyUnitsAt(c.s, to, side, c.d);
    // 12.54: retreat into a Neutral Area violates its neutrality; into an unoccupied enemy city gains it.
    if (hasUnits && !dest.independent && dest.area >= 0 && c.s.areas[dest.area].neutral)
        violateNeutrality(c, dest.area, side);
    if (hasUnits && effectiveCityControl(c.d, c.s, to) == other(side) && !dest.fortress)
        setCityControl(c, to, side, QStringLiteral("12.54"));
    checkSiegeMaintained(c, from);
    checkStacking(c, to, side); // 10.22
}

} // namespace

void startCombat(Ctx& c, int city, int attacker, const std::vector<int16_t>& attackUnits,
                 const std::vector<int16_t>& attackLeaders, int commander, int attackerFrom, bool sally,
                 bool relief) {
    CombatFrame f;
    f.city = static_cast<int16_t>(city);
    f.attacker = static_cast<int8_t>(attacker);
    f.sally = sally;
    f.relief = relief;
    f.attackUnits = attackUnits;
    f.attackLeaders = attackLeaders;
    f.attackCommander = static_cast<int16_t>(commander); // 12.24: only the activated leader commands
    f.attackerFrom = static_cast<int16_t>(attackerFrom);
    const int def = other(attacker);
    // 12.13: all non-active units in the space defend (those outside the fortress; a sally attacks them).
    for (int u : unitsOutside(c.s, city, def, c.d))
        f.defendUnits.push_back(static_cast<int16_t>(u));
    for (int l : leadersAt(c.s, city, def, c.d))
        if (!(c.s.leaders[l].flags & kInside))
            f.defendLeaders.push_back(static_cast<int16_t>(l));
    f.defendCommander = static_cast<int16_t>(commanderOf(c.d, c.s, f.defendLeaders));
    f.step = kCardsAttacker;
    WP_SAY(c,
           QStringLiteral("12.2 battle at %1: %2 attacks with %3 CF, %4 defends with %5 CF%6")
               .arg(cityName(c.d, city), sideName(attacker))
               .arg(cfSum(c.d, c.s, std::vector<int>(attackUnits.begin(), attackUnits.end())))
               .arg(sideName(def))
               .arg(cfSum(c.d, c.s, std::vector<int>(f.defendUnits.begin(), f.defendUnits.end())))
               .arg(sally ? QStringLiteral(" (sally, 13.17)") : QString()),
           attacker);
    c.s.frames.push_back(f);
}

int combatActor(const GameState&, const CombatFrame& f) {
    switch (f.step) {
    case kCardsAttacker:
    case kLossAttacker:
        return f.attacker;
    case kCardsDefender:
    case kLossDefender:
    case kAnswerTable:
    case kTableConfirm:
        return defenderOf(f);
    case kRetreat:
        return other(f.winner);
    default:
        return f.attacker;
    }
}

std::vector<Action> combatLegal(const Ctx& c, const CombatFrame& f) {
    std::vector<Action> out;
    switch (f.step) {
    case kCardsAttacker:
    case kCardsDefender: {
        const int side = f.step == kCardsAttacker ? f.attacker : defenderOf(f);
        out.push_back(Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}});
        if (combatCardsPlayed(f, side) >= 2) // 9.51: at most two per side per combat
            return out;
        for (int16_t card : c.s.hand[side]) {
            const Card& cd = c.d.cards[card];
            if (!cd.combat)
                continue;
            const EventDef* ev = EventRegistry::instance().find(cd.id);
            if (!ev)
                continue; // its effect is not implemented yet (card-events issue)
            if (ev->combatAllowed && !ev->combatAllowed(c, f, side))
                continue;
            Action a;
            a.kind = ActionKind::CombatCard;
            a.card = card;
            out.push_back(a);
        }
        return out;
    }
    case kLossAttacker:
    case kLossDefender: {
        const int side = f.step == kLossAttacker ? f.attacker : defenderOf(f);
        return allocations(c.d, c.s, alive(c.s, unitsOf(f, side)), f.lossNumber[side]);
    }
    case kRetreat: {
        const int loser = other(f.winner);
        if (loser == f.attacker) {
            // 12.53: back to the space the attacker came from; a failed sally goes back inside (13.17)
            Action a;
            a.kind = ActionKind::Retreat;
            a.target = f.sally ? -2 : f.attackerFrom;
            out.push_back(a);
            return out;
        }
        bool insideOk = false;
        for (int16_t n : defenderRetreats(c, f, &insideOk)) {
            Action a;
            a.kind = ActionKind::Retreat;
            a.target = n;
            out.push_back(a);
        }
        if (insideOk) {
            Action a;
            a.kind = ActionKind::Retreat;
            a.target = -2;
            out.push_back(a);
        }
        if (out.empty()) { // 12.54: no retreat possible: the units are eliminated
            Action a;
            a.kind = ActionKind::Retreat;
            a.target = -1;
            out.push_back(a);
        }
        return out;
    }
    case kAskTable:
        return {battleChoice(kBattleCrt), battleChoice(kBattleTvbd), battleChoice(kBattleTercios)};
    case kAnswerTable:
        return {battleChoice(kBattleAccept), battleChoice(kBattleDecline)};
    case kTableResult: {
        // Every result the table can give: the winner and each side's Loss Number, from none to the
        // elimination of the whole force (12.31 then allocates it as after a CRT result).
        const int att = f.attacker, def = defenderOf(f);
        const int capA = tableLossCap(c.d, c.s, f, att), capD = tableLossCap(c.d, c.s, f, def);
        out.reserve(static_cast<size_t>(2 * (capA + 1) * (capD + 1)));
        for (int16_t w : {kBattleWonByAttacker, kBattleWonByDefender})
            for (int la = 0; la <= capA; ++la)
                for (int ld = 0; ld <= capD; ++ld) {
                    Action a = battleChoice(w);
                    a.counts = {static_cast<int8_t>(la), static_cast<int8_t>(ld)};
                    out.push_back(a);
                }
        return out;
    }
    case kTableLeaders: {
        out.push_back(battleChoice(kBattleLeadersDone));
        for (const auto* leaders : {&f.attackLeaders, &f.defendLeaders})
            for (int16_t l : *leaders)
                if (c.s.leaders[l].status == LeaderStatus::InPlay &&
                    std::find(f.tableLeadersLost.begin(), f.tableLeadersLost.end(), l) ==
                        f.tableLeadersLost.end())
                    out.push_back(battleChoice(static_cast<int16_t>(kLeaderBase + l)));
        return out;
    }
    case kTableConfirm:
        return {battleChoice(kBattleConfirm), battleChoice(kBattleDispute)};
    default:
        return out;
    }
}

void combatApply(Ctx& c, const Action& a) {
    CombatFrame& f = top(c.s);
    switch (f.step) {
    case kCardsAttacker:
    case kCardsDefender: {
        const int side = f.step == kCardsAttacker ? f.attacker : defenderOf(f);
        if (a.kind == ActionKind::Pass) {
            f.step = static_cast<int8_t>(f.step + 1);
            return;
        }
        auto& h = c.s.hand[side];
        h.erase(std::remove(h.begin(), h.end(), a.card), h.end());
        c.s.cardPlace[a.card] = CardPlace::InCombat;
        f.cards[side].push_back(a.card);
        WP_SAY(c,
               QStringLiteral("12.23 %1 plays %2 \"%3\"")
                   .arg(sideName(side), c.d.cards[a.card].id, c.d.cards[a.card].title),
               side);
        return;
    }
    case kLossAttacker:
    case kLossDefender: {
        const int side = f.step == kLossAttacker ? f.attacker : defenderOf(f);
        int taken = 0;
        for (size_t i = 0; i < a.list.size(); ++i) {
            const int u = a.list[i];
            taken += a.counts[i] * unitLf(c.d, c.s, u);
            UnitState& us = c.s.units[u];
            const int steps = a.counts[i];
            if (steps >= us.steps) {
                eliminateUnit(c, u, false, QStringLiteral("12.32"));
            } else {
                us.steps = static_cast<uint8_t>(us.steps - steps);
                WP_SAY(c, QStringLiteral("12.32 %1 is reduced").arg(unitLabel(c.d, c.s, u)), side);
            }
        }
        WP_SAY(c,
               QStringLiteral("12.31 %1 takes %2 of Loss Number %3")
                   .arg(sideName(side))
                   .arg(taken)
                   .arg(f.lossNumber[side]),
               side);
        f.step = static_cast<int8_t>(f.step + 1);
        return;
    }
    case kRetreat: {
        const int loser = other(f.winner);
        f.step = kFinished;
        retreatPieces(c, f, loser, a.target);
        return;
    }
    case kAskTable:
        if (a.target == kBattleCrt) {
            f.table = -1;
            f.step = kResolve;
            WP_SAY(c,
                   QStringLiteral("12.26 %1 keeps the battle at %2 on the Combat Results Table")
                       .arg(sideName(f.attacker), cityName(c.d, f.city)),
                   f.attacker);
        } else {
            f.table = a.target == kBattleTercios ? kBattlesTercios : kBattlesTvbd;
            f.step = kAnswerTable;
            WP_SAY(c,
                   QStringLiteral("linked battle: %1 asks to fight the battle at %2 on the table (%3)")
                       .arg(sideName(f.attacker), cityName(c.d, f.city), tableRulesName(f.table)),
                   f.attacker);
        }
        return;
    case kAnswerTable:
        if (a.target == kBattleAccept) {
            f.step = kTableResult;
            f.tableSeed = tableBattleSeed(c.s, f.city);
            WP_SAY(c,
                   QStringLiteral("linked battle: %1 agrees; the battle at %2 goes to the table (%3)")
                       .arg(sideName(defenderOf(f)), cityName(c.d, f.city), tableRulesName(f.table)),
                   defenderOf(f));
        } else {
            f.table = -1;
            f.step = kResolve;
            WP_SAY(c,
                   QStringLiteral("linked battle: %1 declines; the Combat Results Table decides (12.26)")
                       .arg(sideName(defenderOf(f))),
                   defenderOf(f));
        }
        return;
    case kTableResult: {
        const int att = f.attacker, def = defenderOf(f);
        f.tableWinner = static_cast<int8_t>(a.target == kBattleWonByAttacker ? att : def);
        f.lossNumber[att] = a.counts[0];
        f.lossNumber[def] = a.counts[1];
        f.tableLeadersLost.clear();
        f.step = kTableLeaders;
        WP_SAY(
            c,
            QStringLiteral("linked battle at %1 (%2): %3 reports %4 the winner, Loss Number %5 for %6 and "
                           "%7 for %8")
                .arg(cityName(c.d, f.city), tableRulesName(f.table), sideName(att), sideName(f.tableWinner))
                .arg(f.lossNumber[att])
                .arg(sideName(att))
                .arg(f.lossNumber[def])
                .arg(sideName(def)),
            att);
        return;
    }
    case kTableLeaders:
        if (a.target == kBattleLeadersDone) {
            f.step = kTableConfirm;
            return;
        }
        f.tableLeadersLost.push_back(static_cast<int16_t>(a.target - kLeaderBase));
        WP_SAY(c,
               QStringLiteral("linked battle: %1 reports %2 lost on the table")
                   .arg(sideName(f.attacker), leaderName(c.d, a.target - kLeaderBase)),
               f.attacker);
        return;
    case kTableConfirm:
        if (a.target == kBattleDispute) {
            WP_SAY(c,
                   QStringLiteral("linked battle: %1 disputes the result; %2 enters it again")
                       .arg(sideName(defenderOf(f)), sideName(f.attacker)),
                   defenderOf(f));
            f.lossNumber[0] = f.lossNumber[1] = 0;
            f.tableWinner = kNone;
            f.tableLeadersLost.clear();
            f.step = kTableResult;
            return;
        }
        f.tableResult = true;
        f.step = kLossAttacker; // 12.31 as after a CRT result
        WP_SAY(
            c,
            QStringLiteral("12.26 (linked battle) %1 confirms: Loss Number %2 for the attacker, %3 for the "
                           "defender")
                .arg(sideName(defenderOf(f)))
                .arg(f.lossNumber[f.attacker])
                .arg(f.lossNumber[defenderOf(f)]),
            defenderOf(f));
        return;
    default:
        return;
    }
}

bool combatAuto(Ctx& c) {
    CombatFrame& f = top(c.s);
    const int att = f.attacker, def = defenderOf(f);
    switch (f.step) {
    case kCardsAttacker:
    case kCardsDefender:
    case kLossAttacker:
    case kLossDefender:
        // decisions; with only one legal choice there is nothing to decide
        if (f.step == kLossAttacker || f.step == kLossDefender) {
            const auto legal = combatLegal(c, f);
            if (legal.size() == 1) {
                combatApply(c, legal.front());
                return true;
            }
        }
        return false;
    case kResolve: {
        // Issue 12: a linked battle stops here, after both sides' combat cards (12.23).
        if (f.table == 0 && c.s.options.battles != kBattlesCrt) {
            if (c.s.options.battles == kBattlesAsk) {
                f.step = kAskTable;
            } else {
                f.table = c.s.options.battles;
                f.step = kTableResult;
                f.tableSeed = tableBattleSeed(c.s, f.city);
                WP_SAY(c,
                       QStringLiteral("linked battle: the battle at %1 goes to the table (%2)")
                           .arg(cityName(c.d, f.city), tableRulesName(f.table)),
                       f.attacker);
            }
            return true;
        }
        // 12.22-12.26
        int strength[2], drm[2], column[2];
        for (int side : {att, def}) {
            const auto units = alive(c.s, unitsOf(f, side));
            strength[side] = cfSum(c.d, c.s, units);
        }
        for (int side : {att, def}) {
            const int cmd = side == att ? f.attackCommander : f.defendCommander;
            drm[side] = cmd >= 0 ? c.d.leaders[cmd].battle : 0; // 12.24
            int shift = 0;
            // 9.5: the cards' effects; some depend on the battle (C35, C47, P33, P46: combatEffect)
            auto effectOf = [&](int16_t card, int player) { return combatCardEffect(c, f, card, player); };
            for (int16_t card : f.cards[side]) {
                const CombatCardEffect e = effectOf(card, side);
                drm[side] += e.ownDrm;
                shift += e.ownShift;
            }
            for (int16_t card : f.cards[other(side)]) {
                const CombatCardEffect e = effectOf(card, other(side));
                drm[side] += e.enemyDrm;
                shift += e.enemyShift;
            }
            const int col = c.d.tables.crtColumnFor(strength[side]);
            column[side] = std::clamp(col + shift, 0, static_cast<int>(c.d.tables.crtColumns.size()) - 1);
        }
        f.oddsNoDefenderLoss = strength[att] * 4 <= strength[def];
        for (int side : {att, def}) {
            const int r = WP_ROLL(c, QStringLiteral("12.26 combat at %1").arg(cityName(c.d, f.city)), side);
            const int modified = std::clamp(r + drm[side], 0, 11); // 12.26
            const int loss = c.d.tables.crtLoss(column[side], modified);
            f.roll[side] = static_cast<int8_t>(r);
            f.lossNumber[other(side)] = static_cast<int8_t>(loss);
            WP_SAY(c,
                   QStringLiteral("12.26 %1: %2 CF on column %3, roll %4 %5%6 = %7: Loss Number %8")
                       .arg(sideName(side))
                       .arg(strength[side])
                       .arg(c.d.tables.crtColumns[column[side]].label)
                       .arg(r)
                       .arg(drm[side] >= 0 ? "+" : "")
                       .arg(drm[side])
                       .arg(modified)
                       .arg(loss),
                   side);
        }
        f.step = kLossAttacker;
        return true;
    }
    case kAftermath: {
        // 12.28: the higher Loss Number caused wins; ties to the army led by a Dynamic leader, else the
        // defender. Leaders killed below do not change this (12.27 note).
        const int byAtt = f.lossNumber[def], byDef = f.lossNumber[att];
        const bool dynA = f.attackCommander >= 0 && isDynamic(c.d, c.s, f.attackCommander);
        const bool dynD = f.defendCommander >= 0 && isDynamic(c.d, c.s, f.defendCommander);
        int winner = byAtt > byDef ? att : byDef > byAtt ? def : (dynA && !dynD) ? att : def;
        if (f.tableResult) // issue 12: the table says who holds the field
            winner = f.tableWinner;
        const bool attAlive = !alive(c.s, f.attackUnits).empty() || anyUnitsOutside(c.s, f.city, att, c.d);
        const bool defAlive = !alive(c.s, f.defendUnits).empty();
        if (winner == att && !attAlive && defAlive)
            winner = def; // "If a winning force in a battle is eliminated, the opposing force wins"
        else if (winner == def && !defAlive && attAlive)
            winner = att;
        f.winner = static_cast<int8_t>(winner);

        // 12.4 leader loss: every leader of both forces; none for the defender at odds of 1-4 or less.
        const int attCf = cfSum(c.d, c.s, std::vector<int>(f.attackUnits.begin(), f.attackUnits.end()));
        Q_UNUSED(attCf);
        for (int side : {att, def}) {
            const auto& leaders = side == att ? f.attackLeaders : f.defendLeaders;
            const bool forceLeft = side == att ? attAlive : defAlive;
            for (int l : leaders) {
                if (c.s.leaders[l].status != LeaderStatus::InPlay)
                    continue;
                if (!forceLeft) { // 12.43 lost army: no replacement comes into play
                    killLeader(c, l, QStringLiteral("12.43"));
                    continue;
                }
                if (f.tableResult) { // issue 12: the table decided who fell; no 12.41 roll
                    if (std::find(f.tableLeadersLost.begin(), f.tableLeadersLost.end(), l) !=
                        f.tableLeadersLost.end())
                        killLeader(c, l, QStringLiteral("12.41 (lost on the table)"));
                    continue;
                }
                if (side == def && f.oddsNoDefenderLoss)
                    continue;
                const int r =
                    WP_ROLL(c, QStringLiteral("12.41 leader loss for %1").arg(leaderName(c.d, l)), side);
                if (r >= c.d.leaders[l].loss)
                    killLeader(c, l, QStringLiteral("12.41"));
            }
        }
        WP_SAY(c,
               QStringLiteral("12.28 %1 wins the battle at %2").arg(sideName(winner), cityName(c.d, f.city)),
               winner);
        // 7.1: three boxes when an army led by Wallenstein wins as attacker.
        if (winner == att && f.attackCommander >= 0 &&
            c.d.leaders[f.attackCommander].id == QLatin1String("wallenstein") &&
            c.s.leaders[f.attackCommander].status == LeaderStatus::InPlay) {
            advanceWallenstein(c, 3, QStringLiteral("Wallenstein's victory"));
        }
        const int loser = other(winner);
        const bool loserHere = anyUnitsOutside(c.s, f.city, loser, c.d);
        f.step = loserHere ? kRetreat : kFinished;
        if (!loserHere) // leaders left alone where the battle was lost go with their army (12.43)
            for (int l : leadersAt(c.s, f.city, loser, c.d))
                if (!(c.s.leaders[l].flags & kInside))
                    killLeader(c, l, QStringLiteral("12.43"));
        return true;
    }
    case kRetreat:
    case kTableLeaders: {
        const auto legal = combatLegal(c, f);
        if (legal.size() == 1) {
            combatApply(c, legal.front());
            return true;
        }
        return false;
    }
    case kFinished: {
        CombatFrame done = f;
        const int winner = done.winner;
        const int city = done.city;
        c.s.frames.pop_back();
        // 9.51: cards with an effect after the battle (C33), then the combat cards are discarded.
        const int sides[2] = {done.attacker, other(done.attacker)};
        for (int side : sides)
            for (int16_t card : done.cards[side])
                if (const EventDef* ev = EventRegistry::instance().find(c.d.cards[card].id);
                    ev && ev->afterCombat)
                    ev->afterCombat(c, done, side);
        discardCombatCards(c, done);
        // 12.28/12.29: the winner gains control of a non-Fortress city.
        if (!c.d.cities[city].fortress && anyUnitsAt(c.s, city, winner, c.d))
            setCityControl(c, city, winner, QStringLiteral("12.28"));
        checkSiegeMaintained(c, city);
        return true;
    }
    default:
        return false;
    }
}

// Issue 12: the prompt of a linked-battle decision (engine.cpp); empty for the other combat steps.
QString combatTablePrompt(const GameData& d, const GameState& s, const CombatFrame& f) {
    const QString who = sideName(combatActor(s, f));
    const QString where = cityName(d, f.city);
    switch (f.step) {
    case kAskTable:
        return QStringLiteral(
                   "%1: battle at %2 — ask to fight it on the table (battle tvbd | battle tercios) "
                   "or keep the Combat Results Table (battle crt)")
            .arg(who, where);
    case kAnswerTable:
        return QStringLiteral("%1: the attacker asks to fight the battle at %2 on the table (%3) — battle "
                              "accept | battle decline (the CRT decides)")
            .arg(who, where, tableRulesName(f.table));
    case kTableResult:
        return QStringLiteral("%1: enter the result of the battle at %2 fought on the table (%3): "
                              "battle-result attacker|defender LA LD (the winner, the Loss Numbers the "
                              "attacker and the defender take)")
            .arg(who, where, tableRulesName(f.table));
    case kTableLeaders:
        return QStringLiteral(
                   "%1: the leaders lost on the table at %2: battle-leader ID, then battle-leader done")
            .arg(who, where);
    case kTableConfirm: {
        QStringList lost;
        for (int16_t l : f.tableLeadersLost)
            lost << leaderName(d, l);
        return QStringLiteral(
                   "%1: confirm the table result at %2 — %3 wins, Loss Number %4 for the attacker and "
                   "%5 for the defender, leaders lost: %6 (battle confirm | battle dispute)")
            .arg(who, where, sideName(f.tableWinner))
            .arg(f.lossNumber[f.attacker])
            .arg(f.lossNumber[defenderOf(f)])
            .arg(lost.isEmpty() ? QStringLiteral("none") : lost.join(QStringLiteral(", ")));
    }
    default:
        return {};
    }
}

bool canOverrun(const GameData& d, const GameState& s, const ActivationFrame& f, int city) {
    if (f.leader < 0 || f.freeAction || f.units.empty())
        return false;
    // 12.61: at least 1 MP left, at least 8 CF, at least four times the enemy CF (rounded down).
    if (f.mpUsed + 1 > 8)
        return false;
    for (size_t i = 0; i < f.units.size(); ++i)
        if (f.mpUsed + 1 - f.joinedAt[i] > unitMa(d, s, f.units[i]))
            return false;
    const int ours = cfSum(d, s, std::vector<int>(f.units.begin(), f.units.end()));
    const int theirs = cfSum(d, s, unitsOutside(s, city, other(f.side), d));
    return ours >= 8 && theirs > 0 && ours / theirs >= 4;
}

void doOverrun(Ctx& c, int city) {
    ActivationFrame& f = std::get<ActivationFrame>(c.s.frames.back());
    f.mpUsed++; // 12.62: one more MP
    const int enemy = other(f.side);
    WP_SAY(c,
           QStringLiteral("12.62 %1 overruns the %2 units at %3")
               .arg(sideName(f.side), sideName(enemy), cityName(c.d, city)),
           f.side);
    for (int u : unitsOutside(c.s, city, enemy, c.d))
        eliminateUnit(c, u, false, QStringLiteral("12.62"));
    // 11.22: enemy leaders left without troops are eliminated (no leader-loss roll in an overrun, 12.41); a
    // replacement (12.42) takes the lost leader's place beside the overrunning army and is caught in turn.
    for (bool caught = true; caught;) {
        caught = false;
        for (int l : leadersAt(c.s, city, enemy, c.d))
            if (!(c.s.leaders[l].flags & kInside)) {
                killLeader(c, l, QStringLiteral("11.22"));
                caught = true;
            }
    }
    if (!c.d.cities[city].fortress) // 11.17: an overrun gains the city
        setCityControl(c, city, f.side, QStringLiteral("12.62"));
}

} // namespace wp::rules
