// SPDX-License-Identifier: Zlib
// Scripted levels for the character controller's tests, fuzz target and benchmark: a dynamics world with
// boxes, planes, triangle meshes and heightfields placed in level coordinates (y up), turned into the
// world by the level's frame, so that one scenario runs under any up axis; and characters in it.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "analytic/character_controller.hpp"
#include "analytic/world.hpp"

namespace analytic::test {

class CharacterLevel {
public:
    // frame: from level coordinates (y up) to the world's.
    explicit CharacterLevel(const btTransform& frame = btTransform::getIdentity())
        : frame_(frame),
          dispatcher_(&configuration_),
          world_(&dispatcher_, &broadphase_, &solver_, &configuration_) {
        world_.setGravity(toWorldVector(btVector3(0, -9.81f, 0)));
    }
    ~CharacterLevel() {
        for (auto& character : characters_)
            world_.removeAction(character.get());
        for (int i = world_.getNumCollisionObjects() - 1; i >= 0; --i)
            world_.removeCollisionObject(world_.getCollisionObjectArray()[i]);
    }

    World<btDiscreteDynamicsWorld>& world() { return world_; }
    const btTransform& frame() const { return frame_; }
    btVector3 up() const { return frame_.getBasis() * btVector3(0, 1, 0); }
    btVector3 toWorld(const btVector3& p) const { return frame_(p); }
    btVector3 toWorldVector(const btVector3& v) const { return frame_.getBasis() * v; }
    btVector3 toLevel(const btVector3& p) const { return frame_.invXform(p); }
    btTransform place(const btTransform& local) const { return frame_ * local; }

    // A box (static for mass 0, kinematic when kinematic, else dynamic), placed in level coordinates.
    btRigidBody& addBox(const btVector3& halfExtents, const btTransform& local, btScalar mass = 0,
                        bool kinematic = false) {
        return addBody(std::make_unique<btBoxShape>(halfExtents), local, mass, kinematic);
    }
    btRigidBody& addBox(const btVector3& halfExtents, const btVector3& center) {
        return addBox(halfExtents, btTransform(btQuaternion::getIdentity(), center));
    }
    // A box tilted by `degrees` about the level's z axis, its top face through `topCenter`.
    btRigidBody& addRamp(btScalar degrees, const btVector3& topCenter, const btVector3& halfExtents) {
        const btQuaternion tilt(btVector3(0, 0, 1), btRadians(degrees));
        const btVector3 normal = quatRotate(tilt, btVector3(0, 1, 0));
        return addBox(halfExtents, btTransform(tilt, topCenter - normal * halfExtents.y()));
    }
    btCollisionObject& addPlane(const btVector3& normal, btScalar constant) {
        return addStatic(std::make_unique<btStaticPlaneShape>(normal, constant), btTransform::getIdentity());
    }
    // A static triangle mesh from level-coordinate triangles (a BVH mesh, placed at the frame).
    btCollisionObject& addMesh(const std::vector<btVector3>& triangleCorners) {
        auto data = std::make_unique<MeshData>();
        for (const btVector3& corner : triangleCorners) {
            data->indices.push_back(int(data->vertices.size() / 3));
            data->vertices.insert(data->vertices.end(), {corner.x(), corner.y(), corner.z()});
        }
        btIndexedMesh mesh;
        mesh.m_numTriangles = int(data->indices.size() / 3);
        mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(data->indices.data());
        mesh.m_triangleIndexStride = 3 * sizeof(int);
        mesh.m_numVertices = int(data->vertices.size() / 3);
        mesh.m_vertexBase = reinterpret_cast<const unsigned char*>(data->vertices.data());
        mesh.m_vertexStride = 3 * sizeof(btScalar);
        mesh.m_vertexType = sizeof(btScalar) == sizeof(double) ? PHY_DOUBLE : PHY_FLOAT;
        data->array.addIndexedMesh(mesh, PHY_INTEGER);
        auto shape = std::make_unique<btBvhTriangleMeshShape>(&data->array, true);
        meshes_.push_back(std::move(data));
        return addStatic(std::move(shape), btTransform::getIdentity());
    }
    // A quad split into two triangles (corners in order around it).
    static void addQuad(std::vector<btVector3>& corners, const btVector3& a, const btVector3& b,
                        const btVector3& c, const btVector3& d) {
        corners.insert(corners.end(), {a, b, c, a, c, d});
    }
    // The triangles of a terrain of cells x cells squares of side `cell` centred at `center`, its heights
    // height(x, z) at the grid's corners (level coordinates): 2 cells^2 triangles, facing up.
    static std::vector<btVector3> terrainTriangles(
        int cells, btScalar cell, const btVector3& center,
        const std::function<btScalar(btScalar, btScalar)>& height) {
        std::vector<btVector3> corners;
        corners.reserve(std::size_t(6) * std::size_t(cells) * std::size_t(cells));
        const btScalar start = -btScalar(cells) * cell / 2;
        auto corner = [&](int i, int k) {
            const btScalar x = center.x() + start + btScalar(i) * cell;
            const btScalar z = center.z() + start + btScalar(k) * cell;
            return btVector3(x, center.y() + height(x, z), z);
        };
        for (int k = 0; k < cells; ++k)
            for (int i = 0; i < cells; ++i)
                addQuad(corners, corner(i, k), corner(i, k + 1), corner(i + 1, k + 1), corner(i + 1, k));
        return corners;
    }
    // A heightfield of (cells + 1)^2 heights, cell size `cell`, its grid centred at `center`.
    btCollisionObject& addHeightfield(int cells, btScalar cell, const btVector3& center,
                                      const std::function<btScalar(int, int)>& height) {
        auto data = std::make_unique<std::vector<btScalar>>();
        btScalar low = 1e30f, high = -1e30f;
        for (int k = 0; k <= cells; ++k)
            for (int i = 0; i <= cells; ++i) {
                const btScalar h = height(i, k);
                data->push_back(h);
                low = std::min(low, h);
                high = std::max(high, h);
            }
        if (high - low < 1) high = low + 1;
        auto shape = std::make_unique<btHeightfieldTerrainShape>(cells + 1, cells + 1, data->data(), low,
                                                                 high, 1, false);
        shape->setLocalScaling(btVector3(cell, 1, cell));
        heights_.push_back(std::move(data));
        // Bullet centres the grid's height range on the origin.
        return addStatic(std::move(shape), btTransform(btQuaternion::getIdentity(),
                                                       center + btVector3(0, (low + high) / 2, 0)));
    }

