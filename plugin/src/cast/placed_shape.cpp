// SPDX-License-Identifier: Zlib
#include "cast/placed_shape.hpp"

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <type_traits>
#include <variant>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_solids.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/heightfield_cast.hpp"
#include "cast/mesh_cast.hpp"
#include "cast/triangle_reporter.hpp"

namespace analytic::cast {
namespace {

using Callback = btCollisionWorld::RayResultCallback;

template <class... Cases> struct Overloaded : Cases... { using Cases::operator()...; };
template <class... Cases> Overloaded(Cases...) -> Overloaded<Cases...>;  // clang 14 deduces no aggregate

// The solid's first hit; a ray that starts inside it hits at its origin.
template <class Solid>
std::optional<SurfaceHit<Scalar>> firstHitOn(const RayPath<Scalar>& ray, const Solid& solid) {
    return firstHit(intersectRaySolid(ray, solid), ray, StartInside::HitAtOrigin);
}

// The adapters make only solids of the list, or planes.
template <class List> struct MadeByAdapters;
template <class... Made> struct MadeByAdapters<std::variant<Made...>> {
    static constexpr bool listed =
        ((InTypeList<Made, Solids<Scalar>>::value || std::is_same_v<Made, Plane<Scalar>>)&&...);
};
static_assert(MadeByAdapters<Primitive>::listed,
              "every primitive of the adapters is a solid of the core's list");

void castAgainstSolid(const btCollisionObject& object, const std::optional<SurfaceHit<Scalar>>& hit,
                      Callback& callback) {
    if (!hit || !(hit->t < callback.m_closestHitFraction)) return;
    btVector3 normal = toBullet(hit->normal);
    if (!makeUnitNormal(normal)) return;
    btCollisionWorld::LocalRayResult result(&object, nullptr, normal, reportedFraction(hit->t));
    callback.addSingleResult(result, true);
}

void castAgainstPlane(const Segment& segment, const btCollisionObject& object, const Plane<Scalar>& plane,
                      Callback& callback) {
    const auto crossing = intersectRayPlane(segment.ray, plane);
    if (!crossing || crossing->outcome != RayPlaneOutcome::Hit) return;
    // The hit's normal is the plane's when the segment runs against it, as intersectRayPlane picks it;
    // decided here from the same product rather than read back from the hit just written (a reload of
    // fresh stores of other widths stalls).
    const bool fromFront = glm::dot(plane.normal, segment.ray.direction) < 0;
    if (!fromFront && (callback.m_flags & btTriangleRaycastCallback::kF_FilterBackfaces)) return;
    const Scalar t = crossing->hit.t;
    if (!(t < callback.m_closestHitFraction)) return;
    // Bullet's plane ends at its box, BT_LARGE_FLOAT on every side of the origin, wherever it is placed: a
    // crossing beyond (a plane placed farther, a segment reaching farther) is none. Reported, it would lie
    // before the segment enters the box its object is tested by (rayBoxOf), so whether a cast found it
    // would depend on the order objects are met in.
    if (!(maxAbsComponent(crossing->hit.point) <= Scalar(BT_LARGE_FLOAT))) return;
    const bool unflipped = callback.m_flags & btTriangleRaycastCallback::kF_KeepUnflippedNormal;
    btVector3 normal = toBullet(fromFront || unflipped ? plane.normal : -plane.normal);
    if (!makeUnitNormal(normal)) return;
    btCollisionWorld::LocalShapeInfo shapeInfo{0, 0};
    btCollisionWorld::LocalRayResult result(&object, &shapeInfo, normal, reportedFraction(t));
    callback.addSingleResult(result, true);
}

// Bullet's compound ray test passes each child's hits to the user's callback through one of these
// (LocalInfoAdder2): a hit without shape information of its own gets part -1 and the child's index,
// and the user's closest fraction is followed.
class ChildCallback final : public Callback {
public:
    ChildCallback(Callback& user, int childIndex) : user_(user), childIndex_(childIndex) {
        m_closestHitFraction = user.m_closestHitFraction;
        m_flags = user.m_flags;
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override { return user_.needsCollision(proxy); }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        btCollisionWorld::LocalShapeInfo childInfo{-1, childIndex_};
        if (!result.m_localShapeInfo) result.m_localShapeInfo = &childInfo;
        const btScalar answer = user_.addSingleResult(result, normalInWorldSpace);
        m_closestHitFraction = user_.m_closestHitFraction;
        return answer;
    }

private:
    Callback& user_;
    int childIndex_;
};

void castAgainstCompound(const Segment& segment, const btCollisionObject& object,
                         const CompoundTarget& compound, Callback& callback) {
    const btCompoundShape& shape = *compound.shape;
    const auto childTransform = [&](int index) {
        return compound.transform * shape.getChildTransform(index);
    };
    // false once the closest hit is at the segment's origin: nothing can be nearer.
    const auto castAgainstChild = [&](int index) {
        ChildCallback childCallback(callback, index);
        castAgainstShape(segment, object, *shape.getChildShape(index), childTransform(index), childCallback);
        return callback.m_closestHitFraction > Scalar(0);
    };
    if (const btDbvt* tree = shape.getDynamicAabbTree()) {
        // The tree holds the children's boxes in the compound's frame; fractions are the same there.
        const auto local = makeSlabRay(segmentRay(toGlm(compound.transform.invXform(segment.from)),
                                                  toGlm(compound.transform.invXform(segment.to))));
        if (local)
            walkDbvt({tree->m_root, nullptr}, *local, callback,
                     [&](const btDbvtNode& leaf) { return castAgainstChild(leaf.dataAsInt); });
        return;
    }
    const auto slab = makeSlabRay(segment.ray);
    if (!slab) return;
    for (int index = 0; index < shape.getNumChildShapes(); ++index) {
        btVector3 boxMin, boxMax;
        shape.getChildShape(index)->getAabb(childTransform(index), boxMin, boxMax);
        if (rayOverlapsAabb(*slab, callback.m_closestHitFraction, {toGlm(boxMin), toGlm(boxMax)}) &&
            !castAgainstChild(index))
            return;
    }
}

// Passes on to the user's callback the hits of Bullet's rayTestSingle that can be there: at a fraction in
// [0, 1] no less than where the segment enters the shape's box (so that whether a walk culled the object
// by that box, given the hits found before, cannot change the answer), with a finite normal (made unit),
// at a point within the box grown by Bullet's tolerance.
// Bullet's iterative convex cast returns hits far from the shape on long segments (1e9).
class InBoxCallback final : public Callback {
public:
    // Bullet's casts start from the callback's fraction (its convex cast iterates from it): asked always
    // from 1, they answer the same whatever the user found before, so whatever the order objects are met
    // in; only the hits nearer than the user's fraction are passed on.
    InBoxCallback(Callback& user, const Segment& segment, const Aabb<Scalar>& box, Scalar entry)
        : user_(user), segment_(segment), entry_(entry) {
        m_closestHitFraction = 1;
        m_flags = user.m_flags;
        m_collisionFilterGroup = user.m_collisionFilterGroup;
        m_collisionFilterMask = user.m_collisionFilterMask;
        // A hundredth of the box's largest side (Bullet's casts converge to 1e-4 of it), and the
        // rounding of the segment's point.
        const Scalar side = maxAbsComponent(box.max - box.min);
        const Scalar padding =
            Scalar(0.01) * (std::isfinite(side) ? side : Scalar(0)) +
            slabRoundingPadding<Scalar>(std::max(maxAbsComponent(box.min), maxAbsComponent(box.max)) +
                                        rayReachOf(segment.ray));
        box_ = {box.min - padding, box.max + padding};
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override { return user_.needsCollision(proxy); }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        const Scalar t = result.m_hitFraction;
        const Vec3<Scalar> point = segment_.ray.origin + t * segment_.ray.direction;
        if (!(t >= entry_ && t < user_.m_closestHitFraction) || !makeUnitNormal(result.m_hitNormalLocal) ||
            !glm::all(glm::lessThanEqual(box_.min, point)) || !glm::all(glm::lessThanEqual(point, box_.max)))
            return m_closestHitFraction;
        result.m_hitFraction = reportedFraction(t);
        user_.addSingleResult(result, normalInWorldSpace);
        return m_closestHitFraction;
    }

private:
    Callback& user_;
    const Segment& segment_;
    Scalar entry_;
    Aabb<Scalar> box_;
};

void castWithBullet(const Segment& segment, const btCollisionObject& object, const BulletTarget& target,
                    Callback& callback) {
    // Bullet is asked only for a segment that meets the shape's box, however the caller found the object
    // (rayTest's broadphase, a batch's tree grown for its longest ray): the same question from both.
    btVector3 boxMin, boxMax;
    target.shape->getAabb(target.transform, boxMin, boxMax);
    const Aabb<Scalar> box{toGlm(boxMin), toGlm(boxMax)};
    const auto slab = makeSlabRay(segment.ray);
    if (!slab) return;
    const Scalar entry = rayEntryIntoAabb(*slab, callback.m_closestHitFraction, box);
    if (!(entry <= callback.m_closestHitFraction)) return;
    btTransform from = btTransform::getIdentity(), to = btTransform::getIdentity();
    from.setOrigin(segment.from);
    to.setOrigin(segment.to);
    InBoxCallback inBox(callback, segment, box, entry);
    // rayTestSingle takes the object non-const; it only reads it and hands it to the callback.
    btCollisionWorld::rayTestSingle(from, to, const_cast<btCollisionObject*>(&object), target.shape,
                                    target.transform, inBox);
}

// Calls visit(target) with the target of the shape placed by transform (see placeShape), made where
// visit uses it.
template <class Visit>
void visitPlacedShape(const btCollisionShape& shape, const btTransform& transform, Visit&& visit) {
    if (visitPrimitive(shape, transform,
                       Overloaded{[&](const Plane<Scalar>& plane) { visit(PlaneTarget{plane}); },
                                  [&](const auto& solid) { visit(solid); }}))
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
                return visit(toEllipsoid(*ellipsoid, transform));
            break;
        default:
            if (const auto hull = hullTargetOf(shape, transform)) return visit(*hull);
            break;
    }
    visit(BulletTarget{&shape, transform});
}

// The cast against each kind of target, as castAgainstTarget says.
struct CastAgainst {
    const Segment& segment;
    const btCollisionObject& object;
    Callback& callback;

