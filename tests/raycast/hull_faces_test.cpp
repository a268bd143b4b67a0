// SPDX-License-Identifier: Zlib
// The faces we compute for btConvexHullShape / btConvexPointCloudShape (plugin/src/cast/hull_faces.hpp),
// in the build's btScalar: hulls of random clouds (cube, sphere, ball, prisms) against a brute force in long
// double (every plane through three points with all points on one side), the invariants of every hull
// (every point inside every plane, planes on their faces, loops convex and counter-clockwise seen from
// outside, each edge between two faces, V - E + F = 2), scaled shapes; the cache (same handle on a hit,
// a new hull after points edited in place, a new scaling, a new shape at a freed one's address, bounded
// size, lookups from many threads); hostile clouds (null or a checked hull, never a crash).
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <thread>
#include <utility>
#include <vector>

#include "cast/hull_faces.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

using Scalar = btScalar;
using cast::buildHullFaces;
using cast::HullFaces;
using cast::hullFacesOf;

constexpr Real kEpsilon = Real(std::numeric_limits<Scalar>::epsilon());

RealVec3 real(const btVector3& v) { return {Real(v.x()), Real(v.y()), Real(v.z())}; }
RealVec3 real(const Vec3<Scalar>& v) { return {Real(v.x), Real(v.y), Real(v.z)}; }

std::vector<btVector3> scaledPoints(const std::vector<btVector3>& points, const btVector3& scaling) {
    std::vector<btVector3> scaled;
    for (const btVector3& p : points)
        scaled.push_back(p * scaling);
    return scaled;
}

Real reachOf(const std::vector<btVector3>& scaled) {
    Real reach = 0;
    for (const btVector3& p : scaled)
        reach = std::max(reach, glm::length(real(p)));
    return reach;
}

// Every guarantee of the header, checked on the hull of the scaled points.
void expectValidHull(const HullFaces& hull, const std::vector<btVector3>& scaled) {
    const std::size_t faces = hull.faceCount();
    ASSERT_GE(faces, 4u);
    ASSERT_EQ(hull.faceStarts.size(), faces + 1);
    ASSERT_EQ(hull.faceStarts.back(), hull.loopVertices.size());
    const Real tolerance = Real(cast::kHullFacesTolerance) * kEpsilon * reachOf(scaled);
    // Vertices are points of the cloud.
    std::set<std::array<Scalar, 3>> cloud;
    for (const btVector3& p : scaled)
        cloud.insert({p.x(), p.y(), p.z()});
    for (const Vec3<Scalar>& v : hull.vertices)
        EXPECT_TRUE(cloud.count({v.x, v.y, v.z})) << text(v);
    for (std::size_t f = 0; f < faces; ++f) {
        const Plane<Scalar>& plane = hull.planes[f];
        const RealVec3 n = real(plane.normal);
        ASSERT_TRUE(std::isfinite(plane.offset));
        EXPECT_NEAR(double(glm::length(n)), 1.0, double(4 * kEpsilon));
        // Every point inside, exactly: in double (products of floats are exact there), allowing only a
        // bound of the double rounding (products of doubles and the sum).
        const double nx = plane.normal.x, ny = plane.normal.y, nz = plane.normal.z;
        std::size_t outside = 0, worst = 0;
        double worstExcess = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < scaled.size(); ++i) {
            const btVector3& p = scaled[i];
            const double x = nx * double(p.x()), y = ny * double(p.y()), z = nz * double(p.z());
            const double slack =
                4 * std::numeric_limits<double>::epsilon() * (std::abs(x) + std::abs(y) + std::abs(z));
            const double excess = x + y + z - slack - double(plane.offset);
            if (excess > 0) ++outside;
            if (excess > worstExcess) worstExcess = excess, worst = i;
        }
        ASSERT_EQ(outside, 0u) << "face " << f << ": point " << text(real(scaled[worst])) << " outside by "
                               << text(worstExcess);
        // The loop: on the plane, at least 3 vertices, strictly convex, counter-clockwise seen from outside.
        const std::span<const std::uint32_t> loop = hull.faceLoop(f);
        ASSERT_GE(loop.size(), 3u);
        for (std::size_t m = 0; m < loop.size(); ++m) {
            ASSERT_LT(loop[m], hull.vertices.size());
            const RealVec3 a = real(hull.vertices[loop[m]]);
            const RealVec3 b = real(hull.vertices[loop[(m + 1) % loop.size()]]);
            const RealVec3 c = real(hull.vertices[loop[(m + 2) % loop.size()]]);
            EXPECT_LE(Real(plane.offset) - glm::dot(n, a), tolerance) << "face " << f;
            EXPECT_GT(glm::dot(glm::cross(b - a, c - b), n), 0) << "face " << f << " corner " << m;
        }
    }
    // Each edge between exactly two faces, once each way; the listed edges are those; Euler.
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (std::size_t f = 0; f < faces; ++f) {
        const auto loop = hull.faceLoop(f);
        for (std::size_t m = 0; m < loop.size(); ++m)
            ++directed[{loop[m], loop[(m + 1) % loop.size()]}];
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    for (const auto& [edge, count] : directed) {
        EXPECT_EQ(count, 1);
        EXPECT_TRUE(directed.count({edge.second, edge.first}));
        if (edge.first < edge.second) edges.insert(edge);
    }
    std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
    for (const auto& e : hull.edges) {
        EXPECT_LT(e[0], e[1]);
        listed.insert({e[0], e[1]});
    }
    EXPECT_EQ(listed, edges);
    EXPECT_EQ(listed.size(), hull.edges.size());
    EXPECT_EQ(int(hull.vertices.size()) - int(hull.edges.size()) + int(faces), 2);
}

