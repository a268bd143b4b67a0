// SPDX-License-Identifier: Zlib
// A snapshot of a world that a game keeps for a frame and asks single rays and sweeps of, with Bullet's
// callbacks, at the batches' speed: analytic::rayTest and sphereSweepTest walk Bullet's own trees (no
// snapshot, the world as it is now); a QueryScene walks a tree of its own (wide, in float), made once.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <memory>
#include <span>

#include "analytic/ray_batch.hpp"
#include "analytic/sweep_batch.hpp"

namespace analytic {

namespace cast {
class RayScene;
}

// How a QueryScene is made.
struct QuerySceneOptions {
    unsigned threads = 0;         // for making the scene: 0 is one per core
    BatchCache* cache = nullptr;  // null: nothing kept between scenes; meshes through Bullet's own trees
    // The farthest a query's path reaches (its largest origin coordinate plus its largest direction
    // component, plus a sweep's radius) for which the scene's tree is walked; farther ones are answered
    // the same, object by object. 0: four times the extent of the world's bounded objects.
    btScalar reach = 0;
};

// What it answers: the world as it was when the scene was made (objects, their shapes' boxes and
// placements, filters). Making it reads every object (in chunks, on options.threads threads) and builds the
// tree over their boxes (or finds it in the cache when the boxes are unchanged): about as long as a batch
// of a few thousand rays. It stays usable (its answers those of the world when made) while the world
// changes, as long as every object it holds and their shapes and meshes live: destroying one (removing an
// object from the world and deleting it, deleting a shape) makes using the scene undefined. matchesWorld
// tells whether the world is still as it was. Many threads may ask one scene at once.
class QueryScene {
public:
    // The scene of the world as it is now (see above). The world must outlive the scene.
    explicit QueryScene(const btCollisionWorld& world, QuerySceneOptions options = {});
    ~QueryScene();
    QueryScene(const QueryScene&) = delete;
    QueryScene& operator=(const QueryScene&) = delete;

    // analytic::rayTest's contract (ray_test.hpp), for the world as it was: the same hits, fractions and
    // normals; callback.needsCollision is asked with each object's broadphase proxy.
    void rayTest(const btVector3& from, const btVector3& to,
                 btCollisionWorld::RayResultCallback& callback) const;

    // analytic::sphereSweepTest's contract (sweep_test.hpp), for the world as it was; a radius that is
    // negative, NaN or infinite throws std::invalid_argument.
    void sphereSweepTest(btScalar radius, const btVector3& from, const btVector3& to,
                         btCollisionWorld::ConvexResultCallback& callback,
                         btScalar allowedCcdPenetration = 0) const;

    // The batches' contracts (ray_batch.hpp, sweep_batch.hpp) on this scene, on up to `threads` threads
    // (0: one per core): hits the same as the batch functions give for the world as it was.
    void rayTestBatch(std::span<const Ray> rays, std::span<RayHit> hits, unsigned threads = 0) const;
    // analytic::rayTestBatchAllHits's contract on this scene, as rayTestBatch above.
    void rayTestBatchAllHits(std::span<const Ray> rays, AllRayHits& result, unsigned threads = 0) const;
    // analytic::sphereSweepBatch's contract on this scene, as rayTestBatch above.
    void sphereSweepBatch(std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                          unsigned threads = 0) const;
    // analytic::sphereSweepBatchAllHits's contract on this scene, as rayTestBatch above.
    void sphereSweepBatchAllHits(std::span<const Sweep> sweeps, AllSweepHits& result,
                                 unsigned threads = 0) const;

    // Whether the world still holds the same objects in the same order, each with the shape, placement
    // and filter it had when the scene was made (its shapes' own data are not compared). Reads every
    // object: a check for tests and debugging, not for every query.
    bool matchesWorld() const;

    // The world the scene was made of.
    const btCollisionWorld& world() const { return world_; }

private:
    const btCollisionWorld& world_;
    std::unique_ptr<const cast::RayScene> scene_;
    struct Seen {
        const btCollisionObject* object;
        const btCollisionShape* shape;
        btTransform transform;
        int group, mask;
    };
    std::vector<Seen> seen_;
};

}  // namespace analytic
