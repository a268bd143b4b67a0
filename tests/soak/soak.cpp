// SPDX-License-Identifier: Zlib
// The soak (not a test: scripts/soak.sh runs it): bodies of every replaced pair dropped on a plane and on
// a landscape mesh, stepped for a long time with the plugin installed, random impulses, bodies that
// fall off put back on top, and rays (some poisoned with NaN and infinity, some 1e9 long) through
// rayTest and through batches with a cache, mixed in. Every report interval it prints the step, the
// time per step, the resident memory, and what went wrong: a body with a non-finite state, a contact of
// ours with a non-finite value or a normal that is not unit, a ray hit with a fraction outside [0, 1]
// or a non-finite point or normal. Exit status 1 if anything went wrong.
//
// Usage: soak [steps (100000)] [bodies (2000)] [report interval (1000)] [seed (1)]
#include <btBulletDynamicsCommon.h>

#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/plugin.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"
#include "support/our_contacts.hpp"

namespace {

using Scalar = btScalar;

using analytic::test::isFiniteVector;

long residentKilobytes() {
    std::ifstream statm("/proc/self/statm");
    long pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * 4;  // 4 KiB pages
}

struct Counts {
    long nonFiniteBodies = 0;
    long badContacts = 0;
    long badHits = 0;
    long contactsChecked = 0;
    long hitsChecked = 0;
};

}  // namespace

