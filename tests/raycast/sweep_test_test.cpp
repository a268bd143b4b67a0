// SPDX-License-Identifier: Zlib
// analytic::sphereSweepTest in Bullet worlds, in the build's btScalar: random sweeps against every shape
// the core sweeps exactly (sphere, box, capsule, static plane, mesh triangle) against a long double
// reference of the first time of impact (reference/sweep_reference.hpp: the first root of the distance
// minus the radius, found without the core); parity with Bullet's own convexSweepTest where Bullet is
// within its tolerance (a millimetre, its conservative advancement's); Bullet's callback semantics
// (filters, needsCollision, the closest fraction, LocalShapeInfo of meshes, heightfields and compounds);
// the start-in-contact and sliding rules; zero-length sweeps; radius 0 against rayTest;
// allowedCcdPenetration; scaled meshes; the hit point of bullet3 #596; hostile input.
//
// Bounds, with u the unit roundoff of btScalar and S the scale of a sweep and its obstacle (|from| + |to|
// + the obstacle's centre and reach + the radius): the reference decides hit or miss outside a band of
// 64 u S around touching; the reported centre at f is within 256 u S of touching (its distance to the
// obstacle minus the radius), and f within 256 u S / (|to - from| cos) of the reference's, cos the
// cosine between the normal and the motion (grazing sweeps, cos < 0.05, are held to touching only).
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btSimpleBroadphase.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "analytic/query_scene.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/sweep_test.hpp"
#include "analytic/world.hpp"
#include "cast/hull_faces.hpp"
#include "reference/distance_reference.hpp"
#include "reference/sweep_reference.hpp"
#include "support/grid_mesh.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

constexpr Real u = Real(unitRoundoff<btScalar>);

// A collision world with a btDbvtBroadphase (or another), owning its shapes and objects.
class SweepWorld {
public:
    explicit SweepWorld(
        std::unique_ptr<btBroadphaseInterface> broadphase = std::make_unique<btDbvtBroadphase>())
        : broadphase_(std::move(broadphase)), world_(&dispatcher_, broadphase_.get(), &configuration_) {}
    ~SweepWorld() {
        for (auto& object : objects_)
            world_.removeCollisionObject(object.get());
    }

    template <class Shape, class... Arguments> Shape& make(Arguments&&... arguments) {
        shapes_.push_back(std::make_unique<Shape>(std::forward<Arguments>(arguments)...));
        return static_cast<Shape&>(*shapes_.back());
    }

    btCollisionObject& add(btCollisionShape& shape, const btTransform& transform, int group = 1,
                           int mask = -1) {
        objects_.push_back(std::make_unique<btCollisionObject>());
        btCollisionObject& object = *objects_.back();
        object.setCollisionShape(&shape);
        object.setWorldTransform(transform);
        world_.addCollisionObject(&object, group, mask);
        return object;
    }

    void clear() {
        for (auto& object : objects_)
            world_.removeCollisionObject(object.get());
        objects_.clear();
    }

    btCollisionWorld& world() { return world_; }

private:
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    std::unique_ptr<btBroadphaseInterface> broadphase_;
    btCollisionWorld world_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

btTransform placed(const Mat3<btScalar>& rotation, const btVector3& origin) {
    btMatrix3x3 basis;
    for (int row = 0; row < 3; ++row)
        basis[row] = btVector3(rotation[0][row], rotation[1][row], rotation[2][row]);
    return btTransform(basis, origin);
}

// Records every contact, as Bullet gives it.
struct Contact {
    const btCollisionObject* object;
    btScalar fraction;
    btVector3 normal, point;
    int part = -2, index = -2;  // LocalShapeInfo's, -2 without one
};

struct AllContacts : btCollisionWorld::ConvexResultCallback {
    std::vector<Contact> contacts;
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        EXPECT_TRUE(normalInWorldSpace);
        Contact contact{result.m_hitCollisionObject, result.m_hitFraction, result.m_hitNormalLocal,
                        result.m_hitPointLocal};
        if (result.m_localShapeInfo) {
            contact.part = result.m_localShapeInfo->m_shapePart;
            contact.index = result.m_localShapeInfo->m_triangleIndex;
        }
        contacts.push_back(contact);
        return m_closestHitFraction;
    }
};

// ClosestConvexResultCallback that also keeps LocalShapeInfo.
struct Closest : btCollisionWorld::ClosestConvexResultCallback {
    Closest() : ClosestConvexResultCallback(btVector3(0, 0, 0), btVector3(0, 0, 0)) {}
    int part = -2, index = -2;
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        part = result.m_localShapeInfo ? result.m_localShapeInfo->m_shapePart : -2;
        index = result.m_localShapeInfo ? result.m_localShapeInfo->m_triangleIndex : -2;
        return ClosestConvexResultCallback::addSingleResult(result, normalInWorldSpace);
    }
};

Closest sweepOurs(const btCollisionWorld& world, btScalar radius, const btVector3& from, const btVector3& to,
                  btScalar allowed = 0) {
    Closest callback;
    sphereSweepTest(world, radius, from, to, callback, allowed);
    return callback;
}

Closest sweepBullets(btCollisionWorld& world, btScalar radius, const btVector3& from, const btVector3& to) {
    btSphereShape sphere(radius);
    btTransform start = btTransform::getIdentity(), end = btTransform::getIdentity();
    start.setOrigin(from);
    end.setOrigin(to);
    Closest callback;
    world.convexSweepTest(&sphere, start, end, callback);
    return callback;
}

RealVec3 centreAt(const btVector3& from, const btVector3& to, Real t) {
    const RealVec3 a = widen(toGlm(from)), b = widen(toGlm(to));
    return a + t * (b - a);
}

// ---- Exactness against the reference ---------------------------------------------------------------

// One obstacle kind: makes a random obstacle in the world and returns its distance function (0 inside),
// its scale (centre and reach).
struct Obstacle {
    std::function<Real(const RealVec3&)> distance;
    Real scale;
};

using MakeObstacle = std::function<Obstacle(SweepWorld&, Random&)>;

