// SPDX-License-Identifier: Zlib
// The ray entry points on hostile input: small random worlds of every shape the casts know (sphere, box,
// capsule, cylinder, cone, ellipsoid, convex hull, static plane, compound, BVH mesh, scaled mesh,
// heightfield, btTriangleShape), each object's sizes, scalings and placement drawn now and then from
// NaN, infinities, subnormals, zero, negative and huge values, meshes with infinite and NaN vertices and
// degenerate triangles, heightfields with tiny and huge scalings; rays ordinary, of length zero, 1e9
// long, with NaN ends, near float's largest value and the scalar's. Every ray through rayTest, the batch
// (with and without a BatchCache, one and two threads) and the all-hits batch (support/ray_checks.hpp):
// no crash, fractions in [0, 1], finite unit normals, batches as rayTest. Where an object is sane
// (finite, positive sizes, a finite rotation and place), a hit on it lies on its exact surface: a
// sphere's, a box's, a capsule's, within the rounding of the ray's point; a hit at fraction 0 (a ray
// starting inside) lies inside.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <stdexcept>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "support/grid_mesh.hpp"
#include "support/ray_checks.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

using Limits = std::numeric_limits<btScalar>;

// What an exact check of a hit on a sane object needs: the solid and its placement.
struct SaneSolid {
    enum Kind { Sphere, Box, Capsule } kind;
    btVector3 size;  // sphere: radius in x; box: half extents with margin; capsule: radius, half height (y)
    btTransform transform;
};

class HostileWorld {
public:
    explicit HostileWorld(std::uint64_t seed) : random_(seed) {
        const int count = 6 + int(random_.uniform(0, 8));
        for (int i = 0; i < count; ++i)
            addObject(int(random_.uniform(0, 13)));
        scene_.world().updateAabbs();
    }

    btCollisionWorld& world() { return scene_.world(); }
    const std::map<const btCollisionObject*, SaneSolid>& saneSolids() const { return sane_; }
    Random& random() { return random_; }

    // A hostile value now and then (probability p), else a size in [low, high].
    btScalar value(double low, double high, double p = 0.25) {
        if (!random_.chance(p)) return btScalar(random_.uniform(low, high));
        const btScalar pool[] = {Limits::quiet_NaN(),
                                 Limits::infinity(),
                                 -Limits::infinity(),
                                 Limits::denorm_min() * 3,
                                 sizeof(btScalar) == 8 ? btScalar(1e-310) : btScalar(1e-40),
                                 btScalar(0),
                                 btScalar(-1.5),
                                 btScalar(1e-30),
                                 btScalar(1e30),
                                 Limits::max() / 4};
        return pool[int(random_.uniform(0, std::size(pool)))];
    }

private:
    btTransform placement(bool& sane) {
        btTransform transform;
        const Mat3<double> r = random_.rotation<double>();
        btMatrix3x3 basis{btScalar(r[0][0]), btScalar(r[1][0]), btScalar(r[2][0]),
                          btScalar(r[0][1]), btScalar(r[1][1]), btScalar(r[2][1]),
                          btScalar(r[0][2]), btScalar(r[1][2]), btScalar(r[2][2])};
        if (random_.chance(0.05)) {
            basis[int(random_.uniform(0, 3))][int(random_.uniform(0, 3))] = value(0, 0, 1);
            sane = false;
        }
        transform.setBasis(basis);
        btVector3 origin(btScalar(random_.uniform(-10, 10)), btScalar(random_.uniform(-10, 10)),
                         btScalar(random_.uniform(-10, 10)));
        if (random_.chance(0.1)) {
            origin[int(random_.uniform(0, 3))] = value(0, 0, 1);
            sane = false;
        }
        transform.setOrigin(origin);
        return transform;
    }

    // A size, sane when it is finite and in [low, high].
    btScalar size(double low, double high, bool& sane) {
        const btScalar s = value(low, high);
        sane = sane && s >= btScalar(low) && s <= btScalar(high);
        return s;
    }

