// SPDX-License-Identifier: Zlib
// Sphere sweeps over a Bullet world, in one process: Bullet's convexSweepTest with a btSphereShape beside
// analytic::sphereSweepTest, QueryScene's single sweeps, and the sweep batch on one thread and on every
// core, on scenes P and M of bench-scenes.md (10,000 sweeps of radius 0.5 and length 50 m along the
// scene's first rays, closest contact). Sweeps per second, contacts, where Bullet's and ours disagree, the
// ratios and the goals. The batch's time includes its snapshot (with a BatchCache after one
// untimed pass, as the ray benchmark); QueryScene's excludes making the scene (timed apart).
// Times are the thread's CPU time, but for the batch on every core: wall-clock time.
//
// Options: --scene=P|M (both), --repetitions=N (5).
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include "analytic/query_scene.hpp"
#include "analytic/sweep_batch.hpp"
#include "analytic/sweep_test.hpp"
#include "support/bench_scenes.hpp"
#include "support/bench_support.hpp"

namespace {

using analytic::bench::median;
using analytic::bench::minimum;
using Scalar = btScalar;

constexpr Scalar kRadius = Scalar(0.5);
constexpr double kSweepLength = 50;
constexpr std::size_t kSweeps = 10000;

double threadSeconds() {
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return double(time.tv_sec) + 1e-9 * double(time.tv_nsec);
}

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

enum Side { kBullet, kAnalytic, kScene, kBatchOneThread, kBatchAllCores };
constexpr int kSides = 5;
constexpr std::array<const char*, kSides> kSideNames{
    "Bullet convexSweep", "sphereSweepTest", "QueryScene single", "batch, 1 thread", "batch, all cores"};

struct Answers {
    std::vector<const btCollisionObject*> objects = std::vector<const btCollisionObject*>(kSweeps);
    std::vector<Scalar> fractions = std::vector<Scalar>(kSweeps);
    bool operator==(const Answers&) const = default;
    int hits() const {
        return int(std::count_if(objects.begin(), objects.end(), [](auto* o) { return o; }));
    }
};

double sweepAll(Side side, const btCollisionWorld& world, const std::vector<analytic::Sweep>& sweeps,
                const analytic::QueryScene& scene, analytic::BatchCache& cache, Answers& answers) {
    if (side == kBatchOneThread || side == kBatchAllCores) {
        std::vector<analytic::SweepHit> hits(sweeps.size());
        const bool allCores = side == kBatchAllCores;
        const double start = allCores ? wallSeconds() : threadSeconds();
        analytic::sphereSweepBatch(world, sweeps, hits, {allCores ? 0u : 1u, &cache});
        const double seconds = (allCores ? wallSeconds() : threadSeconds()) - start;
        for (std::size_t i = 0; i < hits.size(); ++i) {
            answers.objects[i] = hits[i].object;
            answers.fractions[i] = hits[i].object ? hits[i].fraction : Scalar(1);
        }
        return seconds;
    }
    const btSphereShape sphere(kRadius);
    const double start = threadSeconds();
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        const analytic::Sweep& sweep = sweeps[i];
        btCollisionWorld::ClosestConvexResultCallback callback(sweep.from, sweep.to);
        if (side == kBullet) {
            btTransform from = btTransform::getIdentity(), to = btTransform::getIdentity();
            from.setOrigin(sweep.from);
            to.setOrigin(sweep.to);
            world.convexSweepTest(&sphere, from, to, callback);
        } else if (side == kAnalytic) {
            analytic::sphereSweepTest(world, kRadius, sweep.from, sweep.to, callback);
        } else {
            scene.sphereSweepTest(kRadius, sweep.from, sweep.to, callback);
        }
        answers.objects[i] = callback.m_hitCollisionObject;
        answers.fractions[i] = callback.m_hitCollisionObject ? callback.m_closestHitFraction : Scalar(1);
    }
    return threadSeconds() - start;
}

struct SceneSpec {
    const char* name;
    const char* group;        // in the one table of ratios
    int bulletReferenceHits;  // bench-scenes.md, Bullet 3.24
    double sceneGoal;         // issue 18: QueryScene / batch on one thread, times Bullet's rate
    double worldGoal;         // issue 18: sphereSweepTest through Bullet's trees, times Bullet's rate
};

