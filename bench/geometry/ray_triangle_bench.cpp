// SPDX-License-Identifier: Zlib
// ns per ray-triangle test: a plain ray per test (the watertight setup per test), and one prepared ray
// against many triangles (a mesh ray cast: /100 when its line crosses every triangle, /10 when it
// crosses one in ten, as in a mesh where most tested triangles are misses). Float and double. The
// hit_fraction counter says how many cases hit. Bullet's counterpart on the same cases, in Bullet's
// scalar: btTriangleRaycastCallback::processTriangle (the triangle test of its mesh ray casts), for a
// segment per case and for one segment against many triangles; the ratios end the run.
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <benchmark/benchmark.h>

#include <limits>

#include "analytic/geometry/ray_triangle.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::bench::kLongRay;

// A random triangle near the origin and a ray from outside aimed at a point in or near it.
template <class T> struct TriangleCase {
    RayPath<T> ray;
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

template <class T> auto makeCases() {
    return bench::drawCases(1, [](test::Random& random) {
        const Triangle<T> triangle = randomTriangle(random, random.point<T>(10));
        const Vec3<T> origin = triangle.a + random.unitVector<T>() * T(20);
        return TriangleCase<T>{
            {origin, aimPoint(random, triangle) - origin, std::numeric_limits<T>::infinity()}, triangle};
    });
}

// Triangles around one ray: a fraction `crossed` of them moved so that the ray's line passes through
// an aim point (inside about half of the time), the others left off the ray.
template <class T> auto trianglesAlong(const RayPath<T>& ray, double crossed) {
    return bench::drawCases(2, [&](test::Random& random) {
        const Triangle<T> triangle = randomTriangle(random, ray.at(T(random.uniform(0, 1))));
        const Vec3<T> shift = random.chance(crossed)
                                  ? ray.at(T(random.uniform(0, 1))) - aimPoint(random, triangle)
                                  : random.unitVector<T>() * T(3);
        return Triangle<T>{triangle.a + shift, triangle.b + shift, triangle.c + shift};
    });
}

template <class T> void benchRayTriangle(benchmark::State& state) {
    const auto test = [](const TriangleCase<T>& c) { return intersectRayTriangle(c.ray, c.triangle); };
    bench::timeHitOrMiss(state, makeCases<T>(), test, "ns_per_test");
}

// One prepared ray against many triangles; state.range(0) is the percentage the ray's line crosses.
template <class T> void benchRayTrianglePrepared(benchmark::State& state) {
    const WatertightRay<T> ray = *makeWatertightRay(kLongRay<T>);
    const auto test = [&](const Triangle<T>& triangle) { return intersectRayTriangle(ray, triangle); };
    bench::timeHitOrMiss(state, trianglesAlong(kLongRay<T>, double(state.range(0)) / 100), test,
                         "ns_per_test");
}

btVector3 toBullet(const Vec3<btScalar>& v) { return btVector3(v.x, v.y, v.z); }

// Bullet's triangle test through its mesh callback, counting hits; every triangle is tested in full (the
// callback keeps its segment's end: no culling by an earlier hit).
class BulletTriangleRay : public btTriangleRaycastCallback {
public:
    BulletTriangleRay(const btVector3& from, const btVector3& to) : btTriangleRaycastCallback(from, to) {}

    bool hits(const Triangle<btScalar>& triangle) {
        btVector3 vertices[3] = {toBullet(triangle.a), toBullet(triangle.b), toBullet(triangle.c)};
        const int before = hits_;
        processTriangle(vertices, 0, 0);
        return hits_ != before;
    }

    btScalar reportHit(const btVector3&, btScalar, int, int) override {
        ++hits_;
        return m_hitFraction;
    }

private:
    int hits_ = 0;
};

// A segment to twice the aim point, beyond the triangle.
void benchRayTriangleBullet(benchmark::State& state) {
    const auto test = [](const TriangleCase<btScalar>& c) {
        BulletTriangleRay ray(toBullet(c.ray.origin), toBullet(c.ray.origin + btScalar(2) * c.ray.direction));
        return ray.hits(c.triangle);
    };
    bench::timeHitOrMiss(state, makeCases<btScalar>(), test, "ns_per_test");
}

void benchRayTrianglePreparedBullet(benchmark::State& state) {
    const RayPath<btScalar>& path = kLongRay<btScalar>;
    BulletTriangleRay ray(toBullet(path.origin), toBullet(path.at(path.maxT)));
    const auto test = [&](const Triangle<btScalar>& triangle) { return ray.hits(triangle); };
    bench::timeHitOrMiss(state, trianglesAlong(kLongRay<btScalar>, double(state.range(0)) / 100), test,
                         "ns_per_test");
}

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(RayTriangle);
BENCHMARK(benchRayTriangleBullet)->Name("BM_RayTriangleBullet");
BENCHMARK(benchRayTrianglePreparedBullet)->Name("BM_RayTrianglePreparedBullet")->Arg(100)->Arg(10);
BENCHMARK_TEMPLATE(benchRayTrianglePrepared, float)->Name("BM_RayTrianglePreparedFloat")->Arg(100)->Arg(10);
BENCHMARK_TEMPLATE(benchRayTrianglePrepared, double)->Name("BM_RayTrianglePreparedDouble")->Arg(100)->Arg(10);

}  // namespace

int main(int argc, char** argv) {
    using analytic::bench::inBulletScalar;
    return analytic::bench::runKernelBenchmarks(
        argc, argv,
        {{"ray-triangle", "BM_RayTriangleBullet", inBulletScalar("RayTriangle")},
         {"ray-triangle, prepared, 100% crossed", "BM_RayTrianglePreparedBullet/100",
          inBulletScalar("RayTrianglePrepared") + "/100"},
         {"ray-triangle, prepared, 10% crossed", "BM_RayTrianglePreparedBullet/10",
          inBulletScalar("RayTrianglePrepared") + "/10"}});
}
