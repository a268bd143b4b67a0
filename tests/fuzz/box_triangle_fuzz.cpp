// SPDX-License-Identifier: Zlib
// Fuzz target: the box-triangle contact (separating axes, clipped points), free and along the
// triangle's normal, on every side. Invariants: no crash or undefined behaviour; outputs finite, the
// normal unit, at most 8 points each within reach; every point on the triangle (its plane and inside
// its edges, within rounding), and where it overlaps, its point of the box (the point moved by its
// distance along the normal) on or in the box, up to rounding.
#include <cstddef>
#include <cstdint>

#include "analytic/geometry/box_triangle.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> Real distanceToTriangle(const RVec& p, const Triangle<T>& triangle) {
    const RVec a = wide(triangle.a), b = wide(triangle.b), c = wide(triangle.c);
    Real best =
        std::min({distanceToSegment(p, a, b), distanceToSegment(p, b, c), distanceToSegment(p, c, a)});
    const RVec normal = glm::cross(b - a, c - a);
    const Real area = length(normal);
    if (area > 0) {
        const RVec unit = normal / area;
        const RVec projected = p - glm::dot(unit, p - a) * unit;
        if (glm::dot(glm::cross(b - a, projected - a), unit) >= 0 &&
            glm::dot(glm::cross(c - b, projected - b), unit) >= 0 &&
            glm::dot(glm::cross(a - c, projected - c), unit) >= 0)
            best = std::min(best, std::abs(glm::dot(unit, p - a)));
    }
    return best;
}

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
    // A box flat on some axis (a face or a segment) has faces whose clipping finds nothing: its contact
    // falls back to the deepest corner at the depth along the taken axis, not a point of the box.
    const bool solidBox =
        Input::covered<T>(std::min({box.halfExtents.x, box.halfExtents.y, box.halfExtents.z}));
    const Real tolerance = surfaceTolerance<T>(scale);
    for (int i = 0; i < contact->pointCount; ++i) {
        const BoxTrianglePoint<T>& point = contact->points[std::size_t(i)];
        FUZZ_CHECK(Real(point.distance) <= Real(reach) + tolerance);
        FUZZ_CHECK(distanceToTriangle(wide(point.onTriangle), triangle) <= tolerance);
        // The box's point that the contact pairs with: onTriangle + distance * normal lies on the box's
        // surface (or inside it, for points clipped from the triangle against a face).
        const RVec onBox = wide(point.onTriangle) + Real(point.distance) * wide(contact->normal);
        // (Apart, a fallback point's distance is the corner's to it, along another direction than the
        // normal: only overlapping points are the box's.)
        // An edge pair's points are its edges' closest points, which clamped to an end (a deep vertex)
        // differ by more than the normal: only face axes' points are checked so.
        if (solidBox && point.distance <= T(0) && contact->axis != BoxTriangleAxis::EdgePair)
            FUZZ_CHECK(signedDistanceToObb(onBox, box) <= tolerance);
    }
}

}  // namespace
}  // namespace analytic::fuzz

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    analytic::fuzz::Input in(data, size);
    analytic::fuzz::describeMore = nullptr;
    if (in.flag())
        analytic::fuzz::run<double>(in);
    else
        analytic::fuzz::run<float>(in);
    return 0;
}
