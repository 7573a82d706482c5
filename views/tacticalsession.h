// The tactical view's adapter over the two miniatures engines (TVBD: BattleState/TvbdEngine; Tercios:
// TerciosState/TerciosEngine). It keeps the battle as (scenario, seed) plus the ordered action list, with
// the engines' undo policy (back to the last die roll or change of the side to act), and gives the view
// one vocabulary: units and terrain to draw, the prompt, the legal actions with what to highlight and the
// odds the engine can compute, dice rolled by hand (assist mode) and auto-resolve. It never changes the
// state except through the engine's apply.
#pragma once

#include "battle/record.h"
#include "tactical/geometry.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace wp::tactical {
struct BattleState;
struct TerciosState;
} // namespace wp::tactical

namespace wp {

struct TacUnitView {
    QString id, name;
    QString type; // short type label ("Pike+Shot", "Horse", "Tercio")
    int side = 0;
    bool commander = false;
    bool onTable = true;
    bool routed = false;  // TVBD: routed (drawn as routed if still shown); Tercios: destroyed
    bool deployed = true; // TVBD 10.6: false until placed in the set-up (not drawn on the table)
    QString status;       // "on table", "routed", "eliminated", "destroyed", …
    tactical::Pose pose;
    int strength = 1, strengthMax = 1; // TVBD resolve / resolve at start; Tercios Stamina - Wear / Stamina
    QString strengthText;              // "R 2/3", "W 1/3"
    QStringList markers;               // "shot", "moved", "disordered", "Ready!", "weary", …
    QString tooltip;
};

struct TacTerrainView {
    QString id, type;
    int cls = 0; // 0 open, 1 difficult, 2 very difficult, 3 impassable
    bool blocksLOS = false, elevated = false, linear = false, building = false, water = false;
    QList<tactical::Polygon> pieces;
    QString description;
};

// A drag of a unit on the table (TacticalSession::dragMove): the move's notation, the pose it ends in,
// and the engine's reason when it refuses the move now ("" when the move is legal).
struct DragMove {
    QString text;
    tactical::Pose pose;
    QString refused;
};

struct TacActionView {
    enum Kind { Move, Shoot, Charge, Other };
    Kind kind = Other;
    QString text;  // the engine's notation ("move B3 fwd 4", "fire A1 B2")
    QString label; // what the list shows
    int unit = -1, target = -1;
    std::optional<tactical::Pose> end; // where the unit ends (moves, charges)
    // TVBD set-up (10.4 terrain, 16.6.8 roads, 16.6 cards): the ground the action would change, drawn as a
    // ghost before it is chosen, with the alternatives of the same `group` ("place woods medium").
    QList<tactical::Polygon> area;
    QString group;
    QString odds; // read-out before the action ("" when the engine offers none)
};

class TacticalSession {
  public:
    virtual ~TacticalSession() = default;
    // Opens a scenario file of either ruleset (by its "format"). nullptr and *error (naming the file and
    // the problem) when it does not load.
    static std::unique_ptr<TacticalSession> open(const QString& path, quint64 seed, QString* error);
    // A battle record (format "westphalia-tactical-battle": the scenario file, the seed and the actions with
    // the dice rolled by hand, the policy's marked "policy") replayed; errors name the file, the action and
    // the problem.
    static std::unique_ptr<TacticalSession> openRecord(const QString& path, QString* error);
    // Writes the record atomically (QSaveFile). The scenario is named relative to the record's folder. Each
    // action is written as it was applied (the text it was parsed from), so the record replays exactly.
    bool saveRecord(const QString& path, QString* error) const;
    // Plays `moves` (a record's, a battle left unfinished) from the current position: a player's move parsed
    // with its hand dice, a policy's move chosen again (its text must be the same) — except, with
    // `aiMovesAsGiven` (a record of another revision of the tactical AI), the tactical AI's moves, which are
    // played as given moves. False with *error naming the move and the problem.
    bool replayMoves(const QList<battle::TableMove>& moves, QString* error, bool aiMovesAsGiven = false);
    // What opening the record had to say (its computer moves kept as played), or "".
    QString openNote() const { return m_openNote; }
    void setOpenNote(const QString& note) { m_openNote = note; }
    QString scenarioPath() const { return m_scenarioPath; }
    quint64 seed() const { return m_seed; }

    virtual QString ruleset() const = 0; // "tvbd" / "tercios"
    virtual QString rulesetLabel() const = 0;
    virtual QString title() const = 0;
    virtual QString measure() const = 0; // "TUM" / "in"
    virtual double tableW() const = 0;
    virtual double tableD() const = 0;
    virtual QString sideName(int side) const = 0;
    virtual QString turnText() const = 0;
    virtual int actor() const = 0; // -1 when over
    // Whose eyes units() draws for (Tercios secret orders, L319): kFollowActor (the default) the side to
    // act — its own cards and the other side's revealed ones; a side number always that side (a human
    // against a computer seat); kReferee every card.
    static constexpr int kFollowActor = -2, kReferee = -1;
    void setViewer(int viewer) { m_viewer = viewer; }
    int viewer() const { return m_viewer; }
    int viewingSide() const { return m_viewer == kFollowActor ? actor() : m_viewer; } // -1: every card
    // An action's text as the other side may read it (a Tercios order card stays face down).
    virtual QString publicText(const QString& actionText) const { return actionText; }
    // Whether the battle (and so a record saved now) holds cards a side has not seen yet.
    virtual bool holdsSecrets() const { return false; }
    virtual QString prompt() const = 0;
    virtual bool over() const = 0;
    virtual QString resultText() const = 0;
    virtual QList<TacUnitView> units() const = 0;
    virtual QList<TacTerrainView> terrain() const = 0;
    virtual QStringList log() const = 0;
    virtual QList<TacActionView> legalActions() const = 0;
    virtual quint64 rolls() const = 0;
    virtual bool canUndo() const = 0;
    virtual bool undo() = 0;
    virtual QStringList actionTexts() const = 0;

