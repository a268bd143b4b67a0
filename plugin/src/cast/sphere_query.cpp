// SPDX-License-Identifier: Zlib
#include "cast/sphere_query.hpp"

#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/triangle.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/triangle_reporter.hpp"

namespace analytic::cast {
namespace {

using Callback = btCollisionWorld::ConvexResultCallback;

// Passes on to the user's callback the hits of Bullet's objectQuerySingle that can be there: a fraction
// in [0, 1] below the user's closest, a finite normal (made unit) the sphere moves into, a point within
// the shape's box grown by the radius and Bullet's tolerance. Bullet's convex cast is asked from 1, so
// that its answer does not depend on the order objects are met in.
class InBoxCallback final : public Callback {
public:
    InBoxCallback(const SphereQuery& query, const Aabb<Scalar>& box, Scalar reach) : query_(query) {
        Callback& user = query.callback;
        m_closestHitFraction = 1;
        m_collisionFilterGroup = user.m_collisionFilterGroup;
        m_collisionFilterMask = user.m_collisionFilterMask;
        // A hundredth of the box's largest side (Bullet's casts converge to a millimetre, or 1e-4 of it),
        // and the rounding of the segment's point.
        const Scalar side = maxAbsComponent(box.max - box.min);
        const Scalar padding =
            reach + Scalar(0.01) * (std::isfinite(side) ? side : Scalar(0)) + Scalar(0.001) +
            slabRoundingPadding<Scalar>(std::max(maxAbsComponent(box.min), maxAbsComponent(box.max)) +
                                        rayReachOf(query.segment.ray) + reach);
        box_ = {box.min - padding, box.max + padding};
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return query_.callback.needsCollision(proxy);
    }

    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        const Scalar t = result.m_hitFraction;
        btVector3 normal = normalInWorldSpace ? result.m_hitNormalLocal
                                              : result.m_hitCollisionObject->getWorldTransform().getBasis() *
                                                    result.m_hitNormalLocal;
        const Vec3<Scalar> point = toGlm(result.m_hitPointLocal);
        if (!(t >= 0 && t <= 1) || !makeUnitNormal(normal) || !isFinite(point) ||
            !glm::all(glm::lessThanEqual(box_.min, point)) || !glm::all(glm::lessThanEqual(point, box_.max)))
            return m_closestHitFraction;
        query_.report(*result.m_hitCollisionObject, result.m_localShapeInfo,
                      SphereSweepHit<Scalar>{t, point, toGlm(normal), false}, false);
        return m_closestHitFraction;
    }

private:
    const SphereQuery& query_;
    Aabb<Scalar> box_;
};

// Whether a contact at t > 0 with the triangle (the path and the triangle in one frame) only grazes it:
// its normal within 1/64 of perpendicular to the motion and the rest of the sweep never taking the sphere
// deeper into the triangle than the rounding of the coordinates. Where the path runs at exactly the radius
// from a mesh (sliding on it), the triangles ahead are met tangentially, at their edges: the time and
// normal of a tangency are good to only the square root of the rounding, too loose for any fixed
// tolerance on the normal, while the depth the sphere would reach is exact to the rounding.
bool grazes(const RayPath<Scalar>& path, Scalar radius, const Triangle<Scalar>& triangle,
            const SphereSweepHit<Scalar>& hit) {
    const Scalar speed = glm::length(path.direction);
    if (hit.startsInContact || !(glm::dot(hit.normal, path.direction) > -speed / 64)) return false;
    if (faceFrame(triangle).degenerate) return false;  // no face: its edges decide, as the sweep met them
    const Vec3<Scalar> at = path.origin + hit.t * path.direction,
                       end = path.origin + path.maxT * path.direction;
    const Scalar scale =
        maxAbsComponent(path.origin) + maxAbsComponent(path.direction) + radius +
        std::max({maxAbsComponent(triangle.a), maxAbsComponent(triangle.b), maxAbsComponent(triangle.c)});
    const Scalar tolerance = 64 * unitRoundoff<Scalar> * scale;
    const auto deepest = capsuleTriangleContact(Capsule<Scalar>{at, end, radius}, triangle, Scalar(0));
    return !deepest || !(deepest->contact.points[0].distance < -tolerance);
}

}  // namespace

