// SPDX-License-Identifier: Zlib
// Swept (moving) capsules against static targets: the first time of impact, exactly. The moving capsule
// is the segment [c - halfAxis, c + halfAxis] grown by its radius, its centre c moving along a RayPath. It
// first touches a convex target O where c enters O + [-halfAxis, halfAxis] grown by the radius (the
// Minkowski sum of the target, the segment reflected, which is the segment itself, and the ball). That
// sum's boundary lies within the radius of the boundary of O + [-h, h], whose faces are among: O's faces
// moved by +h or -h, the parallelograms of O's edges and the segment, O's edges moved by +h and -h, and
// O's vertices swept over [-h, h]. Each such flat piece grown by the radius is met by a ray-plane test with
// a containment test, each segment grown by the radius is a capsule met by the ray-capsule test; every
// piece lies in the sum, so the earliest entry among them is the entry into the sum: exact up to rounding,
// nothing padded along the motion. The contact point and normal come from the closest points of the
// capsule's segment at that time and the target (closest_point.hpp, capsule_contact.hpp), not from the
// piece that won, whose choice among pieces reached at equal times is noise. A zero half axis is a
// sphere: each function then returns the sphere sweep's answer (sphere_sweep.hpp). Each function states
// its contract; none outputs a NaN.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>

#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

