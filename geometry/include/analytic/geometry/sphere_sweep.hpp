// SPDX-License-Identifier: Zlib
// Swept (moving) sphere against static targets: the first time of impact, exactly: the moving sphere
// against a plane, generalised to spheres, capsules, boxes and triangles. Each sweep is the ray test of
// the centre's path against the target grown by the sphere's radius (their Minkowski sum): a sphere
// grows into a sphere, a capsule into a capsule, a box into a rounded box, a triangle into a rounded
// slab. Nothing is padded along the velocity: the result is exact up to rounding. A sphere already in
// contact at the start gets the static contact of closest_point.hpp or plane_tests.hpp. Cylinders, cones
// and ellipsoids grow into solids bounded by tori and offset surfaces: their sweeps find the first root
// of the centre's (convex) distance to the solid less the radius instead, by Newton's method on the
// solid's exact nearest point. Each function states its contract; none outputs a NaN.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

// The first contact of a moving sphere with a target: the sweeps' answer.
template <class T> struct SphereSweepHit {
    T t;                   // time of impact in [0, path.maxT], in multiples of path.direction
    Vec3<T> point;         // the contact point, on the target's surface
    Vec3<T> normal;        // unit, from the target toward the sphere's centre
    bool startsInContact;  // touching or overlapping at t = 0 (then t == 0)
};

// This family's helpers, apart from detail's others: headers of several families meet in one translation
// unit, and some helpers' names are the same.
namespace detail::sphere_sweep {

template <class T> bool isValidSweep(const RayPath<T>& path, T radius) {
    return isFinite(path.origin) && isFinite(path.direction) && path.maxT >= T(0) && isFinite(radius) &&
           radius >= T(0);
}

// Where the centre's path meets the target grown by the radius, with the contact already moved back
// onto the target; or that the path starts inside it (then contact is where the line entered).
template <class T> struct GrownEntry {
    SurfaceHit<T> contact;
    bool startsInside;
};

template <class T> GrownEntry<T> grownEntry(const RaySolidHit<T>& crossing, T radius) {
    const SurfaceHit<T>& entry = crossing.entry;
    return {{entry.t, entry.point - radius * entry.normal, entry.normal}, crossing.originInside};
}

template <class T>
std::optional<GrownEntry<T>> grownEntry(const std::optional<RaySolidHit<T>>& crossing, T radius) {
    if (!crossing) return std::nullopt;
    return grownEntry(*crossing, radius);
}

template <class T> SphereSweepHit<T> hitAtStart(const Contact<T>& contact) {
    return {T(0), contact.pointOnB, contact.normal, true};
}

template <class T> std::optional<SphereSweepHit<T>> hitAtStart(const std::optional<Contact<T>>& contact) {
    if (!contact) return std::nullopt;
    return hitAtStart(*contact);
}

// Where a sphere centred at center touches the target: the target's point nearest the centre and the
// normal from it. The target is its core grown by coreRadius (a sphere's centre, a capsule's axis; a
// box or triangle is its own core); nearestCore(center) gives the core's point nearest the centre.
template <class T, class NearestCore> SurfaceHit<T> touching(T t, const Vec3<T>& center,
                                                             const NearestCore& nearestCore, T coreRadius,
                                                             const Vec3<T>& fallbackNormal) {
    const Vec3<T> core = nearestCore(center);
    const Vec3<T> offset = center - core;
    const Vec3<T> normal = offset == Vec3<T>(0) ? fallbackNormal : unitVector(offset);
    return {t, core + coreRadius * normal, normal};
}

// The sweep once the grown target's entry is known. A start inside it is a contact at t = 0, described
// by the static contact. Rounding may put the start just inside the grown target while the static
// test finds it just outside: then the sphere touches, and the line's entry (which may lie far back
// along a grazing path) says nothing about where; the nearest point does.
template <class T, class ContactAtStart, class NearestCore>
std::optional<SphereSweepHit<T>> unfilteredSweepResult(const std::optional<GrownEntry<T>>& entry,
                                                       const RayPath<T>& path,
                                                       const ContactAtStart& contactAtStart,
                                                       const NearestCore& nearestCore, T coreRadius) {
    if (!entry) return std::nullopt;
    const SurfaceHit<T>& contact = entry->contact;
    if (!entry->startsInside)
        return SphereSweepHit<T>{contact.t, contact.point, contact.normal, contact.t == T(0)};
    if (const std::optional<Contact<T>> atStart = contactAtStart()) return hitAtStart(*atStart);
    const SurfaceHit<T> touch = touching(T(0), path.origin, nearestCore, coreRadius, contact.normal);
    return SphereSweepHit<T>{T(0), touch.point, touch.normal, true};
}

// A contact beyond the largest number (a target reaching to 1e308, a box's rotation that is a caller's
// garbage) comes out infinite: no hit, as for any input past the covered range.
template <class T, class ContactAtStart, class NearestCore>
std::optional<SphereSweepHit<T>> sweepResult(const std::optional<GrownEntry<T>>& entry,
                                             const RayPath<T>& path, const ContactAtStart& contactAtStart,
                                             const NearestCore& nearestCore, T coreRadius) {
    std::optional<SphereSweepHit<T>> hit =
        unfilteredSweepResult(entry, path, contactAtStart, nearestCore, coreRadius);
    if (hit && !detail::allFinite(hit->point, hit->normal)) hit.reset();
    return hit;
}

// For targets whose grown form one ray test handles (sphere, capsule).
template <class T, class CrossGrown, class ContactAtStart, class NearestCore>
std::optional<SphereSweepHit<T>> sweepIntoGrownSolid(const RayPath<T>& path, T radius,
                                                     const CrossGrown& crossGrown,
                                                     const ContactAtStart& contactAtStart,
                                                     const NearestCore& nearestCore, T coreRadius) {
    if (!isValidSweep(path, radius)) return std::nullopt;
    if (path.direction == Vec3<T>(0)) return hitAtStart(contactAtStart());
    return sweepResult(grownEntry(crossGrown(), radius), path, contactAtStart, nearestCore, coreRadius);
}

// The earliest entry of the path into the capsules of the given radius around the segments
// edge(i) = {from, to}, i < count; or that it starts inside one of them. The edges come from an accessor
// so that a solid's edges are read where they are, not copied per sweep.
template <class T, class Edge>
std::optional<GrownEntry<T>> earliestCapsuleEntryOf(const RayPath<T>& path, T radius, std::size_t count,
                                                    const Edge& edge) {
    std::optional<GrownEntry<T>> earliest;
    for (std::size_t i = 0; i < count; ++i) {
        const auto [from, to] = edge(i);
        const std::optional<RaySolidHit<T>> crossing =
            intersectRayCapsule(path, Capsule<T>{from, to, radius});
        if (!crossing) continue;
        if (crossing->originInside) return grownEntry(*crossing, radius);
        if (!earliest || crossing->entry.t < earliest->contact.t) earliest = grownEntry(*crossing, radius);
    }
    return earliest;
}

// The same for the segments from[i] - to[i].
template <class T> std::optional<GrownEntry<T>> earliestCapsuleEntry(const RayPath<T>& path, T radius,
                                                                     const Vec3<T>* from, const Vec3<T>* to,
                                                                     int count) {
    return earliestCapsuleEntryOf(path, radius, std::size_t(count > 0 ? count : 0),
                                  [&](std::size_t i) { return std::pair(from[i], to[i]); });
}

// An edge or corner contact, moved to the target's point nearest the centre at the time of impact.
// Where two capsules (or a capsule's side and its end sphere) are reached at times equal within
// rounding, which one wins is noise, and so would be a contact point taken from it; the nearest point
// is not.
template <class T, class NearestPoint>
std::optional<GrownEntry<T>> touchingNearest(std::optional<GrownEntry<T>> entry, const RayPath<T>& path,
                                             const NearestPoint& nearestPoint) {
    if (!entry || entry->startsInside) return entry;
    const SurfaceHit<T>& contact = entry->contact;
    entry->contact = touching(contact.t, path.at(contact.t), nearestPoint, T(0), contact.normal);
    return entry;
}

// The box [-halfExtents, halfExtents] rounded by radius, in the box's frame (Ericson, Real-Time
// Collision Detection 5.5.7). The path meets the box grown by radius on all sides first. Where it
// enters (or starts) in a face region, beyond the box along one axis only, the grown box is the
// rounded box there; in an edge region (two axes) the rounded box is the edge's capsule, and in a
// vertex region (three axes) the union of the capsules of the three edges meeting at the vertex.
template <class T> std::optional<GrownEntry<T>> entryIntoRoundedBox(const RayPath<T>& path, T radius,
                                                                    const Vec3<T>& halfExtents) {
    const Vec3<T> grown = halfExtents + radius;
    const std::optional<RaySolidHit<T>> crossing = intersectRayAabb(path, Aabb<T>{-grown, grown});
    if (!crossing) return std::nullopt;
    const bool startsInGrownBox = crossing->originInside;
    const Vec3<T> first = startsInGrownBox ? path.origin : crossing->entry.point;
    bool beyond[3];
    int beyondCount = 0;
    for (int i = 0; i < 3; ++i) {
        // The entry face's axis is beyond even where rounding put the entry point back onto the box.
        beyond[i] =
            std::abs(first[i]) > halfExtents[i] || (!startsInGrownBox && crossing->entry.normal[i] != T(0));
        beyondCount += beyond[i];
    }
    if (beyondCount <= 1 || radius == T(0)) return grownEntry(*crossing, radius);
    Vec3<T> corner;
    for (int i = 0; i < 3; ++i)
        corner[i] = std::copysign(halfExtents[i], first[i]);
    Vec3<T> from[3], to[3];
    int edgeCount = 0;
    for (int axis = 0; axis < 3; ++axis) {
        if (beyond[axis] && beyondCount == 2) continue;  // the edge runs along the axis not beyond
        from[edgeCount] = corner;
        to[edgeCount] = corner;
        to[edgeCount][axis] = -corner[axis];
        ++edgeCount;
    }
    return touchingNearest(
        earliestCapsuleEntry(path, radius, from, to, edgeCount), path,
        [&](const Vec3<T>& center) { return glm::clamp(center, -halfExtents, halfExtents); });
}

// Solid boxes: the box's centre, axes (columns; identity for an AABB) and half extents.
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereBox(const RayPath<T>& path, T radius, const Obb<T>& box) {
    const auto contactAtStart = [&] { return sphereObbContact(Sphere<T>{path.origin, radius}, box); };
    if (!isValidSweep(path, radius) || !detail::isValidObb(box)) return std::nullopt;
    if (path.direction == Vec3<T>(0)) return hitAtStart(contactAtStart());
    const Mat3<T> toLocal = glm::transpose(box.rotation);
    std::optional<GrownEntry<T>> entry = entryIntoRoundedBox(
        RayPath<T>{toLocal * (path.origin - box.center), toLocal * path.direction, path.maxT}, radius,
        box.halfExtents);
    if (entry) {
        entry->contact.point = box.center + box.rotation * entry->contact.point;
        entry->contact.normal = box.rotation * entry->contact.normal;
    }
    const auto nearestPoint = [&](const Vec3<T>& center) {
        return box.center +
               box.rotation * glm::clamp(toLocal * (center - box.center), -box.halfExtents, box.halfExtents);
    };
    return sweepResult(entry, path, contactAtStart, nearestPoint, T(0));
}

// A sphere at rest against a triangle whose face the static contact cannot use (triangle.hpp's hasFace):
// the contact of the edge reaching deepest into it, each edge taken as a capsule of radius 0
// (sphereCapsuleContact: a centre on an edge is pushed out perpendicular to it, +x for a point), the
// contact a moving sphere gets at t = 0.
template <class T> std::optional<SphereSweepHit<T>> edgesContactAtRest(const Vec3<T>& center, T radius,
                                                                       const Vec3<T>* from,
                                                                       const Vec3<T>* to) {
    std::optional<Contact<T>> deepest;
    for (int edge = 0; edge < 3; ++edge) {
        const std::optional<Contact<T>> contact =
            sphereCapsuleContact(Sphere<T>{center, radius}, Capsule<T>{from[edge], to[edge], T(0)});
        if (contact && (!deepest || contact->depth > deepest->depth)) deepest = contact;
    }
    return hitAtStart(deepest);
}

// side = +1 or -1 picks the face of the plane the sphere meets; signedDistance is the centre's.
template <class T>
std::optional<SphereSweepHit<T>> sweepTowardPlaneSide(const RayPath<T>& path, T radius, const Plane<T>& plane,
                                                      const SolidPlaneContact<T>& contactAtStart, T side) {
    const Vec3<T> normal = side * plane.normal;
    const T height = side * contactAtStart.span.centerDistance;
    if (height <= radius) return SphereSweepHit<T>{T(0), contactAtStart.deepest.onPlane, normal, true};
    // The height comes down to the radius at (d0 - r) / (d0 - d1) from the positive side and at
    // (d0 + r) / (d0 - d1) from the negative side (d1 = the distance at t = 1).
    const T approachRate = -glm::dot(normal, path.direction);
    if (!(approachRate > T(0))) return std::nullopt;
    const T t = (height - radius) / approachRate;
    if (!(t <= path.maxT) || !isFinite(t)) return std::nullopt;
    const Vec3<T> point = path.at(t) - radius * normal;
    if (!isFinite(point)) return std::nullopt;
    return SphereSweepHit<T>{t, point, normal, false};
}

}  // namespace detail::sphere_sweep

