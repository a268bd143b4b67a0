// SPDX-License-Identifier: Zlib
// analytic::rayTestBatch and rayTestBatchAllHits (issue 4): every ray's answer is the one analytic::rayTest
// gives it with Bullet's callbacks (filtered by the ray's group and mask, its shooter ignored), whatever
// the number of threads, bit for bit; nothing is kept from one batch to the next but what a BatchCache
// keeps (meshes' trees, the tree over the world's objects), which follows the world.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"
#include "support/grid_mesh.hpp"
#include "support/mixed_world.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

// A world with nothing in it yet, on Bullet's dynamic AABB tree broadphase.
struct EmptyWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    World<btCollisionWorld> world{&dispatcher, &broadphase, &configuration};
};

// What analytic::rayTest reports for a batch ray through Bullet's own ClosestRayResultCallback.
struct SequentialClosest : btCollisionWorld::ClosestRayResultCallback {
    explicit SequentialClosest(const Ray& ray)
        : ClosestRayResultCallback(ray.from, ray.to), ignore(ray.ignore) {
        m_collisionFilterGroup = ray.group;
        m_collisionFilterMask = ray.mask;
    }
    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return proxy->m_clientObject != ignore && ClosestRayResultCallback::needsCollision(proxy);
    }
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        partId = result.m_localShapeInfo ? result.m_localShapeInfo->m_shapePart : -1;
        index = result.m_localShapeInfo ? result.m_localShapeInfo->m_triangleIndex : -1;
        return ClosestRayResultCallback::addSingleResult(result, normalInWorldSpace);
    }
    const btCollisionObject* ignore;
    int partId = -1, index = -1;
};

bool sameBits(const btVector3& a, const btVector3& b) {
    return std::memcmp(&a, &b, 3 * sizeof(btScalar)) == 0;
}

bool sameBits(const RayHit& a, const RayHit& b) {
    return a.object == b.object && std::memcmp(&a.fraction, &b.fraction, sizeof a.fraction) == 0 &&
           sameBits(a.point, b.point) && sameBits(a.normal, b.normal) && a.partId == b.partId &&
           a.index == b.index;
}

// The batch's hit is the sequential one; where two objects are hit at exactly the same fraction (rays
// starting inside two overlapping solids), either is right.
void expectClosestAsSequential(btCollisionWorld& world, const std::vector<Ray>& rays,
                               const std::vector<RayHit>& hits, int& ties) {
    for (std::size_t i = 0; i < rays.size(); ++i) {
        SequentialClosest sequential(rays[i]);
        rayTest(world, rays[i].from, rays[i].to, sequential);
        const RayHit& hit = hits[i];
        ASSERT_EQ(hit.object != nullptr, sequential.hasHit()) << "ray " << i;
        if (!hit.object) continue;
        ASSERT_EQ(hit.fraction, sequential.m_closestHitFraction) << "ray " << i;
        if (hit.object != sequential.m_collisionObject) {
            ++ties;
            continue;
        }
        EXPECT_TRUE(sameBits(hit.point, sequential.m_hitPointWorld)) << "ray " << i;
        EXPECT_TRUE(sameBits(hit.normal, sequential.m_hitNormalWorld)) << "ray " << i;
        EXPECT_EQ(hit.partId, sequential.partId) << "ray " << i;
        EXPECT_EQ(hit.index, sequential.index) << "ray " << i;
    }
}