namespace detail::capsule_sweep {

template <class T> bool isValidCapsuleSweep(const RayPath<T>& path, const Vec3<T>& halfAxis, T radius) {
    return sphere_sweep::isValidSweep(path, radius) && isFinite(halfAxis) &&
           isFinite(path.origin - halfAxis) && isFinite(path.origin + halfAxis);
}

// The earliest entry found so far into the pieces of the grown sum: its time and the piece's normal
// there (the fallback where the closest points leave no direction), or that the path starts inside a
// piece (rounding: the static contact found the capsule clear).
template <class T> struct Earliest {
    std::optional<T> t;
    Vec3<T> normal{T(0)};
    bool startsInside = false;

    bool beats(T time) const { return !t || time < *t; }
    void offer(T time, const Vec3<T>& pieceNormal) {
        if (beats(time)) t = time, normal = pieceNormal;
    }
};

// The segment from - to grown by radius: a capsule, met by the ray test.
// Whether the path may meet the box [low, high] padded by pad before the earliest entry so far (or start
// inside it): a cheap test before a capsule's, whose entry is never before its box's. Only a clear
// answer rejects: a NaN (a direction's reciprocal that overflows against a zero gap) lets the exact test
// decide.
template <class T> bool mayReachBox(const RayPath<T>& path, const Vec3<T>& inverseDirection, Vec3<T> low,
                                    Vec3<T> high, T pad, const Earliest<T>& earliest) {
    low -= pad;
    high += pad;
    T near = -std::numeric_limits<T>::infinity();
    T far = earliest.t ? std::min(*earliest.t, path.maxT) : path.maxT;
    for (int k = 0; k < 3; ++k) {
        if (path.direction[k] == T(0)) {
            if (path.origin[k] < low[k] || path.origin[k] > high[k]) return false;
            continue;
        }
        const T t1 = (low[k] - path.origin[k]) * inverseDirection[k];
        const T t2 = (high[k] - path.origin[k]) * inverseDirection[k];
        near = std::max(near, std::min(t1, t2));
        far = std::min(far, std::max(t1, t2));
    }
    return !(near > far) && !(far < T(0));
}

// The segment from - to grown by radius: a capsule, met by the ray test (after its box's, padded by
// tolerance).
template <class T> void offerSegment(const RayPath<T>& path, const Vec3<T>& inverseDirection, T radius,
                                     T tolerance, const Vec3<T>& from, const Vec3<T>& to,
                                     Earliest<T>& earliest) {
    if (!mayReachBox(path, inverseDirection, glm::min(from, to) - radius, glm::max(from, to) + radius,
                     tolerance, earliest))
        return;
    const std::optional<RaySolidHit<T>> crossing = intersectRayCapsule(path, Capsule<T>{from, to, radius});
    if (!crossing) return;
    if (crossing->originInside) {
        earliest.startsInside = true;
        return;
    }
    earliest.offer(crossing->entry.t, crossing->entry.normal);
}

// The time the centre comes down to radius above the plane dot(normal, x) = offset (normal unit) from its
// positive side, when it does within [0, maxT] and before the earliest so far. A centre already below
// that height by no more than slack (the rounding of the case, where the static tests found the capsule
// clear) comes down to it at 0.
template <class T> std::optional<T> planeEntry(const RayPath<T>& path, T radius, const Vec3<T>& normal,
                                               T offset, T slack, const Earliest<T>& earliest) {
    const T approach = glm::dot(normal, path.direction);
    if (!(approach < T(0))) return std::nullopt;
    const T below = offset + radius - glm::dot(normal, path.origin);
    const T t = below > T(0) && below <= slack ? T(0) : below / approach;
    if (!(t >= T(0) && t <= path.maxT) || !earliest.beats(t)) return std::nullopt;
    return t;
}

// The flat face of the parallelogram corner + alpha edge + beta side (alpha, beta in [0, 1]) grown by
// radius, on the side the path comes from. A parallelogram whose sides are parallel (the sine of their
// angle within 16 roundings) is a segment, which its edges' capsules cover. tolerance: a distance within
// which a point counts as inside it (rounding of the case's size). Everything is measured along unit
// directions, in distances: a product of two lengths would overflow or underflow for sizes the rest
// takes (a subnormal edge's square is 0).
template <class T> void offerParallelogram(const RayPath<T>& path, T radius, const Vec3<T>& corner,
                                           const Vec3<T>& edge, const Vec3<T>& side, T tolerance,
                                           Earliest<T>& earliest) {
    const Vec3<T> edgeDirection = lengthAndDirection(edge).direction;
    const Vec3<T> sideDirection = lengthAndDirection(side).direction;
    const LengthAndDirection<T> normal = lengthAndDirection(glm::cross(edgeDirection, sideDirection));
    if (!(normal.length > 16 * unitRoundoff<T>)) return;  // parallel, a zero side, or NaN
    const T height = glm::dot(normal.direction, path.origin - corner);
    const Vec3<T> outward = height >= T(0) ? normal.direction : -normal.direction;
    const std::optional<T> t =
        planeEntry(path, radius, outward, glm::dot(outward, corner), tolerance, earliest);
    if (!t) return;
    const Vec3<T> q = path.at(*t) - radius * outward - corner;
    // The point's distances from the side through the corner along side (then along edge), against the
    // parallelogram's widths across them.
    const T acrossSide = glm::dot(glm::cross(q, sideDirection), normal.direction);
    const T acrossEdge = glm::dot(glm::cross(edgeDirection, q), normal.direction);
    const T widthAcrossSide = glm::dot(glm::cross(edge, sideDirection), normal.direction);
    const T widthAcrossEdge = glm::dot(glm::cross(edgeDirection, side), normal.direction);
    if (acrossSide >= -tolerance && acrossSide <= widthAcrossSide + tolerance && acrossEdge >= -tolerance &&
        acrossEdge <= widthAcrossEdge + tolerance)
        earliest.offer(*t, outward);
}

// The pieces of O + [-h, h] that come from O's vertices and edges: each vertex swept over [-h, h], each
// edge moved by -h and +h, each edge's parallelogram with 2h. vertex(i) and edge(i) (a pair of points)
// give them.
template <class T, class Vertex, class Edge>
void offerVerticesAndEdges(const RayPath<T>& path, const Vec3<T>& halfAxis, T radius, T tolerance,
                           std::size_t vertexCount, const Vertex& vertex, std::size_t edgeCount,
                           const Edge& edge, Earliest<T>& earliest) {
    const Vec3<T> axis = T(2) * halfAxis;
    const Vec3<T> inverseDirection = T(1) / path.direction;
    for (std::size_t e = 0; e < edgeCount; ++e) {
        const auto [from, to] = edge(e);
        offerParallelogram(path, radius, from - halfAxis, to - from, axis, tolerance, earliest);
    }
    for (std::size_t v = 0; v < vertexCount; ++v) {
        const Vec3<T> point = vertex(v);
        offerSegment(path, inverseDirection, radius, tolerance, point - halfAxis, point + halfAxis, earliest);
    }
    for (std::size_t e = 0; e < edgeCount; ++e) {
        const auto [from, to] = edge(e);
        offerSegment(path, inverseDirection, radius, tolerance, from - halfAxis, to - halfAxis, earliest);
        offerSegment(path, inverseDirection, radius, tolerance, from + halfAxis, to + halfAxis, earliest);
    }
}

// The faces of O + [-h, h] that are O's face with the outward unit normal `normal` and plane offset
// `offset`, moved by sign(normal . h) h (by both -h and +h where normal . h is 0: the face swept in its
// own plane, whose rest the edges' parallelograms cover). contains(q) says whether q, a point of the face's
// plane, lies on the face.
template <class T, class Contains> void offerFace(const RayPath<T>& path, const Vec3<T>& halfAxis, T radius,
                                                  const Vec3<T>& normal, T offset, T tolerance,
                                                  const Contains& contains, Earliest<T>& earliest) {
    const T rise = glm::dot(normal, halfAxis);
    for (const T sign : {T(1), T(-1)}) {
        if (sign * rise < T(0)) continue;
        const Vec3<T> shift = sign * halfAxis;
        const std::optional<T> t =
            planeEntry(path, radius, normal, offset + sign * rise, tolerance, earliest);
        if (t && contains(path.at(*t) - radius * normal - shift)) earliest.offer(*t, normal);
    }
}

// The closest points of the capsule's segment and the target (the target's core for a sphere or a
// capsule), and their distance.
template <class T> struct NearestPair {
    Vec3<T> onSegment;
    Vec3<T> onTarget;
    // For a capsule target whose nearest point lies inside its axis (or at an end, the offset leaning
    // into the span): the axis' unit direction, which the offset between the points is perpendicular to.
    // Rounding leaves the offset a part along it of the case's size, and the point a target radius along the
    // normal would leave the surface by that part over the offset's length times the radius (axes that nearly
    // meet, a radius of 1e9): it is taken out. Zero otherwise.
    Vec3<T> across{T(0)};
};

// A unit normal from the target toward the segment where the closest points coincide (the segment
// reaches the target's core): perpendicular to the segment and the target's line there (direction), or to
// the segment alone; turned toward from (the capsule's centre).
template <class T>
Vec3<T> normalThroughCore(const Vec3<T>& halfAxis, const Vec3<T>& direction, const Vec3<T>& fromCore) {
    const Vec3<T> cross = glm::cross(halfAxis, direction);
    const T crossLength = glm::length(cross);
    Vec3<T> normal = crossLength > 16 * unitRoundoff<T> * glm::length(halfAxis) * glm::length(direction) &&
                             isFinite(crossLength) && crossLength > T(0)
                         ? unitVector(cross)
                         : detail::perpendicularUnit(halfAxis);
    if (glm::dot(normal, fromCore) < T(0)) normal = -normal;
    return normal;
}

// The hit from the closest pair at t: the normal along the pair's offset, or fallback where the offset
// is within noise; the point on the target (its core moved out by coreRadius along the normal).
template <class T> std::optional<SphereSweepHit<T>> hitFromPair(T t, const NearestPair<T>& pair, T coreRadius,
                                                                T noise, const Vec3<T>& fallback,
                                                                bool startsInContact) {
    Vec3<T> between = pair.onSegment - pair.onTarget;
    between -= glm::dot(between, pair.across) * pair.across;
    const LengthAndDirection<T> offset = lengthAndDirection(between);
    const Vec3<T> normal = offset.length > noise ? offset.direction : fallback;
    const SphereSweepHit<T> hit{t, pair.onTarget + coreRadius * normal, normal, startsInContact};
    if (!detail::allFinite(hit.t, hit.point, hit.normal)) return std::nullopt;
    return hit;
}

// The sweep once the earliest entry is known: the contact where the closest pair says, at that time.
// A start inside a piece that the static test found clear (rounding) is a touch at t = 0.
template <class T, class Pair, class Fallback>
std::optional<SphereSweepHit<T>> sweepResult(const Earliest<T>& earliest, const RayPath<T>& path,
                                             const Vec3<T>& halfAxis, T coreRadius, T noise,
                                             const Pair& nearestPair, const Fallback& fallbackAt) {
    if (!earliest.startsInside && !earliest.t) return std::nullopt;
    const T t = earliest.startsInside ? T(0) : *earliest.t;
    const Vec3<T> center = path.at(t);
    const std::optional<NearestPair<T>> pair = nearestPair(center - halfAxis, center + halfAxis);
    if (!pair) return std::nullopt;
    const Vec3<T> fallback =
        earliest.startsInside || earliest.normal == Vec3<T>(0) ? fallbackAt(*pair, center) : earliest.normal;
    return hitFromPair(t, *pair, coreRadius, noise, fallback, t == T(0));
}

template <class T> std::optional<SphereSweepHit<T>> hitAtStart(const Vec3<T>& point, const Vec3<T>& normal) {
    if (!detail::allFinite(point, normal)) return std::nullopt;
    return SphereSweepHit<T>{T(0), point, normal, true};
}

// Whether the segment p0 - p1 grown by reach is clear of the box [low, high] along one of its axes: then
// the capsule starts apart from whatever the box holds, and the static tests (closest points against
// every edge) need not run.
template <class T>
bool apartAlongAxes(const Vec3<T>& p0, const Vec3<T>& p1, T reach, const Vec3<T>& low, const Vec3<T>& high) {
    return glm::any(glm::greaterThan(glm::min(p0, p1) - reach, high)) ||
           glm::any(glm::lessThan(glm::max(p0, p1) + reach, low));
}

// Whether the path can meet anything within the box [low, high] grown by reach (a few roundings over).
template <class T> bool pathReachesBox(const RayPath<T>& path, Vec3<T> low, Vec3<T> high, T reach) {
    low -= reach;
    high += reach;
    if (!isFinite(low) || !isFinite(high)) return true;  // no cheap answer: the pieces decide
    return intersectRayAabb(path, Aabb<T>{low, high}).has_value();
}

// ---- Polyhedra ----

// The closest points of a segment and a convex polyhedron, or that the segment meets it (then both points
// are the middle of its part inside). Apart, the distance is reached at an end of the segment (its nearest
// point on the polyhedron) or between the segment and an edge: over a face's inside the height of the
// segment is linear, so least at an end or where the segment leaves the face's region, over an edge.
template <class T> struct PolyhedronPair {
    NearestPair<T> pair;
    bool inside;
};

template <class T>
std::optional<PolyhedronPair<T>> closestPointsSegmentPolyhedron(const Vec3<T>& p0, const Vec3<T>& p1,
                                                                const ConvexPolyhedron<T>& solid,
                                                                T tolerance) {
    const Vec3<T> direction = p1 - p0;
    Clip<T> clip;
    for (const Plane<T>& plane : solid.planes)
        clip.keep(plane.offset - glm::dot(plane.normal, p0), -glm::dot(plane.normal, direction));
    if (!clip.empty()) {
        const Vec3<T> middle = pointOnSegment(p0, p1, (clip.s0 + clip.s1) / T(2));
        return PolyhedronPair<T>{{middle, middle}, true};
    }
    std::optional<NearestPair<T>> best;
    T bestSquared = std::numeric_limits<T>::infinity();
    const auto consider = [&](const Vec3<T>& onSegment, const Vec3<T>& onSolid) {
        const T squared = lengthSquared(onSegment - onSolid);
        if (!best || squared < bestSquared) best = NearestPair<T>{onSegment, onSolid}, bestSquared = squared;
    };
    for (const Vec3<T>& end : {p0, p1})
        if (const auto nearest = sphere_sweep::nearestOnPolyhedron(end, solid, tolerance))
            consider(end, nearest->point);
    for (const std::array<std::uint32_t, 2>& edge : solid.edges)
        if (const auto pair =
                closestPointsSegmentSegment(p0, p1, solid.vertices[edge[0]], solid.vertices[edge[1]]))
            consider(pair->pointOnP, pair->pointOnQ);
    if (!best) return std::nullopt;
    return PolyhedronPair<T>{*best, false};
}

}  // namespace detail::capsule_sweep

