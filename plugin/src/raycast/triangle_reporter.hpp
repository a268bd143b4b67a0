// The per-triangle step of the exact mesh ray casts (BVH meshes, heightfields): what Bullet's
// BridgeTriangleRaycastCallback does with one triangle, with the geometry core's watertight test.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <optional>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_triangle.hpp"

namespace analytic::raycast {

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
          inverseScaling_(btScalar(1) / toGlm(meshScaling)),
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
        const Vec3<btScalar> front = unitVector(hit->normal * inverseScaling_);
        const Vec3<btScalar> normal = hit->frontFace || keepUnflipped_ ? front : -front;
        btCollisionWorld::LocalShapeInfo shapeInfo{partId, triangleIndex};
        btCollisionWorld::LocalRayResult result(&object_, &shapeInfo, basis_ * toBullet(normal), hit->t);
        running_ = callback_.addSingleResult(result, true);
    }

private:
    WatertightRay<btScalar> ray_;
    const btCollisionObject& object_;
    Vec3<btScalar> inverseScaling_;
    btMatrix3x3 basis_;
    btCollisionWorld::RayResultCallback& callback_;
    FaceCulling culling_;
    bool keepUnflipped_;
    btScalar running_;
};

}  // namespace analytic::raycast
