// Helpers shared by the card events of both sides (catholic.cpp, protestant.cpp): identifiers, the
// choice frames events push, New Leader placement (9.21-9.23), units from the counter mix, war entry of
// an Area (9.13, 9.22), Peasant Revolt placement (9.41-9.42), the Famine & Plague, Recovery and Mutiny
// families, Saxony switching sides (8.66), a leaderless army in the UP (16.22 a-c) and combat-card
// conditions (9.5).
//
// Conventions
// - Everything lives in wp::rules::ev. Functions taking `Ctx&` change the state and log with WP_SAY(c, ),
//   citing the rule ("9.21 Wallenstein enters at Vienna").
// - Choices: an event pushes a ChoiceFrame with purpose kChooseEventBase + code and data = the card
//   index, so the registry routes the choice back to that card's EventDef. Codes 0..899 are the card's
//   own; codes from kCodeCommon on belong to the helpers below. Register every EventDef through
//   ev::add() (or wrap it with ev::withCommon()) so that the helpers' frames are handled; the card's own
//   choiceLegal/choiceApply then only ever see the card's own codes.
// - Choice options are encoded as: a city index; a box as kBoxBase + box index; a unit index; a leader
//   as kLeaderBase + leader index; a number. "pass" (ActionKind::Pass) ends an open-ended choice ("no
//   more"). The CLI notation is "choose vienna", "choose u12", "choose tilly", "choose up", "pass".
// - A helper choice with exactly one option is applied at once (nothing to decide), like a single loss
//   allocation in combat; a helper choice with none is skipped with a log line.
#pragma once

#include "rules/events.h"

#include <QString>
#include <vector>

