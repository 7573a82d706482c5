// TVBD melee odds (14.4-14.6): the distribution of a melee's result, from the engine's own targets, dice,
// modifiers and hit allocation (TvbdEngine::meleeSetup / meleeTaken), without rolling. For the tactical
// view's read-out and the tactical AI (tvbd_ai.h). docs/tvbd.md "AI".
#pragma once

#include "tvbd.h"

namespace wp::tactical {

struct TvbdMeleeOdds {
    bool valid = false;         // false: the unit is not in contact after the charge (no melee)
    bool exact = true;          // false: too many combinations of dice; estimated from kOddsSamples samples
    int unit = -1, target = -1; // the unit asked about (the charger) and its target
    // The melee group (every unit in contact, directly or through others) and, per member in that order:
    QList<int> members;
    QList<double> pWin, pDraw,
        pLose;                  // 14.6: the hits it inflicted (with its Commanders') against those taken
    QList<double> pRout;        // the hits taken reach its resolve
    QList<double> expectedLoss; // expected resolve lost (hits taken, at most its resolve)
    // The same for the unit asked about (the charger) and its target.
    double win = 0, draw = 0, lose = 0;
    double unitRouts = 0, targetRouts = 0;
    double lossUnit = 0, lossTarget = 0;
    int member(int u) const { return int(members.indexOf(u)); }
};

constexpr int kOddsCombinations = 20000; // above this many combinations of hits the odds are sampled
constexpr int kOddsSamples = 20000;

// The melee of `unit`'s group as the table stands (units in contact: a locked melee, or a position after
// charges). `target` names the enemy whose figures fill targetRouts / lossTarget (-1: unit's own target).
TvbdMeleeOdds meleeOdds(const TvbdEngine& e, const BattleState& s, int unit, int target = -1);

// The charge of `charger` on `target` declared now, with every charge already declared (14.4, the
// engine's resolveCharges on a copy: contact, meeting halfway, Cannon overrun), then the melee of its
// group. Not counted: the command check of a charger out of command (12.1.2), a Light Horse target's evade
// (14.3), charges not yet declared and 14.2 cancels by later declarations. A target Cannon is overrun
// (14.5.10): win, target routs 1.
TvbdMeleeOdds chargeOdds(const TvbdEngine& e, const BattleState& s, int charger, int target);

// The state after the charges already declared plus `charger` on `target` (as chargeOdds sees it).
BattleState afterCharge(const TvbdEngine& e, const BattleState& s, int charger, int target);

} // namespace wp::tactical
