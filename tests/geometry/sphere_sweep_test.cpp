// SPDX-License-Identifier: Zlib
// Swept spheres against spheres, capsules, boxes, planes, triangles, cylinders, cones and ellipsoids,
// checked against an exact
// long-double oracle that shares nothing with the core: the first root of distance(c(t)) = r, found by
// a convex minimisation and bracketing (tests/reference/sweep_reference.hpp) on the distances of
// tests/reference/distance_reference.hpp.
#include "analytic/geometry/sphere_sweep.hpp"

#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_ellipsoid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <tuple>
#include <vector>

#include "reference/distance_reference.hpp"
#include "reference/sweep_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using reference::SweepOutcome;
using test::Random;
using test::Real;
using test::RealVec3;
using test::widen;

// ---------------------------------------------------------------------------------------------------
// Stated bounds. M is the case's magnitude: the largest absolute coordinate among the inputs (start
// and end of the centre's path, the target's points) and the sizes. The inputs themselves are only
// known to u * M (u = unit roundoff of T), so every error is bounded in units of u * M.
template <class T> struct Bounds {
    static constexpr Real u = Real(unitRoundoff<T>);
    // Hit/miss is compared except when min_t f(t) (f = distance - r), f(0) or f(maxT) lie within this
    // of 0: grazing, touching at the start, or touching at the end.
    static constexpr Real tangencyBand = 128 * u;
    // |f(t_core)|: the sphere touches the target at the reported time.
    static constexpr Real residual = 64 * u;
    // |t_core - t_ref| * |v| * s, with s = -n . v / |v| the rate of approach at t_ref (the time error
    // is the distance error divided by that rate; grazing cases are left to the residual check).
    static constexpr Real timeTimesApproach = 64 * u;
    // |point_core - point_ref| / (1 + D / L), where point_ref is the target point nearest c(t_core), D
    // its distance from c(t_core) and L as below: the point lies D along the normal (for a start deep
    // inside a sphere or capsule, D is up to its radius while L may be small).
    static constexpr Real point = 64 * u;
    // Angle (radians) between normal_core and the reference normal at c(t_core), times L / M, where L
    // is the length of the offset that sets the normal (about r at impact; for a start inside a sphere
    // the distance to its centre, inside a box how much nearer the nearest face is than the next).
    static constexpr Real normalAngle = 64 * u;
    // Normals and points are not compared where L is below this (no direction is defined there).
    static constexpr Real undefinedNormal = 1024 * u;
};

// ---------------------------------------------------------------------------------------------------
// Reference models of the targets in long double: the signed distance (negative inside a solid), the
// nearest point of the surface, also for a point inside, and the length of the offset that sets the
// normal's direction (its error is u * M over that length; near zero no direction is defined).

struct SphereModel {
    RealVec3 center;
    Real radius;
    Real signedDistance(const RealVec3& p) const {
        return reference::signedDistancePointSphere(p, center, radius);
    }
    RealVec3 surfacePoint(const RealVec3& p) const { return center + radius * glm::normalize(p - center); }
    Real normalConditioning(const RealVec3& p) const { return glm::length(p - center); }
};

struct CapsuleModel {
    RealVec3 a, b;
    Real radius;
    Real signedDistance(const RealVec3& p) const {
        return reference::signedDistancePointCapsule(p, a, b, radius);
    }
    RealVec3 surfacePoint(const RealVec3& p) const {
        const RealVec3 axisPoint = reference::closestPointOnSegment(p, a, b).point;
        return axisPoint + radius * glm::normalize(p - axisPoint);
    }
    Real normalConditioning(const RealVec3& p) const { return reference::distancePointSegment(p, a, b); }
};

struct ObbModel {
    RealVec3 center;
    Mat3<Real> rotation;
    RealVec3 halfExtents;
    Real signedDistance(const RealVec3& p) const {
        return reference::signedDistancePointObb(p, center, rotation, halfExtents);
    }
    RealVec3 surfacePoint(const RealVec3& p) const {
        return reference::closestPointOnObbSurface(p, center, rotation, halfExtents);
    }
    // Inside: the nearest face's normal (not a difference of points, which would lose the direction
    // when the centre is close to the face).
    RealVec3 insideNormal(const RealVec3& p) const {
        const RealVec3 local = reference::obbLocal(p, center, rotation);
        const RealVec3 slack = halfExtents - glm::abs(local);
        int axis = 0;
        for (int i = 1; i < 3; ++i)
            if (slack[i] < slack[axis]) axis = i;
        return std::copysign(Real(1), local[axis]) * rotation[axis];
    }
    // Inside, the nearest face decides: how much nearer it is than the next one.
    Real normalConditioning(const RealVec3& p) const {
        const Real distance = signedDistance(p);
        if (distance > 0) return distance;
        RealVec3 slack = halfExtents - glm::abs(reference::obbLocal(p, center, rotation));
        std::sort(&slack[0], &slack[0] + 3);
        return slack[1] - slack[0];
    }
};

// Half-space behind the plane, or (twoSided) the plane as a sheet.
struct PlaneModel {
    RealVec3 normal;
    Real offset;
    bool twoSided;
    Real signedDistance(const RealVec3& p) const {
        const Real d = reference::signedDistancePointPlane(p, normal, offset);
        return twoSided ? std::abs(d) : d;
    }
    RealVec3 surfacePoint(const RealVec3& p) const {
        return reference::closestPointOnPlane(p, normal, offset);
    }
    Real normalConditioning(const RealVec3& p) const { return std::abs(signedDistance(p)); }
};

struct TriangleModel {
    RealVec3 a, b, c;
    Real signedDistance(const RealVec3& p) const { return reference::distancePointTriangle(p, a, b, c); }
    RealVec3 surfacePoint(const RealVec3& p) const {
        return reference::closestPointOnTriangle(p, a, b, c).point;
    }
    Real normalConditioning(const RealVec3& p) const { return signedDistance(p); }
};

// The solids of revolution in their section: a point's distance from the unit axis and its height along
// it from the anchor, and the point of given section coordinates in the half-plane through p.
struct AxialFrame {
    RealVec3 anchor, axis;
    Real across(const RealVec3& p) const { return glm::length(acrossVector(p)); }
    Real along(const RealVec3& p) const { return glm::dot(p - anchor, axis); }
    RealVec3 acrossVector(const RealVec3& p) const { return p - anchor - along(p) * axis; }
    RealVec3 radial(const RealVec3& p) const {
        const RealVec3 across = acrossVector(p);
        if (glm::length(across) > 0) return glm::normalize(across);
        const RealVec3 other = std::abs(axis.x) < Real(0.5) ? RealVec3(1, 0, 0) : RealVec3(0, 1, 0);
        return glm::normalize(glm::cross(axis, other));
    }
    RealVec3 at(const RealVec3& p, Real across, Real along) const {
        return anchor + along * axis + across * radial(p);
    }
};

inline AxialFrame axialFrame(const RealVec3& from, const RealVec3& to) {
    return {from, glm::normalize(to - from)};
}

using RealVec2 = Vec2<Real>;

inline RealVec2 closestOnSegment2(const RealVec2& p, const RealVec2& a, const RealVec2& b) {
    const Real s = std::clamp(glm::dot(p - a, b - a) / glm::dot(b - a, b - a), Real(0), Real(1));
    return a + s * (b - a);
}

struct CylinderModel {
    RealVec3 a, b;
    Real radius;
    AxialFrame frame() const { return axialFrame(a, b); }
    Real height() const { return glm::length(b - a); }
    // Inside: the distances to the side, cap a and cap b.
    std::array<Real, 3> slacks(const RealVec3& p) const {
        const Real along = frame().along(p);
        return {radius - frame().across(p), along, height() - along};
    }
    int nearestFace(const RealVec3& p) const {
        const auto slack = slacks(p);
        return int(std::min_element(slack.begin(), slack.end()) - slack.begin());
    }
    Real signedDistance(const RealVec3& p) const {
        const auto slack = slacks(p);
        const Real beyondSide = -slack[0], beyondCap = std::max(-slack[1], -slack[2]);
        if (beyondSide <= 0 && beyondCap <= 0) return std::max(beyondSide, beyondCap);
        return std::hypot(std::max(beyondSide, Real(0)), std::max(beyondCap, Real(0)));
    }
    RealVec3 surfacePoint(const RealVec3& p) const {
        const AxialFrame f = frame();
        const Real across = f.across(p), along = f.along(p);
        if (signedDistance(p) > 0)
            return f.at(p, std::min(across, radius), std::clamp(along, Real(0), height()));
        const int face = nearestFace(p);
        return face == 0 ? f.at(p, radius, along) : f.at(p, across, face == 1 ? 0 : height());
    }
    RealVec3 insideNormal(const RealVec3& p) const {
        const int face = nearestFace(p);
        return face == 0 ? frame().radial(p) : face == 1 ? -frame().axis : frame().axis;
    }
    // Inside, how much nearer the nearest face is than the next (and, for the side, how far from the
    // axis, which sets the radial direction).
    Real normalConditioning(const RealVec3& p) const {
        const Real distance = signedDistance(p);
        if (distance > 0) return distance;
        auto slack = slacks(p);
        const int face = nearestFace(p);
        std::sort(slack.begin(), slack.end());
        const Real margin = slack[1] - slack[0];
        return face == 0 ? std::min(margin, frame().across(p)) : margin;
    }
};

// The cone's section: the triangle apex (0, 0), rim (radius, height), base centre (0, height); its
// boundary in the half-plane is the side (apex - rim) and the base (rim - base centre).
struct ConeModel {
    RealVec3 apex, base;
    Real radius;
    AxialFrame frame() const { return axialFrame(apex, base); }
    Real height() const { return glm::length(base - apex); }
    RealVec2 section(const RealVec3& p) const { return {frame().across(p), frame().along(p)}; }
    bool inside(const RealVec2& q) const { return q.y <= height() && q.x * height() <= q.y * radius; }
    RealVec2 onSide(const RealVec2& q) const {
        return closestOnSegment2(q, RealVec2(0, 0), RealVec2(radius, height()));
    }
    RealVec2 onBase(const RealVec2& q) const {
        return closestOnSegment2(q, RealVec2(radius, height()), RealVec2(0, height()));
    }
    bool sideNearer(const RealVec2& q) const {
        return glm::length(q - onSide(q)) < glm::length(q - onBase(q));
    }
    Real signedDistance(const RealVec3& p) const {
        const RealVec2 q = section(p);
        const Real distance = std::min(glm::length(q - onSide(q)), glm::length(q - onBase(q)));
        return inside(q) ? -distance : distance;
    }
    RealVec3 surfacePoint(const RealVec3& p) const {
        const RealVec2 q = section(p);
        const RealVec2 nearest = sideNearer(q) ? onSide(q) : onBase(q);
        return frame().at(p, nearest.x, nearest.y);
    }
    RealVec3 insideNormal(const RealVec3& p) const {
        if (!sideNearer(section(p))) return frame().axis;
        return glm::normalize(height() * frame().radial(p) - radius * frame().axis);
    }
    Real normalConditioning(const RealVec3& p) const {
        const Real distance = signedDistance(p);
        if (distance > 0) return distance;
        const RealVec2 q = section(p);
        const Real margin = std::abs(glm::length(q - onSide(q)) - glm::length(q - onBase(q)));
        return sideNearer(q) ? std::min(margin, q.x) : margin;
    }
};

// The nearest surface point of the ellipsoid from the Lagrange condition x_i = e_i^2 y_i / (l + e_i^2)
// (local frame), l the root above -min e_i^2 of sum (e_i y_i / (l + e_i^2))^2 = 1, bracketed and
// narrowed in long double.
struct EllipsoidModel {
    RealVec3 center;
    Mat3<Real> rotation;
    RealVec3 radii;
    RealVec3 local(const RealVec3& p) const { return glm::transpose(rotation) * (p - center); }
    bool isInside(const RealVec3& y) const {
        const RealVec3 z = y / radii;
        return glm::dot(z, z) <= 1;
    }
    Real multiplier(const RealVec3& y) const {
        const RealVec3 e2 = radii * radii;
        const Real smallest = std::min({e2.x, e2.y, e2.z});
        Real low = -smallest;
        Real high = isInside(y) ? 0 : std::max({radii.x, radii.y, radii.z}) * glm::length(y);
        // Newton's steps where they stay inside the bracket, halving it otherwise, down to the precision
        // of l + e_i^2 (long double's epsilon of l + min e_i^2).
        Real l = high;
        for (int i = 0; i < 400; ++i) {
            const RealVec3 ratio = radii * y / (RealVec3(l) + e2);
            const Real excess = glm::dot(ratio, ratio) - 1;
            const Real slope = -2 * glm::dot(ratio * ratio, Real(1) / (RealVec3(l) + e2));
            (excess > 0 ? low : high) = l;
            if (excess == 0 || high - low <= std::numeric_limits<Real>::epsilon() * (l + smallest)) break;
            const Real next = l - excess / slope;
            l = next > low && next < high ? next : (low + high) / 2;
            if (l <= low || l >= high) break;
        }
        return l;
    }
    RealVec3 nearestLocal(const RealVec3& y) const {
        const RealVec3 e2 = radii * radii;
        return e2 * y / (RealVec3(multiplier(y)) + e2);
    }
    Real signedDistance(const RealVec3& p) const {
        const RealVec3 y = local(p);
        const Real distance = glm::length(y - nearestLocal(y));
        return isInside(y) ? -distance : distance;
    }
    RealVec3 surfacePoint(const RealVec3& p) const { return center + rotation * nearestLocal(local(p)); }
    RealVec3 insideNormal(const RealVec3& p) const {
        return glm::normalize(rotation * (nearestLocal(local(p)) / (radii * radii)));
    }
    // Inside, the nearest point turns fast near the centre's medial set, where l nears -min e_i^2.
    Real normalConditioning(const RealVec3& p) const {
        const Real distance = signedDistance(p);
        if (distance > 0) return distance;
        const Real smallest = std::min({radii.x, radii.y, radii.z});
        return (multiplier(local(p)) + smallest * smallest) / std::max({radii.x, radii.y, radii.z});
    }
};

