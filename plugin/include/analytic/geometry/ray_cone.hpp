// Ray against a solid right circular cone with its base disc: the line's stretch inside the double cone
// about the axis (a quadratic), cut to the slab between the apex plane and the base plane, which keeps
// the one nappe that is the cone.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// Solid cone: the apex, the centre of the base disc, and the disc's radius.
template <class T> struct Cone {
    Vec3<T> apex;
    Vec3<T> base;
    T radius;
};

// Where the line of the ray enters and leaves the solid cone (see RaySolidHit). Normals: on the side the
// surface's (radial out, tilted towards the apex by the half angle), +the unit axis (apex to base) on the
// base, and at the apex itself, where the side has no normal, the unit axis pointing away from the base.
// nullopt when it misses, when that stretch lies outside [0, maxT], for invalid input (see
// detail::acceptsRoundSolid) or an axis or slant height without a usable square.
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
            // Projected again: the parts' rounding left a component along the axis as large as u times
            // the offset and tau, which near the apex or far along the line is not small against across.
            const Vec3<T> sum = offsetAcross + tau * directionAcross;
            const Vec3<T> across = sum - glm::dot(sum, unitAxis) * unitAxis;
            const T across2 = glm::dot(across, across);
            if (detail::isUsableSquare(across2)) {
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

}  // namespace analytic
