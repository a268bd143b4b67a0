// SPDX-License-Identifier: Zlib
// Ray against triangle. Whether the ray meets the triangle is decided watertight (Woop, Benthin, Wald,
// "Watertight Ray/Triangle Intersection", JCGT 2(1), 2013): the ray is made the +z axis of a sheared
// frame and each edge contributes a 2D edge function of its two sheared end points, computed so that an
// edge shared by two triangles gives exactly opposite values in both. Where it meets it (t) comes from
// the triangle's plane, whose normal is computed from the two shortest edges.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

// Where a ray crosses a triangle: intersectRayTriangle's answer.
template <class T> struct TriangleHit {
    T t;             // along the ray, in multiples of its direction
    T u;             // point = (1 - u - v) a + u b + v c
    T v;             // see u
    Vec3<T> point;   // on the triangle
    Vec3<T> normal;  // unit, geometric normal (b - a) x (c - a), not flipped towards the ray
    bool frontFace;  // the ray comes from the side the normal points to (sign of the watertight determinant)
};

// A ray prepared once for testing against many triangles (a mesh ray cast): the axis permutation and
// the shear that make the ray the +z axis of a sheared frame.
template <class T> struct WatertightRay {
    Vec3<T> origin;     // the ray's
    Vec3<T> direction;  // the ray's
    T maxT;             // a traversal may shrink it to the closest hit found so far
    int kx;    // kz is the dominant axis of the direction; kx, ky the others, ordered to keep the winding
    int ky;    // see kx
    int kz;    // see kx
    T shearX;  // the shear making the direction the +z axis
    T shearY;  // see shearX
};

