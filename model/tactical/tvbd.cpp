// The TVBD v2.0 engine: sequence of play (9), movement (12.1), shooting (12.2), close combat (14),
// morale and victory (15, 16.1). Decisions are left to the players through legal actions; the steps
// with no choice in them (initiative, charges, melee, rally backs, morale) run automatically, with the
// few owner's choices inside them made by the documented policy in docs/tvbd.md.
#include "tvbd.h"
#include "sidewords.h"

#include <QVarLengthArray>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

namespace wp::tactical {

namespace {

QString fmt(double v) {
    return QString::number(v, 'f', 2);
}

QString diceText(const QList<int>& d) {
    QStringList s;
    for (int x : d)
        s << QString::number(x);
    return s.join(QLatin1Char(','));
}

int hitsOf(const QList<int>& d, int need) {
    return int(std::count_if(d.begin(), d.end(), [need](int x) { return x >= need; }));
}

// A piece of terrain that blockedAt or inDifficult may test (of a feature that is not open, or a bridge or
// ford), with its box and what they ask of its feature: the terrain's pieces, kept with the memo below.
struct TerrainPiece {
    int feature = -1, piece = -1;
    Box box;
    bool bridge = false, ford = false, stream = false;
    ConvexAxes axes; // the overlap test's, taken once
};
// The pieces, and (with `hash`) the terrain's hash that names them (the memo's).
const std::vector<TerrainPiece>& terrainPieces(const BattleState& s, quint64* hash = nullptr);
// The pieces of the field fortifications (16.5), with their boxes and axes.
const std::vector<TerrainPiece>& fortificationPieces(const BattleState& s);

// Zone of control (12.1.11): a rectangle as wide as the unit, zocDepth deep, ahead of its front edge.
Pose zocPose(const Pose& p, double depth) {
    return Pose{p.fromLocal(p.d / 2 + depth / 2, 0), p.facing, p.w, depth};
}

// Half the diagonal of a stand: every point of it lies within this of its centre.
double halfDiagonal(const Pose& p) {
    return 0.5 * std::sqrt(p.w * p.w + p.d * p.d);
}

// Half the largest diagonal of the stands on the table (not Commanders): every stand lies within this of its
// centre.
double largestHalfDiagonal(const BattleState& s) {
    double m = 0;
    for (const Unit& y : s.units)
        if (y.onTable() && y.type != UnitType::Commander)
            m = std::max(m, y.pose.w * y.pose.w + y.pose.d * y.pose.d);
    return 0.5 * std::sqrt(m);
}

// Whether two stands (with half diagonals ha, hb) are certainly more than `gap` apart: their centres are
// farther apart than both halves and the gap, plus a margin far above rounding. Where this holds, the
// distance measured exceeds gap + 1e-9 and the stands do not overlap: a test against those thresholds can be
// skipped with the same answer.
bool apart(const Pose& a, double ha, const Pose& b, double hb, double gap) {
    const double dx = a.c.x - b.c.x, dy = a.c.y - b.c.y, reach = ha + hb + gap + 1e-6;
    return dx * dx + dy * dy > reach * reach;
}

} // namespace

int TvbdEngine::commandArmyBreakpoint(int commands) {
    // 16.10 table: 1 -> 1, 2-3 -> 2, 4-5 -> 3, 6 -> 4 (the table, not the formula, for 5: docs/tvbd.md)
    if (commands <= 1)
        return 1;
    if (commands <= 3)
        return 2;
    if (commands <= 5)
        return 3;
    return (2 * commands + 2) / 3;
}

// ---- basic services ---------------------------------------------------------------------------------------

double TvbdEngine::distance(const BattleState& s, int a, int b, double cap) const {
    return wp::tactical::distance(s.units[a].pose, s.units[b].pose, cap);
}

// The stands (other than the mover and Commanders, on the table) whose centres lie within blockedAt's 4 TUM
// of some pose in `area`, and the terrain pieces whose boxes meet it, in table order, with what blockedAt
// asks of each piece's feature: the same tests over them give the same answers for every pose in the area.
struct TvbdEngine::Near {
    struct Piece {
        const TerrainFeature* f = nullptr;
        const Polygon* poly = nullptr;
        const ConvexAxes* axes = nullptr;
        Box box;
        bool bridge = false, ford = false, stream = false;
    };
    QVarLengthArray<int, 64> units;
    QVarLengthArray<double, 64> half; // the units' half diagonals
    QVarLengthArray<Piece, 32> pieces;
    quint64 terrain = 0; // the terrain's hash (the memo's), naming the pieces with the area
};

TvbdEngine::Near TvbdEngine::nearArea(const BattleState& s, int u, const Box& area, double within) const {
    Near n;
    // A pose's centre lies inside its box, so inside the area: stands within `within` TUM of it (each axis:
    // blockedAt's 4, the charge's touch test 5) lie within the area grown by that (a hair more for rounding).
    const Box reach = area.grown(within + 1e-6);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (i == u || !y.onTable() || y.type == UnitType::Commander)
            continue;
        if (y.pose.c.x < reach.x0 || y.pose.c.x > reach.x1 || y.pose.c.y < reach.y0 || y.pose.c.y > reach.y1)
            continue;
        n.units.push_back(int(i));
        n.half.push_back(halfDiagonal(y.pose));
    }
    const Box around = area.grown(1e-6); // a centre on a piece's edge counts as inside it (contains)
    for (const TerrainPiece& k : terrainPieces(s, &n.terrain)) {
        const TerrainFeature& f = s.terrain[k.feature];
        const Polygon& piece = f.pieces[k.piece];
        if (!piece.isEmpty() && !k.box.meets(around))
            continue;
        n.pieces.push_back({&f, &piece, &k.axes, k.box, k.bridge, k.ford, k.stream});
    }
    return n;
}

bool TvbdEngine::inDifficult(const Pose& p, const Near& near) const {
    // 7.2.5: any part of the unit in difficult terrain puts the whole unit there.
    const Box pb = boxOf(p.corners());
    for (const Near::Piece& k : near.pieces) {
        if (k.f->cls == TerrainClass::Open)
            continue;
        if (!k.poly->isEmpty() && !pb.meets(k.box))
            continue;
        if (overlaps(p, *k.poly, *k.axes, 1e-3))
            return true;
    }
    return false;
}

double TvbdEngine::height(const BattleState& s, Vec2 p) const {
    double h = 0;
    for (const TerrainFeature& f : s.terrain) {
        if (!f.elevated)
            continue;
        bool inside = false;
        for (const Polygon& piece : f.pieces)
            inside = inside || contains(piece, p);
        if (!inside)
            continue;
        const double rad = std::max(0.5, f.radius);
        h = std::max(h, std::max(0.0, 1 - (p - f.peak).length() / rad) + 0.01);
    }
    return h;
}

bool TvbdEngine::garrison(const BattleState& s, int u) const {
    // 16.5.1: infantry and Cannon (never cavalry) garrison a fortification section lying over their base
    // (docs/tvbd.md: a section is laid along the garrison's front edge, overlapping it).
    const Unit& x = s.units[u];
    if (!x.onTable() || !(isInfantry(x.type) || x.type == UnitType::Cannon))
        return false;
    for (const TerrainPiece& k : fortificationPieces(s))
        if (overlaps(x.pose, s.terrain[k.feature].pieces[k.piece], k.axes, 1e-3))
            return true;
    return false;
}

bool TvbdEngine::behindFortification(const BattleState& s, int u, Vec2 from) const {
    // 16.5.4, 16.5.5: the line of fire, or of the attack, crosses a section the unit garrisons.
    if (!garrison(s, u))
        return false;
    const Unit& x = s.units[u];
    for (const TerrainPiece& k : fortificationPieces(s)) {
        const Polygon& piece = s.terrain[k.feature].pieces[k.piece];
        if (overlaps(x.pose, piece, k.axes, 1e-3) && segmentCrosses(piece, from, x.pose.c))
            return true;
    }
    return false;
}

bool TvbdEngine::inCommand(const BattleState& s, int u) const {
    const Unit& x = s.units[u];
    if (x.type == UnitType::Commander)
        return true;
    const Command& c = s.commands[x.command];
    if (c.commanderLost || c.commander < 0 || !s.units[c.commander].onTable())
        return false;
    return distance(s, u, c.commander, r.commandRadius + 0.1) <=
           r.commandRadius + 1e-9; // capped: same answer
}

bool TvbdEngine::commandCheck(BattleState& s, int u) const {
    const Unit& x = s.units[u];
    const QList<int> d = s.rollDice(x.resolve);
    const int need = r.type(x.type).cmdCheckHit;
    const bool ok = hitsOf(d, need) > 0;
    s.note(QStringLiteral("12.1.2 command check %1: %2d6 [%3] needing %4+: %5")
               .arg(x.id)
               .arg(x.resolve)
               .arg(diceText(d))
               .arg(need)
               .arg(ok ? QStringLiteral("passed") : QStringLiteral("failed")));
    return ok;
}

namespace {
// The enemies in base contact with u, in table order, each given to `f` until it returns false.
template <typename F> void eachContact(const BattleState& s, int u, F&& f) {
    const Unit& x = s.units[u];
    if (!x.onTable() || x.type == UnitType::Commander)
        return;
    const double hx = halfDiagonal(x.pose);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (y.side == x.side || !y.onTable() || y.type == UnitType::Commander)
            continue;
        if (std::abs(y.pose.c.x - x.pose.c.x) > 4 || std::abs(y.pose.c.y - x.pose.c.y) > 4 ||
            apart(x.pose, hx, y.pose, halfDiagonal(y.pose), kContactEps))
            continue;
        // The centres' distance less the circles in the stands bounds the distance from above (with a margin
        // for rounding): stands base to base along their depths are settled by it, unmeasured.
        const bool touch = distanceUpperBound(x.pose, y.pose) <= kContactEps ||
                           wp::tactical::distance(x.pose, y.pose, 0.1) <= kContactEps;
        if (touch && !f(int(i)))
            return;
    }
}
} // namespace

