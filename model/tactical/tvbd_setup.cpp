// TVBD set-up phase (10.1-10.6) as decisions, when the scenario leaves it to the players: 10.4 terrain
// placement by the basic method (the defender places features and roads, the attacker makes one change),
// 10.5 scouting (automatic) and 10.6 alternate deployment. The simple policy's set-up answers and
// runTerrainProcedure (the export's entry point) are here too.
#include "sidewords.h"
#include "tactical_game.h"
#include "tvbd.h"
#include "tvbd_recruit.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <queue>
#include <vector>

namespace wp::tactical {

namespace {

QString cardRoadProblem(const TvbdRules& r, const BattleState& s, const TerrainSpec& road); // 16.6.8
QString roadsProblem(const TvbdRules& r, const BattleState& s);

bool isArea(const TerrainSpec& t) {
    return t.shape == QLatin1String("ellipse") || t.shape == QLatin1String("rect");
}
bool isRoad(const TerrainSpec& t) {
    return t.type == QLatin1String("road");
}
bool isWater(const QString& type) {
    return type == QLatin1String("stream") || type == QLatin1String("river");
}
bool isVillage(const QString& type) {
    return type == QLatin1String("village") || type == QLatin1String("town");
}
bool isHill(const QString& type) {
    return type == QLatin1String("gentleHill") || type == QLatin1String("difficultHill");
}
// 10.4: the area types the defender may choose and their shape (8.2: villages, towns and fields are
// rectangles, the rest round).
const QStringList& areaTypes() {
    static const QStringList t{QStringLiteral("village"),      QStringLiteral("town"),
                               QStringLiteral("field"),        QStringLiteral("woods"),
                               QStringLiteral("rough"),        QStringLiteral("gentleHill"),
                               QStringLiteral("difficultHill")};
    return t;
}
bool rectType(const QString& type) {
    return isVillage(type) || type == QLatin1String("field");
}
// 8.3 sizes: long side and the range of the short side.
struct SizeDims {
    double longSide, shortMin, shortMax;
};
std::optional<SizeDims> sizeDims(const QString& size) {
    if (size == QLatin1String("small"))
        return SizeDims{4, 3, 4};
    if (size == QLatin1String("medium"))
        return SizeDims{6, 4, 6};
    if (size == QLatin1String("large"))
        return SizeDims{8, 6, 8};
    return std::nullopt;
}
// 10.4 number of features: small table 1-4, big 2-6; the giant table (16.9) is not given: 2-8 (decision).
std::pair<int, int> featureRange(const BattleState& s) {
    if (s.tableW >= 59)
        return {2, 8};
    if (s.tableW >= 44)
        return {2, 6};
    return {1, 4};
}
double centreLeft(const BattleState& s) {
    return (s.tableW - s.centreW) / 2;
}

bool onTable(const BattleState& s, const Polygon& p) {
    for (const Vec2& v : p)
        if (v.x < -1e-6 || v.y < -1e-6 || v.x > s.tableW + 1e-6 || v.y > s.tableD + 1e-6)
            return false;
    return true;
}
bool onEdge(const BattleState& s, Vec2 p, int* edge) {
    const double e = 1e-6;
    if (std::abs(p.y) < e)
        *edge = 0;
    else if (std::abs(p.y - s.tableD) < e)
        *edge = 1;
    else if (std::abs(p.x) < e)
        *edge = 2;
    else if (std::abs(p.x - s.tableW) < e)
        *edge = 3;
    else
        return false;
    return p.x > -e && p.x < s.tableW + e && p.y > -e && p.y < s.tableD + e;
}

TerrainSpec areaSpec(const QString& type, const QString& size, Vec2 c, double rotation) {
    const SizeDims d = *sizeDims(size);
    TerrainSpec t;
    t.type = type;
    t.size = size;
    t.centre = c;
    t.rotation = rotation;
    const double shortSide = type == QLatin1String("town") ? d.shortMax : d.shortMin;
    if (rectType(type)) {
        t.shape = QStringLiteral("rect");
        t.a = d.longSide;
        t.b = shortSide;
    } else {
        t.shape = QStringLiteral("ellipse");
        t.a = d.longSide / 2;
        t.b = shortSide / 2;
    }
    return t;
}

TerrainSpec lineSpec(const TvbdRules& r, const QString& type, Vec2 a, Vec2 b) {
    TerrainSpec t;
    t.type = type;
    t.shape = QStringLiteral("line");
    t.points = {a, b};
    t.width = r.terrain.value(type).width > 0 ? r.terrain.value(type).width : 1;
    return t;
}

// Straight edge-to-edge lines offered for streams, rivers and roads: across the table (parallel to the
// base edges) and along it (base edge to base edge).
QList<std::pair<Vec2, Vec2>> edgeLines(const BattleState& s, const QList<Vec2>& through) {
    QList<std::pair<Vec2, Vec2>> out;
    auto across = [&](double y) {
        std::pair<Vec2, Vec2> l{{0, y}, {s.tableW, y}};
        if (!out.contains(l))
            out << l;
    };
    auto along = [&](double x) {
        std::pair<Vec2, Vec2> l{{x, 0}, {x, s.tableD}};
        if (!out.contains(l))
            out << l;
    };
    if (through.isEmpty()) {
        for (double f : {1.0 / 3, 0.5, 2.0 / 3})
            across(s.tableD * f);
        for (double f : {0.25, 0.5, 0.75})
            along(s.tableW * f);
    }
    for (const Vec2& p : through) {
        across(p.y);
        along(p.x);
    }
    return out;
}

Polygon specPolygon(const TvbdRules& r, const TerrainSpec& t) {
    const TerrainFeature f = terrainFeature(r, t);
    return f.pieces.isEmpty() ? Polygon() : f.pieces.first();
}

// Whether a road (a line of two or more points) passes through an area feature or ends in it.
bool crosses(const TvbdRules& r, const TerrainSpec& road, const TerrainSpec& area) {
    const Polygon p = specPolygon(r, area);
    if (road.points.size() < 2)
        return false;
    for (qsizetype i = 1; i < road.points.size(); ++i)
        if (segmentCrosses(p, road.points[i - 1], road.points[i]))
            return true;
    return contains(p, road.points.first()) || contains(p, road.points.last());
}

std::optional<Vec2> lineCrossing(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const Vec2 r = b - a, q = d - c;
    const double den = r.cross(q);
    if (std::abs(den) < 1e-12)
        return std::nullopt;
    const double t = (c - a).cross(q) / den, u = (c - a).cross(r) / den;
    if (t < 0 || t > 1 || u < 0 || u > 1)
        return std::nullopt;
    return a + r * t;
}

// The placed terrain with a bridge wherever a road crosses a river (8.2; the defender's choice of
// bridge or ford is taken as a bridge, so Cannon may cross).
// With terrain cards a road crosses a stream at a bridge too (16.6.8: bridge or ford, the defender's
// choice; taken as a bridge, as in the worked example T30).
QList<TerrainSpec> materialize(const QList<TerrainSpec>& specs, bool streamBridges = false) {
    QList<TerrainSpec> out = specs;
    int n = 0;
    for (const TerrainSpec& river : specs) {
        if (river.type != QLatin1String("river") && !(streamBridges && river.type == QLatin1String("stream")))
            continue;
        for (const TerrainSpec& road : specs) {
            if (!isRoad(road))
                continue;
            for (qsizetype i = 1; i < river.points.size(); ++i)
                for (qsizetype j = 1; j < road.points.size(); ++j) {
                    const auto x = lineCrossing(river.points[i - 1], river.points[i], road.points[j - 1],
                                                road.points[j]);
                    bool seen = false; // a road through a corner of the water crosses two of its legs there
                    for (const TerrainSpec& b : out)
                        seen = seen ||
                               (x && b.type == QLatin1String("bridge") && (b.centre - *x).length() < 0.01);
                    if (!x || seen)
                        continue;
                    const Vec2 dir = river.points[i] - river.points[i - 1];
                    TerrainSpec b;
                    b.id = QStringLiteral("%1-bridge%2").arg(river.id).arg(++n);
                    b.type = QStringLiteral("bridge");
                    b.shape = QStringLiteral("rect");
                    b.centre = *x;
                    b.a = road.width + 0.5;
                    b.b = river.width + 2;
                    b.rotation = std::atan2(dir.y, dir.x) * 180 / kPi;
                    out << b;
                }
        }
    }
    return out;
}

struct Counts {
    int features = 0, water = 0, rivers = 0, villages = 0, rough = 0, fields = 0, hills = 0, woods = 0,
        large = 0, small = 0, roads = 0;
};
Counts countSpecs(const QList<TerrainSpec>& specs) {
    Counts c;
    for (const TerrainSpec& t : specs) {
        if (isRoad(t)) {
            ++c.roads;
            continue;
        }
        ++c.features;
        c.water += isWater(t.type);
        c.rivers += t.type == QLatin1String("river");
        c.villages += isVillage(t.type);
        c.rough += t.type == QLatin1String("rough");
        c.fields += t.type == QLatin1String("field");
        c.hills += isHill(t.type);
        c.woods += t.type == QLatin1String("woods");
        c.large += t.size == QLatin1String("large");
        c.small += t.size == QLatin1String("small");
    }
    return c;
}

// The arrangement problems of a set of placed features that do not depend on the limits: area features
// on the table, not overlapping each other (a decision: bigger features are made of features placed
// side by side, 8.3), no impassable terrain under a stand already on the table.
QString layoutProblem(const TvbdRules& r, const BattleState& s, const QList<TerrainSpec>& specs, int which) {
    const TerrainSpec& t = specs[which];
    const Polygon p = specPolygon(r, t);
    if (isArea(t) && !onTable(s, p))
        return QStringLiteral("8.3 the feature must lie on the table");
    if (isArea(t))
        for (qsizetype j = 0; j < specs.size(); ++j)
            if (j != which && isArea(specs[j]) && overlaps(p, specPolygon(r, specs[j]), 0.01))
                return QStringLiteral("it overlaps %1").arg(specs[j].id);
    // The scenario's own terrain (the features on the table before the procedure, e.g. the battle export's
    // town, its bridges and fords): an area feature does not overlap them either; roads and water may run
    // through it, as the procedure's own do (issue 9).
    if (isArea(t))
        for (qsizetype j = 0; j < std::min<qsizetype>(s.setup.fixedTerrain, s.terrain.size()); ++j) {
            const TerrainFeature& f = s.terrain[j];
            if (f.type == QLatin1String("road") || isWater(f.type))
                continue;
            for (const Polygon& piece : f.pieces)
                if (overlaps(p, piece, 0.01))
                    return QStringLiteral("it overlaps the scenario's %1").arg(f.id);
        }
    if (r.terrain.value(t.type).cls == TerrainClass::Impassable)
        for (const Unit& u : s.units)
            if (u.onTable() && overlaps(u.pose, p))
                return QStringLiteral("8.2 impassable terrain under %1").arg(u.id);
    return {};
}

// The next unit of a command to deploy: its units in order, the Commander last (so it can start attached).
int firstUndeployed(const BattleState& s, int command, bool cannon) {
    int commander = -1;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& u = s.units[i];
        if (u.status == UnitStatus::Undeployed && (command < 0 || u.command == command) &&
            (u.type == UnitType::Cannon) == cannon) {
            if (u.type != UnitType::Commander)
                return int(i);
            if (commander < 0)
                commander = int(i);
        }
    }
    return commander;
}
bool hasUndeployed(const BattleState& s, int side, bool cannon) {
    for (const Unit& u : s.units)
        if (u.side == side && u.status == UnitStatus::Undeployed && (u.type == UnitType::Cannon) == cannon)
            return true;
    return false;
}
// 10.6 deployment zone: from the own base edge to 4 TUM short of the centre line; Pike+Shot in the
// centre zone. The problem, or empty.
QString deploymentZoneProblem(const TvbdRules& r, const BattleState& s, const Unit& u, const Pose& p) {
    const double limit = s.tableD / 2 - r.deployShort;
    for (const Vec2& c : p.corners()) {
        const double depth = u.side == 0 ? c.y : s.tableD - c.y;
        if (depth < -1e-6 || depth > limit + 1e-6 || c.x < -1e-6 || c.x > s.tableW + 1e-6)
            return QStringLiteral("10.6 outside the deployment zone (base edge to %1 TUM from it)")
                .arg(limit);
        if (r.type(u.type).mustDeployCentre &&
            (c.x < centreLeft(s) - 1e-6 || c.x > centreLeft(s) + s.centreW + 1e-6))
            return QStringLiteral("10.6 Pike+Shot deploy in the friendly centre zone");
    }
    return {};
}

void rebuild(const TvbdRules& r, BattleState& s) {
    s.terrain.resize(s.setup.fixedTerrain);
    for (const TerrainSpec& t : materialize(s.setup.specs, s.setup.terrainCards))
        s.terrain << terrainFeature(r, t);
}

// The shape follows the type (8.2) and a line takes its type's width.
TerrainSpec normalized(const TvbdRules& r, TerrainSpec t) {
    if (t.shape == QLatin1String("line") || isWater(t.type) || isRoad(t)) {
        t.shape = QStringLiteral("line");
        t.width = r.terrain.value(t.type).width > 0 ? r.terrain.value(t.type).width : 1;
        t.size.clear();
    } else {
        t.shape = rectType(t.type) ? QStringLiteral("rect") : QStringLiteral("ellipse");
    }
    return t;
}

// ---- 16.6 terrain cards -----------------------------------------------------------------------------------
// The card images are missing (digest 3.6), so what a card shows is a decision: its feature centred on its
// sector, of the card's size (8.3 dimensions as in 10.4), the long side across the table at orientations 0
// and 2 and along it at 1 and 3; a stream card's stream runs straight from table edge to table edge through
// the middle of its sector, across the table at orientations 0 and 2 and along it at 1 and 3.

constexpr double kSector = 15;

// 16.6.3 layouts: 2 x 2 small, 3 x 2 big, 4 x 2 giant; a shallow small table takes the 2 x 1 layout (16.8
// option 1, its base edges left empty). The layout is centred on the table.
// 16.8 option 2 (setup.cardLayout "2x2" on a shallow small table): the normal 2 x 2 layout, overhanging the
// table's base edges by 5 TUM.
std::pair<int, int> cardLayout(const BattleState& s) {
    return {std::max(1, int(std::lround(s.tableW / kSector))),
            s.tableD >= 2 * kSector - 1 || s.setup.cardOverhang ? 2 : 1};
}
Vec2 sectorCentre(const BattleState& s, int k) {
    const int cols = s.setup.cardCols, rows = s.setup.cardRows;
    const double x0 = (s.tableW - cols * kSector) / 2, y0 = (s.tableD - rows * kSector) / 2;
    const int row = k / cols, col = k % cols;
    return {x0 + kSector * col + kSector / 2, s.tableD - y0 - kSector * row - kSector / 2};
}
// 16.6.4: the centre of a 3 x 2 layout is its middle column, of a 4 x 2 its middle two (a decision).
bool centreSector(const BattleState& s, int k) {
    const int cols = s.setup.cardCols, col = k % std::max(1, cols);
    return (cols == 3 && col == 1) || (cols == 4 && (col == 1 || col == 2));
}
bool openCard(const TerrainCard& c) {
    return c.type.isEmpty();
}
bool largeCard(const TerrainCard& c) {
    return c.size == QLatin1String("large");
}
bool smallOrMediumCard(const TerrainCard& c) {
    return !openCard(c) && !largeCard(c);
}

// Figure 44 / 17.1: the 36 cards of the standard deck (the river and bend cards are set aside, 16.6.3).
QList<TerrainCard> terrainDeck() {
    QList<TerrainCard> d;
    auto add = [&](const char* type, const char* size, int n = 1) {
        for (int i = 0; i < n; ++i)
            d << TerrainCard{QString::fromLatin1(type), QString::fromLatin1(size), 0};
    };
    add("", "", 16);
    add("woods", "small");
    add("woods", "medium", 2);
    add("woods", "large");
    add("field", "small");
    add("field", "medium");
    add("field", "large");
    add("rough", "small");
    add("rough", "medium");
    add("rough", "large");
    add("gentleHill", "small");
    add("gentleHill", "medium");
    add("gentleHill", "large");
    add("difficultHill", "medium");
    add("difficultHill", "large");
    add("stream", "medium", 2);
    add("town", "large");
    add("village", "medium");
    add("village", "small");
    return d;
}

QString cardText(const TerrainCard& c) {
    if (openCard(c))
        return QStringLiteral("open");
    return c.type == QLatin1String("stream") || c.type == QLatin1String("bend")
               ? QStringLiteral("%1 (orientation %2)").arg(c.type).arg(c.orientation)
               : QStringLiteral("%1 %2 (orientation %3)").arg(c.type, c.size).arg(c.orientation);
}
QString cardsText(const QList<TerrainCard>& cards) {
    QStringList t;
    for (qsizetype k = 0; k < cards.size(); ++k)
        t << QStringLiteral("%1 %2").arg(k + 1).arg(cardText(cards[k]));
    return t.join(QStringLiteral(", "));
}

// 16.6.4: the centre swaps a player may make now (the first of options 1-3 that is possible).
QList<std::pair<int, int>> centreSwaps(const BattleState& s) {
    const QList<TerrainCard>& c = s.setup.cards;
    for (int option = 1; option <= 3; ++option) {
        QList<std::pair<int, int>> out;
        for (int i = 0; i < c.size(); ++i)
            for (int j = 0; j < c.size(); ++j) {
                if (!centreSector(s, i) || centreSector(s, j))
                    continue;
                const bool ok = option == 1   ? largeCard(c[i]) && openCard(c[j])
                                : option == 2 ? largeCard(c[i]) && smallOrMediumCard(c[j])
                                              : smallOrMediumCard(c[i]) && openCard(c[j]);
                if (ok)
                    out << std::pair{i, j};
            }
        if (!out.isEmpty())
            return out;
    }
    return {};
}

// ---- 16.7 two streams (advanced): bend cards -------------------------------------------------------------
// The card images are missing (digest 3.6), so the geometry is a decision: a straight stream card's stream
// runs from table edge to table edge through the middle of its sector (across the table at orientations 0
// and 2, along it at 1 and 3); a bend card's stream turns a right angle at the middle of its sector, its two
// arms running straight from there to the table edges in the directions orientation x 90 and
// orientation x 90 + 90 degrees (0 = along +x, 90 = towards side 1's base edge).

bool waterCard(const TerrainCard& c) {
    return c.type == QLatin1String("stream") || c.type == QLatin1String("bend");
}
bool bendCard(const TerrainCard& c) {
    return c.type == QLatin1String("bend");
}
Vec2 axisDir(int k) { // exact unit vectors of the four quarter turns
    switch (((k % 4) + 4) % 4) {
    case 0:
        return {1, 0};
    case 1:
        return {0, 1};
    case 2:
        return {-1, 0};
    default:
        return {0, -1};
    }
}
// Where a ray from p along an axis direction leaves the table.
Vec2 edgePoint(const BattleState& s, Vec2 p, Vec2 d) {
    return {d.x > 0 ? s.tableW : d.x < 0 ? 0 : p.x, d.y > 0 ? s.tableD : d.y < 0 ? 0 : p.y};
}
bool horizontalCard(const TerrainCard& c) {
    return c.orientation % 2 == 0;
}

// 16.7 the allowed shapes of two streams (one stream is always allowed): T (two straights at right angles),
// h (a straight and a bend curving towards it), L (a straight and a bend lined up with it), "| (" (a
// straight and a bend curving away from it), ") (" (two bends curving away from each other).
enum class StreamShape { NotAllowed, One, T, H, L, StraightAway, BendsAway };

StreamShape streamShape(const BattleState& s, const QList<TerrainCard>& cards) {
    QList<int> w;
    for (int k = 0; k < cards.size(); ++k)
        if (waterCard(cards[k]))
            w << k;
    if (w.size() < 2)
        return StreamShape::One;
    const TerrainCard &a = cards[w[0]], &b = cards[w[1]];
    const Vec2 ca = sectorCentre(s, w[0]), cb = sectorCentre(s, w[1]);
    if (!bendCard(a) && !bendCard(b))
        return horizontalCard(a) != horizontalCard(b) ? StreamShape::T : StreamShape::NotAllowed;
    if (bendCard(a) && bendCard(b)) {
        // each has an arm pointing away from the other along the axis on which they differ
        const bool byX = std::abs(ca.x - cb.x) > 1e-6;
        auto away = [&](const TerrainCard& c, Vec2 from, Vec2 other) {
            const double want = byX ? (from.x > other.x ? 1 : -1) : (from.y > other.y ? 1 : -1);
            for (int i = 0; i < 2; ++i) {
                const Vec2 d = axisDir(c.orientation + i);
                if ((byX ? d.x : d.y) == want)
                    return true;
            }
            return false;
        };
        return away(a, ca, cb) && away(b, cb, ca) ? StreamShape::BendsAway : StreamShape::NotAllowed;
    }
    const TerrainCard& straight = bendCard(a) ? b : a;
    const TerrainCard& bend = bendCard(a) ? a : b;
    const Vec2 cs = bendCard(a) ? cb : ca, cbend = bendCard(a) ? ca : cb;
    const bool horiz = horizontalCard(straight);
    if (std::abs(horiz ? cbend.y - cs.y : cbend.x - cs.x) < 1e-6)
        return StreamShape::L;
    for (int i = 0; i < 2; ++i) { // the bend's arm across the straight
        const Vec2 d = axisDir(bend.orientation + i);
        const double across = horiz ? d.y : d.x;
        if (across != 0)
            return (across > 0) == ((horiz ? cs.y - cbend.y : cs.x - cbend.x) > 0)
                       ? StreamShape::H
                       : StreamShape::StraightAway;
    }
    return StreamShape::NotAllowed;
}

QString shapeName(StreamShape sh) {
    switch (sh) {
    case StreamShape::T:
        return QStringLiteral("T");
    case StreamShape::H:
        return QStringLiteral("h");
    case StreamShape::L:
        return QStringLiteral("L");
    case StreamShape::StraightAway:
        return QStringLiteral("| (");
    case StreamShape::BendsAway:
        return QStringLiteral(") (");
    default:
        return QStringLiteral("one stream");
    }
}

// 16.6.6 / 16.7: the streams the water cards show, as line features (ids c<sector>).
QList<TerrainSpec> cardStreams(const TvbdRules& r, const BattleState& s) {
    const QList<TerrainCard>& cards = s.setup.cards;
    QList<int> w;
    for (int k = 0; k < cards.size(); ++k)
        if (waterCard(cards[k]))
            w << k;
    auto line = [&](int k, const QList<Vec2>& pts) {
        TerrainSpec t = lineSpec(r, QStringLiteral("stream"), pts[0], pts[1]);
        t.points = pts;
        t.id = QStringLiteral("c%1").arg(k + 1);
        return t;
    };
    auto straight = [&](int k) {
        const Vec2 c = sectorCentre(s, k);
        return horizontalCard(cards[k]) ? line(k, {{0, c.y}, {s.tableW, c.y}})
                                        : line(k, {{c.x, 0}, {c.x, s.tableD}});
    };
    auto bend = [&](int k) {
        const Vec2 c = sectorCentre(s, k);
        return line(k, {edgePoint(s, c, axisDir(cards[k].orientation)), c,
                        edgePoint(s, c, axisDir(cards[k].orientation + 1))});
    };
    QList<TerrainSpec> out;
    if (w.isEmpty())
        return out;
    if (w.size() == 1)
        return {bendCard(cards[w[0]]) ? bend(w[0]) : straight(w[0])};
    const StreamShape sh = streamShape(s, cards);
    const int a = w[0], b = w[1];
    const Vec2 ca = sectorCentre(s, a), cb = sectorCentre(s, b);
    switch (sh) {
    case StreamShape::T: { // the first card's stream is the bar; the second runs from it to the edge
        const bool horiz = horizontalCard(cards[a]);
        const Vec2 foot = horiz ? Vec2{cb.x, ca.y} : Vec2{ca.x, cb.y};
        double sgn = horiz ? cb.y - ca.y : cb.x - ca.x;
        if (std::abs(sgn) < 1e-6) // its sector's middle is on the bar: towards the nearer table edge
            sgn = horiz ? (cb.y > s.tableD / 2 ? 1 : -1) : (cb.x > s.tableW / 2 ? 1 : -1);
        const Vec2 d = horiz ? Vec2{0, sgn > 0 ? 1.0 : -1.0} : Vec2{sgn > 0 ? 1.0 : -1.0, 0};
        out << straight(a) << line(b, {foot, edgePoint(s, foot, d)});
        break;
    }
    case StreamShape::L: // the straight lies along the bend's arm: one stream turning at the bend
        out << (bendCard(cards[a]) ? bend(a) : bend(b));
        break;
    case StreamShape::H: { // the bend's arm across the straight ends on it
        const int sk = bendCard(cards[a]) ? b : a, bk = bendCard(cards[a]) ? a : b;
        const Vec2 cs = sk == a ? ca : cb, c = sk == a ? cb : ca;
        const bool horiz = horizontalCard(cards[sk]);
        QList<Vec2> pts;
        for (int i = 0; i < 2; ++i) {
            const Vec2 d = axisDir(cards[bk].orientation + i);
            if ((horiz ? d.y : d.x) != 0)
                pts.prepend(horiz ? Vec2{c.x, cs.y} : Vec2{cs.x, c.y});
            else
                pts.append(edgePoint(s, c, d));
        }
        pts.insert(1, c);
        out << straight(sk) << line(bk, pts);
        break;
    }
    case StreamShape::StraightAway:
    case StreamShape::BendsAway:
        out << (bendCard(cards[a]) ? bend(a) : straight(a)) << (bendCard(cards[b]) ? bend(b) : straight(b));
        break;
    default: // not an allowed shape: cannot be reached through the decisions; the first stream alone
        out << (bendCard(cards[a]) ? bend(a) : straight(a));
        break;
    }
    return out;
}

// 16.6.6-16.6.7: the features the cards show, the streams first; a feature a stream crosses is moved aside
// (small, or medium the stream does not split) or split into two of the next size down, one on each side of
// it (large; medium when the stream passes through its middle third); a feature still on water after being
// moved twice (by a second stream) is left off (*notes says so). Ids c1, c2, ... by sector ("c3a"/"c3b"
// for the halves of a split feature).
QList<TerrainSpec> cardFeatures(const TvbdRules& r, const BattleState& s, QStringList* notes = nullptr) {
    const QList<TerrainCard>& cards = s.setup.cards;
    QList<TerrainSpec> out = cardStreams(r, s);
    struct Seg {
        Vec2 a, b;
        double width;
        bool across; // parallel to the base edges
    };
    QList<Seg> water;
    for (const TerrainSpec& st : out)
        for (qsizetype i = 1; i < st.points.size(); ++i)
            water << Seg{st.points[i - 1], st.points[i], st.width,
                         std::abs(st.points[i].y - st.points[i - 1].y) < 1e-9};
    auto firstWater = [&](const TerrainSpec& t) -> int {
        const Polygon p = specPolygon(r, t);
        for (qsizetype i = 0; i < water.size(); ++i)
            if (overlaps(p, thickSegment(water[i].a, water[i].b, water[i].width), 0.01))
                return int(i);
        return -1;
    };
    for (int k = 0; k < cards.size(); ++k) {
        const TerrainCard& card = cards[k];
        if (openCard(card) || waterCard(card))
            continue;
        const Vec2 c = sectorCentre(s, k);
        const double rotation = card.orientation % 2 == 0 ? 0 : 90;
        TerrainSpec first = areaSpec(card.type, card.size, c, rotation);
        first.id = QStringLiteral("c%1").arg(k + 1);
        QList<std::pair<TerrainSpec, int>> work{{first, 0}}; // a feature and how often it was moved
        while (!work.isEmpty()) {
            auto [t, moved] = work.takeFirst();
            const int wi = firstWater(t);
            if (wi < 0) {
                out << t;
                continue;
            }
            if (moved >= 2) {
                if (notes)
                    *notes << QStringLiteral(
                                  "16.6.7 %1 (%2 %3) finds no place clear of the streams and is left off")
                                  .arg(t.id, t.type, t.size);
                continue;
            }
            const Seg& seg = water[wi];
            const bool across = seg.across;
            auto perpendicular = [&](const TerrainSpec& f) { // half extent across the stream
                const Polygon p = specPolygon(r, f);
                double lo = 1e300, hi = -1e300;
                for (const Vec2& v : p) {
                    lo = std::min(lo, across ? v.y : v.x);
                    hi = std::max(hi, across ? v.y : v.x);
                }
                return (hi - lo) / 2;
            };
            const double line = across ? seg.a.y : seg.a.x;
            const double offset = (across ? t.centre.y : t.centre.x) - line;
            const double clear = seg.width / 2 + 0.25;
            auto at = [&](TerrainSpec f, double side) {
                const double v = line + side * (perpendicular(f) + clear);
                (across ? f.centre.y : f.centre.x) = v;
                return f;
            };
            const QString smaller = t.size == QLatin1String("large")    ? QStringLiteral("medium")
                                    : t.size == QLatin1String("medium") ? QStringLiteral("small")
                                                                        : QString();
            const bool split = moved == 0 && !smaller.isEmpty() &&
                               (t.size == QLatin1String("large") || std::abs(offset) < perpendicular(t) / 3);
            if (split) {
                TerrainSpec half = areaSpec(t.type, smaller, t.centre, t.rotation);
                half.id = t.id + QLatin1Char('a');
                const TerrainSpec ha = at(half, -1);
                half.id = t.id + QLatin1Char('b');
                const TerrainSpec hb = at(half, 1);
                work.prepend({hb, 1});
                work.prepend({ha, 1});
            } else {
                work.prepend({at(t, offset < 0 ? -1 : 1), moved + 1});
            }
        }
    }
    if (s.setup.cardOverhang) // 16.8 option 2: what falls off the table is discarded (a decision: the
        for (qsizetype i = out.size() - 1; i >= 0;
             --i) { // feature whose middle is off; the rest is pushed on)
            TerrainSpec& f = out[i];
            if (f.shape == QLatin1String("line"))
                continue;
            if (f.centre.y < 0 || f.centre.y > s.tableD || f.centre.x < 0 || f.centre.x > s.tableW) {
                if (notes)
                    *notes << QStringLiteral("16.8 %1 (%2 %3) falls off the table and is discarded")
                                  .arg(f.id, f.type, f.size);
                out.removeAt(i);
                continue;
            }
            double lo = 1e300, hi = -1e300;
            for (const Vec2& v : specPolygon(r, f)) {
                lo = std::min(lo, v.y);
                hi = std::max(hi, v.y);
            }
            f.centre.y += std::max(0.0, -lo) - std::max(0.0, hi - s.tableD);
        }
    return out;
}
// 10.5 scouting: 1d6 per Dragoons, 2d6 per Light Horse, hits on 5-6; the difference is the advantage, kept
// as points in scoutDelays. Benefit 1 (organise commands after the enemy) does not apply: the commands are
// fixed by the scenario. Benefit 2 (swap two medium terrain cards) only in a terrain-card game, where the
// roll is made before the cards' terrain is laid (CardScoutSwap); the other points are delays (benefits
// 3-4) in the deployment.
void rollScouting(BattleState& s) {
    s.setup.scouted = true;
    int hits[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
        int dice = 0;
        for (const Unit& u : s.units)
            if (u.side == side)
                dice += u.type == UnitType::Dragoons ? 1 : u.type == UnitType::LightHorse ? 2 : 0;
        const QList<int> roll = s.rollDice(dice);
        QStringList t;
        for (int d : roll) {
            hits[side] += d >= 5;
            t << QString::number(d);
        }
        s.note(QStringLiteral("10.5 scouting: %1 %2 (%3): %4")
                   .arg(subject(s.sideName[side], "rolls"), counted(dice, "die"), t.join(QLatin1Char(' ')),
                        counted(hits[side], "hit")));
    }
    if (hits[0] != hits[1]) {
        const int w = hits[0] > hits[1] ? 0 : 1;
        s.setup.scoutDelays[w] = std::abs(hits[0] - hits[1]);
        const bool cards = s.setup.terrainCards && !s.setup.cardSteps.isEmpty();
        s.note(QStringLiteral("10.5 %1 %2 of scouting advantage: %3delays of a command or a Cannon "
                              "in the deployment (benefits 3-4)")
                   .arg(subject(s.sideName[w], "has"), counted(s.setup.scoutDelays[w], "point"))
                   .arg(cards ? QStringLiteral("swaps of two medium terrain cards (benefit 2) or ")
                              : QString()));
    } else {
        s.note(QStringLiteral("10.5 no scouting advantage"));
    }
}

// 10.5 benefit 2: the swaps of two medium terrain cards (a stream card counts as medium).
QList<std::pair<int, int>> scoutSwaps(const BattleState& s) {
    QList<std::pair<int, int>> out;
    const QList<TerrainCard>& c = s.setup.cards;
    for (int i = 0; i < c.size(); ++i)
        for (int j = i + 1; j < c.size(); ++j)
            if (c[i].size == QLatin1String("medium") && c[j].size == QLatin1String("medium") &&
                !(c[i] == c[j])) {
                QList<TerrainCard> trial = c; // 16.7: the streams keep an allowed shape
                std::swap(trial[i], trial[j]);
                if (streamShape(s, trial) != StreamShape::NotAllowed)
                    out << std::pair{i, j};
            }
    return out;
}
int scoutSide(const BattleState& s) {
    return s.setup.scoutDelays[0] > 0 ? 0 : s.setup.scoutDelays[1] > 0 ? 1 : -1;
}

// Passes over the card steps with nothing to decide; when none is left, lays the terrain the cards show
// (16.6.6-16.6.7) and hands the roads to the defender (16.6.8).
void advanceCards(const TvbdRules& r, BattleState& s) {
    QList<int>& steps = s.setup.cardSteps;
    while (!steps.isEmpty()) {
        const int step = steps.first();
        if (step == CardSecondStream &&
            std::count_if(s.setup.cards.begin(), s.setup.cards.end(), waterCard) < 2) {
            steps.removeFirst();
            continue;
        }
        if (step == CardScoutSwap) {
            if (!s.setup.scouted)
                rollScouting(s);
            if (scoutSide(s) < 0 || scoutSwaps(s).isEmpty()) {
                steps.removeFirst();
                continue;
            }
            s.stepSide = scoutSide(s);
            return;
        }
        const int side = step == CardCentreSwapAttacker ? s.attacker : 1 - s.attacker;
        if ((step == CardCentreSwapDefender || step == CardCentreSwapAttacker) && centreSwaps(s).isEmpty()) {
            s.note(QStringLiteral("16.6.4 %1 no centre swap to make").arg(subject(s.sideName[side], "has")));
            steps.removeFirst();
            continue;
        }
        s.stepSide = side;
        return;
    }
    QStringList notes;
    s.setup.specs = cardFeatures(r, s, &notes);
    rebuild(r, s);
    for (const QString& n : notes)
        s.note(n);
    QStringList placed;
    for (const TerrainSpec& t : s.setup.specs)
        placed << QStringLiteral("%1 %2").arg(t.id, terrainSpecText(t));
    s.note(QStringLiteral("16.6.6-16.6.7 the terrain of the cards (%1): %2")
               .arg(cardsText(s.setup.cards),
                    placed.isEmpty() ? QStringLiteral("none") : placed.join(QStringLiteral("; "))));
    s.setup.stage = SetupStage::Roads;
    s.stepSide = 1 - s.attacker;
    const QString defender = s.sideName[s.stepSide];
    s.note(QStringLiteral("16.6.8 %1 (defender) %2 the roads: at least one from a table edge to the "
                          "opposite one, and one through every village and town")
               .arg(defender, verbFor(defender, "places")));
}

// The decisions of the current card step (16.6.4, 16.6.5, 16.6.6's second stream).
QList<TAction> cardActions(const BattleState& s) {
    QList<TAction> out;
    if (s.setup.cardSteps.isEmpty())
        return out;
    const int step = s.setup.cardSteps.first();
    const QList<TerrainCard>& c = s.setup.cards;
    TAction a;
    a.kind = TAction::Change;
    auto swap = [&](int i, int j) {
        a.change = TerrainChange::CardSwap;
        a.target = i;
        a.secondary = {j};
        out << a;
    };
    if (step == CardCentreSwapDefender || step == CardCentreSwapAttacker) {
        for (const auto& [i, j] : centreSwaps(s))
            swap(i, j);
    } else if (step == CardScoutSwap) {
        for (const auto& [i, j] : scoutSwaps(s))
            swap(i, j);
    } else if (step == CardDefenderAdjust) {
        for (int i = 0; i < c.size(); ++i)
            for (int j = i + 1; j < c.size(); ++j)
                if (smallOrMediumCard(c[i]) && smallOrMediumCard(c[j]) && !(c[i] == c[j]))
                    swap(i, j);
        for (int i = 0; i < c.size(); ++i)
            for (int o = 0; o < 4; ++o)
                if (!openCard(c[i]) && o != c[i].orientation) {
                    a.change = TerrainChange::CardRotate;
                    a.target = i;
                    a.secondary = {o};
                    out << a;
                }
    } else if (step == CardSecondStream && s.setup.twoStreams) {
        // 16.7: the defender replaces zero, one or both stream cards with bend cards, in any orientation, so
        // that the two form an allowed shape (listed: the replacements that leave one).
        for (int i = 0; i < c.size(); ++i)
            if (c[i].type == QLatin1String("stream"))
                for (int o = 0; o < 4; ++o) {
                    QList<TerrainCard> trial = c;
                    trial[i] = TerrainCard{QStringLiteral("bend"), QStringLiteral("medium"), o};
                    if (streamShape(s, trial) != StreamShape::NotAllowed) {
                        a.change = TerrainChange::CardBend;
                        a.target = i;
                        a.secondary = {o};
                        out << a;
                    }
                }
        if (streamShape(s, c) == StreamShape::NotAllowed)
            return out;
    } else if (step == CardSecondStream) {
        for (int i = 0; i < c.size(); ++i)
            if (c[i].type == QLatin1String("stream")) {
                a.change = TerrainChange::CardOpen;
                a.target = i;
                a.secondary.clear();
                out << a;
            }
        return out; // one of them must go (16.6.6)
    }
    out << TAction{};
    return out;
}

} // namespace

