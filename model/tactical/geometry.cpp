#include "geometry.h"

#include <algorithm>
#include <initializer_list>
#include <limits>

namespace wp::tactical {

QString zoneName(Zone z) {
    switch (z) {
    case Zone::Front:
        return QStringLiteral("to-front");
    case Zone::FrontFlank:
        return QStringLiteral("to-front-flank");
    case Zone::BehindFlank:
        return QStringLiteral("behind-flank");
    case Zone::Rear:
        return QStringLiteral("to-rear");
    case Zone::None:
        break;
    }
    return QStringLiteral("none");
}

namespace detail {
WholeDegrees::WholeDegrees() {
    for (int i = -360; i < 720; ++i)
        v[std::size_t(i + 360)] = dirDegAny(i);
}

Vec2 dirDegAny(double deg) {
    return {std::cos(deg * kPi / 180.0), std::sin(deg * kPi / 180.0)};
}
} // namespace detail

std::array<Vec2, 4> Pose::corners() const {
    const Vec2 fw = forward();
    const Vec2 f = fw * (d / 2);
    const Vec2 rr = Vec2{fw.y, -fw.x} * (w / 2);
    return {c + f - rr, c + f + rr, c - f + rr, c - f - rr};
}

Polygon Pose::polygon() const {
    const auto k = corners();
    return {k[0], k[1], k[2], k[3]};
}

double polygonArea(const Polygon& p) {
    double a = 0;
    for (qsizetype i = 0; i < p.size(); ++i)
        a += p[i].cross(p[(i + 1) % p.size()]);
    return std::abs(a) / 2;
}

Polygon clipHalfPlane(const Polygon& p, Vec2 point, Vec2 n) {
    Polygon out;
    for (qsizetype i = 0; i < p.size(); ++i) {
        const Vec2 a = p[i], b = p[(i + 1) % p.size()];
        const double da = (a - point).dot(n), db = (b - point).dot(n);
        if (da >= 0)
            out << a;
        if ((da >= 0) != (db >= 0)) {
            const double t = da / (da - db);
            out << a + (b - a) * t;
        }
    }
    return out;
}

namespace {

// A small convex polygon on the stack (classify's clipping: no allocation). The same arithmetic as
// clipHalfPlane and polygonArea, in the same order, so the same results bit for bit.
// The points are stored as a plain pair of doubles, which (unlike Vec2 and its default member initializers)
// leaves the buffer uninitialized: no zeroing of 64 points for every clip.
constexpr int kSmallPoly = 64;
struct SmallPoly {
    struct Pt {
        double x, y;
    };
    std::array<Pt, kSmallPoly> v;
    int n = 0;
    Vec2 at(int i) const { return {v[std::size_t(i)].x, v[std::size_t(i)].y}; }
    void add(Vec2 p) { v[std::size_t(n++)] = {p.x, p.y}; }
};

void clipSmall(const SmallPoly& p, Vec2 point, Vec2 n, SmallPoly& out) {
    out.n = 0;
    for (int i = 0; i < p.n; ++i) {
        const Vec2 a = p.at(i), b = p.at((i + 1) % p.n);
        const double da = (a - point).dot(n), db = (b - point).dot(n);
        if (da >= 0)
            out.add(a);
        if ((da >= 0) != (db >= 0)) {
            const double t = da / (da - db);
            out.add(a + (b - a) * t);
        }
    }
}

double areaSmall(const SmallPoly& p) {
    double a = 0;
    for (int i = 0; i < p.n; ++i)
        a += p.at(i).cross(p.at((i + 1) % p.n));
    return std::abs(a) / 2;
}

// Whether the clipping below surely finds more than its 1e-7 of area, without clipping: a convex
// quadrilateral (a stand) with a corner inside every half-plane (unit normals) by at least kSure holds the
// triangle of that corner and the points kSure along its two edges (edges at least kSure long), which lies in
// the disk of radius kSure about the corner, so inside the region: the overlap's area is at least the
// triangle's, 0.5 kSure^2 sin(corner angle), required here to be at least 1e-6 (sin >= 0.02), ten times the
// limit (the clipping's rounding is some 1e-12). Otherwise (false) the clipping decides.
bool surelyReaches(const SmallPoly& local, std::initializer_list<std::pair<Vec2, Vec2>> halfPlanes) {
    constexpr double kSure = 0.01;
    if (local.n != 4)
        return false;
    const Vec2 v[4] = {local.at(0), local.at(1), local.at(2), local.at(3)};
    const Vec2 e[4] = {v[1] - v[0], v[2] - v[1], v[3] - v[2], v[0] - v[3]}; // e[i]: from v[i] to v[i+1]
    double turn[4];
    for (int i = 0; i < 4; ++i)
        turn[i] = e[i].cross(e[(i + 1) % 4]); // the turn at v[i+1]
    const bool left = turn[0] > 0;
    for (double t : turn)
        if (left ? !(t > 0) : !(t < 0))
            return false; // not strictly convex
    for (int i = 0; i < 4; ++i) {
        bool inside = true;
        for (const auto& [pt, n] : halfPlanes)
            inside = inside && (v[i] - pt).dot(n) >= kSure;
        if (!inside)
            continue;
        const Vec2 a = e[i], b = e[(i + 3) % 4]; // the edges at v[i] (b towards it)
        const double la = a.dot(a), lb = b.dot(b), t = turn[(i + 3) % 4];
        if (la >= kSure * kSure && lb >= kSure * kSure && t * t >= 4e-4 * la * lb)
            return true;
    }
    return false;
}

// Does `other` reach into the region of `self`'s local frame given by half-planes f >= f0 (or f <= f0)
// and s-ranges? Implemented by clipping in local coordinates.
bool reaches(const SmallPoly& local, std::initializer_list<std::pair<Vec2, Vec2>> halfPlanes) {
    // Without clipping, the same answer: while every vertex lies in the half-planes met so far (clipSmall's
    // own test, da >= 0), clipping leaves the polygon as it is; a half-plane with every vertex outside clips
    // it away. Only a half-plane that cuts the polygon needs the clipping below.
    bool cut = false;
    for (const auto& [pt, n] : halfPlanes) {
        int in = 0;
        for (int i = 0; i < local.n; ++i)
            in += (local.at(i) - pt).dot(n) >= 0 ? 1 : 0;
        if (in == 0)
            return false;
        if (in < local.n) {
            cut = true;
            break;
        }
    }
    if (!cut)
        return local.n >= 3 && areaSmall(local) > 1e-7;
    if (surelyReaches(local, halfPlanes))
        return true;
    SmallPoly buf[2];
    const SmallPoly* p = &local;
    int k = 0;
    for (const auto& [pt, n] : halfPlanes) {
        clipSmall(*p, pt, n, buf[k]);
        p = &buf[k];
        k ^= 1;
        if (p->n < 3)
            return false;
    }
    return areaSmall(*p) > 1e-7;
}

// The front zone: ahead of the front edge line, between the extended side edges (local frame: x = forward,
// y = to the right).
bool reachesFront(const Pose& self, const SmallPoly& local) {
    const double hf = self.d / 2, hw = self.w / 2, e = 1e-3;
    return reaches(local, {{{hf - e, 0}, {1, 0}}, {{0, -hw + e}, {0, 1}}, {{0, hw - e}, {0, -1}}});
}

Zone classifyLocal(const Pose& self, const SmallPoly& local) {
    const double hf = self.d / 2, hw = self.w / 2, e = 1e-3;
    // Local frame: x = forward, y = to the right.
    if (reachesFront(self, local))
        return Zone::Front;
    // Front-flank: ahead of the front edge line, outside the side edges.
    if (reaches(local, {{{hf + e, 0}, {1, 0}}, {{0, hw + e}, {0, 1}}}) ||
        reaches(local, {{{hf + e, 0}, {1, 0}}, {{0, -hw - e}, {0, -1}}}))
        return Zone::FrontFlank;
    // Rear-flank: behind the front edge line, outside the side edges.
    if (reaches(local, {{{hf - e, 0}, {-1, 0}}, {{0, hw + e}, {0, 1}}}) ||
        reaches(local, {{{hf - e, 0}, {-1, 0}}, {{0, -hw - e}, {0, -1}}}))
        return Zone::BehindFlank;
    // Rear: entirely behind the rear edge, between the side edges.
    bool allRear = true;
    for (int i = 0; i < local.n; ++i) {
        const Vec2 v = local.at(i);
        if (v.x > -hf + e || std::abs(v.y) > hw + e)
            allRear = false;
    }
    return allRear ? Zone::Rear : Zone::None;
}

Zone classifyPoints(const Pose& self, const Vec2* other, qsizetype n) {
    // Each clip adds at most one vertex, and at most three clips are made.
    SmallPoly local;
    if (n + 3 > kSmallPoly) {
        Polygon big(other, other + n);
        Polygon l;
        for (const Vec2& v : big)
            l << self.toLocal(v);
        // Large polygons (never stands): the same steps on the heap.
        auto reachesBig = [&](std::initializer_list<std::pair<Vec2, Vec2>> hp) {
            Polygon p = l;
            for (const auto& [pt, nn] : hp) {
                p = clipHalfPlane(p, pt, nn);
                if (p.size() < 3)
                    return false;
            }
            return polygonArea(p) > 1e-7;
        };
        const double hf = self.d / 2, hw = self.w / 2, e = 1e-3;
        if (reachesBig({{{hf - e, 0}, {1, 0}}, {{0, -hw + e}, {0, 1}}, {{0, hw - e}, {0, -1}}}))
            return Zone::Front;
        if (reachesBig({{{hf + e, 0}, {1, 0}}, {{0, hw + e}, {0, 1}}}) ||
            reachesBig({{{hf + e, 0}, {1, 0}}, {{0, -hw - e}, {0, -1}}}))
            return Zone::FrontFlank;
        if (reachesBig({{{hf - e, 0}, {-1, 0}}, {{0, hw + e}, {0, 1}}}) ||
            reachesBig({{{hf - e, 0}, {-1, 0}}, {{0, -hw - e}, {0, -1}}}))
            return Zone::BehindFlank;
        bool allRear = true;
        for (const Vec2& v : l)
            if (v.x > -hf + e || std::abs(v.y) > hw + e)
                allRear = false;
        return allRear ? Zone::Rear : Zone::None;
    }
    // toLocal with the facing's direction taken once (the same values).
    const Vec2 f = self.forward();
    for (qsizetype i = 0; i < n; ++i) {
        const Vec2 r = other[i] - self.c;
        local.add({r.dot(f), r.x * f.y - r.y * f.x});
    }
    return classifyLocal(self, local);
}

} // namespace

Zone classify(const Pose& self, const Polygon& other) {
    return classifyPoints(self, other.constData(), other.size());
}

Zone classify(const Pose& self, const std::array<Vec2, 4>& other) {
    return classifyPoints(self, other.data(), 4);
}

bool inFront(const Pose& self, const Pose& other) {
    return inFront(self, other.corners());
}

bool inFront(const Pose& self, const std::array<Vec2, 4>& k) {
    // classifyPoints' local points (the same arithmetic), then only its first test.
    const Vec2 f = self.forward();
    SmallPoly local;
    for (const Vec2& v : k) {
        const Vec2 r = v - self.c;
        local.add({r.dot(f), r.x * f.y - r.y * f.x});
    }
    return reachesFront(self, local);
}

bool inRear(const Pose& self, const Pose& other) {
    return inRear(self, other.corners());
}

bool inRear(const Pose& self, const std::array<Vec2, 4>& k) {
    const Vec2 f = self.forward();
    const double hf = self.d / 2, hw = self.w / 2, e = 1e-3;
    for (const Vec2& v : k) {
        const Vec2 r = v - self.c; // classifyPoints' local point (the same arithmetic)
        if (r.dot(f) > -hf + e || std::abs(r.x * f.y - r.y * f.x) > hw + e)
            return false;
    }
    return classifyPoints(self, k.data(), 4) == Zone::Rear;
}

namespace {
// segmentDistance squared (before its square root), the segment given as a, ab = b - a and l2 = ab.ab. The
// parameter t = clamp((p - a).ab / l2, 0, 1) is divided out only when the clamp does not settle it: a
// negative numerator gives 0 and one of at least l2 gives 1 (the division is correctly rounded, so the same
// t).
inline double segmentDistance2(Vec2 p, Vec2 a, Vec2 ab, double l2) {
    double t = 0;
    if (l2 > 0) {
        const double num = (p - a).dot(ab);
        t = num < 0 ? 0.0 : num >= l2 ? 1.0 : num / l2;
    }
    const Vec2 q = p - (a + ab * t);
    return q.x * q.x + q.y * q.y;
}
} // namespace

double segmentDistance(Vec2 p, Vec2 a, Vec2 b) {
    const Vec2 ab = b - a;
    const double l2 = ab.dot(ab);
    double t = l2 > 0 ? (p - a).dot(ab) / l2 : 0;
    t = std::clamp(t, 0.0, 1.0);
    return (p - (a + ab * t)).length();
}

namespace {
// A read-only view of a polygon's vertices: QList polygons and the 4 corners of a stand alike (no copy).
struct Span {
    const Vec2* p = nullptr;
    qsizetype n = 0;
    Span(const Polygon& l) : p(l.constData()), n(l.size()) {}
    Span(const std::array<Vec2, 4>& a) : p(a.data()), n(4) {}
    qsizetype size() const { return n; }
    bool isEmpty() const { return n == 0; }
    const Vec2& operator[](qsizetype i) const { return p[i]; }
    const Vec2* begin() const { return p; }
    const Vec2* end() const { return p + n; }
};
bool containsSpan(Span a, Vec2 p) {
    if (a.size() < 3)
        return false;
    double sign = 0;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const Vec2 u = a[i], v = a[(i + 1) % a.size()];
        const double c = (v - u).cross(p - u);
        if (std::abs(c) < 1e-12)
            continue;
        if (sign == 0)
            sign = c;
        else if ((c > 0) != (sign > 0))
            return false;
    }
    return true;
}
// The unit normal of the edge from u to v, as the separating-axis tests take it; false for a degenerate edge.
bool edgeNormal(Vec2 u, Vec2 v, Vec2* out) {
    const Vec2 e = v - u;
    const Vec2 n{-e.y, e.x};
    const double len = n.length();
    if (len < 1e-12)
        return false;
    *out = n * (1 / len);
    return true;
}
// The extent of points along n: their smallest and largest projections.
template <typename Points> void extent(const Points& pts, Vec2 n, double* lo, double* hi) {
    *lo = 1e300;
    *hi = -1e300;
    for (const Vec2& v : pts) {
        const double k = v.dot(n);
        *lo = std::min(*lo, k);
        *hi = std::max(*hi, k);
    }
}

// Minimum overlap depth along the separating-axis candidates (negative or zero = separated/touching).
// Stops early once the depth is known to be at most `stopBelow`.
double satDepth(Span a, Span b, double stopBelow = -1e300) {
    double best = std::numeric_limits<double>::max();
    for (const Span* p : {&a, &b}) {
        for (qsizetype i = 0, m = p->size(); i < m; ++i) {
            Vec2 n;
            if (!edgeNormal((*p)[i], (*p)[i + 1 < m ? i + 1 : 0], &n))
                continue;
            double amin, amax, bmin, bmax;
            extent(a, n, &amin, &amax);
            extent(b, n, &bmin, &bmax);
            best = std::min(best, std::min(amax, bmax) - std::max(amin, bmin));
            if (best <= stopBelow)
                return best;
        }
    }
    return best;
}

bool overlapsSpan(Span a, Span b, double tol) {
    // Disjoint bounding boxes: the convex polygons are disjoint, so no overlap deeper than tol >= 0.
    if (tol >= 0 && !a.isEmpty() && !b.isEmpty()) {
        if (!boxOf(a).meets(boxOf(b)))
            return false;
    }
    return satDepth(a, b, tol) > tol;
}

// distanceSpan's last part for polygons that do not intersect: the smallest vertex-edge distance. The same
// sums as segmentDistance, compared squared (sqrt is monotonic and correctly rounded, so the square root of
// the smallest square is the smallest distance, bit for bit), each edge set up once.
double edgeDistance(Span a, Span b) {
    double best2 = std::numeric_limits<double>::infinity();
    bool any = false;
    for (const Span* pe : {&b, &a}) {
        const Span& e = *pe;
        const Span& pts = pe == &b ? a : b;
        for (qsizetype i = 0; i < e.size(); ++i) {
            const Vec2 s0 = e[i];
            const Vec2 ab = e[i + 1 < e.size() ? i + 1 : 0] - s0;
            const double l2 = ab.dot(ab);
            for (const Vec2& p : pts) {
                any = true;
                best2 = std::min(best2, segmentDistance2(p, s0, ab, l2));
            }
        }
    }
    return any ? std::sqrt(best2) : 1e300;
}

// edgeDistance on two stands' corners: the same sums over the same pairs (a minimum does not depend on the
// order its terms are taken in), with the loops' bounds fixed.
double edgeDistance(const Corners& a, const Corners& b) {
    double best2 = std::numeric_limits<double>::infinity();
    auto edges = [&best2](const Corners& e, const Corners& pts) {
        for (std::size_t i = 0; i < 4; ++i) {
            const Vec2 s0 = e[i];
            const Vec2 ab = e[(i + 1) & 3] - s0;
            const double l2 = ab.dot(ab);
            for (const Vec2& p : pts)
                best2 = std::min(best2, segmentDistance2(p, s0, ab, l2));
        }
    };
    edges(b, a);
    edges(a, b);
    return std::sqrt(best2);
}

double distanceSpan(Span a, Span b, double cap) {
    const double gap = boxGap(boxOf(a), boxOf(b));
    if (gap > cap)
        return gap; // a lower bound, already beyond what the caller cares about
    if (gap <= 0 && satDepth(a, b, -1e-12) >= 0)
        return 0;
    return edgeDistance(a, b);
}
bool segmentCrossesSpan(Span poly, Vec2 a, Vec2 b) {
    // Clip the segment against each edge's half-plane (Cyrus-Beck); crossing if a piece of positive length
    // remains strictly inside.
    if (poly.size() < 3)
        return false;
    // orientation
    double area2 = 0;
    for (qsizetype i = 0; i < poly.size(); ++i)
        area2 += poly[i].cross(poly[(i + 1) % poly.size()]);
    const double orient = area2 > 0 ? 1 : -1;
    double t0 = 0, t1 = 1;
    const Vec2 d = b - a;
    for (qsizetype i = 0; i < poly.size(); ++i) {
        const Vec2 u = poly[i], v = poly[(i + 1) % poly.size()];
        const Vec2 e = v - u;
        // inward normal
        const Vec2 n = Vec2{-e.y, e.x} * orient;
        const double num = (a - u).dot(n), den = d.dot(n);
        if (std::abs(den) < 1e-12) {
            if (num <= 0)
                return false;
            continue;
        }
        const double t = -num / den;
        if (den > 0)
            t0 = std::max(t0, t);
        else
            t1 = std::min(t1, t);
        if (t0 >= t1)
            return false;
    }
    return (t1 - t0) * d.length() > 1e-6;
}

} // namespace

