// SPDX-License-Identifier: Zlib
// Ray against sphere and circle and the crossings of a segment with a sphere, against the long double
// textbook quadratic on random cases, plus the named edge cases and regressions for the defects of the sample
// code the tests were specified from.
#include "analytic/geometry/ray_sphere.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "reference/ray_round_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Real;
using test::RealVec;

// Stated bounds (test::kRoundSolidBounds), in units of u, the scalar's unit roundoff, times the case's scale
// (|origin| + |centre| + radius): hit/miss compared outside a band of 16 u * scale about the surface;
// |t - t_ref| |d| and |point - point_ref| <= 8 u * scale / cosIncidence; normal angle <= 8 u * (1 + scale /
// (radius * cosIncidence)); | |normal| - 1 | <= 4 u; at most 8% of the random cases in the band.
constexpr test::RoundSolidBounds kBounds = test::kRoundSolidBounds;
constexpr int kRandomCases = 120000;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <class T> class RaySphereTest : public ::testing::Test {};
TYPED_TEST_SUITE(RaySphereTest, test::Scalars);

const auto kIntersectSphere = [](const auto& ray, const auto& sphere) {
    return intersectRaySphere(ray, sphere);
};

// Rays that hit, graze, start inside or go anywhere nearby (see randomRayNear); spheres of any size, near
// or far from the world origin.
template <class T, int N> void checkRandomBalls(std::uint64_t seed) {
    test::Random random(seed);
    test::RoundSolidChecker<T, N> checker(kBounds);
    for (int i = 0; i < kRandomCases; ++i) {
        const auto placement = test::randomPlacement<N>(random);
        const double radius = placement.size;
        const VecN<double, N> center = placement.position;
        const auto inside = [&] { return center + test::randomInBall<N>(random) * radius; };
        const auto onSurface = [&] {
            const VecN<double, N> normal = test::randomUnit<N>(random);
            return test::SurfaceSample<N>{center + normal * radius, normal,
                                          test::randomTangent<N>(random, normal)};
        };
        const RayPath<T, N> ray =
            test::randomRayNear<T, N>(random, i, center, radius, placement.size, inside, onSurface);
        const Ball<T, N> ball{VecN<T, N>(center), T(radius)};
        const RealVec<N> realCenter = test::widenVec(ball.center);
        const Real realRadius = Real(ball.radius);
        const auto reference = [&](Real grow) {
            return test::referenceLineSphere<N>(test::widenVec(ray.origin), test::widenVec(ray.direction),
                                                realCenter, realRadius + grow);
        };
        const Real scale = glm::length(test::widenVec(ray.origin)) + glm::length(realCenter) + realRadius;
        checker.check(ray, intersectRaySphere(ray, ball), reference, scale, realRadius, [&] {
            return "sphere centre " + test::text(realCenter) + " radius " + test::text(realRadius);
        });
    }
    checker.finish(N == 3 ? "random spheres" : "random circles");
}

TYPED_TEST(RaySphereTest, RandomSpheresAgreeWithReference) { checkRandomBalls<TypeParam, 3>(1); }

TYPED_TEST(RaySphereTest, RandomCirclesAgreeWithReference) { checkRandomBalls<TypeParam, 2>(2); }

TYPED_TEST(RaySphereTest, RayThroughCentre) {
    using T = TypeParam;
    const RayPath<T> ray{{-5, 0, 0}, {2, 0, 0}, kInfinity<T>};
    const auto hit = intersectRaySphere(ray, Sphere<T>{{0, 0, 0}, 1});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(2));
    EXPECT_EQ(hit->exit.t, T(3));
    EXPECT_EQ(hit->entry.point, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_FALSE(hit->originInside);
}

TYPED_TEST(RaySphereTest, TangentRayTouchesAtOnePoint) {
    using T = TypeParam;
    const Sphere<T> sphere{{0, 0, 0}, 1};
    const auto hit = intersectRaySphere(RayPath<T>{{-5, 1, 0}, {1, 0, 0}, kInfinity<T>}, sphere);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(5));
    EXPECT_EQ(hit->exit.t, T(5));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(0, 1, 0));
    // One ulp outside misses, one ulp inside hits.
    const T above = std::nextafter(T(1), T(2)), below = std::nextafter(T(1), T(0));
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{-5, above, 0}, {1, 0, 0}, kInfinity<T>}, sphere));
    EXPECT_TRUE(intersectRaySphere(RayPath<T>{{-5, below, 0}, {1, 0, 0}, kInfinity<T>}, sphere));
}

TYPED_TEST(RaySphereTest, OriginInsideReportsBothCrossings) {
    using T = TypeParam;
    const auto hit =
        intersectRaySphere(RayPath<T>{{0.5, 0, 0}, {0, 0, 4}, T(0.01)}, Sphere<T>{{0.5, 0, 0}, 2});
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-0.5));
    EXPECT_EQ(hit->exit.t, T(0.5));  // beyond maxT, still reported as the line's exit
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 0, 1));
}

