// SPDX-License-Identifier: Zlib
// Ray vs AABB and OBB: random cases against the long double slab reference, named edge
// cases, and regressions for the defects of the sample slab code.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <iostream>
#include <limits>
#include <optional>
#include <string>

#include "analytic/geometry/ray_box.hpp"
#include "reference/ray_box_reference.hpp"
#include "support/agreement.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Agreement;
using test::Real;
using test::RealVec3;
using test::text;
using test::widen;
namespace ref = test::reference;

// Stated bounds. u is the scalar's unit roundoff; L = |origin - box centre| + |half extents| is the
// scale of a case.
// Tangency band: hit/miss must match the reference unless moving the box's faces or the ray's end
// points by kBandUlps * u * L changes the reference's answer (then it is counted as skipped; at most
// kMaxSkippedFraction of the cases may be). Faces the ray is exactly parallel to are not moved: the
// core decides those exactly (by the sign of plane - origin).
constexpr Real kBandUlps = 64;
// Entry and exit: the error of the point measured along the face normal, |dt| |direction . n|, is at
// most kDistanceUlps * u * L (n: the reported or the reference normal, whichever is more grazing).
// Points may also carry the rounding of their own coordinates: 4 u |point|. Normals are exact (a unit
// axis or a rotation column) unless the entry or exit point lies within band / sin(angle between ray
// and face) of an edge (moving the ray by the band moves the point that far along the face).
constexpr Real kDistanceUlps = 16;
constexpr int kRandomCases = 100000;
constexpr double kMaxSkippedFraction = 0.02;

template <class T> class RayBoxTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayBoxTest, test::Scalars);

constexpr double kInfinity = std::numeric_limits<double>::infinity();
template <class T> constexpr T unbounded = std::numeric_limits<T>::infinity();

template <class T> std::string text(const Aabb<T>& box) {
    return "aabb " + text(box.min) + " .. " + text(box.max);
}

template <class T> std::string text(const Obb<T>& box) {
    return "obb centre " + text(box.center) + " axes " + text(box.rotation[0]) + text(box.rotation[1]) +
           text(box.rotation[2]) + " half " + text(box.halfExtents);
}

Real caseScale(const ref::SlabBox& box, const RealVec3& origin) {
    RealVec3 centre = box.center;
    Real halfSquared = 0;
    for (int axis = 0; axis < 3; ++axis) {
        centre += box.axes[axis] * ((box.low[axis] + box.high[axis]) / 2);
        const Real half = (box.high[axis] - box.low[axis]) / 2;
        halfSquared += half * half;
    }
    return glm::length(origin - centre) + std::sqrt(halfSquared);
}

template <class T> void compareFace(const SurfaceHit<T>& hit, const ref::SlabBox& slabs,
                                    const RealVec3& origin, const RealVec3& direction, Real referenceT,
                                    int referenceAxis, bool referenceHigh, Real scale, Agreement& agreement,
                                    const char* which) {
    const Real u = unitRoundoff<T>;
    const RealVec3 referenceNormal = ref::faceNormal(slabs, referenceAxis, referenceHigh);
    const RealVec3 normal = widen(hit.normal);
    if (!isFinite(hit.point) || !isFinite(hit.normal))
        return agreement.fail(std::string(which) + ": non-finite output");
    const Real speed =
        std::min(std::abs(glm::dot(referenceNormal, direction)), std::abs(glm::dot(normal, direction)));
    const Real distanceUlps = std::abs(Real(hit.t) - referenceT) * speed / (u * scale);
    agreement.worstDistanceUlps = std::max(agreement.worstDistanceUlps, distanceUlps);
    if (!(distanceUlps <= kDistanceUlps)) {
        return agreement.fail(std::string(which) + " t " + std::to_string(double(hit.t)) + " vs " +
                              std::to_string(double(referenceT)));
    }
    const Real pointTolerance =
        kDistanceUlps * u * scale * maxAbsComponent(direction) / speed +
        4 * u * (maxAbsComponent(origin) + std::abs(referenceT) * maxAbsComponent(direction));
    if (!(maxAbsComponent(widen(hit.point) - (origin + referenceT * direction)) <= pointTolerance)) {
        return agreement.fail(std::string(which) + " point " + text(hit.point));
    }
    // Moving the ray by the band moves its crossing with a face by band / sin(angle to the face).
    const Real band =
        kBandUlps * u * scale * glm::length(direction) / std::abs(glm::dot(referenceNormal, direction));
    if (ref::distanceToOtherFaces(slabs, origin, direction, referenceT, referenceAxis) > band &&
        normal != referenceNormal) {
        agreement.fail(std::string(which) + " normal " + text(hit.normal) + " vs " + text(referenceNormal));
    }
}

