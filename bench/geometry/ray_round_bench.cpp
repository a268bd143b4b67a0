// ns per test of the ray tests against round solids (ray_sphere.hpp, ray_capsule.hpp, ray_cylinder.hpp)
// and of T2's segment crossings, float and double, each over 1024 pre-generated cases: solids of unit
// size near the origin, rays (half unbounded, half segments) aimed near them so that about half hit.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::Random;

constexpr int kCases = 1024;

template <class T, int N> VecN<T, N> randomPoint(Random& random, double extent) {
    if constexpr (N == 3) {
        return random.point<T>(extent);
    } else {
        return {T(random.uniform(-extent, extent)), T(random.uniform(-extent, extent))};
    }
}

template <class T, int N, class Solid> struct Case {
    Ray<T, N> ray;
    Solid solid;
};

// makeSolid(random) draws a solid and returns it with a point at its middle; the ray starts up to 6 away
// and heads for a point within 1 of that middle.
template <class T, int N, class MakeSolid> auto makeCases(std::uint64_t seed, const MakeSolid& makeSolid) {
    Random random(seed);
    using Solid = decltype(makeSolid(random).first);
    std::vector<Case<T, N, Solid>> cases;
    for (int i = 0; i < kCases; ++i) {
        const auto [solid, middle] = makeSolid(random);
        const VecN<T, N> origin = randomPoint<T, N>(random, 6);
        const VecN<T, N> direction =
            (middle + randomPoint<T, N>(random, 1) - origin) * T(random.uniform(0.5, 2));
        const T maxT = random.chance(0.5) ? std::numeric_limits<T>::infinity() : T(random.uniform(0.5, 1.5));
        cases.push_back({Ray<T, N>{origin, direction, maxT}, solid});
    }
    return cases;
}

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, const Kernel& kernel) {
    int hits = 0;
    for (const auto& c : cases)
        hits += kernel(c.ray, c.solid) ? 1 : 0;
    for (auto _ : state)
        for (const auto& c : cases)
            benchmark::DoNotOptimize(kernel(c.ray, c.solid));
    state.SetItemsProcessed(state.iterations() * std::int64_t(cases.size()));
    state.counters["per_test"] =
        benchmark::Counter(double(state.iterations()) * double(cases.size()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["hit_fraction"] = double(hits) / double(cases.size());
}

template <class T, int N> auto ballCases() {
    return makeCases<T, N>(1, [](Random& random) {
        const Ball<T, N> ball{randomPoint<T, N>(random, 2), T(random.uniform(0.25, 1))};
        return std::pair{ball, ball.center};
    });
}

template <class T, class Solid> auto axisSolidCases(std::uint64_t seed) {
    return makeCases<T, 3>(seed, [](Random& random) {
        const Vec3<T> a = random.point<T>(2), b = a + random.point<T>(1.5);
        return std::pair{Solid{a, b, T(random.uniform(0.25, 1))}, (a + b) * T(0.5)};
    });
}

template <class T> void BM_RaySphere(benchmark::State& state) {
    runCases(state, ballCases<T, 3>(),
             [](const Ray<T>& ray, const Sphere<T>& s) { return intersectRaySphere(ray, s); });
}

template <class T> void BM_RayCircle(benchmark::State& state) {
    runCases(state, ballCases<T, 2>(),
             [](const Ray2<T>& ray, const Circle<T>& c) { return intersectRaySphere(ray, c); });
}

template <class T> void BM_SegmentSphereCrossings(benchmark::State& state) {
    runCases(state, ballCases<T, 3>(), [](const Ray<T>& ray, const Sphere<T>& s) {
        return surfaceCrossings(intersectRaySphere(ray, s), ray).count;
    });
}

template <class T> void BM_RayCapsule(benchmark::State& state) {
    runCases(state, axisSolidCases<T, Capsule<T>>(2),
             [](const Ray<T>& ray, const Capsule<T>& c) { return intersectRayCapsule(ray, c); });
}

template <class T> void BM_RayCylinder(benchmark::State& state) {
    runCases(state, axisSolidCases<T, Cylinder<T>>(3),
             [](const Ray<T>& ray, const Cylinder<T>& c) { return intersectRayCylinder(ray, c); });
}

}  // namespace

BENCHMARK_TEMPLATE(BM_RaySphere, float)->Name("BM_RaySphereFloat");
BENCHMARK_TEMPLATE(BM_RaySphere, double)->Name("BM_RaySphereDouble");
BENCHMARK_TEMPLATE(BM_RayCircle, float)->Name("BM_RayCircleFloat");
BENCHMARK_TEMPLATE(BM_RayCircle, double)->Name("BM_RayCircleDouble");
BENCHMARK_TEMPLATE(BM_SegmentSphereCrossings, float)->Name("BM_SegmentSphereCrossingsFloat");
BENCHMARK_TEMPLATE(BM_SegmentSphereCrossings, double)->Name("BM_SegmentSphereCrossingsDouble");
BENCHMARK_TEMPLATE(BM_RayCapsule, float)->Name("BM_RayCapsuleFloat");
BENCHMARK_TEMPLATE(BM_RayCapsule, double)->Name("BM_RayCapsuleDouble");
BENCHMARK_TEMPLATE(BM_RayCylinder, float)->Name("BM_RayCylinderFloat");
BENCHMARK_TEMPLATE(BM_RayCylinder, double)->Name("BM_RayCylinderDouble");
