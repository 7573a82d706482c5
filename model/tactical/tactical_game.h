// A tactical battle as (scenario state, seed) plus an ordered action list, with undo back to the last die
// roll or change of player (design principles 3), and the auto-resolve policies (both sides played by a
// simple legal-action policy).
#pragma once

#include "tvbd.h"

#include <array>
#include <optional>

namespace wp::tactical {

class TacticalGame {
  public:
    TacticalGame(const TvbdEngine& engine, const BattleState& scenario, quint64 seed);
    const BattleState& state() const { return m_state; }
    const QList<TAction>& actions() const { return m_actions; }
    QStringList actionTexts() const { return m_texts; }
    bool apply(const TAction& a, QString* error = nullptr);
    bool applyText(const QString& text, QString* error = nullptr);
    bool canUndo() const { return !m_undo.isEmpty(); }
    bool undo();
    const TvbdEngine& engine() const { return m_engine; }

  private:
    const TvbdEngine& m_engine;
    BattleState m_state;
    QList<TAction> m_actions;
    QStringList m_texts;
    QList<std::pair<BattleState, qsizetype>> m_undo; // state before, action count before
};

// Simple: each unit closes on the nearest enemy (tactical_game.cpp); Random: uniform among the legal actions;
// Tactical: lines, cannon, flanking horse, charges by their odds (tvbd_ai.cpp, docs/tvbd.md "AI"); Quick:
// the tactical AI's cheaper level (TacticalLevel::Quick, for the odds).
enum class Policy { Simple, Random, Tactical, Quick };
// "simple", "random", "tactical", "quick"; nullopt for another name.
std::optional<Policy> policyFromName(const QString& name);
QString policyName(Policy p);

// One decision by the policy for the side to act (always one of engine.legalActions(s)).
TAction choosePolicyAction(const TvbdEngine& engine, const BattleState& s, Policy policy,
                           wp::rules::Rng& rng);

struct AutoResult {
    int winner = -1; // 0/1, 2 draw, -1 unfinished (action cap reached)
    int turns = 0;
    int actions = 0;
    int lost[2] = {0, 0};
    int routed[2] = {0, 0};
    int eliminated[2] = {0, 0};
    int commandersLost[2] = {0, 0};
    QString reason;
};

AutoResult summarize(const BattleState& s);
// Plays the battle to its end with both sides under the policy. maxActions guards against a dead loop.
AutoResult autoResolve(TacticalGame& game, Policy policy, quint64 policySeed, int maxActions = 20000);
// The same with a policy per side (policies[side]).
AutoResult autoResolve(TacticalGame& game, std::array<Policy, 2> policies, quint64 policySeed,
                       int maxActions = 20000);
// The same from the scenario with `seed` (TacticalGame(engine, scenario, seed) then autoResolve(game, policy,
// seed)) on the bare state: no undo copies, no action texts (the odds and benchmarks). The same result.
AutoResult resolveTvbd(const TvbdEngine& engine, const BattleState& scenario, quint64 seed, Policy policy,
                       int maxActions = 20000);
AutoResult resolveTvbd(const TvbdEngine& engine, const BattleState& scenario, quint64 seed,
                       std::array<Policy, 2> policies, int maxActions = 20000);

} // namespace wp::tactical
