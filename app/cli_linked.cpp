// westphalia-cli battle-link (issue 12, docs/linked-battles.md): a campaign battle that went to the table
// comes back as the engine's table-result actions — auto-resolved in TVBD, or from a hand-entered form —
// and the balance measurement of the mapping against the Combat Results Table (also `battle calibrate`).
#include "cli_game.h"

#include "battle/linked.h"
#include "data/words.h"
#include "rules/action.h"
#include "rules/state.h"
#include "save/savefile.h"
#include "tactical/battle.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <optional>
#include <variant>

namespace wp::cli {

namespace {

const char* kLinkUsage =
    R"(usage: westphalia-cli battle-link auto GAME [--battle N] [--rules tvbd|tercios] [--out FILE.json] [--log]
       westphalia-cli battle-link form GAME [--battle N] --form FILE
       westphalia-cli battle-link verify GAME [--battle N]
       westphalia-cli battle-link replay GAME --battle N [--out FILE.json] [--log]
       westphalia-cli battle-link report GAME
       westphalia-cli battle-link calibrate --rules tvbd|tercios [--games N] [--seed S]
                                   [--base B] [--scale X] [--routed-weight W] [--pursuit P]
                                   [--loser-min M] [--leader-modifier D] [--tune]
       westphalia-cli battle calibrate|report ...   (the same as battle-link calibrate|report)
  GAME       --save FILE.tyw, or --scenario ID|POSITION [--option K=V]... [--seed N] --actions FILE (one
             action a line, docs/actions.md)
  auto       replays the game up to a battle waiting for its table result (option
             battles=tvbd|tercios|ask; --battle N: the game's N-th table battle, as the report numbers
             them), exports it, auto-resolves it with the seed the game state gives (linkedBattleSeed: the
             other player gets the same battle) and prints the result and the actions to append
             ("battle-result ...", "battle-leader ..."); --out writes the battle's tactical scenario
             (play it with battle run), --log prints the tactical battle's log
  form       the same from a hand-entered result (docs/linked-battles.md "The form")
  verify     replays up to a table result waiting for the defender's confirmation and checks it: with
             the battle's record (attached to the result: fought on screen or auto-resolved) that the
             record replays to it, without one that it is the auto-resolved battle (exit 1 when not)
  replay     the game's N-th table battle again: its scenario regenerated from the game (--out writes
             it as FILE-scenario.json) and, with the battle's record, the tactical battle record FILE.json
             the tactical window opens (westphalia --battle FILE.json) and with --log its battle log
  report     every battle of a game: turn, place, attacker, CRT or table, Loss Numbers, winner, leaders;
             for a table battle the result entered, its seed, its record's check and the command that
             opens its scenario, record and log (exit 1 when a record does not give its result)
  calibrate  N battles between random forces, each by the CRT and auto-resolved on the table with the
             mapping; prints the winners, Loss Numbers and leader losses side by side (--tune: searches
             the mapping's parameters for the closest fit on the same battles)
)";

bool number(const QString& text, const char* name, double lo, double hi, double* out, QString* problem) {
    if (text.isEmpty())
        return true;
    bool ok = false;
    const double v = text.toDouble(&ok);
    if (!ok || v < lo || v > hi) {
        *problem = QStringLiteral("%1 '%2' must be a number from %3 to %4")
                       .arg(QLatin1String(name), text)
                       .arg(lo)
                       .arg(hi);
        return false;
    }
    *out = v;
    return true;
}

// The game a subcommand works on: --save FILE.tyw (its scenario, options, seed and actions), or --scenario
// with --option, --seed and --actions FILE (one action a line, '#' comments). `where` names each action's
// place for messages.
struct GameSource {
    GameSetup setup;
    QStringList actions;
    QStringList where;
};

bool readGameSource(ArgParser& p, GameSource* g, QString* problem) {
    const QString saveFile = p.value(QStringLiteral("--save"));
    const QString actionsFile = p.value(QStringLiteral("--actions"));
    g->setup.scenario = p.value(QStringLiteral("--scenario"));
    g->setup.options = allValues(p, QStringLiteral("--option"));
    if (const QString seedText = p.value(QStringLiteral("--seed")); !seedText.isEmpty()) {
        bool ok = false;
        g->setup.seed = seedText.toULongLong(&ok);
        if (!ok) {
            *problem = QStringLiteral("--seed '%1' is not a non-negative whole number").arg(seedText);
            return false;
        }
    }
    if (saveFile.isEmpty() == (g->setup.scenario.isEmpty() || actionsFile.isEmpty())) {
        *problem = QStringLiteral("give either --save FILE.tyw or --scenario ID|POSITION and --actions FILE");
        return false;
    }
    g->where = QStringList{g->setup.scenario.isEmpty() ? saveFile : actionsFile};
    return true;
}

// Loads the save or the actions file named by readGameSource.
bool loadGameSource(GameSource* g, QString* error) {
    const QString file = g->where.front();
    g->where.clear();
    if (g->setup.scenario.isEmpty()) {
        const auto save = save::readFile(file, error);
        if (!save)
            return false;
        g->setup.scenario = save->scenario;
        g->setup.options = save->options;
        g->setup.seed = save->seed;
        g->actions = save->actions;
        for (qsizetype i = 0; i < g->actions.size(); ++i)
            g->where << QStringLiteral("%1: action %2").arg(file).arg(i + 1);
        return true;
    }
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        *error = QStringLiteral("cannot read %1: %2").arg(file, f.errorString());
        return false;
    }
    const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QString text = lines[i].section(QLatin1Char('#'), 0, 0).trimmed();
        if (text.isEmpty())
            continue;
        g->actions << text;
        g->where << QStringLiteral("%1:%2").arg(file).arg(i + 1);
    }
    return true;
}

