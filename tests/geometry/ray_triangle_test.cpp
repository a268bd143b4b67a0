// SPDX-License-Identifier: Zlib
// Ray vs triangle: random cases against the long double reference, watertightness on
// meshes (rays through shared edges and vertices), named edge cases, and regressions for the defects of
// the sample Moller-Trumbore code.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "analytic/geometry/ray_triangle.hpp"
#include "reference/ray_triangle_reference.hpp"
#include "support/agreement.hpp"
#include "support/test_support.hpp"
#include "support/triangle_cases.hpp"

namespace analytic {
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

// Stated bounds. u is the scalar's unit roundoff; L = the largest distance from the ray's origin to a
// vertex is the scale of a case; sin(angle) = |direction . n| / (|direction| |n|) measures how grazing
// the ray is.
// Tangency band: hit/miss must match the reference unless the ray's line passes within
// kBandUlps * u * L of an edge, or its origin or end point lies within that distance of the
// triangle's plane (then the case is counted as skipped; at most kMaxSkippedFraction of the cases may
// be, rays aimed on purpose at edges and vertices included). With back-face culling, also when the
// ray is within kBandUlps * u * L / (smallest altitude) radians of parallel, where the face's side is
// undecided.
constexpr Real kBandUlps = test::triangleBandUlps;
// Conditioning of the triangle: kappa = |e1| |e2| / |n| = 1 / sin(largest angle), e1 and e2 the two
// shortest edges; h = smallest altitude.
// t: the error of the hit point measured along the normal, |dt| |direction . n| / |n|, is at most
// kDistanceUlps * u * L * kappa; the hit point (on the ray) within that / sin(angle), plus 4 u |point|
// of coordinate rounding.
constexpr Real kDistanceUlps = 16;
// Barycentrics: |du| + |dv| <= kBarycentricUlps * u * L / (sin(angle) h). The sheared vertices carry
// about 4 u L of rounding; the weights' errors, relative to their sum (the sheared area, at least
// |n| sin(angle)), then add up to about 128 u L / (sin(angle) h).
constexpr Real kBarycentricUlps = 128;
// Normal: angle to the reference at most kNormalUlps * u * kappa.
constexpr Real kNormalUlps = 16;
constexpr int kRandomCases = 100000;
constexpr double kMaxSkippedFraction = 0.05;

template <class T> class RayTriangleTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayTriangleTest, test::Scalars);

// The shared tally, and the worst errors of the data only a triangle hit has.
struct TriangleAgreement : test::Agreement {
    Real worstBarycentricUlps = 0;
    Real worstNormalUlps = 0;
};

