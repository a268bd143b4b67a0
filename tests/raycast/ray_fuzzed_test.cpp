// SPDX-License-Identifier: Zlib
// The ray entry points (analytic::rayTest, rayTestBatch, rayTestBatchAllHits, BatchCache) on the inputs a
// fuzzer found them failing on (issue 16), each checked with the checks of support/ray_checks.hpp (valid
// hits, batches as rayTest) and for its own answer: heightfields and scaled meshes squashed to slivers,
// boxes whose area is inf * 0, rays beyond float's range or near the largest double, subnormal shapes
// under rays 1e9 long, btTriangleShape under long rays, one cache used with two worlds.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "cast/wide_bvh.hpp"
#include "support/grid_mesh.hpp"
#include "support/ray_checks.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

constexpr bool doubleBuild = sizeof(btScalar) == sizeof(double);
// A subnormal of the build's scalar.
const btScalar subnormal = doubleBuild ? btScalar(1e-310) : btScalar(1e-40);
constexpr btScalar infinity = std::numeric_limits<btScalar>::infinity();
constexpr btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();

// A 6 x 6 heightfield of hills between 0 and 4 (local origin at height 2), up axis upAxis.
btHeightfieldTerrainShape& makeTerrain(OwningWorld& scene, int upAxis) {
    std::vector<float>& heights = scene.makeHeights(36, 0);
    for (std::size_t i = 0; i < heights.size(); ++i)
        heights[i] = float(i % 5);
    return scene.makeShape<btHeightfieldTerrainShape>(6, 6, heights.data(), btScalar(0), btScalar(4), upAxis,
                                                      false);
}

// Rays across a heightfield squashed to a sliver on one grid axis (a subnormal scaling, or 1e-30 under
// rays 1e9 long): the grid walk divided by the scaling, its cell index became INT_MIN and the height
// array was read out of bounds. Where the segment's grid coordinates overflow (the subnormal scalings, and
// 1e-30 under the long rays in float), its cells cannot be told apart: no hit, as Bullet's. Elsewhere the
// sliver is a wall the rays cross: a hit is on it.
TEST(RayFuzzed, HeightfieldSquashedToASliver) {
    for (const btScalar tiny : {subnormal, btScalar(1e-30)}) {
        for (int upAxis = 0; upAxis < 3; ++upAxis) {
            for (int squashed = 0; squashed < 3; ++squashed) {
                if (squashed == upAxis) continue;
                SCOPED_TRACE(::testing::Message()
                             << "scaling " << tiny << " on axis " << squashed << ", up axis " << upAxis);
                OwningWorld scene;
                btHeightfieldTerrainShape& terrain = makeTerrain(scene, upAxis);
                btVector3 scaling(1, 1, 1);
                scaling[squashed] = tiny;
                terrain.setLocalScaling(scaling);
                scene.add(terrain, translation(0, 0, 0));
                scene.world().updateAabbs();
                std::vector<Ray> rays;
                for (const btScalar length : {btScalar(6), btScalar(1e9)}) {
                    // Across the sliver, at heights inside the hills.
                    btVector3 from(0, 0, 0), to(0, 0, 0);
                    from[squashed] = -length / 2;
                    to[squashed] = length / 2;
                    from[upAxis] = to[upAxis] = btScalar(0.5);
                    const int other = 3 - upAxis - squashed;
                    from[other] = btScalar(-0.7);
                    to[other] = btScalar(0.9);
                    rays.push_back({from, to});
                    rays.push_back({to, from});
                }
                const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
                for (std::size_t i = 0; i < rays.size(); ++i) {
                    const btScalar length = (rays[i].to - rays[i].from).length();
                    const bool overflows = !std::isfinite(length / tiny);
                    if (overflows) {
                        EXPECT_EQ(hits[i].object, nullptr) << "ray " << i;
                    }
                    if (!hits[i].object) continue;
                    // On the sliver, within the rounding of the point on the segment.
                    const btScalar rounding = 8 * std::numeric_limits<btScalar>::epsilon() * length;
                    EXPECT_LE(std::abs(hits[i].point[squashed]), 3 * tiny + rounding) << "ray " << i;
                    EXPECT_NEAR(hits[i].point[upAxis], 0.5, 1e-3 + rounding) << "ray " << i;
                }
            }
        }
    }
}

