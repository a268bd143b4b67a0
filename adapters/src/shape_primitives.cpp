#include "analytic/adapters/shape_primitives.hpp"

#include <BulletCollision/CollisionShapes/btBoxShape.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btCylinderShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>

#include "analytic/adapters/bullet_math.hpp"

namespace analytic {
namespace {

// The two end points of a segment of half length halfHeight along local axis upAxis.
std::pair<Vec3<btScalar>, Vec3<btScalar>> axisEnds(const btTransform& transform, int upAxis,
                                                   btScalar halfHeight) {
    btVector3 offset(0, 0, 0);
    offset[upAxis] = halfHeight;
    return {toGlm(transform * -offset), toGlm(transform * offset)};
}

}  // namespace

std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform) {
    switch (shape.getShapeType()) {
        case SPHERE_SHAPE_PROXYTYPE:
            return Sphere<btScalar>{toGlm(transform.getOrigin()),
                                    static_cast<const btSphereShape&>(shape).getRadius()};
        case BOX_SHAPE_PROXYTYPE:
            return Obb<btScalar>{toGlm(transform.getOrigin()), toGlm(transform.getBasis()),
                                 toGlm(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin())};
        case CAPSULE_SHAPE_PROXYTYPE: {
            const auto& capsule = static_cast<const btCapsuleShape&>(shape);
            const auto [a, b] = axisEnds(transform, capsule.getUpAxis(), capsule.getHalfHeight());
            return Capsule<btScalar>{a, b, capsule.getRadius()};
        }
        case CYLINDER_SHAPE_PROXYTYPE: {
            const auto& cylinder = static_cast<const btCylinderShape&>(shape);
            const int upAxis = cylinder.getUpAxis();
            const btVector3 halfExtents = cylinder.getHalfExtentsWithMargin();
            const auto [a, b] = axisEnds(transform, upAxis, halfExtents[upAxis]);
            return Cylinder<btScalar>{a, b, cylinder.getRadius()};
        }
        case STATIC_PLANE_PROXYTYPE: {
            const auto& plane = static_cast<const btStaticPlaneShape&>(shape);
            const btVector3 normal = transform.getBasis() * plane.getPlaneNormal();
            return Plane<btScalar>{toGlm(normal),
                                   plane.getPlaneConstant() + normal.dot(transform.getOrigin())};
        }
        default:
            return std::nullopt;
    }
}

}  // namespace analytic
