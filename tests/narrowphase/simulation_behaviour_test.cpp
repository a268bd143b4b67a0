// SPDX-License-Identifier: Zlib
// How bodies behave in a real world with the plugin, beside the same world with Bullet's own algorithms:
// a sphere dropped on a plane comes to rest without jitter and sinks no deeper; a box dropped flat gets
// its 4 corners at once; a stack of 10 boxes stands; spheres rest on boxes, spheres and triangles.
// Bodies never sleep here, so a jitter or a creep cannot hide behind deactivation.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>
#include <vector>

#include "analytic/plugin.hpp"
#include "support/bullet_world.hpp"

namespace analytic {
namespace {

using test::BulletWorld;

constexpr int kStepsPerSecond = 60;

// A world with the plugin installed, or Bullet's own.
struct SimulationWorld : BulletWorld {
    explicit SimulationWorld(bool analytic) {
        if (analytic) plugin = std::make_unique<Plugin>(world());
    }

    btRigidBody& addAwake(btCollisionShape& shape, const btVector3& position, btScalar mass) {
        btRigidBody& body = addBody(shape, position, mass);
        body.setActivationState(DISABLE_DEACTIVATION);
        return body;
    }

    std::unique_ptr<Plugin> plugin;
};

const char* worldName(bool analytic) { return analytic ? "analytic" : "Bullet"; }

// Mean and variance of a series.
struct Spread {
    double mean = 0;
    double variance = 0;
};

Spread spreadOf(const std::vector<double>& values) {
    Spread spread;
    for (const double value : values)
        spread.mean += value / double(values.size());
    for (const double value : values)
        spread.variance += (value - spread.mean) * (value - spread.mean) / double(values.size());
    return spread;
}

// ---------------------------------------------------------------------------------------------------
// A sphere of radius 0.5 dropped from 1.5 m onto the plane y = 0, watched for 3 s.

struct SphereDrop {
    double deepestPenetration = 0;    // over the whole run
    double restingPenetration = 0;    // deepest over the last second
    Spread height;                    // of the centre over the last second
    Spread verticalVelocity;          // over the last second
    double largestVerticalSpeed = 0;  // over the last second
};

SphereDrop dropSphereOnPlane(bool analytic) {
    SimulationWorld world(analytic);
    world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)), btVector3(0, 0, 0));
    const double radius = 0.5;
    btRigidBody& sphere =
        world.addAwake(world.makeShape<btSphereShape>(btScalar(radius)), btVector3(0, 2, 0), 1);
    SphereDrop drop;
    std::vector<double> heights, velocities;
    for (int step = 0; step < 3 * kStepsPerSecond; ++step) {
        world.step();
        const double height = sphere.getWorldTransform().getOrigin().y();
        const double penetration = radius - height;
        drop.deepestPenetration = std::max(drop.deepestPenetration, penetration);
        if (step >= 2 * kStepsPerSecond) {
            drop.restingPenetration = std::max(drop.restingPenetration, penetration);
            heights.push_back(height);
            velocities.push_back(sphere.getLinearVelocity().y());
            drop.largestVerticalSpeed = std::max(drop.largestVerticalSpeed, std::abs(velocities.back()));
        }
    }
    drop.height = spreadOf(heights);
    drop.verticalVelocity = spreadOf(velocities);
    return drop;
}

TEST(SimulationBehaviour, SphereOnPlaneComesToRestWithoutJitterNoDeeperThanBullets) {
    SphereDrop drops[2];
    for (const bool analytic : {true, false}) {
        const SphereDrop& drop = drops[analytic] = dropSphereOnPlane(analytic);
        std::printf(
            "sphere on plane, %s: deepest penetration %.3g m, resting %.3g m; last second: height sd %.3g m, "
            "vertical speed max %.3g m/s, sd %.3g m/s\n",
            worldName(analytic), drop.deepestPenetration, drop.restingPenetration,
            std::sqrt(drop.height.variance), drop.largestVerticalSpeed,
            std::sqrt(drop.verticalVelocity.variance));
    }
    const SphereDrop& ours = drops[true];
    const SphereDrop& bullets = drops[false];
    // At rest: the centre still to a micrometre, speeds below 1 mm/s.
    EXPECT_LT(std::sqrt(ours.height.variance), 1e-6);
    EXPECT_LT(ours.largestVerticalSpeed, 1e-3);
    EXPECT_LT(std::sqrt(ours.verticalVelocity.variance), 1e-3);
    // No deeper than Bullet's (to within a micrometre: the same solver pushes out the same overlap).
    EXPECT_LE(ours.restingPenetration, bullets.restingPenetration + 1e-6);
    EXPECT_LE(ours.deepestPenetration, bullets.deepestPenetration + 1e-6);
    EXPECT_LT(ours.restingPenetration, 0.01);
}