    void operator()(const PlaneTarget& plane) const {
        castAgainstPlane(segment, object, plane.plane, callback);
    }
    void operator()(const CompoundTarget& compound) const {
        castAgainstCompound(segment, object, compound, callback);
    }
    void operator()(const MeshTarget& mesh) const { castAgainstMesh(segment, object, mesh, callback); }
    void operator()(const HeightfieldTarget& terrain) const {
        castAgainstHeightfield(segment, object, *terrain.shape, terrain.transform, callback);
    }
    void operator()(const BulletTarget& other) const { castWithBullet(segment, object, other, callback); }
    template <class Solid> void operator()(const Solid& solid) const {
        castAgainstSolid(object, firstHitOn(segment.ray, solid), callback);
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
    visitPlacedShape(shape, transform, [&](const auto& made) { target = made; });
}

void castAgainstTarget(const Segment& segment, const btCollisionObject& object, const PlacedShape& target,
                       Callback& callback) {
    std::visit(CastAgainst{segment, object, callback}, target);
}

void castAgainstShape(const Segment& segment, const btCollisionObject& object, const btCollisionShape& shape,
                      const btTransform& transform, Callback& callback) {
    visitPlacedShape(shape, transform, CastAgainst{segment, object, callback});
}

}  // namespace analytic::cast