// ---- notation ------------------------------------------------------------------------------------------

QString terrainSpecText(const TerrainSpec& t) {
    auto pt = [](Vec2 p) { return QStringLiteral("%1,%2").arg(p.x).arg(p.y); };
    if (t.shape == QLatin1String("line")) {
        QStringList w{t.type};
        for (const Vec2& p : t.points)
            w << pt(p);
        return w.join(QLatin1Char(' '));
    }
    const bool ell = t.shape == QLatin1String("ellipse");
    return QStringLiteral("%1 %2 %3 %4x%5 %6")
        .arg(t.type, t.size.isEmpty() ? QStringLiteral("medium") : t.size, pt(t.centre))
        .arg(ell ? 2 * t.a : t.a)
        .arg(ell ? 2 * t.b : t.b)
        .arg(t.rotation);
}

bool parseTerrainSpec(const QStringList& w, TerrainSpec* out, QString* error) {
    auto point = [](const QString& x, Vec2* p) {
        const QStringList xy = x.split(QLatin1Char(','));
        bool a = false, b = false;
        if (xy.size() == 2)
            *p = {xy[0].toDouble(&a), xy[1].toDouble(&b)};
        return a && b;
    };
    TerrainSpec t;
    if (w.isEmpty()) {
        *error = QStringLiteral("a terrain type is needed");
        return false;
    }
    t.type = w[0];
    if (isWater(t.type) || isRoad(t)) {
        t.shape = QStringLiteral("line");
        for (qsizetype i = 1; i < w.size(); ++i) {
            Vec2 p;
            if (!point(w[i], &p)) {
                *error = QStringLiteral("'%1' is not a point X,Y").arg(w[i]);
                return false;
            }
            t.points << p;
        }
        if (t.points.size() < 2 || (!isRoad(t) && t.points.size() != 2)) {
            *error = isRoad(t) ? QStringLiteral("a road needs two or more points (X1,Y1 X2,Y2 ...)")
                               : QStringLiteral("a stream or river needs two points (X1,Y1 X2,Y2)");
            return false;
        }
        *out = t;
        return true;
    }
    if (w.size() != 5) {
        *error = QStringLiteral("TYPE SIZE X,Y LxS ROTATION is needed");
        return false;
    }
    t.size = w[1];
    t.shape = rectType(t.type) ? QStringLiteral("rect") : QStringLiteral("ellipse");
    const QStringList ls = w[3].split(QLatin1Char('x'));
    bool ok1 = false, ok2 = false, ok3 = false;
    if (ls.size() == 2) {
        t.a = ls[0].toDouble(&ok1);
        t.b = ls[1].toDouble(&ok2);
    }
    t.rotation = w[4].toDouble(&ok3);
    if (!point(w[2], &t.centre) || !ok1 || !ok2 || !ok3) {
        *error = QStringLiteral("TYPE SIZE X,Y LxS ROTATION is needed");
        return false;
    }
    if (t.shape == QLatin1String("ellipse")) {
        t.a /= 2;
        t.b /= 2;
    }
    *out = t;
    return true;
}

