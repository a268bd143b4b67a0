// SPDX-License-Identifier: Zlib
#include "cast/wide_bvh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <thread>
#include <utility>

#include "analytic/geometry/numeric.hpp"

namespace analytic::cast {
namespace {

constexpr int binCount = 16;
// Two halves of a subtree are built at once only when both have this many boxes: starting a thread
// costs as much as building a smaller one.
constexpr std::int32_t minParallelCount = 1024;

// The surface area heuristic's measure of a box (half its area), in double: broadphase boxes of planes
// reach 1e18 (float) or 1e30 (double), whose products overflow float. Never NaN, which no comparison
// would pick (the fold then never opened a node): a side between equal infinite bounds has length 0, and
// a face of length 0 has area 0 however long its other side (an infinite segment has none).
double halfArea(const Aabb<Scalar>& box) {
    glm::dvec3 size = glm::dvec3(box.max) - glm::dvec3(box.min);
    for (int axis = 0; axis < 3; ++axis)
        size[axis] = size[axis] > 0 ? size[axis] : 0;
    const auto face = [](double a, double b) { return a == 0 || b == 0 ? 0.0 : a * b; };
    return face(size.x, size.y) + face(size.y, size.z) + face(size.z, size.x);
}

Aabb<Scalar> emptyBox() {
    constexpr Scalar huge = std::numeric_limits<Scalar>::infinity();
    return {Vec3<Scalar>(huge), Vec3<Scalar>(-huge)};
}

// Inlined where called: the build's loops then keep the box they grow in registers (a call per item wrote
// its box back and read it again).
[[gnu::always_inline]] inline void grow(Aabb<Scalar>& box, const Aabb<Scalar>& other) {
    box.min = glm::min(box.min, other.min);
    box.max = glm::max(box.max, other.max);
}

// The float nearest x on the side of -inf (toward: -1) or +inf (+1): a bound rounded outward.
float roundedOutward(Scalar x, float toward) {
    const auto rounded = float(x);
    return (Scalar(rounded) - x) * Scalar(toward) < 0
               ? std::nextafter(rounded, toward * std::numeric_limits<float>::infinity())
               : rounded;
}

// The box as the nodes keep it: in float, grown for a walk in float by a covered ray, rounded outward.
// Each axis is grown for its own coordinates: a slab's rounding is of its bounds and the ray's origin on
// that axis (a plane's box narrowed to a slab on one axis stays narrow there, however wide elsewhere).
Aabb<float> laneBox(const Aabb<Scalar>& box, Scalar rayReach) {
    if (!glm::all(glm::lessThanEqual(box.min, box.max))) {
        constexpr float infinity = std::numeric_limits<float>::infinity();
        return {Vec3<float>(infinity), Vec3<float>(-infinity)};
    }
    Aabb<float> lanes;
    for (int axis = 0; axis < 3; ++axis) {
        const Scalar padding =
            slabRoundingPadding<float>(std::max(std::abs(box.min[axis]), std::abs(box.max[axis])) + rayReach);
        lanes.min[axis] = roundedOutward(box.min[axis] - padding, -1);
        lanes.max[axis] = roundedOutward(box.max[axis] + padding, 1);
    }
    return lanes;
}

// In double, so that the centre of a huge box stays finite; 0 on an axis where the box spans all of it
// (-inf + inf), so that centres always compare.
glm::dvec3 centreOf(const Aabb<Scalar>& box) {
    glm::dvec3 centre = (glm::dvec3(box.min) + glm::dvec3(box.max)) * 0.5;
    for (int axis = 0; axis < 3; ++axis)
        centre[axis] = std::isnan(centre[axis]) ? 0 : centre[axis];
    return centre;
}

// The orders a Node keeps for the children whose box centres these are: for each octant, near to far
// along its diagonal (the direction whose components are -1 on the octant's bits, +1 elsewhere), equal
// ones in slot order; then centres without a place on it (an infinite box's), then the empty slots. An
// octant and its opposite (every bit flipped) share the diagonal, reversed: one comparison of each
// pair of children serves both.
std::array<std::uint8_t, 8> ordersAlongDiagonals(std::span<const glm::dvec3> centres) {
    std::array<std::uint8_t, 8> orders{};
    for (unsigned octant = 0; octant < 4; ++octant) {
        std::array<double, 4> along{};
        std::array<bool, 4> placed{};
        for (std::size_t i = 0; i < centres.size(); ++i) {
            for (int axis = 0; axis < 3; ++axis)
                along[i] += (octant >> axis & 1 ? -1 : 1) * centres[i][axis];
            placed[i] = std::isfinite(along[i]);
        }
        // Each child's place: how many come before it, counted over the pairs.
        std::array<unsigned, 4> place{}, oppositePlace{};
        for (std::size_t i = 1; i < 4; ++i) {
            for (std::size_t j = 0; j < i; ++j) {
                const bool bothPlaced = placed[j] && placed[i];
                const bool jFirst = bothPlaced ? along[j] <= along[i] : placed[j] || !placed[i];
                const bool jFirstOpposite = bothPlaced ? along[j] >= along[i] : placed[j] || !placed[i];
                place[jFirst ? i : j] += 1;
                oppositePlace[jFirstOpposite ? i : j] += 1;
            }
        }
        for (unsigned child = 0; child < 4; ++child) {
            orders[octant] |= std::uint8_t(child << (2 * place[child]));
            orders[octant ^ 7] |= std::uint8_t(child << (2 * oppositePlace[child]));
        }
    }
    return orders;
}

}  // namespace

// The boxes a tree is built over, with what the build asks of each many times, computed once.
struct WideBvh::Source {
    std::span<const Aabb<Scalar>> boxes;
    std::vector<glm::dvec3> centres;
    std::vector<double> areas;  // halfArea
    LeafFits leafFits;
};

// A node of the binary tree the four-wide one is folded from: a leaf (children[0] < 0) holds items
// [first, first + count).
struct WideBvh::Built {
    Aabb<Scalar> box;
    std::int32_t first;
    std::int32_t count;
    std::int32_t children[2];
};

WideBvh::WideBvh(std::span<const Aabb<Scalar>> givenBoxes, Scalar rayReach, unsigned threads, Items items,
                 std::int32_t leafSize, LeafFits leafFits)
    : leafSize_(leafSize), rayReach_(rayReach <= maxWalkReach ? rayReach : maxWalkReach) {
    if (leafSize < 1 || (items == Items::Boxes && leafSize > 4))
        throw std::invalid_argument("WideBvh: a leaf holds 1 to 4 boxes, or more when walks name leaves");
    if (givenBoxes.empty()) return;
    // A box with a NaN bound, or min > max, meets no ray: the walk's box test (rayEntriesIntoAabbs) takes
    // only ordered boxes and the empty one. Nor does one that holds no finite point (a bound at infinity
    // on its far side: an object placed at infinity), whose growth would be inf - inf.
    constexpr Scalar infinity = std::numeric_limits<Scalar>::infinity();
    std::vector<Aabb<Scalar>> usableBoxes(givenBoxes.begin(), givenBoxes.end());
    for (Aabb<Scalar>& box : usableBoxes)
        if (!glm::all(glm::lessThanEqual(box.min, box.max)) ||
            glm::any(glm::equal(box.min, Vec3<Scalar>(infinity))) ||
            glm::any(glm::equal(box.max, Vec3<Scalar>(-infinity))))
            box = emptyBox();
    const std::span<const Aabb<Scalar>> boxes(usableBoxes);
    Source source{boxes, {}, {}, std::move(leafFits)};
    source.centres.reserve(boxes.size());
    source.areas.reserve(boxes.size());
    for (const Aabb<Scalar>& box : boxes) {
        source.centres.push_back(centreOf(box));
        source.areas.push_back(halfArea(box));
    }
    order_.resize(boxes.size());
    std::iota(order_.begin(), order_.end(), 0);
    std::vector<Built> binary;
    binary.reserve(boxes.size());
    const std::int32_t root =
        buildBinary(source, 0, std::int32_t(boxes.size()), binary, std::max(threads, 1u));
    nodes_.reserve(boxes.size() / 2 + 1);
    fold(root, binary, boxes, items, 0);
}

// The binary subtree over the boxes order_[first, first + count), which it reorders; returns its index in
// binary. With more than one thread, a large subtree's two halves are built at once, the second into a
// list of its own appended after: the subtree is the same (fold reads it from its root, whatever the
// indices), only where its nodes lie in binary differs.
std::int32_t WideBvh::buildBinary(const Source& source, std::int32_t first, std::int32_t count,
                                  std::vector<Built>& binary, unsigned threads) {
    const auto ids = std::span(order_).subspan(std::size_t(first), std::size_t(count));
    const auto boxOf = [&](std::int32_t id) -> const Aabb<Scalar>& { return source.boxes[std::size_t(id)]; };
    const auto centre = [&](std::int32_t id) -> const glm::dvec3& { return source.centres[std::size_t(id)]; };
    Aabb<Scalar> box = emptyBox();
    glm::dvec3 centreMin(std::numeric_limits<double>::infinity()), centreMax(-centreMin);
    std::size_t largest = 0;
    double largestArea = -1;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        const Aabb<Scalar>& itemBox = boxOf(ids[i]);
        grow(box, itemBox);
        centreMin = glm::min(centreMin, centre(ids[i]));
        centreMax = glm::max(centreMax, centre(ids[i]));
        if (const double area = source.areas[std::size_t(ids[i])]; area > largestArea) {
            largestArea = area;
            largest = i;
        }
    }
    const auto index = std::int32_t(binary.size());
    binary.push_back({box, first, count, {-1, -1}});
    if (count == 1 || (count <= leafSize_ && (!source.leafFits || source.leafFits(ids)))) return index;
    // Binned surface area heuristic along the axis where the centres spread most.
    const glm::dvec3 spread = centreMax - centreMin;
    const int axis = spread.x >= spread.y && spread.x >= spread.z ? 0 : spread.y >= spread.z ? 1 : 2;
    const double low = centreMin[axis], width = spread[axis], binsPerUnit = binCount / width;
    const auto binOf = [&](std::int32_t id) {
        const double position = (centre(id)[axis] - low) * binsPerUnit;
        return std::isfinite(position) ? std::clamp(int(position), 0, binCount - 1) : 0;
    };
    std::int32_t leftCount = 0;
    double bestCost = std::numeric_limits<double>::infinity();
    if (width > 0 && std::isfinite(width)) {
        std::array<Aabb<Scalar>, binCount> binBoxes;
        binBoxes.fill(emptyBox());
        std::array<std::int32_t, binCount> binItems{};
        for (const std::int32_t id : ids) {
            const int bin = binOf(id);
            grow(binBoxes[std::size_t(bin)], boxOf(id));
            ++binItems[std::size_t(bin)];
        }
        // Cost of splitting after bin b: areas of both sides times their item counts.
        std::array<double, binCount - 1> leftCost{};
        Aabb<Scalar> leftBox = emptyBox();
        std::int32_t leftItems = 0;
        for (int b = 0; b < binCount - 1; ++b) {
            grow(leftBox, binBoxes[std::size_t(b)]);
            leftItems += binItems[std::size_t(b)];
            leftCost[std::size_t(b)] = leftItems ? halfArea(leftBox) * leftItems : 0;
        }
        Aabb<Scalar> rightBox = emptyBox();
        std::int32_t rightItems = 0;
        int bestBin = -1;
        for (int b = binCount - 1; b > 0; --b) {
            grow(rightBox, binBoxes[std::size_t(b)]);
            rightItems += binItems[std::size_t(b)];
            const double cost = leftCost[std::size_t(b - 1)] + halfArea(rightBox) * rightItems;
            if (rightItems < count && cost < bestCost) {
                bestCost = cost;
                bestBin = b;
            }
        }
        if (bestBin > 0) {
            const auto middle =
                std::partition(ids.begin(), ids.end(), [&](std::int32_t id) { return binOf(id) < bestBin; });
            leftCount = std::int32_t(middle - ids.begin());
        }
    }
    // An item whose box fills most of the node's (a static plane's spans all space) is put alone on one
    // side when that costs less: binned by its centre it would widen every node down to its leaf, and
    // every ray would walk that whole path.
    if (largestArea > 0.5 * halfArea(box)) {
        Aabb<Scalar> restBox = emptyBox();
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (i != largest) grow(restBox, boxOf(ids[i]));
        if (largestArea + halfArea(restBox) * (count - 1) < bestCost) {
            std::swap(ids[largest], ids.back());
            leftCount = count - 1;
        }
    }
    if (leftCount == 0 || leftCount == count) {  // the heuristic found no split: the median centre
        leftCount = count / 2;
        std::nth_element(ids.begin(), ids.begin() + leftCount, ids.end(),
                         [&](std::int32_t a, std::int32_t b) { return centre(a)[axis] < centre(b)[axis]; });
    }
    std::int32_t left, right;
    if (threads > 1 && std::min(leftCount, count - leftCount) >= minParallelCount) {
        std::vector<Built> secondHalf;
        std::int32_t secondRoot = 0;
        std::exception_ptr helperFailure;  // thrown here, not out of the helper (which would terminate)
        {
            const std::jthread helper([&] {
                try {
                    secondRoot =
                        buildBinary(source, first + leftCount, count - leftCount, secondHalf, threads / 2);
                } catch (...) {
                    helperFailure = std::current_exception();
                }
            });
            left = buildBinary(source, first, leftCount, binary, threads - threads / 2);
        }
        if (helperFailure) std::rethrow_exception(helperFailure);
        const auto offset = std::int32_t(binary.size());
        for (Built node : secondHalf) {
            if (node.children[0] >= 0)
                for (std::int32_t& child : node.children)
                    child += offset;
            binary.push_back(node);
        }
        right = secondRoot + offset;
    } else {
        // One after the other, each with all the threads.
        left = buildBinary(source, first, leftCount, binary, threads);
        right = buildBinary(source, first + leftCount, count - leftCount, binary, threads);
    }
    binary[std::size_t(index)].children[0] = left;
    binary[std::size_t(index)].children[1] = right;
    return index;
}

