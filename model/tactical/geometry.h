// Geometry services for the miniatures engines (TVBD, later Tercios): a continuous table measured in the
// ruleset's unit (TUM for TVBD), oriented rectangles for stands, convex pieces for terrain, facing zones,
// distances, contact and line of sight. No rules here: the rulesets decide what the predicates mean.
#pragma once

#include <QList>
#include <QString>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>

namespace wp::tactical {

constexpr double kPi = 3.14159265358979323846;
constexpr double kContactEps = 0.02; // two stands closer than this are in contact (base to base)

struct Vec2 {
    double x = 0, y = 0;
    Vec2 operator+(Vec2 o) const { return {x + o.x, y + o.y}; }
    Vec2 operator-(Vec2 o) const { return {x - o.x, y - o.y}; }
    Vec2 operator*(double k) const { return {x * k, y * k}; }
    double dot(Vec2 o) const { return x * o.x + y * o.y; }
    double cross(Vec2 o) const { return x * o.y - y * o.x; }
    double length() const { return std::sqrt(x * x + y * y); }
    bool operator==(const Vec2&) const = default;
};

// Unit vector at `deg` degrees. Whole degrees in [-360, 720) come from a table filled with the very same
// expression (bit-identical results, no sin/cos call): facings and wheels are almost always whole degrees.
// Inline: the engines ask for a stand's facing very often.
namespace detail {
struct WholeDegrees {
    std::array<Vec2, 1080> v; // -360 .. 719
    WholeDegrees();           // geometry.cpp
};
inline const WholeDegrees& wholeDegrees() {
    static const WholeDegrees t;
    return t;
}
Vec2 dirDegAny(double deg); // any angle, by cos and sin (geometry.cpp)
} // namespace detail
inline Vec2 dirDeg(double deg) {
    if (deg >= -360 && deg < 720) {
        const int whole = int(deg); // in range: no overflow
        if (double(whole) == deg)
            return detail::wholeDegrees().v[std::size_t(whole + 360)];
    }
    return detail::dirDegAny(deg);
}
inline double normDeg(double deg) {
    deg = std::fmod(deg, 360.0);
    return deg < 0 ? deg + 360.0 : deg;
}

using Polygon = QList<Vec2>; // convex, counter-clockwise or clockwise

// An axis-aligned bounding box (empty, x0 > x1, when made of no point). Boxes that do not meet hold shapes
// that do not meet; the gap between two boxes is a lower bound of the distance between what they hold: the
// engines use them to skip exact tests that cannot succeed (the same answers, fewer polygon tests).
struct Box {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    void add(Vec2 v) {
        x0 = std::min(x0, v.x);
        y0 = std::min(y0, v.y);
        x1 = std::max(x1, v.x);
        y1 = std::max(y1, v.y);
    }
    void add(const Box& b) {
        x0 = std::min(x0, b.x0);
        y0 = std::min(y0, b.y0);
        x1 = std::max(x1, b.x1);
        y1 = std::max(y1, b.y1);
    }
    Box grown(double m) const { return {x0 - m, y0 - m, x1 + m, y1 + m}; }
    // Whether the boxes share a point (touching counts).
    bool meets(const Box& o) const { return !(x1 < o.x0 || o.x1 < x0 || y1 < o.y0 || o.y1 < y0); }
};
// The box of any list of points (a Polygon, a stand's corners).
template <typename Points> Box boxOf(const Points& pts) {
    Box b;
    for (const Vec2& v : pts)
        b.add(v);
    return b;
}
inline Box boxOf(Vec2 a, Vec2 b) {
    return {std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
}
// The boxes are more than `gap` apart along x or y (so every point of one is more than `gap` from the other).
inline bool boxesApart(const Box& a, const Box& b, double gap) {
    return a.x0 - b.x1 > gap || b.x0 - a.x1 > gap || a.y0 - b.y1 > gap || b.y0 - a.y1 > gap;
}
// Gap between the boxes (0 when they meet): a lower bound of the distance between what they hold.
inline double boxGap(const Box& a, const Box& b) {
    const double dx = std::max({0.0, a.x0 - b.x1, b.x0 - a.x1});
    const double dy = std::max({0.0, a.y0 - b.y1, b.y0 - a.y1});
    return std::sqrt(dx * dx + dy * dy);
}

// A stand: centre, facing (degrees; 0 = +x, 90 = +y), width along its front edge and depth.
struct Pose {
    Vec2 c;
    double facing = 90;
    double w = 2, d = 1;
    Vec2 forward() const { return dirDeg(facing); }
    Vec2 right() const { // lateral axis, to the unit's right
        const Vec2 f = forward();
        return {f.y, -f.x};
    }
    // Corners in order: front-left, front-right, rear-right, rear-left.
    std::array<Vec2, 4> corners() const;
    Polygon polygon() const;
    Vec2 frontLeft() const { return corners()[0]; }
    Vec2 frontRight() const { return corners()[1]; }
    // Local coordinates of a point: (along the facing from the centre, to the right of the centre).
    Vec2 toLocal(Vec2 p) const {
        const Vec2 r = p - c, f = forward();
        return {r.dot(f), r.x * f.y - r.y * f.x};
    }
    Vec2 fromLocal(double f, double s) const { return c + forward() * f + right() * s; }
};

// The radius of the largest circle in a stand, about its centre.
inline double innerRadius(const Pose& p) {
    return std::min(p.w, p.d) / 2;
}
// An upper bound of distance(a, b): the centres' distance less the circles in the stands, with a margin for
// rounding (a distance within a limit is settled by it, unmeasured, when this is within too).
inline double distanceUpperBound(const Pose& a, const Pose& b) {
    return (a.c - b.c).length() - innerRadius(a) - innerRadius(b) + 1e-9;
}

// Relative position of another stand (TVBD 7.2.6, digest 1.5), in priority order.
enum class Zone { Front, FrontFlank, BehindFlank, Rear, None };
QString zoneName(Zone z);

// Zone of `other` seen from `self`. A stand exactly on a zone border does not reach into the zone beyond it.
Zone classify(const Pose& self, const Polygon& other);
Zone classify(const Pose& self, const std::array<Vec2, 4>& other); // the same on corners (no allocation)
inline Zone classify(const Pose& self, const Pose& other) {
    return classify(self, other.corners());
}
// Whether classify(self, other) is Zone::Front: its first test alone (cheaper where no other zone matters).
bool inFront(const Pose& self, const Pose& other);
bool inFront(const Pose& self, const std::array<Vec2, 4>& other); // the same on corners
// Whether classify(self, other) is Zone::Rear: its last test (every corner behind the rear edge, between the
// side edges) first, on the same local points: the answer is Rear only where that holds, so the clipping is
// done only then.
bool inRear(const Pose& self, const Pose& other);
bool inRear(const Pose& self, const std::array<Vec2, 4>& other); // the same on corners
inline bool isFlank(Zone z) {
    return z == Zone::FrontFlank || z == Zone::BehindFlank;
}

double polygonArea(const Polygon& p);
Polygon clipHalfPlane(const Polygon& p, Vec2 point, Vec2 inwardNormal);
// Closest distance between two convex polygons (0 when they touch or overlap).
// With a cap, any distance above the cap may be returned as a lower bound above the cap (faster).
double distance(const Polygon& a, const Polygon& b, double cap = 1e300);
double distance(const Polygon& a, Vec2 p);
// The same on stands directly (no polygon built; identical results).
double distance(const Pose& a, const Pose& b, double cap = 1e300);
double distance(const Pose& a, const Polygon& b, double cap = 1e300);
// Overlap deeper than a small tolerance (touching is not overlapping).
bool overlaps(const Polygon& a, const Polygon& b, double tol = 1e-3);
bool overlaps(const Pose& a, const Pose& b, double tol = 1e-3);
bool overlaps(const Pose& a, const Polygon& b, double tol = 1e-3);
// Two stands (rectangles) along the axes of their sides, which decide whether they meet: +1 when their
// projections overlap by more than tol (plus a margin of 1e-8) along all four, so they overlap deeper than
// tol (overlaps(a, b, tol) holds; with tol >= 0 their distance is 0); -1 when along one of them they overlap
// by less than tol (less the margin), so overlaps(a, b, tol) does not hold (with tol <= 0 they are more than
// -tol apart); 0 when too close to tell (ask overlaps or distance). No square root, no division: a cheap
// first test.
int overlapSide(const Pose& a, const Pose& b, double tol);
bool contains(const Polygon& a, Vec2 p);
// Segment a-b passes through the interior of the polygon.
bool segmentCrosses(const Polygon& poly, Vec2 a, Vec2 b);
// The same tests on a stand's four corners (Pose::corners()) without building a Polygon: the very same
// operations on the same points, so the same results bit for bit, and no allocation.
using Corners = std::array<Vec2, 4>;
bool contains(const Corners& a, Vec2 p);
bool segmentCrosses(const Corners& poly, Vec2 a, Vec2 b);
double distance(const Corners& a, const Corners& b, double cap = 1e300);
double distance(const Corners& a, const Polygon& b, double cap = 1e300);
bool overlaps(const Corners& a, const Corners& b, double tol = 1e-3);
bool overlaps(const Corners& a, const Polygon& b, double tol = 1e-3);
double distance(const Corners& a, Vec2 p);
double segmentDistance(Vec2 p, Vec2 a, Vec2 b);
// distance(a, b, cap) of two stands whose corners (a.corners(), b.corners()) the caller has already: the same
// result, bit for bit, without computing them again.
double distance(const Pose& a, const Corners& ka, const Pose& b, const Corners& kb, double cap = 1e300);

// What the overlap test asks of a convex polygon alone, taken once for one tested against many stands (a
// terrain piece): its box, and along each of its edges' unit normals (computed as the test computes them) its
// own extent.
struct ConvexAxes {
    struct Axis {
        Vec2 n;
        double lo = 0, hi = 0;
    };
    QList<Axis> axes;
    Box box;
};
ConvexAxes convexAxes(const Polygon& p);
// overlaps(a, p, tol) with p's axes given: the same answer, projecting only the stand's corners on them.
bool overlaps(const Pose& a, const Polygon& p, const ConvexAxes& axes, double tol = 1e-3);

Polygon convexHull(Polygon points); // counter-clockwise

// Shapes.
Polygon rectangle(Vec2 centre, double w, double d, double facingDeg);
Polygon ellipse(Vec2 centre, double rx, double ry, double rotationDeg, int sides = 24);
// A thick straight piece of a linear feature (road, stream, river).
Polygon thickSegment(Vec2 a, Vec2 b, double width);

// Wheel of a stand about one of its front corners (TVBD 12.1.5): positive degrees turn to the left
// (counter-clockwise) about the front-left corner, negative to the right about the front-right corner.
Pose wheeled(const Pose& p, double deg);
// Distance travelled by the outside corner of a wheel (the chord): 2 w sin(|deg|/2).
double wheelCost(double width, double deg);

} // namespace wp::tactical
