// SPDX-License-Identifier: Zlib
// Nanoseconds per test of the closest-point and sphere-contact kernels (closest_point.hpp), float and
// double, over 1024 pre-generated random cases: shapes of unit size near the origin, queries spread
// over all regions (face, edge, vertex; inside and outside), spheres that touch about half the time.
// Sphere-triangle also on the cases a mesh gives it: the candidate triangles under a sphere resting on
// scene M's terrain, and spheres placed against one feature (face, edge, vertex) or just beyond an edge.
// Bullet's counterparts on the same cases, in Bullet's scalar: btVoronoiSimplexSolver::closestPtPointTriangle
// (its GJK's) beside ClosestPointOnTriangle, and SphereTriangleDetector::collide (its sphere-triangle
// algorithm's, no contact-breaking margin) beside SphereTriangleContact; their ratios end the run.
#include <BulletCollision/CollisionDispatch/SphereTriangleDetector.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>
#include <BulletCollision/NarrowPhaseCollision/btVoronoiSimplexSolver.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>

#include "analytic/geometry/closest_point.hpp"
#include "support/bench_scenes.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using analytic::Capsule;
using analytic::Obb;
using analytic::Sphere;
using analytic::Triangle;
using analytic::Vec3;
using analytic::bench::drawCases;
using analytic::bench::kCaseCount;
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

template <class T> struct SphereTriangleCase {
    Sphere<T> sphere;
    Triangle<T> triangle;
};

template <class T>
void timeSphereTriangle(benchmark::State& state, const std::vector<SphereTriangleCase<T>>& cases) {
    analytic::bench::timeHitOrMiss(
        state, cases,
        [](const SphereTriangleCase<T>& c) { return analytic::sphereTriangleContact(c.sphere, c.triangle); },
        "per_test");
}

template <class T> void benchSphereTriangleContact(benchmark::State& state) {
    timeSphereTriangle(state, drawCases(8, [](Random& r) {
                           return SphereTriangleCase<T>{randomSphere<T>(r), randomTriangle<T>(r)};
                       }));
}

// Spheres of radius 0.5 grown by Bullet's default contact-breaking threshold (0.02), as the sphere-mesh
// algorithm asks, resting 0.01 to 0.03 deep on scene M's terrain (as the narrow-phase pairs benchmark
// places them), each with every triangle whose bounding box overlaps the sphere's: mostly triangles
// that do not touch it, a face, sometimes an edge.
template <class T> std::vector<SphereTriangleCase<T>> terrainCandidates() {
    namespace scene = analytic::bench;
    Random random(9);
    std::vector<SphereTriangleCase<T>> cases;
    while (int(cases.size()) < kCaseCount) {
        const double x = random.uniform(-90, 90), z = random.uniform(-90, 90);
        const double slopeX = 0.5 * std::cos(0.1 * x) * std::cos(0.1 * z);
        const double slopeZ = -0.5 * std::sin(0.1 * x) * std::sin(0.1 * z);
        const Vec3<double> normal = glm::normalize(Vec3<double>(-slopeX, 1, -slopeZ));
        const double radius = scene::kBodyRadius + 0.02;
        const Vec3<double> centre =
            Vec3<double>(x, scene::terrainHeight(x, z), z) + (radius - random.uniform(0.03, 0.05)) * normal;
        const auto cell = [](double coordinate) {
            return int(std::floor((coordinate - scene::kTerrainMin) / scene::kTerrainSpacing));
        };
        for (int j = cell(centre.z - radius); j <= cell(centre.z + radius); ++j)
            for (int i = cell(centre.x - radius); i <= cell(centre.x + radius); ++i)
                for (const int half : {0, 1}) {
                    const auto indices =
                        scene::terrainTriangle(2 * (j * scene::kTerrainCellsPerSide + i) + half);
                    Vec3<double> vertices[3];
                    for (int k = 0; k < 3; ++k)
                        vertices[k] = scene::terrainVertex(indices[k] % scene::kTerrainVerticesPerSide,
                                                           indices[k] / scene::kTerrainVerticesPerSide);
                    const Vec3<double> low = glm::min(glm::min(vertices[0], vertices[1]), vertices[2]);
                    const Vec3<double> high = glm::max(glm::max(vertices[0], vertices[1]), vertices[2]);
                    if (glm::any(glm::greaterThan(low, centre + radius)) ||
                        glm::any(glm::lessThan(high, centre - radius)))
                        continue;
                    cases.push_back({{Vec3<T>(centre), T(radius)},
                                     {Vec3<T>(vertices[0]), Vec3<T>(vertices[1]), Vec3<T>(vertices[2])}});
                }
    }
    cases.resize(kCaseCount);
    return cases;
}

