// SPDX-License-Identifier: Zlib
// ns per sweep of the swept-sphere tests (sphere_sweep.hpp), float and double: each benchmark runs one
// target over 1024 random cases near a unit-scale target: a sphere of radius 0.1 .. 0.5 starting 1 .. 4
// from it and aimed within 1.5 of its centre, so that about half of the sweeps hit (a few start in contact).
#include <benchmark/benchmark.h>

#include "analytic/geometry/sphere_sweep.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using namespace analytic;
using analytic::test::Random;

template <class T, class Target> struct SweepCase {
    RayPath<T> path;
    T radius;
    Target target;
};

// makeTarget(random, center) draws a target of size about 1 around center.
template <class T, class MakeTarget> auto makeCases(MakeTarget makeTarget) {
    return bench::drawCases(2024, [&](Random& random) {
        const Vec3<T> center = random.point<T>(3);
        auto target = makeTarget(random, center);
        const Vec3<T> start = center + T(random.uniform(1, 4)) * random.unitVector<T>();
        const Vec3<T> aim = center + random.point<T>(1.5);
        return SweepCase<T, decltype(target)>{
            RayPath<T>{start, (aim - start) * T(random.uniform(0.3, 1.5)), T(1)}, T(random.uniform(0.1, 0.5)),
            target};
    });
}

template <class Cases, class Kernel>
void runCases(benchmark::State& state, const Cases& cases, Kernel kernel) {
    const auto sweep = [&](const auto& c) { return kernel(c.path, c.radius, c.target); };
    bench::timeKernel(state, cases, sweep, "ns_per_sweep");
}

template <class T> void benchSweepSphereSphere(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Sphere<T>{center, T(random.uniform(0.5, 1))};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Sphere<T>& target) {
        return sweepSphereSphere(path, radius, target);
    });
}

template <class T> void benchSweepSphereCapsule(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> halfAxis = random.unitVector<T>() * T(random.uniform(0.5, 1));
        return Capsule<T>{center - halfAxis, center + halfAxis, T(random.uniform(0.2, 0.6))};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Capsule<T>& target) {
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
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Obb<T>& target) {
        return sweepSphereObb(path, radius, target);
    });
}

template <class T> void benchSweepSphereAabb(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> half = randomHalfExtents<T>(random);
        return Aabb<T>{center - half, center + half};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Aabb<T>& target) {
        return sweepSphereAabb(path, radius, target);
    });
}

template <class T> Triangle<T> randomTriangle(Random& random, const Vec3<T>& center) {
    return {center + random.point<T>(1.2), center + random.point<T>(1.2), center + random.point<T>(1.2)};
}

template <class T> void benchSweepSphereTriangle(benchmark::State& state) {
    const auto cases = makeCases<T>(randomTriangle<T>);
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Triangle<T>& target) {
        return sweepSphereTriangle(path, radius, target);
    });
}

template <class T> void benchSweepSphereTriangleOneSided(benchmark::State& state) {
    const auto cases = makeCases<T>(randomTriangle<T>);
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Triangle<T>& target) {
        return sweepSphereTriangle(path, radius, target, FaceCulling::BackFaces);
    });
}

template <class T> Plane<T> randomPlane(Random& random, const Vec3<T>& center) {
    const Vec3<T> normal = random.unitVector<T>();
    return {normal, glm::dot(normal, center)};
}

template <class T> void benchSweepSpherePlane(benchmark::State& state) {
    const auto cases = makeCases<T>(randomPlane<T>);
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Plane<T>& target) {
        return sweepSpherePlane(path, radius, target);
    });
}

template <class T> void benchSweepSphereTwoSidedPlane(benchmark::State& state) {
    const auto cases = makeCases<T>(randomPlane<T>);
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Plane<T>& target) {
        return sweepSphereTwoSidedPlane(path, radius, target);
    });
}

template <class T> void benchSweepSphereCylinder(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> halfAxis = random.unitVector<T>() * T(random.uniform(0.5, 1));
        return Cylinder<T>{center - halfAxis, center + halfAxis, T(random.uniform(0.2, 0.8))};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Cylinder<T>& target) {
        return sweepSphereCylinder(path, radius, target);
    });
}

template <class T> void benchSweepSphereCone(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        const Vec3<T> halfAxis = random.unitVector<T>() * T(random.uniform(0.5, 1));
        return Cone<T>{center - halfAxis, center + halfAxis, T(random.uniform(0.3, 1))};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Cone<T>& target) {
        return sweepSphereCone(path, radius, target);
    });
}

template <class T> void benchSweepSphereEllipsoid(benchmark::State& state) {
    const auto cases = makeCases<T>([](Random& random, const Vec3<T>& center) {
        return Ellipsoid<T>{center, random.rotation<T>(), randomHalfExtents<T>(random)};
    });
    runCases(state, cases, [](const RayPath<T>& path, T radius, const Ellipsoid<T>& target) {
        return sweepSphereEllipsoid(path, radius, target);
    });
}

ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereSphere);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereCapsule);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereObb);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereAabb);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereTriangle);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereTriangleOneSided);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSpherePlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereTwoSidedPlane);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereCylinder);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereCone);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SweepSphereEllipsoid);

}  // namespace
