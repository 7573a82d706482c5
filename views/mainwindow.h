// The main window: the map in the middle; the decision in progress on the left; the records and the
// acting player's hand on the right; the log below. Battles and sieges open their dialogs; a stack
// clicked opens the inspector; between hotseat players a cover hides the hands.
#pragma once

#include "data/gamedata.h"
#include "gamecontroller.h"

#include <QMainWindow>
#include <memory>

class QAction;
class QLabel;
class QDialog;
class QDockWidget;
class QListWidget;
class QMenu;
class QProgressBar;
class QToolButton;
class QTimer;

namespace wp {

class MapView;
class PromptPanel;
class RecordsPanel;
class HandPanel;
class LogPanel;
class CombatDialog;
class SiegeDialog;
class TableResultDialog;
class BattleReportDialog;
class StackInspector;
class CoverWidget;
class CardBrowser;
class ReplayBar;
class PbemPanel;
class BattleExportDialog;

class MainWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit MainWindow(std::shared_ptr<const GameData> data, QWidget* parent = nullptr);
    ~MainWindow() override;

    MapView* mapView() const { return m_map; }
    GameController* controller() const { return m_gc; }
    PromptPanel* prompt() const { return m_prompt; }
    RecordsPanel* records() const { return m_records; }
    HandPanel* hand() const { return m_hand; }
    LogPanel* logPanel() const { return m_log; }
    CombatDialog* combatDialog() const { return m_combat; }
    SiegeDialog* siegeDialog() const { return m_siege; }
    TableResultDialog* tableResultDialog() const { return m_tableResult; } // linked battles
    // Battle ▸ Battle Report…: the game's battles, the table battles opened again (docs/linked-battles.md)
    BattleReportDialog* showBattleReport();
    void showTableResult();
    StackInspector* inspector() const { return m_inspector; }
    CoverWidget* cover() const { return m_cover; }
    CardBrowser* cardBrowser();
    ReplayBar* replayBar() const { return m_replay; }
    PbemPanel* pbemPanel() const { return m_pbemPanel; }
    QDockWidget* pbemDock() const { return m_pbemDock; }
    QListWidget* computerReasons() const { return m_reasons; }
    QDockWidget* computerDock() const { return m_computerDock; }
    QProgressBar* computerProgress() const { return m_aiBar; }
    QToolButton* hurryButton() const { return m_hurry; }
    BattleExportDialog* battleExport(); // the dialog for the combat about to be resolved
    // The battles fought so far (a game that can be replayed): each at its last position before the dice,
    // with the combat cards played. Built by replaying the actions.
    struct PastBattle {
        QString label; // "1. turn 2, Catholic attack at Leipzig"
        rules::GameState state;
        int logFrom = -1, logTo = -1; // its lines in the log ([from, to); -1: not known, a PBEM game)
    };
    std::vector<PastBattle> pastBattles() const;
    BattleExportDialog* exportPastBattle(const PastBattle& b);
    // The log's context menu for a line (its index in the engine's log): "Export battle…" for the battle
    // it belongs to (a PBEM game: every battle so far). The caller owns and shows it.
    QMenu* logMenu(int line);

    // Starts a new game of the scenario (both sides human here, seed 1): the CLI's --scenario, tests.
    void showScenario(const QString& id);
    bool startGame(const NewGameSetup& setup);
    // Plays on from a constructed position (Game::startFrom): a position file, a test's set-up.
    void startPosition(const rules::GameState& s, const QString& scenario,
                       const rules::GameOptions& options = {}, quint64 seed = 1);
    bool openFile(const QString& file);
    // A file given on the command line or dropped on the window: a save (.tyw) is opened, a PBEM file
    // (.pbem) is imported into its game's session (a start file of a game not yet here is joined).
    bool openAny(const QString& file);

    // ---- play by e-mail (the session directories live under pbemRoot(); tests give their own)
    static QString pbemRoot();
    bool newPbemGame(const QString& scenario, int side, save::DiceMode dice, const QString& dir,
                     const QString& startFileOut, const QStringList& options = {});
    bool joinPbemGame(const QString& startFile, const QString& dir, const QString& joinFileOut);
    bool openPbemGame(const QString& dir);
    TurnImport importTurnFile(const QString& file); // verified; the outcome is shown in the e-mail panel
    bool exportTurnTo(const QString& file, bool reveal = false);
    const TurnImport& lastImport() const { return m_lastImport; }
    // The step-through: the opponent's actions of the last file imported, or, in a loaded save, the
    // actions since the last turn of the player now to decide. False when there is nothing to show.
    bool stepThroughLastImport();
    bool stepThroughSinceLastTurn();
    bool inPast() const; // the map shows a past position of the step-through: nothing can be played

