// SPDX-License-Identifier: Zlib
// Ray casts against btHeightfieldTerrainShape (cast::castAgainstHeightfield), in the build's
// btScalar, on random heightfields of every height data type (float, double, short, unsigned char) and
// up axis, scaled (non-uniformly, mirrored), with each way of splitting the cells (plain, flipped quad
// edges, diamond, zigzag) and flipped winding, placed anywhere. The reference is long double over the
// triangles Bullet's own processAllTriangles reports (vertices, part id, triangle index and winding as
// it gives them), so the walk of the grid and the making of each cell's triangles are checked against
// Bullet's. Beside it: Bullet's btCollisionWorld::rayTestSingle with kF_DisableHeightfieldAccelerator
// (processAllTriangles' triangles, so the same closest triangle wherever Bullet is within its
// tolerance) and without it (performRaycast, its own split and names: the same cell and normal where it
// splits and walks as processAllTriangles); watertightness at grid vertices and edges; the flags from
// both sides; all-hits completeness through many hills, early termination, a caller's starting fraction.
//
// Bounds, with u the unit roundoff of btScalar and S the scale of a segment in the shape's frame (where
// the triangles are, scaling applied): max|from| + max|to| there + the largest vertex coordinate +
// |from| + |to| + |place origin| in the world:
// - band: a triangle is decided (hit or miss) when the segment's line is farther than 64 u S from its
//   edges and, where it crosses it, the crossing farther than 64 u S from the segment's ends; a decided
//   hit must be reported, a decided miss must not.
// - closest: the closest decided hit is the closest reported unless another triangle, decided or not,
//   is crossed within the fraction bounds of it.
// - fraction: within (16 u S + a L) / |n . d| of the reference (n the unit normal, d the segment's
//   direction, L the triangle's longest edge, a the normal bound below).
// - normal: within 32 u (1 + |e1| |e2| / |e1 x e2|) radians (e1, e2 the two longest edges), turned as
//   Bullet turns it.
// - Bullet's tolerance: its triangle test accepts points up to 1e-4 of an altitude outside an edge; it
//   is taken as within its tolerance when every triangle near the segment is decided with a band of
//   1e-3 of the longest edge (plus 1024 u S).
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "cast/heightfield_cast.hpp"
#include "cast/ray_query.hpp"
#include "support/test_support.hpp"
#include "support/triangle_rays.hpp"