// The unit normal from the surface toward p (out of the solid for p inside it).
template <class Model> RealVec3 referenceNormal(const Model& model, const RealVec3& p) {
    if constexpr (requires { model.insideNormal(p); })
        if (model.signedDistance(p) < 0) return model.insideNormal(p);
    const RealVec3 offset = p - model.surfacePoint(p);
    return (model.signedDistance(p) < 0 ? -offset : offset) / glm::length(offset);
}

template <class T> Real maxAbs(const Vec3<T>& v) {
    return std::max({std::abs(Real(v.x)), std::abs(Real(v.y)), std::abs(Real(v.z))});
}

// ---------------------------------------------------------------------------------------------------
// Random cases.

template <class T> struct Motion {
    RayPath<T> path;
    T radius;
};

// Scale log-uniform in [1e-4, 1e6], the target's centre up to 1000 scales from the origin.
struct Placement {
    double scale;
    Vec3<double> center;
};

inline Placement randomPlacement(Random& random) {
    const double scale = random.logUniform(1e-4, 1e6);
    const double distance = random.chance(0.2) ? 0.0 : scale * random.logUniform(1e-2, 1e3);
    return {scale, distance * random.unitVector<double>()};
}

// A sphere starting within 3 scales of the target, aimed near it (sometimes not at all), sometimes not
// moving; radius between 1e-3 and 1 scale.
template <class T> Motion<T> randomMotion(Random& random, const Placement& placement) {
    const double s = placement.scale;
    const Vec3<double> start = placement.center + s * random.uniform(0, 3) * random.unitVector<double>();
    Vec3<double> displacement(0);
    if (!random.chance(0.01)) {
        const Vec3<double> aim = random.chance(0.1) ? start + s * random.unitVector<double>()
                                                    : placement.center + random.point<double>(0.5 * s);
        displacement = (aim - start) * random.uniform(0.2, 2.5);
    }
    const T maxT = random.chance(0.8) ? T(1) : T(random.uniform(0, 3));
    return {{Vec3<T>(start), Vec3<T>(displacement), maxT}, T(s * random.logUniform(1e-3, 1))};
}

struct Stats {
    long cases = 0, hits = 0, misses = 0, ambiguous = 0, startContacts = 0, normalsSkipped = 0;
    long mismatches = 0;
    // Largest errors seen, in the units of Bounds: u M, the point in u M (1 + D / L), the normal's angle
    // in u M / L.
    Real residual = 0, timeTimesApproach = 0, point = 0, normalAngle = 0;
    // |t_core - t_ref| / maxT (the error as a fraction of the sweep's length) where the path meets the
    // surface within 60 degrees of its normal (the approach at least half the speed).
    Real timeOverLength = 0;
};

template <class T, class Model> void checkNormalAndPoint(const SphereSweepHit<T>& hit, const Model& model,
                                                         const RealVec3& center, Real magnitude,
                                                         Stats& stats) {
    using B = Bounds<T>;
    const Real unit = B::u * magnitude;
    // Wherever the centre is, the point lies on the surface (a plane's sheet and a triangle are their
    // own surface: their distance is unsigned).
    EXPECT_LE(std::abs(model.signedDistance(widen(hit.point))), B::point * magnitude)
        << "point off the surface";
    const Real conditioning = model.normalConditioning(center);
    if (conditioning <= B::undefinedNormal * magnitude) {
        ++stats.normalsSkipped;
        return;
    }
    const RealVec3 surfacePoint = model.surfacePoint(center);
    const Real pointError = glm::length(widen(hit.point) - surfacePoint) /
                            (1 + glm::length(center - surfacePoint) / conditioning);
    EXPECT_LE(pointError, B::point * magnitude) << "point off the nearest surface point";
    stats.point = std::max(stats.point, pointError / unit);
    const Real angle = test::angleBetween(widen(hit.normal), referenceNormal(model, center));
    EXPECT_LE(angle * conditioning, B::normalAngle * magnitude) << "normal off by " << angle << " rad";
    stats.normalAngle = std::max(stats.normalAngle, angle * conditioning / unit);
    EXPECT_NEAR(double(glm::length(widen(hit.normal))), 1.0, 8 * double(B::u));
}

// One case: the core's answer against the oracle's.
template <class T, class Model> void checkCase(const Motion<T>& motion, const Model& model,
                                               Real targetMagnitude,
                                               const std::optional<SphereSweepHit<T>>& hit, Stats& stats) {
    using B = Bounds<T>;
    const RealVec3 origin = widen(motion.path.origin), direction = widen(motion.path.direction);
    const Real radius = motion.radius, maxT = motion.path.maxT;
    const Real magnitude = std::max({maxAbs(motion.path.origin), maxAbs(motion.path.at(motion.path.maxT)),
                                     targetMagnitude, radius, maxAbs(motion.path.direction) * maxT});
    const Real unit = B::u * magnitude;
    const auto centerAt = [&](Real t) { return origin + t * direction; };
    const auto distanceAt = [&](Real t) { return std::max(Real(0), model.signedDistance(centerAt(t))); };
    const reference::SweepReference expected = reference::firstTimeOfImpact(
        distanceAt, radius, maxT, glm::length(direction), B::tangencyBand * magnitude);
    ++stats.cases;

    if (hit) {
        ASSERT_TRUE(std::isfinite(hit->t) && isFinite(hit->point) && isFinite(hit->normal));
        EXPECT_TRUE(hit->t >= T(0) && hit->t <= motion.path.maxT);
        EXPECT_EQ(hit->startsInContact, hit->t == T(0));
    }
    if (expected.outcome == SweepOutcome::Ambiguous) {
        ++stats.ambiguous;
    } else if (hit.has_value() != (expected.outcome == SweepOutcome::Hit)) {
        ++stats.mismatches;
        ADD_FAILURE() << (hit ? "hit, expected miss" : "miss, expected hit at t = ") << double(expected.t);
        return;
    }
    if (!hit) {
        ++stats.misses;
        return;
    }
    ++stats.hits;
    if (hit->t == T(0)) {
        ++stats.startContacts;
        EXPECT_LE(expected.startValue, B::tangencyBand * magnitude) << "contact at start while apart";
        checkNormalAndPoint(*hit, model, origin, magnitude, stats);
        return;
    }
    EXPECT_GT(expected.startValue, -B::tangencyBand * magnitude) << "overlapping at start, yet t > 0";
    const RealVec3 center = centerAt(Real(hit->t));
    const Real residual = std::abs(distanceAt(Real(hit->t)) - radius);
    EXPECT_LE(residual, B::residual * magnitude) << "the sphere does not touch at the reported t";
    stats.residual = std::max(stats.residual, residual / unit);
    if (expected.outcome == SweepOutcome::Hit) {
        const Real approach =
            std::max(Real(0), -glm::dot(referenceNormal(model, centerAt(expected.t)), direction));
        const Real timeError = std::abs(Real(hit->t) - expected.t) * approach;
        EXPECT_LE(timeError, B::timeTimesApproach * magnitude)
            << "t " << hit->t << " vs " << double(expected.t) << " (approach rate " << double(approach)
            << ", f there " << double(distanceAt(expected.t) - radius) << ", f between "
            << double(distanceAt((expected.t + Real(hit->t)) / 2) - radius) << ")";
        stats.timeTimesApproach = std::max(stats.timeTimesApproach, timeError / unit);
        if (approach >= glm::length(direction) / 2 && maxT > 0)
            stats.timeOverLength = std::max(stats.timeOverLength, std::abs(Real(hit->t) - expected.t) / maxT);
    }
    checkNormalAndPoint(*hit, model, center, magnitude, stats);
}

constexpr int randomCases = 100000 / test::kCaseDivisor;
constexpr int grazingCases = 30000 / test::kCaseDivisor;

// grazing: the cases were built near tangency, so the band may hold most of them.
template <class T> void report(const char* target, const Stats& stats, bool grazing = false) {
    std::printf(
        "  %s<%s>: %ld cases, %ld hits (%ld at t = 0), %ld misses, %ld in the tangency band (skipped), "
        "%ld normals undefined;\n",
        target, sizeof(T) == sizeof(float) ? "float" : "double", stats.cases, stats.hits, stats.startContacts,
        stats.misses, stats.ambiguous, stats.normalsSkipped);
    std::printf(
        "    worst: residual %.1f u M, t * approach %.1f u M, point %.1f u M (1 + D/L), normal %.1f u M/L\n",
        double(stats.residual), double(stats.timeTimesApproach), double(stats.point),
        double(stats.normalAngle));
    EXPECT_EQ(stats.mismatches, 0);
    EXPECT_EQ(stats.cases, grazing ? grazingCases : randomCases);
    if (grazing) return;
    // In float, cases up to 1000 scales from the origin have a band of ~1e-2 scales: about 1% of them.
    EXPECT_LT(stats.ambiguous, stats.cases / 50) << "the tangency band holds too many cases";
    EXPECT_GT(stats.hits, stats.cases / 5);
    EXPECT_GT(stats.misses, stats.cases / 10);
}

// Runs count sweeps: makeTarget(random, placement) returns {target, model, target magnitude},
// makeMotion(random, placement, target) the sphere and its path.
template <class T, class MakeTarget, class Sweep, class MakeMotion>
Stats runRandom(std::uint64_t seed, int count, const MakeTarget& makeTarget, const Sweep& sweep,
                const MakeMotion& makeMotion) {
    Random random(seed);
    Stats stats;
    for (int i = 0; i < count && !::testing::Test::HasFailure(); ++i) {
        const Placement placement = randomPlacement(random);
        const auto [target, model, targetMagnitude] = makeTarget(random, placement);
        const Motion<T> motion = makeMotion(random, placement, target);
        const auto hit = sweep(motion.path, motion.radius, target);
        checkCase(motion, model, targetMagnitude, hit, stats);
        if (::testing::Test::HasFailure()) {
            if (hit)
                ADD_FAILURE() << "core: t " << hit->t << ", point " << hit->point.x << ' ' << hit->point.y
                              << ' ' << hit->point.z << ", normal " << hit->normal.x << ' ' << hit->normal.y
                              << ' ' << hit->normal.z;
            ADD_FAILURE() << "case " << i << std::hexfloat << ": origin " << motion.path.origin.x << ' '
                          << motion.path.origin.y << ' ' << motion.path.origin.z << ", direction "
                          << motion.path.direction.x << ' ' << motion.path.direction.y << ' '
                          << motion.path.direction.z << ", maxT " << motion.path.maxT << ", radius "
                          << motion.radius;
        }
    }
    return stats;
}

// randomCases sweeps of randomMotion's against makeTarget's targets, reported under the target's name.
template <class T, class MakeTarget, class Sweep>
void checkRandomSweeps(const char* target, std::uint64_t seed, const MakeTarget& makeTarget,
                       const Sweep& sweep) {
    const auto motion = [](Random& random, const Placement& placement, const auto&) {
        return randomMotion<T>(random, placement);
    };
    report<T>(target, runRandom<T>(seed, randomCases, makeTarget, sweep, motion));
}