// The axes of two stands' sides are, twice each and up to sign, the edge normals satDepth tests; the depths
// here come from centres and half sizes and agree with satDepth's to far better than the margin, so satDepth
// compared with `tol` gives the same answer wherever this is not 0.
int overlapSide(const Pose& a, const Pose& b, double tol) {
    constexpr double kMargin = 1e-8;
    if (!(a.w > 1e-9 && a.d > 1e-9 && b.w > 1e-9 && b.d > 1e-9))
        return 0; // degenerate edges are skipped by satDepth: leave it to satDepth
    const Vec2 fa = a.forward(), fb = b.forward();
    const Vec2 ra{fa.y, -fa.x}, rb{fb.y, -fb.x};
    const Vec2 dc = b.c - a.c;
    const double ha = a.d / 2, wa = a.w / 2, hb = b.d / 2, wb = b.w / 2;
    const double cf = std::abs(fa.dot(fb)), cr = std::abs(fa.dot(rb)); // |ra.rb| and |ra.fb| alike
    // Overlap of two intervals of radii rA and rB whose centres lie d apart (one may hold the other).
    auto depth = [](double rA, double rB, double d) {
        return std::min(rA + rB - std::abs(d), 2 * std::min(rA, rB));
    };
    const double least = std::min(
        std::min(depth(ha, hb * cf + wb * cr, dc.dot(fa)), depth(wa, hb * cr + wb * cf, dc.dot(ra))),
        std::min(depth(ha * cf + wa * cr, hb, dc.dot(fb)), depth(ha * cr + wa * cf, wb, dc.dot(rb))));
    if (least > tol + kMargin)
        return 1;
    if (least < tol - kMargin)
        return -1;
    return 0;
}

