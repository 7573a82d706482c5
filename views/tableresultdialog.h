// Linked battles (issue 12, docs/linked-battles.md, docs/gui.md): the tabletop result of a campaign battle
// that went to the table. At the attacker's "battle-result" decision (thousands of legal actions) this
// dialog offers (a) the battle auto-resolved on screen (battle::autoResolveTop), (b) the result of a real
// table entered in a form (a battle::TableResult mapped by battle::mapResult), (c) the battle export and
// (d) the battle fought move by move in the tactical window, its end state read back (tableResultFromTvbd /
// tableResultFromTercios) and mapped like the auto-resolved one.
// The campaign result is shown before it is submitted; submitting plays LinkedResult::actions one by one
// through the GameController, each checked against the legal actions of its moment.
#pragma once

#include "battle/linked.h"
#include "rules/action.h"

#include <QDialog>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace wp {

class GameController;
class TacticalSession;
class TacticalWindow;

// The decision on top is the attacker's entry of a table result ("battle-result ...").
bool isTableResultDecision(const std::vector<rules::Action>& legal);
// Any linked-battle decision (ask, result, leaders, confirm): Choose actions with a kBattle* target.
bool isTableChoice(const rules::Action& a);
// The defender's confirmation of the result entered: a few lines of rich text (winner, Loss Numbers,
// leaders lost) and its check: with the battle's record (`attachment`, battle::enteredAttachment of the
// game's actions) whether the record replays to it (matchesRecord); without one (a real table's result),
// whether it is the auto-resolved battle of this position (matchesAutoResolve).
QString enteredTableResultHtml(const GameData& d, const rules::GameState& s, const QString& attachment,
                               bool* matches = nullptr);

// The scenario file of the battle on top of `s` in the data folder: linked-battles/CITY-turnN-RULES-SEED.json
// ("" when no battle is on the table).
QString linkedBattleFile(const GameData& d, const rules::GameState& s);
// Exports the battle on top of `s` (battle::exportLinked, its battle seed) to that file, atomically; its path
// and seed. False with *error.
bool writeLinkedScenario(const GameData& d, const rules::GameState& s, QString* path, quint64* seed,
                         QString* error);

class TableResultDialog : public QDialog {
    Q_OBJECT
  public:
    enum Field { Destroyed = 0, Routed = 1, Remaining = 2 };
    explicit TableResultDialog(GameController* gc, QWidget* parent = nullptr);
    // Re-reads the battle on top. Returns whether the table result is the decision now.
    bool refresh();

    // (a) the battle auto-resolved on screen; the result is shown and may be submitted.
    bool autoResolve();
    // (b) the form mapped to the campaign result (shown; may be submitted). False with the error shown.
    bool mapForm();
    // Plays the result shown (LinkedResult::actions) through the controller. False with *error (also
    // shown) when one of the actions is not legal at its moment.
    bool submitResult(QString* error = nullptr);
    // (d) the battle fought on screen: exports it (the battle seed of the position) to a scenario file in
    // the application's data folder and opens it in a tactical window; a side whose campaign seat is not a
    // human here (a computer player, the absent player of an e-mail game) is a computer seat there. When
    // that battle ends, its end state is mapped and shown here (takeBattleEnd), ready to submit. False with
    // *error (also shown) when the battle cannot be exported or opened.
    bool fightOnScreen(QString* error = nullptr);
    // Reads the end of the battle fought on screen into the result shown, with the battle's record attached
    // (battle::TableRecord "screen": the tactical actions, the seed, the computer seats), which every other
    // copy replays and checks. False (and shown) when that battle is not over, or the campaign is no longer
    // at that battle's table result.
    bool takeBattleEnd();
    // The tactical window was closed before the battle ended: nothing was submitted. The unfinished battle
    // is kept (its record, in the data folder's linked-battles/, beside its scenario) and the dialog offers
    // to resume it or discard it. False when there was nothing to keep.
    bool keepUnfinished();
    // Resumes the unfinished battle of this table result in the tactical window (its actions replayed).
    bool resumeUnfinished(QString* error = nullptr);
    // Forgets the unfinished battle of this table result (its record file is removed).
    void discardUnfinished();
    // The record file of this battle's unfinished fight ("" when there is none).
    QString unfinishedFile() const;
    // The attachment that goes with the result shown (the battle's record; "" for a real table's result).
    QString pendingAttachment() const { return m_pendingAttachment; }
    TacticalWindow* tacticalWindow() const { return m_tactical; }
    const std::optional<battle::LinkedResult>& pending() const { return m_pending; }

    QTabWidget* tabs() const { return m_tabs; }
    QPushButton* autoButton() const { return m_auto; }
    QPushButton* mapButton() const { return m_map; }
    QPushButton* submitButton() const { return m_submit; }
    QPushButton* exportButton() const { return m_export; }
    QPushButton* fightButton() const { return m_fight; }
    QPushButton* resumeButton() const { return m_resume; }
    QPushButton* discardButton() const { return m_discard; }
    QComboBox* winnerBox() const { return m_winner; }
    QSpinBox* spin(int tableSide, Field f) const { return m_spins[tableSide][f]; }
    QListWidget* leadersList() const { return m_leaders; }
    QLabel* resultLabel() const { return m_preview; }

  signals:
    void exportBattle();

  private:
    GameController* gc;
    QLabel* m_title;
    QLabel* m_subtitle;
    QTabWidget* m_tabs;
    QPushButton* m_auto;
    QPushButton* m_map;
    QPushButton* m_export;
    QPushButton* m_submit;
    QPushButton* m_fight;
    QPushButton* m_resume;
    QPushButton* m_discard;
    QLabel* m_unfinishedNote;
    TacticalWindow* m_tactical = nullptr; // deleted on close (destroyed() clears it)
    QString m_fightScenario;              // the scenario file of the battle fought on screen
    QString m_fightHash;                  // its battle::scenarioHash
    quint64 m_fightSeed = 0;              // its battle seed (linkedBattleSeed of the position)
    QString m_pendingAttachment;          // the record that goes with the result shown
    QComboBox* m_winner;
    QLabel* m_sideLabel[2];
    QSpinBox* m_spins[2][3];
    QListWidget* m_leaders;
    QLabel* m_preview;
    std::optional<battle::LinkedResult> m_pending;
    QString m_pendingFrom; // "auto-resolved" / "from the table"
    int m_city = -1;
    void showResult(const battle::LinkedResult& r, const QString& from, const QString& attachment = {},
                    const QString& evidence = {});
    // The battle's scenario file in the data folder (linked-battles/CITY-turnN-RULES-SEED.json).
    QString battleFile() const;
    // Opens `session` (the battle on top) in the tactical window with the computer seats of this game.
    bool openInWindow(std::unique_ptr<TacticalSession> session, QString* error);
    void updateUnfinished();
    void showError(const QString& error);
    // Shows `message` as the error and copies it to *error (when given); false.
    bool failWith(const QString& message, QString* error);
    void clearResult();
};

} // namespace wp
