// SPDX-License-Identifier: Zlib
// Long double references for rays against solid cones: the cone with its base disc (the textbook
// quadratic of the double cone in an axis frame, its roots kept where they lie on the cone's nappe within
// its height, and the base plane inside the disc), and the cone grown by a margin as Bullet's btConeShape
// is (its solids' references combined).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <vector>

#include "reference/ray_round_reference.hpp"

namespace analytic::test {

// The reference, for the cone grown by `grow` (shrunk if negative): side and base each moved out by grow,
// so the apex moves grow / sin(half angle) away from the base. Candidates are every point where the line
// meets the boundary; the cone being convex, the line is inside between the first and the last.
struct ReferenceCone {
    RealVec3 apex, base;
    Real radius;
};

inline std::optional<ReferenceCrossing<3>> referenceLineCone(const RealVec3& rayOrigin,
                                                             const RealVec3& direction,
                                                             const ReferenceCone& cone, Real grow) {
    // Measured from the line's point nearest the apex: from a far origin, the coefficients of a line
    // passing near the apex would cancel to nothing even in long double.
    const Real shift = -glm::dot(rayOrigin - cone.apex, direction) / glm::dot(direction, direction);
    const RealVec3 origin = rayOrigin + shift * direction;
    const Real height0 = glm::length(cone.base - cone.apex);
    const RealVec3 along = (cone.base - cone.apex) / height0;
    const Real slope = cone.radius / height0;
    const Real slant = std::sqrt(1 + slope * slope);
    const Real height = height0 + grow + grow * slant / slope;
    if (!(height > 0)) return std::nullopt;
    const RealVec3 apex = cone.apex - along * (grow * slant / slope);
    const AxisFrame frame(origin, direction, apex, apex + along * height);
    const Real radius = slope * height;
    const RealVec3 apexNormal = -along;
    const Real baseCos = cosIncidence(along, direction);

    std::vector<ReferenceHit<3>> candidates;
    const auto sideNormal = [&](Real t) {
        const RealVec3 p = frame.origin + t * frame.direction;
        const Real across = std::hypot(p.x, p.y);
        if (across == 0) return apexNormal;
        return ((p.x * frame.across1 + p.y * frame.across2) / across - slope * along) / slant;
    };
    const auto atBase = [&]() -> std::optional<Real> {
        if (frame.direction.z == 0) return std::nullopt;
        return (height - frame.origin.z) / frame.direction.z;
    };
    // x^2 + y^2 - slope^2 z^2 = 0 as A t^2 + B t + C = 0, with the textbook's stable pair of root formulas
    // (q / A and C / q): a line nearly parallel to the side has A near 0 and one root far away.
    const RealVec3 o = frame.origin, d = frame.direction;
    const Real s2 = slope * slope;
    const Real A = d.x * d.x + d.y * d.y - s2 * d.z * d.z;
    const Real B = 2 * (o.x * d.x + o.y * d.y - s2 * o.z * d.z);
    const Real C = o.x * o.x + o.y * o.y - s2 * o.z * o.z;
    std::vector<Real> roots;
    if (A != 0) {
        // A line within the half angle of the axis (A < 0) meets both nappes: a negative discriminant is
        // rounding, of a line through the apex.
        const Real discriminant = A < 0 ? std::max(B * B - 4 * A * C, Real(0)) : B * B - 4 * A * C;
        if (discriminant >= 0) {
            const Real q = -(B + std::copysign(std::sqrt(discriminant), B)) / 2;
            roots.push_back(q / A);
            if (q != 0) roots.push_back(C / q);
        }
    } else if (B != 0) {
        roots.push_back(-C / B);
    }
    const std::optional<Real> baseT = atBase();
    for (const Real t : roots) {
        const Real z = frame.alongAt(t);
        // A root at the apex may come out a rounding beyond it (z < 0): 1e-17 heights is ~100 roundings.
        if (!(z >= -1e-17L * height && z <= height)) continue;
        const RealVec3 normal = sideNormal(t);
        ReferenceHit<3> hit{t, normal, cosIncidence(normal, direction)};
        if (baseT) {
            hit.competingT = *baseT;
            hit.competingCos = baseCos;
        }
        candidates.push_back(hit);
    }
    if (baseT) {
        const RealVec3 p = o + *baseT * d;
        if (p.x * p.x + p.y * p.y <= radius * radius) {
            ReferenceHit<3> hit{*baseT, along, baseCos};
            // The nearest side root, the rim's other surface.
            for (const Real t : roots)
                if (std::abs(t - *baseT) < std::abs(hit.competingT - *baseT)) {
                    hit.competingT = t;
                    hit.competingCos = cosIncidence(sideNormal(t), direction);
                }
            candidates.push_back(hit);
        }
    }
    if (candidates.empty()) return std::nullopt;
    const auto [first, last] = std::minmax_element(candidates.begin(), candidates.end(),
                                                   [](const auto& x, const auto& y) { return x.t < y.t; });
    ReferenceCrossing<3> crossing{*first, *last};
    for (ReferenceHit<3>* hit : {&crossing.entry, &crossing.exit}) {
        hit->t += shift;
        hit->competingT += shift;
    }
    return crossing;
}

// The rounded cone's reference, grown by `grow`: each of its solids (see intersectRayRoundedCone: the grown
// side cut where it reaches the rim's radius, the rim's cylinder above and below that cut, the apex's
// sphere) grown by grow, their crossings combined in long double; at an edge between two solids crossed
// together, each entry's competing surface is the other's. The solids' own references are the cone's above
// and the cylinder's and sphere's. entrySolid, when given, is set to the solid the entry lies on (0 the
// grown side, 1 the rim's cylinder above the cut, 2 below it, 3 the apex's sphere).
inline std::optional<ReferenceCrossing<3>> referenceLineRoundedCone(const RealVec3& rayOrigin,
                                                                    const RealVec3& direction,
                                                                    const ReferenceCone& cone, Real margin,
                                                                    Real grow, int* entrySolid = nullptr) {
    using Crossing = std::optional<ReferenceCrossing<3>>;
    // Measured from the line's point nearest the apex, as the cone's reference is: the textbook quadratics
    // of the sphere and the cylinder lose even long double's digits from an origin 1e5 radii away.
    const Real shift = -glm::dot(rayOrigin - cone.apex, direction) / glm::dot(direction, direction);
    const RealVec3 origin = rayOrigin + shift * direction;
    const Real height = glm::length(cone.apex - cone.base);
    const RealVec3 up = (cone.apex - cone.base) / height;
    const Real sine = cone.radius / std::hypot(cone.radius, height);
    const Real rimRadius = cone.radius + margin;
    const RealVec3 grownApex = cone.apex + margin / sine * up;
    const RealVec3 split = grownApex - rimRadius * height / cone.radius * up;
    const RealVec3 top = cone.apex + margin * sine * up, bottom = cone.base - margin * up;
    const Crossing side =
        referenceLineCone(origin, direction, ReferenceCone{grownApex, split, rimRadius}, grow);
    const Crossing upperRim = referenceLineCylinder(origin, direction, split, top, rimRadius, grow);
    const Crossing lowerRim = referenceLineCylinder(origin, direction, bottom, split, rimRadius, grow);
    const Crossing tip = referenceLineSphere<3>(origin, direction, cone.apex, margin + grow);
    const auto both = [](const Crossing& a, const Crossing& b) -> Crossing {
        if (!a || !b) return std::nullopt;
        const bool aEnters = a->entry.t >= b->entry.t, aExits = a->exit.t <= b->exit.t;
        ReferenceCrossing<3> crossing{aEnters ? a->entry : b->entry, aExits ? a->exit : b->exit};
        crossing.entry.competingT = (aEnters ? b : a)->entry.t;
        crossing.entry.competingCos = (aEnters ? b : a)->entry.cosIncidence;
        crossing.exit.competingT = (aExits ? b : a)->exit.t;
        crossing.exit.competingCos = (aExits ? b : a)->exit.cosIncidence;
        if (!(crossing.entry.t <= crossing.exit.t)) return std::nullopt;
        return crossing;
    };
    const auto either = [](const Crossing& a, const Crossing& b) -> Crossing {
        if (!a || !b) return a ? a : b;
        return ReferenceCrossing<3>{a->entry.t <= b->entry.t ? a->entry : b->entry,
                                    a->exit.t >= b->exit.t ? a->exit : b->exit};
    };
    Crossing crossing = either(either(both(side, upperRim), lowerRim), tip);
    if (crossing && entrySolid) {
        const std::array<const Crossing*, 4> solids{&side, &upperRim, &lowerRim, &tip};
        for (int i = 0; i < 4; ++i)
            if (*solids[std::size_t(i)] && (*solids[std::size_t(i)])->entry.t == crossing->entry.t)
                *entrySolid = i;
    }
    if (crossing)
        for (ReferenceHit<3>* hit : {&crossing->entry, &crossing->exit}) {
            hit->t += shift;
            hit->competingT += shift;
        }
    return crossing;
}

}  // namespace analytic::test
