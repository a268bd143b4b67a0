// SPDX-License-Identifier: Zlib
// Ray against a convex polyhedron given by the planes of its faces (convex hulls): Cyrus-Beck clipping of
// the ray's line by each half-space (Cyrus and Beck 1978; Kay and Kajiya 1986 for the slabs of a box).
#pragma once

#include <cstddef>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// Where the line of the ray enters and leaves the solid {x : dot(plane.normal, x) <= plane.offset for every
// plane}. Each plane's positive side is outside, so its normal points out of the solid; it is the normal
// reported where the line crosses that plane, as given (unit for unit normals; t does not depend on their
// length). The line enters through the planes it runs against (dot(normal, direction) < 0) and leaves
// through the others; entry is the last of the entering crossings, exit the first of the leaving ones,
// ties going to the lowest index.
//
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT]; exit.t may exceed
// maxT. The solid is closed: a ray that only touches a face, edge or corner hits, and
// a line lying in a face's plane is inside that half-space. An unbounded solid may leave the line
// unbounded: without an entering plane entry.t is -infinity, without a leaving one exit.t is +infinity.
// Such an end has no surface: its point lies at infinity along the ray (components where the direction is
// zero keep the origin's), its normal faces the ray as the round solids' fallback does (-unit direction
// entering, +unit direction leaving). No planes at all: the whole space (both ends unbounded).
// Miss: nullopt; so is a line parallel to a plane (dot exactly zero) outside it, and planes with no
// common point.
// Start inside: originInside, entry.t < 0 (behind the origin, or -infinity). On a face: entry.t = 0, not
// inside, when the ray goes in; exit.t = 0, inside, when it goes out.
// Invalid input -> nullopt: a ray isValidRay rejects (a NaN or an infinity in origin or direction, a zero
// direction, maxT < 0 or NaN); a plane with a NaN or an infinity; where dot(normal, origin) - offset or
// dot(normal, direction) leaves the scalar's range, where the entry or the exit does (|t| beyond the
// largest finite value: a line all but parallel to the plane that bounds it), and where a bounded end's
// point within [0, maxT] does (a direction whose multiples reach beyond the scalar's range). A plane with
// a zero normal is not rejected: it is the whole space for offset >= 0, nothing (a miss) for offset < 0.
//
// T is taken from the ray alone, so any contiguous range of planes (an array, a vector) converts to the span.
template <class T> std::optional<RaySolidHit<T>> intersectRayConvexPlanes(
    const RayPath<T>& ray, std::span<const Plane<std::type_identity_t<T>>> planes) {
    if (!isValidRay(ray)) return std::nullopt;
    constexpr T infinity = std::numeric_limits<T>::infinity();
    T entry = -infinity, exit = infinity;
    std::size_t entryPlane = 0, exitPlane = 0;
    bool entering = false, leaving = false;  // whether some plane bounds the line on that side
    for (std::size_t i = 0; i < planes.size(); ++i) {
        const Plane<T>& plane = planes[i];
        const T outside = glm::dot(plane.normal, ray.origin) - plane.offset;  // > 0: origin outside
        const T approach = glm::dot(plane.normal, ray.direction);             // < 0: the line enters here
        // A non-finite plane makes one of these non-finite (the origin is finite, the direction not zero).
        if (!detail::allFinite(outside, approach)) return std::nullopt;
        if (approach == T(0)) {
            if (outside > T(0)) return std::nullopt;
            continue;
        }
        // Outside a half-space and leaving it: the line is inside it only behind the origin, however
        // close (the quotient below, underflowing to -0 for a long direction, would pass for t = 0).
        if (outside > T(0) && approach > T(0)) return std::nullopt;
        // Nearly parallel to the plane, the quotient may overflow. Inside the half-space it goes to the
        // infinity that bounds nothing (harmless unless no other plane bounds that side, see below);
        // outside, to the other one: a miss.
        const T t = -outside / approach;
        if (approach < T(0)) {
            entering = true;
            if (t > entry) {
                entry = t;
                entryPlane = i;
            }
        } else {
            leaving = true;
            if (t < exit) {
                exit = t;
                exitPlane = i;
            }
        }
        if (entry > exit) return std::nullopt;
    }
    // An infinite end that some plane bounds is a crossing beyond the scalar's range (an overflowed
    // quotient): no hit, as for the box and the round solids. Only an end no plane bounds is unbounded.
    if ((entering && !isFinite(entry)) || (leaving && !isFinite(exit))) return std::nullopt;
    if (!(exit >= T(0) && entry <= ray.maxT)) return std::nullopt;

    const auto hitAt = [&](T t, std::size_t plane, T towardRay) {
        if (isFinite(t)) return SurfaceHit<T>{t, ray.at(t), planes[plane].normal};
        const Vec3<T> atInfinity =
            glm::mix(ray.origin, t * ray.direction, glm::notEqual(ray.direction, Vec3<T>(0)));
        return SurfaceHit<T>{t, atInfinity, towardRay * unitVector(ray.direction)};
    };
    // A bounded end within [0, maxT] whose point leaves the scalar's range (a direction reaching beyond
    // it): no hit, as for an overflowed quotient.
    return withFinitePoints(
        RaySolidHit<T>{hitAt(entry, entryPlane, T(-1)), hitAt(exit, exitPlane, T(1)), entry < T(0)},
        ray.maxT);
}

}  // namespace analytic