template <class T> void checkAgainstReference(const RayPath<T>& ray, const Triangle<T>& triangle,
                                              FaceCulling culling, TriangleAgreement& agreement) {
    const std::optional<TriangleHit<T>> result = intersectRayTriangle(ray, triangle, culling);
    agreement.describeCase = [&] { return text(ray, triangle, culling); };
    const Real u = unitRoundoff<T>;
    const ref::RealTriangle exact = ref::widen(triangle);
    const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
    const Real scale = std::max(
        {glm::length(exact.a - origin), glm::length(exact.b - origin), glm::length(exact.c - origin)});
    const Real band = kBandUlps * u * scale;
    const ref::LineTriangleCrossing crossing = ref::crossLine(exact, origin, direction);
    const Real normalLength = glm::length(crossing.normal);
    const Real sine = crossing.crosses ? std::abs(glm::dot(crossing.normal, direction)) /
                                             (normalLength * glm::length(direction))
                                       : 0;
    const Real longestEdge = std::max(
        {glm::length(exact.b - exact.a), glm::length(exact.c - exact.b), glm::length(exact.a - exact.c)});
    const Real smallestAltitude = normalLength / longestEdge;
    const bool frontFace = glm::dot(crossing.normal, direction) < 0;
    const bool faceUndecided = sine * smallestAltitude <= band;
    const bool expectHit = crossing.crosses && crossing.t >= 0 && crossing.t <= Real(ray.maxT) &&
                           (culling == FaceCulling::None || frontFace);
    ++agreement.cases;
    if (ref::distanceToAmbiguity(exact, origin, direction, Real(ray.maxT)) <= band ||
        (culling == FaceCulling::BackFaces && crossing.crosses && faceUndecided)) {
        ++agreement.skipped;
    } else if (result.has_value() != expectHit) {
        return agreement.fail(std::string(result ? "hit" : "miss") + " unexpected");
    }
    if (!result) return;
    ++agreement.hits;
    const TriangleHit<T>& hit = *result;
    if (!(hit.t >= T(0) && hit.t <= ray.maxT) || !isFinite(hit.point) || !isFinite(hit.normal) ||
        !std::isfinite(hit.u) || !std::isfinite(hit.v)) {
        return agreement.fail("contract: t " + std::to_string(double(hit.t)));
    }
    if (!crossing.crosses) return;  // only inside the band
    std::array<Real, 3> edges{glm::length(exact.b - exact.a), glm::length(exact.c - exact.b),
                              glm::length(exact.a - exact.c)};
    std::sort(edges.begin(), edges.end());
    const Real conditioning = edges[0] * edges[1] / normalLength;
    const Real distanceUlps =
        std::abs(Real(hit.t) - crossing.t) * sine * glm::length(direction) / (u * scale * conditioning);
    agreement.worstDistanceUlps = std::max(agreement.worstDistanceUlps, distanceUlps);
    if (!(distanceUlps <= kDistanceUlps)) {
        return agreement.fail("t " + std::to_string(double(hit.t)) + " vs " +
                              std::to_string(double(crossing.t)));
    }
    const Real alongPlane = kDistanceUlps * u * scale * conditioning / sine;
    const Real pointTolerance =
        alongPlane + 4 * u * (maxAbsComponent(origin) + std::abs(crossing.t) * maxAbsComponent(direction));
    if (!(maxAbsComponent(widen(hit.point) - (origin + crossing.t * direction)) <= pointTolerance)) {
        return agreement.fail("point " + text(hit.point));
    }
    const Real baryUlps = (std::abs(Real(hit.u) - crossing.u) + std::abs(Real(hit.v) - crossing.v)) * sine *
                          smallestAltitude / (u * scale);
    agreement.worstBarycentricUlps = std::max(agreement.worstBarycentricUlps, baryUlps);
    if (!(baryUlps <= kBarycentricUlps)) {
        return agreement.fail("barycentrics " + std::to_string(double(hit.u)) + ", " +
                              std::to_string(double(hit.v)) + " vs " + std::to_string(double(crossing.u)) +
                              ", " + std::to_string(double(crossing.v)));
    }
    const Real normalUlps = test::angleBetween(widen(hit.normal), crossing.normal) / (u * conditioning);
    agreement.worstNormalUlps = std::max(agreement.worstNormalUlps, normalUlps);
    if (!(normalUlps <= kNormalUlps) || std::abs(glm::length(widen(hit.normal)) - 1) > 4 * u) {
        return agreement.fail("normal " + text(hit.normal));
    }
    if (!faceUndecided && hit.frontFace != frontFace) agreement.fail("frontFace");
}

TYPED_TEST(RayTriangleTest, AgreesWithReferenceOnRandomCases) {
    using T = TypeParam;
    test::Random random(3001);
    TriangleAgreement agreement;
    for (int i = 0; i < kRandomCases; ++i) {
        RayPath<T> ray;
        Triangle<T> triangle;
        randomRayAndTriangle(random, ray, triangle);
        checkAgainstReference(ray, triangle, random.chance(0.3) ? FaceCulling::BackFaces : FaceCulling::None,
                              agreement);
    }
    test::expectAgreement(agreement, kMaxSkippedFraction);
    std::cout << agreement.counts() << ", worst errors (in the units of the stated bounds): distance "
              << double(agreement.worstDistanceUlps) << ", barycentrics "
              << double(agreement.worstBarycentricUlps) << ", normal " << double(agreement.worstNormalUlps)
              << "\n";
}

template <class T> Triangle<T> unitTriangle() { return {Vec3<T>(0), Vec3<T>(1, 0, 0), Vec3<T>(0, 1, 0)}; }

