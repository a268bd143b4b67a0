// Ray casts against BVH triangle meshes (raycast::castAgainstMesh: btBvhTriangleMeshShape with its
// quantized and plain trees, btScaledBvhTriangleMeshShape non-uniform and mirrored), in the build's
// btScalar, against a long double reference per triangle (reference/ray_triangle_reference.hpp) on
// random meshes (bumpy grid terrains like scene M's, random triangle soups with slivers) and random
// rays; Bullet's own btCollisionWorld::rayTestSingle beside it where Bullet is within its tolerance;
// watertightness at shared edges and vertices; the flags from both sides; all-hits completeness, early
// termination and a caller's starting fraction; part ids of a two-part mesh with 16-bit indices.
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
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/numeric.hpp"
#include "raycast/mesh_raycast.hpp"
#include "reference/ray_triangle_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

using reference::RealTriangle;

constexpr Real u = Real(unitRoundoff<btScalar>);
constexpr Real kBand = 64;
constexpr Real kFraction = 16;
constexpr Real kNormal = 32;
constexpr Real kBulletEdgeShare = 1e-3;
constexpr Real kBulletBand = 1024;

RealVec3 widen(const btVector3& v) { return {Real(v.x()), Real(v.y()), Real(v.z())}; }

Real maxAbs(const RealVec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

std::array<Real, 3> sortedEdges(const RealTriangle& t) {
    std::array<Real, 3> edges{glm::length(t.b - t.a), glm::length(t.c - t.b), glm::length(t.a - t.c)};
    std::sort(edges.begin(), edges.end());
    return edges;
}

Real longestEdge(const RealTriangle& triangle) { return sortedEdges(triangle)[2]; }

// ---- Meshes ---------------------------------------------------------------------------------------

// A triangle of a mesh as the reference sees it: its vertices in the unscaled mesh's frame.
struct MeshTriangle {
    RealTriangle local;
    int part;
    int index;
    RealVec3 boxMin, boxMax;
};

// Triangle storage for btBvhTriangleMeshShape (parts with 32- or 16-bit indices, vertices in btScalar),
// kept alive as long as the shapes made from it, with each triangle for the reference.
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
        for (int t = 0; t < mesh.m_numTriangles; ++t) {
            MeshTriangle triangle{{widen(vertices[std::size_t(indices[std::size_t(3 * t)])]),
                                   widen(vertices[std::size_t(indices[std::size_t(3 * t + 1)])]),
                                   widen(vertices[std::size_t(indices[std::size_t(3 * t + 2)])])},
                                  partId,
                                  t,
                                  {},
                                  {}};
            triangle.boxMin = glm::min(triangle.local.a, glm::min(triangle.local.b, triangle.local.c));
            triangle.boxMax = glm::max(triangle.local.a, glm::max(triangle.local.b, triangle.local.c));
            longestEdge_ = std::max(longestEdge_, analytic::test::longestEdge(triangle.local));
            for (const RealVec3& v : {triangle.local.a, triangle.local.b, triangle.local.c})
                extent_ = std::max(extent_, maxAbs(v));
            triangles_.push_back(triangle);
        }
        parts_.push_back(std::move(part));
    }

    btTriangleIndexVertexArray& array() { return array_; }
    const std::vector<MeshTriangle>& triangles() const { return triangles_; }
    Real longestMeshEdge() const { return longestEdge_; }
    Real extent() const { return extent_; }  // the largest vertex coordinate

private:
    struct Part {
        std::vector<btScalar> vertices;
        std::vector<int> indices;
        std::vector<unsigned short> shortIndices;
    };
    std::vector<std::unique_ptr<Part>> parts_;
    btTriangleIndexVertexArray array_;
    std::vector<MeshTriangle> triangles_;
    Real longestEdge_ = 0, extent_ = 0;
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
class MeshCase {
public:
    MeshCase(std::unique_ptr<MeshData> data, bool quantized, const btVector3& scaling,
             const btTransform& place)
        : data_(std::move(data)),
          bvh_(std::make_unique<btBvhTriangleMeshShape>(&data_->array(), quantized)),
          scaling_(scaling) {
        if (scaling != btVector3(1, 1, 1))
            scaled_ = std::make_unique<btScaledBvhTriangleMeshShape>(bvh_.get(), scaling);
        shape_ = scaled_ ? static_cast<btConcaveShape*>(scaled_.get()) : bvh_.get();
        object_.setCollisionShape(shape_);
        object_.setWorldTransform(place);
    }

