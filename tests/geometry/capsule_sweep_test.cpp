// SPDX-License-Identifier: Zlib
// Swept capsules (capsule_sweep.hpp) against spheres, capsules, half-spaces, triangles, boxes and convex
// polyhedra, float and double, checked against a long double oracle that shares nothing with the core's
// decomposition: the first root of f(t) = distance(segment at t, target) - radius (convex in t), found by
// reference/sweep_reference.hpp, the segment's distance taken in closed form (its ends' distances, its
// distances to the target's edges, and whether it crosses the target). Then the cases the character
// controller lives on (an upright capsule landing flat, sliding along a face at exactly its radius, an
// edge parallel to the axis), scales, degenerate triangles and hostile input.
#include "analytic/geometry/capsule_sweep.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
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

template <class T> Real maxAbs(const Vec3<T>& v) {
    return std::max({std::abs(Real(v.x)), std::abs(Real(v.y)), std::abs(Real(v.z))});
}

// ---------------------------------------------------------------------------------------------------
// Reference models in long double: distance(p0, p1) from the segment to the target (0 where they meet),
// pointDistance(p) from a point to its surface (for the reported point), and the magnitude of the target.

struct SphereModel {
    RealVec3 center;
    Real radius;
    Real distance(const RealVec3& p0, const RealVec3& p1) const {
        return std::max(Real(0), reference::distancePointSegment(center, p0, p1) - radius);
    }
    Real surfaceDistance(const RealVec3& p) const { return std::abs(glm::length(p - center) - radius); }
};

struct CapsuleModel {
    RealVec3 a, b;
    Real radius;
    Real distance(const RealVec3& p0, const RealVec3& p1) const {
        return std::max(Real(0), reference::distanceSegmentSegment(p0, p1, a, b) - radius);
    }
    Real surfaceDistance(const RealVec3& p) const {
        return std::abs(reference::distancePointSegment(p, a, b) - radius);
    }
};

struct HalfSpaceModel {
    RealVec3 normal;
    Real offset;
    Real distance(const RealVec3& p0, const RealVec3& p1) const {
        return std::max(Real(0), std::min(reference::signedDistancePointPlane(p0, normal, offset),
                                          reference::signedDistancePointPlane(p1, normal, offset)));
    }
    Real surfaceDistance(const RealVec3& p) const {
        return std::abs(reference::signedDistancePointPlane(p, normal, offset));
    }
};

// The segment's distance to a convex set apart from it: at one of its ends, or between it and an edge.
template <class PointDistance> Real apartDistance(const RealVec3& p0, const RealVec3& p1,
                                                  const PointDistance& pointDistance,
                                                  const std::vector<std::pair<RealVec3, RealVec3>>& edges) {
    Real best = std::min(pointDistance(p0), pointDistance(p1));
    for (const auto& [from, to] : edges)
        best = std::min(best, reference::distanceSegmentSegment(p0, p1, from, to));
    return best;
}

struct TriangleModel {
    RealVec3 a, b, c;
    Real distance(const RealVec3& p0, const RealVec3& p1) const {
        const auto onTriangle = [&](const RealVec3& p) {
            return reference::distancePointTriangle(p, a, b, c);
        };
        Real best = apartDistance(p0, p1, onTriangle, {{a, b}, {b, c}, {c, a}});
        const RealVec3 normal = glm::cross(b - a, c - a);
        const Real h0 = glm::dot(normal, p0 - a), h1 = glm::dot(normal, p1 - a);
        if ((h0 <= 0 && h1 >= 0) || (h0 >= 0 && h1 <= 0))
            if (h0 != h1) best = std::min(best, onTriangle(p0 + (h0 / (h0 - h1)) * (p1 - p0)));
        return best;
    }
    Real surfaceDistance(const RealVec3& p) const { return reference::distancePointTriangle(p, a, b, c); }
};

// A convex solid by its face planes (outward, normal not unit), its edges and its point distance.
template <class PointDistance> struct SolidModel {
    std::vector<std::pair<RealVec3, Real>> planes;
    std::vector<std::pair<RealVec3, RealVec3>> edges;
    PointDistance pointDistance;  // 0 inside
    Real distance(const RealVec3& p0, const RealVec3& p1) const {
        Real s0 = 0, s1 = 1;
        for (const auto& [normal, offset] : planes) {
            const Real at0 = offset - glm::dot(normal, p0), rate = -glm::dot(normal, p1 - p0);
            if (rate > 0)
                s0 = std::max(s0, -at0 / rate);
            else if (rate < 0)
                s1 = std::min(s1, -at0 / rate);
            else if (at0 < 0)
                s1 = -1;
        }
        if (s0 <= s1) return 0;
        return apartDistance(p0, p1, pointDistance, edges);
    }
    // Its surface: outside, the distance; inside, the depth below the nearest face.
    Real surfaceDistance(const RealVec3& p) const {
        const Real outside = pointDistance(p);
        if (outside > 0) return outside;
        Real depth = std::numeric_limits<Real>::infinity();
        for (const auto& [normal, offset] : planes)
            depth = std::min(depth, (offset - glm::dot(normal, p)) / glm::length(normal));
        return depth;
    }
};

