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
class QDockWidget;

namespace wp {

class MapView;
class PromptPanel;
class RecordsPanel;
class HandPanel;
class LogPanel;
class CombatDialog;
class SiegeDialog;
class StackInspector;
class CoverWidget;
class CardBrowser;

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
    StackInspector* inspector() const { return m_inspector; }
    CoverWidget* cover() const { return m_cover; }
    CardBrowser* cardBrowser();

    // Starts a new game of the scenario (both sides human here, seed 1): the CLI's --scenario, tests.
    void showScenario(const QString& id);
    bool startGame(const NewGameSetup& setup);
    // Plays on from a constructed position (Game::startFrom): a position file, a test's set-up.
    void startPosition(const rules::GameState& s, const QString& scenario,
                       const rules::GameOptions& options = {}, quint64 seed = 1);
    bool openFile(const QString& file);
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

  protected:
    void closeEvent(QCloseEvent* e) override;
    void showEvent(QShowEvent* e) override;

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
    StackInspector* m_inspector = nullptr;
    CoverWidget* m_cover = nullptr;
    CardBrowser* m_browser = nullptr;
    QDockWidget* m_promptDock = nullptr;
    QDockWidget* m_recordsDock = nullptr;
    QDockWidget* m_handDock = nullptr;
    QDockWidget* m_logDock = nullptr;
    QAction* m_undo = nullptr;
    QAction* m_save = nullptr;
    QAction* m_saveAs = nullptr;
    QLabel* m_statusTurn = nullptr;
    int m_lastActor = -1;
    int m_revealed = -1; // the side whose hand may be shown now
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
};

} // namespace wp