    const MeshData& data() const { return *data_; }
    const btConcaveShape& shape() const { return *shape_; }
    btCollisionObject& object() { return object_; }
    const btTransform& place() const { return object_.getWorldTransform(); }
    const btVector3& scaling() const { return scaling_; }

private:
    std::unique_ptr<MeshData> data_;
    std::unique_ptr<btBvhTriangleMeshShape> bvh_;
    std::unique_ptr<btScaledBvhTriangleMeshShape> scaled_;
    btVector3 scaling_;
    btConcaveShape* shape_;
    btCollisionObject object_;
};

// ---- Casting --------------------------------------------------------------------------------------

struct Report {
    int part;
    int index;
    btScalar fraction;
    btVector3 normal;
};

// Records every report. All hits: answers the fraction it had (as AllHitsRayResultCallback); closest:
// the report's fraction (as ClosestRayResultCallback); stopAfterFirst: 0 after the first report.
enum class Mode { AllHits, Closest, StopAfterFirst };

class Recorder : public btCollisionWorld::RayResultCallback {
public:
    explicit Recorder(Mode mode, unsigned flags = 0, btScalar startFraction = 1) : mode_(mode) {
        m_flags = flags;
        m_closestHitFraction = startFraction;
    }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        EXPECT_TRUE(normalInWorldSpace);
        EXPECT_NE(result.m_localShapeInfo, nullptr);
        const btCollisionWorld::LocalShapeInfo info =
            result.m_localShapeInfo ? *result.m_localShapeInfo : btCollisionWorld::LocalShapeInfo{-9, -9};
        reports.push_back(
            {info.m_shapePart, info.m_triangleIndex, result.m_hitFraction, result.m_hitNormalLocal});
        m_collisionObject = result.m_collisionObject;
        if (mode_ == Mode::Closest) m_closestHitFraction = result.m_hitFraction;
        return mode_ == Mode::StopAfterFirst ? btScalar(0) : m_closestHitFraction;
    }

    const Report* closest() const { return reports.empty() ? nullptr : &reports.back(); }

    std::vector<Report> reports;

private:
    Mode mode_;
};

void castOurs(MeshCase& mesh, const btVector3& from, const btVector3& to,
              btCollisionWorld::RayResultCallback& callback) {
    const raycast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    raycast::castAgainstMesh(segment, mesh.object(), mesh.shape(), mesh.place(), callback);
}

void castBullet(MeshCase& mesh, const btVector3& from, const btVector3& to,
                btCollisionWorld::RayResultCallback& callback) {
    const btTransform fromTransform(btMatrix3x3::getIdentity(), from),
        toTransform(btMatrix3x3::getIdentity(), to);
    btCollisionWorld::rayTestSingle(fromTransform, toTransform, &mesh.object(), &mesh.shape(), mesh.place(),
                                    callback);
}

// ---- Reference ------------------------------------------------------------------------------------

// The reference's view of one triangle for one segment.
struct Crossing {
    const MeshTriangle* triangle;
    bool decided;  // hit or miss, with the band
    bool hit;      // the segment crosses it at t in [0, 1)
    Real t;        // where the line crosses its plane (NaN when parallel)
    Real ambiguity;
    Real fractionTolerance;
    RealVec3 normal;  // the expected reported normal, in world space
};

struct Expectation {
    std::vector<Crossing> near;  // the triangles whose boxes the segment comes near
    Real scale;                  // S
    Real band;
};

