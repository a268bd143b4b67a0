// SPDX-License-Identifier: Zlib
// sweepSphereConvexPolyhedron (sphere_sweep.hpp), float and double: random sweeps against rotated, scaled
// and moved cubes, tetrahedra and octahedra, against the long double first root of the distance minus the
// radius (reference/sweep_reference.hpp), the distance to the polyhedron taken over its faces' triangles
// (reference/distance_reference.hpp), 0 inside; starts in contact, moving away, at rest; hostile input.
// Bounds, with u the unit roundoff and S the scale (|origin| + |direction| + radius + the polyhedron's
// reach): touching at the reported t within 256 u S; t within 256 u S / (|d| cos) of the reference's away
// from grazing (cos < 0.05).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <vector>

#include "analytic/geometry/sphere_sweep.hpp"
#include "reference/distance_reference.hpp"
#include "reference/sweep_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Random;
using test::Real;
using test::RealVec3;
using test::widen;

// A polyhedron by its vertices and faces (loops counter-clockwise seen from outside), placed.
template <class T> struct Solid {
    std::vector<Vec3<T>> vertices;
    std::vector<std::vector<int>> faces;
    std::vector<Plane<T>> planes;
    std::vector<std::array<std::uint32_t, 2>> edges;

    ConvexPolyhedron<T> view() const { return {planes, vertices, edges}; }

    // Long double distance: 0 inside every plane, else the nearest of the faces' triangles.
    Real distance(const RealVec3& p) const {
        bool inside = true;
        for (const auto& face : faces) {
            const RealVec3 a = widen(vertices[std::size_t(face[0])]),
                           b = widen(vertices[std::size_t(face[1])]),
                           c = widen(vertices[std::size_t(face[2])]);
            const RealVec3 n = glm::cross(b - a, c - a);
            inside = inside && glm::dot(n, p - a) <= 0;
        }
        if (inside) return 0;
        Real best = std::numeric_limits<Real>::infinity();
        for (const auto& face : faces)
            for (std::size_t k = 1; k + 1 < face.size(); ++k)
                best = std::min(best,
                                reference::distancePointTriangle(p, widen(vertices[std::size_t(face[0])]),
                                                                 widen(vertices[std::size_t(face[k])]),
                                                                 widen(vertices[std::size_t(face[k + 1])])));
        return best;
    }
};

// Planes and edges of the placed vertices and faces.
template <class T>
Solid<T> makeSolid(std::vector<Vec3<double>> corners, std::vector<std::vector<int>> faces, Random& random) {
    const Mat3<double> rotation = random.rotation<double>();
    const Vec3<double> scale(random.logUniform(0.3, 3), random.logUniform(0.3, 3), random.logUniform(0.3, 3));
    const Vec3<double> at = random.point<double>(3);
    Solid<T> solid;
    for (const Vec3<double>& corner : corners)
        solid.vertices.push_back(Vec3<T>(rotation * (corner * scale) + at));
    solid.faces = faces;
    for (const auto& face : faces) {
        const Vec3<T> a = solid.vertices[std::size_t(face[0])], b = solid.vertices[std::size_t(face[1])],
                      c = solid.vertices[std::size_t(face[2])];
        const Vec3<T> n = glm::normalize(glm::cross(b - a, c - a));
        T offset = glm::dot(n, a);
        for (const int v : face)
            offset = std::max(offset, glm::dot(n, solid.vertices[std::size_t(v)]));
        solid.planes.push_back({n, offset});
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

template <class T> Solid<T> randomSolid(Random& random, int kind) {
    if (kind == 0)  // a cube
        return makeSolid<T>(
            {{-1, -1, -1},
             {1, -1, -1},
             {1, 1, -1},
             {-1, 1, -1},
             {-1, -1, 1},
             {1, -1, 1},
             {1, 1, 1},
             {-1, 1, 1}},
            {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}}, random);
    if (kind == 1)  // a tetrahedron
        return makeSolid<T>({{1, 1, 1}, {1, -1, -1}, {-1, 1, -1}, {-1, -1, 1}},
                            {{0, 1, 2}, {0, 3, 1}, {0, 2, 3}, {1, 3, 2}}, random);
    return makeSolid<T>(
        {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}},  // an octahedron
        {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}}, random);
}

