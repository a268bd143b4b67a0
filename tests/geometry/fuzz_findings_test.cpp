// SPDX-License-Identifier: Zlib
// Regressions of what the fuzz targets (tests/fuzz) found in the geometry core, one test per cause,
// each the input the fuzzer reported (or a smaller one that fails the same way before the fix).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "analytic/geometry/box_triangle.hpp"
#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_convex.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_ellipsoid.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "analytic/geometry/support.hpp"
#include "analytic/geometry/triangle.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

// The line misses the sphere by 0.41 of its radius, but the negative discriminant, a product of tiny
// factors, underflowed to -0 and passed for a tangent: a hit at t = 0 from inside, in float.
TEST(FuzzFindings, SphereMissedByALongLineIsNotHitWhenTheDiscriminantUnderflows) {
    const RayPath<float> ray{{-0.0f, 1.17549435e-38f, 0.0f}, {-59216307945472.0f, 0.0f, 2.0f}, 1.0f};
    const float e = 9.99969489e-15f;
    EXPECT_FALSE(intersectRaySphere(ray, Sphere<float>{{e, e, e}, e}));
}

// A tangent line behind the origin: the root near t = 0 is -1e-25, but c (1e-50) underflowed to 0 in
// float, so one root was -0 and the origin, outside the cylinder, counted as inside it.
TEST(FuzzFindings, CylinderTouchedBehindTheOriginIsNotHit) {
    const float e = 9.99969489e-15f;
    const RayPath<float> ray{{0, 0, 0}, {0, -99993894912.0f, 0}, 1.0f};
    EXPECT_FALSE(intersectRayCylinder(ray, Cylinder<float>{{0, e, e}, {e, e, e}, e}));
}

// A ray 1e9 long from the centre of a sphere of radius 1e-14, in float: the terms in multiples of the
// direction underflowed into subnormals, and the exit came out 3.7 radii away.
TEST(FuzzFindings, TinySphereLeftWhereItsSurfaceIsByALongRay) {
    const float radius = 9.99969489e-15f;
    const RayPath<float> ray{{0, 0, 0}, {1.1920929e-07f, 1e9f, 0}, 1.0f};
    const auto hit = intersectRaySphere(ray, Sphere<float>{{0, 0, 0}, radius});
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_NEAR(glm::length(hit->exit.point), radius, 1e-3 * radius);
}

// A line tangent to a sphere at its origin, with the sphere as an ellipsoid under a rotation rounded in
// float: c and the discriminant were both rounding noise and c / q put the exit at t = 2, three radii
// from the centre.
TEST(FuzzFindings, TangentLineFromTheSurfaceLeavesWhereItTouches) {
    Mat3<float> rotation;
    rotation[0] = {-0.885508358478546142578f, 0.381595939397811889648f, 0.265065103769302368164f};
    rotation[1] = {-0.265065103769302368164f, -0.883450984954833984375f, 0.386335134506225585938f};
    rotation[2] = {0.381595939397811889648f, 0.27184346318244934082f, 0.883450984954833984375f};
    const Ellipsoid<float> ellipsoid{{3.125f, 3.125f, 3.125f}, rotation, {3.125f, 3.125f, 3.125f}};
    const RayPath<float> ray{{0, 3.125f, 3.125f}, {-1.76483151e-11f, 3.125f, 3.125f}, 1.0f};
    const auto hit = intersectRayEllipsoid(ray, ellipsoid);
    ASSERT_TRUE(hit);
    EXPECT_LT(hit->exit.t, 1e-3f);
}

// A line touching the capsule where its end sphere meets its side: entry (from the sphere) came out one
// rounding after the exit (from the side).
TEST(FuzzFindings, CapsuleTouchHasEntryNotAfterExit) {
    const RayPath<double> ray{{-0.0, 4.5, 4.5}, {0, -4.94065645841246544e-324, -7.75}, 1};
    const auto hit = intersectRayCapsule(ray, Capsule<double>{{1, -0.0, -6.375}, {0, 0, 0}, 4.5});
    ASSERT_TRUE(hit);
    EXPECT_LE(hit->entry.t, hit->exit.t);
}

// An exit within maxT whose point overflows (a direction near the largest double): no crossing, never
// an infinite point (the fuzz target found it in the convex planes' test too).
TEST(FuzzFindings, BoxCrossingWhosePointOverflowsIsNoHit) {
    // The exit's t (1.89) is finite, its point (-2.2e308) is not.
    const RayPath<double> ray{{0, 0, -0.5e308}, {0, 0, -0.9e308}, 2};
    EXPECT_FALSE(intersectRayObb(ray, Obb<double>{{0, 0, -1.35e308}, Mat3<double>(1), {1, 1, 0.85e308}}));
    // Within maxT = 1 the same box is hit, its exit beyond the ray.
    const auto hit = intersectRayObb(RayPath<double>{ray.origin, ray.direction, 1},
                                     Obb<double>{{0, 0, -1.35e308}, Mat3<double>(1), {1, 1, 0.85e308}});
    ASSERT_TRUE(hit);
    EXPECT_TRUE(std::isfinite(hit->entry.point.z));
}

// The rounded cone met its solids along the whole line and never looked at maxT: a ray with a negative
// maxT (invalid) hit from inside.
TEST(FuzzFindings, RoundedConeRejectsANegativeMaxT) {
    const float e = 1.1920929e-07f;
    const RayPath<float> ray{{-4.88e-33f, 0, 0}, {e, e, e}, -4.75f};
    const RoundedCone<float> cone{{{0, 0, 0}, {0, 0, 8}, 4}, 0.125f};
    EXPECT_FALSE(intersectRayRoundedCone(ray, cone));
    EXPECT_TRUE(intersectRayRoundedCone(RayPath<float>{ray.origin, ray.direction, 1}, cone));
}

// Vertices near the largest float: an edge's difference overflowed into an infinite cut point.
TEST(FuzzFindings, TrianglePlaneCutThatOverflowsIsNoResult) {
    const Plane<float> plane{glm::normalize(Vec3<float>{5.75f, 5.75f, 0}), -6};
    const Triangle<float> triangle{{3.40282347e+38f, 4.875f, -0.0f},
                                   {-9.97070282e+34f, 1.76452631e+34f, 0.863006592f},
                                   {4.875f, -6751.09863f, 0}};
    const auto cut = intersectTrianglePlane(triangle, plane);
    if (!cut) return;
    for (const Vec3<float>& point : cut->segment)
        EXPECT_TRUE(std::isfinite(point.x) && std::isfinite(point.y) && std::isfinite(point.z));
}

// Touching is decided on squares, the depth from a length: a length rounded above the radius made the
// depth negative for a sphere touching a vertex (the fuzzer's case; these guard the clamp).
TEST(FuzzFindings, SphereTriangleContactDepthIsNeverNegative) {
    const Triangle<double> triangle{{7.75, 6.5, 0.999969482421875}, {-6.875, -8, -8}, {-8, -8, -8}};
    const auto contact = sphereTriangleContact(Sphere<double>{{-8, -8, -8}, -0.0}, triangle);
    ASSERT_TRUE(contact);
    EXPECT_GE(contact->contact.depth, 0.0);
    for (double radius : {1e-300, 1e-12, 0.5}) {
        const auto touching = sphereTriangleContact(Sphere<double>{{-8, -8, -8}, radius}, triangle);
        ASSERT_TRUE(touching);
        EXPECT_GE(touching->contact.depth, 0.0);
    }
}