TYPED_TEST(RayTriangleTest, FrontAndBackFaces) {
    using T = TypeParam;
    const RayPath<T> fromAbove{{T(0.25), T(0.5), 2}, {0, 0, -2}, unbounded<T>};
    const RayPath<T> fromBelow{{T(0.25), T(0.5), -2}, {0, 0, 2}, unbounded<T>};
    for (const bool above : {true, false}) {
        const auto hit = intersectRayTriangle(above ? fromAbove : fromBelow, unitTriangle<T>());
        ASSERT_TRUE(hit.has_value());
        EXPECT_EQ(hit->t, T(1));
        EXPECT_EQ(hit->u, T(0.25));
        EXPECT_EQ(hit->v, T(0.5));
        EXPECT_EQ(hit->point, Vec3<T>(T(0.25), T(0.5), 0));
        EXPECT_EQ(hit->normal, Vec3<T>(0, 0, 1));  // not flipped towards the ray
        EXPECT_EQ(hit->frontFace, above);
    }
    EXPECT_TRUE(intersectRayTriangle(fromAbove, unitTriangle<T>(), FaceCulling::BackFaces));
    EXPECT_FALSE(intersectRayTriangle(fromBelow, unitTriangle<T>(), FaceCulling::BackFaces));
}

TYPED_TEST(RayTriangleTest, EdgesAndVerticesBelongToTheTriangle) {
    using T = TypeParam;
    const Vec3<T> down(0, 0, -1);
    // Exactly through vertex a, b and c, and through the middle of each edge.
    for (const Vec3<T> target : {Vec3<T>(0, 0, 0), Vec3<T>(1, 0, 0), Vec3<T>(0, 1, 0), Vec3<T>(T(0.5), 0, 0),
                                 Vec3<T>(T(0.5), T(0.5), 0), Vec3<T>(0, T(0.5), 0)}) {
        const auto hit =
            intersectRayTriangle(RayPath<T>{target - down, down, unbounded<T>}, unitTriangle<T>());
        ASSERT_TRUE(hit.has_value()) << text(target);
        EXPECT_EQ(hit->point, target);
        EXPECT_EQ(hit->u, target.x);
        EXPECT_EQ(hit->v, target.y);
    }
    // One step (of the scalar's spacing) outside an edge: no hit.
    const T outside = std::nextafter(T(0), T(-1));
    EXPECT_FALSE(
        intersectRayTriangle(RayPath<T>{{outside, T(0.5), 1}, down, unbounded<T>}, unitTriangle<T>()));
    EXPECT_FALSE(
        intersectRayTriangle(RayPath<T>{{T(0.5), outside, 1}, down, unbounded<T>}, unitTriangle<T>()));
    EXPECT_FALSE(intersectRayTriangle(
        RayPath<T>{{T(0.5), std::nextafter(T(0.5), T(1)), 1}, down, unbounded<T>}, unitTriangle<T>()));
}

TYPED_TEST(RayTriangleTest, OriginOnTheTriangleHitsAtZero) {
    using T = TypeParam;
    for (const T z : {T(-1), T(1)}) {
        const auto hit =
            intersectRayTriangle(RayPath<T>{{T(0.25), T(0.25), 0}, {T(0.5), 0, z}, 1}, unitTriangle<T>());
        ASSERT_TRUE(hit.has_value());
        EXPECT_EQ(hit->t, T(0));
        EXPECT_EQ(hit->frontFace, z < 0);
    }
}

TYPED_TEST(RayTriangleTest, RayEndingBeforeTheTriangleMisses) {
    using T = TypeParam;
    const Vec3<T> origin(T(0.25), T(0.25), 1), down(0, 0, -1);
    EXPECT_FALSE(intersectRayTriangle(RayPath<T>{origin, down, T(0.999)}, unitTriangle<T>()));
    const auto reaches = intersectRayTriangle(RayPath<T>{origin, down, T(1)}, unitTriangle<T>());
    ASSERT_TRUE(reaches.has_value());
    EXPECT_EQ(reaches->t, T(1));
}

TYPED_TEST(RayTriangleTest, ZeroLengthRayIsNoHit) {
    using T = TypeParam;
    const RayPath<T> ray{{T(0.25), T(0.25), 0}, Vec3<T>(0), 1};
    EXPECT_FALSE(intersectRayTriangle(ray, unitTriangle<T>()));
    EXPECT_FALSE(makeWatertightRay(ray));
}

