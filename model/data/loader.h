// Loading and validating the game data (maps/, cards/, scenarios/).
#pragma once

#include "gamedata.h"
#include "jsonreader.h"

#include <QJsonObject>
#include <memory>

namespace wp {

struct LoadResult {
    std::shared_ptr<const GameData> data; // null when any error was found
    DataErrors errors;
    bool ok() const { return data != nullptr && errors.isEmpty(); }
};

// Loads every data file under dataDir and checks every reference and every constraint the rulebook
// gives. All problems are collected (file, JSON path, message); the data is returned only if none.
LoadResult loadGameData(const QString& dataDir);

// True if `source` is a valid provenance: "rules X", "derived: …", "outside: …", "reconstructed[…]".
bool isValidProvenance(const QString& source);

// Summary counts used by `westphalia-cli data check`.
QString dataSummary(const GameData& d);

// The loaded data as one JSON object (`westphalia-cli data dump --json`).
QJsonObject dumpGameData(const GameData& d);

} // namespace wp
