// SPDX-License-Identifier: Zlib
// Exact, watertight ray casts against btHeightfieldTerrainShape, with the triangles, identifiers and
// per-triangle semantics of Bullet's generic concave ray test (processAllTriangles through
// BridgeTriangleRaycastCallback, which Bullet uses with kF_DisableHeightfieldAccelerator), the grid's
// cells walked in the order the segment crosses them, so a closest-hit query stops early.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include "cast/placed_shape.hpp"

namespace analytic::cast {

// Casts the query's path against the heightfield placed by transform: its cells walked in the order the
// path crosses them (grown by a sweep's radius), each triangle given to the query's triangle reporter.
// For a sweep, SphereQuery says what is reported. For a ray: every triangle hit nearer than a running
// fraction (callback.m_closestHitFraction at the start, then each
// addSingleResult's answer), as castAgainstMesh does (mesh_cast.hpp). The triangles are
// processAllTriangles': its vertices (getVertex: scaling, local origin, up axis, data type), its split
// of each cell (m_flipQuadEdges, diamond and zigzag subdivision), its winding (m_flipTriangleWinding),
// and its identifiers: cell (x, j) gives part 2x and 2x + 1 for its two triangles, triangle index j.
// The front side of a triangle is its (v1 - v0) x (v2 - v0) (up the up axis for up axis 1, down it for
// 0 and 2, unless the winding is flipped); the normal is turned toward the segment's origin when the
// segment crosses from behind unless kF_KeepUnflippedNormal, and kF_FilterBackfaces skips those
// crossings. Deliberate differences from Bullet's default heightfield ray test (performRaycast, its
// "accelerator"):
// - the core's watertight triangle test (see castAgainstMesh);
// - processAllTriangles' triangles and identifiers whatever the flags: performRaycast names cell
//   (x, z) part x, triangle z, splits diamond cells the other way, ignores zigzag subdivision and
//   m_flipTriangleWinding, winds flipped-edge cells the other way, and walks the wrong grid axes for up
//   axis 0.
// Instantiated for RayQuery and SphereQuery.
template <class Query> void castAgainstHeightfield(const Query& query, const btCollisionObject& object,
                                                   const btHeightfieldTerrainShape& terrain,
                                                   const btTransform& transform);

}  // namespace analytic::cast
