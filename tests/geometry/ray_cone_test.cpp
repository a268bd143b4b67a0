// SPDX-License-Identifier: Zlib
// Ray against solid cone with its base disc, against a long double reference (the textbook quadratic of
// the double cone in an axis frame, its roots kept where they lie on the cone's nappe within its height,
// and the base plane inside the disc) on random cases, plus the named edge cases; and the cone rounded by
// a margin (Bullet's btConeShape) against its solids' references combined in long double.
#include "analytic/geometry/ray_cone.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "reference/ray_cone_reference.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {

// The cone with every length times factor, for test::expectScaleInvariance (found by argument lookup).
template <class T> Cone<T> scaled(const Cone<T>& cone, T factor) {
    return {cone.apex * factor, cone.base * factor, cone.radius * factor};
}
template <class T> RoundedCone<T> scaled(const RoundedCone<T>& rounded, T factor) {
    return {scaled(rounded.cone, factor), rounded.margin * factor};
}

namespace {

using test::Real;
using test::RealVec3;
using test::ReferenceCone;
using test::referenceLineCone;
using test::referenceLineRoundedCone;

// Stated bounds (test::kRoundSolidBounds), in units of u, the scalar's unit roundoff, times the case's scale
// (|origin| + |apex| + |base| + radius): hit/miss compared outside a band of 16 u * scale about the surface
// (the cone grown or shrunk by moving side and base that far out or in); |t - t_ref| |d| and
// |point - point_ref| <= 8 u * scale / cosIncidence; normal angle <= 8 u * (1 + scale / (rho *
// cosIncidence)), rho the smaller radius across the axis at the reference's side hits (the side's normal
// turns as fast as that radius is small) or the cone's radius; | |normal| - 1 | <= 4 u; at most 12% of the
// random cases in the band. At the rim t is held to the sum of both surfaces' conditions and the normal is
// not compared, as for the cylinder.
constexpr test::RoundSolidBounds kBounds = [] {
    test::RoundSolidBounds bounds = test::kRoundSolidBounds;
    bounds.maxSkippedFraction = 0.12;
    return bounds;
}();
constexpr int kRandomCases = 120000;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

// The named cases below are of scale about 8 (the upright cone and rays near it). Their answers go through
// square roots, so t is held to 8 u (kRoundSolidBounds' t bound at condition 1), and a ray meant to miss
// just outside a surface lies beyond the tangency band of 16 u * scale: 256 u away.
template <class T> constexpr T kNamedTolerance = 8 * unitRoundoff<T>;
template <class T> constexpr T kBeyondBand = 256 * unitRoundoff<T>;

// The smallest radius across the axis at the exact crossing's side hits (rho of the bounds).
Real sideRadiusAt(const RealVec3& origin, const RealVec3& direction, const ReferenceCone& cone,
                  const std::optional<test::ReferenceCrossing<3>>& exact) {
    Real rho = cone.radius;
    if (!exact) return rho;
    const RealVec3 along = glm::normalize(cone.base - cone.apex);
    const Real slope = cone.radius / glm::length(cone.base - cone.apex);
    for (const auto* hit : {&exact->entry, &exact->exit}) {
        if (glm::dot(hit->normal, along) > 0.999L) continue;  // the base
        const Real z = glm::dot(origin + hit->t * direction - cone.apex, along);
        rho = std::min(rho, std::max(slope * z, Real(0)));
    }
    return std::max(rho, cone.radius * 1e-30L);
}

// A random cone of any size, position and proportion, from flat (height 1e-2 radii) to needles (100 radii).
struct RandomCone {
    test::Placement<3> placement;
    double radius;
    Vec3<double> axisDirection;  // apex to base
    double height;
    Vec3<double> apex, base;
    double slope, slant;

    explicit RandomCone(test::Random& random)
        : placement(test::randomPlacement<3>(random)),
          radius(placement.size),
          axisDirection(random.unitVector<double>()),
          height(radius * random.logUniform(1e-2, 1e2)),
          apex(placement.position),
          base(apex + axisDirection * height),
          slope(radius / height),
          slant(std::sqrt(1 + slope * slope)) {}

    // A point inside, uniform in the solid.
    Vec3<double> inside(test::Random& random) const {
        const double z = height * std::cbrt(random.uniform(0, 1));
        return apex + axisDirection * z +
               test::randomTangent<3>(random, axisDirection) * (slope * z * std::sqrt(random.uniform(0, 1)));
    }
};

template <class T> class RayConeTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayConeTest, test::Scalars);

