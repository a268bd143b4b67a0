// SPDX-License-Identifier: Zlib
// Capsule against whole meshes (Pair::CapsuleMesh), in real worlds: the dispatcher hands out our
// algorithm for every mesh type in both orders and both tables; its contacts are the geometry core's;
// capsules of every up axis rest lying (held at both ends) and upright; a capsule rolling across a flat
// mesh does not bump on its internal edges; a fast capsule does not go through; hostile shapes and
// transforms give no crash and no contact that is not there.
#include "narrowphase/capsule_mesh.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConcaveCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/plugin.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"
#include "support/mesh_contacts.hpp"
#include "support/mesh_dispatch.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using narrowphase::CapsuleMesh;
using narrowphase::PairAlgorithm;
using test::BulletWorld;
using test::GridMesh;
using test::translation;

btScalar flat(btScalar, btScalar) { return 0; }

btCapsuleShape& makeCapsule(BulletWorld& world, int upAxis, btScalar radius, btScalar height) {
    if (upAxis == 0) return world.makeShape<btCapsuleShapeX>(radius, height);
    if (upAxis == 2) return world.makeShape<btCapsuleShapeZ>(radius, height);
    return world.makeShape<btCapsuleShape>(radius, height);
}

// A rotation that lays a capsule of this up axis along x (lying on a y-up mesh), or stands it along y.
btQuaternion lyingAlongX(int upAxis) {
    if (upAxis == 1) return btQuaternion(btVector3(0, 0, 1), btScalar(M_PI / 2));
    if (upAxis == 2) return btQuaternion(btVector3(0, 1, 0), btScalar(M_PI / 2));
    return btQuaternion::getIdentity();
}

btQuaternion upright(int upAxis) {
    if (upAxis == 0) return btQuaternion(btVector3(0, 0, 1), btScalar(M_PI / 2));
    if (upAxis == 2) return btQuaternion(btVector3(1, 0, 0), btScalar(M_PI / 2));
    return btQuaternion::getIdentity();
}

// ---------------------------------------------------------------------------------------------------
// Dispatch.

TEST(CapsuleMeshDispatch, OursForEveryMeshTypeInBothOrdersAndTablesWhileThePluginLives) {
    test::MeshDispatchWorld dispatch;
    std::vector<btCollisionObject*> capsules;
    for (int upAxis = 0; upAxis < 3; ++upAxis)
        capsules.push_back(&dispatch.world.addBody(makeCapsule(dispatch.world, upAxis, btScalar(0.3), 1),
                                                   btVector3(2, 0.4, 2), 1));
    dispatch.expectOursWhileThePluginLives<CapsuleMesh>(capsules, Pair::CapsuleMesh,
                                                        Pair::SphereMesh | Pair::BoxMesh);
}

// ---------------------------------------------------------------------------------------------------
// Agreement with the geometry core: every contact of contactPairTest is a point of the core's contact
// with the triangle it names (on the side the core gives: a fresh algorithm has no history), at most 4.

using test::MeshContact;
using test::MeshContactsCallback;

Triangle<btScalar> triangleNamed(const btConcaveShape& mesh, int index) {
    struct One final : btTriangleCallback {
        int wanted = 0;
        Triangle<btScalar> found{};
        void processTriangle(btVector3* v, int, int triangleIndex) override {
            if (triangleIndex == wanted) found = {toGlm(v[0]), toGlm(v[1]), toGlm(v[2])};
        }
    } one;
    one.wanted = index;
    mesh.processAllTriangles(&one, btVector3(-100, -100, -100), btVector3(100, 100, 100));
    return one.found;
}

