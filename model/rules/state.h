// The game state: everything that changes during play, as a plain value (copyable, comparable,
// small). It is never built by hand: Engine::newGame() sets it up from a scenario and Engine::apply()
// changes it, one legal action at a time.
#pragma once

#include "data/gamedata.h"
#include "rules/rng.h"

#include <QMap>
#include <QString>
#include <QStringList>

#include <array>
#include <cstdint>
#include <optional>
#include <variant>
#include <vector>

namespace wp::rules {

// Sides index arrays: 0 = Catholic, 1 = Protestant (the order of wp::Side).
constexpr int kCatholic = 0;
constexpr int kProtestant = 1;
inline int other(int side) {
    return 1 - side;
}
inline int sideIndex(Side s) {
    return s == Side::Catholic ? kCatholic : kProtestant;
}
QString sideName(int side); // "Catholic" / "Protestant"

// Control of a city or Area.
enum Ctl : int8_t { kNone = -1, kCath = 0, kProt = 1 };

// Where a piece is. City indices are >= 0; boxes are kBoxBase + box index.
constexpr int16_t kPool = -1;    // not on the map (available to recruit / not yet entered)
constexpr int16_t kRemoved = -2; // permanently out of the game
constexpr int16_t kAside = -3;   // set aside (a dismissed Wallenstein, 7.21)
constexpr int16_t kBoxBase = 10000;
inline bool isCity(int16_t loc) {
    return loc >= 0 && loc < kBoxBase;
}
inline bool isBox(int16_t loc) {
    return loc >= kBoxBase;
}

struct UnitState {
    int16_t type = 0;    // index into GameData::unitTypes
    int16_t loc = kPool; // city, box, kPool (available), kRemoved
    uint8_t steps = 0;   // 2 full, 1 reduced, 0 off the map
    uint8_t flags = 0;   // UnitFlag
    bool operator==(const UnitState&) const = default;
};
enum UnitFlag : uint8_t {
    kInside = 1,  // inside its Fortress (besieged or reacted, 11.23)
    kUnpaid = 2,  // 15.1
    kDropped = 4, // dropped off this activation (11.14): may not move again
    kMoved = 8,   // moved in the current activation
};

enum class LeaderStatus : uint8_t {
    NotEntered,
    InPlay,
    Dead,
    Aside,
    Removed
}; // Aside: dismissed (7.21); Removed: assassinated (7.23) or left the game
struct LeaderState {
    int16_t loc = kPool;
    LeaderStatus status = LeaderStatus::NotEntered;
    uint8_t flags = 0; // kInside, kMoved, kDropped
    bool operator==(const LeaderState&) const = default;
};

struct CityState {
    int8_t marker = kNone; // a control marker on the city itself (3.11); kNone = no marker
    int8_t pillage = 0;    // 0, 1, 2 (15.2)
    int8_t siege = 0;      // 0 none, 1 Siege marker, 2..4 Continued Siege +1..+3 (13.26)
    int8_t sieger = kNone; // side that besieges (with a Siege marker)
    bool revolt = false;   // Peasant Revolt marker (9.4)
    bool visited = false;  // foraging: entered by the moving army this activation (11.16)
    bool operator==(const CityState&) const = default;
};

struct AreaState {
    int8_t control = kNone; // marker in the Control Box; kNone with neutral = Neutral
    bool neutral = false;   // Neutral marker present (not yet violated, 5.13)
    bool operator==(const AreaState&) const = default;
};

enum class CardPlace : uint8_t { Later, Unplayed, Hand, Played, Removed, InCombat };
// Dutch: 19.5 United Provinces Increased Intervention; Enemies: 19.11 Wallenstein's Enemies (a discard).
enum class CardUse : uint8_t { Act, Rec, Aid, Event, Dutch, Enemies };
QString cardUseName(CardUse u);

// ---------------------------------------------------------------- decision frames
// The state machine is a stack of frames; the top frame says who decides what. Each frame kind has its
// handler file (sequence.cpp, activation.cpp, combat.cpp, siege.cpp).

enum class Phase : uint8_t { Wallenstein, Recovery, Draw, Action, Pay, End, Revolt, EndOfTurn, GameOver };

struct TurnFrame { // the sequence of play, 6.0
    Phase phase = Phase::Wallenstein;
    int16_t step = 0; // phase-specific progress (e.g. the city reached in the Continued Siege Segment)
    bool operator==(const TurnFrame&) const = default;
};

struct ActivationFrame { // 8.3, 10.12, 11.x: an activated leader (or a Free Action piece) moving
    int8_t side = kCatholic;
    int16_t leader = -1;   // activated leader, -1 for a Free Action unit
    int16_t freeUnit = -1; // the unit of a Free Action (8.32)
    int16_t card = -1;     // the ACT card (-1: Free Action)
    bool freeAction = false;
    int16_t at = -1;       // current city (or box)
    int16_t cameFrom = -1; // the city the stack entered `at` from (12.53)
    int8_t mpUsed = 0;
    int8_t leadership = 0;           // combined LR of the activated leaders at activation (10.12)
    int8_t maLimit = 8;              // MA of the slowest unit of the original stack (11.11, 11.15)
    std::vector<int16_t> leaders;    // leaders moving with the activated one (activated + picked up)
    std::vector<int16_t> units;      // units moving now
    std::vector<int8_t> joinedAt;    // per moving unit: mpUsed when it joined (11.11: no unit beyond its MA)
    std::vector<int16_t> movedUnits; // every unit that moved at least one space (11.16 foraging)
    int16_t reactionCity = -1;       // 11.23: waiting for the enemy's fortress reaction here
    bool reacted = false;            // the reaction at `at` has been decided
    bool combatDone = false;         // a regular combat was fought (12.11: movement ends)
    bool enteredUp = false, leftUp = false; // 16.21: never enter and exit the UP in one activation
    bool moved = false;                     // the stack left its starting city
    int16_t unitsMovedTotal = 0;            // for foraging (11.16)
    std::vector<int16_t> visited;           // cities moved through (foraging choices)
    bool fought = false;                    // regular combat or siege combat done (13.12)
    bool siegePlacedNow = false;            // a Siege marker placed this round (13.12)
    bool mustStop = false;                  // entered an enemy-occupied city: combat, no more movement
    bool operator==(const ActivationFrame&) const = default;
};

// Issue 12, linked battles: where a regular battle is resolved (GameOptions::battles, CombatFrame::table).
enum BattleRules : int8_t { kBattlesCrt = 0, kBattlesTvbd = 1, kBattlesTercios = 2, kBattlesAsk = 3 };
// The linked-battle decisions are Choose actions in a CombatFrame (notation in action.cpp,
// docs/actions.md): these are their targets; a leader lost on the table is kLeaderBase + leader.
constexpr int16_t kBattleCrt = -20;           // "battle crt": the CRT (ask mode, the attacker)
constexpr int16_t kBattleTvbd = -21;          // "battle tvbd": ask for Tilly's Very Bad Day
constexpr int16_t kBattleTercios = -22;       // "battle tercios": ask for Brevis Editio Tercios
constexpr int16_t kBattleAccept = -23;        // "battle accept": the defender agrees to the table
constexpr int16_t kBattleDecline = -24;       // "battle decline": the defender keeps the CRT
constexpr int16_t kBattleConfirm = -25;       // "battle confirm": the defender confirms the entered result
constexpr int16_t kBattleDispute = -26;       // "battle dispute": the defender refuses it (entered again)
constexpr int16_t kBattleLeadersDone = -27;   // "battle-leader done": no more leaders lost
constexpr int16_t kBattleWonByAttacker = -30; // "battle-result attacker LA LD" (counts = {LA, LD})
constexpr int16_t kBattleWonByDefender = -31; // "battle-result defender LA LD"

struct CombatFrame { // 12.x; filled in by combat.cpp
    int16_t city = -1;
    int8_t attacker = kCatholic;
    int8_t step = 0;
    bool sally = false;  // 13.17
    bool relief = false; // 13.15
    std::vector<int16_t> attackUnits, defendUnits;
    std::vector<int16_t> attackLeaders, defendLeaders;
    int16_t attackCommander = -1, defendCommander = -1;
    std::vector<int16_t> cards[2];
    int8_t roll[2] = {-1, -1};
    int8_t lossNumber[2] = {0, 0}; // loss number each side must take
    int8_t winner = kNone;
    int16_t attackerFrom = -1;
    bool oddsNoDefenderLoss = false; // 12.4: resolved at odds of 1-4 or less
    // ---- issue 12: linked battles (docs/linked-battles.md)
    int8_t table = 0;                      // BattleRules: where this battle is resolved (0 = the CRT)
    bool tableResult = false;              // the result was entered from the table (winner below)
    int8_t tableWinner = kNone;            // the winner reported from the table
    std::vector<int16_t> tableLeadersLost; // campaign leaders lost on the table
    // The battle seed of a linked battle (battle::linkedBattleSeed), fixed when the battle goes to the table
    // from the generator's next values, which are not drawn: a function of the position at the stop, the
    // same at the result and at its confirmation (a PBEM copy re-seeds the generator before every action).
    uint64_t tableSeed = 0;
    // ---- end issue 12
    bool operator==(const CombatFrame&) const = default;
};

struct SiegeFrame { // 13.2; filled in by siege.cpp
    int16_t city = -1;
    int8_t side = kCatholic; // besieger
    int8_t step = 0;
    bool endPhase = false; // Continued Siege Segment (13.26)
    bool operator==(const SiegeFrame&) const = default;
};

struct ChoiceFrame { // a generic choice among listed options (events, foraging, discards, ...)
    int8_t actor = kCatholic;
    int16_t purpose = 0;          // what the choice is for (handler-specific)
    std::vector<int16_t> options; // e.g. city indices
    int16_t count = 1;            // how many to choose
    int16_t data = -1;            // handler-specific
    std::vector<int16_t> extra;   // handler-specific
    // ---- issue 4: the economy's multi-step decisions (economy.cpp, recruit.cpp, pay.cpp, politics.cpp)
    int16_t leader = -1; // recruitment: the recruiting leader
    int16_t city = -1;   // step losses, pillage, withdrawals: the city (or Area code) concerned
    int8_t kind = 0;     // recruitment: 1 Mercenary, 2 Militia; withdrawals: the side withdrawing
    int8_t steps = 0;    // recruitment: steps received
    bool flag = false;   // recruitment: 1 AP spent (19.4b); step losses: permanent (15.224)
    // ---- end issue 4
    bool operator==(const ChoiceFrame&) const = default;
};

using Frame = std::variant<TurnFrame, ActivationFrame, CombatFrame, SiegeFrame, ChoiceFrame>;

// ---------------------------------------------------------------- the state

struct GameOptions {
    bool stronger_imperial = false; // 19.2a
    bool guebriant = false;         // 19.2b
    bool victory_19_1 = false;      // 19.1
    // ---- issue 4: the other optional rules (options.cpp)
    bool wallenstein_two_star = false; // 7.25
    bool loc_action_phase = false;     // 19.3
    bool aid_no_limit = false;         // 19.4a
    bool aid_recruit = false;          // 19.4b
    bool aid_free_action = false;      // 19.4c
    bool up_intervention = false;      // 19.5
    bool wallenstein_ambition = false; // 19.6
    bool tilly_dynamic = false;        // 19.7
    bool campaign_move = false;        // 19.8
    bool old_corps = false;            // 19.9
    bool richelieu_aid = false;        // 19.10
    bool wallenstein_enemies = false;  // 19.11
    // ---- end issue 4
    int8_t battles = 0; // issue 12: BattleRules (battles=crt|tvbd|tercios|ask), docs/linked-battles.md
    // issue 8: a difficulty handicap, not a rule of the game: the side whose AID plays give half their Aid
    // Points, rounded down (handicap=catholic:half-aid), or -1 (none). docs/rules-part2.md "Handicaps".
    int8_t half_aid_side = -1;
    bool operator==(const GameOptions&) const = default;
};

struct GameState {
    // identity
    QString scenario;
    GameOptions options;

