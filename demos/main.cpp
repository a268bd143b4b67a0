// SPDX-License-Identifier: Zlib
// The main demo: a sphere and a box fall onto a plane in a Bullet world with the analytic plugin
// installed, then rays are cast at them: Bullet's own rayTest beside ours (the world's type is
// analytic::DiscreteDynamicsWorld), and the same rays as one batch.
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "analytic/plugin.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"

namespace {

struct DemoWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    // btDiscreteDynamicsWorld with its rayTest answered exactly: the only change is the type's name.
    analytic::DiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
    // The one line a user adds: exact contacts for the sphere and box on the plane.
    analytic::Plugin plugin{world};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btDefaultMotionState>> motionStates;
    std::vector<std::unique_ptr<btRigidBody>> bodies;

    DemoWorld() { world.setGravity(btVector3(0, -9.81, 0)); }

    ~DemoWorld() {
        for (auto& body : bodies)
            world.removeRigidBody(body.get());
    }

    btRigidBody& add(std::unique_ptr<btCollisionShape> shape, btScalar mass, const btVector3& position) {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        motionStates.push_back(
            std::make_unique<btDefaultMotionState>(btTransform(btQuaternion::getIdentity(), position)));
        bodies.push_back(
            std::make_unique<btRigidBody>(mass, motionStates.back().get(), shape.get(), inertia));
        shapes.push_back(std::move(shape));
        world.addRigidBody(bodies.back().get());
        return *bodies.back();
    }
};

// Contact points the world keeps between two bodies.
int contactPoints(btCollisionDispatcher& dispatcher, const btCollisionObject& a, const btCollisionObject& b) {
    int points = 0;
    for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
        const btPersistentManifold* manifold = dispatcher.getManifoldByIndexInternal(i);
        const bool samePair = (manifold->getBody0() == &a && manifold->getBody1() == &b) ||
                              (manifold->getBody0() == &b && manifold->getBody1() == &a);
        if (samePair) points += manifold->getNumContacts();
    }
    return points;
}

const char* shapeName(const btCollisionObject* object) {
    return object ? object->getCollisionShape()->getName() : "nothing";
}

}  // namespace

int main() {
    DemoWorld demo;
    btRigidBody& ground =
        demo.add(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0), 0, btVector3(0, 0, 0));
    btRigidBody& sphere = demo.add(std::make_unique<btSphereShape>(0.5), 1, btVector3(-2, 5, 0));
    btRigidBody& box =
        demo.add(std::make_unique<btBoxShape>(btVector3(0.5, 0.5, 0.5)), 1, btVector3(2, 8, 0));

    for (int step = 0; step < 240; ++step)
        demo.world.stepSimulation(btScalar(1) / 60, 0);
    const btVector3 sphereAt = sphere.getWorldTransform().getOrigin();
    const btVector3 boxAt = box.getWorldTransform().getOrigin();
    std::printf("after 4 s: sphere rests at y = %.4f, box at y = %.4f on %d contact points\n",
                double(sphereAt.y()), double(boxAt.y()), contactPoints(demo.dispatcher, box, ground));

    const btVector3 rays[][2] = {{{-2, 10, 0}, {-2, -10, 0}},
                                 {{2, 10, 0.2}, {2, -10, 0.2}},
                                 {{-10, 0.3, 0}, {10, 0.3, 0}},
                                 // Starts inside the sphere: Bullet reports nothing, ours a hit at the
                                 // origin, the normal against the ray.
                                 {{-2, 0.5, 0}, {-2, 0.5, 10}},
                                 // Long and slanted, past the box's top edge.
                                 {{-40, 30, 0.3}, {40, -30.2, 0.3}}};
    std::vector<analytic::Ray> batch;
    for (const auto& ray : rays) {
        btCollisionWorld::ClosestRayResultCallback bullet(ray[0], ray[1]), ours(ray[0], ray[1]);
        demo.world.btDiscreteDynamicsWorld::rayTest(ray[0], ray[1], bullet);  // Bullet's own
        demo.world.rayTest(ray[0], ray[1], ours);
        std::printf(
            "ray (%g, %g, %g) -> (%g, %g, %g)\n  Bullet's rayTest: %s at fraction %.7f\n"
            "  ours:             %s at fraction %.7f, normal (%.4f, %.4f, %.4f)\n",
            double(ray[0].x()), double(ray[0].y()), double(ray[0].z()), double(ray[1].x()),
            double(ray[1].y()), double(ray[1].z()), shapeName(bullet.m_collisionObject),
            double(bullet.m_closestHitFraction), shapeName(ours.m_collisionObject),
            double(ours.m_closestHitFraction), double(ours.m_hitNormalWorld.x()),
            double(ours.m_hitNormalWorld.y()), double(ours.m_hitNormalWorld.z()));
        batch.push_back({ray[0], ray[1]});
    }
    // The same rays at once, on every core; the plane (the ground) is the shooter, ignored.
    for (analytic::Ray& ray : batch)
        ray.ignore = &ground;
    std::vector<analytic::RayHit> hits(batch.size());
    analytic::rayTestBatch(demo.world, batch, hits);
    std::printf("as one batch, ignoring the ground:");
    for (const analytic::RayHit& hit : hits)
        std::printf(" %s", hit.object ? shapeName(hit.object) : "miss");
    std::printf("\n");
}
