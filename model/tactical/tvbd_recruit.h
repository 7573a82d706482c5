// Internal to the TVBD engine (tvbd_setup.cpp): the set-up steps about the armies as decisions, for a
// scenario that leaves them to the players — 10.1 agree the game size, 10.2 recruit the armies (by units, or
// by coins with unit quality, 16.3.2), 16.4 the aggressive attacker's bonus units, and 10.5 scouting
// benefit 1 (organise the commands after seeing the enemy's) — with the simple policy's answers.
#pragma once

#include "tvbd.h"

namespace wp::tactical::recruit {

// Starts the next of 10.1 and 10.2 (side 0, then side 1) still to decide: true when it is now the decision
// (s.step is Setup), false when none is left.
bool beginArmies(const TvbdRules& r, BattleState& s);
// 16.4, after 1.3: true when the attacker now decides whether to take the bonus units.
bool beginAggressive(const TvbdRules& r, BattleState& s);
// 10.5 benefit 1, after the scouting roll (armies recruited by the players): true when the side with the
// advantage now decides.
bool beginOrganise(BattleState& s);

// The stages GameSize, Recruit, Aggressive and Organise.
QList<TAction> actions(const TvbdRules& r, const BattleState& s);
// Applies a decision of those stages; *done when the stage is over (the set-up goes on).
bool apply(const TvbdRules& r, BattleState& s, const TAction& a, QString* why, bool* done);
QString prompt(const TvbdRules& r, const BattleState& s);
// The simple policy: the designer's suggested game size, commands of about six units (a wing of Horse with a
// Cannon, a centre of Pike+Shot, the other wing, reserves), the bonus units taken, no reorganisation.
TAction choose(const TvbdRules& r, const BattleState& s, const QList<TAction>& legal);

// The action notation of these decisions (parse: the words after the verb).
QString actionText(const BattleState& s, const TAction& a);
bool parseAction(const BattleState& s, const QStringList& words, TAction* out, QString* error);

} // namespace wp::tactical::recruit
