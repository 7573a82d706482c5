// Linked battles (issue 12, docs/linked-battles.md): a campaign battle fought on the table comes back into
// the campaign as the engine's table-result decision ("battle-result attacker 3 1", "battle-leader tilly",
// "battle-leader done"). This file maps a tabletop result — entered in a form, or the end state of an
// auto-resolved TVBD battle — to that decision, and measures the mapping against the Combat Results Table.
// QtCore only; the GUI calls these functions as the CLI does.
#pragma once

#include "battle/record.h"
#include "rules/action.h"
#include "rules/engine.h"
#include "tactical/tvbd_ai.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <vector>

namespace wp {
struct GameData;
}
namespace wp::rules {
struct GameState;
class Engine;
} // namespace wp::rules
namespace wp::tactical {
struct BattleState;
struct TerciosState;
} // namespace wp::tactical

namespace wp::battle {

// One side of a tabletop result, in tactical units (a Large Pike+Shot counts 2; Commanders not counted).
struct TableSide {
    int units = 0;           // at the start of the battle
    int destroyed = 0;       // eliminated
    int routed = 0;          // routed (fled the table, or still fleeing when the battle ended)
    int remaining = 0;       // still fighting at the end (informational; units - destroyed - routed if 0)
    QStringList leadersLost; // campaign leader ids whose Commander fell (TVBD 6.2 casualty)
};

// A tabletop result. Side [0] is the campaign attacker (the export's side 0), [1] the defender.
struct TableResult {
    int winner = -1; // 0 the attacker, 1 the defender, 2 a draw, -1 not finished
    TableSide sides[2];
    QString reason; // the tactical engine's end reason, or "entered by hand"
};

// The tunable mapping (docs/linked-battles.md "Mapping"; the defaults are the calibrated values).
struct LinkMapping {
    double base = 0.125;       // a fraction of the loss capacity every side takes in any battle
    double routedWeight = 0.5; // a routed unit counts this much of a destroyed one
    double scale = 1.0;        // times the side's loss capacity (every step of its units, 12.31)
    double pursuit = 0.125;    // a further fraction of the loser's capacity: the pursuit after the battle
    double loserMinimum = 1.0; // the beaten side takes at least this Loss Number (a CRT loser always does)
    // The 12.41 roll of the leaders the table did not kill (rollTableLeaderLosses): this modifier besides
    // the outcome's +-1. TVBD -2 (its Commanders fall on the table; the survivors' roll makes up the
    // difference to the CRT's rate, docs "Leaders lost"), Tercios 0 (no Commanders on its table).
    int leaderModifier = -2;
};

// The campaign result the engine's decision takes.
struct LinkedResult {
    bool attackerWins = false;
    int lossNumber[2] = {0, 0}; // [0] the attacker takes, [1] the defender takes
    QList<int> leadersLost;     // GameData leader indices
    QString why;                // how the numbers were obtained
    // "battle-leader done" is to be played: false when every leader of the battle is lost (the engine then
    // closes the list by itself, combat.cpp, and a "done" would not be legal)
    bool leadersDone = true;
    // The engine actions in notation, in order: "battle-result ...", "battle-leader ID"..., "battle-leader
    // done". The defender's "battle confirm" is his own decision and is not included.
    QStringList actions(const GameData& d) const;
};

// The largest Loss Number the table may give a side of the combat on top of `s` (every step of its units).
int lossCapacity(const GameData& d, const wp::rules::GameState& s, int campaignSide);

// The mapping from a tabletop result to the campaign result for the combat on top of `s` (a CombatFrame
// waiting for the table result, or any step before it). Draws and unfinished battles go to the defender
// unless a Dynamic leader commands the attacker only (12.28's tie rule). False with *error when the top
// frame is not a combat or a leader named is not in the battle.
bool mapResult(const GameData& d, const wp::rules::GameState& s, const TableResult& table,
               const LinkMapping& mapping, LinkedResult* out, QString* error);

// The tabletop result read from the end state of a TVBD battle exported from the combat on top of `s`
// (Commanders matched to the campaign leaders by the names the export gives them).
TableResult tableResultFromTvbd(const GameData& d, const wp::rules::GameState& s,
                                const wp::tactical::BattleState& end);

// The tabletop result read from the end state of a Tercios battle exported from the combat (units
// destroyed; Tercios has no rout status and no Commanders on the table: no leader is lost here).
TableResult tableResultFromTercios(const wp::tactical::TerciosState& end);

// Leader losses of an auto-resolved or on-screen table (docs/linked-battles.md "Leaders lost"): every
// campaign leader of the combat on top of `s` not already lost on the table makes the 12.41 roll (a d10 +
// `modifier` >= his Loss rating), +1 for the leaders of the beaten side, -1 for the winner's (none on a
// draw), with a die from `seed`; no roll for the defender at odds of 1-4 or less (12.4). Appends the
// leaders lost to table->sides[].leadersLost. `modifier`: LinkMapping::leaderModifier of the ruleset.
void rollTableLeaderLosses(const GameData& d, const wp::rules::GameState& s, quint64 seed, TableResult* table,
                           int modifier = 0);

// The calibrated mapping of a ruleset ("tvbd", "tercios"; docs/linked-battles.md "Balance"): the "result"
// object of the ruleset's section of scenarios/battle-mapping.json, read once (an owner may retune it there);
// a key the file does not give keeps builtInMapping's value. A bad value stops the ruleset's linked battles
// with a message naming the file, the key and the problem, as any other error of that file.
LinkMapping defaultMapping(const QString& rules);
// The values the code ships (the file's as calibrated), for a file without a "result" object.
LinkMapping builtInMapping(const QString& rules);
// Reads a "result" object over *out (keys absent keep their values); false with *error ("<where>.pursuit:
// expected a number from 0 to 1") for a value out of its range.
bool linkMappingFromJson(const QJsonObject& o, const QString& where, LinkMapping* out, QString* error);

// The seed of the linked battle on top of `s` (its scenario, its auto-resolve, the battle fought on screen):
// fixed in the CombatFrame when the battle went to the table (CombatFrame::tableSeed, from the game's
// generator, which is not advanced), so the same at the result and at its confirmation, in every copy of
// the game; before that, the same derivation from the state's generator. A function of the game state only:
// the other player (PBEM) reproduces the same battle and checks the result entered (docs).
quint64 linkedBattleSeed(const wp::rules::GameState& s);

// The tactical scenario of the combat on top of `s` in the ruleset ("tvbd" or "tercios"), as the linked
// battle is fought: `battle export` of the state after both sides' combat cards with the battle seed
// `seed` (linkedBattleSeed for the game's own battle). False with *error when the data files do not load,
// the ruleset is unknown or the top frame is not a combat.
bool exportLinked(const GameData& d, const wp::rules::GameState& s, const QString& rules, quint64 seed,
                  QJsonObject* out, QString* error);

// Exports the combat on top of `s` (exportLinked), auto-resolves it with the tactical engine's policy
// `policy` ("" = autoPolicy(rules); "simple", "tactical") and maps the end state. False with *error when the
// data files do not load or the ruleset is unknown. `log` (optional) gets the tactical engine's log of the
// battle.
bool autoResolveLinked(const GameData& d, const wp::rules::GameState& s, const QString& rules, quint64 seed,
                       const LinkMapping& mapping, LinkedResult* out, TableResult* table, QString* error,
                       QStringList* log = nullptr, const QString& policy = {});

// The one call for a GUI or a bot at the table-result decision: the battle on top of `s` auto-resolved in
// its ruleset (CombatFrame::table) with linkedBattleSeed(s) and defaultMapping. The actions to play are
// out->actions(d).
bool autoResolveTop(const GameData& d, const wp::rules::GameState& s, LinkedResult* out, QString* error);

// The defender's check before "battle confirm" (PBEM): does the result entered (the CombatFrame waiting for
// the confirmation) equal the auto-resolved battle of this state? The battle is the same for both players:
// its seed is fixed in the frame (linkedBattleSeed). *why says what differs.
bool matchesAutoResolve(const GameData& d, const wp::rules::GameState& s, QString* why);

// ---- the battle's record (docs/linked-battles.md "The battle's record")
// -------------------------------------- The evidence a table result carries as the attachment of its
// "battle-result" action (rules::splitAttachment): where the result comes from, enough for any copy of the
// game to replay the tactical battle and check that it gives the result entered. A hand-entered result has
// none.

// One tactical unit of a linked battle's exported scenario as the form for a real table lists it
// (tableUnits), and what was entered for it (docs/linked-battles.md "The form").
struct TableUnit {
    QString id;           // the scenario's unit id
    QString name;         // as exported
    QString type;         // TVBD: its type ("PikeShot", "Large PikeShot", "Horse"...); Tercios: its profile
    int side = 0;         // 0 the campaign attacker (the export's side 0), 1 the defender
    int weight = 1;       // tactical units it counts for: a Large Pike+Shot 2
    int startResolve = 0; // TVBD: its resolve at the start; Tercios: its Stamina (Weary at Wear = Stamina,
                          // destroyed above it)
    // entered
    QString fate = QStringLiteral("remaining"); // "remaining", "routed" (TVBD only: Tercios has no rout
                                                // status), "destroyed"
    int resolve = 0;                            // TVBD, remaining: the resolve it has left (1..startResolve)
    int wear = 0;                               // Tercios, remaining: its Wear (0..Stamina)
    bool disordered = false;                    // Tercios, remaining: Disordered
    bool weary() const { return wear >= startResolve; } // Tercios
    // The entered state in the ruleset's terms: "remaining, resolve 3 of 4", "remaining, Wear 2 of 3,
    // Disordered", "routed", "destroyed".
    QString stateText(const QString& rules) const;
};

// The tactical units of the combat on top of `s` as the linked battle is set up (exportLinked with
// linkedBattleSeed, read back as the tactical window reads it), every one remaining at full strength.
bool tableUnits(const GameData& d, const wp::rules::GameState& s, QList<TableUnit>* out, QString* error);
// The same from an exported scenario of the ruleset.
bool scenarioUnits(const QString& rules, const QJsonObject& scenario, QList<TableUnit>* out, QString* error);

// The tabletop result a form gives: per side the units (weights) by fate, the winner and the leaders lost.
// Checks every entered state against the ruleset (TVBD resolve 1..start; Tercios Wear 0..Stamina, no
// rout); false with *error naming the unit.
bool tableResultFromUnits(const QString& rules, const QList<TableUnit>& units, int winner,
                          const QStringList leadersLost[2], TableResult* out, QString* error);

struct TableRecord {
    QString by;                        // "auto": the auto-resolved battle; "screen": fought in the window;
                                       // "hand": a real table's result entered in the form
    QString rules;                     // "tvbd" / "tercios"
    quint64 seed = 0;                  // the battle seed (linkedBattleSeed of the position)
    QString scenario;                  // scenarioHash of the exported battle it was fought on
    bool computer[2] = {false, false}; // tactical sides (0 the campaign attacker) played by the computer seat
    QList<TableMove> moves;            // "screen": every tactical action, in order
    QString policy;                    // "auto": the policy that played both sides (autoPolicy of the
                                       // ruleset when it was resolved); "" = "simple" (the records written
                                       // before the field; JSON "policy", absent for the simple policy)
    // "hand": the form as entered — the winner (0 the attacker, 1 the defender, 2 a draw), every unit of
    // the scenario with its fate and state (id, fate, resolve / wear, disordered; the names come from the
    // scenario), and the campaign leader ids lost per side
    int winner = -1;
    QList<TableUnit> units;
    QStringList leadersLost[2];
    // The revision of the tactical AI (wp::tactical::kTacticalAiRevision) that chose the "tactical" moves;
    // JSON "tacticalAi", written only when the record names that policy (absent there: revision 1).
    int tacticalAi = wp::tactical::kTacticalAiRevision;
    // battleDataHash(rules) of the copy that made the record (JSON "battleData"); "" in the records written
    // before the field (session 11), which are not checked for it.
    QString battleData;
    int handDice() const;        // dice rolled by hand in all
    bool usesTacticalAi() const; // the record or one of its moves names the "tactical" policy
};

// A short hash (16 hex digits of SHA-256) of a tactical scenario as exported (compact JSON).
QString scenarioHash(const QJsonObject& scenario);
// A short hash (16 hex digits of SHA-256) of the battle data a linked battle of `rules` ("tvbd", "tercios")
// is exported, fought and mapped with: the data directory's scenarios/battle-mapping.json,
// scenarios/battle-terrain.json and resources/tactical/<rules>.json (each file's compact JSON). A record
// names it, and a PBEM start file for the rulesets its battles use: both copies of a game need the same.
QString battleDataHash(const QString& rules);
// The same for the data directory `dir` (read now; battleDataHash reads the program's data directory once).
QString battleDataHashIn(const QString& dir, const QString& rules);

// The record as JSON ({"format": "westphalia-table-record", "version": 1, "by", "rules", "seed",
// "scenario", "computer", "moves": [{"action", "dice", "policy"}]}) and back; fromJson names the problem.
QJsonObject recordToJson(const TableRecord& r);
bool recordFromJson(const QJsonObject& o, TableRecord* out, QString* error);
// The attachment: base64url (no padding) of the compact JSON compressed with zlib (qCompress: a 4-byte
// big-endian length, then the zlib stream), and back.
QString encodeRecord(const TableRecord& r);
bool decodeRecord(const QString& attachment, TableRecord* out, QString* error);

// What a replayed record gives.
struct RecordCheck {
    TableRecord record;
    TableResult table;        // the tactical battle's end read back (with the leaders' 12.41 rolls)
    LinkedResult expected;    // its campaign result (defaultMapping of the ruleset)
    QString end;              // how the tactical battle ended ("Catholic win - ..."), the auto-resolve's too
    QStringList log;          // the tactical battle's log; "hand": the form, one line per unit
    QList<TableUnit> units;   // "hand": the scenario's units with the fates and states entered
    QJsonObject scenarioJson; // the exported scenario it was fought on
    QList<TableMove> played;  // the tactical actions played: the record's, or the auto-resolve's (all the
                              // policy's), as a tactical battle record lists them
};

// The record of a real table's result entered in the form for the battle on top of `s` (by "hand": the
// ruleset, linkedBattleSeed, the exported scenario's hash, the form). False with *error.
bool handRecord(const GameData& d, const wp::rules::GameState& s, int winner, const QList<TableUnit>& units,
                const QStringList leadersLost[2], TableRecord* out, QString* error);

// The record of the auto-resolved battle on top of `s` (by "auto": the ruleset, linkedBattleSeed, the
// exported scenario's hash) as an attachment for its "battle-result" (autoResolveTop gives the result).
bool autoRecord(const GameData& d, const wp::rules::GameState& s, QString* attachment, QString* error);

// Replays the record against the combat on top of `s` (waiting for its table result or for the
// confirmation of one: no die is rolled in between, the battle is the same): the ruleset of the battle, its
// seed (linkedBattleSeed), the same exported scenario (scenarioHash; a difference means other tactical data
// files or another export), then "auto": the auto-resolve; "screen": every move legal in the tactical
// engine with its hand dice all used, every move of a computer side the policy's own choice, and the battle
// over at the end; "hand": no tactical battle — every unit of the scenario entered once with a fate and a
// state the ruleset allows, mapped (the form's units, winner and leaders; no roll). False with *error
// saying what fails.
bool replayRecord(const GameData& d, const wp::rules::GameState& s, const TableRecord& record,
                  RecordCheck* out, QString* error);

// The check where a "battle-result" with an attachment is played (a turn file imported, a save verified):
// `s` the state before it, `texts` that action (with its attachment) and the ones after it in notation. The
// record must replay (replayRecord) and its campaign result must be exactly the actions that follow
// (LinkedResult::actions). `receiver`: in an e-mail game the campaign side receiving the file — his side of
// the battle must have been the computer seat's and no die rolled by hand (the sender's choices only) —
// else rules::kNone. False with *error; *out (optional) gets the replay.
bool checkAttachedResult(const GameData& d, const wp::rules::GameState& s, const QStringList& texts,
                         int receiver, RecordCheck* out, QString* error);

// The attachment of the table result entered last in `actions` (notation, in order): "" when that result
// has none (entered by hand) or no table result was entered.
QString enteredAttachment(const QStringList& actions);

// At the confirmation (the CombatFrame waiting for "battle confirm"): does the result entered equal the one
// its record gives? *why says what differs or why the record does not replay.
bool matchesRecord(const GameData& d, const wp::rules::GameState& s, const QString& attachment,
                   RecordCheck* out, QString* why);

// Reads a hand-entered result (the form of docs/linked-battles.md): "winner attacker|defender|draw",
// "attacker units N destroyed N routed N", "defender ...", "lost tilly" lines. Errors name the line.
bool parseTableForm(const QString& text, const QString& fileName, TableResult* out, QString* error);

// ---- history: the campaign's battles (docs/linked-battles.md "Battle report") ---------------------------
struct BattleRecord {
    int action = -1; // the index of the action that started the battle (0-based)
    int turn = 0;
    QString city;
    QString attacker;             // "Catholic" / "Protestant"
    QString resolution;           // "CRT", "table: Tilly's Very Bad Day", "table: Tercios"
    int lossNumber[2] = {-1, -1}; // [0] the attacker's, [1] the defender's (12.31 lines)
    QString winner;               // from 12.28
    QStringList leadersLost;      // "12.41 Tilly is lost" ...
    QString tableResult;          // the confirmed table-result actions, in notation
    // a battle fought on the table (the links of the history, docs/linked-battles.md "History"):
    int tableBattle = 0;    // its number among the game's table battles (1, 2, ...; 0 for the CRT)
    QString rules;          // "tvbd" / "tercios"
    quint64 battleSeed = 0; // linkedBattleSeed at its table result: the scenario and the auto-resolve
    int autoResolved = -1;  // the result entered is the auto-resolved battle: 1 yes, 0 no, -1 unknown
    // the record that went with the result confirmed ("The battle's record"):
    QString evidence;    // "auto", "screen", "hand" (the form), or "" (no record)
    QString attachment;  // the record as attached, to open the battle again (decodeRecord)
    int recordOk = -1;   // the record replays to the result entered: 1 yes, 0 no (recordError), -1 no record
    QString recordError; // why it does not
    QStringList form;    // "hand": the form's units, one line each (RecordCheck::log)
    int resultAction = -1; // the index of the "battle-result" action entered last (0-based)
    std::shared_ptr<const wp::rules::GameState> tableState; // the state at that table result (before it)
};

// Builds the battle report from a game's actions one by one, as they are replayed (a game's own replay,
// or the PBEM session's history, where the dice come from the exchange and not from the engine).
class BattleReporter {
  public:
    explicit BattleReporter(const wp::rules::Engine& engine) : m_engine(engine) {}
    // Action `index` (0-based): the state before it (read for a "battle-result" only), its text (with an
    // attachment), the engine's log lines and the state after it.
    void add(int index, const wp::rules::GameState& before, const QString& text, const wp::rules::Log& log,
             const wp::rules::GameState& after);
    const QList<BattleRecord>& battles() const { return m_out; }

