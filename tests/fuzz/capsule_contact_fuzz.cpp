// SPDX-License-Identifier: Zlib
// Fuzz target: closest points of a segment and a triangle or a box, and the capsule's contacts with a
// triangle or a box. Invariants: no crash or undefined behaviour; outputs finite, s in [0, 1], normals
// unit; the segment's point where s says, the other point on the triangle or in the box, and the pair
// no farther apart than the segment's ends are from the shape (nor the triangle's corners from the
// segment); every contact point on its triangle or box, within reach, and its point of the capsule
// (the point moved by its distance along the normal) in the capsule.
#include <cstddef>
#include <cstdint>

#include "analytic/geometry/capsule_contact.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> Vec3<T> point(Input& in) { return in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(); }

// Over the triangle's sine: projections onto a sliver round as its edges' normals do. Slivers thinner
// than a millionth have no meaningful plane: infinite (nothing is checked against them).
template <class T> Real sliverFactor(const Triangle<T>& triangle) {
    const RVec a = wide(triangle.a), b = wide(triangle.b), c = wide(triangle.c);
    const Real longest = std::max({length(b - a), length(c - b), length(a - c)});
    if (longest == 0) return 1;
    const Real sine = length(glm::cross(b - a, c - a)) / (longest * longest);
    return sine < Real(1e-6) ? std::numeric_limits<Real>::infinity() : Real(1) / sine;
}

template <class T> void run(Input& in) {
    const int query = in.below(4);
    Input::note(query);
    const Vec3<T> p0 = point<T>(in), p1 = point<T>(in);
    if (query == 0 || query == 2) {
        const Triangle<T> triangle{point<T>(in), point<T>(in), point<T>(in)};
        const Real scale = scaleOf(p0, p1, triangle.a, triangle.b, triangle.c);
        const bool covered = Input::covered<T>(scale);
        const Real tolerance = surfaceTolerance<T>(scale) * sliverFactor(triangle);
        if (query == 0) {
            const auto pair = closestPointsSegmentTriangle(p0, p1, triangle);
            if (!pair) return;
            FUZZ_CHECK(finite(pair->pointOnSegment) && finite(pair->pointOnTriangle) && finite(pair->s));
            FUZZ_CHECK(pair->s >= T(0) && pair->s <= T(1));
            if (!covered) return;
            const RVec onSegment = wide(p0) + Real(pair->s) * (wide(p1) - wide(p0));
            FUZZ_CHECK(length(onSegment - wide(pair->pointOnSegment)) <= tolerance);
            FUZZ_CHECK(distanceToTriangle(wide(pair->pointOnTriangle), triangle) <= tolerance);
            const Real d = length(wide(pair->pointOnSegment) - wide(pair->pointOnTriangle));
            FUZZ_CHECK(d <= distanceToTriangle(wide(p0), triangle) + tolerance);
            FUZZ_CHECK(d <= distanceToTriangle(wide(p1), triangle) + tolerance);
            for (const Vec3<T>& corner : {triangle.a, triangle.b, triangle.c})
                FUZZ_CHECK(d <= distanceToSegment(wide(corner), wide(p0), wide(p1)) + tolerance);
        } else {
            const Capsule<T> capsule{p0, p1, in.flag() ? in.ordinary<T>() : in.scalar<T>()};
            const T reach = in.flag() ? in.ordinary<T>() : in.scalar<T>();
            const auto contact = capsuleTriangleContact(capsule, triangle, reach, in.flag());
            if (!contact) return;
            const CapsuleContact<T>& c = contact->contact;
            FUZZ_CHECK(finite(c.normal) && c.pointCount >= 1 && c.pointCount <= 2);
            for (int i = 0; i < c.pointCount; ++i)
                FUZZ_CHECK(finite(c.points[std::size_t(i)].onB) && finite(c.points[std::size_t(i)].distance));
            FUZZ_CHECK(isUnit(c.normal));
            if (!covered || !(capsule.radius == T(0) || Input::covered<T>(capsule.radius))) return;
            const Real reachTolerance =
                tolerance + surfaceTolerance<T>(magnitude(reach) + magnitude(capsule.radius));
            for (int i = 0; i < c.pointCount; ++i) {
                const CapsulePoint<T>& p = c.points[std::size_t(i)];
                FUZZ_CHECK(distanceToTriangle(wide(p.onB), triangle) <= reachTolerance);
                if (i == 0) FUZZ_CHECK(Real(p.distance) <= Real(reach) + reachTolerance);
                const RVec onCapsule = wide(p.onB) + Real(p.distance) * wide(c.normal);
                FUZZ_CHECK(distanceToSegment(onCapsule, wide(capsule.a), wide(capsule.b)) <=
                           Real(capsule.radius) + reachTolerance);
            }
        }
        return;
    }
    const Obb<T> box{point<T>(in), in.rotation<T>(), in.vec3<T>()};
    const bool properBox = isOrthonormal(box.rotation);
    const Real scale = scaleOf(p0, p1, box.center, box.halfExtents);
    const bool covered = properBox && Input::covered<T>(scale);
    const Real tolerance = surfaceTolerance<T>(scale);
    if (query == 1) {
        const auto pair = closestPointsSegmentObb(p0, p1, box);
        if (!pair) return;
        FUZZ_CHECK(finite(pair->pointOnSegment) && finite(pair->pointOnBox) && finite(pair->s));
        FUZZ_CHECK(pair->s >= T(0) && pair->s <= T(1));
        if (!covered) return;
        FUZZ_CHECK(signedDistanceToObb(wide(pair->pointOnBox), box) <= tolerance);
        const Real d = length(wide(pair->pointOnSegment) - wide(pair->pointOnBox));
        FUZZ_CHECK(d <= std::max(Real(0), signedDistanceToObb(wide(p0), box)) + tolerance);
        FUZZ_CHECK(d <= std::max(Real(0), signedDistanceToObb(wide(p1), box)) + tolerance);
        if (pair->inside) FUZZ_CHECK(signedDistanceToObb(wide(pair->pointOnSegment), box) <= tolerance);
    } else {
        const Capsule<T> capsule{p0, p1, in.flag() ? in.ordinary<T>() : in.scalar<T>()};
        const T reach = in.flag() ? in.ordinary<T>() : in.scalar<T>();
        const auto contact = capsuleObbContact(capsule, box, reach);
        if (!contact) return;
        FUZZ_CHECK(finite(contact->normal) && contact->pointCount >= 1 && contact->pointCount <= 2);
        for (int i = 0; i < contact->pointCount; ++i)
            FUZZ_CHECK(finite(contact->points[std::size_t(i)].onB) &&
                       finite(contact->points[std::size_t(i)].distance));
        if (!covered || !(capsule.radius == T(0) || Input::covered<T>(capsule.radius))) return;
        FUZZ_CHECK(isUnit(contact->normal));
        const Real reachTolerance =
            tolerance + surfaceTolerance<T>(magnitude(reach) + magnitude(capsule.radius));
        for (int i = 0; i < contact->pointCount; ++i) {
            const CapsulePoint<T>& p = contact->points[std::size_t(i)];
            FUZZ_CHECK(std::abs(signedDistanceToObb(wide(p.onB), box)) <= reachTolerance);
            if (i == 0) FUZZ_CHECK(Real(p.distance) <= Real(reach) + reachTolerance);
            const RVec onCapsule = wide(p.onB) + Real(p.distance) * wide(contact->normal);
            FUZZ_CHECK(distanceToSegment(onCapsule, wide(capsule.a), wide(capsule.b)) <=
                       Real(capsule.radius) + reachTolerance);
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
