// SPDX-License-Identifier: Zlib
// Sphere sweeps in batches (projectiles): many sweeps at once, each with its own radius, filter and object
// to ignore, on every core, through a snapshot of the world made for the batch (as the ray batches).
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <LinearMath/btVector3.h>

#include <span>

#include "analytic/ray_batch.hpp"

class btCollisionObject;
class btCollisionWorld;

namespace analytic {

// A sphere of `radius` whose centre moves from -> to, meeting the objects its group and mask accept
// (Bullet's default needsCollision) other than ignore (the shooter).
struct Sweep {
    btVector3 from;                                // the centre at the start
    btVector3 to;                                  // the centre at the end
    btScalar radius = 0;                           // the sphere's
    int group = btBroadphaseProxy::DefaultFilter;  // the sweep's collision group
    int mask = btBroadphaseProxy::AllFilter;       // the groups it meets
    const btCollisionObject* ignore = nullptr;     // never met; null: none
};

// A sweep's contact, as ClosestConvexResultCallback records it from analytic::sphereSweepTest.
struct SweepHit {
    const btCollisionObject* object = nullptr;  // null: no contact (the other fields are then meaningless)
    btScalar fraction = 1;                      // the centre at contact: from + fraction (to - from)
    btVector3 point{0, 0, 0};                   // on the obstacle, where the sphere touches it (world space)
    btVector3 normal{0, 0, 0};                  // unit, world space, from the obstacle toward the sphere
    int partId = -1;                            // LocalShapeInfo's, for mesh and heightfield triangles and
    int index = -1;                             // compound children (-1, child); -1 and -1 without one
};

// Every contact of each sweep of a batch (sphereSweepBatchAllHits).
using AllSweepHits = AllHits<SweepHit>;

// The first contact of each sweep, on up to options.threads threads: hits[i] for sweeps[i].
// - Sweeps: from and to are the centre's positions in world space; fractions along from -> to.
// - Range: hits[i] is the contact a btCollisionWorld::ClosestConvexResultCallback with the sweep's
//   filter gets from analytic::sphereSweepTest(world, radius, from, to, callback) (the same object and
//   fraction; sweep_test.hpp states what it reports). Bit for bit the same whatever the number of
//   threads.
// - Miss: hits[i] = SweepHit{}.
// - Start in contact: as sphereSweepTest: fraction 0 when moving into the obstacle; moving away or along,
//   that obstacle does not stop the sphere; from == to is an overlap test.
// - Invalid input: hits not as long as sweeps: std::invalid_argument before anything is swept. A sweep
//   whose radius is negative, NaN or infinite, or with an end NaN or infinite: a miss (a batch does not
//   throw for one bad projectile). Sweeps whose coordinates pass what the snapshot's tree (in float) can
//   walk are swept against every object's box one by one, with the same answers. Empty spans: nothing.
// Threads, the world and options: as rayTestBatch (ray_batch.hpp); a BatchCache serves both.
void sphereSweepBatch(const btCollisionWorld& world, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                      BatchOptions options = {});

// Every contact of each sweep, as sphereSweepTest reports them to a callback that keeps them all, sorted
// nearest first: result.hitsOf(i) for sweeps[i]. As sphereSweepBatch otherwise; what result held before
// is replaced once every sweep is done.
void sphereSweepBatchAllHits(const btCollisionWorld& world, std::span<const Sweep> sweeps,
                             AllSweepHits& result, BatchOptions options = {});

}  // namespace analytic