namespace detail {

// Products of T in a type that holds them exactly (float) or, where long double is wider than double
// (x86), with 11 more bits (double).
template <class T> using WiderThan = std::conditional_t<std::is_same_v<T, float>, double, long double>;

// Twice the signed area of the sheared triangle (origin, p, q): px qy - py qx. Antisymmetric to the
// last bit (edgeFunction(q, p) == -edgeFunction(p, q)), which is what makes shared edges watertight.
// The products are separate statements so that no compiler fuses one into an FMA.
template <class T> T edgeFunction(T px, T py, T qx, T qy) {
    const T pxqy = px * qy;
    const T pyqx = py * qx;
    const T value = pxqy - pyqx;
    if (value != T(0)) return value;
    // Zero may be an artefact of rounding the products; the wider products decide. Their difference
    // can lie below T's smallest subnormal (sheared coordinates near 1e-324 in double): it keeps its
    // sign as that smallest value, or a point beside a sliver would count as on its edge.
    using Wide = WiderThan<T>;
    const Wide widePxqy = Wide(px) * Wide(qy);
    const Wide widePyqx = Wide(py) * Wide(qx);
    const Wide wide = widePxqy - widePyqx;
    const T narrowed = T(wide);
    if (narrowed == T(0) && wide != Wide(0))
        return std::copysign(std::numeric_limits<T>::denorm_min(), T(wide > Wide(0) ? 1 : -1));
    return narrowed;
}

// A vertex in the sheared frame where the ray is the +z axis: its coordinates across the ray.
template <class T> struct ShearedVertex {
    T x;
    T y;
};

// v[axis] as selects (glm's operator[] is a switch). For the many triangles of one ray, where the axis
// does not change.
template <class T> T component(const Vec3<T>& v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

template <class T> ShearedVertex<T> shearVertex(const WatertightRay<T>& ray, const Vec3<T>& vertex) {
    const Vec3<T> relative = vertex - ray.origin;
    const T along = component(relative, ray.kz);
    return {component(relative, ray.kx) - ray.shearX * along,
            component(relative, ray.ky) - ray.shearY * along};
}

// The ray lies in the triangle's plane within rounding: approach = normal . direction and height =
// normal . (corner - origin) are both within their rounding bounds of 0. A dot product of the computed
// normal with a vector w is off by less than 48 u |edge1| |edge2| |w| (each normal component by 8 u
// |edge1| |edge2|: two products of rounded edges and a difference); the bound takes twice that. It is
// relative, so no scale is special.
template <class T> constexpr T planeRoundingBound = 96 * unitRoundoff<T>;

template <class T> bool liesInPlane(const TriangleFrame<T>& frame, T approach, T height,
                                    const WatertightRay<T>& ray, const Vec3<T>& toCorner) {
    const T bound = planeRoundingBound<T> * frame.edgeProductNorm;
    return std::abs(approach) <= bound * maxAbsComponent(ray.direction) &&
           std::abs(height) <= bound * maxAbsComponent(toCorner);
}

// The sheared frame's axes: kz the direction's dominant axis, kx and ky the others in cyclic order,
// swapped for a negative dominant component (which keeps the frame right-handed, so a front face has a
// positive determinant whatever the direction).
struct WatertightAxes {
    std::uint8_t kx, ky, kz;
};

// The axes for every outcome of the comparisons watertightRayOf makes: bit 0 |x| >= |y|, bit 1
// |x| >= |z|, bit 2 |y| >= |z|, bits 3 to 5 whether x, y and z are negative.
inline constexpr std::array<WatertightAxes, 64> watertightAxes = [] {
    std::array<WatertightAxes, 64> table{};
    for (unsigned outcome = 0; outcome < 64; ++outcome) {
        const bool xOverY = outcome & 1, xOverZ = outcome >> 1 & 1, yOverZ = outcome >> 2 & 1;
        const int kz = xOverY ? (xOverZ ? 0 : 2) : (yOverZ ? 1 : 2);
        int kx = (kz + 1) % 3, ky = (kx + 1) % 3;
        if (outcome >> (3 + kz) & 1) std::swap(kx, ky);
        table[outcome] = {std::uint8_t(kx), std::uint8_t(ky), std::uint8_t(kz)};
    }
    return table;
}();

// The hit of a line that crosses the triangle (its edge functions share a sign, their sum nonzero), where
// the triangle's plane puts it along the ray; nothing for a degenerate triangle, or where that lies
// outside [0, maxT], the ray lies in the plane within rounding, or the point overflows.
template <class T>
[[gnu::always_inline]] inline std::optional<TriangleHit<T>> planeHit(const WatertightRay<T>& ray,
                                                                     const Triangle<T>& triangle,
                                                                     const TriangleFrame<T>& frame, T weightB,
                                                                     T weightC, T determinant) {
    const Vec3<T> toCorner = detail::vertexOf(triangle, frame.corner) - ray.origin;
    const T approach = glm::dot(frame.normal, ray.direction);
    const T height = glm::dot(frame.normal, toCorner);
    const T t = height / approach;
    // An approach that overflowed (a long ray) would make t 0 whatever the height.
    if (!(std::isfinite(t) && std::isfinite(approach) && t >= T(0) && t <= ray.maxT)) return std::nullopt;
    // Decided after t: most crossings a mesh cast tests lie beyond its closest hit so far.
    if (frame.degenerate || detail::liesInPlane(frame, approach, height, ray, toCorner)) return std::nullopt;
    const T inverseDeterminant = T(1) / determinant;
    // A determinant whose reciprocal overflows (a triangle whose sheared products are subnormal): the
    // weights divided by it instead, each quotient at most 1.
    const bool smallDeterminant = !std::isfinite(inverseDeterminant);
    // A triangle reaching to the largest value can be met where the point overflows.
    const Vec3<T> point = ray.origin + t * ray.direction;
    if (!isFinite(point)) return std::nullopt;
    return TriangleHit<T>{t,
                          smallDeterminant ? weightB / determinant : weightB * inverseDeterminant,
                          smallDeterminant ? weightC / determinant : weightC * inverseDeterminant,
                          point,
                          unitVector(frame.normal),
                          determinant > T(0)};
}

// planeHit for a triangle whose frame is decided on its edges scaled (triangleFrame's rare path).
template <class T> [[gnu::noinline, gnu::cold]] std::optional<TriangleHit<T>> scaledTriangleHit(
    const WatertightRay<T>& ray, const Triangle<T>& triangle, T weightB, T weightC, T determinant) {
    return planeHit(ray, triangle, triangleFrame(triangle), weightB, weightC, determinant);
}

}  // namespace detail

// The ray prepared for many triangle tests: the direction's dominant axis kz, the other two kx and ky
// (ordered to keep the winding) and the shear that makes the direction the +z axis. Origin, direction and
// maxT as given: t keeps its meaning (multiples of the direction, which need not be unit). Not checked:
// the ray must be valid (isValidRay); for another, what the triangle tests answer is unspecified.
// makeWatertightRay checks.
// Made in the caller's variable: one copied out of an optional just made waits on the copy (a
// store-forwarding stall). The axes come from a table indexed by the direction's comparisons, with no
// branch on them (rays in random directions mispredict nested choices; std::abs is a mask where glm::abs
// is a branch per component).
template <class T> WatertightRay<T> watertightRayOf(const RayPath<T>& ray) {
    const T direction[3] = {ray.direction.x, ray.direction.y, ray.direction.z};
    const T x = std::abs(direction[0]), y = std::abs(direction[1]), z = std::abs(direction[2]);
    const unsigned outcome = unsigned(x >= y) | unsigned(x >= z) << 1 | unsigned(y >= z) << 2 |
                             unsigned(direction[0] < T(0)) << 3 | unsigned(direction[1] < T(0)) << 4 |
                             unsigned(direction[2] < T(0)) << 5;
    const detail::WatertightAxes axes = detail::watertightAxes[outcome];
    const T dz = direction[axes.kz];
    return {ray.origin,
            ray.direction,
            ray.maxT,
            axes.kx,
            axes.ky,
            axes.kz,
            direction[axes.kx] / dz,
            direction[axes.ky] / dz};
}

// The ray prepared as watertightRayOf does, or nullopt for a ray isValidRay rejects: a NaN or an infinity
// in origin or direction, a zero direction, maxT < 0 or NaN (+infinity is fine).
template <class T> std::optional<WatertightRay<T>> makeWatertightRay(const RayPath<T>& ray) {
    if (!isValidRay(ray)) return std::nullopt;
    return watertightRayOf(ray);
}

// Where the prepared ray meets the triangle (the many-triangle form: the per-ray setup is in
// makeWatertightRay): t; the barycentric u and v of the point, (1 - u - v) a + u b + v c, with u, v >= 0
// and u + v <= 1 within rounding; point = origin + t * direction; the unit geometric normal
// (b - a) x (c - a), not flipped towards the ray; frontFace, whether the ray comes from the side the
// normal points to.
// Direction: need not be unit; t is in multiples of it.   Range: t in [0, ray.maxT], both ends included.
// Miss: nullopt; with FaceCulling::BackFaces, so is a hit from the back (frontFace false).
// Start on the triangle (it has no inside): an origin in its plane within it gets t = 0, or a miss where
// t rounds below 0.
// No hit (nullopt) also for: a ray lying in the triangle's plane (within rounding); a degenerate triangle
// (triangle.hpp: the sine of its smallest angle below 16 unit roundoffs, so a point, a segment or a
// needle, decided at any scale); a NaN or an infinity in a vertex; arithmetic
// that overflows (coordinates or a ray so large that the sheared products, the plane's approach or the
// point pass the largest finite value). The ray is not checked (make it with makeWatertightRay).
// Watertight, for triangles that share vertices bit for bit:
// - The sign of each edge function is the exact orientation of the sheared (rounded) vertex positions:
//   round to nearest is monotonic, so a difference of rounded products never has the wrong sign; when
//   it is 0 the products are redone in a wider type (exact for float; for double the long double
//   products can still round to 0, and a 0 counts as "on the edge", inside for both neighbours).
// - So, seen along the ray, the triangles of a mesh tile the plane without gaps: a ray through a
//   shared edge or vertex hits AT LEAST ONE of the triangles around it, never neither. Two triangles on
//   either side of an edge are both hit only when the ray passes exactly through the edge in the
//   sheared coordinates (edge function 0); a ray exactly through a vertex hits all triangles around it.
// - Limits: the t-range test (0 <= t <= maxT) is done per triangle, so within rounding of t = 0 or
//   t = maxT neighbours may disagree; a ray lying in a triangle's plane (within rounding) is no hit for
//   that triangle, so a ray skimming along a surface can slip through an edge; a degenerate triangle
//   is no hit, so a mesh with degenerate triangles can leak through them, across at most 16 unit
//   roundoffs of their length.
// These need the products and differences rounded as written: do not compile with -ffast-math or
// -ffp-contract=fast (FMA contraction would break the antisymmetry).
template <class T>
std::optional<TriangleHit<T>> intersectRayTriangle(const WatertightRay<T>& ray, const Triangle<T>& triangle,
                                                   FaceCulling culling = FaceCulling::None) {
    using detail::edgeFunction;
    const detail::ShearedVertex<T> a = detail::shearVertex(ray, triangle.a);
    const detail::ShearedVertex<T> b = detail::shearVertex(ray, triangle.b);
    const detail::ShearedVertex<T> c = detail::shearVertex(ray, triangle.c);
    // Edge functions of the edges opposite a, b and c: the unnormalised barycentric weights.
    const T weightA = edgeFunction(c.x, c.y, b.x, b.y);
    const T weightB = edgeFunction(a.x, a.y, c.x, c.y);
    const T weightC = edgeFunction(b.x, b.y, a.x, a.y);
    const bool anyNegative = weightA < T(0) || weightB < T(0) || weightC < T(0);
    const bool anyPositive = weightA > T(0) || weightB > T(0) || weightC > T(0);
    if (anyNegative && (anyPositive || culling == FaceCulling::BackFaces)) return std::nullopt;
    // The weights share a sign, so the sum is 0 only when all are: the line meets the triangle edge-on.
    // A sum not finite (NaN or infinite) comes from non-finite input or from sheared coordinates whose
    // products overflowed (coordinates near the largest value): their signs then say nothing, no hit.
    const T determinant = weightA + weightB + weightC;
    if (determinant == T(0) || !std::isfinite(determinant)) return std::nullopt;

    // The line crosses the triangle (this path is off the many misses of a mesh ray cast). t comes from
    // the plane through the accurate normal rather than from interpolating the sheared vertices' depths
    // with the weights: those lose accuracy on thin triangles, the plane does not.
    const TriangleFrame<T> frame = faceFrame(triangle);
    // A triangle too small or large for its squares decided on its edges scaled, out of line (its frame
    // returned from a call would pass through memory on the common path too).
    if (frame.scaled) [[unlikely]]
        return detail::scaledTriangleHit(ray, triangle, weightB, weightC, determinant);
    return detail::planeHit(ray, triangle, frame, weightB, weightC, determinant);
}

// intersectRayTriangle for an unprepared ray, the same answers; a ray isValidRay rejects (a NaN or an
// infinity in origin or direction, a zero direction, maxT < 0 or NaN) gets nullopt.
template <class T>
std::optional<TriangleHit<T>> intersectRayTriangle(const RayPath<T>& ray, const Triangle<T>& triangle,
                                                   FaceCulling culling = FaceCulling::None) {
    if (!isValidRay(ray)) return std::nullopt;
    return intersectRayTriangle(watertightRayOf(ray), triangle, culling);
}

}  // namespace analytic
