// The records of the game, drawn like the board's tracks: turn and years, VP with the victory
// thresholds, card rounds used, Foreign Aid, the Wallenstein track (0-20), the Dutch War track (-3..+5),
// the Elector Control Track, the Pope, the Val Telline Passes, the Palatinate/Bavaria Elector marker, the
// powers at war and the decks in play.
#pragma once

#include "data/gamedata.h"
#include "rules/state.h"

#include <QWidget>

namespace wp {

class RecordsPanel : public QWidget {
    Q_OBJECT
  public:
    explicit RecordsPanel(const GameData& d, QWidget* parent = nullptr);
    void setState(const rules::GameState* s, int actor);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // What is shown, for tests.
    struct Shown {
        int vp = 0, turn = 0, wallenstein = 0, dutchWar = 0;
        int rounds[2] = {0, 0}, aid[2] = {0, 0}, electors[2] = {0, 0};
        QString pope, electorate;
        bool valTellineOpen = true;
    };
    const Shown& shown() const { return m_shown; }

  protected:
    void paintEvent(QPaintEvent* e) override;

  private:
    const GameData& d;
    rules::GameState m_state;
    bool m_has = false;
    int m_actor = -1;
    Shown m_shown;
    QList<QPair<int, QString>> m_thresholds; // VP value, label
};

} // namespace wp