void expectExactSweeps(const char* name, const MakeObstacle& makeObstacle, int count) {
    Random random(0x5eed5 + std::hash<std::string>()(name));
    int hits = 0, misses = 0, ambiguous = 0;
    Real worstTimeError = 0;  // |f - reference| |to - from| / S, away from grazing
    for (int i = 0; i < count; ++i) {
        SweepWorld sweepWorld;
        const Obstacle obstacle = makeObstacle(sweepWorld, random);
        const btScalar radius = btScalar(random.logUniform(0.01, 2));
        const btVector3 from = toBullet(random.point<btScalar>(6));
        const btVector3 to = random.chance(0.5) ? toBullet(random.point<btScalar>(6))
                                                : -from + toBullet(random.point<btScalar>(0.5));
        const Real length = glm::length(widen(toGlm(to - from)));
        const Real scale = obstacle.scale + Real(from.length() + to.length()) + radius;
        const auto reference =
            reference::firstTimeOfImpact([&](Real t) { return obstacle.distance(centreAt(from, to, t)); },
                                         radius, 1, length, 64 * u * scale);
        const Closest ours = sweepOurs(sweepWorld.world(), radius, from, to);
        if (reference.outcome == reference::SweepOutcome::Ambiguous) {
            ++ambiguous;
            continue;
        }
        SCOPED_TRACE(std::string(name) + " sweep " + std::to_string(i));
        if (reference.outcome == reference::SweepOutcome::Miss) {
            ++misses;
            EXPECT_FALSE(ours.hasHit()) << "fraction " << ours.m_closestHitFraction;
            continue;
        }
        if (reference.t == 0) {
            // Overlapping at the start: stopped at 0 when moving in; moving away or along, not stopped.
            if (ours.hasHit()) {
                EXPECT_EQ(ours.m_closestHitFraction, 0);
                EXPECT_LT(ours.m_hitNormalWorld.dot(to - from), 0);
            }
            continue;
        }
        ++hits;
        ASSERT_TRUE(ours.hasHit()) << "reference t " << text(reference.t);
        const Real t = ours.m_closestHitFraction;
        const Real touching = obstacle.distance(centreAt(from, to, t)) - radius;
        if (reference.t > 0) {
            EXPECT_LE(std::abs(touching), 256 * u * scale) << "t " << text(t);
        }
        const Real cosine = -Real(ours.m_hitNormalWorld.dot(to - from)) / length;
        EXPECT_GT(cosine, 0) << "the normal must oppose the motion";
        EXPECT_NEAR(ours.m_hitNormalWorld.length(), 1, 1e-5);
        // The point is on the obstacle, at the radius from the centre.
        const RealVec3 point = widen(toGlm(ours.m_hitPointWorld));
        EXPECT_LE(obstacle.distance(point), 256 * u * scale);
        EXPECT_NEAR(Real(glm::length(point - centreAt(from, to, t))), radius, 256 * u * scale);
        if (cosine >= Real(0.05)) {
            const Real error = std::abs(t - reference.t) * length;
            EXPECT_LE(error, 256 * u * scale / cosine)
                << "t " << text(t) << " reference " << text(reference.t);
            worstTimeError = std::max(worstTimeError, error / scale);
        }
    }
    std::printf("%s: %d hits, %d misses, %d ambiguous; worst time-of-impact error %.3Lg of the scale\n", name,
                hits, misses, ambiguous, worstTimeError);
    EXPECT_GT(hits, count / 10);
    EXPECT_GT(misses, count / 10);
}

constexpr int kRandomSweeps = 3000 / kCaseDivisor;

TEST(SphereSweepExact, Spheres) {
    expectExactSweeps(
        "sphere",
        [](SweepWorld& world, Random& random) {
            auto& shape = world.make<btSphereShape>(btScalar(random.logUniform(0.05, 3)));
            const btVector3 centre = toBullet(random.point<btScalar>(2));
            world.add(shape, btTransform(btQuaternion::getIdentity(), centre));
            const Real radius = shape.getRadius();
            const RealVec3 c = widen(toGlm(centre));
            return Obstacle{[=](const RealVec3& p) { return reference::distancePointSphere(p, c, radius); },
                            Real(centre.length()) + radius};
        },
        kRandomSweeps);
}

TEST(SphereSweepExact, BoxesSharpAtTheirHalfExtentsWithMargin) {
    expectExactSweeps(
        "box",
        [](SweepWorld& world, Random& random) {
            const btVector3 half = toBullet(Vec3<btScalar>(btScalar(random.logUniform(0.05, 3)),
                                                           btScalar(random.logUniform(0.05, 3)),
                                                           btScalar(random.logUniform(0.05, 3))));
            auto& shape = world.make<btBoxShape>(half);
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(2)));
            world.add(shape, transform);
            const Obb<btScalar> box = toObb(shape, transform);
            return Obstacle{[=](const RealVec3& p) {
                                return reference::distancePointObb(p, widen(box.center), widen(box.rotation),
                                                                   widen(box.halfExtents));
                            },
                            Real(transform.getOrigin().length()) + Real(half.length())};
        },
        kRandomSweeps);
}

TEST(SphereSweepExact, Capsules) {
    expectExactSweeps(
        "capsule",
        [](SweepWorld& world, Random& random) {
            auto& shape = world.make<btCapsuleShape>(btScalar(random.logUniform(0.05, 2)),
                                                     btScalar(random.logUniform(0.05, 4)));
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(2)));
            world.add(shape, transform);
            const Capsule<btScalar> capsule = toCapsule(shape, transform);
            return Obstacle{
                [=](const RealVec3& p) {
                    return reference::distancePointCapsule(p, widen(capsule.a), widen(capsule.b),
                                                           Real(capsule.radius));
                },
                Real(transform.getOrigin().length()) + Real(shape.getHalfHeight() + shape.getRadius())};
        },
        kRandomSweeps);
}

TEST(SphereSweepExact, StaticPlanesAsHalfSpaces) {
    expectExactSweeps(
        "plane",
        [](SweepWorld& world, Random& random) {
            const Vec3<btScalar> normal = random.unitVector<btScalar>();
            const btScalar offset = btScalar(random.uniform(-2, 2));
            auto& shape = world.make<btStaticPlaneShape>(toBullet(normal), offset);
            world.add(shape, btTransform::getIdentity());
            const RealVec3 n = widen(normal);
            const Real d = offset;
            return Obstacle{[=](const RealVec3& p) {
                                return std::max(Real(0), reference::signedDistancePointPlane(p, n, d));
                            },
                            std::abs(d)};
        },
        kRandomSweeps);
}

