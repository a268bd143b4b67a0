// SPDX-License-Identifier: Zlib
// The dispatcher of a real world hands out our algorithms for every replaced pair, in both argument
// orders and both of its tables, while a Plugin lives, and Bullet's own before and after; a PairSet
// replaces only its pairs; a Plugin made from the world takes over pairs that already exist; and
// contactTest and contactPairTest report our contacts.
#include "analytic/plugin.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConcaveCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btConvexConvexAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btConvexPlaneCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btSphereSphereCollisionAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btSphereTriangleCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "narrowphase/capsule_mesh.hpp"
#include "narrowphase/kernels.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"

namespace analytic {
namespace {

using narrowphase::PairAlgorithm;
using test::BulletWorld;
using test::findAlgorithm;
using test::SeenContact;

// The pairs this file's world has objects for (the mesh pairs: mesh_dispatch.hpp; ellipsoid-plane:
// ellipsoid_test.cpp).
constexpr std::array<Pair, 9> kPairsHere{Pair::SpherePlane,  Pair::BoxPlane,   Pair::CapsulePlane,
                                         Pair::SphereSphere, Pair::SphereBox,  Pair::SphereTriangle,
                                         Pair::CapsuleMesh,  Pair::CapsuleBox, Pair::SphereCapsule};

// One replaced pair: two objects of its shapes, our algorithm's type and the one Bullet's default
// configuration makes for it (the same in both tables for these pairs).
struct ReplacedPair {
    Pair pair;
    std::string name;
    btCollisionObject* a;
    btCollisionObject* b;
    std::function<bool(btCollisionAlgorithm*)> isOurs;
    std::function<bool(btCollisionAlgorithm*)> isBullets;
};

template <class Kernel, class BulletAlgorithm>
ReplacedPair replacedPair(Pair pair, std::string name, btCollisionObject& a, btCollisionObject& b) {
    return {
        pair,
        std::move(name),
        &a,
        &b,
        [](btCollisionAlgorithm* algorithm) {
            return dynamic_cast<PairAlgorithm<Kernel>*>(algorithm) != nullptr;
        },
        [](btCollisionAlgorithm* algorithm) { return dynamic_cast<BulletAlgorithm*>(algorithm) != nullptr; }};
}

class PluginDispatch : public ::testing::Test {
protected:
    PluginDispatch() {
        btCollisionObject& sphere = world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), origin, 1);
        btCollisionObject& box =
            world.addBody(world.makeShape<btBoxShape>(btVector3(0.5, 1, 2)), btVector3(3, 0, 0), 1);
        btCollisionObject& capsule = world.addBody(
            world.makeShape<btCapsuleShapeZ>(btScalar(0.5), btScalar(2)), btVector3(6, 0, 0), 1);
        btCollisionObject& plane =
            world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(-5)), origin);
        btCollisionObject& otherSphere =
            world.addBody(world.makeShape<btSphereShape>(btScalar(1)), btVector3(0, 0, 3), 1);
        meshData.addFlatGrid(2, 2, 1, btVector3(5, -3, -1));
        btCollisionObject& mesh =
            world.addBody(world.makeShape<btBvhTriangleMeshShape>(&meshData.array(), true), origin);
        btCollisionObject& triangle = world.addBody(
            world.makeShape<btTriangleShape>(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 0, 1)),
            btVector3(0, -4, 0));
        using namespace narrowphase;
        pairs = {
            replacedPair<SpherePlane, btConvexPlaneCollisionAlgorithm>(Pair::SpherePlane, "sphere-plane",
                                                                       sphere, plane),
            replacedPair<BoxPlane, btConvexPlaneCollisionAlgorithm>(Pair::BoxPlane, "box-plane", box, plane),
            replacedPair<CapsulePlane, btConvexPlaneCollisionAlgorithm>(Pair::CapsulePlane, "capsule-plane",
                                                                        capsule, plane),
            replacedPair<SphereSphere, btSphereSphereCollisionAlgorithm>(Pair::SphereSphere, "sphere-sphere",
                                                                         sphere, otherSphere),
            replacedPair<SphereBox, btConvexConvexAlgorithm>(Pair::SphereBox, "sphere-box", sphere, box),
            replacedPair<SphereTriangle, btSphereTriangleCollisionAlgorithm>(
                Pair::SphereTriangle, "sphere-triangle", sphere, triangle),
            replacedPair<CapsuleMesh, btConvexConcaveCollisionAlgorithm>(Pair::CapsuleMesh, "capsule-mesh",
                                                                         capsule, mesh),
            replacedPair<CapsuleBox, btConvexConvexAlgorithm>(Pair::CapsuleBox, "capsule-box", capsule, box),
            replacedPair<SphereCapsule, btConvexConvexAlgorithm>(Pair::SphereCapsule, "sphere-capsule",
                                                                 sphere, capsule),
        };
    }

    // Checks the algorithm the dispatcher makes for every pair, both orders, both tables: ours for the
    // pairs in replaced, Bullet's for the others.
    void expectAlgorithms(std::optional<PairSet> replaced) {
        for (const ReplacedPair& pair : pairs) {
            const bool ours = replaced && replaced->contains(pair.pair);
            for (const bool swapped : {false, true}) {
                for (const ebtDispatcherQueryType table :
                     {BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS}) {
                    SCOPED_TRACE(
                        pair.name + (swapped ? " swapped" : "") +
                        (table == BT_CONTACT_POINT_ALGORITHMS ? ", contact points" : ", closest points"));
                    const test::AlgorithmPointer algorithm =
                        swapped ? findAlgorithm(world.dispatcher(), *pair.b, *pair.a, table)
                                : findAlgorithm(world.dispatcher(), *pair.a, *pair.b, table);
                    ASSERT_NE(algorithm, nullptr);
                    EXPECT_EQ(pair.isOurs(algorithm.get()), ours);
                    EXPECT_EQ(pair.isBullets(algorithm.get()), !ours);
                }
            }
        }
    }

    const btVector3 origin{0, 0, 0};
    test::GridMesh meshData;  // outlives the world's mesh shape
    BulletWorld world;
    std::vector<ReplacedPair> pairs;
};

