// Draws the campaign map from the data: Areas tinted by control, pathways, cities and fortresses,
// Independent cities, off-map boxes and arrows, the Spanish Zone, markers and stacks. Used by the GUI's
// map view and by `westphalia-cli map render` (PNG and SVG).
#pragma once

#include "data/gamedata.h"
#include "mapstate.h"

#include <QColor>
#include <QPainterPath>
#include <QPointF>
#include <QRectF>
#include <memory>

class QPainter;
class QSvgRenderer;

namespace wp {

class MapPainter {
  public:
    explicit MapPainter(const GameData& data);
    ~MapPainter();
    MapPainter(const MapPainter&) = delete;
    MapPainter& operator=(const MapPainter&) = delete;

    // Map coordinates (scene units) of a latitude/longitude.
    QPointF project(double lat, double lon) const;
    QPointF cityPos(int city) const { return m_cityPos.value(city); }
    QPointF boxPos(int box) const;
    QPointF locPos(int loc) const; // a city index or 10000 + box index
    QRectF boxRect(int box) const;
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
        Markers = 0x100,    // siege, pillage, revolt, masking, Swedish base
        Highlights = 0x200, // legal targets and the moving stack's path
        AllLayers = 0x3ff,
        StaticLayers = Areas | Pathways | Boxes | CitySymbols | CityLabels | ControlBoxes | Legend | Markers,
        // The parts of Areas, for the view's layers: the control tints (and France) change with the state,
        // the sea, rivers, borders and the Spanish Zone never do.
        Tints = 0x400,
        AreaLines = 0x800,
        NoBackground = 0x1000, // no land fill under everything (a transparent layer)
        NoFrame = 0x2000,      // no frame around the map
        // Finer parts, so that the fixed drawing is cached apart from what the state changes:
        AreaLabels = 0x4000,         // ControlBoxes: the Area names and their Control/VP/Elector boxes
        ControlMarkers = 0x8000,     // ControlBoxes: the control discs (and the moving Elector box)
        BoxArt = 0x10000,            // Boxes: the boxes, flags and arrows
        WarTags = 0x20000,           // Boxes: "AT WAR" on Denmark's and Sweden's flags
        LegendKey = 0x40000,         // Legend: the key in the corner
        MapTitle = 0x80000,          // Legend: the title (scenario and turn)
        CitySymbolsPlain = 0x100000, // CitySymbols as if no city were controlled
        CityControl = 0x200000,      // CitySymbols of the controlled cities only (over the plain ones)
    };
    // Whether the drawing of `layers` differs between two states (the view redraws a layer only then).
    static bool layersDiffer(int layers, const MapState& a, const MapState& b);
    void paint(QPainter& p, const MapState& state, int layers = AllLayers) const;

    // The Area (or -1) whose tinted region contains the point; for tooltips and tests.
    int areaAt(const QPointF& scenePos) const;
    // The city (or -1) whose symbol is within `radius` of the point.
    int cityAt(const QPointF& scenePos, double radius = 16) const;
    // The box (or -1) whose drawn rectangle contains the point.
    int boxAt(const QPointF& scenePos) const;
    // Centre of the region drawn for an Area (its largest cell's centroid, roughly).
    QPointF areaRegionPoint(int area) const;
    const QPainterPath& areaPath(int area) const { return m_areaPaths[area]; }
    const QPainterPath& seaPath() const { return m_sea; }

    // Stack tokens: where each of state.stacks is drawn (same order), chosen so tokens overlap as little
    // as possible, and how one is drawn.
    // `scale` enlarges the tokens (the view keeps them legible when zoomed out); `compact` draws each as a
    // single row (the commander, or the units) for an overview.
    QList<QRectF> stackRects(const MapState& s, double scale = 1.0, bool compact = false) const;
    QSizeF stackSize(const MapStack& st, bool compact = false) const;
    // Draws a token in `r` (unscaled units: stackSize()).
    void drawStack(QPainter& p, const MapStack& st, const QRectF& r, bool hover = false,
                   bool compact = false) const;
    // The thin line from the space to the token `r` (scene units).
    void drawStackLeader(QPainter& p, const MapStack& st, const QRectF& r, double scale = 1.0) const;
    // A highlight ring around a space.
    void drawHighlight(QPainter& p, int loc, Highlight h) const;
    void drawPath(QPainter& p, const MapState& s) const;

    static QColor controlColor(Control c);
    static QColor controlFill(Control c);
    static QColor sideColor(int side); // 0 Catholic, 1 Protestant

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
    std::unique_ptr<QSvgRenderer> m_pillage, m_revolt, m_siege, m_base, m_mask;

    void buildCells();
    QPainterPath polyPath(const QList<QPair<double, double>>& pts, bool closed) const;
    void drawTints(QPainter& p, const MapState& s) const;
    void drawAreaLines(QPainter& p) const;
    void drawPathways(QPainter& p) const;
    void drawBoxes(QPainter& p, const MapState& s, bool art, bool tags) const;
    void drawCitySymbols(QPainter& p, const MapState& s, bool plain, bool controlledOnly) const;
    void drawCityLabels(QPainter& p, const MapState& s) const;
    void drawControlBoxes(QPainter& p, const MapState& s, bool labels, bool markers) const;
    void drawMarkers(QPainter& p, const MapState& s) const;
    void drawStacks(QPainter& p, const MapState& s) const;
    void drawLegend(QPainter& p, const MapState& s, bool title, bool key) const;
};

} // namespace wp
