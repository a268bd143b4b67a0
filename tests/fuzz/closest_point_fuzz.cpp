// SPDX-License-Identifier: Zlib
// Fuzz target: closest points (point-segment, point-triangle, point-box, segment-segment) and the sphere
// contacts. Invariants: no crash or undefined behaviour; outputs finite; parameters within [0, 1] and
// barycentrics within rounding of the triangle; the closest point is no farther than the shape's
// corners; segment-segment is symmetric in its distance; contacts have unit normals, depth >= 0 and the
// sphere's reach: the deepest point of the sphere, pointOnB - depth * normal, is radius from the centre.
#include <cstddef>
#include <cstdint>

#include "analytic/geometry/closest_point.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> Vec3<T> point(Input& in) { return in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(); }

template <class T> bool saneScale(Real scale) { return Input::covered<T>(scale) || scale == 0; }

template <class T>
void checkContact(const std::optional<Contact<T>>& contact, const Sphere<T>& sphere, Real scale) {
    if (!contact) return;
    FUZZ_CHECK(finite(contact->pointOnB) && finite(contact->normal) && finite(contact->depth));
    FUZZ_CHECK(isUnit(contact->normal));
    FUZZ_CHECK(contact->depth >= T(0));
    if (!saneScale<T>(scale)) return;
    const RVec deepest = wide(contact->pointOnB) - Real(contact->depth) * wide(contact->normal);
    FUZZ_CHECK(std::abs(length(deepest - wide(sphere.center)) - Real(sphere.radius)) <=
               surfaceTolerance<T>(scale));
}

