#include "mapview.h"

#include <QGraphicsScene>
#include <QGraphicsSceneHoverEvent>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace wp {

MapItem::MapItem(const MapPainter& painter, int layers, const QRectF& rect, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_painter(painter), m_layers(layers),
      m_rect(rect.isEmpty() ? painter.sceneRect() : rect) {
    setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    setAcceptedMouseButtons(Qt::NoButton);
}

QRectF MapItem::boundingRect() const {
    return m_rect;
}

void MapItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    ++m_paints;
    m_painter.paint(*p, m_state, m_layers);
}

bool MapItem::setState(const MapState& s) {
    const bool differ = !m_hasState || MapPainter::layersDiffer(m_layers, m_state, s);
    m_hasState = true;
    if (!differ)
        return false;
    m_state = s;
    m_state.stacks.clear(); // drawn by the view's stack items
    m_state.highlights.clear();
    m_state.path.clear();
    update();
    return true;
}

HighlightItem::HighlightItem(const MapPainter& painter, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_painter(painter) {}

QRectF HighlightItem::boundingRect() const {
    return m_painter.sceneRect();
}

void HighlightItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    for (auto it = m_state.highlights.begin(); it != m_state.highlights.end(); ++it)
        m_painter.drawHighlight(*p, it.key(), it.value());
    m_painter.drawPath(*p, m_state);
}

void HighlightItem::setState(const MapState& s) {
    m_state.highlights = s.highlights;
    m_state.path = s.path;
    m_state.pathLabel = s.pathLabel;
    update();
}

StackItem::StackItem(const MapPainter& painter, const MapStack& stack, const QRectF& rect, int index,
                     double scale, bool compact)
    : m_painter(painter), m_stack(stack), m_rect(rect), m_index(index), m_scale(scale), m_compact(compact) {
    setAcceptHoverEvents(true);
    setAcceptedMouseButtons(Qt::NoButton); // clicks are the view's (it tells a click from a drag)
    setZValue(stack.active ? 3 : 2);
}

QRectF StackItem::boundingRect() const {
    const double m = 12 * m_scale;
    QRectF r = m_rect.adjusted(-m, -m, m, m);
    if (m_stack.city >= 0)
        r = r.united(QRectF(m_painter.cityPos(m_stack.city) - QPointF(4, 4), QSizeF(8, 8)));
    return r;
}

void StackItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    m_painter.drawStackLeader(*p, m_stack, m_rect, m_scale);
    p->save();
    p->translate(m_rect.topLeft());
    p->scale(m_scale, m_scale);
    m_painter.drawStack(*p, m_stack, QRectF(0, 0, m_rect.width() / m_scale, m_rect.height() / m_scale),
                        m_hover, m_compact);
    p->restore();
}

void StackItem::hoverEnterEvent(QGraphicsSceneHoverEvent*) {
    m_hover = true;
    setZValue(4);
    update();
}

void StackItem::hoverLeaveEvent(QGraphicsSceneHoverEvent*) {
    m_hover = false;
    setZValue(m_stack.active ? 3 : 2);
    update();
}

