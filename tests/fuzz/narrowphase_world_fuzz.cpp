// SPDX-License-Identifier: Zlib
// Fuzz target: a small world stepped with the plugin installed: bodies of every replaced pair (spheres,
// boxes, capsules, ellipsoids) with hostile sizes, scalings, places, rotations and speeds, over a static
// plane, a triangle mesh (scaled or not, with hostile vertices) or a heightfield (hostile scaling).
// Invariants: no crash or undefined behaviour; every contact our algorithms write is finite, with a unit
// normal, at a depth no larger than the bodies' extents and motion allow; where every input was sane,
// every body stays finite.
#include <btBulletDynamicsCommon.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/plugin.hpp"
#include "analytic/world.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_shapes.hpp"
#include "support/our_contacts.hpp"

namespace analytic::fuzz {
namespace {

using Scalar = btScalar;

struct World {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    // Ours, so that the steps run our continuous collision for the bodies that ask for it.
    analytic::World<btDiscreteDynamicsWorld> world{&dispatcher, &broadphase, &solver, &configuration};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    std::vector<std::unique_ptr<btMotionState>> motions;
    std::vector<Scalar> vertices;
    std::vector<int> indices;
    std::unique_ptr<btTriangleIndexVertexArray> meshData;
    std::vector<Scalar> heights;

    ~World() {
        for (auto& body : bodies)
            world.removeRigidBody(body.get());
    }

