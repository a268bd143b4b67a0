// SPDX-License-Identifier: Zlib
// Hitscan batches: many rays cast at once at a Bullet world, on all cores, each with its own collision
// filter and an object to ignore (the shooter). Every ray is cast exactly as analytic::rayTest casts it
// (ray_test.hpp); the results do not depend on the number of threads, bit for bit.
//
// For each batch, the objects of the world's broadphase are gathered once, with the shapes the geometry
// core models placed in the world, under a four-wide bounding-volume hierarchy of their shapes' boxes
// (in float, grown for the batch's farthest ray; built with the binned surface area heuristic). Without
// a BatchCache nothing of the world is kept from one batch to the next; with one, what is kept is
// checked against the world at every batch (see BatchCache). Shapes the core does not model are cast
// with Bullet's own rayTestSingle, as rayTest does. The snapshot and then the rays are shared out in
// chunks among the calling thread and threads the library keeps between batches (std threads, started
// when first needed).
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
    btVector3 from;                                // the start, world space
    btVector3 to;                                  // the end, world space
    int group = btBroadphaseProxy::DefaultFilter;  // the ray's collision group
    int mask = btBroadphaseProxy::AllFilter;       // the groups it hits
    const btCollisionObject* ignore = nullptr;     // never hit; null: none
};

// A ray's hit, as ClosestRayResultCallback reports it: fraction along from -> to, point =
// from + fraction (to - from), unit normal in world space. partId and index: a mesh triangle's part and
// index, a compound child's -1 and index, a static plane's 0 and 0; -1 and -1 for other shapes.
struct RayHit {
    const btCollisionObject* object = nullptr;  // null: no hit (the other fields are then meaningless)
    btScalar fraction = 1;                      // along from -> to
    btVector3 point{0, 0, 0};                   // world space
    btVector3 normal{0, 0, 0};                  // unit, world space
    int partId = -1;  // mesh triangle: its part; compound child: -1; static plane: 0; else -1
    int index = -1;   // mesh triangle, compound child: its index; static plane: 0; else -1
};

namespace cast {
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
    // An empty cache, for no world yet. Destroying it while a batch uses it is undefined: it must
    // outlive every batch given it.
    BatchCache();
    ~BatchCache();
    BatchCache(const BatchCache&) = delete;
    BatchCache& operator=(const BatchCache&) = delete;

    // The meshes (their data: two shapes over one btStridingMeshInterface count once) it holds a tree of,
    // after the last batch that used it: those of that batch's world. 0 for a new cache.
    std::size_t meshTreeCount() const;
    // How many times batches given this cache built the tree over a world's objects, since the cache was
    // made, over every world it was used with (changing worlds does not reset it). 0 for a new cache.
    std::size_t worldTreeBuilds() const;

private:
    friend class cast::RayScene;
    struct Kept;
    std::unique_ptr<Kept> kept_;
};

// How a batch runs: rayTestBatch's and sphereSweepBatch's (and their AllHits forms') last argument.
struct BatchOptions {
    unsigned threads = 0;         // 0: one per core (std::thread::hardware_concurrency)
    BatchCache* cache = nullptr;  // null: nothing kept; meshes are cast through Bullet's own trees
};

