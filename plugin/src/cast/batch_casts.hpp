// SPDX-License-Identifier: Zlib
// The per-ray work of analytic::rayTestBatch and rayTestBatchAllHits, apart from how their rays are
// shared among threads (their own kept threads; a benchmark shares the same chunks on oneTBB to compare).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analytic/ray_batch.hpp"
#include "analytic/sweep_batch.hpp"
#include "cast/ray_scene.hpp"

namespace analytic::cast {

// The threads a batch runs on: `requested`, or one per core for 0 (counted once per process).
unsigned threadsFor(unsigned requested);

// A batch's rays are shared among threads in chunks of this many, each cast by one thread in order.
constexpr std::size_t batchChunkSize = 64;

// The closest hit of each ray in [begin, end): hits[i] for rays[i], as rayTestBatch gives it.
void castClosestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                     std::size_t begin, std::size_t end);

// Every hit of the ray, appended to hits in the order found, as rayTestBatchAllHits gathers them.
void castAllHits(const RayScene& scene, const Ray& ray, std::vector<RayHit>& hits);

// The first contact of each sweep in [begin, end): hits[i] for sweeps[i], as sphereSweepBatch gives it.
void castClosestSweeps(const RayScene& scene, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                       std::size_t begin, std::size_t end);

// Every contact of the sweep, appended to hits in the order found.
void castAllSweepHits(const RayScene& scene, const Sweep& sweep, std::vector<SweepHit>& hits);

// Each query's closest hit (hits[i] for queries[i]), or every hit of each, sorted nearest first, on up to
// `threads` threads in chunks of batchChunkSize: the batches' work once their scene is made.
void closestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits, unsigned threads);
void closestHits(const RayScene& scene, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                 unsigned threads);
void allHits(const RayScene& scene, std::span<const Ray> rays, AllRayHits& result, unsigned threads);
void allHits(const RayScene& scene, std::span<const Sweep> sweeps, AllSweepHits& result, unsigned threads);

// A user's ray through the scene, as analytic::rayTest casts it through the world (the callback's
// needsCollision asked with the object's proxy; each object's gate box, the snapshot's).
void castRay(const RayScene& scene, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback);

// A user's sweep through the scene, as analytic::sphereSweepTest sweeps through the world; radius already
// checked (finite, >= 0) and reduced by the allowed penetration.
void castSweep(const RayScene& scene, btScalar radius, const btVector3& from, const btVector3& to,
               btCollisionWorld::ConvexResultCallback& callback);

}  // namespace analytic::cast
