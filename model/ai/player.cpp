#include "ai/player.h"

namespace wp::ai {

using namespace wp::rules;

AiPlayer::AiPlayer(int side, std::unique_ptr<Bot> bot) : m_side(side), m_bot(std::move(bot)) {}

Decision AiPlayer::decide(const SideView& view, const Controls& controls) {
    Decision dec = m_bot->decide(view, controls);
    const GameState& s = view.state();
    const QString line = QStringLiteral("turn %1: %2 — %3")
                             .arg(s.turn)
                             .arg(m_describe ? m_describe(view.data(), s, dec.action)
                                             : formatAction(view.data(), s, dec.action),
                                  dec.reason);
    std::lock_guard<std::mutex> lock(m_mutex);
    m_log << line;
    if (m_log.size() > 500)
        m_log.remove(0, m_log.size() - 500);
    return dec;
}

QStringList AiPlayer::recentReasons(int max) const {
    std::lock_guard<std::mutex> lock(m_mutex);
    return m_log.mid(std::max<qsizetype>(0, m_log.size() - max));
}

} // namespace wp::ai
