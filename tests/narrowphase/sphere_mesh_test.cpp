// SPDX-License-Identifier: Zlib
// Sphere against whole meshes (Pair::SphereMesh), in real worlds: the dispatcher hands out our
// algorithm for every mesh type in both orders and both tables; its contacts are the geometry core's
// for the triangles they name, the deepest always among them; internal edges give no contacts, so a
// sphere rolls across a flat mesh without bouncing (Bullet's own algorithm makes it bounce); spheres
// rest on a heightfield and on a scaled mesh at the right height; a fast sphere does not leave through
// the back of a mesh; part ids, triangle indices and the triangles contact callbacks see are Bullet's;
// the time of impact is the earliest sweep.
#include "narrowphase/sphere_mesh.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConcaveCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "analytic/plugin.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"
#include "support/mesh_contacts.hpp"
#include "support/mesh_dispatch.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using narrowphase::PairAlgorithm;
using narrowphase::SphereMesh;
using test::BulletWorld;
using test::GridMesh;
using test::translation;

constexpr btScalar epsilon = std::numeric_limits<btScalar>::epsilon();

struct MeshTriangle {
    int partId;
    int triangleIndex;
    Triangle<btScalar> local;  // in the mesh's frame, scaling applied
};

std::vector<MeshTriangle> allTriangles(const btConcaveShape& shape) {
    struct Collect final : btTriangleCallback {
        void processTriangle(btVector3* v, int partId, int triangleIndex) override {
            found.push_back({partId, triangleIndex, {toGlm(v[0]), toGlm(v[1]), toGlm(v[2])}});
        }
        std::vector<MeshTriangle> found;
    } collect;
    btVector3 min, max;
    shape.getAabb(btTransform::getIdentity(), min, max);
    shape.processAllTriangles(&collect, min - btVector3(1, 1, 1), max + btVector3(1, 1, 1));
    return collect.found;
}

using test::MeshContact;
using test::MeshContactsCallback;
using test::pairContacts;
using test::worldContacts;

btScalar breakingThreshold(const btCollisionObject& a, const btCollisionObject& b) {
    return std::min(a.getCollisionShape()->getContactBreakingThreshold(gContactBreakingThreshold),
                    b.getCollisionShape()->getContactBreakingThreshold(gContactBreakingThreshold));
}

// ---------------------------------------------------------------------------------------------------
// Dispatch.

TEST(SphereMeshDispatch, OursForEveryMeshTypeWhileThePluginLivesAndBulletsAfter) {
    test::MeshDispatchWorld dispatch;
    btCollisionObject& sphere = dispatch.world.addBody(dispatch.world.makeShape<btSphereShape>(btScalar(0.5)),
                                                       btVector3(2, 0.4, 2), 1);
    dispatch.expectOursWhileThePluginLives<SphereMesh>({&sphere}, Pair::SphereMesh,
                                                       Pair::BoxMesh | Pair::CapsuleMesh);
}

TEST(SphereMeshAlgorithm, FitsTheDispatchersPool) {
    btDefaultCollisionConfiguration configuration;
    EXPECT_LE(int(sizeof(PairAlgorithm<SphereMesh>)),
              configuration.getCollisionAlgorithmPool()->getElementSize());
}

// ---------------------------------------------------------------------------------------------------
// Agreement with the geometry core on random spheres over random meshes of each type.

struct MeshUnderTest {
    std::string name;
    btCollisionShape* shape;
    btTransform transform;
};

class SphereMeshAgreement : public ::testing::Test {
protected:
    SphereMeshAgreement() {
        test::Random random(7);
        // Bumpy ground: random heights in [-0.4, 0.4] on a 8 x 8 grid of 1 m cells.
        data.addGrid(8, 8, 1, btVector3(-4, 0, -4),
                     [&](btScalar, btScalar) { return btScalar(random.uniform(-0.4, 0.4)); });
        auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
        const Mat3<btScalar> tilt = random.rotation<btScalar>();
        meshes.push_back({"bvh mesh, rotated", &bvh, test::transformOf(tilt, btVector3(3, -2, 1))});
        meshes.push_back({"scaled mesh, mirrored",
                          &world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(-1.5, 0.7, 1.2)),
                          translation(-1, 0.5, 2)});
        for (int i = 0; i < 81; ++i)
            heights.push_back(float(random.uniform(-0.5, 0.5)));
        auto& terrain = world.makeShape<btHeightfieldTerrainShape>(9, 9, heights.data(), btScalar(-0.5),
                                                                   btScalar(0.5), 1, false);
        terrain.setLocalScaling(btVector3(1.1, 0.9, 0.8));
        meshes.push_back({"heightfield, scaled", &terrain, test::transformOf(tilt, btVector3(0, 1, 0))});
    }

    GridMesh data;
    std::vector<float> heights;
    BulletWorld world;
    std::vector<MeshUnderTest> meshes;
};

