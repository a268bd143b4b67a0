// SPDX-License-Identifier: Zlib
// What every kernel against a whole concave mesh (btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape,
// btHeightfieldTerrainShape) needs from it: the triangles overlapping a box in the mesh's frame (an
// inline walk of the quantized tree), which side of them is the front, what earlier steps tell about
// the side a body belongs on, and the report of a contact with one triangle as Bullet's per-triangle
// dispatch makes it (part id, triangle index, the btTriangleShape contact callbacks see).
#pragma once

#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btOptimizedBvh.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>
#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>

#include "analytic/plugin.hpp"
#include "narrowphase/kernels.hpp"

namespace analytic::narrowphase {

// Which side of a mesh's triangles is the front (one-sided meshes and sweeps).
struct FrontSide {
    int upAxis;     // a heightfield's, whose front faces up it; -1 for triangle meshes
    bool mirrored;  // a triangle mesh's scaling mirrors it: the front is the clockwise side

    bool isCounterClockwise(const Vec3<Scalar>& areaNormal) const {
        return upAxis >= 0 ? areaNormal[upAxis] >= 0 : !mirrored;
    }
};

inline bool mirrors(const btVector3& scaling) {
    return ((scaling.x() < 0) != (scaling.y() < 0)) != (scaling.z() < 0);
}

inline FrontSide frontSideOf(const btCollisionShape& shape) {
    switch (shape.getShapeType()) {
        case TERRAIN_SHAPE_PROXYTYPE:
            return {static_cast<const btHeightfieldTerrainShape&>(shape).getUpAxis(), false};
        case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE: {
            const auto& scaled = static_cast<const btScaledBvhTriangleMeshShape&>(shape);
            return {-1,
                    mirrors(scaled.getLocalScaling()) != mirrors(scaled.getChildShape()->getLocalScaling())};
        }
        default:
            return {-1, mirrors(shape.getLocalScaling())};
    }
}

inline bool isOneSided(const btCollisionObject& mesh) {
    return (mesh.getCollisionFlags() & oneSidedMeshFlag) != 0;
}

inline Triangle<Scalar> triangleOf(const btVector3* vertices) {
    return {toGlm(vertices[0]), toGlm(vertices[1]), toGlm(vertices[2])};
}

// The triangles of a btBvhTriangleMeshShape's mesh, read as its processAllTriangles reads them (times
// the mesh's scaling, then the extra scaling of a btScaledBvhTriangleMeshShape), but with a subpart
// locked once per run of its triangles instead of once per triangle.
template <class Visit> class BvhTriangles final : public btNodeOverlapCallback {
public:
    BvhTriangles(const btStridingMeshInterface& mesh, const btVector3& extraScaling, Visit& visit)
        : mesh_(mesh), extraScaling_(extraScaling), visit_(visit) {}

    ~BvhTriangles() override {
        if (lockedPart_ >= 0) mesh_.unLockReadOnlyVertexBase(lockedPart_);
    }

    void processNode(int partId, int triangleIndex) override {
        if (partId != lockedPart_) lock(partId);
        const unsigned char* indices = indexBase_ + std::ptrdiff_t(triangleIndex) * indexStride_;
        btVector3 vertices[3];
        for (int j = 0; j < 3; ++j) {
            const unsigned char* vertex = vertexBase_ + std::ptrdiff_t(indexAt(indices, j)) * vertexStride_;
            vertices[j] = coordinatesAt(vertex) * mesh_.getScaling() * extraScaling_;
        }
        visit_(triangleOf(vertices), partId, triangleIndex);
    }

private:
    void lock(int partId) {
        if (lockedPart_ >= 0) mesh_.unLockReadOnlyVertexBase(lockedPart_);
        int vertexCount, triangleCount;
        mesh_.getLockedReadOnlyVertexIndexBase(&vertexBase_, vertexCount, vertexType_, vertexStride_,
                                               &indexBase_, indexStride_, triangleCount, indexType_, partId);
        lockedPart_ = partId;
    }

    unsigned indexAt(const unsigned char* indices, int j) const {
        switch (indexType_) {
            case PHY_SHORT:
                return reinterpret_cast<const unsigned short*>(indices)[j];
            case PHY_UCHAR:
                return indices[j];
            default:
                return reinterpret_cast<const unsigned*>(indices)[j];
        }
    }

    btVector3 coordinatesAt(const unsigned char* vertex) const {
        if (vertexType_ == PHY_FLOAT) {
            const auto* xyz = reinterpret_cast<const float*>(vertex);
            return {btScalar(xyz[0]), btScalar(xyz[1]), btScalar(xyz[2])};
        }
        const auto* xyz = reinterpret_cast<const double*>(vertex);
        return {btScalar(xyz[0]), btScalar(xyz[1]), btScalar(xyz[2])};
    }

    const btStridingMeshInterface& mesh_;
    btVector3 extraScaling_;
    Visit& visit_;
    int lockedPart_ = -1;
    const unsigned char* vertexBase_ = nullptr;
    const unsigned char* indexBase_ = nullptr;
    int vertexStride_ = 0, indexStride_ = 0;
    PHY_ScalarType vertexType_ = PHY_FLOAT, indexType_ = PHY_INTEGER;
};

// The leaves of a quantized tree whose boxes meet the box, as btQuantizedBvh's stackless walk
// (walkStacklessQuantizedTree from the root) finds them, in its order (the same set as its other
// traversal modes): inlined, so the triangles are read without a virtual call per leaf.
// The tree is taken non-const as getQuantizedNodeArray has no const overload; the walk only reads.
template <class Triangles> void walkQuantizedTree(btQuantizedBvh& bvh, const btVector3& boxMin,
                                                  const btVector3& boxMax, Triangles& triangles) {
    unsigned short queryMin[3], queryMax[3];
    bvh.quantizeWithClamp(queryMin, boxMin, 0);
    bvh.quantizeWithClamp(queryMax, boxMax, 1);
    const QuantizedNodeArray& nodes = bvh.getQuantizedNodeArray();
    if (nodes.size() == 0) return;
    const btQuantizedBvhNode* node = &nodes[0];
    // The root's subtree is the whole tree: its escape index is the node count.
    const btQuantizedBvhNode* const end = node + (node->isLeafNode() ? 1 : node->getEscapeIndex());
    while (node < end) {
        const unsigned short *nodeMin = node->m_quantizedAabbMin, *nodeMax = node->m_quantizedAabbMax;
        const bool overlaps = (queryMin[0] <= nodeMax[0]) & (queryMax[0] >= nodeMin[0]) &
                              (queryMin[1] <= nodeMax[1]) & (queryMax[1] >= nodeMin[1]) &
                              (queryMin[2] <= nodeMax[2]) & (queryMax[2] >= nodeMin[2]);
        if (!node->isLeafNode()) {
            // Into a met internal node's subtree, else past it.
            node += overlaps ? 1 : node->getEscapeIndex();
            continue;
        }
        if (overlaps) triangles.processNode(node->getPartId(), node->getTriangleIndex());
        ++node;
    }
}

// Calls visit(triangle, partId, triangleIndex) for the mesh's triangles that may meet the box (in the
// mesh's frame, scaling applied, vertices in Bullet's order): the same triangles, identifiers and
// vertices as the shape's processAllTriangles.
template <class Visit> void forTrianglesNear(const btConcaveShape& mesh, const Vec3<Scalar>& boxMin,
                                             const Vec3<Scalar>& boxMax, Visit visit) {
    const auto walkBvh = [&](const btBvhTriangleMeshShape& bvhMesh, const btVector3& extraScaling,
                             const btVector3& bvhBoxMin, const btVector3& bvhBoxMax) {
        BvhTriangles<Visit> triangles(*bvhMesh.getMeshInterface(), extraScaling, visit);
        // getOptimizedBvh has no const overload; the walks only read.
        btOptimizedBvh& bvh = *const_cast<btBvhTriangleMeshShape&>(bvhMesh).getOptimizedBvh();
        if (bvh.isQuantized())
            walkQuantizedTree(bvh, bvhBoxMin, bvhBoxMax, triangles);
        else
            bvh.reportAabbOverlappingNodex(&triangles, bvhBoxMin, bvhBoxMax);
    };
    switch (mesh.getShapeType()) {
        case TRIANGLE_MESH_SHAPE_PROXYTYPE:
            walkBvh(static_cast<const btBvhTriangleMeshShape&>(mesh), btVector3(1, 1, 1), toBullet(boxMin),
                    toBullet(boxMax));
            return;
        case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE: {
            // The box in the unscaled mesh's frame, its corners swapped along mirrored axes.
            const auto& scaled = static_cast<const btScaledBvhTriangleMeshShape&>(mesh);
            const btVector3& scaling = scaled.getLocalScaling();
            btVector3 unscaledMin, unscaledMax;
            for (int axis = 0; axis < 3; ++axis) {
                const bool mirrored = scaling[axis] < 0;
                unscaledMin[axis] = (mirrored ? boxMax : boxMin)[axis] / scaling[axis];
                unscaledMax[axis] = (mirrored ? boxMin : boxMax)[axis] / scaling[axis];
            }
            walkBvh(*scaled.getChildShape(), scaling, unscaledMin, unscaledMax);
            return;
        }
        default:
            struct Callback final : btTriangleCallback {
                explicit Callback(Visit& visit) : visit(visit) {}
                void processTriangle(btVector3* vertices, int partId, int triangleIndex) override {
                    visit(triangleOf(vertices), partId, triangleIndex);
                }
                Visit& visit;
            } callback(visit);
            mesh.processAllTriangles(&callback, toBullet(boxMin), toBullet(boxMax));
    }
}

// What earlier steps tell about the side of a two-sided mesh's triangle that a body belongs on.
class SideHistory {
public:
    // previousCentre: where the body's centre was at the pair's previous step, in the mesh's frame (null
    // without a previous step).
    SideHistory(const btPersistentManifold& manifold, const btCollisionObject& meshObject,
                const Mat3<Scalar>& meshBasis, const Vec3<Scalar>* previousCentre)
        : previousCentre_(previousCentre) {
        const bool meshIsBody1 = manifold.getBody1() == &meshObject;
        const Mat3<Scalar> toMesh = glm::transpose(meshBasis);
        for (int i = 0; i < manifold.getNumContacts(); ++i) {
            const btManifoldPoint& point = manifold.getContactPoint(i);
            const Vec3<Scalar> normalOnBody1 = toMesh * toGlm(point.m_normalWorldOnB);
            remembered_[count_++] = meshIsBody1 ? Remembered{normalOnBody1, point.m_partId1, point.m_index1}
                                                : Remembered{-normalOnBody1, point.m_partId0, point.m_index0};
        }
    }

