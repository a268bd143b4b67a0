// SPDX-License-Identifier: Zlib
// The invariants every fuzz target checks on the core's outputs, in long double: finite, unit normals,
// parameters in range, points on the surfaces they claim (within a tolerance of many roundings of the
// case's scale: these catch wrong answers, the accuracy tests in tests/geometry bound the rounding).
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>

#include "analytic/geometry/primitives.hpp"
#include "fuzz_input.hpp"

namespace analytic::fuzz {

using Real = long double;
using RVec = glm::vec<3, Real, glm::defaultp>;

template <class T> RVec wide(const Vec3<T>& v) { return RVec(Real(v.x), Real(v.y), Real(v.z)); }

template <class T> bool finite(const Vec3<T>& v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
template <class T> bool finite(const Mat3<T>& m) { return finite(m[0]) && finite(m[1]) && finite(m[2]); }
template <class T> bool finite(T x) { return std::isfinite(x); }

inline Real length(const RVec& v) { return std::sqrt(glm::dot(v, v)); }

template <class T> constexpr Real roundoff = Real(std::numeric_limits<T>::epsilon()) / 2;

// A unit vector up to a few hundred roundings of T.
template <class T> bool isUnit(const Vec3<T>& v) {
    return finite(v) && std::abs(length(wide(v)) - 1) <= 256 * roundoff<T>;
}

// The largest magnitude among the given scalars and vectors: the scale of a case.
template <class T> Real magnitude(const Vec3<T>& v) {
    return std::max({std::abs(Real(v.x)), std::abs(Real(v.y)), std::abs(Real(v.z))});
}
template <class T> Real magnitude(T x) { return std::abs(Real(x)); }
template <class... Parts> Real scaleOf(const Parts&... parts) {
    return std::max({Real(0), magnitude(parts)...});
}

// How far a reported point may lie off the surface it claims: many roundings of the case's scale.
// (Plus the smallest normal number: below it, rounding is absolute.)
template <class T> Real surfaceTolerance(Real scale) {
    return 4096 * roundoff<T> * scale + Real(std::numeric_limits<T>::min());
}

template <class T> bool isOrthonormal(const Mat3<T>& m) {
    if (!finite(m)) return false;
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const Real dot = glm::dot(wide(m[i]), wide(m[j]));
            if (std::abs(dot - (i == j ? 1 : 0)) > 64 * roundoff<T>) return false;
        }
    return true;
}

// Distance from p to the segment a-b.
inline Real distanceToSegment(const RVec& p, const RVec& a, const RVec& b) {
    const RVec ab = b - a;
    const Real length2 = glm::dot(ab, ab);
    Real s = length2 > 0 ? glm::dot(p - a, ab) / length2 : 0;
    s = std::clamp(s, Real(0), Real(1));
    return length(p - (a + s * ab));
}

// Signed distance from p to the boundary of the box (negative inside).
template <class T> Real signedDistanceToObb(const RVec& p, const Obb<T>& box) {
    const RVec offset = p - wide(box.center);
    RVec outside(0);
    Real deepest = -std::numeric_limits<Real>::infinity();
    for (int k = 0; k < 3; ++k) {
        const Real d = std::abs(glm::dot(offset, wide(box.rotation[k]))) - Real(box.halfExtents[k]);
        outside[k] = std::max(d, Real(0));
        deepest = std::max(deepest, d);
    }
    return deepest > 0 ? length(outside) : deepest;
}

// Signed distance from p to the boundary of the solid cylinder (negative inside).
template <class T> Real signedDistanceToCylinder(const RVec& p, const Cylinder<T>& cylinder) {
    const RVec a = wide(cylinder.a), axis = wide(cylinder.b) - a;
    const Real height = length(axis);
    const RVec unit = axis / height;
    const Real along = glm::dot(p - a, unit);
    const Real radial = length(p - a - along * unit);
    const Real outRadial = radial - Real(cylinder.radius), outAxial = std::max(-along, along - height);
    if (outRadial <= 0 && outAxial <= 0) return std::max(outRadial, outAxial);
    return std::hypot(std::max(outRadial, Real(0)), std::max(outAxial, Real(0)));
}

// The unnormalised normal of the triangle (a, b, c), from its two shorter edges: a needle's long ones
// cancel, even in long double.
inline RVec areaNormal(const RVec& a, const RVec& b, const RVec& c) {
    const RVec edges[3] = {b - a, c - b, a - c};
    int longest = 0;
    for (int k = 1; k < 3; ++k)
        if (glm::dot(edges[k], edges[k]) > glm::dot(edges[longest], edges[longest])) longest = k;
    return glm::cross(edges[(longest + 1) % 3], edges[(longest + 2) % 3]);
}

// Distance from p to the triangle (its face where p projects inside it, else its nearest edge).
template <class T> Real distanceToTriangle(const RVec& p, const Triangle<T>& triangle) {
    const RVec a = wide(triangle.a), b = wide(triangle.b), c = wide(triangle.c);
    Real best =
        std::min({distanceToSegment(p, a, b), distanceToSegment(p, b, c), distanceToSegment(p, c, a)});
    const RVec normal = areaNormal(a, b, c);
    const Real area = length(normal);
    if (area > 0) {
        const RVec unit = normal / area;
        const RVec projected = p - glm::dot(unit, p - a) * unit;
        if (glm::dot(glm::cross(b - a, projected - a), unit) >= 0 &&
            glm::dot(glm::cross(c - b, projected - b), unit) >= 0 &&
            glm::dot(glm::cross(a - c, projected - c), unit) >= 0)
            best = std::min(best, std::abs(glm::dot(unit, p - a)));
    }
    return best;
}

}  // namespace analytic::fuzz
