// TVBD set-up phase (10.1-10.6) as decisions, when the scenario leaves it to the players: 10.4 terrain
// placement by the basic method (the defender places features and roads, the attacker makes one change),
// 10.5 scouting (automatic) and 10.6 alternate deployment. The simple policy's set-up answers and
// runTerrainProcedure (the export's entry point) are here too.
#include "tactical_game.h"
#include "tvbd.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace wp::tactical {

namespace {

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

bool crosses(const TvbdRules& r, const TerrainSpec& road, const TerrainSpec& area) {
    const Polygon p = specPolygon(r, area);
    return road.points.size() == 2 && (segmentCrosses(p, road.points[0], road.points[1]) ||
                                       contains(p, road.points[0]) || contains(p, road.points[1]));
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
        if ((river.type != QLatin1String("river") &&
             !(streamBridges && river.type == QLatin1String("stream"))) ||
            river.points.size() != 2)
            continue;
        for (const TerrainSpec& road : specs) {
            if (!isRoad(road) || road.points.size() != 2)
                continue;
            const auto x = lineCrossing(river.points[0], river.points[1], road.points[0], road.points[1]);
            if (!x)
                continue;
            const Vec2 dir = river.points[1] - river.points[0];
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
std::pair<int, int> cardLayout(const BattleState& s) {
    return {std::max(1, int(std::lround(s.tableW / kSector))), s.tableD >= 2 * kSector - 1 ? 2 : 1};
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
    return c.type == QLatin1String("stream")
               ? QStringLiteral("stream (orientation %1)").arg(c.orientation)
               : QStringLiteral("%1 %2 (orientation %3)").arg(c.type, c.size).arg(c.orientation);
}
QString cardsText(const QList<TerrainCard>& cards) {
    QStringList t;
    for (qsizetype k = 0; k < cards.size(); ++k)
        t << QStringLiteral("%1 %2").arg(k + 1).arg(cardText(cards[k]));
    return t.join(QStringLiteral(", "));
}
int streamCards(const QList<TerrainCard>& cards) {
    return int(std::count_if(cards.begin(), cards.end(),
                             [](const TerrainCard& c) { return c.type == QLatin1String("stream"); }));
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

// 16.6.6-16.6.7: the features the cards show, the stream first; a feature the stream crosses is moved
// aside (small, or medium the stream does not split) or split into two of the next size down, one on
// each side of it (large; medium when the stream passes through its middle third). Ids c1, c2, ... by
// sector ("c3a"/"c3b" for the halves of a split feature).
QList<TerrainSpec> cardFeatures(const TvbdRules& r, const BattleState& s) {
    QList<TerrainSpec> out;
    const QList<TerrainCard>& cards = s.setup.cards;
    std::optional<TerrainSpec> stream;
    bool across = true; // the stream runs across the table (parallel to the base edges)
    for (int k = 0; k < cards.size() && !stream; ++k)
        if (cards[k].type == QLatin1String("stream")) {
            const Vec2 c = sectorCentre(s, k);
            across = cards[k].orientation % 2 == 0;
            stream = across ? lineSpec(r, cards[k].type, {0, c.y}, {s.tableW, c.y})
                            : lineSpec(r, cards[k].type, {c.x, 0}, {c.x, s.tableD});
            stream->id = QStringLiteral("c%1").arg(k + 1);
            out << *stream;
        }
    auto perpendicular = [&](const TerrainSpec& t) { // half extent across the stream and the offset from it
        const Polygon p = specPolygon(r, t);
        double lo = 1e300, hi = -1e300;
        for (const Vec2& v : p) {
            lo = std::min(lo, across ? v.y : v.x);
            hi = std::max(hi, across ? v.y : v.x);
        }
        return (hi - lo) / 2;
    };
    for (int k = 0; k < cards.size(); ++k) {
        const TerrainCard& card = cards[k];
        if (openCard(card) || card.type == QLatin1String("stream"))
            continue;
        const Vec2 c = sectorCentre(s, k);
        const double rotation = card.orientation % 2 == 0 ? 0 : 90;
        TerrainSpec t = areaSpec(card.type, card.size, c, rotation);
        t.id = QStringLiteral("c%1").arg(k + 1);
        if (!stream || !overlaps(specPolygon(r, t), specPolygon(r, *stream), 0.01)) {
            out << t;
            continue;
        }
        const double line = across ? stream->points[0].y : stream->points[0].x;
        const double offset = (across ? c.y : c.x) - line;
        const double clear = stream->width / 2 + 0.25;
        auto at = [&](TerrainSpec f, double side) {
            const double v = line + side * (perpendicular(f) + clear);
            (across ? f.centre.y : f.centre.x) = v;
            return f;
        };
        const QString smaller = card.size == QLatin1String("large")    ? QStringLiteral("medium")
                                : card.size == QLatin1String("medium") ? QStringLiteral("small")
                                                                       : QString();
        const bool split = !smaller.isEmpty() &&
                           (card.size == QLatin1String("large") || std::abs(offset) < perpendicular(t) / 3);
        if (split) {
            TerrainSpec half = areaSpec(card.type, smaller, c, rotation);
            half.id = t.id + QLatin1Char('a');
            out << at(half, -1);
            half.id = t.id + QLatin1Char('b');
            out << at(half, 1);
        } else {
            out << at(t, offset < 0 ? -1 : 1);
        }
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
        s.note(QStringLiteral("10.5 scouting: %1 rolls %2 dice (%3): %4 hits")
                   .arg(s.sideName[side])
                   .arg(dice)
                   .arg(t.join(QLatin1Char(' ')))
                   .arg(hits[side]));
    }
    if (hits[0] != hits[1]) {
        const int w = hits[0] > hits[1] ? 0 : 1;
        s.setup.scoutDelays[w] = std::abs(hits[0] - hits[1]);
        const bool cards = s.setup.terrainCards && !s.setup.cardSteps.isEmpty();
        s.note(
            QStringLiteral("10.5 %1 has %2 point(s) of scouting advantage: %3delays of a command or a Cannon "
                           "in the deployment (benefits 3-4)")
                .arg(s.sideName[w])
                .arg(s.setup.scoutDelays[w])
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
                !(c[i] == c[j]))
                out << std::pair{i, j};
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
        if (step == CardSecondStream && streamCards(s.setup.cards) < 2) {
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
            s.note(QStringLiteral("16.6.4 %1 has no centre swap to make").arg(s.sideName[side]));
            steps.removeFirst();
            continue;
        }
        s.stepSide = side;
        return;
    }
    s.setup.specs = cardFeatures(r, s);
    rebuild(r, s);
    QStringList placed;
    for (const TerrainSpec& t : s.setup.specs)
        placed << QStringLiteral("%1 %2").arg(t.id, terrainSpecText(t));
    s.note(QStringLiteral("16.6.6-16.6.7 the terrain of the cards (%1): %2")
               .arg(cardsText(s.setup.cards),
                    placed.isEmpty() ? QStringLiteral("none") : placed.join(QStringLiteral("; "))));
    s.setup.stage = SetupStage::Roads;
    s.stepSide = 1 - s.attacker;
    s.note(QStringLiteral("16.6.8 %1 (defender) places the roads: at least one from a table edge to the "
                          "opposite one, and one through every village and town")
               .arg(s.sideName[s.stepSide]));
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
        if (t.points.size() != 2) {
            *error = QStringLiteral("a linear feature needs two points (X1,Y1 X2,Y2)");
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

void TvbdEngine::beginSetup(BattleState& s, bool terrainDone) const {
    if (!terrainDone)
        s.setup.fixedTerrain = int(s.terrain.size());
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
        s.note(QStringLiteral("10.4 terrain: %1 (defender) places %2-%3 features, then roads")
                   .arg(s.sideName[s.stepSide])
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
    // 10.5 scouting (rolled before the terrain was laid in a terrain-card game)
    if (!s.setup.scouted)
        rollScouting(s);
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
    const QString who = s.sideName[s.stepSide];
    const QString pass = s.setup.scoutDelays[s.stepSide] > 0 && s.setup.deploying < 0
                             ? QStringLiteral(", or pass")
                             : QString();
    switch (s.setup.stage) {
    case SetupStage::PlaceTerrain:
        return QStringLiteral("10.4 %1 (defender): place a terrain feature, or end").arg(who);
    case SetupStage::Roads:
        return QStringLiteral("10.4 %1 (defender): place a road, or end").arg(who);
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
            return QStringLiteral(
                       "16.6.6 %1 (defender): replace one of the two stream cards with an open one")
                .arg(who);
        }
    case SetupStage::Deploy:
        return s.setup.deploying >= 0 ? QStringLiteral("10.6 %1: deploy the rest of %2")
                                            .arg(who, s.commands[s.setup.deploying].name)
                                      : QStringLiteral("10.6 %1: deploy a command%2").arg(who, pass);
    case SetupStage::DeployCannon:
        return QStringLiteral("10.6 %1: deploy a Cannon%2").arg(who, pass);
    case SetupStage::None:
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
    bool mustReduce = true;
    switch (a.change) {
    case TerrainChange::Remove:
        if (!isArea(f))
            return QStringLiteral("10.4 only an area feature can be removed");
        sp.removeAt(a.target);
        *what = QStringLiteral("removes %1 (%2)").arg(f.id, f.type);
        break;
    case TerrainChange::Move:
        if (!isArea(f))
            return QStringLiteral("10.4 only an area feature can be moved");
        if (a.shift.length() > 8 + 1e-6)
            return QStringLiteral("10.4 a feature moves up to 8 TUM");
        sp[a.target].centre = f.centre + a.shift;
        *what = QStringLiteral("moves %1 (%2) by %3,%4 TUM").arg(f.id, f.type).arg(a.shift.x).arg(a.shift.y);
        break;
    case TerrainChange::Swap:
        if (other < 0 || other >= sp.size() || other == a.target || !isArea(f) || !isArea(sp[other]))
            return QStringLiteral("10.4 a swap takes two area features");
        std::swap(sp[a.target].centre, sp[other].centre);
        *what = QStringLiteral("swaps %1 (%2) and %3 (%4)").arg(f.id, f.type, sp[other].id, sp[other].type);
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
        *what = QStringLiteral("reroutes %1 to %2").arg(f.id, terrainSpecText(nr));
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
        *what = QStringLiteral("makes %1 a %2")
                    .arg(f.id, toGentle ? QStringLiteral("gentle hill") : QStringLiteral("difficult hill"));
        break;
    }
    case TerrainChange::CardSwap:
    case TerrainChange::CardRotate:
    case TerrainChange::CardOpen:
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

} // namespace

QList<TAction> TvbdEngine::setupActions(const BattleState& s) const {
    QList<TAction> out;
    const SetupStage st = s.setup.stage;
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
                                : villagesServed(r, s.setup.specs) &&
                                      (!s.setup.terrainCards || countSpecs(s.setup.specs).roads > 0);
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
    if (st == SetupStage::TerrainCards) {
        if (!cardActions(s).contains(a))
            return fail(QStringLiteral("16.6 not a choice now (%1)").arg(setupPrompt(s)));
        QList<TerrainCard>& c = s.setup.cards;
        const int step = s.setup.cardSteps.first();
        const QString rule = step == CardDefenderAdjust ? QStringLiteral("16.6.5")
                             : step == CardSecondStream ? QStringLiteral("16.6.6")
                             : step == CardScoutSwap    ? QStringLiteral("10.5 benefit 2:")
                                                        : QStringLiteral("16.6.4");
        if (isTerrainEnd(a)) {
            s.note(QStringLiteral("%1 %2 passes").arg(rule, who));
        } else if (a.change == TerrainChange::CardSwap) {
            const int i = a.target, j = a.secondary[0];
            s.note(QStringLiteral("%1 %2 swaps card %3 (%4) and card %5 (%6)")
                       .arg(rule, who)
                       .arg(i + 1)
                       .arg(cardText(c[i]))
                       .arg(j + 1)
                       .arg(cardText(c[j])));
            std::swap(c[i], c[j]);
        } else if (a.change == TerrainChange::CardRotate) {
            s.note(QStringLiteral("%1 %2 turns card %3 (%4) to orientation %5")
                       .arg(rule, who)
                       .arg(a.target + 1)
                       .arg(cardText(c[a.target]))
                       .arg(a.secondary[0]));
            c[a.target].orientation = a.secondary[0];
        } else {
            s.note(QStringLiteral("%1 %2 replaces the stream card %3 with an open card")
                       .arg(rule, who)
                       .arg(a.target + 1));
            c[a.target] = TerrainCard{};
        }
        if (step == CardScoutSwap && !isTerrainEnd(a))
            --s.setup
                  .scoutDelays[s.stepSide]; // a point of advantage spent; the step goes on while any is left
        else
            s.setup.cardSteps.removeFirst();
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
                s.note(QStringLiteral("10.4 %1 has placed %2 features; roads next").arg(who).arg(n));
                s.setup.stage = SetupStage::Roads;
                return true;
            }
            if (!villagesServed(r, s.setup.specs) && countSpecs(s.setup.specs).roads < 6)
                return fail(QStringLiteral("8.2 every village and town needs a road through it"));
            if (s.setup.terrainCards) {
                if (countSpecs(s.setup.specs).roads == 0)
                    return fail(QStringLiteral("16.6.8 every table has at least one road"));
                s.note(QStringLiteral("16.6.8 %1 has placed the roads").arg(who));
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
        s.note(QStringLiteral("10.4 %1 places %2: %3").arg(who, t.id, terrainSpecText(t)));
        return true;
    }
    if (st == SetupStage::TerrainChange) {
        if (isTerrainEnd(a)) {
            s.note(QStringLiteral("10.4 %1 (attacker) makes no change").arg(who));
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
        s.note(QStringLiteral("10.5 %1 delays deploying a %2 (scouting benefit %3)")
                   .arg(who, cannonStage ? QStringLiteral("Cannon") : QStringLiteral("command"))
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
    s.note(QStringLiteral("10.6 %1 deploys %2 at %3,%4 facing %5%6")
               .arg(who, x.id)
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
    case SetupStage::None:
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

} // namespace wp::tactical