template <class PointDistance>
SolidModel<PointDistance> solidModel(std::vector<std::pair<RealVec3, Real>> planes,
                                     std::vector<std::pair<RealVec3, RealVec3>> edges,
                                     PointDistance distance) {
    return {std::move(planes), std::move(edges), distance};
}

template <class T> auto obbModel(const Obb<T>& box) {
    const RealVec3 center = widen(box.center), half = widen(box.halfExtents);
    const Mat3<Real> rotation = widen(box.rotation);
    std::vector<std::pair<RealVec3, Real>> planes;
    for (int axis = 0; axis < 3; ++axis)
        for (const Real side : {Real(1), Real(-1)})
            planes.push_back({side * rotation[axis], side * glm::dot(rotation[axis], center) + half[axis]});
    std::vector<std::pair<RealVec3, RealVec3>> edges;
    for (int axis = 0; axis < 3; ++axis)
        for (int corner = 0; corner < 4; ++corner) {
            const int u = (axis + 1) % 3, v = (axis + 2) % 3;
            RealVec3 local;
            local[axis] = -half[axis];
            local[u] = corner & 1 ? half[u] : -half[u];
            local[v] = corner & 2 ? half[v] : -half[v];
            RealVec3 other = local;
            other[axis] = half[axis];
            edges.push_back(
                {reference::obbWorld(local, center, rotation), reference::obbWorld(other, center, rotation)});
        }
    return solidModel(std::move(planes), std::move(edges), [=](const RealVec3& p) {
        return reference::distancePointObb(p, center, rotation, half);
    });
}

// ---------------------------------------------------------------------------------------------------
// Random cases.

template <class T> struct Motion {
    RayPath<T> path;
    Vec3<T> halfAxis;
    T radius;
};

struct Placement {
    double scale;
    Vec3<double> center;
};

// Scale log-uniform in [1e-4, 1e6], the target's centre up to 1000 scales from the origin (at it for a
// fifth of the cases).
inline Placement randomPlacement(Random& random) {
    const double scale = random.logUniform(1e-4, 1e6);
    const double distance = random.chance(0.2) ? 0.0 : scale * random.logUniform(1e-2, 1e3);
    return {scale, distance * random.unitVector<double>()};
}

// A capsule starting within 4 scales of the target, aimed near it (sometimes not), sometimes at rest;
// half axis 1e-2 to 1 scale in any direction (upright a tenth of the time), radius 1e-3 to 1 scale.
template <class T> Motion<T> randomMotion(Random& random, const Placement& placement) {
    const double s = placement.scale;
    const Vec3<double> start = placement.center + s * random.uniform(0, 4) * random.unitVector<double>();
    Vec3<double> displacement(0);
    if (!random.chance(0.01)) {
        const Vec3<double> aim = random.chance(0.1) ? start + s * random.unitVector<double>()
                                                    : placement.center + random.point<double>(0.5 * s);
        displacement = (aim - start) * random.uniform(0.2, 2.5);
    }
    const T maxT = random.chance(0.8) ? T(1) : T(random.uniform(0, 3));
    const Vec3<double> axis = random.chance(0.1) ? Vec3<double>(0, 1, 0) : random.unitVector<double>();
    return {{Vec3<T>(start), Vec3<T>(displacement), maxT},
            Vec3<T>(s * random.logUniform(1e-2, 1) * axis),
            T(s * random.logUniform(1e-3, 1))};
}

template <class T> struct Bounds {
    static constexpr Real u = Real(unitRoundoff<T>);
    static constexpr Real tangencyBand = 128 * u;  // hit/miss undecided within this of f = 0 (times M)
    static constexpr Real residual = 64 * u;       // |f(t_core)| (times M)
    static constexpr Real timeTimesApproach = 64 * u;
    static constexpr Real point = 64 * u;   // the point's distance from the target's surface
    static constexpr Real normal = 64 * u;  // |point + radius normal - segment| (times M)
};

struct Stats {
    long cases = 0, hits = 0, misses = 0, ambiguous = 0, startContacts = 0, mismatches = 0;
    Real residual = 0, timeTimesApproach = 0, point = 0, normal = 0;
    // |t_core - t_ref| / maxT where the case lies near the origin (its magnitude within 8 sweep lengths)
    // and the approach is at least half the speed.
    Real timeOverLength = 0;
};