template <class T, class Box> void checkAgainstReference(const RayPath<T>& ray, const Box& box,
                                                         const std::optional<RaySolidHit<T>>& result,
                                                         Agreement& agreement) {
    agreement.describeCase = [&] { return text(ray) + ", " + text(box); };
    const ref::SlabBox slabs = ref::slabBox(box);
    const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
    const Real scale = caseScale(slabs, origin);
    const Real band = kBandUlps * unitRoundoff<T> * scale;
    ++agreement.cases;
    const ref::Expect expected = ref::expectedHit(slabs, origin, direction, Real(ray.maxT), band);
    if (expected == ref::Expect::Either) {
        ++agreement.skipped;
    } else if (result.has_value() != (expected == ref::Expect::Hit)) {
        return agreement.fail(std::string(result ? "hit" : "miss") + " unexpected");
    }
    if (!result) return;
    ++agreement.hits;
    const RaySolidHit<T>& hit = *result;
    if (!(hit.entry.t <= hit.exit.t && hit.entry.t <= ray.maxT && hit.exit.t >= T(0)) ||
        hit.originInside != (hit.entry.t < T(0))) {
        return agreement.fail("contract: entry " + std::to_string(double(hit.entry.t)) + " exit " +
                              std::to_string(double(hit.exit.t)));
    }
    const ref::LineCrossing crossing = ref::crossLine(slabs, origin, direction);
    if (!crossing.meets || crossing.entryAxis < 0 || crossing.exitAxis < 0) return;  // only inside the band
    compareFace(hit.entry, slabs, origin, direction, crossing.entry, crossing.entryAxis, crossing.entryHigh,
                scale, agreement, "entry");
    compareFace(hit.exit, slabs, origin, direction, crossing.exit, crossing.exitAxis, crossing.exitHigh,
                scale, agreement, "exit");
    const Real entrySpeed = std::abs(glm::dot(slabs.axes[crossing.entryAxis], direction));
    if (std::abs(crossing.entry) * entrySpeed > band && hit.originInside != (crossing.entry < 0)) {
        agreement.fail("originInside");
    }
}

void expectAgreement(const Agreement& agreement) {
    test::expectAgreement(agreement, kMaxSkippedFraction);
    std::cout << agreement.counts() << ", worst distance error " << double(agreement.worstDistanceUlps)
              << " u L\n";
}

// A random box and ray, built in the box's frame (in double, rounded to T by the caller): the ray is
// aimed at a point in or near the box, often exactly on a face plane, edge or corner (grazing), is
// sometimes parallel to a slab, reversed (box behind), or shorter than the way to the box.
struct BoxCase {
    Vec3<double> center;
    Vec3<double> half;
    Mat3<double> rotation;
    Vec3<double> origin;
    Vec3<double> direction;
    double maxT;
};