template <class T> struct Target {
    static auto sphere(Random& random, const Placement& placement) {
        const Sphere<T> sphere{Vec3<T>(placement.center), T(placement.scale * random.uniform(0.2, 1))};
        return std::tuple{sphere, SphereModel{widen(sphere.center), Real(sphere.radius)},
                          maxAbs(sphere.center) + Real(sphere.radius)};
    }
    static auto capsule(Random& random, const Placement& placement) {
        const double s = placement.scale;
        const Vec3<double> a = placement.center + random.point<double>(s);
        const Vec3<double> b = random.chance(0.1) ? a : placement.center + random.point<double>(s);
        const Capsule<T> capsule{Vec3<T>(a), Vec3<T>(b), T(s * random.logUniform(3e-2, 1))};
        return std::tuple{capsule, CapsuleModel{widen(capsule.a), widen(capsule.b), Real(capsule.radius)},
                          std::max(maxAbs(capsule.a), maxAbs(capsule.b)) + Real(capsule.radius)};
    }
    static Vec3<T> halfExtents(Random& random, double s) {
        const auto extent = [&] { return random.chance(0.03) ? T(0) : T(s * random.logUniform(1e-2, 1)); };
        return {extent(), extent(), extent()};
    }
    static auto obb(Random& random, const Placement& placement) {
        const Obb<T> box{Vec3<T>(placement.center), random.rotation<T>(),
                         halfExtents(random, placement.scale)};
        return std::tuple{box, ObbModel{widen(box.center), widen(box.rotation), widen(box.halfExtents)},
                          maxAbs(box.center) + 2 * maxAbs(box.halfExtents)};
    }
    static auto aabb(Random& random, const Placement& placement) {
        const Vec3<T> half = halfExtents(random, placement.scale);
        const Aabb<T> box{Vec3<T>(placement.center) - half, Vec3<T>(placement.center) + half};
        const RealVec3 min = widen(box.min), max = widen(box.max);
        return std::tuple{box, ObbModel{(min + max) / Real(2), Mat3<Real>(1), (max - min) / Real(2)},
                          std::max(maxAbs(box.min), maxAbs(box.max))};
    }
    static auto triangle(Random& random, const Placement& placement) {
        const double s = placement.scale;
        const Vec3<double> a = placement.center + random.point<double>(s);
        const Vec3<double> b = placement.center + random.point<double>(s);
        // Some slivers: c close to the line ab.
        const Vec3<double> c = random.chance(0.1)
                                   ? a + random.uniform(-0.5, 1.5) * (b - a) + random.point<double>(1e-2 * s)
                                   : placement.center + random.point<double>(s);
        const Triangle<T> triangle{Vec3<T>(a), Vec3<T>(b), Vec3<T>(c)};
        return std::tuple{triangle, TriangleModel{widen(triangle.a), widen(triangle.b), widen(triangle.c)},
                          std::max({maxAbs(triangle.a), maxAbs(triangle.b), maxAbs(triangle.c)})};
    }
    // A solid of revolution about a random axis through a point near the placement's centre: its two
    // ends on the axis.
    static std::pair<Vec3<double>, Vec3<double>> axisEnds(Random& random, const Placement& placement) {
        const double s = placement.scale;
        const Vec3<double> middle = placement.center + random.point<double>(0.2 * s);
        const Vec3<double> half = random.unitVector<double>() * (s * random.logUniform(3e-2, 1));
        return {middle - half, middle + half};
    }
    static auto cylinder(Random& random, const Placement& placement) {
        const auto [a, b] = axisEnds(random, placement);
        const Cylinder<T> cylinder{Vec3<T>(a), Vec3<T>(b), T(placement.scale * random.logUniform(3e-2, 1))};
        return std::tuple{cylinder,
                          CylinderModel{widen(cylinder.a), widen(cylinder.b), Real(cylinder.radius)},
                          std::max(maxAbs(cylinder.a), maxAbs(cylinder.b)) + Real(cylinder.radius)};
    }
    static auto cone(Random& random, const Placement& placement) {
        const auto [apex, base] = axisEnds(random, placement);
        const Cone<T> cone{Vec3<T>(apex), Vec3<T>(base), T(placement.scale * random.logUniform(1e-2, 1))};
        return std::tuple{cone, ConeModel{widen(cone.apex), widen(cone.base), Real(cone.radius)},
                          std::max(maxAbs(cone.apex), maxAbs(cone.base)) + Real(cone.radius)};
    }
    static auto ellipsoid(Random& random, const Placement& placement) {
        const double s = placement.scale;
        const auto radius = [&] { return T(s * random.logUniform(1e-2, 1)); };
        const Ellipsoid<T> ellipsoid{Vec3<T>(placement.center), random.rotation<T>(),
                                     Vec3<T>(radius(), radius(), radius())};
        return std::tuple{
            ellipsoid,
            EllipsoidModel{widen(ellipsoid.center), widen(ellipsoid.rotation), widen(ellipsoid.radii)},
            maxAbs(ellipsoid.center) + maxAbs(ellipsoid.radii)};
    }
    // Through the placement's centre: the half-space behind it, or (twoSided) the plane as a sheet.
    static auto plane(Random& random, const Placement& placement, bool twoSided) {
        const Vec3<T> normal(random.unitVector<double>());
        const Plane<T> plane{normal, T(glm::dot(Vec3<double>(normal), placement.center))};
        return std::tuple{plane, PlaneModel{widen(plane.normal), Real(plane.offset), twoSided},
                          std::abs(Real(plane.offset))};
    }
};

template <class T> class SphereSweepTest : public ::testing::Test {};
TYPED_TEST_SUITE(SphereSweepTest, test::Scalars);

