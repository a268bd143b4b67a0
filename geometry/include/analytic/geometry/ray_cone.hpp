// SPDX-License-Identifier: Zlib
// Ray against a solid right circular cone with its base disc: the line's stretch inside the double cone
// about the axis (a quadratic), cut to the slab between the apex plane and the base plane, which keeps
// the one nappe that is the cone.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// Where the line of the ray enters and leaves the solid cone. Normals, unit: on the side the surface's
// (radial out, tilted towards the apex by the half angle); +the unit axis (apex to base) on the base; at
// the apex itself, where the side has no normal (and on the side where rounding leaves none: a line along
// the axis), the unit axis pointing away from the base.
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT. A line that only touches: entry.t == exit.t.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of t).
// Invalid input -> nullopt: maxT < 0 or NaN; radius <= 0 or NaN; a direction, radius, axis base - apex or
// slant height whose square is not a normal number (zero, so apex == base; |v| below about 1.1e-19 or
// above 1.8e19 in float, 1.5e-154 and 1.3e154 in double; NaN or infinite); a NaN or an infinity in
// origin, apex or base; |origin - apex|^2 beyond the largest finite value; a t that overflows.
template <class T>
inline std::optional<RaySolidHit<T>> intersectRayCone(const RayPath<T>& ray, const Cone<T>& cone) {
    const Vec3<T> axis = cone.base - cone.apex;
    const T axisLength2 = glm::dot(axis, axis);
    const T direction2 = glm::dot(ray.direction, ray.direction);
    const T slant2 = axisLength2 + cone.radius * cone.radius;
    if (!detail::acceptsRoundSolid(ray, ray.origin - cone.apex, cone.radius) ||
        !detail::isUsableSquare(axisLength2) || !detail::isUsableSquare(slant2))
        return std::nullopt;
    const T height = std::sqrt(axisLength2);
    const Vec3<T> unitAxis = axis / height;
    const T slope = cone.radius / height;
    const T slant = std::sqrt(slant2);
    const T sideAcross = height / slant, sideAlong = -cone.radius / slant;

    // Solved along the unit direction (tau in lengths) from a point of the line near its crossings: the
    // quadratic's coefficients are then of the size of the cone's section there, not of the distance to
    // where the ray starts or to the apex, and do not cancel when the crossings are close (a line passing
    // near the apex, where the double cone's roots meet, has coefficients as small as its distance from
    // it). The point: where the line passes nearest the axis, moved into the stretch between the apex and
    // base planes and within the slant height of its point nearest the apex, where any crossing lies (a
    // line along the axis, or in the base plane, may pass nearest the axis anywhere; when rounding leaves
    // those two stretches apart, the line misses and the slant's alone will do).
    const T inverseLength = T(1) / std::sqrt(direction2);
    const Vec3<T> unitDirection = ray.direction * inverseLength;
    const T directionAlong = glm::dot(unitDirection, unitAxis);
    const Vec3<T> directionAcross = unitDirection - directionAlong * unitAxis;
    const T directionAcross2 = glm::dot(directionAcross, directionAcross);
    const T nearApex = -glm::dot(ray.origin - cone.apex, unitDirection);
    const Vec3<T> apexOffset = ray.origin + nearApex * unitDirection - cone.apex;
    const T apexAlong = glm::dot(apexOffset, unitAxis);
    T toAxis = T(0);
    if (detail::isUsableSquare(directionAcross2))
        toAxis = -glm::dot(apexOffset - apexAlong * unitAxis, directionAcross) / directionAcross2;
    T nearLow = -slant, nearHigh = slant;
    if (std::abs(directionAlong) >= std::numeric_limits<T>::min()) {
        const T atApex = -apexAlong / directionAlong, atBase = (height - apexAlong) / directionAlong;
        const T low = std::max(nearLow, std::min(atApex, atBase)),
                high = std::min(nearHigh, std::max(atApex, atBase));
        if (low <= high) {
            nearLow = low;
            nearHigh = high;
        }
    }
    toAxis = std::clamp(toAxis, nearLow, nearHigh);
    const T shift = nearApex + toAxis;
    const Vec3<T> offset = ray.origin + shift * unitDirection - cone.apex;
    const T offsetAlong = glm::dot(offset, unitAxis);
    const Vec3<T> offsetAcross = offset - offsetAlong * unitAxis;

    // Inside the double cone: |across|^2 - (slope along)^2 <= 0, as a tau^2 + 2 halfB tau + c <= 0. A line
    // steeper than the side (a > 0) is inside for one stretch; one closer to the axis (a < 0) crosses both
    // nappes and is inside before the first root and after the second; a = 0 runs parallel to the side.
    const T slopeAlong = slope * directionAlong, slopeOffset = slope * offsetAlong;
    const T a = std::fma(-slopeAlong, slopeAlong, directionAcross2);
    const T halfB = std::fma(-slopeOffset, slopeAlong, glm::dot(offsetAcross, directionAcross));
    const T c = std::fma(-slopeOffset, slopeOffset, glm::dot(offsetAcross, offsetAcross));
    constexpr T infinity = std::numeric_limits<T>::infinity();
    struct Stretch {
        T low, high;
    };
    Stretch pieces[2] = {{infinity, -infinity}, {infinity, -infinity}};  // empty unless set
    if (a == T(0)) {
        if (halfB != T(0)) {
            const T root = -c / (2 * halfB);
            pieces[0] = halfB > T(0) ? Stretch{-infinity, root} : Stretch{root, infinity};
        } else if (c <= T(0)) {
            pieces[0] = {-infinity, infinity};
        }
    } else {
        T discriminant = differenceOfProducts(halfB, halfB, a, c);
        // Crossing both nappes, the line always has roots; a negative discriminant is rounding (the apex).
        if (a < T(0) && discriminant < T(0)) discriminant = T(0);
        if (!(discriminant >= T(0))) return std::nullopt;
        const T q = -(halfB + std::copysign(std::sqrt(discriminant), halfB));
        const T r0 = q == T(0) ? T(0) : q / a, r1 = q == T(0) ? T(0) : c / q;
        const T low = std::min(r0, r1), high = std::max(r0, r1);
        if (a > T(0)) {
            pieces[0] = {low, high};
        } else {
            pieces[0] = {-infinity, low};
            pieces[1] = {high, infinity};
        }
    }

    // The slab 0 <= along <= height keeps the cone's nappe; the two stretches of the double cone lie in
    // different nappes, so what is left is one stretch (both meet it only at the apex: their hull).
    T slabLow = -infinity, slabHigh = infinity;
    if (std::abs(directionAlong) >= std::numeric_limits<T>::min()) {
        const T atApex = -offsetAlong / directionAlong, atBase = (height - offsetAlong) / directionAlong;
        slabLow = std::min(atApex, atBase);
        slabHigh = std::max(atApex, atBase);
    } else if (!(offsetAlong >= T(0) && offsetAlong <= height)) {
        return std::nullopt;
    }
    T entry = infinity, exit = -infinity;
    bool entryOnSide = false, exitOnSide = false;
    for (const Stretch& piece : pieces) {
        const T low = std::max(piece.low, slabLow), high = std::min(piece.high, slabHigh);
        if (!(low <= high)) continue;
        if (low < entry) {
            entry = low;
            entryOnSide = piece.low >= slabLow;
        }
        if (high > exit) {
            exit = high;
            exitOnSide = piece.high <= slabHigh;
        }
    }
    if (!(entry <= exit)) return std::nullopt;
    const T entryT = (shift + entry) * inverseLength, exitT = (shift + exit) * inverseLength;
    if (!crossingReachesRay(entryT, exitT, ray.maxT)) return std::nullopt;

    const auto hit = [&](T tau, T t, bool onSide, bool entering) {
        Vec3<T> normal = -unitAxis;  // the apex
        if (onSide) {
            // Projected again (the parts' rounding left a component along the axis as large as u times
            // the offset and tau), and twice: one projection leaves a part along the axis of u |sum|, not
            // small against what is left across near the axis; a second leaves u |across| (Kahan's "twice is
            // enough"). What is left across the axis within a few roundings of the point's offset is noise (a
            // point on the axis: a line along it, through the apex): no side normal then.
            const Vec3<T> sum = offsetAcross + tau * directionAcross;
            const Vec3<T> once = sum - glm::dot(sum, unitAxis) * unitAxis;
            const Vec3<T> across = once - glm::dot(once, unitAxis) * unitAxis;
            const T across2 = glm::dot(across, across);
            const T noise = 8 * unitRoundoff<T>;
            if (detail::isUsableSquare(across2) && across2 > noise * noise * glm::dot(sum, sum)) {
                normal = across * (sideAcross / std::sqrt(across2)) + unitAxis * sideAlong;
                // Three roundings left |normal|^2 a few u from 1: one Newton step for 1 / sqrt (see
                // roundSurfaceHit) brings it within the rounding of a unit vector.
                normal *= T(1.5) - T(0.5) * glm::dot(normal, normal);
            }
        } else if ((directionAlong > T(0)) != entering) {
            normal = unitAxis;  // the slab's plane on this side is the base's
        }
        return SurfaceHit<T>{t, ray.at(t), normal};
    };
    return RaySolidHit<T>{hit(entry, entryT, entryOnSide, true), hit(exit, exitT, exitOnSide, false),
                          entryT < T(0)};
}

