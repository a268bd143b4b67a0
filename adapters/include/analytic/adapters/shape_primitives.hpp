// SPDX-License-Identifier: Zlib
// Bullet collision shapes, placed by a world transform, as primitives of the geometry core. Each is the
// exact solid Bullet itself collides with: margins included as Bullet's own algorithms use them (a
// box's surface is its half extents with margin), local scaling applied. The conversions check nothing:
// sizes and placements reach the primitive as they are (the core's queries reject invalid ones), and a
// basis is taken as a rotation.
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

// The ball of radius getRadius() (local scaling's x applied; the margin is the radius, nothing added)
// about the transform's origin. A negative or zero radius (btSphereShape(-1)) is passed as it is: the
// core's queries give nothing for it.
inline Sphere<btScalar> toSphere(const btSphereShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), shape.getRadius()};
}

// The box of half extents getHalfExtentsWithMargin() (scaled, margin included), centred at the
// transform's origin with the basis's columns as its axes. A negative half extent (a btBoxShape made
// with one) is passed as it is: the core's queries give nothing for it. A zero one is a flat box.
inline Obb<btScalar> toObb(const btBoxShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), toGlm(transform.getBasis()),
            toGlm(shape.getHalfExtentsWithMargin())};
}

// The capsule about the segment from -getHalfHeight() to +getHalfHeight() along the shape's up axis (X,
// Y or Z), placed by the transform, of radius getRadius() (the radius is the margin; local scaling as
// Bullet applies it). A negative half height swaps the ends (the same capsule); a negative or zero radius
// is passed as it is, and the core's queries give nothing for it.
inline Capsule<btScalar> toCapsule(const btCapsuleShape& shape, const btTransform& transform) {
    const auto [a, b] = detail::axisEnds(transform, shape.getUpAxis(), shape.getHalfHeight());
    return {a, b, shape.getRadius()};
}

// The cylinder whose axis runs between the caps at -+ the half extent with margin along the shape's up
// axis (X, Y or Z), placed by the transform, of radius getRadius() (the half extent with margin on
// Bullet's radius axis: the other radial half extent is ignored, as Bullet's support function does). A
// negative half height swaps the caps (the same cylinder); a negative or zero radius is passed as it
// is, and the core's queries give nothing for it.
inline Cylinder<btScalar> toCylinder(const btCylinderShape& shape, const btTransform& transform) {
    const int upAxis = shape.getUpAxis();
    const auto [a, b] = detail::axisEnds(transform, upAxis, shape.getHalfExtentsWithMargin()[upAxis]);
    return {a, b, shape.getRadius()};
}

// The plane in world space: normal basis * getPlaneNormal() (Bullet made it unit at construction; a zero
// normal became NaN there), offset getPlaneConstant() + normal . origin. Local scaling is not applied
// (Bullet's plane ignores it too). A basis that is not a rotation gives a normal that is not unit, which
// the core's plane tests reject.
inline Plane<btScalar> toPlane(const btStaticPlaneShape& shape, const btTransform& transform) {
    const btVector3 normal = transform.getBasis() * shape.getPlaneNormal();
    return {toGlm(normal), shape.getPlaneConstant() + normal.dot(transform.getOrigin())};
}

// The cone grown by its margin (btConeShape, X, Z; the rim as RoundedCone says): apex at +height / 2 along
// the up axis, base at -height / 2, the height and radius as setLocalScaling left them (it scales them;
// a mirroring scaling makes the height negative, the apex then below, or the radius, taken by its size).
// A cone without height or radius is no cone (visitPrimitive leaves it to Bullet); made here anyway, the
// core's queries give nothing for it, nor for a negative margin.
inline RoundedCone<btScalar> toRoundedCone(const btConeShape& shape, const btTransform& transform) {
    const auto [base, apex] = detail::axisEnds(transform, shape.getConeUpIndex(), shape.getHeight() / 2);
    return {{apex, base, std::abs(shape.getRadius())}, shape.getMargin()};
}

// The core's primitive of any shape that has one (toPrimitive's answer).
using Primitive = std::variant<Sphere<btScalar>, Obb<btScalar>, Capsule<btScalar>, Cylinder<btScalar>,
                               Plane<btScalar>, RoundedCone<btScalar>>;

// Calls visit(primitive) with the primitive of any of the shapes above (by getShapeType(): sphere, box,
// capsule, cylinder, static plane, cone) and returns true; false, without calling it, for shapes without
// one (meshes, hulls, compounds, EllipsoidShape and other custom shapes..., a cone without height or
// radius). visit gets a temporary: it takes the primitive by value or const reference. Sizes are not
// checked (see each conversion): a shape with invalid sizes still gives its primitive, which the core's
// queries reject. A user's class reporting one of those shape types must derive from Bullet's class for
// it. The primitive is made where visit uses it, not copied out of a variant: a per-ray caller would wait
// on the copy (a load spanning the stores that made it cannot be forwarded from them).
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

// The primitive visitPrimitive would give, as a variant; nullopt for shapes without one (the same shapes
// as visitPrimitive's false). Sizes are not checked.
std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform);

}  // namespace analytic