// A mesh with a vertex at +infinity, and objects placed at infinity or NaN, have boxes whose area is
// inf * 0 = NaN: the batch tree's fold never split such a node and recursed until the stack overflowed.
// The other objects are still hit (the NaN of Bullet's boxes reaches some nodes of its broadphase tree,
// which rayTest's walk then took as unmet), and the batches give rayTest's answers.
TEST(RayFuzzed, BoxesOfNaNAreaBuildATree) {
    OwningWorld scene;
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(3, 3, 1, btVector3(0, 0, 0));
    mesh.coordinates(0)[0] = infinity;  // vertex (0, 0)
    auto& shape = scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true);
    scene.add(shape, translation(0, 0, 0));
    btSphereShape& sphere = scene.makeShape<btSphereShape>(btScalar(1));
    scene.add(sphere, translation(infinity, 0, 0));
    scene.add(sphere, translation(0, -infinity, 5));
    scene.add(sphere, translation(nan, 0, 0));
    scene.add(sphere, translation(10, 0, 0));
    scene.world().updateAabbs();
    const std::vector<Ray> rays{{btVector3(2.5, 5, 2.5), btVector3(2.5, -5, 2.5)},
                                {btVector3(10, 5, 0), btVector3(10, -5, 0)},
                                {btVector3(-20, 0, 0), btVector3(20, 0, 0)}};
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    EXPECT_NE(hits[1].object, nullptr);  // the sphere at x = 10
}

// The tree itself over boxes of area inf * 0 (a side between equal infinite bounds, an infinite side
// beside one of length 0) and boxes of NaN: fold never opened such a node and recursed until the stack
// overflowed. The finite boxes are still found.
TEST(RayFuzzed, TreeOverBoxesOfNaNArea) {
    const Vec3<btScalar> zero(0);
    std::vector<Aabb<btScalar>> boxes;
    for (int i = 0; i < 12; ++i) {
        const btScalar x = btScalar(3 * i);
        boxes.push_back({Vec3<btScalar>(x, 0, 0), Vec3<btScalar>(x + 1, 1, 1)});
        Aabb<btScalar> odd{zero, Vec3<btScalar>(infinity, 0, btScalar(i))};  // inf x 0, inf x i
        if (i % 3 == 1) odd = {Vec3<btScalar>(-infinity, x, 0), Vec3<btScalar>(infinity, x, 0)};
        if (i % 3 == 2) odd = {Vec3<btScalar>(infinity, 0, 0), Vec3<btScalar>(infinity, 1, nan)};
        boxes.push_back(odd);
    }
    for (const unsigned threads : {1u, 2u}) {
        const cast::WideBvh tree(boxes, 100, threads);
        for (int i = 0; i < 12; ++i) {
            const Vec3<btScalar> origin(btScalar(3 * i) + btScalar(0.5), 5, btScalar(0.5)),
                direction(0, -10, 0);
            std::vector<std::size_t> met;
            tree.walk(
                cast::WideBvh::lanesOf(origin, direction), [] { return btScalar(1); },
                [&](std::size_t item) {
                    met.push_back(std::size_t(tree.order()[item]));
                    return true;
                });
            EXPECT_NE(std::find(met.begin(), met.end(), std::size_t(2 * i)), met.end()) << "box " << 2 * i;
        }
    }
}

