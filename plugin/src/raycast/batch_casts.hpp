// SPDX-License-Identifier: Zlib
// The per-ray work of analytic::rayTestBatch, apart from how its rays are shared among threads (its own
// kept threads; a benchmark shares the same chunks on oneTBB to compare).
#pragma once

#include <cstddef>
#include <span>

#include "analytic/ray_batch.hpp"
#include "ray_scene.hpp"

namespace analytic::raycast {

// A batch's rays are shared among threads in chunks of this many, each cast by one thread in order.
constexpr std::size_t batchChunkSize = 64;

// The closest hit of each ray in [begin, end): hits[i] for rays[i], as rayTestBatch gives it.
void castClosestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                     std::size_t begin, std::size_t end);

}  // namespace analytic::raycast
