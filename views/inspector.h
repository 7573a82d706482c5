// The stack inspector: every leader with all ratings and stars, every unit with its steps, CF/LF/MA and
// whether it is paid, read from the engine's state.
#pragma once

#include "mapstate.h"
#include "rules/state.h"

#include <QDialog>

class QTextBrowser;

namespace wp {

class StackInspector : public QDialog {
    Q_OBJECT
  public:
    explicit StackInspector(const GameData& d, QWidget* parent = nullptr);
    // Shows the pieces of `stack` as they are in `s` (or, without a game, as the set-up lists them).
    void showStack(const MapStack& stack, const rules::GameState* s);
    QString html() const;

  private:
    const GameData& d;
    QTextBrowser* m_text;
};

} // namespace wp
