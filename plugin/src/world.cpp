// SPDX-License-Identifier: Zlib
#include "analytic/world.hpp"

#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <cmath>

#include "analytic/sweep_test.hpp"

namespace analytic::detail {
namespace {

// btDiscreteDynamicsWorld's btClosestNotMeConvexResultCallback (file-local there), with its filters in
// the same places: every candidate contact is weighed on its own before it can lower the fraction.
class ClosestNotMe final : public btCollisionWorld::ClosestConvexResultCallback {
public:
    ClosestNotMe(btRigidBody& me, const btVector3& from, const btVector3& to, btCollisionWorld& world,
                 btScalar allowedPenetration)
        : ClosestConvexResultCallback(from, to),
          me_(me),
          pairCache_(*world.getBroadphase()->getOverlappingPairCache()),
          dispatcher_(*world.getDispatcher()),
          allowedPenetration_(allowedPenetration) {
        m_collisionFilterGroup = me.getBroadphaseProxy()->m_collisionFilterGroup;
        m_collisionFilterMask = me.getBroadphaseProxy()->m_collisionFilterMask;
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override {
        if (proxy->m_clientObject == &me_) return false;
        if (!ClosestConvexResultCallback::needsCollision(proxy)) return false;
        if (pairCache_.getOverlapFilterCallback() &&
            !pairCache_.needsBroadphaseCollision(proxy, me_.getBroadphaseHandle()))
            return false;
        const auto* other = static_cast<const btCollisionObject*>(proxy->m_clientObject);
        return dispatcher_.needsCollision(&me_, other) && dispatcher_.needsResponse(&me_, other);
    }

    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        if (result.m_hitCollisionObject == &me_ || !result.m_hitCollisionObject->hasContactResponse())
            return 1;
        // A contact the motion does not drive into by more than the allowed penetration is not one (Bullet's
        // rule), unless the motion would carry the centre past the obstacle's surface there: on a thin wall
        // (a mesh) that is the sphere going through, which Bullet lets pass at under 4 cm a step.
        const btVector3& normal = result.m_hitNormalLocal;
        if (normal.dot(m_convexToWorld - m_convexFromWorld) >= -allowedPenetration_ &&
            normal.dot(m_convexToWorld - result.m_hitPointLocal) > 0)
            return 1;
        return ClosestConvexResultCallback::addSingleResult(result, normalInWorldSpace);
    }

private:
    btRigidBody& me_;
    btOverlappingPairCache& pairCache_;
    btDispatcher& dispatcher_;
    btScalar allowedPenetration_;
};

struct Swept {
    bool swept = false;  // the body moved past its threshold and was swept
    btTransform predicted;
};

// The body's integrated transform over the step, and whether continuous collision sweeps it: active,
// dynamic, its motion past its threshold, its shape convex, continuous collision on.
Swept predictStep(const btDiscreteDynamicsWorld& world, btRigidBody& body, btScalar timeStep) {
    Swept step;
    body.predictIntegratedTransform(timeStep, step.predicted);
    const btScalar squareMotion =
        (step.predicted.getOrigin() - body.getWorldTransform().getOrigin()).length2();
    step.swept = world.getDispatchInfo().m_useContinuous && body.getCcdSquareMotionThreshold() != 0 &&
                 body.getCcdSquareMotionThreshold() < squareMotion && body.getCollisionShape()->isConvex();
    return step;
}

// The sweep of the body's swept sphere over its step (translation only), as Bullet's convexSweepTest of a
// btSphereShape: a negative or NaN radius swept as 0.
void sweepBody(const btDiscreteDynamicsWorld& world, const btRigidBody& body, const btTransform& predicted,
               ClosestNotMe& callback) {
    const btScalar radius = body.getCcdSweptSphereRadius();
    sphereSweepTest(world, radius > 0 && std::isfinite(radius) ? radius : btScalar(0),
                    body.getWorldTransform().getOrigin(), predicted.getOrigin(), callback);
}

}  // namespace

void integrateTransformsExactly(btDiscreteDynamicsWorld& world, btRigidBody* const* bodies, int count,
                                btScalar timeStep) {
    for (int i = 0; i < count; ++i) {
        btRigidBody& body = *bodies[i];
        body.setHitFraction(1);
        if (!body.isActive() || body.isStaticOrKinematicObject()) continue;
        Swept step = predictStep(world, body, timeStep);
        if (step.swept) {
            ClosestNotMe callback(body, body.getWorldTransform().getOrigin(), step.predicted.getOrigin(),
                                  world, world.getDispatchInfo().m_allowedCcdPenetration);
            sweepBody(world, body, step.predicted, callback);
            if (callback.hasHit() && callback.m_closestHitFraction < 1) {
                // Bullet's clamp: the step integrated over the fraction, the velocity kept.
                body.setHitFraction(callback.m_closestHitFraction);
                body.predictIntegratedTransform(timeStep * body.getHitFraction(), step.predicted);
                body.setHitFraction(0);
            }
        }
        body.proceedToTransform(step.predicted);
    }
}

void createPredictiveContactsExactly(btDiscreteDynamicsWorld& world, btRigidBody* const* bodies, int count,
                                     btScalar timeStep,
                                     btAlignedObjectArray<btPersistentManifold*>& predictive) {
    for (int i = 0; i < count; ++i) {
        btRigidBody& body = *bodies[i];
        body.setHitFraction(1);
        if (!body.isActive() || body.isStaticOrKinematicObject()) continue;
        const Swept step = predictStep(world, body, timeStep);
        if (!step.swept) continue;
        const btVector3& origin = body.getWorldTransform().getOrigin();
        ClosestNotMe callback(body, origin, step.predicted.getOrigin(), world,
                              world.getDispatchInfo().m_allowedCcdPenetration);
        sweepBody(world, body, step.predicted, callback);
        if (!callback.hasHit() || !(callback.m_closestHitFraction < 1) || !callback.m_hitCollisionObject)
            continue;
        // Bullet's predictive contact: at the swept sphere's centre at contact, its distance along the
        // normal.
        const btVector3 distance = (step.predicted.getOrigin() - origin) * callback.m_closestHitFraction;
        const btCollisionObject& other = *callback.m_hitCollisionObject;
        btPersistentManifold* manifold = world.getDispatcher()->getNewManifold(&body, &other);
        predictive.push_back(manifold);
        const btVector3 worldPointB = origin + distance;
        btManifoldPoint point(btVector3(0, 0, 0), other.getWorldTransform().inverse() * worldPointB,
                              callback.m_hitNormalWorld, distance.dot(-callback.m_hitNormalWorld));
        btManifoldPoint& added = manifold->getContactPoint(manifold->addManifoldPoint(point, true));
        added.m_combinedRestitution = 0;
        added.m_combinedFriction = gCalculateCombinedFrictionCallback(&body, &other);
        added.m_positionWorldOnA = origin;
        added.m_positionWorldOnB = worldPointB;
    }
}

void applySpeculativeRestitution(const btAlignedObjectArray<btPersistentManifold*>& predictive) {
    for (int i = 0; i < predictive.size(); ++i) {
        const btPersistentManifold& manifold = *predictive[i];
        btRigidBody* body0 = btRigidBody::upcast(const_cast<btCollisionObject*>(manifold.getBody0()));
        btRigidBody* body1 = btRigidBody::upcast(const_cast<btCollisionObject*>(manifold.getBody1()));
        for (int p = 0; p < manifold.getNumContacts(); ++p) {
            const btManifoldPoint& point = manifold.getContactPoint(p);
            const btScalar restitution =
                gCalculateCombinedRestitutionCallback(manifold.getBody0(), manifold.getBody1());
            if (!(restitution > 0) || point.m_appliedImpulse == 0) continue;
            const btVector3 impulse = -point.m_normalWorldOnB * point.m_appliedImpulse * restitution;
            // Bullet reads both bodies before testing them; a manifold's bodies need not both be rigid.
            if (body0)
                body0->applyImpulse(impulse,
                                    point.getPositionWorldOnA() - body0->getWorldTransform().getOrigin());
            if (body1)
                body1->applyImpulse(-impulse,
                                    point.getPositionWorldOnB() - body1->getWorldTransform().getOrigin());
        }
    }
}

}  // namespace analytic::detail
