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

// u: the largest relative error of one rounding to nearest (2^-24 for float, 2^-53 for double).
template <class T> constexpr T unitRoundoff = std::numeric_limits<T>::epsilon() / 2;

// Whether x is neither NaN nor infinite (subnormals are finite).
template <class T> bool isFinite(T x) { return std::isfinite(x); }

namespace detail {

// x * 0 is 0 exactly when x is finite (NaN otherwise): one test for many values, without a branch each.
template <class T> inline T zeroIfFinite(T x) { return x * T(0); }
template <class T> inline T zeroIfFinite(const Vec3<T>& v) { return v.x * T(0) + v.y * T(0) + v.z * T(0); }
template <class... Values> inline bool allFinite(const Values&... values) {
    return (zeroIfFinite(values) + ...) == 0;
}

}  // namespace detail

// Whether every component of v is neither NaN nor infinite.
template <int N, class T> bool isFinite(const glm::vec<N, T, glm::defaultp>& v) {
    for (int i = 0; i < N; ++i)
        if (!std::isfinite(v[i])) return false;
    return true;
}

// The crossing unchanged, or nullopt when the entry or the exit has a finite t in [0, maxT] and a point
// that is not finite: a solid or a direction whose multiples reach beyond the largest finite value. Such
// a point cannot be reported, so neither is the hit. Ends outside [0, maxT] (an entry behind the origin)
// or at an infinite t (the convex cast's unbounded ends) are not checked. No other input is invalid.
template <class T, int N>
std::optional<RaySolidHit<T, N>> withFinitePoints(const RaySolidHit<T, N>& crossing, T maxT) {
    const auto unrepresentable = [&](const SurfaceHit<T, N>& end) {
        return end.t >= T(0) && end.t <= maxT && std::isfinite(end.t) && !isFinite(end.point);
    };
    if (unrepresentable(crossing.entry) || unrepresentable(crossing.exit)) return std::nullopt;
    return crossing;
}

// Whether every query accepts the ray: finite origin and direction, a direction that is not zero (any
// length, subnormal included), and 0 <= maxT (+infinity allowed; NaN is not). The round solids ask more:
// |direction|^2 a normal number (see RayPath). Any input gives true or false.
template <class T, int N> bool isValidRay(const RayPath<T, N>& ray) {
    return isFinite(ray.origin) && isFinite(ray.direction) && ray.direction != VecN<T, N>(0) &&
           ray.maxT >= T(0);
}

// The largest |component| of v (its infinity norm), exact. For a finite v; a NaN in the first component
// is returned, a NaN in another is passed over (std::max keeps its first argument against NaN).
template <class T, int N> T maxAbsComponent(const VecN<T, N>& v) {
    T largest = std::abs(v[0]);
    for (int i = 1; i < N; ++i)
        largest = std::max(largest, std::abs(v[i]));
    return largest;
}

// v / |v|, unit within a few roundings, for any finite v that is not zero: subnormal and near the
// largest finite value alike (v is then scaled by its largest component first, so |v|^2 cannot overflow
// or underflow). Zero or a NaN or an infinity in v gives NaN components.
// Always inlined: returned out of line, a float Vec3 comes back in two registers that GCC stores and
// reloads in pieces of other widths, and the reload stalls (store forwarding fails).
template <class T, int N> [[gnu::always_inline]] inline VecN<T, N> unitVector(const VecN<T, N>& v) {
    const T length2 = glm::dot(v, v);
    if (length2 >= std::numeric_limits<T>::min() && length2 <= std::numeric_limits<T>::max())
        return v * (T(1) / std::sqrt(length2));
    const VecN<T, N> scaled = v / maxAbsComponent(v);
    return scaled / std::sqrt(glm::dot(scaled, scaled));
}

// What lengthAndDirection returns.
template <class T> struct LengthAndDirection {
    T length;           // |v|
    Vec3<T> direction;  // zero for the zero vector
};

// |v| and v / |v| together, for any finite v (subnormal or huge alike: squares outside the normal range
// are scaled first, so nothing overflows or loses precision to underflow). The zero vector gives length
// 0 and direction zero. A finite v longer than the largest finite value gives length +infinity with an
// accurate direction; a NaN or an infinity in v gives NaN in both.
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

// a * b - c * d accurate even where the products cancel: relative error at most 2u (Kahan's algorithm
// with fused multiply-add; bound of Jeannerod, Louvet and Muller, 2013). For finite inputs whose
// products stay finite; otherwise the result is infinite or NaN.
template <class T> T differenceOfProducts(T a, T b, T c, T d) {
    const T cd = c * d;
    const T error = std::fma(-c, d, cd);
    return std::fma(a, b, -cd) + error;
}

// Two roots, low <= high.
template <class T> struct QuadraticRoots {
    T low;   // the smaller root
    T high;  // the larger root
};

// Real roots of a t^2 + 2 halfB t + c = 0 given its discriminant halfB^2 - a c, which the caller
// should compute without cancellation where the geometry allows (the sphere's solver takes it from the
// line's distance to the centre). Each root is taken from the formula that does not subtract nearly
// equal numbers. Range: low <= high; a double root (a tangent line) gives low == high, and
// halfB = discriminant = 0 gives {0, 0}. No real roots (discriminant < 0) or a NaN discriminant: nullopt.
// Requires a > 0 and finite inputs (not checked: otherwise the roots are meaningless); roots beyond the
// scalar's range come back infinite, for the caller to reject.
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
