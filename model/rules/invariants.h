// Invariants of a game state, and the random-game checker built on them (the fuzzer of design principle
// 7, `westphalia-cli fuzz` and `bench`, tests/test_play.cpp).
#pragma once

#include "rules/engine.h"

#include <QStringList>
#include <cstdint>
#include <functional>

namespace wp::rules {

// Every broken invariant of `s`, one sentence each citing the rule it protects; empty if all hold.
// Checked: stacking (10.21/10.24, except where the engine is resolving it: a moving stack's city, a
// pending 10.22 choice), the counter mix (one entry per counter, steps 1-2 on the map and 0 off it),
// piece locations and flags, card places (every card in exactly one place agreeing with cardPlace,
// hands <= 7), VP in -20..80, Area control against the city markers (3.13), Elector awards (5.141),
// Siege markers (13.1), opposing armies never both outside in a city between battles, and that a game
// not over has an actor and at least one legal action.
QStringList checkInvariants(const Engine& engine, const GameState& s);
QStringList checkInvariants(const GameData& data, const GameState& s);

// The fields in which two states differ ("units[12]", "hand[1]", "frames"...); empty if a == b.
QStringList stateDifferences(const GameData& data, const GameState& a, const GameState& b);

// ---------------------------------------------------------------- random games

// How the random player chooses. Uniform: every legal action alike. Aggressive: weighted towards
// fighting (attacks, sieges, overruns, combat cards, events, moves into enemy cities, picking up units),
// so that the combat and siege rules are exercised far more often than uniform play does.
enum class RandomPolicy { Uniform, Aggressive };

struct RandomGameSpec {
    QString scenario = QStringLiteral("campaign");
    RandomPolicy policy = RandomPolicy::Uniform;
    GameOptions options;
    uint64_t seed = 1;       // the engine's seed; the random player's choices derive from it as well
    int maxActions = 100000; // stop (unfinished) after this many actions
    bool checkInvariants = true;
    bool checkNotation = true; // every legal action formats to a distinct text that parses back to it
    bool verifyReplay = true;  // replay the action texts from the start and compare the final state
    bool keepActions = false;  // fill RandomGameResult::actionTexts
    std::function<void(const GameState&)> onState; // called with every state reached (bench)
};

struct RandomGameResult {
    bool ok = true;        // no failure
    bool finished = false; // the game reached its end
    int actions = 0;       // actions applied
    int8_t winner = kNone;
    QString result;          // the engine's result text ("Draw (VP 21)")
    QString failure;         // what went wrong
    int failureIndex = -1;   // 0-based index of the action at or after which it went wrong; -1: set-up
    QStringList actionTexts; // the actions in notation, with keepActions or on failure
    // Per card: its event took effect in this game (played as an Event or as a combat card, or 8.64).
    std::vector<bool> events;
};

// Plays one game choosing among the legal actions by the policy. Deterministic in the spec.
RandomGameResult playRandomGame(const Engine& engine, const RandomGameSpec& spec);

// The index of the random player's choice among `legal` (not empty).
size_t chooseRandomAction(const GameData& data, const GameState& s, const std::vector<Action>& legal,
                          RandomPolicy policy, Rng& rng);

// Heap bytes held by a state beyond sizeof(GameState) (vectors, strings, frames): an estimate of the
// cost of one snapshot (undo, AI search).
size_t stateHeapBytes(const GameState& s);

} // namespace wp::rules