TEST_F(SphereMeshAgreement, ContactsAreTheCoresForTheirTrianglesAndIncludeTheDeepest) {
    const Plugin plugin(world.world(), Pair::SphereMesh);
    test::Random random(11);
    constexpr int spheresPerMesh = 3000;
    // Coordinates are below 10: a few roundings of that in the transforms to and from the mesh's frame.
    const btScalar tolerance = 32 * epsilon * 10;
    for (const MeshUnderTest& mesh : meshes) {
        SCOPED_TRACE(mesh.name);
        auto& sphereShape = world.makeShape<btSphereShape>(btScalar(1));
        btRigidBody& sphere = world.addBody(sphereShape, btVector3(0, 0, 0), 1);
        btRigidBody& meshObject = world.addBody(*mesh.shape, mesh.transform);
        const auto triangles = allTriangles(static_cast<const btConcaveShape&>(*mesh.shape));
        std::map<std::pair<int, int>, Triangle<btScalar>> byId;
        btVector3 boxMin, boxMax;
        mesh.shape->getAabb(btTransform::getIdentity(), boxMin, boxMax);
        for (const MeshTriangle& triangle : triangles) {
            const auto world = [&](const Vec3<btScalar>& v) { return toGlm(mesh.transform * toBullet(v)); };
            byId[{triangle.partId, triangle.triangleIndex}] = {
                world(triangle.local.a), world(triangle.local.b), world(triangle.local.c)};
        }
        int touching = 0, reported = 0, multiple = 0;
        btScalar worstPoint = 0, worstCentre = 0, worstDistance = 0;
        for (int n = 0; n < spheresPerMesh; ++n) {
            const btScalar radius = btScalar(random.uniform(0.1, 1.2));
            sphereShape.setUnscaledRadius(radius);
            const btVector3 local(random.uniform(boxMin.x(), boxMax.x()),
                                  random.uniform(boxMin.y() - radius, boxMax.y() + radius),
                                  random.uniform(boxMin.z(), boxMax.z()));
            const btVector3 centre = mesh.transform * local;
            sphere.setWorldTransform(btTransform(btQuaternion::getIdentity(), centre));
            const btScalar reach = breakingThreshold(sphere, meshObject);
            const auto contacts = pairContacts(world.world(), sphere, meshObject, n % 2 == 0);
            std::optional<btScalar> deepest;
            for (const auto& [id, triangle] : byId) {
                const auto core =
                    sphereTriangleContact(Sphere<btScalar>{toGlm(centre), radius + reach}, triangle);
                if (core && (!deepest || reach - core->contact.depth < *deepest))
                    deepest = reach - core->contact.depth;
            }
            SCOPED_TRACE(::testing::Message()
                         << "sphere " << n << " at " << test::text(toGlm(centre)) << " radius " << radius);
            ASSERT_LE(contacts.size(), std::size_t(SphereMesh::reportedCapacity));
            if (deepest && *deepest < reach - tolerance) ++touching;
            if (!contacts.empty()) ++reported;
            if (contacts.size() > 1) ++multiple;
            if (!deepest) {
                EXPECT_TRUE(contacts.empty());
                continue;
            }
            if (*deepest < reach - tolerance) {
                ASSERT_FALSE(contacts.empty());
            }
            btScalar ourDeepest = std::numeric_limits<btScalar>::max();
            for (const MeshContact& contact : contacts) {
                const auto found = byId.find({contact.partId, contact.triangleIndex});
                ASSERT_NE(found, byId.end())
                    << "part " << contact.partId << " triangle " << contact.triangleIndex;
                const auto core =
                    sphereTriangleContact(Sphere<btScalar>{toGlm(centre), radius + reach}, found->second);
                ASSERT_TRUE(core.has_value());
                const btScalar distance = reach - core->contact.depth;
                const btVector3 reachedCentre =
                    contact.pointOnMesh + contact.normal * (contact.distance + radius);
                worstDistance = std::max(worstDistance, std::abs(contact.distance - distance));
                worstPoint =
                    std::max(worstPoint, (contact.pointOnMesh - toBullet(core->contact.pointOnB)).length());
                worstCentre = std::max(worstCentre, (reachedCentre - centre).length());
                EXPECT_NEAR(contact.distance, distance, tolerance);
                EXPECT_LT(contact.distance, reach);
                EXPECT_LE((contact.pointOnMesh - toBullet(core->contact.pointOnB)).length(), tolerance);
                EXPECT_LE((reachedCentre - centre).length(), tolerance);
                ourDeepest = std::min(ourDeepest, contact.distance);
            }
            if (!contacts.empty()) {
                EXPECT_NEAR(ourDeepest, *deepest, tolerance);
            }
        }
        std::printf(
            "[ %s ] %d spheres: %d touching, %d with contacts, %d with several; worst point %g, centre %g, "
            "distance %g (bound %g)\n",
            mesh.name.c_str(), spheresPerMesh, touching, reported, multiple, double(worstPoint),
            double(worstCentre), double(worstDistance), double(tolerance));
        EXPECT_GT(touching, spheresPerMesh / 10);
        EXPECT_GT(multiple, 0);
    }
}

