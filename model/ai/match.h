// One game between two bots, each given only its side's view (the tournament command, tests).
#pragma once

#include "ai/bot.h"

#include <QStringList>
#include <vector>

namespace wp::ai {

struct MatchResult {
    bool ok = true;        // every decision was a legal action
    QString error;         // what went wrong
    bool finished = false; // the game ended (not cut at maxActions)
    int8_t winner = rules::kNone;
    int vp = 0;
    int turn = 0;    // the turn the game ended in
    int actions = 0; // actions applied
    QString result;
    std::vector<double> decisionSeconds[2];  // per side: the wall time of each decision
    std::vector<double> cardRoundSeconds[2]; // the same, card rounds only (where the search bot searches)
    std::vector<double> cardRoundCpu[2];
    std::vector<double> decisionCpu[2]; // the CPU time of the deciding thread (a busy machine inflates
                                        // the wall time, not this)
    QStringList actionTexts;            // every action in notation (a replayable game)
    QStringList reasons[2];             // with keepReasons: each decision's reason
    // with keepFeatures, a finished game: per card round "turn last-turn side <valueFeatures()> | winner
    // final-VP final-turn <final control of Austria, Bavaria, the Spanish Netherlands>" (the learned
    // value's data, scripts/fit_value.py)
    QStringList featureRows;
};

// The header line of the feature rows (the columns' names).
QString featureHeader();

// Plays a game from `start` (a fresh scenario set-up) with bots[kCatholic] and bots[kProtestant].
MatchResult playMatch(const rules::Engine& engine, const rules::GameState& start, Bot* bots[2],
                      int maxActions = 20000, bool keepReasons = false, bool keepFeatures = false);

} // namespace wp::ai
