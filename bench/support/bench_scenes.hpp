// SPDX-License-Identifier: Zlib
// The benchmark scenes of bench-scenes.md (shared with other engines' measurements, so every figure is
// quoted on exactly the same work): scene P (10,000 primitives and a plane), scene M (a terrain mesh),
// their ray lists, and the simulation scenes S1 and S2. Everything is generated in double from one
// random stream in the document's order; values are rounded to btScalar only when Bullet objects are
// built.
#pragma once

#include <btBulletCollisionCommon.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <numbers>
#include <random>
#include <vector>

#include "analytic/geometry/primitives.hpp"

namespace analytic::bench {

using Vec3d = Vec3<double>;

// A unit quaternion, (x, y, z) the vector part.
struct Quaternion {
    double x, y, z, w;
};

constexpr Quaternion kIdentityRotation{0, 0, 0, 1};

// The document's random stream: each uniform number takes exactly one 32-bit draw.
class SceneRandom {
public:
    double unit() { return double(engine_()) / 4294967296.0; }  // in [0, 1)

    double uniform(double low, double high) { return low + (high - low) * unit(); }

    // Shoemake's uniform rotation.
    Quaternion rotation() {
        const double u1 = unit(), u2 = unit(), u3 = unit();
        const double s1 = std::sqrt(1 - u1), s2 = std::sqrt(u1);
        const double a = 2 * std::numbers::pi * u2, b = 2 * std::numbers::pi * u3;
        return {s1 * std::sin(a), s1 * std::cos(a), s2 * std::sin(b), s2 * std::cos(b)};
    }

    Vec3d direction() {
        const double u = unit(), v = unit();
        const double z = 1 - 2 * u, phi = 2 * std::numbers::pi * v;
        const double s = std::sqrt(std::max(0.0, 1 - z * z));
        return {s * std::cos(phi), s * std::sin(phi), z};
    }

private:
    std::mt19937 engine_{42};
};

constexpr int kScenePObjectCount = 10'000;
constexpr int kRayCount = 100'000;  // per scene
constexpr double kRayLength = 200;
constexpr int kSweepCount = 10'000;  // the first rays of each scene's list
constexpr double kSweepLength = 50;
constexpr double kSweepRadius = 0.5;

enum class ObjectShape { Sphere, Box, Capsule };

// A static object of scene P. Fields a shape does not have stay zero (the sphere's rotation: identity).
struct SceneObject {
    ObjectShape shape;
    Vec3d position;
    Quaternion rotation = kIdentityRotation;
    double radius = 0;      // sphere, capsule
    Vec3d halfExtents{0};   // box
    double halfHeight = 0;  // capsule: of the cylinder part, along local Y
};

// A query of length `length` from origin along the unit direction.
struct SceneRay {
    Vec3d origin;
    Vec3d direction;
    double length = kRayLength;