template <class T> void run(Input& in) {
    const int query = in.below(8);
    Input::note(query);
    switch (query) {
        case 0: {
            const Vec3<T> p = point<T>(in), a = point<T>(in), b = point<T>(in);
            const auto result = closestPointOnSegment(p, a, b);
            if (!result) break;
            FUZZ_CHECK(finite(result->point) && result->s >= T(0) && result->s <= T(1));
            const Real scale = scaleOf(p, a, b);
            if (!saneScale<T>(scale)) break;
            const Real d = length(wide(result->point) - wide(p));
            FUZZ_CHECK(d <= std::min(length(wide(a) - wide(p)), length(wide(b) - wide(p))) +
                                surfaceTolerance<T>(scale));
            FUZZ_CHECK(std::abs(d - distanceToSegment(wide(p), wide(a), wide(b))) <=
                       surfaceTolerance<T>(scale));
            break;
        }
        case 1: {
            const Vec3<T> p = point<T>(in);
            const Triangle<T> triangle{point<T>(in), point<T>(in), point<T>(in)};
            const auto result = closestPointOnTriangle(p, triangle);
            if (!result) break;
            FUZZ_CHECK(finite(result->point) && finite(result->barycentric));
            const Real scale = scaleOf(p, triangle.a, triangle.b, triangle.c);
            if (!saneScale<T>(scale)) break;
            const Real tolerance = surfaceTolerance<T>(scale);
            const Real d = length(wide(result->point) - wide(p));
            for (const Vec3<T>& corner : {triangle.a, triangle.b, triangle.c})
                FUZZ_CHECK(d <= length(wide(corner) - wide(p)) + tolerance);
            FUZZ_CHECK(d <= distanceToSegment(wide(p), wide(triangle.a), wide(triangle.b)) + tolerance);
            FUZZ_CHECK(d <= distanceToSegment(wide(p), wide(triangle.b), wide(triangle.c)) + tolerance);
            FUZZ_CHECK(d <= distanceToSegment(wide(p), wide(triangle.c), wide(triangle.a)) + tolerance);
            break;
        }
        case 2: {
            const Vec3<T> p = point<T>(in);
            const Obb<T> box{point<T>(in), in.rotation<T>(), in.vec3<T>()};
            const auto result = closestPointOnObb(p, box);
            if (!result) break;
            FUZZ_CHECK(finite(result->point) && finite(result->nearestFaceNormal) &&
                       finite(result->nearestFaceDistance));
            if (!isOrthonormal(box.rotation)) break;
            const Real scale = scaleOf(p, box.center, box.halfExtents);
            if (!saneScale<T>(scale)) break;
            FUZZ_CHECK(signedDistanceToObb(wide(result->point), box) <= surfaceTolerance<T>(scale));
            if (result->inside)
                FUZZ_CHECK(isUnit(result->nearestFaceNormal) && result->nearestFaceDistance >= T(0));
            break;
        }
        case 3: {
            const Vec3<T> p0 = point<T>(in), p1 = point<T>(in), q0 = point<T>(in), q1 = point<T>(in);
            const auto pq = closestPointsSegmentSegment(p0, p1, q0, q1);
            const auto qp = closestPointsSegmentSegment(q0, q1, p0, p1);
            const Real scale = scaleOf(p0, p1, q0, q1);
            // Either order may overflow first beyond the covered magnitudes.
            if (saneScale<T>(scale)) FUZZ_CHECK(bool(pq) == bool(qp));
            if (!pq) break;
            FUZZ_CHECK(finite(pq->pointOnP) && finite(pq->pointOnQ));
            FUZZ_CHECK(pq->s >= T(0) && pq->s <= T(1) && pq->t >= T(0) && pq->t <= T(1));
            if (!saneScale<T>(scale) || !qp) break;
            // Parallel segments: a pair within length * sine of the minimum (see the header); the distance is
            // the same both ways within that and the tolerance.
            const Real d = length(wide(pq->pointOnP) - wide(pq->pointOnQ));
            const Real e = length(wide(qp->pointOnP) - wide(qp->pointOnQ));
            FUZZ_CHECK(std::abs(d - e) <= Real(1e-3) * scale + surfaceTolerance<T>(scale));
            for (const Vec3<T>& end : {p0, p1})
                FUZZ_CHECK(d <= distanceToSegment(wide(end), wide(q0), wide(q1)) + Real(1e-3) * scale +
                                    surfaceTolerance<T>(scale));
            break;
        }
        default: {
            const Sphere<T> sphere{point<T>(in), in.flag() ? in.ordinary<T>() : in.scalar<T>()};
            if (query == 4) {
                const Sphere<T> other{point<T>(in), in.scalar<T>()};
                const auto contact = sphereSphereContact(sphere, other);
                checkContact(contact, sphere,
                             scaleOf(sphere.center, sphere.radius, other.center, other.radius));
                FUZZ_CHECK(bool(contact) == bool(sphereSphereContact(other, sphere)));
            } else if (query == 5) {
                const Capsule<T> capsule{point<T>(in), point<T>(in), in.scalar<T>()};
                checkContact(sphereCapsuleContact(sphere, capsule), sphere,
                             scaleOf(sphere.center, sphere.radius, capsule.a, capsule.b, capsule.radius));
            } else if (query == 6) {
                const Obb<T> box{point<T>(in), in.rotation<T>(), in.vec3<T>()};
                const auto contact = sphereObbContact(sphere, box);
                if (contact && !isOrthonormal(box.rotation)) {
                    FUZZ_CHECK(finite(contact->pointOnB) && finite(contact->normal) &&
                               finite(contact->depth));
                    break;
                }
                checkContact(contact, sphere,
                             scaleOf(sphere.center, sphere.radius, box.center, box.halfExtents));
            } else {
                const Triangle<T> triangle{point<T>(in), point<T>(in), point<T>(in)};
                const auto contact = sphereTriangleContact(sphere, triangle);
                // The header's valid range: the triangle's fourth powers must stay normal numbers.
                const Real size = scaleOf(triangle.b - triangle.a, triangle.c - triangle.a);
                if (contact && !Input::covered<T>(size)) {
                    FUZZ_CHECK(finite(contact->contact.pointOnB) && finite(contact->contact.normal));
                    break;
                }
                checkContact(contact ? std::optional<Contact<T>>(contact->contact) : std::nullopt, sphere,
                             scaleOf(sphere.center, sphere.radius, triangle.a, triangle.b, triangle.c));
            }
            break;
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