// Every input field set to NaN or infinity (maxT also to NaN, -inf and negative): no hit, no NaN.
TYPED_TEST(RayTriangleTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), infinity = std::numeric_limits<T>::infinity();
    const RayPath<T> ray{{T(0.25), T(0.25), 1}, {0, 0, -1}, 2};
    const Triangle<T> triangle = unitTriangle<T>();
    ASSERT_TRUE(intersectRayTriangle(ray, triangle));
    // Every scalar of the ray but maxT (checked below, with a negative value too), and of the triangle.
    const auto isMaxT = [](int index, T) { return index == 6; };
    test::forEachNonFiniteField<T>(
        ray, isMaxT, [&](const RayPath<T>& badRay) { EXPECT_FALSE(intersectRayTriangle(badRay, triangle)); });
    test::forEachNonFiniteField<T>(triangle, [&](const Triangle<T>& badTriangle) {
        EXPECT_FALSE(intersectRayTriangle(ray, badTriangle));
    });
    for (const T badMaxT : {nan, -infinity, T(-1)}) {
        EXPECT_FALSE(intersectRayTriangle(RayPath<T>{ray.origin, ray.direction, badMaxT}, triangle));
    }
}

// Huge and tiny triangles far from the origin, with power-of-two data so the answer is exact.
TYPED_TEST(RayTriangleTest, HugeAndTinyScales) {
    using T = TypeParam;
    for (const T scale : {T(0x1p20), T(0x1p-14)}) {
        const Vec3<T> offset = Vec3<T>(5, -3, 7) * (scale * 64);
        const Triangle<T> triangle{offset, offset + Vec3<T>(scale, 0, 0), offset + Vec3<T>(0, 0, scale)};
        const RayPath<T> ray{offset + Vec3<T>(T(0.25), 3, T(0.5)) * scale, {0, -scale, 0}, unbounded<T>};
        const auto hit = intersectRayTriangle(ray, triangle);
        ASSERT_TRUE(hit.has_value()) << scale;
        EXPECT_EQ(hit->t, T(3));
        EXPECT_EQ(hit->u, T(0.25));
        EXPECT_EQ(hit->v, T(0.5));
        EXPECT_EQ(hit->normal, Vec3<T>(0, -1, 0));
        EXPECT_FALSE(hit->frontFace);  // the ray comes from +y, the normal points to -y
        EXPECT_FALSE(intersectRayTriangle(
            RayPath<T>{ray.origin + Vec3<T>(scale, 0, 0), ray.direction, unbounded<T>}, triangle));
    }
}

// A needle (angle 2^-20 at a): the normal, from the two shortest edges, is accurate to the last bits.
TYPED_TEST(RayTriangleTest, NeedleTriangleKeepsAnAccurateNormal) {
    using T = TypeParam;
    const T width = T(0x1p-20);
    const Triangle<T> needle{{0, 0, 0}, {1, 0, 0}, {1, width, width}};  // in the plane y = z
    const Vec3<T> inside(T(0.75), T(0.375) * width, T(0.375) * width);
    const auto hit =
        intersectRayTriangle(RayPath<T>{inside + Vec3<T>(0, -1, 1), {0, 1, -1}, unbounded<T>}, needle);
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(hit->t, T(1), 4 * unitRoundoff<T>);
    EXPECT_LE(double(test::angleBetween(widen(hit->normal), RealVec3(0, -1, 1))), 4 * unitRoundoff<T>);
    EXPECT_NEAR(hit->u, T(0.375), 64 * unitRoundoff<T>);
    EXPECT_NEAR(hit->v, T(0.375), 64 * unitRoundoff<T>);
}

// Degenerate triangles: coincident vertices, and exactly collinear ones, in random exact
// (small-integer, power-of-two scaled) constructions. No hit, whatever the ray.
TYPED_TEST(RayTriangleTest, DegenerateTrianglesAreNoHit) {
    using T = TypeParam;
    EXPECT_FALSE(intersectRayTriangle(RayPath<T>{{0, 0, 1}, {0, 0, -1}, unbounded<T>},
                                      Triangle<T>{{0, 0, 0}, {0, 0, 0}, {1, 1, 0}}));
    test::Random random(3002);
    int hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto integer = [&](int range) { return T(std::floor(random.uniform(-range, range + 1))); };
        const T scale = std::ldexp(T(1), int(random.uniform(-20, 20)));
        const Vec3<T> a(integer(100), integer(100), integer(100)),
            step(integer(20), integer(20), integer(20));
        const Triangle<T> collinear{a * scale, (a + step) * scale, (a + integer(3) * step) * scale};
        // Aimed at a point of the segment, from anywhere.
        const Vec3<T> target = (a + step * T(0.5)) * scale;
        const Vec3<T> origin = target + Vec3<T>(integer(50), integer(50), integer(50)) * scale;
        hits +=
            intersectRayTriangle(RayPath<T>{origin, target - origin, unbounded<T>}, collinear).has_value();
    }
    EXPECT_EQ(hits, 0);
}

