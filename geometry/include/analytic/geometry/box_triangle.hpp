// SPDX-License-Identifier: Zlib
// Oriented box against triangle: the contact by the separating-axis test, with up to 8 contact points
// each with its own distance.
//
// Axes: the triangle's normal, the box's 3 face normals and the 9 cross products of a box axis with a
// triangle edge (skipped when nearly parallel: such an axis is known only to the rounding of the edge
// over the sine, and the face axes bound the separation there). The separation along an axis is the gap
// between the two projections; the largest over the axes is the penetration depth when negative (the
// least push that separates them), a lower bound of the distance when positive (then the shapes are
// apart). The contact takes the axis of least penetration, with a bias: a box face must beat the
// triangle's normal, and an edge pair the best face, by 2% of the depth plus 0.1% of the size (or
// separate the shapes where the other does not), so resting and sliding contacts keep a steady face
// normal instead of flipping between nearly equal axes. Points, with the normal n from the triangle
// toward the box:
//   - the triangle's normal: the box face most opposed to n, clipped to the triangle's prism
//     (Sutherland-Hodgman), each point's distance to the triangle's plane;
//   - a box face: the triangle clipped to the sides of that face, each point's distance to it;
//   - an edge pair: the closest points of the two edges, at the separation (apart: at their distance).
// Points farther than reach are left out; a pair apart by more than reach along an axis (either way)
// gives nothing. An axis whose clipping leaves nothing gives way to the triangle's normal; when that
// leaves nothing too, the box's deepest corner and its nearest point of the triangle stand for the
// contact. The triangle is taken into the box's frame (offsets from the box's centre), where the box's
// axes are exact.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>

#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/triangle.hpp"

