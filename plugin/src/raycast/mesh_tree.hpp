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
#include "triangle_reporter.hpp"
#include "wide_bvh.hpp"

namespace analytic::raycast {

class MeshTree {
public:
    // Its tree built on up to `threads` threads (the same tree whatever their number).
    MeshTree(const btStridingMeshInterface& mesh, unsigned threads);

    // Whether the mesh's data are still those the tree was built from.
    bool matches(const btStridingMeshInterface& mesh) const;

    // Reports to the reporter the triangles the segment meshRay (in the unscaled mesh's frame, where
    // the vertices are) crosses, nearest box first, as castAgainstMesh's walk of Bullet's tree does.
    // False, with nothing reported, when the ray's coordinates are too large for the boxes' growth (see
    // WideBvh::covers): the caller walks Bullet's tree instead.
    bool cast(const RayPath<Scalar>& meshRay, TriangleReporter& reporter) const;

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
    // A leaf of the tree: its triangles (in the unscaled mesh's frame) side by side, tested four at a
    // time (trianglesRayMayHit), with their names (read only for a hit, but on the lines already asked
    // for: apart, they were a cache miss of their own). A leaf of fewer than four fills the other lanes
    // with NaN triangles, which the filter leaves and the full test rejects (they are few: scene M's
    // leaves hold 3.98 triangles on average). Aligned to cache lines, 3 of them in float, 5 in double: a
    // walk asks for them all.
    struct alignas(64) TrianglePack {
        TriangleLanes<Scalar> triangles;
        TriangleName names[4];
    };
    std::vector<Part> parts_;
    btVector3 scaling_;
    WideBvh tree_;
    std::vector<TrianglePack> packs_;  // one per leaf of the tree
};

}  // namespace analytic::raycast
