// SPDX-License-Identifier: Zlib
// analytic::rayTest on Bullet's cones (btConeShape, btConeShapeX, btConeShapeZ), in the build's btScalar.
// A btConeShape is its cone grown by the collision margin; we meet the core's RoundedCone. Checked:
// - placement: from what Bullet documents of the shape (apex at +height / 2 along the up axis, base at
//   -height / 2, radius and height already scaled by setLocalScaling, the margin around it), every
//   fraction equals the core's first hit on that solid (hit at 0 for origins inside), rotated, moved and
//   scaled, for each up axis;
// - Bullet parity: our hit points lie on the true solid (the cone grown by its margin, judged by the
//   distance to the cone in long double), or up to 0.42 margins out at the rim; where Bullet's fraction
//   differs from ours by more than its tolerance (1 cm) and our rim's, or it hits where we do not, its
//   point is off the true surface by more than its tolerance; rays starting inside hit at 0 (Bullet
//   mostly reports nothing);
// - a batch answers as rayTest; a cone without radius falls back to Bullet's own cast.
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

using Scalar = btScalar;

// One cone in a world of its own, and Bullet's and our casts on it.
class ConeWorld {
public:
    ConeWorld(std::unique_ptr<btConeShape> shape, const btTransform& transform) : shape_(std::move(shape)) {
        object_.setCollisionShape(shape_.get());
        object_.setWorldTransform(transform);
        world_.addCollisionObject(&object_);
        world_.updateAabbs();
    }
    ~ConeWorld() { world_.removeCollisionObject(&object_); }

    const btCollisionWorld& world() const { return world_; }
    const btConeShape& shape() const { return *shape_; }
    const btTransform& transform() const { return object_.getWorldTransform(); }

    // The fraction of the closest hit, or nothing.
    std::optional<Scalar> ours(const btVector3& from, const btVector3& to) const {
        btCollisionWorld::ClosestRayResultCallback callback(from, to);
        rayTest(world_, from, to, callback);
        return callback.hasHit() ? std::optional(callback.m_closestHitFraction) : std::nullopt;
    }
    std::optional<Scalar> bullets(const btVector3& from, const btVector3& to) {
        btCollisionWorld::ClosestRayResultCallback callback(from, to);
        world_.btCollisionWorld::rayTest(from, to, callback);
        return callback.hasHit() ? std::optional(callback.m_closestHitFraction) : std::nullopt;
    }

    // The solid as Bullet documents it, placed.
    RoundedCone<Scalar> documentedSolid() const {
        btVector3 up(0, 0, 0);
        up[shape_->getConeUpIndex()] = shape_->getHeight() / 2;
        return {{toGlm(transform() * up), toGlm(transform() * -up), std::abs(shape_->getRadius())},
                shape_->getMargin()};
    }

private:
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    btCollisionWorld world_{&dispatcher_, &broadphase_, &configuration_};
    std::unique_ptr<btConeShape> shape_;
    btCollisionObject object_;
};

std::unique_ptr<btConeShape> makeCone(int upAxis, Scalar radius, Scalar height) {
    if (upAxis == 0) return std::make_unique<btConeShapeX>(radius, height);
    if (upAxis == 2) return std::make_unique<btConeShapeZ>(radius, height);
    return std::make_unique<btConeShape>(radius, height);
}

// A ray from around the cone (within 4 of its reach) towards a point near it, long enough to pass it.
struct TestRay {
    btVector3 from, to;
};

TestRay rayNear(Random& random, const RoundedCone<Scalar>& solid) {
    const Vec3<double> centre = (Vec3<double>(solid.cone.apex) + Vec3<double>(solid.cone.base)) / 2.0;
    const double reach =
        glm::length(Vec3<double>(solid.cone.apex) - centre) + solid.cone.radius + solid.margin;
    const Vec3<double> target = centre + random.point<double>(1.2 * reach);
    const Vec3<double> from = centre + random.unitVector<double>() * (4 * reach);
    const Vec3<double> to = from + (target - from) * 2.0;
    return {toBullet(Vec3<Scalar>(from)), toBullet(Vec3<Scalar>(to))};
}

