// Closest points between a point and a segment, triangle or oriented box, between two segments, and
// the contacts of a sphere with a sphere, capsule, box or triangle (Ericson, Real-Time Collision
// Detection, ch. 5), in closed form.
//
// Accuracy: offsets are computed relative to a vertex of the shape (never as a difference of two
// absolute points) and areas as cross products (never as a difference of products of dot products),
// so the errors are a few roundings of the size of the case. Valid range: squared lengths of the
// shapes (fourth powers for triangles) must not overflow or underflow T (float: lengths in about
// [1e-9, 1e9]); inputs that overflow give std::nullopt. Non-finite input, a negative radius or
// half extent give std::nullopt; no output is ever NaN.
#pragma once

#include <cstdint>
#include <optional>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// ---------------------------------------------------------------------------------------------------
// Result types.

// point = a + s (b - a), s in [0, 1].
template <class T> struct SegmentPoint {
    Vec3<T> point;
    T s;
};

// Edge i runs from vertex i to vertex i + 1 (mod 3): Edge0 = ab, Edge1 = bc, Edge2 = ca; Vertex0 = a.
enum class TriangleFeature : std::uint8_t { Face, Edge0, Edge1, Edge2, Vertex0, Vertex1, Vertex2 };

constexpr TriangleFeature triangleEdge(int edge) { return TriangleFeature(1 + edge); }
constexpr TriangleFeature triangleVertex(int vertex) { return TriangleFeature(4 + vertex); }

// point = barycentric.x a + barycentric.y b + barycentric.z c (weights >= 0, sum 1). feature is the
// lowest-dimensional feature whose interior holds the point, except that the face is closed: a point
// whose projection falls exactly on the boundary reports Face.
template <class T> struct TrianglePoint {
    Vec3<T> point;
    Vec3<T> barycentric;
    TriangleFeature feature;
};

// The nearest point of the solid box. For a query inside (surface included) point is the query
// itself, and nearestFaceNormal (unit, outward) and nearestFaceDistance (>= 0) describe the face
// nearest to it (ties: lowest axis, then the positive side); for a query outside both are zero.
template <class T> struct ObbPoint {
    Vec3<T> point;
    bool inside;
    Vec3<T> nearestFaceNormal;
    T nearestFaceDistance;
};

// The pair minimising |pointOnP - pointOnQ|: pointOnP = p0 + s (p1 - p0), pointOnQ = q0 + t (q1 - q0),
// s and t in [0, 1]. Parallel segments have a continuum of such pairs; one of them is returned.
template <class T> struct SegmentPair {
    T s;
    T t;
    Vec3<T> pointOnP;
    Vec3<T> pointOnQ;
};

// Contact of shape A (always the sphere) with shape B, in Bullet's manifold convention: pointOnB is
// on B's surface, normal (unit) points from B toward A, depth >= 0 is the overlap (the signed
// distance is -depth). The deepest point of A is pointOnB - depth * normal; moving A by
// depth * normal separates the two. Returned when the shapes touch or overlap (distance <= radius).
template <class T> struct Contact {
    Vec3<T> pointOnB;
    Vec3<T> normal;
    T depth;
};