TYPED_TEST(RaySphereTest, OriginOnSurface) {
    using T = TypeParam;
    const Sphere<T> sphere{{0, 0, 0}, 1};
    const auto leaving = intersectRaySphere(RayPath<T>{{1, 0, 0}, {1, 0, 0}, kInfinity<T>}, sphere);
    ASSERT_TRUE(leaving);
    EXPECT_EQ(leaving->exit.t, T(0));
    EXPECT_EQ(leaving->entry.t, T(-2));
    EXPECT_TRUE(leaving->originInside);
    const auto entering = intersectRaySphere(RayPath<T>{{1, 0, 0}, {-1, 0, 0}, kInfinity<T>}, sphere);
    ASSERT_TRUE(entering);
    EXPECT_EQ(entering->entry.t, T(0));
    EXPECT_EQ(entering->exit.t, T(2));
    EXPECT_FALSE(entering->originInside);
}

TYPED_TEST(RaySphereTest, SphereBehindOrBeyondTheRayIsMissed) {
    using T = TypeParam;
    const Sphere<T> sphere{{0, 0, 0}, 1};
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{3, 0, 0}, {1, 0, 0}, kInfinity<T>}, sphere));
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{-3, 0, 0}, {1, 0, 0}, T(1.999)}, sphere));
    EXPECT_TRUE(intersectRaySphere(RayPath<T>{{-3, 0, 0}, {1, 0, 0}, T(2)}, sphere));
    // maxT = 0: only a ray starting inside or on the surface.
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{-3, 0, 0}, {1, 0, 0}, T(0)}, sphere));
    EXPECT_TRUE(intersectRaySphere(RayPath<T>{{0, 0.5, 0}, {1, 0, 0}, T(0)}, sphere));
}

TYPED_TEST(RaySphereTest, DegenerateInputIsNoHit) {
    using T = TypeParam;
    test::expectDegenerateInputGivesNoHit(RayPath<T>{{-3, 0, 0}, {1, 0, 0}, kInfinity<T>},
                                          Sphere<T>{{0, 0, 0}, 1}, kIntersectSphere);
    // A zero direction from inside is no ray either.
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{0, 0, 0}, {0, 0, 0}, T(1)}, Sphere<T>{{0, 0, 0}, 1}));
}

TYPED_TEST(RaySphereTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, 0.5, 0.25}, {1, 0, 0}, T(10)},
                                         Sphere<T>{{0, 0, 0}, 1}, kIntersectSphere);
}

TYPED_TEST(RaySphereTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, 0.125, 0.25}, T(2.5)},
                                Sphere<T>{{0.5, -0.25, 0.125}, 1.25}, kIntersectSphere);
}

// See expectTinyFarSolidCrossed: a sphere of radius 1e-4 about 1.3e6 away (double), 1e-2 at 1e4 (float).
TYPED_TEST(RaySphereTest, TinySphereFarAway) {
    using T = TypeParam;
    const T step = test::tinyFarStep<T>();
    const auto sphere = [](const Vec3<T>& center, T radius) { return Sphere<T>{center, radius}; };
    for (const Vec3<T>& origin : {Vec3<T>(0, 0, 0), Vec3<T>(1000, -2000, 500)}) {
        test::expectTinyFarSolidCrossed(kIntersectSphere, sphere, T(0), origin, Vec3<T>(-4, 3, 0) * step,
                                        kBounds);
        test::expectTinyFarSolidCrossed(kIntersectSphere, sphere, T(0), origin, Vec3<T>(0, 0, 4) * step,
                                        kBounds);
    }
    // Passing at 15 * step > radius: a miss, however the far distance rounds.
    const RayPath<T> ray{{0, 0, 0}, {3, 4, 0}, kInfinity<T>};
    const T along = sizeof(T) == 8 ? T(262144) : T(2048), radius = sizeof(T) == 8 ? T(1e-4) : T(1e-2);
    EXPECT_FALSE(
        intersectRaySphere(ray, Sphere<T>{along * ray.direction + Vec3<T>(-12, 9, 0) * step, radius}));
}

// The sphere's radius below the rounding of its distance: the normal still has unit length, facing the ray.
TYPED_TEST(RaySphereTest, SphereBelowResolutionKeepsUnitNormals) {
    using T = TypeParam;
    const T radius = std::numeric_limits<T>::epsilon() / 64;
    const auto hit =
        intersectRaySphere(RayPath<T>{{0, 0, 0}, {1, 0, 0}, kInfinity<T>}, Sphere<T>{{1, 0, 0}, radius});
    ASSERT_TRUE(hit);
    EXPECT_TRUE(test::isSane(*hit, kBounds.unitLength));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
}

