// SPDX-License-Identifier: Zlib
// Continuous collision in a simulation, in one process: 1,000 small fast spheres (radius 5 cm, 100 to 300
// m/s, CCD threshold 2.5 cm, swept radius 4 cm) in a closed room (20 x 10 x 20 m) walled by one triangle
// mesh, 600 steps at 60 Hz under gravity; Bullet's btDiscreteDynamicsWorld beside analytic::World over it
// (the same bodies, the same order). Milliseconds per step (the thread's CPU time), the spheres that ever
// ended a step with their centre outside the room by more than their radius (passed through a wall:
// tunnelled), and those that ended one straddling a wall (the centre past the wall by less than the radius:
// pushed by the contact solver in a corner, or let in by Bullet's allowed CCD penetration of 4 cm a step),
// for each; the ratio.
//
// Options: --steps=N (600), --bodies=N (1000).
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

#include "analytic/world.hpp"
#include "support/bench_support.hpp"
#include "support/test_support.hpp"

namespace {

using Scalar = btScalar;

double threadSeconds() {
    timespec time{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time);
    return double(time.tv_sec) + 1e-9 * double(time.tv_nsec);
}

btVector3 toBulletVector(const analytic::Vec3<double>& v) {
    return btVector3(Scalar(v.x), Scalar(v.y), Scalar(v.z));
}

constexpr Scalar kHalf[3] = {10, 5, 10};  // the room's half extents

// The room's six walls as one mesh, two triangles each.
class Room {
public:
    Room() {
        const auto corner = [](int i) {
            return btVector3(i & 1 ? kHalf[0] : -kHalf[0], i & 2 ? kHalf[1] : -kHalf[1],
                             i & 4 ? kHalf[2] : -kHalf[2]);
        };
        const int faces[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                                 {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
        for (const auto& face : faces) {
            mesh_.addTriangle(corner(face[0]), corner(face[1]), corner(face[2]));
            mesh_.addTriangle(corner(face[0]), corner(face[2]), corner(face[3]));
        }
        shape_ = std::make_unique<btBvhTriangleMeshShape>(&mesh_, true);
    }
    btCollisionShape& shape() { return *shape_; }

private:
    btTriangleMesh mesh_;
    std::unique_ptr<btBvhTriangleMeshShape> shape_;
};

struct Result {
    double msPerStep;
    int passed;      // centre outside by more than the radius
    int straddling;  // centre outside by less
};

template <class WorldType> Result run(int bodies, int steps) {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    WorldType world(&dispatcher, &broadphase, &solver, &configuration);
    world.setGravity(btVector3(0, Scalar(-9.81), 0));
    Room room;
    btRigidBody walls(btRigidBody::btRigidBodyConstructionInfo(0, nullptr, &room.shape()));
    world.addRigidBody(&walls);
    btSphereShape ball(Scalar(0.05));
    btVector3 inertia;
    ball.calculateLocalInertia(1, inertia);
    std::vector<std::unique_ptr<btRigidBody>> balls;
    analytic::test::Random random(18);
    for (int i = 0; i < bodies; ++i) {
        balls.push_back(std::make_unique<btRigidBody>(
            btRigidBody::btRigidBodyConstructionInfo(1, nullptr, &ball, inertia)));
        btRigidBody& body = *balls.back();
        body.setWorldTransform(
            btTransform(btQuaternion::getIdentity(),
                        btVector3(Scalar(random.uniform(-9, 9)), Scalar(random.uniform(-4, 4)),
                                  Scalar(random.uniform(-9, 9)))));
        body.setLinearVelocity(toBulletVector(random.unitVector<double>() * random.uniform(100, 300)));
        body.setCcdMotionThreshold(Scalar(0.025));
        body.setCcdSweptSphereRadius(Scalar(0.04));
        body.setRestitution(Scalar(0.5));
        body.setActivationState(DISABLE_DEACTIVATION);
        world.addRigidBody(&body);
    }
    std::vector<bool> passed(balls.size(), false), straddling(balls.size(), false);
    const Scalar radius = ball.getRadius();
    const double start = threadSeconds();
    for (int step = 0; step < steps; ++step) {
        world.stepSimulation(Scalar(1) / 60, 0);
        for (std::size_t i = 0; i < balls.size(); ++i) {
            const btVector3& p = balls[i]->getWorldTransform().getOrigin();
            for (int axis = 0; axis < 3; ++axis) {
                passed[i] = passed[i] || !(std::abs(p[axis]) < kHalf[axis] + radius);
                straddling[i] = straddling[i] || !(std::abs(p[axis]) < kHalf[axis]);
            }
        }
    }
    const double seconds = threadSeconds() - start;
    for (auto& body : balls)
        world.removeRigidBody(body.get());
    world.removeRigidBody(&walls);
    return {1e3 * seconds / steps, int(std::count(passed.begin(), passed.end(), true)),
            int(std::count(straddling.begin(), straddling.end(), true))};
}

}  // namespace

int main(int argc, char** argv) {
    int steps = 600, bodies = 1000;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.rfind("--steps=", 0) == 0) {
            steps = analytic::bench::parsePositive(argument.c_str() + 8, "--steps");
        } else if (argument.rfind("--bodies=", 0) == 0) {
            bodies = analytic::bench::parsePositive(argument.c_str() + 9, "--bodies");
        } else {
            std::fprintf(stderr, "usage: %s [--steps=N] [--bodies=N]\n", argv[0]);
            return 2;
        }
    }
    std::printf("CCD: %d spheres at 100-300 m/s in a mesh room, %d steps at 60 Hz; %s, btScalar %zu bytes\n",
                bodies, steps, analytic::bench::instructionSet(), sizeof(Scalar));
    const Result bullet = run<btDiscreteDynamicsWorld>(bodies, steps);
    const Result ours = run<analytic::World<btDiscreteDynamicsWorld>>(bodies, steps);
    std::printf("  %-28s %12s %12s\n", "", "Bullet's CCD", "ours");
    std::printf("  %-28s %12.3f %12.3f\n", "ms per step", bullet.msPerStep, ours.msPerStep);
    std::printf("  %-28s %12d %12d\n", "spheres through a wall", bullet.passed, ours.passed);
    std::printf("  %-28s %12d %12d\n", "spheres straddling a wall", bullet.straddling, ours.straddling);
    std::printf(
        "  step time, ours / Bullet's: %.3f (goal: no slower, 1 or less); through a wall: goal 0, %d\n",
        ours.msPerStep / bullet.msPerStep, ours.passed);
    analytic::bench::recordRatio("CCD", std::to_string(bodies) + " fast spheres in a mesh room",
                                 "ms per step, one run", analytic::bench::Better::Lower, bullet.msPerStep,
                                 ours.msPerStep);
    return 0;
}