namespace analytic::test {
namespace {

using Flags = btTriangleRaycastCallback::EFlags;

// ---- Heightfields ---------------------------------------------------------------------------------

enum class Split { Plain, FlipQuadEdges, Diamond, Zigzag };

struct Config {
    PHY_ScalarType type;
    int upAxis;
    Split split;
    bool flipWinding;
    btVector3 scaling;
    bool placed;        // at a random place, else at the origin
    int width, length;  // in grid points
};

// The local axes along the grid's x (within a row of the height data) and j (the rows).
std::array<int, 2> gridAxes(int upAxis) {
    return upAxis == 0 ? std::array{1, 2} : upAxis == 1 ? std::array{0, 2} : std::array{0, 1};
}

// Bullet's processAllTriangles path divides the segment's box by the scaling without swapping its
// bounds: a mirrored grid axis makes it empty, and it reports nothing.
bool processAllTrianglesPathWorks(const Config& config) {
    const std::array<int, 2> axes = gridAxes(config.upAxis);
    return config.scaling[axes[0]] > 0 && config.scaling[axes[1]] > 0;
}

std::string describe(const Config& config) {
    const char* types[] = {"float", "double", "int", "short", "fixed", "uchar"};
    const char* splits[] = {"plain", "flipped edges", "diamond", "zigzag"};
    char buffer[200];
    std::snprintf(buffer, sizeof buffer, "%s heights, up %d, %s%s, scaling (%g, %g, %g)%s, %dx%d",
                  types[config.type], config.upAxis, splits[int(config.split)],
                  config.flipWinding ? ", flipped winding" : "", double(config.scaling.x()),
                  double(config.scaling.y()), double(config.scaling.z()), config.placed ? ", placed" : "",
                  config.width, config.length);
    return buffer;
}

// A heightfield over its own height data, in an object, with every triangle processAllTriangles reports
// (its vertices in the shape's frame).
class TerrainCase {
public:
    // height(i, j) in about [-1, 1]: stored as the data type holds it.
    template <class Height> TerrainCase(const Config& config, Random& random, Height height)
        : config_(config) {
        const int count = config.width * config.length;
        std::vector<double> values;
        for (int j = 0; j < config.length; ++j)
            for (int i = 0; i < config.width; ++i)
                values.push_back(height(i, j));
        btScalar low = std::numeric_limits<btScalar>::max(), high = -low;
        const auto range = [&](btScalar h) {
            low = std::min(low, h);
            high = std::max(high, h);
        };
        switch (config.type) {
            case PHY_FLOAT:
                floats_.assign(values.begin(), values.end());
                for (const float h : floats_)
                    range(btScalar(h));
                shape_ = std::make_unique<btHeightfieldTerrainShape>(config.width, config.length,
                                                                     floats_.data(), low, high, config.upAxis,
                                                                     config.split == Split::FlipQuadEdges);
                break;
            case PHY_DOUBLE:
                doubles_ = values;
                for (const double h : doubles_)
                    range(btScalar(h));
                shape_ = std::make_unique<btHeightfieldTerrainShape>(
                    config.width, config.length, doubles_.data(), low, high, config.upAxis,
                    config.split == Split::FlipQuadEdges);
                break;
            case PHY_SHORT: {
                const btScalar scale = btScalar(0.01);
                for (const double h : values)
                    shorts_.push_back(short(std::lround(h / 0.01)));
                for (const short h : shorts_)
                    range(btScalar(h) * scale);
                shape_ = std::make_unique<btHeightfieldTerrainShape>(
                    config.width, config.length, shorts_.data(), scale, low, high, config.upAxis,
                    config.split == Split::FlipQuadEdges);
                break;
            }
            default: {
                const btScalar scale = btScalar(0.01);
                for (const double h : values)
                    bytes_.push_back((unsigned char)(std::lround((h + 1.2) / 0.01)));
                for (const unsigned char h : bytes_)
                    range(btScalar(h) * scale);
                shape_ = std::make_unique<btHeightfieldTerrainShape>(
                    config.width, config.length, bytes_.data(), scale, low, high, config.upAxis,
                    config.split == Split::FlipQuadEdges);
            }
        }
        EXPECT_EQ(int(floats_.size() + doubles_.size() + shorts_.size() + bytes_.size()), count);
        shape_->setUseDiamondSubdivision(config.split == Split::Diamond);
        shape_->setUseZigzagSubdivision(config.split == Split::Zigzag);
        shape_->setFlipTriangleWinding(config.flipWinding);
        shape_->setLocalScaling(config.scaling);
        object_.setCollisionShape(shape_.get());
        object_.setWorldTransform(config.placed ? randomPlace(random, 20) : btTransform::getIdentity());
        collectTriangles();
    }

