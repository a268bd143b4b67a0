// SPDX-License-Identifier: Zlib
// Capsule - box (Pair::CapsuleBox) and sphere - capsule (Pair::SphereCapsule) in real worlds: their
// contacts on random configurations against an exact long double reference, in both argument orders and
// both tables, and against Bullet's GJK where both are exact (the cores apart, so GJK's answer is a
// distance, not EPA's penetration estimate); a capsule rests on a box lying (held at both ends) and
// upright; a sphere rests in a cradle of two capsules; hostile shapes and transforms give no crash and
// no non-finite contact.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/plugin.hpp"
#include "reference/distance_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::BulletWorld;
using test::Random;
using test::Real;
using test::RealVec3;
using test::SeenContact;
namespace ref = reference;

constexpr int kCases = 5000;
constexpr Real u = Real(unitRoundoff<btScalar>);

RealVec3 real(const btVector3& v) { return test::widen(toGlm(v)); }

btVector3 bullet(const Vec3<double>& v) { return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z)); }

btCapsuleShape* newCapsule(int upAxis, btScalar radius, btScalar height) {
    if (upAxis == 0) return new btCapsuleShapeX(radius, height);
    if (upAxis == 2) return new btCapsuleShapeZ(radius, height);
    return new btCapsuleShape(radius, height);
}

// The capsule's axis as the reference takes it: the object's transform applied to +-halfHeight along
// its up axis, in long double.
struct RealCapsule {
    RealVec3 a, b;
    Real radius;
};

RealCapsule realCapsule(const btCollisionObject& object) {
    const auto& shape = static_cast<const btCapsuleShape&>(*object.getCollisionShape());
    const btTransform& transform = object.getWorldTransform();
    const RealVec3 axis = test::widen(toGlm(transform.getBasis().getColumn(shape.getUpAxis())));
    const RealVec3 centre = real(transform.getOrigin());
    const Real half = Real(shape.getHalfHeight());
    return {centre - half * axis, centre + half * axis, Real(shape.getRadius())};
}

// The minimum over the axis of a convex distance (golden section to long double's resolution, and ends),
// and where it is reached.
struct Minimum {
    Real value;
    Real s;
};

template <class F> Minimum minimumOverSegment(F distanceAt) {
    const Real ratio = (std::sqrt(Real(5)) - 1) / 2;
    Real low = 0, high = 1, x1 = high - ratio, x2 = low + ratio;
    Real f1 = distanceAt(x1), f2 = distanceAt(x2);
    for (int i = 0; i < 120; ++i) {
        if (f1 <= f2) {
            high = x2, x2 = x1, f2 = f1, x1 = high - ratio * (high - low), f1 = distanceAt(x1);
        } else {
            low = x1, x1 = x2, f1 = f2, x2 = low + ratio * (high - low), f2 = distanceAt(x2);
        }
    }
    Minimum best{f1, x1};
    for (const Minimum candidate :
         {Minimum{f2, x2}, Minimum{distanceAt(Real(0)), 0}, Minimum{distanceAt(Real(1)), 1}})
        if (candidate.value < best.value) best = candidate;
    return best;
}

// A dynamic A and a static B in two worlds, one with the plugin's pairs and one with Bullet's own, given
// new shapes and places for each case.
class PairWorlds {
public:
    explicit PairWorlds(PairSet pairs) {
        for (Side& side : sides_) {
            side.a = &side.world.addBody(placeholder_, btVector3(0, 0, 0), 1);
            side.b = &side.world.addBody(placeholder_, btVector3(0, 0, 0));
        }
        plugin_ = std::make_unique<Plugin>(sides_[0].world.world(), pairs);
    }

    void set(std::unique_ptr<btCollisionShape> a, std::unique_ptr<btCollisionShape> b,
             const btTransform& placeA, const btTransform& placeB) {
        for (Side& side : sides_) {
            side.a->setCollisionShape(a.get());
            side.b->setCollisionShape(b.get());
            side.a->setWorldTransform(placeA);
            side.b->setWorldTransform(placeB);
        }
        shapeA_ = std::move(a);
        shapeB_ = std::move(b);
    }

    btCollisionObject& a() { return *sides_[0].a; }
    btCollisionObject& b() { return *sides_[0].b; }