// Replays the game until a battle waits for its table result (or, with `confirm`, for the defender's
// confirmation of it): after all the actions, or with `battle` N > 0 at the N-th table battle's result
// (numbered as the battle report numbers them).
int replayToTable(const rules::Engine& engine, rules::GameState& s, const GameSource& g, QString* error,
                  bool confirm = false, int battle = 0, qsizetype* stop = nullptr) {
    auto waiting = [&] {
        if (s.frames.empty() || !std::holds_alternative<rules::CombatFrame>(s.frames.back()))
            return false;
        for (const rules::Action& a : engine.legalActions(s))
            if (a.kind == rules::ActionKind::Choose && (confirm ? a.target == rules::kBattleConfirm
                                                                : (a.target == rules::kBattleWonByAttacker ||
                                                                   a.target == rules::kBattleWonByDefender)))
                return true;
        return false;
    };
    int seen = 0;
    bool counted = false; // the table battle on top has been counted
    for (qsizetype i = 0; i < g.actions.size(); ++i) {
        const auto* f = s.frames.empty() ? nullptr : std::get_if<rules::CombatFrame>(&s.frames.back());
        if (!f || f->table <= 0)
            counted = false;
        else if (!counted && g.actions[i].startsWith(QLatin1String("battle-result"))) {
            counted = true;
            if (++seen == battle && !confirm) {
                if (stop)
                    *stop = i;
                return 0;
            }
        }
        if (battle > 0 && seen == battle && confirm && g.actions[i] == QLatin1String("battle confirm")) {
            if (stop)
                *stop = i;
            return 0;
        }
        QString why;
        const auto a = rules::parseAction(engine.data(), s, g.actions[i], &why);
        if (!a) {
            *error = QStringLiteral("%1: cannot read '%2': %3").arg(g.where[i], g.actions[i], why);
            return 1;
        }
        const rules::ApplyResult r = engine.apply(s, *a);
        if (!r.ok) {
            *error = QStringLiteral("%1: illegal action '%2': %3").arg(g.where[i], g.actions[i], r.error);
            return 1;
        }
    }
    if (battle > 0) {
        *error = QStringLiteral("the game has %1, not battle %2")
                     .arg(wp::counted(seen, "table battle"))
                     .arg(battle);
        return 1;
    }
    if (stop)
        *stop = g.actions.size();
    if (!waiting()) {
        *error = QStringLiteral("after the actions no battle waits for %1 (%2); the game needs the option "
                                "battles=tvbd, tercios or ask, or give --battle N for a past battle")
                     .arg(confirm ? QStringLiteral("the confirmation of its table result")
                                  : QStringLiteral("a table result"),
                          engine.prompt(s));
        return 1;
    }
    return 0;
}

// A game replayed to one of its table battles: the data, the engine, the state and the index of the action
// where the replay stopped.
struct AtTable {
    LoadResult data;
    std::optional<rules::Engine> engine;
    rules::GameState s;
    qsizetype stop = 0;
};

