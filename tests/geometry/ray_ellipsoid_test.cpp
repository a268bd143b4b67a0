// SPDX-License-Identifier: Zlib
// Ray against oriented ellipsoid: random rotated ellipsoids (radii up to 1:100 apart) against the long double
// quadric reference, agreement with the sphere's test for round ellipsoids, and the named edge cases.
#include "analytic/geometry/ray_ellipsoid.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "reference/ray_ellipsoid_reference.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Real;
using test::RealVec3;

// Stated bounds (test::kRoundSolidBounds), in units of u, the scalar's unit roundoff, times the case's scale
// (|origin| + |centre| + the largest radius): hit/miss compared outside a band about the surface at least
// 16 u * scale wide along the normal (the reference moves the radii by 16 u * scale * (r_min + r_max) /
// (2 sqrt(r_min r_max)), which moves the surface by between 1 and 5.05 times 16 u * scale for radii 1:100
// apart); |t - t_ref| |d| and |point - point_ref| <= 8 u * scale / cosIncidence; normal angle <= 8 u * (1 +
// scale / (rho * cosIncidence)), rho = r_min^2 / r_max the smallest radius of curvature; | |normal| - 1 | <=
// 4 u; at most 12% of the random cases in the band (the round solids allow 8%; here the band is wider by the
// factor above, and in float an ellipsoid 1e4 sizes from the origin whose smallest radius is size / 100 lies
// within the band, 16 u * 1e4 size = 0.01 size, across its whole thickness).
constexpr test::RoundSolidBounds kBounds = [] {
    test::RoundSolidBounds bounds = test::kRoundSolidBounds;
    bounds.maxSkippedFraction = 0.12;
    return bounds;
}();
constexpr int kRandomCases = 120000;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <class T> class RayEllipsoidTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayEllipsoidTest, test::Scalars);

const auto kIntersectEllipsoid = [](const auto& ray, const auto& ellipsoid) {
    return intersectRayEllipsoid(ray, ellipsoid);
};

// The ellipsoid about (1, 2, 3) whose local x, y, z axes are the world's y, z, x, with radii 4, 2, 1: it
// spans x in [0, 2], y in [-2, 6], z in [1, 5]. Every product in the core is exact for the rays below.
template <class T> Ellipsoid<T> permutedEllipsoid() {
    return {{1, 2, 3}, Mat3<T>(Vec3<T>(0, 1, 0), Vec3<T>(0, 0, 1), Vec3<T>(1, 0, 0)), {4, 2, 1}};
}

template <class T> std::string describe(const Ellipsoid<T>& ellipsoid) {
    return "ellipsoid centre " + test::text(ellipsoid.center) + " axes " + test::text(ellipsoid.rotation[0]) +
           test::text(ellipsoid.rotation[1]) + test::text(ellipsoid.rotation[2]) + " radii " +
           test::text(ellipsoid.radii);
}

// Rays that hit, graze, start inside or go anywhere nearby (see randomRayNear), against ellipsoids of any
// size and orientation, near or far from the world origin, whose radii lie within 1:100 of each other.
TYPED_TEST(RayEllipsoidTest, RandomEllipsoidsAgreeWithReference) {
    using T = TypeParam;
    test::Random random(41);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases; ++i) {
        const auto placement = test::randomPlacement<3>(random);
        const Vec3<double> radii(placement.size * random.logUniform(1e-2, 1),
                                 placement.size * random.logUniform(1e-2, 1),
                                 placement.size * random.logUniform(1e-2, 1));
        const Mat3<double> rotation = random.rotation<double>();
        const Vec3<double> center = placement.position;
        const auto inside = [&] { return center + rotation * (radii * test::randomInBall<3>(random)); };
        const auto onSurface = [&] {
            const Vec3<double> unit = test::randomUnit<3>(random);
            const Vec3<double> normal = glm::normalize(rotation * (unit / radii));
            return test::SurfaceSample<3>{center + rotation * (radii * unit), normal,
                                          test::randomTangent<3>(random, normal)};
        };
        const double extent = std::max({radii.x, radii.y, radii.z});
        const RayPath<T> ray =
            test::randomRayNear<T, 3>(random, i, center, extent, extent, inside, onSurface);
        const Ellipsoid<T> ellipsoid{Vec3<T>(center), Mat3<T>(rotation), Vec3<T>(radii)};
        const RealVec3 realCenter = test::widen(ellipsoid.center), realRadii = test::widen(ellipsoid.radii);
        const Mat3<Real> realRotation = test::widen(ellipsoid.rotation);
        const auto reference = [&](Real grow) {
            return test::referenceLineEllipsoid(test::widen(ray.origin), test::widen(ray.direction),
                                                realCenter, realRotation, realRadii, grow);
        };
        const Real scale = glm::length(test::widen(ray.origin)) + glm::length(realCenter) +
                           std::max({realRadii.x, realRadii.y, realRadii.z});
        checker.check(ray, intersectRayEllipsoid(ray, ellipsoid), reference, scale,
                      test::smallestCurvatureRadius(ellipsoid), [&] { return describe(ellipsoid); });
    }
    checker.finish("random ellipsoids");
}

