// ns per sweep of the swept-sphere tests (sphere_sweep.hpp), float and double: each benchmark runs one
// target over 1024 random cases near a unit-scale target: a sphere of radius 0.1 .. 0.5 starting 1 .. 4
// from it and aimed within 1.5 of its centre, so that about half of the sweeps hit (a few start in contact).
#include <benchmark/benchmark.h>

#include <vector>

#include "analytic/geometry/sphere_sweep.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::Random;

constexpr int kCaseCount = 1024;

template <class T, class Target> struct SweepCase {
    Ray<T> path;
    T radius;
    Target target;
};

// makeTarget(random, center) draws a target of size about 1 around center.
template <class T, class MakeTarget> auto makeCases(MakeTarget makeTarget) {
    Random random(2024);
    std::vector<SweepCase<T, decltype(makeTarget(random, Vec3<T>()))>> cases;
    for (int k = 0; k < kCaseCount; ++k) {
        const Vec3<T> center = random.point<T>(3);
        auto target = makeTarget(random, center);
        const Vec3<T> start = center + T(random.uniform(1, 4)) * random.unitVector<T>();
        const Vec3<T> aim = center + random.point<T>(1.5);
        cases.push_back({Ray<T>{start, (aim - start) * T(random.uniform(0.3, 1.5)), T(1)},
                         T(random.uniform(0.1, 0.5)), target});
    }
    return cases;
}

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, Kernel kernel) {
    for (auto _ : state)
        for (const auto& c : cases)
            benchmark::DoNotOptimize(kernel(c.path, c.radius, c.target));
    state.SetItemsProcessed(state.iterations() * kCaseCount);
    state.counters["ns_per_sweep"] = benchmark::Counter(
        double(state.iterations()) * kCaseCount, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class T> void benchSweepSphereSphere(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Sphere<T>{center, T(random.uniform(0.5, 1))};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Sphere<T>& target) {
        return sweepSphereSphere(path, radius, target);
    });
}

template <class T> void benchSweepSphereCapsule(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> halfAxis = random.unitVector<T>() * T(random.uniform(0.5, 1));
        return Capsule<T>{center - halfAxis, center + halfAxis, T(random.uniform(0.2, 0.6))};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Capsule<T>& target) {
        return sweepSphereCapsule(path, radius, target);
    });
}

template <class T> Vec3<T> randomHalfExtents(Random& random) {
    return Vec3<T>(T(random.uniform(0.2, 1)), T(random.uniform(0.2, 1)), T(random.uniform(0.2, 1)));
}

template <class T> void benchSweepSphereObb(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Obb<T>{center, random.rotation<T>(), randomHalfExtents<T>(random)};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Obb<T>& target) {
        return sweepSphereObb(path, radius, target);
    });
}

template <class T> void benchSweepSphereAabb(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> half = randomHalfExtents<T>(random);
        return Aabb<T>{center - half, center + half};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Aabb<T>& target) {
        return sweepSphereAabb(path, radius, target);
    });
}

template <class T> void benchSweepSphereTriangle(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Triangle<T>{center + random.point<T>(1.2), center + random.point<T>(1.2),
                           center + random.point<T>(1.2)};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Triangle<T>& target) {
        return sweepSphereTriangle(path, radius, target);
    });
}

template <class T> void benchSweepSphereTriangleOneSided(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Triangle<T>{center + random.point<T>(1.2), center + random.point<T>(1.2),
                           center + random.point<T>(1.2)};
    });
    runCases(state, cases, [](const Ray<T>& path, T radius, const Triangle<T>& target) {
        return sweepSphereTriangle(path, radius, target, FaceCulling::BackFaces);
    });
}

template <class T> Plane<T> randomPlane(Random& random, const Vec3<T>& center) {
    const Vec3<T> normal = random.unitVector<T>();
    return {normal, glm::dot(normal, center)};
}

template <class T> void benchSweepSpherePlane(benchmark::State& state) {
    const auto cases = makeCases<T>(randomPlane<T>);
    runCases(state, cases, [](const Ray<T>& path, T radius, const Plane<T>& target) {
        return sweepSpherePlane(path, radius, target);
    });
}

template <class T> void benchSweepSphereTwoSidedPlane(benchmark::State& state) {
    const auto cases = makeCases<T>(randomPlane<T>);
    runCases(state, cases, [](const Ray<T>& path, T radius, const Plane<T>& target) {
        return sweepSphereTwoSidedPlane(path, radius, target);
    });
}

// Registers bench<kernel> for float and double as BM_<kernel>Float and BM_<kernel>Double.
#define SWEEP_BENCHMARK(kernel)                                            \
    BENCHMARK_TEMPLATE(bench##kernel, float)->Name("BM_" #kernel "Float"); \
    BENCHMARK_TEMPLATE(bench##kernel, double)->Name("BM_" #kernel "Double")

SWEEP_BENCHMARK(SweepSphereSphere);
SWEEP_BENCHMARK(SweepSphereCapsule);
SWEEP_BENCHMARK(SweepSphereObb);
SWEEP_BENCHMARK(SweepSphereAabb);
SWEEP_BENCHMARK(SweepSphereTriangle);
SWEEP_BENCHMARK(SweepSphereTriangleOneSided);
SWEEP_BENCHMARK(SweepSpherePlane);
SWEEP_BENCHMARK(SweepSphereTwoSidedPlane);

}  // namespace
