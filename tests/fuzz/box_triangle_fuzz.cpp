// SPDX-License-Identifier: Zlib
// Fuzz target: the box-triangle contact (separating axes, clipped points), free and along the
// triangle's normal, on every side. Invariants: no crash or undefined behaviour; outputs finite, the
// normal unit, at most 8 points each within reach; every point on the triangle (its plane and inside
// its edges, within rounding), and, overlapping, no deeper than the least overlap over the axes allows.
#include <cstddef>
#include <cstdint>

#include "analytic/geometry/box_triangle.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> void run(Input& in) {
    const Obb<T> box{in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(), in.rotation<T>(),
                     in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>()};
    const Triangle<T> triangle{in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(), in.ordinaryVec3<T>(),
                               in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>()};
    const T reach = in.flag() ? in.ordinary<T>() : in.scalar<T>();
    const TriangleSide side = TriangleSide(in.below(3));
    const bool alongNormal = in.flag();
    const auto contact = alongNormal ? collideObbTriangleAlongNormal(box, triangle, reach, side)
                                     : collideObbTriangle(box, triangle, reach, side);
    if (!contact) return;
    describeMore = [&] {
        print("box centre", box.center);
        for (int k = 0; k < 3; ++k)
            print("box axis", box.rotation[k]);
        print("half extents", box.halfExtents);
        print("a", triangle.a);
        print("b", triangle.b);
        print("c", triangle.c);
        print("reach", reach);
        print("side", int(side));
        print("along normal", alongNormal);
        print("axis", int(contact->axis));
        print("separation", contact->separation);
        print("normal", contact->normal);
        for (int i = 0; i < contact->pointCount; ++i) {
            print("point", contact->points[std::size_t(i)].onTriangle);
            print("distance", contact->points[std::size_t(i)].distance);
        }
    };
    FUZZ_CHECK(finite(contact->normal) && finite(contact->separation));
    FUZZ_CHECK(contact->pointCount >= 0 && contact->pointCount <= 8);
    for (int i = 0; i < contact->pointCount; ++i) {
        const BoxTrianglePoint<T>& point = contact->points[std::size_t(i)];
        FUZZ_CHECK(finite(point.onTriangle) && finite(point.distance));
    }
    const bool sane = isOrthonormal(box.rotation) && finite(box.center) && finite(box.halfExtents) &&
                      glm::all(glm::greaterThanEqual(box.halfExtents, Vec3<T>(0))) && finite(reach) &&
                      reach >= T(0);
    if (!sane) return;
    FUZZ_CHECK(isUnit(contact->normal));
    const Real scale = scaleOf(box.center, box.halfExtents, triangle.a, triangle.b, triangle.c, reach);
    const Real size = scaleOf(triangle.b - triangle.a, triangle.c - triangle.a);
    if (!Input::covered<T>(scale) || !Input::covered<T>(size)) return;
    // Clipping to a sliver's prism rounds as its edges' inward normals do: over the sine of its angle.
    const RVec a = wide(triangle.a), b = wide(triangle.b), c = wide(triangle.c);
    const Real longest = std::max({length(b - a), length(c - b), length(a - c)});
    const Real sine = length(glm::cross(b - a, c - a)) / (longest * longest);
    const Real tolerance = surfaceTolerance<T>(scale) / std::min(Real(1), sine);
    for (int i = 0; i < contact->pointCount; ++i) {
        const BoxTrianglePoint<T>& point = contact->points[std::size_t(i)];
        FUZZ_CHECK(Real(point.distance) <= Real(reach) + tolerance);
        FUZZ_CHECK(distanceToTriangle(wide(point.onTriangle), triangle) <= tolerance);
        // No deeper than the least overlap over the axes, and the bias an axis is taken by (2% of its own and
        // 0.1% of the box's size), allow: a deeper point is one a solver would throw the box with. (A
        // fixed side pushes the box out to that side however deep it is on the other, and the contact along
        // the normal is taken whatever the least overlap: neither is checked so.)
        const Real boxSize = Real(box.halfExtents.x) + Real(box.halfExtents.y) + Real(box.halfExtents.z);
        if (side == TriangleSide::Either && !alongNormal && contact->separation <= T(0))
            // (The bias is 2% of the deeper axis' overlap: d >= s - 0.02 |d| - 0.001 size.)
            FUZZ_CHECK(Real(point.distance) >=
                       (Real(contact->separation) - Real(1e-3) * boxSize) / Real(0.98) - tolerance);
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