// Loads the data and the game of `g`, starts it and replays it to a table battle (replayToTable: `confirm`,
// `battle`). 0, or the exit code with the problem printed.
int openAtTable(GameSource& g, bool confirm, int battle, AtTable* t) {
    if (!loadData({}, t->data))
        return 1;
    t->engine.emplace(t->data.data);
    QString error;
    int rc = loadGameSource(&g, &error) ? startGame(*t->engine, g.setup, t->s, nullptr, &error) : 1;
    if (rc == 0)
        rc = replayToTable(*t->engine, t->s, g, &error, confirm, battle, &t->stop);
    if (rc != 0)
        err() << "westphalia-cli battle-link: " << error << "\n";
    return rc;
}

void printTable(const battle::TableResult& t) {
    static const char* who[2] = {"attacker", "defender"};
    out() << "table result: "
          << (t.winner == 0   ? "the attacker wins"
              : t.winner == 1 ? "the defender wins"
              : t.winner == 2 ? "draw"
                              : "not finished")
          << (t.reason.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(t.reason)) << "\n";
    for (int i = 0; i < 2; ++i)
        out() << "  " << who[i] << ": " << t.sides[i].units << " units, " << t.sides[i].destroyed
              << " destroyed, " << t.sides[i].routed << " routed, " << t.sides[i].remaining << " remaining"
              << (t.sides[i].leadersLost.isEmpty()
                      ? QString()
                      : QStringLiteral("; lost: ") + t.sides[i].leadersLost.join(", "))
              << "\n";
}

enum class Mode { Auto, Form, Verify };

int resultCommand(ArgParser& p, Mode mode) {
    const bool autoMode = mode == Mode::Auto;
    const QString rulesName = autoMode ? p.value(QStringLiteral("--rules")) : QString();
    const QString formFile = mode == Mode::Form ? p.value(QStringLiteral("--form")) : QString();
    const QString outFile = autoMode ? p.value(QStringLiteral("--out")) : QString();
    const QString battleText = p.value(QStringLiteral("--battle"));
    const bool showLog = autoMode && p.flag(QStringLiteral("--log"));
    GameSource game;
    QString problem;
    int battleNo = 0;
    if (!battleText.isEmpty()) {
        bool ok = false;
        battleNo = battleText.toInt(&ok);
        if (!ok || battleNo < 1)
            problem =
                QStringLiteral("--battle '%1' must be a table battle's number (1, 2, ...)").arg(battleText);
    }
    if (problem.isEmpty())
        readGameSource(p, &game, &problem);
    if (problem.isEmpty() && mode == Mode::Form && formFile.isEmpty())
        problem = QStringLiteral("--form FILE is needed");
    if (!p.finish(problem))
        return 2;
    AtTable t;
    if (const int rc = openAtTable(game, mode == Mode::Verify, battleNo, &t); rc != 0)
        return rc;
    const LoadResult& data = t.data;
    rules::GameState& s = t.s;
    const qsizetype stop = t.stop;
    QString error;
    if (mode == Mode::Verify) {
        // The defender's check before "battle confirm": the battle's record replayed, or without one the
        // same battle auto-resolved here.
        const QString attachment = battle::enteredAttachment(game.actions.mid(0, stop));
        if (!attachment.isEmpty()) {
            battle::RecordCheck check;
            if (!battle::matchesRecord(*data.data, s, attachment, &check, &error)) {
                out() << "the result entered is NOT what its record gives: " << error << "\n";
                return 1;
            }
            out() << "the result entered is what its record gives: "
                  << (check.record.by == QLatin1String("screen")
                          ? QStringLiteral("the battle fought on screen, %1 tactical actions replayed")
                                .arg(check.record.moves.size())
                      : check.record.by == QLatin1String("hand")
                          ? QStringLiteral("the form of a real table, %1 units").arg(check.units.size())
                          : QStringLiteral("the auto-resolved battle"))
                  << " (" << check.end << "; battle seed " << check.record.seed << ")\n";
            if (check.record.by == QLatin1String("hand"))
                for (const QString& l : check.log.mid(1))
                    out() << "  | " << l << "\n";
            return 0;
        }
        if (!battle::matchesAutoResolve(*data.data, s, &error)) {
            out() << "the result entered is NOT the auto-resolved battle: " << error << "\n";
            return 1;
        }
        out() << "the result entered is the auto-resolved battle (seed " << battle::linkedBattleSeed(s)
              << ")\n";
        return 0;
    }
    const auto& f = std::get<rules::CombatFrame>(s.frames.back());
    const QString table =
        f.table == rules::kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    battle::LinkedResult res;
    battle::TableResult tr;
    if (autoMode) {
        const QString r = rulesName.isEmpty() ? table : rulesName;
        const quint64 seed = battle::linkedBattleSeed(s);
        QStringList log;
        QJsonObject scenario;
        if (!battle::autoResolveLinked(*data.data, s, r, seed, battle::defaultMapping(r), &res, &tr, &error,
                                       &log) ||
            (!outFile.isEmpty() && !battle::exportLinked(*data.data, s, r, seed, &scenario, &error))) {
            err() << "westphalia-cli battle-link: " << error << "\n";
            return 1;
        }
        if (!outFile.isEmpty()) {
            QSaveFile sf(outFile);
            if (!sf.open(QIODevice::WriteOnly) || sf.write(QJsonDocument(scenario).toJson()) < 0 ||
                !sf.commit()) {
                err() << "westphalia-cli battle-link: cannot write " << outFile << ": " << sf.errorString()
                      << "\n";
                return 1;
            }
            out() << "scenario: " << outFile << " (" << r << "; westphalia-cli battle run " << outFile
                  << " to play it)\n";
        }
        if (showLog)
            for (const QString& l : log)
                out() << "  | " << l << "\n";
        out() << "battle seed: " << seed << "\n";
    } else {
        QFile ff(formFile);
        if (!ff.open(QIODevice::ReadOnly | QIODevice::Text)) {
            err() << "westphalia-cli battle-link: cannot read " << formFile << ": " << ff.errorString()
                  << "\n";
            return 1;
        }
        if (!battle::parseTableForm(QString::fromUtf8(ff.readAll()), formFile, &tr, &error) ||
            !battle::mapResult(*data.data, s, tr, battle::defaultMapping(table), &res, &error)) {
            err() << "westphalia-cli battle-link: " << error << "\n";
            return 1;
        }
    }
    printTable(tr);
    out() << "mapping: " << res.why << "\n";
    out() << "actions (then the defender's 'battle confirm'):\n";
    for (const QString& a : res.actions(*data.data))
        out() << a << "\n";
    return 0;
}