    btRigidBody& add(btCollisionShape* shape, const btTransform& transform, Scalar mass) {
        shapes.emplace_back(shape);
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        motions.push_back(std::make_unique<btDefaultMotionState>(transform));
        bodies.push_back(std::make_unique<btRigidBody>(
            btRigidBody::btRigidBodyConstructionInfo(mass, motions.back().get(), shape, inertia)));
        world.addRigidBody(bodies.back().get());
        return *bodies.back();
    }
};

Scalar size(Input& in, bool& sane) {
    if (in.below(4) == 0) {
        const Scalar value = in.scalar<Scalar>();
        sane = sane && std::isfinite(value) && value >= Scalar(0.01) && value <= Scalar(100);
        return value;
    }
    return Scalar(0.05) + Scalar(in.byte()) / 64;  // 0.05 to 4
}

btVector3 place(Input& in, bool& sane) {
    if (in.below(8) == 0) {
        const Vec3<Scalar> v = in.vec3<Scalar>();
        sane = sane && finite(v) && magnitude(v) <= Scalar(1e3);
        return {v.x, v.y, v.z};
    }
    return {Scalar(in.below(64) - 32) / 8, Scalar(in.below(64)) / 16, Scalar(in.below(64) - 32) / 8};
}

btTransform transform(Input& in, bool& sane) {
    const btVector3 origin = place(in, sane);
    const Mat3<Scalar> rotation = in.rotation<Scalar>();
    sane = sane && isOrthonormal(rotation);
    btMatrix3x3 basis;
    for (int row = 0; row < 3; ++row)
        basis[row] = btVector3(rotation[0][row], rotation[1][row], rotation[2][row]);
    return btTransform(basis, origin);
}

btCollisionShape* body(Input& in, bool& sane, Scalar& extent) {
    switch (in.below(6)) {
        case 0: {
            const Scalar r = size(in, sane);
            extent = std::abs(r);
            return new btSphereShape(r);
        }
        case 1: {
            const btVector3 half(size(in, sane), size(in, sane), size(in, sane));
            extent = half.length();
            return new btBoxShape(half);
        }
        case 2:
        case 3:
        case 4: {
            const Scalar r = size(in, sane), h = size(in, sane);
            extent = std::abs(r) + std::abs(h);
            const int axis = in.below(3);
            if (axis == 0) return new btCapsuleShapeX(r, h);
            if (axis == 1) return new btCapsuleShape(r, h);
            return new btCapsuleShapeZ(r, h);
        }
        default: {
            const btVector3 radii(size(in, sane), size(in, sane), size(in, sane));
            extent = radii.length();
            return ellipsoidOrStandIn(radii);
        }
    }
}

void addGround(Input& in, World& w, bool& sane) {
    switch (in.below(3)) {
        case 0: {
            Vec3<Scalar> normal(0, 1, 0);
            if (in.below(4) == 0) {
                normal = in.vec3<Scalar>();
                sane = sane && isUnit(normal);
            }
            const Scalar constant = in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(0);
            sane = sane && std::isfinite(constant) && std::abs(constant) < 1e3;
            w.add(new btStaticPlaneShape(btVector3(normal.x, normal.y, normal.z), constant),
                  btTransform::getIdentity(), 0);
            break;
        }
        case 1: {
            const int n = 4;  // 4 x 4 quads, gently rolling, some vertices hostile
            for (int k = 0; k <= n; ++k)
                for (int i = 0; i <= n; ++i) {
                    Scalar height = Scalar(in.below(8)) / 8;
                    if (in.below(32) == 0) {
                        height = in.scalar<Scalar>();
                        sane = sane && std::isfinite(height) && std::abs(height) < 1e3;
                    }
                    w.vertices.insert(w.vertices.end(),
                                      {Scalar(i - n / 2) * 2, height, Scalar(k - n / 2) * 2});
                }
            for (int k = 0; k < n; ++k)
                for (int i = 0; i < n; ++i) {
                    const int a = k * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
                    w.indices.insert(w.indices.end(), {a, c, b, b, c, d});
                }
            w.meshData = std::make_unique<btTriangleIndexVertexArray>(
                int(w.indices.size() / 3), w.indices.data(), int(3 * sizeof(int)), int(w.vertices.size() / 3),
                w.vertices.data(), int(3 * sizeof(Scalar)));
            auto* mesh = new btBvhTriangleMeshShape(w.meshData.get(), true);
            if (in.flag()) {
                const Vec3<Scalar> scaling = in.below(2) ? in.vec3<Scalar>() : Vec3<Scalar>(1, 1, 1);
                sane = sane && finite(scaling) &&
                       glm::all(glm::greaterThan(glm::abs(scaling), Vec3<Scalar>(0.01))) &&
                       magnitude(scaling) < 100;
                w.shapes.emplace_back(mesh);
                auto& object =
                    w.add(new btScaledBvhTriangleMeshShape(mesh, btVector3(scaling.x, scaling.y, scaling.z)),
                          btTransform::getIdentity(), 0);
                if (in.flag()) object.setCollisionFlags(object.getCollisionFlags() | oneSidedMeshFlag);
            } else {
                auto& object = w.add(mesh, btTransform::getIdentity(), 0);
                if (in.flag()) object.setCollisionFlags(object.getCollisionFlags() | oneSidedMeshFlag);
            }
            break;
        }
        default: {
            const int n = 5;
            w.heights.resize(std::size_t(n * n));
            for (Scalar& h : w.heights)
                h = Scalar(in.below(8)) / 8;
            auto* terrain = new btHeightfieldTerrainShape(n, n, w.heights.data(), Scalar(1), Scalar(0),
                                                          Scalar(1), 1, PHY_FLOAT, false);
            const Vec3<Scalar> scaling = in.below(3) == 0 ? in.vec3<Scalar>() : Vec3<Scalar>(2, 1, 2);
            sane = sane && finite(scaling) &&
                   glm::all(glm::greaterThan(glm::abs(scaling), Vec3<Scalar>(0.01))) &&
                   magnitude(scaling) < 100;
            terrain->setLocalScaling(btVector3(scaling.x, scaling.y, scaling.z));
            w.add(terrain, btTransform::getIdentity(), 0);
            break;
        }
    }
}

void run(Input& in) {
    World w;
    bool sane = true;
    addGround(in, w, sane);
    const int count = 1 + in.below(6);
    Scalar largestExtent = 0, fastest = 0;
    for (int i = 0; i < count; ++i) {
        Scalar extent = 0;
        btCollisionShape* shape = body(in, sane, extent);
        if (in.below(8) == 0) {
            const Vec3<Scalar> scaling = in.vec3<Scalar>();
            sane = sane && finite(scaling) && glm::all(glm::greaterThan(scaling, Vec3<Scalar>(0.1))) &&
                   magnitude(scaling) < 10;
            shape->setLocalScaling(btVector3(scaling.x, scaling.y, scaling.z));
            extent *= std::max(Scalar(1), Scalar(magnitude(scaling)));
        }
        const btTransform at = transform(in, sane);
        btRigidBody& body = w.add(shape, at, in.below(6) == 0 ? Scalar(0) : Scalar(1));
        btVector3 velocity(0, Scalar(in.below(16)) - 8, 0);
        if (in.below(8) == 0) {
            const Vec3<Scalar> v = in.vec3<Scalar>();
            sane = sane && finite(v) && magnitude(v) < 1e3;
            velocity = btVector3(v.x, v.y, v.z);
        }
        body.setLinearVelocity(velocity);
        // Continuous collision for some bodies, with hostile thresholds and swept radii among them.
        if (in.below(3) == 0) {
            body.setCcdMotionThreshold(in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.below(8)) / 64);
            body.setCcdSweptSphereRadius(in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.below(8)) / 32);
        }
        largestExtent = std::max(largestExtent, extent);
        fastest = std::max(fastest, Scalar(std::abs(velocity.length())));
    }
    const int steps = 1 + in.below(8);
    for (int step = 0; step < steps; ++step) {
        w.world.stepSimulation(Scalar(1) / 60, 0);
        test::forEachContactOfOurs(w.broadphase, [&](const btManifoldPoint& point) {
            FUZZ_CHECK(test::isWellFormed(point));
            // No deeper than a body is across, plus what it moved in the steps so far.
            if (sane)
                FUZZ_CHECK(point.getDistance() >=
                           -(2 * largestExtent + (fastest + 10) * Scalar(step + 1) / 60 + Scalar(0.1)));
        });
        if (sane)
            for (const auto& body : w.bodies) {
                FUZZ_CHECK(test::isFiniteVector(body->getWorldTransform().getOrigin()));
                FUZZ_CHECK(test::isFiniteVector(body->getLinearVelocity()));
            }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_ONE_SCALAR(analytic::fuzz::run)
