// SPDX-License-Identifier: Zlib
// An ellipsoid collision shape for Bullet, which has none: a convex shape in Bullet's custom convex slot
// (CUSTOM_CONVEX_SHAPE_TYPE), so that every pair the plugin does not replace (ellipsoid vs box, sphere,
// mesh, another ellipsoid...) goes through Bullet's GJK/EPA on its support function, and ray casts
// through Bullet's rayTest use it too. The plugin replaces ellipsoid vs static plane with the geometry
// core's exact ellipsoid-plane contact, and analytic::rayTest casts at it exactly.
#pragma once

#include <BulletCollision/CollisionShapes/btConvexInternalShape.h>
#include <LinearMath/btIDebugDraw.h>
#include <LinearMath/btTransform.h>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"

namespace analytic {

// The solid ellipsoid with semi-axes along its local x, y and z, centred at its origin.
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
// with margin 0, and within that bound with a margin. The plugin's ellipsoid-plane algorithm, the ray
// casts, getRadii and toEllipsoid use the ellipsoid itself, whatever the margin.
class EllipsoidShape : public btConvexInternalShape {
public:
    BT_DECLARE_ALIGNED_ALLOCATOR();

    // The ellipsoid with these semi-axes along local x, y and z, margin 0, local scaling 1. Zero radii
    // make a flat (or degenerate) ellipsoid, which GJK and the plane contact take as it is and rays never
    // hit. Misuse: a NaN, infinite or negative radius throws std::invalid_argument("analytic::EllipsoidShape:
    // radii must be finite and >= 0"): such radii are no size, and would make every support point and box
    // NaN.
    explicit EllipsoidShape(const btVector3& radii);

    // The semi-axes with local scaling applied: the ellipsoid in its local frame. Finite and never
    // negative (Bullet keeps the magnitude of a scaling; setLocalScaling ignores one that would overflow).
    btVector3 getRadii() const { return unscaledRadii_ * m_localScaling; }
    // The semi-axes as constructed.
    const btVector3& getUnscaledRadii() const { return unscaledRadii_; }

    // The core's support point in the local frame: the point of the ellipsoid with radii (scaled radii -
    // margin) farthest along direction. The direction need not be unit; a zero direction gives the
    // centre (0, 0, 0); a NaN or infinite one gives NaN (Bullet's GJK never asks for one).
    btVector3 localGetSupportingVertexWithoutMargin(const btVector3& direction) const override;
    // localGetSupportingVertexWithoutMargin for each of count directions (unit or not) into
    // supportPoints[0, count); nothing for count <= 0.
    void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* directions,
                                                           btVector3* supportPoints,
                                                           int count) const override;

    // Exact: the box of the shape (core grown by the margin) placed by the transform, no padding: along
    // world axis i, the centre -+ (|row i of the basis * core radii| + margin). A basis that is not a
    // rotation gives the box of the core so mapped, grown by the margin; a NaN or infinite transform, a
    // box with NaN or infinite bounds.
    void getAabb(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const override;
    // The same as getAabb.
    void getAabbSlow(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const override;

    // The solid ellipsoid's inertia about its axes: mass / 5 * (b^2 + c^2, a^2 + c^2, a^2 + b^2) for
    // scaled radii (a, b, c), whatever the margin. Mass is not checked: 0 gives zero inertia, a negative
    // mass a negative one.
    void calculateLocalInertia(btScalar mass, btVector3& inertia) const override;

    // Bullet's local scaling (its magnitude, as Bullet keeps it), then the margin clamped as setMargin
    // says: a scaling that shrinks the smallest radius below the margin lowers the margin with it, and
    // scaling back does not raise it again. Misuse: a NaN or infinite scaling, or one that makes a scaled
    // radius overflow, is ignored (the shape keeps its scaling), as Bullet's setters do not report errors.
    void setLocalScaling(const btVector3& scaling) override;
    // Clamped to [0, smallest scaled radius]: a negative margin (-infinity too) gives 0, a larger one
    // (+infinity too) the smallest radius (the core then flat on that axis). Misuse: a NaN margin is
    // ignored (the shape keeps its margin).
    void setMargin(btScalar margin) override;

    // "Ellipsoid".
    const char* getName() const override { return "Ellipsoid"; }

private:
    void updateCore();

    btVector3 unscaledRadii_;
    btVector3 coreRadii_;  // scaled radii less the margin
};

// The ellipsoid placed by a world transform, as the geometry core's primitive: centre the transform's
// origin, axes the basis's columns (the core takes them as orthonormal: a basis that is not a rotation
// is outside its model), radii getRadii() (the ellipsoid itself, whatever the margin). Values are
// converted as they are: NaN or infinite ones stay, for the core's queries to reject.
inline Ellipsoid<btScalar> toEllipsoid(const EllipsoidShape& shape, const btTransform& transform) {
    return {toGlm(transform.getOrigin()), toGlm(transform.getBasis()), toGlm(shape.getRadii())};
}

// Draws the ellipsoid's three principal ellipses (the scaled radii, whatever the margin) placed by the
// transform, with drawer.drawArc in its default 10 degree steps. Bullet's own debug drawing
// (btCollisionWorld::debugDrawObject) draws nothing but the AABB for custom convex shapes: a world that
// overrides debugDrawObject can call this. NaN values reach the drawer as they are.
void drawEllipsoid(btIDebugDraw& drawer, const EllipsoidShape& shape, const btTransform& transform,
                   const btVector3& color);

}  // namespace analytic
