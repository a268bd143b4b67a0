// SPDX-License-Identifier: Zlib
// Capsule against a whole concave mesh (btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape,
// btHeightfieldTerrainShape) as one kernel, as the sphere's (sphere_mesh.hpp): the mesh is queried once
// per step over the capsule's box in the mesh's frame, and each triangle is tested with the geometry
// core's capsule-triangle contact (capsule_contact.hpp: the axis's exact closest points with the
// triangle), where Bullet runs GJK per triangle. The capsule is btCapsuleShape's (X, Y or Z axis, local
// scaling as getRadius and getHalfHeight carry it, the radius its margin). The manifold is (capsule, mesh).
//
// Points. A triangle whose face is nearest to the axis gives the two ends of the part of the axis over
// the face (a capsule lying on it), one otherwise. After the internal-edge filter, at most 4 points are
// reported: the deepest, the contacts nearest each end of the axis on either side of it along the axis
// (so a capsule lying across several triangles is held at both ends), and the contact whose normal
// turns farthest from the deepest's (the other slope of a valley it lies along). In a manifold of the pair
// alone, the points of earlier steps that none of this step's replaces are removed, least deep first,
// as far as this step's need their places (a full manifold would let Bullet drop one of them: its
// choice maximises an area, and a capsule's points lie on a line).
//
// Internal edges: as the sphere's. Contacts taken deepest first (face before edge before vertex at equal
// depth); an edge or vertex contact whose feature's vertices deeper contacts' triangles have all had is
// dropped; face contacts never are.
//
// Sides: as the sphere's. Only a face contact has a side to choose. Two-sided meshes push the capsule out
// on the side of the contact the manifold holds with that triangle, else of the capsule's centre at the
// pair's previous step, else the side of the axis (where it crosses the plane, the side its part over
// the face reaches farther on). One-sided meshes (oneSidedMeshFlag): the face pushes out through the
// front; edge and vertex contacts from behind are dropped.
//
// Fast capsules. A capsule whose axis crossed a face during the step goes back the way it came (the
// side an earlier step tells, as above; for one-sided meshes, its centre in front at the previous step),
// however deep: the triangles are queried as far beyond the reach as its centre moved over the step (up
// to its own size). A capsule wholly behind a face with no earlier step telling it came through (a
// fresh pair, or one-sided and coming from behind) is not pushed through it.
#pragma once

#include "narrowphase/kernels.hpp"

namespace analytic::narrowphase {

struct CapsuleMesh : NoTimeOfImpact {
    // Contact points gathered per step before the internal-edge filter, on the stack. When more come,
    // the deepest are kept.
    static constexpr int candidateCapacity = 64;
    static constexpr int reportedCapacity = 4;

    // Where the capsule's centre was at the pair's previous step, in the mesh's frame.
    struct State {
        Vec3<Scalar> previousCentre;
        bool hasPrevious = false;
    };

    static void collide(const btCollisionObjectWrapper& capsule, const btCollisionObjectWrapper& mesh,
                        ContactSink& sink, State& state);
};

}  // namespace analytic::narrowphase
