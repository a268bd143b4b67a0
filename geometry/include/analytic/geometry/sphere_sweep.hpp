// SPDX-License-Identifier: Zlib
// Swept (moving) sphere against static targets: the first time of impact, exactly: the moving sphere
// against a plane, generalised to spheres, capsules, boxes and triangles. Each sweep is the ray test of
// the centre's path against the target grown by the sphere's radius (their Minkowski sum): a sphere
// grows into a sphere, a capsule into a capsule, a box into a rounded box, a triangle into a rounded
// slab. Nothing is padded along the velocity: the result is exact up to rounding. A sphere already in
// contact at the start gets the static contact of closest_point.hpp or plane_tests.hpp. Each function
// states its contract; none outputs a NaN.
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
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
// from[i] - to[i], i < count; or that it starts inside one of them.
template <class T> std::optional<GrownEntry<T>> earliestCapsuleEntry(const RayPath<T>& path, T radius,
                                                                     const Vec3<T>* from, const Vec3<T>* to,
                                                                     int count) {
    std::optional<GrownEntry<T>> earliest;
    for (int i = 0; i < count; ++i) {
        const std::optional<RaySolidHit<T>> crossing =
            intersectRayCapsule(path, Capsule<T>{from[i], to[i], radius});
        if (!crossing) continue;
        if (crossing->originInside) return grownEntry(*crossing, radius);
        if (!earliest || crossing->entry.t < earliest->contact.t) earliest = grownEntry(*crossing, radius);
    }
    return earliest;
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
        if (height <= radius) {
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

// ---- Convex polyhedra ----------------------------------------------------------------------------------

// A convex polyhedron: its face planes (unit outward normals, the solid where dot(normal, x) <= offset for
// every plane), its vertices, and its edges (pairs of indices into vertices). The planes bound the solid;
// the vertices and edges are the corners and edges of those faces. Not copied: the spans must outlive the
// call.
template <class T> struct ConvexPolyhedron {
    std::span<const Plane<T>> planes;
    std::span<const Vec3<T>> vertices;
    std::span<const std::array<std::uint32_t, 2>> edges;
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
        const Vec3<T> offset = p - nearest->point;
        const T distance = glm::length(offset);
        if (best && distance >= best->distance) continue;
        if (!(distance > T(0))) continue;
        best = PolyhedronPoint<T>{nearest->point, offset / distance, distance};
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
        return Contact<T>{nearest->point, nearest->normal, radius - nearest->distance};
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
    std::vector<Vec3<T>> from(solid.edges.size()), to(solid.edges.size());
    for (std::size_t e = 0; e < solid.edges.size(); ++e) {
        from[e] = solid.vertices[solid.edges[e][0]];
        to[e] = solid.vertices[solid.edges[e][1]];
    }
    const std::optional<GrownEntry<T>> edge = touchingNearest(
        earliestCapsuleEntry(path, radius, from.data(), to.data(), int(from.size())), path, nearestPoint);
    if (edge && !edge->startsInside && (!earliest || edge->contact.t < earliest->contact.t)) earliest = edge;
    return sweepResult(earliest, path, contactAtStart, nearestPoint, T(0));
}

}  // namespace analytic
