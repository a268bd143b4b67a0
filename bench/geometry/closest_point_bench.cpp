// Nanoseconds per test of the closest-point and sphere-contact kernels (closest_point.hpp), float and
// double, over 1024 pre-generated random cases: shapes of unit size near the origin, queries spread
// over all regions (face, edge, vertex; inside and outside), spheres that touch about half the time.
#include <benchmark/benchmark.h>

#include "analytic/geometry/closest_point.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using analytic::Capsule;
using analytic::Obb;
using analytic::Sphere;
using analytic::Triangle;
using analytic::Vec3;
using analytic::bench::drawCases;
using analytic::test::Random;

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, Kernel kernel) {
    analytic::bench::timeKernel(state, cases, kernel, "per_test");
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

template <class T> void benchClosestPointOnSegment(benchmark::State& state) {
    struct Case {
        Vec3<T> point, a, b;
    };
    const auto cases = drawCases(1, [](Random& r) {
        return Case{r.point<T>(2), r.point<T>(1), r.point<T>(1)};
    });
    runCases(state, cases, [](const Case& c) { return analytic::closestPointOnSegment(c.point, c.a, c.b); });
}

template <class T> void benchClosestPointOnTriangle(benchmark::State& state) {
    struct Case {
        Vec3<T> point;
        Triangle<T> triangle;
    };
    const auto cases = drawCases(2, [](Random& r) { return Case{r.point<T>(2), randomTriangle<T>(r)}; });
    runCases(state, cases,
             [](const Case& c) { return analytic::closestPointOnTriangle(c.point, c.triangle); });
}

template <class T> void benchClosestPointOnObb(benchmark::State& state) {
    struct Case {
        Vec3<T> point;
        Obb<T> box;
    };
    const auto cases = drawCases(3, [](Random& r) { return Case{r.point<T>(1.5), randomObb<T>(r)}; });
    runCases(state, cases, [](const Case& c) { return analytic::closestPointOnObb(c.point, c.box); });
}

template <class T> void benchClosestPointsSegmentSegment(benchmark::State& state) {
    struct Case {
        Vec3<T> p0, p1, q0, q1;
    };
    const auto cases = drawCases(4, [](Random& r) {
        return Case{r.point<T>(1), r.point<T>(1), r.point<T>(1), r.point<T>(1)};
    });
    runCases(state, cases,
             [](const Case& c) { return analytic::closestPointsSegmentSegment(c.p0, c.p1, c.q0, c.q1); });
}

template <class T> void benchSphereSphereContact(benchmark::State& state) {
    struct Case {
        Sphere<T> a, b;
    };
    const auto cases = drawCases(5, [](Random& r) { return Case{randomSphere<T>(r), randomSphere<T>(r)}; });
    runCases(state, cases, [](const Case& c) { return analytic::sphereSphereContact(c.a, c.b); });
}

template <class T> void benchSphereCapsuleContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Capsule<T> capsule;
    };
    const auto cases = drawCases(6, [](Random& r) {
        return Case{randomSphere<T>(r), Capsule<T>{r.point<T>(1), r.point<T>(1), T(r.uniform(0.1, 0.5))}};
    });
    runCases(state, cases, [](const Case& c) { return analytic::sphereCapsuleContact(c.sphere, c.capsule); });
}

template <class T> void benchSphereObbContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Obb<T> box;
    };
    const auto cases = drawCases(7, [](Random& r) { return Case{randomSphere<T>(r), randomObb<T>(r)}; });
    runCases(state, cases, [](const Case& c) { return analytic::sphereObbContact(c.sphere, c.box); });
}

template <class T> void benchSphereTriangleContact(benchmark::State& state) {
    struct Case {
        Sphere<T> sphere;
        Triangle<T> triangle;
    };
    const auto cases = drawCases(8, [](Random& r) { return Case{randomSphere<T>(r), randomTriangle<T>(r)}; });
    runCases(state, cases,
             [](const Case& c) { return analytic::sphereTriangleContact(c.sphere, c.triangle); });
}

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnSegment);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnTriangle);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnObb);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointsSegmentSegment);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereSphereContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereCapsuleContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereObbContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContact);

}  // namespace