// The four-wide node for a binary subtree: its children, each opened (an inner node into its two
// children, a leaf into its items unless leaves are items) while they fit in four, the largest box
// first; then each child left a subtree becomes a node in turn, or an item if it is a leaf. Returns the
// node's slot.
WideBvh::Slot WideBvh::fold(std::int32_t binaryIndex, const std::vector<Built>& binary,
                            std::span<const Aabb<Scalar>> boxes, Items items, std::size_t depth) {
    // A walk keeps at most 3 children per node above the one it is at, and writes one above the top.
    keptCapacity_ = std::max(keptCapacity_, 3 * depth + 4);
    struct Child {
        Aabb<Scalar> box;
        bool isItem;
        std::int32_t index;  // into binary, or the item order
    };
    std::array<Child, 4> children{};
    int count = 0;
    const auto isLeaf = [&](const Child& child) { return binary[std::size_t(child.index)].children[0] < 0; };
    const auto opens = [&](const Child& child) {
        return !child.isItem && !(items == Items::Leaves && isLeaf(child));
    };
    const auto childrenOf = [&](const Built& subtree) { return subtree.children[0] < 0 ? subtree.count : 2; };
    // Replaces children[at] by the subtree's children: the first in its place, the others after the rest.
    const auto open = [&](int at) {
        const Built& subtree = binary[std::size_t(children[std::size_t(at)].index)];
        std::array<Child, 4> inside{};
        int insideCount = 0;
        if (subtree.children[0] < 0) {
            for (std::int32_t i = subtree.first; i < subtree.first + subtree.count; ++i)
                inside[std::size_t(insideCount++)] = {boxes[std::size_t(order_[std::size_t(i)])], true, i};
        } else {
            for (const std::int32_t child : subtree.children)
                inside[std::size_t(insideCount++)] = {binary[std::size_t(child)].box, false, child};
        }
        children[std::size_t(at)] = inside[0];
        for (int i = 1; i < insideCount; ++i)
            children[std::size_t(count++)] = inside[std::size_t(i)];
    };
    children[0] = {binary[std::size_t(binaryIndex)].box, false, binaryIndex};
    count = 1;
    for (;;) {
        int widest = -1;
        double widestArea = -1;
        for (int i = 0; i < count; ++i) {
            const Child& child = children[std::size_t(i)];
            if (!opens(child) || count - 1 + childrenOf(binary[std::size_t(child.index)]) > 4) continue;
            const double area = halfArea(child.box);
            if (area > widestArea) {
                widestArea = area;
                widest = i;
            }
        }
        if (widest < 0) break;
        open(widest);
    }
    const auto index = std::int32_t(nodes_.size());
    nodes_.emplace_back();
    std::array<Aabb<float>, 4> childBoxes;
    childBoxes.fill(laneBox(emptyBox(), rayReach_));  // empty slots: met by no ray
    std::array<glm::dvec3, 4> centres;
    Node node{};
    for (int i = 0; i < count; ++i) {
        const Child& child = children[std::size_t(i)];
        childBoxes[std::size_t(i)] = laneBox(child.box, rayReach_);
        centres[std::size_t(i)] = centreOf(child.box);
        if (child.isItem) {
            node.children[i] = Slot{~child.index};
        } else if (items == Items::Leaves && isLeaf(child)) {
            const Built& leaf = binary[std::size_t(child.index)];
            node.children[i] = Slot{~std::int32_t(leaves_.size())};
            leaves_.push_back({leaf.first, leaf.count});
        } else {
            node.children[i] = fold(child.index, binary, boxes, items, depth + 1);
        }
    }
    node.boxes = toLanes(childBoxes);
    const auto orders = ordersAlongDiagonals(std::span(centres).first(std::size_t(count)));
    std::copy(orders.begin(), orders.end(), node.orders);
    nodes_[std::size_t(index)] = node;
    return Slot{index};
}

}  // namespace analytic::cast
