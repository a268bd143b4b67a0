// SPDX-License-Identifier: Zlib
#include "analytic/ray_batch.hpp"

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
namespace {

// The threads a batch runs on: options.threads, or one per core for 0. The cores are counted once: glibc
// reads a file of the kernel's for it at every call.
unsigned threadsOf(const BatchOptions& options) {
    static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return options.threads ? options.threads : cores;
}

}  // namespace

void AllRayHits::throwRayOutOfRange(std::size_t ray) const {
    throw std::out_of_range("analytic::AllRayHits::hitsOf: ray " + std::to_string(ray) +
                            " is not below the ray count " + std::to_string(rayCount()));
}

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
    const unsigned threads = threadsOf(options);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(rays), threads);
    cast::forChunks(rays.size(), cast::batchChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        cast::castClosestHits(scene, rays, hits, begin, end);
    });
}

void rayTestBatchAllHits(const btCollisionWorld& world, std::span<const Ray> rays, AllRayHits& result,
                         BatchOptions options) {
    const unsigned threads = threadsOf(options);
    const cast::RayScene scene(world, options.cache, cast::RayScene::batchReach(rays), threads);
    std::vector<std::vector<RayHit>> hitsPerRay(rays.size());
    cast::forChunks(rays.size(), cast::batchChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            cast::castAllHits(scene, rays[i], hitsPerRay[i]);
            std::stable_sort(hitsPerRay[i].begin(), hitsPerRay[i].end(),
                             [](const RayHit& a, const RayHit& b) { return a.fraction < b.fraction; });
        }
    });
    result.hits_.clear();
    result.firstHit_.assign(1, 0);
    for (const std::vector<RayHit>& hits : hitsPerRay) {
        result.hits_.insert(result.hits_.end(), hits.begin(), hits.end());
        result.firstHit_.push_back(result.hits_.size());
    }
}

}  // namespace analytic