BoxCase randomBoxCase(test::Random& random, bool rotated, double farthest) {
    BoxCase box;
    const double size = random.logUniform(1e-4, 1e6);
    for (int axis = 0; axis < 3; ++axis)
        box.half[axis] = size * random.uniform(0.05, 1);
    if (random.chance(0.02)) box.half[int(random.uniform(0, 3))] = 0;  // a flat box
    box.center = random.unitVector<double>() * (size * random.logUniform(1e-3, farthest));
    box.rotation = rotated ? random.rotation<double>() : Mat3<double>(1);
    const Vec3<double> localOrigin =
        random.chance(0.15)
            ? box.half * random.point<double>(1)
            : random.unitVector<double>() * (glm::length(box.half) * random.logUniform(1.05, 1e3));
    Vec3<double> localTarget = box.half * random.point<double>(1.3);
    for (int axis = 0; axis < 3; ++axis) {
        if (random.chance(0.1)) localTarget[axis] = random.chance(0.5) ? box.half[axis] : -box.half[axis];
    }
    const double speed = random.logUniform(1e-3, 1e3);
    Vec3<double> localDirection = (localTarget - localOrigin) * speed;
    for (int axis = 0; axis < 3; ++axis) {
        if (random.chance(0.07)) localDirection[axis] = 0;
    }
    if (localDirection == Vec3<double>(0)) localDirection.x = speed;
    if (random.chance(0.25)) localDirection = -localDirection;
    box.origin = box.center + box.rotation * localOrigin;
    box.direction = box.rotation * localDirection;
    box.maxT = random.chance(0.4) ? kInfinity : random.uniform(0.1, 3) / speed;
    return box;
}

template <class T> RayPath<T> toRay(const BoxCase& box) {
    return {Vec3<T>(box.origin), Vec3<T>(box.direction), T(box.maxT)};
}

template <class T> double farthestCentre() { return sizeof(T) == sizeof(float) ? 1e4 : 1e7; }

TYPED_TEST(RayBoxTest, AabbAgreesWithReferenceOnRandomCases) {
    using T = TypeParam;
    test::Random random(1001);
    Agreement agreement;
    for (int i = 0; i < kRandomCases; ++i) {
        const BoxCase spec = randomBoxCase(random, false, farthestCentre<T>());
        const Aabb<T> box{Vec3<T>(spec.center - spec.half), Vec3<T>(spec.center + spec.half)};
        RayPath<T> ray = toRay<T>(spec);
        const int axis = int(random.uniform(0, 3));
        if (random.chance(0.05) && ray.direction[(axis + 1) % 3] != T(0) &&
            ray.direction[(axis + 2) % 3] != T(0)) {
            // Origin exactly on a face plane, parallel to it: the 0 * inf case.
            ray.origin[axis] = random.chance(0.5) ? box.min[axis] : box.max[axis];
            ray.direction[axis] = random.chance(0.5) ? T(0) : T(-0.0);
        }
        const auto result = intersectRayAabb(ray, box);
        checkAgainstReference(ray, box, result, agreement);
        const auto slabRay = makeSlabRay(ray);
        ASSERT_TRUE(slabRay.has_value());
        if (rayOverlapsAabb(*slabRay, box) != result.has_value()) agreement.fail("rayOverlapsAabb");
        // The traversal's entry is the solid test's, clamped to the origin: the same slab arithmetic.
        const T entry = rayEntryIntoAabb(*slabRay, box);
        if (result ? entry != std::max(result->entry.t, T(0)) : !std::isnan(entry))
            agreement.fail("rayEntryIntoAabb");
    }
    expectAgreement(agreement);
}

TYPED_TEST(RayBoxTest, ObbAgreesWithReferenceOnRandomCases) {
    using T = TypeParam;
    test::Random random(1002);
    Agreement agreement;
    for (int i = 0; i < kRandomCases; ++i) {
        const BoxCase spec = randomBoxCase(random, random.chance(0.9), farthestCentre<T>());
        const Obb<T> box{Vec3<T>(spec.center), Mat3<T>(spec.rotation), Vec3<T>(spec.half)};
        const RayPath<T> ray = toRay<T>(spec);
        checkAgainstReference(ray, box, intersectRayObb(ray, box), agreement);
    }
    expectAgreement(agreement);
}

