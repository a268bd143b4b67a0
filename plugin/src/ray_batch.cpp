// SPDX-License-Identifier: Zlib
#include "analytic/ray_batch.hpp"

#include "analytic/sweep_batch.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "cast/batch_casts.hpp"
#include "cast/placed_shape.hpp"
#include "cast/ray_scene.hpp"
#include "cast/worker_pool.hpp"

namespace analytic {
namespace {}  // namespace

template <class Hit> void AllHits<Hit>::throwOutOfRange(std::size_t query) const {
    constexpr bool rays = std::is_same_v<Hit, RayHit>;
    const std::string kind = rays ? "ray" : "sweep";
    throw std::out_of_range(std::string("analytic::") + (rays ? "AllRayHits" : "AllSweepHits") +
                            "::hitsOf: " + kind + " " + std::to_string(query) + " is not below the " + kind +
                            " count " + std::to_string(count()));
}

template class AllHits<RayHit>;
template class AllHits<SweepHit>;

BatchCache::BatchCache() : kept_(std::make_unique<Kept>()) {}
BatchCache::~BatchCache() = default;

std::size_t BatchCache::meshTreeCount() const {
    const std::lock_guard lock(kept_->mutex);
    return kept_->meshTrees.size();
}

std::size_t BatchCache::worldTreeBuilds() const {
    const std::lock_guard lock(kept_->mutex);
    return kept_->worldTreeBuilds;
}

void rayTestBatch(const btCollisionWorld& world, std::span<const Ray> rays, std::span<RayHit> hits,
                  BatchOptions options) {
    if (hits.size() != rays.size())
        throw std::invalid_argument("analytic::rayTestBatch: hits must be as long as rays");
    const unsigned threads = cast::threadsFor(options.threads);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(rays), threads);
    cast::closestHits(scene, rays, hits, threads);
}

void rayTestBatchAllHits(const btCollisionWorld& world, std::span<const Ray> rays, AllRayHits& result,
                         BatchOptions options) {
    const unsigned threads = cast::threadsFor(options.threads);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(rays), threads);
    cast::allHits(scene, rays, result, threads);
}

}  // namespace analytic