    const Config& config() const { return config_; }
    const btHeightfieldTerrainShape& shape() const { return *shape_; }
    btCollisionObject& object() { return object_; }
    const btTransform& place() const { return object_.getWorldTransform(); }
    const TriangleSet& triangles() const { return triangles_; }

private:
    void collectTriangles() {
        struct Collector final : btTriangleCallback {
            explicit Collector(TerrainCase& owner) : owner(owner) {}
            void processTriangle(btVector3* vertices, int part, int index) override {
                owner.triangles_.add({widen(vertices[0]), widen(vertices[1]), widen(vertices[2])}, part,
                                     index);
            }
            TerrainCase& owner;
        } collector(*this);
        // The box is divided by the scaling before it is cut to the grid: a mirrored grid axis needs its
        // bounds swapped (the up axis is not divided for the test of each triangle's height).
        btVector3 boxMax(btScalar(1e6), btScalar(1e6), btScalar(1e6));
        for (const int axis : gridAxes(config_.upAxis))
            if (config_.scaling[axis] < 0) boxMax[axis] = -boxMax[axis];
        shape_->processAllTriangles(&collector, -boxMax, boxMax);
        EXPECT_EQ(int(triangles_.size()), 2 * (config_.width - 1) * (config_.length - 1));
    }

    Config config_;
    std::vector<float> floats_;
    std::vector<double> doubles_;
    std::vector<short> shorts_;
    std::vector<unsigned char> bytes_;
    std::unique_ptr<btHeightfieldTerrainShape> shape_;
    btCollisionObject object_;
    TriangleSet triangles_;
};

// Hills about a cell or two across, in about [-1, 1].
double hills(int i, int j) {
    return 0.7 * std::sin(0.9 * i) * std::cos(0.7 * j) + 0.25 * std::sin(2.3 * i + 1.7 * j);
}

// ---- Casting --------------------------------------------------------------------------------------

void castOurs(TerrainCase& terrain, const btVector3& from, const btVector3& to,
              btCollisionWorld::RayResultCallback& callback) {
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    cast::castAgainstHeightfield(cast::RayQuery{segment, callback}, terrain.object(), terrain.shape(),
                                 terrain.place());
}

// Whether performRaycast walks and splits the grid as processAllTriangles does (then it differs in the
// names of the triangles, and the winding of flipped-edge cells, only): not for up axis 0 (it walks
// the height axis), diamond cells (split the other way) or zigzag subdivision (ignored).
bool acceleratorComparable(const Config& config) {
    return config.upAxis != 0 && (config.split == Split::Plain || config.split == Split::FlipQuadEdges);
}

// ---- Reference ------------------------------------------------------------------------------------

// The reference in the shape's frame, where processAllTriangles' triangles are (scaling applied).
class Reference {
public:
    explicit Reference(const TerrainCase& terrain) : terrain_(terrain), place_(terrain.place()) {}

    Expectation expect(const btVector3& from, const btVector3& to, Real bandUnits = kBand) const {
        const RealVec3 origin = place_.toLocal(from), end = place_.toLocal(to);
        const Real scale = maxAbs(origin) + maxAbs(end) + terrain_.triangles().extent() +
                           maxAbs(widen(from)) + maxAbs(widen(to)) + maxAbs(place_.origin());
        return crossTriangles(terrain_.triangles(), origin, end, scale, bandUnits, 1,
                              [&](const RealVec3& unit) { return place_.basis() * unit; });
    }

private:
    const TerrainCase& terrain_;
    RealPlace place_;
};

// ---- Random comparison ----------------------------------------------------------------------------

struct HeightfieldTally : Tally {
    long acceleratorCompared = 0, acceleratorDisagreements = 0;

