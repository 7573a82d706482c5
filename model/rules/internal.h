// Shared by the engine's rule files. Not part of the public interface.
#pragma once

#include "rules/engine.h"

#include <functional>

namespace wp::rules {

// One application of the rules: the data, the state being changed, where log lines go, and whether
// randomness was used (for undo).
struct Ctx {
    const GameData& d;
    GameState& s;
    Log* log;
    bool randomness = false;

    void say(const QString& text, int side = kNone) const {
        if (log)
            log->push_back({text, static_cast<int8_t>(side)});
    }
    int roll(const QString& why, int side = kNone); // d10, logged, forced dice first
};

// Log a line: the text is built only when a log is kept (the AI, the fuzzer and replays keep none, and
// formatting dominated their time). WP_SAY(c, text[, side]) is an expression, usable anywhere a call is.
#define WP_SAY(ctx, ...) ((ctx).log ? (ctx).say(__VA_ARGS__) : void())
// A die roll whose reason is built only when a log is kept.
#define WP_ROLL(ctx, why, ...) (ctx).roll((ctx).log ? QString(why) : QString(), __VA_ARGS__)

// Why `side` may not play card `cardIdx` as an Event now, in words with the rule number; empty if it may
// (sequence.cpp; the refusal of an illegal `play CARD event` carries it).
QString eventRefusal(const Ctx& c, int side, int cardIdx);

// ---- state queries (state.cpp)
int effectiveCityControl(const GameData& d, const GameState& s, int city); // kCath, kProt or kNone
int areaControl(const GameState& s, int area);                             // kCath, kProt or kNone
bool areaNeutral(const GameState& s, int area);
int unitSide(const GameData& d, const GameState& s, int unit);
int leaderSide(const GameData& d, const GameState& s, int leader);
int unitCf(const GameData& d, const GameState& s, int unit);
int unitLf(const GameData& d, const GameState& s, int unit);
int unitMa(const GameData& d, const GameState& s, int unit);
const Nationality& unitNationality(const GameData& d, const GameState& s, int unit);
std::vector<int> unitsAt(const GameState& s, int loc, int side, const GameData& d); // all of that side there
std::vector<int> leadersAt(const GameState& s, int loc, int side, const GameData& d);
std::vector<int> unitsOutside(const GameState& s, int loc, int side, const GameData& d); // not kInside
std::vector<int> unitsInside(const GameState& s, int loc, int side, const GameData& d);
// The same questions without building a list (the hot paths ask only "is there any?").
bool anyUnitsAt(const GameState& s, int loc, int side, const GameData& d);
bool anyUnitsOutside(const GameState& s, int loc, int side, const GameData& d);
bool anyUnitsInside(const GameState& s, int loc, int side, const GameData& d);
bool anyLeadersAt(const GameState& s, int loc, int side, const GameData& d);
// While one lives, the piece queries above answer for `s` from an index of where its pieces are, instead of
// scanning every counter. Only for code that does not change `s` while the scope lasts (listing legal
// actions).
class PieceIndexScope {
  public:
    PieceIndexScope(const GameState& s, const GameData& d);
    ~PieceIndexScope();
    PieceIndexScope(const PieceIndexScope&) = delete;
    PieceIndexScope& operator=(const PieceIndexScope&) = delete;