MapView::MapView(const GameData& gameData, QWidget* parent) : QGraphicsView(parent), d(gameData) {
    auto* scene = new QGraphicsScene(this);
    m_painter = std::make_unique<MapPainter>(gameData);
    // Bottom to top: the control tints over the land, the fixed board, the markers.
    m_tints = new MapItem(*m_painter, MapPainter::Tints | MapPainter::NoFrame);
    m_board = new MapItem(*m_painter, MapPainter::AreaLines | MapPainter::Pathways | MapPainter::BoxArt |
                                          MapPainter::CitySymbolsPlain | MapPainter::CityLabels |
                                          MapPainter::AreaLabels | MapPainter::LegendKey |
                                          MapPainter::NoBackground | MapPainter::NoFrame);
    m_markers =
        new MapItem(*m_painter, MapPainter::WarTags | MapPainter::CityControl | MapPainter::ControlMarkers |
                                    MapPainter::Markers | MapPainter::NoBackground);
    // The title (top left) on a strip of its own: redrawn once a turn.
    const QRectF r = m_painter->sceneRect();
    m_title = new MapItem(*m_painter, MapPainter::MapTitle | MapPainter::NoBackground | MapPainter::NoFrame,
                          QRectF(r.left(), r.top(), r.width() * 0.6, 64));
    m_tints->setZValue(-3);
    m_board->setZValue(-2);
    m_markers->setZValue(-1);
    m_title->setZValue(-1);
    for (MapItem* it : {m_tints, m_board, m_markers, m_title})
        scene->addItem(it);
    m_highlights = new HighlightItem(*m_painter);
    m_highlights->setZValue(1);
    scene->addItem(m_highlights);
    scene->setSceneRect(m_painter->sceneRect().adjusted(-40, -40, 40, 40));
    setScene(scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setViewportUpdateMode(QGraphicsView::SmartViewportUpdate);
    setBackgroundBrush(QColor(0x3b, 0x33, 0x2a));
    setFrameShape(QFrame::NoFrame);
    viewport()->setCursor(Qt::ArrowCursor);
}

void MapView::setState(const MapState& s) {
    m_state = s;
    for (MapItem* it : {m_tints, m_board, m_markers, m_title})
        it->setState(s);
    m_highlights->setState(s);
    layoutStacks();
}

void MapView::layoutStacks() {
    for (StackItem* it : m_stacks) {
        scene()->removeItem(it);
        delete it;
    }
    m_stacks.clear();
    const QList<QRectF> rects = m_painter->stackRects(m_state, m_tokenScale, m_compact);
    for (qsizetype i = 0; i < m_state.stacks.size(); ++i) {
        auto* it = new StackItem(*m_painter, m_state.stacks[i], rects[i], static_cast<int>(i), m_tokenScale,
                                 m_compact);
        scene()->addItem(it);
        m_stacks << it;
    }
}

void MapView::zoomChanged() {
    // Zoomed out, the tokens keep a legible size and show one line each; zoomed in, every counter.
    const double zoom = transform().m11();
    const double scale = std::max(1.0, 0.9 / zoom);
    const bool compact = zoom < 0.85;
    if (std::abs(scale - m_tokenScale) > 0.02 || compact != m_compact) {
        m_tokenScale = scale;
        m_compact = compact;
        layoutStacks();
    }
}

void MapView::setHighlights(const QHash<int, Highlight>& h) {
    m_state.highlights = h;
    m_highlights->setState(m_state);
}

QPoint MapView::viewportPosOf(int loc) const {
    return mapFromScene(m_painter->locPos(loc));
}

QPoint MapView::viewportPosOfStack(int stackIndex) const {
    return mapFromScene(m_stacks.value(stackIndex)->tokenRect().center());
}

void MapView::invalidateCache() {
    for (MapItem* it : {m_tints, m_board, m_markers, m_title}) {
        it->setCacheMode(QGraphicsItem::NoCache);
        it->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    }
}

int MapView::layerRedraws() const {
    return m_tints->paints() + m_board->paints() + m_markers->paints() + m_title->paints();
}

void MapView::paintEvent(QPaintEvent* e) {
    QGraphicsView::paintEvent(e);
    emit framePainted();
}

void MapView::fitMap() {
    fitInView(m_painter->sceneRect(), Qt::KeepAspectRatio);
    zoomChanged();
}

void MapView::zoomBy(double f) {
    const double current = transform().m11();
    if ((current > 6 && f > 1) || (current < 0.08 && f < 1))
        return;
    scale(f, f);
    zoomChanged();
}

void MapView::wheelEvent(QWheelEvent* e) {
    zoomBy(e->angleDelta().y() > 0 ? 1.15 : 1 / 1.15);
    e->accept();
}

void MapView::keyPressEvent(QKeyEvent* e) {
    if (e->key() == Qt::Key_Plus || e->key() == Qt::Key_Equal)
        zoomIn();
    else if (e->key() == Qt::Key_Minus)
        zoomOut();
    else if (e->key() == Qt::Key_0 || e->key() == Qt::Key_F)
        fitMap();
    else
        QGraphicsView::keyPressEvent(e);
}

void MapView::mousePressEvent(QMouseEvent* e) {
    m_pressPos = e->pos();
    QGraphicsView::mousePressEvent(e);
}

void MapView::mouseReleaseEvent(QMouseEvent* e) {
    QGraphicsView::mouseReleaseEvent(e);
    viewport()->setCursor(Qt::ArrowCursor);
    if (e->button() != Qt::LeftButton || (e->pos() - m_pressPos).manhattanLength() > 5)
        return;
    const QPointF pos = mapToScene(e->pos());
    const MapPainter& mp = (*m_painter);
    // A highlighted space wins over a stack drawn on top of it: that is the decision being made.
    int city = mp.cityAt(pos, 20);
    if (city >= 0 && m_state.highlights.contains(city)) {
        emit locClicked(city);
        return;
    }
    const int box = mp.boxAt(pos);
    if (box >= 0 && m_state.highlights.contains(10000 + box)) { // a ringed box, under its stacks
        emit locClicked(10000 + box);
        return;
    }
    for (auto it = m_stacks.rbegin(); it != m_stacks.rend(); ++it)
        if ((*it)->tokenRect().contains(pos)) {
            emit stackClicked((*it)->index());
            return;
        }
    if (city >= 0) {
        emit locClicked(city);
        return;
    }
    if (box >= 0)
        emit locClicked(10000 + box);
}

QString MapView::tooltipAt(const QPointF& pos) const {
    for (auto it = m_stacks.rbegin(); it != m_stacks.rend(); ++it) {
        if (!(*it)->tokenRect().contains(pos))
            continue;
        const MapStack& st = (*it)->stack();
        QStringList lines;
        for (const MapCounter& c : st.counters)
            lines << (c.leader ? QStringLiteral("<b>%1</b> %2").arg(c.label.toHtmlEscaped(), c.sublabel)
                               : QStringLiteral("%1 %2").arg(c.label, c.sublabel.toHtmlEscaped()));
        return QStringLiteral("%1<br><i>Combat strength %2%3 — click for details</i>")
            .arg(lines.join(QStringLiteral("<br>")))
            .arg(st.combatFactor())
            .arg(st.inside ? QStringLiteral(", inside the fortress") : QString());
    }
    const MapPainter& mp = (*m_painter);
    QString text;
    const int ci = mp.cityAt(pos, 14);
    if (ci >= 0) {
        const City& c = d.cities[ci];
        text = QStringLiteral("<b>%1</b>").arg(c.name.toHtmlEscaped());
        if (c.area >= 0)
            text += QStringLiteral("<br>%1").arg(d.areas[c.area].name.toHtmlEscaped());
        if (c.france)
            text += QStringLiteral("<br>%1%2")
                        .arg(d.franceName, c.offmap ? QStringLiteral(" (off-map)") : QString());
        if (c.independent)
            text += QStringLiteral("<br>Independent City, %1 VP%2")
                        .arg(c.vp)
                        .arg(c.elector ? QStringLiteral(", Elector") : QString());
        if (c.fortress)
            text += QStringLiteral("<br>Fortress: strength %1, siege modifier %2")
                        .arg(c.fortress->strength)
                        .arg(c.fortress->siegeModifier);
        if (c.port)
            text += QStringLiteral("<br>Port");
        const CityMarkers m = m_state.markers.value(ci);
        if (m.siege)
            text += m.siege > 1 ? QStringLiteral("<br>Besieged: Continued Siege +%1").arg(m.siege - 1)
                                : QStringLiteral("<br>Besieged");
        if (m.pillage)
            text += QStringLiteral("<br>Pillage %1").arg(m.pillage);
        if (m.revolt)
            text += QStringLiteral("<br>Peasant Revolt");
        if (m.masked)
            text += QStringLiteral("<br>Masked (13.16)");
        if (m.swedishBase)
            text += QStringLiteral("<br>Swedish base");
        return text;
    }
    const int box = mp.boxAt(pos);
    if (box >= 0)
        return QStringLiteral("<b>%1</b>").arg(d.boxes[box].name.toHtmlEscaped());
    const int a = mp.areaAt(pos);
    if (a >= 0) {
        const Area& ar = d.areas[a];
        text = QStringLiteral("<b>%1</b><br>Control rating %2, %3 VP%4")
                   .arg(ar.name.toHtmlEscaped())
                   .arg(ar.control)
                   .arg(ar.vp)
                   .arg(ar.elector ? QStringLiteral(", Electorate") : QString());
    }
    return text;
}

bool MapView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QString text = tooltipAt(mapToScene(he->pos()));
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QGraphicsView::viewportEvent(e);
}

} // namespace wp