// The brute force: the planes through three points with every point on one side (long double), as unit
// normals and offsets; those within 1e-9 of one another merged into the first unless merge is false (then
// every triple's, for faces of points rounded off a plane).
struct BruteHull {
    std::vector<std::pair<RealVec3, Real>> planes;
};

BruteHull bruteForce(const std::vector<btVector3>& scaled, bool merge = true) {
    BruteHull brute;
    const std::size_t n = scaled.size();
    std::vector<RealVec3> p;
    for (const btVector3& v : scaled)
        p.push_back(real(v));
    // The three points themselves, and any others on their plane, are on it up to long double rounding.
    const Real on = 1e-15L * reachOf(scaled);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            for (std::size_t k = j + 1; k < n; ++k) {
                RealVec3 normal = glm::cross(p[j] - p[i], p[k] - p[i]);
                const Real length = glm::length(normal);
                if (!(length > 0)) continue;
                normal /= length;
                bool above = false, below = false;
                for (std::size_t m = 0; m < n && !(above && below); ++m) {
                    const Real d = glm::dot(normal, p[m] - p[i]);
                    above |= d > on;
                    below |= d < -on;
                }
                if (above && below) continue;
                if (above) normal = -normal;
                const Real offset = glm::dot(normal, p[i]);
                const bool known =
                    merge && std::any_of(brute.planes.begin(), brute.planes.end(), [&](const auto& plane) {
                        return glm::length(plane.first - normal) < 1e-9L &&
                               std::abs(plane.second - offset) < 1e-9L;
                    });
                if (!known) brute.planes.push_back({normal, offset});
            }
    return brute;
}

// Our planes are the brute force's: one to one when sameCount; else (points rounded off common planes, whose
// faces we merge within the tolerance) each of ours is one of the brute force's.
void expectSamePlanes(const HullFaces& hull, const BruteHull& brute, Real tolerance, bool sameCount = true) {
    auto same = [&](const Plane<Scalar>& plane, const std::pair<RealVec3, Real>& other) {
        return glm::length(real(plane.normal) - other.first) < 64 * kEpsilon &&
               std::abs(Real(plane.offset) - other.second) <= tolerance;
    };
    if (sameCount) {
        EXPECT_EQ(hull.faceCount(), brute.planes.size());
        for (const auto& other : brute.planes) {
            EXPECT_TRUE(std::any_of(hull.planes.begin(), hull.planes.end(),
                                    [&](const Plane<Scalar>& plane) { return same(plane, other); }))
                << "brute plane " << text(other.first) << " offset " << text(other.second) << " not ours";
        }
    }
    for (const Plane<Scalar>& plane : hull.planes)
        EXPECT_TRUE(std::any_of(brute.planes.begin(), brute.planes.end(),
                                [&](const auto& other) { return same(plane, other); }))
            << "our plane " << text(plane.normal) << " offset " << text(plane.offset)
            << " not the brute force's" << [&] {
                   Real best = 1e9L, offsetGap = 0;
                   for (const auto& other : brute.planes)
                       if (const Real gap = glm::length(real(plane.normal) - other.first); gap < best)
                           best = gap, offsetGap = Real(plane.offset) - other.second;
                   return " (nearest: normals " + text(best) + " apart, offsets " + text(offsetGap) + ")";
               }();
}

btVector3 toBt(const Vec3<double>& v) { return btVector3(Scalar(v.x), Scalar(v.y), Scalar(v.z)); }

std::vector<btVector3> sphereCloud(Random& random, int count, double radius) {
    std::vector<btVector3> points;
    for (int i = 0; i < count; ++i)
        points.push_back(toBt(random.unitVector<double>() * radius));
    return points;
}