// The policy for triangles degenerate within rounding: when the normal is within its rounding bound
// of zero the triangle is no hit even if its vertices are not exactly collinear, since its normal would
// be noise (for this ray: thickness up to 96 u). A thicker sliver is hit.
TYPED_TEST(RayTriangleTest, SliverWithinRoundingOfCollinearIsNoHit) {
    using T = TypeParam;
    for (const T thickness : {unitRoundoff<T> / 2, T(0x1p-10)}) {
        const Triangle<T> sliver{{0, 0, 0}, {1, 0, 0}, {2, thickness, 0}};
        const auto hit =
            intersectRayTriangle(RayPath<T>{{1, thickness / 4, 1}, {0, 0, -1}, unbounded<T>}, sliver);
        EXPECT_EQ(hit.has_value(), thickness > 96 * unitRoundoff<T>) << thickness;
        if (hit) {
            EXPECT_EQ(hit->t, T(1));
            EXPECT_EQ(hit->normal, Vec3<T>(0, 0, 1));
        }
    }
}

// Document 003's Moller-Trumbore as printed (with its culling branch), in the scalar under test.
template <class T> std::optional<T> documentMollerTrumbore(const Vec3<T>& origin, const Vec3<T>& direction,
                                                           const Triangle<T>& triangle, bool cull) {
    const T epsilon = T(0.00001);
    const Vec3<T> edge1 = triangle.b - triangle.a, edge2 = triangle.c - triangle.a;
    const Vec3<T> pvec = glm::cross(direction, edge2);
    const T det = glm::dot(edge1, pvec);
    const Vec3<T> tvec = origin - triangle.a;
    const Vec3<T> qvec = glm::cross(tvec, edge1);
    if (cull) {
        if (det < epsilon) return std::nullopt;
        const T u = glm::dot(tvec, pvec);
        if (u < 0 || u > det) return std::nullopt;
        const T v = glm::dot(direction, qvec);
        if (v < 0 || u + v > det) return std::nullopt;
        return glm::dot(edge2, qvec) / det;
    }
    if (det > -epsilon && det < epsilon) return std::nullopt;
    const T inverse = 1 / det;
    const T u = glm::dot(tvec, pvec) * inverse;
    if (u < 0 || u > 1) return std::nullopt;
    const T v = glm::dot(direction, qvec) * inverse;
    if (v < 0 || u + v > 1) return std::nullopt;
    return glm::dot(edge2, qvec) * inverse;
}

TYPED_TEST(RayTriangleTest, RegressionTriangleBehindOriginIsNoHit) {
    using T = TypeParam;
    // The triangle is at t = -1: the sample Moller-Trumbore code never checks t >= 0 and reports it, with or
    // without culling (from below, going down, the triangle behind shows its front face: det > 0).
    const RayPath<T> upwards{{T(0.25), T(0.25), 1}, {0, 0, 1}, unbounded<T>};
    const RayPath<T> downwards{{T(0.25), T(0.25), -1}, {0, 0, -1}, unbounded<T>};
    ASSERT_TRUE(documentMollerTrumbore(upwards.origin, upwards.direction, unitTriangle<T>(), false));
    ASSERT_TRUE(documentMollerTrumbore(downwards.origin, downwards.direction, unitTriangle<T>(), false));
    ASSERT_TRUE(documentMollerTrumbore(downwards.origin, downwards.direction, unitTriangle<T>(), true));
    EXPECT_FALSE(intersectRayTriangle(upwards, unitTriangle<T>()));
    EXPECT_FALSE(intersectRayTriangle(downwards, unitTriangle<T>()));
    EXPECT_FALSE(intersectRayTriangle(downwards, unitTriangle<T>(), FaceCulling::BackFaces));
}

