// westphalia-cli: the headless front end.
#include "cli_commands.h"
#include "data/datadir.h"

#include <QApplication>
#include <QDir>
#include <QFile>

#include <unistd.h>

namespace wp::cli {

QTextStream& out() {
    static QTextStream s(stdout);
    return s;
}

QTextStream& err() {
    static QTextStream s(stderr);
    return s;
}

} // namespace wp::cli

namespace {

const char* kUsage = R"(usage: westphalia-cli <command> [options]

Commands:
  data check [--data DIR]                 validate the game data and print a summary
  data dump --json [--data DIR]           print the loaded data as JSON
  map render --out FILE.png|FILE.svg [--scenario ID] [--data DIR] [--width PX]
                                          draw the map (with a scenario's set-up)
  play --scenario ID|FILE [--actions FILE] [--dice D,D,...] [--seed N] [--option K=V]...
       [--check] [--log] [--state-json] [--legal]
                                          set up a game, apply actions, print log/state/legal actions
  fuzz [--games N] [--seed S] [--scenario ID|all] [--max-actions M]
                                          random games with invariants and replay checked
  bench [--games N] [--scenario ID|all]   random games per second, bytes per state snapshot
  tournament --bots A,B [--games N] [--scenario ID] [--seed S] [--save-dir DIR]
                                          bots (random, priority, search[:L]) against each other
  cards coverage [--side S] [--missing] [--json] [--strict]
                                          every card's event: implemented and tested, totals per side
  tactical tvbd --scenario FILE [--seed N] [--auto] [--log] [--actions FILE] [--legal]
  tactical tercios --scenario FILE [--seed N] [--auto] [--log] [--actions FILE] [--legal] [--bench N]
                                          a Tilly's Very Bad Day battle: replay or auto-resolve
  battle export|validate ... --rules tvbd  a campaign battle as a TVBD scenario; check a scenario
  battle-link auto|form|verify|report|calibrate ...
                                          linked battles: a table result back into the campaign; the
                                          battle report (also battle report); balance (battle calibrate)
  save verify FILE... | save replay FILE [--to N] [--state-json] | save bench
                                          check, replay and measure .tyw save files
  pbem new|join|play|export-turn|import-turn|status|verify --dir DIR ...
                                          play by e-mail: turn files, hidden hands, fair dice

Run 'westphalia-cli <command> --help' for the options of a command.
Exit codes: 0 success, 1 failure (invalid data, unwritable file, illegal action, fuzz failure),
2 bad command line.
)";

} // namespace

int main(int argc, char** argv) {
    // Headless: no display is needed for drawing the map.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    if (qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) { // avoids Qt's warning on headless machines
        const QByteArray dir =
            QDir::tempPath().toLocal8Bit() + "/westphalia-runtime-" + QByteArray::number(getuid());
        QDir().mkpath(QString::fromLocal8Bit(dir));
        QFile::setPermissions(QString::fromLocal8Bit(dir),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        qputenv("XDG_RUNTIME_DIR", dir);
    }
    QApplication app(argc, argv); // widgets: battle export --pdf draws with the window's export
    QCoreApplication::setApplicationName(QStringLiteral("westphalia-cli"));
    QCoreApplication::setApplicationVersion(wp::appVersion());

    QStringList args = app.arguments().mid(1);
    if (args.isEmpty() || args.first() == QLatin1String("--help") || args.first() == QLatin1String("-h") ||
        args.first() == QLatin1String("help")) {
        wp::cli::out() << kUsage;
        wp::cli::out().flush();
        return args.isEmpty() ? 2 : 0;
    }
    if (args.first() == QLatin1String("--version")) {
        wp::cli::out() << "westphalia-cli " << wp::appVersion() << "\n";
        return 0;
    }
    const QString cmd = args.takeFirst();
    int rc;
    if (cmd == QLatin1String("data"))
        rc = wp::cli::dataCommand(args);
    else if (cmd == QLatin1String("map"))
        rc = wp::cli::mapCommand(args);
    else if (cmd == QLatin1String("play"))
        rc = wp::cli::playCommand(args);
    else if (cmd == QLatin1String("fuzz"))
        rc = wp::cli::fuzzCommand(args);
    else if (cmd == QLatin1String("bench"))
        rc = wp::cli::benchCommand(args);
    else if (cmd == QLatin1String("cards"))
        rc = wp::cli::cardsCommand(args);
    else if (cmd == QLatin1String("tactical"))
        rc = wp::cli::tacticalCommand(args);
    else if (cmd == QLatin1String("battle") &&
             (args.value(0) == QLatin1String("calibrate") || args.value(0) == QLatin1String("report")))
        rc = wp::cli::battleLinkCommand(args); // issue 12: battle calibrate, battle report
    else if (cmd == QLatin1String("battle-link"))
        rc = wp::cli::battleLinkCommand(args); // issue 12
    else if (cmd == QLatin1String("battle"))
        rc = wp::cli::battleCommand(args);
    else if (cmd == QLatin1String("tournament"))
        rc = wp::cli::tournamentCommand(args);
    else if (cmd == QLatin1String("save"))
        rc = wp::cli::saveCommand(args);
    else if (cmd == QLatin1String("pbem"))
        rc = wp::cli::pbemCommand(args);
    else {
        wp::cli::err() << "westphalia-cli: unknown command '" << cmd << "'\n\n" << kUsage;
        rc = 2;
    }
    wp::cli::out().flush();
    wp::cli::err().flush();
    return rc;
}
