// SPDX-License-Identifier: Zlib
// The adapters turn Bullet shapes into the solids Bullet itself collides with: checked against
// Bullet's own support function (the extreme point of the shape, margin included, in a direction).
#include "analytic/adapters/shape_primitives.hpp"

#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <memory>

#include "analytic/adapters/bullet_math.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using Scalar = btScalar;
constexpr Scalar kTolerance = sizeof(Scalar) == 4 ? Scalar(2e-5) : Scalar(1e-12);

Vec3<Scalar> support(const Sphere<Scalar>& s, const Vec3<Scalar>& d) {
    return s.center + s.radius * glm::normalize(d);
}

Vec3<Scalar> support(const Obb<Scalar>& box, const Vec3<Scalar>& d) {
    const Vec3<Scalar> local = glm::transpose(box.rotation) * d;
    const Vec3<Scalar> corner(std::copysign(box.halfExtents.x, local.x),
                              std::copysign(box.halfExtents.y, local.y),
                              std::copysign(box.halfExtents.z, local.z));
    return box.center + box.rotation * corner;
}

Vec3<Scalar> support(const Capsule<Scalar>& c, const Vec3<Scalar>& d) {
    const Vec3<Scalar> end = glm::dot(c.b - c.a, d) >= 0 ? c.b : c.a;
    return end + c.radius * glm::normalize(d);
}

btTransform randomTransform(test::Random& random) {
    const Mat3<Scalar> r = random.rotation<Scalar>();
    const btMatrix3x3 basis(r[0].x, r[1].x, r[2].x, r[0].y, r[1].y, r[2].y, r[0].z, r[1].z, r[2].z);
    return btTransform(basis, toBullet(random.point<Scalar>(50)));
}

// Bullet's support point in world space for a world direction.
Vec3<Scalar> bulletSupport(const btConvexShape& shape, const btTransform& transform,
                           const Vec3<Scalar>& direction) {
    const btVector3 local = shape.localGetSupportingVertex(toBullet(direction) * transform.getBasis());
    return toGlm(transform * local);
}

template <class Primitive>
void expectSameSupport(const btConvexShape& shape, const btTransform& transform, test::Random& random) {
    const auto primitive = toPrimitive(shape, transform);
    ASSERT_TRUE(primitive.has_value());
    ASSERT_TRUE(std::holds_alternative<Primitive>(*primitive)) << shape.getName();
    for (int i = 0; i < 100; ++i) {
        const Vec3<Scalar> d = random.unitVector<Scalar>();
        const Vec3<Scalar> expected = bulletSupport(shape, transform, d);
        const Vec3<Scalar> actual = support(std::get<Primitive>(*primitive), d);
        EXPECT_LT(glm::length(expected - actual), kTolerance * (1 + glm::length(expected)))
            << shape.getName();
    }
}

TEST(ShapePrimitives, SphereBoxAndCapsulesMatchBulletSupport) {
    test::Random random(1);
    for (int i = 0; i < 50; ++i) {
        const btTransform transform = randomTransform(random);
        const auto size = [&] { return Scalar(random.uniform(0.1, 3)); };
        btSphereShape sphere(size());
        expectSameSupport<Sphere<Scalar>>(sphere, transform, random);
        btBoxShape box(btVector3(size(), size(), size()));
        expectSameSupport<Obb<Scalar>>(box, transform, random);
        box.setLocalScaling(btVector3(size(), size(), size()));
        expectSameSupport<Obb<Scalar>>(box, transform, random);
        btCapsuleShapeX capsuleX(size(), size());
        btCapsuleShape capsuleY(size(), size());
        btCapsuleShapeZ capsuleZ(size(), size());
        for (const btConvexShape* capsule :
             {static_cast<btConvexShape*>(&capsuleX), static_cast<btConvexShape*>(&capsuleY),
              static_cast<btConvexShape*>(&capsuleZ)})
            expectSameSupport<Capsule<Scalar>>(*capsule, transform, random);
    }
}

