// SPDX-License-Identifier: Zlib
#include "cast/capsule_query.hpp"

#include <BulletCollision/CollisionShapes/btCapsuleShape.h>

#include "analytic/geometry/capsule_sweep.hpp"

namespace analytic::cast {

Aabb<Scalar> CapsuleQuery::grownGate(const Aabb<Scalar>& box) const {
    if (!isFinite(box.min) || !isFinite(box.max) || !glm::all(glm::lessThanEqual(box.min, box.max)))
        return {Vec3<Scalar>(1), Vec3<Scalar>(-1)};
    const Vec3<Scalar> grow = radius + glm::abs(halfAxis);
    return {box.min - grow, box.max + grow};
}

void CapsuleQuery::castSolid(const btCollisionObject& object, const Sphere<Scalar>& sphere) const {
    report(object, nullptr, sweepCapsuleSphere(segment.ray, halfAxis, radius, sphere), false);
}

void CapsuleQuery::castSolid(const btCollisionObject& object, const Obb<Scalar>& box) const {
    report(object, nullptr, sweepCapsuleObb(segment.ray, halfAxis, radius, box), false);
}

void CapsuleQuery::castSolid(const btCollisionObject& object, const Capsule<Scalar>& capsule) const {
    report(object, nullptr, sweepCapsuleCapsule(segment.ray, halfAxis, radius, capsule), false);
}

void CapsuleQuery::castSolid(const btCollisionObject& object, const HullTarget& hull) const {
    // The solid in the hull's frame (our faces, or Bullet's polyhedron's).
    const ConvexPolyhedron<Scalar> solid = solidOf(hull);
    const btTransform& place = hull.transform;
    const RayPath<Scalar> local =
        segmentRay(toGlm(place.invXform(segment.from)), toGlm(place.invXform(segment.to)));
    const Vec3<Scalar> localHalfAxis = toGlm(place.getBasis().transpose() * toBullet(halfAxis));
    const Scalar margin = hull.margin > 0 && std::isfinite(hull.margin) ? hull.margin : Scalar(0);
    std::optional<SphereSweepHit<Scalar>> hit =
        sweepCapsuleConvexPolyhedron(local, localHalfAxis, radius + margin, solid);
    if (!hit) return;
    hit->point = toGlm(place(toBullet(hit->point + margin * hit->normal)));
    hit->normal = toGlm(place.getBasis() * toBullet(hit->normal));
    report(object, nullptr, hit, false);
}

void CapsuleQuery::castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const {
    const auto hit = sweepCapsulePlane(segment.ray, halfAxis, radius, plane);
    // Bullet's plane ends at its box (as the sphere's, sphere_query.cpp).
    if (hit && !(maxAbsComponent(hit->point) <= Scalar(BT_LARGE_FLOAT))) return;
    report(object, nullptr, hit, false);
}

void CapsuleQuery::castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                                  const btTransform& transform) const {
    // Bullet's capsule along its y axis, turned onto the half axis.
    const Scalar half = glm::length(halfAxis);
    btCapsuleShape capsule(radius, 2 * half);
    btTransform from = btTransform::getIdentity();
    if (half > 0) {
        const btVector3 axis = toBullet(halfAxis / half);
        const btVector3 y(0, 1, 0);
        if (axis.dot(y) < Scalar(-0.999999))
            from.setRotation(btQuaternion(btVector3(1, 0, 0), SIMD_PI));
        else
            from.setRotation(shortestArcQuat(y, axis));
    }
    btTransform to = from;
    from.setOrigin(segment.from);
    to.setOrigin(segment.to);
    castShapeWithBullet(object, shape, transform, capsule, from, to, reach());
}

CapsuleQuery::TriangleReporter CapsuleQuery::triangleReporter(const RayPath<Scalar>&,
                                                              const btCollisionObject& object,
                                                              const btVector3& scaling,
                                                              const btTransform& transform) const {
    return TriangleReporter(*this, object, scaling, transform);
}

CapsuleQuery::TriangleReporter::TriangleReporter(const CapsuleQuery& query, const btCollisionObject& object,
                                                 const btVector3& scaling, const btTransform& transform)
    : query_(query),
      object_(object),
      transform_(transform),
      scaling_(toGlm(scaling)),
      localPath_(segmentRay(toGlm(transform.invXform(query.segment.from)),
                            toGlm(transform.invXform(query.segment.to)))),
      localHalfAxis_(toGlm(transform.getBasis().transpose() * toBullet(query.halfAxis))) {}

void CapsuleQuery::TriangleReporter::operator()(const Triangle<btScalar>& triangle, int partId,
                                                int triangleIndex) {
    const Triangle<Scalar> local{triangle.a * scaling_, triangle.b * scaling_, triangle.c * scaling_};
    auto hit = sweepCapsuleTriangle(localPath_, localHalfAxis_, query_.radius, local);
    if (!hit) return;
    hit->point = toGlm(transform_(toBullet(hit->point)));
    hit->normal = toGlm(transform_.getBasis() * toBullet(hit->normal));
    btCollisionWorld::LocalShapeInfo shapeInfo{partId, triangleIndex};
    query_.report(object_, &shapeInfo, hit, true);
}

}  // namespace analytic::cast
