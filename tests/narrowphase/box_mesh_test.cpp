// SPDX-License-Identifier: Zlib
// Box against whole meshes (Pair::BoxMesh), in real worlds: the dispatcher hands out our algorithm for
// every mesh type in both orders and both tables; its contacts are the geometry core's; a box dropped
// flat on a flat mesh gets 4 points and rests, no deeper than with Bullet's algorithm; a box sliding
// across a flat mesh does not bump on its internal edges; a fast box does not go through a one-sided
// mesh from the front.
#include "narrowphase/box_mesh.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConcaveCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analytic/geometry/box_triangle.hpp"
#include "analytic/plugin.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"
#include "support/mesh_contacts.hpp"
#include "support/mesh_dispatch.hpp"

namespace analytic {
namespace {

using narrowphase::BoxMesh;
using narrowphase::PairAlgorithm;
using test::BulletWorld;
using test::GridMesh;
using test::translation;

btScalar flat(btScalar, btScalar) { return 0; }

// ---------------------------------------------------------------------------------------------------
// Dispatch.

TEST(BoxMeshDispatch, OursForEveryMeshTypeInBothOrdersAndTablesWhileThePluginLives) {
    test::MeshDispatchWorld dispatch;
    btCollisionObject& box = dispatch.world.addBody(
        dispatch.world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), btVector3(2, 0.4, 2), 1);
    dispatch.expectOursWhileThePluginLives<BoxMesh>({&box}, Pair::BoxMesh,
                                                    Pair::SphereMesh | Pair::CapsuleMesh);
}

TEST(BoxMeshAlgorithm, FitsTheDispatchersPool) {
    btDefaultCollisionConfiguration configuration;
    EXPECT_LE(int(sizeof(PairAlgorithm<BoxMesh>)),
              configuration.getCollisionAlgorithmPool()->getElementSize());
}

// ---------------------------------------------------------------------------------------------------
// Agreement with the geometry core: every contact of contactPairTest is a point of the core's contact
// with the triangle it names, and the deepest of them all is among them.

TEST(BoxMeshAgreement, ContactsAreTheCoresPointsOfTheTrianglesTheyName) {
    // Bumpy ground: heights from a few sines on a 6 x 6 grid of 1 m cells.
    GridMesh data;
    data.addGrid(6, 6, 1, btVector3(-3, 0, -3), [](btScalar x, btScalar z) {
        return btScalar(0.3 * std::sin(1.3 * x) * std::cos(0.9 * z) + 0.1 * std::sin(2.7 * z));
    });
    BulletWorld world;
    auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    btCollisionObject& mesh = world.addBody(bvh, translation(0, 0, 0));
    const btVector3 half(0.4, 0.3, 0.5);
    btCollisionObject& box = world.addBody(world.makeShape<btBoxShape>(half), btVector3(0, 0, 0), 1);
    const Plugin plugin(world.world(), Pair::BoxMesh);
    btScalar random = 0.5;
    const auto next = [&] {  // a fixed sequence in [0, 1), enough for placing boxes
        random = std::fmod(random * 97 + btScalar(0.1234567), btScalar(1));
        return random;
    };
    int withContacts = 0;
    for (int i = 0; i < 200; ++i) {
        const btQuaternion rotation(next() * 6, next() * 6, next() * 6);
        const btVector3 position(next() * 4 - 2, next() * 0.8 - 0.2, next() * 4 - 2);
        box.setWorldTransform(btTransform(rotation, position));
        test::MeshContactsCallback callback(mesh);
        world.world().contactPairTest(&box, &mesh, callback);
        SCOPED_TRACE(::testing::Message() << "box " << i);
        EXPECT_LE(callback.contacts.size(), 4u);
        if (callback.contacts.empty()) continue;
        ++withContacts;
        for (const test::MeshContact& contact : callback.contacts) {
            // The triangle it names, as Bullet's mesh holds it.
            btVector3 vertices[3];
            struct One final : btTriangleCallback {
                int wanted;
                btVector3* out;
                void processTriangle(btVector3* v, int, int index) override {
                    if (index == wanted)
                        for (int j = 0; j < 3; ++j)
                            out[j] = v[j];
                }
            } one;
            one.wanted = contact.triangleIndex;
            one.out = vertices;
            bvh.processAllTriangles(&one, btVector3(-10, -10, -10), btVector3(10, 10, 10));
            const Triangle<btScalar> triangle{toGlm(vertices[0]), toGlm(vertices[1]), toGlm(vertices[2])};
            const auto core = collideObbTriangle(
                toObb(static_cast<const btBoxShape&>(*box.getCollisionShape()), box.getWorldTransform()),
                triangle, btScalar(1));
            ASSERT_TRUE(core.has_value());
            // The same point, at the same distance along a normal of the core's for that triangle
            // (its own, or along the triangle's normal where the internal-edge filter took that, no
            // deeper than the core's separation and the core's axis bias: 2% of it and 0.1% of the size).
            const auto alongNormal = collideObbTriangleAlongNormal(
                toObb(static_cast<const btBoxShape&>(*box.getCollisionShape()), box.getWorldTransform()),
                triangle, btScalar(1));
            const btScalar overlap = core->separation;
            const auto squared = [](const Vec3<btScalar>& v) { return glm::dot(v, v); };
            const btScalar size =
                half.x() + half.y() + half.z() +
                std::sqrt(std::max({squared(triangle.b - triangle.a), squared(triangle.c - triangle.b),
                                    squared(triangle.a - triangle.c)}));
            const btScalar floor = overlap > 0 ? overlap : overlap * btScalar(1.02) - btScalar(1e-3) * size;
            bool found = false;
            for (const bool isCore : {true, false}) {
                const auto& candidate = isCore ? core : alongNormal;
                if (!candidate) continue;
                for (int p = 0; p < candidate->pointCount; ++p) {
                    const btScalar distance = isCore ? candidate->points[p].distance
                                                     : std::max(candidate->points[p].distance, floor);
                    const bool same =
                        (toBullet(candidate->points[p].onTriangle) - contact.pointOnMesh).length() < 1e-4 &&
                        std::abs(distance - contact.distance) < 1e-4 &&
                        (toBullet(candidate->normal) - contact.normal).length() < 1e-4;
                    found = found || same;
                }
            }
            EXPECT_TRUE(found) << "triangle " << contact.triangleIndex << ", distance " << contact.distance;
        }
    }
    EXPECT_GT(withContacts, 50);
}

// ---------------------------------------------------------------------------------------------------
// Resting on a flat mesh of 10 x 5 quads (100 triangles).

test::Rest dropFlat(bool ours) {
    GridMesh data;
    data.addGrid(10, 5, 1, btVector3(0, 0, 0), flat);
    BulletWorld world;
    btCollisionObject& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    // Over a shared vertex and edges, so the box covers parts of several triangles.
    btRigidBody& box =
        world.addBody(world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), btVector3(5.1, 0.8, 2.3), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::BoxMesh);
    return test::restOn(world, box, mesh);
}

