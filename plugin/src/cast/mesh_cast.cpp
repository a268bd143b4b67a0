// SPDX-License-Identifier: Zlib
#include "cast/mesh_cast.hpp"

#include <BulletCollision/CollisionShapes/btBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btOptimizedBvh.h>
#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>

#include <algorithm>
#include <optional>
#include <type_traits>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/capsule_query.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/mesh_tree.hpp"
#include "cast/ray_query.hpp"
#include "cast/sphere_query.hpp"
#include "cast/triangle_reporter.hpp"
#include "narrowphase/mesh_triangles.hpp"

namespace analytic::cast {
namespace {

// btQuantizedBvh keeps its quantization, its kind and its node arrays protected. Pointers to those
// members, formed in a class derived from it, read them in any tree (nothing of this class is made).
struct BvhMembers : btQuantizedBvh {
    static constexpr btVector3 btQuantizedBvh::*aabbMin = &BvhMembers::m_bvhAabbMin;
    static constexpr btVector3 btQuantizedBvh::*quantization = &BvhMembers::m_bvhQuantization;
    static constexpr bool btQuantizedBvh::*isQuantized = &BvhMembers::m_useQuantization;
    static constexpr NodeArray btQuantizedBvh::*nodes = &BvhMembers::m_contiguousNodes;
    static constexpr QuantizedNodeArray btQuantizedBvh::*quantizedNodes =
        &BvhMembers::m_quantizedContiguousNodes;
};

// The trees of btQuantizedBvh in their stackless layout: the nodes in depth-first order, each internal
// node followed by its first child, its second child after the first child's subtree.

// The quantized tree (16-byte nodes), walked in its quantized coordinates ((p - aabbMin) quantization,
// the same map for the ray), where the boxes are their integer bounds, grown by `growth` (in the mesh's
// frame: a sweep's radius there).
class QuantizedTree {
public:
    // Bullet rounds the bounds in btScalar before truncating them: one unit more covers that.
    QuantizedTree(const btQuantizedBvh& bvh, const RayPath<Scalar>& meshRay, const Vec3<Scalar>& growth)
        : nodes_(bvh.*BvhMembers::quantizedNodes), ray_(quantized(bvh, meshRay)) {
        const Vec3<Scalar> quantizedGrowth = growth * glm::abs(toGlm(bvh.*BvhMembers::quantization));
        padding_ =
            1 + roundingPadding(ray_, Scalar(65535) + maxAbsComponent(quantizedGrowth)) + quantizedGrowth;
    }

    const RayPath<Scalar>& ray() const { return ray_; }
    int size() const { return nodes_.size(); }
    bool isLeaf(int index) const { return nodes_[index].isLeafNode(); }
    int subtreeSize(int index) const { return isLeaf(index) ? 1 : nodes_[index].getEscapeIndex(); }
    int partId(int index) const { return nodes_[index].getPartId(); }
    int triangleIndex(int index) const { return nodes_[index].getTriangleIndex(); }

    Aabb<Scalar> box(int index) const {
        const unsigned short* low = nodes_[index].m_quantizedAabbMin;
        const unsigned short* high = nodes_[index].m_quantizedAabbMax;
        return {Vec3<Scalar>(Scalar(low[0]), Scalar(low[1]), Scalar(low[2])) - padding_,
                Vec3<Scalar>(Scalar(high[0]), Scalar(high[1]), Scalar(high[2])) + padding_};
    }

private:
    static RayPath<Scalar> quantized(const btQuantizedBvh& bvh, const RayPath<Scalar>& meshRay) {
        const Vec3<Scalar> quantization = toGlm(bvh.*BvhMembers::quantization);
        return {(meshRay.origin - toGlm(bvh.*BvhMembers::aabbMin)) * quantization,
                meshRay.direction * quantization, meshRay.maxT};
    }

    const QuantizedNodeArray& nodes_;
    RayPath<Scalar> ray_;
    Vec3<Scalar> padding_;
};

// The tree without quantization (64-byte nodes, boxes in the mesh's frame, grown by `growth`).
class PlainTree {
public:
    PlainTree(const btQuantizedBvh& bvh, const RayPath<Scalar>& meshRay, const Vec3<Scalar>& growth)
        : nodes_(bvh.*BvhMembers::nodes), ray_(meshRay) {
        const Scalar extent = nodes_.size() == 0 ? Scalar(0)
                                                 : std::max(maxAbsComponent(toGlm(nodes_[0].m_aabbMinOrg)),
                                                            maxAbsComponent(toGlm(nodes_[0].m_aabbMaxOrg)));
        padding_ = roundingPadding(ray_, extent + maxAbsComponent(growth)) + growth;
    }

    const RayPath<Scalar>& ray() const { return ray_; }
    int size() const { return nodes_.size(); }
    bool isLeaf(int index) const { return nodes_[index].m_escapeIndex == -1; }
    int subtreeSize(int index) const { return isLeaf(index) ? 1 : nodes_[index].m_escapeIndex; }
    int partId(int index) const { return nodes_[index].m_subPart; }
    int triangleIndex(int index) const { return nodes_[index].m_triangleIndex; }

