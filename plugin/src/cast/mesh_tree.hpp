// SPDX-License-Identifier: Zlib
// A triangle mesh's own four-wide tree (wide_bvh.hpp) over its triangles, for batches of rays: built
// once from the mesh's data and kept in the caller's analytic::BatchCache between batches. Walking
// Bullet's btQuantizedBvh (binary, in depth-first order) waits on a cache miss at nearly every level.
//
// A tree holds a copy of the data it was built from (every subpart's vertex and index bytes, their
// types, strides and counts, and the mesh's scaling) and is used only while the mesh's data equal that
// copy byte for byte (matches, checked once per batch): any change to the triangles, refit or not, makes
// a new tree. The triangles are the mesh's whole data, whatever box Bullet's own tree was built for.
#pragma once

#include <BulletCollision/CollisionShapes/btStridingMeshInterface.h>

#include <cstddef>
#include <vector>

#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "cast/sphere_query.hpp"
#include "cast/triangle_lanes.hpp"
#include "cast/triangle_reporter.hpp"
#include "cast/wide_bvh.hpp"

namespace analytic::cast {

class MeshTree {
public:
    // Its tree built on up to `threads` threads (the same tree whatever their number).
    MeshTree(const btStridingMeshInterface& mesh, unsigned threads);

    // Whether the mesh's data are still those the tree was built from.
    bool matches(const btStridingMeshInterface& mesh) const;

    // Reports to the reporter the triangles the segment meshRay (in the unscaled mesh's frame, where
    // the vertices are; usable, isValidRay, as the reporter's) crosses, nearest box first, as
    // castAgainstMesh's walk of Bullet's tree does.
    // False, with nothing reported, when the ray's coordinates are too large for the boxes' growth (see
    // WideBvh::covers): the caller walks Bullet's tree instead.
    bool cast(const RayPath<Scalar>& meshRay, TriangleReporter& reporter) const;

    // The same for a sphere's centre path (finite), the boxes grown by `growth` (the sphere's box in the
    // unscaled mesh's frame): every triangle of each leaf reached goes to the sweep's reporter. False, with
    // nothing reported, when the path's coordinates and growth are too large for the boxes' growth.
    bool cast(const RayPath<Scalar>& meshPath, const Vec3<Scalar>& growth,
              SphereQuery::TriangleReporter& reporter) const;

private:
    // One subpart's layout as getLockedReadOnlyVertexIndexBase gives it: counts, types and strides.
    struct Layout {
        int vertexCount, vertexStride, triangleCount, indexStride;
        PHY_ScalarType vertexType, indexType;

        bool operator==(const Layout&) const = default;
    };
    // A subpart as the tree was built from it: its layout and the bytes the triangles are read from.
    struct Part {
        Layout layout;
        std::vector<unsigned char> vertexBytes, indexBytes;
    };
    // Calls use(layout, vertexBytes, indexBytes) with the subpart locked (the bytes as spans).
    template <class Use> static void readPart(const btStridingMeshInterface& mesh, int part, Use use);

    struct TriangleName {
        int partId, triangleIndex;
    };
    // A leaf of the tree: up to 8 triangles over up to 12 vertices they share (in the unscaled mesh's
    // frame), ruled out several at a time (trianglesRayMayHit), with their names (read only for a hit,
    // but on the lines already asked for: apart, they were a cache miss of their own). 256 bytes in
    // float, 384 in double: 4 and 6 cache lines, which a walk asks for all at once for each child of a
    // node. Leaves of up to 8 triangles, as many as fit 12 vertices (the tree splits the others): a
    // grid's 8 take 9 vertices, separate triangles 4 to a leaf. Shared vertices halve the memory of
    // separate triangles, and the time a ray waits for them. Larger leaves walk fewer node levels; much
    // larger ones make the requests for a node's four children more than the core keeps in flight.
    using LeafTriangles = SharedVertexTriangles<Scalar>;
    struct alignas(64) Leaf {
        LeafTriangles triangles;
        TriangleName names[LeafTriangles::maxTriangles];
    };
    static_assert(sizeof(Leaf) == (sizeof(Scalar) == sizeof(float) ? 256 : 384), "the lines said above");
    std::vector<Part> parts_;
    btVector3 scaling_;
    WideBvh tree_;
    std::vector<Leaf> leaves_;  // as the tree's leaves
};

}  // namespace analytic::cast