namespace wp::rules::ev {

// ---------------------------------------------------------------- identifiers and queries

int cardIdx(const GameData& d, const QString& id);              // -1 if unknown
int leaderIdx(const GameData& d, const QString& id);            // -1 if unknown
int natIdx(const GameData& d, const QString& id);               // nationality index, -1 if unknown
int areaIdx(const GameData& d, const QString& id);              // -1 if unknown
int upLoc(const GameData& d);                                   // kBoxBase + the UP box, or -1
int boxLoc(const GameData& d, const QString& boxId);            // kBoxBase + box, or -1
QString natOf(const GameData& d, const GameState& s, int unit); // nationality id of a unit
QString leaderNat(const GameData& d, int leader);               // nationality id of a leader
// Was the card played as an Event (8.61; scenario set-ups count removed cards as played)?
bool eventDone(const GameData& d, const GameState& s, const QString& cardId);
// The Area a city belongs to for Area effects: its Area, else the Area an Independent city sits in.
int cityArea(const GameData& d, int city);

bool leaderOnMap(const GameState& s, int leader); // in play on a city or box
// Units of a nationality on the map (cities and boxes), optionally only those in cities.
std::vector<int> unitsOfNat(const GameData& d, const GameState& s, const QString& nat,
                            bool citiesOnly = false);
// Units of `side` at a location (both inside and outside a fortress).
std::vector<int> stackAt(const GameData& d, const GameState& s, int loc, int side);
// 9.23, 13.1: would a piece of `side` placed at `city` be inside a besieged or masked fortress? True when
// the city has enemy units (a fortress holding out against them) and no friendly units outside it.
bool besiegedOrMasked(const GameData& d, const GameState& s, int city, int side);
// The friendly army in the UP (units and leaders of `side` in the UP box).
std::vector<int> upUnits(const GameData& d, const GameState& s, int side);
std::vector<int> upLeaders(const GameData& d, const GameState& s, int side);
// 5.15, 16.21(3), 16.25: Spinola's army is in the UP: a Spanish leader (Spinola, his successor or the
// leader who went in his place) with at least three Spanish units, or three Spanish units alone when no
// Spanish leader is alive to lead them (16.21(3)).
bool spinolaArmyInUp(const GameData& d, const GameState& s);

// ---------------------------------------------------------------- choice frames

enum CommonCode : int16_t {
    kCodeCommon = 900,         // helper frames start here
    kCodePlaceLeader = 900,    // new leader placement: a location for the leader in extra
    kCodeReserved901 = 901,    // (was: step losses; now the economy's kStepLoss frame)
    kCodeFamineStack = 902,    // Famine & Plague: the enemy stack (city)
    kCodeMutinyStack = 903,    // Mutiny: the enemy stack (city)
    kCodeRecovery = 904,       // Recovery: a city to recover one level, or pass
    kCodeRevolt = 905,         // Peasant Revolt: the city
    kCodeSaxonTeleport = 906,  // 8.66: a Saxony city for the Saxon pieces from one location
    kCodeUpLeaderless = 907,   // 16.22 a-c: a replacement leader, Lingen/Wesel, or nothing
    kCodeReserved908 = 908,    // (was: 15.225; now the economy's kLeadersPlace frame)
    kCodeUpResponseStep = 909, // 16.252: the unit of the responding Protestant army that loses a step
};

// Pushes a choice for `actor` routed to card `cardIdx`. purpose = kChooseEventBase + code.
void pushChoice(Ctx& c, int actor, int cardIdx, int code, std::vector<int16_t> options, int count = 1,
                std::vector<int16_t> extra = {});
// The card-specific code of a frame (purpose - kChooseEventBase).
int codeOf(const ChoiceFrame& f);
// One Choose action per option (and a Pass if `withPass`).
std::vector<Action> chooseEach(const std::vector<int16_t>& options, bool withPass = false);
Action passAction();
// Pops the top frame if it is `f` (the frame being applied). Call at the end of a card's choiceApply.
void popChoice(Ctx& c);

// Adds the helper frames' handling to `def` (keeps the card's own choiceLegal/choiceApply for its codes).
EventDef withCommon(EventDef def);
// r.add(id, withCommon(def)).
void add(EventRegistry& r, const QString& cardId, EventDef def);

// ---------------------------------------------------------------- preconditions

// A precondition returns an empty string when the card may be played as an Event, else the reason in
// words with its rule number ("9.31: the Dutch War has ended").
using Check = std::function<QString(const Ctx&, int side)>;
// Sets def.playable and def.whyNot from one check.
void setCheck(EventDef& def, Check check);

// ---------------------------------------------------------------- New Leaders (9.21-9.23)

struct Placement {
    QString nat;                 // "place with any <nat> units" (9.21); empty: no units named
    int fallbackArea = -1;       // 9.23 fallback limited to friendly cities of this Area (-1: any)
    bool fallbackFrance = false; // ... or (also) to friendly French cities (P46)
    bool spanishZone = false;    // only locations in the Spanish Zone (17.Sp.2; C45)
    bool fallbackAlways = false; // the fallback cities are allowed even if units of `nat` are on the map
    int only = -1;               // a fixed location (the Swedish Base, P44); -1: none
};
// Where `leader` of `side` may be placed: with friendly units of p.nat (cities only, never inside a
// besieged or masked fortress, respecting 17.x stacking and movement: mixAllowed, pieceMayEnter); if there
// is no such place (9.23: no unit of p.nat on the map, read as "none he may join"), any friendly-
// controlled city without enemy units, limited by p. Sorted city indices.
std::vector<int16_t> leaderPlaces(const Ctx& c, int side, int leader, const Placement& p);
bool anyLeaderPlace(const Ctx& c, int side, int leader,
                    const Placement& p); // !leaderPlaces().empty(), faster
// Puts a leader on the map at `loc` (status InPlay, outside the fortress) and logs "9.21 ...".
void placeLeader(Ctx& c, int leader, int loc, const QString& rule);
// Places the leaders in turn, each where the owner chooses among leaderPlaces() (one option: at once).
// Leaders already in play, dead or removed do not arrive again (C30 Savelli, C46 Mercy, 12.42).
// Returns the number of leaders that will be placed (0: none could be placed).
int placeNewLeaders(Ctx& c, int side, int cardIdx, const std::vector<int>& leaders, const Placement& p);

// ---------------------------------------------------------------- the counter mix (8.412)

// Units of nat/kind still in the pool (available), in counter order.
std::vector<int> poolUnits(const GameData& d, const GameState& s, const QString& nat, UnitKind kind);
// Places up to `count` full-strength units of nat/kind from the pool at `loc` (fewer if the mix runs
// out; logs what was short). Returns the units placed. Does not check stacking (call checkStacking).
std::vector<int> placeFromPool(Ctx& c, const QString& nat, UnitKind kind, int count, int loc,
                               const QString& rule);

// ---------------------------------------------------------------- war entry of an Area (9.13, 9.22)

// 9.22: false if every city of the Area is occupied by Catholic units.
bool areaMayEnter(const GameData& d, const GameState& s, int area);
// The Area enters the war on the Protestant side: a Neutral Area loses its Neutral marker without a
// violation and becomes Protestant, its VP subtracted (9.13); every city not occupied by Catholic units
// switches to Protestant control (9.22), the Area following its cities (3.13, 5.12, 5.14).
void areaEntersWar(Ctx& c, int area, const QString& rule);
// Cities of the Area where a piece of `side` may be placed on entry: no enemy units in it.
std::vector<int16_t> areaCitiesFreeOf(const GameData& d, const GameState& s, int area, int enemySide);

// ---------------------------------------------------------------- Peasant Revolts (9.41-9.42)

// 9.41: cities of `r.areas` (Area ids; "germany" for every Area in Germany, 2.46; "france" for the
// on-map French cities) where `side` may place a revolt: not already in revolt, no army of the opponent
// of `side` in it ("must not have an enemy army in it"), not one of `r.except`; with r.notSupplyBase not
// a Supply Base; with r.ofControl != kNone only in Areas controlled by that side.
struct RevoltRule {
    QStringList areas;     // Area ids, "germany", "france"
    QStringList except;    // city ids never eligible (Vienna, Munich)
    int ofControl = kNone; // only in Areas controlled by this side (C20/C37: Protestant-controlled)
    bool notSupplyBase = false;
    bool onMapOnly = true; // never an off-map French city (11.32)
};
std::vector<int16_t> revoltCities(const Ctx& c, int side, const RevoltRule& r);
bool anyRevoltCity(const Ctx& c, int side, const RevoltRule& r); // !revoltCities(...).empty(), sooner
// 9.42: places a Peasant Revolt marker through the economy's placeRevolt (rules/economy.h): the city is
// Neutral, its controller may lose the Area and its VP (reconcileAreas), an Independent or French city's VP
// leave with its control; `side` is the player placing it (for the log).
void placeRevolt(Ctx& c, int city, int side, const QString& rule);
// Pushes the revolt choice (one option: placed at once). Returns false if no city is eligible.
bool chooseRevolt(Ctx& c, int side, int cardIdx, const RevoltRule& r);

// ---------------------------------------------------------------- losses (15.223, 15.224)

// `owner` loses `steps` steps among `units`, choosing which in the 15.223 order (Mercenaries first, then
// Militia, then Veterans); `permanent`: eliminated units leave the game (15.224). Uses the economy's
// takeStepLosses (a kStepLoss choice per step when there is a choice).
void stepLosses(Ctx& c, int owner, int cardIdx, const std::vector<int>& units, int steps, bool permanent,
                const QString& rule);

// ---------------------------------------------------------------- Famine & Plague

// Enemy stacks the family may strike: cities with a Pillage marker and enemy units; if there are none,
// cities with 4 or more enemy units.
std::vector<int16_t> famineTargets(const Ctx& c, int side);
// Pushes the stack choice (false if there is none). The stack loses 1 step (2 at Pillage-2; 1 for the
// fallback), the owner choosing, Mercenaries first.
bool famine(Ctx& c, int side, int cardIdx);

// ---------------------------------------------------------------- Recovery (8.63, 15.252)

// Cities where `side` may recover a level now: pillaged, in a friendly-controlled or Neutral Area, or a
// friendly/Neutral Independent or French city; enemy units and adjacency do not matter (8.63).
std::vector<int16_t> recoveryCities(const Ctx& c, int side);
// Up to `levels` levels, one city at most 2 levels and every other 1 (pass ends early).
bool recovery(Ctx& c, int side, int cardIdx, int levels = 3);

// ---------------------------------------------------------------- Mutiny (15.2, 15.224)

// Enemy stacks with at least one Mercenary unit, in a city (never the UP or another box).
std::vector<int16_t> mutinyTargets(const Ctx& c, int side);
bool mutiny(Ctx& c, int side, int cardIdx);
// One roll on the Loot Table for `units` (of one side) at `city` as if Unpaid, through the economy's
// lootStack (15.21-15.22 with the table's DRMs, 15.221 unfulfilled levels, 15.223 order, 15.224 permanent
// elimination, 15.225 lone leaders).
void lootRoll(Ctx& c, int cardIdx, int city, const std::vector<int>& units, const QString& rule);

// ---------------------------------------------------------------- Saxony switches sides (8.66)

// Saxony, John George and the Saxon units join `toSide`: Saxon pieces stacked with pieces of the side
// they leave teleport to a friendly Saxony city of the new owner's choice (destroyed if none, or over the
// stacking limit by 10.22); sieges between Saxons and their new friends end; every Saxony city not
// occupied by units of the side they leave switches to `toSide` (Area, VP and Electors follow).
void saxonySwitches(Ctx& c, int toSide, int cardIdx, const QString& rule);

// ---------------------------------------------------------------- the UP (16.22 a-c)

// The Protestant army in the UP lost its leader (C13 Anhalt, C21 Christian IV): a. a German Protestant
// replacement leader not on the map takes command, else b. the units retreat to Lingen or Wesel, else
// c. they are eliminated. The Protestant chooses among the options that apply.
void upLeaderless(Ctx& c, int cardIdx);

// ---------------------------------------------------------------- Spinola Besieges (16.25-16.253)

// C3/C4 leave the reminder "C3.respond"/"C4.respond" = the turn of play while the Protestant has not
// Responded. dutchSiegeResponse(): if a Protestant army of at least 1 leader and 3 units is in the UP, it
// Responds: it loses one step at once (the Protestant chooses the unit, 16.252) and the reminder goes. The
// events call it when played; the engine should call it after every activation that ends (16.251: "by
// the end of the turn"). dutchSiegeEndOfTurn(): for each reminder still there at the end of the turn's
// Action Phase, the Dutch War marker moves one more box up (16.253); the reminders go. The engine should
// call it at the start of the End Phase (before 6.F.1).
void dutchSiegeResponse(Ctx& c);
void dutchSiegeEndOfTurn(Ctx& c);
bool dutchSiegePending(const GameState& s);

// ---------------------------------------------------------------- combat cards (9.5)

// The army of `side` in the combat: its units and leaders, its commander.
const std::vector<int16_t>& combatUnits(const CombatFrame& f, int side);
const std::vector<int16_t>& combatLeaders(const CombatFrame& f, int side);
int combatCommander(const CombatFrame& f, int side);
bool armyHasNat(const Ctx& c, const CombatFrame& f, int side, const QString& nat, int kind = -1);
bool armyHasKind(const Ctx& c, const CombatFrame& f, int side, UnitKind kind);
// Surprise Attack (C48/P12): the defender may play no combat card once the attacker has played it.
bool surpriseBlocks(const Ctx& c, const CombatFrame& f, int side);
// Wraps a combat card's condition with surpriseBlocks(); use for every combat card.
std::function<bool(const Ctx&, const CombatFrame&, int)>
combatRule(std::function<bool(const Ctx&, const CombatFrame&, int)> cond);

} // namespace wp::rules::ev