template <class T> void expectExactAgainstReference() {
    constexpr Real u = Real(unitRoundoff<T>);
    Random random(sizeof(T) * 101);
    int hits = 0, misses = 0, starts = 0;
    Real worst = 0;
    for (int i = 0; i < 6000; ++i) {
        const Solid<T> solid = randomSolid<T>(random, i % 3);
        const T radius = T(random.logUniform(0.01, 2));
        const Vec3<T> from = random.point<T>(8), to = random.chance(0.5) ? random.point<T>(8) : -from;
        const RayPath<T> path = segmentRay(from, to);
        const Real length = glm::length(widen(to - from));
        Real reach = 0;
        for (const Vec3<T>& v : solid.vertices)
            reach = std::max(reach, Real(glm::length(widen(v))));
        const Real scale = reach + Real(glm::length(widen(from)) + glm::length(widen(to))) + radius;
        const auto centre = [&](Real t) { return widen(from) + t * widen(to - from); };
        const auto reference = reference::firstTimeOfImpact([&](Real t) { return solid.distance(centre(t)); },
                                                            radius, 1, length, 64 * u * scale);
        const auto hit = sweepSphereConvexPolyhedron(path, radius, solid.view());
        SCOPED_TRACE("sweep " + std::to_string(i));
        if (reference.outcome == reference::SweepOutcome::Ambiguous) continue;
        if (reference.outcome == reference::SweepOutcome::Miss) {
            ++misses;
            EXPECT_FALSE(hit) << "t " << hit->t;
            continue;
        }
        ASSERT_TRUE(hit) << "reference t " << test::text(reference.t);
        EXPECT_NEAR(double(glm::length(hit->normal)), 1, 1e-4);
        if (reference.t == 0) {
            ++starts;
            EXPECT_EQ(hit->t, T(0));
            EXPECT_TRUE(hit->startsInContact);
            continue;
        }
        ++hits;
        const Real touching = solid.distance(centre(hit->t)) - radius;
        EXPECT_LE(std::abs(touching), 256 * u * scale) << "t " << hit->t;
        EXPECT_LE(solid.distance(widen(hit->point)), 256 * u * scale);
        EXPECT_NEAR(double(glm::length(widen(hit->point) - centre(hit->t))), double(radius),
                    double(256 * u * scale));
        const Real cosine = -Real(glm::dot(hit->normal, to - from)) / length;
        EXPECT_GT(cosine, 0);
        if (cosine >= Real(0.05)) {
            const Real error = std::abs(Real(hit->t) - reference.t) * length;
            EXPECT_LE(error, 256 * u * scale / cosine)
                << "t " << hit->t << " reference " << test::text(reference.t);
            worst = std::max(worst, error / scale);
        }
    }
    std::printf(
        "polyhedra: %d hits, %d starting in contact, %d misses; worst time-of-impact error %.3Lg of the "
        "scale\n",
        hits, starts, misses, worst);
    EXPECT_GT(hits, 600);
    EXPECT_GT(misses, 600);
}

TEST(SphereSweepPolyhedron, ExactAgainstTheReferenceFloat) { expectExactAgainstReference<float>(); }
TEST(SphereSweepPolyhedron, ExactAgainstTheReferenceDouble) { expectExactAgainstReference<double>(); }

