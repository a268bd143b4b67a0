// SPDX-License-Identifier: Zlib
// Grid meshes for the mesh tests: triangle data that outlives the shapes made from it, and the pure
// translation the tests place objects with.
#pragma once

#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "support/bullet_world.hpp"

namespace analytic::test {

inline btTransform translation(btScalar x, btScalar y, btScalar z) {
    return btTransform(btQuaternion::getIdentity(), btVector3(x, y, z));
}

// Triangle data for btBvhTriangleMeshShape, kept alive as long as the shapes made from it. Each part is
// a grid of quadsX x quadsZ square cells: vertex (i, k) at origin + (i cell, height(x, z), k cell);
// cell q = k quadsX + i, with a = (i, k), b = (i + 1, k), c = (i, k + 1), d = (i + 1, k + 1), has the
// triangles 2q = (a, c, b) and 2q + 1 = (b, c, d), whose counter-clockwise side faces +y (scene M's).
class GridMesh {
public:
    template <class Height>
    void addGrid(int quadsX, int quadsZ, btScalar cell, const btVector3& origin, Height height) {
        auto part = std::make_unique<Part>();
        for (int k = 0; k <= quadsZ; ++k) {
            for (int i = 0; i <= quadsX; ++i) {
                const btScalar x = origin.x() + i * cell, z = origin.z() + k * cell;
                part->vertices.insert(part->vertices.end(), {x, origin.y() + height(x, z), z});
            }
        }
        for (int k = 0; k < quadsZ; ++k) {
            for (int i = 0; i < quadsX; ++i) {
                const int a = k * (quadsX + 1) + i, b = a + 1, c = a + quadsX + 1, d = c + 1;
                part->indices.insert(part->indices.end(), {a, c, b, b, c, d});
            }
        }
        btIndexedMesh mesh;
        mesh.m_numTriangles = int(part->indices.size() / 3);
        mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(part->indices.data());
        mesh.m_triangleIndexStride = 3 * sizeof(int);
        mesh.m_numVertices = int(part->vertices.size() / 3);
        mesh.m_vertexBase = reinterpret_cast<const unsigned char*>(part->vertices.data());
        mesh.m_vertexStride = 3 * sizeof(btScalar);
        array_.addIndexedMesh(mesh, PHY_INTEGER);
        parts_.push_back(std::move(part));
    }

    void addFlatGrid(int quadsX, int quadsZ, btScalar cell, const btVector3& origin) {
        addGrid(quadsX, quadsZ, cell, origin, [](btScalar, btScalar) { return btScalar(0); });
    }

    btTriangleIndexVertexArray& array() { return array_; }
    // A part's coordinates (x, y, z per vertex), for changing the mesh in place.
    std::vector<btScalar>& coordinates(std::size_t part) { return parts_[part]->vertices; }

private:
    struct Part {
        std::vector<btScalar> vertices;
        std::vector<int> indices;
    };
    std::vector<std::unique_ptr<Part>> parts_;
    btTriangleIndexVertexArray array_;
};

// A body whose bottom is 0.5 below its centre rests on a heightfield (flat heights 3 in [0, 4], local
// origin at 2, scaled by 2 vertically: surface 2 above its origin at y = 1) and on a scaled mesh (a flat
// grid at y = 0.5 scaled by 3 vertically: surface 1.5 above its origin at 0.25), with Bullet's
// algorithms and ours. restingHeight(ours, ground, groundTransform, start, world) drops it from start
// and returns its centre's height once at rest. Bullet's algorithms are held to bulletTolerance (by
// default the same).
template <class RestingHeight> void expectRestingOnHeightfieldAndScaledMesh(RestingHeight restingHeight,
                                                                            btScalar tolerance,
                                                                            btScalar bulletTolerance = -1) {
    if (bulletTolerance < 0) bulletTolerance = tolerance;
    const std::vector<float> heights(36, 3.f);
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0.5, -2));
    for (const bool ours : {false, true}) {
        SCOPED_TRACE(ours ? "ours" : "Bullet's");
        {
            BulletWorld world;
            auto& terrain = world.makeShape<btHeightfieldTerrainShape>(6, 6, heights.data(), btScalar(0),
                                                                       btScalar(4), 1, false);
            terrain.setLocalScaling(btVector3(0.5, 2, 0.5));
            const btScalar y =
                restingHeight(ours, terrain, translation(0, 1, 0), btVector3(0.1, 3.6, 0.2), world);
            std::printf("[ resting ] %s heightfield: centre %.6f, expected 3.5\n", ours ? "ours" : "Bullet's",
                        double(y));
            EXPECT_NEAR(y, 3.5, ours ? tolerance : bulletTolerance);
        }
        {
            BulletWorld world;
            auto& bvh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
            auto& scaled = world.makeShape<btScaledBvhTriangleMeshShape>(&bvh, btVector3(1.5, 3, 1.5));
            const btScalar y =
                restingHeight(ours, scaled, translation(0, 0.25, 0), btVector3(0.3, 2.35, 0.2), world);
            std::printf("[ resting ] %s scaled mesh: centre %.6f, expected 2.25\n",
                        ours ? "ours" : "Bullet's", double(y));
            EXPECT_NEAR(y, 2.25, ours ? tolerance : bulletTolerance);
        }
    }
}

}  // namespace analytic::test