// ---- engine ----------------------------------------------------------------------------------------------

double TvbdEngine::centreDifficultArea(const BattleState& s) const {
    // The 0.25 TUM grid of the centre zone: a point counts when a difficult piece contains it. Column by
    // column, each convex piece covers one stretch of the column; the grid points well inside a stretch
    // count at once and only those within 1e-6 of its ends are tested point in polygon, so the figure is
    // the point-by-point count's (issue 9: the export's validator sweep runs the 10.4 procedure on every
    // export; this was 80% of it).
    const double step = 0.25, x0 = centreLeft(s), eps = 1e-6;
    struct Piece {
        double x0, x1;
        const Polygon* p;
    };
    QList<Piece> pieces;
    for (const TerrainFeature& f : s.terrain)
        if (f.cls == TerrainClass::Difficult)
            for (const Polygon& p : f.pieces) {
                if (p.size() < 3)
                    continue;
                Piece pc{p[0].x, p[0].x, &p};
                for (const Vec2& v : p) {
                    pc.x0 = std::min(pc.x0, v.x);
                    pc.x1 = std::max(pc.x1, v.x);
                }
                if (pc.x1 + eps >= x0 && pc.x0 - eps <= x0 + s.centreW)
                    pieces << pc;
            }
    if (pieces.isEmpty())
        return 0;
    int rows = 0; // the grid's y values: step / 2 + k * step below the table's depth (exact in binary)
    for (double y = step / 2; y < s.tableD; y += step)
        ++rows;
    QList<char> in(rows);
    int n = 0;
    for (double x = x0 + step / 2; x < x0 + s.centreW; x += step) {
        std::fill(in.begin(), in.end(), 0);
        for (const Piece& pc : pieces) {
            if (x < pc.x0 - eps || x > pc.x1 + eps)
                continue;
            const Polygon& p = *pc.p;
            double lo = 1e300, hi = -1e300; // the stretch of the column inside the piece
            for (qsizetype i = 0; i < p.size(); ++i) {
                const Vec2 u = p[i], v = p[(i + 1) % p.size()];
                if (x < std::min(u.x, v.x) - eps || x > std::max(u.x, v.x) + eps)
                    continue;
                if (std::abs(v.x - u.x) < 1e-12) {
                    lo = std::min({lo, u.y, v.y});
                    hi = std::max({hi, u.y, v.y});
                } else {
                    const double t = std::clamp((x - u.x) / (v.x - u.x), 0.0, 1.0);
                    const double y = u.y + t * (v.y - u.y);
                    lo = std::min(lo, y);
                    hi = std::max(hi, y);
                }
            }
            if (lo > hi)
                continue;
            const int k0 = std::max(0, int(std::ceil((lo - eps - step / 2) / step)));
            const int k1 = std::min(rows - 1, int(std::floor((hi + eps - step / 2) / step)));
            for (int k = k0; k <= k1; ++k) {
                if (in[k])
                    continue;
                const double y = step / 2 + k * step;
                in[k] = (y > lo + eps && y < hi - eps) || contains(p, {x, y});
            }
        }
        n += int(std::count(in.begin(), in.end(), char(1)));
    }
    return n * step * step;
}

