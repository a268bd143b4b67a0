// SPDX-License-Identifier: Zlib
// The four-wide tests the trees walk with (box_lanes.hpp, triangle_lanes.hpp) against the core's
// scalar tests they stand for: the same entries bit for bit, and no triangle ruled out that a ray hits.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <span>
#include <vector>

#include "cast/box_lanes.hpp"
#include "cast/triangle_lanes.hpp"
#include "reference/ray_triangle_reference.hpp"
#include "support/test_support.hpp"
#include "support/triangle_cases.hpp"

namespace analytic::cast {
namespace {

using test::randomRayAndTriangle;
using test::Real;
using test::RealVec3;
using test::text;
using test::TriangleGrid;
using test::triangleGrid;
using test::unbounded;
using test::widen;
namespace ref = test::reference;

constexpr Real kBandUlps = test::triangleBandUlps;
constexpr int kRandomCases = 100000;

template <class T> class LanesTest : public ::testing::Test {};
TYPED_TEST_SUITE(LanesTest, test::Scalars);

// Random boxes and rays (direction components zero of either sign, origins on face planes), each box in
// a lane beside the empty slot and two shifted copies: each lane's entry and whether it is met are
// rayEntryIntoAabb's for that box, bit for bit, -0 included.
TYPED_TEST(LanesTest, BoxLanesAreTheSlabTestBitForBit) {
    using T = TypeParam;
    constexpr T infinity = std::numeric_limits<T>::infinity();
    test::Random random(1001);
    int met = 0;
    for (int i = 0; i < kRandomCases; ++i) {
        const double scale = random.logUniform(1e-3, sizeof(T) == sizeof(float) ? 1e4 : 1e7);
        const Vec3<double> centre = random.point<double>(scale);
        const Vec3<double> half(random.logUniform(1e-3, 1) * scale, random.logUniform(1e-3, 1) * scale,
                                random.logUniform(1e-3, 1) * scale);
        const Aabb<T> box{Vec3<T>(centre - half), Vec3<T>(centre + half)};
        // Aimed at a point in or near the box, often ending before it.
        const Vec3<double> origin = centre + random.point<double>(3 * scale);
        const Vec3<double> target = centre + 1.5 * half * random.point<double>(1);
        RayPath<T> ray{Vec3<T>(origin), Vec3<T>(target - origin),
                       random.chance(0.4) ? infinity : T(random.uniform(0.1, 3))};
        for (int axis = 0; axis < 3; ++axis) {
            if (random.chance(0.07)) ray.direction[axis] = random.chance(0.5) ? T(0) : T(-0.0);
            if (random.chance(0.05)) ray.origin[axis] = random.chance(0.5) ? box.min[axis] : box.max[axis];
        }
        const auto slab = makeSlabRay(ray);
        if (!slab) continue;
        const Vec3<T> shift(T(2 * half.x + 1), 0, 0);
        const std::array<Aabb<T>, 4> boxes{box, Aabb<T>{Vec3<T>(infinity), Vec3<T>(-infinity)},
                                           Aabb<T>{box.min + shift, box.max + shift},
                                           Aabb<T>{box.min - shift, box.max - shift}};
        std::array<Aabb<T>, 4> rotated;
        for (int lane = 0; lane < 4; ++lane)
            rotated[std::size_t(lane)] = boxes[std::size_t((lane + i) % 4)];
        T entries[4];
        const unsigned bits =
            rayEntriesIntoAabbs(SlabRayLanes<T>(*slab), slab->maxT, toLanes(rotated), entries);
        for (int lane = 0; lane < 4; ++lane) {
            const T single = rayEntryIntoAabb(*slab, rotated[std::size_t(lane)]);
            const bool singleMet = single <= slab->maxT;
            met += singleMet;
            ASSERT_EQ(singleMet, bool(bits >> lane & 1)) << text(ray) << " lane " << lane;
            ASSERT_EQ(singleMet ? single : infinity, entries[lane]) << text(ray) << " lane " << lane;
            ASSERT_EQ(std::signbit(single), std::signbit(entries[lane])) << text(ray) << " lane " << lane;
        }
    }
    EXPECT_GT(met, kRandomCases / 4);
}

// Triangles packed over shared vertices (packTriangles, trianglesRayMayHit, which a mesh tree's leaves
// are tested with first): checks that the pack gives back the triangles bit for bit, that every
// triangle it rules out is one intersectRayTriangle misses, with and without culling, on the ray
// unbounded (the filter knows nothing of t), and that no bit is set past the triangles. Returns the
// triangles it leaves (bit i: triangle i).
template <class T> unsigned checkPacked(const RayPath<T>& ray, std::span<const Triangle<T>> triangles) {
    const auto packed = packTriangles(triangles);
    EXPECT_TRUE(packed);
    const auto prepared = makeWatertightRay(RayPath<T>{ray.origin, ray.direction, unbounded<T>});
    if (!packed || !prepared) return 0xFF;
    const unsigned mayHit = trianglesRayMayHit(WatertightRayLanes<T>(*prepared), *packed);
    EXPECT_EQ(mayHit >> triangles.size(), 0u);
    for (std::size_t i = 0; i < triangles.size(); ++i) {
        const Triangle<T>& triangle = triangles[i];
        const Triangle<T> unpacked = packed->triangle(int(i));
        EXPECT_TRUE(std::memcmp(&unpacked, &triangle, sizeof(Triangle<T>)) == 0);
        if (mayHit >> i & 1) continue;
        EXPECT_FALSE(intersectRayTriangle(*prepared, triangle)) << "ruled out: " << text(ray, triangle, {});
        EXPECT_FALSE(intersectRayTriangle(*prepared, triangle, FaceCulling::BackFaces));
    }
    return mayHit;
}

TYPED_TEST(LanesTest, PackingSharesVerticesEqualBitForBitAndRefusesWhatDoesNotFit) {
    using T = TypeParam;
    using Packed = SharedVertexTriangles<T>;
    // A strip: triangle i over vertices i, i + 1, i + 2.
    std::vector<Vec3<T>> strip;
    for (int i = 0; i < 3 * Packed::maxTriangles + 2; ++i)
        strip.emplace_back(T(i), T(i % 2), T(-i));
    const auto stripTriangles = [&](int count, int step) {
        std::vector<Triangle<T>> triangles;
        for (int i = 0; i < count; ++i)
            triangles.push_back({strip[std::size_t(step * i)], strip[std::size_t(step * i + 1)],
                                 strip[std::size_t(step * i + 2)]});
        return triangles;
    };
    const auto shared = packTriangles<T>(stripTriangles(Packed::maxTriangles, 1));
    ASSERT_TRUE(shared);
    EXPECT_EQ(shared->triangleCount, Packed::maxTriangles);
    EXPECT_EQ(shared->blockCount, (Packed::maxTriangles + 2 + 3) / 4);  // each vertex once
    // Separate triangles: 4 fit 12 vertices, 5 do not; nor do more than maxTriangles.
    EXPECT_TRUE(packTriangles<T>(stripTriangles(4, 3)));
    EXPECT_FALSE(packTriangles<T>(stripTriangles(5, 3)));
    EXPECT_FALSE(packTriangles<T>(stripTriangles(Packed::maxTriangles + 1, 1)));
    // -0 and +0 differ in their bits: two vertices, each given back as it was.
    const std::vector<Triangle<T>> signedZeros{{Vec3<T>(T(0), 1, 1), Vec3<T>(1, 0, 0), Vec3<T>(0, 1, 0)},
                                               {Vec3<T>(T(-0.0), 1, 1), Vec3<T>(1, 0, 0), Vec3<T>(0, 1, 0)}};
    const auto zeros = packTriangles<T>(signedZeros);
    ASSERT_TRUE(zeros);
    EXPECT_TRUE(std::signbit(zeros->triangle(1).a.x));
    EXPECT_FALSE(std::signbit(zeros->triangle(0).a.x));
    // Rays through the strip: only misses ruled out; an empty pack rules out everything.
    test::Random random(3010);
    const std::vector<Triangle<T>> triangles = stripTriangles(Packed::maxTriangles, 1);
    for (int r = 0; r < 1000; ++r) {
        const Vec3<T> origin(T(random.uniform(-5, 15)), T(random.uniform(-5, 5)), T(random.uniform(-15, 5)));
        const Vec3<T> target(T(random.uniform(0, 9)), T(random.uniform(0, 1)), T(random.uniform(-9, 0)));
        checkPacked<T>(RayPath<T>{origin, target - origin, unbounded<T>}, triangles);
    }
    const auto empty = packTriangles<T>({});
    ASSERT_TRUE(empty);
    EXPECT_EQ(
        trianglesRayMayHit(
            WatertightRayLanes<T>(*makeWatertightRay(RayPath<T>{Vec3<T>(0), Vec3<T>(0, 0, 1), unbounded<T>})),
            *empty),
        0u);
}

// Random cases, each ray against its triangle, the triangle's vertices rotated, its winding reversed
// and its neighbours across each edge (two of them also reversed): only misses are ruled out, and every
// triangle whose line misses it farther than the tangency band is.
TYPED_TEST(LanesTest, PackedRulesOutOnlyTrianglesTheRayMisses) {
    using T = TypeParam;
    test::Random random(3008);
    int clearMisses = 0, ruledOut = 0;
    for (int i = 0; i < kRandomCases / 4; ++i) {
        RayPath<T> ray;
        Triangle<T> t;
        randomRayAndTriangle(random, ray, t);
        const Triangle<T> acrossBc{t.c, t.b, t.b + t.c - t.a}, acrossCa{t.a, t.c, t.c + t.a - t.b},
            acrossAb{t.b, t.a, t.a + t.b - t.c};
        const std::array<Triangle<T>, 8> triangles{t,
                                                   Triangle<T>{t.b, t.c, t.a},
                                                   Triangle<T>{t.a, t.c, t.b},
                                                   acrossBc,
                                                   acrossCa,
                                                   acrossAb,
                                                   Triangle<T>{acrossCa.a, acrossCa.c, acrossCa.b},
                                                   Triangle<T>{acrossAb.b, acrossAb.a, acrossAb.c}};
        const unsigned mayHit = checkPacked<T>(ray, triangles);
        for (int k = 0; k < 8; ++k) {
            const ref::RealTriangle exact = ref::widen(triangles[std::size_t(k)]);
            const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
            const Real scale = std::max({glm::length(exact.a - origin), glm::length(exact.b - origin),
                                         glm::length(exact.c - origin)});
            if (ref::crossLine(exact, origin, direction).crosses ||
                ref::distanceToAmbiguity(exact, origin, direction, unbounded<Real>) <=
                    kBandUlps * unitRoundoff<T> * scale)
                continue;
            ++clearMisses;
            ruledOut += !(mayHit >> k & 1);
        }
    }
    EXPECT_GT(clearMisses, kRandomCases / 4);
    EXPECT_EQ(ruledOut, clearMisses);
}

// Rays through shared edges and vertices of jittered grids, and exactly through those of an exact grid
// (edge functions exactly 0): every triangle around that the ray hits is left to the full test.
TYPED_TEST(LanesTest, PackedLeavesEveryTriangleThroughEdgesAndVertices) {
    using T = TypeParam;
    test::Random random(3009);
    int hits = 0;
    const auto checkAround = [&](const TriangleGrid<T>& mesh, int i, int j, const RayPath<T>& ray) {
        const std::vector<Triangle<T>> around = mesh.around(i, j);
        constexpr std::size_t packSize = SharedVertexTriangles<T>::maxTriangles;  // 8 triangles, 10 vertices
        for (std::size_t first = 0; first < around.size(); first += packSize) {
            const auto triangles = std::span<const Triangle<T>>(around).subspan(
                first, std::min(packSize, around.size() - first));
            const unsigned mayHit = checkPacked<T>(ray, triangles);
            for (std::size_t k = 0; k < triangles.size(); ++k) {
                const bool hit = intersectRayTriangle(ray, triangles[k]).has_value();
                hits += hit;
                EXPECT_TRUE(!hit || (mayHit >> k & 1)) << text(ray);
            }
        }
    };
    const TriangleGrid<T> jittered = triangleGrid<T>(random, 16, 0.5, Vec3<double>(30, -20, 5), true);
    const TriangleGrid<T> exact = triangleGrid<T>(random, 8, 0.5, Vec3<double>(-2, 4, 1), false);
    for (int r = 0; r < 2000; ++r) {
        const bool exactGrid = r % 2 == 0;
        const TriangleGrid<T>& mesh = exactGrid ? exact : jittered;
        const int i = 2 + int(random.uniform(0, mesh.cells - 4)),
                  j = 2 + int(random.uniform(0, mesh.cells - 4));
        const bool atVertex = random.chance(0.5);
        const Vec3<T> target =
            atVertex ? mesh.vertex(i, j) : (mesh.vertex(i, j) + mesh.vertex(i + 1, j + 1)) / T(2);
        const Vec3<T> direction = exactGrid ? Vec3<T>(T(std::floor(random.uniform(-3, 4))),
                                                      T(std::floor(random.uniform(-3, 4))), -4)
                                            : Vec3<T>(T(random.uniform(-2, 2)), T(random.uniform(-2, 2)), -4);
        checkAround(mesh, i, j, RayPath<T>{target - T(4) * direction, direction, unbounded<T>});
    }
    EXPECT_GT(hits, 2000);
}

}  // namespace
}  // namespace analytic::cast
