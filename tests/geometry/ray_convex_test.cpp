// SPDX-License-Identifier: Zlib
// Ray against convex polyhedra given by planes: random rotated boxes as 6 planes against intersectRayObb
// (bit for bit where every product is exact), random tetrahedra and prisms against the long double
// half-space reference, rays along faces and edges, unbounded and empty solids, and invalid input.
#include "analytic/geometry/ray_convex.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "analytic/geometry/ray_box.hpp"
#include "reference/ray_convex_reference.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/agreement.hpp"
#include "support/test_support.hpp"

namespace analytic {

// The solid of test::expectScaleInvariance with every length times factor (found by argument-dependent
// lookup, Plane being in this namespace).
template <class T, std::size_t N>
std::array<Plane<T>, N> scaled(const std::array<Plane<T>, N>& planes, T factor) {
    std::array<Plane<T>, N> result = planes;
    for (Plane<T>& plane : result)
        plane.offset *= factor;
    return result;
}

namespace {

using test::Agreement;
using test::Real;
using test::RealVec3;
using test::text;
using test::widen;
namespace ref = test::reference;

// Stated bounds. u is the scalar's unit roundoff; L = |origin| + the largest |offset| is the scale of a case
// (dot(normal, origin) - offset carries rounding errors of u L).
// Tangency band: hit/miss must match the reference unless moving the planes or the ray's end points by
// kBandUlps * u * L changes the reference's answer (then the case is skipped; at most kMaxSkippedFraction
// of the cases may be). Planes the ray is exactly parallel to are not moved: the core decides those exactly.
constexpr Real kBandUlps = 64;
// Entry and exit: |t - t_ref| |dot(n, direction)| <= kDistanceUlps * u * L, n the normal of the reference's
// plane or of the reported one, whichever the ray grazes more. Points: the same error along the ray, plus
// the rounding of their coordinates, 4 u |point|. Normals: exactly the reference plane's, unless another
// plane on the same side crosses the line within the band of it (in t: band / |n . d| + band / |n' . d|),
// then exactly the normal of one of those planes.
constexpr Real kDistanceUlps = 16;
constexpr int kRandomCases = 100000;
// Two rays in five graze a vertex, edge or face by construction: one in five of those exactly, the others
// moved off by 1 to 1e6 roundoffs, of which about a third stay within the band (64 roundoffs of L, which is
// about twice the scale the roundoffs are taken at): about 15% of the cases fall in the band.
constexpr double kMaxSkippedFraction = 0.2;

template <class T> constexpr T kInfinity = std::numeric_limits<T>::infinity();

template <class T> class RayConvexTest : public ::testing::Test {};
TYPED_TEST_SUITE(RayConvexTest, test::Scalars);

template <class T> std::string text(std::span<const Plane<T>> planes) {
    std::string result = "planes";
    for (const Plane<T>& plane : planes)
        result += " {" + text(plane.normal) + ", " + text(plane.offset) + "}";
    return result;
}

const auto kIntersectPlanes = [](const auto& ray, const auto& planes) {
    return intersectRayConvexPlanes(ray, planes);
};

// The box's faces as planes, low face before high face, axis by axis: the order in which intersectRayObb
// breaks ties (lowest axis first). Offsets are rounded once from their exact value.
template <class T> std::array<Plane<T>, 6> boxPlanes(const Obb<T>& box) {
    std::array<Plane<T>, 6> planes;
    for (int axis = 0; axis < 3; ++axis) {
        const Real along = glm::dot(widen(box.rotation[axis]), widen(box.center));
        planes[2 * axis] = {-box.rotation[axis], T(Real(box.halfExtents[axis]) - along)};
        planes[2 * axis + 1] = {box.rotation[axis], T(Real(box.halfExtents[axis]) + along)};
    }
    return planes;
}

template <class T> std::array<Plane<T>, 6> unitCube() {
    return boxPlanes(Obb<T>{Vec3<T>(0.5), Mat3<T>(1), Vec3<T>(0.5)});
}

// The reported crossing against the reference's plane (crossing the line at referenceT, on the entering or
// the leaving side): its normal must be that plane's or that of another plane on the same side (or whose side
// rounding may decide) crossing the line within the band of it; t and point within the bounds of the more
// grazing of the two planes.
template <class T> void compareCrossing(const SurfaceHit<T>& hit, std::span<const Plane<T>> planes,
                                        const std::vector<ref::RealPlane>& wide, const RealVec3& origin,
                                        const RealVec3& direction, Real referenceT, int referencePlane,
                                        bool entering, Real scale, Agreement& agreement, const char* which) {
    const Real u = unitRoundoff<T>, band = kBandUlps * u * scale;
    const auto speedOf = [&](int i) { return glm::dot(wide[i].normal, direction); };
    const Real referenceSpeed = std::abs(speedOf(referencePlane));
    // The core's dot(n, d) errs by at most 3.01 u |n| |d|: below that, its sign, the plane's side, may flip.
    const Real sideUncertain = 4 * u * glm::length(direction);
    int reported = -1;
    for (int i = 0; i < int(wide.size()) && reported < 0; ++i) {
        const Real speed = speedOf(i);
        const bool sameSide = (speed < 0) == entering || std::abs(speed) <= sideUncertain;
        if (speed == 0 || !sameSide || hit.normal != planes[i].normal) continue;
        const Real t = (wide[i].offset - glm::dot(wide[i].normal, origin)) / speed;
        if (i == referencePlane || std::abs(t - referenceT) <= band / referenceSpeed + band / std::abs(speed))
            reported = i;
    }
    if (reported < 0)
        return agreement.fail(std::string(which) + " normal " + text(hit.normal) + " is no nearby plane's");
    const Real speed = std::min(referenceSpeed, std::abs(speedOf(reported)));
    const Real distanceUlps = std::abs(Real(hit.t) - referenceT) * speed / (u * scale);
    agreement.worstDistanceUlps = std::max(agreement.worstDistanceUlps, distanceUlps);
    if (!(distanceUlps <= kDistanceUlps))
        return agreement.fail(std::string(which) + " t " + text(hit.t) + " vs " + text(referenceT));
    const Real pointTolerance =
        kDistanceUlps * u * scale * maxAbsComponent(direction) / speed +
        4 * u * (maxAbsComponent(origin) + std::abs(referenceT) * maxAbsComponent(direction));
    if (!(maxAbsComponent(widen(hit.point) - (origin + referenceT * direction)) <= pointTolerance))
        agreement.fail(std::string(which) + " point " + text(hit.point));
}

template <class T> Real caseScale(const RayPath<T>& ray, const std::vector<ref::RealPlane>& wide) {
    Real largestOffset = 0;
    for (const ref::RealPlane& plane : wide)
        largestOffset = std::max(largestOffset, std::abs(plane.offset));
    return glm::length(widen(ray.origin)) + largestOffset;
}

template <class T> void checkAgainstReference(const RayPath<T>& ray, std::span<const Plane<T>> planes,
                                              const std::optional<RaySolidHit<T>>& result,
                                              Agreement& agreement) {
    agreement.describeCase = [&] { return text(ray) + ", " + text(planes); };
    const std::vector<ref::RealPlane> wide = ref::widenPlanes(planes);
    const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
    const Real scale = caseScale(ray, wide);
    const Real band = kBandUlps * unitRoundoff<T> * scale;
    ++agreement.cases;
    const ref::Expect expected = ref::expectedHit(wide, origin, direction, Real(ray.maxT), band);
    if (expected == ref::Expect::Either) {
        ++agreement.skipped;
    } else if (result.has_value() != (expected == ref::Expect::Hit)) {
        return agreement.fail(std::string(result ? "hit" : "miss") + " unexpected");
    }
    if (!result) return;
    ++agreement.hits;
    const RaySolidHit<T>& hit = *result;
    if (!(isFinite(hit.entry.t) && isFinite(hit.exit.t) && hit.entry.t <= hit.exit.t &&
          hit.entry.t <= ray.maxT && hit.exit.t >= T(0) && hit.originInside == (hit.entry.t < T(0)))) {
        return agreement.fail("contract: entry " + text(hit.entry.t) + " exit " + text(hit.exit.t));
    }
    const ref::PlanesCrossing crossing = ref::crossPlanes(wide, origin, direction);
    if (!crossing.meets) return;  // only inside the band
    compareCrossing(hit.entry, planes, wide, origin, direction, crossing.entry, crossing.entryPlane, true,
                    scale, agreement, "entry");
    compareCrossing(hit.exit, planes, wide, origin, direction, crossing.exit, crossing.exitPlane, false,
                    scale, agreement, "exit");
    // The origin is inside unless it lies on an entering face; compared where it is farther than the band
    // from every face's plane.
    bool nearFace = false;
    for (const ref::RealPlane& plane : wide)
        nearFace = nearFace || std::abs(glm::dot(plane.normal, origin) - plane.offset) <= band;
    if (!nearFace && hit.originInside != (crossing.entry < 0)) agreement.fail("originInside");
}

void expectAgreement(const Agreement& agreement, const char* name, bool isFloat) {
    test::expectAgreement(agreement, kMaxSkippedFraction);
    std::cout << name << " (" << (isFloat ? "float" : "double") << "): " << agreement.counts()
              << ", worst distance error " << double(agreement.worstDistanceUlps) << " u L\n";
}

// A closed convex polyhedron in double: its vertices and, per face, three of them spanning its plane.
struct Polyhedron {
    std::vector<Vec3<double>> vertices;
    std::vector<std::array<int, 3>> faces;
    double size;

