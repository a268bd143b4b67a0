// SPDX-License-Identifier: Zlib
// Exact sphere sweeps over a Bullet world, drop-in for btCollisionWorld::convexSweepTest with a
// btSphereShape: the same callbacks (ClosestConvexResultCallback, users' own) with the same semantics,
// but every shape the geometry core models is met by the core's exact sweep instead of Bullet's
// conservative advancement over GJK, which stops up to a millimetre early and rounds boxes by their
// margins. docs/sweeps.md lists where the answers deliberately differ from Bullet's.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

namespace analytic {

// Sweeps a sphere of the given radius, its centre moving from -> to, through the objects of the world and
// reports their contacts to the callback as btCollisionWorld::convexSweepTest does for a btSphereShape:
// callback.needsCollision (group and mask) asked before an object is swept against, addSingleResult for
// each contact, m_closestHitFraction shrinking the search (the sweep stops once it is 0), LocalShapeInfo.
// - Path: from and to are the centre's positions in world space; the direction need not be unit. A
//   contact's fraction f is measured along from -> to: the centre is at from + f (to - from) when the
//   sphere first touches the obstacle.
// - Range: every contact reported has f in [0, 1] (+0, never -0), below the callback's
//   m_closestHitFraction at that moment for convex shapes and planes, at or below it for a mesh's or
//   heightfield's triangles (Bullet's comparisons); a finite unit normal in world space
//   (normalInWorldSpace true) from the obstacle toward the sphere's centre, and in m_hitPointLocal the
//   point of the obstacle the sphere touches, in world space (as Bullet fills it), at the radius from the
//   centre within rounding. Per object: a sphere, box (its half extents with margin, sharp edges), capsule,
//   cylinder, cone (grown by its margin), EllipsoidShape or static plane (the solid half-space behind it)
//   reports its first contact without LocalShapeInfo; a
//   BVH triangle mesh (scaled or not) or a heightfield each triangle the sphere meets at or below the
//   callback's fraction, with its part and triangle index (triangles are two-sided; a degenerate one is
//   met at its edges and vertices); a compound its children's contacts, part -1 and the child's index
//   unless the child gave its own; a convex hull or point cloud (or a polyhedral shape with polyhedral
//   features) its first contact with its points' hull grown by its margin, as Bullet models it; any other
//   shape (a multi-sphere, ...) Bullet's objectQuerySingle's. Objects are visited nearest box first (with
//   another broadphase than btDbvtBroadphase, in the world's order).
// - Miss: addSingleResult is never called and m_closestHitFraction is unchanged.
// - Start in contact: a sphere touching or overlapping an obstacle at `from` reports f = 0 with the
//   normal that separates the two when it moves into the obstacle; when it moves away from it or along
//   its surface (the motion's part along the normal within the rounding: 64 units of the motion's length
//   and 8 of its ends' coordinates), that obstacle does not stop it
//   and nothing is reported for it: a sphere sliding on a mesh at exactly its radius crosses the mesh's
//   internal edges unstopped. from == to is an overlap test: every obstacle the sphere touches or
//   overlaps, at f = 0 (Bullet reports none).
// - allowedCcdPenetration (as Bullet's): the sphere may sink that far into an obstacle before it counts as
//   touching it, which is a sweep of radius - allowedCcdPenetration (no less than 0: a ray); negative
//   stops that much early. A NaN or infinite value is taken as 0 (ammo.js passed NaN by default).
// - Invalid input: a radius that is negative, NaN or infinite throws std::invalid_argument. Nothing else
//   crashes or asserts, and no contact has a NaN or infinite value: an end with a NaN or infinite
//   coordinate, or ends so far apart that to - from overflows, meets nothing; a callback whose
//   m_closestHitFraction is 0 or NaN gets nothing. An object is swept against only when the centre's
//   path meets its shape's box grown by the radius; an object whose box is not finite is never met, nor
//   one outside the broadphase. Bullet's answers for the shapes it sweeps are passed on only at a
//   fraction in [0, 1] with a finite normal and a point within the shape's box grown by the radius and
//   a hundredth of the box's size.
// Threads: many threads may sweep through one world at once, each with its own callback, while none
// modifies the world.
void sphereSweepTest(const btCollisionWorld& world, btScalar radius, const btVector3& from,
                     const btVector3& to, btCollisionWorld::ConvexResultCallback& callback,
                     btScalar allowedCcdPenetration = 0);

}  // namespace analytic
