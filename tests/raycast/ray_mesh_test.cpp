// SPDX-License-Identifier: Zlib
// Ray casts against BVH triangle meshes (cast::castAgainstMesh: btBvhTriangleMeshShape with its
// quantized and plain trees, btScaledBvhTriangleMeshShape non-uniform and mirrored), in the build's
// btScalar, against a long double reference per triangle (reference/ray_triangle_reference.hpp) on
// random meshes (bumpy grid terrains like scene M's, random triangle soups with slivers) and random
// rays; Bullet's own btCollisionWorld::rayTestSingle beside it where Bullet is within its tolerance;
// watertightness at shared edges and vertices; the flags from both sides; all-hits completeness, early
// termination and a caller's starting fraction; part ids of a two-part mesh with 16-bit indices. Each
// test runs through Bullet's own tree and through the mesh's tree of our own (cast::MeshTree).
//
// The reference works in the frame of the unscaled mesh's vertices (the segment mapped there exactly,
// where fractions are the same). Bounds, with u the unit roundoff of btScalar and S the scale of a ray
// there: max|from| + max|to| (mapped) + the largest vertex coordinate + (|from| + |to| + |mesh origin|)
// in the world over the smallest |scaling|:
// - band: a triangle is decided (hit or miss) when the segment's line is farther than 64 u S from its
//   edges and, where it crosses it, the crossing farther than 64 u S from the segment's ends
//   (distanceToAmbiguity); a decided hit must be reported, a decided miss must not.
// - closest: the closest decided hit is the closest reported unless another triangle, decided or not,
//   is crossed (its plane, for an undecided one) within the fraction bound of it.
// - fraction: within (16 u S + a L) / |n . d| of the reference (n the unit normal, d the mapped
//   direction, L the triangle's longest edge, a the normal bound below: the core's plane turned by its
//   normal's error moves the crossing by up to a L).
// - normal: within 32 u c (1 + |e1| |e2| / |e1 x e2|) radians of the reference (e1, e2 the two longest
//   edges, c the scaling's largest over smallest |component|), turned as Bullet turns it.
// - Bullet's tolerance: its triangle test accepts points up to 1e-4 of an altitude outside an edge; it
//   is taken as within its tolerance when every triangle near the segment is decided with a band of
//   1e-3 of the mesh's longest edge (plus 1024 u S), and then it must name the same closest triangle.
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btScaledBvhTriangleMeshShape.h>
#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "cast/mesh_cast.hpp"
#include "cast/mesh_tree.hpp"
#include "cast/ray_query.hpp"
#include "support/test_support.hpp"
#include "support/triangle_rays.hpp"

namespace analytic::test {
namespace {

// ---- Meshes ---------------------------------------------------------------------------------------

// Triangle storage for btBvhTriangleMeshShape (parts with 32- or 16-bit indices, vertices in btScalar),
// kept alive as long as the shapes made from it, with each triangle for the reference (its vertices in
// the unscaled mesh's frame).
class MeshData {
public:
    MeshData() = default;
    MeshData(const MeshData&) = delete;
    MeshData& operator=(const MeshData&) = delete;

    void addPart(const std::vector<btVector3>& vertices, const std::vector<int>& indices,
                 bool shortIndices = false) {
        auto part = std::make_unique<Part>();
        for (const btVector3& v : vertices)
            part->vertices.insert(part->vertices.end(), {v.x(), v.y(), v.z()});
        btIndexedMesh mesh;
        mesh.m_numTriangles = int(indices.size() / 3);
        mesh.m_numVertices = int(vertices.size());
        mesh.m_vertexBase = reinterpret_cast<const unsigned char*>(part->vertices.data());
        mesh.m_vertexStride = 3 * sizeof(btScalar);
        mesh.m_vertexType = sizeof(btScalar) == sizeof(double) ? PHY_DOUBLE : PHY_FLOAT;
        if (shortIndices) {
            part->shortIndices.assign(indices.begin(), indices.end());
            mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(part->shortIndices.data());
            mesh.m_triangleIndexStride = 3 * sizeof(unsigned short);
        } else {
            part->indices = indices;
            mesh.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(part->indices.data());
            mesh.m_triangleIndexStride = 3 * sizeof(int);
        }
        array_.addIndexedMesh(mesh, shortIndices ? PHY_SHORT : PHY_INTEGER);
        const int partId = int(parts_.size());
        for (int t = 0; t < mesh.m_numTriangles; ++t)
            triangles_.add({widen(vertices[std::size_t(indices[std::size_t(3 * t)])]),
                            widen(vertices[std::size_t(indices[std::size_t(3 * t + 1)])]),
                            widen(vertices[std::size_t(indices[std::size_t(3 * t + 2)])])},
                           partId, t);
        parts_.push_back(std::move(part));
    }

