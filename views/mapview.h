// The map as a zoomable, pannable QGraphicsView (wheel, +/-, fit), with tooltips naming the space.
#pragma once

#include "mappainter.h"
#include "mapstate.h"

#include <QGraphicsObject>
#include <QGraphicsView>
#include <memory>

namespace wp {

class MapItem : public QGraphicsObject {
    Q_OBJECT
  public:
    MapItem(const GameData& data, QGraphicsItem* parent = nullptr);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    void setState(const MapState& s);
    const MapPainter& painter() const { return m_painter; }

  private:
    const GameData& d;
    MapPainter m_painter;
    MapState m_state;
};

class MapView : public QGraphicsView {
    Q_OBJECT
  public:
    explicit MapView(const GameData& gameData, QWidget* parent = nullptr);
    void setState(const MapState& s) { m_item->setState(s); }

  public slots:
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(0.8); }
    void fitMap();

  protected:
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    bool viewportEvent(QEvent* e) override;

  private:
    void zoomBy(double f);
    const GameData& d;
    MapItem* m_item;
};

} // namespace wp