    Vec3<double> centroid() const {
        Vec3<double> sum(0);
        for (const Vec3<double>& v : vertices)
            sum += v;
        return sum / double(vertices.size());
    }

    // The faces' planes with outward unit normals, rounded to T.
    template <class T> std::vector<Plane<T>> planes() const {
        std::vector<Plane<T>> result;
        const Vec3<double> inside = centroid();
        for (const auto& [a, b, c] : faces) {
            Vec3<double> normal =
                glm::normalize(glm::cross(vertices[b] - vertices[a], vertices[c] - vertices[a]));
            if (glm::dot(normal, inside - vertices[a]) > 0) normal = -normal;
            result.push_back({Vec3<T>(normal), T(glm::dot(normal, vertices[a]))});
        }
        return result;
    }
};

double farthestCentre(bool isFloat) { return isFloat ? 1e4 : 1e7; }

// A tetrahedron of random shape (not flatter than 1:20), or a prism: a triangle swept along a vector that
// leaves its plane, slanted or not. Its size is log-uniform in 1e-4 .. 1e6, its centre up to
// farthestCentre sizes from the world origin.
Polyhedron randomPolyhedron(test::Random& random, bool isFloat) {
    Polyhedron shape;
    shape.size = random.logUniform(1e-4, 1e6);
    const Vec3<double> center =
        random.unitVector<double>() * (shape.size * random.logUniform(1e-3, farthestCentre(isFloat)));
    const auto corner = [&] { return center + test::randomInBall<3>(random) * shape.size; };
    const auto flatness = [&](const Vec3<double>& a, const Vec3<double>& b, const Vec3<double>& c,
                              const Vec3<double>& d) {
        return std::abs(glm::dot(glm::cross(b - a, c - a), d - a)) / std::pow(shape.size, 3);
    };
    if (random.chance(0.5)) {
        do {
            shape.vertices = {corner(), corner(), corner(), corner()};
        } while (flatness(shape.vertices[0], shape.vertices[1], shape.vertices[2], shape.vertices[3]) < 0.05);
        shape.faces = {{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}};
    } else {
        Vec3<double> sweep;
        do {
            shape.vertices = {corner(), corner(), corner()};
            sweep = random.unitVector<double>() * (shape.size * random.uniform(0.2, 2));
        } while (flatness(shape.vertices[0], shape.vertices[1], shape.vertices[2],
                          shape.vertices[0] + sweep) < 0.05);
        for (int i = 0; i < 3; ++i)
            shape.vertices.push_back(shape.vertices[i] + sweep);
        shape.faces = {{0, 1, 2}, {3, 4, 5}, {0, 1, 4}, {1, 2, 5}, {2, 0, 3}};
    }
    return shape;
}

// A random ray near the polyhedron, of one of five kinds by kind % 5: aimed at a point inside, aimed at a
// vertex or a point on an edge (touching or grazing it), lying in a face's plane (along the face, grazing
// its edges), starting inside, or anywhere within 20 sizes. The grazing kinds are mostly moved off by a
// random distance, so that some fall outside the tangency band. The direction's length is random (t is in
// multiples of it); maxT is infinite or ends the ray anywhere up to 2.5 times the way to the target; one
// ray in ten points away from its target.
template <class T> RayPath<T> randomRayNear(test::Random& random, int kind, const Polyhedron& shape) {
    const auto vertex = [&] { return shape.vertices[int(random.uniform(0, double(shape.vertices.size())))]; };
    const auto insidePoint = [&] {
        Vec3<double> point(0);
        double total = 0;
        for (const Vec3<double>& v : shape.vertices) {
            const double weight = random.uniform(0, 1);
            point += weight * v;
            total += weight;
        }
        return point / total;
    };
    Vec3<double> heading = random.unitVector<double>();
    Vec3<double> target;
    double reach = shape.size * random.logUniform(1e-2, 1e2);
    switch (kind % 5) {
        case 0:
            target = insidePoint();
            break;
        case 1:
            target = random.chance(0.5) ? vertex() : glm::mix(vertex(), vertex(), random.uniform(0, 1));
            break;
        case 2: {
            // A flat box has faces of no area: they give no plane to run along, and an inside target.
            const auto& [a, b, c] = shape.faces[int(random.uniform(0, double(shape.faces.size())))];
            const Vec3<double> across =
                glm::cross(shape.vertices[b] - shape.vertices[a], shape.vertices[c] - shape.vertices[a]);
            if (glm::length(across) == 0) {
                target = insidePoint();
                break;
            }
            const Vec3<double> normal = glm::normalize(across);
            heading = glm::normalize(heading - glm::dot(heading, normal) * normal);
            target = glm::mix(glm::mix(shape.vertices[a], shape.vertices[b], random.uniform(0, 1)),
                              shape.vertices[c], random.uniform(0, 1));
            break;
        }
        case 3:
            target = insidePoint();
            reach = 0;
            break;
        default:
            target = shape.centroid() + test::randomInBall<3>(random) * (20 * shape.size);
            reach = 20 * shape.size;
    }
    const double directionLength = shape.size * random.logUniform(1e-3, 1e3);
    const double maxT = random.chance(0.4)
                            ? std::numeric_limits<double>::infinity()
                            : std::max(reach, shape.size) * random.uniform(0, 2.5) / directionLength;
    Vec3<double> origin = target - heading * reach;
    if (kind % 5 == 1 || kind % 5 == 2) {
        // Moved off the vertex, edge or face by 1 to 1e6 roundoffs of T there, or (one in five) not at all.
        const double resolution = unitRoundoff<T> * (glm::length(target) + shape.size);
        if (random.chance(0.8))
            origin += random.unitVector<double>() * (resolution * random.logUniform(1, 1e6));
    }
    if (random.chance(0.1)) heading = -heading;
    return {Vec3<T>(origin), Vec3<T>(heading * directionLength), T(maxT)};
}

TYPED_TEST(RayConvexTest, RandomTetrahedraAndPrismsAgreeWithReference) {
    using T = TypeParam;
    const bool isFloat = sizeof(T) == sizeof(float);
    test::Random random(2001);
    Agreement agreement;
    for (int i = 0; i < kRandomCases; ++i) {
        const Polyhedron shape = randomPolyhedron(random, isFloat);
        const std::vector<Plane<T>> planes = shape.planes<T>();
        const RayPath<T> ray = randomRayNear<T>(random, i, shape);
        checkAgainstReference(ray, std::span<const Plane<T>>(planes), intersectRayConvexPlanes(ray, planes),
                              agreement);
    }
    expectAgreement(agreement, "random tetrahedra and prisms", isFloat);
}

// Random boxes (rotated, a tenth axis-aligned with some direction components zero, a few flat) as 6 planes:
// against the reference, and against intersectRayObb: the same hit or miss outside the band, and where
// both report the same face, t within the bound of each other.
TYPED_TEST(RayConvexTest, RandomBoxesAgreeWithObb) {
    using T = TypeParam;
    const bool isFloat = sizeof(T) == sizeof(float);
    test::Random random(2002);
    Agreement agreement;
    int obbDisagreements = 0;
    for (int i = 0; i < kRandomCases && obbDisagreements <= 5; ++i) {
        const double size = random.logUniform(1e-4, 1e6);
        Vec3<double> half;
        for (int axis = 0; axis < 3; ++axis)
            half[axis] = size * random.uniform(0.05, 1);
        if (random.chance(0.02)) half[int(random.uniform(0, 3))] = 0;  // a flat box
        const Vec3<double> center =
            random.unitVector<double>() * (size * random.logUniform(1e-3, farthestCentre(isFloat)));
        const Mat3<double> rotation = random.chance(0.9) ? random.rotation<double>() : Mat3<double>(1);
        const Obb<T> box{Vec3<T>(center), Mat3<T>(rotation), Vec3<T>(half)};
        Polyhedron corners{{}, {{0, 2, 4}, {1, 3, 5}, {0, 1, 4}, {2, 3, 6}, {0, 1, 2}, {4, 5, 6}}, size};
        for (int c = 0; c < 8; ++c) {
            const Vec3<double> sign(c & 1 ? 1 : -1, c & 2 ? 1 : -1, c & 4 ? 1 : -1);
            corners.vertices.push_back(center + rotation * (sign * half));
        }
        RayPath<T> ray = randomRayNear<T>(random, i, corners);
        if (rotation == Mat3<double>(1) && random.chance(0.3))
            ray.direction[int(random.uniform(0, 3))] = T(0);
        if (ray.direction == Vec3<T>(0)) continue;
        const std::array<Plane<T>, 6> planes = boxPlanes(box);
        const auto result = intersectRayConvexPlanes(ray, planes);
        checkAgainstReference(ray, std::span<const Plane<T>>(planes), result, agreement);

        const auto obb = intersectRayObb(ray, box);
        const std::vector<ref::RealPlane> wide = ref::widenPlanes(std::span<const Plane<T>>(planes));
        const RealVec3 origin = widen(ray.origin), direction = widen(ray.direction);
        const Real scale = caseScale(ray, wide);
        const Real band = kBandUlps * unitRoundoff<T> * scale;
        // The box's own rounding (of origin - centre) decides a line exactly parallel to a face differently
        // from the planes' (of the offset) within the band of that face: not compared there.
        bool alongFace = false;
        for (const ref::RealPlane& plane : wide) {
            alongFace = alongFace || (glm::dot(plane.normal, direction) == 0 &&
                                      std::abs(glm::dot(plane.normal, origin) - plane.offset) <= band);
        }
        if (alongFace ||
            ref::expectedHit(wide, origin, direction, Real(ray.maxT), band) == ref::Expect::Either)
            continue;
        if (obb.has_value() != result.has_value()) {
            ++obbDisagreements;
            ADD_FAILURE() << "obb " << obb.has_value() << ", planes " << result.has_value() << ": "
                          << text(ray);
            continue;
        }
        if (!obb) continue;
        for (const auto& [mine, theirs] :
             {std::pair{result->entry, obb->entry}, std::pair{result->exit, obb->exit}}) {
            if (mine.normal != theirs.normal) continue;  // near an edge: checked against the reference above
            const Real speed = std::abs(glm::dot(widen(mine.normal), direction));
            // Each within kDistanceUlps u L of the exact crossing.
            if (!(std::abs(Real(mine.t) - Real(theirs.t)) * speed <=
                  2 * kDistanceUlps * unitRoundoff<T> * scale)) {
                ++obbDisagreements;
                ADD_FAILURE() << "t " << text(mine.t) << " vs obb " << text(theirs.t) << ": " << text(ray);
            }
        }
    }
    expectAgreement(agreement, "random boxes as planes", isFloat);
    EXPECT_EQ(obbDisagreements, 0);
}

// Boxes whose every coordinate is a small multiple of 1/8, axes +- the world's in any order, and rays with
// such origins (often on a face plane) and directions whose components are 0 or +-2^k: every product in both
// tests is exact, so the planes give intersectRayObb's answer bit for bit, edges and faces included.
TYPED_TEST(RayConvexTest, ExactBoxesMatchObbBitForBit) {
    using T = TypeParam;
    test::Random random(2003);
    std::mt19937 shuffler(7);
    const auto eighths = [&](double range) { return T(std::round(random.uniform(-range, range) * 8) / 8); };
    int hits = 0, touching = 0;
    for (int i = 0; i < 100000; ++i) {
        Mat3<T> rotation(0);
        std::array<int, 3> order{0, 1, 2};
        std::shuffle(order.begin(), order.end(), shuffler);
        for (int axis = 0; axis < 3; ++axis)
            rotation[axis][order[axis]] = random.chance(0.5) ? T(1) : T(-1);
        const Obb<T> box{{eighths(4), eighths(4), eighths(4)},
                         rotation,
                         {std::abs(eighths(2)), std::abs(eighths(2)), std::abs(eighths(2))}};
        const std::array<Plane<T>, 6> planes = boxPlanes(box);
        RayPath<T> ray{{eighths(6), eighths(6), eighths(6)},
                       {},
                       random.chance(0.5) ? kInfinity<T> : std::abs(eighths(8))};
        for (int axis = 0; axis < 3; ++axis) {
            if (random.chance(0.3)) {  // on a face plane of the box
                const Plane<T>& face = planes[int(random.uniform(0, 6))];
                const int worldAxis = face.normal.x != 0 ? 0 : face.normal.y != 0 ? 1 : 2;
                ray.origin[worldAxis] = face.offset * face.normal[worldAxis];
            }
            ray.direction[axis] = random.chance(0.3) ? T(0)
                                                     : std::ldexp(random.chance(0.5) ? T(1) : T(-1),
                                                                  int(random.uniform(-3, 3)));
        }
        if (ray.direction == Vec3<T>(0)) continue;
        const auto mine = intersectRayConvexPlanes(ray, planes);
        const auto obb = intersectRayObb(ray, box);
        ASSERT_EQ(mine.has_value(), obb.has_value()) << text(ray);
        if (!mine) continue;
        ++hits;
        touching += mine->entry.t == mine->exit.t;
        EXPECT_EQ(mine->originInside, obb->originInside) << text(ray);
        for (const auto& [a, b] : {std::pair{mine->entry, obb->entry}, std::pair{mine->exit, obb->exit}}) {
            EXPECT_EQ(a.t, b.t) << text(ray);
            EXPECT_EQ(a.point, b.point) << text(ray);
            EXPECT_EQ(a.normal, b.normal) << text(ray);
        }
    }
    std::cout << "exact boxes: " << hits << " hits, " << touching
              << " touching a face, edge or corner only\n";
    EXPECT_GT(hits, 5000);
    EXPECT_GT(touching, 100);
}

TYPED_TEST(RayConvexTest, RayThroughCubeReportsEntryAndExitFaces) {
    using T = TypeParam;
    const auto hit = kIntersectPlanes(RayPath<T>{{-1, T(0.25), T(0.5)}, {2, 0, 0}, 10}, unitCube<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(0.5));
    EXPECT_EQ(hit->exit.t, T(1));
    EXPECT_EQ(hit->entry.point, Vec3<T>(0, T(0.25), T(0.5)));
    EXPECT_EQ(hit->exit.point, Vec3<T>(1, T(0.25), T(0.5)));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_FALSE(hit->originInside);
}

// In the plane of a face, along an edge (zero components of either sign): the closed solid holds the line
// there; a line one ulp outside the face's plane misses.
TYPED_TEST(RayConvexTest, RaysAlongFacesAndEdges) {
    using T = TypeParam;
    for (const T zero : {T(0), T(-0.0)}) {
        for (const Vec3<T> origin : {Vec3<T>(-1, 1, T(0.5)), Vec3<T>(-1, 1, 1), Vec3<T>(-1, 0, 0)}) {
            const auto hit =
                kIntersectPlanes(RayPath<T>{origin, {1, zero, zero}, kInfinity<T>}, unitCube<T>());
            ASSERT_TRUE(hit) << text(origin);
            EXPECT_EQ(hit->entry.t, T(1));
            EXPECT_EQ(hit->exit.t, T(2));
            EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
            EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
            EXPECT_EQ(hit->entry.point, Vec3<T>(0, origin.y, origin.z));
        }
    }
    const T above = std::nextafter(T(1), T(2));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{-1, above, T(0.5)}, {1, 0, 0}, kInfinity<T>}, unitCube<T>()));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{-1, 1, above}, {1, 0, 0}, kInfinity<T>}, unitCube<T>()));
    // Along the slanted face of the tetrahedron x, y, z >= 0, x + y + z <= 1 (normal (1, 1, 1) / sqrt 3,
    // rounded), through the middle of its edge on x = 0: exactly in that plane, rounding decides; 1e-3
    // inside, the line enters through x = 0 at t = 1 and leaves through y = 0; 1e-3 outside, it misses.
    const T third = T(1) / std::sqrt(T(3));
    const std::array<Plane<T>, 4> tetrahedron{Plane<T>{{-1, 0, 0}, 0}, Plane<T>{{0, -1, 0}, 0},
                                              Plane<T>{{0, 0, -1}, 0}, Plane<T>{Vec3<T>(third), third}};
    for (const T shift : {T(-1e-3), T(0), T(1e-3)}) {
        const auto along =
            kIntersectPlanes(RayPath<T>{{-1, T(1.5), T(0.5) + shift}, {1, -1, 0}, kInfinity<T>}, tetrahedron);
        if (shift != T(0)) {
            EXPECT_EQ(along.has_value(), shift < T(0)) << shift;
        }
        if (!along) continue;
        EXPECT_EQ(along->entry.normal, Vec3<T>(-1, 0, 0));
        EXPECT_EQ(along->exit.normal, Vec3<T>(0, -1, 0));
        EXPECT_EQ(along->entry.t, T(1));
        EXPECT_EQ(along->exit.t, T(1.5));
    }
    const auto through =
        kIntersectPlanes(RayPath<T>{{-1, T(0.25), T(0.25)}, {1, 0, 0}, kInfinity<T>}, tetrahedron);
    ASSERT_TRUE(through);
    EXPECT_EQ(through->entry.t, T(1));
    EXPECT_EQ(through->exit.normal, Vec3<T>(third));
    EXPECT_NEAR(through->exit.t, T(1.5), 4 * std::numeric_limits<T>::epsilon());
}

