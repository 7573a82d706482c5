// Activation and movement: 8.3, 8.32, 10.1-10.2, 11.0, with the hand-offs to combat (12) and sieges (13).
#include "rules/economy.h"
#include "rules/internal.h"
#include "rules/named.h"

#include <algorithm>

namespace wp::rules {

namespace {

ActivationFrame& top(GameState& s) {
    return std::get<ActivationFrame>(s.frames.back());
}

bool contains(const std::vector<int16_t>& v, int x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

QString nat(const GameData& d, int nationality) {
    return d.nationalities[nationality].id;
}

// 11.11/11.14/11.15: may the moving stack spend `n` more MP? Leaders have MA 8; no unit may spend more
// than its own MA in the round, counting from when it joined the stack.
bool canSpend(const Ctx& c, const ActivationFrame& f, int n) {
    if (f.mpUsed + n > 8)
        return false;
    for (size_t i = 0; i < f.units.size(); ++i)
        if (f.mpUsed + n - f.joinedAt[i] > unitMa(c.d, c.s, f.units[i]))
            return false;
    return true;
}

bool groupMayEnter(const Ctx& c, const ActivationFrame& f, int city) {
    for (int u : f.units)
        if (!pieceMayEnter(c, c.d.unitTypes[c.s.units[u].type].nationality, city))
            return false;
    for (int l : f.leaders)
        if (!pieceMayEnter(c, c.d.leaders[l].nationality, city))
            return false;
    // 11.21: a leader moving alone may never enter a city with enemy combat units; nor may a lone unit
    // of a Free Action, which may not initiate combat (8.321) — unless they are all inside a fortress.
    if ((f.units.empty() || f.leader < 0) && anyUnitsOutside(c.s, city, other(f.side), c.d))
        return false;
    return true;
}

// The pieces of `side` that would stand at `city` if the moving stack stopped there.
void piecesIfStopped(const Ctx& c, const ActivationFrame& f, int city, std::vector<int>& units,
                     std::vector<int>& leaders) {
    units.clear();
    leaders.clear();
    for (int u : unitsOutside(c.s, city, f.side, c.d))
        if (!contains(f.units, u))
            units.push_back(u);
    for (int u : f.units)
        units.push_back(u);
    for (int l : leadersAt(c.s, city, f.side, c.d))
        if (!(c.s.leaders[l].flags & kInside) && !contains(f.leaders, l))
            leaders.push_back(l);
    for (int l : f.leaders)
        leaders.push_back(l);
}

bool mayStopAt(const Ctx& c, const ActivationFrame& f, int city) {
    if (!isCity(static_cast<int16_t>(city)))
        return true;
    thread_local std::vector<int> units, leaders; // reused: this runs for every destination listed
    piecesIfStopped(c, f, city, units, leaders);
    int total = static_cast<int>(units.size());
    if (total > 8) // 10.21, 11.13
        return false;
    // 10.24: with friendly units besieged inside, the 8-unit limit counts both.
    total += static_cast<int>(unitsInside(c.s, city, f.side, c.d).size());
    if (total > 8)
        return false;
    if (!mixAllowed(c, units, leaders))
        return false;
    // 11.22: leaders moving alone may not end their movement with enemy leaders
    if (f.units.empty() && anyLeadersAt(c.s, city, other(f.side), c.d))
        return false;
    return true;
}

int upLoc(const Ctx& c) {
    const int b = named(c.d, Named::UpBox);
    return b < 0 ? -1 : kBoxBase + b;
}

bool dutchWarOn(const GameState& s) {
    return s.dutchWar > -3 && s.dutchWar < 5; // 9.31, 16.132: the war ends at -3 or +5
}

bool isToUpCity(const Ctx& c, int city) {
    for (const Arrow& a : c.d.arrows)
        if (a.city == city && c.d.boxes[a.box].kind == QLatin1String("up"))
            return true;
    return false;
}

// 16.23: where an army in the UP may go: a "To UP" city that is friendly or neutral for 1 MP; a
// Protestant army also to any Protestant-controlled port, using its entire MA.
std::vector<int16_t> upExits(const Ctx& c, const ActivationFrame& f) {
    std::vector<int16_t> out;
    for (const Arrow& a : c.d.arrows) {
        if (c.d.boxes[a.box].kind != QLatin1String("up"))
            continue;
        const int ctl = effectiveCityControl(c.d, c.s, a.city);
        if (ctl == f.side || ctl == kNone)
            out.push_back(static_cast<int16_t>(a.city));
    }
    if (f.side == kProtestant && f.mpUsed == 0)
        for (qsizetype ci = 0; ci < c.d.cities.size(); ++ci)
            if (c.d.cities[ci].port && effectiveCityControl(c.d, c.s, static_cast<int>(ci)) == kProtestant &&
                std::find(out.begin(), out.end(), ci) == out.end())
                out.push_back(static_cast<int16_t>(ci));
    return out;
}

bool enemyOutside(const Ctx& c, const ActivationFrame& f) {
    return isCity(f.at) && anyUnitsOutside(c.s, f.at, other(f.side), c.d);
}

bool ourStackInside(const Ctx& c, const ActivationFrame& f) {
    if (f.leader >= 0)
        return c.s.leaders[f.leader].flags & kInside;
    if (f.freeUnit >= 0)
        return c.s.units[f.freeUnit].flags & kInside;
    return false;
}

// Units that may be picked up at the current city (11.15).
std::vector<int16_t> pickable(const Ctx& c, const ActivationFrame& f) {
    std::vector<int16_t> out;
    if (f.freeAction || f.at < 0 || f.combatDone || f.mustStop)
        return out;
    const bool inside = ourStackInside(c, f);
    // 11.15: units stacked with a Dynamic leader who is not moving may be picked up only in excess of his
    // Leadership rating; none if he was picked up himself.
    int reserved = 0;
    std::vector<int> here = unitsAt(c.s, f.at, f.side, c.d);
    for (int l : leadersAt(c.s, f.at, f.side, c.d)) {
        if (!isDynamic(c.d, c.s, l) || l == f.leader)
            continue;
        if (contains(f.leaders, l)) {
            // activated with the army at its start, or moving with it: his units are the army's (10.12);
            // picked up here: none of the units stacked with him may be taken (11.15)
            if (f.moved && !(c.s.leaders[l].flags & kMoved))
                reserved = 99;
            continue;
        }
        reserved = std::max(reserved, c.d.leaders[l].leadership);
    }
    int notMoving = 0;
    for (int u : here)
        if (!contains(f.units, u) && (bool(c.s.units[u].flags & kInside) == inside))
            ++notMoving;
    const int limit = std::min<int>(8, f.leadership);
    if (static_cast<int>(f.units.size()) < limit && notMoving - 1 >= reserved) {
        for (int u : here) {
            const UnitState& us = c.s.units[u];
            if (contains(f.units, u) || (us.flags & kDropped) || bool(us.flags & kInside) != inside)
                continue;
            out.push_back(static_cast<int16_t>(u));
        }
    }
    for (int l : leadersAt(c.s, f.at, f.side, c.d)) {
        const LeaderState& ls = c.s.leaders[l];
        if (contains(f.leaders, l) || (ls.flags & kDropped) || bool(ls.flags & kInside) != inside)
            continue;
        out.push_back(static_cast<int16_t>(kLeaderBase + l));
    }
    return out;
}

void moveGroupTo(Ctx& c, ActivationFrame& f, int loc) {
    for (int u : f.units) {
        c.s.units[u].loc = static_cast<int16_t>(loc);
        c.s.units[u].flags = static_cast<uint8_t>((c.s.units[u].flags & ~kInside) | kMoved);
        if (!contains(f.movedUnits, u))
            f.movedUnits.push_back(static_cast<int16_t>(u));
    }
    for (int l : f.leaders) {
        c.s.leaders[l].loc = static_cast<int16_t>(loc);
        c.s.leaders[l].flags = static_cast<uint8_t>((c.s.leaders[l].flags & ~kInside) | kMoved);
    }
}

// What happens when the moving stack is in a city with enemy pieces (after any fortress reaction).
void resolveArrival(Ctx& c) {
    ActivationFrame& f = top(c.s);
    const int city = f.at;
    if (!isCity(static_cast<int16_t>(city)))
        return;
    // 11.22: enemy leaders without combat units are eliminated by units/armies entering.
    if (!f.units.empty())
        catchLoneLeaders(c, city, f.side);
    if (!anyUnitsOutside(c.s, city, other(f.side), c.d))
        return; // 11.21 exceptions 1 and 3: enemies inside a fortress; the stack may go on
    if (canOverrun(c.d, c.s, f, city)) {
        doOverrun(c, city); // 12.62: costs 1 MP, the stack may go on
        return;
    }
    f.mustStop = true; // 11.21: entering ends movement; combat must follow (12.11)
}

void finish(Ctx& c) {
    ActivationFrame f = top(c.s);
    c.s.frames.pop_back();
    for (UnitState& u : c.s.units)
        u.flags &= static_cast<uint8_t>(~(kMoved | kDropped));
    for (LeaderState& l : c.s.leaders)
        l.flags &= static_cast<uint8_t>(~(kMoved | kDropped));
    // 11.16 foraging: 3-5 units moved -> 1 pillage level, 6+ -> 2, in cities moved through.
    const int moved = static_cast<int>(f.movedUnits.size());
    const int levels = moved >= 6 ? 2 : moved >= 3 ? 1 : 0;
    if (levels > 0) {
        std::vector<int16_t> options;
        for (int16_t city : f.visited)
            if (isCity(city) && !contains(options, city) && !c.d.cities[city].offmap)
                options.push_back(city);
        WP_SAY(c,
               QStringLiteral("11.16 %1 units moved: %2 must forage %3 pillage level%4")
                   .arg(moved)
                   .arg(sideName(f.side))
                   .arg(levels)
                   .arg(levels > 1 ? "s" : ""),
               f.side);
        ChoiceFrame ch;
        ch.actor = f.side;
        ch.purpose = kChooseForage;
        ch.options = options;
        ch.count = static_cast<int16_t>(levels);
        ch.data = -1;
        // remember the units that moved, for 11.161 step losses
        c.s.frames.push_back(ch);
        auto& chf = std::get<ChoiceFrame>(c.s.frames.back());
        chf.options.push_back(-1); // separator: units follow
        for (int16_t u : f.movedUnits)
            chf.options.push_back(u);
    }
    if (isCity(f.at))
        checkStacking(c, f.at, f.side);
    // 17.Sp.31: Spanish units of the marching Cardinal's army that end an Activation not stacked with him are
    // eliminated at the end of the Activation (17.Sp.32: and reaching the Zone ends the march).
    if (effect(c.s, QStringLiteral("cardinalInfante")) > 0)
        nationalEffects(c);
}

} // namespace

void startActivation(Ctx& c, int side, int leader, int cardIdx) {
    ActivationFrame f;
    f.side = static_cast<int8_t>(side);
    f.leader = static_cast<int16_t>(leader);
    f.card = static_cast<int16_t>(cardIdx);
    f.at = c.s.leaders[leader].loc;
    const bool inside = c.s.leaders[leader].flags & kInside;
    // 10.12: combined LR of the activated leader and the leaders stacked with him, to a maximum of 8.
    int lr = 0;
    for (int l : leadersAt(c.s, f.at, side, c.d))
        if (bool(c.s.leaders[l].flags & kInside) == inside) {
            lr += c.d.leaders[l].leadership;
            f.leaders.push_back(static_cast<int16_t>(l));
        }
    // the activated leader first
    std::stable_partition(f.leaders.begin(), f.leaders.end(), [&](int16_t l) { return l == leader; });
    f.leadership = static_cast<int8_t>(std::min(8, lr));
    f.visited.push_back(f.at);
    WP_SAY(c,
           QStringLiteral("8.3 %1 activates %2 at %3 (leadership %4)")
               .arg(sideName(side), leaderName(c.d, leader), cityName(c.d, f.at))
               .arg(f.leadership),
           side);
    c.s.frames.push_back(f);
}

void startFreeAction(Ctx& c, int side, int16_t piece) {
    ActivationFrame f;
    f.side = static_cast<int8_t>(side);
    f.freeAction = true;
    if (isLeaderPiece(piece)) {
        const int l = piece - kLeaderBase;
        f.leaders.push_back(static_cast<int16_t>(l));
        f.at = c.s.leaders[l].loc;
        WP_SAY(c, QStringLiteral("8.32 %1 moves the lone leader %2").arg(sideName(side), leaderName(c.d, l)),
               side);
    } else {
        f.freeUnit = piece;
        f.units.push_back(piece);
        f.joinedAt.push_back(0);
        f.at = c.s.units[piece].loc;
        WP_SAY(c, QStringLiteral("8.32 %1 moves %2").arg(sideName(side), unitLabel(c.d, c.s, piece)), side);
    }
    f.leadership = 1;
    f.visited.push_back(f.at);
    c.s.frames.push_back(f);
}

std::vector<Action> activationLegal(const Ctx& c, const ActivationFrame& f) {
    std::vector<Action> out;
    auto add = [&](ActionKind k, int16_t target = -1, std::vector<int16_t> list = {}) {
        Action a;
        a.kind = k;
        a.target = target;
        a.list = std::move(list);
        out.push_back(a);
    };
    if (f.reactionCity >= 0) { // 11.23: the enemy decides
        add(ActionKind::React, 1);
        add(ActionKind::React, 0);
        return out;
    }
    if (isBox(f.at)) {
        // 16.23: only armies leave the UP; not in the activation that entered it; Spinola's army never.
        const bool spinolaStuck = f.side == kCatholic && c.s.spinolaInUp;
        if (f.at == upLoc(c) && !f.enteredUp && !spinolaStuck && !f.units.empty() && !f.leaders.empty() &&
            canSpend(c, f, 1)) {
            // a leader must stay with any units left behind (16.22)
            const bool leftWithoutLeader = unitsAt(c.s, f.at, f.side, c.d).size() > f.units.size() &&
                                           leadersAt(c.s, f.at, f.side, c.d).size() <= f.leaders.size();
            if (!leftWithoutLeader)
                for (int16_t city : upExits(c, f))
                    if (groupMayEnter(c, f, city))
                        add(ActionKind::Move, city);
        }
        for (int16_t p : pickable(c, f))
            add(ActionKind::PickUp, -1, {p});
        add(ActionKind::EndActivation);
        return out;
    }
    const bool inside = ourStackInside(c, f);
    const bool armed = f.leader >= 0 && !f.freeAction;

    if (f.combatDone) {
        if (armed && canBesiege(c.d, c.s, f))
            add(ActionKind::Besiege);
        add(ActionKind::EndActivation);
        return out;
    }
    // Regular combat: mandatory after entering an enemy-occupied city (12.11); a sally from inside a
    // fortress against the enemy outside (13.17).
    const bool engaged = f.mustStop || (inside && enemyOutside(c, f));
    if (engaged && armed) {
        std::vector<int16_t> pool;
        int maxUnits = 8;
        if (f.mustStop) {
            pool = f.units;
            // 13.15: relieving a siege, the besieged units may join if the leaders' combined ratings (the
            // relieving stack's, picked-up leaders' too, and those inside) cover them.
            const std::vector<int> besieged = unitsInside(c.s, f.at, f.side, c.d);
            if (!besieged.empty()) {
                int lr = 0;
                for (int l : f.leaders)
                    lr += c.d.leaders[l].leadership;
                for (int l : leadersAt(c.s, f.at, f.side, c.d))
                    if (c.s.leaders[l].flags & kInside)
                        lr += c.d.leaders[l].leadership;
                maxUnits = std::min(8, std::max(static_cast<int>(f.units.size()), lr));
                for (int u : besieged)
                    pool.push_back(static_cast<int16_t>(u));
            }
        } else {
            for (int u : unitsInside(c.s, f.at, f.side, c.d))
                pool.push_back(static_cast<int16_t>(u));
            if (static_cast<int>(pool.size()) > f.leadership)
                pool.resize(static_cast<size_t>(std::max<int>(0, f.leadership)));
        }
        // 12.13: the attacker chooses which units attack, at least one.
        const int n = std::min(static_cast<int>(pool.size()), 12);
        for (int mask = (1 << n) - 1; mask >= 1; --mask) {
            std::vector<int16_t> sel;
            for (int i = 0; i < n; ++i)
                if (mask & (1 << i))
                    sel.push_back(pool[static_cast<size_t>(i)]);
            if (static_cast<int>(sel.size()) <= maxUnits)
                add(ActionKind::Attack, -1, sel);
        }
        if (f.mustStop)
            return out;
    }
    if (f.mustStop) { // no leader with units that entered: cannot happen (groupMayEnter), but stay safe
        add(ActionKind::EndActivation);
        return out;
    }
    // Movement.
    if (!inside || !hasEnemyUnits(c.d, c.s, f.at, f.side)) {
        if (canSpend(c, f, 1) && !(f.units.empty() && f.leaders.empty())) {
            // 16.21: an army may enter the UP from a "To UP" city for 1 MP while the Dutch War lasts; one
            // army per side (16.22); armies never enter and leave it in one activation.
            const int up = upLoc(c);
            if (up >= 0 && isToUpCity(c, f.at) && dutchWarOn(c.s) && !f.units.empty() && !f.leaders.empty() &&
                f.leader >= 0 && !f.freeAction && !f.leftUp && !anyUnitsAt(c.s, up, f.side, c.d) &&
                !anyLeadersAt(c.s, up, f.side, c.d))
                add(ActionKind::Move, static_cast<int16_t>(up));
            for (int n : c.d.cities[f.at].neighbours) {
                if (!groupMayEnter(c, f, n))
                    continue;
                // do not walk into an illegal stack with no MP left to leave it
                if (!canSpend(c, f, 2) && !mayStopAt(c, f, n) && !anyUnitsOutside(c.s, n, other(f.side), c.d))
                    continue;
                add(ActionKind::Move, static_cast<int16_t>(n));
            }
        }
        // 3.11/11.17: take control for one extra MP; 9.43: the same MP suppresses a Peasant Revolt, in a
        // Fortress City too ("siege is not required to suppress the Revolt", 9.41).
        const City& ct = c.d.cities[f.at];
        const bool revolt = c.s.cities[f.at].revolt;
        if (!f.units.empty() && canSpend(c, f, 1) && (!ct.fortress || revolt) &&
            !hasEnemyUnits(c.d, c.s, f.at, f.side) &&
            (effectiveCityControl(c.d, c.s, f.at) != f.side || revolt) && !ct.offmap)
            add(ActionKind::TakeControl);
        for (int16_t p : pickable(c, f))
            add(ActionKind::PickUp, -1, {p});
        if (!f.freeAction) {
            for (int u : f.units) {
                // a dropped unit must be able to stand here (10.21)
                if (static_cast<int>(unitsOutside(c.s, f.at, f.side, c.d).size()) > 8)
                    continue;
                add(ActionKind::DropOff, -1, {static_cast<int16_t>(u)});
            }
            // 11.21-11.22: a leader left without friendly units may not stay with enemy pieces.
            bool staysAlone = true;
            for (int u : unitsOutside(c.s, f.at, f.side, c.d))
                staysAlone &= contains(f.units, u);
            const bool enemyHere =
                anyLeadersAt(c.s, f.at, other(f.side), c.d) || anyUnitsOutside(c.s, f.at, other(f.side), c.d);
            for (int l : f.leaders)
                if (l != f.leader && !(staysAlone && enemyHere))
                    add(ActionKind::DropOff, -1, {static_cast<int16_t>(kLeaderBase + l)});
        }
    }
    if (armed && canBesiege(c.d, c.s, f))
        add(ActionKind::Besiege);
    // 13.21: siege combat in the Action Phase: a Siege marker from an earlier round and an activated leader.
    const CityState& cs = c.s.cities[f.at];
    if (armed && cs.siege > 0 && cs.sieger == f.side && !f.siegePlacedNow && !inside)
        add(ActionKind::Assault);
    if (mayStopAt(c, f, f.at) || out.empty())
        add(ActionKind::EndActivation);
    return out;
}

void activationApply(Ctx& c, const Action& a) {
    ActivationFrame& f = top(c.s);
    switch (a.kind) {
    case ActionKind::React: {
        // 11.23: ALL the enemy pieces there go inside, or all stay outside.
        const int city = f.reactionCity;
        const int enemy = other(f.side);
        f.reactionCity = -1;
        f.reacted = true;
        if (a.target == 1) {
            for (int u : unitsAt(c.s, city, enemy, c.d))
                c.s.units[u].flags |= kInside;
            for (int l : leadersAt(c.s, city, enemy, c.d))
                c.s.leaders[l].flags |= kInside;
            WP_SAY(c,
                   QStringLiteral("11.23 %1 forces at %2 withdraw inside the fortress")
                       .arg(sideName(enemy), cityName(c.d, city)),
                   enemy);
        } else {
            WP_SAY(c,
                   QStringLiteral("11.23 %1 forces at %2 stay outside the fortress")
                       .arg(sideName(enemy), cityName(c.d, city)),
                   enemy);
        }
        resolveArrival(c);
        return;
    }
    case ActionKind::Move: {
        const int from = f.at;
        const int to = a.target;
        f.cameFrom = static_cast<int16_t>(from);
        f.at = static_cast<int16_t>(to);
        f.mpUsed++;
        f.moved = true;
        f.reacted = false;
        if (isBox(static_cast<int16_t>(from))) {
            f.leftUp = true;
            if (!isToUpCity(c, to))
                f.mpUsed = 8; // 16.23: by sea to a Protestant port, using the entire MA
        }
        moveGroupTo(c, f, to);
        f.visited.push_back(static_cast<int16_t>(to));
        // 11.15/13.14: besiegers leaving may drop the force below the Siege Level
        if (isCity(static_cast<int16_t>(from)))
            checkSiegeMaintained(c, from);
        WP_SAY(
            c,
            QStringLiteral("%1 %2 moves %3 -> %4 (%5 MP used)")
                .arg(isBox(static_cast<int16_t>(to)) || isBox(static_cast<int16_t>(from)) ? "16.2" : "11.1",
                     sideName(f.side), cityName(c.d, from), cityName(c.d, to))
                .arg(f.mpUsed),
            f.side);
        if (isBox(static_cast<int16_t>(to))) {
            f.enteredUp = true;
            // 16.24: Spinola's army (Spinola or a Spanish leader, 3+ Spanish units) stays for good.
            int spanish = 0;
            bool spanishLeader = false;
            for (int u : f.units)
                spanish += unitNationality(c.d, c.s, u).id == QLatin1String("spanish");
            for (int l : f.leaders)
                spanishLeader |= nat(c.d, c.d.leaders[l].nationality) == QLatin1String("spanish");
            if (f.side == kCatholic && spanishLeader && spanish >= 3) {
                c.s.spinolaInUp = true;
                WP_SAY(c, QStringLiteral("16.24 Spinola's army enters the United Provinces for good"),
                       f.side);
            }
            return;
        }
        const City& ct = c.d.cities[to];
        // 11.18: units entering a city of a Neutral Area bring it into the war (leaders alone do not).
        if (!f.units.empty() && !ct.independent && ct.area >= 0 && c.s.areas[ct.area].neutral)
            violateNeutrality(c, ct.area, f.side);
        // 11.23: entering an enemy-controlled fortress with enemy pieces outside: they may react.
        const int enemy = other(f.side);
        bool enemyPiecesOutside = false;
        for (int u : unitsAt(c.s, to, enemy, c.d))
            enemyPiecesOutside |= !(c.s.units[u].flags & kInside);
        for (int l : leadersAt(c.s, to, enemy, c.d))
            enemyPiecesOutside |= !(c.s.leaders[l].flags & kInside);
        if (ct.fortress && enemyPiecesOutside && effectiveCityControl(c.d, c.s, to) == enemy &&
            !f.units.empty()) {
            f.reactionCity = static_cast<int16_t>(to);
            return;
        }
        resolveArrival(c);
        return;
    }
    case ActionKind::TakeControl: {
        f.mpUsed++;
        const bool gained = effectiveCityControl(c.d, c.s, f.at) != f.side || c.s.cities[f.at].revolt;
        // 9.43: a unit spending an MP suppresses a Peasant Revolt; the suppressing side takes control, except
        // of a Fortress City, which is won only by siege (3.11, 13.11): its revolt ends and it is unmarked
        // again (9.42 removed its marker), so it follows its Area (3.13) or, Independent, is neutral.
        if (c.d.cities[f.at].fortress) {
            removeRevolt(c, f.at, kNone, QStringLiteral("9.43"));
            return;
        }
        if (c.s.cities[f.at].revolt)
            removeRevolt(c, f.at, f.side, QStringLiteral("9.43"));
        setCityControl(c, f.at, f.side, QStringLiteral("3.11"));
        if (gained && wallensteinLeadsAt(c, f.at, f.side)) // 7.1: one box per city gained
            advanceWallenstein(c, 1, QStringLiteral("Wallenstein's army gains %1").arg(cityName(c.d, f.at)));
        return;
    }
    case ActionKind::PickUp: {
        const int16_t p = a.list.front();
        if (isLeaderPiece(p)) {
            f.leaders.push_back(static_cast<int16_t>(p - kLeaderBase)); // 11.15: no LR for movement
            WP_SAY(c, QStringLiteral("11.15 picks up %1").arg(leaderName(c.d, p - kLeaderBase)), f.side);
        } else {
            f.units.push_back(p);
            f.joinedAt.push_back(f.mpUsed);
            WP_SAY(c, QStringLiteral("11.15 picks up %1").arg(unitLabel(c.d, c.s, p)), f.side);
        }
        return;
    }
    case ActionKind::DropOff: {
        const int16_t p = a.list.front();
        if (isLeaderPiece(p)) {
            const int l = p - kLeaderBase;
            f.leaders.erase(std::find(f.leaders.begin(), f.leaders.end(), l));
            c.s.leaders[l].flags |= kDropped;
            WP_SAY(c, QStringLiteral("11.14 drops off %1 at %2").arg(leaderName(c.d, l), cityName(c.d, f.at)),
                   f.side);
        } else {
            auto it = std::find(f.units.begin(), f.units.end(), p);
            f.joinedAt.erase(f.joinedAt.begin() + (it - f.units.begin()));
            f.units.erase(it);
            c.s.units[p].flags |= kDropped;
            WP_SAY(
                c,
                QStringLiteral("11.14 drops off %1 at %2").arg(unitLabel(c.d, c.s, p), cityName(c.d, f.at)),
                f.side);
        }
        return;
    }
    case ActionKind::Attack: {
        std::vector<int16_t> leaders;
        for (int l : f.leaders)
            leaders.push_back(static_cast<int16_t>(l));
        const bool sally = !f.mustStop;
        bool relief = false;
        for (int16_t u : a.list)
            relief |= f.mustStop && (c.s.units[u].flags & kInside);
        f.combatDone = true;
        f.fought = true;
        startCombat(c, f.at, f.side, a.list, leaders, f.leader, f.cameFrom, sally, relief);
        return;
    }
    case ActionKind::Besiege: {
        const int city = f.at;
        f.siegePlacedNow = true;
        placeSiege(c, city, f.side);
        finish(c); // 13.11: the leader ends his movement round
        return;
    }
    case ActionKind::Assault: {
        const int city = f.at;
        f.fought = true;
        f.combatDone = true;
        // the activation ends once the siege combat is over (13.12: no regular combat as well)
        finish(c);
        startSiegeCombat(c, city, f.side, false);
        return;
    }
    case ActionKind::EndActivation:
        finish(c);
        return;
    default:
        return;
    }
}

bool activationAuto(Ctx& c) {
    ActivationFrame& f = top(c.s);
    // After a regular combat the movement round is over (12.11); with nothing left to decide, finish.
    if (f.combatDone && f.reactionCity < 0) {
        // the stack may have been eliminated or retreated: follow the activated leader
        if (f.leader >= 0 && c.s.leaders[f.leader].status != LeaderStatus::InPlay) {
            finish(c);
            return true;
        }
        if (f.leader >= 0 && c.s.leaders[f.leader].loc != f.at) {
            finish(c); // the attacker lost and fell back (12.53): the round is over
            return true;
        }
        // drop the units that are no longer with the leader
        std::vector<int16_t> still;
        std::vector<int8_t> joined;
        for (size_t i = 0; i < f.units.size(); ++i)
            if (c.s.units[f.units[i]].loc == f.at) {
                still.push_back(f.units[i]);
                joined.push_back(f.joinedAt[i]);
            }
        f.units = still;
        f.joinedAt = joined;
        if (!isCity(f.at) || !canBesiege(c.d, c.s, f)) {
            finish(c);
            return true;
        }
    }
    return false;
}

void eliminateUnit(Ctx& c, int unit, bool permanently, const QString& rule) {
    UnitState& u = c.s.units[unit];
    const int loc = u.loc;
    WP_SAY(
        c,
        QStringLiteral("%1 %2 is eliminated%3")
            .arg(rule, unitLabel(c.d, c.s, unit), permanently ? QStringLiteral(" permanently") : QString()),
        unitSide(c.d, c.s, unit));
    u.loc = permanently ? kRemoved : kPool; // 12.33: eliminated units may be recruited again
    u.steps = 0;
    u.flags = 0;
    if (isCity(static_cast<int16_t>(loc)))
        checkSiegeMaintained(c, loc);
}

bool wallensteinLeadsAt(const Ctx& c, int city, int side) {
    const int w = named(c.d, Named::Wallenstein);
    if (w < 0 || side != kCatholic)
        return false;
    const LeaderState& ls = c.s.leaders[w];
    return ls.status == LeaderStatus::InPlay && ls.loc == city && !(ls.flags & kInside) &&
           leaderSide(c.d, c.s, w) == side;
}

void catchLoneLeaders(Ctx& c, int city, int side) {
    // A replacement leader (12.42) takes the lost leader's place and is caught in his turn.
    // Leaders inside a fortress are out of reach; those outside are caught when no unit of theirs stands
    // outside with them (their garrison inside does not protect them).
    while (anyUnitsOutside(c.s, city, side, c.d) && !anyUnitsOutside(c.s, city, other(side), c.d)) {
        std::vector<int> caught;
        for (int l : leadersAt(c.s, city, other(side), c.d))
            if (!(c.s.leaders[l].flags & kInside))
                caught.push_back(l);
        if (caught.empty())
            break;
        for (int l : caught) {
            WP_SAY(c,
                   QStringLiteral("11.22 %1 is caught without troops at %2 and eliminated")
                       .arg(leaderName(c.d, l), cityName(c.d, city)),
                   side);
            killLeader(c, l, QStringLiteral("11.22"));
        }
    }
}

void killLeader(Ctx& c, int leader, const QString& rule) {
    // 12.41-12.42: remove the leader; if a leader is named on his back, that leader replaces him. If the
    // replacement is already in the game, his own counter flips to its back as well.
    LeaderState& ls = c.s.leaders[leader];
    const int16_t loc = ls.loc;
    const uint8_t inside = ls.flags & kInside;
    ls.status = LeaderStatus::Dead;
    ls.loc = kRemoved;
    ls.flags = 0;
    WP_SAY(c, QStringLiteral("%1 %2 is lost").arg(rule, leaderName(c.d, leader)),
           leaderSide(c.d, c.s, leader));
    const int r = c.d.leaders[leader].reverse;
    if (r < 0 || rule == QLatin1String("12.43"))
        return; // 12.43: a lost army's leader brings no replacement
    if (c.d.leaders[leader].reverseRule.startsWith(QLatin1String("16.22")))
        return; // the un-named German Protestant backs serve only under 16.22a
    LeaderState& rs = c.s.leaders[r];
    if (rs.status == LeaderStatus::NotEntered) {
        rs.status = LeaderStatus::InPlay;
        rs.loc = loc;
        rs.flags = inside;
        WP_SAY(c, QStringLiteral("12.42 %1 replaces %2 at %3")
                      .arg(leaderName(c.d, r), leaderName(c.d, leader), cityName(c.d, loc)));
    } else if (rs.status == LeaderStatus::InPlay) {
        const int r2 = c.d.leaders[r].reverse;
        const int16_t rLoc = rs.loc;
        const uint8_t rInside = rs.flags & kInside;
        rs.loc = loc;
        rs.flags = inside;
        WP_SAY(c, QStringLiteral("12.42 %1 replaces %2 at %3")
                      .arg(leaderName(c.d, r), leaderName(c.d, leader), cityName(c.d, loc)));
        if (r2 >= 0 && c.s.leaders[r2].status == LeaderStatus::NotEntered) {
            c.s.leaders[r2].status = LeaderStatus::InPlay;
            c.s.leaders[r2].loc = rLoc;
            c.s.leaders[r2].flags = rInside;
            WP_SAY(c, QStringLiteral("12.42 %1's counter flips: %2 takes his place at %3")
                          .arg(leaderName(c.d, r), leaderName(c.d, r2), cityName(c.d, rLoc)));
        } else {
            WP_SAY(c, QStringLiteral("12.42 %1 leaves %2").arg(leaderName(c.d, r), cityName(c.d, rLoc)));
        }
    }
}

void checkStacking(Ctx& c, int city, int side) {
    // 10.22: eliminate units over the limit of 8 (besieged and outside together count, 10.24).
    const std::vector<int> units = unitsAt(c.s, city, side, c.d);
    const int excess = static_cast<int>(units.size()) - 8;
    if (excess <= 0)
        return;
    ChoiceFrame ch;
    ch.actor = static_cast<int8_t>(side);
    ch.purpose = kChooseOverstack;
    for (int u : units)
        ch.options.push_back(static_cast<int16_t>(u));
    ch.count = static_cast<int16_t>(excess);
    WP_SAY(c,
           QStringLiteral("10.22 %1 has %2 units at %3: %4 must be eliminated")
               .arg(sideName(side))
               .arg(units.size())
               .arg(cityName(c.d, city))
               .arg(excess),
           side);
    c.s.frames.push_back(ch);
}

} // namespace wp::rules