// ---------------------------------------------------------------------------------------------------
// A unit cube dropped flat from 0.5 m above the plane y = 0.

TEST(SimulationBehaviour, BoxDroppedFlatHasFourPointsAfterItsFirstTouchingStep) {
    for (const bool analytic : {true, false}) {
        SCOPED_TRACE(worldName(analytic));
        SimulationWorld world(analytic);
        btRigidBody& plane = world.addBody(
            world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)), btVector3(0, 0, 0));
        btRigidBody& box =
            world.addAwake(world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5)), btVector3(0, 1, 0), 1);
        int step = 0;
        while (world.contacts(box, plane).empty() && step < 2 * kStepsPerSecond) {
            world.step();
            ++step;
        }
        const std::size_t firstPoints = world.contacts(box, plane).size();
        world.step(2 * kStepsPerSecond);
        const std::size_t restingPoints = world.contacts(box, plane).size();
        std::printf(
            "box dropped flat, %s: %zu contact points after its first touching step (step %d), %zu "
            "after 2 s more\n",
            worldName(analytic), firstPoints, step, restingPoints);
        if (analytic) {
            EXPECT_EQ(firstPoints, 4u);
            EXPECT_EQ(restingPoints, 4u);
        } else {
            EXPECT_LT(firstPoints, 4u);  // Bullet collects the corners over several steps
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Five stacks of 10 unit cubes (1 kg each) standing on the plane y = 0, for 10 s. The solver is set up
// for stacking, the same in both worlds: Bullet's defaults (10 iterations, one friction direction,
// 60 Hz) let such stacks creep even on a static box ground (measured here: the top boxes slide 0.5 m
// in 10 s, and still 3 to 9 cm with 50 iterations), so here 50 iterations, two friction directions
// in a randomised order, split impulse and warm starting, and two substeps of 1/120 s per 60 Hz frame.

void setUpForStacking(btContactSolverInfo& info) {
    info.m_numIterations = 50;
    info.m_solverMode |= SOLVER_USE_WARMSTARTING | SOLVER_USE_2_FRICTION_DIRECTIONS | SOLVER_RANDMIZE_ORDER;
    info.m_splitImpulse = 1;
}

// How far the top box of each stack has moved from where it started, after 10 s.
std::vector<double> stackTopDisplacements(bool analytic) {
    SimulationWorld world(analytic);
    setUpForStacking(world.solverInfo());
    world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)), btVector3(0, 0, 0));
    btBoxShape& cube = world.makeShape<btBoxShape>(btVector3(0.5, 0.5, 0.5));
    std::vector<btRigidBody*> tops;
    std::vector<btVector3> starts;
    for (int stack = 0; stack < 5; ++stack) {
        for (int level = 0; level < 10; ++level) {
            const btVector3 position(btScalar(4 * stack - 8), btScalar(0.5 + level), btScalar(1.5 * stack));
            btRigidBody& box = world.addAwake(cube, position, 1);
            if (level == 9) tops.push_back(&box);
        }
        starts.push_back(tops.back()->getWorldTransform().getOrigin());
    }
    for (int frame = 0; frame < 10 * kStepsPerSecond; ++frame)
        world.world().stepSimulation(BulletWorld::timeStep, 2, BulletWorld::timeStep / 2);
    std::vector<double> displacements;
    for (std::size_t stack = 0; stack < tops.size(); ++stack)
        displacements.push_back((tops[stack]->getWorldTransform().getOrigin() - starts[stack]).length());
    return displacements;
}

TEST(SimulationBehaviour, StacksOfTenBoxesStandForTenSeconds) {
    const std::vector<double> ours = stackTopDisplacements(true), bullets = stackTopDisplacements(false);
    const double oursWorst = *std::max_element(ours.begin(), ours.end());
    const double bulletsWorst = *std::max_element(bullets.begin(), bullets.end());
    std::printf("5 stacks of 10 boxes, farthest a top box moved in 10 s: analytic %.3g m, Bullet %.3g m\n",
                oursWorst, bulletsWorst);
    EXPECT_LT(oursWorst, 0.01);
    EXPECT_LE(oursWorst, bulletsWorst);
}

