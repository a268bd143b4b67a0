// SPDX-License-Identifier: Zlib
// Box against triangle (box_triangle.hpp) against an independent long double reference: the
// separation as the largest gap over the 13 axes by brute force, the distance of separated shapes as
// the least of the corner-triangle, vertex-box and edge-edge distances. Random cases in float and
// double, then edge cases: faces parallel, edge across edge, degenerate triangles, huge and tiny
// scales, fixed sides, non-finite input.
#include "analytic/geometry/box_triangle.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <vector>

#include "reference/distance_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Random;
using test::Real;
using test::RealVec3;
using test::text;
using test::widen;

constexpr int kRandomCases = 100000;

// ---------------------------------------------------------------------------------------------------
// Reference.

struct ReferenceBox {
    RealVec3 center;
    Mat3<Real> rotation;
    RealVec3 half;
};

template <class T> ReferenceBox widenBox(const Obb<T>& box) {
    return {widen(box.center), widen(box.rotation), widen(box.halfExtents)};
}

std::array<RealVec3, 8> corners(const ReferenceBox& box) {
    std::array<RealVec3, 8> result;
    for (int i = 0; i < 8; ++i) {
        const RealVec3 signs((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1);
        result[i] = reference::obbWorld(signs * box.half, box.center, box.rotation);
    }
    return result;
}

// The gap between the two projections on the unit axis n, the box on n's side of the triangle.
Real gapAlong(const RealVec3& n, const std::array<RealVec3, 8>& boxCorners,
              const std::array<RealVec3, 3>& v) {
    Real boxLowest = INFINITY, triangleHighest = -INFINITY;
    for (const RealVec3& corner : boxCorners)
        boxLowest = std::min(boxLowest, glm::dot(n, corner));
    for (const RealVec3& vertex : v)
        triangleHighest = std::max(triangleHighest, glm::dot(n, vertex));
    return boxLowest - triangleHighest;
}

// The largest gap over the 13 axes, both signs of each (or only those that side allows, and any that
// separates them).
Real referenceSeparation(const ReferenceBox& box, const std::array<RealVec3, 3>& v, TriangleSide side) {
    const std::array<RealVec3, 8> boxCorners = corners(box);
    const RealVec3 faceNormal = glm::normalize(glm::cross(v[1] - v[0], v[2] - v[0]));
    const RealVec3 sideNormal = side == TriangleSide::Back ? -faceNormal : faceNormal;
    std::vector<RealVec3> axes{faceNormal};
    for (int k = 0; k < 3; ++k) {
        axes.push_back(box.rotation[k]);
        for (int j = 0; j < 3; ++j) {
            const RealVec3 cross = glm::cross(box.rotation[k], v[(j + 1) % 3] - v[j]);
            if (glm::dot(cross, cross) > 0) axes.push_back(glm::normalize(cross));
        }
    }
    Real best = -INFINITY;
    for (const RealVec3& axis : axes) {
        for (const RealVec3& n : {axis, -axis}) {
            const bool isFaceAxis = &axis == &axes[0];
            const Real gap = gapAlong(n, boxCorners, v);
            // A gap that separates them counts whatever the side.
            if (side != TriangleSide::Either && !(gap > 0) &&
                (isFaceAxis ? glm::dot(n, sideNormal) < 0 : glm::dot(n, sideNormal) < -1e-12L))
                continue;
            best = std::max(best, gap);
        }
    }
    return best;
}

Real referenceDistance(const ReferenceBox& box, const std::array<RealVec3, 3>& v) {
    const std::array<RealVec3, 8> boxCorners = corners(box);
    Real best = INFINITY;
    for (const RealVec3& corner : boxCorners)
        best = std::min(best, reference::distancePointTriangle(corner, v[0], v[1], v[2]));
    for (const RealVec3& vertex : v)
        best = std::min(best, reference::distancePointObb(vertex, box.center, box.rotation, box.half));
    for (int i = 0; i < 8; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (i & (1 << k)) continue;  // each edge once, from its lower end
            for (int j = 0; j < 3; ++j)
                best = std::min(best, reference::distanceSegmentSegment(
                                          boxCorners[i], boxCorners[i | (1 << k)], v[j], v[(j + 1) % 3]));
        }
    }
    return best;
}

