// SPDX-License-Identifier: Zlib
// Ray casts against Bullet's polyhedral convex shapes (plugin/src/cast/hull_cast.hpp), in the
// build's btScalar: which shapes get a hull target; that Bullet's face planes are outward and in the scaled
// frame (the convention the target relies on); random scaled hulls against a long double reference of the
// solid the target stands for (the polyhedron's planes moved out by the margin), rays starting inside
// included; Bullet's own rayTestSingle against both that solid and the exact rounded hull Bullet models.
//
// Bounds, with u the unit roundoff of btScalar and S the scale of a ray and hull (|from| + |to| + |hull
// centre| + the hull's reach from it):
// - band: hit or miss is compared wherever moving every plane and the ray's ends by 64 u S leaves the
//   reference's answer unchanged;
// - fraction: between the first hits of the solid grown and shrunk by 8 u S; an origin inside the solid
//   shrunk by that much hits at exactly 0 with the normal -unit direction (within 8 u S / |to - from|);
// - normal: within 16 u of the world normal of a face the line may enter through under that band.
// - Bullet (rays from outside that reach its rounded hull; distances across the surface): Bullet's hit
//   counts as within its tolerance when it lies at most 0.02 outside the rounded hull (its subsimplex cast
//   stops at a squared distance of 1e-4) and not inside it; where it is and ours lies on the rounded
//   surface (a face), the two hits are within 0.02 / cos(incidence) along the ray. Our hits never lie
//   inside the rounded hull (up to Bullet's own plane slack, kPlaneSlack).
#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btConvexPointCloudShape.h>
#include <BulletCollision/CollisionShapes/btTetrahedronShape.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"
#include "cast/hull_cast.hpp"
#include "reference/ray_convex_reference.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

using Scalar = btScalar;
using cast::firstHitOn;
using cast::HullTarget;
using cast::hullTargetOf;
using reference::Expect;
using reference::RealPlane;

constexpr Real u = Real(unitRoundoff<Scalar>);
constexpr Real kInfinity = std::numeric_limits<Real>::infinity();
constexpr Real kBand = 64;
constexpr Real kFraction = 8;
constexpr Real kNormal = 16;
// Bullet's face normal is the cross product of the face's first two edges, so a face whose first corner is
// nearly flat gets a tilted plane, its offset from the face's lowest vertex: its other vertices stick out.
constexpr Real kPlaneSlack = 1e-3;
constexpr Real kBulletTolerance = 0.02;

// A btConvexHullShape of random points, scaled, with polyhedral features, placed in the world.
struct RandomHull {
    std::unique_ptr<btConvexHullShape> shape;
    btTransform transform;
    RealVec3 center;  // in the world
    Real reach;       // from the centre, margin included
};

RandomHull randomHull(Random& random, int pointCount) {
    RandomHull hull{std::make_unique<btConvexHullShape>(), btTransform::getIdentity(), RealVec3(0), 0};
    const double size = random.logUniform(0.3, 3);
    for (int i = 0; i < pointCount; ++i) {
        const Vec3<double> p = randomInBall<3>(random) * size;
        hull.shape->addPoint(btVector3(Scalar(p.x), Scalar(p.y), Scalar(p.z)), false);
    }
    hull.shape->setLocalScaling(btVector3(Scalar(random.uniform(0.5, 2)), Scalar(random.uniform(0.5, 2)),
                                          Scalar(random.uniform(0.5, 2))));
    hull.shape->setMargin(Scalar(random.uniform(0, 0.08)));
    EXPECT_TRUE(hull.shape->initializePolyhedralFeatures());
    hull.transform = transformOf(random.rotation<Scalar>(), toBullet(random.point<Scalar>(10)));
    hull.center = widen(toGlm(hull.transform.getOrigin()));
    const btConvexPolyhedron& polyhedron = *hull.shape->getConvexPolyhedron();
    for (int i = 0; i < polyhedron.m_vertices.size(); ++i)
        hull.reach = std::max(hull.reach, glm::length(widen(toGlm(polyhedron.m_vertices[i]))));
    hull.reach += Real(hull.shape->getMargin()) * 2;  // the grown planes' corners reach beyond the margin
    return hull;
}

