// The Tercios rules engine: values and modifiers, geometry predicates, shooting, melee, Break Checks,
// and the turn sequence with secret orders, initiative, alternate activation and reactions. Log lines cite
// the seed's lines ("Tercios L382") or the decisions of docs/tercios.md ("G17").
#include "tercios.h"

#include "sidewords.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace wp::tactical {

namespace {

QString diceText(const QList<int>& d) {
    QStringList t;
    for (int x : d)
        t << QString::number(x);
    return QLatin1Char('[') + t.join(QLatin1Char(',')) + QLatin1Char(']');
}

int countAtLeast(const QList<int>& d, int target) {
    return int(std::count_if(d.begin(), d.end(), [&](int x) { return x >= target; }));
}

Vec2 unit(Vec2 v) {
    const double l = v.length();
    return l > 1e-12 ? v * (1.0 / l) : Vec2{1, 0};
}

double headingOf(Vec2 v) {
    return normDeg(std::atan2(v.y, v.x) * 180.0 / kPi);
}

// segmentDistance(p, a, b) squared: the same operations without the square root. The square root is
// monotonic and correctly rounded, so the root of the smallest square is the smallest distance, bit for bit.
double segmentDistance2(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 ab = b - a;
    const double l2 = ab.dot(ab);
    double t = l2 > 0 ? (p - a).dot(ab) / l2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    const Vec2 r = p - (a + ab * t);
    return r.x * r.x + r.y * r.y;
}

// Squared distance between the segments a-b and c-d (0 when they cross).
double segSegDistance2(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    auto orient = [](Vec2 p, Vec2 q, Vec2 r) { return (q - p).cross(r - p); };
    const double d1 = orient(a, b, c), d2 = orient(a, b, d), d3 = orient(c, d, a), d4 = orient(c, d, b);
    if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)))
        return 0;
    return std::min({segmentDistance2(a, c, d), segmentDistance2(b, c, d), segmentDistance2(c, a, b),
                     segmentDistance2(d, a, b)});
}

// Distance between the segment a-b and a convex polygon (a Polygon or a stand's Corners).
template <class Poly> double segPolyDistance(const Poly& poly, Vec2 a, Vec2 b) {
    if (contains(poly, a) || contains(poly, b) || segmentCrosses(poly, a, b))
        return 0;
    double best2 = 1e300;
    const qsizetype n = qsizetype(poly.size());
    for (qsizetype i = 0; i < n; ++i)
        best2 = std::min(best2, segSegDistance2(a, b, poly[i], poly[(i + 1) % n]));
    return best2 >= 1e300 ? 1e300 : std::sqrt(best2);
}

// A stand's directions and outline as Pose::forward/right/corners/polygon compute them (the same
// operations, so the same bits), with the direction remembered per thread: facings repeat through
// thousands of queries and after a move most are not whole degrees (a sine and cosine each otherwise).
constexpr std::uint64_t kNoFacing = 0x7ff8dead0000beefULL; // a NaN no facing has: the empty slot's tag is 0
struct DirSlot {
    std::uint64_t tag = 0; // the facing's bits xor kNoFacing
    Vec2 v;
};
thread_local DirSlot dirCache[256];

Vec2 fwdOf(const Pose& p) {
    std::uint64_t bits;
    std::memcpy(&bits, &p.facing, sizeof bits);
    DirSlot& slot = dirCache[(bits * 0x9e3779b97f4a7c15ULL) >> 56];
    if (slot.tag != (bits ^ kNoFacing)) {
        slot.tag = bits ^ kNoFacing;
        slot.v = dirDeg(p.facing);
    }
    return slot.v;
}
Vec2 rightOf(const Pose& p) {
    const Vec2 f = fwdOf(p);
    return {f.y, -f.x};
}
std::array<Vec2, 4> cornersOf(const Pose& p) {
    const Vec2 fw = fwdOf(p);
    const Vec2 f = fw * (p.d / 2);
    const Vec2 rr = Vec2{fw.y, -fw.x} * (p.w / 2);
    return {p.c + f - rr, p.c + f + rr, p.c - f + rr, p.c - f - rr};
}
Polygon polyOf(const Pose& p) {
    const auto k = cornersOf(p);
    return {k[0], k[1], k[2], k[3]};
}

Vec2 centroid(const Polygon& p) {
    Vec2 c;
    for (const Vec2& v : p)
        c = c + v;
    return p.isEmpty() ? c : c * (1.0 / double(p.size()));
}

// 1D6 each until they differ (Tercios L328, L1501); with `byRank` a tie goes to the higher Commander rank
// (L330, G6). Returns the winning side.
int rollOff(TerciosState& s, const QString& what, bool byRank) {
    for (;;) {
        const int ra = s.roll(), rb = s.roll();
        s.note([&] {
            return QStringLiteral("%1: %2 %3, %4 %5")
                .arg(what, subject(s.sideName[0], "rolls"))
                .arg(ra)
                .arg(subject(s.sideName[1], "rolls"))
                .arg(rb);
        });
        if (ra != rb)
            return ra > rb ? 0 : 1;
        if (byRank && s.rank[0] != s.rank[1]) {
            s.note([&] { return QStringLiteral("Tercios L330 tie: the higher-ranked Commander wins"); });
            return s.rank[0] > s.rank[1] ? 0 : 1;
        }
    }
}

// Half the diagonal: no point of the base is farther from its centre.
double radius(const Pose& p) {
    return 0.5 * std::sqrt(p.w * p.w + p.d * p.d) + 1e-9;
}

Vec2 round2(Vec2 v) {
    return {std::round(v.x * 100.0) / 100.0, std::round(v.y * 100.0) / 100.0};
}

} // namespace

// ---- values
// ------------------------------------------------------------------------------------------------

namespace {

// profile()'s answers remembered per thread: a battle asks for a handful of names hundreds of thousands of
// times (a QHash lookup each). The cache shares the engine's profile table (so the TProfile it points to
// cannot go away; another table, or this one changed, clears it) and holds each name (so a name's buffer,
// recognised by its address, cannot be freed and reused for another name).
struct ProfileCache {
    QHash<QString, TProfile> table;
    struct Slot {
        QString name;
        const TProfile* profile = nullptr;
    };
    std::array<Slot, 16> entries;
};
thread_local ProfileCache profileCache;

} // namespace

const TProfile& TerciosEngine::profile(const TerciosState& s, int u) const {
    const QString& name = s.units[u].profile;
    ProfileCache& c = profileCache;
    if (!c.table.isSharedWith(r.profiles)) {
        c.table = r.profiles;
        c.entries = {};
    }
    ProfileCache::Slot& slot = c.entries[(quintptr(name.constData()) >> 4) & 15];
    if (slot.profile && slot.name.constData() == name.constData() && slot.name.size() == name.size())
        return *slot.profile;
    const auto it = c.table.constFind(name);
    if (it == c.table.constEnd())
        return r.profiles.find(name).value(); // (as before the cache)
    slot.name = name;
    slot.profile = &it.value();
    return *slot.profile;
}

bool TerciosEngine::has(const TerciosState& s, int u, TRule rule) const {
    unsigned rules = profile(s, u).rules;
    if (s.units[u].classic)
        rules &= ~unsigned(RSquares | RExtendedArc); // Tercios L1066
    return (rules & rule) != 0;
}

int TerciosEngine::shootBase(const TerciosState& s, int u) const {
    const TProfile& p = profile(s, u);
    return s.units[u].classic ? p.classicShoot : p.shoot;
}

int TerciosEngine::speed(const TerciosState& s, int u, Card order, bool difficult) const {
    int net = 0;
    if (order == Card::Assault)
        net += 1; // Tercios L356
    if (order == Card::Run)
        net += 2; // Tercios L364
    if (difficult)
        net -= 1; // Tercios L483
    return modifiedValue(profile(s, u).speed, net);
}

int TerciosEngine::shootDice(const TerciosState& s, int u, bool readyOrder, bool reaction) const {
    int net = 0;
    if (readyOrder)
        net -= 1; // Tercios L350, L402
    if (reaction)
        net += 1; // Firearms (Tercios L802): every missile weapon is a firearm
    if (weary(s, u))
        net -= 1; // Tercios L292
    return modifiedValue(shootBase(s, u), net);
}

int TerciosEngine::meleeDice(const TerciosState& s, int u, int enemy, bool assault, bool flanked,
                             bool chargedByHorse) const {
    int net = 0;
    if (assault)
        net += 1; // Tercios L356
    if (weary(s, u))
        net -= 1; // Tercios L292
    if (flanked)
        net -= 1; // Tercios L621
    if (allCentresIn(s, s.units[u].pose, FHeight) && !allCentresIn(s, s.units[enemy].pose, FHeight))
        net += 1; // Tercios L706 (G31)
    if (has(s, u, RPikes) && !s.units[u].disordered && chargedByHorse)
        net += 1; // Pikes (Tercios L798)
    if (has(s, u, RHalberds) && s.units[enemy].disordered)
        net += 1; // Halberds (Tercios L800)
    return modifiedValue(profile(s, u).melee, net);
}

unsigned TerciosEngine::coverFeatures(const TerciosState& s, int u, int attacker) const {
    const TUnit& x = s.units[u];
    if (x.building >= 0)
        return FCovered | FProtected; // Tercios L1473
    const Vec2 fc = centre(x.pose, 0);
    const Box pb = boxOf(fc, fc);
    unsigned f = 0;
    for (const TTerrain& t : s.terrain) {
        if (boxesApart(boxOf(t.poly), pb, 0.6 + 1e-9) || t.type == QLatin1String("Building"))
            continue;
        if (!t.linear) {
            if (contains(t.poly, fc))
                f |= t.features; // G29: the Front Centre inside an area piece
        } else if (distance(t.poly, fc) <= 0.6 &&
                   (attacker < 0 || segPolyDistance(t.poly, x.pose.c, s.units[attacker].pose.c) == 0)) {
            f |= t.features; // L708: behind a wall or fence, touching it, the attack from its other side
        }
    }
    return f;
}

int TerciosEngine::courageDice(const TerciosState& s, int u, bool vsShooting, bool flanked, bool charged,
                               int attacker) const {
    const TUnit& x = s.units[u];
    int net = 0;
    if (x.disordered)
        net -= 1; // Tercios L294
    if (flanked)
        net -= 1; // Tercios L621
    const unsigned f = vsShooting || charged ? coverFeatures(s, u, attacker) : 0u;
    if (vsShooting && (f & FCovered))
        net += 1; // Tercios L580
    if (charged && (f & FProtected))
        net += 1; // Tercios L708 (G32)
    if (x.resistSerial == s.serial)
        net += 1; // Resist! reaction (Tercios L428, G22)
    return modifiedValue(profile(s, u).courage, net);
}

int TerciosEngine::disciplineDice(const TerciosState& s, int u, int net) const {
    return modifiedValue(profile(s, u).discipline, net);
}

// ---- geometry
// ------------------------------------------------------------------------------------------------

Vec2 TerciosEngine::centre(const Pose& p, int which) const {
    switch (which) {
    case 1:
        return p.c - rightOf(p) * (p.w / 2);
    case -1:
        return p.c + rightOf(p) * (p.w / 2);
    case 2:
        return p.c - fwdOf(p) * (p.d / 2);
    default:
        return p.c + fwdOf(p) * (p.d / 2);
    }
}

QList<Vec2> TerciosEngine::centres(const Pose& p) const {
    const Vec2 f = fwdOf(p), rt{f.y, -f.x}; // one direction for the four (as centre() computes them)
    return {p.c + f * (p.d / 2), p.c - rt * (p.w / 2), p.c + rt * (p.w / 2), p.c - f * (p.d / 2)};
}

unsigned TerciosEngine::featuresAt(const TerciosState& s, Vec2 p) const {
    unsigned f = 0;
    const Box pb = boxOf(p, p);
    for (const TTerrain& t : s.terrain) {
        if (boxesApart(boxOf(t.poly), pb, 0.6 + 1e-9) || t.type == QLatin1String("Building"))
            continue; // only its occupant is "in" a building (G55)
        if (t.linear ? distance(t.poly, p) <= 0.6 : contains(t.poly, p))
            f |= t.features;
    }
    return f;
}

bool TerciosEngine::onCrossing(const TerciosState& s, Vec2 p) const {
    for (const TTerrain& t : s.terrain)
        if ((t.type == QLatin1String("Bridge") || t.type == QLatin1String("Ford")) && contains(t.poly, p))
            return true;
    return false;
}

bool TerciosEngine::crossesAtBridge(const TerciosState& s, Vec2 a, Vec2 b, const TTerrain& river) const {
    // Sampled every 0.1": the part of the line inside the river must lie on Bridges or Fords.
    const int n = std::max(1, int(std::ceil((b - a).length() / 0.1)));
    for (int i = 0; i <= n; ++i) {
        const Vec2 p = a + (b - a) * (double(i) / n);
        if (contains(river.poly, p) && !onCrossing(s, p))
            return false;
    }
    return true;
}

