// SPDX-License-Identifier: Zlib
// Tests against a plane: ray, point, sphere, oriented ellipsoid, triangle, axis-aligned box and oriented
// box (the moving sphere is in sphere_sweep.hpp). Each function states its contract; none outputs a NaN.
//
// Shared conventions:
// - The signed distance of p is dot(normal, p) - offset, positive in front of the plane.
// - "On the plane" means |distance| <= relativeTolerance * (sum_i |normal_i p_i| + |offset|). That sum
//   bounds the rounding error of the distance, so the test means the same at every scale and every
//   distance from the origin; never exact 0, never an absolute epsilon. A vertex is classified by its own
//   coordinates only, so a vertex shared by two triangles gets one answer.
// - For contacts the plane bounds a solid half-space behind it, as Bullet's btStaticPlaneShape does: depth
//   is how far a shape reaches behind the plane, and the contact normal is the plane normal. Whether the
//   plane cuts or touches the solid (two-sided) is span.side() == SolidPlaneSide::Crossing.
// - A valid plane has a normal whose squared length is within unitNormalTolerance of 1 and a finite
//   offset; a valid relativeTolerance is finite and >= 0 (0: only an exactly zero distance is on the plane).
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>

#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/support.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

// Several times the rounding error of a signed distance (4 units of its scale), so that points which
// were constructed on the plane in T are classified as on it.
template <class T> constexpr T defaultPlaneTolerance = T(32) * unitRoundoff<T>;

// How far |normal|^2 may be from 1: normalising in T leaves a few units, converting from double to float one.
template <class T> constexpr T unitNormalTolerance = T(256) * unitRoundoff<T>;

// The side of a plane a point is on: On within the tolerance (the file's header), else Back or Front.
enum class PlaneSide { Back = -1, On = 0, Front = 1 };

// classifyPointPlane's answer: the point's signed distance and its side.
template <class T> struct PointPlaneClassification {
    T signedDistance;  // dot(normal, point) - offset
    PlaneSide side;    // On within the tolerance
};

// Parallel: over the whole ray the distance changes by no more than the tolerance of the numbers it is
// computed from: |n . d| <= relativeTolerance * (sum_i |n_i d_i| + (|n|.|origin| + |offset|) / maxT), which
// for an unbounded ray is the direction alone, and holds for any ray of length 0; the origin is off the
// plane. InPlane: parallel, with the origin on the plane. Neither gives a point.
enum class RayPlaneOutcome { Hit, Miss, Parallel, InPlane };

// intersectRayPlane's answer.
template <class T> struct RayPlaneIntersection {
    RayPlaneOutcome outcome;  // Hit, Miss, Parallel or InPlane
    // For Hit (zero otherwise): t in [0, maxT]; the normal is the plane's, turned against the direction (so
    // it faces the side the ray comes from; it equals plane.normal when the ray meets the front).
    SurfaceHit<T> hit;
};

// Crossing: the plane cuts or touches the solid.
enum class SolidPlaneSide { Front, Crossing, Back };

// The signed distances that the points of a convex solid take: centerDistance -+ projectedRadius.
template <class T> struct PlaneSpan {
    T centerDistance;   // the signed distance of the solid's centre
    T projectedRadius;  // the solid's half extent along the normal, >= 0
    // Distances within this of zero count as on the plane: relative tolerance times the case's scale.
    T tolerance;

    // The smallest signed distance a point of the solid takes: centerDistance - projectedRadius.
    T nearestDistance() const { return centerDistance - projectedRadius; }
    // The largest signed distance a point of the solid takes: centerDistance + projectedRadius.
    T farthestDistance() const { return centerDistance + projectedRadius; }
    // How far the solid reaches into the half-space behind the plane; negative while it is clear of it.
    T depth() const { return projectedRadius - centerDistance; }
    // Front when the nearest distance is above the tolerance, Back when the farthest is below minus the
    // tolerance, else Crossing.
    SolidPlaneSide side() const {
        if (nearestDistance() > tolerance) return SolidPlaneSide::Front;
        if (farthestDistance() < -tolerance) return SolidPlaneSide::Back;
        return SolidPlaneSide::Crossing;
    }
    // Touching or penetrating the half-space, or closer to it than margin.
    bool overlapsHalfSpace(T margin = T(0)) const { return nearestDistance() <= margin + tolerance; }
};

