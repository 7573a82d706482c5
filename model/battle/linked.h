// Linked battles (issue 12, docs/linked-battles.md): a campaign battle fought on the table comes back into
// the campaign as the engine's table-result decision ("battle-result attacker 3 1", "battle-leader tilly",
// "battle-leader done"). This file maps a tabletop result — entered in a form, or the end state of an
// auto-resolved TVBD battle — to that decision, and measures the mapping against the Combat Results Table.
// QtCore only; the GUI calls these functions as the CLI does.
#pragma once

#include "rules/action.h"

#include <QList>
#include <QString>
#include <QStringList>

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
    double base = 0.15;         // a fraction of the loss capacity every side takes in any battle
    double routedWeight = 0.75; // a routed unit counts this much of a destroyed one
    double scale = 1.0;         // times the side's loss capacity (every step of its units, 12.31)
    double pursuit = 0.025;     // a further fraction of the loser's capacity: the pursuit after the battle
    double loserMinimum = 1.0;  // the beaten side takes at least this Loss Number (a CRT loser always does)
};

// The campaign result the engine's decision takes.
struct LinkedResult {
    bool attackerWins = false;
    int lossNumber[2] = {0, 0}; // [0] the attacker takes, [1] the defender takes
    QList<int> leadersLost;     // GameData leader indices
    QString why;                // how the numbers were obtained
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
// destroyed; Tercios has no rout status and the export gives no Commander casualties: none are lost).
TableResult tableResultFromTercios(const wp::tactical::TerciosState& end);

// The calibrated mapping of a ruleset ("tvbd", "tercios"; docs/linked-battles.md "Balance").
LinkMapping defaultMapping(const QString& rules);

// The seed of the auto-resolved battle for the combat on top of `s`: a function of the game state only,
// so the other player (PBEM) reproduces the same battle and checks the result entered (docs).
quint64 linkedBattleSeed(const wp::rules::GameState& s);

// Exports the combat on top of `s` (battle export) to the ruleset ("tvbd" or "tercios"), auto-resolves it
// with the engine's simple policy and maps the end state. False with *error when the data files do not load
// or the ruleset is unknown. `tactical` (optional, TVBD only) gets the TVBD end state.
bool autoResolveLinked(const GameData& d, const wp::rules::GameState& s, const QString& rules, quint64 seed,
                       const LinkMapping& mapping, LinkedResult* out, TableResult* table, QString* error,
                       wp::tactical::BattleState* tactical = nullptr);

// The one call for a GUI or a bot at the table-result decision: the battle on top of `s` auto-resolved in
// its ruleset (CombatFrame::table) with linkedBattleSeed(s) and defaultMapping. The actions to play are
// out->actions(d).
bool autoResolveTop(const GameData& d, const wp::rules::GameState& s, LinkedResult* out, QString* error);

// The defender's check before "battle confirm" (PBEM): does the result entered (the CombatFrame waiting for
// the confirmation) equal the auto-resolved battle of this state? The battle is the same for both players:
// no die is rolled between the stop and the confirmation, so linkedBattleSeed(s) is unchanged. *why says
// what differs.
bool matchesAutoResolve(const GameData& d, const wp::rules::GameState& s, QString* why);

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
};

// N battles between random campaign forces (1-8 units a side, random nationalities, kinds, reduced units
// and leaders, at Leipzig), each resolved by the engine's CRT (12.24-12.28, no combat cards) and by the
// auto-resolved TVBD export with the mapping. Deterministic from `seed`. False with *error on data errors.
bool calibrate(const wp::rules::Engine& engine, const QString& rules, int games, quint64 seed,
               const LinkMapping& mapping, QList<CalibrationSample>* out, QString* error);

} // namespace wp::battle