// In the double build the batch's tree works in float: rays with coordinates beyond float's range
// (1e39) missed what rayTest hits, and rays near 1e308 sent the walk back to its root through empty
// child slots until its stack overran. Rays near the scalar's largest value: no crash, batches as rayTest.
TEST(RayFuzzed, RaysBeyondFloatsRangeAreCastAsByRayTest) {
    OwningWorld scene;
    btSphereShape& sphere = scene.makeShape<btSphereShape>(btScalar(1));
    btBoxShape& box = scene.makeShape<btBoxShape>(btVector3(1, 2, 3));
    for (int i = 0; i < 40; ++i)
        scene.add(i % 2 ? static_cast<btCollisionShape&>(sphere) : box,
                  translation(btScalar(i % 7) * 3, btScalar(i / 7) * 3, 0));
    scene.world().updateAabbs();
    const btScalar largest = std::numeric_limits<btScalar>::max();
    // Each reach in a batch of its own: the tree is grown for the batch's farthest ray.
    std::vector<btScalar> reaches{btScalar(1e38), btScalar(largest / 2), btScalar(largest / 4)};
    if (doubleBuild) reaches.insert(reaches.end(), {btScalar(1e39), btScalar(1e100), btScalar(1e300)});
    for (const btScalar far : reaches) {
        SCOPED_TRACE(::testing::Message() << "coordinates " << far);
        const std::vector<Ray> rays{{btVector3(-far, 0, 0), btVector3(far, 0, 0)},
                                    {btVector3(far, 3, 0), btVector3(0, 3, 0)},
                                    {btVector3(0, 0, far), btVector3(0, 0, -far)},
                                    {btVector3(-far, -far, 0), btVector3(far, far, 0)},
                                    {btVector3(3, 3, 5), btVector3(3, 3, -far)}};
        const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
        // Beyond float's range, well within double's: the spheres and boxes are hit.
        if (doubleBuild && far <= btScalar(1e100)) {
            EXPECT_NE(hits[0].object, nullptr);
            EXPECT_NE(hits[4].object, nullptr);
        }
    }
}

// Shapes of subnormal size (sphere and capsule radius, box half extent, ellipsoid radius, a mesh scaled
// to nothing) under rays 1e9 long crashed the batch's walk as above. Nothing hit is not there.
TEST(RayFuzzed, SubnormalShapesUnderLongRays) {
    OwningWorld scene;
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(2, 2, 1, btVector3(-1, 0, -1));
    auto& bvh = scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true);
    std::vector<btCollisionShape*> shapes{
        &scene.makeShape<btSphereShape>(subnormal), &scene.makeShape<btCapsuleShape>(subnormal, btScalar(1)),
        &scene.makeShape<btBoxShape>(btVector3(subnormal, 1, 1)),
        &scene.makeShape<EllipsoidShape>(btVector3(subnormal, 1, 1)),
        &scene.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(subnormal, subnormal, subnormal))};
    for (std::size_t i = 0; i < shapes.size(); ++i)
        scene.add(*shapes[i], translation(btScalar(i) * 5, 0, 0));
    scene.world().updateAabbs();
    std::vector<Ray> rays;
    Random random(7);
    for (std::size_t i = 0; i < shapes.size(); ++i) {
        const btVector3 centre(btScalar(i) * 5, 0, 0);
        for (int k = 0; k < 20; ++k) {
            const Vec3<double> direction = random.unitVector<double>();
            const btVector3 along(btScalar(direction.x * 5e8), btScalar(direction.y * 5e8),
                                  btScalar(direction.z * 5e8));
            const btVector3 offset =
                k < 4 ? btVector3(0, 0, 0) : btVector3(0, btScalar(random.uniform(-1, 1)), 0);
            rays.push_back({centre + offset - along, centre + offset + along});
        }
    }
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    for (std::size_t r = 0; r < rays.size(); ++r) {
        if (!hits[r].object) continue;
        // On the shape's box, grown by the rounding of the ray's coordinates.
        btVector3 low, high;
        hits[r].object->getCollisionShape()->getAabb(hits[r].object->getWorldTransform(), low, high);
        const btScalar slack = btScalar(1e9) * 8 * std::numeric_limits<btScalar>::epsilon();
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_GE(hits[r].point[axis], low[axis] - slack) << "ray " << r;
            EXPECT_LE(hits[r].point[axis], high[axis] + slack) << "ray " << r;
        }
    }
}

