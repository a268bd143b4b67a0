#include "narrowphase/sphere_mesh.hpp"

#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btOptimizedBvh.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "analytic/plugin.hpp"

namespace analytic::narrowphase {
namespace {

// Which side of a mesh's triangles is the front (one-sided meshes and sweeps).
struct FrontSide {
    int upAxis;     // a heightfield's, whose front faces up it; -1 for triangle meshes
    bool mirrored;  // a triangle mesh's scaling mirrors it: the front is the clockwise side

    bool isCounterClockwise(const Vec3<Scalar>& areaNormal) const {
        return upAxis >= 0 ? areaNormal[upAxis] >= 0 : !mirrored;
    }
};

bool mirrors(const btVector3& scaling) {
    return ((scaling.x() < 0) != (scaling.y() < 0)) != (scaling.z() < 0);
}

FrontSide frontSideOf(const btCollisionShape& shape) {
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

bool isOneSided(const btCollisionObject& mesh) { return (mesh.getCollisionFlags() & oneSidedMeshFlag) != 0; }

Triangle<Scalar> triangleOf(const btVector3* vertices) {
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

struct Candidate {
    Triangle<Scalar> triangle;  // in the mesh's frame, vertices in Bullet's order
    Vec3<Scalar> pointOnMesh;
    Vec3<Scalar> normal;  // unit, from the mesh toward the sphere
    Scalar distance;      // signed: negative when they overlap
    TriangleFeature feature;
    int partId;
    int triangleIndex;
};

int dimension(TriangleFeature feature) {
    return feature == TriangleFeature::Face ? 2 : feature <= TriangleFeature::Edge2 ? 1 : 0;
}

// What earlier steps tell about the side of a two-sided mesh's triangle that a sphere belongs on.
class SideHistory {
public:
    SideHistory(const btPersistentManifold& manifold, const btCollisionObject& meshObject,
                const Mat3<Scalar>& meshBasis, const SphereMesh::State& state)
        : previousCentre_(state.hasPrevious ? &state.previousCentre : nullptr) {
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
        for (const Remembered& contact : std::span(remembered_.data(), std::size_t(count_))) {
            if (contact.partId != partId || contact.triangleIndex != triangleIndex) continue;
            const Scalar alongFront = glm::dot(contact.normal, frontNormal);
            if (2 * std::abs(alongFront) >= glm::length(frontNormal)) return alongFront > 0;
        }
        if (previousCentre_) {
            const Scalar previousHeight = glm::dot(*previousCentre_ - triangle.a, frontNormal);
            if (previousHeight != 0) return previousHeight > 0;
        }
        return std::nullopt;
    }

private:
    struct Remembered {
        Vec3<Scalar> normal;  // in the mesh's frame, from the mesh toward the sphere
        int partId;
        int triangleIndex;
    };
    std::array<Remembered, MANIFOLD_CACHE_SIZE> remembered_;
    int count_ = 0;
    const Vec3<Scalar>* previousCentre_;
};

// The triangles touching the sphere (grown by the manifold's reach), as contacts with the sides
// settled; at most candidateCapacity, the deepest. One-sided meshes have no side history.
class Candidates {
public:
    Candidates(const Sphere<Scalar>& sphere, Scalar reach, FrontSide front, const SideHistory* twoSided)
        : grown_{sphere.center, sphere.radius + reach},
          radius_(sphere.radius),
          reach_(reach),
          front_(front),
          twoSided_(twoSided) {}

    void consider(const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
        const std::optional<TriangleContact<Scalar>> touch = sphereTriangleContact(grown_, triangle);
        if (!touch) return;
        Candidate candidate{triangle,
                            touch->contact.pointOnB,
                            touch->contact.normal,
                            reach_ - touch->contact.depth,
                            touch->feature,
                            partId,
                            triangleIndex};
        const Vec3<Scalar> areaNormal = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
        const Vec3<Scalar> frontNormal = front_.isCounterClockwise(areaNormal) ? areaNormal : -areaNormal;
        const bool centreInFront = glm::dot(candidate.normal, frontNormal) >= 0;
        if (candidate.feature == TriangleFeature::Face) {
            const bool outFront =
                twoSided_
                    ? twoSided_->inFront(triangle, frontNormal, partId, triangleIndex).value_or(centreInFront)
                    : true;
            if (outFront != centreInFront) {
                // Out through the plane on the other side than the centre's: past it by the radius.
                const Scalar heightBehind = candidate.distance + radius_;
                if (heightBehind > radius_) return;  // the whole sphere is behind
                candidate.normal = -candidate.normal;
                candidate.distance = -heightBehind - radius_;
            }
        } else if (!twoSided_ && !centreInFront) {
            return;
        }
        keep(candidate);
    }

    std::span<const Candidate> kept() const { return {candidates_.data(), std::size_t(count_)}; }

private:
    void keep(const Candidate& candidate) {
        if (count_ < SphereMesh::candidateCapacity) {
            candidates_[count_++] = candidate;
            return;
        }
        Candidate& shallowest =
            *std::max_element(candidates_.begin(), candidates_.end(),
                              [](const Candidate& x, const Candidate& y) { return x.distance < y.distance; });
        if (candidate.distance < shallowest.distance) shallowest = candidate;
    }

    Sphere<Scalar> grown_;
    Scalar radius_;
    Scalar reach_;
    FrontSide front_;
    const SideHistory* twoSided_;
    std::array<Candidate, SphereMesh::candidateCapacity> candidates_;
    int count_ = 0;
};

// The internal-edge filter (see sphere_mesh.hpp): calls report(candidate) for at most reportedCapacity
// candidates, deepest first. A candidate whose point on the sphere is within sameContact of one
// reported is left out: the manifold would take it for that one (as two triangles' faces meeting at
// the point the centre projects to report it twice).
template <class Report>
void reportWithoutInternalEdges(std::span<const Candidate> candidates, Scalar sameContact, Report report) {
    std::array<int, SphereMesh::candidateCapacity> order;
    const auto orderEnd = order.begin() + candidates.size();
    std::iota(order.begin(), orderEnd, 0);
    std::sort(order.begin(), orderEnd, [&](int i, int j) {
        const Candidate &x = candidates[i], &y = candidates[j];
        if (x.distance != y.distance) return x.distance < y.distance;
        return dimension(x.feature) > dimension(y.feature);
    });
    std::array<Vec3<Scalar>, 3 * SphereMesh::candidateCapacity> voided;
    int voidedCount = 0;
    const auto isVoided = [&](const Vec3<Scalar>& vertex) {
        return std::find(voided.begin(), voided.begin() + voidedCount, vertex) !=
               voided.begin() + voidedCount;
    };
    std::array<Vec3<Scalar>, SphereMesh::reportedCapacity> reportedOnSphere;
    int reported = 0;
    const auto isReported = [&](const Vec3<Scalar>& onSphere) {
        return std::any_of(reportedOnSphere.begin(), reportedOnSphere.begin() + reported,
                           [&](const Vec3<Scalar>& other) {
                               const Vec3<Scalar> apart = onSphere - other;
                               return glm::dot(apart, apart) < sameContact * sameContact;
                           });
    };
    for (auto next = order.begin(); next != orderEnd && reported < SphereMesh::reportedCapacity; ++next) {
        const Candidate& candidate = candidates[*next];
        const Vec3<Scalar> vertices[3] = {candidate.triangle.a, candidate.triangle.b, candidate.triangle.c};
        bool internal = false;
        if (candidate.feature >= TriangleFeature::Vertex0) {
            internal = isVoided(vertices[int(candidate.feature) - int(TriangleFeature::Vertex0)]);
        } else if (candidate.feature != TriangleFeature::Face) {
            const int edge = int(candidate.feature) - int(TriangleFeature::Edge0);
            internal = isVoided(vertices[edge]) && isVoided(vertices[(edge + 1) % 3]);
        }
        const Vec3<Scalar> onSphere = candidate.pointOnMesh + candidate.distance * candidate.normal;
        if (!internal && !isReported(onSphere)) {
            report(candidate);
            reportedOnSphere[reported++] = onSphere;
        }
        for (const Vec3<Scalar>& vertex : vertices)
            if (!isVoided(vertex)) voided[voidedCount++] = vertex;
    }
}

// Bullet shows contact-added callbacks each triangle as a btTriangleShape; it is made only when one
// will be called.
bool callbacksSeeTriangles(const btCollisionObject& a, const btCollisionObject& b) {
    return gContactAddedCallback &&
           ((a.getCollisionFlags() | b.getCollisionFlags()) & btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
}

}  // namespace

void SphereMesh::collide(const btCollisionObjectWrapper& sphere, const btCollisionObjectWrapper& mesh,
                         ContactSink& sink, State& state) {
    const auto& meshShape = shapeOf<btConcaveShape>(mesh);
    const btTransform& meshTransform = mesh.getWorldTransform();
    const Sphere<Scalar> local{toGlm(meshTransform.invXform(sphere.getWorldTransform().getOrigin())),
                               shapeOf<btSphereShape>(sphere).getRadius()};
    const Mat3<Scalar> basis = toGlm(meshTransform.getBasis());
    const SideHistory history(sink.manifold(), *mesh.getCollisionObject(), basis, state);
    Candidates candidates(local, sink.reach(), frontSideOf(meshShape),
                          isOneSided(*mesh.getCollisionObject()) ? nullptr : &history);
    const Vec3<Scalar> extent(local.radius + sink.reach());
    forTrianglesNear(meshShape, local.center - extent, local.center + extent,
                     [&](const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
                         candidates.consider(triangle, partId, triangleIndex);
                     });
    state = {local.center, true};

    const Vec3<Scalar> origin = toGlm(meshTransform.getOrigin());
    const bool withTriangleShapes =
        callbacksSeeTriangles(*sphere.getCollisionObject(), *mesh.getCollisionObject());
    reportWithoutInternalEdges(
        candidates.kept(), sink.manifold().getContactBreakingThreshold(), [&](const Candidate& candidate) {
            std::optional<btTriangleShape> triangleShape;
            if (withTriangleShapes) {
                const Triangle<Scalar>& triangle = candidate.triangle;
                triangleShape.emplace(toBullet(triangle.a), toBullet(triangle.b), toBullet(triangle.c));
                triangleShape->setMargin(meshShape.getMargin());
            }
            const btCollisionObjectWrapper piece(
                &mesh, triangleShape ? &*triangleShape : mesh.getCollisionShape(), mesh.getCollisionObject(),
                meshTransform, candidate.partId, candidate.triangleIndex);
            sink.add(basis * candidate.normal, basis * candidate.pointOnMesh + origin, candidate.distance,
                     piece);
        });
}

Scalar SphereMesh::timeOfImpact(const btCollisionObject& sphere, const btCollisionObject& mesh) {
    return sphereTimeOfImpact(
        sphere, mesh, [](const Ray<Scalar>& path, Scalar radius, const btCollisionObject& meshObject) {
            const auto& meshShape = shapeOf<btConcaveShape>(meshObject);
            const btTransform& meshTransform = meshObject.getWorldTransform();
            const Ray<Scalar> local{toGlm(meshTransform.invXform(toBullet(path.origin))),
                                    toGlm(toBullet(path.direction) * meshTransform.getBasis()), path.maxT};
            const FrontSide front = frontSideOf(meshShape);
            const FaceCulling culling = isOneSided(meshObject) ? FaceCulling::BackFaces : FaceCulling::None;
            const Vec3<Scalar> end = local.at(local.maxT);
            std::optional<SphereSweepHit<Scalar>> earliest;
            forTrianglesNear(meshShape, glm::min(local.origin, end) - radius,
                             glm::max(local.origin, end) + radius, [&](Triangle<Scalar> triangle, int, int) {
                                 // The sweep's front is the counter-clockwise side.
                                 if (!front.isCounterClockwise(
                                         glm::cross(triangle.b - triangle.a, triangle.c - triangle.a)))
                                     std::swap(triangle.b, triangle.c);
                                 const auto hit = sweepSphereTriangle(local, radius, triangle, culling);
                                 if (hit && (!earliest || hit->t < earliest->t)) earliest = hit;
                             });
            return earliest;
        });
}

}  // namespace analytic::narrowphase
