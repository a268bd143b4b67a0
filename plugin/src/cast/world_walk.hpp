// SPDX-License-Identifier: Zlib
// A query's walk of a Bullet world, as btCollisionWorld::rayTest and convexSweepTest walk it: the
// broadphase's trees (a btDbvtBroadphase's, nearest box first), each object met asked of the callback's
// needsCollision, then cast against when the path meets its gate box (the query's gateOf).
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <typeinfo>

#include "analytic/geometry/ray_box.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/placed_shape.hpp"
#include "cast/query.hpp"

namespace analytic::cast {

// The object of a broadphase proxy whose box the path meets, cast against when the path meets its gate
// (as a batch does, whose tree of boxes in float, grown for its farthest ray, lets more through), tested
// after the filter, which costs less.
template <class Query>
bool visitProxy(const Query& query, const SlabRay<Scalar>& slab, btBroadphaseProxy& proxy) {
    const auto& object = *static_cast<const btCollisionObject*>(proxy.m_clientObject);
    auto& callback = query.callback;
    return visitObject(
        callback, [&] { return callback.needsCollision(&proxy); },
        [&] {
            if (!rayOverlapsAabb(slab, callback.m_closestHitFraction, query.gateOf(object))) return;
            castAgainstShape(query, object, *object.getCollisionShape(), object.getWorldTransform());
        });
}

// Casts the query's path (slab: its segment, prepared) at the objects of the world. With a
// btDbvtBroadphase (that exact type) its two trees are walked, nearest box first, boxes grown as the
// query grows them; with any other broadphase, every object of the world's array that is in it, in the
// world's order (each by its gate).
template <class Query>
void castThroughWorld(const btCollisionWorld& world, const Query& query, const SlabRay<Scalar>& slab) {
    // The exact type, compared cheaply (a dynamic_cast costs as much as a short ray): a class derived
    // from btDbvtBroadphase may keep its proxies elsewhere, and takes the general path.
    const btBroadphaseInterface& broadphase = *world.getBroadphase();
    if (typeid(broadphase) == typeid(btDbvtBroadphase)) {
        const auto& dbvt = static_cast<const btDbvtBroadphase&>(broadphase);
        walkDbvt({dbvt.m_sets[0].m_root, dbvt.m_sets[1].m_root}, query.growth().pathOf(slab),
                 query.callback.m_closestHitFraction, [&](const btDbvtNode& leaf) {
                     return visitProxy(query, slab, *static_cast<btBroadphaseProxy*>(leaf.data));
                 });
        return;
    }
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        btBroadphaseProxy* proxy = objects[i]->getBroadphaseHandle();
        if (!proxy) continue;
        if (!visitProxy(query, slab, *proxy)) return;
    }
}

}  // namespace analytic::cast
