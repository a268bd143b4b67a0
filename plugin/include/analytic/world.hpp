// SPDX-License-Identifier: Zlib
// A Bullet world whose rayTest is analytic::rayTest and whose convexSweepTest sweeps spheres with
// analytic::sphereSweepTest: the drop-in for code that casts and sweeps through the world.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include "analytic/ray_test.hpp"
#include "analytic/sweep_test.hpp"

namespace analytic {

// Any Bullet world class with its virtual rayTest answered by analytic::rayTest, and convexSweepTest with a
// btSphereShape by analytic::sphereSweepTest; everything else is Base's (same constructors). A user
// switches by changing the world's type name.
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

    // A btSphereShape swept from from's origin to to's (its rotation does not matter):
    // analytic::sphereSweepTest(*this, shape's radius, ..., allowedCcdPenetration), with its contract
    // (sweep_test.hpp), in short:
    // - Path: the centre from -> to; fractions along it (the centre at contact = from + f (to - from)).
    // - Range: contacts with fractions in [0, 1] (below the callback's fraction; triangles at or below
    //   it), finite unit normals in world space from the obstacle toward the sphere, m_hitPointLocal the
    //   point touched on the obstacle, in world space (as Bullet fills it).
    // - Miss: the callback's addSingleResult is never called.
    // - Start in contact: fraction 0 when moving into the obstacle; moving away or along, that obstacle
    //   does not stop the sphere. from == to is an overlap test.
    // - Invalid input: a sphere whose radius is negative or not finite throws std::invalid_argument; ends
    //   not finite meet nothing; nothing crashes.
    // Any other convex shape: Base's convexSweepTest. Bullet's convexSweepTest is not virtual: a call
    // through a btCollisionWorld& (or a pointer to the base class) reaches Bullet's own.
    void convexSweepTest(const btConvexShape* castShape, const btTransform& from, const btTransform& to,
                         btCollisionWorld::ConvexResultCallback& callback,
                         btScalar allowedCcdPenetration = btScalar(0)) const {
        if (castShape && castShape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
            const btScalar radius = static_cast<const btSphereShape*>(castShape)->getRadius();
            analytic::sphereSweepTest(*this, radius, from.getOrigin(), to.getOrigin(), callback,
                                      allowedCcdPenetration);
            return;
        }
        Base::convexSweepTest(castShape, from, to, callback, allowedCcdPenetration);
    }
};

using DiscreteDynamicsWorld = World<btDiscreteDynamicsWorld>;

}  // namespace analytic