// The first contact of the sphere of the given radius, its centre moving along path, with a solid sphere.
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the target's surface; normal unit, from the target toward the
// moving sphere's centre at t.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away; callers that let it go
// check dot(normal, direction) >= 0): t = 0, startsInContact, and the static contact
// (sphereSphereContact): the target's point nearest the centre, the normal from it toward the centre
// (+x for coincident centres). A zero direction is a static overlap query: t = 0 when touching, else
// std::nullopt. Radius 0 is the ray's first hit.
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius
// or target.radius (whatever their sum), a NaN or infinite target, and a contact beyond the range of T
// give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepSphereSphere(const RayPath<T>& path, T radius,
                                                                      const Sphere<T>& target) {
    if (!(target.radius >= T(0))) return std::nullopt;  // a negative size, not a smaller grown one
    return detail::sphere_sweep::sweepIntoGrownSolid(
        path, radius,
        [&] {
            return intersectRaySphere(path, Sphere<T>{target.center, target.radius + radius});
        },
        [&] {
            return sphereSphereContact(Sphere<T>{path.origin, radius}, target);
        },
        [&](const Vec3<T>&) { return target.center; }, target.radius);
}

// The first contact of the moving sphere with a solid capsule (all points within target.radius of the
// segment a - b; a ball when a == b).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the capsule's surface; normal unit, from the capsule toward the
// moving sphere's centre at t.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// and the static contact (sphereCapsuleContact: a centre on the axis is pushed out perpendicular to it).
// A zero direction is a static overlap query: t = 0 when touching, else std::nullopt.
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius
// or target.radius (whatever their sum), a NaN or infinite target, and a contact beyond the range of T
// give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepSphereCapsule(const RayPath<T>& path, T radius,
                                                                       const Capsule<T>& target) {
    if (!(target.radius >= T(0))) return std::nullopt;  // a negative size, not a smaller grown one
    return detail::sphere_sweep::sweepIntoGrownSolid(
        path, radius,
        [&] {
            return intersectRayCapsule(path, Capsule<T>{target.a, target.b, target.radius + radius});
        },
        [&] {
            return sphereCapsuleContact(Sphere<T>{path.origin, radius}, target);
        },
        [&](const Vec3<T>& center) {
            const std::optional<SegmentPoint<T>> onAxis = closestPointOnSegment(center, target.a, target.b);
            return onAxis ? onAxis->point : target.a;
        },
        target.radius);
}

// The first contact of the moving sphere with a solid oriented box. box.rotation's columns are the box's
// axes, orthonormal (not checked).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the box's surface; normal unit, from the box toward the moving
// sphere's centre at t (a face's normal, or from an edge or corner).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// and the static contact (sphereObbContact): the box's point nearest the centre, or, for a centre inside
// the box, its projection on the nearest face and that face's normal. A zero direction is a static
// overlap query: t = 0 when touching, else std::nullopt. Radius 0 is the ray's first hit. Zero half
// extents (a flat, linear or point box) are valid.
// Invalid input: a NaN or infinite origin, direction, radius or box, a negative or NaN maxT, a negative
// radius or half extent, and a contact beyond the range of T give std::nullopt.
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereObb(const RayPath<T>& path, T radius, const Obb<T>& target) {
    return detail::sphere_sweep::sweepSphereBox(path, radius, target);
}