TEST(BoxMeshResting, ABoxDroppedFlatOnAFlatMeshGetsFourPointsAndRestsNoDeeperThanWithBullets) {
    const test::Rest bullet = dropFlat(false);
    const test::Rest ours = dropFlat(true);
    std::printf(
        "[ resting ] points Bullet %d, ours %d; deepest Bullet %.3g m, ours %.3g m; angular speed "
        "Bullet %.3g, ours %.3g rad/s; drift over 1 s Bullet %.3g, ours %.3g m\n",
        bullet.points, ours.points, double(bullet.deepest), double(ours.deepest), double(bullet.angularSpeed),
        double(ours.angularSpeed), double(bullet.drift), double(ours.drift));
    EXPECT_EQ(ours.points, 4);
    EXPECT_LE(ours.deepest, std::max(bullet.deepest, btScalar(1e-4)) * btScalar(1.01));
    EXPECT_LT(ours.angularSpeed, 1e-3);
    EXPECT_LT(ours.drift, 1e-4);
}

// A box resting for 2 s on a heightfield and on a scaled mesh, with Bullet's algorithm or ours: the
// height of its centre.
btScalar restingHeight(bool ours, btCollisionShape& ground, const btTransform& groundTransform,
                       const btVector3& start, BulletWorld& world) {
    world.addBody(ground, groundTransform);
    btRigidBody& box = world.addBody(world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), start, 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::BoxMesh);
    world.step(120);
    return box.getWorldTransform().getOrigin().y();
}