// Round ellipsoids, rotated anyhow, against the sphere's textbook reference.
TYPED_TEST(RayEllipsoidTest, RandomRoundEllipsoidsAgreeWithSphereReference) {
    using T = TypeParam;
    test::Random random(42);
    test::RoundSolidChecker<T, 3> checker(kBounds);
    for (int i = 0; i < kRandomCases / 4; ++i) {
        const auto placement = test::randomPlacement<3>(random);
        const double radius = placement.size;
        const Vec3<double> center = placement.position;
        const auto inside = [&] { return center + test::randomInBall<3>(random) * radius; };
        const auto onSurface = [&] {
            const Vec3<double> normal = test::randomUnit<3>(random);
            return test::SurfaceSample<3>{center + normal * radius, normal,
                                          test::randomTangent<3>(random, normal)};
        };
        const RayPath<T> ray =
            test::randomRayNear<T, 3>(random, i, center, radius, radius, inside, onSurface);
        const Ellipsoid<T> ellipsoid{Vec3<T>(center), random.rotation<T>(), Vec3<T>(T(radius))};
        const RealVec3 realCenter = test::widen(ellipsoid.center);
        const Real realRadius = Real(ellipsoid.radii.x);
        const auto reference = [&](Real grow) {
            return test::referenceLineSphere<3>(test::widen(ray.origin), test::widen(ray.direction),
                                                realCenter, realRadius + grow);
        };
        const Real scale = glm::length(test::widen(ray.origin)) + glm::length(realCenter) + realRadius;
        checker.check(ray, intersectRayEllipsoid(ray, ellipsoid), reference, scale, realRadius,
                      [&] { return describe(ellipsoid); });
    }
    checker.finish("random round ellipsoids");
}

// With radii a power of two and axes +-the world's, every step of the unit-sphere frame is exact: the
// answer is intersectRaySphere's, bit for bit.
TYPED_TEST(RayEllipsoidTest, RoundEllipsoidIsTheSphereBitForBit) {
    using T = TypeParam;
    test::Random random(43);
    int hits = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto placement = test::randomPlacement<3>(random);
        const T radius = std::exp2(T(std::round(std::log2(placement.size))));
        const Vec3<double> center = placement.position;
        const auto inside = [&] { return center + test::randomInBall<3>(random) * double(radius); };
        const auto onSurface = [&] {
            const Vec3<double> normal = test::randomUnit<3>(random);
            return test::SurfaceSample<3>{center + normal * double(radius), normal,
                                          test::randomTangent<3>(random, normal)};
        };
        const RayPath<T> ray =
            test::randomRayNear<T, 3>(random, i, center, radius, radius, inside, onSurface);
        Mat3<T> signs(1);
        for (int axis = 0; axis < 3; ++axis)
            if (random.chance(0.5)) signs[axis][axis] = T(-1);
        const auto sphere = intersectRaySphere(ray, Sphere<T>{Vec3<T>(center), radius});
        const auto ellipsoid =
            intersectRayEllipsoid(ray, Ellipsoid<T>{Vec3<T>(center), signs, Vec3<T>(radius)});
        ASSERT_EQ(ellipsoid.has_value(), sphere.has_value()) << "case " << i;
        if (!sphere) continue;
        ++hits;
        EXPECT_EQ(ellipsoid->originInside, sphere->originInside);
        for (const auto& [mine, theirs] :
             {std::pair{ellipsoid->entry, sphere->entry}, std::pair{ellipsoid->exit, sphere->exit}}) {
            EXPECT_EQ(mine.t, theirs.t) << "case " << i;
            EXPECT_EQ(mine.point, theirs.point) << "case " << i;
            EXPECT_EQ(mine.normal, theirs.normal) << "case " << i;
        }
    }
    EXPECT_GT(hits, 5000);
}