// ---------------------------------------------------------------------------------------------------
// Internal edges.

// On a flat mesh every contact is the face's, along the mesh's normal, whichever triangles, edges and
// vertices the sphere also touches; Bullet's per-triangle algorithm reports tilted edge contacts.
TEST(SphereMeshInternalEdges, OnAFlatMeshEveryContactIsAlongTheNormal) {
    GridMesh data;
    data.addFlatGrid(6, 6, 1, btVector3(-3, 0, -3));
    BulletWorld world;
    auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    test::Random random(3);
    const Mat3<btScalar> rotation = random.rotation<btScalar>();
    const btTransform meshTransform = test::transformOf(rotation, btVector3(1, 2, 3));
    btRigidBody& mesh = world.addBody(bvh, meshTransform);
    auto& sphereShape = world.makeShape<btSphereShape>(btScalar(1));
    btRigidBody& sphere = world.addBody(sphereShape, btVector3(0, 0, 0), 1);
    const btVector3 up = meshTransform.getBasis() * btVector3(0, 1, 0);
    const auto tiltedContacts = [&](int& contactCount) {
        int tilted = 0;
        contactCount = 0;
        test::Random placement(5);
        for (int n = 0; n < 2000; ++n) {
            const btScalar radius = btScalar(placement.uniform(0.2, 1.5));
            sphereShape.setUnscaledRadius(radius);
            // The sphere's ball stays over the mesh (no border edges), touching or slightly sunk in it.
            const btScalar inside = 3 - radius;
            const btVector3 local(placement.uniform(-inside, inside),
                                  radius - placement.uniform(0, 0.02 * radius),
                                  placement.uniform(-inside, inside));
            sphere.setWorldTransform(btTransform(btQuaternion::getIdentity(), meshTransform * local));
            for (const MeshContact& contact : pairContacts(world.world(), sphere, mesh)) {
                ++contactCount;
                if ((contact.normal - up).length() > 1e-3) ++tilted;
            }
        }
        return tilted;
    };
    int bulletContacts = 0, ourContacts = 0;
    const int bulletTilted = tiltedContacts(bulletContacts);
    {
        const Plugin plugin(world.world(), Pair::SphereMesh);
        EXPECT_EQ(tiltedContacts(ourContacts), 0);
    }
    std::printf("[ flat mesh ] contacts tilted by more than 1e-3: Bullet %d of %d, ours 0 of %d\n",
                bulletTilted, bulletContacts, ourContacts);
    EXPECT_GT(bulletTilted, 0);
    EXPECT_GE(ourContacts, 2000);
}

