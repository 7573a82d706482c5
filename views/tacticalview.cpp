#include "tacticalview.h"

#include "theme.h"

#include <QGraphicsItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QStyleOptionGraphicsItem>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace wp {

using namespace wp::tactical;

namespace {

constexpr double K = TacticalView::kScale;

enum ItemRole { RoleAction = 0, RoleUnit = 1 };

// A set-up decision's ground drawn before it is chosen (TVBD 10.4 terrain, 16.6.8 roads, 16.6 cards): the
// alternatives faint, the action list's current one strong, the one under the mouse lit (a click chooses it).
class AreaGhost : public QGraphicsPathItem {
  public:
    AreaGhost(const QPainterPath& path, bool focus) : QGraphicsPathItem(path), m_focus(focus) {
        setAcceptHoverEvents(true);
        restyle();
    }
    bool hovered() const { return m_hover; }

  protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent*) override {
        m_hover = true;
        restyle();
    }
    void hoverLeaveEvent(QGraphicsSceneHoverEvent*) override {
        m_hover = false;
        restyle();
    }

  private:
    void restyle() {
        const QColor c = m_hover   ? QColor(0xff, 0x7a, 0x10)
                         : m_focus ? QColor(0xff, 0xd8, 0x40)
                                   : QColor(0xff, 0xf4, 0xc8);
        const bool strong = m_hover || m_focus;
        setPen(QPen(c, strong ? 3 : 1.2, strong ? Qt::SolidLine : Qt::DashLine));
        QColor fill = c;
        fill.setAlpha(m_hover ? 150 : m_focus ? 110 : 30);
        setBrush(fill);
        setZValue(m_hover ? 30 : m_focus ? 27 : 26);
    }
    bool m_focus = false, m_hover = false;
};

// Terrain piece: fill and decoration by type (hills with contours, woods with trees, water, buildings,
// fields with furrows, rough ground stippled).
class TerrainItem : public QGraphicsItem {
  public:
    TerrainItem(const TacTerrainView& t, QPainterPath path) : m_t(t), m_path(std::move(path)) {
        m_bounds = m_path.boundingRect().adjusted(-4, -4, 4, 4);
        setToolTip(t.description);
        setZValue(t.elevated ? 1 : t.water ? 2 : 3);
    }
    QRectF boundingRect() const override { return m_bounds; }
    QPainterPath shape() const override { return m_path; }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        const QString type = m_t.type.toLower();
        p->setRenderHint(QPainter::Antialiasing);
        QColor fill(0xc9, 0xc0, 0x8f), line(0x6b, 0x5a, 0x3a);
        if (m_t.elevated) {
            fill = m_t.cls >= 1 ? QColor(0xb0, 0x92, 0x62) : QColor(0xc8, 0xb0, 0x78);
            line = QColor(0x7a, 0x5c, 0x30);
        } else if (type.contains(QLatin1String("wood")) || type.contains(QLatin1String("forest"))) {
            fill = QColor(0x5d, 0x80, 0x45);
            line = QColor(0x2f, 0x4a, 0x22);
        } else if (type.contains(QLatin1String("marsh"))) {
            fill = QColor(0x8f, 0xad, 0x9a);
            line = QColor(0x3f, 0x6a, 0x62);
        } else if (m_t.water) {
            fill = QColor(0x6f, 0xa3, 0xd0);
            line = QColor(0x2f, 0x5f, 0x8f);
        } else if (m_t.building) {
            fill = QColor(0xcf, 0xbf, 0xa5);
            line = QColor(0x5a, 0x45, 0x30);
        } else if (type.contains(QLatin1String("field")) || type.contains(QLatin1String("crop"))) {
            fill = QColor(0xe2, 0xd2, 0x86);
            line = QColor(0x9a, 0x86, 0x3e);
        } else if (type.contains(QLatin1String("road")) || type.contains(QLatin1String("bridge"))) {
            fill = QColor(0xc2, 0xa8, 0x7a);
            line = QColor(0x8a, 0x70, 0x48);
        } else if (type.contains(QLatin1String("rough")) || type.contains(QLatin1String("rock"))) {
            fill = QColor(0xa8, 0x9f, 0x8a);
            line = QColor(0x5e, 0x56, 0x48);
        } else if (type.contains(QLatin1String("wall")) || type.contains(QLatin1String("fence"))) {
            fill = QColor(0x8a, 0x6a, 0x48);
            line = QColor(0x4a, 0x35, 0x20);
        }
        if (m_t.cls == 3 && !m_t.water && !m_t.building)
            fill = fill.darker(125);
        p->setPen(QPen(line, 1.5));
        p->setBrush(fill);
        p->drawPath(m_path);

