// SPDX-License-Identifier: Zlib
// Long double reference for rays against oriented ellipsoids, independent of the core's unit-sphere frame:
// the ellipsoid is the quadric (x - c)^T M (x - c) <= 1 with M = R diag(1 / r^2) R^T, and the line is
// crossed with it in world space.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>

#include "reference/ray_round_reference.hpp"

namespace analytic::test {

// The ellipsoid about `center` whose axes are the columns of `rotation` and whose radii are `radii`
// grown by `grow` times (r_min + r_max) / (2 sqrt(r_min r_max)) (shrunk for grow < 0). Growing every radius
// by g moves the surface outwards, along its normal, by g (at the ends of the axes) down to
// 2 sqrt(r_min r_max) / (r_min + r_max) g (in between); the factor makes that at least |grow| everywhere, so
// the solid grown by grow contains every point within grow of the ellipsoid, as the checker's band
// requires. The crossing is the geometric form in the metric M (Haines et al., Ray Tracing Gems ch. 7):
// the line's point nearest the centre in that metric, then the half chord. The textbook b^2 - 4ac loses,
// even in long double, the digits a double comparison needs for ellipsoids 1e4 sizes away.
inline std::optional<ReferenceCrossing<3>> referenceLineEllipsoid(const RealVec3& origin,
                                                                  const RealVec3& direction,
                                                                  const RealVec3& center,
                                                                  const Mat3<Real>& rotation,
                                                                  const RealVec3& radii, Real grow) {
    const Real smallest = std::min({radii.x, radii.y, radii.z}),
               largest = std::max({radii.x, radii.y, radii.z});
    const RealVec3 grown = radii + grow * (smallest + largest) / (2 * std::sqrt(smallest * largest));
    if (!(std::min({grown.x, grown.y, grown.z}) > 0)) return std::nullopt;
    const Mat3<Real> metric =
        rotation *
        Mat3<Real>(RealVec3(1 / (grown.x * grown.x), 0, 0), RealVec3(0, 1 / (grown.y * grown.y), 0),
                   RealVec3(0, 0, 1 / (grown.z * grown.z))) *
        glm::transpose(rotation);
    const auto form = [&](const RealVec3& a, const RealVec3& b) { return glm::dot(a, metric * b); };
    const RealVec3 offset = origin - center;
    const Real a = form(direction, direction);
    const Real nearest = -form(offset, direction) / a;
    const RealVec3 nearestOffset = offset + nearest * direction;
    const Real inside = 1 - form(nearestOffset, nearestOffset);
    if (inside < 0) return std::nullopt;
    const Real halfChord = std::sqrt(inside / a);
    const auto hitAt = [&](Real t) {
        const RealVec3 normal = glm::normalize(metric * (offset + t * direction));
        return ReferenceHit<3>{t, normal, cosIncidence(normal, direction)};
    };
    return ReferenceCrossing<3>{hitAt(nearest - halfChord), hitAt(nearest + halfChord)};
}

// The smallest radius of curvature anywhere on the ellipsoid, r_min^2 / r_max (at the ends of its longest
// axis): a point moved by e along the surface turns the normal by at most e over it.
template <class T> Real smallestCurvatureRadius(const Ellipsoid<T>& ellipsoid) {
    const RealVec3 radii = widen(ellipsoid.radii);
    const Real smallest = std::min({radii.x, radii.y, radii.z}),
               largest = std::max({radii.x, radii.y, radii.z});
    return smallest * smallest / largest;
}

}  // namespace analytic::test