// `battle-link replay`: the N-th table battle again — its scenario regenerated from the game and, with the
// battle's record, the tactical battle record the tactical window opens and its log (docs "History").
int replayCommand(ArgParser& p) {
    const QString battleText = p.value(QStringLiteral("--battle"));
    const QString outFile = p.value(QStringLiteral("--out"));
    const bool showLog = p.flag(QStringLiteral("--log"));
    GameSource game;
    QString problem;
    bool ok = false;
    const int battleNo = battleText.toInt(&ok);
    if (!ok || battleNo < 1)
        problem = QStringLiteral("--battle N is needed: a table battle's number (1, 2, ...)");
    if (problem.isEmpty())
        readGameSource(p, &game, &problem);
    if (!p.finish(problem))
        return 2;
    AtTable t;
    if (const int rc = openAtTable(game, false, battleNo, &t); rc != 0)
        return rc;
    const LoadResult& data = t.data;
    rules::GameState& s = t.s;
    const qsizetype stop = t.stop;
    QString error;
    const auto& f = std::get<rules::CombatFrame>(s.frames.back());
    const QString rulesName =
        f.table == rules::kBattlesTercios ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    QString attachment;
    rules::splitAttachment(game.actions[stop], &attachment);
    battle::TableRecord record;
    battle::RecordCheck check;
    const bool hasRecord = !attachment.isEmpty();
    if (hasRecord && (!battle::decodeRecord(attachment, &record, &error) ||
                      !battle::replayRecord(*data.data, s, record, &check, &error))) {
        err() << "westphalia-cli battle-link: " << game.where[stop] << ": the battle's record: " << error
              << "\n";
        return 1;
    }
    if (!hasRecord && !battle::exportLinked(*data.data, s, rulesName, battle::linkedBattleSeed(s),
                                            &check.scenarioJson, &error)) {
        err() << "westphalia-cli battle-link: " << error << "\n";
        return 1;
    }
    out() << "table battle " << battleNo << ": " << rulesName << ", battle seed "
          << battle::linkedBattleSeed(s) << "; "
          << (hasRecord
                  ? (record.by == QLatin1String("screen")
                         ? QStringLiteral("fought on screen, %1 tactical actions").arg(record.moves.size())
                     : record.by == QLatin1String("hand")
                         ? QStringLiteral("a real table's result entered in the form (no tactical battle)")
                         : QStringLiteral("auto-resolved"))
                  : QStringLiteral("no record: a real table's result (the scenario only)"))
          << "\n";
    if (hasRecord)
        out() << "end: " << check.end
              << "; result: " << check.expected.actions(*data.data).join(QStringLiteral("; ")) << "\n";
    if (!outFile.isEmpty()) {
        const QFileInfo fi(outFile);
        const QString scenarioFile = fi.completeBaseName() + QStringLiteral("-scenario.json");
        const QString scenarioPath = fi.dir().filePath(scenarioFile);
        auto write = [&](const QString& path, const QJsonObject& o) {
            QSaveFile sf(path);
            if (!sf.open(QIODevice::WriteOnly) || sf.write(QJsonDocument(o).toJson()) < 0 || !sf.commit()) {
                err() << "westphalia-cli battle-link: cannot write " << path << ": " << sf.errorString()
                      << "\n";
                return false;
            }
            return true;
        };
        const bool fought = hasRecord && record.by != QLatin1String("hand"); // a tactical battle to open
        if (!write(scenarioPath, check.scenarioJson) ||
            (fought && !write(outFile, battle::tacticalBattleRecord(rulesName, battle::linkedBattleSeed(s),
                                                                    scenarioFile, check.played))))
            return 1;
        out() << "scenario: " << scenarioPath << "\n";
        if (fought)
            out() << "battle record: " << outFile << " (westphalia --battle " << outFile << " opens it)\n";
    }
    if (showLog)
        for (const QString& l : check.log)
            out() << "  | " << l << "\n";
    return 0;
}

