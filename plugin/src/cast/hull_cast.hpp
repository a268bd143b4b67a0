// SPDX-License-Identifier: Zlib
// Exact ray casts against Bullet's polyhedral convex shapes: btConvexHullShape and btConvexPointCloudShape
// by the faces we compute of their points (hull_faces.hpp: the exact hull of the scaled points, checked
// against every point, whether or not the user called initializePolyhedralFeatures()), and another
// btPolyhedralConvexShape (btConvexTriangleMeshShape, btBU_Simplex1to4, a user's polyhedral shape) by the
// polyhedron initializePolyhedralFeatures() left. The solid met is the face planes each moved out by the
// shape's collision margin. Bullet's own surface (its GJK cast on localGetSupportingVertex) is the hull
// grown by the margin with rounded edges and corners: the two agree on the faces; at an edge or corner the
// planes' solid reaches farther out, by margin (1 / cos(half the angle between the faces) - 1) at an edge (a
// cube's corner: margin (sqrt(3) - 1)), more at sharp corners. Bullet's polyhedron's planes are taken as
// they are: its hull computer rounds the points to a grid and merges nearly coplanar faces, so some points
// may lie slightly outside them (up to 2.5e-4 of the hull's size in ray_hull_test).
//
// Bullet's polyhedron is read as Bullet left it: in the shape's frame with the local scaling current when
// initializePolyhedralFeatures() ran, so a later setLocalScaling needs initializePolyhedralFeatures()
// again, as Bullet's own polyhedral contact clipping does; built with shiftVerticesByMargin, its faces lie
// the margin inside the points, so the solid met is the points' hull. Our faces follow the points and the
// scaling as they are now. A shape without either (no solid hull of its points; another polyhedral shape
// without features), or whose polyhedron is flat (fewer than four faces), stays with Bullet's
// rayTestSingle.
#pragma once

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletCollision/CollisionShapes/btConvexPolyhedron.h>
#include <LinearMath/btTransform.h>

#include <memory>
#include <optional>

#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "cast/hull_faces.hpp"

namespace analytic::cast {

// The face planes: our own of a btConvexHullShape's or btConvexPointCloudShape's points (hull_faces.hpp,
// shared with the shape's entry in their cache), or else the polyhedron the user's
// initializePolyhedralFeatures() left (the shape's: not copied). Either is read, in the shape's frame, per
// ray.
struct HullTarget {
    const btConvexPolyhedron* polyhedron;    // null when faces are ours
    std::shared_ptr<const HullFaces> faces;  // null when the polyhedron's
    btScalar margin;
    btTransform transform;
};

// The hull's solid in its frame, for the sweeps (sphere_sweep.hpp's ConvexPolyhedron, margin not applied):
// our faces as they are, or Bullet's polyhedron's planes, vertices and edges (gathered from its faces),
// in buffers the calling thread keeps, valid until its next call (a sweep does not allocate once they
// have grown).
ConvexPolyhedron<Scalar> solidOf(const HullTarget& hull);

// The hull target of a btConvexHullShape or btConvexPointCloudShape whose points have a solid hull (our
// faces), or of another polyhedral shape with usable polyhedral features, else nullopt.
std::optional<HullTarget> hullTargetOf(const btCollisionShape& shape, const btTransform& transform);

// The first hit of the ray (in world space) on the hull's solid, normal in world space; a ray that starts
// inside hits at its origin with the normal against its direction, as the other solids' (placed_shape.cpp).
std::optional<SurfaceHit<btScalar>> firstHitOn(const RayPath<btScalar>& ray, const HullTarget& hull);

}  // namespace analytic::cast