template <class T> struct TriangleContact {
    Contact<T> contact;
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

template <class T>
inline SegmentProjection<T> projectOntoSegment(const Vec3<T>& offset, const Vec3<T>& edge) {
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

// A normal computed as the cross product of two edges is known to about unitRoundoff / sin(angle
// between them); for the largest angle, below this sine the triangle counts as degenerate (a segment
// or a point): its closest points come from its edges, which are within this fraction of the longest
// edge of the true ones.
template <class T> constexpr T degenerateTriangleSine = 16 * unitRoundoff<T>;

// A triangle seen from a query point. Vertex i joins edges i - 1 and i.
template <class T> struct TriangleFrame {
    Vec3<T> vertices[3];
    Vec3<T> edges[3];    // edge i runs from vertex i to vertex i + 1
    Vec3<T> offsets[3];  // query - vertex i
    Vec3<T> normal;      // (b - a) x (c - a), not normalised, from the two shortest edges
    T normalSquared;
    bool degenerate;
};

// The normal is taken from the two shortest edges, which meet at the largest angle: the most accurate
// choice. All three candidates are computed to select without a branch.
template <class T> inline TriangleFrame<T> triangleFrame(const Vec3<T>& point, const Triangle<T>& triangle) {
    TriangleFrame<T> frame{{triangle.a, triangle.b, triangle.c},
                           {triangle.b - triangle.a, triangle.c - triangle.b, triangle.a - triangle.c},
                           {point - triangle.a, point - triangle.b, point - triangle.c},
                           Vec3<T>(T(0)),
                           T(0),
                           false};
    const Vec3<T>* edges = frame.edges;
    const T lengthSquared[3] = {glm::dot(edges[0], edges[0]), glm::dot(edges[1], edges[1]),
                                glm::dot(edges[2], edges[2])};
    const T pairAtA = lengthSquared[2] * lengthSquared[0], pairAtB = lengthSquared[0] * lengthSquared[1],
            pairAtC = lengthSquared[1] * lengthSquared[2];
    const Vec3<T> normalAtA = glm::cross(edges[0], -edges[2]), normalAtB = glm::cross(edges[1], -edges[0]),
                  normalAtC = glm::cross(edges[2], -edges[1]);
    const bool atB = pairAtB <= pairAtA && pairAtB <= pairAtC;
    const bool atC = !atB && pairAtC <= pairAtA;
    frame.normal = atB ? normalAtB : atC ? normalAtC : normalAtA;
    frame.normalSquared = glm::dot(frame.normal, frame.normal);
    const T sineBound = degenerateTriangleSine<T>;
    frame.degenerate = !(frame.normalSquared > sineBound * sineBound * std::min({pairAtA, pairAtB, pairAtC}));
    return frame;
}

// Whether the sphere is certainly clear of the triangle's bounding box, hence of the triangle. The
// box distance is computed from differences of coordinates (each within a rounding of its exact
// value) and compared with a margin of 16 roundings over the radius: a sphere that touches the
// triangle, exactly, is never rejected.
template <class T> inline bool isBeyondBoundingBox(const Sphere<T>& sphere, const Triangle<T>& triangle) {
    const Vec3<T> boxMin = glm::min(glm::min(triangle.a, triangle.b), triangle.c);
    const Vec3<T> boxMax = glm::max(glm::max(triangle.a, triangle.b), triangle.c);
    const Vec3<T> outside = glm::max(glm::max(boxMin - sphere.center, sphere.center - boxMax), Vec3<T>(T(0)));
    const T margin = T(1) + 16 * unitRoundoff<T>;
    return glm::dot(outside, outside) > margin * (sphere.radius * sphere.radius);
}

template <class T> struct TriangleProjection {
    TrianglePoint<T> closest;
    Vec3<T> offset;  // query - closest
};

// Signed areas of the query's projection against each edge decide the region: all >= 0 is the face.
// Outside one edge's line, the closest point is on that edge. Outside two (near the vertex they
// share), it is on the edge leaving that vertex when the query projects forward onto it, else on the
// edge arriving there: both projections forward would need an angle over 180 degrees. So no distances
// are compared (that would pick the point only to the square root of the roundings). A degenerate
// triangle has no face and no areas: the nearest of its three edges.
template <class T>
inline TriangleProjection<T> projectOntoTriangle(const Vec3<T>& point, const TriangleFrame<T>& frame) {
    const Vec3<T>*vertices = frame.vertices, *edges = frame.edges, *offsets = frame.offsets;
    TriangleProjection<T> result{};
    const auto closestOnEdge = [&](int edge) {
        const SegmentProjection<T> onEdge = projectOntoSegment(offsets[edge], edges[edge]);
        const int next = (edge + 1) % 3;
        result.closest.point = pointOnSegment(vertices[edge], vertices[next], onEdge.s);
        result.closest.barycentric = Vec3<T>(T(0));
        result.closest.barycentric[edge] = T(1) - onEdge.s;
        result.closest.barycentric[next] = onEdge.s;
        result.closest.feature = onEdge.s == T(0)   ? triangleVertex(edge)
                                 : onEdge.s == T(1) ? triangleVertex(next)
                                                    : triangleEdge(edge);
        result.offset = onEdge.offset;
        return glm::dot(onEdge.offset, onEdge.offset);
    };
    if (frame.degenerate) {
        int nearest = 0;
        T nearestDistanceSquared = closestOnEdge(0);
        for (int edge = 1; edge < 3; ++edge) {
            const T distanceSquared = closestOnEdge(edge);
            if (distanceSquared < nearestDistanceSquared) {
                nearest = edge;
                nearestDistanceSquared = distanceSquared;
            }
        }
        if (nearest != 2) closestOnEdge(nearest);
        return result;
    }
    // area[i] belongs to vertex i: it is the area against the opposite edge i + 1.
    T area[3];
    for (int i = 0; i < 3; ++i)
        area[(i + 2) % 3] = glm::dot(frame.normal, glm::cross(edges[i], offsets[i]));
    int outsideCount = 0, outsideVertex = 0, insideVertex = 0;
    for (int i = 0; i < 3; ++i) {
        if (area[i] < T(0)) {
            ++outsideCount;
            outsideVertex = i;
        } else {
            insideVertex = i;
        }
    }
    if (outsideCount == 0) {  // also for NaN areas (overflow), which then reach the result
        result.offset = (glm::dot(frame.normal, offsets[0]) / frame.normalSquared) * frame.normal;
        const T areaScale = T(1) / (area[0] + area[1] + area[2]);
        result.closest = {point - result.offset, areaScale * Vec3<T>(area[0], area[1], area[2]),
                          TriangleFeature::Face};
        return result;
    }
    if (outsideCount == 1) {
        closestOnEdge((outsideVertex + 1) % 3);
    } else {
        const bool forward = glm::dot(offsets[insideVertex], edges[insideVertex]) > T(0);
        closestOnEdge(forward ? insideVertex : (insideVertex + 2) % 3);
    }
    return result;
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

template <class T> inline std::optional<Contact<T>> finiteContact(const Contact<T>& contact) {
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
    return Separation<T>{unitVector(offset), reach - std::sqrt(distanceSquared)};
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

template <class T> inline std::optional<SegmentPoint<T>> closestPointOnSegment(const Vec3<T>& point,
                                                                               const Vec3<T>& a,
                                                                               const Vec3<T>& b) {
    if (!detail::allFinite(point, a, b)) return std::nullopt;
    const T s = detail::projectOntoSegment(point - a, b - a).s;
    const SegmentPoint<T> result{detail::pointOnSegment(a, b, s), s};
    if (!detail::allFinite(result.point)) return std::nullopt;
    return result;
}

// A degenerate triangle (collinear or coincident vertices) gives the nearest point of its edges.
template <class T>
inline std::optional<TrianglePoint<T>> closestPointOnTriangle(const Vec3<T>& point,
                                                              const Triangle<T>& triangle) {
    if (!detail::allFinite(point, triangle.a, triangle.b, triangle.c)) return std::nullopt;
    const TrianglePoint<T> result =
        detail::projectOntoTriangle(point, detail::triangleFrame(point, triangle)).closest;
    if (!detail::allFinite(result.point, result.barycentric)) return std::nullopt;
    return result;
}

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

// Ericson's clamped solution of the two lines' normal equations, with the unclamped s of the lines
// taken as a ratio of cross products (no cancellation for nearly parallel segments). Segments whose
// cross product is below one rounding start from s = 0, which gives a pair within length * sine of
// the minimum.
template <class T>
inline std::optional<SegmentPair<T>> closestPointsSegmentSegment(const Vec3<T>& p0, const Vec3<T>& p1,
                                                                 const Vec3<T>& q0, const Vec3<T>& q1) {
    if (!detail::allFinite(p0, p1, q0, q1)) return std::nullopt;
    const Vec3<T> alongP = p1 - p0, alongQ = q1 - q0, between = p0 - q0;
    const T lengthSquaredP = glm::dot(alongP, alongP), lengthSquaredQ = glm::dot(alongQ, alongQ);
    const T betweenOnP = glm::dot(alongP, between), betweenOnQ = glm::dot(alongQ, between);
    const auto clampUnit = [](T x) { return std::clamp(x, T(0), T(1)); };
    T s = T(0), t = T(0);
    if (lengthSquaredQ == T(0)) {
        if (lengthSquaredP != T(0)) s = clampUnit(-betweenOnP / lengthSquaredP);
    } else if (lengthSquaredP == T(0)) {
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

// Coincident centres: the normal is +x. The sphere-capsule contact for a zero-length axis, in closed
// form (the narrow phase runs it for every sphere pair at every step), deciding touch on the rounded
// distance as Bullet's sphere-sphere does, so both agree on spheres that exactly touch. The input is
// validated by the comparisons the contact needs anyway: a non-finite or overflowing centre makes the
// distance NaN or infinite, a non-finite radius makes the reach NaN or infinite, and both fail. What
// passes has finite centres and reach <= sqrt(max), far below half an ulp of max, so nothing overflows.
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

// A centre on the capsule's axis is pushed out perpendicular to the axis (+x for a zero-length axis).
template <class T>
inline std::optional<Contact<T>> sphereCapsuleContact(const Sphere<T>& sphere, const Capsule<T>& capsule) {
    if (!detail::isValidSphere(sphere) || !detail::isValidSphere(Sphere<T>{capsule.a, capsule.radius}) ||
        !detail::allFinite(capsule.b))
        return std::nullopt;
    return detail::sphereCapsuleContactUnchecked(sphere, capsule.a, capsule.b, capsule.radius);
}

// Outside the box: the nearest point of a face, edge or corner. Centre inside (surface included):
// pushed out through the nearest face, depth = radius + distance to that face.
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

// Two-sided. The normal points from the triangle toward the centre; when the centre lies on the
// triangle (within a few roundings of its size) it is the face normal on the centre's side, the
// front side ((b - a) x (c - a)) when exactly in the plane. A degenerate triangle (no area) has no
// normal and gives no contact: in a mesh its edges belong to its neighbours.
template <class T>
inline std::optional<TriangleContact<T>> sphereTriangleContact(const Sphere<T>& sphere,
                                                               const Triangle<T>& triangle) {
    // The cheap rejections first, beyond the reach of the triangle's bounding box, then of its plane:
    // in a mesh, most triangles near a sphere do not touch it. They give no contact for invalid input
    // either, which is checked after them.
    if (detail::isBeyondBoundingBox(sphere, triangle)) return std::nullopt;
    const detail::TriangleFrame<T> frame = detail::triangleFrame(sphere.center, triangle);
    if (frame.degenerate) return std::nullopt;
    const T scaledHeight = glm::dot(frame.normal, frame.offsets[0]);  // height * |normal|
    const T radiusSquared = sphere.radius * sphere.radius;
    if (!(scaledHeight * scaledHeight <= radiusSquared * frame.normalSquared)) return std::nullopt;
    if (!detail::isValidSphere(sphere) || !detail::allFinite(triangle.a, triangle.b, triangle.c))
        return std::nullopt;
    const detail::TriangleProjection<T> projection = detail::projectOntoTriangle(sphere.center, frame);
    const T distanceSquared = glm::dot(projection.offset, projection.offset);
    if (!(distanceSquared <= radiusSquared)) return std::nullopt;
    const Vec3<T> faceNormal = unitVector(frame.normal);
    const T height = glm::dot(faceNormal, frame.offsets[0]);
    const Vec3<T> sideNormal = height < T(0) ? -faceNormal : faceNormal;
    Contact<T> contact{projection.closest.point, sideNormal, sphere.radius - std::abs(height)};
    if (projection.closest.feature != TriangleFeature::Face) {
        // The offset's direction is noise when it is within the roundings of the edge point.
        const T noise = 8 * unitRoundoff<T>;
        const T scaleSquared = glm::dot(frame.offsets[0], frame.offsets[0]) +
                               glm::dot(frame.edges[0], frame.edges[0]) +
                               glm::dot(frame.edges[2], frame.edges[2]);
        contact.depth = sphere.radius - std::sqrt(distanceSquared);
        if (distanceSquared > noise * noise * scaleSquared) contact.normal = unitVector(projection.offset);
    }
    if (!detail::finiteContact(contact)) return std::nullopt;
    return TriangleContact<T>{contact, projection.closest.feature};
}

}  // namespace analytic
