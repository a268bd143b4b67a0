// SPDX-License-Identifier: Zlib
#include "cast/ray_query.hpp"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cmath>

#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/placed_shape.hpp"

namespace analytic::cast {
namespace {

using Callback = btCollisionWorld::RayResultCallback;

// Passes on to the user's callback the hits of Bullet's rayTestSingle that can be there: at a fraction in
// [0, 1] no less than where the segment enters the shape's box (so that whether a walk culled the object
// by that box, given the hits found before, cannot change the answer), with a finite normal (made unit),
// at a point within the box grown by Bullet's tolerance.
// Bullet's iterative convex cast returns hits far from the shape on long segments (1e9).
class InBoxCallback final : public Callback {
public:
    // Bullet's casts start from the callback's fraction (its convex cast iterates from it): asked always
    // from 1, they answer the same whatever the user found before, so whatever the order objects are met
    // in; only the hits nearer than the user's fraction are passed on.
    InBoxCallback(Callback& user, const Segment& segment, const Aabb<Scalar>& box, Scalar entry)
        : user_(user), segment_(segment), entry_(entry) {
        m_closestHitFraction = 1;
        m_flags = user.m_flags;
        m_collisionFilterGroup = user.m_collisionFilterGroup;
        m_collisionFilterMask = user.m_collisionFilterMask;
        // A hundredth of the box's largest side (Bullet's casts converge to 1e-4 of it), and the
        // rounding of the segment's point.
        const Scalar side = maxAbsComponent(box.max - box.min);
        const Scalar padding =
            Scalar(0.01) * (std::isfinite(side) ? side : Scalar(0)) +
            slabRoundingPadding<Scalar>(std::max(maxAbsComponent(box.min), maxAbsComponent(box.max)) +
                                        rayReachOf(segment.ray));
        box_ = {box.min - padding, box.max + padding};
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override { return user_.needsCollision(proxy); }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        const Scalar t = result.m_hitFraction;
        const Vec3<Scalar> point = segment_.ray.origin + t * segment_.ray.direction;
        if (!(t >= entry_ && t < user_.m_closestHitFraction) || !makeUnitNormal(result.m_hitNormalLocal) ||
            !glm::all(glm::lessThanEqual(box_.min, point)) || !glm::all(glm::lessThanEqual(point, box_.max)))
            return m_closestHitFraction;
        result.m_hitFraction = reportedFraction(t);
        user_.addSingleResult(result, normalInWorldSpace);
        return m_closestHitFraction;
    }

private:
    Callback& user_;
    const Segment& segment_;
    Scalar entry_;
    Aabb<Scalar> box_;
};

}  // namespace

void RayQuery::report(const btCollisionObject& object, const std::optional<SurfaceHit<Scalar>>& hit) const {
    if (!hit || !(hit->t < callback.m_closestHitFraction)) return;
    btVector3 normal = toBullet(hit->normal);
    if (!makeUnitNormal(normal)) return;
    btCollisionWorld::LocalRayResult result(&object, nullptr, normal, reportedFraction(hit->t));
    callback.addSingleResult(result, true);
}

void RayQuery::castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const {
    const auto crossing = intersectRayPlane(segment.ray, plane);
    if (!crossing || crossing->outcome != RayPlaneOutcome::Hit) return;
    // The hit's normal is the plane's when the segment runs against it, as intersectRayPlane picks it;
    // decided here from the same product rather than read back from the hit just written (a reload of
    // fresh stores of other widths stalls).
    const bool fromFront = glm::dot(plane.normal, segment.ray.direction) < 0;
    if (!fromFront && (callback.m_flags & btTriangleRaycastCallback::kF_FilterBackfaces)) return;
    const Scalar t = crossing->hit.t;
    if (!(t < callback.m_closestHitFraction)) return;
    // Bullet's plane ends at its box, BT_LARGE_FLOAT on every side of the origin, wherever it is placed: a
    // crossing beyond (a plane placed farther, a segment reaching farther) is none. Reported, it would lie
    // before the segment enters the box its object is tested by (rayBoxOf), so whether a cast found it
    // would depend on the order objects are met in.
    if (!(maxAbsComponent(crossing->hit.point) <= Scalar(BT_LARGE_FLOAT))) return;
    const bool unflipped = callback.m_flags & btTriangleRaycastCallback::kF_KeepUnflippedNormal;
    btVector3 normal = toBullet(fromFront || unflipped ? plane.normal : -plane.normal);
    if (!makeUnitNormal(normal)) return;
    btCollisionWorld::LocalShapeInfo shapeInfo{0, 0};
    btCollisionWorld::LocalRayResult result(&object, &shapeInfo, normal, reportedFraction(t));
    callback.addSingleResult(result, true);
}

void RayQuery::castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                              const btTransform& transform) const {
    // Bullet is asked only for a segment that meets the shape's box, however the caller found the object
    // (rayTest's broadphase, a batch's tree grown for its longest ray): the same question from both.
    btVector3 boxMin, boxMax;
    shape.getAabb(transform, boxMin, boxMax);
    const Aabb<Scalar> box{toGlm(boxMin), toGlm(boxMax)};
    const auto slab = makeSlabRay(segment.ray);
    if (!slab) return;
    const Scalar entry = rayEntryIntoAabb(*slab, callback.m_closestHitFraction, box);
    if (!(entry <= callback.m_closestHitFraction)) return;
    btTransform from = btTransform::getIdentity(), to = btTransform::getIdentity();
    from.setOrigin(segment.from);
    to.setOrigin(segment.to);
    InBoxCallback inBox(callback, segment, box, entry);
    // rayTestSingle takes the object non-const; it only reads it and hands it to the callback.
    btCollisionWorld::rayTestSingle(from, to, const_cast<btCollisionObject*>(&object), &shape, transform,
                                    inBox);
}

Aabb<Scalar> RayQuery::gateOf(const btCollisionObject& object) { return rayBoxOf(object); }

}  // namespace analytic::cast
