#include "battleexportdialog.h"

#include "battle/site.h"
#include "data/gamedata.h"
#include "rules/state.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"
#include "theme.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace wp {

namespace {

QPointF pt(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    return {a.at(0).toDouble(), a.at(1).toDouble()};
}

QColor terrainColor(const QString& type) {
    if (type.contains(QLatin1String("difficult")) || type.contains(QLatin1String("steep")))
        return QColor(0xa8, 0x82, 0x58); // a difficult or steep hill: darker
    if (type.contains(QLatin1String("ill")))
        return QColor(0xc9, 0xa6, 0x72);
    if (type.contains(QLatin1String("rough")) || type.contains(QLatin1String("rocks")))
        return QColor(0xa9, 0xa0, 0x8c);
    if (type.contains(QLatin1String("wood")) || type.contains(QLatin1String("forest")))
        return QColor(0x6f, 0x94, 0x5a);
    if (type.contains(QLatin1String("marsh")) || type.contains(QLatin1String("river")) ||
        type.contains(QLatin1String("stream")))
        return QColor(0x7d, 0xa7, 0xc4);
    if (type.contains(QLatin1String("town")) || type.contains(QLatin1String("village")) ||
        type.contains(QLatin1String("building")))
        return QColor(0xa0, 0x60, 0x50);
    if (type.contains(QLatin1String("road")))
        return QColor(0x8a, 0x74, 0x55);
    if (type.contains(QLatin1String("bridge")) || type.contains(QLatin1String("ford")))
        return QColor(0x9a, 0x8c, 0x78);
    if (type.contains(QLatin1String("wall")) || type.contains(QLatin1String("fortification")))
        return QColor(0x6a, 0x5a, 0x4a);
    return QColor(0xd8, 0xcc, 0x8a); // fields and anything else
}

// The names on one table map: each at `at` in table units, in a font sized to the drawing (not the table
// scale), moved up or down by its height (up to two rows) when it would cover a name already placed (the
// town's name over a road's, "road to Neuhäusel" under "Pressburg").
struct Labels {
    QList<QRectF> placed; // device pixels
    void draw(QPainter& p, QPointF at, const QString& text, const QRectF& r) {
        if (text.isEmpty())
            return;
        const QPointF dev = p.transform().map(at);
        p.save();
        p.resetTransform();
        QFont f = theme::sans(8);
        f.setPixelSize(std::max(9, int(r.height() / 48)));
        f.setItalic(true);
        p.setFont(f);
        const QRectF box = QFontMetricsF(f).boundingRect(text).adjusted(-3, -1, 3, 1);
        const QRectF home(dev - QPointF(box.width() / 2, box.height() / 2), box.size());
        QRectF place = home;
        auto covers = [&](const QRectF& x) {
            return std::any_of(placed.begin(), placed.end(),
                               [&](const QRectF& q) { return q.intersects(x); });
        };
        for (const double rows : {1.0, -1.0, 2.0, -2.0}) {
            if (!covers(place))
                break;
            place = home.translated(0, rows * (box.height() + 1));
        }
        if (covers(place))
            place = home;
        placed << place;
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 170));
        p.drawRoundedRect(place, 3, 3);
        p.setPen(theme::ink());
        p.drawText(place, Qt::AlignCenter, text);
        p.restore();
    }
};

// A point a little way back from a line's end toward its start (where a road leaves the table).
QPointF nearEnd(const QJsonArray& pts, double back) {
    const QPointF a = pt(pts.at(pts.size() - 2)), b = pt(pts.last());
    const QPointF d = a - b;
    const double len = std::hypot(d.x(), d.y());
    return len > 0 ? b + d * std::min(1.0, back / len) : b;
}

// A terrain type as a player reads it ("gentleHill" -> "gentle hill", "SteepHill" -> "steep hill").
QString readableType(QString type) {
    type.replace(QRegularExpression(QStringLiteral("([a-z])([A-Z])")), QStringLiteral("\\1 \\2"));
    return type.toLower();
}

// Plain text at `at` (table units) in device pixels of size px; nothing when too small to read.
void tag(QPainter& p, QPointF at, const QString& text, double px, const QColor& col, bool bold = false,
         Qt::Alignment align = Qt::AlignCenter) {
    if (px < 6 || text.isEmpty())
        return;
    const QPointF dev = p.transform().map(at);
    p.save();
    p.resetTransform();
    QFont f = theme::sans(8, bold);
    f.setPixelSize(int(px));
    p.setFont(f);
    p.setPen(col);
    QRectF place(dev - QPointF(1500, 50), QSizeF(3000, 100)); // wide enough for any line
    if (align & Qt::AlignLeft)
        place = QRectF(dev - QPointF(0, 50), QSizeF(3000, 100));
    else if (align & Qt::AlignRight)
        place = QRectF(dev - QPointF(3000, 50), QSizeF(3000, 100));
    p.drawText(place, int(Qt::AlignVCenter | (align & Qt::AlignHorizontal_Mask)), text);
    p.restore();
}

// The grid every `step` table units with the distances along the top and left edges (for laying out the
// terrain on the real table), in a font sized to the drawing.
void grid(QPainter& p, double w, double d, double step, const QString& unit, const QRectF& r) {
    p.save();
    p.setPen(QPen(QColor(0, 0, 0, 28), 0));
    for (double x = step; x < w - 1e-6; x += step)
        p.drawLine(QPointF(x, 0), QPointF(x, d));
    for (double y = step; y < d - 1e-6; y += step)
        p.drawLine(QPointF(0, y), QPointF(w, y));
    p.restore();
    const double px = std::max(7.0, r.height() / 70);
    const double scale = p.transform().m11();
    for (double x = step; x < w - 1e-6; x += step)
        tag(p, QPointF(x, px * 0.7 / scale), QString::number(x), px, QColor(0, 0, 0, 120));
    for (double y = step; y < d - 1e-6; y += step)
        tag(p, QPointF(px * 0.3 / scale, y), QString::number(y), px, QColor(0, 0, 0, 120), false,
            Qt::AlignLeft);
    tag(p, QPointF(w - px * 2 / scale, d - px * 0.7 / scale), unit, px, QColor(0, 0, 0, 140));
}

// Where a terrain piece lies and how big it is, for laying it out on the table ("6 × 4 at (22.5, 25)";
// a line: "from (0, 15) to (45, 15)").
QString placeText(const QJsonObject& to) {
    auto num = [](double v) { return QString::number(std::round(v * 10) / 10); };
    auto at = [&](const QJsonValue& v) {
        const QJsonArray a = v.toArray();
        return QStringLiteral("(%1, %2)").arg(num(a.at(0).toDouble()), num(a.at(1).toDouble()));
    };
    const QString shape = to.value(QStringLiteral("shape")).toString();
    if (shape == QLatin1String("ellipse"))
        return QStringLiteral("%1 × %2 at %3")
            .arg(num(2 * to.value(QStringLiteral("rx")).toDouble()),
                 num(2 * to.value(QStringLiteral("ry")).toDouble()), at(to.value(QStringLiteral("centre"))));
    if (shape == QLatin1String("rect"))
        return QStringLiteral("%1 × %2 at %3")
            .arg(num(to.value(QStringLiteral("w")).toDouble()), num(to.value(QStringLiteral("d")).toDouble()),
                 at(to.value(QStringLiteral("centre"))));
    QJsonArray pts = to.value(QStringLiteral("points")).toArray();
    if (pts.isEmpty())
        pts = to.value(QStringLiteral("line")).toArray();
    if (pts.size() >= 2 && !to.contains(QStringLiteral("polygon")))
        return QStringLiteral("from %1 to %2").arg(at(pts.first()), at(pts.last()));
    const QJsonArray poly = to.value(QStringLiteral("polygon")).toArray();
    if (poly.isEmpty())
        return {};
    double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
    for (const auto& v : poly) {
        const QJsonArray a = v.toArray();
        x0 = std::min(x0, a.at(0).toDouble());
        x1 = std::max(x1, a.at(0).toDouble());
        y0 = std::min(y0, a.at(1).toDouble());
        y1 = std::max(y1, a.at(1).toDouble());
    }
    return QStringLiteral("%1 × %2 at (%3, %4)")
        .arg(num(x1 - x0), num(y1 - y0), num((x0 + x1) / 2), num((y0 + y1) / 2));
}

