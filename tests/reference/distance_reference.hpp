// SPDX-License-Identifier: Zlib
// Exact oracle for closest points and distances: straightforward formulations evaluated in long double,
// written independently of the core (no Voronoi-region walk, no shared helpers). A point query on a
// solid (box, sphere, capsule) returns the query point itself when it lies inside; the "signed"
// functions are negative inside (minus the depth below the surface).
#pragma once

#include <algorithm>
#include <cmath>

#include "analytic/geometry/primitives.hpp"
#include "support/test_support.hpp"

namespace analytic::reference {

using test::Real;
using test::RealVec3;
using test::widen;

// ---------------------------------------------------------------------------------------------------
// Point - segment.

struct SegmentPoint {
    RealVec3 point;  // a + s (b - a)
    Real s;          // in [0, 1]
};

inline SegmentPoint closestPointOnSegment(const RealVec3& p, const RealVec3& a, const RealVec3& b) {
    const RealVec3 ab = b - a;
    const Real lengthSquared = glm::dot(ab, ab);
    if (lengthSquared == 0) return {a, 0};
    const Real s = std::clamp(glm::dot(p - a, ab) / lengthSquared, Real(0), Real(1));
    return {s == 1 ? b : a + s * ab, s};
}

inline Real distancePointSegment(const RealVec3& p, const RealVec3& a, const RealVec3& b) {
    return glm::length(p - closestPointOnSegment(p, a, b).point);
}

// ---------------------------------------------------------------------------------------------------
// Point - triangle. Edges: ab, bc, ca; vertices a, b, c.

enum class TriangleFeature { Face, EdgeAB, EdgeBC, EdgeCA, VertexA, VertexB, VertexC };

struct TrianglePoint {
    RealVec3 point;
    TriangleFeature feature;
};

// Projects p onto the triangle's plane; if the projection is inside (all three signed areas agree
// with the normal) that is the answer, otherwise the nearest of the three edge points. A triangle of
// zero area has no plane: only the edges count.
inline TrianglePoint closestPointOnTriangle(const RealVec3& p, const RealVec3& a, const RealVec3& b,
                                            const RealVec3& c) {
    const RealVec3 normal = glm::cross(b - a, c - a);
    const Real normalSquared = glm::dot(normal, normal);
    if (normalSquared > 0) {
        const RealVec3 projected = p - (glm::dot(p - a, normal) / normalSquared) * normal;
        const bool inside = glm::dot(glm::cross(b - a, projected - a), normal) >= 0 &&
                            glm::dot(glm::cross(c - b, projected - b), normal) >= 0 &&
                            glm::dot(glm::cross(a - c, projected - c), normal) >= 0;
        if (inside) return {projected, TriangleFeature::Face};
    }
    struct Edge {
        RealVec3 from, to;
        TriangleFeature edge, start, end;
    };
    const Edge edges[3] = {
        {a, b, TriangleFeature::EdgeAB, TriangleFeature::VertexA, TriangleFeature::VertexB},
        {b, c, TriangleFeature::EdgeBC, TriangleFeature::VertexB, TriangleFeature::VertexC},
        {c, a, TriangleFeature::EdgeCA, TriangleFeature::VertexC, TriangleFeature::VertexA}};
    TrianglePoint best{};
    Real bestDistanceSquared = INFINITY;
    for (const Edge& edge : edges) {
        const SegmentPoint onEdge = closestPointOnSegment(p, edge.from, edge.to);
        const RealVec3 offset = p - onEdge.point;
        const Real distanceSquared = glm::dot(offset, offset);
        if (distanceSquared < bestDistanceSquared) {
            bestDistanceSquared = distanceSquared;
            best.point = onEdge.point;
            best.feature = onEdge.s == 0 ? edge.start : onEdge.s == 1 ? edge.end : edge.edge;
        }
    }
    return best;
}

template <class T> TrianglePoint closestPointOnTriangle(const Vec3<T>& p, const Triangle<T>& triangle) {
    return closestPointOnTriangle(widen(p), widen(triangle.a), widen(triangle.b), widen(triangle.c));
}

inline Real distancePointTriangle(const RealVec3& p, const RealVec3& a, const RealVec3& b,
                                  const RealVec3& c) {
    return glm::length(p - closestPointOnTriangle(p, a, b, c).point);
}

template <class T> Real distancePointTriangle(const Vec3<T>& p, const Triangle<T>& triangle) {
    return glm::length(widen(p) - closestPointOnTriangle(p, triangle).point);
}

// ---------------------------------------------------------------------------------------------------
// Point - oriented box (solid). rotation's columns are the box axes in world space.

// Coordinates of p along the box axes, relative to the centre.
inline RealVec3 obbLocal(const RealVec3& p, const RealVec3& center, const Mat3<Real>& rotation) {
    const RealVec3 offset = p - center;
    return {glm::dot(rotation[0], offset), glm::dot(rotation[1], offset), glm::dot(rotation[2], offset)};
}

inline RealVec3 obbWorld(const RealVec3& local, const RealVec3& center, const Mat3<Real>& rotation) {
    return center + local.x * rotation[0] + local.y * rotation[1] + local.z * rotation[2];
}

// p itself when inside, else the nearest point of the box's surface.
inline RealVec3 closestPointOnObb(const RealVec3& p, const RealVec3& center, const Mat3<Real>& rotation,
                                  const RealVec3& halfExtents) {
    const RealVec3 local = obbLocal(p, center, rotation);
    return obbWorld(glm::clamp(local, -halfExtents, halfExtents), center, rotation);
}

// The nearest point of the box's surface, also for p inside (moved to the nearest face; the lowest
// axis wins a tie).
inline RealVec3 closestPointOnObbSurface(const RealVec3& p, const RealVec3& center,
                                         const Mat3<Real>& rotation, const RealVec3& halfExtents) {
    RealVec3 local = obbLocal(p, center, rotation);
    const RealVec3 slack = halfExtents - glm::abs(local);
    if (slack.x < 0 || slack.y < 0 || slack.z < 0)
        return obbWorld(glm::clamp(local, -halfExtents, halfExtents), center, rotation);
    int nearestAxis = 0;
    for (int axis = 1; axis < 3; ++axis)
        if (slack[axis] < slack[nearestAxis]) nearestAxis = axis;
    local[nearestAxis] = std::copysign(halfExtents[nearestAxis], local[nearestAxis]);
    return obbWorld(local, center, rotation);
}

// Distance to the surface: positive outside, minus the distance to the nearest face inside.
inline Real signedDistancePointObb(const RealVec3& p, const RealVec3& center, const Mat3<Real>& rotation,
                                   const RealVec3& halfExtents) {
    const RealVec3 excess = glm::abs(obbLocal(p, center, rotation)) - halfExtents;
    const RealVec3 outside = glm::max(excess, RealVec3(0));
    const Real outsideDistance = glm::length(outside);
    if (outsideDistance > 0) return outsideDistance;
    return std::max({excess.x, excess.y, excess.z});
}

inline Real distancePointObb(const RealVec3& p, const RealVec3& center, const Mat3<Real>& rotation,
                             const RealVec3& halfExtents) {
    return std::max(Real(0), signedDistancePointObb(p, center, rotation, halfExtents));
}

template <class T> RealVec3 closestPointOnObb(const Vec3<T>& p, const Obb<T>& box) {
    return closestPointOnObb(widen(p), widen(box.center), widen(box.rotation), widen(box.halfExtents));
}

template <class T> RealVec3 closestPointOnObbSurface(const Vec3<T>& p, const Obb<T>& box) {
    return closestPointOnObbSurface(widen(p), widen(box.center), widen(box.rotation), widen(box.halfExtents));
}

template <class T> Real signedDistancePointObb(const Vec3<T>& p, const Obb<T>& box) {
    return signedDistancePointObb(widen(p), widen(box.center), widen(box.rotation), widen(box.halfExtents));
}

template <class T> Real distancePointObb(const Vec3<T>& p, const Obb<T>& box) {
    return distancePointObb(widen(p), widen(box.center), widen(box.rotation), widen(box.halfExtents));
}

// ---------------------------------------------------------------------------------------------------
// Point - sphere and point - capsule (solids).

inline Real signedDistancePointSphere(const RealVec3& p, const RealVec3& center, Real radius) {
    return glm::length(p - center) - radius;
}

inline Real distancePointSphere(const RealVec3& p, const RealVec3& center, Real radius) {
    return std::max(Real(0), signedDistancePointSphere(p, center, radius));
}

// p itself when inside, else the point of the sphere's surface on the way to the centre.
inline RealVec3 closestPointOnSphere(const RealVec3& p, const RealVec3& center, Real radius) {
    const Real distance = glm::length(p - center);
    if (distance <= radius) return p;
    return center + (radius / distance) * (p - center);
}

inline Real signedDistancePointCapsule(const RealVec3& p, const RealVec3& a, const RealVec3& b, Real radius) {
    return distancePointSegment(p, a, b) - radius;
}

inline Real distancePointCapsule(const RealVec3& p, const RealVec3& a, const RealVec3& b, Real radius) {
    return std::max(Real(0), signedDistancePointCapsule(p, a, b, radius));
}

inline RealVec3 closestPointOnCapsule(const RealVec3& p, const RealVec3& a, const RealVec3& b, Real radius) {
    return closestPointOnSphere(p, closestPointOnSegment(p, a, b).point, radius);
}

template <class T> Real signedDistancePointSphere(const Vec3<T>& p, const Sphere<T>& sphere) {
    return signedDistancePointSphere(widen(p), widen(sphere.center), Real(sphere.radius));
}

template <class T> Real signedDistancePointCapsule(const Vec3<T>& p, const Capsule<T>& capsule) {
    return signedDistancePointCapsule(widen(p), widen(capsule.a), widen(capsule.b), Real(capsule.radius));
}

// ---------------------------------------------------------------------------------------------------
// Point - plane. The normal need not be unit length here: the plane is dot(normal, x) == offset.

inline Real signedDistancePointPlane(const RealVec3& p, const RealVec3& normal, Real offset) {
    return (glm::dot(normal, p) - offset) / glm::length(normal);
}

inline RealVec3 closestPointOnPlane(const RealVec3& p, const RealVec3& normal, Real offset) {
    return p - ((glm::dot(normal, p) - offset) / glm::dot(normal, normal)) * normal;
}

template <class T> Real signedDistancePointPlane(const Vec3<T>& p, const Plane<T>& plane) {
    return signedDistancePointPlane(widen(p), widen(plane.normal), Real(plane.offset));
}

// ---------------------------------------------------------------------------------------------------
// Segment - segment: the pair minimising |P(s) - Q(t)|, P(s) = p0 + s (p1 - p0), Q(t) = q0 + t (q1 - q0),
// s and t in [0, 1]. The squared distance is convex on the unit square, so its minimum is the
// stationary point of the two lines when that lies inside the square, else on the square's border,
// where it is one of the four point-segment minima (an end point of one segment against the other).
// Parallel segments have no unique pair; this returns one minimising pair.

struct SegmentPair {
    Real s, t;
    RealVec3 pointOnP, pointOnQ;
    Real distance;
};

inline SegmentPair closestPointsSegmentSegment(const RealVec3& p0, const RealVec3& p1, const RealVec3& q0,
                                               const RealVec3& q1) {
    const RealVec3 u = p1 - p0, v = q1 - q0, w = p0 - q0;
    const Real uu = glm::dot(u, u), uv = glm::dot(u, v), vv = glm::dot(v, v);
    const Real uw = glm::dot(u, w), vw = glm::dot(v, w);
    SegmentPair best{0, 0, p0, q0, INFINITY};
    const auto consider = [&](Real s, Real t) {
        const RealVec3 onP = p0 + s * u, onQ = q0 + t * v;
        const Real distance = glm::length(onP - onQ);
        if (distance < best.distance) best = {s, t, onP, onQ, distance};
    };
    const Real determinant = uu * vv - uv * uv;
    if (determinant > 0) {
        const Real s = (uv * vw - vv * uw) / determinant;
        const Real t = (uu * vw - uv * uw) / determinant;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) consider(s, t);
    }
    consider(0, closestPointOnSegment(p0, q0, q1).s);
    consider(1, closestPointOnSegment(p1, q0, q1).s);
    consider(closestPointOnSegment(q0, p0, p1).s, 0);
    consider(closestPointOnSegment(q1, p0, p1).s, 1);
    return best;
}

inline Real distanceSegmentSegment(const RealVec3& p0, const RealVec3& p1, const RealVec3& q0,
                                   const RealVec3& q1) {
    return closestPointsSegmentSegment(p0, p1, q0, q1).distance;
}

}  // namespace analytic::reference
