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

    // analytic::rayTest(*this, from, to, callback), with its contract (ray_test.hpp), in short:
    // - Segment: from and to are world points, the direction need not be unit; fractions along
    //   from -> to (hit point = from + f (to - from)).
    // - Range: hits with fractions in [0, 1] below the callback's m_closestHitFraction, finite unit
    //   normals in world space, points on the shapes within rounding.
    // - Miss: the callback's addSingleResult is never called.
    // - Start inside / on the surface: a segment starting inside a solid the core models hits it at
    //   fraction 0, normal against its direction (Bullet mostly reports no hit); one starting on a
    //   static plane or a mesh triangle hits it at 0 (unless it runs along it).
    // - Invalid input: a segment of length zero or with an end NaN or infinite, or a callback at fraction
    //   0, meets nothing; objects whose boxes are not finite are never hit; nothing crashes.
    void rayTest(const btVector3& from, const btVector3& to,
                 btCollisionWorld::RayResultCallback& callback) const override {
        analytic::rayTest(*this, from, to, callback);
    }
};

using DiscreteDynamicsWorld = World<btDiscreteDynamicsWorld>;

}  // namespace analytic
