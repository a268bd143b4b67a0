// Hitscan batches: many rays cast at once at a Bullet world, on all cores, each with its own collision
// filter and an object to ignore (the shooter). Every ray is cast exactly as analytic::rayTest casts it
// (ray_test.hpp); the results do not depend on the number of threads, bit for bit.
//
// For each batch, the objects of the world's broadphase are gathered once into a four-wide
// bounding-volume hierarchy of their shapes' boxes, with the shapes the geometry core models placed in
// the world: nothing is cached from one batch to the next, so the world may change freely between
// batches (not during one). Shapes the core does not model are cast with Bullet's own rayTestSingle, as
// rayTest does. The snapshot is made on the calling thread; the rays are then shared out in chunks.
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <LinearMath/btVector3.h>

#include <cstddef>
#include <span>
#include <vector>

class btCollisionObject;
class btCollisionWorld;

namespace analytic {

// A ray from -> to, hitting the objects a btCollisionWorld::RayResultCallback with this group and mask
// would (Bullet's default needsCollision: object group & mask and group & object mask both non-zero),
// except ignore (null: none).
struct Ray {
    btVector3 from;
    btVector3 to;
    int group = btBroadphaseProxy::DefaultFilter;
    int mask = btBroadphaseProxy::AllFilter;
    const btCollisionObject* ignore = nullptr;
};

// A ray's hit, as ClosestRayResultCallback reports it: fraction along from -> to, point =
// from + fraction (to - from), unit normal in world space. partId and index: a mesh triangle's part and
// index, a compound child's -1 and index, a static plane's 0 and 0; -1 and -1 for other shapes.
struct RayHit {
    const btCollisionObject* object = nullptr;  // null: no hit (the other fields are then meaningless)
    btScalar fraction = 1;
    btVector3 point{0, 0, 0};
    btVector3 normal{0, 0, 0};
    int partId = -1;
    int index = -1;
};

struct BatchOptions {
    unsigned threads = 0;  // 0: one per core (std::thread::hardware_concurrency)
};

// The closest hit of each ray: hits[i] for rays[i]. hits must be as long as rays (std::invalid_argument
// otherwise).
void rayTestBatch(const btCollisionWorld& world, std::span<const Ray> rays, std::span<RayHit> hits,
                  BatchOptions options = {});

// Every hit each ray makes, as AllHitsRayResultCallback collects them (an object's first hit; each
// triangle of a mesh and each child of a compound it crosses), nearest first: hitsOf(i) for rays[i].
class AllRayHits {
public:
    std::span<const RayHit> hitsOf(std::size_t ray) const {
        return std::span<const RayHit>(hits_).subspan(firstHit_[ray], firstHit_[ray + 1] - firstHit_[ray]);
    }
    std::size_t rayCount() const { return firstHit_.empty() ? 0 : firstHit_.size() - 1; }

private:
    friend void rayTestBatchAllHits(const btCollisionWorld&, std::span<const Ray>, AllRayHits&, BatchOptions);
    std::vector<RayHit> hits_;
    std::vector<std::size_t> firstHit_;  // rays + 1 offsets into hits_
};

void rayTestBatchAllHits(const btCollisionWorld& world, std::span<const Ray> rays, AllRayHits& result,
                         BatchOptions options = {});

}  // namespace analytic
