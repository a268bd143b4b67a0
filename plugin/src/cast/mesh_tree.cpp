// SPDX-License-Identifier: Zlib
#include "cast/mesh_tree.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <span>

#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "narrowphase/mesh_triangles.hpp"

namespace analytic::cast {
namespace {

// The tree's boxes are grown for rays whose coordinates (in the mesh's frame) reach this many times the
// mesh's largest one (see WideBvh): by 1.2e-4 of the mesh's extent, a box's worth of culling kept. Rays
// reaching farther walk Bullet's tree, padded per ray.
constexpr Scalar paddedReach = 256;

std::size_t scalarSize(PHY_ScalarType type) {
    switch (type) {
        case PHY_DOUBLE:
            return sizeof(double);
        case PHY_SHORT:
            return sizeof(short);
        case PHY_UCHAR:
            return 1;
        default:  // PHY_FLOAT, PHY_INTEGER
            return 4;
    }
}

// The bytes of count records of stride bytes whose first three values of this type are read: the
// last record's are the last bytes read (its padding may lie past the caller's array).
std::span<const unsigned char> bytesOf(const unsigned char* base, int count, int stride,
                                       PHY_ScalarType type) {
    if (count <= 0) return {};
    return {base, std::size_t(count - 1) * std::size_t(stride) + 3 * scalarSize(type)};
}

}  // namespace

template <class Use> void MeshTree::readPart(const btStridingMeshInterface& mesh, int part, Use use) {
    const unsigned char *vertexBase, *indexBase;
    Layout layout{};
    mesh.getLockedReadOnlyVertexIndexBase(&vertexBase, layout.vertexCount, layout.vertexType,
                                          layout.vertexStride, &indexBase, layout.indexStride,
                                          layout.triangleCount, layout.indexType, part);
    use(layout, bytesOf(vertexBase, layout.vertexCount, layout.vertexStride, layout.vertexType),
        bytesOf(indexBase, layout.triangleCount, layout.indexStride, layout.indexType));
    mesh.unLockReadOnlyVertexBase(part);
}

// Compared in place, with the subpart locked: nothing is copied or allocated.
bool MeshTree::matches(const btStridingMeshInterface& mesh) const {
    if (mesh.getNumSubParts() != int(parts_.size()) || !(mesh.getScaling() == scaling_)) return false;
    bool same = true;
    for (int part = 0; part < mesh.getNumSubParts() && same; ++part) {
        const Part& kept = parts_[std::size_t(part)];
        readPart(mesh, part, [&](const Layout& layout, auto vertexBytes, auto indexBytes) {
            same = layout == kept.layout && std::ranges::equal(vertexBytes, kept.vertexBytes) &&
                   std::ranges::equal(indexBytes, kept.indexBytes);
        });
    }
    return same;
}

MeshTree::MeshTree(const btStridingMeshInterface& mesh, unsigned threads) : scaling_(mesh.getScaling()) {
    std::vector<Triangle<Scalar>> triangles;
    std::vector<TriangleName> names;
    std::vector<Aabb<Scalar>> boxes;
    Scalar extent = 0;  // the largest vertex coordinate
    // The triangles as every other cast reads them (the mesh's scaling applied).
    const auto collect = [&](const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
        triangles.push_back(triangle);
        names.push_back({partId, triangleIndex});
        // A triangle with a vertex not finite is never hit (intersectRayTriangle): its box is left empty,
        // and the others' growth is not made infinite by it.
        if (!isFinite(triangle.a) || !isFinite(triangle.b) || !isFinite(triangle.c)) {
            constexpr Scalar infinity = std::numeric_limits<Scalar>::infinity();
            boxes.push_back({Vec3<Scalar>(infinity), Vec3<Scalar>(-infinity)});
            return;
        }
        const Aabb<Scalar> box = boundsOf(triangle);
        boxes.push_back(box);
        extent = std::max({extent, maxAbsComponent(box.min), maxAbsComponent(box.max)});
    };
    {
        narrowphase::BvhTriangles<decltype(collect)> reader(mesh, btVector3(1, 1, 1), collect);
        for (int part = 0; part < mesh.getNumSubParts(); ++part) {
            readPart(mesh, part, [&](const Layout& layout, auto vertexBytes, auto indexBytes) {
                parts_.push_back({layout,
                                  {vertexBytes.begin(), vertexBytes.end()},
                                  {indexBytes.begin(), indexBytes.end()}});
            });
            for (int triangle = 0; triangle < parts_.back().layout.triangleCount; ++triangle)
                reader.processNode(part, triangle);
        }
    }
    // The triangles with these indices packed as a leaf, or nothing when they do not fit one.
    const auto pack = [&](std::span<const std::int32_t> items) -> std::optional<LeafTriangles> {
        std::array<Triangle<Scalar>, LeafTriangles::maxTriangles> leafTriangles;
        if (items.size() > leafTriangles.size()) return std::nullopt;
        for (std::size_t i = 0; i < items.size(); ++i)
            leafTriangles[i] = triangles[std::size_t(items[i])];
        return packTriangles(std::span<const Triangle<Scalar>>(leafTriangles).first(items.size()));
    };
    tree_ = WideBvh(boxes, paddedReach * extent, threads, WideBvh::Items::Leaves, LeafTriangles::maxTriangles,
                    [&](std::span<const std::int32_t> items) { return pack(items).has_value(); });
    leaves_.reserve(tree_.leaves().size());
    for (const WideBvh::Leaf& treeLeaf : tree_.leaves()) {
        const auto items =
            std::span(tree_.order()).subspan(std::size_t(treeLeaf.first), std::size_t(treeLeaf.count));
        Leaf leaf{*pack(items), {}};
        for (std::size_t i = 0; i < items.size(); ++i)
            leaf.names[i] = names[std::size_t(items[i])];
        leaves_.push_back(leaf);
    }
}

bool MeshTree::cast(const RayPath<Scalar>& meshRay, TriangleReporter& reporter) const {
    if (!tree_.covers(meshRay)) return false;
    const WatertightRayLanes<Scalar> rayLanes(reporter.ray());
    // A segment ends at fraction 1, whatever the callback's fraction; nothing is nearer than its origin.
    tree_.walk(
        WideBvh::lanesOf(meshRay.origin, meshRay.direction),
        [&] { return std::min(reporter.running(), Scalar(1)); },
        [&](std::size_t index) {
            const Leaf& leaf = leaves_[index];
            for (unsigned candidates = trianglesRayMayHit(rayLanes, leaf.triangles); candidates != 0;
                 candidates &= candidates - 1) {
                const int triangle = std::countr_zero(candidates);
                const TriangleName& name = leaf.names[triangle];
                reporter(leaf.triangles.triangle(triangle), name.partId, name.triangleIndex);
                if (!(reporter.running() > 0)) return false;
            }
            return true;
        },
        leaves_.data());
    return true;
}

bool MeshTree::cast(const RayPath<Scalar>& meshPath, const Vec3<Scalar>& growth,
                    SphereQuery::TriangleReporter& reporter) const {
    if (!tree_.covers(meshPath, maxAbsComponent(growth))) return false;
    const SlabRay<Scalar> slab = slabRayOf(meshPath);
    const Scalar reach = rayReachOf(meshPath) + maxAbsComponent(growth);
    tree_.walk(
        GrownSlabLanes<float>(meshPath.origin, Scalar(1) / meshPath.direction, growth),
        [&] { return std::min(reporter.running(), Scalar(1)); },
        [&](std::size_t index) {
            const Leaf& leaf = leaves_[index];
            for (int triangle = 0; triangle < leaf.triangles.triangleCount; ++triangle) {
                // The triangle's own box, grown, before its sweep: a leaf's box holds eight.
                const Triangle<Scalar> vertices = leaf.triangles.triangle(triangle);
                const Aabb<Scalar> box = boundsOf(vertices);
                // Grown, and by the rounding of the test (as the mesh walks grow their boxes: mesh_cast.hpp).
                const Vec3<Scalar> padding =
                    growth + slabRoundingPadding<Scalar>(
                                 std::max(maxAbsComponent(box.min), maxAbsComponent(box.max)) + reach);
                if (!rayOverlapsAabb(slab, std::min(reporter.running(), Scalar(1)),
                                     {box.min - padding, box.max + padding}))
                    continue;
                const TriangleName& name = leaf.names[triangle];
                reporter(vertices, name.partId, name.triangleIndex);
                if (!(reporter.running() > 0)) return false;
            }
            return true;
        },
        leaves_.data());
    return true;
}

}  // namespace analytic::cast
