// SPDX-License-Identifier: Zlib
// The contacts of a body with a mesh as the mesh sees them (point on the mesh, normal toward the body,
// the triangle they name): from contactPairTest, or what a world's manifolds kept after a step.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <vector>

namespace analytic::test {

// A contact seen from the mesh: the point on the mesh, the normal toward the other body, the signed
// distance, the triangle's identifiers and the shape callbacks see on the mesh's side.
struct MeshContact {
    btVector3 pointOnMesh;
    btVector3 normal;
    btScalar distance;
    int partId;
    int triangleIndex;
    const btCollisionShape* meshSideShape;
};

inline MeshContact seenFromMesh(const btManifoldPoint& point, bool meshIsBody0,
                                const btCollisionShape* shape) {
    if (meshIsBody0)
        return {point.getPositionWorldOnA(),
                -point.m_normalWorldOnB,
                point.getDistance(),
                point.m_partId0,
                point.m_index0,
                shape};
    return {point.getPositionWorldOnB(),
            point.m_normalWorldOnB,
            point.getDistance(),
            point.m_partId1,
            point.m_index1,
            shape};
}

struct MeshContactsCallback final : btCollisionWorld::ContactResultCallback {
    explicit MeshContactsCallback(const btCollisionObject& mesh) : mesh(mesh) {}
    btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* wrapper0, int, int,
                             const btCollisionObjectWrapper* wrapper1, int, int) override {
        const bool meshIsBody0 = wrapper0->getCollisionObject() == &mesh;
        contacts.push_back(
            seenFromMesh(point, meshIsBody0, (meshIsBody0 ? wrapper0 : wrapper1)->getCollisionShape()));
        return 0;
    }
    const btCollisionObject& mesh;
    std::vector<MeshContact> contacts;
};

// contactPairTest (a fresh algorithm from the closest-points table, every contact reported), with the
// body or the mesh first.
inline std::vector<MeshContact> pairContacts(btCollisionWorld& world, btCollisionObject& body,
                                             btCollisionObject& mesh, bool bodyFirst = true) {
    MeshContactsCallback callback(mesh);
    if (bodyFirst)
        world.contactPairTest(&body, &mesh, callback);
    else
        world.contactPairTest(&mesh, &body, callback);
    return callback.contacts;
}

// The contact points the world kept for the pair after its last step, seen from the mesh.
inline std::vector<MeshContact> worldContacts(btCollisionDispatcher& dispatcher,
                                              const btCollisionObject& body, const btCollisionObject& mesh) {
    std::vector<MeshContact> found;
    for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
        const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(i);
        const bool meshIsBody0 = manifold.getBody0() == &mesh;
        if (manifold.getBody0() != &body && manifold.getBody1() != &body) continue;
        if (!meshIsBody0 && manifold.getBody1() != &mesh) continue;
        for (int j = 0; j < manifold.getNumContacts(); ++j)
            found.push_back(seenFromMesh(manifold.getContactPoint(j), meshIsBody0, nullptr));
    }
    return found;
}

}  // namespace analytic::test
