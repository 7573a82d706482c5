// westphalia-cli tournament: bots against each other, alternating sides (issue 8; docs/ai.md).
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "ai/match.h"
#include "save/savefile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QMap>
#include <QSaveFile>

#include <algorithm>
#include <atomic>
#include <thread>

namespace wp::cli {

namespace {

const char* kTournamentUsage =
    R"(usage: westphalia-cli tournament --bots A,B [--games N] [--scenario ID] [--seed S]
                                [--option KEY=VALUE]... [--handicap A|B] [--side SIDE] [--jobs J]
                                [--threads T] [--max-actions M] [--save-dir DIR] [--reasons]
                                [--features FILE] [--data DIR]

Plays N games between bot A and bot B, alternating sides: games 2k and 2k+1 use the seed S+k, A plays
the Catholic in the first and the Protestant in the second. Each bot sees only its side's view
(model/ai/view.h). Prints wins/draws/losses per bot and side, the mean final VP, the game length and the
time per decision (median and maximum).

  --bots A,B          two of: random, priority, search, search:L (L = 1..5; search = search:2)
  --games N           games to play (default 10)
  --scenario ID       campaign (default), early-war, intervention, apocalypse
  --seed S            the first seed (default 1)
  --option KEY=VALUE  an optional rule (19.x), as for 'play'
  --handicap A|B      in every game the side that bot A (or B) plays gets the rules handicap
                      handicap=<side>:half-aid (its AID plays give half the Aid Points; a game option,
                      written into the saves), e.g. to measure a difficulty level
  --side SIDE         bot A plays SIDE (catholic or protestant) in every game, one game per seed: game k
                      uses the seed S+k, so '--games 50 --side catholic' plays the 50 games of
                      '--games 100' in which A is the Catholic (to measure a change to one side's play)
  --jobs J            games played in parallel (default 1: decision times are then comparable)
  --threads T         threads of each search bot's decision (root parallelisation; default 1, the
                      desktop app uses 2 on a machine with two cores or more)
  --max-actions M     a game not over after M actions counts as a draw, marked unfinished (default 20000)
  --save-dir DIR      write each game as a save file DIR/<scenario>-<seed>-<C>-<P>.tyw (docs/saves.md) and
                      as DIR/<scenario>-<seed>-<C>-<P>.actions (C the Catholic's bot, P the Protestant's;
                      with the same bot on both sides the sides-swapped game ends in -swapped), replayable with
                      'westphalia-cli play --scenario ID --seed S --actions FILE'
  --reasons           with --save-dir, each action is followed by a comment with the bot's reason
  --features FILE     write the learned value's data to FILE: per card round of every finished game its
                      features and the game's outcome (scripts/fit_value.py fits the value on them;
                      docs/ai.md, "The learned value")

Exit codes: 0 done, 1 a bot chose an illegal action or a file could not be written, 2 bad command line.
)";

double median(std::vector<double> v) {
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

QString seconds(double s) {
    return s < 0.01 ? QStringLiteral("%1 ms").arg(s * 1000, 0, 'f', 2)
                    : QStringLiteral("%1 s").arg(s, 0, 'f', 3);
}

QString fileSafe(QString name) {
    return name.replace(QLatin1Char(':'), QLatin1Char('_'));
}

} // namespace

