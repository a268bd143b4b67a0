// SPDX-License-Identifier: Zlib
// ns per test of the plane tests (plane_tests.hpp), float and double: each benchmark runs one kernel over
// 1024 random cases near a unit-scale plane, where about half of the shapes overlap it.
#include <benchmark/benchmark.h>

#include "analytic/geometry/plane_tests.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::Random;

template <class T, class Shape> struct Case {
    Shape shape;
    Plane<T> plane;
};

// makeShape(random) draws one shape within a few units of the origin; the plane passes within 2 of it.
template <class T, class MakeShape> auto makeCases(MakeShape makeShape) {
    return bench::drawCases(2024, [&](Random& random) {
        auto shape = makeShape(random);
        return Case<T, decltype(shape)>{shape, Plane<T>{random.unitVector<T>(), T(random.uniform(-2, 2))}};
    });
}

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, Kernel kernel) {
    bench::timeKernel(state, cases, [&](const auto& c) { return kernel(c.shape, c.plane); });
}

template <class T> void benchIntersectRayPlane(benchmark::State& state) {
    const auto cases =
        makeCases<T>([](Random& random) { return segmentRay<T, 3>(random.point<T>(3), random.point<T>(3)); });
    runCases(state, cases,
             [](const RayPath<T>& ray, const Plane<T>& plane) { return intersectRayPlane(ray, plane); });
}

template <class T> void benchClassifyPointPlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) { return random.point<T>(3); });
    runCases(state, cases,
             [](const Vec3<T>& point, const Plane<T>& plane) { return classifyPointPlane(point, plane); });
}

template <class T> void benchCollideSpherePlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) {
        return Sphere<T>{random.point<T>(3), T(random.uniform(0.1, 2))};
    });
    runCases(state, cases, [](const Sphere<T>& sphere, const Plane<T>& plane) {
        return collideSpherePlane(sphere, plane);
    });
}

template <class T> void benchCollideEllipsoidPlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) {
        return Ellipsoid<T>{
            random.point<T>(3), random.rotation<T>(),
            Vec3<T>(T(random.uniform(0.1, 2)), T(random.uniform(0.1, 2)), T(random.uniform(0.1, 2)))};
    });
    runCases(state, cases, [](const Ellipsoid<T>& ellipsoid, const Plane<T>& plane) {
        return collideEllipsoidPlane(ellipsoid, plane);
    });
}

template <class T> void benchIntersectTrianglePlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) {
        const Vec3<T> center = random.point<T>(3);
        return Triangle<T>{center + random.point<T>(1.5), center + random.point<T>(1.5),
                           center + random.point<T>(1.5)};
    });
    runCases(state, cases, [](const Triangle<T>& triangle, const Plane<T>& plane) {
        return intersectTrianglePlane(triangle, plane);
    });
}

template <class T> void benchClassifyAabbPlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) {
        const Vec3<T> min = random.point<T>(3);
        return Aabb<T>{min, min + Vec3<T>(T(random.uniform(0.1, 2)), T(random.uniform(0.1, 2)),
                                          T(random.uniform(0.1, 2)))};
    });
    runCases(state, cases,
             [](const Aabb<T>& box, const Plane<T>& plane) { return classifyAabbPlane(box, plane); });
}

template <class T> void benchCollideObbPlane(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random) {
        return Obb<T>{
            random.point<T>(3), random.rotation<T>(),
            Vec3<T>(T(random.uniform(0.1, 1)), T(random.uniform(0.1, 1)), T(random.uniform(0.1, 1)))};
    });
    runCases(state, cases,
             [](const Obb<T>& box, const Plane<T>& plane) { return collideObbPlane(box, plane); });
}

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(IntersectRayPlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClassifyPointPlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(CollideSpherePlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(CollideEllipsoidPlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(IntersectTrianglePlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClassifyAabbPlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(CollideObbPlane);

}  // namespace