const auto kIntersectCone = [](const auto& ray, const auto& cone) { return intersectRayCone(ray, cone); };

// Cones of any size and position, from flat (height 1e-2 radii) to needles (100 radii); rays that hit,
// graze (the side across or along a surface line, the base face, the rim, the apex), start inside, or pass
// nearby.
TYPED_TEST(RayConeTest, RandomConesAgreeWithReference) {
    using T = TypeParam;
    test::Random random(23);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases; ++i) {
        const RandomCone drawn(random);
        const auto& [placement, radius, axisDirection, height, apex, base, slope, slant] = drawn;
        const auto inside = [&] { return drawn.inside(random); };
        const auto onSurface = [&] {
            const Vec3<double> radial = test::randomTangent<3>(random, axisDirection);
            const Vec3<double> sideNormal = (radial - axisDirection * slope) / slant;
            const Vec3<double> generator = glm::normalize(axisDirection + radial * slope);
            const double z = height * random.uniform(0, 1);
            const Vec3<double> onSide = apex + axisDirection * z + radial * (slope * z);
            switch (int(random.uniform(0, 5))) {
                case 0:  // the side, across
                    return test::SurfaceSample<3>{onSide, sideNormal,
                                                  test::randomTangent<3>(random, sideNormal)};
                case 1:  // the side, along a surface line
                    return test::SurfaceSample<3>{onSide, sideNormal, generator};
                case 2:  // the base face, parallel to it
                    return test::SurfaceSample<3>{base + test::randomTangent<3>(random, axisDirection) *
                                                             (radius * std::sqrt(random.uniform(0, 1))),
                                                  axisDirection,
                                                  test::randomTangent<3>(random, axisDirection)};
                case 3: {  // the rim, tangent to the circle, off it along the side's or the base's normal
                    const bool offSide = random.chance(0.5);
                    return test::SurfaceSample<3>{base + radial * radius,
                                                  offSide ? sideNormal : axisDirection,
                                                  glm::cross(axisDirection, radial)};
                }
                default:  // the apex, from any direction, off it along the axis
                    return test::SurfaceSample<3>{apex, -axisDirection, random.unitVector<double>()};
            }
        };
        const RayPath<T> ray =
            test::randomRayNear<T, 3>(random, i, apex + axisDirection * (height / 2),
                                      std::hypot(radius, height / 2), placement.size, inside, onSurface);
        const Cone<T> cone{Vec3<T>(apex), Vec3<T>(base), T(radius)};
        const ReferenceCone wide{test::widen(cone.apex), test::widen(cone.base), Real(cone.radius)};
        const RealVec3 origin = test::widen(ray.origin), direction = test::widen(ray.direction);
        const Real scale =
            glm::length(wide.apex) + glm::length(wide.base) + glm::length(origin) + wide.radius;
        const Real rho = sideRadiusAt(origin, direction, wide, referenceLineCone(origin, direction, wide, 0));
        checker.check(
            ray, intersectRayCone(ray, cone),
            [&](Real grow) { return referenceLineCone(origin, direction, wide, grow); }, scale, rho,
            [&] {
                return "cone apex " + test::text(wide.apex) + " base " + test::text(wide.base) + " radius " +
                       test::text(wide.radius);
            });
    }
    checker.finish("random cones");
}

// Cone with apex (0, 0, 4), base centre (0, 0, 0), radius 2: the side is x^2 + y^2 = ((4 - z) / 2)^2.
template <class T> Cone<T> upright() { return {{0, 0, 4}, {0, 0, 0}, 2}; }

