// SPDX-License-Identifier: Zlib
// The plane tests (plane_tests.hpp) against the long double references of
// reference/plane_reference.hpp on random cases at random scales far from the origin, named edge cases,
// and the regressions of the sample plane code's defects.
#include "analytic/geometry/plane_tests.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <vector>

#include "reference/plane_reference.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::forEachNonFiniteField;
using analytic::test::Random;
using analytic::test::Real;
using analytic::test::RealVec3;
using analytic::test::widen;
namespace ref = analytic::test::plane_reference;

// Errors are measured against the case's scale S: the magnitudes its signed distances add up
// (sum |n_i x_i| + |offset| for the points involved, plus the shape's sizes), in units u of T's rounding.
template <class T> constexpr Real kUnit = Real(unitRoundoff<T>);
// Signed distances, depths, projected radii and ray parameters (as distance along the normal):
// within 8 u of S (float 4.8e-7, double 8.9e-16). Observed: at most 3.2 u.
template <class T> constexpr Real kDistanceBound = 8 * kUnit<T>;
// Points: within 8 u of their own scale P (the length of the position vectors and sizes they are computed
// from, plus |offset|), times the condition of the point: 1 + 1/|cos| of the angle between the normal and
// the ray or edge that is cut; the ratio of largest to smallest radius for an ellipsoid's support point.
template <class T> constexpr Real kPointBound = 8 * kUnit<T>;
// On-plane decisions are compared outside a band around the tolerance boundary: exact distances below
// kBandLow times the tolerance must count as on the plane, above kBandHigh times it as off; cases in
// between are skipped, counted, and must stay below kMaxSkippedFraction of the cases.
template <class T> constexpr Real kTolerance = Real(defaultPlaneTolerance<T>);
constexpr Real kBandLow = 0.5;
constexpr Real kBandHigh = 2;
constexpr double kMaxSkippedFraction = 0.01;
constexpr int kCases = 100000;

template <class T> class PlaneTests : public ::testing::Test {};
TYPED_TEST_SUITE(PlaneTests, analytic::test::Scalars);

// ---- Random cases

// Where a case sits: a size log-uniform in 1e-4 .. 1e6, a centre up to 1000 sizes from the origin.
struct Frame {
    double size;
    Vec3<double> center;
};

Frame randomFrame(Random& random) {
    const double size = random.logUniform(1e-4, 1e6);
    return {size, random.point<double>(size * random.logUniform(1, 1000))};
}

template <class T> Vec3<T> randomPointNear(Random& random, const Frame& frame, double reach) {
    return Vec3<T>(frame.center + frame.size * reach * random.point<double>(1));
}

template <class T> Plane<T> planeThrough(const Vec3<T>& normal, const RealVec3& point) {
    return {normal, T(glm::dot(widen(normal), point))};
}

template <class T> Plane<T> randomPlaneNear(Random& random, const Frame& frame, double reach) {
    return planeThrough(random.unitVector<T>(), widen(randomPointNear<double>(random, frame, reach)));
}

// The point of T nearest to the exact projection of point onto the plane.
template <class T> Vec3<T> projectOnto(const Vec3<T>& point, const Plane<T>& plane) {
    const ref::RealPlane exact = ref::widen(plane);
    const RealVec3 p = widen(point);
    return Vec3<T>(p - ref::signedDistance(p, exact) * exact.normal);
}

// ---- Expected decisions

// Whether an exact distance must count as on the plane (true), must not (false), or may go either way
// (nullopt). slack widens the band by an absolute error of the inputs.
template <class T> std::optional<bool> expectOnPlane(Real distance, Real scale, Real slack = 0) {
    if (std::abs(distance) + slack <= kBandLow * kTolerance<T> * scale) return true;
    if (std::abs(distance) - slack >= kBandHigh * kTolerance<T> * scale) return false;
    return std::nullopt;
}

// The side a point at an exact distance must be on; nullopt, counted in skipped, where it may go either way.
template <class T> std::optional<PlaneSide> expectSide(Real distance, Real scale, int& skipped) {
    const std::optional<bool> on = expectOnPlane<T>(distance, scale);
    if (!on) {
        ++skipped;
        return std::nullopt;
    }
    if (*on) return PlaneSide::On;
    return distance > 0 ? PlaneSide::Front : PlaneSide::Back;
}

// The side a solid whose points' exact distances span [nearest, farthest] must be on; nullopt, counted in
// skipped, where it may go either way.
template <class T>
std::optional<SolidPlaneSide> expectSolidSide(Real nearest, Real farthest, Real scale, int& skipped) {
    const Real low = kBandLow * kTolerance<T> * scale, high = kBandHigh * kTolerance<T> * scale;
    if (nearest >= high) return SolidPlaneSide::Front;
    if (farthest <= -high) return SolidPlaneSide::Back;
    if (nearest <= low && farthest >= -low) return SolidPlaneSide::Crossing;
    ++skipped;
    return std::nullopt;
}

// The skeleton of the random suites: kCases cases from one seeded source, each in a fresh random frame.
// checkCase(random, frame, k, skipped) checks case k, and counts it in skipped where the expected decision
// lies in the band around the tolerance boundary. A fatal failure ends the suite, as it would the test.
template <class CheckCase> void checkRandomCases(std::uint64_t seed, CheckCase checkCase) {
    Random random(seed);
    int skipped = 0;
    for (int k = 0; k < kCases; ++k) {
        checkCase(random, randomFrame(random), k, skipped);
        if (::testing::Test::HasFatalFailure()) return;
    }
    EXPECT_LE(skipped, kMaxSkippedFraction * kCases) << skipped << " of " << kCases << " cases skipped";
}

Real distance(const RealVec3& a, const RealVec3& b) { return glm::length(a - b); }

// ---- Invalid inputs

// Planes that every test must refuse: every non-finite field, and normals that are not unit length.
template <class T, class Check> void forEachInvalidPlane(Check check) {
    const Plane<T> valid{Vec3<T>(0, 0, 1), T(2)};
    forEachNonFiniteField<T>(valid, check);
    check(Plane<T>{Vec3<T>(0, 0, 2), T(2)});
    check(Plane<T>{Vec3<T>(0, 0, 0), T(2)});
    check(Plane<T>{Vec3<T>(0, 0, T(1) + T(1e3) * unitRoundoff<T>), T(2)});
}

template <class T> const Plane<T> kGroundPlane{Vec3<T>(0, 0, 1), T(0)};

// ======== point – plane

TYPED_TEST(PlaneTests, ClassifyPointPlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(601, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        Vec3<T> point = randomPointNear<T>(random, frame, 2);
        if (random.chance(0.25)) point = projectOnto(point, plane);
        const ref::RealPlane exactPlane = ref::widen(plane);
        const Real exact = ref::signedDistance(widen(point), exactPlane);
        const Real scale = ref::distanceScale(widen(point), exactPlane);

        const auto result = classifyPointPlane(point, plane);
        ASSERT_TRUE(result) << "case " << k;
        ASSERT_LE(std::abs(result->signedDistance - exact), kDistanceBound<T> * scale) << "case " << k;
        const std::optional<PlaneSide> side = expectSide<T>(exact, scale, skipped);
        if (!side) return;
        ASSERT_EQ(result->side, *side) << "case " << k << ", exact distance " << double(exact);
    });
}

// Document 002 tests "on the plane" with d == 0: points constructed on a tilted plane far from the origin
// have small non-zero computed distances, and must still be on it.
TYPED_TEST(PlaneTests, RegressionPointOnPlaneIsNotExactZero) {
    using T = TypeParam;
    Random random(602);
    const Plane<T> plane =
        planeThrough(Vec3<T>(glm::normalize(Vec3<double>(1, 2, 3))), RealVec3(1000, -500, 70));
    int nonZero = 0;
    for (int k = 0; k < 1000; ++k) {
        const Vec3<T> point = projectOnto(Vec3<T>(random.point<double>(5000)), plane);
        const auto result = classifyPointPlane(point, plane);
        ASSERT_TRUE(result);
        nonZero += result->signedDistance != T(0);
        EXPECT_EQ(result->side, PlaneSide::On) << "distance " << result->signedDistance;
    }
    EXPECT_GT(nonZero, 100) << "the case must have computed distances that are not exactly 0";
}

// The tolerance scales with the numbers: at size 1e-4 a point 1e-7 off the plane is off it (an absolute
// epsilon such as 1e-5 would call it on), while a point near 1e6 may be off by the rounding of 1e6.
TYPED_TEST(PlaneTests, ClassifyPointPlaneToleranceIsRelativeToScale) {
    using T = TypeParam;
    const Plane<T> tiny{Vec3<T>(0, 0, 1), T(1e-4)};
    EXPECT_EQ(classifyPointPlane(Vec3<T>(T(1e-4), 0, T(1e-4) + T(1e-7)), tiny)->side, PlaneSide::Front);
    EXPECT_EQ(classifyPointPlane(Vec3<T>(T(1e-4), 0, T(1e-4) - T(1e-7)), tiny)->side, PlaneSide::Back);
    EXPECT_EQ(classifyPointPlane(Vec3<T>(T(1e-4), 0, T(1e-4)), tiny)->side, PlaneSide::On);

    const Plane<T> huge{Vec3<T>(0, 0, 1), T(1e6)};
    const T ulp = T(1e6) * std::numeric_limits<T>::epsilon();
    EXPECT_EQ(classifyPointPlane(Vec3<T>(0, 0, T(1e6) + ulp), huge)->side, PlaneSide::On);
    EXPECT_EQ(classifyPointPlane(Vec3<T>(0, 0, T(1e6) + 1000 * ulp), huge)->side, PlaneSide::Front);
    EXPECT_EQ(classifyPointPlane(Vec3<T>(0, 0, T(1e6) - 1000 * ulp), huge)->side, PlaneSide::Back);
}

