// SPDX-License-Identifier: Zlib
#include "analytic/query_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "cast/batch_casts.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/ray_scene.hpp"

namespace analytic {
namespace {

// Four times the extent of the world's objects whose boxes are bounded (a static plane's reaches to
// BT_LARGE_FLOAT: it would widen the tree's rounding for nothing), at least 1.
Scalar reachOf(const btCollisionWorld& world) {
    Scalar extent = 1;
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        const Aabb<Scalar> box = cast::boxOf(*objects[i]);
        const Scalar far = std::max(maxAbsComponent(box.min), maxAbsComponent(box.max));
        if (far < Scalar(BT_LARGE_FLOAT) / 2) extent = std::max(extent, far);  // NaN: not counted
    }
    return 4 * extent;
}

// The same placement bit for bit (a NaN placement is the same placement), its 12 values compared.
bool samePlacement(const btTransform& a, const btTransform& b) {
    for (int row = 0; row < 3; ++row)
        for (int column = 0; column < 3; ++column)
            if (std::memcmp(&a.getBasis()[row][column], &b.getBasis()[row][column], sizeof(btScalar)) != 0)
                return false;
    for (int axis = 0; axis < 3; ++axis)
        if (std::memcmp(&a.getOrigin()[axis], &b.getOrigin()[axis], sizeof(btScalar)) != 0) return false;
    return true;
}

void checkRadius(btScalar radius) {
    if (!(radius >= 0) || !std::isfinite(radius))
        throw std::invalid_argument(
            "analytic::QueryScene::sphereSweepTest: the radius must be finite and >= 0");
}

}  // namespace

QueryScene::QueryScene(const btCollisionWorld& world, QuerySceneOptions options) : world_(world) {
    const Scalar reach = options.reach > 0 && std::isfinite(options.reach) ? options.reach : reachOf(world);
    scene_ = std::make_unique<const cast::RayScene>(world, options.cache, reach,
                                                    cast::threadsFor(options.threads));
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    seen_.reserve(std::size_t(objects.size()));
    for (int i = 0; i < objects.size(); ++i) {
        const btCollisionObject* object = objects[i];
        const btBroadphaseProxy* proxy = object->getBroadphaseHandle();
        seen_.push_back({object, object->getCollisionShape(), object->getWorldTransform(),
                         proxy ? proxy->m_collisionFilterGroup : 0,
                         proxy ? proxy->m_collisionFilterMask : 0});
    }
}

QueryScene::~QueryScene() = default;

void QueryScene::rayTest(const btVector3& from, const btVector3& to,
                         btCollisionWorld::RayResultCallback& callback) const {
    cast::castRay(*scene_, from, to, callback);
}

void QueryScene::sphereSweepTest(btScalar radius, const btVector3& from, const btVector3& to,
                                 btCollisionWorld::ConvexResultCallback& callback,
                                 btScalar allowedCcdPenetration) const {
    checkRadius(radius);
    if (!std::isfinite(allowedCcdPenetration)) allowedCcdPenetration = 0;
    const btScalar swept = std::max(radius - allowedCcdPenetration, btScalar(0));
    if (!std::isfinite(swept)) return;
    cast::castSweep(*scene_, swept, from, to, callback);
}

void QueryScene::rayTestBatch(std::span<const Ray> rays, std::span<RayHit> hits, unsigned threads) const {
    if (hits.size() != rays.size())
        throw std::invalid_argument("analytic::QueryScene::rayTestBatch: hits must be as long as rays");
    cast::closestHits(*scene_, rays, hits, cast::threadsFor(threads));
}

void QueryScene::rayTestBatchAllHits(std::span<const Ray> rays, AllRayHits& result, unsigned threads) const {
    cast::allHits(*scene_, rays, result, cast::threadsFor(threads));
}

void QueryScene::sphereSweepBatch(std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                                  unsigned threads) const {
    if (hits.size() != sweeps.size())
        throw std::invalid_argument("analytic::QueryScene::sphereSweepBatch: hits must be as long as sweeps");
    cast::closestHits(*scene_, sweeps, hits, cast::threadsFor(threads));
}

void QueryScene::sphereSweepBatchAllHits(std::span<const Sweep> sweeps, AllSweepHits& result,
                                         unsigned threads) const {
    cast::allHits(*scene_, sweeps, result, cast::threadsFor(threads));
}

bool QueryScene::matchesWorld() const {
    const btCollisionObjectArray& objects = world_.getCollisionObjectArray();
    if (std::size_t(objects.size()) != seen_.size()) return false;
    for (std::size_t i = 0; i < seen_.size(); ++i) {
        const btCollisionObject* object = objects[int(i)];
        const Seen& seen = seen_[i];
        const btBroadphaseProxy* proxy = object->getBroadphaseHandle();
        if (object != seen.object || object->getCollisionShape() != seen.shape ||
            !samePlacement(object->getWorldTransform(), seen.transform) ||
            (proxy ? proxy->m_collisionFilterGroup : 0) != seen.group ||
            (proxy ? proxy->m_collisionFilterMask : 0) != seen.mask)
            return false;
    }
    return true;
}

}  // namespace analytic