// What Bullet's manifold stores for one contact: the point on the shape, the point on the plane below or
// above it, and the penetration depth (negative for a point in front of the plane).
template <class T> struct PlaneContactPoint {
    Vec3<T> onShape;  // the point of the shape
    Vec3<T> onPlane;  // onShape projected on the plane
    T depth;          // negative in front of the plane
};

// Sphere or ellipsoid against the half-space: deepest is the shape's support point in -normal (its point
// deepest behind the plane, or nearest to it when separated), given whether or not they overlap.
template <class T> struct SolidPlaneContact {
    PlaneSpan<T> span;             // the shape's signed distances
    PlaneContactPoint<T> deepest;  // its support point in -normal
    Vec3<T> normal;                // the plane's
};

// classifyAabbPlane's answer: the box's span and its corners nearest to and farthest from the plane's
// front (the least and the greatest signed distance).
template <class T> struct AabbPlaneClassification {
    PlaneSpan<T> span;       // nearestDistance() and farthestDistance() are those of the two vertices below
    Vec3<T> nearestVertex;   // the corner of least signed distance
    Vec3<T> farthestVertex;  // the corner of greatest signed distance
};

// Up to four box corners whose distance is at most the contact margin (plus the on-plane tolerance),
// deepest first. When more than four are that close, the four deepest: for a box whose face is parallel
// to the plane these are that face's corners. Points past pointCount are zero.
template <class T> struct BoxPlaneContact {
    PlaneSpan<T> span;                           // the box's signed distances
    Vec3<T> normal;                              // the plane's
    int pointCount;                              // 0 to 4
    std::array<PlaneContactPoint<T>, 4> points;  // deepest first
};

// Separated: all vertices strictly on one side. VertexTouch: one vertex on the plane, the others on one
// side (segment = that vertex twice). EdgeInPlane: two vertices on the plane (segment = that edge).
// Crossing: vertices on both sides (segment = the cut, from vertices on the plane or edges that cross it).
// Coplanar: all three vertices on the plane (no segment; the triangle itself is the intersection).
enum class TrianglePlaneCut { Separated, VertexTouch, EdgeInPlane, Crossing, Coplanar };

// intersectTrianglePlane's answer.
template <class T> struct TrianglePlaneIntersection {
    TrianglePlaneCut kind;           // how the plane meets the triangle
    Vec3<T> vertexDistances;         // signed distances of a, b, c
    std::array<Vec3<T>, 2> segment;  // zero when Separated or Coplanar

    // Whether the plane meets the triangle: any kind but Separated.
    bool overlaps() const { return kind != TrianglePlaneCut::Separated; }
};

