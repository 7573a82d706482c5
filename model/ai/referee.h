// The tabletop decisions of linked battles (issue 12, docs/linked-battles.md) for a computer seat. They are
// not a bot's to search: the battle is fought by the tactical engine's auto-resolve from the real state (its
// seed comes from the game's generator, which a side's view hides), exactly as the other player's copy
// checks it. The harness that holds the real state (playMatch, the window's computer seat) asks here first.
#pragma once

#include "ai/bot.h"

#include <optional>

namespace wp::rules {
class Engine;
struct GameState;
} // namespace wp::rules

namespace wp::ai {

// The computer's action at a table decision of the combat on top of `real` for `side`, or nullopt when the
// decision is not one (the bot decides as usual):
// - ask mode: the attacker keeps the Combat Results Table (the computer fights no table battle of its own
//   choosing), the defender accepts the table the attacker asked for;
// - the result: the auto-resolved battle's result, leaders lost and "battle-leader done", one per decision;
// - the defender's confirmation: confirm when the entered result is the auto-resolved one; a result entered
//   by hand from a real table is confirmed too (the computer cannot see the table), with that reason.
std::optional<Decision> tableDecision(const rules::Engine& engine, const rules::GameState& real, int side);

} // namespace wp::ai