QList<int> TvbdEngine::contacts(const BattleState& s, int u) const {
    QList<int> out;
    eachContact(s, u, [&](int i) {
        out << i;
        return true;
    });
    return out;
}

bool TvbdEngine::computeLocked(const BattleState& s, int u) const {
    bool any = false;
    eachContact(s, u, [&](int) {
        any = true;
        return false; // the first one settles it
    });
    return any;
}

bool TvbdEngine::lineOfSight(const BattleState& s, int a, int b) const {
    // 12.2.3: centre to centre; not through blocking terrain (into or out of it is allowed), not beyond
    // other units. Commanders do not block (docs/tvbd.md).
    const Vec2 pa = s.units[a].pose.c, pb = s.units[b].pose.c;
    for (const TerrainFeature& f : s.terrain) {
        if (!f.blocksLOS)
            continue;
        for (const Polygon& piece : f.pieces) {
            if (!segmentCrosses(piece, pa, pb))
                continue;
            const bool aIn = overlaps(s.units[a].pose.polygon(), piece, 1e-3);
            const bool bIn = overlaps(s.units[b].pose.polygon(), piece, 1e-3);
            if (f.elevated) {
                // Hills: units on the same slopes see each other; the peak blocks a line passing it
                // with the units on opposite sides.
                const Vec2 d = pb - pa;
                const double t = (f.peak - pa).dot(d) / std::max(1e-9, d.dot(d));
                const bool peakBetween = t > 0.02 && t < 0.98;
                if ((aIn || bIn) && !peakBetween)
                    continue;
                return false;
            }
            if (!aIn && !bIn)
                return false;
        }
    }
    // Other stands block; so does a gap narrower than 2 TUM between stands and/or blocking terrain
    // (12.2.2): the line may not pass between two such obstacles closer than that.
    QList<Polygon> obstacles;
    const Polygon line = thickSegment(pa, pb, 0.01);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        if (i == a || i == b || !s.units[i].onTable() || s.units[i].type == UnitType::Commander)
            continue;
        // A stand lies within half its diagonal of its centre: one whose centre is farther than that plus
        // 2.1 TUM from the line can neither cross it nor narrow a gap.
        const Pose& q = s.units[i].pose;
        if (segmentDistance(q.c, pa, pb) > 2.1 + 0.5 * std::sqrt(q.w * q.w + q.d * q.d) + 1e-6)
            continue;
        const Polygon p = q.polygon();
        if (segmentCrosses(p, pa, pb))
            return false;
        if (wp::tactical::distance(p, line, 2.1) <= 2)
            obstacles << p;
    }
    for (const TerrainFeature& f : s.terrain) {
        if (!f.blocksLOS || f.elevated)
            continue;
        for (const Polygon& piece : f.pieces)
            if (!contains(piece, pa) && !contains(piece, pb) && wp::tactical::distance(piece, line, 2.1) <= 2)
                obstacles << piece;
    }
    for (qsizetype i = 0; i < obstacles.size(); ++i)
        for (qsizetype j = i + 1; j < obstacles.size(); ++j) {
            if (wp::tactical::distance(obstacles[i], obstacles[j], 2.1) >= r.narrowGap)
                continue;
            Polygon both = obstacles[i];
            both << obstacles[j];
            if (segmentCrosses(convexHull(both), pa, pb))
                return false;
        }
    return true;
}

// ---- shooting -----------------------------------------------------------------------------------------

QList<int> TvbdEngine::shooters(const BattleState& s, int side) const {
    QList<int> out;
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (mayShoot(s, int(i), side))
            out << int(i);
    return out;
}

bool TvbdEngine::mayShoot(const BattleState& s, int i, int side) const {
    const Unit& u = s.units[i];
    if (u.side != side || !u.onTable() || u.shotMarker || u.movedMarker)
        return false;
    if (u.type == UnitType::Commander || u.type == UnitType::Rabble)
        return false;
    if (u.type == UnitType::Cannon && u.limbered)
        return false;
    return !locked(s, i);
}

