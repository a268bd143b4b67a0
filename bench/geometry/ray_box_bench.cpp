// ns per ray-box test: AABB from a plain ray (reciprocal computed per test), AABB and the broadphase
// overlap test with one prepared ray against many boxes, and OBB. Float and double. About half of
// the cases hit (the hit_fraction counter says how many).
#include <benchmark/benchmark.h>

#include <limits>
#include <vector>

#include "analytic/geometry/ray_box.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;

constexpr int kCases = 1024;

// A box of random size and position around the origin, and a ray from outside aimed at a point in or
// near it (so about half hit).
template <class T> struct BoxCase {
    Ray<T> ray;
    Aabb<T> aabb;
    Obb<T> obb;
};

template <class T> std::vector<BoxCase<T>> makeCases(std::uint64_t seed) {
    test::Random random(seed);
    std::vector<BoxCase<T>> cases;
    for (int i = 0; i < kCases; ++i) {
        const Vec3<T> center = random.point<T>(10);
        const Vec3<T> half(T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)));
        const Vec3<T> origin = center + random.unitVector<T>() * T(20);
        const Vec3<T> target = center + half * random.point<T>(2.2);
        cases.push_back({{origin, target - origin, std::numeric_limits<T>::infinity()},
                         {center - half, center + half},
                         {center, random.rotation<T>(), half}});
    }
    return cases;
}

// Boxes scattered along one ray, for the prepared (one ray, many boxes) forms.
template <class T> std::vector<Aabb<T>> boxesAlong(const Ray<T>& ray, std::uint64_t seed) {
    test::Random random(seed);
    std::vector<Aabb<T>> boxes;
    for (int i = 0; i < kCases; ++i) {
        const Vec3<T> center = ray.at(T(random.uniform(0, 1))) + random.point<T>(2);
        const Vec3<T> half(T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)), T(random.uniform(0.5, 2)));
        boxes.push_back({center - half, center + half});
    }
    return boxes;
}

template <class T> const Ray<T> kLongRay{Vec3<T>(-50, -3, 2), Vec3<T>(100, 6, -4), T(1)};

// hit_fraction: how many of the cases are hits, for comparing figures with other libraries.
void countTests(benchmark::State& state, int hits) {
    state.SetItemsProcessed(state.iterations() * kCases);
    state.counters["ns_per_test"] = benchmark::Counter(
        double(state.iterations()) * kCases, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["hit_fraction"] = double(hits) / kCases;
}

template <class T> void BM_RayAabb(benchmark::State& state) {
    const auto cases = makeCases<T>(1);
    int hits = 0;
    for (const BoxCase<T>& c : cases)
        hits += intersectRayAabb(c.ray, c.aabb).has_value();
    for (auto _ : state) {
        for (const BoxCase<T>& c : cases)
            benchmark::DoNotOptimize(intersectRayAabb(c.ray, c.aabb));
    }
    countTests(state, hits);
}

template <class T> void BM_RayAabbPrepared(benchmark::State& state) {
    const SlabRay<T> ray = *makeSlabRay(kLongRay<T>);
    const auto boxes = boxesAlong(kLongRay<T>, 2);
    int hits = 0;
    for (const Aabb<T>& box : boxes)
        hits += intersectRayAabb(ray, box).has_value();
    for (auto _ : state) {
        for (const Aabb<T>& box : boxes)
            benchmark::DoNotOptimize(intersectRayAabb(ray, box));
    }
    countTests(state, hits);
}

template <class T> void BM_RayAabbOverlap(benchmark::State& state) {
    const SlabRay<T> ray = *makeSlabRay(kLongRay<T>);
    const auto boxes = boxesAlong(kLongRay<T>, 2);
    int hits = 0;
    for (const Aabb<T>& box : boxes)
        hits += rayOverlapsAabb(ray, box);
    for (auto _ : state) {
        for (const Aabb<T>& box : boxes)
            benchmark::DoNotOptimize(rayOverlapsAabb(ray, box));
    }
    countTests(state, hits);
}

template <class T> void BM_RayObb(benchmark::State& state) {
    const auto cases = makeCases<T>(3);
    int hits = 0;
    for (const BoxCase<T>& c : cases)
        hits += intersectRayObb(c.ray, c.obb).has_value();
    for (auto _ : state) {
        for (const BoxCase<T>& c : cases)
            benchmark::DoNotOptimize(intersectRayObb(c.ray, c.obb));
    }
    countTests(state, hits);
}

BENCHMARK_TEMPLATE(BM_RayAabb, float)->Name("BM_RayAabbFloat");
BENCHMARK_TEMPLATE(BM_RayAabb, double)->Name("BM_RayAabbDouble");
BENCHMARK_TEMPLATE(BM_RayAabbPrepared, float)->Name("BM_RayAabbPreparedFloat");
BENCHMARK_TEMPLATE(BM_RayAabbPrepared, double)->Name("BM_RayAabbPreparedDouble");
BENCHMARK_TEMPLATE(BM_RayAabbOverlap, float)->Name("BM_RayAabbOverlapFloat");
BENCHMARK_TEMPLATE(BM_RayAabbOverlap, double)->Name("BM_RayAabbOverlapDouble");
BENCHMARK_TEMPLATE(BM_RayObb, float)->Name("BM_RayObbFloat");
BENCHMARK_TEMPLATE(BM_RayObb, double)->Name("BM_RayObbDouble");

}  // namespace
