// SPDX-License-Identifier: Zlib
// Support points: the point of a convex solid farthest along a direction.
#pragma once

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// What ellipsoidSupport returns.
template <class T> struct EllipsoidSupport {
    Vec3<T> point;  // the ellipsoid's point farthest along the direction (the centre for a zero direction)
    T reach;        // |radii * direction|: how far that point lies along the direction when it is unit length
};

// The point of the ellipsoid radii * u, |u| <= 1 (centred at the origin, its axes along x, y, z) farthest
// along direction, and reach = dot(direction, point) = |radii * direction|. Why: direction . (radii * u)
// = (radii * direction) . u is largest for u along radii * direction. The plane test and the Bullet
// shape's support function both use this one formula.
// Direction: need not be unit; reach scales with its length (the distance along it when it is unit).
// Range: reach >= 0, point on the surface. A zero direction, or one the radii turn into zero (along a
// radius of 0, where every point of the flat ellipsoid is as far; or underflowing), gives the centre with
// reach 0. Inputs: finite radii >= 0 (a negative radius acts as its absolute value) and a finite
// direction; a NaN or an infinity in either, or a product radii * direction that overflows, gives NaN in
// point and reach.
template <class T> EllipsoidSupport<T> ellipsoidSupport(const Vec3<T>& radii, const Vec3<T>& direction) {
    const LengthAndDirection<T> stretched = lengthAndDirection(radii * direction);
    return {radii * stretched.direction, stretched.length};
}

}  // namespace analytic
