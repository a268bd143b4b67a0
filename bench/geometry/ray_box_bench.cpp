// SPDX-License-Identifier: Zlib
// ns per ray-box test: AABB from a plain ray (reciprocal computed per test), AABB and the broadphase
// overlap test with one prepared ray against many boxes, and OBB. Float and double. About half of
// the cases hit (the hit_fraction counter says how many). Bullet's counterparts on the same cases, in
// Bullet's scalar: btRayAabb (a segment and a box, with the normal) beside RayAabb, and btRayAabb2 (the
// prepared ray's yes or no of Bullet's tree walks) beside RayAabbOverlap (ours, of our tree walks); their
// ratios end the run.
#include <LinearMath/btAabbUtil2.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <limits>

#include "analytic/geometry/ray_box.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::bench::kLongRay;

// A box of random size and position around the origin, and a ray from outside aimed at a point in or
// near it (so about half hit).
template <class T> struct BoxCase {
    RayPath<T> ray;
    Aabb<T> aabb;
    Obb<T> obb;
};

template <class T> auto makeCases(std::uint64_t seed) {
    return bench::drawCases(seed, [](test::Random& random) {
        const Vec3<T> center = random.point<T>(10);
        const Vec3<T> half(T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)));
        const Vec3<T> origin = center + random.unitVector<T>() * T(20);
        const Vec3<T> target = center + half * random.point<T>(2.2);
        return BoxCase<T>{{origin, target - origin, std::numeric_limits<T>::infinity()},
                          {center - half, center + half},
                          {center, random.rotation<T>(), half}};
    });
}

// Boxes scattered along one ray, for the prepared (one ray, many boxes) forms.
template <class T> auto boxesAlong(const RayPath<T>& ray, std::uint64_t seed) {
    return bench::drawCases(seed, [&](test::Random& random) {
        const Vec3<T> center = ray.at(T(random.uniform(0, 1))) + random.point<T>(2);
        const Vec3<T> half(T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)));
        return Aabb<T>{center - half, center + half};
    });
}

template <class T> void benchRayAabb(benchmark::State& state) {
    const auto test = [](const BoxCase<T>& c) { return intersectRayAabb(c.ray, c.aabb); };
    bench::timeHitOrMiss(state, makeCases<T>(1), test, "ns_per_test");
}

template <class T> void benchRayAabbPrepared(benchmark::State& state) {
    const SlabRay<T> ray = *makeSlabRay(kLongRay<T>);
    const auto test = [&](const Aabb<T>& box) { return intersectRayAabb(ray, box); };
    bench::timeHitOrMiss(state, boxesAlong(kLongRay<T>, 2), test, "ns_per_test");
}

template <class T> void benchRayAabbOverlap(benchmark::State& state) {
    const SlabRay<T> ray = *makeSlabRay(kLongRay<T>);
    const auto test = [&](const Aabb<T>& box) { return rayOverlapsAabb(ray, box); };
    bench::timeHitOrMiss(state, boxesAlong(kLongRay<T>, 2), test, "ns_per_test");
}

template <class T> void benchRayObb(benchmark::State& state) {
    const auto test = [](const BoxCase<T>& c) { return intersectRayObb(c.ray, c.obb); };
    bench::timeHitOrMiss(state, makeCases<T>(3), test, "ns_per_test");
}

btVector3 toBullet(const Vec3<btScalar>& v) { return btVector3(v.x, v.y, v.z); }

// Bullet's test takes a segment: the ray to twice its aim point, beyond every box it can hit.
void benchRayAabbBullet(benchmark::State& state) {
    const auto test = [](const BoxCase<btScalar>& c) {
        btScalar param = 1;
        btVector3 normal;
        return btRayAabb(toBullet(c.ray.origin), toBullet(c.ray.origin + btScalar(2) * c.ray.direction),
                         toBullet(c.aabb.min), toBullet(c.aabb.max), param, normal);
    };
    bench::timeHitOrMiss(state, makeCases<btScalar>(1), test, "ns_per_test");
}

// btRayAabb2 with the ray prepared as btDbvt::rayTest prepares it (inverse direction, signs), over the
// prepared ray's length.
void benchRayAabbPreparedBullet(benchmark::State& state) {
    const RayPath<btScalar>& path = kLongRay<btScalar>;
    const btVector3 from = toBullet(path.origin), direction = toBullet(path.direction);
    const btVector3 inverse(direction.x() == 0 ? BT_LARGE_FLOAT : 1 / direction.x(),
                            direction.y() == 0 ? BT_LARGE_FLOAT : 1 / direction.y(),
                            direction.z() == 0 ? BT_LARGE_FLOAT : 1 / direction.z());
    const unsigned signs[3] = {inverse.x() < 0, inverse.y() < 0, inverse.z() < 0};
    const auto test = [&](const Aabb<btScalar>& box) {
        const btVector3 bounds[2] = {toBullet(box.min), toBullet(box.max)};
        btScalar enter = 0;
        return btRayAabb2(from, inverse, signs, bounds, enter, 0, path.maxT);
    };
    bench::timeHitOrMiss(state, boxesAlong(kLongRay<btScalar>, 2), test, "ns_per_test");
}

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabb);
BENCHMARK(benchRayAabbBullet)->Name("BM_RayAabbBullet");
BENCHMARK(benchRayAabbPreparedBullet)->Name("BM_RayAabbPreparedBullet");
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabbPrepared);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabbOverlap);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayObb);

}  // namespace

int main(int argc, char** argv) {
    using analytic::bench::inBulletScalar;
    return analytic::bench::runKernelBenchmarks(
        argc, argv,
        {{"ray-AABB", "BM_RayAabbBullet", inBulletScalar("RayAabb")},
         {"ray-AABB overlap, prepared ray", "BM_RayAabbPreparedBullet", inBulletScalar("RayAabbOverlap")}});
}