template <class T> void benchSphereTriangleContactTerrain(benchmark::State& state) {
    timeSphereTriangle(state, terrainCandidates<T>());
}

enum class Placement { Face, Edge, Vertex, BeyondEdge };

// A sphere (radius 0.2 to 1) against a well-shaped random triangle, on either side: touching the
// placement's feature 2 to 30% deep, or 2 to 30% of its radius beyond an edge.
template <class T> std::vector<SphereTriangleCase<T>> placedSpheres(std::uint64_t seed, Placement placement) {
    return drawCases(seed, [placement](Random& random) {
        Vec3<double> v[3], unitNormal;
        do {
            for (Vec3<double>& vertex : v)
                vertex = random.point<double>(1);
            unitNormal = glm::cross(v[1] - v[0], v[2] - v[0]);
        } while (glm::length(unitNormal) < 0.1);
        unitNormal = glm::normalize(unitNormal) * (random.chance(0.5) ? 1.0 : -1.0);
        const int k = int(random.uniform(0, 3));
        const Vec3<double> from = v[k], to = v[(k + 1) % 3], before = v[(k + 2) % 3];
        // Edge k's outward direction in the plane, whichever side unitNormal is on.
        const auto outward = [&](const Vec3<double>& p, const Vec3<double>& q, const Vec3<double>& opposite) {
            const Vec3<double> across = glm::normalize(glm::cross(q - p, unitNormal));
            return glm::dot(across, opposite - p) > 0 ? -across : across;
        };
        const double radius = random.uniform(0.2, 1);
        const double tilt = random.uniform(-1.3, 1.3);  // from the plane, in radians
        Vec3<double> onTriangle, direction;
        switch (placement) {
            case Placement::Face: {
                const double s = random.uniform(0.05, 0.9), t = random.uniform(0.05, 0.95 - s);
                onTriangle = from + s * (to - from) + t * (before - from);
                direction = unitNormal;
                break;
            }
            case Placement::Edge:
            case Placement::BeyondEdge:
                onTriangle = glm::mix(from, to, random.uniform(0.05, 0.95));
                direction = std::cos(tilt) * outward(from, to, before) + std::sin(tilt) * unitNormal;
                break;
            case Placement::Vertex: {
                const Vec3<double> across = glm::normalize(
                    glm::mix(outward(before, from, to), outward(from, to, before), random.uniform(0.1, 0.9)));
                onTriangle = from;
                direction = std::cos(tilt) * across + std::sin(tilt) * unitNormal;
                break;
            }
        }
        const double distance = radius * (placement == Placement::BeyondEdge ? random.uniform(1.02, 1.3)
                                                                             : random.uniform(0.7, 0.98));
        return SphereTriangleCase<T>{{Vec3<T>(onTriangle + distance * direction), T(radius)},
                                     {Vec3<T>(v[0]), Vec3<T>(v[1]), Vec3<T>(v[2])}};
    });
}

template <class T> void benchSphereTriangleContactFace(benchmark::State& state) {
    timeSphereTriangle(state, placedSpheres<T>(10, Placement::Face));
}

template <class T> void benchSphereTriangleContactEdge(benchmark::State& state) {
    timeSphereTriangle(state, placedSpheres<T>(11, Placement::Edge));
}

template <class T> void benchSphereTriangleContactVertex(benchmark::State& state) {
    timeSphereTriangle(state, placedSpheres<T>(12, Placement::Vertex));
}

