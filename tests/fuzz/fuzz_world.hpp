// SPDX-License-Identifier: Zlib
// The small hostile worlds the world fuzz targets cast at: every shape the casts know (sphere, box, capsule,
// cylinder, cone, hull, plane, compound, triangle mesh, scaled mesh, heightfield, ellipsoid, Bullet's
// triangle and multi-sphere), with hostile sizes, scalings, transforms and vertices.
#pragma once

#include <btBulletCollisionCommon.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <vector>

#include "fuzz_checks.hpp"
#include "fuzz_shapes.hpp"

namespace analytic::fuzz {

using Scalar = btScalar;

inline bool finiteVector(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}
inline btVector3 bullet(const Vec3<Scalar>& v) { return {v.x, v.y, v.z}; }

struct Scene {
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher{&configuration};
    btDbvtBroadphase broadphase;
    btCollisionWorld world{&dispatcher, &broadphase, &configuration};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btCollisionObject>> objects;
    std::vector<std::unique_ptr<btTriangleIndexVertexArray>> meshData;
    std::vector<std::vector<Scalar>> floats;
    std::vector<std::vector<int>> ints;
    // Sane solids whose surface a hit can be checked on.
    struct Checked {
        const btCollisionObject* object;
        int kind;  // 0 sphere, 1 box
        Scalar radius;
        btVector3 half;
    };
    std::vector<Checked> checked;

    ~Scene() {
        for (auto& object : objects)
            world.removeCollisionObject(object.get());
    }

