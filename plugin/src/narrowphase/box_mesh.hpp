// SPDX-License-Identifier: Zlib
// Box against a whole concave mesh (btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape,
// btHeightfieldTerrainShape) as one kernel, as the sphere's (sphere_mesh.hpp): the mesh is queried once
// per step over the box's bounds in the mesh's frame, and each triangle is tested with the geometry
// core's separating-axis contact (box_triangle.hpp), where Bullet runs GJK and EPA per triangle. The
// box is btBoxShape's half extents with margin, as the box-plane kernel's. The manifold is (box, mesh).
//
// Internal edges. A box sliding over a flat mesh meets the edges of the triangles ahead with axes
// tilted away from the face (a box face or an edge pair penetrating least): the bumps that stop it.
// Triangles are taken deepest first (a face contact first at equal depth); a contact that is not the
// triangle's face (the box's face or an edge pair against an edge or vertex of the triangle) whose
// feature's vertices deeper triangles have all had is taken along the triangle's normal instead, and
// every triangle's vertices count as had once it is taken: Terdiman's voiding, as the sphere's, but
// the contact is kept along the face so the triangle still supports the box, each point no deeper
// than the box and that triangle overlap (their separation, less the core's bias in choosing an axis:
// 2% of it and 0.1% of the size; on a curved mesh the box reaches farther below a neighbour's plane
// than into the neighbour). A real convex edge or vertex (no deeper triangle around it) keeps its own
// axis.
//
// Fast boxes. A box wholly in front of a triangle at the pair's previous step came in through its
// face: the triangle pushes it back along its normal, however deep. (Sunk deeper than it overlaps the
// triangle sideways, a box penetrates least along a box face or edge pair against the triangle's
// edges: pushed sideways by every triangle under it, it would fall through.)
//
// Sides: as the sphere's. Two-sided meshes push the box out on the side of the contact the manifold
// holds with the triangle, else of any contact it holds (it keeps 4 points of the several triangles
// under a box), else of the box's centre at the pair's previous step, else of its centre now; one-sided ones
// (oneSidedMeshFlag) through the front only, and a box wholly behind passes.
//
// Points: at most 4 per step from all triangles, as a manifold holds: the deepest, the farthest from
// it, then the farthest on either side of the line through those two (the largest area).
#pragma once

#include "narrowphase/kernels.hpp"

namespace analytic::narrowphase {

struct BoxMesh : NoTimeOfImpact {
    // Triangles in contact gathered per step, on the stack; when more touch, the deepest are kept.
    static constexpr int candidateCapacity = 16;
    static constexpr int reportedCapacity = 4;

    // Where the box was at the pair's previous step, in the mesh's frame.
    struct State {
        Vec3<Scalar> previousCentre;
        Mat3<Scalar> previousRotation;
        bool hasPrevious = false;
    };

    static void collide(const btCollisionObjectWrapper& box, const btCollisionObjectWrapper& mesh,
                        ContactSink& sink, State& state);
};

}  // namespace analytic::narrowphase