std::vector<btVector3> ballCloud(Random& random, int count, double radius) {
    std::vector<btVector3> points;
    while (int(points.size()) < count) {
        const Vec3<double> p = random.point<double>(1);
        if (glm::length(p) <= 1) points.push_back(toBt(p * radius));
    }
    return points;
}

// A box's corners, points on its faces and on its edges (exactly: the hull is the box with 6 faces), inside.
std::vector<btVector3> boxCloud(Random& random, int extra, const btVector3& half) {
    std::vector<btVector3> points;
    for (int i = 0; i < 8; ++i)
        points.push_back(btVector3(i & 1 ? half.x() : -half.x(), i & 2 ? half.y() : -half.y(),
                                   i & 4 ? half.z() : -half.z()));
    for (int i = 0; i < extra; ++i) {
        btVector3 p(Scalar(random.uniform(-1, 1)) * half.x(), Scalar(random.uniform(-1, 1)) * half.y(),
                    Scalar(random.uniform(-1, 1)) * half.z());
        const int axis = i % 3;
        if (i % 4 != 3) p[axis] = random.chance(0.5) ? half[axis] : -half[axis];  // on a face
        if (i % 4 == 1) p[(axis + 1) % 3] = random.chance(0.5) ? half[(axis + 1) % 3] : -half[(axis + 1) % 3];
        points.push_back(p);
    }
    return points;
}

std::shared_ptr<const HullFaces> hullOf(const std::vector<btVector3>& points,
                                        const btVector3& scaling = btVector3(1, 1, 1)) {
    return buildHullFaces(std::span(points), scaling);
}

TEST(HullFaces, RandomCloudsAgreeWithTheBruteForce) {
    Random random(18);
    for (int trial = 0; trial < 60; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const int count = 4 + int(random.uniform(0, 30));
        const double size = random.logUniform(0.01, 100);
        std::vector<btVector3> points =
            trial % 2 ? sphereCloud(random, count, size) : ballCloud(random, count, size);
        const Vec3<double> offset = random.point<double>(trial % 3 == 0 ? 0 : 3 * size);
        for (btVector3& p : points)
            p += toBt(offset);
        const auto hull = hullOf(points);
        ASSERT_TRUE(hull);
        expectValidHull(*hull, points);
        const Real tolerance = Real(cast::kHullFacesTolerance) * kEpsilon * reachOf(points);
        expectSamePlanes(*hull, bruteForce(points), tolerance);
        // In general position every point on a plane of the hull is one of its vertices.
        std::set<std::array<Scalar, 3>> onPlanes;
        const BruteHull brute = bruteForce(points);
        for (const btVector3& p : points)
            for (const auto& [normal, off] : brute.planes)
                if (std::abs(glm::dot(normal, real(p)) - off) <= 1e-12L * reachOf(points))
                    onPlanes.insert({p.x(), p.y(), p.z()});
        EXPECT_EQ(hull->vertices.size(), onPlanes.size());
    }
}

TEST(HullFaces, BoxCloudIsTheBoxWithItsFacesMerged) {
    Random random(7);
    for (int trial = 0; trial < 20; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const btVector3 half(Scalar(random.logUniform(0.1, 10)), Scalar(random.logUniform(0.1, 10)),
                             Scalar(random.logUniform(0.1, 10)));
        std::vector<btVector3> points = boxCloud(random, 4 * trial, half);
        std::shuffle(points.begin(), points.end(), std::mt19937(trial));
        const auto hull = hullOf(points);
        ASSERT_TRUE(hull);
        expectValidHull(*hull, points);
        ASSERT_EQ(hull->faceCount(), 6u);
        EXPECT_EQ(hull->vertices.size(), 8u);
        EXPECT_EQ(hull->edges.size(), 12u);
        for (std::size_t f = 0; f < 6; ++f) {
            EXPECT_EQ(hull->faceLoop(f).size(), 4u);
            const Plane<Scalar>& plane = hull->planes[f];
            // An axis-aligned face: the normal is exactly an axis, the offset the half extent.
            int axis = 0;
            for (int k = 1; k < 3; ++k)
                if (std::abs(plane.normal[k]) > std::abs(plane.normal[axis])) axis = k;
            EXPECT_EQ(std::abs(plane.normal[axis]), Scalar(1));
            EXPECT_EQ(plane.offset, half[axis]);
        }
        if (trial < 8) expectSamePlanes(*hull, bruteForce(points), 0);
    }
}

