// westphalia-cli play: set up a scenario or a position, apply a file of actions, print log/state/legal.
#include "cli_commands.h"
#include "cli_game.h"
#include "cli_util.h"

#include "rules/engine.h"
#include "rules/invariants.h"
#include "rules/position.h"

#include <QFile>
#include <QJsonDocument>

namespace wp::cli {

namespace {

const char* kPlayUsage = R"(usage: westphalia-cli play --scenario ID|FILE [--option KEY=VALUE]... [--seed N]
                          [--actions FILE] [--dice D,D,...] [--check] [--log] [--state-json] [--legal]
                          [--data DIR]

Sets up a game, applies the actions of FILE in order and prints what is asked for.

  --scenario ID|FILE  a scenario (campaign, early-war, intervention, apocalypse) or a position file
                      (JSON, docs/actions.md "Position files")
  --option KEY=VALUE  an optional rule (19.x) on or off, e.g. 19.2a=on (repeatable; an unknown key
                      lists the known ones)
  --seed N            the game's seed: shuffles and dice (default 1; a position file may give its own)
  --actions FILE      one action per line in the text notation (docs/actions.md); '#' starts a comment,
                      blank lines are ignored, a line "dice: D,D,..." scripts the next dice; '-' = stdin
  --dice D,D,...      dice (0-9) the engine uses, in order, before its own random ones
  --check             check the invariants (model/rules/invariants.h) after the set-up and after every
                      action; stop with exit code 1 at the first one broken
  --log               print the game log (every line cites its rule)
  --state-json        print the final state as JSON (a position file at the start of a card round)
  --legal             print the legal actions now, one per line, after a "# prompt" line

Without --log, --state-json or --legal it prints the turn, the VP and the prompt.
Exit codes: 0 every action applied, 1 an action is malformed or illegal (the message names the file,
the line and the reason) or a file cannot be read, 2 bad command line.
)";

bool parseDice(const QString& text, std::vector<int8_t>& out, QString* error) {
    for (const QString& part :
         text.split(QRegularExpression(QStringLiteral("[,\\s]+")), Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.toInt(&ok);
        if (!ok || v < 0 || v > 9) {
            *error = QStringLiteral("'%1' is not a die (0-9)").arg(part);
            return false;
        }
        out.push_back(static_cast<int8_t>(v));
    }
    return true;
}

void printLog(const rules::Log& log, qsizetype from) {
    for (qsizetype i = from; i < static_cast<qsizetype>(log.size()); ++i)
        out() << log[static_cast<size_t>(i)].text << "\n";
}

} // namespace

int playCommand(const QStringList& args) {
    ArgParser ap(args, kPlayUsage);
    if (ap.helpRequested()) {
        out() << kPlayUsage;
        return 0;
    }
    const QString scenario = ap.value(QStringLiteral("--scenario"));
    const QStringList options = allValues(ap, QStringLiteral("--option"));
    const QString seedText = ap.value(QStringLiteral("--seed"));
    const QString actionsFile = ap.value(QStringLiteral("--actions"));
    const QString diceText = ap.value(QStringLiteral("--dice"));
    const QString dir = ap.value(QStringLiteral("--data"));
    const bool check = ap.flag(QStringLiteral("--check"));
    const bool wantLog = ap.flag(QStringLiteral("--log"));
    const bool wantJson = ap.flag(QStringLiteral("--state-json"));
    const bool wantLegal = ap.flag(QStringLiteral("--legal"));
    QString problem;
    std::optional<uint64_t> seed;
    if (!seedText.isEmpty()) {
        bool ok = false;
        seed = seedText.toULongLong(&ok);
        if (!ok)
            problem = QStringLiteral("--seed %1: expected a whole number >= 0").arg(seedText);
    }
    std::vector<int8_t> dice;
    if (problem.isEmpty() && !diceText.isEmpty() && !parseDice(diceText, dice, &problem))
        problem = QStringLiteral("--dice: ") + problem;
    if (problem.isEmpty() && scenario.isEmpty())
        problem = QStringLiteral("--scenario is required (a scenario id or a position file)");
    if (!ap.finish(problem))
        return 2;

    LoadResult data;
    if (!loadData(dir, data))
        return 1;
    const rules::Engine engine(data.data);
    rules::GameState s;
    rules::Log log;
    QString error;
    GameSetup setup;
    setup.scenario = scenario;
    setup.options = options;
    setup.seed = seed;
    const int rc = startGame(engine, setup, s, &log, &error);
    if (rc != 0) {
        err() << "westphalia-cli play: " << error << "\n";
        return rc;
    }
    s.forcedDice.insert(s.forcedDice.end(), dice.begin(), dice.end());
    auto broken = [&](const QString& where) {
        const QStringList problems = check ? rules::checkInvariants(engine, s) : QStringList();
        for (const QString& p : problems)
            err() << where << ": invariant broken: " << p << "\n";
        return !problems.isEmpty();
    };
    int status = broken(QStringLiteral("after the set-up")) ? 1 : 0;

    // The actions.
    if (!actionsFile.isEmpty() && status == 0) {
        QFile f;
        const bool isStdin = actionsFile == QLatin1String("-");
        const bool opened = isStdin
                                ? f.open(stdin, QIODevice::ReadOnly | QIODevice::Text)
                                : (f.setFileName(actionsFile), f.open(QIODevice::ReadOnly | QIODevice::Text));
        if (!opened) {
            err() << "westphalia-cli play: cannot read " << actionsFile << ": " << f.errorString() << "\n";
            return 1;
        }
        const QString name = isStdin ? QStringLiteral("<stdin>") : actionsFile;
        const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size() && status == 0; ++i) {
            const QString where = QStringLiteral("%1:%2").arg(name).arg(i + 1);
            const QString text = lines[i].section(QLatin1Char('#'), 0, 0).trimmed();
            if (text.isEmpty())
                continue;
            if (text.startsWith(QLatin1String("dice:"))) {
                std::vector<int8_t> more;
                if (!parseDice(text.mid(5), more, &error)) {
                    err() << where << ": " << error << "\n";
                    status = 1;
                    break;
                }
                s.forcedDice.insert(s.forcedDice.end(), more.begin(), more.end());
                continue;
            }
            const std::optional<rules::Action> a = rules::parseAction(engine.data(), s, text, &error);
            if (!a) {
                err() << where << ": cannot read '" << text << "': " << error << "\n";
                status = 1;
                break;
            }
            const rules::ApplyResult r = engine.apply(s, *a, &log);
            if (!r.ok) {
                err() << where << ": illegal action '" << text << "': " << r.error << "\n";
                status = 1;
            } else if (broken(QStringLiteral("%1: after '%2'").arg(where, text))) {
                status = 1;
            }
        }
    }

    if (wantLog)
        printLog(log, 0);
    if (wantJson)
        out() << QJsonDocument(rules::stateToJson(engine, s)).toJson(QJsonDocument::Indented);
    if (wantLegal) {
        out() << "# " << engine.prompt(s) << "\n";
        for (const rules::Action& a : engine.legalActions(s))
            out() << rules::formatAction(engine.data(), s, a) << "\n";
    }
    if (!wantLog && !wantJson && !wantLegal)
        out() << "turn " << s.turn << ", VP " << s.vp << ": " << engine.prompt(s) << "\n";
    return status;
}

} // namespace wp::cli
