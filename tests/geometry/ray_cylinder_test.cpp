// SPDX-License-Identifier: Zlib
// Ray against solid cylinder with flat caps, against the long double reference (circle quadratic and slab
// in an axis frame) on random cases, plus the named edge cases.
#include "analytic/geometry/ray_cylinder.hpp"

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
// (radius * cosIncidence)); | |normal| - 1 | <= 4 u; at most 12% of the random cases in the band.
// The rim's grazing rays are tangent to side and cap at once, so more cases fall in the band. At the rim
// t is held to the sum of both surfaces' conditions and the normal (either surface's) is not compared.
constexpr test::RoundSolidBounds kBounds = [] {
    test::RoundSolidBounds bounds = test::kRoundSolidBounds;
    bounds.maxSkippedFraction = 0.12;
    return bounds;
}();
constexpr int kRandomCases = 120000;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <class T> class RayCylinderTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayCylinderTest, test::Scalars);

const auto kIntersectCylinder = [](const auto& ray, const auto& cylinder) {
    return intersectRayCylinder(ray, cylinder);
};

// Cylinders of any size and position, from discs (1e-3 radii thick) to 100 radii long; rays that hit,
// graze (the side, along it parallel to the axis, a cap face, or the rim), start inside, or pass nearby.
TYPED_TEST(RayCylinderTest, RandomCylindersAgreeWithReference) {
    using T = TypeParam;
    test::Random random(21);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases; ++i) {
        const auto placement = test::randomPlacement<3>(random);
        const double radius = placement.size;
        const Vec3<double> axisDirection = random.unitVector<double>();
        const double length = radius * random.logUniform(1e-3, 1e2);
        const Vec3<double> a = placement.position, b = a + axisDirection * length;
        const auto inDisc = [&] {
            const Vec3<double> v = test::randomTangent<3>(random, axisDirection);
            return v * (radius * std::sqrt(random.uniform(0, 1)));
        };
        const auto inside = [&] { return a + (b - a) * random.uniform(0, 1) + inDisc(); };
        const auto onSurface = [&] {
            const Vec3<double> radial = test::randomTangent<3>(random, axisDirection);
            const double along = random.uniform(0, 1);
            switch (int(random.uniform(0, 4))) {
                case 0:  // the side, across
                    return test::SurfaceSample<3>{a + (b - a) * along + radial * radius, radial,
                                                  test::randomTangent<3>(random, radial)};
                case 1:  // the side, along a surface line
                    return test::SurfaceSample<3>{a + (b - a) * along + radial * radius, radial,
                                                  axisDirection};
                case 2: {  // a cap face, parallel to it
                    const bool atB = random.chance(0.5);
                    return test::SurfaceSample<3>{(atB ? b : a) + inDisc(),
                                                  atB ? axisDirection : -axisDirection,
                                                  test::randomTangent<3>(random, axisDirection)};
                }
                default: {  // the rim, tangent to the circle, off it along the side's or the cap's normal
                    const bool atB = random.chance(0.5);
                    const bool offSide = random.chance(0.5);
                    return test::SurfaceSample<3>{(atB ? b : a) + radial * radius,
                                                  offSide ? radial : (atB ? axisDirection : -axisDirection),
                                                  glm::cross(axisDirection, radial)};
                }
            }
        };
        const RayPath<T> ray = test::randomRayNear<T, 3>(random, i, (a + b) * 0.5, radius + length / 2,
                                                         placement.size, inside, onSurface);
        const Cylinder<T> cylinder{Vec3<T>(a), Vec3<T>(b), T(radius)};
        test::checkAxisSolidCase(
            checker, ray, intersectRayCylinder(ray, cylinder), cylinder, "cylinder",
            [](const auto& origin, const auto& direction, const auto& a, const auto& b, Real radius,
               Real grow) { return test::referenceLineCylinder(origin, direction, a, b, radius, grow); });
    }
    checker.finish("random cylinders");
}

// Cylinder from (0, 0, 0) to (0, 0, 4) with radius 1 for the exact cases below.
template <class T> Cylinder<T> upright() { return {{0, 0, 0}, {0, 0, 4}, 1}; }

TYPED_TEST(RayCylinderTest, UprightSideCases) {
    test::expectUprightSideCases<TypeParam>(upright<TypeParam>(), kIntersectCylinder);
}

