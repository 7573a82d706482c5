// Position files: a JSON description of a game position at the start of a card round, for rules tests,
// the CLI (`westphalia-cli play --scenario FILE`) and constructed situations (the Breitenfeld battle).
// The format is documented in docs/actions.md ("Position files").
//
// A position starts from Engine::newGame() of its base scenario, so it has every invariant a new game
// has; each section the file gives then replaces that part of the set-up. The result is checked with
// checkInvariants(): a file cannot build a state the engine could not be in.
#pragma once

#include "rules/engine.h"

#include <QJsonObject>
#include <QString>
#include <optional>

namespace wp::rules {

struct PositionOptions {
    std::optional<uint64_t> seed; // overrides the file's "seed" (default 1)
    QStringList options;          // "key=value" added to the file's "options"
};

// Reads `file` and builds the position into `out`. On failure returns false and sets *error to every
// problem found, one per line, each naming the file, the JSON path and the problem
// ("pos.json: $.units[2].city: unknown city 'torgua'").
bool loadPosition(const Engine& engine, const QString& file, GameState& out, QString* error,
                  const PositionOptions& extra = {}, Log* log = nullptr);

// The same from a parsed object; `name` stands for the file in messages.
bool positionFromJson(const Engine& engine, const QJsonObject& root, const QString& name, GameState& out,
                      QString* error, const PositionOptions& extra = {}, Log* log = nullptr);

// The state as JSON: every section of a position file (so a state at the start of a card round loads
// back as the same position), plus read-only fields for people and tools: "frame" (the decision frame
// on top of the stack), "actor", "prompt", "handSizes", "pileSizes", "gameOver", "result".
QJsonObject stateToJson(const Engine& engine, const GameState& s);

} // namespace wp::rules
