// SPDX-License-Identifier: Zlib
// Shared by the ray tests that feed the ray entry points hostile input: a collision world that owns its
// shapes, objects and mesh data, and the checks every ray's answers must pass whatever the input:
// rayTest's closest hit has a fraction in [0, 1], a finite unit normal, a finite point; the batch (with
// and without a BatchCache, on one and two threads) gives rayTest's object and fraction; the all-hits
// batch gives AllHitsRayResultCallback's (fraction, object) pairs, every one valid too.
#pragma once

#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <memory>
#include <span>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"
#include "support/grid_mesh.hpp"

namespace analytic::test {

// A world on Bullet's dynamic AABB tree broadphase owning what it holds (declared before the world: the
// world's destructor still reads its objects).
class OwningWorld {
public:
    ~OwningWorld() {
        for (const auto& object : objects_)
            if (object->getBroadphaseHandle()) world_.removeCollisionObject(object.get());
    }

    template <class Shape, class... Arguments> Shape& makeShape(Arguments&&... arguments) {
        auto shape = std::make_unique<Shape>(std::forward<Arguments>(arguments)...);
        Shape& made = *shape;
        shapes_.push_back(std::move(shape));
        return made;
    }

    GridMesh& makeMesh() { return *meshes_.emplace_back(std::make_unique<GridMesh>()); }
    std::vector<float>& makeHeights(std::size_t count, float height) {
        return *heights_.emplace_back(std::make_unique<std::vector<float>>(count, height));
    }

    btCollisionObject& add(btCollisionShape& shape, const btTransform& transform) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(&shape);
        object->setWorldTransform(transform);
        world_.addCollisionObject(object.get());
        objects_.push_back(std::move(object));
        return *objects_.back();
    }

    World<btCollisionWorld>& world() { return world_; }

private:
    std::vector<std::unique_ptr<GridMesh>> meshes_;
    std::vector<std::unique_ptr<std::vector<float>>> heights_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    World<btCollisionWorld> world_{&dispatcher_, &broadphase_, &configuration_};
};