TYPED_TEST(PlaneTests, ClassifyPointPlaneToleranceParameter) {
    using T = TypeParam;
    const Plane<T> plane{Vec3<T>(0, 1, 0), T(10)};
    const Vec3<T> slightlyAbove(0, T(10) + T(10) * 100 * unitRoundoff<T>, 0);
    EXPECT_EQ(classifyPointPlane(slightlyAbove, plane)->side, PlaneSide::Front);
    EXPECT_EQ(classifyPointPlane(slightlyAbove, plane, 1000 * unitRoundoff<T>)->side, PlaneSide::On);
    EXPECT_EQ(classifyPointPlane(Vec3<T>(0, 10, 0), plane, 0)->side, PlaneSide::On);
    EXPECT_EQ(classifyPointPlane(slightlyAbove, plane, 0)->side, PlaneSide::Front);
    EXPECT_FALSE(classifyPointPlane(slightlyAbove, plane, -1));
    EXPECT_FALSE(classifyPointPlane(slightlyAbove, plane, std::numeric_limits<T>::quiet_NaN()));
    EXPECT_FALSE(classifyPointPlane(slightlyAbove, plane, std::numeric_limits<T>::infinity()));
}

TYPED_TEST(PlaneTests, ClassifyPointPlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane{Vec3<T>(0, 0, 1), T(2)};
    forEachNonFiniteField<T>(Vec3<T>(1, 2, 3),
                             [&](const Vec3<T>& point) { EXPECT_FALSE(classifyPointPlane(point, plane)); });
    forEachInvalidPlane<T>(
        [](const Plane<T>& invalid) { EXPECT_FALSE(classifyPointPlane(Vec3<T>(1, 2, 3), invalid)); });
}

// ======== ray / segment – plane

TYPED_TEST(PlaneTests, IntersectRayPlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(501, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        RayPath<T> ray{randomPointNear<T>(random, frame, 3),
                       Vec3<T>(random.unitVector<double>() * frame.size * random.logUniform(0.1, 10)),
                       random.chance(0.3) ? std::numeric_limits<T>::infinity() : T(random.uniform(0.5, 3))};
        switch (k % 5) {
            case 1:  // origin on the plane
                ray.origin = projectOnto(ray.origin, plane);
                break;
            case 2:  // a segment that ends on the plane
                ray.direction = projectOnto(randomPointNear<T>(random, frame, 3), plane) - ray.origin;
                ray.maxT = 1;
                break;
            case 3: {  // parallel to the plane, half of them in it
                const ref::RealPlane exact = ref::widen(plane);
                const RealVec3 d = widen(ray.direction);
                ray.direction = Vec3<T>(d - glm::dot(d, exact.normal) * exact.normal);
                if (random.chance(0.5)) ray.origin = projectOnto(ray.origin, plane);
                break;
            }
            case 4:  // a segment between two random points
                ray.direction = randomPointNear<T>(random, frame, 3) - ray.origin;
                ray.maxT = 1;
                break;
        }
        if (ray.direction == Vec3<T>(0)) return;

        const ref::RealPlane exactPlane = ref::widen(plane);
        const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
        const Real originScale = ref::distanceScale(origin, exactPlane);
        const Real directionScale = glm::dot(glm::abs(exactPlane.normal), glm::abs(direction));
        const ref::LinePlane line = ref::linePlane(origin, direction, exactPlane);
        const std::optional<bool> originOn =
            expectOnPlane<T>(ref::signedDistance(origin, exactPlane), originScale);
        const std::optional<bool> parallel =
            expectOnPlane<T>(line.approach, directionScale + originScale / Real(ray.maxT));
        if (!originOn || !parallel) {
            ++skipped;
            return;
        }
        const auto result = intersectRayPlane(ray, plane);
        ASSERT_TRUE(result) << "case " << k;
        if (*parallel) {
            ASSERT_EQ(result->outcome, *originOn ? RayPlaneOutcome::InPlane : RayPlaneOutcome::Parallel)
                << "case " << k;
            return;
        }
        const Vec3<T> facingNormal = line.approach < 0 ? plane.normal : -plane.normal;
        if (*originOn) {
            ASSERT_EQ(result->outcome, RayPlaneOutcome::Hit) << "case " << k;
            ASSERT_EQ(result->hit.t, T(0));
            ASSERT_EQ(result->hit.point, ray.origin);
            ASSERT_EQ(result->hit.normal, facingNormal);
            return;
        }
        std::optional<bool> endOn = false;
        bool crossingDecided = true;
        if (std::isfinite(ray.maxT)) {
            // The end in T carries the rounding of origin + maxT direction; whether the crossing lies before
            // the end is decided from the origin, within the rounding of the origin's distance.
            const RealVec3 end = origin + Real(ray.maxT) * direction;
            const Real endDistance = ref::signedDistance(end, exactPlane);
            const Real endScale = ref::distanceScale(end, exactPlane);
            endOn = expectOnPlane<T>(endDistance, endScale,
                                     2 * kUnit<T> * (endScale + Real(ray.maxT) * directionScale));
            crossingDecided =
                std::abs(endDistance) >= 8 * kUnit<T> * (originScale + Real(ray.maxT) * directionScale);
        }
        if (!endOn || (!*endOn && !crossingDecided)) {
            ++skipped;
            return;
        }
        const bool crossing = line.t >= 0 && line.t <= Real(ray.maxT);
        if (!crossing && !*endOn) {
            ASSERT_EQ(result->outcome, RayPlaneOutcome::Miss) << "case " << k << ", t " << double(line.t);
            return;
        }
        ASSERT_EQ(result->outcome, RayPlaneOutcome::Hit) << "case " << k << ", t " << double(line.t);
        const auto& hit = result->hit;
        ASSERT_EQ(hit.normal, facingNormal);
        ASSERT_TRUE(hit.t >= 0 && hit.t <= ray.maxT) << "case " << k;
        const Real hitScale = originScale + std::abs(line.t) * directionScale;
        const Real residual = std::abs(ref::signedDistance(widen(hit.point), exactPlane));
        if (*endOn) {  // the end may be taken instead of the crossing: both are on the plane
            ASSERT_LE(residual, (kBandHigh * kTolerance<T> + kDistanceBound<T>)*hitScale) << "case " << k;
            return;
        }
        ASSERT_LE(std::abs(Real(hit.t) - line.t) * std::abs(line.approach), kDistanceBound<T> * hitScale)
            << "case " << k;
        ASSERT_LE(residual, kDistanceBound<T> * hitScale) << "case " << k;
        const Real condition =
            1 + glm::length(direction) * glm::length(exactPlane.normal) / std::abs(line.approach);
        const Real pointScale =
            glm::length(origin) + std::abs(line.t) * glm::length(direction) + std::abs(exactPlane.offset);
        ASSERT_LE(distance(widen(hit.point), line.point), kPointBound<T> * pointScale * condition)
            << "case " << k;
    });
}

TYPED_TEST(PlaneTests, IntersectRayPlaneSegmentThroughPlane) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const auto down = intersectRayPlane(segmentRay<T, 3>(Vec3<T>(1, 2, 3), Vec3<T>(1, 2, -1)), plane);
    ASSERT_EQ(down->outcome, RayPlaneOutcome::Hit);
    EXPECT_EQ(down->hit.t, T(0.75));
    EXPECT_EQ(down->hit.point, Vec3<T>(1, 2, 0));
    EXPECT_EQ(down->hit.normal, plane.normal) << "comes from the front";
    const auto up = intersectRayPlane(segmentRay<T, 3>(Vec3<T>(1, 2, -1), Vec3<T>(1, 2, 3)), plane);
    ASSERT_EQ(up->outcome, RayPlaneOutcome::Hit);
    EXPECT_EQ(up->hit.t, T(0.25));
    EXPECT_EQ(up->hit.normal, -plane.normal) << "comes from the back: the normal faces its origin";
}

TYPED_TEST(PlaneTests, IntersectRayPlaneMissesBehindAndShort) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    EXPECT_EQ(intersectRayPlane(
                  RayPath<T>{Vec3<T>(0, 0, 1), Vec3<T>(0, 1, 1), std::numeric_limits<T>::infinity()}, plane)
                  ->outcome,
              RayPlaneOutcome::Miss)
        << "plane behind the origin";
    EXPECT_EQ(intersectRayPlane(segmentRay<T, 3>(Vec3<T>(0, 0, 3), Vec3<T>(0, 0, 1)), plane)->outcome,
              RayPlaneOutcome::Miss)
        << "segment too short";
    const auto far = intersectRayPlane(
        RayPath<T>{Vec3<T>(0, 0, 1e6), Vec3<T>(1, 0, -1e-3), std::numeric_limits<T>::infinity()}, plane);
    ASSERT_EQ(far->outcome, RayPlaneOutcome::Hit) << "an unbounded ray reaches the plane far away";
    EXPECT_NEAR(far->hit.t, T(1e9), T(1e9) * 4 * unitRoundoff<T>);
}

// On an unbounded ray the crossing can lie beyond the range of T: a miss, not an infinite point.
TYPED_TEST(PlaneTests, IntersectRayPlaneCrossingBeyondRangeIsMiss) {
    using T = TypeParam;
    const T huge = std::numeric_limits<T>::max() / 4;
    const auto result = intersectRayPlane(
        RayPath<T>{Vec3<T>(0, 0, huge), Vec3<T>(1, 0, T(-1e-6)), std::numeric_limits<T>::infinity()},
        kGroundPlane<T>);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->outcome, RayPlaneOutcome::Miss);
}