// The first contact of the moving sphere with a solid axis-aligned box, as sweepSphereObb with the
// identity rotation.
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the box's surface; normal unit, from the box toward the moving
// sphere's centre at t (a face's normal, or from an edge or corner).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// and the static contact (sphereObbContact): the box's point nearest the centre, or, for a centre inside
// the box, its projection on the nearest face and that face's normal. A zero direction is a static
// overlap query: t = 0 when touching, else std::nullopt. Radius 0 is the ray's first hit. Zero half
// extents (a flat, linear or point box) are valid.
// Invalid input: a NaN or infinite origin, direction, radius or corner, min > max on an axis, a negative
// or NaN maxT, a negative radius, a box whose centre or size overflows T, and a contact beyond the range
// of T give std::nullopt.
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereAabb(const RayPath<T>& path, T radius, const Aabb<T>& target) {
    if (!isFinite(target.min) || !isFinite(target.max) ||
        !glm::all(glm::lessThanEqual(target.min, target.max)))
        return std::nullopt;
    return detail::sphere_sweep::sweepSphereBox(
        path, radius,
        Obb<T>{(target.min + target.max) / T(2), Mat3<T>(T(1)), (target.max - target.min) / T(2)});
}

// The first contact of the moving sphere with a plane as the solid half-space behind it,
// dot(normal, x) <= offset, as Bullet's btStaticPlaneShape and collideSpherePlane.
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the plane (below the centre at t); normal the plane normal.
// Miss (the sphere clear of the half-space and not reaching it by maxT, or moving along or away from
// it): std::nullopt.
// Start in contact: a sphere within its radius of the plane, or whose centre is behind it, overlaps it
// whichever way it moves: t = 0, startsInContact, the centre's projection on the plane and the plane
// normal. A zero direction is a static overlap query: t = 0 when touching, else std::nullopt.
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius,
// a plane that is not valid (a normal whose squared length is not within unitNormalTolerance of 1, a NaN
// or infinite offset), and results beyond the range of T give std::nullopt.
template <class T>
std::optional<SphereSweepHit<T>> sweepSpherePlane(const RayPath<T>& path, T radius, const Plane<T>& plane) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius)) return std::nullopt;
    const std::optional<SolidPlaneContact<T>> contactAtStart =
        collideSpherePlane(Sphere<T>{path.origin, radius}, plane);
    if (!contactAtStart) return std::nullopt;
    return sweepTowardPlaneSide(path, radius, plane, *contactAtStart, T(1));
}

// The first contact of the moving sphere with a plane as an infinitely thin two-sided sheet: the sphere
// meets the face on the side its centre starts on (the normal is turned toward it).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the plane (below the centre at t); normal the plane normal
// turned toward the side the centre starts on.
// Miss (the sphere does not reach the plane by maxT, or moves along or away from it): std::nullopt.
// Start in contact: a sphere within its radius of the plane (touching it or reaching across): t = 0,
// startsInContact, the centre's projection on the plane and the normal toward the centre's side. A
// centre exactly on the plane takes the side it comes from (the positive side when it moves along the
// plane or not at all). A zero direction is a static overlap query: t = 0 when touching, else
// std::nullopt.
// Invalid input: as sweepSpherePlane.
template <class T> std::optional<SphereSweepHit<T>> sweepSphereTwoSidedPlane(const RayPath<T>& path, T radius,
                                                                             const Plane<T>& plane) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius)) return std::nullopt;
    const std::optional<SolidPlaneContact<T>> contactAtStart =
        collideSpherePlane(Sphere<T>{path.origin, radius}, plane);
    if (!contactAtStart) return std::nullopt;
    const T signedDistance = contactAtStart->span.centerDistance;
    const bool positiveSide =
        signedDistance > T(0) || (signedDistance == T(0) && glm::dot(plane.normal, path.direction) <= T(0));
    return sweepTowardPlaneSide(path, radius, plane, *contactAtStart, positiveSide ? T(1) : T(-1));
}

// The first contact of the moving sphere with a triangle (a two-sided surface, not a solid): the face
// (the sphere's lowest point meeting the triangle) or else the earliest of the three edge capsules, each
// tested: a single capsule picked by a heuristic misses contacts (PhysX issue #501).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the triangle; normal unit, from the triangle toward the moving
// sphere's centre at t (the face normal on the centre's side for a face contact).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// and the static contact (sphereTriangleContact: the face normal on the centre's side for a centre on
// the triangle). A zero direction is a static overlap query: t = 0 when touching, else std::nullopt.
// Radius 0 is the ray's first hit.
// culling: FaceCulling::BackFaces makes the triangle one-sided for meshes: a sphere whose centre starts
// behind it, or that moves toward its front side (along its front normal (b - a) x (c - a)), passes
// through (std::nullopt, also when it starts in contact).
// A degenerate triangle (triangle.hpp: the sine of its smallest angle below 16 unit roundoffs, so a
// segment, a point or a needle) has no face and no front: it is met at its edges and vertices. A path
// starting in contact, and a zero direction (a static query) while the sphere reaches them, get t = 0,
// startsInContact, their point nearest the centre and the normal from it toward the centre; a centre on
// an edge gets a unit normal perpendicular to that edge (the cross product with the world axis least
// aligned with it; +x for a point triangle). The same holds for a zero direction and a triangle whose
// edges' squares leave the normal numbers (triangle.hpp's scaled), whose face the static contact cannot
// use. Culling makes a degenerate triangle std::nullopt (its neighbours in the mesh decide).
// Invalid input: a NaN or infinite origin, direction, radius or vertex, a negative or NaN maxT, a
// negative radius, and a contact beyond the range of T give std::nullopt.
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereTriangle(const RayPath<T>& path, T radius,
                                                     const Triangle<T>& target,
                                                     FaceCulling culling = FaceCulling::None) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius) || !isFinite(target.a) || !isFinite(target.b) || !isFinite(target.c))
        return std::nullopt;
    const TriangleFrame<T> frame = triangleFrame(target);
    const auto contactAtStart = [&]() -> std::optional<Contact<T>> {
        const std::optional<TriangleContact<T>> contact =
            sphereTriangleContact(Sphere<T>{path.origin, radius}, target);
        if (!contact) return std::nullopt;
        return contact->contact;
    };
    if (!frame.degenerate) {
        const Vec3<T> frontNormal = unitVector(frame.normal);
        const T signedDistance = glm::dot(frontNormal, path.origin - target.a);
        const T normalSpeed = glm::dot(frontNormal, path.direction);
        if (culling == FaceCulling::BackFaces && (signedDistance < T(0) || normalSpeed > T(0)))
            return std::nullopt;
        const T height = std::abs(signedDistance);
        // The height's rounding: a sphere whose computed height is a rounding above the radius may touch
        // the face, and its lowest point, a rounding past the plane, would then miss the face it moves into.
        const T scale = maxAbsComponent(path.origin - target.a) + radius;
        if (height <= radius + 8 * unitRoundoff<T> * scale) {
            if (const std::optional<Contact<T>> contact = contactAtStart()) return hitAtStart(*contact);
            // Tangent within rounding, where the static contact's own rounding finds the sphere clear: over
            // the face, the sphere touches it at its start (the edges would give a later, wrong contact).
            const Vec3<T> faceNormal = signedDistance >= T(0) ? frontNormal : -frontNormal;
            const std::optional<TriangleHit<T>> below =
                intersectRayTriangle(RayPath<T>{path.origin + radius * faceNormal, -faceNormal,
                                                std::numeric_limits<T>::infinity()},
                                     target);
            if (below)
                return SphereSweepHit<T>{T(0), below->point,
                                         signedDistance >= T(0) ? below->normal : -below->normal, true};
        } else if (!(signedDistance * normalSpeed < T(0))) {
            return std::nullopt;  // clear of the plane and not approaching it
        } else {
            // The face can be the first contact only now: the sphere's lowest point meets the triangle.
            const Vec3<T> faceNormal = signedDistance > T(0) ? frontNormal : -frontNormal;
            const std::optional<TriangleHit<T>> face = intersectRayTriangle(
                RayPath<T>{path.origin - radius * faceNormal, path.direction, path.maxT}, target);
            if (face)
                return SphereSweepHit<T>{face->t, face->point,
                                         signedDistance > T(0) ? face->normal : -face->normal,
                                         face->t == T(0)};
        }
    } else if (culling == FaceCulling::BackFaces || !isFinite(target.b - target.a) ||
               !isFinite(target.c - target.b) || !isFinite(target.a - target.c)) {
        // No face, so no front: one-sided, its neighbours' faces and edges decide. Edges that overflow
        // leave nothing to sweep.
        return std::nullopt;
    }
    // The edges: the first contact where the face gave none, and all that a degenerate triangle (a segment,
    // a point, a needle) has.
    const Vec3<T> from[3] = {target.a, target.b, target.c};
    const Vec3<T> to[3] = {target.b, target.c, target.a};
    if (path.direction == Vec3<T>(0)) {
        // At rest: a face the static contact used has answered; without one, the edges' contact.
        if (frame.hasFace()) return std::nullopt;
        return edgesContactAtRest(path.origin, radius, from, to);
    }
    const auto nearestPoint = [&](const Vec3<T>& center) {
        if (const std::optional<TrianglePoint<T>> nearest = closestPointOnTriangle(center, target))
            return nearest->point;
        // A triangle outside closestPointOnTriangle's range (its fourth powers leave the normal numbers:
        // an edge 1e-14 long in float): the nearest point of its edges, which needs only squares.
        Vec3<T> best = target.a;
        T bestSquared = std::numeric_limits<T>::infinity();
        for (int edge = 0; edge < 3; ++edge) {
            const std::optional<SegmentPoint<T>> onEdge = closestPointOnSegment(center, from[edge], to[edge]);
            if (!onEdge) continue;
            const T squared = glm::dot(onEdge->point - center, onEdge->point - center);
            if (squared < bestSquared) {
                best = onEdge->point;
                bestSquared = squared;
            }
        }
        return best;
    };
    return sweepResult(touchingNearest(earliestCapsuleEntry(path, radius, from, to, 3), path, nearestPoint),
                       path, contactAtStart, nearestPoint, T(0));
}