TEST(HullFaces, RotatedPrismsAndBoxesKeepTheirFaces) {
    // Rotated and rounded to btScalar, a face's points are no longer exactly coplanar: the exact hull splits
    // it into triangles a rounding apart, merged back into the one face within the tolerance.
    Random random(99);
    for (int trial = 0; trial < 40; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const Mat3<double> rotation = random.rotation<double>();
        const Vec3<double> offset = random.point<double>(trial % 2 ? 5 : 0);
        std::vector<btVector3> points;
        const int sides = 3 + trial % 30;
        for (int i = 0; i < sides; ++i) {
            const double angle = 2 * M_PI * i / sides;
            for (const double z : {-0.7, 0.7})
                points.push_back(toBt(rotation * Vec3<double>(std::cos(angle), std::sin(angle), z) + offset));
        }
        const auto hull = hullOf(points);
        ASSERT_TRUE(hull);
        expectValidHull(*hull, points);
        EXPECT_EQ(hull->vertices.size(), std::size_t(2 * sides));
        EXPECT_EQ(hull->faceCount(), std::size_t(sides + 2));
        // The brute force's plane may be through other points of the face: tilted by up to 64 eps (the
        // normals' allowance), its offset moved by that times the reach.
        expectSamePlanes(*hull, bruteForce(points, false),
                         (Real(cast::kHullFacesTolerance) + 64) * kEpsilon * reachOf(points), false);

        // A box with points on its faces and edges, rotated.
        std::vector<btVector3> box;
        for (const btVector3& p : boxCloud(random, 40, btVector3(1, 2, 3)))
            box.push_back(toBt(rotation * Vec3<double>(p.x(), p.y(), p.z()) + offset));
        const auto boxHull = hullOf(box);
        ASSERT_TRUE(boxHull);
        expectValidHull(*boxHull, box);
        EXPECT_EQ(boxHull->faceCount(), 6u);
    }
}

TEST(HullFaces, GridCloudsFullOfDegeneracies) {
    // Small integer coordinates: many points exactly coplanar, collinear or repeated, every case exact in
    // long double. A hull exactly when the brute force finds a solid (more than two planes), the same planes.
    Random random(21);
    int solids = 0;
    for (int trial = 0; trial < 300; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const int count = 4 + int(random.uniform(0, 40));
        const int extent = 1 + trial % 4;
        std::vector<btVector3> points;
        for (int i = 0; i < count; ++i) {
            btVector3 p;
            for (int k = 0; k < 3; ++k)
                p[k] = Scalar(std::floor(random.uniform(-extent, extent + 1)));
            if (trial % 5 == 0) p.setZ(Scalar(1));                   // flat
            if (trial % 7 == 0) p = btVector3(p.x(), p.x(), p.x());  // on a line
            points.push_back(p);
        }
        const BruteHull brute = bruteForce(points);
        const auto hull = hullOf(points);
        ASSERT_EQ(bool(hull), brute.planes.size() > 2) << brute.planes.size() << " brute planes";
        if (!hull) continue;
        ++solids;
        expectValidHull(*hull, points);
        expectSamePlanes(*hull, brute, Real(cast::kHullFacesTolerance) * kEpsilon * reachOf(points));
    }
    EXPECT_GT(solids, 150);
}

TEST(HullFaces, ScaledShapes) {
    Random random(3);
    for (int trial = 0; trial < 20; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const std::vector<btVector3> points = ballCloud(random, 25, 1);
        btVector3 scaling(Scalar(random.uniform(0.2, 3)), Scalar(random.uniform(0.2, 3)),
                          Scalar(random.uniform(0.2, 3)));
        if (trial % 4 == 1) scaling.setX(-scaling.x());  // a mirror
        btConvexHullShape shape;
        for (const btVector3& p : points)
            shape.addPoint(p, false);
        shape.setLocalScaling(scaling);
        const auto hull = hullFacesOf(shape);
        ASSERT_TRUE(hull);
        std::vector<btVector3> scaled;
        for (int i = 0; i < shape.getNumPoints(); ++i)
            scaled.push_back(shape.getScaledPoint(i));
        expectValidHull(*hull, scaled);
        expectSamePlanes(*hull, bruteForce(scaled),
                         Real(cast::kHullFacesTolerance) * kEpsilon * reachOf(scaled));
        EXPECT_EQ(hullFacesOf(static_cast<const btCollisionShape&>(shape)), hull);

        // The same cloud as a point cloud shape, with its own scaling.
        std::vector<btVector3> cloud = points;
        btConvexPointCloudShape pointCloud(cloud.data(), int(cloud.size()), scaling);
        const auto cloudHull = hullFacesOf(pointCloud);
        ASSERT_TRUE(cloudHull);
        expectValidHull(*cloudHull, scaled);
        EXPECT_EQ(cloudHull->planes.size(), hull->planes.size());
        EXPECT_EQ(hullFacesOf(static_cast<const btCollisionShape&>(pointCloud)), cloudHull);
    }
}

