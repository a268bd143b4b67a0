// SPDX-License-Identifier: Zlib
// Exact ray casts over a Bullet world, drop-in for btCollisionWorld::rayTest: the same callbacks
// (ClosestRayResultCallback, AllHitsRayResultCallback, users' own) with the same semantics, but every
// shape the geometry core models is met by the core's exact test instead of Bullet's iterative convex
// cast, and the broadphase's trees are walked nearest box first on a stack of the call's own. Where the
// answers deliberately differ from Bullet's (exact hits, rays that start inside a solid), docs/raycast.md
// says so in a table.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

namespace analytic {

// Casts the segment from -> to at the objects of the world and reports their hits to the callback as
// btCollisionWorld::rayTest does: callback.needsCollision (group and mask) asked before an object is cast
// against, addSingleResult for each hit, m_closestHitFraction shrinking the search (the cast stops once
// it is 0), LocalShapeInfo, kF_FilterBackfaces and kF_KeepUnflippedNormal.
// - Segment: from and to are points in world space; the direction need not be unit. A hit's fraction f
//   is measured along from -> to: the hit point is from + f (to - from).
// - Range: every hit reported has f in [0, 1] (+0 at the origin, never -0) and below the callback's
//   m_closestHitFraction at that moment (within one mesh or heightfield: below the last
//   addSingleResult's answer, as in Bullet), so a hit exactly at `to` is not reported to a callback
//   starting at 1; it has a finite unit normal
//   in world space (normalInWorldSpace true), and a point on the shape within the rounding of the
//   segment's coordinates (for shapes Bullet casts, within the shape's box grown by Bullet's tolerance). Per
//   object: a convex solid (sphere, box, capsule, cylinder, cone, EllipsoidShape, a hull with polyhedral
//   features) reports its first hit, without LocalShapeInfo; a static plane one hit, part 0 and triangle 0; a
//   BVH triangle mesh or a heightfield each triangle crossed below the running fraction (addSingleResult's
//   answer), with its part and triangle index; a compound its children's hits, part -1 and the child's index
//   unless the child gave its own (a mesh triangle's); any other shape Bullet's rayTestSingle's. Objects are
//   visited nearest box first (with another broadphase than btDbvtBroadphase, in the world's order), so
//   AllHitsRayResultCallback's hits are in no particular order (as with Bullet).
// - Miss: addSingleResult is never called (hasHit() stays false) and m_closestHitFraction is unchanged.
// - Start inside / on the surface: a segment starting inside a convex solid the core models hits it at
//   fraction 0 with the normal -(to - from) made unit (Bullet mostly reports no hit); one starting on
//   its surface hits at fraction 0 too when entering it, and when leaving it either so or not at all, as
//   rounding puts the origin in or out. A static plane is a two-sided surface, not a half-space: a
//   segment starting on it (within 32 rounding units of from's coordinates and the plane's offset) hits
//   it at fraction 0 unless it runs along the plane (no hit); one starting behind it hits where it
//   crosses. Meshes and heightfields are surfaces too: a segment starting on a triangle hits it at
//   fraction 0 unless it lies in the triangle's plane; from inside a closed mesh, the first triangle it
//   crosses.
//   A plane or triangle crossed from behind gets its normal turned toward `from` unless
//   kF_KeepUnflippedNormal, and is skipped with kF_FilterBackfaces. Shapes cast by Bullet's
//   rayTestSingle get Bullet's answer (mostly no hit from inside).
// - Invalid input: nothing crashes or asserts, and no hit has a NaN or infinite value.
//   - from == to, an end with a NaN or infinite coordinate, or ends so far apart that to - from
//     overflows: nothing is hit. A callback whose m_closestHitFraction is 0 or NaN at the call: nothing.
//   - An object is cast against only when the segment meets its shape's box where it is now (a static
//     plane's narrowed to where it can be hit; Bullet's plane ends at BT_LARGE_FLOAT from the origin).
//     An object whose box is not finite, has a NaN bound or min > max (a shape or placement with an
//     infinite or NaN value, negative sizes, a mesh vertex at infinity) is never hit, and the NaN that
//     Bullet's tree passes on from it to some of its nodes hides no other object. An object not in the
//     broadphase is never hit.
//   - A sphere, capsule, cylinder or EllipsoidShape whose radius is zero, negative or NaN, and a box with
//     a negative or NaN half extent, are never hit (a cone without radius or height is Bullet's to cast). A
//     triangle with a vertex not finite, or of zero area, is never hit, nor is one where the arithmetic
//     overflows (coordinates or the segment's length near the largest value). A BVH mesh built without its
//     tree (buildBvh false) is never hit (Bullet's ray test dereferences the missing tree).
//   - A heightfield whose scaling on a grid axis is zero, not finite, or so small that the segment's
//     grid coordinates overflow (a subnormal scaling) is never hit (nor by Bullet); a mesh or heightfield
//     squashed to a sliver is otherwise hit where the segment crosses it, with its exact normal.
//   - A shape the core does not model is asked of Bullet only when the segment meets its box, and a hit
//     Bullet returns outside that box (beyond its tolerance) or with a normal not finite is dropped.
//   - A placement whose basis is not a rotation is outside Bullet's model: hits on it are cast as if it
//     were one, their normals made unit (or dropped when they have no direction); a static plane so
//     placed that its normal is not unit (beyond rounding) is never hit.
//   - Magnitudes beyond the covered ones (docs/robustness.md) give a hit only where the arithmetic stays
//     finite: a segment whose squared length overflows (longer than about 1.8e19 in float, 1.3e154 in
//     double) misses the round solids.
// Threads: many threads may cast at one world at once, each with its own callback, while none modifies
// the world. With a btDbvtBroadphase (that exact type) its two trees are walked; with any other
// broadphase, every object of the world's array that is in it, by its shape's current box.
void rayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback);

}  // namespace analytic