// This family's helpers, apart from detail's others: headers of several families meet in one translation
// unit, and some helpers' names are the same.
namespace detail::plane_tests {

// The length test also rejects a normal with a NaN or an infinity.
template <class T> inline bool isValidPlane(const Plane<T>& plane) {
    return std::abs(glm::dot(plane.normal, plane.normal) - T(1)) <= unitNormalTolerance<T> &&
           detail::allFinite(plane.offset);
}

template <class T> inline bool isValidSize(T size) { return detail::allFinite(size) && size >= T(0); }

template <class T> inline bool isValidSize(const Vec3<T>& sizes) {
    return detail::allFinite(sizes) && std::min({sizes.x, sizes.y, sizes.z}) >= T(0);
}

// glm::abs compiles to a branch per component, std::abs to a mask.
template <class T> inline Vec3<T> absolute(const Vec3<T>& v) {
    return {std::abs(v.x), std::abs(v.y), std::abs(v.z)};
}

template <class T> inline T signedDistance(const Vec3<T>& point, const Plane<T>& plane) {
    return glm::dot(plane.normal, point) - plane.offset;
}

// relativeTolerance times the magnitudes that signedDistance adds up (|n|.|p| + |offset|; its rounding
// error is a few units of their sum). Each is multiplied before they are added: their sum overflows for
// a point and a plane near the largest value, and an infinite allowance would put every point on the
// plane.
template <class T>
inline T distanceTolerance(const Vec3<T>& point, const Plane<T>& plane, T relativeTolerance) {
    return glm::dot(absolute(plane.normal), relativeTolerance * absolute(point)) +
           relativeTolerance * std::abs(plane.offset);
}

// Without branches: the side of a random point is unpredictable.
template <class T> inline PlaneSide sideOf(T distance, T tolerance) {
    return PlaneSide(int(distance > tolerance) - int(distance < -tolerance));
}

// size bounds the rounding error of projectedRadius, in the units distanceTolerance uses.
template <class T> inline PlaneSpan<T> makeSpan(const Vec3<T>& center, T projectedRadius, T size,
                                                const Plane<T>& plane, T relativeTolerance) {
    return {signedDistance(center, plane), projectedRadius,
            distanceTolerance(center, plane, relativeTolerance) + relativeTolerance * size};
}

template <class T> inline bool isFinite(const PlaneSpan<T>& span) {
    return detail::allFinite(span.centerDistance, span.projectedRadius, span.tolerance);
}

// The point on the shape is finite when these are: it is the point on the plane moved back by depth
// along the unit normal.
template <class T> inline bool isFinite(const PlaneContactPoint<T>& point) {
    return detail::allFinite(point.onPlane, point.depth);
}

template <class T>
inline PlaneContactPoint<T> contactPoint(const Vec3<T>& onShape, T depth, const Vec3<T>& normal) {
    return {onShape, onShape + depth * normal, depth};
}

// Built in place, as intersectRayPlane explains.
template <class T> inline std::optional<SolidPlaneContact<T>> solidContact(const PlaneSpan<T>& span,
                                                                           const Vec3<T>& deepestPoint,
                                                                           const Vec3<T>& normal) {
    std::optional<SolidPlaneContact<T>> result;
    SolidPlaneContact<T>& contact = result.emplace();
    contact.span = span;
    contact.deepest = contactPoint(deepestPoint, span.depth(), normal);
    contact.normal = normal;
    if (!isFinite(span) || !isFinite(contact.deepest)) result.reset();
    return result;
}

}  // namespace detail::plane_tests

// The point's signed distance to the plane and its side: On within relativeTolerance of the distance's
// scale (as the file's header says), else Front or Back.
// Range: any finite signed distance.
// Invalid input: a plane that is not valid (a normal not of unit length, a NaN or infinity), a NaN or
// infinite point, a negative, NaN or infinite relativeTolerance, or a distance that overflows T give
// std::nullopt.
template <class T> inline std::optional<PointPlaneClassification<T>> classifyPointPlane(
    const Vec3<T>& point, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    if (!isValidPlane(plane) || !detail::allFinite(point) || !isValidSize(relativeTolerance))
        return std::nullopt;
    const T distance = signedDistance(point, plane);
    if (!detail::allFinite(distance)) return std::nullopt;
    return PointPlaneClassification<T>{distance,
                                       sideOf(distance, distanceTolerance(point, plane, relativeTolerance))};
}