// ---- memo -------------------------------------------------------------------------------------------------
// shootTargets, chargeOptions and the candidate moves are pure functions of the table (units' poses, kinds,
// status and the few markers they read, the terrain, the rules). The engine and the policy ask the same
// questions many times about an unchanged table (every step is listed, checked and then applied), so the
// answers are remembered per thread under a 64-bit fingerprint of everything they read.
namespace {

quint64 mix(quint64 h, quint64 v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ULL;
    return h ^ (h >> 29);
}
quint64 bitsOf(double d) {
    quint64 b;
    std::memcpy(&b, &d, sizeof b);
    return b;
}

// What the fingerprint reads of each unit, as bits: compared bit for bit with the last units seen (cheaper
// than hashing them), hashed as words when they change.
struct UnitBits {
    quint64 x = 0, y = 0, facing = 0, w = 0, d = 0;
    quint64 flags = 0; // status, side, type, quality, large, limbered, shot marker, attached-to
    quint64 command = 0;
    bool operator==(const UnitBits&) const = default;
};
constexpr quint64 kMarkerFlags = ~quint64(0) << 18; // the shot marker and attached-to bits
UnitBits unitBits(const Unit& u) {
    return {bitsOf(u.pose.c.x),
            bitsOf(u.pose.c.y),
            bitsOf(u.pose.facing),
            bitsOf(u.pose.w),
            bitsOf(u.pose.d),
            quint64(u.status) | quint64(u.side) << 4 | quint64(u.type) << 8 | quint64(u.quality) << 12 |
                quint64(u.large) << 16 | quint64(u.limbered) << 17 | quint64(u.shotMarker) << 18 |
                quint64(quint32(u.attachedTo)) << 20,
            quint64(quint32(u.command))};
}

// The fingerprint's words for the terrain, in order (a feature's type by its text, compared, not hashed).
void terrainWords(const QList<TerrainFeature>& terrain, std::vector<quint64>& w) {
    w.clear();
    w.push_back(quint64(terrain.size()));
    for (const TerrainFeature& f : terrain) {
        w.push_back(quint64(f.cls) | quint64(f.blocksLOS) << 40 | quint64(f.elevated) << 41);
        w.push_back(bitsOf(f.peak.x));
        w.push_back(bitsOf(f.peak.y));
        w.push_back(bitsOf(f.radius));
        w.push_back(quint64(f.pieces.size()));
        for (const Polygon& piece : f.pieces) {
            w.push_back(quint64(piece.size()));
            for (const Vec2& v : piece) {
                w.push_back(bitsOf(v.x));
                w.push_back(bitsOf(v.y));
            }
        }
    }
}

// Whether the terrain's words are exactly `key` (terrainWords compared in place, the vertices as raw bits).
bool sameTerrainWords(const QList<TerrainFeature>& terrain, const std::vector<quint64>& key) {
    std::size_t k = 0;
    auto next = [&](quint64 v) { return k < key.size() && key[k++] == v; };
    if (!next(quint64(terrain.size())))
        return false;
    for (const TerrainFeature& f : terrain) {
        if (!next(quint64(f.cls) | quint64(f.blocksLOS) << 40 | quint64(f.elevated) << 41) ||
            !next(bitsOf(f.peak.x)) || !next(bitsOf(f.peak.y)) || !next(bitsOf(f.radius)) ||
            !next(quint64(f.pieces.size())))
            return false;
        for (const Polygon& piece : f.pieces) {
            if (!next(quint64(piece.size())))
                return false;
            const std::size_t n = 2 * std::size_t(piece.size());
            static_assert(sizeof(Vec2) == 2 * sizeof(quint64));
            if (key.size() - k < n ||
                std::memcmp(key.data() + k, piece.constData(), n * sizeof(quint64)) != 0)
                return false;
            k += n;
        }
    }
    return k == key.size();
}

// Hashes of the units and of the terrain, remembered per thread for the last contents seen: the engine and
// the policy ask many questions about one table, and the terrain does not change during a battle. The
// contents are compared bit for bit with a private copy (no sharing with the caller's lists), which costs
// far less than hashing them again.
struct ListHashes {
    std::vector<UnitBits> units;
    std::vector<std::array<quint64, 2>> unitPart; // each unit's share of the two hashes below
    quint64 unitHash[2] = {0, 0}; // all, table (shootTargets and chargeOptions: no marker, no Commander pose)
    bool unitValid = false;
};

// A unit's share of the units' hashes: its words hashed after its index. `table` leaves out what shootTargets
// and chargeOptions do not read (they skip Commanders and read no marker), so a shot's marker or a
// Commander's move leaves their answers remembered; the unit asked about is added to their key separately.
quint64 unitPart(std::size_t i, const UnitBits& b, bool table) {
    quint64 h = mix(0x51ed270b27cbd6f1ULL, quint64(i));
    if (table && UnitType((b.flags >> 8) & 0xf) == UnitType::Commander)
        return mix(h, b.flags & 0xfff); // status, side, type
    for (quint64 v : {b.x, b.y, b.facing, b.w, b.d, table ? b.flags & ~kMarkerFlags : b.flags, b.command})
        h = mix(h, v);
    return h;
}

// The hash of the units: the sum of the units' shares (so a change of a few units re-hashes only those).
quint64 unitsHash(const QList<Unit>& units, bool table) {
    thread_local ListHashes c;
    const std::size_t n = std::size_t(units.size());
    if (!c.unitValid || c.units.size() != n) {
        c.units.assign(n, UnitBits{});
        c.unitPart.assign(n, {0, 0});
        for (std::size_t i = 0; i < n; ++i) {
            c.units[i] = unitBits(units[qsizetype(i)]);
            c.unitPart[i] = {unitPart(i, c.units[i], false), unitPart(i, c.units[i], true)};
        }
        c.unitHash[0] = c.unitHash[1] = quint64(n);
        for (const auto& part : c.unitPart) {
            c.unitHash[0] += part[0];
            c.unitHash[1] += part[1];
        }
        c.unitValid = true;
    } else {
        for (std::size_t i = 0; i < n; ++i) {
            const UnitBits b = unitBits(units[qsizetype(i)]);
            if (b == c.units[i])
                continue;
            const std::array<quint64, 2> part{unitPart(i, b, false), unitPart(i, b, true)};
            for (int t = 0; t < 2; ++t)
                c.unitHash[t] += part[std::size_t(t)] - c.unitPart[i][std::size_t(t)];
            c.units[i] = b;
            c.unitPart[i] = part;
        }
    }
    return c.unitHash[table ? 1 : 0];
}

// The read scopes open on this thread (TableReadScope), innermost last, with what was taken in them.
struct OpenScope {
    const BattleState* s = nullptr;
    const void* rules[2] = {nullptr,
                            nullptr};  // the rules each fingerprint was taken with (none yet: nullptr)
    quint64 fp[2] = {0, 0};            // all, table
    bool haveTerrain = false;          // the terrain was checked against the cache in this scope ...
    quint64 terrain = 0;               // ... and had this hash
    bool unitsFixed = true;            // false: a TerrainReadScope (the units may change)
    const void* chargeRules = nullptr; // chargeKey's state part was taken with these rules ...
    quint64 charge = 0;                // ... and is this
    std::vector<signed char> locked;   // locked(s, u) by unit: unknown (-1), 0, 1 (empty: none asked yet)
};
thread_local QVarLengthArray<OpenScope, 4> openScopes;

OpenScope* scopeOf(const BattleState& s) {
    return !openScopes.isEmpty() && openScopes.last().s == &s ? &openScopes.last() : nullptr;
}

// The terrain's hash and its pieces as blockedAt and inDifficult look at them, remembered per thread for the
// last terrain seen (compared word for word with a private copy; within a read scope, once).
struct TerrainCache {
    std::vector<quint64> key;
    QStringList types;
    quint64 hash = 0;
    bool valid = false;
    std::vector<TerrainPiece> pieces;
    std::vector<TerrainPiece> fortifications; // garrison, behindFortification (16.5)
};

const TerrainCache& terrainCache(const BattleState& s) {
    thread_local TerrainCache c;
    OpenScope* o = scopeOf(s);
    if (o && o->haveTerrain && c.valid && c.hash == o->terrain)
        return c; // checked in this scope, and not rebuilt for another terrain since
    const QList<TerrainFeature>& terrain = s.terrain;
    bool same = c.valid && c.types.size() == terrain.size() && sameTerrainWords(terrain, c.key);
    for (qsizetype i = 0; same && i < terrain.size(); ++i) {
        // A type the cache shares with the state (a copy of the state shares it too) is the same text: while
        // the cache holds it, its buffer does not change (a string, unlike the terrain list, holds nothing
        // the engine keeps references into: sharing it detaches nothing of the caller's).
        const QString& mine = c.types[i];
        const QString& theirs = terrain[i].type;
        same = (mine.constData() == theirs.constData() && mine.size() == theirs.size()) || mine == theirs;
    }
    if (!same) {
        terrainWords(terrain, c.key);
        quint64 h = quint64(terrain.size());
        c.types.clear();
        c.pieces.clear();
        c.fortifications.clear();
        for (qsizetype i = 0; i < terrain.size(); ++i) {
            const TerrainFeature& f = terrain[i];
            // The type's characters are mixed in one by one: Qt's string hash (AES/AVX code) leaves the upper
            // halves of the vector registers in a state that made all the engine's later floating point
            // several times slower on the benchmark machine (docs/performance.md).
            for (const QChar ch : f.type)
                h = mix(h, ch.unicode());
            h = mix(h, (quint64(f.cls) << 32) ^ (quint64(f.blocksLOS) << 40) ^ (quint64(f.elevated) << 41));
            h = mix(h, bitsOf(f.peak.x));
            h = mix(h, bitsOf(f.peak.y));
            h = mix(h, bitsOf(f.radius));
            for (const Polygon& piece : f.pieces) {
                h = mix(h, quint64(piece.size()));
                for (const Vec2& v : piece) {
                    h = mix(h, bitsOf(v.x));
                    h = mix(h, bitsOf(v.y));
                }
            }
            c.types << f.type; // shared (above)
            // blockedAt and inDifficult: the pieces of terrain that is not open, and of bridges and fords.
            if (f.type == QLatin1String("fortification"))
                for (qsizetype j = 0; j < f.pieces.size(); ++j)
                    c.fortifications.push_back(
                        {int(i), int(j), boxOf(f.pieces[j]), false, false, false, convexAxes(f.pieces[j])});
            const bool bridge = f.type == QLatin1String("bridge"), ford = f.type == QLatin1String("ford");
            if (f.cls == TerrainClass::Open && !bridge && !ford)
                continue;
            const bool stream = f.type == QLatin1String("stream");
            for (qsizetype j = 0; j < f.pieces.size(); ++j)
                c.pieces.push_back(
                    {int(i), int(j), boxOf(f.pieces[j]), bridge, ford, stream, convexAxes(f.pieces[j])});
        }
        c.hash = h;
        c.valid = true;
    }
    if (o) {
        o->haveTerrain = true;
        o->terrain = c.hash;
    }
    return c;
}

const std::vector<TerrainPiece>& terrainPieces(const BattleState& s, quint64* hash) {
    const TerrainCache& c = terrainCache(s);
    if (hash)
        *hash = c.hash;
    return c.pieces;
}

const std::vector<TerrainPiece>& fortificationPieces(const BattleState& s) {
    return terrainCache(s).fortifications;
}

quint64 computeFingerprint(const BattleState& s, const void* rules, bool table) {
    quint64 h =
        mix(quint64(reinterpret_cast<quintptr>(rules)), quint64(s.units.size()) | quint64(table) << 32);
    h = mix(h, bitsOf(s.tableW));
    h = mix(h, bitsOf(s.tableD));
    h = mix(h, unitsHash(s.units, table));
    return mix(h, terrainCache(s).hash);
}

quint64 fingerprint(const BattleState& s, const void* rules, bool table = false) {
    if (!openScopes.isEmpty() && openScopes.last().s == &s && openScopes.last().unitsFixed) {
        // Within a read scope the state does not change: its fingerprint is taken once.
        OpenScope& o = openScopes.last();
        const int t = table ? 1 : 0;
        if (o.rules[t] != rules) {
            o.fp[t] = computeFingerprint(s, rules, table);
            o.rules[t] = rules;
        }
        return o.fp[t];
    }
    return computeFingerprint(s, rules, table);
}

// The key of a question about unit u on the table (shootTargets, chargeOptions): the table's fingerprint,
// the unit and its own pose (which the table words leave out for a Commander).
quint64 tableKey(const BattleState& s, const void* rules, int u) {
    const Pose& p = s.units[u].pose;
    quint64 h = mix(fingerprint(s, rules, true), quint64(u));
    h = mix(h, bitsOf(p.c.x));
    h = mix(h, bitsOf(p.c.y));
    return mix(h, bitsOf(p.facing));
}

// chargeKey's words of the state (not of the two units named).
quint64 chargeStateKey(const BattleState& s, const void* rules) {
    quint64 h = mix(quint64(reinterpret_cast<quintptr>(rules)), quint64(s.units.size()));
    h = mix(h, bitsOf(s.tableW));
    h = mix(h, bitsOf(s.tableD));
    h = mix(h, quint64(quint32(s.active)));
    h = mix(h, terrainCache(s).hash);
    for (const Unit& u : s.units) {
        for (quint64 v : {bitsOf(u.pose.c.x), bitsOf(u.pose.c.y), bitsOf(u.pose.facing), bitsOf(u.pose.w),
                          bitsOf(u.pose.d)})
            h = mix(h, v);
        h = mix(h, quint64(u.status) | quint64(u.side) << 4 | quint64(u.type) << 8 |
                       quint64(u.quality) << 12 | quint64(u.large) << 16 | quint64(u.limbered) << 17 |
                       quint64(u.charged) << 18 | quint64(u.evaded) << 19 |
                       quint64(quint32(u.command)) << 32);
        h = mix(h, quint64(quint32(u.resolve)) | quint64(quint32(u.chargeTarget)) << 32);
        h = mix(h, quint64(quint32(u.attachedTo)));
    }
    return h;
}

struct Memo {
    QHash<quint64, std::pair<QList<int>, bool>> targets;
    QHash<quint64, QList<std::pair<int, ChargePlan>>> charges;
    QHash<quint64, std::pair<QList<MoveSpec>, QList<Pose>>> moves;
    QHash<quint64, bool> hasMove;
    QHash<quint64, std::optional<ChargePlan>> plans; // chargePlan: it reads what chargeOptions reads
    // chargePlan again, under the key of only what it reads (the stands and terrain around the charger): a
    // move elsewhere on the table, or a charge resolved before, leaves it remembered.
    QHash<quint64, std::optional<ChargePlan>> nearPlans;
    QHash<quint64, std::optional<Pose>> checks; // checkMove (not an evade's)
    void trim() {
        if (targets.size() + charges.size() + moves.size() + hasMove.size() + plans.size() +
                nearPlans.size() + checks.size() >
            20000) {
            checks.clear();
            targets.clear();
            charges.clear();
            moves.clear();
            hasMove.clear();
            plans.clear();
            nearPlans.clear();
        }
    }
};
Memo& memo() {
    thread_local Memo m;
    return m;
}

} // namespace

bool TvbdEngine::inDifficult(const BattleState& s, const Pose& p) const {
    // 7.2.5 (as below, for one pose): the pieces whose boxes the stand's box does not meet are not measured.
    // The answers for the last poses asked about are remembered per thread with the terrain's hash (the
    // policy asks about the same stands again and again while scoring the poses of one move).
    const TerrainCache& tc = terrainCache(s);
    struct Entry {
        quint64 terrain = 0;
        std::array<quint64, 5> pose{};
        bool inside = false, used = false;
    };
    thread_local std::array<Entry, 64> answers;
    const std::array<quint64, 5> bits{bitsOf(p.c.x), bitsOf(p.c.y), bitsOf(p.facing), bitsOf(p.w),
                                      bitsOf(p.d)};
    quint64 h = tc.hash;
    for (quint64 b : bits)
        h = mix(h, b);
    Entry& e = answers[std::size_t(h % answers.size())];
    if (e.used && e.terrain == tc.hash && e.pose == bits)
        return e.inside;
    bool inside = false;
    const Box pb = boxOf(p.corners());
    for (const TerrainPiece& k : tc.pieces) {
        const TerrainFeature& f = s.terrain[k.feature];
        const Polygon& piece = f.pieces[k.piece];
        if (f.cls != TerrainClass::Open && (piece.isEmpty() || pb.meets(k.box)) &&
            overlaps(p, piece, k.axes, 1e-3)) {
            inside = true;
            break;
        }
    }
    e = {tc.hash, bits, inside, true};
    return inside;
}