        p->save();
        p->setClipPath(m_path);
        const QRectF r = m_path.boundingRect();
        if (m_t.elevated) { // contour lines: the outline shrunk towards the centre
            p->setBrush(Qt::NoBrush);
            p->setPen(QPen(line.lighter(115), 1.2, Qt::SolidLine));
            const QPointF c = r.center();
            for (double k : {0.72, 0.45, 0.2}) {
                QTransform t;
                t.translate(c.x(), c.y());
                t.scale(k, k);
                t.translate(-c.x(), -c.y());
                p->drawPath(t.map(m_path));
            }
        } else if (type.contains(QLatin1String("wood")) || type.contains(QLatin1String("forest"))) {
            p->setPen(QPen(QColor(0x2f, 0x4a, 0x22), 1));
            p->setBrush(QColor(0x3f, 0x66, 0x2f));
            int row = 0;
            for (double y = r.top() + K * 0.6; y < r.bottom(); y += K * 1.1, ++row)
                for (double x = r.left() + K * (row % 2 ? 1.1 : 0.55); x < r.right(); x += K * 1.1)
                    p->drawEllipse(QPointF(x, y), K * 0.32, K * 0.32);
        } else if (m_t.building) {
            p->setPen(QPen(QColor(0x4a, 0x35, 0x20), 1));
            p->setBrush(QColor(0xa0, 0x50, 0x3c));
            int i = 0;
            for (double y = r.top() + K * 0.4; y < r.bottom() - K * 0.4; y += K * 1.3)
                for (double x = r.left() + K * 0.4; x < r.right() - K * 0.4; x += K * 1.4, ++i)
                    p->drawRect(QRectF(x, y, K * (i % 3 ? 0.8 : 1.0), K * (i % 2 ? 0.6 : 0.8)));
        } else if (type.contains(QLatin1String("field")) || type.contains(QLatin1String("crop"))) {
            p->setPen(QPen(line, 0.8));
            for (double x = r.left(); x < r.right() + r.height(); x += K * 0.5)
                p->drawLine(QPointF(x, r.top()), QPointF(x - r.height(), r.bottom()));
        } else if (type.contains(QLatin1String("marsh"))) {
            p->setPen(QPen(line, 1));
            for (double y = r.top() + K * 0.4; y < r.bottom(); y += K * 0.6)
                for (double x = r.left() + K * 0.3; x < r.right(); x += K * 1.2)
                    p->drawLine(QPointF(x, y), QPointF(x + K * 0.5, y));
        } else if (m_t.water) {
            p->setPen(QPen(QColor(0xd8, 0xe8, 0xf5), 1));
            for (double y = r.top() + K * 0.3; y < r.bottom(); y += K * 0.7)
                for (double x = r.left() + K * 0.2; x < r.right(); x += K * 1.3)
                    p->drawArc(QRectF(x, y, K * 0.6, K * 0.3), 0, 180 * 16);
        } else if (type.contains(QLatin1String("rough")) || type.contains(QLatin1String("rock"))) {
            p->setPen(Qt::NoPen);
            p->setBrush(line);
            int i = 0;
            for (double y = r.top() + K * 0.3; y < r.bottom(); y += K * 0.55)
                for (double x = r.left() + K * ((i++ % 2) ? 0.2 : 0.45); x < r.right(); x += K * 0.6)
                    p->drawEllipse(QPointF(x, y), K * 0.07, K * 0.07);
        }
        p->restore();
    }

  private:
    TacTerrainView m_t;
    QPainterPath m_path;
    QRectF m_bounds;
};