TEST(RayBatch, ClosestHitsAreRayTestsAndIndependentOfThreads) {
    MixedWorld scene(41);
    std::vector<Ray> rays = scene.randomRays(20000);
    // Per-ray filters and shooters: a third of the rays see group 1 only, a fifth ignore an object.
    for (std::size_t i = 0; i < rays.size(); ++i) {
        if (i % 3 == 0) rays[i].mask = 1;
        if (i % 5 == 0) rays[i].ignore = &scene.object(i % scene.size());
    }
    std::vector<RayHit> hits(rays.size());
    rayTestBatch(scene.world(), rays, hits, {1});
    int ties = 0, hitCount = 0;
    expectClosestAsSequential(scene.world(), rays, hits, ties);
    for (const RayHit& hit : hits)
        hitCount += hit.object != nullptr;
    EXPECT_GT(hitCount, 5000);
    EXPECT_LT(ties, 100);
    for (const unsigned threads : {2u, 3u, 8u, 0u}) {
        std::vector<RayHit> again(rays.size());
        rayTestBatch(scene.world(), rays, again, {threads});
        for (std::size_t i = 0; i < rays.size(); ++i)
            ASSERT_TRUE(sameBits(again[i], hits[i])) << "ray " << i << " with " << threads << " threads";
    }
    std::printf("20000 rays: %d hits, %d ties at equal fractions\n", hitCount, ties);
}

TEST(RayBatch, TheShooterIsIgnoredAndFiltersApplyPerRay) {
    MixedWorld scene(42);
    btSphereShape shooterShape(1);
    btCollisionObject shooter;
    shooter.setCollisionShape(&shooterShape);
    shooter.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 100, 0)));
    btBoxShape targetShape(btVector3(1, 1, 1));
    btCollisionObject target;
    target.setCollisionShape(&targetShape);
    target.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(10, 100, 0)));
    scene.world().addCollisionObject(&shooter, 2, btBroadphaseProxy::AllFilter);
    scene.world().addCollisionObject(&target, 4, btBroadphaseProxy::AllFilter);
    scene.world().updateAabbs();
    const btVector3 from(0, 100, 0), to(20, 100, 0);
    const std::vector<Ray> rays{
        {from, to},
        {from, to, btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter, &shooter},
        {from, to, btBroadphaseProxy::DefaultFilter, 2, nullptr},
        {from, to, btBroadphaseProxy::DefaultFilter, 1, &shooter}};
    std::vector<RayHit> hits(rays.size());
    rayTestBatch(scene.world(), rays, hits);
    EXPECT_EQ(hits[0].object, &shooter);  // starts inside it: a hit at the origin
    EXPECT_EQ(hits[0].fraction, btScalar(0));
    EXPECT_EQ(hits[1].object, &target);  // the shooter ignored: the box at x = 9
    EXPECT_NEAR(double(hits[1].fraction), 0.45, 1e-6);
    EXPECT_NEAR(double(hits[1].normal.x()), -1, 1e-6);
    EXPECT_EQ(hits[2].object, &shooter);  // mask 2: the shooter's group only
    EXPECT_EQ(hits[3].object, nullptr);   // mask 1 and the shooter ignored: nothing on the line
    scene.world().removeCollisionObject(&shooter);
    scene.world().removeCollisionObject(&target);
}

TEST(RayBatch, AllHitsAreAllHitsRayResultCallbacksSorted) {
    MixedWorld scene(43);
    const std::vector<Ray> rays = scene.randomRays(3000);
    AllRayHits all;
    rayTestBatchAllHits(scene.world(), rays, all, {2});
    ASSERT_EQ(all.rayCount(), rays.size());
    std::size_t severalHits = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
        btCollisionWorld::AllHitsRayResultCallback sequential(rays[i].from, rays[i].to);
        rayTest(scene.world(), rays[i].from, rays[i].to, sequential);
        using Key = std::tuple<btScalar, const btCollisionObject*>;
        std::vector<Key> expected, got;
        for (int h = 0; h < sequential.m_collisionObjects.size(); ++h)
            expected.emplace_back(sequential.m_hitFractions[h], sequential.m_collisionObjects[h]);
        const auto hits = all.hitsOf(i);
        ASSERT_TRUE(std::is_sorted(hits.begin(), hits.end(),
                                   [](const RayHit& a, const RayHit& b) { return a.fraction < b.fraction; }));
        for (const RayHit& hit : hits)
            got.emplace_back(hit.fraction, hit.object);
        std::sort(expected.begin(), expected.end());
        std::sort(got.begin(), got.end());
        ASSERT_EQ(got, expected) << "ray " << i;
        severalHits += hits.size() >= 2;
    }
    EXPECT_GT(severalHits, 100u);
    AllRayHits oneThread;
    rayTestBatchAllHits(scene.world(), rays, oneThread, {1});
    for (std::size_t i = 0; i < rays.size(); ++i) {
        const auto a = all.hitsOf(i), b = oneThread.hitsOf(i);
        ASSERT_EQ(a.size(), b.size());
        for (std::size_t h = 0; h < a.size(); ++h)
            ASSERT_TRUE(sameBits(a[h], b[h])) << "ray " << i;
    }
}

