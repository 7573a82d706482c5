// Helpers shared by the game commands of westphalia-cli (play, fuzz, bench).
#pragma once

#include "cli_util.h"

#include "rules/engine.h"
#include "rules/position.h"

#include <QFileInfo>
#include <QStringList>
#include <optional>

namespace wp::cli {

// Every value of a repeatable option ("--option a --option b").
inline QStringList allValues(ArgParser& ap, const QString& name) {
    QStringList values;
    for (;;) {
        const QString v = ap.value(name);
        if (v.isEmpty())
            break;
        values << v;
    }
    return values;
}

inline QStringList scenarioIds(const GameData& d) {
    QStringList ids;
    for (const Scenario& sc : d.scenarios)
        ids << sc.id;
    return ids;
}

struct GameSetup {
    QString scenario;             // a scenario id or a position file
    QStringList options;          // "key=value"
    std::optional<uint64_t> seed; // default 1 (or the position file's)
};

// Starts a game from a scenario id or a position file. Returns 0, or the exit code with *error set
// (2: unknown scenario or option, 1: a position file that cannot be read or is wrong).
inline int startGame(const rules::Engine& engine, const GameSetup& setup, rules::GameState& s,
                     rules::Log* log, QString* error) {
    const GameData& d = engine.data();
    if (d.scenario(setup.scenario)) {
        rules::GameOptions options;
        for (const QString& o : setup.options)
            if (!rules::setOption(options, o, error))
                return 2;
        return engine.newGame(s, setup.scenario, options, setup.seed.value_or(1), error, log) ? 0 : 2;
    }
    if (!QFileInfo::exists(setup.scenario)) {
        *error = QStringLiteral("'%1' is neither a scenario (%2) nor a position file")
                     .arg(setup.scenario, scenarioIds(d).join(QStringLiteral(", ")));
        return 2;
    }
    rules::PositionOptions extra;
    extra.seed = setup.seed;
    extra.options = setup.options;
    return rules::loadPosition(engine, setup.scenario, s, error, extra, log) ? 0 : 1;
}

} // namespace wp::cli