TEST(HullFaces, SupportIsBulletsSupport) {
    // Bullet's surface is built on its support mapping (the farthest scaled point along a direction): the
    // hull's vertices give the same farthest distance, within the tolerance (vertices dropped within it).
    Random random(31);
    for (int trial = 0; trial < 30; ++trial) {
        SCOPED_TRACE(::testing::Message() << "trial " << trial);
        const Mat3<double> rotation = random.rotation<double>();
        std::vector<btVector3> points = trial % 3 == 0   ? sphereCloud(random, 50, 2)
                                        : trial % 3 == 1 ? ballCloud(random, 80, 1)
                                                         : boxCloud(random, 60, btVector3(1, 2, 3));
        for (btVector3& p : points)
            p = toBt(rotation * Vec3<double>(p.x(), p.y(), p.z()));
        btConvexHullShape shape;
        for (const btVector3& p : points)
            shape.addPoint(p, false);
        shape.setLocalScaling(btVector3(Scalar(random.uniform(0.5, 2)), Scalar(random.uniform(0.5, 2)),
                                        Scalar(random.uniform(0.5, 2))));
        const auto hull = hullFacesOf(shape);
        ASSERT_TRUE(hull);
        std::vector<btVector3> scaled;
        for (int i = 0; i < shape.getNumPoints(); ++i)
            scaled.push_back(shape.getScaledPoint(i));
        const Real tolerance = Real(cast::kHullFacesTolerance) * kEpsilon * reachOf(scaled);
        for (int ray = 0; ray < 50; ++ray) {
            const Vec3<Scalar> d = random.unitVector<Scalar>();
            const btVector3 direction(d.x, d.y, d.z);
            const Real bullet =
                glm::dot(real(d), real(shape.localGetSupportingVertexWithoutMargin(direction)));
            Real ours = -std::numeric_limits<Real>::infinity();
            for (const Vec3<Scalar>& v : hull->vertices)
                ours = std::max(ours, glm::dot(real(d), real(v)));
            EXPECT_NEAR(double(ours), double(bullet), double(tolerance)) << text(d);
        }
    }
}

TEST(HullFaces, OtherShapesHaveNone) {
    const btBoxShape box(btVector3(1, 1, 1));
    EXPECT_FALSE(hullFacesOf(static_cast<const btCollisionShape&>(box)));
    const btSphereShape sphere(1);
    EXPECT_FALSE(hullFacesOf(static_cast<const btCollisionShape&>(sphere)));
    // A subclass may change the support mapping: not the points' hull.
    struct Derived : btConvexHullShape {};
    Derived derived;
    for (int i = 0; i < 8; ++i)
        derived.addPoint(btVector3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1));
    EXPECT_FALSE(hullFacesOf(static_cast<const btCollisionShape&>(derived)));
    EXPECT_TRUE(hullFacesOf(static_cast<const btConvexHullShape&>(derived)));
}

// ---- The cache ----

btConvexHullShape* makeHull(void* at, const std::vector<btVector3>& points) {
    auto* shape = new (at) btConvexHullShape();
    for (const btVector3& p : points)
        shape->addPoint(p, false);
    return shape;
}

TEST(HullFacesCache, SameHandleOnRepeatedLookups) {
    Random random(5);
    btConvexHullShape shape;
    for (const btVector3& p : sphereCloud(random, 40, 1))
        shape.addPoint(p, false);
    const auto first = hullFacesOf(shape);
    ASSERT_TRUE(first);
    for (int i = 0; i < 10; ++i)
        EXPECT_EQ(hullFacesOf(shape), first);
}