// A box 1e7 long beside a triangle 20 across, 2.8 apart along an edge pair's axis: the threshold below
// which edge axes count as parallel was taken from the box's half extents, so every edge axis was
// skipped, the shapes seemed to overlap by 0.625, the box face's clipping found nothing and the fallback
// to the triangle's normal reported a point 2e6 deep.
TEST(FuzzFindings, LongBoxBesideATriangleIsApartAlongAnEdgeAxis) {
    Mat3<float> rotation;
    rotation[0] = {0, -1, 0};
    rotation[1] = {-1, 0, 0};
    rotation[2] = {0, 0, -1};
    const Triangle<float> triangle{{-2.625f, 7.75f, 7.75f}, {-6.625f, -6.625f, -0.001f}, {-8, -8, -8}};
    for (const float length : {1e7f, 1e4f, 100.0f}) {
        const Obb<float> box{{2.5f, 7.75f, -3.25f}, rotation, {length, 5.75f, 0.5f}};
        EXPECT_FALSE(collideObbTriangle(box, triangle, 0.0f)) << length;
        // 2.8 apart: within this reach (at 1e7 the box's float coordinates round by 1, so maybe not).
        const auto within = collideObbTriangle(box, triangle, 3.0f);
        if (length < 1e5f) {
            ASSERT_TRUE(within) << length;
        }
        if (!within) continue;
        for (int i = 0; i < within->pointCount; ++i)
            EXPECT_GT(within->points[i].distance, 1.0f) << length;
    }
}

// No point of a box-triangle contact deeper than the least overlap and the axis bias allow (either side).
template <class T>
void expectNoDeeperThanTheOverlap(const BoxTriangleContact<T>& contact, const Obb<T>& box) {
    const T size = box.halfExtents.x + box.halfExtents.y + box.halfExtents.z;
    for (int i = 0; i < contact.pointCount; ++i)
        EXPECT_GE(contact.points[i].distance, (contact.separation - T(1e-3) * size) / T(0.98) - T(1e-5))
            << "separation " << contact.separation;
}

// A needle 1e9 long through a box, in double: its normal came from its two long edges, which nearly
// cancel, and the plane moved 0.15 off the triangle.
TEST(FuzzFindings, BoxTriangleNeedleKeepsItsPlane) {
    Mat3<double> rotation;
    rotation[0] = {0.942386449272432868973, -0.252621605995881626239, -0.219294560834868645927};
    rotation[1] = {-0.219294560834868645927, -0.961554069219322959938, 0.165298722185029917098};
    rotation[2] = {-0.252621605995881626239, -0.107685171457462772193, -0.961554069219322959938};
    const Obb<double> box{{-7.25, 6.875, 6.875}, rotation, {5.75, 4.625, 7.875}};
    const Triangle<double> triangle{{7.875, 7.875, 1e9}, {-8, -8, -8}, {4.875, 3, 4.875}};
    const auto contact = collideObbTriangle(box, triangle, 6.875, TriangleSide::Back);
    ASSERT_TRUE(contact);
    using Wide = glm::vec<3, long double, glm::defaultp>;
    const auto wide = [](const Vec3<double>& v) { return Wide(v.x, v.y, v.z); };
    const Wide normal =
        glm::normalize(glm::cross(wide(triangle.c) - wide(triangle.b), wide(triangle.a) - wide(triangle.c)));
    for (int i = 0; i < contact->pointCount; ++i)
        EXPECT_LT(std::abs(glm::dot(normal, wide(contact->points[i].onTriangle) - wide(triangle.b))), 1e-6L)
            << i;
}

// A triangle 9,000 long through a box 5 across: the axes' bias was 0.1% of a size that counted the
// triangle's longest edge (9.3 here), its normal won over a box face overlapping 0.25, the face's clipping
// over the needle found nothing, and the fallback reported a point 4 deep.
TEST(FuzzFindings, BoxTriangleNeedleIsNotTakenDeeperThanTheOverlap) {
    Mat3<float> rotation;
    rotation[0] = {0, -1, 0};
    rotation[1] = {0, 0, -1};
    rotation[2] = {1, 0, 0};
    const Obb<float> box{{1.1920929e-07f, -4.625f, -4.625f}, rotation, {4.875f, 4.875f, 4.875f}};
    const Triangle<float> triangle{
        {5389.404296875f, 5372.314453125f, 5372.314453125f}, {0.000537231448f, 6.875f, -2}, {0, 0, 0}};
    const auto contact = collideObbTriangle(box, triangle, 0.0f);
    ASSERT_TRUE(contact);
    expectNoDeeperThanTheOverlap(*contact, box);
}

// A box flat on two axes (a segment): its faces clip nothing, and the fallback corner took the depth
// along the triangle's normal (1.37) where the shapes overlap by 1.
TEST(FuzzFindings, FlatBoxFallbackIsNotDeeperThanTheOverlap) {
    Mat3<float> rotation;
    rotation[0] = {1, 0, 0};
    rotation[1] = {0, 0, 1};
    rotation[2] = {0, -1, 0};
    const Obb<float> box{{-2.625f, -2.625f, -7}, rotation, {0, 0, 5.375f}};
    const Triangle<float> triangle{{-8, 1.25f, 0}, {5.375f, -2.625f, -8}, {-8, -8, -8}};
    const auto contact = collideObbTriangle(box, triangle, 0.0f);
    ASSERT_TRUE(contact);
    expectNoDeeperThanTheOverlap(*contact, box);
}

// A box reaching past the largest float: its sums overflowed into NaN points.
TEST(FuzzFindings, BoxTriangleOverflowIsNoContact) {
    Mat3<float> rotation;
    rotation[0] = {-1, 0, 0};
    rotation[1] = {0, 1, 0};
    rotation[2] = {0, 0, -1};
    const Obb<float> box{
        {1.1920929e-07f, -7.25f, 3.40282347e+38f}, rotation, {4.875f, 4.875f, 3.40282347e+38f}};
    const Triangle<float> triangle{{0, 0, 0}, {-8, -8, -8}, {-6.875f, -1.875f, 0.39605713f}};
    const auto contact = collideObbTriangle(box, triangle, 3.96057148e-15f, TriangleSide::Front);
    if (!contact) return;
    for (int i = 0; i < contact->pointCount; ++i) {
        EXPECT_TRUE(std::isfinite(contact->points[i].distance));
        EXPECT_TRUE(std::isfinite(contact->points[i].onTriangle.x));
    }
}