inline bool isFiniteVector(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// A hit's fraction in [0, 1] (+0, never -0), its normal finite and of unit length.
inline void expectValidHit(btScalar fraction, const btVector3& normal, const btVector3& point) {
    EXPECT_TRUE(fraction >= 0 && fraction <= 1) << "fraction " << fraction;
    EXPECT_FALSE(std::signbit(fraction)) << "fraction -0";
    EXPECT_TRUE(isFiniteVector(normal)) << normal.x() << " " << normal.y() << " " << normal.z();
    EXPECT_NEAR(double(normal.length()), 1, 1e-4);
    EXPECT_TRUE(isFiniteVector(point));
}

inline std::string describe(const Ray& ray) {
    std::ostringstream out;
    out << std::setprecision(9) << "ray (" << ray.from.x() << ", " << ray.from.y() << ", " << ray.from.z()
        << ") -> (" << ray.to.x() << ", " << ray.to.y() << ", " << ray.to.z() << ")";
    return out.str();
}

inline std::string describe(const btCollisionObject* object) {
    if (!object) return "nothing";
    std::ostringstream out;
    const btTransform& t = object->getWorldTransform();
    out << object->getCollisionShape()->getName() << " at (" << t.getOrigin().x() << ", " << t.getOrigin().y()
        << ", " << t.getOrigin().z() << ")";
    return out.str();
}

// rayTest's closest hit for each ray (ClosestRayResultCallback), checked valid.
struct ClosestHit {
    const btCollisionObject* object = nullptr;
    btScalar fraction = 1;
    btVector3 point{0, 0, 0};
    btVector3 normal{0, 0, 0};
};

inline std::vector<ClosestHit> rayTestHits(btCollisionWorld& world, std::span<const Ray> rays) {
    std::vector<ClosestHit> hits(rays.size());
    for (std::size_t i = 0; i < rays.size(); ++i) {
        SCOPED_TRACE(::testing::Message() << "rayTest, ray " << i);
        btCollisionWorld::ClosestRayResultCallback callback(rays[i].from, rays[i].to);
        rayTest(world, rays[i].from, rays[i].to, callback);
        if (!callback.hasHit()) continue;
        hits[i] = {callback.m_collisionObject, callback.m_closestHitFraction, callback.m_hitPointWorld,
                   callback.m_hitNormalWorld};
        expectValidHit(hits[i].fraction, hits[i].normal, hits[i].point);
    }
    return hits;
}

// Whether the ray's coordinates are within those the contract speaks of (1e9 in float, as a segment 1e9
// long through the origin has; 1e15 in double). Beyond, answers agree only to the rounding of those
// coordinates: where a shape is, which object is met first, fractions within about 1e-16 of each other.
inline bool withinContract(const Ray& ray) {
    const btScalar limit = sizeof(btScalar) == sizeof(double) ? btScalar(1e15) : btScalar(1e9);
    for (int axis = 0; axis < 3; ++axis)
        if (!(std::abs(ray.from[axis]) <= limit && std::abs(ray.to[axis]) <= limit)) return false;
    return true;
}

// Every batch gives rayTest's closest hits (object and fraction: where two objects are hit at the same
// fraction either is right) and AllHitsRayResultCallback's (fraction, object) pairs; every hit valid.
// Rays outside withinContract: valid hits only. Returns rayTest's hits.
inline std::vector<ClosestHit> expectBatchesAsRayTest(btCollisionWorld& world, std::span<const Ray> rays) {
    const std::vector<ClosestHit> expected = rayTestHits(world, rays);
    BatchCache cache;
    const std::pair<unsigned, BatchCache*> options[] = {{1, nullptr}, {2, nullptr}, {1, &cache}, {2, &cache}};
    for (const auto& [threads, batchCache] : options) {
        std::vector<RayHit> hits(rays.size());
        rayTestBatch(world, rays, hits, {threads, batchCache});
        for (std::size_t i = 0; i < rays.size(); ++i) {
            SCOPED_TRACE(::testing::Message() << "batch, " << threads << " threads, cache "
                                              << (batchCache != nullptr) << ", ray " << i);
            if (hits[i].object) expectValidHit(hits[i].fraction, hits[i].normal, hits[i].point);
            if (!withinContract(rays[i])) continue;
            EXPECT_EQ(hits[i].object != nullptr, expected[i].object != nullptr)
                << describe(rays[i]) << " batch " << describe(hits[i].object) << " at " << hits[i].fraction
                << ", rayTest " << describe(expected[i].object) << " at " << expected[i].fraction;
            if (!hits[i].object || !expected[i].object) continue;
            EXPECT_EQ(hits[i].fraction, expected[i].fraction)
                << describe(rays[i]) << " batch " << describe(hits[i].object) << ", rayTest "
                << describe(expected[i].object);
            if (hits[i].object != expected[i].object) {
                // Two objects hit at the same fraction (a ray starting inside both): either is right,
                // when rayTest hits that one there too.
                btCollisionWorld::AllHitsRayResultCallback all(rays[i].from, rays[i].to);
                rayTest(world, rays[i].from, rays[i].to, all);
                bool found = false;
                for (int h = 0; h < all.m_collisionObjects.size(); ++h)
                    found |= all.m_collisionObjects[h] == hits[i].object &&
                             all.m_hitFractions[h] == hits[i].fraction;
                EXPECT_TRUE(found) << "the batch's object is not hit there by rayTest";
            }
        }
    }
    AllRayHits all;
    rayTestBatchAllHits(world, rays, all, {2, &cache});
    EXPECT_EQ(all.rayCount(), rays.size());
    for (std::size_t i = 0; i < rays.size() && i < all.rayCount(); ++i) {
        SCOPED_TRACE(::testing::Message() << "all hits, ray " << i);
        btCollisionWorld::AllHitsRayResultCallback sequential(rays[i].from, rays[i].to);
        rayTest(world, rays[i].from, rays[i].to, sequential);
        using Key = std::tuple<btScalar, const btCollisionObject*>;
        std::vector<Key> want, got;
        for (int h = 0; h < sequential.m_collisionObjects.size(); ++h)
            want.emplace_back(sequential.m_hitFractions[h], sequential.m_collisionObjects[h]);
        for (const RayHit& hit : all.hitsOf(i)) {
            got.emplace_back(hit.fraction, hit.object);
            expectValidHit(hit.fraction, hit.normal, hit.point);
        }
        if (!withinContract(rays[i])) continue;
        std::sort(want.begin(), want.end());
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, want) << describe(rays[i]);
    }
    return expected;
}

}  // namespace analytic::test
