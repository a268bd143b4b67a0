// SPDX-License-Identifier: Zlib
// analytic::QueryScene and the sphere sweep batches, in the build's btScalar: a scene's single rays and
// sweeps are analytic::rayTest's and sphereSweepTest's (the same objects and fractions); the sweep
// batches are sequential sweeps, bit for bit whatever the number of threads (also under
// ThreadSanitizer); many threads asking one scene; a scene kept while the world changes answers for the
// world as it was, and says it no longer matches; misuse and hostile input.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <vector>

#include "analytic/query_scene.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/sweep_batch.hpp"
#include "analytic/sweep_test.hpp"
#include "support/mixed_world.hpp"
#include "support/ray_checks.hpp"

namespace analytic::test {
namespace {

bool sameBits(btScalar a, btScalar b) { return std::memcmp(&a, &b, sizeof a) == 0; }
bool sameBits(const btVector3& a, const btVector3& b) {
    return std::memcmp(&a, &b, 3 * sizeof(btScalar)) == 0;
}
bool sameBits(const SweepHit& a, const SweepHit& b) {
    return a.object == b.object && sameBits(a.fraction, b.fraction) && sameBits(a.point, b.point) &&
           sameBits(a.normal, b.normal) && a.partId == b.partId && a.index == b.index;
}

std::vector<Sweep> randomSweeps(MixedWorld& scene, int count) {
    std::vector<Sweep> sweeps;
    for (const Ray& ray : scene.randomRays(count)) {
        Sweep sweep{ray.from, ray.to, btScalar(scene.random().uniform(0.01, 1.5))};
        if (sweeps.size() % 7 == 0) sweep.to = sweep.from;  // overlap tests
        sweeps.push_back(sweep);
    }
    return sweeps;
}

// What sphereSweepTest reports for a batch sweep through Bullet's ClosestConvexResultCallback.
struct SequentialSweep : btCollisionWorld::ClosestConvexResultCallback {
    explicit SequentialSweep(const Sweep& sweep)
        : ClosestConvexResultCallback(sweep.from, sweep.to), ignore(sweep.ignore) {
        m_collisionFilterGroup = sweep.group;
        m_collisionFilterMask = sweep.mask;
    }
    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return proxy->m_clientObject != ignore && ClosestConvexResultCallback::needsCollision(proxy);
    }
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        partId = result.m_localShapeInfo ? result.m_localShapeInfo->m_shapePart : -1;
        index = result.m_localShapeInfo ? result.m_localShapeInfo->m_triangleIndex : -1;
        return ClosestConvexResultCallback::addSingleResult(result, normalInWorldSpace);
    }
    const btCollisionObject* ignore;
    int partId = -1, index = -1;
};

// The batch's contact is the sequential one; where two objects are met at exactly the same fraction
// (sweeps starting in contact with two), either is right.
void expectSweepsAsSequential(btCollisionWorld& world, const std::vector<Sweep>& sweeps,
                              const std::vector<SweepHit>& hits, int& ties) {
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        SequentialSweep sequential(sweeps[i]);
        sphereSweepTest(world, sweeps[i].radius, sweeps[i].from, sweeps[i].to, sequential);
        const SweepHit& hit = hits[i];
        ASSERT_EQ(hit.object != nullptr, sequential.m_hitCollisionObject != nullptr) << "sweep " << i;
        if (!hit.object) continue;
        ASSERT_EQ(hit.fraction, sequential.m_closestHitFraction) << "sweep " << i;
        if (hit.object != sequential.m_hitCollisionObject || hit.index != sequential.index) {
            ++ties;
            continue;
        }
        EXPECT_TRUE(sameBits(hit.point, sequential.m_hitPointWorld)) << "sweep " << i;
        EXPECT_TRUE(sameBits(hit.normal, sequential.m_hitNormalWorld)) << "sweep " << i;
        EXPECT_EQ(hit.partId, sequential.partId) << "sweep " << i;
    }
}

TEST(SweepBatch, ClosestContactsAreSphereSweepTestsAndIndependentOfThreads) {
    MixedWorld scene(43);
    std::vector<Sweep> sweeps = randomSweeps(scene, 4000);
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        if (i % 3 == 0) sweeps[i].mask = 1;
        if (i % 5 == 0) sweeps[i].ignore = &scene.object(i % scene.size());
    }
    std::vector<SweepHit> hits(sweeps.size());
    sphereSweepBatch(scene.world(), sweeps, hits, {1});
    int ties = 0, hitCount = 0;
    expectSweepsAsSequential(scene.world(), sweeps, hits, ties);
    for (const SweepHit& hit : hits)
        hitCount += hit.object != nullptr;
    EXPECT_GT(hitCount, 1500);
    EXPECT_LT(ties, 100);
    for (const unsigned threads : {2u, 3u, 8u, 0u}) {
        std::vector<SweepHit> again(sweeps.size());
        sphereSweepBatch(scene.world(), sweeps, again, {threads});
        for (std::size_t i = 0; i < sweeps.size(); ++i)
            ASSERT_TRUE(sameBits(again[i], hits[i])) << "sweep " << i << " with " << threads << " threads";
    }
    // With a cache, meshes are walked through trees of our own: the same objects and fractions (of two
    // triangles met at one fraction either may be reported), bit for bit whatever the threads.
    BatchCache cache;
    std::vector<SweepHit> cachedOne(sweeps.size()), cachedMany(sweeps.size());
    sphereSweepBatch(scene.world(), sweeps, cachedOne, {1, &cache});
    sphereSweepBatch(scene.world(), sweeps, cachedMany, {3, &cache});
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        ASSERT_TRUE(sameBits(cachedOne[i], cachedMany[i])) << "sweep " << i;
        ASSERT_EQ(cachedOne[i].object, hits[i].object) << "sweep " << i;
        ASSERT_TRUE(sameBits(cachedOne[i].fraction, hits[i].fraction)) << "sweep " << i;
    }
    std::printf("4000 sweeps: %d contacts, %d ties at equal fractions\n", hitCount, ties);
}