// The letter of a TVBD unit type on its stand.
QString typeLetter(const QString& type) {
    static const QHash<QString, QString> letters{{QStringLiteral("PikeShot"), QStringLiteral("P")},
                                                 {QStringLiteral("Shot"), QStringLiteral("S")},
                                                 {QStringLiteral("Horse"), QStringLiteral("H")},
                                                 {QStringLiteral("LightHorse"), QStringLiteral("L")},
                                                 {QStringLiteral("Dragoons"), QStringLiteral("D")},
                                                 {QStringLiteral("Rabble"), QStringLiteral("R")},
                                                 {QStringLiteral("Cannon"), QStringLiteral("C")}};
    return letters.value(type);
}

} // namespace

TablePreview::TablePreview(QWidget* parent) : QWidget(parent) {
    setMinimumSize(360, 240);
}

void TablePreview::setScenario(const QJsonObject& o) {
    m_o = o;
    update();
}

void TablePreview::paintTercios(QPainter& p, const QRectF& r) const {
    const QJsonObject table = m_o.value(QStringLiteral("table")).toObject();
    const double w = std::max(1.0, table.value(QStringLiteral("w")).toDouble(72)),
                 d = std::max(1.0, table.value(QStringLiteral("d")).toDouble(48));
    const QRectF area = r.adjusted(10, 10, -10, -10);
    const double scale = std::min(area.width() / w, area.height() / d);
    p.translate(area.center() - QPointF(w * scale / 2, d * scale / 2));
    p.scale(scale, scale);
    p.fillRect(QRectF(0, 0, w, d), QColor(0xe9, 0xe2, 0xb8));
    // The deployment areas (Tercios L1503: from 12" off the centre line to the own edge), in each side's
    // tint: along the long edges (y) or the short ones (x).
    {
        const QJsonObject dep = m_o.value(QStringLiteral("deployment")).toObject();
        const double zone = dep.value(QStringLiteral("zoneDepth")).toDouble(0);
        const bool longEdges = dep.value(QStringLiteral("orientation")).toString() != QLatin1String("short");
        for (int side = 0; side < 2 && zone > 0; ++side) {
            QColor tint = theme::sideColor(side == 0 ? m_attacker : 1 - m_attacker);
            tint.setAlpha(40);
            p.fillRect(longEdges ? QRectF(0, side == 0 ? 0 : d - zone, w, zone)
                                 : QRectF(side == 0 ? 0 : w - zone, 0, zone, d),
                       tint);
        }
    }
    grid(p, w, d, 6, QStringLiteral("inches"), r);
    // Roads (no Tercios terrain: drawn for the look only), under the terrain.
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        QPainterPath path;
        const QJsonArray pts = t.toObject().value(QStringLiteral("line")).toArray();
        for (int i = 0; i < pts.size(); ++i)
            i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(terrainColor(QStringLiteral("road")), 1.0, Qt::SolidLine, Qt::RoundCap));
        p.drawPath(path);
    }
    QList<QJsonObject> pieces; // the bridges and fords over the river: last
    for (const auto& t : m_o.value(QStringLiteral("terrain")).toArray())
        pieces << t.toObject();
    std::stable_sort(pieces.begin(), pieces.end(), [](const QJsonObject& a, const QJsonObject& b) {
        const auto crossing = [](const QJsonObject& o) {
            const QString t = o.value(QStringLiteral("type")).toString();
            return t == QLatin1String("Bridge") || t == QLatin1String("Ford");
        };
        return !crossing(a) && crossing(b);
    });
    for (const QJsonObject& to : pieces) {
        const QColor col = terrainColor(to.value(QStringLiteral("type")).toString().toLower());
        if (to.contains(QStringLiteral("polygon"))) {
            QPolygonF poly;
            for (const auto& v : to.value(QStringLiteral("polygon")).toArray())
                poly << pt(v);
            p.setPen(QPen(col.darker(140), 0.2));
            p.setBrush(col);
            if (to.value(QStringLiteral("id")).toString() == QLatin1String("closed-town")) // 5.13: shut
                p.setBrush(QBrush(terrainColor(QStringLiteral("town")).darker(160), Qt::DiagCrossPattern));
            p.drawPolygon(poly);
        } else {
            QPainterPath path;
            const QJsonArray pts = to.value(QStringLiteral("line")).toArray();
            for (int i = 0; i < pts.size(); ++i)
                i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(col, std::max(0.4, to.value(QStringLiteral("width")).toDouble(0.6)), Qt::SolidLine,
                          Qt::FlatCap));
            p.drawPath(path);
        }
    }
    // Names: the town (a Building named after the city) and where each road leaves the table.
    Labels names;
    for (const auto& t : m_o.value(QStringLiteral("terrain")).toArray()) {
        const QJsonObject to = t.toObject();
        if (to.value(QStringLiteral("type")).toString() != QLatin1String("Building"))
            continue;
        QPointF c;
        const QJsonArray poly = to.value(QStringLiteral("polygon")).toArray();
        for (const auto& v : poly)
            c += pt(v) / double(std::max<qsizetype>(1, poly.size()));
        names.draw(p, c, to.value(QStringLiteral("id")).toString(), r);
    }
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        const QJsonArray pts = t.toObject().value(QStringLiteral("line")).toArray();
        if (pts.size() >= 2)
            names.draw(p, nearEnd(pts, 5), t.toObject().value(QStringLiteral("name")).toString(), r);
    }
    m_names = names.placed;
    // The other pieces by their type (the Cropland with its roll), at their middle.
    for (const QJsonObject& to : pieces) {
        const QString type = to.value(QStringLiteral("type")).toString();
        const QJsonArray poly = to.value(QStringLiteral("polygon")).toArray();
        if (poly.isEmpty() || type == QLatin1String("Building") || type == QLatin1String("Bridge") ||
            type == QLatin1String("Ford"))
            continue;
        QPointF c;
        for (const auto& v : poly)
            c += pt(v) / double(poly.size());
        QString text = to.value(QStringLiteral("id")).toString() == QLatin1String("closed-town")
                           ? QString()
                           : readableType(type);
        if (type == QLatin1String("Cropland"))
            text += QStringLiteral(" (%1)").arg(to.value(QStringLiteral("roll")).toInt());
        tag(p, c, text, r.height() / 55, QColor(0x30, 0x28, 0x18));
    }
    for (const auto& reg : m_o.value(QStringLiteral("regiments")).toArray()) {
        const QJsonObject ro = reg.toObject();
        const int side = ro.value(QStringLiteral("side")).toInt();
        const QColor col = theme::sideColor(side == 0 ? m_attacker : 1 - m_attacker);
        // The regiment's id at its middle, on the side away from the enemy (the orders of battle and the
        // roster use it).
        QPointF mid;
        int placed = 0;
        for (const auto& u : ro.value(QStringLiteral("units")).toArray())
            if (u.toObject().contains(QStringLiteral("x"))) {
                mid += QPointF(u.toObject().value(QStringLiteral("x")).toDouble(),
                               u.toObject().value(QStringLiteral("y")).toDouble());
                ++placed;
            }
        if (placed) {
            mid /= placed;
            const bool longEdges = m_o.value(QStringLiteral("deployment"))
                                       .toObject()
                                       .value(QStringLiteral("orientation"))
                                       .toString() != QLatin1String("short");
            const double back = side == 0 ? -3.4 : 3.4;
            tag(p, mid + (longEdges ? QPointF(0, back) : QPointF(back, 0)),
                ro.value(QStringLiteral("id")).toString(), r.height() / 50, col.darker(170), true);
        }
        for (const auto& u : ro.value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            if (!uo.contains(QStringLiteral("x")))
                continue; // the players deploy it
            p.save();
            p.translate(uo.value(QStringLiteral("x")).toDouble(), uo.value(QStringLiteral("y")).toDouble());
            p.rotate(uo.value(QStringLiteral("facing")).toDouble());
            p.setPen(QPen(col.darker(150), 0.15));
            p.setBrush(col);
            // The unit's base (Tercios L110-120), facing +x: the frontage along y.
            const tactical::TerciosRules* rules = tactical::defaultTerciosRules(nullptr);
            const QString prof = uo.value(QStringLiteral("profile")).toString();
            const double bw = rules && rules->profiles.contains(prof) ? rules->profiles[prof].baseW : 3,
                         bd = rules && rules->profiles.contains(prof) ? rules->profiles[prof].baseD : 1.5;
            p.drawRect(QRectF(-bd / 2, -bw / 2, bd, bw));
            p.restore();
        }
    }
    // Each side's name by its edge.
    const bool longEdges =
        m_o.value(QStringLiteral("deployment")).toObject().value(QStringLiteral("orientation")).toString() !=
        QLatin1String("short");
    for (int side = 0; side < 2; ++side) {
        const QJsonObject so = m_o.value(QStringLiteral("sides")).toArray().at(side).toObject();
        const bool attacks = m_o.value(QStringLiteral("attacker")).toInt() == side;
        const QString text =
            QStringLiteral("%1 (%2)").arg(so.value(QStringLiteral("name")).toString(),
                                          attacks ? QStringLiteral("attacker") : QStringLiteral("defender"));
        const QColor col = theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker);
        if (longEdges)
            tag(p, QPointF(w / 2, side == 0 ? 1.2 : d - 1.2), text, r.height() / 45, col, true);
        else
            tag(p, QPointF(side == 0 ? 1.2 : w - 1.2, 2.5), text, r.height() / 45, col, true,
                side == 0 ? Qt::AlignLeft : Qt::AlignRight);
    }
}

