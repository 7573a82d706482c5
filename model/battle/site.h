// The battle's site (issue 9, docs/battle-export.md "Rivers, roads, season"): the river the city lies on
// (scenarios/battle-terrain.json), the roads toward its neighbouring cities (the map's pathways, in their
// real directions), and the month and season. Planned once in a ruleset-neutral frame and drawn by each
// exporter with its own terrain types. QtCore only.
#pragma once

#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

namespace wp {
struct GameData;
}
namespace wp::rules {
class Rng;
}

namespace wp::battle {

struct BattleInput;

// scenarios/battle-terrain.json: city name -> {"river", "kind" (river|stream|none), "provenance"}.
// Errors name the file, the JSON path and the problem.
bool loadSites(const QString& path, QJsonObject* cities, QString* error);
// The battle-terrain.json next to a mapping file, else the data directory's.
QString sitesPathFor(const QString& mappingPath);

// The roads toward the city's neighbours on the map, in their real directions, with the attacker coming
// from `from` (a city index, or -1: the first neighbour). Fills in->roads.
void addMapRoads(const GameData& d, int city, int from, BattleInput* in);

// The table's shape in the neutral frame: `across` 0..W, `depth` 0 (the attacker's base edge) to D.
struct SiteShape {
    double W = 45, D = 30;
    double riverWidth = 2.5, streamWidth = 0.5; // linear feature widths (TVBD 8.4; Tercios 3" and 1.5")
    bool streamAcross = true; // a stream runs across the neutral zone (else along a flank as a river)
    double neutralLo = 11, neutralHi = 19;         // the band no one deploys in
    double flankMin = 2.5, flankMax = 5;           // a river along a flank: its centre this far from an edge
    double townW = 4, townD = 2.5, townDepth = 17; // the town's size and depth (the defender's side)
    double crossingAlong = 2.5; // a bridge's or ford's length along the water (two crossings keep clear)
};

struct SiteRoad {
    QString to;          // the neighbouring city it leads to
    QList<QPointF> line; // from the town to the table edge
};

struct SiteCrossing {
    QPointF at;
    bool bridge = true; // else a ford
    QString road;       // the road it carries ("" for a ford off the roads)
};

struct SitePlan {
    int month = 0;              // 1..12
    QString season;             // winter, spring, summer, autumn
    bool cropsStanding = false; // May-September: fields are in season (TVBD 8.2)
    QString river, riverKind;   // kind "river" or "stream"; empty: none
    QString riverSource;
    bool riverOnFlank = false;
    QList<QPointF> riverLine;
    double riverWidth = 0;
    double freeLo = 0, freeHi = 0; // the across band clear of a flank river (for deployment)
    QPointF town;
    QList<SiteRoad> roads;
    QList<SiteCrossing> crossings;
    QStringList notes; // the briefing lines: month and season, river, roads
};

// Plans the site; draws only from `rng` (a stream of its own, so the forces never move).
SitePlan planSite(const BattleInput& in, const QJsonObject& sites, const SiteShape& shape,
                  wp::rules::Rng& rng);

QString monthName(int month);

} // namespace wp::battle