// The rotations, positions and scalings the tests use: up axis, then a random placement.
template <class Check> void forRandomCones(int seed, Check check) {
    Random random{std::uint64_t(seed)};
    for (int upAxis = 0; upAxis < 3; ++upAxis) {
        for (int i = 0; i < 8; ++i) {
            auto shape =
                makeCone(upAxis, Scalar(random.logUniform(0.2, 2)), Scalar(random.logUniform(0.2, 4)));
            if (i % 2 == 1) {
                const auto factor = [&] { return Scalar(random.uniform(0.5, 2)); };
                shape->setLocalScaling(btVector3(factor(), factor(), factor()));
            }
            if (i % 4 == 3) shape->setMargin(Scalar(random.logUniform(0.001, 0.2)));
            const btTransform transform =
                transformOf(random.rotation<Scalar>(), toBullet(Vec3<Scalar>(random.point<double>(20))));
            ConeWorld world(std::move(shape), transform);
            check(world, random);
        }
    }
}

TEST(RayConeShape, FractionsAreTheDocumentedSolidsFirstHits) {
    int hits = 0;
    forRandomCones(3, [&](ConeWorld& world, Random& random) {
        const RoundedCone<Scalar> solid = world.documentedSolid();
        for (int k = 0; k < 200; ++k) {
            const TestRay ray = rayNear(random, solid);
            const RayPath<Scalar> path = segmentRay(toGlm(ray.from), toGlm(ray.to));
            const auto expected =
                firstHit(intersectRayRoundedCone(path, solid), path, StartInside::HitAtOrigin);
            const std::optional<Scalar> ours = world.ours(ray.from, ray.to);
            ASSERT_EQ(ours.has_value(), expected.has_value()) << "up axis " << world.shape().getConeUpIndex();
            if (!ours) continue;
            ++hits;
            EXPECT_EQ(*ours, expected->t);
        }
    });
    EXPECT_GT(hits, 500);  // the rays aimed near the cones, many at them
}

// How far the point lies outside the solid cone (0 inside), in long double: the distance in the half plane
// of the axis through the point to the triangle apex, base centre, rim.
Real distanceOutsideCone(const btVector3& point, const Cone<Scalar>& cone) {
    const RealVec3 apex = widen(cone.apex), base = widen(cone.base), p = widen(toGlm(point));
    const Real height = glm::length(apex - base);
    const RealVec3 up = (apex - base) / height;
    const Real along = glm::dot(p - base, up), across = glm::length((p - base) - along * up);
    const Real radius = cone.radius;
    // Inside: above the base plane, below the apex and within the side.
    if (along >= 0 && across <= radius * (1 - along / height)) return 0;
    const auto toSegment = [&](Real x0, Real y0, Real x1, Real y1) {
        const Real dx = x1 - x0, dy = y1 - y0;
        const Real s =
            std::clamp(((across - x0) * dx + (along - y0) * dy) / (dx * dx + dy * dy), Real(0), Real(1));
        return std::hypot(across - (x0 + s * dx), along - (y0 + s * dy));
    };
    return std::min(
        {toSegment(0, 0, radius, 0), toSegment(radius, 0, 0, height), toSegment(0, height, 0, 0)});
}