// The closest hit of each ray, cast at the world on up to options.threads threads: hits[i] for rays[i].
// - Rays: from and to are world points, the direction need not be unit; a fraction is measured along
//   from -> to. Each ray hits only the objects its group and mask accept (Bullet's default
//   needsCollision) other than its ignore.
// - Range: hits[i] is the hit a btCollisionWorld::ClosestRayResultCallback with that filter gets from
//   analytic::rayTest (the same object and fraction): fraction in [0, 1] (+0, never -0), point = from +
//   fraction (to - from) as Bullet interpolates it, a finite unit normal in world space, partId and index as
//   RayHit says. Bit for bit the same whatever the number of threads.
// - Miss: hits[i] = RayHit{}: object null, fraction 1, point and normal zero, partId and index -1.
// - Start inside / on the surface: as rayTest: a ray starting inside a solid the core models hits it at
//   fraction 0 with the normal against its direction, one starting on a static plane or a mesh triangle
//   hits it at 0 (unless it runs along it); of two objects hit at the same fraction (a ray starting inside
//   both) either may be the one reported.
// - Invalid input: hits not as long as rays: std::invalid_argument ("analytic::rayTestBatch: hits must
//   be as long as rays") before anything is cast, hits left as they were. A ray of length zero, with an
//   end NaN or infinite, or whose to - from overflows: a miss. Hostile worlds are taken as rayTest takes
//   them, with rayTest's answers: an object is cast against only when the ray meets the box rayTest
//   tests it by (its shape's), whatever the snapshot's tree let through; objects whose boxes are not
//   finite are never hit (the tree takes any box: NaN, infinite, min > max). Rays whose largest origin
//   coordinate plus largest direction component passes 1e30 (beyond what the tree, in float, can walk)
//   are cast against every object's box in btScalar instead, one by one, with the same answers, and do
//   not widen the tree for the others. Empty spans: nothing is cast.
// Threads: options.threads 0 is one per core (counted once per process); more are allowed, the
// library's pool then grows to that many threads, kept until the program ends. Batches may run on
// several threads at once, on one world and one cache. The world must not change during a batch (it
// may between batches) and must outlive it. An exception (std::bad_alloc; std::system_error when a
// thread cannot be started; one thrown by a user's shape) reaches the caller once every thread has
// stopped; hits may then be partly written.
void rayTestBatch(const btCollisionWorld& world, std::span<const Ray> rays, std::span<RayHit> hits,
                  BatchOptions options = {});

namespace detail {
struct AllHitsWriter;
}

// Every hit of each query (a ray: rayTestBatchAllHits; a sweep: sphereSweepBatchAllHits) of the last batch
// given it.
template <class Hit> class AllHits {
public:
    // The hits of the batch's query (rays[query], sweeps[query]), nearest first (equal fractions in the
    // order found), each as the closest-hit batch would give it; empty for one that hit nothing. The span
    // is valid until this object is given to another batch or destroyed. Misuse: query not below count()
    // (any query before a first batch) throws std::out_of_range, its message naming the index and the
    // count.
    std::span<const Hit> hitsOf(std::size_t query) const {
        if (query >= count()) [[unlikely]]
            throwOutOfRange(query);
        return std::span<const Hit>(hits_).subspan(firstHit_[query], firstHit_[query + 1] - firstHit_[query]);
    }
    // The number of queries of the last batch given this object; 0 before the first.
    std::size_t count() const { return firstHit_.empty() ? 0 : firstHit_.size() - 1; }
    // The same as count().
    std::size_t rayCount() const { return count(); }

private:
    [[noreturn]] void throwOutOfRange(std::size_t query) const;  // ray_batch.cpp, for RayHit and SweepHit
    friend struct detail::AllHitsWriter;
    std::vector<Hit> hits_;
    std::vector<std::size_t> firstHit_;  // queries + 1 offsets into hits_
};

// Every hit of each ray of a batch (rayTestBatchAllHits).
using AllRayHits = AllHits<RayHit>;

// Every hit each ray makes, as AllHitsRayResultCallback collects them from analytic::rayTest, sorted
// nearest first: result.hitsOf(i) for rays[i].
// - Rays: as rayTestBatch's (points from and to, fractions along from -> to, each ray's filter and
//   ignore).
// - Range: per ray, the first hit of each solid and plane it meets, each triangle of a mesh or
//   heightfield and each child of a compound it crosses, and Bullet's hits on the shapes Bullet casts;
//   fractions in [0, 1], points, normals, partId and index as rayTestBatch gives them; sorted by fraction,
//   ties in the order found.
// - Miss: an empty hitsOf(i).
// - Start inside / on the surface: as rayTest: a hit at fraction 0 for each solid the core models that
//   the ray starts inside (normal against its direction), and for a plane or triangle it starts on (unless it
//   runs along it).
// - Invalid input: none of sizes (result always gets as many rays as the batch); rays and worlds as
//   rayTestBatch takes them (a ray of length zero or with an end NaN or infinite hits nothing). What
//   result held before is replaced once every ray is cast; an exception during the casts (as
//   rayTestBatch's) leaves it as it was.
// Threads, the world and options: as rayTestBatch.
void rayTestBatchAllHits(const btCollisionWorld& world, std::span<const Ray> rays, AllRayHits& result,
                         BatchOptions options = {});

}  // namespace analytic