int main(int argc, char** argv) {
    const long steps = argc > 1 ? std::atol(argv[1]) : 100000;
    const int bodyCount = argc > 2 ? std::atoi(argv[2]) : 2000;
    const long interval = argc > 3 ? std::atol(argv[3]) : 1000;
    const unsigned seed = argc > 4 ? unsigned(std::atol(argv[4])) : 1u;
    std::mt19937 random(seed);
    const auto uniform = [&](Scalar low, Scalar high) {
        return std::uniform_real_distribution<Scalar>(low, high)(random);
    };

    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    analytic::DiscreteDynamicsWorld world(&dispatcher, &broadphase, &solver, &configuration);
    world.setGravity(btVector3(0, Scalar(-9.81), 0));
    analytic::Plugin plugin(world);

    // The ground: a plane under x < 0, a rolling landscape mesh of 64 x 64 cells of 1 m over x > 0.
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btMotionState>> motions;
    const auto add = [&](btCollisionShape* shape, const btVector3& at, Scalar mass) -> btRigidBody& {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        motions.push_back(
            std::make_unique<btDefaultMotionState>(btTransform(btQuaternion::getIdentity(), at)));
        bodies.push_back(std::make_unique<btRigidBody>(
            btRigidBody::btRigidBodyConstructionInfo(mass, motions.back().get(), shape, inertia)));
        world.addRigidBody(bodies.back().get());
        return *bodies.back();
    };
    shapes.emplace_back(new btStaticPlaneShape(btVector3(0, 1, 0), -2));
    add(shapes.back().get(), btVector3(0, 0, 0), 0);
    const int cells = 64;
    std::vector<Scalar> vertices;
    std::vector<int> indices;
    for (int k = 0; k <= cells; ++k)
        for (int i = 0; i <= cells; ++i)
            vertices.insert(vertices.end(), {Scalar(i), Scalar(std::sin(i * 0.3) * std::cos(k * 0.25)),
                                             Scalar(k - cells / 2)});
    for (int k = 0; k < cells; ++k)
        for (int i = 0; i < cells; ++i) {
            const int a = k * (cells + 1) + i, b = a + 1, c = a + cells + 1, d = c + 1;
            indices.insert(indices.end(), {a, c, b, b, c, d});
        }
    btTriangleIndexVertexArray meshData(int(indices.size() / 3), indices.data(), int(3 * sizeof(int)),
                                        int(vertices.size() / 3), vertices.data(), int(3 * sizeof(Scalar)));
    shapes.emplace_back(new btBvhTriangleMeshShape(&meshData, true));
    add(shapes.back().get(), btVector3(0, 0, 0), 0);
    const int firstBody = int(bodies.size());

    const auto dropPoint = [&] { return btVector3(uniform(-30, 60), uniform(5, 30), uniform(-30, 30)); };
    for (int n = 0; n < bodyCount; ++n) {
        btCollisionShape* shape;
        switch (n % 6) {
            case 0:
                shape = new btSphereShape(uniform(Scalar(0.2), Scalar(0.6)));
                break;
            case 1:
                shape =
                    new btBoxShape(btVector3(uniform(0.2f, 0.6f), uniform(0.2f, 0.6f), uniform(0.2f, 0.6f)));
                break;
            case 2:
                shape = new btCapsuleShape(uniform(0.15f, 0.4f), uniform(0.2f, 0.8f));
                break;
            case 3:
                shape = new btCapsuleShapeX(uniform(0.15f, 0.4f), uniform(0.2f, 0.8f));
                break;
            case 4:
                shape = new btCapsuleShapeZ(uniform(0.15f, 0.4f), uniform(0.2f, 0.8f));
                break;
            default:
                shape = new analytic::EllipsoidShape(
                    btVector3(uniform(0.2f, 0.6f), uniform(0.2f, 0.6f), uniform(0.2f, 0.6f)));
        }
        shapes.emplace_back(shape);
        add(shape, dropPoint(), 1).setActivationState(DISABLE_DEACTIVATION);
    }

    analytic::BatchCache cache;
    std::vector<analytic::Ray> rays(1000);
    std::vector<analytic::RayHit> hits(rays.size());
    const auto randomEnd = [&]() -> btVector3 {
        const Scalar poison[] = {std::numeric_limits<Scalar>::quiet_NaN(),
                                 std::numeric_limits<Scalar>::infinity(),
                                 -std::numeric_limits<Scalar>::infinity(), Scalar(1e9), Scalar(-1e9)};
        btVector3 end(uniform(-40, 70), uniform(-5, 40), uniform(-40, 40));
        if (random() % 20 == 0) end[int(random() % 3)] = poison[random() % 5];
        return end;
    };
    Counts counts;
    const auto checkHit = [&](const btCollisionObject* object, Scalar fraction, const btVector3& point,
                              const btVector3& normal) {
        ++counts.hitsChecked;
        const bool good = object && std::isfinite(fraction) && fraction >= 0 && fraction <= 1 &&
                          isFiniteVector(point) && isFiniteVector(normal) &&
                          std::abs(normal.length() - 1) < Scalar(1e-3);
        if (!good) ++counts.badHits;
    };

    std::printf("soak: %ld steps, %d bodies, seed %u\n", steps, bodyCount, seed);
    std::printf("%10s %10s %12s %10s %10s %10s\n", "step", "ms/step", "resident KB", "bad bodies",
                "bad contacts", "bad hits");
    auto last = std::chrono::steady_clock::now();
    long firstResident = 0;
    for (long step = 1; step <= steps; ++step) {
        for (int i = 0; i < 10; ++i) {
            btRigidBody& body = *bodies[std::size_t(firstBody + int(random() % unsigned(bodyCount)))];
            body.applyCentralImpulse(btVector3(uniform(-5, 5), uniform(0, 10), uniform(-5, 5)));
        }
        world.stepSimulation(Scalar(1) / 60, 0);
        for (std::size_t b = std::size_t(firstBody); b < bodies.size(); ++b) {
            btRigidBody& body = *bodies[b];
            const btTransform& at = body.getWorldTransform();
            if (!isFiniteVector(at.getOrigin()) || !isFiniteVector(body.getLinearVelocity()) ||
                !isFiniteVector(body.getAngularVelocity())) {
                ++counts.nonFiniteBodies;
            } else if (at.getOrigin().y() > -50) {
                continue;
            }
            // Fell off (or broken): put back on top, at rest.
            body.setWorldTransform(btTransform(btQuaternion::getIdentity(), dropPoint()));
            body.setLinearVelocity(btVector3(0, 0, 0));
            body.setAngularVelocity(btVector3(0, 0, 0));
        }
        if (step % 10 == 0) {
            // Our contacts, every one.
            analytic::test::forEachContactOfOurs(broadphase, [&](const btManifoldPoint& point) {
                ++counts.contactsChecked;
                if (!analytic::test::isWellFormed(point)) ++counts.badContacts;
            });
            for (int r = 0; r < 20; ++r) {
                const btVector3 from = randomEnd(), to = randomEnd();
                btCollisionWorld::ClosestRayResultCallback closest(from, to);
                world.rayTest(from, to, closest);
                if (closest.hasHit())
                    checkHit(closest.m_collisionObject, closest.m_closestHitFraction, closest.m_hitPointWorld,
                             closest.m_hitNormalWorld);
            }
        }
        if (step % 100 == 0) {
            for (analytic::Ray& ray : rays) {
                ray.from = randomEnd();
                ray.to = randomEnd();
            }
            analytic::rayTestBatch(world, rays, hits, {.cache = &cache});
            for (const analytic::RayHit& hit : hits)
                if (hit.object) checkHit(hit.object, hit.fraction, hit.point, hit.normal);
        }
        if (step % interval == 0 || step == steps) {
            const auto now = std::chrono::steady_clock::now();
            const double ms =
                std::chrono::duration<double, std::milli>(now - last).count() / double(interval);
            last = now;
            const long resident = residentKilobytes();
            if (!firstResident) firstResident = resident;
            std::printf("%10ld %10.2f %12ld %10ld %10ld %10ld\n", step, ms, resident, counts.nonFiniteBodies,
                        counts.badContacts, counts.badHits);
            std::fflush(stdout);
        }
    }
    std::printf(
        "checked %ld contacts of ours and %ld ray hits; resident memory %ld KB after the first interval, "
        "%ld KB at the end\n",
        counts.contactsChecked, counts.hitsChecked, firstResident, residentKilobytes());
    for (auto& body : bodies)
        world.removeRigidBody(body.get());
    const bool bad = counts.nonFiniteBodies || counts.badContacts || counts.badHits;
    std::printf("%s\n", bad ? "FAILED" : "passed");
    return bad ? 1 : 0;
}
