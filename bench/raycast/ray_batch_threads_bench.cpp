// SPDX-License-Identifier: Zlib
// How analytic::rayTestBatch shares its rays among cores, against oneTBB (issue 4: "oneTBB from Debian, or
// std threads if you show it is as good"), in one process. Scenes P and M of bench-scenes.md, batches of
// the scene's first 256, 1,000, 10,000 and 100,000 rays, closest hit, cast over the batch's snapshot of
// the world (made beforehand, with a BatchCache, and timed apart: it is the same whoever shares the rays)
// by the batch's own per-ray code in chunks of 64 rays: on one thread; on every core with the batch's own
// threads (forChunks: the caller's and std threads kept between batches); on every core with oneTBB's
// parallel_for over the same chunks. Wall-clock time per batch, repetitions interleaved; small batches are
// timed over enough batches in a row to take a few milliseconds, after 2 ms of untimed ones (the threads
// awake: the steady state of batches one after another).
// The answers must be the same bit for bit.
//
// Options: --scene=P|M (both), --repetitions=N (7).
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "analytic/ray_batch.hpp"
#include "cast/batch_casts.hpp"
#include "cast/worker_pool.hpp"
#include "support/bench_scenes.hpp"
#include "support/bench_support.hpp"

namespace {

using analytic::Ray;
using analytic::RayHit;
using analytic::bench::median;
using analytic::bench::minimum;
using analytic::bench::parsePositive;

enum Way { kOneThread, kOwnThreads, kOneTbb };
constexpr std::array<Way, 3> kWays{kOneThread, kOwnThreads, kOneTbb};
constexpr std::array<const char*, 3> kWayNames{"1 thread", "all cores, own threads", "all cores, oneTBB"};

// Counted once, as the batches count them (glibc reads a file for it).
unsigned cores() {
    static const unsigned count = std::max(1u, std::thread::hardware_concurrency());
    return count;
}

// One batch's rays cast over the scene the given way.
void castBatch(Way way, const analytic::cast::RayScene& scene, std::span<const Ray> rays,
               std::span<RayHit> hits) {
    using analytic::cast::batchChunkSize;
    const auto castChunks = [&](std::size_t begin, std::size_t end) {
        analytic::cast::castClosestHits(scene, rays, hits, begin, end);
    };
    switch (way) {
        case kOneThread:
            castChunks(0, rays.size());
            return;
        case kOwnThreads:
            analytic::cast::forChunks(rays.size(), batchChunkSize, cores(), castChunks);
            return;
        case kOneTbb: {
            const std::size_t chunks = (rays.size() + batchChunkSize - 1) / batchChunkSize;
            tbb::parallel_for(
                tbb::blocked_range<std::size_t>(0, chunks, 1),
                [&](const tbb::blocked_range<std::size_t>& range) {
                    for (std::size_t chunk = range.begin(); chunk < range.end(); ++chunk)
                        castChunks(chunk * batchChunkSize,
                                   std::min(rays.size(), (chunk + 1) * batchChunkSize));
                },
                tbb::simple_partitioner());
            return;
        }
    }
}

bool sameHits(std::span<const RayHit> a, std::span<const RayHit> b) {
    return std::equal(a.begin(), a.end(), b.begin(), [](const RayHit& x, const RayHit& y) {
        return x.object == y.object &&
               (!x.object || (x.fraction == y.fraction && x.point == y.point && x.normal == y.normal &&
                              x.partId == y.partId && x.index == y.index));
    });
}

void runScene(const char* name, const btCollisionWorld& world,
              const std::vector<analytic::bench::SceneRay>& sceneRays, int repetitions) {
    std::vector<Ray> rays;
    for (const analytic::bench::SceneRay& ray : sceneRays)
        rays.push_back(
            {analytic::bench::toBulletVector(ray.origin), analytic::bench::toBulletVector(ray.end())});
    analytic::BatchCache cache;
    // The snapshot, timed apart (the first, untimed, builds the trees the cache keeps), on one thread and
    // on every core.
    const analytic::Scalar reach = analytic::cast::RayScene::batchReach(rays);
    analytic::cast::RayScene(world, &cache, reach, cores());
    std::array<std::vector<double>, 2> snapshotSeconds;
    for (int r = 0; r < repetitions; ++r)
        for (const unsigned threads : {1u, cores()}) {
            const auto start = std::chrono::steady_clock::now();
            const analytic::cast::RayScene timed(world, &cache, reach, threads);
            snapshotSeconds[threads == 1 ? 0 : 1].push_back(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        }
    std::printf("%s, closest hit, with a BatchCache; ms per batch's rays (wall clock), median [min] of %d\n",
                name, repetitions);
    std::printf("  %8s %24s %24s %24s %12s %12s %10s\n", "rays", kWayNames[0], kWayNames[1], kWayNames[2],
                "own: x 1 thr", "TBB: x 1 thr", "own / TBB");
    for (const std::size_t size :
         {std::size_t(256), std::size_t(1'000), std::size_t(10'000), std::size_t(100'000)}) {
        const std::span<const Ray> batch = std::span<const Ray>(rays).first(std::min(size, rays.size()));
        const analytic::cast::RayScene scene(world, &cache, reach, cores());
        std::array<std::vector<RayHit>, 3> hits;
        for (const Way way : kWays) {
            hits[way].resize(batch.size());
            castBatch(way, scene, batch, hits[way]);
        }
        const bool same =
            sameHits(hits[kOneThread], hits[kOwnThreads]) && sameHits(hits[kOneThread], hits[kOneTbb]);
        // Enough batches in a row to take a few milliseconds on one thread.
        const int inARow = int(std::max<std::size_t>(1, 20'000 / batch.size()));
        std::array<std::vector<double>, 3> seconds;
        for (int r = 0; r < repetitions; ++r)
            for (const Way way : kWays) {
                // Batches for 2 ms first, untimed: the way's threads, asleep since its last turn, are awake
                // (how long waking takes is the machine's: on this VM, hundreds of microseconds at times).
                for (const auto awake = std::chrono::steady_clock::now() + std::chrono::milliseconds(2);
                     std::chrono::steady_clock::now() < awake;)
                    castBatch(way, scene, batch, hits[way]);
                const auto start = std::chrono::steady_clock::now();
                for (int i = 0; i < inARow; ++i)
                    castBatch(way, scene, batch, hits[way]);
                seconds[way].push_back(
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() / inARow);
            }
        std::printf("  %8zu", batch.size());
        for (const Way way : kWays)
            std::printf("   %9.4f [%9.4f]", 1e3 * median(seconds[way]), 1e3 * minimum(seconds[way]));
        const double one = median(seconds[kOneThread]), own = median(seconds[kOwnThreads]),
                     tbb = median(seconds[kOneTbb]);
        std::printf(" %11.2fx %11.2fx %9.2fx%s\n", one / own, one / tbb, own / tbb,
                    same ? "" : "  ANSWERS DIFFER");
    }
    std::printf(
        "  own / TBB: the own threads' time over oneTBB's (below 1: ours faster); x 1 thr: speed-up over "
        "one thread (medians)\n");
    std::printf(
        "  the snapshot (with the cache), made before each batch's rays: %.4f ms on one thread, %.4f ms on "
        "%u cores (medians)\n\n",
        1e3 * median(snapshotSeconds[0]), 1e3 * median(snapshotSeconds[1]), cores());
}

}  // namespace

int main(int argc, char** argv) {
    bool sceneP = true, sceneM = true;
    int repetitions = 7;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--scene=P")
            sceneM = false;
        else if (argument == "--scene=M")
            sceneP = false;
        else if (argument.rfind("--repetitions=", 0) == 0)
            repetitions = parsePositive(argv[i] + std::strlen("--repetitions="), "--repetitions");
        else {
            std::fprintf(stderr, "usage: %s [--scene=P|M] [--repetitions=N]\n", argv[0]);
            return 2;
        }
    }
    std::printf("Bullet %s precision; our code and oneTBB's calls compiled for %s; %u cores\n\n",
                analytic::bench::bulletScalar(), analytic::bench::instructionSet(), cores());
    const analytic::bench::BenchScenes scenes = analytic::bench::generateBenchScenes();
    if (sceneP) {
        const auto scene = analytic::bench::makeSceneP(scenes.objectsP);
        runScene("Scene P (10,000 primitives and a plane)", scene->world(), scenes.raysP, repetitions);
    }
    if (sceneM) {
        analytic::bench::TerrainMesh terrain;
        const auto scene = analytic::bench::makeSceneM(terrain);
        runScene("Scene M (terrain mesh, 131,072 triangles)", scene->world(), scenes.raysM, repetitions);
    }
}