// A unit's base in its own frame: the front edge is at the top (local -y).
class UnitItem : public QGraphicsItem {
  public:
    enum Mode { Normal, Selected, Ghost, ChargeGhost };
    UnitItem(const TacUnitView& u, Mode mode, bool focus = false) : m_u(u), m_mode(mode), m_focus(focus) {
        const double w = u.pose.w * K, d = u.pose.d * K;
        m_rect = u.commander ? QRectF(-0.45 * K, -0.45 * K, 0.9 * K, 0.9 * K) : QRectF(-w / 2, -d / 2, w, d);
        setRotation(90.0 - u.pose.facing);
        setZValue(mode == Ghost || mode == ChargeGhost ? 30 : !u.onTable ? 15 : u.commander ? 22 : 20);
        if (mode != Ghost && mode != ChargeGhost)
            setToolTip(u.tooltip);
    }
    QRectF boundingRect() const override { return m_rect.adjusted(-5, -8, 5, 5); }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        QColor fill = theme::sideColor(m_u.side), dark = theme::sideDark(m_u.side);
        if (m_mode == Ghost || m_mode == ChargeGhost) {
            QColor c = m_mode == ChargeGhost ? QColor(0xc0, 0x20, 0x20) : fill;
            c.setAlpha(m_focus ? 150 : 45);
            p->setBrush(c);
            p->setPen(QPen(m_focus                 ? QColor(0xff, 0xd8, 0x40)
                           : m_mode == ChargeGhost ? QColor(0xa0, 0x10, 0x10)
                                                   : dark,
                           m_focus ? 2.5 : 1.2, m_focus ? Qt::SolidLine : Qt::DashLine));
            if (m_u.commander)
                p->drawEllipse(m_rect);
            else
                p->drawRect(m_rect);
            p->setPen(QPen(m_mode == ChargeGhost ? QColor(0xa0, 0x10, 0x10) : dark, 2));
            if (!m_u.commander)
                p->drawLine(m_rect.topLeft(), m_rect.topRight());
            return;
        }
        const bool gone = !m_u.onTable;
        if (gone) {
            fill = QColor(0x9a, 0x94, 0x88, 140);
            dark = QColor(0x55, 0x50, 0x48, 200);
        }
        if (m_mode == Selected) {
            p->setPen(QPen(QColor(0xff, 0xd8, 0x40), 6));
            p->setBrush(Qt::NoBrush);
            if (m_u.commander)
                p->drawEllipse(m_rect);
            else
                p->drawRect(m_rect);
        }
        p->setPen(QPen(dark, 1.2, gone ? Qt::DashLine : Qt::SolidLine));
        if (m_u.commander) {
            QRadialGradient g(m_rect.center(), m_rect.width() / 2);
            g.setColorAt(0, fill.lighter(150));
            g.setColorAt(1, fill);
            p->setBrush(g);
            p->drawEllipse(m_rect);
            p->setPen(QPen(theme::gold(), 2));
            p->drawLine(QPointF(0, m_rect.top()), QPointF(0, m_rect.top() - 0.3 * K)); // facing
        } else {
            QLinearGradient g(m_rect.topLeft(), m_rect.bottomLeft());
            g.setColorAt(0, fill.lighter(125));
            g.setColorAt(1, fill.darker(110));
            p->setBrush(g);
            p->drawRect(m_rect);
            // the front edge
            p->setPen(QPen(gone ? dark : QColor(0xf2, 0xe6, 0xc0), 3));
            p->drawLine(m_rect.topLeft() + QPointF(1.5, 1.5), m_rect.topRight() + QPointF(-1.5, 1.5));
            // the facing notch
            QPolygonF tri;
            tri << QPointF(-0.18 * K, m_rect.top()) << QPointF(0.18 * K, m_rect.top())
                << QPointF(0, m_rect.top() - 0.22 * K);
            p->setPen(Qt::NoPen);
            p->setBrush(gone ? dark : QColor(0x20, 0x18, 0x10));
            p->drawPolygon(tri);
            // strength pips along the rear edge: filled = left, hollow = lost
            const int n = std::min(m_u.strengthMax, 8);
            const double pip = std::min(0.22 * K, (m_rect.width() - 6) / std::max(1, n) - 2);
            for (int i = 0; i < n; ++i) {
                const QRectF pr(m_rect.left() + 3 + i * (pip + 2), m_rect.bottom() - pip - 2.5, pip, pip);
                p->setPen(QPen(QColor(0x20, 0x18, 0x10), 0.8));
                p->setBrush(i < m_u.strength ? QColor(0xf5, 0xee, 0xd8) : Qt::transparent);
                p->drawRect(pr);
            }
        }
        if (gone) { // routed or destroyed: a red cross over the base where it was
            p->setPen(QPen(QColor(0xb0, 0x18, 0x18, 220), 2.5));
            p->drawLine(m_rect.topLeft(), m_rect.bottomRight());
            p->drawLine(m_rect.topRight(), m_rect.bottomLeft());
        }
    }

  private:
    TacUnitView m_u;
    Mode m_mode;
    bool m_focus = false;
    QRectF m_rect;
};

