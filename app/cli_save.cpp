// westphalia-cli save: check, replay and measure .tyw save files (issue 7, docs/saves.md).
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "battle/linked.h"
#include "rules/invariants.h"
#include "save/savefile.h"

#include <QElapsedTimer>

#include <QJsonDocument>
#include <ctime>

namespace wp::cli {

namespace {

const char* kSaveUsage = R"USAGE(usage: westphalia-cli save verify FILE... [--data DIR]
       westphalia-cli save replay FILE [--to N] [--state-json] [--log] [--data DIR]
       westphalia-cli save bench [--scenario ID] [--seed S] [--runs R] [--out FILE] [--data DIR]

  verify   reads each save, checks its format, version, data fingerprint and hash chain, and replays
           every action through the rules engine; a table battle's record (a linked battle fought on
           screen or auto-resolved) is replayed and must give the result confirmed. Prints "OK FILE (N
           actions, turn T, ...)" or the problem (file, place, what is wrong). Exit code 1 if any file
           has a problem.
  replay   replays the first N actions (default all) and prints the turn, VP and prompt, or with
           --state-json the state as JSON, with --log the game log.
  bench    plays random games (seeds S, S+1, ...) until one lasts the whole scenario (default campaign,
           14 turns), saves it and prints the save's size and the time to load and verify it (median of
           R runs, default 20). --out keeps the save.

Exit codes: 0 success, 1 a file has a problem, 2 bad command line.
)USAGE";

int verify(ArgParser& ap) {
    const QString dir = ap.value(QStringLiteral("--data"));
    QStringList files;
    for (QString f = ap.positional(); !f.isEmpty(); f = ap.positional())
        files << f;
    if (!ap.finish(files.isEmpty() ? QStringLiteral("save verify needs at least one FILE") : QString()))
        return 2;
    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    int bad = 0;
    for (const QString& file : files) {
        QString error;
        auto game = save::load(data.data, file, &error);
        if (!game) {
            err() << "FAIL " << error << "\n";
            ++bad;
            continue;
        }
        const rules::GameState& s = game->state();
        const QStringList problems = rules::checkInvariants(game->engine(), s);
        if (!problems.isEmpty()) {
            err() << "FAIL " << file << ": the replayed state breaks an invariant: " << problems.first()
                  << "\n";
            ++bad;
            continue;
        }
        // The records attached to table results (docs/linked-battles.md "The battle's record"): each
        // replayed and compared with the result confirmed.
        int records = 0;
        if (game->actions().join(QLatin1Char('\n')).contains(QLatin1String(" @"))) {
            QList<battle::BattleRecord> battles;
            rules::GameState start;
            if (!game->engine().newGame(start, game->scenario(), game->options(), game->seed(), &error) ||
                !battle::battleReport(game->engine(), start, game->actions(), &battles, &error)) {
                err() << "FAIL " << file << ": " << error << "\n";
                ++bad;
                continue;
            }
            QString failed;
            for (const battle::BattleRecord& b : battles) {
                records += b.recordOk >= 0;
                if (b.recordOk == 0 && failed.isEmpty())
                    failed =
                        QStringLiteral("$.actions[%1] (table battle %2 at %3): the battle's record does not "
                                       "give the result confirmed: %4")
                            .arg(b.resultAction)
                            .arg(b.tableBattle)
                            .arg(b.city, b.recordError);
            }
            if (!failed.isEmpty()) {
                err() << "FAIL " << file << ": " << failed << "\n";
                ++bad;
                continue;
            }
        }
        out() << "OK " << file << " (" << game->actions().size() << " actions, " << game->scenario()
              << ", turn " << s.turn << ", VP " << s.vp << ", "
              << (s.gameOver ? s.result : QStringLiteral("in progress: ") + game->prompt())
              << (records ? QStringLiteral("; %1 table battle records replayed").arg(records) : QString())
              << ")\n";
    }
    if (files.size() > 1)
        out() << files.size() - bad << " of " << files.size() << " saves OK\n";
    return bad ? 1 : 0;
}

int replayCmd(ArgParser& ap) {
    const QString toText = ap.value(QStringLiteral("--to"));
    const bool wantJson = ap.flag(QStringLiteral("--state-json"));
    const bool wantLog = ap.flag(QStringLiteral("--log"));
    const QString dir = ap.value(QStringLiteral("--data"));
    const QString file = ap.positional();
    QString problem;
    int to = -1;
    if (!toText.isEmpty()) {
        bool ok = false;
        to = toText.toInt(&ok);
        if (!ok || to < 0)
            problem = QStringLiteral("--to %1: expected a whole number >= 0").arg(toText);
    }
    if (file.isEmpty() && problem.isEmpty())
        problem = QStringLiteral("save replay needs a FILE");
    if (!ap.finish(problem))
        return 2;
    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    QString error;
    auto g = save::readFile(file, &error);
    if (!g) {
        err() << "westphalia-cli save: " << error << "\n";
        return 1;
    }
    if (to > g->actions.size()) {
        err() << "westphalia-cli save: " << file << ": --to " << to << ": the save has only "
              << g->actions.size() << " actions\n";
        return 2;
    }
    rules::Game game(data.data);
    if (!save::replay(*g, file, game, &error, to)) {
        err() << "westphalia-cli save: " << error << "\n";
        return 1;
    }
    if (wantLog)
        for (const rules::LogLine& l : game.log())
            out() << l.text << "\n";
    if (wantJson)
        out()
            << QJsonDocument(rules::stateToJson(game.engine(), game.state())).toJson(QJsonDocument::Indented);
    if (!wantLog && !wantJson)
        out() << "after " << game.actions().size() << " of " << g->actions.size() << " actions: turn "
              << game.state().turn << ", VP " << game.state().vp << ": "
              << (game.state().gameOver ? game.state().result : game.prompt()) << "\n";
    return 0;
}

