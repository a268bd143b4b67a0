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

// The boxes' and polyhedra's references cost more (their edges' distances at every step of the root's
// search): fewer of those.
constexpr int randomCases = 20000 / test::kCaseDivisor;
constexpr int solidCases = 8000 / test::kCaseDivisor;

// grazing: the cases were built near tangency, so the band may hold most of them, and hits and misses
// come as they may.
template <class T> void report(const char* target, const Stats& stats, int count, bool grazing = false) {
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
    EXPECT_EQ(stats.cases, count);
    EXPECT_LE(stats.timeOverLength, 64 * Bounds<T>::u);
    if (grazing) return;
    EXPECT_LT(stats.ambiguous, stats.cases / 50) << "the tangency band holds too many cases";
    EXPECT_GT(stats.hits, stats.cases / 5);
    EXPECT_GT(stats.misses, stats.cases / 10);
}

// makeTarget(random, placement) returns {target, model, magnitude}; sweep(path, halfAxis, radius, target).
template <class T, class MakeTarget, class Sweep>
void checkRandomSweeps(const char* name, std::uint64_t seed, const MakeTarget& makeTarget, const Sweep& sweep,
                       int count = randomCases, bool grazing = false) {
    Random random(seed);
    Stats stats;
    for (int i = 0; i < count && !::testing::Test::HasFailure(); ++i) {
        const Placement placement = randomPlacement(random);
        const auto [target, model, targetMagnitude] = makeTarget(random, placement);
        Motion<T> motion = randomMotion<T>(random, placement);
        if (grazing) {
            // The radius r (1 -+ 10^-k), k uniform in [1, 12], with r the least distance of the segment
            // from the target along the path (convex in t: a golden-section search in long double).
            const RealVec3 origin = widen(motion.path.origin), direction = widen(motion.path.direction),
                           axis = widen(motion.halfAxis);
            const auto at = [&](Real t) {
                return model.distance(origin + t * direction - axis, origin + t * direction + axis);
            };
            const Real inverseGolden = (std::sqrt(Real(5)) - 1) / 2;
            Real low = 0, high = motion.path.maxT;
            Real x1 = high - inverseGolden * high, x2 = inverseGolden * high, f1 = at(x1), f2 = at(x2);
            Real least = std::min({at(0), at(high), f1, f2});
            for (int iteration = 0; iteration < 120; ++iteration) {
                if (f1 < f2)
                    high = x2, x2 = x1, f2 = f1, x1 = high - inverseGolden * (high - low), f1 = at(x1);
                else
                    low = x1, x1 = x2, f1 = f2, x2 = low + inverseGolden * (high - low), f2 = at(x2);
                least = std::min({least, f1, f2});
            }
            const double gap = std::pow(10.0, -random.uniform(1, 12)) * (random.chance(0.5) ? 1 : -1);
            motion.radius = T(double(least) * (1 + gap));
        }
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
    report<T>(name, stats, count, grazing);
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

// A convex polyhedron (a cube, a tetrahedron or an octahedron: corners and counter-clockwise faces),
// scaled per axis, rotated and placed; its planes rounded to T from its rounded corners.
template <class T> struct Solid {
    std::vector<Vec3<T>> vertices;
    std::vector<std::vector<int>> faces;
    std::vector<Plane<T>> planes;
    std::vector<std::array<std::uint32_t, 2>> edges;
    ConvexPolyhedron<T> view() const { return {planes, vertices, edges}; }
};

template <class T> Solid<T> randomSolid(Random& random, const Placement& placement) {
    static const std::vector<Vec3<double>> cube{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                                {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    static const std::vector<std::vector<int>> cubeFaces{{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4},
                                                         {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}};
    static const std::vector<Vec3<double>> tetrahedron{{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}};
    static const std::vector<std::vector<int>> tetrahedronFaces{{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}};
    static const std::vector<Vec3<double>> octahedron{{1, 0, 0},  {-1, 0, 0}, {0, 1, 0},
                                                      {0, -1, 0}, {0, 0, 1},  {0, 0, -1}};
    static const std::vector<std::vector<int>> octahedronFaces{{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4},
                                                               {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}};
    const int kind = int(random.uniform(0, 3));
    const auto& corners = kind == 0 ? cube : kind == 1 ? tetrahedron : octahedron;
    const auto& faces = kind == 0 ? cubeFaces : kind == 1 ? tetrahedronFaces : octahedronFaces;
    const Mat3<double> rotation = random.rotation<double>();
    const double s = placement.scale;
    const Vec3<double> size(s * random.logUniform(0.1, 1), s * random.logUniform(0.1, 1),
                            s * random.logUniform(0.1, 1));
    Solid<T> solid;
    for (const Vec3<double>& corner : corners)
        solid.vertices.push_back(Vec3<T>(rotation * (corner * size) + placement.center));
    solid.faces = faces;
    for (const auto& face : faces) {
        const RealVec3 a = widen(solid.vertices[std::size_t(face[0])]),
                       b = widen(solid.vertices[std::size_t(face[1])]),
                       c = widen(solid.vertices[std::size_t(face[2])]);
        const RealVec3 n = glm::normalize(glm::cross(b - a, c - a));
        Real offset = glm::dot(n, a);
        for (const int v : face)
            offset = std::max(offset, glm::dot(n, widen(solid.vertices[std::size_t(v)])));
        solid.planes.push_back({Vec3<T>(n), T(offset)});
        for (std::size_t k = 0; k < face.size(); ++k) {
            auto e = std::array<std::uint32_t, 2>{std::uint32_t(face[k]),
                                                  std::uint32_t(face[(k + 1) % face.size()])};
            if (e[0] > e[1]) std::swap(e[0], e[1]);
            if (std::find(solid.edges.begin(), solid.edges.end(), e) == solid.edges.end())
                solid.edges.push_back(e);
        }
    }
    return solid;
}

// The solid's model from its rounded corners: planes through its faces, the distance to its faces'
// triangles outside (0 inside).
template <class T> auto solidModelOf(const Solid<T>& solid) {
    std::vector<RealVec3> corners;
    for (const Vec3<T>& v : solid.vertices)
        corners.push_back(widen(v));
    std::vector<std::pair<RealVec3, Real>> planes;
    std::vector<std::array<RealVec3, 3>> triangles;
    for (const auto& face : solid.faces) {
        const RealVec3 a = corners[std::size_t(face[0])], b = corners[std::size_t(face[1])],
                       c = corners[std::size_t(face[2])];
        const RealVec3 n = glm::normalize(glm::cross(b - a, c - a));
        Real offset = glm::dot(n, a);
        for (const int v : face)
            offset = std::max(offset, glm::dot(n, corners[std::size_t(v)]));
        planes.push_back({n, offset});
        for (std::size_t k = 1; k + 1 < face.size(); ++k)
            triangles.push_back({a, corners[std::size_t(face[k])], corners[std::size_t(face[k + 1])]});
    }
    std::vector<std::pair<RealVec3, RealVec3>> edges;
    for (const auto& e : solid.edges)
        edges.push_back({corners[e[0]], corners[e[1]]});
    return solidModel(planes, std::move(edges), [=](const RealVec3& p) {
        bool inside = true;
        for (const auto& [n, offset] : planes)
            inside = inside && glm::dot(n, p) <= offset;
        if (inside) return Real(0);
        Real best = std::numeric_limits<Real>::infinity();
        for (const auto& [a, b, c] : triangles)
            best = std::min(best, reference::distancePointTriangle(p, a, b, c));
        return best;
    });
}

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
    checkRandomSweeps<T>(
        "obb", 35, Target<T>::obb, [](auto&&... a) { return sweepCapsuleObb(a...); }, solidCases);
}

TYPED_TEST(CapsuleSweepTest, RandomAgainstConvexPolyhedra) {
    using T = TypeParam;
    std::vector<Solid<T>> solids;  // kept: the views point into them
    checkRandomSweeps<T>(
        "polyhedron", 36,
        [&](Random& random, const Placement& placement) {
            solids.push_back(randomSolid<T>(random, placement));
            const Solid<T>& solid = solids.back();
            Real magnitude = 0;
            for (const Vec3<T>& v : solid.vertices)
                magnitude = std::max(magnitude, maxAbs(v));
            return std::tuple{solid.view(), solidModelOf(solid), magnitude};
        },
        [](auto&&... a) { return sweepCapsuleConvexPolyhedron(a...); }, solidCases);
}

// Near tangency: the radius set to the least distance along the path, 1 -+ 10^-k of it, where
// cancellation would show. Hit or miss is compared wherever the oracle can decide it.
constexpr int grazingCases = 1500 / test::kCaseDivisor;

TYPED_TEST(CapsuleSweepTest, RandomGrazing) {
    using T = TypeParam;
    checkRandomSweeps<T>(
        "grazing capsule", 41, Target<T>::capsule, [](auto&&... a) { return sweepCapsuleCapsule(a...); },
        grazingCases, true);
    checkRandomSweeps<T>(
        "grazing triangle", 42, Target<T>::triangle, [](auto&&... a) { return sweepCapsuleTriangle(a...); },
        grazingCases, true);
    checkRandomSweeps<T>(
        "grazing obb", 43, Target<T>::obb, [](auto&&... a) { return sweepCapsuleObb(a...); }, grazingCases,
        true);
    checkRandomSweeps<T>(
        "grazing sphere", 44, Target<T>::sphere, [](auto&&... a) { return sweepCapsuleSphere(a...); },
        grazingCases, true);
}

// A zero half axis is a sphere: the sphere sweep's answer, to the last bit.
template <class T, class A, class B>
void expectSame(const std::optional<SphereSweepHit<T>>& capsule, const B& sphere) {
    ASSERT_EQ(capsule.has_value(), sphere.has_value());
    if (!capsule) return;
    EXPECT_EQ(capsule->t, sphere->t);
    EXPECT_EQ(capsule->point, sphere->point);
    EXPECT_EQ(capsule->normal, sphere->normal);
    EXPECT_EQ(capsule->startsInContact, sphere->startsInContact);
}

TYPED_TEST(CapsuleSweepTest, ZeroAxisIsTheSphereSweep) {
    using T = TypeParam;
    Random random(37);
    for (int i = 0; i < 2000 / test::kCaseDivisor && !::testing::Test::HasFailure(); ++i) {
        const Placement placement = randomPlacement(random);
        const Motion<T> motion = randomMotion<T>(random, placement);
        const RayPath<T>& path = motion.path;
        const T r = motion.radius;
        const Vec3<T> zero(0);
        const auto sphere = std::get<0>(Target<T>::sphere(random, placement));
        expectSame<T, void>(sweepCapsuleSphere(path, zero, r, sphere), sweepSphereSphere(path, r, sphere));
        const auto capsule = std::get<0>(Target<T>::capsule(random, placement));
        expectSame<T, void>(sweepCapsuleCapsule(path, zero, r, capsule),
                            sweepSphereCapsule(path, r, capsule));
        const auto plane = std::get<0>(Target<T>::halfSpace(random, placement));
        expectSame<T, void>(sweepCapsulePlane(path, zero, r, plane), sweepSpherePlane(path, r, plane));
        const auto triangle = std::get<0>(Target<T>::triangle(random, placement));
        expectSame<T, void>(sweepCapsuleTriangle(path, zero, r, triangle),
                            sweepSphereTriangle(path, r, triangle));
        const auto box = std::get<0>(Target<T>::obb(random, placement));
        expectSame<T, void>(sweepCapsuleObb(path, zero, r, box), sweepSphereObb(path, r, box));
        const Solid<T> solid = randomSolid<T>(random, placement);
        expectSame<T, void>(sweepCapsuleConvexPolyhedron(path, zero, r, solid.view()),
                            sweepSphereConvexPolyhedron(path, r, solid.view()));
    }
}

// ---------------------------------------------------------------------------------------------------
// The character controller's cases.

template <class T> Obb<T> unitBox() { return {Vec3<T>(0), Mat3<T>(T(1)), Vec3<T>(1)}; }

template <class T> ConvexPolyhedron<T> cubeView(std::vector<Plane<T>>& planes, std::vector<Vec3<T>>& vertices,
                                                std::vector<std::array<std::uint32_t, 2>>& edges) {
    planes.clear(), vertices.clear(), edges.clear();
    for (int axis = 0; axis < 3; ++axis)
        for (const T side : {T(1), T(-1)}) {
            Vec3<T> normal(0);
            normal[axis] = side;
            planes.push_back({normal, T(1)});
        }
    for (std::uint32_t v = 0; v < 8; ++v)
        vertices.push_back(Vec3<T>(v & 1 ? 1 : -1, v & 2 ? 1 : -1, v & 4 ? 1 : -1));
    for (std::uint32_t v = 0; v < 8; ++v)
        for (const std::uint32_t bit : {1u, 2u, 4u})
            if (!(v & bit)) edges.push_back({v, v | bit});
    return {planes, vertices, edges};
}

template <class T> void expectNear(const Vec3<T>& actual, const Vec3<T>& expected, double tolerance) {
    EXPECT_NEAR(double(actual.x), double(expected.x), tolerance);
    EXPECT_NEAR(double(actual.y), double(expected.y), tolerance);
    EXPECT_NEAR(double(actual.z), double(expected.z), tolerance);
}

// An upright capsule (half axis 1 up, radius 0.5) falling 10 from a centre at height h lands with its
// lower end's sphere on the target's top at height 0: t = (h - 1.5) / 10, the normal up, the point below.
template <class T>
void expectUprightLanding(const std::optional<SphereSweepHit<T>>& hit, T top, double scale) {
    const double u = double(unitRoundoff<T>);
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(double(hit->t), (5.0 - 1.5) / 10, 64 * u);
    EXPECT_FALSE(hit->startsInContact);
    expectNear(hit->normal, Vec3<T>(0, 1, 0), 8 * u);
    EXPECT_NEAR(double(hit->point.y), double(top), 64 * u * scale);
    EXPECT_LE(std::abs(double(hit->point.x)), 64 * u * scale);
    EXPECT_LE(std::abs(double(hit->point.z)), 64 * u * scale);
}

TYPED_TEST(CapsuleSweepTest, UprightCapsuleLandsFlat) {
    using T = TypeParam;
    for (const double scale : {1e-4, 1.0, 1e6}) {
        SCOPED_TRACE(scale);
        const T s = T(scale);
        const RayPath<T> fall{Vec3<T>(0, 5 * s, 0), Vec3<T>(0, -10 * s, 0), T(1)};
        const Vec3<T> up(0, s, 0);
        const T r = T(0.5) * s;
        expectUprightLanding(
            sweepCapsuleTriangle(
                fall, up, r,
                Triangle<T>{Vec3<T>(-3 * s, 0, -3 * s), Vec3<T>(0, 0, 3 * s), Vec3<T>(3 * s, 0, -3 * s)}),
            T(0), scale);
        expectUprightLanding(sweepCapsulePlane(fall, up, r, Plane<T>{Vec3<T>(0, 1, 0), T(0)}), T(0), scale);
        const Obb<T> slab{Vec3<T>(0, -s, 0), Mat3<T>(T(1)), Vec3<T>(3 * s, s, 3 * s)};
        expectUprightLanding(sweepCapsuleObb(fall, up, r, slab), T(0), scale);
        // A tilted path lands at the same height: the centre's fall decides.
        const RayPath<T> slanted{Vec3<T>(-s, 5 * s, 0), Vec3<T>(2 * s, -10 * s, 0), T(1)};
        const auto hit = sweepCapsuleObb(slanted, up, r, slab);
        ASSERT_TRUE(hit.has_value());
        EXPECT_NEAR(double(hit->t), 0.35, 64 * double(unitRoundoff<T>));
        expectNear(hit->normal, Vec3<T>(0, 1, 0), 8 * double(unitRoundoff<T>));
        std::vector<Plane<T>> planes;
        std::vector<Vec3<T>> vertices;
        std::vector<std::array<std::uint32_t, 2>> edges;
        ConvexPolyhedron<T> cube = cubeView(planes, vertices, edges);
        for (Plane<T>& plane : planes)
            plane.offset *= s;
        for (Vec3<T>& v : vertices)
            v = v * s - Vec3<T>(0, s, 0);
        for (Plane<T>& plane : planes)
            plane.offset -= plane.normal.y * s;
        cube = {planes, vertices, edges};
        const auto onCube = sweepCapsuleConvexPolyhedron(fall, up, r, cube);
        ASSERT_TRUE(onCube.has_value());
        EXPECT_NEAR(double(onCube->t), 0.35, 64 * double(unitRoundoff<T>));
        expectNear(onCube->normal, Vec3<T>(0, 1, 0), 8 * double(unitRoundoff<T>));
    }
}

// Moving horizontally into a box's edge parallel to the capsule's axis: the side of the capsule meets the
// edge; t from the distance to the edge's line, the normal across it.
TYPED_TEST(CapsuleSweepTest, SideMeetsAnEdgeAlongTheAxis) {
    using T = TypeParam;
    const double u = double(unitRoundoff<T>);
    const RayPath<T> path{Vec3<T>(3, 0, 3), Vec3<T>(-4, 0, -4), T(1)};
    const Vec3<T> up(0, T(0.5), 0);
    const T r = T(0.25);
    const double expectedT = (2 * std::sqrt(2.0) - 0.25) / (4 * std::sqrt(2.0));
    const auto hit = sweepCapsuleObb(path, up, r, unitBox<T>());
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(double(hit->t), expectedT, 16 * u);
    expectNear(hit->normal, Vec3<T>(T(std::sqrt(0.5)), 0, T(std::sqrt(0.5))), 16 * u);
    EXPECT_NEAR(double(hit->point.x), 1, 16 * u);
    EXPECT_NEAR(double(hit->point.z), 1, 16 * u);
    EXPECT_LE(std::abs(double(hit->point.y)), 0.5 + 16 * u);
    // The same edge as a capsule of radius 0 and as the triangle's edge.
    const auto onSegment =
        sweepCapsuleCapsule(path, up, r, Capsule<T>{Vec3<T>(1, -1, 1), Vec3<T>(1, 1, 1), T(0)});
    ASSERT_TRUE(onSegment.has_value());
    EXPECT_NEAR(double(onSegment->t), expectedT, 16 * u);
    const auto onTriangle = sweepCapsuleTriangle(
        path, up, r, Triangle<T>{Vec3<T>(1, -1, 1), Vec3<T>(1, 1, 1), Vec3<T>(-1, 0, -1)});
    ASSERT_TRUE(onTriangle.has_value());
    EXPECT_NEAR(double(onTriangle->t), expectedT, 16 * u);
    // A segment of the same line met crosswise by a tilted capsule: the parallelogram's face.
    const Vec3<T> tilted(T(0.5), 0, T(-0.5));
    const auto crossing =
        sweepCapsuleCapsule(path, tilted, r, Capsule<T>{Vec3<T>(1, -1, 1), Vec3<T>(1, 1, 1), T(0)});
    ASSERT_TRUE(crossing.has_value());
    EXPECT_NEAR(double(crossing->t), expectedT, 16 * u);
    expectNear(crossing->normal, Vec3<T>(T(std::sqrt(0.5)), 0, T(std::sqrt(0.5))), 16 * u);
}

// A capsule lying on a face at exactly its radius and sliding along it: in contact at the start, the
// normal perpendicular to the motion (callers let it slide).
TYPED_TEST(CapsuleSweepTest, SlidingAlongAFaceAtTheRadius) {
    using T = TypeParam;
    const RayPath<T> slide{Vec3<T>(0, T(1.5), 0), Vec3<T>(T(0.5), 0, T(0.25)), T(1)};
    const Vec3<T> lying(T(0.5), 0, 0);
    const T r = T(0.5);
    std::vector<Plane<T>> planes;
    std::vector<Vec3<T>> vertices;
    std::vector<std::array<std::uint32_t, 2>> edges;
    const ConvexPolyhedron<T> cube = cubeView(planes, vertices, edges);
    const std::optional<SphereSweepHit<T>> hits[] = {
        sweepCapsuleObb(slide, lying, r, unitBox<T>()), sweepCapsuleConvexPolyhedron(slide, lying, r, cube),
        sweepCapsuleTriangle(slide, lying, r,
                             Triangle<T>{Vec3<T>(-3, 1, -3), Vec3<T>(0, 1, 3), Vec3<T>(3, 1, -3)}),
        sweepCapsulePlane(slide, lying, r, Plane<T>{Vec3<T>(0, 1, 0), T(1)}),
        sweepCapsuleCapsule(slide, lying, r,
                            Capsule<T>{Vec3<T>(-3, T(0.5), 0), Vec3<T>(3, T(0.5), 0), T(0.5)})};
    for (const auto& hit : hits) {
        ASSERT_TRUE(hit.has_value());
        EXPECT_EQ(hit->t, T(0));
        EXPECT_TRUE(hit->startsInContact);
        expectNear(hit->normal, Vec3<T>(0, 1, 0), 8 * double(unitRoundoff<T>));
        EXPECT_NEAR(double(glm::dot(hit->normal, slide.direction)), 0, 8 * double(unitRoundoff<T>));
    }
}

// Inside, touching and moving away, at rest.
TYPED_TEST(CapsuleSweepTest, StartsInContact) {
    using T = TypeParam;
    const Vec3<T> up(0, 1, 0);
    const T r = T(0.5);
    // The centre inside the box, moving either way: t = 0, a unit normal, a point on the box.
    for (const Vec3<T>& direction : {Vec3<T>(1, 0, 0), Vec3<T>(0, -1, 0), Vec3<T>(0)}) {
        const RayPath<T> path{Vec3<T>(T(0.75), T(0.25), 0), direction, T(1)};
        const auto inBox = sweepCapsuleObb(path, up, r, unitBox<T>());
        ASSERT_TRUE(inBox.has_value());
        EXPECT_TRUE(inBox->startsInContact);
        EXPECT_EQ(inBox->t, T(0));
        expectNear(inBox->normal, Vec3<T>(1, 0, 0), 8 * double(unitRoundoff<T>));
        EXPECT_NEAR(double(inBox->point.x), 1, 8 * double(unitRoundoff<T>));
        std::vector<Plane<T>> planes;
        std::vector<Vec3<T>> vertices;
        std::vector<std::array<std::uint32_t, 2>> edges;
        const auto inCube = sweepCapsuleConvexPolyhedron(path, up, r, cubeView(planes, vertices, edges));
        ASSERT_TRUE(inCube.has_value());
        EXPECT_TRUE(inCube->startsInContact);
        expectNear(inCube->normal, Vec3<T>(1, 0, 0), 8 * double(unitRoundoff<T>));
        EXPECT_NEAR(double(inCube->point.x), 1, 8 * double(unitRoundoff<T>));
        const auto crossing =
            sweepCapsuleCapsule(path, up, r, Capsule<T>{Vec3<T>(0, 0, -1), Vec3<T>(0, 0, 1), T(1)});
        ASSERT_TRUE(crossing.has_value());
        EXPECT_TRUE(crossing->startsInContact);
        EXPECT_NEAR(double(glm::length(crossing->normal)), 1, 8 * double(unitRoundoff<T>));
    }
    // Touching a sphere from above and moving away: still t = 0 (callers filter by the normal).
    const RayPath<T> away{Vec3<T>(0, T(2.5), 0), Vec3<T>(0, 1, 0), T(1)};
    const auto touching = sweepCapsuleSphere(away, up, r, Sphere<T>{Vec3<T>(0), T(1)});
    ASSERT_TRUE(touching.has_value());
    EXPECT_TRUE(touching->startsInContact);
    expectNear(touching->normal, Vec3<T>(0, 1, 0), 8 * double(unitRoundoff<T>));
    expectNear(touching->point, Vec3<T>(0, 1, 0), 8 * double(unitRoundoff<T>));
    EXPECT_GE(glm::dot(touching->normal, away.direction), T(0));
    // At rest and apart: no hit; at rest and touching: t = 0.
    const RayPath<T> apart{Vec3<T>(0, 3, 0), Vec3<T>(0), T(1)};
    EXPECT_FALSE(sweepCapsuleSphere(apart, up, r, Sphere<T>{Vec3<T>(0), T(1)}).has_value());
    EXPECT_FALSE(sweepCapsuleObb(apart, up, r, unitBox<T>()).has_value());
    EXPECT_FALSE(sweepCapsuleTriangle(apart, up, r,
                                      Triangle<T>{Vec3<T>(-1, 0, -1), Vec3<T>(0, 0, 1), Vec3<T>(1, 0, -1)})
                     .has_value());
    const RayPath<T> resting{Vec3<T>(0, T(2.5), 0), Vec3<T>(0), T(1)};
    const auto rest = sweepCapsuleObb(resting, up, r, unitBox<T>());
    ASSERT_TRUE(rest.has_value());
    EXPECT_TRUE(rest->startsInContact);
}

// Degenerate triangles are met at their edges: a segment triangle as a capsule of radius 0 around its
// span, a point triangle as a sphere of radius 0.
TYPED_TEST(CapsuleSweepTest, DegenerateTrianglesAreMetAtTheirEdges) {
    using T = TypeParam;
    Random random(38);
    for (int i = 0; i < 2000 / test::kCaseDivisor && !::testing::Test::HasFailure(); ++i) {
        const Placement placement = randomPlacement(random);
        const Motion<T> motion = randomMotion<T>(random, placement);
        const double s = placement.scale;
        const Vec3<double> a = placement.center + random.point<double>(s),
                           b = placement.center + random.point<double>(s);
        const Vec3<T> ta(a), tb(b);
        const Vec3<T> middle = ta + (tb - ta) * T(0.5);  // not exactly on the line in T: still degenerate
        const auto onLine =
            sweepCapsuleTriangle(motion.path, motion.halfAxis, motion.radius, Triangle<T>{ta, tb, middle});
        const auto onSegment =
            sweepCapsuleCapsule(motion.path, motion.halfAxis, motion.radius, Capsule<T>{ta, tb, T(0)});
        ASSERT_EQ(onLine.has_value(), onSegment.has_value()) << i;
        if (onLine) {
            const Real tolerance =
                64 * Real(unitRoundoff<T>) *
                std::max({maxAbs(motion.path.origin), maxAbs(motion.path.direction) * Real(motion.path.maxT),
                          maxAbs(ta), maxAbs(tb)});
            // The same contact within the rounding of the time (the two decompositions differ).
            const Real speed = glm::length(widen(motion.path.direction));
            EXPECT_LE(std::abs(Real(onLine->t) - Real(onSegment->t)) * speed, 1e3 * tolerance) << i;
            EXPECT_EQ(onLine->startsInContact, onSegment->startsInContact);
        }
        const auto onPoint =
            sweepCapsuleTriangle(motion.path, motion.halfAxis, motion.radius, Triangle<T>{ta, ta, ta});
        const auto onSphere =
            sweepCapsuleSphere(motion.path, motion.halfAxis, motion.radius, Sphere<T>{ta, T(0)});
        ASSERT_EQ(onPoint.has_value(), onSphere.has_value()) << i;
        if (onPoint) {
            EXPECT_EQ(onPoint->startsInContact, onSphere->startsInContact);
        }
    }
}

// A capsule target whose axis is subnormal (fuzz finding): its parallelogram with the moving axis is a
// needle, whose width must not be taken from the product of the two lengths (the square of a subnormal
// length is 0, and a containment tolerance divided by it infinite): the path passes it 1e15 away.
TYPED_TEST(CapsuleSweepTest, SubnormalTargetAxisIsNoWideParallelogram) {
    using T = TypeParam;
    const T tiny = sizeof(T) == sizeof(float) ? T(1e4) * std::numeric_limits<T>::denorm_min()
                                              : T(1.40655517578124814245e-309L);
    const T far = sizeof(T) == sizeof(float) ? T(1e7) : T(1e15);
    const RayPath<T> path{Vec3<T>(T(3.625), 0, far), Vec3<T>(T(3.625), 0, T(-1.625)),
                          std::numeric_limits<T>::infinity()};
    const Vec3<T> halfAxis(T(1.875), T(0.125), T(1.125));
    const auto hit =
        sweepCapsuleCapsule(path, halfAxis, T(0.125), Capsule<T>{Vec3<T>(-tiny, 0, 0), Vec3<T>(0), T(0)});
    EXPECT_FALSE(hit.has_value()) << "t " << hit->t << ", point " << test::text(hit->point);
}

// Axes that nearly meet, where the closest points' offset is a few roundings long against a target
// radius far larger (fuzz finding): the offset's direction along the target's axis is noise, and the point
// a target radius along it would leave the surface by that noise times the radius. The normal is taken
// across the target's axis where its nearest point lies inside it.
TYPED_TEST(CapsuleSweepTest, NoisyNormalKeepsThePointOnAWideCapsule) {
    using T = TypeParam;
    const bool single = sizeof(T) == sizeof(float);
    const T far = single ? T(1e7) : T(1e15), wide = single ? T(1e5) : T(1e9);
    const RayPath<T> path{Vec3<T>(T(-6.625), 4, 3), Vec3<T>(4, T(-6.375), -8), T(1)};
    const Capsule<T> target{Vec3<T>(2, 0, far), Vec3<T>(2, 1, 2), wide};
    const auto hit = sweepCapsuleCapsule(path, Vec3<T>(far, -4, 2), T(2), target);
    ASSERT_TRUE(hit.has_value());
    EXPECT_TRUE(hit->startsInContact);
    const Real offSurface = std::abs(
        reference::distancePointSegment(widen(hit->point), widen(target.a), widen(target.b)) - Real(wide));
    EXPECT_LE(offSurface, 64 * Real(unitRoundoff<T>) * Real(far)) << test::text(hit->point);
    // The same beside an end, where the nearest point's parameter rounded onto the end while the offset
    // leans along the axis, into the span: that part is taken out too (the normal cone of the end).
    const Capsule<T> fromFar{Vec3<T>(far, 0, 0), Vec3<T>(T(3.625), 0, 0), far};
    const auto atEnd =
        sweepCapsuleCapsule(RayPath<T>{Vec3<T>(T(3.625), 0, T(-3.375)), Vec3<T>(0, -8, -2), T(1)},
                            Vec3<T>(T(-0.001), -8, -8), T(0), fromFar);
    ASSERT_TRUE(atEnd.has_value());
    const Real offEnd = std::abs(
        reference::distancePointSegment(widen(atEnd->point), widen(fromFar.a), widen(fromFar.b)) - Real(far));
    EXPECT_LE(offEnd, 64 * Real(unitRoundoff<T>) * Real(far)) << test::text(atEnd->point);
}

// Hostile input: NaN, infinities, negative sizes give no hit; subnormal and huge values no NaN.
TYPED_TEST(CapsuleSweepTest, HostileInput) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    const T tiny = std::numeric_limits<T>::denorm_min(), huge = std::numeric_limits<T>::max();
    const RayPath<T> path{Vec3<T>(0, 5, 0), Vec3<T>(0, -10, 0), T(1)};
    const Vec3<T> up(0, 1, 0);
    const T r = T(0.5);
    const Sphere<T> sphere{Vec3<T>(0), T(1)};
    const Capsule<T> capsule{Vec3<T>(-1, 0, 0), Vec3<T>(1, 0, 0), T(0.5)};
    const Plane<T> plane{Vec3<T>(0, 1, 0), T(0)};
    const Triangle<T> triangle{Vec3<T>(-1, 0, -1), Vec3<T>(0, 0, 1), Vec3<T>(1, 0, -1)};
    const Obb<T> box = unitBox<T>();
    std::vector<Plane<T>> planes;
    std::vector<Vec3<T>> vertices;
    std::vector<std::array<std::uint32_t, 2>> edges;
    const ConvexPolyhedron<T> cube = cubeView(planes, vertices, edges);
    const auto all = [&](const RayPath<T>& p, const Vec3<T>& h, T radius) {
        return std::array{
            sweepCapsuleSphere(p, h, radius, sphere), sweepCapsuleCapsule(p, h, radius, capsule),
            sweepCapsulePlane(p, h, radius, plane),   sweepCapsuleTriangle(p, h, radius, triangle),
            sweepCapsuleObb(p, h, radius, box),       sweepCapsuleConvexPolyhedron(p, h, radius, cube)};
    };
    // The valid case hits every target.
    for (const auto& hit : all(path, up, r))
        EXPECT_TRUE(hit.has_value());
    for (const T bad : {nan, inf, -inf}) {
        for (int k = 0; k < 3; ++k) {
            RayPath<T> p = path;
            p.origin[k] = bad;
            for (const auto& hit : all(p, up, r))
                EXPECT_FALSE(hit.has_value());
            p = path;
            p.direction[k] = bad;
            for (const auto& hit : all(p, up, r))
                EXPECT_FALSE(hit.has_value());
            Vec3<T> h = up;
            h[k] = bad;
            for (const auto& hit : all(path, h, r))
                EXPECT_FALSE(hit.has_value());
        }
        for (const auto& hit : all(path, up, bad))
            EXPECT_FALSE(hit.has_value());
        if (bad != inf) {
            for (const auto& hit : all(RayPath<T>{path.origin, path.direction, bad}, up, r))
                EXPECT_FALSE(hit.has_value());
        }
    }
    for (const auto& hit : all(path, up, -r))
        EXPECT_FALSE(hit.has_value());
    for (const auto& hit : all(RayPath<T>{path.origin, path.direction, T(-1)}, up, r))
        EXPECT_FALSE(hit.has_value());
    // Bad targets.
    EXPECT_FALSE(sweepCapsuleSphere(path, up, r, Sphere<T>{Vec3<T>(0), T(-1)}).has_value());
    EXPECT_FALSE(sweepCapsuleSphere(path, up, r, Sphere<T>{Vec3<T>(nan), T(1)}).has_value());
    EXPECT_FALSE(sweepCapsuleCapsule(path, up, r, Capsule<T>{Vec3<T>(0), Vec3<T>(1), T(-1)}).has_value());
    EXPECT_FALSE(sweepCapsuleCapsule(path, up, r, Capsule<T>{Vec3<T>(0), Vec3<T>(inf), T(1)}).has_value());
    EXPECT_FALSE(sweepCapsulePlane(path, up, r, Plane<T>{Vec3<T>(0, 2, 0), T(0)}).has_value());
    EXPECT_FALSE(sweepCapsulePlane(path, up, r, Plane<T>{Vec3<T>(0, 1, 0), nan}).has_value());
    EXPECT_FALSE(
        sweepCapsuleTriangle(path, up, r, Triangle<T>{Vec3<T>(nan), triangle.b, triangle.c}).has_value());
    EXPECT_FALSE(
        sweepCapsuleObb(path, up, r, Obb<T>{Vec3<T>(0), Mat3<T>(T(1)), Vec3<T>(1, -1, 1)}).has_value());
    EXPECT_FALSE(sweepCapsuleObb(path, up, r, Obb<T>{Vec3<T>(0), Mat3<T>(nan), Vec3<T>(1)}).has_value());
    const std::array<std::uint32_t, 2> outOfRange{0, 99};
    EXPECT_FALSE(
        sweepCapsuleConvexPolyhedron(path, up, r, ConvexPolyhedron<T>{planes, vertices, {&outOfRange, 1}})
            .has_value());
    EXPECT_FALSE(
        sweepCapsuleConvexPolyhedron(path, up, r, ConvexPolyhedron<T>{{}, vertices, edges}).has_value());
    // An axis whose ends overflow.
    for (const auto& hit : all(RayPath<T>{Vec3<T>(huge, 0, 0), path.direction, T(1)}, Vec3<T>(huge, 0, 0), r))
        EXPECT_FALSE(hit.has_value());
    // Subnormal and huge values: whatever comes out is finite, a unit normal.
    for (const T odd : {tiny, -tiny, huge, -huge, T(1e-30), T(1e30)}) {
        const std::array<std::pair<RayPath<T>, std::pair<Vec3<T>, T>>, 4> cases{
            {{path, {Vec3<T>(odd, 0, 0), r}},
             {RayPath<T>{path.origin, Vec3<T>(odd, -odd, 0), T(1)}, {up, r}},
             {path, {up, odd > T(0) ? odd : T(0)}},
             {RayPath<T>{Vec3<T>(odd, odd, odd), path.direction, inf}, {up, r}}}};
        for (const auto& [p, shape] : cases)
            for (const auto& hit : all(p, shape.first, shape.second))
                if (hit) {
                    EXPECT_TRUE(isFinite(hit->point) && std::isfinite(hit->t));
                    EXPECT_NEAR(double(glm::length(hit->normal)), 1, 1e-5);
                }
    }
}

// An upright capsule whose lower end is over a ramp's face within the height's rounding of touching it
// (the static tests find it clear by a rounding), moving down into the face: it touches at the start. Its
// end's lowest point lay a rounding past the plane, so the face's ray from there missed the face, and the
// sweep reported nothing: a capsule character walking up a mesh ramp sank into its skin.
TEST(CapsuleSweepTriangle, ARoundingGapMovingIntoTheFaceTouchesAtTheStart) {
    const float a = 30.0f * 3.14159265358979323846f / 180.0f;
    const Triangle<float> ramp{Vec3<float>(-10, 10 * std::tan(a), -5), Vec3<float>(0, 0, 5),
                               Vec3<float>(0, 0, -5)};
    const Vec3<float> center(-0.106668442f, 1.03108919f, 0);
    const auto hit =
        sweepCapsuleTriangle(RayPath<float>{center, Vec3<float>(0, 1.02836418f - 1.03108919f, 0), 1},
                             Vec3<float>(0, 0.6f, 0), 0.3f + 0.02f, ramp);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, 0.0f);
    EXPECT_NEAR(hit->normal.x, 0.5f, 1e-6f);
    EXPECT_NEAR(hit->normal.y, std::sqrt(3.0f) / 2, 1e-6f);
}

}  // namespace
}  // namespace analytic