TEST(CapsuleMeshAgreement, ContactsAreTheCoresPointsOfTheTrianglesTheyName) {
    GridMesh data;
    data.addGrid(6, 6, 1, btVector3(-3, 0, -3), [](btScalar x, btScalar z) {
        return btScalar(0.3 * std::sin(1.3 * x) * std::cos(0.9 * z) + 0.1 * std::sin(2.7 * z));
    });
    BulletWorld world;
    auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    btCollisionObject& mesh = world.addBody(bvh, translation(0, 0, 0));
    std::vector<btCollisionObject*> capsules;
    for (int upAxis = 0; upAxis < 3; ++upAxis)
        capsules.push_back(&world.addBody(makeCapsule(world, upAxis, btScalar(0.3), btScalar(1.2)),
                                          btVector3(0, 5 + 3 * upAxis, 0), 1));
    const Plugin plugin(world.world(), Pair::CapsuleMesh);
    btScalar random = 0.5;
    const auto next = [&] {
        random = std::fmod(random * 97 + btScalar(0.1234567), btScalar(1));
        return random;
    };
    int withContacts = 0, withTwoOrMore = 0;
    for (int i = 0; i < 300; ++i) {
        btCollisionObject& capsule = *capsules[i % 3];
        const btScalar tilt = next() < 0.5 ? next() * btScalar(0.1) : next() * 6;
        const btQuaternion rotation = btQuaternion(btVector3(0, 1, 0), next() * 6) *
                                      btQuaternion(btVector3(1, 0, 0), tilt) * lyingAlongX(i % 3);
        const btVector3 position(next() * 4 - 2, next() * 0.8 - 0.1, next() * 4 - 2);
        capsule.setWorldTransform(btTransform(rotation, position));
        MeshContactsCallback callback(mesh);
        world.world().contactPairTest(&capsule, &mesh, callback);
        SCOPED_TRACE(::testing::Message() << "capsule " << i);
        EXPECT_LE(callback.contacts.size(), 4u);
        if (callback.contacts.empty()) continue;
        ++withContacts;
        withTwoOrMore += callback.contacts.size() >= 2;
        const Capsule<btScalar> core = toCapsule(
            static_cast<const btCapsuleShape&>(*capsule.getCollisionShape()), capsule.getWorldTransform());
        for (const MeshContact& contact : callback.contacts) {
            EXPECT_TRUE(std::isfinite(contact.distance));
            const auto expected =
                capsuleTriangleContact(core, triangleNamed(bvh, contact.triangleIndex), btScalar(1));
            ASSERT_TRUE(expected.has_value());
            bool found = false;
            for (int k = 0; k < expected->contact.pointCount; ++k) {
                const CapsulePoint<btScalar>& point = expected->contact.points[k];
                found = found || ((toBullet(point.onB) - contact.pointOnMesh).length() < 1e-4 &&
                                  std::abs(point.distance - contact.distance) < 1e-4 &&
                                  (toBullet(expected->contact.normal) - contact.normal).length() < 1e-4);
            }
            EXPECT_TRUE(found) << "triangle " << contact.triangleIndex << ", distance " << contact.distance;
        }
    }
    std::printf("[ agreement ] %d capsules with contacts, %d with 2 or more\n", withContacts, withTwoOrMore);
    EXPECT_GT(withContacts, 100);
    EXPECT_GT(withTwoOrMore, 20);
}

