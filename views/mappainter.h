// Draws the campaign map from the data: Areas tinted by control, pathways, cities and fortresses,
// Independent cities, off-map boxes and arrows, the Spanish Zone, stacks. Used by the GUI's map view and
// by `westphalia-cli map render` (PNG and SVG).
#pragma once

#include "data/gamedata.h"
#include "mapstate.h"

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>

class QPainter;

namespace wp {

class MapPainter {
  public:
    explicit MapPainter(const GameData& data);

    // Map coordinates (scene units) of a latitude/longitude.
    QPointF project(double lat, double lon) const;
    QPointF cityPos(int city) const { return m_cityPos.value(city); }
    QPointF boxPos(int box) const;
    QRectF sceneRect() const { return m_rect; }

    enum Layer {
        Areas = 0x1, // tints, sea, rivers, borders, Spanish Zone
        Pathways = 0x2,
        Boxes = 0x4, // UP, Denmark, Sweden with their arrows
        CitySymbols = 0x8,
        CityLabels = 0x10, // names, VP and Elector boxes
        ControlBoxes = 0x20,
        Stacks = 0x40,
        Legend = 0x80,
        AllLayers = 0xff
    };
    void paint(QPainter& p, const MapState& state, int layers = AllLayers) const;

    // The Area (or -1) whose tinted region contains the point; for tooltips and tests.
    int areaAt(const QPointF& scenePos) const;
    // Centre of the region drawn for an Area (its largest cell's centroid, roughly).
    QPointF areaRegionPoint(int area) const;
    const QPainterPath& areaPath(int area) const { return m_areaPaths[area]; }
    const QPainterPath& seaPath() const { return m_sea; }

    static QColor controlColor(Control c);
    static QColor controlFill(Control c);

  private:
    const GameData& d;
    double m_lat0, m_lon0, m_scale, m_cosLat;
    QRectF m_rect;
    QList<QPointF> m_cityPos;
    QList<QPainterPath> m_cellPaths; // per city: its tinted cell
    QList<QPainterPath> m_areaPaths; // per Area: the union of its cells
    QPainterPath m_francePath;       // French cities' cells
    QPainterPath m_spanishZone;      // union of the Spanish Zone's cells
    QPainterPath m_sea;

    void buildCells();
    QPainterPath polyPath(const QList<QPair<double, double>>& pts, bool closed) const;
    void drawAreas(QPainter& p, const MapState& s) const;
    void drawPathways(QPainter& p) const;
    void drawBoxes(QPainter& p) const;
    void drawCitySymbols(QPainter& p, const MapState& s) const;
    void drawCityLabels(QPainter& p, const MapState& s) const;
    void drawControlBoxes(QPainter& p, const MapState& s) const;
    void drawStacks(QPainter& p, const MapState& s) const;
    void drawLegend(QPainter& p, const MapState& s) const;
};

} // namespace wp