void TablePreview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintOn(p, rect());
}

void TablePreview::paintOn(QPainter& p, const QRectF& r) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(r, theme::parchmentDark());
    if (m_o.isEmpty()) {
        p.restore();
        return;
    }
    if (m_tercios) {
        paintTercios(p, r);
        p.restore();
        return;
    }
    // The table's extent: the deployment zones and everything placed on it.
    QRectF box(0, 0, 1, 1);
    const QJsonObject dep = m_o.value(QStringLiteral("deployment")).toObject();
    const QPointF z0 = pt(dep.value(QStringLiteral("side0"))), z1 = pt(dep.value(QStringLiteral("side1")));
    const QPointF cz = pt(dep.value(QStringLiteral("centreZone")));
    box = box.united(QRectF(0, 0, cz.y() + cz.x(), std::max(z0.y(), z1.y())));
    const QJsonArray terrain = m_o.value(QStringLiteral("terrain")).toArray();
    const QJsonArray commands = m_o.value(QStringLiteral("commands")).toArray();
    for (const auto& c : commands)
        for (const auto& u : c.toObject().value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            if (!uo.contains(QStringLiteral("x")))
                continue; // the players deploy it
            box = box.united(QRectF(uo.value(QStringLiteral("x")).toDouble(),
                                    uo.value(QStringLiteral("y")).toDouble(), 1, 1));
        }
    const QRectF area = r.adjusted(10, 10, -10, -10);
    const double scale = std::min(area.width() / box.width(), area.height() / box.height());
    p.translate(area.center() - QPointF(box.width() * scale / 2, box.height() * scale / 2));
    p.scale(scale, scale);
    p.fillRect(QRectF(0, 0, box.width(), box.height()), QColor(0xe9, 0xe2, 0xb8));
    // deployment zones in each side's tint
    QColor tint0 = theme::sideColor(m_attacker), tint1 = theme::sideColor(1 - m_attacker);
    tint0.setAlpha(40);
    tint1.setAlpha(40);
    p.fillRect(QRectF(0, z0.x(), box.width(), z0.y() - z0.x()), tint0);
    p.fillRect(QRectF(0, z1.x(), box.width(), z1.y() - z1.x()), tint1);
    grid(p, box.width(), box.height(), 5, QStringLiteral("TUM"), r);
    // The centre zone's edges (10.6: every Pike+Shot deploys in it), dashed.
    p.save();
    p.setPen(QPen(QColor(0, 0, 0, 90), 0, Qt::DashLine));
    for (double x : {cz.x(), cz.y()})
        p.drawLine(QPointF(x, 0), QPointF(x, box.height()));
    p.restore();
    // Out-of-season fields (no effect, 8.2): faint, under everything; then roads, water, the rest, and the
    // bridges and fords over the water.
    QList<QJsonObject> pieces;
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        QJsonObject o = t.toObject();
        o.insert(QStringLiteral("faint"), true);
        pieces << o;
    }
    const auto layer = [](const QJsonObject& o) {
        const QString t = o.value(QStringLiteral("type")).toString();
        if (o.value(QStringLiteral("faint")).toBool())
            return 0;
        if (t == QLatin1String("road"))
            return 1;
        if (t == QLatin1String("river") || t == QLatin1String("stream"))
            return 2;
        if (t == QLatin1String("bridge") || t == QLatin1String("ford"))
            return 4;
        return 3;
    };
    for (const auto& t : terrain)
        pieces << t.toObject();
    std::stable_sort(pieces.begin(), pieces.end(),
                     [&](const QJsonObject& a, const QJsonObject& b) { return layer(a) < layer(b); });
    for (const QJsonObject& to : pieces) {
        const QString shape = to.value(QStringLiteral("shape")).toString();
        QColor col = terrainColor(to.value(QStringLiteral("type")).toString());
        if (to.value(QStringLiteral("faint")).toBool())
            col.setAlpha(70);
        p.setPen(QPen(col.darker(140), 0.15));
        p.setBrush(col);
        if (to.value(QStringLiteral("id")).toString() == QLatin1String("closed-town")) // 5.13: the shut town
            p.setBrush(QBrush(terrainColor(QStringLiteral("town")).darker(160), Qt::DiagCrossPattern));
        if (shape == QLatin1String("ellipse")) {
            p.drawEllipse(pt(to.value(QStringLiteral("centre"))), to.value(QStringLiteral("rx")).toDouble(),
                          to.value(QStringLiteral("ry")).toDouble());
        } else if (shape == QLatin1String("rect")) {
            const QPointF c = pt(to.value(QStringLiteral("centre")));
            const double w = to.value(QStringLiteral("w")).toDouble(),
                         d = to.value(QStringLiteral("d")).toDouble();
            p.drawRect(QRectF(c.x() - w / 2, c.y() - d / 2, w, d));
        } else {
            QPainterPath path;
            const QJsonArray pts = to.value(QStringLiteral("points")).toArray();
            for (int i = 0; i < pts.size(); ++i)
                i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(col, to.value(QStringLiteral("width")).toDouble(0.8), Qt::SolidLine, Qt::FlatCap));
            p.drawPath(path);
        }
    }
    // Names: the town, the water, where each road leaves the table.
    Labels names;
    for (const QJsonObject& to : pieces) {
        const QString type = to.value(QStringLiteral("type")).toString(),
                      name = to.value(QStringLiteral("name")).toString(),
                      shape = to.value(QStringLiteral("shape")).toString();
        const QJsonArray pts = to.value(QStringLiteral("points")).toArray();
        if (type == QLatin1String("town"))
            names.draw(p, pt(to.value(QStringLiteral("centre"))), name, r);
        else if ((shape == QLatin1String("ellipse") || shape == QLatin1String("rect")) &&
                 type != QLatin1String("fortification") && type != QLatin1String("bridge") &&
                 type != QLatin1String("ford") &&
                 to.value(QStringLiteral("id")).toString() != QLatin1String("closed-town"))
            tag(p, pt(to.value(QStringLiteral("centre"))),
                readableType(type) +
                    (to.value(QStringLiteral("faint")).toBool() ? QStringLiteral(" (bare)") : QString()),
                r.height() / 55, QColor(0x30, 0x28, 0x18), false);
        else if ((type == QLatin1String("river") || type == QLatin1String("stream")) && pts.size() >= 2)
            names.draw(p, (pt(pts.at(pts.size() / 2 - 1)) + pt(pts.at(pts.size() / 2))) / 2, name, r);
        else if (type == QLatin1String("road") && pts.size() >= 2)
            names.draw(p, nearEnd(pts, 3), name, r);
    }
    m_names = names.placed;
    for (const auto& c : commands) {
        const QJsonObject co = c.toObject();
        const int side = co.value(QStringLiteral("side")).toInt();
        const QColor col = theme::sideColor(side == 0 ? m_attacker : 1 - m_attacker);
        for (const auto& u : co.value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            if (!uo.contains(QStringLiteral("x")))
                continue; // the players deploy it
            const QPointF at(uo.value(QStringLiteral("x")).toDouble(),
                             uo.value(QStringLiteral("y")).toDouble());
            p.setPen(QPen(col.darker(150), 0.1));
            p.setBrush(col);
            const QString type = uo.value(QStringLiteral("type")).toString();
            if (type == QLatin1String("Commander")) {
                p.drawEllipse(at, 0.5, 0.5);
                // The command's id beside its Commander (the orders of battle and the roster use it).
                tag(p, at + QPointF(0.7, 0), co.value(QStringLiteral("id")).toString(), r.height() / 50,
                    col.darker(170), true, Qt::AlignLeft);
                continue;
            }
            if (uo.value(QStringLiteral("large")).toBool()) // 16.2: two stands back to back
                p.drawRect(QRectF(at.x() - 1.1, at.y() - 0.9, 2.2, 1.8));
            else
                p.drawRect(QRectF(at.x() - 1.1, at.y() - 0.4, 2.2, 0.8));
            tag(p, at, typeLetter(type), r.height() / 60, Qt::white, true);
            p.setPen(QPen(col.darker(150), 0.1));
        }
    }
    // Each side's name in its deployment zone, by its base edge.
    for (int side = 0; side < 2; ++side) {
        const QJsonObject so = m_o.value(QStringLiteral("sides")).toArray().at(side).toObject();
        const bool attacks = m_o.value(QStringLiteral("attacker")).toInt() == side;
        tag(p, QPointF(box.width() / 2, side == 0 ? 0.9 : box.height() - 0.9),
            QStringLiteral("%1 (%2) — base edge")
                .arg(so.value(QStringLiteral("name")).toString(),
                     attacks ? QStringLiteral("attacker") : QStringLiteral("defender")),
            r.height() / 45, theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker), true);
    }
    p.restore();
}

