// SPDX-License-Identifier: Zlib
// The per-ray work of analytic::rayTestBatch and rayTestBatchAllHits, apart from how their rays are
// shared among threads (their own kept threads; a benchmark shares the same chunks on oneTBB to compare).
#pragma once

#include <cstddef>
#include <span>
#include <vector>

#include "analytic/ray_batch.hpp"
#include "cast/ray_scene.hpp"

namespace analytic::cast {

// A batch's rays are shared among threads in chunks of this many, each cast by one thread in order.
constexpr std::size_t batchChunkSize = 64;

// The closest hit of each ray in [begin, end): hits[i] for rays[i], as rayTestBatch gives it.
void castClosestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                     std::size_t begin, std::size_t end);

// Every hit of the ray, appended to hits in the order found, as rayTestBatchAllHits gathers them.
void castAllHits(const RayScene& scene, const Ray& ray, std::vector<RayHit>& hits);

}  // namespace analytic::cast