// A mesh scaled by (subnormal, 1, 1) was hit with normal (NaN, NaN, NaN): the triangle's normal through
// the inverse scaling, 0 * inf. A ray through the sliver hits it square on, with the squashed grid's
// normal; others pass by.
TEST(RayFuzzed, MeshScaledToASliverHasFiniteNormals) {
    OwningWorld scene;
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(2, 2, 1, btVector3(-1, 0, -1));
    auto& bvh = scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true);
    auto& scaled = scene.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(subnormal, 1, 1));
    scene.add(scaled, translation(0, 0, 0));
    scene.world().updateAabbs();
    const std::vector<Ray> rays{{btVector3(0, 5, 0), btVector3(0, -5, 0)},
                                {btVector3(0, -5, btScalar(0.5)), btVector3(0, 5, btScalar(0.5))},
                                {btVector3(1, 5, 0), btVector3(1, -5, 0)},
                                {btVector3(-1, 5, 0), btVector3(1, -5, 0)}};
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    for (std::size_t i = 0; i < 2; ++i) {
        SCOPED_TRACE(i);
        ASSERT_NE(hits[i].object, nullptr);
        EXPECT_EQ(hits[i].fraction, btScalar(0.5));
        EXPECT_EQ(std::abs(hits[i].normal.y()), btScalar(1));
    }
    EXPECT_EQ(hits[2].object, nullptr);
}

// The watertight triangle test with ends near the largest double: the sheared products overflowed and
// the plane's approach was infinite, making t = 0: a false hit at the ray's origin.
TEST(RayFuzzed, TriangleTestNearTheLargestValueHasNoFalseHits) {
    const btScalar largest = std::numeric_limits<btScalar>::max();
    const Triangle<btScalar> triangle{{-1, 0, -1}, {0, 0, 1}, {1, 0, -1}};
    Random random(11);
    int tested = 0;
    for (int i = 0; i < 2000; ++i) {
        const auto coordinate = [&] { return btScalar(random.uniform(-1, 1) * double(largest) * 0.9); };
        const Vec3<btScalar> from(coordinate(), coordinate(), coordinate()),
            to(coordinate(), coordinate(), coordinate());
        const RayPath<btScalar> ray = segmentRay(from, to);
        if (!isValidRay(ray)) continue;
        ++tested;
        const auto hit = intersectRayTriangle(ray, triangle);
        // The triangle is within 2 of the origin; a ray passing it is no nearer than its endpoints allow.
        if (!hit) continue;
        EXPECT_TRUE(std::isfinite(hit->t) && hit->t > 0 && hit->t < 1) << text(ray);
        EXPECT_LE(glm::length(Vec3<long double>(hit->point)), 1e300L) << text(ray);
    }
    EXPECT_GT(tested, 100);
    // Through the world as well: no hit at fraction 0 on a mesh far from the ray's origin.
    OwningWorld scene;
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(2, 2, 1, btVector3(-1, 0, -1));
    scene.add(scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true), translation(0, 0, 0));
    scene.world().updateAabbs();
    std::vector<Ray> rays;
    for (int i = 0; i < 200; ++i) {
        const auto coordinate = [&] { return btScalar(random.uniform(-1, 1) * double(largest) * 0.45); };
        rays.push_back({btVector3(coordinate(), coordinate(), coordinate()), btVector3(0, 0, 0)});
    }
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    for (const ClosestHit& hit : hits) {
        if (hit.object) {
            EXPECT_GT(hit.fraction, btScalar(0.5));
        }
    }
}

// btTriangleShape (cast with Bullet's rayTestSingle) under long rays: Bullet's convex cast returns hits
// far from the triangle; rayTest's broadphase walk culled them, the batch's boxes (grown for the batch's
// longest ray) did not. Bullet is asked only for rays that meet the shape's box, by both.
TEST(RayFuzzed, BulletsShapesAreAskedAsByRayTest) {
    OwningWorld scene;
    auto& triangle =
        scene.makeShape<btTriangleShape>(btVector3(-1, 0, -1), btVector3(0, 0, 1), btVector3(1, 0, -1));
    for (int i = 0; i < 10; ++i)
        scene.add(triangle, translation(btScalar(i) * 4, 0, 0));
    scene.world().updateAabbs();
    Random random(5);
    std::vector<Ray> rays;
    for (int i = 0; i < 400; ++i) {
        const Vec3<double> direction = random.unitVector<double>();
        const double length = random.chance(0.5) ? 1e9 : 1e6;
        const btVector3 through(btScalar(random.uniform(-2, 38)), btScalar(random.uniform(-2, 2)),
                                btScalar(random.uniform(-2, 2)));
        const btVector3 along(btScalar(direction.x * length), btScalar(direction.y * length),
                              btScalar(direction.z * length));
        rays.push_back({through - along, through + along * btScalar(random.uniform(0.001, 1))});
    }
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    for (std::size_t r = 0; r < rays.size(); ++r) {
        if (!hits[r].object) continue;
        btVector3 low, high;
        hits[r].object->getCollisionShape()->getAabb(hits[r].object->getWorldTransform(), low, high);
        const btScalar slack = btScalar(1e9) * 8 * std::numeric_limits<btScalar>::epsilon();
        for (int axis = 0; axis < 3; ++axis) {
            EXPECT_GE(hits[r].point[axis], low[axis] - slack) << "ray " << r;
            EXPECT_LE(hits[r].point[axis], high[axis] + slack) << "ray " << r;
        }
    }
}

