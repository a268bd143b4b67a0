// SPDX-License-Identifier: Zlib
// Fuzz target: the watertight ray-triangle test, one triangle and a mesh leaf's eight at once.
// Invariants: no crash or undefined behaviour; a hit has t in [0, maxT], a finite point where the ray is
// at t, on the triangle (its plane, barycentrics within rounding of [0, 1]), a unit normal, and is on
// the front when back faces are culled; the many-triangle test never rules out a triangle the single
// test hits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "analytic/geometry/ray_triangle.hpp"
#include "cast/triangle_lanes.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> Triangle<T> triangle(Input& in, const Vec3<T>* shared) {
    // Corners from the 1/8 grid make exact degeneracies; a shared corner makes neighbours.
    const auto corner = [&] {
        if (shared && in.below(4) == 0) return shared[in.below(3)];
        return in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>();
    };
    return {corner(), corner(), corner()};
}

template <class T> void checkHit(const std::optional<TriangleHit<T>>& hit, const RayPath<T>& ray,
                                 const Triangle<T>& tri, FaceCulling culling) {
    if (!hit) return;
    describeMore = [&] {
        print("origin", ray.origin);
        print("direction", ray.direction);
        print("maxT", ray.maxT);
        print("a", tri.a);
        print("b", tri.b);
        print("c", tri.c);
        print("t", hit->t);
        print("point", hit->point);
        print("normal", hit->normal);
    };
    FUZZ_CHECK(isValidRay(ray));
    FUZZ_CHECK(hit->t >= T(0) && hit->t <= ray.maxT);
    FUZZ_CHECK(finite(hit->point) && isUnit(hit->normal) && finite(hit->u) && finite(hit->v));
    if (culling == FaceCulling::BackFaces) FUZZ_CHECK(hit->frontFace);
    const Real scale = std::max({scaleOf(tri.a, tri.b, tri.c, ray.origin), magnitude(hit->point),
                                 magnitude(ray.direction) * Real(hit->t)});
    if (!Input::covered<T>(scale) || !Input::covered<T>(magnitude(ray.direction))) return;
    const RVec a = wide(tri.a), b = wide(tri.b), c = wide(tri.c), p = wide(hit->point);
    const Real tolerance = surfaceTolerance<T>(scale) +
                           magnitude(ray.direction) * Real(std::numeric_limits<T>::denorm_min()) * 4;
    FUZZ_CHECK(length(p - (wide(ray.origin) + Real(hit->t) * wide(ray.direction))) <= tolerance);
    // On the triangle: the plane, and inside its edges (each edge's distance, within the tolerance).
    const RVec normal = areaNormal(a, b, c);  // from the two shorter edges
    const Real area2 = length(normal);
    FUZZ_CHECK(area2 > 0);
    const RVec unit = normal / area2;
    FUZZ_CHECK(std::abs(glm::dot(unit, p - a)) <= tolerance);
    // t comes from the plane: at grazing incidence its rounding moves the point along the ray by the
    // tolerance over the cosine, which can carry it past an edge that the ray itself crosses inside.
    const Real cosine = std::abs(glm::dot(unit, glm::normalize(wide(ray.direction))));
    const Real alongRay = cosine > 0 ? tolerance / cosine : std::numeric_limits<Real>::infinity();
    const RVec corners[3] = {a, b, c};
    for (int edge = 0; edge < 3; ++edge) {
        const RVec from = corners[edge], to = corners[(edge + 1) % 3];
        const RVec inward = glm::cross(unit, to - from);
        const Real inwardLength = length(inward);
        if (inwardLength == 0) continue;
        // Watertight on the rounded sheared frame: a ray may hit within rounding outside an edge.
        FUZZ_CHECK(glm::dot(inward / inwardLength, p - from) >= -alongRay);
    }
}

template <class T> void run(Input& in) {
    const RayPath<T> ray = in.ray<T>();
    const int count = 1 + in.below(8);
    std::array<Triangle<T>, 8> triangles;
    for (int i = 0; i < count; ++i) {
        const Vec3<T> shared[3] = {triangles[0].a, triangles[0].b, triangles[0].c};
        triangles[std::size_t(i)] = triangle(in, i > 0 ? shared : nullptr);
    }
    const FaceCulling culling = in.flag() ? FaceCulling::BackFaces : FaceCulling::None;
    Input::note(count);
    unsigned hits = 0;
    for (int i = 0; i < count; ++i) {
        const auto hit = intersectRayTriangle(ray, triangles[std::size_t(i)], culling);
        checkHit(hit, ray, triangles[std::size_t(i)], culling);
        if (hit) hits |= 1u << i;
    }
    const auto watertight = makeWatertightRay(ray);
    if (!watertight) {
        FUZZ_CHECK(hits == 0);
        return;
    }
    const auto packed =
        cast::packTriangles(std::span<const Triangle<T>>(triangles.data(), std::size_t(count)));
    if (!packed) return;
    const unsigned mayHit = cast::trianglesRayMayHit(cast::WatertightRayLanes<T>(*watertight), *packed);
    FUZZ_CHECK((hits & ~mayHit) == 0);
    FUZZ_CHECK((mayHit >> count) == 0);
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