// A mesh of one random triangle, placed by a random transform: two-sided, met at face, edges, corners.
TEST(SphereSweepExact, MeshTriangles) {
    struct OneTriangle {
        btTriangleMesh mesh;
    };
    std::vector<std::unique_ptr<OneTriangle>> meshes;
    expectExactSweeps(
        "triangle",
        [&](SweepWorld& world, Random& random) {
            meshes.push_back(std::make_unique<OneTriangle>());
            const Vec3<btScalar> a = random.point<btScalar>(3), b = random.point<btScalar>(3),
                                 c = random.point<btScalar>(3);
            meshes.back()->mesh.addTriangle(toBullet(a), toBullet(b), toBullet(c));
            auto& shape = world.make<btBvhTriangleMeshShape>(&meshes.back()->mesh, true);
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(1)));
            world.add(shape, transform);
            const Triangle<btScalar> placedTriangle{
                toGlm(transform(toBullet(a))), toGlm(transform(toBullet(b))), toGlm(transform(toBullet(c)))};
            return Obstacle{[=](const RealVec3& p) {
                                return reference::distancePointTriangle(p, widen(placedTriangle.a),
                                                                        widen(placedTriangle.b),
                                                                        widen(placedTriangle.c));
                            },
                            Real(4 + 3 * 1.8)};
        },
        kRandomSweeps);
}

// Convex hulls (btConvexHullShape, its points' hull grown by its margin: Bullet's rounded surface), the
// reference's distance over the hull's faces' triangles (hull_faces, checked in its own test).
TEST(SphereSweepExact, ConvexHullsGrownByTheirMargins) {
    std::vector<std::unique_ptr<btConvexHullShape>> hulls;
    expectExactSweeps(
        "hull",
        [&](SweepWorld& world, Random& random) {
            hulls.push_back(std::make_unique<btConvexHullShape>());
            btConvexHullShape& hull = *hulls.back();
            for (int i = 0; i < 12; ++i)
                hull.addPoint(toBullet(random.point<btScalar>(1.5)), false);
            hull.recalcLocalAabb();
            hull.setMargin(btScalar(random.uniform(0, 0.2)));
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(2)));
            world.add(hull, transform);
            const std::shared_ptr<const cast::HullFaces> faces = cast::hullFacesOf(hull);
            EXPECT_TRUE(faces);
            const Real margin = hull.getMargin();
            std::vector<std::array<RealVec3, 3>> triangles;
            std::vector<std::pair<RealVec3, Real>> planes;
            for (std::size_t f = 0; faces && f < faces->faceCount(); ++f) {
                const auto loop = faces->faceLoop(f);
                const auto world = [&](std::uint32_t v) {
                    return widen(toGlm(transform(toBullet(faces->vertices[v]))));
                };
                for (std::size_t k = 1; k + 1 < loop.size(); ++k)
                    triangles.push_back({world(loop[0]), world(loop[k]), world(loop[k + 1])});
                const RealVec3 n = widen(toGlm(transform.getBasis() * toBullet(faces->planes[f].normal)));
                planes.push_back({n, glm::dot(n, world(loop[0]))});
            }
            return Obstacle{[=](const RealVec3& p) {
                                bool inside = true;
                                for (const auto& [n, d] : planes)
                                    inside = inside && glm::dot(n, p) <= d;
                                if (inside) return Real(0);
                                Real best = std::numeric_limits<Real>::infinity();
                                for (const auto& t : triangles)
                                    best =
                                        std::min(best, reference::distancePointTriangle(p, t[0], t[1], t[2]));
                                return std::max(Real(0), best - margin);
                            },
                            Real(transform.getOrigin().length()) + 3};
        },
        kRandomSweeps);
}

// ---- Parity with Bullet where Bullet is within its tolerance -------------------------------------------

// Spheres and capsules (no margin to round: Bullet's surface is the exact one): the same closest object,
// Bullet's fraction at most its millimetre (and its convergence) before ours.
TEST(SphereSweepBullet, SameClosestObjectAndFractionWithinBulletsMillimetre) {
    Random random(91);
    int compared = 0, agreeing = 0;
    for (int scene = 0; scene < 40; ++scene) {
        SweepWorld sweepWorld;
        for (int i = 0; i < 20; ++i) {
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(8)));
            if (random.chance(0.5))
                sweepWorld.add(sweepWorld.make<btSphereShape>(btScalar(random.uniform(0.2, 1.5))), transform);
            else
                sweepWorld.add(sweepWorld.make<btCapsuleShape>(btScalar(random.uniform(0.2, 1)),
                                                               btScalar(random.uniform(0.2, 2))),
                               transform);
        }
        for (int i = 0; i < 50; ++i) {
            const btScalar radius = btScalar(random.uniform(0.05, 1));
            const btVector3 from = toBullet(random.point<btScalar>(12)),
                            to = toBullet(random.point<btScalar>(12));
            const Closest ours = sweepOurs(sweepWorld.world(), radius, from, to);
            const Closest bullets = sweepBullets(sweepWorld.world(), radius, from, to);
            if (!ours.hasHit() && !bullets.hasHit()) continue;
            ++compared;
            // Bullet advances until the gap is under a millimetre: that far along the normal, 1 / cos
            // farther along the path.
            const btScalar length = (to - from).length();
            const btScalar cosine = -ours.m_hitNormalWorld.dot(to - from) / length;
            const bool same = ours.hasHit() && bullets.hasHit() &&
                              ours.m_hitCollisionObject == bullets.m_hitCollisionObject &&
                              bullets.m_closestHitFraction <= ours.m_closestHitFraction + btScalar(1e-4) &&
                              (ours.m_closestHitFraction - bullets.m_closestHitFraction) * length * cosine <=
                                  btScalar(0.0015);
            agreeing += same;
            if (!same && compared - agreeing <= 5)
                std::printf("differs: ours %d %.9g, Bullet's %d %.9g, same object %d, length %g\n",
                            ours.hasHit(), double(ours.m_closestHitFraction), bullets.hasHit(),
                            double(bullets.m_closestHitFraction),
                            ours.m_hitCollisionObject == bullets.m_hitCollisionObject, double(length));
        }
    }
    std::printf("agree with Bullet on %d of %d sweeps with a hit\n", agreeing, compared);
    EXPECT_GT(compared, 400);
    EXPECT_GE(agreeing, compared * 98 / 100);  // Bullet's advancement gives up on some grazing sweeps
}

