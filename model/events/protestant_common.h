// Helpers of the Protestant card events (protestant.cpp) that the shared helpers (common.h) do not cover:
// preconditions with their reasons, the state switches the Catholic cards set and the Protestant cards end,
// the reminders (GameState::markers) the Protestant events leave for the economy code, and the leaders a
// card may activate (P50). docs/cards-protestant.md describes every reminder and who reads it.
#pragma once

#include "rules/events.h"

#include <QString>
#include <functional>
#include <vector>

namespace wp::rules::prot {

// ---------------------------------------------------------------- preconditions

// A precondition returns an empty string when the card may be played as an Event, else the reason in
// words with its rule number ("9.12: a War Entry Event was already played this turn").
using Check = std::function<QString(const Ctx&, int side)>;
// Sets def.playable and def.whyNot from one check.
void setCheck(EventDef& def, Check check);

// ---------------------------------------------------------------- reminders (GameState::markers)

// The reminders the Protestant events leave; docs/cards-protestant.md says who reads each one.
namespace mk {
inline const QString austriaUnpaidP8 = QStringLiteral("P8.austriaNotLocallyPaidTurn");          // 15.12
inline const QString austriaUnpaidP21 = QStringLiteral("P21.austriaNotLocallyPaidThroughTurn"); // 15.12
inline const QString papalAidResumes = QStringLiteral("P5.papalAidResumesTurn");                // 17.P.1
inline const QString treatyOfUlm = QStringLiteral("P11.neutralsClosedToCatholicTurn");
inline const QString treasureFleet = QStringLiteral("P24.spainAidMinus3ThroughTurn"); // 8.65
inline const QString portugal = QStringLiteral("P42.spainAidMinus2");                 // 8.65
inline const QString downs = QStringLiteral("P43.spainAidMinus2");                    // 8.65
} // namespace mk

// The aid donors of GameState::aidSources (14.3, 14.4).
inline const QString kSpain = QStringLiteral("spain");
inline const QString kPope = QStringLiteral("pope");
inline const QString kFrance = QStringLiteral("france");
inline const QString kEngland = QStringLiteral("england");
inline const QString kUp = QStringLiteral("up");

// Popes (17.P.1): the ids of GameState::pope.
inline const QString kPaulV = QStringLiteral("paul-v");
inline const QString kGregoryXV = QStringLiteral("gregory-xv");
inline const QString kUrbanVIII = QStringLiteral("urban-viii");
inline const QString kInnocentX = QStringLiteral("innocent-x");

// The Catholic events a Protestant event ends: C5 (Spain at war with England, ended by P20), C36 (the
// Huguenot revolt, ended by P2) and C54 (Conflict of Interest, ended by P38). A Catholic event is in
// effect when it was played as an Event (or counts as played in the scenario) and has not been ended;
// the ending is remembered as the marker "<C-id>.ended" so that it holds whatever the Catholic card keeps.
// `ignoreEnder`: do not count the ending card as played (its own Event asks whether the switch was on).
bool catholicEffectOn(const GameData& d, const GameState& s, const QString& cardId, bool ignoreEnder = false);
// Ends it: the reminders "<C-id>.*" the Catholic card left are removed and "<C-id>.ended" is set.
void endCatholicEffect(Ctx& c, const QString& cardId, const QString& rule);

// ---------------------------------------------------------------- activation (P50)

// The leaders of `side` a card of `value` points may activate (8.3, 10.14): in play on the map, an
// Activation rating of at most the value, not stacked with a Dynamic leader who outranks him.
std::vector<int16_t> activatableLeaders(const Ctx& c, int side, int value);

} // namespace wp::rules::prot