TEST(RayConeShape, AgreesWithBulletWhereBulletIsRight) {
    int compared = 0, bulletOff = 0, bulletFalseHits = 0, bulletMissesInside = 0, insideRays = 0;
    forRandomCones(5, [&](ConeWorld& world, Random& random) {
        const RoundedCone<Scalar> solid = world.documentedSolid();
        const Real margin = solid.margin;
        // Bullet's GJK cast stops within 1 cm (squared distance 1e-4); our rim lies up to 0.42 margins out.
        const Real bulletTolerance = 0.011L, tolerance = bulletTolerance + 0.42L * margin;
        for (int k = 0; k < 200; ++k) {
            TestRay ray = rayNear(random, solid);
            if (k % 10 == 0) {  // from a point inside the cone
                const Vec3<Scalar> inside =
                    solid.cone.base + Scalar(0.3) * (solid.cone.apex - solid.cone.base);
                ray = {toBullet(inside), ray.to};
                ++insideRays;
            }
            const Real length = Real((ray.to - ray.from).length());
            const std::optional<Scalar> ours = world.ours(ray.from, ray.to);
            const std::optional<Scalar> bullets = world.bullets(ray.from, ray.to);
            if (ours && *ours == 0) {
                bulletMissesInside += !bullets;  // a ray starting inside: Bullet mostly reports nothing
                continue;
            }
            // How far outside the true solid (the cone grown by its margin) a hit point lies.
            const auto outside = [&](Scalar fraction) {
                return distanceOutsideCone(ray.from.lerp(ray.to, fraction), solid.cone) - margin;
            };
            if (ours) {
                // Ours is on our solid: the true surface, or up to 0.42 margins out near the rim.
                const Real ourOffset = outside(*ours);
                EXPECT_GE(ourOffset, -1e-4L) << "our hit inside the solid";
                EXPECT_LE(ourOffset, 0.42L * margin + 1e-4L) << "our hit off the solid";
            }
            if (!bullets) continue;
            const Real bulletOffset = outside(*bullets);
            if (bulletOffset < -1e-4L) {
                // Bullet's point is inside the true solid, so the ray enters ours, no later.
                EXPECT_TRUE(ours) << "a hit inside the solid that we miss";
                if (ours) {
                    EXPECT_LE(*ours, *bullets);
                }
            }
            if (!ours) {
                ++bulletFalseHits;  // its point outside the solid (else the check above fails)
                continue;
            }
            ++compared;
            if (std::abs(Real(*ours) - Real(*bullets)) * length > tolerance)
                bulletOff += std::abs(bulletOffset) > bulletTolerance;
        }
    });
    EXPECT_GT(compared, 500);
    EXPECT_GT(bulletMissesInside, insideRays / 2);  // where we differ from Bullet on purpose
    std::printf(
        "cones: %d rays hit by both, on %d of them Bullet's point off the true surface by more than its "
        "tolerance; %d hits of Bullet's outside the solid where we see none; rays starting inside: %d, "
        "Bullet missed %d\n",
        compared, bulletOff, bulletFalseHits, insideRays, bulletMissesInside);
}

TEST(RayConeShape, BatchAnswersAsRayTest) {
    forRandomCones(7, [&](ConeWorld& world, Random& random) {
        std::vector<Ray> rays;
        for (int k = 0; k < 100; ++k) {
            const TestRay ray = rayNear(random, world.documentedSolid());
            rays.push_back({ray.from, ray.to});
        }
        std::vector<RayHit> hits(rays.size());
        rayTestBatch(world.world(), rays, hits);
        for (std::size_t k = 0; k < rays.size(); ++k) {
            const std::optional<Scalar> ours = world.ours(rays[k].from, rays[k].to);
            ASSERT_EQ(ours.has_value(), hits[k].object != nullptr);
            if (ours) {
                EXPECT_EQ(*ours, hits[k].fraction);
            }
        }
    });
}

TEST(RayConeShape, ConeWithoutRadiusIsCastByBullet) {
    ConeWorld world(makeCone(1, 0, 2), btTransform::getIdentity());
    Random random(11);
    int hits = 0;
    for (int k = 0; k < 200; ++k) {
        const btVector3 from = toBullet(Vec3<Scalar>(random.point<double>(1) + Vec3<double>(0, 0, 3)));
        const btVector3 to = toBullet(Vec3<Scalar>(random.point<double>(0.05) - Vec3<double>(0, 0, 3)));
        const auto ours = world.ours(from, to);
        const auto bullets = world.bullets(from, to);
        ASSERT_EQ(ours.has_value(), bullets.has_value());
        if (ours) {
            EXPECT_EQ(*ours, *bullets);
        }
        hits += ours.has_value();
    }
    EXPECT_GT(hits, 0);
}

}  // namespace
}  // namespace analytic::test