// The hull's faces in its own frame, widened: Bullet's (n, d) as the half-space dot(n, x) <= -d.
std::vector<RealPlane> localPlanes(const btConvexPolyhedron& polyhedron) {
    std::vector<RealPlane> planes;
    for (int i = 0; i < polyhedron.m_faces.size(); ++i) {
        const Scalar* p = polyhedron.m_faces[i].m_plane;
        planes.push_back({RealVec3(p[0], p[1], p[2]), -Real(p[3])});
    }
    return planes;
}

// The planes a hull target casts against, in the shape's frame: our faces of the points, or Bullet's
// polyhedron's.
std::vector<RealPlane> targetPlanes(const HullTarget& target) {
    if (!target.faces) return localPlanes(*target.polyhedron);
    std::vector<RealPlane> planes;
    for (const Plane<Scalar>& plane : target.faces->planes)
        planes.push_back({widen(plane.normal), Real(plane.offset)});
    return planes;
}

// The target's solid in the world: each local plane moved out by margin, then rotated and moved exactly.
std::vector<RealPlane> worldGrownPlanes(const RandomHull& hull, const HullTarget& target) {
    const Mat3<Real> rotation = widen(toGlm(hull.transform.getBasis()));
    const RealVec3 origin = widen(toGlm(hull.transform.getOrigin()));
    std::vector<RealPlane> planes;
    for (const RealPlane& local : targetPlanes(target)) {
        const RealVec3 normal = rotation * local.normal;
        planes.push_back({normal, local.offset + Real(hull.shape->getMargin()) + glm::dot(normal, origin)});
    }
    return planes;
}

// The polyhedron in its own frame, widened: each face's plane, its corners in order and, for each of its
// edges, the plane through the edge perpendicular to the face, facing out of the face.
struct FacePolygon {
    RealPlane plane;
    std::vector<RealVec3> corners;
    std::vector<RealPlane> sides;
};

std::vector<FacePolygon> facePolygons(const btConvexPolyhedron& polyhedron) {
    const std::vector<RealPlane> planes = localPlanes(polyhedron);
    std::vector<FacePolygon> faces;
    for (int f = 0; f < polyhedron.m_faces.size(); ++f) {
        FacePolygon face{planes[std::size_t(f)], {}, {}};
        const btAlignedObjectArray<int>& indices = polyhedron.m_faces[f].m_indices;
        RealVec3 centroid(0);
        for (int i = 0; i < indices.size(); ++i) {
            face.corners.push_back(widen(toGlm(polyhedron.m_vertices[indices[i]])));
            centroid += face.corners.back() / Real(indices.size());
        }
        for (std::size_t i = 0; i < face.corners.size(); ++i) {
            const RealVec3 a = face.corners[i], b = face.corners[(i + 1) % face.corners.size()];
            RealVec3 side = glm::normalize(glm::cross(b - a, face.plane.normal));
            if (glm::dot(side, centroid - a) > 0) side = -side;
            face.sides.push_back({side, glm::dot(side, a)});
        }
        faces.push_back(std::move(face));
    }
    return faces;
}

Real distanceToSegment(const RealVec3& p, const RealVec3& a, const RealVec3& b) {
    const Real along = std::clamp(glm::dot(p - a, b - a) / glm::dot(b - a, b - a), Real(0), Real(1));
    return glm::length(p - (a + along * (b - a)));
}

// From a point outside the polyhedron: the distance to its nearest face polygon; 0 inside.
Real distanceToPolyhedron(const std::vector<FacePolygon>& faces, const RealVec3& p) {
    const bool inside = std::all_of(faces.begin(), faces.end(), [&](const FacePolygon& face) {
        return glm::dot(face.plane.normal, p) <= face.plane.offset;
    });
    if (inside) return 0;
    Real nearest = kInfinity;
    for (const FacePolygon& face : faces) {
        const bool over = std::all_of(face.sides.begin(), face.sides.end(), [&](const RealPlane& side) {
            return glm::dot(side.normal, p) <= side.offset;
        });
        if (over) {
            nearest = std::min(nearest, std::abs(glm::dot(face.plane.normal, p) - face.plane.offset));
            continue;
        }
        for (std::size_t i = 0; i < face.corners.size(); ++i)
            nearest = std::min(
                nearest, distanceToSegment(p, face.corners[i], face.corners[(i + 1) % face.corners.size()]));
    }
    return nearest;
}

