// SPDX-License-Identifier: Zlib
// Sphere against a whole concave mesh (btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape,
// btHeightfieldTerrainShape) as one kernel: the mesh is queried once per step over the sphere's box in
// the mesh's frame, and its triangles are tested directly with the geometry core, where Bullet creates
// and destroys an algorithm per triangle. The manifold is (sphere, mesh), as Bullet's.
//
// Internal edges. A sphere rolling over a flat mesh touches, besides the face it rests on, the edges
// and vertices of the neighbouring triangles, with normals tilted away from the face: the bumps that
// make it bounce. Contacts are gathered first, then taken deepest first (a face before an edge before
// a vertex at equal depth). An edge or vertex contact is dropped when its feature's vertices are all
// voided, and every contact, dropped or not, voids the three vertices of its triangle: so a feature
// is dropped when deeper triangles around it have it among their vertices (Terdiman, "Contact
// generation for meshes"; Jolt's InternalEdgeRemovingCollector). Face contacts are never dropped. On a
// flat mesh without T-junctions every edge or vertex contact is dropped (up to rounding at equal
// depths): the segment from the face contact to it ends in a triangle nearer the centre that has the
// feature. A real convex edge or vertex (the centre beyond the faces around it) stays, reported once.
// Vertices are matched by exact position: a mesh's shared vertices come from one buffer (a
// heightfield's from one height), so they are bit-identical.
//
// Sides. Only a centre inside a triangle's prism (its face region) has a side to choose: edge and
// vertex contacts point from the feature toward the centre. Two-sided (Bullet's default): such a centre
// is pushed out on the side the sphere belongs on, which is the side of the contact the manifold
// already holds with that triangle, else of any contact it holds that tells a side (a sphere moving onto
// the next slope past a ridge may have had its centre behind that slope's plane, not behind the
// triangle), else the side where the centre was at the pair's previous step, else the centre's own side
// (Bullet's rule, also for contactTest's fresh algorithms). So a fast sphere
// whose centre crossed the plane during a step goes back the way it came instead of out of the back,
// and stays on its side while the solver pushes it out over several steps. One-sided (oneSidedMeshFlag
// on the mesh object, see plugin.hpp): the face region pushes out through the front, or lets the
// sphere pass when all of it is behind; edge and vertex contacts with the centre behind are dropped,
// since a triangle in front of which the centre lies pushes it, if there is one.
#pragma once

#include "narrowphase/kernels.hpp"

namespace analytic::narrowphase {

struct SphereMesh {
    // Contacts gathered per step before the internal-edge filter, on the stack. When more triangles
    // touch the sphere, the deepest are kept: the filter voids only with deeper contacts, so the kept
    // ones are filtered as if nothing had been dropped.
    static constexpr int candidateCapacity = 32;
    // Contacts reported per step, deepest first (a manifold holds 4).
    static constexpr int reportedCapacity = 4;

    // Where the sphere's centre was at the pair's previous step, in the mesh's frame.
    struct State {
        Vec3<Scalar> previousCentre;
        bool hasPrevious = false;
    };

    static void collide(const btCollisionObjectWrapper& sphere, const btCollisionObjectWrapper& mesh,
                        ContactSink& sink, State& state);

    // The earliest time of impact with any triangle over the step (sweepSphereTriangle; one-sided
    // meshes ignore triangles the sphere meets from behind).
    static Scalar timeOfImpact(const btCollisionObject& sphere, const btCollisionObject& mesh);
};

}  // namespace analytic::narrowphase
