// SPDX-License-Identifier: Zlib
// Ray against axis-aligned and oriented boxes: the slab method on a precomputed reciprocal direction,
// branch-free in the per-box part (Tavian Barnes, "Fast, Branchless Ray/Bounding Box Intersections",
// parts 1-3).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// A ray prepared once for testing against many boxes (broadphase traversal): the reciprocal direction
// is computed here, so each box costs multiplications only. A zero direction component gives an
// infinite reciprocal, which the slab test turns into "parallel to that slab". Components so small
// that the reciprocal overflows (below 2^-128 for float, 2^-1024 for double) count as zero too.
template <class T> struct SlabRay {
    Vec3<T> origin;            // the ray's
    Vec3<T> direction;         // the ray's
    Vec3<T> inverseDirection;  // 1 / direction, per component
    T maxT;                    // a traversal may shrink it to the closest hit found so far
};

// The ray prepared for many box tests: origin, direction and maxT as given, the reciprocal direction
// computed once (t keeps its meaning: multiples of the direction, which need not be unit). Not checked:
// the ray must be valid (isValidRay); for another, what the box tests answer is unspecified. makeSlabRay
// checks. Made in the caller's variable: a walk that copied it out of an optional just made would wait
// on the copy (a store-forwarding stall).
template <class T> SlabRay<T> slabRayOf(const RayPath<T>& ray) {
    return {ray.origin, ray.direction, T(1) / ray.direction, ray.maxT};
}

namespace detail {

// The parameters t of the line origin + t * direction that lie in all three slabs low <= x <= high:
// [entry, exit], empty when entry > exit. entryAxis / exitAxis name the slab that sets each bound;
// when a line leaves through an edge or corner the lowest axis wins (x before y before z).
template <class T> struct SlabSpan {
    T entry;
    T exit;
    int entryAxis;
    int exitAxis;
};

// Whether the slab on this axis is entered through its high plane (the direction is negative there).
template <class T> bool entersThroughHigh(const Vec3<T>& inverseDirection, int axis) {
    return std::signbit(inverseDirection[axis]);
}

template <class T> SlabSpan<T> clipLineToSlabs(const Vec3<T>& origin, const Vec3<T>& inverseDirection,
                                               const Vec3<T>& low, const Vec3<T>& high) {
    constexpr T infinity = std::numeric_limits<T>::infinity();
    SlabSpan<T> span{-infinity, infinity, 0, 0};
    for (int axis = 0; axis < 3; ++axis) {
        // Picking the near plane by the sign of the direction gives near <= far without a min/max.
        const bool throughHigh = entersThroughHigh(inverseDirection, axis);
        const T nearPlane = throughHigh ? high[axis] : low[axis];
        const T farPlane = throughHigh ? low[axis] : high[axis];
        const T near = (nearPlane - origin[axis]) * inverseDirection[axis];
        const T far = (farPlane - origin[axis]) * inverseDirection[axis];
        // A line parallel to the slab gives +-inf (inside or outside it) or, when it lies in a bounding
        // plane, 0 * inf = NaN. NaN compares false and leaves the span unchanged: the closed slab holds
        // that line. The strict comparisons also keep the lowest axis on ties.
        if (near > span.entry) {
            span.entry = near;
            span.entryAxis = axis;
        }
        if (far < span.exit) {
            span.exit = far;
            span.exitAxis = axis;
        }
    }
    return span;
}

// Whether the line's span inside the box overlaps the ray's [0, maxT].
template <class T> bool spanMeetsRay(const SlabSpan<T>& span, T maxT) {
    return span.entry <= span.exit && span.exit >= T(0) && span.entry <= maxT;
}

// Entry and exit of a box crossing. faceHit(t, axis, highFace) gives the SurfaceHit on that face.
// A t that overflowed (subnormal direction, coordinates near the largest finite value), or a point within
// [0, maxT] that did (a direction whose multiples leave the scalar's range), is no hit.
template <class T, class FaceHit> std::optional<RaySolidHit<T>> slabSolidHit(const SlabSpan<T>& span, T maxT,
                                                                             const Vec3<T>& inverseDirection,
                                                                             FaceHit faceHit) {
    if (!spanMeetsRay(span, maxT) || !isFinite(span.entry) || !isFinite(span.exit)) return std::nullopt;
    const bool entryHigh = entersThroughHigh(inverseDirection, span.entryAxis);
    const bool exitHigh = !entersThroughHigh(inverseDirection, span.exitAxis);
    return withFinitePoints(RaySolidHit<T>{faceHit(span.entry, span.entryAxis, entryHigh),
                                           faceHit(span.exit, span.exitAxis, exitHigh), span.entry < T(0)},
                            maxT);
}

}  // namespace detail