struct Stats {
    double attackerWins = 0;
    double meanLoss[2] = {0, 0};
    double sdLoss[2] = {0, 0};
    double meanWinnerLoss = 0, meanLoserLoss = 0;
    double leadersLost = 0; // 12.41 leader losses per battle
    double leaderRate = 0;  // the same per leader in the battle
    int hist[2][6] = {};    // Loss Number 0, 1-2, 3-4, 5-7, 8-10, 11+
};

int bucket(int loss) {
    return loss == 0 ? 0 : loss <= 2 ? 1 : loss <= 4 ? 2 : loss <= 7 ? 3 : loss <= 10 ? 4 : 5;
}

Stats stats(const QList<battle::CalibrationSample>& samples, bool crt, const battle::LinkMapping& m) {
    Stats st;
    const double n = static_cast<double>(std::max<qsizetype>(1, samples.size()));
    double sq[2] = {0, 0};
    double leaders = 0;
    for (const battle::CalibrationSample& smp : samples) {
        bool attWins = smp.crtAttackerWins;
        int loss[2] = {smp.crtLoss[0], smp.crtLoss[1]};
        if (!crt)
            battle::mapNumbers(smp.table, smp.capacity, smp.tieToAttacker, m, &attWins, loss);
        st.attackerWins += attWins ? 1 : 0;
        for (int i = 0; i < 2; ++i) {
            st.meanLoss[i] += loss[i];
            sq[i] += double(loss[i]) * loss[i];
            st.hist[i][bucket(loss[i])]++;
        }
        st.meanWinnerLoss += attWins ? loss[0] : loss[1];
        st.meanLoserLoss += attWins ? loss[1] : loss[0];
        const qsizetype lost =
            crt ? smp.crtLeadersLost
                : smp.table.sides[0].leadersLost.size() + smp.table.sides[1].leadersLost.size();
        st.leadersLost += static_cast<double>(lost);
        leaders += smp.leaders;
    }
    st.leaderRate = leaders > 0 ? st.leadersLost / leaders : 0.0;
    st.attackerWins /= n;
    st.meanWinnerLoss /= n;
    st.meanLoserLoss /= n;
    st.leadersLost /= n;
    for (int i = 0; i < 2; ++i) {
        st.meanLoss[i] /= n;
        st.sdLoss[i] = std::sqrt(std::max(0.0, sq[i] / n - st.meanLoss[i] * st.meanLoss[i]));
    }
    return st;
}