unsigned TerciosEngine::pathFeatures(const TerciosState& s, Vec2 a, Vec2 b) const {
    unsigned f = 0;
    const Box lb = boxOf(a, b);
    for (const TTerrain& t : s.terrain) {
        if (boxesApart(boxOf(t.poly), lb, 1e-9) || t.type == QLatin1String("Building") ||
            segPolyDistance(t.poly, a, b) != 0)
            continue;
        if (t.type == QLatin1String("River") && crossesAtBridge(s, a, b, t))
            continue; // over a Bridge or Ford the river does not count (Tercios L1469)
        f |= t.features;
    }
    return f;
}

int TerciosEngine::buildingEntered(const TerciosState& s, int u, Vec2 to, Card order) const {
    const TProfile& p = profile(s, u);
    if (order != Card::Ready || s.units[u].building >= 0 || p.type != TType::Foot)
        return -1; // only with a Ready! order, and only Foot (Tercios L1471-1473)
    for (qsizetype i = 0; i < s.terrain.size(); ++i) {
        const TTerrain& t = s.terrain[i];
        if (t.type == QLatin1String("Building") && t.occupant < 0 && contains(t.poly, to))
            return p.company || t.large ? int(i) : -1;
    }
    return -1;
}

bool TerciosEngine::allCentresIn(const TerciosState& s, const Pose& p, unsigned feature) const {
    for (const Vec2& c : centres(p))
        if (!(featuresAt(s, c) & feature))
            return false;
    return true;
}

bool TerciosEngine::lineClear(const TerciosState& s, Vec2 a, Vec2 b, int self, int target, bool sight,
                              int enter) const {
    // Obstacles: other units (Tercios L453, L509) and Impassable (moves) or Hidden (sight) terrain. Those
    // within 3" of the line (unit i as i, terrain piece i as -1 - i) for the gap test.
    QVarLengthArray<int, 8> near;
    const Box lineBox = boxOf(a, b);
    const double x0 = lineBox.x0, x1 = lineBox.x1, y0 = lineBox.y0, y1 = lineBox.y1;
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        if (int(i) == self || int(i) == target || !s.units[i].onTable())
            continue;
        const Pose& up = s.units[i].pose;
        const double m = 3.0 + radius(up); // too far from the line to block it or narrow a gap:
        if (up.c.x < x0 - m || up.c.x > x1 + m || up.c.y < y0 - m || up.c.y > y1 + m)
            continue; // outside the line's box grown by the margin
        if (segmentDistance(up.c, a, b) > 3.0 + 0.5 * std::hypot(up.w, up.d))
            continue;
        const double d = segPolyDistance(cornersOf(up), a, b);
        if (d == 0)
            return false;
        if (d < 3)
            near.append(int(i));
    }
    for (qsizetype i = 0; i < s.terrain.size(); ++i) {
        const TTerrain& t = s.terrain[i];
        const bool blocks = sight ? (t.features & FHidden) != 0 : (t.features & FImpassable) != 0;
        if (!blocks || int(i) == enter || boxesApart(boxOf(t.poly), lineBox, 3.0))
            continue; // (3" or more from the line: neither crossed nor narrowing a gap)
        if (t.type == QLatin1String("Building") && ((self >= 0 && s.units[self].building == int(i)) ||
                                                    (target >= 0 && s.units[target].building == int(i))))
            continue;
        if (sight && !t.linear) {
            bool inside = self >= 0 && contains(t.poly, centre(s.units[self].pose, 0));
            if (target >= 0)
                for (const Vec2& c : centres(s.units[target].pose))
                    inside = inside || contains(t.poly, c);
            if (inside)
                continue; // G28: the shooter or the target is inside that piece (Tercios L578)
        }
        const double d = segPolyDistance(t.poly, a, b);
        if (d == 0 && !sight && t.type == QLatin1String("River") && crossesAtBridge(s, a, b, t))
            continue; // crossing at a Bridge or Ford (Tercios L1469)
        if (d == 0)
            return false;
        if (d < 3)
            near.append(-1 - int(i));
    }
    if (near.size() < 2)
        return true;
    // The 3" gap (Tercios L455, L509; G27): the line may not pass between two obstacles closer than 3".
    QList<Polygon> polys;
    for (const int k : near)
        polys << (k >= 0 ? polyOf(s.units[k].pose) : s.terrain[-1 - k].poly);
    const Vec2 dir = b - a;
    for (qsizetype i = 0; i < polys.size(); ++i)
        for (qsizetype j = i + 1; j < polys.size(); ++j) {
            const double si = dir.cross(centroid(polys[i]) - a), sj = dir.cross(centroid(polys[j]) - a);
            if ((si > 0) == (sj > 0))
                continue;
            if (distance(polys[i], polys[j], 3.0) < 3.0)
                return false;
        }
    return true;
}

bool TerciosEngine::lineOfSight(const TerciosState& s, int u, int t, int source) const {
    const Pose& p = s.units[u].pose;
    const Vec2 from = centre(p, source);
    const Vec2 out = source == 0 ? fwdOf(p) : source == 1 ? rightOf(p) * -1.0 : rightOf(p);
    for (const Vec2& c : centres(s.units[t].pose))
        if ((c - from).dot(out) > 1e-9 && lineClear(s, from, c, u, t, true))
            return true;
    return false;
}

bool TerciosEngine::canShoot(const TerciosState& s, int u, Card order, bool reaction) const {
    (void)reaction;
    if (shootBase(s, u) <= 0 || profile(s, u).weapon.isEmpty())
        return false;
    if (has(s, u, RDragoon) && order != Card::Fire)
        return false; // Dragoon (Tercios L778)
    return true;
}

std::optional<int> TerciosEngine::shotSource(const TerciosState& s, int u, int t) const {
    const TUnit& x = s.units[u];
    const TUnit& y = s.units[t];
    if (y.side == x.side || !y.onTable() || !x.onTable())
        return std::nullopt;
    const double range = profile(s, u).range;
    if ((y.pose.c - x.pose.c).length() >
        range + 0.5 * (std::hypot(x.pose.w, x.pose.d) + std::hypot(y.pose.w, y.pose.d)) + 0.01)
        return std::nullopt;                  // out of range from every Centre
    const bool arc = has(s, u, RExtendedArc); // Tercios L774
    for (int src : {0, 1, -1}) {
        if (src != 0 && !arc)
            break;
        const Pose& p = x.pose;
        const Vec2 from = centre(p, src);
        const Vec2 outN = src == 0 ? fwdOf(p) : src == 1 ? rightOf(p) * -1.0 : rightOf(p);
        // A visible Centre within range (Tercios L515-519; G25 measures from the chosen Centre).
        for (const Vec2& c : centres(y.pose))
            if ((c - from).dot(outN) > 1e-9 && (c - from).length() <= range + 1e-9 &&
                lineClear(s, from, c, u, t, true))
                return src;
    }
    return std::nullopt;
}

QList<ShotOption> TerciosEngine::shotOptions(const TerciosState& s, int u) const {
    QList<ShotOption> out;
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (const auto src = shotSource(s, u, int(t)))
            out << ShotOption{int(t), *src};
    return out;
}

bool TerciosEngine::enemyInSight(const TerciosState& s, int u) const {
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (s.units[t].side != s.units[u].side && s.units[t].onTable() && lineOfSight(s, u, int(t), 0))
            return true;
    return false;
}

bool TerciosEngine::isFlankCharge(const TerciosState& s, const Pose& chargerStart, int t) const {
    const TUnit& y = s.units[t];
    if (has(s, t, RSquares) || y.building >= 0)
        return false; // Tercios L742, L1473
    // G15: the charger's Front Centre starts behind the line through the target's front edge.
    return (centre(chargerStart, 0) - y.pose.c).dot(fwdOf(y.pose)) < y.pose.d / 2 - 1e-6; // Pose::toLocal().x
}

bool TerciosEngine::terrainBlocks(const TerciosState& s, int u, const Pose& p, const Corners& poly, int enter,
                                  int ignoreUnit) const {
    for (qsizetype i = 0; i < s.terrain.size(); ++i) {
        const TTerrain& t = s.terrain[i];
        if (!(t.features & FImpassable) || int(i) == enter || int(i) == s.units[u].building ||
            (ignoreUnit >= 0 && int(i) == s.units[ignoreUnit].building))
            continue;
        if (overlaps(poly, t.poly) && !(t.type == QLatin1String("River") && onCrossing(s, p.c)))
            return true; // (Bridges and Fords take any base, Tercios L1469)
    }
    return false;
}

void TerciosEngine::leaveBuilding(TerciosState& s, int u) const {
    TUnit& x = s.units[u];
    if (x.building < 0)
        return;
    s.note([&] { return QStringLiteral("Tercios L1473 %1 leaves %2").arg(x.id, s.terrain[x.building].id); });
    s.terrain[x.building].occupant = -1;
    x.building = -1;
}

bool TerciosEngine::blockedPose(const TerciosState& s, int u, const Pose& p, bool allowContactWith, int with,
                                int enter) const {
    for (const Vec2& c : cornersOf(p))
        if (c.x < -1e-6 || c.y < -1e-6 || c.x > s.tableW + 1e-6 || c.y > s.tableD + 1e-6)
            return true;
    const Corners poly = cornersOf(p);
    const double rp = radius(p);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const TUnit& y = s.units[i];
        if (int(i) == u || !y.onTable() || (y.pose.c - p.c).length() > rp + radius(y.pose) + 1.0)
            continue; // too far to overlap or to be within 1"
        const Corners other = cornersOf(y.pose);
        if (overlaps(poly, other))
            return true;
        // G54: no voluntary move ends within 1" of an enemy, except a charge into contact.
        if (y.side != s.units[u].side && !(allowContactWith && int(i) == with) &&
            distance(poly, other, 1.0) < 1.0 - 1e-6)
            return true;
    }
    return terrainBlocks(s, u, p, poly, enter, -1);
}

std::optional<Pose> TerciosEngine::checkMove(const TerciosState& s, int u, Vec2 to, Card order,
                                             QString* why) const {
    auto no = [&](const QString& w) -> std::optional<Pose> {
        if (why)
            *why = w;
        return std::nullopt;
    };
    const TUnit& x = s.units[u];
    const Vec2 from = centre(x.pose, 0);
    const Vec2 v = to - from;
    const double len = v.length();
    if (len < 0.05)
        return no(QStringLiteral("the destination is the Front Centre"));
    if (v.dot(fwdOf(x.pose)) < -1e-9)
        return no(QStringLiteral("a turn of more than 90 degrees (Tercios L446)"));
    const int enter = buildingEntered(s, u, to, order);
    if (!lineClear(s, from, to, u, -1, false, enter))
        return no(QStringLiteral(
            "the line crosses a unit, impassable terrain or a gap under 3\" (Tercios L444, L455)"));
    const unsigned f = pathFeatures(s, from, to) | featuresAt(s, from);
    const bool difficult = (f & (FDifficult | FVeryDifficult)) != 0;
    const int sp = speed(s, u, order, difficult);
    if (len > sp + 0.01) // destinations are given in hundredths of an inch
        return no(why ? QStringLiteral("%1\" is beyond Speed %2 (Tercios L448%3)")
                            .arg(len, 0, 'f', 2)
                            .arg(sp)
                            .arg(difficult ? QStringLiteral(", Difficult L483") : QString())
                      : QString());
    Pose p = x.pose;
    p.facing = headingOf(v);
    p.c = to - fwdOf(p) * (p.d / 2);
    if (!blockedPose(s, u, p, false, -1, enter))
        return p;
    // Angle Correction (Tercios L467-471, X5): pivot the base about its Front Centre up to 45 degrees.
    const double heading = p.facing;
    for (int step = 5; step <= 45; step += 5)
        for (int sign : {1, -1}) {
            Pose q = p;
            q.facing = normDeg(heading + sign * step);
            q.c = to - fwdOf(q) * (q.d / 2);
            if (!blockedPose(s, u, q, false, -1, enter))
                return q;
        }
    // Still blocked: the unit goes back to the point where it first contacted the obstacle (Tercios L469;
    // G36, G54: another unit, impassable terrain, the table edge or the 1" around an enemy).
    const Vec2 dir = v * (1.0 / len);
    auto at = [&](double d) {
        Pose q = p;
        q.c = from + dir * d - fwdOf(q) * (q.d / 2);
        return q;
    };
    double lo = 0, hi = len;
    for (double d = 0.25; d < len; d += 0.25) {
        if (blockedPose(s, u, at(d), false, -1, enter)) {
            hi = d;
            break;
        }
        lo = d;
    }
    for (int k = 0; k < 12 && hi - lo > 0.01; ++k) {
        const double mid = (lo + hi) / 2;
        (blockedPose(s, u, at(mid), false, -1, enter) ? hi : lo) = mid;
    }
    if (lo < 0.05 || blockedPose(s, u, at(lo), false, -1, enter))
        return no(QStringLiteral("the unit would overlap, leave the table or end within 1\" of an enemy even "
                                 "with an Angle Correction of 45 degrees, and it contacts the obstacle at "
                                 "once (Tercios L467-471, G54)"));
    return at(lo);
}