// Two roof slopes meeting at a ridge, and a V valley: over the ridge the sphere touches its convex
// edge once; in the valley both slopes' faces.
TEST(SphereMeshInternalEdges, AConvexRidgeGivesOneEdgeContactAndAValleyBothFaces) {
    const auto roof = [](btScalar x, btScalar) { return btScalar(0.5) * (btScalar(2) - std::abs(x)); };
    const auto valley = [](btScalar x, btScalar) { return btScalar(0.5) * std::abs(x); };
    for (const bool isRoof : {true, false}) {
        SCOPED_TRACE(isRoof ? "roof" : "valley");
        GridMesh data;
        if (isRoof)
            data.addGrid(4, 4, 1, btVector3(-2, 0, -2), roof);
        else
            data.addGrid(4, 4, 1, btVector3(-2, 0, -2), valley);
        BulletWorld world;
        btRigidBody& mesh =
            world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
        const btScalar radius = 0.5;
        btRigidBody& sphere = world.addBody(world.makeShape<btSphereShape>(radius), btVector3(0, 0, 0), 1);
        const Plugin plugin(world.world(), Pair::SphereMesh);
        const btScalar slopeNormalLength = std::sqrt(btScalar(1.25));
        for (const btScalar z : {btScalar(-0.7), btScalar(0), btScalar(0.3), btScalar(1)}) {
            if (isRoof) {
                // The centre over the ridge (x = 0, height 1), slightly sunk: beyond both faces.
                sphere.setWorldTransform(translation(0.05, 1 + radius - btScalar(0.01), z));
                const auto contacts = pairContacts(world.world(), sphere, mesh);
                ASSERT_EQ(contacts.size(), 1u) << "z " << z;
                EXPECT_NEAR(contacts[0].pointOnMesh.x(), 0, 1e-5);
                EXPECT_NEAR(contacts[0].pointOnMesh.y(), 1, 1e-5);
                const btVector3 expected =
                    (sphere.getWorldTransform().getOrigin() - contacts[0].pointOnMesh).normalized();
                EXPECT_LT((contacts[0].normal - expected).length(), 1e-5);
            } else {
                // The ball resting in the valley touches both slopes at distance radius along their normals.
                sphere.setWorldTransform(translation(0, radius * slopeNormalLength - btScalar(0.01), z));
                const auto contacts = pairContacts(world.world(), sphere, mesh);
                ASSERT_EQ(contacts.size(), 2u) << "z " << z;
                for (const MeshContact& contact : contacts) {
                    const btScalar side = contact.pointOnMesh.x() < 0 ? 1 : -1;
                    const btVector3 slopeNormal = btVector3(side * btScalar(0.5), 1, 0) / slopeNormalLength;
                    EXPECT_LT((contact.normal - slopeNormal).length(), 1e-5);
                }
            }
        }
    }
}

