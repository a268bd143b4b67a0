// SPDX-License-Identifier: Zlib
// Closest points between a point and a segment, triangle or oriented box, between two segments, and
// the contacts of a sphere with a sphere, capsule, box or triangle (Ericson, Real-Time Collision
// Detection, ch. 5), in closed form. Offsets are computed relative to a vertex of the shape (never as a
// difference of two absolute points) and areas as cross products (never as a difference of products of
// dot products), so the errors are a few roundings of the size of the case. Each function states its
// contract; none outputs a NaN or an infinity.
#pragma once

#include <cstdint>
#include <optional>

#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

// ---------------------------------------------------------------------------------------------------
// Result types.

// point = a + s (b - a), s in [0, 1].
template <class T> struct SegmentPoint {
    Vec3<T> point;  // on the segment
    T s;            // in [0, 1]
};

// Edge i runs from vertex i to vertex i + 1 (mod 3): Edge0 = ab, Edge1 = bc, Edge2 = ca; Vertex0 = a.
enum class TriangleFeature : std::uint8_t { Face, Edge0, Edge1, Edge2, Vertex0, Vertex1, Vertex2 };

// The feature of edge `edge` (0: ab, 1: bc, 2: ca). Invalid input: edge must be 0, 1 or 2; it is not
// checked, and another value gives another feature or a value outside the enumeration.
constexpr TriangleFeature triangleEdge(int edge) { return TriangleFeature(1 + edge); }
// The feature of vertex `vertex` (0: a, 1: b, 2: c). Invalid input: as triangleEdge, vertex must be 0, 1
// or 2 (not checked).
constexpr TriangleFeature triangleVertex(int vertex) { return TriangleFeature(4 + vertex); }

// point = barycentric.x a + barycentric.y b + barycentric.z c (weights >= 0, sum 1). feature is the
// lowest-dimensional feature whose interior holds the point, except that the face is closed: a point
// whose projection falls exactly on the boundary reports Face.
template <class T> struct TrianglePoint {
    Vec3<T> point;            // on the triangle
    Vec3<T> barycentric;      // weights of a, b and c
    TriangleFeature feature;  // that holds the point
};

// The nearest point of the solid box. For a query inside (surface included) point is the query
// itself, and nearestFaceNormal (unit, outward) and nearestFaceDistance (>= 0) describe the face
// nearest to it (ties: lowest axis, then the positive side); for a query outside both are zero.
template <class T> struct ObbPoint {
    Vec3<T> point;              // the nearest point of the box
    bool inside;                // the query is in the box (surface included)
    Vec3<T> nearestFaceNormal;  // inside only; zero outside
    T nearestFaceDistance;      // inside only; zero outside
};

// The pair minimising |pointOnP - pointOnQ|: pointOnP = p0 + s (p1 - p0), pointOnQ = q0 + t (q1 - q0),
// s and t in [0, 1]. Parallel segments have a continuum of such pairs; one of them is returned.
template <class T> struct SegmentPair {
    T s;               // along p, in [0, 1]
    T t;               // along q, in [0, 1]
    Vec3<T> pointOnP;  // p0 + s (p1 - p0)
    Vec3<T> pointOnQ;  // q0 + t (q1 - q0)
};

// Contact of shape A (always the sphere) with shape B, in Bullet's manifold convention: pointOnB is
// on B's surface, normal (unit) points from B toward A, depth >= 0 is the overlap (the signed
// distance is -depth). The deepest point of A is pointOnB - depth * normal; moving A by
// depth * normal separates the two. Returned when the shapes touch or overlap (distance <= radius).
template <class T> struct Contact {
    Vec3<T> pointOnB;  // on B's surface
    Vec3<T> normal;    // unit, from B toward A
    T depth;           // the overlap, >= 0
};

// sphereTriangleContact's answer: the contact, and the feature of the triangle its point lies on.
template <class T> struct TriangleContact {
    Contact<T> contact;       // the sphere's contact with the triangle
    TriangleFeature feature;  // of the triangle, where pointOnB lies
};