TYPED_TEST(RayCylinderTest, RayAlongTheAxis) {
    using T = TypeParam;
    const auto up = intersectRayCylinder(RayPath<T>{{0, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(up);
    EXPECT_EQ(up->entry.t, T(3));
    EXPECT_EQ(up->exit.t, T(7));
    EXPECT_EQ(up->entry.normal, Vec3<T>(0, 0, -1));
    EXPECT_EQ(up->exit.normal, Vec3<T>(0, 0, 1));
    const auto down = intersectRayCylinder(RayPath<T>{{0.5, 0, 9}, {0, 0, -2}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(down);
    EXPECT_EQ(down->entry.t, T(2.5));
    EXPECT_EQ(down->exit.t, T(4.5));
    EXPECT_EQ(down->entry.normal, Vec3<T>(0, 0, 1));
    EXPECT_EQ(down->exit.normal, Vec3<T>(0, 0, -1));
}

TYPED_TEST(RayCylinderTest, ObliqueThroughBothCaps) {
    using T = TypeParam;
    const auto hit =
        intersectRayCylinder(RayPath<T>{{0.25, 0, -2}, {0.0625, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(2));
    EXPECT_EQ(hit->exit.t, T(6));
    EXPECT_EQ(hit->entry.point, Vec3<T>(0.375, 0, 0));
    EXPECT_EQ(hit->exit.point, Vec3<T>(0.625, 0, 4));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(0, 0, -1));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 0, 1));
}

// A ray along the side's surface line touches the whole side: entry and exit at the rim, cap normals.
TYPED_TEST(RayCylinderTest, RayAlongTheSideSurface) {
    using T = TypeParam;
    const auto hit = intersectRayCylinder(RayPath<T>{{1, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(3));
    EXPECT_EQ(hit->exit.t, T(7));
    EXPECT_EQ(hit->entry.point, Vec3<T>(1, 0, 0));
    const T outside = std::nextafter(T(1), T(2));
    EXPECT_FALSE(intersectRayCylinder(RayPath<T>{{outside, 0, -3}, {0, 0, 1}, kInfinity<T>}, upright<T>()));
}

// Parallel to the caps: outside the slab a miss however close (the sample 2D slab code skips such
// an axis and reports a hit); in a cap's plane a touching hit.
TYPED_TEST(RayCylinderTest, RayParallelToTheCaps) {
    using T = TypeParam;
    EXPECT_FALSE(intersectRayCylinder(
        RayPath<T>{{-3, 0, std::nextafter(T(4), T(5))}, {1, 0, 0}, kInfinity<T>}, upright<T>()));
    EXPECT_FALSE(intersectRayCylinder(
        RayPath<T>{{-3, 0, std::nextafter(T(0), T(-1))}, {1, 0, 0}, kInfinity<T>}, upright<T>()));
    for (const T z : {T(0), T(4)}) {
        const auto onCap =
            intersectRayCylinder(RayPath<T>{{-3, 0, z}, {1, 0, 0}, kInfinity<T>}, upright<T>());
        ASSERT_TRUE(onCap);
        EXPECT_EQ(onCap->entry.t, T(2));
        EXPECT_EQ(onCap->exit.t, T(4));
    }
}

// Through the rim at (-1, 0, 0): t is exact; the normal is the side's or the cap's.
TYPED_TEST(RayCylinderTest, RayThroughTheRim) {
    using T = TypeParam;
    const auto hit = intersectRayCylinder(RayPath<T>{{-2, 0, -1}, {1, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(1));
    EXPECT_TRUE(hit->entry.normal == Vec3<T>(-1, 0, 0) || hit->entry.normal == Vec3<T>(0, 0, -1));
    EXPECT_EQ(hit->exit.t, T(3));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
}

TYPED_TEST(RayCylinderTest, OriginInside) {
    using T = TypeParam;
    const auto hit = intersectRayCylinder(RayPath<T>{{0.5, 0, 1}, {0, 0, 1}, T(0.5)}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-1));
    EXPECT_EQ(hit->exit.t, T(3));
    const auto onCap = intersectRayCylinder(RayPath<T>{{0.5, 0, 4}, {0, 0, 1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(onCap);
    EXPECT_TRUE(onCap->originInside);
    EXPECT_EQ(onCap->exit.t, T(0));
}

// Beyond the ends: behind the ray along the axis, and through the infinite cylinder below the bottom cap.
TYPED_TEST(RayCylinderTest, MissesBeyondTheEnds) {
    using T = TypeParam;
    EXPECT_FALSE(intersectRayCylinder(RayPath<T>{{0, 0, 5}, {0, 0, 1}, kInfinity<T>}, upright<T>()));
    EXPECT_FALSE(intersectRayCylinder(RayPath<T>{{-3, 0, -1}, {1, 0, 0.125}, kInfinity<T>}, upright<T>()));
}

// Nearly parallel to the axis, inside: the side crossings lie 2 / sqrt(FLT_MIN or DBL_MIN) radii away,
// beyond the scalar's range for their squares. The line runs inside as if parallel.
TYPED_TEST(RayCylinderTest, NearlyParallelCrossingsBeyondRange) {
    using T = TypeParam;
    const T across = 2 * std::sqrt(std::numeric_limits<T>::min());
    const auto hit = intersectRayCylinder(RayPath<T>{{0, 0, -12}, {across, 0, 1}, kInfinity<T>},
                                          Cylinder<T>{{0, 0, 0}, {0, 0, 16}, 8});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(12));
    EXPECT_EQ(hit->exit.t, T(28));
    EXPECT_EQ(hit->entry.normal.z, T(-1));
}

TYPED_TEST(RayCylinderTest, DegenerateInputIsNoHit) {
    using T = TypeParam;
    test::expectDegenerateInputGivesNoHit(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, kInfinity<T>}, upright<T>(),
                                          kIntersectCylinder);
    // A zero-length axis.
    EXPECT_FALSE(intersectRayCylinder(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, kInfinity<T>},
                                      Cylinder<T>{{0, 0, 2}, {0, 0, 2}, 1}));
}

TYPED_TEST(RayCylinderTest, ThinAndFarAway) {
    test::expectTinyFarAxisSolidCrossed<Cylinder<TypeParam>>(kIntersectCylinder, kBounds);
}

TYPED_TEST(RayCylinderTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, 0.5, 2}, {1, 0, 0.125}, T(10)}, upright<T>(),
                                         kIntersectCylinder);
}

TYPED_TEST(RayCylinderTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, -0.125, 0.75}, T(4)},
                                Cylinder<T>{{0.5, -0.25, 0.125}, {1.5, 0.25, 3}, 0.75}, kIntersectCylinder);
}

TYPED_TEST(RayCylinderTest, ExtremeMagnitudesNeverGiveNaN) {
    test::expectSaneForExtremeAxisSolids<Cylinder<TypeParam>>(kIntersectCylinder, kBounds.unitLength);
}

}  // namespace
}  // namespace analytic