QStringList TvbdEngine::terrainPlacementProblems(const BattleState& s, const TerrainSpec& add) const {
    QStringList out;
    QList<TerrainSpec> specs = s.setup.specs;
    specs << add;
    const Counts c = countSpecs(specs);
    if (isRoad(add)) {
        if (c.roads > 6)
            out << QStringLiteral("10.4 at most 6 roads (decision)");
    } else {
        const auto [lo, hi] = featureRange(s);
        Q_UNUSED(lo);
        if (c.features > hi)
            out << QStringLiteral("10.4 at most %1 features on this table").arg(hi);
        if (!areaTypes().contains(add.type) && !isWater(add.type))
            out << QStringLiteral("10.4 '%1' is not a feature the defender may place").arg(add.type);
        if (c.water > 2)
            out << QStringLiteral("10.4 at most two streams");
        if (c.rivers > 1)
            out << QStringLiteral("10.4 only one stream may be a river");
        if (c.villages > 2)
            out << QStringLiteral("10.4 at most two villages (towns included)");
        if (c.rough > 3 || c.fields > 3 || c.hills > 3 || c.woods > 3)
            out << QStringLiteral("10.4 at most three of each of rough ground, fields, hills and woods");
        if (c.large > 1)
            out << QStringLiteral("10.4 at most one large area feature");
        if (c.small > 1)
            out << QStringLiteral("10.4 at most one small area feature");
    }
    if (isArea(add)) {
        const auto d = sizeDims(add.size);
        const double l =
            add.shape == QLatin1String("ellipse") ? 2 * std::max(add.a, add.b) : std::max(add.a, add.b);
        const double sh =
            add.shape == QLatin1String("ellipse") ? 2 * std::min(add.a, add.b) : std::min(add.a, add.b);
        if (!d || std::abs(l - d->longSide) > 1e-6 || sh < d->shortMin - 1e-6 || sh > d->shortMax + 1e-6)
            out << QStringLiteral("8.3 a %1 feature is %2 TUM long and %3-%4 TUM wide")
                       .arg(add.size)
                       .arg(d ? d->longSide : 0)
                       .arg(d ? d->shortMin : 0)
                       .arg(d ? d->shortMax : 0);
        if ((add.shape == QLatin1String("rect")) != rectType(add.type))
            out << QStringLiteral("8.2 %1 is %2")
                       .arg(add.type,
                            rectType(add.type) ? QStringLiteral("a rectangle") : QStringLiteral("round"));
    } else if (isRoad(add) && s.setup.terrainCards) {
        const QString p = cardRoadProblem(r, s, normalized(r, add));
        if (!p.isEmpty())
            out << p;
    } else {
        int e0 = -1, e1 = -1;
        if (add.shape != QLatin1String("line") || add.points.size() != 2 || !onEdge(s, add.points[0], &e0) ||
            !onEdge(s, add.points[1], &e1) || e0 == e1)
            out << QStringLiteral("8.4 a linear feature runs straight from one table edge to another");
    }
    if (out.isEmpty()) {
        const QString p = layoutProblem(r, s, specs, int(specs.size()) - 1);
        if (!p.isEmpty())
            out << p;
    }
    return out;
}

static bool isArmyStage(SetupStage st) {
    return st == SetupStage::GameSize || st == SetupStage::Recruit || st == SetupStage::Aggressive ||
           st == SetupStage::Organise;
}