// Where the ray (a segment when maxT = 1) meets the plane, two-sided.
// Direction: need not be unit; t is in multiples of the direction (point = origin + t * direction).
// Range: a Hit has t in [0, maxT] (maxT may be +infinity), the point, and the plane's normal turned
// against the direction (plane.normal when the ray meets the front).
// Miss: the outcome Miss (not std::nullopt; hit zero): the plane is behind the origin or beyond maxT, or
// the crossing's point is beyond the range of T. A ray parallel to the plane (over its whole length the
// distance changes by no more than the tolerance) gets Parallel, or InPlane when its origin is on the
// plane: no point.
// Start on the plane: an origin on the plane (within the tolerance) is a hit at t = 0 and an end (origin +
// maxT direction) on it a hit at maxT, whichever way the ray runs, so chained segments through a point on
// the plane never miss it.
// Invalid input: a NaN or infinite origin or direction, a zero direction, a negative or NaN maxT, a plane
// that is not valid, or a negative, NaN or infinite relativeTolerance give std::nullopt.
template <class T> inline std::optional<RayPlaneIntersection<T>> intersectRayPlane(
    const RayPath<T>& ray, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    // Every return returns result, so it is built in place: copying a result assembled elsewhere costs
    // more than the test (stores of mixed widths stall the reload).
    std::optional<RayPlaneIntersection<T>> result;
    if (!isValidRay(ray) || !isValidPlane(plane) || !isValidSize(relativeTolerance)) return result;
    RayPlaneIntersection<T>& intersection = result.emplace();
    const T originDistance = signedDistance(ray.origin, plane);
    const T originTolerance = distanceTolerance(ray.origin, plane, relativeTolerance);
    // A distance that overflows (a point and a plane 1e308 apart) is not within any tolerance of it,
    // though the scale overflows with it: inf <= inf would pass.
    const bool originOnPlane =
        detail::allFinite(originDistance) && std::abs(originDistance) <= originTolerance;
    const T approach = glm::dot(plane.normal, ray.direction);  // change of the distance per unit of t
    // Parallel when |approach| <= tol * sum_i |n_i d_i| + originTolerance / maxT, tested without the
    // division (the product overflows to inf, rightly not parallel, when maxT is huge).
    const T excess =
        std::abs(approach) - glm::dot(absolute(plane.normal), relativeTolerance * absolute(ray.direction));
    if (excess <= T(0) || excess * ray.maxT <= originTolerance) {
        intersection.outcome = originOnPlane ? RayPlaneOutcome::InPlane : RayPlaneOutcome::Parallel;
        return result;
    }
    intersection.outcome = RayPlaneOutcome::Miss;
    const auto hitAt = [&](T t) {
        const Vec3<T> point = ray.at(t);
        if (!detail::allFinite(point)) return;  // an unbounded ray can meet the plane beyond the range of T
        intersection.outcome = RayPlaneOutcome::Hit;
        intersection.hit = {t, point, approach < T(0) ? plane.normal : -plane.normal};
    };
    const T t = -originDistance / approach;
    if (originOnPlane) {
        hitAt(T(0));
    } else if (t >= T(0) && t <= ray.maxT && (originDistance > T(0)) != (approach > T(0))) {
        // (The signs decide that the ray runs toward the plane: a quotient that underflows to -0 for a
        // ray running away would pass for t = 0.)
        hitAt(t);
    } else if (detail::allFinite(ray.maxT)) {
        const Vec3<T> end = ray.at(ray.maxT);
        const T endDistance = signedDistance(end, plane);
        if (detail::allFinite(endDistance) &&
            std::abs(endDistance) <= distanceTolerance(end, plane, relativeTolerance))
            hitAt(ray.maxT);
    }
    return result;
}