// More triangles touch a big sphere on a fine mesh than the candidates hold; the deepest are kept, and
// the face under the centre is among them.
TEST(SphereMeshInternalEdges, ABigSphereOnAFineMeshKeepsTheFaceUnderItsCentre) {
    GridMesh data;
    data.addFlatGrid(80, 80, btScalar(0.1), btVector3(-4, 0, -4));
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    btRigidBody& sphere = world.addBody(world.makeShape<btSphereShape>(btScalar(5)), btVector3(0, 0, 0), 1);
    const Plugin plugin(world.world(), Pair::SphereMesh);
    for (const btScalar x : {btScalar(0.013), btScalar(0.05), btScalar(-0.31)}) {
        sphere.setWorldTransform(translation(x, btScalar(4.99), btScalar(0.027)));
        const auto contacts = pairContacts(world.world(), sphere, mesh);
        ASSERT_FALSE(contacts.empty());
        for (const MeshContact& contact : contacts) {
            EXPECT_LT((contact.normal - btVector3(0, 1, 0)).length(), 1e-5);
            EXPECT_NEAR(contact.distance, -0.01, 1e-4);
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Rolling across a flat mesh of 10 x 5 quads (100 triangles), diagonally over edges and vertices.

test::Glide rollAcrossFlatMesh(bool ours) {
    GridMesh data;
    data.addFlatGrid(10, 5, 1, btVector3(0, 0, 0));
    BulletWorld world;
    world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    const btScalar radius = 0.5;
    btRigidBody& ball = world.addBody(world.makeShape<btSphereShape>(radius), btVector3(0.8, radius, 0.7), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::SphereMesh);
    world.step(30);  // settle on the mesh
    const btVector3 velocity(3, 0, 1.2);
    ball.activate(true);
    ball.setLinearVelocity(velocity);
    ball.setAngularVelocity(btVector3(0, 1, 0).cross(velocity) / radius);  // rolling without slipping
    return test::glideAcross(world, ball, btScalar(9.2), btScalar(4.3));
}

TEST(SphereMeshRolling, AcrossAFlatMeshOf100TrianglesTheVerticalSpeedStaysUnder1MillimetrePerSecond) {
    const test::Glide bullet = rollAcrossFlatMesh(false);
    const test::Glide ours = rollAcrossFlatMesh(true);
    std::printf("[ rolling ] max |vertical velocity| over %.2f m: Bullet %.3g m/s, ours %.3g m/s\n",
                double(ours.distance), double(bullet.maxVerticalSpeed), double(ours.maxVerticalSpeed));
    EXPECT_GT(ours.distance, 8);
    EXPECT_LT(ours.maxVerticalSpeed, 1e-3);
    EXPECT_GT(bullet.maxVerticalSpeed, 1e-3);  // Bullet's bounce, which the criterion is about
}

// ---------------------------------------------------------------------------------------------------
// Resting height.

// Height of a sphere's centre after resting for 2 s, on a shape Bullet's built-ins or ours collide.
btScalar restingHeight(bool ours, btCollisionShape& ground, const btTransform& groundTransform,
                       const btVector3& start, BulletWorld& world) {
    world.addBody(ground, groundTransform);
    btRigidBody& ball = world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), start, 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::SphereMesh);
    world.step(120);
    return ball.getWorldTransform().getOrigin().y();
}

TEST(SphereMeshResting, OnAHeightfieldAndOnAScaledMeshAtTheSurfacePlusTheRadius) {
    test::expectRestingOnHeightfieldAndScaledMesh(restingHeight, btScalar(1e-3));
}

// ---------------------------------------------------------------------------------------------------
// Sides.

// A sphere falling at 66 m/s onto a flat mesh: over one step its centre goes from 0.4 above the
// plane (out of reach) to about 0.2 below it. Returns where it is after 2 s.
btScalar heightAfterFastFall(bool ours, bool oneSided, btScalar restitution = 0) {
    GridMesh data;
    data.addFlatGrid(4, 4, 2, btVector3(-4, 0, -4));
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    if (oneSided) mesh.setCollisionFlags(mesh.getCollisionFlags() | oneSidedMeshFlag);
    btRigidBody& ball =
        world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), btVector3(0.3, 0.9, 0.4), 1);
    mesh.setRestitution(restitution);
    ball.setRestitution(restitution);
    ball.setLinearVelocity(btVector3(0, -66, 0));
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::SphereMesh);
    btScalar lowest = ball.getWorldTransform().getOrigin().y();
    for (int i = 0; i < 120; ++i) {
        world.step();
        lowest = std::min(lowest, ball.getWorldTransform().getOrigin().y());
    }
    if (ours) {
        EXPECT_LT(lowest, 0);  // the centre did cross the plane
    }
    return ball.getWorldTransform().getOrigin().y();
}

TEST(SphereMeshSides, AFastSphereCrossingTheFrontIsPushedBackOutOfTheFront) {
    const btScalar bullet = heightAfterFastFall(false, false);
    const btScalar twoSided = heightAfterFastFall(true, false);
    const btScalar oneSided = heightAfterFastFall(true, true);
    const btScalar bouncing = heightAfterFastFall(true, false, 1);
    std::printf(
        "[ fast fall ] height after 2 s: Bullet %.3f, ours two-sided %.3f, one-sided %.3f, bouncing %.3f\n",
        double(bullet), double(twoSided), double(oneSided), double(bouncing));
    EXPECT_LT(bullet, 0);  // pushed out of the back
    EXPECT_NEAR(twoSided, 0.5, 0.01);
    EXPECT_NEAR(oneSided, 0.5, 0.01);
    EXPECT_GT(bouncing, 0.5);
}