class Reference {
public:
    explicit Reference(const MeshCase& mesh) : mesh_(mesh) {
        const btMatrix3x3& basis = mesh.place().getBasis();
        for (int row = 0; row < 3; ++row)
            for (int column = 0; column < 3; ++column)
                basis_[column][row] = Real(basis[row][column]);
        origin_ = widen(mesh.place().getOrigin());
        scaling_ = widen(mesh.scaling());
        const RealVec3 magnitude = glm::abs(scaling_);
        smallestScaling_ = std::min({magnitude.x, magnitude.y, magnitude.z});
        scalingCondition_ = std::max({magnitude.x, magnitude.y, magnitude.z}) / smallestScaling_;
    }

    // The segment in the unscaled mesh's frame.
    RealVec3 toMesh(const btVector3& point) const {
        return (glm::transpose(basis_) * (widen(point) - origin_)) / scaling_;
    }

    // band: the band (in units of u S) that decides triangles.
    Expectation expect(const btVector3& from, const btVector3& to, Real bandUnits = kBand) const {
        const RealVec3 origin = toMesh(from), end = toMesh(to), direction = end - origin;
        Expectation expectation;
        expectation.scale = maxAbs(origin) + maxAbs(end) + mesh_.data().extent() +
                            (maxAbs(widen(from)) + maxAbs(widen(to)) + maxAbs(origin_)) / smallestScaling_;
        expectation.band = kBand * u * expectation.scale;
        const Real band = bandUnits * u * expectation.scale;
        const RealVec3 low = glm::min(origin, end) - band, high = glm::max(origin, end) + band;
        for (const MeshTriangle& triangle : mesh_.data().triangles()) {
            if (glm::any(glm::lessThan(triangle.boxMax, low)) ||
                glm::any(glm::greaterThan(triangle.boxMin, high)))
                continue;
            const reference::LineTriangleCrossing line =
                reference::crossLine(triangle.local, origin, direction);
            const RealVec3 areaNormal =
                glm::cross(triangle.local.b - triangle.local.a, triangle.local.c - triangle.local.a);
            const RealVec3 unit = areaNormal / glm::length(areaNormal);
            const Real approach = glm::dot(unit, direction);
            Crossing crossing;
            crossing.triangle = &triangle;
            crossing.t = approach != 0 ? glm::dot(unit, triangle.local.a - origin) / approach
                                       : std::numeric_limits<Real>::quiet_NaN();
            crossing.hit = line.crosses && line.t >= 0 && line.t < 1;
            crossing.ambiguity = reference::distanceToAmbiguity(triangle.local, origin, direction, 1);
            crossing.decided = crossing.ambiguity > band;
            crossing.fractionTolerance = (kFraction * u * expectation.scale +
                                          normalTolerance(triangle) * longestEdge(triangle.local)) /
                                         std::abs(approach);
            // Front: the origin on the side the area normal points to; the normal through the scaling.
            const bool front = glm::dot(areaNormal, origin - triangle.local.a) > 0;
            const RealVec3 scaled = unit / scaling_;
            const RealVec3 world = basis_ * (scaled / glm::length(scaled));
            crossing.normal = front ? world : -world;
            expectation.near.push_back(crossing);
        }
        return expectation;
    }

    // The bound on a reported normal's angle for this triangle.
    Real normalTolerance(const MeshTriangle& triangle) const {
        const std::array<Real, 3> edges = sortedEdges(triangle.local);
        const Real area2 =
            glm::length(glm::cross(triangle.local.b - triangle.local.a, triangle.local.c - triangle.local.a));
        return kNormal * u * scalingCondition_ * (1 + edges[1] * edges[2] / area2);
    }

private:
    const MeshCase& mesh_;
    Mat3<Real> basis_;
    RealVec3 origin_;
    RealVec3 scaling_;
    Real smallestScaling_;
    Real scalingCondition_;
};

// The closest decided hit when it is clear (no other triangle crossed within the fraction bounds of
// it); nullopt when unclear; a null crossing when the reference is sure nothing is hit.
std::optional<const Crossing*> clearClosest(const Expectation& expectation) {
    const Crossing* closest = nullptr;
    for (const Crossing& crossing : expectation.near)
        if (crossing.decided && crossing.hit && (!closest || crossing.t < closest->t)) closest = &crossing;
    for (const Crossing& crossing : expectation.near) {
        if (&crossing == closest || (crossing.decided && !crossing.hit)) continue;
        if (!closest || !std::isfinite(crossing.t)) return std::nullopt;  // an undecided one, or unknown t
        const Real margin = 2 * (crossing.fractionTolerance + closest->fractionTolerance);
        if (crossing.t < closest->t + margin) return std::nullopt;
    }
    return closest;
}

