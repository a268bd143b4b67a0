// SPDX-License-Identifier: Zlib
// A four-wide bounding volume hierarchy over a list of boxes, for casting single rays front to back:
// a binary tree built with the binned surface area heuristic, every other level folded into its
// parent, its nodes in one array, each holding its four children's boxes side by side so that one
// node's test meets all four with a few vector operations. It serves the batches' snapshots of a world
// (ray_scene.hpp) and the cached trees of triangle meshes (mesh_tree.hpp). Bullet's own trees (btDbvt,
// btQuantizedBvh) are binary, and btDbvt allocates each node apart: a ray walking them waits on a cache
// miss at nearly every level.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <type_traits>
#include <vector>

#include "analytic/geometry/ray_box.hpp"
#include "cast/box_lanes.hpp"
#include "cast/dbvt_walk.hpp"

namespace analytic::cast {

class WideBvh {
public:
    // What a walk names as an item: each box, or each leaf of the tree (for a caller that tests a leaf's
    // boxes at once, with node levels fewer to walk).
    enum class Items { Boxes, Leaves };

    // A leaf's boxes: order()[first, first + count).
    struct Leaf {
        std::int32_t first;
        std::int32_t count;
    };

    WideBvh() = default;

    // The tree over boxes[i]; order() lists the boxes' indices in the tree's item order, in which walk
    // names them (a caller keeps its items in that order, next to each other in memory). The nodes keep
    // the boxes in float whatever btScalar is (half the memory of double, one vector test for four),
    // rounded outward and grown by the rounding of a walk in float for rays whose largest origin
    // coordinate plus largest direction component stays within rayReach, or maxWalkReach if less (see
    // covers): no box the ray touches is dropped. Built on up to `threads` threads; the tree is the same
    // whatever their number. A leaf holds up to leafSize boxes (with Items::Boxes at most 4, as a leaf's
    // boxes are then opened into its node's four slots), and only boxes that leafFits accepts together, when
    // given (their indices into boxes; called on the build's threads): a larger group is split further, down
    // to single boxes if need be. With Items::Leaves, walk names leaves (indices into leaves()) instead of
    // boxes.
    using LeafFits = std::function<bool(std::span<const std::int32_t>)>;
    WideBvh(std::span<const Aabb<Scalar>> boxes, Scalar rayReach, unsigned threads = 1,
            Items items = Items::Boxes, std::int32_t leafSize = 4, LeafFits leafFits = {});

    const std::vector<std::int32_t>& order() const { return order_; }
    // The leaves walk names with Items::Leaves (empty with Items::Boxes).
    const std::vector<Leaf>& leaves() const { return leaves_; }

    // A ray as the walk takes it, made from the caller's own values rather than copied out of a prepared
    // ray just written (a profile showed the batch's per-ray set-up waiting on that copy, a
    // store-forwarding stall).
    static SlabRayLanes<float> lanesOf(const Vec3<Scalar>& origin, const Vec3<Scalar>& direction) {
        return {origin, Scalar(1) / direction};
    }

    // The farthest a walk in float reaches (largest origin coordinate plus largest direction component):
    // within it, the ray's origin and reciprocal direction are finite, non-zero floats (or infinite for a
    // zero component), so no slab product is NaN and the empty slots stay unmet. A tree is grown for no
    // more, whatever rayReach it is given; farther rays are not walked (covers).
    static constexpr Scalar maxWalkReach = Scalar(1e30);

    // Whether the boxes' growth covers the rounding of this ray's walk (its coordinates within rayReach,
    // and within maxWalkReach).
    bool covers(const RayPath<Scalar>& ray) const { return rayReachOf(ray) <= rayReach_; }
    // The same for a sphere's centre path, boxes grown by up to `growth` on an axis.
    bool covers(const RayPath<Scalar>& path, Scalar growth) const {
        return rayReachOf(path) + growth <= rayReach_;
    }

