// SPDX-License-Identifier: Zlib
// Turns the line-vs-solid crossing of any solid into what a ray query reports: the single hit under the
// caller's policy for rays that start inside (firstHit), or every surface crossing (surfaceCrossings).
#pragma once

#include <optional>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// Whether a line that is inside a solid for entry <= t <= exit is reported for a ray reaching up to maxT:
// true when [entry, exit] overlaps [0, maxT] (touching counts: exit == 0 or entry == maxT) and both are
// finite. Parameters are in multiples of the ray's direction. Parameters that overflowed (from inputs
// beyond the scalar's range), or a NaN anywhere, give false; entry > exit is not checked.
template <class T> bool crossingReachesRay(T entry, T exit, T maxT) {
    return exit >= T(0) && entry <= maxT && isFinite(entry) && isFinite(exit);
}

// The one hit a ray query reports, from the crossing an intersectRay* function computed for this ray.
// Direction: need not be unit; t is in multiples of it, as in the crossing. Range: t in [0, ray.maxT].
// Miss (crossing nullopt): nullopt. Origin outside: the entry.
// Start inside (crossing->originInside), by policy: HitAtOrigin, t = 0 with point = origin and normal
// -unit direction; HitExit, the exit if exit.t <= maxT and finite, else nullopt; NoHit, nullopt. An
// unbounded convex solid that the ray never leaves (its exit at t = +infinity, no surface) gives nullopt
// under HitExit, also when maxT is +infinity. An origin on the surface counts as outside when the ray
// goes in (the entry at t = 0) and inside when it goes out (the exit at t = 0 under HitExit), within the
// rounding of t.
// Invalid input: none of its own; ray must be the crossing's ray. Every hit returned is finite.
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
            // An exit at infinity is where an unbounded solid has no surface: the ray never leaves.
            if (!(crossing->exit.t <= ray.maxT) || !isFinite(crossing->exit.t)) return std::nullopt;
            return crossing->exit;
        case StartInside::NoHit:
            break;
    }
    return std::nullopt;
}

// The 0, 1 or 2 points where the ray crosses a solid's surface within [0, maxT] (chai3d's segment-sphere
// test, for any solid): hits[0 .. count) in order of t, entering[i] whether hits[i] enters the solid.
template <class T, int N> struct SurfaceCrossings {
    int count;                 // 0, 1 or 2
    SurfaceHit<T, N> hits[2];  // hits[0 .. count), in order of t
    bool entering[2];          // whether hits[i] enters the solid
};

// Every surface crossing of the ray, from the crossing an intersectRay* function computed for this ray.
// Direction: need not be unit; t is in multiples of it. Range: each t in [0, ray.maxT], in order.
// Miss (crossing nullopt): count 0.
// Start inside: the origin is no crossing, so only where the ray leaves (if within maxT) is reported,
// flagged leaving; chai3d drops that exit. An origin on the surface gives a crossing at t = 0: entering
// when the ray goes in, leaving when it goes out. A tangent ray reports the touching point twice,
// entering then leaving, since the line's entry and exit coincide there. An unbounded convex solid's
// exit at t = +infinity is no crossing (no surface there): not reported, also when maxT is +infinity.
// Invalid input: none of its own; ray must be the crossing's ray. Every crossing reported is finite.
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
    if (crossing->exit.t <= ray.maxT && isFinite(crossing->exit.t)) {
        result.hits[result.count] = crossing->exit;
        result.entering[result.count] = false;
        ++result.count;
    }
    return result;
}

}  // namespace analytic