// Where intersectRayPlane (with this tolerance) can report a hit, for culling rays by boxes.
// Range: for a plane whose normal is exactly plus or minus an axis, the slab around it on that axis
// (infinite on the others); all of space for any other plane. The slab holds every point within the
// tolerance of the plane (half width tolerance (|p| + |offset|) = 2 tolerance |offset| there) four times
// over. A segment reported crossing the plane reaches the slab up to the rounding of the segment's own
// coordinates: a caller culling with it must allow for that.
// Invalid input: what intersectRayPlane rejects (a plane that is not valid: a normal not of unit length,
// a NaN or an infinity; a negative, NaN or infinite relativeTolerance) gives the empty box min = +infinity,
// max = -infinity, which no segment meets, as intersectRayPlane reports no hit. Never NaN.
template <class T>
inline Aabb<T> boundsOfRayPlaneHits(const Plane<T>& plane,
                                    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    constexpr T infinity = std::numeric_limits<T>::infinity();
    Aabb<T> bounds{Vec3<T>(-infinity), Vec3<T>(infinity)};
    const Vec3<T>& normal = plane.normal;
    bool squareToAnAxis = false;
    for (int axis = 0; axis < 3; ++axis) {
        if (std::abs(normal[axis]) != T(1) || normal[(axis + 1) % 3] != T(0) ||
            normal[(axis + 2) % 3] != T(0))
            continue;
        const T at = plane.offset * normal[axis];  // the plane's coordinate on the axis
        const T halfWidth = 4 * (relativeTolerance * 2 * std::abs(at));
        bounds.min[axis] = at - halfWidth;
        bounds.max[axis] = at + halfWidth;
        squareToAnAxis = true;
    }
    // rayBoxOf asks for every plane a ray meets: a plane square to an axis has a normal of exactly unit
    // length, so only its offset (and the tolerance) need checking.
    const bool valid = isValidSize(relativeTolerance) &&
                       (squareToAnAxis ? detail::allFinite(plane.offset) : isValidPlane(plane));
    if (!valid) [[unlikely]]
        return {Vec3<T>(infinity), Vec3<T>(-infinity)};
    return bounds;
}

// The sphere against the solid half-space behind the plane: its centre's signed distance
// (span.centerDistance), overlap (span.side(), span.overlapsHalfSpace()), depth, and the contact: the
// sphere's deepest point (centre - radius normal), its projection on the plane, and the plane normal.
// Range: deepest.depth = radius - the centre's distance: positive when the sphere reaches behind the
// plane, negative while it is clear of it.
// No overlap: still a result (negative depth); span.side() and span.overlapsHalfSpace() tell.
// Touching gives depth 0 (side Crossing); a centre behind the plane gives a depth beyond the radius.
// Invalid input: a plane that is not valid, a NaN or infinite centre, a negative, NaN or infinite radius
// or relativeTolerance, and results that overflow T give std::nullopt. Radius 0 is valid.
template <class T> inline std::optional<SolidPlaneContact<T>> collideSpherePlane(
    const Sphere<T>& sphere, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    // A non-finite centre makes the span non-finite (a unit normal has a component of at least 1/sqrt(3)),
    // which solidContact rejects.
    if (!isValidPlane(plane) || !isValidSize(sphere.radius) || !isValidSize(relativeTolerance))
        return std::nullopt;
    return solidContact(makeSpan(sphere.center, sphere.radius, sphere.radius, plane, relativeTolerance),
                        sphere.center - sphere.radius * plane.normal, plane.normal);
}

// An oriented ellipsoid against the solid half-space behind the plane: projected radius
// sqrt(sum_i (radius_i (n . axis_i))^2), the centre's signed distance, overlap, depth, and the deepest
// point (the support point in -n), its projection on the plane, and the plane normal. The rotation's
// columns are the axes of the radii, orthonormal (not checked: another finite matrix gives finite,
// meaningless results).
// Range, no overlap and touching: as collideSpherePlane (depth = projected radius - centre distance).
// Zero radii (a flat, linear or point ellipsoid) are valid.
// Invalid input: a plane that is not valid, a NaN or infinite centre or rotation, a negative, NaN or
// infinite radius or relativeTolerance, and results that overflow T give std::nullopt.
template <class T> inline std::optional<SolidPlaneContact<T>> collideEllipsoidPlane(
    const Ellipsoid<T>& ellipsoid, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    const Mat3<T>& rotation = ellipsoid.rotation;
    if (!isValidPlane(plane) || !detail::allFinite(ellipsoid.center, rotation[0], rotation[1], rotation[2]) ||
        !isValidSize(ellipsoid.radii) || !isValidSize(relativeTolerance))
        return std::nullopt;
    // The highest point along the normal, in the ellipsoid's frame, mirrored through the centre is the
    // lowest.
    const EllipsoidSupport<T> highest = ellipsoidSupport(ellipsoid.radii, plane.normal * rotation);
    const T size = ellipsoid.radii.x + ellipsoid.radii.y + ellipsoid.radii.z;
    return solidContact(makeSpan(ellipsoid.center, highest.reach, size, plane, relativeTolerance),
                        ellipsoid.center - rotation * highest.point, plane.normal);
}

