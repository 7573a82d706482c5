#include "cli_commands.h"
#include "cli_util.h"

#include "mappainter.h"
#include "mapstate.h"

#include <QFileInfo>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace wp::cli {

namespace {

const char* kUsage =
    R"(usage: westphalia-cli map render --out FILE.png|FILE.svg [--scenario ID] [--data DIR] [--width PX]

Draws the map from the data: Areas tinted (by control with --scenario), cities as circles, fortresses as
stars, Independent cities with VP and Elector boxes, pathways, the off-map boxes with their arrows and the
Spanish Zone boundary. With --scenario (campaign, early-war, intervention, apocalypse) the starting control
and stacks are drawn. --width sets the PNG width in pixels (default: the map's natural size).
)";

} // namespace

int mapCommand(const QStringList& args) {
    ArgParser ap(args, kUsage);
    if (ap.helpRequested()) {
        out() << kUsage;
        return 0;
    }
    const QString sub = ap.positional();
    const QString outFile = ap.value(QStringLiteral("--out"));
    const QString scenarioId = ap.value(QStringLiteral("--scenario"));
    const QString dir = ap.value(QStringLiteral("--data"));
    const QString widthStr = ap.value(QStringLiteral("--width"));
    QString problem;
    if (sub != QLatin1String("render"))
        problem = sub.isEmpty() ? QStringLiteral("missing subcommand (render)")
                                : QStringLiteral("unknown subcommand 'map %1'").arg(sub);
    else if (outFile.isEmpty())
        problem = QStringLiteral("--out FILE is required");
    const QString suffix = QFileInfo(outFile).suffix().toLower();
    if (problem.isEmpty() && suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        problem = QStringLiteral("--out %1: the file must end in .png or .svg").arg(outFile);
    int width = 0;
    if (problem.isEmpty() && !widthStr.isEmpty()) {
        bool ok = false;
        width = widthStr.toInt(&ok);
        if (!ok || width < 200 || width > 20000)
            problem = QStringLiteral("--width %1: expected a whole number of pixels from 200 to 20000")
                          .arg(widthStr);
    }
    if (!ap.finish(problem))
        return 2;

    LoadResult r;
    if (!loadData(dir, r))
        return 1;
    const GameData& d = *r.data;
    MapState state;
    if (!scenarioId.isEmpty()) {
        const Scenario* s = d.scenario(scenarioId);
        if (!s) {
            QStringList known;
            for (const Scenario& sc : d.scenarios)
                known << sc.id;
            err() << "westphalia-cli: --scenario " << scenarioId
                  << ": no such scenario (known: " << known.join(QStringLiteral(", ")) << ")\n";
            return 2;
        }
        state = MapState::fromScenario(d, *s);
    }
    MapPainter painter(d);
    const QRectF rect = painter.sceneRect();

    QSaveFile file(outFile);
    if (!file.open(QIODevice::WriteOnly)) {
        err() << "westphalia-cli: cannot write " << outFile << ": " << file.errorString() << "\n";
        return 1;
    }
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator gen;
        gen.setOutputDevice(&file);
        gen.setSize(rect.size().toSize());
        gen.setViewBox(rect);
        gen.setTitle(QStringLiteral("Westphalia map"));
        QPainter p(&gen);
        painter.paint(p, state);
        p.end();
    } else {
        const double scale = width > 0 ? width / rect.width() : 1.0;
        QImage img((rect.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
        img.fill(Qt::white);
        QPainter p(&img);
        p.scale(scale, scale);
        painter.paint(p, state);
        p.end();
        if (!img.save(&file, "PNG")) {
            file.cancelWriting();
            err() << "westphalia-cli: could not encode PNG for " << outFile << "\n";
            return 1;
        }
    }
    if (!file.commit()) {
        err() << "westphalia-cli: cannot write " << outFile << ": " << file.errorString() << "\n";
        return 1;
    }
    out() << "wrote " << outFile << " (" << static_cast<int>(rect.width()) << "x"
          << static_cast<int>(rect.height()) << " map units)\n";
    return 0;
}

} // namespace wp::cli
