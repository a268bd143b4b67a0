// SPDX-License-Identifier: Zlib
// The one definition of a triangle's normal and of a degenerate triangle (triangle.hpp): against the
// exact sine of the smallest angle, at every scale, on hostile input, and used alike by every test of
// the core.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "analytic/geometry/box_triangle.hpp"
#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "analytic/geometry/triangle.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Real;
using test::RealVec3;
using test::text;
using test::widen;

template <class T> class TriangleTest : public ::testing::Test {};
TYPED_TEST_SUITE(TriangleTest, test::Scalars);

// The sine of the triangle's smallest angle, in long double from its (exact) vertices.
template <class T> Real smallestSine(const Triangle<T>& triangle) {
    const RealVec3 a = widen(triangle.a), b = widen(triangle.b), c = widen(triangle.c);
    const Real ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const Real twiceArea = glm::length(glm::cross(b - a, c - a));
    // sin(angle at a vertex) = twice the area / the product of the two edges there; the smallest angle is
    // between the two longest edges.
    const Real largestPair = std::max({ab * bc, bc * ca, ca * ab});
    return twiceArea / largestPair;
}

// A triangle 1 long whose smallest angles have about the given sine, turned at random.
template <class T> Triangle<T> sliver(test::Random& random, double sine) {
    const Vec3<double> along = random.unitVector<double>();
    Vec3<double> across = glm::normalize(glm::cross(along, random.unitVector<double>()));
    const Vec3<double> origin = random.point<double>(4);
    const Vec3<double> tip = origin + along;
    const Vec3<double> middle = origin + 0.5 * along + 0.5 * sine * across;
    return {Vec3<T>(origin), Vec3<T>(tip), Vec3<T>(middle)};
}

// Away from the threshold (by a factor of 2 either way), the exact sine decides.
TYPED_TEST(TriangleTest, DegenerateExactlyWhenTheSmallestSineIsBelowTheThreshold) {
    using T = TypeParam;
    const Real threshold = Real(degenerateTriangleSine<T>);
    test::Random random(1701);
    int degenerate = 0, decided = 0;
    for (int i = 0; i < 20000; ++i) {
        const Triangle<T> triangle = sliver<T>(random, double(threshold) * random.logUniform(1e-3, 1e3));
        const Real sine = smallestSine(triangle);
        if (sine > threshold / 2 && sine < 2 * threshold) continue;
        ++decided;
        const TriangleFrame<T> frame = triangleFrame(triangle);
        ASSERT_EQ(frame.degenerate, sine < threshold)
            << text(triangle.a) << text(triangle.b) << text(triangle.c) << " sine " << double(sine);
        degenerate += frame.degenerate;
        EXPECT_FALSE(frame.scaled);
        if (frame.degenerate) continue;
        // The normal is (b - a) x (c - a)'s direction, to within its rounding over the sine.
        const RealVec3 exact =
            glm::cross(widen(triangle.b) - widen(triangle.a), widen(triangle.c) - widen(triangle.a));
        const Real angle = std::acos(std::clamp(
            glm::dot(glm::normalize(widen(frame.normal)), glm::normalize(exact)), Real(-1), Real(1)));
        EXPECT_LT(angle, 16 * Real(unitRoundoff<T>) / sine);
    }
    EXPECT_GT(decided, 15000);
    EXPECT_GT(degenerate, decided / 4);
    EXPECT_LT(degenerate, 3 * decided / 4);
}

// Scaling a triangle by a power of two changes no angle: the same decision and the same normal's
// direction at every finite scale, the squares out of range included (a scaled frame).
TYPED_TEST(TriangleTest, SameDecisionAtEveryScale) {
    using T = TypeParam;
    constexpr int maxExponent = std::numeric_limits<T>::max_exponent;
    test::Random random(1702);
    for (int i = 0; i < 200; ++i) {
        const double threshold = double(degenerateTriangleSine<T>);
        const Triangle<T> unit = sliver<T>(random, threshold * (i % 2 ? 8.0 : 0.125));
        const TriangleFrame<T> reference = triangleFrame(unit);
        const Vec3<T> direction = glm::normalize(reference.normal);
        for (int exponent = -maxExponent + 30; exponent < maxExponent - 10; exponent += maxExponent / 16) {
            const auto scale = [&](const Vec3<T>& v) {
                return Vec3<T>(std::ldexp(v.x, exponent), std::ldexp(v.y, exponent),
                               std::ldexp(v.z, exponent));
            };
            const Triangle<T> scaled{scale(unit.a), scale(unit.b), scale(unit.c)};
            const TriangleFrame<T> frame = triangleFrame(scaled);
            ASSERT_EQ(frame.degenerate, reference.degenerate) << "scale 2^" << exponent;
            if (frame.degenerate) continue;
            const Vec3<T> scaledDirection = glm::normalize(frame.normal);
            EXPECT_LT(glm::length(scaledDirection - direction), 8 * unitRoundoff<T>)
                << "scale 2^" << exponent;
            // Only frames whose squares leave the normal numbers are scaled; their normal is a direction.
            const bool inRange = std::abs(exponent) < maxExponent / 4 - 8;
            if (inRange) {
                EXPECT_FALSE(frame.scaled) << "scale 2^" << exponent;
            }
            EXPECT_EQ(frame.hasFace(), !frame.scaled);
        }
    }
}

