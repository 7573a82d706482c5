// Computer players (issue 8). A bot is given a SideView (model/ai/view.h), never the real state, and
// returns one of the legal actions of that view with the reason it chose it. docs/ai.md describes the
// bots, their priority lists and the measured strength.
#pragma once

#include "ai/view.h"

#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace wp::ai {

struct Decision {
    rules::Action action;
    QString reason;     // "priority: attack at Leipzig (12 CF against 7)"
    int iterations = 0; // search iterations / rollouts used
    int depth = 0;      // the search: the most of its own card rounds on one path of its tree
};

// Optional controls of one decision: a cancel flag (checked between iterations; a cancelled bot still
// returns a legal action, its best so far) and a progress callback (0..1), both safe to use from a worker
// thread.
struct Controls {
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(double)> progress;
    bool cancelled() const { return cancel && cancel->load(std::memory_order_relaxed); }
};

class Bot {
  public:
    virtual ~Bot() = default;
    virtual QString name() const = 0; // "random", "priority", "search:2"
    // `view.actor()` must be `view.side()` and the game not over.
    virtual Decision decide(const SideView& view, const Controls& controls = {}) = 0;
    // Threads one decision may use (the search bot: one tree per thread, root statistics summed). 1 by
    // default; the tournament keeps 1 and plays games in parallel instead.
    virtual void setThreads(int threads) { (void)threads; }
};

// "random", "priority", "search" (the default level) or "search:L" (L = 1..5). Returns nullptr and sets
// *error for an unknown name. `seed` seeds the bot's own generator (its choices, its determinisations).
std::unique_ptr<Bot> makeBot(const QString& spec, uint64_t seed, QString* error);
QStringList botNames(); // for usage messages

// ---------------------------------------------------------------- building blocks (used by the bots and
// tests)

// The position's value for `side`, in Victory Points (the Catholic's VP track, plus material, key
// cities and Areas, Wallenstein's track, sieges; a finished game is worth +-500).
double evaluate(const GameData& d, const rules::GameState& s, int side);

// The evaluation's sudden-death terms (5.21), the Catholic's point of view: -4 VP per key city (Vienna,
// Munich, Brussels) the Protestant controls and -60 more for all three; Wallenstein's track from 12 on
// (quadratic: 20 ends the game).
double keyCitiesTerm(const GameData& d, const rules::GameState& s);
double wallensteinTerm(const rules::GameState& s);

// The victory outlook for `side` (the search's aim besides the evaluation), -1..1: an estimate of
// P(side wins) - P(the opponent wins) at the end of the game from the scenario's final conditions (5.22,
// or 19.1 when chosen: the VP bounds and the Areas each side needs), the VP track and the turns left.
// A finished game is +-1 (a draw 0).
double victoryOutlook(const GameData& d, const rules::GameState& s, int side);

// The learned value (docs/ai.md, "The learned value"): the features of a position, the Catholic's
// point of view, in the order of valueFeatureNames(): VP, CF on the map (theirs against ours), leaders in
// play (1 + stars), Electors held, Austria/Bavaria/the Spanish Netherlands (+1 Catholic, -1 Protestant),
// the Areas' control, Wallenstein's track, Aid Points, sieges (level x (VP + 1)), the Dutch War track,
// the 5.15 urgency, France/Sweden/Denmark at war, the Elector threat and the card rounds used this turn.
const std::vector<QString>& valueFeatureNames();
std::vector<double> valueFeatures(const GameData& d, const rules::GameState& s);

// The learned campaign value, fitted on games of the plan bot against the priority bot
// (scripts/fit_value.py, model/ai/campaign_value.inc): the Catholic's expected VP at the end of the game
// and his victory outlook (P(Catholic wins) - P(Protestant wins), -1..1, from that VP's spread and how
// often each of his three Areas is still his at the end). Only for the campaign with its 5.22 conditions
// (not with the 19.1 table) and a game not over; else nothing.
struct LearnedValue {
    double finalVp = 0;
    double outlook = 0;
    double electorThreat = 0; // electorThreat() for the Catholic: one of the features, handed back
};
std::optional<LearnedValue> learnedValue(const GameData& d, const rules::GameState& s);

// The campaign's long-term VP that a few card rounds of play-out do not reach, for `side` (the search
// bot's value, docs/ai.md "the campaign plan"): the 5.15 penalty pending while Spinola's army is not in
// the UP (weighted by how near the Intervention is), the Dutch War track's VP boxes still to come
// (16.13; for the Catholic, each C3/C4 in his own hand counts as a box moved once Spinola's army is in the
// UP, 16.25) and half a VP per Elector held more than the opponent (5.141: the margin for the majority).
double campaignTerms(const GameData& d, const rules::GameState& s, int side);

// The priority list without look-ahead: a fast, deterministic-but-for-ties choice among `legal` for
// the actor of `s` (used in play-outs and for every decision except the card rounds). Returns the index
// into `legal`; fills *reason when given.
size_t fastChoice(const rules::Engine& engine, const rules::GameState& s,
                  const std::vector<rules::Action>& legal, rules::Rng& rng, QString* reason = nullptr);

// fastChoice with the search bot's plan level: during an activation of `side` the stack marches towards
// `objective` (a city index) instead of the priority list's own objective (11.1).
// `planSide`: the side whose decisions also follow the campaign plan (the search bot's side; kNone: the
// plain priority list): the Dutch War events, Spinola's army to the UP before the Intervention (5.15).
// `objective` may then also be the UP box (kBoxBase + box).
size_t fastChoiceTowards(const rules::Engine& engine, const rules::GameState& s,
                         const std::vector<rules::Action>& legal, rules::Rng& rng, int objective, int side,
                         QString* reason = nullptr, int planSide = rules::kNone);

// The objectives worth searching for an activation of `leader`'s stack: the `count` best of the priority
// list's objective scores (11.1) and, when there is one within 5 spaces, the nearest Elector or key city
// of `side` with more enemy strength within two spaces than in it (5.141). For the Catholic (the campaign
// plan, 5.141) also, within 6 spaces and when the list would go for it, the nearest Elector city he does
// not hold (Mainz, Köln, Trier) and the best city of an Elector Area he does not control. Empty when the
// stack is off the map or has no units.
std::vector<int> activationObjectives(const GameData& d, const rules::GameState& s, int leader, int side,
                                      int count);

// The threat to the Electors and key cities (5.141, 5.21) in VP for `side`: per city held by a side, its
// VP + 1 scaled by how far the enemy strength within two spaces exceeds the strength in it (up to 4 CF);
// the enemy's threatened cities minus ours.
double electorThreat(const GameData& d, const rules::GameState& s, int side);

// The priority list's words for one action in `s` ("activate Tilly (14 CF) towards Magdeburg"), with the
// campaign plan for `planSide`.
QString describe(const rules::Engine& engine, const rules::GameState& s, const rules::Action& a,
                 int planSide = rules::kNone);

// The campaign plan's objective for an activation of `leader` of `side`: the UP box (kBoxBase + box) when
// his stack can be Spinola's army there and the Intervention draws near (5.15), else -1.
int upObjective(const GameData& d, const rules::GameState& s, int leader, int side);

// Plays from `s` with fastChoice for both sides until `cardRounds` more top-level decisions (card rounds
// and other turn decisions) have been reached, the game ends, or `maxActions` actions. Returns the number
// of actions applied.
int playout(const rules::Engine& engine, rules::GameState& s, rules::Rng& rng, int cardRounds, int maxActions,
            int planSide = rules::kNone);

} // namespace wp::ai