// A Bullet cylinder is rounded by its margin at the rims, so compare only where it is flat or
// straight: along its axis and straight out of its side.
TEST(ShapePrimitives, CylindersMatchBulletAlongAxisAndRadius) {
    test::Random random(2);
    for (int i = 0; i < 50; ++i) {
        const btTransform transform = randomTransform(random);
        const btVector3 halfExtents(Scalar(random.uniform(0.5, 3)), Scalar(random.uniform(0.5, 3)),
                                    Scalar(random.uniform(0.5, 3)));
        std::unique_ptr<btCylinderShape> cylinders[] = {std::make_unique<btCylinderShapeX>(halfExtents),
                                                        std::make_unique<btCylinderShape>(halfExtents),
                                                        std::make_unique<btCylinderShapeZ>(halfExtents)};
        for (const auto& shape : cylinders) {
            const auto primitive = toPrimitive(*shape, transform);
            ASSERT_TRUE(primitive && std::holds_alternative<Cylinder<Scalar>>(*primitive));
            const auto& cylinder = std::get<Cylinder<Scalar>>(*primitive);
            const Vec3<Scalar> axis = glm::normalize(cylinder.b - cylinder.a);
            const Vec3<Scalar> side = glm::normalize(glm::cross(axis, random.unitVector<Scalar>()));
            const Vec3<Scalar> middle = (cylinder.a + cylinder.b) / Scalar(2);
            EXPECT_LT(glm::length(glm::dot(bulletSupport(*shape, transform, axis) - cylinder.b, axis) * axis),
                      kTolerance * 100);
            EXPECT_NEAR(double(glm::dot(bulletSupport(*shape, transform, side) - middle, side)),
                        double(cylinder.radius), double(kTolerance) * 100);
        }
    }
}

// A cone is its cone grown by the margin: Bullet's support point (margin included) lies a margin beyond the
// apex along the axis, beyond the base plane against it, and radius + margin out of the axis at the base.
TEST(ShapePrimitives, ConesMatchBulletsSupportWithTheMargin) {
    test::Random random(4);
    for (int i = 0; i < 50; ++i) {
        const btTransform transform = randomTransform(random);
        const Scalar radius = Scalar(random.uniform(0.5, 3)), height = Scalar(random.uniform(0.5, 3));
        std::unique_ptr<btConeShape> cones[] = {std::make_unique<btConeShapeX>(radius, height),
                                                std::make_unique<btConeShape>(radius, height),
                                                std::make_unique<btConeShapeZ>(radius, height)};
        for (const auto& shape : cones) {
            if (i % 2 == 1) shape->setLocalScaling(btVector3(Scalar(1.5), Scalar(1.5), Scalar(1.5)));
            if (i % 3 == 2) shape->setMargin(Scalar(random.uniform(0, 0.3)));
            const auto primitive = toPrimitive(*shape, transform);
            ASSERT_TRUE(primitive && std::holds_alternative<RoundedCone<Scalar>>(*primitive));
            const auto& [cone, margin] = std::get<RoundedCone<Scalar>>(*primitive);
            EXPECT_EQ(margin, shape->getMargin());
            const Vec3<Scalar> axis = glm::normalize(cone.apex - cone.base);
            const Vec3<Scalar> side = glm::normalize(glm::cross(axis, random.unitVector<Scalar>()));
            const double tolerance = double(kTolerance) * 100;
            EXPECT_NEAR(double(glm::dot(bulletSupport(*shape, transform, axis) - cone.apex, axis)),
                        double(margin), tolerance);
            EXPECT_NEAR(double(glm::dot(bulletSupport(*shape, transform, -axis) - cone.base, -axis)),
                        double(margin), tolerance);
            EXPECT_NEAR(double(glm::dot(bulletSupport(*shape, transform, side) - cone.base, side)),
                        double(cone.radius + margin), tolerance);
        }
    }
    btConeShape noRadius(0, 2);
    EXPECT_FALSE(toPrimitive(noRadius, btTransform::getIdentity()).has_value());  // Bullet's own cast then
}

TEST(ShapePrimitives, PlaneIsPlacedByTheTransform) {
    test::Random random(3);
    for (int i = 0; i < 100; ++i) {
        const btTransform transform = randomTransform(random);
        const Vec3<Scalar> localNormal = random.unitVector<Scalar>();
        const Scalar constant = Scalar(random.uniform(-10, 10));
        btStaticPlaneShape shape(toBullet(localNormal), constant);
        const auto primitive = toPrimitive(shape, transform);
        ASSERT_TRUE(primitive && std::holds_alternative<Plane<Scalar>>(*primitive));
        const auto& plane = std::get<Plane<Scalar>>(*primitive);
        // A point on the local plane, and one a unit above it, keep their signed distances in world space.
        const btVector3 onPlane = toBullet(localNormal * constant);
        for (const Scalar height : {Scalar(0), Scalar(1)}) {
            const Vec3<Scalar> world = toGlm(transform * (onPlane + toBullet(localNormal) * height));
            EXPECT_NEAR(double(glm::dot(plane.normal, world) - plane.offset), double(height), 1e-3);
        }
    }
}

TEST(ShapePrimitives, ShapesWithoutPrimitiveGiveNothing) {
    btConvexHullShape hull;
    hull.addPoint(btVector3(0, 0, 0));
    EXPECT_FALSE(toPrimitive(hull, btTransform::getIdentity()).has_value());
}

}  // namespace
}  // namespace analytic