template <class T> Aabb<T> unitBox() { return {Vec3<T>(0), Vec3<T>(1)}; }

TYPED_TEST(RayBoxTest, RayThroughBoxReportsEntryAndExitFaces) {
    using T = TypeParam;
    const auto hit = intersectRayAabb(RayPath<T>{{-1, T(0.25), T(0.5)}, {2, 0, 0}, 10}, unitBox<T>());
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->entry.t, T(0.5));
    EXPECT_EQ(hit->exit.t, T(1));
    EXPECT_EQ(hit->entry.point, Vec3<T>(0, T(0.25), T(0.5)));
    EXPECT_EQ(hit->exit.point, Vec3<T>(1, T(0.25), T(0.5)));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_FALSE(hit->originInside);
}

TYPED_TEST(RayBoxTest, AxisParallelRayOutsideSlabMisses) {
    using T = TypeParam;
    for (const T outside : {T(-0.5), T(1.5)}) {
        EXPECT_FALSE(
            intersectRayAabb(RayPath<T>{{-1, outside, T(0.5)}, {1, 0, 0}, unbounded<T>}, unitBox<T>()));
        EXPECT_FALSE(
            intersectRayAabb(RayPath<T>{{outside, T(0.5), 2}, {0, 0, -1}, unbounded<T>}, unitBox<T>()));
    }
}

TYPED_TEST(RayBoxTest, RayAlongFaceOrEdgeHitsTheClosedBox) {
    using T = TypeParam;
    // In the face plane y = 1, and along the edge y = 1, z = 1; zero components of either sign.
    for (const T zero : {T(0), T(-0.0)}) {
        for (const Vec3<T> origin : {Vec3<T>(-1, 1, T(0.5)), Vec3<T>(-1, 1, 1), Vec3<T>(-1, 0, 0)}) {
            const auto hit =
                intersectRayAabb(RayPath<T>{origin, {1, zero, zero}, unbounded<T>}, unitBox<T>());
            ASSERT_TRUE(hit.has_value()) << text(origin);
            EXPECT_EQ(hit->entry.t, T(1));
            EXPECT_EQ(hit->exit.t, T(2));
            EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
            EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
            EXPECT_EQ(hit->entry.point, Vec3<T>(0, origin.y, origin.z));
        }
    }
}

TYPED_TEST(RayBoxTest, RayThroughCornerTakesTheLowestAxisFace) {
    using T = TypeParam;
    const auto hit = intersectRayAabb(RayPath<T>{{-1, -1, -1}, {1, 1, 1}, unbounded<T>}, unitBox<T>());
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->entry.t, T(1));
    EXPECT_EQ(hit->exit.t, T(2));
    EXPECT_EQ(hit->entry.point, Vec3<T>(0));
    EXPECT_EQ(hit->exit.point, Vec3<T>(1));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    // A ray that only touches an edge still hits: entry = exit, the entry face is y's, the exit face x's.
    const auto touch = intersectRayAabb(RayPath<T>{{0, -1, T(0.5)}, {1, 1, 0}, unbounded<T>}, unitBox<T>());
    ASSERT_TRUE(touch.has_value());
    EXPECT_EQ(touch->entry.t, T(1));
    EXPECT_EQ(touch->exit.t, T(1));
    EXPECT_EQ(touch->entry.normal, Vec3<T>(0, -1, 0));
    EXPECT_EQ(touch->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_EQ(touch->entry.point, Vec3<T>(1, 0, T(0.5)));
}

TYPED_TEST(RayBoxTest, OriginInsideGivesNegativeEntry) {
    using T = TypeParam;
    const auto hit = intersectRayAabb(RayPath<T>{{T(0.25), T(0.5), T(0.5)}, {1, 0, 0}, 1}, unitBox<T>());
    ASSERT_TRUE(hit.has_value());
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-0.25));
    EXPECT_EQ(hit->exit.t, T(0.75));
    // The exit may lie beyond maxT: the ray is still inside the box over [0, maxT].
    const auto shortRay =
        intersectRayAabb(RayPath<T>{{T(0.25), T(0.5), T(0.5)}, {1, 0, 0}, T(0.125)}, unitBox<T>());
    ASSERT_TRUE(shortRay.has_value());
    EXPECT_EQ(shortRay->exit.t, T(0.75));
}