namespace detail {

template <class T> inline bool isValidSphere(const Sphere<T>& sphere) {
    return allFinite(sphere.center, sphere.radius) && sphere.radius >= T(0);
}

template <class T> inline bool isValidObb(const Obb<T>& box) {
    return allFinite(box.center, box.rotation[0], box.rotation[1], box.rotation[2], box.halfExtents) &&
           glm::all(glm::greaterThanEqual(box.halfExtents, Vec3<T>(T(0))));
}

// Closest point of the segment from a to a + edge, given offset = query - a. Returns s and the
// offset query - closest (small when the query is near, so it is computed from the offsets).
template <class T> struct SegmentProjection {
    T s;
    Vec3<T> offset;
};

// The hot helpers of the sphere-triangle contact are always inlined, as unitVector is (numeric.hpp):
// a small struct of float vectors returned or copied out of line goes through memory in pieces of
// other widths, and reading it back stalls (store forwarding fails).
template <class T>
[[gnu::always_inline]] inline SegmentProjection<T> projectOntoSegment(const Vec3<T>& offset,
                                                                      const Vec3<T>& edge) {
    const T along = glm::dot(offset, edge);
    if (along <= T(0)) return {T(0), offset};
    const T lengthSquared = glm::dot(edge, edge);
    if (along >= lengthSquared) return {T(1), offset - edge};
    const T s = along / lengthSquared;
    return {s, offset - s * edge};
}

template <class T> inline Vec3<T> pointOnSegment(const Vec3<T>& a, const Vec3<T>& b, T s) {
    return s == T(1) ? b : a + s * (b - a);
}

// Whether the sphere is certainly clear of the triangle's bounding box, hence of the triangle. The
// box distance is computed from differences of coordinates (each within a rounding of its exact
// value) and compared with a margin of 16 roundings over the radius: a sphere that touches the
// triangle, exactly, is never rejected.
template <class T>
[[gnu::always_inline]] inline bool isBeyondBoundingBox(const Sphere<T>& sphere, const Triangle<T>& triangle) {
    const Aabb<T> box = boundsOf(triangle);
    const Vec3<T> outside =
        glm::max(glm::max(box.min - sphere.center, sphere.center - box.max), Vec3<T>(T(0)));
    const T margin = T(1) + 16 * unitRoundoff<T>;
    return glm::dot(outside, outside) > margin * (sphere.radius * sphere.radius);
}

// The feature holding the point at s along edge `edge`.
template <class T> inline TriangleFeature edgeFeature(int edge, T s) {
    return s == T(0)   ? triangleVertex(edge)
           : s == T(1) ? triangleVertex(nextVertex(edge))
                       : triangleEdge(edge);
}

// A degenerate triangle has no face and no areas: the nearest of its three edges.
template <class T> inline int nearestEdge(const Vec3<T>& point, const Triangle<T>& triangle) {
    int nearest = 0;
    T nearestDistanceSquared = std::numeric_limits<T>::infinity();
    for (int edge = 0; edge < 3; ++edge) {
        const Vec3<T>& start = vertexOf(triangle, edge);
        const Vec3<T> offset =
            projectOntoSegment(point - start, vertexOf(triangle, nextVertex(edge)) - start).offset;
        const T distanceSquared = glm::dot(offset, offset);
        if (distanceSquared < nearestDistanceSquared) {
            nearest = edge;
            nearestDistanceSquared = distanceSquared;
        }
    }
    return nearest;
}

// Where the nearest point of a triangle that is not degenerate lies: the face, or an edge.
template <class T> struct TriangleRegion {
    int edge;   // -1 for the face
    T area[3];  // area[i] belongs to vertex i: the area against the opposite edge i + 1
};

// Signed areas of the query's projection against each edge decide the region: all >= 0 is the face.
// Outside one edge's line, the closest point is on that edge. Outside two (near the vertex they
// share), it is on the edge leaving that vertex when the query projects forward onto it, else on the
// edge arriving there: both projections forward would need an angle over 180 degrees. So no distances
// are compared (that would pick the point only to the square root of the roundings). NaN areas
// (overflow) count as inside, so all NaN is the face, whose result they then reach.
template <class T>
[[gnu::always_inline]] inline TriangleRegion<T> triangleRegion(const Vec3<T>& point,
                                                               const Triangle<T>& triangle,
                                                               const TriangleFrame<T>& frame) {
    const Vec3<T>&a = triangle.a, &b = triangle.b, &c = triangle.c;
    TriangleRegion<T> region{-1,
                             {glm::dot(frame.normal, glm::cross(c - b, point - b)),
                              glm::dot(frame.normal, glm::cross(a - c, point - c)),
                              glm::dot(frame.normal, glm::cross(b - a, point - a))}};
    // Bit i: vertex i is outside. One vertex outside: the edge opposite it; two: the inside vertex,
    // whose edges are tried forward; all three (rounding): vertex 0's.
    const int outside =
        int(region.area[0] < T(0)) | int(region.area[1] < T(0)) << 1 | int(region.area[2] < T(0)) << 2;
    if (outside == 0) return region;
    constexpr int oppositeEdge[8] = {-1, 1, 2, -1, 0, -1, -1, -1};
    constexpr int insideVertex[8] = {-1, -1, -1, 2, -1, 1, 0, 0};
    if (oppositeEdge[outside] >= 0) {
        region.edge = oppositeEdge[outside];
    } else {
        const int vertex = insideVertex[outside];
        const Vec3<T>& at = vertexOf(triangle, vertex);
        const bool forward = glm::dot(point - at, vertexOf(triangle, nextVertex(vertex)) - at) > T(0);
        region.edge = forward ? vertex : previousVertex(vertex);
    }
    return region;
}

// The query's offset from the plane of a triangle that is not degenerate: its height times the normal.
template <class T> [[gnu::always_inline]] inline Vec3<T> offsetFromPlane(const Vec3<T>& point,
                                                                         const Triangle<T>& triangle,
                                                                         const TriangleFrame<T>& frame) {
    return (glm::dot(frame.normal, point - triangle.a) / frame.normalSquared) * frame.normal;
}

// The unit normal of a triangle that is not degenerate on the query's side (the front side for a
// query in the plane), and the query's distance to the plane.
template <class T> struct FaceSide {
    Vec3<T> normal;
    T distance;
};

template <class T> [[gnu::always_inline]] inline FaceSide<T> faceSide(const Vec3<T>& point,
                                                                      const Triangle<T>& triangle,
                                                                      const TriangleFrame<T>& frame) {
    const Vec3<T> faceNormal = unitVector(frame.normal);
    const T height = glm::dot(faceNormal, point - triangle.a);
    return {height < T(0) ? -faceNormal : faceNormal, std::abs(height)};
}

// Box coordinates of the query and the box point nearest to it.
template <class T> struct ObbProjection {
    Vec3<T> local;    // query relative to the centre, along the box axes
    Vec3<T> clamped;  // local clamped to the box
    bool inside;
    int nearestAxis;        // for an inside query: the axis of the nearest face ...
    T nearestFaceSign;      // ... its side (+1 or -1) ...
    T nearestFaceDistance;  // ... and the distance to it
};

template <class T> inline ObbProjection<T> projectOntoObb(const Vec3<T>& point, const Obb<T>& box) {
    ObbProjection<T> result{};
    result.local = glm::transpose(box.rotation) * (point - box.center);
    result.clamped = glm::clamp(result.local, -box.halfExtents, box.halfExtents);
    result.inside = result.clamped == result.local;
    if (result.inside) {
        const Vec3<T> slack = box.halfExtents - glm::abs(result.local);
        result.nearestAxis = slack.y < slack.x ? 1 : 0;
        if (slack.z < slack[result.nearestAxis]) result.nearestAxis = 2;
        result.nearestFaceSign = result.local[result.nearestAxis] < T(0) ? T(-1) : T(1);
        result.nearestFaceDistance = slack[result.nearestAxis];
    }
    return result;
}

template <class T>
[[gnu::always_inline]] inline std::optional<Contact<T>> finiteContact(const Contact<T>& contact) {
    if (!allFinite(contact.pointOnB, contact.normal, contact.depth)) return std::nullopt;
    return contact;
}

template <class T> struct Separation {
    Vec3<T> normal;  // offset / |offset|
    T depth;         // reach - |offset|
};

// For offset (not zero) from the nearest point of B to the sphere's centre: the contact normal and
// depth, when |offset| <= reach.
template <class T> inline std::optional<Separation<T>> separationWithin(const Vec3<T>& offset, T reach) {
    const T distanceSquared = glm::dot(offset, offset);
    if (!(distanceSquared <= reach * reach)) return std::nullopt;
    // Touching was decided on squares: a length rounded above the reach must not make it a gap (squares
    // of a reach 1e-21 in float are subnormal, a few bits).
    return Separation<T>{unitVector(offset), std::max(reach - std::sqrt(distanceSquared), T(0))};
}

// A unit vector perpendicular to axis (not zero): the cross product with the world axis the
// given one is least aligned with.
template <class T> inline Vec3<T> perpendicularUnit(const Vec3<T>& axis) {
    const Vec3<T> magnitude = glm::abs(axis);
    const int leastAligned = magnitude.x <= magnitude.y && magnitude.x <= magnitude.z ? 0
                             : magnitude.y <= magnitude.z                             ? 1
                                                                                      : 2;
    Vec3<T> worldAxis(T(0));
    worldAxis[leastAligned] = T(1);
    return unitVector(glm::cross(axis, worldAxis));
}

// Sphere against the capsule with axis from a to b (a ball when a == b). A centre on the axis is
// pushed out perpendicular to it, along +x when the axis is a point.
template <class T>
inline std::optional<Contact<T>> sphereCapsuleContactUnchecked(const Sphere<T>& sphere, const Vec3<T>& a,
                                                               const Vec3<T>& b, T capsuleRadius) {
    const Vec3<T> axis = b - a;
    const SegmentProjection<T> onAxis = projectOntoSegment(sphere.center - a, axis);
    const Vec3<T> axisPoint = pointOnSegment(a, b, onAxis.s);
    const T reach = sphere.radius + capsuleRadius;
    Separation<T> separation{Vec3<T>(T(1), T(0), T(0)), reach};
    if (onAxis.offset != Vec3<T>(T(0))) {
        const std::optional<Separation<T>> within = separationWithin(onAxis.offset, reach);
        if (!within) return std::nullopt;
        separation = *within;
    } else if (axis != Vec3<T>(T(0))) {
        separation.normal = perpendicularUnit(axis);
    }
    return finiteContact(
        Contact<T>{axisPoint + capsuleRadius * separation.normal, separation.normal, separation.depth});
}

}  // namespace detail