// A shape the core does not sweep is Bullet's: the same answer as convexSweepTest.
TEST(SphereSweepBullet, ShapesTheCoreDoesNotSweepAreBullets) {
    SweepWorld sweepWorld;
    const btVector3 centres[2] = {btVector3(0, -1, 0), btVector3(0, 1, 0)};
    const btScalar radii[2] = {1, btScalar(0.7)};
    sweepWorld.add(sweepWorld.make<btMultiSphereShape>(centres, radii, 2),
                   btTransform(btQuaternion(0.3, 0.2, 0.1), btVector3(0, 0, 0)));
    Random random(7);
    int hits = 0;
    for (int i = 0; i < 200; ++i) {
        const btVector3 from = toBullet(random.point<btScalar>(6)), to = -from;
        const Closest ours = sweepOurs(sweepWorld.world(), btScalar(0.3), from, to);
        const Closest bullets = sweepBullets(sweepWorld.world(), btScalar(0.3), from, to);
        ASSERT_EQ(ours.hasHit(), bullets.hasHit());
        if (!ours.hasHit()) continue;
        ++hits;
        EXPECT_EQ(ours.m_closestHitFraction, bullets.m_closestHitFraction);
        EXPECT_LE((ours.m_hitNormalWorld - bullets.m_hitNormalWorld).length(), btScalar(1e-5));
    }
    EXPECT_GT(hits, 100);
}

// Cylinders, cones (grown by their margins) and ellipsoids are the core's exact sweeps (sphere_sweep_test
// checks those against long double references) on the shapes as the adapters place them; Bullet's GJK
// agrees on the sides, within its millimetre and the margin's rounding of the rims.
TEST(SphereSweepExact, CylindersConesAndEllipsoidsAreTheCoresSweeps) {
    Random random(29);
    int hits = 0, agreeing = 0;
    for (int kind = 0; kind < 3; ++kind)
        for (int placement = 0; placement < 20; ++placement) {
            SweepWorld world;
            const btTransform transform =
                placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(2)));
            const btScalar a = btScalar(random.uniform(0.3, 1.5)), b = btScalar(random.uniform(0.3, 1.5));
            btCollisionShape* shape = nullptr;
            if (kind == 0) shape = &world.make<btCylinderShape>(btVector3(a, b, a));
            if (kind == 1) shape = &world.make<btConeShape>(a, 2 * b);
            if (kind == 2)
                shape = &world.make<EllipsoidShape>(btVector3(a, b, btScalar(random.uniform(0.3, 1.5))));
            world.add(*shape, transform);
            for (int i = 0; i < 100; ++i) {
                const btScalar radius = btScalar(random.uniform(0.05, 0.8));
                const btVector3 from = toBullet(random.point<btScalar>(5)),
                                to = toBullet(random.point<btScalar>(5));
                const Closest ours = sweepOurs(world.world(), radius, from, to);
                const RayPath<btScalar> path = segmentRay(toGlm(from), toGlm(to));
                std::optional<SphereSweepHit<btScalar>> core;
                if (kind == 0)
                    core = sweepSphereCylinder(path, radius,
                                               toCylinder(static_cast<btCylinderShape&>(*shape), transform));
                if (kind == 1) {
                    const RoundedCone<btScalar> cone =
                        toRoundedCone(static_cast<btConeShape&>(*shape), transform);
                    core = sweepSphereCone(path, radius + cone.margin, cone.cone);
                }
                if (kind == 2)
                    core = sweepSphereEllipsoid(path, radius,
                                                toEllipsoid(static_cast<EllipsoidShape&>(*shape), transform));
                // What the sweep keeps: contacts the sphere moves into.
                if (core && core->startsInContact && glm::dot(core->normal, path.direction) >= 0)
                    core.reset();
                ASSERT_EQ(ours.hasHit(), core.has_value()) << "kind " << kind;
                if (!core) continue;
                ++hits;
                EXPECT_EQ(ours.m_closestHitFraction, core->t);
                const Closest bullets = sweepBullets(world.world(), radius, from, to);
                agreeing +=
                    bullets.hasHit() && std::abs(bullets.m_closestHitFraction - ours.m_closestHitFraction) *
                                                (to - from).length() <
                                            btScalar(0.05);
            }
        }
    std::printf("cylinders, cones, ellipsoids: %d contacts, Bullet within 5 cm on %d\n", hits, agreeing);
    EXPECT_GT(hits, 500);
    EXPECT_GT(agreeing, hits * 9 / 10);
}

// ---- Semantics -----------------------------------------------------------------------------------

struct FlatGrid {
    GridMesh grid;
    btBvhTriangleMeshShape* shape = nullptr;
    explicit FlatGrid(SweepWorld& world, int quads = 8, btScalar cell = 1) {
        grid.addFlatGrid(quads, quads, cell, btVector3(-quads * cell / 2, 0, -quads * cell / 2));
        shape = &world.make<btBvhTriangleMeshShape>(&grid.array(), true);
    }
};

TEST(SphereSweepSemantics, MeshTrianglesCarryBulletsPartAndIndex) {
    SweepWorld world;
    FlatGrid floor(world);
    world.add(*floor.shape, btTransform::getIdentity());
    Random random(3);
    for (int i = 0; i < 100; ++i) {
        // Straight down onto a triangle's interior: one triangle is first, for both.
        const btVector3 at(btScalar(random.uniform(-3.9, 3.9)), 2, btScalar(random.uniform(-3.9, 3.9)));
        const btScalar fx = at.x() - std::floor(at.x()), fz = at.z() - std::floor(at.z());
        if (std::abs(fx - fz) < 0.05 || fx < 0.05 || fz < 0.05 || fx > 0.95 || fz > 0.95) continue;
        const Closest ours = sweepOurs(world.world(), btScalar(0.25), at, at - btVector3(0, 4, 0));
        const Closest bullets = sweepBullets(world.world(), btScalar(0.25), at, at - btVector3(0, 4, 0));
        ASSERT_TRUE(ours.hasHit());
        ASSERT_TRUE(bullets.hasHit());
        EXPECT_EQ(ours.part, bullets.part);
        EXPECT_EQ(ours.index, bullets.index);
        EXPECT_NEAR(ours.m_closestHitFraction, (btScalar(2) - btScalar(0.25)) / 4, 1e-5);
        EXPECT_NEAR(ours.m_hitNormalWorld.y(), 1, 1e-5);
        EXPECT_NEAR(ours.m_hitPointWorld.y(), 0, 1e-5);
        EXPECT_NEAR(ours.m_hitPointWorld.x(), at.x(), 1e-5);
    }
}

