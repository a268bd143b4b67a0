// SPDX-License-Identifier: Zlib
#include "cast/batch_casts.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <vector>

#include "cast/placed_shape.hpp"
#include "cast/ray_query.hpp"

namespace analytic {
namespace {

// A batch ray's filter (Bullet's default needsCollision with the ray's group and mask) and shooter.
class FilteredCallback : public btCollisionWorld::RayResultCallback {
public:
    explicit FilteredCallback(const Ray& ray) : ray_(ray) {
        m_collisionFilterGroup = ray.group;
        m_collisionFilterMask = ray.mask;
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return accepts(static_cast<const btCollisionObject*>(proxy->m_clientObject),
                       proxy->m_collisionFilterGroup, proxy->m_collisionFilterMask);
    }

    // Bullet's default needsCollision with the ray's group and mask, and not the shooter.
    bool accepts(const btCollisionObject* object, int objectGroup, int objectMask) const {
        return object != ray_.ignore && (objectGroup & m_collisionFilterMask) != 0 &&
               (m_collisionFilterGroup & objectMask) != 0;
    }

    // The object about to be cast (an item the walk reached, with its gate box: rayBoxOf). Its hits count
    // only where the segment meets that box before the closest hit found so far, as rayTest tests it
    // before casting; tested at the object's first hit rather than before its cast (most objects the
    // tree reaches give none, and the test cost as much as their casts), with the same answer.
    void reach(const Aabb<Scalar>& gate, const SlabRay<Scalar>& slab) {
        gate_ = &gate;
        slab_ = &slab;
        gateFraction_ = m_closestHitFraction;
        gateState_ = GateState::Untested;
    }

protected:
    bool passesGate() {
        if (gateState_ == GateState::Untested)
            gateState_ =
                rayOverlapsAabb(*slab_, gateFraction_, *gate_) ? GateState::Passed : GateState::Failed;
        return gateState_ == GateState::Passed;
    }

    // The hit as ClosestRayResultCallback records it.
    RayHit hitOf(const btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) const {
        RayHit hit;
        hit.object = result.m_collisionObject;
        hit.fraction = result.m_hitFraction;
        hit.normal = normalInWorldSpace
                         ? result.m_hitNormalLocal
                         : result.m_collisionObject->getWorldTransform().getBasis() * result.m_hitNormalLocal;
        hit.point.setInterpolate3(ray_.from, ray_.to, result.m_hitFraction);
        if (result.m_localShapeInfo) {
            hit.partId = result.m_localShapeInfo->m_shapePart;
            hit.index = result.m_localShapeInfo->m_triangleIndex;
        }
        return hit;
    }

    const Ray& ray_;

private:
    enum class GateState : unsigned char { Untested, Passed, Failed };
    const Aabb<Scalar>* gate_ = nullptr;
    const SlabRay<Scalar>* slab_ = nullptr;
    Scalar gateFraction_ = 1;
    GateState gateState_ = GateState::Passed;
};

class ClosestHitCallback final : public FilteredCallback {
public:
    ClosestHitCallback(const Ray& ray, RayHit& hit) : FilteredCallback(ray), hit_(hit) { hit_ = RayHit{}; }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        if (!passesGate()) return m_closestHitFraction;
        hit_ = hitOf(result, normalInWorldSpace);
        m_closestHitFraction = result.m_hitFraction;
        return result.m_hitFraction;
    }

private:
    RayHit& hit_;
};

class AllHitsCallback final : public FilteredCallback {
public:
    AllHitsCallback(const Ray& ray, std::vector<RayHit>& hits) : FilteredCallback(ray), hits_(hits) {}

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        if (!passesGate()) return m_closestHitFraction;
        hits_.push_back(hitOf(result, normalInWorldSpace));
        return m_closestHitFraction;
    }

private:
    std::vector<RayHit>& hits_;
};

void castRay(const cast::RayScene& scene, const Ray& ray, FilteredCallback& callback) {
    const cast::Segment segment{segmentRay(toGlm(ray.from), toGlm(ray.to)), ray.from, ray.to};
    if (!isValidRay(segment.ray)) return;  // a ray of length zero or with a non-finite end meets nothing
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    const auto visit = [&](const cast::RayScene::Item& item) {
        return cast::visitObject(
            callback, [&] { return callback.accepts(item.object, item.group, item.mask); },
            [&] {
                // The tree's boxes are in float, grown for the batch's farthest ray: rayTest's own test of
                // the shape's box decides whether the object's hits count (the same objects, the same hits).
                callback.reach(item.gate, slab);
                cast::castAgainstTarget(cast::RayQuery{segment, callback}, *item.object, item.target);
            });
    };
    if (!scene.walks(segment.ray))
        return scene.walkEvery([&](const cast::RayScene::Item& item) {
            // Without the tree's boxes, the gate culls before the cast too.
            return !rayOverlapsAabb(slab, callback.m_closestHitFraction, item.gate) || visit(item);
        });
    // The walk's lanes from the slab's reciprocal, computed once (lanesOf's values).
    scene.walk(cast::SlabRayLanes<float>(slab.origin, slab.inverseDirection), callback, visit);
}

}  // namespace

void cast::castClosestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                           std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        ClosestHitCallback callback(rays[i], hits[i]);
        castRay(scene, rays[i], callback);
    }
}

void cast::castAllHits(const RayScene& scene, const Ray& ray, std::vector<RayHit>& hits) {
    AllHitsCallback callback(ray, hits);
    castRay(scene, ray, callback);
}

}  // namespace analytic
