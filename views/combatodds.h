// The exact odds of a regular combat before the dice (12.22-12.28): each side's strength, Fire Column and
// DRM as the engine will compute them, and, by enumerating both d10 rolls on the Combat Results Table,
// the distribution of each side's Loss Number and of the winner. Also the odds of a siege roll (13.24).
#pragma once

#include "rules/state.h"

#include <QList>
#include <QPair>
#include <QString>
#include <array>

namespace wp {

struct CombatOdds {
    int strength[2] = {0, 0}; // by side (0 Catholic, 1 Protestant)
    int column[2] = {0, 0};   // index into GameData::tables.crtColumns after shifts
    QString columnLabel[2];
    int shift[2] = {0, 0};
    int drm[2] = {0, 0};
    QList<QPair<QString, int>> drmParts[2]; // "Tilly (battle rating)" +2, "C49 …" -1
    // inflicts[side][n]: probability that `side` inflicts Loss Number n on the enemy.
    std::array<std::array<double, 32>, 2> inflicts{};
    double expected[2] = {0, 0};
    double winProb[2] = {0, 0}; // by side
    double eliminatedProb[2] = {0, 0};
    bool oddsNoDefenderLoss = false; // 12.4: odds of 1-4 or less, no defender leader-loss rolls
    int attacker = 0;
};

CombatOdds computeCombatOdds(const GameData& d, const rules::GameState& s, const rules::CombatFrame& f);

struct SiegeOdds {
    int fortressStrength = 0, insideCf = 0, siegeLevel = 0, besiegerCf = 0;
    int drm = 0;
    QList<QPair<QString, int>> drmParts;
    double success = 0;  // probability the fortress falls
    double stepLoss = 0; // probability of a natural 0 (13.25: the besieger loses a step)
    int continued = 0;   // the Continued Siege marker, 0..3
};

SiegeOdds computeSiegeOdds(const GameData& d, const rules::GameState& s, int city, int side);

} // namespace wp
