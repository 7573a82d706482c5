// The step-through of "what happened since my last turn" (issue 7): a bar above the map with back/forward
// buttons. It holds the positions (states) and the action that led to each; the window shows the map and
// the records of the current position, read-only, until "Return to the present".
#pragma once

#include "rules/state.h"

#include <QStringList>
#include <QWidget>
#include <vector>

class QLabel;
class QToolButton;
class QPushButton;

namespace wp {

class ReplayBar : public QWidget {
    Q_OBJECT
  public:
    explicit ReplayBar(QWidget* parent = nullptr);
    // states[k] is the position after texts[k-1] (states[0] before the first); sides[k-1] who played it.
    // firstAction numbers the actions for people (action firstAction+1 leads to states[1]).
    void setSteps(std::vector<rules::GameState> states, QStringList texts, QList<int> sides, int firstAction,
                  const QString& title);
    void clear();
    bool hasSteps() const { return !m_states.empty(); }
    int count() const { return static_cast<int>(m_states.size()); } // positions held
    int position() const { return m_pos; }
    bool inPast() const { return hasSteps() && m_pos < count() - 1; } // the last position is the present
    const rules::GameState& state() const { return m_states[static_cast<size_t>(m_pos)]; }
    void seek(int pos);

    QToolButton* firstButton() const { return m_first; }
    QToolButton* backButton() const { return m_back; }
    QToolButton* forwardButton() const { return m_forward; }
    QPushButton* presentButton() const { return m_present; }
    QLabel* label() const { return m_label; }

  signals:
    void positionChanged(); // the window redraws from state() (or the live game at the present)
    void closed();

  private:
    std::vector<rules::GameState> m_states;
    QStringList m_texts;
    QList<int> m_sides;
    int m_firstAction = 0;
    int m_pos = 0;
    QString m_title;
    QLabel* m_label;
    QToolButton* m_first;
    QToolButton* m_back;
    QToolButton* m_forward;
    QToolButton* m_last;
    QPushButton* m_present;
    QToolButton* m_close;
    void update();
};

} // namespace wp