namespace detail::sphere_sweep {

// ---------------------------------------------------------------------------------------------------
// Solids whose grown form is no quadric (cylinders, cones: tori about their rims; ellipsoids: offset
// surfaces of degree 8). The signed distance (negative inside) from the centre's path c(t) to a convex
// solid is convex in t, so f(t) = signed distance - radius is convex, and Newton's method from t = 0
// climbs to its first root from below without passing it (each tangent lies below f). What a sweep needs
// of such a solid is its point nearest a query.

// The solid's point nearest a query, in the frame the query was given in.
template <class T> struct NearestOnSolid {
    Vec3<T> point;   // on the surface: nearest the query; for a query inside, the nearest surface point
    Vec3<T> normal;  // unit: from point toward a query outside; the outward normal at point otherwise
    T distance;      // signed: from the query to point outside the solid, minus that inside (0 on it)
};

template <class T> struct NearestInSection {
    Vec2<T> point;   // (distance from the axis, height along it)
    Vec2<T> normal;  // unit, in the same coordinates
    T distance;
};

// A query about a unit axis: its height along the axis and its distance from it, with the unit radial
// direction (perpendicular to the axis; any such for a query on the axis). Projected twice: once leaves a
// part along the axis of u |offset|, not small against what is left across near the axis. What is left
// across within a few roundings of the offset is noise (a query on the axis leaves it in any direction,
// the axis' own included): the query is taken on the axis.
template <class T> struct AxialSplit {
    T along;
    T across;
    Vec3<T> radial;
};

template <class T> AxialSplit<T> splitScaledAboutAxis(const Vec3<T>& offset, const Vec3<T>& unitAxis) {
    const T along = glm::dot(offset, unitAxis);
    const Vec3<T> once = offset - along * unitAxis;
    const LengthAndDirection<T> across = lengthAndDirection(once - glm::dot(once, unitAxis) * unitAxis);
    if (!(across.length > T(8) * unitRoundoff<T> * maxAbsComponent(offset)))
        return {along, T(0), detail::perpendicularUnit(unitAxis)};
    return {along, across.length, across.direction};
}

// An offset whose products with the axis leave the normal numbers is rounded in absolute units there,
// which tilts the radial direction off the perpendicular: it is split brought to a largest component of
// about 1 (by a power of two, in two exact steps: 2^149 exceeds float's range) and the lengths scaled back.
template <class T> [[gnu::noinline, gnu::cold]] AxialSplit<T> splitTinyAboutAxis(const Vec3<T>& offset,
                                                                                 const Vec3<T>& unitAxis) {
    const int exponent = std::ilogb(maxAbsComponent(offset));
    const int half = exponent / 2;
    const T up1 = std::scalbn(T(1), -half), up2 = std::scalbn(T(1), half - exponent);
    AxialSplit<T> split = splitScaledAboutAxis(offset * up1 * up2, unitAxis);
    split.along = split.along / up2 / up1;
    split.across = split.across / up2 / up1;
    return split;
}

template <class T> AxialSplit<T> splitAboutAxis(const Vec3<T>& offset, const Vec3<T>& unitAxis) {
    const T largest = maxAbsComponent(offset);
    if (largest < std::numeric_limits<T>::min() / unitRoundoff<T> && largest > T(0)) [[unlikely]]
        return splitTinyAboutAxis(offset, unitAxis);
    return splitScaledAboutAxis(offset, unitAxis);
}

template <class T> NearestOnSolid<T> fromSection(const AxialSplit<T>& split, const Vec3<T>& unitAxis,
                                                 const NearestInSection<T>& nearest) {
    return {nearest.point.x * split.radial + nearest.point.y * unitAxis,
            nearest.normal.x * split.radial + nearest.normal.y * unitAxis, nearest.distance};
}

// The length of (x, y), x and y >= 0, exact where one is zero.
template <class T> T lengthOf(T x, T y) {
    if (x == T(0)) return y;
    if (y == T(0)) return x;
    return std::hypot(x, y);
}

// The cylinder's section: the rectangle 0 <= across <= radius, 0 <= along <= height. Outside, the
// offset from the rectangle is (beyond the side, beyond a cap), each clamped at 0, so the normal lies in
// the normal cone of the point even where rounding makes both tiny (the rim); it is scaled before it is
// normalised, as at the cone's corners.
template <class T> NearestInSection<T> nearestOnCylinderSection(T across, T along, T radius, T height) {
    const T beyondSide = across - radius;
    const T belowA = -along, aboveB = along - height;
    const T beyondCap = std::max(belowA, aboveB);
    const T capSide = belowA >= aboveB ? T(-1) : T(1);  // the nearer cap: a (below), or b
    const T capHeight = capSide < T(0) ? T(0) : height;
    if (beyondSide > T(0) || beyondCap > T(0)) {
        const T outAcross = std::max(beyondSide, T(0)), outAlong = std::max(beyondCap, T(0));
        const Vec2<T> normal = unitVector(Vec2<T>(outAcross, outAlong));
        return {{std::min(across, radius), beyondCap > T(0) ? capHeight : along},
                {normal.x, capSide * normal.y},
                lengthOf(outAcross, outAlong)};
    }
    if (-beyondSide < -beyondCap) return {{radius, along}, {T(1), T(0)}, beyondSide};
    return {{across, capHeight}, {T(0), capSide}, beyondCap};
}

// The cone's section: the triangle of the apex (0, 0), the rim (radius, height) and the base's centre
// (0, height) (the axis is no boundary: the solid lies on both sides of it). sideNormal = (height,
// -radius) / slant is the side's outward normal.
template <class T> NearestInSection<T> nearestOnConeSection(T across, T along, T radius, T height, T slant) {
    const Vec2<T> sideNormal(height / slant, -radius / slant);
    const T beyondSide = differenceOfProducts(across, height, along, radius) / slant;
    const T beyondBase = along - height;
    if (beyondSide <= T(0) && beyondBase <= T(0)) {
        if (-beyondSide < -beyondBase)
            return {Vec2<T>(across, along) - beyondSide * sideNormal, sideNormal, beyondSide};
        return {{across, height}, {T(0), T(1)}, beyondBase};
    }
    if (beyondBase > T(0) && across <= radius) return {{across, height}, {T(0), T(1)}, beyondBase};
    // Where the query projects onto the side, as a fraction of the way from the apex to the rim.
    const T fraction = std::fma(across, radius, along * height) / (slant * slant);
    // The normal from the offset scaled first (unitVector): divided by its length, an offset of a few
    // subnormal units would take that length's rounding (|(d, d)| rounds to d).
    const auto fromCorner = [&](const Vec2<T>& corner) {
        const Vec2<T> offset(across - corner.x, along - corner.y);
        return NearestInSection<T>{corner, unitVector(offset),
                                   lengthOf(std::abs(offset.x), std::abs(offset.y))};
    };
    if (fraction <= T(0)) return fromCorner(Vec2<T>(T(0)));
    if (fraction >= T(1)) return fromCorner(Vec2<T>(radius, height));
    return {{fraction * radius, fraction * height}, sideNormal, beyondSide};
}

// The root of g, convex and decreasing on [low, high], 0 < low, with g(low) >= 0 >= g(high), to the
// precision the ellipse and ellipsoid points need: w within a rounding (each of their denominators
// w + excess is at least w). evaluate(w) gives g(w) and w g'(w): the slope times w stays of the size
// of g where the root is subnormal (a query near the centre), whereas the slope itself, of order 1 / w,
// overflows. Newton's method: from a point where g > 0 each step stays left of the root (the tangent
// lies below g) and converges from there, quadratically; from one where g < 0 (high, or rounding past
// the root) the tangent's root lies left of it. A step that leaves the bracket [low, high], as a tangent
// near the pole at 0 may, is a bisection instead; so the count is bounded as bisection's, by the exponent
// range (widths halve down to u w, or to the subnormal spacing).
template <class T, class Evaluate> T convexRoot(T low, T high, const Evaluate& evaluate) {
    constexpr int limit = std::numeric_limits<T>::max_exponent - std::numeric_limits<T>::min_exponent +
                          std::numeric_limits<T>::digits + 2;
    T w = high;
    for (int iteration = 0; iteration < limit; ++iteration) {
        const auto [value, slopeTimesW] = evaluate(w);
        if (value > T(0))
            low = w;
        else if (value < T(0))
            high = w;
        else
            return w;
        const T relativeStep = -value / slopeTimesW;  // (next - w) / w
        if (std::abs(relativeStep) <= T(2) * unitRoundoff<T>)
            return std::clamp(w + relativeStep * w, low, high);
        const T next = w + relativeStep * w;
        const T middle = low + (high - low) / T(2);
        if (!(middle > low && middle < high)) break;  // no number left between them
        w = next > low && next < high ? next : middle;
    }
    return w;
}

// (e / smallest)^2 - 1 for e >= smallest > 0, without the cancellation of its two terms.
template <class T> T squaredRatioExcess(T e, T smallest) {
    return ((e - smallest) / smallest) * ((e + smallest) / smallest);
}

// A query whose z = y / e are tiny has a root w as tiny: subnormal where they are, its last digits gone.
// The function is the same in w 2^k for n 2^k and excess 2^k: the root is found scaled, and the point
// from y 2^k. 2^k brings the largest z to about 1; it is an exact power of two, applied in two steps
// (2^1074 exceeds double's range); an excess that overflows leaves its term's limit, 0.
template <class T> struct RootScale {
    T first, second;
    T operator()(T x) const { return x * first * second; }
};

template <class T> RootScale<T> rootScale(T largestZ) {
    if (!(largestZ < std::numeric_limits<T>::min() / unitRoundoff<T> && largestZ > T(0))) return {T(1), T(1)};
    const int k = -std::ilogb(largestZ);
    return {std::scalbn(T(1), k / 2), std::scalbn(T(1), k - k / 2)};
}

// The point of the ellipse (x0 / e0)^2 + (x1 / e1)^2 = 1, e0 >= e1 > 0, nearest the query y >= 0, by
// the robust one-dimensional root of Eberly ("Distance from a Point to an Ellipse, an Ellipsoid, or a
// Hyperellipsoid"): x_i = ratio_i y_i / (s + ratio_i) with ratio_i = (e_i / e1)^2, s the root of
// sum (ratio_i z_i / (s + ratio_i))^2 = 1 (z_i = y_i / e_i), bracketed by z1 - 1 and |ratio z| - 1.
// Solved for w = s + 1, whose denominators w + (ratio_i - 1) add terms >= 0: s itself nears -1 for a
// query near the centre, where s + 1 would lose its digits to cancellation. |ratio z| bounds the root
// from above for any query; 1 (s = 0) also bounds it for one inside.
// The limit of the nearest point as y1 comes down to 0 where it lies off the major axis' line (a query
// near the centre, within the evolute): root w = 0, x0 = ratio y0 / excess and x1 from the ellipse's
// equation.
template <class T> std::optional<Vec2<T>> nearestOffTheMajorAxis(T e0, T e1, T y0) {
    const T numerator = e0 * y0, denominator = (e0 - e1) * (e0 + e1);
    if (!(numerator < denominator)) return std::nullopt;
    const T x0OverE0 = numerator / denominator;
    const T rest = T(1) - x0OverE0 * x0OverE0;
    if (!(rest > T(0))) return std::nullopt;
    return Vec2<T>{e0 * x0OverE0, e1 * std::sqrt(rest)};
}

template <class T> Vec2<T> nearestOnEllipse(T e0, T e1, T y0, T y1) {
    if (y1 > T(0)) {
        if (!(y0 > T(0))) return {T(0), e1};
        const T g = (y0 / e0) * (y0 / e0) + (y1 / e1) * (y1 / e1) - T(1);
        if (g == T(0)) return {y0, y1};
        // Close to the line (y1 a subnormal step off it, or all but), the root w is about y1 / x1: below a
        // rounding of the excess it changes no denominator w + excess, and the limit on the line is the
        // point to rounding; z1 = y1 / e1 itself may have underflowed there.
        if (const std::optional<Vec2<T>> limit = nearestOffTheMajorAxis(e0, e1, y0))
            if (y1 / limit->y <= unitRoundoff<T> * squaredRatioExcess(e0, e1)) return *limit;
        const RootScale<T> scale = rootScale(std::max(y0 / e0, y1 / e1));
        const T scaledY0 = scale(y0), scaledY1 = scale(y1);
        const T z0 = scaledY0 / e0, z1 = scaledY1 / e1;
        const T ratio = (e0 / e1) * (e0 / e1), excess = scale(squaredRatioExcess(e0, e1));
        const T n0 = ratio * z0;
        const T reach = lengthOf(n0, z1);
        const T w = convexRoot(z1, g < T(0) ? std::min(scale(T(1)), reach) : reach, [&](T w) {
            const T a = n0 / (w + excess), b = z1 / w;
            return std::pair{a * a + b * b - T(1), T(-2) * (a * a * (w / (w + excess)) + b * b)};
        });
        return {ratio * scaledY0 / (w + excess), scaledY1 / w};
    }
    // On the major axis' line: near the centre (within the evolute) the nearest point lies off it.
    if (const std::optional<Vec2<T>> offTheLine = nearestOffTheMajorAxis(e0, e1, y0)) return *offTheLine;
    return {e0, T(0)};
}

// The same for the ellipsoid of semi-axes e0 >= e1 >= e2 > 0 and a query y >= 0 (Eberly, solved for
// w = s + 1 as above).
// The limit of the nearest point as y2 comes down to 0 where it lies off the plane of the two larger
// axes (a query near the centre): root w = 0, x_i = ratio_i y_i / excess_i and x2 from the equation.
template <class T> std::optional<Vec3<T>> nearestOffTheLargerPlane(const Vec3<T>& e, const Vec3<T>& y) {
    const T denominator0 = (e[0] - e[2]) * (e[0] + e[2]), denominator1 = (e[1] - e[2]) * (e[1] + e[2]);
    const T numerator0 = e[0] * y[0], numerator1 = e[1] * y[1];
    if (!(numerator0 < denominator0 && numerator1 < denominator1)) return std::nullopt;
    const T q0 = numerator0 / denominator0, q1 = numerator1 / denominator1;
    const T rest = T(1) - q0 * q0 - q1 * q1;
    if (!(rest > T(0))) return std::nullopt;
    return Vec3<T>{e[0] * q0, e[1] * q1, e[2] * std::sqrt(rest)};
}

template <class T> Vec3<T> nearestOnSortedEllipsoid(const Vec3<T>& e, const Vec3<T>& y) {
    if (y[2] > T(0)) {
        if (y[1] > T(0)) {
            if (y[0] > T(0)) {
                const T g = glm::dot(y / e, y / e) - T(1);
                if (g == T(0)) return y;
                // Close to the plane, as the ellipse's query close to its major axis: the limit on it.
                if (const std::optional<Vec3<T>> limit = nearestOffTheLargerPlane(e, y))
                    if (y[2] / limit->z <= unitRoundoff<T> * std::min(squaredRatioExcess(e[0], e[2]),
                                                                      squaredRatioExcess(e[1], e[2])))
                        return *limit;
                const RootScale<T> scale = rootScale(maxAbsComponent(y / e));
                const Vec3<T> scaledY(scale(y[0]), scale(y[1]), scale(y[2]));
                const Vec3<T> z = scaledY / e;
                const T ratio0 = (e[0] / e[2]) * (e[0] / e[2]), ratio1 = (e[1] / e[2]) * (e[1] / e[2]);
                const T excess0 = scale(squaredRatioExcess(e[0], e[2])),
                        excess1 = scale(squaredRatioExcess(e[1], e[2]));
                const T n0 = ratio0 * z[0], n1 = ratio1 * z[1];
                const T reach = lengthAndDirection(Vec3<T>(n0, n1, z[2])).length;
                const T w = convexRoot(z[2], g < T(0) ? std::min(scale(T(1)), reach) : reach, [&](T w) {
                    const T a = n0 / (w + excess0), b = n1 / (w + excess1), c = z[2] / w;
                    return std::pair{
                        a * a + b * b + c * c - T(1),
                        T(-2) * (a * a * (w / (w + excess0)) + b * b * (w / (w + excess1)) + c * c)};
                });
                return {ratio0 * scaledY[0] / (w + excess0), ratio1 * scaledY[1] / (w + excess1),
                        scaledY[2] / w};
            }
            const Vec2<T> x = nearestOnEllipse(e[1], e[2], y[1], y[2]);
            return {T(0), x[0], x[1]};
        }
        if (y[0] > T(0)) {
            const Vec2<T> x = nearestOnEllipse(e[0], e[2], y[0], y[2]);
            return {x[0], T(0), x[1]};
        }
        return {T(0), T(0), e[2]};
    }
    // In the plane of the two larger axes: near the centre the nearest point lies off it.
    if (const std::optional<Vec3<T>> offThePlane = nearestOffTheLargerPlane(e, y)) return *offThePlane;
    const Vec2<T> x = nearestOnEllipse(e[0], e[1], y[0], y[1]);
    return {x[0], x[1], T(0)};
}

// The point of the axis-aligned ellipsoid of the given radii (centred at the origin) nearest the query.
template <class T> NearestOnSolid<T> nearestOnEllipsoid(const Vec3<T>& radii, const Vec3<T>& query) {
    int order[3] = {0, 1, 2};  // the axes by decreasing radius
    if (radii[order[0]] < radii[order[1]]) std::swap(order[0], order[1]);
    if (radii[order[1]] < radii[order[2]]) std::swap(order[1], order[2]);
    if (radii[order[0]] < radii[order[1]]) std::swap(order[0], order[1]);
    Vec3<T> sortedRadii, sortedQuery;
    for (int i = 0; i < 3; ++i) {
        sortedRadii[i] = radii[order[i]];
        sortedQuery[i] = std::abs(query[order[i]]);
    }
    const Vec3<T> sortedPoint = nearestOnSortedEllipsoid(sortedRadii, sortedQuery);
    Vec3<T> point;
    for (int i = 0; i < 3; ++i)
        point[order[i]] = std::copysign(sortedPoint[i], query[order[i]]);
    // The outward normal at the point: the gradient, scaled by the smallest radius so that its square
    // neither overflows nor underflows (see intersectRayEllipsoid).
    const Vec3<T> scaled = query / radii;
    const bool inside = glm::dot(scaled, scaled) <= T(1);
    const Vec3<T> gradient = unitVector((point / radii) * (sortedRadii[2] / radii));
    const LengthAndDirection<T> offset = lengthAndDirection(query - point);
    if (inside) return {point, gradient, -offset.length};
    // Where the offset is all rounding, its direction is noise: the gradient is the normal.
    const T noise = T(8) * unitRoundoff<T> * (maxAbsComponent(query) + sortedRadii[0]);
    return {point, offset.length > noise ? offset.direction : gradient, offset.length};
}

// The first contact of the sphere whose centre moves along path (in the solid's frame) with the convex
// solid that nearestAt(centre) describes: Newton's method on f(t) = signed distance - radius from t = 0
// (the signed distance, negative inside, is convex too). Stops with a hit where f <= 0 (at t = 0: the
// start in contact), with a miss where f no longer decreases (the minimum of f lies behind, above 0) or
// the next step passes maxT (the tangent, below f, reaches 0 only there). Once f is within the rounding
// of the case's size (size: the solid's), the hit: at the next step's t when |f| there is smaller (a
// simple root: the step's error is of f's square), else here (a graze, where the step may run far past
// the minimum; a minimum within rounding of 0; a step from a normal that rounding turned, which may run
// deep inside, where f is the depth's). A double root converges linearly down to that tolerance.
template <class T, class NearestAt> std::optional<SphereSweepHit<T>> firstTouch(const RayPath<T>& path,
                                                                                T radius, T size,
                                                                                const NearestAt& nearestAt) {
    const T roundoff = T(8) * unitRoundoff<T>;
    // Each part rounded apart: their sum may overflow where the path starts near the largest value.
    const T fixedTolerance = roundoff * maxAbsComponent(path.origin) + roundoff * size + roundoff * radius;
    const auto hitAt = [](T t, const NearestOnSolid<T>& nearest) -> std::optional<SphereSweepHit<T>> {
        if (!detail::allFinite(nearest.point, nearest.normal)) return std::nullopt;
        return SphereSweepHit<T>{t, nearest.point, nearest.normal, t == T(0)};
    };
    T t = T(0);
    for (int iteration = 0; iteration < 128; ++iteration) {
        const Vec3<T> center = path.at(t);
        const NearestOnSolid<T> nearest = nearestAt(center);
        const T gap = nearest.distance - radius;
        if (!isFinite(gap)) return std::nullopt;
        if (gap <= T(0)) return hitAt(t, nearest);
        const bool touching = gap <= fixedTolerance + roundoff * maxAbsComponent(center);
        const T approach = -glm::dot(nearest.normal, path.direction);
        if (!(approach > T(0))) {
            if (touching) return hitAt(t, nearest);
            return std::nullopt;
        }
        const T next = t + gap / approach;
        if (!(next <= path.maxT) || !isFinite(next)) return std::nullopt;  // beyond maxT or T's range
        if (next == t) return hitAt(t, nearest);
        if (touching) {
            const NearestOnSolid<T> there = nearestAt(path.at(next));
            if (std::abs(there.distance - radius) <= gap) return hitAt(next, there);
            return hitAt(t, nearest);
        }
        t = next;
    }
    return std::nullopt;  // still creeping after the cap: a graze within noise, taken as the miss it nears
}

template <class T> bool isValidCylinder(const Cylinder<T>& cylinder) {
    return isFinite(cylinder.a) && isFinite(cylinder.b) && isFinite(cylinder.radius) &&
           cylinder.radius > T(0) && isUsableSquare(cylinder.radius * cylinder.radius) &&
           isUsableSquare(glm::dot(cylinder.b - cylinder.a, cylinder.b - cylinder.a));
}

template <class T> bool isValidCone(const Cone<T>& cone) {
    const T height2 = glm::dot(cone.base - cone.apex, cone.base - cone.apex);
    return isFinite(cone.apex) && isFinite(cone.base) && isFinite(cone.radius) && cone.radius > T(0) &&
           isUsableSquare(cone.radius * cone.radius) && isUsableSquare(height2) &&
           isUsableSquare(height2 + cone.radius * cone.radius);
}

// Radii whose ratio squared overflows (Eberly's ratios) leave no representable root.
template <class T> bool isValidEllipsoid(const Ellipsoid<T>& ellipsoid) {
    const Vec3<T>& radii = ellipsoid.radii;
    if (!isFinite(ellipsoid.center) || !isFinite(radii) || !isFinite(ellipsoid.rotation[0]) ||
        !isFinite(ellipsoid.rotation[1]) || !isFinite(ellipsoid.rotation[2]) ||
        !glm::all(glm::greaterThan(radii, Vec3<T>(0))))
        return false;
    const T ratio = maxAbsComponent(radii) / std::min({radii.x, radii.y, radii.z});
    return isFinite(ratio * ratio);
}

}  // namespace detail::sphere_sweep