Real angleTo(const btVector3& normal, const RealVec3& expected) {
    return angleBetween(widen(normal), expected);
}

// ---- Random comparison ----------------------------------------------------------------------------

struct Tally {
    long rays = 0, closestCompared = 0, sureMisses = 0, decidedHits = 0, failures = 0;
    long bulletCompared = 0, bulletDisagreements = 0;

    void print(const char* name) const {
        std::printf(
            "[ %s ] %ld rays; closest compared on %ld, sure misses %ld; decided hits %ld; failures %ld; "
            "Bullet "
            "within tolerance on %ld, disagreeing on %ld\n",
            name, rays, closestCompared, sureMisses, decidedHits, failures, bulletCompared,
            bulletDisagreements);
    }
};

// Compares one segment's all-hits and closest answers with the reference, and with Bullet's where it is
// within its tolerance.
void compareRay(MeshCase& mesh, const Reference& reference, const btVector3& from, const btVector3& to,
                btScalar startFraction, Tally& tally) {
    ++tally.rays;
    const Expectation expectation = reference.expect(from, to);
    const auto fail = [&](const std::string& what) {
        if (++tally.failures <= 10)
            ADD_FAILURE() << what << ": from " << text(toGlm(from)) << " to " << text(toGlm(to)) << ", start "
                          << startFraction;
    };
    const auto fractionFailure = [](const Report& report, const Crossing& crossing) {
        const RealTriangle& t = crossing.triangle->local;
        return "fraction " + text(report.fraction) + ", reference " + text(crossing.t) + " +- " +
               text(crossing.fractionTolerance) + " (triangle " + text(t.a) + " " + text(t.b) + " " +
               text(t.c) + ")";
    };

    // All hits (from a starting fraction): every decided hit before it, no decided miss, each once.
    Recorder all(Mode::AllHits, 0, startFraction);
    castOurs(mesh, from, to, all);
    for (const Crossing& crossing : expectation.near) {
        int reported = 0;
        for (const Report& report : all.reports) {
            if (report.part != crossing.triangle->part || report.index != crossing.triangle->index) continue;
            ++reported;
            if (crossing.decided && crossing.hit) {
                if (std::abs(Real(report.fraction) - crossing.t) > crossing.fractionTolerance)
                    fail(fractionFailure(report, crossing));
                if (angleTo(report.normal, crossing.normal) > reference.normalTolerance(*crossing.triangle))
                    fail("normal");
            }
        }
        if (reported > 1) fail("a triangle reported twice");
        if (!crossing.decided) continue;
        const bool beforeStart = crossing.t < Real(startFraction) - crossing.fractionTolerance;
        const bool afterStart = crossing.t > Real(startFraction) + crossing.fractionTolerance;
        if (crossing.hit && beforeStart && reported != 1) fail("a decided hit not reported");
        if ((!crossing.hit || afterStart) && reported != 0) fail("a decided miss reported");
        tally.decidedHits += crossing.hit && beforeStart;
    }
    for (const Report& report : all.reports)
        if (!(report.fraction >= 0 && report.fraction < startFraction)) fail("fraction outside [0, start)");

    // Closest: each report nearer than the last; the last is the reference's closest when clear.
    Recorder closest(Mode::Closest);
    castOurs(mesh, from, to, closest);
    for (std::size_t i = 1; i < closest.reports.size(); ++i)
        if (!(closest.reports[i].fraction < closest.reports[i - 1].fraction)) fail("closest: not nearer");
    if (const auto expected = clearClosest(expectation)) {
        ++tally.closestCompared;
        const Report* ours = closest.closest();
        if (!*expected) {
            ++tally.sureMisses;
            if (ours) fail("closest: a hit where the reference is sure of a miss");
        } else if (!ours || ours->part != (*expected)->triangle->part ||
                   ours->index != (*expected)->triangle->index) {
            fail("closest: another triangle or a miss");
        } else if (std::abs(Real(ours->fraction) - (*expected)->t) > (*expected)->fractionTolerance) {
            fail("closest: " + fractionFailure(*ours, **expected));
        }
    }

    // Bullet, where every triangle near the segment is decided with its wider band.
    const Real bulletUnits =
        kBulletBand + kBulletEdgeShare * mesh.data().longestMeshEdge() / (u * expectation.scale);
    const Expectation wide = reference.expect(from, to, bulletUnits);
    const bool allDecided = std::all_of(wide.near.begin(), wide.near.end(),
                                        [](const Crossing& crossing) { return crossing.decided; });
    const auto wideClosest = clearClosest(wide);
    if (!allDecided || !wideClosest) return;
    Recorder bullet(Mode::Closest);
    castBullet(mesh, from, to, bullet);
    ++tally.bulletCompared;
    const Report *b = bullet.closest(), *o = closest.closest();
    const bool same = (!b && !o) || (b && o && b->part == o->part && b->index == o->index);
    if (!same && ++tally.bulletDisagreements <= 10)
        ADD_FAILURE() << "Bullet names another closest triangle: from " << text(toGlm(from)) << " to "
                      << text(toGlm(to));
}