// The unit's label, upright whatever its facing, hanging off its rear edge (below the anchor when the rear
// is down on screen, above it otherwise): id, strength and markers.
class LabelItem : public QGraphicsItem {
  public:
    LabelItem(const TacUnitView& u, bool below) : m_u(u), m_below(below) {
        setZValue(25);
        setAcceptedMouseButtons(Qt::NoButton);
        setFlag(QGraphicsItem::ItemIgnoresTransformations); // readable at any zoom
        m_title = u.id + (u.strengthText.isEmpty() ? QString() : QLatin1Char(' ') + u.strengthText);
        m_sub = u.onTable ? u.markers.join(QStringLiteral(" · ")) : u.status.toUpper();
        const QFontMetricsF fm(theme::sans(7.5, true)), gm(theme::sans(6.5, !u.onTable));
        m_titleW = fm.horizontalAdvance(m_title) + 6;
        m_titleH = fm.height() + 1;
        m_subW = m_sub.isEmpty() ? 0 : gm.horizontalAdvance(m_sub) + 6;
        m_subH = m_sub.isEmpty() ? 0 : gm.height();
    }
    // The title and the marker line in pixels around the unit's rear centre, before any shift.
    QRectF block() const {
        const double top = m_below ? 1 : -m_titleH - m_subH - 1.5;
        const double w = std::max(m_titleW, m_subW);
        return {-w / 2, top, w, m_titleH + 0.5 + m_subH};
    }
    bool below() const { return m_below; }
    bool onTable() const { return m_u.onTable; }
    double shift() const { return m_shift; }
    void setShift(double px) {
        prepareGeometryChange();
        m_shift = px;
    }
    QRectF boundingRect() const override {
        return QRectF(-80, -34, 160, 68).united(block().translated(0, m_shift).adjusted(-2, -2, 2, 2));
    }
    void paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) override {
        p->setRenderHint(QPainter::Antialiasing);
        const QRectF b = block().translated(0, m_shift);
        if (m_shift != 0) { // a leader line back to the unit
            p->setPen(QPen(QColor(0x30, 0x28, 0x20, 160), 1));
            p->drawLine(QPointF(0, 0), QPointF(0, m_below ? b.top() : b.bottom()));
        }
        QFont f = theme::sans(7.5, true);
        p->setFont(f);
        const QRectF box(-m_titleW / 2, b.top(), m_titleW, m_titleH);
        p->setPen(Qt::NoPen);
        p->setBrush(QColor(255, 250, 235, m_u.onTable ? 215 : 150));
        p->drawRoundedRect(box, 2, 2);
        p->setPen(m_u.onTable ? QColor(0x20, 0x18, 0x10) : QColor(0x70, 0x66, 0x5a));
        p->drawText(box, Qt::AlignCenter, m_title);
        if (!m_sub.isEmpty()) {
            p->setFont(theme::sans(6.5, !m_u.onTable));
            const QRectF b2(-m_subW / 2, box.bottom() + 0.5, m_subW, m_subH);
            p->setPen(Qt::NoPen);
            p->setBrush(m_u.onTable ? QColor(0x30, 0x28, 0x20, 170) : QColor(0xb0, 0x18, 0x18, 200));
            p->drawRoundedRect(b2, 2, 2);
            p->setPen(QColor(0xff, 0xf8, 0xe8));
            p->drawText(b2, Qt::AlignCenter, m_sub);
        }
    }

  private:
    TacUnitView m_u;
    bool m_below = true;
    QString m_title, m_sub;
    double m_titleW = 0, m_titleH = 0, m_subW = 0, m_subH = 0;
    double m_shift = 0; // pixels, away from the unit
};

} // namespace