// The first contact of the moving sphere with a solid cylinder with flat caps (Cylinder: the axis from
// the centre of cap a to the centre of cap b): the first root of the centre's distance to the cylinder
// less the radius, by Newton's method on that convex function (exact to rounding: side, caps and the
// rims' tori alike).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point the cylinder's point nearest the centre at t (on its surface);
// normal unit, from it toward the centre (radial on the side, the cap's axis on a cap, between them at a
// rim). |distance(centre(t)) - radius| is within a few roundings of the case's size (its largest
// coordinate or size), and t within that divided by the speed of approach (a graze: by its square root).
// A graze within that of the radius may come out a touch (at the graze) or a miss.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact, and the
// static contact: the cylinder's point nearest the centre and the normal from it toward the centre; for a
// centre inside the cylinder (or on its surface), the nearest surface point and its outward normal (the
// side's or the nearer cap's; a centre on the axis, or within a few roundings of it, takes a radial direction
// perpendicular to the axis, from the world axis least aligned with it). A zero direction is a static overlap
// query: t = 0 when touching, else std::nullopt. Radius 0 is the ray's first hit (intersectRayCylinder's
// entry, within rounding; at the rim the normal may be the cap's).
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius, a
// cylinder that is not valid (a NaN or infinite end, radius not > 0, radius^2 or |b - a|^2 not a normal
// number), and a contact beyond the range of T give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepSphereCylinder(const RayPath<T>& path, T radius,
                                                                        const Cylinder<T>& target) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius) || !isValidCylinder(target)) return std::nullopt;
    const Vec3<T> axis = target.b - target.a;
    const T height = std::sqrt(glm::dot(axis, axis));
    const Vec3<T> unitAxis = axis / height;
    std::optional<SphereSweepHit<T>> hit = firstTouch(
        RayPath<T>{path.origin - target.a, path.direction, path.maxT}, radius,
        std::max(height, target.radius), [&](const Vec3<T>& offset) {
            const AxialSplit<T> split = splitAboutAxis(offset, unitAxis);
            return fromSection(split, unitAxis,
                               nearestOnCylinderSection(split.across, split.along, target.radius, height));
        });
    if (hit) hit->point += target.a;
    if (hit && !isFinite(hit->point)) hit.reset();
    return hit;
}