void runScene(const SceneSpec& spec, const btCollisionWorld& world,
              const std::vector<analytic::bench::SceneRay>& rays, int repetitions) {
    std::vector<analytic::Sweep> sweeps;
    for (std::size_t i = 0; i < kSweeps; ++i) {
        const analytic::bench::SceneRay& ray = rays[i];
        sweeps.push_back({analytic::bench::toBulletVector(ray.origin),
                          analytic::bench::toBulletVector(ray.origin + kSweepLength * ray.direction),
                          kRadius});
    }
    analytic::BatchCache cache;
    const double sceneStart = threadSeconds();
    analytic::BatchCache sceneCache;  // its trees of the meshes, as a game keeps one with its world
    const analytic::QueryScene scene(world, {.threads = 1, .cache = &sceneCache});
    const double sceneSeconds = threadSeconds() - sceneStart;
    std::array<Answers, kSides> answers;
    for (int side = 0; side < kSides; ++side)
        sweepAll(Side(side), world, sweeps, scene, cache, answers[side]);
    std::array<std::vector<double>, kSides> seconds;
    for (int r = 0; r < repetitions; ++r)
        for (int side = 0; side < kSides; ++side) {
            Answers again;
            seconds[side].push_back(sweepAll(Side(side), world, sweeps, scene, cache, again));
        }
    std::printf("%s; %zu sweeps of radius %.1f and %.0f m, closest contact; %d repetitions: median [min]\n",
                spec.name, kSweeps, double(kRadius), kSweepLength, repetitions);
    std::printf("  %-22s", "");
    for (const char* name : kSideNames)
        std::printf(" %19s", name);
    std::printf("\n");
    const auto row = [&](const char* label, auto value) {
        std::printf("  %-22s", label);
        for (int side = 0; side < kSides; ++side)
            std::printf(" %8.3f [%8.3f]", value(median(seconds[side])), value(minimum(seconds[side])));
        std::printf("\n");
    };
    row("ms for all sweeps", [](double s) { return 1e3 * s; });
    row("k sweeps per second", [](double s) { return 1e-3 * double(kSweeps) / s; });
    row("x Bullet's rate", [&](double s) { return median(seconds[kBullet]) / s; });
    std::printf("  %-22s", "contacts");
    for (int side = 0; side < kSides; ++side)
        std::printf(" %19d", answers[side].hits());
    std::printf("   (Bullet 3.24, bench-scenes.md: %d)\n", spec.bulletReferenceHits);
    // Where Bullet and ours disagree: hit or miss, another object, and how far apart on the same object.
    int hitOrMiss = 0, otherObject = 0;
    std::vector<double> differences;
    for (std::size_t i = 0; i < kSweeps; ++i) {
        const auto *b = answers[kBullet].objects[i], *o = answers[kAnalytic].objects[i];
        hitOrMiss += bool(b) != bool(o);
        otherObject += b && o && b != o;
        if (b && b == o)
            differences.push_back(kSweepLength * std::abs(double(answers[kAnalytic].fractions[i] -
                                                                 answers[kBullet].fractions[i])));
    }
    std::printf(
        "  Bullet vs sphereSweepTest: %d disagree on contact or none, %d meet another object; same object "
        "(%zu): |distance| median %.3g m, max %.3g m\n",
        hitOrMiss, otherObject, differences.size(), differences.empty() ? 0.0 : median(differences),
        differences.empty() ? 0.0 : *std::max_element(differences.begin(), differences.end()));
    int sceneDiffers = 0, batchDiffers = 0;
    for (std::size_t i = 0; i < kSweeps; ++i) {
        sceneDiffers += answers[kScene].objects[i] != answers[kAnalytic].objects[i] ||
                        answers[kScene].fractions[i] != answers[kAnalytic].fractions[i];
        batchDiffers += answers[kBatchAllCores].objects[i] != answers[kAnalytic].objects[i] ||
                        answers[kBatchAllCores].fractions[i] != answers[kAnalytic].fractions[i];
    }
    std::printf(
        "  sweeps where QueryScene / the batch differ from sphereSweepTest: %d / %d; making the scene "
        "(1 thread): %.3f ms\n",
        sceneDiffers, batchDiffers, 1e3 * sceneSeconds);
    const std::string allCores =
        "batch, " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores";
    const auto sweepsPerSecond = [](double s) { return 1e-3 * double(kSweeps) / s; };
    for (int side = kAnalytic; side < kSides; ++side)
        analytic::bench::recordRatio(spec.group, side == kBatchAllCores ? allCores : kSideNames[side],
                                     "k sweeps/s, median", analytic::bench::Better::Higher,
                                     sweepsPerSecond(median(seconds[kBullet])),
                                     sweepsPerSecond(median(seconds[side])));
    const double bullet = minimum(seconds[kBullet]);
    const double world_ = bullet / minimum(seconds[kAnalytic]), single = bullet / minimum(seconds[kScene]),
                 batch = bullet / minimum(seconds[kBatchOneThread]),
                 cores = minimum(seconds[kBatchOneThread]) / minimum(seconds[kBatchAllCores]);
    std::printf(
        "  goals (issue 18), on the minima: sphereSweepTest at least %.0fx: %.2fx %s; QueryScene / batch on "
        "one thread at least %.0fx: %.2fx %s / %.2fx %s; batch on %u cores at least 1.8x one thread: "
        "%.2fx %s\n\n",
        spec.worldGoal, world_, verdict(world_ >= spec.worldGoal), spec.sceneGoal, single,
        verdict(single >= spec.sceneGoal), batch, verdict(batch >= spec.sceneGoal),
        std::max(1u, std::thread::hardware_concurrency()), cores, verdict(cores >= 1.8));
}

}  // namespace

int main(int argc, char** argv) {
    bool sceneP = true, sceneM = true;
    int repetitions = 5;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument == "--scene=P") {
            sceneM = false;
        } else if (argument == "--scene=M") {
            sceneP = false;
        } else if (argument.rfind("--repetitions=", 0) == 0) {
            repetitions = analytic::bench::parsePositive(argument.c_str() + 14, "--repetitions");
        } else {
            std::fprintf(stderr, "usage: %s [--scene=P|M] [--repetitions=N]\n", argv[0]);
            return 2;
        }
    }
    std::printf("Sphere sweeps: Bullet's convexSweepTest beside ours; %s, btScalar %zu bytes\n\n",
                analytic::bench::instructionSet(), sizeof(Scalar));
    const analytic::bench::BenchScenes scenes = analytic::bench::generateBenchScenes();
    if (sceneP) {
        const auto scene = analytic::bench::makeSceneP(scenes.objectsP);
        runScene({"Scene P: 10,000 primitives and a plane", "sweeps, scene P", 4'881, 9, 3}, scene->world(),
                 scenes.raysP, repetitions);
    }
    if (sceneM) {
        analytic::bench::TerrainMesh terrain;
        const auto scene = analytic::bench::makeSceneM(terrain);
        runScene({"Scene M: terrain mesh, 131,072 triangles", "sweeps, scene M", 3'627, 14, 6},
                 scene->world(), scenes.raysM, repetitions);
    }
    return 0;
}