TEST(HullFacesCache, PointEditedInPlaceGivesANewHull) {
    Random random(6);
    btConvexHullShape shape;
    for (const btVector3& p : ballCloud(random, 30, 1))
        shape.addPoint(p, false);
    const auto before = hullFacesOf(shape);
    ASSERT_TRUE(before);
    shape.getUnscaledPoints()[7] = btVector3(5, 0, 0);  // far out: a new vertex
    const auto after = hullFacesOf(shape);
    ASSERT_TRUE(after);
    EXPECT_NE(after, before);
    std::vector<btVector3> scaled;
    for (int i = 0; i < shape.getNumPoints(); ++i)
        scaled.push_back(shape.getScaledPoint(i));
    expectValidHull(*after, scaled);
    EXPECT_TRUE(std::count(after->vertices.begin(), after->vertices.end(), Vec3<Scalar>(5, 0, 0)));
    // The smallest change to one coordinate is seen too.
    const auto again = hullFacesOf(shape);
    EXPECT_EQ(again, after);
    Scalar& x = shape.getUnscaledPoints()[7][0];
    x = std::nextafter(x, Scalar(10));
    const auto nudged = hullFacesOf(shape);
    ASSERT_TRUE(nudged);
    EXPECT_NE(nudged, after);
    expectValidHull(*nudged, [&] {
        std::vector<btVector3> s;
        for (int i = 0; i < shape.getNumPoints(); ++i)
            s.push_back(shape.getScaledPoint(i));
        return s;
    }());

    // A point cloud shape reads the user's array: edits there are seen.
    std::vector<btVector3> cloud = ballCloud(random, 20, 1);
    btConvexPointCloudShape pointCloud(cloud.data(), int(cloud.size()), btVector3(1, 1, 1));
    const auto cloudBefore = hullFacesOf(pointCloud);
    ASSERT_TRUE(cloudBefore);
    cloud[3] = btVector3(0, 0, -7);
    const auto cloudAfter = hullFacesOf(pointCloud);
    ASSERT_TRUE(cloudAfter);
    EXPECT_NE(cloudAfter, cloudBefore);
    expectValidHull(*cloudAfter, cloud);
}

TEST(HullFacesCache, NewScalingGivesANewHull) {
    Random random(8);
    btConvexHullShape shape;
    for (const btVector3& p : ballCloud(random, 30, 1))
        shape.addPoint(p, false);
    const auto unscaled = hullFacesOf(shape);
    ASSERT_TRUE(unscaled);
    shape.setLocalScaling(btVector3(2, 1, Scalar(0.5)));
    const auto scaled = hullFacesOf(shape);
    ASSERT_TRUE(scaled);
    EXPECT_NE(scaled, unscaled);
    std::vector<btVector3> points;
    for (int i = 0; i < shape.getNumPoints(); ++i)
        points.push_back(shape.getScaledPoint(i));
    expectValidHull(*scaled, points);
    // A zero scaling flattens it: no solid hull.
    shape.setLocalScaling(btVector3(1, 0, 1));
    EXPECT_FALSE(hullFacesOf(shape));
    shape.setLocalScaling(btVector3(1, 1, 1));
    const auto back = hullFacesOf(shape);
    ASSERT_TRUE(back);
    EXPECT_EQ(back->planes.size(), unscaled->planes.size());
}

TEST(HullFacesCache, NewShapeAtAFreedShapesAddress) {
    alignas(btConvexHullShape) unsigned char buffer[sizeof(btConvexHullShape)];
    Random random(9);
    btConvexHullShape* first = makeHull(buffer, boxCloud(random, 10, btVector3(1, 1, 1)));
    const auto firstHull = hullFacesOf(*first);
    ASSERT_TRUE(firstHull);
    EXPECT_EQ(firstHull->faceCount(), 6u);
    first->~btConvexHullShape();
    const std::vector<btVector3> points = sphereCloud(random, 30, 2);
    btConvexHullShape* second = makeHull(buffer, points);
    ASSERT_EQ(static_cast<void*>(second), static_cast<void*>(first));
    const auto secondHull = hullFacesOf(*second);
    ASSERT_TRUE(secondHull);
    EXPECT_NE(secondHull, firstHull);
    expectValidHull(*secondHull, points);
    second->~btConvexHullShape();
    // A point cloud at the same address, with other points.
    std::vector<btVector3> cloud = ballCloud(random, 12, 1);
    auto* third = new (buffer) btConvexPointCloudShape(cloud.data(), int(cloud.size()), btVector3(1, 1, 1));
    const auto thirdHull = hullFacesOf(*third);
    ASSERT_TRUE(thirdHull);
    expectValidHull(*thirdHull, cloud);
    third->~btConvexPointCloudShape();
}

TEST(HullFacesCache, BoundedAndRecomputesEvicted) {
    const std::vector<btVector3> tetrahedron{btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 1, 0),
                                             btVector3(0, 0, 1)};
    btConvexHullShape kept;
    for (const btVector3& p : tetrahedron)
        kept.addPoint(p, false);
    const auto keptHull = hullFacesOf(kept);
    ASSERT_TRUE(keptHull);
    {
        std::vector<std::unique_ptr<btConvexHullShape>> shapes;
        for (std::size_t i = 0; i < cast::kHullFacesCacheEntries + 50; ++i) {
            shapes.push_back(std::make_unique<btConvexHullShape>());
            for (const btVector3& p : tetrahedron)
                shapes.back()->addPoint(p * Scalar(1 + i % 7), false);
            ASSERT_TRUE(hullFacesOf(*shapes.back()));
            ASSERT_LE(cast::hullFacesCacheSize(), cast::kHullFacesCacheEntries);
        }
    }
    // The first shape's entry was the least recently used: evicted, recomputed alike.
    const auto recomputed = hullFacesOf(kept);
    ASSERT_TRUE(recomputed);
    EXPECT_NE(recomputed, keptHull);
    expectValidHull(*recomputed, tetrahedron);
}