TEST(SweepBatch, AllContactsAreEveryContactSorted) {
    MixedWorld scene(44);
    const std::vector<Sweep> sweeps = randomSweeps(scene, 500);
    AllSweepHits all;
    sphereSweepBatchAllHits(scene.world(), sweeps, all, {2});
    ASSERT_EQ(all.count(), sweeps.size());
    std::vector<SweepHit> closest(sweeps.size());
    sphereSweepBatch(scene.world(), sweeps, closest, {1});
    std::size_t total = 0;
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        const auto hits = all.hitsOf(i);
        total += hits.size();
        EXPECT_TRUE(std::is_sorted(hits.begin(), hits.end(), [](const SweepHit& a, const SweepHit& b) {
            return a.fraction < b.fraction;
        }));
        ASSERT_EQ(hits.empty(), closest[i].object == nullptr) << "sweep " << i;
        if (!hits.empty()) {
            EXPECT_EQ(hits[0].fraction, closest[i].fraction) << "sweep " << i;
        }
    }
    EXPECT_GT(total, sweeps.size() / 2);
    EXPECT_THROW(all.hitsOf(sweeps.size()), std::out_of_range);
}

TEST(QueryScene, SingleRaysAndSweepsAreTheWorldsAnswers) {
    MixedWorld scene(45);
    BatchCache cache;
    const QueryScene snapshot(scene.world(), {.cache = &cache});
    EXPECT_TRUE(snapshot.matchesWorld());
    int rayHits = 0, sweepHits = 0;
    for (const Ray& ray : scene.randomRays(3000)) {
        btCollisionWorld::ClosestRayResultCallback world(ray.from, ray.to), ours(ray.from, ray.to);
        rayTest(scene.world(), ray.from, ray.to, world);
        snapshot.rayTest(ray.from, ray.to, ours);
        ASSERT_EQ(world.hasHit(), ours.hasHit());
        if (!world.hasHit()) continue;
        ++rayHits;
        ASSERT_EQ(world.m_closestHitFraction, ours.m_closestHitFraction);
        if (world.m_collisionObject == ours.m_collisionObject) {
            EXPECT_TRUE(sameBits(world.m_hitNormalWorld, ours.m_hitNormalWorld));
        }
    }
    for (const Sweep& sweep : randomSweeps(scene, 3000)) {
        btCollisionWorld::ClosestConvexResultCallback world(sweep.from, sweep.to), ours(sweep.from, sweep.to);
        sphereSweepTest(scene.world(), sweep.radius, sweep.from, sweep.to, world);
        snapshot.sphereSweepTest(sweep.radius, sweep.from, sweep.to, ours);
        ASSERT_EQ(world.m_hitCollisionObject != nullptr, ours.m_hitCollisionObject != nullptr);
        if (!world.m_hitCollisionObject) continue;
        ++sweepHits;
        ASSERT_EQ(world.m_closestHitFraction, ours.m_closestHitFraction);
    }
    EXPECT_GT(rayHits, 1000);
    EXPECT_GT(sweepHits, 1000);
    // The scene's batches are the batch functions'.
    const std::vector<Sweep> sweeps = randomSweeps(scene, 1000);
    std::vector<SweepHit> fromScene(sweeps.size()), fromWorld(sweeps.size());
    snapshot.sphereSweepBatch(sweeps, fromScene, 2);
    sphereSweepBatch(scene.world(), sweeps, fromWorld, {2});
    for (std::size_t i = 0; i < sweeps.size(); ++i)
        ASSERT_TRUE(sameBits(fromScene[i], fromWorld[i])) << i;
    const std::vector<Ray> rays = scene.randomRays(1000);
    std::vector<RayHit> raysFromScene(rays.size()), raysFromWorld(rays.size());
    snapshot.rayTestBatch(rays, raysFromScene, 2);
    rayTestBatch(scene.world(), rays, raysFromWorld, {2});
    for (std::size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(raysFromScene[i].object, raysFromWorld[i].object) << i;
        ASSERT_TRUE(sameBits(raysFromScene[i].fraction, raysFromWorld[i].fraction)) << i;
    }
}