bool TerciosEngine::canMoveNow(const TerciosState& s, int u) const {
    return !s.readyDone.contains(QStringLiteral("move")) &&
           !(has(s, u, RSquares) && s.readyDone.contains(QStringLiteral("face")));
}

QList<Vec2> TerciosEngine::candidateMoves(const TerciosState& s, int u, Card order,
                                          QList<Pose>* poses) const {
    QList<Vec2> out;
    const TUnit& x = s.units[u];
    const int sp = speed(s, u, order, false);
    if (sp <= 0)
        return out;
    const Vec2 from = centre(x.pose, 0);
    auto tryDir = [&](Vec2 dir, double maxLen) {
        for (double k : {1.0, 0.75, 0.5, 0.25}) {
            const Vec2 to = round2(from + dir * (maxLen * k));
            if (const auto p = checkMove(s, u, to, order)) {
                for (const Vec2& o : out)
                    if ((o - to).length() < 0.3)
                        return;
                out << to;
                if (poses)
                    *poses << *p;
                return;
            }
        }
    };
    const Vec2 f = fwdOf(x.pose), rt = rightOf(x.pose);
    tryDir(f, sp);
    tryDir(unit(f + rt), sp);
    tryDir(unit(f - rt), sp);
    tryDir(rt, sp / 2.0);
    tryDir(rt * -1.0, sp / 2.0);
    // Toward the nearest enemies, stopping short of them.
    QList<std::pair<double, int>> enemies;
    const Corners xp = cornersOf(x.pose);
    for (qsizetype t = 0; t < s.units.size(); ++t)
        if (s.units[t].side != x.side && s.units[t].onTable())
            enemies << std::pair{distance(xp, cornersOf(s.units[t].pose)), int(t)};
    std::sort(enemies.begin(), enemies.end());
    for (qsizetype i = 0; i < enemies.size() && i < 2; ++i) {
        const Vec2 c = s.units[enemies[i].second].pose.c;
        const Vec2 d = c - from;
        if (d.dot(f) <= 0)
            continue;
        tryDir(unit(d), std::min<double>(sp, std::max(0.5, d.length() - 3.0)));
    }
    return out;
}

bool TerciosEngine::canFace(const TerciosState& s, int u, int dir) const {
    Pose p = s.units[u].pose;
    p.facing = normDeg(p.facing + (dir == 2 ? 180 : dir * 90));
    return !baseBlocked(s, u, p, -1);
}

double TerciosEngine::nearestEnemy(const TerciosState& s, int u, const Pose& p) const {
    double best = 1e9;
    const Corners poly = cornersOf(p);
    const double rp = radius(p);
    for (const TUnit& y : s.units)
        if (y.side != s.units[u].side && y.onTable() &&
            (y.pose.c - p.c).length() - rp - radius(y.pose) < best)
            best = std::min(best, distance(poly, cornersOf(y.pose)));
    return best;
}

bool TerciosEngine::baseBlocked(const TerciosState& s, int u, const Pose& p, int ignore) const {
    for (const Vec2& corner : cornersOf(p))
        if (corner.x < -1e-6 || corner.y < -1e-6 || corner.x > s.tableW + 1e-6 || corner.y > s.tableD + 1e-6)
            return true;
    const Corners ep = cornersOf(p);
    const double rp = radius(p);
    for (qsizetype i = 0; i < s.units.size(); ++i)
        if (int(i) != u && int(i) != ignore && s.units[i].onTable() &&
            (s.units[i].pose.c - p.c).length() <= rp + radius(s.units[i].pose) &&
            overlaps(ep, cornersOf(s.units[i].pose)))
            return true;
    return terrainBlocks(s, u, p, ep, -1, ignore);
}

std::optional<ChargePath> TerciosEngine::chargePath(const TerciosState& s, int u, int t, Card order) const {
    const TUnit& x = s.units[u];
    const TUnit& y = s.units[t];
    if (!x.onTable() || !y.onTable() || profile(s, u).speed <= 0 || x.building >= 0)
        return std::nullopt;
    const Vec2 from = centre(x.pose, 0);
    const int reach = speed(s, u, order, false);
    if (y.building < 0 && (y.pose.c - from).length() - radius(y.pose) > reach + 0.01)
        return std::nullopt; // out of reach even in the open (no base nearer than its radius)
    Polygon tp = polyOf(y.pose);
    if (y.building >= 0) // a unit in a building is reached at the building (Tercios L1473)
        tp = convexHull(tp + s.terrain[y.building].poly);
    if (distance(tp, from) > reach + 0.01)
        return std::nullopt; // out of reach even in the open
    QList<Vec2> targets = centres(y.pose);
    std::sort(targets.begin(), targets.end(),
              [&](Vec2 a, Vec2 b) { return (a - from).length() < (b - from).length(); });
    for (const Vec2& c : targets) {
        const Vec2 v = c - from;
        const double len = v.length();
        if (len < 1e-6 || v.dot(fwdOf(x.pose)) < -1e-9)
            continue; // G13: the 90-degree pivot
        if (!lineClear(s, from, c, u, t, true) || !lineClear(s, from, c, u, t, false))
            continue; // Tercios L603-607
        const Vec2 dir = unit(v);
        Pose p = x.pose;
        p.facing = headingOf(v);
        const Vec2 fw = fwdOf(p); // one facing for the whole sweep
        auto at = [&](double d) {
            Pose q = p;
            q.c = from + dir * d - fw * (q.d / 2);
            return q;
        };
        // In contact: touching or overlapping (an overlap deeper than overlaps()' tolerance has distance 0).
        // A base whose centre is farther from the target's than their radii and the contact gap cannot touch
        // it (the target's own base; a building's hull is larger): no exact test then.
        const double apart = radius(p) + radius(y.pose) + kContactEps + 1e-6;
        auto touches = [&](double d) {
            const Pose q = at(d);
            if (y.building < 0 && (q.c - y.pose.c).length() > apart)
                return false;
            return distance(cornersOf(q), tp, 0.1) <= kContactEps;
        };
        // Sweep to the first contact (G14), from a distance at which the bases cannot yet touch.
        double lo = std::max(0.0, std::min(len, distance(tp, from) - std::hypot(p.w, p.d)));
        double hi = -1;
        for (double d = lo; d <= len + 1e-9; d += 0.25) {
            if (touches(std::min(d, len))) {
                hi = std::min(d, len);
                break;
            }
            lo = std::min(d, len);
        }
        if (hi < 0)
            hi = len;
        for (int k = 0; k < 30 && hi - lo > 1e-4; ++k) {
            const double mid = (lo + hi) / 2;
            (touches(mid) ? hi : lo) = mid;
        }
        const Pose end = at(lo);
        if (overlaps(cornersOf(end), tp))
            continue; // already touching: turning to this Centre would push the base into the target
        const unsigned f = pathFeatures(s, from, centre(end, 0)) | featuresAt(s, from);
        const bool difficult = (f & (FDifficult | FVeryDifficult)) != 0;
        if (lo > speed(s, u, order, difficult) + 1e-6)
            continue;
        // The charger's base may not end overlapping another unit or impassable terrain (Tercios L467).
        if (baseBlocked(s, u, end, t))
            continue;
        ChargePath cp;
        cp.end = end;
        cp.length = lo;
        cp.flank = isFlankCharge(s, x.pose, t);
        cp.veryDifficult = (f & FVeryDifficult) != 0;
        return cp;
    }
    return std::nullopt;
}

// ---- odds

namespace {

// P(k successes) for n dice each succeeding with probability p.
QList<double> binomial(int n, double p) {
    QList<double> out(n + 1, 0.0);
    out[0] = 1;
    for (int i = 0; i < n; ++i)
        for (int k = i + 1; k >= 0; --k)
            out[k] = out[k] * (1 - p) + (k > 0 ? out[k - 1] * p : 0);
    return out;
}

double pFace(int target) {
    return target > 6 ? 0 : target < 1 ? 1 : (7.0 - target) / 6.0;
}

// Distribution of the Wear caused: hits on `dice` at `hitOn`, cancelled by `resist` dice at `resistOn`
// (no Resist roll without hits); *pDisorder = P(hits > 0 and no Resist success).
QList<double> wearDistribution(int dice, int hitOn, int resist, int resistOn, double* pDisorder) {
    const QList<double> h = binomial(dice, pFace(hitOn));
    const QList<double> c = binomial(resist, pFace(resistOn));
    QList<double> w(dice + 1, 0.0);
    *pDisorder = 0;
    for (int hits = 0; hits <= dice; ++hits) {
        if (hits == 0) {
            w[0] += h[0];
            continue;
        }
        for (int k = 0; k <= resist; ++k)
            w[std::max(0, hits - k)] += h[hits] * c[k];
        *pDisorder += h[hits] * c[0];
    }
    return w;
}

// P(a Break Check fails) for a unit that ends with `wear` against its Stamina and original Discipline.
double pBreakFail(int wear, int stamina, int discipline) {
    const int bp = wear - stamina;
    if (bp <= 0)
        return 0;
    if (bp > discipline)
        return 1;
    const QList<double> six = binomial(discipline, 1.0 / 6.0);
    double pass = 0;
    for (int k = bp; k <= discipline; ++k)
        pass += six[k];
    return 1 - pass;
}

} // namespace

ShotOdds TerciosEngine::shotOdds(const TerciosState& s, int u, int t, bool readyOrder, bool reaction) const {
    const TProfile& p = profile(s, u);
    const TProfile& q = profile(s, t);
    ShotOdds o;
    const QList<double> w =
        wearDistribution(shootDice(s, u, readyOrder, reaction), p.gun ? q.defArt : q.defSalvo,
                         courageDice(s, t, true, false, false, u), p.gun ? 6 : 4, &o.pDisorder);
    for (qsizetype k = 0; k < w.size(); ++k) {
        o.expectedWear += double(k) * w[k];
        o.pBreak += w[k] * pBreakFail(s.units[t].wear + int(k), q.stamina, q.discipline);
    }
    return o;
}

MeleeOdds TerciosEngine::meleeOdds(const TerciosState& s, int a, int d, bool flank, bool counter) const {
    const bool aHorse = type(s, a) == TType::Horse, dHorse = type(s, d) == TType::Horse;
    const TProfile& pa = profile(s, a);
    const TProfile& pd = profile(s, d);
    double dis = 0;
    const QList<double> onD =
        wearDistribution(meleeDice(s, a, d, true, false, counter && dHorse), aHorse ? pd.defCav : pd.defInf,
                         courageDice(s, d, false, flank, true, a), 5, &dis);
    const QList<double> onA =
        wearDistribution(meleeDice(s, d, a, counter, flank, aHorse), dHorse ? pa.defCav : pa.defInf,
                         courageDice(s, a, false, false, counter, d), 5, &dis);
    MeleeOdds o;
    for (qsizetype i = 0; i < onD.size(); ++i) {
        o.wearOnTarget += double(i) * onD[i];
        for (qsizetype j = 0; j < onA.size(); ++j) {
            const double pr = onD[i] * onA[j];
            if (i > j)
                o.pWin += pr;
            else if (i < j)
                o.pLose += pr;
            else
                o.pDraw += pr;
        }
    }
    for (qsizetype j = 0; j < onA.size(); ++j)
        o.wearOnAttacker += double(j) * onA[j];
    return o;
}

// ---- resolution
// ----------------------------------------------------------------------------------------------

bool TerciosEngine::orderCheck(TerciosState& s, int u, int net, const QString& why) const {
    const int n = disciplineDice(s, u, net);
    const QList<int> d = s.rollDice(n);
    const bool pass = countAtLeast(d, 5) >= 1;
    s.note([&] {
        return QStringLiteral("Tercios L382 %1 check: %2 Discipline %3 dice %4: %5")
            .arg(why, s.units[u].id)
            .arg(n)
            .arg(diceText(d), pass ? QStringLiteral("passed") : QStringLiteral("failed"));
    });
    return pass;
}

