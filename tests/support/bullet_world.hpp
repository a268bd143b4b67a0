// SPDX-License-Identifier: Zlib
// Real Bullet worlds for the narrow-phase tests: a btDiscreteDynamicsWorld on Bullet's default
// configuration that owns its shapes and bodies, one narrow-phase pass over a pair made the way the
// world's near callback makes it, and contact points read back as seen from one object of the pair.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>
#include <vector>

#include "analytic/geometry/primitives.hpp"

namespace analytic::test {

// rotation's columns are the axes of the frame in world space, as in the geometry core.
inline btTransform transformOf(const Mat3<btScalar>& rotation, const btVector3& origin) {
    btMatrix3x3 basis;
    for (int row = 0; row < 3; ++row)
        basis[row] = btVector3(rotation[0][row], rotation[1][row], rotation[2][row]);
    return btTransform(basis, origin);
}

// A contact point seen from object A of a pair: its point on A and on the other object B, the unit
// normal on B pointing toward A, and the signed distance (negative when they overlap).
struct SeenContact {
    btVector3 pointOnA;
    btVector3 pointOnB;
    btVector3 normalOnB;
    btScalar distance;
};

// A manifold point is stored in the manifold's order; seen from its body1 the roles swap.
inline SeenContact seenFrom(const btManifoldPoint& point, bool fromBody0) {
    if (fromBody0)
        return {point.getPositionWorldOnA(), point.getPositionWorldOnB(), point.m_normalWorldOnB,
                point.getDistance()};
    return {point.getPositionWorldOnB(), point.getPositionWorldOnA(), -point.m_normalWorldOnB,
            point.getDistance()};
}

inline std::vector<SeenContact> contactsSeenFrom(const btPersistentManifold& manifold,
                                                 const btCollisionObject& a) {
    std::vector<SeenContact> contacts;
    for (int i = 0; i < manifold.getNumContacts(); ++i)
        contacts.push_back(seenFrom(manifold.getContactPoint(i), manifold.getBody0() == &a));
    return contacts;
}

// The wrapper Bullet's near callback puts around a top-level object.
struct ObjectWrapper : btCollisionObjectWrapper {
    explicit ObjectWrapper(const btCollisionObject& object)
        : btCollisionObjectWrapper(nullptr, object.getCollisionShape(), &object, object.getWorldTransform(),
                                   -1, -1) {}
};

// An algorithm from the dispatcher, destroyed as Bullet destroys them (never deleted).
struct AlgorithmDeleter {
    btDispatcher* dispatcher;
    void operator()(btCollisionAlgorithm* algorithm) const {
        algorithm->~btCollisionAlgorithm();
        dispatcher->freeCollisionAlgorithm(algorithm);
    }
};
using AlgorithmPointer = std::unique_ptr<btCollisionAlgorithm, AlgorithmDeleter>;

inline AlgorithmPointer findAlgorithm(btDispatcher& dispatcher, const btCollisionObject& body0,
                                      const btCollisionObject& body1, ebtDispatcherQueryType table) {
    ObjectWrapper wrapper0(body0), wrapper1(body1);
    return AlgorithmPointer(dispatcher.findAlgorithm(&wrapper0, &wrapper1, nullptr, table),
                            AlgorithmDeleter{&dispatcher});
}

struct PairPass {
    std::vector<SeenContact> contacts;
    btScalar breakingThreshold = 0;  // of the algorithm's manifold (its contacts' reach); 0 without one
};

// One pass over body0 and body1, in that order, as btCollisionDispatcher::defaultNearCallback makes it:
// the contact-points algorithm, processCollision into a btManifoldResult (whose owner refreshes the
// manifold), contacts read from the algorithm's manifolds while it lives, seen from seenFrom.
inline PairPass collideOnce(btDispatcher& dispatcher, const btCollisionObject& body0,
                            const btCollisionObject& body1, const btCollisionObject& seenFrom) {
    const AlgorithmPointer algorithm = findAlgorithm(dispatcher, body0, body1, BT_CONTACT_POINT_ALGORITHMS);
    ObjectWrapper wrapper0(body0), wrapper1(body1);
    btManifoldResult result(&wrapper0, &wrapper1);
    algorithm->processCollision(&wrapper0, &wrapper1, btDispatcherInfo(), &result);
    btManifoldArray manifolds;
    algorithm->getAllContactManifolds(manifolds);
    PairPass pass;
    for (int i = 0; i < manifolds.size(); ++i) {
        for (const SeenContact& contact : contactsSeenFrom(*manifolds[i], seenFrom))
            pass.contacts.push_back(contact);
        pass.breakingThreshold = manifolds[i]->getContactBreakingThreshold();
    }
    return pass;
}

// Collects what contactTest or contactPairTest reports (through the closest-points table), seen from one
// object.
struct SeenContactsCallback : btCollisionWorld::ContactResultCallback {
    explicit SeenContactsCallback(const btCollisionObject& seenFromObject) : seenFromObject(seenFromObject) {}

    btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrapper0, int, int,
                             const btCollisionObjectWrapper*, int, int) override {
        contacts.push_back(seenFrom(point, wrapper0->getCollisionObject() == &seenFromObject));
        return 0;
    }

