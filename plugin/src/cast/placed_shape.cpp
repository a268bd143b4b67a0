// SPDX-License-Identifier: Zlib
#include "cast/placed_shape.hpp"

#include <optional>
#include <type_traits>
#include <variant>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_solids.hpp"
#include "cast/capsule_query.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/heightfield_cast.hpp"
#include "cast/mesh_cast.hpp"
#include "cast/ray_query.hpp"
#include "cast/sphere_query.hpp"

namespace analytic::cast {
namespace {

template <class... Cases> struct Overloaded : Cases... { using Cases::operator()...; };
template <class... Cases> Overloaded(Cases...) -> Overloaded<Cases...>;  // clang 14 deduces no aggregate

// The adapters make only solids of the list, or planes.
template <class List> struct MadeByAdapters;
template <class... Made> struct MadeByAdapters<std::variant<Made...>> {
    static constexpr bool listed =
        ((InTypeList<Made, Solids<Scalar>>::value || std::is_same_v<Made, Plane<Scalar>>)&&...);
};
static_assert(MadeByAdapters<Primitive>::listed,
              "every primitive of the adapters is a solid of the core's list");

// A compound's children whose boxes the path (grown as the query grows boxes) meets, nearest first when
// it has its tree of them; each child's hits reach the user's callback through a ChildCallback.
template <class Query> void castAgainstCompound(const Query& query, const btCollisionObject& object,
                                                const CompoundTarget& compound) {
    using Callback = typename Query::Callback;
    Callback& callback = query.callback;
    const btCompoundShape& shape = *compound.shape;
    const Segment& segment = query.segment;
    const auto childTransform = [&](int index) {
        return compound.transform * shape.getChildTransform(index);
    };
    // false once the closest hit is at the segment's origin: nothing can be nearer.
    const auto castAgainstChild = [&](int index) {
        ChildCallback<Callback, typename Query::Result> childCallback(callback, index);
        castAgainstShape(query.withCallback(childCallback), object, *shape.getChildShape(index),
                         childTransform(index));
        return callback.m_closestHitFraction > Scalar(0);
    };
    if (const btDbvt* tree = shape.getDynamicAabbTree()) {
        // The tree holds the children's boxes in the compound's frame (rigid: a sphere stays one there);
        // fractions are the same there.
        const SlabRay<Scalar> local = slabRayOf(segmentRay(toGlm(compound.transform.invXform(segment.from)),
                                                           toGlm(compound.transform.invXform(segment.to))));
        if (isFinite(local.origin) && isFinite(local.direction))
            walkDbvt({tree->m_root, nullptr}, query.growth().pathOf(local), callback.m_closestHitFraction,
                     [&](const btDbvtNode& leaf) { return castAgainstChild(leaf.dataAsInt); });
        return;
    }
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    for (int index = 0; index < shape.getNumChildShapes(); ++index) {
        btVector3 boxMin, boxMax;
        shape.getChildShape(index)->getAabb(childTransform(index), boxMin, boxMax);
        if (rayOverlapsAabb(slab, callback.m_closestHitFraction,
                            query.growth()({toGlm(boxMin), toGlm(boxMax)})) &&
            !castAgainstChild(index))
            return;
    }
}

// Calls visit(target) with the target of the shape placed by transform (see placeShape), made where
// visit uses it; a solid the query does not cast exactly becomes Bullet's to cast.
template <class Query, class Visit>
void visitPlacedShape(const btCollisionShape& shape, const btTransform& transform, Visit&& visit) {
    const auto visitSolid = [&](const auto& solid) {
        if constexpr (Query::template castsExactly<std::decay_t<decltype(solid)>>)
            visit(solid);
        else
            visit(BulletTarget{&shape, transform});
    };
    if (visitPrimitive(
            shape, transform,
            Overloaded{[&](const Plane<Scalar>& plane) { visit(PlaneTarget{plane}); }, visitSolid}))
        return;
    switch (shape.getShapeType()) {
        case COMPOUND_SHAPE_PROXYTYPE:
            return visit(CompoundTarget{static_cast<const btCompoundShape*>(&shape), transform});
        case TRIANGLE_MESH_SHAPE_PROXYTYPE:
        case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE:
            return visit(MeshTarget{static_cast<const btConcaveShape*>(&shape), transform});
        case TERRAIN_SHAPE_PROXYTYPE:
            return visit(HeightfieldTarget{static_cast<const btHeightfieldTerrainShape*>(&shape), transform});
        case CUSTOM_CONVEX_SHAPE_TYPE:
            if (const auto* ellipsoid = dynamic_cast<const EllipsoidShape*>(&shape))
                return visitSolid(toEllipsoid(*ellipsoid, transform));
            break;
        default:
            if (const auto hull = hullTargetOf(shape, transform)) return visitSolid(*hull);
            break;
    }
    visit(BulletTarget{&shape, transform});
}

// The cast against each kind of target, as castAgainstTarget says: the walks here, the tests at their
// leaves the query's.
template <class Query> struct CastAgainst {
    const Query& query;
    const btCollisionObject& object;

    void operator()(const PlaneTarget& plane) const { query.castPlane(object, plane.plane); }
    void operator()(const CompoundTarget& compound) const { castAgainstCompound(query, object, compound); }
    void operator()(const MeshTarget& mesh) const { castAgainstMesh(query, object, mesh); }
    void operator()(const HeightfieldTarget& terrain) const {
        castAgainstHeightfield(query, object, *terrain.shape, terrain.transform);
    }
    void operator()(const BulletTarget& other) const {
        query.castWithBullet(object, *other.shape, other.transform);
    }
    template <class Solid> void operator()(const Solid& solid) const {
        if constexpr (Query::template castsExactly<Solid>)
            query.castSolid(object, solid);
        else  // only a snapshot's target gets here (visitPlacedShape makes the others Bullet's): the object's
              // own shape
            query.castWithBullet(object, *object.getCollisionShape(), object.getWorldTransform());
    }
};

}  // namespace

Aabb<Scalar> rayBoxOf(const btCollisionObject& object) {
    const Aabb<Scalar> box = boxOf(object);
    if (!isFinite(box.min) || !isFinite(box.max)) return {Vec3<Scalar>(1), Vec3<Scalar>(-1)};  // met by none
    const btCollisionShape& shape = *object.getCollisionShape();
    if (shape.getShapeType() != STATIC_PLANE_PROXYTYPE) return box;
    const Aabb<Scalar> hits = boundsOfRayPlaneHits(
        toPlane(static_cast<const btStaticPlaneShape&>(shape), object.getWorldTransform()));
    return {glm::max(box.min, hits.min), glm::min(box.max, hits.max)};
}

void placeShape(const btCollisionShape& shape, const btTransform& transform, PlacedShape& target) {
    visitPlacedShape<RayQuery>(shape, transform, [&](const auto& made) { target = made; });
}

template <class Query>
void castAgainstTarget(const Query& query, const btCollisionObject& object, const PlacedShape& target) {
    std::visit(CastAgainst<Query>{query, object}, target);
}

template <class Query> void castAgainstShape(const Query& query, const btCollisionObject& object,
                                             const btCollisionShape& shape, const btTransform& transform) {
    visitPlacedShape<Query>(shape, transform, CastAgainst<Query>{query, object});
}

template void castAgainstTarget(const RayQuery&, const btCollisionObject&, const PlacedShape&);
template void castAgainstTarget(const SphereQuery&, const btCollisionObject&, const PlacedShape&);
template void castAgainstTarget(const CapsuleQuery&, const btCollisionObject&, const PlacedShape&);
template void castAgainstShape(const RayQuery&, const btCollisionObject&, const btCollisionShape&,
                               const btTransform&);
template void castAgainstShape(const SphereQuery&, const btCollisionObject&, const btCollisionShape&,
                               const btTransform&);
template void castAgainstShape(const CapsuleQuery&, const btCollisionObject&, const btCollisionShape&,
                               const btTransform&);

}  // namespace analytic::cast
