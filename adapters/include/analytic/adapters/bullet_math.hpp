// SPDX-License-Identifier: Zlib
// Conversions between Bullet's math types and the geometry core's GLM types, in Bullet's scalar.
#pragma once

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include "analytic/geometry/primitives.hpp"

namespace analytic {

inline Vec3<btScalar> toGlm(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

inline btVector3 toBullet(const Vec3<btScalar>& v) { return {v.x, v.y, v.z}; }

inline Mat3<btScalar> toGlm(const btMatrix3x3& m) {
    return {toGlm(m.getColumn(0)), toGlm(m.getColumn(1)), toGlm(m.getColumn(2))};
}

}  // namespace analytic