TYPED_TEST(RayTriangleTest, RegressionSmallTriangleHits) {
    using T = TypeParam;
    // Legs of 2^-10: the determinant is about 1e-6, below the sample Moller-Trumbore code's absolute 1e-5.
    const T leg = T(0x1p-10);
    const Triangle<T> small{Vec3<T>(0), {leg, 0, 0}, {0, leg, 0}};
    const RayPath<T> ray{{leg / 4, leg / 4, 1}, {0, 0, -1}, unbounded<T>};
    ASSERT_FALSE(documentMollerTrumbore(ray.origin, ray.direction, small, false));
    const auto hit = intersectRayTriangle(ray, small);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->t, T(1));
    EXPECT_EQ(hit->u, T(0.25));
    EXPECT_EQ(hit->v, T(0.25));
}

// Rays lying exactly in the plane of large, tilted triangles (small-integer data, exact in the
// scalar): the sample Moller-Trumbore code's determinant is rounding noise there, far above its 1e-5, so it
// reports hits at arbitrary t. Here: never a hit, including the axis-aligned case whose projection is exact.
TYPED_TEST(RayTriangleTest, RegressionRayInPlaneIsNoHit) {
    using T = TypeParam;
    EXPECT_FALSE(
        intersectRayTriangle(RayPath<T>{{-1, T(0.25), 0}, {1, 0, 0}, unbounded<T>}, unitTriangle<T>()));
    test::Random random(3003);
    const double range = sizeof(T) == sizeof(float) ? 1e3 : 1e6;
    int documentHits = 0, hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto integer = [&](double limit) { return T(std::floor(random.uniform(-limit, limit + 1))); };
        const Vec3<T> a(integer(range), integer(range), integer(range));
        const Vec3<T> edge1(integer(range), integer(range), integer(range));
        const Vec3<T> edge2(integer(range), integer(range), integer(range));
        const Triangle<T> triangle{a, a + edge1, a + edge2};
        const Vec3<T> origin = a + integer(2) * edge1 + integer(2) * edge2;
        const Vec3<T> direction = integer(3) * edge1 + integer(3) * edge2;
        if (direction == Vec3<T>(0)) continue;
        documentHits += documentMollerTrumbore(origin, direction, triangle, false).has_value();
        hits += intersectRayTriangle(RayPath<T>{origin, direction, unbounded<T>}, triangle).has_value();
    }
    ASSERT_GT(documentHits, 0);
    EXPECT_EQ(hits, 0);
}

struct WatertightCount {
    int rays = 0;
    int missed = 0;    // no triangle hit: a leak
    int multiple = 0;  // more than one triangle hit (exactly through an edge or vertex)
    int documentMissed = 0;
};

// Rays aimed (within rounding) at a vertex of the grid or a point of one of the edges leaving it,
// from above, in random directions: at least one of the triangles around must be hit.
template <class T> void castAtSharedEdgesAndVertices(test::Random& random, const TriangleGrid<T>& mesh,
                                                     double cell, int rays, WatertightCount& count) {
    for (int r = 0; r < rays; ++r) {
        const int i = 1 + int(random.uniform(0, mesh.cells - 2)),
                  j = 1 + int(random.uniform(0, mesh.cells - 2));
        const Vec3<T> from = mesh.vertex(i, j);
        const int kind = int(random.uniform(0, 4));  // vertex, edge along i, along j, diagonal
        const Vec3<T> to = kind == 1   ? mesh.vertex(i + 1, j)
                           : kind == 2 ? mesh.vertex(i, j + 1)
                                       : mesh.vertex(i + 1, j + 1);
        const Vec3<T> target = kind == 0 ? from : from + T(random.uniform(0, 1)) * (to - from);
        const Vec3<T> slope(T(random.uniform(-0.5, 0.5)), T(random.uniform(-0.5, 0.5)), -1);
        RayPath<T> ray;
        if (random.chance(0.5)) {  // the origin stepped back from the target along a given direction
            const Vec3<T> direction = slope * T(cell * random.logUniform(1e-2, 1e2));
            const T back = T(cell * random.logUniform(1, 100)) / -direction.z;
            ray = {target - back * direction, direction, unbounded<T>};
        } else {  // the direction from a given origin to the target
            const Vec3<T> origin = target - slope * T(cell * random.logUniform(1, 100));
            ray = {origin, target - origin, unbounded<T>};
        }
        const auto prepared = makeWatertightRay(ray);
        int hits = 0;
        bool documentHit = false;
        for (const Triangle<T>& triangle : mesh.around(i, j)) {
            hits += intersectRayTriangle(*prepared, triangle).has_value();
            documentHit = documentHit || documentMollerTrumbore(ray.origin, ray.direction, triangle, false);
        }
        ++count.rays;
        count.missed += hits == 0;
        count.multiple += hits > 1;
        count.documentMissed += !documentHit;
        if (hits == 0 && count.missed <= 3) ADD_FAILURE() << "leak: " << text(ray) << " at " << text(target);
    }
}

