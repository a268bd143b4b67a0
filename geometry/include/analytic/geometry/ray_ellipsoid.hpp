// SPDX-License-Identifier: Zlib
// Ray against an oriented ellipsoid: the ray is taken into the frame where the ellipsoid is the unit
// sphere (rotated by the transpose of the rotation, divided by the radii) and crossed with it there by the
// sphere's solver. That map is affine, so t is the same in both frames and points come from the world ray.
#pragma once

#include <algorithm>
#include <optional>

#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// Where the line of the ray enters and leaves the solid ellipsoid. Normals: the gradient of the
// ellipsoid's equation, rotation * (p / radii) for the unit-sphere point p, normalised (where rounding
// loses it, on an ellipsoid tiny against its distance, the unit direction facing the ray).
// Direction: need not be unit; t is in multiples of it (point = origin + t * direction), the same t in
// the world and in the unit-sphere frame.
// Range: entry.t <= exit.t, reported only when [entry.t, exit.t] overlaps [0, maxT] (a touch counts);
// exit.t may exceed maxT. A line that only touches: entry.t == exit.t.   Miss: nullopt.
// Start inside: originInside, entry.t < 0 (behind the origin). On the surface: entry.t = 0, not inside,
// when the ray goes in; exit.t = 0, inside, when it goes out (within the rounding of the frame change).
// Invalid input -> nullopt: radii not all positive and finite; maxT < 0 or NaN; a NaN or an infinity in
// origin, direction, centre or rotation; what the sphere's solver rejects in the unit-sphere frame (the
// direction divided by the radii with a square that is not a normal number: a zero direction, or one
// tiny or huge against the radii; radii so small that their inverse overflows; a squared distance to the
// centre beyond the largest finite value there); a t that overflows; a point within [0, maxT] that does.
// Not checked: the rotation must be orthonormal; another matrix gives wrong t, points and normals.
template <class T> inline std::optional<RaySolidHit<T>> intersectRayEllipsoid(const RayPath<T>& ray,
                                                                              const Ellipsoid<T>& ellipsoid) {
    if (!isFinite(ellipsoid.radii) || !glm::all(glm::greaterThan(ellipsoid.radii, Vec3<T>(0))))
        return std::nullopt;
    const Mat3<T> toLocal = glm::transpose(ellipsoid.rotation);
    const Vec3<T> inverseRadii = T(1) / ellipsoid.radii;
    // A NaN or an infinity in the rotation, or radii so small that their inverse overflows, make the local
    // direction non-finite (it is not zero), which acceptsRoundSolid rejects.
    const RayPath<T> local{(toLocal * (ray.origin - ellipsoid.center)) * inverseRadii,
                           (toLocal * ray.direction) * inverseRadii, ray.maxT};
    if (!detail::acceptsRoundSolid(local, local.origin, T(1))) return std::nullopt;
    const auto roots = detail::lineSphereRoots(local.origin, local.direction,
                                               T(1) / glm::dot(local.direction, local.direction), T(1));
    if (!roots || !crossingReachesRay(roots->low, roots->high, ray.maxT)) return std::nullopt;

    // The normal at the unit-sphere point p runs along rotation * (p / radii). Scaled by the smallest radius,
    // its length lies between r_min / r_max and 1 whatever the radii' size, so its square neither overflows
    // nor underflows for radii up to 1 / sqrt(smallest normal number) apart.
    const Vec3<T> normalScale =
        inverseRadii * std::min({ellipsoid.radii.x, ellipsoid.radii.y, ellipsoid.radii.z});
    const Vec3<T> normalOffset = ellipsoid.rotation * (local.origin * normalScale);
    const Vec3<T> normalRate = ellipsoid.rotation * (local.direction * normalScale);
    // Where the normal vanishes below the rounding (see roundSurfaceHit), it falls back to the ray's
    // direction, brought to a largest component of 1: only the local direction's square is known to be
    // usable.
    const Vec3<T> fallback = ray.direction / maxAbsComponent(ray.direction);
    // Radii up to the largest value put points within the ray beyond it.
    return withFinitePoints(
        RaySolidHit<T>{detail::roundSurfaceHit(ray, roots->low, normalOffset, normalRate, T(1), -fallback),
                       detail::roundSurfaceHit(ray, roots->high, normalOffset, normalRate, T(1), fallback),
                       roots->low < T(0)},
        ray.maxT);
}

}  // namespace analytic
