// Human-readable words for the engine's actions and pieces, for buttons, lists and tooltips.
#pragma once

#include "rules/action.h"
#include "rules/state.h"

#include <QString>

namespace wp {

// "Activate Tilly at Munich", "Move to Leipzig", "Eliminate Saxon Militia; reduce Swedish Veteran", …
QString describeAction(const GameData& d, const rules::GameState& s, const rules::Action& a);
// A unit or leader in words: "Bavarian Mercenary (reduced)" / "Tilly".
QString describePiece(const GameData& d, const rules::GameState& s, int piece);
QString unitName(const GameData& d, const rules::GameState& s, int unit);
// The same with the city it stands in: "Bavarian Mercenary at Munich".
QString unitAt(const GameData& d, const rules::GameState& s, int unit);
QString locName(const GameData& d, int loc);
// Aid points a card gives the side now (14.2: only the side's eligible donors pay).
int cardAid(const GameData& d, const rules::GameState& s, int side, int card);
// What the decision on top of the stack is about, for choosing a display.
enum class ChoiceTarget { City, Unit, Card, Leader, Other };
ChoiceTarget choiceTarget(const rules::GameState& s);
// The same, including the card events' own choices (issue 5), which need the data to be read.
ChoiceTarget choiceTarget(const GameData& d, const rules::GameState& s);

} // namespace wp
