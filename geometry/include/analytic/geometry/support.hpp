// SPDX-License-Identifier: Zlib
// Support points: the point of a convex solid farthest along a direction.
#pragma once

#include <cmath>
#include <limits>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// What ellipsoidSupport returns.
template <class T> struct EllipsoidSupport {
    Vec3<T> point;  // the ellipsoid's point farthest along the direction (the centre for a zero direction)
    T reach;        // |radii * direction|: how far that point lies along the direction when it is unit length
};

namespace detail {

// ellipsoidSupport where radii * direction overflows or underflows: the direction brought to a largest
// component of 1 first, since only its direction decides the point.
template <class T>
[[gnu::noinline, gnu::cold]] EllipsoidSupport<T> ellipsoidSupportRescaled(const Vec3<T>& radii,
                                                                          const Vec3<T>& direction) {
    if (direction == Vec3<T>(0)) return {Vec3<T>(0), T(0)};
    const T scale = maxAbsComponent(direction);
    const LengthAndDirection<T> stretched = lengthAndDirection(radii * (direction / scale));
    return {radii * stretched.direction, stretched.length * scale};
}

}  // namespace detail

// The point of the ellipsoid radii * u, |u| <= 1 (centred at the origin, its axes along x, y, z) farthest
// along direction, and reach = dot(direction, point) = |radii * direction|. Why: direction . (radii * u)
// = (radii * direction) . u is largest for u along radii * direction. The plane test and the Bullet
// shape's support function both use this one formula.
// Direction: need not be unit; reach scales with its length (the distance along it when it is unit).
// Only its direction decides the point: any finite nonzero direction, subnormal or near the largest
// value, gives the surface point.
// Range: point on the surface, finite for finite radii; reach >= 0, +infinity when |radii * direction|
// is beyond the range of T (a direction near the largest value). A zero direction, or one along a radius
// of 0 (where every point of the flat ellipsoid is as far), gives the centre with reach 0.
// Inputs: finite radii >= 0 (a negative radius acts as its absolute value) and a finite direction; a NaN
// or an infinity in either gives NaN in point and reach.
template <class T> EllipsoidSupport<T> ellipsoidSupport(const Vec3<T>& radii, const Vec3<T>& direction) {
    const Vec3<T> stretched = radii * direction;
    const T squared = glm::dot(stretched, stretched);
    if (squared >= std::numeric_limits<T>::min() && squared <= std::numeric_limits<T>::max()) [[likely]] {
        const T length = std::sqrt(squared);
        return {radii * (stretched * (T(1) / length)), length};
    }
    return detail::ellipsoidSupportRescaled(radii, direction);
}

}  // namespace analytic