// How the plane meets the triangle (TrianglePlaneCut) and the segment it cuts. Vertices are classified as
// classifyPointPlane does; a cut through an edge is computed from the edge's front vertex, so the
// neighbouring triangle of a mesh gets the same point.
// Range: vertexDistances the signed distances of a, b and c; segment two points of the triangle on the
// plane (within the tolerance), as the kind says.
// No intersection: kind Separated (not std::nullopt), the segment zero.
// Touching (the other vertices on one side): one vertex on the plane, VertexTouch; two, EdgeInPlane; all
// three, Coplanar (no segment).
// A degenerate triangle (triangle.hpp: the sine of its smallest angle below 16 unit roundoffs, decided at
// any scale) gives std::nullopt: in a mesh its neighbours' cuts meet to within 16 unit roundoffs of its
// length.
// Invalid input: a plane that is not valid, a NaN or infinite vertex, a negative, NaN or infinite
// relativeTolerance, and distances or cut points that overflow T give std::nullopt.
template <class T> inline std::optional<TrianglePlaneIntersection<T>> intersectTrianglePlane(
    const Triangle<T>& triangle, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    std::optional<TrianglePlaneIntersection<T>> result;  // built in place, as intersectRayPlane explains
    if (!isValidPlane(plane) || !detail::allFinite(triangle.a, triangle.b, triangle.c) ||
        !isValidSize(relativeTolerance) || triangleFrame(triangle).degenerate)
        return result;
    // Pointers, not copies: copying the vertices into an array stalls on store forwarding.
    const std::array<const Vec3<T>*, 3> vertices{&triangle.a, &triangle.b, &triangle.c};
    TrianglePlaneIntersection<T>& cut = result.emplace();
    Vec3<T>& distances = cut.vertexDistances;
    std::array<PlaneSide, 3> sides;
    int onPlaneCount = 0;
    bool anyFront = false, anyBack = false;
    for (int i = 0; i < 3; ++i) {
        distances[i] = signedDistance(*vertices[i], plane);
        sides[i] = sideOf(distances[i], distanceTolerance(*vertices[i], plane, relativeTolerance));
        onPlaneCount += sides[i] == PlaneSide::On;
        anyFront |= sides[i] == PlaneSide::Front;
        anyBack |= sides[i] == PlaneSide::Back;
    }
    if (!detail::allFinite(distances)) {
        result.reset();
        return result;
    }
    if (onPlaneCount == 3) {
        cut.kind = TrianglePlaneCut::Coplanar;
        return result;
    }
    // Each vertex on the plane and each edge with its ends strictly on opposite sides gives one cut point:
    // at most two once the coplanar case is out.
    int pointCount = 0;
    for (int i = 0; i < 3; ++i) {
        const int j = (i + 1) % 3;
        if (sides[i] == PlaneSide::On) cut.segment[pointCount++] = *vertices[i];
        if (sides[i] != PlaneSide::On && sides[j] != PlaneSide::On && sides[i] != sides[j]) {
            const auto [front, back] = sides[i] == PlaneSide::Front ? std::pair{i, j} : std::pair{j, i};
            const T fraction = distances[front] / (distances[front] - distances[back]);
            cut.segment[pointCount++] = *vertices[front] + fraction * (*vertices[back] - *vertices[front]);
        }
    }
    if (anyFront && anyBack) {
        cut.kind = TrianglePlaneCut::Crossing;
    } else {
        constexpr std::array<TrianglePlaneCut, 3> byOnPlaneCount{
            TrianglePlaneCut::Separated, TrianglePlaneCut::VertexTouch, TrianglePlaneCut::EdgeInPlane};
        cut.kind = byOnPlaneCount[onPlaneCount];
        if (onPlaneCount == 1) cut.segment[1] = cut.segment[0];
    }
    // An edge whose difference overflows (vertices near the largest finite value) gives no point.
    if (!detail::allFinite(cut.segment[0], cut.segment[1])) result.reset();
    return result;
}