    btVector3 sizes(double low, double high, bool& sane) {
        const btScalar x = size(low, high, sane), y = size(low, high, sane), z = size(low, high, sane);
        return {x, y, z};
    }

    void addObject(int kind) {
        bool sane = true;
        btTransform transform = placement(sane);
        btCollisionShape* shape = nullptr;
        SaneSolid solid{SaneSolid::Sphere, btVector3(0, 0, 0), transform};
        switch (kind) {
            case 0: {
                const btScalar radius = size(0.2, 3, sane);
                shape = &scene_.makeShape<btSphereShape>(radius);
                solid = {SaneSolid::Sphere, btVector3(radius, 0, 0), transform};
                break;
            }
            case 1: {
                auto& box = scene_.makeShape<btBoxShape>(sizes(0.2, 3, sane));
                shape = &box;
                solid = {SaneSolid::Box, box.getHalfExtentsWithMargin(), transform};
                break;
            }
            case 2: {
                const btScalar radius = size(0.2, 2, sane), height = size(0.2, 3, sane);
                shape = &scene_.makeShape<btCapsuleShape>(radius, height);
                solid = {SaneSolid::Capsule, btVector3(radius, height / 2, 0), transform};
                break;
            }
            case 3:
                shape = &scene_.makeShape<btCylinderShape>(sizes(0.2, 2, sane));
                sane = false;
                break;
            case 4:
                shape = &scene_.makeShape<btConeShape>(value(0.2, 2), value(0.2, 3));
                sane = false;
                break;
            case 5: {
                // Radii that are not finite sizes are refused: then an ellipsoid of valid ones.
                const btVector3 radii = sizes(0.2, 2, sane);
                if (isFiniteVector(radii) && radii.x() >= 0 && radii.y() >= 0 && radii.z() >= 0) {
                    shape = &scene_.makeShape<EllipsoidShape>(radii);
                } else {
                    EXPECT_THROW(EllipsoidShape{radii}, std::invalid_argument);
                    shape = &scene_.makeShape<EllipsoidShape>(btVector3(1, 2, 1));
                }
                sane = false;
                break;
            }
            case 6: {
                auto& hull = scene_.makeShape<btConvexHullShape>();
                for (int p = 0; p < 12; ++p)
                    hull.addPoint(
                        btVector3(btScalar(random_.uniform(-1, 1)), btScalar(random_.uniform(-1, 1)),
                                  btScalar(random_.uniform(-1, 1))),
                        false);
                hull.recalcLocalAabb();
                if (random_.chance(0.7)) hull.initializePolyhedralFeatures();
                shape = &hull;
                sane = false;
                break;
            }
            case 7: {
                btVector3 normal = random_.chance(0.8) ? btVector3(0, 1, 0) : sizes(-1, 1, sane);
                shape = &scene_.makeShape<btStaticPlaneShape>(normal, value(-12, -8));
                sane = false;
                break;
            }
            case 8: {
                auto& compound = scene_.makeShape<btCompoundShape>();
                for (int child = 0; child < 3; ++child) {
                    bool childSane = true;
                    btTransform local = placement(childSane);
                    local.setOrigin(local.getOrigin() * btScalar(0.1));
                    compound.addChildShape(local, &scene_.makeShape<btBoxShape>(sizes(0.2, 1, childSane)));
                }
                shape = &compound;
                sane = false;
                break;
            }
            case 9:
            case 10: {
                GridMesh& mesh = scene_.makeMesh();
                mesh.addGrid(3, 3, btScalar(random_.uniform(0.5, 1.5)), btVector3(-2, 0, -2),
                             [&](btScalar x, btScalar z) { return btScalar(0.3) * (x - z); });
                std::vector<btScalar>& coordinates = mesh.coordinates(0);
                if (random_.chance(0.3))
                    coordinates[std::size_t(random_.uniform(0, double(coordinates.size())))] = value(0, 0, 1);
                if (random_.chance(0.3)) {  // a degenerate triangle: one vertex onto its neighbour
                    const std::size_t v = 3 * std::size_t(random_.uniform(0, 15));
                    for (std::size_t axis = 0; axis < 3; ++axis)
                        coordinates[v + 3 + axis] = coordinates[v + axis];
                }
                auto& bvh = scene_.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true);
                shape = kind == 9
                            ? static_cast<btCollisionShape*>(&bvh)
                            : &scene_.makeShape<btScaledBvhTriangleMeshShape>(&bvh, sizes(0.5, 2, sane));
                sane = false;
                break;
            }
            case 11: {
                std::vector<float>& heights = scene_.makeHeights(25, 0);
                for (float& height : heights)
                    height = float(random_.uniform(0, 2));
                if (random_.chance(0.2)) heights[std::size_t(random_.uniform(0, 25))] = float(value(0, 0, 1));
                auto& terrain = scene_.makeShape<btHeightfieldTerrainShape>(
                    5, 5, heights.data(), btScalar(0), btScalar(2), int(random_.uniform(0, 3)), false);
                const btScalar pool[] = {btScalar(1), btScalar(1e-30), btScalar(1e-38), btScalar(1e20),
                                         value(0.5, 2, 1)};
                btVector3 scaling = sizes(0.5, 2, sane);
                if (random_.chance(0.5))
                    scaling[int(random_.uniform(0, 3))] = pool[int(random_.uniform(0, 5))];
                terrain.setLocalScaling(scaling);
                shape = &terrain;
                sane = false;
                break;
            }
            default: {
                shape = &scene_.makeShape<btTriangleShape>(sizes(-2, 2, sane), sizes(-2, 2, sane),
                                                           sizes(-2, 2, sane));
                sane = false;
                break;
            }
        }
        const btCollisionObject& object = scene_.add(*shape, transform);
        if (sane) sane_[&object] = solid;
    }

    Random random_;
    OwningWorld scene_;
    std::map<const btCollisionObject*, SaneSolid> sane_;
};

