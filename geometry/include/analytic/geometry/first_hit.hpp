// SPDX-License-Identifier: Zlib
// Turns the line-vs-solid crossing of any solid into what a ray query reports: the single hit under the
// caller's policy for rays that start inside (firstHit), or every surface crossing (surfaceCrossings).
#pragma once

#include <optional>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// Whether a line that is inside a solid for entry <= t <= exit is reported for a ray reaching up to maxT
// (see RaySolidHit). Parameters that overflowed (from inputs beyond the scalar's range) never are.
template <class T> bool crossingReachesRay(T entry, T exit, T maxT) {
    return exit >= T(0) && entry <= maxT && isFinite(entry) && isFinite(exit);
}

template <class T, int N>
std::optional<SurfaceHit<T, N>> firstHit(const std::optional<RaySolidHit<T, N>>& crossing,
                                         const RayPath<T, N>& ray, StartInside policy) {
    if (!crossing) return std::nullopt;
    if (!crossing->originInside) {
        return crossing->entry;
    }
    switch (policy) {
        case StartInside::HitAtOrigin:
            return SurfaceHit<T, N>{T(0), ray.origin, -unitVector(ray.direction)};
        case StartInside::HitExit:
            if (crossing->exit.t > ray.maxT) return std::nullopt;
            return crossing->exit;
        case StartInside::NoHit:
            break;
    }
    return std::nullopt;
}

// SPEC T2 (chai3d's segment-sphere, for any solid): the 0, 1 or 2 points where the ray crosses the
// solid's surface within [0, maxT], in order of t, each flagged entering or leaving.
template <class T, int N> struct SurfaceCrossings {
    int count;
    SurfaceHit<T, N> hits[2];
    bool entering[2];
};

// Policy for a ray that starts inside: its origin is no crossing, so it reports only where it leaves (if
// that is within maxT), flagged leaving; chai3d drops that exit. A tangent ray reports the touching point
// twice, entering then leaving, since the line's entry and exit coincide there.
template <class T, int N>
SurfaceCrossings<T, N> surfaceCrossings(const std::optional<RaySolidHit<T, N>>& crossing,
                                        const RayPath<T, N>& ray) {
    SurfaceCrossings<T, N> result{};
    if (!crossing) return result;
    // A reported crossing has entry.t <= maxT and exit.t >= 0, so one bound per hit remains to check.
    if (crossing->entry.t >= T(0)) {
        result.hits[0] = crossing->entry;
        result.entering[0] = true;
        result.count = 1;
    }
    if (crossing->exit.t <= ray.maxT) {
        result.hits[result.count] = crossing->exit;
        result.entering[result.count] = false;
        ++result.count;
    }
    return result;
}

}  // namespace analytic
