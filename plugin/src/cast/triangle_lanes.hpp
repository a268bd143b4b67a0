// SPDX-License-Identifier: Zlib
// A mesh leaf's triangles packed over their shared vertices, and the watertight test's edge functions on
// them four at a time (mesh_tree.hpp), to rule out most of a leaf's triangles before the full test.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <type_traits>

#include "analytic/geometry/ray_triangle.hpp"
#include "cast/lanes.hpp"

namespace analytic::cast {

// Up to eight triangles over up to twelve vertices shared among them (a mesh's leaf), for ruling out a
// mesh's triangles several at a time: the vertices in blocks of four side by side (structure of arrays,
// see lanes.hpp), each triangle's corners as indices into them. A mesh's neighbouring triangles share
// most of their vertices (eight of a grid's take nine): each vertex is stored and sheared once, in half
// the memory of eight separate triangles.
template <class T> struct SharedVertexTriangles {
    static constexpr int maxTriangles = 8;
    static constexpr int maxVertices = 12;
    using Lanes = typename FourLanes<T>::Lanes;
    static constexpr int partLanes = FourLanes<T>::partLanes;
    // Four vertices: lane l of part p of coordinates[axis] is vertex p * partLanes + l's.
    struct VertexBlock {
        Lanes coordinates[3][FourLanes<T>::parts];
    };

    std::uint8_t corners[3][maxTriangles];  // [a, b, c][triangle]: the vertex's index
    std::uint8_t triangleCount;
    std::uint8_t blockCount;  // the blocks holding the vertices, at least one (the unused lanes 0)
    VertexBlock blocks[maxVertices / 4];

    // Where a vertex's coordinate lies in the blocks (a packed one's, to read or write).
    // Through a pointer to the lanes' elements: clang binds no reference to a vector's element.
    template <class Packed> static auto& coordinateOf(Packed& packed, int vertex, int axis) {
        auto& lanes = packed.blocks[vertex / 4].coordinates[axis][vertex % 4 / partLanes];
        using Element = std::conditional_t<std::is_const_v<Packed>, const T, T>;
        return reinterpret_cast<Element*>(&lanes)[vertex % partLanes];
    }
    T coordinate(int vertex, int axis) const { return coordinateOf(*this, vertex, axis); }
    Vec3<T> vertex(int index) const {
        return {coordinate(index, 0), coordinate(index, 1), coordinate(index, 2)};
    }
    Triangle<T> triangle(int index) const {
        return {vertex(corners[0][index]), vertex(corners[1][index]), vertex(corners[2][index])};
    }
};

// The triangles packed, a vertex shared where corners are equal bit for bit (so each triangle comes back
// bit for bit); nothing when there are more than maxTriangles, or more than maxVertices distinct vertices.
template <class T>
std::optional<SharedVertexTriangles<T>> packTriangles(std::span<const Triangle<T>> triangles) {
    using Packed = SharedVertexTriangles<T>;
    if (triangles.size() > std::size_t(Packed::maxTriangles)) return std::nullopt;
    Packed packed{};
    std::array<Vec3<T>, Packed::maxVertices> vertices;
    int vertexCount = 0;
    for (std::size_t index = 0; index < triangles.size(); ++index) {
        const std::array<Vec3<T>, 3> corners{triangles[index].a, triangles[index].b, triangles[index].c};
        for (std::size_t corner = 0; corner < 3; ++corner) {
            int found = 0;
            while (found < vertexCount &&
                   std::memcmp(&vertices[std::size_t(found)], &corners[corner], sizeof(Vec3<T>)) != 0)
                ++found;
            if (found == vertexCount) {
                if (vertexCount == Packed::maxVertices) return std::nullopt;
                vertices[std::size_t(vertexCount++)] = corners[corner];
            }
            packed.corners[corner][index] = std::uint8_t(found);
        }
    }
    packed.triangleCount = std::uint8_t(triangles.size());
    packed.blockCount = std::uint8_t(std::max(1, (vertexCount + 3) / 4));
    for (int vertex = 0; vertex < vertexCount; ++vertex)
        for (int axis = 0; axis < 3; ++axis)
            Packed::coordinateOf(packed, vertex, axis) = vertices[std::size_t(vertex)][axis];
    return packed;
}

// A WatertightRay spread over lanes once, for the many triangles one ray is tested against.
template <class T> struct WatertightRayLanes {
    using Lanes = typename FourLanes<T>::Lanes;
    Lanes originX, originY, originZ;  // the origin's kx, ky and kz components
    Lanes shearX, shearY;
    int kx, ky, kz;

    // The origin's components by index, as in watertightRayOf: once per ray, the axes change as
    // unpredictably as the direction, and detail::component's selects compile to branches.
    explicit WatertightRayLanes(const WatertightRay<T>& ray)
        : shearX(Lanes{} + ray.shearX), shearY(Lanes{} + ray.shearY), kx(ray.kx), ky(ray.ky), kz(ray.kz) {
        const T origin[3] = {ray.origin.x, ray.origin.y, ray.origin.z};
        originX = Lanes{} + origin[kx];
        originY = Lanes{} + origin[ky];
        originZ = Lanes{} + origin[kz];
    }
};

// The packed triangles that the ray may hit, as bits (bit i: triangle i): intersectRayTriangle(ray,
// triangle i) has no hit, whatever the ray's maxT and the culling, for every bit left clear. The edge
// functions are computed lane by lane with intersectRayTriangle's own operations (each vertex sheared
// once, then gathered for the triangles' corners), so they are its values bit for bit; a triangle is
// ruled out when two of them are nonzero with opposite signs, as intersectRayTriangle rejects it first
// (a zero it redoes in a wider type, so a zero rules out nothing). A mesh ray cast then runs the full
// test only on the few triangles its line passes through.
template <class T>
unsigned trianglesRayMayHit(const WatertightRayLanes<T>& ray, const SharedVertexTriangles<T>& triangles) {
    using Packed = SharedVertexTriangles<T>;
    using Lanes = typename Packed::Lanes;
    constexpr int parts = FourLanes<T>::parts, partLanes = FourLanes<T>::partLanes;
    // shearVertex, lane by lane, for every vertex.
    alignas(sizeof(Lanes)) T shearedX[Packed::maxVertices], shearedY[Packed::maxVertices];
    for (int block = 0; block < triangles.blockCount; ++block) {
        for (int part = 0; part < parts; ++part) {
            const auto& coordinates = triangles.blocks[block].coordinates;
            const Lanes along = coordinates[ray.kz][part] - ray.originZ;
            const Lanes relativeX = coordinates[ray.kx][part] - ray.originX;
            const Lanes relativeY = coordinates[ray.ky][part] - ray.originY;
            const Lanes alongX = ray.shearX * along;
            const Lanes alongY = ray.shearY * along;
            const Lanes x = relativeX - alongX, y = relativeY - alongY;
            const int first = 4 * block + part * partLanes;
            std::memcpy(&shearedX[first], &x, sizeof(Lanes));
            std::memcpy(&shearedY[first], &y, sizeof(Lanes));
        }
    }
    unsigned ruledOut = 0;
    for (int first = 0; first < Packed::maxTriangles; first += partLanes) {
        // The corners of partLanes triangles, gathered.
        const auto gather = [&](const T(&sheared)[Packed::maxVertices], int corner) {
            Lanes lanes{};
            for (int lane = 0; lane < partLanes; ++lane)
                lanes[lane] = sheared[triangles.corners[corner][first + lane]];
            return lanes;
        };
        const Lanes x[3] = {gather(shearedX, 0), gather(shearedX, 1), gather(shearedX, 2)};
        const Lanes y[3] = {gather(shearedY, 0), gather(shearedY, 1), gather(shearedY, 2)};
        // edgeFunction's first rounding, for the edges opposite a, b and c.
        const auto edge = [&](int p, int q) {
            const Lanes pxqy = x[p] * y[q];
            const Lanes pyqx = y[p] * x[q];
            return pxqy - pyqx;
        };
        const Lanes weights[3] = {edge(2, 1), edge(0, 2), edge(1, 0)};
        const auto negative = (weights[0] < T(0)) | (weights[1] < T(0)) | (weights[2] < T(0));
        const auto positive = (weights[0] > T(0)) | (weights[1] > T(0)) | (weights[2] > T(0));
        ruledOut |= detail::signBits(Lanes(negative & positive)) << first;
    }
    return ~ruledOut & ((1u << triangles.triangleCount) - 1);
}

}  // namespace analytic::cast