    // Ours, seen from A: one step's narrow phase in either order (contact-points table) and
    // contactPairTest in either order (closest-points table).
    std::vector<std::vector<SeenContact>> ours(Real& reach) {
        Side& side = sides_[0];
        const test::PairPass aFirst = test::collideOnce(side.world.dispatcher(), *side.a, *side.b, *side.a);
        const test::PairPass bFirst = test::collideOnce(side.world.dispatcher(), *side.b, *side.a, *side.a);
        std::vector<std::vector<SeenContact>> passes{aFirst.contacts, bFirst.contacts};
        for (const bool aIs0 : {true, false}) {
            test::SeenContactsCallback callback(*side.a);
            side.world.world().contactPairTest(aIs0 ? side.a : side.b, aIs0 ? side.b : side.a, callback);
            passes.push_back(callback.contacts);
        }
        reach = Real(aFirst.breakingThreshold);
        return passes;
    }

    std::vector<SeenContact> bullets() {
        Side& side = sides_[1];
        return test::collideOnce(side.world.dispatcher(), *side.a, *side.b, *side.a).contacts;
    }

private:
    struct Side {
        BulletWorld world;
        btRigidBody* a = nullptr;
        btRigidBody* b = nullptr;
    };
    btSphereShape placeholder_{1};
    std::unique_ptr<btCollisionShape> shapeA_, shapeB_;
    std::array<Side, 2> sides_;
    std::unique_ptr<Plugin> plugin_;
};

double randomSize(Random& random) { return random.logUniform(0.05, 5); }

btTransform randomTransform(Random& random, const Vec3<double>& origin) {
    return test::transformOf(Mat3<btScalar>(random.rotation<double>()), bullet(origin));
}

// ---------------------------------------------------------------------------------------------------
// Sphere - capsule: one contact, along the offset from the axis's nearest point to the centre.

