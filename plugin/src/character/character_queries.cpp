// SPDX-License-Identifier: Zlib
#include "character/character_queries.hpp"

#include <algorithm>
#include <cmath>

#include "analytic/character_controller.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/sweep_test.hpp"
#include "cast/capsule_query.hpp"
#include "cast/world_walk.hpp"

namespace analytic::character {
namespace {

bool finite(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// The body grown by `grow` swept from -> to through the world: a sphere by sphereSweepTest, a capsule by
// the pipeline's capsule query (the same walks).
void sweepBody(const btCollisionWorld& world, const Body& body, btScalar grow, const btVector3& from,
               const btVector3& to, btCollisionWorld::ConvexResultCallback& callback) {
    const btScalar radius = body.radius + grow;
    if (body.halfHeight == 0) return sphereSweepTest(world, radius, from, to, callback);
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    if (!isFinite(segment.ray.origin) || !isFinite(segment.ray.direction) || !std::isfinite(radius)) return;
    const cast::CapsuleQuery query{{segment, radius, callback}, toGlm(body.up * body.halfHeight)};
    cast::castThroughWorld(world, query, slabRayOf(segment.ray));
}

// The closest contact the body moves into, among the objects the filter accepts.
class ClosestCallback final : public btCollisionWorld::ConvexResultCallback {
public:
    explicit ClosestCallback(const Filter& filter) : filter_(filter) {
        m_collisionFilterGroup = filter.group;
        m_collisionFilterMask = filter.mask;
    }
    bool needsCollision(btBroadphaseProxy* proxy) const override { return filter_.accepts(*proxy); }
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
        // The sweep reports only contacts below the closest fraction (triangles at it: the first stays).
        if (hit && !(result.m_hitFraction < hit->fraction)) return m_closestHitFraction;
        hit = Hit{result.m_hitFraction, result.m_hitNormalLocal, result.m_hitPointLocal,
                  result.m_hitCollisionObject};
        m_closestHitFraction = result.m_hitFraction;
        return m_closestHitFraction;
    }
    std::optional<Hit> hit;

private:
    const Filter& filter_;
};

// Every contact of an overlap test (a sweep from == to reports each obstacle touched at fraction 0;
// the closest fraction is left at 1 so that the walk goes on).
class AllCallback final : public btCollisionWorld::ConvexResultCallback {
public:
    AllCallback(const Filter& filter, const Body& body, const btVector3& at, std::vector<Contact>& out)
        : filter_(filter), body_(body), at_(at), out_(out) {
        m_collisionFilterGroup = filter.group;
        m_collisionFilterMask = filter.mask;
    }
    bool needsCollision(btBroadphaseProxy* proxy) const override { return filter_.accepts(*proxy); }
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
        const btVector3& n = result.m_hitNormalLocal;
        // The body's surface point nearest the obstacle along -n: its segment's lower end along n.
        const btScalar distance = (at_ - result.m_hitPointLocal).dot(n) - body_.radius -
                                  body_.halfHeight * std::abs(n.dot(body_.up));
        if (std::isfinite(distance))
            out_.push_back(Contact{n, result.m_hitPointLocal, distance, result.m_hitCollisionObject});
        return m_closestHitFraction;
    }

private:
    const Filter& filter_;
    const Body& body_;
    btVector3 at_;
    std::vector<Contact>& out_;
};

class RayCallback final : public btCollisionWorld::RayResultCallback {
public:
    explicit RayCallback(const Filter& filter) : filter_(filter) {
        m_collisionFilterGroup = filter.group;
        m_collisionFilterMask = filter.mask;
    }
    bool needsCollision(btBroadphaseProxy* proxy) const override { return filter_.accepts(*proxy); }
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        if (!(result.m_hitFraction < m_closestHitFraction)) return m_closestHitFraction;
        m_closestHitFraction = result.m_hitFraction;
        const btVector3 normal =
            normalInWorldSpace
                ? result.m_hitNormalLocal
                : result.m_collisionObject->getWorldTransform().getBasis() * result.m_hitNormalLocal;
        hit = Hit{result.m_hitFraction, normal, btVector3(0, 0, 0), result.m_collisionObject};
        m_collisionObject = result.m_collisionObject;
        return m_closestHitFraction;
    }
    std::optional<Hit> hit;

private:
    const Filter& filter_;
};

}  // namespace

Filter Filter::of(const btCollisionObject& ghost, const CharacterController& character,
                  CharacterListener* listener) {
    Filter filter;
    filter.self = &ghost;
    filter.character = &character;
    filter.listener = listener;
    if (const btBroadphaseProxy* proxy = ghost.getBroadphaseHandle()) {
        filter.group = proxy->m_collisionFilterGroup;
        filter.mask = proxy->m_collisionFilterMask;
    } else {
        filter.group = btBroadphaseProxy::CharacterFilter;
        filter.mask = btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter;
    }
    return filter;
}

bool Filter::accepts(const btBroadphaseProxy& proxy) const {
    if (!(proxy.m_collisionFilterGroup & mask) || !(group & proxy.m_collisionFilterMask)) return false;
    const auto* object = static_cast<const btCollisionObject*>(proxy.m_clientObject);
    if (!object || object == self || !object->hasContactResponse()) return false;
    return !listener || listener->shouldCollide(*character, *object);
}

std::optional<Hit> Queries::sweep(const Body& body, btScalar grow, const btVector3& from,
                                  const btVector3& to) const {
    ++count_;
    ClosestCallback callback(filter_);
    sweepBody(world_, body, grow, from, to, callback);
    if (callback.hit && (!finite(callback.hit->normal) || !finite(callback.hit->point))) return std::nullopt;
    return callback.hit;
}

void Queries::contacts(const Body& body, btScalar reach, const btVector3& at, std::vector<Contact>& out,
                       std::size_t limit) const {
    ++count_;
    const std::size_t first = out.size();
    AllCallback callback(filter_, body, at, out);
    sweepBody(world_, body, reach, at, at, callback);
    if (out.size() - first > limit) {
        std::stable_sort(out.begin() + std::ptrdiff_t(first), out.end(),
                         [](const Contact& a, const Contact& b) { return a.distance < b.distance; });
        out.resize(first + limit);
    }
}

std::optional<Hit> Queries::ray(const btVector3& from, const btVector3& to) const {
    ++count_;
    RayCallback callback(filter_);
    rayTest(world_, from, to, callback);
    if (callback.hit && !finite(callback.hit->normal)) return std::nullopt;
    if (callback.hit) callback.hit->point = from.lerp(to, callback.hit->fraction);
    return callback.hit;
}

}  // namespace analytic::character