int bench(ArgParser& ap) {
    const QString scenario = ap.value(QStringLiteral("--scenario"));
    const QString seedText = ap.value(QStringLiteral("--seed"));
    const QString runsText = ap.value(QStringLiteral("--runs"));
    const QString outFile = ap.value(QStringLiteral("--out"));
    const QString dir = ap.value(QStringLiteral("--data"));
    const uint64_t seed0 = seedText.isEmpty() ? 1 : seedText.toULongLong();
    const int runs = runsText.isEmpty() ? 20 : std::max(1, runsText.toInt());
    if (!ap.finish())
        return 2;
    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    const rules::Engine engine(data.data);
    const QString scen = scenario.isEmpty() ? QStringLiteral("campaign") : scenario;
    const Scenario* sc = data.data->scenario(scen);
    if (!sc) {
        err() << "westphalia-cli save bench: unknown scenario '" << scen << "'\n";
        return 2;
    }
    const int turns = sc->lastTurn - sc->firstTurn + 1;
    // A game that lasts every turn of the scenario (random games may end early by automatic victory).
    rules::RandomGameResult best;
    uint64_t bestSeed = seed0;
    int bestTurns = -1;
    for (uint64_t seed = seed0; seed < seed0 + 200; ++seed) {
        rules::RandomGameSpec spec;
        spec.scenario = scen;
        spec.seed = seed;
        spec.keepActions = true;
        spec.checkInvariants = false;
        spec.checkNotation = false;
        spec.verifyReplay = false;
        int lastTurn = 0;
        spec.onState = [&](const rules::GameState& s) { lastTurn = std::max<int>(lastTurn, s.turn); };
        rules::RandomGameResult r = rules::playRandomGame(engine, spec);
        if (!r.ok)
            continue;
        const int played = lastTurn - sc->firstTurn + 1;
        if (played > bestTurns) {
            best = r;
            bestSeed = seed;
            bestTurns = played;
        }
        if (played >= turns)
            break;
    }
    save::SaveGame g;
    g.appVersion = appVersion();
    g.fingerprint = data.data->fingerprint;
    g.scenario = scen;
    g.seed = bestSeed;
    g.actions = best.actionTexts;
    g.result = best.result;
    const QByteArray bytes = save::serialize(g);
    auto cpuMs = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
    };
    std::vector<double> ms, cpu;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer t;
        t.start();
        const double c0 = cpuMs();
        QString error;
        auto parsed = save::parse(bytes, QStringLiteral("bench.tyw"), &error);
        rules::Game game(data.data);
        if (!parsed || !save::replay(*parsed, QStringLiteral("bench.tyw"), game, &error)) {
            err() << "westphalia-cli save bench: " << error << "\n";
            return 1;
        }
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        cpu.push_back(cpuMs() - c0);
    }
    std::sort(ms.begin(), ms.end());
    std::sort(cpu.begin(), cpu.end());
    QByteArray raw;
    QString why;
    save::gzipDecompress(bytes, &raw, &why);
    out() << "save bench: " << scen << " seed " << bestSeed << ", " << bestTurns << " of " << turns
          << " turns, " << g.actions.size() << " actions (" << best.result << ")\n";
    out() << "size: " << bytes.size() << " bytes ("
          << QString::number(static_cast<double>(bytes.size()) / 1024.0, 'f', 1)
          << " KiB; target <= 64 KiB), JSON " << raw.size() << " bytes\n";
    out() << "load and verify (inflate, parse, hash chain, replay every action): median "
          << QString::number(ms[ms.size() / 2], 'f', 2) << " ms, min " << QString::number(ms.front(), 'f', 2)
          << " ms, max " << QString::number(ms.back(), 'f', 2) << " ms over " << runs
          << " runs (target <= 50 ms); CPU time median " << QString::number(cpu[cpu.size() / 2], 'f', 2)
          << " ms, min " << QString::number(cpu.front(), 'f', 2) << " ms\n";
    if (!outFile.isEmpty()) {
        QString error;
        if (!save::writeFile(outFile, g, &error)) {
            err() << "westphalia-cli save bench: " << error << "\n";
            return 1;
        }
        out() << "saved " << outFile << "\n";
    }
    return 0;
}

} // namespace

int saveCommand(const QStringList& args) {
    ArgParser ap(args.mid(1), kSaveUsage);
    const QString sub = args.value(0);
    if (sub.isEmpty() || sub == QLatin1String("--help") || sub == QLatin1String("-h") || ap.helpRequested()) {
        out() << kSaveUsage;
        return sub.isEmpty() ? 2 : 0;
    }
    if (sub == QLatin1String("verify"))
        return verify(ap);
    if (sub == QLatin1String("replay"))
        return replayCmd(ap);
    if (sub == QLatin1String("bench"))
        return bench(ap);
    err() << "westphalia-cli save: unknown subcommand '" << sub << "'\n\n" << kSaveUsage;
    return 2;
}

} // namespace wp::cli
