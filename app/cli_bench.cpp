// westphalia-cli bench: how fast the engine plays complete random games, and what a state costs to keep.
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "rules/invariants.h"

#include <QElapsedTimer>
#include <QMap>
#include <QSysInfo>
#include <QThread>

#include <ctime>

namespace wp::cli {

namespace {

const char* kBenchUsage =
    R"(usage: westphalia-cli bench [--games N] [--scenario ID|all] [--seed S] [--data DIR]

Plays N complete games on one thread, choosing uniformly among the legal actions, without invariant
checks or replay, and reports: games per second (per CPU second, which a busy machine does not skew,
and per wall-clock second), actions per game and per second, and the size of a
state snapshot (sizeof(GameState) plus the heap its vectors hold, sampled at every state reached;
strings are implicitly shared and cost a copy nothing) and the time to copy one.

  --games N          games to play (default 200)
  --scenario ID|all  one scenario, or all of them in turn (default all)
  --seed S           game i uses seed S+i (default 1)
)";

} // namespace

int benchCommand(const QStringList& args) {
    ArgParser ap(args, kBenchUsage);
    if (ap.helpRequested()) {
        out() << kBenchUsage;
        return 0;
    }
    const QString gamesText = ap.value(QStringLiteral("--games"));
    const QString scenarioArg = ap.value(QStringLiteral("--scenario"));
    const QString seedText = ap.value(QStringLiteral("--seed"));
    const QString dir = ap.value(QStringLiteral("--data"));
    const int games = static_cast<int>(ap.number(gamesText, QStringLiteral("--games"), 1, 200));
    const uint64_t seed0 = static_cast<uint64_t>(ap.number(seedText, QStringLiteral("--seed"), 0, 1));
    if (!ap.finish())
        return 2;

    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    const rules::Engine engine(data.data);
    QStringList scenarios = scenarioIds(*data.data);
    if (!scenarioArg.isEmpty() && scenarioArg != QLatin1String("all")) {
        if (!scenarios.contains(scenarioArg)) {
            err() << "westphalia-cli bench: unknown scenario '" << scenarioArg << "' ("
                  << scenarios.join(", ") << ", all)\n";
            return 2;
        }
        scenarios = {scenarioArg};
    }

    // Pass 1: speed, nothing else.
    qint64 actions = 0;
    int unfinished = 0;
    QMap<QString, QPair<int, qint64>> perScenario; // games, CPU clock ticks
    QElapsedTimer timer;
    timer.start();
    const std::clock_t cpu0 = std::clock();
    for (int i = 0; i < games; ++i) {
        rules::RandomGameSpec spec;
        spec.scenario = scenarios[i % scenarios.size()];
        spec.seed = seed0 + static_cast<uint64_t>(i);
        spec.checkInvariants = spec.checkNotation = spec.verifyReplay = false;
        const std::clock_t t0 = std::clock();
        const rules::RandomGameResult r = rules::playRandomGame(engine, spec);
        auto& ps = perScenario[spec.scenario];
        ps.first++;
        ps.second += std::clock() - t0;
        actions += r.actions;
        unfinished += !r.finished;
    }
    const double seconds = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    const double cpuSeconds = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;

    // Pass 2 (a few games): snapshot sizes at every state reached, and the cost of a copy.
    size_t maxBytes = 0;
    double sumBytes = 0;
    qint64 samples = 0;
    rules::GameState biggest;
    for (int i = 0; i < std::min(games, 2 * static_cast<int>(scenarios.size())); ++i) {
        rules::RandomGameSpec spec;
        spec.scenario = scenarios[i % scenarios.size()];
        spec.seed = seed0 + static_cast<uint64_t>(i);
        spec.checkInvariants = spec.checkNotation = spec.verifyReplay = false;
        spec.onState = [&](const rules::GameState& s) {
            const size_t b = sizeof(rules::GameState) + rules::stateHeapBytes(s);
            sumBytes += static_cast<double>(b);
            ++samples;
            if (b > maxBytes) {
                maxBytes = b;
                biggest = s;
            }
        };
        rules::playRandomGame(engine, spec);
    }
    const int copies = 20000;
    QElapsedTimer ct;
    ct.start();
    size_t sink = 0;
    for (int i = 0; i < copies; ++i) {
        rules::GameState copy = biggest;
        sink += copy.units.size();
    }
    const double copyNs = static_cast<double>(ct.nsecsElapsed()) / copies;

    out() << "bench: " << games << " games on one thread, " << QSysInfo::prettyProductName() << ", "
          << QSysInfo::currentCpuArchitecture() << ", " << QThread::idealThreadCount() << " cores\n";
    out() << "games/s: " << QString::number(games / cpuSeconds, 'f', 1) << " per CPU second ("
          << QString::number(cpuSeconds, 'f', 2) << " s CPU), " << QString::number(games / seconds, 'f', 1)
          << " per wall-clock second (" << QString::number(seconds, 'f', 2) << " s)"
          << (unfinished ? QStringLiteral(", %1 unfinished").arg(unfinished) : QString()) << "\n";
    for (auto it = perScenario.begin(); it != perScenario.end(); ++it)
        out() << "  " << it.key() << ": "
              << QString::number(it.value().first / (static_cast<double>(it.value().second) / CLOCKS_PER_SEC),
                                 'f', 1)
              << " games per CPU second\n";
    out() << "actions/game: " << QString::number(static_cast<double>(actions) / games, 'f', 1)
          << ", actions per CPU second: "
          << QString::number(static_cast<double>(actions) / cpuSeconds, 'f', 0) << "\n";
    out() << "snapshot bytes: mean "
          << QString::number(samples ? sumBytes / static_cast<double>(samples) : 0.0, 'f', 0) << ", max "
          << maxBytes << " (sizeof(GameState) " << sizeof(rules::GameState) << " + heap; " << samples
          << " states sampled); copy of the largest: " << QString::number(copyNs / 1000.0, 'f', 2) << " us\n";
    return sink == 0 ? 0 : 0;
}

} // namespace wp::cli
