// SPDX-License-Identifier: Zlib
// An ellipsoid collision shape for Bullet, which has none: a convex shape in Bullet's custom convex slot
// (CUSTOM_CONVEX_SHAPE_TYPE), so that every pair the plugin does not replace (ellipsoid vs box, sphere,
// mesh, another ellipsoid...) goes through Bullet's GJK/EPA on its support function, and ray casts
// through Bullet's rayTest use it too. The plugin replaces ellipsoid vs static plane with the exact T9 test.
//
// Margin model. GJK sees a convex shape as a core (localGetSupportingVertexWithoutMargin) grown by a
// sphere of radius margin. The core here is the ellipsoid with radii (scaled radii - margin), so:
// - margin 0 (the default): the core and the shape are the exact ellipsoid. GJK then finds no margin to
//   absorb shallow penetration and uses EPA for it when the other shape has no margin either (a mesh
//   triangle, another ellipsoid); against boxes, spheres, capsules, cylinders and hulls the other
//   shape's margin does that;
// - margin m > 0 (setMargin; at most the smallest scaled radius): the shape Bullet collides with is the
//   core grown by m, which touches the ellipsoid along its three axes and lies outside it elsewhere, by
//   at most 2 m (rmax - rmin) / (rmax + rmin) along any direction (0 for a sphere).
// localGetSupportingVertex (core + margin) is therefore the ellipsoid's support point up to rounding
// with margin 0, and within that bound with a margin. The plugin's ellipsoid-plane algorithm, getRadii
// and toEllipsoid use the ellipsoid itself, whatever the margin.
//
// Debug drawing: btCollisionWorld::debugDrawObject draws nothing but the AABB for custom convex shapes
// (its default case draws polyhedral and concave shapes only). A world that overrides debugDrawObject
// can draw ellipsoids with drawEllipsoid below.
#pragma once

#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>
#include <LinearMath/btIDebugDraw.h>
#include <LinearMath/btTransform.h>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"

namespace analytic {

class EllipsoidShape : public btConvexInternalShape {
public:
    BT_DECLARE_ALIGNED_ALLOCATOR();

    // Semi-axes along local x, y and z (negative values count as their magnitude). The margin starts at 0.
    explicit EllipsoidShape(const btVector3& radii);

    // The semi-axes with local scaling applied: the ellipsoid in its local frame.
    btVector3 getRadii() const { return unscaledRadii_ * m_localScaling; }
    const btVector3& getUnscaledRadii() const { return unscaledRadii_; }

    btVector3 localGetSupportingVertexWithoutMargin(const btVector3& direction) const override;
    void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* directions,
                                                           btVector3* supportPoints,
                                                           int count) const override;

    // Exact: the box of the shape (core grown by the margin) in the transform, no padding.
    void getAabb(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const override;
    void getAabbSlow(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const override;

    // The solid ellipsoid: mass / 5 * (b^2 + c^2, a^2 + c^2, a^2 + b^2) for scaled radii (a, b, c).
    void calculateLocalInertia(btScalar mass, btVector3& inertia) const override;

    void setLocalScaling(const btVector3& scaling) override;
    // Clamped to [0, smallest scaled radius]; scaling that shrinks the smallest radius below the
    // margin lowers the margin with it.
    void setMargin(btScalar margin) override;

    const char* getName() const override { return "Ellipsoid"; }

private:
    void updateCore();

    btVector3 unscaledRadii_;
    btVector3 coreRadii_;  // scaled radii less the margin
};

// The ellipsoid placed by a world transform, as the geometry core's primitive.
inline Ellipsoid<btScalar> toEllipsoid(const EllipsoidShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), toGlm(transform.getBasis()), toGlm(shape.getRadii())};
}

// Draws the ellipsoid's three principal ellipses (drawArc, 10 degree steps).
void drawEllipsoid(btIDebugDraw& drawer, const EllipsoidShape& shape, const btTransform& transform,
                   const btVector3& color);

}  // namespace analytic
