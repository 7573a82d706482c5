// westphalia-cli tactical tvbd: load a battle scenario, replay actions or auto-resolve, print log and result.
#include "cli_util.h"
#include "data/words.h"
#include "tactical/tactical_game.h"
#include "tactical/tercios.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <thread>
#include <vector>

#include <QFile>

namespace wp::cli {

namespace {

const char* kTacticalUsage =
    R"(usage: westphalia-cli tactical tvbd --scenario FILE [--seed N] [--auto] [--log]
           [--actions FILE] [--legal] [--policy tactical|quick|simple|random|A/B]
           [--games N] [--odds N] [--bench N] [--jobs N]
  Loads a Tilly's Very Bad Day battle scenario (JSON, docs/tvbd.md).
  --auto            both sides played by the policy to the end; prints the result
  --actions FILE    apply these actions (one per line, docs/tvbd.md notation) first
  --legal           print the legal actions at the end
  --log             print the battle log
  --policy P        tactical (the default: the tactical AI, docs/tvbd.md "AI"), quick (its cheaper
                    level; its odds differ, docs/tvbd.md "The quick level"), simple or random for
                    both sides; A/B gives each side its own (tactical/simple: side A tactical against
                    the simple policy)
  --games N         with --auto: resolve N battles (seeds S, S+1, ...) and print win rates
  --odds N          the same as --auto --games N, with 95% confidence intervals
  --bench N         auto-resolve N battles and print the time per battle
  --jobs N          with --games/--odds/--bench: play on N threads (default: the number of
                    cores; the results do not depend on it)
)";

QString sideResult(const wp::tactical::BattleState& s, const wp::tactical::AutoResult& r, int side) {
    return QStringLiteral("%1: lost %2 of %3 (breakpoint %4): %5 routed, %6 Cannon overrun, %7 lost")
        .arg(s.sideName[side])
        .arg(r.lost[side])
        .arg(s.originalUnits[side])
        .arg(wp::tactical::TvbdEngine::armyBreakpoint(s.originalUnits[side]))
        .arg(r.routed[side])
        .arg(r.eliminated[side])
        .arg(wp::counted(r.commandersLost[side], "Commander"));
}

// The options both rulesets' commands share (--seed, --games, --odds, --bench, --jobs, --policy), read once.
struct RunOptions {
    quint64 seed = 1;
    int games = 1;
    int bench = 0;
    int jobs = std::clamp(static_cast<int>(std::thread::hardware_concurrency()), 1, 64); // the cores
    bool autoPlay = false;
    bool odds = false;
    std::array<wp::tactical::Policy, 2> policy{};
};

// Reads the shared options. `policies`: the ruleset's policy names (docs); `fallback`: its default policy;
// `others`: a note for a name of the other ruleset's. *problem gets the first bad value.
RunOptions readRunOptions(ArgParser& p, const QStringList& policies, wp::tactical::Policy fallback,
                          const QString& others, QString* problem) {
    RunOptions o;
    const QString seedText = p.value(QStringLiteral("--seed"));
    const QString policyName = p.value(QStringLiteral("--policy"));
    const QString gamesText = p.value(QStringLiteral("--games"));
    const QString oddsText = p.value(QStringLiteral("--odds"));
    const QString benchText = p.value(QStringLiteral("--bench"));
    const QString jobsText = p.value(QStringLiteral("--jobs"));
    o.autoPlay = p.flag(QStringLiteral("--auto"));
    bool ok = true;
    if (!seedText.isEmpty()) {
        o.seed = seedText.toULongLong(&ok);
        if (!ok)
            *problem = QStringLiteral("--seed '%1' is not a non-negative whole number").arg(seedText);
    }
    // a whole number lo..hi for the option, else the problem
    auto count = [&](const QString& text, const char* name, int lo, int hi, int fallbackValue) {
        if (text.isEmpty())
            return fallbackValue;
        const int v = text.toInt(&ok);
        if (!ok || v < lo || v > hi) {
            *problem =
                QStringLiteral("%1 '%2' must be %3..%4").arg(QLatin1String(name), text).arg(lo).arg(hi);
            return fallbackValue;
        }
        return v;
    };
    o.games = count(gamesText, "--games", 1, 100000, 1);
    if (!oddsText.isEmpty()) {
        o.games = count(oddsText, "--odds", 1, 100000, 1);
        o.autoPlay = o.odds = true;
    }
    o.bench = count(benchText, "--bench", 1, 100000, 0);
    o.jobs = count(jobsText, "--jobs", 1, 64, o.jobs);
    o.policy = {fallback, fallback};
    const QStringList names = policyName.split(QLatin1Char('/'));
    for (int side = 0; side < 2 && !policyName.isEmpty(); ++side) {
        const QString one = names.value(names.size() == 2 ? side : 0);
        const auto policy = wp::tactical::policyFromName(one);
        if (names.size() > 2 || !policy || !policies.contains(one)) {
            *problem =
                QStringLiteral("--policy '%1' is not %2 or A/B (e.g. %3/%4)")
                    .arg(policyName, policies.join(QStringLiteral(", ")), policies.front(), policies.back());
            if (policy && !policies.contains(one) && !others.isEmpty())
                *problem += QStringLiteral(": ") + others;
            break;
        }
        o.policy[side] = *policy;
    }
    return o;
}

// Plays battle g = 0..n-1 with `play(g)` on `jobs` threads (each result in its own element: the results
// do not depend on the threads).
template <class Play> QList<wp::tactical::AutoResult> playMany(int n, int jobs, Play play) {
    QList<wp::tactical::AutoResult> results(n);
    wp::tactical::AutoResult* cells = results.data(); // each thread writes its own elements (no detach)
    auto work = [&, cells](int from) {
        for (int g = from; g < n; g += jobs)
            cells[g] = play(g);
    };
    std::vector<std::thread> threads;
    for (int j = 1; j < jobs; ++j)
        threads.emplace_back(work, j);
    work(0);
    for (std::thread& th : threads)
        th.join();
    return results;
}

// Applies the actions of FILE (one per line, '#' comments) to the game; false after printing the line
// refused.
template <class Game> bool applyActionsFile(Game& game, const QString& actionsFile) {
    if (actionsFile.isEmpty())
        return true;
    QFile f(actionsFile);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        err() << "westphalia-cli: " << actionsFile << ": cannot open: " << f.errorString() << "\n";
        return false;
    }
    int lineNo = 0;
    QString error;
    while (!f.atEnd()) {
        ++lineNo;
        const QString line = QString::fromUtf8(f.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        if (!game.applyText(line, &error)) {
            err() << "westphalia-cli: " << actionsFile << ":" << lineNo << ": " << error << "\n";
            return false;
        }
    }
    return true;
}

const char* kTerciosUsage =
    R"(usage: westphalia-cli tactical tercios --scenario FILE [--seed N] [--auto] [--log]
           [--actions FILE] [--legal] [--policy simple|random|A/B] [--games N] [--odds N]
           [--bench N] [--jobs N] [--view A|B]
  Loads a Brevis Editio: Tercios battle scenario (JSON, docs/tercios.md).
  --auto            both sides played by the policy to the end; prints the result
  --actions FILE    apply these actions (one per line, docs/tercios.md notation) first
  --legal           print the legal actions at the end
  --log             print the battle log
  --view A|B        print the units as that side sees them (the other side's cards hidden)
  --policy P        simple (the default, Tercios' strongest: the tactical AI plays TVBD only) or
                    random for both sides; A/B gives each side its own (simple/random: side A simple
                    against random play)
  --games N         with --auto: resolve N battles (seeds S, S+1, ...) and print win rates
  --odds N          the same as --auto --games N: each side's chance of winning
  --bench N         auto-resolve N battles and print battles per second
  --jobs N          with --games/--odds/--bench: play on N threads (default: the number of
                    cores; the results do not depend on it)
)";

int terciosCommand(const QStringList& args) {
    using namespace wp::tactical;
    ArgParser p(args, kTerciosUsage);
    if (p.helpRequested()) {
        out() << kTerciosUsage;
        return 0;
    }
    const QString scenario = p.value(QStringLiteral("--scenario"));
    const QString actionsFile = p.value(QStringLiteral("--actions"));
    const QString viewText = p.value(QStringLiteral("--view"));
    const bool showLog = p.flag(QStringLiteral("--log"));
    const bool showLegal = p.flag(QStringLiteral("--legal"));
    QString problem;
    const RunOptions o = readRunOptions(
        p, {QStringLiteral("simple"), QStringLiteral("random")}, Policy::Simple,
        QStringLiteral(
            "the tactical AI plays TVBD only; Tercios' strongest policy is simple (docs/tercios.md)"),
        &problem);
    const std::array<bool, 2> random{o.policy[0] == Policy::Random, o.policy[1] == Policy::Random};
    int view = -1;
    if (!viewText.isEmpty()) {
        if (viewText.compare(QLatin1String("A"), Qt::CaseInsensitive) == 0)
            view = 0;
        else if (viewText.compare(QLatin1String("B"), Qt::CaseInsensitive) == 0)
            view = 1;
        else
            problem = QStringLiteral("--view '%1' is not A or B").arg(viewText);
    }
    if (scenario.isEmpty() && problem.isEmpty())
        problem = QStringLiteral("--scenario FILE is needed");
    if (!p.finish(problem))
        return 2;

    QString error;
    const TerciosRules* rules = defaultTerciosRules(&error);
    if (!rules) {
        err() << "westphalia-cli: " << error << "\n";
        return 1;
    }
    TerciosState start;
    if (!loadTerciosScenario(scenario, *rules, &start, &error)) {
        err() << "westphalia-cli: " << error << "\n";
        return 1;
    }
    TerciosEngine engine(*rules);

    if (o.bench > 0 || o.games > 1) {
        if (o.games > 1 && !o.autoPlay) {
            err() << "westphalia-cli: --games needs --auto\n";
            return 2;
        }
        const int n = o.bench > 0 ? o.bench : o.games;
        int wins[3] = {0, 0, 0}, unfinished = 0;
        double turns = 0, actions = 0;
        QElapsedTimer timer;
        timer.start();
        const QList<AutoResult> results = playMany(
            n, o.jobs, [&](int g) { return resolveTercios(engine, start, o.seed + quint64(g), random); });
        for (const AutoResult& r : results) {
            if (r.winner < 0)
                ++unfinished;
            else
                ++wins[r.winner];
            turns += r.turns;
            actions += r.actions;
        }
        const double secs = std::max(1e-9, double(timer.nsecsElapsed()) / 1e9);
        out() << "battles: " << n << "\n";
        for (int side = 0; side < 2; ++side)
            out() << start.sideName[side] << " wins: " << wins[side] << " ("
                  << QString::number(100.0 * wins[side] / n, 'f', 1) << "%)\n";
        out() << "draws: " << wins[2] << "\nunfinished: " << unfinished
              << "\naverage turns: " << QString::number(turns / n, 'f', 2)
              << "\naverage actions: " << QString::number(actions / n, 'f', 1) << "\n";
        if (o.bench > 0)
            out() << "time: " << QString::number(secs, 'f', 3)
                  << " s\nbattles per second: " << QString::number(n / secs, 'f', 1)
                  << "\nms per battle: " << QString::number(1000.0 * secs / n, 'f', 2) << "\n";
        return unfinished ? 1 : 0;
    }

    TerciosGame game(engine, start, o.seed);
    if (!applyActionsFile(game, actionsFile))
        return 1;
    AutoResult r = summarize(game.state());
    if (o.autoPlay)
        r = autoResolve(game, random, o.seed);
    const TerciosState& s = game.state();
    if (showLog)
        for (const QString& l : s.log)
            out() << l << "\n";
    if (view >= 0) {
        const TerciosState v = viewFor(s, view);
        out() << "as seen by " << s.sideName[view] << ":\n";
        for (const TUnit& u : v.units)
            out() << "  " << u.id << " " << s.sideName[u.side] << " " << u.profile << " at ("
                  << QString::number(u.pose.c.x, 'f', 1) << ", " << QString::number(u.pose.c.y, 'f', 1)
                  << ") facing " << QString::number(u.pose.facing, 'f', 0) << " wear " << u.wear
                  << (u.disordered ? " disordered" : "") << (u.onTable() ? "" : " destroyed") << " card "
                  << cardName(u.card) << (u.activated ? " activated" : "") << "\n";
    }
    if (s.over()) {
        out() << "result: "
              << (s.winner == 2 ? QStringLiteral("draw") : s.sideName[s.winner] + QStringLiteral(" wins"))
              << " (" << s.level << ")\n";
        out() << "reason: " << s.resultReason << "\n";
    } else {
        out() << "result: not finished\n"
              << "to act: " << s.sideName[engine.actor(s)] << ": " << engine.prompt(s) << "\n";
        if (o.autoPlay) {
            err() << "westphalia-cli: the policy did not finish the battle: " << r.reason << "\n";
            return 1;
        }
    }
    out() << "turn: " << s.turn << "\n";
    for (int side = 0; side < 2; ++side)
        out() << s.sideName[side] << ": score " << s.score[side] << ", units lost " << s.destroyed[side]
              << "\n";
    out() << "actions: " << game.actions().size() << "\n";
    if (showLegal && !s.over())
        for (const TcAction& a : engine.legalActions(s))
            out() << "  " << actionText(s, a) << "\n";
    return 0;
}

} // namespace

int tacticalCommand(const QStringList& argsIn) {
    using namespace wp::tactical;
    QStringList args = argsIn;
    if (!args.isEmpty() && args.first() == QLatin1String("tercios"))
        return terciosCommand(args.mid(1));
    if (args.isEmpty() ||
        (args.first() != QLatin1String("tvbd") && !args.first().startsWith(QLatin1String("--")))) {
        err() << "westphalia-cli tactical: the rulesets are 'tvbd' and 'tercios'\n\n"
              << kTacticalUsage << "\n"
              << kTerciosUsage;
        return 2;
    }
    if (args.first() == QLatin1String("tvbd"))
        args.removeFirst();
    ArgParser p(args, kTacticalUsage);
    if (p.helpRequested()) {
        out() << kTacticalUsage;
        return 0;
    }
    const QString scenario = p.value(QStringLiteral("--scenario"));
    const QString actionsFile = p.value(QStringLiteral("--actions"));
    const bool showLog = p.flag(QStringLiteral("--log"));
    const bool showLegal = p.flag(QStringLiteral("--legal"));
    QString problem;
    const RunOptions o = readRunOptions(p,
                                        {QStringLiteral("tactical"), QStringLiteral("quick"),
                                         QStringLiteral("simple"), QStringLiteral("random")},
                                        Policy::Tactical, {}, &problem);
    if (scenario.isEmpty() && problem.isEmpty())
        problem = QStringLiteral("--scenario FILE is needed");
    if (!p.finish(problem))
        return 2;

    QString error;
    const TvbdRules* rules = defaultTvbdRules(&error);
    if (!rules) {
        err() << "westphalia-cli: " << error << "\n";
        return 1;
    }
    BattleState start;
    if (!loadScenario(scenario, *rules, &start, &error)) {
        err() << "westphalia-cli: " << error << "\n";
        return 1;
    }
    TvbdEngine engine(*rules);

    if (o.bench > 0 || o.games > 1) {
        if (o.games > 1 && !o.autoPlay) {
            err() << "westphalia-cli: --games needs --auto\n";
            return 2;
        }
        const int n = o.bench > 0 ? o.bench : o.games;
        int wins[3] = {0, 0, 0}, unfinished = 0;
        double turns = 0, actions = 0;
        QElapsedTimer timer;
        timer.start();
        const std::clock_t cpu0 = std::clock();
        const QList<AutoResult> results = playMany(
            n, o.jobs, [&](int g) { return resolveTvbd(engine, start, o.seed + quint64(g), o.policy); });
        for (const AutoResult& r : results) {
            if (r.winner < 0)
                ++unfinished;
            else
                ++wins[r.winner];
            turns += r.turns;
            actions += r.actions;
        }
        const double secs = std::max(1e-9, double(timer.nsecsElapsed()) / 1e9);
        out() << "battles: " << n << "\n";
        for (int side = 0; side < 2; ++side) {
            const double pw = double(wins[side]) / n;
            const double half = 1.96 * std::sqrt(pw * (1 - pw) / n); // normal approximation, 95%
            out() << start.sideName[side] << " wins: " << wins[side] << " ("
                  << QString::number(100.0 * pw, 'f', 1) << "% +/- " << QString::number(100.0 * half, 'f', 1)
                  << ")\n";
        }
        out() << "draws: " << wins[2] << "\nunfinished: " << unfinished
              << "\naverage turns: " << QString::number(turns / n, 'f', 2)
              << "\naverage actions: " << QString::number(actions / n, 'f', 1) << "\n";
        out() << "policy: " << policyName(o.policy[0]) << " / " << policyName(o.policy[1]) << "\n";
        if (o.bench > 0 || o.odds)
            out() << "time: " << QString::number(secs, 'f', 3)
                  << " s\nms per battle: " << QString::number(1000.0 * secs / n, 'f', 2)
                  << "\ncpu: " << QString::number(double(std::clock() - cpu0) / CLOCKS_PER_SEC, 'f', 3)
                  << " s (all threads)\n";
        return unfinished ? 1 : 0;
    }

    TacticalGame game(engine, start, o.seed);
    if (!applyActionsFile(game, actionsFile))
        return 1;
    AutoResult r = summarize(game.state());
    if (o.autoPlay)
        r = autoResolve(game, o.policy, o.seed);
    const BattleState& s = game.state();
    if (showLog)
        for (const QString& l : s.log)
            out() << l << "\n";
    if (s.over()) {
        out() << "result: "
              << (s.winner == 2 ? QStringLiteral("draw") : s.sideName[s.winner] + QStringLiteral(" wins"))
              << "\n";
        out() << "reason: " << s.resultReason << "\n";
    } else {
        out() << "result: not finished\n"
              << "to act: " << s.sideName[engine.actor(s)] << ": " << engine.prompt(s) << "\n";
        if (o.autoPlay) {
            err() << "westphalia-cli: the policy did not finish the battle: " << r.reason << "\n";
            return 1;
        }
    }
    out() << "turns: " << s.turn << "\n";
    if (o.autoPlay)
        out() << "policy: " << policyName(o.policy[0]) << " / " << policyName(o.policy[1]) << "\n";
    out() << sideResult(s, r, 0) << "\n" << sideResult(s, r, 1) << "\n";
    out() << "actions: " << game.actions().size() << "\n";
    if (showLegal && !s.over())
        for (const TAction& a : engine.legalActions(s))
            out() << "  " << actionText(s, a) << "\n";
    return 0;
}

} // namespace wp::cli
