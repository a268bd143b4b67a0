// SPDX-License-Identifier: Zlib
// Random triangles and rays for the ray-triangle tests, and grids of triangles over shared vertices.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "analytic/geometry/ray_triangle.hpp"
#include "support/test_support.hpp"

namespace analytic::test {

// The ray-triangle tests' tangency band: a ray whose line passes farther than triangleBandUlps * u * L
// from a triangle's edges and plane (L the largest distance from the ray's origin to a vertex) clearly
// hits or misses it; within the band, hit or miss is rounding.
inline constexpr Real triangleBandUlps = 64;

template <class T> constexpr T unbounded = std::numeric_limits<T>::infinity();

template <class T> std::string text(const RayPath<T>& ray, const Triangle<T>& triangle, FaceCulling culling) {
    return text(ray) + ", triangle " + text(triangle.a) + text(triangle.b) + text(triangle.c) +
           (culling == FaceCulling::BackFaces ? " culling back faces" : "");
}

// A random triangle (sometimes a needle) anywhere, and a ray aimed at a point in or near it, often on
// an edge or at a vertex; sometimes reversed (triangle behind), or ending before the triangle.
template <class T> void randomRayAndTriangle(test::Random& random, RayPath<T>& ray, Triangle<T>& triangle) {
    const bool isFloat = sizeof(T) == sizeof(float);
    const double size = random.logUniform(1e-4, 1e6);
    const Vec3<double> centre =
        random.unitVector<double>() * (size * random.logUniform(1e-3, isFloat ? 1e4 : 1e7));
    const Vec3<double> a = centre + random.point<double>(size), b = centre + random.point<double>(size);
    Vec3<double> c = centre + random.point<double>(size);
    if (random.chance(0.03)) c = a + random.uniform(-2, 2) * (b - a) + random.point<double>(size * 1e-2);
    triangle = {Vec3<T>(a), Vec3<T>(b), Vec3<T>(c)};
    double along = random.uniform(-0.3, 1.3), across = random.uniform(-0.3, 1.3);
    if (random.chance(0.5)) {  // inside
        along = random.uniform(0, 1);
        across = random.uniform(0, 1 - along);
    }
    // On an edge or at a vertex (within rounding): mostly inside the band, so counted as skipped; the
    // watertightness tests below aim at edges and vertices on purpose.
    if (random.chance(0.005)) across = 0;           // on edge ab
    if (random.chance(0.005)) across = 1 - along;   // on edge bc
    if (random.chance(0.0025)) along = across = 0;  // at vertex a
    const Vec3<double> target = a + along * (b - a) + across * (c - a);
    const Vec3<double> origin =
        target + random.unitVector<double>() * (size * random.logUniform(0.1, isFloat ? 1e3 : 1e5));
    const double speed = random.logUniform(1e-3, 1e3);
    Vec3<double> direction = (target - origin) * speed;
    if (random.chance(0.25)) direction = -direction;
    ray = {Vec3<T>(origin), Vec3<T>(direction),
           random.chance(0.4) ? unbounded<T> : T(random.uniform(0.1, 3) / speed)};
}

// A height-field grid of (cells + 1)^2 shared vertices, each quad split along its diagonal into two
// counter-clockwise (seen from +z) triangles.
template <class T> struct TriangleGrid {
    int cells;
    std::vector<Vec3<T>> vertices;

    Vec3<T> vertex(int i, int j) const { return vertices[std::size_t(i * (cells + 1) + j)]; }

    // The triangles of the quads around vertex (i, j): every triangle that has it as a vertex, and
    // their neighbours.
    std::vector<Triangle<T>> around(int i, int j) const {
        std::vector<Triangle<T>> triangles;
        for (int qi = i - 1; qi <= i + 1; ++qi) {
            for (int qj = j - 1; qj <= j + 1; ++qj) {
                const Vec3<T> v00 = vertex(qi, qj), v10 = vertex(qi + 1, qj), v11 = vertex(qi + 1, qj + 1),
                              v01 = vertex(qi, qj + 1);
                triangles.push_back({v00, v10, v11});
                triangles.push_back({v00, v11, v01});
            }
        }
        return triangles;
    }
};

// Jitter moves vertices by up to 0.2 cells across and 0.2 cells in height, so that seen along the rays
// used below (slopes up to 0.5) the grid never folds over.
template <class T> TriangleGrid<T> triangleGrid(test::Random& random, int cells, double cell,
                                                const Vec3<double>& offset, bool jitter) {
    TriangleGrid<T> mesh{cells, {}};
    const double amount = jitter ? 0.2 * cell : 0;
    for (int i = 0; i <= cells; ++i) {
        for (int j = 0; j <= cells; ++j) {
            const Vec3<double> flat(i * cell, j * cell, 0);
            mesh.vertices.push_back(Vec3<T>(offset + flat + random.point<double>(amount)));
        }
    }
    return mesh;
}

}  // namespace analytic::test