// ---------------------------------------------------------------------------------------------------
// Point queries.

// The point of the segment from a to b nearest to point.
// Range: point = a + s (b - a) with s in [0, 1] (exactly b when s = 1).
// No result: only for invalid input; every valid query has a nearest point.
// A point on the segment gets itself, within rounding. A zero-length segment (a == b) gets a, s = 0.
// Invalid input: a NaN or infinite coordinate gives std::nullopt; so does input whose differences or
// squares overflow T where the result would not be finite (otherwise an end of the segment, never NaN).
template <class T> inline std::optional<SegmentPoint<T>> closestPointOnSegment(const Vec3<T>& point,
                                                                               const Vec3<T>& a,
                                                                               const Vec3<T>& b) {
    if (!detail::allFinite(point, a, b)) return std::nullopt;
    const T s = detail::projectOntoSegment(point - a, b - a).s;
    const SegmentPoint<T> result{detail::pointOnSegment(a, b, s), s};
    if (!detail::allFinite(result.point)) return std::nullopt;
    return result;
}

// The point of the solid triangle nearest to point, its barycentric weights and the feature it lies on.
// Range: weights in [0, 1] summing to 1 (within rounding on the face); the point is on the triangle,
// within a few roundings of the case's size; feature as TrianglePoint says (the face is closed).
// No result: only for invalid input; every valid query has a nearest point.
// A point on the triangle gets itself, within rounding.
// A degenerate triangle (the sine of its smallest angle below 16 unit roundoffs: collinear or coincident
// vertices, or a needle; or one too small to tell, its edges under about 3e-7 in float, 1e-70 in double)
// gives the nearest point of its three edges (feature an edge or a vertex). So does a triangle whose
// edges' fourth powers overflow T (edges beyond about 1e9 in float, 1e77 in double): its face is then
// missed.
// Invalid input: a NaN or infinite coordinate gives std::nullopt; so does input whose squares overflow
// where the result would not be finite.
template <class T>
inline std::optional<TrianglePoint<T>> closestPointOnTriangle(const Vec3<T>& point,
                                                              const Triangle<T>& triangle) {
    if (!detail::allFinite(point, triangle.a, triangle.b, triangle.c)) return std::nullopt;
    const TriangleFrame<T> frame = faceFrame(triangle);
    const detail::TriangleRegion<T> region =
        !frame.hasFace() ? detail::TriangleRegion<T>{detail::nearestEdge(point, triangle), {}}
                         : detail::triangleRegion(point, triangle, frame);
    TrianglePoint<T> result;
    if (region.edge < 0) {
        const T areaScale = T(1) / (region.area[0] + region.area[1] + region.area[2]);
        result = {point - detail::offsetFromPlane(point, triangle, frame),
                  areaScale * Vec3<T>(region.area[0], region.area[1], region.area[2]), TriangleFeature::Face};
    } else {
        const int next = detail::nextVertex(region.edge);
        const Vec3<T>&start = detail::vertexOf(triangle, region.edge),
              &end = detail::vertexOf(triangle, next);
        const T s = detail::projectOntoSegment(point - start, end - start).s;
        result = {detail::pointOnSegment(start, end, s), Vec3<T>(T(0)), detail::edgeFeature(region.edge, s)};
        result.barycentric[region.edge] = T(1) - s;
        result.barycentric[next] = s;
    }
    if (!detail::allFinite(result.point, result.barycentric)) return std::nullopt;
    return result;
}