TYPED_TEST(RaySphereTest, ExtremeMagnitudesNeverGiveNaN) {
    using T = TypeParam;
    test::expectSaneForExtremeInputs<T>(
        kIntersectSphere,
        [](const auto& vector, const auto& radius) {
            return Sphere<T>{vector(), radius()};
        },
        kBounds.unitLength);
}

TYPED_TEST(RaySphereTest, CircleInThePlane) {
    using T = TypeParam;
    const Circle<T> circle{{1, 1}, 2};
    const auto hit = intersectRaySphere(RayPath2<T>{{-4, 1}, {0.5, 0}, kInfinity<T>}, circle);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(6));
    EXPECT_EQ(hit->exit.t, T(14));
    EXPECT_EQ(hit->entry.normal, Vec2<T>(-1, 0));
    const auto tangent = intersectRaySphere(RayPath2<T>{{-4, 3}, {1, 0}, kInfinity<T>}, circle);
    ASSERT_TRUE(tangent);
    EXPECT_EQ(tangent->entry.t, tangent->exit.t);
    EXPECT_FALSE(intersectRaySphere(RayPath2<T>{{-4, T(3.001)}, {1, 0}, kInfinity<T>}, circle));
    const auto inside = intersectRaySphere(RayPath2<T>{{1, 1}, {0, -1}, T(1)}, circle);
    ASSERT_TRUE(inside);
    EXPECT_TRUE(inside->originInside);
    EXPECT_EQ(inside->exit.point, Vec2<T>(1, -1));
    EXPECT_FALSE(intersectRaySphere(
        RayPath2<T>{{-4, 1}, {std::numeric_limits<T>::quiet_NaN(), 0}, kInfinity<T>}, circle));
}

// ---- The crossings of a segment -----------------------------------------------------------------------

TYPED_TEST(RaySphereTest, SegmentCrossings) {
    using T = TypeParam;
    const Sphere<T> sphere{{0, 0, 0}, 1};
    const auto crossings = [&](const Vec3<T>& from, const Vec3<T>& to) {
        const RayPath<T> segment = segmentRay(from, to);
        return surfaceCrossings(intersectRaySphere(segment, sphere), segment);
    };
    const auto through = crossings({-2, 0, 0}, {2, 0, 0});
    ASSERT_EQ(through.count, 2);
    EXPECT_EQ(through.hits[0].t, T(0.25));
    EXPECT_TRUE(through.entering[0]);
    EXPECT_EQ(through.hits[1].t, T(0.75));
    EXPECT_FALSE(through.entering[1]);
    EXPECT_EQ(through.hits[1].normal, Vec3<T>(1, 0, 0));
    const auto intoIt = crossings({-2, 0, 0}, {0, 0, 0});
    ASSERT_EQ(intoIt.count, 1);
    EXPECT_TRUE(intoIt.entering[0]);
    EXPECT_EQ(intoIt.hits[0].point, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(crossings({-4, 0, 0}, {-2, 0, 0}).count, 0);
    EXPECT_EQ(crossings({-0.5, 0, 0}, {0.5, 0, 0}).count, 0);
    const auto touching = crossings({-2, 1, 0}, {2, 1, 0});
    ASSERT_EQ(touching.count, 2);
    EXPECT_EQ(touching.hits[0].point, touching.hits[1].point);
    EXPECT_TRUE(touching.entering[0]);
    EXPECT_FALSE(touching.entering[1]);
}

// ---- Regressions: the defects of the sample code --------------------------------------------------------

// 000, geometric form: `if (projoc < 0) return false` rejects every ray whose origin is inside the sphere
// but past its centre.
TYPED_TEST(RaySphereTest, RegressionOriginInsideWithCentreBehind) {
    using T = TypeParam;
    const auto hit =
        intersectRaySphere(RayPath<T>{{0.5, 0, 0}, {1, 0, 0}, kInfinity<T>}, Sphere<T>{{0, 0, 0}, 1});
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-1.5));
    EXPECT_EQ(hit->exit.t, T(0.5));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
}

// 000, geometric form: `if (discriminant < FLOAT_EPSILON) t0 = t1 = projoc` treats every sphere with
// r^2 < 1.2e-7 as touched at its centre's projection; here a 1e-4 sphere crossed through its middle.
TYPED_TEST(RaySphereTest, RegressionNoAbsoluteEpsilonOnTheDiscriminant) {
    using T = TypeParam;
    const T radius = T(1e-4);
    const RayPath<T> ray{{0, 0, 0}, {0, 1, 0}, kInfinity<T>};
    const auto hit = intersectRaySphere(ray, Sphere<T>{{0, 1, 0}, radius});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->entry.t, 1 - radius, 4 * std::numeric_limits<T>::epsilon());
    EXPECT_NEAR(hit->exit.t, 1 + radius, 4 * std::numeric_limits<T>::epsilon());
    // Missing the same tiny sphere by 1% of its radius is a miss, however small r^2 - d^2 is.
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{radius * T(1.01), 0, 0}, {0, 1, 0}, kInfinity<T>},
                                    Sphere<T>{{0, 1, 0}, radius}));
}

