// SPDX-License-Identifier: Zlib
// Whether the dispatcher hands out a mesh kernel of ours (sphere, box, capsule against meshes) for every
// mesh type (btBvhTriangleMeshShape, scaled, heightfield), in both orders and both tables, while a
// plugin holding its pair lives, and Bullet's algorithm before, after and under a plugin without it.
#pragma once

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConcaveCollisionAlgorithm.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>

#include <functional>
#include <vector>

#include "analytic/plugin.hpp"
#include "narrowphase/pair_algorithm.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"

namespace analytic::test {

// A world with one mesh of each type around (2, 0, 2), flat at y = 0; the caller adds its bodies near.
class MeshDispatchWorld {
public:
    MeshDispatchWorld() {
        data_.addFlatGrid(4, 4, 1, btVector3(0, 0, 0));
        auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data_.array(), true);
        meshes_.push_back(&world.addBody(bvh, translation(0, 0, 0)));
        meshes_.push_back(&world.addBody(
            world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(1, 2, 1)), translation(0, 0, 0)));
        meshes_.push_back(&world.addBody(world.makeShape<btHeightfieldTerrainShape>(
                                             5, 5, heights_.data(), btScalar(-1), btScalar(1), 1, false),
                                         translation(2, 0, 2)));
    }

    // Ours (Kernel's algorithm) for each body against each mesh only while a plugin with ownPair lives;
    // Bullet's before, after, and under a plugin with otherPairs (which lack ownPair).
    template <class Kernel> void expectOursWhileThePluginLives(const std::vector<btCollisionObject*>& bodies,
                                                               Pair ownPair, PairSet otherPairs) {
        const auto isOurs = [](btCollisionAlgorithm* algorithm) {
            return dynamic_cast<narrowphase::PairAlgorithm<Kernel>*>(algorithm) != nullptr;
        };
        const auto isBullets = [](btCollisionAlgorithm* algorithm) {
            return dynamic_cast<btConvexConcaveCollisionAlgorithm*>(algorithm) != nullptr;
        };
        expectEveryCell(bodies, isBullets);
        {
            const Plugin plugin(world.world(), ownPair);
            expectEveryCell(bodies, isOurs);
        }
        expectEveryCell(bodies, isBullets);
        {
            const Plugin plugin(world.world(), PairSet::all());
            expectEveryCell(bodies, isOurs);
        }
        {
            const Plugin plugin(world.world(), otherPairs);
            expectEveryCell(bodies, isBullets);
        }
    }

    BulletWorld world;

private:
    void expectEveryCell(const std::vector<btCollisionObject*>& bodies,
                         const std::function<bool(btCollisionAlgorithm*)>& isExpected) {
        for (btCollisionObject* body : bodies) {
            for (btCollisionObject* mesh : meshes_) {
                for (const ebtDispatcherQueryType table :
                     {BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS}) {
                    SCOPED_TRACE(::testing::Message()
                                 << "body type " << body->getCollisionShape()->getShapeType()
                                 << ", mesh type " << mesh->getCollisionShape()->getShapeType() << ", table "
                                 << table);
                    EXPECT_TRUE(isExpected(findAlgorithm(world.dispatcher(), *body, *mesh, table).get()));
                    EXPECT_TRUE(isExpected(findAlgorithm(world.dispatcher(), *mesh, *body, table).get()));
                }
            }
        }
    }

    GridMesh data_;
    std::vector<float> heights_ = std::vector<float>(25, 0.f);
    std::vector<btCollisionObject*> meshes_;
};

}  // namespace analytic::test