TEST(SphereSweepSemantics, HeightfieldTrianglesCarryProcessAllTrianglesIds) {
    SweepWorld world;
    std::vector<btScalar> heights(9 * 9, btScalar(0));
    auto& terrain = world.make<btHeightfieldTerrainShape>(9, 9, heights.data(), btScalar(1), btScalar(-1),
                                                          btScalar(1), 1, PHY_FLOAT, false);
    world.add(terrain, btTransform::getIdentity());
    const btVector3 at(btScalar(0.3), 3, btScalar(0.6));
    const Closest ours = sweepOurs(world.world(), btScalar(0.5), at, at - btVector3(0, 6, 0));
    const Closest bullets = sweepBullets(world.world(), btScalar(0.5), at, at - btVector3(0, 6, 0));
    ASSERT_TRUE(ours.hasHit());
    ASSERT_TRUE(bullets.hasHit());
    EXPECT_EQ(ours.part, bullets.part);
    EXPECT_EQ(ours.index, bullets.index);
    EXPECT_NEAR(ours.m_closestHitFraction, btScalar(2.5) / 6, 1e-5);
}

TEST(SphereSweepSemantics, CompoundChildrenCarryTheirIndexUnlessAMeshTriangleDoes) {
    SweepWorld world;
    FlatGrid floor(world, 4, 1);
    auto& compound = world.make<btCompoundShape>();
    compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(-5, 0, 0)),
                           &world.make<btSphereShape>(btScalar(1)));
    compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(5, 0, 0)),
                           &world.make<btBoxShape>(btVector3(1, 1, 1)));
    compound.addChildShape(btTransform(btQuaternion::getIdentity(), btVector3(0, -3, 0)), floor.shape);
    world.add(compound, btTransform(btQuaternion(0, 0, 0), btVector3(0, 1, 0)));
    const Closest sphere = sweepOurs(world.world(), btScalar(0.5), btVector3(-5, 5, 0), btVector3(-5, -5, 0));
    ASSERT_TRUE(sphere.hasHit());
    EXPECT_EQ(sphere.part, -1);
    EXPECT_EQ(sphere.index, 0);
    EXPECT_NEAR(sphere.m_closestHitFraction, btScalar(2.5) / 10, 1e-5);
    const Closest box = sweepOurs(world.world(), btScalar(0.5), btVector3(5, 5, 0), btVector3(5, -5, 0));
    ASSERT_TRUE(box.hasHit());
    EXPECT_EQ(box.part, -1);
    EXPECT_EQ(box.index, 1);
    EXPECT_NEAR(box.m_closestHitFraction, btScalar(2.5) / 10, 1e-5);
    const Closest mesh =
        sweepOurs(world.world(), btScalar(0.5), btVector3(0.3f, 5, 0.6f), btVector3(0.3f, -5, 0.6f));
    ASSERT_TRUE(mesh.hasHit());
    EXPECT_GE(mesh.part, 0);
    EXPECT_GE(mesh.index, 0);
    EXPECT_NEAR(mesh.m_closestHitFraction, btScalar(6.5) / 10, 1e-5);
    const Closest bullets =
        sweepBullets(world.world(), btScalar(0.5), btVector3(0.3f, 5, 0.6f), btVector3(0.3f, -5, 0.6f));
    ASSERT_TRUE(bullets.hasHit());
    EXPECT_EQ(mesh.part, bullets.part);
    EXPECT_EQ(mesh.index, bullets.index);
}

TEST(SphereSweepSemantics, StartInContactStopsOnlyWhenMovingIn) {
    SweepWorld world;
    world.add(world.make<btBoxShape>(btVector3(1, 1, 1)), btTransform::getIdentity());
    const btCollisionObject& far = world.add(world.make<btSphereShape>(btScalar(1)),
                                             btTransform(btQuaternion::getIdentity(), btVector3(0, 10, 0)));
    const btScalar r = btScalar(0.5);
    for (const btScalar depth : {btScalar(0), btScalar(0.2)}) {
        const btVector3 start(0, 1 + r - depth, 0);  // touching (or overlapping) the top face
        const Closest in = sweepOurs(world.world(), r, start, start + btVector3(1, -1, 0));
        ASSERT_TRUE(in.hasHit());
        EXPECT_EQ(in.m_closestHitFraction, 0);
        EXPECT_FALSE(std::signbit(in.m_closestHitFraction));
        EXPECT_NEAR(in.m_hitNormalWorld.y(), 1, 1e-6);
        const Closest along = sweepOurs(world.world(), r, start, start + btVector3(0.5, 0, 0.3));
        EXPECT_FALSE(along.hasHit()) << "along the face: not stopped";
        const Closest away = sweepOurs(world.world(), r, start, start + btVector3(0, 20, 0));
        ASSERT_TRUE(away.hasHit()) << "away: the farther sphere is still found";
        EXPECT_EQ(away.m_hitCollisionObject, &far);
    }
}

TEST(SphereSweepSemantics, SlidingOnAFlatMeshAtTheRadiusCrossesItsInternalEdges) {
    SweepWorld world;
    FlatGrid floor(world, 16, btScalar(0.5));
    world.add(*floor.shape, btTransform::getIdentity());
    std::vector<btScalar> heights(9 * 9, btScalar(0));
    auto& terrain = world.make<btHeightfieldTerrainShape>(9, 9, heights.data(), btScalar(1), btScalar(-1),
                                                          btScalar(1), 1, PHY_FLOAT, false);
    world.add(terrain, btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 20)));
    Random random(11);
    for (const btScalar r : {btScalar(0.1), btScalar(0.5), btScalar(1)}) {
        for (int i = 0; i < 50; ++i) {
            const btScalar z0 = random.chance(0.5) ? 0 : 20;
            const btVector3 from(btScalar(random.uniform(-3, 3)), r, z0 + btScalar(random.uniform(-3, 3)));
            const btVector3 to(btScalar(random.uniform(-3, 3)), r, z0 + btScalar(random.uniform(-3, 3)));
            AllContacts all;
            sphereSweepTest(world.world(), r, from, to, all);
            EXPECT_TRUE(all.contacts.empty())
                << all.contacts.size() << " contacts, first at " << all.contacts[0].fraction;
            // Sinking by a hair: the floor stops it at once.
            const Closest sinking = sweepOurs(world.world(), r, from, to - btVector3(0, btScalar(0.01), 0));
            ASSERT_TRUE(sinking.hasHit());
            EXPECT_EQ(sinking.m_closestHitFraction, 0);
        }
    }
}