quint64 TvbdEngine::chargeKey(const BattleState& s, int a, int b) const {
    quint64 h;
    if (OpenScope* o = scopeOf(s); o && o->unitsFixed) {
        // Within a read scope the state does not change: its part is taken once.
        if (o->chargeRules != &r) {
            o->charge = chargeStateKey(s, &r);
            o->chargeRules = &r;
        }
        h = o->charge;
    } else {
        h = chargeStateKey(s, &r);
    }
    return mix(mix(h, quint64(quint32(a))), quint64(quint32(b)));
}

bool TvbdEngine::locked(const BattleState& s, int u) const {
    // Within a read scope the table does not change: each unit's answer is taken once.
    OpenScope* o = scopeOf(s);
    if (o && o->unitsFixed) {
        if (o->locked.empty())
            o->locked.assign(std::size_t(s.units.size()), -1);
        signed char& l = o->locked[std::size_t(u)];
        if (l < 0)
            l = computeLocked(s, u) ? 1 : 0;
        return l == 1;
    }
    return computeLocked(s, u);
}

TableReadScope::TableReadScope(const BattleState& s) : TableReadScope(s, true) {}

TableReadScope::TableReadScope(const BattleState& s, bool unitsFixed)
    : m_open(openScopes.isEmpty() || openScopes.last().s != &s) {
    if (m_open) {
        OpenScope o;
        o.s = &s;
        o.unitsFixed = unitsFixed;
        openScopes.push_back(std::move(o));
    }
}

TerrainReadScope::TerrainReadScope(const BattleState& s, quint64 terrain) : TableReadScope(s, false) {
    if (open() && terrain != 0) {
        openScopes.last().haveTerrain = true;
        openScopes.last().terrain = terrain;
    }
}

quint64 TerrainReadScope::checked() const {
    return open() && openScopes.last().haveTerrain ? openScopes.last().terrain : 0;
}

TableReadScope::~TableReadScope() {
    if (m_open)
        openScopes.pop_back();
}

QList<int> TvbdEngine::shootTargets(const BattleState& s, int u, bool* toFront) const {
    Memo& m = memo();
    const quint64 key = tableKey(s, &r, u);
    auto it = m.targets.constFind(key);
    if (it == m.targets.constEnd()) {
        m.trim();
        bool front = false;
        QList<int> t = computeShootTargets(s, u, &front);
        it = m.targets.insert(key, {std::move(t), front});
    }
    if (toFront)
        *toFront = it->second;
    return it->first;
}

QList<int> TvbdEngine::computeShootTargets(const BattleState& s, int u, bool* toFront) const {
    const Unit& x = s.units[u];
    const double range = r.type(x.type).range;
    QVarLengthArray<std::pair<double, int>, 32> front, flank;
    bool friendFront = false, friendLeft = false, friendRight = false;
    // Each stand lies within half its diagonal of its centre: centres farther apart than the shooter's half,
    // the largest half of any stand and the range (and a margin for rounding) put the stands out of range, as
    // the distance below would (compared squared: no square root per stand).
    const double reach = halfDiagonal(x.pose) + largestHalfDiagonal(s) + range + 1e-6;
    const bool cannon = x.type == UnitType::Cannon;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (i == u || !y.onTable() || y.type == UnitType::Commander)
            continue;
        const double dx = y.pose.c.x - x.pose.c.x, dy = y.pose.c.y - x.pose.c.y;
        if (dx * dx + dy * dy > reach * reach)
            continue;
        // 12.2.6: Cannon shoot only to-front, so only friends and enemies to-front count for them (a friend
        // on a flank stops fire only to that flank): whether a stand is to-front is asked first, the distance
        // only then.
        if (cannon && !inFront(x.pose, y.pose))
            continue;
        const double d = distance(s, u, int(i), range + 0.1);
        if (d > range + 1e-9)
            continue;
        const Zone z = cannon ? Zone::Front : classify(x.pose, y.pose);
        if (y.side == x.side) {
            // 12.2.7: friends in range to-front stop fire to-front; friends on a flank stop fire to that
            // flank.
            if (z == Zone::Front)
                friendFront = true;
            else if (isFlank(z))
                (x.pose.toLocal(y.pose.c).y > 0 ? friendRight : friendLeft) = true;
            continue;
        }
        if (z == Zone::Front)
            front.push_back({d, int(i)});
        else if (isFlank(z) && x.type != UnitType::Cannon) // 12.2.6: Cannon shoot only to-front
            flank.push_back({d, int(i)});
    }
    // The closest targets in sight (12.2.3, 12.2.5): those in line of sight within 0.05 TUM of the closest
    // one in sight, by distance (then table order). Line of sight is tested nearest first, and only until the
    // targets beyond the closest one in sight by more than 0.05 TUM: the same list as testing every one.
    auto closest = [&](QVarLengthArray<std::pair<double, int>, 32>& l) {
        QList<int> out;
        std::sort(l.begin(), l.end());
        double nearest = -1;
        for (const auto& [d, i] : l) {
            if (nearest >= 0 && d > nearest + 0.05)
                break;
            if (!lineOfSight(s, u, i))
                continue;
            if (nearest < 0)
                nearest = d;
            out << i;
        }
        return out;
    };
    if (!friendFront) {
        QList<int> out = closest(front);
        if (!out.isEmpty()) {
            if (toFront)
                *toFront = true;
            return out;
        }
    }
    if (toFront)
        *toFront = false;
    QVarLengthArray<std::pair<double, int>, 32> ok;
    for (const auto& e : flank) {
        const bool right = x.pose.toLocal(s.units[e.second].pose.c).y > 0;
        if ((right && !friendRight) || (!right && !friendLeft))
            ok.push_back(e);
    }
    return closest(ok);
}

int TvbdEngine::shootingDice(const BattleState& s, int shooter, int target, bool primary) const {
    const Unit& x = s.units[shooter];
    const Unit& t = s.units[target];
    if (!primary)
        return 1; // 12.2.8 secondary shooter
    const Zone z = classify(x.pose, t.pose);
    if (z != Zone::Front) {
        if (x.large && x.resolve >= r.largeFlankMinResolve)
            return r.largeFlankDice; // 16.3.3
        return 1;
    }
    int dice = x.large ? std::min(x.resolve, r.largeCap.value(int(x.quality), 4)) : x.resolve;
    if (x.type == UnitType::Horse && inDifficult(s, shooter))
        --dice; // 12.2.12
    if (r.type(t.type).cover && inDifficult(s, target))
        --dice; // 12.2.13 cover
    if (t.type != UnitType::Commander && !isCavalry(t.type) && behindFortification(s, target, x.pose.c))
        --dice; // 16.5.4 field fortification
    return std::max(1, dice);
}

void TvbdEngine::hit(BattleState& s, int u, int n, bool combat, bool routMarker, const QString& why) const {
    Unit& x = s.units[u];
    if (n <= 0 || !x.onTable())
        return;
    x.resolve -= n;
    if (combat)
        x.combatLoss += n;
    if (x.resolve <= 0) {
        x.resolve = 0;
        s.note(QStringLiteral("%1: %2 routs").arg(why, x.id));
        s.routsThisTurn << RoutRecord{u, x.pose.c, routMarker};
        removeUnit(s, u, UnitStatus::Routed);
    } else {
        s.note(QStringLiteral("%1: %2 resolve %3").arg(why, x.id).arg(x.resolve));
    }
}

void TvbdEngine::removeUnit(BattleState& s, int u, UnitStatus st) const {
    Unit& x = s.units[u];
    x.status = st;
    if (st != UnitStatus::PursuedOff)
        s.lost[x.side] += x.large ? 2 : 1;
    for (Unit& c : s.units)
        if (c.attachedTo == u)
            c.attachedTo = -1; // digest 6.9 gap: a surviving Commander stays where it is, unattached
}

QList<int> TvbdEngine::attachedCommanders(const BattleState& s, int u) const {
    QList<int> out;
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (s.units[i].type == UnitType::Commander && s.units[i].onTable() && s.units[i].attachedTo == u)
            out << int(i);
    return out;
}

void TvbdEngine::commanderCasualtyCheck(BattleState& s, int ci, bool routed, int enemySide) const {
    Unit& c = s.units[ci];
    if (!c.onTable())
        return;
    const int need = routed ? 5 : 6;
    const int a = s.roll();
    const QString line = QStringLiteral("12.2.15 Commander %1: %2 %3 needing %4+")
                             .arg(c.id, subject(s.sideName[enemySide], "rolls"))
                             .arg(a)
                             .arg(need);
    if (a < need) {
        s.note(line + QStringLiteral(": missed"));
        return;
    }
    const int save = s.roll();
    if (save >= 5) {
        s.note(line + QStringLiteral(": hit; save %1: unharmed").arg(save));
        return;
    }
    s.note(line + QStringLiteral(": hit; save %1: casualty").arg(save));
    removeUnit(s, ci, UnitStatus::Casualty);
    s.commands[c.command].commanderLost = true;
    s.commands[c.command].casualtyMarker = true;
}

