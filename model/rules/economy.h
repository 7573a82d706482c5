// Issue 4's rules as functions the rest of the engine and the card events call: foreign aid (8.5, 14),
// recruitment (8.4), pay, loot and pillage (15), Peasant Revolts (9.4), Wallenstein (7), peace (5.3), the
// national effects (17) and the optional rules that belong to them. The phase hooks the sequence of play
// calls are declared in internal.h; docs/rules-part2.md describes every rule and interpretation.
#pragma once

#include "rules/internal.h"

namespace wp::rules {

// ---------------------------------------------------------------- decisions (ChoiceFrame::purpose)
enum EconomyChoice : int16_t {
    kRecruitLeader = 100,     // 8.4: which leader attempts (choose <leader>), or pass to stop
    kRecruitKind,             // 8.41: 1 Mercenary, 2 Militia
    kRecruitSteps,            // 8.411: how many full-strength units (the rest reduced)
    kRecruitAp,               // 19.4b: 1 spend an AP, 0 do not
    kPayUnits = 110,          // 15.13: a unit to pay with Aid Points, or pass
    kStepLoss,                // 15.222-15.223: the unit that loses the next step
    kLeadersPlace,            // 15.225: the friendly city for leaders left alone
    kRecoverPillage = 120,    // 15.25: a city to recover one Pillage level, or pass
    kWallensteinRecall = 130, // 7.22: the city of the army Wallenstein joins
    kRevoltSpread = 140,      // 9.44: the city the revolt spreads to
    kPeaceAnswer = 150,       // 5.31: accept / decline
    kPeaceWithdraw,           // 5.32: the Area (kAreaCode + index) or Independent City to withdraw from
    kSetupPillage = 160,      // 18.24/18.34: a city to pillage at setup
};
constexpr int16_t kAreaCode = 5000; // a choice target >= kAreaCode names the Area (target - kAreaCode)

// What a Choose target of an economy decision names, for the action notation: 0 a number, 1 a city,
// 2 a unit, 3 a leader (kLeaderBase + index).
int economyTargetKind(const ChoiceFrame& f);
// A sentence for the decision ("Protestant: choose a unit to pay (6 Aid Points left, 15.13)").
QString economyPrompt(const GameData& d, const GameState& s, const ChoiceFrame& f);

// ---------------------------------------------------------------- lasting effects of events (8.65)
// Kept in GameState::markers as key -> value and "key@" -> the last turn it applies. Keys read here:
//   "aid.<donor>.<card>"              : added to that donor's points on every AID card
//   "noaid.<donor>.<card>"            : no Aid Points from that donor (C42)
//   "nolocalpay.<nationality>.<card>" : no Local Pay for that nationality
//   "norecruit.<nationality>.<card>"  : that nationality's leaders may not recruit (C43)
//   "cardinalInfante"                 : the Cardinal Infante's army marches; last turn = its deadline (C23)
// The permanent effects of C5/P20, C16, C36/P2, C40, P9, P15/C44 and P43 are read from
// GameState::eventPlayed; the Protestant events' reminders P5.papalAidResumesTurn,
// P8.austriaNotLocallyPaidTurn, P21.austriaNotLocallyPaidThroughTurn, P24.spainAidMinus3ThroughTurn,
// P42.spainAidMinus2 and the "<id>.ended" reminders are read as they are (docs/rules-part2.md).
constexpr int kForever = 127;
void setEffect(Ctx& c, const QString& key, int value, int lastTurn);
void clearEffect(Ctx& c, const QString& key);
int effect(const GameState& s, const QString& key);        // its value, 0 if absent or over
int effectSum(const GameState& s, const QString& prefix);  // the sum of every effect whose key starts so
bool effectAny(const GameState& s, const QString& prefix); // one such effect is in force
// effectAny(s, head + id + "."), building the string only when some marker starts with `head`.
bool effectAny(const GameState& s, const QString& head, const QString& id);

// ---------------------------------------------------------------- foreign aid (8.5, 14, 16.13, 17.Sw.1)
// Does `donor` ("france", "england", "up", "spain", "pope", ...) give its points on `side`'s AID cards now?
bool donorEligible(const GameData& d, const GameState& s, int side, const QString& donor);
// The points one donor line of an AID card gives now (modifiers of 16.13 and the events; never below 0).
int donorPoints(const GameData& d, const GameState& s, int side, const QString& donor, int printed);
// The points the AID card gives now, without recording anything.
int aidCardValue(const GameData& d, const GameState& s, int side, int card);
// Called once when a card is played as AID (sequence.cpp, aidFrom): returns its points and records the
// card and the part that may pay Swedish units. (Ctx::s is a reference: the state is changed.)
int aidCardPoints(const Ctx& c, int side, int card);
// Aid Points from an Event (P10 Swedish, P19 Savoy, C22, 19.10): added now, usable this turn.
void receiveAidPoints(Ctx& c, int side, int points, const QString& donor, const QString& rule);

// ---------------------------------------------------------------- pay, loot and pillage (15)
int payRate(const GameData& d, const GameState& s, int unit);         // 15.131
bool besiegedInside(const GameData& d, const GameState& s, int unit); // 15.133: inside a besieged fortress
bool locallyPaid(const GameData& d, const GameState& s, int unit);    // 15.12, 16.21, 17.x
bool payableBySwedishAidOnly(const GameData& d, const GameState& s, int unit); // 17.Sw.1-2
bool hasLoc(const GameData& d, const GameState& s, int unit); // 15.14 to the unit's Supply Base
// An immediate Loot Table roll for `units` (all of `side`, in `city`), as in the Loot Segment: Mutiny events.
void lootStack(Ctx& c, int city, int side, const std::vector<int>& units, const QString& rule);
// `steps` step losses among `units`, Mercenaries first, then Militia, then Veterans (15.223); the owner
// picks the unit. Eliminated units leave the game when `permanent` (15.224). With `city` >= 0, leaders
// left alone there are placed afterwards (15.225).
void takeStepLosses(Ctx& c, int side, const std::vector<int>& units, int steps, bool permanent, int city,
                    const QString& rule);
// Raises the Pillage level of `city` by `levels` (to Pillage-2 at most); returns the levels that did not
// fit (15.221). Applies the 15.24 Area VP effect.
int addPillage(Ctx& c, int city, int levels, const QString& rule);
void recoverPillage(Ctx& c, int city, const QString& rule); // one level off, with the 15.24 VP effect
// 15.24: an Area whose cities are all at Pillage-2 is worth one VP less. The value control changes use.
int areaVpValue(const GameData& d, const GameState& s, int area);
// Brings the 15.24 and 9.41 VP bookkeeping up to date with the board (after pillage or revolts changed).
void reconcileAreas(Ctx& c);
enum AreaMark : uint8_t {
    kAreaDevastated = 1, // 15.24: every city at Pillage-2, the Area's VP value is one less
    kAreaRevoltCath = 2, // 9.41: control (and VP) lost to revolts by the Catholic
    kAreaRevoltProt = 4, //       ... by the Protestant
};

// ---------------------------------------------------------------- Peasant Revolts (9.4)
// Places a revolt marker (9.41-9.42): the city becomes Neutral, control of the Area may be lost (and its VP).
void placeRevolt(Ctx& c, int city, const QString& rule);
// Removes it (9.43 suppression by `side`, or kNone for an event): the suppressing side takes control.
void removeRevolt(Ctx& c, int city, int side, const QString& rule);

// ---------------------------------------------------------------- Wallenstein (7)
// 7.1: moves the track up (+19.6 Wallenstein's Ambition); the lead calls it for cities gained and victories.
void advanceWallenstein(Ctx& c, int boxes, const QString& why);
bool wallensteinInPlay(const GameData& d, const GameState& s);
// 19.11: may `side` (Protestant) try to have Wallenstein assassinated now, and the attempt (the card
// discarded).
bool canTryWallensteinEnemies(const Ctx& c, int side);
void tryWallensteinEnemies(Ctx& c, int side, int card);

// ---------------------------------------------------------------- national effects (17)
int effectiveStars(const GameData& d, const GameState& s, int leader); // 10.14 with 7.25 and 19.7
QString nationalityId(const GameData& d, int nationality);
QString unitNatId(const GameData& d, const GameState& s, int unit);
QString leaderNatId(const GameData& d, int leader);
// 17.x: is `city` a Supply Base for units of `nationality` now (15.15)?
bool isSupplyBase(const GameData& d, const GameState& s, int nationality, int city);
// 17.Sw.1: the Swedish Base if it can be used now, else -1.
int usableSwedishBase(const GameData& d, const GameState& s);
std::vector<int> swedishBaseOptions(const GameData& d, const GameState& s); // where a Free Action may move it
bool canMoveSwedishBase(const GameData& d, const GameState& s); // 17.Sw.1: once a turn, not on P18's
void moveSwedishBase(Ctx& c, int city);                         // 17.Sw.1 Free Action
// The conditions that follow a leader loss or a change of control: the end of Hungary's rebellion (17.H.5)
// and the Danes leaving with Christian IV (17.D.3). The engine applies them as soon as the play that caused
// them is over (advance(), whenever only the turn is on the stack: a battle, siege or activation in progress
// finishes first, so no unit vanishes from under it), and the phase hooks apply them too.
void leaderLossEffects(Ctx& c);
// 17.F.5 (C54): when the grace period of Conflict of Interest is over (the end of the Protestant's Card Round
// it names), French and Swedish units still stacked together are an illegal stack (10.22). Called with
// leaderLossEffects between plays.
void conflictOfInterestGrace(Ctx& c);
// leaderLossEffects and the Cardinal Infante's march (17.Sp.3, 17.Sp.31, checked at the phase hooks).
void nationalEffects(Ctx& c);
// 17.Sp.3: the end of the Cardinal Infante's deadline turn (the Peasant Revolt Segment calls it).
void cardinalDeadline(Ctx& c);
// 19.3: call at the end of every Card Round of the Action Phase (turnAuto, Phase::Action); it fixes each
// side's LoC after its sixth round.
void actionPhaseCheckpoint(Ctx& c);

// ---------------------------------------------------------------- recruitment (8.4)
// Attempts granted by an event (P23 Treaty of Heilbronn): `attempts` with leaders of these nationalities.
void startRecruitAttempts(Ctx& c, int side, int attempts, const QStringList& leaderNationalities,
                          const QString& rule);

// ---------------------------------------------------------------- optional rules with their own action
// 19.5: a card played to move the Dutch War marker (roll + or - the card's value).
void upIntervention(Ctx& c, int side, int card);
// 19.4c: may `side` take a Free Action (1 AP), and its cost.
bool freeActionAffordable(const GameState& s, int side);
void payFreeAction(Ctx& c, int side);

// ---------------------------------------------------------------- internal to issue 4's files
namespace eco {
ChoiceFrame& top(GameState& s);
int turnStep(const GameState& s);
void setTurnStep(GameState& s, int step);
const RollBand* tableLookup(const RollTable& t, int modified);
int tableDrm(const RollTable& t, const QString& id, int fallback);
bool enemyUnitsAtOrNextTo(const GameData& d, const GameState& s, int city, int side);
void pushChoice(Ctx& c, ChoiceFrame f);
Action choose(int16_t target);
Action pass();
std::vector<Action> recruitLegal(const Ctx& c, const ChoiceFrame& f);
void recruitApply(Ctx& c, const Action& a);
std::vector<Action> payLegal(const Ctx& c, const ChoiceFrame& f);
void payApply(Ctx& c, const Action& a);
std::vector<Action> politicsLegal(const Ctx& c, const ChoiceFrame& f);
void politicsApply(Ctx& c, const Action& a);
bool recoverySetup(Ctx& c); // 18.24/18.34 placement pending at the first Recovery Phase
void placeLeadersAlone(Ctx& c, int side, int city);
} // namespace eco

} // namespace wp::rules