void TerciosEngine::destroy(TerciosState& s, int u, int enemySide, const QString& why) const {
    TUnit& x = s.units[u];
    if (!x.onTable())
        return;
    x.status = TStatus::Destroyed;
    if (x.building >= 0)
        s.terrain[x.building].occupant = -1;
    x.building = -1;
    const int pts = profile(s, u).score;
    s.score[enemySide] += pts;
    s.destroyed[x.side] += 1;
    s.groupQueue.removeAll(u);
    s.pending.reactors.removeAll(u);
    s.note([&] {
        return QStringLiteral("%1: %2 is destroyed; %3 %4 (Tercios L1511; now %5-%6)")
            .arg(why, x.id, subject(s.sideName[enemySide], "scores"))
            .arg(pts)
            .arg(s.score[0])
            .arg(s.score[1]);
    });
}

bool TerciosEngine::breakCheck(TerciosState& s, int u, int enemySide) const {
    TUnit& x = s.units[u];
    const int st = stamina(s, u);
    const int bp = x.wear - st;
    const int disc = profile(s, u).discipline; // the original Discipline (Tercios L560)
    if (bp > disc) {
        s.note([&] {
            return QStringLiteral(
                       "Tercios L562 break check: %1 has %2 Break Points, more than Discipline %3: failed")
                .arg(x.id)
                .arg(bp)
                .arg(disc);
        });
        destroy(s, u, enemySide, QStringLiteral("Tercios L566"));
        return false;
    }
    const QList<int> d = s.rollDice(disc);
    const int sixes = countAtLeast(d, 6);
    if (sixes >= bp) {
        x.wear = st;
        s.note([&] {
            return QStringLiteral(
                       "Tercios L562 break check: %1 needs %2 six(es), rolls %3: passed, Wear back to "
                       "%4 (Weary, L568)")
                .arg(x.id)
                .arg(bp)
                .arg(diceText(d))
                .arg(st);
        });
        return true;
    }
    s.note([&] {
        return QStringLiteral("Tercios L562 break check: %1 needs %2 six(es), rolls %3: failed")
            .arg(x.id)
            .arg(bp)
            .arg(diceText(d));
    });
    destroy(s, u, enemySide, QStringLiteral("Tercios L566"));
    return false;
}

void TerciosEngine::addWear(TerciosState& s, int u, int n, int enemySide, const QString& why) const {
    if (n <= 0 || !s.units[u].onTable())
        return;
    TUnit& x = s.units[u];
    x.wear += n;
    s.note([&] {
        return QStringLiteral("%1: %2 takes %3 Wear (now %4 of Stamina %5)")
            .arg(why, x.id)
            .arg(n)
            .arg(x.wear)
            .arg(stamina(s, u));
    });
    if (x.wear > stamina(s, u))
        breakCheck(s, u, enemySide);
}

void TerciosEngine::resolveShot(TerciosState& s, int u, int t, bool readyOrder, bool reaction,
                                int source) const {
    const TProfile& p = profile(s, u);
    const TProfile& q = profile(s, t);
    const int n = shootDice(s, u, readyOrder, reaction);
    const int def = p.gun ? q.defArt : q.defSalvo; // Tercios L527
    const QList<int> d = s.rollDice(n);
    const int hits = countAtLeast(d, def);
    s.note([&] {
        return QStringLiteral("Tercios L525 %1 shoots %2%3%4: %5 %6 vs %7 Defence %8: %9")
            .arg(s.units[u].id, s.units[t].id,
                 source ? QStringLiteral(" from its %1 Centre (L774)")
                              .arg(source == 1 ? QStringLiteral("left") : QStringLiteral("right"))
                        : QString(),
                 reaction ? QStringLiteral(" (reaction, Firearms+)") : QString())
            .arg(counted(n, "die"), diceText(d),
                 p.gun ? QStringLiteral("Artillery") : QStringLiteral("Salvo"))
            .arg(def)
            .arg(counted(hits, "hit"));
    });
    if (hits == 0)
        return; // Tercios L529
    const int cn = courageDice(s, t, true, false, false, u);
    const int need = p.gun ? 6 : 4; // Tercios L536
    const QList<int> rd = s.rollDice(cn);
    const int cancels = std::min(hits, countAtLeast(rd, need));
    const int succ = countAtLeast(rd, need);
    s.note([&] {
        return QStringLiteral("Tercios L531 %1 resists: Courage %2 dice %3 at %4+: %5 cancelled")
            .arg(s.units[t].id)
            .arg(cn)
            .arg(diceText(rd))
            .arg(need)
            .arg(cancels);
    });
    if (succ == 0 && !s.units[t].disordered) {
        s.units[t].disordered = true;
        s.note(
            [&] { return QStringLiteral("Tercios L542 %1 is Disordered (no success)").arg(s.units[t].id); });
    }
    addWear(s, t, hits - cancels, s.units[u].side, QStringLiteral("Tercios L546"));
}

void TerciosEngine::resistOrder(TerciosState& s, int u) const {
    TUnit& x = s.units[u];
    if (x.wear <= 1) {
        s.note([&] {
            return QStringLiteral("Tercios L372 %1 Resist!: no effect (Wear %2; the last marker stays, G10)")
                .arg(x.id)
                .arg(x.wear);
        });
        return;
    }
    const int n = disciplineDice(s, u, 0);
    const QList<int> d = s.rollDice(n);
    const int fives = countAtLeast(d, 5);
    if (fives == 0) {
        s.note([&] {
            return QStringLiteral("Tercios L372 %1 Resist!: Discipline %2 dice %3: failed")
                .arg(x.id)
                .arg(n)
                .arg(diceText(d));
        });
        return;
    }
    const int remove = has(s, u, RLarge) ? fives : 1; // Large (Tercios L746)
    const int before = x.wear;
    x.wear = std::max(1, x.wear - remove);
    s.note([&] {
        return QStringLiteral("Tercios L372 %1 Resist!: Discipline %2 dice %3: Wear %4 -> %5%6")
            .arg(x.id)
            .arg(n)
            .arg(diceText(d))
            .arg(before)
            .arg(x.wear)
            .arg(has(s, u, RLarge) ? QStringLiteral(" (Large, one per 5+, L746)") : QString());
    });
}

double TerciosEngine::slide(TerciosState& s, int u, Vec2 dir, double dist) const {
    TUnit& x = s.units[u];
    const Vec2 d = unit(dir);
    double done = 0;
    const double step = 0.1;
    while (done < dist - 1e-9) {
        const double inc = std::min(step, dist - done);
        Pose p = x.pose;
        p.c = p.c + d * inc;
        bool blocked = false;
        for (const Vec2& c : cornersOf(p))
            if (c.x < -1e-6 || c.y < -1e-6 || c.x > s.tableW + 1e-6 || c.y > s.tableD + 1e-6)
                blocked = true; // G36: the table edge stops the move
        const Corners np = cornersOf(p), op = cornersOf(x.pose);
        const double rp = radius(p);
        for (qsizetype i = 0; i < s.units.size() && !blocked; ++i) {
            if (int(i) == u || !s.units[i].onTable() ||
                (s.units[i].pose.c - p.c).length() > rp + radius(s.units[i].pose) + 2.0)
                continue; // more than 2" away: neither within 1" nor overlapping
            const Corners other = cornersOf(s.units[i].pose);
            const double after = distance(np, other, 2.0);
            // Stops 1" short of units (G36); a unit it already touches (distance 0 both before and after:
            // a cut-back move ends in contact, L469) stops it as soon as the bases would overlap.
            if ((after < 1.0 && after < distance(op, other, 2.0) - 1e-9) || overlaps(np, other))
                blocked = true;
        }
        const Box nb = boxOf(np);
        for (const TTerrain& t : s.terrain)
            if (!blocked && (t.features & FImpassable) && !boxesApart(boxOf(t.poly), nb, 1.0 + 1e-9) &&
                distance(np, t.poly, 2.0) < 1.0 &&
                distance(np, t.poly, 2.0) < distance(op, t.poly, 2.0) - 1e-9)
                blocked = true;
        if (blocked)
            break;
        x.pose = p;
        done += inc;
    }
    if (done > 0)
        leaveBuilding(s, u);
    return done;
}

void TerciosEngine::faceTowards(TerciosState& s, int u, Vec2 p) const {
    const Vec2 to = p - s.units[u].pose.c;
    int best = 0;
    double bestDot = to.dot(fwdOf(s.units[u].pose));
    for (int dir : {1, -1, 2}) {
        const Vec2 f = dirDeg(s.units[u].pose.facing + (dir == 2 ? 180 : dir * 90));
        if (to.dot(f) > bestDot + 1e-9 && canFace(s, u, dir)) {
            bestDot = to.dot(f);
            best = dir;
        }
    }
    if (best) {
        s.units[u].pose.facing = normDeg(s.units[u].pose.facing + (best == 2 ? 180 : best * 90));
        s.note([&] {
            return QStringLiteral("Tercios L461 %1 changes facing (%2)")
                .arg(s.units[u].id, best == 2   ? QStringLiteral("back")
                                    : best == 1 ? QStringLiteral("left")
                                                : QStringLiteral("right"));
        });
    }
}

int TerciosEngine::melee(TerciosState& s, int a, int d, bool flank, bool counter) const {
    const bool aHorse = type(s, a) == TType::Horse, dHorse = type(s, d) == TType::Horse;
    const int aDice = meleeDice(s, a, d, true, false, counter && dHorse);
    const int dDice = meleeDice(s, d, a, counter, flank, aHorse);
    const int aSide = s.units[a].side, dSide = s.units[d].side;
    s.note([&] {
        return QStringLiteral("Tercios L594 melee: %1 (Melee %2) against %3 (Melee %4)%5%6")
            .arg(s.units[a].id)
            .arg(aDice)
            .arg(s.units[d].id)
            .arg(dDice)
            .arg(flank ? QStringLiteral(", flank charge (L617)") : QString(),
                 counter ? QStringLiteral(", countercharge (L406)") : QString());
    });
    // The rounds are simultaneous (Tercios L629): both pools are fixed before any roll.
    auto round = [&](int roller, int target, int dice, bool targetFlanked, bool targetCharged,
                     int* zeroSucc) {
        const bool horse = type(s, roller) == TType::Horse;
        const int def = horse ? profile(s, target).defCav : profile(s, target).defInf; // Tercios L633, L788
        const QList<int> rd = s.rollDice(dice);
        const int hits = countAtLeast(rd, def);
        s.note([&] {
            return QStringLiteral("Tercios L633 %1 rolls %2 vs %3 Defence %4: %5")
                .arg(s.units[roller].id, diceText(rd),
                     horse ? QStringLiteral("Cavalry") : QStringLiteral("Infantry"))
                .arg(def)
                .arg(counted(hits, "hit"));
        });
        *zeroSucc = 0;
        if (hits == 0)
            return 0; // G33: no Resist roll without hits
        const int cn = courageDice(s, target, false, targetFlanked, targetCharged, roller);
        const QList<int> cd = s.rollDice(cn);
        const int succ = countAtLeast(cd, 5);
        s.note([&] {
            return QStringLiteral("Tercios L638 %1 resists: Courage %2 dice %3 at 5+: %4 cancelled")
                .arg(s.units[target].id)
                .arg(cn)
                .arg(diceText(cd))
                .arg(std::min(succ, hits));
        });
        if (succ == 0) {
            *zeroSucc = 1;
            if (!s.units[target].disordered) {
                s.units[target].disordered = true;
                s.note([&] {
                    return QStringLiteral("Tercios L642 %1 is Disordered (no success)")
                        .arg(s.units[target].id);
                });
            }
        }
        return std::max(0, hits - succ);
    };
    int dZero = 0, aZero = 0;
    const int wearOnD = round(a, d, aDice, flank, true, &dZero);
    const int wearOnA = round(d, a, dDice, false, counter, &aZero);
    // Wear first, then the winner, then the Break Checks, then the moves (G34).
    s.units[d].wear += wearOnD;
    s.units[a].wear += wearOnA;
    if (wearOnD)
        s.note([&] {
            return QStringLiteral("Tercios L646 %1 takes %2 Wear (now %3)")
                .arg(s.units[d].id)
                .arg(wearOnD)
                .arg(s.units[d].wear);
        });
    if (wearOnA)
        s.note([&] {
            return QStringLiteral("Tercios L646 %1 takes %2 Wear (now %3)")
                .arg(s.units[a].id)
                .arg(wearOnA)
                .arg(s.units[a].wear);
        });
    const int result = wearOnD > wearOnA ? 1 : wearOnA > wearOnD ? -1 : 0;
    const int winner = result > 0 ? a : result < 0 ? d : -1;
    const int loser = result > 0 ? d : result < 0 ? a : -1;
    s.note([&] {
        return result == 0 ? QStringLiteral("Tercios L676 draw (%1-%2)").arg(wearOnD).arg(wearOnA)
                           : QStringLiteral("Tercios L652 %1 wins (%2-%3)")
                                 .arg(s.units[winner].id)
                                 .arg(std::max(wearOnD, wearOnA))
                                 .arg(std::min(wearOnD, wearOnA));
    });
    if (s.units[d].wear > stamina(s, d))
        breakCheck(s, d, aSide);
    if (s.units[a].wear > stamina(s, a))
        breakCheck(s, a, dSide);
    auto disengage = [&](int u, int enemy, bool flanked) {
        if (!s.units[u].onTable())
            return;
        if (flanked) // Tercios L660: a flank-charged unit first faces its enemy
            faceTowards(s, u, s.units[enemy].pose.c);
        const double got = slide(s, u, fwdOf(s.units[u].pose) * -1.0, 3.0);
        s.note([&] {
            return QStringLiteral("Tercios L658 %1 disengages %2\"").arg(s.units[u].id).arg(got, 0, 'f', 1);
        });
        if (got < 3.0 - 1e-6)
            addWear(s, u, 1, s.units[enemy].side, QStringLiteral("Tercios L662 blocked disengage"));
    };
    if (result == 0) {
        disengage(a, d, false); // Tercios L676: the charger disengages
    } else {
        const bool shameful = loser == d ? dZero : aZero;
        const bool loserFlanked = loser == d && flank;
        if (s.units[loser].onTable()) {
            if (type(s, loser) == TType::Artillery) {
                destroy(s, loser, s.units[winner].side, QStringLiteral("Tercios L790 No Escape"));
            } else if (shameful) {
                if (type(s, winner) == TType::Horse && s.units[winner].onTable() &&
                    type(s, loser) != TType::Horse) {
                    destroy(s, loser, s.units[winner].side, QStringLiteral("Tercios L768 Pursuit"));
                    const double got =
                        slide(s, winner, fwdOf(s.units[winner].pose), profile(s, winner).speed);
                    s.note([&] {
                        return QStringLiteral("Tercios L768 %1 pursues %2\" straight ahead")
                            .arg(s.units[winner].id)
                            .arg(got, 0, 'f', 1);
                    });
                } else {
                    if (loserFlanked)
                        faceTowards(s, loser, s.units[winner].pose.c);
                    const double want = 2.0 * profile(s, loser).speed; // G35
                    const double got = slide(s, loser, fwdOf(s.units[loser].pose) * -1.0, want);
                    TUnit& l = s.units[loser];
                    l.pose.facing = normDeg(l.pose.facing + 180);
                    l.disordered = true;
                    s.note([&] {
                        return QStringLiteral(
                                   "Tercios L670 %1 suffers a Shameful Defeat: retreats %2\", turns "
                                   "about, Disordered")
                            .arg(l.id)
                            .arg(got, 0, 'f', 1);
                    });
                    if (got < want - 1e-6)
                        addWear(s, loser, 1, s.units[winner].side,
                                QStringLiteral("Tercios L674 blocked retreat"));
                }
            } else {
                disengage(loser, winner, loserFlanked);
            }
        }
        if (s.units[winner].onTable() && nearestEnemy(s, winner, s.units[winner].pose) < 1.0 - 1e-6) {
            slide(s, winner, fwdOf(s.units[winner].pose) * -1.0, 1.0); // G38
            s.note([&] {
                return QStringLiteral("Tercios L666 %1 steps back to keep its distance")
                    .arg(s.units[winner].id);
            });
        }
    }
    return result;
}

