#include "mappainter.h"

#include <QFile>
#include <QFont>
#include <QFontMetricsF>
#include <QLinearGradient>
#include <QPainter>
#include <QPolygonF>
#include <QRadialGradient>
#include <QSvgRenderer>
#include <QtMath>

#include <QMap>
#include <algorithm>
#include <cmath>

static void initViewResources() {
    // The art is compiled into the views library; a static library needs its resources initialised.
    if (!QFile::exists(QStringLiteral(":/art/pillage.svg")))
        Q_INIT_RESOURCE(westphalia);
}

namespace wp {

namespace {

constexpr double kScale = 120.0;     // scene units per degree of latitude
constexpr double kCellRadius = 0.62; // degrees: how far an Area's tint reaches from its cities
constexpr double kMargin = 0.9;      // degrees around the outermost spaces

// Clips a convex polygon to the half-plane of points closer to `a` than to `b`.
QPolygonF clipHalfPlane(const QPolygonF& poly, QPointF a, QPointF b) {
    const QPointF m = (a + b) / 2.0;
    const QPointF n = b - a;
    auto side = [&](QPointF p) { return QPointF::dotProduct(p - m, n); }; // <= 0: keep
    QPolygonF out;
    const qsizetype count = poly.size();
    for (qsizetype i = 0; i < count; ++i) {
        QPointF cur = poly[i], next = poly[(i + 1) % count];
        double sc = side(cur), sn = side(next);
        if (sc <= 0)
            out << cur;
        if ((sc <= 0) != (sn <= 0)) {
            double t = sc / (sc - sn);
            out << cur + (next - cur) * t;
        }
    }
    return out;
}

QPainterPath starPath(QPointF c, double r) {
    QPolygonF poly;
    for (int i = 0; i < 10; ++i) {
        double ang = -M_PI / 2 + i * M_PI / 5;
        double rr = (i % 2 == 0) ? r : r * 0.45;
        poly << c + QPointF(std::cos(ang) * rr, std::sin(ang) * rr);
    }
    QPainterPath p;
    p.addPolygon(poly);
    p.closeSubpath();
    return p;
}

void haloText(QPainter& p, QPointF pos, const QString& text, const QFont& font, QColor fg,
              QColor halo = QColor(255, 255, 255, 230), double haloWidth = 3.0) {
    QPainterPath path;
    path.addText(pos, font, text);
    p.save();
    p.setPen(QPen(halo, haloWidth, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    p.setPen(Qt::NoPen);
    p.setBrush(fg);
    p.drawPath(path);
    p.restore();
}

// "AT WAR" on a nation's flag `r` (Denmark, Sweden).
void drawWarTag(QPainter& p, const QRectF& r) {
    QFont tag(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    const QRectF pill(r.right() - 30, r.top() - 8, 44, 15);
    p.setPen(QPen(Qt::white, 1.2));
    p.setBrush(QColor(0x8a, 0x10, 0x10));
    p.drawRoundedRect(pill, 7, 7);
    p.setFont(tag);
    p.drawText(pill, Qt::AlignCenter, QStringLiteral("AT WAR"));
}

// A pastel colour per Area for the plain (no scenario) map.
QColor areaPastel(int i) {
    static const int hues[] = {20, 200, 95, 45, 280, 150, 0, 240, 60, 320, 175, 110, 30, 260, 130, 80};
    int h = hues[i % 16];
    int s = 55 + (i / 16) * 25;
    return QColor::fromHsv(h, s, 238);
}

} // namespace

QColor MapPainter::sideColor(int side) {
    return side == 0   ? controlColor(Control::Catholic)
           : side == 1 ? controlColor(Control::Protestant)
                       : controlColor(Control::None);
}

QColor MapPainter::controlColor(Control c) {
    switch (c) {
    case Control::Catholic:
        return QColor(0xb0, 0x25, 0x2e);
    case Control::Protestant:
        return QColor(0x1f, 0x4e, 0x9a);
    case Control::Neutral:
        return QColor(0x8a, 0x84, 0x70);
    case Control::None:
        break;
    }
    return QColor(0x66, 0x66, 0x66);
}

QColor MapPainter::controlFill(Control c) {
    switch (c) {
    case Control::Catholic:
        return QColor(0xee, 0xc4, 0xbf);
    case Control::Protestant:
        return QColor(0xbd, 0xd2, 0xf0);
    case Control::Neutral:
        return QColor(0xe8, 0xe2, 0xc8);
    case Control::None:
        break;
    }
    return QColor(0xf1, 0xec, 0xdc);
}

MapPainter::MapPainter(const GameData& data) : d(data) {
    initViewResources();
    auto svg = [](const char* name) {
        return std::make_unique<QSvgRenderer>(QStringLiteral(":/art/%1.svg").arg(QLatin1String(name)));
    };
    m_pillage = svg("pillage");
    m_revolt = svg("revolt");
    m_siege = svg("siege");
    m_base = svg("base");
    m_mask = svg("mask");
    double minLat = 90, maxLat = -90, minLon = 180, maxLon = -180;
    auto extend = [&](double lat, double lon) {
        minLat = std::min(minLat, lat);
        maxLat = std::max(maxLat, lat);
        minLon = std::min(minLon, lon);
        maxLon = std::max(maxLon, lon);
    };
    for (const City& c : d.cities)
        extend(c.lat, c.lon);
    for (const Box& b : d.boxes)
        extend(b.lat, b.lon);
    if (d.cities.isEmpty())
        extend(50, 10);
    m_lat0 = maxLat + kMargin;
    m_lon0 = minLon - kMargin * 1.6;
    m_cosLat = std::cos(qDegreesToRadians((minLat + maxLat) / 2));
    m_scale = kScale;
    const QPointF br = project(minLat - kMargin, maxLon + kMargin * 1.6);
    m_rect = QRectF(QPointF(0, 0), br);
    for (const City& c : d.cities)
        m_cityPos.append(project(c.lat, c.lon));
    for (const Polyline& s : d.seas)
        m_sea.addPath(polyPath(s.points, true));
    m_sea.setFillRule(Qt::WindingFill);
    buildCells();
}

MapPainter::~MapPainter() = default;

QPointF MapPainter::project(double lat, double lon) const {
    return QPointF((lon - m_lon0) * m_cosLat * m_scale, (m_lat0 - lat) * m_scale);
}

QPointF MapPainter::boxPos(int box) const {
    const Box& b = d.boxes[box];
    return project(b.lat, b.lon);
}

QPointF MapPainter::locPos(int loc) const {
    if (loc >= 10000)
        return loc - 10000 < d.boxes.size() ? boxPos(loc - 10000) : QPointF();
    return loc >= 0 ? cityPos(loc) : QPointF();
}

QRectF MapPainter::boxRect(int box) const {
    const QPointF c = boxPos(box);
    if (d.boxes[box].kind == QLatin1String("up"))
        return QRectF(c - QPointF(85, 55), QSizeF(170, 110));
    return QRectF(c - QPointF(45, 28), QSizeF(90, 56));
}

int MapPainter::cityAt(const QPointF& pos, double radius) const {
    int best = -1;
    double bestDist = radius;
    for (qsizetype i = 0; i < m_cityPos.size(); ++i) {
        const double dist = QLineF(m_cityPos[i], pos).length();
        if (dist < bestDist) {
            bestDist = dist;
            best = static_cast<int>(i);
        }
    }
    return best;
}

int MapPainter::boxAt(const QPointF& pos) const {
    for (qsizetype b = 0; b < d.boxes.size(); ++b)
        if (boxRect(static_cast<int>(b)).contains(pos))
            return static_cast<int>(b);
    return -1;
}

QPainterPath MapPainter::polyPath(const QList<QPair<double, double>>& pts, bool closed) const {
    QPainterPath path;
    for (qsizetype i = 0; i < pts.size(); ++i) {
        QPointF p = project(pts[i].first, pts[i].second);
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    if (closed)
        path.closeSubpath();
    return path;
}

void MapPainter::buildCells() {
    const double r = kCellRadius * m_scale;
    const qsizetype n = d.cities.size();
    m_cellPaths.resize(n);
    for (qsizetype i = 0; i < n; ++i) {
        const QPointF c = m_cityPos[i];
        QPolygonF poly;
        for (int k = 0; k < 36; ++k) {
            double ang = k * 2 * M_PI / 36;
            poly << c + QPointF(std::cos(ang) * r, std::sin(ang) * r);
        }
        for (qsizetype j = 0; j < n && !poly.isEmpty(); ++j) {
            if (j == i)
                continue;
            QPointF o = m_cityPos[j];
            if (QLineF(c, o).length() < 2 * r)
                poly = clipHalfPlane(poly, c, o);
        }
        QPainterPath path;
        path.addPolygon(poly);
        path.closeSubpath();
        m_cellPaths[i] = path;
    }
    m_areaPaths.resize(d.areas.size());
    for (qsizetype i = 0; i < n; ++i) {
        const City& c = d.cities[i];
        int a = c.area >= 0 ? c.area : c.within;
        if (c.france) {
            m_francePath = m_francePath.united(m_cellPaths[i]);
        } else if (a >= 0) {
            m_areaPaths[a] = m_areaPaths[a].united(m_cellPaths[i]);
        }
    }
    for (qsizetype a = 0; a < d.areas.size(); ++a)
        if (d.areas[a].spanishZone)
            m_spanishZone = m_spanishZone.united(m_areaPaths[a]);
    m_spanishZone = m_spanishZone.united(m_francePath);
    for (qsizetype i = 0; i < n; ++i)
        if (d.cities[i].independent && d.cities[i].spanishZone)
            m_spanishZone = m_spanishZone.united(m_cellPaths[i]);
    if (!m_sea.isEmpty()) {
        for (auto& p : m_areaPaths)
            p = p.subtracted(m_sea);
        m_francePath = m_francePath.subtracted(m_sea);
        m_spanishZone = m_spanishZone.subtracted(m_sea);
    }
}

int MapPainter::areaAt(const QPointF& pos) const {
    for (qsizetype a = 0; a < m_areaPaths.size(); ++a)
        if (m_areaPaths[a].contains(pos))
            return static_cast<int>(a);
    return -1;
}

QPointF MapPainter::areaRegionPoint(int area) const {
    // The city of the Area whose position is deepest inside the Area's region.
    const Area& a = d.areas[area];
    if (a.cities.isEmpty())
        return project(a.boxLat, a.boxLon);
    QPointF sum;
    for (int c : a.cities)
        sum += m_cityPos[c];
    QPointF centroid = sum / static_cast<double>(a.cities.size());
    if (m_areaPaths[area].contains(centroid))
        return centroid;
    return m_cityPos[a.cities.first()] + QPointF(0, -12);
}

void MapPainter::paint(QPainter& p, const MapState& s, int layers) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    if (!(layers & NoBackground))
        p.fillRect(m_rect, QColor(0xf4, 0xee, 0xdc)); // land outside every Area
    if (layers & (Areas | Tints))
        drawTints(p, s);
    if (layers & (Areas | AreaLines))
        drawAreaLines(p);
    if (layers & Pathways)
        drawPathways(p);
    if (layers & Boxes)
        drawBoxes(p, s, true, true);
    else if (layers & (BoxArt | WarTags))
        drawBoxes(p, s, layers & BoxArt, layers & WarTags);
    if (layers & CitySymbols)
        drawCitySymbols(p, s, false, false);
    else if (layers & (CitySymbolsPlain | CityControl))
        drawCitySymbols(p, s, layers & CitySymbolsPlain, !(layers & CitySymbolsPlain));
    if (layers & CityLabels)
        drawCityLabels(p, s);
    if (layers & ControlBoxes)
        drawControlBoxes(p, s, true, true);
    else if (layers & (AreaLabels | ControlMarkers))
        drawControlBoxes(p, s, layers & AreaLabels, layers & ControlMarkers);
    if (layers & Markers)
        drawMarkers(p, s);
    if (layers & Highlights) {
        for (auto it = s.highlights.begin(); it != s.highlights.end(); ++it)
            drawHighlight(p, it.key(), it.value());
        drawPath(p, s);
    }
    if (layers & Stacks)
        drawStacks(p, s);
    if (layers & Legend)
        drawLegend(p, s, true, true);
    else if (layers & (MapTitle | LegendKey))
        drawLegend(p, s, layers & MapTitle, layers & LegendKey);
    if (!(layers & NoFrame)) {
        p.setPen(QPen(QColor(0x5a, 0x4a, 0x30), 4));
        p.setBrush(Qt::NoBrush);
        p.drawRect(m_rect.adjusted(2, 2, -2, -2));
    }
    p.restore();
}

bool MapPainter::layersDiffer(int layers, const MapState& a, const MapState& b) {
    if ((layers & (Areas | Tints | ControlBoxes | ControlMarkers)) && a.areaControl != b.areaControl)
        return true;
    if ((layers & (Areas | Tints)) && a.franceInWar != b.franceInWar)
        return true;
    if ((layers & (Boxes | WarTags)) && (a.denmarkInWar != b.denmarkInWar || a.swedenInWar != b.swedenInWar))
        return true;
    if ((layers & (CitySymbols | CityControl)) && a.cityControl != b.cityControl)
        return true;
    if ((layers & (ControlBoxes | AreaLabels | ControlMarkers)) && a.electorateArea != b.electorateArea)
        return true;
    if ((layers & (Legend | MapTitle)) && a.title != b.title)
        return true;
    if (layers & Markers) {
        if (a.markers.size() != b.markers.size())
            return true;
        for (auto it = a.markers.begin(); it != a.markers.end(); ++it) {
            const auto other = b.markers.constFind(it.key());
            if (other == b.markers.constEnd())
                return true;
            const CityMarkers &x = it.value(), &y = other.value();
            if (x.pillage != y.pillage || x.siege != y.siege || x.sieger != y.sieger ||
                x.revolt != y.revolt || x.masked != y.masked || x.swedishBase != y.swedishBase)
                return true;
        }
    }
    if ((layers & Stacks) && a.stacks.size() + b.stacks.size() > 0)
        return true; // stacks are the view's own items; a painter layer with them is always redrawn
    if ((layers & Highlights) &&
        (a.highlights != b.highlights || a.path != b.path || a.pathLabel != b.pathLabel))
        return true;
    return false;
}

void MapPainter::drawTints(QPainter& p, const MapState& s) const {
    const bool hasState = !s.areaControl.isEmpty();
    for (qsizetype a = 0; a < d.areas.size(); ++a) {
        QColor fill = hasState ? controlFill(s.areaControl.value(static_cast<int>(a), Control::None))
                               : areaPastel(static_cast<int>(a));
        p.fillPath(m_areaPaths[a], fill);
    }
    // France: no Control Box; Protestant once in the war (2.42).
    p.fillPath(m_francePath, s.franceInWar ? controlFill(Control::Protestant) : QColor(0xe3, 0xdd, 0xee));
}

void MapPainter::drawAreaLines(QPainter& p) const {
    // Sea over the tints, so the coast cuts the Areas.
    if (!m_sea.isEmpty()) {
        p.fillPath(m_sea, QColor(0xa9, 0xcd, 0xe3));
        p.strokePath(m_sea, QPen(QColor(0x5f, 0x8f, 0xb3), 1.6));
    }
    p.save();
    p.setBrush(Qt::NoBrush);
    QPen river(QColor(0x6d, 0x9e, 0xc6), 2.2, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    p.setPen(river);
    for (const Polyline& r : d.rivers)
        p.drawPath(polyPath(r.points, false));
    p.restore();

    // Area borders.
    QPen border(QColor(0x6b, 0x55, 0x3a, 200), 2.0, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    for (const QPainterPath& path : m_areaPaths)
        p.strokePath(path, border);
    p.strokePath(m_francePath, QPen(QColor(0x6b, 0x55, 0x3a, 200), 2.0, Qt::DashLine));

    // The red Spanish Zone boundary (17.Sp.2).
    QPen zone(QColor(0xd0, 0x10, 0x10, 170), 5.0, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin);
    p.strokePath(m_spanishZone, zone);
}

void MapPainter::drawPathways(QPainter& p) const {
    p.save();
    p.setPen(QPen(QColor(0x4a, 0x36, 0x22), 2.4, Qt::SolidLine, Qt::RoundCap));
    for (const Pathway& pw : d.pathways) {
        if (d.cities[pw.a].offmap || d.cities[pw.b].offmap)
            p.setPen(QPen(QColor(0x4a, 0x36, 0x22), 2.4, Qt::DashLine, Qt::RoundCap));
        else
            p.setPen(QPen(QColor(0x4a, 0x36, 0x22), 2.4, Qt::SolidLine, Qt::RoundCap));
        p.drawLine(m_cityPos[pw.a], m_cityPos[pw.b]);
    }
    p.restore();
}

void MapPainter::drawBoxes(QPainter& p, const MapState& s, bool art, bool tags) const {
    QFont f(QStringLiteral("DejaVu Sans"), 11, QFont::Bold);
    for (qsizetype bi = 0; bi < d.boxes.size(); ++bi) {
        const Box& b = d.boxes[bi];
        const QPointF c = boxPos(static_cast<int>(bi));
        const QRectF r = boxRect(static_cast<int>(bi));
        if (!art) { // only the state: "AT WAR"
            if (b.kind == QLatin1String("denmark") || b.kind == QLatin1String("sweden"))
                if (b.kind == QLatin1String("denmark") ? s.denmarkInWar : s.swedenInWar)
                    drawWarTag(p, r);
            continue;
        }

        // Arrows from the box to its cities (drawn first, under the box).
        for (const Arrow& a : d.arrows) {
            if (a.box != bi)
                continue;
            QPointF to = m_cityPos[a.city];
            QLineF line(c, to);
            // start at the box edge, end short of the city symbol
            QPointF start = c;
            for (double t = 0; t <= 1.0; t += 0.01) {
                QPointF pt = line.pointAt(t);
                if (!r.contains(pt)) {
                    start = pt;
                    break;
                }
            }
            QLineF arrow(start, to);
            arrow.setLength(std::max(0.0, arrow.length() - 12));
            QColor col = b.kind == QLatin1String("up")        ? QColor(0xe0, 0x7a, 0x10)
                         : b.kind == QLatin1String("denmark") ? QColor(0xc8, 0x10, 0x2e)
                                                              : QColor(0x00, 0x5b, 0xae);
            p.setPen(QPen(col, 4, Qt::SolidLine, Qt::RoundCap));
            p.drawLine(arrow);
            auto head = [&](QLineF l) {
                double ang = std::atan2(l.dy(), l.dx());
                QPointF tip = l.p2();
                QPolygonF h{tip, tip - QPointF(std::cos(ang - 0.45) * 14, std::sin(ang - 0.45) * 14),
                            tip - QPointF(std::cos(ang + 0.45) * 14, std::sin(ang + 0.45) * 14)};
                p.setBrush(col);
                p.setPen(Qt::NoPen);
                p.drawPolygon(h);
            };
            head(arrow);
            if (!a.oneWay)
                head(QLineF(arrow.p2(), arrow.p1()));
        }

        if (b.kind == QLatin1String("denmark") || b.kind == QLatin1String("sweden")) {
            // The national flag: Nordic cross.
            QColor field =
                b.kind == QLatin1String("denmark") ? QColor(0xc8, 0x10, 0x2e) : QColor(0x00, 0x6a, 0xa7);
            QColor cross = b.kind == QLatin1String("denmark") ? Qt::white : QColor(0xfe, 0xcc, 0x02);
            p.setPen(QPen(Qt::black, 1.5));
            p.setBrush(field);
            p.drawRect(r);
            p.fillRect(QRectF(r.left() + r.width() * 0.3, r.top(), r.width() * 0.14, r.height()), cross);
            p.fillRect(QRectF(r.left(), r.center().y() - r.height() * 0.1, r.width(), r.height() * 0.2),
                       cross);
            haloText(p, QPointF(r.left(), r.bottom() + 16), b.name, f, Qt::black);
            const bool war = b.kind == QLatin1String("denmark") ? s.denmarkInWar : s.swedenInWar;
            if (war && tags)
                drawWarTag(p, r);
        } else {
            p.setPen(QPen(QColor(0x7a, 0x4a, 0x10), 2.5));
            p.setBrush(QColor(0xf6, 0xd8, 0xa8));
            p.drawRoundedRect(r, 8, 8);
            p.setFont(f);
            p.setPen(Qt::black);
            p.drawText(QRectF(r.left(), r.top() + 4, r.width(), 20), Qt::AlignHCenter, b.name);
            QFont small(QStringLiteral("DejaVu Sans"), 8);
            p.setFont(small);
            QRectF cath(r.left() + 8, r.top() + 30, r.width() / 2 - 12, r.height() - 40);
            QRectF prot(r.center().x() + 4, r.top() + 30, r.width() / 2 - 12, r.height() - 40);
            p.setPen(QPen(controlColor(Control::Catholic), 1.5));
            p.setBrush(QColor(255, 255, 255, 160));
            p.drawRect(cath);
            p.setPen(QPen(controlColor(Control::Protestant), 1.5));
            p.drawRect(prot);
            p.setPen(Qt::black);
            p.drawText(cath, Qt::AlignCenter | Qt::TextWordWrap, QStringLiteral("Catholic army"));
            p.drawText(prot, Qt::AlignCenter | Qt::TextWordWrap, QStringLiteral("Protestant army"));
        }
    }
}

void MapPainter::drawCitySymbols(QPainter& p, const MapState& s, bool plain, bool controlledOnly) const {
    QFont small(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    for (qsizetype i = 0; i < d.cities.size(); ++i) {
        const City& c = d.cities[i];
        const QPointF pos = m_cityPos[i];
        const Control ctl = plain ? Control::None : s.cityControl.value(static_cast<int>(i), Control::None);
        if (controlledOnly && ctl != Control::Catholic && ctl != Control::Protestant)
            continue;
        QColor fill = Qt::white;
        if (ctl == Control::Catholic || ctl == Control::Protestant)
            fill = controlFill(ctl).darker(112);
        QColor outline = c.independent ? QColor(0x8a, 0x5a, 0x00) : QColor(0x2b, 0x22, 0x18);
        double penW = c.independent ? 3.0 : 1.8;
        p.setPen(QPen(outline, penW, c.offmap ? Qt::DashLine : Qt::SolidLine));
        p.setBrush(c.offmap ? QColor(0xdd, 0xd8, 0xe8) : fill);
        if (c.fortress) {
            p.drawPath(starPath(pos, c.independent ? 14 : 13));
            p.setFont(small);
            p.setPen(Qt::black);
            p.drawText(QRectF(pos.x() - 8, pos.y() - 6, 16, 12), Qt::AlignCenter,
                       QString::number(c.fortress->strength));
        } else {
            double r = c.independent ? 8.5 : 7;
            p.drawEllipse(pos, r, r);
        }
        if (c.independent && (ctl == Control::Catholic || ctl == Control::Protestant)) {
            // control marker on the Independent city space (2.43)
            p.setPen(QPen(Qt::white, 1));
            p.setBrush(controlColor(ctl));
            p.drawEllipse(pos + QPointF(-13, -11), 5, 5);
        }
    }
}

void MapPainter::drawCityLabels(QPainter& p, const MapState&) const {
    QFont nameFont(QStringLiteral("DejaVu Sans"), 9);
    QFont indFont(QStringLiteral("DejaVu Sans"), 9, QFont::Bold);
    QFont small(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    for (qsizetype i = 0; i < d.cities.size(); ++i) {
        const City& c = d.cities[i];
        const QPointF pos = m_cityPos[i];
        // Name, with VP and Elector for Independent cities.
        const QFont& font = c.independent ? indFont : nameFont;
        QFontMetricsF fm(font);
        double w = fm.horizontalAdvance(c.name);
        QPointF textPos(pos.x() - w / 2, pos.y() + (c.fortress ? 25 : 20));
        haloText(p, textPos, c.name, font, c.offmap ? QColor(0x55, 0x4a, 0x70) : QColor(0x20, 0x18, 0x10));
        if (c.independent || (c.france && c.vp > 0)) {
            QRectF vpBox(pos.x() + 10, pos.y() - 18, 13, 13);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0xb0, 0x10, 0x10));
            p.drawRect(vpBox);
            p.setFont(small);
            p.setPen(Qt::white);
            p.drawText(vpBox, Qt::AlignCenter, QString::number(c.vp));
            if (c.elector) {
                QRectF eBox(vpBox.right() + 1, vpBox.top(), 13, 13);
                p.setPen(Qt::NoPen);
                p.setBrush(QColor(0x6a, 0x2c, 0x91));
                p.drawRect(eBox);
                p.setPen(Qt::white);
                p.drawText(eBox, Qt::AlignCenter, QStringLiteral("E"));
            }
        }
    }
}

void MapPainter::drawControlBoxes(QPainter& p, const MapState& s, bool labels, bool markers) const {
    QFont nameFont(QStringLiteral("DejaVu Serif"), 13, QFont::Bold);
    nameFont.setItalic(true);
    nameFont.setLetterSpacing(QFont::AbsoluteSpacing, 1.5);
    QFont boxFont(QStringLiteral("DejaVu Sans"), 9, QFont::Bold);
    QFont tiny(QStringLiteral("DejaVu Sans"), 6, QFont::Bold);
    for (qsizetype ai = 0; ai < d.areas.size(); ++ai) {
        const Area& a = d.areas[ai];
        const QPointF c = project(a.boxLat, a.boxLon);
        const QString name = a.name.toUpper();
        QFontMetricsF fm(nameFont);
        double w = fm.horizontalAdvance(name);
        if (labels)
            haloText(p, QPointF(c.x() - w / 2, c.y() - 6), name, nameFont, QColor(0x4a, 0x2a, 0x10),
                     QColor(255, 255, 250, 220), 4.0);
        bool elector = a.elector;
        if (s.electorateArea >= 0 &&
            (a.id == QLatin1String("lower-palatinate") || a.id == QLatin1String("bavaria")))
            elector = s.electorateArea == ai;
        double boxW = 16;
        double total = boxW * 2 + (elector ? 34 : 0) + 18;
        double x = c.x() - total / 2;
        double y = c.y() + 1;
        auto cell = [&](QColor bg, QColor fg, const QString& t, double width, const QFont& f) {
            const QRectF r(x, y, width, 16);
            x += width;
            if (!labels)
                return;
            p.setPen(QPen(Qt::black, 0.8));
            p.setBrush(bg);
            p.drawRect(r);
            p.setFont(f);
            p.setPen(fg);
            p.drawText(r, Qt::AlignCenter, t);
        };
        cell(QColor(0xf5, 0xd0, 0x20), Qt::black, QString::number(a.control), boxW, boxFont);
        cell(QColor(0xb0, 0x10, 0x10), Qt::white, QString::number(a.vp), boxW, boxFont);
        if (elector)
            cell(QColor(0x6a, 0x2c, 0x91), Qt::white, QStringLiteral("ELECT"), 34, tiny);
        // The control marker: a disc in the control colour, or N for Neutral.
        Control ctl = s.areaControl.value(static_cast<int>(ai), Control::None);
        if (markers && ctl != Control::None) {
            QPointF mc(x + 10, y + 8);
            p.setPen(QPen(Qt::white, 1.2));
            p.setBrush(controlColor(ctl));
            p.drawEllipse(mc, 8, 8);
            if (ctl == Control::Neutral) {
                p.setFont(boxFont);
                p.setPen(Qt::white);
                p.drawText(QRectF(mc.x() - 8, mc.y() - 8, 16, 16), Qt::AlignCenter, QStringLiteral("N"));
            }
        }
    }
}

void MapPainter::drawMarkers(QPainter& p, const MapState& s) const {
    QFont tag(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    for (auto it = s.markers.begin(); it != s.markers.end(); ++it) {
        const int city = it.key();
        if (city < 0 || city >= m_cityPos.size())
            continue;
        const CityMarkers& m = it.value();
        const QPointF c = m_cityPos[city];
        if (m.siege > 0) {
            // Siege lines: a ring of trenches around the fortress in the besieger's colour.
            const QColor col = sideColor(m.sieger);
            p.save();
            p.setPen(QPen(col, 3.2, Qt::SolidLine, Qt::FlatCap));
            p.setBrush(Qt::NoBrush);
            for (int k = 0; k < 12; ++k) {
                const double a0 = k * 30.0;
                p.drawArc(QRectF(c - QPointF(19, 19), QSizeF(38, 38)), static_cast<int>(a0 * 16),
                          static_cast<int>(18 * 16));
            }
            p.restore();
            const QRectF box(c.x() - 34, c.y() - 8, 20, 16);
            p.setPen(QPen(Qt::white, 1.2));
            p.setBrush(col);
            p.drawRoundedRect(box, 3, 3);
            m_siege->render(&p, QRectF(box.left() + 2, box.top() + 1, 14, 14));
            if (m.siege > 1) {
                const QRectF plus(box.left() - 16, box.top(), 16, 16);
                p.setPen(QPen(Qt::white, 1.2));
                p.setBrush(QColor(0x2b, 0x22, 0x18));
                p.drawRoundedRect(plus, 3, 3);
                p.setFont(tag);
                p.drawText(plus, Qt::AlignCenter, QStringLiteral("+%1").arg(m.siege - 1));
            }
        }
        double x = c.x() + 9;
        const double y = c.y() + 4;
        if (m.pillage > 0) {
            for (int k = 0; k < m.pillage; ++k)
                m_pillage->render(&p, QRectF(x + k * 7, y, 13, 15));
            x += 8 + 7 * m.pillage;
        }
        if (m.revolt) {
            m_revolt->render(&p, QRectF(x, y, 15, 15));
            x += 16;
        }
        if (m.masked) {
            m_mask->render(&p, QRectF(x, y + 1, 16, 13));
            x += 17;
        }
        if (m.swedishBase)
            m_base->render(&p, QRectF(c.x() - 24, c.y() - 30, 18, 18));
    }
}

namespace {

const QFont& leaderFont() {
    static const QFont f(QStringLiteral("DejaVu Sans"), 8, QFont::Bold);
    return f;
}
const QFont& unitFont() {
    static const QFont f(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    return f;
}
const QFont& smallFont() {
    static const QFont f(QStringLiteral("DejaVu Sans"), 6);
    return f;
}
constexpr double kLeaderRow = 14;
constexpr double kUnitRow = 12.5;
constexpr double kPad = 2;

QString unitRowText(const MapCounter& c) {
    return c.label;
}

// The one line of a compact token: the commander (and how many more leaders), or the units.
QString compactText(const MapStack& st) {
    const QStringList leaders = st.leaderNames();
    if (!leaders.isEmpty())
        return leaders.size() > 1 ? QStringLiteral("%1 +%2").arg(leaders.front()).arg(leaders.size() - 1)
                                  : leaders.front();
    const int n = st.unitCount();
    return QStringLiteral("%1 unit%2").arg(n).arg(n == 1 ? "" : "s");
}

} // namespace

QSizeF MapPainter::stackSize(const MapStack& st, bool compact) const {
    const QFontMetricsF lf(leaderFont()), uf(unitFont()), sf(smallFont());
    if (compact)
        return QSizeF(std::max(lf.horizontalAdvance(compactText(st)) + 2 * kPad + 18, 40.0),
                      2 * kPad + 3 + kLeaderRow + (st.inside ? 7 : 0));
    double w = 0, h = 2 * kPad + 3; // 3: the side stripe
    for (const MapCounter& c : st.counters) {
        if (c.leader) {
            w = std::max(w, lf.horizontalAdvance(c.label) + sf.horizontalAdvance(c.sublabel) + 14);
            h += kLeaderRow;
        } else {
            w = std::max(w, uf.horizontalAdvance(unitRowText(c)) + sf.horizontalAdvance(c.sublabel) + 14);
            h += kUnitRow;
        }
    }
    if (st.inside)
        h += 9;
    return QSizeF(std::max(w + 2 * kPad, 62.0), h);
}

QList<QRectF> MapPainter::stackRects(const MapState& s, double scale, bool compact) const {
    QList<QRectF> out(s.stacks.size());
    // Stacks of one space form a column: outside first, then those inside the fortress.
    QMap<int, QList<int>> byLoc;
    for (qsizetype i = 0; i < s.stacks.size(); ++i)
        byLoc[s.stacks[i].loc()].append(static_cast<int>(i));
    QList<QRectF> placed;
    // Fixed obstacles: city symbols and names.
    QList<QRectF> cities;
    for (qsizetype i = 0; i < m_cityPos.size(); ++i)
        cities << QRectF(m_cityPos[i] - QPointF(11, 11), QSizeF(22, 22));
    QList<QRectF> labels;
    {
        const QFont nameFont(QStringLiteral("DejaVu Sans"), 9);
        const QFontMetricsF fm(nameFont);
        for (qsizetype i = 0; i < d.cities.size(); ++i) {
            const double w = fm.horizontalAdvance(d.cities[i].name);
            const QPointF pos = m_cityPos[i];
            labels << QRectF(pos.x() - w / 2, pos.y() + (d.cities[i].fortress ? 25 : 20) - fm.ascent(), w,
                             fm.height());
        }
    }
    auto overlap = [](const QRectF& a, const QRectF& b) {
        const QRectF i = a.intersected(b);
        return i.isEmpty() ? 0.0 : i.width() * i.height();
    };
    // Larger groups first, so the big armies get the best places.
    QList<int> order = byLoc.keys();
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        auto weight = [&](int loc) {
            double h = 0;
            for (int i : byLoc[loc])
                h += stackSize(s.stacks[i], compact).height();
            return h;
        };
        return weight(a) > weight(b);
    });
    for (int loc : order) {
        const QList<int>& idx = byLoc[loc];
        QList<QSizeF> sizes;
        double w = 0, h = 0;
        const double gap = 3 * scale;
        for (int i : idx) {
            sizes << stackSize(s.stacks[i], compact) * scale;
            w = std::max(w, sizes.back().width());
            h += sizes.back().height() + gap;
        }
        h -= gap;
        QRectF group;
        if (loc >= 10000) {
            const int box = loc - 10000;
            const QRectF r = boxRect(box);
            if (d.boxes[box].kind == QLatin1String("up")) {
                // In the army box of the side.
                const int side = s.stacks[idx.front()].side;
                const QRectF sub =
                    side == 0 ? QRectF(r.left() + 8, r.top() + 30, r.width() / 2 - 12, r.height() - 40)
                              : QRectF(r.center().x() + 4, r.top() + 30, r.width() / 2 - 12, r.height() - 40);
                group = QRectF(sub.center().x() - w / 2, sub.top() + 2, w, h);
            } else {
                group = QRectF(r.center().x() - w / 2, r.bottom() + 22, w, h);
            }
        } else {
            const QPointF c = m_cityPos.value(loc);
            const double g = 13 + 2 * scale;
            const QList<QPointF> candidates = {
                {c.x() + g, c.y() - h - 6},       {c.x() - g - w, c.y() - h - 6},
                {c.x() + g + 2, c.y() - h / 2},   {c.x() - g - 2 - w, c.y() - h / 2},
                {c.x() - w / 2, c.y() - h - 18},  {c.x() + g, c.y() + 10},
                {c.x() - g - w, c.y() + 10},      {c.x() - w / 2, c.y() + 34},
                {c.x() + g + 30, c.y() - h - 30}, {c.x() - g - w - 30, c.y() - h - 30},
            };
            double best = 1e18;
            for (qsizetype k = 0; k < candidates.size(); ++k) {
                const QRectF r(candidates[k], QSizeF(w, h));
                double cost = static_cast<double>(k) * 40.0 + (k >= 8 ? 400 : 0);
                for (const QRectF& o : placed)
                    cost += 6 * overlap(r, o.adjusted(-3, -3, 3, 3));
                for (qsizetype ci = 0; ci < cities.size(); ++ci)
                    if (ci != loc)
                        cost += 3 * overlap(r, cities[ci]);
                for (const QRectF& o : labels)
                    cost += 0.8 * overlap(r, o);
                if (!m_rect.adjusted(4, 4, -4, -4).contains(r))
                    cost += 1e6;
                if (cost < best) {
                    best = cost;
                    group = r;
                }
            }
        }
        placed << group;
        double y = group.top();
        for (qsizetype k = 0; k < idx.size(); ++k) {
            out[idx[k]] = QRectF(group.left(), y, w, sizes[k].height());
            y += sizes[k].height() + gap;
        }
    }
    return out;
}

void MapPainter::drawStackLeader(QPainter& p, const MapStack& st, const QRectF& r, double scale) const {
    const QPointF a = locPos(st.loc());
    if (st.box >= 0)
        return;
    // A thin line from the city to the nearest point of the token.
    const QPointF q(std::clamp(a.x(), r.left(), r.right()), std::clamp(a.y(), r.top(), r.bottom()));
    if (QLineF(a, q).length() < 4)
        return;
    p.save();
    p.setPen(QPen(QColor(0x2b, 0x1a, 0x08, 200), 1.6 * scale, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(a, q);
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0x2b, 0x1a, 0x08));
    p.drawEllipse(q, 2.2 * scale, 2.2 * scale);
    p.restore();
}

void MapPainter::drawStack(QPainter& p, const MapStack& st, const QRectF& r, bool hover, bool compact) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    const QColor side = sideColor(st.side);
    const int depth = std::min(3, st.unitCount() + static_cast<int>(st.leaderNames().size()) - 1);
    // Counters underneath: offset edges show how tall the stack is.
    for (int k = depth; k >= 1; --k) {
        const QRectF under = r.translated(2.2 * k, 2.2 * k);
        p.setPen(QPen(QColor(0x20, 0x18, 0x10, 180), 0.8));
        p.setBrush(QColor(0xe8, 0xe0, 0xcc));
        p.drawRoundedRect(under, 3, 3);
    }
    // Drop shadow.
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0, 0, 0, 60));
    p.drawRoundedRect(r.translated(1.5 + 2.2 * depth, 2.5 + 2.2 * depth), 3, 3);
    // The token.
    QColor frame = st.inside ? QColor(0x55, 0x55, 0x5a) : QColor(0x1a, 0x12, 0x08);
    double frameW = 1.2;
    if (st.active) {
        frame = QColor(0xff, 0xb3, 0x00);
        frameW = 2.6;
    } else if (hover) {
        frame = QColor(0xff, 0xff, 0xff);
        frameW = 2.4;
    }
    p.setPen(QPen(frame, frameW));
    p.setBrush(st.inside ? QColor(0xd9, 0xd6, 0xcf) : QColor(0xfb, 0xf8, 0xf0));
    p.drawRoundedRect(r, 3, 3);
    // The side stripe along the top.
    QRectF stripe(r.left() + 1, r.top() + 1, r.width() - 2, 3);
    p.setPen(Qt::NoPen);
    p.setBrush(side);
    p.drawRect(stripe);
    double y = r.top() + 3 + kPad;
    const double x = r.left() + kPad, w = r.width() - 2 * kPad;
    QList<MapCounter> rows = st.counters;
    if (compact && !rows.isEmpty()) {
        MapCounter one = rows.front();
        one.label = compactText(st);
        one.sublabel.clear();
        one.leader = true;
        one.reduced = false;
        rows = {one};
    }
    for (const MapCounter& c : rows) {
        const double rowH = c.leader ? kLeaderRow : kUnitRow;
        const QRectF row(x, y, w, rowH - 1);
        QColor bg(c.color);
        QColor fg(c.textColor);
        if (c.leader) {
            QLinearGradient g(row.topLeft(), row.bottomLeft());
            g.setColorAt(0, bg.lighter(118));
            g.setColorAt(1, bg.darker(108));
            p.setBrush(g);
        } else {
            p.setBrush(bg);
        }
        p.setPen(Qt::NoPen);
        p.drawRoundedRect(row, 2, 2);
        if (c.reduced) {
            // A reduced unit: its counter is flipped; a pale diagonal hatch.
            p.setBrush(QBrush(QColor(255, 255, 255, 120), Qt::BDiagPattern));
            p.drawRoundedRect(row, 2, 2);
        }
        p.setPen(fg);
        p.setFont(c.leader ? leaderFont() : unitFont());
        const QString text = c.leader ? c.label : unitRowText(c);
        p.drawText(row.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft, text);
        p.setFont(smallFont());
        QColor sub = fg;
        sub.setAlpha(200);
        p.setPen(sub);
        p.drawText(row.adjusted(4, 0, -4, 0), Qt::AlignVCenter | Qt::AlignRight,
                   c.leader ? c.sublabel : (c.reduced ? QStringLiteral("reduced") : c.sublabel));
        y += rowH;
    }
    if (st.inside) {
        // Inside the fortress: crenellations along the bottom.
        const double bh = compact ? 6 : 8;
        const QRectF band(r.left() + 1, r.bottom() - bh - 1, r.width() - 2, bh);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(0x6e, 0x6a, 0x62));
        p.drawRect(band.adjusted(0, 3, 0, 0));
        for (double cx = band.left(); cx < band.right() - 3; cx += 7)
            p.drawRect(QRectF(cx, band.top(), 4, 4));
        if (!compact) {
            p.setPen(Qt::white);
            p.setFont(smallFont());
            p.drawText(band.adjusted(0, 1, 0, 1), Qt::AlignCenter, QStringLiteral("inside"));
        }
    }
    // Combat strength badge.
    const int cf = st.combatFactor();
    if (cf > 0) {
        const QPointF bc(r.right() - 1, r.top() - 1);
        p.setPen(QPen(side, 1.6));
        p.setBrush(Qt::white);
        p.drawEllipse(bc, 8.5, 8.5);
        p.setPen(QColor(0x1a, 0x12, 0x08));
        p.setFont(unitFont());
        p.drawText(QRectF(bc.x() - 9, bc.y() - 8, 18, 16), Qt::AlignCenter, QString::number(cf));
    }
    p.restore();
}

void MapPainter::drawStacks(QPainter& p, const MapState& s) const {
    const QList<QRectF> rects = stackRects(s);
    for (qsizetype i = 0; i < s.stacks.size(); ++i)
        drawStackLeader(p, s.stacks[i], rects[i]);
    for (qsizetype i = 0; i < s.stacks.size(); ++i)
        drawStack(p, s.stacks[i], rects[i]);
}

void MapPainter::drawHighlight(QPainter& p, int loc, Highlight h) const {
    QColor col;
    switch (h) {
    case Highlight::Move:
        col = QColor(0xff, 0xc4, 0x00);
        break;
    case Highlight::Retreat:
        col = QColor(0xff, 0x7a, 0x1a);
        break;
    case Highlight::Choose:
        col = QColor(0x2e, 0xc0, 0x5a);
        break;
    case Highlight::Attack:
        col = QColor(0xe0, 0x20, 0x20);
        break;
    case Highlight::Selected:
        col = QColor(0xff, 0xff, 0xff);
        break;
    case Highlight::None:
        return;
    }
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    if (loc >= 10000) {
        const QRectF r = boxRect(loc - 10000).adjusted(-6, -6, 6, 6);
        p.setPen(QPen(col, 5));
        p.setBrush(Qt::NoBrush);
        p.drawRoundedRect(r, 10, 10);
        p.restore();
        return;
    }
    const QPointF c = locPos(loc);
    QRadialGradient g(c, 30);
    QColor a = col;
    a.setAlpha(150);
    QColor z = col;
    z.setAlpha(0);
    g.setColorAt(0.35, a);
    g.setColorAt(1, z);
    p.setPen(Qt::NoPen);
    p.setBrush(g);
    p.drawEllipse(c, 30, 30);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(0x1a, 0x12, 0x08, 200), 5.5));
    p.drawEllipse(c, 17, 17);
    p.setPen(QPen(col, 3.5));
    p.drawEllipse(c, 17, 17);
    p.restore();
}

