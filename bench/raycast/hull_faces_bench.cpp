// SPDX-License-Identifier: Zlib
// The cost of hullFacesOf (plugin/src/cast/hull_faces.hpp), which a ray against a convex hull pays once
// per hull: a lookup that hits the cache (its shared lock and its comparison of the shape's points with the
// entry's copy), for hulls of 20 and 200 points on a sphere, on one thread and on two threads at once; and,
// for scale, the hull computed afresh (a miss) for the same clouds.
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <cmath>
#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "cast/hull_faces.hpp"

namespace {

std::vector<btVector3> sphereCloud(int count) {
    std::mt19937_64 engine{std::uint64_t(count)};
    std::normal_distribution<double> normal;
    std::vector<btVector3> points;
    for (int i = 0; i < count; ++i) {
        const double x = normal(engine), y = normal(engine), z = normal(engine);
        const double length = std::sqrt(x * x + y * y + z * z);
        points.push_back(btVector3(btScalar(x / length), btScalar(y / length), btScalar(z / length)));
    }
    return points;
}

btConvexHullShape& sharedHull(int count) {
    static std::unique_ptr<btConvexHullShape> shapes[2];
    std::unique_ptr<btConvexHullShape>& shape = shapes[count > 20];
    if (!shape) {
        shape = std::make_unique<btConvexHullShape>();
        for (const btVector3& p : sphereCloud(count))
            shape->addPoint(p, false);
        shape->setLocalScaling(btVector3(1, 2, btScalar(0.5)));
    }
    return *shape;
}

void BM_LookupHit(benchmark::State& state) {
    const btConvexHullShape& shape = sharedHull(int(state.range(0)));
    if (!analytic::cast::hullFacesOf(shape)) state.SkipWithError("no hull");
    for (auto _ : state)
        benchmark::DoNotOptimize(analytic::cast::hullFacesOf(shape));
}
BENCHMARK(BM_LookupHit)->Arg(20)->Arg(200);
BENCHMARK(BM_LookupHit)->Arg(20)->Arg(200)->Threads(2);

void BM_Build(benchmark::State& state) {
    const std::vector<btVector3> points = sphereCloud(int(state.range(0)));
    for (auto _ : state)
        benchmark::DoNotOptimize(analytic::cast::buildHullFaces(points, btVector3(1, 1, 1)));
}
BENCHMARK(BM_Build)->Arg(20)->Arg(200)->Unit(benchmark::kMicrosecond);

}  // namespace