// ---- the sequence
// ------------------------------------------------------------------------------------------

void TerciosEngine::start(TerciosState& s) const {
    int cropRoll = 0;
    QHash<QString, int> pieceRoll; // the segments of one line piece share its roll
    for (TTerrain& t : s.terrain) {
        const TTerrainType& tt = r.terrain[t.type];
        if (tt.roll.isEmpty())
            continue;
        if (t.roll) {
            pieceRoll.insert(t.id, t.roll);
            continue;
        }
        if (tt.rollAll && cropRoll) {
            t.roll = cropRoll;
        } else if (!tt.rollAll && pieceRoll.contains(t.id)) {
            t.roll = pieceRoll.value(t.id);
        } else {
            t.roll = s.roll();
            if (tt.rollAll)
                cropRoll = t.roll;
            pieceRoll.insert(t.id, t.roll);
            s.note([&] {
                return QStringLiteral("Tercios %1 %2 roll %3")
                    .arg(t.type == QLatin1String("River") ? QStringLiteral("L1485") : QStringLiteral("L1475"),
                         t.type)
                    .arg(t.roll);
            });
        }
        t.features = tt.roll[t.roll - 1];
    }
    bool reserve = false;
    for (const TUnit& u : s.units)
        reserve = reserve || u.status == TStatus::Reserve;
    if (!reserve) {
        beginTurn(s);
        return;
    }
    // The set-up (Tercios L1497-1505): orientation (G48: 1-3 the long edges), then the deployment roll.
    if (s.orientationFixed) {
        s.note([&] {
            return QStringLiteral(
                       "Tercios L1497 orientation (rolled by the export, G48): the armies face each other "
                       "across the %1 edges")
                .arg(s.deployLong ? QStringLiteral("long") : QStringLiteral("short"));
        });
    } else {
        const int o = s.roll();
        s.deployLong = o <= 3;
        s.note([&] {
            return QStringLiteral("Tercios L1497 orientation roll %1: the armies face each other across the "
                                  "%2 edges (G48)")
                .arg(o)
                .arg(s.deployLong ? QStringLiteral("long") : QStringLiteral("short"));
        });
    }
    s.stepSide = rollOff(s, QStringLiteral("Tercios L1501 deployment roll"), false);
    s.phase = TPhase::DeploySide;
}

std::optional<QList<Pose>> TerciosEngine::deployPoses(const TerciosState& s, int reg, Vec2 at,
                                                      QString* why) const {
    auto no = [&](const QString& w) -> std::optional<QList<Pose>> {
        if (why)
            *why = w;
        return std::nullopt;
    };
    const TRegiment& rg = s.regiments[reg];
    const int edge = s.deployEdge[rg.side];
    const double depth = s.deployLong ? s.tableD : s.tableW;
    const double lo = edge == 0 ? 0 : depth / 2 + 12, hi = edge == 0 ? depth / 2 - 12 : depth; // L1503
    Pose line;
    line.facing = s.deployLong ? (edge == 0 ? 90 : 270) : (edge == 0 ? 0 : 180);
    double total = -1;
    for (int u : rg.units)
        total += s.units[u].pose.w + 1;
    double off = -total / 2;
    QList<Pose> out;
    for (int u : rg.units) {
        Pose p = s.units[u].pose;
        p.facing = line.facing;
        p.c = at + rightOf(line) * (off + p.w / 2);
        off += p.w + 1; // side by side, 1" apart: every unit within 6" of another (L1505)
        for (const Vec2& c : cornersOf(p)) {
            const double d = s.deployLong ? c.y : c.x;
            if (c.x < -1e-6 || c.y < -1e-6 || c.x > s.tableW + 1e-6 || c.y > s.tableD + 1e-6 ||
                d < lo - 1e-6 || d > hi + 1e-6)
                return no(QStringLiteral("%1 would be outside the deployment area (Tercios L1503-1505)")
                              .arg(s.units[u].id));
        }
        const Corners poly = cornersOf(p);
        for (const TUnit& y : s.units)
            if (y.onTable() && overlaps(poly, cornersOf(y.pose)))
                return no(QStringLiteral("%1 would overlap %2").arg(s.units[u].id, y.id));
        for (const Pose& q : out)
            if (overlaps(p, q))
                return no(QStringLiteral("the regiment's bases would overlap"));
        if (terrainBlocks(s, u, p, poly, -1, -1))
            return no(QStringLiteral("%1 would stand on impassable terrain").arg(s.units[u].id));
        out << p;
    }
    return out;
}

QList<Vec2> TerciosEngine::deployAnchors(const TerciosState& s, int reg) const {
    QList<Vec2> out;
    const TRegiment& rg = s.regiments[reg];
    if (rg.units.isEmpty() || s.units[rg.units.first()].status != TStatus::Reserve)
        return out;
    const int edge = s.deployEdge[rg.side];
    const double depth = s.deployLong ? s.tableD : s.tableW, across = s.deployLong ? s.tableW : s.tableD;
    double maxD = 0;
    for (int u : rg.units)
        maxD = std::max(maxD, s.units[u].pose.d);
    const double front = edge == 0 ? depth / 2 - 12 - maxD / 2 - 0.01 : depth / 2 + 12 + maxD / 2 + 0.01;
    const double back = edge == 0 ? -6 : 6;
    auto at = [&](double a, double d) { return round2(s.deployLong ? Vec2{a, d} : Vec2{d, a}); };
    // The front line and 6" behind it, from the centre outwards in eighths of the table.
    for (double d : {front, front - back})
        for (int k : {0, -1, 1, -2, 2, -3, 3}) {
            const Vec2 p = at(across / 2 + k * across / 8, d);
            if (deployPoses(s, reg, p))
                out << p;
        }
    if (!out.isEmpty())
        return out;
    // Crowded: the first place of a 2" x 1" scan of the area.
    for (double d = front; edge == 0 ? d > 0 : d < depth; d -= (edge == 0 ? 1 : -1))
        for (double a = 1; a < across; a += 2)
            if (deployPoses(s, reg, at(a, d)))
                return {at(a, d)};
    return out;
}

void TerciosEngine::nextDeployment(TerciosState& s) const {
    auto pending = [&](int side) {
        for (qsizetype i = 0; i < s.regiments.size(); ++i)
            if (s.regiments[i].side == side && !deployAnchors(s, int(i)).isEmpty())
                return true;
        return false;
    };
    if (pending(1 - s.current)) {
        s.current = 1 - s.current; // Tercios L1505: the players alternate
    } else if (!pending(s.current)) {
        for (const TUnit& u : s.units)
            if (u.status == TStatus::Reserve)
                s.note([&] {
                    return QStringLiteral(
                               "Tercios L1505 %1 finds no room in its deployment area: it stays off the "
                               "table")
                        .arg(u.id);
                });
        beginTurn(s);
        return;
    }
    s.phase = TPhase::Deploy;
}

void TerciosEngine::beginTurn(TerciosState& s) const {
    ++s.turn;
    for (TUnit& u : s.units) {
        u.card = Card::None;
        u.group = -1;
        u.revealed = false;
        u.activated = false;
    }
    s.phase = TPhase::Planning;
    s.stepSide = 0;
    s.note([&] {
        return QStringLiteral("Turn %1: planning, each side assigns its order cards face down (Tercios L319)")
            .arg(s.turn);
    });
    // A side with nothing to order passes the planning at once.
    for (int side = 0; side < 2; ++side) {
        bool any = false;
        for (const TUnit& u : s.units)
            any = any || (u.side == s.stepSide && u.onTable());
        if (any)
            return;
        s.stepSide = 1;
    }
}

void TerciosEngine::startActivation(TerciosState& s, int u) const {
    TUnit& x = s.units[u];
    ++s.serial;
    s.activeUnit = u;
    s.readyDone.clear();
    s.mobilityUsed = false;
    s.activationStopped = false;
    s.triggered.clear();
    s.moveRest = false;
    s.pending = TPending{};
    x.activated = true;
    x.revealed = true;
    s.note([&] {
        return QStringLiteral("Tercios L334 %1 %2: %3!")
            .arg(subject(s.sideName[x.side], "activates"), x.id, cardName(x.card));
    });
    if (x.card == Card::Resist) {
        resistOrder(s, u); // the Order Check is the Resist test (G10)
        finishActivation(s);
        return;
    }
    if (!steady(s, u) && !orderCheck(s, u, 0, QStringLiteral("order"))) {
        s.note([&] { return QStringLiteral("Tercios L380 %1 loses its order").arg(x.id); });
        finishActivation(s);
        return;
    }
    switch (x.card) {
    case Card::Ready:
        s.phase = TPhase::Ready;
        break;
    case Card::Run:
        s.phase = TPhase::Run;
        break;
    case Card::Fire:
        s.phase = TPhase::Fire;
        break;
    case Card::Assault:
        if (!enemyInSight(s, u)) {
            s.note([&] {
                return QStringLiteral("Tercios L358 %1 sees no enemy: the Assault! does nothing (T26)")
                    .arg(x.id);
            });
            finishActivation(s);
            return;
        }
        s.phase = TPhase::Assault;
        break;
    default:
        finishActivation(s);
    }
}

