// SPDX-License-Identifier: Zlib
// The per-triangle step of the exact mesh ray casts (BVH meshes, heightfields): what Bullet's
// BridgeTriangleRaycastCallback does with one triangle, with the geometry core's watertight test.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_triangle.hpp"

namespace analytic::cast {

// A hit's normal as reported: of unit length already, unless the object's basis is not a rotation
// (outside Bullet's model: hostile input), which the casts take as one; then made unit, or false (the hit
// dropped) when it has no direction. One test of the length on the usual path.
[[gnu::noinline, gnu::cold]] inline bool makeUnitNormalSlowly(btVector3& normal) {
    if (!(normal.length2() > 0) || !isFinite(toGlm(normal))) return false;
    normal = toBullet(unitVector(toGlm(normal)));
    return isFinite(toGlm(normal));
}

inline bool makeUnitNormal(btVector3& normal) {
    if (std::abs(normal.length2() - 1) <= btScalar(1e-3)) [[likely]]
        return true;
    return makeUnitNormalSlowly(normal);
}

// A hit's t as the reported fraction: +0 for -0, which a segment starting on a face gets from
// (face - origin) / direction, and which callbacks and users would see (in a sign test, printed). The
// addition is free.
inline btScalar reportedFraction(btScalar t) { return t + btScalar(0); }

// What BridgeTriangleRaycastCallback does with a triangle (in the frame of the unscaled mesh's
// vertices), with the core's watertight test: a hit below the running fraction is reported with the
// part and triangle index and its normal in world space; the callback's answer becomes the running
// fraction.
class TriangleReporter {
public:
    // ray: the segment in the vertices' frame, usable (isValidRay); prepared here, in place.
    TriangleReporter(const RayPath<btScalar>& ray, const btCollisionObject& object,
                     const btVector3& meshScaling, const btMatrix3x3& basis,
                     btCollisionWorld::RayResultCallback& callback)
        : ray_(watertightRayOf(ray)),
          object_(object),
          scaling_(toGlm(meshScaling)),
          inverseScaling_(btScalar(1) / scaling_),
          basis_(basis),
          callback_(callback),
          culling_(callback.m_flags & btTriangleRaycastCallback::kF_FilterBackfaces ? FaceCulling::BackFaces
                                                                                    : FaceCulling::None),
          keepUnflipped_(callback.m_flags & btTriangleRaycastCallback::kF_KeepUnflippedNormal),
          running_(callback.m_closestHitFraction) {}

    const btScalar& running() const { return running_; }
    // The segment as the triangles are tested against it (its maxT the running fraction, up to 1).
    const WatertightRay<btScalar>& ray() const { return ray_; }

    void operator()(const Triangle<btScalar>& triangle, int partId, int triangleIndex) {
        ray_.maxT = std::min(running_, btScalar(1));
        const std::optional<TriangleHit<btScalar>> hit = intersectRayTriangle(ray_, triangle, culling_);
        if (!hit || !(hit->t < running_)) return;
        // The plane's normal through the scaling that places the vertices (the inverse transpose of a
        // diagonal map is its inverse): the image of the front side stays the front.
        Vec3<btScalar> front = hit->normal * inverseScaling_;
        if (const btScalar largest = maxAbsComponent(front);
            !(largest >= std::numeric_limits<btScalar>::min() &&
              largest <= std::numeric_limits<btScalar>::max())) [[unlikely]]
            front = throughScaling(hit->normal);
        front = unitVector(front);
        const Vec3<btScalar> normal = hit->frontFace || keepUnflipped_ ? front : -front;
        btCollisionWorld::LocalShapeInfo shapeInfo{partId, triangleIndex};
        btVector3 worldNormal = basis_ * toBullet(normal);
        if (!makeUnitNormal(worldNormal)) return;
        btCollisionWorld::LocalRayResult result(&object_, &shapeInfo, worldNormal, reportedFraction(hit->t));
        running_ = callback_.addSingleResult(result, true);
    }

private:
    // normal / scaling, times a power of two that brings its largest component to [1, 2): for a
    // scaling whose inverse overflows (subnormal) or underflows, where the plain product is not finite
    // (0 * inf) or loses its bits. The unit normal and a finite, non-zero scaling keep every quotient
    // within the exponents.
    [[gnu::noinline, gnu::cold]] Vec3<btScalar> throughScaling(const Vec3<btScalar>& normal) const {
        btScalar mantissa[3];
        int exponent[3];
        int top = std::numeric_limits<int>::min();
        for (int axis = 0; axis < 3; ++axis) {
            mantissa[axis] =
                normal[axis] / std::frexp(scaling_[axis], &exponent[axis]);  // |scaling| 0.5 to 1
            if (mantissa[axis] != 0) top = std::max(top, std::ilogb(mantissa[axis]) - exponent[axis]);
        }
        Vec3<btScalar> scaled(0);
        for (int axis = 0; axis < 3; ++axis)
            if (mantissa[axis] != 0) scaled[axis] = std::ldexp(mantissa[axis], -exponent[axis] - top);
        return scaled;
    }

    WatertightRay<btScalar> ray_;
    const btCollisionObject& object_;
    Vec3<btScalar> scaling_;
    Vec3<btScalar> inverseScaling_;
    btMatrix3x3 basis_;
    btCollisionWorld::RayResultCallback& callback_;
    FaceCulling culling_;
    bool keepUnflipped_;
    btScalar running_;
};

}  // namespace analytic::cast