QString pct(double x) {
    return QString::number(100.0 * x, 'f', 1) + QLatin1Char('%');
}
QString num(double x) {
    return QString::number(x, 'f', 2);
}

QString mappingText(const battle::LinkMapping& m) {
    return QStringLiteral(
               "base %1, scale %2, routed weight %3, pursuit %4, loser minimum %5, leader modifier %6")
        .arg(m.base)
        .arg(m.scale)
        .arg(m.routedWeight)
        .arg(m.pursuit)
        .arg(m.loserMinimum)
        .arg(m.leaderModifier);
}

int calibrateCommand(ArgParser& p) {
    const QString rulesName = p.value(QStringLiteral("--rules"));
    const QString gamesText = p.value(QStringLiteral("--games"));
    const QString seedText = p.value(QStringLiteral("--seed"));
    battle::LinkMapping m = battle::defaultMapping(rulesName);
    QString problem;
    number(p.value(QStringLiteral("--base")), "--base", 0, 1, &m.base, &problem);
    number(p.value(QStringLiteral("--scale")), "--scale", 0, 10, &m.scale, &problem);
    number(p.value(QStringLiteral("--routed-weight")), "--routed-weight", 0, 1, &m.routedWeight, &problem);
    number(p.value(QStringLiteral("--pursuit")), "--pursuit", 0, 1, &m.pursuit, &problem);
    number(p.value(QStringLiteral("--loser-min")), "--loser-min", 0, 20, &m.loserMinimum, &problem);
    double leaderModifier = m.leaderModifier;
    number(p.value(QStringLiteral("--leader-modifier")), "--leader-modifier", -10, 3, &leaderModifier,
           &problem);
    if (leaderModifier != std::floor(leaderModifier) && problem.isEmpty())
        problem = QStringLiteral("--leader-modifier '%1' must be a whole number")
                      .arg(p.value(QStringLiteral("--leader-modifier")));
    m.leaderModifier = static_cast<int>(leaderModifier);
    const bool tune = p.flag(QStringLiteral("--tune"));
    int games = 200;
    quint64 seed = 1;
    if (!gamesText.isEmpty()) {
        bool ok = false;
        games = gamesText.toInt(&ok);
        if (!ok || games < 1 || games > 100000)
            problem = QStringLiteral("--games '%1' must be 1..100000").arg(gamesText);
    }
    if (!seedText.isEmpty()) {
        bool ok = false;
        seed = seedText.toULongLong(&ok);
        if (!ok)
            problem = QStringLiteral("--seed '%1' is not a non-negative whole number").arg(seedText);
    }
    if (problem.isEmpty() && rulesName != QLatin1String("tvbd") && rulesName != QLatin1String("tercios"))
        problem = QStringLiteral("--rules tvbd|tercios is needed");
    if (!p.finish(problem))
        return 2;
    LoadResult data;
    if (!loadData({}, data))
        return 1;
    const rules::Engine engine(data.data);
    QList<battle::CalibrationSample> samples;
    QString error;
    if (!battle::calibrate(engine, rulesName, games, seed, m, &samples, &error)) {
        err() << "westphalia-cli battle calibrate: " << error << "\n";
        return 1;
    }
    int draws = 0, unfinished = 0;
    double cfA = 0, cfD = 0;
    const double total = static_cast<double>(samples.size());
    for (const auto& smp : samples) {
        draws += smp.table.winner == 2;
        unfinished += smp.table.winner < 0;
        cfA += smp.attackerCf;
        cfD += smp.defenderCf;
    }
    out() << "battles: " << samples.size() << " (random forces at Leipzig, seed " << seed << "; mean CF "
          << num(cfA / total) << " attacking, " << num(cfD / total) << " defending)\n";
    out() << "table: " << rulesName << ", auto-resolved (" << battle::autoPolicy(rulesName)
          << " policy); draws " << draws << ", unfinished " << unfinished
          << " (both go by 12.28's tie rule)\n";
    out() << "mapping: " << mappingText(m) << "\n\n";
    const Stats c = stats(samples, true, m), t = stats(samples, false, m);
    auto row = [](const QString& name, const QString& a, const QString& b) {
        out() << name.leftJustified(34) << a.rightJustified(10) << b.rightJustified(10) << "\n";
    };
    row(QString(), QStringLiteral("CRT"), rulesName.toUpper());
    row(QStringLiteral("attacker wins"), pct(c.attackerWins), pct(t.attackerWins));
    row(QStringLiteral("mean Loss Number, attacker"), num(c.meanLoss[0]), num(t.meanLoss[0]));
    row(QStringLiteral("mean Loss Number, defender"), num(c.meanLoss[1]), num(t.meanLoss[1]));
    row(QStringLiteral("sd Loss Number, attacker"), num(c.sdLoss[0]), num(t.sdLoss[0]));
    row(QStringLiteral("sd Loss Number, defender"), num(c.sdLoss[1]), num(t.sdLoss[1]));
    row(QStringLiteral("mean Loss Number, winner"), num(c.meanWinnerLoss), num(t.meanWinnerLoss));
    row(QStringLiteral("mean Loss Number, loser"), num(c.meanLoserLoss), num(t.meanLoserLoss));
    row(QStringLiteral("leaders lost per battle (12.41)"), num(c.leadersLost), num(t.leadersLost));
    row(QStringLiteral("  the same per leader"), pct(c.leaderRate), pct(t.leaderRate));
    static const char* buckets[6] = {"0", "1-2", "3-4", "5-7", "8-10", "11+"};
    for (int i = 0; i < 2; ++i)
        for (int b = 0; b < 6; ++b)
            row(QStringLiteral("Loss Number %1, %2")
                    .arg(QLatin1String(buckets[b]), i == 0 ? "attacker" : "defender"),
                pct(c.hist[i][b] / total), pct(t.hist[i][b] / total));
    if (tune) {
        // The closest fit on the same battles: the squared differences of the Loss Number bands of both
        // sides, plus those of the winner's and the loser's mean Loss Number (scaled down).
        auto distance = [&](const Stats& x) {
            double d = 0;
            for (int i = 0; i < 2; ++i)
                for (int b = 0; b < 6; ++b) {
                    const double e = (c.hist[i][b] - x.hist[i][b]) / total;
                    d += e * e;
                }
            const double w = c.meanWinnerLoss - x.meanWinnerLoss, l = c.meanLoserLoss - x.meanLoserLoss;
            return d + (w * w + l * l) / 25.0;
        };
        struct Fit {
            double d;
            battle::LinkMapping m;
            Stats st;
        };
        QList<Fit> fits;
        for (int bi = 0; bi <= 10; ++bi)
            for (int si = 0; si <= 12; ++si)
                for (double rw : {0.25, 0.5, 0.75, 1.0})
                    for (int pi = 0; pi <= 12; ++pi)
                        for (double lm : {0.0, 1.0}) {
                            battle::LinkMapping k = m;
                            k.base = 0.025 * bi;
                            k.scale = 0.25 * si;
                            k.routedWeight = rw;
                            k.pursuit = 0.025 * pi;
                            k.loserMinimum = lm;
                            const Stats x = stats(samples, false, k);
                            fits.append(Fit{distance(x), k, x});
                        }
        std::sort(fits.begin(), fits.end(), [](const Fit& a, const Fit& b) { return a.d < b.d; });
        out() << "\ntune (same battles): the closest mappings; distance = squared band differences + "
                 "squared differences of the winner's and the loser's mean / 25\n";
        auto show = [&](const Fit& f) {
            out() << "  " << mappingText(f.m) << ": distance " << QString::number(f.d, 'f', 4)
                  << "; attacker wins " << pct(f.st.attackerWins) << ", mean loss attacker/defender "
                  << num(f.st.meanLoss[0]) << "/" << num(f.st.meanLoss[1]) << ", winner/loser "
                  << num(f.st.meanWinnerLoss) << "/" << num(f.st.meanLoserLoss) << "\n";
        };
        for (qsizetype i = 0; i < std::min<qsizetype>(5, fits.size()); ++i)
            show(fits[i]);
        // Proportionality: what is lost on the table is lost in the campaign (scale >= 1: half the army
        // destroyed on the table is at least half the campaign force). The defaults are chosen here.
        out() << "closest with scale >= 1 (losses on the table carried over at least in proportion):\n";
        int shown = 0;
        for (const Fit& f : fits)
            if (f.m.scale >= 1.0 - 1e-9 && shown++ < 5)
                show(f);
    }
    return 0;
}