template <class T> void benchSphereTriangleContactBeyondEdge(benchmark::State& state) {
    timeSphereTriangle(state, placedSpheres<T>(13, Placement::BeyondEdge));
}

btVector3 toBullet(const Vec3<btScalar>& v) { return btVector3(v.x, v.y, v.z); }

void benchClosestPointOnTriangleBullet(benchmark::State& state) {
    struct Case {
        Vec3<btScalar> point;
        Triangle<btScalar> triangle;
    };
    const auto cases = drawCases(2, [](Random& r) {
        return Case{r.point<btScalar>(2), randomTriangle<btScalar>(r)};
    });
    btVoronoiSimplexSolver solver;
    runCases(state, cases, [&](const Case& c) {
        btSubSimplexClosestResult result;
        solver.closestPtPointTriangle(toBullet(c.point), toBullet(c.triangle.a), toBullet(c.triangle.b),
                                      toBullet(c.triangle.c), result);
        return result.m_closestPointOnSimplex;
    });
}

// Bullet's sphere-triangle test on the same cases: the shapes made beforehand, the sphere's centre given in
// the triangle's frame (the identity here), as its algorithm does.
void timeSphereTriangleBullet(benchmark::State& state,
                              const std::vector<SphereTriangleCase<btScalar>>& cases) {
    struct Shapes {
        explicit Shapes(const SphereTriangleCase<btScalar>& c)
            : sphere(c.sphere.radius),
              triangle(toBullet(c.triangle.a), toBullet(c.triangle.b), toBullet(c.triangle.c)),
              center(toBullet(c.sphere.center)) {}

        btSphereShape sphere;
        btTriangleShape triangle;
        SphereTriangleDetector detector{&sphere, &triangle, 0};
        btVector3 center;
    };
    std::vector<std::unique_ptr<Shapes>> shapes;
    for (const SphereTriangleCase<btScalar>& c : cases)
        shapes.push_back(std::make_unique<Shapes>(c));
    analytic::bench::timeHitOrMiss(
        state, shapes,
        [](const std::unique_ptr<Shapes>& s) {
            btVector3 point, normal;
            btScalar depth = 0, timeOfImpact = 1;
            return s->detector.collide(s->center, point, normal, depth, timeOfImpact, 0);
        },
        "per_test");
}

void benchSphereTriangleContactBullet(benchmark::State& state) {
    timeSphereTriangleBullet(
        state, drawCases(8, [](Random& r) {
            return SphereTriangleCase<btScalar>{randomSphere<btScalar>(r), randomTriangle<btScalar>(r)};
        }));
}

void benchSphereTriangleContactTerrainBullet(benchmark::State& state) {
    timeSphereTriangleBullet(state, terrainCandidates<btScalar>());
}

BENCHMARK(benchClosestPointOnTriangleBullet)->Name("BM_ClosestPointOnTriangleBullet");
BENCHMARK(benchSphereTriangleContactBullet)->Name("BM_SphereTriangleContactBullet");
BENCHMARK(benchSphereTriangleContactTerrainBullet)->Name("BM_SphereTriangleContactTerrainBullet");
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnSegment);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnTriangle);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointOnObb);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(ClosestPointsSegmentSegment);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereSphereContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereCapsuleContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereObbContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContact);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContactTerrain);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContactFace);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContactEdge);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContactVertex);
ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(SphereTriangleContactBeyondEdge);

}  // namespace

int main(int argc, char** argv) {
    using analytic::bench::inBulletScalar;
    return analytic::bench::runKernelBenchmarks(
        argc, argv,
        {{"closest point on a triangle", "BM_ClosestPointOnTriangleBullet",
          inBulletScalar("ClosestPointOnTriangle")},
         {"sphere-triangle contact", "BM_SphereTriangleContactBullet",
          inBulletScalar("SphereTriangleContact")},
         {"sphere-triangle contact, terrain", "BM_SphereTriangleContactTerrainBullet",
          inBulletScalar("SphereTriangleContactTerrain")}},
        "per_test");
}