// ---------------------------------------------------------------------------------------------------
// Random cases.

// Boxes of half extents log-uniform over 3 orders of magnitude around a scale itself log-uniform in
// 1e-3 .. 1e3, centred within 10 scales of the origin; triangles of edges 0.2 .. 5 scales with a
// vertex near the box (within 1.5 of its half diagonal): most cases overlap, many are apart within
// reach or beyond it.
template <class T> struct RandomCase {
    Obb<T> box;
    Triangle<T> triangle;
    T reach;
    TriangleSide side;
};

template <class T> RandomCase<T> randomCase(Random& random, double scale) {
    RandomCase<T> c;
    c.box.center = Vec3<T>(random.point<double>(10 * scale));
    c.box.rotation = random.rotation<T>();
    c.box.halfExtents = Vec3<T>(T(scale * random.logUniform(0.1, 1)), T(scale * random.logUniform(0.1, 1)),
                                T(scale * random.logUniform(0.1, 1)));
    const Vec3<double> near =
        Vec3<double>(c.box.center) + random.point<double>(1.5 * glm::length(Vec3<double>(c.box.halfExtents)));
    const double edge = scale * random.logUniform(0.2, 5);
    c.triangle.a = Vec3<T>(near);
    c.triangle.b = Vec3<T>(near + edge * random.unitVector<double>());
    c.triangle.c = Vec3<T>(near + edge * random.unitVector<double>());
    c.reach = T(scale * random.uniform(0, 0.2));
    const double which = random.uniform(0, 1);
    c.side = which < 0.6 ? TriangleSide::Either : which < 0.8 ? TriangleSide::Front : TriangleSide::Back;
    return c;
}

template <class T> class BoxTriangleRandom : public ::testing::Test {};
TYPED_TEST_SUITE(BoxTriangleRandom, test::Scalars);

