#include "mapview.h"

#include <QGraphicsScene>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QLineF>
#include <QToolTip>
#include <QWheelEvent>

namespace wp {

MapItem::MapItem(const GameData& data, QGraphicsItem* parent)
    : QGraphicsObject(parent), d(data), m_painter(data) {}

QRectF MapItem::boundingRect() const {
    return m_painter.sceneRect();
}

void MapItem::paint(QPainter* p, const QStyleOptionGraphicsItem*, QWidget*) {
    m_painter.paint(*p, m_state);
}

void MapItem::setState(const MapState& s) {
    m_state = s;
    update();
}

MapView::MapView(const GameData& gameData, QWidget* parent) : QGraphicsView(parent), d(gameData) {
    auto* scene = new QGraphicsScene(this);
    m_item = new MapItem(gameData);
    m_item->setCacheMode(QGraphicsItem::DeviceCoordinateCache);
    scene->addItem(m_item);
    scene->setSceneRect(m_item->boundingRect());
    setScene(scene);
    setRenderHints(QPainter::Antialiasing | QPainter::TextAntialiasing | QPainter::SmoothPixmapTransform);
    setDragMode(QGraphicsView::ScrollHandDrag);
    setTransformationAnchor(QGraphicsView::AnchorUnderMouse);
    setBackgroundBrush(QColor(0x3b, 0x33, 0x2a));
}

void MapView::fitMap() {
    fitInView(m_item->boundingRect(), Qt::KeepAspectRatio);
}

void MapView::zoomBy(double f) {
    const double current = transform().m11();
    if ((current > 6 && f > 1) || (current < 0.08 && f < 1))
        return;
    scale(f, f);
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

bool MapView::viewportEvent(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* he = static_cast<QHelpEvent*>(e);
        const QPointF pos = mapToScene(he->pos());
        const MapPainter& mp = m_item->painter();
        QString text;
        for (qsizetype i = 0; i < d.cities.size(); ++i) {
            if (QLineF(mp.cityPos(static_cast<int>(i)), pos).length() < 14) {
                const City& c = d.cities[i];
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
                break;
            }
        }
        if (text.isEmpty()) {
            int a = mp.areaAt(pos);
            if (a >= 0) {
                const Area& ar = d.areas[a];
                text = QStringLiteral("<b>%1</b><br>Control rating %2, %3 VP%4")
                           .arg(ar.name.toHtmlEscaped())
                           .arg(ar.control)
                           .arg(ar.vp)
                           .arg(ar.elector ? QStringLiteral(", Electorate") : QString());
            }
        }
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(he->globalPos(), text, this);
        return true;
    }
    return QGraphicsView::viewportEvent(e);
}

} // namespace wp