TEST(CapsulePairsAgreement, SphereCapsuleMatchesTheReferenceAndBulletsGjk) {
    PairWorlds worlds(Pair::SphereCapsule);
    Random random(77);
    int contacts = 0, comparedWithBullet = 0;
    Real worstDistance = 0, worstNormal = 0, worstBullet = 0;
    for (int i = 0; i < kCases; ++i) {
        const double radius = randomSize(random), capsuleRadius = randomSize(random);
        const double halfHeight = capsuleRadius * random.uniform(0, 3);
        const int upAxis = int(random.uniform(0, 3));
        const btTransform capsulePlace = randomTransform(random, random.point<double>(10));
        // The centre near the capsule's surface: beside the axis or past an end.
        Vec3<double> local(0);
        local[upAxis] = random.uniform(-halfHeight - capsuleRadius, halfHeight + capsuleRadius);
        const double beyond = std::max(0.0, std::abs(local[upAxis]) - halfHeight);
        const double sideways = std::sqrt(std::max(0.0, capsuleRadius * capsuleRadius - beyond * beyond));
        const double gap = std::min(radius, capsuleRadius) * random.uniform(-0.5, 0.05);
        const double around = random.uniform(0, 2 * M_PI);
        local[(upAxis + 1) % 3] = std::cos(around) * (sideways + radius + gap);
        local[(upAxis + 2) % 3] = std::sin(around) * (sideways + radius + gap);
        const btVector3 centre = capsulePlace * bullet(local);
        worlds.set(std::make_unique<btSphereShape>(btScalar(radius)),
                   std::unique_ptr<btCollisionShape>(
                       newCapsule(upAxis, btScalar(capsuleRadius), btScalar(2 * halfHeight))),
                   btTransform(btQuaternion::getIdentity(), centre), capsulePlace);
        const RealCapsule axis = realCapsule(worlds.b());
        const RealVec3 c = real(centre);
        const RealVec3 nearest = ref::closestPointOnSegment(c, axis.a, axis.b).point;
        const Real length = glm::length(c - nearest);
        const Real sphereRadius = Real(btScalar(radius));
        const Real exact = length - axis.radius - sphereRadius;
        const RealVec3 normal = (c - nearest) / length;
        const Real scale = glm::length(c) + Real(radius + capsuleRadius + halfHeight);
        const Real bound = 64 * u * scale, band = 256 * u * scale;
        Real reach = 0;
        const auto passes = worlds.ours(reach);
        for (std::size_t pass = 0; pass < passes.size(); ++pass) {
            SCOPED_TRACE(::testing::Message() << "case " << i << ", pass " << pass);
            const std::vector<SeenContact>& seen = passes[pass];
            if (exact < reach - band) {
                ASSERT_EQ(seen.size(), 1u);
            } else if (exact > reach + band) {
                ASSERT_TRUE(seen.empty());
            }
            for (const SeenContact& contact : seen) {
                ++contacts;
                const Real distanceError = std::abs(Real(contact.distance) - exact);
                EXPECT_LE(distanceError, bound);
                worstDistance = std::max(worstDistance, distanceError / bound);
                // A direction over the lever from the axis to the centre, both known to roundings of the
                // scale.
                const Real normalBound = 128 * u * scale / length;
                const Real angle = test::angleBetween(real(contact.normalOnB), normal);
                EXPECT_LE(angle, normalBound);
                worstNormal = std::max(worstNormal, angle / normalBound);
                EXPECT_LE(glm::length(real(contact.pointOnB) - (nearest + axis.radius * normal)),
                          2 * bound + normalBound * axis.radius);
            }
        }
        // Bullet's GJK, where the cores (the centre, the axis) are well apart: a distance, not EPA's.
        const Real smaller = Real(std::min(radius, capsuleRadius));
        if (exact > -0.5 * smaller && exact < 0) {
            const std::vector<SeenContact> bullet = worlds.bullets();
            if (bullet.size() == 1) {
                ++comparedWithBullet;
                const Real difference = std::abs(Real(bullet[0].distance) - exact);
                worstBullet = std::max(worstBullet, difference / smaller);
                EXPECT_LE(difference, 1e-3 * smaller) << "case " << i;
            }
        }
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    std::printf(
        "sphere-capsule: %d contacts, worst distance error / bound %.3g, normal %.3g; %d compared with "
        "Bullet's GJK, worst difference %.3g of the smaller radius\n",
        contacts, double(worstDistance), double(worstNormal), comparedWithBullet, double(worstBullet));
    EXPECT_GT(contacts, kCases);
    EXPECT_GT(comparedWithBullet, kCases / 10);
}

// ---------------------------------------------------------------------------------------------------
// Capsule - box: the deepest point at the axis's exact distance from the box less the radius (apart; at
// least that deep overlapping), every point on the box's surface with its point on A in the capsule;
// Bullet's GJK agrees where the cores are apart.

TEST(CapsulePairsAgreement, CapsuleBoxMatchesTheReferenceAndBulletsGjk) {
    PairWorlds worlds(Pair::CapsuleBox);
    Random random(78);
    int contacts = 0, twoPoints = 0, comparedWithBullet = 0, penetrating = 0, bulletAgrees = 0;
    Real worstDistance = 0, worstBullet = 0;
    for (int i = 0; i < kCases; ++i) {
        const double capsuleRadius = randomSize(random);
        const double halfHeight = capsuleRadius * random.uniform(0, 3);
        const int upAxis = int(random.uniform(0, 3));
        const double size = randomSize(random);
        const Vec3<double> half(size * random.uniform(0.3, 1), size * random.uniform(0.3, 1),
                                size * random.uniform(0.3, 1));
        const btTransform boxPlace = randomTransform(random, random.point<double>(10));
        // The capsule's centre near the box grown by its radius and half height; lying near flat on a
        // face for a third of the cases.
        Mat3<double> rotation = random.rotation<double>();
        Vec3<double> local;
        if (random.chance(1.0 / 3)) {
            const int face = int(random.uniform(0, 3));
            Mat3<double> lying(1);
            const double tilt = random.uniform(-0.01, 0.01), spin = random.uniform(0, 2 * M_PI);
            Vec3<double> along(0);
            along[(face + 1) % 3] = std::cos(spin);
            along[(face + 2) % 3] = std::sin(spin);
            along[face] = tilt;
            along = glm::normalize(along);
            Vec3<double> other(0);
            other[face] = 1;
            rotation[upAxis] = along;
            rotation[(upAxis + 1) % 3] = glm::normalize(glm::cross(other, along));
            rotation[(upAxis + 2) % 3] = glm::cross(along, rotation[(upAxis + 1) % 3]);
            local = Vec3<double>(random.uniform(-half.x, half.x), random.uniform(-half.y, half.y),
                                 random.uniform(-half.z, half.z));
            local[face] =
                (random.chance(0.5) ? 1 : -1) * (half[face] + capsuleRadius * random.uniform(0.5, 1.05));
        } else {
            const Vec3<double> reach = half + capsuleRadius * 1.05 + halfHeight;
            local = Vec3<double>(random.uniform(-reach.x, reach.x), random.uniform(-reach.y, reach.y),
                                 random.uniform(-reach.z, reach.z));
        }
        const Mat3<double> boxBasis(toGlm(boxPlace.getBasis()));
        const btTransform capsulePlace =
            test::transformOf(Mat3<btScalar>(boxBasis * rotation), boxPlace * bullet(local));
        worlds.set(std::unique_ptr<btCollisionShape>(
                       newCapsule(upAxis, btScalar(capsuleRadius), btScalar(2 * halfHeight))),
                   std::make_unique<btBoxShape>(bullet(half)), capsulePlace, boxPlace);
        const auto& box = static_cast<const btBoxShape&>(*worlds.b().getCollisionShape());
        const RealVec3 boxCentre = real(boxPlace.getOrigin()), boxHalf = real(box.getHalfExtentsWithMargin());
        const Mat3<Real> basis = test::widen(toGlm(boxPlace.getBasis()));
        const RealCapsule axis = realCapsule(worlds.a());
        const Minimum nearest = minimumOverSegment([&](Real s) {
            return ref::distancePointObb(axis.a + s * (axis.b - axis.a), boxCentre, basis, boxHalf);
        });
        const Real exact = nearest.value - axis.radius;
        // Whether the box's nearest point is inside a face, beyond the rounding of Bullet's margin (0.04)
        // at its edges, where GJK's box is ours.
        const RealVec3 nearestLocal = ref::obbLocal(
            ref::closestPointOnObb(axis.a + nearest.s * (axis.b - axis.a), boxCentre, basis, boxHalf),
            boxCentre, basis);
        int onFaces = 0, nearEdges = 0;
        for (int k = 0; k < 3; ++k) {
            onFaces += std::abs(nearestLocal[k]) >= boxHalf[k] - Real(1e-6);
            nearEdges += std::abs(nearestLocal[k]) > boxHalf[k] - Real(0.05);
        }
        const bool insideAFace = onFaces == 1 && nearEdges == 1;
        const Real scale =
            glm::length(real(capsulePlace.getOrigin())) + Real(size + capsuleRadius + halfHeight);
        const Real bound = 64 * u * scale, band = 256 * u * scale;
        Real reach = 0;
        const auto passes = worlds.ours(reach);
        for (std::size_t pass = 0; pass < passes.size(); ++pass) {
            SCOPED_TRACE(::testing::Message() << "case " << i << ", pass " << pass);
            const std::vector<SeenContact>& seen = passes[pass];
            if (exact < reach - band) {
                ASSERT_FALSE(seen.empty());
            } else if (exact > reach + band) {
                ASSERT_TRUE(seen.empty());
            }
            if (seen.empty()) continue;
            EXPECT_LE(seen.size(), 2u);
            contacts += int(seen.size());
            twoPoints += seen.size() == 2;
            Real deepest = std::numeric_limits<Real>::infinity();
            for (const SeenContact& contact : seen) {
                deepest = std::min(deepest, Real(contact.distance));
                EXPECT_LE(Real(contact.distance), reach + band);
                // On the box's surface; the point on A on the capsule's.
                EXPECT_NEAR(
                    double(ref::signedDistancePointObb(real(contact.pointOnB), boxCentre, basis, boxHalf)),
                    0.0, double(bound));
                EXPECT_LE(double(ref::distancePointSegment(real(contact.pointOnA), axis.a, axis.b)),
                          double(axis.radius + bound));
            }
            if (exact >= band) {
                const Real error = std::abs(deepest - exact);
                EXPECT_LE(error, bound);
                worstDistance = std::max(worstDistance, error / bound);
            } else if (exact > -axis.radius + band) {
                // Overlapping: at least as deep along the normal as the distance says.
                EXPECT_LE(deepest, exact + bound);
            } else {
                ++penetrating;
                EXPECT_LE(deepest, -axis.radius + bound);
            }
        }
        // Bullet's GJK where the cores are apart (the axis more than a margin from the box's core) and
        // the nearest point is inside a face.
        if (exact > -0.5 * axis.radius && exact < 0 && insideAFace) {
            const std::vector<SeenContact> bullet = worlds.bullets();
            if (bullet.size() == 1) {
                ++comparedWithBullet;
                // GJK stops within about 1e-4 of the shapes' sizes and of a metre.
                const Real tolerance = Real(1e-4) * (axis.radius + Real(size) + 1);
                const Real difference = std::abs(Real(bullet[0].distance) - exact);
                worstBullet = std::max(worstBullet, difference / tolerance);
                bulletAgrees += difference <= tolerance;
            }
        }
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    std::printf(
        "capsule-box: %d contacts, %d passes with 2 points, %d with the axis in the box; worst distance "
        "error / bound %.3g; %d compared with Bullet's GJK, worst difference %.3g of 1e-4 of the sizes plus "
        "1 m\n",
        contacts, twoPoints, penetrating, double(worstDistance), comparedWithBullet, double(worstBullet));
    // Ours matches the exact reference above; GJK stops short of it now and then.
    std::printf("capsule-box: Bullet's GJK within 1e-4 of the sizes plus 1 m in %d of %d\n", bulletAgrees,
                comparedWithBullet);
    EXPECT_GT(twoPoints, kCases / 4);
    EXPECT_GT(comparedWithBullet, kCases / 10);
    EXPECT_GE(bulletAgrees, 0.95 * comparedWithBullet);
}

// ---------------------------------------------------------------------------------------------------
// Resting.

// A capsule (radius 0.3, height 1) dropped on a static box 0.5 high, lying or upright: its centre's
// height after 2 s, and its points in the manifold.
struct Rest {
    btScalar height;
    int points;
    btScalar angularSpeed;
};

Rest capsuleOnBox(bool ours, int upAxis, bool lying) {
    BulletWorld world;
    btCollisionObject& box =
        world.addBody(world.makeShape<btBoxShape>(btVector3(2, 0.5, 2)), btVector3(0, 0, 0));
    btQuaternion rotation = btQuaternion::getIdentity();
    if (lying && upAxis == 1) rotation = btQuaternion(btVector3(0, 0, 1), btScalar(M_PI / 2));
    if (!lying && upAxis == 0) rotation = btQuaternion(btVector3(0, 0, 1), btScalar(M_PI / 2));
    if (!lying && upAxis == 2) rotation = btQuaternion(btVector3(1, 0, 0), btScalar(M_PI / 2));
    btCollisionShape& shape =
        upAxis == 0   ? static_cast<btCollisionShape&>(world.makeShape<btCapsuleShapeX>(0.3, 1))
        : upAxis == 2 ? static_cast<btCollisionShape&>(world.makeShape<btCapsuleShapeZ>(0.3, 1))
                      : static_cast<btCollisionShape&>(world.makeShape<btCapsuleShape>(0.3, 1));
    btRigidBody& capsule =
        world.addBody(shape, btTransform(rotation, btVector3(0.2, lying ? 0.9 : 1.4, -0.1)), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::CapsuleBox);
    world.step(120);
    return {capsule.getWorldTransform().getOrigin().y(), int(world.contacts(capsule, box).size()),
            capsule.getAngularVelocity().length()};
}

TEST(CapsulePairsResting, ACapsuleOnABoxLyingOnBothEndsAndUpright) {
    for (int upAxis = 0; upAxis < 3; ++upAxis) {
        for (const bool lying : {true, false}) {
            SCOPED_TRACE(::testing::Message() << "up axis " << upAxis << (lying ? " lying" : " upright"));
            const Rest bullet = capsuleOnBox(false, upAxis, lying), ours = capsuleOnBox(true, upAxis, lying);
            std::printf(
                "[ capsule on box ] axis %d %s: height Bullet %.4f, ours %.4f; points Bullet %d, ours %d\n",
                upAxis, lying ? "lying" : "upright", double(bullet.height), double(ours.height),
                bullet.points, ours.points);
            EXPECT_NEAR(ours.height, lying ? 0.8 : 1.3, 1e-3);
            EXPECT_GE(ours.points, lying ? 2 : 1);
            EXPECT_LT(ours.angularSpeed, 1e-3);
        }
    }
}

// A sphere of radius 0.5 dropped into a cradle of two static capsules (radius 0.3) along x, 1 apart:
// it rests with its centre sqrt(0.8^2 - 0.5^2) above theirs.
btScalar sphereInCradle(bool ours) {
    BulletWorld world;
    for (const btScalar z : {btScalar(-0.5), btScalar(0.5)})
        world.addBody(world.makeShape<btCapsuleShapeX>(0.3, 2), btVector3(0, 0, z));
    btRigidBody& sphere = world.addBody(world.makeShape<btSphereShape>(0.5), btVector3(0.1, 1, 0), 1);
    std::optional<Plugin> plugin;
    if (ours) plugin.emplace(world.world(), Pair::SphereCapsule);
    world.step(120);
    return sphere.getWorldTransform().getOrigin().y();
}

TEST(CapsulePairsResting, ASphereInACradleOfTwoCapsules) {
    const btScalar bullet = sphereInCradle(false), ours = sphereInCradle(true);
    const double expected = std::sqrt(0.8 * 0.8 - 0.5 * 0.5);
    std::printf("[ sphere in cradle ] height Bullet %.5f, ours %.5f, exact %.5f\n", double(bullet),
                double(ours), expected);
    EXPECT_NEAR(ours, expected, 1e-3);
}

// ---------------------------------------------------------------------------------------------------
// Hostile input: no crash, every contact finite, none for a NaN or infinite place.

TEST(CapsulePairsHostile, NonFiniteTransformsAndDegenerateShapes) {
    BulletWorld world;
    const Plugin plugin(world.world(), Pair::CapsuleBox | Pair::SphereCapsule);
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN(),
                   inf = std::numeric_limits<btScalar>::infinity();
    const btScalar subnormal = std::numeric_limits<btScalar>::denorm_min();
    btCollisionObject& box =
        world.addBody(world.makeShape<btBoxShape>(btVector3(1, 1, 1)), btVector3(0, 0, 0));
    btCollisionObject& sphere = world.addBody(world.makeShape<btSphereShape>(0.5), btVector3(0, 0, 0), 1);
    for (const btScalar radius : {btScalar(0.3), btScalar(0), subnormal, btScalar(-0.3)}) {
        for (const btScalar height : {btScalar(1), btScalar(0), subnormal, btScalar(-1)}) {
            btCollisionObject& capsule =
                world.addBody(world.makeShape<btCapsuleShape>(radius, height), btVector3(0, 5, 0), 1);
            for (const btVector3 origin :
                 {btVector3(0.2, 1.1, 0.1), btVector3(nan, 0, 0), btVector3(0, inf, 0), btVector3(0, 0, -inf),
                  btVector3(0, 30, 0), btVector3(0, 0, 0)}) {
                SCOPED_TRACE(::testing::Message()
                             << "radius " << radius << ", height " << height << ", origin " << origin.x()
                             << " " << origin.y() << " " << origin.z());
                capsule.setWorldTransform(btTransform(btQuaternion::getIdentity(), origin));
                for (btCollisionObject* other : {&box, &sphere}) {
                    test::SeenContactsCallback callback(capsule);
                    world.world().contactPairTest(&capsule, other, callback);
                    for (const SeenContact& contact : callback.contacts) {
                        EXPECT_TRUE(std::isfinite(contact.distance));
                        EXPECT_TRUE(std::isfinite(contact.normalOnB.length()));
                        EXPECT_TRUE(std::isfinite(contact.pointOnB.length()));
                        EXPECT_TRUE(std::isfinite(contact.pointOnA.length()));
                    }
                    if (origin.y() == 30 || !std::isfinite(origin.x() + origin.y() + origin.z())) {
                        EXPECT_TRUE(callback.contacts.empty());
                    }
                    // A negative radius is no capsule: no contact.
                    if (radius < 0) {
                        EXPECT_TRUE(callback.contacts.empty());
                    }
                }
            }
            capsule.setWorldTransform(
                btTransform(btMatrix3x3(nan, 0, 0, 0, 1, 0, 0, 0, 1), btVector3(0, 1, 0)));
            for (btCollisionObject* other : {&box, &sphere}) {
                test::SeenContactsCallback callback(capsule);
                world.world().contactPairTest(&capsule, other, callback);
                EXPECT_TRUE(callback.contacts.empty());
            }
        }
    }
}

}  // namespace
}  // namespace analytic