void TvbdEngine::resolveShot(BattleState& s, int target, int primary, const QList<int>& secondary) const {
    QList<int> all{primary};
    all << secondary;
    QStringList parts;
    int hits = 0;
    for (int sh : all) {
        const int n = shootingDice(s, sh, target, sh == primary);
        const QList<int> d = s.rollDice(n);
        const int h = hitsOf(d, 6);
        hits += h;
        parts << QStringLiteral("%1 %2d6 [%3]").arg(s.units[sh].id).arg(n).arg(diceText(d));
        s.units[sh].shotMarker = true;
        s.units[sh].actedThisStep = true;
        if (!s.units[sh].fought.contains(target))
            s.units[sh].fought << target;
    }
    const QList<int> cmdrs = attachedCommanders(s, target);
    s.note(QStringLiteral("12.2 %1 at %2: %3, 6 to hit: %4")
               .arg(subject(s.sideName[s.units[primary].side], "shoots"), s.units[target].id,
                    parts.join(QStringLiteral("; ")), counted(hits, "hit")));
    if (hits == 0)
        return;
    hit(s, target, hits, true, true, QStringLiteral("12.2.10"));
    const bool routed = !s.units[target].onTable();
    for (int c : cmdrs)
        commanderCasualtyCheck(s, c, routed, s.units[primary].side);
}

// ---- movement -------------------------------------------------------------------------------------------

bool TvbdEngine::blockedAt(const BattleState& s, int u, const Pose& p, const QList<int>& ignore,
                           QString* why) const {
    return blockedAt(s, u, p, ignore, why, nearArea(s, u, boxOf(p.corners())));
}

bool TvbdEngine::blockedAt(const BattleState& s, int u, const Pose& p, const QList<int>& ignore, QString* why,
                           const Near& near, int passSide) const {
    const Unit& x = s.units[u];
    const std::array<Vec2, 4> pc = p.corners();
    const Box pb = boxOf(pc);
    for (const Vec2& c : pc)
        if (c.x < -1e-6 || c.y < -1e-6 || c.x > s.tableW + 1e-6 || c.y > s.tableD + 1e-6) {
            if (why)
                *why = QStringLiteral("off the table");
            return true;
        }
    bool onCrossing = false;
    for (const Near::Piece& k : near.pieces)
        if ((k.bridge || k.ford) && contains(*k.poly, p.c))
            onCrossing = true;
    for (const Near::Piece& k : near.pieces) {
        const TerrainFeature& f = *k.f;
        if (f.cls == TerrainClass::Open)
            continue;
        if (!k.poly->isEmpty() && !pb.meets(k.box))
            continue;
        if (!overlaps(p, *k.poly, *k.axes, 1e-3))
            continue;
        if (f.cls == TerrainClass::Impassable && !onCrossing) {
            if (why)
                *why = QStringLiteral("8.2 impassable %1").arg(f.type);
            return true;
        }
        if (x.type == UnitType::Cannon && f.cls == TerrainClass::Difficult && !k.bridge &&
            !(onCrossing && f.cls == TerrainClass::Difficult && k.stream)) {
            if (onCrossing && r.terrain.value(QStringLiteral("bridge")).cannonMayCross && !k.ford)
                continue;
            if (why)
                *why = QStringLiteral("12.1.6 limbered Cannon cannot enter difficult terrain");
            return true;
        }
    }
    const double hp = halfDiagonal(p);
    for (qsizetype k = 0; k < near.units.size(); ++k) {
        const int i = near.units[k];
        const Unit& y = s.units[i];
        if (std::abs(y.pose.c.x - p.c.x) > 4 || std::abs(y.pose.c.y - p.c.y) > 4 || y.side == passSide ||
            ignore.contains(i))
            continue;
        if (!apart(p, hp, y.pose, near.half[k], 0) && overlaps(p, y.pose, 1e-3)) {
            if (why)
                *why = QStringLiteral("would overlap %1").arg(y.id);
            return true;
        }
    }
    return false;
}

namespace {
// May `mover` pass through friendly `other` (Table 5)? `straight`: the path is a straight forward or
// backward move with both units facing the same or opposite ways.
bool mayPass(UnitType mover, UnitType other, bool straight) {
    if (other == UnitType::Cannon || other == UnitType::Commander || mover == UnitType::Commander)
        return true;
    if (!straight)
        return false;
    if (isMounted(mover))
        return isMounted(other) || other == UnitType::Shot;
    if (mover == UnitType::Shot)
        return true;
    return false;
}
bool parallel(double a, double b) {
    const double d = std::fmod(std::abs(normDeg(a) - normDeg(b)), 180.0);
    return d < 0.5 || d > 179.5;
}
} // namespace

std::optional<Pose> TvbdEngine::movePath(const BattleState& s, int u, const MoveSpec& m,
                                         const QList<int>& startContacts, QList<Pose>* pathOut,
                                         double* usedOut, bool* straightOut, QString* why) const {
    const Unit& x = s.units[u];
    const TypeInfo& ti = r.type(x.type);
    auto fail = [&](const QString& w) -> std::optional<Pose> {
        if (why)
            *why = w;
        return std::nullopt;
    };
    // The poses along the path, kept only when the caller wants them (the end pose is the last one).
    Pose p = x.pose, last = p;
    auto push = [&](const Pose& q) {
        if (pathOut)
            *pathOut << q;
        last = q;
    };
    if (pathOut) {
        pathOut->clear();
        pathOut->reserve(48);
    }
    push(p);
    double used = 0;
    Vec2 dir = p.forward();
    bool straightPass = false;
    switch (m.kind) {
    case MoveKind::Straight:
        straightPass = true;
        break;
    case MoveKind::Wheel: {
        if (std::abs(m.angle) > r.wheelMax + 1e-9)
            return fail(QStringLiteral("12.1.5 a wheel is at most %1 degrees").arg(r.wheelMax));
        for (int k = pathOut ? 1 : 6; k <= 6; ++k)
            push(wheeled(p, m.angle * k / 6));
        used += wheelCost(p.w, m.angle);
        p = last;
        dir = p.forward();
        straightPass = true;
        break;
    }
    case MoveKind::Oblique:
        if (std::abs(m.angle) > r.obliqueMax + 1e-9)
            return fail(QStringLiteral("12.1.5 an oblique is at most %1 degrees").arg(r.obliqueMax));
        dir = dirDeg(p.facing + m.angle);
        break;
    case MoveKind::AboutFace:
        p.facing = normDeg(p.facing + 180);
        push(p);
        dir = p.forward();
        straightPass = true;
        break;
    case MoveKind::Face: {
        // 12.1.13: the unit turns to face an enemy it is in contact with, front edge to front edge.
        if (!startContacts.contains(m.target))
            return fail(
                QStringLiteral("12.1.13 only a locked unit turns to face an enemy in contact with it"));
        if (m.dist > 0)
            return fail(QStringLiteral("12.1.13 turning to face is the whole move"));
        const Pose& t = s.units[m.target].pose;
        p.facing = normDeg(t.facing + 180);
        p.c = t.c + t.forward() * (t.d / 2 + p.d / 2);
        push(p);
        break;
    }
    case MoveKind::Turn:
        if (m.dist > 0)
            return fail(QStringLiteral("12.1.5 a turn uses the whole move"));
        p.facing = normDeg(p.facing + (m.angle > 0 ? 90 : -90));
        push(p);
        break;
    case MoveKind::Sideways:
        if (m.dist > 0)
            return fail(QStringLiteral("12.1.5 a sideways move uses the whole move"));
        dir = p.right() * (m.angle > 0 ? -1.0 : 1.0);
        for (int k = pathOut ? 1 : 4; k <= 4; ++k)
            push(Pose{p.c + dir * (r.sideStep * k / 4), p.facing, p.w, p.d});
        p = last;
        break;
    case MoveKind::Backward: {
        if (ti.backward <= 0)
            return fail(QStringLiteral("12.1.5 %1 has no backward move").arg(typeLabel(x.type)));
        if (m.dist > ti.backward + 1e-9)
            return fail(QStringLiteral("12.1.3 backward move at most %1 TUM").arg(fmt(ti.backward)));
        dir = p.forward() * -1.0;
        straightPass = true;
        break;
    }
    default:
        return fail(QStringLiteral("not a move for %1").arg(typeLabel(x.type)));
    }
    if (m.kind != MoveKind::Turn && m.kind != MoveKind::Sideways && m.dist > 0) {
        const int steps = std::max(1, int(std::ceil(m.dist / 0.25)));
        const Pose base = p;
        for (int k = pathOut ? 1 : steps; k <= steps; ++k)
            push(Pose{base.c + dir * (m.dist * k / steps), base.facing, base.w, base.d});
        used += m.dist;
        p = last;
    }
    if (usedOut)
        *usedOut = used;
    if (straightOut)
        *straightOut = straightPass;
    return p;
}

std::optional<Pose> TvbdEngine::movePose(const BattleState& s, int u, const MoveSpec& m) const {
    const Unit& x = s.units[u];
    if (!x.onTable() || x.type == UnitType::Commander || (x.type == UnitType::Cannon && !x.limbered))
        return std::nullopt;
    if (m.kind == MoveKind::Unlimber)
        return x.pose;
    return movePath(s, u, m, m.kind == MoveKind::Face ? contacts(s, u) : QList<int>{}, nullptr, nullptr,
                    nullptr, nullptr);
}

std::optional<Pose> TvbdEngine::checkMove(const BattleState& s, int u, const MoveSpec& m, QString* why,
                                          bool evade) const {
    if (evade)
        return computeCheckMove(s, u, m, why, evade);
    // Remembered per thread under the table's fingerprint (what listMoves' memo reads too), the unit and the
    // move: the policy checks the move it chooses, and apply checks it again on the same table. A refusal
    // is taken again when its reason is asked for.
    Memo& mm = memo();
    quint64 key = mix(fingerprint(s, &r), quint64(u));
    for (quint64 v : {quint64(m.kind), bitsOf(m.angle), bitsOf(m.dist), bitsOf(m.to.x), bitsOf(m.to.y),
                      quint64(quint32(m.target))})
        key = mix(key, v);
    if (const auto it = mm.checks.constFind(key); it != mm.checks.constEnd() && (*it || !why))
        return *it;
    mm.trim();
    const std::optional<Pose> p = computeCheckMove(s, u, m, why, false);
    mm.checks.insert(key, p);
    return p;
}