// Against Bullet's per-triangle GJK where both are exact: capsules of random axis, size and tilt touching
// a flat mesh of 4 m cells, their cores (the axis, the triangle) apart. The deepest contact's distance:
// exact in ours (the lowest point of the capsule), within GJK's tolerance in Bullet's.
TEST(CapsuleMeshAgreement, TheDeepestContactAgreesWithBulletsGjkOnAFlatMesh) {
    GridMesh data;
    data.addGrid(6, 6, 4, btVector3(-12, 0, -12), flat);
    int compared = 0, agreed = 0;
    double worst = 0;
    test::Random random(5);
    for (int i = 0; i < 200; ++i) {
        const int upAxis = int(random.uniform(0, 3));
        const double radius = random.uniform(0.1, 1), halfHeight = random.uniform(0, 1.5);
        const Mat3<double> rotation = random.rotation<double>();
        const Vec3<double> axis = rotation[upAxis];
        const double lowest = radius + halfHeight * std::abs(axis.y);  // of the capsule below its centre
        const double distance = -random.uniform(0, 0.3) * radius;
        const btTransform place = test::transformOf(
            Mat3<btScalar>(rotation), btVector3(btScalar(random.uniform(-6, 6)), btScalar(lowest + distance),
                                                btScalar(random.uniform(-6, 6))));
        double deepest[2] = {0, 0};
        for (const bool ours : {false, true}) {
            BulletWorld world;
            btCollisionObject& mesh = world.addBody(
                world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
            btCollisionObject& capsule = world.addBody(
                makeCapsule(world, upAxis, btScalar(radius), btScalar(2 * halfHeight)), place, 1);
            std::optional<Plugin> plugin;
            if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
            MeshContactsCallback callback(mesh);
            world.world().contactPairTest(&capsule, &mesh, callback);
            deepest[ours] = std::numeric_limits<double>::infinity();
            for (const MeshContact& contact : callback.contacts)
                deepest[ours] = std::min(deepest[ours], double(contact.distance));
        }
        // The exact distance from the shape's own sizes (as Bullet rounds them).
        const btScalar r = btScalar(radius), h = btScalar(2 * halfHeight) / 2;
        const double exact = double(place.getOrigin().y()) -
                             double(h) * std::abs(double(place.getBasis().getColumn(upAxis).y())) - double(r);
        EXPECT_NEAR(deepest[1], exact, 1e-5) << "capsule " << i;
        if (std::isfinite(deepest[0])) {
            ++compared;
            const double difference = std::abs(deepest[0] - exact);
            worst = std::max(worst, difference);
            agreed += difference <= 1e-4 * (radius + halfHeight + 1);
        }
    }
    std::printf("[ agreement ] with Bullet's GJK: %d of %d within 1e-4 of the size plus 1 m, worst %.3g m\n",
                agreed, compared, worst);
    EXPECT_GT(compared, 150);
    EXPECT_GE(agreed, 0.95 * compared);
}

// A capsule lying along a valley is held by both slopes, at both ends.
TEST(CapsuleMeshAgreement, ACapsuleAlongAValleyTouchesBothSlopes) {
    GridMesh data;
    data.addGrid(4, 4, 1, btVector3(0, 0, 0),
                 [](btScalar x, btScalar) { return btScalar(0.5) * std::abs(x - 2); });
    BulletWorld world;
    btCollisionObject& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    const btScalar resting = btScalar(0.3 * std::sqrt(1.25));
    btCollisionObject& capsule = world.addBody(makeCapsule(world, 2, btScalar(0.3), btScalar(1.6)),
                                               btVector3(2, resting - 0.005f, 2), 1);
    const Plugin plugin(world.world(), Pair::CapsuleMesh);
    MeshContactsCallback callback(mesh);
    world.world().contactPairTest(&capsule, &mesh, callback);
    int left = 0, right = 0;
    for (const MeshContact& contact : callback.contacts) {
        left += contact.normal.x() > btScalar(0.4);
        right += contact.normal.x() < btScalar(-0.4);
        EXPECT_NEAR(contact.distance, -0.005 / std::sqrt(1.25), 1e-5);
    }
    EXPECT_GE(left, 1);
    EXPECT_GE(right, 1);
    EXPECT_EQ(left + right, int(callback.contacts.size()));
}

// ---------------------------------------------------------------------------------------------------
// Resting on a flat mesh of 10 x 5 quads.

// A capsule of radius 0.4 and height 1.2 dropped lying (along x) or upright over shared edges and vertices.
test::Rest dropOnFlatMesh(bool ours, int upAxis, bool lying) {
    GridMesh data;
    data.addGrid(10, 5, 1, btVector3(0, 0, 0), flat);
    BulletWorld world;
    btCollisionObject& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    const btScalar bottom = lying ? btScalar(0.4) : btScalar(1.0);
    btRigidBody& capsule = world.addBody(
        makeCapsule(world, upAxis, btScalar(0.4), btScalar(1.2)),
        btTransform(lying ? lyingAlongX(upAxis) : upright(upAxis), btVector3(5.1, bottom + 0.2, 2.3)), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
    return test::restOn(world, capsule, mesh);
}

TEST(CapsuleMeshResting, LyingAndUprightOfEveryAxisRestAtTheirHeightNoDeeperThanWithBullets) {
    for (int upAxis = 0; upAxis < 3; ++upAxis) {
        for (const bool lying : {true, false}) {
            SCOPED_TRACE(::testing::Message() << "up axis " << upAxis << (lying ? " lying" : " upright"));
            const test::Rest bullet = dropOnFlatMesh(false, upAxis, lying);
            const test::Rest ours = dropOnFlatMesh(true, upAxis, lying);
            std::printf(
                "[ resting ] axis %d %s: points Bullet %d, ours %d; height Bullet %.4f, ours %.4f; deepest "
                "Bullet %.3g, ours %.3g; angular speed ours %.3g; drift ours %.3g\n",
                upAxis, lying ? "lying" : "upright", bullet.points, ours.points, double(bullet.height),
                double(ours.height), double(bullet.deepest), double(ours.deepest), double(ours.angularSpeed),
                double(ours.drift));
            EXPECT_GE(ours.points, lying ? 2 : 1);
            EXPECT_NEAR(ours.height, lying ? 0.4 : 1.0, 2e-3);
            EXPECT_LE(ours.deepest, std::max(bullet.deepest, btScalar(1e-4)) * btScalar(1.01));
            EXPECT_LT(ours.angularSpeed, 1e-3);
            EXPECT_LT(ours.drift, 1e-4);
        }
    }
}

// Bullet scales a capsule's radius by the scaling of the axis after next to its up axis and its half
// height by the up axis's: a scaled capsule of each axis rests upright at its scaled half height plus
// its scaled radius.
TEST(CapsuleMeshResting, AScaledCapsuleRestsAtItsScaledSize) {
    for (int upAxis = 0; upAxis < 3; ++upAxis) {
        SCOPED_TRACE(::testing::Message() << "up axis " << upAxis);
        GridMesh data;
        data.addGrid(4, 4, 1, btVector3(-2, 0, -2), flat);
        BulletWorld world;
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
        btCapsuleShape& shape = makeCapsule(world, upAxis, btScalar(0.3), 1);
        btVector3 scaling(1, 1, 1);
        scaling[upAxis] = 2;              // half height 0.5 -> 1
        scaling[(upAxis + 2) % 3] = 1.5;  // radius 0.3 -> 0.45
        shape.setLocalScaling(scaling);
        btRigidBody& capsule =
            world.addBody(shape, btTransform(upright(upAxis), btVector3(0.1, 1.6, 0.2)), 1);
        const Plugin plugin(world.world(), Pair::CapsuleMesh);
        world.step(120);
        EXPECT_NEAR(capsule.getWorldTransform().getOrigin().y(), 1.45, 2e-3);
    }
}

// Lying on a heightfield and on a scaled mesh (its radius 0.5 is the bottom's depth below its centre).
btScalar restingHeight(bool ours, btCollisionShape& ground, const btTransform& groundTransform,
                       const btVector3& start, BulletWorld& world) {
    world.addBody(ground, groundTransform);
    btRigidBody& capsule =
        world.addBody(makeCapsule(world, 2, btScalar(0.5), btScalar(1)),
                      btTransform(btQuaternion(btVector3(0, 1, 0), btScalar(0.4)), start), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
    world.step(120);
    return capsule.getWorldTransform().getOrigin().y();
}

TEST(CapsuleMeshResting, OnAHeightfieldAndOnAScaledMeshAtTheSurfacePlusTheRadius) {
    // Bullet's capsule sinks 4 mm into the heightfield.
    test::expectRestingOnHeightfieldAndScaledMesh(restingHeight, btScalar(1e-3), btScalar(1e-2));
}

// ---------------------------------------------------------------------------------------------------
// Rolling across the flat mesh, over its internal edges and vertices.

test::Glide rollAcrossFlatMesh(bool ours) {
    GridMesh data;
    data.addGrid(12, 6, 1, btVector3(0, 0, 0), flat);
    BulletWorld world;
    world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    // Axis along z (lying), rolling along x and drifting along z across the diagonals.
    btRigidBody& capsule =
        world.addBody(makeCapsule(world, 2, btScalar(0.4), btScalar(1.5)),
                      btTransform(btQuaternion::getIdentity(), btVector3(0.7, 0.4, 2.9)), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
    world.step(30);
    capsule.activate(true);
    capsule.setLinearVelocity(btVector3(4, 0, 0.3));
    capsule.setAngularVelocity(btVector3(0, 0, -4 / btScalar(0.4)));
    return test::glideAcross(world, capsule, 11, btScalar(4.5));
}

TEST(CapsuleMeshRolling, AcrossAFlatMeshTheVerticalSpeedStaysUnder1MillimetrePerSecond) {
    const test::Glide bullet = rollAcrossFlatMesh(false);
    const test::Glide ours = rollAcrossFlatMesh(true);
    std::printf("[ rolling ] max |vertical velocity| over %.2f m: Bullet %.3g m/s, ours %.3g m/s\n",
                double(ours.distance), double(bullet.maxVerticalSpeed), double(ours.maxVerticalSpeed));
    EXPECT_GT(ours.distance, 8);
    EXPECT_LT(ours.maxVerticalSpeed, 1e-3);
}

// ---------------------------------------------------------------------------------------------------
// Fast capsules.

// A capsule (radius 0.3, height 1) falling at speed onto a flat mesh, lying or upright: over one step
// its axis goes from just out of reach above the plane to partly (upright) or wholly (lying) below it.
// Returns the height of its centre after 2 s (at rest, 0.3 lying and 0.8 upright).
btScalar heightAfterFastFall(bool ours, bool oneSided, bool lying, btScalar speed) {
    GridMesh data;
    data.addGrid(4, 4, 2, btVector3(-4, 0, -4), flat);
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    if (oneSided) mesh.setCollisionFlags(mesh.getCollisionFlags() | oneSidedMeshFlag);
    const btScalar bottom = lying ? btScalar(0.3) : btScalar(0.8);
    btRigidBody& capsule = world.addBody(
        makeCapsule(world, 1, btScalar(0.3), 1),
        btTransform(lying ? lyingAlongX(1) : upright(1), btVector3(0.3, bottom + btScalar(0.1), 0.4)), 1);
    capsule.setLinearVelocity(btVector3(0, -speed, 0));
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
    btScalar lowest = capsule.getWorldTransform().getOrigin().y();
    for (int i = 0; i < 120; ++i) {
        world.step();
        lowest = std::min(lowest, capsule.getWorldTransform().getOrigin().y());
    }
    if (ours) {
        EXPECT_LT(lowest, lying ? 0 : 0.5) << "the axis did not cross the plane";
    }
    return capsule.getWorldTransform().getOrigin().y();
}

TEST(CapsuleMeshSides, AFastCapsuleCrossingTheFrontIsPushedBackOutOfTheFront) {
    for (const bool lying : {true, false}) {
        // Lying at 43 m/s, the capsule is wholly behind the plane after one step, still within the
        // broadphase's reach of the mesh (faster, the pair is gone before the narrow phase sees it).
        for (const btScalar speed : {btScalar(30), lying ? btScalar(43) : btScalar(60)}) {
            SCOPED_TRACE(::testing::Message() << (lying ? "lying" : "upright") << " at " << speed << " m/s");
            const btScalar bullet = heightAfterFastFall(false, false, lying, speed);
            const btScalar twoSided = heightAfterFastFall(true, false, lying, speed);
            const btScalar oneSided = heightAfterFastFall(true, true, lying, speed);
            std::printf(
                "[ fast fall ] %s at %.0f m/s, height after 2 s: Bullet %.3f, ours two-sided %.3f, "
                "one-sided %.3f\n",
                lying ? "lying" : "upright", double(speed), double(bullet), double(twoSided),
                double(oneSided));
            const double rest = lying ? 0.3 : 0.8;
            EXPECT_NEAR(twoSided, rest, 0.01);
            EXPECT_NEAR(oneSided, rest, 0.01);
        }
    }
}

// A one-sided mesh lets a capsule wholly behind it pass, and pushes one partly behind out of the front.
TEST(CapsuleMeshSides, OneSidedMeshesPassACapsuleWhollyBehind) {
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    BulletWorld world;
    btCollisionObject& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    mesh.setCollisionFlags(mesh.getCollisionFlags() | oneSidedMeshFlag);
    btCollisionObject& capsule =
        world.addBody(makeCapsule(world, 0, btScalar(0.3), 1), btVector3(0.1, btScalar(-0.32), 0.2), 1);
    const Plugin plugin(world.world(), Pair::CapsuleMesh);
    MeshContactsCallback behind(mesh);
    world.world().contactPairTest(&capsule, &mesh, behind);
    EXPECT_TRUE(behind.contacts.empty());
    capsule.setWorldTransform(translation(0.1, btScalar(-0.2), 0.2));
    MeshContactsCallback partly(mesh);
    world.world().contactPairTest(&capsule, &mesh, partly);
    ASSERT_FALSE(partly.contacts.empty());
    for (const MeshContact& contact : partly.contacts) {
        EXPECT_NEAR(contact.normal.y(), 1, 1e-6);
        EXPECT_NEAR(contact.distance, -0.5, 1e-5);
    }
}

// ---------------------------------------------------------------------------------------------------
// A pile: 300 capsules of every axis, size and orientation dropped in three layers onto a landscape of
// 8 parts of 22 x 22 quads of 2.5 m (7,744 triangles, hills of +-3 m), a third thrown down at 25 m/s;
// after 4 s, how many lie more than 1 m below the ground under them.

double landscapeHeight(double x, double z) {
    return 3 * std::sin(0.15 * x + 0.4) * std::cos(0.12 * z) + 0.5 * std::sin(0.9 * x * z / 20);
}

int capsulesFallenThrough(bool ours, std::uint64_t seed) {
    GridMesh data;
    for (int part = 0; part < 8; ++part)
        data.addGrid(22, 22, btScalar(2.5),
                     btVector3(btScalar(-110 + 55 * (part % 4)), 0, btScalar(-55 + 55 * (part / 4))),
                     [](btScalar x, btScalar z) { return btScalar(landscapeHeight(double(x), double(z))); });
    BulletWorld world;
    world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), btTransform::getIdentity());
    test::Random random(seed);
    std::vector<btRigidBody*> capsules;
    for (int layer = 0; layer < 3; ++layer) {
        for (int i = 0; i < 10; ++i) {
            for (int k = 0; k < 10; ++k) {
                const double x = -12 + 2.5 * i + random.uniform(-0.3, 0.3);
                const double z = -12 + 2.5 * k + random.uniform(-0.3, 0.3);
                const double y = landscapeHeight(x, z) + 2 + 2.5 * layer;
                btCapsuleShape& shape =
                    makeCapsule(world, int(random.uniform(0, 3)), btScalar(random.uniform(0.2, 0.5)),
                                btScalar(random.uniform(0.2, 1.6)));
                const Mat3<double> rotation = random.rotation<double>();
                btRigidBody& capsule =
                    world.addBody(shape,
                                  test::transformOf(Mat3<btScalar>(rotation),
                                                    btVector3(btScalar(x), btScalar(y), btScalar(z))),
                                  1);
                if (random.chance(1.0 / 3)) capsule.setLinearVelocity(btVector3(0, -25, 0));
                capsules.push_back(&capsule);
            }
        }
    }
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleMesh);
    world.step(240);
    int fallen = 0;
    for (const btRigidBody* capsule : capsules) {
        const btVector3& p = capsule->getWorldTransform().getOrigin();
        fallen += double(p.y()) < landscapeHeight(double(p.x()), double(p.z())) - 1;
    }
    return fallen;
}

TEST(CapsuleMeshPile, NoCapsuleOfAPileFallsThroughTheLandscape) {
    int bulletTotal = 0;
    for (const std::uint64_t seed : {1u, 2u, 3u}) {
        const int bullet = capsulesFallenThrough(false, seed), ours = capsulesFallenThrough(true, seed);
        std::printf("[ pile ] seed %d: of 300 capsules, fell through: Bullet %d, ours %d\n", int(seed),
                    bullet, ours);
        EXPECT_EQ(ours, 0);
        bulletTotal += bullet;
    }
    EXPECT_GT(bulletTotal, 0);  // Bullet's per-triangle GJK loses some: the case is the issue's
}

// ---------------------------------------------------------------------------------------------------
// Hostile shapes and transforms: no crash, every contact finite, none where nothing touches.

TEST(CapsuleMeshHostile, NonFiniteTransformsDegenerateCapsulesAndTinyScalings) {
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN(),
                   inf = std::numeric_limits<btScalar>::infinity();
    const btScalar subnormal = std::numeric_limits<btScalar>::denorm_min();
    for (const btVector3 meshScaling : {btVector3(1, 1, 1), btVector3(1e-30f, 1e-30f, 1e-30f),
                                        btVector3(subnormal, 1, subnormal), btVector3(1, 0, 1)}) {
        BulletWorld world;
        auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
        btCollisionObject& mesh = world.addBody(
            world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, meshScaling), translation(0, 0, 0));
        const Plugin plugin(world.world(), Pair::CapsuleMesh);
        for (const btScalar radius : {btScalar(0.3), btScalar(0), subnormal, btScalar(-0.3)}) {
            for (const btScalar height : {btScalar(1), btScalar(0), subnormal, btScalar(-1)}) {
                btCapsuleShape& shape = makeCapsule(world, 1, radius, height);
                btCollisionObject& capsule = world.addBody(shape, btVector3(0.2, 5, 0.1), 1);
                for (const btVector3 origin :
                     {btVector3(0.2, 0.25, 0.1), btVector3(nan, 0, 0), btVector3(0, inf, 0),
                      btVector3(0, 0, -inf), btVector3(0.2, 3, 0.1)}) {
                    SCOPED_TRACE(::testing::Message()
                                 << "scaling " << meshScaling.x() << " " << meshScaling.y() << ", radius "
                                 << radius << ", height " << height << ", origin " << origin.x() << " "
                                 << origin.y());
                    capsule.setWorldTransform(btTransform(btQuaternion::getIdentity(), origin));
                    MeshContactsCallback callback(mesh);
                    world.world().contactPairTest(&capsule, &mesh, callback);
                    for (const MeshContact& contact : callback.contacts) {
                        EXPECT_TRUE(std::isfinite(contact.distance));
                        EXPECT_TRUE(std::isfinite(contact.normal.length()));
                        EXPECT_TRUE(std::isfinite(contact.pointOnMesh.length()));
                    }
                    // Far above the mesh, or a NaN or infinite place: nothing touches.
                    if (origin.y() == 3 || !std::isfinite(origin.x() + origin.y() + origin.z())) {
                        EXPECT_TRUE(callback.contacts.empty());
                    }
                    // A valid capsule over the unscaled mesh, 0.25 above it: only touching within its radius.
                    if (meshScaling == btVector3(1, 1, 1) && origin.y() == btScalar(0.25) && radius >= 0 &&
                        height > 0) {
                        const btScalar lowest = btScalar(0.25) - radius - height / 2;
                        EXPECT_EQ(!callback.contacts.empty(), lowest <= 0);
                    }
                }
                // A NaN rotation.
                capsule.setWorldTransform(
                    btTransform(btMatrix3x3(nan, 0, 0, 0, 1, 0, 0, 0, 1), btVector3(0.2, 0.3, 0.1)));
                MeshContactsCallback callback(mesh);
                world.world().contactPairTest(&capsule, &mesh, callback);
                EXPECT_TRUE(callback.contacts.empty());
            }
        }
    }
}

}  // namespace
}  // namespace analytic
