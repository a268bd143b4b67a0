// SPDX-License-Identifier: Zlib
// Ray against an oriented ellipsoid: the ray is taken into the frame where the ellipsoid is the unit
// sphere (rotated by the transpose of the rotation, divided by the radii) and crossed with it there by the
// sphere's solver. That map is affine, so t is the same in both frames and points come from the world ray.
#pragma once

#include <algorithm>
#include <optional>

#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// Where the line of the ray enters and leaves the ellipsoid (see RaySolidHit). Normals: the gradient of
// the ellipsoid's equation, rotation * (p / radii) for the unit-sphere point p, normalised. nullopt when
// it misses, when that stretch lies outside [0, maxT], for radii that are not positive and finite, or
// for input the sphere rejects in the unit-sphere frame (see detail::acceptsRoundSolid): a NaN or an
// infinity anywhere, a direction whose square is not usable there; and where a point within [0, maxT]
// leaves the scalar's range (withFinitePoints).
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