// The point of the solid box (its surface and inside) nearest to point. box.rotation's columns are the
// box's axes, orthonormal (not checked: another finite matrix gives finite, meaningless results).
// Range: point in the box; nearestFaceDistance in [0, the smallest half extent].
// Outside: inside = false, the nearest point of the surface, nearestFaceNormal and nearestFaceDistance 0.
// Inside or on the surface: inside = true, point = the query itself, and the nearest face's outward unit
// normal and distance (0 on the surface; ties: lowest axis, then the positive side).
// Zero half extents (a flat, linear or point box) are valid.
// Invalid input: a NaN or infinite value or a negative half extent gives std::nullopt; so does input
// whose result overflows T.
template <class T>
inline std::optional<ObbPoint<T>> closestPointOnObb(const Vec3<T>& point, const Obb<T>& box) {
    if (!detail::allFinite(point) || !detail::isValidObb(box)) return std::nullopt;
    const detail::ObbProjection<T> projection = detail::projectOntoObb(point, box);
    ObbPoint<T> result{point, projection.inside, Vec3<T>(T(0)), T(0)};
    if (projection.inside) {
        result.nearestFaceNormal = projection.nearestFaceSign * box.rotation[projection.nearestAxis];
        result.nearestFaceDistance = projection.nearestFaceDistance;
    } else {
        result.point = box.center + box.rotation * projection.clamped;
    }
    if (!detail::allFinite(result.point, result.nearestFaceDistance)) return std::nullopt;
    return result;
}