// The sample code's defect (not watertight): rays through shared edges and vertices of jittered grids, at
// several scales and far from the origin, never pass between the triangles. The same rays leak
// through the sample Moller-Trumbore code.
TYPED_TEST(RayTriangleTest, RegressionRaysThroughSharedEdgesAndVerticesNeverLeak) {
    using T = TypeParam;
    test::Random random(3004);
    for (const double cell : {1e-4, 1.0, 1e5}) {
        const TriangleGrid<T> mesh =
            triangleGrid<T>(random, 64, cell, Vec3<double>(-3e3, 2e3, 5e2) * cell, true);
        WatertightCount count;
        castAtSharedEdgesAndVertices(random, mesh, cell, 20000, count);
        EXPECT_EQ(count.missed, 0) << "cell " << cell;
        if (cell == 1.0) {
            EXPECT_GT(count.documentMissed, 0);
        }
        std::cout << "cell " << cell << ": rays " << count.rays << ", leaks " << count.missed
                  << ", through an edge or vertex (several hits) " << count.multiple
                  << ", leaks of the sample Moller-Trumbore code " << count.documentMissed << "\n";
    }
}

// The whole grid, brute force: every ray aimed at a shared edge or vertex hits at least one triangle,
// and only near where it was aimed.
TYPED_TEST(RayTriangleTest, GridRaysHitNearTheirTargetOnly) {
    using T = TypeParam;
    test::Random random(3005);
    const double cell = 0.25;
    const TriangleGrid<T> mesh = triangleGrid<T>(random, 64, cell, Vec3<double>(100, -50, 20), true);
    std::vector<Triangle<T>> all;
    for (int i = 0; i < mesh.cells; ++i) {
        for (int j = 0; j < mesh.cells; ++j) {
            all.push_back({mesh.vertex(i, j), mesh.vertex(i + 1, j), mesh.vertex(i + 1, j + 1)});
            all.push_back({mesh.vertex(i, j), mesh.vertex(i + 1, j + 1), mesh.vertex(i, j + 1)});
        }
    }
    for (int r = 0; r < 100; ++r) {
        const int i = 1 + int(random.uniform(0, mesh.cells - 2)),
                  j = 1 + int(random.uniform(0, mesh.cells - 2));
        const Vec3<T> target = mesh.vertex(i, j);
        const Vec3<T> origin = target + Vec3<T>(T(random.uniform(-2, 2)), T(random.uniform(-2, 2)), 4);
        const auto prepared = makeWatertightRay(RayPath<T>{origin, target - origin, unbounded<T>});
        int hits = 0;
        for (const Triangle<T>& triangle : all) {
            if (const auto hit = intersectRayTriangle(*prepared, triangle)) {
                ++hits;
                EXPECT_LE(glm::length(hit->point - target), T(1e-3)) << text(target);
            }
        }
        EXPECT_GE(hits, 1) << text(target);
    }
}

// An exact grid (integer coordinates, power-of-two scale) and exactly representable rays through its
// vertices and edge midpoints: the sheared edge functions are exactly 0 there, which counts as inside
// for every triangle around: all 6 triangles at a vertex, both at an edge, are hit.
TYPED_TEST(RayTriangleTest, RaysExactlyThroughSharedEdgesAndVerticesHitEveryNeighbour) {
    using T = TypeParam;
    test::Random random(3006);
    const TriangleGrid<T> mesh = triangleGrid<T>(random, 8, 0.5, Vec3<double>(-2, 4, 1), false);
    for (int r = 0; r < 2000; ++r) {
        const int i = 2 + int(random.uniform(0, 4)), j = 2 + int(random.uniform(0, 4));
        const bool atVertex = random.chance(0.5);
        const Vec3<T> target =
            atVertex ? mesh.vertex(i, j) : (mesh.vertex(i, j) + mesh.vertex(i + 1, j + 1)) / T(2);
        const Vec3<T> direction(T(std::floor(random.uniform(-3, 4))), T(std::floor(random.uniform(-3, 4))),
                                -4);
        const RayPath<T> ray{target - T(4) * direction, direction, unbounded<T>};
        int hits = 0;
        for (const Triangle<T>& triangle : mesh.around(i, j))
            hits += intersectRayTriangle(ray, triangle).has_value();
        EXPECT_EQ(hits, atVertex ? 6 : 2) << text(ray);
    }
}

