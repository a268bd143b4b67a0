// Exact ray casts over a Bullet world, drop-in for btCollisionWorld::rayTest: the same callbacks
// (ClosestRayResultCallback, AllHitsRayResultCallback, users' own) with the same semantics (group and
// mask filtering and needsCollision, m_closestHitFraction shrinking the search, fractions along
// from -> to, LocalShapeInfo for mesh triangles and compound children, kF_FilterBackfaces and
// kF_KeepUnflippedNormal), but every supported shape is met exactly by the geometry core instead of
// Bullet's iterative convex cast. Where the answers deliberately differ from Bullet's (exact hits,
// rays that start inside a solid), the README says so in a table.
//
// Safe to call from many threads at once on one world that no thread modifies meanwhile: the
// broadphase trees are walked with a stack of the call's own.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

namespace analytic {

void rayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback);

// Any Bullet world class with its virtual rayTest answered by analytic::rayTest; everything else is
// Base's (same constructors). A user switches by changing the world's type name.
template <class Base> class World : public Base {
public:
    using Base::Base;

    void rayTest(const btVector3& from, const btVector3& to,
                 btCollisionWorld::RayResultCallback& callback) const override {
        analytic::rayTest(*this, from, to, callback);
    }
};

using DiscreteDynamicsWorld = World<btDiscreteDynamicsWorld>;

}  // namespace analytic
