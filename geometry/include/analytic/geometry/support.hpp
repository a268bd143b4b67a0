// SPDX-License-Identifier: Zlib
// Support points: the point of a convex solid farthest along a direction.
#pragma once

#include "analytic/geometry/numeric.hpp"

namespace analytic {

template <class T> struct EllipsoidSupport {
    Vec3<T> point;  // the ellipsoid's point farthest along the direction (the centre for a zero direction)
    T reach;        // |radii * direction|: how far that point lies along the direction when it is unit length
};

// For the ellipsoid radii * u, |u| <= 1, centred at the origin with its axes along x, y, z: direction .
// (radii * u) = (radii * direction) . u is largest for u along radii * direction. The plane test and the
// Bullet shape's support function both use this one formula.
template <class T> EllipsoidSupport<T> ellipsoidSupport(const Vec3<T>& radii, const Vec3<T>& direction) {
    const LengthAndDirection<T> stretched = lengthAndDirection(radii * direction);
    return {radii * stretched.direction, stretched.length};
}

}  // namespace analytic
