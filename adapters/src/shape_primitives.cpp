#include "analytic/adapters/shape_primitives.hpp"

namespace analytic {

std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform) {
    switch (shape.getShapeType()) {
        case SPHERE_SHAPE_PROXYTYPE:
            return toSphere(static_cast<const btSphereShape&>(shape), transform);
        case BOX_SHAPE_PROXYTYPE:
            return toObb(static_cast<const btBoxShape&>(shape), transform);
        case CAPSULE_SHAPE_PROXYTYPE:
            return toCapsule(static_cast<const btCapsuleShape&>(shape), transform);
        case CYLINDER_SHAPE_PROXYTYPE:
            return toCylinder(static_cast<const btCylinderShape&>(shape), transform);
        case STATIC_PLANE_PROXYTYPE:
            return toPlane(static_cast<const btStaticPlaneShape&>(shape), transform);
        default:
            return std::nullopt;
    }
}

}  // namespace analytic