template <class T, class Model> void checkCase(const Motion<T>& motion, const Model& model,
                                               Real targetMagnitude,
                                               const std::optional<SphereSweepHit<T>>& hit, Stats& stats) {
    using B = Bounds<T>;
    const RealVec3 origin = widen(motion.path.origin), direction = widen(motion.path.direction);
    const RealVec3 halfAxis = widen(motion.halfAxis);
    const Real radius = motion.radius, maxT = motion.path.maxT;
    const Real magnitude =
        std::max({maxAbs(motion.path.origin), maxAbs(motion.path.at(motion.path.maxT)), targetMagnitude,
                  radius + maxAbs(motion.halfAxis), maxAbs(motion.path.direction) * maxT});
    const Real unit = B::u * magnitude;
    const auto distanceAt = [&](Real t) {
        const RealVec3 center = origin + t * direction;
        return model.distance(center - halfAxis, center + halfAxis);
    };
    const Real speed = glm::length(direction);
    const reference::SweepReference expected =
        reference::firstTimeOfImpact(distanceAt, radius, maxT, speed, B::tangencyBand * magnitude);
    ++stats.cases;
    if (hit) {
        ASSERT_TRUE(std::isfinite(hit->t) && isFinite(hit->point) && isFinite(hit->normal));
        EXPECT_TRUE(hit->t >= T(0) && hit->t <= motion.path.maxT);
        EXPECT_EQ(hit->startsInContact, hit->t == T(0));
        EXPECT_NEAR(double(glm::length(widen(hit->normal))), 1.0, 8 * double(B::u));
        const Real pointError = model.surfaceDistance(widen(hit->point));
        EXPECT_LE(pointError, B::point * magnitude) << "point off the target's surface";
        stats.point = std::max(stats.point, pointError / unit);
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
        return;
    }
    EXPECT_GT(expected.startValue, -B::tangencyBand * magnitude) << "overlapping at start, yet t > 0";
    const Real t = hit->t;
    const Real residual = std::abs(distanceAt(t) - radius);
    EXPECT_LE(residual, B::residual * magnitude) << "the capsule does not touch at the reported t";
    stats.residual = std::max(stats.residual, residual / unit);
    // The normal: from the point, a radius along it lies on the segment (within the rounding of the
    // normal's direction times the radius, which is of the case's size).
    const RealVec3 center = origin + t * direction;
    const Real normalError = reference::distancePointSegment(widen(hit->point) + radius * widen(hit->normal),
                                                             center - halfAxis, center + halfAxis);
    EXPECT_LE(normalError, B::normal * magnitude) << "normal off the segment";
    stats.normal = std::max(stats.normal, normalError / unit);
    if (expected.outcome == SweepOutcome::Hit) {
        // The rate at which f falls just before the root (one-sided: f may have a kink there).
        const Real step = std::max(expected.t * Real(1e-7), maxT * Real(1e-9));
        const Real before = std::max(Real(0), expected.t - step);
        const Real approach =
            before < expected.t
                ? std::max(Real(0), (distanceAt(before) - distanceAt(expected.t)) / (expected.t - before))
                : Real(0);
        const Real timeError = std::abs(t - expected.t) * approach;
        EXPECT_LE(timeError, B::timeTimesApproach * magnitude)
            << "t " << hit->t << " vs " << double(expected.t) << " (approach rate " << double(approach)
            << ")";
        stats.timeTimesApproach = std::max(stats.timeTimesApproach, timeError / unit);
        if (approach >= speed / 2 && maxT > 0 && magnitude <= 8 * speed * maxT)
            stats.timeOverLength = std::max(stats.timeOverLength, std::abs(t - expected.t) / maxT);
    }
}

constexpr int randomCases = 20000 / test::kCaseDivisor;

template <class T> void report(const char* target, const Stats& stats) {
    std::printf(
        "  %s<%s>: %ld cases, %ld hits (%ld at t = 0), %ld misses, %ld in the tangency band (skipped)\n",
        target, sizeof(T) == sizeof(float) ? "float" : "double", stats.cases, stats.hits, stats.startContacts,
        stats.misses, stats.ambiguous);
    std::printf(
        "    worst: residual %.1f u M, t * approach %.1f u M, point %.1f u M, normal %.1f u M; "
        "|dt| / maxT near the origin %.3Lg\n",
        double(stats.residual), double(stats.timeTimesApproach), double(stats.point), double(stats.normal),
        stats.timeOverLength);
    EXPECT_EQ(stats.mismatches, 0);
    EXPECT_EQ(stats.cases, randomCases);
    EXPECT_LT(stats.ambiguous, stats.cases / 50) << "the tangency band holds too many cases";
    EXPECT_GT(stats.hits, stats.cases / 5);
    EXPECT_GT(stats.misses, stats.cases / 10);
    EXPECT_LE(stats.timeOverLength, 64 * Bounds<T>::u);
}

