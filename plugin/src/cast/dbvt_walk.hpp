// SPDX-License-Identifier: Zlib
// Front-to-back walks of Bullet's dynamic AABB trees (btDbvt: the broadphase's two trees, a compound's
// children) for one path (a ray, or a sphere's centre), with a stack of the call's own: many threads may walk
// one tree at once.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/ray_box.hpp"

namespace analytic::cast {

// How much to grow a box so that a slab test computed in Lane (float or double) never drops it for a ray
// that touches it: 8 rounding units of the largest coordinate involved (magnitude: the box's plus the
// ray's origin and direction components), 4 for how far rounding of the subtraction and product moves
// a plane's t, and of the ray's coordinates to Lane, and the entry and the exit both.
template <class Lane> Scalar slabRoundingPadding(Scalar magnitude) {
    return 8 * Scalar(unitRoundoff<Lane>) * magnitude;
}

// A ray's part of that magnitude: its largest origin coordinate plus its largest direction component.
inline Scalar rayReachOf(const RayPath<Scalar>& ray) {
    return maxAbsComponent(ray.origin) + maxAbsComponent(ray.direction);
}

inline Aabb<Scalar> boxOf(const btDbvtVolume& volume) { return {toGlm(volume.Mins()), toGlm(volume.Maxs())}; }

// The box of the object's shape where it is now.
inline Aabb<Scalar> boxOf(const btCollisionObject& object) {
    btVector3 boxMin, boxMax;
    object.getCollisionShape()->getAabb(object.getWorldTransform(), boxMin, boxMax);
    return {toGlm(boxMin), toGlm(boxMax)};
}

// A node still to visit, with where the ray enters its box.
template <class Node> struct Pending {
    Node node;
    Scalar entry;
};

// The call's own stack of pending nodes: on the call stack up to a depth no balanced tree of realistic
// size exceeds, on the heap beyond. Nodes and entries are kept apart, each read back as it was written: a
// load spanning two stores, as a pair's would, waits for both to reach the cache (a store-forwarding
// stall), and walks pop what they pushed a moment before.
template <class Node> class PendingStack {
public:
    bool empty() const { return size_ == 0; }

    void push(Node node, Scalar entry) {
        if (size_ < inlineCapacity) {
            inlineNodes_[std::size_t(size_)] = node;
            inlineEntries_[std::size_t(size_)] = entry;
        } else {
            overflow_.push_back({node, entry});
        }
        ++size_;
    }

    Pending<Node> pop() {
        --size_;
        if (size_ < inlineCapacity)
            return {inlineNodes_[std::size_t(size_)], inlineEntries_[std::size_t(size_)]};
        const Pending<Node> top = overflow_.back();
        overflow_.pop_back();
        return top;
    }

private:
    static constexpr int inlineCapacity = 128;
    std::array<Node, inlineCapacity> inlineNodes_;
    std::array<Scalar, inlineCapacity> inlineEntries_;
    std::vector<Pending<Node>> overflow_;
    int size_ = 0;
};

// Where the ray enters a btDbvt node's volume within [0, maxT], NaN when it does not: rayEntryIntoAabb's
// slabs without its check of the bounds, so that a NaN bound leaves its slab unbounded instead of making
// the volume unmet. A btDbvt merges its volumes with min and max, which pass the NaN of an object placed
// at NaN (or of Bullet's box of a mesh with a vertex at infinity, inf * 0) on to some of its ancestors and
// not to others: such an ancestor's NaN says nothing of the other objects under it, which are still
// found. The objects themselves are tested by their shapes' boxes, where a NaN is none (ray_test.cpp).
// The same with each slab's near bound tested from nearOrigin and its far bound from farOrigin: a sphere's
// path, its boxes grown by the radius (GrownPath).
[[gnu::always_inline]] inline Scalar entryIntoNodeBox(const SlabRay<Scalar>& ray,
                                                      const Vec3<Scalar>& nearOrigin,
                                                      const Vec3<Scalar>& farOrigin, Scalar maxT,
                                                      const Aabb<Scalar>& box) {
    Scalar entry = 0, exit = maxT;
    for (int axis = 0; axis < 3; ++axis) {
        const bool throughHigh = std::signbit(ray.inverseDirection[axis]);
        const Scalar near =
            ((throughHigh ? box.max : box.min)[axis] - nearOrigin[axis]) * ray.inverseDirection[axis];
        const Scalar far =
            ((throughHigh ? box.min : box.max)[axis] - farOrigin[axis]) * ray.inverseDirection[axis];
        entry = near > entry ? near : entry;  // NaN leaves the bound
        exit = far < exit ? far : exit;
    }
    return entry <= exit ? entry : std::numeric_limits<Scalar>::quiet_NaN();
}

inline Scalar rayEntryIntoNodeBox(const SlabRay<Scalar>& ray, Scalar maxT, const Aabb<Scalar>& box) {
    return entryIntoNodeBox(ray, ray.origin, ray.origin, maxT, box);
}

// A sphere's path as walkDbvt takes it: the origin moved toward each slab's near side by the radius for
// its near bound and away for its far bound, which is the test of the box grown by the radius without
// growing each box.
struct GrownPath {
    const SlabRay<Scalar>& ray;
    Vec3<Scalar> nearOrigin, farOrigin;