TacticalView::TacticalView(QWidget* parent) : QGraphicsView(parent), m_scene(new QGraphicsScene(this)) {
    setScene(m_scene);
    setRenderHints(QPainter::Antialiasing | QPainter::SmoothPixmapTransform);
    setBackgroundBrush(QColor(0x3b, 0x30, 0x26));
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setMinimumSize(320, 240);
    // No scroll bars: fitting on resize with bars that come and go would never settle. Drag to pan.
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
}

void TacticalView::setSession(const TacticalSession* session) {
    m_session = session;
    rebuild(-1, {});
    fitTable();
}

QPointF TacticalView::toScene(Vec2 p) const {
    const double d = m_session ? m_session->tableD() : 0;
    return {p.x * K, (d - p.y) * K};
}

Vec2 TacticalView::toTable(QPointF p) const {
    const double d = m_session ? m_session->tableD() : 0;
    return {p.x() / K, d - p.y() / K};
}

QPainterPath TacticalView::piecesPath(const QList<Polygon>& pieces) const {
    QPainterPath path;
    path.setFillRule(Qt::WindingFill);
    for (const Polygon& piece : pieces) {
        QPolygonF poly;
        for (const Vec2& v : piece)
            poly << toScene(v);
        if (!poly.isEmpty())
            poly << poly.front();
        path.addPolygon(poly);
    }
    return path;
}

void TacticalView::drawTerrain() {
    for (const TacTerrainView& t : m_session->terrain())
        m_scene->addItem(new TerrainItem(t, piecesPath(t.pieces).simplified()));
}