TEST(SphereSweepSemantics, TrianglesAreTwoSided) {
    SweepWorld world;
    FlatGrid floor(world);
    world.add(*floor.shape, btTransform::getIdentity());
    const Closest fromBelow =
        sweepOurs(world.world(), btScalar(0.5), btVector3(0.2f, -3, 0.7f), btVector3(0.2f, 3, 0.7f));
    ASSERT_TRUE(fromBelow.hasHit());
    EXPECT_NEAR(fromBelow.m_closestHitFraction, btScalar(2.5) / 6, 1e-5);
    EXPECT_NEAR(fromBelow.m_hitNormalWorld.y(), -1, 1e-6);
}

TEST(SphereSweepSemantics, ZeroLengthSweepIsAnOverlapTest) {
    SweepWorld world;
    world.add(world.make<btSphereShape>(btScalar(1.2)),
              btTransform(btQuaternion::getIdentity(), btVector3(1.5, 0.6, 0.5)));
    FlatGrid floor(world);
    world.add(*floor.shape, btTransform(btQuaternion::getIdentity(), btVector3(0, -1.2f, 0)));
    AllContacts touching;
    const btVector3 at(1.5, -0.9, 0.5);  // over the middle of a quad, its footprint within the quad
    sphereSweepTest(world.world(), btScalar(0.4), at, at, touching);
    ASSERT_EQ(touching.contacts.size(), 3u);  // the sphere, and the two triangles of the quad under it
    for (const Contact& contact : touching.contacts)
        EXPECT_EQ(contact.fraction, 0);
    AllContacts clear;
    sphereSweepTest(world.world(), btScalar(0.5), btVector3(3, 3, 3), btVector3(3, 3, 3), clear);
    EXPECT_TRUE(clear.contacts.empty());
}

TEST(SphereSweepSemantics, RadiusZeroIsTheRayCast) {
    SweepWorld world;
    Random random(5);
    for (int i = 0; i < 12; ++i) {
        const btTransform transform =
            placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(5)));
        if (i % 3 == 0) world.add(world.make<btSphereShape>(btScalar(random.uniform(0.3, 1))), transform);
        if (i % 3 == 1) world.add(world.make<btBoxShape>(btVector3(0.5, 0.7, 0.9)), transform);
        if (i % 3 == 2) world.add(world.make<btCapsuleShape>(btScalar(0.4), btScalar(1)), transform);
    }
    int hits = 0;
    for (int i = 0; i < 500; ++i) {
        const btVector3 from = toBullet(random.point<btScalar>(8)), to = toBullet(random.point<btScalar>(8));
        btCollisionWorld::ClosestRayResultCallback ray(from, to);
        rayTest(world.world(), from, to, ray);
        const Closest sweep = sweepOurs(world.world(), 0, from, to);
        if (ray.hasHit() && ray.m_closestHitFraction == 0) continue;  // from inside: a ray's own rule
        ASSERT_EQ(sweep.hasHit(), ray.hasHit());
        if (!ray.hasHit()) continue;
        ++hits;
        EXPECT_EQ(sweep.m_hitCollisionObject, ray.m_collisionObject);
        EXPECT_NEAR(sweep.m_closestHitFraction, ray.m_closestHitFraction, 1e-5);
        EXPECT_LE((sweep.m_hitNormalWorld - ray.m_hitNormalWorld).length(), btScalar(1e-4));
    }
    EXPECT_GT(hits, 30);
}

TEST(SphereSweepSemantics, AllowedPenetrationSweepsTheSmallerSphere) {
    SweepWorld world;
    world.add(world.make<btBoxShape>(btVector3(1, 1, 1)),
              btTransform(btQuaternion(0.2, 0.3, 0.1), btVector3(0, 0, 0)));
    Random random(13);
    for (int i = 0; i < 100; ++i) {
        const btVector3 from = toBullet(random.point<btScalar>(5)), to = -from;
        const Closest allowed = sweepOurs(world.world(), btScalar(0.5), from, to, btScalar(0.1));
        const Closest smaller = sweepOurs(world.world(), btScalar(0.4), from, to);
        ASSERT_EQ(allowed.hasHit(), smaller.hasHit());
        if (allowed.hasHit()) {
            EXPECT_EQ(allowed.m_closestHitFraction, smaller.m_closestHitFraction);
        }
        const Closest notFinite =
            sweepOurs(world.world(), btScalar(0.5), from, to, std::numeric_limits<btScalar>::quiet_NaN());
        const Closest none = sweepOurs(world.world(), btScalar(0.5), from, to);
        ASSERT_EQ(notFinite.hasHit(), none.hasHit());
        if (none.hasHit()) {
            EXPECT_EQ(notFinite.m_closestHitFraction, none.m_closestHitFraction);
        }
        const Closest beyond = sweepOurs(world.world(), btScalar(0.5), from, to, btScalar(2));  // a ray
        btCollisionWorld::ClosestRayResultCallback ray(from, to);
        rayTest(world.world(), from, to, ray);
        ASSERT_EQ(beyond.hasHit(), ray.hasHit());
    }
}

class MaskedOut : public btCollisionWorld::ClosestConvexResultCallback {
public:
    explicit MaskedOut(const btCollisionObject* skipped)
        : ClosestConvexResultCallback(btVector3(0, 0, 0), btVector3(0, 0, 0)), skipped_(skipped) {}
    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return proxy->m_clientObject != skipped_ && ClosestConvexResultCallback::needsCollision(proxy);
    }

private:
    const btCollisionObject* skipped_;
};

