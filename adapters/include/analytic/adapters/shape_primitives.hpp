// SPDX-License-Identifier: Zlib
// Bullet collision shapes, placed by a world transform, as primitives of the geometry core. Each is the
// exact solid Bullet itself collides with: margins included as Bullet's own algorithms use them (a
// box's surface is its half extents with margin), local scaling applied.
#pragma once

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletCollision/CollisionShapes/btConeShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <LinearMath/btTransform.h>

#include <optional>
#include <utility>
#include <variant>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/ray_cone.hpp"

namespace analytic {

namespace detail {

// The two end points of a segment of half length halfHeight along local axis upAxis.
inline std::pair<Vec3<btScalar>, Vec3<btScalar>> axisEnds(const btTransform& transform, int upAxis,
                                                          btScalar halfHeight) {
    btVector3 offset(0, 0, 0);
    offset[upAxis] = halfHeight;
    return {toGlm(transform * -offset), toGlm(transform * offset)};
}

}  // namespace detail

inline Sphere<btScalar> toSphere(const btSphereShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), shape.getRadius()};
}

inline Obb<btScalar> toObb(const btBoxShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), toGlm(transform.getBasis()),
            toGlm(shape.getHalfExtentsWithMargin())};
}

inline Capsule<btScalar> toCapsule(const btCapsuleShape& shape, const btTransform& transform) {
    const auto [a, b] = detail::axisEnds(transform, shape.getUpAxis(), shape.getHalfHeight());
    return {a, b, shape.getRadius()};
}

inline Cylinder<btScalar> toCylinder(const btCylinderShape& shape, const btTransform& transform) {
    const int upAxis = shape.getUpAxis();
    const auto [a, b] = detail::axisEnds(transform, upAxis, shape.getHalfExtentsWithMargin()[upAxis]);
    return {a, b, shape.getRadius()};
}

inline Plane<btScalar> toPlane(const btStaticPlaneShape& shape, const btTransform& transform) {
    const btVector3 normal = transform.getBasis() * shape.getPlaneNormal();
    return {toGlm(normal), shape.getPlaneConstant() + normal.dot(transform.getOrigin())};
}

// The cone grown by its margin (btConeShape, X, Z; the rim as RoundedCone says): apex at +height / 2 along
// the up axis, base at -height / 2, the height and radius as setLocalScaling left them (it scales them;
// a mirroring scaling makes the height negative, the apex then below, or the radius, taken by its size).
inline RoundedCone<btScalar> toRoundedCone(const btConeShape& shape, const btTransform& transform) {
    const auto [base, apex] = detail::axisEnds(transform, shape.getConeUpIndex(), shape.getHeight() / 2);
    return {{apex, base, std::abs(shape.getRadius())}, shape.getMargin()};
}

using Primitive = std::variant<Sphere<btScalar>, Obb<btScalar>, Capsule<btScalar>, Cylinder<btScalar>,
                               Plane<btScalar>, RoundedCone<btScalar>>;

// Calls visit(primitive) with the primitive of any of the shapes above and returns true; false, without
// calling it, for shapes without one (meshes, hulls, compounds..., a cone without height or radius). The
// primitive is made where visit uses it, not copied out of a variant: a per-ray caller would wait on the copy
// (a load spanning the stores that made it cannot be forwarded from them).
template <class Visit>
bool visitPrimitive(const btCollisionShape& shape, const btTransform& transform, Visit&& visit) {
    switch (shape.getShapeType()) {
        case SPHERE_SHAPE_PROXYTYPE:
            visit(toSphere(static_cast<const btSphereShape&>(shape), transform));
            return true;
        case BOX_SHAPE_PROXYTYPE:
            visit(toObb(static_cast<const btBoxShape&>(shape), transform));
            return true;
        case CAPSULE_SHAPE_PROXYTYPE:
            visit(toCapsule(static_cast<const btCapsuleShape&>(shape), transform));
            return true;
        case CYLINDER_SHAPE_PROXYTYPE:
            visit(toCylinder(static_cast<const btCylinderShape&>(shape), transform));
            return true;
        case STATIC_PLANE_PROXYTYPE:
            visit(toPlane(static_cast<const btStaticPlaneShape&>(shape), transform));
            return true;
        case CONE_SHAPE_PROXYTYPE: {
            // A cone without height or radius is a segment or a disc with its margin: not a cone.
            const auto& cone = static_cast<const btConeShape&>(shape);
            if (cone.getHeight() == 0 || cone.getRadius() == 0) return false;
            visit(toRoundedCone(cone, transform));
            return true;
        }
        default:
            return false;
    }
}

// The primitive of any of the shapes above; nothing for shapes without one.
std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform);

}  // namespace analytic