// The first contact of the moving sphere with a solid cone with its base disc (Cone: apex, the base's
// centre, the base's radius): the first root of the centre's distance to the cone less the radius, by
// Newton's method on that convex function (exact to rounding: side, base, apex and the rim's torus
// alike). A btConeShape with its collision margin is the cone grown by the margin: pass radius = the
// sphere's radius + the margin.
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point the cone's point nearest the centre at t (on its surface); normal
// unit, from it toward the centre (the side's or the base's normal on them, between at the rim, any
// direction of the apex's normal cone there). |distance(centre(t)) - radius| is within a few roundings
// of the case's size, and t within that divided by the speed of approach (a graze: by its square root).
// A graze within that of the radius may come out a touch (at the graze) or a miss.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact, and the
// static contact: the cone's point nearest the centre and the normal from it toward the centre; for a centre
// inside the cone (or on its surface), the nearest surface point (on the side or the base) and its outward
// normal (a centre on the axis, or within a few roundings of it, nearest the side: a radial direction from
// the world axis least aligned with the cone's). A zero direction is a static overlap query: t = 0 when
// touching, else std::nullopt. Radius 0 is the ray's first hit (intersectRayCone's entry, within rounding; at
// the rim and the apex the normal may differ, both being normals there).
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius, a
// cone that is not valid (a NaN or infinite point, radius not > 0, radius^2, |base - apex|^2 or their sum not
// a normal number), and a contact beyond the range of T give std::nullopt.
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereCone(const RayPath<T>& path, T radius, const Cone<T>& target) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius) || !isValidCone(target)) return std::nullopt;
    const Vec3<T> axis = target.base - target.apex;
    const T height = std::sqrt(glm::dot(axis, axis));
    const T slant = std::sqrt(height * height + target.radius * target.radius);
    const Vec3<T> unitAxis = axis / height;
    std::optional<SphereSweepHit<T>> hit = firstTouch(
        RayPath<T>{path.origin - target.apex, path.direction, path.maxT}, radius,
        std::max(height, target.radius), [&](const Vec3<T>& offset) {
            const AxialSplit<T> split = splitAboutAxis(offset, unitAxis);
            return fromSection(split, unitAxis,
                               nearestOnConeSection(split.across, split.along, target.radius, height, slant));
        });
    if (hit) hit->point += target.apex;
    if (hit && !isFinite(hit->point)) hit.reset();
    return hit;
}