// The box's vertices nearest to and farthest from the back of the plane, and the span of distances
// between them (span.side() is the overlap; nearestDistance() the nearest vertex's signed distance).
// Range: span.centerDistance the centre's signed distance, projectedRadius = sum_i |n_i| halfExtent_i;
// nearestDistance() and farthestDistance() are those of the two vertices.
// No overlap: still a result; span.side() and span.overlapsHalfSpace() tell. Touching: side Crossing.
// A flat box (min == max on some axis) is valid.
// Invalid input: min > max on an axis, a NaN or infinite corner, a plane that is not valid, a negative,
// NaN or infinite relativeTolerance, and a span that overflows T give std::nullopt.
template <class T> inline std::optional<AabbPlaneClassification<T>> classifyAabbPlane(
    const Aabb<T>& box, const Plane<T>& plane,
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    std::optional<AabbPlaneClassification<T>> result;  // built in place, as intersectRayPlane explains
    // Halving first keeps the sum and the difference from overflowing.
    const Vec3<T> center = T(0.5) * box.min + T(0.5) * box.max;
    const Vec3<T> halfExtents = T(0.5) * box.max - T(0.5) * box.min;
    if (!isValidPlane(plane) || !detail::allFinite(box.min, box.max) || !isValidSize(halfExtents) ||
        !isValidSize(relativeTolerance))
        return result;
    const T projectedRadius = glm::dot(absolute(plane.normal), halfExtents);
    AabbPlaneClassification<T>& classification = result.emplace();
    classification.span = makeSpan(center, projectedRadius, projectedRadius, plane, relativeTolerance);
    for (int i = 0; i < 3; ++i) {
        const bool positive = plane.normal[i] >= T(0);
        classification.nearestVertex[i] = positive ? box.min[i] : box.max[i];
        classification.farthestVertex[i] = positive ? box.max[i] : box.min[i];
    }
    if (!isFinite(classification.span)) result.reset();
    return result;
}