// Many threads asking one scene at once get the answers one thread gets.
TEST(QueryScene, ManyThreadsAskOneScene) {
    MixedWorld scene(46);
    const QueryScene snapshot(scene.world());
    const std::vector<Sweep> sweeps = randomSweeps(scene, 1200);
    std::vector<std::tuple<const btCollisionObject*, btScalar>> expected(sweeps.size());
    for (std::size_t i = 0; i < sweeps.size(); ++i) {
        btCollisionWorld::ClosestConvexResultCallback callback(sweeps[i].from, sweeps[i].to);
        snapshot.sphereSweepTest(sweeps[i].radius, sweeps[i].from, sweeps[i].to, callback);
        expected[i] = {callback.m_hitCollisionObject, callback.m_closestHitFraction};
    }
    std::vector<std::thread> threads;
    std::vector<int> mismatches(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t i = std::size_t(t); i < sweeps.size(); i += 4) {
                btCollisionWorld::ClosestConvexResultCallback callback(sweeps[i].from, sweeps[i].to);
                snapshot.sphereSweepTest(sweeps[i].radius, sweeps[i].from, sweeps[i].to, callback);
                btCollisionWorld::ClosestRayResultCallback ray(sweeps[i].from,
                                                               sweeps[i].to + btVector3(1, 0, 0));
                snapshot.rayTest(sweeps[i].from, sweeps[i].to + btVector3(1, 0, 0), ray);
                mismatches[std::size_t(t)] +=
                    std::tuple<const btCollisionObject*, btScalar>{
                        callback.m_hitCollisionObject, callback.m_closestHitFraction} != expected[i];
            }
        });
    for (std::thread& thread : threads)
        thread.join();
    for (const int count : mismatches)
        EXPECT_EQ(count, 0);
}

// A scene answers for the world as it was; matchesWorld says when the world changed.
TEST(QueryScene, AStaleSceneAnswersForTheWorldAsItWas) {
    OwningWorld world;
    btSphereShape ball(1);
    btCollisionObject& object = world.add(ball, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 5)));
    const QueryScene snapshot(world.world());
    EXPECT_TRUE(snapshot.matchesWorld());
    object.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 50)));
    world.world().updateAabbs();
    EXPECT_FALSE(snapshot.matchesWorld());
    btCollisionWorld::ClosestConvexResultCallback old(btVector3(0, 0, 0), btVector3(0, 0, 10));
    snapshot.sphereSweepTest(btScalar(0.5), btVector3(0, 0, 0), btVector3(0, 0, 10), old);
    ASSERT_EQ(old.m_hitCollisionObject, &object);
    EXPECT_NEAR(old.m_closestHitFraction, btScalar(0.35), 1e-6);  // where it was
    btCollisionWorld::ClosestConvexResultCallback now(btVector3(0, 0, 0), btVector3(0, 0, 10));
    sphereSweepTest(world.world(), btScalar(0.5), btVector3(0, 0, 0), btVector3(0, 0, 10), now);
    EXPECT_EQ(now.m_hitCollisionObject, nullptr);
    // Removed from the world (still alive): the scene still answers for it.
    world.world().removeCollisionObject(&object);
    EXPECT_FALSE(snapshot.matchesWorld());
}

TEST(QueryScene, MisuseAndHostileInput) {
    MixedWorld scene(47);
    const QueryScene snapshot(scene.world());
    btCollisionWorld::ClosestConvexResultCallback callback(btVector3(0, 0, 0), btVector3(1, 1, 1));
    constexpr btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
    constexpr btScalar inf = std::numeric_limits<btScalar>::infinity();
    for (const btScalar radius : {btScalar(-1), nan, inf})
        EXPECT_THROW(snapshot.sphereSweepTest(radius, btVector3(0, 0, 0), btVector3(1, 1, 1), callback),
                     std::invalid_argument);
    std::vector<Sweep> sweeps = {{btVector3(0, 0, 0), btVector3(5, 5, 5), -1},
                                 {btVector3(0, 0, 0), btVector3(5, 5, 5), nan},
                                 {btVector3(nan, 0, 0), btVector3(5, 5, 5), 1},
                                 {btVector3(0, 0, 0), btVector3(inf, 5, 5), 1},
                                 {btVector3(0, 0, 0), btVector3(1e30f, 0, 0), 1e20f}};
    std::vector<SweepHit> hits(sweeps.size());
    sphereSweepBatch(scene.world(), sweeps, hits, {2});
    for (std::size_t i = 0; i < 4; ++i)
        EXPECT_EQ(hits[i].object, nullptr) << i;
    if (hits[4].object) {
        EXPECT_TRUE(std::isfinite(hits[4].fraction) && std::isfinite(hits[4].normal.length()));
    }
    std::vector<SweepHit> tooShort(2);
    EXPECT_THROW(sphereSweepBatch(scene.world(), sweeps, tooShort), std::invalid_argument);
    EXPECT_THROW(snapshot.sphereSweepBatch(sweeps, tooShort), std::invalid_argument);
    sphereSweepBatch(scene.world(), {}, {});  // empty: nothing
}

}  // namespace
}  // namespace analytic::test