TEST(BoxMeshResting, OnAHeightfieldAndOnAScaledMeshAtTheSurfacePlusTheHalfExtent) {
    test::expectRestingOnHeightfieldAndScaledMesh(restingHeight, btScalar(2e-3));
}

// ---------------------------------------------------------------------------------------------------
// Sliding across the flat mesh, diagonally over its internal edges and vertices.

test::Glide slideAcrossFlatMesh(bool ours) {
    GridMesh data;
    data.addGrid(10, 5, 1, btVector3(0, 0, 0), flat);
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    mesh.setFriction(0);  // no friction: the box slides all the way, and any bump is the contacts'
    btRigidBody& box =
        world.addBody(world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), btVector3(0.8, 0.5, 0.9), 1);
    box.setFriction(0);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::BoxMesh);
    world.step(30);  // settle on the mesh
    box.activate(true);
    box.setLinearVelocity(btVector3(4, 0, 1.2));
    return test::glideAcross(world, box, btScalar(9.2), btScalar(4.3));
}

TEST(BoxMeshSliding, AcrossAFlatMeshTheVerticalSpeedStaysUnder1MillimetrePerSecond) {
    const test::Glide bullet = slideAcrossFlatMesh(false);
    const test::Glide ours = slideAcrossFlatMesh(true);
    std::printf("[ sliding ] max |vertical velocity| over %.2f m: Bullet %.3g m/s, ours %.3g m/s\n",
                double(ours.distance), double(bullet.maxVerticalSpeed), double(ours.maxVerticalSpeed));
    EXPECT_GT(ours.distance, 7);
    EXPECT_LT(ours.maxVerticalSpeed, 1e-3);
    EXPECT_GT(bullet.maxVerticalSpeed, 1e-2);  // Bullet's bumps, which the criterion is about
}

// ---------------------------------------------------------------------------------------------------
// A fast box onto a one-sided mesh from the front.

// A box falling at 60 m/s onto a flat mesh: over one step its centre goes from 0.45 above the plane
// (its bottom just out of reach) to 0.55 below it. Returns the height of its centre after 2 s.
btScalar heightAfterFastFall(bool ours, bool oneSided) {
    GridMesh data;
    data.addGrid(4, 4, 2, btVector3(-4, 0, -4), flat);
    BulletWorld world;
    btRigidBody& mesh =
        world.addBody(world.makeShape<btBvhTriangleMeshShape>(&data.array(), true), translation(0, 0, 0));
    if (oneSided) mesh.setCollisionFlags(mesh.getCollisionFlags() | oneSidedMeshFlag);
    btRigidBody& box =
        world.addBody(world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), btVector3(0.3, 0.55, 0.4), 1);
    box.setLinearVelocity(btVector3(0, -60, 0));
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::BoxMesh);
    btScalar lowest = box.getWorldTransform().getOrigin().y();
    for (int i = 0; i < 120; ++i) {
        world.step();
        lowest = std::min(lowest, box.getWorldTransform().getOrigin().y());
    }
    if (ours) {
        EXPECT_LT(lowest, 0);  // the centre did cross the plane
    }
    return box.getWorldTransform().getOrigin().y();
}

TEST(BoxMeshSides, AFastBoxCrossingTheFrontIsPushedBackOutOfTheFront) {
    const btScalar bullet = heightAfterFastFall(false, false);
    const btScalar twoSided = heightAfterFastFall(true, false);
    const btScalar oneSided = heightAfterFastFall(true, true);
    std::printf("[ fast fall ] height after 2 s: Bullet %.3f, ours two-sided %.3f, one-sided %.3f\n",
                double(bullet), double(twoSided), double(oneSided));
    EXPECT_NEAR(twoSided, 0.5, 0.01);
    EXPECT_NEAR(oneSided, 0.5, 0.01);
}

}  // namespace
}  // namespace analytic