TYPED_TEST(RayBoxTest, OriginOnSurface) {
    using T = TypeParam;
    // Going in: entry at t = 0, not inside. Going out: the closed box holds the origin, exit at t = 0.
    const auto in =
        intersectRayAabb(RayPath<T>{{0, T(0.5), T(0.5)}, {1, T(0.25), 0}, unbounded<T>}, unitBox<T>());
    ASSERT_TRUE(in.has_value());
    EXPECT_EQ(in->entry.t, T(0));
    EXPECT_FALSE(in->originInside);
    const auto out =
        intersectRayAabb(RayPath<T>{{0, T(0.5), T(0.5)}, {-1, T(0.25), 0}, unbounded<T>}, unitBox<T>());
    ASSERT_TRUE(out.has_value());
    EXPECT_EQ(out->exit.t, T(0));
    EXPECT_EQ(out->exit.normal, Vec3<T>(-1, 0, 0));
    EXPECT_TRUE(out->originInside);
}

TYPED_TEST(RayBoxTest, RayEndingBeforeTheBoxMisses) {
    using T = TypeParam;
    const Vec3<T> origin(-1, T(0.5), T(0.5));
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{origin, {1, 0, 0}, T(0.99)}, unitBox<T>()));
    const auto reaches = intersectRayAabb(RayPath<T>{origin, {1, 0, 0}, T(1)}, unitBox<T>());
    ASSERT_TRUE(reaches.has_value());
    EXPECT_EQ(reaches->entry.t, T(1));
    // maxT = 0: only a box holding the origin.
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{origin, {1, 0, 0}, T(0)}, unitBox<T>()));
    EXPECT_TRUE(intersectRayAabb(RayPath<T>{{T(0.5), T(0.5), T(0.5)}, {1, 0, 0}, T(0)}, unitBox<T>()));
}

TYPED_TEST(RayBoxTest, ZeroLengthRayIsNoHit) {
    using T = TypeParam;
    const RayPath<T> ray{{T(0.5), T(0.5), T(0.5)}, Vec3<T>(0), 1};
    EXPECT_FALSE(intersectRayAabb(ray, unitBox<T>()));
    EXPECT_FALSE(makeSlabRay(ray));
    EXPECT_FALSE(intersectRayObb(ray, Obb<T>{Vec3<T>(0), Mat3<T>(1), Vec3<T>(1)}));
}

TYPED_TEST(RayBoxTest, DegenerateBoxes) {
    using T = TypeParam;
    const RayPath<T> down{{T(0.5), T(0.5), 2}, {0, 0, -1}, unbounded<T>};
    // Flat (zero thickness) box: a closed rectangle, hit on both faces at once.
    const auto flat = intersectRayAabb(down, Aabb<T>{{0, 0, 1}, {1, 1, 1}});
    ASSERT_TRUE(flat.has_value());
    EXPECT_EQ(flat->entry.t, T(1));
    EXPECT_EQ(flat->exit.t, T(1));
    // Inverted boxes (min > max on an axis) and negative half extents are empty.
    EXPECT_FALSE(intersectRayAabb(down, Aabb<T>{{1, 0, 0}, {0, 1, 1}}));
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{{1, T(0.5), 2}, {0, 0, -1}, unbounded<T>},
                                  Aabb<T>{{1, 0, 0}, {0, 1, 1}}));
    EXPECT_FALSE(rayOverlapsAabb(*makeSlabRay(down), Aabb<T>{{1, 0, 0}, {0, 1, 1}}));
    EXPECT_FALSE(intersectRayObb(down, Obb<T>{{T(0.5), T(0.5), T(0.5)}, Mat3<T>(1), {T(-0.5), 1, 1}}));
    // A point box (all half extents 0) is hit by a ray through it.
    const auto point = intersectRayObb(down, Obb<T>{{T(0.5), T(0.5), 1}, Mat3<T>(1), Vec3<T>(0)});
    ASSERT_TRUE(point.has_value());
    EXPECT_EQ(point->entry.t, T(1));
}

