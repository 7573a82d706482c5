// The TVBD tactical AI (issue 10): Policy::Tactical. Commands advance as lines at the pace of their
// slowest unit, Cannon unlimber and pivot onto targets and are not masked by their own side, Horse seeks the
// enemy's flanks, rear and weak units, every charge is weighed by its exact odds (tvbd_odds.h), shooters
// take the target whose loss hurts most, Commanders attach to the unit they can rally; the defender holds
// and counter-attacks when the odds favour it. It chooses only among the engine's legal actions and is a
// function of the state (no memory between decisions). docs/tvbd.md "AI".
#pragma once

#include "tvbd.h"
#include "tvbd_odds.h"

namespace wp::tactical {

// The revision of the tactical AI's choices: raised whenever a change makes it choose differently anywhere.
// A linked battle's record names it ("tacticalAi"), since its computer moves are checked by choosing them
// again: 1 the AI of session 8 (records without the field), 2 since session 9 (the attacker presses on), 3
// since session 10 (the attacker scores fewer move options in full, for speed).
inline constexpr int kTacticalAiRevision = 3;

// How much the tactical AI weighs before it chooses. Full: everything described in docs/tvbd.md "AI" (the
// linked battles', the GUI's and assist mode's AI). Quick: the same AI with cheaper estimates where the
// full one spends most (Policy::Quick, docs/tvbd.md "AI", "The quick level"): fewer move options scored in
// full, charges and given-up charges first estimated from one round's exchange and only the best few
// weighed by their exact odds.
enum class TacticalLevel { Full, Quick };

// One decision of the tactical policy for the side to act: always one of engine.legalActions(s) (set-up
// decisions are the simple policy's, chooseSetupAction). `rng` is unused today: the policy is
// deterministic from the state.
TAction chooseTacticalAction(const TvbdEngine& engine, const BattleState& s, wp::rules::Rng& rng,
                             TacticalLevel level = TacticalLevel::Full);

// What the policy's choices weigh, exposed for tests and the docs.
// The value of a melee for `side`: the enemy's expected resolve lost and routs less its own (in resolve
// points, a rout worth routValue more).
double meleeValue(const BattleState& s, const TvbdMeleeOdds& o, int side);
// The worth of routing unit u beyond its last point of resolve (a lost unit for army morale, erosion).
double routValue(const BattleState& s, int u);

} // namespace wp::tactical
