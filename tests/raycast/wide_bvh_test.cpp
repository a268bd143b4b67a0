// SPDX-License-Identifier: Zlib
// The four-wide tree the batches and cached mesh trees walk (plugin/src/cast/wide_bvh.hpp), in the
// build's btScalar: its nodes keep the boxes in float, grown for the rounding of a walk in float, so the
// walk must still visit every box a covered segment touches (or, naming leaves, every leaf holding one)
// by the exact (long double) closed-box test:
// segments through a box's face, edge or corner points (touching it only there, or passing through),
// from near and far, boxes tiny or large and far from the origin; and visit each item at most once.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <vector>

#include "cast/wide_bvh.hpp"
#include "support/test_support.hpp"

namespace analytic::cast {
namespace {

using test::Real;
using test::RealVec3;

// Whether the segment origin + t direction, t in [0, 1], touches the closed box, in long double.
bool touches(const RayPath<Scalar>& segment, const Aabb<Scalar>& box) {
    Real low = 0, high = 1;
    for (int axis = 0; axis < 3; ++axis) {
        const Real origin = segment.origin[axis], direction = segment.direction[axis];
        const Real boxMin = box.min[axis], boxMax = box.max[axis];
        if (direction == 0) {
            if (origin < boxMin || origin > boxMax) return false;
            continue;
        }
        const Real near = (boxMin - origin) / direction, far = (boxMax - origin) / direction;
        low = std::max(low, std::min(near, far));
        high = std::min(high, std::max(near, far));
    }
    return low <= high;
}

// A point of the box's surface: on a face, an edge or a corner, with coordinates exactly on it.
Vec3<Scalar> surfacePoint(test::Random& random, const Aabb<Scalar>& box) {
    Vec3<Scalar> point;
    for (int axis = 0; axis < 3; ++axis)
        point[axis] = Scalar(random.uniform(double(box.min[axis]), double(box.max[axis])));
    const int fixedAxes = 1 + int(random.uniform(0, 3));  // face, edge or corner
    for (int k = 0; k < fixedAxes; ++k) {
        const int axis = (k + int(random.uniform(0, 3))) % 3;
        point[axis] = random.chance(0.5) ? box.min[axis] : box.max[axis];
    }
    return glm::clamp(point, box.min, box.max);
}

// With Items::Leaves, each box lies in exactly one leaf, of 1 to leafSize boxes.
void expectLeavesPartitionTheBoxes(const WideBvh& tree, std::size_t boxCount, std::int32_t leafSize) {
    std::vector<int> leavesOf(boxCount, 0);
    for (const WideBvh::Leaf& leaf : tree.leaves()) {
        EXPECT_TRUE(leaf.count >= 1 && leaf.count <= leafSize) << leaf.count;
        for (std::int32_t i = leaf.first; i < leaf.first + leaf.count; ++i)
            ++leavesOf[std::size_t(tree.order()[std::size_t(i)])];
    }
    EXPECT_EQ(std::count(leavesOf.begin(), leavesOf.end(), 1), std::ptrdiff_t(boxCount));
}

TEST(WideBvh, VisitsEveryBoxACoveredSegmentTouches) {
    test::Random random(17);
    int touched = 0, checked = 0;
    for (int world = 0; world < 40; ++world) {
        // Boxes of one size class at one distance from the origin: tiny boxes far out are where float
        // rounding of the nodes and of the ray moves their faces most.
        const double size = random.logUniform(1e-3, 1e2), distance = size * random.logUniform(1, 1e4);
        const Vec3<double> centre = random.unitVector<double>() * distance;
        std::vector<Aabb<Scalar>> boxes;
        for (int i = 0; i < 200; ++i) {
            const Vec3<double> at = centre + random.point<double>(20 * size);
            const Vec3<double> half(random.uniform(0.05, 1) * size, random.uniform(0.05, 1) * size,
                                    random.uniform(0.05, 1) * size);
            boxes.push_back({Vec3<Scalar>(at - half), Vec3<Scalar>(at + half)});
        }
        std::vector<RayPath<Scalar>> segments;
        Scalar reach = 0;
        for (int k = 0; k < 300; ++k) {
            // Through a surface point of a random box, from near or far, on past it or ending there.
            const Aabb<Scalar>& aimed = boxes[std::size_t(random.uniform(0, double(boxes.size())))];
            const Vec3<Scalar> target = surfacePoint(random, aimed);
            const Vec3<Scalar> origin =
                target + Vec3<Scalar>(random.unitVector<double>() * (size * random.logUniform(1e-2, 1e3)));
            const Scalar beyond = random.chance(0.5) ? Scalar(1) : Scalar(random.uniform(1, 3));
            const RayPath<Scalar> segment{origin, (target - origin) * beyond, 1};
            if (!isValidRay(segment)) continue;
            segments.push_back(segment);
            reach = std::max(reach, maxAbsComponent(segment.origin) + maxAbsComponent(segment.direction));
        }
        const WideBvh tree(boxes, reach);
        const std::int32_t leafSize = 4 + world % 5;
        const WideBvh leafTree(boxes, reach, 1, WideBvh::Items::Leaves, leafSize);
        expectLeavesPartitionTheBoxes(leafTree, boxes.size(), leafSize);
        for (const RayPath<Scalar>& segment : segments) {
            ASSERT_TRUE(tree.covers(segment));
            std::vector<int> visits(boxes.size(), 0), leafVisits(boxes.size(), 0);
            tree.walk(
                WideBvh::lanesOf(segment.origin, segment.direction), [] { return Scalar(1); },
                [&](std::size_t item) {
                    ++visits[std::size_t(tree.order()[item])];
                    return true;
                },
                visits.data());
            // A leaf's visit stands for its boxes'.
            leafTree.walk(
                WideBvh::lanesOf(segment.origin, segment.direction), [] { return Scalar(1); },
                [&](std::size_t leaf) {
                    const WideBvh::Leaf& items = leafTree.leaves()[leaf];
                    for (std::int32_t i = items.first; i < items.first + items.count; ++i)
                        ++leafVisits[std::size_t(leafTree.order()[std::size_t(i)])];
                    return true;
                },
                leafTree.leaves().data());
            for (std::size_t i = 0; i < boxes.size(); ++i) {
                EXPECT_LE(visits[i], 1) << "box " << i << " visited twice";
                EXPECT_LE(leafVisits[i], 1) << "box " << i << "'s leaf visited twice";
                if (!touches(segment, boxes[i])) continue;
                ++touched;
                EXPECT_EQ(visits[i], 1) << "box " << i << " touched but not visited, world " << world;
                EXPECT_EQ(leafVisits[i], 1) << "box " << i << " touched but its leaf not visited";
            }
            ++checked;
        }
    }
    EXPECT_GT(checked, 10000);
    EXPECT_GT(touched, checked / 2);  // most touch the box they are aimed at (ends round off it)
}

// The walk's order of one segment: the items it visits, in order.
std::vector<std::size_t> visitOrder(const WideBvh& tree, const RayPath<Scalar>& segment) {
    std::vector<std::size_t> visited;
    tree.walk(
        WideBvh::lanesOf(segment.origin, segment.direction), [] { return Scalar(1); },
        [&](std::size_t item) {
            visited.push_back(item);
            return true;
        });
    return visited;
}

// Built on several threads, the tree is the one built on one: the same item order, the same walks. The
// boxes are many, so that both halves of several subtrees are built at once, with a box spanning all
// (a plane's) beside them, as a world's snapshot has.
TEST(WideBvh, IsTheSameTreeWhateverTheThreads) {
    test::Random random(23);
    std::vector<Aabb<Scalar>> boxes;
    for (int i = 0; i < 20000; ++i) {
        const Vec3<double> at = random.point<double>(100);
        const Vec3<double> half(random.uniform(0.5, 2), random.uniform(0.5, 2), random.uniform(0.5, 2));
        boxes.push_back({Vec3<Scalar>(at - half), Vec3<Scalar>(at + half)});
    }
    boxes.push_back({Vec3<Scalar>(-1e6, -101, -1e6), Vec3<Scalar>(1e6, -100, 1e6)});
    const WideBvh oneThread(boxes, 1e3, 1);
    for (const unsigned threads : {2u, 3u, 8u}) {
        const WideBvh manyThreads(boxes, 1e3, threads);
        ASSERT_EQ(manyThreads.order(), oneThread.order()) << threads << " threads";
        int met = 0;
        for (int k = 0; k < 2000; ++k) {
            const RayPath<Scalar> segment{Vec3<Scalar>(random.point<double>(100)),
                                          Vec3<Scalar>(random.unitVector<double>() * 200.0), 1};
            const std::vector<std::size_t> visited = visitOrder(oneThread, segment);
            met += !visited.empty();
            ASSERT_EQ(visitOrder(manyThreads, segment), visited) << threads << " threads, segment " << k;
        }
        EXPECT_GT(met, 1000);
    }
}

// Boxes in a row along a direction of any octant, and segments along the row each way: the walk's
// orders (each node's children along its octant's diagonal) visit them from the segment's origin on, one
// after the other.
TEST(WideBvh, VisitsBoxesInARowFromNearToFar) {
    test::Random random(29);
    for (int row = 0; row < 50; ++row) {
        const Vec3<double> along = random.unitVector<double>(), start = random.point<double>(50);
        std::vector<Aabb<Scalar>> boxes;
        for (int i = 0; i < 300; ++i) {
            const Vec3<double> centre = start + double(i) * along;
            boxes.push_back({Vec3<Scalar>(centre - 0.3), Vec3<Scalar>(centre + 0.3)});
        }
        const WideBvh tree(boxes, 1e3);
        const Vec3<double> before = start - 5.0 * along, after = start + 305.0 * along;
        for (const bool forward : {true, false}) {
            const Vec3<double> origin = forward ? before : after;
            const RayPath<Scalar> segment{Vec3<Scalar>(origin),
                                          Vec3<Scalar>((forward ? after : before) - origin), 1};
            std::vector<std::int32_t> visited;
            for (const std::size_t item : visitOrder(tree, segment))
                visited.push_back(tree.order()[item]);
            ASSERT_EQ(visited.size(), boxes.size()) << "row " << row;
            const auto nearToFar = [&](std::int32_t a, std::int32_t b) { return forward ? a < b : a > b; };
            EXPECT_TRUE(std::is_sorted(visited.begin(), visited.end(), nearToFar))
                << "row " << row << (forward ? " forward" : " backward");
        }
    }
}

// Boxes nested in one another, each half again as large as the one before: the tree splits the largest
// off at every level, so it is far deeper than a balanced one (more children kept at once than a walk
// keeps on the call stack). A walk still visits every box a segment touches, each once.
TEST(WideBvh, VisitsEveryTouchedBoxOfADeepTree) {
    test::Random random(31);
    std::vector<Aabb<Scalar>> boxes;
    for (int i = 0; i < 150; ++i) {
        const Vec3<double> centre(0.1 * i, -0.05 * i, 0.02 * i);
        const double half = std::pow(1.5, i);
        boxes.push_back({Vec3<Scalar>(centre - half), Vec3<Scalar>(centre + half)});
    }
    const Scalar reach = 1e4;
    const WideBvh tree(boxes, reach);
    int touched = 0;
    for (int k = 0; k < 200; ++k) {
        const RayPath<Scalar> segment{Vec3<Scalar>(random.point<double>(50)),
                                      Vec3<Scalar>(random.unitVector<double>() * random.logUniform(1, 1e3)),
                                      1};
        ASSERT_TRUE(tree.covers(segment));
        std::vector<int> visits(boxes.size(), 0);
        tree.walk(
            WideBvh::lanesOf(segment.origin, segment.direction), [] { return Scalar(1); },
            [&](std::size_t item) {
                ++visits[std::size_t(tree.order()[item])];
                return true;
            });
        for (std::size_t i = 0; i < boxes.size(); ++i) {
            EXPECT_LE(visits[i], 1) << "box " << i << " visited twice, segment " << k;
            if (!touches(segment, boxes[i])) continue;
            ++touched;
            EXPECT_EQ(visits[i], 1) << "box " << i << " touched but not visited, segment " << k;
        }
    }
    EXPECT_GT(touched, 200 * 100);
}

// A leaf of boxes is opened into its node's four slots, so it holds at most four; a leaf named as an item
// may hold more, but never none.
TEST(WideBvh, RejectsLeafSizesItCannotBuild) {
    const std::vector<Aabb<Scalar>> boxes{{{0, 0, 0}, {1, 1, 1}}};
    EXPECT_THROW(WideBvh(boxes, 1, 1, WideBvh::Items::Boxes, 5), std::invalid_argument);
    EXPECT_THROW(WideBvh(boxes, 1, 1, WideBvh::Items::Leaves, 0), std::invalid_argument);
    EXPECT_NO_THROW(WideBvh(boxes, 1, 1, WideBvh::Items::Leaves, 8));
}

// A caller's test of what a leaf may hold together (a mesh's leaf packs its triangles' vertices into
// fixed room): every leaf passes it, or holds a single box, and the leaves still partition the boxes;
// built on several threads, which call the test at once.
TEST(WideBvh, LeavesHoldOnlyBoxesTheCallerAcceptsTogether) {
    test::Random random(29);
    std::vector<Aabb<Scalar>> boxes;
    for (int i = 0; i < 5000; ++i) {
        const Vec3<double> at = random.point<double>(100);
        boxes.push_back({Vec3<Scalar>(at - 0.5), Vec3<Scalar>(at + 0.5)});
    }
    const auto weight = [](std::int32_t box) { return 1 + box % 3; };
    const auto fits = [&](std::span<const std::int32_t> items) {
        int total = 0;
        for (const std::int32_t box : items)
            total += weight(box);
        return total <= 6;
    };
    const std::int32_t leafSize = 8;
    const WideBvh tree(boxes, 200, 4, WideBvh::Items::Leaves, leafSize, fits);
    expectLeavesPartitionTheBoxes(tree, boxes.size(), leafSize);
    std::size_t grouped = 0;
    for (const WideBvh::Leaf& leaf : tree.leaves()) {
        const auto items = std::span(tree.order()).subspan(std::size_t(leaf.first), std::size_t(leaf.count));
        EXPECT_TRUE(items.size() == 1 || fits(items));
        grouped += items.size() > 1;
    }
    EXPECT_GT(grouped, tree.leaves().size() / 2);
    // Nothing fits together: a leaf per box.
    const WideBvh single(boxes, 200, 1, WideBvh::Items::Leaves, leafSize,
                         [](std::span<const std::int32_t> items) { return items.size() < 2; });
    EXPECT_EQ(single.leaves().size(), boxes.size());
}

// A ray whose coordinates exceed the reach the tree was grown for is not covered.
TEST(WideBvh, RaysBeyondTheReachAreNotCovered) {
    const std::vector<Aabb<Scalar>> boxes{{{0, 0, 0}, {1, 1, 1}}};
    const WideBvh tree(boxes, 10);
    EXPECT_TRUE(tree.covers(RayPath<Scalar>{{2, 0, 0}, {-4, 1, 1}, 1}));
    EXPECT_FALSE(tree.covers(RayPath<Scalar>{{20, 0, 0}, {-4, 1, 1}, 1}));
}

}  // namespace
}  // namespace analytic::cast