// The closest pair of the segments p0-p1 and q0-q1: Ericson's clamped solution of the two lines' normal
// equations, with the unclamped s of the lines taken as a ratio of cross products (no cancellation for
// nearly parallel segments).
// Range: s and t in [0, 1]; pointOnP = p0 + s (p1 - p0), pointOnQ = q0 + t (q1 - q0).
// No result: only for invalid input; every valid pair of segments has a closest pair.
// Crossing or touching segments give the common point on both (within rounding). Parallel segments (the
// sine of their angle below one unit roundoff) start from s = 0: one of the closest pairs, within
// length * sine of the minimum. Zero-length segments are valid (a point; both: s = t = 0).
// Invalid input: a NaN or infinite coordinate gives std::nullopt; so does input whose differences or
// squares overflow T where the result would not be finite.
template <class T>
inline std::optional<SegmentPair<T>> closestPointsSegmentSegment(const Vec3<T>& p0, const Vec3<T>& p1,
                                                                 const Vec3<T>& q0, const Vec3<T>& q1) {
    if (!detail::allFinite(p0, p1, q0, q1)) return std::nullopt;
    const Vec3<T> alongP = p1 - p0, alongQ = q1 - q0, between = p0 - q0;
    const T lengthSquaredP = glm::dot(alongP, alongP), lengthSquaredQ = glm::dot(alongQ, alongQ);
    const T betweenOnP = glm::dot(alongP, between), betweenOnQ = glm::dot(alongQ, between);
    const auto clampUnit = [](T x) { return std::clamp(x, T(0), T(1)); };
    T s = T(0), t = T(0);
    // A segment shorter than one rounding of the other is a point beside it (within its length, below
    // the rounding): its cross product with the other and the parallel test's product of squares
    // underflow, and it would be taken as parallel to it.
    const T negligible = unitRoundoff<T> * unitRoundoff<T>;
    if (lengthSquaredQ <= negligible * lengthSquaredP) {
        if (lengthSquaredP != T(0)) s = clampUnit(-betweenOnP / lengthSquaredP);
    } else if (lengthSquaredP <= negligible * lengthSquaredQ) {
        t = clampUnit(betweenOnQ / lengthSquaredQ);
    } else {
        const Vec3<T> normal = glm::cross(alongP, alongQ);
        const T normalSquared = glm::dot(normal, normal);
        const T parallelSine = unitRoundoff<T>;
        if (normalSquared > parallelSine * parallelSine * lengthSquaredP * lengthSquaredQ)
            s = clampUnit(glm::dot(normal, glm::cross(alongQ, between)) / normalSquared);
        const T pOnQ = glm::dot(alongP, alongQ);
        t = (pOnQ * s + betweenOnQ) / lengthSquaredQ;
        if (t < T(0)) {
            t = T(0);
            s = clampUnit(-betweenOnP / lengthSquaredP);
        } else if (t > T(1)) {
            t = T(1);
            s = clampUnit((pOnQ - betweenOnP) / lengthSquaredP);
        }
    }
    const SegmentPair<T> result{s, t, detail::pointOnSegment(p0, p1, s), detail::pointOnSegment(q0, q1, t)};
    if (!detail::allFinite(result.s, result.t, result.pointOnP, result.pointOnQ)) return std::nullopt;
    return result;
}