TEST(HullFacesCache, ManyThreadsLookUpAtOnce) {
    Random random(11);
    constexpr int kShapes = 6;
    std::vector<std::unique_ptr<btConvexHullShape>> shapes;
    std::vector<std::vector<btVector3>> clouds;
    for (int s = 0; s < kShapes; ++s) {
        clouds.push_back(s % 2 ? sphereCloud(random, 30 + 10 * s, 1) : ballCloud(random, 30 + 10 * s, 1));
        shapes.push_back(std::make_unique<btConvexHullShape>());
        for (const btVector3& p : clouds.back())
            shapes.back()->addPoint(p, false);
    }
    constexpr int kThreads = 4;
    std::vector<std::vector<const HullFaces*>> seen(kThreads, std::vector<const HullFaces*>(kShapes));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 200; ++round)
                for (int s = 0; s < kShapes; ++s) {
                    const int shape = (s + t) % kShapes;
                    const auto hull = hullFacesOf(*shapes[shape]);
                    if (!hull || hull->faceCount() < 4) return;
                    seen[t][shape] = hull.get();
                }
            // A thread's own shape, edited between lookups: misses while others hit.
            btConvexHullShape own;
            for (const btVector3& p : clouds[0])
                own.addPoint(p, false);
            for (int round = 0; round < 20; ++round) {
                own.getUnscaledPoints()[0] = btVector3(Scalar(2 + round), Scalar(t), 0);
                const auto hull = hullFacesOf(own);
                if (!hull || hull->vertices.empty()) return;
            }
        });
    for (std::thread& thread : threads)
        thread.join();
    for (int s = 0; s < kShapes; ++s) {
        const auto hull = hullFacesOf(*shapes[s]);
        ASSERT_TRUE(hull);
        expectValidHull(*hull, clouds[s]);
        for (int t = 0; t < kThreads; ++t)
            EXPECT_NE(seen[t][s], nullptr) << "thread " << t << " shape " << s;
    }
}

// ---- Hostile clouds: null, or a hull that passes every check ----

void expectNullOrValid(const std::vector<btVector3>& points, const btVector3& scaling = btVector3(1, 1, 1)) {
    const auto hull = hullOf(points, scaling);
    if (hull) expectValidHull(*hull, scaledPoints(points, scaling));
}

TEST(HullFacesHostile, TooFewPoints) {
    std::vector<btVector3> points;
    for (int n = 0; n < 4; ++n) {
        EXPECT_FALSE(hullOf(points)) << n << " points";
        points.push_back(btVector3(Scalar(n == 1), Scalar(n == 2), Scalar(n == 3)));
    }
    EXPECT_TRUE(hullOf(points));
    btConvexHullShape empty;
    EXPECT_FALSE(hullFacesOf(empty));
    btConvexPointCloudShape noPoints;
    EXPECT_FALSE(hullFacesOf(noPoints));
}

TEST(HullFacesHostile, NonFinitePointsOrScaling) {
    Random random(12);
    const std::vector<btVector3> points = ballCloud(random, 20, 1);
    ASSERT_TRUE(hullOf(points));
    for (const Scalar bad :
         {std::numeric_limits<Scalar>::quiet_NaN(), std::numeric_limits<Scalar>::infinity(),
          -std::numeric_limits<Scalar>::infinity()})
        for (int k = 0; k < 3; ++k) {
            std::vector<btVector3> hostile = points;
            hostile[5][k] = bad;
            EXPECT_FALSE(hullOf(hostile));
            btVector3 scaling(1, 1, 1);
            scaling[k] = bad;
            EXPECT_FALSE(hullOf(points, scaling));
        }
    // Finite points and scaling whose product overflows.
    std::vector<btVector3> large = points;
    for (btVector3& p : large)
        p *= std::numeric_limits<Scalar>::max() / 2;
    EXPECT_FALSE(hullOf(large, btVector3(4, 4, 4)));
    expectNullOrValid(large);
}

