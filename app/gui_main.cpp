// westphalia: the desktop application.
#include "data/datadir.h"
#include "data/loader.h"
#include "mainwindow.h"
#include "mapview.h"
#include "tacticalwindow.h"
#include "theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QPainter>
#include <QStyleFactory>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <unistd.h>

namespace {

// Milliseconds since the process started (Linux /proc; -1 elsewhere), for the cold-start benchmark.
double msSinceProcessStart() {
    QFile stat(QStringLiteral("/proc/self/stat")), up(QStringLiteral("/proc/uptime"));
    if (!stat.open(QIODevice::ReadOnly) || !up.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    const QList<QByteArray> f = s.mid(close + 2).split(' ');
    if (f.size() < 20)
        return -1;
    const double startTicks = f[19].toDouble(); // field 22: starttime
    const double uptime = up.readAll().split(' ').value(0).toDouble();
    const double hz = static_cast<double>(sysconf(_SC_CLK_TCK));
    return (uptime - startTicks / hz) * 1000.0;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char** argv) {
    QElapsedTimer sinceMain;
    sinceMain.start();
    QGuiApplication::setHighDpiScaleFactorRoundingPolicy(Qt::HighDpiScaleFactorRoundingPolicy::PassThrough);
    QApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("Westphalia"));
    QCoreApplication::setOrganizationName(QStringLiteral("Westphalia"));
    QCoreApplication::setApplicationVersion(wp::appVersion());
    QGuiApplication::setDesktopFileName(QStringLiteral("westphalia"));
    if (QStyleFactory::keys().contains(QStringLiteral("Fusion")))
        QApplication::setStyle(QStringLiteral("Fusion"));
    app.setStyleSheet(wp::theme::styleSheet());
    {
        // Light (vertical) hinting, as most desktops have it: full TrueType bytecode hinting of every
        // glyph cost about 80 ms of the first frame (docs/gui.md "Speed").
        QFont f = QApplication::font();
        f.setHintingPreference(QFont::PreferVerticalHinting);
        QApplication::setFont(f);
    }

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Thirty Years War: Europe in Agony 1618-1648"));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption dataOpt(QStringLiteral("data"), QStringLiteral("Game data directory."),
                               QStringLiteral("DIR"));
    QCommandLineOption shotOpt(QStringLiteral("screenshot"),
                               QStringLiteral("Render the main window to FILE (PNG) and quit."),
                               QStringLiteral("FILE"));
    QCommandLineOption scenarioOpt(QStringLiteral("scenario"),
                                   QStringLiteral("Start a game of this scenario."), QStringLiteral("ID"));
    QCommandLineOption openOpt(QStringLiteral("open"),
                               QStringLiteral("Open a saved game (.tyw) or import a turn file (.pbem)."),
                               QStringLiteral("FILE"));
    QCommandLineOption benchOpt(
        QStringLiteral("bench"),
        QStringLiteral("Print the cold start to the first painted map frame and the time of a "
                       "full map repaint at fit zoom, then quit."));
    parser.addOption(dataOpt);
    parser.addOption(shotOpt);
    parser.addOption(scenarioOpt);
    parser.addOption(openOpt);
    parser.addOption(benchOpt);
    QCommandLineOption battleOpt(QStringLiteral("battle"),
                                 QStringLiteral("Open only the tactical window with this battle scenario "
                                                "(scenarios/battles/*.json, TVBD or Tercios)."),
                                 QStringLiteral("FILE"));
    QCommandLineOption seedOpt(QStringLiteral("seed"), QStringLiteral("The battle's seed (with --battle)."),
                               QStringLiteral("N"), QStringLiteral("1"));
    parser.addOption(battleOpt);
    parser.addOption(seedOpt);
    parser.addPositionalArgument(QStringLiteral("file"),
                                 QStringLiteral("A saved game (.tyw) or turn file (.pbem) to open."),
                                 QStringLiteral("[file]"));
    parser.process(app);
    if (parser.isSet(dataOpt)) // the battle files (scenarios/battle-*.json, resources/tactical/) from it too
        qputenv("WESTPHALIA_DATA", QFile::encodeName(wp::findDataDir(parser.value(dataOpt))));
    const bool headless = parser.isSet(shotOpt) || parser.isSet(benchOpt);
    if (parser.isSet(battleOpt)) // issues 10-11: the tactical window alone
        return wp::TacticalWindow::runStandalone(parser.value(battleOpt), parser.value(seedOpt).toULongLong(),
                                                 parser.value(shotOpt));

