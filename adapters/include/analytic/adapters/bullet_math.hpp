// SPDX-License-Identifier: Zlib
// Conversions between Bullet's math types and the geometry core's GLM types, in Bullet's scalar.
#pragma once

#include <LinearMath/btMatrix3x3.h>
#include <LinearMath/btVector3.h>

#include "analytic/geometry/primitives.hpp"

namespace analytic {

// The scalar of the Bullet build (float; double with BT_USE_DOUBLE_PRECISION): what the Bullet-facing
// code instantiates the core with.
using Scalar = btScalar;

// The vector's x, y and z, copied exactly (btVector3's fourth lane is dropped). Nothing is checked: NaN
// and infinite values are copied as they are, for the core's queries to reject.
inline Vec3<btScalar> toGlm(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

// The vector's x, y and z, copied exactly, the fourth lane 0 (as Bullet's constructor sets it). NaN and
// infinite values are copied as they are.
inline btVector3 toBullet(const Vec3<btScalar>& v) { return {v.x, v.y, v.z}; }

// The same matrix in GLM's layout: column j of the result is Bullet's column j (m.getColumn(j)), so the
// result times toGlm(v) is m * v. Any matrix is converted, exactly: a placement's basis is taken as the
// core's rotation (orthonormal columns) by the callers, which do not check it.
inline Mat3<btScalar> toGlm(const btMatrix3x3& m) {
    return {toGlm(m.getColumn(0)), toGlm(m.getColumn(1)), toGlm(m.getColumn(2))};
}

}  // namespace analytic