    // time
    int8_t turn = 1;
    int8_t firstTurn = 1, lastTurn = 14;
    int8_t roundsUsed[2] = {0, 0}; // card rounds used this Action Phase (6 each)
    int8_t activeSide = kProtestant;

    // tracks
    int16_t vp = 21;
    int8_t wallensteinTrack = 0;
    int8_t dutchWar = 0;
    int8_t aidPoints[2] = {0, 0};
    bool aidCardPlayed[2] = {false, false};
    bool warEntryThisTurn = false;        // 9.12
    int8_t electorMajorityHolder = kNone; // 5.141: the side whose +-2 majority award stands
    int8_t electorAllHolder = kNone;      // 5.141: the side whose +-5 all-electors award stands
    int8_t electorate = -1;               // Area index holding the Palatinate/Bavaria elector (5.142)
    QStringList aidSources[2];
    QString pope;
    bool valTellineOpen = true;
    bool hungaryRebellion = true;
    bool imperialBavarianBan = true; // 17.A.2, lifted by C19
    bool interventionAdded = false, apocalypseAdded = false;
    bool spinolaPenaltyDone = false; // 5.15
    bool franceInWar = false;
    bool denmarkInWar = false, swedenInWar = false;
    int16_t swedishBase = -1;     // city index (17.Sw.1)
    bool spinolaInUp = false;     // 16.24: Spinola's army has entered the UP and never leaves
    uint8_t wallensteinUses = 0;  // bit 1 dismissed, bit 2 recalled (7.2)
    QMap<QString, int> markers;   // event reminders and lasting effects, by name ("C16.spanishAid": 2)
    int8_t dutchWarVpAwarded = 0; // 16.131: bit 1 the +2 box award, bit 2 the +4 box award, bit 4 the -3 box
    int8_t dutchAidModifier = 0;  // 16.13: the Aid Point effect of the most recently occupied box
    // ---- issue 4: economy, politics, nations (economy.cpp, recruit.cpp, pay.cpp, politics.cpp, nations.cpp)
    int8_t aidSwedish = 0;            // 17.Sw.1: of aidPoints[Protestant], those that may pay Swedish units
    std::vector<int16_t> aidCards[2]; // cards played as AID this turn (19.4a)
    int16_t aidFromCards[2] = {0, 0}; // the points those cards gave
    std::vector<uint8_t> areaMarks;   // per Area: 15.24 devastation and 9.41 revolt losses (economy.h)
    std::vector<uint8_t> locMarks;    // per unit: the LoC established at the 6th round (19.3), economy.h
    std::vector<int16_t>
        pendingCities;            // the revolts to roll for (9.44); the cities recovered this turn (15.251)
    int8_t setupPillage = 0;      // 18.24/18.34: pillage placements still to make
    bool setupPillageDone = true; // the 18.24/18.34 placement is over
    bool truce = false;           // 5.32 TRUCE: the next Recovery Phase does not halve the roll
    int8_t enemiesTurn = 0;       // 19.11: the turn Wallenstein's enemies last tried
    // ---- end issue 4

    // the board
    std::vector<int8_t> nationSide;   // per nationality; Saxony may switch sides (8.66)
    std::vector<UnitState> units;     // every counter of the mix (incl. optional extras)
    std::vector<LeaderState> leaders; // index = GameData::leaders
    std::vector<CityState> cities;
    std::vector<AreaState> areas;

    // cards (index = GameData::cards)
    std::vector<CardPlace> cardPlace;
    std::vector<bool> eventPlayed;    // events played (daggers, one-shot conditions)
    std::vector<int16_t> drawPile[2]; // Unplayed pile, top = back()
    std::vector<int16_t> hand[2];
    std::vector<int16_t> playedPile[2];

    // the machine
    std::vector<Frame> frames;
    Rng rng;
    std::vector<int8_t> forcedDice; // scripted dice, used first (tests, --dice)

    // result
    int8_t winner = kNone; // kNone with gameOver = draw
    bool gameOver = false;
    QString result; // "Catholic Major Victory (5.21: VP 50)"

    bool operator==(const GameState&) const = default;
};

} // namespace wp::rules
