// SPDX-License-Identifier: Zlib
// Ray casts over a Bullet world: Bullet's btCollisionWorld::rayTest beside analytic::rayTest and
// analytic::rayTestBatch (issue 4), in one process. Two parts:
// - Scenes P (10,000 primitives and a plane) and M (the terrain mesh) of bench-scenes.md: each scene's
//   100,000 rays, closest hit: Bullet's rayTest and ours one ray at a time with ClosestRayResultCallback
//   (one thread), the batch on one thread and on every core, with a BatchCache (the batch's time includes
//   its snapshot of the world: the objects' shapes read afresh, the trees over their boxes and over the
//   mesh kept in the cache and checked against the world); all on the same world after one untimed pass
//   each (the batch's first builds the trees); repetitions interleaved; and the batch on one thread
//   without a cache (everything built at every batch). A batch of no rays, with the cache and without,
//   gives the snapshot's cost alone.
//   Rays per second, hits, the rays on which Bullet and analytic::rayTest disagree, whether the batch
//   gives analytic::rayTest's answers, the ratios and the goals.
// - Per shape (Google Benchmark, as pairs_bench): ns per ray for a sphere, a rotated box, a capsule, a
//   cylinder, a cone (with its margin), a static plane, a 20-point convex hull and a triangle of a small
//   mesh, over 64 random rays that mostly hit: Bullet's rayTestSingle on the one object, Bullet's rayTest and
//   ours on a world holding only that object, and the bare geometry-core test; a summary table with the
//   issue's goal for the whole path.
// Times are the thread's CPU time, which on a shared machine leaves out other processes' turns, except for
// the batch on every core: wall-clock time.
//
// Options: --part=scenes|shapes (both), --scene=P|M (both), --repetitions=N (5, the scenes'). The shapes
// run 5 repetitions in random interleaving by default; any --benchmark_* flag given overrides that.
#include <BulletCollision/CollisionShapes/btConvexPolyhedron.h>
#include <BulletCollision/CollisionShapes/btTriangleMesh.h>
#include <benchmark/benchmark.h>
#include <btBulletCollisionCommon.h>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_convex.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "support/bench_scenes.hpp"
#include "support/bench_support.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace {

using analytic::bench::bulletScalar;
using analytic::bench::instructionSet;
using analytic::bench::median;
using analytic::bench::minimum;
using analytic::bench::parsePositive;
using analytic::bench::StaticScene;
using Scalar = btScalar;
using Vec = analytic::Vec3<Scalar>;

// This thread's CPU time: on a shared machine it leaves out the time other processes run.
double threadSeconds() {
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return double(time.tv_sec) + 1e-9 * double(time.tv_nsec);
}

const char* verdict(bool met) { return met ? "met" : "NOT met"; }

// The batches with the scene's BatchCache, and on one thread without any (everything built every batch).
enum Side { kBullet, kAnalytic, kBatchOneThread, kBatchAllCores, kBatchOneThreadNoCache };
constexpr int kSides = 5;

// Bullet's own rayTest (called past any override), or ours.
void castRay(Side side, const btCollisionWorld& world, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback) {
    if (side == kBullet)
        world.btCollisionWorld::rayTest(from, to, callback);
    else
        analytic::rayTest(world, from, to, callback);
}

// ------------------------------------------------------------------------------------------------
// Scenes P and M.

struct RayList {
    std::vector<btVector3> from;
    std::vector<btVector3> to;
};

RayList toBulletRays(const std::vector<analytic::bench::SceneRay>& rays) {
    RayList list;
    for (const analytic::bench::SceneRay& ray : rays) {
        list.from.push_back(analytic::bench::toBulletVector(ray.origin));
        list.to.push_back(analytic::bench::toBulletVector(ray.end()));
    }
    return list;
}

// Per ray, what the closest-hit callback was left with: the object hit (null for a miss) and the fraction.
struct Answers {
    std::vector<const btCollisionObject*> objects;
    std::vector<Scalar> fractions;

    explicit Answers(std::size_t rays) : objects(rays), fractions(rays) {}

    bool operator==(const Answers&) const = default;

    int hits() const {
        return int(std::count_if(objects.begin(), objects.end(), [](auto* object) { return object; }));
    }
};

double wallSeconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Casts every ray, one at a time with its own ClosestRayResultCallback or as one batch (with the scene's
// BatchCache: its check against the world is timed, the trees' building is in the untimed first
// pass); returns the seconds taken.
double castAll(Side side, const btCollisionWorld& world, const RayList& rays, Answers& answers,
               analytic::BatchCache& cache) {
    if (side == kBatchOneThread || side == kBatchAllCores || side == kBatchOneThreadNoCache) {
        std::vector<analytic::Ray> batch(rays.from.size());
        for (std::size_t i = 0; i < batch.size(); ++i)
            batch[i] = {rays.from[i], rays.to[i]};
        std::vector<analytic::RayHit> hits(batch.size());
        const bool allCores = side == kBatchAllCores;
        const double start = allCores ? wallSeconds() : threadSeconds();
        analytic::rayTestBatch(world, batch, hits,
                               {allCores ? 0u : 1u, side == kBatchOneThreadNoCache ? nullptr : &cache});
        const double seconds = (allCores ? wallSeconds() : threadSeconds()) - start;
        for (std::size_t i = 0; i < hits.size(); ++i) {
            answers.objects[i] = hits[i].object;
            answers.fractions[i] = hits[i].object ? hits[i].fraction : Scalar(1);
        }
        return seconds;
    }
    const double start = threadSeconds();
    for (std::size_t i = 0; i < rays.from.size(); ++i) {
        btCollisionWorld::ClosestRayResultCallback callback(rays.from[i], rays.to[i]);
        castRay(side, world, rays.from[i], rays.to[i], callback);
        answers.objects[i] = callback.m_collisionObject;
        answers.fractions[i] = callback.m_closestHitFraction;
    }
    return threadSeconds() - start;
}

struct SceneSpec {
    const char* name;
    const char* group;        // in the one table of ratios
    int bulletReferenceHits;  // Bullet 3.24 float, bench-scenes.md
    double speedupGoal;       // issue 4: ours at least this many times Bullet's rate, one thread
    const char* goalNote;
};

// Counts by the name of the shape of an object.
class ShapeTally {
public:
    void add(const btCollisionObject& object) { ++counts_[object.getCollisionShape()->getName()]; }

    std::string text() const {
        std::string text;
        for (const auto& [shape, count] : counts_)
            text += (text.empty() ? "" : ", ") + shape + " " + std::to_string(count);
        return text.empty() ? "none" : text;
    }

private:
    std::map<std::string, int> counts_;
};

// Where the two sides' answers differ, by the shape hit: what one side hit and the other missed, what
// both hit but on other objects (the nearer side's shape), and how far apart the hits on one object are.
void reportAgreement(const Answers& bullet, const Answers& ours, double rayLength) {
    int bulletOnly = 0, oursOnly = 0, otherObject = 0, oursAtOrigin = 0;
    ShapeTally bulletOnlyShapes, oursOnlyShapes, oursNearer, bulletNearer;
    std::vector<double> distanceDifferences;  // where both hit the same object
    std::map<std::string, double> largestDifference;
    double worstDifference = -1;
    std::size_t worstRay = 0;  // the ray of the largest difference, for reproducing it
    for (std::size_t i = 0; i < bullet.objects.size(); ++i) {
        const btCollisionObject *b = bullet.objects[i], *o = ours.objects[i];
        if (b && !o) {
            ++bulletOnly;
            bulletOnlyShapes.add(*b);
        }
        if (o && !b) {
            ++oursOnly;
            oursOnlyShapes.add(*o);
        }
        const bool oursFirst = o && (!b || (b != o && ours.fractions[i] < bullet.fractions[i]));
        oursAtOrigin += oursFirst && ours.fractions[i] == 0;
        if (b && o && b != o) {
            ++otherObject;
            if (oursFirst)
                oursNearer.add(*o);
            else
                bulletNearer.add(*b);
        }
        if (b && b == o) {
            const double difference =
                rayLength * std::abs(double(ours.fractions[i]) - double(bullet.fractions[i]));
            if (difference > worstDifference) {
                worstDifference = difference;
                worstRay = i;
            }
            distanceDifferences.push_back(difference);
            double& largest = largestDifference[b->getCollisionShape()->getName()];
            largest = std::max(largest, difference);
        }
    }
    std::printf("  rays disagreeing on hit or miss: %d; Bullet's hit only: %d (%s); ours only: %d (%s)\n",
                bulletOnly + oursOnly, bulletOnly, bulletOnlyShapes.text().c_str(), oursOnly,
                oursOnlyShapes.text().c_str());
    std::printf("  rays hitting another object: %d; ours nearer: %s; Bullet's nearer: %s\n", otherObject,
                oursNearer.text().c_str(), bulletNearer.text().c_str());
    std::printf("  of ours only and ours nearer, hits at fraction 0 (ray starting inside): %d\n",
                oursAtOrigin);
    if (distanceDifferences.empty()) return;
    std::printf("  |hit distance ours - Bullet's|, same object hit (%zu rays): median %.3g m, max %.3g m (",
                distanceDifferences.size(), median(distanceDifferences), worstDifference);
    for (const auto& [shape, largest] : largestDifference)
        std::printf("%s%s %.3g", shape == largestDifference.begin()->first ? "" : ", ", shape.c_str(),
                    largest);
    std::printf("; the largest on ray %zu)\n", worstRay);
}

// Rays on which two sides' answers differ: another object, or another fraction on the same one.
int differingRays(const Answers& a, const Answers& b) {
    int count = 0;
    for (std::size_t i = 0; i < a.objects.size(); ++i)
        count += a.objects[i] != b.objects[i] || (a.objects[i] && a.fractions[i] != b.fractions[i]);
    return count;
}

void runScene(const SceneSpec& spec, const btCollisionWorld& world, const RayList& rays, int repetitions) {
    const std::size_t count = rays.from.size();
    constexpr std::array<Side, kSides> sides{kBullet, kAnalytic, kBatchOneThread, kBatchAllCores,
                                             kBatchOneThreadNoCache};
    std::vector<Answers> answers(kSides, Answers(count));
    analytic::BatchCache cache;
    std::array<double, kSides> firstSeconds{};
    for (const Side side : sides)
        firstSeconds[side] = castAll(side, world, rays, answers[side], cache);  // first use, apart
    std::array<std::vector<double>, kSides> seconds;
    bool repeatable = true;
    for (int r = 0; r < repetitions; ++r)
        for (const Side side : sides) {
            Answers again(count);
            seconds[side].push_back(castAll(side, world, rays, again, cache));
            repeatable = repeatable && again == answers[side];
        }

    std::printf("%s; %zu rays of %.0f m, closest hit; %d repetitions: median [min]\n", spec.name, count,
                analytic::bench::kRayLength, repetitions);
    std::printf("  %-20s %19s %19s %19s %19s %19s\n", "", "Bullet rayTest", "analytic::rayTest",
                "batch, 1 thread", "batch, all cores", "1 thread, no cache");
    const auto row = [&](const char* label, auto value) {
        std::printf("  %-20s", label);
        for (const Side side : sides)
            std::printf(" %8.3f [%8.3f]", value(median(seconds[side])), value(minimum(seconds[side])));
        std::printf("\n");
    };
    row("ms for all rays", [](double s) { return 1e3 * s; });
    row("M rays per second", [count](double s) { return 1e-6 * double(count) / s; });
    row("x Bullet's rate", [&](double s) { return median(seconds[kBullet]) / s; });
    std::printf("  %-20s", "hits");
    for (const Side side : sides)
        std::printf(" %19d", answers[side].hits());
    std::printf("   (Bullet 3.24 float, bench-scenes.md: %d)\n", spec.bulletReferenceHits);
    reportAgreement(answers[kBullet], answers[kAnalytic], analytic::bench::kRayLength);
    std::printf(
        "  rays where the batch's answer is not analytic::rayTest's: %d (1 thread), %d (all cores), %d (no "
        "cache); equal fractions on two objects may go either way\n",
        differingRays(answers[kAnalytic], answers[kBatchOneThread]),
        differingRays(answers[kAnalytic], answers[kBatchAllCores]),
        differingRays(answers[kAnalytic], answers[kBatchOneThreadNoCache]));
    if (!repeatable) std::printf("  WARNING: a repetition's answers differ from the first pass's\n");
    // A batch of no rays: the snapshot alone, with the cache (its trees checked against the world) and
    // without (every tree built).
    const auto emptyBatchSeconds = [&](analytic::BatchCache* batchCache) {
        std::vector<double> emptyBatch;
        for (int r = 0; r < repetitions; ++r) {
            const double start = threadSeconds();
            analytic::rayTestBatch(world, {}, {}, {1, batchCache});
            emptyBatch.push_back(threadSeconds() - start);
        }
        return median(emptyBatch);
    };
    const double cachedSnapshot = emptyBatchSeconds(&cache), wholeSnapshot = emptyBatchSeconds(nullptr);
    const std::string allCores =
        "batch, " + std::to_string(std::max(1u, std::thread::hardware_concurrency())) + " cores";
    const std::pair<Side, std::string> recorded[] = {{kAnalytic, "analytic::rayTest"},
                                                     {kBatchOneThread, "batch, 1 thread"},
                                                     {kBatchAllCores, allCores},
                                                     {kBatchOneThreadNoCache, "batch, 1 thread, no cache"}};
    const auto raysPerSecond = [count](double s) { return 1e-6 * double(count) / s; };
    for (const auto& [side, name] : recorded)
        analytic::bench::recordRatio(spec.group, name, "M rays/s, median", analytic::bench::Better::Higher,
                                     raysPerSecond(median(seconds[kBullet])),
                                     raysPerSecond(median(seconds[side])));
    std::printf(
        "  the batch's first pass on one thread, building the trees it caches: %.3f ms; a batch of no rays "
        "(the snapshot alone), one thread: %.3f ms with the cache, %.3f ms without\n",
        1e3 * firstSeconds[kBatchOneThread], 1e3 * cachedSnapshot, 1e3 * wholeSnapshot);
    // Goals are judged on the minima: on a shared machine they vary least with the load.
    const double bullet = minimum(seconds[kBullet]);
    const double single = bullet / minimum(seconds[kAnalytic]),
                 batch = bullet / minimum(seconds[kBatchOneThread]);
    const double cores = minimum(seconds[kBatchOneThread]) / minimum(seconds[kBatchAllCores]);
    std::printf(
        "  goals (issue 4), on the minima: at least %.0fx Bullet's rate on one thread (%s): "
        "analytic::rayTest %.2fx %s, batch %.2fx %s; batch on %u cores at least 1.8x its one-thread "
        "rate: %.2fx %s\n\n",
        spec.speedupGoal, spec.goalNote, single, verdict(single >= spec.speedupGoal), batch,
        verdict(batch >= spec.speedupGoal), std::max(1u, std::thread::hardware_concurrency()), cores,
        verdict(cores >= 1.8));
}

void runScenes(bool sceneP, bool sceneM, int repetitions) {
    const analytic::bench::BenchScenes scenes = analytic::bench::generateBenchScenes();
    if (sceneP) {
        const auto scene = analytic::bench::makeSceneP(scenes.objectsP);
        runScene({"Scene P: 10,000 primitives and a plane", "rays, scene P", 59'853, 12, "about 2 M rays/s"},
                 scene->world(), toBulletRays(scenes.raysP), repetitions);
    }
    if (sceneM) {
        analytic::bench::TerrainMesh terrain;
        const auto scene = analytic::bench::makeSceneM(terrain);
        runScene(
            {"Scene M: terrain mesh, 131,072 triangles", "rays, scene M", 59'437, 4, "about 4.5 M rays/s"},
            scene->world(), toBulletRays(scenes.raysM), repetitions);
    }
}

// ------------------------------------------------------------------------------------------------
// Per shape.

constexpr int kShapeRayCount = 64;

// A segment from -> to, also in the core's form; triangle: for the mesh, the triangle it is aimed at.
struct ShapeRay {
    btVector3 from;
    btVector3 to;
    analytic::RayPath<Scalar> ray;
    int triangle = 0;
};

// A shape at a random place and attitude, and the rays cast at it, drawn in the shape's own frame.
struct ShapeCase {
    std::unique_ptr<btTriangleMesh> meshTriangles;  // the mesh's storage; null for the other shapes
    std::unique_ptr<btCollisionShape> shape;
    btTransform transform;
    std::vector<ShapeRay> rays;
};

using analytic::test::Random;

Scalar uniform(Random& random, double low, double high) { return Scalar(random.uniform(low, high)); }

btVector3 uniformIn(Random& random, const btVector3& halfExtents) {
    const Scalar x = uniform(random, -halfExtents.x(), halfExtents.x());
    const Scalar y = uniform(random, -halfExtents.y(), halfExtents.y());
    return {x, y, uniform(random, -halfExtents.z(), halfExtents.z())};
}

btVector3 unitVector(Random& random) { return analytic::toBullet(random.unitVector<Scalar>()); }

// kShapeRayCount rays, each from localOrigin(aim) through a point aim = localAim(random) inside the shape
// (or on its surface) to as far again past it by half, all in the shape's frame.
template <class LocalAim, class LocalOrigin>
ShapeCase placeShape(std::uint64_t seed, std::unique_ptr<btCollisionShape> shape, LocalAim localAim,
                     LocalOrigin localOrigin) {
    Random random(seed);
    ShapeCase shapeCase;
    shapeCase.shape = std::move(shape);
    shapeCase.transform =
        analytic::test::transformOf(random.rotation<Scalar>(), analytic::toBullet(random.point<Scalar>(10)));
    for (int i = 0; i < kShapeRayCount; ++i) {
        ShapeRay ray;
        const btVector3 aim = localAim(random, ray.triangle);
        const btVector3 origin = localOrigin(random, aim);
        ray.from = shapeCase.transform * origin;
        ray.to = shapeCase.transform * (aim + Scalar(0.5) * (aim - origin));
        ray.ray = analytic::segmentRay(analytic::toGlm(ray.from), analytic::toGlm(ray.to));
        shapeCase.rays.push_back(ray);
    }
    return shapeCase;
}

// From 3 to 8 away from the aim point, in any direction: outside the shapes below.
btVector3 originAround(Random& random, const btVector3& aim) {
    return aim + uniform(random, 3, 8) * unitVector(random);
}

// Above the surface (local +Y), up to 45 degrees from its normal.
btVector3 originAbove(Random& random, const btVector3& aim) {
    const Scalar height = uniform(random, 1, 5);
    return aim + btVector3(uniform(random, -height, height), height, uniform(random, -height, height));
}

ShapeCase sphereCase() {
    return placeShape(
        41, std::make_unique<btSphereShape>(Scalar(1)),
        [](Random& random, int&) { return uniform(random, 0, 0.9) * unitVector(random); }, originAround);
}

ShapeCase boxCase() {
    const btVector3 halfExtents(1, Scalar(0.6), Scalar(0.8));
    return placeShape(
        42, std::make_unique<btBoxShape>(halfExtents),
        [halfExtents](Random& random, int&) { return uniformIn(random, Scalar(0.9) * halfExtents); },
        originAround);
}

// A capsule and a cylinder along local Y, radius 0.5, half height 1 (the capsule's cylinder part).
btVector3 nearYAxis(Random& random, Scalar halfHeight) {
    return uniformIn(random, btVector3(Scalar(0.3), halfHeight, Scalar(0.3)));
}

ShapeCase capsuleCase() {
    return placeShape(
        43, std::make_unique<btCapsuleShape>(Scalar(0.5), Scalar(2)),
        [](Random& random, int&) { return nearYAxis(random, Scalar(1.2)); }, originAround);
}

ShapeCase cylinderCase() {
    return placeShape(
        44, std::make_unique<btCylinderShape>(btVector3(Scalar(0.5), 1, Scalar(0.5))),
        [](Random& random, int&) { return nearYAxis(random, Scalar(0.9)); }, originAround);
}

// A cone along local Y, radius 0.5, height 2 (apex at y = 1), with Bullet's default margin, aimed at
// points of its axis' neighbourhood inside it.
ShapeCase coneCase() {
    return placeShape(
        48, std::make_unique<btConeShape>(Scalar(0.5), Scalar(2)),
        [](Random& random, int&) {
            return btVector3(uniform(random, -0.1, 0.1), uniform(random, -0.9, 0.5),
                             uniform(random, -0.1, 0.1));
        },
        originAround);
}

ShapeCase planeCase() {
    return placeShape(
        45, std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), Scalar(0)),
        [](Random& random, int&) { return btVector3(uniform(random, -5, 5), 0, uniform(random, -5, 5)); },
        originAbove);
}

// A convex hull of 20 points on the unit sphere, with its polyhedral features (its faces, which our cast
// needs), aimed at within 0.3 of its centre (inside it).
ShapeCase hullCase() {
    auto hull = std::make_unique<btConvexHullShape>();
    Random points(46);
    for (int i = 0; i < 20; ++i)
        hull->addPoint(unitVector(points), false);
    hull->recalcLocalAabb();
    hull->initializePolyhedralFeatures();
    return placeShape(
        47, std::move(hull),
        [](Random& random, int&) { return uniform(random, 0, 0.3) * unitVector(random); }, originAround);
}

// The hull's face planes in the world, each moved out by the margin (the solid our cast meets).
std::vector<analytic::Plane<Scalar>> placedHullPlanes(const btConvexHullShape& hull,
                                                      const btTransform& transform) {
    std::vector<analytic::Plane<Scalar>> planes;
    const btConvexPolyhedron& polyhedron = *hull.getConvexPolyhedron();
    for (int i = 0; i < polyhedron.m_faces.size(); ++i) {
        const Scalar* plane = polyhedron.m_faces[i].m_plane;
        const btVector3 normal = transform.getBasis() * btVector3(plane[0], plane[1], plane[2]);
        planes.push_back(
            {analytic::toGlm(normal), hull.getMargin() - plane[3] + normal.dot(transform.getOrigin())});
    }
    return planes;
}

// A 2 x 2 grid of cells of side 1 with gentle heights, two triangles per cell, normals up: 8 triangles.
constexpr int kMeshCells = 2;

btVector3 meshVertex(int i, int j) {
    return {Scalar(i - 1), Scalar(0.2 * std::sin(i + 2.0 * j)), Scalar(j - 1)};
}

std::vector<std::array<btVector3, 3>> meshTriangles() {
    std::vector<std::array<btVector3, 3>> triangles;
    for (int j = 0; j < kMeshCells; ++j)
        for (int i = 0; i < kMeshCells; ++i) {
            const btVector3 a = meshVertex(i, j), b = meshVertex(i + 1, j), c = meshVertex(i, j + 1),
                            d = meshVertex(i + 1, j + 1);
            triangles.push_back({a, c, b});
            triangles.push_back({b, c, d});
        }
    return triangles;
}

ShapeCase meshCase() {
    auto storage = std::make_unique<btTriangleMesh>();
    const auto triangles = meshTriangles();
    for (const auto& [a, b, c] : triangles)
        storage->addTriangle(a, b, c);
    auto shape = std::make_unique<btBvhTriangleMeshShape>(storage.get(), true);
    // Aimed at a random inner point (barycentric weights of at least 0.05) of a random triangle.
    const auto aim = [&triangles](Random& random, int& triangle) {
        triangle = int(random.uniform(0, double(triangles.size())));
        const Scalar u = uniform(random, 0.05, 0.9);
        const Scalar v = uniform(random, 0.05, 0.95 - u);
        const auto& [a, b, c] = triangles[std::size_t(triangle)];
        return a + u * (b - a) + v * (c - a);
    };
    ShapeCase shapeCase = placeShape(46, std::move(shape), aim, originAbove);
    shapeCase.meshTriangles = std::move(storage);
    return shapeCase;
}

// The mesh's triangles where the shape case puts them, in the core's form.
std::vector<analytic::Triangle<Scalar>> placedMeshTriangles(const btTransform& transform) {
    std::vector<analytic::Triangle<Scalar>> placed;
    for (const auto& [a, b, c] : meshTriangles())
        placed.push_back(
            {analytic::toGlm(transform * a), analytic::toGlm(transform * b), analytic::toGlm(transform * c)});
    return placed;
}

// A shape case with the world that holds it alone, and Bullet's single-object ray cast on it.
class ShapeBench {
public:
    explicit ShapeBench(ShapeCase shapeCase) : case_(std::move(shapeCase)) {
        scene_.addStatic(*case_.shape, case_.transform);
        scene_.world().updateAabbs();
        object_.setCollisionShape(case_.shape.get());
        object_.setWorldTransform(case_.transform);
    }

    const ShapeCase& shapeCase() const { return case_; }

    bool bulletSingle(const ShapeRay& ray) {
        btCollisionWorld::ClosestRayResultCallback callback(ray.from, ray.to);
        const btTransform from(btMatrix3x3::getIdentity(), ray.from), to(btMatrix3x3::getIdentity(), ray.to);
        btCollisionWorld::rayTestSingle(from, to, &object_, case_.shape.get(), case_.transform, callback);
        return callback.hasHit();
    }

    bool world(Side side, const ShapeRay& ray) {
        btCollisionWorld::ClosestRayResultCallback callback(ray.from, ray.to);
        castRay(side, scene_.world(), ray.from, ray.to, callback);
        return callback.hasHit();
    }

private:
    ShapeCase case_;
    StaticScene<> scene_;
    btCollisionObject object_;
};

enum class Path { BulletSingle, BulletWorld, Analytic, Bare };
constexpr Path kPaths[] = {Path::BulletSingle, Path::BulletWorld, Path::Analytic, Path::Bare};

const char* pathName(Path path) {
    switch (path) {
        case Path::BulletSingle:
            return "BulletRayTestSingle";
        case Path::BulletWorld:
            return "BulletRayTest";
        case Path::Analytic:
            return "AnalyticRayTest";
        case Path::Bare:
            return "Bare";
    }
    return "";
}

std::string benchmarkName(const std::string& shape, Path path) {
    return "BM_" + shape + "/" + pathName(path);
}

// The shapes in registration order, for the summary.
std::vector<std::string>& shapeNames() {
    static std::vector<std::string> names;
    return names;
}

void timeRays(benchmark::State& state, const std::vector<ShapeRay>& rays, auto kernel) {
    analytic::bench::timeHitOrMiss(state, rays, kernel, "ns_per_ray");
}

// Registers the four paths of one shape; bare(ray) is the core's test on the placed primitive.
template <class Bare> void registerShape(const char* name, ShapeCase shapeCase, Bare bare) {
    static std::vector<std::unique_ptr<ShapeBench>> benches;  // one per instantiation: one per shape
    ShapeBench& bench = *benches.emplace_back(std::make_unique<ShapeBench>(std::move(shapeCase)));
    shapeNames().push_back(name);
    for (const Path path : kPaths)
        benchmark::RegisterBenchmark(
            benchmarkName(name, path).c_str(),
            [&bench, bare, path](benchmark::State& state) {
                const auto& rays = bench.shapeCase().rays;
                switch (path) {
                    case Path::BulletSingle:
                        return timeRays(state, rays,
                                        [&](const ShapeRay& ray) { return bench.bulletSingle(ray); });
                    case Path::BulletWorld:
                        return timeRays(state, rays,
                                        [&](const ShapeRay& ray) { return bench.world(kBullet, ray); });
                    case Path::Analytic:
                        return timeRays(state, rays,
                                        [&](const ShapeRay& ray) { return bench.world(kAnalytic, ray); });
                    case Path::Bare:
                        return timeRays(state, rays, bare);
                }
            })
            ->ComputeStatistics("min",
                                [](const std::vector<double>& values) {
                                    return *std::min_element(values.begin(), values.end());
                                })
            ->Unit(benchmark::kNanosecond);
}

template <class Shape> const Shape& shapeOf(const ShapeCase& shapeCase) {
    return static_cast<const Shape&>(*shapeCase.shape);
}

void registerShapes() {
    {
        ShapeCase c = sphereCase();
        const auto sphere = analytic::toSphere(shapeOf<btSphereShape>(c), c.transform);
        registerShape("Sphere", std::move(c),
                      [sphere](const ShapeRay& r) { return analytic::intersectRaySphere(r.ray, sphere); });
    }
    {
        ShapeCase c = boxCase();
        const auto box = analytic::toObb(shapeOf<btBoxShape>(c), c.transform);
        registerShape("RotatedBox", std::move(c),
                      [box](const ShapeRay& r) { return analytic::intersectRayObb(r.ray, box); });
    }
    {
        ShapeCase c = capsuleCase();
        const auto capsule = analytic::toCapsule(shapeOf<btCapsuleShape>(c), c.transform);
        registerShape("Capsule", std::move(c),
                      [capsule](const ShapeRay& r) { return analytic::intersectRayCapsule(r.ray, capsule); });
    }
    {
        ShapeCase c = cylinderCase();
        const auto cylinder = analytic::toCylinder(shapeOf<btCylinderShape>(c), c.transform);
        registerShape("Cylinder", std::move(c), [cylinder](const ShapeRay& r) {
            return analytic::intersectRayCylinder(r.ray, cylinder);
        });
    }
    {
        ShapeCase c = coneCase();
        const auto cone = analytic::toRoundedCone(shapeOf<btConeShape>(c), c.transform);
        registerShape("Cone", std::move(c),
                      [cone](const ShapeRay& r) { return analytic::intersectRayRoundedCone(r.ray, cone); });
    }
    {
        ShapeCase c = planeCase();
        const auto plane = analytic::toPlane(shapeOf<btStaticPlaneShape>(c), c.transform);
        registerShape("StaticPlane", std::move(c), [plane](const ShapeRay& r) {
            // The whole result, kept only for a hit (the ray never lies in the plane here).
            auto intersection = analytic::intersectRayPlane(r.ray, plane);
            if (intersection && intersection->outcome != analytic::RayPlaneOutcome::Hit) intersection.reset();
            return intersection;
        });
    }
    {
        ShapeCase c = hullCase();
        const auto planes = placedHullPlanes(shapeOf<btConvexHullShape>(c), c.transform);
        registerShape("Hull20", std::move(c), [planes](const ShapeRay& r) {
            return analytic::intersectRayConvexPlanes<Scalar>(r.ray, planes);
        });
    }
    {
        ShapeCase c = meshCase();
        const auto triangles = placedMeshTriangles(c.transform);
        registerShape("MeshTriangle", std::move(c), [triangles](const ShapeRay& r) {
            return analytic::intersectRayTriangle(r.ray, triangles[std::size_t(r.triangle)]);
        });
    }
}

struct Figures {
    double medianNanoseconds = 0;  // per ray
    double minNanoseconds = 0;
    double hitFraction = 0;
};

// The console's report, and the figures of each benchmark kept for the summary: the median and minimum
// over repetitions, or the single run's.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
    // Colours only on a terminal (a reporter of one's own does not get the --benchmark_color choice).
    SummaryReporter() : ConsoleReporter(isatty(fileno(stdout)) ? OO_ColorTabular : OO_Tabular) {}

    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.error_occurred) continue;
            Figures& figures = figures_[run.run_name.function_name];
            // CPU time, as the scenes' (the machine may be shared); an iteration casts every ray.
            const double nanoseconds = run.GetAdjustedCPUTime() / kShapeRayCount;
            const bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
            if (single || run.aggregate_name == "median") {
                figures.medianNanoseconds = nanoseconds;
                figures.hitFraction = run.counters.at("hit_fraction");
            }
            if (single || run.aggregate_name == "min") figures.minNanoseconds = nanoseconds;
        }
    }

    // Goals are judged on the minima: on a shared machine they vary least with the load.
    void printSummary() const {
        std::printf(
            "\nns per ray over %d rays that mostly hit, median [min] over repetitions; hits: fraction of the "
            "rays hit (Bullet single / ours / bare)\n%-12s %17s %17s %17s %17s %8s %8s  %-14s  %s\n",
            kShapeRayCount, "shape", "Bullet single", "Bullet rayTest", "ours rayTest", "bare", "B1/ours",
            "ours/bare", "hits", "goal (issue 4): ours within 3x of bare, on the minima");
        for (const std::string& shape : shapeNames()) {
            std::map<Path, Figures> f;
            for (const Path path : kPaths) {
                const auto found = figures_.find(benchmarkName(shape, path));
                if (found != figures_.end()) f[path] = found->second;
            }
            if (f.size() != std::size(kPaths)) continue;
            const Figures &single = f[Path::BulletSingle], &world = f[Path::BulletWorld],
                          &ours = f[Path::Analytic], &bare = f[Path::Bare];
            const double oursOverBare = ours.minNanoseconds / bare.minNanoseconds;
            std::printf(
                "%-12s %7.1f [%7.1f] %7.1f [%7.1f] %7.1f [%7.1f] %7.1f [%7.1f] %7.1fx %8.2fx  %.2f/%.2f/%.2f "
                " "
                "%s\n",
                shape.c_str(), single.medianNanoseconds, single.minNanoseconds, world.medianNanoseconds,
                world.minNanoseconds, ours.medianNanoseconds, ours.minNanoseconds, bare.medianNanoseconds,
                bare.minNanoseconds, single.minNanoseconds / ours.minNanoseconds, oursOverBare,
                single.hitFraction, ours.hitFraction, bare.hitFraction, verdict(oursOverBare <= 3));
            // The same call on the same world on both sides: Bullet's rayTest against ours.
            analytic::bench::recordRatio("ray per shape", shape, "ns per ray, median",
                                         analytic::bench::Better::Lower, world.medianNanoseconds,
                                         ours.medianNanoseconds);
        }
        std::printf(
            "Bullet single: btCollisionWorld::rayTestSingle on the object; Bullet rayTest, ours rayTest: on "
            "a "
            "world holding only it;\nbare: the geometry core's test on the placed primitive (the mesh: on "
            "the "
            "triangle aimed at); ratios on the minima\n");
    }