std::optional<Pose> TvbdEngine::computeCheckMove(const BattleState& s, int u, const MoveSpec& m, QString* why,
                                                 bool evade) const {
    const Unit& x = s.units[u];
    const TypeInfo& ti = r.type(x.type);
    // The reason is put together only when the caller wants one (the policies check many moves without): a
    // reason with parts to fill in is given as a function returning it.
    auto fail = [&](auto&& w) -> std::optional<Pose> {
        if (why) {
            if constexpr (std::is_invocable_v<decltype(w)>)
                *why = w();
            else
                *why = w;
        }
        return std::nullopt;
    };
    if (!x.onTable())
        return fail(QStringLiteral("not on the table"));
    Pose p = x.pose;
    // Commanders (12.1.9): any path within the allowance.
    if (x.type == UnitType::Commander) {
        Vec2 to;
        if (m.kind == MoveKind::To)
            to = m.to;
        else if (m.kind == MoveKind::Attach) {
            if (m.target < 0 || m.target >= s.units.size() || s.units[m.target].side != x.side ||
                !s.units[m.target].onTable() || s.units[m.target].type == UnitType::Commander)
                return fail(QStringLiteral("12.1.9 a Commander attaches only to a friendly combat unit"));
            to = s.units[m.target].pose.c;
        } else
            return fail(QStringLiteral("12.1.9 a Commander moves to a point or attaches to a unit"));
        const double len = (to - p.c).length();
        Pose e{to, p.facing, p.w, p.d};
        bool difficult = inDifficult(s, p) || inDifficult(s, e);
        for (int k = 1; k < 8 && !difficult; ++k)
            difficult = inDifficult(s, Pose{p.c + (to - p.c) * (k / 8.0), p.facing, p.w, p.d});
        const double allow = difficult ? ti.moveDifficult : ti.move;
        if (len > allow + 1e-6)
            return fail([&] {
                return QStringLiteral("12.1.3 Commander allowance %1 TUM exceeded (%2)")
                    .arg(fmt(allow), fmt(len));
            });
        if (to.x < 0.5 || to.y < 0.5 || to.x > s.tableW - 0.5 || to.y > s.tableD - 0.5)
            return fail(QStringLiteral("off the table"));
        return e;
    }
    const bool isLimbered = x.type == UnitType::Cannon && x.limbered;
    if (x.type == UnitType::Cannon && !x.limbered) {
        if (m.kind == MoveKind::Pivot) {
            if (x.shotMarker)
                return fail(QStringLiteral("12.1.8 a Cannon that has shot cannot pivot"));
            p.facing = normDeg(m.angle);
            if (blockedAt(s, u, p, {}, why))
                return std::nullopt;
            return p;
        }
        return fail(QStringLiteral("12.1.7 unlimbered Cannon only pivot"));
    }
    if (m.kind == MoveKind::Unlimber) {
        if (!isLimbered)
            return fail(QStringLiteral("12.1.7 only a limbered Cannon unlimbers"));
        return p;
    }
    const bool wheelOnly = ti.wheelOnly || x.quality == Quality::Raw || isLimbered;
    if (wheelOnly && m.kind != MoveKind::Straight && m.kind != MoveKind::Wheel)
        return fail([&] { return QStringLiteral("12.1.5 %1 may only wheel").arg(typeLabel(x.type)); });
    if (x.quality == Quality::Inferior &&
        (m.kind == MoveKind::Oblique || m.kind == MoveKind::Sideways || m.kind == MoveKind::Backward))
        return fail(QStringLiteral("16.3 inferior units may not oblique, sidestep or move backward"));
    const QList<int> startContacts = contacts(s, u);
    if (!startContacts.isEmpty() &&
        !(m.kind == MoveKind::AboutFace || m.kind == MoveKind::Turn || m.kind == MoveKind::Face))
        return fail(QStringLiteral("12.1.13 locked in melee: only a change of facing"));
    if (!startContacts.isEmpty() && m.dist > 0)
        return fail(QStringLiteral("12.1.13 locked in melee: only a change of facing"));
    if (m.dist < 0)
        return fail(QStringLiteral("negative distance"));

    // Build the path: a sequence of poses.
    QList<Pose> path;
    double used = 0;
    bool straightPass = false;
    {
        const auto end = movePath(s, u, m, startContacts, &path, &used, &straightPass, why);
        if (!end)
            return std::nullopt;
        p = *end;
    }
    // The region the path's stands cover: each stand lies within half its diagonal of its centre.
    const double half = 0.5 * std::sqrt(p.w * p.w + p.d * p.d) + 1e-6;
    Box area;
    for (const Pose& q : path)
        area.add(q.c);
    area = area.grown(half);
    const Near near = nearArea(s, u, area);
    // Every legal move ends clear (12.1.12, tested below with the same call): when no reason is wanted,
    // a blocked end settles it before the costlier path checks.
    if (!why && blockedAt(s, u, p, {}, nullptr, near))
        return std::nullopt;
    // Allowance (12.1.3), difficult terrain anywhere on the path caps it.
    bool difficult = false;
    for (const Pose& q : path)
        if (inDifficult(q, near)) {
            difficult = true;
            break;
        }
    double allow = ti.move; // a limbered Cannon's too (its type's 3 TUM)
    if (difficult)
        allow = std::min(allow, ti.moveDifficult);
    if (m.kind == MoveKind::Backward)
        allow = ti.backward;
    if (evade && difficult)
        return fail(QStringLiteral("14.3 an evade stays in open terrain"));
    if (used > allow + 1e-6)
        return fail([&] {
            return QStringLiteral("12.1.3 allowance %1 TUM exceeded (%2)").arg(fmt(allow), fmt(used));
        });

    // Obstacles along the path: enemies never; friends per Table 5 (12.1.12), ending clear. Without a reason
    // wanted, the end pose (the path's last) was found clear above with no stand passed through, so it is
    // clear with some passed through too: it is not tested again. blockedAt looks only at the stands of
    // `near`, so only those are asked whether they may be passed through.
    const qsizetype pathTests = why ? path.size() : path.size() - 1;
    QList<int> passable;
    if (pathTests > 1)
        for (int i : near.units) {
            const Unit& y = s.units[i];
            if (y.side == x.side &&
                mayPass(x.type, y.type, straightPass && parallel(y.pose.facing, p.facing)))
                passable << i;
        }
    for (qsizetype k = 1; k < pathTests; ++k) {
        QString w;
        if (blockedAt(s, u, path[k], passable, why ? &w : nullptr, near))
            return fail([&] { return QStringLiteral("12.1 path blocked: ") + w; });
    }
    if (why && blockedAt(s, u, p, {}, why, near)) {
        if (why)
            *why = QStringLiteral("12.1.12 must end clear: ") + *why;
        return std::nullopt;
    }
    if (!startContacts.isEmpty()) {
        for (int e : startContacts)
            if (wp::tactical::distance(p, s.units[e].pose, 0.1) > kContactEps)
                return fail(QStringLiteral("12.1.13 a locked unit stays in contact"));
        return p;
    }
    // Buffer zone (12.1.10) and zone of control (12.1.11).
    double startMin = 1e9, endMin = 1e9;
    int zocEnemy = -1;
    double zocBest = 1e9;
    bool zocFront = false;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (y.side == x.side || !y.onTable() || y.type == UnitType::Commander)
            continue;
        if ((y.pose.c - x.pose.c).length() > 25)
            continue;
        {
            // An enemy farther from every stand on the path than the buffer zone (and a margin for rounding),
            // whose zone of control lies outside the path's region too, changes nothing below: skipped. The
            // enemy and its zone lie within `reach` of its centre.
            const double hy = 0.5 * std::sqrt(y.pose.w * y.pose.w + y.pose.d * y.pose.d) + r.buffer + 1e-3;
            const double fz = y.pose.d / 2 + r.zocDepth, wz = y.pose.w / 2;
            const double reach = std::max(hy, std::sqrt(fz * fz + wz * wz) + 1e-6);
            if (r.buffer < 3.9 && boxGap(area, boxOf(y.pose.c, y.pose.c)) > reach) // d0, d1 capped at 4 below
                continue;
        }
        const double d0 = wp::tactical::distance(x.pose, y.pose, 4);
        const double d1 = wp::tactical::distance(p, y.pose, 4);
        startMin = std::min(startMin, d0);
        endMin = std::min(endMin, d1);
        const Pose zoc = zocPose(y.pose, r.zocDepth);
        const bool startIn = overlaps(x.pose, zoc, 1e-3);
        if (startIn) {
            const bool front = classify(x.pose, y.pose) == Zone::Front;
            if ((front && !zocFront) || ((front == zocFront) && d0 < zocBest)) {
                zocEnemy = int(i);
                zocBest = d0;
                zocFront = front;
            }
        } else if (!overlaps(p, zoc, 1e-3)) {
            for (const Pose& q : path)
                if (overlaps(q, zoc, 1e-3))
                    return fail(
                        [&] { return QStringLiteral("12.1.11 may not cross the front of %1").arg(y.id); });
        }
    }
    if (endMin < std::min(r.buffer, startMin) - 1e-6)
        return fail([&] {
            return QStringLiteral("12.1.10 buffer zone: ends %1 TUM from an enemy").arg(fmt(endMin));
        });
    if (zocEnemy >= 0 && m.kind != MoveKind::Backward) {
        const Unit& y = s.units[zocEnemy];
        const double d1 = wp::tactical::distance(p, y.pose, zocBest); // capped: `closer` is the same
        const Vec2 away = x.pose.c - y.pose.c;
        const Vec2 moved = p.c - x.pose.c;
        const bool closer = d1 < zocBest - 1e-6;
        const bool directlyAway =
            moved.length() > 1e-6 && away.length() > 1e-6 &&
            moved.dot(away) / (moved.length() * away.length()) > std::cos(25 * kPi / 180);
        const bool stays =
            moved.length() < 1e-6 &&
            (m.kind == MoveKind::Turn || m.kind == MoveKind::AboutFace || m.kind == MoveKind::Wheel);
        if (!closer && !directlyAway && !stays)
            return fail([&] {
                return QStringLiteral(
                           "12.1.11 in the zone of control of %1: only closer, directly away or back")
                    .arg(y.id);
            });
    }
    return p;
}