    // The side of the contact the manifold holds with this triangle, when its normal leaves the plane
    // at more than 30 degrees (one from an edge, nearer the plane, tells no side); else the side of the
    // centre at the previous step; nothing without either.
    std::optional<bool> inFront(const Triangle<Scalar>& triangle, const Vec3<Scalar>& frontNormal, int partId,
                                int triangleIndex) const {
        if (const auto side = manifoldSide(frontNormal, &partId, &triangleIndex)) return side;
        return previousCentreSide(triangle, frontNormal);
    }

    // The same, but when the manifold holds no contact with this triangle that tells a side, the side
    // of any contact it holds that does (a body touching a mesh at several triangles keeps a few of them
    // in the manifold; their neighbours face about the same way).
    std::optional<bool> inFrontNearby(const Triangle<Scalar>& triangle, const Vec3<Scalar>& frontNormal,
                                      int partId, int triangleIndex) const {
        if (const auto side = manifoldSide(frontNormal, &partId, &triangleIndex)) return side;
        if (const auto side = manifoldSide(frontNormal, nullptr, nullptr)) return side;
        return previousCentreSide(triangle, frontNormal);
    }

private:
    // The side of the first contact with the triangle (any, given null) whose normal leaves its plane at
    // more than 30 degrees.
    std::optional<bool> manifoldSide(const Vec3<Scalar>& frontNormal, const int* partId,
                                     const int* triangleIndex) const {
        for (const Remembered& contact : std::span(remembered_.data(), std::size_t(count_))) {
            if (partId && (contact.partId != *partId || contact.triangleIndex != *triangleIndex)) continue;
            const Scalar alongFront = glm::dot(contact.normal, frontNormal);
            if (2 * std::abs(alongFront) >= glm::length(frontNormal)) return alongFront > 0;
        }
        return std::nullopt;
    }