// The first contact of the moving sphere with a solid ellipsoid (center + rotation * (radii * u),
// |u| <= 1; rotation's columns orthonormal, not checked): the first root of the centre's distance to
// the ellipsoid less the radius, by Newton's method on that convex function, each distance from the
// robust one-dimensional root of Eberly's point-ellipsoid distance. The grown ellipsoid is no quadric:
// the result is exact to the bound below.
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point the ellipsoid's point nearest the centre at t (on its surface);
// normal unit, from it toward the centre (the surface's normal there). Bound: |distance(centre(t)) -
// radius| within a few roundings of the case's size (its largest coordinate or radius; tested: 64 units
// of rounding), so t within that divided by the speed of approach (a graze: by its square root). A
// graze within that of the radius may come out a touch (at the graze) or a miss.
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// and the static contact: the ellipsoid's point nearest the centre and the normal from it toward the
// centre; for a centre inside the ellipsoid (or on its surface), the nearest surface point and its
// outward normal. A zero direction is a static overlap query: t = 0 when touching, else std::nullopt.
// Radius 0 is the ray's first hit (intersectRayEllipsoid's entry, within rounding).
// Invalid input: a NaN or infinite origin, direction or radius, a negative or NaN maxT, a negative radius, an
// ellipsoid that is not valid (a NaN or infinite centre, rotation or radius, a radius not > 0, radii whose
// ratio squared overflows T: more than about 1.8e19 apart in float, 1.3e154 in double), and a contact beyond
// the range of T give std::nullopt.
template <class T> std::optional<SphereSweepHit<T>> sweepSphereEllipsoid(const RayPath<T>& path, T radius,
                                                                         const Ellipsoid<T>& target) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius) || !isValidEllipsoid(target)) return std::nullopt;
    const Mat3<T> toLocal = glm::transpose(target.rotation);
    std::optional<SphereSweepHit<T>> hit =
        firstTouch(RayPath<T>{toLocal * (path.origin - target.center), toLocal * path.direction, path.maxT},
                   radius, maxAbsComponent(target.radii),
                   [&](const Vec3<T>& local) { return nearestOnEllipsoid(target.radii, local); });
    if (hit) {
        hit->point = target.center + target.rotation * hit->point;
        hit->normal = target.rotation * hit->normal;
        if (!detail::allFinite(hit->point, hit->normal)) hit.reset();
    }
    return hit;
}

// ---- Convex polyhedra ----------------------------------------------------------------------------------

// A convex polyhedron: its face planes (unit outward normals, the solid where dot(normal, x) <= offset for
// every plane), its vertices, and its edges (pairs of indices into vertices). The planes bound the solid;
// the vertices and edges are the corners and edges of those faces. Not copied: the spans must outlive the
// call.
template <class T> struct ConvexPolyhedron {
    std::span<const Plane<T>> planes;                     // the faces' planes, normals outward
    std::span<const Vec3<T>> vertices;                    // the faces' corners
    std::span<const std::array<std::uint32_t, 2>> edges;  // indices into vertices
};