void TvbdEngine::beginSetup(BattleState& s, bool terrainDone) const {
    if (!terrainDone) {
        // 1.1-1.2 (10.1, 10.2) when the scenario leaves the armies to the players
        if (recruit::beginArmies(r, s))
            return;
        // 1.3 attacker: when the scenario does not name one, each side rolls 1d6, re-rolling ties.
        while (s.attacker < 0) {
            const int a = s.roll(), b = s.roll();
            s.note(QStringLiteral("1.3 attacker roll: %1 %2, %3 %4")
                       .arg(s.sideName[0])
                       .arg(a)
                       .arg(s.sideName[1])
                       .arg(b));
            if (a != b)
                s.attacker = a > b ? 0 : 1;
        }
        // 16.4 the attacker of a pick-up game may take bonus units
        if (recruit::beginAggressive(r, s))
            return;
        s.setup.fixedTerrain = int(s.terrain.size());
    }
    if (s.setup.terrainCards && !terrainDone) {
        // 16.6.3: the defender deals one card to each sector from the shuffled deck, each in a random
        // orientation, and turns them face up.
        const auto [cols, rows] = cardLayout(s);
        s.setup.cardCols = cols;
        s.setup.cardRows = rows;
        QList<TerrainCard> deck = terrainDeck();
        for (qsizetype i = deck.size() - 1; i > 0; --i)
            std::swap(deck[i], deck[s.rng.below(int(i) + 1)]);
        s.setup.cards.clear();
        for (int k = 0; k < cols * rows && k < deck.size(); ++k) {
            TerrainCard c = deck[k];
            c.orientation = s.rng.below(4);
            s.setup.cards << c;
        }
        ++s.rolls;
        s.note(QStringLiteral("16.6.3 terrain cards, %1 x %2 layout: %3")
                   .arg(cols)
                   .arg(rows)
                   .arg(cardsText(s.setup.cards)));
        s.setup.cardSteps.clear();
        for (int i = 0; i < (cols == 4 ? 2 : cols == 3 ? 1 : 0); ++i)
            s.setup.cardSteps << CardCentreSwapDefender << CardCentreSwapAttacker;
        s.setup.cardSteps << CardDefenderAdjust << CardSecondStream;
        if (s.setup.deployment)
            s.setup.cardSteps << CardScoutSwap; // 10.5 rolled before the terrain is laid (benefit 2)
        s.step = Step::Setup;
        s.setup.stage = SetupStage::TerrainCards;
        advanceCards(r, s);
        return;
    }
    if (s.setup.terrainProcedure && !terrainDone) {
        s.step = Step::Setup;
        s.setup.stage = SetupStage::PlaceTerrain;
        s.stepSide = 1 - s.attacker;
        const auto [lo, hi] = featureRange(s);
        const QString defender = s.sideName[s.stepSide];
        s.note(QStringLiteral("10.4 terrain: %1 (defender) %2 %3-%4 features, then roads")
                   .arg(defender, verbFor(defender, "places"))
                   .arg(lo)
                   .arg(hi));
        return;
    }
    if (!s.setup.deployment || (!hasUndeployed(s, 0, false) && !hasUndeployed(s, 1, false) &&
                                !hasUndeployed(s, 0, true) && !hasUndeployed(s, 1, true))) {
        s.setup.stage = SetupStage::None;
        beginBombardment(s);
        return;
    }
    // 10.5 scouting (rolled before the terrain was laid in a terrain-card game); benefit 1 first
    if (!s.setup.scouted)
        rollScouting(s);
    if (recruit::beginOrganise(s))
        return;
    s.step = Step::Setup;
    s.setup.stage = SetupStage::Deploy;
    s.setup.deploying = -1;
    s.stepSide = 1 - s.attacker;
    s.note(QStringLiteral("10.6 deployment: commands one at a time, alternating, %1 (defender) first")
               .arg(s.sideName[1 - s.attacker]));
    if (!hasUndeployed(s, s.stepSide, false))
        s.stepSide = 1 - s.stepSide;
    if (!hasUndeployed(s, s.stepSide, false))
        startCannonDeployment(s);
}

void TvbdEngine::startCannonDeployment(BattleState& s) const {
    s.setup.stage = SetupStage::DeployCannon;
    s.setup.deploying = -1;
    s.stepSide = s.attacker;
    s.note(QStringLiteral("10.6 Cannon one at a time, alternating, %1 (attacker) first")
               .arg(s.sideName[s.attacker]));
    if (!hasUndeployed(s, s.stepSide, true))
        s.stepSide = 1 - s.stepSide;
    if (!hasUndeployed(s, s.stepSide, true)) {
        s.setup.stage = SetupStage::None;
        beginBombardment(s);
    }
}

QString TvbdEngine::setupPrompt(const BattleState& s) const {
    if (isArmyStage(s.setup.stage))
        return recruit::prompt(r, s);
    const QString who = s.sideName[s.stepSide];
    const QString pass = s.setup.scoutDelays[s.stepSide] > 0 && s.setup.deploying < 0
                             ? QStringLiteral(", or pass")
                             : QString();
    switch (s.setup.stage) {
    case SetupStage::PlaceTerrain:
        return QStringLiteral("10.4 %1 (defender): place a terrain feature, or end").arg(who);
    case SetupStage::Roads:
        return s.setup.terrainCards
                   ? QStringLiteral("16.6.8 %1 (defender): place a road avoiding other terrain, or end")
                         .arg(who)
                   : QStringLiteral("10.4 %1 (defender): place a road, or end").arg(who);
    case SetupStage::TerrainChange:
        return QStringLiteral("10.4 %1 (attacker): change the terrain (one change), or end").arg(who);
    case SetupStage::TerrainCards:
        switch (s.setup.cardSteps.value(0)) {
        case CardCentreSwapDefender:
        case CardCentreSwapAttacker:
            return QStringLiteral("16.6.4 %1: swap a centre terrain card with a flank card, or end").arg(who);
        case CardDefenderAdjust:
            return QStringLiteral(
                       "16.6.5 %1 (defender): swap two small or medium terrain cards, or turn one, "
                       "or end")
                .arg(who);
        case CardScoutSwap:
            return QStringLiteral("10.5 %1: swap two medium terrain cards (scouting benefit 2), or end")
                .arg(who);
        default:
            return s.setup.twoStreams
                       ? QStringLiteral("16.7 %1 (defender): replace stream cards with bend cards until the "
                                        "streams form a T, h, L, | ( or ) ( shape, then end")
                             .arg(who)
                       : QStringLiteral(
                             "16.6.6 %1 (defender): replace one of the two stream cards with an open one")
                             .arg(who);
        }
    case SetupStage::Deploy:
        return s.setup.deploying >= 0 ? QStringLiteral("10.6 %1: deploy the rest of %2")
                                            .arg(who, s.commands[s.setup.deploying].name)
                                      : QStringLiteral("10.6 %1: deploy a command%2").arg(who, pass);
    case SetupStage::DeployCannon:
        return QStringLiteral("10.6 %1: deploy a Cannon%2").arg(who, pass);
    default:
        break;
    }
    return {};
}