// ---------------------------------------------------------------------------------------------------
// Sphere contacts (A = the sphere).

// The contact of sphere a with sphere b (Contact above: normal from b toward a), deciding touch on the
// rounded distance between the centres as Bullet's sphere-sphere does, so both agree on spheres that
// exactly touch.
// Range: depth = a.radius + b.radius - distance, in [0, a.radius + b.radius]; pointOnB on b's surface.
// No contact (the centres farther apart than the sum of the radii): std::nullopt.
// Touching gives depth 0; overlapping spheres the overlap; coincident centres the normal +x.
// Invalid input: a NaN, infinite or overflowing centre, a NaN, infinite or negative radius, or radii
// whose sum squared overflows T (a sum beyond about 1.8e19 in float, 1.3e154 in double) give
// std::nullopt. Zero radii are valid.
// (The sphere-capsule contact for a zero-length axis, in closed form: the narrow phase runs it for every
// sphere pair at every step. The input is validated by the comparisons the contact needs anyway: a non-finite
// or overflowing centre makes the distance NaN or infinite, a non-finite radius makes the reach NaN or
// infinite, and both fail. What passes has finite centres and reach <= sqrt(max), far below half an ulp of
// max, so nothing overflows.)
template <class T>
inline std::optional<Contact<T>> sphereSphereContact(const Sphere<T>& a, const Sphere<T>& b) {
    if (!(std::min(a.radius, b.radius) >= T(0))) return std::nullopt;
    const Vec3<T> offset = a.center - b.center;
    const T reach = a.radius + b.radius;
    const T distanceSquared = glm::dot(offset, offset);
    const T distance = std::sqrt(distanceSquared);
    if (!(distance <= reach && reach * reach <= std::numeric_limits<T>::max())) return std::nullopt;
    // The square root serves the normal too while distanceSquared is a normal number.
    Vec3<T> normal(T(1), T(0), T(0));
    if (distanceSquared >= std::numeric_limits<T>::min())
        normal = offset * (T(1) / distance);
    else if (offset != Vec3<T>(T(0)))
        normal = unitVector(offset);
    return Contact<T>{b.center + b.radius * normal, normal, reach - distance};
}