TEST(SphereSweepSemantics, FiltersAndNeedsCollisionAsBullets) {
    SweepWorld world;
    const btCollisionObject& near =
        world.add(world.make<btSphereShape>(btScalar(1)),
                  btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 3)), 2, -1);
    const btCollisionObject& far =
        world.add(world.make<btSphereShape>(btScalar(1)),
                  btTransform(btQuaternion::getIdentity(), btVector3(0, 0, 6)), 1, -1);
    const btVector3 from(0, 0, 0), to(0, 0, 10);
    EXPECT_EQ(sweepOurs(world.world(), 0.5, from, to).m_hitCollisionObject, &near);
    Closest masked;
    masked.m_collisionFilterMask = 1;  // not group 2
    sphereSweepTest(world.world(), btScalar(0.5), from, to, masked);
    EXPECT_EQ(masked.m_hitCollisionObject, &far);
    MaskedOut skipping(&near);
    sphereSweepTest(world.world(), btScalar(0.5), from, to, skipping);
    EXPECT_EQ(skipping.m_hitCollisionObject, &far);
    // A callback at 0 gets nothing; one stopping at its first contact gets no other.
    Closest done;
    done.m_closestHitFraction = 0;
    sphereSweepTest(world.world(), btScalar(0.5), from, to, done);
    EXPECT_EQ(done.m_hitCollisionObject, nullptr);  // (hasHit is m_closestHitFraction < 1)
    struct StopAtFirst : AllContacts {
        btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool inWorld) override {
            AllContacts::addSingleResult(result, inWorld);
            m_closestHitFraction = 0;
            return 0;
        }
    } stop;
    sphereSweepTest(world.world(), btScalar(0.5), from, to, stop);
    EXPECT_EQ(stop.contacts.size(), 1u);
}

TEST(SphereSweepSemantics, OtherBroadphasesGiveTheSameContacts) {
    SweepWorld dbvt, simple(std::make_unique<btSimpleBroadphase>());
    Random random(17);
    for (int i = 0; i < 30; ++i) {
        const btTransform transform =
            placed(random.rotation<btScalar>(), toBullet(random.point<btScalar>(8)));
        const btScalar size = btScalar(random.uniform(0.3, 1));
        dbvt.add(dbvt.make<btBoxShape>(btVector3(size, size, size)), transform);
        simple.add(simple.make<btBoxShape>(btVector3(size, size, size)), transform);
    }
    for (int i = 0; i < 200; ++i) {
        const btVector3 from = toBullet(random.point<btScalar>(10)),
                        to = toBullet(random.point<btScalar>(10));
        const Closest a = sweepOurs(dbvt.world(), btScalar(0.3), from, to);
        const Closest b = sweepOurs(simple.world(), btScalar(0.3), from, to);
        ASSERT_EQ(a.hasHit(), b.hasHit());
        if (a.hasHit()) {
            EXPECT_EQ(a.m_closestHitFraction, b.m_closestHitFraction);
        }
    }
}

// A scaled mesh is swept as its scaled triangles are: the same contacts as a mesh made of them.
TEST(SphereSweepSemantics, ScaledMeshesAreSweptScaled) {
    SweepWorld world;
    GridMesh unscaled, prescaled;
    const btVector3 scaling(2, btScalar(0.5), 3);
    const auto height = [](btScalar x, btScalar z) { return btScalar(0.4) * std::sin(x) * std::cos(z); };
    unscaled.addGrid(6, 6, 1, btVector3(-3, 0, -3), height);
    prescaled.addGrid(6, 6, 1, btVector3(-3, 0, -3), height);
    for (std::size_t k = 0; k < prescaled.coordinates(0).size(); ++k)
        prescaled.coordinates(0)[k] *= scaling[int(k % 3)];
    auto& base = world.make<btBvhTriangleMeshShape>(&unscaled.array(), true);
    auto& scaled = world.make<btScaledBvhTriangleMeshShape>(&base, scaling);
    auto& reference = world.make<btBvhTriangleMeshShape>(&prescaled.array(), true);
    const btTransform rotated(btQuaternion(0.3, 0.1, 0.2), btVector3(1, 0, 0));
    SweepWorld other;
    world.add(scaled, rotated);
    other.add(reference, rotated);
    Random random(23);
    int hits = 0, sameTriangle = 0;
    for (int i = 0; i < 300; ++i) {
        const btVector3 from = toBullet(random.point<btScalar>(6)), to = toBullet(random.point<btScalar>(6));
        const Closest a = sweepOurs(world.world(), btScalar(0.4), from, to);
        const Closest b = sweepOurs(other.world(), btScalar(0.4), from, to);
        ASSERT_EQ(a.hasHit(), b.hasHit());
        if (!a.hasHit()) continue;
        ++hits;
        EXPECT_NEAR(a.m_closestHitFraction, b.m_closestHitFraction, 1e-5);
        // Two triangles met at fractions within rounding: which one is kept depends on the walk's order.
        if (a.index != b.index || a.part != b.part) continue;
        ++sameTriangle;
        EXPECT_LE((a.m_hitNormalWorld - b.m_hitNormalWorld).length(), btScalar(1e-3));
        EXPECT_LE((a.m_hitPointWorld - b.m_hitPointWorld).length(), btScalar(1e-3));
    }
    EXPECT_GT(hits, 50);
    EXPECT_GT(sameTriangle, hits * 9 / 10);
}

// bullet3 #596: Bullet's hit point on rotated boxes came out metres from the sweep. Ours is the box's
// point the sphere touches: at the radius from the centre at the fraction.
TEST(SphereSweepSemantics, HitPointOnRotatedBoxesIsWhereTheSphereTouches) {
    SweepWorld world;
    const btTransform transform(
        btQuaternion(btScalar(-0.0571), btScalar(0.5722), btScalar(0.0400), btScalar(0.8172)),
        btVector3(0, 0, 120));
    world.add(world.make<btBoxShape>(btVector3(btScalar(19.92), btScalar(0.92), btScalar(49.92))), transform);
    for (int i = 0; i < 20; ++i)
        world.add(world.make<btBoxShape>(btVector3(1, 1, 1)),
                  btTransform(btQuaternion::getIdentity(), btVector3(btScalar(30 + 3 * i), 0, 100)));
    Random random(596);
    int hits = 0;
    for (int i = 0; i < 500; ++i) {
        const btVector3 from = btVector3(0, 0, 120) + toBullet(random.point<btScalar>(80));
        const btVector3 to = btVector3(0, 0, 120) + toBullet(random.point<btScalar>(30));
        const Closest ours = sweepOurs(world.world(), btScalar(0.45), from, to);
        if (!ours.hasHit() || ours.m_closestHitFraction == 0) continue;  // overlapping at the start
        ++hits;
        const btVector3 centre = from.lerp(to, ours.m_closestHitFraction);
        EXPECT_NEAR((ours.m_hitPointWorld - centre).length(), btScalar(0.45), btScalar(2e-3));
    }
    EXPECT_GT(hits, 100);
}

