// SPDX-License-Identifier: Zlib
// Ray against capsule, against the long double reference (end spheres and side cylinder in an axis frame)
// on random cases, plus the named edge cases.
#include "analytic/geometry/ray_capsule.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "reference/ray_round_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Real;

// Stated bounds (test::kRoundSolidBounds), in units of u, the scalar's unit roundoff, times the case's scale
// (|origin| + |a| + |b| + radius): hit/miss compared outside a band of 16 u * scale about the surface;
// |t - t_ref| |d| and |point - point_ref| <= 8 u * scale / cosIncidence; normal angle <= 8 u * (1 + scale /
// (radius * cosIncidence)); | |normal| - 1 | <= 4 u; at most 8% of the random cases in the band.
constexpr test::RoundSolidBounds kBounds = test::kRoundSolidBounds;
constexpr int kRandomCases = 120000;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <class T> class RayCapsuleTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayCapsuleTest, test::Scalars);

const auto kIntersectCapsule = [](const auto& ray, const auto& capsule) {
    return intersectRayCapsule(ray, capsule);
};

// Capsules of any size and position, from spheres (a == b, 5%) to 100 radii long; rays that hit, graze
// (on the side, on an end, or running along the side parallel to the axis), start inside, or pass nearby.
TYPED_TEST(RayCapsuleTest, RandomCapsulesAgreeWithReference) {
    using T = TypeParam;
    test::Random random(11);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases; ++i) {
        const auto placement = test::randomPlacement<3>(random);
        const double radius = placement.size;
        const Vec3<double> axisDirection = random.unitVector<double>();
        const double length = random.chance(0.05) ? 0 : radius * random.logUniform(1e-3, 1e2);
        const Vec3<double> a = placement.position, b = a + axisDirection * length;
        const auto inside = [&] {
            return a + (b - a) * random.uniform(0, 1) + test::randomInBall<3>(random) * radius;
        };
        const auto onSurface = [&] {
            const double along = random.uniform(-0.5, 1.5);
            if (along < 0 || along > 1 || length == 0) {  // on an end sphere, on the outer half
                const Vec3<double> outward = along < 0.5 ? -axisDirection : axisDirection;
                Vec3<double> normal = random.unitVector<double>();
                if (glm::dot(normal, outward) < 0) normal -= 2 * glm::dot(normal, outward) * outward;
                return test::SurfaceSample<3>{(along < 0.5 ? a : b) + normal * radius, normal,
                                              test::randomTangent<3>(random, normal)};
            }
            const Vec3<double> normal = test::randomTangent<3>(random, axisDirection);
            const Vec3<double> heading =
                random.chance(0.3) ? axisDirection : test::randomTangent<3>(random, normal);
            return test::SurfaceSample<3>{a + (b - a) * along + normal * radius, normal, heading};
        };
        const RayPath<T> ray = test::randomRayNear<T, 3>(random, i, (a + b) * 0.5, radius + length / 2,
                                                         placement.size, inside, onSurface);
        const Capsule<T> capsule{Vec3<T>(a), Vec3<T>(b), T(radius)};
        test::checkAxisSolidCase(
            checker, ray, intersectRayCapsule(ray, capsule), capsule, "capsule",
            [](const auto& origin, const auto& direction, const auto& a, const auto& b, Real radius,
               Real grow) { return test::referenceLineCapsule(origin, direction, a, b, radius + grow); });
    }
    checker.finish("random capsules");
}

// Capsule from (0, 0, 0) to (0, 0, 4) with radius 1 for the exact cases below.
template <class T> Capsule<T> upright() { return {{0, 0, 0}, {0, 0, 4}, 1}; }

TYPED_TEST(RayCapsuleTest, UprightSideCases) {
    test::expectUprightSideCases<TypeParam>(upright<TypeParam>(), kIntersectCapsule);
}