namespace {

// Candidate deployment poses of a unit: a grid across its zone in rows 3 TUM apart from the front of the
// zone back, every 2.5 TUM across; for a Commander also in contact behind each deployed unit of its
// command (it starts attached).
QList<Pose> deployPoses(const TvbdRules& r, const BattleState& s, int u) {
    const Unit& x = s.units[u];
    const double facing = x.side == 0 ? 90 : 270;
    QList<Pose> out;
    const double limit = s.tableD / 2 - r.deployShort;
    if (x.type == UnitType::Commander)
        for (const Unit& y : s.units)
            if (y.command == x.command && y.onTable() && y.type != UnitType::Commander)
                out << Pose{y.pose.c - y.pose.forward() * ((y.pose.d + x.pose.d) / 2), y.pose.facing,
                            x.pose.w, x.pose.d};
    for (double depth = limit - x.pose.d / 2 - 0.5; depth >= x.pose.d / 2; depth -= 3)
        for (double cx = x.pose.w / 2 + 0.5; cx <= s.tableW - x.pose.w / 2; cx += 2.5)
            out << Pose{{cx, x.side == 0 ? depth : s.tableD - depth}, facing, x.pose.w, x.pose.d};
    return out;
}

bool isTerrainEnd(const TAction& a) {
    return a.kind == TAction::End;
}

// The placed features after the attacker's change (10.4), or a problem.
QString changedSpecs(const TvbdEngine& e, const BattleState& s, const TAction& a, QList<TerrainSpec>* out,
                     QString* what) {
    const TvbdRules& r = e.rules();
    if (a.kind != TAction::Change || a.target < 0 || a.target >= s.setup.specs.size())
        return QStringLiteral("a change to a placed feature, or end");
    QList<TerrainSpec> sp = s.setup.specs;
    const TerrainSpec f = sp[a.target];
    const int other = a.secondary.size() == 1 ? a.secondary[0] : -1;
    const bool plural = pluralName(s.sideName[s.stepSide]); // `what` follows the changing side's name
    auto verb = [&](const char* v) { return conjugate(v, plural); };
    bool mustReduce = true;
    switch (a.change) {
    case TerrainChange::Remove:
        if (!isArea(f))
            return QStringLiteral("10.4 only an area feature can be removed");
        sp.removeAt(a.target);
        *what = QStringLiteral("%1 %2 (%3)").arg(verb("removes"), f.id, f.type);
        break;
    case TerrainChange::Move:
        if (!isArea(f))
            return QStringLiteral("10.4 only an area feature can be moved");
        if (a.shift.length() > 8 + 1e-6)
            return QStringLiteral("10.4 a feature moves up to 8 TUM");
        sp[a.target].centre = f.centre + a.shift;
        *what = QStringLiteral("%1 %2 (%3) by %4,%5 TUM")
                    .arg(verb("moves"), f.id, f.type)
                    .arg(a.shift.x)
                    .arg(a.shift.y);
        break;
    case TerrainChange::Swap:
        if (other < 0 || other >= sp.size() || other == a.target || !isArea(f) || !isArea(sp[other]))
            return QStringLiteral("10.4 a swap takes two area features");
        std::swap(sp[a.target].centre, sp[other].centre);
        *what = QStringLiteral("%1 %2 (%3) and %4 (%5)")
                    .arg(verb("swaps"), f.id, f.type, sp[other].id, sp[other].type);
        break;
    case TerrainChange::Road: {
        mustReduce = false;
        if (!isRoad(f))
            return QStringLiteral("10.4 not a road");
        TerrainSpec nr = normalized(r, a.terrain);
        nr.id = f.id;
        nr.type = f.type;
        int e0 = -1, e1 = -1;
        if (nr.points.size() != 2 || !onEdge(s, nr.points[0], &e0) || !onEdge(s, nr.points[1], &e1) ||
            e0 == e1)
            return QStringLiteral("8.4 a road runs straight from one table edge to another");
        if (nr.points == f.points || (nr.points[0] == f.points[1] && nr.points[1] == f.points[0]))
            return QStringLiteral("10.4 the road is already there");
        for (const TerrainSpec& v : sp)
            if (isVillage(v.type) && crosses(r, f, v) && !crosses(r, nr, v))
                return QStringLiteral("10.4 the road must still pass through %1").arg(v.id);
        sp[a.target] = nr;
        *what = QStringLiteral("%1 %2 to %3").arg(verb("reroutes"), f.id, terrainSpecText(nr));
        break;
    }
    case TerrainChange::ToGentle:
    case TerrainChange::ToDifficult: {
        mustReduce = false;
        const bool toGentle = a.change == TerrainChange::ToGentle;
        if (f.type != (toGentle ? QLatin1String("difficultHill") : QLatin1String("gentleHill")))
            return toGentle ? QStringLiteral("10.4 not a difficult hill")
                            : QStringLiteral("10.4 not a gentle hill");
        sp[a.target].type = toGentle ? QStringLiteral("gentleHill") : QStringLiteral("difficultHill");
        *what = QStringLiteral("%1 %2 a %3")
                    .arg(verb("makes"), f.id,
                         toGentle ? QStringLiteral("gentle hill") : QStringLiteral("difficult hill"));
        break;
    }
    case TerrainChange::CardSwap:
    case TerrainChange::CardRotate:
    case TerrainChange::CardOpen:
    case TerrainChange::CardBend:
        return QStringLiteral("16.6 terrain cards are changed only while they are on the table layout");
    case TerrainChange::None:
        return QStringLiteral("unknown change");
    }
    if (mustReduce) {
        for (qsizetype i = 0; i < sp.size(); ++i) {
            const QString p = layoutProblem(r, s, sp, int(i));
            if (!p.isEmpty())
                return p;
        }
        BattleState t = s;
        t.setup.specs = sp;
        rebuild(r, t);
        const double before = e.centreDifficultArea(s), after = e.centreDifficultArea(t);
        if (after > before - 1e-9)
            return QStringLiteral(
                       "10.4 options 1-3 must leave less difficult terrain in the centre zone (%1 square "
                       "TUM before, %2 after)")
                .arg(before)
                .arg(after);
    }
    *out = sp;
    return {};
}

// Whether a unit may deploy where the action says (10.6), or the problem.
QString deployProblem(const TvbdRules& r, const BattleState& s, const TAction& a) {
    const bool cannonStage = s.setup.stage == SetupStage::DeployCannon;
    if (a.kind != TAction::Deploy || a.unit < 0 || a.unit >= s.units.size())
        return QStringLiteral("deploy a unit");
    const Unit& x = s.units[a.unit];
    if (x.side != s.stepSide || x.status != UnitStatus::Undeployed)
        return QStringLiteral("that unit cannot deploy now");
    if ((x.type == UnitType::Cannon) != cannonStage)
        return cannonStage ? QStringLiteral("10.6 the Cannon deploy now")
                           : QStringLiteral("10.6 Cannon deploy after all the commands");
    if (s.setup.deploying >= 0 && x.command != s.setup.deploying)
        return QStringLiteral("10.6 %1 is being deployed").arg(s.commands[s.setup.deploying].name);
    if (a.limbered && x.type != UnitType::Cannon)
        return QStringLiteral("only Cannon limber");
    const Pose p{a.move.to, normDeg(a.move.angle), x.pose.w, x.pose.d};
    const QString zone = deploymentZoneProblem(r, s, x, p);
    if (!zone.isEmpty())
        return zone;
    for (const TerrainFeature& f : s.terrain)
        for (const Polygon& piece : f.pieces)
            if ((f.cls == TerrainClass::Impassable ||
                 (f.cls == TerrainClass::Difficult && x.type == UnitType::Cannon)) &&
                overlaps(p, piece, 1e-3))
                return f.cls == TerrainClass::Impassable
                           ? QStringLiteral("8.2 impassable %1").arg(f.id)
                           : QStringLiteral("12.1.6 Cannon cannot be in difficult terrain (%1)").arg(f.id);
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (int(i) != a.unit && s.units[i].onTable() && overlaps(p, s.units[i].pose, 0.01))
            return QStringLiteral("it overlaps %1").arg(s.units[i].id);
    return {};
}

bool villagesServed(const TvbdRules& r, const QList<TerrainSpec>& sp) {
    for (const TerrainSpec& v : sp)
        if (isVillage(v.type)) {
            bool served = false;
            for (const TerrainSpec& road : sp)
                served = served || (isRoad(road) && crosses(r, road, v));
            if (!served)
                return false;
        }
    return true;
}

QList<Vec2> roadTargets(const BattleState& s) {
    QList<Vec2> through;
    for (const TerrainSpec& t : s.setup.specs)
        if (isVillage(t.type))
            through << t.centre;
    through << Vec2{s.tableW / 2, s.tableD / 2};
    return through;
}

// ---- 16.6.8 roads in a terrain-card game ----------------------------------------------------------------
// A road is a line of 2 to 8 points. It must avoid other terrain: it may pass through or end in a village or
// town, cross water (at a bridge) and meet other roads, nothing else. The first road runs from a table edge
// to the opposite one; a later road starts at a table edge or on a road, and ends at a table edge, on a road
// or in a village or town.

struct Obstacle {
    QString id;
    Polygon piece;
};
QList<Obstacle> roadObstacles(const BattleState& s) {
    QList<Obstacle> out;
    for (const TerrainFeature& f : s.terrain) {
        if (isVillage(f.type) || isWater(f.type) || f.type == QLatin1String("road") ||
            f.type == QLatin1String("bridge") || f.type == QLatin1String("ford"))
            continue;
        for (const Polygon& p : f.pieces)
            out << Obstacle{f.id, p};
    }
    return out;
}
bool onRoad(const BattleState& s, Vec2 p) {
    for (const TerrainSpec& road : s.setup.specs)
        if (isRoad(road))
            for (qsizetype i = 1; i < road.points.size(); ++i)
                if (segmentDistance(p, road.points[i - 1], road.points[i]) < 0.05)
                    return true;
    return false;
}
bool inVillage(const TvbdRules& r, const BattleState& s, Vec2 p) {
    for (const TerrainSpec& v : s.setup.specs)
        if (isVillage(v.type) && contains(specPolygon(r, v), p))
            return true;
    return false;
}

QString cardRoadProblem(const TvbdRules& r, const BattleState& s, const TerrainSpec& road) {
    const QList<Vec2>& pts = road.points;
    if (pts.size() < 2 || pts.size() > 8)
        return QStringLiteral("16.6.8 a road is a line of 2 to 8 points");
    for (const Vec2& p : pts)
        if (p.x < -1e-6 || p.y < -1e-6 || p.x > s.tableW + 1e-6 || p.y > s.tableD + 1e-6)
            return QStringLiteral("16.6.8 the road must stay on the table");
    const QList<Obstacle> obstacles = roadObstacles(s);
    for (qsizetype i = 1; i < pts.size(); ++i) {
        if ((pts[i] - pts[i - 1]).length() < 1e-6)
            return QStringLiteral("16.6.8 a road has no zero-length leg");
        const Polygon leg = thickSegment(pts[i - 1], pts[i], road.width);
        for (const Obstacle& o : obstacles)
            if (overlaps(leg, o.piece, 0.01))
                return QStringLiteral("16.6.8 roads must avoid other terrain (%1)").arg(o.id);
    }
    int e0 = -1, e1 = -1;
    const bool edge0 = onEdge(s, pts.first(), &e0), edge1 = onEdge(s, pts.last(), &e1);
    if (countSpecs(s.setup.specs).roads == 0) {
        if (!edge0 || !edge1 || e0 == e1 || (e0 < 2) != (e1 < 2))
            return QStringLiteral("16.6.8 the first road runs from a table edge to the opposite one");
        return {};
    }
    const bool road0 = onRoad(s, pts.first()), road1 = onRoad(s, pts.last());
    const bool end0 = edge0 || road0 || inVillage(r, s, pts.first()),
               end1 = edge1 || road1 || inVillage(r, s, pts.last());
    if (!end0 || !end1 || !(edge0 || road0 || edge1 || road1))
        return QStringLiteral(
            "16.6.8 a road starts at a table edge or on a road and ends at a table edge, on a "
            "road or in a village or town");
    return {};
}

// Routes clear of the obstacles for the listed roads: shortest paths on a 0.5 TUM grid (8 neighbours)
// between two sets of grid points, straightened (each point joined to the farthest next one in a clear
// line).
class RoadPlanner {
  public:
    RoadPlanner(const BattleState& s, double width) : m_s(s), m_width(width) {
        for (const Obstacle& o : roadObstacles(s))
            m_obstacles << o.piece;
        m_nx = int(std::lround(s.tableW / kStep)) + 1;
        m_ny = int(std::lround(s.tableD / kStep)) + 1;
        m_free.resize(m_nx * m_ny);
        for (int j = 0; j < m_ny; ++j)
            for (int i = 0; i < m_nx; ++i) {
                bool ok = true;
                for (const Polygon& p : m_obstacles)
                    ok = ok && distance(p, point(i, j)) > width / 2 + 0.05;
                m_free[j * m_nx + i] = ok;
            }
    }
    Vec2 point(int i, int j) const { return {i * kStep, j * kStep}; }
    int cell(Vec2 p) const {
        const int i = std::clamp(int(std::lround(p.x / kStep)), 0, m_nx - 1),
                  j = std::clamp(int(std::lround(p.y / kStep)), 0, m_ny - 1);
        return j * m_nx + i;
    }
    QList<int> edgeCells(int edge) const { // 0 y = 0, 1 y = depth, 2 x = 0, 3 x = width
        QList<int> out;
        if (edge < 2)
            for (int i = 0; i < m_nx; ++i)
                out << (edge == 0 ? 0 : m_ny - 1) * m_nx + i;
        else
            for (int j = 0; j < m_ny; ++j)
                out << j * m_nx + (edge == 2 ? 0 : m_nx - 1);
        return out;
    }
    QList<int> roadCells() const {
        QList<int> out;
        for (int k = 0; k < m_nx * m_ny; ++k)
            if (onRoad(m_s, point(k % m_nx, k / m_nx)))
                out << k;
        return out;
    }
    // The shortest free path from any cell of `from` to any of `to`, as points (empty when none).
    QList<Vec2> path(const QList<int>& from, const QList<int>& to) const {
        QList<double> dist(m_nx * m_ny, 1e300);
        QList<int> prev(m_nx * m_ny, -1);
        QList<char> goal(m_nx * m_ny, 0);
        for (int k : to)
            goal[k] = 1;
        using Item = std::pair<double, int>;
        std::priority_queue<Item, std::vector<Item>, std::greater<Item>> q;
        for (int k : from)
            if (m_free[k]) {
                dist[k] = 0;
                q.push({0, k});
            }
        int found = -1;
        while (!q.empty()) {
            const auto [d, k] = q.top();
            q.pop();
            if (d > dist[k])
                continue;
            if (goal[k]) {
                found = k;
                break;
            }
            const int i = k % m_nx, j = k / m_nx;
            for (int di = -1; di <= 1; ++di)
                for (int dj = -1; dj <= 1; ++dj) {
                    const int ni = i + di, nj = j + dj;
                    if ((di == 0 && dj == 0) || ni < 0 || nj < 0 || ni >= m_nx || nj >= m_ny)
                        continue;
                    const int n = nj * m_nx + ni;
                    const double nd = d + kStep * (di && dj ? std::sqrt(2.0) : 1.0);
                    if (m_free[n] && nd < dist[n] - 1e-12) {
                        dist[n] = nd;
                        prev[n] = k;
                        q.push({nd, n});
                    }
                }
        }
        QList<Vec2> out;
        for (int k = found; k >= 0; k = prev[k])
            out.prepend(point(k % m_nx, k / m_nx));
        return out;
    }
    bool clear(Vec2 a, Vec2 b) const {
        const Polygon leg = thickSegment(a, b, m_width);
        for (const Polygon& p : m_obstacles)
            if (overlaps(leg, p, 0.01))
                return false;
        return true;
    }
    QList<Vec2> straighten(const QList<Vec2>& p) const {
        if (p.size() < 2)
            return p;
        QList<Vec2> out{p.first()};
        qsizetype i = 0;
        while (i < p.size() - 1) {
            qsizetype j = i + 1;
            while (j + 1 < p.size() && clear(p[i], p[j + 1]))
                ++j;
            out << p[j];
            i = j;
        }
        return out;
    }

  private:
    static constexpr double kStep = 0.5;
    const BattleState& m_s;
    double m_width;
    QList<Polygon> m_obstacles;
    int m_nx = 0, m_ny = 0;
    QList<char> m_free;
};

// The roads listed in a terrain-card game: from edge to opposite edge (straight when clear, else the
// shortest route), through the middle of the table and through each village or town; once a road is down,
// also a spur from each village or town to the nearest table edge or road. Only roads cardRoadProblem
// allows.
QList<TerrainSpec> cardRoadCandidates(const TvbdRules& r, const BattleState& s) {
    const TerrainSpec proto = lineSpec(r, QStringLiteral("road"), {0, 0}, {1, 0});
    const RoadPlanner plan(s, proto.width);
    QList<QList<Vec2>> routes;
    for (const auto& [a, b] : edgeLines(s, roadTargets(s)))
        routes << QList<Vec2>{a, b};
    QList<Vec2> via{Vec2{s.tableW / 2, s.tableD / 2}};
    for (const TerrainSpec& v : s.setup.specs)
        if (isVillage(v.type))
            via << v.centre;
    for (int axis = 0; axis < 2; ++axis) {
        const QList<int> from = plan.edgeCells(axis == 0 ? 2 : 0), to = plan.edgeCells(axis == 0 ? 3 : 1);
        // from the middle third of the edge (a road along the table's rim is no road)
        const QList<int> middle = from.mid(from.size() / 3, from.size() - 2 * (from.size() / 3));
        routes << plan.straighten(plan.path(middle, to));
        for (const Vec2& v : via) {
            const QList<Vec2> p1 = plan.path(from, {plan.cell(v)}), p2 = plan.path({plan.cell(v)}, to);
            if (!p1.isEmpty() && !p2.isEmpty())
                routes << plan.straighten(p1 + p2.mid(1));
        }
    }
    if (countSpecs(s.setup.specs).roads > 0) {
        QList<int> ends = plan.roadCells();
        for (int e = 0; e < 4; ++e)
            ends << plan.edgeCells(e);
        for (const TerrainSpec& v : s.setup.specs)
            if (isVillage(v.type))
                routes << plan.straighten(plan.path({plan.cell(v.centre)}, ends));
    }
    QList<TerrainSpec> out;
    for (const QList<Vec2>& pts : routes) {
        if (pts.size() < 2 || pts.size() > 8)
            continue;
        TerrainSpec road = proto;
        road.points = pts;
        bool dup = false;
        for (const TerrainSpec& t : s.setup.specs)
            dup = dup || (isRoad(t) && t.points == pts);
        for (const TerrainSpec& t : out)
            dup = dup || t.points == pts;
        if (!dup && cardRoadProblem(r, s, road).isEmpty())
            out << road;
    }
    return out;
}

// Why the defender may not end the roads yet, or empty: every village and town needs a road through it or
// ending in it (8.2; in 10.4 the defender may stop at 6 roads); with terrain cards at least one road (16.6.8)
// — as far as a road that avoids the other terrain can be found.
QString roadsProblem(const TvbdRules& r, const BattleState& s) {
    const int roads = countSpecs(s.setup.specs).roads;
    if (!s.setup.terrainCards)
        return villagesServed(r, s.setup.specs) || roads >= 6
                   ? QString()
                   : QStringLiteral("8.2 every village and town needs a road through it");
    const QList<TerrainSpec> cands = roads < 6 ? cardRoadCandidates(r, s) : QList<TerrainSpec>();
    if (roads == 0 && !cands.isEmpty())
        return QStringLiteral("16.6.8 every table has at least one road");
    for (const TerrainSpec& v : s.setup.specs) {
        if (!isVillage(v.type))
            continue;
        bool served = false, servable = false;
        for (const TerrainSpec& road : s.setup.specs)
            served = served || (isRoad(road) && crosses(r, road, v));
        for (const TerrainSpec& road : cands)
            servable = servable || crosses(r, road, v);
        if (!served && servable)
            return QStringLiteral("16.6.8 %1 needs a road through it or ending in it").arg(v.id);
    }
    return {};
}

} // namespace

