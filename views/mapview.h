// The map as a zoomable, pannable QGraphicsView (wheel, +/-, fit), with tooltips naming the space. The
// map itself is one cached item; each stack is an item of its own (hover, click for the inspector); the
// highlights of the decision in progress lie between them. Clicks are reported as signals; the view
// never changes the game.
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
    void setLayers(int layers) { m_layers = layers; }

  private:
    MapPainter m_painter;
    MapState m_state;
    int m_layers = MapPainter::StaticLayers;
};

// The legal targets and the moving stack's path.
class HighlightItem : public QGraphicsItem {
  public:
    HighlightItem(const MapPainter& painter, QGraphicsItem* parent = nullptr);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    void setState(const MapState& s);

  private:
    const MapPainter& m_painter;
    MapState m_state;
};

class StackItem : public QGraphicsItem {
  public:
    StackItem(const MapPainter& painter, const MapStack& stack, const QRectF& rect, int index, double scale,
              bool compact);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    const MapStack& stack() const { return m_stack; }
    QRectF tokenRect() const { return m_rect; }
    int index() const { return m_index; }

  protected:
    void hoverEnterEvent(QGraphicsSceneHoverEvent* e) override;
    void hoverLeaveEvent(QGraphicsSceneHoverEvent* e) override;

  private:
    const MapPainter& m_painter;
    MapStack m_stack;
    QRectF m_rect;
    int m_index;
    double m_scale;
    bool m_compact;
    bool m_hover = false;
};

class MapView : public QGraphicsView {
    Q_OBJECT
  public:
    explicit MapView(const GameData& gameData, QWidget* parent = nullptr);
    void setState(const MapState& s);
    const MapState& state() const { return m_state; }
    // Only the highlights and path change (cheap: the map is not repainted).
    void setHighlights(const QHash<int, Highlight>& h);
    const MapPainter& painter() const { return m_item->painter(); }
    MapItem* mapItem() const { return m_item; }

    // For tests and tools: the stack items drawn now, and where a space is on the viewport.
    QList<StackItem*> stackItems() const { return m_stacks; }
    bool compactStacks() const { return m_compact; }
    QPoint viewportPosOf(int loc) const;
    QPoint viewportPosOfStack(int stackIndex) const;
    // Drops the cached map picture (the benchmark's uncached repaint).
    void invalidateCache();

  signals:
    void framePainted();               // after each paint of the viewport (the benchmark's "first frame")
    void locClicked(int loc);          // a city index, or 10000 + box index
    void stackClicked(int stackIndex); // index into state().stacks

  public slots:
    void zoomIn() { zoomBy(1.25); }
    void zoomOut() { zoomBy(0.8); }
    void fitMap();

  protected:
    void wheelEvent(QWheelEvent* e) override;
    void keyPressEvent(QKeyEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    bool viewportEvent(QEvent* e) override;
    void paintEvent(QPaintEvent* e) override;

  private:
    void zoomBy(double f);
    void layoutStacks(); // places the stack items for the current zoom
    void zoomChanged();
    QString tooltipAt(const QPointF& scenePos) const;
    const GameData& d;
    MapItem* m_item;
    HighlightItem* m_highlights;
    QList<StackItem*> m_stacks;
    MapState m_state;
    QPoint m_pressPos;
    double m_tokenScale = 1.0;
    bool m_compact = false;
};

} // namespace wp