TEST(SphereSweepPolyhedron, NamedCases) {
    Random random(7);
    // An axis-aligned unit cube: a face, an edge, a corner.
    Solid<double> cube = makeSolid<double>(
        {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
        {{0, 3, 2, 1}, {4, 5, 6, 7}, {0, 1, 5, 4}, {2, 3, 7, 6}, {1, 2, 6, 5}, {0, 4, 7, 3}}, random);
    // makeSolid placed it at random: rebuild at the origin, unrotated.
    cube.vertices = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
    cube.planes = {{{0, 0, -1}, 1}, {{0, 0, 1}, 1}, {{0, -1, 0}, 1},
                   {{0, 1, 0}, 1},  {{1, 0, 0}, 1}, {{-1, 0, 0}, 1}};
    const auto face =
        sweepSphereConvexPolyhedron(RayPath<double>{{5, 0.3, 0.2}, {-10, 0, 0}, 1}, 0.5, cube.view());
    ASSERT_TRUE(face);
    EXPECT_NEAR(face->t, 0.35, 1e-12);
    EXPECT_NEAR(face->normal.x, 1, 1e-12);
    EXPECT_NEAR(face->point.x, 1, 1e-12);
    const auto edge =
        sweepSphereConvexPolyhedron(RayPath<double>{{5, 5, 0}, {-10, -10, 0}, 1}, 0.5, cube.view());
    ASSERT_TRUE(edge);
    EXPECT_NEAR(edge->t, (4 * std::sqrt(2.0) - 0.5) / std::sqrt(200.0), 1e-12);
    EXPECT_NEAR(edge->point.x, 1, 1e-12);
    EXPECT_NEAR(edge->point.y, 1, 1e-12);
    const auto corner =
        sweepSphereConvexPolyhedron(RayPath<double>{{5, 5, 5}, {-10, -10, -10}, 1}, 0.5, cube.view());
    ASSERT_TRUE(corner);
    EXPECT_NEAR(corner->t, (4 * std::sqrt(3.0) - 0.5) / std::sqrt(300.0), 1e-12);
    // Touching at the start: moving in, away, at rest; inside.
    const auto in =
        sweepSphereConvexPolyhedron(RayPath<double>{{1.5, 0, 0}, {-1, 0, 0}, 1}, 0.5, cube.view());
    ASSERT_TRUE(in);
    EXPECT_EQ(in->t, 0);
    EXPECT_TRUE(in->startsInContact);
    EXPECT_NEAR(in->normal.x, 1, 1e-12);
    const auto rest =
        sweepSphereConvexPolyhedron(RayPath<double>{{1.2, 0, 0}, {0, 0, 0}, 1}, 0.5, cube.view());
    ASSERT_TRUE(rest);
    EXPECT_TRUE(rest->startsInContact);
    EXPECT_FALSE(sweepSphereConvexPolyhedron(RayPath<double>{{3, 0, 0}, {0, 0, 0}, 1}, 0.5, cube.view()));
    const auto inside =
        sweepSphereConvexPolyhedron(RayPath<double>{{0.9, 0, 0}, {0, 1, 0}, 1}, 0.1, cube.view());
    ASSERT_TRUE(inside);
    EXPECT_NEAR(inside->normal.x, 1, 1e-12);
    EXPECT_NEAR(inside->point.x, 1, 1e-12);
    // Passing beside the edge at more than the radius: a miss; grazing a face's plane beyond the face: a
    // miss.
    EXPECT_FALSE(sweepSphereConvexPolyhedron(RayPath<double>{{5, 1.6, 0}, {-10, 0, 0}, 1}, 0.5, cube.view()));
    EXPECT_FALSE(
        sweepSphereConvexPolyhedron(RayPath<double>{{5, 5, 1.4}, {0, -10, 0}, 0.3}, 0.3, cube.view()));
}

TEST(SphereSweepPolyhedron, HostileInput) {
    Random random(9);
    const Solid<float> solid = randomSolid<float>(random, 0);
    constexpr float nan = std::numeric_limits<float>::quiet_NaN(),
                    inf = std::numeric_limits<float>::infinity();
    const RayPath<float> good{{9, 0, 0}, {-18, 0, 0}, 1};
    EXPECT_FALSE(sweepSphereConvexPolyhedron(RayPath<float>{{nan, 0, 0}, {-1, 0, 0}, 1}, 0.5f, solid.view()));
    EXPECT_FALSE(sweepSphereConvexPolyhedron(RayPath<float>{{9, 0, 0}, {-inf, 0, 0}, 1}, 0.5f, solid.view()));
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, -1.0f, solid.view()));
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, nan, solid.view()));
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, 0.5f, ConvexPolyhedron<float>{}));
    Solid<float> broken = solid;
    broken.edges.push_back({0, 99});
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, 0.5f, broken.view()));
    broken = solid;
    broken.vertices[0].x = inf;
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, 0.5f, broken.view()));
    broken = solid;
    broken.planes[0].offset = nan;
    EXPECT_FALSE(sweepSphereConvexPolyhedron(good, 0.5f, broken.view()));
    // Huge and tiny scales give finite answers or none.
    const auto far =
        sweepSphereConvexPolyhedron(RayPath<float>{{1e30f, 0, 0}, {-2e30f, 0, 0}, 1}, 1e20f, solid.view());
    if (far) {
        EXPECT_TRUE(isFinite(far->point) && isFinite(far->normal) && std::isfinite(far->t));
    }
}