void TacticalView::rebuild(int selected, const QList<TacActionView>& highlights, const QString& focus) {
    m_scene->clear();
    m_labels.clear(); // deleted with the scene
    m_unitItems = m_routedItems = m_highlightItems = m_areaItems = 0;
    m_unitPoses.clear();
    m_dragGhost = nullptr; // deleted with the scene
    m_dragLabel = nullptr;
    m_selectedUnit = selected;
    if (!m_session)
        return;
    const double w = m_session->tableW() * K, d = m_session->tableD() * K;
    m_scene->setSceneRect(QRectF(-K * 2, -K * 2, w + K * 4, d + K * 4));
    // the cloth, with a grid every 6 units (TUM or inches)
    auto* cloth =
        m_scene->addRect(QRectF(0, 0, w, d), QPen(QColor(0x2a, 0x22, 0x1a), 3), QColor(0x9c, 0xb0, 0x6c));
    cloth->setZValue(-10);
    QPen grid(QColor(0x86, 0x9a, 0x5a), 1, Qt::DotLine);
    for (double x = 6; x < m_session->tableW(); x += 6)
        m_scene->addLine(x * K, 0, x * K, d, grid)->setZValue(-9);
    for (double y = 6; y < m_session->tableD(); y += 6)
        m_scene->addLine(0, d - y * K, w, d - y * K, grid)->setZValue(-9);
    // side names at their edges: side 0 at the bottom (low y) unless its units stand higher
    const QList<TacUnitView> units = m_session->units();
    double meanY[2] = {0, 0};
    int count[2] = {0, 0};
    for (const TacUnitView& u : units)
        if (u.deployed && (u.side == 0 || u.side == 1)) {
            meanY[u.side] += u.pose.c.y;
            ++count[u.side];
        }
    for (int s = 0; s < 2; ++s) {
        auto* t = m_scene->addSimpleText(m_session->sideName(s), theme::serif(11, true));
        t->setBrush(QColor(0xf0, 0xe4, 0xc8));
        const bool low = count[0] && count[1] ? (meanY[s] / count[s] < meanY[1 - s] / count[1 - s]) : s == 0;
        t->setPos(4, low ? d + 2 : -K * 1.1 - 2);
    }
    drawTerrain();

    for (int i = 0; i < units.size(); ++i) {
        const TacUnitView& u = units[i];
        if (!u.deployed) {
            m_unitPoses << u.pose; // (by index)
            continue;              // not on the table yet (TVBD set-up, 10.6): listed in the prompt's actions
        }
        // Units off the table (routed, eliminated, destroyed) stay where they fell, greyed and crossed.
        const QPointF c = toScene(u.pose.c);
        m_unitPoses << u.pose;
        auto* item = new UnitItem(u, i == selected ? UnitItem::Selected : UnitItem::Normal);
        item->setPos(c);
        item->setData(RoleUnit, i);
        m_scene->addItem(item);
        const QPointF rear =
            u.commander ? c - QPointF(0, K * 0.45) : toScene(u.pose.fromLocal(-u.pose.d / 2, 0));
        auto* label = new LabelItem(u, !u.commander && rear.y() >= c.y() - 0.3 * K);
        label->setPos(rear);
        m_scene->addItem(label);
        m_labels << label;
        ++m_unitItems;
        if (!u.onTable)
            ++m_routedItems;
    }

    layoutLabels();

    // highlights
    for (const TacActionView& a : highlights) {
        if (!a.area.isEmpty()) { // a terrain placement or card decision (TVBD 10.4, 16.6.8, 16.6)
            auto* g = new AreaGhost(piecesPath(a.area), a.text == focus);
            g->setData(RoleAction, a.text);
            g->setToolTip(a.label);
            m_scene->addItem(g);
            ++m_highlightItems;
            ++m_areaItems;
            continue;
        }
        if (a.unit < 0 || a.unit >= units.size())
            continue;
        const QPointF from = toScene(units[a.unit].pose.c);
        if (a.kind == TacActionView::Shoot && a.target >= 0 && a.target < units.size()) {
            const QPointF to = toScene(units[a.target].pose.c);
            auto* l =
                m_scene->addLine(QLineF(from, to), QPen(QColor(0xff, 0x9a, 0x20, 200), 3, Qt::DashLine));
            l->setZValue(28);
            l->setData(RoleAction, a.text);
            l->setToolTip(a.label + (a.odds.isEmpty() ? QString() : QStringLiteral("\n") + a.odds));
            auto* ring = m_scene->addEllipse(QRectF(to - QPointF(K * 0.6, K * 0.6), QSizeF(K * 1.2, K * 1.2)),
                                             QPen(QColor(0xff, 0x9a, 0x20), 2.5));
            ring->setZValue(29);
            ring->setData(RoleAction, a.text);
            ring->setToolTip(l->toolTip());
            ++m_highlightItems;
        } else if ((a.kind == TacActionView::Move || a.kind == TacActionView::Charge) && a.end) {
            TacUnitView g = units[a.unit];
            g.pose = *a.end;
            auto* item =
                new UnitItem(g, a.kind == TacActionView::Charge ? UnitItem::ChargeGhost : UnitItem::Ghost,
                             a.text == focus);
            if (a.text == focus)
                item->setZValue(31);
            item->setPos(toScene(a.end->c));
            item->setData(RoleAction, a.text);
            item->setToolTip(a.label + (a.odds.isEmpty() ? QString() : QStringLiteral("\n") + a.odds));
            m_scene->addItem(item);
            if (a.kind == TacActionView::Charge) {
                const QPointF to = toScene(a.end->c);
                QLineF line(from, to);
                auto* l = m_scene->addLine(line, QPen(QColor(0xb0, 0x10, 0x10, 220), 3));
                l->setZValue(29);
                l->setData(RoleAction, a.text);
                l->setToolTip(item->toolTip());
                // the arrow head
                const double ang = std::atan2(-line.dy(), line.dx());
                QPolygonF head;
                head << to << to - QPointF(std::cos(ang + kPi / 7) * 12, -std::sin(ang + kPi / 7) * 12)
                     << to - QPointF(std::cos(ang - kPi / 7) * 12, -std::sin(ang - kPi / 7) * 12);
                auto* h = m_scene->addPolygon(head, Qt::NoPen, QColor(0xb0, 0x10, 0x10));
                h->setZValue(29);
                h->setData(RoleAction, a.text);
            }
            ++m_highlightItems;
        }
    }
}

QString TacticalView::hoveredGhost() const {
    for (QGraphicsItem* it : m_scene->items())
        if (auto* g = dynamic_cast<AreaGhost*>(it); g && g->hovered())
            return g->data(RoleAction).toString();
    return {};
}

QPoint TacticalView::viewPointOfUnit(int unit) const {
    if (unit < 0 || unit >= m_unitPoses.size())
        return {};
    // A quarter of the way to the front-left corner: clear of a Commander's disc at the centre.
    const Pose& p = m_unitPoses[unit];
    return mapFromScene(toScene(p.fromLocal(p.d / 4, -p.w / 4)));
}