TYPED_TEST(SphereSweepTest, RandomAgainstSpheres) {
    using T = TypeParam;
    checkRandomSweeps<T>("sphere", 1, Target<T>::sphere, [](auto&&... a) { return sweepSphereSphere(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstCapsules) {
    using T = TypeParam;
    checkRandomSweeps<T>("capsule", 2, Target<T>::capsule,
                         [](auto&&... a) { return sweepSphereCapsule(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstOrientedBoxes) {
    using T = TypeParam;
    checkRandomSweeps<T>("obb", 3, Target<T>::obb, [](auto&&... a) { return sweepSphereObb(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstAxisAlignedBoxes) {
    using T = TypeParam;
    checkRandomSweeps<T>("aabb", 4, Target<T>::aabb, [](auto&&... a) { return sweepSphereAabb(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstTriangles) {
    using T = TypeParam;
    checkRandomSweeps<T>("triangle", 5, Target<T>::triangle,
                         [](auto&&... a) { return sweepSphereTriangle(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstHalfSpaces) {
    using T = TypeParam;
    checkRandomSweeps<T>(
        "half-space", 6,
        [](Random& random, const Placement& placement) { return Target<T>::plane(random, placement, false); },
        [](auto&&... a) { return sweepSpherePlane(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstTwoSidedPlanes) {
    using T = TypeParam;
    checkRandomSweeps<T>(
        "two-sided plane", 7,
        [](Random& random, const Placement& placement) { return Target<T>::plane(random, placement, true); },
        [](auto&&... a) { return sweepSphereTwoSidedPlane(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstCylinders) {
    using T = TypeParam;
    checkRandomSweeps<T>("cylinder", 21, Target<T>::cylinder,
                         [](auto&&... a) { return sweepSphereCylinder(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstCones) {
    using T = TypeParam;
    checkRandomSweeps<T>("cone", 22, Target<T>::cone, [](auto&&... a) { return sweepSphereCone(a...); });
}

TYPED_TEST(SphereSweepTest, RandomAgainstEllipsoids) {
    using T = TypeParam;
    checkRandomSweeps<T>("ellipsoid", 23, Target<T>::ellipsoid,
                         [](auto&&... a) { return sweepSphereEllipsoid(a...); });
}

// ---------------------------------------------------------------------------------------------------
// Near tangency: paths that pass the target at r (1 -+ 10^-k), k uniform in [1, 12], where cancellation
// would show. Hit/miss is compared wherever the oracle can decide it (outside the band).

// r (1 + sign 10^-k) for a random sign and k.
inline double grazingGap(Random& random, double radius) {
    return radius * (1 + (random.chance(0.5) ? 1 : -1) * std::pow(10.0, -random.uniform(1, 12)));
}

// A straight path of length 1 .. 6 scales through closest (at a random point of it), along direction.
template <class T> Motion<T> pathThrough(Random& random, const Placement& placement,
                                         const Vec3<double>& closest, const Vec3<double>& direction,
                                         double radius) {
    const double before = placement.scale * random.uniform(0.5, 3),
                 after = placement.scale * random.uniform(0.5, 3);
    return {{Vec3<T>(closest - before * direction), Vec3<T>((before + after) * direction), T(1)}, T(radius)};
}

template <class T> double randomSweepRadius(Random& random, const Placement& placement) {
    return double(T(placement.scale * random.logUniform(1e-3, 1)));
}

TYPED_TEST(SphereSweepTest, RandomGrazingSpheres) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Sphere<T>& sphere) {
        const double radius = randomSweepRadius<T>(random, placement);
        const Vec3<double> direction = random.unitVector<double>();
        const Vec3<double> across = glm::normalize(glm::cross(direction, random.unitVector<double>()));
        const Vec3<double> closest =
            Vec3<double>(sphere.center) + grazingGap(random, double(sphere.radius) + radius) * across;
        return pathThrough<T>(random, placement, closest, direction, radius);
    };
    report<T>(
        "grazing sphere",
        runRandom<T>(
            11, grazingCases, Target<T>::sphere, [](auto&&... a) { return sweepSphereSphere(a...); }, motion),
        true);
}

// Across a face of the box, at about r above it: grazes the face and the edges it crosses.
TYPED_TEST(SphereSweepTest, RandomGrazingBoxes) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Obb<T>& box) {
        const double radius = randomSweepRadius<T>(random, placement);
        const int axis = int(random.uniform(0, 3)) % 3, first = (axis + 1) % 3, second = (axis + 2) % 3;
        const Mat3<double> rotation(box.rotation);
        const Vec3<double> half(box.halfExtents);
        const double side = random.chance(0.5) ? 1 : -1;
        const double angle = random.uniform(0, 2 * M_PI);
        const Vec3<double> direction = std::cos(angle) * rotation[first] + std::sin(angle) * rotation[second];
        const Vec3<double> closest = Vec3<double>(box.center) +
                                     side * (half[axis] + grazingGap(random, radius)) * rotation[axis] +
                                     random.uniform(-1.2, 1.2) * half[first] * rotation[first] +
                                     random.uniform(-1.2, 1.2) * half[second] * rotation[second];
        return pathThrough<T>(random, placement, closest, direction, radius);
    };
    report<T>("grazing obb",
              runRandom<T>(
                  12, grazingCases, Target<T>::obb, [](auto&&... a) { return sweepSphereObb(a...); }, motion),
              true);
}

// Parallel to the triangle at about r from its plane, on either side: grazes the face and the edges.
TYPED_TEST(SphereSweepTest, RandomGrazingTriangles) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Triangle<T>& triangle) {
        const double radius = randomSweepRadius<T>(random, placement);
        const Vec3<double> a(triangle.a), b(triangle.b), c(triangle.c);
        const Vec3<double> normal = glm::normalize(glm::cross(b - a, c - a));
        const Vec3<double> direction = glm::normalize(glm::cross(normal, random.unitVector<double>()));
        const Vec3<double> inPlane = a + random.uniform(0, 1) * (b - a) + random.uniform(0, 1) * (c - a);
        const double side = random.chance(0.5) ? 1 : -1;
        return pathThrough<T>(random, placement, inPlane + side * grazingGap(random, radius) * normal,
                              direction, radius);
    };
    report<T>("grazing triangle",
              runRandom<T>(
                  13, grazingCases, Target<T>::triangle,
                  [](auto&&... a) { return sweepSphereTriangle(a...); }, motion),
              true);
}

// A point of a convex solid's surface and a unit normal of its normal cone there (a plane through the
// point, perpendicular to it, has the solid on one side). A path in the plane at height g above it stays
// at least g from the solid, and is exactly g away at the point's foot: it grazes a grown solid whose
// growth is g.
struct SurfaceSample {
    Vec3<double> point, normal;
};

// A path across the normal at r (1 -+ 10^-k) from the sample's point.
template <class T>
Motion<T> grazingPast(Random& random, const Placement& placement, const SurfaceSample& at) {
    const double radius = randomSweepRadius<T>(random, placement);
    const Vec3<double> direction = glm::normalize(glm::cross(at.normal, random.unitVector<double>()));
    return pathThrough<T>(random, placement, at.point + grazingGap(random, radius) * at.normal, direction,
                          radius);
}

// Unit vectors across a unit axis, at a random angle about it.
inline Vec3<double> randomRadial(Random& random, const Vec3<double>& axis) {
    const Vec3<double> first = glm::normalize(glm::cross(axis, random.unitVector<double>()));
    const Vec3<double> second = glm::cross(axis, first);
    const double angle = random.uniform(0, 2 * M_PI);
    return std::cos(angle) * first + std::sin(angle) * second;
}

// The side, a cap, or a rim (normal anywhere between the side's and the cap's).
template <class T> SurfaceSample cylinderSample(Random& random, const Cylinder<T>& cylinder) {
    const Vec3<double> a(cylinder.a), b(cylinder.b);
    const double radius = cylinder.radius;
    const Vec3<double> axis = glm::normalize(b - a), radial = randomRadial(random, axis);
    const bool atB = random.chance(0.5);
    const Vec3<double> cap = atB ? b : a, capNormal = atB ? axis : -axis;
    const double feature = random.uniform(0, 3);
    if (feature < 1) return {a + random.uniform(0, 1) * (b - a) + radius * radial, radial};
    if (feature < 2) return {cap + random.uniform(0, 1) * radius * radial, capNormal};
    const double angle = random.uniform(0, M_PI / 2);
    return {cap + radius * radial, std::cos(angle) * radial + std::sin(angle) * capNormal};
}

// The side, the base, the rim (between the side's normal and the base's) or the apex (between the
// side's normal and the axis away from the base).
template <class T> SurfaceSample coneSample(Random& random, const Cone<T>& cone) {
    const Vec3<double> apex(cone.apex), base(cone.base);
    const double radius = cone.radius, height = glm::length(base - apex);
    const Vec3<double> axis = glm::normalize(base - apex), radial = randomRadial(random, axis);
    const Vec3<double> sideNormal = glm::normalize(height * radial - radius * axis);
    const Vec3<double> rim = base + radius * radial;
    const double feature = random.uniform(0, 4);
    if (feature < 1) return {apex + random.uniform(0, 1) * (rim - apex), sideNormal};
    if (feature < 2) return {base + random.uniform(0, 1) * radius * radial, axis};
    const double mix = random.uniform(0, 1);
    if (feature < 3) return {rim, glm::normalize(mix * sideNormal + (1 - mix) * axis)};
    return {apex, glm::normalize(mix * sideNormal - (1 - mix) * axis)};
}

template <class T> SurfaceSample ellipsoidSample(Random& random, const Ellipsoid<T>& ellipsoid) {
    const Mat3<double> rotation(ellipsoid.rotation);
    const Vec3<double> radii(ellipsoid.radii), u = random.unitVector<double>();
    return {Vec3<double>(ellipsoid.center) + rotation * (radii * u), glm::normalize(rotation * (u / radii))};
}

TYPED_TEST(SphereSweepTest, RandomGrazingCylinders) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Cylinder<T>& cylinder) {
        return grazingPast<T>(random, placement, cylinderSample(random, cylinder));
    };
    report<T>("grazing cylinder",
              runRandom<T>(
                  24, grazingCases, Target<T>::cylinder,
                  [](auto&&... a) { return sweepSphereCylinder(a...); }, motion),
              true);
}

TYPED_TEST(SphereSweepTest, RandomGrazingCones) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Cone<T>& cone) {
        return grazingPast<T>(random, placement, coneSample(random, cone));
    };
    report<T>(
        "grazing cone",
        runRandom<T>(
            25, grazingCases, Target<T>::cone, [](auto&&... a) { return sweepSphereCone(a...); }, motion),
        true);
}

TYPED_TEST(SphereSweepTest, RandomGrazingEllipsoids) {
    using T = TypeParam;
    const auto motion = [](Random& random, const Placement& placement, const Ellipsoid<T>& ellipsoid) {
        return grazingPast<T>(random, placement, ellipsoidSample(random, ellipsoid));
    };
    report<T>("grazing ellipsoid",
              runRandom<T>(
                  26, grazingCases, Target<T>::ellipsoid,
                  [](auto&&... a) { return sweepSphereEllipsoid(a...); }, motion),
              true);
}

// FaceCulling::BackFaces is the two-sided sweep, except that a sphere whose centre starts behind the
// triangle or that moves toward its front side passes through (decided in long double; skipped where
// the side or the direction is within rounding of the plane).
TYPED_TEST(SphereSweepTest, RandomBackFaceCulling) {
    using T = TypeParam;
    Random random(8);
    long culled = 0, kept = 0;
    for (int i = 0; i < randomCases; ++i) {
        const Placement placement = randomPlacement(random);
        const auto [triangle, model, targetMagnitude] = Target<T>::triangle(random, placement);
        const Motion<T> motion = randomMotion<T>(random, placement);
        const RealVec3 normal = glm::normalize(glm::cross(model.b - model.a, model.c - model.a));
        const Real height = glm::dot(normal, widen(motion.path.origin) - model.a);
        const Real normalSpeed = glm::dot(normal, widen(motion.path.direction));
        const Real roundoff = 1024 * Bounds<T>::u * targetMagnitude;
        if (std::abs(height) <= roundoff ||
            (normalSpeed != 0 &&
             std::abs(normalSpeed) <= 1024 * Bounds<T>::u * maxAbs(motion.path.direction)))
            continue;
        const auto twoSided = sweepSphereTriangle(motion.path, motion.radius, triangle);
        const auto oneSided =
            sweepSphereTriangle(motion.path, motion.radius, triangle, FaceCulling::BackFaces);
        if (height < 0 || normalSpeed > 0) {
            ++culled;
            EXPECT_FALSE(oneSided.has_value()) << "case " << i;
        } else {
            ++kept;
            ASSERT_EQ(oneSided.has_value(), twoSided.has_value()) << "case " << i;
            if (oneSided) {
                EXPECT_EQ(oneSided->t, twoSided->t) << "case " << i;
            }
        }
    }
    EXPECT_GT(culled, randomCases / 4);
    EXPECT_GT(kept, randomCases / 10);
}

// ---------------------------------------------------------------------------------------------------
// Named cases. Expected values are worked out by hand (in long double where they are irrational); the
// cases sit far from the origin at a base point exact in float.

template <class T> Vec3<T> base() { return Vec3<T>(1000, -2000, 500); }

// t, point and normal within k u of the case's magnitude (and of r for the normal's angle).
template <class T> void expectHit(const std::optional<SphereSweepHit<T>>& hit, Real t, const RealVec3& point,
                                  const RealVec3& normal, bool startsInContact, Real magnitude = 4000) {
    ASSERT_TRUE(hit.has_value());
    const Real tolerance = 64 * Bounds<T>::u * magnitude;
    EXPECT_NEAR(double(hit->t), double(t), double(tolerance / 10));
    EXPECT_LE(glm::length(widen(hit->point) - point), tolerance) << "point";
    EXPECT_LE(test::angleBetween(widen(hit->normal), normal), tolerance) << "normal";
    EXPECT_NEAR(double(glm::length(widen(hit->normal))), 1.0, 8 * double(Bounds<T>::u));
    EXPECT_EQ(hit->startsInContact, startsInContact);
}

template <class T> RayPath<T> pathFrom(const Vec3<T>& origin, const Vec3<T>& direction, T maxT = T(1)) {
    return {origin, direction, maxT};
}

TYPED_TEST(SphereSweepTest, SphereHeadOn) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const Sphere<T> target{c, T(2)};
    // Gap 10 - 3 = 7 closed at speed 20.
    expectHit(sweepSphereSphere(pathFrom(c + Vec3<T>(-10, 0, 0), Vec3<T>(20, 0, 0)), T(1), target),
              Real(0.35), widen(c) + RealVec3(-2, 0, 0), RealVec3(-1, 0, 0), false);
    // The same motion stopped short.
    EXPECT_FALSE(
        sweepSphereSphere(pathFrom(c + Vec3<T>(-10, 0, 0), Vec3<T>(20, 0, 0), T(0.34)), T(1), target));
    // An unbounded path.
    const Real inf = std::numeric_limits<T>::infinity();
    expectHit(sweepSphereSphere(pathFrom(c + Vec3<T>(-10, 0, 0), Vec3<T>(1, 0, 0), T(inf)), T(1), target),
              Real(7), widen(c) + RealVec3(-2, 0, 0), RealVec3(-1, 0, 0), false);
    // Moving away: nothing.
    EXPECT_FALSE(sweepSphereSphere(pathFrom(c + Vec3<T>(-10, 0, 0), Vec3<T>(-20, 0, 0)), T(1), target));
}

TYPED_TEST(SphereSweepTest, SphereGrazing) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const Sphere<T> target{c, T(2)};
    // The centre passes the target's centre at 3 (1 -+ 1e-3); contact needs 3.
    const T outside = T(3 * (1 + 1e-3)), inside = T(3 * (1 - 1e-3));
    EXPECT_FALSE(sweepSphereSphere(pathFrom(c + Vec3<T>(-10, outside, 0), Vec3<T>(20, 0, 0)), T(1), target));
    const Real lateral = inside, along = std::sqrt(9 - lateral * lateral);
    const RealVec3 offset(-along, lateral, 0);
    expectHit(sweepSphereSphere(pathFrom(c + Vec3<T>(-10, inside, 0), Vec3<T>(20, 0, 0)), T(1), target),
              (10 - along) / 20, widen(c) + offset * Real(2.0L / 3), offset / Real(3), false);
}

TYPED_TEST(SphereSweepTest, SphereStartsTouchingOrOverlapping) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const Sphere<T> target{c, T(2)};
    const RealVec3 point = widen(c) + RealVec3(-2, 0, 0), normal(-1, 0, 0);
    // Touching (distance exactly 3 = 2 + 1), moving toward, away, or not at all.
    for (const Vec3<T> direction : {Vec3<T>(5, 0, 0), Vec3<T>(-5, 0, 0), Vec3<T>(0, 0, 0)})
        expectHit(sweepSphereSphere(pathFrom(c + Vec3<T>(-3, 0, 0), direction), T(1), target), 0, point,
                  normal, true);
    // Overlapping by 0.5 and moving away.
    expectHit(sweepSphereSphere(pathFrom(c + Vec3<T>(-2.5, 0, 0), Vec3<T>(-10, 0, 0)), T(1), target), 0,
              point, normal, true);
    // Apart and not moving: nothing.
    EXPECT_FALSE(sweepSphereSphere(pathFrom(c + Vec3<T>(-3.5, 0, 0), Vec3<T>(0, 0, 0)), T(1), target));
    // Centre on the target's centre: some unit normal, the point on the target's surface.
    const auto centred = sweepSphereSphere(pathFrom(c, Vec3<T>(1, 0, 0)), T(1), target);
    ASSERT_TRUE(centred.has_value());
    EXPECT_EQ(centred->t, T(0));
    EXPECT_NEAR(double(glm::length(widen(centred->normal))), 1.0, 1e-6);
    EXPECT_NEAR(double(glm::length(widen(centred->point) - widen(c))), 2.0, 1e-3);
}

TYPED_TEST(SphereSweepTest, CapsuleSideAndEnd) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const Capsule<T> target{c + Vec3<T>(0, 0, -3), c + Vec3<T>(0, 0, 3), T(1)};
    // Toward the side: reach 1 + 0.5 from the axis.
    expectHit(sweepSphereCapsule(pathFrom(c + Vec3<T>(10, 0, 1), Vec3<T>(-17, 0, 0)), T(0.5), target),
              Real(8.5) / 17, widen(c) + RealVec3(1, 0, 1), RealVec3(1, 0, 0), false);
    // Toward the end cap along the axis.
    expectHit(sweepSphereCapsule(pathFrom(c + Vec3<T>(0, 0, 10), Vec3<T>(0, 0, -10)), T(0.5), target),
              Real(0.55), widen(c) + RealVec3(0, 0, 4), RealVec3(0, 0, 1), false);
    // Starting inside, centre off the axis.
    expectHit(sweepSphereCapsule(pathFrom(c + Vec3<T>(0.5, 0, 2), Vec3<T>(3, 0, 0)), T(0.25), target), 0,
              widen(c) + RealVec3(1, 0, 2), RealVec3(1, 0, 0), true);
    // Parallel to the axis at a distance 2 > 1.5: never touches.
    EXPECT_FALSE(sweepSphereCapsule(pathFrom(c + Vec3<T>(2, 0, -10), Vec3<T>(0, 0, 20)), T(0.5), target));
}

// The box at base, half extents (1, 2, 3); r = 1.
template <class T> Obb<T> testBox(const Mat3<T>& rotation = Mat3<T>(1)) {
    return {base<T>(), rotation, Vec3<T>(1, 2, 3)};
}

TYPED_TEST(SphereSweepTest, BoxFaceEdgeVertex) {
    using T = TypeParam;
    // Also turned by 90 degrees about z (exact): local x is world y.
    const Mat3<T> quarterTurn(Vec3<T>(0, 1, 0), Vec3<T>(-1, 0, 0), Vec3<T>(0, 0, 1));
    for (const Mat3<T>& rotation : {Mat3<T>(1), quarterTurn}) {
        const Obb<T> box = testBox<T>(rotation);
        const RealVec3 c = widen(box.center);
        const Mat3<Real> turn = widen(rotation);
        const auto world = [&](const Vec3<T>& local) { return box.center + rotation * local; };
        const auto worldDirection = [&](const Vec3<T>& local) { return rotation * local; };
        // Face: gap 10 - 1 - 1 = 8 at speed 20.
        expectHit(sweepSphereObb(pathFrom(world(Vec3<T>(10, 0.5, 0.5)), worldDirection(Vec3<T>(-20, 0, 0))),
                                 T(1), box),
                  Real(0.4), c + turn * RealVec3(1, 0.5, 0.5), turn * RealVec3(1, 0, 0), false);
        // Edge (x = 1, y = 2): along the bisector, distance 5 sqrt 2 (1 - 2t) = 1.
        const RealVec3 bisector = RealVec3(1, 1, 0) / std::sqrt(Real(2));
        expectHit(sweepSphereObb(pathFrom(world(Vec3<T>(6, 7, 0)), worldDirection(Vec3<T>(-10, -10, 0))),
                                 T(1), box),
                  (1 - 1 / (5 * std::sqrt(Real(2)))) / 2, c + turn * RealVec3(1, 2, 0), turn * bisector,
                  false);
        // Vertex (1, 2, 3): along the diagonal, distance 4 sqrt 3 (1 - 2t) = 1.
        const RealVec3 diagonal = RealVec3(1, 1, 1) / std::sqrt(Real(3));
        expectHit(
            sweepSphereObb(pathFrom(world(Vec3<T>(5, 6, 7)), worldDirection(Vec3<T>(-8, -8, -8))), T(1), box),
            (1 - 1 / (4 * std::sqrt(Real(3)))) / 2, c + turn * RealVec3(1, 2, 3), turn * diagonal, false);
    }
}

TYPED_TEST(SphereSweepTest, BoxParallelToFaceAndThroughEdgeLine) {
    using T = TypeParam;
    const Obb<T> box = testBox<T>();
    const RealVec3 c = widen(box.center);
    // Sliding along x at 0.5 above the y face: meets the edge (x = -1, y = 2) where (x + 1)^2 + 0.25 = 1.
    const Real reach = std::sqrt(Real(0.75));
    expectHit(sweepSphereObb(pathFrom(box.center + Vec3<T>(-10, 2.5, 0), Vec3<T>(20, 0, 0)), T(1), box),
              (9 - reach) / 20, c + RealVec3(-1, 2, 0), RealVec3(-reach, 0.5, 0), false);
    // Sliding at 1.5 above it: never touches.
    EXPECT_FALSE(sweepSphereObb(pathFrom(box.center + Vec3<T>(-10, 3.5, 0), Vec3<T>(20, 0, 0)), T(1), box));
    // The centre's path runs exactly through the edge line (x = 1): the face y meets the sphere first.
    expectHit(sweepSphereObb(pathFrom(box.center + Vec3<T>(1, 12, 0), Vec3<T>(0, -10, 0)), T(1), box),
              Real(0.9), c + RealVec3(1, 2, 0), RealVec3(0, 1, 0), false);
    // Starting inside, nearest face +x.
    expectHit(sweepSphereObb(pathFrom(box.center + Vec3<T>(0.75, 0, 0), Vec3<T>(0, 5, 0)), T(0.125), box), 0,
              c + RealVec3(1, 0, 0), RealVec3(1, 0, 0), true);
    // A point (r = 0) through the edge: hits there.
    const auto point = sweepSphereObb(pathFrom(box.center + Vec3<T>(5, 6, 0), Vec3<T>(-8, -8, 0)), T(0), box);
    ASSERT_TRUE(point.has_value());
    EXPECT_NEAR(double(point->t), 0.5, 1e-6);
    EXPECT_LE(glm::length(widen(point->point) - (c + RealVec3(1, 2, 0))), 1e-3);
}

TYPED_TEST(SphereSweepTest, AabbMatchesObb) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const Aabb<T> box{c - Vec3<T>(1, 2, 3), c + Vec3<T>(1, 2, 3)};
    expectHit(sweepSphereAabb(pathFrom(c + Vec3<T>(6, 7, 0), Vec3<T>(-10, -10, 0)), T(1), box),
              (1 - 1 / (5 * std::sqrt(Real(2)))) / 2, widen(c) + RealVec3(1, 2, 0),
              RealVec3(1, 1, 0) / std::sqrt(Real(2)), false);
    EXPECT_FALSE(
        sweepSphereAabb(pathFrom(c, Vec3<T>(1, 0, 0)), T(1), Aabb<T>{c + Vec3<T>(1), c - Vec3<T>(1)}))
        << "min > max is no box";
}

// The triangle (0,0,0), (4,0,0), (0,4,0) about base; front normal +z.
template <class T> Triangle<T> testTriangle() {
    return {base<T>(), base<T>() + Vec3<T>(4, 0, 0), base<T>() + Vec3<T>(0, 4, 0)};
}

TYPED_TEST(SphereSweepTest, TriangleFaceBothSidesAndCulling) {
    using T = TypeParam;
    const Triangle<T> triangle = testTriangle<T>();
    const Vec3<T> o = base<T>();
    const RealVec3 c = widen(o);
    const RayPath<T> fromFront = pathFrom(o + Vec3<T>(1, 1, 5), Vec3<T>(0, 0, -10));
    const RayPath<T> fromBack = pathFrom(o + Vec3<T>(1, 1, -5), Vec3<T>(0, 0, 10));
    expectHit(sweepSphereTriangle(fromFront, T(1), triangle), Real(0.4), c + RealVec3(1, 1, 0),
              RealVec3(0, 0, 1), false);
    expectHit(sweepSphereTriangle(fromBack, T(1), triangle), Real(0.4), c + RealVec3(1, 1, 0),
              RealVec3(0, 0, -1), false);
    expectHit(sweepSphereTriangle(fromFront, T(1), triangle, FaceCulling::BackFaces), Real(0.4),
              c + RealVec3(1, 1, 0), RealVec3(0, 0, 1), false);
    EXPECT_FALSE(sweepSphereTriangle(fromBack, T(1), triangle, FaceCulling::BackFaces));
    // Overlapping at the start (centre 0.5 in front): leaving through the front is let go when culling.
    const RayPath<T> leaving = pathFrom(o + Vec3<T>(1, 1, 0.5), Vec3<T>(0, 0, 10));
    expectHit(sweepSphereTriangle(leaving, T(1), triangle), 0, c + RealVec3(1, 1, 0), RealVec3(0, 0, 1),
              true);
    EXPECT_FALSE(sweepSphereTriangle(leaving, T(1), triangle, FaceCulling::BackFaces));
    const RayPath<T> sinking = pathFrom(o + Vec3<T>(1, 1, 0.5), Vec3<T>(0, 0, -10));
    expectHit(sweepSphereTriangle(sinking, T(1), triangle, FaceCulling::BackFaces), 0, c + RealVec3(1, 1, 0),
              RealVec3(0, 0, 1), true);
}

TYPED_TEST(SphereSweepTest, TriangleEdgesAndVertices) {
    using T = TypeParam;
    const Triangle<T> triangle = testTriangle<T>();
    const Vec3<T> o = base<T>();
    const RealVec3 c = widen(o);
    // In the plane, head-on into edge ab.
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, -5, 0), Vec3<T>(0, 10, 0)), T(1), triangle),
              Real(0.4), c + RealVec3(1, 0, 0), RealVec3(0, -1, 0), false);
    // Parallel to the face at 0.5 above it, across edge ab: y^2 + 0.25 = 1.
    const Real reach = std::sqrt(Real(0.75));
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, -5, 0.5), Vec3<T>(0, 10, 0)), T(1), triangle),
              (5 - reach) / 10, c + RealVec3(1, 0, 0), RealVec3(0, -reach, 0.5), false);
    // Parallel at 2 above it: never touches.
    EXPECT_FALSE(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, -5, 2), Vec3<T>(0, 10, 0)), T(1), triangle));
    // In the plane toward vertex a along the bisector: 4 sqrt 2 (1 - 2t) = 1.
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(-4, -4, 0), Vec3<T>(8, 8, 0)), T(1), triangle),
              (1 - 1 / (4 * std::sqrt(Real(2)))) / 2, c, RealVec3(-1, -1, 0) / std::sqrt(Real(2)), false);
    // Straight down through the edge ab and through the vertex a: the sphere's lowest point lands there.
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, 0, 5), Vec3<T>(0, 0, -10)), T(1), triangle),
              Real(0.4), c + RealVec3(1, 0, 0), RealVec3(0, 0, 1), false);
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(0, 0, 5), Vec3<T>(0, 0, -10)), T(1), triangle),
              Real(0.4), c, RealVec3(0, 0, 1), false);
    // Collinear vertices (a degenerate triangle): the segment's capsule. The centre (1, 0, z) is at distance
    // 1 from the line through (1, 1, 1) when z^2 - z - 1/2 = 0, nearest to it at (1 + z) / 3 along each axis.
    const Real z = (1 + std::sqrt(Real(3))) / 2, s = (1 + z) / 3;
    const Triangle<T> collinear{o, o + Vec3<T>(1, 1, 1), o + Vec3<T>(2, 2, 2)};
    expectHit(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, 0, 5), Vec3<T>(0, 0, -10)), T(1), collinear),
              (5 - z) / 10, c + RealVec3(s, s, s), RealVec3(1 - s, -s, z - s), false);
    // One-sided, a degenerate triangle has no front: its neighbours in the mesh decide.
    EXPECT_FALSE(sweepSphereTriangle(pathFrom(o + Vec3<T>(1, 0, 5), Vec3<T>(0, 0, -10)), T(1), collinear,
                                     FaceCulling::BackFaces));
    // All three vertices at one point: its sphere, met head-on.
    expectHit(
        sweepSphereTriangle(pathFrom(o + Vec3<T>(0, 0, 5), Vec3<T>(0, 0, -10)), T(1), Triangle<T>{o, o, o}),
        Real(0.4), c, RealVec3(0, 0, 1), false);
}

