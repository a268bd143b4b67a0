// SPDX-License-Identifier: Zlib
// ns per test of the ray tests against round solids (ray_sphere.hpp, ray_capsule.hpp, ray_cylinder.hpp)
// and of a segment's crossings of a sphere, float and double, each over 1024 pre-generated cases: solids of
// unit size near the origin, rays (half unbounded, half segments) aimed near them so that about half hit.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <limits>
#include <utility>

#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::Random;

template <class T, int N> VecN<T, N> randomPoint(Random& random, double extent) {
    if constexpr (N == 3) {
        return random.point<T>(extent);
    } else {
        return {T(random.uniform(-extent, extent)), T(random.uniform(-extent, extent))};
    }
}

template <class T, int N, class Solid> struct Case {
    RayPath<T, N> ray;
    Solid solid;
};

// makeSolid(random) draws a solid and returns it with a point at its middle; the ray starts up to 6 away
// and heads for a point within 1 of that middle.
template <class T, int N, class MakeSolid> auto makeCases(std::uint64_t seed, const MakeSolid& makeSolid) {
    return bench::drawCases(seed, [&](Random& random) {
        using Solid = decltype(makeSolid(random).first);
        const auto [solid, middle] = makeSolid(random);
        const VecN<T, N> origin = randomPoint<T, N>(random, 6);
        const VecN<T, N> direction =
            (middle + randomPoint<T, N>(random, 1) - origin) * T(random.uniform(0.5, 2));
        const T maxT = random.chance(0.5) ? std::numeric_limits<T>::infinity() : T(random.uniform(0.5, 1.5));
        return Case<T, N, Solid>{RayPath<T, N>{origin, direction, maxT}, solid};
    });
}

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, const Kernel& kernel) {
    const auto test = [&](const auto& c) { return kernel(c.ray, c.solid); };
    bench::timeHitOrMiss(state, cases, test, "per_test");
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

template <class T> void benchRaySphere(benchmark::State& state) {
    runCases(state, ballCases<T, 3>(),
             [](const RayPath<T>& ray, const Sphere<T>& s) { return intersectRaySphere(ray, s); });
}

template <class T> void benchRayCircle(benchmark::State& state) {
    runCases(state, ballCases<T, 2>(),
             [](const RayPath2<T>& ray, const Circle<T>& c) { return intersectRaySphere(ray, c); });
}

template <class T> void benchSegmentSphereCrossings(benchmark::State& state) {
    runCases(state, ballCases<T, 3>(), [](const RayPath<T>& ray, const Sphere<T>& s) {
        return surfaceCrossings(intersectRaySphere(ray, s), ray).count;
    });
}

template <class T> void benchRayCapsule(benchmark::State& state) {
    runCases(state, axisSolidCases<T, Capsule<T>>(2),
             [](const RayPath<T>& ray, const Capsule<T>& c) { return intersectRayCapsule(ray, c); });
}

template <class T> void benchRayCylinder(benchmark::State& state) {
    runCases(state, axisSolidCases<T, Cylinder<T>>(3),
             [](const RayPath<T>& ray, const Cylinder<T>& c) { return intersectRayCylinder(ray, c); });
}

}  // namespace

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RaySphere);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayCircle);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SegmentSphereCrossings);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayCapsule);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayCylinder);