// A ray running away from a plane 5e-246 behind its origin: -distance / approach underflowed to -0,
// which passed for t = 0.
TEST(FuzzFindings, RayRunningAwayFromAPlaneIsNoHitWhenItsParameterUnderflows) {
    const Plane<double> plane{{1, 0, 0}, -5.00030517578124946e-246};
    const RayPath<double> ray{{0, 0, -9.37255859375e-301}, {1.7976931348623157e308, 0, -7.8125e-276}, 1};
    const auto crossing = intersectRayPlane(ray, plane);
    ASSERT_TRUE(crossing);
    EXPECT_NE(crossing->outcome, RayPlaneOutcome::Hit);
}

// A triangle 1e-22 across in float: the watertight determinant's reciprocal overflowed and the
// barycentric weights came out infinite. (The fuzzer's ray passed 1e-38 beside its corner at the origin,
// which counted as on its edges while their subnormal edge functions rounded to 0; it misses now, so the
// ray goes through the triangle's middle.)
TEST(FuzzFindings, TinyTriangleHitHasFiniteWeights) {
    const Triangle<float> triangle{{9.33319071e-23f, 9.3722532e-23f, 9.3722532e-23f},
                                   {0, 0, 0},
                                   {9.3722532e-23f, -6.0964963e-23f, 9.3722532e-23f}};
    EXPECT_FALSE(intersectRayTriangle(RayPath<float>{{-9.99999935e-39f, 0, 0}, {0, 0, -3}, 1e9f}, triangle));
    const auto hit =
        intersectRayTriangle(RayPath<float>{{6.2e-23f, 1.1e-23f, 1}, {0, 0, -3}, 1e9f}, triangle);
    ASSERT_TRUE(hit);
    EXPECT_TRUE(std::isfinite(hit->u) && std::isfinite(hit->v));
}

// A sphere swept at a box whose "rotation" is a caller's garbage: taken back to the world by it, the
// contact overflowed to an infinite point.
TEST(FuzzFindings, SweepAtABoxWithAGarbageRotationIsFiniteOrNothing) {
    Mat3<float> garbage;
    garbage[0] = {2, -6, 0};
    garbage[1] = Vec3<float>(7.96051048e+36f);
    garbage[2] = Vec3<float>(7.96051048e+36f);
    const Obb<float> box{{0, -6, 0}, garbage, Vec3<float>(7.96051048e+36f)};
    const auto hit = sweepSphereObb(RayPath<float>{{-2.875f, -2.875f, -2.875f}, {0, 0, 2}, 1}, 0.0f, box);
    if (!hit) return;
    EXPECT_TRUE(std::isfinite(hit->point.x) && std::isfinite(hit->point.y) && std::isfinite(hit->point.z));
    EXPECT_TRUE(std::isfinite(hit->normal.x) && std::isfinite(hit->normal.y) && std::isfinite(hit->normal.z));
}

// A needle 6e-16 wide and 1.7 long in float, and a sphere whose centre lies in its plane 0.22 beyond its
// tip: which side of its long edges the centre lies on is rounding (their directions differ by less), so
// it was taken to be over the face and the contact point was the centre itself. A needle thinner than
// the rounding of its coordinates now counts as degenerate: no contact of its own (in a mesh its edges
// are its neighbours'), and a sweep's point comes from its edges (its tip).
TEST(FuzzFindings, SphereBesideANeedleTouchesItsTip) {
    const float e = 9.99969489e-15f;
    const Triangle<float> needle{
        {9.37469469e-15f, e, e}, {0.999969482f, 0.999969482f, 0.999969482f}, {e, e, e}};
    const auto contact = sphereTriangleContact(Sphere<float>{{1.125f, 1.125f, 1.125f}, 3.375f}, needle);
    if (contact) {
        EXPECT_LT(glm::length(contact->contact.pointOnB - needle.b), 1e-5f);
    }
    const auto hit = sweepSphereTriangle(
        RayPath<float>{
            {1.125f, 1.125f, 1.125f}, {-2.875f, -2.875f, 1.125f}, std::numeric_limits<float>::infinity()},
        3.375f, needle);
    ASSERT_TRUE(hit);
    EXPECT_LT(glm::length(hit->point - needle.b), 1e-5f);
}

// A point sweep (radius 0) along -y toward a triangle with a vertex at -1.8e308: the face is met 1.8e308
// away, and the ray-triangle test's point overflowed to infinity. Past the covered range: no hit.
TEST(FuzzFindings, SweepWhoseContactOverflowsIsNoHit) {
    const Triangle<double> triangle{{0, 0, -0.5},
                                    {0.00764678955078125, 0.00764984130859375, 0.00764678955078125},
                                    {0, -1.7976931348623157e308, 7.590637207031250503e-84}};
    const RayPath<double> path{{0, 0, 0}, {0, -1.875, 0}, std::numeric_limits<double>::infinity()};
    const auto hit = sweepSphereTriangle(path, 0.0, triangle);
    if (!hit) return;
    EXPECT_TRUE(std::isfinite(hit->point.x) && std::isfinite(hit->point.y) && std::isfinite(hit->point.z));
    EXPECT_TRUE(std::isfinite(hit->normal.x) && std::isfinite(hit->normal.y) && std::isfinite(hit->normal.z));
}

// The plane x = -1.8e308 and a segment from 0 to x = +1.8e308: the end's distance to the plane
// overflowed to infinity, and so did the scale it is compared with (inf <= inf), so the end passed for a
// point on the plane and a hit.
TEST(FuzzFindings, SegmentEndingFarFromAPlaneDoesNotHitIt) {
    const double huge = std::numeric_limits<double>::max();
    const Plane<double> plane{{-1, 0, 0}, huge};
    const auto crossing = intersectRayPlane(RayPath<double>{{0, 0, 0}, {huge, 0, 0}, 1}, plane);
    ASSERT_TRUE(crossing);
    EXPECT_NE(crossing->outcome, RayPlaneOutcome::Hit);
    // The same from the far end: an origin whose distance overflows is not on the plane.
    const auto fromFarEnd = intersectRayPlane(RayPath<double>{{huge, 0, 0}, {1, 0, 0}, 1}, plane);
    ASSERT_TRUE(fromFarEnd);
    EXPECT_NE(fromFarEnd->outcome, RayPlaneOutcome::Hit);
}

// A sliver in float whose shortest edge is the smallest subnormal (1.4e-45) and a ray through its
// vertex at the origin: the normal's products were subnormal, rounded to whole multiples of 1.4e-45, and
// tilted the plane by 3 degrees; the hit lay 0.015 from the vertex. Now the edges are scaled first.
TEST(FuzzFindings, SliverWithASubnormalEdgeIsHitOnItsPlane) {
    const Triangle<float> sliver{{0, 1.40129846e-45f, 0}, {0, 0, 0}, {-4.625f, -8, 2.125f}};
    const auto hit = intersectRayTriangle(RayPath<float>{{0, 0, -3.25f}, {0, 0, 6.875f}, 1e9f}, sliver);
    if (!hit) return;
    EXPECT_LT(glm::length(hit->point), 1e-6f);
    EXPECT_NEAR(hit->t, 3.25f / 6.875f, 1e-6f);
}