    // Any static shape, placed in level coordinates.
    btCollisionObject& addShape(std::unique_ptr<btCollisionShape> shape, const btTransform& local) {
        return addStatic(std::move(shape), local);
    }

    // A character (sphere or capsule) with its bottom at `feet` (level coordinates), up the level's up.
    CharacterController& addCharacter(std::unique_ptr<btConvexShape> shape, const btVector3& center,
                                      btScalar stepHeight = btScalar(0.35), bool inWorld = true) {
        auto ghost = std::make_unique<btCollisionObject>();
        ghost->setWorldTransform(btTransform(btQuaternion::getIdentity(), toWorld(center)));
        ghost->setCollisionShape(shape.get());
        ghost->setCollisionFlags(ghost->getCollisionFlags() | btCollisionObject::CF_NO_CONTACT_RESPONSE);
        if (inWorld)
            world_.addCollisionObject(ghost.get(), btBroadphaseProxy::CharacterFilter,
                                      btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
        auto character = std::make_unique<CharacterController>(ghost.get(), shape.get(), stepHeight, up());
        character->setGravity(toWorldVector(btVector3(0, -9.81f, 0)));
        world_.addAction(character.get());
        shapes_.push_back(std::move(shape));
        objects_.push_back(std::move(ghost));
        characters_.push_back(std::move(character));
        return *characters_.back();
    }
    CharacterController& addSphereCharacter(btScalar radius, const btVector3& center,
                                            btScalar stepHeight = btScalar(0.35)) {
        return addCharacter(std::make_unique<btSphereShape>(radius), center, stepHeight);
    }

    // The character's centre in level coordinates.
    btVector3 at(const CharacterController& character) const {
        return toLevel(
            const_cast<CharacterController&>(character).getGhostObject()->getWorldTransform().getOrigin());
    }

    // One step of the world (the characters added as actions are updated in it).
    void step(btScalar dt) { world_.stepSimulation(dt, 0, dt); }

private:
    struct MeshData {
        std::vector<btScalar> vertices;
        std::vector<int> indices;
        btTriangleIndexVertexArray array;
    };

    btRigidBody& addBody(std::unique_ptr<btCollisionShape> shape, const btTransform& local, btScalar mass,
                         bool kinematic) {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, shape.get(), inertia);
        info.m_startWorldTransform = place(local);
        auto body = std::make_unique<btRigidBody>(info);
        if (kinematic) {
            body->setCollisionFlags(body->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
            body->setActivationState(DISABLE_DEACTIVATION);
        }
        world_.addRigidBody(body.get());
        btRigidBody& result = *body;
        shapes_.push_back(std::move(shape));
        objects_.push_back(std::move(body));
        return result;
    }
    btCollisionObject& addStatic(std::unique_ptr<btCollisionShape> shape, const btTransform& local) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(shape.get());
        object->setWorldTransform(place(local));
        world_.addCollisionObject(object.get(), btBroadphaseProxy::StaticFilter,
                                  btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
        shapes_.push_back(std::move(shape));
        btCollisionObject& result = *object;
        objects_.push_back(std::move(object));
        return result;
    }

    btTransform frame_;
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_;
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    World<btDiscreteDynamicsWorld> world_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
    std::vector<std::unique_ptr<MeshData>> meshes_;
    std::vector<std::unique_ptr<std::vector<btScalar>>> heights_;

public:
    std::vector<std::unique_ptr<CharacterController>> characters_;
};

}  // namespace analytic::test