// Huge and tiny boxes far from the origin, with power-of-two data so the exact answer is representable.
TYPED_TEST(RayBoxTest, HugeAndTinyScales) {
    using T = TypeParam;
    for (const T scale : {T(0x1p20), T(0x1p-14)}) {
        const Vec3<T> centre = Vec3<T>(T(3), T(-5), T(7)) * (scale * 64);
        const Obb<T> obb{centre, Mat3<T>(1), Vec3<T>(scale)};
        const Aabb<T> aabb{centre - scale, centre + scale};
        const RayPath<T> ray{centre + Vec3<T>(-4 * scale, T(0.5) * scale, 0), {scale, 0, 0}, unbounded<T>};
        for (const auto& hit : {intersectRayAabb(ray, aabb), intersectRayObb(ray, obb)}) {
            ASSERT_TRUE(hit.has_value()) << scale;
            EXPECT_EQ(hit->entry.t, T(3));
            EXPECT_EQ(hit->exit.t, T(5));
            EXPECT_EQ(hit->entry.point, centre + Vec3<T>(-scale, T(0.5) * scale, 0));
        }
        EXPECT_FALSE(intersectRayAabb(
            RayPath<T>{ray.origin + Vec3<T>(0, 2 * scale, 0), ray.direction, unbounded<T>}, aabb));
    }
}

TYPED_TEST(RayBoxTest, ObbTransformsTheRayIntoTheBoxFrame) {
    using T = TypeParam;
    // Box rotated 90 degrees about z: its local x axis is world y. Half extents (1, 2, 3).
    const Mat3<T> rotation(Vec3<T>(0, 1, 0), Vec3<T>(-1, 0, 0), Vec3<T>(0, 0, 1));
    const Obb<T> box{{10, 20, 30}, rotation, {1, 2, 3}};
    const auto hit = intersectRayObb(RayPath<T>{{0, 20, 30}, {1, 0, 0}, unbounded<T>}, box);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->entry.t, T(8));  // world x extent is the local y half extent, 2
    EXPECT_EQ(hit->exit.t, T(12));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->entry.point, Vec3<T>(8, 20, 30));
}

// Every input field set to NaN or infinity (maxT also to NaN, -inf and negative): no hit, no NaN.
TYPED_TEST(RayBoxTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), infinity = std::numeric_limits<T>::infinity();
    const RayPath<T> ray{{-1, T(0.5), T(0.5)}, {1, 0, 0}, 10};
    const Aabb<T> aabb = unitBox<T>();
    const Obb<T> obb{Vec3<T>(T(0.5)), Mat3<T>(1), Vec3<T>(T(0.5))};
    ASSERT_TRUE(intersectRayAabb(ray, aabb));
    ASSERT_TRUE(intersectRayObb(ray, obb));
    // Every scalar of the ray but maxT (checked below, with a negative value too), of the AABB and the OBB.
    const auto isMaxT = [](int index, T) { return index == 6; };
    test::forEachNonFiniteField<T>(ray, isMaxT, [&](const RayPath<T>& badRay) {
        EXPECT_FALSE(intersectRayAabb(badRay, aabb));
        EXPECT_FALSE(intersectRayObb(badRay, obb));
    });
    test::forEachNonFiniteField<T>(
        aabb, [&](const Aabb<T>& badAabb) { EXPECT_FALSE(intersectRayAabb(ray, badAabb)); });
    test::forEachNonFiniteField<T>(obb,
                                   [&](const Obb<T>& badObb) { EXPECT_FALSE(intersectRayObb(ray, badObb)); });
    for (const T badMaxT : {nan, -infinity, T(-1)}) {
        EXPECT_FALSE(intersectRayAabb(RayPath<T>{ray.origin, ray.direction, badMaxT}, aabb));
        EXPECT_FALSE(intersectRayObb(RayPath<T>{ray.origin, ray.direction, badMaxT}, obb));
        EXPECT_FALSE(makeSlabRay(RayPath<T>{ray.origin, ray.direction, badMaxT}));
    }
    // The broadphase form: a NaN bound is no overlap.
    Aabb<T> nanBox = aabb;
    nanBox.min.x = nan;
    EXPECT_FALSE(rayOverlapsAabb(*makeSlabRay(ray), nanBox));
    nanBox = aabb;
    nanBox.max.y = nan;
    EXPECT_FALSE(rayOverlapsAabb(*makeSlabRay(ray), nanBox));
}