// A triangle 1e9 across in float and a sphere of radius 58 lying 2e8 off its plane: the squared height
// and the squared reach it is compared with both overflowed (inf <= inf), and the sphere got a contact
// (depth 0, at its projection 2e8 away) with a triangle it does not touch.
TEST(FuzzFindings, SphereFarFromAHugeTrianglesPlaneDoesNotTouchIt) {
    const Sphere<float> sphere{{-5.875f, -1.7202759e-38f, -5.875f}, 57.6446533f};
    const Triangle<float> triangle{{571319552.f, 2.125f, 3.125f},
                                   {2.125f, 5.764465e-39f, -423553472.f},
                                   {-423553472.f, -423553472.f, -9.9999994e-39f}};
    EXPECT_FALSE(sphereTriangleContact(sphere, triangle));
}

// A sliver in double, the z axis from -3.625 to 0 and a third vertex 5e-324 off it, and a ray from
// (0, 0, 0.375), on the axis' line 0.375 beyond the sliver: the edge function of its subnormal edge was
// 1.9e-324, which rounds to 0 ("on the edge"), and the ray hit at its origin, 0.375 from the triangle.
TEST(FuzzFindings, RayBesideASubnormalSliverDoesNotHitIt) {
    const double tiny = 4.94065645841246544e-324;
    const Triangle<double> sliver{{0, 0, -3.625}, {0, 0, 0}, {-tiny, -tiny, 0}};
    const RayPath<double> ray{{0, 0, 0.375}, {-3.75, 1.125, 1.25}, std::numeric_limits<double>::infinity()};
    EXPECT_FALSE(intersectRayTriangle(ray, sliver));
}

// Segments 3e-22 and 3.4e-4 long in float meeting at a point: the short one's cross product with the
// long one underflowed, the pair was taken as parallel, and one order of the arguments gave the long
// segment's far end (3.4e-4 apart) instead of the shared point.
TEST(FuzzFindings, SegmentMuchShorterThanAnotherIsAPointBesideIt) {
    const float a = 3.41156012e-22f, b = 3.41155994e-23f, c = 3.41156003e-4f;
    const Vec3<float> p0{a, a, a}, p1{a, a, b}, q0{c, a, a}, q1{a, a, a};
    for (const auto& pair :
         {closestPointsSegmentSegment(p0, p1, q0, q1), closestPointsSegmentSegment(q0, q1, p0, p1)}) {
        ASSERT_TRUE(pair);
        EXPECT_LT(glm::length(pair->pointOnP - pair->pointOnQ), 1e-20f);
    }
}

// An ellipsoid 3.4e38 long in float and a ray along it: its exit within the ray lies beyond the largest
// float, and was reported as an infinite point.
TEST(FuzzFindings, EllipsoidCrossingWhosePointOverflowsIsNoHit) {
    const Ellipsoid<float> ellipsoid{
        {0, 0, 1.1920929e-7f}, Mat3<float>(1), {1.1920929e-7f, 3.40282347e38f, 2}};
    for (const Vec3<float> direction :
         {Vec3<float>{0, 1.1920929e-7f, -3.40282347e38f}, Vec3<float>{0, 3.40282347e38f, 0}}) {
        const auto crossing = intersectRayEllipsoid(RayPath<float>{{0, 0, 0}, direction, 1e9f}, ellipsoid);
        if (!crossing) continue;
        for (const SurfaceHit<float>& end : {crossing->entry, crossing->exit}) {
            if (end.t < 0 || end.t > 1e9f) continue;
            EXPECT_TRUE(std::isfinite(end.point.x) && std::isfinite(end.point.y) &&
                        std::isfinite(end.point.z));
        }
    }
}

// The plane x = -3.4e38 and a segment from 0 to x = -6e35 (float): the end's distance to the plane is
// finite (-3.4e38), but the magnitudes it is compared with summed to infinity, and the end passed for a
// point on the plane. Likewise a point whose |n|.|p| overflows while n.p does not.
TEST(FuzzFindings, ToleranceOfAPointFarFromAHugePlaneIsFinite) {
    const Plane<float> plane{{-1, 0, 0}, 3.40282347e38f};
    const auto crossing = intersectRayPlane(
        RayPath<float>{{0, 0, -3.2351684e-29f}, {-6.07818616e35f, -3.75f, -4.625f}, 1}, plane);
    ASSERT_TRUE(crossing);
    EXPECT_NE(crossing->outcome, RayPlaneOutcome::Hit);
    const float half = 0.707106781f;
    const auto far = classifyPointPlane(Vec3<float>{3e38f, -3e38f, 0}, Plane<float>{{half, half, 0}, 1e36f});
    ASSERT_TRUE(far);
    EXPECT_NE(far->side, PlaneSide::On);
}

// A triangle 1e-79 across in double and a segment from (-0.375, -999, 0.0008) to the origin: the
// triangle's fourth powers were subnormal, its plane all rounding, and the closest point "on" it came out
// far from it. Such a triangle's closest points now come from its edges.
TEST(FuzzFindings, TriangleWhoseFourthPowersAreSubnormalIsTakenByItsEdges) {
    const Triangle<double> tiny{
        {-9.99969482421875e-80, 0, 0}, {7.893371582031249e-80, 0, 9.140625e-80}, {0, 0, 0}};
    const auto pair =
        closestPointsSegmentTriangle(Vec3<double>{-0.375, -999.3896484375, 0.000796051025390625},
                                     Vec3<double>{-9.9957275390625e-309, -2.375, -8.4228515625e-309}, tiny);
    ASSERT_TRUE(pair);
    EXPECT_LT(glm::length(pair->pointOnTriangle), 1e-78);
}

// A point sphere at the origin and a capsule of radius 3.5e-21 whose axis ends 3.5e-21 from it (float):
// touch was decided on squares (subnormal, equal), and the depth, from the rounded length, was negative.
TEST(FuzzFindings, SphereTouchingACapsuleHasNoNegativeDepth) {
    const float r = 3.48999011e-21f;
    const auto contact = sphereCapsuleContact(
        Sphere<float>{{0, 0, 0}, 0}, Capsule<float>{{0, 0, r}, {3.48999023f, 3.48999023f, 3.48999023f}, r});
    if (contact) {
        EXPECT_GE(contact->depth, 0.0f);
    }
}

// A ray along a cone's axis from the base's centre out through the apex (double): there the part of the
// point across the axis is all rounding, one projection left a part along the axis as large, and the
// side's normal came out 0.94 long.
TEST(FuzzFindings, ConeLeftThroughItsApexHasAUnitNormal) {
    const RoundedCone<double> cone{{{-5.125, -5.125, -5.125}, {0, 0, 0}, 2}, 0};
    const auto crossing =
        intersectRayRoundedCone(RayPath<double>{{0, 0, 0}, {-5.125, -5.125, -5.125}, 1e9}, cone);
    ASSERT_TRUE(crossing);
    EXPECT_NEAR(glm::length(crossing->exit.normal), 1.0, 1e-12);
    EXPECT_NEAR(glm::length(crossing->entry.normal), 1.0, 1e-12);
}