// Segments that start or end on the plane (constructed there, so their computed distances are rounding
// noise) hit it at t = 0 or t = 1, whichever way they run: a polyline through a point on the plane
// reports that point from both of its segments (Bullet's triangle raycast misses both).
TYPED_TEST(PlaneTests, IntersectRayPlaneSegmentsStartingOrEndingOnPlane) {
    using T = TypeParam;
    Random random(502);
    for (int k = 0; k < 2000; ++k) {
        const Frame frame = randomFrame(random);
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        const Vec3<T> onPlane = projectOnto(randomPointNear<T>(random, frame, 2), plane);
        const Vec3<T> before = randomPointNear<T>(random, frame, 2),
                      after = randomPointNear<T>(random, frame, 2);
        const auto first = intersectRayPlane(segmentRay<T, 3>(before, onPlane), plane);
        const auto second = intersectRayPlane(segmentRay<T, 3>(onPlane, after), plane);
        ASSERT_TRUE(first && second);
        if (first->outcome == RayPlaneOutcome::Parallel || first->outcome == RayPlaneOutcome::InPlane)
            continue;
        ASSERT_EQ(first->outcome, RayPlaneOutcome::Hit) << "case " << k;
        if (second->outcome == RayPlaneOutcome::InPlane) continue;
        ASSERT_EQ(second->outcome, RayPlaneOutcome::Hit) << "case " << k;
        EXPECT_EQ(second->hit.t, T(0));
        EXPECT_EQ(second->hit.point, onPlane);
        EXPECT_LE(std::abs(ref::signedDistance(widen(first->hit.point), ref::widen(plane))),
                  kBandHigh * kTolerance<T> * ref::distanceScale(widen(onPlane), ref::widen(plane)) +
                      8 * kUnit<T> * ref::distanceScale(widen(before), ref::widen(plane)));
    }
}

// A plane square to an axis: its bounds hold every segment intersectRayPlane reports hitting it, up to 4 u
// of the segment's own coordinates, at every scale, segments ending within the tolerance band short of
// the plane included. A plane at an angle, or an invalid one, gets all of space.
TYPED_TEST(PlaneTests, BoundsOfRayPlaneHitsHoldEverySegmentHittingIt) {
    using T = TypeParam;
    constexpr T infinity = std::numeric_limits<T>::infinity();
    Random random(503);
    int hits = 0, hitsShortOfThePlane = 0;
    for (int k = 0; k < 30000; ++k) {
        const Frame frame = randomFrame(random);
        const int axis = k % 3;
        Vec3<T> normal(0);
        normal[axis] = random.chance(0.5) ? T(1) : T(-1);
        const Plane<T> plane = planeThrough(normal, widen(randomPointNear<double>(random, frame, 1)));
        const Aabb<T> bounds = boundsOfRayPlaneHits(plane);
        const T at = plane.offset * normal[axis];
        for (int other = 1; other < 3; ++other) {
            ASSERT_EQ(bounds.min[(axis + other) % 3], -infinity);
            ASSERT_EQ(bounds.max[(axis + other) % 3], infinity);
        }
        ASSERT_TRUE(bounds.min[axis] <= at && at <= bounds.max[axis]) << "case " << k;
        // From a point near the plane to one moved off it, across the plane's axis, by up to 4 bands.
        const Vec3<T> from = randomPointNear<T>(random, frame, 2);
        Vec3<T> to = projectOnto(randomPointNear<T>(random, frame, 2), plane);
        to[axis] += T(random.uniform(-4, 4) * double(kTolerance<T>) * 2 * std::abs(double(at)));
        const auto crossing = intersectRayPlane(segmentRay<T, 3>(from, to), plane);
        if (!crossing || crossing->outcome != RayPlaneOutcome::Hit) continue;
        ++hits;
        const Real low = std::min(Real(from[axis]), Real(to[axis])),
                   high = std::max(Real(from[axis]), Real(to[axis]));
        hitsShortOfThePlane += high < Real(at) || low > Real(at);
        const Real slack = 4 * kUnit<T> * (std::abs(Real(from[axis])) + std::abs(Real(to[axis])));
        EXPECT_LE(Real(bounds.min[axis]) - slack, high) << "case " << k;
        EXPECT_GE(Real(bounds.max[axis]) + slack, low) << "case " << k;
    }
    EXPECT_GT(hits, 15000);
    EXPECT_GT(hitsShortOfThePlane, 1000);
    for (const Plane<T>& unbounded :
         {Plane<T>{glm::normalize(Vec3<T>(1, 2, 3)), T(5)}, Plane<T>{Vec3<T>(T(0.6), T(0.8), 0), T(-2)}}) {
        const Aabb<T> bounds = boundsOfRayPlaneHits(unbounded);
        EXPECT_EQ(bounds.min, Vec3<T>(-infinity));
        EXPECT_EQ(bounds.max, Vec3<T>(infinity));
    }
}

// Document 002 treats only dp == 0 as parallel. A segment constructed parallel to a tilted plane has a
// computed n . direction of rounding noise: the document then divides by it and reports a miss at some
// huge t, or a "hit" at an arbitrary point when the segment lies in the plane. Ours says Parallel or
// InPlane, and never a NaN.
TYPED_TEST(PlaneTests, RegressionParallelSegmentIsReportedAsParallel) {
    using T = TypeParam;
    Random random(503);
    const Vec3<T> normal(glm::normalize(Vec3<double>(3, -2, 7)));
    int noisyApproach = 0;
    for (int k = 0; k < 1000; ++k) {
        const Plane<T> plane = planeThrough(normal, widen(random.point<double>(100)));
        const Vec3<double> start = random.point<double>(100);
        const Vec3<T> a = projectOnto(Vec3<T>(start), plane);
        const Vec3<T> b = projectOnto(Vec3<T>(start + 100.0 * random.unitVector<double>()), plane);
        const Vec3<T> lift = T(random.uniform(0.5, 2)) * normal;
        noisyApproach += glm::dot(normal, b - a) != T(0);
        const auto inPlane = intersectRayPlane(segmentRay<T, 3>(a, b), plane);
        ASSERT_TRUE(inPlane);
        EXPECT_EQ(inPlane->outcome, RayPlaneOutcome::InPlane) << "case " << k;
        const auto above = intersectRayPlane(segmentRay<T, 3>(a + lift, b + lift), plane);
        ASSERT_TRUE(above);
        EXPECT_EQ(above->outcome, RayPlaneOutcome::Parallel) << "case " << k;
        EXPECT_FALSE(std::isnan(above->hit.t) || std::isnan(inPlane->hit.t));
    }
    EXPECT_GT(noisyApproach, 100) << "the case must have n . direction != 0 in T";
    // A ray of length 0 goes nowhere: parallel, or in the plane.
    EXPECT_EQ(
        intersectRayPlane(RayPath<T>{Vec3<T>(0, 0, 1), Vec3<T>(0, 0, -1), T(0)}, kGroundPlane<T>)->outcome,
        RayPlaneOutcome::Parallel);
    EXPECT_EQ(
        intersectRayPlane(RayPath<T>{Vec3<T>(4, 5, 0), Vec3<T>(0, 0, -1), T(0)}, kGroundPlane<T>)->outcome,
        RayPlaneOutcome::InPlane);
    // Exactly parallel, axis-aligned.
    EXPECT_EQ(
        intersectRayPlane(segmentRay<T, 3>(Vec3<T>(0, 0, 1), Vec3<T>(5, 5, 1)), kGroundPlane<T>)->outcome,
        RayPlaneOutcome::Parallel);
}

TYPED_TEST(PlaneTests, IntersectRayPlaneHugeAndTinyScales) {
    using T = TypeParam;
    for (const double scale : {1e-4, 1e6}) {
        const Vec3<T> normal(glm::normalize(Vec3<double>(1, 1, 1)));
        const Vec3<double> offCenter = Vec3<double>(300, -200, 100) * scale;
        const Plane<T> plane = planeThrough(normal, widen(offCenter));
        const Vec3<T> from(offCenter + Vec3<double>(1, 1, 1) * scale),
            to(offCenter - Vec3<double>(1, 1, 1) * scale);
        const auto result = intersectRayPlane(segmentRay<T, 3>(from, to), plane);
        ASSERT_EQ(result->outcome, RayPlaneOutcome::Hit) << "scale " << scale;
        // The inputs in T are only good to the rounding of their coordinates, u * 374 scale.
        const Real precision = kPointBound<T> * glm::length(widen(offCenter));
        EXPECT_NEAR(result->hit.t, T(0.5), precision / glm::length(widen(to - from)));
        EXPECT_LE(distance(widen(result->hit.point), widen(offCenter)), precision);
    }
}

TYPED_TEST(PlaneTests, IntersectRayPlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const RayPath<T> ray{Vec3<T>(0, 0, 1), Vec3<T>(0, 0, -1), T(2)};
    forEachNonFiniteField<T>(
        ray, [](int index, T value) { return index == 6 && value == std::numeric_limits<T>::infinity(); },
        [&](const RayPath<T>& invalid) { EXPECT_FALSE(intersectRayPlane(invalid, plane)); });
    EXPECT_FALSE(intersectRayPlane(RayPath<T>{Vec3<T>(0, 0, 1), Vec3<T>(0), T(1)}, plane))
        << "zero direction";
    EXPECT_FALSE(intersectRayPlane(RayPath<T>{Vec3<T>(0, 0, 1), Vec3<T>(0, 0, -1), T(-1)}, plane))
        << "negative maxT";
    EXPECT_FALSE(intersectRayPlane(ray, plane, -1)) << "negative tolerance";
    forEachInvalidPlane<T>([&](const Plane<T>& invalid) { EXPECT_FALSE(intersectRayPlane(ray, invalid)); });
}