    std::optional<bool> previousCentreSide(const Triangle<Scalar>& triangle,
                                           const Vec3<Scalar>& frontNormal) const {
        if (previousCentre_) {
            const Scalar previousHeight = glm::dot(*previousCentre_ - triangle.a, frontNormal);
            if (previousHeight != 0) return previousHeight > 0;
        }
        return std::nullopt;
    }

    struct Remembered {
        Vec3<Scalar> normal;  // in the mesh's frame, from the mesh toward the body
        int partId;
        int triangleIndex;
    };
    std::array<Remembered, MANIFOLD_CACHE_SIZE> remembered_;
    int count_ = 0;
    const Vec3<Scalar>* previousCentre_;
};

// A round body's (sphere's, capsule's) contact with one triangle of a mesh, before the internal-edge
// filter (takeExternalContacts).
struct TriangleCandidate {
    Triangle<Scalar> triangle;  // in the mesh's frame, vertices in Bullet's order
    Vec3<Scalar> pointOnMesh;
    Vec3<Scalar> normal;  // unit, from the mesh toward the body
    Scalar distance;      // signed: negative when they overlap
    TriangleFeature feature;
    int partId;
    int triangleIndex;

    static Scalar distanceOf(const TriangleCandidate& candidate) { return candidate.distance; }
};

// The candidate contacts of one step against a mesh, gathered before they are filtered: at most
// Capacity, on the stack; when more are offered, the deepest (least distanceOf) are kept.
template <class Candidate, int Capacity, auto distanceOf> class DeepestCandidates {
public:
    void offer(const Candidate& candidate) {
        if (count_ < Capacity) {
            candidates_[std::size_t(count_++)] = candidate;
            return;
        }
        Candidate& shallowest = *std::max_element(
            candidates_.begin(), candidates_.end(),
            [](const Candidate& x, const Candidate& y) { return distanceOf(x) < distanceOf(y); });
        if (distanceOf(candidate) < distanceOf(shallowest)) shallowest = candidate;
    }

    std::span<Candidate> kept() { return {candidates_.data(), std::size_t(count_)}; }
    std::span<const Candidate> kept() const { return {candidates_.data(), std::size_t(count_)}; }

private:
    std::array<Candidate, Capacity> candidates_;
    int count_ = 0;
};

// Bullet's internal-edge problem, for round bodies (spheres, capsules): a body resting on a face that
// also touches the edge or vertex it shares with a neighbour would be pushed by that edge's normal. The
// candidates (each with its triangle, feature, pointOnMesh, normal from the mesh toward the body and
// signed distance) are taken deepest first, of equal depth a face before an edge before a vertex; a
// candidate at an edge or vertex of a triangle taken before it (both ends of the edge) is internal and
// left out, and so is one whose point on the body (pointOnMesh + distance * normal) lies within
// sameContact of one taken (the manifold would take it for that one, as when two faces meet under the
// body). Calls take(candidate) for the others, in that order, until it returns false. At most Capacity
// candidates.
template <int Capacity, class Candidate, class Take>
void takeExternalContacts(std::span<const Candidate> candidates, Scalar sameContact, Take take) {
    const auto dimension = [](TriangleFeature feature) {
        return feature == TriangleFeature::Face ? 2 : feature <= TriangleFeature::Edge2 ? 1 : 0;
    };
    std::array<int, Capacity> order;
    const auto orderEnd = order.begin() + std::ptrdiff_t(candidates.size());
    std::iota(order.begin(), orderEnd, 0);
    std::sort(order.begin(), orderEnd, [&](int i, int j) {
        const Candidate &x = candidates[std::size_t(i)], &y = candidates[std::size_t(j)];
        if (x.distance != y.distance) return x.distance < y.distance;
        return dimension(x.feature) > dimension(y.feature);
    });
    std::array<Vec3<Scalar>, 3 * Capacity> voided;
    int voidedCount = 0;
    const auto isVoided = [&](const Vec3<Scalar>& vertex) {
        return std::find(voided.begin(), voided.begin() + voidedCount, vertex) !=
               voided.begin() + voidedCount;
    };
    std::array<Vec3<Scalar>, Capacity> takenOnBody;
    int takenCount = 0;
    const auto isTaken = [&](const Vec3<Scalar>& onBody) {
        return std::any_of(takenOnBody.begin(), takenOnBody.begin() + takenCount,
                           [&](const Vec3<Scalar>& other) {
                               const Vec3<Scalar> apart = onBody - other;
                               return glm::dot(apart, apart) < sameContact * sameContact;
                           });
    };
    for (auto next = order.begin(); next != orderEnd; ++next) {
        const Candidate& candidate = candidates[std::size_t(*next)];
        const Vec3<Scalar> vertices[3] = {candidate.triangle.a, candidate.triangle.b, candidate.triangle.c};
        bool internal = false;
        if (candidate.feature >= TriangleFeature::Vertex0) {
            internal = isVoided(vertices[int(candidate.feature) - int(TriangleFeature::Vertex0)]);
        } else if (candidate.feature != TriangleFeature::Face) {
            const int edge = int(candidate.feature) - int(TriangleFeature::Edge0);
            internal = isVoided(vertices[edge]) && isVoided(vertices[(edge + 1) % 3]);
        }
        const Vec3<Scalar> onBody = candidate.pointOnMesh + candidate.distance * candidate.normal;
        if (!internal && !isTaken(onBody)) {
            takenOnBody[std::size_t(takenCount++)] = onBody;
            if (!take(candidate)) return;
        }
        for (const Vec3<Scalar>& vertex : vertices)
            if (!isVoided(vertex)) voided[std::size_t(voidedCount++)] = vertex;
    }
}

// Reports contacts with single triangles of a mesh as Bullet's per-triangle dispatch does: each with
// its part id and triangle index, and contact-added callbacks see the triangle as a btTriangleShape
// (made only when one will be called). Points and normals are given in the mesh's frame.
class TriangleContactReporter {
public:
    TriangleContactReporter(const btCollisionObjectWrapper& other, const btCollisionObjectWrapper& mesh,
                            ContactSink& sink)
        : mesh_(mesh),
          sink_(sink),
          basis_(toGlm(mesh.getWorldTransform().getBasis())),
          origin_(toGlm(mesh.getWorldTransform().getOrigin())),
          withTriangleShapes_(gContactAddedCallback && ((other.getCollisionObject()->getCollisionFlags() |
                                                         mesh.getCollisionObject()->getCollisionFlags()) &
                                                        btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK)) {}

    void add(const Triangle<Scalar>& triangle, int partId, int triangleIndex, const Vec3<Scalar>& normal,
             const Vec3<Scalar>& pointOnMesh, Scalar distance) const {
        std::optional<btTriangleShape> triangleShape;
        if (withTriangleShapes_) {
            triangleShape.emplace(toBullet(triangle.a), toBullet(triangle.b), toBullet(triangle.c));
            triangleShape->setMargin(mesh_.getCollisionShape()->getMargin());
        }
        const btCollisionObjectWrapper piece(
            &mesh_, triangleShape ? &*triangleShape : mesh_.getCollisionShape(), mesh_.getCollisionObject(),
            mesh_.getWorldTransform(), partId, triangleIndex);
        sink_.add(basis_ * normal, basis_ * pointOnMesh + origin_, distance, piece);
    }

private:
    const btCollisionObjectWrapper& mesh_;
    ContactSink& sink_;
    Mat3<Scalar> basis_;
    Vec3<Scalar> origin_;
    bool withTriangleShapes_;
};

}  // namespace analytic::narrowphase
