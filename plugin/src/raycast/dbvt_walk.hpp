// Front-to-back walks of Bullet's dynamic AABB trees (btDbvt: the broadphase's two trees, a compound's
// children) for one ray, with a stack of the call's own: many threads may walk one tree at once.
#pragma once

#include <BulletCollision/BroadphaseCollision/btDbvt.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btCollisionShape.h>

#include <array>
#include <cstddef>
#include <limits>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"

namespace analytic::raycast {

using Scalar = btScalar;

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
// size exceeds, on the heap beyond.
template <class Node> class PendingStack {
public:
    bool empty() const { return size_ == 0; }

    void push(const Pending<Node>& pending) {
        if (size_ < int(inlineEntries_.size()))
            inlineEntries_[std::size_t(size_)] = pending;
        else
            overflow_.push_back(pending);
        ++size_;
    }

    // Drops the count entries on top: a walk pushes every candidate, met or not, then drops the others,
    // with no branch per candidate.
    void discard(int count) {
        for (; count > 0 && size_ > int(inlineEntries_.size()); --count, --size_)
            overflow_.pop_back();
        size_ -= count;
    }

    Pending<Node> pop() {
        --size_;
        if (size_ < int(inlineEntries_.size())) return inlineEntries_[std::size_t(size_)];
        const Pending<Node> top = overflow_.back();
        overflow_.pop_back();
        return top;
    }

private:
    std::array<Pending<Node>, 128> inlineEntries_;
    std::vector<Pending<Node>> overflow_;
    int size_ = 0;
};

// Calls visitLeaf(leaf) for the leaves of the trees under the roots (null for none) whose boxes the ray
// meets, nearest box first, skipping boxes it enters beyond the callback's closest hit so far (read
// again before every node: hits shrink it); stops when visitLeaf returns false.
template <class VisitLeaf> void walkDbvt(std::array<const btDbvtNode*, 2> roots, SlabRay<Scalar> slab,
                                         const btCollisionWorld::RayResultCallback& callback,
                                         VisitLeaf visitLeaf) {
    PendingStack<const btDbvtNode*> pending;
    const auto entryInto = [&](const btDbvtNode* node) {
        return node ? rayEntryIntoAabb(slab, boxOf(node->volume)) : std::numeric_limits<Scalar>::quiet_NaN();
    };
    // Two nodes pushed farther first, so the nearer is visited first (NaN: not met, never pushed).
    const auto considerPair = [&](const btDbvtNode* a, const btDbvtNode* b) {
        const Pending<const btDbvtNode*> first{a, entryInto(a)}, second{b, entryInto(b)};
        const bool firstNearer = first.entry <= second.entry;
        for (const auto& next : {firstNearer ? second : first, firstNearer ? first : second})
            if (next.entry <= slab.maxT) pending.push(next);
    };
    slab.maxT = callback.m_closestHitFraction;
    considerPair(roots[0], roots[1]);
    while (!pending.empty()) {
        const auto next = pending.pop();
        slab.maxT = callback.m_closestHitFraction;
        if (next.entry > slab.maxT) continue;
        if (!next.node->isleaf())
            considerPair(next.node->childs[0], next.node->childs[1]);
        else if (!visitLeaf(*next.node))
            return;
    }
}

}  // namespace analytic::raycast