TYPED_TEST(RayCapsuleTest, RayAlongTheAxis) {
    using T = TypeParam;
    const auto hit = intersectRayCapsule(RayPath<T>{{0, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(2));
    EXPECT_EQ(hit->exit.t, T(8));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(0, 0, -1));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 0, 1));
    const auto down = intersectRayCapsule(RayPath<T>{{0, 0, 9}, {0, 0, -2}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(down);
    EXPECT_EQ(down->entry.t, T(2));
    EXPECT_EQ(down->exit.t, T(5));
    EXPECT_EQ(down->entry.normal, Vec3<T>(0, 0, 1));
}

// A ray along the side's surface line touches the capsule from the top of one end sphere's equator to the
// other: a hit whose entry and exit are those tangent points, normals radial.
TYPED_TEST(RayCapsuleTest, RayAlongTheSideSurface) {
    using T = TypeParam;
    const auto hit = intersectRayCapsule(RayPath<T>{{1, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(3));
    EXPECT_EQ(hit->exit.t, T(7));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    const T outside = std::nextafter(T(1), T(2));
    EXPECT_FALSE(intersectRayCapsule(RayPath<T>{{outside, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>()));
}

TYPED_TEST(RayCapsuleTest, TangentToAnEndSphere) {
    using T = TypeParam;
    const auto hit = intersectRayCapsule(RayPath<T>{{-3, 0, 5}, {1, 0, 0}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(3));
    EXPECT_EQ(hit->exit.t, T(3));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(0, 0, 1));
    EXPECT_FALSE(intersectRayCapsule(RayPath<T>{{-3, 0, std::nextafter(T(5), T(6))}, {1, 0, 0}, kInfinity<T>},
                                     upright<T>()));
}

// Through an end sphere and out of the side: entry t = 1 at the bottom pole's neighbourhood, checked
// against the sphere alone, exit on the side.
TYPED_TEST(RayCapsuleTest, EnterThroughAnEndLeaveThroughTheSide) {
    using T = TypeParam;
    const RayPath<T> ray{{0, 0, -2}, {0.25, 0, 1}, kInfinity<T>};
    const auto hit = intersectRayCapsule(ray, upright<T>());
    const auto endSphere = intersectRaySphere(ray, Sphere<T>{{0, 0, 0}, 1});
    ASSERT_TRUE(hit);
    ASSERT_TRUE(endSphere);
    EXPECT_EQ(hit->entry.t, endSphere->entry.t);
    EXPECT_EQ(hit->entry.normal, endSphere->entry.normal);
    EXPECT_EQ(hit->exit.t, T(4));  // x = 1 at z = 2
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
}

// The capsule analogue of the sample ray–sphere code's `projoc < 0` defect: origin inside, the axis start
// behind it.
TYPED_TEST(RayCapsuleTest, RegressionOriginInsideWithAxisBehind) {
    using T = TypeParam;
    const auto hit = intersectRayCapsule(RayPath<T>{{0, 0, 3.5}, {0, 0, 1}, T(0.25)}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-4.5));
    EXPECT_EQ(hit->exit.t, T(1.5));
}

// Beyond the ends: behind the ray along the axis, and across the axis' line below the bottom sphere.
TYPED_TEST(RayCapsuleTest, MissesBeyondTheEnds) {
    using T = TypeParam;
    EXPECT_FALSE(intersectRayCapsule(RayPath<T>{{0, 0, 6}, {0, 0, 1}, kInfinity<T>}, upright<T>()));
    EXPECT_FALSE(intersectRayCapsule(RayPath<T>{{-3, 0, -3}, {1, 0, 0}, kInfinity<T>}, upright<T>()));
}

// a == b is the sphere about a: the same answers as intersectRaySphere, bit for bit.
TYPED_TEST(RayCapsuleTest, PointAxisIsASphere) {
    using T = TypeParam;
    test::Random random(12);
    for (int i = 0; i < 1000; ++i) {
        const Vec3<T> center = random.point<T>(2);
        const RayPath<T> ray{random.point<T>(4), random.point<T>(1), i % 2 ? kInfinity<T> : T(3)};
        const auto capsule = intersectRayCapsule(ray, Capsule<T>{center, center, T(1)});
        const auto sphere = intersectRaySphere(ray, Sphere<T>{center, T(1)});
        ASSERT_EQ(capsule.has_value(), sphere.has_value());
        if (!capsule) continue;
        EXPECT_EQ(capsule->entry.t, sphere->entry.t);
        EXPECT_EQ(capsule->exit.t, sphere->exit.t);
        EXPECT_EQ(capsule->entry.normal, sphere->entry.normal);
        EXPECT_EQ(capsule->originInside, sphere->originInside);
    }
}

// An axis far shorter than the scalar resolves at the radius' scale (epsilon / 1024 of it), yet with a
// usable square: still a capsule, and indistinguishable from the sphere about a at the scalar's precision.
TYPED_TEST(RayCapsuleTest, VeryShortAxis) {
    using T = TypeParam;
    const T eps = std::numeric_limits<T>::epsilon();
    const RayPath<T> ray{{-3, 0.25, 0.5}, {1, 0, 0}, kInfinity<T>};
    const auto hit = intersectRayCapsule(ray, Capsule<T>{{0, 0, 0}, {0, 0, eps / 1024}, 1});
    const auto sphere = intersectRaySphere(ray, Sphere<T>{{0, 0, 0}, 1});
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->entry.t, sphere->entry.t, 4 * eps * 3);
    EXPECT_NEAR(hit->exit.t, sphere->exit.t, 4 * eps * 3);
    EXPECT_LE(test::angleBetween(test::widen(hit->entry.normal), test::widen(sphere->entry.normal)), 4 * eps);
}

// Nearly parallel to the axis, inside: the side crossings lie 2 / sqrt(FLT_MIN or DBL_MIN) radii away,
// beyond the scalar's range for their squares. The line runs inside as if parallel.
TYPED_TEST(RayCapsuleTest, NearlyParallelCrossingsBeyondRange) {
    using T = TypeParam;
    const T across = 2 * std::sqrt(std::numeric_limits<T>::min());
    const auto hit = intersectRayCapsule(RayPath<T>{{0, 0, -12}, {across, 0, 1}, kInfinity<T>},
                                         Capsule<T>{{0, 0, 0}, {0, 0, 16}, 8});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(4));
    EXPECT_EQ(hit->exit.t, T(36));
    EXPECT_EQ(hit->entry.normal.z, T(-1));
}

TYPED_TEST(RayCapsuleTest, DegenerateInputIsNoHit) {
    using T = TypeParam;
    test::expectDegenerateInputGivesNoHit(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, kInfinity<T>}, upright<T>(),
                                          kIntersectCapsule);
    EXPECT_FALSE(intersectRayCapsule(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, kInfinity<T>},
                                     Capsule<T>{{0, 0, 2}, {0, 0, 2}, 0}));
}

TYPED_TEST(RayCapsuleTest, ThinAndFarAway) {
    test::expectTinyFarAxisSolidCrossed<Capsule<TypeParam>>(kIntersectCapsule, kBounds);
}

TYPED_TEST(RayCapsuleTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, 0.5, 2}, {1, 0, 0.125}, T(10)}, upright<T>(),
                                         kIntersectCapsule);
}

TYPED_TEST(RayCapsuleTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, -0.125, 0.75}, T(4)},
                                Capsule<T>{{0.5, -0.25, 0.125}, {1.5, 0.25, 3}, 0.75}, kIntersectCapsule);
}

TYPED_TEST(RayCapsuleTest, ExtremeMagnitudesNeverGiveNaN) {
    test::expectSaneForExtremeAxisSolids<Capsule<TypeParam>>(kIntersectCapsule, kBounds.unitLength);
}

}  // namespace
}  // namespace analytic