    Vec3d end() const { return origin + length * direction; }
};

enum class BodyShape { Sphere, Box };

struct SimulationBody {
    BodyShape shape;
    Vec3d position;  // before S2's raise
    Quaternion rotation = kIdentityRotation;
};

constexpr int kSimulationSphereCount = 1'000;
constexpr int kSimulationBoxCount = 500;
constexpr double kBodyRadius = 0.5;  // the spheres' radius and the boxes' half extent
constexpr double kBodyMass = 1;
constexpr double kGravity = -9.81;
constexpr double kTimeStep = 1 / 60.;
constexpr int kSimulationSteps = 600;
constexpr double kTerrainStartRaise = 5;  // S2: every start y

struct BenchScenes {
    std::vector<SceneObject> objectsP;
    std::vector<SceneRay> raysP;
    std::vector<SceneRay> raysM;
    std::vector<SimulationBody> bodies;  // the spheres, then the boxes
};

inline BenchScenes generateBenchScenes() {
    SceneRandom random;
    BenchScenes scenes;
    const auto point = [&](double low, double high) {
        const double x = random.uniform(low, high), y = random.uniform(low, high);
        return Vec3d(x, y, random.uniform(low, high));
    };
    for (int i = 0; i < kScenePObjectCount; ++i) {
        SceneObject object{ObjectShape(i % 3), point(-100, 100)};
        switch (object.shape) {
            case ObjectShape::Sphere:
                object.radius = random.uniform(0.5, 2);
                break;
            case ObjectShape::Box:
                object.halfExtents = point(0.5, 2);
                object.rotation = random.rotation();
                break;
            case ObjectShape::Capsule:
                object.radius = random.uniform(0.3, 1);
                object.halfHeight = random.uniform(0.5, 2);
                object.rotation = random.rotation();
                break;
        }
        scenes.objectsP.push_back(object);
    }
    for (int i = 0; i < kRayCount; ++i) {
        const Vec3d origin = point(-100, 100);
        scenes.raysP.push_back({origin, random.direction()});
    }
    for (int i = 0; i < kRayCount; ++i) {
        const double x = random.uniform(-100, 100), y = random.uniform(10, 50);
        const Vec3d origin(x, y, random.uniform(-100, 100));
        Vec3d direction = random.direction();
        if (direction.y > 0) direction.y = -direction.y;
        scenes.raysM.push_back({origin, direction});
    }
    for (int i = 0; i < kSimulationSphereCount + kSimulationBoxCount; ++i) {
        const bool box = i >= kSimulationSphereCount;
        const double x = random.uniform(-20, 20), y = random.uniform(1, 60);
        SimulationBody body{box ? BodyShape::Box : BodyShape::Sphere, Vec3d(x, y, random.uniform(-20, 20))};
        if (box) body.rotation = random.rotation();
        scenes.bodies.push_back(body);
    }
    return scenes;
}

// ------------------------------------------------------------------------------------------------
// Scene M's terrain: a 257 x 257 grid over [-100, 100]^2, two triangles per cell, normals up.

constexpr int kTerrainVerticesPerSide = 257;
constexpr int kTerrainCellsPerSide = kTerrainVerticesPerSide - 1;
constexpr double kTerrainSpacing = 0.78125;
constexpr double kTerrainMin = -100;

inline double terrainHeight(double x, double z) { return 5 * std::sin(0.1 * x) * std::cos(0.1 * z); }

inline Vec3d terrainVertex(int i, int j) {
    const double x = kTerrainMin + kTerrainSpacing * i, z = kTerrainMin + kTerrainSpacing * j;
    return {x, terrainHeight(x, z), z};
}

inline int terrainVertexIndex(int i, int j) { return j * kTerrainVerticesPerSide + i; }

// The vertex indices of triangle number `triangle` (2 (256 j + i) and 2 (256 j + i) + 1 for cell i, j).
inline std::array<int, 3> terrainTriangle(int triangle) {
    const int cell = triangle / 2, i = cell % kTerrainCellsPerSide, j = cell / kTerrainCellsPerSide;
    const int a = terrainVertexIndex(i, j), b = terrainVertexIndex(i + 1, j),
              c = terrainVertexIndex(i, j + 1), d = terrainVertexIndex(i + 1, j + 1);
    return triangle % 2 == 0 ? std::array{a, c, b} : std::array{b, c, d};
}

constexpr int kTerrainTriangleCount = 2 * kTerrainCellsPerSide * kTerrainCellsPerSide;

// ------------------------------------------------------------------------------------------------
// Bullet objects.

inline btVector3 toBulletVector(const Vec3d& v) { return {btScalar(v.x), btScalar(v.y), btScalar(v.z)}; }

inline btTransform toBulletTransform(const Vec3d& position, const Quaternion& rotation) {
    const btQuaternion q(btScalar(rotation.x), btScalar(rotation.y), btScalar(rotation.z),
                         btScalar(rotation.w));
    return btTransform(q, toBulletVector(position));
}

inline std::unique_ptr<btCollisionShape> makeObjectShape(const SceneObject& object) {
    switch (object.shape) {
        case ObjectShape::Sphere:
            return std::make_unique<btSphereShape>(btScalar(object.radius));
        case ObjectShape::Box:
            return std::make_unique<btBoxShape>(toBulletVector(object.halfExtents));
        case ObjectShape::Capsule:
            return std::make_unique<btCapsuleShape>(btScalar(object.radius), btScalar(2 * object.halfHeight));
    }
    return nullptr;
}

// Scene M's terrain as one btBvhTriangleMeshShape (quantized AABB compression on) over its own storage.
class TerrainMesh {
public:
    TerrainMesh() {
        for (int j = 0; j < kTerrainVerticesPerSide; ++j)
            for (int i = 0; i < kTerrainVerticesPerSide; ++i) {
                const Vec3d v = terrainVertex(i, j);
                vertices_.insert(vertices_.end(), {btScalar(v.x), btScalar(v.y), btScalar(v.z)});
            }
        for (int t = 0; t < kTerrainTriangleCount; ++t)
            for (const int index : terrainTriangle(t))
                indices_.push_back(index);
        btIndexedMesh mesh;
        mesh.m_numTriangles = kTerrainTriangleCount;
        mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(indices_.data());
        mesh.m_triangleIndexStride = 3 * sizeof(int);
        mesh.m_numVertices = kTerrainVerticesPerSide * kTerrainVerticesPerSide;
        mesh.m_vertexBase = reinterpret_cast<const unsigned char*>(vertices_.data());
        mesh.m_vertexStride = 3 * sizeof(btScalar);
        mesh.m_indexType = PHY_INTEGER;
        mesh.m_vertexType = sizeof(btScalar) == sizeof(double) ? PHY_DOUBLE : PHY_FLOAT;
        meshInterface_.addIndexedMesh(mesh, PHY_INTEGER);
        shape_ = std::make_unique<btBvhTriangleMeshShape>(&meshInterface_, true);
    }

