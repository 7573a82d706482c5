#include "mappainter.h"

#include <QFont>
#include <QFontMetricsF>
#include <QPainter>
#include <QPolygonF>
#include <QtMath>

#include <algorithm>
#include <cmath>

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

// A pastel colour per Area for the plain (no scenario) map.
QColor areaPastel(int i) {
    static const int hues[] = {20, 200, 95, 45, 280, 150, 0, 240, 60, 320, 175, 110, 30, 260, 130, 80};
    int h = hues[i % 16];
    int s = 55 + (i / 16) * 25;
    return QColor::fromHsv(h, s, 238);
}

} // namespace

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

QPointF MapPainter::project(double lat, double lon) const {
    return QPointF((lon - m_lon0) * m_cosLat * m_scale, (m_lat0 - lat) * m_scale);
}

QPointF MapPainter::boxPos(int box) const {
    const Box& b = d.boxes[box];
    return project(b.lat, b.lon);
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
    p.fillRect(m_rect, QColor(0xf4, 0xee, 0xdc)); // land outside every Area
    if (layers & Areas)
        drawAreas(p, s);
    if (layers & Pathways)
        drawPathways(p);
    if (layers & Boxes)
        drawBoxes(p);
    if (layers & CitySymbols)
        drawCitySymbols(p, s);
    if (layers & CityLabels)
        drawCityLabels(p, s);
    if (layers & ControlBoxes)
        drawControlBoxes(p, s);
    if (layers & Stacks)
        drawStacks(p, s);
    if (layers & Legend)
        drawLegend(p, s);
    p.setPen(QPen(QColor(0x5a, 0x4a, 0x30), 4));
    p.setBrush(Qt::NoBrush);
    p.drawRect(m_rect.adjusted(2, 2, -2, -2));
    p.restore();
}

void MapPainter::drawAreas(QPainter& p, const MapState& s) const {
    const bool hasState = !s.areaControl.isEmpty();
    for (qsizetype a = 0; a < d.areas.size(); ++a) {
        QColor fill = hasState ? controlFill(s.areaControl.value(static_cast<int>(a), Control::None))
                               : areaPastel(static_cast<int>(a));
        p.fillPath(m_areaPaths[a], fill);
    }
    // France: no Control Box; Protestant once in the war (2.42).
    p.fillPath(m_francePath, s.franceInWar ? controlFill(Control::Protestant) : QColor(0xe3, 0xdd, 0xee));

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

void MapPainter::drawBoxes(QPainter& p) const {
    QFont f(QStringLiteral("DejaVu Sans"), 11, QFont::Bold);
    for (qsizetype bi = 0; bi < d.boxes.size(); ++bi) {
        const Box& b = d.boxes[bi];
        const QPointF c = boxPos(static_cast<int>(bi));
        QRectF r;
        if (b.kind == QLatin1String("up"))
            r = QRectF(c - QPointF(85, 55), QSizeF(170, 110));
        else
            r = QRectF(c - QPointF(45, 28), QSizeF(90, 56));

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

void MapPainter::drawCitySymbols(QPainter& p, const MapState& s) const {
    QFont small(QStringLiteral("DejaVu Sans"), 7, QFont::Bold);
    for (qsizetype i = 0; i < d.cities.size(); ++i) {
        const City& c = d.cities[i];
        const QPointF pos = m_cityPos[i];
        Control ctl = s.cityControl.value(static_cast<int>(i), Control::None);
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

void MapPainter::drawControlBoxes(QPainter& p, const MapState& s) const {
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
            QRectF r(x, y, width, 16);
            p.setPen(QPen(Qt::black, 0.8));
            p.setBrush(bg);
            p.drawRect(r);
            p.setFont(f);
            p.setPen(fg);
            p.drawText(r, Qt::AlignCenter, t);
            x += width;
        };
        cell(QColor(0xf5, 0xd0, 0x20), Qt::black, QString::number(a.control), boxW, boxFont);
        cell(QColor(0xb0, 0x10, 0x10), Qt::white, QString::number(a.vp), boxW, boxFont);
        if (elector)
            cell(QColor(0x6a, 0x2c, 0x91), Qt::white, QStringLiteral("ELECT"), 34, tiny);
        // The control marker: a disc in the control colour, or N for Neutral.
        Control ctl = s.areaControl.value(static_cast<int>(ai), Control::None);
        if (ctl != Control::None) {
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

void MapPainter::drawStacks(QPainter& p, const MapState& s) const {
    QFont f(QStringLiteral("DejaVu Sans"), 8, QFont::Bold);
    QFont fs(QStringLiteral("DejaVu Sans"), 7);
    QFontMetricsF fm(f);
    for (const MapStack& st : s.stacks) {
        QPointF anchor = st.city >= 0 ? m_cityPos[st.city] : (st.box >= 0 ? boxPos(st.box) : QPointF());
        double w = 0;
        for (const MapCounter& c : st.counters)
            w = std::max(w, fm.horizontalAdvance(c.label) + 10);
        w = std::max(w, 56.0);
        const double lineH = 13;
        const double h = lineH * static_cast<double>(st.counters.size()) + 4;
        QRectF panel(anchor.x() + 16, anchor.y() - h - 10, w, h);
        p.setPen(QPen(QColor(0, 0, 0, 160), 1.2));
        p.drawLine(anchor, panel.bottomLeft());
        p.setPen(QPen(Qt::black, 1.2));
        p.setBrush(QColor(255, 255, 255, 235));
        p.drawRoundedRect(panel.adjusted(-1, -1, 1, 1), 3, 3);
        double y = panel.top() + 2;
        for (const MapCounter& c : st.counters) {
            QRectF line(panel.left(), y, w, lineH);
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(c.color));
            p.drawRect(line);
            if (c.reduced) { // a reduced unit: a pale band along the bottom
                p.setBrush(QColor(255, 255, 255, 130));
                p.drawRect(QRectF(line.left(), line.bottom() - 4, line.width(), 4));
            }
            p.setFont(c.leader ? f : fs);
            p.setPen(QColor(c.textColor));
            p.drawText(line.adjusted(4, 0, -2, 0), Qt::AlignVCenter | Qt::AlignLeft,
                       c.leader ? c.label : QStringLiteral("%1  %2").arg(c.label, c.sublabel));
            y += lineH;
        }
    }
}

void MapPainter::drawLegend(QPainter& p, const MapState& s) const {
    QFont title(QStringLiteral("DejaVu Serif"), 22, QFont::Bold);
    QFont f(QStringLiteral("DejaVu Sans"), 10);
    const QString t =
        s.title.isEmpty() ? QStringLiteral("Thirty Years War — Europe in Agony 1618-1648") : s.title;
    haloText(p, QPointF(24, 40), t, title, QColor(0x3a, 0x22, 0x10), QColor(255, 255, 250, 230), 5);

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