    GrownPath(const SlabRay<Scalar>& path, Scalar radius) : ray(path) {
        for (int axis = 0; axis < 3; ++axis) {
            const Scalar toward = std::signbit(path.inverseDirection[axis]) ? -radius : radius;
            nearOrigin[axis] = path.origin[axis] + toward;
            farOrigin[axis] = path.origin[axis] - toward;
        }
    }
    Scalar entry(Scalar maxT, const Aabb<Scalar>& box) const {
        return entryIntoNodeBox(ray, nearOrigin, farOrigin, maxT, box);
    }
};

// A ray's path as walkDbvt takes it.
struct RayPathEntry {
    const SlabRay<Scalar>& ray;
    Scalar entry(Scalar maxT, const Aabb<Scalar>& box) const { return rayEntryIntoNodeBox(ray, maxT, box); }
};

// Calls visitLeaf(leaf) for the leaves of the trees under the roots (null for none) whose boxes the path
// meets (RayPathEntry for a ray, GrownPath for a sphere: its boxes grown by the radius; a NaN bound counted
// as none, see rayEntryIntoNodeBox), nearest box first, skipping boxes it enters beyond the closest hit so
// far (`closest`, read again before every node: hits shrink it); stops when visitLeaf returns false.
template <class Path, class VisitLeaf> void walkDbvt(std::array<const btDbvtNode*, 2> roots, const Path& path,
                                                     const Scalar& closest, VisitLeaf visitLeaf) {
    PendingStack<const btDbvtNode*> pending;
    Scalar maxT = closest;
    const auto entryInto = [&](const btDbvtNode* node) {
        return node ? path.entry(maxT, boxOf(node->volume)) : std::numeric_limits<Scalar>::quiet_NaN();
    };
    // Two nodes pushed farther first, so the nearer is visited first (NaN: not met, never pushed).
    const auto considerPair = [&](const btDbvtNode* a, const btDbvtNode* b) {
        const Scalar entryA = entryInto(a), entryB = entryInto(b);
        const bool aNearer = entryA <= entryB;
        const auto pushIfMet = [&](const btDbvtNode* node, Scalar entry) {
            if (entry <= maxT) {
                pending.push(node, entry);
                // Its children (a leaf's proxy and null), asked for now: the nodes are allocated apart,
                // and waited for one level at a time when asked for only when entered.
                __builtin_prefetch(node->childs[0]);
                __builtin_prefetch(node->childs[1]);
            }
        };
        pushIfMet(aNearer ? b : a, aNearer ? entryB : entryA);
        pushIfMet(aNearer ? a : b, aNearer ? entryA : entryB);
    };
    considerPair(roots[0], roots[1]);
    while (!pending.empty()) {
        const auto next = pending.pop();
        maxT = closest;
        if (next.entry > maxT) continue;
        if (!next.node->isleaf())
            considerPair(next.node->childs[0], next.node->childs[1]);
        else if (!visitLeaf(*next.node))
            return;
    }
}

}  // namespace analytic::cast
