// SPDX-License-Identifier: Zlib
// Plane queries over a Bullet world: which side of a plane each object lies on, by its exact shape (not its
// box), and where a plane cuts the world's triangle meshes and heightfields, joined into polylines (a water
// line, a cross-section, contour lines). Bullet has neither.
#pragma once

#include <BulletCollision/BroadphaseCollision/btBroadphaseProxy.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <LinearMath/btVector3.h>

#include <vector>

#include "analytic/geometry/plane_tests.hpp"

namespace analytic {

// An object and the side of the plane its shape lies on: Front (every point strictly in front: the side
// the normal points to), Back, or Crossing (the plane cuts or touches the shape).
struct PlaneObject {
    const btCollisionObject* object;  // the object
    SolidPlaneSide side;              // where its shape lies
};

// Every object of the world in its broadphase that the group and mask accept (Bullet's default
// needsCollision, both ways), with the side of the plane dot(normal, x) = offset its shape lies on.
// - The plane: normal need not be unit (it is made unit); offset in the normal's units once made unit
//   (dot(unit normal, x) = offset / |normal|).
// - Range: result is cleared, then holds one entry per such object, in the world's order. A shape counts
//   as on one side when its box is wholly on that side; else by its exact shape as the casts model it: a
//   sphere, box (half extents with margin), capsule, cylinder, cone grown by its margin, ellipsoid, or static
//   plane by the core's primitives; a convex hull or point cloud by its points' hull grown by its margin;
//   another convex shape by Bullet's support function (its margin included); a triangle mesh or heightfield
//   by its triangles (any triangle cut or touched: Crossing); a compound by its children (all on one side:
//   that side). Points within the core's plane tolerance (32 rounding units of the numbers' scale) of the
//   plane count as on it. A shape the query cannot model (a custom non-convex shape) is classified by its
//   box: Crossing when the box straddles the plane.
// - Miss: an object is never left out; nothing else is reported.
// - Invalid input: a normal that is zero, NaN or infinite, or a NaN or infinite offset, throws
//   std::invalid_argument. An object whose box is not finite is reported Crossing (it may be anywhere).
// Threads: several threads may query one world at once while none modifies it.
void planeTest(const btCollisionWorld& world, const btVector3& normal, btScalar offset,
               std::vector<PlaneObject>& result, int group = btBroadphaseProxy::DefaultFilter,
               int mask = btBroadphaseProxy::AllFilter);

// One polyline where the plane cuts one object's triangles, in world space: its points in order along the
// cut; closed (its last point equal to its first) when it goes round.
struct PlaneSlice {
    const btCollisionObject* object;  // whose triangles the plane cuts
    std::vector<btVector3> points;    // in order along the cut
    bool closed;                      // the last point equals the first
};

// Where the plane dot(normal, x) = offset cuts the triangle meshes (btBvhTriangleMeshShape,
// btScaledBvhTriangleMeshShape, also as compound children) and heightfields of the world whose group and
// mask pass the filter: each triangle's cut (the core's intersectTrianglePlane: a triangle crossed gives
// its segment, one with an edge in the plane that edge; a triangle touched at a vertex or lying in the
// plane gives nothing), joined where cuts share an end point exactly (the core computes a cut through an
// edge from the same vertex for both triangles, so neighbours meet bit for bit) into polylines, each as
// long as the joined cuts allow: where three or more cuts meet at a point (an edge lying in the plane
// between two triangles), a polyline ends.
// - Range: result is cleared, then holds the polylines, object by object in the world's order.
// - Invalid input: as planeTest (throws std::invalid_argument for an invalid plane). Degenerate and
//   non-finite triangles give no cut.
void sliceMeshes(const btCollisionWorld& world, const btVector3& normal, btScalar offset,
                 std::vector<PlaneSlice>& result, int group = btBroadphaseProxy::DefaultFilter,
                 int mask = btBroadphaseProxy::AllFilter);

}  // namespace analytic
