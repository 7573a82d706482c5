// Siege combat (13.2) before and after the die: the Siege Level, the besiegers' strength, the DRM with
// its parts and the exact chance of success; the roll is the legal "assault" action.
#pragma once

#include "combatodds.h"
#include "rules/action.h"

#include <QDialog>

class QLabel;
class QPushButton;

namespace wp {

class GameController;

class SiegeDialog : public QDialog {
    Q_OBJECT
  public:
    explicit SiegeDialog(GameController* gc, QWidget* parent = nullptr);
    // Shows the siege of `city` by the acting side; `assault` is the action that rolls.
    void open(int city, const rules::Action& assault);
    const SiegeOdds& odds() const { return m_odds; }
    QPushButton* rollButton() const { return m_roll; }
    QLabel* resultLabel() const { return m_result; }

  signals:
    void submitAction(const rules::Action& a);

  private:
    GameController* gc;
    int m_city = -1, m_side = 0;
    rules::Action m_assault;
    SiegeOdds m_odds;
    qsizetype m_logFrom = 0;
    QLabel* m_title;
    QLabel* m_body;
    QLabel* m_chance;
    QLabel* m_result;
    QPushButton* m_roll;
    QPushButton* m_cancel;
    void roll();
};

} // namespace wp
