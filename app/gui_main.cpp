// westphalia: the desktop application.
#include "data/datadir.h"
#include "data/loader.h"
#include "mainwindow.h"
#include "mapview.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QTimer>

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Westphalia"));
    QCoreApplication::setOrganizationName(QStringLiteral("Westphalia"));
    QCoreApplication::setApplicationVersion(wp::appVersion());

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Thirty Years War: Europe in Agony 1618-1648"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption dataOpt(QStringLiteral("data"), QStringLiteral("Game data directory."),
                               QStringLiteral("DIR"));
    QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                               QStringLiteral("Render the main window to FILE (PNG) and quit."),
                               QStringLiteral("FILE"));
    QCommandLineOption scenarioOpt(QStringLiteral("scenario"), QStringLiteral("Scenario to show."),
                                   QStringLiteral("ID"));
    parser.addOption(dataOpt);
    parser.addOption(shotOpt);
    parser.addOption(scenarioOpt);
    parser.process(app);

    const QString dir = wp::findDataDir(parser.value(dataOpt));
    wp::LoadResult r = wp::loadGameData(dir);
    if (!r.ok()) {
        QString text =
            QStringLiteral("The game data in %1 is invalid, so no game can be started.\n\n").arg(dir);
        QStringList lines;
        for (const auto& e : r.errors.list())
            lines << e.toString();
        const int shown = 25;
        text += QStringList(lines.mid(0, shown)).join(QLatin1Char('\n'));
        if (lines.size() > shown)
            text += QStringLiteral("\n… and %1 more (run 'westphalia-cli data check').")
                        .arg(lines.size() - shown);
        qCritical("%s", qPrintable(text));
        if (!parser.isSet(shotOpt))
            QMessageBox::critical(nullptr, QStringLiteral("Westphalia — invalid game data"), text);
        return 1;
    }

    wp::MainWindow w(r.data);
    if (parser.isSet(scenarioOpt))
        w.showScenario(parser.value(scenarioOpt));
    w.show();
    if (parser.isSet(shotOpt)) {
        const QString file = parser.value(shotOpt);
        QTimer::singleShot(300, &w, [&w, file]() {
            w.mapView()->fitMap();
            QCoreApplication::processEvents();
            const bool ok = w.grab().save(file, "PNG");
            QCoreApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