Aabb<Scalar> SphereQuery::gateOf(const btCollisionObject& object) const { return grownGate(boxOf(object)); }

Aabb<Scalar> SphereQuery::grownGate(const Aabb<Scalar>& box) const {
    // A box not finite, or with min > max on an axis (a shape of negative size), holds nothing: met by
    // none, as the rays' (growing it would make it a box).
    if (!isFinite(box.min) || !isFinite(box.max) || !glm::all(glm::lessThanEqual(box.min, box.max)))
        return {Vec3<Scalar>(1), Vec3<Scalar>(-1)};
    // Grown by the radius alone: a snapshot's tree, walked in float, covers exactly this (its boxes rounded
    // out for the paths it walks), so the world's walk and a snapshot's let the same objects through.
    return {box.min - radius, box.max + radius};
}

bool SphereQuery::stops(const Vec3<Scalar>& normal) const {
    const Vec3<Scalar>& direction = segment.ray.direction;
    if (direction == Vec3<Scalar>(0)) return true;  // an overlap test
    // The tolerance covers the rounding of a face's normal, and that of the path's direction, to - from,
    // whose ends are rounded to their magnitude (a short move along a surface far from the origin, its end
    // rounded, points into it by that much): a sphere sliding on a face or along an edge is not stopped.
    const Scalar ends = maxAbsComponent(segment.ray.origin) + maxAbsComponent(segment.ray.origin + direction);
    return glm::dot(normal, direction) < -unitRoundoff<Scalar> * (64 * glm::length(direction) + 8 * ends);
}

void SphereQuery::report(const btCollisionObject& object, btCollisionWorld::LocalShapeInfo* shapeInfo,
                         const std::optional<SphereSweepHit<Scalar>>& hit, bool orEqual) const {
    if (!hit) return;
    const Scalar closest = callback.m_closestHitFraction;
    if (!(orEqual ? hit->t <= closest : hit->t < closest)) return;
    btVector3 normal = toBullet(hit->normal);
    if (!makeUnitNormal(normal) || !stops(toGlm(normal)) || !isFinite(hit->point)) return;
    btCollisionWorld::LocalConvexResult result(&object, shapeInfo, normal, toBullet(hit->point),
                                               reportedFraction(hit->t));
    callback.addSingleResult(result, true);
}