TYPED_TEST(RayConvexTest, RayThroughCornerTakesTheLowestIndex) {
    using T = TypeParam;
    const auto hit = kIntersectPlanes(RayPath<T>{{-1, -1, -1}, {1, 1, 1}, kInfinity<T>}, unitCube<T>());
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(1));
    EXPECT_EQ(hit->exit.t, T(2));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    // Touching only the corner (1, 1, 1), in the top face's plane: it enters through y <= 1 and leaves
    // through x <= 1, both at t = 1; one ulp farther out it misses.
    const auto corner = kIntersectPlanes(RayPath<T>{{0, 2, 1}, {1, -1, 0}, kInfinity<T>}, unitCube<T>());
    ASSERT_TRUE(corner);
    EXPECT_EQ(corner->entry.t, T(1));
    EXPECT_EQ(corner->exit.t, T(1));
    EXPECT_EQ(corner->entry.normal, Vec3<T>(0, 1, 0));
    EXPECT_EQ(corner->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_EQ(corner->entry.point, Vec3<T>(1, 1, 1));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{0, std::nextafter(T(2), T(3)), 1}, {1, -1, 0}, kInfinity<T>},
                                  unitCube<T>()));
}

TYPED_TEST(RayConvexTest, OriginInsideAndRayReach) {
    using T = TypeParam;
    const auto hit =
        kIntersectPlanes(RayPath<T>{{T(0.25), T(0.5), T(0.5)}, {1, 0, 0}, T(0.125)}, unitCube<T>());
    ASSERT_TRUE(hit);
    EXPECT_TRUE(hit->originInside);
    EXPECT_EQ(hit->entry.t, T(-0.25));
    EXPECT_EQ(hit->exit.t, T(0.75));  // beyond maxT, still reported as the line's exit
    const Vec3<T> origin(-1, T(0.5), T(0.5));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{origin, {1, 0, 0}, T(0.99)}, unitCube<T>()));
    EXPECT_TRUE(kIntersectPlanes(RayPath<T>{origin, {1, 0, 0}, T(1)}, unitCube<T>()));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{origin, {-1, 0, 0}, kInfinity<T>}, unitCube<T>()));
    // On the surface going out: inside the closed solid, exit at t = 0.
    const auto out =
        kIntersectPlanes(RayPath<T>{{0, T(0.5), T(0.5)}, {-1, T(0.25), 0}, kInfinity<T>}, unitCube<T>());
    ASSERT_TRUE(out);
    EXPECT_EQ(out->exit.t, T(0));
    EXPECT_EQ(out->exit.normal, Vec3<T>(-1, 0, 0));
    EXPECT_TRUE(out->originInside);
}