    const double msAtParse = static_cast<double>(sinceMain.nsecsElapsed()) / 1e6;
    const QString dir = wp::findDataDir(parser.value(dataOpt));
    wp::LoadResult r = wp::loadGameData(dir);
    const double msAtData = static_cast<double>(sinceMain.nsecsElapsed()) / 1e6;
    if (!r.ok()) {
        QString text =
            QStringLiteral("The game data in %1 is invalid, so no game can be started.\n\n").arg(dir);
        QStringList lines;
        for (const auto& e : r.errors.list())
            lines << e.toString();
        const int shown = 25;
        text += QStringList(lines.mid(0, shown)).join(QLatin1Char('\n'));
        if (lines.size() > shown)
            text += QStringLiteral("\n… and %1 more.").arg(lines.size() - shown);
        text += QStringLiteral(
            "\n\nRun 'westphalia-cli data check' for the full list, correct the files it names (or "
            "restore them), and start Westphalia again.");
        qCritical("%s", qPrintable(text));
        if (!headless)
            QMessageBox::critical(nullptr, QStringLiteral("Westphalia — invalid game data"), text);
        return 1;
    }

    wp::MainWindow w(r.data);
    const double msAtWindow = static_cast<double>(sinceMain.nsecsElapsed()) / 1e6;
    if (!headless)
        w.restoreLayout();
    QString file = parser.value(openOpt);
    if (file.isEmpty() && !parser.positionalArguments().isEmpty())
        file = parser.positionalArguments().front();
    // After a crash (the last session did not close cleanly and left its autosave), offer to resume.
    bool resumed = false;
    if (!headless && file.isEmpty() && !parser.isSet(scenarioOpt) && wp::MainWindow::crashedBefore() &&
        QMessageBox::question(nullptr, QStringLiteral("Westphalia — resume?"),
                              QStringLiteral("Westphalia did not close properly last time. Resume the game "
                                             "where it stopped (saved after its last action)?"),
                              QMessageBox::Yes | QMessageBox::No, QMessageBox::Yes) == QMessageBox::Yes)
        resumed = w.resumeAutosave();
    if (!resumed && !file.isEmpty()) {
        if (!w.openAny(file) && !w.controller()->hasGame() && !w.controller()->isPbem())
            w.showScenario(QStringLiteral("campaign"));
    } else if (!resumed) {
        w.showScenario(parser.isSet(scenarioOpt) ? parser.value(scenarioOpt) : QStringLiteral("campaign"));
    }
    const double msAtGameStart = static_cast<double>(sinceMain.nsecsElapsed()) / 1e6;
    if (!headless)
        w.setAutosave(true); // after every action, to QStandardPaths::AppDataLocation

