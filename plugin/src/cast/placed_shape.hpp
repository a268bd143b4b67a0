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
#include "cast/query.hpp"

namespace analytic::cast {

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

// Casts the query's path against the target of object and reports hits to the query's callback as
// Bullet's own query does against one object (btCollisionWorld::rayTestSingle for rays, objectQuerySingle
// for sweeps), with the query's tests at the leaves (ray_query.hpp, sphere_query.hpp):
// - a convex solid (a convex polyhedron with its faces known: hull_cast.hpp): its first hit, only when
//   nearer than the callback's m_closestHitFraction, with no shape information and the unit normal in
//   world space;
// - a static plane: one hit (for rays two-sided, part 0 and triangle 0; for sweeps the half-space);
// - a BVH triangle mesh: every triangle hit below the running fraction, as castAgainstMesh says
//   (mesh_cast.hpp);
// - a heightfield: likewise, as castAgainstHeightfield says (heightfield_cast.hpp);
// - a compound: its children whose boxes the path meets, nearest first when it has its tree of them,
//   each hit carrying part -1 and the child's index unless the child gave its own (a mesh's triangle);
// - anything else, and a solid the query does not cast exactly: Bullet's own.
// Instantiated for RayQuery and SphereQuery.
template <class Query>
void castAgainstTarget(const Query& query, const btCollisionObject& object, const PlacedShape& target);

// castAgainstTarget on the target placeShape makes, without the variant: a single query's path, where
// copying the target into one would cost more than some casts. Instantiated for RayQuery and SphereQuery.
template <class Query> void castAgainstShape(const Query& query, const btCollisionObject& object,
                                             const btCollisionShape& shape, const btTransform& transform);

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

}  // namespace analytic::cast