namespace analytic {

// The side of a triangle that may push a box out (collideObbTriangle's side): either, or only the front
// (the side (b - a) x (c - a) points to), or only the back.
enum class TriangleSide : std::uint8_t { Either, Front, Back };

// The axis a box-triangle contact is taken along: the triangle's normal, a box face's normal, or the
// cross product of a box edge and a triangle edge.
enum class BoxTriangleAxis : std::uint8_t { TriangleFace, BoxFace, EdgePair };

// A contact point of a box with a triangle: on the triangle, with its distance along the contact's normal.
template <class T> struct BoxTrianglePoint {
    Vec3<T> onTriangle;  // the point, on the triangle
    T distance;          // along the contact's normal, negative when they overlap
};

// collideObbTriangle's and collideObbTriangleAlongNormal's answer: the points are points[0, pointCount).
template <class T> struct BoxTriangleContact {
    Vec3<T> normal;  // unit, from the triangle toward the box
    // The largest over the axes (not only the chosen one's), of the gaps to the side the triangle may
    // push to.
    T separation;
    BoxTriangleAxis axis;  // the axis the contact is taken along
    // Which of the triangle's features faces the box along normal: its vertices within 1% of its
    // longest edge of the nearest to the box (all three for the triangle's own axis).
    TriangleFeature feature;
    std::array<BoxTrianglePoint<T>, 8> points;  // points[0, pointCount)
    int pointCount;                             // 1 to 8
};

namespace detail::box_triangle {

template <class T> constexpr T biasRelative = T(0.02);
template <class T> constexpr T biasOfSize = T(1e-3);
template <class T> constexpr T featureTolerance = T(0.01);

template <class T> struct Polygon {
    std::array<Vec3<T>, 8> vertices;
    int count = 0;
};

// Into kept, the part of the polygon where dot(inward, x) >= offset.
// The count is kept in a local: through the reference, every write of a vertex would reload it.
template <class T> void clip(const Polygon<T>& polygon, const Vec3<T>& inward, T offset, Polygon<T>& kept) {
    int count = 0;
    if (polygon.count > 0) {
        int from = polygon.count - 1;
        T fromInside = glm::dot(inward, polygon.vertices[from]) - offset;
        for (int to = 0; to < polygon.count; from = to++) {
            const T toInside = glm::dot(inward, polygon.vertices[to]) - offset;
            if ((fromInside >= T(0)) != (toInside >= T(0))) {
                const Vec3<T>& start = polygon.vertices[from];
                kept.vertices[count++] =
                    start + (polygon.vertices[to] - start) * (fromInside / (fromInside - toInside));
            }
            if (toInside >= T(0)) kept.vertices[count++] = polygon.vertices[to];
            fromInside = toInside;
        }
    }
    kept.count = count;
}

// A candidate axis and its separation: normal (unit, in the box's frame) from the triangle toward the box.
template <class T> struct AxisGap {
    Vec3<T> normal;
    T separation;
    BoxTriangleAxis axis;
    int boxAxis;       // the box face's or edge's axis
    int triangleEdge;  // an edge pair's triangle edge
};

// The gap along an axis with the better of its two signs that the side allows: along is the axis'
// component along the side's normal (any positive multiple of it; zero without a side), the box's
// centre is the origin, its projection radius boxRadius, the triangle's projections lowest and highest.
// Sign +1: the normal is the axis. A sign that separates the shapes wins whatever the side: a side
// says which way an overlapping box goes out, never that a box apart overlaps (an axis leaning a little
// to the back would otherwise make a box beside the triangle sink through it). Without branches: which
// sign wins is data, not a pattern.
template <class T> struct SignedGap {
    T separation;
    T sign;
};

template <class T> SignedGap<T> gapAlong(T along, T boxRadius, T lowest, T highest) {
    const T plus = -boxRadius - highest, minus = lowest - boxRadius;
    const bool usePlus =
        (plus > T(0)) | ((minus <= T(0)) & ((along > T(0)) | ((along == T(0)) & (plus >= minus))));
    return {usePlus ? plus : minus, usePlus ? T(1) : T(-1)};
}

// The bias toward the current axis, but an axis that separates the shapes beats one that does not (the
// points of an axis that does not would report an overlap).
template <class T> bool beats(T candidate, T current, T size) {
    if (candidate > T(0) && !(current > T(0))) return true;
    return candidate > current + biasRelative<T> * std::abs(current) + biasOfSize<T> * size;
}

template <class T>
TriangleFeature facingFeature(const Vec3<T>& normal, const std::array<Vec3<T>, 3>& vertices, T longestEdge) {
    const T heights[3] = {glm::dot(normal, vertices[0]), glm::dot(normal, vertices[1]),
                          glm::dot(normal, vertices[2])};
    const T highest = std::max({heights[0], heights[1], heights[2]});
    const T tolerance = featureTolerance<T> * longestEdge;
    int mask = 0;
    for (int i = 0; i < 3; ++i)
        if (heights[i] >= highest - tolerance) mask |= 1 << i;
    switch (mask) {
        case 0b011:
            return triangleEdge(0);
        case 0b110:
            return triangleEdge(1);
        case 0b101:
            return triangleEdge(2);
        case 0b001:
            return triangleVertex(0);
        case 0b010:
            return triangleVertex(1);
        case 0b100:
            return triangleVertex(2);
        default:
            return TriangleFeature::Face;
    }
}

template <class T> std::optional<BoxTriangleContact<T>> collide(const Obb<T>& box,
                                                                const Triangle<T>& triangle, T reach,
                                                                TriangleSide side, bool triangleAxisOnly) {
    if (!detail::isValidObb(box) || !detail::allFinite(triangle.a, triangle.b, triangle.c, reach) ||
        !(reach >= T(0)))
        return std::nullopt;
    const Vec3<T>& half = box.halfExtents;
    // The triangle in the box's frame: rotation^T (vertex - centre).
    const std::array<Vec3<T>, 3> v{(triangle.a - box.center) * box.rotation,
                                   (triangle.b - box.center) * box.rotation,
                                   (triangle.c - box.center) * box.rotation};
    // Apart along an axis by more than reach, on either side (whatever side the triangle may push
    // to), the shapes are apart. The box's faces first: the triangle's bounds in the box's frame,
    // where most triangles near a box are left.
    const auto apartAlong = [&](T boxRadius, T lowest, T highest) {
        return std::max(lowest, -highest) - boxRadius > reach;
    };
    const Vec3<T> lowest = glm::min(glm::min(v[0], v[1]), v[2]),
                  highest = glm::max(glm::max(v[0], v[1]), v[2]);
    for (int k = 0; k < 3; ++k)
        if (apartAlong(half[k], lowest[k], highest[k])) return std::nullopt;
    const std::array<Vec3<T>, 3> edges{v[1] - v[0], v[2] - v[1], v[0] - v[2]};
    const Vec3<T> edgesSquared(glm::dot(edges[0], edges[0]), glm::dot(edges[1], edges[1]),
                               glm::dot(edges[2], edges[2]));
    const T longestSquared = std::max({edgesSquared[0], edgesSquared[1], edgesSquared[2]});
    // The normal from the two shorter edges (triangle.hpp): two long edges of a needle nearly cancel, and
    // the normal's rounding, times the far vertex's distance, moves the plane (a needle 1e9 long in
    // double: by 0.15). A triangle with no usable face gives no contact: its edges are its neighbours'.
    const TriangleFrame<T> frame = faceFrame(Triangle<T>{v[0], v[1], v[2]});
    if (!frame.hasFace()) return std::nullopt;
    const Vec3<T>& area = frame.normal;
    const T areaSquared = frame.normalSquared;
    const T longestEdge = std::sqrt(longestSquared);
    // The bias is a share of the box's size: a triangle far larger than the box (a terrain's, or a needle
    // through it) would otherwise let its normal win over axes overlapping less by as much as 0.1% of its
    // length, and a clipping that finds nothing over it falls back to a point that deep.
    const T size = half.x + half.y + half.z;
    const Vec3<T> faceNormal = area / std::sqrt(areaSquared);

    // The triangle's normal; on a fixed side it pushes only that way, and a box wholly behind passes.
    const T plane = glm::dot(faceNormal, v[0]);
    const T faceRadius = glm::dot(half, glm::abs(faceNormal));
    if (apartAlong(faceRadius, plane, plane)) return std::nullopt;
    const Vec3<T> sideNormal = side == TriangleSide::Back ? -faceNormal : faceNormal;
    if (side != TriangleSide::Either && faceRadius < glm::dot(sideNormal, v[0])) return std::nullopt;
    const Vec3<T> sideOrZero = side == TriangleSide::Either ? Vec3<T>(0) : sideNormal;
    const SignedGap<T> faceGap = gapAlong(glm::dot(faceNormal, sideOrZero), faceRadius, plane, plane);
    const AxisGap<T> triangleGap{faceGap.sign * faceNormal, faceGap.separation, BoxTriangleAxis::TriangleFace,
                                 0, 0};
    AxisGap<T> best = triangleGap;
    T separation = best.separation;

    // The box's faces.
    for (int k = 0; k < 3; ++k) {
        const SignedGap<T> gap = gapAlong(sideOrZero[k], half[k], lowest[k], highest[k]);
        separation = std::max(separation, gap.separation);
        if (!triangleAxisOnly && beats(gap.separation, best.separation, size)) {
            Vec3<T> normal(0);
            normal[k] = gap.sign;
            best = {normal, gap.separation, BoxTriangleAxis::BoxFace, k, 0};
        }
    }

    // Along the triangle's normal only, the edge pairs are not needed: the points are those of the box
    // face over the triangle (clipped to its prism), and a box apart from the triangle along an edge
    // pair has none within reach in front of it.
    if (!triangleAxisOnly) {
        // Edge pairs: box axis k times edge j, (e_k x t) with t = edges[j], written out (its component
        // along k is zero), exact in the box's frame up to the edge's own roundings, about unitRoundoff
        // times the scale: below sqrt(unitRoundoff) times the scale it is skipped. A vector p projects
        // on it as (e_k x t) . p = (t x p)_k, so a cross product gives the projections on all three.
        // The edges' roundings are those of the triangle's coordinates in the box's frame: a long box
        // (half extents far beyond them) must not make every edge axis look parallel, or an edge axis
        // that separates the shapes goes untested and the faces' clipping finds nothing to stand on.
        const T scale = std::max(maxAbsComponent(lowest), maxAbsComponent(highest));
        const T smallestCrossSquared = unitRoundoff<T> * scale * scale;
        T bestEdgeSeparation = -std::numeric_limits<T>::infinity(), bestEdgeSign = 1, bestEdgeScale = 0;
        int bestEdgeAxis = -1, bestEdge = 0;
        for (int j = 0; j < 3; ++j) {
            const Vec3<T>& t = edges[j];
            const Vec3<T> onEdge = glm::cross(t, v[j]), opposite = glm::cross(t, v[(j + 2) % 3]);
            const Vec3<T> along = glm::cross(t, sideOrZero);
            const Vec3<T> squared = t * t, absolute = glm::abs(t);
            const Vec3<T> crossSquared(squared.y + squared.z, squared.z + squared.x, squared.x + squared.y);
            const Vec3<T> boxRadius(half.y * absolute.z + half.z * absolute.y,
                                    half.z * absolute.x + half.x * absolute.z,
                                    half.x * absolute.y + half.y * absolute.x);
            for (int k = 0; k < 3; ++k) {
                if (!(crossSquared[k] > smallestCrossSquared)) continue;
                const T inverseLength = T(1) / std::sqrt(crossSquared[k]);
                const T edgeLowest = std::min(onEdge[k], opposite[k]) * inverseLength;
                const T edgeHighest = std::max(onEdge[k], opposite[k]) * inverseLength;
                const T radius = boxRadius[k] * inverseLength;
                if (apartAlong(radius, edgeLowest, edgeHighest)) return std::nullopt;
                const SignedGap<T> gap = gapAlong(along[k], radius, edgeLowest, edgeHighest);
                separation = std::max(separation, gap.separation);
                const bool better = gap.separation > bestEdgeSeparation;
                bestEdgeSeparation = better ? gap.separation : bestEdgeSeparation;
                bestEdgeSign = better ? gap.sign : bestEdgeSign;
                bestEdgeScale = better ? inverseLength : bestEdgeScale;
                bestEdgeAxis = better ? k : bestEdgeAxis;
                bestEdge = better ? j : bestEdge;
            }
        }
        if (bestEdgeAxis >= 0 && beats(bestEdgeSeparation, best.separation, size)) {
            const int k = bestEdgeAxis;
            const Vec3<T>& t = edges[bestEdge];
            Vec3<T> normal(0);
            normal[(k + 1) % 3] = -t[(k + 2) % 3] * bestEdgeScale * bestEdgeSign;
            normal[(k + 2) % 3] = t[(k + 1) % 3] * bestEdgeScale * bestEdgeSign;
            best = {normal, bestEdgeSeparation, BoxTriangleAxis::EdgePair, k, bestEdge};
        }
    }

    BoxTriangleContact<T> contact{};
    contact.separation = separation;
    // The axis taken (n, in the box's frame) and the box's corner deepest toward the triangle along it.
    AxisGap<T> taken;
    Vec3<T> n, deepestCorner;
    // Written always, counted when within reach (fewer than 8 are ever written: no branch to predict).
    const auto addPoint = [&](const Vec3<T>& onTriangle, T distance) {
        contact.points[contact.pointCount] = {onTriangle, distance};
        contact.pointCount += distance <= reach;
    };
    // A point of the box and one of the triangle found apart from the clipping: overlapping, at the
    // separation along the axis; apart, at their distance (never less than the shapes').
    const auto pointDistance = [&](const Vec3<T>& onBox, const Vec3<T>& onTriangle) {
        return separation <= T(0) ? taken.separation : glm::length(onBox - onTriangle);
    };
    // The points along the axis of gap, those within reach.
    const auto takePointsAlong = [&](const AxisGap<T>& gap) {
        taken = gap;
        n = gap.normal;
        deepestCorner = Vec3<T>(n.x > T(0) ? -half.x : half.x, n.y > T(0) ? -half.y : half.y,
                                n.z > T(0) ? -half.z : half.z);
        contact.axis = gap.axis;
        contact.feature = gap.axis == BoxTriangleAxis::TriangleFace ? TriangleFeature::Face
                                                                    : facingFeature(n, v, longestEdge);
        contact.pointCount = 0;
        switch (gap.axis) {
            case BoxTriangleAxis::TriangleFace: {
                // The box face most opposed to n (at coordinate faceAt along axis k), clipped to the
                // triangle's prism.
                const Vec3<T> absNormal = glm::abs(n);
                const int k = absNormal.x >= absNormal.y && absNormal.x >= absNormal.z ? 0
                              : absNormal.y >= absNormal.z                             ? 1
                                                                                       : 2;
                const int a = (k + 1) % 3, b = (k + 2) % 3;
                const T faceAt = deepestCorner[k];
                // Most often the triangle, moved along n onto the face, lies within it: the clipped
                // face is the triangle, each vertex at its distance along n from the face.
                T distances[3];
                bool within = true;
                for (int i = 0; i < 3; ++i) {
                    distances[i] = (faceAt - v[i][k]) / n[k];
                    const Vec3<T> onFace = v[i] + distances[i] * n;
                    within = bool(int(within) & int(std::abs(onFace[a]) <= half[a]) &
                                  int(std::abs(onFace[b]) <= half[b]));
                }
                if (within) {
                    for (int i = 0; i < 3; ++i)
                        addPoint(v[i], distances[i]);
                    break;
                }
                Vec3<T> alongA(0), alongB(0), centre(0);
                alongA[a] = half[a];
                alongB[b] = half[b];
                centre[k] = faceAt;
                // Clipped back and forth between two polygons (swapping them would copy both).
                Polygon<T> polygons[2];
                Polygon<T>*face = &polygons[0], *clipped = &polygons[1];
                face->count = 4;
                face->vertices = {centre + alongA + alongB, centre - alongA + alongB,
                                  centre - alongA - alongB, centre + alongA - alongB};
                for (int j = 0; j < 3; ++j) {
                    const Vec3<T> inward = glm::cross(area, edges[j]);
                    clip(*face, inward, glm::dot(inward, v[j]), *clipped);
                    std::swap(face, clipped);
                }
                const T planeAlongN = glm::dot(n, v[0]);
                for (int i = 0; i < face->count; ++i) {
                    const T distance = glm::dot(n, face->vertices[i]) - planeAlongN;
                    addPoint(face->vertices[i] - distance * n, distance);
                }
                break;
            }
            case BoxTriangleAxis::BoxFace: {
                // The triangle clipped to the sides of the box face that faces it.
                const int k = gap.boxAxis, a = (k + 1) % 3, b = (k + 2) % 3;
                Polygon<T> polygons[2];
                Polygon<T>*clipped = &polygons[0], *scratch = &polygons[1];
                clipped->count = 3;
                std::copy(v.begin(), v.end(), clipped->vertices.begin());
                for (const int i : {a, b}) {
                    for (const T sign : {T(1), T(-1)}) {
                        Vec3<T> inward(0);
                        inward[i] = sign;
                        clip(*clipped, inward, -half[i], *scratch);
                        std::swap(clipped, scratch);
                    }
                }
                const T outward = n[k] > T(0) ? T(-1) : T(1);  // the face's normal along axis k
                for (int i = 0; i < clipped->count; ++i)
                    addPoint(clipped->vertices[i], outward * clipped->vertices[i][k] - half[k]);
                break;
            }
            case BoxTriangleAxis::EdgePair: {
                const int k = gap.boxAxis, j = gap.triangleEdge;
                Vec3<T> edgeStart = deepestCorner, edgeEnd = deepestCorner;
                edgeStart[k] = -half[k];
                edgeEnd[k] = half[k];
                const auto closest = closestPointsSegmentSegment(edgeStart, edgeEnd, v[j], v[(j + 1) % 3]);
                if (closest) addPoint(closest->pointOnQ, pointDistance(closest->pointOnP, closest->pointOnQ));
                break;
            }
        }
    };
    // An axis whose clipping leaves nothing within reach (one the bias or a fixed side chose need not
    // be the least penetrating) gives way to the triangle's normal, unless only the first separates
    // them; and if nothing is left still, the deepest corner and its nearest point of the triangle
    // stand for the contact.
    takePointsAlong(best);
    const bool clipped = contact.pointCount > 0;
    if (contact.pointCount == 0 && best.axis != BoxTriangleAxis::TriangleFace &&
        (separation <= T(0) || triangleGap.separation > T(0)))
        takePointsAlong(triangleGap);
    if (contact.pointCount == 0 && !triangleAxisOnly) {
        const auto nearest = closestPointOnTriangle(deepestCorner, Triangle<T>{v[0], v[1], v[2]});
        if (nearest) addPoint(nearest->point, pointDistance(deepestCorner, nearest->point));
    }
    if (contact.pointCount == 0) return std::nullopt;
    // A fallback's points (the taken axis' clipping found nothing: a box flat on some axis, a needle
    // through the box) lie along an axis that may overlap far more than the least overlap; overlapping
    // with either side allowed, they are taken no deeper than an axis could be taken by the bias, so a
    // solver never pushes the box out farther than the shapes overlap. (A fixed side pushes out to that
    // side by design, however deep.)
    if (!clipped && !triangleAxisOnly && side == TriangleSide::Either && separation <= T(0)) {
        const T deepest = (separation - biasOfSize<T> * size) / (T(1) - biasRelative<T>);
        for (int i = 0; i < contact.pointCount; ++i)
            contact.points[i].distance = std::max(contact.points[i].distance, deepest);
    }
    // Back to the world's frame.
    contact.normal = box.rotation * n;
    // Finite input whose sums overflow (a box reaching past the largest finite value) gives nothing.
    T finiteness = detail::zeroIfFinite(contact.normal) + detail::zeroIfFinite(contact.separation);
    for (int i = 0; i < contact.pointCount; ++i) {
        contact.points[i].onTriangle = box.center + box.rotation * contact.points[i].onTriangle;
        finiteness += detail::zeroIfFinite(contact.points[i].onTriangle) +
                      detail::zeroIfFinite(contact.points[i].distance);
    }
    if (!(finiteness == T(0))) return std::nullopt;
    return contact;
}

}  // namespace detail::box_triangle

// The contact of the box and the triangle by the separating-axis test (the axes, bias and points as the
// file's header says), when they are within reach (>= 0, a distance, such as Bullet's contact breaking
// threshold). box.rotation's columns are the box's axes, orthonormal (not checked).
// side: Either lets the triangle push the box out along its normal on either side (the one that
// separates them sooner); Front and Back fix the side (Front: the side (b - a) x (c - a) points to): the
// triangle's axis then pushes only to that side, other axes only when their normal does not point to the
// other side or when they separate the shapes (a box apart from the triangle is apart on any side).
// Range: normal unit, from the triangle toward the box; 1 to 8 points, each on the triangle with its
// distance along the normal (<= reach; negative when they overlap); separation the largest gap over the
// axes tested, to the side the triangle may push to (negative: the penetration depth; positive: a lower
// bound of the distance). Separations are within a few roundings of the scale (the largest coordinate or
// half extent) for face axes, and that divided by the sine of the angle between the edges for edge axes.
// No contact: a box apart from the triangle by more than reach along an axis (either way), a box
// entirely on the other side of a fixed side, or no point within reach: std::nullopt.
// Touching gives distance 0; overlapping, negative distances. With side Either no point is deeper than
// the chosen axis's separation, which the bias keeps within 2% of the depth plus 0.1% of the box's size
// of the least overlap (a fallback's points are limited to that); a fixed side pushes out to that side
// however deep. Zero half extents (a flat, linear or point box) are valid.
// A triangle with no usable face (triangle.hpp's hasFace: a degenerate one, the sine of its smallest
// angle below 16 unit roundoffs; or one whose edges' squares leave the normal numbers, edges under about
// 3e-7 or over 1e9 in float, 1e-70 or 1e76 in double) gives std::nullopt: in a mesh its edges belong to
// its neighbours.
// Invalid input: a NaN or infinite value, a negative half extent, a negative or NaN reach, and input
// whose contact overflows T give std::nullopt.
template <class T>
std::optional<BoxTriangleContact<T>> collideObbTriangle(const Obb<T>& box, const Triangle<T>& triangle,
                                                        std::type_identity_t<T> reach,
                                                        TriangleSide side = TriangleSide::Either) {
    return detail::box_triangle::collide(box, triangle, T(reach), side, false);
}

// The contact taken along the triangle's normal whatever the axis of least penetration: for a triangle
// whose edge or vertex only an internal edge of a mesh makes the contact, or that a box came in through
// the face of. Inputs, side and invalid input as collideObbTriangle.
// Range: normal the triangle's unit normal on the side it pushes to (axis TriangleFace, feature Face);
// the points are those of the box's face most opposed to it clipped to the triangle's prism, each on the
// triangle with its distance along the normal (<= reach; negative when they overlap). Only the face axes
// are tested: separation is the largest of their gaps (the triangle's normal and the box's 3 faces).
// No contact: a box apart by more than reach along a face axis, entirely on the other side of a fixed
// side, or over no part of the triangle (its face clipped to the triangle's prism leaves nothing within
// reach): std::nullopt.
// Touching gives distance 0; overlapping, negative distances, as deep as the box reaches along the normal.
// A triangle with no usable face gives std::nullopt, as for collideObbTriangle.
template <class T>
std::optional<BoxTriangleContact<T>> collideObbTriangleAlongNormal(const Obb<T>& box,
                                                                   const Triangle<T>& triangle,
                                                                   std::type_identity_t<T> reach,
                                                                   TriangleSide side = TriangleSide::Either) {
    return detail::box_triangle::collide(box, triangle, T(reach), side, true);
}

}  // namespace analytic