void TacticalView::fitTable() {
    if (!m_session)
        return;
    m_autoFit = true;
    fitInView(QRectF(-K, -K * 1.4, (m_session->tableW() + 2) * K, (m_session->tableD() + 2.8) * K),
              Qt::KeepAspectRatio);
    layoutLabels();
}

void TacticalView::zoomIn() {
    m_autoFit = false;
    scale(1.25, 1.25);
    layoutLabels();
}

void TacticalView::zoomOut() {
    m_autoFit = false;
    scale(0.8, 0.8);
    layoutLabels();
}

void TacticalView::layoutLabels() {
    // Greedy: the labels of the units on the table first (in unit order), then the routed and destroyed
    // ones. A label covering one already placed moves a row further from its unit (below a unit whose
    // label hangs below, above one whose label stands above), up to four rows, to the first row where it
    // covers none, or else to the row where it covers the least.
    QList<LabelItem*> order;
    for (QGraphicsItem* item : m_labels)
        if (static_cast<LabelItem*>(item)->onTable())
            order << static_cast<LabelItem*>(item);
    for (QGraphicsItem* item : m_labels)
        if (!static_cast<LabelItem*>(item)->onTable())
            order << static_cast<LabelItem*>(item);
    QList<QRectF> placed;
    for (LabelItem* l : order) {
        const QRectF r = l->block().translated(QPointF(mapFromScene(l->pos())));
        const double step = (l->below() ? 1 : -1) * (r.height() + 1);
        auto covered = [&](const QRectF& x) {
            double area = 0;
            for (const QRectF& q : placed) {
                const QRectF i = q.intersected(x);
                area += i.isEmpty() ? 0 : i.width() * i.height();
            }
            return area;
        };
        int best = 0;
        double least = covered(r);
        for (int k = 1; k <= 4 && least > 0; ++k)
            if (const double c = covered(r.translated(0, k * step)); c < least) {
                least = c;
                best = k;
            }
        l->setShift(best * step);
        placed << r.translated(0, best * step);
    }
}

QList<QRectF> TacticalView::labelRects(bool onTableOnly) const {
    QList<QRectF> out;
    for (QGraphicsItem* item : m_labels) {
        auto* l = static_cast<LabelItem*>(item);
        if (!onTableOnly || l->onTable())
            out << l->block().translated(QPointF(mapFromScene(l->pos()))).translated(0, l->shift());
    }
    return out;
}

void TacticalView::resizeEvent(QResizeEvent* e) {
    QGraphicsView::resizeEvent(e);
    if (m_autoFit)
        fitTable();
}

void TacticalView::showEvent(QShowEvent* e) {
    QGraphicsView::showEvent(e);
    if (m_autoFit)
        fitTable();
}

void TacticalView::wheelEvent(QWheelEvent* e) {
    if (e->angleDelta().y() > 0)
        zoomIn();
    else if (e->angleDelta().y() < 0)
        zoomOut();
    e->accept();
}

void TacticalView::mousePressEvent(QMouseEvent* e) {
    if (e->button() == Qt::LeftButton && m_session) {
        const QList<QGraphicsItem*> hit = items(e->position().toPoint());
        QString action;
        int unit = -1;
        bool onSelected = false;
        for (QGraphicsItem* it : hit) { // highest first: highlights, then units
            if (action.isEmpty() && it->data(RoleAction).isValid())
                action = it->data(RoleAction).toString();
            if (unit < 0 && it->data(RoleUnit).isValid())
                unit = it->data(RoleUnit).toInt();
            onSelected = onSelected || (m_selectedUnit >= 0 && it->data(RoleUnit).isValid() &&
                                        it->data(RoleUnit).toInt() == m_selectedUnit);
        }
        if (onSelected) { // a click or a drag: decided on release
            m_pressUnit = m_selectedUnit;
            m_pressPos = e->position().toPoint();
            m_dragging = false;
            m_lastDrag = {};
            e->accept();
            return;
        }
        if (!action.isEmpty()) {
            emit actionClicked(action);
            e->accept();
            return;
        }
        if (unit >= 0) {
            emit unitClicked(unit);
            e->accept();
            return;
        }
        if (e->modifiers() & Qt::ShiftModifier) {
            emit tableClicked(toTable(mapToScene(e->position().toPoint())));
            e->accept();
            return;
        }
    }
    QGraphicsView::mousePressEvent(e);
}

