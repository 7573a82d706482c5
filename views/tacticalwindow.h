// The tactical battle window: the table (TacticalView), the side to act and the engine's prompt, the
// selected unit's legal actions with the odds read-out, dice and results of the last action, undo,
// auto-resolve the rest, and assist mode (a tabletop game refereed by the app: moves entered as measured,
// dice rolled by hand). Works for TVBD and Tercios scenarios through TacticalSession.
#pragma once

#include "tacticalsession.h"

#include <QDialog>
#include <QMainWindow>

#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace wp {

class TacticalView;

// Asks for dice rolled by hand: one box per die, the log lines the action would write (dice blanked).
class TacticalDiceDialog : public QDialog {
    Q_OBJECT
  public:
    TacticalDiceDialog(int count, const QString& action, const QStringList& context,
                       QWidget* parent = nullptr);
    QList<int> dice() const;
    QList<QSpinBox*> boxes() const { return m_boxes; }

  private:
    QList<QSpinBox*> m_boxes;
};

class TacticalWindow : public QMainWindow {
    Q_OBJECT
  public:
    explicit TacticalWindow(QWidget* parent = nullptr);
    ~TacticalWindow() override;
    // Opens a scenario of either ruleset; false and *error (file, place, problem) when it does not load.
    bool openFile(const QString& path, quint64 seed, QString* error);
    void setSession(std::unique_ptr<TacticalSession> session);
    // Battle ▸ Open Tactical Battle… from the campaign window: asks for a scenario and opens it in a new
    // window of its own.
    static TacticalWindow* openFromMenu(QWidget* parent);
    // `westphalia --battle FILE [--seed N] [--screenshot PNG]`: only the tactical window. Returns the exit
    // code (1 with a message naming the file and the problem when it does not load).
    static int runStandalone(const QString& file, quint64 seed, const QString& screenshot);
    TacticalSession* session() const { return m_session.get(); }

    // The same operations the widgets trigger (the tests drive the widgets; these are their slots).
    void selectUnit(int unit);
    bool submit(const QString& text);
    void undo();
    void autoResolveRest();
    void setAssistDice(bool byHand);
    // One action of the side to act chosen by the computer's policy (TacticalSession::computerPolicy: TVBD's
    // tactical AI, Tercios' simple policy), as a computer seat plays it; recorded as that policy's move.
    // False when the battle is over or no battle is open.
    bool playPolicyMove();
    // Computer seats ("Computer plays: none / side A / side B / both" in the Orders panel; a linked battle
    // against a computer player's side): the computer plays that side's decisions by itself through the
    // engine's legal actions, one action every `delayMs` (a timer: the window stays responsive; 0 in the
    // tests).
    void setComputerSide(int side, bool computer);
    // A linked battle's seats are the campaign's: the choice is shown but cannot be changed.
    void setComputerSidesLocked(bool locked);
    QComboBox* computerBox() const { return m_computerBox; }
    bool isComputerSide(int side) const { return side >= 0 && side <= 1 && m_computer[side]; }
    void setComputerDelay(int delayMs) { m_computerDelay = delayMs; }

    TacticalView* view() const { return m_view; }
    QListWidget* actionList() const { return m_actionList; }
    QListWidget* logList() const { return m_log; }
    QLabel* promptLabel() const { return m_prompt; }
    QLabel* resultLabel() const { return m_result; }
    QLabel* oddsLabel() const { return m_odds; }
    QLineEdit* diceEntry() const { return m_diceEntry; }
    QLineEdit* actionEntry() const { return m_entry; }
    QCheckBox* handDiceBox() const { return m_handDice; }
    QPushButton* applyButton() const { return m_applyBtn; }
    QPushButton* undoButton() const { return m_undoBtn; }
    QPushButton* autoButton() const { return m_autoBtn; }
    QString lastError() const { return m_lastError; }
    // Hotseat (Tercios secret orders): the table is covered whenever the side to act changes, until that
    // side's player continues.
    void setHotseat(bool on);
    QWidget* cover() const { return m_cover; }
    QPushButton* coverButton() const { return m_coverBtn; }
    int selected() const { return m_selected; }

  signals:
    void changed();
    // The battle open has ended (emitted once per session, when its end is first shown).
    void battleOver();
    // The window is being closed while its battle is not over (emitted before it goes; a linked battle's
    // dialog keeps the unfinished battle).
    void closingUnfinished();

  protected:
    void resizeEvent(QResizeEvent* e) override;
    void closeEvent(QCloseEvent* e) override;

  private:
    void buildUi();
    void updateCover();
    void updateViewer();
    void refresh();
    void fillActions();
    void showResult(qsizetype fromLine, const QString& what, bool lastLines = false);
    void clearRefusal();
    void openDialog();
    void saveDialog();
    void measuredMove();
    void tableClicked(tactical::Vec2 at);
    void scheduleComputer();
    void updateComputerBox();
    bool collectDice(const QString& text, QList<int>* dice);

    std::unique_ptr<TacticalSession> m_session;
    QList<TacActionView> m_legal;
    QList<TacActionView> m_highlights; // the selected unit's actions drawn on the table
    int m_selected = -1;
    QString m_lastError;
    QString m_refusal; // the refusal shown in the status bar, if any
    bool m_computer[2] = {false, false};
    int m_computerDelay = 250;
    bool m_computerPending = false;
    bool m_computerLocked = false;
    bool m_overShown = false;
    bool m_setupGhosts = false; // the table shows the places of a unit not deployed yet

    TacticalView* m_view = nullptr;
    QLabel* m_header = nullptr;
    QLabel* m_turn = nullptr;
    QLabel* m_prompt = nullptr;
    QLabel* m_unitInfo = nullptr;
    QComboBox* m_computerBox = nullptr;
    QListWidget* m_actionList = nullptr;
    QLabel* m_odds = nullptr;
    QLabel* m_result = nullptr;
    QPushButton* m_applyBtn = nullptr;
    QPushButton* m_undoBtn = nullptr;
    QPushButton* m_autoBtn = nullptr;
    QPushButton* m_allBtn = nullptr;
    QLineEdit* m_entry = nullptr;
    QGroupBox* m_measured = nullptr;
    QComboBox* m_moveKind = nullptr;
    QDoubleSpinBox* m_moveAngle = nullptr;
    QDoubleSpinBox* m_moveDist = nullptr;
    QCheckBox* m_handDice = nullptr;
    QLineEdit* m_diceEntry = nullptr;
    QListWidget* m_log = nullptr;
    QAction* m_hotseatAction = nullptr;
    QWidget* m_cover = nullptr;
    QLabel* m_coverText = nullptr;
    QPushButton* m_coverBtn = nullptr;
    int m_shownSide = -1; // the side whose player has the screen (hotseat)
};

} // namespace wp
