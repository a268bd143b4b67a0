// SPDX-License-Identifier: Zlib
// Reference for ray vs triangle, independent of the core: the line crosses the triangle when the
// three signed volumes [d, b - o, c - o], [d, c - o, a - o], [d, a - o, b - o] share a sign (they are
// the barycentric weights, up to their sum d . n); t comes from the plane n . (x - a) = 0. All in long
// double. Also the distances that define the tangency band.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "support/test_support.hpp"

namespace analytic::test::reference {

struct RealTriangle {
    RealVec3 a;
    RealVec3 b;
    RealVec3 c;
};

template <class T> RealTriangle widen(const Triangle<T>& triangle) {
    return {test::widen(triangle.a), test::widen(triangle.b), test::widen(triangle.c)};
}

inline Real tripleProduct(const RealVec3& x, const RealVec3& y, const RealVec3& z) {
    return glm::dot(x, glm::cross(y, z));
}

struct LineTriangleCrossing {
    bool crosses = false;  // the line meets the triangle at a single point
    Real t = 0;
    Real u = 0;  // weights of b and c
    Real v = 0;
    RealVec3 normal{0};  // (b - a) x (c - a), not normalised
};

inline LineTriangleCrossing crossLine(const RealTriangle& triangle, const RealVec3& origin,
                                      const RealVec3& direction) {
    LineTriangleCrossing crossing;
    // The normal from the vertices themselves (differences of nearby inputs are exact); the volumes
    // need the vertices relative to the origin.
    crossing.normal = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
    const RealVec3 a = triangle.a - origin, b = triangle.b - origin, c = triangle.c - origin;
    const Real volumeA = tripleProduct(direction, b, c);
    const Real volumeB = tripleProduct(direction, c, a);
    const Real volumeC = tripleProduct(direction, a, b);
    const Real sum = volumeA + volumeB + volumeC;  // = direction . normal
    const bool sameSign =
        (volumeA >= 0 && volumeB >= 0 && volumeC >= 0) || (volumeA <= 0 && volumeB <= 0 && volumeC <= 0);
    if (!sameSign || sum == 0) return crossing;
    crossing.crosses = true;
    crossing.t = glm::dot(crossing.normal, a) / glm::dot(crossing.normal, direction);
    crossing.u = volumeB / sum;
    crossing.v = volumeC / sum;
    return crossing;
}

// Shortest distance between the line origin + s direction (all s) and the segment from p to q.
inline Real lineSegmentDistance(const RealVec3& origin, const RealVec3& direction, const RealVec3& p,
                                const RealVec3& q) {
    const RealVec3 edge = q - p, offset = p - origin;
    const Real dd = glm::dot(direction, direction), ee = glm::dot(edge, edge), de = glm::dot(direction, edge);
    const Real denominator = dd * ee - de * de;  // 0 when parallel
    // Segment parameter of the closest approach; the squared distance is convex in it, so clamping the
    // free optimum to the segment gives the constrained one.
    Real r =
        denominator > 0 ? (de * glm::dot(direction, offset) - dd * glm::dot(edge, offset)) / denominator : 0;
    r = std::clamp(r, Real(0), Real(1));
    const RealVec3 point = p + r * edge - origin;
    return glm::length(point - (glm::dot(point, direction) / dd) * direction);
}

// How close the ray comes to changing its answer: the smallest of the distances from its line to the
// triangle's edges and, when the line crosses the triangle, from the crossing to the ray's ends
// (measured along the normal: how far the origin or end point is from the plane).
inline Real distanceToAmbiguity(const RealTriangle& triangle, const RealVec3& origin,
                                const RealVec3& direction, Real maxT) {
    Real distance = std::min({lineSegmentDistance(origin, direction, triangle.a, triangle.b),
                              lineSegmentDistance(origin, direction, triangle.b, triangle.c),
                              lineSegmentDistance(origin, direction, triangle.c, triangle.a)});
    const LineTriangleCrossing crossing = crossLine(triangle, origin, direction);
    if (crossing.crosses) {
        const Real speed = std::abs(glm::dot(crossing.normal, direction)) / glm::length(crossing.normal);
        distance = std::min(distance, std::abs(crossing.t) * speed);
        if (std::isfinite(maxT)) distance = std::min(distance, std::abs(crossing.t - maxT) * speed);
    }
    return distance;
}

}  // namespace analytic::test::reference