// ======== sphere – plane

TYPED_TEST(PlaneTests, CollideSpherePlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(701, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        Sphere<T> sphere{randomPointNear<T>(random, frame, 2), T(frame.size * random.logUniform(0.01, 2))};
        if (k % 4 == 0) {  // exactly touching, from the front or the back
            const ref::RealPlane exact = ref::widen(plane);
            const RealVec3 foot = widen(projectOnto(sphere.center, plane));
            sphere.center =
                Vec3<T>(foot + Real(random.chance(0.5) ? 1 : -1) * Real(sphere.radius) * exact.normal);
        }
        const ref::RealPlane exactPlane = ref::widen(plane);
        const RealVec3 center = widen(sphere.center);
        const ref::Support exact = ref::sphereSupport(center, Real(sphere.radius), exactPlane);
        const Real scale = ref::distanceScale(center, exactPlane) + Real(sphere.radius);
        const Real pointScale = glm::length(center) + Real(sphere.radius) + std::abs(exactPlane.offset);

        const auto result = collideSpherePlane(sphere, plane);
        ASSERT_TRUE(result) << "case " << k;
        ASSERT_LE(std::abs(result->span.centerDistance - exact.centerDistance), kDistanceBound<T> * scale);
        ASSERT_EQ(result->span.projectedRadius, sphere.radius);
        ASSERT_LE(std::abs(result->deepest.depth - (exact.projectedRadius - exact.centerDistance)),
                  kDistanceBound<T> * scale);
        ASSERT_EQ(result->deepest.depth, result->span.depth());
        ASSERT_LE(distance(widen(result->deepest.onShape), exact.deepest), kPointBound<T> * pointScale);
        ASSERT_LE(distance(widen(result->deepest.onPlane), center - exact.centerDistance * exactPlane.normal),
                  kPointBound<T> * pointScale);
        ASSERT_EQ(result->normal, plane.normal);
        const auto side = expectSolidSide<T>(exact.centerDistance - exact.projectedRadius,
                                             exact.centerDistance + exact.projectedRadius, scale, skipped);
        if (!side) return;
        ASSERT_EQ(result->span.side(), *side) << "case " << k;
        ASSERT_EQ(result->span.overlapsHalfSpace(), *side != SolidPlaneSide::Front) << "case " << k;
    });
}

TYPED_TEST(PlaneTests, CollideSpherePlaneHalfSpaceContact) {
    using T = TypeParam;
    const Plane<T> plane{Vec3<T>(0, 1, 0), T(2)};
    const auto sinking = collideSpherePlane(Sphere<T>{Vec3<T>(5, 2.5, 1), T(1)}, plane);
    EXPECT_EQ(sinking->span.centerDistance, T(0.5));
    EXPECT_EQ(sinking->span.side(), SolidPlaneSide::Crossing);
    EXPECT_EQ(sinking->deepest.depth, T(0.5));
    EXPECT_EQ(sinking->deepest.onShape, Vec3<T>(5, 1.5, 1));
    EXPECT_EQ(sinking->deepest.onPlane, Vec3<T>(5, 2, 1));
    // The centre behind the plane: the half-space holds the whole sphere and more.
    const auto buried = collideSpherePlane(Sphere<T>{Vec3<T>(0, -2, 0), T(1)}, plane);
    EXPECT_EQ(buried->span.side(), SolidPlaneSide::Back);
    EXPECT_TRUE(buried->span.overlapsHalfSpace());
    EXPECT_EQ(buried->deepest.depth, T(5));
    EXPECT_EQ(buried->deepest.onPlane, Vec3<T>(0, 2, 0));
    const auto clear = collideSpherePlane(Sphere<T>{Vec3<T>(0, 4, 0), T(1)}, plane);
    EXPECT_EQ(clear->span.side(), SolidPlaneSide::Front);
    EXPECT_FALSE(clear->span.overlapsHalfSpace());
    EXPECT_TRUE(clear->span.overlapsHalfSpace(T(1.5))) << "within the margin";
    EXPECT_EQ(clear->deepest.depth, T(-1));
    const auto point = collideSpherePlane(Sphere<T>{Vec3<T>(0, 2, 0), T(0)}, plane);
    EXPECT_EQ(point->span.side(), SolidPlaneSide::Crossing) << "a zero-radius sphere on the plane";
}

TYPED_TEST(PlaneTests, CollideSpherePlaneExactlyTouchingAtEveryScale) {
    using T = TypeParam;
    Random random(702);
    for (const double scale : {1e-4, 1.0, 1e6}) {
        for (int k = 0; k < 1000; ++k) {
            const Plane<T> plane =
                planeThrough(random.unitVector<T>(), widen(random.point<double>(1000 * scale)));
            const T radius = T(scale * random.uniform(0.1, 1));
            const RealVec3 foot = widen(projectOnto(Vec3<T>(random.point<double>(1000 * scale)), plane));
            const Sphere<T> sphere{Vec3<T>(foot + Real(radius) * ref::widen(plane).normal), radius};
            const auto result = collideSpherePlane(sphere, plane);
            ASSERT_TRUE(result);
            EXPECT_EQ(result->span.side(), SolidPlaneSide::Crossing) << "scale " << scale << " case " << k;
            EXPECT_LE(std::abs(result->deepest.depth), result->span.tolerance);
        }
    }
}

TYPED_TEST(PlaneTests, CollideSpherePlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const Sphere<T> sphere{Vec3<T>(0, 0, 1), T(2)};
    forEachNonFiniteField<T>(
        sphere, [&](const Sphere<T>& invalid) { EXPECT_FALSE(collideSpherePlane(invalid, plane)); });
    EXPECT_FALSE(collideSpherePlane(Sphere<T>{Vec3<T>(0, 0, 1), T(-1)}, plane)) << "negative radius";
    forEachInvalidPlane<T>(
        [&](const Plane<T>& invalid) { EXPECT_FALSE(collideSpherePlane(sphere, invalid)); });
    const T huge = std::numeric_limits<T>::max();
    EXPECT_FALSE(collideSpherePlane(Sphere<T>{Vec3<T>(0, 0, -huge), huge}, plane)) << "overflows T";
}

// ======== ellipsoid – plane

TYPED_TEST(PlaneTests, CollideEllipsoidPlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(901, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        Ellipsoid<T> ellipsoid{randomPointNear<T>(random, frame, 2), random.rotation<T>(),
                               Vec3<T>(Vec3<double>(random.logUniform(0.1, 1), random.logUniform(0.1, 1),
                                                    random.logUniform(0.1, 1)) *
                                       frame.size)};
        const ref::RealPlane exactPlane = ref::widen(plane);
        if (k % 4 == 0) {  // exactly touching from the front
            const ref::Support atOrigin = ref::ellipsoidSupport(RealVec3(0), widen(ellipsoid.rotation),
                                                                widen(ellipsoid.radii), exactPlane);
            const RealVec3 foot = widen(projectOnto(ellipsoid.center, plane));
            ellipsoid.center = Vec3<T>(foot + atOrigin.projectedRadius * exactPlane.normal);
        }
        const RealVec3 center = widen(ellipsoid.center), radii = widen(ellipsoid.radii);
        const ref::Support exact =
            ref::ellipsoidSupport(center, widen(ellipsoid.rotation), radii, exactPlane);
        const Real scale = ref::distanceScale(center, exactPlane) + radii.x + radii.y + radii.z;
        const Real pointScale =
            glm::length(center) + radii.x + radii.y + radii.z + std::abs(exactPlane.offset);
        const Real condition = std::max({radii.x, radii.y, radii.z}) / std::min({radii.x, radii.y, radii.z});

        const auto result = collideEllipsoidPlane(ellipsoid, plane);
        ASSERT_TRUE(result) << "case " << k;
        ASSERT_LE(std::abs(result->span.centerDistance - exact.centerDistance), kDistanceBound<T> * scale);
        ASSERT_LE(std::abs(result->span.projectedRadius - exact.projectedRadius), kDistanceBound<T> * scale)
            << "case " << k;
        ASSERT_LE(std::abs(result->deepest.depth - (exact.projectedRadius - exact.centerDistance)),
                  kDistanceBound<T> * scale);
        ASSERT_LE(distance(widen(result->deepest.onShape), exact.deepest),
                  kPointBound<T> * pointScale * condition)
            << "case " << k;
        const RealVec3 exactOnPlane =
            exact.deepest - ref::signedDistance(exact.deepest, exactPlane) * exactPlane.normal;
        ASSERT_LE(distance(widen(result->deepest.onPlane), exactOnPlane),
                  kPointBound<T> * pointScale * condition);
        ASSERT_EQ(result->normal, plane.normal);
        const auto side = expectSolidSide<T>(exact.centerDistance - exact.projectedRadius,
                                             exact.centerDistance + exact.projectedRadius, scale, skipped);
        if (!side) return;
        ASSERT_EQ(result->span.side(), *side) << "case " << k;
    });
}

// The document's axis-aligned test: the plane cuts the ellipsoid iff D^2 <= (n.x a)^2 + (n.y b)^2 + (n.z
// c)^2.
TYPED_TEST(PlaneTests, CollideEllipsoidPlaneAxisAlignedAsDocument) {
    using T = TypeParam;
    const Vec3<T> radii(3, 2, 1);
    const Vec3<T> normal(glm::normalize(Vec3<double>(1, 2, 2)));
    const T projected = std::sqrt(T(9 + 16 + 4)) / 3;  // |(1 * 3, 2 * 2, 2 * 1)| / 3
    for (const T gap : {T(-0.01), T(0.01)}) {
        const Plane<T> plane{normal, -(projected + gap)};
        const auto result = collideEllipsoidPlane(Ellipsoid<T>{Vec3<T>(0), Mat3<T>(1), radii}, plane);
        ASSERT_TRUE(result);
        EXPECT_NEAR(result->span.projectedRadius, projected, 8 * unitRoundoff<T>);
        EXPECT_EQ(result->span.side(), gap < 0 ? SolidPlaneSide::Crossing : SolidPlaneSide::Front);
        // The document's tangent point T = P0 - (N.x a^2, N.y b^2, N.z c^2) / K.
        const Vec3<T> expected = -normal * radii * radii / projected;
        EXPECT_LE(glm::length(result->deepest.onShape - expected), 16 * unitRoundoff<T>);
    }
}