// ---------------------------------------------------------------------------------------------------
// Every function below: the capsule of the given radius around the segment [c - halfAxis, c + halfAxis],
// its centre c moving along path (c(t) = path.origin + t * path.direction).
// Direction: need not be unit; t is in multiples of path.direction (a displacement d over one step is the
// path {c0, d, 1}, and t is Bullet's hit fraction). maxT may be +infinity. halfAxis: any direction and
// length; zero makes the capsule a sphere, and the function returns the sphere sweep's answer.
// Range of the rounded pieces: the capsules of edges and vertices are intersectRayCapsule's, which needs
// the radius (plus a sphere's or capsule's target radius) and |direction| with squares that are normal
// numbers (RayPath). Outside it (radius 0, a moving segment; a subnormal radius or speed) only the flat
// pieces meet the path: a touch of measure zero (a segment's end meeting an edge end-on) may then be a
// miss, as it is for the sphere sweeps; a hit reported is always there.
// Result: SphereSweepHit: t, the target's point nearest the capsule's segment at t (on its surface), the
// unit normal from it toward the capsule's segment, startsInContact.

// The first contact of the moving capsule with a solid sphere: the centre's path against the capsule of
// radius radius + target.radius around [target.center - halfAxis, target.center + halfAxis].
// Range: t in [0, path.maxT]; point on the sphere's surface; normal unit, from the sphere's centre toward
// the capsule's segment at t.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away; callers that let it go check
// dot(normal, direction) >= 0): t = 0, startsInContact, the sphere's point nearest the segment and the
// normal from the sphere's centre toward the segment (a centre on the segment: perpendicular to it, from
// the world axis least aligned with it). A zero direction is a static overlap query: t = 0 when touching,
// else std::nullopt.
// Invalid input: a NaN or infinite origin, direction, halfAxis, radius or target, origin -+ halfAxis or
// centre -+ halfAxis overflowing, a negative or NaN maxT, a negative radius or target.radius, and a contact
// beyond the range of T give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepCapsuleSphere(const RayPath<T>& path,
                                                                       const Vec3<T>& halfAxis, T radius,
                                                                       const Sphere<T>& target) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius) || !isFinite(target.center) || !(target.radius >= T(0)))
        return std::nullopt;
    if (halfAxis == Vec3<T>(0)) return sweepSphereSphere(path, radius, target);
    // The sphere against the capsule is the capsule's centre against the sphere's centre swept over the
    // capsule's axis: the same distance, the same normal.
    std::optional<SphereSweepHit<T>> hit = sweepSphereCapsule(
        path, radius, Capsule<T>{target.center - halfAxis, target.center + halfAxis, target.radius});
    if (hit) {
        hit->point = target.center + target.radius * hit->normal;
        if (!isFinite(hit->point)) hit.reset();
    }
    return hit;
}

