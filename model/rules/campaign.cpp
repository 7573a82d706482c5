// Optional rule 19.8 Campaign Move: once a turn, a player who activates a leader may play one more card to
// try to activate a second leader in another space; a die roll decides whether the campaign works.
//
// Interpretations (the rule leaves them open; docs/rules-part2.md "19.8"):
// - The extra card and the second leader are announced right after the first ACT card is played, before the
//   first army moves (a ChoiceFrame kChooseCampaign on top of the first activation): "play CARD act LEADER"
//   or "pass". The extra card must be able to activate that leader (8.3) and is played as an ACT card (8.64
//   applies to it as to any ACT card).
// - "+ ? the strat rating of the worst leader involved": the lower Battle rating of the two leaders (the only
//   rating printed as a bonus). Nationality: +2 when both leaders have the same nationality, else -2.
// - "-1 for each intervening space ... including the space containing the second army": minus the distance
//   in spaces; "-2 if any intervening space on a designated path ... is enemy occupied": the player is taken
//   to designate the best path, so -2 only when every shortest path crosses an enemy-occupied space.
// - Success when the modified roll is at least the distance. The second activation follows when the first
//   ends (11.x, "complete the movement and combat of one army then the second").
// - A raw 0 is a botch: the second leader does not activate; he and as many units of his stack as his
//   Leadership rating move one space to the neighbouring city farthest from the nearest enemy units (the
//   first such city in map order), if one is farther than where he stands and he may stop there.
#include "data/words.h"
#include "rules/economy.h"
#include "rules/events.h"
#include "rules/internal.h"

#include <algorithm>
#include <deque>