// PhysX issue #501: a triangle sweep that picks one edge capsule or vertex sphere by a heuristic (the
// feature nearest to where the centre's path crosses the plane) and ray-casts only that one misses
// contacts. Here the path crosses the plane at (2, 17), nearest to vertex c = (0, 10) whose sphere it
// never reaches, while the sphere meets edge ab long before: (20t - 3)^2 + (0.9 - 0.9t)^2 = 1.
TYPED_TEST(SphereSweepTest, RegressionPhysx501EveryEdgeIsTested) {
    using T = TypeParam;
    const Vec3<T> o = base<T>();
    const Triangle<T> triangle{o, o + Vec3<T>(10, 0, 0), o + Vec3<T>(0, 10, 0)};
    // (400 + h^2) t^2 - 2 (60 + h^2) t + 8 + h^2 = 0 with h = 0.9 (as rounded to T): the smaller root.
    const Real h = Real(T(0.9)), a = 400 + h * h, halfB = -(60 + h * h), constant = 8 + h * h;
    const Real t = (-halfB - std::sqrt(halfB * halfB - a * constant)) / a;
    const RealVec3 offset(0, 20 * t - 3, h - h * t);
    const auto hit =
        sweepSphereTriangle(pathFrom(o + Vec3<T>(2, -3, 0.9), Vec3<T>(0, 20, -0.9)), T(1), triangle);
    expectHit(hit, t, widen(o) + RealVec3(2, 0, 0), offset / glm::length(offset), false);
}

// ---------------------------------------------------------------------------------------------------
// Planes: the sphere-plane sweep and the sample code's defect.

template <class T> Plane<T> floorPlane() { return {Vec3<T>(0, 0, 1), T(500)}; }  // z = 500

// The sample code's defect: (d0 - r) / (d0 - d1) holds only from the positive side. A sphere coming from the
// negative side of a two-sided plane meets it at (d0 + r) / (d0 - d1) = (-5 + 1) / (-5 - 5) = 0.4; the
// document's formula gives 0.6.
TYPED_TEST(SphereSweepTest, RegressionSpec002SphereFromNegativeSide) {
    using T = TypeParam;
    const Vec3<T> o = base<T>();
    const RayPath<T> rising = pathFrom(o + Vec3<T>(0, 0, -5), Vec3<T>(0, 0, 10));
    expectHit(sweepSphereTwoSidedPlane(rising, T(1), floorPlane<T>()), Real(0.4), widen(o),
              RealVec3(0, 0, -1), false);
    // Against the half-space, a centre below the plane is inside the solid: contact at t = 0.
    expectHit(sweepSpherePlane(rising, T(1), floorPlane<T>()), 0, widen(o), RealVec3(0, 0, 1), true);
    // From the positive side both agree: (5 - 1) / 10.
    const RayPath<T> falling = pathFrom(o + Vec3<T>(0, 0, 5), Vec3<T>(0, 0, -10));
    expectHit(sweepSpherePlane(falling, T(1), floorPlane<T>()), Real(0.4), widen(o), RealVec3(0, 0, 1),
              false);
    expectHit(sweepSphereTwoSidedPlane(falling, T(1), floorPlane<T>()), Real(0.4), widen(o),
              RealVec3(0, 0, 1), false);
}

// The sample code's defect: an overlap at t = 0 must give t = 0. The sample's formula gives (0.5 - 1) / 10
// < 0 for a sphere 0.5 above the plane moving down, and 0.05 for one moving up.
TYPED_TEST(SphereSweepTest, RegressionSpec002OverlapAtStartGivesZero) {
    using T = TypeParam;
    const Vec3<T> o = base<T>();
    for (const T height : {T(0.5), T(-0.5)}) {
        for (const T speed : {T(-10), T(10), T(0)}) {
            const RayPath<T> path = pathFrom(o + Vec3<T>(0, 0, height), Vec3<T>(0, 0, speed));
            expectHit(sweepSpherePlane(path, T(1), floorPlane<T>()), 0, widen(o), RealVec3(0, 0, 1), true);
            expectHit(sweepSphereTwoSidedPlane(path, T(1), floorPlane<T>()), 0, widen(o),
                      RealVec3(0, 0, height > 0 ? 1 : -1), true);
        }
    }
}

