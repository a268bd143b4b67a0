// SPDX-License-Identifier: Zlib
// A Bullet world whose rayTest is analytic::rayTest and whose convexSweepTest sweeps spheres with
// analytic::sphereSweepTest: the drop-in for code that casts and sweeps through the world.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletDynamics/Dynamics/btDiscreteDynamicsWorld.h>

#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <type_traits>

#include "analytic/ray_test.hpp"
#include "analytic/sweep_test.hpp"

namespace analytic {

namespace detail {

// btDiscreteDynamicsWorld::integrateTransformsInternal with the exact sphere sweep (world.cpp).
void integrateTransformsExactly(btDiscreteDynamicsWorld& world, btRigidBody* const* bodies, int count,
                                btScalar timeStep);
// btDiscreteDynamicsWorld::createPredictiveContactsInternal with the exact sphere sweep: the manifolds it
// makes are appended to predictive (world.cpp).
void createPredictiveContactsExactly(btDiscreteDynamicsWorld& world, btRigidBody* const* bodies, int count,
                                     btScalar timeStep,
                                     btAlignedObjectArray<btPersistentManifold*>& predictive);
// The restitution btDiscreteDynamicsWorld::integrateTransforms applies to the predictive contacts.
void applySpeculativeRestitution(const btAlignedObjectArray<btPersistentManifold*>& predictive);

// What World adds to a dynamics world (a class derived from btDiscreteDynamicsWorld): continuous
// collision by the exact sphere sweep. Nothing for other worlds.
template <class Base, bool = std::is_base_of_v<btDiscreteDynamicsWorld, Base>> class Continuous
    : public Base {
public:
    using Base::Base;
};

template <class Base> class Continuous<Base, true> : public Base {
public:
    using Base::Base;

protected:
    // Bullet's continuous collision for bodies with setCcdMotionThreshold and setCcdSweptSphereRadius,
    // with its semantics, and the sphere swept by analytic::sphereSweepTest instead of Bullet's
    // conservative advancement:
    // - a body (active, dynamic, with a convex shape: compounds are not swept, as Bullet's) whose motion
    //   over the step exceeds its CCD threshold sweeps a sphere of its swept radius (translation only)
    //   from its centre to where the step takes it;
    // - the obstacles it may stop at are Bullet's: not itself, its group and mask both ways, the pair
    //   cache's overlap filter, the dispatcher's needsCollision and needsResponse, objects with contact
    //   response; each contact is weighed on its own before the nearest is chosen, and one whose normal
    //   does not oppose the motion by more than dispatchInfo.m_allowedCcdPenetration (Bullet's 0.04,
    //   against the motion's length) is ignored, so a graze of a mesh's floor does not hide its wall, unless
    //   the motion would carry the swept sphere's centre past the obstacle's surface there (Bullet ignores
    //   it all the same, and a slow sphere pressed into a thin mesh wall passes through);
    // - the clamp ("time stealing"): a body stopped at fraction f is integrated over f of the step (its
    //   velocity unchanged), as Bullet's; predictive contacts: one per swept body that meets something,
    //   Bullet's manifold point (at the sphere's centre at contact, its normal, its distance along it,
    //   restitution 0, friction by gCalculateCombinedFrictionCallback), and the speculative restitution
    //   when m_applySpeculativeContactRestitution;
    // - dispatchInfo.m_useContinuous false: no sweep, as Bullet's.
    // Differences from Bullet: the sweep is exact (Bullet's stops up to a millimetre early and gives up
    // on some long or grazing sweeps, which then tunnel); a swept radius that is negative or NaN is taken
    // as 0 (a ray); the multithreaded world (btDiscreteDynamicsWorldMt) integrates its bodies in order on
    // one thread; gNumClampedCcdMotions is not counted.
    void integrateTransforms(btScalar timeStep) override {
        if (this->m_nonStaticRigidBodies.size() > 0)
            integrateTransformsExactly(*this, &this->m_nonStaticRigidBodies[0],
                                       this->m_nonStaticRigidBodies.size(), timeStep);
        if (this->m_applySpeculativeContactRestitution)
            applySpeculativeRestitution(this->m_predictiveManifolds);
    }

    void createPredictiveContacts(btScalar timeStep) override {
        this->releasePredictiveContacts();
        if (this->m_nonStaticRigidBodies.size() > 0)
            createPredictiveContactsExactly(*this, &this->m_nonStaticRigidBodies[0],
                                            this->m_nonStaticRigidBodies.size(), timeStep,
                                            this->m_predictiveManifolds);
    }
};

}  // namespace detail

// Any Bullet world class with its virtual rayTest answered by analytic::rayTest, and convexSweepTest with a
// btSphereShape by analytic::sphereSweepTest; a dynamics world's continuous collision (CCD) swept exactly
// (detail::Continuous); everything else is Base's (same constructors). A user switches by changing the
// world's type name.
template <class Base> class World : public detail::Continuous<Base> {
public:
    using detail::Continuous<Base>::Continuous;

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

// A btDiscreteDynamicsWorld whose rayTest and sphere sweeps are ours.
using DiscreteDynamicsWorld = World<btDiscreteDynamicsWorld>;

}  // namespace analytic
