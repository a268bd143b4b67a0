// SPDX-License-Identifier: Zlib
// Hitscan batches: many rays cast at once at a Bullet world, on all cores, each with its own collision
// filter and an object to ignore (the shooter). Every ray is cast exactly as analytic::rayTest casts it
// (ray_test.hpp); the results do not depend on the number of threads, bit for bit.
//
// For each batch, the objects of the world's broadphase are gathered once, with the shapes the geometry
// core models placed in the world, under a four-wide bounding-volume hierarchy of their shapes' boxes.
// Without a BatchCache nothing of the world is kept from one batch to the next, so it may change freely
// between batches (not during one); with one, what is kept is checked against the world at every batch
// (see BatchCache). Shapes the core does not model are cast with Bullet's own rayTestSingle, as rayTest
// does. The snapshot and then the rays are shared out in chunks among the calling thread and threads the
// library keeps between batches (std threads, started when first needed).
//
// Hostile input is taken as analytic::rayTest takes it (ray_test.hpp), with rayTest's answers: an object is
// cast against only when the ray meets the box rayTest tests it by (its shape's), whatever the
// snapshot's tree (boxes in float, grown for the batch's farthest ray) let through. Rays whose largest
// origin coordinate plus largest direction component passes 1e30 (beyond what the tree, in float, can
// walk: coordinates beyond float's range in the double build) are cast against every object's box in
// btScalar instead, one by one, and do not widen the tree for the others. Objects whose boxes are not
// finite are never hit, as by rayTest; the tree takes any box (NaN, infinite, min > max).
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <LinearMath/btVector3.h>

#include <cstddef>
#include <memory>
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

namespace raycast {
class RayScene;
}

// What batches keep of a world for the next ones, each part used only while the world still matches it:
// - trees of our own over triangle meshes (btBvhTriangleMeshShape, also under a
//   btScaledBvhTriangleMeshShape): casting through Bullet's own mesh tree waits on a cache miss at nearly
//   every level. A tree holds a copy of the mesh data it was built from (vertex and index bytes, types,
//   strides, counts, scaling) and is used only while the mesh's data equal that copy byte for byte,
//   compared once per batch; any change makes a new tree. A batch drops the trees of the meshes its world
//   does not hold.
// - the tree over the world's objects: kept with their boxes (the shapes' boxes where the objects are,
//   bit for bit) and used while a batch finds the same boxes in the same order and its rays reach no
//   farther than the tree was grown for (twice the reach of the batch that built it); anything else
//   builds it again. The objects' shapes, places and filters are read afresh at every batch: only the
//   tree over their boxes is kept. A world whose objects all stay put (a level's static geometry) is then
//   not sorted into a tree again at every batch.
// Keep one per world. The cache remembers the world it was last used with; given another, it drops what
// it kept and starts afresh for that one: alternating worlds on one cache is safe, only slow. (What it
// keeps is checked against the world at every batch anyway, so a world destroyed and another made at its
// address is safe too.) Batches on several threads may share one; they take turns at their snapshots.
class BatchCache {
public:
    BatchCache();
    ~BatchCache();
    BatchCache(const BatchCache&) = delete;
    BatchCache& operator=(const BatchCache&) = delete;

    std::size_t meshTreeCount() const;    // the meshes it holds a tree of
    std::size_t worldTreeBuilds() const;  // how many times batches built the world's tree

private:
    friend class raycast::RayScene;
    struct Kept;
    std::unique_ptr<Kept> kept_;
};

struct BatchOptions {
    unsigned threads = 0;         // 0: one per core (std::thread::hardware_concurrency)
    BatchCache* cache = nullptr;  // null: nothing kept; meshes are cast through Bullet's own trees
};

// The closest hit of each ray: hits[i] for rays[i]. hits must be as long as rays: otherwise
// std::invalid_argument is thrown before anything is cast, and hits is left as it was.
void rayTestBatch(const btCollisionWorld& world, std::span<const Ray> rays, std::span<RayHit> hits,
                  BatchOptions options = {});

// Every hit each ray makes, as AllHitsRayResultCallback collects them (an object's first hit; each
// triangle of a mesh and each child of a compound it crosses), nearest first: hitsOf(i) for rays[i]. What
// result held before is replaced (it always has as many rays as the batch: no sizes to mismatch).
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