    if (parser.isSet(benchOpt)) {
        bool first = true;
        QObject::connect(w.mapView(), &wp::MapView::framePainted, &w, [&]() {
            if (!first)
                return;
            first = false;
            const double proc = msSinceProcessStart();
            const double main = static_cast<double>(sinceMain.nsecsElapsed()) / 1e6;
            const double msAtGame = msAtGameStart;
            QTimer::singleShot(0, &w, [&w, proc, main, msAtParse, msAtData, msAtWindow, msAtGame]() {
                w.mapView()->fitMap();
                QCoreApplication::processEvents();
                QWidget* vp = w.mapView()->viewport();
                auto timeRepaint = [&](bool uncached) {
                    std::vector<double> t;
                    for (int i = 0; i < 30; ++i) {
                        if (uncached)
                            w.mapView()->invalidateCache();
                        QElapsedTimer et;
                        et.start();
                        vp->repaint();
                        t.push_back(static_cast<double>(et.nsecsElapsed()) / 1e6);
                    }
                    return median(t);
                };
                const double cached = timeRepaint(false);
                const double uncached = timeRepaint(true);
                // A change of state as the game makes it, then the repaint: a stack moves to another
                // city (the map layers stay cached), or an Area changes hands (its tints and markers
                // layers are redrawn).
                wp::MapView* mv = w.mapView();
                const wp::MapState base = mv->state();
                auto timeChange = [&](const std::function<void(wp::MapState&, int)>& change) {
                    std::vector<double> t;
                    for (int i = 0; i < 30; ++i) {
                        wp::MapState s = base;
                        change(s, i);
                        QElapsedTimer et;
                        et.start();
                        mv->setState(s);
                        vp->repaint();
                        t.push_back(static_cast<double>(et.nsecsElapsed()) / 1e6);
                    }
                    mv->setState(base);
                    return median(t);
                };
                const int redrawsBefore = mv->layerRedraws();
                const double moved = timeChange([&](wp::MapState& s, int i) {
                    if (!s.stacks.isEmpty() && s.stacks[0].city >= 0 && i % 2 == 0) {
                        const int from = s.stacks[0].city;
                        for (const wp::Pathway& pw : w.controller()->data().pathways)
                            if (pw.a == from || pw.b == from) {
                                s.stacks[0].city = pw.a == from ? pw.b : pw.a;
                                break;
                            }
                    }
                    s.highlights.insert(i % 2 ? 1 : 2, wp::Highlight::Move);
                });
                const int redrawsOnMove = mv->layerRedraws() - redrawsBefore;
                const double control = timeChange([&](wp::MapState& s, int i) {
                    if (!s.areaControl.isEmpty() && i % 2 == 0)
                        s.areaControl[s.areaControl.begin().key()] =
                            s.areaControl.begin().value() == wp::Control::Catholic ? wp::Control::Protestant
                                                                                   : wp::Control::Catholic;
                });
                std::printf("westphalia --bench (%dx%d viewport, platform %s)\n", vp->width(), vp->height(),
                            qPrintable(QGuiApplication::platformName()));
                if (proc >= 0)
                    std::printf("cold start to first painted map frame: %.0f ms since process start "
                                "(%.0f ms since main)\n",
                                proc, main);
                else
                    std::printf("cold start to first painted map frame: %.0f ms since main\n", main);
                std::printf(
                    "  of which: application and arguments %.0f ms, game data %.0f ms, window %.0f ms, "
                    "game start %.0f ms, first paint %.0f ms\n",
                    msAtParse, msAtData - msAtParse, msAtWindow - msAtData, msAtGame - msAtWindow,
                    main - msAtGame);
                std::printf("full map repaint at fit zoom: %.2f ms (map cached), %.2f ms (every map layer "
                            "redrawn, as after a zoom), median of 30\n",
                            cached, uncached);
                // What each map layer costs to draw at this zoom (into an image of the viewport's size).
                std::vector<double> layerMs;
                for (wp::MapItem* layer : mv->mapLayers()) {
                    std::vector<double> t;
                    for (int i = 0; i < 5; ++i) {
                        QImage img(vp->size(), QImage::Format_ARGB32_Premultiplied);
                        img.fill(Qt::transparent);
                        QPainter p(&img);
                        p.setRenderHints(mv->renderHints());
                        p.setTransform(mv->viewportTransform());
                        QElapsedTimer et;
                        et.start();
                        layer->paint(&p, nullptr, nullptr);
                        p.end();
                        t.push_back(static_cast<double>(et.nsecsElapsed()) / 1e6);
                    }
                    layerMs.push_back(median(t));
                }
                std::printf("the map's layers drawn at fit zoom: tints %.1f ms, board %.1f ms, markers %.1f "
                            "ms, title %.1f ms\n",
                            layerMs[0], layerMs[1], layerMs[2], layerMs[3]);
                if (qEnvironmentVariableIsSet("WESTPHALIA_BENCH_PARTS")) { // the painter's parts, one by one
                    const wp::MapState full = mv->state();
                    for (int bit = 1; bit <= 0x200000; bit <<= 1) {
                        std::vector<double> t;
                        for (int i = 0; i < 5; ++i) {
                            QImage img(vp->size(), QImage::Format_ARGB32_Premultiplied);
                            img.fill(Qt::transparent);
                            QPainter p(&img);
                            p.setRenderHints(mv->renderHints());
                            p.setTransform(mv->viewportTransform());
                            QElapsedTimer et;
                            et.start();
                            mv->painter().paint(p, full,
                                                bit | wp::MapPainter::NoBackground | wp::MapPainter::NoFrame);
                            p.end();
                            t.push_back(static_cast<double>(et.nsecsElapsed()) / 1e6);
                        }
                        std::printf("  part 0x%x: %.1f ms\n", bit, median(t));
                    }
                }
                std::printf("a change of state and the repaint: a stack moved %.2f ms (%d map layer redraws "
                            "in 30), an Area's control changed %.2f ms, median of 30\n",
                            moved, redrawsOnMove, control);
                std::fflush(stdout);
                QCoreApplication::exit(0);
            });
        });
    }
    w.show();
    if (parser.isSet(shotOpt)) {
        const QString shot = parser.value(shotOpt);
        QTimer::singleShot(300, &w, [&w, shot]() {
            w.mapView()->fitMap();
            QCoreApplication::processEvents();
            const bool ok = w.grab().save(shot, "PNG");
            QCoreApplication::exit(ok ? 0 : 1);
        });
    }
    return app.exec();
}