private:
    std::map<std::string, Figures> figures_;
};

void runShapes(std::vector<char*> arguments) {
    // Defaults first, so that flags given on the command line win.
    std::vector<std::string> defaults{"--benchmark_repetitions=5", "--benchmark_min_time=0.1",
                                      "--benchmark_enable_random_interleaving=true",
                                      "--benchmark_display_aggregates_only=true"};
    for (std::string& flag : defaults)
        arguments.insert(arguments.begin() + 1, flag.data());
    int count = int(arguments.size());
    benchmark::Initialize(&count, arguments.data());
    if (benchmark::ReportUnrecognizedArguments(count, arguments.data())) std::exit(2);
    registerShapes();
    SummaryReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    reporter.printSummary();
    benchmark::Shutdown();
}

}  // namespace

int main(int argc, char** argv) {
    int repetitions = 5;
    bool scenes = true, shapes = true, sceneP = true, sceneM = true;
    std::vector<char*> benchmarkArguments{argv[0]};
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.rfind("--repetitions=", 0) == 0) {
            repetitions = parsePositive(argv[i] + std::strlen("--repetitions="), "--repetitions");
        } else if (argument == "--scene=P" || argument == "--scene=M") {
            sceneP = argument == "--scene=P";
            sceneM = !sceneP;
        } else if (argument == "--part=scenes" || argument == "--part=shapes") {
            scenes = argument == "--part=scenes";
            shapes = !scenes;
        } else if (argument.rfind("--benchmark_", 0) == 0) {
            benchmarkArguments.push_back(argv[i]);
        } else {
            std::fprintf(
                stderr,
                "usage: %s [--part=scenes|shapes] [--scene=P|M] [--repetitions=N] [--benchmark_...]\n",
                argv[0]);
            return 2;
        }
    }
    std::printf(
        "Bullet %s precision (Debian's library, generic x86-64); our code compiled for %s. Times are the\n"
        "calling thread's CPU time (the machine may be shared), the batch on all cores' wall-clock time.\n\n",
        bulletScalar(), instructionSet());
    if (scenes) runScenes(sceneP, sceneM, repetitions);
    if (shapes) runShapes(benchmarkArguments);
    return 0;
}