// Bullet's surface: the polyhedron grown by the margin with rounded edges and corners, the union of the
// polyhedron, each face's slab out to the margin and a capsule of that radius about each edge. The line
// (in the hull's frame) enters the union where it first enters a piece and leaves where it last leaves one.
struct LineStretch {
    Real entry = kInfinity, exit = -kInfinity;
    bool meets() const { return entry <= exit; }
};

LineStretch crossRoundedHull(const std::vector<FacePolygon>& faces, Real margin, const RealVec3& origin,
                             const RealVec3& direction) {
    LineStretch stretch;
    const auto add = [&](Real entry, Real exit) {
        stretch.entry = std::min(stretch.entry, entry);
        stretch.exit = std::max(stretch.exit, exit);
    };
    std::vector<RealPlane> planes;
    for (const FacePolygon& face : faces)
        planes.push_back(face.plane);
    const auto core = reference::crossPlanes(planes, origin, direction);
    if (core.meets) add(core.entry, core.exit);
    for (const FacePolygon& face : faces) {
        std::vector<RealPlane> slab = face.sides;
        slab.push_back({face.plane.normal, face.plane.offset + margin});
        slab.push_back({-face.plane.normal, -face.plane.offset});
        const auto crossing = reference::crossPlanes(slab, origin, direction);
        if (crossing.meets) add(crossing.entry, crossing.exit);
        // Each edge twice (once per face): harmless.
        for (std::size_t i = 0; i < face.corners.size(); ++i) {
            const auto capsule = referenceLineCapsule(origin, direction, face.corners[i],
                                                      face.corners[(i + 1) % face.corners.size()], margin);
            if (capsule) add(capsule->entry.t, capsule->exit.t);
        }
    }
    return stretch;
}

// A random segment about the hull: aimed at a point near its centre, grazing one of its corners, or
// starting inside it.
std::pair<RealVec3, RealVec3> randomSegment(Random& random, const RandomHull& hull, int kind) {
    const double reach = double(hull.reach);
    const Vec3<double> center(hull.center);
    const btConvexPolyhedron& polyhedron = *hull.shape->getConvexPolyhedron();
    const auto worldVertex = [&](int i) {
        return Vec3<double>(widen(toGlm(hull.transform(polyhedron.m_vertices[i]))));
    };
    Vec3<double> from, target;
    switch (kind % 3) {
        case 0:
            from = center + randomUnit<3>(random) * reach * random.uniform(1.2, 4);
            target = center + randomInBall<3>(random) * reach * 0.8;
            break;
        case 1: {
            const Vec3<double> corner = worldVertex(int(random.uniform(0, polyhedron.m_vertices.size())));
            target = corner + randomUnit<3>(random) * double(hull.shape->getMargin()) * random.uniform(0, 3);
            from = target + randomUnit<3>(random) * reach * random.uniform(1.2, 4);
            break;
        }
        default: {
            // A point of the hull: a mix of two of its vertices and the centre of all.
            Vec3<double> mean(0);
            for (int i = 0; i < polyhedron.m_vertices.size(); ++i)
                mean += worldVertex(i) / double(polyhedron.m_vertices.size());
            const double w = random.uniform(0, 1);
            from = mean * 0.5 +
                   0.5 * (w * worldVertex(int(random.uniform(0, polyhedron.m_vertices.size()))) +
                          (1 - w) * worldVertex(int(random.uniform(0, polyhedron.m_vertices.size()))));
            target = from + randomUnit<3>(random) * reach;
            break;
        }
    }
    // Most segments reach past the target; some stop before the hull.
    const double stretch = random.chance(0.8) ? random.uniform(1.1, 3) : random.uniform(0.05, 1);
    const Vec3<Scalar> a(from), b(from + (target - from) * stretch);
    return {widen(a), widen(b)};
}

RayPath<Scalar> scalarSegment(const RealVec3& from, const RealVec3& to) {
    return segmentRay(Vec3<Scalar>(from), Vec3<Scalar>(to));
}

Real angleBetweenUnit(const RealVec3& a, const RealVec3& b) {
    const RealVec3 unitA = a / glm::length(a), unitB = b / glm::length(b);
    return 2 * std::atan2(glm::length(unitA - unitB), glm::length(unitA + unitB));
}