// The contact of the sphere with the capsule (all points within capsule.radius of the segment a-b; a
// ball when a == b), normal from the capsule toward the sphere's centre.
// Range: depth = the radii's sum less the centre's distance from the axis, in [0, sum of the radii];
// pointOnB on the capsule's surface.
// No contact (the centre farther than the sum of the radii from the axis): std::nullopt.
// Touching gives depth 0. A centre exactly on the axis is pushed out perpendicular to the axis (along a
// perpendicular chosen from the world axis least aligned with it; +x for a zero-length axis), depth =
// the sum of the radii.
// Invalid input: a NaN or infinite coordinate or radius, or a negative radius, gives std::nullopt; so
// does input whose contact overflows T. Zero radii and a zero-length axis are valid.
template <class T>
inline std::optional<Contact<T>> sphereCapsuleContact(const Sphere<T>& sphere, const Capsule<T>& capsule) {
    if (!detail::isValidSphere(sphere) || !detail::isValidSphere(Sphere<T>{capsule.a, capsule.radius}) ||
        !detail::allFinite(capsule.b))
        return std::nullopt;
    return detail::sphereCapsuleContactUnchecked(sphere, capsule.a, capsule.b, capsule.radius);
}

// The contact of the sphere with the solid box, normal from the box toward the sphere's centre.
// box.rotation's columns are the box's axes, orthonormal (not checked).
// Range: a centre outside: depth in [0, radius], pointOnB the box's point nearest the centre (on a face,
// edge or corner). A centre inside: depth in [radius, radius + the smallest half extent].
// No contact (the centre farther than the radius from the box): std::nullopt.
// Touching gives depth 0. A centre inside the box or on its surface is pushed out through the nearest
// face (ties: lowest axis, then the positive side): normal that face's outward normal, pointOnB the
// centre's projection onto it, depth = radius + the centre's distance to that face.
// Invalid input: a NaN or infinite value, a negative radius or half extent gives std::nullopt; so does
// input whose contact overflows T. Zero radius and zero half extents are valid.
template <class T>
inline std::optional<Contact<T>> sphereObbContact(const Sphere<T>& sphere, const Obb<T>& box) {
    if (!detail::isValidSphere(sphere) || !detail::isValidObb(box)) return std::nullopt;
    const detail::ObbProjection<T> projection = detail::projectOntoObb(sphere.center, box);
    if (!projection.inside) {
        const std::optional<detail::Separation<T>> local =
            detail::separationWithin(projection.local - projection.clamped, sphere.radius);
        if (!local) return std::nullopt;
        return detail::finiteContact(Contact<T>{box.center + box.rotation * projection.clamped,
                                                box.rotation * local->normal, local->depth});
    }
    Vec3<T> onFace = projection.local;
    onFace[projection.nearestAxis] = projection.nearestFaceSign * box.halfExtents[projection.nearestAxis];
    return detail::finiteContact(Contact<T>{box.center + box.rotation * onFace,
                                            projection.nearestFaceSign * box.rotation[projection.nearestAxis],
                                            sphere.radius + projection.nearestFaceDistance});
}