namespace detail {

// The line's stretch inside both solids (each given by its crossing: see RaySolidHit).
template <class T> std::optional<RaySolidHit<T>> stretchInBoth(const std::optional<RaySolidHit<T>>& a,
                                                               const std::optional<RaySolidHit<T>>& b) {
    if (!a || !b) return std::nullopt;
    const SurfaceHit<T>& entry = a->entry.t >= b->entry.t ? a->entry : b->entry;
    const SurfaceHit<T>& exit = a->exit.t <= b->exit.t ? a->exit : b->exit;
    if (!(entry.t <= exit.t)) return std::nullopt;
    return RaySolidHit<T>{entry, exit, entry.t < T(0)};
}

// The line's stretch inside either of two solids whose union is convex (its stretches then overlap).
template <class T> std::optional<RaySolidHit<T>> stretchInEither(const std::optional<RaySolidHit<T>>& a,
                                                                 const std::optional<RaySolidHit<T>>& b) {
    if (!a || !b) return a ? a : b;
    const SurfaceHit<T>& entry = a->entry.t <= b->entry.t ? a->entry : b->entry;
    const SurfaceHit<T>& exit = a->exit.t >= b->exit.t ? a->exit : b->exit;
    return RaySolidHit<T>{entry, exit, entry.t < T(0)};
}

// The line's stretch where dot(p, up) <= level (up a unit vector), as a crossing whose far end is at
// infinity.
template <class T>
std::optional<RaySolidHit<T>> stretchBelow(const RayPath<T>& line, const Vec3<T>& up, T level) {
    constexpr T infinity = std::numeric_limits<T>::infinity();
    const T along = glm::dot(line.origin, up), rate = glm::dot(line.direction, up);
    const Vec3<T> nowhere(infinity);
    if (rate == T(0)) {
        if (!(along <= level)) return std::nullopt;
        return RaySolidHit<T>{{-infinity, nowhere, up}, {infinity, nowhere, up}, true};
    }
    const T t = (level - along) / rate;
    const SurfaceHit<T> cut{t, line.at(t), up};
    if (rate > T(0)) return RaySolidHit<T>{{-infinity, nowhere, up}, cut, true};
    return RaySolidHit<T>{cut, {infinity, nowhere, up}, t < T(0)};
}

}  // namespace detail

