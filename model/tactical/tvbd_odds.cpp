#include "tvbd_odds.h"

#include <cmath>

namespace wp::tactical {

namespace {

// P(k hits) for n dice hitting on `need` and c Commander dice hitting on 4 (14.5.5).
QList<double> hitDistribution(int n, int need, int c) {
    const double p = need >= 1 && need <= 6 ? (7.0 - need) / 6.0 : 0.0;
    QList<double> d{1.0};
    const auto die = [&d](double q) {
        QList<double> nd(d.size() + 1, 0.0);
        for (qsizetype k = 0; k < d.size(); ++k) {
            nd[k] += d[k] * (1 - q);
            nd[k + 1] += d[k] * q;
        }
        d = nd;
    };
    for (int i = 0; i < n; ++i)
        die(p);
    for (int i = 0; i < c; ++i)
        die(0.5);
    return d;
}

// The units in melee with `unit`, directly or through others (14.5: as resolveMelee groups them).
QList<int> meleeGroup(const TvbdEngine& e, const BattleState& s, int unit) {
    QList<int> group{unit}, stack{unit};
    while (!stack.isEmpty()) {
        const int v = stack.takeLast();
        for (int w : e.contacts(s, v))
            if (!group.contains(w) && s.units[w].type != UnitType::Cannon) {
                group << w;
                stack << w;
            }
    }
    std::sort(group.begin(), group.end());
    return group;
}

} // namespace

TvbdMeleeOdds meleeOdds(const TvbdEngine& e, const BattleState& s, int unit, int target) {
    TvbdMeleeOdds o;
    const Unit& x = s.units[unit];
    if (!x.onTable() || x.type == UnitType::Commander || x.type == UnitType::Cannon ||
        e.contacts(s, unit).isEmpty())
        return o;
    o.valid = true;
    o.unit = unit;
    o.members = meleeGroup(e, s, unit);
    const MeleeSetup m = e.meleeSetup(s, o.members);
    const qsizetype n = m.members.size();
    QList<QList<double>> dist;
    double combos = 1;
    for (qsizetype k = 0; k < n; ++k) {
        dist << hitDistribution(m.dice[k].dice, m.dice[k].toHit, int(m.commanders[k].size()));
        combos *= double(dist.last().size());
    }
    for (QList<double>* l : {&o.pWin, &o.pDraw, &o.pLose, &o.pRout, &o.expectedLoss})
        *l = QList<double>(n, 0.0);
    QList<int> hits(n, 0);
    const auto tally = [&](double w) {
        const QList<int> taken = e.meleeTaken(s, m, hits);
        for (qsizetype k = 0; k < n; ++k) {
            const int res = s.units[m.members[k]].resolve;
            (hits[k] > taken[k] ? o.pWin : hits[k] == taken[k] ? o.pDraw : o.pLose)[k] += w;
            if (taken[k] >= res)
                o.pRout[k] += w;
            o.expectedLoss[k] += w * std::min(taken[k], res);
        }
    };
    if (combos <= kOddsCombinations) {
        // Every combination of hits, with its probability (the members' dice are independent).
        QList<int> idx(n, 0);
        while (true) {
            double w = 1;
            for (qsizetype k = 0; k < n; ++k) {
                hits[k] = idx[k];
                w *= dist[k][idx[k]];
            }
            if (w > 0)
                tally(w);
            qsizetype k = 0;
            while (k < n && ++idx[k] == dist[k].size())
                idx[k++] = 0;
            if (k == n)
                break;
        }
    } else {
        // Sampled from the members' hit distributions with a fixed seed (the same answer every time).
        o.exact = false;
        wp::rules::Rng rng(0x0dd5);
        for (int i = 0; i < kOddsSamples; ++i) {
            for (qsizetype k = 0; k < n; ++k) {
                double u = rng.next() / 4294967296.0;
                int h = 0;
                while (h + 1 < dist[k].size() && u >= dist[k][h])
                    u -= dist[k][h++];
                hits[k] = h;
            }
            tally(1.0 / kOddsSamples);
        }
    }
    const int ku = o.member(unit);
    const int kt = o.member(target >= 0 ? target : m.target[ku]);
    o.target = m.members.value(kt, -1);
    o.win = o.pWin[ku];
    o.draw = o.pDraw[ku];
    o.lose = o.pLose[ku];
    o.unitRouts = o.pRout[ku];
    o.lossUnit = o.expectedLoss[ku];
    if (kt >= 0) {
        o.targetRouts = o.pRout[kt];
        o.lossTarget = o.expectedLoss[kt];
    }
    return o;
}

BattleState afterCharge(const TvbdEngine& e, const BattleState& s, int charger, int target) {
    BattleState at = s;
    at.log.clear();
    at.units[charger].chargeTarget = target;
    const TerrainReadScope scope(at); // the charges move units about; the terrain stays
    e.resolveCharges(at);
    return at;
}

namespace {
TvbdMeleeOdds computeChargeOdds(const TvbdEngine& e, const BattleState& s, int charger, int target) {
    if (s.units[target].type == UnitType::Cannon) {
        TvbdMeleeOdds o; // 14.5.10: overrun on contact
        if (e.chargePlan(s, charger, target)) {
            o.valid = true;
            o.unit = charger;
            o.target = target;
            o.win = 1;
            o.targetRouts = 1;
            o.lossTarget = s.units[target].resolve;
        }
        return o;
    }
    const BattleState at = afterCharge(e, s, charger, target);
    const TableReadScope scope(at); // the melee's odds read it only
    if (!at.units[target].onTable() || !e.contacts(at, charger).contains(target))
        return {};
    return meleeOdds(e, at, charger, target);
}
} // namespace

TvbdMeleeOdds chargeOdds(const TvbdEngine& e, const BattleState& s, int charger, int target) {
    // Remembered per thread under the key of everything it reads (TvbdEngine::chargeKey): the policy weighs
    // the same charges at each shooting and declaring decision, most of them on a table their last shots
    // and declarations left as it was for them.
    thread_local QHash<quint64, TvbdMeleeOdds> memo;
    const quint64 key = e.chargeKey(s, charger, target);
    if (const auto it = memo.constFind(key); it != memo.constEnd())
        return *it;
    if (memo.size() > 4096)
        memo.clear();
    return *memo.insert(key, computeChargeOdds(e, s, charger, target));
}

} // namespace wp::tactical