bool overlaps(const Polygon& a, const Polygon& b, double tol) {
    return overlapsSpan(a, b, tol);
}
bool overlaps(const Pose& a, const Pose& b, double tol) {
    // overlapsSpan: disjoint boxes, or satDepth(a, b, tol) > tol; for two stands the side axes mostly settle
    // it.
    if (tol >= 0)
        if (const int side = overlapSide(a, b, tol); side != 0)
            return side > 0;
    return overlapsSpan(a.corners(), b.corners(), tol);
}
bool overlaps(const Pose& a, const Polygon& b, double tol) {
    return overlapsSpan(a.corners(), b, tol);
}

ConvexAxes convexAxes(const Polygon& p) {
    // satDepth's normals of p's edges, and p's extent along each.
    ConvexAxes out;
    out.box = boxOf(p);
    for (qsizetype i = 0, m = p.size(); i < m; ++i) {
        ConvexAxes::Axis ax;
        if (!edgeNormal(p[i], p[i + 1 < m ? i + 1 : 0], &ax.n))
            continue;
        extent(p, ax.n, &ax.lo, &ax.hi);
        out.axes << ax;
    }
    return out;
}

bool overlaps(const Pose& a, const Polygon& p, const ConvexAxes& axes, double tol) {
    // overlapsSpan(a's corners, p, tol): disjoint boxes, then satDepth(ka, p, tol) > tol, which holds exactly
    // when the overlap along every axis (the stand's sides', then p's edges') exceeds tol, whatever the
    // order.
    if (tol < 0 || p.isEmpty())
        return overlaps(a, p, tol);
    const Corners ka = a.corners();
    if (!boxOf(ka).meets(axes.box))
        return false;
    double amin, amax, bmin, bmax;
    for (std::size_t i = 0; i < 4; ++i) { // the stand's sides: both shapes projected
        Vec2 n;
        if (!edgeNormal(ka[i], ka[(i + 1) & 3], &n))
            continue;
        extent(ka, n, &amin, &amax);
        extent(p, n, &bmin, &bmax);
        if (std::min(amax, bmax) - std::max(amin, bmin) <= tol)
            return false;
    }
    for (const ConvexAxes::Axis& ax : axes.axes) { // p's edges: its extent is known
        extent(ka, ax.n, &amin, &amax);
        if (std::min(amax, ax.hi) - std::max(amin, ax.lo) <= tol)
            return false;
    }
    return true;
}