TEST(RayBatch, NothingIsKeptBetweenBatches) {
    MixedWorld scene(44);
    btSphereShape sphereShape(1);
    btCollisionObject sphere;
    sphere.setCollisionShape(&sphereShape);
    sphere.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 200, 0)));
    scene.world().addCollisionObject(&sphere);
    scene.world().updateAabbs();
    const std::vector<Ray> rays{{btVector3(-10, 200, 0), btVector3(10, 200, 0)}};
    std::vector<RayHit> hits(1);
    rayTestBatch(scene.world(), rays, hits);
    EXPECT_EQ(hits[0].object, &sphere);
    EXPECT_NEAR(double(hits[0].fraction), 0.45, 1e-6);
    sphere.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(5, 200, 0)));
    scene.world().updateAabbs();
    rayTestBatch(scene.world(), rays, hits);
    EXPECT_NEAR(double(hits[0].fraction), 0.7, 1e-6);
    scene.world().removeCollisionObject(&sphere);
    rayTestBatch(scene.world(), rays, hits);
    EXPECT_EQ(hits[0].object, nullptr);
}

// A static plane square to an axis is met in a batch's tree only within a thin slab around it (Bullet
// gives its box as all of space): segments crossing it, ending or starting on it or within its test's
// tolerance band of it, or stopping just short, get rayTest's answers bit for bit, for every axis,
// both normals and offsets from 0 to 1,000; a tilted plane as well.
TEST(RayBatch, PlanesSquareToAnAxisAreHitAsByRayTest) {
    Random random(49);
    int planeHits = 0, planeMisses = 0;
    for (int axis = 0; axis < 4; ++axis) {  // 3: a tilted plane
        for (const btScalar sign : {btScalar(1), btScalar(-1)}) {
            for (const btScalar offset : {btScalar(0), btScalar(-25), btScalar(1000), btScalar(0.001)}) {
                btVector3 normal(0, 0, 0);
                if (axis < 3)
                    normal[axis] = sign;
                else
                    normal = btVector3(sign, 2, 1).normalized();
                EmptyWorld empty;
                World<btCollisionWorld>& world = empty.world;
                btStaticPlaneShape planeShape(normal, offset);
                btSphereShape sphereShape(1);
                btCollisionObject plane;
                plane.setCollisionShape(&planeShape);
                world.addCollisionObject(&plane);
                std::vector<std::unique_ptr<btCollisionObject>> spheres;  // for a tree with some depth
                for (int i = 0; i < 40; ++i) {
                    spheres.push_back(std::make_unique<btCollisionObject>());
                    spheres.back()->setCollisionShape(&sphereShape);
                    spheres.back()->setWorldTransform(
                        btTransform(btQuaternion::getIdentity(), toBullet(random.point<double>(50))));
                    world.addCollisionObject(spheres.back().get());
                }
                world.updateAabbs();
                // Half the width of the plane test's band of points on the plane, there.
                const btScalar band = defaultPlaneTolerance<btScalar> * 2 * std::abs(offset) /
                                      btScalar(planeShape.getPlaneNormal().length());
                std::vector<Ray> rays;
                for (int k = 0; k < 400; ++k) {
                    // A point of the plane, then an end or origin moved off it by 0, by half the band or
                    // by 3 bands, toward either side, and the other end up to 20 away.
                    btVector3 onPlane = toBullet(random.point<double>(10));
                    onPlane -= (onPlane.dot(normal) - offset) * normal;
                    const btScalar off = std::array<btScalar, 3>{0, band / 2, 3 * band}[std::size_t(k % 3)] *
                                         (random.chance(0.5) ? 1 : -1);
                    const btVector3 near = onPlane + off * normal;
                    const btVector3 far =
                        near + toBullet(random.unitVector<double>() * random.uniform(1, 20));
                    rays.push_back(k % 2 ? Ray{far, near} : Ray{near, far});
                }
                std::vector<RayHit> hits(rays.size());
                rayTestBatch(world, rays, hits, {1});
                for (std::size_t i = 0; i < rays.size(); ++i) {
                    SequentialClosest sequential(rays[i]);
                    rayTest(world, rays[i].from, rays[i].to, sequential);
                    ASSERT_EQ(hits[i].object, sequential.m_collisionObject)
                        << "axis " << axis << ", ray " << i;
                    if (!hits[i].object) continue;
                    EXPECT_EQ(hits[i].fraction, sequential.m_closestHitFraction)
                        << "axis " << axis << ", ray " << i;
                    planeHits += hits[i].object == &plane;
                }
                planeMisses += int(std::count_if(hits.begin(), hits.end(),
                                                 [](const RayHit& hit) { return hit.object == nullptr; }));
            }
        }
    }
    EXPECT_GT(planeHits, 5000);
    EXPECT_GT(planeMisses, 2000);
}