// analytic::World's convexSweepTest sweeps spheres exactly, leaves other shapes to Bullet, and is reached
// only through the World type (Bullet's is not virtual).
TEST(SphereSweepWorld, ConvexSweepTestOfASphereIsOursOtherShapesBullets) {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    World<btCollisionWorld> world(&dispatcher, &broadphase, &configuration);
    // A cube whose corner faces the sweep.
    btBoxShape target(btVector3(1, 1, 1));
    btCollisionObject object;
    object.setCollisionShape(&target);
    object.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(5, 5, 5)));
    world.addCollisionObject(&object);
    btSphereShape sphere(btScalar(0.5));
    btBoxShape box(btVector3(btScalar(0.5), btScalar(0.5), btScalar(0.5)));
    const btTransform from(btQuaternion(0.1, 0.2, 0.3), btVector3(0, 0, 0)),
        to(btQuaternion::getIdentity(), btVector3(10, 10, 10));
    const auto sweep = [&](const btCollisionWorld& through, const btConvexShape& shape) {
        btCollisionWorld::ClosestConvexResultCallback callback(from.getOrigin(), to.getOrigin());
        if (&through == &world)
            world.convexSweepTest(&shape, from, to, callback);
        else
            through.convexSweepTest(&shape, from, to, callback);
        return callback;
    };
    const auto exact = sweep(world, sphere);
    ASSERT_TRUE(exact.hasHit());
    const btScalar diagonal = btSqrt(btScalar(300));
    EXPECT_NEAR(exact.m_closestHitFraction, (btSqrt(btScalar(48)) - btScalar(0.5)) / diagonal, 1e-6);
    EXPECT_NEAR(exact.m_hitPointWorld.x(), 4, 1e-5);
    const Closest ours = sweepOurs(world, btScalar(0.5), from.getOrigin(), to.getOrigin());
    EXPECT_EQ(exact.m_closestHitFraction, ours.m_closestHitFraction);
    // Through the base class: Bullet's. A sweep of zero length overlapping the cube is an overlap test for
    // ours, and nothing for Bullet's.
    const btTransform inside(btQuaternion::getIdentity(), btVector3(btScalar(4.2), 5, 5));
    btCollisionWorld::ClosestConvexResultCallback overlapOurs(inside.getOrigin(), inside.getOrigin()),
        overlapBullets(inside.getOrigin(), inside.getOrigin());
    world.convexSweepTest(&sphere, inside, inside, overlapOurs);
    static_cast<const btCollisionWorld&>(world).convexSweepTest(&sphere, inside, inside, overlapBullets);
    EXPECT_EQ(overlapOurs.m_hitCollisionObject, &object);
    EXPECT_EQ(overlapOurs.m_closestHitFraction, 0);
    EXPECT_EQ(overlapBullets.m_hitCollisionObject, nullptr);
    // Another shape: Bullet's, the same answer through either.
    const auto boxOurs = sweep(world, box),
               boxBullets = sweep(static_cast<const btCollisionWorld&>(world), box);
    ASSERT_TRUE(boxOurs.hasHit());
    EXPECT_EQ(boxOurs.m_closestHitFraction, boxBullets.m_closestHitFraction);
    world.removeCollisionObject(&object);
}

// ---- Hostile input -----------------------------------------------------------------------------------

TEST(SphereSweepHostile, InvalidRadiusThrowsAndNonFiniteEndsMeetNothing) {
    SweepWorld world;
    world.add(world.make<btSphereShape>(btScalar(1)), btTransform::getIdentity());
    FlatGrid floor(world);
    world.add(*floor.shape, btTransform(btQuaternion::getIdentity(), btVector3(0, -2, 0)));
    Closest callback;
    constexpr btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
    constexpr btScalar inf = std::numeric_limits<btScalar>::infinity();
    for (const btScalar radius : {btScalar(-1), nan, inf, -inf})
        EXPECT_THROW(
            sphereSweepTest(world.world(), radius, btVector3(0, 5, 0), btVector3(0, -5, 0), callback),
            std::invalid_argument);
    const btScalar huge = std::numeric_limits<btScalar>::max();
    for (const btVector3& end : {btVector3(nan, 0, 0), btVector3(inf, 0, 0), btVector3(0, -inf, 0),
                                 btVector3(huge, huge, huge), btVector3(-huge, 0, 0)}) {
        AllContacts all;
        sphereSweepTest(world.world(), btScalar(0.5), btVector3(0, 5, 0), end, all);
        sphereSweepTest(world.world(), btScalar(0.5), end, btVector3(0, 5, 0), all);
        for (const Contact& contact : all.contacts) {
            EXPECT_TRUE(std::isfinite(contact.fraction) && contact.fraction >= 0 && contact.fraction <= 1);
            EXPECT_TRUE(isFinite(toGlm(contact.normal)) && isFinite(toGlm(contact.point)));
        }
    }
    // A sweep 1e9 long and a huge radius still give finite contacts.
    AllContacts far;
    sphereSweepTest(world.world(), btScalar(1e6), btVector3(0, 1e9f, 0), btVector3(0, -1e9f, 0), far);
    ASSERT_FALSE(far.contacts.empty());
    for (const Contact& contact : far.contacts)
        EXPECT_TRUE(std::isfinite(contact.fraction) && isFinite(toGlm(contact.normal)) &&
                    isFinite(toGlm(contact.point)));
}

// A shape of negative size (its box with min > max) is met by nothing, as by rays, through the world and
// through a QueryScene alike. (The fuzz finding where the world's sweep grew such a box into a valid one, a
// rotated and scaled capsule, is kept in the sweep_world corpus: finding-inverted-capsule-box.)
TEST(SphereSweepHostile, AShapeOfNegativeSizeIsNeverMet) {
    SweepWorld world;
    world.add(world.make<btCapsuleShape>(btScalar(-3.5e-7), btScalar(1e7)), btTransform::getIdentity());
    world.world().updateAabbs();
    const QueryScene scene(world.world());
    for (const btScalar radius : {btScalar(0), btScalar(0.5)}) {
        for (const btVector3& to : {btVector3(0, 0, 0), btVector3(0, 0, 3)}) {
            const Closest ours = sweepOurs(world.world(), radius, btVector3(0, 0, 0), to);
            EXPECT_EQ(ours.m_hitCollisionObject, nullptr);
            Closest fromScene;
            scene.sphereSweepTest(radius, btVector3(0, 0, 0), to, fromScene);
            EXPECT_EQ(fromScene.m_hitCollisionObject, nullptr);
        }
    }
}

}  // namespace
}  // namespace analytic::test