    // ---- autosave (after every action) and resuming after a crash
    static QString autosavePath(); // QStandardPaths::AppDataLocation/autosave.tyw
    void setAutosave(bool on);     // on: marks the session running (cleared by a clean close)
    static bool crashedBefore();   // the last session did not close cleanly and left an autosave
    bool resumeAutosave();
    // Restores the dock layout saved in QSettings (not done by the constructor, so tests and screenshots
    // get the default layout).
    void restoreLayout();

  public slots:
    void newGame();
    void openGame();
    bool saveGame();
    bool saveGameAs();
    void undo();
    void toggleFullScreen();
    void showCardBrowser();
    void showGuide(); // Help ▸ Playing Westphalia (F1): resources/help/guide.html
    void newPbem();
    void joinPbem();
    void openPbem();
    void importTurn();
    void exportTurn();
    void exportFinalTurn();
    void verifyPbem();
    void showBattleExport();
    void choosePastBattle();

  protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;
    void dragEnterEvent(QDragEnterEvent* e) override;
    void dropEvent(QDropEvent* e) override;

  private:
    std::shared_ptr<const GameData> m_data;
    GameController* m_gc;
    MapView* m_map = nullptr;
    PromptPanel* m_prompt = nullptr;
    RecordsPanel* m_records = nullptr;
    HandPanel* m_hand = nullptr;
    LogPanel* m_log = nullptr;
    CombatDialog* m_combat = nullptr;
    SiegeDialog* m_siege = nullptr;
    TableResultDialog* m_tableResult = nullptr;
    BattleReportDialog* m_battleReport = nullptr;
    bool m_atTableResult = false; // the table-result decision was on top at the last change
    StackInspector* m_inspector = nullptr;
    CoverWidget* m_cover = nullptr;
    CardBrowser* m_browser = nullptr;
    QDialog* m_guide = nullptr; // showGuide()
    QDockWidget* m_promptDock = nullptr;
    QDockWidget* m_recordsDock = nullptr;
    QDockWidget* m_handDock = nullptr;
    QDockWidget* m_logDock = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QAction* m_exportTurn = nullptr;
    QAction* m_exportFinal = nullptr;
    QAction* m_verifyPbem = nullptr;
    QAction* m_exportBattle = nullptr;
    QAction* m_exportPast = nullptr;
    QAction* m_stepAction = nullptr;
    ReplayBar* m_replay = nullptr;
    PbemPanel* m_pbemPanel = nullptr;
    QDockWidget* m_pbemDock = nullptr;
    QListWidget* m_reasons = nullptr;
    QDockWidget* m_computerDock = nullptr;
    QProgressBar* m_aiBar = nullptr;
    QToolButton* m_hurry = nullptr;
    QTimer* m_aiTimer = nullptr;
    BattleExportDialog* m_battleExport = nullptr;
    TurnImport m_lastImport;
    bool m_autosave = false;
    QString m_autosaveError;
    QLabel* m_statusTurn = nullptr;
    int m_lastActor = -1;
    int m_revealed = -1;    // the side whose hand may be shown now
    int m_endHandSide = -1; // the game over: the hand shown (a click on the other side's cards switches)
    int m_handShown = 0;    // the side whose hand the hand panel shows
    bool m_firstFit = true;
    bool m_battleResultPending = false; // a battle ended while the cover was up: show its result after

    void buildMenus();
    void onChanged();
    void updateMap();
    void updateHand();
    void submit(const rules::Action& a);
    void onLocClicked(int loc);
    void onStackClicked(int index);
    bool handsHidden() const;
    void onComputerThinking(bool thinking);
    void autosaveNow();
    void showImportOutcome(const TurnImport& r);
    void showPbemDock();
    QString findPbemSession(const QString& gameId) const;
    QString pbemOutDir() const;
};

} // namespace wp