// A half-space and no planes at all: the ends no plane bounds lie at infinity, their normals facing the ray.
// Planes with no common point, or a line parallel to a plane and outside it: no hit.
TYPED_TEST(RayConvexTest, UnboundedAndEmptySolids) {
    using T = TypeParam;
    const std::array<Plane<T>, 1> below{Plane<T>{{0, 0, 1}, 0}};  // z <= 0
    const auto down = kIntersectPlanes(RayPath<T>{{1, 2, 5}, {0, 0, -2}, kInfinity<T>}, below);
    ASSERT_TRUE(down);
    EXPECT_FALSE(down->originInside);
    EXPECT_EQ(down->entry.t, T(2.5));
    EXPECT_EQ(down->entry.normal, Vec3<T>(0, 0, 1));
    EXPECT_EQ(down->exit.t, kInfinity<T>);
    EXPECT_EQ(down->exit.point, Vec3<T>(1, 2, -kInfinity<T>));
    EXPECT_EQ(down->exit.normal, Vec3<T>(0, 0, -1));
    const auto up = kIntersectPlanes(RayPath<T>{{1, 2, -1}, {0, 3, 4}, kInfinity<T>}, below);
    ASSERT_TRUE(up);
    EXPECT_TRUE(up->originInside);
    EXPECT_EQ(up->entry.t, -kInfinity<T>);
    EXPECT_EQ(up->entry.point, Vec3<T>(1, -kInfinity<T>, -kInfinity<T>));
    EXPECT_NEAR(up->entry.normal.y, T(-0.6), std::numeric_limits<T>::epsilon());
    EXPECT_NEAR(up->entry.normal.z, T(-0.8), std::numeric_limits<T>::epsilon());
    EXPECT_EQ(up->exit.t, T(0.25));
    EXPECT_EQ(up->exit.normal, Vec3<T>(0, 0, 1));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{1, 2, 1}, {1, 0, 0}, kInfinity<T>}, below));
    EXPECT_TRUE(kIntersectPlanes(RayPath<T>{{1, 2, 0}, {1, 0, 0}, kInfinity<T>}, below));

    const auto everywhere = intersectRayConvexPlanes(RayPath<T>{{1, 2, 3}, {0, 1, 0}, T(1)}, {});
    ASSERT_TRUE(everywhere);
    EXPECT_TRUE(everywhere->originInside);
    EXPECT_EQ(everywhere->entry.t, -kInfinity<T>);
    EXPECT_EQ(everywhere->exit.t, kInfinity<T>);
    EXPECT_EQ(everywhere->entry.point, Vec3<T>(1, -kInfinity<T>, 3));
    EXPECT_EQ(everywhere->exit.normal, Vec3<T>(0, 1, 0));

    const std::array<Plane<T>, 2> apart{Plane<T>{{0, 0, 1}, 0}, Plane<T>{{0, 0, -1}, -1}};  // z <= 0, z >= 1
    for (const Vec3<T>& direction : {Vec3<T>(0, 0, 1), Vec3<T>(1, 0, 0), Vec3<T>(1, 2, 3)})
        EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{0, 0, T(0.5)}, direction, kInfinity<T>}, apart));
}

