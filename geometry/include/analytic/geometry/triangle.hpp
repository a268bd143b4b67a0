// SPDX-License-Identifier: Zlib
// A triangle's normal, and when a triangle is degenerate: the one definition that every test of the core
// (rays, closest points, contacts, box against triangle, plane cuts, sweeps) uses.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

#include "analytic/geometry/numeric.hpp"

namespace analytic {

// A normal computed as the cross product of two edges is known to about unitRoundoff / sin(angle between
// them), and which side of an edge a point lies on to about unitRoundoff / sin(smallest angle). A triangle
// is degenerate when the sine of its smallest angle is below this: a segment, a point, or a needle
// thinner than the rounding of its coordinates, whose face rounding cannot tell from its edges. Its
// neighbours in a mesh share its edges, so a degenerate triangle adds nothing they do not cover to within
// this fraction of its longest edge.
template <class T> constexpr T degenerateTriangleSine = 16 * unitRoundoff<T>;

// A triangle's normal and whether it is degenerate.
template <class T> struct TriangleFrame {
    // The cross product of the two shortest edges, at the vertex where they meet (the largest angle: the
    // most accurate choice), oriented as (b - a) x (c - a). Not normalised.
    Vec3<T> normal;
    T normalSquared;  // |normal|^2
    int corner;       // that vertex: 0 (a), 1 (b) or 2 (c)
    // The normal's rounding scale: the product of the largest components of the two edges crossed.
    T edgeProductNorm;
    // The sine of the smallest angle is below degenerateTriangleSine (decided at every finite scale), or a
    // vertex is not finite, or the edges overflow.
    bool degenerate;
    // The edges' squares or their products leave the normal numbers (edges under about 3e-7 or over 1e9 in
    // float; under 1e-70 or over 1e76 in double): the normal is then that of the edges multiplied by a
    // power of two, a direction only, and tests that divide by squared lengths cannot use the face.
    bool scaled;

    // A face that closest-point and contact tests can use (they divide by the normal's square): neither
    // degenerate nor scaled. The others are met at their edges, or not at all.
    bool hasFace() const { return !degenerate && !scaled; }
};

namespace detail {

constexpr int nextVertex(int vertex) { return vertex == 2 ? 0 : vertex + 1; }
constexpr int previousVertex(int vertex) { return vertex == 0 ? 2 : vertex - 1; }

// Vertex i (a, b, c). Where an edge or offset is wanted by index, it is recomputed from the vertices
// selected here, never read from an array of computed vectors: such an array lives in memory, where
// reading back what was just stored waits on store forwarding.
template <class T> inline const Vec3<T>& vertexOf(const Triangle<T>& triangle, int vertex) {
    return vertex == 0 ? triangle.a : vertex == 1 ? triangle.b : triangle.c;
}

// The frame from the triangle's edges ab = b - a, bc = c - b and ca = a - c, as faceFrame says.
template <class T> [[gnu::always_inline]] inline TriangleFrame<T> frameOfEdges(const Vec3<T>& ab,
                                                                               const Vec3<T>& bc,
                                                                               const Vec3<T>& ca) {
    const T abSquared = glm::dot(ab, ab), bcSquared = glm::dot(bc, bc), caSquared = glm::dot(ca, ca);
    const T pairAtA = caSquared * abSquared, pairAtB = abSquared * bcSquared, pairAtC = bcSquared * caSquared;
    // The edges into and out of the corner, taken from those computed (selecting vertices by the corner's
    // index to subtract them again costs a data-dependent choice per vertex).
    int corner = 0;
    Vec3<T> first = ca, second = ab;
    if (pairAtB <= pairAtA && pairAtB <= pairAtC) {
        corner = 1;
        first = ab;
        second = bc;
    } else if (pairAtC <= pairAtA) {
        corner = 2;
        first = bc;
        second = ca;
    }
    const T sine = degenerateTriangleSine<T>;
    // The largest pair is that of the two longest edges, which meet at the smallest angle.
    const T largestPair = std::max({pairAtA, pairAtB, pairAtC});
    const T areaBound = sine * sine * largestPair;
    TriangleFrame<T> frame;
    frame.normal = glm::cross(first, second);
    frame.normalSquared = glm::dot(frame.normal, frame.normal);
    frame.corner = corner;
    frame.edgeProductNorm = maxAbsComponent(first) * maxAbsComponent(second);
    frame.scaled =
        !(areaBound >= std::numeric_limits<T>::min() && largestPair <= std::numeric_limits<T>::max());
    frame.degenerate = frame.scaled || !(frame.normalSquared > areaBound);
    return frame;
}

// The frame of a triangle whose squares leave the normal numbers, decided on its edges multiplied by a
// power of two (exactly), which changes the normal's length, not its direction, nor any angle. Rare: kept
// out of the common path's code.
template <class T>
[[gnu::noinline, gnu::cold]] TriangleFrame<T> scaledTriangleFrame(const Triangle<T>& triangle) {
    Vec3<T> edges[3] = {triangle.b - triangle.a, triangle.c - triangle.b, triangle.a - triangle.c};
    const T longest =
        std::max({maxAbsComponent(edges[0]), maxAbsComponent(edges[1]), maxAbsComponent(edges[2])});
    const bool finiteAndApart = longest <= std::numeric_limits<T>::max() && longest != T(0);
    if (finiteAndApart) {
        const int exponent = -std::ilogb(longest);
        for (Vec3<T>& edge : edges)
            edge = {std::ldexp(edge.x, exponent), std::ldexp(edge.y, exponent), std::ldexp(edge.z, exponent)};
    }
    // With the longest edge's largest component in [1, 2), a range check that still fails is that of
    // edges shorter than its rounding: a degenerate triangle.
    TriangleFrame<T> frame = frameOfEdges(edges[0], edges[1], edges[2]);
    frame.scaled = true;
    frame.degenerate = frame.degenerate || !finiteAndApart;  // a vertex not finite, overflow, or one point
    return frame;
}

}  // namespace detail

// The frame as far as the squares of the edges decide it, for the tests that need only a usable face
// (they divide by the normal's square): hasFace() is exact. A triangle whose squares leave the normal
// numbers is scaled, and its degenerate flag left undecided (set): its face is unusable either way. Never
// calls out of line: it costs what the face tests' own arithmetic did. Any input.
template <class T> [[gnu::always_inline]] inline TriangleFrame<T> faceFrame(const Triangle<T>& triangle) {
    return detail::frameOfEdges(triangle.b - triangle.a, triangle.c - triangle.b, triangle.a - triangle.c);
}

// The triangle's normal and whether it is degenerate (see TriangleFrame), decided at every finite scale.
// Any input: a vertex that is not finite gives a degenerate frame whose normal may be NaN.
template <class T> [[gnu::always_inline]] inline TriangleFrame<T> triangleFrame(const Triangle<T>& triangle) {
    const TriangleFrame<T> frame = faceFrame(triangle);
    if (frame.scaled) [[unlikely]]
        return detail::scaledTriangleFrame(triangle);
    return frame;
}

}  // namespace analytic