int tournamentCommand(const QStringList& args) {
    ArgParser ap(args, kTournamentUsage);
    if (ap.helpRequested()) {
        out() << kTournamentUsage;
        return 0;
    }
    const QString botsArg = ap.value(QStringLiteral("--bots"));
    const QString gamesText = ap.value(QStringLiteral("--games"));
    const QString scenarioArg = ap.value(QStringLiteral("--scenario"));
    const QString seedText = ap.value(QStringLiteral("--seed"));
    const QStringList optionArgs = allValues(ap, QStringLiteral("--option"));
    const QString jobsText = ap.value(QStringLiteral("--jobs"));
    const QString threadsText = ap.value(QStringLiteral("--threads"));
    const QString maxText = ap.value(QStringLiteral("--max-actions"));
    const QString saveDir = ap.value(QStringLiteral("--save-dir"));
    const QString handicapText = ap.value(QStringLiteral("--handicap"));
    const QString sideText = ap.value(QStringLiteral("--side"));
    const bool withReasons = ap.flag(QStringLiteral("--reasons"));
    const QString featuresFile = ap.value(QStringLiteral("--features"));
    const QString dir = ap.value(QStringLiteral("--data"));
    QString problem;
    const int games = static_cast<int>(ap.number(gamesText, QStringLiteral("--games"), 1, 10));
    const uint64_t seed0 = static_cast<uint64_t>(ap.number(seedText, QStringLiteral("--seed"), 0, 1));
    const int jobs = static_cast<int>(ap.number(jobsText, QStringLiteral("--jobs"), 1, 1));
    const int searchThreads = static_cast<int>(ap.number(threadsText, QStringLiteral("--threads"), 1, 1));
    const int maxActions = static_cast<int>(ap.number(maxText, QStringLiteral("--max-actions"), 1, 20000));
    QStringList botSpecs = botsArg.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QString& b : botSpecs)
        b = b.trimmed();
    if (problem.isEmpty() && botSpecs.size() != 2)
        problem = botsArg.isEmpty()
                      ? QStringLiteral("--bots A,B is required")
                      : QStringLiteral("--bots %1: expected two bots separated by a comma").arg(botsArg);
    for (const QString& b : botSpecs) {
        QString error;
        if (problem.isEmpty() && !ai::makeBot(b, 0, &error))
            problem = QStringLiteral("--bots: %1").arg(error);
    }
    const int handicapBot = handicapText == QLatin1String("A")   ? 0
                            : handicapText == QLatin1String("B") ? 1
                                                                 : -1;
    if (problem.isEmpty() && !handicapText.isEmpty() && handicapBot < 0)
        problem =
            QStringLiteral("--handicap %1: expected A or B (the first or the second bot)").arg(handicapText);
    const std::optional<Side> onlySideId = sideFromId(sideText);
    const int onlySide = onlySideId ? rules::sideIndex(*onlySideId) : rules::kNone;
    if (problem.isEmpty() && !sideText.isEmpty() && onlySide == rules::kNone)
        problem = QStringLiteral("--side %1: expected catholic or protestant").arg(sideText);
    if (problem.isEmpty() && !featuresFile.isEmpty() && !QFileInfo(featuresFile).absoluteDir().exists())
        problem = QStringLiteral("--features %1: the directory %2 does not exist")
                      .arg(featuresFile, QFileInfo(featuresFile).absolutePath());
    if (!ap.finish(problem))
        return 2;

    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    const rules::Engine engine(data.data);
    const QString scenario = scenarioArg.isEmpty() ? QStringLiteral("campaign") : scenarioArg;
    if (!data.data->scenario(scenario)) {
        err() << "westphalia-cli tournament: unknown scenario '" << scenario << "' ("
              << scenarioIds(*data.data).join(", ") << ")\n";
        return 2;
    }
    rules::GameOptions options;
    for (const QString& o : optionArgs) {
        QString error;
        if (!rules::setOption(options, o, &error)) {
            err() << "westphalia-cli tournament: " << error << "\n";
            return 2;
        }
    }
    if (!saveDir.isEmpty() && !QDir().mkpath(saveDir)) {
        err() << "westphalia-cli tournament: cannot create the directory " << saveDir << "\n";
        return 1;
    }

    struct Played {
        uint64_t seed = 0;
        int aSide = 0; // the side bot A plays
        rules::GameOptions options;
        ai::MatchResult r;
    };
    std::vector<Played> played(static_cast<size_t>(games));
    for (int i = 0; i < games; ++i) {
        Played& p = played[static_cast<size_t>(i)];
        if (onlySide != rules::kNone) {
            p.seed = seed0 + static_cast<uint64_t>(i);
            p.aSide = onlySide;
        } else {
            p.seed = seed0 + static_cast<uint64_t>(i / 2);
            p.aSide = i % 2 == 0 ? rules::kCatholic : rules::kProtestant;
        }
        p.options = options;
        if (handicapBot >= 0) {
            const int side = handicapBot == 0 ? p.aSide : rules::other(p.aSide);
            rules::setOption(p.options,
                             side == rules::kCatholic ? QStringLiteral("handicap=catholic:half-aid")
                                                      : QStringLiteral("handicap=protestant:half-aid"),
                             nullptr);
        }
    }
    std::atomic<int> next{0};
    std::atomic<bool> setupFailed{false};
    QString setupError;
    QElapsedTimer timer;
    timer.start();
    auto worker = [&] {
        for (int i = next++; i < games; i = next++) {
            Played& p = played[static_cast<size_t>(i)];
            rules::GameState start;
            QString error;
            if (!engine.newGame(start, scenario, p.options, p.seed, &error)) {
                setupFailed = true;
                setupError = error;
                return;
            }
            // each bot's own generator: from the seed, the game and its seat
            std::unique_ptr<ai::Bot> a = ai::makeBot(botSpecs[0], p.seed * 4 + 1, nullptr);
            std::unique_ptr<ai::Bot> b = ai::makeBot(botSpecs[1], p.seed * 4 + 2, nullptr);
            a->setThreads(searchThreads);
            b->setThreads(searchThreads);
            ai::Bot* seats[2];
            seats[p.aSide] = a.get();
            seats[rules::other(p.aSide)] = b.get();
            p.r = ai::playMatch(engine, start, seats, maxActions, withReasons, !featuresFile.isEmpty());
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < std::min(jobs, games); ++j)
        threads.emplace_back(worker);
    for (std::thread& t : threads)
        t.join();
    const double elapsed = static_cast<double>(timer.nsecsElapsed()) / 1e9;
    if (setupFailed) {
        err() << "westphalia-cli tournament: " << setupError << "\n";
        return 2;
    }

    // Report.
    struct Tally {
        int games = 0, wins = 0, draws = 0, losses = 0;
        double vp = 0;
    };
    Tally tally[2][3]; // [bot][Catholic, Protestant, total]
    std::vector<double> times[2], roundTimes[2], cpuTimes[2], roundCpu[2];
    double totalActions = 0, totalTurns = 0;
    int unfinished = 0, failures = 0;
    QMap<QString, int> results;
    for (const Played& p : played) {
        const ai::MatchResult& r = p.r;
        if (!r.ok) {
            ++failures;
            continue;
        }
        unfinished += r.finished ? 0 : 1;
        totalActions += r.actions;
        totalTurns += r.turn;
        results[r.result.section(QStringLiteral(" ("), 0, 0)]++;
        for (int bot = 0; bot < 2; ++bot) {
            const int side = bot == 0 ? p.aSide : rules::other(p.aSide);
            for (int col : {side, 2}) {
                Tally& t = tally[bot][col];
                ++t.games;
                t.vp += r.vp;
                if (r.winner == side)
                    ++t.wins;
                else if (r.winner == rules::kNone)
                    ++t.draws;
                else
                    ++t.losses;
            }
            times[bot].insert(times[bot].end(), r.decisionSeconds[side].begin(),
                              r.decisionSeconds[side].end());
            roundTimes[bot].insert(roundTimes[bot].end(), r.cardRoundSeconds[side].begin(),
                                   r.cardRoundSeconds[side].end());
            roundCpu[bot].insert(roundCpu[bot].end(), r.cardRoundCpu[side].begin(),
                                 r.cardRoundCpu[side].end());
            cpuTimes[bot].insert(cpuTimes[bot].end(), r.decisionCpu[side].begin(), r.decisionCpu[side].end());
        }
    }
    const int good = games - failures;
    out() << "tournament: " << botSpecs[0] << " vs " << botSpecs[1] << ", " << scenario << ", " << games
          << " games, seeds " << seed0 << "-"
          << seed0 + static_cast<uint64_t>(onlySide == rules::kNone ? (games - 1) / 2 : games - 1)
          << (onlySide == rules::kNone
                  ? QStringLiteral(" (each seed twice, sides swapped)")
                  : QStringLiteral(" (%1 always the %2)").arg(botSpecs[0], rules::sideName(onlySide)))
          << (optionArgs.isEmpty() ? QString() : ", options " + optionArgs.join(' '))
          << (handicapBot < 0 ? QString()
                              : QStringLiteral(", half-aid handicap for %1").arg(botSpecs[handicapBot]))
          << "\n";
    out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                 .arg(QStringLiteral("bot"), -12)
                 .arg(QStringLiteral("side"), -11)
                 .arg(QStringLiteral("games"), 6)
                 .arg(QStringLiteral("wins"), 6)
                 .arg(QStringLiteral("draws"), 6)
                 .arg(QStringLiteral("losses"), 7)
                 .arg(QStringLiteral("win%"), 6)
                 .arg(QStringLiteral("mean VP"), 8);
    static const char* cols[3] = {"Catholic", "Protestant", "both"};
    for (int bot = 0; bot < 2; ++bot)
        for (int col = 0; col < 3; ++col) {
            const Tally& t = tally[bot][col];
            out() << QStringLiteral("%1 %2 %3 %4 %5 %6 %7 %8\n")
                         .arg(botSpecs[bot] + (bot == 0 ? QStringLiteral(" (A)") : QStringLiteral(" (B)")),
                              -12)
                         .arg(QLatin1String(cols[col]), -11)
                         .arg(t.games, 6)
                         .arg(t.wins, 6)
                         .arg(t.draws, 6)
                         .arg(t.losses, 7)
                         .arg(t.games ? 100.0 * t.wins / t.games : 0.0, 6, 'f', 1)
                         .arg(t.games ? t.vp / t.games : 0.0, 8, 'f', 1);
        }
    QStringList res;
    for (auto it = results.begin(); it != results.end(); ++it)
        res << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    out() << "results: " << (res.isEmpty() ? QStringLiteral("none") : res.join(", ")) << "\n";
    if (good > 0)
        out() << "game length: " << QString::number(totalActions / good, 'f', 1) << " actions, "
              << QString::number(totalTurns / good, 'f', 1) << " turns on average"
              << (unfinished ? QStringLiteral(" (%1 unfinished at %2 actions, counted as draws)")
                                   .arg(unfinished)
                                   .arg(maxActions)
                             : QString())
              << "\n";
    auto maxOf = [](const std::vector<double>& v) {
        return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
    };
    for (int bot = 0; bot < 2; ++bot) {
        out() << "decision time " << botSpecs[bot] << (bot == 0 ? " (A)" : " (B)") << ": all "
              << times[bot].size() << " decisions: median " << seconds(median(times[bot])) << ", max "
              << seconds(maxOf(times[bot])) << " (CPU max " << seconds(maxOf(cpuTimes[bot])) << ")\n";
        out() << "    card rounds (" << roundTimes[bot].size() << "): median "
              << seconds(median(roundTimes[bot])) << ", max " << seconds(maxOf(roundTimes[bot]))
              << "; CPU median " << seconds(median(roundCpu[bot])) << ", max "
              << seconds(maxOf(roundCpu[bot])) << "\n";
        const auto over = [&](double limit) {
            return std::count_if(times[bot].begin(), times[bot].end(),
                                 [limit](double t) { return t > limit; });
        };
        out() << "    decisions over 1 s wall: " << over(1.0) << ", over 5 s: " << over(5.0) << "\n";
    }
    out() << "elapsed: " << QString::number(elapsed, 'f', 1) << " s on " << std::min(jobs, games) << " thread"
          << (std::min(jobs, games) == 1 ? "" : "s")
          << (searchThreads > 1 ? QStringLiteral(" (each search decision on %1 threads)").arg(searchThreads)
                                : QString())
          << "\n";
    int rc = 0;
    for (size_t i = 0; i < played.size(); ++i) {
        const Played& p = played[i];
        if (!p.r.ok) {
            out() << "FAIL game " << i << " (seed " << p.seed << "): " << p.r.error << "\n";
            rc = 1;
        }
        if (saveDir.isEmpty())
            continue;
        const QString a = fileSafe(botSpecs[p.aSide == rules::kCatholic ? 0 : 1]);
        const QString b = fileSafe(botSpecs[p.aSide == rules::kCatholic ? 1 : 0]);
        // the two games of a seed differ by their sides; with the same bot on both, by the swap
        const QString stem =
            QStringLiteral("%1/%2-%3-%4-%5%6")
                .arg(saveDir, scenario)
                .arg(p.seed)
                .arg(a, b, a == b && p.aSide != rules::kCatholic ? QStringLiteral("-swapped") : QString());
        const QString file = stem + QStringLiteral(".actions");
        QSaveFile f(file);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
            err() << "westphalia-cli tournament: cannot write " << file << ": " << f.errorString() << "\n";
            return 1;
        }
        QTextStream ts(&f);
        const QStringList gameOptions = rules::optionList(p.options);
        ts << "# westphalia-cli play --scenario " << scenario << " --seed " << p.seed
           << (gameOptions.isEmpty() ? QString() : " --option " + gameOptions.join(" --option "))
           << " --actions " << file << "\n# Catholic: " << a << ", Protestant: " << b << "; " << p.r.result
           << "\n";
        int idx[2] = {0, 0};
        for (const QString& act : p.r.actionTexts) {
            ts << act;
            if (withReasons) {
                // the reasons are kept per side in order; find whose action this was
                for (int side = 0; side < 2; ++side)
                    if (idx[side] < p.r.reasons[side].size() &&
                        p.r.reasons[side][idx[side]].startsWith(act + QStringLiteral(" — "))) {
                        ts << "  # " << rules::sideName(side).left(1) << ": "
                           << p.r.reasons[side][idx[side]]
                                  .mid(act.size() + 3)
                                  .replace(QLatin1Char('\n'), ' ');
                        ++idx[side];
                        break;
                    }
            }
            ts << "\n";
        }
        ts.flush();
        if (!f.commit()) {
            err() << "westphalia-cli tournament: cannot write " << file << ": " << f.errorString() << "\n";
            return 1;
        }
        // issue 7: the same game as a save file (docs/saves.md), which the window opens and `save verify`
        // checks
        save::SaveGame sg;
        sg.appVersion = appVersion();
        sg.fingerprint = data.data->fingerprint;
        sg.scenario = scenario;
        sg.options = gameOptions;
        sg.seed = p.seed;
        sg.actions = p.r.actionTexts;
        sg.result = p.r.result;
        QString error;
        const QString tyw = stem + QStringLiteral(".tyw");
        if (!save::writeFile(tyw, sg, &error)) {
            err() << "westphalia-cli tournament: " << error << "\n";
            return 1;
        }
    }
    if (!saveDir.isEmpty())
        out() << "games saved in " << saveDir << "\n";
    if (!featuresFile.isEmpty()) {
        QSaveFile f(featuresFile);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
            err() << "westphalia-cli tournament: cannot write " << featuresFile << ": " << f.errorString()
                  << "\n";
            return 1;
        }
        QTextStream ts(&f);
        ts << ai::featureHeader() << "\n";
        qsizetype rows = 0;
        for (const Played& p : played)
            for (const QString& row : p.r.featureRows) {
                ts << row << "\n";
                ++rows;
            }
        ts.flush();
        if (!f.commit()) {
            err() << "westphalia-cli tournament: cannot write " << featuresFile << ": " << f.errorString()
                  << "\n";
            return 1;
        }
        out() << "features of " << rows << " card rounds written to " << featuresFile << "\n";
    }
    return rc;
}

} // namespace wp::cli
