// A four-wide bounding volume hierarchy over a list of boxes, for casting single rays front to back:
// a binary tree built with the binned surface area heuristic, every other level folded into its
// parent, its nodes in one array, each holding its four children's boxes side by side so that one
// node's test meets all four with a few vector operations. It serves the batches' snapshots of a world
// (ray_scene.hpp) and the cached trees of triangle meshes (mesh_tree.hpp). Bullet's own trees (btDbvt,
// btQuantizedBvh) are binary, and btDbvt allocates each node apart: a ray walking them waits on a cache
// miss at nearly every level.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "analytic/geometry/ray_box.hpp"
#include "dbvt_walk.hpp"

namespace analytic::raycast {

class WideBvh {
public:
    WideBvh() = default;

    // The tree over boxes[i]; order() lists the boxes' indices in the tree's item order, in which walk
    // names them (a caller keeps its items in that order, next to each other in memory).
    explicit WideBvh(std::span<const Aabb<Scalar>> boxes);

    const std::vector<std::int32_t>& order() const { return order_; }

    // Calls visit(item) (an index into the tree's order) for the items whose boxes the ray meets before
    // reach() (asked again at every step: hits shrink it), nearest box first within each node; stops when
    // visit returns false. The nearest child met is entered at once, the others kept, farthest first.
    template <class Reach, class Visit> void walk(SlabRay<Scalar> slab, Reach reach, Visit visit) const {
        if (nodes_.empty()) return;
        PendingStack<Slot> pending;
        Slot current{0};
        for (;;) {
            if (current.isItem()) {
                if (!visit(current.item())) return;
            } else {
                const Node& node = nodes_[current.node()];
                slab.maxT = reach();
                Scalar entries[4];
                rayEntriesIntoAabbs(slab, node.boxes, entries);
                Pending<Slot> met[4];
                int count = 0;
                for (int i = 0; i < 4; ++i) {
                    const bool isMet = entries[i] <= slab.maxT;  // NaN: not met
                    met[i] = {node.children[i], isMet ? entries[i] : std::numeric_limits<Scalar>::infinity()};
                    count += isMet;
                }
                if (count != 0) {
                    sortByEntry(met);
                    for (int i = count - 1; i > 0; --i)
                        pending.push(met[i]);
                    current = met[0].node;
                    continue;
                }
            }
            // The latest kept child that the ray still enters before reach().
            Pending<Slot> next;
            do {
                if (pending.empty()) return;
                next = pending.pop();
            } while (!(next.entry <= reach()));
            current = next.node;
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

    // Nearest first, by a sorting network: its compares select, they do not branch (which child is nearer
    // is unpredictable; a mispredicted branch costs as much as a node's box test).
    static void sortByEntry(Pending<Slot> (&children)[4]) {
        const auto order = [&](int a, int b) {
            const Pending<Slot> first = children[a], second = children[b];
            const bool swap = second.entry < first.entry;
            children[a] = swap ? second : first;
            children[b] = swap ? first : second;
        };
        order(0, 1);
        order(2, 3);
        order(0, 2);
        order(1, 3);
        order(1, 2);
    }

    struct Built;
    std::int32_t buildBinary(std::span<const Aabb<Scalar>> boxes, std::int32_t first, std::int32_t count,
                             std::vector<Built>& binary);
    Slot fold(std::int32_t binaryIndex, const std::vector<Built>& binary,
              std::span<const Aabb<Scalar>> boxes);

    std::vector<std::int32_t> order_;
    std::vector<Node> nodes_;  // nodes_[0]: the root
};

}  // namespace analytic::raycast