// Over a ridge (slopes y = 1 -/+ x / 2 meeting at x = 0), a sphere sunk 0.2 into the left slope near
// the ridge has its centre behind the right slope's plane; its manifold holds contacts with the left
// slope only. Moved over the right slope, in front of it, the right slope has no contact of its own in
// the manifold: the left slope's contacts tell the side (front), not where the centre was (behind the
// plane, but not behind the triangle), so the right slope pushes the sphere out, not through it.
TEST(SphereMeshSides, OverARidgeTheManifoldsContactsWithANeighbourTellTheSide) {
    GridMesh data;
    data.addGrid(4, 4, 1, btVector3(-2, 0, -2),
                 [](btScalar x, btScalar) { return btScalar(0.5) * (btScalar(2) - std::abs(x)); });
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    const btScalar radius = 0.5;
    btRigidBody& sphere = world.addBody(world.makeShape<btSphereShape>(radius), btVector3(0, 5, 0), 1);
    const Plugin plugin(world.world(), Pair::SphereMesh);
    const btVector3 leftNormal = btVector3(-0.5, 1, 0).normalized(),
                    rightNormal = btVector3(0.5, 1, 0).normalized();
    // 0.3 in front of the left slope at x = -0.3 (0.2 deep): behind the right slope's plane.
    const btVector3 before = btVector3(-0.3, 0.85, 0.3) + leftNormal * btScalar(0.3);
    ASSERT_LT(rightNormal.dot(before - btVector3(0, 1, 0)), 0);
    sphere.setWorldTransform(btTransform(btQuaternion::getIdentity(), before));
    world.world().performDiscreteCollisionDetection();
    const auto first = world.contacts(sphere, mesh);
    ASSERT_FALSE(first.empty());
    for (const test::SeenContact& contact : first)
        EXPECT_LT((contact.normalOnB - leftNormal).length(), 1e-4);
    // 0.45 in front of the right slope at x = 0.3 (0.05 deep).
    sphere.setWorldTransform(
        btTransform(btQuaternion::getIdentity(), btVector3(0.3, 0.85, 0.3) + rightNormal * btScalar(0.45)));
    world.world().performDiscreteCollisionDetection();
    const auto second = world.contacts(sphere, mesh);
    ASSERT_FALSE(second.empty());
    for (const test::SeenContact& contact : second) {
        EXPECT_GT(contact.normalOnB.y(), 0) << "distance " << contact.distance;
        EXPECT_GT(contact.distance, btScalar(-0.06));
    }
}