TYPED_TEST(PlaneTests, CollideEllipsoidPlaneRoundIsSphere) {
    using T = TypeParam;
    Random random(902);
    for (int k = 0; k < 1000; ++k) {
        const Plane<T> plane = planeThrough(random.unitVector<T>(), widen(random.point<double>(10)));
        const Vec3<T> center(random.point<double>(10));
        const T radius = T(random.uniform(0.1, 5));
        const auto ellipsoid =
            collideEllipsoidPlane(Ellipsoid<T>{center, random.rotation<T>(), Vec3<T>(radius)}, plane);
        const auto sphere = collideSpherePlane(Sphere<T>{center, radius}, plane);
        EXPECT_NEAR(ellipsoid->span.projectedRadius, radius, 16 * unitRoundoff<T> * radius);
        EXPECT_LE(glm::length(ellipsoid->deepest.onShape - sphere->deepest.onShape),
                  64 * unitRoundoff<T> * 20);
    }
}

// Radii whose squares overflow or underflow T still give finite, accurate answers; zero radii give
// a flat or point ellipsoid.
TYPED_TEST(PlaneTests, CollideEllipsoidPlaneExtremeAndZeroRadii) {
    using T = TypeParam;
    const Vec3<T> normal(glm::normalize(Vec3<double>(1, 2, 2)));
    const Plane<T> plane{normal, 0};
    for (const T scale :
         {std::sqrt(std::numeric_limits<T>::max()) * 4, std::sqrt(std::numeric_limits<T>::min()) / 4}) {
        const Vec3<T> radii = Vec3<T>(3, 2, 1) * scale;
        const auto result = collideEllipsoidPlane(Ellipsoid<T>{Vec3<T>(0), Mat3<T>(1), radii}, plane);
        ASSERT_TRUE(result) << "scale " << scale;
        EXPECT_NEAR(result->span.projectedRadius / scale, std::sqrt(T(29)) / 3, 16 * unitRoundoff<T>);
        EXPECT_NEAR(glm::dot(result->deepest.onShape, normal) / scale, -std::sqrt(T(29)) / 3,
                    16 * unitRoundoff<T>);
    }
    const auto point = collideEllipsoidPlane(Ellipsoid<T>{Vec3<T>(1, 2, 3), Mat3<T>(1), Vec3<T>(0)}, plane);
    ASSERT_TRUE(point);
    EXPECT_EQ(point->span.projectedRadius, T(0));
    EXPECT_EQ(point->deepest.onShape, Vec3<T>(1, 2, 3));
    const auto disc = collideEllipsoidPlane(Ellipsoid<T>{Vec3<T>(0), Mat3<T>(1), Vec3<T>(0, 2, 0)}, plane);
    ASSERT_TRUE(disc);
    EXPECT_NEAR(disc->span.projectedRadius, T(4) / 3, 4 * unitRoundoff<T>);
    EXPECT_NEAR(disc->deepest.onShape.y, T(-2), 4 * unitRoundoff<T>);
}

TYPED_TEST(PlaneTests, CollideEllipsoidPlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const Ellipsoid<T> ellipsoid{Vec3<T>(0, 0, 1), Mat3<T>(1), Vec3<T>(1, 2, 3)};
    forEachNonFiniteField<T>(
        ellipsoid, [&](const Ellipsoid<T>& invalid) { EXPECT_FALSE(collideEllipsoidPlane(invalid, plane)); });
    EXPECT_FALSE(collideEllipsoidPlane(Ellipsoid<T>{Vec3<T>(0), Mat3<T>(1), Vec3<T>(1, -2, 3)}, plane));
    forEachInvalidPlane<T>(
        [&](const Plane<T>& invalid) { EXPECT_FALSE(collideEllipsoidPlane(ellipsoid, invalid)); });
}

// ======== triangle – plane

struct ExpectedCut {
    TrianglePlaneCut kind;
    std::vector<RealVec3> points;
    std::vector<Real> conditions;  // 1 for a vertex, 1 + 1/|cos| for an edge crossing
};

// The cut from the vertices' on-plane flags and exact distances (nullopt when a flag is undecided).
template <class T>
std::optional<ExpectedCut> expectCut(const Triangle<T>& triangle, const ref::RealPlane& plane) {
    const std::array<RealVec3, 3> vertices{widen(triangle.a), widen(triangle.b), widen(triangle.c)};
    std::array<Real, 3> distances;
    std::array<int, 3> sides;  // -1, 0 (on the plane), 1
    for (int i = 0; i < 3; ++i) {
        distances[i] = ref::signedDistance(vertices[i], plane);
        const std::optional<bool> on = expectOnPlane<T>(distances[i], ref::distanceScale(vertices[i], plane));
        if (!on) return std::nullopt;
        sides[i] = *on ? 0 : distances[i] > 0 ? 1 : -1;
    }
    const int onCount = int(std::count(sides.begin(), sides.end(), 0));
    const bool front = std::count(sides.begin(), sides.end(), 1) > 0;
    const bool back = std::count(sides.begin(), sides.end(), -1) > 0;
    ExpectedCut cut{};
    cut.kind = onCount == 3    ? TrianglePlaneCut::Coplanar
               : front && back ? TrianglePlaneCut::Crossing
               : onCount == 2  ? TrianglePlaneCut::EdgeInPlane
               : onCount == 1  ? TrianglePlaneCut::VertexTouch
                               : TrianglePlaneCut::Separated;
    if (cut.kind == TrianglePlaneCut::Coplanar) return cut;
    for (int i = 0; i < 3; ++i) {
        if (sides[i] == 0) {
            cut.points.push_back(vertices[i]);
            cut.conditions.push_back(1);
        }
        for (int j = i + 1; j < 3; ++j) {
            if (sides[i] * sides[j] >= 0) continue;
            cut.points.push_back(ref::edgeCrossing(vertices[i], vertices[j], plane));
            cut.conditions.push_back(1 + glm::length(vertices[j] - vertices[i]) /
                                             std::abs(distances[j] - distances[i]));
        }
    }
    if (cut.kind == TrianglePlaneCut::VertexTouch) {
        cut.points.push_back(cut.points[0]);
        cut.conditions.push_back(1);
    }
    return cut;
}

TYPED_TEST(PlaneTests, IntersectTrianglePlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(1001, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 1);
        std::array<Vec3<T>, 3> vertices{randomPointNear<T>(random, frame, 2),
                                        randomPointNear<T>(random, frame, 2),
                                        randomPointNear<T>(random, frame, 2)};
        for (int i = 0; i < k % 4; ++i)  // 0 to 3 vertices on the plane
            vertices[i] = projectOnto(vertices[i], plane);
        const Triangle<T> triangle{vertices[0], vertices[1], vertices[2]};
        const ref::RealPlane exactPlane = ref::widen(plane);
        const std::optional<ExpectedCut> expected = expectCut(triangle, exactPlane);
        if (!expected || glm::cross(triangle.b - triangle.a, triangle.c - triangle.a) == Vec3<T>(0)) {
            ++skipped;
            return;
        }
        Real scale = 0, pointScale = 0;
        for (const Vec3<T>& vertex : vertices) {
            scale = std::max(scale, ref::distanceScale(widen(vertex), exactPlane));
            pointScale = std::max(pointScale, glm::length(widen(vertex)) + std::abs(exactPlane.offset));
        }

        const auto result = intersectTrianglePlane(triangle, plane);
        ASSERT_TRUE(result) << "case " << k;
        ASSERT_EQ(result->kind, expected->kind) << "case " << k;
        ASSERT_EQ(result->overlaps(), expected->kind != TrianglePlaneCut::Separated);
        for (int i = 0; i < 3; ++i)
            ASSERT_LE(
                std::abs(result->vertexDistances[i] - ref::signedDistance(widen(vertices[i]), exactPlane)),
                kDistanceBound<T> * scale);
        if (expected->points.empty()) return;
        ASSERT_EQ(expected->points.size(), 2u);
        const auto matches = [&](int mine, int theirs) {
            return distance(widen(result->segment[mine]), expected->points[theirs]) <=
                   kPointBound<T> * pointScale * expected->conditions[theirs];
        };
        ASSERT_TRUE((matches(0, 0) && matches(1, 1)) || (matches(0, 1) && matches(1, 0)))
            << "case " << k << ": the cut segment differs from the reference";
    });
}

template <class T>
bool sameSegment(const std::array<Vec3<T>, 2>& segment, const Vec3<T>& a, const Vec3<T>& b) {
    return (segment[0] == a && segment[1] == b) || (segment[0] == b && segment[1] == a);
}

// A plane through one vertex and across the opposite edge: the vertex counts once.
TYPED_TEST(PlaneTests, IntersectTrianglePlaneThroughVertexGivesTwoPoints) {
    using T = TypeParam;
    const auto result = intersectTrianglePlane(
        Triangle<T>{Vec3<T>(0, 0, 0), Vec3<T>(1, -1, 1), Vec3<T>(1, 1, 1)}, Plane<T>{Vec3<T>(0, 1, 0), 0});
    ASSERT_TRUE(result);
    EXPECT_EQ(result->kind, TrianglePlaneCut::Crossing);
    EXPECT_TRUE(sameSegment(result->segment, Vec3<T>(0, 0, 0), Vec3<T>(1, 0, 1)));
}

