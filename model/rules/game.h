// A game in progress: the engine, the current state, the ordered actions (the truth, design principle 3),
// the log, and undo. UI, CLI and AI drive a game through this class.
#pragma once

#include "rules/engine.h"

#include <QStringList>
#include <memory>
#include <vector>

namespace wp::rules {

class Game {
  public:
    explicit Game(std::shared_ptr<const GameData> data);

    bool start(const QString& scenario, const GameOptions& options, uint64_t seed, QString* error);
    // Starts from an already built position (a position file, a test set-up).
    void startFrom(const GameState& s, const QString& scenario, const GameOptions& options, uint64_t seed);

    const Engine& engine() const { return m_engine; }
    const GameData& data() const { return m_engine.data(); }
    const GameState& state() const { return m_state; }
    const Log& log() const { return m_log; }
    const QStringList& actions() const { return m_actions; } // in notation, in order
    QString scenario() const { return m_scenario; }
    GameOptions options() const { return m_options; }
    uint64_t seed() const { return m_seed; }

    std::vector<Action> legalActions() const { return m_engine.legalActions(m_state); }
    int actor() const { return m_engine.actor(m_state); }
    QString prompt() const { return m_engine.prompt(m_state); }

    // Applies a legal action; records it in notation, followed by its attachment (" @...", docs/actions.md
    // "Attachments": evidence the engine does not read; only "battle-result" takes one) when one is given.
    ApplyResult play(const Action& a, const QString& attachment = {});
    // Parses and applies one action in notation (an attachment is kept in the recorded text).
    ApplyResult play(const QString& notation);

    // Undo (design principle 3): a player may take back his own actions since the last die roll or
    // revealed hidden information, and only while he is still the one acting.
    bool canUndo() const { return !m_undo.empty(); }
    bool undo();

  private:
    struct Snapshot {
        GameState state;
        qsizetype logSize;
        qsizetype actionCount;
    };
    Engine m_engine;
    GameState m_state;
    Log m_log;
    QStringList m_actions;
    std::vector<Snapshot> m_undo;
    QString m_scenario;
    GameOptions m_options;
    uint64_t m_seed = 0;
};

} // namespace wp::rules