// The contact of the sphere with the triangle, two-sided: the normal points from the triangle's nearest
// point toward the centre.
// Range: depth = radius - the centre's distance to the triangle, in [0, radius]; pointOnB on the
// triangle, feature the triangle's feature it lies on.
// No contact (the centre farther than the radius from the triangle): std::nullopt.
// Touching gives depth 0. A centre on the triangle (within a few roundings of the case's size) gets the
// face normal on the centre's side, the front side ((b - a) x (c - a)) when exactly in the plane.
// A degenerate triangle (the sine of its smallest angle below 16 unit roundoffs: no area, or a needle;
// or one too small to tell, its edges under about 3e-7 in float, 1e-70 in double; also one whose
// edges' fourth powers overflow T) gives no contact: in a mesh its edges belong to its neighbours.
// Invalid input: a NaN or infinite coordinate or radius, or a negative radius, gives std::nullopt; so
// does input whose contact overflows T. Radius 0 is valid.
template <class T>
inline std::optional<TriangleContact<T>> sphereTriangleContact(const Sphere<T>& sphere,
                                                               const Triangle<T>& triangle) {
    // The cheap rejections first, beyond the reach of the triangle's bounding box, then of its plane:
    // in a mesh, most triangles near a sphere do not touch it. Invalid input fails them too: a NaN or
    // infinite vertex makes the normal NaN or infinite (degenerate), a NaN or infinite centre or a NaN
    // radius fails the plane test, an infinite radius gives an infinite depth (not finite); only a
    // negative radius needs its own test.
    if (detail::isBeyondBoundingBox(sphere, triangle)) return std::nullopt;
    const TriangleFrame<T> frame = faceFrame(triangle);
    if (!frame.hasFace()) return std::nullopt;
    const Vec3<T>& centre = sphere.center;
    const T scaledHeight = glm::dot(frame.normal, centre - triangle.a);  // height * |normal|
    const T radiusSquared = sphere.radius * sphere.radius;
    const T heightTerm = scaledHeight * scaledHeight;
    bool withinReach = heightTerm <= radiusSquared * frame.normalSquared;
    // Both sides overflow for a triangle 1e8 across with a sphere 1e8 off its plane (in float), and
    // inf <= inf: then the unsquared lengths decide (rare, so a branch).
    if (withinReach && !std::isfinite(heightTerm))
        withinReach = std::abs(scaledHeight) <= sphere.radius * std::sqrt(frame.normalSquared);
    if (!withinReach || sphere.radius < T(0)) return std::nullopt;
    const detail::TriangleRegion<T> region = detail::triangleRegion(centre, triangle, frame);
    TriangleContact<T> result;
    if (region.edge < 0) {
        const detail::FaceSide<T> side = detail::faceSide(centre, triangle, frame);
        result = {{centre - detail::offsetFromPlane(centre, triangle, frame), side.normal,
                   sphere.radius - side.distance},
                  TriangleFeature::Face};
    } else {
        const Vec3<T>&start = detail::vertexOf(triangle, region.edge),
              &end = detail::vertexOf(triangle, detail::nextVertex(region.edge));
        const detail::SegmentProjection<T> onEdge = detail::projectOntoSegment(centre - start, end - start);
        const T distanceSquared = glm::dot(onEdge.offset, onEdge.offset);
        if (!(distanceSquared <= radiusSquared)) return std::nullopt;
        result = {{detail::pointOnSegment(start, end, onEdge.s), Vec3<T>(T(0)), T(0)},
                  detail::edgeFeature(region.edge, onEdge.s)};
        // The offset's direction is noise when it is within the roundings of the edge point.
        const T noise = 8 * unitRoundoff<T>;
        const Vec3<T> toCentre = centre - triangle.a, ab = triangle.b - triangle.a,
                      ca = triangle.a - triangle.c;
        const T scaleSquared = glm::dot(toCentre, toCentre) + glm::dot(ab, ab) + glm::dot(ca, ca);
        if (distanceSquared > noise * noise * scaleSquared) {
            const LengthAndDirection<T> separation = lengthAndDirection(onEdge.offset);
            result.contact.normal = separation.direction;
            result.contact.depth = sphere.radius - separation.length;
        } else {
            result.contact.normal = detail::faceSide(centre, triangle, frame).normal;
            result.contact.depth = sphere.radius - std::sqrt(distanceSquared);
        }
    }
    // Touching was decided on squares: a length rounded above the radius must not make it a gap.
    result.contact.depth = std::max(result.contact.depth, T(0));
    if (!detail::finiteContact(result.contact)) return std::nullopt;
    return result;
}

}  // namespace analytic