TYPED_TEST(SphereSweepTest, PlaneParallelTiltedAndCentreOnPlane) {
    using T = TypeParam;
    const Vec3<T> o = base<T>();
    // Moving parallel: never, and no NaN from the zero approach rate.
    EXPECT_FALSE(sweepSpherePlane(pathFrom(o + Vec3<T>(0, 0, 2), Vec3<T>(10, 3, 0)), T(1), floorPlane<T>()));
    EXPECT_FALSE(
        sweepSphereTwoSidedPlane(pathFrom(o + Vec3<T>(0, 0, -2), Vec3<T>(10, 3, 0)), T(1), floorPlane<T>()));
    // Centre exactly on the two-sided plane: the side it comes from.
    expectHit(sweepSphereTwoSidedPlane(pathFrom(o, Vec3<T>(0, 0, -1)), T(1), floorPlane<T>()), 0, widen(o),
              RealVec3(0, 0, 1), true);
    expectHit(sweepSphereTwoSidedPlane(pathFrom(o, Vec3<T>(0, 0, 1)), T(1), floorPlane<T>()), 0, widen(o),
              RealVec3(0, 0, -1), true);
    // A tilted plane through base, normal (0.6, 0.8, 0) rounded to T; expected values from its
    // rounded coefficients.
    const Plane<T> tilted{Vec3<T>(T(0.6), T(0.8), 0), T(0.6) * o.x + T(0.8) * o.y};
    const RayPath<T> path = pathFrom(o + Vec3<T>(30, 40, 7), Vec3<T>(-60, -80, 1));
    const RealVec3 n = widen(tilted.normal);
    const Real d0 = glm::dot(n, widen(path.origin)) - Real(tilted.offset);
    const Real t = (d0 - 2) / -glm::dot(n, widen(path.direction));
    expectHit(sweepSpherePlane(path, T(2), tilted), t,
              widen(path.origin) + t * widen(path.direction) - Real(2) * n, n, false);
    // A normal that is not unit length: no plane.
    EXPECT_FALSE(sweepSpherePlane(path, T(2), Plane<T>{Vec3<T>(0, 0, 2), T(1000)}));
}

// A graze at exactly the radius: f has a double root, so t is known only to the square root of the
// distance's rounding (2 64 u M), over the speed.
template <class T> Real grazeTolerance(Real speed, Real magnitude = 4000) {
    return std::sqrt(2 * 64 * Bounds<T>::u * magnitude) / speed;
}

// Cylinder of radius 1 about base, from z = -2 to 2.
TYPED_TEST(SphereSweepTest, CylinderSideCapsAndRims) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const RealVec3 w = widen(c);
    const Cylinder<T> target{c + Vec3<T>(0, 0, -2), c + Vec3<T>(0, 0, 2), T(1)};
    // Head-on into the side, and along the axis into cap b's centre.
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(-10, 0, 0.5), Vec3<T>(20, 0, 0)), T(1), target),
              Real(0.4), w + RealVec3(-1, 0, 0.5), RealVec3(-1, 0, 0), false);
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(0, 0, 10), Vec3<T>(0, 0, -20)), T(1), target),
              Real(0.35), w + RealVec3(0, 0, 2), RealVec3(0, 0, 1), false);
    // Into cap a from below, off the axis.
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(0.5, 0.25, -10), Vec3<T>(0, 0, 20)), T(1), target),
              Real(0.35), w + RealVec3(0.5, 0.25, -2), RealVec3(0, 0, -1), false);
    // The rim's torus: 0.6 above the cap's plane, moving along x; touches the rim at x + 1 = -0.8.
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(-10, 0, 2.6), Vec3<T>(20, 0, 0)), T(1), target),
              Real(0.41), w + RealVec3(-1, 0, 2), RealVec3(-0.8, 0, 0.6), false);
    // Parallel to the side, 0.99 out from the rim: meets the rim's torus sqrt(1 - 0.99^2) above the cap.
    const Real rise = std::sqrt(1 - Real(T(1.99) - 1) * Real(T(1.99) - 1));
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(1.99, 0, 10), Vec3<T>(0, 0, -20)), T(1), target),
              (8 - rise) / 20, w + RealVec3(1, 0, 2), RealVec3(Real(T(1.99)) - 1, 0, rise), false);
    // Parallel to the side, 2.01 from the axis: passes by; at exactly 2 it touches the side all along
    // from the rim down (a double root at t = 0.4).
    EXPECT_FALSE(sweepSphereCylinder(pathFrom(c + Vec3<T>(2.01, 0, 10), Vec3<T>(0, 0, -20)), T(1), target));
    const auto alongSide =
        sweepSphereCylinder(pathFrom(c + Vec3<T>(2, 0, 10), Vec3<T>(0, 0, -20)), T(1), target);
    ASSERT_TRUE(alongSide.has_value());
    EXPECT_NEAR(double(alongSide->t), 0.4, double(grazeTolerance<T>(20)));
    EXPECT_NEAR(double(alongSide->normal.x), 1.0, 1e-2);
    // Moving along the side at distance 0.5 < 1 out: starts in contact.
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(0, -1.5, 0), Vec3<T>(0, 0, 5)), T(1), target), 0,
              w + RealVec3(0, -1, 0), RealVec3(0, -1, 0), true);
    // Touching the side, moving away or in; overlapping and moving away.
    for (const Vec3<T> direction : {Vec3<T>(-5, 0, 0), Vec3<T>(5, 0, 0), Vec3<T>(0, 0, 0)})
        expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(-2, 0, 0), direction), T(1), target), 0,
                  w + RealVec3(-1, 0, 0), RealVec3(-1, 0, 0), true);
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(0, 0, 2.5), Vec3<T>(0, 0, 5)), T(1), target), 0,
              w + RealVec3(0, 0, 2), RealVec3(0, 0, 1), true);
    // Centre inside, nearest cap b (0.5 below it, 0.8 from the side): its projection on the cap.
    expectHit(sweepSphereCylinder(pathFrom(c + Vec3<T>(0.2, 0, 1.5), Vec3<T>(3, 1, 0)), T(0.1), target), 0,
              w + RealVec3(0.2, 0, 2), RealVec3(0, 0, 1), true);
    // Centre on the axis, nearest the side: some direction across the axis.
    const auto onAxis = sweepSphereCylinder(pathFrom(c, Vec3<T>(0, 0, 1)), T(0.1), target);
    ASSERT_TRUE(onAxis.has_value());
    EXPECT_EQ(onAxis->t, T(0));
    EXPECT_NEAR(double(onAxis->normal.z), 0.0, 1e-6);
    EXPECT_NEAR(double(glm::length(widen(onAxis->normal))), 1.0, 1e-6);
    EXPECT_LE(glm::length(widen(onAxis->point) - (w + widen(onAxis->normal))), 64 * Bounds<T>::u * 4000);
}

// Cone with apex 3 above base and its base 1 below (height 4), radius 3: slant 5, side normal
// (0.8 radial, 0.6 up).
TYPED_TEST(SphereSweepTest, ConeApexBaseSideAndRim) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const RealVec3 w = widen(c);
    const Cone<T> target{c + Vec3<T>(0, 0, 3), c + Vec3<T>(0, 0, -1), T(3)};
    // Along the axis onto the apex, and from below onto the base's centre.
    expectHit(sweepSphereCone(pathFrom(c + Vec3<T>(0, 0, 10), Vec3<T>(0, 0, -20)), T(1), target), Real(0.3),
              w + RealVec3(0, 0, 3), RealVec3(0, 0, 1), false);
    expectHit(sweepSphereCone(pathFrom(c + Vec3<T>(0, 0, -10), Vec3<T>(0, 0, 20)), T(1), target), Real(0.4),
              w + RealVec3(0, 0, -1), RealVec3(0, 0, -1), false);
    // Square onto the side's middle (1.5, 0, 1), along its normal.
    const RealVec3 sideNormal(0.8, 0, 0.6);
    expectHit(sweepSphereCone(pathFrom(c + Vec3<T>(9.5, 0, 7), Vec3<T>(-16, 0, -12)), T(1), target),
              Real(0.45), w + RealVec3(1.5, 0, 1), sideNormal, false);
    // Onto the rim (3, 0, -1) along a normal between the side's and the base's: (2, 0, -1) / sqrt 5.
    const RealVec3 rimNormal = glm::normalize(RealVec3(2, 0, -1));
    expectHit(
        sweepSphereCone(pathFrom(c + Vec3<T>(23, 0, -11), Vec3<T>(-40, 0, 20)), T(std::sqrt(5.0L)), target),
        Real(0.45), w + RealVec3(3, 0, -1), rimNormal, false);
    // Across the apex, 1 above it: grazes a sphere of radius 1 at t = 0.5 (the apex's normal cone holds
    // +z); passes a smaller one, meets a larger one before.
    const RayPath<T> overApex = pathFrom(c + Vec3<T>(-10, 0, 4), Vec3<T>(20, 0, 0));
    const auto grazed = sweepSphereCone(overApex, T(1), target);
    ASSERT_TRUE(grazed.has_value());
    EXPECT_NEAR(double(grazed->t), 0.5, double(grazeTolerance<T>(20)));
    EXPECT_LE(glm::length(widen(grazed->point) - (w + RealVec3(0, 0, 3))), 64 * Bounds<T>::u * 4000);
    EXPECT_FALSE(sweepSphereCone(overApex, T(0.999), target));
    expectHit(sweepSphereCone(overApex, T(1.25), target), (10 - Real(0.75)) / 20, w + RealVec3(0, 0, 3),
              RealVec3(-0.6, 0, 0.8), false);
    // Inside, on the axis 1 above the base (1.8 from the side): the base's centre.
    expectHit(sweepSphereCone(pathFrom(c, Vec3<T>(1, 2, 3)), T(0.5), target), 0, w + RealVec3(0, 0, -1),
              RealVec3(0, 0, -1), true);
    // Inside at (1.2, 0, 1), 0.24 from the side and 2 from the base: the side's point.
    expectHit(sweepSphereCone(pathFrom(c + Vec3<T>(1.2, 0, 1), Vec3<T>(0, 0, 0)), T(0.1), target), 0,
              w + RealVec3(1.2 + 0.24 * 0.8, 0, 1 + 0.24 * 0.6), sideNormal, true);
    // Touching the base from below, moving away.
    expectHit(sweepSphereCone(pathFrom(c + Vec3<T>(1, 1, -2), Vec3<T>(0, 0, -5)), T(1), target), 0,
              w + RealVec3(1, 1, -1), RealVec3(0, 0, -1), true);
}

// Ellipsoid with radii 1, 2, 3 along world y, -x and z.
TYPED_TEST(SphereSweepTest, EllipsoidAxesInsideAndSphere) {
    using T = TypeParam;
    const Vec3<T> c = base<T>();
    const RealVec3 w = widen(c);
    const Mat3<T> rotation(Vec3<T>(0, 1, 0), Vec3<T>(-1, 0, 0), Vec3<T>(0, 0, 1));
    const Ellipsoid<T> target{c, rotation, Vec3<T>(1, 2, 3)};
    expectHit(sweepSphereEllipsoid(pathFrom(c + Vec3<T>(0, 0, 10), Vec3<T>(0, 0, -20)), T(1), target),
              Real(0.3), w + RealVec3(0, 0, 3), RealVec3(0, 0, 1), false);
    expectHit(sweepSphereEllipsoid(pathFrom(c + Vec3<T>(10, 0, 0), Vec3<T>(-20, 0, 0)), T(0.5), target),
              Real(0.375), w + RealVec3(2, 0, 0), RealVec3(1, 0, 0), false);
    expectHit(sweepSphereEllipsoid(pathFrom(c + Vec3<T>(0, -10, 0), Vec3<T>(0, 20, 0)), T(0.5), target),
              Real(0.425), w + RealVec3(0, -1, 0), RealVec3(0, -1, 0), false);
    // Centre at the centre: the nearest surface points are the ends of the smallest axis.
    const auto centred = sweepSphereEllipsoid(pathFrom(c, Vec3<T>(1, 0, 0)), T(0.5), target);
    ASSERT_TRUE(centred.has_value());
    EXPECT_TRUE(centred->startsInContact);
    EXPECT_NEAR(std::abs(double(centred->normal.y)), 1.0, 1e-6);
    EXPECT_LE(glm::length(widen(centred->point) - (w + widen(centred->normal))), 64 * Bounds<T>::u * 4000);
    // Inside near the end of the largest axis, nearer than its centres of curvature (1 / 3 and 4 / 3
    // below it): the nearest point is that end.
    expectHit(sweepSphereEllipsoid(pathFrom(c + Vec3<T>(0, 0, 2.75), Vec3<T>(0, 0, 0)), T(0.1), target), 0,
              w + RealVec3(0, 0, 3), RealVec3(0, 0, 1), true);
    // Equal radii: the sphere's sweep.
    Random random(31);
    const Ellipsoid<T> ball{c, random.rotation<T>(), Vec3<T>(2)};
    for (int i = 0; i < 1000; ++i) {
        const RayPath<T> path =
            pathFrom(c + Vec3<T>(random.point<double>(6)), Vec3<T>(random.point<double>(12)));
        const T radius = T(random.uniform(0.1, 2));
        const auto asEllipsoid = sweepSphereEllipsoid(path, radius, ball);
        const auto asSphere = sweepSphereSphere(path, radius, Sphere<T>{c, T(2)});
        ASSERT_EQ(asEllipsoid.has_value(), asSphere.has_value()) << "case " << i;
        if (!asSphere) continue;
        EXPECT_NEAR(double(asEllipsoid->t * glm::length(path.direction)),
                    double(asSphere->t * glm::length(path.direction)), 64 * double(Bounds<T>::u) * 4000);
        EXPECT_LE(glm::length(widen(asEllipsoid->point) - widen(asSphere->point)), 64 * Bounds<T>::u * 4000);
    }
}