// A convex hull's face 6.9e-8 in front of the origin, and a ray leaving it along a direction 3.4e38 long
// (float): -distance / approach underflowed to -0, which passed for leaving at t = 0, and the origin was
// reported inside.
TEST(FuzzFindings, OriginOutsideAFaceItLeavesIsNotInsideWhenTheParameterUnderflows) {
    const float third = 0.577350259f;
    const std::vector<Plane<float>> planes{{{third, third, third}, 8.19580067e-38f},
                                           {{-1, 0, 0}, 8.19580067e-38f},
                                           {{0.707106769f, 0.707106769f, 0}, 0},
                                           {{1, 0, 0}, 0}};
    const RayPath<float> ray{{0, -1.00000000317e-28f, 1.1920929e-7f}, {1.1920929e-7f, 3.40282347e38f, 0}, 1};
    EXPECT_FALSE(intersectRayConvexPlanes(ray, std::span<const Plane<float>>(planes)));
}

// A capsule whose axis is 2e-159 long (double), inside a box: the edge axes' cross products with it
// had subnormal squares, and the one taken gave a normal not unit. Such an axis is a sphere's: the face
// axes settle it.
TEST(FuzzFindings, CapsuleWithAnAxisTooShortForEdgeAxesHasAUnitNormal) {
    Mat3<double> rotation(1);
    rotation[0] = {-1, 0, 0};
    rotation[1] = {0, -1, 0};
    const Capsule<double> capsule{{1.7645263671875001e-159, 1.7645263671875001e-159, 1.7965698242187501e-159},
                                  {1.7645263671874999e-297, 1.7645263671875001e-159, 3.8739013671875003e-159},
                                  6.5};
    const Obb<double> box{Vec3<double>(0.17645263671875), rotation, Vec3<double>(6.5)};
    const auto contact = capsuleObbContact(capsule, box, 6.5);
    ASSERT_TRUE(contact);
    EXPECT_NEAR(glm::length(contact->normal), 1.0, 1e-12);
}

// A sphere tangent to a triangle's face at its start (float: its lowest point exactly on the plane z = -8),
// moving into it. Its height above the plane rounded to the radius, so the face's moving test was skipped
// for the static contact, whose own rounding found the sphere 1 ulp clear; the edges' capsules then gave
// a contact 0.013 along the path with the point moved onto the face, 2.297 from the centre (radius 2.375).
// The sphere touches the face at its start: t = 0, on the face below the centre.
TEST(FuzzFindings, SphereTangentToAFaceAtItsStartTouchesItThere) {
    const Triangle<float> triangle{{4.375f, 0.000117156982f, -8}, {-8, 2.125f, -8}, {-8, -8, -8}};
    const RayPath<float> path{{-0.0f, 0.125f, -5.625f}, {-5.125f, 2, -5.875f}, 1};
    const auto hit = sweepSphereTriangle(path, 2.375f, triangle);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, 0.0f);
    EXPECT_TRUE(hit->startsInContact);
    EXPECT_LT(glm::length(hit->point - Vec3<float>(0, 0.125f, -8)), 1e-5f);
    EXPECT_EQ(hit->normal, Vec3<float>(0, 0, 1));
}

// Found while writing the contracts; in both scalars.
template <class T> class ContractFindings : public ::testing::Test {};
TYPED_TEST_SUITE(ContractFindings, test::Scalars);

template <class T> bool allFinite(const Vec3<T>& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The half-space x >= -1 has no exit along +x: the line's exit at t = +infinity is no surface, and a ray
// that never leaves reports nothing under HitExit, nor a crossing where it would leave.
TYPED_TEST(ContractFindings, UnboundedSolidIsNotLeftAtInfinity) {
    using T = TypeParam;
    const std::vector<Plane<T>> planes{{{-1, 0, 0}, 1}};
    const RayPath<T> ray{{0, 0, 0}, {1, 0, 0}, std::numeric_limits<T>::infinity()};
    const auto crossing = intersectRayConvexPlanes(ray, std::span<const Plane<T>>(planes));
    ASSERT_TRUE(crossing);
    ASSERT_TRUE(crossing->originInside);
    EXPECT_FALSE(firstHit(crossing, ray, StartInside::HitExit));
    EXPECT_EQ(surfaceCrossings(crossing, ray).count, 0);
    // Going the other way it leaves through the plane at t = 1: reported by both.
    const RayPath<T> back{{0, 0, 0}, {-1, 0, 0}, std::numeric_limits<T>::infinity()};
    const auto leaving = firstHit(intersectRayConvexPlanes(back, std::span<const Plane<T>>(planes)), back,
                                  StartInside::HitExit);
    ASSERT_TRUE(leaving);
    EXPECT_EQ(leaving->t, T(1));
    const auto crossings =
        surfaceCrossings(intersectRayConvexPlanes(back, std::span<const Plane<T>>(planes)), back);
    ASSERT_EQ(crossings.count, 1);
    EXPECT_FALSE(crossings.entering[0]);
    EXPECT_EQ(crossings.hits[0].t, T(1));
}

// A finite direction whose product with the radii overflows: only its direction matters.
TYPED_TEST(ContractFindings, EllipsoidSupportAlongAHugeDirectionIsFinite) {
    using T = TypeParam;
    const T huge = std::numeric_limits<T>::max() * T(0.75);
    const Vec3<T> radii{2, 1, 1};
    const EllipsoidSupport<T> support = ellipsoidSupport(radii, Vec3<T>{huge, huge, 0});
    ASSERT_TRUE(allFinite(support.point));
    // Exact: along (1, 1, 0) the point is radii^2 d / |radii d| = (4, 1, 0) / sqrt(5); the reach,
    // |radii * direction| = sqrt(5) huge, is beyond the scalar's range.
    const test::Real root5 = std::sqrt(test::Real(5));
    EXPECT_NEAR(double(support.point.x), double(4 / root5), 4e-7);
    EXPECT_NEAR(double(support.point.y), double(1 / root5), 4e-7);
    EXPECT_EQ(support.point.z, T(0));
    EXPECT_EQ(support.reach, std::numeric_limits<T>::infinity());
    // A direction as huge whose reach fits: the same point, the reach |radii * direction| exactly.
    const EllipsoidSupport<T> fits = ellipsoidSupport(Vec3<T>{T(0.25), 1, 1}, Vec3<T>{huge, 0, 0});
    EXPECT_EQ(fits.point, (Vec3<T>{T(0.25), 0, 0}));
    EXPECT_EQ(fits.reach, huge / 4);
    // The smallest directions too: radii * direction underflows to zero here.
    const T tiny = std::numeric_limits<T>::denorm_min();
    const Vec3<T> flat{T(0.5), T(0.25), 1};
    const EllipsoidSupport<T> small = ellipsoidSupport(flat, Vec3<T>{tiny, tiny, 0});
    ASSERT_NE(small.point, Vec3<T>(0));
    const test::Real x = test::Real(small.point.x) / 0.5L, y = test::Real(small.point.y) / 0.25L;
    EXPECT_NEAR(double(x * x + y * y), 1.0, 1e-6);
    // Exact: radii^2 d / |radii d| = (0.25, 0.0625, 0) / sqrt(0.3125).
    EXPECT_NEAR(double(small.point.x), double(0.25L / std::sqrt(0.3125L)), 1e-6);
    EXPECT_GT(small.reach, T(0));
}

// A negative target radius is an invalid size even while the grown radius is positive.
TYPED_TEST(ContractFindings, SweepRejectsANegativeTargetRadius) {
    using T = TypeParam;
    const RayPath<T> path{{-5, 0, 0}, {1, 0, 0}, 10};
    EXPECT_FALSE(sweepSphereSphere(path, T(1), Sphere<T>{{0, 0, 0}, T(-0.5)}));
    EXPECT_FALSE(sweepSphereCapsule(path, T(1), Capsule<T>{{0, -1, 0}, {0, 1, 0}, T(-0.5)}));
    EXPECT_FALSE(
        sweepSphereSphere(RayPath<T>{{0.25, 0, 0}, {0, 0, 0}, 10}, T(1), Sphere<T>{{0, 0, 0}, T(-0.5)}));
    // The same with radius 0.5 is hit where the grown sphere begins.
    const auto hit = sweepSphereSphere(path, T(1), Sphere<T>{{0, 0, 0}, T(0.5)});
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->t, T(3.5));
    EXPECT_TRUE(sweepSphereCapsule(path, T(1), Capsule<T>{{0, -1, 0}, {0, 1, 0}, T(0.5)}));
}

