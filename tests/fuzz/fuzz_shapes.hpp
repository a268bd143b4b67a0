// SPDX-License-Identifier: Zlib
// Shapes the world fuzz targets build from hostile values.
#pragma once

#include <cmath>
#include <stdexcept>

#include "analytic/ellipsoid_shape.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {

// EllipsoidShape refuses radii that are not finite sizes (std::invalid_argument): checked, and then a
// valid ellipsoid stands in. The caller owns the shape.
inline EllipsoidShape* ellipsoidOrStandIn(const btVector3& radii) {
    const bool valid = std::isfinite(radii.x()) && std::isfinite(radii.y()) && std::isfinite(radii.z()) &&
                       radii.x() >= 0 && radii.y() >= 0 && radii.z() >= 0;
    try {
        auto* shape = new EllipsoidShape(radii);
        FUZZ_CHECK(valid);
        return shape;
    } catch (const std::invalid_argument&) {
        FUZZ_CHECK(!valid);
        return new EllipsoidShape(btVector3(1, btScalar(0.5), btScalar(0.25)));
    }
}

}  // namespace analytic::fuzz
