// A flat snapshot of what rays can hit in a world, made for one batch of rays: every object in the
// broadphase with its box and its ray target (the shape placed in the world), under a four-wide
// bounding-volume hierarchy of those boxes (a binary tree built with the binned surface area heuristic,
// every other level folded into its parent), its nodes in one array, each holding its four children's
// boxes side by side so that one node's test meets all four with a few vector operations. Bullet's own
// tree (btDbvt) allocates each node apart and was built by insertions: a ray walking it waits on a
// cache miss at nearly every node.
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
        const btCollisionObject* object;
        int group;  // the broadphase proxy's collision filter group and mask, read once
        int mask;
        RayTarget target;
    };

    explicit RayScene(const btCollisionWorld& world);

    // Calls visit(item) for the items whose boxes the ray meets, nearest first within each node, skipping
    // what it enters beyond the callback's closest hit so far; stops when visit returns false.
    template <class Visit>
    void walk(SlabRay<Scalar> slab, const btCollisionWorld::RayResultCallback& callback, Visit visit) const {
        if (nodes_.empty()) return;
        PendingStack<Slot> pending;
        pending.push({Slot{0}, Scalar(0)});
        while (!pending.empty()) {
            const Pending<Slot> next = pending.pop();
            slab.maxT = callback.m_closestHitFraction;
            if (next.entry > slab.maxT) continue;
            if (next.node.isItem()) {
                if (!visit(items_[next.node.item()])) return;
                continue;
            }
            const Node& node = nodes_[next.node.node()];
            Scalar entries[4];
            rayEntriesIntoAabbs(slab, node.boxes, entries);
            // The children met, farthest first, so that the nearest is visited first (NaN: not met).
            Pending<Slot> met[4];
            int count = 0;
            for (int i = 0; i < 4; ++i) {
                if (!(entries[i] <= slab.maxT)) continue;
                int at = count++;
                for (; at > 0 && met[at - 1].entry < entries[i]; --at)
                    met[at] = met[at - 1];
                met[at] = {node.children[i], entries[i]};
            }
            for (int i = 0; i < count; ++i)
                pending.push(met[i]);
        }
    }

private:
    // A child: a node (value >= 0, its index) or an item (value < 0, ~its index).
    struct Slot {
        std::int32_t value;
        bool isItem() const { return value < 0; }
        std::size_t node() const { return std::size_t(value); }
        std::size_t item() const { return std::size_t(~value); }
    };

    // Up to four children; an empty slot's box lanes are +inf to -inf, met by no ray.
    struct Node {
        AabbLanes<Scalar> boxes;
        Slot children[4];
    };

    struct Built;
    std::int32_t buildBinary(std::vector<std::int32_t>& order, std::int32_t first, std::int32_t count,
                             std::vector<Built>& binary) const;
    Slot fold(std::int32_t binaryIndex, const std::vector<Built>& binary);

    std::vector<Item> items_;
    std::vector<Aabb<Scalar>> itemBoxes_;  // in items_'s order
    std::vector<Node> nodes_;              // nodes_[0]: the root
};

}  // namespace analytic::raycast