// The signed distance (negative inside) from p to the solid, in long double.
Real signedDistance(const SaneSolid& solid, const btVector3& point) {
    const btVector3 local = solid.transform.invXform(point);
    const RealVec3 p(local.x(), local.y(), local.z());
    switch (solid.kind) {
        case SaneSolid::Sphere:
            return glm::length(p) - Real(solid.size.x());
        case SaneSolid::Box: {
            const RealVec3 half(solid.size.x(), solid.size.y(), solid.size.z());
            const RealVec3 q = glm::abs(p) - half;
            const RealVec3 outside = glm::max(q, RealVec3(0));
            return glm::length(outside) + std::min(std::max({q.x, q.y, q.z}), Real(0));
        }
        default: {
            const Real half = solid.size.y();
            const RealVec3 axisPoint(0, std::clamp(p.y, -half, half), 0);
            return glm::length(p - axisPoint) - Real(solid.size.x());
        }
    }
}

std::vector<Ray> hostileRays(HostileWorld& world) {
    Random& random = world.random();
    std::vector<Ray> rays;
    const auto point = [&](double extent) {
        return btVector3(btScalar(random.uniform(-extent, extent)), btScalar(random.uniform(-extent, extent)),
                         btScalar(random.uniform(-extent, extent)));
    };
    const btScalar floatMax = btScalar(std::numeric_limits<float>::max());
    for (int i = 0; i < 40; ++i) {
        const int kind = int(random.uniform(0, 8));
        const btVector3 from = point(15);
        switch (kind) {
            case 0:
                rays.push_back({from, from});  // length zero
                break;
            case 1: {  // 1e9 long, through the scene
                const Vec3<double> d = random.unitVector<double>();
                const btVector3 along(btScalar(d.x * 5e8), btScalar(d.y * 5e8), btScalar(d.z * 5e8));
                rays.push_back({from - along, from + along});
                break;
            }
            case 2: {  // a NaN or infinite end
                btVector3 to = point(15);
                to[int(random.uniform(0, 3))] = world.value(0, 0, 1);
                rays.push_back(random.chance(0.5) ? Ray{from, to} : Ray{to, from});
                break;
            }
            case 3: {  // near float's largest value
                const btVector3 far = point(1) * (floatMax / 2);
                rays.push_back({far, from});
                break;
            }
            case 4: {  // near the scalar's largest value
                const btVector3 far = point(1) * (Limits::max() / 2);
                rays.push_back({from, far});
                break;
            }
            default:
                rays.push_back({from, point(15)});
                break;
        }
    }
    return rays;
}