// The first contact of the moving capsule with a solid capsule (all points within target.radius of the
// segment target.a - target.b; a ball when they are equal): the centre's path against the parallelogram
// of the two segments grown by the sum of the radii (its flat faces, and the capsules of its four edges).
// Range: t in [0, path.maxT]; point on the target's surface; normal unit, from the target's axis toward the
// moving capsule's segment at t (their closest points).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// the closest points of the two axes: the normal from the target's toward the moving one, the point on
// the target's surface along it. Axes that meet: the normal perpendicular to both (to the moving axis
// alone when they are parallel), turned toward the moving capsule's centre. A zero direction is a static
// overlap query: t = 0 when touching, else std::nullopt.
// Invalid input: a NaN or infinite origin, direction, halfAxis, radius or target, a negative or NaN maxT, a
// negative radius or target.radius, sums that overflow, and a contact beyond the range of T give
// std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepCapsuleCapsule(const RayPath<T>& path,
                                                                        const Vec3<T>& halfAxis, T radius,
                                                                        const Capsule<T>& target) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius) || !isFinite(target.a) || !isFinite(target.b) ||
        !(target.radius >= T(0)) || !isFinite(target.radius + radius))
        return std::nullopt;
    if (halfAxis == Vec3<T>(0)) return sweepSphereCapsule(path, radius, target);
    const T reach = radius + target.radius;
    const T scale = maxAbsComponent(path.origin) + maxAbsComponent(halfAxis) + maxAbsComponent(target.a) +
                    maxAbsComponent(target.b) + reach;
    if (!isFinite(scale)) return std::nullopt;
    const T noise = 8 * unitRoundoff<T> * scale;
    const Vec3<T> axisDirection = lengthAndDirection(target.b - target.a).direction;
    const auto nearestPair = [&](const Vec3<T>& p0, const Vec3<T>& p1) -> std::optional<NearestPair<T>> {
        const std::optional<SegmentPair<T>> pair = closestPointsSegmentSegment(p0, p1, target.a, target.b);
        if (!pair) return std::nullopt;
        // Inside the axis, or at an end with the offset leaning into the span (the parameter rounded onto
        // the end): the offset is perpendicular to the axis (the end's normal cone's edge).
        const T along = glm::dot(pair->pointOnP - pair->pointOnQ, axisDirection);
        const bool across = (pair->t > T(0) && pair->t < T(1)) || (pair->t >= T(1) && along < T(0)) ||
                            (pair->t <= T(0) && along > T(0));
        return NearestPair<T>{pair->pointOnP, pair->pointOnQ, across ? axisDirection : Vec3<T>(0)};
    };
    const auto fallbackAt = [&](const NearestPair<T>& pair, const Vec3<T>& center) {
        return normalThroughCore(halfAxis, target.b - target.a, center - pair.onTarget);
    };
    {
        const std::optional<NearestPair<T>> pair =
            nearestPair(path.origin - halfAxis, path.origin + halfAxis);
        if (!pair) return std::nullopt;
        if (detail::lengthSquared(pair->onSegment - pair->onTarget) <= reach * reach)
            return hitFromPair(T(0), *pair, target.radius, noise, fallbackAt(*pair, path.origin), true);
    }
    if (path.direction == Vec3<T>(0)) return std::nullopt;
    Earliest<T> earliest;
    const std::pair<Vec3<T>, Vec3<T>> axis{target.a, target.b};
    offerVerticesAndEdges(
        path, halfAxis, reach, 16 * unitRoundoff<T> * scale, 2,
        [&](std::size_t v) { return v == 0 ? target.a : target.b; }, 1, [&](std::size_t) { return axis; },
        earliest);
    return sweepResult(earliest, path, halfAxis, target.radius, noise, nearestPair, fallbackAt);
}