    btTriangleIndexVertexArray& array() { return array_; }
    const TriangleSet& triangles() const { return triangles_; }

private:
    struct Part {
        std::vector<btScalar> vertices;
        std::vector<int> indices;
        std::vector<unsigned short> shortIndices;
    };
    std::vector<std::unique_ptr<Part>> parts_;
    btTriangleIndexVertexArray array_;
    TriangleSet triangles_;
};

// A grid of quadsX x quadsZ square cells at origin: vertex (i, k) at origin + (i cell, height, k cell);
// cell q = k quadsX + i has the triangles 2q = (a, c, b) and 2q + 1 = (b, c, d) (a = (i, k), b = (i + 1,
// k), c = (i, k + 1), d = (i + 1, k + 1)), whose counter-clockwise side faces +y, as scene M's.
template <class Height> void addGrid(MeshData& data, int quadsX, int quadsZ, btScalar cell,
                                     const btVector3& origin, Height height, bool shortIndices = false) {
    std::vector<btVector3> vertices;
    for (int k = 0; k <= quadsZ; ++k)
        for (int i = 0; i <= quadsX; ++i) {
            const btScalar x = origin.x() + btScalar(i) * cell, z = origin.z() + btScalar(k) * cell;
            vertices.emplace_back(x, origin.y() + height(x, z), z);
        }
    std::vector<int> indices;
    for (int k = 0; k < quadsZ; ++k)
        for (int i = 0; i < quadsX; ++i) {
            const int a = k * (quadsX + 1) + i, b = a + 1, c = a + quadsX + 1, d = c + 1;
            indices.insert(indices.end(), {a, c, b, b, c, d});
        }
    data.addPart(vertices, indices, shortIndices);
}

// Scene M's kind of relief, at the scale of a cell.
btScalar bumps(btScalar x, btScalar z) {
    return btScalar(0.8 * std::sin(0.45 * x) * std::cos(0.3 * z) + 0.15 * std::sin(2.1 * x + 1.3 * z));
}

// count independent triangles in [-extent, extent]^3, edges from 0.1 to 3, a tenth of them slivers
// (the third vertex within 1e-3 of the first edge).
void addSoup(MeshData& data, Random& random, int count, double extent) {
    std::vector<btVector3> vertices;
    std::vector<int> indices;
    for (int t = 0; t < count; ++t) {
        const Vec3<double> centre = random.point<double>(extent);
        const double size = random.logUniform(0.1, 3);
        const Vec3<double> a = centre + size * random.unitVector<double>();
        const Vec3<double> b = centre + size * random.unitVector<double>();
        Vec3<double> c = centre + size * random.unitVector<double>();
        if (random.chance(0.1))
            c = a + random.uniform(-0.2, 1.2) * (b - a) + 1e-3 * random.unitVector<double>();
        for (const Vec3<double>& v : {a, b, c}) {
            indices.push_back(int(vertices.size()));
            vertices.emplace_back(btScalar(v.x), btScalar(v.y), btScalar(v.z));
        }
    }
    data.addPart(vertices, indices);
}

// A mesh shape over the data (quantized tree or not), scaled by a btScaledBvhTriangleMeshShape unless
// the scaling is 1, in an object at a place.
enum class MeshWalk { BulletTree, OwnTree };

class MeshCase {
public:
    MeshCase(std::unique_ptr<MeshData> data, bool quantized, const btVector3& scaling,
             const btTransform& place, MeshWalk walk)
        : data_(std::move(data)),
          bvh_(std::make_unique<btBvhTriangleMeshShape>(&data_->array(), quantized)),
          scaling_(scaling) {
        if (scaling != btVector3(1, 1, 1))
            scaled_ = std::make_unique<btScaledBvhTriangleMeshShape>(bvh_.get(), scaling);
        shape_ = scaled_ ? static_cast<btConcaveShape*>(scaled_.get()) : bvh_.get();
        object_.setCollisionShape(shape_);
        object_.setWorldTransform(place);
        if (walk == MeshWalk::OwnTree) ownTree_ = std::make_unique<cast::MeshTree>(data_->array(), 1);
    }