BattleExportDialog::BattleExportDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("Export the battle"));
    setObjectName(QStringLiteral("battleExportDialog"));
    auto* lay = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setFont(theme::serif(14, true));
    m_title->setWordWrap(true);
    lay->addWidget(m_title);
    auto* row = new QHBoxLayout();
    m_preview = new TablePreview(this);
    row->addWidget(m_preview, 1);
    m_summary = new QTextBrowser(this);
    m_summary->setObjectName(QStringLiteral("battleSummary"));
    m_summary->setMinimumWidth(380);
    row->addWidget(m_summary, 1);
    lay->addLayout(row, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_rules = new QComboBox(this);
    m_rules->setObjectName(QStringLiteral("battleRules"));
    m_rules->addItem(QStringLiteral("Tilly's Very Bad Day v2.0"), QStringLiteral("tvbd"));
    m_rules->addItem(QStringLiteral("Brevis Editio: Tercios"), QStringLiteral("tercios"));
    connect(m_rules, &QComboBox::currentIndexChanged, this, [this](int) {
        if (!m_in.title.isEmpty() || !m_in.city.isEmpty())
            generate();
    });
    m_deploy = new QCheckBox(QStringLiteral("The players deploy"), this);
    m_deploy->setObjectName(QStringLiteral("battleDeploy"));
    m_deploy->setToolTip(QStringLiteral("The terrain and the forces without places: the players deploy them "
                                        "(TVBD 10.5-10.6, Tercios L1501-1505)"));
    connect(m_deploy, &QCheckBox::toggled, this, [this](bool) {
        if (!m_in.title.isEmpty() || !m_in.city.isEmpty())
            generate();
    });
    auto* bottom = new QHBoxLayout();
    bottom->addWidget(new QLabel(QStringLiteral("Rules"), this));
    bottom->addWidget(m_rules);
    bottom->addWidget(m_deploy);
    bottom->addStretch(1);
    m_terrain = buttons->addButton(QStringLiteral("Another terrain"), QDialogButtonBox::ActionRole);
    m_save = buttons->addButton(QStringLiteral("Save TVBD scenario (JSON)…"), QDialogButtonBox::AcceptRole);
    m_save->setProperty("primary", true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &BattleExportDialog::saveAs);
    connect(m_terrain, &QPushButton::clicked, this, [this]() {
        ++m_seed;
        generate();
    });
    bottom->addWidget(buttons);
    lay->addLayout(bottom);
    resize(1000, 560);
}

bool BattleExportDialog::setBattle(const GameData& d, const rules::GameState& s, quint64 seed) {
    m_seed = seed;
    m_mappingPath.clear();
    m_out = {};
    m_attacker = 0;
    if (!s.frames.empty())
        if (const auto* f = std::get_if<rules::CombatFrame>(&s.frames.back()))
            m_attacker = f->attacker;
    m_preview->setAttacker(m_attacker);
    m_error.clear();
    if (!battle::inputFromState(d, s, &m_in, &m_error)) {
        m_title->setText(QStringLiteral("No battle to export"));
        m_summary->setPlainText(m_error);
        m_preview->setScenario({});
        m_save->setEnabled(false);
        m_terrain->setEnabled(false);
        return false;
    }
    generate();
    return m_error.isEmpty();
}

bool BattleExportDialog::setInput(const battle::BattleInput& in, quint64 seed, const QString& mappingPath,
                                  int attacker) {
    m_seed = seed;
    m_out = {};
    m_in = in;
    m_mappingPath = mappingPath;
    m_attacker = attacker;
    m_preview->setAttacker(m_attacker);
    m_error.clear();
    generate();
    return m_error.isEmpty();
}

bool BattleExportDialog::tercios() const {
    return m_rules->currentData().toString() == QLatin1String("tercios");
}

void BattleExportDialog::generateTercios() {
    m_preview->setTercios(true);
    const tactical::TerciosRules* rules = tactical::defaultTerciosRules(&m_error);
    battle::TerciosMapping mapping;
    if (!rules ||
        !battle::loadTerciosMapping(m_mappingPath.isEmpty() ? battle::defaultMappingPath() : m_mappingPath,
                                    &mapping, &m_error)) {
        m_title->setText(QStringLiteral("The battle cannot be exported"));
        m_summary->setPlainText(m_error +
                                QStringLiteral("\n\nCheck the game data with 'westphalia-cli data check'."));
        m_save->setEnabled(false);
        return;
    }
    if (m_deploy->isChecked())
        mapping.root.insert(QStringLiteral("deploy"), true);
    m_error.clear();
    m_out = battle::exportTercios(m_in, mapping, *rules, m_seed);
    tactical::TerciosState st;
    QString why;
    if (!tactical::terciosScenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why)) {
        m_error = QStringLiteral("internal error: the export does not load: %1").arg(why);
    } else {
        for (int side = 0; side < 2; ++side) {
            const QStringList pr = tactical::armyProblems(*rules, tactical::armyOf(st, side, st.pointsLimit));
            if (!pr.isEmpty())
                m_error += QStringLiteral("internal error: army %1 is not legal: %2 ")
                               .arg(side)
                               .arg(pr.join(QStringLiteral("; ")));
        }
    }
    const QJsonObject table = m_out.value(QStringLiteral("table")).toObject();
    m_title->setText(QStringLiteral("%1 — Brevis Editio: Tercios, %2×%3 in table, %4 points a side")
                         .arg(m_in.title)
                         .arg(table.value(QStringLiteral("w")).toDouble())
                         .arg(table.value(QStringLiteral("d")).toDouble())
                         .arg(m_out.value(QStringLiteral("pointsLimit")).toInt()));
    m_preview->setScenario(m_out);
    m_summary->setHtml(
        briefingHtml(false) +
        (m_error.isEmpty() ? QString()
                           : QStringLiteral("<p style='color:#a01010'>%1</p>").arg(m_error.toHtmlEscaped())));
    m_save->setText(QStringLiteral("Save Tercios scenario (JSON)…"));
    m_save->setEnabled(m_error.isEmpty());
    m_terrain->setEnabled(true);
}

