// SPDX-License-Identifier: Zlib
// The faces of a btConvexHullShape's or btConvexPointCloudShape's points, computed by us once per shape and
// kept beside it (never in it: the user's shape, and so Bullet's own collision for it, stay as they are).
//
// The solid the features describe is the convex hull of the shape's scaled points (getScaledPoint(i): each
// unscaled point times the local scaling, in btScalar, as Bullet computes them), in the shape's frame,
// margin NOT applied. Bullet's surface for these shapes is that hull grown by the collision margin with
// rounded edges and corners; how the margin is applied is the caller's.
//
// The hull is our own: an incremental hull with exact orientation predicates on the points as they are (the
// exact hull of the scaled points, whatever their degeneracies), its exactly coplanar triangles merged into
// one convex polygon per plane and the points exactly on an edge dropped. Points rounded off a common plane
// (a rotated box's or a mesh's in btScalar) make faces a rounding apart: those whose every vertex lies
// within a quarter of the tolerance of the plane of a larger neighbour are merged into it, and a
// vertex between two faces only, that close to the line through its neighbours, is dropped; if the merged
// faces fail a check, the exact faces are used. Bullet's btConvexHullComputer is not used: it rounds the
// points to a grid of about 1/10216 of the cloud's extent, moving vertices and dropping points that are on
// the hull.
//
// Guarantees of a non-null result, with eps the btScalar's machine epsilon and S the largest distance of a
// point from the shape's origin:
// - every point satisfies dot(normal, p) <= offset for every plane, exactly in the stored numbers (the
//   offset is rounded up), and this is checked point by point against every plane after the hull is built;
// - every plane lies within kHullFacesTolerance = 16 eps S of its face's vertices (the normal is the exact
//   cross product of three of the face's vertices, rounded), so the planes' solid is the hull up to that;
// - the hull is at least 4 times that thick along every face normal;
// - normals are unit length up to btScalar rounding; all numbers are finite;
// - every face is a strictly convex polygon (checked in exact arithmetic, projected along the face's normal),
//   counter-clockwise seen from outside, with at least 3 vertices; every edge joins two faces (each
//   listed once); V - E + F = 2;
// - vertices are scaled points themselves (not rounded copies); a point may be left out of the vertices
//   (inside, on a face or an edge, or within the tolerance of one) but never out of the planes' solid.
#pragma once

#include <BulletCollision/CollisionShapes/btCollisionShape.h>
#include <BulletCollision/CollisionShapes/btConvexHullShape.h>
#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "analytic/geometry/primitives.hpp"

namespace analytic::cast {

// How far a plane may lie from its face's vertices, in units of eps * S (see above).
inline constexpr btScalar kHullFacesTolerance = 16;

// A convex hull's features in the shape's frame, local scaling applied, margin not applied. Immutable once
// built; shared between threads through a std::shared_ptr<const HullFaces>.
struct HullFaces {
    // Face i's plane: unit outward normal, offset with dot(normal, x) <= offset inside. Contiguous for the
    // ray's loop over them.
    std::vector<Plane<btScalar>> planes;
    // The hull's vertices: the scaled points that are corners of the faces' loops (none inside a face or an
    // edge, or within the tolerance of the straight edge between two merged faces).
    std::vector<Vec3<btScalar>> vertices;
    // Face i's vertex loop is loopVertices[faceStarts[i] .. faceStarts[i + 1]): indices into vertices,
    // counter-clockwise seen from outside. faceStarts has planes.size() + 1 entries.
    std::vector<std::uint32_t> faceStarts;
    std::vector<std::uint32_t> loopVertices;
    // Each edge once, as its two vertex indices (first < second).
    std::vector<std::array<std::uint32_t, 2>> edges;

    std::size_t faceCount() const { return planes.size(); }
    std::span<const std::uint32_t> faceLoop(std::size_t face) const {
        return std::span(loopVertices).subspan(faceStarts[face], faceStarts[face + 1] - faceStarts[face]);
    }
};

// More points than this: null (Bullet's path), as is a hull whose check (faces times points) would take
// more than 2^28 point-plane evaluations (10,000 points on a sphere, 20,000 faces, fit).
inline constexpr std::size_t kHullFacesMaxPoints = std::size_t(1) << 20;

// The hull of unscaledPoints[i] * scaling (in btScalar, as getScaledPoint), computed now, not cached.
// Null when the points have no solid hull: fewer than 4 points, all coincident, collinear or coplanar
// (exactly or within the thickness above), any non-finite point, scaling or scaled point, or a plane whose
// offset would overflow btScalar; and null, never a wrong hull, if any of the checks above fails.
std::shared_ptr<const HullFaces> buildHullFaces(std::span<const btVector3> unscaledPoints,
                                                const btVector3& scaling);

// The hull of the shape's points with its current local scaling (as buildHullFaces), from a process-wide
// cache keyed by the shape's address. Every lookup checks the entry against a copy of everything the hull
// depends on (point count, every point's coordinates bit for bit, the local scaling), so points edited in
// place, a new scaling or a new shape at a freed shape's address get a recomputed hull, never a stale one.
// A null result (no solid hull) is cached too. Thread-safe: many threads may look up at once (the shape
// itself must not be modified meanwhile, as for any read of it). The cache holds at most
// kHullFacesCacheEntries shapes and about kHullFacesCacheBytes, evicting the least recently used; an
// evicted shape's hull is recomputed on its next lookup. Cost on a hit: one shared lock and one comparison
// of the points (linear in their count), no allocation.
// Fewer than 4 points (or a point cloud without its array): null at once. These two take the shape's surface
// to be its points' hull whatever its dynamic type.
std::shared_ptr<const HullFaces> hullFacesOf(const btConvexHullShape& shape);
std::shared_ptr<const HullFaces> hullFacesOf(const btConvexPointCloudShape& shape);
// Either of the two above when the shape's dynamic type is exactly btConvexHullShape or
// btConvexPointCloudShape (a subclass may change its support mapping, so its surface need not be the
// points' hull); null for any other shape.
std::shared_ptr<const HullFaces> hullFacesOf(const btCollisionShape& shape);

inline constexpr std::size_t kHullFacesCacheEntries = 4096;
inline constexpr std::size_t kHullFacesCacheBytes = std::size_t(64) << 20;

// The number of shapes in the cache now (for tests of its bound).
std::size_t hullFacesCacheSize();

}  // namespace analytic::cast