TYPED_TEST(RayEllipsoidTest, RayAlongAnAxis) {
    using T = TypeParam;
    const auto hit =
        intersectRayEllipsoid(RayPath<T>{{1, -8, 3}, {0, 2, 0}, kInfinity<T>}, permutedEllipsoid<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(3));
    EXPECT_EQ(hit->exit.t, T(7));
    EXPECT_EQ(hit->entry.point, Vec3<T>(1, -2, 3));
    EXPECT_EQ(hit->exit.point, Vec3<T>(1, 6, 3));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(0, -1, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(0, 1, 0));
    EXPECT_FALSE(hit->originInside);
    // The short axis, from inside: leaves at x = 2 after entering (behind the origin) at x = 0.
    const auto inside =
        intersectRayEllipsoid(RayPath<T>{{1.5, 2, 3}, {1, 0, 0}, T(0.25)}, permutedEllipsoid<T>());
    ASSERT_TRUE(inside);
    EXPECT_TRUE(inside->originInside);
    EXPECT_EQ(inside->entry.t, T(-1.5));
    EXPECT_EQ(inside->exit.t, T(0.5));  // beyond maxT, still reported as the line's exit
    EXPECT_EQ(inside->exit.normal, Vec3<T>(1, 0, 0));
}

// The normal is the gradient, not the direction from the centre: on the ellipse x^2 / 16 + y^2 / 4 = 1 at
// (2 sqrt 2, sqrt 2) it runs along (x / 16, y / 4), i.e. (1, 2) / sqrt 5.
TYPED_TEST(RayEllipsoidTest, NormalIsTheGradient) {
    using T = TypeParam;
    const Ellipsoid<T> ellipsoid{{0, 0, 0}, Mat3<T>(1), {4, 2, 1}};
    const T root2 = std::sqrt(T(2));
    const auto hit =
        intersectRayEllipsoid(RayPath<T>{{2 * root2, root2 - 5, 0}, {0, 1, 0}, kInfinity<T>}, ellipsoid);
    ASSERT_TRUE(hit);
    // The stated normal bound, with scale |origin| + 4, rho = 1 / 4 and cosIncidence = 2 / sqrt 5.
    const Real scale = glm::length(test::widen(Vec3<T>(2 * root2, root2 - 5, 0))) + 4;
    const Real bound = kBounds.normal * unitRoundoff<T> * (1 + scale / (Real(0.25) * 2 / std::sqrt(Real(5))));
    EXPECT_LE(test::angleBetween(test::widen(hit->exit.normal), glm::normalize(RealVec3(1, 2, 0))), bound);
    EXPECT_NEAR(hit->exit.t, T(5), 8 * std::numeric_limits<T>::epsilon() * 5);
}

TYPED_TEST(RayEllipsoidTest, TangentRayTouchesAtOnePoint) {
    using T = TypeParam;
    const Ellipsoid<T> ellipsoid = permutedEllipsoid<T>();
    const auto hit = intersectRayEllipsoid(RayPath<T>{{2, -8, 3}, {0, 1, 0}, kInfinity<T>}, ellipsoid);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(10));
    EXPECT_EQ(hit->exit.t, T(10));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(1, 0, 0));
    // One ulp outside misses, one ulp inside hits.
    const T above = std::nextafter(T(2), T(3)), below = std::nextafter(T(2), T(1));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{{above, -8, 3}, {0, 1, 0}, kInfinity<T>}, ellipsoid));
    EXPECT_TRUE(intersectRayEllipsoid(RayPath<T>{{below, -8, 3}, {0, 1, 0}, kInfinity<T>}, ellipsoid));
}

