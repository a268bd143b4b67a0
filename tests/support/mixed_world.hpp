// SPDX-License-Identifier: Zlib
// A world of 121 objects of every kind of shape, for the batch and scene tests.
#pragma once

#include <btBulletCollisionCommon.h>

#include <cstdint>
#include <memory>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/world.hpp"
#include "support/grid_mesh.hpp"
#include "support/test_support.hpp"

namespace analytic::test {

// A world of every kind of shape: the ones met exactly, a compound, a mesh and a cone (Bullet's).
class MixedWorld {
public:
    explicit MixedWorld(std::uint64_t seed) : random_(seed) {
        for (int i = 0; i < 120; ++i)
            add(makeShape(i % 8), randomTransform(), 1 << (i % 3));
        add(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(-25)),
            btTransform::getIdentity(), 1);
        world_.updateAabbs();
    }

    World<btCollisionWorld>& world() { return world_; }
    btCollisionObject& object(std::size_t i) { return *objects_[i]; }
    std::size_t size() const { return objects_.size(); }

    btTransform randomTransform() {
        btTransform transform;
        transform.setOrigin(btVector3(btScalar(random_.uniform(-20, 20)), btScalar(random_.uniform(-20, 20)),
                                      btScalar(random_.uniform(-20, 20))));
        transform.setBasis(toBulletBasis(random_.rotation<double>()));
        return transform;
    }

    // Random rays through the world, some starting inside objects.
    std::vector<Ray> randomRays(int count) {
        std::vector<Ray> rays;
        for (int i = 0; i < count; ++i) {
            const btVector3 from(btScalar(random_.uniform(-30, 30)), btScalar(random_.uniform(-30, 30)),
                                 btScalar(random_.uniform(-30, 30)));
            const btVector3 to(btScalar(random_.uniform(-30, 30)), btScalar(random_.uniform(-30, 30)),
                               btScalar(random_.uniform(-30, 30)));
            rays.push_back({from, to});
        }
        return rays;
    }

    Random& random() { return random_; }

private:
    static btMatrix3x3 toBulletBasis(const Mat3<double>& m) {
        return btMatrix3x3(btScalar(m[0][0]), btScalar(m[1][0]), btScalar(m[2][0]), btScalar(m[0][1]),
                           btScalar(m[1][1]), btScalar(m[2][1]), btScalar(m[0][2]), btScalar(m[1][2]),
                           btScalar(m[2][2]));
    }

    btScalar randomSize() { return btScalar(random_.uniform(0.3, 2)); }

    std::unique_ptr<btCollisionShape> makeShape(int kind) {
        switch (kind) {
            case 0:
                return std::make_unique<btSphereShape>(randomSize());
            case 1:
                return std::make_unique<btBoxShape>(btVector3(randomSize(), randomSize(), randomSize()));
            case 2:
                return std::make_unique<btCapsuleShapeZ>(randomSize(), randomSize());
            case 3: {
                // Circular: Bullet's box of a cylinder whose radial half extents differ does not hold it.
                const btScalar radius = randomSize();
                return std::make_unique<btCylinderShapeX>(btVector3(randomSize(), radius, radius));
            }
            case 4:
                return std::make_unique<EllipsoidShape>(btVector3(randomSize(), randomSize(), randomSize()));
            case 5: {
                auto compound = std::make_unique<btCompoundShape>();
                for (int child = 0; child < 3; ++child) {
                    children_.push_back(
                        std::make_unique<btBoxShape>(btVector3(randomSize(), randomSize(), randomSize())));
                    btTransform local = randomTransform();
                    local.setOrigin(local.getOrigin() * btScalar(0.1));
                    compound->addChildShape(local, children_.back().get());
                }
                return compound;
            }
            case 6:
                meshes_.push_back(std::make_unique<GridMesh>());
                meshes_.back()->addFlatGrid(4, 4, randomSize(), btVector3(-2, 0, -2));
                return std::make_unique<btBvhTriangleMeshShape>(&meshes_.back()->array(), true);
            default:
                return std::make_unique<btConeShape>(randomSize(), randomSize());
        }
    }

    void add(std::unique_ptr<btCollisionShape> shape, const btTransform& transform, int group) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(shape.get());
        object->setWorldTransform(transform);
        world_.addCollisionObject(object.get(), group, btBroadphaseProxy::AllFilter);
        shapes_.push_back(std::move(shape));
        objects_.push_back(std::move(object));
    }

    Random random_;
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    World<btCollisionWorld> world_{&dispatcher_, &broadphase_, &configuration_};
    std::vector<std::unique_ptr<GridMesh>> meshes_;
    std::vector<std::unique_ptr<btCollisionShape>> children_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

}  // namespace analytic::test