void BattleExportDialog::generate() {
    if (tercios()) {
        generateTercios();
        return;
    }
    m_preview->setTercios(false);
    m_save->setText(QStringLiteral("Save TVBD scenario (JSON)…"));
    const tactical::TvbdRules* rules = tactical::defaultTvbdRules(&m_error);
    battle::TvbdMapping mapping;
    if (!rules || !battle::loadMapping(m_mappingPath.isEmpty() ? battle::defaultMappingPath() : m_mappingPath,
                                       &mapping, &m_error)) {
        m_title->setText(QStringLiteral("The battle cannot be exported"));
        m_summary->setPlainText(m_error +
                                QStringLiteral("\n\nCheck the game data with 'westphalia-cli data check'."));
        m_save->setEnabled(false);
        return;
    }
    if (m_deploy->isChecked())
        mapping.root.insert(QStringLiteral("deploy"), true);
    m_error.clear();
    m_out = battle::exportTvbd(m_in, mapping, *rules, m_seed);
    tactical::BattleState st;
    QString why;
    if (!tactical::scenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why))
        m_error = QStringLiteral("internal error: the export does not load: %1").arg(why);
    m_title->setText(QStringLiteral("%1 — Tilly's Very Bad Day v2.0, %2 table")
                         .arg(m_in.title, m_out.value(QStringLiteral("size")).toString()));
    m_preview->setScenario(m_out);

    m_summary->setHtml(
        briefingHtml(false) +
        (m_error.isEmpty() ? QString()
                           : QStringLiteral("<p style='color:#a01010'>%1</p>").arg(m_error.toHtmlEscaped())));
    m_save->setEnabled(m_error.isEmpty());
    m_terrain->setEnabled(true);
}

QString BattleExportDialog::subtitle() const {
    const QJsonObject camp = m_out.value(QStringLiteral("campaign")).toObject();
    const bool terc =
        m_out.value(QStringLiteral("format")).toString() == QLatin1String("westphalia-tercios-scenario");
    QString table;
    if (terc) {
        const QJsonObject t = m_out.value(QStringLiteral("table")).toObject();
        table = QStringLiteral("Brevis Editio: Tercios, %1 × %2 in table, %3 turns at most")
                    .arg(t.value(QStringLiteral("w")).toDouble())
                    .arg(t.value(QStringLiteral("d")).toDouble())
                    .arg(m_out.value(QStringLiteral("turnLimit")).toInt(8));
    } else {
        const QJsonObject dep = m_out.value(QStringLiteral("deployment")).toObject();
        const QJsonArray cz = dep.value(QStringLiteral("centreZone")).toArray(),
                         z1 = dep.value(QStringLiteral("side1")).toArray();
        table = QStringLiteral("Tilly's Very Bad Day v2.0, %1 table %2 × %3 TUM, %4 turns")
                    .arg(m_out.value(QStringLiteral("size")).toString())
                    .arg(cz.at(0).toDouble() + cz.at(1).toDouble())
                    .arg(z1.at(1).toDouble())
                    .arg(m_out.value(QStringLiteral("turnLimit")).toInt(10));
    }
    const int month = camp.value(QStringLiteral("month")).toInt();
    return QStringLiteral("%1%2 (Area %3) · %4%5 · %6 · seed %7")
        .arg(camp.value(QStringLiteral("city")).toString(),
             camp.value(QStringLiteral("fortress")).toBool() ? QStringLiteral(", a fortress") : QString(),
             camp.value(QStringLiteral("area")).toString())
        .arg(month ? battle::monthName(month) + QLatin1Char(' ') : QString())
        .arg(camp.value(QStringLiteral("year")).toInt())
        .arg(table)
        .arg(m_seed);
}

