// SPDX-License-Identifier: Zlib
// Ray against sphere and, with N = 2, ray against circle: the quadratic along the line, its discriminant
// taken from the line's distance to the centre (Haines et al., "Precision Improvements for Ray/Sphere
// Intersection", Ray Tracing Gems, ch. 7). The helpers in detail also serve the capsule and cylinder.
#pragma once

#include <limits>
#include <optional>

#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/numeric.hpp"

namespace analytic {

namespace detail {

// The solvers divide by squared lengths (|direction|^2, r^2, |axis|^2). As long as these are normal numbers
// every quotient keeps full relative precision at any scale; a square that underflows or overflows marks
// a vector or radius outside the scalar's range, treated as degenerate (like a zero-length ray).
template <class T> inline bool isUsableSquare(T square) {
    return square >= std::numeric_limits<T>::min() && square <= std::numeric_limits<T>::max();
}

// What every round solid requires: maxT >= 0, radius > 0, a direction and a radius with usable squares,
// and a finite squared distance from the solid's reference point to the origin (`offset` between them).
// A NaN or an infinity in any input fails one of these.
template <class T, int N>
inline bool acceptsRoundSolid(const RayPath<T, N>& ray, const VecN<T, N>& offset, T radius) {
    return ray.maxT >= T(0) && radius > T(0) && isUsableSquare(glm::dot(ray.direction, ray.direction)) &&
           isUsableSquare(radius * radius) && glm::dot(offset, offset) <= std::numeric_limits<T>::max();
}

// The roots of lineSphereRoots (below), its terms in multiples of the direction.
template <class T, int N>
inline std::optional<QuadraticRoots<T>> quadraticAlongLine(const VecN<T, N>& offset,
                                                           const VecN<T, N>& direction, T inverseLength2,
                                                           T radius2, T halfB, T excess) {
    // Haines et al., Ray Tracing Gems ch. 7: halfB^2 - c equals (r^2 - |closest offset|^2) / |direction|^2,
    // where the closest offset is the centre's distance to the line. That form has no cancellation for
    // small or far spheres, while halfB^2 - c loses every digit once |offset| / r nears 1 / sqrt(epsilon).
    const VecN<T, N> closestOffset = offset - halfB * direction;
    const T gap = radius2 - glm::dot(closestOffset, closestOffset);
    // Its sign decides: a negative product that underflows to -0 would pass for a tangent line.
    if (!(gap >= T(0))) return std::nullopt;
    return solveQuadratic(T(1), halfB, excess * inverseLength2, gap * inverseLength2);
}

// Parameters t where the line offset + t * direction (offset from a centre) is at distance sqrt(radius2)
// from the centre; inverseLength2 = 1 / |direction|^2. N = 2 also gives the circle across a cylinder's
// axis. Roots whose squares overflow (|t| beyond 1.8e19 in float, 1.3e154 in double, in multiples of the
// direction) would be meaningless: nullopt, as for a miss.
template <class T, int N>
inline std::optional<QuadraticRoots<T>> lineSphereRoots(const VecN<T, N>& offset, const VecN<T, N>& direction,
                                                        T inverseLength2, T radius2) {
    // The quadratic divided by |direction|^2: t^2 + 2 halfB t + c, where -halfB is the parameter of the
    // point nearest the centre. Dividing first leaves one division, in solveQuadratic.
    const T excess = glm::dot(offset, offset) - radius2;  // its sign: the origin outside (+) or inside (-)
    std::optional<QuadraticRoots<T>> roots;
    T halfB;
    if (radius2 * inverseLength2 >= std::numeric_limits<T>::min()) [[likely]] {
        halfB = glm::dot(offset, direction) * inverseLength2;
        roots = quadraticAlongLine(offset, direction, inverseLength2, radius2, halfB, excess);
    } else {
        // A direction so much longer than the radius that the terms in its multiples underflow (and
        // lose their digits): solved in lengths along the unit direction, then divided by its length.
        const T length = std::sqrt(T(1) / inverseLength2);
        const VecN<T, N> unit = direction / length;
        halfB = glm::dot(offset, unit);
        roots = quadraticAlongLine(offset, unit, T(1), radius2, halfB, excess);
        if (roots) roots = QuadraticRoots<T>{roots->low / length, roots->high / length};
    }
    if (!roots || !isFinite(roots->low) || !isFinite(roots->high)) return std::nullopt;
    // A root of |t| below the smallest number (a direction far longer than the solid) rounds to 0, which
    // would put an origin outside on the surface, or one inside on it: the roots are made to agree with
    // the origin's side, as its own distance decides it.
    constexpr T tiny = std::numeric_limits<T>::denorm_min();
    if (excess > T(0) && roots->low <= T(0) && roots->high >= T(0)) {
        if (halfB < T(0)) {  // the solid is ahead
            roots->low = tiny;
            roots->high = std::max(roots->high, tiny);
        } else {
            roots->high = -tiny;
            roots->low = std::min(roots->low, -tiny);
        }
    } else if (excess < T(0)) {
        roots->low = std::min(roots->low, -tiny);
        roots->high = std::max(roots->high, tiny);
    }
    return roots;
}

// The hit at parameter t on a round surface whose outward normal there points along
// normalOffset + t * normalRate (for a sphere: origin - centre and the ray's direction), a vector as long as
// the radius up to the rounding of the distance to the solid. Divided by the radius, its squared length s
// is 1 within that rounding; then one Newton step for 1 / sqrt(s) from 1, s * (3 - s) / 2, leaves a
// relative error of 3/8 (s - 1)^2, below the unit roundoff while |s - 1| <= sqrt(u) / 2: no square root,
// no division. A solid tiny against its distance needs the full normalisation, and when the vector
// vanishes (the radius below the rounding of the distance) the normal facing the ray is the only
// meaningful one (fallbackNormal: -direction entering, +direction leaving).
template <class T, int N>
inline SurfaceHit<T, N> roundSurfaceHit(const RayPath<T, N>& ray, T t, const VecN<T, N>& normalOffset,
                                        const VecN<T, N>& normalRate, T inverseRadius,
                                        const VecN<T, N>& fallbackNormal) {
    const VecN<T, N> outward = (normalOffset + t * normalRate) * inverseRadius;
    const T length2 = glm::dot(outward, outward);
    const T newtonRange = std::sqrt(unitRoundoff<T>) / 2;
    VecN<T, N> normal;
    if (std::abs(length2 - T(1)) <= newtonRange)
        normal = outward * (T(1.5) - T(0.5) * length2);
    else if (isUsableSquare(length2))
        normal = outward * (T(1) / std::sqrt(length2));
    else
        normal = fallbackNormal * (T(1) / std::sqrt(glm::dot(fallbackNormal, fallbackNormal)));
    return {t, ray.at(t), normal};
}

}  // namespace detail

// Where the line of the ray enters and leaves the ball (sphere in 3D, disc in 2D), with unit outward
// normals (for a ball tiny against its distance, where the normal is lost to rounding: the one facing the
// ray, -unit direction at the entry and +unit direction at the exit).
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT. A tangent line: entry.t == exit.t.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of t). A t whose size
// underflows (a direction far longer than the ball) is kept on the side the origin's distance says.
// Invalid input -> nullopt: maxT < 0 or NaN; radius <= 0 or NaN; a direction or radius whose square is
// not a normal number (zero; |v| below about 1.1e-19 or above 1.8e19 in float, 1.5e-154 and 1.3e154 in
// double; NaN or infinite); a non-finite origin or centre, or |origin - centre|^2 beyond the largest
// finite value; a t that overflows.
template <class T, int N>
inline std::optional<RaySolidHit<T, N>> intersectRaySphere(const RayPath<T, N>& ray, const Ball<T, N>& ball) {
    const VecN<T, N> offset = ray.origin - ball.center;
    if (!detail::acceptsRoundSolid(ray, offset, ball.radius)) return std::nullopt;
    const auto roots = detail::lineSphereRoots(
        offset, ray.direction, T(1) / glm::dot(ray.direction, ray.direction), ball.radius * ball.radius);
    if (!roots || !crossingReachesRay(roots->low, roots->high, ray.maxT)) return std::nullopt;
    const T inverseRadius = T(1) / ball.radius;
    return RaySolidHit<T, N>{
        detail::roundSurfaceHit(ray, roots->low, offset, ray.direction, inverseRadius, -ray.direction),
        detail::roundSurfaceHit(ray, roots->high, offset, ray.direction, inverseRadius, ray.direction),
        roots->low < T(0)};
}

}  // namespace analytic