    // Applies an action in the engine's notation: a listed one or any other the engine accepts (a move
    // measured on the table). `dice` are the dice rolled by hand, used before the RNG; the engine must use
    // all of them (extra dice are refused before anything changes).
    virtual bool applyText(const QString& text, const QList<int>& dice, QString* error) = 0;
    bool applyText(const QString& text, QString* error) { return applyText(text, {}, error); }
    // How many dice the action rolls when the given dice come first (a dry run on a copy of the state;
    // the RNG supplies the rest). *logLines gets the lines it would write, with the dice values blanked.
    // -1 and *error when the engine refuses the action.
    virtual int diceNeeded(const QString& text, const QList<int>& dice, QStringList* logLines,
                           QString* error) const = 0;
    // The engine's reason for refusing the action now (a dry run), "" when it allows it.
    QString refusal(const QString& text) const {
        QString why;
        return diceNeeded(text, {}, nullptr, &why) < 0 ? (why.isEmpty() ? QStringLiteral("refused") : why)
                                                       : QString();
    }
    // The policy of the computer seats and of "auto-resolve the rest" (battle::autoPolicy): TVBD's
    // tactical AI, Tercios' simple policy.
    QString computerPolicy() const { return battle::autoPolicy(ruleset()); }
    // Whether the ruleset has the policy of that name ("simple"; TVBD also "tactical").
    virtual bool hasPolicy(const QString& name) const = 0;
    // Plays the rest of the battle with both sides under the policy `policy` ("" computerPolicy(); an
    // auto-resolved linked battle's record names its own). Each of its choices uses
    // battle::policyMoveSeed(seed(), index of the action), so a replay chooses the same (a linked battle's
    // record is checked that way, docs/linked-battles.md). 0 when the ruleset has no such policy.
    virtual int autoResolveRest(const QString& policy = {}) = 0;
    // Plays one action of the side to act chosen by the policy `policy` ("" computerPolicy(); a record's
    // replay names the policy that chose it) with the same seed rule; its notation in *text. False when the
    // battle is over or the ruleset has no such policy.
    virtual bool applyPolicyAction(QString* text, const QString& policy = {}) = 0;
    // Every action applied, as the record keeps it: the text it was parsed from (or the policy's notation),
    // the dice rolled by hand, the policy that chose it.
    virtual QList<battle::TableMove> moves() const = 0;
    // The engine's state (linked battles read the end state back into the campaign): the one of the
    // session's ruleset, nullptr for the other.
    virtual const tactical::BattleState* tvbdState() const { return nullptr; }
    virtual const tactical::TerciosState* terciosState() const { return nullptr; }
    // The notation of a move of `unit` to a point of the table (a Tercios move of the Front Centre, a TVBD
    // Commander's free move, the deployment of a TVBD unit not yet on the table, 10.6), or "" when the
    // ruleset moves that unit otherwise.
    virtual QString moveToText(int unit, tactical::Vec2 to) const = 0;
    // The move of a unit dragged on the table by `delta`, as the drag shows it and the drop submits it. TVBD:
    // a formed unit the move whose end lies nearest to where the base was dragged (straight ahead or back, an
    // oblique, a wheel or a sidestep; a legal one before a nearer one the engine refuses, and one refused for
    // its length shortened to the longest allowed); an unlimbered Cannon a pivot to face the drag; a
    // Commander to where he is dropped, or attached to the friendly unit he is dropped on. Tercios: the unit
    // (its Front Centre) to where it is dropped. Its text is "" when the drag stands for no move.
    virtual DragMove dragMove(int unit, tactical::Vec2 delta) const = 0;
    // TVBD: the notation of a measured move ("fwd", "wheel", "oblique", "back", …) of the unit.
    virtual QString measuredMoveText(int unit, const QString& kind, double angle, double dist) const = 0;
    // The dice rolled by hand so far, per applied action (assist mode keeps them with the log).
    virtual QList<QList<int>> handDice() const = 0;

  private:
    // The scenario file's session, with its path and seed.
    static std::unique_ptr<TacticalSession> openScenario(const QString& path, quint64 seed, QString* error);
    // The session of a scenario read from `path` (either ruleset, by its "format").
    static std::unique_ptr<TacticalSession> sessionOf(const QJsonObject& root, const QString& path,
                                                      quint64 seed, QString* error);
    QString m_scenarioPath;
    quint64 m_seed = 0;
    int m_viewer = kFollowActor;
    QString m_openNote;
};

} // namespace wp