namespace {
double pointDistanceSpan(Span a, Vec2 p) {
    if (containsSpan(a, p))
        return 0;
    double best = 1e300;
    for (qsizetype i = 0; i < a.size(); ++i)
        best = std::min(best, segmentDistance(p, a[i], a[(i + 1) % a.size()]));
    return best;
}
} // namespace

double distance(const Polygon& a, Vec2 p) {
    return pointDistanceSpan(a, p);
}
double distance(const Corners& a, Vec2 p) {
    return pointDistanceSpan(a, p);
}

double distance(const Polygon& a, const Polygon& b, double cap) {
    return distanceSpan(a, b, cap);
}
double distance(const Pose& a, const Pose& b, double cap) {
    return distance(a, a.corners(), b, b.corners(), cap);
}
double distance(const Pose& a, const Corners& ka, const Pose& b, const Corners& kb, double cap) {
    // distanceSpan, with the side axes of the stands settling most of satDepth's tests (whether they meet).
    const double gap = boxGap(boxOf(ka), boxOf(kb));
    if (gap > cap)
        return gap;
    if (gap <= 0) {
        const int side = overlapSide(a, b, 0);
        if (side > 0 || (side == 0 && satDepth(ka, kb, -1e-12) >= 0))
            return 0;
    }
    return edgeDistance(ka, kb); // the corners' own (the same value)
}
double distance(const Pose& a, const Polygon& b, double cap) {
    return distanceSpan(a.corners(), b, cap);
}