void TerciosEngine::finishActivation(TerciosState& s) const {
    s.pending = TPending{};
    s.activeUnit = -1;
    s.shotTarget = -1;
    checkEnd(s, false);
    if (s.over())
        return;
    while (!s.groupQueue.isEmpty()) {
        const int next = s.groupQueue.takeFirst();
        if (s.units[next].onTable() && !s.units[next].activated) {
            startActivation(s, next); // Brigade: the next unit of the group, same slot (Tercios L750)
            return;
        }
    }
    auto hasUnits = [&](int side) {
        for (const TUnit& u : s.units)
            if (u.side == side && u.onTable() && !u.activated)
                return true;
        return false;
    };
    if (!hasUnits(0) && !hasUnits(1)) {
        endOfTurn(s);
        return;
    }
    if (hasUnits(1 - s.current))
        s.current = 1 - s.current; // Tercios L334
    s.phase = TPhase::Activate;
}

void TerciosEngine::afterAction(TerciosState& s) const {
    if (s.over())
        return;
    const int u = s.activeUnit;
    if (s.moveRest) { // G17: the rest of a paused move, unless an interception stopped it (L412)
        s.moveRest = false;
        if (u >= 0 && s.units[u].onTable() && !s.activationStopped) {
            QString why;
            if (checkMove(s, u, s.moveTo, s.moveOrder, &why)) {
                doMove(s, u, s.moveTo, s.moveOrder);
                offerMoveReactions(s, u);
                return;
            }
            s.note([&] { return QStringLiteral("G17 %1 cannot go on: %2").arg(s.units[u].id, why); });
        }
    }
    if (u < 0 || !s.units[u].onTable() || s.activationStopped || s.resume != TPhase::Ready ||
        s.readyDone.size() >= 2) {
        finishActivation(s);
        return;
    }
    s.phase = TPhase::Ready;
}

void TerciosEngine::endOfTurn(TerciosState& s) const {
    checkEnd(s, true);
    if (!s.over())
        beginTurn(s);
}

void TerciosEngine::checkEnd(TerciosState& s, bool turnEnd) const {
    if (s.over() || s.phase == TPhase::DeploySide || s.phase == TPhase::Deploy)
        return;
    bool alive[2] = {false, false};
    for (const TUnit& u : s.units)
        if (u.onTable())
            alive[u.side] = true;
    const int adv = std::abs(s.score[0] - s.score[1]);
    const int lead = s.score[0] > s.score[1] ? 0 : s.score[1] > s.score[0] ? 1 : 2;
    auto finish = [&](int winner, const QString& level, const QString& why) {
        s.phase = TPhase::Over;
        s.winner = winner;
        s.level = level;
        s.resultReason = why;
        s.note([&] { return QStringLiteral("Game over: %1").arg(why); });
    };
    auto scoreText = [&] { // built only for the lines that say it
        return QStringLiteral("%1 %2 - %3 %4")
            .arg(s.sideName[0])
            .arg(s.score[0])
            .arg(s.sideName[1])
            .arg(s.score[1]);
    };
    if (!alive[0] || !alive[1]) {
        // G51: an army wiped out ends the battle at once; the level is the best row its advantage meets.
        if (!alive[0] && !alive[1]) {
            finish(2, QStringLiteral("Draw"),
                   QStringLiteral("both armies destroyed (%1), a draw (G51)").arg(scoreText()));
            return;
        }
        const int w = alive[0] ? 0 : 1;
        QString level = QStringLiteral("Pyrrhic");
        for (const auto& row : r.endTable)
            if (adv >= row.adv && row.adv > 0) {
                level = row.level;
                break;
            }
        finish(w, level,
               QStringLiteral("turn %1: the army of %2 is destroyed (%3): %4 a %5 victory (G51)")
                   .arg(s.turn)
                   .arg(s.sideName[1 - w], scoreText(), subject(s.sideName[w], "wins"), level));
        return;
    }
    if (!turnEnd)
        return;
    const bool last = s.turn >= s.turnLimit;
    for (const auto& row : r.endTable) {
        const bool thisRow = row.turn == s.turn || (last && &row == &r.endTable.last());
        if (!thisRow)
            continue;
        if (last && lead == 2) {
            finish(2, QStringLiteral("Draw"),
                   QStringLiteral("end of turn %1, %2: a draw (G51)").arg(s.turn).arg(scoreText()));
            return;
        }
        if (adv >= row.adv && (adv > 0 || last)) {
            finish(lead, row.level,
                   QStringLiteral("end of turn %1, %2: advantage %3 >= %4, %5 a %6 victory (Tercios L1517)")
                       .arg(s.turn)
                       .arg(scoreText())
                       .arg(adv)
                       .arg(row.adv)
                       .arg(subject(s.sideName[lead], "wins"), row.level));
            return;
        }
    }
    if (last)
        finish(lead, QStringLiteral("Pyrrhic"),
               QStringLiteral("end of turn %1, %2 (turn limit)").arg(s.turn).arg(scoreText()));
    else if (s.turn >= 5)
        s.note([&] {
            return QStringLiteral("Tercios L1517 end of turn %1, %2: the battle goes on")
                .arg(s.turn)
                .arg(scoreText());
        });
}

int TerciosEngine::actor(const TerciosState& s) const {
    switch (s.phase) {
    case TPhase::DeploySide:
    case TPhase::Planning:
    case TPhase::Initiative:
        return s.stepSide;
    case TPhase::Deploy:
    case TPhase::Activate:
        return s.current;
    case TPhase::Reaction:
        return s.pending.reactors.isEmpty() ? -1 : s.units[s.pending.reactors.first()].side;
    case TPhase::Over:
        return -1;
    default:
        return s.activeUnit >= 0 ? s.units[s.activeUnit].side : -1;
    }
}

QString TerciosEngine::prompt(const TerciosState& s) const {
    const QString unitId = s.activeUnit >= 0 ? s.units[s.activeUnit].id : QString();
    switch (s.phase) {
    case TPhase::DeploySide:
        return QStringLiteral("you won the deployment roll: choose your side of the table (Tercios L1501)");
    case TPhase::Deploy:
        return QStringLiteral("deploy a regiment in your deployment area (Tercios L1505)");
    case TPhase::Planning:
        return QStringLiteral("turn %1: assign an order card to each unit (Tercios L319)").arg(s.turn);
    case TPhase::Initiative:
        return QStringLiteral("you won the initiative: choose who activates first (Tercios L330)");
    case TPhase::Activate:
        return QStringLiteral("activate one unit (Tercios L334)");
    case TPhase::Ready:
        return QStringLiteral("%1 Ready!: an action (%2 done) or done (Tercios L350)")
            .arg(unitId)
            .arg(s.readyDone.size());
    case TPhase::Assault:
        return QStringLiteral("%1 Assault!: charge a target or move toward one (Tercios L356)").arg(unitId);
    case TPhase::Run:
        return QStringLiteral("%1 Run!: move (Tercios L364)").arg(unitId);
    case TPhase::Fire:
        return QStringLiteral("%1 Fire!: choose a target (Tercios L368)").arg(unitId);
    case TPhase::Caracole:
        return QStringLiteral("%1: caracole back or not (Tercios L776)").arg(unitId);
    case TPhase::Reaction:
        return s.pending.reactors.isEmpty()
                   ? QString()
                   : QStringLiteral("%1 may react to %2 (Tercios L390)")
                         .arg(s.units[s.pending.reactors.first()].id,
                              s.pending.charger >= 0
                                  ? QStringLiteral("the charge of ") + s.units[s.pending.charger].id
                                  : s.units[s.pending.mover].id);
    case TPhase::Over:
        return s.resultReason;
    }
    return {};
}

QList<TcAction> TerciosEngine::legalActions(const TerciosState& s, bool withMoves) const {
    QList<TcAction> out;
    auto add = [&](TcAction::Kind k, int u, int t = -1, int dir = 0) {
        TcAction a;
        a.kind = k;
        a.unit = u;
        a.target = t;
        a.dir = dir;
        out << a;
    };
    const int u = s.activeUnit;
    out.reserve(s.phase == TPhase::Planning ? 6 * s.units.size() : 16);
    switch (s.phase) {
    case TPhase::DeploySide:
        add(TcAction::Side, -1, 0);
        add(TcAction::Side, -1, 1);
        break;
    case TPhase::Deploy:
        for (qsizetype i = 0; i < s.regiments.size(); ++i)
            if (s.regiments[i].side == s.current)
                for (const Vec2& p : deployAnchors(s, int(i))) {
                    add(TcAction::Deploy, -1, int(i));
                    out.last().to = p;
                }
        break;
    case TPhase::Planning:
        for (qsizetype i = 0; i < s.units.size(); ++i) {
            const TUnit& x = s.units[i];
            if (x.side != s.stepSide || !x.onTable() || x.card != Card::None)
                continue;
            for (int c = 1; c <= 5; ++c) {
                TcAction a;
                a.kind = TcAction::Order;
                a.unit = int(i);
                a.card = Card(c);
                out << a;
            }
            if (has(s, int(i), RBrigade))
                for (qsizetype j = 0; j < s.units.size(); ++j) {
                    const TUnit& y = s.units[j];
                    if (j != i && y.regiment == x.regiment && y.onTable() && y.card != Card::None &&
                        (y.group < 0 || y.group == int(j)) && has(s, int(j), RBrigade)) {
                        TcAction a;
                        a.kind = TcAction::Order;
                        a.unit = int(i);
                        a.target = int(j);
                        out << a;
                    }
                }
        }
        break;
    case TPhase::Initiative:
        add(TcAction::First, -1, 0);
        add(TcAction::First, -1, 1);
        break;
    case TPhase::Activate:
        for (qsizetype i = 0; i < s.units.size(); ++i)
            if (s.units[i].side == s.current && s.units[i].onTable() && !s.units[i].activated)
                add(TcAction::Activate, int(i));
        break;
    case TPhase::Ready:
    case TPhase::Run: {
        const bool ready = s.phase == TPhase::Ready;
        const Card order = ready ? Card::Ready : Card::Run;
        if (type(s, u) == TType::Horse && !s.mobilityUsed && s.readyDone.isEmpty())
            for (int d : {1, -1, 2})
                if (canFace(s, u, d)) {
                    add(TcAction::Face, u, -1, d);
                    out.last().mobility = true; // Mobility (Tercios L764)
                }
        if (canMoveNow(s, u) && withMoves)
            for (const Vec2& to : candidateMoves(s, u, order)) {
                add(TcAction::Move, u);
                out.last().to = to;
            }
        if (ready) {
            if (!s.readyDone.contains(QStringLiteral("face")))
                for (int d : {1, -1, 2})
                    if (canFace(s, u, d))
                        add(TcAction::Face, u, -1, d);
            if (!s.readyDone.contains(QStringLiteral("fire")) && canShoot(s, u, Card::Ready, false))
                for (const ShotOption& o : shotOptions(s, u))
                    add(TcAction::Fire, u, o.target, o.source);
            if (!s.readyDone.contains(QStringLiteral("reorganize")) && s.units[u].disordered)
                add(TcAction::Reorganize, u);
        }
        add(TcAction::Done, u);
        break;
    }
    case TPhase::Fire:
        if (canShoot(s, u, Card::Fire, false))
            for (const ShotOption& o : shotOptions(s, u))
                add(TcAction::Fire, u, o.target, o.source);
        add(TcAction::Done, u);
        break;
    case TPhase::Caracole:
        add(TcAction::Caracole, u);
        add(TcAction::Done, u);
        break;
    case TPhase::Assault: {
        for (qsizetype t = 0; t < s.units.size(); ++t)
            if (s.units[t].side != s.units[u].side && chargePath(s, u, int(t)))
                add(TcAction::Charge, u, int(t));
        if (out.isEmpty()) {
            for (qsizetype t = 0; t < s.units.size(); ++t)
                if (s.units[t].side != s.units[u].side && s.units[t].onTable() &&
                    lineOfSight(s, u, int(t), 0))
                    add(TcAction::Approach, u, int(t));
            add(TcAction::Done, u);
        }
        break;
    }
    case TPhase::Reaction: {
        if (s.pending.reactors.isEmpty())
            break;
        const int x = s.pending.reactors.first();
        const TUnit& ru = s.units[x];
        const int trig = s.pending.charger >= 0 ? s.pending.charger : s.pending.mover;
        const bool charge = s.pending.charger >= 0;
        if (!ru.activated && ru.card != Card::None) {
            switch (ru.card) {
            case Card::Ready:
                if (canShoot(s, x, Card::Ready, true) && reactionShot(s, x))
                    add(TcAction::React, x, -1, 0);
                add(TcAction::React, x, -1, 1);
                break;
            case Card::Fire:
                if (canShoot(s, x, Card::Fire, true) && reactionShot(s, x))
                    add(TcAction::React, x);
                break;
            case Card::Assault:
                if ((charge && x == s.pending.target) || chargePath(s, x, trig))
                    add(TcAction::React, x);
                break;
            case Card::Run:
                if (profile(s, x).speed > 0)
                    add(TcAction::React, x);
                break;
            case Card::Resist:
                add(TcAction::React, x);
                break;
            default:
                break;
            }
        }
        // Evasion (Tercios L766): Horse, against a charge, whatever its card and even after activating.
        if (charge && x == s.pending.target && type(s, x) == TType::Horse &&
            !(ru.card == Card::Run && !ru.activated))
            add(TcAction::React, x, -1, 2);
        add(TcAction::Decline, x);
        break;
    }
    case TPhase::Over:
        break;
    }
    return out;
}

