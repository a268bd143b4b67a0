// SPDX-License-Identifier: Zlib
// Scalar helpers shared by every test of the geometry core: finiteness checks, products without
// cancellation, and a quadratic solver that keeps full precision in both roots.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/geometry/primitives.hpp"

namespace analytic {

template <class T> constexpr T unitRoundoff = std::numeric_limits<T>::epsilon() / 2;

template <class T> bool isFinite(T x) { return std::isfinite(x); }

namespace detail {

// x * 0 is 0 exactly when x is finite (NaN otherwise): one test for many values, without a branch each.
template <class T> inline T zeroIfFinite(T x) { return x * T(0); }
template <class T> inline T zeroIfFinite(const Vec3<T>& v) { return v.x * T(0) + v.y * T(0) + v.z * T(0); }
template <class... Values> inline bool allFinite(const Values&... values) {
    return (zeroIfFinite(values) + ...) == 0;
}

}  // namespace detail

template <int N, class T> bool isFinite(const glm::vec<N, T, glm::defaultp>& v) {
    for (int i = 0; i < N; ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

// The crossing, or nothing when a point it reports within the ray (a finite t in [0, maxT]) leaves the
// scalar's range: a solid or a direction whose multiples reach beyond the largest finite value. Such a
// point cannot be reported, so neither is the hit.
template <class T, int N>
std::optional<RaySolidHit<T, N>> withFinitePoints(const RaySolidHit<T, N>& crossing, T maxT) {
    const auto unrepresentable = [&](const SurfaceHit<T, N>& end) {
        return end.t >= T(0) && end.t <= maxT && std::isfinite(end.t) && !isFinite(end.point);
    };
    if (unrepresentable(crossing.entry) || unrepresentable(crossing.exit)) return std::nullopt;
    return crossing;
}

// A usable ray: finite origin and direction, a direction that is not zero, and 0 <= maxT (which may be +inf).
template <class T, int N> bool isValidRay(const RayPath<T, N>& ray) {
    return isFinite(ray.origin) && isFinite(ray.direction) && ray.direction != VecN<T, N>(0) &&
           ray.maxT >= T(0);
}

template <class T, int N> T maxAbsComponent(const VecN<T, N>& v) {
    T largest = std::abs(v[0]);
    for (int i = 1; i < N; ++i)
        largest = std::max(largest, std::abs(v[i]));
    return largest;
}

// v / |v| for a finite v that is not zero. The plain form when |v|^2 is a normal number; otherwise
// v is scaled by its largest component first, so |v|^2 cannot overflow or underflow. Always inlined:
// returned out of line, a float Vec3 comes back in two registers that GCC stores and reloads in pieces
// of other widths, and the reload stalls (store forwarding fails).
template <class T, int N> [[gnu::always_inline]] inline VecN<T, N> unitVector(const VecN<T, N>& v) {
    const T length2 = glm::dot(v, v);
    if (length2 >= std::numeric_limits<T>::min() && length2 <= std::numeric_limits<T>::max())
        return v * (T(1) / std::sqrt(length2));
    const VecN<T, N> scaled = v / maxAbsComponent(v);
    return scaled / std::sqrt(glm::dot(scaled, scaled));
}

template <class T> struct LengthAndDirection {
    T length;
    Vec3<T> direction;  // zero for the zero vector
};

// Squares in the normal range of T take the fast path; otherwise scale first so that nothing overflows
// or loses precision to underflow.
template <class T> [[gnu::always_inline]] inline LengthAndDirection<T> lengthAndDirection(const Vec3<T>& v) {
    const T squared = glm::dot(v, v);
    if (squared >= std::numeric_limits<T>::min() && squared <= std::numeric_limits<T>::max()) {
        const T length = std::sqrt(squared);
        return {length, v * (T(1) / length)};
    }
    if (v == Vec3<T>(0)) return {T(0), Vec3<T>(0)};
    const Vec3<T> direction = unitVector(v);
    return {glm::dot(v, direction), direction};
}

// a * b - c * d with one rounding error (Kahan's algorithm with fused multiply-add).
template <class T> T differenceOfProducts(T a, T b, T c, T d) {
    const T cd = c * d;
    const T error = std::fma(-c, d, cd);
    return std::fma(a, b, -cd) + error;
}

template <class T> struct QuadraticRoots {
    T low;
    T high;
};

// Real roots of a t^2 + 2 halfB t + c = 0 given its discriminant halfB^2 - a c, which the caller
// should compute without cancellation where the geometry allows (see ray_sphere.hpp). Each root is
// taken from the formula that does not subtract nearly equal numbers. Requires a > 0.
//
// The roots lie sqrt(discriminant) / a either side of -halfB / a. When c and the discriminant carry
// rounding of different origins (a line both tangent and starting on the surface: c and q both all
// noise), c / q can land anywhere; it is kept within that distance (and a few roundings), where the
// exact root is.
template <class T> std::optional<QuadraticRoots<T>> solveQuadratic(T a, T halfB, T c, T discriminant) {
    if (!(discriminant >= T(0))) return std::nullopt;
    const T root = std::sqrt(discriminant);
    const T q = -(halfB + std::copysign(root, halfB));
    if (q == T(0)) return QuadraticRoots<T>{T(0), T(0)};
    const T r0 = q / a;
    const T middle = -halfB / a, reach = (root + T(8) * unitRoundoff<T> * (std::abs(halfB) + root)) / a;
    const T r1 = std::clamp(c / q, middle - reach, middle + reach);
    return r0 < r1 ? QuadraticRoots<T>{r0, r1} : QuadraticRoots<T>{r1, r0};
}

}  // namespace analytic