TYPED_TEST(RayEllipsoidTest, EllipsoidBehindOrBeyondTheRayIsMissed) {
    using T = TypeParam;
    const Ellipsoid<T> ellipsoid = permutedEllipsoid<T>();
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{{1, 7, 3}, {0, 1, 0}, kInfinity<T>}, ellipsoid));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{{1, -8, 3}, {0, 1, 0}, T(5.999)}, ellipsoid));
    EXPECT_TRUE(intersectRayEllipsoid(RayPath<T>{{1, -8, 3}, {0, 1, 0}, T(6)}, ellipsoid));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{{1, -8, 3}, {0, 1, 0}, T(0)}, ellipsoid));
    EXPECT_TRUE(intersectRayEllipsoid(RayPath<T>{{1, 2, 3}, {0, 1, 0}, T(0)}, ellipsoid));
}

// Radii that are zero, negative, NaN or infinite on any axis, a zero direction (also from inside) or a
// negative maxT: no hit.
TYPED_TEST(RayEllipsoidTest, DegenerateInputIsNoHit) {
    using T = TypeParam;
    const RayPath<T> ray{{1, -8, 3}, {0, 1, 0}, kInfinity<T>};
    const Ellipsoid<T> ellipsoid = permutedEllipsoid<T>();
    ASSERT_TRUE(intersectRayEllipsoid(ray, ellipsoid));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{ray.origin, Vec3<T>(0), ray.maxT}, ellipsoid));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{ellipsoid.center, Vec3<T>(0), ray.maxT}, ellipsoid));
    EXPECT_FALSE(intersectRayEllipsoid(RayPath<T>{ray.origin, ray.direction, T(-1)}, ellipsoid));
    for (int axis = 0; axis < 3; ++axis) {
        for (const T radius : {T(0), T(-1), std::numeric_limits<T>::quiet_NaN(), kInfinity<T>, -kInfinity<T>,
                               std::numeric_limits<T>::denorm_min()}) {
            Ellipsoid<T> degenerate = ellipsoid;
            degenerate.radii[axis] = radius;
            EXPECT_FALSE(intersectRayEllipsoid(ray, degenerate)) << "radius " << axis << " = " << radius;
        }
    }
}

TYPED_TEST(RayEllipsoidTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{1.25, -8, 3.5}, {0, 1, 0.05}, T(20)},
                                         permutedEllipsoid<T>(), kIntersectEllipsoid);
}

TYPED_TEST(RayEllipsoidTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::Random random(44);
    test::expectScaleInvariance(RayPath<T>{{-3.25, 0.375, -0.5}, {1.5, 0.125, 0.25}, T(2.5)},
                                Ellipsoid<T>{{0.5, -0.25, 0.125}, random.rotation<T>(), {1.25, 0.5, 2}},
                                kIntersectEllipsoid);
}

// See expectTinyFarSolidCrossed: an ellipsoid whose section across z is a circle of radius 1e-4 about 1.3e6
// away (double), 1e-2 at 1e4 (float), reaching 1 along z; the ray crosses it in that section.
TYPED_TEST(RayEllipsoidTest, TinyEllipsoidFarAway) {
    using T = TypeParam;
    const T step = test::tinyFarStep<T>();
    const auto ellipsoid = [](const Vec3<T>& center, T radius) {
        return Ellipsoid<T>{center, Mat3<T>(1), {radius, radius, 1}};
    };
    for (const Vec3<T>& origin : {Vec3<T>(0, 0, 0), Vec3<T>(1000, -2000, 500)})
        test::expectTinyFarSolidCrossed(kIntersectEllipsoid, ellipsoid, T(1), origin,
                                        Vec3<T>(-4, 3, 0) * step, kBounds);
}

TYPED_TEST(RayEllipsoidTest, ExtremeMagnitudesNeverGiveNaN) {
    using T = TypeParam;
    test::Random random(45);
    test::expectSaneForExtremeInputs<T>(
        kIntersectEllipsoid,
        [&](const auto& vector, const auto& radius) {
            return Ellipsoid<T>{vector(), random.rotation<T>(), {radius(), radius(), radius()}};
        },
        kBounds.unitLength);
}

}  // namespace
}  // namespace analytic
