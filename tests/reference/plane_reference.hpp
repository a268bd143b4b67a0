// SPDX-License-Identifier: Zlib
// Long double references for the plane tests (plane_tests.hpp), written the textbook way and without
// tolerances: the tests decide what counts as "on the plane" from the exact distances returned here.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>

#include "support/test_support.hpp"

namespace analytic::test::plane_reference {

struct RealPlane {
    RealVec3 normal;
    Real offset;
};

template <class T> RealPlane widen(const Plane<T>& plane) {
    return {test::widen(plane.normal), Real(plane.offset)};
}

inline Real signedDistance(const RealVec3& point, const RealPlane& plane) {
    return glm::dot(plane.normal, point) - plane.offset;
}

// The size of the numbers a signed distance adds up: what the tests measure errors and tolerances against.
inline Real distanceScale(const RealVec3& point, const RealPlane& plane) {
    return glm::dot(glm::abs(plane.normal), glm::abs(point)) + std::abs(plane.offset);
}

// The line origin + t direction meets the plane at t = (offset - n.origin) / (n.direction).
struct LinePlane {
    Real approach;  // n . direction; the line is parallel when it is 0
    Real t;         // meaningful when approach != 0
    RealVec3 point;
};

inline LinePlane linePlane(const RealVec3& origin, const RealVec3& direction, const RealPlane& plane) {
    const Real approach = glm::dot(plane.normal, direction);
    if (approach == 0) return {0, 0, origin};
    const Real t = (plane.offset - glm::dot(plane.normal, origin)) / approach;
    return {approach, t, origin + t * direction};
}

// The lowest point of a convex solid along the normal and the half-width of its distances.
struct Support {
    Real centerDistance;
    Real projectedRadius;
    RealVec3 deepest;
};

inline Support sphereSupport(const RealVec3& center, Real radius, const RealPlane& plane) {
    return {signedDistance(center, plane), radius, center - radius * plane.normal};
}

// The ellipsoid as the set {x : (x - c)^T Q^-1 (x - c) <= 1} with Q = R diag(radii^2) R^T: its support
// function in direction v is v.c + sqrt(v^T Q v), reached at c + Q v / sqrt(v^T Q v).
inline Support ellipsoidSupport(const RealVec3& center, const Mat3<Real>& rotation, const RealVec3& radii,
                                const RealPlane& plane) {
    const Mat3<Real> shape =
        rotation * Mat3<Real>(radii.x * radii.x, 0, 0, 0, radii.y * radii.y, 0, 0, 0, radii.z * radii.z) *
        glm::transpose(rotation);
    const RealVec3 stretched = shape * plane.normal;
    const Real projectedRadius = std::sqrt(glm::dot(plane.normal, stretched));
    const RealVec3 deepest = projectedRadius > 0 ? center - stretched / projectedRadius : center;
    return {signedDistance(center, plane), projectedRadius, deepest};
}

struct Corner {
    RealVec3 point;
    Real distance;
};

inline std::array<Corner, 8> sortedDeepestFirst(std::array<Corner, 8> corners) {
    std::sort(corners.begin(), corners.end(),
              [](const Corner& a, const Corner& b) { return a.distance < b.distance; });
    return corners;
}

// The eight corners center +- halfAxes[0] +- halfAxes[1] +- halfAxes[2], deepest first.
inline std::array<Corner, 8> boxCorners(const RealVec3& center, const std::array<RealVec3, 3>& halfAxes,
                                        const RealPlane& plane) {
    std::array<Corner, 8> corners;
    for (int k = 0; k < 8; ++k) {
        RealVec3 point = center;
        for (int i = 0; i < 3; ++i)
            point += (k & (1 << i)) ? halfAxes[i] : -halfAxes[i];
        corners[k] = {point, signedDistance(point, plane)};
    }
    return sortedDeepestFirst(corners);
}

// The eight corners of [min, max] (each coordinate taken from min or max), deepest first.
inline std::array<Corner, 8> aabbCorners(const RealVec3& min, const RealVec3& max, const RealPlane& plane) {
    std::array<Corner, 8> corners;
    for (int k = 0; k < 8; ++k) {
        RealVec3 point;
        for (int i = 0; i < 3; ++i)
            point[i] = (k & (1 << i)) ? max[i] : min[i];
        corners[k] = {point, signedDistance(point, plane)};
    }
    return sortedDeepestFirst(corners);
}

// Where the edge from p to q meets the plane, found as a line crossing from p.
inline RealVec3 edgeCrossing(const RealVec3& p, const RealVec3& q, const RealPlane& plane) {
    return linePlane(p, q - p, plane).point;
}

}  // namespace analytic::test::plane_reference
