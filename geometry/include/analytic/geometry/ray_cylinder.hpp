// SPDX-License-Identifier: Zlib
// Ray against a solid cylinder with flat caps: the line's stretch inside the infinite cylinder, cut to the
// slab between the cap planes. The infinite-cylinder helpers in detail also serve the capsule.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

namespace detail {

// A ray split into components along an axis and across it, its origin taken relative to the axis' start.
// The along parts are dot products with the unnormalised axis, so the axis spans [0, |axis|^2] in them.
template <class T> struct AxialRay {
    T offsetAlong;
    T directionAlong;
    Vec3<T> offsetAcross;
    Vec3<T> directionAcross;

    T alongAt(T t) const { return offsetAlong + t * directionAlong; }
};

// offset = ray.origin - the axis' start; axisLength2 = |axis|^2 must be a usable square.
template <class T> inline AxialRay<T> splitAlongAxis(const RayPath<T>& ray, const Vec3<T>& offset,
                                                     const Vec3<T>& axis, T axisLength2) {
    const T offsetAlong = glm::dot(offset, axis);
    const T directionAlong = glm::dot(ray.direction, axis);
    const T inverseLength2 = T(1) / axisLength2;
    return {offsetAlong, directionAlong, offset - (offsetAlong * inverseLength2) * axis,
            ray.direction - (directionAlong * inverseLength2) * axis};
}

// Parameters where the line enters and leaves the infinite cylinder about the axis: the circle test in
// the plane across the axis. A line parallel to the axis (to the scalar's precision: its across component
// has no usable square) runs inside for every t, or never; so does a line whose crossings lie beyond the
// scalar's range (see lineSphereRoots), which can only be told from a miss by where it starts.
template <class T>
inline std::optional<QuadraticRoots<T>> infiniteCylinderRoots(const AxialRay<T>& split, T radius2) {
    const T across2 = glm::dot(split.directionAcross, split.directionAcross);
    if (isUsableSquare(across2)) {
        if (const auto roots =
                lineSphereRoots(split.offsetAcross, split.directionAcross, T(1) / across2, radius2))
            return roots;
    }
    if (glm::dot(split.offsetAcross, split.offsetAcross) > radius2) return std::nullopt;
    constexpr T infinity = std::numeric_limits<T>::infinity();
    return QuadraticRoots<T>{-infinity, infinity};
}

// The hit at t on the side of an infinite cylinder: radial normal.
template <class T> inline SurfaceHit<T> cylinderSideHit(const RayPath<T>& ray, const AxialRay<T>& split, T t,
                                                        T inverseRadius, bool entering) {
    return roundSurfaceHit(ray, t, split.offsetAcross, split.directionAcross, inverseRadius,
                           entering ? -ray.direction : ray.direction);
}

}  // namespace detail

// Where the line of the ray enters and leaves the solid cylinder with its flat caps. Normals: unit,
// outward: radial on the side (the one facing the ray where rounding loses it, on a cylinder tiny against
// its distance), -unit axis (b - a) on cap a, +unit axis on cap b; on the rim, where side and cap are
// crossed at one t, the side's.
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT. A line that only touches: entry.t == exit.t. Miss: nullopt; so is a line
// parallel to the caps (to the scalar's precision) outside the slab between them.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of t).
// Invalid input -> nullopt: maxT < 0 or NaN; radius <= 0 or NaN; a direction, radius or axis b - a whose
// square is not a normal number (zero, so a == b; |v| below about 1.1e-19 or above 1.8e19 in float,
// 1.5e-154 and 1.3e154 in double; NaN or infinite); a NaN or an infinity in origin, a or b;
// |origin - a|^2 beyond the largest finite value; a t that overflows.
template <class T> inline std::optional<RaySolidHit<T>> intersectRayCylinder(const RayPath<T>& ray,
                                                                             const Cylinder<T>& cylinder) {
    const Vec3<T> axis = cylinder.b - cylinder.a;
    const T axisLength2 = glm::dot(axis, axis);
    const Vec3<T> offset = ray.origin - cylinder.a;
    if (!detail::acceptsRoundSolid(ray, offset, cylinder.radius) || !detail::isUsableSquare(axisLength2))
        return std::nullopt;
    const detail::AxialRay<T> split = detail::splitAlongAxis(ray, offset, axis, axisLength2);
    const auto side = detail::infiniteCylinderRoots(split, cylinder.radius * cylinder.radius);
    if (!side) return std::nullopt;

    // The slab between the cap planes, where alongAt(t) lies in [0, axisLength2]. A direction whose
    // component along the axis is below the smallest normal number runs parallel to the caps at the
    // scalar's precision; otherwise the reciprocal is finite and the infinite limits come out right.
    constexpr T infinity = std::numeric_limits<T>::infinity();
    T slabEntry = -infinity, slabExit = infinity;
    if (std::abs(split.directionAlong) >= std::numeric_limits<T>::min()) {
        const T inverseAlong = T(1) / split.directionAlong;
        const T atCapA = -split.offsetAlong * inverseAlong;
        const T atCapB = (axisLength2 - split.offsetAlong) * inverseAlong;
        slabEntry = std::min(atCapA, atCapB);
        slabExit = std::max(atCapA, atCapB);
    } else if (!(split.offsetAlong >= T(0) && split.offsetAlong <= axisLength2)) {
        return std::nullopt;
    }

    const T entry = std::max(side->low, slabEntry);
    const T exit = std::min(side->high, slabExit);
    if (!(entry <= exit) || !crossingReachesRay(entry, exit, ray.maxT)) return std::nullopt;

    // The line meets the planes in the order of its direction along the axis: cap a first when it rises.
    const auto capHit = [&](T t, bool entering) {
        const T sign = (split.directionAlong > T(0)) == entering ? T(-1) : T(1);
        return SurfaceHit<T>{t, ray.at(t), axis * (sign / std::sqrt(axisLength2))};
    };
    const T inverseRadius = T(1) / cylinder.radius;
    const auto sideHit = [&](T t, bool entering) {
        return detail::cylinderSideHit(ray, split, t, inverseRadius, entering);
    };
    return RaySolidHit<T>{side->low >= slabEntry ? sideHit(entry, true) : capHit(entry, true),
                          side->high <= slabExit ? sideHit(exit, false) : capHit(exit, false), entry < T(0)};
}

}  // namespace analytic
