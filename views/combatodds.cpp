#include "combatodds.h"

#include "rules/events.h"
#include "rules/internal.h"

#include <QJsonArray>
#include <QJsonObject>
#include <algorithm>

namespace wp {

using namespace rules;

namespace {

std::vector<int> alive(const GameState& s, const std::vector<int16_t>& units) {
    std::vector<int> out;
    for (int u : units)
        if (s.units[static_cast<size_t>(u)].loc >= 0 && s.units[static_cast<size_t>(u)].steps > 0)
            out.push_back(u);
    return out;
}

// Loss points that remove every step of the units (12.31: a Loss Number at least this eliminates them).
int capacity(const GameData& d, const GameState& s, const std::vector<int>& units) {
    int c = 0;
    for (int u : units)
        c += s.units[static_cast<size_t>(u)].steps * unitLf(d, s, u);
    return c;
}

} // namespace

CombatOdds computeCombatOdds(const GameData& d, const GameState& s, const CombatFrame& f) {
    CombatOdds o;
    const int att = f.attacker, def = other(att);
    o.attacker = att;
    const std::vector<int> units[2] = {alive(s, att == 0 ? f.attackUnits : f.defendUnits),
                                       alive(s, att == 1 ? f.attackUnits : f.defendUnits)};
    for (int side : {0, 1})
        o.strength[side] = cfSum(d, s, units[side]);
    const int nCols = static_cast<int>(d.tables.crtColumns.size());
    for (int side : {0, 1}) {
        const int cmd = side == att ? f.attackCommander : f.defendCommander;
        if (cmd >= 0) {
            o.drm[side] += d.leaders[cmd].battle; // 12.24
            o.drmParts[side] << qMakePair(QStringLiteral("%1 (Battle rating)").arg(d.leaders[cmd].name),
                                          d.leaders[cmd].battle);
        }
        for (int16_t card : f.cards[side]) {
            const CombatCardEffect e = combatCardEffect(d, s, f, card, side); // 9.5
            if (e.ownDrm)
                o.drmParts[side] << qMakePair(
                    QStringLiteral("%1 %2").arg(d.cards[card].id, d.cards[card].title), e.ownDrm);
            o.drm[side] += e.ownDrm;
            o.shift[side] += e.ownShift;
        }
        for (int16_t card : f.cards[other(side)]) {
            const CombatCardEffect e = combatCardEffect(d, s, f, card, other(side));
            if (e.enemyDrm)
                o.drmParts[side] << qMakePair(
                    QStringLiteral("%1 %2").arg(d.cards[card].id, d.cards[card].title), e.enemyDrm);
            o.drm[side] += e.enemyDrm;
            o.shift[side] += e.enemyShift;
        }
        const int col = d.tables.crtColumnFor(o.strength[side]);
        o.column[side] = nCols > 0 ? std::clamp(col + o.shift[side], 0, nCols - 1) : 0;
        o.columnLabel[side] = nCols > 0 ? d.tables.crtColumns[o.column[side]].label : QString();
    }
    o.oddsNoDefenderLoss = o.strength[att] * 4 <= o.strength[def];

    // Who else of the attacker stays in the space (12.28: a force is eliminated only if nothing is left).
    bool attackerOthers = false;
    {
        const std::vector<int> outside = unitsOutside(s, f.city, att, d);
        for (int u : outside)
            if (std::find(f.attackUnits.begin(), f.attackUnits.end(), u) == f.attackUnits.end())
                attackerOthers = true;
    }
    const int cap[2] = {capacity(d, s, units[0]), capacity(d, s, units[1])};
    const bool dynA = f.attackCommander >= 0 && isDynamic(d, s, f.attackCommander);
    const bool dynD = f.defendCommander >= 0 && isDynamic(d, s, f.defendCommander);

    auto lossFor = [&](int side, int roll) {
        if (nCols == 0) // as the engine does, even a strength of 0 reads the first column
            return 0;
        const int modified = std::clamp(roll + o.drm[side], 0, 11); // 12.26
        return d.tables.crtLoss(o.column[side], modified);
    };
    for (int ra = 0; ra <= 9; ++ra)
        for (int rd = 0; rd <= 9; ++rd) {
            const double p = 0.01;
            const int byAtt = lossFor(att, ra), byDef = lossFor(def, rd);
            o.inflicts[att][static_cast<size_t>(std::clamp(byAtt, 0, 31))] += p;
            o.inflicts[def][static_cast<size_t>(std::clamp(byDef, 0, 31))] += p;
            int winner = byAtt > byDef ? att : byDef > byAtt ? def : (dynA && !dynD) ? att : def;
            const bool attAlive = cap[att] > byDef || attackerOthers;
            const bool defAlive = cap[def] > byAtt;
            if (winner == att && !attAlive && defAlive)
                winner = def;
            else if (winner == def && !defAlive && attAlive)
                winner = att;
            o.winProb[winner] += p;
            if (cap[att] <= byDef)
                o.eliminatedProb[att] += p;
            if (cap[def] <= byAtt)
                o.eliminatedProb[def] += p;
        }
    for (int side : {0, 1})
        for (size_t n = 0; n < 32; ++n)
            o.expected[side] += static_cast<double>(n) * o.inflicts[side][n];
    return o;
}

SiegeOdds computeSiegeOdds(const GameData& d, const GameState& s, int city, int side) {
    SiegeOdds o;
    const City& ct = d.cities[city];
    o.fortressStrength = ct.fortress ? ct.fortress->strength : 0;
    o.insideCf = cfSum(d, s, unitsInside(s, city, other(side), d));
    o.siegeLevel = siegeLevel(d, s, city);
    o.besiegerCf = cfSum(d, s, unitsOutside(s, city, side, d));
    o.drm = siegeDrm(d, s, city, side, false);
    o.continued = std::max(0, s.cities[static_cast<size_t>(city)].siege - 1);
    if (o.continued)
        o.drmParts << qMakePair(QStringLiteral("Continued Siege marker (13.26)"), o.continued);
    if (ct.fortress && ct.fortress->siegeModifier)
        o.drmParts << qMakePair(QStringLiteral("%1's Siege Modifier").arg(ct.name),
                                ct.fortress->siegeModifier);
    int known = 0;
    for (const auto& part : o.drmParts)
        known += part.second;
    if (o.drm != known)
        o.drmParts << qMakePair(QStringLiteral("Spinola with the besiegers (13.23)"), o.drm - known);
    const RollTable& t = d.tables.siege;
    for (int natural = 0; natural <= 9; ++natural) {
        bool success;
        if (natural == 9)
            success = true; // 13.25
        else if (natural == 0)
            success = false;
        else {
            const RollBand* b = t.lookup(std::clamp(natural + o.drm, t.rollMin, t.rollMax));
            success = b && b->result.value(QStringLiteral("result")).toString() == QLatin1String("success");
        }
        if (success)
            o.success += 0.1;
    }
    o.stepLoss = 0.1;
    return o;
}

} // namespace wp