TEST_F(PluginDispatch, OursWhileThePluginLivesAndBulletsBeforeAndAfter) {
    expectAlgorithms(std::nullopt);
    {
        const Plugin plugin(world.dispatcher());
        expectAlgorithms(PairSet::all());
    }
    expectAlgorithms(std::nullopt);
}

TEST_F(PluginDispatch, APairSetReplacesOnlyItsPairs) {
    for (const Pair pair : kPairsHere) {
        SCOPED_TRACE("only pair " + std::to_string(std::uint32_t(pair)));
        const Plugin plugin(world.dispatcher(), pair);
        expectAlgorithms(pair);
    }
    const PairSet some = Pair::SphereBox | Pair::BoxPlane | Pair::SphereTriangle;
    {
        const Plugin plugin(world.world(), some);
        expectAlgorithms(some);
    }
    expectAlgorithms(std::nullopt);
}

// PairSet::all() is every value of the enumeration: a pair added to it is in the default set.
// A dispatcher that is no btCollisionDispatcher: it has no tables to install in.
class OtherDispatcher : public btDispatcher {
public:
    btCollisionAlgorithm* findAlgorithm(const btCollisionObjectWrapper*, const btCollisionObjectWrapper*,
                                        btPersistentManifold*, ebtDispatcherQueryType) override {
        return nullptr;
    }
    btPersistentManifold* getNewManifold(const btCollisionObject*, const btCollisionObject*) override {
        return nullptr;
    }
    void releaseManifold(btPersistentManifold*) override {}
    void clearManifold(btPersistentManifold*) override {}
    bool needsCollision(const btCollisionObject*, const btCollisionObject*) override { return false; }
    bool needsResponse(const btCollisionObject*, const btCollisionObject*) override { return false; }
    void dispatchAllCollisionPairs(btOverlappingPairCache*, const btDispatcherInfo&, btDispatcher*) override {
    }
    int getNumManifolds() const override { return 0; }
    btPersistentManifold* getManifoldByIndexInternal(int) override { return nullptr; }
    btPersistentManifold** getInternalManifoldPointer() override { return nullptr; }
    btPoolAllocator* getInternalManifoldPool() override { return nullptr; }
    const btPoolAllocator* getInternalManifoldPool() const override { return nullptr; }
    void* allocateCollisionAlgorithm(int) override { return nullptr; }
    void freeCollisionAlgorithm(void*) override {}
};