// An object whose box is not a box (a NaN in its transform) is met by no ray of a batch, as by rayTest's,
// and the tree around it still leads to the others.
TEST(RayBatch, AnObjectWithANaNBoxIsNeverHit) {
    EmptyWorld empty;
    World<btCollisionWorld>& scene = empty.world;
    btSphereShape sphereShape(1);
    std::vector<std::unique_ptr<btCollisionObject>> spheres;
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
    for (int i = 0; i < 12; ++i) {
        spheres.push_back(std::make_unique<btCollisionObject>());
        spheres.back()->setCollisionShape(&sphereShape);
        const btVector3 centre =
            i % 4 == 1 ? btVector3(nan, 0, btScalar(i)) : btVector3(0, 0, btScalar(3 * i));
        spheres.back()->setWorldTransform(btTransform(btQuaternion::getIdentity(), centre));
        scene.addCollisionObject(spheres.back().get());
    }
    scene.updateAabbs();
    std::vector<Ray> rays;
    for (int i = 0; i < 12; ++i)
        rays.push_back({btVector3(-10, 0, btScalar(3 * i)), btVector3(10, 0, btScalar(3 * i))});
    std::vector<RayHit> hits(rays.size());
    rayTestBatch(scene, rays, hits);
    for (std::size_t i = 0; i < rays.size(); ++i) {
        SCOPED_TRACE(i);
        EXPECT_EQ(hits[i].object, i % 4 == 1 ? nullptr : spheres[i].get());
        btCollisionWorld::ClosestRayResultCallback single(rays[i].from, rays[i].to);
        rayTest(scene, rays[i].from, rays[i].to, single);
        EXPECT_EQ(hits[i].object, single.m_collisionObject);
    }
}

