// ns per ray-triangle test: a plain ray per test (the watertight setup per test), and one prepared ray
// against many triangles (a mesh ray cast: /100 when its line crosses every triangle, /10 when it
// crosses one in ten, as in a mesh where most tested triangles are misses). Float and double. The
// hit_fraction counter says how many cases hit.
#include <benchmark/benchmark.h>

#include <limits>
#include <vector>

#include "analytic/geometry/ray_triangle.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;

constexpr int kCases = 1024;

// A random triangle near the origin and a ray from outside aimed at a point in or near it.
template <class T> struct TriangleCase {
    Ray<T> ray;
    Triangle<T> triangle;
};

template <class T> Triangle<T> randomTriangle(test::Random& random, const Vec3<T>& center) {
    return {center + random.point<T>(1), center + random.point<T>(1), center + random.point<T>(1)};
}

// A point of the triangle's plane, inside it for about half of the draws.
template <class T> Vec3<T> aimPoint(test::Random& random, const Triangle<T>& triangle) {
    const T along = T(random.uniform(0, 1)), across = T(random.uniform(0, 2));
    return triangle.a + along * (triangle.b - triangle.a) +
           across * (T(1) - along) * (triangle.c - triangle.a);
}

template <class T> std::vector<TriangleCase<T>> makeCases() {
    test::Random random(1);
    std::vector<TriangleCase<T>> cases;
    for (int i = 0; i < kCases; ++i) {
        const Triangle<T> triangle = randomTriangle(random, random.point<T>(10));
        const Vec3<T> origin = triangle.a + random.unitVector<T>() * T(20);
        cases.push_back(
            {{origin, aimPoint(random, triangle) - origin, std::numeric_limits<T>::infinity()}, triangle});
    }
    return cases;
}

// Triangles around one ray: a fraction `crossed` of them moved so that the ray's line passes through
// an aim point (inside about half of the time), the others left off the ray.
template <class T> std::vector<Triangle<T>> trianglesAlong(const Ray<T>& ray, double crossed) {
    test::Random random(2);
    std::vector<Triangle<T>> triangles;
    for (int i = 0; i < kCases; ++i) {
        const Triangle<T> triangle = randomTriangle(random, ray.at(T(random.uniform(0, 1))));
        const Vec3<T> shift = random.chance(crossed)
                                  ? ray.at(T(random.uniform(0, 1))) - aimPoint(random, triangle)
                                  : random.unitVector<T>() * T(3);
        triangles.push_back({triangle.a + shift, triangle.b + shift, triangle.c + shift});
    }
    return triangles;
}

template <class T> const Ray<T> kLongRay{Vec3<T>(-50, -3, 2), Vec3<T>(100, 6, -4), T(1)};

// hit_fraction: how many of the cases are hits, for comparing figures with other libraries.
void countTests(benchmark::State& state, int hits) {
    state.SetItemsProcessed(state.iterations() * kCases);
    state.counters["ns_per_test"] = benchmark::Counter(
        double(state.iterations()) * kCases, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["hit_fraction"] = double(hits) / kCases;
}

template <class T> void BM_RayTriangle(benchmark::State& state) {
    const auto cases = makeCases<T>();
    int hits = 0;
    for (const TriangleCase<T>& c : cases)
        hits += intersectRayTriangle(c.ray, c.triangle).has_value();
    for (auto _ : state) {
        for (const TriangleCase<T>& c : cases)
            benchmark::DoNotOptimize(intersectRayTriangle(c.ray, c.triangle));
    }
    countTests(state, hits);
}

// One prepared ray against many triangles; state.range(0) is the percentage the ray's line crosses.
template <class T> void BM_RayTrianglePrepared(benchmark::State& state) {
    const WatertightRay<T> ray = *makeWatertightRay(kLongRay<T>);
    const auto triangles = trianglesAlong(kLongRay<T>, double(state.range(0)) / 100);
    int hits = 0;
    for (const Triangle<T>& triangle : triangles)
        hits += intersectRayTriangle(ray, triangle).has_value();
    for (auto _ : state) {
        for (const Triangle<T>& triangle : triangles)
            benchmark::DoNotOptimize(intersectRayTriangle(ray, triangle));
    }
    countTests(state, hits);
}

BENCHMARK_TEMPLATE(BM_RayTriangle, float)->Name("BM_RayTriangleFloat");
BENCHMARK_TEMPLATE(BM_RayTriangle, double)->Name("BM_RayTriangleDouble");
BENCHMARK_TEMPLATE(BM_RayTrianglePrepared, float)->Name("BM_RayTrianglePreparedFloat")->Arg(100)->Arg(10);
BENCHMARK_TEMPLATE(BM_RayTrianglePrepared, double)->Name("BM_RayTrianglePreparedDouble")->Arg(100)->Arg(10);

}  // namespace