TEST(PluginMisuse, AWorldWhoseDispatcherIsNotACollisionDispatcherIsRefused) {
    OtherDispatcher dispatcher;
    btDbvtBroadphase broadphase;
    btDefaultCollisionConfiguration configuration;
    btCollisionWorld world(&dispatcher, &broadphase, &configuration);
    try {
        const Plugin plugin(world);
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& error) {
        EXPECT_STREQ(error.what(), "analytic::Plugin: the world's dispatcher is not a btCollisionDispatcher");
    }
}

TEST(PairSets, AllHoldsEveryPairAndNothingElse) {
    for (std::uint32_t index = 0; index < std::uint32_t(Pair::Count); ++index) {
        EXPECT_TRUE(PairSet::all().contains(Pair(index))) << index;
        const PairSet one{Pair(index)};
        for (std::uint32_t other = 0; other < std::uint32_t(Pair::Count); ++other)
            EXPECT_EQ(one.contains(Pair(other)), other == index);
    }
    EXPECT_FALSE(PairSet::all().contains(Pair::Count));
    EXPECT_FALSE(PairSet::all().contains(Pair(999)));
    EXPECT_FALSE(PairSet(Pair(999)).contains(Pair(999)));  // a value that names no pair installs nothing
    EXPECT_TRUE((Pair::SphereBox | Pair::BoxMesh).contains(Pair::BoxMesh));
}

// A sphere resting on a plane, stepped until Bullet has cached its algorithm on the pair.
class ExistingPair : public ::testing::Test {
protected:
    ExistingPair()
        : plane(world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)),
                              btVector3(0, 0, 0))),
          sphere(world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)), btVector3(0, btScalar(0.5), 0),
                               1)) {
        world.step();
    }

    btCollisionAlgorithm* cachedAlgorithm() {
        btBroadphasePair* pair = world.findPair(plane, sphere);
        return pair ? pair->m_algorithm : nullptr;
    }

    bool cachedIsOurs() {
        return dynamic_cast<PairAlgorithm<narrowphase::SpherePlane>*>(cachedAlgorithm()) != nullptr;
    }
    bool cachedIsBullets() {
        return dynamic_cast<btConvexPlaneCollisionAlgorithm*>(cachedAlgorithm()) != nullptr;
    }

    BulletWorld world;
    btRigidBody& plane;
    btRigidBody& sphere;
};

TEST_F(ExistingPair, BulletKeepsTheCachedAlgorithmOfAPairThatExists) {
    ASSERT_TRUE(cachedIsBullets());
    const Plugin plugin(world.dispatcher());
    world.step();
    EXPECT_TRUE(cachedIsBullets());  // hence the refresh
}

TEST_F(ExistingPair, APluginMadeFromTheWorldRefreshesExistingPairs) {
    ASSERT_TRUE(cachedIsBullets());
    {
        const Plugin plugin(world.world());
        EXPECT_EQ(cachedAlgorithm(), nullptr);
        world.step();
        EXPECT_TRUE(cachedIsOurs());
        EXPECT_EQ(world.contacts(sphere, plane).size(), 1u);
    }
    EXPECT_EQ(cachedAlgorithm(), nullptr);
    world.step();
    EXPECT_TRUE(cachedIsBullets());
}

