// SPDX-License-Identifier: Zlib
// The capsule sweep's tests at the leaves of the cast pipeline (query.hpp): a capsule (the segment
// centre -+ halfAxis grown by the radius) moving without turning, its centre along the segment, with the
// sphere sweep's semantics (sphere_query.hpp: what is reported, the start in contact, Bullet's
// comparisons), against the core's exact capsule sweeps (capsule_sweep.hpp) for spheres, boxes, capsules,
// convex hulls and polyhedra, static planes and triangles; Bullet's convex cast of a btCapsuleShape for
// the other shapes (cylinders, cones, ellipsoids among them). Unlike the sphere's, a tangent contact with
// a triangle is reported like any other (no grazing rule): a capsule sliding on a mesh at exactly its
// radius may be stopped at an internal edge, at fraction 0 of its next move, which its caller slides on.
// A zero halfAxis sweeps exactly as SphereQuery.
#pragma once

#include <type_traits>

#include "cast/sphere_query.hpp"

namespace analytic::cast {

struct CapsuleQuery : SphereQuery {
    template <class Solid> static constexpr bool castsExactly =
        std::is_same_v<Solid, Sphere<Scalar>> || std::is_same_v<Solid, Obb<Scalar>> ||
        std::is_same_v<Solid, Capsule<Scalar>> || std::is_same_v<Solid, HullTarget>;
    class TriangleReporter;

    Vec3<Scalar> halfAxis;  // world space, finite

    CapsuleQuery withCallback(Callback& other) const { return {{segment, radius, other}, halfAxis}; }
    // The farthest the capsule reaches from its centre.
    Scalar reach() const { return radius + glm::length(halfAxis); }
    Growth growth() const { return {reach()}; }
    Aabb<Scalar> gateOf(const btCollisionObject& object) const { return grownGate(boxOf(object)); }
    // The box grown by the capsule's box (per axis), or empty when not finite (as SphereQuery's).
    Aabb<Scalar> grownGate(const Aabb<Scalar>& box) const;
    Vec3<Scalar> growthIn(const btVector3& scaling) const { return reach() / glm::abs(toGlm(scaling)); }
    // In a frame turned by `basis` from the world's and scaled by `scaling`: the capsule's box there, which
    // for an upright capsule in an upright mesh is its radius across and its reach up.
    Vec3<Scalar> growthIn(const btVector3& scaling, const btMatrix3x3& basis) const {
        const Vec3<Scalar> local = toGlm(basis.transpose() * toBullet(halfAxis));
        return (radius + glm::abs(local)) / glm::abs(toGlm(scaling));
    }

    void castSolid(const btCollisionObject& object, const Sphere<Scalar>& sphere) const;
    void castSolid(const btCollisionObject& object, const Obb<Scalar>& box) const;
    void castSolid(const btCollisionObject& object, const Capsule<Scalar>& capsule) const;
    void castSolid(const btCollisionObject& object, const HullTarget& hull) const;
    void castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const;
    void castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                        const btTransform& transform) const;
    TriangleReporter triangleReporter(const RayPath<Scalar>& frameRay, const btCollisionObject& object,
                                      const btVector3& scaling, const btTransform& transform) const;
};

// A mesh's or heightfield's triangles in a frame scaled by `scaling` from the object's rigid frame, swept
// against in the object's frame, each reported as SphereQuery::report says.
class CapsuleQuery::TriangleReporter {
public:
    TriangleReporter(const CapsuleQuery& query, const btCollisionObject& object, const btVector3& scaling,
                     const btTransform& transform);

    const btScalar& running() const { return query_.callback.m_closestHitFraction; }
    void operator()(const Triangle<btScalar>& triangle, int partId, int triangleIndex);

private:
    const CapsuleQuery& query_;
    const btCollisionObject& object_;
    const btTransform& transform_;
    Vec3<Scalar> scaling_;
    RayPath<Scalar> localPath_;   // the centre's path in the object's frame
    Vec3<Scalar> localHalfAxis_;  // the half axis there
};

}  // namespace analytic::cast
