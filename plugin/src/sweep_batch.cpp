// SPDX-License-Identifier: Zlib
#include "analytic/sweep_batch.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <stdexcept>

#include "cast/batch_casts.hpp"
#include "cast/ray_scene.hpp"

namespace analytic {

void sphereSweepBatch(const btCollisionWorld& world, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                      BatchOptions options) {
    if (hits.size() != sweeps.size())
        throw std::invalid_argument("analytic::sphereSweepBatch: hits must be as long as sweeps");
    const unsigned threads = cast::threadsFor(options.threads);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(sweeps), threads);
    cast::closestHits(scene, sweeps, hits, threads);
}

void sphereSweepBatchAllHits(const btCollisionWorld& world, std::span<const Sweep> sweeps,
                             AllSweepHits& result, BatchOptions options) {
    const unsigned threads = cast::threadsFor(options.threads);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(sweeps), threads);
    cast::allHits(scene, sweeps, result, threads);
}

}  // namespace analytic