// Rounded cones (Bullet's btConeShape with its margin) of any proportion, with margins from 1e-3 to 1
// radius: rays aimed inside, grazing the surface (the cone's surface moved out by the margin: the side, the
// base, the rim, the apex's sphere), starting inside, or passing nearby.
TYPED_TEST(RayConeTest, RandomRoundedConesAgreeWithReference) {
    using T = TypeParam;
    test::Random random(29);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases / 4; ++i) {
        const RandomCone drawn(random);
        const auto& [placement, radius, axisDirection, height, apex, base, slope, slant] = drawn;
        const double margin = radius * random.logUniform(1e-3, 1);
        const auto inside = [&] { return drawn.inside(random); };
        const auto onSurface = [&] {
            const Vec3<double> radial = test::randomTangent<3>(random, axisDirection);
            const Vec3<double> sideNormal = (radial - axisDirection * slope) / slant;
            const double z = height * random.uniform(0, 1);
            const auto movedOut = [&](const Vec3<double>& point, const Vec3<double>& normal) {
                return test::SurfaceSample<3>{point + normal * margin, normal,
                                              test::randomTangent<3>(random, normal)};
            };
            switch (int(random.uniform(0, 4))) {
                case 0:
                    return movedOut(apex + axisDirection * z + radial * (slope * z), sideNormal);
                case 1:
                    return movedOut(base + test::randomTangent<3>(random, axisDirection) *
                                               (radius * std::sqrt(random.uniform(0, 1))),
                                    axisDirection);
                case 2:
                    return movedOut(base + radial * radius, random.chance(0.5) ? sideNormal : axisDirection);
                default: {  // the apex's sphere, where no other solid reaches
                    const Vec3<double> away =
                        glm::normalize(-axisDirection + 0.5 * random.unitVector<double>());
                    return movedOut(apex, glm::dot(away, sideNormal) > 0 ? -axisDirection : away);
                }
            }
        };
        const RayPath<T> ray = test::randomRayNear<T, 3>(random, i, apex + axisDirection * (height / 2),
                                                         std::hypot(radius, height / 2) + margin,
                                                         placement.size, inside, onSurface);
        const RoundedCone<T> rounded{{Vec3<T>(apex), Vec3<T>(base), T(radius)}, T(margin)};
        const ReferenceCone wide{test::widen(rounded.cone.apex), test::widen(rounded.cone.base),
                                 Real(rounded.cone.radius)};
        const Real wideMargin = Real(rounded.margin);
        const RealVec3 origin = test::widen(ray.origin), direction = test::widen(ray.direction);
        const Real scale =
            glm::length(wide.apex) + glm::length(wide.base) + glm::length(origin) + wide.radius + wideMargin;
        const Real rho = std::min(
            wideMargin, sideRadiusAt(origin, direction, wide, referenceLineCone(origin, direction, wide, 0)));
        checker.check(
            ray, intersectRayRoundedCone(ray, rounded),
            [&](Real grow) { return referenceLineRoundedCone(origin, direction, wide, wideMargin, grow); },
            scale, rho,
            [&] {
                return "cone apex " + test::text(wide.apex) + " base " + test::text(wide.base) + " radius " +
                       test::text(wide.radius) + " margin " + test::text(wideMargin);
            });
    }
    checker.finish("random rounded cones");
}

// The upright cone with margin 0.5: the apex's sphere, the side and the base each 0.5 out, the rim's
// cylinder of radius 2.5 between z = -0.5 and the apex's sphere.
TYPED_TEST(RayConeTest, RoundedConeSurfaces) {
    using T = TypeParam;
    const RoundedCone<T> rounded{upright<T>(), T(0.5)};
    const T tolerance = 16 * kNamedTolerance<T>;
    // Down the axis: the apex's sphere, at z = 4.5.
    const auto top = intersectRayRoundedCone(RayPath<T>{{0, 0, 10}, {0, 0, -1}, kInfinity<T>}, rounded);
    ASSERT_TRUE(top);
    EXPECT_NEAR(top->entry.t, T(5.5), tolerance);
    EXPECT_NEAR(top->entry.normal.z, T(1), tolerance);
    EXPECT_NEAR(top->exit.t, T(10.5), tolerance);  // out through the base, 0.5 below it
    EXPECT_NEAR(top->exit.normal.z, T(-1), tolerance);
    // Across the side at z = 2 (the cone's radius 1 there): the side moved out by 0.5 along its normal
    // (2, 0, 1) / sqrt(5) meets the x axis at x = 1 + 0.5 sqrt(5) / 2.
    const auto across = intersectRayRoundedCone(RayPath<T>{{5, 0, 2}, {-1, 0, 0}, kInfinity<T>}, rounded);
    ASSERT_TRUE(across);
    EXPECT_NEAR(across->entry.t, T(4 - 0.25 * std::sqrt(5.0)), tolerance);
    EXPECT_NEAR(across->entry.normal.x, T(2 / std::sqrt(5.0)), tolerance);
    // Beside the rim, level with the base: the cylinder of radius 2.5.
    const auto rim = intersectRayRoundedCone(RayPath<T>{{5, 0, -0.25}, {-1, 0, 0}, kInfinity<T>}, rounded);
    ASSERT_TRUE(rim);
    EXPECT_NEAR(rim->entry.t, T(2.5), tolerance);
    EXPECT_NEAR(rim->entry.normal.x, T(1), tolerance);
    // Just outside: beside the apex's sphere (above where the side meets it, z = 4 + 0.5 sin(half angle)),
    // below the base, beyond the rim's cylinder.
    const T beyond = 4 * kBeyondBand<T> * 8;
    EXPECT_FALSE(intersectRayRoundedCone(RayPath<T>{{0.5 + beyond, 0, 10}, {0, 0, -1}, T(5.7)}, rounded));
    EXPECT_FALSE(intersectRayRoundedCone(RayPath<T>{{-5, 0, -0.5 - beyond}, {1, 0, 0}, T(10)}, rounded));
    EXPECT_FALSE(intersectRayRoundedCone(RayPath<T>{{2.5 + beyond, -5, -0.25}, {0, 1, 0}, T(10)}, rounded));
    // Starting inside the apex's sphere above the cone: inside.
    const auto start = intersectRayRoundedCone(RayPath<T>{{0, 0, 4.25}, {1, 0, 0}, T(1)}, rounded);
    ASSERT_TRUE(start);
    EXPECT_TRUE(start->originInside);
}

