// SPDX-License-Identifier: Zlib
// What a ray meets in one collision object, and how it is cast against it with the semantics of
// btCollisionWorld::rayTestSingle: the shape as the geometry core's primitive placed in the world when
// the core models it, a compound child by child, Bullet's own rayTestSingle for the rest.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>

#include <variant>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/ray_solids.hpp"
#include "cast/hull_cast.hpp"

namespace analytic::cast {

// The segment from -> to, as the core's ray (t is Bullet's hit fraction) and as Bullet's points.
struct Segment {
    RayPath<Scalar> ray;
    btVector3 from, to;
};

// A static plane: exact, two-sided (see castAgainstTarget).
struct PlaneTarget {
    Plane<Scalar> plane;
};

struct CompoundTarget {
    const btCompoundShape* shape;
    btTransform transform;
};

class MeshTree;

// A BVH triangle mesh (btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape): exact and watertight
// (mesh_cast.hpp), through its tree of our own when a batch's cache has one (mesh_tree.hpp).
struct MeshTarget {
    const btConcaveShape* shape;
    btTransform transform;
    const MeshTree* tree = nullptr;
};

// A heightfield (btHeightfieldTerrainShape): exact and watertight (heightfield_cast.hpp).
struct HeightfieldTarget {
    const btHeightfieldTerrainShape* shape;
    btTransform transform;
};

// A shape the core does not model: Bullet's rayTestSingle.
struct BulletTarget {
    const btCollisionShape* shape;
    btTransform transform;
};

// A variant of the list's solids and the other targets.
template <class List, class... Others> struct VariantOf;
template <class... Listed, class... Others> struct VariantOf<TypeList<Listed...>, Others...> {
    using type = std::variant<Listed..., Others...>;
};

// Every solid of the core's list (ray_solids.hpp), then the targets of the shapes the core has no solid for.
using PlacedShape = VariantOf<Solids<Scalar>, HullTarget, PlaneTarget, CompoundTarget, MeshTarget,
                              HeightfieldTarget, BulletTarget>::type;

// Makes target the target of the shape placed by transform, in place (moving a PlacedShape dispatches on its
// type: a batch's snapshot spent much of its time moving them).
void placeShape(const btCollisionShape& shape, const btTransform& transform, PlacedShape& target);

// Casts the segment against the target of object and reports hits to the callback as
// btCollisionWorld::rayTestSingle does:
// - a convex solid (a convex polyhedron with its faces known: hull_cast.hpp): its first hit, only when
// nearer than callback.m_closestHitFraction, with no shape
//   information and the unit normal in world space; a segment that starts inside the solid hits at
//   fraction 0 with the normal against its direction (Bullet's convex cast mostly reports nothing);
// - a static plane: two-sided, part 0 and triangle 0; its normal side is its front (Bullet's two
//   triangles face the other way; see docs/raycast.md), so kF_FilterBackfaces drops segments coming from
//   behind it, and the normal faces the segment's origin unless kF_KeepUnflippedNormal;
// - a BVH triangle mesh: every triangle it crosses, as castAgainstMesh says (mesh_cast.hpp);
// - a heightfield: every triangle it crosses, as castAgainstHeightfield says (heightfield_cast.hpp);
// - a compound: its children whose boxes the segment meets, nearest first when it has its tree of them,
//   each hit carrying part -1 and the child's index unless the child gave its own (a mesh's triangle);
// - anything else: Bullet's rayTestSingle.
void castAgainstTarget(const Segment& segment, const btCollisionObject& object, const PlacedShape& target,
                       btCollisionWorld::RayResultCallback& callback);

// castAgainstTarget on the target placeShape makes, without the variant: a single ray's path, where
// copying the target into one would cost more than some casts.
void castAgainstShape(const Segment& segment, const btCollisionObject& object, const btCollisionShape& shape,
                      const btTransform& transform, btCollisionWorld::RayResultCallback& callback);

// Where a segment must pass to hit the object, as rayTest and the batches test it before casting against
// the object (both the same, so that an exact cast reporting a hit a rounding away from its shape, on a
// segment 1e9 long, does so for both or neither): its shape's box where it is now (btAxisSweep3 leaves
// its proxies' boxes unset until the next update), narrowed for a static plane to where its cast can hit
// (Bullet gives a plane's box as all of space; a ground plane's becomes a thin slab; castAgainstPlane
// tests with the default tolerance, as these bounds take it). Tested with rayOverlapsAabb: a box with a
// NaN bound or min > max is met by no segment. An object whose box is not finite (a shape or placement
// with an infinite or NaN value) gets the empty box, met by none: Bullet's broadphase tree cannot hold it
// (its leaf's volume, grown for motion, becomes NaN, and the nodes above it do not hold its box), so
// rayTest could not reliably find it, and the batches must not either.
Aabb<Scalar> rayBoxOf(const btCollisionObject& object);

// btSingleRayCallback::process for an object whose broadphase box the segment meets: false once the
// closest hit is at the segment's origin (nothing can be nearer), else cast() when wanted() (the
// callback's needsCollision, or a batch's filter).
template <class Wanted, class Cast>
bool visitObject(const btCollisionWorld::RayResultCallback& callback, Wanted wanted, Cast cast) {
    if (callback.m_closestHitFraction == Scalar(0)) return false;
    if (wanted()) cast();
    return true;
}

}  // namespace analytic::cast
