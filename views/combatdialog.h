// The battle: both forces with their strengths, Fire Columns, DRMs and combat cards, the exact
// distribution of each side's Loss Number and of the winner before the dice; then the dice, the results,
// the loss allocation (only legal ones are offered) and the retreat. Non-modal; every decision is a
// legal action submitted through the controller.
#pragma once

#include "combatodds.h"
#include "rules/action.h"
#include "rules/state.h"

#include <QDialog>

class QLabel;
class QVBoxLayout;
class QAbstractButton;
class QPushButton;
class QRadioButton;
class QFrame;

namespace wp {

class GameController;

class OddsChart : public QWidget {
    Q_OBJECT
  public:
    explicit OddsChart(QWidget* parent = nullptr);
    void setOdds(const CombatOdds& o, bool show);
    QSize sizeHint() const override { return QSize(560, 230); }

  protected:
    void paintEvent(QPaintEvent* e) override;

  private:
    CombatOdds m_odds;
    bool m_show = false;
};

class CombatDialog : public QDialog {
    Q_OBJECT
  public:
    explicit CombatDialog(GameController* gc, QWidget* parent = nullptr);
    // Re-reads the game. Returns whether a battle is being fought (a combat decision is on top).
    bool refresh();
    bool inBattle() const { return m_inBattle; }
    const CombatOdds& odds() const { return m_odds; }
    int city() const { return m_frame.city; }
    QAbstractButton* buttonFor(const rules::Action& a) const;
    QList<QRadioButton*> lossChoices() const { return m_lossRadios; }
    QPushButton* takeLossesButton() const { return m_takeLosses; }
    QPushButton* exportButton() const { return m_export; }
    QLabel* resultLabel() const { return m_result; }
    QPushButton* tableResultButton() const { return m_tableResult; }
    // Linked battles: the defender's confirmation shows the entered result and whether it is the
    // auto-resolved battle (battle::matchesAutoResolve); empty at other decisions.
    QLabel* tableCheckLabel() const { return m_tableCheck; }

  signals:
    void submitAction(const rules::Action& a);
    void exportBattle();    // "Export battle…": the window opens the export for the combat on top
    void openTableResult(); // linked battles: the tabletop result dialog (tableresultdialog.h)

  private:
    GameController* gc;
    bool m_inBattle = false;
    bool m_seen = false;
    rules::CombatFrame m_frame;
    CombatOdds m_odds;
    bool m_oddsFromBeforeDice = false;
    qsizetype m_logFrom = 0, m_logTo = -1;
    QLabel* m_title;
    QLabel* m_subtitle;
    QLabel* m_side[2];
    OddsChart* m_chart;
    QLabel* m_result;
    QWidget* m_decision;
    QVBoxLayout* m_decisionLayout;
    QPushButton* m_close;
    QPushButton* m_export = nullptr;
    QPushButton* m_takeLosses = nullptr;
    QPushButton* m_tableResult = nullptr;
    QLabel* m_tableCheck = nullptr;
    QList<QRadioButton*> m_lossRadios;
    QList<QPair<QAbstractButton*, rules::Action>> m_buttons;
    QString sideHtml(int side) const;
    void rebuildDecision();
};

} // namespace wp
