// SPDX-License-Identifier: Zlib
// Ray against a capsule: the infinite cylinder about its axis, then the end sphere where that crossing
// falls beyond the axis' span.
#pragma once

#include <limits>
#include <optional>

#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// Where the line of the ray enters and leaves the capsule. Normals: unit, outward: from the axis on the
// side, from the end's centre on the end spheres (where rounding loses it, on a capsule tiny against its
// distance, the one facing the ray: -unit direction at the entry, +unit direction at the exit).
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT. A line that only touches: entry.t == exit.t.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of t).
// a == b, or an axis whose square is below the smallest normal number: the sphere about a, answered as
// intersectRaySphere answers it.
// Invalid input -> nullopt: maxT < 0 or NaN; radius <= 0 or NaN; a direction or radius whose square is
// not a normal number (zero; |v| below about 1.1e-19 or above 1.8e19 in float, 1.5e-154 and 1.3e154 in
// double; NaN or infinite); a NaN or an infinity in origin, a or b; |origin - a|^2 or |b - a|^2 beyond
// the largest finite value; a t that overflows.
template <class T>
inline std::optional<RaySolidHit<T>> intersectRayCapsule(const RayPath<T>& ray, const Capsule<T>& capsule) {
    const Vec3<T> axis = capsule.b - capsule.a;
    const T axisLength2 = glm::dot(axis, axis);
    if (!(axisLength2 >= std::numeric_limits<T>::min())) {
        if (!isFinite(capsule.b)) return std::nullopt;
        return intersectRaySphere(ray, Sphere<T>{capsule.a, capsule.radius});
    }
    const Vec3<T> offset = ray.origin - capsule.a;
    if (!detail::acceptsRoundSolid(ray, offset, capsule.radius) || !detail::isUsableSquare(axisLength2))
        return std::nullopt;
    const T radius2 = capsule.radius * capsule.radius;
    const detail::AxialRay<T> split = detail::splitAlongAxis(ray, offset, axis, axisLength2);
    const auto side = detail::infiniteCylinderRoots(split, radius2);
    // The capsule lies inside the infinite cylinder, so a line that misses the cylinder misses it.
    if (!side) return std::nullopt;

    // Where the line crosses the cylinder beside the axis' span, that is where it crosses the capsule.
    // Where it crosses beyond one end, it crosses the capsule through that end's sphere or not at all
    // (between the cylinder crossing and the sphere the line would run inside the capsule). So each of
    // entry and exit needs at most one sphere; at the seam the sphere and cylinder agree to second order.
    enum class Part { Side, EndA, EndB };
    const auto partAt = [&](T t) {
        const T along = split.alongAt(t);
        return along < T(0) ? Part::EndA : along > axisLength2 ? Part::EndB : Part::Side;
    };
    const Part entryPart = partAt(side->low), exitPart = partAt(side->high);
    const T inverseLength2 = T(1) / glm::dot(ray.direction, ray.direction);
    const auto endOffset = [&](Part end) { return end == Part::EndA ? offset : ray.origin - capsule.b; };
    std::optional<QuadraticRoots<T>> endRoots;
    T entry = side->low, exit = side->high;
    if (entryPart != Part::Side) {
        endRoots = detail::lineSphereRoots(endOffset(entryPart), ray.direction, inverseLength2, radius2);
        if (!endRoots) return std::nullopt;
        entry = endRoots->low;
    }
    if (exitPart != Part::Side) {
        if (exitPart != entryPart) {
            endRoots = detail::lineSphereRoots(endOffset(exitPart), ray.direction, inverseLength2, radius2);
            if (!endRoots) return std::nullopt;
        }
        exit = endRoots->high;
    }
    // Entry and exit from different surfaces (a sphere and the side) may cross within rounding on a line
    // that only touches the capsule: a touch.
    exit = std::max(entry, exit);
    if (!crossingReachesRay(entry, exit, ray.maxT)) return std::nullopt;

    const T inverseRadius = T(1) / capsule.radius;
    const auto hit = [&](Part part, T t, bool entering) {
        if (part == Part::Side) return detail::cylinderSideHit(ray, split, t, inverseRadius, entering);
        return detail::roundSurfaceHit(ray, t, endOffset(part), ray.direction, inverseRadius,
                                       entering ? -ray.direction : ray.direction);
    };
    return RaySolidHit<T>{hit(entryPart, entry, true), hit(exitPart, exit, false), entry < T(0)};
}

}  // namespace analytic