void SphereQuery::castSolid(const btCollisionObject& object, const Sphere<Scalar>& sphere) const {
    report(object, nullptr, sweepSphereSphere(segment.ray, radius, sphere), false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const Obb<Scalar>& box) const {
    report(object, nullptr, sweepSphereObb(segment.ray, radius, box), false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const Capsule<Scalar>& capsule) const {
    report(object, nullptr, sweepSphereCapsule(segment.ray, radius, capsule), false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const Cylinder<Scalar>& cylinder) const {
    report(object, nullptr, sweepSphereCylinder(segment.ray, radius, cylinder), false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const RoundedCone<Scalar>& cone) const {
    // The cone grown by the margin: swept with the radius and the margin, the contact moved out to the
    // margin's surface.
    if (!(cone.margin >= 0) || !std::isfinite(cone.margin)) return;
    std::optional<SphereSweepHit<Scalar>> hit = sweepSphereCone(segment.ray, radius + cone.margin, cone.cone);
    if (hit) hit->point += cone.margin * hit->normal;
    report(object, nullptr, hit, false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const Ellipsoid<Scalar>& ellipsoid) const {
    report(object, nullptr, sweepSphereEllipsoid(segment.ray, radius, ellipsoid), false);
}

void SphereQuery::castSolid(const btCollisionObject& object, const HullTarget& hull) const {
    // The solid in the hull's frame (our faces, or Bullet's polyhedron's).
    const ConvexPolyhedron<Scalar> solid = solidOf(hull);
    // The path in the hull's frame (a rigid motion keeps t), the sphere grown by the margin; the contact
    // moved from the points' hull out to the margin's surface, then to the world.
    const btTransform& place = hull.transform;
    const RayPath<Scalar> local =
        segmentRay(toGlm(place.invXform(segment.from)), toGlm(place.invXform(segment.to)));
    const Scalar margin = hull.margin > 0 && std::isfinite(hull.margin) ? hull.margin : Scalar(0);
    std::optional<SphereSweepHit<Scalar>> hit = sweepSphereConvexPolyhedron(local, radius + margin, solid);
    if (!hit) return;
    hit->point = toGlm(place(toBullet(hit->point + margin * hit->normal)));
    hit->normal = toGlm(place.getBasis() * toBullet(hit->normal));
    report(object, nullptr, hit, false);
}

void SphereQuery::castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const {
    const auto hit = sweepSpherePlane(segment.ray, radius, plane);
    // Bullet's plane ends at its box, BT_LARGE_FLOAT on every side of the origin, wherever it is placed: a
    // contact beyond is none (as the ray's, ray_query.cpp).
    if (hit && !(maxAbsComponent(hit->point) <= Scalar(BT_LARGE_FLOAT))) return;
    report(object, nullptr, hit, false);
}

void SphereQuery::castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                                 const btTransform& transform) const {
    btSphereShape sphere(radius);
    btTransform from = btTransform::getIdentity(), to = btTransform::getIdentity();
    from.setOrigin(segment.from);
    to.setOrigin(segment.to);
    castShapeWithBullet(object, shape, transform, sphere, from, to, radius);
}

void SphereQuery::castShapeWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                                      const btTransform& transform, const btConvexShape& cast,
                                      const btTransform& from, const btTransform& to, Scalar reach) const {
    // objectQuerySingle sweeps only convex shapes and concave ones: the others it cannot meet.
    if (!shape.isConvex() && !shape.isConcave() && !shape.isCompound()) return;
    btVector3 boxMin, boxMax;
    shape.getAabb(transform, boxMin, boxMax);
    const Aabb<Scalar> box{toGlm(boxMin), toGlm(boxMax)};
    if (!isFinite(box.min) || !isFinite(box.max)) return;
    InBoxCallback inBox(*this, box, reach);
    // objectQuerySingle takes the shapes and the object non-const; it only reads them and hands the object
    // to the callback.
    btCollisionWorld::objectQuerySingle(const_cast<btConvexShape*>(&cast), from, to,
                                        const_cast<btCollisionObject*>(&object), &shape, transform, inBox, 0);
}

SphereQuery::TriangleReporter SphereQuery::triangleReporter(const RayPath<Scalar>&,
                                                            const btCollisionObject& object,
                                                            const btVector3& scaling,
                                                            const btTransform& transform) const {
    return TriangleReporter(*this, object, scaling, transform);
}

SphereQuery::TriangleReporter::TriangleReporter(const SphereQuery& query, const btCollisionObject& object,
                                                const btVector3& scaling, const btTransform& transform)
    : query_(query),
      object_(object),
      transform_(transform),
      scaling_(toGlm(scaling)),
      localPath_(segmentRay(toGlm(transform.invXform(query.segment.from)),
                            toGlm(transform.invXform(query.segment.to)))) {}

void SphereQuery::TriangleReporter::operator()(const Triangle<btScalar>& triangle, int partId,
                                               int triangleIndex) {
    const Triangle<Scalar> local{triangle.a * scaling_, triangle.b * scaling_, triangle.c * scaling_};
    auto hit = sweepSphereTriangle(localPath_, query_.radius, local);
    if (!hit || grazes(localPath_, query_.radius, local, *hit)) return;
    hit->point = toGlm(transform_(toBullet(hit->point)));
    hit->normal = toGlm(transform_.getBasis() * toBullet(hit->normal));
    btCollisionWorld::LocalShapeInfo shapeInfo{partId, triangleIndex};
    query_.report(object_, &shapeInfo, hit, true);
}

}  // namespace analytic::cast