bool TerciosEngine::reactionShot(const TerciosState& s, int x) const {
    // The target of a charge fires at contact (G18): its sight of the charger is checked then. Any other
    // reaction fire is a shot now, so the trigger must be a legal target (Tercios L503-519).
    if (s.pending.charger >= 0 && x == s.pending.target)
        return true;
    const int trig = s.pending.charger >= 0 ? s.pending.charger : s.pending.mover;
    return trig >= 0 && shotSource(s, x, trig).has_value();
}

void TerciosEngine::reactionFire(TerciosState& s, int x, int t, bool readyOrder) const {
    if (const auto src = shotSource(s, x, t))
        resolveShot(s, x, t, readyOrder, true, *src);
    else
        s.note([&] {
            return QStringLiteral("Tercios L503 %1 cannot see %2 in range from its Front Centre%3: no volley")
                .arg(s.units[x].id, s.units[t].id,
                     has(s, x, RExtendedArc) ? QStringLiteral(" or a Side Centre") : QString());
        });
}

void TerciosEngine::offerMoveReactions(TerciosState& s, int mover) const {
    // Tercios L390: an enemy within 3" of a unit's Front Centre interacts with it (G17: at the end of the
    // move, each unit once per activation).
    s.pending = TPending{};
    s.pending.mover = mover;
    const Corners mp = cornersOf(s.units[mover].pose);
    for (qsizetype i = 0; i < s.units.size(); ++i) {
        const TUnit& y = s.units[i];
        if (!eligibleForMoveReaction(s, mover, int(i)))
            continue;
        if (distance(mp, centre(y.pose, 0)) <= 3.0 + 1e-9) {
            s.pending.reactors << int(i);
            s.triggered << int(i);
        }
    }
    if (!s.pending.reactors.isEmpty()) {
        s.phase = TPhase::Reaction;
        return;
    }
    afterAction(s);
}

bool TerciosEngine::eligibleForMoveReaction(const TerciosState& s, int mover, int e) const {
    const TUnit& y = s.units[e];
    return y.side != s.units[mover].side && y.onTable() && !y.activated && y.card != Card::None &&
           !s.triggered.contains(e);
}

void TerciosEngine::voluntaryMove(TerciosState& s, int u, Vec2 to, Card order) const {
    // G17: the move pauses at the first point where its base comes within 3" of the Front Centre of an
    // enemy that may react (and was farther at the start); the rest follows after the reactions.
    const Pose start = s.units[u].pose;
    const Vec2 from = centre(start, 0);
    const Vec2 v = to - from;
    const double len = v.length();
    Pose p = start;
    p.facing = headingOf(v);
    const Vec2 dir = unit(v);
    QList<int> near;
    const Corners startCorners = cornersOf(start);
    for (qsizetype e = 0; e < s.units.size(); ++e)
        if (eligibleForMoveReaction(s, u, int(e)) &&
            distance(startCorners, centre(s.units[e].pose, 0)) > 3.0 + 1e-9)
            near << int(e);
    double pauseAt = -1;
    for (double d = 0.25; d < len - 1e-6 && !near.isEmpty() && pauseAt < 0; d += 0.25) {
        Pose q = p;
        q.c = from + dir * d - fwdOf(q) * (q.d / 2);
        const Corners qp = cornersOf(q);
        for (int e : near)
            if (distance(qp, centre(s.units[e].pose, 0)) <= 3.0 + 1e-9) {
                pauseAt = d;
                break;
            }
    }
    if (pauseAt > 0) {
        Pose q = p;
        const Vec2 at = round2(from + dir * pauseAt);
        q.c = at - fwdOf(q) * (q.d / 2);
        if (!blockedPose(s, u, q)) {
            doMove(s, u, at, order);
            s.note([&] { return QStringLiteral("G17 %1 pauses: an enemy may react").arg(s.units[u].id); });
            s.moveRest = true;
            s.moveTo = to;
            s.moveOrder = order;
            offerMoveReactions(s, u);
            return;
        }
    }
    doMove(s, u, to, order);
    offerMoveReactions(s, u);
}

void TerciosEngine::doMove(TerciosState& s, int u, Vec2 to, Card order) const {
    const Vec2 from = centre(s.units[u].pose, 0);
    const std::optional<Pose> p = checkMove(s, u, to, order);
    if (!p)
        return;
    const unsigned f = pathFeatures(s, from, to) | featuresAt(s, from);
    const int enter = buildingEntered(s, u, to, order);
    leaveBuilding(s, u);
    s.units[u].pose = *p;
    const Vec2 end = centre(*p, 0);
    const bool cut = (end - to).length() > 0.02;
    if (enter >= 0 && !cut) {
        s.units[u].building = enter;
        s.terrain[enter].occupant = u;
        s.note([&] {
            return QStringLiteral("Tercios L1473 %1 occupies %2: Covered, Protected, never flanked")
                .arg(s.units[u].id, s.terrain[enter].id);
        });
    }
    s.note([&] {
        return QStringLiteral("Tercios L440 %1 moves %2\" to (%3, %4)%5%6")
            .arg(s.units[u].id)
            .arg((end - from).length(), 0, 'f', 1)
            .arg(end.x, 0, 'f', 1)
            .arg(end.y, 0, 'f', 1)
            .arg((f & (FDifficult | FVeryDifficult)) ? QStringLiteral(" through Difficult terrain (L483)")
                                                     : QString(),
                 cut ? QStringLiteral(", cut back at the first contact (L469; it aimed at (%1, %2))")
                           .arg(to.x, 0, 'f', 1)
                           .arg(to.y, 0, 'f', 1)
                     : QString());
    });
    if ((f & FVeryDifficult) && !has(s, u, RLight) && !s.units[u].disordered) {
        s.units[u].disordered = true;
        s.note([&] {
            return QStringLiteral("Tercios L485 %1 is Disordered by Very Difficult terrain")
                .arg(s.units[u].id);
        });
    }
}

std::optional<Vec2> TerciosEngine::approachPoint(const TerciosState& s, int u, int t) const {
    const TUnit& x = s.units[u];
    const Vec2 from = centre(x.pose, 0);
    Vec2 best = s.units[t].pose.c;
    for (const Vec2& c : centres(s.units[t].pose))
        if ((c - from).length() < (best - from).length())
            best = c;
    Vec2 dir = unit(best - from);
    if (dir.dot(fwdOf(x.pose)) < 0) { // G12 within the 90-degree pivot
        const Vec2 rt = rightOf(x.pose);
        dir = dir.dot(rt) >= 0 ? rt : rt * -1.0;
    }
    const int sp = speed(s, u, Card::Assault, false);
    const double maxLen = std::min<double>(sp, (best - from).length());
    for (double d = maxLen; d > 0.2; d -= 0.25) {
        const Vec2 to = round2(from + dir * d);
        if (checkMove(s, u, to, Card::Assault))
            return to;
    }
    return std::nullopt;
}

void TerciosEngine::approach(TerciosState& s, int u, int t, bool voluntary) const {
    const auto to = approachPoint(s, u, t);
    if (!to) {
        s.note([&] {
            return QStringLiteral("Tercios L358 %1 cannot move closer to %2 (G12)")
                .arg(s.units[u].id, s.units[t].id);
        });
        if (voluntary)
            afterAction(s);
        return;
    }
    s.note([&] {
        return QStringLiteral("Tercios L358 %1 cannot reach: moves as close as possible to %2 (G12)")
            .arg(s.units[u].id, s.units[t].id);
    });
    if (voluntary)
        voluntaryMove(s, u, *to, Card::Assault); // the units it passes may react on the way (G17)
    else
        doMove(s, u, *to, Card::Assault); // a charge that cannot be completed (G21)
}

void TerciosEngine::declareCharge(TerciosState& s, int u, int t, bool interception) const {
    s.pending = TPending{};
    s.pending.mover = u;
    s.pending.charger = u;
    s.pending.target = t;
    s.pending.interception = interception;
    s.pending.flank = isFlankCharge(s, s.units[u].pose, t);
    s.pending.chargeFrom = s.units[u].pose;
    s.note([&] {
        return QStringLiteral("Tercios L596 %1 declares a charge on %2%3")
            .arg(s.units[u].id, s.units[t].id,
                 s.pending.flank ? QStringLiteral(" (flank charge, L617)") : QString());
    });
    const TUnit& y = s.units[t];
    const bool canReact = (!y.activated && y.card != Card::None) || type(s, t) == TType::Horse;
    if (canReact && !s.triggered.contains(t)) {
        s.triggered << t;
        s.pending.reactors << t;
        s.phase = TPhase::Reaction;
        return;
    }
    advanceCharge(s);
}

void TerciosEngine::advanceCharge(TerciosState& s) const {
    // G17 (Tercios L390): a unit whose Front Centre the charger's base passes within 3" of (and that was
    // farther at the declaration) may react there, once per activation; the charge then goes on.
    const int c = s.pending.charger, t = s.pending.target;
    if (s.activationStopped || !s.units[c].onTable() || !s.units[t].onTable()) {
        resolveCharge(s);
        return;
    }
    const auto path = chargePath(s, c, t);
    if (!path) {
        resolveCharge(s);
        return;
    }
    const Pose start = s.units[c].pose;
    const Corners startPoly = cornersOf(start);
    QList<int> near;
    for (qsizetype e = 0; e < s.units.size(); ++e)
        if (int(e) != t && eligibleForMoveReaction(s, c, int(e)) &&
            distance(startPoly, centre(s.units[e].pose, 0)) > 3.0 + 1e-9 &&
            distance(startPoly, centre(s.units[e].pose, 0)) <= path->length + 3.0 + 1e-6)
            near << int(e);
    const Vec2 from = centre(start, 0);
    const Vec2 dir = unit(centre(path->end, 0) - from);
    for (double d = 0.25; d < path->length - 1e-6 && !near.isEmpty(); d += 0.25) {
        Pose q = path->end;
        q.c = from + dir * d - fwdOf(q) * (q.d / 2);
        const Corners qp = cornersOf(q);
        QList<int> reached;
        for (int e : near)
            if (distance(qp, centre(s.units[e].pose, 0)) <= 3.0 + 1e-9)
                reached << e;
        if (reached.isEmpty())
            continue;
        if (baseBlocked(s, c, q, t))
            break;
        s.units[c].pose = q;
        s.note([&] {
            return QStringLiteral("G17 %1 charges past %2: pauses after %3\", the passed %4 may react")
                .arg(s.units[c].id, s.units[reached.first()].id)
                .arg(d, 0, 'f', 2)
                .arg(reached.size() == 1 ? QStringLiteral("unit") : QStringLiteral("units"));
        });
        s.pending.reactors = reached;
        s.triggered << reached;
        s.phase = TPhase::Reaction;
        return;
    }
    resolveCharge(s);
}

void TerciosEngine::resolveCharge(TerciosState& s) const {
    const int c = s.pending.charger, t = s.pending.target;
    const bool counter = s.pending.counter;
    const QList<int> fire = s.pending.fireAtContact;
    if (s.units[c].onTable() && s.units[t].onTable()) {
        const bool flank = !counter && isFlankCharge(s, s.pending.chargeFrom, t);
        if (const auto path = chargePath(s, c, t)) {
            s.units[c].pose = path->end;
            s.note([&] {
                return QStringLiteral("Tercios L601 %1 charges %2\" into contact with %3")
                    .arg(s.units[c].id)
                    .arg(path->length, 0, 'f', 1)
                    .arg(s.units[t].id);
            });
            if (path->veryDifficult && !has(s, c, RLight) && !s.units[c].disordered) {
                s.units[c].disordered = true;
                s.note([&] {
                    return QStringLiteral(
                               "Tercios L698 %1 is Disordered charging through Very Difficult terrain")
                        .arg(s.units[c].id);
                });
            }
            for (int x : fire) // G18: reaction fire at contact, if the charger is in sight and arc
                if (s.units[x].onTable() && s.units[c].onTable())
                    reactionFire(s, x, c, s.units[x].card == Card::Ready);
            if (s.units[c].onTable() && s.units[t].onTable())
                melee(s, c, t, flank, counter);
        } else {
            approach(s, c, t, false);
        }
    }
    s.pending = TPending{};
    afterAction(s);
}

