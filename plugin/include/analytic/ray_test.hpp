// SPDX-License-Identifier: Zlib
// Exact ray casts over a Bullet world, drop-in for btCollisionWorld::rayTest: the same callbacks
// (ClosestRayResultCallback, AllHitsRayResultCallback, users' own) with the same semantics (group and
// mask filtering and needsCollision, m_closestHitFraction shrinking the search, fractions along
// from -> to, LocalShapeInfo for mesh triangles and compound children, kF_FilterBackfaces and
// kF_KeepUnflippedNormal), but every supported shape is met exactly by the geometry core instead of
// Bullet's iterative convex cast. Where the answers deliberately differ from Bullet's (exact hits,
// rays that start inside a solid), docs/raycast.md says so in a table.
//
// Safe to call from many threads at once on one world that no thread modifies meanwhile: the
// broadphase trees are walked with a stack of the call's own.
//
// Hostile input (NaN or infinite ends, transforms, scalings, sizes; zero, subnormal or negative radii,
// extents and scalings; zero-area triangles; segments of length zero or 1e9 long; coordinates near the
// largest finite value) never crashes and never asserts; every hit reported has a fraction in [0, 1], a
// finite unit normal, and lies on the shape within the rounding of the segment's coordinates. In detail:
// - a segment of length zero, or with an end not finite, meets nothing;
// - an object is cast against only when the segment meets its shape's box where it is now (a static
//   plane's narrowed to where it can be hit, and Bullet's plane ends at its box, BT_LARGE_FLOAT from the
//   origin); an object whose box is not finite, has a NaN bound or min > max (a shape or placement with
//   an infinite or NaN value, negative sizes, a mesh with a vertex at infinity) is never hit, and the NaN
//   that Bullet's tree passes on from such an object to some of its nodes hides no other object;
// - a triangle with a vertex not finite, or of zero area, is never hit; nor is one where the arithmetic
//   overflows (sheared coordinates or the segment's length near the largest value);
// - a heightfield whose scaling on a grid axis is zero or not finite, or so small that the segment's grid
//   coordinates overflow (a subnormal scaling), is never hit (nor by Bullet); a mesh or heightfield
//   squashed to a sliver is otherwise hit where the segment crosses it, with its exact normal;
// - a shape the core does not model is asked of Bullet only when the segment meets its box, and a hit
//   Bullet returns outside that box (beyond its tolerance) or with a normal not finite is dropped;
// - a placement whose basis is not a rotation is outside Bullet's model: hits on it are cast as if it
//   were one, their normals made unit (or dropped when they have no direction).
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

namespace analytic {

void rayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback);

}  // namespace analytic
