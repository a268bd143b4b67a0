// SPDX-License-Identifier: Zlib
// ns per ray-box test: AABB from a plain ray (reciprocal computed per test), AABB and the broadphase
// overlap test with one prepared ray against many boxes, and OBB. Float and double. About half of
// the cases hit (the hit_fraction counter says how many).
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

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabb);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabbPrepared);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayAabbOverlap);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayObb);

}  // namespace