QString BattleExportDialog::briefingHtml(bool roster) const {
    if (m_out.isEmpty())
        return {};
    const bool terc =
        m_out.value(QStringLiteral("format")).toString() == QLatin1String("westphalia-tercios-scenario");
    const QJsonArray sides = m_out.value(QStringLiteral("sides")).toArray();
    const int attacker = m_out.value(QStringLiteral("attacker")).toInt();
    auto esc = [](const QString& t) { return t.toHtmlEscaped(); };
    auto sideName = [&](int side) {
        return sides.at(side).toObject().value(QStringLiteral("name")).toString();
    };
    auto sideHead = [&](int side, const QString& what) {
        return QStringLiteral("<h3 style='color:%1'>%2 %3 — %4</h3>")
            .arg(theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker).name(), esc(sideName(side)),
                 side == attacker ? QStringLiteral("(attacker)") : QStringLiteral("(defender)"), what);
    };
    const QString th = QStringLiteral("<th style='background-color:#e8dfc4' align='left'>%1</th>");
    QString h;
    // ---- the battle and the campaign situation
    h += QStringLiteral("<h2>%1</h2><p>%2</p>").arg(esc(m_in.title), esc(subtitle()));
    QString situation = QStringLiteral("<b>%1</b> (attacking) against <b>%2</b> (defending)")
                            .arg(esc(sideName(0)), esc(sideName(1)));
    if (m_in.sally)
        situation +=
            QStringLiteral(", sallying out of the besieged %1 against the besiegers' lines (TYW 13.17)")
                .arg(esc(m_in.city));
    else if (m_in.relief)
        situation +=
            QStringLiteral(", the besiegers of %1, to relieve the town (TYW 13.15)%2")
                .arg(esc(m_in.city))
                .arg(m_in.garrison > 0 ? QStringLiteral("; the garrison joins the attack from inside")
                                       : QString());
    else
        situation +=
            QStringLiteral(" at %1%2")
                .arg(esc(m_in.city), m_in.fortress ? QStringLiteral(", a fortress city") : QString());
    if (m_in.neutralArea)
        situation += QStringLiteral(", in a Neutral Area whose town keeps its gates shut (TYW 5.13)");
    h += QStringLiteral("<h3>The campaign situation</h3><p>%1.</p>").arg(situation);
    h += QStringLiteral("<table border='1' cellspacing='0' cellpadding='3' width='100%'><tr>%1%2%3%4</tr>")
             .arg(th.arg(QStringLiteral("Side")), th.arg(QStringLiteral("Campaign units")),
                  th.arg(QStringLiteral("Leaders (battle rating, stars)")),
                  th.arg(QStringLiteral("Combat cards played")));
    for (int side = 0; side < 2; ++side) {
        QMap<QString, int> units;
        for (const battle::ForceUnit& u : m_in.sides[side].units)
            ++units[QStringLiteral("%1 %2%3").arg(u.nationality.left(1).toUpper() + u.nationality.mid(1),
                                                  u.kind,
                                                  u.reduced ? QStringLiteral(" (reduced)") : QString())];
        QStringList unitText, leaders;
        for (auto it = units.begin(); it != units.end(); ++it)
            unitText << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
        for (const battle::ForceLeader& l : m_in.sides[side].leaders)
            leaders << QStringLiteral("%1 (%2%3)")
                           .arg(l.name)
                           .arg(l.battle)
                           .arg(l.stars ? QStringLiteral(", ") + QString(l.stars, QChar(0x2605)) : QString());
        h += QStringLiteral(
                 "<tr><td><b style='color:%1'>%2</b> (%3)</td><td>%4: %5</td><td>%6</td><td>%7</td></tr>")
                 .arg(theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker).name(), esc(sideName(side)),
                      side == attacker ? QStringLiteral("attacker") : QStringLiteral("defender"))
                 .arg(m_in.sides[side].units.size())
                 .arg(esc(unitText.join(QStringLiteral(", "))),
                      esc(leaders.isEmpty() ? QStringLiteral("none") : leaders.join(QStringLiteral("; "))),
                      esc(m_in.sides[side].cards.isEmpty()
                              ? QStringLiteral("none")
                              : m_in.sides[side].cards.join(QStringLiteral(", "))));
    }
    h += QStringLiteral("</table>");

    // ---- the orders of battle and the unit profiles
    QSet<QString> kinds;              // the unit types (TVBD) or profiles (Tercios) on the table
    QList<QStringList> rosterRows[2]; // per side: id, unit, what, boxes
    int breakAt[2] = {0, 0};          // TVBD 15.6: the army breakpoints
    if (!terc) {
        const tactical::TvbdRules* rules = tactical::defaultTvbdRules(nullptr);
        tactical::BattleState st;
        QString why;
        const bool loaded =
            rules && tactical::scenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why);
        for (int side = 0; side < 2; ++side) {
            h += sideHead(side, QStringLiteral("order of battle"));
            if (loaded)
                breakAt[side] = tactical::TvbdEngine::armyBreakpoint(st.originalUnits[side]);
            if (loaded)
                h += QStringLiteral("<p>%1 units (Commanders included, a Large Pike+Shot counts two; 7.3), "
                                    "%2 commands; the army breaks "
                                    "when it has lost %3 (15.6).</p>")
                         .arg(st.originalUnits[side])
                         .arg(std::count_if(st.commands.begin(), st.commands.end(),
                                            [&](const tactical::Command& c) { return c.side == side; }))
                         .arg(tactical::TvbdEngine::armyBreakpoint(st.originalUnits[side]));
            h += QStringLiteral(
                     "<table border='1' cellspacing='0' cellpadding='3' width='100%'><tr>%1%2%3</tr>")
                     .arg(th.arg(QStringLiteral("Command")), th.arg(QStringLiteral("Commander")),
                          th.arg(
                              QStringLiteral("Units (id: type, quality, starting resolve; campaign unit)")));
            for (const auto& c : m_out.value(QStringLiteral("commands")).toArray()) {
                const QJsonObject co = c.toObject();
                if (co.value(QStringLiteral("side")).toInt() != side)
                    continue;
                QString commander;
                QStringList parts;
                for (const auto& u : co.value(QStringLiteral("units")).toArray()) {
                    const QJsonObject uo = u.toObject();
                    const QString type = uo.value(QStringLiteral("type")).toString();
                    if (type == QLatin1String("Commander")) {
                        commander = uo.value(QStringLiteral("name")).toString();
                        rosterRows[side]
                            << QStringList{uo.value(QStringLiteral("id")).toString(),
                                           QStringLiteral("Commander: ") + commander,
                                           co.value(QStringLiteral("id")).toString(), QStringLiteral("0")};
                        continue;
                    }
                    const QString q = uo.value(QStringLiteral("quality")).toString();
                    const bool large = uo.value(QStringLiteral("large")).toBool();
                    int resolve = uo.value(QStringLiteral("resolve")).toInt(0);
                    if (rules) {
                        const auto t = tactical::typeFromName(type);
                        const auto ql = tactical::qualityFromName(q.isEmpty() ? QStringLiteral("raw") : q);
                        if (t && ql && resolve == 0)
                            resolve = rules->startResolve(*t, *ql, large);
                    }
                    kinds << type;
                    const QString what = QStringLiteral("%1%2%3").arg(
                        large ? QStringLiteral("Large ") : QString(), tactical::typeLabel(type),
                        q.isEmpty() ? QString() : QStringLiteral(", ") + q);
                    parts << QStringLiteral("<b>%1</b>: %2, resolve %3%4 — <i>%5</i>")
                                 .arg(esc(uo.value(QStringLiteral("id")).toString()), esc(what))
                                 .arg(resolve)
                                 .arg(uo.value(QStringLiteral("limbered")).toBool()
                                          ? QStringLiteral(", limbered")
                                          : QString(),
                                      esc(uo.value(QStringLiteral("name")).toString()));
                    rosterRows[side] << QStringList{uo.value(QStringLiteral("id")).toString(), what,
                                                    co.value(QStringLiteral("id")).toString(),
                                                    QString::number(resolve)};
                }
                h += QStringLiteral("<tr><td><b>%1</b> %2</td><td>%3</td><td>%4</td></tr>")
                         .arg(esc(co.value(QStringLiteral("id")).toString()),
                              esc(co.value(QStringLiteral("name")).toString()), esc(commander),
                              parts.join(QStringLiteral("<br>")));
            }
            h += QStringLiteral("</table>");
        }
        if (rules) {
            h += QStringLiteral(
                     "<h3>Unit profiles (TVBD v2.0)</h3><table border='1' cellspacing='0' cellpadding='3' "
                     "width='100%'><tr>%1%2%3%4%5%6%7%8%9</tr>")
                     .arg(th.arg(QStringLiteral("Type")), th.arg(QStringLiteral("Move (TUM)")),
                          th.arg(QStringLiteral("Charge")), th.arg(QStringLiteral("In difficult")),
                          th.arg(QStringLiteral("Range")), th.arg(QStringLiteral("Shoot hits on")),
                          th.arg(QStringLiteral("Melee hits on")), th.arg(QStringLiteral("Command check")),
                          th.arg(QStringLiteral("Resolve sup/ord/inf/raw")));
            QStringList order = kinds.values();
            order.sort();
            for (const QString& type : order) {
                const auto t = tactical::typeFromName(type);
                if (!t)
                    continue;
                const tactical::TypeInfo& ti = rules->type(*t);
                QStringList res;
                for (tactical::Quality q : {tactical::Quality::Superior, tactical::Quality::Ordinary,
                                            tactical::Quality::Inferior, tactical::Quality::Raw})
                    res << QString::number(rules->startResolve(*t, q, false));
                auto num = [](double v) {
                    return v >= 100 ? QStringLiteral("any (line of sight)")
                           : v > 0  ? QString::number(v)
                                    : QStringLiteral("—");
                };
                auto hit = [](int v) {
                    return v > 0 && v <= 6 ? QStringLiteral("%1+").arg(v) : QStringLiteral("—");
                };
                h += QStringLiteral(
                         "<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td>"
                         "<td>%8</td><td>%9</td></tr>")
                         .arg(tactical::typeLabel(type), num(ti.move), num(ti.charge), num(ti.moveDifficult),
                              num(ti.range), hit(ti.shootHit), hit(ti.meleeHit), hit(ti.cmdCheckHit),
                              *t == tactical::UnitType::Rabble || *t == tactical::UnitType::Cannon
                                  ? res.last()
                                  : res.join(QLatin1Char('/')));
            }
            h += QStringLiteral(
                     "</table><p>A Large Pike+Shot (16.2) starts with more resolve (the order of battle "
                     "gives it) and counts two units. Command radius %1 TUM (12.1.1).</p>")
                     .arg(rules->commandRadius);
        }
    } else {
        const tactical::TerciosRules* rules = tactical::defaultTerciosRules(nullptr);
        for (int side = 0; side < 2; ++side) {
            const QJsonObject so = sides.at(side).toObject();
            h += sideHead(side, QStringLiteral("order of battle"));
            h += QStringLiteral("<p>The army of the faction %1: %2 of %3 points (for information: the "
                                "campaign armies are not "
                                "balanced).</p>")
                     .arg(esc(so.value(QStringLiteral("faction")).toString()))
                     .arg(so.value(QStringLiteral("points")).toInt())
                     .arg(m_out.value(QStringLiteral("pointsLimit")).toInt());
            h +=
                QStringLiteral("<table border='1' cellspacing='0' cellpadding='3' width='100%'><tr>%1%2</tr>")
                    .arg(th.arg(QStringLiteral("Regiment")),
                         th.arg(QStringLiteral("Units (id: profile, wear)")));
            for (const auto& r : m_out.value(QStringLiteral("regiments")).toArray()) {
                const QJsonObject ro = r.toObject();
                if (ro.value(QStringLiteral("side")).toInt() != side)
                    continue;
                QStringList parts;
                for (const auto& u : ro.value(QStringLiteral("units")).toArray()) {
                    const QJsonObject uo = u.toObject();
                    const QString prof = uo.value(QStringLiteral("profile")).toString();
                    kinds << prof;
                    const QString name =
                        rules && rules->profiles.contains(prof) ? rules->profiles[prof].name : prof;
                    const int wear = uo.value(QStringLiteral("wear")).toInt();
                    parts << QStringLiteral("<b>%1</b>: %2%3%4")
                                 .arg(esc(uo.value(QStringLiteral("id")).toString()), esc(name),
                                      wear ? QStringLiteral(", %1 Wear").arg(wear) : QString(),
                                      uo.contains(QStringLiteral("building"))
                                          ? QStringLiteral(", in the town")
                                          : QString());
                    rosterRows[side] << QStringList{uo.value(QStringLiteral("id")).toString(), name,
                                                    ro.value(QStringLiteral("id")).toString(),
                                                    QString::number(rules && rules->profiles.contains(prof)
                                                                        ? rules->profiles[prof].stamina
                                                                        : 1)};
                }
                h += QStringLiteral("<tr><td><b>%1</b> %2 (%3)</td><td>%4</td></tr>")
                         .arg(esc(ro.value(QStringLiteral("id")).toString()),
                              esc(ro.value(QStringLiteral("name")).toString()),
                              esc(ro.value(QStringLiteral("def")).toString()),
                              parts.join(QStringLiteral("<br>")));
            }
            h += QStringLiteral("</table>");
        }
        if (rules) {
            h +=
                QStringLiteral(
                    "<h3>Unit profiles (Brevis Editio)</h3><table border='1' cellspacing='0' cellpadding='3' "
                    "width='100%'><tr>%1%2%3%4%5%6%7%8%9</tr>")
                    .arg(th.arg(QStringLiteral("Profile")), th.arg(QStringLiteral("Speed")),
                         th.arg(QStringLiteral("Melee")), th.arg(QStringLiteral("Shoot (range)")),
                         th.arg(QStringLiteral("Discipline")), th.arg(QStringLiteral("Courage")),
                         th.arg(QStringLiteral("Stamina")),
                         th.arg(QStringLiteral("Defence inf/cav/salvo/art")),
                         th.arg(QStringLiteral("Base (in), scores")));
            QStringList order = kinds.values();
            order.sort();
            for (const QString& prof : order) {
                if (!rules->profiles.contains(prof))
                    continue;
                const tactical::TProfile& pr = rules->profiles[prof];
                h += QStringLiteral(
                         "<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td>%6</td><td>%7</td>"
                         "<td>%8</td><td>%9</td></tr>")
                         .arg(esc(pr.name))
                         .arg(pr.speed)
                         .arg(pr.melee)
                         .arg(pr.shoot > 0 ? QStringLiteral("%1 (%2\")").arg(pr.shoot).arg(pr.range)
                                           : QStringLiteral("—"))
                         .arg(pr.discipline)
                         .arg(pr.courage)
                         .arg(pr.stamina)
                         .arg(QStringLiteral("%1/%2/%3/%4")
                                  .arg(pr.defInf)
                                  .arg(pr.defCav)
                                  .arg(pr.defSalvo)
                                  .arg(pr.defArt))
                         .arg(QStringLiteral("%1 × %2, %3")
                                  .arg(pr.baseW, 0, 'f', 1)
                                  .arg(pr.baseD, 0, 'f', 1)
                                  .arg(pr.score));
            }
            h += QStringLiteral("</table>");
        }
    }

    // ---- the terrain, the special rules, the victory conditions
    h += QStringLiteral("<h3>Terrain</h3><p>Sizes and places in %1 (x across from the left edge, y from "
                        "the top edge of the map).</p><ul>")
             .arg(terc ? QStringLiteral("inches") : QStringLiteral("TUM"));
    for (const auto& t : m_out.value(QStringLiteral("terrain")).toArray()) {
        const QJsonObject to = t.toObject();
        const QString type = readableType(to.value(QStringLiteral("type")).toString());
        const QString name = to.value(QStringLiteral("name")).toString(),
                      id = to.value(QStringLiteral("id")).toString();
        QString text = name.isEmpty() ? type : QStringLiteral("%1 (%2)").arg(name, type);
        if (to.contains(QStringLiteral("size")))
            text += QStringLiteral(", %1").arg(to.value(QStringLiteral("size")).toString());
        if (terc && !id.isEmpty())
            text += QStringLiteral(" — %1").arg(id);
        if (const QString where = placeText(to); !where.isEmpty())
            text += QStringLiteral(": %1").arg(where);
        if (to.contains(QStringLiteral("roll")))
            text += QStringLiteral(", roll %1").arg(to.value(QStringLiteral("roll")).toInt());
        h += QStringLiteral("<li>%1</li>").arg(esc(text));
    }
    h += QStringLiteral("</ul><h3>Special rules and notes</h3><ul>");
    for (const auto& n : m_out.value(QStringLiteral("notes")).toArray())
        h += QStringLiteral("<li>%1</li>").arg(esc(n.toString()));
    h += QStringLiteral("</ul><h3>Victory conditions</h3>");
    if (!terc) {
        const tactical::TvbdRules* rules = tactical::defaultTvbdRules(nullptr);
        tactical::BattleState st;
        QString why;
        if (rules && tactical::scenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why))
            h += QStringLiteral(
                     "<p>At the end of each turn (15.6) an army that has lost at least its breakpoint "
                     "of units (routed or eliminated, Commanders included; a Large Pike+Shot counts two) "
                     "breaks and loses: "
                     "<b>%1</b> breaks at %2 lost of %3, <b>%4</b> at %5 lost of %6. Both in the same "
                     "turn: a draw. If neither has broken at the end of turn %7 (15.7), the attacker, "
                     "%8, loses.</p>")
                     .arg(esc(st.sideName[0]))
                     .arg(tactical::TvbdEngine::armyBreakpoint(st.originalUnits[0]))
                     .arg(st.originalUnits[0])
                     .arg(esc(st.sideName[1]))
                     .arg(tactical::TvbdEngine::armyBreakpoint(st.originalUnits[1]))
                     .arg(st.originalUnits[1])
                     .arg(st.turnLimit)
                     .arg(esc(st.sideName[st.attacker]));
    } else {
        const tactical::TerciosRules* rules = tactical::defaultTerciosRules(nullptr);
        h += QStringLiteral(
                 "<p>Each destroyed enemy unit scores: a squadron (every Foot unit but a company) 2, a "
                 "Horse unit, a Company or a gun 1 (L1507-1531). At the end of a turn the game ends when "
                 "the difference of the scores reaches:</p><table border='1' cellspacing='0' "
                 "cellpadding='3'><tr>%1%2%3</tr>")
                 .arg(th.arg(QStringLiteral("End of turn")), th.arg(QStringLiteral("Advantage")),
                      th.arg(QStringLiteral("Victory")));
        if (rules)
            for (const auto& row : rules->endTable)
                h += QStringLiteral("<tr><td>%1</td><td>%2 or more</td><td>%3</td></tr>")
                         .arg(row.turn)
                         .arg(row.adv)
                         .arg(esc(row.level));
        h += QStringLiteral("</table><p>At the end of the last turn with no advantage, a draw.</p>");
    }
    if (!roster)
        return h;

    // ---- the roster and casualty sheet: a page per side
    for (int side = 0; side < 2; ++side) {
        h += QStringLiteral("<h2 style='page-break-before: always; color:%1'>%2 — roster and casualties</h2>")
                 .arg(theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker).name(), esc(sideName(side)));
        h += QStringLiteral(
                 "<p>Turn: ☐1 ☐2 ☐3 ☐4 ☐5 ☐6 ☐7 ☐8%1 &nbsp;&nbsp; Units lost: ______%3 &nbsp;&nbsp; "
                 "%2</p>")
                 .arg(terc ? QString() : QStringLiteral(" ☐9 ☐10"),
                      terc ? QStringLiteral("Score (enemy units destroyed): ______")
                           : QStringLiteral("Commands broken: ______"))
                 .arg(breakAt[side] ? QStringLiteral(" (the army breaks at %1)").arg(breakAt[side])
                                    : QString());
        h += QStringLiteral(
                 "<table border='1' cellspacing='0' cellpadding='4' width='100%'><tr>%1%2%3%4%5%6</tr>")
                 .arg(th.arg(QStringLiteral("Unit")),
                      th.arg(terc ? QStringLiteral("Regiment") : QStringLiteral("Command")),
                      th.arg(QStringLiteral("Type")),
                      th.arg(terc ? QStringLiteral("Wear (cross one per Wear)")
                                  : QStringLiteral("Resolve (cross one per loss)")),
                      th.arg(terc ? QStringLiteral("Disordered (D) / destroyed (X)")
                                  : QStringLiteral("Routed (R) / eliminated (E)")),
                      th.arg(QStringLiteral("Notes")));
        for (const QStringList& row : rosterRows[side]) {
            const bool commander = row[3].toInt() == 0;
            h += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td><td>%3</td><td>%4</td><td>%5</td><td "
                                "width='30%'></td></tr>")
                     .arg(esc(row[0]), esc(row[2]), esc(row[1]),
                          commander ? QStringLiteral("—")
                                    : QString(QStringLiteral("☐ ")).repeated(row[3].toInt()),
                          commander ? QStringLiteral("lost ☐")
                          : terc    ? QStringLiteral("D ☐ &nbsp; X ☐")
                                    : QStringLiteral("R ☐ &nbsp; E ☐"));
        }
        h += QStringLiteral("</table>");
    }
    return h;
}