// ---- Which shapes get a hull target --------------------------------------------------------------------

TEST(RayHullTarget, HullsAndPointCloudsGetOurFacesOtherPolyhedraTheirFeatures) {
    const btTransform placed(btQuaternion(btVector3(1, 2, 3), Scalar(0.7)), btVector3(1, -2, 3));
    const btVector3 cube[] = {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
                              {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1}};
    btConvexHullShape hull(&cube[0].x(), 8, sizeof(btVector3));
    // Without polyhedral features: our faces of its points, the user's shape untouched.
    const auto ours = hullTargetOf(hull, placed);
    ASSERT_TRUE(ours);
    ASSERT_TRUE(ours->faces);
    EXPECT_EQ(ours->faces->planes.size(), 6u);
    EXPECT_EQ(hull.getConvexPolyhedron(), nullptr);
    EXPECT_EQ(ours->margin, hull.getMargin());
    EXPECT_EQ(ours->transform.getOrigin(), placed.getOrigin());
    // With them: still ours (Bullet's hull computer rounds the points to a grid).
    hull.initializePolyhedralFeatures();
    const auto withFeatures = hullTargetOf(hull, placed);
    ASSERT_TRUE(withFeatures);
    EXPECT_TRUE(withFeatures->faces);

    btConvexPointCloudShape cloud(const_cast<btVector3*>(cube), 8, btVector3(1, 1, 1));
    const auto cloudTarget = hullTargetOf(cloud, placed);
    ASSERT_TRUE(cloudTarget);
    EXPECT_TRUE(cloudTarget->faces);

    // Another polyhedral shape: Bullet's polyhedron once the user asked for it, nothing before.
    btBU_Simplex1to4 tetrahedron(btVector3(0, 0, 0), btVector3(1, 0, 0), btVector3(0, 1, 0),
                                 btVector3(0, 0, 1));
    EXPECT_FALSE(hullTargetOf(tetrahedron, placed));
    tetrahedron.initializePolyhedralFeatures();
    const auto bullets = hullTargetOf(tetrahedron, placed);
    ASSERT_TRUE(bullets);
    EXPECT_EQ(bullets->polyhedron, tetrahedron.getConvexPolyhedron());
    EXPECT_FALSE(bullets->faces);

    // Flat: no solid (ours finds none; Bullet's has under four faces).
    const btVector3 square[] = {{-1, 0, -1}, {1, 0, -1}, {-1, 0, 1}, {1, 0, 1}};
    btConvexHullShape flat(&square[0].x(), 4, sizeof(btVector3));
    EXPECT_FALSE(hullTargetOf(flat, placed));
    flat.initializePolyhedralFeatures();
    EXPECT_FALSE(hullTargetOf(flat, placed)) << "flat: no side faces bound it";

    btSphereShape sphere(1);
    EXPECT_FALSE(hullTargetOf(sphere, placed));
}

// ---- Bullet's face planes: outward unit normals through the scaled points --------------------------------

TEST(RayHullTarget, FacePlanesAreOutwardAndScaled) {
    Random random(61);
    Real worstOutside = 0;  // of a point beyond a face's plane, in sizes of the hull
    for (int h = 0; h < 200; ++h) {
        const RandomHull hull = randomHull(random, 4 + h % 40);
        std::vector<RealVec3> points;
        Real size = 0;
        for (int i = 0; i < hull.shape->getNumVertices(); ++i) {
            btVector3 p;
            hull.shape->getVertex(i, p);
            points.push_back(widen(toGlm(p)));
            size = std::max(size, glm::length(points.back()));
        }
        for (const RealPlane& plane : localPlanes(*hull.shape->getConvexPolyhedron())) {
            EXPECT_NEAR(double(glm::length(plane.normal)), 1, double(8 * u));
            // The face's plane supports the scaled points: none beyond it but by Bullet's rounding, some on
            // it.
            Real highest = -kInfinity;
            for (const RealVec3& p : points)
                highest = std::max(highest, glm::dot(plane.normal, p) - plane.offset);
            worstOutside = std::max(worstOutside, highest / size);
            EXPECT_LE(std::abs(highest), kPlaneSlack * size) << "hull " << h;
        }
    }
    std::printf("[ planes ] scaled points beyond Bullet's face planes by at most %.3g hull sizes\n",
                double(worstOutside));
}

