// Turns the line-vs-solid crossing of any solid into the single hit a ray query reports, under the
// caller's policy for rays that start inside.
#pragma once

#include <optional>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

template <class T, int N>
std::optional<SurfaceHit<T, N>> firstHit(const std::optional<RaySolidHit<T, N>>& crossing,
                                         const Ray<T, N>& ray, StartInside policy) {
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

}  // namespace analytic