    Aabb<Scalar> box(int index) const {
        return {toGlm(nodes_[index].m_aabbMinOrg) - padding_, toGlm(nodes_[index].m_aabbMaxOrg) + padding_};
    }

private:
    const NodeArray& nodes_;
    RayPath<Scalar> ray_;
    Vec3<Scalar> padding_;
};

// Calls visitLeaf(index) for the tree's leaves whose boxes the ray meets before the running fraction
// (read again at every node: hits shrink it), nearest box first, with a stack of the call's own;
// stops once the running fraction is 0 (nothing can be nearer than the origin).
template <class Tree, class VisitLeaf>
void walkFrontToBack(const Tree& tree, const Scalar& running, VisitLeaf visitLeaf) {
    if (tree.size() == 0 || !isFinite(tree.ray().origin) || !isFinite(tree.ray().direction)) return;
    const SlabRay<Scalar> ray = slabRayOf(tree.ray());
    // A segment ends at fraction 1, whatever the callback's fraction.
    const auto reach = [&] { return std::min(running, Scalar(1)); };
    Scalar maxT = reach();
    const auto entryInto = [&](int index) { return rayEntryIntoAabb(ray, maxT, tree.box(index)); };
    if (!(entryInto(0) <= maxT)) return;
    PendingStack<int> pending;
    int node = 0;
    for (;;) {
        if (tree.isLeaf(node)) {
            visitLeaf(node);
            if (!(running > 0)) return;
        } else {
            maxT = reach();
            const int first = node + 1, second = first + tree.subtreeSize(first);
            const Scalar firstEntry = entryInto(first), secondEntry = entryInto(second);
            const bool firstMet = firstEntry <= maxT, secondMet = secondEntry <= maxT;
            if (firstMet && secondMet) {
                // On into the nearer, the farther kept for later.
                const bool firstNearer = firstEntry <= secondEntry;
                pending.push(firstNearer ? second : first, firstNearer ? secondEntry : firstEntry);
                node = firstNearer ? first : second;
                continue;
            }
            if (firstMet || secondMet) {
                node = firstMet ? first : second;
                continue;
            }
        }
        // The latest kept node that the ray still enters before the running fraction.
        Pending<int> next{};
        do {
            if (pending.empty()) return;
            next = pending.pop();
        } while (!(next.entry <= reach()));
        node = next.node;
    }
}

}  // namespace

const btBvhTriangleMeshShape* unscaledMeshOf(const btConcaveShape& mesh, btVector3& scaling) {
    scaling.setValue(1, 1, 1);
    switch (mesh.getShapeType()) {
        case TRIANGLE_MESH_SHAPE_PROXYTYPE:
            return static_cast<const btBvhTriangleMeshShape*>(&mesh);
        case SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE: {
            const auto& scaled = static_cast<const btScaledBvhTriangleMeshShape&>(mesh);
            scaling = scaled.getLocalScaling();
            return scaled.getChildShape();
        }
        default:
            return nullptr;
    }
}

template <class Query>
void castAgainstMesh(const Query& query, const btCollisionObject& object, const MeshTarget& mesh) {
    btVector3 scaling;  // a btScaledBvhTriangleMeshShape's, on top of its mesh's own
    const btBvhTriangleMeshShape* bvhMesh = unscaledMeshOf(*mesh.shape, scaling);
    if (!bvhMesh) return;
    // getOptimizedBvh has no const overload; the walk only reads.
    const btOptimizedBvh* bvh = const_cast<btBvhTriangleMeshShape*>(bvhMesh)->getOptimizedBvh();
    if (!bvh) return;
    const btTransform& transform = mesh.transform;
    const Segment& segment = query.segment;
    // The segment where the tree and the vertices are (the unscaled mesh's frame): the map is affine,
    // so fractions are the same there.
    const RayPath<Scalar> meshRay = segmentRay(toGlm(transform.invXform(segment.from) / scaling),
                                               toGlm(transform.invXform(segment.to) / scaling));
    if (!query.takes(meshRay)) return;
    typename Query::TriangleReporter reporter = query.triangleReporter(meshRay, object, scaling, transform);
    if (!(reporter.running() > 0)) return;
    Vec3<Scalar> growth;
    if constexpr (std::is_same_v<Query, CapsuleQuery>)
        growth = query.growthIn(scaling, transform.getBasis());
    else
        growth = query.growthIn(scaling);
    if constexpr (std::is_same_v<Query, RayQuery>) {
        if (mesh.tree && mesh.tree->cast(meshRay, reporter)) return;
    } else if constexpr (std::is_same_v<Query, SphereQuery>) {
        if (mesh.tree && isFinite(growth) && mesh.tree->cast(meshRay, growth, reporter)) return;
    }  // a capsule (only ever swept through a world, whose meshes have no trees of ours) walks Bullet's tree
    narrowphase::BvhTriangles<typename Query::TriangleReporter> triangles(*bvhMesh->getMeshInterface(),
                                                                          btVector3(1, 1, 1), reporter);
    const auto walk = [&](const auto& tree) {
        walkFrontToBack(tree, reporter.running(), [&](int leaf) {
            triangles.processNode(tree.partId(leaf), tree.triangleIndex(leaf));
        });
    };
    if (bvh->*BvhMembers::isQuantized)
        walk(QuantizedTree(*bvh, meshRay, growth));
    else
        walk(PlainTree(*bvh, meshRay, growth));
}

template void castAgainstMesh(const RayQuery&, const btCollisionObject&, const MeshTarget&);
template void castAgainstMesh(const SphereQuery&, const btCollisionObject&, const MeshTarget&);
template void castAgainstMesh(const CapsuleQuery&, const btCollisionObject&, const MeshTarget&);

}  // namespace analytic::cast