// 000, algebraic form: assumes |D| = 1 (a = 1). With |d| = 2 the roots of t^2 + 2 (OC.D) t + c are wrong;
// t must come out in multiples of the direction.
TYPED_TEST(RaySphereTest, RegressionAlgebraicFormWithNonUnitDirection) {
    using T = TypeParam;
    const auto hit =
        intersectRaySphere(RayPath<T>{{0, 0, -10}, {0, 0, 2}, kInfinity<T>}, Sphere<T>{{0, 0, 0}, 1});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(4.5));
    EXPECT_EQ(hit->exit.t, T(5.5));
    EXPECT_EQ(hit->entry.point, Vec3<T>(0, 0, -1));
}

// 000, chai3d: only an exact `a == 0` catches a degenerate segment; a segment whose squared length is
// subnormal gets divided by it. Here: exactly zero and subnormal squared lengths are "no segment" (no
// crossing, no hit, no NaN), while the shortest segments with a normal squared length still cross exactly.
TYPED_TEST(RaySphereTest, RegressionZeroLengthSegment) {
    using T = TypeParam;
    const Sphere<T> sphere{{0, 0, 0}, 1};
    const T subnormalSquare = std::sqrt(std::numeric_limits<T>::min()) / 4;  // its square is subnormal, not 0
    for (const Vec3<T>& to : {Vec3<T>(0, 0, 0), Vec3<T>(subnormalSquare, 0, 0)}) {
        const RayPath<T> segment = segmentRay(Vec3<T>(0, 0, 0), to);
        EXPECT_FALSE(intersectRaySphere(segment, sphere));
        EXPECT_EQ(surfaceCrossings(intersectRaySphere(segment, sphere), segment).count, 0);
    }
    // A segment 2^-20 of the radius long, half outside: one entering crossing at its middle.
    const T half = std::ldexp(T(1), -21);
    const RayPath<T> shortSegment = segmentRay(Vec3<T>(-1 - half, 0, 0), Vec3<T>(-1 + half, 0, 0));
    const auto crossings = surfaceCrossings(intersectRaySphere(shortSegment, sphere), shortSegment);
    ASSERT_EQ(crossings.count, 1);
    EXPECT_TRUE(crossings.entering[0]);
    EXPECT_NEAR(crossings.hits[0].t, T(0.5), 4 * std::numeric_limits<T>::epsilon());
}

// 000, chai3d: when one root lies on the segment and the segment starts inside, the exit is dropped. Our
// stated policy (first_hit.hpp): the exit is a crossing, reported and flagged leaving.
TYPED_TEST(RaySphereTest, RegressionSegmentStartingInsideReportsItsExit) {
    using T = TypeParam;
    const RayPath<T> segment = segmentRay(Vec3<T>(0, 0, 0), Vec3<T>(0, 4, 0));
    const auto crossings = surfaceCrossings(intersectRaySphere(segment, Sphere<T>{{0, 0, 0}, 2}), segment);
    ASSERT_EQ(crossings.count, 1);
    EXPECT_FALSE(crossings.entering[0]);
    EXPECT_EQ(crossings.hits[0].t, T(0.5));
    EXPECT_EQ(crossings.hits[0].point, Vec3<T>(0, 2, 0));
    EXPECT_EQ(crossings.hits[0].normal, Vec3<T>(0, 1, 0));
}

// 004: "ray too short" compares the centre distance with the sum of the radii, using the first object's
// radius as the ray's length. The ray's reach is maxT * |direction|, whatever the radii.
TYPED_TEST(RaySphereTest, RegressionRayLengthIsNotTheRadius) {
    using T = TypeParam;
    // Long ray, small sphere far along it: 004 calls the ray too short (6^2 > (1 + 1)^2).
    EXPECT_TRUE(intersectRaySphere(RayPath<T>{{0, 0, 0}, {1, 0, 0}, T(10)}, Sphere<T>{{6, 0, 0}, 1}));
    // Short ray, big sphere: entry 5 away but the ray reaches 2; 004 calls it long enough (12 < 7 + 10).
    EXPECT_FALSE(intersectRaySphere(RayPath<T>{{0, 0, 0}, {1, 0, 0}, T(2)}, Sphere<T>{{12, 0, 0}, 7}));
    EXPECT_TRUE(intersectRaySphere(RayPath<T>{{0, 0, 0}, {1, 0, 0}, T(5)}, Sphere<T>{{12, 0, 0}, 7}));
}

}  // namespace
}  // namespace analytic