// The first contact of the moving capsule with a plane as the solid half-space behind it,
// dot(normal, x) <= offset, as sweepSpherePlane: the sphere sweep of the capsule's end lowest along the
// normal (its centre where the axis lies along the plane).
// Range: t in [0, path.maxT]; point on the plane, below that end (or centre) at t; normal the plane normal.
// Miss (the capsule clear of the half-space and not reaching it by maxT, or moving along or away from it):
// std::nullopt.
// Start in contact: a capsule within its radius of the plane, or reaching behind it, overlaps it whichever
// way it moves: t = 0, startsInContact, the lowest end's (or the centre's) projection on the plane and the
// plane normal. A zero direction is a static overlap query: t = 0 when touching, else std::nullopt.
// Invalid input: a NaN or infinite origin, direction, halfAxis or radius, a negative or NaN maxT, a negative
// radius, a plane that is not valid (as sweepSpherePlane), and results beyond the range of T give
// std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepCapsulePlane(const RayPath<T>& path,
                                                                      const Vec3<T>& halfAxis, T radius,
                                                                      const Plane<T>& plane) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius)) return std::nullopt;
    const T rise = glm::dot(plane.normal, halfAxis);
    const Vec3<T> lowest = rise > T(0) ? -halfAxis : rise < T(0) ? halfAxis : Vec3<T>(0);
    return sweepSpherePlane(RayPath<T>{path.origin + lowest, path.direction, path.maxT}, radius, plane);
}