// Bounds, in units of the scalar's rounding times the case's scale (its largest coordinate or half
// extent; the triangle is taken relative to the box's centre, so every offset is known to that):
// separations along face axes within 64, along edge axes within 64 over the sine between the edges
// (the cases are random, so the sines are rarely small; the bound uses the case's own smallest sine).
// Classification (within reach or not, apart or not) is left out within that band of its boundary.
TYPED_TEST(BoxTriangleRandom, SeparationDistanceAndPointsAgreeWithTheReference) {
    using T = TypeParam;
    Random random(20261121);
    int contacts = 0, apart = 0, apartBeyondReach = 0, beyondReach = 0, skipped = 0, standIns = 0,
        fixedSideStandIns = 0;
    Real worstSeparation = 0, worstPoint = 0;
    for (int i = 0; i < kRandomCases; ++i) {
        const RandomCase<T> c = randomCase<T>(random, random.logUniform(1e-3, 1e3));
        const ReferenceBox box = widenBox(c.box);
        const std::array<RealVec3, 3> v{widen(c.triangle.a), widen(c.triangle.b), widen(c.triangle.c)};
        Real scale = 0;
        for (const RealVec3& p : {widen(c.box.center), v[0], v[1], v[2], box.half})
            scale = std::max({scale, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
        Real smallestSine = 1;
        for (int k = 0; k < 3; ++k)
            for (int j = 0; j < 3; ++j) {
                const RealVec3 edge = glm::normalize(v[(j + 1) % 3] - v[j]);
                smallestSine = std::min(smallestSine, glm::length(glm::cross(box.rotation[k], edge)));
            }
        const Real bound = 64 * Real(unitRoundoff<T>) * scale / std::max(smallestSine, Real(1e-3));
        const Real separation = referenceSeparation(box, v, c.side);
        // Apart whichever way: the gap along the best axis of either sign.
        const Real apartAnyWay = referenceSeparation(box, v, TriangleSide::Either);
        const auto contact = collideObbTriangle(c.box, c.triangle, c.reach, c.side);
        SCOPED_TRACE(::testing::Message()
                     << "case " << i << ": box " << text(c.box.center) << " half " << text(c.box.halfExtents)
                     << ", triangle " << text(c.triangle.a) << " " << text(c.triangle.b) << " "
                     << text(c.triangle.c) << ", reach " << text(c.reach) << ", side " << int(c.side)
                     << ", reference separation " << text(separation));
        // A box wholly on the other side of a fixed side passes.
        const RealVec3 faceNormal = glm::normalize(glm::cross(v[1] - v[0], v[2] - v[0]));
        const RealVec3 sideNormal = c.side == TriangleSide::Back ? -faceNormal : faceNormal;
        Real highestAlongSide = -INFINITY;
        for (const RealVec3& corner : corners(box))
            highestAlongSide = std::max(highestAlongSide, glm::dot(sideNormal, corner));
        const bool passesBehind =
            c.side != TriangleSide::Either && highestAlongSide < glm::dot(sideNormal, v[0]);
        if (std::abs(separation - Real(c.reach)) <= bound || std::abs(apartAnyWay - Real(c.reach)) <= bound ||
            std::abs(highestAlongSide - glm::dot(sideNormal, v[0])) <= bound) {
            ++skipped;
            continue;
        }
        if (apartAnyWay > Real(c.reach) || passesBehind) {
            ++beyondReach;
            EXPECT_FALSE(contact.has_value());
            continue;
        }
        // Apart, the points are never nearer than the shapes, and those of the chosen axis may all be
        // beyond reach although the separation (a lower bound of the distance), or even the distance,
        // is within it: such a pair gives nothing. Counted, and bounded below.
        const bool separated = separation > bound;
        const Real distance = separated ? referenceDistance(box, v) : 0;
        if (separation > -bound && !contact) {
            ++apartBeyondReach;
            continue;
        }
        ASSERT_TRUE(contact.has_value());
        ++contacts;
        worstSeparation = std::max(worstSeparation, std::abs(Real(contact->separation) - separation) / bound);
        EXPECT_NEAR(Real(contact->separation), separation, bound);
        const RealVec3 normal = widen(contact->normal);
        EXPECT_NEAR(glm::length(normal), 1, 8 * Real(unitRoundoff<T>));
        // The chosen axis is the least penetrating up to the bias toward faces (2% plus 0.1% of the
        // size), or the triangle's normal (where the chosen axis' clipping left nothing).
        Real size = box.half.x + box.half.y + box.half.z;
        for (int j = 0; j < 3; ++j)
            size = std::max(size, glm::length(v[(j + 1) % 3] - v[j]));
        const Real alongNormal = gapAlong(glm::normalize(normal), corners(box), v);
        if (contact->axis != BoxTriangleAxis::TriangleFace) {
            EXPECT_GE(alongNormal,
                      separation - Real(0.05) * std::abs(separation) - Real(0.003) * 2 * size - bound);
        }
        ASSERT_GT(contact->pointCount, 0);
        ASSERT_LE(contact->pointCount, 8);
        if (separated) ++apart;
        for (int p = 0; p < contact->pointCount; ++p) {
            const BoxTrianglePoint<T>& point = contact->points[p];
            SCOPED_TRACE(::testing::Message()
                         << "axis " << int(contact->axis) << ", point " << p << " of " << contact->pointCount
                         << ": " << text(point.onTriangle) << " at " << text(point.distance) << ", normal "
                         << text(contact->normal));
            const RealVec3 onTriangle = widen(point.onTriangle);
            // On the triangle, within reach, never deeper than the shapes overlap nor nearer than they are.
            const Real offTriangle = reference::distancePointTriangle(onTriangle, v[0], v[1], v[2]);
            worstPoint = std::max(worstPoint, offTriangle / bound);
            EXPECT_LE(offTriangle, bound);
            EXPECT_LE(point.distance, c.reach);
            EXPECT_GE(Real(point.distance), std::min(separation, alongNormal) - bound);
            if (separated) {
                EXPECT_GE(Real(point.distance), distance - bound);
            }
            // Face axes: the point moved by its distance along the normal is on the box's surface, but
            // for the one point standing for an empty clipping, which only a biased choice of axis can
            // give, or a fixed side (a box deep behind the triangle, beside it): counted, the first
            // bounded below.
            if (contact->axis != BoxTriangleAxis::EdgePair) {
                const RealVec3 onBox = onTriangle + Real(point.distance) * normal;
                const Real offBox =
                    std::abs(reference::signedDistancePointObb(onBox, box.center, box.rotation, box.half));
                if (contact->pointCount == 1 && offBox > 4 * bound)
                    ++(c.side == TriangleSide::Either ? standIns : fixedSideStandIns);
                else
                    EXPECT_LE(offBox, 4 * bound);
            }
        }
        if (::testing::Test::HasFailure()) FAIL();
    }
    std::printf(
        "%d cases: %d in contact (%d apart within reach, %d single stand-in points, %d on a fixed side), %d "
        "apart within "
        "reach of the separation but not of the points, %d beyond reach, %d skipped; worst separation "
        "error / bound %.3g, worst point off the triangle / bound %.3g\n",
        kRandomCases, contacts, apart, standIns, fixedSideStandIns, apartBeyondReach, beyondReach, skipped,
        double(worstSeparation), double(worstPoint));
    EXPECT_GT(contacts, kRandomCases / 5);
    EXPECT_GT(apart, kRandomCases / 100);
    EXPECT_GT(beyondReach, kRandomCases / 10);
    EXPECT_LT(skipped, kRandomCases / 100);
    EXPECT_LT(standIns, kRandomCases / 100);
    EXPECT_LT(apartBeyondReach, apart / 2);
}

// ---------------------------------------------------------------------------------------------------
// Edge cases.

template <class T> class BoxTriangleCases : public ::testing::Test {};
TYPED_TEST_SUITE(BoxTriangleCases, test::Scalars);

template <class T> Obb<T> unitCube(const Vec3<T>& center) { return {center, Mat3<T>(T(1)), Vec3<T>(T(0.5))}; }

// A large triangle in the plane y = height, front face up.
template <class T> Triangle<T> floorAt(T height) {
    return {Vec3<T>(-10, height, -10), Vec3<T>(0, height, 10), Vec3<T>(10, height, -10)};
}

TYPED_TEST(BoxTriangleCases, AFlatBoxSunkIntoALargeTriangleGetsItsFourBottomCornersAtTheirDepth) {
    using T = TypeParam;
    const auto contact = collideObbTriangle(unitCube(Vec3<T>(0.25, 0.49, 0.5)), floorAt(T(0)), T(0.02));
    ASSERT_TRUE(contact.has_value());
    EXPECT_EQ(contact->axis, BoxTriangleAxis::TriangleFace);
    EXPECT_EQ(contact->feature, TriangleFeature::Face);
    EXPECT_EQ(contact->normal, Vec3<T>(0, 1, 0));
    EXPECT_NEAR(contact->separation, -0.01, 1e-6);
    ASSERT_EQ(contact->pointCount, 4);
    for (int i = 0; i < 4; ++i) {
        const BoxTrianglePoint<T>& point = contact->points[i];
        EXPECT_NEAR(point.distance, -0.01, 1e-6);
        EXPECT_NEAR(std::abs(point.onTriangle.x - T(0.25)), 0.5, 1e-6);
        EXPECT_NEAR(std::abs(point.onTriangle.z - T(0.5)), 0.5, 1e-6);
        EXPECT_EQ(point.onTriangle.y, 0);
    }
}

TYPED_TEST(BoxTriangleCases, ASmallTriangleUnderABoxFaceGivesItsThreeVertices) {
    using T = TypeParam;
    const Triangle<T> small{Vec3<T>(-0.2, 0, -0.2), Vec3<T>(0, 0, 0.2), Vec3<T>(0.2, 0, -0.2)};
    const auto contact = collideObbTriangle(unitCube(Vec3<T>(0, 0.48, 0)), small, T(0.02));
    ASSERT_TRUE(contact.has_value());
    EXPECT_EQ(contact->feature, TriangleFeature::Face);
    ASSERT_EQ(contact->pointCount, 3);
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(contact->points[i].distance, -0.02, 1e-6);
        const Vec3<T> vertices[3] = {small.a, small.b, small.c};
        EXPECT_TRUE(std::any_of(std::begin(vertices), std::end(vertices), [&](const Vec3<T>& vertex) {
            return glm::length(vertex - contact->points[i].onTriangle) < T(1e-6);
        }));
    }
}

TYPED_TEST(BoxTriangleCases, ABoxHoveringWithinReachGetsSpeculativePointsAndBeyondItNothing) {
    using T = TypeParam;
    const auto near = collideObbTriangle(unitCube(Vec3<T>(0, 0.51, 0)), floorAt(T(0)), T(0.02));
    ASSERT_TRUE(near.has_value());
    EXPECT_NEAR(near->separation, 0.01, 1e-6);
    EXPECT_EQ(near->pointCount, 4);
    EXPECT_FALSE(collideObbTriangle(unitCube(Vec3<T>(0, 0.53, 0)), floorAt(T(0)), T(0.02)).has_value());
}

// A box turned 45 degrees about z rests its lower edge (along z) across a triangle's edge (along x) that
// sticks out from under it: the edge pair is the least penetration, one point where the edges cross.
TYPED_TEST(BoxTriangleCases, EdgeAcrossEdgeGivesOnePointWhereTheyCross) {
    using T = TypeParam;
    const T c = T(std::sqrt(0.5));
    Obb<T> box{Vec3<T>(0, 0, 0), Mat3<T>(Vec3<T>(c, c, 0), Vec3<T>(-c, c, 0), Vec3<T>(0, 0, 1)),
               Vec3<T>(0.5)};
    // A triangle in the plane z = 0.45 (inside the box's depth), its top edge y = -c + 0.01 along x.
    const T top = -c + T(0.01);
    const Triangle<T> triangle{Vec3<T>(-2, top, 0.45), Vec3<T>(2, top, 0.45), Vec3<T>(0, -3, 0.45)};
    // Rotated so the edge runs along x and the triangle stands in a vertical plane x-y... then tilted
    // about x so its plane is no axis of the box: the top edge stays where it is.
    const T s = T(std::sin(0.5)), k = T(std::cos(0.5));
    auto tilt = [&](const Vec3<T>& p) {
        const Vec3<T> offset = p - Vec3<T>(0, top, T(0.45));
        return Vec3<T>(p.x, top + k * offset.y - s * offset.z, T(0.45) + s * offset.y + k * offset.z);
    };
    const Triangle<T> tilted{tilt(triangle.a), tilt(triangle.b), tilt(triangle.c)};
    const auto contact = collideObbTriangle(box, tilted, T(0.02));
    ASSERT_TRUE(contact.has_value());
    const ReferenceBox reference = widenBox(box);
    const std::array<RealVec3, 3> v{widen(tilted.a), widen(tilted.b), widen(tilted.c)};
    EXPECT_NEAR(contact->separation, referenceSeparation(reference, v, TriangleSide::Either), 1e-5);
    EXPECT_NEAR(contact->separation, -0.01, 1e-5);  // the box's lowest edge 0.01 below the triangle's
    EXPECT_EQ(contact->feature, TriangleFeature::Edge0);
    ASSERT_GE(contact->pointCount, 1);
    EXPECT_NEAR(contact->points[0].onTriangle.x, 0, 1e-5);
    EXPECT_NEAR(contact->points[0].onTriangle.y, top, 1e-5);
}

TYPED_TEST(BoxTriangleCases, DegenerateTrianglesGiveNothing) {
    using T = TypeParam;
    const Obb<T> box = unitCube(Vec3<T>(0, 0.4, 0));
    const Vec3<T> a(-1, 0, 0), b(1, 0, 0);
    EXPECT_FALSE(collideObbTriangle(box, Triangle<T>{a, b, Vec3<T>(0, 0, 0)}, T(0.02)).has_value());
    EXPECT_FALSE(collideObbTriangle(box, Triangle<T>{a, a, a}, T(0.02)).has_value());
    EXPECT_FALSE(collideObbTriangle(box, Triangle<T>{a, b, a}, T(0.02)).has_value());
}

// The same configuration at 1e-4 and 1e4 times its size gives the same contact, scaled.
TYPED_TEST(BoxTriangleCases, HugeAndTinyScalesGiveTheSameContactScaled) {
    using T = TypeParam;
    Random random(5);
    for (int i = 0; i < 200; ++i) {
        const RandomCase<T> c = randomCase<T>(random, 1);
        const auto unit = collideObbTriangle(c.box, c.triangle, c.reach, c.side);
        for (const T factor : {T(1e-4), T(1e4)}) {
            const Obb<T> box{c.box.center * factor, c.box.rotation, c.box.halfExtents * factor};
            const Triangle<T> triangle{c.triangle.a * factor, c.triangle.b * factor, c.triangle.c * factor};
            const auto scaled = collideObbTriangle(box, triangle, c.reach * factor, c.side);
            if (!unit || !scaled) continue;  // on a boundary the two may round differently
            SCOPED_TRACE(::testing::Message() << "case " << i << ", factor " << factor);
            // The case's coordinates are within about 12 of the origin.
            const Real bound = 1e4L * Real(unitRoundoff<T>) * 12;
            EXPECT_NEAR(Real(scaled->separation) / factor, Real(unit->separation), bound);
            if (scaled->axis == unit->axis) {
                EXPECT_LT(glm::length(widen(scaled->normal - unit->normal)), 1e3 * unitRoundoff<T>);
            }
        }
    }
}

TYPED_TEST(BoxTriangleCases, AFixedSidePushesOutThroughItOrLetsABoxWhollyBehindPass) {
    using T = TypeParam;
    // Front faces +y. The box's centre 0.1 below the plane: Either pushes it down, Front up.
    const Obb<T> box = unitCube(Vec3<T>(0, T(-0.1), 0));
    const auto either = collideObbTriangle(box, floorAt(T(0)), T(0.02));
    const auto front = collideObbTriangle(box, floorAt(T(0)), T(0.02), TriangleSide::Front);
    ASSERT_TRUE(either && front);
    EXPECT_EQ(either->normal, Vec3<T>(0, -1, 0));
    EXPECT_NEAR(either->points[0].distance, -0.4, 1e-6);
    EXPECT_EQ(front->normal, Vec3<T>(0, 1, 0));
    for (int i = 0; i < front->pointCount; ++i)
        EXPECT_NEAR(front->points[i].distance, -0.6, 1e-6);
    const auto back = collideObbTriangle(box, floorAt(T(0)), T(0.02), TriangleSide::Back);
    ASSERT_TRUE(back.has_value());
    EXPECT_EQ(back->normal, Vec3<T>(0, -1, 0));
    // Wholly behind: nothing from the front side, a contact from either.
    const Obb<T> behind = unitCube(Vec3<T>(0, T(-0.51), 0));
    EXPECT_FALSE(collideObbTriangle(behind, floorAt(T(0)), T(0.02), TriangleSide::Front).has_value());
    EXPECT_TRUE(collideObbTriangle(behind, floorAt(T(0)), T(0.02)).has_value());
}

// Beside a tilted triangle, apart from its edge by 0.01 along -z, on its front side: the front normal
// leans toward +z, so the axis that separates them points a little to the back. A fixed side decides
// where an overlapping box is pushed, never that a box apart overlaps: the contact is the gap along -z.
TYPED_TEST(BoxTriangleCases, AFixedSideKeepsABoxApartAlongAnAxisLeaningToTheBack) {
    using T = TypeParam;
    const Triangle<T> triangle{Vec3<T>(-1, T(0.45), T(0.51)), Vec3<T>(1, T(0.45), T(0.51)),
                               Vec3<T>(0, T(0.6), 2)};
    const Obb<T> box = unitCube(Vec3<T>(0));
    for (const TriangleSide side : {TriangleSide::Either, TriangleSide::Front}) {
        const auto contact = collideObbTriangle(box, triangle, T(0.02), side);
        ASSERT_TRUE(contact.has_value());
        EXPECT_NEAR(contact->separation, 0.01, 1e-5);
        EXPECT_NEAR(contact->normal.z, -1, 1e-5);
        ASSERT_GT(contact->pointCount, 0);
        for (int i = 0; i < contact->pointCount; ++i)
            EXPECT_GE(contact->points[i].distance, T(0.01) - T(1e-5));
    }
}

TYPED_TEST(BoxTriangleCases, AlongTheNormalTakesTheTrianglesAxisWhateverTheLeastPenetration) {
    using T = TypeParam;
    // A box sunk 0.3 into the floor but only 0.05 over the triangle's edge x = 0.45: the box's face
    // axis x penetrates least; along the normal gives the floor's axis, its points under the box.
    const Triangle<T> triangle{Vec3<T>(0.45, 0, -10), Vec3<T>(0.45, 0, 10), Vec3<T>(20, 0, 0)};
    const Obb<T> box = unitCube(Vec3<T>(0, T(0.2), 0));
    const auto least = collideObbTriangle(box, triangle, T(0.02));
    const auto alongNormal = collideObbTriangleAlongNormal(box, triangle, T(0.02));
    ASSERT_TRUE(least && alongNormal);
    EXPECT_EQ(least->axis, BoxTriangleAxis::BoxFace);
    EXPECT_EQ(least->normal, Vec3<T>(-1, 0, 0));
    EXPECT_NE(least->feature, TriangleFeature::Face);
    EXPECT_EQ(alongNormal->axis, BoxTriangleAxis::TriangleFace);
    EXPECT_EQ(alongNormal->normal, Vec3<T>(0, 1, 0));
    EXPECT_NEAR(alongNormal->separation, -0.05, 1e-6);  // the largest over the face axes: the box's x
    ASSERT_EQ(alongNormal->pointCount, 4);
    for (int i = 0; i < 4; ++i) {
        EXPECT_NEAR(alongNormal->points[i].distance, -0.3, 1e-6);
        EXPECT_GE(alongNormal->points[i].onTriangle.x, T(0.45) - T(1e-6));
    }
}

// Beside the triangle, apart from its edge x = 0.45 by 0.01 (within reach) and sunk below its plane:
// the least penetrating axis gives a contact, along the normal nothing (the box is over none of it).
TYPED_TEST(BoxTriangleCases, AlongTheNormalABoxBesideTheTriangleGetsNothing) {
    using T = TypeParam;
    const Triangle<T> triangle{Vec3<T>(0.45, 0, -10), Vec3<T>(0.45, 0, 10), Vec3<T>(20, 0, 0)};
    const Obb<T> box = unitCube(Vec3<T>(T(-0.06), T(0.2), 0));
    const auto least = collideObbTriangle(box, triangle, T(0.02));
    ASSERT_TRUE(least.has_value());
    EXPECT_NEAR(least->separation, 0.01, 1e-6);
    EXPECT_EQ(least->normal, Vec3<T>(-1, 0, 0));
    EXPECT_FALSE(collideObbTriangleAlongNormal(box, triangle, T(0.02)).has_value());
}

TYPED_TEST(BoxTriangleCases, NonFiniteInputGivesNothing) {
    using T = TypeParam;
    const Obb<T> box = unitCube(Vec3<T>(0, 0.49, 0));
    const Triangle<T> triangle = floorAt(T(0));
    ASSERT_TRUE(collideObbTriangle(box, triangle, T(0.02)).has_value());
    test::forEachNonFiniteField<T>(box, [&](const Obb<T>& bad) {
        EXPECT_FALSE(collideObbTriangle(bad, triangle, T(0.02)).has_value());
    });
    test::forEachNonFiniteField<T>(triangle, [&](const Triangle<T>& bad) {
        EXPECT_FALSE(collideObbTriangle(box, bad, T(0.02)).has_value());
    });
    EXPECT_FALSE(collideObbTriangle(box, triangle, std::numeric_limits<T>::quiet_NaN()).has_value());
    EXPECT_FALSE(collideObbTriangle(box, triangle, T(-1)).has_value());
    Obb<T> negative = box;
    negative.halfExtents.y = -1;
    EXPECT_FALSE(collideObbTriangle(negative, triangle, T(0.02)).has_value());
}

}  // namespace
}  // namespace analytic
