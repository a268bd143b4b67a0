// SPDX-License-Identifier: Zlib
// Closest points of a segment and a triangle or an oriented box, and the contacts of a capsule with a
// triangle or a box, by exact finite procedures (no iteration): the distance between a segment and a
// convex polytope is reached either where the segment meets it, or at one of the segment's ends, or
// between the segment and one of the polytope's edges, or over a face whose region the segment crosses
// (where the segment's height above the face is linear, so least at an end of the part inside the region).
// Offsets are taken from a vertex of the shape (or the box's centre), so errors are a few roundings of the
// size of the case. Each function states its contract; none outputs a NaN or an infinity.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "analytic/geometry/closest_point.hpp"

namespace analytic {

// pointOnSegment = p0 + s (p1 - p0); pointOnTriangle lies on feature. When the segment crosses the
// triangle both points are the crossing.
template <class T> struct SegmentTrianglePair {
    T s;                      // along the segment
    Vec3<T> pointOnSegment;   // p0 + s (p1 - p0)
    Vec3<T> pointOnTriangle;  // on the triangle
    TriangleFeature feature;  // of the triangle, holding pointOnTriangle
};

// pointOnSegment = p0 + s (p1 - p0). When the segment meets the solid box (inside is true), both
// points are the middle of the part of the segment inside it.
template <class T> struct SegmentObbPair {
    T s;                     // along the segment
    Vec3<T> pointOnSegment;  // p0 + s (p1 - p0)
    Vec3<T> pointOnBox;      // on the solid box
    bool inside;             // the segment meets the solid box
};

// One point of a capsule's contact (A = the capsule, B = the triangle or box): onB on B's surface, the
// signed distance along the contact's normal (negative when they overlap), s the parameter along the
// capsule's axis (a + s (b - a)) of the capsule's point nearest to it.
template <class T> struct CapsulePoint {
    Vec3<T> onB;  // on B's surface
    T distance;   // along the normal; negative when they overlap
    T s;          // along the capsule's axis
};

// A capsule's contact: every point along one unit normal from B toward the capsule, the deepest first.
// Two points where the capsule lies along a face (the deepest and the farthest from it along the axis).
template <class T> struct CapsuleContact {
    Vec3<T> normal;                         // unit, from B toward the capsule
    std::array<CapsulePoint<T>, 2> points;  // points[0, pointCount)
    int pointCount;                         // 1 or 2
};

// A capsule's contact with one triangle. feature: the triangle's feature nearest to the axis.
template <class T> struct CapsuleTriangleContact {
    CapsuleContact<T> contact;  // the contact with the triangle
    TriangleFeature feature;    // the triangle's, nearest to the axis
};

namespace detail {

// The part [s0, s1] of the segment p0 + s direction, s in [0, 1], inside the convex region where each
// f_i(x) = dot(inward_i, x - through_i) >= 0; returns false when empty. Parameters are compared, never
// points: the part is exact up to the roundings of the f_i.
template <class T> struct Clip {
    T s0 = T(0);
    T s1 = T(1);

    // Keeps the part where at0 + s rate >= 0.
    void keep(T at0, T rate) {
        if (rate > T(0))
            s0 = std::max(s0, -at0 / rate);
        else if (rate < T(0))
            s1 = std::min(s1, -at0 / rate);
        else if (!(at0 >= T(0)))
            s1 = T(-1);
    }
    bool empty() const { return !(s0 <= s1); }
};

// The part of the segment inside the prism over a triangle that is not degenerate (its face region).
template <class T> inline Clip<T> clipToPrism(const Vec3<T>& p0, const Vec3<T>& direction,
                                              const Triangle<T>& triangle, const TriangleFrame<T>& frame) {
    Clip<T> clip;
    for (int edge = 0; edge < 3; ++edge) {
        const Vec3<T>& start = vertexOf(triangle, edge);
        // Toward the inside for the counter-clockwise winding frame.normal is built with.
        const Vec3<T> inward = glm::cross(frame.normal, vertexOf(triangle, nextVertex(edge)) - start);
        clip.keep(glm::dot(inward, p0 - start), glm::dot(inward, direction));
    }
    return clip;
}

template <class T> inline T lengthSquared(const Vec3<T>& v) { return glm::dot(v, v); }

// The size of a segment-triangle case, for tolerances of a few roundings.
template <class T> inline T caseScale(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& triangle) {
    return std::sqrt(lengthSquared(p0 - triangle.a) + lengthSquared(p1 - p0) +
                     lengthSquared(triangle.b - triangle.a) + lengthSquared(triangle.c - triangle.a));
}

// The face's candidate of a segment against a triangle that is not degenerate: over the part of the
// segment inside the prism, the heights (times |normal|) of its two ends.
template <class T> struct FacePart {
    bool exists;
    T s[2];
    Vec3<T> point[2];
    T scaledHeight[2];
};

template <class T> inline FacePart<T> facePart(const Vec3<T>& p0, const Vec3<T>& p1,
                                               const Triangle<T>& triangle, const TriangleFrame<T>& frame) {
    FacePart<T> part{};
    const Clip<T> clip = clipToPrism(p0, p1 - p0, triangle, frame);
    part.exists = !clip.empty();
    if (!part.exists) return part;
    part.s[0] = clip.s0;
    part.s[1] = clip.s1;
    for (int i = 0; i < 2; ++i) {
        part.point[i] = pointOnSegment(p0, p1, part.s[i]);
        part.scaledHeight[i] = glm::dot(frame.normal, part.point[i] - triangle.a);
    }
    return part;
}

// The points of a capsule (axis a to b) over a planar region of B, along the unit normal toward it: at
// the ends of the part of the axis over the region, the point a radius below it (the lowest point of the
// ball there: on the capsule's surface at an end sphere facing down or where the axis lies along the
// plane, else inside the capsule), and the ends of the part over the region of the cylinder's lowest
// line (the axis moved by the radius against the normal, perpendicular to the axis: on its surface).
// Each with its exact height above the plane and its projection onto it (over the region): each point
// of the capsule, so its height is never less than the capsule's least there; the deepest is at most the
// least height of the axis over the region less the radius (the capsule's distance, where the closest
// points of the axis and the region lie over it). The deepest, then the one farthest from it along the
// axis. clip(p0, direction) is the part of the segment
// p0 + s direction, s in [0, 1], over the region. No point when rounding leaves none over it.
template <class T, class ClipToRegion>
inline CapsuleContact<T> facePoints(const Vec3<T>& a, const Vec3<T>& b, T radius, const Vec3<T>& normal,
                                    const Vec3<T>& onPlane, ClipToRegion clip) {
    std::array<CapsulePoint<T>, 4> found;
    int count = 0;
    const auto add = [&](const Vec3<T>& lowest, T s) {
        const T height = glm::dot(normal, lowest - onPlane);
        found[count++] = {lowest - height * normal, height, s};
    };
    const Vec3<T> direction = b - a;
    const T rise = glm::dot(normal, direction);
    const Clip<T> axis = clip(a, direction);
    if (!axis.empty()) {
        add(pointOnSegment(a, b, axis.s0) - radius * normal, axis.s0);
        if (axis.s1 != axis.s0) add(pointOnSegment(a, b, axis.s1) - radius * normal, axis.s1);
    }
    // Across the axis, the cylinder reaches lowest along the normal's part perpendicular to the axis.
    const T directionSquared = glm::dot(direction, direction);
    if (directionSquared > T(0)) {
        const Vec3<T> across = normal - (rise / directionSquared) * direction;
        const T acrossSquared = glm::dot(across, across);
        if (acrossSquared > 64 * unitRoundoff<T>) {
            const Vec3<T> down = (radius / std::sqrt(acrossSquared)) * across;
            const Clip<T> line = clip(a - down, direction);
            if (!line.empty()) {
                add(pointOnSegment(a, b, line.s0) - down, line.s0);
                if (line.s1 != line.s0) add(pointOnSegment(a, b, line.s1) - down, line.s1);
            }
        }
    }
    CapsuleContact<T> contact{};
    contact.normal = normal;
    if (count == 0) return contact;
    int deepest = 0;
    for (int i = 1; i < count; ++i)
        if (found[i].distance < found[deepest].distance) deepest = i;
    contact.points[0] = found[deepest];
    contact.pointCount = 1;
    int farthest = -1;
    T farthestApart = T(0);
    for (int i = 0; i < count; ++i) {
        const T apart = std::abs(found[i].s - found[deepest].s);
        if (apart > farthestApart) {
            farthestApart = apart;
            farthest = i;
        }
    }
    if (farthest >= 0) {
        contact.points[1] = found[farthest];
        contact.pointCount = 2;
    }
    return contact;
}

// The nearest pair between the segment and the triangle's three edges.
template <class T> struct EdgePair {
    SegmentPair<T> pair;
    int edge;
    T distanceSquared;
};

template <class T> inline std::optional<EdgePair<T>> nearestEdgePair(const Vec3<T>& p0, const Vec3<T>& p1,
                                                                     const Triangle<T>& triangle) {
    std::optional<EdgePair<T>> best;
    for (int edge = 0; edge < 3; ++edge) {
        const auto pair = closestPointsSegmentSegment(p0, p1, vertexOf(triangle, edge),
                                                      vertexOf(triangle, nextVertex(edge)));
        if (!pair) return std::nullopt;
        const T distanceSquared = lengthSquared(pair->pointOnP - pair->pointOnQ);
        if (!best || distanceSquared < best->distanceSquared)
            best = EdgePair<T>{*pair, edge, distanceSquared};
    }
    return best;
}

template <class T>
inline bool isValidSegmentTriangle(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& triangle) {
    return allFinite(p0, p1, triangle.a, triangle.b, triangle.c);
}

}  // namespace detail

// Exact closest points of the segment from p0 to p1 and the solid triangle.
// Range: s in [0, 1], pointOnSegment = p0 + s (p1 - p0); pointOnTriangle on the triangle, on feature.
// No result: only for invalid input; every valid query has a closest pair.
// A segment crossing or touching the triangle's face gives the crossing as both points (feature Face;
// through an edge or a vertex, within rounding, that feature may be named instead).
// One parallel to the triangle over its face gives one of the nearest pairs, the face's at a tie with an
// edge (within a few roundings). A zero-length segment gets the triangle's point nearest to p0.
// A degenerate triangle (the sine of its smallest angle below 16 unit roundoffs: no area, or a needle; or
// one too small to tell, its edges under about 3e-7 in float, 1e-70 in double; also one whose edges'
// fourth powers overflow T) gives the nearest pair of its three edges and the segment.
// Invalid input: a NaN or infinite coordinate gives std::nullopt; so does input whose differences or
// squares overflow T where the result would not be finite.
template <class T>
inline std::optional<SegmentTrianglePair<T>> closestPointsSegmentTriangle(const Vec3<T>& p0,
                                                                          const Vec3<T>& p1,
                                                                          const Triangle<T>& triangle) {
    if (!detail::isValidSegmentTriangle(p0, p1, triangle)) return std::nullopt;
    const TriangleFrame<T> frame = faceFrame(triangle);
    const auto edges = detail::nearestEdgePair(p0, p1, triangle);
    if (!edges) return std::nullopt;
    SegmentTrianglePair<T> result{edges->pair.s, edges->pair.pointOnP, edges->pair.pointOnQ,
                                  detail::edgeFeature(edges->edge, edges->pair.t)};
    if (frame.hasFace()) {
        const detail::FacePart<T> part = detail::facePart(p0, p1, triangle, frame);
        if (part.exists) {
            const T h0 = part.scaledHeight[0], h1 = part.scaledHeight[1];
            const T normalLength = std::sqrt(frame.normalSquared);
            if ((h0 <= T(0) && h1 >= T(0)) || (h0 >= T(0) && h1 <= T(0))) {
                // Crosses the plane inside the prism: where the height is zero.
                const T fraction = h0 == h1 ? T(0) : h0 / (h0 - h1);
                const T s = part.s[0] + fraction * (part.s[1] - part.s[0]);
                const Vec3<T> crossing = detail::pointOnSegment(p0, p1, s);
                result = {s, crossing, crossing - detail::offsetFromPlane(crossing, triangle, frame),
                          TriangleFeature::Face};
            } else {
                const int lower = std::abs(h1) < std::abs(h0) ? 1 : 0;
                const T faceDistance = std::abs(part.scaledHeight[lower]) / normalLength;
                // Ties within a few roundings go to the face: its normal is exact.
                const T noise = 16 * unitRoundoff<T> * detail::caseScale(p0, p1, triangle);
                if (faceDistance <= std::sqrt(edges->distanceSquared) + noise)
                    result = {part.s[lower], part.point[lower],
                              part.point[lower] - detail::offsetFromPlane(part.point[lower], triangle, frame),
                              TriangleFeature::Face};
            }
        }
    }
    if (!detail::allFinite(result.s, result.pointOnSegment, result.pointOnTriangle)) return std::nullopt;
    return result;
}

// The capsule's contact with a triangle (two-sided), when the capsule is within reach (>= 0, a
// distance, such as Bullet's contact breaking threshold) of touching it: a unit normal from the triangle
// toward the capsule and one or two points, each with its signed distance along the normal (negative
// when they overlap), from the axis's closest points (closestPointsSegmentTriangle).
// - The nearest feature is the face: the normal is the face normal on the side of the axis (where the
//   axis crosses the plane, the side on which its part over the face reaches farther); the points are the
//   deepest point of the capsule over the face and the one farthest from it along the axis (found among
//   the ends of the part of the axis over the face, a radius below it, and where the cylinder's lowest
//   line, the axis moved a radius against the normal, enters and leaves the face's prism).
// - Otherwise one point, the normal from the edge or vertex toward the axis (the face normal on the side
//   of the capsule's centre when the axis passes through the edge within a few roundings).
// Range: the first (deepest) point's distance <= reach; the second's may be beyond reach (a caller keeps
// those within). Every point is on the triangle, its point on A (onB + distance normal) in the capsule
// (on its surface but for the points a radius below the axis): no point is deeper than the capsule
// reaches there.
// No contact (the capsule farther than reach from the triangle): std::nullopt.
// Touching gives distance 0; an axis crossing the triangle gives the face's points, negative. With
// otherSide the face's normal is turned to the other side (the capsule is pushed back through the
// triangle: its distances are then how far it reaches across), and the first point is kept whatever its
// distance; an edge or vertex contact is unchanged. A zero-length axis (a ball) is valid: a face contact
// then gives the same point twice (s = 0 and s = 1).
// A degenerate triangle (the sine of its smallest angle below 16 unit roundoffs: no area, or a needle; or
// one too small to tell, its edges under about 3e-7 in float, 1e-70 in double; also one whose edges'
// fourth powers overflow T) gives no contact: in a mesh its edges are its neighbours'.
// Invalid input: a NaN or infinite value, a negative radius or reach, a radius plus reach that overflows,
// and input whose contact overflows T give std::nullopt.
template <class T>
inline std::optional<CapsuleTriangleContact<T>> capsuleTriangleContact(const Capsule<T>& capsule,
                                                                       const Triangle<T>& triangle, T reach,
                                                                       bool otherSide = false) {
    if (!(capsule.radius >= T(0) && reach >= T(0)) || !std::isfinite(capsule.radius + reach))
        return std::nullopt;
    const T reachFromAxis = capsule.radius + reach;
    // Cheap rejection: the axis's box grown by the reach against the triangle's box.
    const Aabb<T> box = boundsOf(triangle);
    const Vec3<T> low = glm::min(capsule.a, capsule.b), high = glm::max(capsule.a, capsule.b);
    if (glm::any(glm::greaterThan(low - reachFromAxis, box.max)) ||
        glm::any(glm::lessThan(high + reachFromAxis, box.min)))
        return std::nullopt;
    const TriangleFrame<T> frame = faceFrame(triangle);
    if (!frame.hasFace()) return std::nullopt;
    // Cheap rejection: both ends of the axis beyond reach of the plane on one side (heights times
    // |normal|, with a margin of roundings so that a capsule exactly in reach is never rejected).
    const T scaledHeightA = glm::dot(frame.normal, capsule.a - triangle.a);
    const T scaledHeightB = glm::dot(frame.normal, capsule.b - triangle.a);
    const T scaledReach = (T(1) + 16 * unitRoundoff<T>)*reachFromAxis * std::sqrt(frame.normalSquared);
    if (std::min(scaledHeightA, scaledHeightB) > scaledReach ||
        std::max(scaledHeightA, scaledHeightB) < -scaledReach)
        return std::nullopt;
    const auto pair = closestPointsSegmentTriangle(capsule.a, capsule.b, triangle);
    if (!pair) return std::nullopt;
    const Vec3<T> offset = pair->pointOnSegment - pair->pointOnTriangle;
    const T distanceSquared = glm::dot(offset, offset);
    if (!(distanceSquared <= reachFromAxis * reachFromAxis)) return std::nullopt;
    const Vec3<T> faceNormal = unitVector(frame.normal);
    CapsuleTriangleContact<T> result{};
    result.feature = pair->feature;
    if (pair->feature == TriangleFeature::Face) {
        const detail::FacePart<T> part = detail::facePart(capsule.a, capsule.b, triangle, frame);
        T sign = glm::dot(faceNormal, pair->pointOnSegment - triangle.a) < T(0) ? T(-1) : T(1);
        if (part.exists) sign = part.scaledHeight[0] + part.scaledHeight[1] < T(0) ? T(-1) : T(1);
        if (otherSide) sign = -sign;
        result.contact = detail::facePoints(capsule.a, capsule.b, capsule.radius, sign * faceNormal,
                                            triangle.a, [&](const Vec3<T>& p0, const Vec3<T>& direction) {
                                                return detail::clipToPrism(p0, direction, triangle, frame);
                                            });
        if (result.contact.pointCount == 0) {
            // The prism's clip and the pair's rounding disagree at its border: the pair's point alone.
            const T height = sign * glm::dot(faceNormal, pair->pointOnSegment - triangle.a);
            result.contact = {sign * faceNormal,
                              {CapsulePoint<T>{pair->pointOnTriangle, height - capsule.radius, pair->s}},
                              1};
        }
    } else {
        const T noise = 8 * unitRoundoff<T> * detail::caseScale(capsule.a, capsule.b, triangle);
        Vec3<T> normal;
        T distance;
        if (distanceSquared > noise * noise) {
            const LengthAndDirection<T> separation = lengthAndDirection(offset);
            normal = separation.direction;
            distance = separation.length;
        } else {
            const T centreHeight = glm::dot(faceNormal, (capsule.a - triangle.a) + (capsule.b - triangle.a));
            normal = centreHeight < T(0) ? -faceNormal : faceNormal;
            distance = std::sqrt(distanceSquared);
        }
        result.contact = {
            normal, {CapsulePoint<T>{pair->pointOnTriangle, distance - capsule.radius, pair->s}}, 1};
    }
    if (!(result.contact.points[0].distance <= reach) && !otherSide) return std::nullopt;
    for (int k = 0; k < result.contact.pointCount; ++k)
        if (!detail::allFinite(result.contact.points[k].onB, result.contact.points[k].distance))
            return std::nullopt;
    if (!detail::allFinite(result.contact.normal)) return std::nullopt;
    return result;
}

namespace detail {

// The segment in the box's frame: p0 relative to the centre along the box's axes, and its direction.
template <class T> struct LocalSegment {
    Vec3<T> p0;
    Vec3<T> direction;
    Vec3<T> at(T s) const { return s == T(1) ? p0 + direction : p0 + s * direction; }
};

template <class T>
inline LocalSegment<T> toBoxFrame(const Vec3<T>& p0, const Vec3<T>& p1, const Obb<T>& box) {
    const Mat3<T> toLocal = glm::transpose(box.rotation);
    return {toLocal * (p0 - box.center), toLocal * (p1 - p0)};
}

// The part of the local segment inside the box, or inside the slabs of the axes other than skip.
template <class T>
inline Clip<T> clipToBox(const LocalSegment<T>& segment, const Vec3<T>& half, int skip = -1) {
    Clip<T> clip;
    for (int axis = 0; axis < 3; ++axis) {
        if (axis == skip) continue;
        clip.keep(half[axis] - segment.p0[axis], -segment.direction[axis]);
        clip.keep(half[axis] + segment.p0[axis], segment.direction[axis]);
    }
    return clip;
}

// The nearest pair of a local segment that misses the box: from its ends' clamped points and from the
// segment against each of the box's 12 edges.
template <class T> struct LocalPair {
    T s;
    Vec3<T> onSegment;
    Vec3<T> onBox;
    T distanceSquared;
};

template <class T>
inline std::optional<LocalPair<T>> nearestLocalPair(const LocalSegment<T>& segment, const Vec3<T>& half) {
    std::optional<LocalPair<T>> best;
    const auto consider = [&](T s, const Vec3<T>& onSegment, const Vec3<T>& onBox) {
        const T distanceSquared = lengthSquared(onSegment - onBox);
        if (!best || distanceSquared < best->distanceSquared)
            best = LocalPair<T>{s, onSegment, onBox, distanceSquared};
    };
    for (const T s : {T(0), T(1)}) {
        const Vec3<T> end = segment.at(s);
        consider(s, end, glm::clamp(end, -half, half));
    }
    const Vec3<T> p1 = segment.at(T(1));
    const Vec3<T> low = glm::min(segment.p0, p1), high = glm::max(segment.p0, p1);
    for (int axis = 0; axis < 3; ++axis) {
        const int u = (axis + 1) % 3, v = (axis + 2) % 3;
        for (int corner = 0; corner < 4; ++corner) {
            Vec3<T> from;
            from[u] = corner & 1 ? half[u] : -half[u];
            from[v] = corner & 2 ? half[v] : -half[v];
            // An edge no nearer than the best so far across its axis (from the segment's bounds) is
            // skipped: the pair's distance is at least that.
            const T apartU = std::max({T(0), low[u] - from[u], from[u] - high[u]});
            const T apartV = std::max({T(0), low[v] - from[v], from[v] - high[v]});
            if (apartU * apartU + apartV * apartV > best->distanceSquared) continue;
            from[axis] = -half[axis];
            Vec3<T> to = from;
            to[axis] = half[axis];
            const auto pair = closestPointsSegmentSegment(segment.p0, p1, from, to);
            if (!pair) return std::nullopt;
            consider(pair->s, pair->pointOnP, pair->pointOnQ);
        }
    }
    return best;
}

}  // namespace detail

// Exact closest points of the segment from p0 to p1 and the solid box (its surface and inside).
// box.rotation's columns are the box's axes, orthonormal (not checked).
// Range: s in [0, 1], pointOnSegment = p0 + s (p1 - p0); pointOnBox in the box.
// No result: only for invalid input; every valid query has a closest pair.
// A segment meeting the box (touching included) gives inside = true and the middle of its part inside
// the box as both points; apart, inside = false and the nearest pair (from the segment's ends and the
// box's 12 edges).
// Zero half extents (a flat, linear or point box) and a zero-length segment are valid.
// Invalid input: a NaN or infinite value or a negative half extent gives std::nullopt; so does input
// whose result overflows T.
template <class T> inline std::optional<SegmentObbPair<T>> closestPointsSegmentObb(const Vec3<T>& p0,
                                                                                   const Vec3<T>& p1,
                                                                                   const Obb<T>& box) {
    if (!detail::allFinite(p0, p1) || !detail::isValidObb(box)) return std::nullopt;
    const detail::LocalSegment<T> segment = detail::toBoxFrame(p0, p1, box);
    const detail::Clip<T> inside = detail::clipToBox(segment, box.halfExtents);
    SegmentObbPair<T> result;
    if (!inside.empty()) {
        const T s = (inside.s0 + inside.s1) / 2;
        const Vec3<T> point = detail::pointOnSegment(p0, p1, s);
        result = {s, point, point, true};
    } else {
        const auto pair = detail::nearestLocalPair(segment, box.halfExtents);
        if (!pair) return std::nullopt;
        result = {pair->s, detail::pointOnSegment(p0, p1, pair->s), box.center + box.rotation * pair->onBox,
                  false};
    }
    if (!detail::allFinite(result.s, result.pointOnSegment, result.pointOnBox)) return std::nullopt;
    return result;
}

namespace detail {

// The face contact of a local segment over the box's face (axis, side): facePoints over the face's
// rectangle, each point on B set onto the face exactly.
template <class T> inline CapsuleContact<T> faceContact(const LocalSegment<T>& segment, const Vec3<T>& half,
                                                        int axis, T side, T radius) {
    Vec3<T> normal(T(0));
    normal[axis] = side;
    CapsuleContact<T> contact = facePoints(segment.p0, segment.at(T(1)), radius, normal, half[axis] * normal,
                                           [&](const Vec3<T>& p0, const Vec3<T>& direction) {
                                               return clipToBox(LocalSegment<T>{p0, direction}, half, axis);
                                           });
    for (int k = 0; k < contact.pointCount; ++k) {
        Vec3<T>& onFace = contact.points[k].onB;
        onFace = glm::clamp(onFace, -half, half);
        onFace[axis] = side * half[axis];
    }
    return contact;
}

}  // namespace detail

// The capsule's contact with the box, when the capsule is within reach (>= 0, a distance, such as
// Bullet's contact breaking threshold) of touching it: a unit normal from the box toward the capsule and
// one or two points on the box, each with its signed distance along the normal (negative when they
// overlap). box.rotation's columns are the box's axes, orthonormal (not checked).
// - Axis apart from the box: from the closest points of the axis and the box (closestPointsSegmentObb).
//   Where they lie over a face (its normal is the contact's, within a few roundings), the deepest point
//   of the capsule over that face and, within reach, the one farthest from it along the axis (found among
//   the ends of the part of the axis over the face, a radius below it, and where the cylinder's lowest
//   line, the axis moved a radius against the normal, crosses the face's border); else one point, along
//   the offset between the closest points.
// - Axis meeting the box (touching within roundings included): pushed out along the axis of least
//   penetration among the box's 3 face normals and the 3 cross products of the capsule's axis with them
//   (the faces of the Minkowski difference; a face at a tie within a few roundings), with the face's
//   points as above, or one point for an edge.
// Range: every point's distance <= reach; every point on the box.
// No contact (the capsule farther than reach from the box): std::nullopt.
// Touching gives distance 0; overlapping, negative distances. A zero-length axis (a ball) is valid: a
// face contact then gives the same point twice (s = 0 and s = 1). Zero half extents are valid.
// Invalid input: a NaN or infinite value, a negative radius, half extent or reach, a radius plus reach
// that overflows, and input whose contact overflows T give std::nullopt.
template <class T> inline std::optional<CapsuleContact<T>> capsuleObbContact(const Capsule<T>& capsule,
                                                                             const Obb<T>& box, T reach) {
    if (!detail::allFinite(capsule.a, capsule.b) || !detail::isValidObb(box) ||
        !(capsule.radius >= T(0) && reach >= T(0)) || !std::isfinite(capsule.radius + reach))
        return std::nullopt;
    const Vec3<T>& half = box.halfExtents;
    const detail::LocalSegment<T> segment = detail::toBoxFrame(capsule.a, capsule.b, box);
    const T scale = std::sqrt(detail::lengthSquared(segment.p0) + detail::lengthSquared(segment.direction) +
                              detail::lengthSquared(half));
    const T noise = 16 * unitRoundoff<T> * scale;
    const T reachFromAxis = capsule.radius + reach;
    std::optional<CapsuleContact<T>> local;
    const detail::Clip<T> inside = detail::clipToBox(segment, half);
    std::optional<detail::LocalPair<T>> apart;
    if (inside.empty()) {
        apart = detail::nearestLocalPair(segment, half);
        if (!apart || !(apart->distanceSquared <= reachFromAxis * reachFromAxis)) return std::nullopt;
    }
    if (apart && apart->distanceSquared > noise * noise) {
        const Vec3<T> offset = apart->onSegment - apart->onBox;
        const Vec3<T> magnitude = glm::abs(offset);
        const int axis = magnitude.x >= magnitude.y && magnitude.x >= magnitude.z ? 0
                         : magnitude.y >= magnitude.z                             ? 1
                                                                                  : 2;
        const T side = offset[axis] < T(0) ? T(-1) : T(1);
        // From the offset itself, scaled where its square leaves the normal numbers (a case at 1e-21 in
        // float): the root of a subnormal square has lost its digits, and the normal its unit length.
        const LengthAndDirection<T> separation = lengthAndDirection(offset);
        const T distance = separation.length;
        const detail::Clip<T> overFace = detail::clipToBox(segment, half, axis);
        bool onFace = false;
        if (!overFace.empty()) {
            const T lowest =
                std::min(side * segment.at(overFace.s0)[axis], side * segment.at(overFace.s1)[axis]) -
                half[axis];
            onFace = lowest <= distance + noise;
        }
        if (onFace) local = detail::faceContact(segment, half, axis, side, capsule.radius);
        if (!onFace || local->pointCount == 0) {
            local = CapsuleContact<T>{separation.direction,
                                      {CapsulePoint<T>{apart->onBox, distance - capsule.radius, apart->s}},
                                      1};
        }
    } else {
        // Penetrating (or touching within roundings): least penetration over the 6 axes.
        const Vec3<T> p1 = segment.at(T(1));
        int bestAxis = -1;
        T bestDepth = std::numeric_limits<T>::infinity(), bestSide = T(1);
        Vec3<T> bestNormal(T(0));
        for (int axis = 0; axis < 3; ++axis) {
            const T low = std::min(segment.p0[axis], p1[axis]), high = std::max(segment.p0[axis], p1[axis]);
            const T up = half[axis] - low, down = high + half[axis];
            const T depth = std::min(up, down);
            if (depth < bestDepth) {
                bestDepth = depth;
                bestAxis = axis;
                bestSide = up <= down ? T(1) : T(-1);
            }
        }
        const T faceDepth = bestDepth;
        const Vec3<T> direction = segment.direction;
        const T directionSquared = detail::lengthSquared(direction);
        int edgeAxis = -1;
        for (int axis = 0; axis < 3; ++axis) {
            Vec3<T> unitAxis(T(0));
            unitAxis[axis] = T(1);
            const Vec3<T> cross = glm::cross(direction, unitAxis);
            const T crossSquared = detail::lengthSquared(cross);
            // Parallel to the face axis, or a square below the normal numbers (an axis under 1e-154 long
            // in double, 1e-19 in float: a sphere, which the face axes settle), whose root is no length.
            if (!(crossSquared > 64 * unitRoundoff<T> * directionSquared) ||
                !(crossSquared >= std::numeric_limits<T>::min()))
                continue;
            const Vec3<T> normal = cross / std::sqrt(crossSquared);
            const T boxRadius = glm::dot(half, glm::abs(normal));
            const T along = glm::dot(normal, segment.p0);  // the whole segment projects here
            const T up = boxRadius - along, down = along + boxRadius;
            const T depth = std::min(up, down);
            if (depth + noise < faceDepth && depth < bestDepth) {
                bestDepth = depth;
                edgeAxis = axis;
                bestNormal = up <= down ? normal : -normal;
            }
        }
        if (edgeAxis < 0) {
            local = detail::faceContact(segment, half, bestAxis, bestSide, capsule.radius);
            if (local->pointCount == 0) {  // touching within roundings beside the face: one point
                const T s = apart ? apart->s : (inside.s0 + inside.s1) / 2;
                const Vec3<T> onAxis = segment.at(s);
                Vec3<T> onFace = glm::clamp(onAxis, -half, half);
                onFace[bestAxis] = bestSide * half[bestAxis];
                local->points[0] = {onFace, bestSide * onAxis[bestAxis] - half[bestAxis] - capsule.radius, s};
                local->pointCount = 1;
            }
        } else {
            // The box's edge along edgeAxis that reaches farthest along the normal, and the segment's
            // point nearest to it: across the edge from it along the normal.
            Vec3<T> from;
            for (int axis = 0; axis < 3; ++axis)
                from[axis] = bestNormal[axis] < T(0) ? -half[axis] : half[axis];
            from[edgeAxis] = -half[edgeAxis];
            Vec3<T> to = from;
            to[edgeAxis] = half[edgeAxis];
            const auto pair = closestPointsSegmentSegment(segment.p0, p1, from, to);
            if (!pair) return std::nullopt;
            local = CapsuleContact<T>{
                bestNormal, {CapsulePoint<T>{pair->pointOnQ, -bestDepth - capsule.radius, pair->s}}, 1};
        }
    }
    if (!(local->points[0].distance <= reach)) return std::nullopt;
    if (local->pointCount == 2 && !(local->points[1].distance <= reach)) local->pointCount = 1;
    CapsuleContact<T> result = *local;
    result.normal = box.rotation * local->normal;
    for (int k = 0; k < result.pointCount; ++k) {
        result.points[k].onB = box.center + box.rotation * local->points[k].onB;
        if (!detail::allFinite(result.points[k].onB, result.points[k].distance)) return std::nullopt;
    }
    if (!detail::allFinite(result.normal)) return std::nullopt;
    return result;
}

}  // namespace analytic