QList<TAction> TvbdEngine::setupActions(const BattleState& s) const {
    QList<TAction> out;
    const SetupStage st = s.setup.stage;
    if (isArmyStage(st))
        return recruit::actions(r, s);
    if (st == SetupStage::TerrainCards)
        return cardActions(s);
    if (st == SetupStage::PlaceTerrain || st == SetupStage::Roads) {
        QList<TerrainSpec> cands;
        if (st == SetupStage::PlaceTerrain) {
            for (const QString& type : areaTypes())
                for (const QString& size :
                     {QStringLiteral("small"), QStringLiteral("medium"), QStringLiteral("large")})
                    for (double fx : {1.0 / 6, 0.5, 5.0 / 6})
                        for (double fy : {1.0 / 6, 0.5, 5.0 / 6})
                            for (double rot : {0.0, 90.0})
                                cands << areaSpec(type, size, {s.tableW * fx, s.tableD * fy}, rot);
            for (const auto& [a, b] : edgeLines(s, {}))
                for (const QString& type : {QStringLiteral("stream"), QStringLiteral("river")})
                    cands << lineSpec(r, type, a, b);
        } else if (s.setup.terrainCards) {
            cands = cardRoadCandidates(r, s); // 16.6.8
        } else {
            for (const auto& [a, b] : edgeLines(s, roadTargets(s))) {
                const TerrainSpec road = lineSpec(r, QStringLiteral("road"), a, b);
                bool dup = false;
                for (const TerrainSpec& t : s.setup.specs)
                    dup = dup || (isRoad(t) && t.points == road.points);
                if (!dup)
                    cands << road;
            }
        }
        for (TerrainSpec& t : cands) {
            t.id = QStringLiteral("p%1").arg(s.setup.nextId);
            if (terrainPlacementProblems(s, t).isEmpty()) {
                TAction a;
                a.kind = TAction::Place;
                a.terrain = t;
                out << a;
            }
        }
        const bool canEnd = st == SetupStage::PlaceTerrain
                                ? countSpecs(s.setup.specs).features >= featureRange(s).first
                                : roadsProblem(r, s).isEmpty();
        if (canEnd || out.isEmpty())
            out << TAction{};
        return out;
    }
    if (st == SetupStage::TerrainChange) {
        const QList<TerrainSpec>& sp = s.setup.specs;
        QList<TAction> cands;
        for (qsizetype i = 0; i < sp.size(); ++i) {
            TAction a;
            a.kind = TAction::Change;
            a.target = int(i);
            if (isArea(sp[i])) {
                a.change = TerrainChange::Remove;
                cands << a;
                a.change = TerrainChange::Move;
                for (int deg = 0; deg < 360; deg += 45)
                    for (double d : {4.0, 8.0}) {
                        const Vec2 v = dirDeg(deg) * d;
                        a.shift = {std::round(v.x * 100) / 100, std::round(v.y * 100) / 100};
                        cands << a;
                    }
                a.shift = {};
                a.change = TerrainChange::Swap;
                for (qsizetype j = i + 1; j < sp.size(); ++j)
                    if (isArea(sp[j])) {
                        a.secondary = {int(j)};
                        cands << a;
                    }
                a.secondary.clear();
            }
            if (isHill(sp[i].type)) {
                a.change = sp[i].type == QLatin1String("difficultHill") ? TerrainChange::ToGentle
                                                                        : TerrainChange::ToDifficult;
                cands << a;
            }
            if (isRoad(sp[i])) {
                a.change = TerrainChange::Road;
                for (const auto& [p, q] : edgeLines(s, roadTargets(s))) {
                    a.terrain = lineSpec(r, QStringLiteral("road"), p, q);
                    a.terrain.id = sp[i].id;
                    cands << a;
                }
                a.terrain = {};
            }
        }
        for (const TAction& a : cands) {
            QList<TerrainSpec> after;
            QString what;
            if (changedSpecs(*this, s, a, &after, &what).isEmpty())
                out << a;
        }
        out << TAction{};
        return out;
    }
    // 10.6 deployment
    const bool cannon = st == SetupStage::DeployCannon;
    QList<int> units;
    if (s.setup.deploying >= 0) {
        units << firstUndeployed(s, s.setup.deploying, false);
    } else {
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& u = s.units[i];
            if (u.side != s.stepSide || u.status != UnitStatus::Undeployed ||
                (u.type == UnitType::Cannon) != cannon)
                continue;
            // a command is chosen by deploying its first unit; the rest of it follows
            if (!cannon && firstUndeployed(s, u.command, false) != int(i))
                continue;
            units << int(i);
        }
    }
    for (int u : units)
        for (const Pose& p : deployPoses(r, s, u)) {
            TAction a;
            a.kind = TAction::Deploy;
            a.unit = u;
            a.move.kind = MoveKind::To;
            a.move.to = p.c;
            a.move.angle = p.facing;
            if (deployProblem(r, s, a).isEmpty())
                out << a;
        }
    if (s.setup.deploying < 0 && s.setup.scoutDelays[s.stepSide] > 0 &&
        hasUndeployed(s, 1 - s.stepSide, cannon)) {
        TAction p;
        p.kind = TAction::Pass;
        out << p;
    }
    return out;
}

bool TvbdEngine::applySetup(BattleState& s, const TAction& a, QString* why) const {
    auto fail = [&](const QString& w) {
        if (why)
            *why = w;
        return false;
    };
    const SetupStage st = s.setup.stage;
    const QString who = s.sideName[s.stepSide];
    if (isArmyStage(st)) {
        bool done = false;
        if (!recruit::apply(r, s, a, why, &done))
            return false;
        if (done)
            beginSetup(s, st == SetupStage::Organise);
        return true;
    }
    if (st == SetupStage::TerrainCards) {
        if (!cardActions(s).contains(a))
            return fail(QStringLiteral("16.6 not a choice now (%1)").arg(setupPrompt(s)));
        QList<TerrainCard>& c = s.setup.cards;
        const int step = s.setup.cardSteps.first();
        const QString rule = step == CardDefenderAdjust ? QStringLiteral("16.6.5")
                             : step == CardSecondStream
                                 ? (s.setup.twoStreams ? QStringLiteral("16.7") : QStringLiteral("16.6.6"))
                             : step == CardScoutSwap ? QStringLiteral("10.5 benefit 2:")
                                                     : QStringLiteral("16.6.4");
        if (isTerrainEnd(a) && step == CardSecondStream) {
            s.note(QStringLiteral("16.7 %1 the streams: shape %2")
                       .arg(subject(who, "keeps"), shapeName(streamShape(s, c))));
        } else if (isTerrainEnd(a)) {
            s.note(QStringLiteral("%1 %2").arg(rule, subject(who, "passes")));
        } else if (a.change == TerrainChange::CardBend) {
            c[a.target] = TerrainCard{QStringLiteral("bend"), QStringLiteral("medium"), a.secondary[0]};
            s.note(QStringLiteral("16.7 %1 the stream card %2 with a bend card (orientation %3): shape %4")
                       .arg(subject(who, "replaces"))
                       .arg(a.target + 1)
                       .arg(a.secondary[0])
                       .arg(shapeName(streamShape(s, c))));
        } else if (a.change == TerrainChange::CardSwap) {
            const int i = a.target, j = a.secondary[0];
            s.note(QStringLiteral("%1 %2 card %3 (%4) and card %5 (%6)")
                       .arg(rule, subject(who, "swaps"))
                       .arg(i + 1)
                       .arg(cardText(c[i]))
                       .arg(j + 1)
                       .arg(cardText(c[j])));
            std::swap(c[i], c[j]);
        } else if (a.change == TerrainChange::CardRotate) {
            s.note(QStringLiteral("%1 %2 card %3 (%4) to orientation %5")
                       .arg(rule, subject(who, "turns"))
                       .arg(a.target + 1)
                       .arg(cardText(c[a.target]))
                       .arg(a.secondary[0]));
            c[a.target].orientation = a.secondary[0];
        } else {
            s.note(QStringLiteral("%1 %2 the stream card %3 with an open card")
                       .arg(rule, subject(who, "replaces"))
                       .arg(a.target + 1));
            c[a.target] = TerrainCard{};
        }
        if (step == CardScoutSwap && !isTerrainEnd(a))
            --s.setup
                  .scoutDelays[s.stepSide]; // a point of advantage spent; the step goes on while any is left
        else if (!(step == CardSecondStream && a.change == TerrainChange::CardBend && !isTerrainEnd(a)))
            s.setup.cardSteps.removeFirst(); // 16.7: after a bend the defender may bend the other card too
        advanceCards(r, s);
        return true;
    }
    if (st == SetupStage::PlaceTerrain || st == SetupStage::Roads) {
        if (isTerrainEnd(a)) {
            if (st == SetupStage::PlaceTerrain) {
                const int n = countSpecs(s.setup.specs).features;
                if (n < featureRange(s).first)
                    return fail(
                        QStringLiteral("10.4 at least %1 features on this table").arg(featureRange(s).first));
                s.note(
                    QStringLiteral("10.4 %1 placed %2 features; roads next").arg(subject(who, "has")).arg(n));
                s.setup.stage = SetupStage::Roads;
                return true;
            }
            const QString p = roadsProblem(r, s);
            if (!p.isEmpty())
                return fail(p);
            if (s.setup.terrainCards) {
                s.note(QStringLiteral("16.6.8 %1 placed the roads").arg(subject(who, "has")));
                beginSetup(s, true);
                return true;
            }
            s.setup.stage = SetupStage::TerrainChange;
            s.stepSide = s.attacker;
            s.note(QStringLiteral("10.4 %1 (attacker) may make one change to the terrain")
                       .arg(s.sideName[s.attacker]));
            return true;
        }
        if (a.kind != TAction::Place)
            return fail(QStringLiteral("place terrain or end"));
        TerrainSpec t = normalized(r, a.terrain);
        if (isRoad(t) != (st == SetupStage::Roads))
            return fail(st == SetupStage::Roads
                            ? QStringLiteral("10.4 roads are placed now")
                            : QStringLiteral("10.4 roads are placed after the other features"));
        t.id = QStringLiteral("p%1").arg(s.setup.nextId);
        const QStringList problems = terrainPlacementProblems(s, t);
        if (!problems.isEmpty())
            return fail(problems.join(QStringLiteral("; ")));
        s.setup.specs << t;
        ++s.setup.nextId;
        rebuild(r, s);
        s.note(QStringLiteral("10.4 %1 %2: %3").arg(subject(who, "places"), t.id, terrainSpecText(t)));
        return true;
    }
    if (st == SetupStage::TerrainChange) {
        if (isTerrainEnd(a)) {
            s.note(QStringLiteral("10.4 %1 (attacker) %2 no change").arg(who, verbFor(who, "makes")));
        } else {
            QList<TerrainSpec> after;
            QString what;
            const QString p = changedSpecs(*this, s, a, &after, &what);
            if (!p.isEmpty())
                return fail(p);
            s.setup.specs = after;
            rebuild(r, s);
            s.note(QStringLiteral("10.4 %1 (attacker) %2").arg(who, what));
        }
        beginSetup(s, true);
        return true;
    }
    // 10.6 deployment
    const bool cannonStage = st == SetupStage::DeployCannon;
    if (a.kind == TAction::Pass) {
        if (s.setup.deploying >= 0 || s.setup.scoutDelays[s.stepSide] <= 0 ||
            !hasUndeployed(s, 1 - s.stepSide, cannonStage))
            return fail(QStringLiteral("10.5 no delay to use now"));
        --s.setup.scoutDelays[s.stepSide];
        s.note(QStringLiteral("10.5 %1 deploying a %2 (scouting benefit %3)")
                   .arg(subject(who, "delays"),
                        cannonStage ? QStringLiteral("Cannon") : QStringLiteral("command"))
                   .arg(cannonStage ? 4 : 3));
        s.stepSide = 1 - s.stepSide;
        return true;
    }
    const QString problem = deployProblem(r, s, a);
    if (!problem.isEmpty())
        return fail(problem);
    Unit& x = s.units[a.unit];
    x.pose = Pose{a.move.to, normDeg(a.move.angle), x.pose.w, x.pose.d};
    x.status = UnitStatus::OnTable;
    x.limbered = a.limbered;
    x.attachedTo = -1;
    if (x.type == UnitType::Commander)
        for (qsizetype j = 0; j < s.units.size(); ++j)
            if (s.units[j].command == x.command && int(j) != a.unit && s.units[j].onTable() &&
                wp::tactical::distance(x.pose, s.units[j].pose) <= kContactEps) {
                x.attachedTo = int(j);
                break;
            }
    s.note(QStringLiteral("10.6 %1 %2 at %3,%4 facing %5%6")
               .arg(subject(who, "deploys"), x.id)
               .arg(x.pose.c.x)
               .arg(x.pose.c.y)
               .arg(x.pose.facing)
               .arg(x.attachedTo >= 0 ? QStringLiteral(", attached to %1").arg(s.units[x.attachedTo].id)
                    : x.limbered      ? QStringLiteral(", limbered")
                                      : QString()));
    if (!cannonStage) {
        s.setup.deploying = firstUndeployed(s, x.command, false) >= 0 ? x.command : -1;
        if (s.setup.deploying >= 0)
            return true; // the rest of the command follows
        if (hasUndeployed(s, 1 - s.stepSide, false))
            s.stepSide = 1 - s.stepSide;
        if (!hasUndeployed(s, s.stepSide, false))
            startCannonDeployment(s);
        return true;
    }
    if (hasUndeployed(s, 1 - s.stepSide, true))
        s.stepSide = 1 - s.stepSide;
    if (!hasUndeployed(s, s.stepSide, true)) {
        s.setup.stage = SetupStage::None;
        beginBombardment(s);
    }
    return true;
}