QList<MoveSpec> TvbdEngine::candidateMoves(const BattleState& s, int u, QList<Pose>* poses) const {
    Memo& m = memo();
    const quint64 key = mix(fingerprint(s, &r), quint64(u));
    auto it = m.moves.constFind(key);
    if (it == m.moves.constEnd()) {
        m.trim();
        QList<Pose> ps;
        QList<MoveSpec> l = listMoves(s, u, &ps, false);
        it = m.moves.insert(key, {std::move(l), std::move(ps)});
    }
    if (poses)
        *poses << it->second;
    return it->first;
}

bool TvbdEngine::hasCandidateMove(const BattleState& s, int u) const {
    Memo& m = memo();
    const quint64 key = mix(fingerprint(s, &r), quint64(u));
    if (const auto it = m.moves.constFind(key); it != m.moves.constEnd())
        return !it->first.isEmpty();
    auto it = m.hasMove.constFind(key);
    if (it == m.hasMove.constEnd()) {
        m.trim();
        it = m.hasMove.insert(key, !listMoves(s, u, nullptr, true).isEmpty());
    }
    return *it;
}

std::optional<MoveSpec> TvbdEngine::bestListedOption(const BattleState& s, int u,
                                                     const QList<MoveOption>& options,
                                                     std::span<std::pair<double, int>> scored) const {
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    ListedCheck check(*this, s, u, options);
    for (const auto& [score, k] : scored)
        if (check.listed(k))
            return options[k].move;
    return std::nullopt;
}

QList<MoveOption> TvbdEngine::moveOptions(const BattleState& s, int u) const {
    QList<MoveOption> out;
    out.reserve(32);
    const Unit& x = s.units[u];
    const TypeInfo& ti = r.type(x.type);
    auto add = [&](MoveSpec m, int fallbackOf = -1) { out << MoveOption{m, fallbackOf}; };
    if (x.type == UnitType::Commander) {
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const Unit& y = s.units[i];
            if (y.command == x.command && int(i) != u && y.onTable() && int(i) != x.attachedTo)
                add(mv(MoveKind::Attach, 0, 0, int(i)));
        }
        return out;
    }
    if (x.type == UnitType::Cannon && !x.limbered) {
        if (x.shotMarker)
            return out;
        for (double a : {-45.0, -20.0, 20.0, 45.0})
            add(mv(MoveKind::Pivot, normDeg(x.pose.facing + a)));
        return out;
    }
    if (x.type == UnitType::Cannon)
        add(mv(MoveKind::Unlimber));
    const double allow = ti.move;
    for (double d : {1.0, 2.0, 3.0, 4.0, 6.0, 8.0})
        if (d <= allow + 1e-9)
            add(mv(MoveKind::Straight, 0, d));
    for (double a : {-45.0, -20.0, 20.0, 45.0}) {
        const double rest = std::floor((allow - wheelCost(x.pose.w, a)) * 4) / 4;
        add(mv(MoveKind::Wheel, a, 0));
        if (rest > 0.2) {
            add(mv(MoveKind::Wheel, a, rest));
            add(mv(MoveKind::Wheel, a,
                   std::floor((std::min(allow, 3.0) - wheelCost(x.pose.w, a)) * 100) / 100),
                int(out.size()) - 1);
        }
    }
    for (double a : {-30.0, 30.0})
        add(mv(MoveKind::Oblique, a, std::min(allow, 3.0)));
    add(mv(MoveKind::AboutFace, 0, 0));
    add(mv(MoveKind::Turn, 1));
    add(mv(MoveKind::Turn, -1));
    add(mv(MoveKind::Sideways, 1));
    add(mv(MoveKind::Sideways, -1));
    if (ti.backward > 0)
        add(mv(MoveKind::Backward, 0, ti.backward));
    for (int e : contacts(s, u)) { // 12.1.13: face an enemy behind-flank or to-rear, if there is space
        const Zone z = classify(x.pose, s.units[e].pose);
        if (z == Zone::BehindFlank || z == Zone::Rear)
            add(mv(MoveKind::Face, 0, 0, e));
    }
    return out;
}

QList<MoveSpec> TvbdEngine::listMoves(const BattleState& s, int u, QList<Pose>* poses, bool firstOnly) const {
    QList<MoveSpec> out;
    const QList<MoveOption> options = moveOptions(s, u);
    if (firstOnly) {
        // Whether anything is listed: some option is legal (a fallback too: it is listed or its primary is),
        // so the changes of facing in place, which walk no path, are tried first.
        auto inPlace = [](const MoveSpec& m) {
            return m.kind == MoveKind::Turn || (m.kind == MoveKind::AboutFace && m.dist == 0);
        };
        for (int pass = 0; pass < 2; ++pass)
            for (const MoveOption& o : options)
                if (inPlace(o.move) == (pass == 0) && checkMove(s, u, o.move)) {
                    out << o.move;
                    return out;
                }
        return out;
    }
    QVarLengthArray<bool, 64> legal(options.size(), false);
    for (qsizetype i = 0; i < options.size(); ++i) {
        const MoveOption& o = options[i];
        if (o.fallbackOf >= 0 && legal[o.fallbackOf])
            continue;
        if (const auto p = checkMove(s, u, o.move)) {
            legal[i] = true;
            out << o.move;
            if (poses)
                *poses << *p;
        }
    }
    return out;
}

void TvbdEngine::syncAttached(BattleState& s, int u) const {
    for (Unit& c : s.units)
        if (c.type == UnitType::Commander && c.attachedTo == u && c.onTable())
            c.pose.c = s.units[u].pose.c;
}

// ---- charges -------------------------------------------------------------------------------------------

QList<int> TvbdEngine::commanderChargeTargets(const BattleState& s, int c) const {
    QList<int> out;
    const Unit& x = s.units[c];
    if (x.type != UnitType::Commander || !x.onTable() || x.chargeTarget >= 0)
        return out;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (int(i) == x.attachedTo || y.command != x.command || !y.onTable() || y.type == UnitType::Commander)
            continue;
        const bool declared = y.chargeTarget >= 0;
        if (!declared && !locked(s, int(i)))
            continue;
        const double reach = r.type(x.type).charge + (declared ? r.type(y.type).charge : 0);
        if ((y.pose.c - x.pose.c).length() <= reach + 1e-6)
            out << int(i);
    }
    return out;
}

TvbdEngine::Near TvbdEngine::chargeArea(const BattleState& s, int u) const {
    // A wheel turns the stand about a front corner, half its diagonal from its centre: the wheeled centre
    // lies within a diagonal of the centre, the charge then moves it at most the charge distance, and the
    // stand lies within half its diagonal of its centre. Enemies are touched within 5 TUM (each axis).
    const Pose& p = s.units[u].pose;
    const double half = 0.5 * std::sqrt(p.w * p.w + p.d * p.d);
    const double reach = r.type(s.units[u].type).charge;
    return nearArea(s, u, boxOf(p.c, p.c).grown(3 * half + reach + 1e-6), 5);
}

std::optional<ChargePlan> TvbdEngine::chargePlan(const BattleState& s, int u, int target) const {
    // Remembered like chargeOptions (the table and the charger's pose; the policy's odds resolve the same
    // first charges on many copies of one table) ...
    Memo& m = memo();
    const quint64 key = mix(tableKey(s, &r, u), quint64(quint32(target)));
    if (const auto it = m.plans.constFind(key); it != m.plans.constEnd())
        return *it;
    // ... and under a key of only what the plan reads (chargePlan with `near` below): the rules, the table's
    // size, the terrain pieces about (the terrain's hash and the charger's pose name them), the charger's and
    // the target's kind, side and pose, and each stand about (its index, side and pose).
    const Near near = chargeArea(s, u);
    auto words = [](quint64 h, const Unit& y) {
        h = mix(h, quint64(y.status) | quint64(y.side) << 4 | quint64(y.type) << 8);
        for (double v : {y.pose.c.x, y.pose.c.y, y.pose.facing, y.pose.w, y.pose.d})
            h = mix(h, bitsOf(v));
        return h;
    };
    quint64 nearKey = mix(quint64(reinterpret_cast<quintptr>(&r)), near.terrain);
    nearKey = mix(mix(nearKey, bitsOf(s.tableW)), bitsOf(s.tableD));
    nearKey = words(mix(nearKey, quint64(u)), s.units[u]);
    nearKey = words(mix(nearKey, quint64(quint32(target))), s.units[target]);
    for (int i : near.units)
        nearKey = words(mix(nearKey, quint64(i)), s.units[i]);
    m.trim();
    auto it = m.nearPlans.constFind(nearKey);
    if (it == m.nearPlans.constEnd())
        it = m.nearPlans.insert(nearKey, chargePlan(s, u, target, near));
    m.plans.insert(key, *it);
    return *it;
}