// The first contact of the moving capsule with a triangle (a two-sided surface, not a solid): the face
// (the capsule's end lowest toward it meeting the triangle, by the watertight ray test), the
// parallelograms of the triangle's edges and the capsule's axis, and the capsules of the edges moved by
// -+halfAxis and of the vertices swept over the axis.
// Range: t in [0, path.maxT]; point on the triangle, nearest the capsule's segment at t; normal unit, from
// it toward the segment (the face normal on the capsule's side for a face contact).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact, and
// the static contact capsuleTriangleContact's (reach 0): its normal and deepest point. A degenerate triangle
// (triangle.hpp: a segment, a point or a needle) has no face: it is met at its edges and vertices, and a
// capsule touching it at the start gets the closest points of its axis and the edges (the normal
// perpendicular to the axis and the edge where the axis passes through it). A zero direction is a static
// overlap query: t = 0 when touching, else std::nullopt.
// Invalid input: a NaN or infinite origin, direction, halfAxis, radius or vertex, a negative or NaN maxT, a
// negative radius, and a contact beyond the range of T give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepCapsuleTriangle(const RayPath<T>& path,
                                                                         const Vec3<T>& halfAxis, T radius,
                                                                         const Triangle<T>& target) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius) || !isFinite(target.a) || !isFinite(target.b) ||
        !isFinite(target.c))
        return std::nullopt;
    if (halfAxis == Vec3<T>(0)) return sweepSphereTriangle(path, radius, target);
    const T scale =
        maxAbsComponent(path.origin) + maxAbsComponent(halfAxis) +
        std::max({maxAbsComponent(target.a), maxAbsComponent(target.b), maxAbsComponent(target.c)}) + radius;
    if (!isFinite(scale)) return std::nullopt;
    const T noise = 8 * unitRoundoff<T> * scale;
    const auto nearestPair = [&](const Vec3<T>& p0, const Vec3<T>& p1) -> std::optional<NearestPair<T>> {
        const std::optional<SegmentTrianglePair<T>> pair = closestPointsSegmentTriangle(p0, p1, target);
        if (!pair) return std::nullopt;
        return NearestPair<T>{pair->pointOnSegment, pair->pointOnTriangle};
    };
    const TriangleFrame<T> frame = faceFrame(target);
    const auto fallbackAt = [&](const NearestPair<T>& pair, const Vec3<T>& center) {
        if (frame.hasFace()) {
            const Vec3<T> faceNormal = unitVector(frame.normal);
            return glm::dot(faceNormal, center - pair.onTarget) < T(0) ? -faceNormal : faceNormal;
        }
        // The edge nearest the pair's point carries it.
        Vec3<T> direction = target.b - target.a;
        T best = std::numeric_limits<T>::infinity();
        for (int edge = 0; edge < 3; ++edge) {
            const Vec3<T>& from = detail::vertexOf(target, edge);
            const Vec3<T>& to = detail::vertexOf(target, detail::nextVertex(edge));
            if (const auto onEdge = closestPointOnSegment(pair.onTarget, from, to)) {
                const T squared = detail::lengthSquared(onEdge->point - pair.onTarget);
                if (squared < best && to != from) best = squared, direction = to - from;
            }
        }
        return normalThroughCore(halfAxis, direction, center - pair.onTarget);
    };
    const Capsule<T> atStart{path.origin - halfAxis, path.origin + halfAxis, radius};
    const Aabb<T> bounds = boundsOf(target);
    if (!apartAlongAxes(atStart.a, atStart.b, radius + 16 * unitRoundoff<T> * scale, bounds.min,
                        bounds.max)) {
        if (const auto contact = capsuleTriangleContact(atStart, target, T(0)))
            return hitAtStart(contact->contact.points[0].onB, contact->contact.normal);
        const std::optional<NearestPair<T>> pair = nearestPair(atStart.a, atStart.b);
        if (!pair) return std::nullopt;
        if (detail::lengthSquared(pair->onSegment - pair->onTarget) <= radius * radius)
            return hitFromPair(T(0), *pair, T(0), noise, fallbackAt(*pair, path.origin), true);
    }
    if (path.direction == Vec3<T>(0)) return std::nullopt;
    if (!pathReachesBox(path, bounds.min - glm::abs(halfAxis), bounds.max + glm::abs(halfAxis),
                        radius + 16 * unitRoundoff<T> * scale))
        return std::nullopt;
    Earliest<T> earliest;
    if (frame.hasFace()) {
        // The face on the side the path comes toward, met by the capsule's end lowest toward it: the ray
        // from that end a radius below it, against the triangle (both ends where the axis lies along it).
        const Vec3<T> frontNormal = unitVector(frame.normal);
        const T speed = glm::dot(frontNormal, path.direction);
        if (speed != T(0)) {
            const Vec3<T> normal = speed < T(0) ? frontNormal : -frontNormal;
            const T rise = glm::dot(normal, halfAxis);
            for (const T sign : {T(1), T(-1)}) {
                if (sign * rise < T(0)) continue;
                const Vec3<T> end = path.origin - sign * halfAxis;
                const std::optional<TriangleHit<T>> face = intersectRayTriangle(
                    RayPath<T>{end - radius * normal, path.direction, path.maxT}, target);
                if (face) {
                    earliest.offer(face->t, normal);
                } else if (glm::dot(normal, end - target.a) <= radius + noise &&
                           intersectRayTriangle(
                               RayPath<T>{end + radius * normal, -normal, std::numeric_limits<T>::infinity()},
                               target)) {
                    // The end over the face within the height's rounding of touching it (the static tests
                    // found it clear by a rounding), its lowest point a rounding past the plane: the ray from
                    // there misses the face it moves into, which it touches at the start.
                    earliest.offer(T(0), normal);
                }
            }
        }
    }
    const Vec3<T> vertices[3] = {target.a, target.b, target.c};
    offerVerticesAndEdges(
        path, halfAxis, radius, 16 * unitRoundoff<T> * scale, 3, [&](std::size_t v) { return vertices[v]; },
        3, [&](std::size_t e) { return std::pair(vertices[e], vertices[e == 2 ? 0 : e + 1]); }, earliest);
    return sweepResult(earliest, path, halfAxis, T(0), noise, nearestPair, fallbackAt);
}