    TerrainMesh(const TerrainMesh&) = delete;
    TerrainMesh& operator=(const TerrainMesh&) = delete;

    btBvhTriangleMeshShape& shape() { return *shape_; }

private:
    std::vector<btScalar> vertices_;
    std::vector<int> indices_;
    btTriangleIndexVertexArray meshInterface_;
    std::unique_ptr<btBvhTriangleMeshShape> shape_;
};

// A collision world of static objects (scenes P and M, for ray casts): btDbvtBroadphase, default
// filters, AABBs updated once.
template <class World = btCollisionWorld> class StaticScene {
public:
    StaticScene() = default;
    StaticScene(const StaticScene&) = delete;
    StaticScene& operator=(const StaticScene&) = delete;
    ~StaticScene() {
        for (auto& object : objects_)
            world_.removeCollisionObject(object.get());
    }

    World& world() { return world_; }

    void addStatic(std::unique_ptr<btCollisionShape> shape, const btTransform& transform) {
        addStatic(*shape, transform);
        shapes_.push_back(std::move(shape));
    }

    void addStatic(btCollisionShape& shape, const btTransform& transform) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(&shape);
        object->setWorldTransform(transform);
        object->setCollisionFlags(object->getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
        world_.addCollisionObject(object.get());
        objects_.push_back(std::move(object));
    }

private:
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    World world_{&dispatcher_, &broadphase_, &configuration_};
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

// Scene P: the objects in their order, then the plane y = -100.
template <class World = btCollisionWorld>
std::unique_ptr<StaticScene<World>> makeSceneP(const std::vector<SceneObject>& objects) {
    auto scene = std::make_unique<StaticScene<World>>();
    for (const SceneObject& object : objects)
        scene->addStatic(makeObjectShape(object), toBulletTransform(object.position, object.rotation));
    scene->addStatic(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(-100)),
                     btTransform::getIdentity());
    scene->world().updateAabbs();
    return scene;
}

// Scene M: the terrain at its place. The mesh must outlive the scene.
template <class World = btCollisionWorld>
std::unique_ptr<StaticScene<World>> makeSceneM(TerrainMesh& terrain) {
    auto scene = std::make_unique<StaticScene<World>>();
    scene->addStatic(terrain.shape(), btTransform::getIdentity());
    scene->world().updateAabbs();
    return scene;
}

enum class Ground {
    Plane,    // S1: the static plane y = 0
    Terrain,  // S2: scene M's terrain; every start y raised by 5
};

// The simulation scenes S1 and S2 in a World (btDiscreteDynamicsWorld or a subclass with its
// constructor): Bullet's default configuration, dispatcher, btDbvtBroadphase and sequential impulse
// solver; the ground first, then the spheres, then the boxes, all at rest.
template <class World = btDiscreteDynamicsWorld> class SimulationScene {
public:
    SimulationScene(Ground ground, const std::vector<SimulationBody>& bodies) : ground_(ground) {
        world_.setGravity(btVector3(0, btScalar(kGravity), 0));
        btCollisionShape* groundShape = nullptr;
        if (ground == Ground::Plane) {
            plane_ = std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0));
            groundShape = plane_.get();
        } else {
            terrain_ = std::make_unique<TerrainMesh>();
            groundShape = &terrain_->shape();
        }
        addBody(*groundShape, 0, btTransform::getIdentity());
        const double raise = ground == Ground::Terrain ? kTerrainStartRaise : 0;
        for (const SimulationBody& body : bodies) {
            btCollisionShape& shape = body.shape == BodyShape::Sphere
                                          ? static_cast<btCollisionShape&>(sphere_)
                                          : static_cast<btCollisionShape&>(box_);
            const Vec3d start = body.position + Vec3d(0, raise, 0);
            addBody(shape, btScalar(kBodyMass), toBulletTransform(start, body.rotation));
        }
    }

    SimulationScene(const SimulationScene&) = delete;
    SimulationScene& operator=(const SimulationScene&) = delete;

    ~SimulationScene() {
        for (auto it = bodies_.rbegin(); it != bodies_.rend(); ++it)
            world_.removeRigidBody(it->get());
    }

    World& world() { return world_; }
    btCollisionDispatcher& dispatcher() { return dispatcher_; }

    // The moving bodies, in the order of the list they were made from.
    int dynamicBodyCount() const { return int(bodies_.size()) - 1; }
    const btRigidBody& dynamicBody(int index) const { return *bodies_[std::size_t(index) + 1]; }

    // The height of the ground's surface at (x, z): the plane's, or the terrain's smooth surface (its
    // triangles lie within a few millimetres of it).
    double groundHeight(double x, double z) const {
        return ground_ == Ground::Plane ? 0 : terrainHeight(x, z);
    }

private:
    void addBody(btCollisionShape& shape, btScalar mass, const btTransform& transform) {
        btVector3 inertia(0, 0, 0);
        if (mass != 0) shape.calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
        info.m_startWorldTransform = transform;
        bodies_.push_back(std::make_unique<btRigidBody>(info));
        world_.addRigidBody(bodies_.back().get());
    }

    Ground ground_;
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    World world_{&dispatcher_, &broadphase_, &solver_, &configuration_};
    std::unique_ptr<btStaticPlaneShape> plane_;
    std::unique_ptr<TerrainMesh> terrain_;
    btSphereShape sphere_{btScalar(kBodyRadius)};
    btBoxShape box_{btVector3(btScalar(kBodyRadius), btScalar(kBodyRadius), btScalar(kBodyRadius))};
    std::vector<std::unique_ptr<btRigidBody>> bodies_;  // the ground first
};

}  // namespace analytic::bench