std::optional<ChargePlan> TvbdEngine::chargePlan(const BattleState& s, int u, int target,
                                                 const Near& near) const {
    const Unit& x = s.units[u];
    const Unit& t = s.units[target];
    if (!isFormed(x.type) || !t.onTable() || t.side == x.side || t.type == UnitType::Commander)
        return std::nullopt;
    const double reach = r.type(x.type).charge;
    if (distance(s, u, target, reach + 0.1) > reach + 1e-6)
        return std::nullopt;
    const Zone start = classify(t.pose, x.pose);
    auto allowed = [&](Zone c) {
        // 14.4.2
        switch (start) {
        case Zone::Front:
            return c == Zone::Front;
        case Zone::FrontFlank:
            return c == Zone::FrontFlank || c == Zone::Front;
        case Zone::BehindFlank:
            return c == Zone::BehindFlank || c == Zone::FrontFlank;
        case Zone::Rear:
            return c == Zone::Rear || c == Zone::BehindFlank;
        case Zone::None:
            break;
        }
        return false;
    };
    std::optional<ChargePlan> best;
    auto tryAngle = [&](double a) {
        const double cost = wheelCost(x.pose.w, a);
        if (cost > reach)
            return;
        // A plan replaces the best so far only when its wheel and straight distance together are shorter by
        // more than 1e-9 (below): a wheel costing that much already, or a straight part reaching that far
        // without touching, cannot win (the same choice, without walking it).
        const double bound = best ? wheelCost(x.pose.w, best->wheel) + best->dist - 1e-9 : 0;
        if (best && cost >= bound)
            return;
        const Pose w0 = a == 0 ? x.pose : wheeled(x.pose, a);
        {
            // The straight part sweeps this rectangle: a target that does not touch it cannot be the first
            // stand touched (a cheap test that spares the step-by-step walk for most angles).
            const double span = reach - cost;
            const Pose sweep{w0.c + w0.forward() * (span / 2), w0.facing, w0.w, w0.d + span};
            if (overlapSide(sweep, t.pose, -1e-5) < 0 || wp::tactical::distance(sweep, t.pose, 0.01) > 1e-6)
                return;
        }
        // the wheel itself must not hit anything
        if (a != 0)
            for (int k = 1; k <= 3; ++k) {
                const Pose q = wheeled(x.pose, a * k / 3);
                if (blockedAt(s, u, q, {}, nullptr, near) &&
                    !(k == 3 && distance(s, u, target, 0.1) <= kContactEps))
                    return;
            }
        // straight until the first touch of any enemy
        const Vec2 f = w0.forward();
        const double hx = halfDiagonal(w0);
        double lo = 0, hi = -1;
        const double maxD = reach - cost;
        int firstHit = -1;
        const double step = 0.25; // stands are at least 1 TUM deep: no stand is stepped over
        for (double d = 0; d <= maxD + 1e-9; d += step) {
            if (best && cost + lo >= bound)
                return; // the touch lies beyond lo: no shorter than the best
            const double dd = std::min(d, maxD);
            const Pose q{w0.c + f * dd, w0.facing, w0.w, w0.d};
            // touching any enemy?
            int touched = -1;

            for (qsizetype k = 0; k < near.units.size(); ++k) { // the stands within 5 TUM of any pose of the
                const int i = near.units[k];                    // charge, in table order
                const Unit& y = s.units[i];
                if (y.side == x.side)
                    continue;
                if (std::abs(y.pose.c.x - q.c.x) > 5 || std::abs(y.pose.c.y - q.c.y) > 5 ||
                    apart(q, hx, y.pose, near.half[k], 0.01))
                    continue;
                const int sep = overlapSide(q, y.pose, 0);
                if (sep > 0 || (sep == 0 && (wp::tactical::distance(q, y.pose, 0.01) <= 1e-9 ||
                                             overlaps(q, y.pose, 0)))) {
                    touched = i;
                    break;
                }
            }
            if (touched >= 0) {
                hi = dd;
                firstHit = touched;
                break;
            }
            // friends and terrain (charges ignore the buffer zone, 14.1.1)
            if (blockedAt(s, u, q, {}, nullptr, near, 1 - x.side))
                return;
            lo = dd;
            if (dd >= maxD)
                break;
        }
        if (firstHit != target) // none touched, or another stand first
            return;
        // refine the touch point
        for (int it = 0; it < 30; ++it) {
            const double mid = (lo + hi) / 2;
            const Pose q{w0.c + f * mid, w0.facing, w0.w, w0.d};
            const int sep = overlapSide(q, t.pose, 0);
            if (sep > 0 || (sep == 0 && wp::tactical::distance(q, t.pose, 0.01) <= 1e-9)) // capped: the same
                hi = mid;
            else
                lo = mid;
        }
        const Pose end{w0.c + f * hi, w0.facing, w0.w, w0.d};
        const Zone contact = classify(t.pose, end);
        if (!allowed(contact))
            return;
        ChargePlan pl{a, hi, start, contact, end};
        if (!best || cost + hi < wheelCost(x.pose.w, best->wheel) + best->dist - 1e-9)
            best = pl;
    };
    tryAngle(0);
    if (best)
        return best;
    for (double a = 5; a <= r.wheelMax + 1e-9; a += 5) {
        tryAngle(a);
        tryAngle(-a);
    }
    return best;
}

QList<std::pair<int, ChargePlan>> TvbdEngine::chargeOptions(const BattleState& s, int u) const {
    Memo& m = memo();
    const quint64 key = tableKey(s, &r, u);
    auto it = m.charges.constFind(key);
    if (it == m.charges.constEnd()) {
        m.trim();
        it = m.charges.insert(key, computeChargeOptions(s, u));
    }
    return *it;
}

QList<std::pair<int, ChargePlan>> TvbdEngine::computeChargeOptions(const BattleState& s, int u) const {
    QList<std::pair<int, ChargePlan>> out;
    const Unit& x = s.units[u];
    QList<int> near;
    const double hx = halfDiagonal(x.pose);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (y.side != x.side && y.onTable() && y.type != UnitType::Commander &&
            !apart(x.pose, hx, y.pose, halfDiagonal(y.pose), 3 + 1e-6) &&
            distance(s, u, int(i), 3.1) <= 3 + 1e-6)
            near << int(i);
    }
    // 14.1.3 front before flank: an enemy reachable straight ahead is the only target. The plans are
    // kept for the second pass (chargePlan reads only the table: the same answers).
    QList<std::optional<ChargePlan>> plans;
    plans.reserve(near.size());
    for (int t : near) {
        plans << chargePlan(s, u, t);
        const std::optional<ChargePlan>& p = plans.last();
        if (p && p->wheel == 0 && classify(x.pose, s.units[t].pose) == Zone::Front)
            return {{t, *p}};
    }
    for (qsizetype k = 0; k < near.size(); ++k)
        if (plans[k])
            out << std::pair{near[k], *plans[k]};
    return out;
}

// ---- melee ---------------------------------------------------------------------------------------------

bool TvbdEngine::supported(const BattleState& s, int u) const {
    const Unit& x = s.units[u];
    if (x.type == UnitType::Cannon)
        return true;
    if (x.type == UnitType::Commander)
        return false;
    if (isInfantry(x.type) && garrison(s, u))
        return true; // 16.5.5 infantry in field fortifications
    bool friendRear = false;
    const double hx = halfDiagonal(x.pose);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (int(i) == u || !y.onTable() || y.type == UnitType::Commander || y.type == UnitType::Cannon)
            continue;
        if (apart(x.pose, hx, y.pose, halfDiagonal(y.pose), r.supportRange) || // the cheaper tests first
            !inRear(x.pose, y.pose) || distance(s, u, int(i), r.supportRange + 0.1) > r.supportRange + 1e-9)
            continue;
        if (y.side != x.side)
            return false;
        if ((isInfantry(x.type) && isInfantry(y.type)) || (isCavalry(x.type) && isCavalry(y.type)))
            friendRear = true;
    }
    return friendRear;
}

int TvbdEngine::meleeToHit(const BattleState& s, int u, int target) const {
    const Unit& x = s.units[u];
    const Unit& t = s.units[target];
    // 16.5.5: attacking across a field fortification counts as difficult terrain.
    return meleeToHitOf(
        x.type, x.charged, t, [&] { return inDifficult(s, u) || behindFortification(s, target, x.pose.c); },
        [&] { return classify(t.pose, x.pose); });
}

MeleeDice TvbdEngine::meleeDice(const BattleState& s, int u, int target, bool primary) const {
    const Unit& x = s.units[u];
    MeleeDice m;
    m.toHit = meleeToHit(s, u, target);
    bool behind = false;
    for (int e : contacts(s, u)) {
        const Zone z = classify(x.pose, s.units[e].pose);
        if (z == Zone::Rear) {
            m.dice = 0; // 14.5.2 enemy to-rear
            return m;
        }
        if (z == Zone::BehindFlank)
            behind = true;
    }
    if (!primary) {
        m.dice = 1;
        return m;
    }
    if (behind) {
        m.dice = x.large && x.resolve >= r.largeFlankMinResolve ? r.largeFlankDice : 1;
        return m;
    }
    int dice = x.large ? std::min(x.resolve, r.largeCap.value(int(x.quality), 4)) : x.resolve;
    if (x.type == UnitType::Horse && (inDifficult(s, u) || behindFortification(s, target, x.pose.c)))
        --dice; // 14.5.5 (16.5.5: across a field fortification)
    const Unit& t = s.units[target];
    if (x.charged && isInfantry(t.type) && height(s, t.pose.c) > height(s, x.pose.c) + 1e-6)
        --dice; // 14.5.8 favourable terrain (uphill)
    if (!supported(s, u))
        --dice; // 14.5.6
    m.dice = std::max(1, dice);
    return m;
}

void TvbdEngine::rallyBack(BattleState& s, int u) const {
    Unit& x = s.units[u];
    const double full = isCavalry(x.type) ? 3.0 : 1.0; // 14.6 (Dragoons and Rabble as infantry, docs/tvbd.md)
    const Vec2 back = x.pose.forward() * -1.0;
    QList<int> enemies, passable;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const Unit& y = s.units[i];
        if (!y.onTable() || int(i) == u)
            continue;
        if (y.side != x.side)
            continue;
        if (mayPass(x.type, y.type, parallel(x.pose.facing, y.pose.facing)))
            passable << int(i);
    }
    const QList<int> touching = contacts(s, u);
    // Walk back until blocked (stop at the bump); then make sure it ends clear of friends passed through.
    double reached = 0;
    const Pose start = x.pose;
    const Near near = nearArea(s, u,
                               boxOf(start.c, start.c + back * full)
                                   .grown(0.5 * std::sqrt(start.w * start.w + start.d * start.d) + 1e-6));
    for (double d = 0.05; d <= full + 1e-9; d += 0.05) {
        const Pose q{start.c + back * d, start.facing, start.w, start.d};
        QList<int> ignore = passable;
        if (d < 0.2)
            ignore << touching;
        if (blockedAt(s, u, q, ignore, nullptr, near))
            break;
        reached = d;
    }
    while (reached > 0) {
        const Pose q{start.c + back * reached, start.facing, start.w, start.d};
        if (!blockedAt(s, u, q, touching, nullptr, near))
            break;
        reached -= 0.05;
    }
    reached = std::max(0.0, reached);
    x.pose.c = start.c + back * reached;
    x.movedMarker = true;
    syncAttached(s, u);
    s.note(QStringLiteral("14.6 %1 rallies back %2 TUM").arg(x.id, fmt(reached)));
}

} // namespace wp::tactical