// Fresh algorithms (contactPairTest) have no history: two-sided meshes push a centre out on its own
// side, as Bullet; one-sided ones out of the front, or not at all once the whole sphere is behind.
TEST(SphereMeshSides, OneSidedMeshesPushOutOfTheFrontWhateverTheirScalingOrUpAxis) {
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    BulletWorld world;
    auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    const std::vector<float> heights(25, 0.f);
    struct Case {
        std::string name;
        btCollisionShape* shape;
        btVector3 front;
    };
    const std::vector<Case> cases = {
        {"bvh mesh", &bvh, btVector3(0, 1, 0)},
        {"mirrored scaled mesh", &world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(-1, 1, 1)),
         btVector3(0, 1, 0)},
        {"upside-down scaled mesh", &world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(1, -1, 1)),
         btVector3(0, -1, 0)},
        {"heightfield, y up",
         &world.makeShape<btHeightfieldTerrainShape>(5, 5, heights.data(), btScalar(-1), btScalar(1), 1,
                                                     false),
         btVector3(0, 1, 0)},
        {"heightfield, z up (winding facing down)",
         &world.makeShape<btHeightfieldTerrainShape>(5, 5, heights.data(), btScalar(-1), btScalar(1), 2,
                                                     false),
         btVector3(0, 0, 1)},
    };
    const btScalar radius = 0.5;
    btRigidBody& sphere = world.addBody(world.makeShape<btSphereShape>(radius), btVector3(0, 0, 0), 1);
    const Plugin plugin(world.world(), Pair::SphereMesh);
    for (const Case& meshCase : cases) {
        SCOPED_TRACE(meshCase.name);
        btRigidBody& mesh = world.addBody(*meshCase.shape, translation(0, 0, 0));
        const btVector3 lateral =
            btVector3(0.3, 0.2, 0.1) - meshCase.front * meshCase.front.dot(btVector3(0.3, 0.2, 0.1));
        for (const bool oneSided : {false, true}) {
            SCOPED_TRACE(oneSided ? "one-sided" : "two-sided");
            mesh.setCollisionFlags(oneSided ? mesh.getCollisionFlags() | oneSidedMeshFlag
                                            : mesh.getCollisionFlags() & ~oneSidedMeshFlag);
            for (const btScalar height : {btScalar(0.3), btScalar(-0.2), btScalar(-0.51)}) {
                SCOPED_TRACE(::testing::Message() << "centre " << height << " in front");
                sphere.setWorldTransform(
                    btTransform(btQuaternion::getIdentity(), lateral + meshCase.front * height));
                const auto contacts = pairContacts(world.world(), sphere, mesh, height < 0);
                if (oneSided && height < -radius) {
                    EXPECT_TRUE(contacts.empty());
                    continue;
                }
                ASSERT_EQ(contacts.size(), 1u);
                const btScalar side = oneSided || height > 0 ? 1 : -1;
                EXPECT_LT((contacts[0].normal - side * meshCase.front).length(), 1e-6);
                EXPECT_NEAR(contacts[0].distance, side * height - radius, 1e-5);
                EXPECT_LT((contacts[0].pointOnMesh - lateral).length(), 1e-5);
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Identifiers and contact callbacks.

struct SeenByCallback {
    int shapeType = -1;
    btVector3 vertices[3];
    int partId = -1;
    int triangleIndex = -1;
    int calls = 0;
};
SeenByCallback seenByCallback;
const btCollisionObject* callbackMesh = nullptr;

bool recordMeshSide(btManifoldPoint&, const btCollisionObjectWrapper* wrapper0, int partId0, int index0,
                    const btCollisionObjectWrapper* wrapper1, int partId1, int index1) {
    const bool meshIs0 = wrapper0->getCollisionObject() == callbackMesh;
    const btCollisionObjectWrapper* meshSide = meshIs0 ? wrapper0 : wrapper1;
    seenByCallback.shapeType = meshSide->getCollisionShape()->getShapeType();
    if (seenByCallback.shapeType == TRIANGLE_SHAPE_PROXYTYPE) {
        const auto& triangle = static_cast<const btTriangleShape&>(*meshSide->getCollisionShape());
        for (int i = 0; i < 3; ++i)
            seenByCallback.vertices[i] = triangle.m_vertices1[i];
    }
    seenByCallback.partId = meshIs0 ? partId0 : partId1;
    seenByCallback.triangleIndex = meshIs0 ? index0 : index1;
    ++seenByCallback.calls;
    return false;
}

struct IdentifiedContact {
    int partId;
    int triangleIndex;
    SeenByCallback callback;
};

// The identifiers of the single contact of a sphere resting at position on the mesh, after a step in a
// world where the mesh was added before or after the sphere, and what a contact-added callback saw.
IdentifiedContact identifiedContact(bool ours, bool meshFirst, btCollisionShape& meshShape,
                                    const btVector3& position) {
    BulletWorld world;
    btRigidBody* mesh = nullptr;
    if (meshFirst) mesh = &world.addBody(meshShape, translation(0, 0, 0));
    btRigidBody& ball = world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), position, 1);
    if (!meshFirst) mesh = &world.addBody(meshShape, translation(0, 0, 0));
    mesh->setCollisionFlags(mesh->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::SphereMesh);
    seenByCallback = {};
    callbackMesh = mesh;
    gContactAddedCallback = recordMeshSide;
    world.step();
    gContactAddedCallback = nullptr;
    const auto contacts = worldContacts(world.dispatcher(), ball, *mesh);
    EXPECT_EQ(contacts.size(), 1u);
    if (contacts.empty()) return {-1, -1, seenByCallback};
    return {contacts[0].partId, contacts[0].triangleIndex, seenByCallback};
}

TEST(SphereMeshIdentifiers, PartIdTriangleIndexAndTheCallbacksTriangleAreBullets) {
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(0, 0, 0));
    data.addFlatGrid(4, 4, 1, btVector3(4, 0, 0));
    btBvhTriangleMeshShape bvh(&data.array(), true);
    const std::vector<float> heights(36, 0.f);
    btHeightfieldTerrainShape terrain(6, 6, heights.data(), btScalar(-1), btScalar(1), 1, false);
    struct Case {
        std::string name;
        btCollisionShape* shape;
        btVector3 position;
        int partId;
        int triangleIndex;
    };
    // Part 1, cell (1, 2) = 9, its first triangle; heightfield cell (x 3, j 1) (its origin at the
    // centre: the cell spans [0.5, 1.5] x [-1.5, -0.5]), its second triangle: part 2 x + 1, index j.
    const std::vector<Case> cases = {{"bvh mesh", &bvh, btVector3(5.25, 0.49, 2.25), 1, 18},
                                     {"heightfield", &terrain, btVector3(1.2, 0.49, -0.8), 7, 1}};
    for (const Case& meshCase : cases) {
        for (const bool meshFirst : {true, false}) {
            SCOPED_TRACE(meshCase.name + (meshFirst ? ", mesh added first" : ", sphere added first"));
            const IdentifiedContact bullet =
                identifiedContact(false, meshFirst, *meshCase.shape, meshCase.position);
            const IdentifiedContact ours =
                identifiedContact(true, meshFirst, *meshCase.shape, meshCase.position);
            EXPECT_EQ(bullet.partId, meshCase.partId);
            EXPECT_EQ(bullet.triangleIndex, meshCase.triangleIndex);
            EXPECT_EQ(ours.partId, meshCase.partId);
            EXPECT_EQ(ours.triangleIndex, meshCase.triangleIndex);
            EXPECT_EQ(ours.callback.calls, 1);
            EXPECT_EQ(ours.callback.shapeType, TRIANGLE_SHAPE_PROXYTYPE);
            EXPECT_EQ(ours.callback.shapeType, bullet.callback.shapeType);
            EXPECT_EQ(ours.callback.partId, meshCase.partId);
            EXPECT_EQ(ours.callback.triangleIndex, meshCase.triangleIndex);
            for (int i = 0; i < 3; ++i)
                EXPECT_EQ(ours.callback.vertices[i], bullet.callback.vertices[i]) << "vertex " << i;
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Time of impact.

TEST(SphereMeshTimeOfImpact, TheEarliestSweepHitOverTheStep) {
    GridMesh data;
    data.addGrid(4, 4, 1, btVector3(-2, 0, -2),
                 [](btScalar x, btScalar) { return x > 0 ? btScalar(1) : btScalar(0); });
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    btRigidBody& ball = world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), btVector3(0, 0, 0), 1);
    const Plugin plugin(world.world(), Pair::SphereMesh);
    const auto timeOfImpact = [&](const btVector3& from, const btVector3& to, bool sphereFirst) {
        ball.setWorldTransform(btTransform(btQuaternion::getIdentity(), from));
        ball.setInterpolationWorldTransform(btTransform(btQuaternion::getIdentity(), to));
        btCollisionObject& body0 = sphereFirst ? static_cast<btCollisionObject&>(ball) : mesh;
        btCollisionObject& body1 = sphereFirst ? static_cast<btCollisionObject&>(mesh) : ball;
        const auto algorithm =
            test::findAlgorithm(world.dispatcher(), body0, body1, BT_CONTACT_POINT_ALGORITHMS);
        return algorithm->calculateTimeOfImpact(&body0, &body1, world.world().getDispatchInfo(), nullptr);
    };
    for (const bool sphereFirst : {true, false}) {
        for (const bool oneSided : {false, true}) {
            SCOPED_TRACE(::testing::Message() << (sphereFirst ? "sphere first" : "mesh first") << ", "
                                              << (oneSided ? "one-sided" : "two-sided"));
            mesh.setCollisionFlags(oneSided ? mesh.getCollisionFlags() | oneSidedMeshFlag
                                            : mesh.getCollisionFlags() & ~oneSidedMeshFlag);
            // Down onto the lower half (y = 0): touches at y = 0.5.
            EXPECT_NEAR(timeOfImpact(btVector3(-1, 2, 0.3), btVector3(-1, -2, 0.3), sphereFirst), 0.375,
                        1e-5);
            // Sideways into the step's wall (x in [0, 1] rising from 0 to 1): its slope's front faces -x, up.
            const btScalar wallHit =
                timeOfImpact(btVector3(-1.5, 0.6, 0.3), btVector3(0.5, 0.6, 0.3), sphereFirst);
            EXPECT_GT(wallHit, 0);
            EXPECT_LT(wallHit, 1);
            // Up from under the mesh: a back face, hit only when two-sided.
            const btScalar fromBelow =
                timeOfImpact(btVector3(-1, -2, 0.3), btVector3(-1, 2, 0.3), sphereFirst);
            EXPECT_NEAR(fromBelow, oneSided ? 1 : 0.375, 1e-5);
            // Missing the mesh.
            EXPECT_EQ(timeOfImpact(btVector3(-1, 2, 5), btVector3(-1, 1, 5), sphereFirst), 1);
        }
    }
}

}  // namespace
}  // namespace analytic
