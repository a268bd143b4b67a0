// Grid meshes for the mesh tests: triangle data that outlives the shapes made from it, and the pure
// translation the tests place objects with.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <memory>
#include <vector>

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

private:
    struct Part {
        std::vector<btScalar> vertices;
        std::vector<int> indices;
    };
    std::vector<std::unique_ptr<Part>> parts_;
    btTriangleIndexVertexArray array_;
};

}  // namespace analytic::test