TYPED_TEST(PlaneTests, IntersectTrianglePlaneTouchAndEdgeAndCoplanar) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const auto touch =
        intersectTrianglePlane(Triangle<T>{Vec3<T>(1, 2, 0), Vec3<T>(3, 2, 1), Vec3<T>(1, 4, 2)}, plane);
    EXPECT_EQ(touch->kind, TrianglePlaneCut::VertexTouch);
    EXPECT_EQ(touch->segment[0], Vec3<T>(1, 2, 0));
    EXPECT_EQ(touch->segment[1], Vec3<T>(1, 2, 0));
    const auto edge =
        intersectTrianglePlane(Triangle<T>{Vec3<T>(1, 2, 0), Vec3<T>(3, 2, -1), Vec3<T>(1, 4, 0)}, plane);
    EXPECT_EQ(edge->kind, TrianglePlaneCut::EdgeInPlane);
    EXPECT_TRUE(edge->overlaps());
    EXPECT_TRUE(sameSegment(edge->segment, Vec3<T>(1, 2, 0), Vec3<T>(1, 4, 0)));
    const auto flat =
        intersectTrianglePlane(Triangle<T>{Vec3<T>(1, 2, 0), Vec3<T>(3, 2, 0), Vec3<T>(1, 4, 0)}, plane);
    EXPECT_EQ(flat->kind, TrianglePlaneCut::Coplanar);
    const auto clear =
        intersectTrianglePlane(Triangle<T>{Vec3<T>(1, 2, 1), Vec3<T>(3, 2, 1), Vec3<T>(1, 4, 2)}, plane);
    EXPECT_EQ(clear->kind, TrianglePlaneCut::Separated);
    EXPECT_FALSE(clear->overlaps());
}

// Document 002's triangle test uses exact comparisons (dp > 0, dp1 - dp0 == 0). A triangle whose vertex
// was constructed on a tilted plane far from the origin has a computed distance of rounding noise at
// that vertex: it must touch (or be cut through that vertex) all the same, with no duplicate or missing
// cut point, and a coplanar triangle must be coplanar.
TYPED_TEST(PlaneTests, RegressionTriangleVertexOnPlaneIsNotExactZero) {
    using T = TypeParam;
    Random random(1002);
    const Vec3<T> normal(glm::normalize(Vec3<double>(2, -3, 5)));
    int nonZero = 0;
    for (int k = 0; k < 1000; ++k) {
        const Plane<T> plane = planeThrough(normal, widen(random.point<double>(1e4)));
        const Vec3<T> onPlane = projectOnto(Vec3<T>(random.point<double>(1e4)), plane);
        nonZero += glm::dot(normal, onPlane) - plane.offset != T(0);
        const Vec3<T> up = T(random.uniform(1, 10)) * normal, along(random.point<double>(10));
        const Vec3<T> across = projectOnto(onPlane + along, plane) - onPlane;
        const auto touch =
            intersectTrianglePlane(Triangle<T>{onPlane, onPlane + up + across, onPlane + up - across}, plane);
        ASSERT_TRUE(touch);
        EXPECT_EQ(touch->kind, TrianglePlaneCut::VertexTouch) << "case " << k;
        const auto through =
            intersectTrianglePlane(Triangle<T>{onPlane, onPlane + up + across, onPlane - up + across}, plane);
        ASSERT_TRUE(through);
        EXPECT_EQ(through->kind, TrianglePlaneCut::Crossing) << "case " << k;
        EXPECT_TRUE(through->segment[0] == onPlane || through->segment[1] == onPlane) << "case " << k;
        EXPECT_NE(through->segment[0], through->segment[1]) << "case " << k;
        const Vec3<T> elsewhere(random.point<double>(10));
        const auto flat = intersectTrianglePlane(Triangle<T>{onPlane, projectOnto(onPlane + elsewhere, plane),
                                                             projectOnto(onPlane + up + across, plane)},
                                                 plane);
        ASSERT_TRUE(flat);
        EXPECT_EQ(flat->kind, TrianglePlaneCut::Coplanar) << "case " << k;
    }
    EXPECT_GT(nonZero, 100) << "the case must have computed distances that are not exactly 0";
}

// Two triangles of a mesh that share an edge crossing the plane get bit-identical cut points on it,
// whichever way round each triangle lists the edge, so the cut polylines of a mesh close.
TYPED_TEST(PlaneTests, IntersectTrianglePlaneSharedEdgeGivesSamePoint) {
    using T = TypeParam;
    Random random(1003);
    int compared = 0;
    for (int k = 0; k < 10000; ++k) {
        const Frame frame = randomFrame(random);
        const Plane<T> plane = randomPlaneNear<T>(random, frame, 0.1);
        const Vec3<T> p = randomPointNear<T>(random, frame, 1), q = randomPointNear<T>(random, frame, 1);
        const Vec3<T> left = randomPointNear<T>(random, frame, 1),
                      right = randomPointNear<T>(random, frame, 1);
        const PlaneSide sideP = classifyPointPlane(p, plane)->side,
                        sideQ = classifyPointPlane(q, plane)->side;
        if (sideP == PlaneSide::On || sideQ == PlaneSide::On || sideP == sideQ) continue;
        const auto one = intersectTrianglePlane(Triangle<T>{p, q, left}, plane);
        const auto other = intersectTrianglePlane(Triangle<T>{q, p, right}, plane);
        ASSERT_TRUE(one && other);
        ASSERT_EQ(one->kind, TrianglePlaneCut::Crossing);
        ASSERT_EQ(other->kind, TrianglePlaneCut::Crossing);
        // The cut point on the shared edge is the one nearer to its line.
        const auto onSharedEdge = [&](const TrianglePlaneIntersection<T>& cut) {
            const auto offLine = [&](const Vec3<T>& x) {
                return glm::length(glm::cross(widen(x) - widen(p), widen(q) - widen(p)));
            };
            return offLine(cut.segment[0]) < offLine(cut.segment[1]) ? cut.segment[0] : cut.segment[1];
        };
        EXPECT_EQ(onSharedEdge(*one), onSharedEdge(*other)) << "case " << k;
        ++compared;
    }
    EXPECT_GT(compared, 1000);
}

TYPED_TEST(PlaneTests, IntersectTrianglePlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const Triangle<T> triangle{Vec3<T>(0, 0, -1), Vec3<T>(1, 0, 1), Vec3<T>(0, 1, 1)};
    forEachNonFiniteField<T>(
        triangle, [&](const Triangle<T>& invalid) { EXPECT_FALSE(intersectTrianglePlane(invalid, plane)); });
    EXPECT_FALSE(
        intersectTrianglePlane(Triangle<T>{Vec3<T>(0, 0, -1), Vec3<T>(0, 0, 1), Vec3<T>(0, 0, 3)}, plane))
        << "zero area";
    EXPECT_FALSE(
        intersectTrianglePlane(Triangle<T>{Vec3<T>(0, 0, -1), Vec3<T>(0, 0, -1), Vec3<T>(0, 1, 1)}, plane))
        << "repeated vertex";
    forEachInvalidPlane<T>(
        [&](const Plane<T>& invalid) { EXPECT_FALSE(intersectTrianglePlane(triangle, invalid)); });
}

// ======== AABB – plane

TYPED_TEST(PlaneTests, ClassifyAabbPlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(1101, [](Random& random, const Frame& frame, int k, int& skipped) {
        const Vec3<T> min = randomPointNear<T>(random, frame, 2);
        Vec3<double> extents;
        for (int i = 0; i < 3; ++i)
            extents[i] = random.chance(0.1) ? 0 : frame.size * random.logUniform(0.01, 2);
        const Aabb<T> box{min, Vec3<T>(Vec3<double>(min) + extents)};
        Vec3<T> normal = random.unitVector<T>();
        if (k % 5 == 0) {  // axis-aligned planes
            normal = Vec3<T>(0);
            normal[k / 5 % 3] = random.chance(0.5) ? 1 : -1;
        }
        Plane<T> plane = planeThrough(normal, widen(randomPointNear<double>(random, frame, 2)));
        if (k % 3 == 0) {  // touching the nearest or the farthest corner
            const auto byDistance = ref::aabbCorners(widen(box.min), widen(box.max), ref::widen(plane));
            plane =
                planeThrough(normal, random.chance(0.5) ? byDistance.front().point : byDistance.back().point);
        }
        const ref::RealPlane exactPlane = ref::widen(plane);
        const auto corners = ref::aabbCorners(widen(box.min), widen(box.max), exactPlane);
        Real scale = 0;
        for (const ref::Corner& corner : corners)
            scale = std::max(scale, ref::distanceScale(corner.point, exactPlane));
        const Real nearest = corners.front().distance, farthest = corners.back().distance;

        const auto result = classifyAabbPlane(box, plane);
        ASSERT_TRUE(result) << "case " << k;
        const Real rounding = 8 * std::numeric_limits<Real>::epsilon() * scale;
        ASSERT_LE(ref::signedDistance(widen(result->nearestVertex), exactPlane), nearest + rounding)
            << "case " << k;
        ASSERT_GE(ref::signedDistance(widen(result->farthestVertex), exactPlane), farthest - rounding)
            << "case " << k;
        ASSERT_LE(std::abs(result->span.nearestDistance() - nearest), kDistanceBound<T> * scale)
            << "case " << k;
        ASSERT_LE(std::abs(result->span.farthestDistance() - farthest), kDistanceBound<T> * scale)
            << "case " << k;
        const auto side = expectSolidSide<T>(nearest, farthest, scale, skipped);
        if (!side) return;
        ASSERT_EQ(result->span.side(), *side) << "case " << k;
    });
}