int reportCommand(ArgParser& p) {
    GameSource game;
    QString problem;
    readGameSource(p, &game, &problem);
    if (!p.finish(problem))
        return 2;
    const QString source = game.where.front();
    const bool fromSave = game.setup.scenario.isEmpty();
    LoadResult data;
    if (!loadData({}, data))
        return 1;
    const rules::Engine engine(data.data);
    rules::GameState s;
    QString error;
    if (const int rc = loadGameSource(&game, &error) ? startGame(engine, game.setup, s, nullptr, &error) : 1;
        rc != 0) {
        err() << "westphalia-cli battle-link: " << error << "\n";
        return rc;
    }
    const QStringList& actions = game.actions;
    QList<battle::BattleRecord> battles;
    if (!battle::battleReport(engine, s, actions, &battles, &error)) {
        err() << "westphalia-cli battle-link: " << source << ": " << error << "\n";
        return 1;
    }
    // the links of a table battle: its scenario and log are regenerated from the game (docs "History")
    QString gameArgs = QStringLiteral("--save %1").arg(source);
    if (!fromSave) {
        gameArgs = QStringLiteral("--scenario %1 --actions %2").arg(game.setup.scenario, source);
        if (game.setup.seed)
            gameArgs += QStringLiteral(" --seed %1").arg(*game.setup.seed);
        for (const QString& o : game.setup.options)
            gameArgs += QStringLiteral(" --option ") + o;
    }
    out() << "battles: " << battles.size() << "\n";
    int bad = 0; // records that do not give their result
    for (const battle::BattleRecord& b : battles) {
        out() << "#" << b.action + 1 << " turn " << b.turn << ", " << b.city << ": " << b.attacker
              << " attacks; " << b.resolution << "; Loss Numbers " << b.lossNumber[0] << " (attacker) / "
              << b.lossNumber[1] << " (defender); "
              << (b.winner.isEmpty() ? QStringLiteral("not finished") : b.winner + " wins");
        if (!b.leadersLost.isEmpty())
            out() << "; leaders lost: " << b.leadersLost.join(QStringLiteral(", "));
        if (!b.tableResult.isEmpty())
            out() << "; entered: " << b.tableResult;
        out() << "\n";
        if (b.tableBattle > 0) {
            const QString record =
                b.recordOk == 1   ? (b.evidence == QLatin1String("screen")
                                         ? QStringLiteral("fought on screen: its record replays to the result")
                                     : b.evidence == QLatin1String("hand")
                                         ? QStringLiteral("a real table: the form entered gives the result")
                                         : QStringLiteral("auto-resolved: its record replays to the result"))
                : b.recordOk == 0 ? QStringLiteral("its record does NOT give the result: ") + b.recordError
                : b.autoResolved == 1 ? QStringLiteral("no record; the auto-resolved battle")
                : b.autoResolved == 0 ? QStringLiteral("no record: a real table's result")
                                      : QStringLiteral("not confirmed");
            out() << "    table battle " << b.tableBattle << " (" << b.rules << ", battle seed "
                  << b.battleSeed << "; " << record
                  << "); scenario, record and log: westphalia-cli battle-link replay " << gameArgs
                  << " --battle " << b.tableBattle << " --out battle-" << b.tableBattle << ".json --log\n";
            for (const QString& l : b.form) // a real table's form, unit by unit
                out() << "      " << l << "\n";
            bad += b.recordOk == 0;
        }
    }
    return bad ? 1 : 0;
}

} // namespace

int battleLinkCommand(const QStringList& args) {
    ArgParser p(args, kLinkUsage);
    if (p.helpRequested()) {
        out() << kLinkUsage;
        return 0;
    }
    const QString sub = p.positional();
    if (sub == QLatin1String("auto"))
        return resultCommand(p, Mode::Auto);
    if (sub == QLatin1String("form"))
        return resultCommand(p, Mode::Form);
    if (sub == QLatin1String("verify"))
        return resultCommand(p, Mode::Verify);
    if (sub == QLatin1String("calibrate"))
        return calibrateCommand(p);
    if (sub == QLatin1String("report"))
        return reportCommand(p);
    if (sub == QLatin1String("replay"))
        return replayCommand(p);
    p.finish(sub.isEmpty()
                 ? QStringLiteral("a subcommand is needed: auto, form, verify, replay, report or calibrate")
                 : QStringLiteral("unknown subcommand '%1' (auto, form, verify, replay, report, calibrate)")
                       .arg(sub));
    return 2;
}

} // namespace wp::cli