void TerciosEngine::react(TerciosState& s, int x, int dir) const {
    TUnit& ru = s.units[x];
    const bool charge = s.pending.charger >= 0;
    const int trig = charge ? s.pending.charger : s.pending.mover;
    const bool evasion = dir == 2;
    int net = 0;
    if (charge && x == s.pending.target && s.pending.flank)
        net -= 1; // Tercios L621
    // Horse escaping a charge (Evasion, or its Run! card: the same move) by Foot gets Discipline+ (Tercios
    // L766; guns count as Foot in combat, L788).
    if (type(s, x) == TType::Horse && charge && x == s.pending.target &&
        (evasion || (!ru.activated && ru.card == Card::Run)) && type(s, trig) != TType::Horse)
        net += 1;
    const bool hadCard = !ru.activated;
    const Card card = evasion ? Card::Run : ru.card;
    ru.activated = true;
    if (!orderCheck(s, x, net, evasion ? QStringLiteral("evasion") : QStringLiteral("reaction"))) {
        s.note([&] {
            return QStringLiteral("Tercios L396 %1 fails to react%2")
                .arg(ru.id, hadCard ? QStringLiteral(" and loses its order") : QString());
        });
        return;
    }
    if (hadCard) {
        ru.revealed = true;
        for (TUnit& o : s.units) // Brigade: the shared card is revealed (Tercios L754)
            if (ru.group >= 0 && o.group == ru.group)
                o.revealed = true;
    }
    s.note([&] {
        return QStringLiteral("Tercios L398 %1 reacts%2")
            .arg(ru.id, evasion ? QStringLiteral(" with Evasion (L766)")
                                : QStringLiteral(" with ") + cardName(card) + QLatin1Char('!'));
    });
    switch (card) {
    case Card::Ready:
        if (dir == 1)
            faceTowards(s, x, centre(s.units[trig].pose, 0)); // G23
        else if (charge && x == s.pending.target)
            s.pending.fireAtContact << x;
        else
            reactionFire(s, x, trig, true);
        break;
    case Card::Fire:
        if (charge && x == s.pending.target)
            s.pending.fireAtContact << x;
        else
            reactionFire(s, x, trig, false);
        break;
    case Card::Assault:
        if (charge && x == s.pending.target) {
            s.pending.counter = true; // countercharge (Tercios L406, G19)
            faceTowards(s, x, centre(s.units[trig].pose, 0));
        } else if (const auto path = chargePath(s, x, trig)) {
            // Interception (Tercios L410-412, G20): the interceptor is the attacker.
            const bool flank = isFlankCharge(s, ru.pose, trig);
            s.units[x].pose = path->end;
            s.note(
                [&] { return QStringLiteral("Tercios L410 %1 intercepts %2").arg(ru.id, s.units[trig].id); });
            const int res = melee(s, x, trig, flank, false);
            if (res > 0 || !s.units[trig].onTable()) {
                s.activationStopped = true;
                s.note([&] {
                    return QStringLiteral("Tercios L412 the activation of %1 stops here")
                        .arg(s.units[trig].id);
                });
            }
        }
        break;
    case Card::Run: {
        // Escape (Tercios L414-418, G21): turn directly away and move up to 2x Speed. The turn is made
        // where the base has room for it (before the move, or else at its end); the move goes straight
        // away either way.
        const Vec2 away = s.units[x].pose.c - centre(s.units[trig].pose, 0);
        auto turnAway = [&]() {
            Pose p = s.units[x].pose;
            p.facing = headingOf(away);
            if (!baseBlocked(s, x, p, -1))
                s.units[x].pose = p;
        };
        turnAway();
        const double want = 2.0 * profile(s, x).speed;
        const double got = slide(s, x, away, want);
        turnAway();
        s.note([&] { return QStringLiteral("Tercios L416 %1 escapes %2\"").arg(ru.id).arg(got, 0, 'f', 1); });
        if (got < profile(s, x).speed - 1e-6)
            addWear(s, x, 1, s.units[trig].side, QStringLiteral("G21 escape cut short"));
        break;
    }
    case Card::Resist:
        ru.resistSerial = s.serial; // Tercios L428, G22
        break;
    default:
        break;
    }
}

bool TerciosEngine::apply(TerciosState& s, const TcAction& in, QString* error) const {
    TcAction a = in;
    if (a.kind == TcAction::Move || a.kind == TcAction::Deploy)
        a.to = round2(a.to);
    if (a.kind == TcAction::Deploy) {
        // Any place in the area, not only the listed ones (Tercios L1503-1505).
        QString why = QStringLiteral("not the deployment");
        const bool ok = s.phase == TPhase::Deploy && a.target >= 0 && a.target < s.regiments.size() &&
                        s.regiments[a.target].side == s.current && !deployAnchors(s, a.target).isEmpty() &&
                        deployPoses(s, a.target, a.to, &why);
        if (!ok) {
            if (error)
                *error = QStringLiteral("'%1' is not legal: %2").arg(actionText(s, a), why);
            return false;
        }
        const QList<Pose> poses = *deployPoses(s, a.target, a.to);
        const TRegiment& rg = s.regiments[a.target];
        for (qsizetype i = 0; i < rg.units.size(); ++i) {
            s.units[rg.units[i]].pose = poses[i];
            s.units[rg.units[i]].status = TStatus::OnTable;
        }
        s.note([&] {
            return QStringLiteral("Tercios L1505 %1 %2 at (%3, %4)")
                .arg(subject(s.sideName[rg.side], "deploys"), rg.id)
                .arg(a.to.x, 0, 'f', 1)
                .arg(a.to.y, 0, 'f', 1);
        });
        nextDeployment(s);
        return true;
    }
    const QList<TcAction> legal = legalActions(s, false);
    bool ok = a.kind != TcAction::Move && legal.contains(a);
    if (!ok && a.kind == TcAction::Move && (s.phase == TPhase::Ready || s.phase == TPhase::Run) &&
        a.unit == s.activeUnit) {
        // Any legal destination, not only the listed ones (Tercios L440-448).
        const bool moveOk = canMoveNow(s, a.unit);
        QString why;
        if (moveOk && checkMove(s, a.unit, a.to, s.phase == TPhase::Ready ? Card::Ready : Card::Run, &why))
            ok = true;
        else if (error) {
            *error = QStringLiteral("'%1' is not legal: %2")
                         .arg(actionText(s, a), moveOk ? why : QStringLiteral("no move now"));
            return false;
        }
    }
    if (!ok) {
        if (error)
            *error = QStringLiteral("'%1' is not legal now (%2)").arg(actionText(s, a), prompt(s));
        return false;
    }
    switch (a.kind) {
    case TcAction::Order: {
        TUnit& x = s.units[a.unit];
        if (a.target >= 0) {
            x.card = s.units[a.target].card;
            x.group = a.target;
            s.units[a.target].group = a.target;
            s.note([&] {
                return QStringLiteral("Tercios L752 %1 shares the order card of %2 (Brigade, announced)")
                    .arg(x.id, s.units[a.target].id);
            });
        } else {
            x.card = a.card;
            s.note([&] {
                return QStringLiteral("Tercios L319 %1 an order card to %2")
                    .arg(subject(s.sideName[x.side], "assigns"), x.id);
            });
        }
        bool more = false;
        for (const TUnit& y : s.units)
            more = more || (y.side == s.stepSide && y.onTable() && y.card == Card::None);
        if (!more) {
            bool other = false;
            for (const TUnit& y : s.units)
                other = other || (y.side == 1 && y.onTable() && y.card == Card::None);
            if (s.stepSide == 0 && other) {
                s.stepSide = 1;
            } else {
                // Initiative (Tercios L328-332): 1D6 each, re-roll ties (G6: Commander rank first).
                s.stepSide = rollOff(s, QStringLiteral("Tercios L328 initiative"), true);
                s.phase = TPhase::Initiative;
            }
        }
        break;
    }
    case TcAction::Side:
        s.deployEdge[s.stepSide] = a.target;
        s.deployEdge[1 - s.stepSide] = 1 - a.target;
        s.note([&] {
            return QStringLiteral("Tercios L1501 %1 the %2 edge")
                .arg(subject(s.sideName[s.stepSide], "takes"),
                     a.target == 0 ? QStringLiteral("low") : QStringLiteral("high"));
        });
        s.current = 1 - s.stepSide; // nextDeployment passes to the winner: it deploys first (L1505)
        nextDeployment(s);
        break;
    case TcAction::Deploy:
        break; // handled above
    case TcAction::First:
        s.current = a.target;
        s.note([&] {
            return QStringLiteral("Tercios L332 %1: %2 first")
                .arg(subject(s.sideName[s.stepSide], "chooses"), subject(s.sideName[a.target], "activates"));
        });
        s.phase = TPhase::Activate;
        {
            bool any = false;
            for (const TUnit& y : s.units)
                any = any || (y.side == s.current && y.onTable());
            if (!any)
                s.current = 1 - s.current;
        }
        break;
    case TcAction::Activate: {
        s.groupQueue.clear();
        const int g = s.units[a.unit].group;
        if (g >= 0)
            for (qsizetype i = 0; i < s.units.size(); ++i)
                if (int(i) != a.unit && s.units[i].group == g && s.units[i].onTable() &&
                    !s.units[i].activated)
                    s.groupQueue << int(i);
        startActivation(s, a.unit);
        break;
    }
    case TcAction::Move: {
        const Card order = s.phase == TPhase::Ready ? Card::Ready : Card::Run;
        if (s.phase == TPhase::Ready)
            s.readyDone << QStringLiteral("move");
        s.resume = s.phase == TPhase::Ready ? TPhase::Ready : TPhase::Activate;
        voluntaryMove(s, a.unit, a.to, order);
        break;
    }
    case TcAction::Face: {
        TUnit& x = s.units[a.unit];
        x.pose.facing = normDeg(x.pose.facing + (a.dir == 2 ? 180 : a.dir * 90));
        if (a.mobility) {
            s.mobilityUsed = true;
            s.note([&] {
                return QStringLiteral("Tercios L764 %1 makes its free facing change (Mobility)").arg(x.id);
            });
        } else {
            s.readyDone << QStringLiteral("face");
            s.note([&] { return QStringLiteral("Tercios L461 %1 changes facing").arg(x.id); });
        }
        if (!a.mobility) {
            s.resume = TPhase::Ready;
            afterAction(s);
        }
        break;
    }
    case TcAction::Fire: {
        const bool ready = s.phase == TPhase::Ready;
        if (ready)
            s.readyDone << QStringLiteral("fire");
        resolveShot(s, a.unit, a.target, ready, false, a.dir);
        s.resume = ready ? TPhase::Ready : TPhase::Activate;
        if (s.units[a.unit].onTable() && has(s, a.unit, RCaracole)) {
            s.phase = TPhase::Caracole; // G24
            break;
        }
        afterAction(s);
        break;
    }
    case TcAction::Reorganize:
        s.units[a.unit].disordered = false;
        s.readyDone << QStringLiteral("reorganize");
        s.note([&] {
            return QStringLiteral("Tercios L350 %1 reorganizes: no longer Disordered")
                .arg(s.units[a.unit].id);
        });
        {
            s.resume = TPhase::Ready;
            afterAction(s);
        }
        break;
    case TcAction::Caracole:
        if (orderCheck(s, a.unit, 0, QStringLiteral("caracole"))) {
            const double got = slide(s, a.unit, fwdOf(s.units[a.unit].pose) * -1.0, profile(s, a.unit).speed);
            s.note([&] {
                return QStringLiteral("Tercios L776 %1 caracoles %2\" straight back")
                    .arg(s.units[a.unit].id)
                    .arg(got, 0, 'f', 1);
            });
        }
        afterAction(s);
        break;
    case TcAction::Done:
        if (s.phase == TPhase::Caracole) {
            afterAction(s);
            break;
        }
        finishActivation(s);
        break;
    case TcAction::Charge:
        s.resume = TPhase::Activate;
        declareCharge(s, a.unit, a.target, false);
        break;
    case TcAction::Approach:
        s.resume = TPhase::Activate;
        approach(s, a.unit, a.target, true);
        break;
    case TcAction::React:
    case TcAction::Decline: {
        s.pending.reactors.removeAll(a.unit);
        if (a.kind == TcAction::React)
            react(s, a.unit, a.dir);
        else
            s.note([&] { return QStringLiteral("%1 does not react").arg(s.units[a.unit].id); });
        checkEnd(s, false);
        if (s.over())
            break;
        if (!s.pending.reactors.isEmpty())
            break;
        if (s.pending.charger >= 0)
            advanceCharge(s);
        else {
            s.pending = TPending{};
            afterAction(s);
        }
        break;
    }
    }
    checkEnd(s, false);
    return true;
}

} // namespace wp::tactical