TYPED_TEST(PlaneTests, ClassifyAabbPlaneVerticesAndTouching) {
    using T = TypeParam;
    const Aabb<T> box{Vec3<T>(1, 2, 3), Vec3<T>(2, 4, 6)};
    const auto tilted = classifyAabbPlane(box, Plane<T>{Vec3<T>(0.6, -0.8, 0), T(0)});
    ASSERT_TRUE(tilted);
    EXPECT_EQ(tilted->nearestVertex, Vec3<T>(1, 4, 3));
    EXPECT_EQ(tilted->farthestVertex, Vec3<T>(2, 2, 6));
    EXPECT_NEAR(tilted->span.nearestDistance(), T(0.6 - 3.2), 8 * unitRoundoff<T>);
    EXPECT_NEAR(tilted->span.farthestDistance(), T(1.2 - 1.6), 8 * unitRoundoff<T>);
    EXPECT_EQ(tilted->span.side(), SolidPlaneSide::Back);
    // Planes touching a face from either side cross (touch) the box.
    for (const T offset : {T(3), T(6)})
        EXPECT_EQ(classifyAabbPlane(box, Plane<T>{Vec3<T>(0, 0, 1), offset})->span.side(),
                  SolidPlaneSide::Crossing);
    EXPECT_EQ(classifyAabbPlane(box, Plane<T>{Vec3<T>(0, 0, -1), T(-6.5)})->span.side(),
              SolidPlaneSide::Front);
    EXPECT_EQ(classifyAabbPlane(box, Plane<T>{Vec3<T>(0, 0, 1), T(6.5)})->span.side(), SolidPlaneSide::Back);
    const auto flat =
        classifyAabbPlane(Aabb<T>{Vec3<T>(1, 2, 3), Vec3<T>(2, 4, 3)}, Plane<T>{Vec3<T>(0, 0, 1), T(3)});
    EXPECT_EQ(flat->span.side(), SolidPlaneSide::Crossing) << "a flat box in the plane";
}

TYPED_TEST(PlaneTests, ClassifyAabbPlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const Aabb<T> box{Vec3<T>(-1), Vec3<T>(1)};
    forEachNonFiniteField<T>(
        box, [&](const Aabb<T>& invalid) { EXPECT_FALSE(classifyAabbPlane(invalid, plane)); });
    EXPECT_FALSE(classifyAabbPlane(Aabb<T>{Vec3<T>(0, 0, 1), Vec3<T>(1, 1, 0)}, plane)) << "min > max";
    forEachInvalidPlane<T>([&](const Plane<T>& invalid) { EXPECT_FALSE(classifyAabbPlane(box, invalid)); });
    const T huge = std::numeric_limits<T>::max();
    const auto widest = classifyAabbPlane(Aabb<T>{Vec3<T>(-huge), Vec3<T>(huge)}, plane);
    ASSERT_TRUE(widest) << "halving before adding keeps the widest box finite";
    EXPECT_EQ(widest->span.centerDistance, T(0));
}

// ======== OBB – plane

// The box's corners split into those that must be contacts (distance <= margin, with the band), those
// that may be, and those that must not.
template <class T> struct ExpectedBoxContacts {
    std::array<ref::Corner, 8> corners;  // deepest first
    std::array<std::optional<bool>, 8> inContact;
};

template <class T> ExpectedBoxContacts<T> expectBoxContacts(const Obb<T>& box, const ref::RealPlane& plane,
                                                            T margin, Real scale) {
    const Mat3<Real> rotation = widen(box.rotation);
    const RealVec3 half = widen(box.halfExtents);
    ExpectedBoxContacts<T> expected{
        ref::boxCorners(widen(box.center), {half.x * rotation[0], half.y * rotation[1], half.z * rotation[2]},
                        plane),
        {}};
    for (int k = 0; k < 8; ++k)
        expected.inContact[k] =
            expectOnPlane<T>(std::max(Real(0), expected.corners[k].distance - Real(margin)), scale);
    return expected;
}

// Checks the contact points against the expected corners; false with a message on the first mismatch.
template <class T>::testing::AssertionResult contactsMatch(const BoxPlaneContact<T>& result,
                                                           const ExpectedBoxContacts<T>& expected,
                                                           const ref::RealPlane& plane, Real scale,
                                                           Real pointScale) {
    if (result.pointCount < 0 || result.pointCount > 4)
        return ::testing::AssertionFailure() << result.pointCount << " points";
    std::array<bool, 8> returned{};
    for (int p = 0; p < result.pointCount; ++p) {
        const PlaneContactPoint<T>& point = result.points[p];
        if (p > 0 && point.depth > result.points[p - 1].depth)
            return ::testing::AssertionFailure() << "point " << p << " is deeper than the one before";
        int match = -1;
        for (int k = 0; k < 8; ++k)
            if (!returned[k] &&
                distance(widen(point.onShape), expected.corners[k].point) <= kPointBound<T> * pointScale)
                match = k;
        if (match < 0) return ::testing::AssertionFailure() << "point " << p << " is no corner";
        returned[match] = true;
        if (expected.inContact[match] == false)
            return ::testing::AssertionFailure() << "point " << p << " is too far from the plane";
        if (std::abs(point.depth + expected.corners[match].distance) > kDistanceBound<T> * scale)
            return ::testing::AssertionFailure() << "point " << p << " has a wrong depth";
        const RealVec3 foot = expected.corners[match].point - expected.corners[match].distance * plane.normal;
        if (distance(widen(point.onPlane), foot) > kPointBound<T> * pointScale)
            return ::testing::AssertionFailure() << "point " << p << " has a wrong point on the plane";
    }
    // No contact corner is left out, unless four deeper ones (up to rounding) were returned.
    for (int k = 0; k < 8; ++k) {
        if (returned[k] || expected.inContact[k] != true) continue;
        if (result.pointCount < 4)
            return ::testing::AssertionFailure() << "corner " << k << " is missing of " << result.pointCount;
        if (-result.points[3].depth > expected.corners[k].distance + kDistanceBound<T> * scale)
            return ::testing::AssertionFailure() << "corner " << k << " is deeper than a returned one";
    }
    return ::testing::AssertionSuccess();
}

TYPED_TEST(PlaneTests, CollideObbPlaneMatchesReference) {
    using T = TypeParam;
    checkRandomCases(1201, [](Random& random, const Frame& frame, int k, int& skipped) {
        Obb<T> box{randomPointNear<T>(random, frame, 2), random.rotation<T>(), Vec3<T>(0)};
        for (int i = 0; i < 3; ++i)
            box.halfExtents[i] = T(random.chance(0.05) ? 0 : frame.size * random.logUniform(0.05, 1));
        Vec3<T> normal = random.unitVector<T>();
        const int axis = k / 3 % 3;
        if (k % 3 == 1) {  // a face parallel to the plane
            normal = (random.chance(0.5) ? T(1) : T(-1)) * box.rotation[axis];
        } else if (k % 3 == 2) {  // an edge parallel to the plane
            const double angle = random.uniform(0, 2 * M_PI);
            normal = Vec3<T>(Real(std::cos(angle)) * widen(box.rotation[(axis + 1) % 3]) +
                             Real(std::sin(angle)) * widen(box.rotation[(axis + 2) % 3]));
        }
        const RealVec3 exactNormal = widen(normal), center = widen(box.center);
        const RealVec3 half = widen(box.halfExtents);
        const Mat3<Real> rotation = widen(box.rotation);
        Real projectedRadius = 0;
        for (int i = 0; i < 3; ++i)
            projectedRadius += half[i] * std::abs(glm::dot(exactNormal, rotation[i]));
        // Resting on the plane (a face, an edge or a corner on it), sunk into it, or anywhere near.
        const double depth = random.chance(0.4) ? 0 : frame.size * random.uniform(-1, 3);
        const Plane<T> plane = planeThrough(normal, center - (projectedRadius - Real(depth)) * exactNormal);
        const T margin = random.chance(0.5) ? T(0) : T(frame.size * random.uniform(0, 0.3));

        const ref::RealPlane exactPlane = ref::widen(plane);
        const Real scale = ref::distanceScale(center, exactPlane) + half.x + half.y + half.z;
        const Real pointScale = glm::length(center) + half.x + half.y + half.z + std::abs(exactPlane.offset);
        const ExpectedBoxContacts<T> expected = expectBoxContacts(box, exactPlane, margin, scale);
        const auto result = collideObbPlane(box, plane, margin);
        ASSERT_TRUE(result) << "case " << k;
        ASSERT_LE(std::abs(result->span.nearestDistance() - expected.corners.front().distance),
                  kDistanceBound<T> * scale)
            << "case " << k;
        ASSERT_LE(std::abs(result->span.farthestDistance() - expected.corners.back().distance),
                  kDistanceBound<T> * scale)
            << "case " << k;
        ASSERT_EQ(result->normal, plane.normal);
        ASSERT_TRUE(contactsMatch(*result, expected, exactPlane, scale, pointScale)) << "case " << k;
        const auto side = expectSolidSide<T>(expected.corners.front().distance,
                                             expected.corners.back().distance, scale, skipped);
        if (!side) return;
        ASSERT_EQ(result->span.side(), *side) << "case " << k;
    });
}