// Random segments at a mesh: half aimed at a point of a random triangle (anywhere on it, its edges and
// corners included) from either side, the rest between random points around the mesh; a quarter of
// the all-hits casts start from a fraction below 1.
Tally compareRandomRays(MeshCase& mesh, std::uint64_t seed, int rays) {
    Random random(seed);
    const Reference reference(mesh);
    const auto& triangles = mesh.data().triangles();
    const btTransform& place = mesh.place();
    const btVector3 scaling = mesh.scaling();
    const btVector3 magnitude = scaling.absolute();
    const double reach = double(mesh.data().extent()) * double(magnitude[magnitude.maxAxis()]);
    Tally tally;
    for (int i = 0; i < rays; ++i) {
        btVector3 from, to;
        if (i % 2 == 0) {
            const MeshTriangle& triangle =
                triangles[std::size_t(random.uniform(0, double(triangles.size())))];
            double weightB = random.uniform(-0.05, 1.05), weightC = random.uniform(-0.05, 1.05);
            if (random.chance(0.2)) weightB = 0;  // on an edge or at a corner
            if (random.chance(0.2)) weightC = 1 - weightB;
            const RealVec3 local = triangle.local.a + Real(weightB) * (triangle.local.b - triangle.local.a) +
                                   Real(weightC) * (triangle.local.c - triangle.local.a);
            const btVector3 aim =
                place * (btVector3(btScalar(local.x), btScalar(local.y), btScalar(local.z)) * scaling);
            const Vec3<double> heading = random.unitVector<double>();
            const double before = random.logUniform(0.05, reach), after = random.uniform(-0.2, 1) * before;
            from = aim - btVector3(btScalar(heading.x * before), btScalar(heading.y * before),
                                   btScalar(heading.z * before));
            to = aim + btVector3(btScalar(heading.x * after), btScalar(heading.y * after),
                                 btScalar(heading.z * after));
        } else {
            const auto around = [&] {
                const Vec3<double> p = random.point<double>(1.2 * reach);
                return place * btVector3(btScalar(p.x), btScalar(p.y), btScalar(p.z));
            };
            from = around();
            to = around();
        }
        const btScalar start = random.chance(0.25) ? btScalar(random.uniform(0.2, 1)) : btScalar(1);
        compareRay(mesh, reference, from, to, start, tally);
    }
    return tally;
}

void expectGoodTally(const Tally& tally, const char* name, int rays) {
    tally.print(name);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_EQ(tally.bulletDisagreements, 0);
    EXPECT_GE(tally.closestCompared, rays * 7 / 10);
    EXPECT_GE(tally.decidedHits, rays / 4);
    EXPECT_GE(tally.bulletCompared, rays / 2);
}