// A direction component whose reciprocal overflows counts as zero; no NaN comes out.
TYPED_TEST(RayBoxTest, SubnormalDirectionComponentIsParallel) {
    using T = TypeParam;
    const T subnormal = std::numeric_limits<T>::denorm_min();
    const auto hit = intersectRayAabb(
        RayPath<T>{{-1, T(0.5), T(0.5)}, {1, subnormal, -subnormal}, unbounded<T>}, unitBox<T>());
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->entry.t, T(1));
    EXPECT_EQ(hit->exit.t, T(2));
    // Only subnormal components: every t overflows, which is no hit rather than an infinite t.
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{{T(0.5), T(0.5), T(0.5)}, Vec3<T>(subnormal), unbounded<T>},
                                  unitBox<T>()));
}

// Document 001's 2D slab code as printed (double), for the regressions below: it skips an axis whose
// direction component is 0 and never checks tmax >= 0.
bool documentSlab2D(Vec2<double> boxMin, Vec2<double> boxMax, Vec2<double> origin, Vec2<double> direction) {
    double tmin = -kInfinity, tmax = kInfinity;
    for (int axis = 0; axis < 2; ++axis) {
        if (direction[axis] != 0.0) {
            const double t1 = (boxMin[axis] - origin[axis]) / direction[axis];
            const double t2 = (boxMax[axis] - origin[axis]) / direction[axis];
            tmin = std::max(tmin, std::min(t1, t2));
            tmax = std::min(tmax, std::max(t1, t2));
        }
    }
    return tmax >= tmin;
}

// Document 001's 3D code (C#, after PhysX) for a box centred at the origin with half size `dimension`:
// an absolute epsilon of 1e-5 on the hit point.
bool documentRayAabb3D(Vec3<float> origin, Vec3<float> direction, float distance, Vec3<float> dimension) {
    const float epsilon = 0.00001f;
    const Vec3<float> minPos = -dimension, maxPos = dimension;
    Vec3<float> maxT(-1), point(0);
    bool inside = true;
    for (int i = 0; i < 3; ++i) {
        if (origin[i] < minPos[i]) {
            inside = false;
            if (direction[i] != 0) maxT[i] = (minPos[i] - origin[i]) / direction[i];
        } else if (origin[i] > maxPos[i]) {
            inside = false;
            if (direction[i] != 0) maxT[i] = (maxPos[i] - origin[i]) / direction[i];
        }
    }
    if (inside) return true;
    int plane = 0;
    if (maxT[1] > maxT[plane]) plane = 1;
    if (maxT[2] > maxT[plane]) plane = 2;
    if (maxT[plane] > distance) return false;
    for (int i = 0; i < 3; ++i) {
        if (i == plane) continue;
        point[i] = origin[i] + maxT[plane] * direction[i];
        if (point[i] < minPos[i] - epsilon || point[i] > maxPos[i] + epsilon) return false;
    }
    return true;
}

