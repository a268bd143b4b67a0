// SPDX-License-Identifier: Zlib
// Fuzz target: rayTest, the all-hits callback, the batches (one and two threads, with and without a
// cache, the cache used again) on small worlds of every shape the ray casts know (sphere, box, capsule,
// cylinder, cone, hull, plane, compound, triangle mesh, scaled mesh, heightfield, ellipsoid, Bullet's
// triangle and multi-sphere), with hostile sizes, scalings, transforms, vertices and rays.
// Invariants: no crash or undefined behaviour; every hit has a fraction in [0, 1], a finite point and a
// unit normal; the batches give rayTest's closest hit (object and fraction) and all-hits' nearest; a
// hit on a sane sphere or box lies on it.
#include <btBulletCollisionCommon.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_shapes.hpp"
#include "fuzz_world.hpp"

namespace analytic::fuzz {
namespace {

void checkHit(const btCollisionObject* object, Scalar fraction, const btVector3& point,
              const btVector3& normal) {
    FUZZ_CHECK(object != nullptr);
    FUZZ_CHECK(std::isfinite(fraction) && fraction >= 0 && fraction <= 1);
    FUZZ_CHECK(finiteVector(point) && finiteVector(normal));
    FUZZ_CHECK(std::abs(normal.length() - 1) < Scalar(1e-3));
}

void run(Input& in) {
    Scene scene;
    buildWorld(in, scene);

    std::vector<Ray> rays(std::size_t(1 + in.below(8)));
    for (Ray& ray : rays) {
        bool sane = true;
        ray.from = bullet(vector(in, sane, 16));
        ray.to = in.below(8) == 0 ? ray.from : bullet(vector(in, sane, 16));
        if (in.below(8) == 0) ray.to = ray.from + (ray.to - ray.from) * Scalar(1e9);
    }
    std::vector<RayHit> single(rays.size()), cached(rays.size());
    rayTestBatch(scene.world, rays, single, {.threads = 1});
    BatchCache cache;
    for (int round = 0; round < 2; ++round) {
        rayTestBatch(scene.world, rays, cached, {.threads = 2, .cache = &cache});
        for (std::size_t r = 0; r < rays.size(); ++r) {
            FUZZ_CHECK(cached[r].object == single[r].object);
            if (single[r].object) FUZZ_CHECK(cached[r].fraction == single[r].fraction);
        }
    }
    AllRayHits all;
    rayTestBatchAllHits(scene.world, rays, all, {.threads = 1});
    for (std::size_t r = 0; r < rays.size(); ++r) {
        const Ray& ray = rays[r];
        btCollisionWorld::ClosestRayResultCallback closest(ray.from, ray.to);
        rayTest(scene.world, ray.from, ray.to, closest);
        const RayHit& hit = single[r];
        if (closest.hasHit())
            checkHit(closest.m_collisionObject, closest.m_closestHitFraction, closest.m_hitPointWorld,
                     closest.m_hitNormalWorld);
        if (hit.object) checkHit(hit.object, hit.fraction, hit.point, hit.normal);
        // Two objects hit at the same fraction (a ray starting inside both) may be reported either way.
        FUZZ_CHECK(bool(hit.object) == closest.hasHit());
        if (hit.object) {
            FUZZ_CHECK(hit.fraction == closest.m_closestHitFraction);
            FUZZ_CHECK(hit.object == closest.m_collisionObject || hit.fraction == 0);
        }
        const auto hits = all.hitsOf(r);
        for (const RayHit& each : hits)
            checkHit(each.object, each.fraction, each.point, each.normal);
        if (hit.object) FUZZ_CHECK(!hits.empty() && hits[0].fraction == hit.fraction);
        btCollisionWorld::AllHitsRayResultCallback every(ray.from, ray.to);
        rayTest(scene.world, ray.from, ray.to, every);
        for (int i = 0; i < every.m_hitFractions.size(); ++i)
            checkHit(every.m_collisionObjects[i], every.m_hitFractions[i], every.m_hitPointWorld[i],
                     every.m_hitNormalWorld[i]);
        // On a sane sphere or box, the hit is on its surface (or at the ray's origin inside it).
        for (const Scene::Checked& solid : scene.checked) {
            if (hit.object != solid.object) continue;
            const btTransform& place = solid.object->getWorldTransform();
            const btVector3 local = place.invXform(hit.point);
            const Real scale = std::max({Real(16), Real(place.getOrigin().length()), Real(solid.radius),
                                         Real(solid.half.length()), Real((ray.to - ray.from).length())});
            const Real tolerance = 4096 * roundoff<Scalar> * scale;
            Real distance;
            if (solid.kind == 0) {
                distance = Real(local.length()) - Real(solid.radius);
            } else {
                RVec outside(0);
                Real deepest = -1e30L;
                for (int k = 0; k < 3; ++k) {
                    const Real d = std::abs(Real(local[k])) - Real(solid.half[k]);
                    outside[k] = std::max(d, Real(0));
                    deepest = std::max(deepest, d);
                }
                distance = deepest > 0 ? length(outside) : deepest;
            }
            if (hit.fraction > 0)
                FUZZ_CHECK(std::abs(distance) <= tolerance);
            else
                FUZZ_CHECK(distance <= tolerance);
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_ONE_SCALAR(analytic::fuzz::run)