// A closed, jittered sphere of shared vertices (latitude-longitude; radial jitter of 2%, small enough
// that the surface is star-shaped from every origin used): rays from inside aimed at its vertices and
// edges leave through at least one triangle, always a back face, and only where aimed.
TYPED_TEST(RayTriangleTest, RaysFromInsideAClosedMeshAlwaysLeaveIt) {
    using T = TypeParam;
    test::Random random(3007);
    constexpr int rings = 16, sectors = 32;
    for (const double radius : {1e-3, 1.0, 1e5}) {
        const Vec3<double> centre = random.unitVector<double>() * (radius * 1e3);
        std::vector<Vec3<T>> vertices;
        const auto onSphere = [&](double latitude, double longitude) {
            const Vec3<double> unit(std::cos(latitude) * std::cos(longitude),
                                    std::cos(latitude) * std::sin(longitude), std::sin(latitude));
            vertices.push_back(Vec3<T>(centre + unit * (radius * random.uniform(0.98, 1.02))));
        };
        onSphere(M_PI / 2, 0);
        for (int ring = 1; ring < rings; ++ring) {
            for (int sector = 0; sector < sectors; ++sector) {
                onSphere(M_PI / 2 - M_PI * ring / rings, 2 * M_PI * sector / sectors);
            }
        }
        onSphere(-M_PI / 2, 0);
        const auto ringVertex = [&](int ring, int sector) {
            return ring == 0       ? 0
                   : ring == rings ? int(vertices.size()) - 1
                                   : 1 + (ring - 1) * sectors + sector % sectors;
        };
        std::vector<std::array<int, 3>> faces;
        for (int ring = 0; ring < rings; ++ring) {
            for (int sector = 0; sector < sectors; ++sector) {
                const int a = ringVertex(ring, sector), b = ringVertex(ring + 1, sector),
                          c = ringVertex(ring + 1, sector + 1), d = ringVertex(ring, sector + 1);
                if (ring > 0) faces.push_back({a, b, d});
                if (ring < rings - 1) faces.push_back({b, c, d});
            }
        }
        std::vector<Triangle<T>> triangles;
        for (const auto& face : faces) {
            Triangle<T> triangle{vertices[face[0]], vertices[face[1]], vertices[face[2]]};
            const Vec3<double> outward =
                (Vec3<double>(triangle.a) + Vec3<double>(triangle.b) + Vec3<double>(triangle.c)) / 3.0 -
                centre;
            if (glm::dot(
                    glm::cross(Vec3<double>(triangle.b - triangle.a), Vec3<double>(triangle.c - triangle.a)),
                    outward) < 0) {
                std::swap(triangle.b, triangle.c);
            }
            triangles.push_back(triangle);
        }
        int multiple = 0;
        for (int r = 0; r < 3000; ++r) {
            const std::array<int, 3>& face = faces[std::size_t(random.uniform(0, double(faces.size())))];
            const Vec3<T> from = vertices[face[0]], to = vertices[face[1 + int(random.uniform(0, 2))]];
            const Vec3<T> target = random.chance(0.3) ? from : from + T(random.uniform(0, 1)) * (to - from);
            const Vec3<T> origin(centre + random.unitVector<double>() * (radius * random.uniform(0, 0.2)));
            const auto prepared = makeWatertightRay(RayPath<T>{origin, target - origin, unbounded<T>});
            int hits = 0;
            for (const Triangle<T>& triangle : triangles) {
                if (const auto hit = intersectRayTriangle(*prepared, triangle)) {
                    ++hits;
                    EXPECT_FALSE(hit->frontFace);
                    EXPECT_LE(glm::length(hit->point - target), T(1e-3 * radius));
                }
            }
            ASSERT_GE(hits, 1) << "radius " << radius << ": "
                               << text(RayPath<T>{origin, target - origin, unbounded<T>});
            multiple += hits > 1;
        }
        std::cout << "radius " << radius << ": 3000 rays from inside, " << multiple
                  << " through an edge or vertex\n";
    }
}

}  // namespace
}  // namespace analytic