TYPED_TEST(RayBoxTest, RegressionParallelRayOutsideSlabIsNoHit) {
    using T = TypeParam;
    // Parallel to the y slab but above it: the sample slab code skips the y axis and reports a hit.
    ASSERT_TRUE(documentSlab2D({0, 0}, {1, 1}, {-2, 2}, {1, 0}));
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{{-2, 2, T(0.5)}, {1, 0, 0}, unbounded<T>}, unitBox<T>()));
    EXPECT_FALSE(
        rayOverlapsAabb(*makeSlabRay(RayPath<T>{{-2, 2, T(0.5)}, {1, 0, 0}, unbounded<T>}), unitBox<T>()));
}

TYPED_TEST(RayBoxTest, RegressionBoxBehindOriginIsNoHit) {
    using T = TypeParam;
    // The box lies at t in [-3, -2]: tmax >= tmin holds, and the sample slab code reports a hit.
    ASSERT_TRUE(documentSlab2D({0, 0}, {1, 1}, {3, T(0.5)}, {1, 0}));
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{{3, T(0.5), T(0.5)}, {1, 0, 0}, unbounded<T>}, unitBox<T>()));
    EXPECT_FALSE(rayOverlapsAabb(*makeSlabRay(RayPath<T>{{3, T(0.5), T(0.5)}, {1, 0, 0}, unbounded<T>}),
                                 unitBox<T>()));
    EXPECT_FALSE(intersectRayObb(RayPath<T>{{3, T(0.5), T(0.5)}, {1, 0, 0}, unbounded<T>},
                                 Obb<T>{Vec3<T>(T(0.5)), Mat3<T>(1), Vec3<T>(T(0.5))}));
}

TYPED_TEST(RayBoxTest, RegressionNoAbsoluteEpsilon) {
    using T = TypeParam;
    // A small box (half size 5e-5): a ray passing 5e-6 above it. The absolute 1e-5 of the sample slab code
    // takes it for a hit.
    const Vec3<float> half(5e-5f);
    const Vec3<float> origin(-1e-3f, 5.5e-5f, 0), direction(1, 0, 0);
    ASSERT_TRUE(documentRayAabb3D(origin, direction, 1, half));
    EXPECT_FALSE(intersectRayAabb(RayPath<T>{Vec3<T>(origin), Vec3<T>(direction), 1},
                                  Aabb<T>{-Vec3<T>(half), Vec3<T>(half)}));
    EXPECT_FALSE(intersectRayObb(RayPath<T>{Vec3<T>(origin), Vec3<T>(direction), 1},
                                 Obb<T>{Vec3<T>(0), Mat3<T>(1), Vec3<T>(half)}));
}

TYPED_TEST(RayBoxTest, RegressionHalfExtentsAreHalfTheSize) {
    using T = TypeParam;
    // halfExtents (1, 2, 3): a ray at y = 1.5 is inside the y slab (halving them again would miss it), a
    // ray at y = 2.5 outside (taking them for the full size once more, doubling, would hit it).
    const Obb<T> box{Vec3<T>(0), Mat3<T>(1), {1, 2, 3}};
    const auto inside = intersectRayObb(RayPath<T>{{-4, T(1.5), 0}, {1, 0, 0}, unbounded<T>}, box);
    ASSERT_TRUE(inside.has_value());
    EXPECT_EQ(inside->entry.t, T(3));
    EXPECT_EQ(inside->exit.t, T(5));
    EXPECT_FALSE(intersectRayObb(RayPath<T>{{-4, T(2.5), 0}, {1, 0, 0}, unbounded<T>}, box));
    const auto alongZ = intersectRayObb(RayPath<T>{{0, 0, -4}, {0, 0, 1}, unbounded<T>}, box);
    ASSERT_TRUE(alongZ.has_value());
    EXPECT_EQ(alongZ->entry.t, T(1));
    EXPECT_EQ(alongZ->exit.t, T(7));
}

}  // namespace
}  // namespace analytic