const auto kIntersectRoundedCone = [](const auto& ray, const auto& rounded) {
    return intersectRayRoundedCone(ray, rounded);
};

TYPED_TEST(RayConeTest, RoundedConeNonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, 0.25, 2}, {1, 0, 0.125}, T(10)},
                                         RoundedCone<T>{upright<T>(), T(0.25)}, kIntersectRoundedCone);
}

TYPED_TEST(RayConeTest, RoundedConeHugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, -0.125, 0.75}, T(4)},
                                RoundedCone<T>{{{0.5, -0.25, 2.125}, {1.5, 0.25, 0}, 1.75}, T(0.125)},
                                kIntersectRoundedCone);
}

TYPED_TEST(RayConeTest, RoundedConeExtremeMagnitudesNeverGiveNaN) {
    using T = TypeParam;
    const auto makeRoundedCone = [](const auto& vector, const auto& radius) {
        const Vec3<T> apex = vector();
        const Cone<T> cone{apex, apex + vector(), radius()};
        return RoundedCone<T>{cone, std::abs(radius())};
    };
    test::expectSaneForExtremeInputs<T>(kIntersectRoundedCone, makeRoundedCone, kBounds.unitLength);
}

TYPED_TEST(RayConeTest, RoundedConeWithoutMarginIsTheCone) {
    using T = TypeParam;
    const RayPath<T> ray{{-3.25, 0.375, 2.5}, {1.5, -0.125, -0.75}, T(4)};
    const auto rounded = intersectRayRoundedCone(ray, RoundedCone<T>{upright<T>(), T(0)});
    const auto plain = intersectRayCone(ray, upright<T>());
    ASSERT_TRUE(rounded && plain);
    EXPECT_EQ(rounded->entry.t, plain->entry.t);
    EXPECT_EQ(rounded->exit.t, plain->exit.t);
    for (const T margin : {T(-1), std::numeric_limits<T>::quiet_NaN(), kInfinity<T>})
        EXPECT_FALSE(intersectRayRoundedCone(ray, RoundedCone<T>{upright<T>(), margin}));
    EXPECT_FALSE(intersectRayRoundedCone(ray, RoundedCone<T>{{{0, 0, 2}, {0, 0, 2}, 1}, T(0.5)}));
}

