// The map as a zoomable, pannable QGraphicsView (wheel, +/-, fit), with tooltips naming the space. The
// map itself is three cached layers (MapItem); each stack is an item of its own (hover, click for the
// inspector); the highlights of the decision in progress lie between them. A move redraws only the stacks
// and the highlights; a change of control or of a marker redraws the layers that show it. Clicks are reported
// as signals; the view never changes the game.
#pragma once

#include "mappainter.h"
#include "mapstate.h"

#include <QGraphicsItem>
#include <QGraphicsObject>
#include <QGraphicsView>
#include <memory>

namespace wp {

// One layer of the map picture, cached in device coordinates: redrawn only when the state it draws
// changes (MapPainter::layersDiffer) or the zoom does. The view stacks four: the control tints; the
// board (sea, rivers, borders, pathways, boxes and arrows, cities and their names, Area names and boxes,
// the key), which changes only with the Elector marker; and the markers (control discs, the controlled
// cities, siege, pillage and the other markers, "AT WAR"); and the title, which changes with the turn.
class MapItem : public QGraphicsItem {
  public:
    // `rect`: where the layer draws (scene units); the whole map if empty.
    MapItem(const MapPainter& painter, int layers, const QRectF& rect = {}, QGraphicsItem* parent = nullptr);
    QRectF boundingRect() const override;
    void paint(QPainter* p, const QStyleOptionGraphicsItem* option, QWidget* widget) override;
    // Returns whether the layer has to be redrawn.
    bool setState(const MapState& s);
    int layers() const { return m_layers; }
    int paints() const { return m_paints; } // how often it was drawn (into its cache)

  private:
    const MapPainter& m_painter;
    MapState m_state;
    int m_layers;
    QRectF m_rect;
    int m_paints = 0;
    bool m_hasState = false;
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
    const MapPainter& painter() const { return *m_painter; }
    QList<MapItem*> mapLayers() const { return {m_tints, m_board, m_markers, m_title}; }

    // For tests and tools: the stack items drawn now, and where a space is on the viewport.
    QList<StackItem*> stackItems() const { return m_stacks; }
    bool compactStacks() const { return m_compact; }
    QPoint viewportPosOf(int loc) const;
    QPoint viewportPosOfStack(int stackIndex) const;
    // Drops the cached map picture (the benchmark's uncached repaint, as after a zoom).
    void invalidateCache();
    // How many times a map layer was redrawn into its cache (tests: a move redraws none).
    int layerRedraws() const;

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
    std::unique_ptr<MapPainter> m_painter;
    MapItem* m_tints;
    MapItem* m_board;
    MapItem* m_markers;
    MapItem* m_title;
    HighlightItem* m_highlights;
    QList<StackItem*> m_stacks;
    MapState m_state;
    QPoint m_pressPos;
    double m_tokenScale = 1.0;
    bool m_compact = false;
};

} // namespace wp
