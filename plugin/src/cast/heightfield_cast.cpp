// SPDX-License-Identifier: Zlib
#include "cast/heightfield_cast.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <utility>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/capsule_query.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/ray_query.hpp"
#include "cast/sphere_query.hpp"
#include "cast/triangle_reporter.hpp"

namespace analytic::cast {
namespace {

// btHeightfieldTerrainShape keeps its grid's size and how it splits and winds its cells protected.
// Pointers to those members, formed in a class derived from it, read them in any heightfield (nothing
// of this class is made).
struct TerrainMembers : btHeightfieldTerrainShape {
    static constexpr int btHeightfieldTerrainShape::*stickWidth = &TerrainMembers::m_heightStickWidth;
    static constexpr int btHeightfieldTerrainShape::*stickLength = &TerrainMembers::m_heightStickLength;
    static constexpr bool btHeightfieldTerrainShape::*flipQuadEdges = &TerrainMembers::m_flipQuadEdges;
    static constexpr bool btHeightfieldTerrainShape::*diamond = &TerrainMembers::m_useDiamondSubdivision;
    static constexpr bool btHeightfieldTerrainShape::*zigzag = &TerrainMembers::m_useZigzagSubdivision;
    static constexpr bool btHeightfieldTerrainShape::*flipWinding = &TerrainMembers::m_flipTriangleWinding;
};

// The cells [first, last] along one grid axis of count cells that the grid coordinates [low, high],
// grown by margin, meet (empty when first > last). Clamped before the conversion, so any finite
// coordinate is safe.
std::pair<int, int> cellsCovering(Scalar low, Scalar high, Scalar margin, int count) {
    const Scalar first = std::clamp(std::floor(low - margin), Scalar(0), Scalar(count));
    const Scalar last = std::clamp(std::floor(high + margin), Scalar(-1), Scalar(count - 1));
    return {int(first), int(last)};
}

// Calls visit(cell) for the cells of a grid of cells[0] x cells[1] unit squares (cell {i, k} spans
// [i, i + 1] x [k, k + 1]) whose squares, grown by margin (per grid axis), the footprint (a segment, t in [0,
// 1]) meets before reach() (read again at every column: hits shrink it), in the order the footprint reaches
// them: column by column along its major axis, within a column along the other; stops when visit returns
// false. The margin covers the rounding of the footprint's coordinates, so no cell the segment touches
// is skipped.
template <class Reach, class Visit> void walkGridCells(const RayPath2<Scalar>& footprint,
                                                       const std::array<int, 2>& cells,
                                                       const Vec2<Scalar>& margin, Reach reach, Visit visit) {
    const Vec2<Scalar>& origin = footprint.origin;
    const Vec2<Scalar>& direction = footprint.direction;
    // The part of the segment over the grown grid.
    Scalar enter = 0, leave = 1;
    for (int axis = 0; axis < 2; ++axis) {
        const Scalar low = -margin[axis] - origin[axis],
                     high = Scalar(cells[axis]) + margin[axis] - origin[axis];
        if (direction[axis] != 0) {
            const Scalar t0 = low / direction[axis], t1 = high / direction[axis];
            enter = std::max(enter, std::min(t0, t1));
            leave = std::min(leave, std::max(t0, t1));
        } else if (low > 0 || high < 0) {
            return;
        }
    }
    if (!(enter <= leave)) return;
    const int major = std::abs(direction[0]) >= std::abs(direction[1]) ? 0 : 1, minor = 1 - major;
    const auto span = [&](int axis, Scalar from, Scalar to) {
        const Scalar a = origin[axis] + from * direction[axis], b = origin[axis] + to * direction[axis];
        return cellsCovering(std::min(a, b), std::max(a, b), margin[axis], cells[axis]);
    };
    const auto [firstColumn, lastColumn] = span(major, enter, leave);
    const int columnStep = direction[major] < 0 ? -1 : 1, rowStep = direction[minor] < 0 ? -1 : 1;
    const int columnCount = lastColumn - firstColumn + 1;
    for (int n = 0; n < columnCount; ++n) {
        const int column = columnStep > 0 ? firstColumn + n : lastColumn - n;
        // Where the segment is over the grown column.
        Scalar from = enter, to = leave;
        if (direction[major] != 0) {
            const Scalar t0 = (Scalar(column) - margin[major] - origin[major]) / direction[major];
            const Scalar t1 = (Scalar(column + 1) + margin[major] - origin[major]) / direction[major];
            from = std::max(from, std::min(t0, t1));
            to = std::min(to, std::max(t0, t1));
        }
        if (from > reach()) return;  // the columns that follow are farther
        if (from > to) continue;
        const auto [firstRow, lastRow] = span(minor, from, to);
        const int rowCount = lastRow - firstRow + 1;
        for (int m = 0; m < rowCount; ++m) {
            const int row = rowStep > 0 ? firstRow + m : lastRow - m;
            std::array<int, 2> cell;
            cell[major] = column;
            cell[minor] = row;
            if (!visit(cell)) return;
        }
    }
}

// The two triangles of cell (x, j) as processAllTriangles makes them from its corners, with their
// part ids (2x, 2x + 1; the triangle index is j).
class CellTriangles {
public:
    explicit CellTriangles(const btHeightfieldTerrainShape& terrain)
        : terrain_(terrain),
          flipQuadEdges_(terrain.*TerrainMembers::flipQuadEdges),
          diamond_(terrain.*TerrainMembers::diamond),
          zigzag_(terrain.*TerrainMembers::zigzag),
          flipWinding_(terrain.*TerrainMembers::flipWinding) {}

