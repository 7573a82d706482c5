#include "rules/game.h"

namespace wp::rules {

Game::Game(std::shared_ptr<const GameData> data) : m_engine(std::move(data)) {}

bool Game::start(const QString& scenario, const GameOptions& options, uint64_t seed, QString* error) {
    GameState s;
    Log log;
    if (!m_engine.newGame(s, scenario, options, seed, error, &log))
        return false;
    m_state = std::move(s);
    m_log = std::move(log);
    m_actions.clear();
    m_undo.clear();
    m_scenario = scenario;
    m_options = options;
    m_seed = seed;
    return true;
}

void Game::startFrom(const GameState& s, const QString& scenario, const GameOptions& options, uint64_t seed) {
    m_state = s;
    m_log.clear();
    m_actions.clear();
    m_undo.clear();
    m_scenario = scenario;
    m_options = options;
    m_seed = seed;
}

ApplyResult Game::play(const Action& a, const QString& attachment) {
    if (!attachment.isEmpty()) {
        ApplyResult bad;
        if (!attachmentAllowed(a, attachment, &bad.error))
            return bad;
    }
    const int actorBefore = actor();
    Snapshot snap{m_state, static_cast<qsizetype>(m_log.size()), m_actions.size()};
    const QString text = formatAction(data(), m_state, a);
    ApplyResult r = m_engine.apply(m_state, a, &m_log);
    if (!r.ok)
        return r;
    m_actions << (attachment.isEmpty() ? text : text + QStringLiteral(" @") + attachment);
    // Clear the undo stack on dice, revealed information, or a change of the acting player.
    if (r.randomness || actor() != actorBefore)
        m_undo.clear();
    else
        m_undo.push_back(std::move(snap));
    return r;
}

ApplyResult Game::play(const QString& notation) {
    QString error;
    auto a = parseAction(data(), m_state, notation, &error);
    if (!a) {
        ApplyResult r;
        r.error = error;
        return r;
    }
    QString attachment;
    splitAttachment(notation, &attachment);
    return play(*a, attachment);
}

bool Game::undo() {
    if (m_undo.empty())
        return false;
    Snapshot snap = std::move(m_undo.back());
    m_undo.pop_back();
    m_state = std::move(snap.state);
    m_log.resize(static_cast<size_t>(snap.logSize));
    while (m_actions.size() > snap.actionCount)
        m_actions.removeLast();
    return true;
}

} // namespace wp::rules
