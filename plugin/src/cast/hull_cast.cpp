// SPDX-License-Identifier: Zlib
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btPolyhedralConvexShape.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/ray_convex.hpp"
#include "cast/hull_cast.hpp"

namespace analytic::cast {
namespace {

// Hulls up to this many faces keep their planes on the stack while a ray is cast (a 20-point hull has
// at most 36); larger ones on the heap.
constexpr int kStackPlanes = 64;

// Bullet's face plane (n, d) holds the face's points where dot(n, x) + d == 0, n its unit outward normal:
// the core's plane dot(n, x) == -d, moved out by the margin.
Plane<Scalar> grownFacePlane(const btFace& face, Scalar margin) {
    return {Vec3<Scalar>(face.m_plane[0], face.m_plane[1], face.m_plane[2]), margin - face.m_plane[3]};
}

SurfaceHit<Scalar> toWorld(const SurfaceHit<Scalar>& local, const btTransform& transform) {
    return {local.t, toGlm(transform(toBullet(local.point))),
            toGlm(transform.getBasis() * toBullet(local.normal))};
}

}  // namespace

std::optional<HullTarget> hullTargetOf(const btCollisionShape& shape, const btTransform& transform) {
    if (!shape.isPolyhedral()) return std::nullopt;
    // Ours first: Bullet's hull computer rounds the points to a grid (its faces off by up to 1e-3 of the
    // hull's size), and most users never ask it for faces.
    if (std::shared_ptr<const HullFaces> faces = hullFacesOf(shape))
        return HullTarget{nullptr, std::move(faces), static_cast<const btConvexShape&>(shape).getMargin(),
                          transform};
    // Bullet's own polyhedral types all derive from btPolyhedralConvexShape; a user's need not.
    const auto* polyhedral = shape.getShapeType() == CUSTOM_POLYHEDRAL_SHAPE_TYPE
                                 ? dynamic_cast<const btPolyhedralConvexShape*>(&shape)
                                 : static_cast<const btPolyhedralConvexShape*>(&shape);
    if (!polyhedral) return std::nullopt;
    const btConvexPolyhedron* polyhedron = polyhedral->getConvexPolyhedron();
    if (!polyhedron || polyhedron->m_faces.size() < 4) return std::nullopt;
    return HullTarget{polyhedron, nullptr, polyhedral->getMargin(), transform};
}

std::optional<SurfaceHit<Scalar>> firstHitOn(const RayPath<Scalar>& ray, const HullTarget& hull) {
    const std::size_t count =
        hull.faces ? hull.faces->planes.size() : std::size_t(hull.polyhedron->m_faces.size());
    std::array<Plane<Scalar>, kStackPlanes> stackPlanes;
    std::vector<Plane<Scalar>> heapPlanes;
    if (count > kStackPlanes) heapPlanes.resize(count);
    const std::span<Plane<Scalar>> planes =
        count > kStackPlanes ? std::span(heapPlanes) : std::span(stackPlanes).first(count);
    for (std::size_t i = 0; i < count; ++i)
        planes[i] = hull.faces ? Plane<Scalar>{hull.faces->planes[i].normal,
                                               hull.faces->planes[i].offset + hull.margin}
                               : grownFacePlane(hull.polyhedron->m_faces[int(i)], hull.margin);
    // The ray in the hull's frame, where its planes are: a rigid motion keeps t.
    const btMatrix3x3& basis = hull.transform.getBasis();
    const RayPath<Scalar> local{toGlm(hull.transform.invXform(toBullet(ray.origin))),
                                toGlm(toBullet(ray.direction) * basis), ray.maxT};
    auto crossing = intersectRayConvexPlanes<Scalar>(local, planes);
    if (!crossing) return std::nullopt;
    crossing->entry = toWorld(crossing->entry, hull.transform);
    crossing->exit = toWorld(crossing->exit, hull.transform);
    // On the world ray, so that a ray starting inside gets exactly its own -direction, as other solids.
    return firstHit(crossing, ray, StartInside::HitAtOrigin);
}

ConvexPolyhedron<Scalar> solidOf(const HullTarget& hull) {
    if (hull.faces) return {hull.faces->planes, hull.faces->vertices, hull.faces->edges};
    thread_local std::vector<Plane<Scalar>> planes;
    thread_local std::vector<Vec3<Scalar>> vertices;
    thread_local std::vector<std::array<std::uint32_t, 2>> edges;
    planes.clear();
    vertices.clear();
    edges.clear();
    const btConvexPolyhedron& polyhedron = *hull.polyhedron;
    for (int v = 0; v < polyhedron.m_vertices.size(); ++v)
        vertices.push_back(toGlm(polyhedron.m_vertices[v]));
    for (int f = 0; f < polyhedron.m_faces.size(); ++f) {
        const btFace& face = polyhedron.m_faces[f];
        planes.push_back({Vec3<Scalar>(face.m_plane[0], face.m_plane[1], face.m_plane[2]), -face.m_plane[3]});
        for (int i = 0; i < face.m_indices.size(); ++i) {
            auto a = std::uint32_t(face.m_indices[i]),
                 b = std::uint32_t(face.m_indices[(i + 1) % face.m_indices.size()]);
            if (a > b) std::swap(a, b);
            if (a != b) edges.push_back({a, b});
        }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    return {planes, vertices, edges};
}

}  // namespace analytic::cast