void TacticalView::mouseMoveEvent(QMouseEvent* e) {
    if (m_pressUnit >= 0 && m_pressUnit < m_unitPoses.size()) {
        const QPoint now = e->position().toPoint();
        if (!m_dragging && (now - m_pressPos).manhattanLength() > 6)
            m_dragging = true;
        if (m_dragging) {
            // The base where the move the drag stands for would end: gold when the engine allows it, red with
            // its reason when it refuses it.
            const Vec2 delta = toTable(mapToScene(now)) - toTable(mapToScene(m_pressPos));
            m_lastDrag = m_session->dragMove(m_pressUnit, delta);
            showDragGhost();
        }
        e->accept();
        return;
    }
    QGraphicsView::mouseMoveEvent(e);
}

bool TacticalView::dragGhostShown() const {
    return m_dragGhost && m_dragGhost->isVisible();
}

QString TacticalView::dragLabelText() const {
    return dragGhostShown() ? static_cast<QGraphicsTextItem*>(m_dragLabel)->toPlainText().simplified()
                            : QString();
}

void TacticalView::showDragGhost() {
    const bool ok = m_lastDrag.refused.isEmpty();
    const QColor colour = ok ? QColor(0xff, 0xd8, 0x40) : QColor(0xd0, 0x30, 0x30);
    QPolygonF poly;
    for (const Vec2& v : m_lastDrag.pose.corners())
        poly << toScene(v);
    if (!m_dragGhost) {
        auto* g = m_scene->addPolygon(poly);
        g->setZValue(40);
        m_dragGhost = g;
        auto* label = m_scene->addText(QString());
        label->setZValue(41);
        label->setFlag(QGraphicsItem::ItemIgnoresTransformations);
        m_dragLabel = label;
    }
    auto* g = static_cast<QGraphicsPolygonItem*>(m_dragGhost);
    g->setVisible(!m_lastDrag.text.isEmpty()); // no move (too short a drag, a unit that does not move so)
    g->setPolygon(poly);
    g->setPen(QPen(colour, 2.5, Qt::DashLine));
    g->setBrush(QColor(colour.red(), colour.green(), colour.blue(), 70));
    // The move's notation on a light box under the ghost; a refused one with the engine's reason in red.
    auto* label = static_cast<QGraphicsTextItem*>(m_dragLabel);
    QString html;
    if (!m_lastDrag.text.isEmpty()) {
        html = QStringLiteral("<div style='background-color:rgba(255,250,235,225)'>&nbsp;%1&nbsp;")
                   .arg(m_lastDrag.text.toHtmlEscaped());
        if (!ok) {
            // Without the move's notation, shown above it: TVBD's "<move>: <why>", Tercios' "'<move>' is
            // not legal …".
            QString why = m_lastDrag.refused;
            for (const QString& head : {m_lastDrag.text + QLatin1String(": "),
                                        QLatin1Char('\'') + m_lastDrag.text + QLatin1String("' is ")})
                if (why.startsWith(head))
                    why = why.mid(head.size());
            html += QStringLiteral("<br><span style='color:#a01010'>&nbsp;%1&nbsp;</span>")
                        .arg(why.toHtmlEscaped());
        }
        html += QStringLiteral("</div>");
    }
    label->setHtml(html);
    label->setVisible(!html.isEmpty());
    label->setPos(poly.boundingRect().bottomLeft() + QPointF(0, 4));
}

void TacticalView::mouseReleaseEvent(QMouseEvent* e) {
    if (m_pressUnit >= 0) {
        const int unit = m_pressUnit;
        m_pressUnit = -1;
        if (m_dragging) {
            m_dragging = false;
            delete m_dragGhost;
            m_dragGhost = nullptr;
            delete m_dragLabel;
            m_dragLabel = nullptr;
            emit unitDragged(unit,
                             toTable(mapToScene(e->position().toPoint())) - toTable(mapToScene(m_pressPos)));
        } else {
            emit unitClicked(unit); // a click on the selected unit keeps it selected (ghosts over it: click
                                    // them where they do not cover it, or choose in the list)
        }
        e->accept();
        return;
    }
    QGraphicsView::mouseReleaseEvent(e);
}

} // namespace wp