TYPED_TEST(RayConeTest, AcrossTheSide) {
    using T = TypeParam;
    // At z = 2 the section has radius 1: entry at x = -1, exit at x = 1.
    const auto hit = intersectRayCone(RayPath<T>{{-3, 0, 2}, {0.5, 0, 0}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(4));
    EXPECT_EQ(hit->exit.t, T(8));
    EXPECT_EQ(hit->entry.point, Vec3<T>(-1, 0, 2));
    EXPECT_FALSE(hit->originInside);
    // Side normal (-2, 0, 1) / sqrt(5) on the left, (2, 0, 1) / sqrt(5) on the right.
    const T root5 = std::sqrt(T(5));
    EXPECT_NEAR(hit->entry.normal.x, -2 / root5, 4 * std::numeric_limits<T>::epsilon());
    EXPECT_NEAR(hit->entry.normal.z, 1 / root5, 4 * std::numeric_limits<T>::epsilon());
    EXPECT_EQ(hit->entry.normal.y, T(0));
    EXPECT_NEAR(hit->exit.normal.x, 2 / root5, 4 * std::numeric_limits<T>::epsilon());
    EXPECT_NEAR(hit->exit.normal.z, 1 / root5, 4 * std::numeric_limits<T>::epsilon());
    EXPECT_FALSE(intersectRayCone(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, T(1.999)}, upright<T>()));
    EXPECT_TRUE(intersectRayCone(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, T(2)}, upright<T>()));
}