bool contains(const Polygon& a, Vec2 p) {
    return containsSpan(a, p);
}
bool contains(const Corners& a, Vec2 p) {
    return containsSpan(a, p);
}
bool segmentCrosses(const Polygon& poly, Vec2 a, Vec2 b) {
    return segmentCrossesSpan(poly, a, b);
}
bool segmentCrosses(const Corners& poly, Vec2 a, Vec2 b) {
    return segmentCrossesSpan(poly, a, b);
}
double distance(const Corners& a, const Corners& b, double cap) {
    return distanceSpan(a, b, cap);
}
double distance(const Corners& a, const Polygon& b, double cap) {
    return distanceSpan(a, b, cap);
}
bool overlaps(const Corners& a, const Corners& b, double tol) {
    return overlapsSpan(a, b, tol);
}
bool overlaps(const Corners& a, const Polygon& b, double tol) {
    return overlapsSpan(a, b, tol);
}

Polygon convexHull(Polygon pts) {
    std::sort(pts.begin(), pts.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    if (pts.size() < 3)
        return pts;
    Polygon h(2 * pts.size());
    qsizetype k = 0;
    for (qsizetype i = 0; i < pts.size(); ++i) { // lower hull
        while (k >= 2 && (h[k - 1] - h[k - 2]).cross(pts[i] - h[k - 2]) <= 0)
            --k;
        h[k++] = pts[i];
    }
    for (qsizetype i = pts.size() - 2, t = k + 1; i >= 0; --i) { // upper hull
        while (k >= t && (h[k - 1] - h[k - 2]).cross(pts[i] - h[k - 2]) <= 0)
            --k;
        h[k++] = pts[i];
    }
    h.resize(k - 1);
    return h;
}

Polygon rectangle(Vec2 centre, double w, double d, double facingDeg) {
    return Pose{centre, facingDeg, w, d}.polygon();
}

Polygon ellipse(Vec2 centre, double rx, double ry, double rotationDeg, int sides) {
    Polygon p;
    const Vec2 ax = dirDeg(rotationDeg), ay = dirDeg(rotationDeg + 90);
    for (int i = 0; i < sides; ++i) {
        const double t = 2 * kPi * i / sides;
        p << centre + ax * (rx * std::cos(t)) + ay * (ry * std::sin(t));
    }
    return p;
}

Polygon thickSegment(Vec2 a, Vec2 b, double width) {
    const Vec2 d = b - a;
    const double len = d.length();
    const double deg = std::atan2(d.y, d.x) * 180 / kPi;
    return rectangle((a + b) * 0.5, width, len, deg);
}

Pose wheeled(const Pose& p, double deg) {
    const Vec2 pivot = deg >= 0 ? p.frontLeft() : p.frontRight();
    const double r = deg * kPi / 180;
    const Vec2 rel = p.c - pivot;
    const Vec2 rot{rel.x * std::cos(r) - rel.y * std::sin(r), rel.x * std::sin(r) + rel.y * std::cos(r)};
    Pose q = p;
    q.c = pivot + rot;
    q.facing = normDeg(p.facing + deg);
    return q;
}

double wheelCost(double width, double deg) {
    return 2 * width * std::sin(std::abs(deg) * kPi / 360);
}

} // namespace wp::tactical
