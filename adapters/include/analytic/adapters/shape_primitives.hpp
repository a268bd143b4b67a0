// Bullet collision shapes, placed by a world transform, as primitives of the geometry core.
#pragma once

#include <optional>
#include <variant>

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <LinearMath/btTransform.h>

#include "analytic/geometry/primitives.hpp"

namespace analytic {

using Primitive =
    std::variant<Sphere<btScalar>, Obb<btScalar>, Capsule<btScalar>, Cylinder<btScalar>, Plane<btScalar>>;

// The exact solid a shape stands for, margins included as Bullet's own collision uses them (a box's
// surface is its half extents with margin) and local scaling applied; nothing for shapes without a
// primitive (meshes, hulls, compounds, ...).
std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform);

}  // namespace analytic