// The ray prepared as slabRayOf does, or nullopt for a ray isValidRay rejects: a NaN or an infinity in
// origin or direction, a zero direction, maxT < 0 or NaN (+infinity is fine). The per-box tests then
// need no checks of the ray.
template <class T> std::optional<SlabRay<T>> makeSlabRay(const RayPath<T>& ray) {
    if (!isValidRay(ray)) return std::nullopt;
    return slabRayOf(ray);
}

// Broadphase traversal form: where the ray enters the closed box within [0, maxT], without points or
// normals. Direction: need not be unit; t is in multiples of it (ray.maxT is ignored for maxT).
// Range: the entry t in [0, maxT]. Miss: NaN, so that entry <= maxT fails for any maxT, an infinite one
// included. Start inside or on the surface: 0. A ray that only touches a face, edge or corner hits, and
// one lying in a face's plane is inside that slab (0 * inf = NaN there leaves the bounds as they were).
// Invalid input: the ray is not checked (make it with makeSlabRay). Infinite bounds are honoured; a NaN
// bound, min > max on an axis (an empty box), or maxT < 0 or NaN give NaN.
// Branch-free: the near and far planes are picked by the direction's signs. maxT is apart from the ray
// so that a walk shrinking it keeps one ray, not a copy per step (a copy of a struct just written is a
// store-forwarding stall).
template <class T>
[[gnu::always_inline]] inline T rayEntryIntoAabb(const SlabRay<T>& ray, T maxT, const Aabb<T>& box) {
    T entry = T(0), exit = maxT;
    for (int axis = 0; axis < 3; ++axis) {
        const bool throughHigh = detail::entersThroughHigh(ray.inverseDirection, axis);
        const T near =
            ((throughHigh ? box.max : box.min)[axis] - ray.origin[axis]) * ray.inverseDirection[axis];
        const T far =
            ((throughHigh ? box.min : box.max)[axis] - ray.origin[axis]) * ray.inverseDirection[axis];
        entry = near > entry ? near : entry;
        exit = far < exit ? far : exit;
    }
    const bool ordered = glm::all(glm::lessThanEqual(box.min, box.max));  // false for NaN
    return ordered && entry <= exit ? entry : std::numeric_limits<T>::quiet_NaN();
}

// rayEntryIntoAabb over the ray's own [0, ray.maxT]: the entry t, 0 from inside, NaN for a miss.
template <class T>
[[gnu::always_inline]] inline T rayEntryIntoAabb(const SlabRay<T>& ray, const Aabb<T>& box) {
    return rayEntryIntoAabb(ray, ray.maxT, box);
}

// Whether the ray, over [0, maxT], meets the closed box (rayEntryIntoAabb found an entry). Direction: need
// not be unit. True when the origin is inside or on the box and for a ray that only touches it. Invalid
// input as rayEntryIntoAabb (the ray unchecked; a NaN bound, an empty box, maxT < 0 or NaN): false.
template <class T> bool rayOverlapsAabb(const SlabRay<T>& ray, T maxT, const Aabb<T>& box) {
    return rayEntryIntoAabb(ray, maxT, box) <= maxT;
}

// rayOverlapsAabb over the ray's own [0, ray.maxT].
template <class T> bool rayOverlapsAabb(const SlabRay<T>& ray, const Aabb<T>& box) {
    return rayOverlapsAabb(ray, ray.maxT, box);
}