  private:
    const GameState* m_previous;
    const GameData* m_previousData;
};
int cfSum(const GameData& d, const GameState& s, const std::vector<int>& units);
bool hasEnemyUnits(const GameData& d, const GameState& s, int city, int side);
int siegeLevel(const GameData& d, const GameState& s, int city); // 13.13; 0 if not a fortress
bool isDynamic(const GameData& d, const GameState& s, int leader);
QString cityName(const GameData& d, int loc);
QString leaderName(const GameData& d, int leader);
int locSide(const GameData& d, const GameState& s, int loc); // side whose pieces are at loc, kNone if none

// ---- control, VP, electors, victory (control.cpp)
void addVp(Ctx& c, int delta, const QString& why);                    // 5.12: Catholic total
void setCityControl(Ctx& c, int city, int side, const QString& rule); // markers + Area check (3.11-3.13)
void endSiegeOfOwnCity(Ctx& c, int city); // 13.1: the besieger now controls the city: the siege ends
void recheckAreaControl(Ctx& c, int area, const QString& rule); // 3.13
void violateNeutrality(Ctx& c, int area, int side);             // 5.13, 11.18
void updateElectors(Ctx& c);                                    // 5.141
int electorsControlled(const GameData& d, const GameState& s, int side);
// Whether an Area is an Elector Area now: the Lower Palatinate or Bavaria as the Electorate marker says
// (5.142), the others as printed.
bool isElectorArea(const GameData& d, const GameState& s, int area);
bool checkImmediateVictory(Ctx& c); // 5.21 Wallenstein 20
void checkEndOfTurnVictory(Ctx& c); // 5.21, 5.22, scenario conditions
void endGame(Ctx& c, int winner, const QString& result);

// ---- the sequence of play and card play (sequence.cpp)
std::vector<Action> turnLegal(const Ctx& c, const TurnFrame& f);
void turnApply(Ctx& c, const Action& a);
bool turnAuto(Ctx& c); // true: something happened, call again
void drawCard(Ctx& c, int side);
void discardCard(Ctx& c, int side, int card, bool removeIfAsterisk);

// ---- activation and movement (activation.cpp)
void startActivation(Ctx& c, int side, int leader, int card);
void startFreeAction(Ctx& c, int side, int16_t piece);
std::vector<Action> activationLegal(const Ctx& c, const ActivationFrame& f);
void activationApply(Ctx& c, const Action& a);
bool activationAuto(Ctx& c);
void eliminateUnit(Ctx& c, int unit, bool permanently, const QString& rule);
void killLeader(Ctx& c, int leader, const QString& rule); // 12.41-12.42 with replacement
// 11.22: `side`'s units at `city` eliminate the enemy leaders standing there without combat units (also when
// units are placed by an event or recruited).
void catchLoneLeaders(Ctx& c, int city, int side);
// 7.1: Wallenstein is with `side`'s army at `city` (outside any fortress): the army is "led by Wallenstein".
bool wallensteinLeadsAt(const Ctx& c, int city, int side);
void checkStacking(Ctx& c, int city, int side); // 10.22 (pushes a choice if needed)

// ---- national effects (nations.cpp): movement and stacking limits of 17.x
bool pieceMayEnter(const Ctx& c, int nationality, int city);
bool mixAllowed(const Ctx& c, const std::vector<int>& units, const std::vector<int>& leaders);

// ---- economy and politics (economy.cpp, politics.cpp): issue 4's rules, called from the sequence of play
std::vector<Action> wallensteinLegal(const Ctx& c); // 7.2, Phase A (empty: nothing to decide)
void wallensteinApply(Ctx& c, const Action& a);
bool recoveryPhase(Ctx& c);                           // 15.25, Phase B: false when done
bool canRecruit(const Ctx& c, int side, int card);    // 8.4: may this card be played as REC?
void startRecruitment(Ctx& c, int side, int card);    // 8.4: pushes the recruitment decisions
bool payPhase(Ctx& c);                                // 15.1-15.2, Phase E: false when done
bool revoltPhase(Ctx& c);                             // 9.44, Phase F.2: false when done
bool canOfferPeace(const Ctx& c, int side);           // 5.3, 8.323
void offerPeace(Ctx& c, int side);                    // pushes the response decision
void scenarioStartExtras(Ctx& c, const Scenario& sc); // e.g. the 18.2/18.3 pillage placement
std::vector<Action> economyChoiceLegal(const Ctx& c, const ChoiceFrame& f); // purposes kChooseEconomyBase+
void economyChoiceApply(Ctx& c, const Action& a);

// ---- the Dutch War track (dutchwar.cpp), for Dutch War events and 16.25
bool dutchWarOver(const GameState& s);                     // 9.31: at -3 or +5
void moveDutchWar(Ctx& c, int delta, const QString& rule); // 16.12-16.13 with the box effects

// ---- combat (combat.cpp): regular combat, overrun, retreat, leader loss
// Starts a regular combat at `city` by the activation on top of the stack with `attackUnits`.
void startCombat(Ctx& c, int city, int attacker, const std::vector<int16_t>& attackUnits,
                 const std::vector<int16_t>& attackLeaders, int commander, int attackerFrom, bool sally,
                 bool relief);
std::vector<Action> combatLegal(const Ctx& c, const CombatFrame& f);
void combatApply(Ctx& c, const Action& a);
bool combatAuto(Ctx& c);
int combatActor(const GameState& s, const CombatFrame& f);
bool canOverrun(const GameData& d, const GameState& s, const ActivationFrame& f, int city); // 12.61
void doOverrun(Ctx& c, int city);                                                           // 12.62

// ---- sieges (siege.cpp)
bool canBesiege(const GameData& d, const GameState& s, const ActivationFrame& f); // 13.11-13.13
void placeSiege(Ctx& c, int city, int side);                                      // 13.13
void checkSiegeMaintained(Ctx& c, int city);                                      // 13.14, 13.26
void startSiegeCombat(Ctx& c, int city, int side, bool endPhase);                 // 13.2
std::vector<Action> siegeLegal(const Ctx& c, const SiegeFrame& f);
void siegeApply(Ctx& c, const Action& a);
bool siegeAuto(Ctx& c);
int siegeActor(const GameState& s, const SiegeFrame& f);
int siegeDrm(const GameData& d, const GameState& s, int city, int side, bool endPhase); // 13.23

// kChooseOverstack with ChoiceFrame::kind = this: eliminate units of `options` until French and Swedish units
// no longer stack at ChoiceFrame::city (17.F.5 Conflict of Interest, 10.22), not a number of them.
constexpr int8_t kOverstackFrenchSwedish = 1;

// ---- optional rule 19.8 Campaign Move (campaign.cpp)
// After an ACT card started `firstLeader`'s activation: offers the campaign move if it is allowed.
void offerCampaignMove(Ctx& c, int side, int firstLeader);
std::vector<Action> campaignLegal(const Ctx& c, const ChoiceFrame& f);
void campaignApply(Ctx& c, const Action& a);
// Starts the second activation of a successful campaign move (turnAuto, when the first one is over).
bool startPendingCampaign(Ctx& c);

// ---- generic choices (choice.cpp) and the event hook (events.h)
std::vector<Action> choiceLegal(const Ctx& c, const ChoiceFrame& f);
void choiceApply(Ctx& c, const Action& a);
enum ChoicePurpose : int16_t {
    kChooseForage = 1,        // 11.16: a city to pillage
    kChooseDiscard = 2,       // 8.2 / G: which cards to discard at the end of the Action Phase
    kChooseOverstack = 3,     // 10.22: units to eliminate
    kChooseCampaign = 4,      // 19.8: a second card and leader for a campaign move, or pass
    kChooseEconomyBase = 100, // 100..999: recruitment, pay, loot, recovery, revolts, peace, Wallenstein
    kChooseEventBase = 1000,  // + card-specific codes: handled by the card's event
};

} // namespace wp::rules