// Along the axis through the apex and the base, both ways: the apex's normal is the axis away from the base.
TYPED_TEST(RayConeTest, AlongTheAxisThroughTheApex) {
    using T = TypeParam;
    const auto down = intersectRayCone(RayPath<T>{{0, 0, 7}, {0, 0, -1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(down);
    EXPECT_EQ(down->entry.t, T(3));
    EXPECT_EQ(down->exit.t, T(7));
    EXPECT_EQ(down->entry.normal, Vec3<T>(0, 0, 1));
    EXPECT_EQ(down->exit.normal, Vec3<T>(0, 0, -1));
    const auto up = intersectRayCone(RayPath<T>{{0, 0, -1}, {0, 0, 2}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(up);
    EXPECT_EQ(up->entry.t, T(0.5));
    EXPECT_EQ(up->exit.t, T(2.5));
    EXPECT_EQ(up->entry.normal, Vec3<T>(0, 0, -1));
    EXPECT_EQ(up->exit.normal, Vec3<T>(0, 0, 1));
}

// Through the apex obliquely but within the half angle: enters at the apex, leaves through the base.
TYPED_TEST(RayConeTest, ObliqueThroughTheApex) {
    using T = TypeParam;
    const auto hit = intersectRayCone(RayPath<T>{{-0.25, 0, 5}, {0.25, 0, -1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->entry.t, T(1), kNamedTolerance<T>);
    EXPECT_NEAR(glm::length(hit->entry.point - Vec3<T>(0, 0, 4)), T(0), 4 * kNamedTolerance<T>);
    EXPECT_NEAR(hit->exit.t, T(5), 5 * kNamedTolerance<T>);
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 0, -1));
    // Steeper than the side (outside the half angle) through the apex: it touches the apex only, so
    // whether it is reported is rounding; if it is, entry and exit are the apex.
    if (const auto touch =
            intersectRayCone(RayPath<T>{{-4, 0, 6}, {1, 0, -0.5}, kInfinity<T>}, upright<T>())) {
        EXPECT_NEAR(touch->entry.t, T(4), 4 * kNamedTolerance<T>);
        EXPECT_NEAR(touch->exit.t, T(4), 4 * kNamedTolerance<T>);
    }
    // Steeper and beside the apex: a miss.
    EXPECT_FALSE(
        intersectRayCone(RayPath<T>{{-4, kBeyondBand<T>, 6}, {1, 0, -0.5}, kInfinity<T>}, upright<T>()));
}

// Along a surface line from beyond the apex: inside from the apex to the rim (a tangent line: t within the
// rounding of the tangency); just outside the band, a miss.
TYPED_TEST(RayConeTest, AlongTheSideSurface) {
    using T = TypeParam;
    const auto hit = intersectRayCone(RayPath<T>{{-1, 0, 6}, {0.5, 0, -1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_NEAR(hit->entry.t, T(2), 4 * kNamedTolerance<T>);
    EXPECT_NEAR(hit->exit.t, T(6), 4 * kNamedTolerance<T>);
    const T outside = T(-1) + kBeyondBand<T>;  // the line moved away from the axis, off the surface
    EXPECT_FALSE(intersectRayCone(RayPath<T>{{outside, 0, 6}, {0.5, 0, -1}, kInfinity<T>}, upright<T>()));
}

// Parallel to a surface line but inside it: one side crossing, then the base.
TYPED_TEST(RayConeTest, ParallelToTheSide) {
    using T = TypeParam;
    const auto hit = intersectRayCone(RayPath<T>{{-1, 0, 4}, {0.5, 0, -1}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(hit);
    // It enters where x = -1 + t / 2 meets the side's x = -(4 - z) / 2 = -t / 2: t = 1.
    EXPECT_EQ(hit->entry.t, T(1));
    EXPECT_EQ(hit->entry.point, Vec3<T>(-0.5, 0, 3));
    EXPECT_EQ(hit->exit.t, T(4));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 0, -1));
}

// Parallel to the base: in its plane a touching hit across the disc, just below it a miss.
TYPED_TEST(RayConeTest, ParallelToTheBase) {
    using T = TypeParam;
    const auto onBase = intersectRayCone(RayPath<T>{{-3, 0, 0}, {1, 0, 0}, kInfinity<T>}, upright<T>());
    ASSERT_TRUE(onBase);
    EXPECT_EQ(onBase->entry.t, T(1));
    EXPECT_EQ(onBase->exit.t, T(5));
    // Just below the base: the base plane is resolved as u times the height from the apex.
    EXPECT_FALSE(
        intersectRayCone(RayPath<T>{{-3, 0, -kBeyondBand<T>}, {1, 0, 0}, kInfinity<T>}, upright<T>()));
    // Above the apex: a miss.
    EXPECT_FALSE(intersectRayCone(RayPath<T>{{-3, 0, std::nextafter(T(4), T(5))}, {1, 0, 0}, kInfinity<T>},
                                  upright<T>()));
}

// Through the other nappe of the double cone (above the apex, inside the mirrored cone): a miss.
TYPED_TEST(RayConeTest, MissesTheMirroredNappe) {
    using T = TypeParam;
    EXPECT_FALSE(intersectRayCone(RayPath<T>{{-3, 0, 6}, {1, 0, 0}, kInfinity<T>}, upright<T>()));
    EXPECT_FALSE(intersectRayCone(RayPath<T>{{0.5, 0, 9}, {0, 0, 1}, kInfinity<T>}, upright<T>()));
}

TYPED_TEST(RayConeTest, OriginInside) {
    using T = TypeParam;
    const auto hit = intersectRayCone(RayPath<T>{{0, 0, 1}, {0, 0, 1}, T(0.5)}, upright<T>());
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-1));
    EXPECT_EQ(hit->exit.t, T(3));
}

TYPED_TEST(RayConeTest, DegenerateInputIsNoHit) {
    using T = TypeParam;
    const RayPath<T> ray{{-3, 0, 2}, {1, 0, 0}, kInfinity<T>};
    const Cone<T> cone = upright<T>();
    ASSERT_TRUE(intersectRayCone(ray, cone));
    EXPECT_FALSE(intersectRayCone(RayPath<T>{ray.origin, Vec3<T>(0), ray.maxT}, cone));
    EXPECT_FALSE(intersectRayCone(RayPath<T>{ray.origin, ray.direction, T(-1)}, cone));
    EXPECT_FALSE(intersectRayCone(ray, Cone<T>{cone.apex, cone.base, T(0)}));
    EXPECT_FALSE(intersectRayCone(ray, Cone<T>{cone.apex, cone.base, T(-1)}));
    EXPECT_FALSE(intersectRayCone(ray, Cone<T>{{0, 0, 2}, {0, 0, 2}, 1}));  // no height
}

TYPED_TEST(RayConeTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, 0.25, 2}, {1, 0, 0.125}, T(10)}, upright<T>(),
                                         kIntersectCone);
}

TYPED_TEST(RayConeTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, -0.125, 0.75}, T(4)},
                                Cone<T>{{0.5, -0.25, 2.125}, {1.5, 0.25, 0}, 1.75}, kIntersectCone);
}

TYPED_TEST(RayConeTest, ExtremeMagnitudesNeverGiveNaN) {
    using T = TypeParam;
    const auto makeCone = [](const auto& vector, const auto& radius) {
        const Vec3<T> apex = vector();
        return Cone<T>{apex, apex + vector(), radius()};
    };
    test::expectSaneForExtremeInputs<T>(kIntersectCone, makeCone, kBounds.unitLength);
}

}  // namespace
}  // namespace analytic
