// SPDX-License-Identifier: Zlib
// Reference for rays against convex polyhedra given by planes: the half-spaces dot(normal, x) <= offset in
// long double, the line clipped by explicit cases (a line parallel to a plane is inside or outside it,
// decided by a sign, never by a quotient), as ray_box_reference.hpp does for a box's slabs.
#pragma once

#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "reference/ray_box_reference.hpp"
#include "support/test_support.hpp"

namespace analytic::test::reference {

struct RealPlane {
    RealVec3 normal;
    Real offset;
};

template <class T> std::vector<RealPlane> widenPlanes(std::span<const Plane<T>> planes) {
    std::vector<RealPlane> wide;
    for (const Plane<T>& plane : planes)
        wide.push_back({widen(plane.normal), Real(plane.offset)});
    return wide;
}

struct PlanesCrossing {
    bool meets = false;  // the line meets the solid: [entry, exit] is not empty
    Real entry = -std::numeric_limits<Real>::infinity();
    Real exit = std::numeric_limits<Real>::infinity();
    int entryPlane = -1;  // -1: no plane bounds the line on that side
    int exitPlane = -1;
};

// Where the line origin + t direction lies in every half-space, each moved outwards by margin (a distance:
// the normals have unit length; inwards for a negative margin), except those the line parallels: whether it
// lies in those is decided exactly, so no band is needed there. Ties keep the lowest index.
inline PlanesCrossing crossPlanes(const std::vector<RealPlane>& planes, const RealVec3& origin,
                                  const RealVec3& direction, Real margin = 0) {
    PlanesCrossing crossing;
    for (int i = 0; i < int(planes.size()); ++i) {
        const Real position = glm::dot(planes[i].normal, origin);
        const Real speed = glm::dot(planes[i].normal, direction);
        if (speed == 0) {
            if (position > planes[i].offset) return crossing;  // outside, parallel
            continue;                                          // inside, parallel
        }
        const Real t = (planes[i].offset + margin - position) / speed;
        if (speed < 0 && t > crossing.entry) {
            crossing.entry = t;
            crossing.entryPlane = i;
        }
        if (speed > 0 && t < crossing.exit) {
            crossing.exit = t;
            crossing.exitPlane = i;
        }
    }
    crossing.meets = crossing.entry <= crossing.exit;
    return crossing;
}

// Hit or miss, or Either when moving the planes (see crossPlanes) or the ray's end points by margin changes
// the answer: the tangency band inside which rounding may decide either way.
inline Expect expectedHit(const std::vector<RealPlane>& planes, const RealVec3& origin,
                          const RealVec3& direction, Real maxT, Real margin) {
    const Real tMargin = margin / glm::length(direction);
    const auto meets = [&](Real grow, Real tLow, Real tHigh) {
        const PlanesCrossing crossing = crossPlanes(planes, origin, direction, grow);
        return crossing.meets && crossing.exit >= tLow && crossing.entry <= tHigh;
    };
    const bool loose = meets(margin, -tMargin, maxT + tMargin);
    const bool tight = meets(-margin, tMargin, maxT - tMargin);
    if (loose == tight) return loose ? Expect::Hit : Expect::Miss;
    return Expect::Either;
}

}  // namespace analytic::test::reference
