// The game's battles (issue 12, docs/linked-battles.md "History", docs/gui.md): Battle ▸ Battle Report… lists
// every regular battle of the game — turn, place, attacker, how it was resolved, both Loss Numbers, the
// winner, the leaders lost — and for a battle fought on the table the result entered and its record's check
// (battle::BattleReporter). A table battle opens again in the tactical window (its scenario regenerated
// from the game, the battle's record replayed: the battle fought on screen move by move, the auto-resolved
// battle played again), and its scenario and battle log can be saved. Works for a game replayed from its
// start and, by e-mail, from the session's history (the receiver's copy too).
#pragma once

#include "battle/linked.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTableWidget;

namespace wp {

class GameController;
class TacticalWindow;

class BattleReportDialog : public QDialog {
    Q_OBJECT
  public:
    enum Column { Number, Turn, Place, Attacker, Resolved, Losses, Winner, Leaders, Record, Columns };
    explicit BattleReportDialog(GameController* gc, QWidget* parent = nullptr);
    // Rebuilds the list from the game. False (the reason shown) when the game cannot list its battles.
    bool refresh();
    const QList<battle::BattleRecord>& battles() const { return m_battles; }
    QTableWidget* table() const { return m_table; }
    QPushButton* openButton() const { return m_open; }
    QLabel* summaryLabel() const { return m_summary; }

    // The table battle of row `row` in a new tactical window: its scenario regenerated from the game, then
    // its record replayed (fought on screen: its moves; auto-resolved: the auto-resolve); a real table's
    // battle is shown as exported, not fought. nullptr with *error when it is not a table battle confirmed.
    TacticalWindow* openBattle(int row, QString* error = nullptr);
    // Writes row `row`'s tactical scenario (JSON) or its battle log (text, the tactical engine's lines) to
    // `path`, atomically. False with *error.
    bool saveScenario(int row, const QString& path, QString* error);
    bool saveLog(int row, const QString& path, QString* error);
    // The check of row `row`'s result, in words ("✔ fought on screen, 412 tactical actions replayed").
    static QString recordText(const battle::BattleRecord& b);

  private:
    GameController* gc;
    QList<battle::BattleRecord> m_battles;
    QTableWidget* m_table;
    QLabel* m_summary;
    QPushButton* m_open;
    QPushButton* m_saveScenario;
    QPushButton* m_saveLog;
    void updateButtons();
    // The battle's log: its record replayed, or the auto-resolve of its position. False with *error.
    bool battleLog(const battle::BattleRecord& b, QStringList* log, QString* error) const;
};

} // namespace wp