void MapPainter::drawPath(QPainter& p, const MapState& s) const {
    if (s.path.size() < 1)
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    QPolygonF poly;
    for (int loc : s.path)
        poly << locPos(loc);
    p.setBrush(Qt::NoBrush);
    p.setPen(QPen(QColor(255, 255, 255, 220), 8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPolyline(poly);
    p.setPen(QPen(QColor(0xc0, 0x6a, 0x00), 4, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
    p.drawPolyline(poly);
    // Arrowheads in the middle of each leg.
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(0xc0, 0x6a, 0x00));
    for (qsizetype i = 1; i < poly.size(); ++i) {
        const QLineF leg(poly[i - 1], poly[i]);
        if (leg.length() < 20)
            continue;
        const QPointF m = leg.pointAt(0.55);
        const double ang = std::atan2(leg.dy(), leg.dx());
        QPolygonF head{m + QPointF(std::cos(ang) * 9, std::sin(ang) * 9),
                       m + QPointF(std::cos(ang + 2.5) * 9, std::sin(ang + 2.5) * 9),
                       m + QPointF(std::cos(ang - 2.5) * 9, std::sin(ang - 2.5) * 9)};
        p.drawPolygon(head);
    }
    if (!s.pathLabel.isEmpty()) {
        QFont f(QStringLiteral("DejaVu Sans"), 8, QFont::Bold);
        const QFontMetricsF fm(f);
        const QPointF c = poly.back();
        const double w = fm.horizontalAdvance(s.pathLabel) + 14;
        const QRectF pill(c.x() - w / 2, c.y() - 40, w, 17);
        p.setPen(QPen(Qt::white, 1.5));
        p.setBrush(QColor(0x2b, 0x1a, 0x08, 230));
        p.drawRoundedRect(pill, 8.5, 8.5);
        p.setFont(f);
        p.setPen(QColor(0xff, 0xd5, 0x6a));
        p.drawText(pill, Qt::AlignCenter, s.pathLabel);
    }
    p.restore();
}

void MapPainter::drawLegend(QPainter& p, const MapState& s, bool withTitle, bool key) const {
    QFont title(QStringLiteral("DejaVu Serif"), 22, QFont::Bold);
    QFont f(QStringLiteral("DejaVu Sans"), 10);
    const QString t =
        s.title.isEmpty() ? QStringLiteral("Thirty Years War — Europe in Agony 1618-1648") : s.title;
    if (withTitle)
        haloText(p, QPointF(24, 40), t, title, QColor(0x3a, 0x22, 0x10), QColor(255, 255, 250, 230), 5);
    if (!key)
        return;

    QRectF box(16, m_rect.bottom() - 150, 250, 134);
    p.setPen(QPen(QColor(0x5a, 0x4a, 0x30), 1.5));
    p.setBrush(QColor(255, 252, 240, 235));
    p.drawRoundedRect(box, 6, 6);
    p.setFont(f);
    double y = box.top() + 18;
    auto row = [&](auto drawSymbol, const QString& text) {
        drawSymbol(QPointF(box.left() + 20, y - 4));
        p.setPen(Qt::black);
        p.setFont(f);
        p.drawText(QPointF(box.left() + 40, y), text);
        y += 19;
    };
    row(
        [&](QPointF c) {
            p.setPen(QPen(Qt::black, 1.8));
            p.setBrush(Qt::white);
            p.drawEllipse(c, 7, 7);
        },
        QStringLiteral("City"));
    row(
        [&](QPointF c) {
            p.setPen(QPen(Qt::black, 1.8));
            p.setBrush(Qt::white);
            p.drawPath(starPath(c, 11));
        },
        QStringLiteral("Fortress City (strength)"));
    row(
        [&](QPointF c) {
            p.setPen(QPen(QColor(0x8a, 0x5a, 0x00), 3));
            p.setBrush(Qt::white);
            p.drawEllipse(c, 8, 8);
        },
        QStringLiteral("Independent City (VP, Elector)"));
    row(
        [&](QPointF c) {
            p.fillRect(QRectF(c.x() - 10, c.y() - 6, 9, 12), controlFill(Control::Catholic));
            p.fillRect(QRectF(c.x(), c.y() - 6, 9, 12), controlFill(Control::Protestant));
        },
        QStringLiteral("Catholic / Protestant Area"));
    row([&](QPointF c) { p.fillRect(QRectF(c.x() - 10, c.y() - 6, 19, 12), controlFill(Control::Neutral)); },
        QStringLiteral("Neutral Area"));
    row(
        [&](QPointF c) {
            p.setPen(QPen(QColor(0xd0, 0x10, 0x10), 4, Qt::DashLine));
            p.drawLine(c + QPointF(-11, 0), c + QPointF(11, 0));
        },
        QStringLiteral("Spanish Zone boundary"));
}

} // namespace wp