TEST_F(ExistingPair, RefreshCachedAlgorithmsTakesOverExistingPairs) {
    const Plugin plugin(world.dispatcher());
    Plugin::refreshCachedAlgorithms(world.world());
    EXPECT_EQ(cachedAlgorithm(), nullptr);
    world.step();
    EXPECT_TRUE(cachedIsOurs());
}

// A sphere of radius 0.5 sinking 0.01 into a corner of a unit box, along the diagonal. Bullet's GJK
// sees the box with its corners rounded by the collision margin (0.04), so it finds them apart by
// 0.04 (sqrt(3) - 1) - 0.01 = 0.019; the exact contact is at the corner, 0.01 deep.
class SphereInBoxCorner : public ::testing::Test {
protected:
    SphereInBoxCorner()
        : box(world.addBody(world.makeShape<btBoxShape>(btVector3(1, 1, 1)), btVector3(0, 0, 0))),
          sphere(world.addBody(world.makeShape<btSphereShape>(btScalar(0.5)),
                               corner + diagonal * btScalar(0.5 - depth), 1)) {}

    void expectExactCornerContact(const std::vector<SeenContact>& contacts) {
        ASSERT_EQ(contacts.size(), 1u);
        const SeenContact& contact = contacts[0];
        const btScalar tolerance = 1e-5;
        EXPECT_NEAR(contact.distance, -depth, tolerance);
        EXPECT_NEAR((contact.pointOnB - corner).length(), 0, tolerance);
        EXPECT_NEAR((contact.normalOnB - diagonal).length(), 0, tolerance);
        EXPECT_NEAR((contact.pointOnA - (corner - diagonal * btScalar(depth))).length(), 0, tolerance);
    }

    static constexpr double depth = 0.01;
    const btVector3 corner{1, 1, 1};
    const btVector3 diagonal = btVector3(1, 1, 1).normalized();
    BulletWorld world;
    btRigidBody& box;
    btRigidBody& sphere;
};

TEST_F(SphereInBoxCorner, ContactPairTestGivesTheExactContactInBothOrders) {
    test::SeenContactsCallback bullets(sphere);
    world.world().contactPairTest(&sphere, &box, bullets);
    ASSERT_LE(bullets.contacts.size(), 1u);
    // Bullet misses the overlap (reports the pair apart, or nothing): the difference is measurable.
    const btScalar bulletsDistance = bullets.contacts.empty() ? BT_LARGE_FLOAT : bullets.contacts[0].distance;
    std::printf("Bullet's GJK: %zu contacts, distance %g (exact -0.01)\n", bullets.contacts.size(),
                double(bulletsDistance));
    EXPECT_GT(bulletsDistance, btScalar(0.01));

    const Plugin plugin(world.world());
    for (const bool swapped : {false, true}) {
        SCOPED_TRACE(swapped ? "box first" : "sphere first");
        test::SeenContactsCallback ours(sphere);
        if (swapped) {
            world.world().contactPairTest(&box, &sphere, ours);
        } else {
            world.world().contactPairTest(&sphere, &box, ours);
        }
        expectExactCornerContact(ours.contacts);
    }
}

TEST_F(SphereInBoxCorner, ContactTestGivesTheExactContact) {
    world.world().updateAabbs();  // contactTest asks the broadphase
    const Plugin plugin(world.world());
    for (btRigidBody* queried : {&sphere, &box}) {
        SCOPED_TRACE(queried == &sphere ? "sphere queried" : "box queried");
        test::SeenContactsCallback ours(sphere);
        world.world().contactTest(queried, ours);
        expectExactCornerContact(ours.contacts);
    }
}

}  // namespace
}  // namespace analytic