// ---- Random hulls against the long double reference ------------------------------------------------------

TEST(RayHullExact, RandomScaledHulls) {
    Random random(62);
    constexpr int kHulls = 100, kRaysPerHull = 1000;
    long rays = 0, hits = 0, misses = 0, undecided = 0, inside = 0, heapHulls = 0, failures = 0;
    Real worstFraction = 0;  // |f - t| L cos / (u S) over decided outside hits
    const auto fail = [&](const std::string& what, const RealVec3& from, const RealVec3& to) {
        if (++failures <= 10) ADD_FAILURE() << what << "\n  from " << text(from) << " to " << text(to);
    };
    for (int h = 0; h < kHulls; ++h) {
        // Every tenth hull has more faces than the target keeps on the stack.
        const RandomHull hull = randomHull(random, h % 10 == 0 ? 300 : 4 + h % 30);
        heapHulls += hull.shape->getConvexPolyhedron()->m_faces.size() > 64;
        const auto target = hullTargetOf(*hull.shape, hull.transform);
        ASSERT_TRUE(target);
        const std::vector<RealPlane> planes = worldGrownPlanes(hull, *target);
        for (int r = 0; r < kRaysPerHull; ++r) {
            const auto [from, to] = randomSegment(random, hull, r);
            const RealVec3 direction = to - from;
            const Real length = glm::length(direction);
            if (length == 0) continue;
            ++rays;
            const Real scale = glm::length(from) + glm::length(to) + glm::length(hull.center) + hull.reach;
            const auto hit = firstHitOn(scalarSegment(from, to), *target);
            const Expect expected = reference::expectedHit(planes, from, direction, 1, kBand * u * scale);
            if (expected == Expect::Either) {
                ++undecided;
                continue;
            }
            if (expected == Expect::Miss) {
                ++misses;
                if (hit) fail("false hit at " + text(hit->t), from, to);
                continue;
            }
            ++hits;
            if (!hit) {
                fail("missed", from, to);
                continue;
            }
            const Real f = hit->t, fraction = kFraction * u * scale;
            const auto grown = reference::crossPlanes(planes, from, direction, fraction);
            const auto shrunk = reference::crossPlanes(planes, from, direction, -fraction);
            if (shrunk.meets && shrunk.entry < 0 && shrunk.exit > 0) {
                ++inside;
                if (f != 0) fail("origin inside, fraction " + text(f), from, to);
                if (angleBetweenUnit(widen(hit->normal), -direction) > 8 * u * scale / length)
                    fail("origin inside, normal " + text(widen(hit->normal)), from, to);
                continue;
            }
            const Real lo = std::max(grown.entry, Real(0));
            const Real hi = shrunk.meets ? std::max(shrunk.entry, Real(0)) : kInfinity;
            if (!(f >= lo && f <= hi))
                fail("fraction " + text(f) + " outside [" + text(lo) + ", " + text(hi) + "]", from, to);
            const auto exact = reference::crossPlanes(planes, from, direction);
            if (exact.entry > 0) {
                const Real cos = std::abs(glm::dot(planes[exact.entryPlane].normal, direction)) / length;
                worstFraction =
                    std::max(worstFraction, std::abs(f - exact.entry) * length * cos / (u * scale));
            }
            // The face hit: one the line may enter through when the planes move by the band.
            bool faceFound = false;
            for (const RealPlane& plane : planes) {
                const Real speed = glm::dot(plane.normal, direction);
                if (speed >= 0) continue;
                const Real latest = (plane.offset - fraction - glm::dot(plane.normal, from)) / speed;
                if (latest >= grown.entry &&
                    angleBetweenUnit(widen(hit->normal), plane.normal) <= kNormal * u)
                    faceFound = true;
            }
            if (!faceFound) fail("normal " + text(widen(hit->normal)) + " of no face entered", from, to);
        }
    }
    std::printf(
        "[ hulls ] rays %ld: sure hits %ld (starting inside %ld), sure misses %ld, undecided in band %ld; "
        "hulls over 64 faces %ld; worst |f - t| L cos / (u S) %.3g\n",
        rays, hits, inside, misses, undecided, heapHulls, double(worstFraction));
    EXPECT_EQ(failures, 0);
    EXPECT_GE(hits, rays / 3);
    EXPECT_GE(inside, rays / 10);
    EXPECT_LE(undecided, rays / 100);
    EXPECT_GE(heapHulls, kHulls / 10);
}