// Planes that are garbage (normals of the largest finite size, not unit: the contract's precondition
// broken) overflow the start's nearest point: a contact beyond T's range is no hit, never an infinite point
// (fuzz finding of capsule_sweep, whose zero axis is this sweep).
TEST(SphereSweepPolyhedron, GarbagePlanesGiveNoInfiniteContact) {
    constexpr double M = std::numeric_limits<double>::max();
    const std::vector<Plane<double>> planes{{{M, M, M}, M}, {{-M, -M, -M}, M}};
    const std::vector<Vec3<double>> vertices{{0, 0, 0}, {1, 0, 0}};
    const std::vector<std::array<std::uint32_t, 2>> edges{{0, 1}};
    const ConvexPolyhedron<double> solid{planes, vertices, edges};
    for (const Vec3<double>& origin : {Vec3<double>(-8, 3.25, -8), Vec3<double>(0.5, 0, 0)}) {
        for (const Vec3<double>& direction : {Vec3<double>(-8, -8, -0.0095), Vec3<double>(0)}) {
            const auto hit = sweepSphereConvexPolyhedron(
                RayPath<double>{origin, direction, std::numeric_limits<double>::infinity()}, 1.0, solid);
            if (hit) {
                EXPECT_TRUE(isFinite(hit->point) && isFinite(hit->normal) && std::isfinite(hit->t));
            }
        }
    }
}

// A cube at 3.6e-21 in float, touched beside an edge: the offset's square is subnormal, and the normal
// from it is unit all the same (fuzz finding of capsule_sweep through its zero axis: 1.0043 long).
TEST(SphereSweepPolyhedron, TinyEdgeNormalIsUnit) {
    const float s = 3.56842032716710863738e-21f;
    std::vector<Plane<float>> planes;
    for (int axis = 0; axis < 3; ++axis)
        for (const float side : {1.0f, -1.0f}) {
            Vec3<float> normal(0);
            normal[axis] = side;
            planes.push_back({normal, s});
        }
    std::vector<Vec3<float>> vertices;
    for (int v = 0; v < 8; ++v)
        vertices.push_back(Vec3<float>(v & 1 ? s : -s, v & 2 ? s : -s, v & 4 ? s : -s));
    std::vector<std::array<std::uint32_t, 2>> edges;
    for (std::uint32_t v = 0; v < 8; ++v)
        for (const std::uint32_t bit : {1u, 2u, 4u})
            if (!(v & bit)) edges.push_back({v, v | bit});
    const ConvexPolyhedron<float> cube{planes, vertices, edges};
    for (const Vec3<float>& direction : {Vec3<float>(0), Vec3<float>(1, 0, 0)}) {
        const auto hit = sweepSphereConvexPolyhedron(
            RayPath<float>{Vec3<float>(2 * s, 2 * s, 0), direction, 1}, 2 * s, cube);
        ASSERT_TRUE(hit.has_value());
        EXPECT_NEAR(glm::length(Vec3<double>(hit->normal)), 1.0, 8 * double(unitRoundoff<float>));
    }
}

}  // namespace
}  // namespace analytic