  private:
    const wp::rules::Engine& m_engine;
    QList<BattleRecord> m_out;
    qsizetype m_open = -1; // the battle being fought (index into m_out)
    QStringList m_pendingTable;
    int m_tableBattles = 0;
};

// Replays `actions` (notation) from `start` and lists every regular battle with how it was resolved and its
// outcome, read from the engine's log. False with *error naming the action when one does not apply.
bool battleReport(const wp::rules::Engine& engine, wp::rules::GameState start, const QStringList& actions,
                  QList<BattleRecord>* out, QString* error);

// ---- balance (docs/linked-battles.md "Balance") -----------------------------------------------------------
// The mapping's arithmetic alone: the winner and Loss Numbers from a table result, each side's loss
// capacity and whether 12.28's tie rule favours the attacker (a Dynamic attacker against a non-Dynamic one).
void mapNumbers(const TableResult& table, const int capacity[2], bool tieToAttacker,
                const LinkMapping& mapping, bool* attackerWins, int lossNumber[2]);

struct CalibrationSample {
    int attackerCf = 0, defenderCf = 0;
    bool crtAttackerWins = false;
    int crtLoss[2] = {0, 0}; // [0] the attacker takes
    TableResult table;       // the auto-resolved TVBD battle of the same forces
    int capacity[2] = {0, 0};
    bool tieToAttacker = false;
    int leaders = 0;        // campaign leaders in the battle (both sides)
    int crtLeadersLost = 0; // killed by the CRT's 12.41 rolls (12.43 not counted)
};

// N battles between random campaign forces (1-8 units a side, random nationalities, kinds, reduced units
// and leaders, at Leipzig), each resolved by the engine's CRT (12.24-12.28, no combat cards) and by the
// auto-resolved TVBD export with the mapping. Deterministic from `seed`. False with *error on data errors.
bool calibrate(const wp::rules::Engine& engine, const QString& rules, int games, quint64 seed,
               const LinkMapping& mapping, QList<CalibrationSample>* out, QString* error);

} // namespace wp::battle
