// westphalia-cli fuzz: complete random games with every invariant checked after every action, and each
// game replayed from its action texts (design principle 7).
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "rules/invariants.h"
#include "save/savefile.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QThread>

#include <atomic>
#include <csignal>
#include <cstring>
#include <string>
#include <thread>

#include <unistd.h>

namespace wp::cli {

namespace {

const char* kFuzzUsage =
    R"(usage: westphalia-cli fuzz [--games N] [--seed S] [--scenario ID|all] [--option KEY=VALUE]... [--all-options]
                          [--max-actions M] [--jobs J] [--save-failures DIR] [--data DIR]

Plays N complete games choosing uniformly among the legal actions. After every action it checks the
invariants (stacking, counter mix, cards, control, VP, sieges, a legal action exists: see
model/rules/invariants.h) and that every legal action's notation is distinct and parses back to it; after
each game it replays the game from its action texts and compares the final state.

  --games N           games to play (default 100)
  --seed S            game i (0-based) uses seed S+i (default 1)
  --scenario ID|all   one scenario, or all of them in turn (default all)
  --option KEY=VALUE  an optional rule (19.x) on or off, e.g. 19.2a=on (repeatable; an unknown key
                      lists the known ones)
  --all-options       every optional rule on at once (the same as --option all=on)
  --policy P          how the random player chooses: uniform (every legal action alike), aggressive
                      (weighted towards attacks, sieges, events and moves into enemy cities: many more
                      battles), or mixed (the two in turn, game by game; the default: its 1,000 games
                      reach every card event, the combat cards that need a particular battle included)
  --max-actions M     stop a game after M actions; it counts as cut short. Without this option the
                      limit is 100000 and a game that reaches it is a failure (games must end).
  --jobs J            games played in parallel (default: the number of cores)
  --save-failures DIR write each failing game's actions to DIR/fail-<scenario>-<seed>.actions, ready
                      for 'westphalia-cli play --actions'
  --save-games DIR    write every game's actions to DIR/<scenario>-<seed>.actions
  --save-dir DIR      write every game as a save file DIR/<scenario>-<seed>.tyw (docs/saves.md)

Exit codes: 0 no failure, 1 a failure (each is printed with its seed and action index), 2 bad command line.
)";

struct Game {
    QString scenario;
    rules::RandomPolicy policy = rules::RandomPolicy::Uniform;
    uint64_t seed = 0;
    rules::RandomGameResult result;
    double seconds = 0;
};

// A crash (a bug in the engine) must still name the game that caused it: each worker records the game it
// plays, and a signal handler writes them out (with write(2) only) before the default action.
constexpr int kMaxWorkers = 64;
std::atomic<int> g_playing[kMaxWorkers];
std::vector<std::string> g_reproduce; // per game: the command line that replays it

void say(const char* text) {
    const ssize_t n = ::write(STDERR_FILENO, text, std::strlen(text));
    (void)n;
}

extern "C" void onCrash(int sig) {
    say("westphalia-cli fuzz: crashed (");
    say(sig == SIGSEGV ? "SIGSEGV" : sig == SIGABRT ? "SIGABRT" : sig == SIGFPE ? "SIGFPE" : "a signal");
    say(") while playing:\n");
    for (int w = 0; w < kMaxWorkers; ++w) {
        const int game = g_playing[w].load();
        if (game >= 0 && static_cast<size_t>(game) < g_reproduce.size()) {
            say("  reproduce: ");
            say(g_reproduce[static_cast<size_t>(game)].c_str());
            say("\n");
        }
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

} // namespace

int fuzzCommand(const QStringList& args) {
    ArgParser ap(args, kFuzzUsage);
    if (ap.helpRequested()) {
        out() << kFuzzUsage;
        return 0;
    }
    const QString gamesText = ap.value(QStringLiteral("--games"));
    const QString seedText = ap.value(QStringLiteral("--seed"));
    const QString scenarioArg = ap.value(QStringLiteral("--scenario"));
    QStringList optionArgs = allValues(ap, QStringLiteral("--option"));
    if (ap.flag(QStringLiteral("--all-options"))) // every optional rule on at once (issue 4)
        optionArgs << QStringLiteral("all=on");
    const QString maxText = ap.value(QStringLiteral("--max-actions"));
    const QString policyText = ap.value(QStringLiteral("--policy"));
    const QString policyArg = policyText.isEmpty() ? QStringLiteral("mixed") : policyText;
    const QString jobsText = ap.value(QStringLiteral("--jobs"));
    const QString saveDir = ap.value(QStringLiteral("--save-failures"));
    const QString gamesDir = ap.value(QStringLiteral("--save-games"));
    const QString tywDir = ap.value(QStringLiteral("--save-dir")); // issue 7: .tyw saves
    const QString dir = ap.value(QStringLiteral("--data"));
    QString problem;
    const int games = static_cast<int>(ap.number(gamesText, QStringLiteral("--games"), 1, 100));
    const uint64_t seed0 = static_cast<uint64_t>(ap.number(seedText, QStringLiteral("--seed"), 0, 1));
    const bool cutShortOk = !maxText.isEmpty();
    const int maxActions = static_cast<int>(ap.number(maxText, QStringLiteral("--max-actions"), 1, 100000));
    const int jobs = static_cast<int>(
        ap.number(jobsText, QStringLiteral("--jobs"), 1, std::max(1, QThread::idealThreadCount())));
    static const QStringList policies{"uniform", "aggressive", "mixed"};
    if (!policyArg.isEmpty() && !policies.contains(policyArg) && problem.isEmpty())
        problem = QStringLiteral("--policy %1: expected uniform, aggressive or mixed").arg(policyArg);
    if (!ap.finish(problem))
        return 2;

    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    const rules::Engine engine(data.data);
    QStringList scenarios = scenarioIds(*data.data);
    if (!scenarioArg.isEmpty() && scenarioArg != QLatin1String("all")) {
        if (!scenarios.contains(scenarioArg)) {
            err() << "westphalia-cli fuzz: unknown scenario '" << scenarioArg << "' (" << scenarios.join(", ")
                  << ", all)\n";
            return 2;
        }
        scenarios = {scenarioArg};
    }
    rules::GameOptions options;
    for (const QString& o : optionArgs) {
        QString error;
        if (!rules::setOption(options, o, &error)) {
            err() << "westphalia-cli fuzz: " << error << "\n";
            return 2;
        }
    }

    std::vector<Game> played(static_cast<size_t>(games));
    for (int i = 0; i < games; ++i) {
        played[i].scenario = scenarios[i % scenarios.size()];
        played[i].seed = seed0 + static_cast<uint64_t>(i);
        const bool aggressive = policyArg == QLatin1String("aggressive") ||
                                (policyArg == QLatin1String("mixed") && (i / scenarios.size()) % 2 == 1);
        played[i].policy = aggressive ? rules::RandomPolicy::Aggressive : rules::RandomPolicy::Uniform;
    }
    const int workers = std::min({jobs, games, kMaxWorkers});
    g_reproduce.clear();
    for (const Game& g : played)
        g_reproduce.push_back(
            QStringLiteral("westphalia-cli fuzz --games 1 --scenario %1 --seed %2%3%4")
                .arg(g.scenario)
                .arg(g.seed)
                .arg(optionArgs.isEmpty() ? QString() : " --option " + optionArgs.join(" --option "),
                     g.policy == rules::RandomPolicy::Aggressive ? QStringLiteral(" --policy aggressive")
                                                                 : QString())
                .toStdString());
    for (std::atomic<int>& p : g_playing)
        p = -1;
    for (int sig : {SIGSEGV, SIGABRT, SIGFPE, SIGBUS, SIGILL})
        std::signal(sig, onCrash);
    std::atomic<int> next{0};
    QElapsedTimer timer;
    timer.start();
    auto worker = [&](int w) {
        for (int i = next++; i < games; i = next++) {
            g_playing[w] = i;
            Game& g = played[static_cast<size_t>(i)];
            rules::RandomGameSpec spec;
            spec.scenario = g.scenario;
            spec.options = options;
            spec.seed = g.seed;
            spec.policy = g.policy;
            spec.maxActions = maxActions;
            spec.keepActions = !gamesDir.isEmpty() || !tywDir.isEmpty();
            QElapsedTimer t;
            t.start();
            g.result = rules::playRandomGame(engine, spec);
            g.seconds = static_cast<double>(t.nsecsElapsed()) / 1e9;
        }
    };
    std::vector<std::thread> threads;
    for (int j = 0; j < workers; ++j)
        threads.emplace_back(worker, j);
    for (std::thread& t : threads)
        t.join();
    const double elapsed = static_cast<double>(timer.nsecsElapsed()) / 1e9;

    // Report.
    qint64 totalActions = 0;
    int finished = 0, cutShort = 0, failures = 0, minActions = INT_MAX, maxSeen = 0;
    QMap<QString, int> results, perScenario;
    double slowest = 0;
    for (Game& g : played) {
        const rules::RandomGameResult& r = g.result;
        totalActions += r.actions;
        minActions = std::min(minActions, r.actions);
        maxSeen = std::max(maxSeen, r.actions);
        slowest = std::max(slowest, g.seconds);
        perScenario[g.scenario]++;
        if (!r.ok) {
            ++failures;
            continue;
        }
        if (r.finished) {
            ++finished;
            results[r.result.section(QStringLiteral(" ("), 0, 0)]++;
        } else {
            ++cutShort;
            if (!cutShortOk) {
                g.result.ok = false;
                g.result.failure = QStringLiteral("the game did not end within %1 actions").arg(maxActions);
                g.result.failureIndex = r.actions - 1;
                ++failures;
                --cutShort;
            }
        }
    }
    QStringList scen;
    for (auto it = perScenario.begin(); it != perScenario.end(); ++it)
        scen << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    out() << "fuzz: " << games << " games (" << scen.join(", ") << "), seeds " << seed0 << "-"
          << seed0 + static_cast<uint64_t>(games) - 1
          << (optionArgs.isEmpty() ? QString() : ", options " + optionArgs.join(' ')) << ", policy "
          << policyArg << "\n";
    out() << "finished: " << finished << ", cut short at " << maxActions << " actions: " << cutShort
          << ", failed: " << failures << "\n";
    out() << "actions: " << totalActions << " total, "
          << QString::number(static_cast<double>(totalActions) / games, 'f', 1) << " per game (min "
          << minActions << ", max " << maxSeen << ")\n";
    QStringList res;
    for (auto it = results.begin(); it != results.end(); ++it)
        res << QStringLiteral("%1 %2").arg(it.key()).arg(it.value());
    out() << "results: " << (res.isEmpty() ? QStringLiteral("none") : res.join(", ")) << "\n";
    out() << "elapsed: " << QString::number(elapsed, 'f', 2) << " s on " << workers << " thread"
          << (workers == 1 ? "" : "s") << " (" << QString::number(games / elapsed, 'f', 1)
          << " games/s with checks and replay; slowest game " << QString::number(slowest, 'f', 2) << " s)\n";
    // Issue 5: which card events the run reached (played as an Event, a combat card, or by 8.64).
    {
        std::vector<bool> reached;
        for (const Game& g : played) {
            reached.resize(std::max(reached.size(), g.result.events.size()), false);
            for (size_t ci = 0; ci < g.result.events.size(); ++ci)
                if (g.result.events[ci])
                    reached[ci] = true;
        }
        QStringList never;
        int count = 0;
        for (qsizetype ci = 0; ci < engine.data().cards.size(); ++ci) {
            if (static_cast<size_t>(ci) < reached.size() && reached[static_cast<size_t>(ci)])
                ++count;
            else
                never << engine.data().cards[ci].id;
        }
        out() << "events: " << count << " of " << engine.data().cards.size() << " played at least once"
              << (never.isEmpty() ? QString() : QStringLiteral("; never: ") + never.join(' ')) << "\n";
    }
    if (!saveDir.isEmpty() && failures)
        QDir().mkpath(saveDir);
    for (const Game& g : played) {
        const rules::RandomGameResult& r = g.result;
        if (r.ok)
            continue;
        const QString at = r.failureIndex < 0
                               ? QStringLiteral("at set-up")
                               : QStringLiteral("action %1%2")
                                     .arg(r.failureIndex)
                                     .arg(r.failureIndex < r.actionTexts.size()
                                              ? QStringLiteral(" '%1'").arg(r.actionTexts[r.failureIndex])
                                              : QString());
        out() << "FAIL " << g.scenario << " seed " << g.seed << ", " << at << ": " << r.failure << "\n";
        out() << "  reproduce: westphalia-cli fuzz --games 1 --scenario " << g.scenario << " --seed "
              << g.seed << (optionArgs.isEmpty() ? QString() : " --option " + optionArgs.join(" --option "))
              << (g.policy == rules::RandomPolicy::Aggressive ? " --policy aggressive" : "")
              << (cutShortOk ? QStringLiteral(" --max-actions %1").arg(maxActions) : QString()) << "\n";
        if (!saveDir.isEmpty() && !r.actionTexts.isEmpty()) {
            const QString file = QStringLiteral("%1/fail-%2-%3.actions").arg(saveDir, g.scenario).arg(g.seed);
            QFile f(file);
            if (f.open(QIODevice::WriteOnly | QIODevice::Text)) {
                QTextStream ts(&f);
                ts << "# westphalia-cli fuzz failure: " << g.scenario << " seed " << g.seed << "\n# " << at
                   << ": " << r.failure << "\n# westphalia-cli play --scenario " << g.scenario << " --seed "
                   << g.seed << " --actions " << file << " --log\n";
                const qsizetype upto =
                    std::min<qsizetype>(r.actionTexts.size(), r.failureIndex < 0 ? 0 : r.failureIndex + 1);
                for (qsizetype i = 0; i < upto; ++i)
                    ts << r.actionTexts[i] << "\n";
                out() << "  actions: " << file << "\n";
            }
        }
    }
    if (!gamesDir.isEmpty()) {
        QDir().mkpath(gamesDir);
        for (const Game& g : played) {
            QFile f(QStringLiteral("%1/%2-%3.actions").arg(gamesDir, g.scenario).arg(g.seed));
            if (!f.open(QIODevice::WriteOnly | QIODevice::Text)) {
                err() << "westphalia-cli fuzz: cannot write " << f.fileName() << ": " << f.errorString()
                      << "\n";
                return 1;
            }
            QTextStream ts(&f);
            ts << "# westphalia-cli play --scenario " << g.scenario << " --seed " << g.seed
               << (optionArgs.isEmpty() ? QString() : " --option " + optionArgs.join(" --option "))
               << " --actions " << f.fileName() << "\n# "
               << (g.result.finished ? g.result.result : "not finished") << "\n";
            for (const QString& a : g.result.actionTexts)
                ts << a << "\n";
        }
        out() << "games saved in " << gamesDir << "\n";
    }
    // ---- issue 7: every game as a .tyw save (model/save)
    if (!tywDir.isEmpty()) {
        QDir().mkpath(tywDir);
        for (const Game& g : played) {
            save::SaveGame sg;
            sg.appVersion = appVersion();
            sg.fingerprint = data.data->fingerprint;
            sg.scenario = g.scenario;
            sg.options = rules::optionList(options);
            sg.seed = g.seed;
            sg.actions = g.result.actionTexts;
            sg.result = g.result.finished ? g.result.result : QString();
            QString error;
            if (!save::writeFile(QStringLiteral("%1/%2-%3.tyw").arg(tywDir, g.scenario).arg(g.seed), sg,
                                 &error)) {
                err() << "westphalia-cli fuzz: " << error << "\n";
                return 1;
            }
        }
        out() << "saves written in " << tywDir << "\n";
    }
    // ---- end issue 7
    out() << (failures ? "FAILED" : "OK") << "\n";
    return failures ? 1 : 0;
}

} // namespace wp::cli
