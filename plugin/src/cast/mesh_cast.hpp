// SPDX-License-Identifier: Zlib
// Exact, watertight ray casts against Bullet's BVH triangle meshes (btBvhTriangleMeshShape,
// btScaledBvhTriangleMeshShape), with the per-triangle semantics of btCollisionWorld::rayTestSingle
// (its BridgeTriangleRaycastCallback over btTriangleRaycastCallback::processTriangle), but the mesh's
// own BVH walked front to back, so a closest-hit query stops early.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btConcaveShape.h>

#include "cast/dbvt_walk.hpp"
#include "cast/placed_shape.hpp"

namespace analytic::cast {

// How much to grow a Bullet mesh tree's boxes (walked in btScalar) for this ray, so that no box the ray
// touches is dropped (a triangle whose vertex lies on its box's face must still be tested, or a ray
// through that vertex could slip through).
inline Scalar roundingPadding(const RayPath<Scalar>& ray, Scalar treeExtent) {
    return slabRoundingPadding<Scalar>(treeExtent + rayReachOf(ray));
}

// Casts the query's path against a BVH mesh (TRIANGLE_MESH_SHAPE_PROXYTYPE or
// SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE; other shapes are not hit) placed by transform: its tree walked
// nearest box first (boxes grown by the query: a sweep's radius in the unscaled mesh's frame), each
// triangle reached given to the query's triangle reporter. For a sweep, SphereQuery says what is
// reported. For a ray: every triangle hit nearer than a running fraction: it starts at
// callback.m_closestHitFraction and becomes addSingleResult's return value after each report (so
// AllHitsRayResultCallback gets every triangle crossed, ClosestRayResultCallback only nearer ones), as
// Bullet's does. Each hit carries
// LocalShapeInfo{part, triangle index} and the unit normal in world space, of the triangle's plane
// with (v1 - v0) x (v2 - v0) its front side, turned toward the segment's origin when the segment
// crosses from behind unless kF_KeepUnflippedNormal; kF_FilterBackfaces skips those crossings.
// Deliberate differences from Bullet:
// - the geometry core's watertight triangle test (ray_triangle.hpp) instead of Bullet's test with an
//   edge tolerance: a segment through shared edges and vertices never slips through, and a segment
//   whose origin lies on a triangle's plane hits it at fraction 0 (Bullet reports neither end);
// - a scaled mesh's hit normal is the scaled triangle's (Bullet reports the unscaled triangle's); its
//   front side is Bullet's: the image of the unscaled triangle's front;
// - the BVH is walked nearest box first, so AllHits receives the triangles in another order.
// A mesh without its BVH (built with buildBvh false) is hit nowhere: Bullet's ray test dereferences it.
// With a tree of our own (mesh.tree), that tree is walked instead of Bullet's, with the same results.
// Instantiated for RayQuery and SphereQuery.
template <class Query>
void castAgainstMesh(const Query& query, const btCollisionObject& object, const MeshTarget& mesh);

// The btBvhTriangleMeshShape of a BVH mesh shape (itself, or the one a btScaledBvhTriangleMeshShape
// scales) and the scaling it is placed with on top of its own (1 for the first); null for other shapes.
const btBvhTriangleMeshShape* unscaledMeshOf(const btConcaveShape& mesh, btVector3& scaling);

}  // namespace analytic::cast
