// SPDX-License-Identifier: Zlib
// analytic::planeTest and sliceMeshes, in the build's btScalar: each object's side against a brute force
// over Bullet's own description of the shape (its support function for convex shapes, every vertex of a
// mesh's triangles, a compound's children), on random worlds and planes; the slices of grid meshes and a
// heightfield against every triangle's cut (the segments' total length, points on the plane and on the
// mesh), a straight cut joined into one open polyline, a hill's contour closed; hostile input.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "analytic/plane_test.hpp"
#include "support/mixed_world.hpp"
#include "support/ray_checks.hpp"

namespace analytic::test {
namespace {

// The lowest and highest signed distances of the shape's points, by Bullet's description of it.
void bruteSpan(const btCollisionShape& shape, const btTransform& transform, const btVector3& n, btScalar d,
               double& low, double& high) {
    if (shape.isCompound()) {
        const auto& compound = static_cast<const btCompoundShape&>(shape);
        for (int i = 0; i < compound.getNumChildShapes(); ++i)
            bruteSpan(*compound.getChildShape(i), transform * compound.getChildTransform(i), n, d, low, high);
        return;
    }
    if (shape.isConcave()) {
        struct Vertices : btTriangleCallback {
            const btTransform* transform;
            btVector3 n;
            btScalar d;
            double *low, *high;
            void processTriangle(btVector3* triangle, int, int) override {
                for (int k = 0; k < 3; ++k) {
                    const double distance = double(n.dot((*transform)(triangle[k]))) - double(d);
                    *low = std::min(*low, distance);
                    *high = std::max(*high, distance);
                }
            }
        } vertices;
        vertices.transform = &transform;
        vertices.n = n;
        vertices.d = d;
        vertices.low = &low;
        vertices.high = &high;
        btVector3 a, b;
        shape.getAabb(btTransform::getIdentity(), a, b);
        const_cast<btConcaveShape&>(static_cast<const btConcaveShape&>(shape))
            .processAllTriangles(&vertices, a, b);
        return;
    }
    const auto& convex = static_cast<const btConvexShape&>(shape);
    const btVector3 local = transform.getBasis().transpose() * n;
    low = std::min(low, double(n.dot(transform(convex.localGetSupportingVertex(-local)))) - double(d));
    high = std::max(high, double(n.dot(transform(convex.localGetSupportingVertex(local)))) - double(d));
}

TEST(PlaneTest, SidesAreThoseOfTheShapesThemselves) {
    MixedWorld scene(71);
    Random& random = scene.random();
    int decided = 0, crossing = 0, byBoxOnly = 0;
    std::vector<PlaneObject> objects;
    for (int p = 0; p < 200; ++p) {
        const btVector3 n = toBullet(random.unitVector<btScalar>());
        const btScalar d = btScalar(random.uniform(-20, 20));
        planeTest(scene.world(), n * 3, d * 3, objects);  // a normal not of unit length: made unit
        ASSERT_EQ(objects.size(), scene.size());
        for (std::size_t i = 0; i < objects.size(); ++i) {
            const btCollisionObject& object = *objects[i].object;
            if (object.getCollisionShape()->getShapeType() == STATIC_PLANE_PROXYTYPE) continue;
            double low = std::numeric_limits<double>::infinity(), high = -low;
            bruteSpan(*object.getCollisionShape(), object.getWorldTransform(), n, d, low, high);
            // Undecided where the shapes' models differ at the rims (a cylinder's and cone's margins).
            const double band = 0.05;
            if (std::abs(low) < band || std::abs(high) < band) continue;
            ++decided;
            const SolidPlaneSide expected = low > 0    ? SolidPlaneSide::Front
                                            : high < 0 ? SolidPlaneSide::Back
                                                       : SolidPlaneSide::Crossing;
            crossing += expected == SolidPlaneSide::Crossing;
            EXPECT_EQ(objects[i].side, expected)
                << "plane " << p << " object " << i << " " << object.getCollisionShape()->getName() << " low "
                << low << " high " << high;
            // The exact shape, not the box: a box straddling the plane whose shape does not.
            btVector3 a, b;
            object.getCollisionShape()->getAabb(object.getWorldTransform(), a, b);
            const btVector3 half = (b - a) / 2, centre = (a + b) / 2;
            const btScalar reach =
                std::abs(n.x()) * half.x() + std::abs(n.y()) * half.y() + std::abs(n.z()) * half.z();
            byBoxOnly += expected != SolidPlaneSide::Crossing && std::abs(n.dot(centre) - d) < reach;
        }
    }
    EXPECT_GT(decided, 10000);
    EXPECT_GT(crossing, 500);
    EXPECT_GT(byBoxOnly, 100);
}

TEST(PlaneTest, FiltersPlanesAndHostileInput) {
    OwningWorld world;
    btStaticPlaneShape ground(btVector3(0, 1, 0), -1);
    world.add(ground, btTransform::getIdentity());
    btSphereShape ball(1);
    btCollisionObject& nan =
        world.add(ball, btTransform(btQuaternion::getIdentity(),
                                    btVector3(std::numeric_limits<btScalar>::quiet_NaN(), 0, 0)));
    std::vector<PlaneObject> objects;
    planeTest(world.world(), btVector3(0, 1, 0), 5, objects);
    ASSERT_EQ(objects.size(), 2u);
    EXPECT_EQ(objects[0].side, SolidPlaneSide::Back);  // the ground's half-space lies below y = 5
    EXPECT_EQ(objects[1].object, &nan);
    EXPECT_EQ(objects[1].side, SolidPlaneSide::Crossing);       // anywhere
    planeTest(world.world(), btVector3(0, -1, 0), 5, objects);  // y = -5: the half-space y <= -1 crosses it
    EXPECT_EQ(objects[0].side, SolidPlaneSide::Crossing);
    planeTest(world.world(), btVector3(1, 1, 0), 5, objects);
    EXPECT_EQ(objects[0].side, SolidPlaneSide::Crossing);
    planeTest(world.world(), btVector3(0, 1, 0), 5, objects, 1, 0);  // masked out
    EXPECT_TRUE(objects.empty());
    constexpr btScalar bad = std::numeric_limits<btScalar>::quiet_NaN();
    EXPECT_THROW(planeTest(world.world(), btVector3(0, 0, 0), 1, objects), std::invalid_argument);
    EXPECT_THROW(planeTest(world.world(), btVector3(bad, 1, 0), 1, objects), std::invalid_argument);
    EXPECT_THROW(planeTest(world.world(), btVector3(0, 1, 0), bad, objects), std::invalid_argument);
    std::vector<PlaneSlice> slices;
    EXPECT_THROW(sliceMeshes(world.world(), btVector3(0, 0, 0), 1, slices), std::invalid_argument);
}

double lengthOf(const std::vector<btVector3>& points) {
    double length = 0;
    for (std::size_t i = 1; i < points.size(); ++i)
        length += double((points[i] - points[i - 1]).length());
    return length;
}

TEST(SliceMeshes, AStraightCutIsOneOpenPolyline) {
    OwningWorld world;
    GridMesh& grid = world.makeMesh();
    grid.addFlatGrid(8, 8, 1, btVector3(-4, 0, -4));
    auto& mesh = world.makeShape<btBvhTriangleMeshShape>(&grid.array(), true);
    world.add(mesh, btTransform(btQuaternion::getIdentity(), btVector3(0, 2, 0)));
    std::vector<PlaneSlice> slices;
    sliceMeshes(world.world(), btVector3(1, 0, 0), btScalar(0.3), slices);
    ASSERT_EQ(slices.size(), 1u);
    EXPECT_FALSE(slices[0].closed);
    EXPECT_NEAR(lengthOf(slices[0].points), 8, 1e-5);
    for (const btVector3& point : slices[0].points) {
        EXPECT_NEAR(point.x(), 0.3, 1e-6);
        EXPECT_NEAR(point.y(), 2, 1e-6);
    }
}

TEST(SliceMeshes, AHillsContourIsClosedAndEveryTrianglesCutIsThere) {
    OwningWorld world;
    GridMesh& grid = world.makeMesh();
    grid.addGrid(24, 24, btScalar(0.5), btVector3(-6, 0, -6),
                 [](btScalar x, btScalar z) { return btScalar(4) - btScalar(0.25) * (x * x + z * z); });
    auto& mesh = world.makeShape<btBvhTriangleMeshShape>(&grid.array(), true);
    world.add(mesh, btTransform::getIdentity());
    // A heightfield beside it (heights 0 to 3 about its middle, 1.5: placed 1.5 up), cut by the same plane.
    std::vector<float>& heights = world.makeHeights(9 * 9, 0);
    for (int j = 0; j < 9; ++j)
        for (int i = 0; i < 9; ++i)
            heights[std::size_t(j * 9 + i)] = float((i + j) % 4);
    auto& terrain = world.makeShape<btHeightfieldTerrainShape>(9, 9, heights.data(), btScalar(1), btScalar(0),
                                                               btScalar(3), 1, PHY_FLOAT, false);
    world.add(terrain, btTransform(btQuaternion::getIdentity(), btVector3(20, btScalar(1.5), 0)));
    const btScalar level = btScalar(1.3);
    std::vector<PlaneSlice> slices;
    sliceMeshes(world.world(), btVector3(0, 1, 0), level, slices);
    // The brute force: every triangle whose vertices lie on both sides, its cut's length.
    double expectedLength = 0;
    for (int o = 0; o < 1; ++o) {  // the hill; the heightfield's cuts are checked on the plane below
        const btCollisionObject* object = world.world().getCollisionObjectArray()[o];
        struct Cuts : btTriangleCallback {
            btTransform transform;
            btScalar level;
            double length = 0;
            void processTriangle(btVector3* t, int, int) override {
                btVector3 v[3] = {transform(t[0]), transform(t[1]), transform(t[2])};
                std::vector<btVector3> points;
                for (int k = 0; k < 3; ++k) {
                    const btVector3 &a = v[k], &b = v[(k + 1) % 3];
                    const double da = double(a.y() - level), db = double(b.y() - level);
                    if ((da < 0 && db > 0) || (da > 0 && db < 0))
                        points.push_back(a + (b - a) * btScalar(da / (da - db)));
                }
                if (points.size() == 2) length += double((points[1] - points[0]).length());
            }
        } cuts;
        cuts.transform = object->getWorldTransform();
        cuts.level = level;
        const auto& shape = static_cast<const btConcaveShape&>(*object->getCollisionShape());
        btVector3 a, b;
        shape.getAabb(btTransform::getIdentity(), a, b);
        const_cast<btConcaveShape&>(shape).processAllTriangles(&cuts, a, b);
        expectedLength += cuts.length;
    }
    double length = 0;
    int closedOnMesh = 0;
    for (const PlaneSlice& slice : slices) {
        if (slice.object == world.world().getCollisionObjectArray()[0]) length += lengthOf(slice.points);
        closedOnMesh += slice.closed && slice.object == world.world().getCollisionObjectArray()[0];
        for (const btVector3& point : slice.points) {
            EXPECT_NEAR(point.y(), level, 1e-5);
        }
    }
    EXPECT_NEAR(length, expectedLength, 1e-4 * expectedLength);
    // The hill's contour at 1.3: the circle x^2 + z^2 = 10.8, one closed polyline; the heightfield cut too.
    EXPECT_EQ(closedOnMesh, 1);
    EXPECT_TRUE(std::any_of(slices.begin(), slices.end(), [&](const PlaneSlice& slice) {
        return slice.object == world.world().getCollisionObjectArray()[1] && lengthOf(slice.points) > 0;
    }));
    for (const PlaneSlice& slice : slices)
        if (slice.closed && slice.object == world.world().getCollisionObjectArray()[0]) {
            EXPECT_NEAR(lengthOf(slice.points), 2 * M_PI * std::sqrt(10.8), 0.2);
            EXPECT_EQ(slice.points.front(), slice.points.back());
        }
}

}  // namespace
}  // namespace analytic::test