// A world of each kind of shape with a mesh, for the cache tests.
void fillWorld(OwningWorld& scene, std::uint64_t seed, int count) {
    Random random(seed);
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    auto& bvh = scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true);
    auto& sphere = scene.makeShape<btSphereShape>(btScalar(random.uniform(0.5, 1.5)));
    auto& box = scene.makeShape<btBoxShape>(btVector3(1, 1, 1));
    for (int i = 0; i < count; ++i) {
        btCollisionShape& shape = i % 3 == 0   ? static_cast<btCollisionShape&>(bvh)
                                  : i % 3 == 1 ? static_cast<btCollisionShape&>(sphere)
                                               : box;
        scene.add(shape, translation(btScalar(random.uniform(-20, 20)), btScalar(random.uniform(-20, 20)),
                                     btScalar(random.uniform(-20, 20))));
    }
    scene.world().updateAabbs();
}

std::vector<Ray> randomRays(std::uint64_t seed, int count) {
    Random random(seed);
    std::vector<Ray> rays;
    for (int i = 0; i < count; ++i) {
        const auto point = [&] {
            return btVector3(btScalar(random.uniform(-25, 25)), btScalar(random.uniform(-25, 25)),
                             btScalar(random.uniform(-25, 25)));
        };
        rays.push_back({point(), point()});
    }
    return rays;
}

void expectAsRayTest(btCollisionWorld& world, std::span<const Ray> rays, BatchCache& cache) {
    const std::vector<ClosestHit> expected = rayTestHits(world, rays);
    std::vector<RayHit> hits(rays.size());
    rayTestBatch(world, rays, hits, {2, &cache});
    for (std::size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(hits[i].object, expected[i].object) << "ray " << i;
        ASSERT_EQ(hits[i].fraction, expected[i].fraction) << "ray " << i;
    }
}

// One BatchCache used with two worlds in turn, then with a third made where the first was: the cache
// notices the other world and builds its trees again, rather than walking the first world's tree with
// the second's objects.
TEST(RayFuzzed, OneCacheWithTwoWorlds) {
    BatchCache cache;
    const std::vector<Ray> rays = randomRays(3, 400);
    auto first = std::make_unique<OwningWorld>();
    fillWorld(*first, 1, 60);
    OwningWorld second;
    fillWorld(second, 2, 25);
    for (int round = 0; round < 2; ++round) {
        expectAsRayTest(first->world(), rays, cache);
        expectAsRayTest(second.world(), rays, cache);
    }
    EXPECT_GE(cache.worldTreeBuilds(), 4u);
    // The same objects' boxes in another world: still that world's objects that are hit.
    OwningWorld twin;
    fillWorld(twin, 2, 25);
    expectAsRayTest(twin.world(), rays, cache);
    expectAsRayTest(second.world(), rays, cache);
    first.reset();
    OwningWorld third;
    fillWorld(third, 1, 60);
    expectAsRayTest(third.world(), rays, cache);
}

// Spans of different sizes: an exception with a message, nothing cast.
TEST(RayFuzzed, SpansOfDifferentSizesAreRefused) {
    OwningWorld scene;
    fillWorld(scene, 4, 10);
    const std::vector<Ray> rays = randomRays(5, 3);
    std::vector<RayHit> tooFew(2), tooMany(4);
    EXPECT_THROW(rayTestBatch(scene.world(), rays, tooFew), std::invalid_argument);
    EXPECT_THROW(rayTestBatch(scene.world(), rays, tooMany), std::invalid_argument);
}

}  // namespace
}  // namespace analytic::test
