// The main demo: a sphere and a box fall onto a plane in a Bullet world, then rays are cast at them.
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <memory>
#include <vector>

namespace {

struct DemoWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
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

const char* shapeName(const btCollisionObject* object) {
    return object ? object->getCollisionShape()->getName() : "nothing";
}

}  // namespace

int main() {
    DemoWorld demo;
    demo.add(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0), 0, btVector3(0, 0, 0));
    btRigidBody& sphere = demo.add(std::make_unique<btSphereShape>(0.5), 1, btVector3(-2, 5, 0));
    btRigidBody& box =
        demo.add(std::make_unique<btBoxShape>(btVector3(0.5, 0.5, 0.5)), 1, btVector3(2, 8, 0));

    for (int step = 0; step < 240; ++step)
        demo.world.stepSimulation(btScalar(1) / 60, 0);
    const btVector3 sphereAt = sphere.getWorldTransform().getOrigin();
    const btVector3 boxAt = box.getWorldTransform().getOrigin();
    std::printf("after 4 s: sphere rests at y = %.4f, box at y = %.4f\n", double(sphereAt.y()),
                double(boxAt.y()));

    const btVector3 rays[][2] = {
        {{-2, 10, 0}, {-2, -10, 0}}, {{2, 10, 0.2}, {2, -10, 0.2}}, {{-10, 0.3, 0}, {10, 0.3, 0}}};
    for (const auto& ray : rays) {
        btCollisionWorld::ClosestRayResultCallback hit(ray[0], ray[1]);
        demo.world.rayTest(ray[0], ray[1], hit);
        std::printf("ray (%g, %g, %g) -> (%g, %g, %g): Bullet hits %s at fraction %.6f\n", double(ray[0].x()),
                    double(ray[0].y()), double(ray[0].z()), double(ray[1].x()), double(ray[1].y()),
                    double(ray[1].z()), shapeName(hit.m_collisionObject), double(hit.m_closestHitFraction));
    }
}