namespace wp::rules {

namespace {

QString turnKey(int side) {
    return side == kCatholic ? QStringLiteral("19.8.turnC") : QStringLiteral("19.8.turnP");
}
const QString kPendingLeader = QStringLiteral("19.8.leader");
const QString kPendingSide = QStringLiteral("19.8.side");
const QString kPendingCard = QStringLiteral("19.8.card");

bool onMapCity(const LeaderState& ls) {
    return ls.status == LeaderStatus::InPlay && isCity(ls.loc);
}

// Distances in spaces from `from` to every city (-1: unreachable); with `avoid`, cities holding units of
// `side`'s enemy are reached but not crossed.
std::vector<int> distances(const GameData& d, const GameState& s, int from, int side, bool avoid) {
    std::vector<int> dist(size_t(d.cities.size()), -1);
    std::deque<int> queue{from};
    dist[size_t(from)] = 0;
    while (!queue.empty()) {
        const int x = queue.front();
        queue.pop_front();
        if (x != from && avoid && anyUnitsAt(s, x, other(side), d))
            continue; // not crossed
        for (int n : d.cities[x].neighbours)
            if (dist[size_t(n)] < 0) {
                dist[size_t(n)] = dist[size_t(x)] + 1;
                queue.push_back(n);
            }
    }
    return dist;
}

// Shortest distance in spaces from `from` to `to` (see distances()).
int distance(const GameData& d, const GameState& s, int from, int to, int side, bool avoid) {
    return distances(d, s, from, side, avoid)[size_t(to)];
}

// Distance from `city` to the nearest city with units of `enemy` (-1: none on the map).
int enemyDistance(const GameData& d, const GameState& s, int city, int enemy) {
    const std::vector<int> dist = distances(d, s, city, other(enemy), false);
    int best = -1;
    for (size_t c = 0; c < dist.size(); ++c)
        if (dist[c] >= 0 && (best < 0 || dist[c] < best) && anyUnitsAt(s, int(c), enemy, d))
            best = dist[c];
    return best;
}

// The second leaders the card may try to activate: friendly leaders in play in another city, reachable, with
// an activation rating the card meets (8.3).
std::vector<int> secondLeaders(const Ctx& c, int side, int first) {
    std::vector<int> out;
    const LeaderState& fl = c.s.leaders[first];
    if (!onMapCity(fl))
        return out;
    for (qsizetype l = 0; l < c.d.leaders.size(); ++l) {
        const LeaderState& ls = c.s.leaders[l];
        if (int(l) == first || !onMapCity(ls) || ls.loc == fl.loc || leaderSide(c.d, c.s, int(l)) != side)
            continue;
        if (distance(c.d, c.s, fl.loc, ls.loc, side, false) > 0)
            out.push_back(int(l));
    }
    return out;
}

void botch(Ctx& c, int side, int leader) {
    const int at = c.s.leaders[leader].loc;
    const int enemy = other(side);
    const int here = enemyDistance(c.d, c.s, at, enemy);
    if (here < 0 || (c.s.leaders[leader].flags & kInside))
        return; // no enemy force to flee from, or shut up in a fortress
    std::vector<int> units;
    for (int u : unitsOutside(c.s, at, side, c.d))
        if (int(units.size()) < c.d.leaders[leader].leadership)
            units.push_back(u);
    int best = -1, bestDistance = here;
    for (int n : c.d.cities[at].neighbours) {
        if (anyUnitsAt(c.s, n, enemy, c.d) || !pieceMayEnter(c, c.d.leaders[leader].nationality, n))
            continue;
        bool enter = true;
        for (int u : units)
            enter = enter && pieceMayEnter(c, c.d.unitTypes[c.s.units[u].type].nationality, n);
        if (!enter || unitsAt(c.s, n, side, c.d).size() + units.size() > 8) // 10.21
            continue;
        if (const int dn = enemyDistance(c.d, c.s, n, enemy); dn > bestDistance) {
            best = n;
            bestDistance = dn;
        }
    }
    if (best < 0) {
        WP_SAY(c, QStringLiteral("19.8 %1 has nowhere safer to go").arg(leaderName(c.d, leader)), side);
        return;
    }
    c.s.leaders[leader].loc = static_cast<int16_t>(best);
    for (int u : units)
        c.s.units[u].loc = static_cast<int16_t>(best);
    checkSiegeMaintained(c, at); // 13.14: a siege they kept may end
    WP_SAY(c,
           QStringLiteral("19.8 a botched campaign: %1 heads for safety with %2, %3 -> %4")
               .arg(leaderName(c.d, leader), counted(static_cast<long long>(units.size()), "unit"))
               .arg(cityName(c.d, at), cityName(c.d, best)),
           side);
    // 11.22: lone enemy leaders where they arrive are caught, as by any arrival of units (the fuzzer,
    // campaign seed 210709 with every option: a lone leader stayed and then recruited beside them).
    catchLoneLeaders(c, best, side);
}

} // namespace

void offerCampaignMove(Ctx& c, int side, int firstLeader) {
    if (!c.s.options.campaign_move || c.s.markers.value(turnKey(side), 0) == c.s.turn)
        return;
    ChoiceFrame ch;
    ch.actor = static_cast<int8_t>(side);
    ch.purpose = kChooseCampaign;
    ch.leader = static_cast<int16_t>(firstLeader);
    if (campaignLegal(c, ch).size() > 1) // more than "pass"
        c.s.frames.push_back(ch);
}

std::vector<Action> campaignLegal(const Ctx& c, const ChoiceFrame& f) {
    std::vector<Action> out{Action{ActionKind::Pass, -1, CardUse::Act, -1, {}, {}}};
    const std::vector<int> leaders = secondLeaders(c, f.actor, f.leader);
    for (int16_t card : c.s.hand[f.actor])
        for (int l : leaders)
            if (c.d.leaders[l].activation <= c.d.cards[card].value)
                out.push_back(
                    Action{ActionKind::PlayCard, card, CardUse::Act, static_cast<int16_t>(l), {}, {}});
    return out;
}

void campaignApply(Ctx& c, const Action& a) {
    const ChoiceFrame f = std::get<ChoiceFrame>(c.s.frames.back());
    c.s.frames.pop_back();
    if (a.kind != ActionKind::PlayCard)
        return;
    const int side = f.actor, first = f.leader, second = a.target;
    c.s.markers.insert(turnKey(side), c.s.turn); // once per turn, whatever the result
    const Card& cd = c.d.cards[a.card];
    WP_SAY(c,
           QStringLiteral("19.8 %1 plays %2 \"%3\" (%4) for a campaign move: %5 to activate after %6")
               .arg(sideName(side), cd.id, cd.title)
               .arg(cd.value)
               .arg(leaderName(c.d, second), leaderName(c.d, first)),
           side);
    discardCard(c, side, a.card, false); // from the hand to the Played pile
    const int from = c.s.leaders[first].loc, to = c.s.leaders[second].loc;
    const int dist = distance(c.d, c.s, from, to, side, false);
    const int clear = distance(c.d, c.s, from, to, side, true);
    const int worst = std::min(c.d.leaders[first].battle, c.d.leaders[second].battle);
    const bool sameNat = c.d.leaders[first].nationality == c.d.leaders[second].nationality;
    const int drm = worst + (sameNat ? 2 : -2) - dist - (clear == dist ? 0 : 2);
    const int raw = c.roll(QStringLiteral("19.8 campaign move"), side);
    const int modified = raw + drm;
    WP_SAY(c,
           QStringLiteral("19.8 roll %1 %2 %3 (worst Battle rating %4, %5 nationality %6, %7 -%8%9) "
                          "= %10 against a distance of %8")
               .arg(raw)
               .arg(drm < 0 ? "-" : "+")
               .arg(std::abs(drm))
               .arg(worst)
               .arg(sameNat ? "same" : "different")
               .arg(sameNat ? "+2" : "-2")
               .arg(counted(dist, "space"))
               .arg(dist)
               .arg(clear == dist ? QString() : QStringLiteral(", enemy on the way -2"))
               .arg(modified),
           side);
    // 8.64: "Unless discarded, Event always takes effect" — the extra card is used as an ACT card.
    if (cd.unlessDiscarded && !c.s.eventPlayed[a.card])
        if (const EventDef* ev = EventRegistry::instance().find(cd.id); ev && ev->apply) {
            WP_SAY(c, QStringLiteral("8.64 the event of %1 takes effect").arg(cd.id), side);
            c.s.eventPlayed[a.card] = true;
            ev->apply(c, side);
        }
    if (raw == 0) {
        botch(c, side, second);
        return;
    }
    if (modified < dist) {
        WP_SAY(c,
               QStringLiteral("19.8 the campaign fails: %1 does not activate").arg(leaderName(c.d, second)),
               side);
        return;
    }
    c.s.markers.insert(kPendingLeader, second);
    c.s.markers.insert(kPendingSide, side);
    c.s.markers.insert(kPendingCard, a.card);
}

bool startPendingCampaign(Ctx& c) {
    if (!c.s.markers.contains(kPendingLeader))
        return false;
    const int leader = c.s.markers.take(kPendingLeader), side = c.s.markers.take(kPendingSide),
              card = c.s.markers.take(kPendingCard);
    const LeaderState& ls = c.s.leaders[leader];
    if (ls.status != LeaderStatus::InPlay || ls.loc < 0 || leaderSide(c.d, c.s, leader) != side) {
        WP_SAY(c, QStringLiteral("19.8 %1 can no longer activate").arg(leaderName(c.d, leader)), side);
        return true;
    }
    WP_SAY(c, QStringLiteral("19.8 the campaign move: the second army marches"), side);
    startActivation(c, side, leader, card);
    return true;
}

} // namespace wp::rules
