// SPDX-License-Identifier: Zlib
// Reference for ray vs boxes, independent of the core: a box is three slabs
// {x : low <= axis . (x - center) <= high} in world space, and the ray's line is clipped against them
// with an explicit case analysis (a parallel line is inside or outside a slab, never a NaN), all in
// long double. The axes are the rotation's columns for an OBB and the unit axes for an AABB.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "support/test_support.hpp"

namespace analytic::test::reference {

struct SlabBox {
    RealVec3 center;
    std::array<RealVec3, 3> axes;
    std::array<Real, 3> low;
    std::array<Real, 3> high;
};

template <class T> SlabBox slabBox(const Aabb<T>& box) {
    const RealVec3 min = widen(box.min), max = widen(box.max);
    return {RealVec3(0),
            {RealVec3(1, 0, 0), RealVec3(0, 1, 0), RealVec3(0, 0, 1)},
            {min.x, min.y, min.z},
            {max.x, max.y, max.z}};
}

template <class T> SlabBox slabBox(const Obb<T>& box) {
    const Mat3<Real> rotation = widen(box.rotation);
    const RealVec3 half = widen(box.halfExtents);
    return {widen(box.center),
            {rotation[0], rotation[1], rotation[2]},
            {-half.x, -half.y, -half.z},
            {half.x, half.y, half.z}};
}

// The same box with every slab that the direction is not parallel to moved outwards by margin on both
// sides (inwards for a negative margin). Slabs parallel to the ray keep their planes: whether the line
// lies in one is decided exactly (by the sign of plane - origin), so no band is needed there.
inline SlabBox grown(SlabBox box, const RealVec3& direction, Real margin) {
    for (int axis = 0; axis < 3; ++axis) {
        if (glm::dot(box.axes[axis], direction) == 0) continue;
        box.low[axis] -= margin;
        box.high[axis] += margin;
    }
    return box;
}

struct LineCrossing {
    bool meets = false;  // the line meets the box: [entry, exit] is not empty
    Real entry = -std::numeric_limits<Real>::infinity();
    Real exit = std::numeric_limits<Real>::infinity();
    int entryAxis = -1;
    int exitAxis = -1;
    bool entryHigh = false;  // entered through the high face of entryAxis
    bool exitHigh = false;
};

// Where the line origin + t direction is inside the box, by cases on each slab.
inline LineCrossing crossLine(const SlabBox& box, const RealVec3& origin, const RealVec3& direction) {
    LineCrossing crossing;
    const RealVec3 relative = origin - box.center;
    for (int axis = 0; axis < 3; ++axis) {
        const Real position = glm::dot(box.axes[axis], relative);
        const Real speed = glm::dot(box.axes[axis], direction);
        if (speed == 0) {
            if (position < box.low[axis] || position > box.high[axis]) return crossing;  // outside, parallel
            continue;                                                                    // inside, parallel
        }
        const Real tLow = (box.low[axis] - position) / speed;
        const Real tHigh = (box.high[axis] - position) / speed;
        const bool entersHigh = speed < 0;
        const Real near = entersHigh ? tHigh : tLow;
        const Real far = entersHigh ? tLow : tHigh;
        if (near > crossing.entry) {
            crossing.entry = near;
            crossing.entryAxis = axis;
            crossing.entryHigh = entersHigh;
        }
        if (far < crossing.exit) {
            crossing.exit = far;
            crossing.exitAxis = axis;
            crossing.exitHigh = !entersHigh;
        }
    }
    crossing.meets = crossing.entry <= crossing.exit;
    return crossing;
}

// The ray over [tLow, tHigh] meets the box.
inline bool rayMeets(const SlabBox& box, const RealVec3& origin, const RealVec3& direction, Real tLow,
                     Real tHigh) {
    const LineCrossing crossing = crossLine(box, origin, direction);
    return crossing.meets && crossing.exit >= tLow && crossing.entry <= tHigh;
}

enum class Expect { Hit, Miss, Either };

// Hit or miss, or Either when moving the box's faces (see grown) or the ray's end points by margin (a
// distance) changes the answer: the tangency band inside which rounding may decide either way.
inline Expect expectedHit(const SlabBox& box, const RealVec3& origin, const RealVec3& direction, Real maxT,
                          Real margin) {
    const Real tMargin = margin / glm::length(direction);
    const bool loose = rayMeets(grown(box, direction, margin), origin, direction, -tMargin, maxT + tMargin);
    const bool tight = rayMeets(grown(box, direction, -margin), origin, direction, tMargin, maxT - tMargin);
    if (loose == tight) return loose ? Expect::Hit : Expect::Miss;
    return Expect::Either;
}

// Distance (in the slab's own units) from the point at parameter t to the nearest face plane of each
// slab other than skipAxis: small means the point is near an edge or corner of the box.
inline Real distanceToOtherFaces(const SlabBox& box, const RealVec3& origin, const RealVec3& direction,
                                 Real t, int skipAxis) {
    const RealVec3 point = origin + t * direction - box.center;
    Real nearest = std::numeric_limits<Real>::infinity();
    for (int axis = 0; axis < 3; ++axis) {
        if (axis == skipAxis) continue;
        const Real position = glm::dot(box.axes[axis], point);
        nearest =
            std::min({nearest, std::abs(position - box.low[axis]), std::abs(position - box.high[axis])});
    }
    return nearest;
}

inline RealVec3 faceNormal(const SlabBox& box, int axis, bool high) {
    return high ? box.axes[axis] : -box.axes[axis];
}

}  // namespace analytic::test::reference
