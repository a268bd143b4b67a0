// SPDX-License-Identifier: Zlib
// The slab test of ray_box.hpp on four boxes at once, for the four-wide trees' nodes (wide_bvh.hpp).
#pragma once

#include <array>
#include <cstddef>
#include <cstring>
#include <limits>

#include "analytic/geometry/ray_box.hpp"
#include "cast/lanes.hpp"

namespace analytic::cast {

// Four boxes side by side (structure of arrays, see lanes.hpp), for testing a ray against the four at
// once, as a four-wide tree's children: lane l of part p of bounds[side][axis] is box p * partLanes + l's
// low (side 0) or high (side 1) bound on that axis. Every lane's box is ordered (min <= max) and free of
// NaN, or the empty slot (+inf to -inf), which no ray meets.
template <class T> struct AabbLanes : FourLanes<T> {
    using typename FourLanes<T>::Lanes;
    using FourLanes<T>::parts;
    Lanes bounds[2][3][parts];
};

// The four boxes as lanes.
template <class T> AabbLanes<T> toLanes(const std::array<Aabb<T>, 4>& boxes) {
    AabbLanes<T> lanes;
    for (int box = 0; box < 4; ++box) {
        const int part = box / AabbLanes<T>::partLanes, lane = box % AabbLanes<T>::partLanes;
        for (int axis = 0; axis < 3; ++axis) {
            lanes.bounds[0][axis][part][lane] = boxes[std::size_t(box)].min[axis];
            lanes.bounds[1][axis][part][lane] = boxes[std::size_t(box)].max[axis];
        }
    }
    return lanes;
}

// A SlabRay spread over lanes once, for the many nodes one ray meets: the origin and reciprocal
// direction in every lane, and where each axis's near and far bounds lie in an AabbLanes (the side the
// ray enters that slab through, picked once per ray, as byte offsets: a node's loads then need no index
// arithmetic).
template <class T> struct SlabRayLanes {
    using Lanes = typename AabbLanes<T>::Lanes;
    Lanes origin[3];
    Lanes inverseDirection[3];
    std::ptrdiff_t nearBounds[3];  // of part 0, in bytes from the AabbLanes' start
    std::ptrdiff_t farBounds[3];
    // Bit axis set when the ray enters that axis's slab through its high side (its direction negative
    // there, -0 included): the octant of directions it belongs to.
    unsigned octant = 0;

    explicit SlabRayLanes(const SlabRay<T>& ray) : SlabRayLanes(ray.origin, ray.inverseDirection) {}

    // From a ray's origin and reciprocal direction in any precision, each rounded to T.
    template <class U> SlabRayLanes(const Vec3<U>& rayOrigin, const Vec3<U>& rayInverseDirection) {
        constexpr auto sideBytes = std::ptrdiff_t(sizeof(AabbLanes<T>::bounds[0]));
        constexpr auto axisBytes = std::ptrdiff_t(sizeof(AabbLanes<T>::bounds[0][0]));
        for (int axis = 0; axis < 3; ++axis) {
            origin[axis] = Lanes{} + T(rayOrigin[axis]);
            inverseDirection[axis] = Lanes{} + T(rayInverseDirection[axis]);
            const bool throughHigh = analytic::detail::entersThroughHigh(rayInverseDirection, axis);
            nearBounds[axis] = (throughHigh ? sideBytes : 0) + axis * axisBytes;
            farBounds[axis] = (throughHigh ? 0 : sideBytes) + axis * axisBytes;
            octant |= unsigned(throughHigh) << axis;
        }
    }
};

// A sphere's centre path as the four-wide walks take it: the boxes grown by the radius on every side (per
// axis: a sphere in a scaled frame), which moves each slab's near bound toward the origin and its far bound
// away from it: the same test with the origin moved by the growth toward the near side, and away from the
// far side.
template <class T> struct GrownSlabLanes : SlabRayLanes<T> {
    using typename SlabRayLanes<T>::Lanes;
    Lanes nearOrigin[3];
    Lanes farOrigin[3];

    template <class U>
    GrownSlabLanes(const Vec3<U>& origin, const Vec3<U>& inverseDirection, const Vec3<U>& growth)
        : SlabRayLanes<T>(origin, inverseDirection) {
        for (int axis = 0; axis < 3; ++axis) {
            const U toward =
                analytic::detail::entersThroughHigh(inverseDirection, axis) ? -growth[axis] : growth[axis];
            nearOrigin[axis] = Lanes{} + T(origin[axis] + toward);
            farOrigin[axis] = Lanes{} + T(origin[axis] - toward);
        }
    }
};

namespace detail {

// The slab test of four boxes against a ray whose near and far bounds are taken from these origins.
template <class T>
[[gnu::always_inline]] inline unsigned entriesIntoAabbs(const SlabRayLanes<T>& ray,
                                                        const typename AabbLanes<T>::Lanes (&nearOrigin)[3],
                                                        const typename AabbLanes<T>::Lanes (&farOrigin)[3],
                                                        T maxT, const AabbLanes<T>& boxes, T (&entries)[4]) {
    using Lanes = typename AabbLanes<T>::Lanes;
    const auto bounds = [&](std::ptrdiff_t offset, int part) {
        return *reinterpret_cast<const Lanes*>(reinterpret_cast<const char*>(&boxes.bounds[0][0][part]) +
                                               offset);
    };
    unsigned met = 0;
    for (int part = 0; part < AabbLanes<T>::parts; ++part) {
        Lanes entry = Lanes{} * T(0), exit = Lanes{} + maxT;
        for (int axis = 0; axis < 3; ++axis) {
            const Lanes near =
                (bounds(ray.nearBounds[axis], part) - nearOrigin[axis]) * ray.inverseDirection[axis];
            const Lanes far =
                (bounds(ray.farBounds[axis], part) - farOrigin[axis]) * ray.inverseDirection[axis];
            entry = near > entry ? near : entry;  // NaN (0 * inf) leaves the bound, as in rayEntryIntoAabb
            exit = far < exit ? far : exit;
        }
        const auto isMet = entry <= exit;
        const Lanes result = isMet ? entry : Lanes{} + std::numeric_limits<T>::infinity();
        std::memcpy(entries + part * AabbLanes<T>::partLanes, &result, sizeof result);
        met |= detail::signBits(Lanes(isMet)) << (part * AabbLanes<T>::partLanes);
    }
    return met;
}

}  // namespace detail

// rayEntryIntoAabb for the four boxes at once, with maxT for the ray's, lane by lane the same arithmetic
// (so the same entries, bit for bit): returns the boxes met as bits (bit i: box i), and sets entries[i]
// for those met, +inf for the others.
template <class T>
[[gnu::always_inline]] inline unsigned rayEntriesIntoAabbs(const SlabRayLanes<T>& ray, T maxT,
                                                           const AabbLanes<T>& boxes, T (&entries)[4]) {
    return detail::entriesIntoAabbs(ray, ray.origin, ray.origin, maxT, boxes, entries);
}

// The same for the boxes grown as the path's lanes say.
template <class T>
[[gnu::always_inline]] inline unsigned rayEntriesIntoAabbs(const GrownSlabLanes<T>& path, T maxT,
                                                           const AabbLanes<T>& boxes, T (&entries)[4]) {
    return detail::entriesIntoAabbs(path, path.nearOrigin, path.farOrigin, maxT, boxes, entries);
}

}  // namespace analytic::cast