// A box resting on a face, an edge or a corner gives 4, 2 or 1 points in one pass, at every scale and
// orientation, far from the origin.
TYPED_TEST(PlaneTests, CollideObbPlaneRestingGivesFaceEdgeCorner) {
    using T = TypeParam;
    Random random(1202);
    for (int k = 0; k < 3000; ++k) {
        const Frame frame = randomFrame(random);
        const Obb<T> box{
            randomPointNear<T>(random, frame, 1), random.rotation<T>(),
            Vec3<T>(Vec3<double>(random.uniform(0.2, 1), random.uniform(0.2, 1), random.uniform(0.2, 1)) *
                    frame.size)};
        const int axis = k % 3;
        const std::array<RealVec3, 3> axes{widen(box.rotation[0]), widen(box.rotation[1]),
                                           widen(box.rotation[2])};
        const auto tilt = [&] { return Real((random.chance(0.5) ? 1 : -1) * random.uniform(0.2, 1)); };
        // Facing a face; tilted about one axis only (an edge); tilted about all (a corner).
        const std::array<Vec3<T>, 3> normals{
            box.rotation[axis], Vec3<T>(glm::normalize(tilt() * axes[axis] + tilt() * axes[(axis + 1) % 3])),
            Vec3<T>(glm::normalize(tilt() * axes[0] + tilt() * axes[1] + tilt() * axes[2]))};
        for (int resting = 0; resting < 3; ++resting) {
            const Vec3<T> normal = normals[resting];
            const RealVec3 exactNormal = widen(normal);
            Real projectedRadius = 0;
            for (int i = 0; i < 3; ++i)
                projectedRadius += Real(box.halfExtents[i]) * std::abs(glm::dot(exactNormal, axes[i]));
            const Plane<T> plane = planeThrough(normal, widen(box.center) - projectedRadius * exactNormal);
            const auto result = collideObbPlane(box, plane);
            ASSERT_TRUE(result);
            EXPECT_EQ(result->pointCount, (std::array{4, 2, 1}[resting]))
                << "case " << k << ", resting " << resting;
            for (int p = 0; p < result->pointCount; ++p)
                EXPECT_LE(std::abs(result->points[p].depth), result->span.tolerance);
        }
    }
}

// A wide flat box lying on its broad face near the origin: the rounding of its rotation tilts the broad
// axes by about u, which moves the far corners by u times the width, so the touching tolerance must grow
// with the box's size and not only with its distance from the origin.
TYPED_TEST(PlaneTests, CollideObbPlaneWideFlatBoxRestingNearOrigin) {
    using T = TypeParam;
    Random random(1203);
    for (int k = 0; k < 1000; ++k) {
        const double scale = random.logUniform(1e-4, 1e6);
        const Obb<T> box{Vec3<T>(0), random.rotation<T>(),
                         Vec3<T>(T(1000 * scale), T(1000 * scale), T(scale))};
        const Vec3<T> normal = box.rotation[2];
        const Plane<T> plane{normal, T(-Real(box.halfExtents.z) * glm::dot(widen(normal), widen(normal)))};
        const auto result = collideObbPlane(box, plane);
        ASSERT_TRUE(result);
        EXPECT_EQ(result->pointCount, 4) << "case " << k;
    }
}

// Sunk below its own height: all eight corners are behind the plane, and the four deepest (the bottom face)
// are returned; the margin adds corners in front of the plane with negative depth.
TYPED_TEST(PlaneTests, CollideObbPlaneDeepAndMargin) {
    using T = TypeParam;
    const Obb<T> box{Vec3<T>(10, 20, 0), Mat3<T>(1), Vec3<T>(2, 3, 1)};
    const auto deep = collideObbPlane(box, Plane<T>{Vec3<T>(0, 0, 1), T(5)});
    ASSERT_EQ(deep->pointCount, 4);
    for (int p = 0; p < 4; ++p) {
        EXPECT_EQ(deep->points[p].onShape.z, T(-1));
        EXPECT_EQ(deep->points[p].depth, T(6));
        EXPECT_EQ(deep->points[p].onPlane.z, T(5));
    }
    EXPECT_EQ(deep->span.depth(), T(6));
    EXPECT_EQ(deep->span.side(), SolidPlaneSide::Back);

    const Plane<T> below{Vec3<T>(0, 0, 1), T(-1.5)};
    EXPECT_EQ(collideObbPlane(box, below)->pointCount, 0) << "hovering 0.5 above";
    const auto withMargin = collideObbPlane(box, below, T(0.6));
    ASSERT_EQ(withMargin->pointCount, 4);
    EXPECT_EQ(withMargin->points[0].depth, T(-0.5));
    EXPECT_EQ(withMargin->span.side(), SolidPlaneSide::Front);

    // Tilted 45 degrees about y onto an edge, then sunk: one edge under, then the four deepest.
    const T s = std::sqrt(T(0.5));
    const Obb<T> tilted{Vec3<T>(0), Mat3<T>(Vec3<T>(s, 0, -s), Vec3<T>(0, 1, 0), Vec3<T>(s, 0, s)),
                        Vec3<T>(1)};
    const T reach = 2 * s;
    EXPECT_EQ(collideObbPlane(tilted, Plane<T>{Vec3<T>(0, 0, 1), -reach + T(0.1)})->pointCount, 2);
    EXPECT_EQ(collideObbPlane(tilted, Plane<T>{Vec3<T>(0, 0, 1), T(0.1)})->pointCount, 4);
    EXPECT_EQ(collideObbPlane(tilted, Plane<T>{Vec3<T>(0, 0, 1), reach + T(1)})->pointCount, 4);
}

// The contact writer's form: the points handed over once, exactly collideObbPlane's (bit for bit), and
// nothing where collideObbPlane gives no result.
TYPED_TEST(PlaneTests, FindObbPlaneContactsHandsCollideObbPlanesPoints) {
    using T = TypeParam;
    const auto check = [](const Obb<T>& box, const Plane<T>& plane, T margin) -> ::testing::AssertionResult {
        int calls = 0;
        std::vector<PlaneContactPoint<T>> handed;
        const auto span =
            findObbPlaneContacts(box, plane, margin, [&](std::span<const PlaneContactPoint<T>> points) {
                ++calls;
                handed.assign(points.begin(), points.end());
            });
        const auto result = collideObbPlane(box, plane, margin);
        if (bool(span) != bool(result)) return ::testing::AssertionFailure() << "a result from one form only";
        if (calls != (span ? 1 : 0)) return ::testing::AssertionFailure() << calls << " hand-overs";
        if (!result) return ::testing::AssertionSuccess();
        if (std::memcmp(&*span, &result->span, sizeof *span) != 0)
            return ::testing::AssertionFailure() << "another span";
        if (int(handed.size()) != result->pointCount) return ::testing::AssertionFailure() << "another count";
        for (std::size_t p = 0; p < handed.size(); ++p)
            if (std::memcmp(&handed[p], &result->points[p], sizeof handed[p]) != 0)
                return ::testing::AssertionFailure() << "point " << p << " differs";
        return ::testing::AssertionSuccess();
    };
    Random random(1204);
    for (int k = 0; k < 2000; ++k) {
        const Obb<T> box{random.point<T>(10), random.rotation<T>(),
                         Vec3<T>(T(random.uniform(0, 2)), T(random.uniform(0, 2)), T(random.uniform(0, 2)))};
        const Plane<T> plane = planeThrough(random.unitVector<T>(), widen(box.center + random.point<T>(2)));
        ASSERT_TRUE(check(box, plane, T(random.uniform(0, 0.5)))) << "case " << k;
    }
    const Obb<T> box{Vec3<T>(0, 0, 1), Mat3<T>(1), Vec3<T>(1, 2, 3)};
    forEachNonFiniteField<T>(
        box, [&](const Obb<T>& invalid) { EXPECT_TRUE(check(invalid, kGroundPlane<T>, T(0))); });
    forEachInvalidPlane<T>([&](const Plane<T>& invalid) { EXPECT_TRUE(check(box, invalid, T(0))); });
    EXPECT_TRUE(check(box, kGroundPlane<T>, T(-1)));
    const T huge = std::numeric_limits<T>::max();
    EXPECT_TRUE(check(Obb<T>{Vec3<T>(huge / 2, 0, 0), Mat3<T>(1), Vec3<T>(huge / 2 + huge / 4, 1, 1)},
                      kGroundPlane<T>, T(0)));
}

TYPED_TEST(PlaneTests, CollideObbPlaneRejectsInvalidInput) {
    using T = TypeParam;
    const Plane<T> plane = kGroundPlane<T>;
    const Obb<T> box{Vec3<T>(0, 0, 1), Mat3<T>(1), Vec3<T>(1, 2, 3)};
    forEachNonFiniteField<T>(box,
                             [&](const Obb<T>& invalid) { EXPECT_FALSE(collideObbPlane(invalid, plane)); });
    EXPECT_FALSE(collideObbPlane(Obb<T>{Vec3<T>(0), Mat3<T>(1), Vec3<T>(1, -2, 3)}, plane))
        << "negative extent";
    EXPECT_FALSE(collideObbPlane(box, plane, T(-1))) << "negative margin";
    EXPECT_FALSE(collideObbPlane(box, plane, std::numeric_limits<T>::quiet_NaN()));
    EXPECT_FALSE(collideObbPlane(box, plane, std::numeric_limits<T>::infinity()));
    forEachInvalidPlane<T>([&](const Plane<T>& invalid) { EXPECT_FALSE(collideObbPlane(box, invalid)); });
    const T huge = std::numeric_limits<T>::max();
    EXPECT_FALSE(collideObbPlane(Obb<T>{Vec3<T>(0, 0, -huge), Mat3<T>(1), Vec3<T>(huge)}, plane))
        << "overflows T";
    const Obb<T> reachingBeyond{Vec3<T>(huge / 2, 0, 0), Mat3<T>(1), Vec3<T>(huge / 2 + huge / 4, 1, 1)};
    EXPECT_FALSE(collideObbPlane(reachingBeyond, plane)) << "a corner beyond the range of T";
}

}  // namespace