TEST(HullFacesHostile, DegenerateClouds) {
    Random random(13);
    std::vector<btVector3> coincident(10, btVector3(1, 2, 3));
    EXPECT_FALSE(hullOf(coincident));
    std::vector<btVector3> collinear;
    for (int i = 0; i < 10; ++i)
        collinear.push_back(btVector3(1, 2, 3) * Scalar(random.uniform(-1, 1)));
    EXPECT_FALSE(hullOf(collinear));
    std::vector<btVector3> coplanar;
    for (int i = 0; i < 30; ++i)
        coplanar.push_back(btVector3(Scalar(random.uniform(-1, 1)), Scalar(random.uniform(-1, 1)), 2));
    EXPECT_FALSE(hullOf(coplanar));
    // Coplanar in a tilted plane with exactly representable points: x + y + z = 1 on a grid.
    std::vector<btVector3> tilted;
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j)
            tilted.push_back(btVector3(Scalar(i), Scalar(j), Scalar(1 - i - j)));
    EXPECT_FALSE(hullOf(tilted));
    // Nearly coplanar (a sheet thinner than the tolerance): null or checked.
    std::vector<btVector3> sheet = coplanar;
    sheet[0].setZ(std::nextafter(Scalar(2), Scalar(3)));
    expectNullOrValid(sheet);
    // Duplicates of a tetrahedron's corners: the tetrahedron.
    std::vector<btVector3> duplicated;
    for (int copy = 0; copy < 5; ++copy)
        for (const btVector3& p :
             {btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 1, 0), btVector3(0, 0, 1)})
            duplicated.push_back(p);
    const auto tetrahedron = hullOf(duplicated);
    ASSERT_TRUE(tetrahedron);
    expectValidHull(*tetrahedron, duplicated);
    EXPECT_EQ(tetrahedron->vertices.size(), 4u);
    EXPECT_EQ(tetrahedron->faceCount(), 4u);
    // A cloud with repeated points and points inside: every repetition of a corner is dropped.
    std::vector<btVector3> box = boxCloud(random, 40, btVector3(1, 2, 3));
    box.insert(box.end(), box.begin(), box.end());
    const auto boxHull = hullOf(box);
    ASSERT_TRUE(boxHull);
    expectValidHull(*boxHull, box);
    EXPECT_EQ(boxHull->vertices.size(), 8u);
}

TEST(HullFacesHostile, HugeTinyAndMixedMagnitudes) {
    Random random(14);
    for (const double size : {1e30, 1e-30, 1e-18, 1e18}) {
        SCOPED_TRACE(::testing::Message() << "size " << size);
        const std::vector<btVector3> ball = ballCloud(random, 40, size);
        const auto hull = hullOf(ball);
        ASSERT_TRUE(hull);
        expectValidHull(*hull, ball);
        const std::vector<btVector3> box = boxCloud(random, 30, btVector3(1, 2, 3) * Scalar(size));
        const auto boxHull = hullOf(box);
        ASSERT_TRUE(boxHull);
        expectValidHull(*boxHull, box);
        EXPECT_EQ(boxHull->faceCount(), 6u);
    }
    // Far from the shape's origin: null or checked (the tolerance is relative to the distance from it).
    std::vector<btVector3> far = ballCloud(random, 40, 1);
    for (btVector3& p : far)
        p += btVector3(1e6, -1e6, 1e6);
    expectNullOrValid(far);
    // Points of very different magnitudes in one cloud.
    std::vector<btVector3> mixed = ballCloud(random, 20, 1e30);
    for (const btVector3& p : ballCloud(random, 20, 1e-30))
        mixed.push_back(p);
    mixed.push_back(btVector3(Scalar(1e-38), Scalar(1e-38), Scalar(1e-38)));
    expectNullOrValid(mixed);
    // Near the largest btScalar: offsets may not fit; null or checked.
    std::vector<btVector3> largest =
        boxCloud(random, 10, btVector3(1, 1, 1) * std::numeric_limits<Scalar>::max());
    expectNullOrValid(largest);
    std::vector<btVector3> subnormal =
        boxCloud(random, 10, btVector3(1, 1, 1) * std::numeric_limits<Scalar>::denorm_min() * 8);
    expectNullOrValid(subnormal);
}

TEST(HullFacesHostile, TenThousandPoints) {
    Random random(15);
    const std::vector<btVector3> sphere = sphereCloud(random, 10000, 3);
    const auto sphereHull = hullOf(sphere);
    ASSERT_TRUE(sphereHull);
    expectValidHull(*sphereHull, sphere);
    const std::vector<btVector3> ball = ballCloud(random, 10000, 3);
    const auto ballHull = hullOf(ball);
    ASSERT_TRUE(ballHull);
    expectValidHull(*ballHull, ball);
    const std::vector<btVector3> box = boxCloud(random, 10000, btVector3(1, 2, 3));
    const auto boxHull = hullOf(box);
    ASSERT_TRUE(boxHull);
    EXPECT_EQ(boxHull->faceCount(), 6u);
    expectValidHull(*boxHull, box);
}

}  // namespace
}  // namespace analytic::test