// Segments starting on a box's face, a flat mesh triangle and a heightfield, going in: a hit at fraction
// +0 (the quotient (face - origin) / direction is -0 there), from rayTest and every batch.
TEST(RayHostile, SegmentsStartingOnASurfaceHitAtPositiveZero) {
    OwningWorld scene;
    scene.add(scene.makeShape<btBoxShape>(btVector3(1, 1, 1)), btTransform::getIdentity());
    GridMesh& mesh = scene.makeMesh();
    mesh.addFlatGrid(2, 2, 1, btVector3(10, 0, 0));
    scene.add(scene.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true), btTransform::getIdentity());
    std::vector<float>& heights = scene.makeHeights(25, 1);
    scene.add(
        scene.makeShape<btHeightfieldTerrainShape>(5, 5, heights.data(), btScalar(0), btScalar(2), 1, false),
        translation(20, 0, 0));
    scene.world().updateAabbs();
    const std::vector<Ray> rays{
        {btVector3(1, 0, 0), btVector3(-5, 0, 0)},
        {btVector3(0, 1, btScalar(0.25)), btVector3(0, -5, btScalar(0.25))},
        {btVector3(btScalar(10.5), 0, btScalar(0.75)), btVector3(btScalar(10.5), -5, btScalar(0.75))},
        {btVector3(btScalar(20.5), 0, btScalar(0.25)), btVector3(btScalar(20.5), -5, btScalar(0.25))}};
    const std::vector<ClosestHit> hits = expectBatchesAsRayTest(scene.world(), rays);
    for (std::size_t i = 0; i < rays.size(); ++i) {
        SCOPED_TRACE(::testing::Message() << "ray " << i);
        ASSERT_NE(hits[i].object, nullptr);
        EXPECT_EQ(hits[i].fraction, 0);
        EXPECT_FALSE(std::signbit(hits[i].fraction));
    }
}

TEST(RayHostile, RandomHostileWorldsAndRays) {
    int hits = 0, checkedOnSurface = 0;
    for (std::uint64_t seed = 1; seed <= 500; ++seed) {
        SCOPED_TRACE(::testing::Message() << "seed " << seed);
        HostileWorld world(seed);
        const std::vector<Ray> rays = hostileRays(world);
        const std::vector<ClosestHit> closest = expectBatchesAsRayTest(world.world(), rays);
        for (std::size_t i = 0; i < rays.size(); ++i) {
            if (!closest[i].object) continue;
            ++hits;
            const auto sane = world.saneSolids().find(closest[i].object);
            if (sane == world.saneSolids().end()) continue;
            // Within the rounding of the ray's point (from + t (to - from)) and of the placement.
            const Real magnitude = Real(rays[i].from.length() + rays[i].to.length()) +
                                   Real(sane->second.transform.getOrigin().length()) + 10;
            const Real tolerance = 64 * Real(Limits::epsilon()) * magnitude;
            const Real distance = signedDistance(sane->second, closest[i].point);
            if (closest[i].fraction == 0)
                EXPECT_LE(distance, tolerance) << "ray " << i << ": a hit at its origin outside the solid";
            else
                EXPECT_LE(std::abs(distance), tolerance) << "ray " << i << ": a hit off the surface";
            ++checkedOnSurface;
        }
    }
    std::printf("[ hostile ] %d hits, %d of them checked on an exact surface\n", hits, checkedOnSurface);
    EXPECT_GT(hits, 200);
    EXPECT_GT(checkedOnSurface, 15);
}

}  // namespace
}  // namespace analytic::test
