// The tactical table: terrain drawn by type, units as bases with their facing, side colours, strength
// (TVBD resolve, Tercios Wear) and markers, routed and destroyed units greyed where they fell; the
// selected unit's legal actions as ghost bases (moves), arrows (charges) and lines (shots). Zoom with
// the wheel or the keys, fit to the table. It only renders: clicks are reported as signals.
#pragma once

#include "tacticalsession.h"

#include <QGraphicsView>

class QGraphicsScene;
class QPainterPath;

namespace wp {

class TacticalView : public QGraphicsView {
    Q_OBJECT
  public:
    static constexpr double kScale = 24; // pixels per table unit at zoom 1

    explicit TacticalView(QWidget* parent = nullptr);
    void setSession(const TacticalSession* session);
    // Redraws the table from the session; `highlights` are the selected unit's legal actions, the one
    // whose text is `focus` (the list's current action) drawn stronger.
    void rebuild(int selected, const QList<TacActionView>& highlights, const QString& focus = {});
    QPointF toScene(tactical::Vec2 p) const;
    tactical::Vec2 toTable(QPointF p) const;
    int unitItemCount() const { return m_unitItems; }
    int routedItemCount() const { return m_routedItems; }
    int highlightCount() const { return m_highlightItems; }
    int areaGhostCount() const { return m_areaItems; } // TVBD set-up: terrain placements / cards drawn
    QString hoveredGhost() const;                      // the action of the area ghost under the mouse
    QPoint viewPointOfUnit(int unit) const; // for tests: where to click (inside the base, off its centre)
    // The move the current (or last) drag of a unit stands for, as its ghost shows it.
    const DragMove& lastDrag() const { return m_lastDrag; }
    bool dragGhostShown() const;
    // The units' labels in the view's pixels, as laid out (of the units on the table only, if asked).
    QList<QRectF> labelRects(bool onTableOnly = false) const;
    QString dragLabelText() const; // the ghost's label as shown (the move, and why it is refused)

  public slots:
    void fitTable();
    void zoomIn();
    void zoomOut();

  signals:
    void unitClicked(int unit);
    void actionClicked(const QString& text);
    void tableClicked(tactical::Vec2 at);
    void unitDragged(int unit, tactical::Vec2 delta); // the selected unit dragged by delta (table units)

  protected:
    void wheelEvent(QWheelEvent* e) override;
    void mousePressEvent(QMouseEvent* e) override;
    void mouseMoveEvent(QMouseEvent* e) override;
    void mouseReleaseEvent(QMouseEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;
    void showEvent(QShowEvent* e) override;

  private:
    void drawTerrain();
    QPainterPath piecesPath(const QList<tactical::Polygon>& pieces) const; // convex pieces, in the scene
    // Moves labels that would cover an earlier one (in the view's pixels) a row further from their unit,
    // with a leader line; again whenever the zoom changes.
    void layoutLabels();
    void showDragGhost(); // the ghost and label of m_lastDrag
    QGraphicsScene* m_scene;
    const TacticalSession* m_session = nullptr;
    int m_selectedUnit = -1;
    // a press on the selected unit: a click, or the start of a drag
    int m_pressUnit = -1;
    QPoint m_pressPos;
    bool m_dragging = false;
    QGraphicsItem* m_dragGhost = nullptr;
    QGraphicsItem* m_dragLabel = nullptr; // the drag's move, and the engine's reason when it refuses it
    DragMove m_lastDrag;
    bool m_autoFit = true; // the table follows the window's size until the user zooms
    int m_unitItems = 0, m_routedItems = 0, m_highlightItems = 0, m_areaItems = 0;
    QList<tactical::Pose> m_unitPoses;
    QList<QGraphicsItem*> m_labels; // the units' labels (LabelItem), in unit order
};

} // namespace wp