// ---- the simple policy's set-up answers
// ---------------------------------------------------------------------

TAction chooseSetupAction(const TvbdEngine& engine, const BattleState& s, wp::rules::Rng& rng) {
    const QList<TAction> legal = engine.legalActions(s);
    if (legal.size() == 1)
        return legal.first();
    const TvbdRules& r = engine.rules();
    if (isArmyStage(s.setup.stage))
        return recruit::choose(r, s, legal);
    switch (s.setup.stage) {
    case SetupStage::PlaceTerrain: {
        // The defender places a random number of area features and streams (no river: the policy keeps the
        // battle fightable) at random among the listed places.
        const auto [lo, hi] = featureRange(s);
        const int n = countSpecs(s.setup.specs).features;
        QList<TAction> places;
        for (const TAction& a : legal)
            if (a.kind == TAction::Place && a.terrain.type != QLatin1String("river") &&
                (a.terrain.type != QLatin1String("stream") || rng.below(4) == 0))
                places << a;
        if (places.isEmpty() || (n >= lo && (n >= hi || rng.below(3) == 0)))
            return legal.last();
        return places[rng.below(int(places.size()))];
    }
    case SetupStage::Roads:
        // A road through each village or town still without one, then one across the middle.
        for (const TAction& a : legal)
            if (a.kind == TAction::Place)
                for (const TerrainSpec& v : s.setup.specs)
                    if (isVillage(v.type) && crosses(r, a.terrain, v)) {
                        bool served = false;
                        for (const TerrainSpec& road : s.setup.specs)
                            served = served || (isRoad(road) && crosses(r, road, v));
                        if (!served)
                            return a;
                    }
        return countSpecs(s.setup.specs).roads == 0 && legal.first().kind == TAction::Place ? legal.first()
                                                                                            : legal.last();
    case SetupStage::TerrainChange: {
        // The attacker takes the change that leaves the least difficult terrain in the centre zone.
        double best = engine.centreDifficultArea(s) - 1e-9;
        TAction choice = legal.last();
        for (const TAction& a : legal) {
            if (a.kind != TAction::Change || a.change == TerrainChange::Road ||
                a.change == TerrainChange::ToDifficult)
                continue;
            QList<TerrainSpec> after;
            QString what;
            if (!changedSpecs(engine, s, a, &after, &what).isEmpty())
                continue;
            BattleState t = s;
            t.setup.specs = after;
            rebuild(r, t);
            const double area = engine.centreDifficultArea(t);
            if (area < best) {
                best = area;
                choice = a;
            }
        }
        return choice;
    }
    case SetupStage::Deploy:
    case SetupStage::DeployCannon: {
        for (const TAction& a : legal)
            if (a.kind == TAction::Pass)
                return a; // deploying later is the benefit
        // Front row first; Pike+Shot and Shot commands towards the centre, cavalry commands towards the
        // flanks (alternating sides); units of a command next to each other; Commanders attached.
        double bestScore = -1e300;
        TAction best = legal.first();
        for (const TAction& a : legal) {
            const Unit& x = s.units[a.unit];
            const double depth = x.side == 0 ? a.move.to.y : s.tableD - a.move.to.y;
            double score = depth * (x.type == UnitType::Commander ? 0.1 : 1.0);
            double nearest = 1e9;
            for (const Unit& y : s.units)
                if (y.command == x.command && y.onTable() && y.type != UnitType::Commander)
                    nearest = std::min(nearest, (y.pose.c - a.move.to).length());
            if (x.type == UnitType::Commander) {
                score += nearest < 1.01 ? 100 : -nearest;
            } else if (x.type == UnitType::Cannon) {
                score -= std::abs(a.move.to.x - s.tableW / 2) * 0.3;
            } else if (nearest < 1e8) {
                score -= 2 * nearest;
            } else {
                bool foot = false;
                for (const Unit& y : s.units)
                    foot = foot || (y.command == x.command &&
                                    (y.type == UnitType::PikeShot || y.type == UnitType::Shot));
                const double off = std::abs(a.move.to.x - s.tableW / 2);
                int left = 0, right = 0; // mounted commands go to the flank with fewer of the side's units
                for (const Unit& y : s.units)
                    if (y.side == x.side && y.onTable() && y.type != UnitType::Commander)
                        ++(y.pose.c.x < s.tableW / 2 ? left : right);
                const bool leftFlank = left <= right;
                score += foot ? -off : off * 0.5 + ((a.move.to.x < s.tableW / 2) == leftFlank ? 5 : 0);
            }
            if (score > bestScore) {
                bestScore = score;
                best = a;
            }
        }
        return best;
    }
    case SetupStage::TerrainCards:
        // The attacker takes a centre swap when it has one (the rulebook's example: a large feature out of
        // the centre), the defender keeps the cards; of two streams the later card goes.
        if (s.setup.cardSteps.value(0) == CardCentreSwapAttacker ||
            s.setup.cardSteps.value(0) == CardSecondStream)
            return s.setup.cardSteps.value(0) == CardSecondStream ? legal.last() : legal.first();
        return legal.last();
    default:
        break;
    }
    return legal[rng.below(int(legal.size()))];
}

// ---- runTerrainProcedure
// ------------------------------------------------------------------------------------

TerrainProcedureResult runTerrainProcedure(const TvbdRules& rules, const BattleState& scenario, quint64 seed,
                                           TerrainMethod method, const SetupChooser& choose) {
    TerrainProcedureResult res;
    TvbdEngine engine(rules);
    BattleState s = scenario;
    s.setup = SetupState{};
    s.setup.terrainProcedure = method == TerrainMethod::Basic;
    s.setup.terrainCards = method == TerrainMethod::Cards;
    s.setup.deployment = false;
    s.rng.reseed(seed);
    s.log.clear();
    engine.start(s); // 1.3 when the scenario names no attacker, then the first 10.4 decision
    wp::rules::Rng policy(seed ^ 0x5eed7e77a1ULL);
    for (int guard = 0; guard < 500 && s.step == Step::Setup; ++guard) {
        const TAction a = choose ? choose(engine, s, policy) : chooseSetupAction(engine, s, policy);
        res.actions << actionText(s, a);
        QString err;
        if (!engine.apply(s, a, &err)) {
            res.error = err;
            return res;
        }
    }
    res.ok = true;
    res.attacker = s.attacker;
    res.terrain = materialize(s.setup.specs, s.setup.terrainCards);
    for (const TerrainSpec& t : res.terrain)
        res.json << terrainSpecJson(t);
    for (const QString& line : s.log)
        if (line.startsWith(QLatin1String("1.3")) || line.startsWith(QLatin1String("10.4")) ||
            line.startsWith(QLatin1String("16.6")))
            res.log << line;
    return res;
}

bool placeTerrainByProcedure(const TvbdRules& rules, QJsonObject* root, quint64 seed, QString* error,
                             QStringList* log, TerrainMethod method) {
    BattleState s;
    QJsonObject copy = *root;
    copy.remove(QStringLiteral("setup"));
    if (!scenarioFromJson(copy, QStringLiteral("scenario"), rules, &s, error))
        return false;
    const TerrainProcedureResult res = runTerrainProcedure(rules, s, seed, method);
    if (!res.ok) {
        if (error)
            *error = res.error;
        return false;
    }
    QJsonArray terrain = root->value(QStringLiteral("terrain")).toArray();
    for (const QJsonValue& v : res.json)
        terrain << v;
    root->insert(QStringLiteral("terrain"), terrain);
    if (root->value(QStringLiteral("attacker")).isNull() || !root->contains(QStringLiteral("attacker")))
        root->insert(QStringLiteral("attacker"), res.attacker);
    if (log)
        *log = res.log;
    return true;
}

QList<Polygon> setupActionArea(const TvbdEngine& e, const BattleState& s, const TAction& a, QString* group) {
    const TvbdRules& r = e.rules();
    QList<Polygon> out;
    QString g;
    if (a.kind == TAction::Place) { // 10.4, 16.6.8: the feature or road where it would lie
        const TerrainSpec t = normalized(r, a.terrain);
        out = terrainFeature(r, t).pieces;
        g = QStringLiteral("place %1%2")
                .arg(t.type, t.size.isEmpty() ? QString() : QLatin1Char(' ') + t.size);
    } else if (a.kind == TAction::Change && a.change >= TerrainChange::CardSwap) { // 16.6, 16.7: the sectors
        QList<int> sectors{a.target};
        if (a.change == TerrainChange::CardSwap)
            sectors << a.secondary.value(0, -1);
        for (int k : sectors)
            if (k >= 0 && k < s.setup.cards.size())
                out << rectangle(sectorCentre(s, k), kSector, kSector, 0);
        static const char* kinds[] = {"swap", "rotate", "open", "bend"}; // CardSwap .. CardBend
        g = QStringLiteral("card %1").arg(QLatin1String(kinds[int(a.change) - int(TerrainChange::CardSwap)]));
    } else if (a.kind == TAction::Change) { // 10.4 the attacker's change: what it alters, where it ends
        QList<TerrainSpec> after;
        QString what;
        if (!changedSpecs(e, s, a, &after, &what).isEmpty() || a.target < 0 ||
            a.target >= s.setup.specs.size())
            return {};
        for (const TerrainSpec& t : after) {
            const auto before = std::find_if(s.setup.specs.begin(), s.setup.specs.end(),
                                             [&](const TerrainSpec& x) { return x.id == t.id; });
            if (before == s.setup.specs.end() || !(*before == t))
                out << terrainFeature(r, t).pieces;
        }
        if (out.isEmpty()) // removed: where it was
            out = terrainFeature(r, s.setup.specs[a.target]).pieces;
        const QString text = actionText(s, a);
        g = text.section(QLatin1Char(' '), 0, 2);
    }
    if (group)
        *group = out.isEmpty() ? QString() : g;
    return out;
}

} // namespace wp::tactical
