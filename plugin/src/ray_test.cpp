// SPDX-License-Identifier: Zlib
#include "analytic/ray_test.hpp"

#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>

#include <typeinfo>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/placed_shape.hpp"

namespace analytic {
namespace {

using Callback = btCollisionWorld::RayResultCallback;

// The object of a broadphase proxy whose box the ray meets, cast against when the ray meets its
// rayBoxOf (as a batch does, whose tree of boxes in float, grown for its farthest ray, lets more through),
// tested after the filter, which costs less.
bool visitProxy(const cast::Segment& segment, const SlabRay<Scalar>& slab, btBroadphaseProxy& proxy,
                Callback& callback) {
    const auto& object = *static_cast<const btCollisionObject*>(proxy.m_clientObject);
    return cast::visitObject(
        callback, [&] { return callback.needsCollision(&proxy); },
        [&] {
            if (!rayOverlapsAabb(slab, callback.m_closestHitFraction, cast::rayBoxOf(object))) return;
            cast::castAgainstShape(segment, object, *object.getCollisionShape(), object.getWorldTransform(),
                                   callback);
        });
}

// Any other broadphase: every object in it, in the world's order (visitProxy tests the shapes' boxes).
void castThroughObjects(const btCollisionWorld& world, const cast::Segment& segment,
                        const SlabRay<Scalar>& slab, Callback& callback) {
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        btBroadphaseProxy* proxy = objects[i]->getBroadphaseHandle();
        if (!proxy) continue;
        if (!visitProxy(segment, slab, *proxy, callback)) return;
    }
}

}  // namespace

void rayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to, Callback& callback) {
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    if (!isValidRay(segment.ray)) return;  // a ray of length zero or with a non-finite end meets nothing
    // Made from the ends again, not copied out of the segment just written (a store-forwarding stall).
    const SlabRay<Scalar> slab = slabRayOf(segmentRay(toGlm(from), toGlm(to)));
    // The exact type, compared cheaply (a dynamic_cast costs as much as a short ray): a class derived
    // from btDbvtBroadphase may keep its proxies elsewhere, and takes the general path.
    const btBroadphaseInterface& broadphase = *world.getBroadphase();
    if (typeid(broadphase) == typeid(btDbvtBroadphase)) {
        const auto& dbvt = static_cast<const btDbvtBroadphase&>(broadphase);
        cast::walkDbvt(
            {dbvt.m_sets[0].m_root, dbvt.m_sets[1].m_root}, slab, callback, [&](const btDbvtNode& leaf) {
                return visitProxy(segment, slab, *static_cast<btBroadphaseProxy*>(leaf.data), callback);
            });
    } else {
        castThroughObjects(world, segment, slab, callback);
    }
}

}  // namespace analytic
