// SPDX-License-Identifier: Zlib
// The ray's tests at the leaves of the cast pipeline (query.hpp), with the semantics of
// btCollisionWorld::rayTestSingle: the core's first hit on each solid, the two-sided static plane, the
// watertight triangle test (triangle_reporter.hpp), Bullet's rayTestSingle for the shapes the core has
// no solid for. What each reports is castAgainstTarget's contract (placed_shape.hpp).
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <optional>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/ray_solids.hpp"
#include "cast/hull_cast.hpp"
#include "cast/query.hpp"
#include "cast/triangle_reporter.hpp"

namespace analytic::cast {

struct RayQuery {
    using Callback = btCollisionWorld::RayResultCallback;
    using Result = btCollisionWorld::LocalRayResult;
    using TriangleReporter = cast::TriangleReporter;
    // Every solid of the core's list, and hulls with their faces, are cast exactly.
    template <class Solid> static constexpr bool castsExactly = true;

    const Segment& segment;
    Callback& callback;

    RayQuery withCallback(Callback& other) const { return {segment, other}; }
    // Whether the path, mapped into a shape's frame, can be cast there (isValidRay).
    static bool takes(const RayPath<Scalar>& path) { return isValidRay(path); }
    NoGrowth growth() const { return {}; }
    // Where the segment must pass for the object's hits to count (rayBoxOf, placed_shape.hpp).
    static Aabb<Scalar> gateOf(const btCollisionObject& object);
    // The growth of boxes in a frame scaled by `scaling` from a rigid one: none.
    Vec3<Scalar> growthIn(const btVector3&) const { return Vec3<Scalar>(0); }

    // The solid's first hit, reported when nearer than the callback's fraction.
    template <class Solid> void castSolid(const btCollisionObject& object, const Solid& solid) const {
        report(object,
               firstHit(intersectRaySolid(segment.ray, solid), segment.ray, StartInside::HitAtOrigin));
    }
    void castSolid(const btCollisionObject& object, const HullTarget& hull) const {
        report(object, firstHitOn(segment.ray, hull));
    }
    void castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const;
    void castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                        const btTransform& transform) const;
    // Reports the triangles given in a frame where the segment is frameRay: the object's, scaled by
    // `scaling` (the vertices' frame) and rotated by transform's basis.
    TriangleReporter triangleReporter(const RayPath<Scalar>& frameRay, const btCollisionObject& object,
                                      const btVector3& scaling, const btTransform& transform) const {
        return TriangleReporter(frameRay, object, scaling, transform.getBasis(), callback);
    }

private:
    void report(const btCollisionObject& object, const std::optional<SurfaceHit<Scalar>>& hit) const;
};

}  // namespace analytic::cast