// Input intersectRayPlane rejects gives bounds no segment meets, never NaN.
TYPED_TEST(ContractFindings, BoundsOfRejectedPlanesAreEmpty) {
    using T = TypeParam;
    const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
    const auto isEmpty = [](const Aabb<T>& box) {
        bool emptyAxis = false;
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_FALSE(std::isnan(box.min[axis]) || std::isnan(box.max[axis]));
            emptyAxis = emptyAxis || box.min[axis] > box.max[axis];
        }
        return emptyAxis;
    };
    const RayPath<T> ray{{0, 0, -3}, {0, 0, 6}, 1};
    for (const T offset : {nan, inf, -inf}) {
        const Plane<T> plane{{0, 0, 1}, offset};
        EXPECT_FALSE(intersectRayPlane(ray, plane));
        EXPECT_TRUE(isEmpty(boundsOfRayPlaneHits(plane)));
    }
    const Plane<T> plane{{0, 0, 1}, 1};
    for (const T tolerance : {T(-1e-3), nan, inf}) {
        EXPECT_FALSE(intersectRayPlane(ray, plane, tolerance));
        EXPECT_TRUE(isEmpty(boundsOfRayPlaneHits(plane, tolerance)));
    }
    for (const Vec3<T>& normal : {Vec3<T>{nan, 0, 1}, Vec3<T>{0, 0, 2}}) {
        EXPECT_FALSE(intersectRayPlane(ray, Plane<T>{normal, 1}));
        EXPECT_TRUE(isEmpty(boundsOfRayPlaneHits(Plane<T>{normal, 1})));
    }
    // A valid plane still gets its slab, around z = 1.
    const Aabb<T> slab = boundsOfRayPlaneHits(plane);
    EXPECT_LE(slab.min.z, T(1));
    EXPECT_GE(slab.max.z, T(1));
    EXPECT_EQ(slab.min.x, -inf);
}