// The first contact of the moving capsule with a solid oriented box (box.rotation's columns its axes,
// orthonormal, not checked), in the box's frame: its faces moved by the capsule's axis, the parallelograms
// of its 12 edges and the axis, the capsules of its edges moved by -+halfAxis and of its corners swept over
// the axis.
// Range: t in [0, path.maxT]; point on the box's surface, nearest the capsule's segment at t; normal unit,
// from it toward the segment (a face's normal, or from an edge or corner).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact, and
// the static contact capsuleObbContact's (reach 0): its normal (the least penetration over the box's faces
// and their cross products with the axis) and deepest point. A zero direction is a static overlap query:
// t = 0 when touching, else std::nullopt. Zero half extents (a flat, linear or point box) are valid.
// Invalid input: a NaN or infinite origin, direction, halfAxis, radius or box, a negative or NaN maxT, a
// negative radius or half extent, and a contact beyond the range of T give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepCapsuleObb(const RayPath<T>& path,
                                                                    const Vec3<T>& halfAxis, T radius,
                                                                    const Obb<T>& target) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius) || !detail::isValidObb(target)) return std::nullopt;
    if (halfAxis == Vec3<T>(0)) return sweepSphereObb(path, radius, target);
    const Vec3<T>& half = target.halfExtents;
    const T scale = maxAbsComponent(path.origin) + maxAbsComponent(halfAxis) +
                    maxAbsComponent(target.center) + maxAbsComponent(half) + radius;
    if (!isFinite(scale)) return std::nullopt;
    const T noise = 8 * unitRoundoff<T> * scale;
    const auto nearestPair = [&](const Vec3<T>& p0, const Vec3<T>& p1) -> std::optional<NearestPair<T>> {
        const std::optional<SegmentObbPair<T>> pair = closestPointsSegmentObb(p0, p1, target);
        if (!pair) return std::nullopt;
        return NearestPair<T>{pair->pointOnSegment, pair->pointOnBox};
    };
    const Mat3<T> toLocal = glm::transpose(target.rotation);
    const Capsule<T> atStart{path.origin - halfAxis, path.origin + halfAxis, radius};
    // The normal where the closest points coincide (rounding at a touch): the box's face normal nearest
    // the offset from its centre.
    const auto fallbackAt = [&](const NearestPair<T>&, const Vec3<T>& center) {
        const Vec3<T> local = toLocal * (center - target.center);
        const Vec3<T> slack = glm::abs(local) - half;
        int axis = 0;
        for (int i = 1; i < 3; ++i)
            if (slack[i] > slack[axis]) axis = i;
        return (local[axis] < T(0) ? T(-1) : T(1)) * target.rotation[axis];
    };
    if (!apartAlongAxes(toLocal * (atStart.a - target.center), toLocal * (atStart.b - target.center),
                        radius + 16 * unitRoundoff<T> * scale, -half, half)) {
        if (const auto contact = capsuleObbContact(atStart, target, T(0)))
            return hitAtStart(contact->points[0].onB, contact->normal);
        const std::optional<NearestPair<T>> pair = nearestPair(atStart.a, atStart.b);
        if (!pair) return std::nullopt;
        if (detail::lengthSquared(pair->onSegment - pair->onTarget) <= radius * radius)
            return hitFromPair(T(0), *pair, T(0), noise, fallbackAt(*pair, path.origin), true);
    }
    if (path.direction == Vec3<T>(0)) return std::nullopt;
    // In the box's frame: the box is [-half, half].
    const RayPath<T> local{toLocal * (path.origin - target.center), toLocal * path.direction, path.maxT};
    const Vec3<T> localAxis = toLocal * halfAxis;
    const T tolerance = 16 * unitRoundoff<T> * scale;
    if (!pathReachesBox(local, -half - glm::abs(localAxis), half + glm::abs(localAxis), radius + tolerance))
        return std::nullopt;
    Earliest<T> earliest;
    for (int axis = 0; axis < 3; ++axis) {
        for (const T side : {T(1), T(-1)}) {
            Vec3<T> normal(T(0));
            normal[axis] = side;
            offerFace(
                local, localAxis, radius, normal, half[axis], tolerance,
                [&](const Vec3<T>& q) {
                    for (int other = 0; other < 3; ++other)
                        if (other != axis && !(std::abs(q[other]) <= half[other] + tolerance)) return false;
                    return true;
                },
                earliest);
        }
    }
    const auto corner = [&](std::size_t v) {
        return Vec3<T>(v & 1 ? half.x : -half.x, v & 2 ? half.y : -half.y, v & 4 ? half.z : -half.z);
    };
    // Edge e: along axis e / 4, from the corner with the other two axes' signs of e % 4.
    const auto edge = [&](std::size_t e) {
        const int axis = int(e / 4), u = (axis + 1) % 3, v = (axis + 2) % 3;
        Vec3<T> from;
        from[axis] = -half[axis];
        from[u] = e & 1 ? half[u] : -half[u];
        from[v] = e & 2 ? half[v] : -half[v];
        Vec3<T> to = from;
        to[axis] = half[axis];
        return std::pair(from, to);
    };
    offerVerticesAndEdges(local, localAxis, radius, tolerance, 8, corner, 12, edge, earliest);
    if (earliest.t) earliest.normal = target.rotation * earliest.normal;
    return sweepResult(earliest, path, halfAxis, T(0), noise, nearestPair, fallbackAt);
}

