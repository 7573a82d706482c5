// Play by e-mail in the window (issue 7): the New PBEM Game dialog, and the "By e-mail" panel that says
// where the exchange stands (whose file is next, what was verified in the last file received, any
// refusal with its reason) with the Export Turn and Import Turn buttons, and the Orders… dialog for the
// standing orders (views/ordersdialog.h).
#pragma once

#include "gamecontroller.h"

#include <QDialog>
#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;

namespace wp {

class NewPbemDialog : public QDialog {
    Q_OBJECT
  public:
    explicit NewPbemDialog(const GameData& d, QWidget* parent = nullptr);
    QString scenario() const;
    int side() const;
    save::DiceMode dice() const;
    QComboBox* scenarioBox() const { return m_scenario; }
    QComboBox* sideBox() const { return m_side; }
    QComboBox* diceBox() const { return m_dice; }

  private:
    QComboBox* m_scenario;
    QComboBox* m_side;
    QComboBox* m_dice;
};

class PbemPanel : public QWidget {
    Q_OBJECT
  public:
    explicit PbemPanel(GameController* gc, QWidget* parent = nullptr);
    void refresh();                       // the session's status and the buttons
    void showImport(const TurnImport& r); // the outcome of the last file received
    void showMessage(const QString& html);
    QLabel* statusLabel() const { return m_status; }
    QLabel* outcomeLabel() const { return m_outcome; }
    QListWidget* happened() const { return m_happened; }
    QPushButton* exportButton() const { return m_export; }
    QPushButton* importButton() const { return m_import; }
    QPushButton* stepButton() const { return m_step; }
    QPushButton* ordersButton() const { return m_orders; }
    // The Orders… dialog (docs/pbem.md "Standing orders"): sets this side's orders, kept in the session.
    void editOrders();

  signals:
    void exportRequested();
    void importRequested();
    void stepRequested(); // step through the opponent's actions of the last file

  private:
    GameController* gc;
    QLabel* m_status;
    QLabel* m_outcome;
    QListWidget* m_happened;
    QPushButton* m_export;
    QPushButton* m_import;
    QPushButton* m_step;
    QPushButton* m_orders;
};

} // namespace wp