// A degenerate triangle (a needle) overlapped by a sphere at rest: the contact at t = 0 the moving sphere
// gets, at its edges' point nearest the centre.
TYPED_TEST(ContractFindings, StaticSphereOverlappingANeedleTouchesItsEdges) {
    using T = TypeParam;
    const Triangle<T> needle{{0, 0, 0}, {1, 0, 0}, {T(0.5), T(1e-20), 0}};
    ASSERT_TRUE(triangleFrame(needle).degenerate);
    const Vec3<T> centre{T(0.5), 0, T(0.5)};
    const auto moving = sweepSphereTriangle(RayPath<T>{centre, {0, 0, -1}, 1}, T(1), needle);
    const auto resting = sweepSphereTriangle(RayPath<T>{centre, Vec3<T>(0), 1}, T(1), needle);
    ASSERT_TRUE(moving);
    ASSERT_TRUE(resting);
    EXPECT_EQ(resting->t, T(0));
    EXPECT_TRUE(resting->startsInContact);
    EXPECT_NEAR(double(resting->point.x), 0.5, 1e-6);
    EXPECT_NEAR(double(resting->point.y), 0.0, 1e-6);
    EXPECT_NEAR(double(resting->point.z), 0.0, 1e-6);
    EXPECT_NEAR(double(resting->normal.z), 1.0, 1e-6);
    EXPECT_NEAR(double(glm::length(resting->point - moving->point)), 0.0, 1e-6);
    EXPECT_NEAR(double(glm::dot(resting->normal, moving->normal)), 1.0, 1e-6);
    // Out of reach: nothing.
    EXPECT_FALSE(sweepSphereTriangle(RayPath<T>{{T(0.5), 0, 2}, Vec3<T>(0), 1}, T(1), needle));
    // A centre on the segment: the contact there, a unit normal perpendicular to the segment.
    const auto onIt = sweepSphereTriangle(RayPath<T>{{T(0.25), 0, 0}, Vec3<T>(0), 1}, T(1), needle);
    ASSERT_TRUE(onIt);
    EXPECT_TRUE(onIt->startsInContact);
    EXPECT_NEAR(double(glm::length(onIt->normal)), 1.0, 1e-6);
    EXPECT_NEAR(double(onIt->normal.x), 0.0, 1e-6);
    EXPECT_NEAR(double(onIt->point.x), 0.25, 1e-6);
    // A point triangle, and culling: one-sided, a degenerate triangle is still passed through.
    const Triangle<T> point{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
    const auto atPoint = sweepSphereTriangle(RayPath<T>{{1, 1, T(1.5)}, Vec3<T>(0), 1}, T(1), point);
    ASSERT_TRUE(atPoint);
    EXPECT_NEAR(double(atPoint->normal.z), 1.0, 1e-6);
    EXPECT_FALSE(
        sweepSphereTriangle(RayPath<T>{centre, Vec3<T>(0), 1}, T(1), needle, FaceCulling::BackFaces));
}

// ---------------------------------------------------------------------------------------------------
// The sweeps against cylinders, cones and ellipsoids (fuzz_sphere_sweep), in float and double.

using test::Real;

template <class T> class FuzzFindingsRoundSweeps : public ::testing::Test {};
TYPED_TEST_SUITE(FuzzFindingsRoundSweeps, test::Scalars);

template <class T> RayPath<T> pathFrom(const Vec3<T>& origin, const Vec3<T>& direction, T maxT = T(1)) {
    return {origin, direction, maxT};
}

// How far the point lies off the ellipsoid's surface, at least: | |q| - 1 | times the smallest radius, q
// the point in the unit-sphere frame (that frame stretches distances by at most 1 / the smallest radius).
template <class T> Real surfaceError(const Ellipsoid<T>& ellipsoid, const Vec3<T>& point) {
    const Vec3<Real> local = glm::transpose(Mat3<Real>(test::widen(ellipsoid.rotation))) *
                             (test::widen(point) - test::widen(ellipsoid.center));
    const Vec3<Real> radii = test::widen(ellipsoid.radii);
    return std::abs(glm::length(local / radii) - 1) * std::min({radii.x, radii.y, radii.z});
}

// A centre inside a nearly round ellipsoid, near its centre: the nearest surface point lies near the end
// of the smallest axis, where the root s of Eberly's function is near -1; its denominators s + 1 lost
// their digits to cancellation (found by fuzz_sphere_sweep: a point 20 units off a float ellipsoid of
// radius 54,000).
TYPED_TEST(FuzzFindingsRoundSweeps, EllipsoidCentreInsideNearlyRound) {
    using T = TypeParam;
    const Ellipsoid<T> target{Vec3<T>(8, -1, 0), Mat3<T>(1), Vec3<T>(T(54312.13), T(54507.45), T(54507.45))};
    for (const Vec3<T> offset : {Vec3<T>(-9.875, 6.875, 0), Vec3<T>(0.5, -3, 2), Vec3<T>(-1e-3, 2, 7)}) {
        const auto hit =
            sweepSphereEllipsoid(pathFrom(target.center + offset, Vec3<T>(0, 2, -6)), T(2.875), target);
        ASSERT_TRUE(hit.has_value());
        EXPECT_TRUE(hit->startsInContact);
        EXPECT_LE(surfaceError(target, hit->point), 64 * Real(unitRoundoff<T>) * 54507)
            << "point " << test::text(hit->point);
        // The nearest surface point is the smallest axis' end on the centre's side.
        EXPECT_NEAR(double(hit->normal.x), offset.x < 0 ? -1.0 : 1.0, 1e-3);
    }
}

// A centre a subnormal step from a narrow cone's apex (found by fuzz_sphere_sweep in double): the
// offset's length rounded to one subnormal unit, and the normal, divided by it, came out (1, 1) across
// the section: |normal| 1.8.
TYPED_TEST(FuzzFindingsRoundSweeps, SubnormalOffsetFromTheApex) {
    using T = TypeParam;
    const T d = std::numeric_limits<T>::denorm_min();
    const Cone<T> cone{Vec3<T>(0), Vec3<T>(0, 0, -2), sizeof(T) == sizeof(float) ? T(1e-10) : T(1e-53)};
    for (const T radius : {T(0), d, T(1)}) {
        for (const Vec3<T> origin : {Vec3<T>(d, 0, -d), Vec3<T>(0, d, d), Vec3<T>(-d, d, 0)}) {
            const auto hit = sweepSphereCone(pathFrom(origin, Vec3<T>(0, 0, -6)), radius, cone);
            ASSERT_TRUE(hit.has_value());
            EXPECT_TRUE(hit->startsInContact);
            EXPECT_NEAR(double(glm::length(test::widen(hit->normal))), 1.0, 8 * double(unitRoundoff<T>))
                << test::text(hit->normal);
            EXPECT_LE(glm::length(test::widen(hit->point)), 4 * Real(d));
        }
    }
}

// A centre a subnormal step from the apex of a cone with a tilted axis (found by fuzz_sphere_sweep in
// float): the offset's parts along and across the axis rounded to whole subnormal units, and the
// radial direction came out 60 degrees off perpendicular: |normal| 1.22.
TYPED_TEST(FuzzFindingsRoundSweeps, SubnormalOffsetAcrossATiltedAxis) {
    using T = TypeParam;
    const T d = std::numeric_limits<T>::denorm_min();
    const Cone<T> cone{Vec3<T>(0), Vec3<T>(0.125, -6, -3.5), T(0.375)};
    const auto fuzzed = sweepSphereCone(pathFrom(Vec3<T>(-6, 0, d), Vec3<T>(6.25, 0, 0)), T(2.5e-7), cone);
    ASSERT_TRUE(fuzzed.has_value());
    EXPECT_NEAR(double(glm::length(test::widen(fuzzed->normal))), 1.0, 8 * double(unitRoundoff<T>));
    for (const Vec3<T> offset :
         {Vec3<T>(0, 0, d), Vec3<T>(d, 0, 0), Vec3<T>(0, 3 * d, -d), Vec3<T>(5 * d, -d, 2 * d)}) {
        const auto hit = sweepSphereCone(pathFrom(offset, Vec3<T>(0)), T(1e-7), cone);
        ASSERT_TRUE(hit.has_value());
        EXPECT_NEAR(double(glm::length(test::widen(hit->normal))), 1.0, 8 * double(unitRoundoff<T>))
            << test::text(hit->normal);
        EXPECT_LE(glm::length(test::widen(hit->point)), 16 * Real(d));
    }
}

// A centre on the axis, beyond the apex or inside (found by fuzz_sphere_sweep in float, on a cone of
// size 1e-14 at 1e-38): what the projections leave across the axis is rounding, here along the axis
// itself, and the radial direction taken from it made the normal (-0.79, -0.79, -0.79).
TYPED_TEST(FuzzFindingsRoundSweeps, CentreOnATiltedAxis) {
    using T = TypeParam;
    const T m = std::numeric_limits<T>::min();
    const Cone<T> fuzzed{Vec3<T>(m), Vec3<T>(T(1e-14)), T(1e-14)};
    const auto hit = sweepSphereCone(pathFrom(Vec3<T>(0), Vec3<T>(2, -6, 0), T(6.75)), T(6.75), fuzzed);
    ASSERT_TRUE(hit.has_value());
    EXPECT_NEAR(double(glm::length(test::widen(hit->normal))), 1.0, 8 * double(unitRoundoff<T>))
        << test::text(hit->normal);
    test::Random random(71);
    for (int i = 0; i < 200; ++i) {
        const Vec3<T> axis(random.unitVector<double>());
        const Cone<T> cone{Vec3<T>(0), axis, T(0.5)};
        const Cylinder<T> cylinder{Vec3<T>(0), axis, T(0.5)};
        for (const T along : {T(-1), T(0.25), T(0.75), T(1.5), T(-1e-20), T(-1e-30)}) {
            const Vec3<T> center = along * axis;
            for (const auto& swept : {sweepSphereCone(pathFrom(center, Vec3<T>(0)), T(3), cone),
                                      sweepSphereCylinder(pathFrom(center, Vec3<T>(0)), T(3), cylinder)}) {
                ASSERT_TRUE(swept.has_value());
                EXPECT_NEAR(double(glm::length(test::widen(swept->normal))), 1.0, 8 * double(unitRoundoff<T>))
                    << "axis " << test::text(axis) << ", along " << along << ": "
                    << test::text(swept->normal);
            }
        }
    }
}

// A centre a subnormal distance from the centre of a round ellipsoid (found by fuzz_sphere_sweep in
// double): Eberly's root w is then subnormal, and its function's slope, of order 1 / w, overflowed to
// infinity: the Newton step came out 0 and was taken for convergence, 3.5% short of the root, and the
// point 0.29 inside a ball of radius 3.25.
TYPED_TEST(FuzzFindingsRoundSweeps, EllipsoidSubnormalRoot) {
    using T = TypeParam;
    const T m = std::numeric_limits<T>::min(), d = std::numeric_limits<T>::denorm_min();
    const Mat3<T> rotation(Vec3<T>(0, 1, 0), Vec3<T>(-1, 0, 0), Vec3<T>(0, 0, 1));
    for (const Vec3<T> radii : {Vec3<T>(3.25), Vec3<T>(3.25, 3.25, 5), Vec3<T>(2, 3, 4)}) {
        const Ellipsoid<T> target{Vec3<T>(0), rotation, radii};
        for (const Vec3<T> origin : {Vec3<T>(m, T(-0.448) * m, 0), Vec3<T>(m / 3, m / 5, 0),
                                     Vec3<T>(7 * d, 3 * d, 0), Vec3<T>(m / 7, 0, m / 9)}) {
            const auto hit = sweepSphereEllipsoid(pathFrom(origin, Vec3<T>(2, 0.375, 2)), T(4.5), target);
            ASSERT_TRUE(hit.has_value());
            EXPECT_LE(surfaceError(target, hit->point), 64 * Real(unitRoundoff<T>) * 5)
                << "radii " << test::text(radii) << ", origin " << test::text(origin) << ": point "
                << test::text(hit->point);
        }
    }
}

// A path from the largest value toward a solid, unbounded (found by fuzz_sphere_sweep in double): the
// touching tolerance, a rounding of |origin| + |centre|, overflowed to infinity, so the first gap passed
// for a touch, and the hit came at t = infinity.
TYPED_TEST(FuzzFindingsRoundSweeps, FromTheLargestValue) {
    using T = TypeParam;
    const T big = std::numeric_limits<T>::max(), inf = std::numeric_limits<T>::infinity();
    const Cylinder<T> cylinder{Vec3<T>(4.625, 0.375, 0.375), Vec3<T>(0.375, 0.375, 0.25), T(0.375)};
    const Cone<T> cone{Vec3<T>(4.625, 0.375, 0.375), Vec3<T>(0.375, 0.375, 0.25), T(0.375)};
    const Ellipsoid<T> ellipsoid{Vec3<T>(0.375), Mat3<T>(1), Vec3<T>(4, 0.375, 0.25)};
    const auto valid = [](const std::optional<SphereSweepHit<T>>& hit, T maxT) {
        return !hit || (std::isfinite(hit->t) && hit->t >= T(0) && hit->t <= maxT && isFinite(hit->point) &&
                        isFinite(hit->normal));
    };
    for (const T maxT : {inf, big, T(1)}) {
        for (const RayPath<T>& path :
             {pathFrom(Vec3<T>(0.375, -big, 0), Vec3<T>(std::numeric_limits<T>::denorm_min(), 0.375, 2),
                       maxT),
              pathFrom(Vec3<T>(0.375, -big, 0), Vec3<T>(0, big, 0), maxT),
              pathFrom(Vec3<T>(-big, -big, big), Vec3<T>(1, 1, -1), maxT)}) {
            EXPECT_TRUE(valid(sweepSphereCylinder(path, T(1), cylinder), maxT));
            EXPECT_TRUE(valid(sweepSphereCone(path, T(1), cone), maxT));
            EXPECT_TRUE(valid(sweepSphereEllipsoid(path, T(1), ellipsoid), maxT));
        }
    }
}

// A centre inside, a subnormal (or all but) distance off the plane of an ellipsoid's larger axes, near
// enough to its centre that the nearest point lies off that plane (found by fuzz_sphere_sweep in float
// and double): Eberly's root w is then about that distance over the point's height, and its term's z
// underflowed: the point came out far inside (|q|^2 0.25 and 0.98 in the unit-sphere frame).
TYPED_TEST(FuzzFindingsRoundSweeps, EllipsoidTinyOffThePlane) {
    using T = TypeParam;
    const T m = std::numeric_limits<T>::min(), d = std::numeric_limits<T>::denorm_min();
    for (const Vec3<T> radii :
         {Vec3<T>(2.25, 4.875, 4.875), Vec3<T>(T(54278.5625), T(54507.4453125), T(54507.4453125)),
          Vec3<T>(1, 2, 3)}) {
        const Ellipsoid<T> target{Vec3<T>(0), Mat3<T>(1), radii};
        for (const T offPlane : {d, 3 * d, m, m / 3, T(1e-30)}) {
            for (const Vec3<T> origin : {Vec3<T>(offPlane, 0.875, 0), Vec3<T>(offPlane, 0, 2.5),
                                         Vec3<T>(offPlane, 0.25, 0.5), Vec3<T>(-offPlane, 0.125, -0.25)}) {
                const auto hit = sweepSphereEllipsoid(pathFrom(origin, Vec3<T>(1, 1, 1)), T(0.125), target);
                ASSERT_TRUE(hit.has_value())
                    << "radii " << test::text(radii) << ", origin " << test::text(origin);
                EXPECT_LE(surfaceError(target, hit->point),
                          64 * Real(unitRoundoff<T>) * maxAbsComponent(Vec3<Real>(test::widen(radii))))
                    << "radii " << test::text(radii) << ", origin " << test::text(origin) << ": point "
                    << test::text(hit->point);
            }
        }
    }
}

// A ray (radius 0) along a cone's axis, a subnormal step off it, into the apex (found by fuzz_sphere_sweep
// in float): a subnormal step from the apex, the normal came out across the axis, the step to the touch
// (that step over an approach as tiny) ran deep inside, and inside was taken for touching: the hit at
// t = 0.37 instead of 0.17, 0.22 from its point.
TYPED_TEST(FuzzFindingsRoundSweeps, RayAlongTheAxisIntoTheApex) {
    using T = TypeParam;
    const T d = std::numeric_limits<T>::denorm_min();
    const Cone<T> cone{Vec3<T>(0.375, d, 0), Vec3<T>(2, 0, 0), T(0.375)};
    for (const Vec3<T> offset :
         {Vec3<T>(0, 0, -d), Vec3<T>(0, d, 0), Vec3<T>(0, -3 * d, 2 * d), Vec3<T>(0)}) {
        const RayPath<T> path = pathFrom(Vec3<T>(-0.5, 0, 0) + offset, Vec3<T>(5.125, 0, 0));
        const auto hit = sweepSphereCone(path, T(0), cone);
        ASSERT_TRUE(hit.has_value());
        EXPECT_NEAR(double(hit->t), 0.875 / 5.125, 1e-6) << test::text(offset);
        EXPECT_LE(glm::length(test::widen(hit->point) - test::widen(cone.apex)), 1e-6);
        EXPECT_LE(glm::length(test::widen(path.at(hit->t)) - test::widen(hit->point)), 1e-6);
    }
}

}  // namespace
}  // namespace analytic
