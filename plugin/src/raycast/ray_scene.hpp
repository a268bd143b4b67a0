// A flat snapshot of what rays can hit in a world, made for one batch of rays: every object in the
// broadphase with its broadphase box and its ray target (the shape placed in the world), under a
// bounding-volume hierarchy of those boxes built with the surface area heuristic, its nodes in one
// array in depth-first order. Bullet's own tree (btDbvt) allocates each node apart and was built
// by insertions; a ray walking it waits on a cache miss at nearly every node.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "dbvt_walk.hpp"
#include "ray_targets.hpp"

namespace analytic::raycast {

class RayScene {
public:
    struct Item {
        btBroadphaseProxy* proxy;
        const btCollisionObject* object;
        RayTarget target;
    };

    explicit RayScene(const btCollisionWorld& world);

    // Calls visit(item) for the items whose boxes the ray meets, nearest subtree first, skipping subtrees
    // and items it enters beyond the callback's closest hit so far; stops when visit returns false.
    template <class Visit>
    void walk(SlabRay<Scalar> slab, const btCollisionWorld::RayResultCallback& callback, Visit visit) const {
        PendingStack<Child> pending;
        slab.maxT = callback.m_closestHitFraction;
        const Scalar rootEntry = rayEntryIntoAabb(slab, rootBox_);
        if (rootEntry <= slab.maxT) pending.push({root_, rootEntry});
        while (!pending.empty()) {
            const Pending<Child> next = pending.pop();
            slab.maxT = callback.m_closestHitFraction;
            if (next.entry > slab.maxT) continue;
            if (next.node.isLeaf()) {
                for (std::int32_t i = next.node.first; i < next.node.first + next.node.count; ++i) {
                    slab.maxT = callback.m_closestHitFraction;
                    if (rayEntryIntoAabb(slab, itemBoxes_[std::size_t(i)]) <= slab.maxT &&
                        !visit(items_[std::size_t(i)]))
                        return;
                }
                continue;
            }
            const Node& node = nodes_[std::size_t(next.node.first)];
            const Pending<Child> first{node.children[0], rayEntryIntoAabb(slab, node.boxes[0])};
            const Pending<Child> second{node.children[1], rayEntryIntoAabb(slab, node.boxes[1])};
            // Farther first, so the nearer is visited first (NaN: not met, never pushed).
            const bool firstNearer = first.entry <= second.entry;
            for (const Pending<Child>& child : {firstNearer ? second : first, firstNearer ? first : second})
                if (child.entry <= slab.maxT) pending.push(child);
        }
    }

private:
    // A subtree: an inner node (count 0, its index in nodes_) or a leaf (items [first, first + count)).
    struct Child {
        std::int32_t first;
        std::int32_t count;
        bool isLeaf() const { return count > 0; }
    };

    // An inner node holds its two children's boxes: one cache line (in float) gives the walk both.
    struct Node {
        Aabb<Scalar> boxes[2];
        Child children[2];
    };

    struct Built {
        Aabb<Scalar> box;
        Child child;
    };

    Built build(std::int32_t first, std::int32_t count);

    std::vector<Item> items_;
    std::vector<Aabb<Scalar>> itemBoxes_;  // in items_'s order; apart, so that the walk's reads stay dense
    std::vector<Node> nodes_;
    Aabb<Scalar> rootBox_{};
    Child root_{0, 0};
};

}  // namespace analytic::raycast