TYPED_TEST(TriangleTest, HostileVerticesAreDegenerate) {
    using T = TypeParam;
    constexpr T nan = std::numeric_limits<T>::quiet_NaN(), infinity = std::numeric_limits<T>::infinity(),
                largest = std::numeric_limits<T>::max();
    const Vec3<T> a(0), b(1, 0, 0), c(0, 1, 0);
    EXPECT_FALSE(triangleFrame(Triangle<T>{a, b, c}).degenerate);
    for (const T bad : {nan, infinity, -infinity}) {
        EXPECT_TRUE(triangleFrame(Triangle<T>{Vec3<T>(bad, 0, 0), b, c}).degenerate);
        EXPECT_TRUE(triangleFrame(Triangle<T>{a, Vec3<T>(0, bad, 0), c}).degenerate);
        EXPECT_TRUE(triangleFrame(Triangle<T>{a, b, Vec3<T>(0, 0, bad)}).degenerate);
    }
    // Edges that overflow; one point; a segment; subnormal coordinates (a point, in effect).
    EXPECT_TRUE(
        triangleFrame(Triangle<T>{Vec3<T>(-largest, 0, 0), Vec3<T>(largest, 0, 0), Vec3<T>(0, largest, 0)})
            .degenerate);
    EXPECT_TRUE(triangleFrame(Triangle<T>{b, b, b}).degenerate);
    EXPECT_TRUE(triangleFrame(Triangle<T>{a, b, T(2) * b}).degenerate);
    const T tiny = std::numeric_limits<T>::denorm_min();
    const TriangleFrame<T> subnormal =
        triangleFrame(Triangle<T>{a, Vec3<T>(tiny, 0, 0), Vec3<T>(0, tiny, 0)});
    EXPECT_FALSE(subnormal.degenerate);  // a right angle: scaled, it is a triangle
    EXPECT_TRUE(subnormal.scaled);
    EXPECT_FALSE(subnormal.hasFace());
}

// A sliver on either side of the threshold (sine 1/8 and 8 times it) met by every test of the core: the
// degenerate one as its edges (closest point, sweep) or not at all (ray, contacts, plane cut, box), the
// other through its face.
TYPED_TEST(TriangleTest, EveryTestUsesTheOneDefinition) {
    using T = TypeParam;
    const T threshold = degenerateTriangleSine<T>;
    for (const T factor : {T(0.125), T(8)}) {
        // Angles at a and b of about `height` (tangent 2 height / 1): the sine is twice the height.
        const T height = factor * threshold / 2;
        const Triangle<T> triangle{Vec3<T>(0), Vec3<T>(1, 0, 0), Vec3<T>(T(0.5), height, 0)};
        const bool degenerate = factor < T(1);
        ASSERT_EQ(triangleFrame(triangle).degenerate, degenerate);
        const Vec3<T> inside(T(0.5), height / 4, 0);
        const Vec3<T> above = inside + Vec3<T>(0, 0, 1);

        EXPECT_EQ(intersectRayTriangle(RayPath<T>{above, Vec3<T>(0, 0, -2), 1}, triangle).has_value(),
                  !degenerate);
        const auto cut = intersectTrianglePlane(triangle, Plane<T>{Vec3<T>(1, 0, 0), T(0.25)});
        EXPECT_EQ(cut.has_value(), !degenerate);
        if (cut) {
            EXPECT_TRUE(cut->overlaps());
        }
        const Obb<T> box{Vec3<T>(T(0.5), 0, T(0.05)), Mat3<T>(1), Vec3<T>(T(0.1))};
        EXPECT_EQ(collideObbTriangle(box, triangle, T(0)).has_value(), !degenerate);
        EXPECT_EQ(sphereTriangleContact(Sphere<T>{Vec3<T>(T(0.5), 0, T(0.5)), 1}, triangle).has_value(),
                  !degenerate);
        const auto nearest = closestPointOnTriangle(above, triangle);
        ASSERT_TRUE(nearest);
        EXPECT_EQ(nearest->feature == TriangleFeature::Face, !degenerate);
        EXPECT_LT(glm::length(nearest->point - inside), T(2) * height);
        // A sphere dropped onto it lands on it at t = 0.4 either way: on the face, or on the edges.
        const auto landing =
            sweepSphereTriangle(RayPath<T>{inside + Vec3<T>(0, 0, 5), Vec3<T>(0, 0, -10), 1}, T(1), triangle);
        ASSERT_TRUE(landing);
        EXPECT_NEAR(landing->t, T(0.4), 8 * unitRoundoff<T>);
    }
}

}  // namespace
}  // namespace analytic