btTransform randomPlace(Random& random, double extent) {
    return transformOf(random.rotation<btScalar>(), toBullet(random.point<btScalar>(extent)));
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

TEST(RayMesh, TerrainQuantizedAgainstReference) {
    Random random(401);
    MeshCase mesh(terrain(16, 1), true, btVector3(1, 1, 1), randomPlace(random, 20));
    const Tally tally = compareRandomRays(mesh, 402, 100000);
    expectGoodTally(tally, "terrain, quantized tree", 100000);
}

TEST(RayMesh, TerrainPlainTreeAgainstReference) {
    Random random(403);
    MeshCase mesh(terrain(12, btScalar(1.5)), false, btVector3(1, 1, 1), randomPlace(random, 20));
    const Tally tally = compareRandomRays(mesh, 404, 30000);
    expectGoodTally(tally, "terrain, plain tree", 30000);
}

TEST(RayMesh, SoupAgainstReference) {
    Random random(405);
    MeshCase mesh(soup(406, 400, 6), true, btVector3(1, 1, 1), randomPlace(random, 20));
    const Tally tally = compareRandomRays(mesh, 407, 100000);
    expectGoodTally(tally, "soup", 100000);
}

TEST(RayMesh, ScaledTerrainAgainstReference) {
    Random random(408);
    MeshCase mesh(terrain(16, 1), true, btVector3(btScalar(2.5), btScalar(0.4), btScalar(1.5)),
                  randomPlace(random, 20));
    const Tally tally = compareRandomRays(mesh, 409, 50000);
    expectGoodTally(tally, "scaled terrain", 50000);
}

TEST(RayMesh, MirroredScaledSoupAgainstReference) {
    Random random(410);
    MeshCase mesh(soup(411, 400, 6), true, btVector3(btScalar(-1.5), btScalar(0.7), btScalar(2)),
                  randomPlace(random, 20));
    const Tally tally = compareRandomRays(mesh, 412, 50000);
    expectGoodTally(tally, "mirrored scaled soup", 50000);
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
TEST(RayMesh, WatertightAtSharedEdgesAndVertices) {
    Random random(420);
    const btVector3 scalings[] = {btVector3(1, 1, 1), btVector3(btScalar(2.5), btScalar(0.4), btScalar(1.5)),
                                  btVector3(1, -1, 1), btVector3(btScalar(-1.5), 1, 2)};
    for (const btVector3& scaling : scalings)
        for (const bool placed : {false, true}) {
            const btTransform place = placed ? randomPlace(random, 30) : btTransform::getIdentity();
            // The plain tree where placed: its boxes are the triangles' own, shared vertices on their faces.
            MeshCase mesh(terrain(8, btScalar(0.7)), !placed, scaling, place);
            const Real inner = Real(8 * 0.7 / 2) - Real(1e-3);  // shared vertices and edges lie within
            long rays = 0, oursMissed = 0, allHitsMissed = 0, bulletMissed = 0;
            const auto cast = [&](const RealVec3& local) {
                if (std::abs(local.x) >= inner || std::abs(local.z) >= inner) return;
                const btVector3 aim =
                    place * (btVector3(btScalar(local.x), btScalar(local.y), btScalar(local.z)) * scaling);
                for (int k = 0; k < 4; ++k) {
                    const btVector3 direction = nearVertical(random, place, M_PI / 6);
                    const btScalar length = btScalar(random.logUniform(0.01, 100));
                    const btVector3 from = aim + length * direction, to = aim - length * direction;
                    ++rays;
                    Recorder closest(Mode::Closest), all(Mode::AllHits), bullet(Mode::Closest);
                    castOurs(mesh, from, to, closest);
                    castOurs(mesh, from, to, all);
                    castBullet(mesh, from, to, bullet);
                    oursMissed += closest.reports.empty();
                    allHitsMissed += all.reports.empty();
                    bulletMissed += bullet.reports.empty();
                    if (closest.reports.empty() && oursMissed <= 5)
                        ADD_FAILURE()
                            << "slipped through: from " << text(toGlm(from)) << " to " << text(toGlm(to));
                }
            };
            for (const MeshTriangle& triangle : mesh.data().triangles()) {
                const RealTriangle& t = triangle.local;
                for (const RealVec3& vertex : {t.a, t.b, t.c})
                    cast(vertex);
                for (const auto& [p, q] : {std::pair{t.a, t.b}, std::pair{t.b, t.c}, std::pair{t.c, t.a}}) {
                    cast((p + q) / Real(2));
                    const Real s = Real(random.uniform(0, 1));
                    cast(p + s * (q - p));
                }
            }
            std::printf(
                "[ watertight ] scaling (%g, %g, %g)%s: %ld segments through shared edges and vertices; "
                "missed: ours %ld (all hits %ld), Bullet's %ld\n",
                double(scaling.x()), double(scaling.y()), double(scaling.z()),
                placed ? ", placed, plain tree" : ", quantized tree", rays, oursMissed, allHitsMissed,
                bulletMissed);
            EXPECT_GE(rays, 3900);
            EXPECT_EQ(oursMissed, 0);
            EXPECT_EQ(allHitsMissed, 0);
        }
}

// ---- Flags ----------------------------------------------------------------------------------------

// A flat grid crossed from its front and from its back with each combination of the flags: from the
// front, the front's normal; from the back, the normal turned toward the origin unless
// kF_KeepUnflippedNormal, nothing with kF_FilterBackfaces. The front of a scaled mesh is the image of
// the unscaled front (+y here), so a mirror across y turns it down. Hit or not as Bullet's; the normal
// as Bullet's on the unscaled mesh (Bullet gives a scaled mesh the unscaled triangle's normal, which a
// mirror turns away from the origin).
TEST(RayMesh, FlagsFromBothSides) {
    Random random(430);
    using Flags = btTriangleRaycastCallback::EFlags;
    const unsigned flagSets[] = {0, Flags::kF_FilterBackfaces, Flags::kF_KeepUnflippedNormal,
                                 Flags::kF_FilterBackfaces | Flags::kF_KeepUnflippedNormal};
    const btVector3 scalings[] = {btVector3(1, 1, 1), btVector3(2, btScalar(-0.5), 1), btVector3(-1, 1, 1)};
    long checked = 0;
    for (const btVector3& scaling : scalings) {
        auto data = std::make_unique<MeshData>();
        addGrid(*data, 6, 6, 1, btVector3(-3, 0, -3), [](btScalar, btScalar) { return btScalar(0); });
        const btTransform place = randomPlace(random, 10);
        MeshCase mesh(std::move(data), true, scaling, place);
        const btVector3 front = place.getBasis() * btVector3(0, scaling.y() > 0 ? 1 : -1, 0);
        for (int i = 0; i < 200; ++i) {
            const btVector3 aim = place * (btVector3(btScalar(random.uniform(-2.9, 2.9)), 0,
                                                     btScalar(random.uniform(-2.9, 2.9))) *
                                           scaling);
            const bool fromFront = i % 2 == 0;
            const btVector3 direction = nearVertical(random, place, M_PI / 3);
            const btVector3 toward = (direction.dot(front) > 0) == fromFront ? direction : -direction;
            const btVector3 from = aim + toward * btScalar(2), to = aim - toward * btScalar(2);
            for (const unsigned flags : flagSets) {
                Recorder ours(Mode::Closest, flags), bullet(Mode::Closest, flags);
                castOurs(mesh, from, to, ours);
                castBullet(mesh, from, to, bullet);
                const bool filtered = !fromFront && (flags & Flags::kF_FilterBackfaces);
                const bool unflipped = fromFront || (flags & Flags::kF_KeepUnflippedNormal);
                ++checked;
                ASSERT_EQ(ours.reports.size(), filtered ? 0u : 1u)
                    << "front " << fromFront << ", flags " << flags;
                ASSERT_EQ(bullet.reports.size(), ours.reports.size())
                    << "front " << fromFront << ", flags " << flags;
                if (filtered) continue;
                const btVector3 expected = unflipped ? front : -front;
                EXPECT_GT(ours.reports[0].normal.dot(expected), 1 - 64 * u)
                    << "front " << fromFront << ", flags " << flags;
                if (scaling == btVector3(1, 1, 1)) {
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
TEST(RayMesh, TwoPartsWithShortIndicesAgainstReference) {
    Random random(440);
    MeshCase mesh(twoLayers(), true, btVector3(1, 1, 1), randomPlace(random, 10));
    const Tally tally = compareRandomRays(mesh, 441, 20000);
    expectGoodTally(tally, "two parts, 16-bit indices", 20000);
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
TEST(RayMesh, AllHitsThroughLayersAndEarlyTermination) {
    Random random(450);
    MeshCase mesh(twoLayers(), true, btVector3(1, 1, 1), randomPlace(random, 10));
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
        if (!std::all_of(wide.near.begin(), wide.near.end(), [](const Crossing& c) { return c.decided; }))
            continue;
        const auto crossed = std::size_t(
            std::count_if(wide.near.begin(), wide.near.end(), [](const Crossing& c) { return c.hit; }));
        ++compared;
        throughBoth += crossed == 2;
        btCollisionWorld::AllHitsRayResultCallback ours(from, to), bullet(from, to);
        castOurs(mesh, from, to, ours);
        castBullet(mesh, from, to, bullet);
        ASSERT_EQ(std::size_t(ours.m_hitFractions.size()), crossed);
        ASSERT_EQ(std::size_t(bullet.m_hitFractions.size()), crossed);
        std::vector<btScalar> oursSorted, bulletSorted;
        for (int k = 0; k < int(crossed); ++k) {
            oursSorted.push_back(ours.m_hitFractions[k]);
            bulletSorted.push_back(bullet.m_hitFractions[k]);
        }
        std::sort(oursSorted.begin(), oursSorted.end());
        std::sort(bulletSorted.begin(), bulletSorted.end());
        for (std::size_t k = 0; k < crossed; ++k)
            EXPECT_NEAR(oursSorted[k], bulletSorted[k], 1e3 * u);
        Recorder first(Mode::StopAfterFirst), bulletFirst(Mode::StopAfterFirst);
        castOurs(mesh, from, to, first);
        castBullet(mesh, from, to, bulletFirst);
        EXPECT_EQ(first.reports.size(), std::min(crossed, std::size_t(1)));
        EXPECT_EQ(bulletFirst.reports.size(), std::min(crossed, std::size_t(1)));
    }
    std::printf("[ layers ] %ld segments compared, %ld through both layers\n", compared, throughBoth);
    EXPECT_GE(throughBoth, 1000);
}

// A segment of length zero or with a non-finite end, and a callback whose fraction is already 0, get
// nothing.
TEST(RayMesh, DegenerateSegmentsGetNothing) {
    MeshCase mesh(terrain(4, 1), true, btVector3(1, 1, 1), btTransform::getIdentity());
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN(),
                   inf = std::numeric_limits<btScalar>::infinity();
    const std::pair<btVector3, btVector3> segments[] = {{btVector3(0, 0, 0), btVector3(0, 0, 0)},
                                                        {btVector3(0, 5, 0), btVector3(nan, -5, 0)},
                                                        {btVector3(0, inf, 0), btVector3(0, -5, 0)},
                                                        {btVector3(0, 5, 0), btVector3(0, -inf, 0)}};
    for (const auto& [from, to] : segments) {
        Recorder all(Mode::AllHits);
        castOurs(mesh, from, to, all);
        EXPECT_TRUE(all.reports.empty());
    }
    Recorder stopped(Mode::AllHits, 0, 0);
    castOurs(mesh, btVector3(0, 5, 0), btVector3(0, -5, 0), stopped);
    EXPECT_TRUE(stopped.reports.empty());
    Recorder normal(Mode::AllHits);
    castOurs(mesh, btVector3(0.3, 5, 0.2), btVector3(0.3, -5, 0.2), normal);
    EXPECT_EQ(normal.reports.size(), 1u);
}

}  // namespace
}  // namespace analytic::test