    const MeshData& data() const { return *data_; }
    const btConcaveShape& shape() const { return *shape_; }
    btCollisionObject& object() { return object_; }
    const btTransform& place() const { return object_.getWorldTransform(); }
    const btVector3& scaling() const { return scaling_; }
    const cast::MeshTree* ownTree() const { return ownTree_.get(); }  // null: Bullet's tree is walked

private:
    std::unique_ptr<MeshData> data_;
    std::unique_ptr<btBvhTriangleMeshShape> bvh_;
    std::unique_ptr<btScaledBvhTriangleMeshShape> scaled_;
    btVector3 scaling_;
    btConcaveShape* shape_;
    btCollisionObject object_;
    std::unique_ptr<cast::MeshTree> ownTree_;
};

// ---- Casting --------------------------------------------------------------------------------------

void castOurs(MeshCase& mesh, const btVector3& from, const btVector3& to,
              btCollisionWorld::RayResultCallback& callback) {
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    cast::castAgainstMesh(cast::RayQuery{segment, callback}, mesh.object(),
                          {&mesh.shape(), mesh.place(), mesh.ownTree()});
}

// Every test runs twice: through Bullet's own tree (analytic::rayTest's path) and through the mesh's
// tree of our own (a batch's, with a BatchCache).
class RayMesh : public ::testing::TestWithParam<MeshWalk> {};

INSTANTIATE_TEST_SUITE_P(Walks, RayMesh, ::testing::Values(MeshWalk::BulletTree, MeshWalk::OwnTree),
                         [](const auto& info) {
                             return info.param == MeshWalk::OwnTree ? "OwnTree" : "BulletTree";
                         });

// ---- Reference ------------------------------------------------------------------------------------

// The reference in the unscaled mesh's frame, the segment mapped there exactly (fractions are the same).
class Reference {
public:
    explicit Reference(const MeshCase& mesh)
        : mesh_(mesh), place_(mesh.place()), scaling_(widen(mesh.scaling())) {
        const RealVec3 magnitude = glm::abs(scaling_);
        smallestScaling_ = std::min({magnitude.x, magnitude.y, magnitude.z});
        scalingCondition_ = std::max({magnitude.x, magnitude.y, magnitude.z}) / smallestScaling_;
    }

    RealVec3 toMesh(const btVector3& point) const { return place_.toLocal(point) / scaling_; }