// An object in the world's list but not in its broadphase (its proxy destroyed) is met by no ray, as by
// Bullet's rayTest; the others keep their answers, with a cache and without, on one thread and two.
TEST(RayBatch, ObjectsOutsideTheBroadphaseAreNeverHit) {
    EmptyWorld empty;
    World<btCollisionWorld>& scene = empty.world;
    btSphereShape sphereShape(1);
    std::vector<std::unique_ptr<btCollisionObject>> spheres;
    for (int i = 0; i < 600; ++i) {  // more than a chunk of the snapshot's objects
        spheres.push_back(std::make_unique<btCollisionObject>());
        spheres.back()->setCollisionShape(&sphereShape);
        spheres.back()->setWorldTransform(btTransform(
            btQuaternion::getIdentity(), btVector3(btScalar(i % 30) * 3, 0, btScalar(i / 30) * 3)));
        scene.addCollisionObject(spheres.back().get());
    }
    scene.updateAabbs();
    const auto outside = [](std::size_t i) { return i % 7 == 2 || i == 0 || i == 599; };
    for (std::size_t i = 0; i < spheres.size(); ++i)
        if (outside(i)) {
            empty.broadphase.destroyProxy(spheres[i]->getBroadphaseHandle(), &empty.dispatcher);
            spheres[i]->setBroadphaseHandle(nullptr);
        }
    std::vector<Ray> rays;  // along each row of spheres, and down onto each sphere
    for (int row = 0; row < 20; ++row)
        rays.push_back({btVector3(-10, 0, btScalar(row * 3)), btVector3(100, 0, btScalar(row * 3))});
    for (std::size_t i = 0; i < spheres.size(); ++i) {
        const btVector3 centre = spheres[i]->getWorldTransform().getOrigin();
        rays.push_back({centre + btVector3(0, 5, 0), centre - btVector3(0, 5, 0)});
    }
    BatchCache cache;
    for (BatchCache* batchCache : {static_cast<BatchCache*>(nullptr), &cache})
        for (const unsigned threads : {1u, 2u}) {
            std::vector<RayHit> hits(rays.size());
            rayTestBatch(scene, rays, hits, {threads, batchCache});
            for (std::size_t r = 0; r < rays.size(); ++r) {
                SCOPED_TRACE(r);
                btCollisionWorld::ClosestRayResultCallback single(rays[r].from, rays[r].to);
                rayTest(scene, rays[r].from, rays[r].to, single);
                EXPECT_EQ(hits[r].object, single.m_collisionObject);
                if (r >= 20) {
                    const std::size_t i = r - 20;
                    EXPECT_EQ(hits[r].object, outside(i) ? nullptr : spheres[i].get());
                }
            }
        }
    for (std::size_t i = 0; i < spheres.size(); ++i)
        scene.removeCollisionObject(spheres[i].get());
}

// With a BatchCache, a batch casts against the meshes' trees of our own, with rayTest's answers; a
// tree is kept while its mesh's data are unchanged and built again when they change in place (refit in
// Bullet's tree or not); a batch drops the trees of the meshes its world no longer holds.
TEST(RayBatch, MeshTreesFollowTheirMeshesData) {
    MixedWorld scene(46);
    BatchCache cache;
    const std::vector<Ray> rays = scene.randomRays(20000);
    std::vector<RayHit> cached(rays.size());
    rayTestBatch(scene.world(), rays, cached, {0, &cache});
    EXPECT_EQ(cache.meshTreeCount(), 15u);  // the world's meshes, each with data of its own
    int ties = 0, meshHits = 0;
    expectClosestAsSequential(scene.world(), rays, cached, ties);
    for (const RayHit& hit : cached)
        meshHits +=
            hit.object && hit.object->getCollisionShape()->getShapeType() == TRIANGLE_MESH_SHAPE_PROXYTYPE;
    EXPECT_GT(meshHits, 500);
    EXPECT_LT(ties, 100);

    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    btBvhTriangleMeshShape shape(&data.array(), true);
    btCollisionObject mesh;
    mesh.setCollisionShape(&shape);
    mesh.setWorldTransform(translation(0, 300, 0));
    scene.world().addCollisionObject(&mesh);
    scene.world().updateAabbs();
    const std::vector<Ray> down{
        {btVector3(btScalar(0.3), 310, btScalar(0.6)), btVector3(btScalar(0.3), 290, btScalar(0.6))}};
    std::vector<RayHit> hit(1);
    const auto castDown = [&] {
        rayTestBatch(scene.world(), down, hit, {1, &cache});
        btCollisionWorld::ClosestRayResultCallback sequential(down[0].from, down[0].to);
        rayTest(scene.world(), down[0].from, down[0].to, sequential);
        EXPECT_EQ(hit[0].object, &mesh);
        EXPECT_EQ(hit[0].fraction, sequential.m_closestHitFraction);
        return double(hit[0].fraction);
    };
    EXPECT_NEAR(castDown(), 0.5, 1e-6);
    EXPECT_EQ(cache.meshTreeCount(), 16u);
    const auto raiseBy = [&](btScalar height) {
        std::vector<btScalar>& coordinates = data.coordinates(0);
        for (std::size_t y = 1; y < coordinates.size(); y += 3)
            coordinates[y] += height;
    };
    raiseBy(1);  // in place, Bullet's tree refit
    shape.refitTree(btVector3(-3, -3, -3), btVector3(3, 3, 3));
    scene.world().updateAabbs();
    EXPECT_NEAR(castDown(), 0.45, 1e-6);
    raiseBy(-2);  // in place, Bullet's tree left as it was: the vertical ray still meets its boxes
    EXPECT_NEAR(castDown(), 0.55, 1e-6);
    EXPECT_EQ(cache.meshTreeCount(), 16u);
    scene.world().removeCollisionObject(&mesh);
    rayTestBatch(scene.world(), down, hit, {1, &cache});
    EXPECT_EQ(hit[0].object, nullptr);
    EXPECT_EQ(cache.meshTreeCount(), 15u);
}