// The first contact of the moving capsule with a solid convex polyhedron (ConvexPolyhedron of
// sphere_sweep.hpp: planes, vertices, edges): its faces moved by the capsule's axis, the parallelograms of
// its edges and the axis, the capsules of its edges moved by -+halfAxis and of its vertices swept over the
// axis.
// Range: t in [0, path.maxT]; point on the polyhedron's surface (within 16 rounding units of the scale:
// the largest of the start's, the axis', the radius' and the polyhedron's coordinates and offsets),
// nearest the capsule's segment at t (from the segment's ends' nearest points and the edges' closest
// points to the segment); normal unit, from it toward the segment.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact. A
// segment apart from the polyhedron: its closest points and the normal between them. A segment meeting
// the polyhedron: pushed out along the face normal of least penetration (the faces only, not the cross
// products of edges and axis: a separating direction, not always the shortest), the point the end of the
// segment deepest along it projected onto that face (onto the polyhedron's nearest surface point where
// that projection falls outside). A zero direction is a static overlap query.
// Invalid input: a NaN or infinite origin, direction, halfAxis, radius, plane or vertex, a negative or NaN
// maxT, a negative radius, an edge index out of range, no planes, and a contact beyond the range of T give
// std::nullopt. The planes must bound the solid whose corners and edges are given (not checked).
template <class T>
std::optional<SphereSweepHit<T>> sweepCapsuleConvexPolyhedron(const RayPath<T>& path, const Vec3<T>& halfAxis,
                                                              T radius, const ConvexPolyhedron<T>& solid) {
    using namespace detail::capsule_sweep;
    if (!isValidCapsuleSweep(path, halfAxis, radius) || solid.planes.empty()) return std::nullopt;
    if (halfAxis == Vec3<T>(0)) return sweepSphereConvexPolyhedron(path, radius, solid);
    // The size of the case, for the tolerances: not the speed, which a hit's point does not carry (the
    // distance travelled to it is within the start's and the polyhedron's sizes).
    T scale = maxAbsComponent(path.origin) + maxAbsComponent(halfAxis) + radius;
    for (const Plane<T>& plane : solid.planes) {
        if (!isFinite(plane.normal) || !std::isfinite(plane.offset)) return std::nullopt;
        scale = std::max(scale, std::abs(plane.offset));
    }
    Vec3<T> low(std::numeric_limits<T>::infinity()), high(-std::numeric_limits<T>::infinity());
    for (const Vec3<T>& vertex : solid.vertices) {
        if (!isFinite(vertex)) return std::nullopt;
        scale = std::max(scale, maxAbsComponent(vertex));
        low = glm::min(low, vertex);
        high = glm::max(high, vertex);
    }
    for (const auto& edge : solid.edges)
        if (edge[0] >= solid.vertices.size() || edge[1] >= solid.vertices.size()) return std::nullopt;
    if (!std::isfinite(scale)) return std::nullopt;
    const T tolerance = 16 * unitRoundoff<T> * scale;
    const T noise = 8 * unitRoundoff<T> * scale;
    const auto nearestPair = [&](const Vec3<T>& p0, const Vec3<T>& p1) -> std::optional<NearestPair<T>> {
        const auto pair = closestPointsSegmentPolyhedron(p0, p1, solid, tolerance);
        if (!pair) return std::nullopt;
        return pair->pair;
    };
    // Where the closest points coincide: the face normal of least penetration of the segment.
    struct Push {
        Vec3<T> point;
        Vec3<T> normal;
    };
    const auto leastPenetration = [&](const Vec3<T>& center) {
        std::size_t best = 0;
        T bestDepth = std::numeric_limits<T>::infinity();
        for (std::size_t f = 0; f < solid.planes.size(); ++f) {
            const Plane<T>& plane = solid.planes[f];
            const T depth =
                plane.offset + std::abs(glm::dot(plane.normal, halfAxis)) - glm::dot(plane.normal, center);
            if (depth < bestDepth) bestDepth = depth, best = f;
        }
        const Plane<T>& plane = solid.planes[best];
        const T rise = glm::dot(plane.normal, halfAxis);
        const Vec3<T> deepest = center + (rise > T(0) ? -halfAxis : rise < T(0) ? halfAxis : Vec3<T>(0));
        Vec3<T> point = deepest - (glm::dot(plane.normal, deepest) - plane.offset) * plane.normal;
        for (const Plane<T>& other : solid.planes)
            if (glm::dot(other.normal, point) - other.offset > tolerance) {
                if (const auto nearest = detail::sphere_sweep::nearestOnPolyhedron(point, solid, tolerance))
                    point = nearest->point;
                break;
            }
        return Push{point, plane.normal};
    };
    const auto fallbackAt = [&](const NearestPair<T>&, const Vec3<T>& center) {
        return leastPenetration(center).normal;
    };
    if (solid.vertices.empty() ||
        !apartAlongAxes(path.origin - halfAxis, path.origin + halfAxis, radius + tolerance, low, high)) {
        const auto pair =
            closestPointsSegmentPolyhedron(path.origin - halfAxis, path.origin + halfAxis, solid, tolerance);
        if (!pair) return std::nullopt;
        if (pair->inside) {
            const Push push = leastPenetration(path.origin);
            return hitAtStart(push.point, push.normal);
        }
        if (detail::lengthSquared(pair->pair.onSegment - pair->pair.onTarget) <= radius * radius)
            return hitFromPair(T(0), pair->pair, T(0), noise, fallbackAt(pair->pair, path.origin), true);
    }
    if (path.direction == Vec3<T>(0)) return std::nullopt;
    if (!solid.vertices.empty() &&
        !pathReachesBox(path, low - glm::abs(halfAxis), high + glm::abs(halfAxis), radius + tolerance))
        return std::nullopt;
    Earliest<T> earliest;
    for (std::size_t f = 0; f < solid.planes.size(); ++f) {
        const Plane<T>& plane = solid.planes[f];
        offerFace(
            path, halfAxis, radius, plane.normal, plane.offset, tolerance,
            [&](const Vec3<T>& q) {
                for (std::size_t j = 0; j < solid.planes.size(); ++j)
                    if (j != f &&
                        !(glm::dot(solid.planes[j].normal, q) - solid.planes[j].offset <= tolerance))
                        return false;
                return true;
            },
            earliest);
    }
    offerVerticesAndEdges(
        path, halfAxis, radius, tolerance, solid.vertices.size(),
        [&](std::size_t v) { return solid.vertices[v]; }, solid.edges.size(),
        [&](std::size_t e) {
            return std::pair(solid.vertices[solid.edges[e][0]], solid.vertices[solid.edges[e][1]]);
        },
        earliest);
    return sweepResult(earliest, path, halfAxis, T(0), noise, nearestPair, fallbackAt);
}

}  // namespace analytic
