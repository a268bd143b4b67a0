// SPDX-License-Identifier: Zlib
// Exact ray casts against Bullet's polyhedral convex shapes whose faces it knows: a
// btPolyhedralConvexShape (btConvexHullShape, btConvexPointCloudShape, btConvexTriangleMeshShape,
// btBU_Simplex1to4, a user's polyhedral shape) on which the user called initializePolyhedralFeatures().
// The solid met is the polyhedron's face planes each moved out by the shape's collision margin. Bullet's
// own surface (its GJK cast on localGetSupportingVertex) is the hull grown by the margin with rounded
// edges and corners: the two agree on the faces; at an edge or corner the planes' solid reaches farther
// out, by margin (1 / cos(half the angle between the faces) - 1) at an edge (a cube's corner:
// margin (sqrt(3) - 1)), more at sharp corners. The planes are Bullet's as they are: its face normal is
// the cross product of a face's first two edges and its hull computer merges nearly coplanar faces, so
// some of the points may lie slightly outside them.
//
// The polyhedron is read as Bullet left it: in the shape's frame with the local scaling current when
// initializePolyhedralFeatures() ran (it is built from the scaled vertices), so a later setLocalScaling
// needs initializePolyhedralFeatures() again, as Bullet's own polyhedral contact clipping does. Built with
// shiftVerticesByMargin, its faces lie the margin inside the points, so the solid met is the points' hull.
// A shape without polyhedral features, or whose polyhedron is flat (fewer than four faces: no side faces
// bound it), stays with Bullet's rayTestSingle.
#pragma once

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletCollision/CollisionShapes/btConvexPolyhedron.h>
#include <LinearMath/btTransform.h>

#include <optional>

#include "analytic/geometry/primitives.hpp"

namespace analytic::cast {

// The polyhedron stays the shape's (it is not copied): its planes are read, in its own frame, per ray.
struct HullTarget {
    const btConvexPolyhedron* polyhedron;
    btScalar margin;
    btTransform transform;
};

// The hull target of a polyhedral shape with usable polyhedral features, else nullopt.
std::optional<HullTarget> hullTargetOf(const btCollisionShape& shape, const btTransform& transform);

// The first hit of the ray (in world space) on the hull's solid, normal in world space; a ray that starts
// inside hits at its origin with the normal against its direction, as the other solids' (placed_shape.cpp).
std::optional<SurfaceHit<btScalar>> firstHitOn(const RayPath<btScalar>& ray, const HullTarget& hull);

}  // namespace analytic::cast
