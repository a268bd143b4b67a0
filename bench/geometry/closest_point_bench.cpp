// Nanoseconds per test of the closest-point and sphere-contact kernels (closest_point.hpp), float and
// double, over 1024 pre-generated random cases: shapes of unit size near the origin, queries spread
// over all regions (face, edge, vertex; inside and outside), spheres that touch about half the time.
#include <benchmark/benchmark.h>

#include <vector>

#include "analytic/geometry/closest_point.hpp"
#include "support/test_support.hpp"

namespace {

using analytic::Capsule;
using analytic::Obb;
using analytic::Sphere;
using analytic::Triangle;
using analytic::Vec3;
using analytic::test::Random;

constexpr int kCases = 1024;

template <class Case, class Kernel>
void runCases(benchmark::State& state, const std::vector<Case>& cases, Kernel kernel) {
    for (auto _ : state)
        for (const Case& c : cases)
            benchmark::DoNotOptimize(kernel(c));
    state.SetItemsProcessed(state.iterations() * std::int64_t(cases.size()));
    state.counters["per_test"] =
        benchmark::Counter(double(state.iterations()) * double(cases.size()),
                           benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class T, class Make> auto makeCases(std::uint64_t seed, Make make) {
    Random random(seed);
    std::vector<decltype(make(random))> cases;
    for (int i = 0; i < kCases; ++i)
        cases.push_back(make(random));
    return cases;
}

template <class T> Sphere<T> randomSphere(Random& random) {
    return {random.point<T>(2), T(random.uniform(0.1, 1))};
}

template <class T> Triangle<T> randomTriangle(Random& random) {
    return {random.point<T>(1), random.point<T>(1), random.point<T>(1)};
}

template <class T> Obb<T> randomObb(Random& random) {
    return {random.point<T>(0.5), random.rotation<T>(),
            Vec3<T>(T(random.uniform(0.2, 1)), T(random.uniform(0.2, 1)), T(random.uniform(0.2, 1)))};
}

template <class T> void BM_ClosestPointOnSegment(benchmark::State& state) {
    struct Case {
        Vec3<T> point, a, b;
    };
    const auto cases = makeCases<T>(1, [](Random& r) {
        return Case{r.point<T>(2), r.point<T>(1), r.point<T>(1)};
    });
    runCases(state, cases, [](const Case& c) { return analytic::closestPointOnSegment(c.point, c.a, c.b); });
}

template <class T> void BM_ClosestPointOnTriangle(benchmark::State& state) {
    struct Case {
        Vec3<T> point;
        Triangle<T> triangle;
    };
    const auto cases = makeCases<T>(2, [](Random& r) { return Case{r.point<T>(2), randomTriangle<T>(r)}; });
    runCases(state, cases,
             [](const Case& c) { return analytic::closestPointOnTriangle(c.point, c.triangle); });
}

template <class T> void BM_ClosestPointOnObb(benchmark::State& state) {
    struct Case {
        Vec3<T> point;
        Obb<T> box;
    };
    const auto cases = makeCases<T>(3, [](Random& r) { return Case{r.point<T>(1.5), randomObb<T>(r)}; });
    runCases(state, cases, [](const Case& c) { return analytic::closestPointOnObb(c.point, c.box); });
}

template <class T> void BM_ClosestPointsSegmentSegment(benchmark::State& state) {
    struct Case {
        Vec3<T> p0, p1, q0, q1;
    };
    const auto cases = makeCases<T>(4, [](Random& r) {
        return Case{r.point<T>(1), r.point<T>(1), r.point<T>(1), r.point<T>(1)};
    });
    runCases(state, cases,
             [](const Case& c) { return analytic::closestPointsSegmentSegment(c.p0, c.p1, c.q0, c.q1); });
}

template <class T> void BM_SphereSphereContact(benchmark::State& state) {
    struct Case {
        Sphere<T> a, b;
    };
    const auto cases = makeCases<T>(5, [](Random& r) {
        return Case{randomSphere<T>(r), randomSphere<T>(r)};
    });
    runCases(state, cases, [](const Case& c) { return analytic::sphereSphereContact(c.a, c.b); });
}

template <class T> void BM_SphereCapsuleContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Capsule<T> capsule;
    };
    const auto cases = makeCases<T>(6, [](Random& r) {
        return Case{randomSphere<T>(r), Capsule<T>{r.point<T>(1), r.point<T>(1), T(r.uniform(0.1, 0.5))}};
    });
    runCases(state, cases, [](const Case& c) { return analytic::sphereCapsuleContact(c.sphere, c.capsule); });
}

template <class T> void BM_SphereObbContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Obb<T> box;
    };
    const auto cases = makeCases<T>(7, [](Random& r) { return Case{randomSphere<T>(r), randomObb<T>(r)}; });
    runCases(state, cases, [](const Case& c) { return analytic::sphereObbContact(c.sphere, c.box); });
}

template <class T> void BM_SphereTriangleContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Triangle<T> triangle;
    };
    const auto cases = makeCases<T>(8, [](Random& r) {
        return Case{randomSphere<T>(r), randomTriangle<T>(r)};
    });
    runCases(state, cases,
             [](const Case& c) { return analytic::sphereTriangleContact(c.sphere, c.triangle); });
}

BENCHMARK_TEMPLATE(BM_ClosestPointOnSegment, float)->Name("BM_ClosestPointOnSegmentFloat");
BENCHMARK_TEMPLATE(BM_ClosestPointOnSegment, double)->Name("BM_ClosestPointOnSegmentDouble");
BENCHMARK_TEMPLATE(BM_ClosestPointOnTriangle, float)->Name("BM_ClosestPointOnTriangleFloat");
BENCHMARK_TEMPLATE(BM_ClosestPointOnTriangle, double)->Name("BM_ClosestPointOnTriangleDouble");
BENCHMARK_TEMPLATE(BM_ClosestPointOnObb, float)->Name("BM_ClosestPointOnObbFloat");
BENCHMARK_TEMPLATE(BM_ClosestPointOnObb, double)->Name("BM_ClosestPointOnObbDouble");
BENCHMARK_TEMPLATE(BM_ClosestPointsSegmentSegment, float)->Name("BM_ClosestPointsSegmentSegmentFloat");
BENCHMARK_TEMPLATE(BM_ClosestPointsSegmentSegment, double)->Name("BM_ClosestPointsSegmentSegmentDouble");
BENCHMARK_TEMPLATE(BM_SphereSphereContact, float)->Name("BM_SphereSphereContactFloat");
BENCHMARK_TEMPLATE(BM_SphereSphereContact, double)->Name("BM_SphereSphereContactDouble");
BENCHMARK_TEMPLATE(BM_SphereCapsuleContact, float)->Name("BM_SphereCapsuleContactFloat");
BENCHMARK_TEMPLATE(BM_SphereCapsuleContact, double)->Name("BM_SphereCapsuleContactDouble");
BENCHMARK_TEMPLATE(BM_SphereObbContact, float)->Name("BM_SphereObbContactFloat");
BENCHMARK_TEMPLATE(BM_SphereObbContact, double)->Name("BM_SphereObbContactDouble");
BENCHMARK_TEMPLATE(BM_SphereTriangleContact, float)->Name("BM_SphereTriangleContactFloat");
BENCHMARK_TEMPLATE(BM_SphereTriangleContact, double)->Name("BM_SphereTriangleContactDouble");

}  // namespace