namespace detail::sphere_sweep {

// The polyhedron's surface point nearest p (for p inside: its projection on the nearest face), the normal
// from it toward p (the face's for p inside or over a face), and p's signed distance (negative inside). A
// point over a face (its projection on the face's plane within every other plane, by the tolerance) is
// nearest there; else an edge (or an edge's end: a vertex) is. Nothing for a NaN distance.
template <class T> struct PolyhedronPoint {
    Vec3<T> point;
    Vec3<T> normal;
    T distance;
};

template <class T> std::optional<PolyhedronPoint<T>> nearestOnPolyhedron(const Vec3<T>& p,
                                                                         const ConvexPolyhedron<T>& solid,
                                                                         T tolerance) {
    std::size_t deepest = 0;
    T highest = -std::numeric_limits<T>::infinity();
    for (std::size_t f = 0; f < solid.planes.size(); ++f) {
        const T s = glm::dot(solid.planes[f].normal, p) - solid.planes[f].offset;
        if (s > highest) highest = s, deepest = f;
    }
    if (!(highest <= T(0)) && !(highest > T(0))) return std::nullopt;  // NaN
    if (highest <= T(0)) {
        const Plane<T>& plane = solid.planes[deepest];
        return PolyhedronPoint<T>{p - highest * plane.normal, plane.normal, highest};
    }
    const auto within = [&](const Vec3<T>& q, std::size_t skip) {
        for (std::size_t j = 0; j < solid.planes.size(); ++j)
            if (j != skip && glm::dot(solid.planes[j].normal, q) - solid.planes[j].offset > tolerance)
                return false;
        return true;
    };
    std::optional<PolyhedronPoint<T>> best;
    for (std::size_t f = 0; f < solid.planes.size(); ++f) {
        const Plane<T>& plane = solid.planes[f];
        const T s = glm::dot(plane.normal, p) - plane.offset;
        if (!(s > T(0)) || (best && s >= best->distance)) continue;
        const Vec3<T> q = p - s * plane.normal;
        if (within(q, f)) best = PolyhedronPoint<T>{q, plane.normal, s};
    }
    for (const std::array<std::uint32_t, 2>& edge : solid.edges) {
        const std::optional<SegmentPoint<T>> nearest =
            closestPointOnSegment(p, solid.vertices[edge[0]], solid.vertices[edge[1]]);
        if (!nearest) continue;
        // Scaled where its square leaves the normal numbers (a polyhedron at 1e-21 in float): the root of a
        // subnormal square has lost its digits, and a normal divided by it its unit length. (The direction
        // only for the nearest so far: this loop runs over every edge.)
        const Vec3<T> offset = p - nearest->point;
        const T squared = glm::dot(offset, offset);
        const bool normalSquare =
            squared >= std::numeric_limits<T>::min() && squared <= std::numeric_limits<T>::max();
        const T distance = normalSquare ? std::sqrt(squared) : lengthAndDirection(offset).length;
        if (best && distance >= best->distance) continue;
        if (!(distance > T(0))) continue;
        const Vec3<T> normal =
            normalSquare ? offset * (T(1) / distance) : lengthAndDirection(offset).direction;
        best = PolyhedronPoint<T>{nearest->point, normal, distance};
    }
    return best;
}

}  // namespace detail::sphere_sweep

// The first contact of the moving sphere with a solid convex polyhedron (the polyhedron grown by the
// radius: each face moved out by it, each edge a capsule, each vertex a sphere).
// Direction: need not be unit; t is in multiples of path.direction (the centre at t is path.origin +
// t * path.direction; a displacement d over one step is the path {c0, d, 1}, and t is Bullet's hit
// fraction). maxT may be +infinity.
// Range: t in [0, path.maxT]; point on the polyhedron's surface (within 16 rounding units of the scale);
// normal unit, from the polyhedron toward the moving sphere's centre at t (a face's normal, or from an edge
// or vertex).
// Miss: std::nullopt.
// Start in contact (touching or overlapping at t = 0, also when moving away): t = 0, startsInContact,
// the polyhedron's point nearest the centre and the normal from it; for a centre inside, its projection on
// the nearest face and that face's normal. A zero direction is a static overlap query.
// Invalid input: a NaN or infinite origin, direction, radius, plane or vertex, a negative or NaN maxT, a
// negative radius, an edge index out of range, no planes, and a contact beyond the range of T give
// std::nullopt. The planes must bound the solid whose corners and edges are given (not checked).
template <class T>
std::optional<SphereSweepHit<T>> sweepSphereConvexPolyhedron(const RayPath<T>& path, T radius,
                                                             const ConvexPolyhedron<T>& solid) {
    using namespace detail::sphere_sweep;
    if (!isValidSweep(path, radius) || solid.planes.empty()) return std::nullopt;
    T scale = maxAbsComponent(path.origin) + maxAbsComponent(path.direction) + radius;
    for (const Plane<T>& plane : solid.planes) {
        if (!isFinite(plane.normal) || !std::isfinite(plane.offset)) return std::nullopt;
        scale = std::max(scale, std::abs(plane.offset));
    }
    for (const Vec3<T>& vertex : solid.vertices) {
        if (!isFinite(vertex)) return std::nullopt;
        scale = std::max(scale, maxAbsComponent(vertex));
    }
    for (const auto& edge : solid.edges)
        if (edge[0] >= solid.vertices.size() || edge[1] >= solid.vertices.size()) return std::nullopt;
    if (!std::isfinite(scale)) return std::nullopt;
    const T tolerance = 16 * unitRoundoff<T> * scale;
    const auto nearestPoint = [&](const Vec3<T>& center) {
        const std::optional<PolyhedronPoint<T>> nearest = nearestOnPolyhedron(center, solid, tolerance);
        return nearest ? nearest->point : center;
    };
    const auto contactAtStart = [&]() -> std::optional<Contact<T>> {
        const std::optional<PolyhedronPoint<T>> nearest = nearestOnPolyhedron(path.origin, solid, tolerance);
        if (!nearest || nearest->distance > radius) return std::nullopt;
        const Contact<T> contact{nearest->point, nearest->normal, radius - nearest->distance};
        // Planes that are no unit normals (garbage) can put it beyond T's range: no contact there.
        if (!detail::allFinite(contact.pointOnB, contact.normal, contact.depth)) return std::nullopt;
        return contact;
    };
    if (path.direction == Vec3<T>(0)) return hitAtStart(contactAtStart());
    if (const std::optional<Contact<T>> atStart = contactAtStart()) return hitAtStart(*atStart);
    // The earliest entry into a face's slab (the face moved out by the radius) where the sphere's point
    // nearest the face lies on the face, or into an edge's capsule.
    std::optional<GrownEntry<T>> earliest;
    for (std::size_t f = 0; f < solid.planes.size(); ++f) {
        const Plane<T>& plane = solid.planes[f];
        const T approach = glm::dot(plane.normal, path.direction);
        if (!(approach < T(0))) continue;
        const T t = (plane.offset + radius - glm::dot(plane.normal, path.origin)) / approach;
        if (!(t >= T(0) && t <= path.maxT) || (earliest && t >= earliest->contact.t)) continue;
        const Vec3<T> onFace = path.at(t) - radius * plane.normal;
        bool over = true;
        for (std::size_t j = 0; j < solid.planes.size() && over; ++j)
            over = j == f || glm::dot(solid.planes[j].normal, onFace) - solid.planes[j].offset <= tolerance;
        if (over) earliest = GrownEntry<T>{{t, onFace, plane.normal}, false};
    }
    const std::optional<GrownEntry<T>> edge =
        touchingNearest(earliestCapsuleEntryOf(path, radius, solid.edges.size(),
                                               [&](std::size_t e) {
                                                   return std::pair(solid.vertices[solid.edges[e][0]],
                                                                    solid.vertices[solid.edges[e][1]]);
                                               }),
                        path, nearestPoint);
    if (edge && !edge->startsInside && (!earliest || edge->contact.t < earliest->contact.t)) earliest = edge;
    return sweepResult(earliest, path, contactAtStart, nearestPoint, T(0));
}

}  // namespace analytic
