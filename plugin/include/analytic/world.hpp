// SPDX-License-Identifier: Zlib
// A Bullet world whose rayTest is analytic::rayTest: the drop-in for code that casts through the world.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include "analytic/ray_test.hpp"

namespace analytic {

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
