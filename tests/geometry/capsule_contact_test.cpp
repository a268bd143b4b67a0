// SPDX-License-Identifier: Zlib
// Segment - triangle and segment - box closest points, and the capsule contacts built on them
// (capsule_contact.hpp), against a long double oracle: the distance from a convex solid is a convex
// function of the parameter along the segment, so its minimum is found by golden-section search on the
// reference point distances of reference/distance_reference.hpp (an independent formulation). Random
// cases of every scale and position, and named edge cases (parallel, crossing, touching, inside,
// degenerate, hostile input).
#include "analytic/geometry/capsule_contact.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <tuple>
#include <type_traits>
#include <utility>

#include "reference/distance_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Random;
using test::Real;
using test::RealVec3;
using test::widen;
namespace ref = reference;

// A fifth in unoptimized builds (test::kCaseDivisor), where the sanitizers make each case slow.
constexpr int kRandomCases = 100000 / test::kCaseDivisor;

template <class T> Real unitsOf(Real units, Real scale) { return units * Real(unitRoundoff<T>) * scale; }

Real largestMagnitude(std::initializer_list<RealVec3> points) {
    Real largest = 0;
    for (const RealVec3& p : points)
        largest = std::max({largest, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    return largest;
}

// The minimum over s in [0, 1] of a convex function of s: golden-section search to the resolution of
// long double, and the two ends.
template <class F> Real minimumOverSegment(F distanceAt) {
    const Real ratio = (std::sqrt(Real(5)) - 1) / 2;
    Real low = 0, high = 1;
    Real x1 = high - ratio * (high - low), x2 = low + ratio * (high - low);
    Real f1 = distanceAt(x1), f2 = distanceAt(x2);
    for (int i = 0; i < 120; ++i) {
        if (f1 <= f2) {
            high = x2;
            x2 = x1;
            f2 = f1;
            x1 = high - ratio * (high - low);
            f1 = distanceAt(x1);
        } else {
            low = x1;
            x1 = x2;
            f1 = f2;
            x2 = low + ratio * (high - low);
            f2 = distanceAt(x2);
        }
    }
    return std::min({f1, f2, distanceAt(Real(0)), distanceAt(Real(1))});
}

// The reference's point-triangle distance, never above the distance to an edge: for slivers near the
// degenerate limit its plane, from a cross product of nearly parallel edges, is off by more than the
// edges are.
Real distanceToTriangle(const RealVec3& p, const RealVec3& a, const RealVec3& b, const RealVec3& c) {
    return std::min({ref::distancePointTriangle(p, a, b, c), ref::distancePointSegment(p, a, b),
                     ref::distancePointSegment(p, b, c), ref::distancePointSegment(p, c, a)});
}

Real referenceSegmentTriangle(const RealVec3& p0, const RealVec3& p1, const RealVec3& a, const RealVec3& b,
                              const RealVec3& c) {
    return minimumOverSegment(
        [&](Real s) { return ref::distancePointTriangle(p0 + s * (p1 - p0), a, b, c); });
}

template <class T> Real referenceSegmentObb(const Vec3<T>& p0, const Vec3<T>& p1, const Obb<T>& box) {
    const RealVec3 r0 = widen(p0), r1 = widen(p1);
    const RealVec3 centre = widen(box.center), half = widen(box.halfExtents);
    const Mat3<Real> rotation = widen(box.rotation);
    return minimumOverSegment(
        [&](Real s) { return ref::distancePointObb(r0 + s * (r1 - r0), centre, rotation, half); });
}

// Sine of the triangle's largest angle: the plane is known to about u / sine.
Real sineOfLargestAngle(const RealVec3& a, const RealVec3& b, const RealVec3& c) {
    const Real ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const Real shortestTwo = ab * bc * ca / std::max({ab, bc, ca});
    return shortestTwo > 0 ? glm::length(glm::cross(b - a, c - a)) / shortestTwo : 0;
}

double randomScale(Random& random) { return random.logUniform(1e-4, 1e6); }

template <class T> Vec3<T> randomCentre(Random& random, double scale) {
    const double farthest = std::is_same_v<T, float> ? 1e3 : 1e6;
    const double away = random.chance(0.5) ? random.logUniform(1e-2, 1) : random.logUniform(1, farthest);
    return Vec3<T>(random.unitVector<double>() * (scale * away));
}

template <class T> Vec3<T> around(Random& random, const Vec3<T>& centre, double extent) {
    return Vec3<T>(Vec3<double>(centre) + random.point<double>(extent));
}

// The largest error seen over a random test as a fraction of its bound.
struct Worst {
    Real distance = 0;
    Real onShapes = 0;
    void print(const char* name) const {
        std::printf("%s: worst error / bound: distance %.3g, points on their shapes %.3g\n", name,
                    double(distance), double(onShapes));
    }
};

// ---------------------------------------------------------------------------------------------------
// Segment - triangle.

template <class T> struct SegmentTriangleCase {
    Vec3<T> p0, p1;
    Triangle<T> triangle;
};

// Segments anywhere around the triangle, or lying nearly parallel just over its plane, or crossing it,
// or of zero length; some triangles are slivers or degenerate.
template <class T> SegmentTriangleCase<T> randomSegmentTriangle(Random& random) {
    const double scale = randomScale(random);
    const Vec3<T> centre = randomCentre<T>(random, scale);
    Triangle<T> triangle{around(random, centre, scale), around(random, centre, scale),
                         around(random, centre, scale)};
    const double shape = random.uniform(0, 1);
    if (shape < 0.03) {
        triangle.c =
            Vec3<T>(glm::mix(Vec3<double>(triangle.a), Vec3<double>(triangle.b), random.uniform(-1, 2)));
    } else if (shape < 0.04) {
        triangle.c = triangle.b;
    } else if (shape < 0.1) {  // a sliver: c within 1e-6 .. 1e-2 of the line ab
        triangle.c =
            Vec3<T>(glm::mix(Vec3<double>(triangle.a), Vec3<double>(triangle.b), random.uniform(0, 1)) +
                    random.logUniform(1e-6, 1e-2) * scale * random.unitVector<double>());
    }
    const Vec3<double> a(triangle.a), b(triangle.b), c(triangle.c);
    const Vec3<double> normal = glm::cross(b - a, c - a);
    const double normalLength = glm::length(normal);
    const auto onPlane = [&](double u, double v) { return a + u * (b - a) + v * (c - a); };
    const double kind = random.uniform(0, 1);
    if (kind < 0.4 || normalLength == 0) {
        Vec3<T> p0 = around(random, centre, 2 * scale), p1 = around(random, centre, 2 * scale);
        if (random.chance(0.05)) p1 = p0;
        return {p0, p1, triangle};
    }
    const Vec3<double> unitNormal = normal / normalLength;
    if (kind < 0.75) {  // nearly parallel, just over or under the plane
        const double height = random.logUniform(1e-8, 1) * scale * (random.chance(0.5) ? 1 : -1);
        const double tilt = random.chance(0.5) ? 0 : random.logUniform(1e-9, 1e-2) * scale;
        const Vec3<double> from =
            onPlane(random.uniform(-0.3, 1.3), random.uniform(-0.3, 1.3)) + height * unitNormal;
        const Vec3<double> to = onPlane(random.uniform(-0.3, 1.3), random.uniform(-0.3, 1.3)) +
                                (height + tilt * (random.chance(0.5) ? 1 : -1)) * unitNormal;
        return {Vec3<T>(from), Vec3<T>(to), triangle};
    }
    // Through the plane near or inside the triangle.
    const Vec3<double> through = onPlane(random.uniform(-0.2, 1.2), random.uniform(-0.2, 1.2));
    const Vec3<double> direction = random.unitVector<double>() * scale;
    return {Vec3<T>(through - random.uniform(0, 1) * direction),
            Vec3<T>(through + random.uniform(0, 1) * direction), triangle};
}

template <class T> class SegmentTriangle : public ::testing::Test {};
TYPED_TEST_SUITE(SegmentTriangle, test::Scalars);

// Checks the core's pair against the reference distance: the pair's distance matches, each point lies
// on its shape, the segment's at its parameter. Returns false when a bound fails.
template <class T> void expectSegmentTriangleMatches(const SegmentTriangleCase<T>& c, Worst& worst) {
    const auto result = closestPointsSegmentTriangle(c.p0, c.p1, c.triangle);
    ASSERT_TRUE(result);
    const RealVec3 p0 = widen(c.p0), p1 = widen(c.p1), a = widen(c.triangle.a), b = widen(c.triangle.b),
                   tc = widen(c.triangle.c);
    const Real scale = largestMagnitude({p0, p1, a, b, tc});
    const Real sine = sineOfLargestAngle(a, b, tc);
    // The plane of a flat triangle is known to u / sine; below the core's degenerate sine it answers from
    // the edges, off by up to the triangle's height over its longest edge.
    const Real longest = std::max({glm::length(b - a), glm::length(tc - b), glm::length(a - tc)});
    const Real height = longest > 0 ? glm::length(glm::cross(b - a, tc - a)) / longest : 0;
    const Real flatAllowance = sine < 64 * Real(unitRoundoff<T>) ? height : 0;
    const Real bound = unitsOf<T>(64, scale) / std::max(sine, 64 * Real(unitRoundoff<T>)) + flatAllowance;
    const Real exact = referenceSegmentTriangle(p0, p1, a, b, tc);
    const RealVec3 onSegment = widen(result->pointOnSegment), onTriangle = widen(result->pointOnTriangle);
    const Real error = std::abs(glm::length(onSegment - onTriangle) - exact);
    EXPECT_LE(error, bound) << "exact " << double(exact);
    worst.distance = std::max(worst.distance, error / bound);
    ASSERT_TRUE(result->s >= T(0) && result->s <= T(1));
    const Real onShapes = std::max(glm::length(onSegment - (p0 + Real(result->s) * (p1 - p0))),
                                   distanceToTriangle(onTriangle, a, b, tc));
    EXPECT_LE(onShapes, bound) << test::text(c.p0) << " " << test::text(c.p1) << " triangle "
                               << test::text(c.triangle.a) << " " << test::text(c.triangle.b) << " "
                               << test::text(c.triangle.c) << " feature " << int(result->feature) << " s "
                               << double(result->s);
    worst.onShapes = std::max(worst.onShapes, onShapes / bound);
}

TYPED_TEST(SegmentTriangle, MatchesReference) {
    using T = TypeParam;
    Random random(2718);
    Worst worst;
    for (int i = 0; i < kRandomCases; ++i) {
        const SegmentTriangleCase<T> c = randomSegmentTriangle<T>(random);
        expectSegmentTriangleMatches(c, worst);
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    worst.print("segment-triangle");
}

TYPED_TEST(SegmentTriangle, ParallelCrossingTouchingDegenerate) {
    using T = TypeParam;
    Worst worst;
    const Vec3<T> o(T(100), T(-20), T(7)), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const Triangle<T> triangle{o, o + T(4) * x, o + T(4) * y};
    // Parallel over the face: both ends' projections inside; one outside; crossing an edge's line.
    for (const auto& [p0, p1] :
         {std::pair{o + x + y + z, o + T(2) * x + y + z}, std::pair{o + x + y + z, o + T(9) * x + y + z},
          std::pair{o - T(3) * x + y + z, o + T(9) * x + y + z},
          std::pair{o + x + y - z, o + T(2) * x + y - z}}) {
        expectSegmentTriangleMatches(SegmentTriangleCase<T>{p0, p1, triangle}, worst);
        const auto pair = closestPointsSegmentTriangle(p0, p1, triangle);
        ASSERT_TRUE(pair);
        EXPECT_EQ(pair->feature, TriangleFeature::Face);
        EXPECT_NEAR(glm::length(pair->pointOnSegment - pair->pointOnTriangle), T(1), T(1e-5));
    }
    // Crossing the face: distance 0 at the crossing.
    const auto crossing = closestPointsSegmentTriangle(o + x + y + z, o + x + y - T(3) * z, triangle);
    ASSERT_TRUE(crossing);
    EXPECT_EQ(crossing->feature, TriangleFeature::Face);
    EXPECT_EQ(crossing->pointOnSegment, crossing->pointOnTriangle);
    EXPECT_NEAR(crossing->s, T(0.25), T(1e-6));
    // Touching the face with an end, an edge with the segment's middle.
    const auto touching = closestPointsSegmentTriangle(o + x + y, o + x + y + z, triangle);
    ASSERT_TRUE(touching);
    EXPECT_EQ(glm::length(touching->pointOnSegment - touching->pointOnTriangle), T(0));
    expectSegmentTriangleMatches(SegmentTriangleCase<T>{o + T(2) * x - y + z, o + T(2) * x - y - z, triangle},
                                 worst);
    expectSegmentTriangleMatches(SegmentTriangleCase<T>{o + T(2) * x - y + z, o + T(2) * x + y - z, triangle},
                                 worst);
    // Beside the triangle, parallel to an edge; at a vertex.
    expectSegmentTriangleMatches(SegmentTriangleCase<T>{o - y + z, o + T(3) * x - T(2) * y, triangle}, worst);
    expectSegmentTriangleMatches(SegmentTriangleCase<T>{o - x - y - z, o - T(3) * x - y, triangle}, worst);
    // Zero-length segments: the point's nearest point.
    for (const Vec3<T>& p : {o + x + y + z, o - x - y, o + T(5) * x + z}) {
        const auto pair = closestPointsSegmentTriangle(p, p, triangle);
        ASSERT_TRUE(pair);
        const auto point = closestPointOnTriangle(p, triangle);
        ASSERT_TRUE(point);
        EXPECT_LE(glm::length(pair->pointOnTriangle - point->point), T(1e-4));
    }
    // Degenerate triangles: collinear, two and three coincident vertices.
    for (const Triangle<T>& flat : {Triangle<T>{o, o + T(4) * x, o + T(2) * x},
                                    Triangle<T>{o, o + T(4) * x, o}, Triangle<T>{o, o, o}}) {
        for (const auto& [p0, p1] : {std::pair{o + y + z, o + T(3) * x - y}, std::pair{o - x, o - T(2) * x},
                                     std::pair{o + y, o + y}}) {
            expectSegmentTriangleMatches(SegmentTriangleCase<T>{p0, p1, flat}, worst);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Segment - box.

template <class T> struct SegmentObbCase {
    Vec3<T> p0, p1;
    Obb<T> box;
};

template <class T> SegmentObbCase<T> randomSegmentObb(Random& random) {
    const double scale = randomScale(random);
    const Vec3<T> centre = randomCentre<T>(random, scale);
    Vec3<T> half(T(random.uniform(0, scale)), T(random.uniform(0, scale)), T(random.uniform(0, scale)));
    if (random.chance(0.02)) half[int(random.uniform(0, 3))] = T(0);
    const Obb<T> box{centre, random.rotation<T>(), half};
    const double kind = random.uniform(0, 1);
    Vec3<T> p0 = around(random, centre, 2 * scale), p1 = around(random, centre, 2 * scale);
    if (kind < 0.3) {  // parallel to a face, just over it
        const int axis = int(random.uniform(0, 3));
        const double side = random.chance(0.5) ? 1 : -1;
        const double height =
            double(half[axis]) + random.logUniform(1e-8, 1) * scale * (random.chance(0.8) ? 1 : -1);
        Vec3<double> l0 = random.point<double>(1.5 * scale), l1 = random.point<double>(1.5 * scale);
        l0[axis] = side * height;
        l1[axis] = side * height + (random.chance(0.5) ? 0 : random.logUniform(1e-9, 1e-2) * scale);
        const Mat3<double> rotation(box.rotation);
        p0 = Vec3<T>(Vec3<double>(centre) + rotation * l0);
        p1 = Vec3<T>(Vec3<double>(centre) + rotation * l1);
    } else if (kind < 0.35) {
        p1 = p0;
    }
    return {p0, p1, box};
}

template <class T> void expectSegmentObbMatches(const SegmentObbCase<T>& c, Worst& worst) {
    const auto result = closestPointsSegmentObb(c.p0, c.p1, c.box);
    ASSERT_TRUE(result);
    const RealVec3 p0 = widen(c.p0), p1 = widen(c.p1);
    const Real scale = largestMagnitude({p0, p1, widen(c.box.center), widen(c.box.halfExtents)});
    const Real bound = unitsOf<T>(64, scale);
    const Real exact = referenceSegmentObb(c.p0, c.p1, c.box);
    const RealVec3 onSegment = widen(result->pointOnSegment), onBox = widen(result->pointOnBox);
    const Real error = std::abs(glm::length(onSegment - onBox) - exact);
    EXPECT_LE(error, bound) << "exact " << double(exact);
    worst.distance = std::max(worst.distance, error / bound);
    if (result->inside) {
        EXPECT_EQ(result->pointOnSegment, result->pointOnBox);
    }
    if (exact > bound) {
        EXPECT_FALSE(result->inside);
    }
    ASSERT_TRUE(result->s >= T(0) && result->s <= T(1));
    const Real onShapes = std::max(
        glm::length(onSegment - (p0 + Real(result->s) * (p1 - p0))),
        ref::distancePointObb(onBox, widen(c.box.center), widen(c.box.rotation), widen(c.box.halfExtents)));
    EXPECT_LE(onShapes, bound);
    worst.onShapes = std::max(worst.onShapes, onShapes / bound);
}

template <class T> class SegmentObb : public ::testing::Test {};
TYPED_TEST_SUITE(SegmentObb, test::Scalars);

TYPED_TEST(SegmentObb, MatchesReference) {
    using T = TypeParam;
    Random random(3141);
    Worst worst;
    for (int i = 0; i < kRandomCases; ++i) {
        expectSegmentObbMatches(randomSegmentObb<T>(random), worst);
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    worst.print("segment-box");
}

TYPED_TEST(SegmentObb, ParallelInsideTouchingFlat) {
    using T = TypeParam;
    Worst worst;
    const Mat3<T> identity(T(1));
    const Obb<T> box{Vec3<T>(T(10), T(-3), T(2)), identity, Vec3<T>(T(1), T(2), T(3))};
    const Vec3<T> c = box.center, x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    for (const auto& [p0, p1] : {
             std::pair{c + T(3) * y, c + T(3) * y + x},                    // over the top face, parallel
             std::pair{c + T(3) * y - T(5) * x, c + T(3) * y + T(5) * x},  // across it, longer than the box
             std::pair{c + T(2) * x + T(3) * y, c + T(2) * x + T(3) * y + z},  // beside an edge, parallel
             std::pair{c - T(0.5) * x, c + T(0.5) * x},                        // inside
             std::pair{c + T(2) * y, c + T(3) * y},                            // touching with an end
             std::pair{c + T(2) * x + T(3) * y + T(4) * z, c + T(2) * x + T(3) * y + T(4) * z},  // a point
         }) {
        expectSegmentObbMatches(SegmentObbCase<T>{p0, p1, box}, worst);
    }
    const auto inside = closestPointsSegmentObb(c - x, c + x, box);
    ASSERT_TRUE(inside);
    EXPECT_TRUE(inside->inside);
    // Flat, linear and point boxes.
    for (const Vec3<T>& half : {Vec3<T>(1, 0, 3), Vec3<T>(0, 0, 3), Vec3<T>(0, 0, 0)})
        expectSegmentObbMatches(SegmentObbCase<T>{c + y - z, c - y + T(2) * x, Obb<T>{c, identity, half}},
                                worst);
}

// ---------------------------------------------------------------------------------------------------
// Capsule contacts: the deepest point's distance is the axis's distance less the radius; every point's
// point on A (onB + distance normal) lies in the capsule, on its surface but where rounding leaves
// the axis's point alone; and the contact is there exactly when within reach.

template <class T> class CapsuleContacts : public ::testing::Test {};
TYPED_TEST_SUITE(CapsuleContacts, test::Scalars);

template <class T>
void expectPointsOnSurface(const CapsuleContact<T>& contact, const Capsule<T>& capsule, Real bound) {
    EXPECT_NEAR(double(glm::length(contact.normal)), 1.0, 1e-5);
    for (int k = 0; k < contact.pointCount; ++k) {
        const CapsulePoint<T>& point = contact.points[k];
        // Its point on A, onB + distance normal, is on the capsule's surface (or, where rounding at the
        // region's border leaves the axis's point alone, inside it: the distance is then the capsule's
        // least there, never more than it is).
        const RealVec3 onA = widen(point.onB) + Real(point.distance) * widen(contact.normal);
        EXPECT_LE(double(ref::distancePointSegment(onA, widen(capsule.a), widen(capsule.b))),
                  double(capsule.radius + bound))
            << "point " << k << " of " << contact.pointCount;
        if (k > 0) {
            EXPECT_GE(point.distance, contact.points[0].distance);
        }
    }
}

TYPED_TEST(CapsuleContacts, TriangleMatchesReference) {
    using T = TypeParam;
    Random random(1618);
    int contacts = 0;
    Real worst = 0;
    for (int i = 0; i < kRandomCases; ++i) {
        const SegmentTriangleCase<T> c = randomSegmentTriangle<T>(random);
        const RealVec3 p0 = widen(c.p0), p1 = widen(c.p1), a = widen(c.triangle.a), b = widen(c.triangle.b),
                       tc = widen(c.triangle.c);
        const Real sine = sineOfLargestAngle(a, b, tc);
        if (sine < Real(1e-3)) continue;  // degenerate and slivers: the segment pair's test covers them
        const Real scale = largestMagnitude({p0, p1, a, b, tc});
        const T radius = T(random.logUniform(1e-3, 1) * scale);
        const T reach = T(random.uniform(0, 0.1) * scale);
        const Real exact = referenceSegmentTriangle(p0, p1, a, b, tc) - Real(radius);
        const Real bound = unitsOf<T>(256, scale) / sine;
        const Capsule<T> capsule{c.p0, c.p1, radius};
        const auto contact = capsuleTriangleContact(capsule, c.triangle, reach);
        if (exact > Real(reach) + bound) {
            EXPECT_FALSE(contact) << "case " << i;
        } else if (exact < Real(reach) - bound) {
            ASSERT_TRUE(contact) << "case " << i;
        }
        if (contact) {
            ++contacts;
            const Real deepest = Real(contact->contact.points[0].distance);
            // Apart: the distance. Touching or overlapping, at least as deep (along the normal, the part of
            // the capsule over a face may reach deeper than the axis's distance says); where the axis
            // meets the triangle, deeper than the radius.
            if (exact >= bound) {
                EXPECT_NEAR(double(deepest), double(exact), double(bound)) << "case " << i;
                worst = std::max(worst, std::abs(deepest - exact) / bound);
            } else if (exact > -Real(radius) + bound) {
                EXPECT_LE(deepest, exact + bound) << "case " << i;
            } else {
                EXPECT_LE(deepest, -Real(radius) + bound) << "case " << i;
            }
            expectPointsOnSurface(contact->contact, capsule, bound);
            for (int k = 0; k < contact->contact.pointCount; ++k)
                EXPECT_LE(distanceToTriangle(widen(contact->contact.points[k].onB), a, b, tc), bound);
        }
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    std::printf("capsule-triangle: %d contacts, worst distance error / bound %.3g\n", contacts,
                double(worst));
    EXPECT_GT(contacts, kRandomCases / 10);
}

TYPED_TEST(CapsuleContacts, ObbMatchesReference) {
    using T = TypeParam;
    Random random(1414);
    int contacts = 0, penetrating = 0;
    Real worst = 0;
    for (int i = 0; i < kRandomCases; ++i) {
        const SegmentObbCase<T> c = randomSegmentObb<T>(random);
        const Real scale =
            largestMagnitude({widen(c.p0), widen(c.p1), widen(c.box.center), widen(c.box.halfExtents)});
        const T radius = T(random.logUniform(1e-3, 1) * scale);
        const T reach = T(random.uniform(0, 0.1) * scale);
        const Real exact = referenceSegmentObb(c.p0, c.p1, c.box) - Real(radius);
        const Real bound = unitsOf<T>(256, scale);
        const Capsule<T> capsule{c.p0, c.p1, radius};
        const auto contact = capsuleObbContact(capsule, c.box, reach);
        if (exact > Real(reach) + bound) {
            EXPECT_FALSE(contact) << "case " << i;
        } else if (exact < Real(reach) - bound) {
            ASSERT_TRUE(contact) << "case " << i;
        }
        if (contact) {
            ++contacts;
            const Real deepest = Real(contact->points[0].distance);
            if (exact >= bound) {
                EXPECT_NEAR(double(deepest), double(exact), double(bound)) << "case " << i;
                worst = std::max(worst, std::abs(deepest - exact) / bound);
            } else if (exact > -Real(radius) + bound) {
                EXPECT_LE(deepest, exact + bound) << "case " << i;
            } else {
                ++penetrating;
                EXPECT_LE(deepest, -Real(radius) + bound) << "case " << i;
            }
            expectPointsOnSurface(*contact, capsule, bound);
            for (int k = 0; k < contact->pointCount; ++k) {
                const Real surface =
                    ref::signedDistancePointObb(widen(contact->points[k].onB), widen(c.box.center),
                                                widen(c.box.rotation), widen(c.box.halfExtents));
                EXPECT_NEAR(double(surface), 0.0, double(bound)) << "case " << i << " point " << k;
            }
        }
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    std::printf("capsule-box: %d contacts (%d with the axis in the box), worst distance error / bound %.3g\n",
                contacts, penetrating, double(worst));
    EXPECT_GT(contacts, kRandomCases / 10);
}

// A capsule lying along a triangle's face or a box's face gets both ends of its axis over the face.
TYPED_TEST(CapsuleContacts, LyingFlatGivesTwoPoints) {
    using T = TypeParam;
    const Vec3<T> o(T(5), T(1), T(-2)), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const Triangle<T> triangle{o, o + T(4) * z, o + T(4) * x};  // counter-clockwise seen from +y
    const Capsule<T> onTriangle{o + x + z + T(0.45) * y, o + T(2) * x + z + T(0.45) * y, T(0.5)};
    const auto flat = capsuleTriangleContact(onTriangle, triangle, T(0.1));
    ASSERT_TRUE(flat);
    EXPECT_EQ(flat->feature, TriangleFeature::Face);
    ASSERT_EQ(flat->contact.pointCount, 2);
    EXPECT_EQ(flat->contact.normal, y);
    for (int k = 0; k < 2; ++k)
        EXPECT_NEAR(flat->contact.points[k].distance, T(-0.05), T(1e-5));
    // Half over the face: the second point where the axis leaves the face region.
    const Capsule<T> half{o + x + z + T(0.45) * y, o + T(6) * x + z + T(0.45) * y, T(0.5)};
    const auto across = capsuleTriangleContact(half, triangle, T(0.1));
    ASSERT_TRUE(across);
    ASSERT_EQ(across->contact.pointCount, 2);
    EXPECT_NEAR(glm::length(across->contact.points[0].onB - across->contact.points[1].onB), T(2), T(1e-5));
    // Upright on the face: one point.
    const Capsule<T> upright{o + x + z + T(0.45) * y, o + x + z + T(2.45) * y, T(0.5)};
    const auto standing = capsuleTriangleContact(upright, triangle, T(0.1));
    ASSERT_TRUE(standing);
    EXPECT_EQ(standing->contact.pointCount == 1 || standing->contact.points[1].distance > T(0.1), true);
    EXPECT_NEAR(standing->contact.points[0].distance, T(-0.05), T(1e-5));
    // Sunk through the plane: pushed out on the side its part over the face reaches farther, deepest end
    // first.
    const Capsule<T> sunk{o + x + z + T(0.2) * y, o + x + z - T(1) * y, T(0.5)};
    const auto through = capsuleTriangleContact(sunk, triangle, T(0.1));
    ASSERT_TRUE(through);
    EXPECT_EQ(through->contact.normal, -y);
    EXPECT_NEAR(through->contact.points[0].distance, T(-0.7), T(1e-5));
    // The other side: out through the front, as deep as its lower end is below.
    const auto otherSide = capsuleTriangleContact(sunk, triangle, T(0.1), true);
    ASSERT_TRUE(otherSide);
    EXPECT_EQ(otherSide->contact.normal, y);
    EXPECT_NEAR(otherSide->contact.points[0].distance, T(-1.5), T(1e-5));

    // Box: lying on the top face, longer than the box, inside it along a face, upright on it, and along
    // an edge just inside (out through the nearer face, x before y at the tie).
    const Obb<T> box{o, Mat3<T>(T(1)), Vec3<T>(T(1), T(0.5), T(2))};
    for (const auto& [a, b, points, distance, axis] :
         {std::tuple{o + T(0.9) * y - T(0.5) * x, o + T(0.9) * y + T(0.5) * x, 2, T(-0.1), 1},
          std::tuple{o + T(0.9) * y - T(3) * x, o + T(0.9) * y + T(3) * x, 2, T(-0.1), 1},
          std::tuple{o + T(0.4) * y - T(0.5) * z, o + T(0.4) * y + T(0.5) * z, 2, T(-0.6), 1},
          std::tuple{o + T(0.9) * y, o + T(2.9) * y, 1, T(-0.1), 1},
          std::tuple{o + T(0.9) * x + T(0.4) * y - T(3) * z, o + T(0.9) * x + T(0.4) * y + T(3) * z, 2,
                     T(-0.6), 0}}) {
        const Capsule<T> capsule{a, b, T(0.5)};
        const auto contact = capsuleObbContact(capsule, box, T(0.1));
        ASSERT_TRUE(contact);
        EXPECT_EQ(contact->pointCount, points);
        EXPECT_EQ(contact->normal, axis == 0 ? x : y);
        for (int k = 0; k < contact->pointCount; ++k) {
            EXPECT_NEAR(contact->points[k].distance, distance, T(1e-5));
            EXPECT_NEAR(contact->points[k].onB[axis], o[axis] + box.halfExtents[axis], T(1e-5));
        }
    }
    // Across the box's edge (x, y) = (1, 0.5) at 45 degrees, just inside: least penetration along the
    // cross product of the axis with the edge, (1, 1, 0) / sqrt 2, 0.1 / sqrt 2 deep.
    const Vec3<T> middle = o + T(0.95) * x + T(0.45) * y;
    const Capsule<T> overEdge{middle - T(0.3) * (x - y), middle + T(0.3) * (x - y), T(0.05)};
    const auto edge = capsuleObbContact(overEdge, box, T(0.01));
    ASSERT_TRUE(edge);
    EXPECT_EQ(edge->pointCount, 1);
    EXPECT_NEAR(glm::length(edge->normal - glm::normalize(x + y)), T(0), T(1e-5));
    EXPECT_NEAR(edge->points[0].distance, T(-0.1 / std::sqrt(2.0) - 0.05), T(1e-5));
    EXPECT_NEAR(glm::length(edge->points[0].onB - (o + x + T(0.5) * y)), T(0), T(1e-5));
}

// Hostile input gives no contact, never a non-finite one.
TYPED_TEST(CapsuleContacts, HostileInput) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    const T huge = std::numeric_limits<T>::max() / 4, tiny = std::numeric_limits<T>::denorm_min();
    const Vec3<T> o(0), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    const Triangle<T> triangle{o, o + z, o + x};
    const Obb<T> box{o, Mat3<T>(T(1)), Vec3<T>(1)};
    for (const T bad : {nan, inf, -inf}) {
        const Vec3<T> v(bad, T(0), T(0));
        EXPECT_FALSE(closestPointsSegmentTriangle(v, y, triangle));
        EXPECT_FALSE(closestPointsSegmentTriangle(y, y, Triangle<T>{o, v, x}));
        EXPECT_FALSE(closestPointsSegmentObb(v, y, box));
        EXPECT_FALSE(closestPointsSegmentObb(y, x, Obb<T>{o, Mat3<T>(T(1)), Vec3<T>(bad)}));
        EXPECT_FALSE(capsuleTriangleContact(Capsule<T>{v, y, T(1)}, triangle, T(0.1)));
        EXPECT_FALSE(capsuleTriangleContact(Capsule<T>{o, y, bad}, triangle, T(0.1)));
        EXPECT_FALSE(capsuleTriangleContact(Capsule<T>{o, y, T(1)}, triangle, bad));
        EXPECT_FALSE(capsuleObbContact(Capsule<T>{v, y, T(1)}, box, T(0.1)));
        EXPECT_FALSE(capsuleObbContact(Capsule<T>{o, y, bad}, box, T(0.1)));
        EXPECT_FALSE(capsuleObbContact(Capsule<T>{o, y, T(1)}, Obb<T>{v, Mat3<T>(T(1)), Vec3<T>(1)}, T(0.1)));
        EXPECT_FALSE(capsuleObbContact(Capsule<T>{o, y, T(1)}, box, bad));
    }
    // Negative radius, reach or half extent: nothing.
    EXPECT_FALSE(capsuleTriangleContact(Capsule<T>{y, T(2) * y, T(-1)}, triangle, T(0.1)));
    EXPECT_FALSE(capsuleTriangleContact(Capsule<T>{y, T(2) * y, T(1)}, triangle, T(-0.1)));
    EXPECT_FALSE(capsuleObbContact(Capsule<T>{o, y, T(-1)}, box, T(0.1)));
    EXPECT_FALSE(
        capsuleObbContact(Capsule<T>{o, y, T(1)}, Obb<T>{o, Mat3<T>(T(1)), Vec3<T>(1, -1, 1)}, T(0.1)));
    // Zero and subnormal radii and heights: exact contacts, finite.
    for (const T radius : {T(0), tiny}) {
        const auto touching = capsuleTriangleContact(
            Capsule<T>{T(0.2) * (x + z), T(0.2) * (x + z) + y, radius}, triangle, T(0));
        ASSERT_TRUE(touching);
        EXPECT_LE(touching->contact.points[0].distance, T(0));
        EXPECT_FALSE(capsuleTriangleContact(
            Capsule<T>{T(0.2) * (x + z) + tiny * y + y, T(0.2) * (x + z) + y, radius}, triangle, T(0)));
        const auto inBox = capsuleObbContact(Capsule<T>{o, o, radius}, box, T(0));
        ASSERT_TRUE(inBox);
        EXPECT_NEAR(inBox->points[0].distance, T(-1), T(1e-6));
    }
    // Huge coordinates: a result or none, never non-finite.
    for (const T scale : {huge, std::sqrt(huge), T(1e-30)}) {
        const Capsule<T> capsule{scale * y, scale * (x + y), scale};
        const auto withTriangle =
            capsuleTriangleContact(capsule, Triangle<T>{o, scale * z, scale * x}, scale);
        if (withTriangle) {
            EXPECT_TRUE(detail::allFinite(withTriangle->contact.normal, withTriangle->contact.points[0].onB,
                                          withTriangle->contact.points[0].distance));
        }
        const auto withBox = capsuleObbContact(capsule, Obb<T>{o, Mat3<T>(T(1)), Vec3<T>(scale)}, scale);
        if (withBox) {
            EXPECT_TRUE(
                detail::allFinite(withBox->normal, withBox->points[0].onB, withBox->points[0].distance));
        }
    }
}

// A capsule and a box at 1e-21, whose squared distances are subnormal in float (fuzz finding of
// capsule_sweep, whose start in contact is this contact): the normal is unit all the same, not the
// offset divided by the root of a square that lost its digits.
TYPED_TEST(CapsuleContacts, TinyApartNormalIsUnit) {
    using T = TypeParam;
    const T s = T(3.48999011494451361033e-21L);
    const Capsule<T> capsule{-Vec3<T>(s, s * T(1e-3), s), Vec3<T>(s, s * T(1e-3), s), s};
    // The fuzz's rotation, made orthonormal in long double.
    RealVec3 x(-0.780170202255249023438L, -0.625551998615264892578L, -0.00438089948147535324097L);
    RealVec3 y(0.013804067857563495636L, -0.024216564372181892395L, 0.999611437320709228516L);
    x = glm::normalize(x);
    y = glm::normalize(y - glm::dot(x, y) * x);
    const Mat3<T> rotation(Vec3<T>(x), Vec3<T>(y), Vec3<T>(glm::cross(x, y)));
    const Obb<T> point{Vec3<T>(s), rotation, Vec3<T>(0)};
    const auto contact = capsuleObbContact(capsule, point, T(0));
    ASSERT_TRUE(contact.has_value());
    EXPECT_NEAR(double(glm::length(widen(contact->normal))), 1.0, 8 * double(unitRoundoff<T>));
}

}  // namespace
}  // namespace analytic
