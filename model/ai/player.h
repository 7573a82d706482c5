// AiPlayer: what a front end (the GUI's "Computer" seat, the tournament) holds for one computer side. It
// takes the side's view, never the state, returns a legal action, and keeps a log of its recent decisions
// with their reasons. decide() may run on a worker thread (the view is a value; the bot's state is its
// own); cancel it through Controls::cancel. One decide() at a time per AiPlayer.
#pragma once

#include "ai/bot.h"

#include <QStringList>
#include <functional>
#include <mutex>

namespace wp::ai {

class AiPlayer {
  public:
    AiPlayer(int side, std::unique_ptr<Bot> bot);
    int side() const { return m_side; }
    QString botName() const { return m_bot->name(); }

    // The view this player is entitled to (build it on the thread that owns the game, pass it on).
    SideView viewOf(const rules::Engine& engine, const rules::GameState& real) const {
        return SideView(engine, real, m_side);
    }
    // Chooses an action for the view (the view's actor must be this side). Always one of
    // view.legalActions(); a cancelled decision returns the best found so far.
    Decision decide(const SideView& view, const Controls& controls = {});

    // The last decisions, oldest first: "turn 3 round 2: play C5 act tilly — priority: ..."
    QStringList recentReasons(int max = 50) const;

    // How the decisions' actions are written in recentReasons (the GUI's words; the notation, formatAction,
    // when unset). Called on the deciding thread with the view's data and state: it must only read them.
    using Describer = std::function<QString(const GameData&, const rules::GameState&, const rules::Action&)>;
    void setDescriber(Describer describe) { m_describe = std::move(describe); }

  private:
    int m_side;
    Describer m_describe;
    std::unique_ptr<Bot> m_bot;
    mutable std::mutex m_mutex;
    QStringList m_log;
};

} // namespace wp::ai
