// SPDX-License-Identifier: Zlib
// With the plugin installed, a simulation is repeatable: a pile of boxes, spheres and capsules dropped
// on a plane and on a hilly mesh, run twice in one process in fresh worlds, has every body at the same
// place and orientation, bit for bit, after every step.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "analytic/plugin.hpp"
#include "support/grid_mesh.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::GridMesh;

#ifdef NDEBUG
constexpr int kSteps = 600;
#else
constexpr int kSteps = 200;  // sanitizer builds are slow
#endif
constexpr int kBodies = 240;

// FNV-1a over the bytes of every body's origin and basis.
std::uint64_t hashBodies(const std::vector<btRigidBody*>& bodies) {
    std::uint64_t hash = 14695981039346656037ull;
    const auto add = [&](const btScalar* values, int count) {
        unsigned char bytes[sizeof(btScalar)];
        for (int i = 0; i < count; ++i) {
            std::memcpy(bytes, &values[i], sizeof bytes);
            for (const unsigned char byte : bytes)
                hash = (hash ^ byte) * 1099511628211ull;
        }
    };
    for (const btRigidBody* body : bodies) {
        const btTransform& transform = body->getWorldTransform();
        add(transform.getOrigin().m_floats, 3);
        for (int row = 0; row < 3; ++row)
            add(transform.getBasis()[row].m_floats, 3);
    }
    return hash;
}

// The hash of the bodies after each step of one run.
std::vector<std::uint64_t> runPile() {
    GridMesh mesh;
    mesh.addGrid(16, 16, 1, btVector3(0, 0, -8), [](btScalar x, btScalar z) {
        return btScalar(1 + 0.8 * std::sin(0.7 * double(x)) * std::cos(0.5 * double(z)));
    });
    test::BulletWorld world;
    world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)), btVector3(0, 0, 0));
    world.addBody(world.makeShape<btBvhTriangleMeshShape>(&mesh.array(), true), btVector3(0, 0, 0));
    const Plugin plugin(world.world());
    test::Random random(600);
    std::vector<btRigidBody*> bodies;
    for (int i = 0; i < kBodies; ++i) {
        btCollisionShape* shape;
        if (i % 3 == 0)
            shape = &world.makeShape<btBoxShape>(btVector3(btScalar(random.uniform(0.15, 0.4)),
                                                           btScalar(random.uniform(0.15, 0.4)),
                                                           btScalar(random.uniform(0.15, 0.4))));
        else if (i % 3 == 1)
            shape = &world.makeShape<btSphereShape>(btScalar(random.uniform(0.15, 0.4)));
        else
            shape = &world.makeShape<btCapsuleShape>(btScalar(random.uniform(0.1, 0.25)),
                                                     btScalar(random.uniform(0.2, 0.6)));
        // Half over the plane (x < 0), half over the mesh, in layers.
        const int column = i % 60, layer = i / 60;
        const btVector3 position(btScalar(-15 + 1.0 * (column % 30) + random.uniform(-0.1, 0.1)),
                                 btScalar(3 + 1.2 * layer + random.uniform(0, 0.3)),
                                 btScalar(-2 + 2.0 * (column / 30) + random.uniform(-0.1, 0.1)));
        const btQuaternion rotation(btScalar(random.uniform(0, 6)), btScalar(random.uniform(0, 6)),
                                    btScalar(random.uniform(0, 6)));
        bodies.push_back(&world.addBody(*shape, btTransform(rotation, position), 1));
    }
    std::vector<std::uint64_t> hashes;
    for (int step = 0; step < kSteps; ++step) {
        world.step();
        hashes.push_back(hashBodies(bodies));
    }
    return hashes;
}

TEST(Determinism, APileOnAPlaneAndAMeshRunsTheSameTwice) {
    const std::vector<std::uint64_t> first = runPile(), second = runPile();
    ASSERT_EQ(first.size(), second.size());
    int firstDifference = -1;
    for (std::size_t step = 0; step < first.size() && firstDifference < 0; ++step)
        if (first[step] != second[step]) firstDifference = int(step);
    EXPECT_EQ(firstDifference, -1) << "the runs part at step " << firstDifference;
    // The bodies moved: a hash that never changed would compare nothing.
    EXPECT_NE(first.front(), first.back());
}

}  // namespace
}  // namespace analytic