    void print(const std::string& name) const {
        std::printf("[ %s ] %s; Bullet (performRaycast) compared on %ld, disagreeing on %ld\n", name.c_str(),
                    counts("Bullet (processAllTriangles)").c_str(), acceleratorCompared,
                    acceleratorDisagreements);
    }
};

void compareRay(TerrainCase& terrain, const Reference& reference, const btVector3& from, const btVector3& to,
                btScalar startFraction, HeightfieldTally& tally) {
    const Expectation expectation = reference.expect(from, to);
    Recorder all(Mode::AllHits, 0, startFraction), closest(Mode::Closest);
    castOurs(terrain, from, to, all);
    castOurs(terrain, from, to, closest);
    checkAgainstReference(expectation, all, closest, from, to, startFraction, tally);

    // Bullet, where every triangle near the segment is decided with its wider band.
    const Real bulletUnits = bulletBandUnits(terrain.triangles().longestEdge(), expectation.scale);
    if (!bulletWithinTolerance(reference.expect(from, to, bulletUnits))) return;
    if (processAllTrianglesPathWorks(terrain.config())) {
        Recorder bullet(Mode::Closest, Flags::kF_DisableHeightfieldAccelerator);
        castBullet(terrain.object(), from, to, bullet);
        compareClosestWithBullet(bullet, closest, "Bullet (processAllTriangles)", from, to, tally);
    }
    if (!acceleratorComparable(terrain.config())) return;
    // performRaycast names cell (x, j) part x, triangle j; its normal faces the origin as ours does.
    Recorder accelerated(Mode::Closest);
    castBullet(terrain.object(), from, to, accelerated);
    ++tally.acceleratorCompared;
    const Report *a = accelerated.closest(), *o = closest.closest();
    const bool sameCell = (!a && !o) || (a && o && a->part == o->part / 2 && a->index == o->index &&
                                         angleTo(a->normal, widen(o->normal)) < 1e-3);
    if (!sameCell && ++tally.acceleratorDisagreements <= 10)
        ADD_FAILURE() << "Bullet (performRaycast) disagrees: from " << text(toGlm(from)) << " to "
                      << text(toGlm(to)) << (a ? "" : ", Bullet misses") << (o ? "" : ", we miss");
}

// The point of the shape's frame at grid coordinates (gx, gj) and height h along the up axis, as
// getVertex places vertex (gx, gj) (before rounding).
RealVec3 gridPoint(const TerrainCase& terrain, Real gx, Real gj, Real h) {
    const Config& config = terrain.config();
    const Real x = (gx - Real(config.width - 1) / 2) * Real(config.scaling[config.upAxis == 0 ? 1 : 0]);
    const Real j = (gj - Real(config.length - 1) / 2) * Real(config.scaling[config.upAxis == 2 ? 1 : 2]);
    const Real height = h * Real(config.scaling[config.upAxis]);
    switch (config.upAxis) {
        case 0:
            return {height, x, j};
        case 1:
            return {x, height, j};
        default:
            return {x, j, height};
    }
}

// The grid coordinates (gx, gj) of a point of the shape's frame: gridPoint's inverse across the up axis.
std::array<Real, 2> gridCoordinates(const TerrainCase& terrain, const RealVec3& local) {
    const Config& config = terrain.config();
    const int xAxis = config.upAxis == 0 ? 1 : 0, jAxis = config.upAxis == 2 ? 1 : 2;
    return {local[xAxis] / Real(config.scaling[xAxis]) + Real(config.width - 1) / 2,
            local[jAxis] / Real(config.scaling[jAxis]) + Real(config.length - 1) / 2};
}

btVector3 toWorld(const TerrainCase& terrain, const RealVec3& local) {
    return terrain.place() * btVector3(btScalar(local.x), btScalar(local.y), btScalar(local.z));
}

// Random segments: half aimed at a point of a random triangle (its edges and corners included) from
// either side, a tenth whose footprint runs along a grid line or a cell diagonal, the rest between
// random points around the heightfield; a quarter of the all-hits casts start from a fraction below 1.
HeightfieldTally compareRandomRays(TerrainCase& terrain, std::uint64_t seed, int rays) {
    Random random(seed);
    const Reference reference(terrain);
    const Config& config = terrain.config();
    const double reach = double(terrain.triangles().extent());
    HeightfieldTally tally;
    for (int i = 0; i < rays; ++i) {
        btVector3 from, to;
        if (i % 2 == 0) {
            const RealVec3 aim = randomAimAt(terrain.triangles(), random);
            const auto [heading, before, after] = randomApproach(random, reach);
            const RealVec3 step(Real(heading.x), Real(heading.y), Real(heading.z));
            from = toWorld(terrain, aim - Real(before) * step);
            to = toWorld(terrain, aim + Real(after) * step);
        } else if (i % 10 == 1) {
            // Along grid line gx = c (or gj = c), or along the diagonal gx - gj = c, at random heights.
            const int kind = int(random.uniform(0, 3));
            const double c = std::floor(random.uniform(0, kind == 1 ? config.length : config.width));
            const auto along = [&](double s) {
                const double other = random.uniform(-0.2, 1.2) * (kind == 1 ? config.width : config.length);
                const double h = random.uniform(-1.5, 1.5);
                if (kind == 0) return gridPoint(terrain, Real(c), Real(other), Real(h));
                if (kind == 1) return gridPoint(terrain, Real(other), Real(c), Real(h));
                return gridPoint(terrain, Real(c + s * other / 4), Real(s * other / 4), Real(h));
            };
            from = toWorld(terrain, along(1));
            to = toWorld(terrain, along(1));
        } else {
            from = randomPointAround(random, terrain.place(), reach);
            to = randomPointAround(random, terrain.place(), reach);
        }
        compareRay(terrain, reference, from, to, randomStartFraction(random), tally);
    }
    return tally;
}

// Twelve heightfields: every data type with every up axis, each split, flipped winding, scalings
// (non-uniform, mirrored), at the origin and placed.
std::vector<Config> randomConfigs() {
    const PHY_ScalarType types[] = {PHY_FLOAT, PHY_DOUBLE, PHY_SHORT, PHY_UCHAR};
    const Split splits[] = {Split::Plain, Split::FlipQuadEdges, Split::Diamond, Split::Zigzag};
    const btVector3 scalings[] = {btVector3(1, 1, 1), btVector3(btScalar(1.5), btScalar(0.8), btScalar(2.5)),
                                  btVector3(btScalar(-1.2), btScalar(1.3), btScalar(0.7)),
                                  btVector3(btScalar(0.6), btScalar(-2), btScalar(1.1))};
    std::vector<Config> configs;
    for (int i = 0; i < 12; ++i)
        configs.push_back({types[i % 4], i % 3, splits[(i / 3) % 4], i % 5 == 2, scalings[(i / 2) % 4],
                           i % 2 == 1, 9 + i % 5, 17 - i % 4});
    return configs;
}

TEST(RayHeightfield, RandomHeightfieldsAgainstReferenceAndBullet) {
    Random random(500);
    long total = 0;
    for (const Config& config : randomConfigs()) {
        TerrainCase terrain(config, random, hills);
        const int rays = 9000;
        const HeightfieldTally tally = compareRandomRays(terrain, 501 + std::uint64_t(total), rays);
        total += tally.rays;
        tally.print(describe(config));
        SCOPED_TRACE(describe(config));
        expectGoodReferenceTally(tally, rays);
        EXPECT_EQ(tally.acceleratorDisagreements, 0);
        if (processAllTrianglesPathWorks(config)) {
            EXPECT_GE(tally.bulletCompared, rays / 2);
        }
        if (acceleratorComparable(config)) {
            EXPECT_GE(tally.acceleratorCompared, rays / 2);
        }
    }
    EXPECT_EQ(total, 108000);
}

// ---- Watertightness -------------------------------------------------------------------------------

// A direction within maxAngle of the up axis (up or down at random), in world space.
btVector3 nearUp(Random& random, const TerrainCase& terrain, double maxAngle) {
    const double cosine = random.uniform(std::cos(maxAngle), 1), azimuth = random.uniform(0, 2 * M_PI);
    const double sine = std::sqrt(1 - cosine * cosine), side = random.chance(0.5) ? 1 : -1;
    btVector3 local;
    const int up = terrain.config().upAxis;
    local[up] = btScalar(side * cosine);
    local[(up + 1) % 3] = btScalar(sine * std::cos(azimuth));
    local[(up + 2) % 3] = btScalar(sine * std::sin(azimuth));
    return terrain.place().getBasis() * local;
}

// Segments through every vertex of the grid and through the edges of every triangle (midpoints and
// random points), within 30 degrees of the up axis: none may slip through, for each data type and up
// axis, scaled, mirrored, placed, with each split. Bullet's misses (both of its paths) are counted.
TEST(RayHeightfield, WatertightAtGridVerticesAndEdges) {
    Random random(520);
    const Config configs[] = {
        {PHY_FLOAT, 1, Split::Plain, false, btVector3(1, 1, 1), false, 9, 9},
        {PHY_DOUBLE, 2, Split::FlipQuadEdges, false, btVector3(btScalar(1.7), btScalar(0.6), btScalar(1.3)),
         true, 8, 10},
        {PHY_SHORT, 0, Split::Diamond, true, btVector3(btScalar(0.9), btScalar(-1.4), btScalar(1.1)), true,
         10, 8},
        {PHY_UCHAR, 1, Split::Zigzag, false, btVector3(btScalar(-2), btScalar(0.5), btScalar(0.8)), false, 9,
         11},
        {PHY_FLOAT, 2, Split::Diamond, false, btVector3(1, 1, btScalar(-1)), true, 11, 9},
        {PHY_SHORT, 1, Split::FlipQuadEdges, true, btVector3(btScalar(3), btScalar(2), btScalar(3)), true, 8,
         8},
    };
    for (const Config& config : configs) {
        TerrainCase terrain(config, random, hills);
        Misses ours;
        long bulletMissed = 0, acceleratorMissed = 0;
        // The border's vertices and edges are excluded: a segment through them, rounded, may pass outside.
        const auto onBorder = [&](const RealVec3& local) {
            const std::array<Real, 2> grid = gridCoordinates(terrain, local);
            const Real margin = Real(1e-3);
            return grid[0] < margin || grid[0] > Real(config.width - 1) - margin || grid[1] < margin ||
                   grid[1] > Real(config.length - 1) - margin;
        };
        aimAtVerticesAndEdges(terrain.triangles(), random, [&](const RealVec3& local) {
            if (onBorder(local)) return;
            const btVector3 aim = toWorld(terrain, local);
            for (int k = 0; k < 3; ++k) {
                const auto [from, to] = segmentThrough(aim, nearUp(random, terrain, M_PI / 6), random);
                Recorder closest(Mode::Closest), all(Mode::AllHits),
                    bullet(Mode::Closest, Flags::kF_DisableHeightfieldAccelerator),
                    accelerated(Mode::Closest);
                castOurs(terrain, from, to, closest);
                castOurs(terrain, from, to, all);
                castBullet(terrain.object(), from, to, bullet);
                castBullet(terrain.object(), from, to, accelerated);
                ours.count(closest, all, from, to);
                bulletMissed += bullet.reports.empty();
                acceleratorMissed += accelerated.reports.empty();
            }
        });
        std::printf(
            "[ watertight ] %s: %ld segments through grid vertices and edges; missed: ours %ld (all hits "
            "%ld), Bullet's %ld (processAllTriangles), %ld (performRaycast)\n",
            describe(config).c_str(), ours.segments, ours.closest, ours.allHits, bulletMissed,
            acceleratorMissed);
        EXPECT_GE(ours.segments, 2 * (config.width - 3) * (config.length - 3) * 27);
        ours.expectNone();
    }
}

// ---- Flags ----------------------------------------------------------------------------------------

// A flat heightfield crossed from its front and from its back with each combination of the flags. Its
// front is the side (v1 - v0) x (v2 - v0) of processAllTriangles' triangles points to: up the up axis
// for up axis 1, down it for 0 and 2, the other way with flipped winding, and the mirror image under a
// mirroring scaling. From the front: the front's normal; from the back: the normal turned toward the
// origin unless kF_KeepUnflippedNormal, nothing with kF_FilterBackfaces. Hit or not, and the normal, as
// Bullet's processAllTriangles path.
TEST(RayHeightfield, FlagsFromBothSides) {
    Random random(530);
    long checked = 0, bulletChecked = 0;
    for (int upAxis = 0; upAxis < 3; ++upAxis)
        for (const bool flipWinding : {false, true})
            for (const btScalar mirror : {btScalar(1), btScalar(-1)}) {
                btVector3 scaling(btScalar(1.5), btScalar(0.5), btScalar(2));
                scaling[(upAxis + 1) % 3] *= mirror;
                const Config config{PHY_FLOAT, upAxis, Split::Plain, flipWinding, scaling, true, 7, 7};
                TerrainCase terrain(config, random, [](int, int) { return 0.0; });
                // The expected front, from first principles: (x, j) axes and the up axis form a left- or
                // right-handed frame; the plain first triangle (x, j), (x, j + 1), (x + 1, j) turns from
                // j to x.
                btVector3 alongX(0, 0, 0), alongJ(0, 0, 0);
                alongX[upAxis == 0 ? 1 : 0] = scaling[upAxis == 0 ? 1 : 0];
                alongJ[upAxis == 2 ? 1 : 2] = scaling[upAxis == 2 ? 1 : 2];
                btVector3 localFront = alongJ.cross(alongX).normalized();
                if (flipWinding) localFront = -localFront;
                const btVector3 front = terrain.place().getBasis() * localFront;
                // Bullet's processAllTriangles path where it works, else its performRaycast where that
                // walks and winds the grid as processAllTriangles does.
                const bool bulletComparable =
                    processAllTrianglesPathWorks(config) || (upAxis != 0 && !flipWinding);
                const unsigned bulletPath = processAllTrianglesPathWorks(config)
                                                ? unsigned(Flags::kF_DisableHeightfieldAccelerator)
                                                : 0u;
                for (int i = 0; i < 100; ++i) {
                    const RealVec3 aim =
                        gridPoint(terrain, Real(random.uniform(0.1, 5.9)), Real(random.uniform(0.1, 5.9)), 0);
                    const bool fromFront = i % 2 == 0;
                    const btVector3 direction = nearUp(random, terrain, M_PI / 3);
                    const btVector3 toward = (direction.dot(front) > 0) == fromFront ? direction : -direction;
                    const btVector3 from = toWorld(terrain, aim) + toward * btScalar(2),
                                    to = toWorld(terrain, aim) - toward * btScalar(2);
                    for (const unsigned flags : kFlagSets) {
                        SCOPED_TRACE(describe(config) + ", flags " + std::to_string(flags) +
                                     (fromFront ? ", from the front" : ", from behind"));
                        Recorder ours(Mode::Closest, flags), bullet(Mode::Closest, flags | bulletPath);
                        castOurs(terrain, from, to, ours);
                        ++checked;
                        ASSERT_NO_FATAL_FAILURE(expectFlaggedAnswer(ours, flags, fromFront, front));
                        if (!bulletComparable) continue;
                        ++bulletChecked;
                        castBullet(terrain.object(), from, to, bullet);
                        ASSERT_EQ(bullet.reports.size(), ours.reports.size());
                        if (!ours.reports.empty()) {
                            EXPECT_GT(bullet.reports[0].normal.dot(ours.reports[0].normal), 1 - 64 * u);
                        }
                    }
                }
            }
    EXPECT_EQ(checked, 3 * 2 * 2 * 100 * 4);
    EXPECT_EQ(bulletChecked, 8 * 100 * 4);
}

// ---- All hits, early termination, degenerate segments ------------------------------------------------

// Steep hills crossed by shallow segments, through many of them: every triangle crossed is reported,
// once, as many as the reference finds and as Bullet's processAllTriangles path (where all are decided
// with Bullet's band), with its fractions; a callback answering 0 after the first report gets that one
// only.
TEST(RayHeightfield, AllHitsThroughManyHillsAndEarlyTermination) {
    Random random(540);
    for (int upAxis = 0; upAxis < 3; ++upAxis) {
        const Config config{PHY_DOUBLE, upAxis, Split::Diamond, false, btVector3(1, btScalar(1.5), 1), true,
                            33,         33};
        TerrainCase terrain(config, random,
                            [](int i, int j) { return 2.5 * std::sin(1.1 * i) * std::cos(0.8 * j); });
        const Reference reference(terrain);
        long compared = 0, manyCrossings = 0;
        for (int i = 0; i < 2000; ++i) {
            const RealVec3 a = gridPoint(terrain, Real(random.uniform(-2, 34)), Real(random.uniform(-2, 34)),
                                         Real(random.uniform(-1, 1)));
            const RealVec3 b = gridPoint(terrain, Real(random.uniform(-2, 34)), Real(random.uniform(-2, 34)),
                                         Real(random.uniform(-1, 1)));
            const btVector3 from = toWorld(terrain, a), to = toWorld(terrain, b);
            const Expectation expectation = reference.expect(from, to);
            const Real bulletUnits = bulletBandUnits(terrain.triangles().longestEdge(), expectation.scale);
            const Expectation wide = reference.expect(from, to, bulletUnits);
            if (!allDecided(wide)) continue;
            const std::size_t crossed = hitCount(wide);
            ++compared;
            manyCrossings += crossed >= 4;
            btCollisionWorld::AllHitsRayResultCallback ours(from, to), bullet(from, to);
            bullet.m_flags = Flags::kF_DisableHeightfieldAccelerator;
            castOurs(terrain, from, to, ours);
            castBullet(terrain.object(), from, to, bullet);
            ASSERT_NO_FATAL_FAILURE(expectHitsAsBullet(ours, bullet, crossed));
            Recorder first(Mode::StopAfterFirst);
            castOurs(terrain, from, to, first);
            EXPECT_EQ(first.reports.size(), std::min(crossed, std::size_t(1)));
        }
        std::printf("[ hills, up %d ] %ld segments compared, %ld crossing 4 or more triangles\n", upAxis,
                    compared, manyCrossings);
        EXPECT_GE(compared, 1000);
        EXPECT_GE(manyCrossings, 300);
    }
}

// A segment of length zero or with a non-finite end, a callback whose fraction is already 0, and a
// heightfield flattened across its grid (a zero horizontal scaling) get nothing.
TEST(RayHeightfield, DegenerateSegmentsGetNothing) {
    Random random(550);
    const Config config{PHY_FLOAT, 1, Split::Plain, false, btVector3(1, 1, 1), false, 5, 5};
    TerrainCase terrain(config, random, hills);
    expectNothingFromDegenerateSegments(
        [&](const btVector3& from, const btVector3& to, Recorder& all) { castOurs(terrain, from, to, all); });
    Recorder stopped(Mode::AllHits, 0, 0);
    castOurs(terrain, btVector3(0.3f, 5, 0.2f), btVector3(0.3f, -5, 0.2f), stopped);
    EXPECT_TRUE(stopped.reports.empty());
    Recorder normal(Mode::AllHits);
    castOurs(terrain, btVector3(0.3f, 5, 0.2f), btVector3(0.3f, -5, 0.2f), normal);
    EXPECT_EQ(normal.reports.size(), 1u);
    TerrainCase flattened({PHY_FLOAT, 1, Split::Plain, false, btVector3(0, 1, 1), false, 5, 5}, random,
                          hills);
    Recorder none(Mode::AllHits);
    castOurs(flattened, btVector3(0, 5, 0.2f), btVector3(0, -5, 0.2f), none);
    EXPECT_TRUE(none.reports.empty());
}

}  // namespace
}  // namespace analytic::test
