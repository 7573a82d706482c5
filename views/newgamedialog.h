// New Game: the scenario, the optional rules (19.x, rules::setOption keys), the seed, and each side's
// seat — a human here; the computer and a remote (play-by-e-mail) player once those exist.
#pragma once

#include "gamecontroller.h"

#include <QDialog>

class QListWidget;
class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace wp {

class NewGameDialog : public QDialog {
    Q_OBJECT
  public:
    explicit NewGameDialog(const GameData& d, QWidget* parent = nullptr);
    NewGameSetup setup() const;
    void setScenario(const QString& id);
    QListWidget* scenarios() const { return m_scenarios; }
    QComboBox* seat(int side) const { return m_seats[side]; }
    QComboBox* battles() const { return m_battles; } // linked battles (issue 12): battles=...

  private:
    const GameData& d;
    QListWidget* m_scenarios;
    QLabel* m_about;
    QCheckBox* m_opt191;
    QCheckBox* m_opt192a;
    QCheckBox* m_opt192b;
    QComboBox* m_battles = nullptr;
    QSpinBox* m_seed;
    QCheckBox* m_randomSeed;
    QComboBox* m_seats[2];
    QComboBox* m_computer = nullptr;                      // the computer seats' strength (a model/ai bot)
    static constexpr int kHalfAidRole = Qt::UserRole + 1; // the level's rules handicap (handicap=...)
    QCheckBox* m_cover;
    void showAbout();
};

} // namespace wp
