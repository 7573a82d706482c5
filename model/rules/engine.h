// The rules engine: sets up a game from a scenario, lists the legal actions at every decision, and
// applies one of them. A game is (data, scenario, options, seed) plus its ordered actions; its state is
// the replay of those actions (design principles 2-3).
#pragma once

#include "data/gamedata.h"
#include "rules/action.h"
#include "rules/state.h"

#include <QString>
#include <memory>
#include <vector>

namespace wp::rules {

struct LogLine {
    QString text; // "12.54 Catholic army retreats Leipzig -> Lützen"
    int8_t side = kNone;
};
using Log = std::vector<LogLine>;

struct ApplyResult {
    bool ok = false;
    QString error;           // why an action was refused
    bool randomness = false; // a die was rolled or hidden information revealed (ends undo, 3)
};

class Engine {
  public:
    explicit Engine(std::shared_ptr<const GameData> data);
    const GameData& data() const { return *m_data; }
    std::shared_ptr<const GameData> dataPtr() const { return m_data; }

    // A new game at the start of the scenario's first turn. Returns false (and *error) for an unknown
    // scenario. `forcedDice` are used before the RNG (tests, the CLI's --dice).
    bool newGame(GameState& s, const QString& scenario, const GameOptions& options, uint64_t seed,
                 QString* error, Log* log = nullptr) const;

    // Who must decide now (kNone when the game is over).
    int actor(const GameState& s) const;
    // A sentence for the current decision ("Protestant, round 2 of 6: play a card or take a Free Action").
    QString prompt(const GameState& s) const;
    // Every legal action now. Never empty while the game is not over.
    std::vector<Action> legalActions(const GameState& s) const;
    // Applies `a` if it is legal; then runs every automatic step up to the next decision.
    ApplyResult apply(GameState& s, const Action& a, Log* log = nullptr) const;
    // Applies legal[index] where `legal` is exactly legalActions(s), without listing them again: for callers
    // that just listed them (the AI, the fuzzer, benchmarks). Untrusted input (files, the CLI) goes through
    // apply(), which checks.
    ApplyResult applyListed(GameState& s, const std::vector<Action>& legal, size_t index,
                            Log* log = nullptr) const;

  private:
    std::shared_ptr<const GameData> m_data;
};

// Options from "key=value" strings (the CLI's --option, saves). Unknown keys are an error.
bool setOption(GameOptions& o, const QString& keyValue, QString* error);
QStringList optionList(const GameOptions& o);

} // namespace wp::rules
