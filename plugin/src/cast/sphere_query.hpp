// SPDX-License-Identifier: Zlib
// The sphere sweep's tests at the leaves of the cast pipeline (query.hpp), with the semantics of
// btCollisionWorld::objectQuerySingle for a btSphereShape: the core's exact sweeps (sphere_sweep.hpp)
// against spheres, boxes, capsules, cylinders, cones, ellipsoids, convex polyhedra, static planes (solid
// half-spaces) and triangles (two-sided), Bullet's own convex cast for the other shapes.
// What a sweep reports, for every kind of target:
// - a hit at fraction t of the centre's path from -> to, with the unit normal in world space from the
//   obstacle toward the sphere's centre at t, and the point on the obstacle (in world space, as Bullet's
//   m_hitPointLocal is) where the sphere touches it;
// - only a contact the sphere moves into: one whose normal opposes the motion by more than a rounding
//   tolerance (64 unit roundoffs of |to - from|). A sphere touching or overlapping an obstacle at the start
//   gets t = 0 and the static contact's normal (the one that separates the two) when it moves into it,
//   nothing from that obstacle when it moves away from or along it (as Bullet's time-of-impact test,
//   which needs the motion toward the normal): so a sphere slides along a face at exactly its radius,
//   across the internal edges of a mesh, unstopped. A sweep from == to is an overlap test: every obstacle
//   it touches or overlaps, at t = 0;
// - convex solids and planes when t is below the callback's m_closestHitFraction, triangles when at or
//   below it (Bullet's comparisons); LocalShapeInfo null for solids and planes, {part, triangle} for a
//   mesh's or heightfield's triangles (a compound's children get {-1, child} from placed_shape.cpp).
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <optional>
#include <type_traits>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "cast/hull_cast.hpp"
#include "cast/query.hpp"

namespace analytic::cast {

struct SphereQuery {
    using Callback = btCollisionWorld::ConvexResultCallback;
    using Result = btCollisionWorld::LocalConvexResult;
    class TriangleReporter;
    // The solids the core sweeps exactly; the others are Bullet's to cast.
    template <class Solid> static constexpr bool castsExactly =
        std::is_same_v<Solid, Sphere<Scalar>> || std::is_same_v<Solid, Obb<Scalar>> ||
        std::is_same_v<Solid, Capsule<Scalar>> || std::is_same_v<Solid, Cylinder<Scalar>> ||
        std::is_same_v<Solid, RoundedCone<Scalar>> || std::is_same_v<Solid, Ellipsoid<Scalar>> ||
        std::is_same_v<Solid, HullTarget>;

    // The centre's path; the sphere's radius (finite, >= 0).
    const Segment& segment;
    Scalar radius;
    Callback& callback;

    SphereQuery withCallback(Callback& other) const { return {segment, radius, other}; }
    // Whether the path, mapped into a shape's frame, can be cast there (finite; a zero direction is an
    // overlap test).
    static bool takes(const RayPath<Scalar>& path) {
        return isFinite(path.origin) && isFinite(path.direction);
    }
    Growth growth() const { return {radius}; }
    // Where the centre must pass for the object to be met: its shape's box where it is now, grown by the
    // radius; empty (met by none) when the box is not finite or has min > max on an axis, as rayBoxOf's
    // (placed_shape.hpp).
    Aabb<Scalar> gateOf(const btCollisionObject& object) const;
    // The same from a box taken before (a snapshot's): grown, or empty when not finite.
    Aabb<Scalar> grownGate(const Aabb<Scalar>& box) const;
    // The growth of boxes in a frame scaled by `scaling` from a rigid one: the box of the sphere there.
    Vec3<Scalar> growthIn(const btVector3& scaling) const {
        if (radius == 0) return Vec3<Scalar>(0);
        return radius / glm::abs(toGlm(scaling));
    }

    // Whether a contact with this unit normal stops the sphere (see the header's comment).
    bool stops(const Vec3<Scalar>& normal) const;

    void castSolid(const btCollisionObject& object, const Sphere<Scalar>& sphere) const;
    void castSolid(const btCollisionObject& object, const Obb<Scalar>& box) const;
    void castSolid(const btCollisionObject& object, const Capsule<Scalar>& capsule) const;
    void castSolid(const btCollisionObject& object, const Cylinder<Scalar>& cylinder) const;
    // The cone grown by its margin, exactly (the rays' RoundedCone stands for it within 0.42 margins at
    // the rim).
    void castSolid(const btCollisionObject& object, const RoundedCone<Scalar>& cone) const;
    void castSolid(const btCollisionObject& object, const Ellipsoid<Scalar>& ellipsoid) const;
    // The hull's points grown by its margin (Bullet's rounded surface), exactly.
    void castSolid(const btCollisionObject& object, const HullTarget& hull) const;
    void castPlane(const btCollisionObject& object, const Plane<Scalar>& plane) const;
    void castWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                        const btTransform& transform) const;
    // Bullet's objectQuerySingle of `cast` moved from -> to against the shape, its contacts passed to report
    // when they can be there (within the shape's box grown by reach, the most the cast shape reaches from
    // its centre, and Bullet's tolerance).
    void castShapeWithBullet(const btCollisionObject& object, const btCollisionShape& shape,
                             const btTransform& transform, const btConvexShape& cast, const btTransform& from,
                             const btTransform& to, Scalar reach) const;
    TriangleReporter triangleReporter(const RayPath<Scalar>& frameRay, const btCollisionObject& object,
                                      const btVector3& scaling, const btTransform& transform) const;

    // Reports a hit in world space when it stops the sphere and its t is below the callback's fraction
    // (at or below, orEqual); the normal made unit (dropped when it has none).
    void report(const btCollisionObject& object, btCollisionWorld::LocalShapeInfo* shapeInfo,
                const std::optional<SphereSweepHit<Scalar>>& hit, bool orEqual) const;
};

// A mesh's or heightfield's triangles, given in a frame scaled by `scaling` from the object's (rigid)
// frame, swept against in the object's frame, each reported as SphereQuery::report says.
class SphereQuery::TriangleReporter {
public:
    TriangleReporter(const SphereQuery& query, const btCollisionObject& object, const btVector3& scaling,
                     const btTransform& transform);

    // The callback's closest fraction: triangles at or below it are reported.
    const btScalar& running() const { return query_.callback.m_closestHitFraction; }

    void operator()(const Triangle<btScalar>& triangle, int partId, int triangleIndex);

private:
    const SphereQuery& query_;
    const btCollisionObject& object_;
    const btTransform& transform_;
    Vec3<Scalar> scaling_;
    RayPath<Scalar> localPath_;  // the centre's path in the object's frame
};

}  // namespace analytic::cast