    const btCollisionObject& seenFromObject;
    std::vector<SeenContact> contacts;
};

// Bullet's default world (default configuration, dispatcher, dynamic AABB tree broadphase, sequential
// impulse solver), gravity -9.81 along y, stepped at a fixed 60 Hz. It owns the shapes and objects made
// through it; they are removed before the world goes.
class BulletWorld {
public:
    static constexpr btScalar timeStep = btScalar(1) / 60;

    BulletWorld() { world_.setGravity(btVector3(0, btScalar(-9.81), 0)); }

    ~BulletWorld() {
        for (const auto& object : objects_)
            world_.removeCollisionObject(object.get());
    }

    BulletWorld(const BulletWorld&) = delete;
    BulletWorld& operator=(const BulletWorld&) = delete;

    btDiscreteDynamicsWorld& world() { return world_; }
    btCollisionDispatcher& dispatcher() { return dispatcher_; }
    btContactSolverInfo& solverInfo() { return world_.getSolverInfo(); }

    template <class Shape, class... Arguments> Shape& makeShape(Arguments&&... arguments) {
        auto shape = std::make_unique<Shape>(std::forward<Arguments>(arguments)...);
        Shape& made = *shape;
        shapes_.push_back(std::move(shape));
        return made;
    }

    // A rigid body; mass 0 makes it static.
    btRigidBody& addBody(btCollisionShape& shape, const btTransform& transform, btScalar mass = 0) {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape.calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
        info.m_startWorldTransform = transform;
        auto body = std::make_unique<btRigidBody>(info);
        btRigidBody& added = *body;
        world_.addRigidBody(body.get());
        objects_.push_back(std::move(body));
        return added;
    }

    btRigidBody& addBody(btCollisionShape& shape, const btVector3& position, btScalar mass = 0) {
        return addBody(shape, btTransform(btQuaternion::getIdentity(), position), mass);
    }

    void step(int count = 1) {
        for (int i = 0; i < count; ++i)
            world_.stepSimulation(timeStep, 0);
    }

    btBroadphasePair* findPair(btCollisionObject& a, btCollisionObject& b) {
        return broadphase_.getOverlappingPairCache()->findPair(a.getBroadphaseHandle(),
                                                               b.getBroadphaseHandle());
    }

    // The contact points between a and b kept after the last step, seen from a.
    std::vector<SeenContact> contacts(const btCollisionObject& a, const btCollisionObject& b) {
        std::vector<SeenContact> found;
        for (int i = 0; i < dispatcher_.getNumManifolds(); ++i) {
            const btPersistentManifold& manifold = *dispatcher_.getManifoldByIndexInternal(i);
            const bool samePair = (manifold.getBody0() == &a && manifold.getBody1() == &b) ||
                                  (manifold.getBody0() == &b && manifold.getBody1() == &a);
            if (!samePair) continue;
            for (const SeenContact& contact : contactsSeenFrom(manifold, a))
                found.push_back(contact);
        }
        return found;
    }

private:
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &configuration_};
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

// How a body moving across a flat mesh went: the largest |vertical velocity| at any step, and how far
// it moved.
struct Glide {
    btScalar maxVerticalSpeed;
    btScalar distance;
};

// Steps the world while the body's centre stays below xEnd and zEnd (and within 20 m of where it
// started; y is up).
inline Glide glideAcross(BulletWorld& world, btRigidBody& body, btScalar xEnd, btScalar zEnd) {
    const btVector3 start = body.getWorldTransform().getOrigin();
    btScalar maxVerticalSpeed = 0;
    while (body.getWorldTransform().getOrigin().x() < xEnd &&
           body.getWorldTransform().getOrigin().z() < zEnd &&
           (body.getWorldTransform().getOrigin() - start).length() <= 20) {
        world.step();
        maxVerticalSpeed = std::max(maxVerticalSpeed, std::abs(body.getLinearVelocity().y()));
    }
    return {maxVerticalSpeed, (body.getWorldTransform().getOrigin() - start).length()};
}

// How a body rests on another (y up): settled for 2 s, then watched for 1 s.
struct Rest {
    int points;             // in the pair's manifold at the end
    btScalar height;        // of the body's centre at the end
    btScalar deepest;       // penetration over the last second (positive: deeper)
    btScalar angularSpeed;  // at the end
    btScalar drift;         // horizontal, over the last second
};

inline Rest restOn(BulletWorld& world, btRigidBody& body, const btCollisionObject& ground) {
    world.step(120);
    const btVector3 settled = body.getWorldTransform().getOrigin();
    btScalar deepest = 0;
    for (int i = 0; i < 60; ++i) {
        world.step();
        for (const SeenContact& contact : world.contacts(body, ground))
            deepest = std::max(deepest, -contact.distance);
    }
    const btVector3 end = body.getWorldTransform().getOrigin();
    return {int(world.contacts(body, ground).size()), end.y(), deepest, body.getAngularVelocity().length(),
            btVector3(end.x() - settled.x(), 0, end.z() - settled.z()).length()};
}

}  // namespace analytic::test