    template <class Shape> Shape* keep(Shape* shape) {
        shapes.emplace_back(shape);
        return shape;
    }
};

inline Scalar size(Input& in, bool& sane) {
    if (in.below(4) == 0) {
        const Scalar value = in.scalar<Scalar>();
        sane = sane && std::isfinite(value) && value >= Scalar(1e-3) && value <= Scalar(1e3);
        return value;
    }
    return Scalar(0.05) + Scalar(in.byte()) / 64;
}

inline Vec3<Scalar> vector(Input& in, bool& sane, Scalar range) {
    if (in.below(6) == 0) {
        const Vec3<Scalar> v = in.vec3<Scalar>();
        sane = sane && finite(v) && magnitude(v) <= 1e4;
        return v;
    }
    return {Scalar(in.below(65) - 32) * range / 32, Scalar(in.below(65) - 32) * range / 32,
            Scalar(in.below(65) - 32) * range / 32};
}

inline btTriangleIndexVertexArray* gridMesh(Input& in, Scene& scene) {
    const int n = 1 + in.below(4);
    auto& vertices = scene.floats.emplace_back();
    auto& indices = scene.ints.emplace_back();
    for (int k = 0; k <= n; ++k)
        for (int i = 0; i <= n; ++i) {
            Scalar height = Scalar(in.below(8)) / 8;
            if (in.below(16) == 0) height = in.scalar<Scalar>();
            vertices.insert(vertices.end(), {Scalar(i - n / 2), height, Scalar(k - n / 2)});
        }
    for (int k = 0; k < n; ++k)
        for (int i = 0; i < n; ++i) {
            const int a = k * (n + 1) + i, b = a + 1, c = a + n + 1, d = c + 1;
            // Sometimes a degenerate triangle (a repeated corner).
            indices.insert(indices.end(), {a, c, in.below(16) == 0 ? a : b, b, c, d});
        }
    scene.meshData.push_back(std::make_unique<btTriangleIndexVertexArray>(
        int(indices.size() / 3), indices.data(), int(3 * sizeof(int)), int(vertices.size() / 3),
        vertices.data(), int(3 * sizeof(Scalar))));
    return scene.meshData.back().get();
}

inline btCollisionShape* shape(Input& in, Scene& scene, bool& sane, int& kind) {
    kind = in.below(14);
    switch (kind) {
        case 0:
            return scene.keep(new btSphereShape(size(in, sane)));
        case 1:
            return scene.keep(
                new btBoxShape(bullet(Vec3<Scalar>(size(in, sane), size(in, sane), size(in, sane)))));
        case 2:
            return scene.keep(new btCapsuleShape(size(in, sane), size(in, sane)));
        case 3:
            return scene.keep(
                new btCylinderShapeZ(bullet(Vec3<Scalar>(size(in, sane), size(in, sane), size(in, sane)))));
        case 4:
            return scene.keep(new btConeShapeX(size(in, sane), size(in, sane)));
        case 5: {
            auto* hull = scene.keep(new btConvexHullShape());
            const int points = 1 + in.below(8);
            bool finitePoints = true;
            for (int i = 0; i < points; ++i) {
                const auto point = vector(in, sane, 2);
                finitePoints = finitePoints && finite(point);
                hull->addPoint(bullet(point), false);
            }
            hull->recalcLocalAabb();
            // Bullet's own hull computer (which the user calls, not the plugin) crashes on points that
            // are not finite: asked only for finite ones.
            if (in.below(4) && finitePoints) hull->initializePolyhedralFeatures();
            return hull;
        }
        case 6: {
            Vec3<Scalar> normal(0, 1, 0);
            if (in.flag()) normal = vector(in, sane, 1);
            return scene.keep(
                new btStaticPlaneShape(bullet(normal), in.flag() ? in.scalar<Scalar>() : Scalar(0)));
        }
        case 7: {
            auto* compound = scene.keep(new btCompoundShape(in.flag()));
            const int children = 1 + in.below(3);
            for (int i = 0; i < children; ++i) {
                btTransform at(btQuaternion::getIdentity(), bullet(vector(in, sane, 2)));
                compound->addChildShape(
                    at, in.flag()
                            ? static_cast<btCollisionShape*>(scene.keep(new btSphereShape(size(in, sane))))
                            : scene.keep(
                                  new btBoxShape(btVector3(size(in, sane), size(in, sane), size(in, sane)))));
            }
            return compound;
        }
        case 8:
        case 9: {
            auto* mesh = scene.keep(new btBvhTriangleMeshShape(gridMesh(in, scene), true));
            if (kind == 8) return mesh;
            return scene.keep(new btScaledBvhTriangleMeshShape(mesh, bullet(vector(in, sane, 2))));
        }
        case 10: {
            const int n = 2 + in.below(4);
            auto& heights = scene.floats.emplace_back(std::size_t(n * n));
            for (Scalar& h : heights)
                h = Scalar(in.below(8)) / 8;
            auto* terrain = scene.keep(new btHeightfieldTerrainShape(
                n, n, heights.data(), Scalar(1), Scalar(0), Scalar(1), in.below(3), PHY_FLOAT, in.flag()));
            if (in.flag()) terrain->setLocalScaling(bullet(vector(in, sane, 4)));
            return terrain;
        }
        case 11:
            return scene.keep(
                ellipsoidOrStandIn(bullet(Vec3<Scalar>(size(in, sane), size(in, sane), size(in, sane)))));
        case 12:
            return scene.keep(new btTriangleShape(bullet(vector(in, sane, 2)), bullet(vector(in, sane, 2)),
                                                  bullet(vector(in, sane, 2))));
        default: {
            const btVector3 centres[2] = {bullet(vector(in, sane, 1)), bullet(vector(in, sane, 1))};
            const Scalar radii[2] = {size(in, sane), size(in, sane)};
            return scene.keep(new btMultiSphereShape(centres, radii, 2));
        }
    }
}

// Fills the scene's world with one to six objects of hostile shapes and placements.
inline void buildWorld(Input& in, Scene& scene) {
    const int count = 1 + in.below(6);
    for (int i = 0; i < count; ++i) {
        bool sane = true;
        int kind = 0;
        btCollisionShape* made = shape(in, scene, sane, kind);
        if (in.below(8) == 0 && kind != 6) made->setLocalScaling(bullet(vector(in, sane, 2)));
        const Mat3<Scalar> rotation = in.rotation<Scalar>();
        sane = sane && isOrthonormal(rotation);
        btMatrix3x3 basis;
        for (int row = 0; row < 3; ++row)
            basis[row] = btVector3(rotation[0][row], rotation[1][row], rotation[2][row]);
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(made);
        object->setWorldTransform(btTransform(basis, bullet(vector(in, sane, 8))));
        scene.world.addCollisionObject(object.get());
        if (sane && kind == 0)
            scene.checked.push_back({object.get(), 0, static_cast<btSphereShape*>(made)->getRadius(), {}});
        if (sane && kind == 1)
            scene.checked.push_back(
                {object.get(), 1, 0, static_cast<btBoxShape*>(made)->getHalfExtentsWithMargin()});
        scene.objects.push_back(std::move(object));
    }
    scene.world.updateAabbs();
}

}  // namespace analytic::fuzz