// makeTarget(random, placement) returns {target, model, magnitude}; sweep(path, halfAxis, radius, target).
template <class T, class MakeTarget, class Sweep> void checkRandomSweeps(const char* name, std::uint64_t seed,
                                                                         const MakeTarget& makeTarget,
                                                                         const Sweep& sweep) {
    Random random(seed);
    Stats stats;
    for (int i = 0; i < randomCases && !::testing::Test::HasFailure(); ++i) {
        const Placement placement = randomPlacement(random);
        const auto [target, model, targetMagnitude] = makeTarget(random, placement);
        const Motion<T> motion = randomMotion<T>(random, placement);
        const auto hit = sweep(motion.path, motion.halfAxis, motion.radius, target);
        checkCase(motion, model, targetMagnitude, hit, stats);
        if (::testing::Test::HasFailure()) {
            if (hit)
                ADD_FAILURE() << "core: t " << hit->t << ", point " << test::text(hit->point) << ", normal "
                              << test::text(hit->normal);
            ADD_FAILURE() << "case " << i << ": " << test::text(motion.path) << ", half axis "
                          << test::text(motion.halfAxis) << ", radius " << test::text(motion.radius);
        }
    }
    report<T>(name, stats);
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
    static auto halfSpace(Random& random, const Placement& placement) {
        const Vec3<T> normal(random.unitVector<double>());
        const Plane<T> plane{normal, T(glm::dot(Vec3<double>(normal), placement.center))};
        return std::tuple{plane, HalfSpaceModel{widen(plane.normal), Real(plane.offset)},
                          std::abs(Real(plane.offset))};
    }
    static auto triangle(Random& random, const Placement& placement) {
        const double s = placement.scale;
        const Vec3<double> a = placement.center + random.point<double>(s);
        const Vec3<double> b = placement.center + random.point<double>(s);
        const Vec3<double> c = random.chance(0.1)
                                   ? a + random.uniform(-0.5, 1.5) * (b - a) + random.point<double>(1e-2 * s)
                                   : placement.center + random.point<double>(s);
        const Triangle<T> triangle{Vec3<T>(a), Vec3<T>(b), Vec3<T>(c)};
        return std::tuple{triangle, TriangleModel{widen(triangle.a), widen(triangle.b), widen(triangle.c)},
                          std::max({maxAbs(triangle.a), maxAbs(triangle.b), maxAbs(triangle.c)})};
    }
    static auto obb(Random& random, const Placement& placement) {
        const auto extent = [&] {
            return random.chance(0.03) ? T(0) : T(placement.scale * random.logUniform(1e-2, 1));
        };
        const Obb<T> box{Vec3<T>(placement.center), random.rotation<T>(),
                         Vec3<T>(extent(), extent(), extent())};
        return std::tuple{box, obbModel(box), maxAbs(box.center) + 2 * maxAbs(box.halfExtents)};
    }
};

template <class T> class CapsuleSweepTest : public ::testing::Test {};
TYPED_TEST_SUITE(CapsuleSweepTest, test::Scalars);

TYPED_TEST(CapsuleSweepTest, RandomAgainstSpheres) {
    using T = TypeParam;
    checkRandomSweeps<T>("sphere", 31, Target<T>::sphere,
                         [](auto&&... a) { return sweepCapsuleSphere(a...); });
}

TYPED_TEST(CapsuleSweepTest, RandomAgainstCapsules) {
    using T = TypeParam;
    checkRandomSweeps<T>("capsule", 32, Target<T>::capsule,
                         [](auto&&... a) { return sweepCapsuleCapsule(a...); });
}

TYPED_TEST(CapsuleSweepTest, RandomAgainstHalfSpaces) {
    using T = TypeParam;
    checkRandomSweeps<T>("half-space", 33, Target<T>::halfSpace,
                         [](auto&&... a) { return sweepCapsulePlane(a...); });
}

TYPED_TEST(CapsuleSweepTest, RandomAgainstTriangles) {
    using T = TypeParam;
    checkRandomSweeps<T>("triangle", 34, Target<T>::triangle,
                         [](auto&&... a) { return sweepCapsuleTriangle(a...); });
}

TYPED_TEST(CapsuleSweepTest, RandomAgainstOrientedBoxes) {
    using T = TypeParam;
    checkRandomSweeps<T>("obb", 35, Target<T>::obb, [](auto&&... a) { return sweepCapsuleObb(a...); });
}

}  // namespace
}  // namespace analytic