// Radius 0: the ray's first hit. Where the oracle decides (outside the tangency band; f is the signed
// distance, convex too, so that a hit is decided by how deep the path goes), the sweep and
// the ray test agree on hit or miss, and on t (times the approach) within the stated bound.
template <class T, class MakeTarget, class Sweep, class RayTest>
void checkRadiusZeroAgainstRay(std::uint64_t seed, const MakeTarget& makeTarget, const Sweep& sweep,
                               const RayTest& rayTest) {
    using B = Bounds<T>;
    Random random(seed);
    long hits = 0, compared = 0;
    for (int i = 0; i < 20000; ++i) {
        const Placement placement = randomPlacement(random);
        const auto [target, model, targetMagnitude] = makeTarget(random, placement);
        Motion<T> motion = randomMotion<T>(random, placement);
        if (motion.path.direction == Vec3<T>(0)) continue;
        const auto swept = sweep(motion.path, T(0), target);
        const auto ray = rayTest(motion.path, target);
        const RealVec3 origin = widen(motion.path.origin), direction = widen(motion.path.direction);
        const Real magnitude =
            std::max({maxAbs(motion.path.origin), maxAbs(motion.path.at(motion.path.maxT)), targetMagnitude,
                      maxAbs(motion.path.direction) * Real(motion.path.maxT)});
        const reference::SweepReference expected = reference::firstTimeOfImpact(
            [&](Real t) { return model.signedDistance(origin + t * direction); }, Real(0),
            Real(motion.path.maxT), glm::length(direction), B::tangencyBand * magnitude);
        if (expected.outcome == SweepOutcome::Ambiguous) continue;
        ++compared;
        ASSERT_EQ(swept.has_value(), ray.has_value()) << "case " << i;
        if (!ray) continue;
        ++hits;
        const Real rayT = ray->originInside ? Real(0) : Real(ray->entry.t);
        const Real approach =
            ray->originInside ? 1 : std::max(Real(0), -glm::dot(widen(ray->entry.normal), direction));
        EXPECT_LE(std::abs(Real(swept->t) - rayT) * approach, B::timeTimesApproach * magnitude)
            << "case " << i;
        EXPECT_EQ(swept->startsInContact, ray->originInside || ray->entry.t == T(0)) << "case " << i;
    }
    std::printf("  radius 0: %ld of 20000 decided by the oracle, %ld hits\n", compared, hits);
    EXPECT_GT(compared, 14000);
    EXPECT_GT(hits, 2000);
}

TYPED_TEST(SphereSweepTest, RadiusZeroIsTheRayTest) {
    using T = TypeParam;
    checkRadiusZeroAgainstRay<T>(
        41, Target<T>::cylinder, [](auto&&... a) { return sweepSphereCylinder(a...); },
        [](auto&&... a) { return intersectRayCylinder(a...); });
    checkRadiusZeroAgainstRay<T>(
        42, Target<T>::cone, [](auto&&... a) { return sweepSphereCone(a...); },
        [](auto&&... a) { return intersectRayCone(a...); });
    checkRadiusZeroAgainstRay<T>(
        43, Target<T>::ellipsoid, [](auto&&... a) { return sweepSphereEllipsoid(a...); },
        [](auto&&... a) { return intersectRayEllipsoid(a...); });
}

// The goal: t within 1e-6 of the sweep's length in float, 1e-12 in double, for solids of size
// about 1 near the origin, paths of a few units meeting the surface within 60 degrees of its normal.
// (Far from the origin the inputs themselves are rounded to u M, and t moves by u M / (speed cos).)
template <class T, class MakeTarget, class Sweep>
void checkTimeGoal(const char* name, std::uint64_t seed, const MakeTarget& makeTarget, const Sweep& sweep) {
    Placement current{};
    const auto target = [&](Random& random, const Placement&) {
        current = Placement{1.0, random.point<double>(1)};
        return makeTarget(random, current);
    };
    const auto motion = [&](Random& random, const Placement&, const auto&) {
        return randomMotion<T>(random, current);
    };
    const Stats stats = runRandom<T>(seed, 20000, target, sweep, motion);
    std::printf("  %s<%s> near the origin: worst |t - t_ref| / maxT %.3g (approach within 60 degrees)\n",
                name, sizeof(T) == sizeof(float) ? "float" : "double", double(stats.timeOverLength));
    EXPECT_EQ(stats.mismatches, 0);
    EXPECT_LE(stats.timeOverLength, sizeof(T) == sizeof(float) ? 1e-6 : 1e-12);
}

TYPED_TEST(SphereSweepTest, TimeOfImpactGoalNearTheOrigin) {
    using T = TypeParam;
    checkTimeGoal<T>("cylinder", 51, Target<T>::cylinder,
                     [](auto&&... a) { return sweepSphereCylinder(a...); });
    checkTimeGoal<T>("cone", 52, Target<T>::cone, [](auto&&... a) { return sweepSphereCone(a...); });
    checkTimeGoal<T>("ellipsoid", 53, Target<T>::ellipsoid,
                     [](auto&&... a) { return sweepSphereEllipsoid(a...); });
}

// A 6 km sweep onto solids of size about 1 at the origin: within rounding of the sweep's length.
TYPED_TEST(SphereSweepTest, SixKilometreSweeps) {
    using T = TypeParam;
    const Cylinder<T> cylinder{Vec3<T>(0, 0, -1), Vec3<T>(0.25, 0.5, 1), T(0.75)};
    const Cone<T> cone{Vec3<T>(0.5, 0, 1), Vec3<T>(0, 0.25, -1), T(1)};
    const Ellipsoid<T> ellipsoid{Vec3<T>(0.125, 0, 0), Random(61).rotation<T>(), Vec3<T>(0.5, 1, 1.5)};
    Random random(62);
    Stats stats;
    for (int i = 0; i < 300; ++i) {
        const Vec3<double> from = 6000.0 * random.unitVector<double>();
        const Vec3<double> aim = random.point<double>(0.5);
        const Motion<T> motion{{Vec3<T>(from), Vec3<T>((aim - from) * 1.001), T(1)},
                               T(random.uniform(0.05, 1))};
        switch (i % 3) {
            case 0:
                checkCase(motion, CylinderModel{widen(cylinder.a), widen(cylinder.b), Real(cylinder.radius)},
                          2, sweepSphereCylinder(motion.path, motion.radius, cylinder), stats);
                break;
            case 1:
                checkCase(motion, ConeModel{widen(cone.apex), widen(cone.base), Real(cone.radius)}, 2,
                          sweepSphereCone(motion.path, motion.radius, cone), stats);
                break;
            default:
                checkCase(motion,
                          EllipsoidModel{widen(ellipsoid.center), widen(ellipsoid.rotation),
                                         widen(ellipsoid.radii)},
                          2, sweepSphereEllipsoid(motion.path, motion.radius, ellipsoid), stats);
        }
    }
    EXPECT_EQ(stats.mismatches, 0);
    EXPECT_GT(stats.hits, 250);
    EXPECT_LE(stats.timeOverLength, sizeof(T) == sizeof(float) ? 1e-6 : 1e-12);
}

// ---------------------------------------------------------------------------------------------------
// Every target: zero displacement, scales, maxT limits, and invalid input.

// One sweep function per target, each with a target about base (size ~scale) whose highest point is
// at base + (0, 0, top * scale), straight below which the tests place the sphere.
template <class T> struct AnyTarget {
    const char* name;
    T top;
    std::function<std::optional<SphereSweepHit<T>>(const RayPath<T>&, T)> sweep;
};

template <class T> std::vector<AnyTarget<T>> allTargets(T scale = T(1)) {
    const Vec3<T> o = base<T>() * scale;
    const Triangle<T> triangle{o - Vec3<T>(scale, scale, 0), o + Vec3<T>(scale, 0, 0),
                               o + Vec3<T>(0, scale, 0)};
    const Plane<T> plane{Vec3<T>(0, 0, 1), o.z};
    return {
        {"sphere", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereSphere(p, r, Sphere<T>{o, scale});
         }},
        {"capsule", T(2),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereCapsule(p, r,
                                       Capsule<T>{o - Vec3<T>(0, 0, scale), o + Vec3<T>(0, 0, scale), scale});
         }},
        {"obb", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereObb(p, r, Obb<T>{o, Mat3<T>(1), Vec3<T>(scale)});
         }},
        {"aabb", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereAabb(p, r, Aabb<T>{o - Vec3<T>(scale), o + Vec3<T>(scale)});
         }},
        {"triangle", T(0), [=](const RayPath<T>& p, T r) { return sweepSphereTriangle(p, r, triangle); }},
        {"plane", T(0), [=](const RayPath<T>& p, T r) { return sweepSpherePlane(p, r, plane); }},
        {"two-sided plane", T(0),
         [=](const RayPath<T>& p, T r) { return sweepSphereTwoSidedPlane(p, r, plane); }},
        {"cylinder", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereCylinder(
                 p, r, Cylinder<T>{o - Vec3<T>(0, 0, scale), o + Vec3<T>(0, 0, scale), scale});
         }},
        {"cone", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereCone(p, r, Cone<T>{o + Vec3<T>(0, 0, scale), o - Vec3<T>(0, 0, scale), scale});
         }},
        {"ellipsoid", T(1),
         [=](const RayPath<T>& p, T r) {
             return sweepSphereEllipsoid(p, r,
                                         Ellipsoid<T>{o, Mat3<T>(1), Vec3<T>(2 * scale, 3 * scale, scale)});
         }},
    };
}

TYPED_TEST(SphereSweepTest, ZeroDisplacementIsAStaticQuery) {
    using T = TypeParam;
    for (const AnyTarget<T>& target : allTargets<T>()) {
        SCOPED_TRACE(target.name);
        // Centre 1.5 above the target: overlapping with r = 2, apart with r = 1.
        const RayPath<T> still = pathFrom(base<T>() + Vec3<T>(0, 0, target.top + T(1.5)), Vec3<T>(0, 0, 0));
        const auto overlapping = target.sweep(still, T(2));
        ASSERT_TRUE(overlapping.has_value());
        EXPECT_EQ(overlapping->t, T(0));
        EXPECT_TRUE(overlapping->startsInContact);
        EXPECT_EQ(overlapping->normal, Vec3<T>(0, 0, 1));
        EXPECT_EQ(overlapping->point, base<T>() + Vec3<T>(0, 0, target.top));
        EXPECT_FALSE(target.sweep(still, T(1)));
    }
}

TYPED_TEST(SphereSweepTest, HugeAndTinyScales) {
    using T = TypeParam;
    for (const T scale : {T(1e6), T(1e-4)}) {
        for (const AnyTarget<T>& target : allTargets<T>(scale)) {
            SCOPED_TRACE(::testing::Message() << target.name << " at scale " << scale);
            // From 11 above the target's base point straight down at speed 20: a sphere of radius 1
            // lands on the top at t = (11 - top - 1) / 20 (all in units of scale).
            const RayPath<T> path =
                pathFrom(base<T>() * scale + Vec3<T>(0, 0, 11) * scale, Vec3<T>(0, 0, -20) * scale);
            const auto hit = target.sweep(path, scale);
            ASSERT_TRUE(hit.has_value());
            EXPECT_NEAR(double(hit->t), (10 - double(target.top)) / 20, 64 * double(Bounds<T>::u) * 2000);
            EXPECT_LE(test::angleBetween(widen(hit->normal), RealVec3(0, 0, 1)), 64 * Bounds<T>::u * 2000);
            const RealVec3 expectedPoint = (widen(base<T>()) + RealVec3(0, 0, target.top)) * Real(scale);
            EXPECT_LE(glm::length(widen(hit->point) - expectedPoint), 64 * Bounds<T>::u * 2000 * scale);
        }
    }
}