// ---- Bullet's rayTestSingle against both solids ---------------------------------------------------------

Real median(std::vector<Real> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

Real largest(const std::vector<Real>& values) {
    return values.empty() ? 0 : *std::max_element(values.begin(), values.end());
}

// Distances of hit points from surfaces are measured across the surface, not along the ray: a grazing ray
// turns a small one into a long stretch of ray.
TEST(RayHullBullet, ParityOnFacesAndTheMarginAtEdges) {
    Random random(63);
    constexpr int kHulls = 100, kRaysPerHull = 1000;
    long compared = 0, bulletMissed = 0, bulletWithin = 0, onFaces = 0, nearEdges = 0, failures = 0;
    std::vector<Real> bulletFromRounded, bulletFromGrown, oursFromRoundedInMargins;
    Real oursFromRounded = 0;
    const auto fail = [&](const std::string& what, const RealVec3& from, const RealVec3& to) {
        if (++failures <= 10) ADD_FAILURE() << what << "\n  from " << text(from) << " to " << text(to);
    };
    for (int h = 0; h < kHulls; ++h) {
        const RandomHull hull = randomHull(random, 20);
        const auto target = hullTargetOf(*hull.shape, hull.transform);
        ASSERT_TRUE(target);
        btCollisionObject object;
        object.setCollisionShape(hull.shape.get());
        object.setWorldTransform(hull.transform);
        const Real margin = Real(hull.shape->getMargin());
        const std::vector<FacePolygon> faces = facePolygons(*hull.shape->getConvexPolyhedron());
        const std::vector<RealPlane> grownPlanes = worldGrownPlanes(hull, *target);
        const Mat3<Real> rotation = widen(toGlm(hull.transform.getBasis()));
        const RealVec3 origin = widen(toGlm(hull.transform.getOrigin()));
        // The hull's frame: the rotation's inverse is its transpose to the scalar's precision.
        const auto toLocal = [&](const RealVec3& p) { return glm::transpose(rotation) * (p - origin); };
        const auto fromRounded = [&](const RealVec3& p) {
            return distanceToPolyhedron(faces, toLocal(p)) - margin;
        };
        const auto fromGrown = [&](const RealVec3& p) {
            Real highest = -kInfinity;
            for (const RealPlane& plane : grownPlanes)
                highest = std::max(highest, glm::dot(plane.normal, p) - plane.offset);
            return highest;
        };
        const Real slack = kPlaneSlack * hull.reach;
        for (int r = 0; r < kRaysPerHull; ++r) {
            // Aimed at the hull or grazing a corner; Bullet mostly reports nothing from inside.
            const auto [from, to] = randomSegment(random, hull, r % 2);
            const RealVec3 direction = to - from;
            const Real length = glm::length(direction);
            const LineStretch rounded =
                crossRoundedHull(faces, margin, toLocal(from), glm::transpose(rotation) * direction);
            // Rays that start outside and reach the rounded hull.
            if (!rounded.meets() || rounded.entry < 1e-3L || rounded.entry > 1) continue;
            ++compared;
            const auto ours = firstHitOn(scalarSegment(from, to), *target);
            if (!ours) {
                fail("the rounded hull is hit, ours is not", from, to);
                continue;
            }
            const Real oursDistance = fromRounded(widen(ours->point));
            if (oursDistance < -slack)
                fail("our hit is inside the rounded hull by " + text(-oursDistance), from, to);
            oursFromRounded = std::max(oursFromRounded, oursDistance);
            if (margin > 0) oursFromRoundedInMargins.push_back(oursDistance / margin);
            const btVector3 bulletFrom = toBullet(Vec3<Scalar>(from)), bulletTo = toBullet(Vec3<Scalar>(to));
            btCollisionWorld::ClosestRayResultCallback callback(bulletFrom, bulletTo);
            btCollisionWorld::rayTestSingle(btTransform(btMatrix3x3::getIdentity(), bulletFrom),
                                            btTransform(btMatrix3x3::getIdentity(), bulletTo), &object,
                                            hull.shape.get(), hull.transform, callback);
            if (!callback.hasHit()) {
                ++bulletMissed;
                continue;
            }
            const RealVec3 bulletPoint = from + Real(callback.m_closestHitFraction) * direction;
            const Real bulletDistance = fromRounded(bulletPoint);
            bulletFromRounded.push_back(std::abs(bulletDistance));
            bulletFromGrown.push_back(std::abs(fromGrown(bulletPoint)));
            // Bullet's own tolerance: up to 0.01 before its surface (twice that allowed), not inside it.
            if (bulletDistance > kBulletTolerance || bulletDistance < -slack) continue;
            ++bulletWithin;
            if (oursDistance > slack) {
                ++nearEdges;
                continue;
            }
            ++onFaces;
            const Real cos = std::abs(glm::dot(widen(ours->normal), direction)) / length;
            const Real along = std::abs(Real(callback.m_closestHitFraction) - ours->t) * length;
            if (along * cos > kBulletTolerance + slack)
                fail("on a face Bullet's hit is " + text(along) + " from ours along the ray", from, to);
        }
    }
    std::printf(
        "[ Bullet ] 20-point hulls, rays from outside hitting the rounded hull %ld; Bullet's hits: %ld, "
        "missed "
        "%ld; their distance from the rounded surface median %.3g max %.3g, from the planes' solid median "
        "%.3g max %.3g; within its tolerance %ld: on faces %ld (ours agree), at edges and corners %ld; our "
        "hits beyond the rounded surface: max %.3g, in margins median %.3g max %.3g (a cube's corner: "
        "sqrt(3) - 1 = 0.732)\n",
        compared, long(bulletFromRounded.size()), bulletMissed, double(median(bulletFromRounded)),
        double(largest(bulletFromRounded)), double(median(bulletFromGrown)), double(largest(bulletFromGrown)),
        bulletWithin, onFaces, nearEdges, double(oursFromRounded), double(median(oursFromRoundedInMargins)),
        double(largest(oursFromRoundedInMargins)));
    EXPECT_EQ(failures, 0);
    EXPECT_GE(onFaces, compared / 2);
    EXPECT_GE(nearEdges, 100);
}

// Through analytic::rayTest in a world (and a batch): the hull's hit is the target's, reported as
// Bullet reports convex hits (no shape information, the normal in world space).
TEST(RayHullWorld, RayTestAndBatchReportTheHullsHit) {
    Random random(461);
    const RandomHull hull = randomHull(random, 20);
    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    World<btCollisionWorld> world(&dispatcher, &broadphase, &configuration);
    btCollisionObject object;
    object.setCollisionShape(hull.shape.get());
    object.setWorldTransform(hull.transform);
    world.addCollisionObject(&object);
    world.updateAabbs();
    const auto target = hullTargetOf(*hull.shape, hull.transform);
    ASSERT_TRUE(target.has_value());
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        const Vec3<double> centre(hull.center), aim = centre + randomInBall<3>(random) * double(hull.reach);
        const Vec3<double> start = aim + randomUnit<3>(random) * (3 * double(hull.reach));
        const btVector3 from = toBullet(Vec3<Scalar>(start)), to = toBullet(Vec3<Scalar>(2.0 * aim - start));
        btCollisionWorld::ClosestRayResultCallback callback(from, to);
        world.rayTest(from, to, callback);
        const auto expected = firstHitOn(segmentRay(toGlm(from), toGlm(to)), *target);
        ASSERT_EQ(callback.hasHit(), expected.has_value()) << "ray " << i;
        std::vector<RayHit> batchHit(1);
        rayTestBatch(world, std::vector<Ray>{{from, to}}, batchHit);
        ASSERT_EQ(batchHit[0].object != nullptr, expected.has_value()) << "ray " << i;
        if (!expected) continue;
        ++hits;
        EXPECT_EQ(callback.m_closestHitFraction, expected->t);
        EXPECT_EQ(toGlm(callback.m_hitNormalWorld), expected->normal);
        EXPECT_EQ(batchHit[0].fraction, expected->t);
        EXPECT_EQ(batchHit[0].partId, -1);
    }
    EXPECT_GT(hits, 1000);
    world.removeCollisionObject(&object);
}

}  // namespace
}  // namespace analytic::test