// A zero direction (also from inside), a negative maxT: no hit.
TYPED_TEST(RayConvexTest, DegenerateRayIsNoHit) {
    using T = TypeParam;
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{Vec3<T>(0.5), Vec3<T>(0), T(1)}, unitCube<T>()));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{-1, T(0.5), T(0.5)}, Vec3<T>(0), T(1)}, unitCube<T>()));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{-1, T(0.5), T(0.5)}, {1, 0, 0}, T(-1)}, unitCube<T>()));
}

TYPED_TEST(RayConvexTest, NonFiniteInputIsNoHit) {
    using T = TypeParam;
    test::expectNonFiniteInputGivesNoHit(RayPath<T>{{-3, T(0.5), T(0.25)}, {1, T(0.125), 0}, T(10)},
                                         unitCube<T>(), kIntersectPlanes);
}

TYPED_TEST(RayConvexTest, HugeAndTinyScalesGiveTheSameAnswer) {
    using T = TypeParam;
    test::Random random(2004);
    // The ray ends at the box's centre.
    test::expectScaleInvariance(RayPath<T>{{-3.25, -0.5625, -0.5}, {1.5, 0.125, 0.25}, T(2.5)},
                                boxPlanes(Obb<T>{{0.5, -0.25, 0.125}, random.rotation<T>(), {1.25, 0.5, 2}}),
                                kIntersectPlanes);
}