// The oriented box against the solid half-space behind the plane: projected radius
// sum_i halfExtent_i |n . axis_i|, overlap, penetration depth (span.depth()), and the corners within
// contactMargin (>= 0, Bullet's contact breaking threshold) of the plane or behind it, in one pass: a box
// resting on a face gives its 4 corners, on an edge 2, on a corner 1; when more than four are that close,
// the four deepest (a face parallel to the plane: that face's corners). The rotation's columns are the
// box's axes, orthonormal (not checked).
// This form hands the contact points, deepest first, to takeContacts(std::span<const PlaneContactPoint<T>>)
// and returns the span: a contact writer takes the points where they are made, without the result's copies.
// Range: each point's onShape is its corner, onPlane the corner's projection on the plane, depth minus
// the corner's signed distance (>= -(contactMargin + span.tolerance)).
// No contact: a box farther than contactMargin (plus the tolerance) from the plane still returns the
// span, and takeContacts gets an empty span.
// Touching gives depth 0; a box behind the plane gives positive depths (a box wholly behind: its four
// deepest corners).
// Invalid input: a plane that is not valid, a NaN or infinite centre, rotation or half extent, a negative
// half extent, contactMargin or relativeTolerance (or a NaN or infinite one), and a corner or span
// beyond the range of T give std::nullopt, and takeContacts is not called.
template <class T, class TakeContacts> inline std::optional<PlaneSpan<T>> findObbPlaneContacts(
    const Obb<T>& box, const Plane<T>& plane, std::type_identity_t<T> contactMargin,
    TakeContacts&& takeContacts, std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    using namespace detail::plane_tests;
    if (!isValidPlane(plane) || !isValidSize(box.halfExtents) || !isValidSize(contactMargin) ||
        !isValidSize(relativeTolerance))
        return std::nullopt;
    const Mat3<T>& rotation = box.rotation;
    // What each half axis halfExtent_i * axis_i adds to the distance. A non-finite centre or axis makes
    // the span non-finite (a unit normal has a component of at least 1/sqrt(3)), so the span's check
    // covers them.
    const Vec3<T> reach = box.halfExtents * (plane.normal * rotation);
    const std::array<T, 3> absReach{std::abs(reach.x), std::abs(reach.y), std::abs(reach.z)};
    const T size = box.halfExtents.x + box.halfExtents.y + box.halfExtents.z;
    const PlaneSpan<T> span =
        makeSpan(box.center, absReach[0] + absReach[1] + absReach[2], size, plane, relativeTolerance);
    if (!isFinite(span)) return std::nullopt;

    // The deepest corner takes each half axis with the sign that lowers the distance; flipping axis i
    // raises the distance by 2 |reach_i|. With the axes sorted by |reach|, the four deepest corners flip
    // nothing, the smallest, the middle, then the largest alone or the two smaller together, whichever
    // raises less (the two smaller on a tie, which keeps a face parallel to the plane together).
    Vec3<T> deepestCorner = box.center;
    std::array<Vec3<T>, 3> flips;
    for (int i = 0; i < 3; ++i) {
        const Vec3<T> lowering = std::copysign(box.halfExtents[i], -reach[i]) * rotation[i];
        deepestCorner += lowering;
        flips[i] = T(-2) * lowering;
    }
    int small = 0, middle = 1, large = 2;
    if (absReach[small] > absReach[middle]) std::swap(small, middle);
    if (absReach[middle] > absReach[large]) std::swap(middle, large);
    if (absReach[small] > absReach[middle]) std::swap(small, middle);
    const bool largeAlone = absReach[large] < absReach[small] + absReach[middle];
    const std::array<Vec3<T>, 4> corners{
        deepestCorner, deepestCorner + flips[small], deepestCorner + flips[middle],
        largeAlone ? deepestCorner + flips[large] : deepestCorner + flips[small] + flips[middle]};
    const std::array<T, 4> raises{T(0), 2 * absReach[small], 2 * absReach[middle],
                                  2 * (largeAlone ? absReach[large] : absReach[small] + absReach[middle])};

    const T threshold = contactMargin + span.tolerance;
    std::array<PlaneContactPoint<T>, 4> points;
    int pointCount = 0;
    T zeroIfAllFinite = 0;
    // The raises grow, so the contacts come first.
    for (; pointCount < 4 && span.nearestDistance() + raises[pointCount] <= threshold; ++pointCount) {
        points[pointCount] =
            contactPoint(corners[pointCount], -(span.nearestDistance() + raises[pointCount]), plane.normal);
        zeroIfAllFinite += detail::zeroIfFinite(points[pointCount].onPlane);
    }
    // A corner beyond the range of T makes its point on the plane non-finite too.
    if (zeroIfAllFinite != T(0)) return std::nullopt;
    takeContacts(std::span<const PlaneContactPoint<T>>(points.data(), std::size_t(pointCount)));
    return span;
}

// findObbPlaneContacts with its contact points gathered in one result: the span, the plane normal, and
// pointCount points, deepest first (those past pointCount zero). Range, no contact, touching and invalid
// input as findObbPlaneContacts: std::nullopt where it returns std::nullopt.
template <class T> inline std::optional<BoxPlaneContact<T>> collideObbPlane(
    const Obb<T>& box, const Plane<T>& plane, std::type_identity_t<T> contactMargin = T(0),
    std::type_identity_t<T> relativeTolerance = defaultPlaneTolerance<T>) {
    BoxPlaneContact<T> contact{};  // points past pointCount stay zero
    const auto span = findObbPlaneContacts(
        box, plane, contactMargin,
        [&](std::span<const PlaneContactPoint<T>> points) {
            contact.pointCount = int(points.size());
            std::copy(points.begin(), points.end(), contact.points.begin());
        },
        relativeTolerance);
    if (!span) return std::nullopt;
    contact.span = *span;
    contact.normal = plane.normal;
    return contact;
}

}  // namespace analytic