    // bandUnits: the band (in units of u S) that decides triangles.
    Expectation expect(const btVector3& from, const btVector3& to, Real bandUnits = kBand) const {
        const RealVec3 origin = toMesh(from), end = toMesh(to);
        const Real scale =
            maxAbs(origin) + maxAbs(end) + mesh_.data().triangles().extent() +
            (maxAbs(widen(from)) + maxAbs(widen(to)) + maxAbs(place_.origin())) / smallestScaling_;
        // The front's normal through the scaling.
        return crossTriangles(mesh_.data().triangles(), origin, end, scale, bandUnits, scalingCondition_,
                              [&](const RealVec3& unit) {
                                  const RealVec3 scaled = unit / scaling_;
                                  return place_.basis() * (scaled / glm::length(scaled));
                              });
    }

private:
    const MeshCase& mesh_;
    RealPlace place_;
    RealVec3 scaling_;
    Real smallestScaling_;
    Real scalingCondition_;
};

// ---- Random comparison ----------------------------------------------------------------------------

// Compares one segment's all-hits and closest answers with the reference, and with Bullet's where it is
// within its tolerance.
void compareRay(MeshCase& mesh, const Reference& reference, const btVector3& from, const btVector3& to,
                btScalar startFraction, Tally& tally) {
    const Expectation expectation = reference.expect(from, to);
    Recorder all(Mode::AllHits, 0, startFraction), closest(Mode::Closest);
    castOurs(mesh, from, to, all);
    castOurs(mesh, from, to, closest);
    checkAgainstReference(expectation, all, closest, from, to, startFraction, tally);
    const Real bulletUnits = bulletBandUnits(mesh.data().triangles().longestEdge(), expectation.scale);
    if (!bulletWithinTolerance(reference.expect(from, to, bulletUnits))) return;
    Recorder bullet(Mode::Closest);
    castBullet(mesh.object(), from, to, bullet);
    compareClosestWithBullet(bullet, closest, "Bullet", from, to, tally);
}

// Random segments at a mesh: half aimed at a point of a random triangle (anywhere on it, its edges and
// corners included) from either side, the rest between random points around the mesh; a quarter of
// the all-hits casts start from a fraction below 1.
Tally compareRandomRays(MeshCase& mesh, std::uint64_t seed, int rays) {
    Random random(seed);
    const Reference reference(mesh);
    const btTransform& place = mesh.place();
    const btVector3 scaling = mesh.scaling();
    const btVector3 magnitude = scaling.absolute();
    const double reach = double(mesh.data().triangles().extent()) * double(magnitude[magnitude.maxAxis()]);
    Tally tally;
    for (int i = 0; i < rays; ++i) {
        btVector3 from, to;
        if (i % 2 == 0) {
            const RealVec3 local = randomAimAt(mesh.data().triangles(), random);
            const btVector3 aim =
                place * (btVector3(btScalar(local.x), btScalar(local.y), btScalar(local.z)) * scaling);
            const auto [heading, before, after] = randomApproach(random, reach);
            from = aim - btVector3(btScalar(heading.x * before), btScalar(heading.y * before),
                                   btScalar(heading.z * before));
            to = aim + btVector3(btScalar(heading.x * after), btScalar(heading.y * after),
                                 btScalar(heading.z * after));
        } else {
            from = randomPointAround(random, place, reach);
            to = randomPointAround(random, place, reach);
        }
        compareRay(mesh, reference, from, to, randomStartFraction(random), tally);
    }
    return tally;
}

void expectGoodTally(const Tally& tally, const char* name, int rays) {
    std::printf("[ %s ] %s\n", name, tally.counts("Bullet").c_str());
    expectGoodReferenceTally(tally, rays);
    EXPECT_GE(tally.bulletCompared, rays / 2);
}

std::unique_ptr<MeshData> terrain(int cells, btScalar cell) {
    auto data = std::make_unique<MeshData>();
    const btScalar half = btScalar(cells) * cell / 2;
    addGrid(*data, cells, cells, cell, btVector3(-half, 0, -half), bumps);
    return data;
}

std::unique_ptr<MeshData> soup(std::uint64_t seed, int count, double extent) {
    auto data = std::make_unique<MeshData>();
    Random random(seed);
    addSoup(*data, random, count, extent);
    return data;
}

TEST_P(RayMesh, TerrainQuantizedAgainstReference) {
    Random random(401);
    MeshCase mesh(terrain(16, 1), true, btVector3(1, 1, 1), randomPlace(random, 20), GetParam());
    const Tally tally = compareRandomRays(mesh, 402, 100000 / test::kCaseDivisor);
    expectGoodTally(tally, "terrain, quantized tree", 100000 / test::kCaseDivisor);
}

TEST_P(RayMesh, TerrainPlainTreeAgainstReference) {
    Random random(403);
    MeshCase mesh(terrain(12, btScalar(1.5)), false, btVector3(1, 1, 1), randomPlace(random, 20), GetParam());
    const Tally tally = compareRandomRays(mesh, 404, 30000 / test::kCaseDivisor);
    expectGoodTally(tally, "terrain, plain tree", 30000 / test::kCaseDivisor);
}

TEST_P(RayMesh, SoupAgainstReference) {
    Random random(405);
    MeshCase mesh(soup(406, 400, 6), true, btVector3(1, 1, 1), randomPlace(random, 20), GetParam());
    const Tally tally = compareRandomRays(mesh, 407, 100000 / test::kCaseDivisor);
    expectGoodTally(tally, "soup", 100000 / test::kCaseDivisor);
}

TEST_P(RayMesh, ScaledTerrainAgainstReference) {
    Random random(408);
    MeshCase mesh(terrain(16, 1), true, btVector3(btScalar(2.5), btScalar(0.4), btScalar(1.5)),
                  randomPlace(random, 20), GetParam());
    const Tally tally = compareRandomRays(mesh, 409, 50000 / test::kCaseDivisor);
    expectGoodTally(tally, "scaled terrain", 50000 / test::kCaseDivisor);
}

TEST_P(RayMesh, MirroredScaledSoupAgainstReference) {
    Random random(410);
    MeshCase mesh(soup(411, 400, 6), true, btVector3(btScalar(-1.5), btScalar(0.7), btScalar(2)),
                  randomPlace(random, 20), GetParam());
    const Tally tally = compareRandomRays(mesh, 412, 50000 / test::kCaseDivisor);
    expectGoodTally(tally, "mirrored scaled soup", 50000 / test::kCaseDivisor);
}

// ---- Watertightness -------------------------------------------------------------------------------

// A direction within maxAngle of the mesh frame's +y or -y (either, at random), in world space.
btVector3 nearVertical(Random& random, const btTransform& place, double maxAngle) {
    const double cosine = random.uniform(std::cos(maxAngle), 1), azimuth = random.uniform(0, 2 * M_PI);
    const double sine = std::sqrt(1 - cosine * cosine), side = random.chance(0.5) ? 1 : -1;
    return place.getBasis() * btVector3(btScalar(sine * std::cos(azimuth)), btScalar(side * cosine),
                                        btScalar(sine * std::sin(azimuth)));
}

// Segments through the shared vertices and shared edges (their midpoints and random points) of a bumpy
// grid, in the frame of its unscaled vertices: the grid is a height field whose faces are within 35
// degrees of level and the segments within 30 degrees of the vertical, so each one crosses it exactly
// once, there. None may slip through, plain, scaled non-uniformly, mirrored, placed anywhere; Bullet's
// misses are counted.
TEST_P(RayMesh, WatertightAtSharedEdgesAndVertices) {
    Random random(420);
    const btVector3 scalings[] = {btVector3(1, 1, 1), btVector3(btScalar(2.5), btScalar(0.4), btScalar(1.5)),
                                  btVector3(1, -1, 1), btVector3(btScalar(-1.5), 1, 2)};
    for (const btVector3& scaling : scalings)
        for (const bool placed : {false, true}) {
            const btTransform place = placed ? randomPlace(random, 30) : btTransform::getIdentity();
            // The plain tree where placed: its boxes are the triangles' own, shared vertices on their faces.
            MeshCase mesh(terrain(8, btScalar(0.7)), !placed, scaling, place, GetParam());
            const Real inner = Real(8 * 0.7 / 2) - Real(1e-3);  // shared vertices and edges lie within
            Misses ours;
            long bulletMissed = 0;
            aimAtVerticesAndEdges(mesh.data().triangles(), random, [&](const RealVec3& local) {
                if (std::abs(local.x) >= inner || std::abs(local.z) >= inner) return;
                const btVector3 aim =
                    place * (btVector3(btScalar(local.x), btScalar(local.y), btScalar(local.z)) * scaling);
                for (int k = 0; k < 4; ++k) {
                    const auto [from, to] =
                        segmentThrough(aim, nearVertical(random, place, M_PI / 6), random);
                    Recorder closest(Mode::Closest), all(Mode::AllHits), bullet(Mode::Closest);
                    castOurs(mesh, from, to, closest);
                    castOurs(mesh, from, to, all);
                    castBullet(mesh.object(), from, to, bullet);
                    ours.count(closest, all, from, to);
                    bulletMissed += bullet.reports.empty();
                }
            });
            std::printf(
                "[ watertight ] scaling (%g, %g, %g)%s: %ld segments through shared edges and vertices; "
                "missed: ours %ld (all hits %ld), Bullet's %ld\n",
                double(scaling.x()), double(scaling.y()), double(scaling.z()),
                placed ? ", placed, plain tree" : ", quantized tree", ours.segments, ours.closest,
                ours.allHits, bulletMissed);
            EXPECT_GE(ours.segments, 3900);
            ours.expectNone();
        }
}

// ---- Flags ----------------------------------------------------------------------------------------

// A flat grid crossed from its front and from its back with each combination of the flags: from the
// front, the front's normal; from the back, the normal turned toward the origin unless
// kF_KeepUnflippedNormal, nothing with kF_FilterBackfaces. The front of a scaled mesh is the image of
// the unscaled front (+y here), so a mirror across y turns it down. Hit or not as Bullet's; the normal
// as Bullet's on the unscaled mesh (Bullet gives a scaled mesh the unscaled triangle's normal, which a
// mirror turns away from the origin).
TEST_P(RayMesh, FlagsFromBothSides) {
    Random random(430);
    const btVector3 scalings[] = {btVector3(1, 1, 1), btVector3(2, btScalar(-0.5), 1), btVector3(-1, 1, 1)};
    long checked = 0;
    for (const btVector3& scaling : scalings) {
        auto data = std::make_unique<MeshData>();
        addGrid(*data, 6, 6, 1, btVector3(-3, 0, -3), [](btScalar, btScalar) { return btScalar(0); });
        const btTransform place = randomPlace(random, 10);
        MeshCase mesh(std::move(data), true, scaling, place, GetParam());
        const btVector3 front = place.getBasis() * btVector3(0, scaling.y() > 0 ? 1 : -1, 0);
        for (int i = 0; i < 200; ++i) {
            const btVector3 aim = place * (btVector3(btScalar(random.uniform(-2.9, 2.9)), 0,
                                                     btScalar(random.uniform(-2.9, 2.9))) *
                                           scaling);
            const bool fromFront = i % 2 == 0;
            const btVector3 direction = nearVertical(random, place, M_PI / 3);
            const btVector3 toward = (direction.dot(front) > 0) == fromFront ? direction : -direction;
            const btVector3 from = aim + toward * btScalar(2), to = aim - toward * btScalar(2);
            for (const unsigned flags : kFlagSets) {
                SCOPED_TRACE("front " + std::to_string(fromFront) + ", flags " + std::to_string(flags));
                Recorder ours(Mode::Closest, flags), bullet(Mode::Closest, flags);
                castOurs(mesh, from, to, ours);
                castBullet(mesh.object(), from, to, bullet);
                ++checked;
                ASSERT_NO_FATAL_FAILURE(expectFlaggedAnswer(ours, flags, fromFront, front));
                ASSERT_EQ(bullet.reports.size(), ours.reports.size());
                if (!ours.reports.empty() && scaling == btVector3(1, 1, 1)) {
                    EXPECT_GT(bullet.reports[0].normal.dot(ours.reports[0].normal), 1 - 64 * u);
                }
            }
        }
    }
    EXPECT_EQ(checked, 3 * 200 * 4);
}

// ---- Parts, all hits, early termination ------------------------------------------------------------

// Two bumpy layers, one above the other, each a part with 16-bit indices.
std::unique_ptr<MeshData> twoLayers() {
    auto data = std::make_unique<MeshData>();
    addGrid(*data, 10, 10, 1, btVector3(-5, 0, -5), bumps, true);
    addGrid(*data, 14, 14, btScalar(0.6), btVector3(-4.2, 3, -4.2), bumps, true);
    return data;
}

// The two-layer mesh against the reference (part ids included) and Bullet, and both parts are reported.
TEST_P(RayMesh, TwoPartsWithShortIndicesAgainstReference) {
    Random random(440);
    MeshCase mesh(twoLayers(), true, btVector3(1, 1, 1), randomPlace(random, 10), GetParam());
    const Tally tally = compareRandomRays(mesh, 441, 20000 / test::kCaseDivisor);
    expectGoodTally(tally, "two parts, 16-bit indices", 20000 / test::kCaseDivisor);
    long partHits[2] = {0, 0};
    for (int i = 0; i < 1000; ++i) {
        const btVector3 aim =
            mesh.place() * btVector3(btScalar(random.uniform(-4, 4)), btScalar(random.uniform(-1, 4)),
                                     btScalar(random.uniform(-4, 4)));
        const btVector3 direction = nearVertical(random, mesh.place(), M_PI / 4);
        Recorder all(Mode::AllHits);
        castOurs(mesh, aim + 10 * direction, aim - 10 * direction, all);
        for (const Report& report : all.reports) {
            ASSERT_TRUE(report.part == 0 || report.part == 1);
            ++partHits[report.part];
        }
    }
    EXPECT_GE(partHits[0], 500);
    EXPECT_GE(partHits[1], 500);
}

// Bullet's AllHitsRayResultCallback through both layers gets one hit per layer crossed, as many as the
// reference and as Bullet's, with Bullet's fractions (where Bullet is within its tolerance: away from
// edges); a callback answering 0 after the first report gets that one only, as from Bullet.
TEST_P(RayMesh, AllHitsThroughLayersAndEarlyTermination) {
    Random random(450);
    MeshCase mesh(twoLayers(), true, btVector3(1, 1, 1), randomPlace(random, 10), GetParam());
    const Reference reference(mesh);
    long compared = 0, throughBoth = 0;
    for (int i = 0; i < 2000; ++i) {
        const btVector3 aim =
            mesh.place() * btVector3(btScalar(random.uniform(-3, 3)), btScalar(random.uniform(0.5, 2.5)),
                                     btScalar(random.uniform(-3, 3)));
        const btVector3 direction = nearVertical(random, mesh.place(), M_PI / 9);
        const btVector3 from = aim + 10 * direction, to = aim - 10 * direction;
        const Real bulletUnits = kBulletBand + Real(1e-2) / (u * reference.expect(from, to).scale);
        const Expectation wide = reference.expect(from, to, bulletUnits);
        if (!allDecided(wide)) continue;
        const std::size_t crossed = hitCount(wide);
        ++compared;
        throughBoth += crossed == 2;
        btCollisionWorld::AllHitsRayResultCallback ours(from, to), bullet(from, to);
        castOurs(mesh, from, to, ours);
        castBullet(mesh.object(), from, to, bullet);
        ASSERT_NO_FATAL_FAILURE(expectHitsAsBullet(ours, bullet, crossed));
        Recorder first(Mode::StopAfterFirst), bulletFirst(Mode::StopAfterFirst);
        castOurs(mesh, from, to, first);
        castBullet(mesh.object(), from, to, bulletFirst);
        EXPECT_EQ(first.reports.size(), std::min(crossed, std::size_t(1)));
        EXPECT_EQ(bulletFirst.reports.size(), std::min(crossed, std::size_t(1)));
    }
    std::printf("[ layers ] %ld segments compared, %ld through both layers\n", compared, throughBoth);
    EXPECT_GE(throughBoth, 1000);
}

// A segment of length zero or with a non-finite end, and a callback whose fraction is already 0, get
// nothing.
TEST_P(RayMesh, DegenerateSegmentsGetNothing) {
    MeshCase mesh(terrain(4, 1), true, btVector3(1, 1, 1), btTransform::getIdentity(), GetParam());
    expectNothingFromDegenerateSegments(
        [&](const btVector3& from, const btVector3& to, Recorder& all) { castOurs(mesh, from, to, all); });
    Recorder stopped(Mode::AllHits, 0, 0);
    castOurs(mesh, btVector3(0, 5, 0), btVector3(0, -5, 0), stopped);
    EXPECT_TRUE(stopped.reports.empty());
    Recorder normal(Mode::AllHits);
    castOurs(mesh, btVector3(0.3, 5, 0.2), btVector3(0.3, -5, 0.2), normal);
    EXPECT_EQ(normal.reports.size(), 1u);
}

}  // namespace
}  // namespace analytic::test