    // Calls visit(item) (an index into the tree's order, or into leaves()) for the items whose boxes the
    // ray meets before reach() (asked again at every step: hits shrink it); stops when visit returns false.
    // items, when given, is the caller's data for each item, in item order: a node that lists items then
    // asks for them from memory before its test says which are met, as it does for its child nodes
    // (worth it for items that are mostly not in the core's caches, as a large mesh's triangles). At each
    // node the first child met in the node's order for the ray's octant is entered at once and the others
    // met are kept, to be entered later if the ray still reaches them. No branch depends on which
    // children a ray meets: that is unpredictable, and a mispredicted branch costs as much as a node's box
    // test. The ray (lanesOf) must be usable (isValidRay) and covered (covers).
    // A sphere's centre path (GrownSlabLanes) is walked the same way, its boxes grown; it must be covered
    // with its growth (covers with the radius).
    template <class Reach, class Visit, class ItemData = std::nullptr_t, class Lanes = SlabRayLanes<float>>
    void walk(const Lanes& ray, Reach reach, Visit visit, const ItemData* items = nullptr) const {
        if (nodes_.empty()) return;
        // Without items, an item's slot asks for the root, which is there already.
        constexpr bool hasItemData = !std::is_null_pointer_v<ItemData>;
        const auto itemBase =
            reinterpret_cast<std::uintptr_t>(hasItemData ? static_cast<const void*>(items) : nodes_.data());
        constexpr std::uintptr_t itemBytes = hasItemData ? sizeof(ItemData) : 0;
        const auto nodeBase = reinterpret_cast<std::uintptr_t>(nodes_.data());
        constexpr std::size_t lines =
            std::max(linesSpanned<Node>(), hasItemData ? linesSpanned<ItemData>() : 0);
        KeptChildren kept(keptCapacity_);
        Slot current{0};
        for (;;) {
            if (current.isItem()) {
                if (!visit(current.item())) return;
            } else {
                const Node& node = nodes_[current.node()];
                for (const Slot child : node.children) {
                    // The child's address by bitwise arithmetic: a branch (GCC makes one of a select here)
                    // on whether it is an item would be mispredicted where nodes and items meet.
                    const auto itemMask = std::uintptr_t(std::intptr_t(child.value >> 31));  // ones: item
                    const std::uintptr_t index = std::uintptr_t(std::intptr_t(child.value)) ^ itemMask;
                    const std::uintptr_t base = (itemBase & itemMask) | (nodeBase & ~itemMask);
                    const std::uintptr_t stride = (itemBytes & itemMask) | (sizeof(Node) & ~itemMask);
                    prefetch<lines>(base + index * stride);
                }
                float entries[4];
                const unsigned met = rayEntriesIntoAabbs(ray, atLeast(reach()), node.boxes, entries);
                if (met != 0) {
                    // Every child met is kept, the last in the order first; the one kept last (the
                    // first met in the order) is dropped again and entered.
                    const unsigned order = node.orders[ray.octant];
                    Slot first{};
                    for (int place = 3; place >= 0; --place) {
                        const unsigned child = (order >> (2 * place)) & 3;
                        const unsigned isMet = (met >> child) & 1;
                        kept.keepIf(isMet, node.children[child], entries[child]);
                        first = isMet ? node.children[child] : first;
                    }
                    kept.dropLatest();
                    current = first;
                    continue;
                }
            }
            // The latest kept child that the ray still enters before reach().
            float entry;
            do {
                if (kept.empty()) return;
                current = kept.takeLatest(entry);
            } while (!(entry <= reach()));
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

    // Up to four children; an empty slot's box lanes are +inf to -inf, met by no ray. orders[octant]
    // lists the children (two bits each, the first in the lowest) from near to far for rays going into
    // that octant (see SlabRayLanes::octant): by their boxes' centres along its diagonal, the empty slots
    // last. A walk in that order meets the nearest hits early, without sorting the children's entries at
    // every node. Aligned to cache lines: a node (128 bytes) spans no more lines than its size needs.
    struct alignas(64) Node {
        AabbLanes<float> boxes;
        Slot children[4];
        std::uint8_t orders[8];
    };

    // The children a walk keeps for later, with where the ray enters their boxes: at most 3 per level
    // above the deepest node, and one written above the top (keptCapacity_). Kept on the call stack for
    // trees of any realistic depth, on the heap beyond; with room known, nothing is checked per child.
    class KeptChildren {
    public:
        explicit KeptChildren(std::size_t capacity) {
            if (capacity <= inlineCapacity) return;
            heapSlots_.resize(capacity);
            heapEntries_.resize(capacity);
            slots_ = heapSlots_.data();
            entries_ = heapEntries_.data();
        }
        KeptChildren(const KeptChildren&) = delete;
        KeptChildren& operator=(const KeptChildren&) = delete;

        bool empty() const { return size_ == 0; }

        // Keeps the child when wanted is 1, not when it is 0, without a branch on it: the child is
        // written above the top either way, and the top moves by wanted. (Given as a bool, GCC 12
        // branched on it, where it is unpredictable.)
        void keepIf(unsigned wanted, Slot child, float entry) {
            slots_[size_] = child;
            entries_[size_] = entry;
            size_ += wanted;
        }

        void dropLatest() { --size_; }

        Slot takeLatest(float& entry) {
            --size_;
            entry = entries_[size_];
            return slots_[size_];
        }

    private:
        static constexpr std::size_t inlineCapacity = 64;  // trees 20 levels deep
        Slot inlineSlots_[inlineCapacity];
        float inlineEntries_[inlineCapacity];
        std::vector<Slot> heapSlots_;
        std::vector<float> heapEntries_;
        Slot* slots_ = inlineSlots_;
        float* entries_ = inlineEntries_;
        std::size_t size_ = 0;
    };

    // The smallest float no less than t: the walk's reach in float, never short of the exact one.
    static float atLeast(Scalar t) {
        const auto rounded = float(t);
        return Scalar(rounded) < t ? std::nextafter(rounded, std::numeric_limits<float>::infinity())
                                   : rounded;
    }

    // How many cache lines an object of this type may lie on, wherever its alignment places it.
    template <class Child> static constexpr std::size_t linesSpanned() {
        return (sizeof(Child) + cacheLine - std::min(alignof(Child), cacheLine) + cacheLine - 1) / cacheLine;
    }

    // Asks for a child's lines before the ray's test against its box says whether it is entered: the
    // child is then on its way while the test runs, instead of waited for after it (the trees and their
    // items are larger than the core's caches). A fixed number of lines from the one holding its first
    // byte, so that no branch depends on the child: as many as the larger of a node and an item may span.
    // Past a node, they hold the nodes it leads to first (a node's first child that is a node comes right
    // after it), which a ray entering it most likely needs next.
    template <std::size_t lines> static void prefetch(std::uintptr_t child) {
        const std::uintptr_t firstLine = child & ~std::uintptr_t(cacheLine - 1);
        for (std::size_t line = 0; line < lines; ++line)
            __builtin_prefetch(reinterpret_cast<const void*>(firstLine + line * cacheLine));
    }
    static constexpr std::size_t cacheLine = 64;

    struct Source;
    struct Built;
    std::int32_t buildBinary(const Source& source, std::int32_t first, std::int32_t count,
                             std::vector<Built>& binary, unsigned threads);
    Slot fold(std::int32_t binaryIndex, const std::vector<Built>& binary, std::span<const Aabb<Scalar>> boxes,
              Items items, std::size_t depth);

    std::vector<std::int32_t> order_;
    std::vector<Node> nodes_;  // nodes_[0]: the root
    std::vector<Leaf> leaves_;
    std::int32_t leafSize_ = 4;
    std::size_t keptCapacity_ = 0;  // see KeptChildren
    Scalar rayReach_ = 0;
};

}  // namespace analytic::cast