// Where the line of the ray enters and leaves the rounded cone: the union of the apex's sphere and of the
// larger cone whose side is the side moved out (apex margin / sin(half angle) farther out), cut by the
// cylinder about the axis, of radius radius + margin, from the grown base up to where that side meets the
// sphere. The solids are met along the whole line, then cut to [0, maxT], so that a stretch in one of
// them beyond maxT still extends the other's. Normals, unit and outward: those of the part crossed (the
// sphere's, the grown side's, the rim cylinder's, +the unit axis on the grown base).
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction).
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (where the line leaves the solid going back). On the surface:
// entry.t = 0, not inside, when the ray goes in; exit.t = 0, inside, when it goes out (within rounding).
// A margin of 0: intersectRayCone's answers.
// Invalid input -> nullopt: a margin that is NaN, infinite or negative; maxT < 0 or NaN; radius not
// positive and finite; |base - apex|^2 not a normal number (apex == base); and what the parts reject
// (a NaN or an infinity in origin or direction, a zero direction or one whose square is not a normal
// number).
template <class T>
inline std::optional<RaySolidHit<T>> intersectRayRoundedCone(const RayPath<T>& ray,
                                                             const RoundedCone<T>& rounded) {
    const Cone<T>& cone = rounded.cone;
    const T margin = rounded.margin;
    if (!(margin >= T(0)) || !isFinite(margin)) return std::nullopt;
    if (margin == T(0)) return intersectRayCone(ray, cone);
    // The solids below are met along the whole line (maxT = infinity): the ray's own maxT is checked here.
    if (!(ray.maxT >= T(0))) return std::nullopt;
    // Built about the apex: solids placed at the cone's position would round their derived points (the
    // moved apex, the cylinder's ends) at the scale of that position, which tilts a short cone's axis.
    const Vec3<T> base = cone.base - cone.apex;
    const T height2 = glm::dot(base, base);
    if (!detail::isUsableSquare(height2) || !(cone.radius > T(0)) || !isFinite(cone.radius))
        return std::nullopt;
    const T height = std::sqrt(height2);
    const Vec3<T> up = -base / height;
    const T slant = std::hypot(height, cone.radius);
    const T sine = cone.radius / slant;
    // The grown side is a cone with the same half angle, its apex margin / sine above the apex; it is cut
    // where its radius reaches the rim's, radius + margin (below that, the rim's cylinder alone bounds the
    // solid), so that it stays of the rounded cone's size: grown down to the base, a flat cone's would be
    // many times wider, and rounded at that size. The part below the cut is the rim's whole cylinder cut by
    // its plane, not a cylinder of its own: a short cylinder's axis, from two points rounded at the cone's
    // size, would tilt.
    const T rimRadius = cone.radius + margin;
    const T apexShift = margin / sine, sideLength = rimRadius * height / cone.radius;
    const Cone<T> grownSide{apexShift * up, (apexShift - sideLength) * up, rimRadius};
    const Cylinder<T> rim{base - margin * up, (margin * sine) * up, rimRadius};
    const Vec3<T> origin = ray.origin - cone.apex;
    // The solids' crossings ahead of the origin along the whole line from it in that direction.
    const auto crossingAlong = [&](const Vec3<T>& direction) {
        const RayPath<T> line{origin, direction, std::numeric_limits<T>::infinity()};
        const std::optional<RaySolidHit<T>> inRim = intersectRayCylinder(line, rim);
        return detail::stretchInEither(
            detail::stretchInEither(
                detail::stretchInBoth(intersectRayCone(line, grownSide), inRim),
                detail::stretchInBoth(inRim, detail::stretchBelow(line, up, apexShift - sideLength))),
            intersectRaySphere(line, Sphere<T>{Vec3<T>(0), margin}));
    };
    std::optional<RaySolidHit<T>> whole = crossingAlong(ray.direction);
    if (!whole || !crossingReachesRay(whole->entry.t, whole->exit.t, ray.maxT)) return std::nullopt;
    if (whole->originInside) {
        // A solid crossed only behind the origin was left out: the entry is where the line leaves the
        // rounded cone going back.
        const std::optional<RaySolidHit<T>> back = crossingAlong(-ray.direction);
        if (back) whole->entry = {-back->exit.t, back->exit.point, back->exit.normal};
    }
    whole->entry.point += cone.apex;
    whole->exit.point += cone.apex;
    return whole;
}

}  // namespace analytic