// ---------------------------------------------------------------------------------------------------
// Spheres of radius 0.5 dropped onto a static box, sphere and triangle whose tops are at y = 0, and a
// capsule lying down on the plane: each comes to rest on top, still, at the height its shapes predict.

struct Rest {
    double height;
    double largestSpeed;  // over the last second
};

// Drops body (already in world) and watches it for 3 s.
Rest settle(SimulationWorld& world, btRigidBody& body) {
    Rest rest{0, 0};
    for (int step = 0; step < 3 * kStepsPerSecond; ++step) {
        world.step();
        if (step >= 2 * kStepsPerSecond)
            rest.largestSpeed = std::max(rest.largestSpeed, double(body.getLinearVelocity().length()));
    }
    rest.height = body.getWorldTransform().getOrigin().y();
    return rest;
}

void expectRestsAt(const Rest& rest, double height) {
    EXPECT_NEAR(rest.height, height, 0.005);
    EXPECT_LE(rest.height, height + 1e-4);  // resting on it, not floating above
    EXPECT_LT(rest.largestSpeed, 1e-3);
}

// A sphere of radius 0.5 dropped from dropPoint onto a static Ground made from groundArguments and
// placed at groundPosition: where it comes to rest.
template <class Ground, class... Arguments>
Rest dropSphereOnto(const char* groundName, const btVector3& groundPosition, const btVector3& dropPoint,
                    Arguments&&... groundArguments) {
    SimulationWorld world(true);
    world.addBody(world.makeShape<Ground>(std::forward<Arguments>(groundArguments)...), groundPosition);
    btRigidBody& sphere = world.addAwake(world.makeShape<btSphereShape>(btScalar(0.5)), dropPoint, 1);
    const Rest rest = settle(world, sphere);
    std::printf("sphere on %s: rests at %.6g (touching: 0.5), speed %.3g m/s\n", groundName, rest.height,
                rest.largestSpeed);
    return rest;
}

TEST(SimulationBehaviour, SphereRestsOnBox) {
    expectRestsAt(dropSphereOnto<btBoxShape>("box", btVector3(0, -0.5, 0), btVector3(0.3, 1.5, -0.2),
                                             btVector3(2, 0.5, 2)),
                  0.5);
}

TEST(SimulationBehaviour, SphereRestsOnSphere) {
    expectRestsAt(
        dropSphereOnto<btSphereShape>("sphere", btVector3(0, -1, 0), btVector3(0, 1.5, 0), btScalar(1)), 0.5);
}

TEST(SimulationBehaviour, SphereRestsOnTriangle) {
    expectRestsAt(
        dropSphereOnto<btTriangleShape>("triangle", btVector3(0, 0, 0), btVector3(0, 1.5, 0),
                                        btVector3(-5, 0, -5), btVector3(-5, 0, 5), btVector3(5, 0, 0)),
        0.5);
}

TEST(SimulationBehaviour, SphereRollsOffASphereOntoThePlane) {
    SimulationWorld world(true);
    world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)), btVector3(0, 0, 0));
    world.addBody(world.makeShape<btSphereShape>(btScalar(1)), btVector3(0, 1, 0));
    btRigidBody& sphere =
        world.addAwake(world.makeShape<btSphereShape>(btScalar(0.5)), btVector3(0.2, 3, 0), 1);
    sphere.setDamping(0, btScalar(0.5));  // rolling stops on the plane
    world.step(6 * kStepsPerSecond);
    const btVector3 position = sphere.getWorldTransform().getOrigin();
    std::printf("sphere rolled off a sphere: at (%.3g, %.6g, %.3g)\n", position.x(), position.y(),
                position.z());
    EXPECT_NEAR(position.y(), 0.5, 0.005);
    EXPECT_GT(std::hypot(position.x(), position.z()), 1.0);
}

TEST(SimulationBehaviour, CapsuleLiesOnPlaneOnBothEnds) {
    SimulationWorld world(true);
    btRigidBody& plane = world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)),
                                       btVector3(0, 0, 0));
    btRigidBody& capsule =
        world.addAwake(world.makeShape<btCapsuleShapeX>(btScalar(0.25), btScalar(1)), btVector3(0, 1, 0), 1);
    const Rest rest = settle(world, capsule);
    std::printf("capsule lying on plane: rests at %.6g (touching: 0.25), speed %.3g m/s, %zu points\n",
                rest.height, rest.largestSpeed, world.contacts(capsule, plane).size());
    expectRestsAt(rest, 0.25);
    EXPECT_EQ(world.contacts(capsule, plane).size(), 2u);
}

}  // namespace
}  // namespace analytic
