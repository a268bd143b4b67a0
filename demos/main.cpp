// The main demo: a sphere and a box fall onto a plane in a Bullet world with the analytic plugin
// installed, then rays are cast at them (Bullet's rayTest beside the exact analytic hit).
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "analytic/plugin.hpp"

namespace {

struct DemoWorld {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &configuration};
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

using RayPath = analytic::RayPath<btScalar>;
using Hit = std::optional<analytic::SurfaceHit<btScalar>>;

// The exact first hit of a ray on one primitive; the plane is the solid half-space behind it.
Hit castRay(const RayPath& ray, const analytic::Primitive& primitive) {
    constexpr auto policy = analytic::StartInside::HitAtOrigin;
    return std::visit(
        [&](const auto& shape) -> Hit {
            using Shape = std::decay_t<decltype(shape)>;
            if constexpr (std::is_same_v<Shape, analytic::Sphere<btScalar>>)
                return analytic::firstHit(analytic::intersectRaySphere(ray, shape), ray, policy);
            else if constexpr (std::is_same_v<Shape, analytic::Obb<btScalar>>)
                return analytic::firstHit(analytic::intersectRayObb(ray, shape), ray, policy);
            else if constexpr (std::is_same_v<Shape, analytic::Capsule<btScalar>>)
                return analytic::firstHit(analytic::intersectRayCapsule(ray, shape), ray, policy);
            else if constexpr (std::is_same_v<Shape, analytic::Cylinder<btScalar>>)
                return analytic::firstHit(analytic::intersectRayCylinder(ray, shape), ray, policy);
            else {
                const auto crossing = analytic::intersectRayPlane(ray, shape);
                if (crossing && crossing->outcome == analytic::RayPlaneOutcome::Hit) return crossing->hit;
                return std::nullopt;
            }
        },
        primitive);
}

struct ExactHit {
    const btCollisionObject* object = nullptr;
    analytic::SurfaceHit<btScalar> hit{};
};

// The closest exact hit over every object of the world, each converted to its primitive.
ExactHit closestExactHit(const btCollisionWorld& world, const RayPath& ray) {
    ExactHit closest;
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        const auto primitive =
            analytic::toPrimitive(*objects[i]->getCollisionShape(), objects[i]->getWorldTransform());
        if (!primitive) continue;
        const Hit hit = castRay(ray, *primitive);
        if (hit && (!closest.object || hit->t < closest.hit.t)) closest = {objects[i], *hit};
    }
    return closest;
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
                                 // Starts inside the sphere: Bullet reports nothing, the core a hit at the
                                 // origin (StartInside policy).
                                 {{-2, 0.5, 0}, {-2, 0.5, 10}},
                                 // Long and slanted, past the box's top edge.
                                 {{-40, 30, 0.3}, {40, -30.2, 0.3}}};
    for (const auto& ray : rays) {
        btCollisionWorld::ClosestRayResultCallback hit(ray[0], ray[1]);
        demo.world.rayTest(ray[0], ray[1], hit);
        const ExactHit exact = closestExactHit(
            demo.world, analytic::segmentRay(analytic::toGlm(ray[0]), analytic::toGlm(ray[1])));
        std::printf(
            "ray (%g, %g, %g) -> (%g, %g, %g)\n  Bullet's rayTest: %s at fraction %.7f\n"
            "  exact analytic:   %s at fraction %.7f, normal (%.4f, %.4f, %.4f)\n",
            double(ray[0].x()), double(ray[0].y()), double(ray[0].z()), double(ray[1].x()),
            double(ray[1].y()), double(ray[1].z()), shapeName(hit.m_collisionObject),
            double(hit.m_closestHitFraction), shapeName(exact.object), double(exact.hit.t),
            double(exact.hit.normal.x), double(exact.hit.normal.y), double(exact.hit.normal.z));
    }
}