bool BattleExportDialog::writeTo(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(m_out).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

int BattleExportDialog::paintBriefing(QPainter& p, const QRect& page, int index) const {
    QTextDocument doc;
    doc.documentLayout()->setPaintDevice(p.device()); // laid out in the page's own resolution
    doc.setDefaultFont(theme::sans(9));
    doc.setHtml(briefingHtml(true));
    doc.setPageSize(QSizeF(page.width(), page.height()));
    const int pages = 1 + doc.pageCount();
    p.save();
    p.fillRect(page, Qt::white);
    if (index == 0) {
        // Page 1: the title, the place, date and rules, the table map and its legend.
        QFont tf = theme::serif(18, true);
        tf.setPixelSize(std::max(12, page.height() / 26));
        p.setFont(tf);
        p.setPen(theme::ink());
        const int line = page.height() / 18;
        p.drawText(QRect(page.left(), page.top(), page.width(), line), Qt::AlignLeft | Qt::AlignVCenter,
                   m_in.title);
        QFont sf = theme::sans(9);
        sf.setPixelSize(std::max(8, page.height() / 55));
        p.setFont(sf);
        p.drawText(QRect(page.left(), page.top() + line, page.width(), line / 2 + 4),
                   Qt::AlignLeft | Qt::AlignVCenter, subtitle());
        const int legendH = page.height() / 13; // two lines: the colours, then the symbols
        const QRectF mapRect(page.left(), page.top() + line * 1.6, page.width(),
                             page.height() - line * 1.6 - legendH - 4);
        m_preview->paintOn(p, mapRect);
        // The legend: the terrain's colours, the sides, the symbols.
        struct Key {
            QString text;
            QColor col;
            int kind; // 0 a swatch, 1 a line, 2 a hatched swatch
        };
        const bool terc = tercios();
        const QList<Key> keys{
            {QStringLiteral("town / village"), terrainColor(QStringLiteral("town")), 0},
            {QStringLiteral("woods / forest"), terrainColor(QStringLiteral("woods")), 0},
            {QStringLiteral("hill"), terrainColor(QStringLiteral("gentleHill")), 0},
            {terc ? QStringLiteral("steep hill") : QStringLiteral("difficult hill"),
             terrainColor(QStringLiteral("difficultHill")), 0},
            {terc ? QStringLiteral("rocks") : QStringLiteral("rough"), terrainColor(QStringLiteral("rough")),
             0},
            {terc ? QStringLiteral("cropland, other") : QStringLiteral("field"),
             terrainColor(QStringLiteral("field")), 0},
            {QStringLiteral("water"), terrainColor(QStringLiteral("river")), 1},
            {terc ? QStringLiteral("road (no effect)") : QStringLiteral("road"),
             terrainColor(QStringLiteral("road")), 1},
            {QStringLiteral("shut town (impassable)"), terrainColor(QStringLiteral("town")).darker(160), 2},
            {QStringLiteral("%1 (attacker)").arg(m_in.sides[0].name), theme::sideColor(m_attacker), 0},
            {QStringLiteral("%1 (defender)").arg(m_in.sides[1].name), theme::sideColor(1 - m_attacker), 0},
        };
        QFont lf = theme::sans(8);
        lf.setPixelSize(std::max(8, legendH / 6));
        p.setFont(lf);
        const QFontMetricsF fm(lf);
        double x = page.left();
        double y = page.bottom() - legendH * 0.78;
        const double sw = legendH / 5.0;
        for (const Key& k : keys) {
            if (x + sw * 1.5 + 4 + fm.horizontalAdvance(k.text) > page.right()) { // wrap to a second line
                x = page.left();
                y += legendH * 0.28;
            }
            p.setPen(QPen(k.col.darker(140), 1));
            if (k.kind == 1) {
                p.setPen(QPen(k.col, sw / 3));
                p.drawLine(QPointF(x, y), QPointF(x + sw * 1.5, y));
            } else {
                p.setBrush(k.kind == 2 ? QBrush(k.col, Qt::DiagCrossPattern) : QBrush(k.col));
                p.drawRect(QRectF(x, y - sw / 2, sw * 1.5, sw));
            }
            p.setPen(theme::ink());
            p.drawText(QPointF(x + sw * 1.5 + 4, y + fm.ascent() / 2.5), k.text);
            x += sw * 1.5 + 14 + fm.horizontalAdvance(k.text);
        }
        const QString symbols =
            terc ? QStringLiteral("Units drawn on their bases; regiment ids as in the orders of battle.")
                 : QStringLiteral("Letters: P Pike+Shot, S Shot, H Horse, L Light Horse, D Dragoons, "
                                  "R Rabble, C Cannon; circles: Commanders with their command's id.");
        p.drawText(QRectF(page.left(), y + legendH * 0.12, page.width(), page.bottom() - y - legendH * 0.12),
                   Qt::AlignVCenter | Qt::TextWordWrap,
                   symbols + QStringLiteral(" Grid every %1; tinted bands: the deployment zones%2.")
                                 .arg(terc ? QStringLiteral("6 inches") : QStringLiteral("5 TUM"),
                                      terc ? QString() : QStringLiteral(", dashed lines: the centre zone")));
    } else if (index < pages) {
        // The following pages: the orders of battle, terrain, special rules and a casualty roster.
        const int k = index - 1;
        p.translate(page.left(), page.top() - k * page.height());
        doc.drawContents(&p, QRectF(0, k * page.height(), page.width(), page.height()));
    }
    p.restore();
    return pages;
}

int BattleExportDialog::briefingPages(const QSize& size) const {
    QImage img(QSize(8, 8), QImage::Format_RGB32);
    QPainter p(&img);
    const int m = size.width() * 12 / 297;
    return paintBriefing(p, QRect(QPoint(0, 0), size).adjusted(m, m, -m, -m), -1);
}

QImage BattleExportDialog::briefingPage(int index, const QSize& size) const {
    QImage img(size, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    // The printable area of the page inside 12 mm margins, as in the PDF.
    const int m = size.width() * 12 / 297;
    paintBriefing(p, QRect(QPoint(0, 0), size).adjusted(m, m, -m, -m), index);
    return img;
}

bool BattleExportDialog::writePdf(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    // Written to a temporary name and renamed, so a failed write leaves no half file under the name.
    const QString tmp = file + QStringLiteral(".part");
    {
        QPdfWriter pdf(tmp);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageOrientation(QPageLayout::Landscape);
        pdf.setPageMargins(QMarginsF(12, 12, 12, 12), QPageLayout::Millimeter);
        pdf.setResolution(150);
        pdf.setTitle(m_title->text());
        pdf.setCreator(QStringLiteral("Westphalia"));
        QPainter p;
        if (!p.begin(&pdf)) {
            *error = QStringLiteral("%1: cannot write the PDF").arg(file);
            return false;
        }
        const QRect page = p.viewport();
        const int pages = paintBriefing(p, page, 0);
        for (int k = 1; k < pages; ++k) {
            pdf.newPage();
            paintBriefing(p, page, k);
        }
        p.end();
    }
    QFile::remove(file);
    if (!QFile::rename(tmp, file)) {
        QFile::remove(tmp);
        *error = QStringLiteral("%1: cannot write the PDF").arg(file);
        return false;
    }
    return true;
}

bool BattleExportDialog::writeSvg(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buf);
        svg.setSize(QSize(1200, 800));
        svg.setViewBox(QRect(0, 0, 1200, 800));
        svg.setTitle(m_title->text());
        QPainter p(&svg);
        m_preview->paintOn(p, QRectF(0, 0, 1200, 800));
    }
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(buf.data()) != buf.data().size() || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

void BattleExportDialog::saveAs() {
    const QString dir = QSettings()
                            .value(QStringLiteral("files/lastDir"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    QString name = m_in.title.isEmpty() ? QStringLiteral("battle") : m_in.title;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString kind = tercios() ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    const QString file = QFileDialog::getSaveFileName(
        this,
        QStringLiteral("Save the %1 scenario")
            .arg(tercios() ? QStringLiteral("Tercios") : QStringLiteral("TVBD")),
        dir + QLatin1Char('/') + name.toLower() + QLatin1Char('.') + kind + QStringLiteral(".json"),
        QStringLiteral("Battle scenarios (*.json)"));
    if (file.isEmpty())
        return;
    QString error;
    QString base = file;
    if (base.endsWith(QLatin1String(".json")))
        base.chop(5);
    // The scenario, its printable briefing and the table map, side by side.
    if (!writeTo(file, &error) || !writePdf(base + QStringLiteral(".pdf"), &error) ||
        !writeSvg(base + QStringLiteral(".svg"), &error))
        QMessageBox::warning(this, QStringLiteral("Cannot save the battle"), error);
}

} // namespace wp