// A direction so nearly parallel to a face that its crossing overflows: inside that face's half-space
// nothing changes, outside it the line misses; a bounded side whose every crossing overflows is no hit.
TYPED_TEST(RayConvexTest, OverflowingCrossings) {
    using T = TypeParam;
    const T tiny = std::numeric_limits<T>::denorm_min();
    const std::array<Plane<T>, 3> wedge{Plane<T>{{-1, 0, 0}, 0}, Plane<T>{{1, 0, 0}, 1},
                                        Plane<T>{{0, 0, 1}, 0}};  // 0 <= x <= 1, z <= 0
    const auto inside = kIntersectPlanes(RayPath<T>{{-1, 0, -1}, {1, 0, tiny}, kInfinity<T>}, wedge);
    ASSERT_TRUE(inside);
    EXPECT_EQ(inside->entry.t, T(1));
    EXPECT_EQ(inside->exit.t, T(2));
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{{-1, 0, 1}, {1, 0, -tiny}, kInfinity<T>}, wedge));
    // Inside the cube, with a direction of the smallest subnormal: every crossing overflows.
    EXPECT_FALSE(kIntersectPlanes(RayPath<T>{Vec3<T>(0.5), {tiny, 0, 0}, kInfinity<T>}, unitCube<T>()));
}

// The normals reported are the planes' own, here Random::rotation's columns: unit within 8 u.
constexpr Real kRotationUnitLength = 8;

TYPED_TEST(RayConvexTest, ExtremeMagnitudesNeverGiveNaN) {
    using T = TypeParam;
    test::Random random(2005);
    test::expectSaneForExtremeInputs<T>(
        kIntersectPlanes,
        [&](const auto& vector, const auto& radius) {
            return boxPlanes(Obb<T>{vector(), random.rotation<T>(), {radius(), radius(), radius()}});
        },
        kRotationUnitLength);
}

}  // namespace
}  // namespace analytic
