// SPDX-License-Identifier: Zlib
#include "analytic/ellipsoid_shape.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analytic/geometry/support.hpp"

namespace analytic {

namespace {

btVector3 supportPoint(const btVector3& radii, const btVector3& direction) {
    return toBullet(ellipsoidSupport(toGlm(radii), toGlm(direction)).point);
}

btScalar smallestComponent(const btVector3& v) { return std::min({v.x(), v.y(), v.z()}); }

bool allFinite(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// The radii, checked: NaN, infinite or negative ones are no size, refused rather than turned into NaN
// support points and boxes.
btVector3 validRadii(const btVector3& radii) {
    if (!allFinite(radii) || !(smallestComponent(radii) >= 0))
        throw std::invalid_argument("analytic::EllipsoidShape: radii must be finite and >= 0");
    return radii.absolute();  // -0 as 0
}

}  // namespace

EllipsoidShape::EllipsoidShape(const btVector3& radii) : unscaledRadii_(validRadii(radii)) {
    m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
    m_collisionMargin = 0;
    updateCore();
}

btVector3 EllipsoidShape::localGetSupportingVertexWithoutMargin(const btVector3& direction) const {
    return supportPoint(coreRadii_, direction);
}

void EllipsoidShape::batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3* directions,
                                                                       btVector3* supportPoints,
                                                                       int count) const {
    for (int i = 0; i < count; ++i)
        supportPoints[i] = supportPoint(coreRadii_, directions[i]);
}

void EllipsoidShape::getAabb(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const {
    // Along world axis i the core reaches |row_i(basis) * coreRadii| from the centre (its support
    // point's coordinate), and the margin adds itself.
    const btMatrix3x3& basis = transform.getBasis();
    const btVector3 halfExtents((basis[0] * coreRadii_).length() + m_collisionMargin,
                                (basis[1] * coreRadii_).length() + m_collisionMargin,
                                (basis[2] * coreRadii_).length() + m_collisionMargin);
    aabbMin = transform.getOrigin() - halfExtents;
    aabbMax = transform.getOrigin() + halfExtents;
}

void EllipsoidShape::getAabbSlow(const btTransform& transform, btVector3& aabbMin, btVector3& aabbMax) const {
    getAabb(transform, aabbMin, aabbMax);
}

void EllipsoidShape::calculateLocalInertia(btScalar mass, btVector3& inertia) const {
    const btVector3 r = getRadii();
    const btVector3 squared = r * r;
    inertia =
        mass / 5 * btVector3(squared.y() + squared.z(), squared.x() + squared.z(), squared.x() + squared.y());
}

void EllipsoidShape::setLocalScaling(const btVector3& scaling) {
    // Ignored rather than kept: NaN or infinite radii would make every support point and box so.
    if (!allFinite(scaling) || !allFinite(unscaledRadii_ * scaling.absolute())) return;
    btConvexInternalShape::setLocalScaling(scaling);
    updateCore();
}

void EllipsoidShape::setMargin(btScalar margin) {
    if (std::isnan(margin)) return;  // std::clamp would keep it
    m_collisionMargin = margin;
    updateCore();
}

void EllipsoidShape::updateCore() {
    const btVector3 radii = getRadii();
    m_collisionMargin = std::clamp(m_collisionMargin, btScalar(0), smallestComponent(radii));
    coreRadii_ = radii - btVector3(m_collisionMargin, m_collisionMargin, m_collisionMargin);
}

void drawEllipsoid(btIDebugDraw& drawer, const EllipsoidShape& shape, const btTransform& transform,
                   const btVector3& color) {
    const btVector3 radii = shape.getRadii();
    const btMatrix3x3& basis = transform.getBasis();
    // drawArc spans axis (radiusA) and normal x axis (radiusB): the cyclic order x, y, z covers each
    // principal plane once.
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3, k = (i + 2) % 3;
        drawer.drawArc(transform.getOrigin(), basis.getColumn(k), basis.getColumn(i), radii[i], radii[j], 0,
                       SIMD_2_PI, color, false);
    }
}

}  // namespace analytic