    // The cell's corners (x, j), (x + 1, j), (x, j + 1), (x + 1, j + 1), from getVertex.
    std::array<Vec3<Scalar>, 4> corners(int x, int j) const {
        std::array<Vec3<Scalar>, 4> corners;
        for (int corner = 0; corner < 4; ++corner) {
            btVector3 vertex;
            terrain_.getVertex(x + (corner & 1), j + (corner >> 1), vertex);
            corners[std::size_t(corner)] = toGlm(vertex);
        }
        return corners;
    }

    template <class Visit>
    void visit(const std::array<Vec3<Scalar>, 4>& corners, int x, int j, Visit& visitTriangle) const {
        const auto& [low, right, up, far] = corners;  // (x, j), (x + 1, j), (x, j + 1), (x + 1, j + 1)
        // Which diagonal splits the cell: (x, j)-(x + 1, j + 1), or (x + 1, j)-(x, j + 1).
        const bool fromLowCorner = flipQuadEdges_ || (diamond_ && !((j + x) & 1)) || (zigzag_ && !(j & 1));
        std::array<Triangle<Scalar>, 2> triangles =
            fromLowCorner ? std::array{Triangle<Scalar>{low, up, far}, Triangle<Scalar>{low, far, right}}
                          : std::array{Triangle<Scalar>{low, up, right}, Triangle<Scalar>{right, up, far}};
        for (int k = 0; k < 2; ++k) {
            Triangle<Scalar>& triangle = triangles[std::size_t(k)];
            if (flipWinding_) std::swap(triangle.a, triangle.c);
            visitTriangle(triangle, 2 * x + k, j);
        }
    }

private:
    const btHeightfieldTerrainShape& terrain_;
    bool flipQuadEdges_, diamond_, zigzag_, flipWinding_;
};

// The local axes along the grid's x (the index within a row of the height data) and j (the row).
std::array<int, 2> gridAxes(int upAxis) {
    switch (upAxis) {
        case 0:
            return {1, 2};
        case 1:
            return {0, 2};
        default:
            return {0, 1};
    }
}

}  // namespace

template <class Query> void castAgainstHeightfield(const Query& query, const btCollisionObject& object,
                                                   const btHeightfieldTerrainShape& terrain,
                                                   const btTransform& transform) {
    const std::array<int, 2> cells{terrain.*TerrainMembers::stickWidth - 1,
                                   terrain.*TerrainMembers::stickLength - 1};
    if (cells[0] < 1 || cells[1] < 1) return;
    // getVertex places vertex (x, j) at ((x - cells[0] / 2) s, (j - cells[1] / 2) s) across the up axis:
    // grid coordinates are local ones over the scaling plus half the grid.
    const std::array<int, 2> axes = gridAxes(terrain.getUpAxis());
    const btVector3& scaling = terrain.getLocalScaling();
    const Vec2<Scalar> gridScaling(scaling[axes[0]], scaling[axes[1]]);
    if (!isFinite(gridScaling) || gridScaling.x == 0 || gridScaling.y == 0) return;  // no area: no hit

    // The triangles are in the shape's frame, scaling applied: the segment is taken there. The frame is
    // rigid: a sweep's sphere stays one, and boxes grow by its radius.
    const Segment& segment = query.segment;
    const RayPath<Scalar> localRay =
        segmentRay(toGlm(transform.invXform(segment.from)), toGlm(transform.invXform(segment.to)));
    if (!query.takes(localRay)) return;
    typename Query::TriangleReporter reporter =
        query.triangleReporter(localRay, object, btVector3(1, 1, 1), transform);
    const Scalar growth = query.growthIn(btVector3(1, 1, 1)).x;
    if (!(reporter.running() > 0)) return;
    const SlabRay<Scalar> slab = slabRayOf(localRay);
    const auto reach = [&] { return std::min(reporter.running(), Scalar(1)); };

    const Vec2<Scalar> halfGrid{Scalar(cells[0]) / 2, Scalar(cells[1]) / 2};
    const RayPath2<Scalar> footprint{
        Vec2<Scalar>(localRay.origin[axes[0]], localRay.origin[axes[1]]) / gridScaling + halfGrid,
        Vec2<Scalar>(localRay.direction[axes[0]], localRay.direction[axes[1]]) / gridScaling, Scalar(1)};
    // 64 rounding units of the coordinates involved: far more than the footprint's and the
    // vertices' rounding, far less than a cell.
    const Vec2<Scalar> gridMargin =
        Vec2<Scalar>(64 * unitRoundoff<Scalar> *
                     (maxAbsComponent(footprint.origin) + maxAbsComponent(footprint.direction) +
                      Scalar(cells[0] + cells[1]))) +
        growth / glm::abs(gridScaling);
    // Grid coordinates past the largest finite value (a scaling so small, subnormal say, that the
    // segment's coordinates over it overflow) are cells narrower than the rounding of the segment's own
    // coordinates: triangles that thin are edge-on to the watertight test, and the walk cannot index them.
    // No hit, as Bullet's.
    if (!isFinite(footprint.origin) || !isFinite(footprint.direction) || !isFinite(gridMargin)) return;
    const Scalar rayScale = rayReachOf(localRay) + growth;

    const CellTriangles cellTriangles(terrain);
    walkGridCells(footprint, cells, gridMargin, reach, [&](const std::array<int, 2>& cell) {
        const std::array<Vec3<Scalar>, 4> corners = cellTriangles.corners(cell[0], cell[1]);
        Aabb<Scalar> box{corners[0], corners[0]};
        for (const Vec3<Scalar>& corner : corners) {
            box.min = glm::min(box.min, corner);
            box.max = glm::max(box.max, corner);
        }
        // Grown by a few rounding units of the coordinates, as the BVH meshes' boxes are, so that rounding
        // never drops a cell whose triangle the watertight test would hit (at a shared vertex, say).
        const Scalar padding = slabRoundingPadding<Scalar>(
                                   std::max(maxAbsComponent(box.min), maxAbsComponent(box.max)) + rayScale) +
                               growth;
        box.min -= padding;
        box.max += padding;
        if (rayOverlapsAabb(slab, reach(), box)) cellTriangles.visit(corners, cell[0], cell[1], reporter);
        return reporter.running() > 0;
    });
}

template void castAgainstHeightfield(const RayQuery&, const btCollisionObject&,
                                     const btHeightfieldTerrainShape&, const btTransform&);
template void castAgainstHeightfield(const SphereQuery&, const btCollisionObject&,
                                     const btHeightfieldTerrainShape&, const btTransform&);
template void castAgainstHeightfield(const CapsuleQuery&, const btCollisionObject&,
                                     const btHeightfieldTerrainShape&, const btTransform&);

}  // namespace analytic::cast