// Where the line of the prepared ray enters and leaves the closed box. Normals: the face's axis, +-x, +-y
// or +-z; where the line crosses an edge or corner, the lowest axis's face (x, then y, then z). Points
// lie on the box: the face coordinate exact, the others clamped into the box.
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT]; exit.t may exceed
// maxT. A ray that only touches a face, edge or corner hits; one lying in a face's
// plane is inside that slab.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out.
// Invalid input -> nullopt: a NaN or infinite bound; min > max on an axis (an empty box; min == max is a
// flat one, hit); a t that overflows (a tiny direction component, coordinates near the largest value), or
// a point within [0, maxT] that does. The ray is not checked (make it with makeSlabRay).
template <class T> std::optional<RaySolidHit<T>> intersectRayAabb(const SlabRay<T>& ray, const Aabb<T>& box) {
    if (!isFinite(box.min) || !isFinite(box.max)) return std::nullopt;
    const detail::SlabSpan<T> span =
        detail::clipLineToSlabs(ray.origin, ray.inverseDirection, box.min, box.max);
    return detail::slabSolidHit(span, ray.maxT, ray.inverseDirection, [&](T t, int axis, bool highFace) {
        // Selects rather than indexed writes: which axis wins is unpredictable, a branch would stall.
        const glm::vec<3, bool> onAxis = glm::equal(glm::ivec3(0, 1, 2), glm::ivec3(axis));
        const Vec3<T> face = highFace ? box.max : box.min;
        const Vec3<T> point =
            glm::mix(glm::clamp(ray.origin + t * ray.direction, box.min, box.max), face, onAxis);
        return SurfaceHit<T>{t, point, Vec3<T>(onAxis) * (highFace ? T(1) : T(-1))};
    });
}

// intersectRayAabb for an unprepared ray, the same answers; a ray isValidRay rejects (a NaN or an infinity
// in origin or direction, a zero direction, maxT < 0 or NaN) gets nullopt.
template <class T> std::optional<RaySolidHit<T>> intersectRayAabb(const RayPath<T>& ray, const Aabb<T>& box) {
    if (!isValidRay(ray)) return std::nullopt;
    return intersectRayAabb(slabRayOf(ray), box);
}

// Where the line of the ray enters and leaves the closed oriented box. Method: the ray is taken into the
// box's frame (transpose(rotation) undoes an orthonormal rotation) and clipped against the slabs
// -halfExtents..halfExtents; t is the same in both frames. Normals: +- the rotation's columns, the lowest
// axis's at an edge or corner. Points: ray.at(t), on the box within rounding.
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT]; exit.t may exceed
// maxT. A ray that only touches a face, edge or corner hits.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of the frame change).
// Invalid input -> nullopt: a ray isValidRay rejects (a NaN or an infinity in origin or direction, a zero
// direction, maxT < 0 or NaN); a NaN or an infinity in centre, rotation or half extents; a negative half
// extent (an empty box; 0 is a flat one, hit); a t or a point within [0, maxT] that overflows. Not
// checked: the rotation must be orthonormal; another matrix gives wrong t, points and normals.
template <class T> std::optional<RaySolidHit<T>> intersectRayObb(const RayPath<T>& ray, const Obb<T>& box) {
    if (!isValidRay(ray) || !isFinite(box.center) || !isFinite(box.halfExtents) ||
        !isFinite(box.rotation[0]) || !isFinite(box.rotation[1]) || !isFinite(box.rotation[2])) {
        return std::nullopt;
    }
    const Mat3<T> toLocal = glm::transpose(box.rotation);
    const Vec3<T> localOrigin = toLocal * (ray.origin - box.center);
    const Vec3<T> inverseLocalDirection = T(1) / (toLocal * ray.direction);
    const detail::SlabSpan<T> span =
        detail::clipLineToSlabs(localOrigin, inverseLocalDirection, -box.halfExtents, box.halfExtents);
    return detail::slabSolidHit(span, ray.maxT, inverseLocalDirection, [&](T t, int axis, bool highFace) {
        return SurfaceHit<T>{t, ray.at(t), highFace ? box.rotation[axis] : -box.rotation[axis]};
    });
}

}  // namespace analytic