// With a BatchCache, the tree over the world's objects is built once and kept while their boxes stay and
// the rays reach no farther than it covers; the objects' shapes, places and filters are read at every
// batch. Every batch's answers are those of a batch without the cache, bit for bit.
TEST(RayBatch, WorldTreeIsKeptWhileTheBoxesStay) {
    MixedWorld scene(47);
    BatchCache cache;
    std::vector<Ray> rays = scene.randomRays(5000);
    std::vector<RayHit> cached(rays.size()), uncached(rays.size());
    const auto expectAsUncached = [&](std::size_t expectedBuilds, const char* step) {
        rayTestBatch(scene.world(), rays, cached, {1, &cache});
        rayTestBatch(scene.world(), rays, uncached, {1});
        EXPECT_EQ(cache.worldTreeBuilds(), expectedBuilds) << step;
        int hitCount = 0;
        for (std::size_t i = 0; i < rays.size(); ++i) {
            ASSERT_TRUE(sameBits(cached[i], uncached[i])) << step << ", ray " << i;
            hitCount += cached[i].object != nullptr;
        }
        EXPECT_GT(hitCount, 1000) << step;
    };
    expectAsUncached(1, "first batch");
    expectAsUncached(1, "the same world again");
    // All hits through the kept tree: every ray's hits as without the cache.
    AllRayHits allCached, allUncached;
    rayTestBatchAllHits(scene.world(), rays, allCached, {1, &cache});
    rayTestBatchAllHits(scene.world(), rays, allUncached, {1});
    EXPECT_EQ(cache.worldTreeBuilds(), 1u);
    for (std::size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(allCached.hitsOf(i).size(), allUncached.hitsOf(i).size()) << "ray " << i;
        for (std::size_t k = 0; k < allCached.hitsOf(i).size(); ++k)
            ASSERT_TRUE(sameBits(allCached.hitsOf(i)[k], allUncached.hitsOf(i)[k]))
                << "ray " << i << ", hit " << k;
    }
    // A proxy's filter is read afresh: the object drops out of every ray's mask.
    btCollisionObject& filtered = scene.object(3);
    filtered.getBroadphaseHandle()->m_collisionFilterGroup = 1 << 5;
    for (Ray& ray : rays)
        ray.mask = ~(1 << 5);
    expectAsUncached(1, "a filter changed");
    for (const RayHit& hit : cached)
        EXPECT_NE(hit.object, &filtered);
    // An object moved: its box is another, so the tree is built again, and the object is hit where it is.
    btCollisionObject& moved = scene.object(0);
    btTransform transform = moved.getWorldTransform();
    transform.setOrigin(btVector3(0, 45, 0));  // above the others
    moved.setWorldTransform(transform);
    rays.push_back({btVector3(0, 48, 0), btVector3(0, 42, 0)});
    cached.resize(rays.size());
    uncached.resize(rays.size());
    expectAsUncached(2, "an object moved");
    EXPECT_EQ(cached.back().object, &moved);
    // Rays reaching farther than the tree was grown for: built again.
    for (Ray& ray : rays)
        ray.to = ray.from + 4 * (ray.to - ray.from);
    expectAsUncached(3, "longer rays");
    expectAsUncached(3, "longer rays again");
    // An object taken out of the world, then put back.
    scene.world().removeCollisionObject(&scene.object(1));
    expectAsUncached(4, "an object removed");
    scene.world().addCollisionObject(&scene.object(1));
    expectAsUncached(5, "an object added");
}