TYPED_TEST(SphereSweepTest, MaxTLimits) {
    using T = TypeParam;
    const T inf = std::numeric_limits<T>::infinity();
    for (const AnyTarget<T>& target : allTargets<T>()) {
        SCOPED_TRACE(target.name);
        const Vec3<T> above = base<T>() + Vec3<T>(0, 0, target.top + 10), down(0, 0, -20);
        // The sphere (r = 1) lands at t = 9 / 20.
        EXPECT_FALSE(target.sweep(pathFrom(above, down, T(0.44)), T(1))) << "stops short";
        EXPECT_TRUE(target.sweep(pathFrom(above, down, T(0.46)), T(1)));
        EXPECT_FALSE(target.sweep(pathFrom(above, down, T(0)), T(1))) << "maxT = 0, apart";
        const auto unbounded = target.sweep(pathFrom(above, Vec3<T>(0, 0, -1), inf), T(1));
        ASSERT_TRUE(unbounded.has_value());
        EXPECT_EQ(unbounded->t, T(9));
        const auto atStart = target.sweep(pathFrom(above - Vec3<T>(0, 0, 9.5), down, T(0)), T(1));
        ASSERT_TRUE(atStart.has_value()) << "maxT = 0, overlapping";
        EXPECT_EQ(atStart->t, T(0));
    }
}

// Every field of the cylinder, cone and ellipsoid made NaN or infinite, and the sizes they reject:
// nothing, and no NaN; subnormal sizes and a subnormal path answer without a NaN.
template <class T> struct InvalidRoundSolids {
    static void check(const RayPath<T>& path) {
        const Vec3<T> o = base<T>();
        const Cylinder<T> cylinder{o - Vec3<T>(0, 0, 1), o + Vec3<T>(0, 0, 1), T(1)};
        const Cone<T> cone{o + Vec3<T>(0, 0, 1), o - Vec3<T>(0, 0, 1), T(1)};
        const Ellipsoid<T> ellipsoid{o, Mat3<T>(1), Vec3<T>(1, 2, 3)};
        ASSERT_TRUE(sweepSphereCylinder(path, T(1), cylinder));
        ASSERT_TRUE(sweepSphereCone(path, T(1), cone));
        ASSERT_TRUE(sweepSphereEllipsoid(path, T(1), ellipsoid));
        const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
        for (const T bad : {nan, inf, -inf}) {
            for (int i = 0; i < 3; ++i) {
                Cylinder<T> badCylinder = cylinder;
                badCylinder.a[i] = bad;
                EXPECT_FALSE(sweepSphereCylinder(path, T(1), badCylinder));
                badCylinder = cylinder;
                badCylinder.b[i] = bad;
                EXPECT_FALSE(sweepSphereCylinder(path, T(1), badCylinder));
                Cone<T> badCone = cone;
                badCone.apex[i] = bad;
                EXPECT_FALSE(sweepSphereCone(path, T(1), badCone));
                badCone = cone;
                badCone.base[i] = bad;
                EXPECT_FALSE(sweepSphereCone(path, T(1), badCone));
                Ellipsoid<T> badEllipsoid = ellipsoid;
                badEllipsoid.center[i] = bad;
                EXPECT_FALSE(sweepSphereEllipsoid(path, T(1), badEllipsoid));
                badEllipsoid = ellipsoid;
                badEllipsoid.radii[i] = bad;
                EXPECT_FALSE(sweepSphereEllipsoid(path, T(1), badEllipsoid));
                for (int column = 0; column < 3; ++column) {
                    badEllipsoid = ellipsoid;
                    badEllipsoid.rotation[column][i] = bad;
                    EXPECT_FALSE(sweepSphereEllipsoid(path, T(1), badEllipsoid));
                }
            }
            EXPECT_FALSE(sweepSphereCylinder(path, T(1), Cylinder<T>{cylinder.a, cylinder.b, bad}));
            EXPECT_FALSE(sweepSphereCone(path, T(1), Cone<T>{cone.apex, cone.base, bad}));
        }
        // Zero and negative sizes; a == b; apex == base; radii too far apart for their ratio's square.
        for (const T size : {T(0), T(-1)}) {
            EXPECT_FALSE(sweepSphereCylinder(path, T(1), Cylinder<T>{cylinder.a, cylinder.b, size}));
            EXPECT_FALSE(sweepSphereCone(path, T(1), Cone<T>{cone.apex, cone.base, size}));
            for (int i = 0; i < 3; ++i) {
                Ellipsoid<T> flat = ellipsoid;
                flat.radii[i] = size;
                EXPECT_FALSE(sweepSphereEllipsoid(path, T(1), flat));
            }
        }
        EXPECT_FALSE(sweepSphereCylinder(path, T(1), Cylinder<T>{o, o, T(1)}));
        EXPECT_FALSE(sweepSphereCone(path, T(1), Cone<T>{o, o, T(1)}));
        const T far = std::sqrt(std::numeric_limits<T>::max());
        EXPECT_FALSE(sweepSphereEllipsoid(path, T(1), Ellipsoid<T>{o, Mat3<T>(1), Vec3<T>(far, 1, 1 / far)}));
        for (const T bad : {nan, inf, -inf, T(-1)}) {
            EXPECT_FALSE(sweepSphereCylinder(path, bad, cylinder));
            EXPECT_FALSE(sweepSphereCone(path, bad, cone));
            EXPECT_FALSE(sweepSphereEllipsoid(path, bad, ellipsoid));
        }
        // Subnormal sizes and radius, huge values: whatever the answer, finite.
        const T tiny = std::numeric_limits<T>::denorm_min(), huge = std::numeric_limits<T>::max();
        const auto finite = [](const std::optional<SphereSweepHit<T>>& hit) {
            return !hit || (std::isfinite(hit->t) && isFinite(hit->point) && isFinite(hit->normal) &&
                            std::abs(glm::length(hit->normal) - T(1)) < T(1e-3));
        };
        for (const T size : {tiny, huge, T(1e-30), T(1e30)}) {
            for (const T radius : {T(0), tiny, T(1), huge}) {
                for (const RayPath<T>& p :
                     {path, RayPath<T>{o + Vec3<T>(0, 0, 10), Vec3<T>(tiny, 0, -tiny), huge},
                      RayPath<T>{Vec3<T>(huge), Vec3<T>(-huge), T(1)}}) {
                    EXPECT_TRUE(finite(
                        sweepSphereCylinder(p, radius, Cylinder<T>{o, o + Vec3<T>(0, 0, size), size})));
                    EXPECT_TRUE(
                        finite(sweepSphereCone(p, radius, Cone<T>{o, o + Vec3<T>(size, 0, 0), size})));
                    EXPECT_TRUE(finite(sweepSphereEllipsoid(
                        p, radius, Ellipsoid<T>{o, Mat3<T>(1), Vec3<T>(size, 1, size)})));
                }
            }
        }
    }
};

TYPED_TEST(SphereSweepTest, InvalidInputNeverHitsNorGivesNaN) {
    using T = TypeParam;
    const Vec3<T> o = base<T>();
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    const RayPath<T> good = pathFrom(o + Vec3<T>(0, 0, 10), Vec3<T>(0, 0, -20));
    for (const AnyTarget<T>& target : allTargets<T>()) {
        SCOPED_TRACE(target.name);
        ASSERT_TRUE(target.sweep(good, T(1)));
        for (const T bad : {nan, inf, -inf}) {
            for (int i = 0; i < 3; ++i) {
                RayPath<T> path = good;
                path.origin[i] = bad;
                EXPECT_FALSE(target.sweep(path, T(1))) << "origin " << i << " = " << bad;
                path = good;
                path.direction[i] = bad;
                EXPECT_FALSE(target.sweep(path, T(1))) << "direction " << i << " = " << bad;
            }
            EXPECT_FALSE(target.sweep(good, bad)) << "radius " << bad;
        }
        for (const T badMaxT : {nan, T(-1), -inf})
            EXPECT_FALSE(target.sweep(pathFrom(good.origin, good.direction, badMaxT), T(1)));
        EXPECT_FALSE(target.sweep(good, T(-1))) << "negative radius";
    }
    // Every field of every target.
    const RayPath<T> path = good;
    for (const T bad : {nan, inf, -inf}) {
        for (int i = 0; i < 3; ++i) {
            Sphere<T> sphere{o, T(1)};
            sphere.center[i] = bad;
            EXPECT_FALSE(sweepSphereSphere(path, T(1), sphere));
            Capsule<T> capsule{o, o + Vec3<T>(1, 0, 0), T(1)};
            capsule.a[i] = bad;
            EXPECT_FALSE(sweepSphereCapsule(path, T(1), capsule));
            capsule = {o, o + Vec3<T>(1, 0, 0), T(1)};
            capsule.b[i] = bad;
            EXPECT_FALSE(sweepSphereCapsule(path, T(1), capsule));
            Obb<T> box{o, Mat3<T>(1), Vec3<T>(1)};
            box.center[i] = bad;
            EXPECT_FALSE(sweepSphereObb(path, T(1), box));
            box = {o, Mat3<T>(1), Vec3<T>(1)};
            box.halfExtents[i] = bad;
            EXPECT_FALSE(sweepSphereObb(path, T(1), box));
            for (int column = 0; column < 3; ++column) {
                box = {o, Mat3<T>(1), Vec3<T>(1)};
                box.rotation[column][i] = bad;
                EXPECT_FALSE(sweepSphereObb(path, T(1), box));
            }
            Aabb<T> aabb{o - Vec3<T>(1), o + Vec3<T>(1)};
            aabb.min[i] = bad;
            EXPECT_FALSE(sweepSphereAabb(path, T(1), aabb));
            aabb = {o - Vec3<T>(1), o + Vec3<T>(1)};
            aabb.max[i] = bad;
            EXPECT_FALSE(sweepSphereAabb(path, T(1), aabb));
            for (int vertex = 0; vertex < 3; ++vertex) {
                Triangle<T> triangle = testTriangle<T>();
                (vertex == 0 ? triangle.a : vertex == 1 ? triangle.b : triangle.c)[i] = bad;
                EXPECT_FALSE(sweepSphereTriangle(path, T(1), triangle));
            }
            Plane<T> plane = floorPlane<T>();
            plane.normal[i] = bad;
            EXPECT_FALSE(sweepSpherePlane(path, T(1), plane));
            EXPECT_FALSE(sweepSphereTwoSidedPlane(path, T(1), plane));
        }
        EXPECT_FALSE(sweepSphereSphere(path, T(1), Sphere<T>{o, bad}));
        EXPECT_FALSE(sweepSphereCapsule(path, T(1), Capsule<T>{o, o, bad}));
        EXPECT_FALSE(sweepSpherePlane(path, T(1), Plane<T>{Vec3<T>(0, 0, 1), bad}));
        EXPECT_FALSE(sweepSphereTwoSidedPlane(path, T(1), Plane<T>{Vec3<T>(0, 0, 1), bad}));
    }
    EXPECT_FALSE(sweepSphereSphere(path, T(1), Sphere<T>{o, T(-1)}));
    EXPECT_FALSE(sweepSphereCapsule(path, T(1), Capsule<T>{o, o, T(-1)}));
    InvalidRoundSolids<T>::check(path);
    EXPECT_FALSE(sweepSphereObb(path, T(1), Obb<T>{o, Mat3<T>(1), Vec3<T>(1, -1, 1)}));
    EXPECT_FALSE(sweepSpherePlane(path, T(1), Plane<T>{Vec3<T>(0), T(0)}));
}

// A sphere overlapping a triangle's face by a rounding (3.3e-8 in exact arithmetic) whose computed height
// is a rounding above its radius: moving into the face, it touches at the start. Its lowest point lay a
// rounding past the plane, so the face's ray from there missed the face, the edges were far, and the sweep
// reported nothing: a character walking up a ramp fell through it.
TEST(SphereSweepTriangle, ARoundingOverlapMovingIntoTheFaceTouchesAtTheStart) {
    const float a = 30.0f * 3.14159265358979323846f / 180.0f;
    const Triangle<float> ramp{Vec3<float>(-10, 10 * std::tan(a), -5), Vec3<float>(0, 0, 5),
                               Vec3<float>(0, 0, -5)};
    const Vec3<float> center(-0.106667697f, 0.431088775f, 0);
    const float radius = 0.3f + 0.02f;
    for (const float drop : {0.02f, 0.0f}) {
        const auto hit =
            sweepSphereTriangle(RayPath<float>{center, Vec3<float>(0, -drop, 0), 1}, radius, ramp);
        ASSERT_TRUE(hit) << drop;
        EXPECT_EQ(hit->t, 0.0f);
        EXPECT_NEAR(hit->normal.x, 0.5f, 1e-6f);
        EXPECT_NEAR(hit->normal.y, std::sqrt(3.0f) / 2, 1e-6f);
    }
}

}  // namespace
}  // namespace analytic