// Batches on several threads may share one cache (also run under ThreadSanitizer): rays of different
// lengths make some batches build the world's tree again while others walk the one they found.
TEST(RayBatch, BatchesOnSeveralThreadsShareACache) {
    MixedWorld scene(48);
    BatchCache cache;
    std::vector<std::vector<Ray>> batches;
    for (int batch = 0; batch < 4; ++batch) {
        batches.push_back(scene.randomRays(2000));
        for (Ray& ray : batches.back())
            ray.to = ray.from + btScalar(1 + batch) * (ray.to - ray.from);
    }
    std::vector<std::vector<RayHit>> shared(batches.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t batch = 0; batch < batches.size(); ++batch)
            threads.emplace_back([&, batch] {
                for (int round = 0; round < 3; ++round) {
                    shared[batch].assign(batches[batch].size(), RayHit{});
                    rayTestBatch(scene.world(), batches[batch], shared[batch], {1, &cache});
                }
            });
    }
    EXPECT_EQ(cache.meshTreeCount(), 15u);
    for (std::size_t batch = 0; batch < batches.size(); ++batch) {
        std::vector<RayHit> alone(batches[batch].size());
        rayTestBatch(scene.world(), batches[batch], alone, {1});
        for (std::size_t i = 0; i < alone.size(); ++i)
            ASSERT_TRUE(sameBits(shared[batch][i], alone[i])) << "batch " << batch << ", ray " << i;
    }
}

TEST(RayBatch, InvalidInput) {
    MixedWorld scene(45);
    std::vector<Ray> rays(3);
    std::vector<RayHit> tooFew(2);
    EXPECT_THROW(rayTestBatch(scene.world(), rays, tooFew), std::invalid_argument);
    rayTestBatch(scene.world(), {}, {});  // an empty batch is fine
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
    const btScalar infinity = std::numeric_limits<btScalar>::infinity();
    rays = {{btVector3(1, 2, 3), btVector3(1, 2, 3)},
            {btVector3(nan, 0, 0), btVector3(1, 0, 0)},
            {btVector3(0, 0, 0), btVector3(infinity, 0, 0)}};
    std::vector<RayHit> hits(rays.size());
    rayTestBatch(scene.world(), rays, hits);
    for (const RayHit& hit : hits)
        EXPECT_EQ(hit.object, nullptr);
}

// An index past the rays is a clear error, before any batch as after one.
TEST(RayBatch, HitsOfARayThatIsNotThereThrows) {
    AllRayHits all;
    EXPECT_THROW(all.hitsOf(0), std::out_of_range);
    MixedWorld scene(46);
    const std::vector<Ray> rays = scene.randomRays(5);
    rayTestBatchAllHits(scene.world(), rays, all);
    ASSERT_EQ(all.rayCount(), 5u);
    EXPECT_NO_THROW(all.hitsOf(4));
    try {
        all.hitsOf(5);
        ADD_FAILURE() << "no exception";
    } catch (const std::out_of_range& error) {
        EXPECT_NE(std::string(error.what()).find("5"), std::string::npos) << error.what();
        EXPECT_NE(std::string(error.what()).find("ray count"), std::string::npos) << error.what();
    }
    EXPECT_THROW(all.hitsOf(std::size_t(-1)), std::out_of_range);
}

}  // namespace
}  // namespace analytic::test
