// SPDX-License-Identifier: Zlib
// Closest points and sphere contacts (closest_point.hpp) against the long double oracle of
// reference/distance_reference.hpp, on random cases of every scale and position, and on named edge cases.
#include "analytic/geometry/closest_point.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "reference/distance_reference.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::Random;
using test::Real;
using test::RealVec3;
using test::widen;
namespace ref = reference;

// ---------------------------------------------------------------------------------------------------
// Stated bounds. Errors are measured in units of u * scale, where u is the scalar's unit roundoff
// (float 6.0e-8, double 1.1e-16) and scale is the largest coordinate magnitude (or radius) of the
// case: a backward-stable result is a few such units from the exact one.

// |distance - exact|, |depth - exact|: float 1.0e-6, double 1.8e-15 of the scale, for triangles divided
// by the sine of the largest angle (the plane of a flat triangle is known to u / sine). For a triangle
// so flat that the core treats it as its edges (sine below 16 u), plus its height.
constexpr Real kDistanceUnits = 16;
// |point - exact|, divided by the conditioning of the case: the sine of the triangle's largest angle,
// the sine of the angle between two segments.
constexpr Real kPointUnits = 32;
// Angle of a contact normal, times scale / distance (a direction from two points known to u * scale).
constexpr Real kNormalUnits = 32;
// Feature, inside/outside and hit/miss comparisons are skipped within this band (divided by the
// conditioning as above) of a feature boundary or of touching; at most kMaxSkippedFraction of the cases.
constexpr Real kBandUnits = 64;
constexpr double kMaxSkippedFraction = 0.01;
constexpr int kRandomCases = 100000;

template <class T> Real tolerance(Real units, Real scale) { return units * Real(unitRoundoff<T>) * scale; }

Real largestMagnitude(std::initializer_list<RealVec3> points) {
    Real largest = 0;
    for (const RealVec3& p : points)
        largest = std::max({largest, std::abs(p.x), std::abs(p.y), std::abs(p.z)});
    return largest;
}

Real distance(const RealVec3& p, const RealVec3& q) { return glm::length(p - q); }

// The largest error seen as a fraction of its bound, printed at the end of each random test.
class ErrorRecord {
public:
    void add(const char* what, Real error, Real bound) {
        for (Entry& entry : entries_)
            if (entry.what == what) {
                entry.worst = std::max(entry.worst, error / bound);
                return;
            }
        entries_.push_back({what, error / bound});
    }
    void print(const char* test, int skipped) const {
        std::string line = std::string(test) + ": worst error / bound:";
        for (const Entry& entry : entries_)
            line += " " + entry.what + " " + std::to_string(double(entry.worst));
        std::printf("%s; skipped %d of %d\n", line.c_str(), skipped, kRandomCases);
    }

private:
    struct Entry {
        std::string what;
        Real worst;
    };
    std::vector<Entry> entries_;
};

// The skeleton of the random tests: `cases` cases from one seeded source, the worst errors printed under
// name at the end. checkCase(random, errors, i, skipped) checks case i, and counts it in skipped where a
// comparison had to be left out (within the band of a boundary); at most maxSkipped may be. The first
// failing case ends the test, named.
template <class CheckCase> void checkRandomCases(const char* name, std::uint64_t seed, int cases,
                                                 double maxSkipped, CheckCase checkCase) {
    Random random(seed);
    ErrorRecord errors;
    int skipped = 0;
    for (int i = 0; i < cases; ++i) {
        checkCase(random, errors, i, skipped);
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
    errors.print(name, skipped);
    EXPECT_LE(skipped, maxSkipped);
}

template <class CheckCase> void checkRandomCases(const char* name, std::uint64_t seed, CheckCase checkCase) {
    checkRandomCases(name, seed, kRandomCases, kMaxSkippedFraction * kRandomCases, checkCase);
}

// ---------------------------------------------------------------------------------------------------
// Random cases: sizes log-uniform in 1e-4 .. 1e6; centres half within a size of the origin (where the
// bounds, relative to the coordinates, are sharpest), half from 1 to 1e3 (float) or 1e6 (double) sizes
// away from it (farther, a float case could not represent its shape).

double randomScale(Random& random) { return random.logUniform(1e-4, 1e6); }

template <class T> Vec3<T> randomCentre(Random& random, double scale) {
    const double farthest = std::is_same_v<T, float> ? 1e3 : 1e6;
    const double away = random.chance(0.5) ? random.logUniform(1e-2, 1) : random.logUniform(1, farthest);
    return Vec3<T>(random.unitVector<double>() * (scale * away));
}

template <class T> Vec3<T> randomPointAround(Random& random, const Vec3<T>& centre, double extent) {
    return Vec3<T>(Vec3<double>(centre) + random.point<double>(extent));
}

template <class T> struct TriangleCase {
    Triangle<T> triangle;
    Vec3<T> point;
};

// Queries spread around the triangle, or close to its plane inside and just outside its edges.
template <class T> TriangleCase<T> randomTriangleCase(Random& random, double scale) {
    const Vec3<T> centre = randomCentre<T>(random, scale);
    const Triangle<T> triangle{randomPointAround(random, centre, scale),
                               randomPointAround(random, centre, scale),
                               randomPointAround(random, centre, scale)};
    if (random.chance(0.5)) return {triangle, randomPointAround(random, centre, 3 * scale)};
    const Vec3<double> a(triangle.a), b(triangle.b), c(triangle.c);
    const double u = random.uniform(-0.2, 1.2), v = random.uniform(-0.2, 1.2 - u);
    const Vec3<double> normal = glm::cross(b - a, c - a);
    const double height = random.logUniform(1e-8, 1) * (random.chance(0.5) ? 1 : -1);
    const Vec3<double> onPlane = a + u * (b - a) + v * (c - a);
    const double normalLength = glm::length(normal);
    return {triangle,
            Vec3<T>(normalLength > 0 ? onPlane + (height * scale / normalLength) * normal : onPlane)};
}

// Sine of the triangle's largest angle: the core's normal (the cross product of the two shortest
// edges) is known to about u / sine.
Real sineOfLargestAngle(const RealVec3& a, const RealVec3& b, const RealVec3& c) {
    const Real ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const Real shortestTwo = ab * bc * ca / std::max({ab, bc, ca});
    return shortestTwo > 0 ? glm::length(glm::cross(b - a, c - a)) / shortestTwo : 0;
}

// The sine of the smallest angle: the core's degenerateTriangleSine bounds it (a needle thinner than
// its coordinates' rounding counts as degenerate).
Real sineOfSmallestAngle(const RealVec3& a, const RealVec3& b, const RealVec3& c) {
    const Real ab = glm::length(b - a), bc = glm::length(c - b), ca = glm::length(a - c);
    const Real shortest = std::min({ab, bc, ca});
    if (!(shortest > 0)) return 0;
    return glm::length(glm::cross(b - a, c - a)) / (ab * bc * ca / shortest);
}

// Below the core's degenerateTriangleSine (with margin) the core answers from the edges: allow the
// triangle's height over its longest edge.
template <class T> Real degenerateAllowance(const RealVec3& a, const RealVec3& b, const RealVec3& c) {
    if (sineOfSmallestAngle(a, b, c) > 32 * Real(unitRoundoff<T>)) return 0;
    const Real longest = std::max({glm::length(b - a), glm::length(c - b), glm::length(a - c)});
    return longest > 0 ? glm::length(glm::cross(b - a, c - a)) / longest : 0;
}

static_assert(int(ref::TriangleFeature::Face) == int(TriangleFeature::Face));
static_assert(int(ref::TriangleFeature::EdgeAB) == int(TriangleFeature::Edge0));
static_assert(int(ref::TriangleFeature::EdgeCA) == int(TriangleFeature::Edge2));
static_assert(int(ref::TriangleFeature::VertexA) == int(TriangleFeature::Vertex0));
static_assert(int(ref::TriangleFeature::VertexC) == int(TriangleFeature::Vertex2));

TriangleFeature coreFeature(ref::TriangleFeature feature) { return TriangleFeature(int(feature)); }

// Whether moving the query by band along any axis changes the exact feature.
bool featureIsAmbiguous(const RealVec3& p, const RealVec3& a, const RealVec3& b, const RealVec3& c,
                        Real band) {
    const ref::TriangleFeature feature = ref::closestPointOnTriangle(p, a, b, c).feature;
    for (int axis = 0; axis < 3; ++axis)
        for (const Real side : {Real(-1), Real(1)}) {
            RealVec3 moved = p;
            moved[axis] += side * band;
            if (ref::closestPointOnTriangle(moved, a, b, c).feature != feature) return true;
        }
    return false;
}

template <class T> struct ObbCase {
    Obb<T> box;
    Vec3<T> point;
};

// Some boxes are flat (a zero half extent); queries inside, near and far.
template <class T> ObbCase<T> randomObbCase(Random& random, double scale) {
    const Vec3<T> centre = randomCentre<T>(random, scale);
    Vec3<T> halfExtents(T(random.uniform(0, scale)), T(random.uniform(0, scale)),
                        T(random.uniform(0, scale)));
    if (random.chance(0.02)) halfExtents[int(random.uniform(0, 3))] = T(0);
    const Obb<T> box{centre, random.rotation<T>(), halfExtents};
    return {box, randomPointAround(random, centre, random.chance(0.5) ? scale : 3 * scale)};
}

Real obbScale(const RealVec3& p, const RealVec3& center, const RealVec3& halfExtents) {
    return largestMagnitude({p, center, halfExtents});
}

// ---------------------------------------------------------------------------------------------------
// Point - segment.

template <class T> class ClosestPointOnSegment : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPointOnSegment, test::Scalars);

TYPED_TEST(ClosestPointOnSegment, MatchesReference) {
    using T = TypeParam;
    checkRandomCases("segment", 101, [](Random& random, ErrorRecord& errors, int i, int&) {
        const double scale = randomScale(random);
        const Vec3<T> centre = randomCentre<T>(random, scale);
        const Vec3<T> a = randomPointAround(random, centre, scale);
        const Vec3<T> b = random.chance(0.02) ? a : randomPointAround(random, centre, scale);
        const Vec3<T> point = randomPointAround(random, centre, 2 * scale);
        const auto result = closestPointOnSegment(point, a, b);
        ASSERT_TRUE(result);
        const RealVec3 p = widen(point);
        const ref::SegmentPoint exact = ref::closestPointOnSegment(p, widen(a), widen(b));
        const Real caseScale = largestMagnitude({p, widen(a), widen(b)});
        const Real distanceBound = tolerance<T>(kDistanceUnits, caseScale);
        const Real pointBound = tolerance<T>(kPointUnits, caseScale);
        const Real distanceError = std::abs(distance(p, widen(result->point)) - distance(p, exact.point));
        const Real pointError = distance(widen(result->point), exact.point);
        ASSERT_LE(distanceError, distanceBound) << i;
        ASSERT_LE(pointError, pointBound) << i;
        ASSERT_TRUE(result->s >= T(0) && result->s <= T(1)) << i;
        errors.add("distance", distanceError, distanceBound);
        errors.add("point", pointError, pointBound);
    });
}

TYPED_TEST(ClosestPointOnSegment, EndsAndZeroLength) {
    using T = TypeParam;
    const Vec3<T> a(T(1e3), T(-2), T(0.5)), b(T(1e3 + 4), T(2), T(0.5));
    const auto beforeA = closestPointOnSegment(a - T(3) * (b - a), a, b);
    ASSERT_TRUE(beforeA);
    EXPECT_EQ(beforeA->s, T(0));
    EXPECT_EQ(beforeA->point, a);
    const auto beyondB = closestPointOnSegment(b + (b - a) + Vec3<T>(0, 0, 7), a, b);
    ASSERT_TRUE(beyondB);
    EXPECT_EQ(beyondB->s, T(1));
    EXPECT_EQ(beyondB->point, b);
    const auto onB = closestPointOnSegment(b, a, b);
    ASSERT_TRUE(onB);
    EXPECT_EQ(onB->point, b);
    const auto middle = closestPointOnSegment(Vec3<T>(T(1e3 + 2), T(0), T(9)), a, b);
    ASSERT_TRUE(middle);
    EXPECT_EQ(middle->s, T(0.5));
    const auto zeroLength = closestPointOnSegment(Vec3<T>(5, 6, 7), a, a);
    ASSERT_TRUE(zeroLength);
    EXPECT_EQ(zeroLength->s, T(0));
    EXPECT_EQ(zeroLength->point, a);
}

// ---------------------------------------------------------------------------------------------------
// Point - triangle.

template <class T> class ClosestPointOnTriangle : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPointOnTriangle, test::Scalars);

// Compares one query with the oracle; returns whether the feature comparison had to be skipped.
template <class T>
bool expectTriangleMatches(const Vec3<T>& point, const Triangle<T>& triangle, ErrorRecord& errors) {
    const auto result = closestPointOnTriangle(point, triangle);
    EXPECT_TRUE(result);
    if (!result) return false;
    const RealVec3 p = widen(point), a = widen(triangle.a), b = widen(triangle.b), c = widen(triangle.c);
    const ref::TrianglePoint exact = ref::closestPointOnTriangle(p, a, b, c);
    const Real caseScale = largestMagnitude({p, a, b, c});
    // Below 8 u the core surely answers from the edges, which are well conditioned.
    const Real sine = sineOfLargestAngle(a, b, c);
    const bool maybeDegenerate = sineOfSmallestAngle(a, b, c) <= 32 * Real(unitRoundoff<T>);
    const Real conditioning = sine > 8 * Real(unitRoundoff<T>) ? sine : 1;
    const Real distanceBound =
        tolerance<T>(kDistanceUnits, caseScale) / conditioning + degenerateAllowance<T>(a, b, c);
    const Real pointBound =
        tolerance<T>(kPointUnits, caseScale) / conditioning + degenerateAllowance<T>(a, b, c);
    const RealVec3 found = widen(result->point);
    const Real distanceError = std::abs(distance(p, found) - distance(p, exact.point));
    const Real pointError = distance(found, exact.point);
    EXPECT_LE(distanceError, distanceBound);
    EXPECT_LE(pointError, pointBound);
    errors.add("distance", distanceError, distanceBound);
    errors.add("point", pointError, pointBound);

    // The barycentrics describe the point, and the feature agrees with them.
    const RealVec3 weights = widen(result->barycentric);
    EXPECT_TRUE(weights.x >= 0 && weights.y >= 0 && weights.z >= 0);
    EXPECT_NEAR(double(weights.x + weights.y + weights.z), 1.0, 8 * double(unitRoundoff<T>));
    const Real weightsError = distance(weights.x * a + weights.y * b + weights.z * c, found);
    EXPECT_LE(weightsError, pointBound);
    errors.add("barycentric point", weightsError, pointBound);
    const int feature = int(result->feature);
    if (feature >= int(TriangleFeature::Vertex0)) {
        const int vertex = feature - int(TriangleFeature::Vertex0);
        EXPECT_EQ(result->point, (vertex == 0 ? triangle.a : vertex == 1 ? triangle.b : triangle.c));
        EXPECT_EQ(weights[vertex], 1);
    } else if (feature >= int(TriangleFeature::Edge0)) {
        EXPECT_EQ(weights[(feature - int(TriangleFeature::Edge0) + 2) % 3], 0);
    }

    const Real band = tolerance<T>(kBandUnits, caseScale) / conditioning;
    if (maybeDegenerate || featureIsAmbiguous(p, a, b, c, band)) return true;
    EXPECT_EQ(int(result->feature), int(coreFeature(exact.feature)));
    return false;
}

TYPED_TEST(ClosestPointOnTriangle, MatchesReference) {
    using T = TypeParam;
    checkRandomCases("triangle", 202, [](Random& random, ErrorRecord& errors, int, int& skipped) {
        const TriangleCase<T> c = randomTriangleCase<T>(random, randomScale(random));
        skipped += expectTriangleMatches(c.point, c.triangle, errors);
    });
}

// Queries exactly on vertices (in and off the plane), in vertex and edge regions, and on edges.
TYPED_TEST(ClosestPointOnTriangle, VerticesAndEdges) {
    using T = TypeParam;
    const Triangle<T> triangle{{T(100), T(0), T(0)}, {T(104), T(0), T(0)}, {T(100), T(3), T(0)}};
    const Vec3<T> vertices[3] = {triangle.a, triangle.b, triangle.c};
    for (int vertex = 0; vertex < 3; ++vertex) {
        const auto on = closestPointOnTriangle(vertices[vertex], triangle);
        ASSERT_TRUE(on);
        EXPECT_EQ(on->point, vertices[vertex]);
        EXPECT_EQ(on->feature, TriangleFeature::Face) << "the face is closed";
        EXPECT_EQ(on->barycentric[vertex], T(1));
        const auto above = closestPointOnTriangle(vertices[vertex] + Vec3<T>(0, 0, 5), triangle);
        ASSERT_TRUE(above);
        EXPECT_LE(glm::length(above->point - vertices[vertex]), T(1e-5));
    }
    // Vertex regions in the plane: beyond each vertex, away from the centroid.
    const Vec3<T> centroid = (triangle.a + triangle.b + triangle.c) / T(3);
    for (int vertex = 0; vertex < 3; ++vertex) {
        const auto beyond =
            closestPointOnTriangle(vertices[vertex] + (vertices[vertex] - centroid), triangle);
        ASSERT_TRUE(beyond);
        EXPECT_EQ(beyond->feature, triangleVertex(vertex));
        EXPECT_EQ(beyond->point, vertices[vertex]);
    }
    // Edge regions: outward from each edge's midpoint, in the plane and above it.
    const Vec3<T> outward[3] = {{0, -1, 0}, {T(3), T(4), 0}, {-1, 0, 0}};
    for (int edge = 0; edge < 3; ++edge) {
        const Vec3<T> midpoint = (vertices[edge] + vertices[(edge + 1) % 3]) / T(2);
        for (const T height : {T(0), T(-2)}) {
            const auto result =
                closestPointOnTriangle(midpoint + outward[edge] + Vec3<T>(0, 0, height), triangle);
            ASSERT_TRUE(result);
            EXPECT_EQ(result->feature, triangleEdge(edge));
            EXPECT_NEAR(double(result->point.x), double(midpoint.x), 1e-5);
            EXPECT_NEAR(double(result->point.y), double(midpoint.y), 1e-5);
            EXPECT_EQ(result->point.z, T(0));
        }
    }
    // On an edge (exactly representable): inside the closed face.
    const auto onEdge = closestPointOnTriangle(Vec3<T>(T(102), T(0), T(0)), triangle);
    ASSERT_TRUE(onEdge);
    EXPECT_EQ(onEdge->point, Vec3<T>(T(102), T(0), T(0)));
    EXPECT_EQ(onEdge->barycentric.z, T(0));
}

// Random triangles and queries, with queries snapped onto vertices and edge points.
TYPED_TEST(ClosestPointOnTriangle, QueriesOnFeaturesMatchReference) {
    using T = TypeParam;
    Random random(203);
    ErrorRecord errors;
    for (int i = 0; i < kRandomCases / 10; ++i) {
        const TriangleCase<T> c = randomTriangleCase<T>(random, randomScale(random));
        const Vec3<T> vertices[3] = {c.triangle.a, c.triangle.b, c.triangle.c};
        const int vertex = i % 3;
        const Vec3<T> onEdge = Vec3<T>(glm::mix(
            Vec3<double>(vertices[vertex]), Vec3<double>(vertices[(vertex + 1) % 3]), random.uniform(0, 1)));
        expectTriangleMatches(vertices[vertex], c.triangle, errors);
        expectTriangleMatches(onEdge, c.triangle, errors);
        if (::testing::Test::HasFailure()) FAIL() << "case " << i;
    }
}

// Needles (one short edge) and caps (one angle near 180 degrees), down to widths of 1e-6 of the length,
// with the thin part at each vertex in turn: the normal must come from the best-conditioned edges.
TYPED_TEST(ClosestPointOnTriangle, SliversMatchReference) {
    using T = TypeParam;
    const auto checkSliver = [](Random& random, ErrorRecord& errors, int i, int& skipped) {
        const double scale = randomScale(random);
        const Vec3<double> centre(randomCentre<T>(random, scale));
        const Vec3<double> along = random.unitVector<double>() * scale,
                           across = random.unitVector<double>() * scale;
        const double thinness = random.logUniform(1e-6, 1e-1);
        Vec3<double> vertices[3];
        if (i % 2 == 0) {  // needle: apex at vertices[0]
            vertices[0] = centre - along;
            vertices[1] = centre + along;
            vertices[2] = centre + along + thinness * across;
        } else {  // cap: vertices[1] just off the segment between the others
            vertices[0] = centre - along;
            vertices[1] = centre + random.uniform(-0.9, 0.9) * along + thinness * across;
            vertices[2] = centre + along;
        }
        const int first = i % 3;
        const Triangle<T> triangle{Vec3<T>(vertices[first]), Vec3<T>(vertices[(first + 1) % 3]),
                                   Vec3<T>(vertices[(first + 2) % 3])};
        const Vec3<T> point(centre + random.point<double>(1.5 * scale));
        skipped += expectTriangleMatches(point, triangle, errors);
    };
    // Features of the thinnest float slivers are within the band of each other or degenerate.
    checkRandomCases("sliver triangle", 205, kRandomCases / 10, kRandomCases / 10 / 4, checkSliver);
}

// Collinear, two equal, all equal vertices: the closest point of the edges, never a Face.
TYPED_TEST(ClosestPointOnTriangle, DegenerateTriangles) {
    using T = TypeParam;
    Random random(204);
    ErrorRecord errors;
    const Vec3<T> a(T(-50), T(20), T(7)), direction(T(1), T(2), T(-0.5));
    const Triangle<T> degenerate[] = {
        {a, a + T(2) * direction, a + T(4) * direction},  // collinear, c beyond b
        {a, a + T(4) * direction, a + T(1) * direction},  // collinear, c between
        {a + T(2) * direction, a, a - T(3) * direction},  // collinear, a between
        {a, a, a + T(3) * direction},                     // two equal
        {a, a, a},                                        // a point
    };
    for (const Triangle<T>& triangle : degenerate) {
        for (int i = 0; i < 200; ++i) {
            const Vec3<T> point = randomPointAround(random, a, 10.0);
            expectTriangleMatches(point, triangle, errors);
            const auto result = closestPointOnTriangle(point, triangle);
            ASSERT_TRUE(result);
            EXPECT_NE(result->feature, TriangleFeature::Face);
        }
    }
}

// The sample code's absolute epsilons (the slab and Moller-Trumbore code's) would call a small, well-shaped
// triangle degenerate.
TYPED_TEST(ClosestPointOnTriangle, RegressionSmallTriangleIsNotDegenerate) {
    using T = TypeParam;
    const T size = T(1e-4);
    const Triangle<T> triangle{{0, 0, 0}, {size, 0, 0}, {0, size, 0}};
    const auto result = closestPointOnTriangle(Vec3<T>(size / 4, size / 4, size), triangle);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->feature, TriangleFeature::Face);
    EXPECT_NEAR(double(result->point.x), double(size / 4), 1e-6 * double(size));
    EXPECT_NEAR(double(result->point.y), double(size / 4), 1e-6 * double(size));
    EXPECT_NEAR(double(result->point.z), 0.0, 1e-6 * double(size));
}

// ---------------------------------------------------------------------------------------------------
// Point - oriented box.

template <class T> class ClosestPointOnObb : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPointOnObb, test::Scalars);

TYPED_TEST(ClosestPointOnObb, MatchesReference) {
    using T = TypeParam;
    checkRandomCases("obb", 303, [](Random& random, ErrorRecord& errors, int i, int& skipped) {
        const ObbCase<T> c = randomObbCase<T>(random, randomScale(random));
        const auto result = closestPointOnObb(c.point, c.box);
        ASSERT_TRUE(result);
        const RealVec3 p = widen(c.point), center = widen(c.box.center),
                       halfExtents = widen(c.box.halfExtents);
        const Mat3<Real> rotation = widen(c.box.rotation);
        const Real caseScale = obbScale(p, center, halfExtents);
        const Real pointBound = tolerance<T>(kPointUnits, caseScale);
        const Real distanceBound = tolerance<T>(kDistanceUnits, caseScale);
        const Real pointError =
            distance(widen(result->point), ref::closestPointOnObb(p, center, rotation, halfExtents));
        ASSERT_LE(pointError, pointBound) << i;
        errors.add("point", pointError, pointBound);
        const Real signedDistance = ref::signedDistancePointObb(p, center, rotation, halfExtents);
        if (std::abs(signedDistance) <= tolerance<T>(kBandUnits, caseScale)) {
            ++skipped;
            return;
        }
        ASSERT_EQ(result->inside, signedDistance < 0) << i;
        if (!result->inside) {
            EXPECT_EQ(result->nearestFaceDistance, T(0));
            return;
        }
        EXPECT_EQ(result->point, c.point);
        const Real faceDistanceError = std::abs(Real(result->nearestFaceDistance) + signedDistance);
        ASSERT_LE(faceDistanceError, distanceBound) << i;
        errors.add("face distance", faceDistanceError, distanceBound);
        // The face itself: the surface point it gives is the nearest one (when no other face is as near).
        const RealVec3 onFace = p + Real(result->nearestFaceDistance) * widen(result->nearestFaceNormal);
        const RealVec3 exactOnFace = ref::closestPointOnObbSurface(p, center, rotation, halfExtents);
        const RealVec3 slack = halfExtents - glm::abs(ref::obbLocal(p, center, rotation));
        const Real secondNearest =
            std::max({std::min(slack.x, slack.y), std::min(slack.y, slack.z), std::min(slack.x, slack.z)});
        if (secondNearest + signedDistance <= tolerance<T>(kBandUnits, caseScale)) {
            ++skipped;
            return;
        }
        const Real faceError = distance(onFace, exactOnFace);
        ASSERT_LE(faceError, pointBound) << i;
        errors.add("face point", faceError, pointBound);
    });
}

// On a face, an edge and a corner (inside, at distance 0), at the centre, and just outside.
TYPED_TEST(ClosestPointOnObb, InsideOnFaceEdgeCorner) {
    using T = TypeParam;
    const Obb<T> box{{T(1e4), T(-3), T(2)}, Mat3<T>(T(1)), {T(1), T(2), T(4)}};
    const Vec3<T> onSurface[] = {box.center + Vec3<T>(T(0.5), T(2), T(1)),
                                 box.center + Vec3<T>(T(1), T(-2), T(0)),
                                 box.center + Vec3<T>(T(-1), T(2), T(-4))};
    for (const Vec3<T>& point : onSurface) {
        const auto result = closestPointOnObb(point, box);
        ASSERT_TRUE(result);
        EXPECT_TRUE(result->inside);
        EXPECT_EQ(result->point, point);
        EXPECT_EQ(result->nearestFaceDistance, T(0));
    }
    const auto onYFace = closestPointOnObb(onSurface[0], box);
    EXPECT_EQ(onYFace->nearestFaceNormal, Vec3<T>(0, 1, 0));
    const auto atCentre = closestPointOnObb(box.center, box);
    ASSERT_TRUE(atCentre);
    EXPECT_TRUE(atCentre->inside);
    EXPECT_EQ(atCentre->nearestFaceNormal, Vec3<T>(1, 0, 0))
        << "nearest: the x faces, positive side on a tie";
    EXPECT_EQ(atCentre->nearestFaceDistance, T(1));
    const Vec3<T> outside = box.center + Vec3<T>(T(3), T(-5), T(1));
    const auto result = closestPointOnObb(outside, box);
    ASSERT_TRUE(result);
    EXPECT_FALSE(result->inside);
    EXPECT_EQ(result->point, box.center + Vec3<T>(T(1), T(-2), T(1)));
}

// The sample slab code takes extents as the full size in one place and halved in another.
TYPED_TEST(ClosestPointOnObb, RegressionHalfExtentsAreHalfSizes) {
    using T = TypeParam;
    const Obb<T> box{{0, 0, 0}, Mat3<T>(T(1)), {T(2), T(2), T(2)}};
    const auto beyond = closestPointOnObb(Vec3<T>(T(3), 0, 0), box);
    ASSERT_TRUE(beyond);
    EXPECT_FALSE(beyond->inside);
    EXPECT_EQ(beyond->point, Vec3<T>(T(2), 0, 0));
    const auto within = closestPointOnObb(Vec3<T>(T(1.5), 0, 0), box);
    ASSERT_TRUE(within);
    EXPECT_TRUE(within->inside);
    EXPECT_EQ(within->nearestFaceDistance, T(0.5));
}

// ---------------------------------------------------------------------------------------------------
// Segment - segment.

template <class T> class ClosestPointsSegmentSegment : public ::testing::Test {};
TYPED_TEST_SUITE(ClosestPointsSegmentSegment, test::Scalars);

Real sineBetween(const RealVec3& u, const RealVec3& v) {
    const Real lengths = glm::length(u) * glm::length(v);
    return lengths > 0 ? glm::length(glm::cross(u, v)) / lengths : 0;
}

template <class T> void expectSegmentPairMatches(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& q0,
                                                 const Vec3<T>& q1, ErrorRecord& errors) {
    const auto result = closestPointsSegmentSegment(p0, p1, q0, q1);
    ASSERT_TRUE(result);
    const RealVec3 rp0 = widen(p0), rp1 = widen(p1), rq0 = widen(q0), rq1 = widen(q1);
    const ref::SegmentPair exact = ref::closestPointsSegmentSegment(rp0, rp1, rq0, rq1);
    const Real caseScale = largestMagnitude({rp0, rp1, rq0, rq1});
    const Real distanceBound = tolerance<T>(kDistanceUnits, caseScale);
    const RealVec3 onP = widen(result->pointOnP), onQ = widen(result->pointOnQ);
    const Real distanceError = std::abs(distance(onP, onQ) - exact.distance);
    EXPECT_LE(distanceError, distanceBound);
    errors.add("distance", distanceError, distanceBound);
    // Each point is where its parameter says, and on its segment.
    ASSERT_TRUE(result->s >= T(0) && result->s <= T(1) && result->t >= T(0) && result->t <= T(1));
    const Real onSegmentBound = tolerance<T>(kPointUnits, caseScale);
    const Real onSegmentError = std::max(distance(onP, rp0 + Real(result->s) * (rp1 - rp0)),
                                         distance(onQ, rq0 + Real(result->t) * (rq1 - rq0)));
    EXPECT_LE(onSegmentError, onSegmentBound);
    errors.add("parameter", onSegmentError, onSegmentBound);
    // The pair is unique unless the segments are parallel; its conditioning is 1 / sine.
    const Real sine = sineBetween(rp1 - rp0, rq1 - rq0);
    if (sine == 0) return;
    const Real pointBound = onSegmentBound / sine;
    const Real pointError = std::max(distance(onP, exact.pointOnP), distance(onQ, exact.pointOnQ));
    EXPECT_LE(pointError, pointBound);
    errors.add("point", pointError, pointBound);
}

TYPED_TEST(ClosestPointsSegmentSegment, MatchesReference) {
    using T = TypeParam;
    checkRandomCases("segment pair", 404, [](Random& random, ErrorRecord& errors, int, int&) {
        const double scale = randomScale(random);
        const Vec3<T> centre = randomCentre<T>(random, scale);
        const Vec3<T> p0 = randomPointAround(random, centre, scale),
                      p1 = randomPointAround(random, centre, scale);
        Vec3<T> q0 = randomPointAround(random, centre, scale), q1 = randomPointAround(random, centre, scale);
        const double kind = random.uniform(0, 1);
        if (kind < 0.1) {  // nearly parallel, at angles down to 1e-9
            const Vec3<double> along = Vec3<double>(p1) - Vec3<double>(p0);
            const double tilt = random.logUniform(1e-9, 1e-2) * glm::length(along);
            q1 = Vec3<T>(Vec3<double>(q0) + random.uniform(-1.5, 1.5) * along +
                         tilt * random.unitVector<double>());
        } else if (kind < 0.15) {  // crossing: q passes through a point of p
            const Vec3<double> onP = glm::mix(Vec3<double>(p0), Vec3<double>(p1), random.uniform(0, 1));
            q1 = Vec3<T>(onP + (onP - Vec3<double>(q0)) * random.uniform(0.1, 2));
        } else if (kind < 0.17) {
            q1 = q0;
        }
        expectSegmentPairMatches(p0, p1, q0, q1, errors);
    });
}

TYPED_TEST(ClosestPointsSegmentSegment, ParallelCrossingAndDegenerate) {
    using T = TypeParam;
    ErrorRecord errors;
    const Vec3<T> o(T(300), T(-40), T(8)), x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
    // Parallel: overlapping, disjoint, opposite directions, collinear.
    expectSegmentPairMatches(o, o + T(4) * x, o + y + T(2) * x, o + y + T(6) * x, errors);
    expectSegmentPairMatches(o, o + T(4) * x, o + y + T(5) * x, o + y + T(9) * x, errors);
    expectSegmentPairMatches(o, o + T(4) * x, o + z + T(9) * x, o + z - T(3) * x, errors);
    expectSegmentPairMatches(o, o + T(4) * x, o + T(2) * x, o + T(7) * x, errors);
    // Crossing at a point: distance 0 at s = 1/2, t = 1/4.
    const auto crossing =
        closestPointsSegmentSegment(o, o + T(4) * x, o + T(2) * x - y, o + T(2) * x + T(3) * y);
    ASSERT_TRUE(crossing);
    EXPECT_EQ(crossing->s, T(0.5));
    EXPECT_EQ(crossing->t, T(0.25));
    EXPECT_EQ(crossing->pointOnP, crossing->pointOnQ);
    // Zero-length segments: one, the other, both.
    expectSegmentPairMatches(o, o, o + y + T(2) * x, o + y + T(6) * x, errors);
    expectSegmentPairMatches(o, o + T(4) * x, o + y, o + y, errors);
    expectSegmentPairMatches(o + z, o + z, o + y, o + y, errors);
    // Nearly parallel and long: the cross-product form keeps the pair (the normal equations' determinant
    // a e - b^2 cancels to noise here).
    for (const double tilt : {1e-3, 1e-5, 1e-7}) {
        expectSegmentPairMatches(o, o + T(1000) * x, o + z - T(400) * x,
                                 Vec3<T>(Vec3<double>(o + z) + Vec3<double>(1000, 0, -2 * tilt * 1000)),
                                 errors);
    }
}

// ---------------------------------------------------------------------------------------------------
// Sphere contacts.

template <class T> class SphereContact : public ::testing::Test {};
TYPED_TEST_SUITE(SphereContact, test::Scalars);

// The exact contact, from the oracle. normal is the exact normal's direction at any length: the vector
// whose direction the core normalises (centre minus B's centre or axis point, or minus B's surface
// point), so its length conditions the normal. pointOnB is that origin plus surfaceOffset (B's
// radius) times the unit normal.
struct ExpectedContact {
    RealVec3 pointOnB;
    Real signedDistance;  // of the sphere's centre to B, negative inside
    RealVec3 normal;
    Real surfaceOffset;
    Real caseScale;
    Real conditioning;      // the bounds are divided by this
    bool pointIsAmbiguous;  // two surface points equally near: compare the depth only
};

// The exact contact with a solid of all points within radius of a core (a point, a segment) whose point
// nearest the sphere's centre is corePoint: the normal's direction runs from there to the centre.
ExpectedContact expectedRoundContact(const RealVec3& centre, const RealVec3& corePoint, Real radius,
                                     Real signedDistance, Real caseScale) {
    const RealVec3 toCentre = centre - corePoint;
    return {.pointOnB = corePoint + (radius / glm::length(toCentre)) * toCentre,
            .signedDistance = signedDistance,
            .normal = toCentre,
            .surfaceOffset = radius,
            .caseScale = caseScale,
            .conditioning = 1,
            .pointIsAmbiguous = false};
}

// Returns whether the hit/miss comparison was skipped (near touching).
template <class T> bool expectContactMatches(const std::optional<Contact<T>>& contact,
                                             const Sphere<T>& sphere, const ExpectedContact& expected,
                                             ErrorRecord& errors) {
    const Real radius = Real(sphere.radius);
    const Real separation = expected.signedDistance - radius;
    const Real band = tolerance<T>(kBandUnits, expected.caseScale) / expected.conditioning;
    if (std::abs(separation) <= band) return true;
    EXPECT_EQ(bool(contact), separation < 0);
    if (!contact || separation >= 0) return false;
    const Real depthBound = tolerance<T>(kDistanceUnits, expected.caseScale) / expected.conditioning;
    const Real depthError = std::abs(Real(contact->depth) + separation);
    EXPECT_LE(depthError, depthBound);
    errors.add("depth", depthError, depthBound);
    const RealVec3 normal = widen(contact->normal);
    EXPECT_NEAR(double(glm::length(normal)), 1.0, 8 * double(unitRoundoff<T>));
    // The deepest point of the sphere, pointOnB - depth * normal, is the centre minus radius * normal.
    const RealVec3 deepest = widen(contact->pointOnB) - Real(contact->depth) * normal;
    const Real deepestError = distance(deepest, widen(sphere.center) - radius * normal);
    const Real pointBound = tolerance<T>(kPointUnits, expected.caseScale) / expected.conditioning;
    EXPECT_LE(deepestError, pointBound);
    errors.add("deepest point", deepestError, pointBound);
    // Where the normal's direction is not defined (centre on B's axis, on its surface, two faces equally
    // near), only the above holds.
    const Real normalLength = glm::length(expected.normal);
    if (expected.pointIsAmbiguous || normalLength <= band) return false;
    const Real angleBound =
        tolerance<T>(kNormalUnits, expected.caseScale) / expected.conditioning / normalLength;
    const Real angleError = test::angleBetween(normal, expected.normal);
    EXPECT_LE(angleError, angleBound);
    errors.add("normal", angleError, angleBound);
    const Real surfacePointBound = pointBound + expected.surfaceOffset * angleBound;
    const Real pointError = distance(widen(contact->pointOnB), expected.pointOnB);
    EXPECT_LE(pointError, surfacePointBound);
    errors.add("point", pointError, surfacePointBound);
    return false;
}

template <class T> Sphere<T> randomSphereNear(Random& random, const Vec3<T>& centre, double scale) {
    return {randomPointAround(random, centre, 2 * scale), T(random.uniform(0, 1.5) * scale)};
}

TYPED_TEST(SphereContact, SphereMatchesReference) {
    using T = TypeParam;
    checkRandomCases("sphere-sphere", 501, [](Random& random, ErrorRecord& errors, int, int& skipped) {
        const double scale = randomScale(random);
        const Vec3<T> centre = randomCentre<T>(random, scale);
        const Sphere<T> sphere = randomSphereNear(random, centre, scale);
        const Sphere<T> other{centre, T(random.uniform(0, 1) * scale)};
        const RealVec3 c = widen(sphere.center), otherCentre = widen(other.center);
        const Real otherRadius = Real(other.radius);
        const ExpectedContact expected = expectedRoundContact(
            c, otherCentre, otherRadius, ref::signedDistancePointSphere(c, otherCentre, otherRadius),
            largestMagnitude({c, otherCentre, RealVec3(Real(sphere.radius) + otherRadius)}));
        skipped += expectContactMatches(sphereSphereContact(sphere, other), sphere, expected, errors);
    });
}

TYPED_TEST(SphereContact, CapsuleMatchesReference) {
    using T = TypeParam;
    checkRandomCases("sphere-capsule", 502, [](Random& random, ErrorRecord& errors, int, int& skipped) {
        const double scale = randomScale(random);
        const Vec3<T> centre = randomCentre<T>(random, scale);
        const Sphere<T> sphere = randomSphereNear(random, centre, scale);
        const Vec3<T> a = randomPointAround(random, centre, scale);
        const Capsule<T> capsule{a, random.chance(0.02) ? a : randomPointAround(random, centre, scale),
                                 T(random.uniform(0, 0.5) * scale)};
        const RealVec3 c = widen(sphere.center), axisA = widen(capsule.a), axisB = widen(capsule.b);
        const Real capsuleRadius = Real(capsule.radius);
        const ExpectedContact expected = expectedRoundContact(
            c, ref::closestPointOnSegment(c, axisA, axisB).point, capsuleRadius,
            ref::signedDistancePointCapsule(c, axisA, axisB, capsuleRadius),
            largestMagnitude({c, axisA, axisB, RealVec3(Real(sphere.radius) + capsuleRadius)}));
        skipped += expectContactMatches(sphereCapsuleContact(sphere, capsule), sphere, expected, errors);
    });
}

TYPED_TEST(SphereContact, ObbMatchesReference) {
    using T = TypeParam;
    checkRandomCases("sphere-obb", 503, [](Random& random, ErrorRecord& errors, int, int& skipped) {
        const double scale = randomScale(random);
        const ObbCase<T> c = randomObbCase<T>(random, scale);
        const Sphere<T> sphere{c.point, T(random.uniform(0, 1) * scale)};
        const RealVec3 centre = widen(sphere.center), boxCenter = widen(c.box.center);
        const RealVec3 halfExtents = widen(c.box.halfExtents);
        const Mat3<Real> rotation = widen(c.box.rotation);
        const Real caseScale =
            largestMagnitude({centre, boxCenter, halfExtents, RealVec3(Real(sphere.radius))});
        // Inside, the face nearest the centre must be clear of the second nearest.
        const RealVec3 slack = halfExtents - glm::abs(ref::obbLocal(centre, boxCenter, rotation));
        const Real nearest = std::min({slack.x, slack.y, slack.z});
        const Real secondNearest =
            std::max({std::min(slack.x, slack.y), std::min(slack.y, slack.z), std::min(slack.x, slack.z)});
        const bool ambiguous = nearest >= 0 && secondNearest - nearest <= tolerance<T>(kBandUnits, caseScale);
        const RealVec3 onSurface = ref::closestPointOnObbSurface(centre, boxCenter, rotation, halfExtents);
        const Real signedDistance = ref::signedDistancePointObb(centre, boxCenter, rotation, halfExtents);
        const ExpectedContact expected{
            onSurface, signedDistance, (signedDistance < 0 ? Real(-1) : Real(1)) * (centre - onSurface),
            0,         caseScale,      1,
            ambiguous};
        skipped += expectContactMatches(sphereObbContact(sphere, c.box), sphere, expected, errors);
    });
}

TYPED_TEST(SphereContact, TriangleMatchesReference) {
    using T = TypeParam;
    int degenerate = 0;
    checkRandomCases("sphere-triangle", 504, [&](Random& random, ErrorRecord& errors, int, int& skipped) {
        const double scale = randomScale(random);
        const TriangleCase<T> c = randomTriangleCase<T>(random, scale);
        const Sphere<T> sphere{c.point, T(random.uniform(0, 1) * scale)};
        const RealVec3 centre = widen(sphere.center), a = widen(c.triangle.a), b = widen(c.triangle.b),
                       v = widen(c.triangle.c);
        const auto contact = sphereTriangleContact(sphere, c.triangle);
        const Real sine = sineOfLargestAngle(a, b, v);
        if (sine <= 32 * Real(unitRoundoff<T>)) {  // the core may call it degenerate: no contact
            ++degenerate;
            if (contact) {
                EXPECT_GT(sine, 8 * Real(unitRoundoff<T>));
            }
            return;
        }
        const ref::TrianglePoint exact = ref::closestPointOnTriangle(centre, a, b, v);
        const Real caseScale = largestMagnitude({centre, a, b, v, RealVec3(Real(sphere.radius))});
        const ExpectedContact expected{
            exact.point, distance(centre, exact.point), centre - exact.point, 0, caseScale, sine, false};
        const bool nearTouching = expectContactMatches(
            contact ? std::optional<Contact<T>>(contact->contact) : std::nullopt, sphere, expected, errors);
        if (contact && !nearTouching) {
            const Real band = tolerance<T>(kBandUnits, caseScale) / sine;
            if (featureIsAmbiguous(centre, a, b, v, band)) {
                ++skipped;
            } else {
                EXPECT_EQ(int(contact->feature), int(coreFeature(exact.feature)));
            }
            // On the face the normal is the face normal, on the centre's side (checked above unless the
            // centre is within the band of the plane).
            if (exact.feature == ref::TriangleFeature::Face) {
                const RealVec3 faceNormal = glm::normalize(glm::cross(b - a, v - a));
                const RealVec3 normal = widen(contact->contact.normal);
                EXPECT_LE(
                    std::min(test::angleBetween(normal, faceNormal), test::angleBetween(normal, -faceNormal)),
                    tolerance<T>(kNormalUnits, 1) / sine);
            }
        }
        skipped += nearTouching;
    });
    std::printf("sphere-triangle: %d triangles with sine <= 32 u\n", degenerate);
}

// Centre on the triangle (inside, on an edge, at a vertex): depth = radius and the front face normal;
// just below it: the back normal (two-sided).
TYPED_TEST(SphereContact, TriangleCentreOnTriangle) {
    using T = TypeParam;
    const Triangle<T> triangle{{T(-7), T(1e3), T(2)}, {T(-3), T(1e3), T(2)}, {T(-7), T(1e3 + 3), T(2)}};
    const Vec3<T> front(0, 0, 1);
    const Vec3<T> onTriangle[] = {{T(-6), T(1e3 + 1), T(2)}, {T(-5), T(1e3), T(2)}, triangle.b};
    for (const Vec3<T>& centre : onTriangle) {
        const auto contact = sphereTriangleContact(Sphere<T>{centre, T(0.5)}, triangle);
        ASSERT_TRUE(contact);
        EXPECT_EQ(contact->contact.normal, front);
        EXPECT_EQ(contact->contact.depth, T(0.5));
        EXPECT_EQ(contact->contact.pointOnB, centre);
    }
    const auto below = sphereTriangleContact(Sphere<T>{{T(-6), T(1e3 + 1), T(1.75)}, T(0.5)}, triangle);
    ASSERT_TRUE(below);
    EXPECT_EQ(below->contact.normal, -front);
    EXPECT_EQ(below->contact.depth, T(0.25));
    EXPECT_EQ(below->feature, TriangleFeature::Face);
    // In the plane, outside edge 1 (b to c), touching it from outside.
    const auto beside = sphereTriangleContact(Sphere<T>{{T(-2), T(1e3 + 3), T(2)}, T(3.5)}, triangle);
    ASSERT_TRUE(beside);
    EXPECT_EQ(beside->feature, TriangleFeature::Edge1);
    EXPECT_NEAR(double(beside->contact.normal.x), 0.6, 1e-6);
    EXPECT_NEAR(double(beside->contact.normal.y), 0.8, 1e-6);
    EXPECT_NEAR(double(beside->contact.depth), 0.5, 1e-5);
    // Just out of reach: no contact; a degenerate triangle: no contact.
    EXPECT_FALSE(sphereTriangleContact(Sphere<T>{{T(-6), T(1e3 + 1), T(3)}, T(0.999)}, triangle));
    EXPECT_FALSE(
        sphereTriangleContact(Sphere<T>{triangle.a, T(1)}, Triangle<T>{triangle.a, triangle.b, triangle.b}));
}

// Spheres that exactly touch the face, an edge, a vertex (all values exact): a contact of depth 0, which
// no rejection before the exact distance (bounding box, plane, edge distance) may drop; one ulp less
// radius: none.
TYPED_TEST(SphereContact, TriangleExactlyTouching) {
    using T = TypeParam;
    const Triangle<T> triangle{{T(-7), T(1e3), T(2)}, {T(-3), T(1e3), T(2)}, {T(-7), T(1e3 + 3), T(2)}};
    struct Touch {
        Sphere<T> sphere;
        TriangleFeature feature;
        Vec3<T> pointOnB;
        Vec3<T> normal;
    };
    const Touch touches[] = {
        {{{T(-6), T(1e3 + 1), T(2.5)}, T(0.5)}, TriangleFeature::Face, {T(-6), T(1e3 + 1), T(2)}, {0, 0, 1}},
        {{{T(-6), T(1e3 + 1), T(1.5)}, T(0.5)}, TriangleFeature::Face, {T(-6), T(1e3 + 1), T(2)}, {0, 0, -1}},
        {{{T(-5), T(1e3 - 0.5), T(2)}, T(0.5)}, TriangleFeature::Edge0, {T(-5), T(1e3), T(2)}, {0, -1, 0}},
        {{{T(-10), T(1e3 - 4), T(2)}, T(5)}, TriangleFeature::Vertex0, triangle.a, {T(-0.6), T(-0.8), 0}},
        {{{T(-3), T(1e3 - 3), T(6)}, T(5)}, TriangleFeature::Vertex1, triangle.b, {0, T(-0.6), T(0.8)}},
    };
    for (const Touch& touch : touches) {
        const auto contact = sphereTriangleContact(touch.sphere, triangle);
        ASSERT_TRUE(contact) << int(touch.feature);
        EXPECT_EQ(contact->feature, touch.feature);
        EXPECT_EQ(contact->contact.depth, T(0));
        EXPECT_EQ(contact->contact.pointOnB, touch.pointOnB);
        EXPECT_LE(glm::length(contact->contact.normal - touch.normal), 4 * unitRoundoff<T>);
        const T lessRadius = std::nextafter(touch.sphere.radius, T(0));
        EXPECT_FALSE(sphereTriangleContact(Sphere<T>{touch.sphere.center, lessRadius}, triangle))
            << int(touch.feature);
    }
}

// Input that passes the bounding box and plane tests (centre on the face, in the plane) and is invalid
// in one field: no contact. Invalid input is caught by the arithmetic of those tests (NaN or infinite
// normal, height or depth), except a negative radius, which has its own test.
TYPED_TEST(SphereContact, TriangleInvalidInputPastTheCheapRejections) {
    using T = TypeParam;
    const Triangle<T> triangle{{T(-7), T(1e3), T(2)}, {T(-3), T(1e3), T(2)}, {T(-7), T(1e3 + 3), T(2)}};
    const Sphere<T> sphere{{T(-6), T(1e3 + 1), T(2)}, T(0.5)};
    ASSERT_TRUE(sphereTriangleContact(sphere, triangle));
    for (const T radius : {T(-0.5), -std::numeric_limits<T>::min()})
        EXPECT_FALSE(sphereTriangleContact(Sphere<T>{sphere.center, radius}, triangle)) << radius;
    for (const T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()}) {
        EXPECT_FALSE(sphereTriangleContact(Sphere<T>{sphere.center, bad}, triangle)) << bad;
        for (int component = 0; component < 3; ++component) {
            Sphere<T> badCentre = sphere;
            badCentre.center[component] = bad;
            EXPECT_FALSE(sphereTriangleContact(badCentre, triangle)) << bad << " centre " << component;
            for (int vertex = 0; vertex < 3; ++vertex) {
                Triangle<T> badTriangle = triangle;
                (vertex == 0 ? badTriangle.a : vertex == 1 ? badTriangle.b : badTriangle.c)[component] = bad;
                EXPECT_FALSE(sphereTriangleContact(sphere, badTriangle))
                    << bad << " vertex " << vertex << " component " << component;
            }
        }
    }
}

// Centre inside the box: out through the nearest face with depth radius + distance to it; on a face,
// edge, corner; outside near a corner.
TYPED_TEST(SphereContact, ObbCentreInsideAndOnSurface) {
    using T = TypeParam;
    const Obb<T> box{{T(-2e3), T(5), T(0)}, Mat3<T>(T(1)), {T(1), T(2), T(4)}};
    const auto inside =
        sphereObbContact(Sphere<T>{box.center + Vec3<T>(T(0.25), T(-1.5), T(0)), T(0.5)}, box);
    ASSERT_TRUE(inside);
    EXPECT_EQ(inside->normal, Vec3<T>(0, -1, 0));
    EXPECT_EQ(inside->depth, T(1));
    EXPECT_EQ(inside->pointOnB, box.center + Vec3<T>(T(0.25), T(-2), T(0)));
    const auto onFace = sphereObbContact(Sphere<T>{box.center + Vec3<T>(T(0.5), T(0), T(4)), T(0.5)}, box);
    ASSERT_TRUE(onFace);
    EXPECT_EQ(onFace->normal, Vec3<T>(0, 0, 1));
    EXPECT_EQ(onFace->depth, T(0.5));
    const auto onCorner = sphereObbContact(Sphere<T>{box.center + Vec3<T>(T(1), T(2), T(4)), T(0.5)}, box);
    ASSERT_TRUE(onCorner);
    EXPECT_EQ(onCorner->depth, T(0.5));
    EXPECT_EQ(onCorner->pointOnB, box.center + Vec3<T>(T(1), T(2), T(4)));
    const auto nearCorner = sphereObbContact(Sphere<T>{box.center + Vec3<T>(T(3), T(4), T(5)), T(3.5)}, box);
    ASSERT_TRUE(nearCorner);
    EXPECT_EQ(nearCorner->pointOnB, box.center + Vec3<T>(T(1), T(2), T(4)));
    EXPECT_NEAR(double(nearCorner->depth), 0.5, 1e-5);
    EXPECT_NEAR(double(nearCorner->normal.x), 2.0 / 3, 1e-6);
    EXPECT_FALSE(sphereObbContact(Sphere<T>{box.center + Vec3<T>(T(3), T(4), T(5)), T(2.99)}, box));
}

TYPED_TEST(SphereContact, CoincidentCentresAndCentreOnAxis) {
    using T = TypeParam;
    const Vec3<T> c(T(4), T(-9), T(1e4));
    const auto spheres = sphereSphereContact(Sphere<T>{c, T(1)}, Sphere<T>{c, T(2)});
    ASSERT_TRUE(spheres);
    EXPECT_EQ(spheres->normal, Vec3<T>(1, 0, 0));
    EXPECT_EQ(spheres->depth, T(3));
    EXPECT_EQ(spheres->pointOnB, c + Vec3<T>(T(2), 0, 0));
    const Capsule<T> capsule{c - Vec3<T>(0, T(5), 0), c + Vec3<T>(0, T(5), 0), T(2)};
    const auto onAxis = sphereCapsuleContact(Sphere<T>{c, T(1)}, capsule);
    ASSERT_TRUE(onAxis);
    EXPECT_EQ(glm::dot(onAxis->normal, Vec3<T>(0, 1, 0)), T(0));
    EXPECT_NEAR(double(glm::length(onAxis->normal)), 1.0, 1e-6);
    EXPECT_EQ(onAxis->depth, T(3));
    const auto beyondEnd = sphereCapsuleContact(Sphere<T>{capsule.b + Vec3<T>(0, T(2.5), 0), T(1)}, capsule);
    ASSERT_TRUE(beyondEnd);
    EXPECT_EQ(beyondEnd->normal, Vec3<T>(0, 1, 0));
    EXPECT_EQ(beyondEnd->depth, T(0.5));
    const auto pointCapsule = sphereCapsuleContact(Sphere<T>{c, T(1)}, Capsule<T>{c, c, T(1)});
    ASSERT_TRUE(pointCapsule);
    EXPECT_EQ(pointCapsule->normal, Vec3<T>(1, 0, 0));
}

// Scale invariance at the extremes of the random range: the same configuration at 1e-4 and 1e6.
TYPED_TEST(SphereContact, TinyAndHugeScales) {
    using T = TypeParam;
    for (const T scale : {T(1e-4), T(1e6)}) {
        const Triangle<T> triangle{Vec3<T>(0, 0, 0) * scale, Vec3<T>(2, 0, 0) * scale,
                                   Vec3<T>(0, 2, 0) * scale};
        const auto contact =
            sphereTriangleContact(Sphere<T>{Vec3<T>(T(0.5), T(0.5), T(0.75)) * scale, scale}, triangle);
        ASSERT_TRUE(contact);
        EXPECT_EQ(contact->contact.normal, Vec3<T>(0, 0, 1));
        EXPECT_NEAR(double(contact->contact.depth / scale), 0.25, 1e-6);
        const Obb<T> box{Vec3<T>(T(3), T(3), T(3)) * scale, Mat3<T>(T(1)), Vec3<T>(1, 1, 1) * scale};
        const auto boxContact = sphereObbContact(Sphere<T>{Vec3<T>(T(3), T(3), T(4.5)) * scale, scale}, box);
        ASSERT_TRUE(boxContact);
        EXPECT_EQ(boxContact->normal, Vec3<T>(0, 0, 1));
        EXPECT_NEAR(double(boxContact->depth / scale), 0.5, 1e-6);
    }
}

// ---------------------------------------------------------------------------------------------------
// Invalid input: NaN or infinity in any field, negative radius or half extent: no result.

template <class T> class InvalidInput : public ::testing::Test {};
TYPED_TEST_SUITE(InvalidInput, test::Scalars);

TYPED_TEST(InvalidInput, NonFiniteAndNegative) {
    using T = TypeParam;
    const Vec3<T> p(1, 2, 3), a(0, 0, 0), b(4, 0, 0), c(0, 4, 0);
    const Triangle<T> triangle{a, b, c};
    const Obb<T> box{a, Mat3<T>(T(1)), {1, 1, 1}};
    const Sphere<T> sphere{p, T(5)};
    const Capsule<T> capsule{a, b, T(1)};
    EXPECT_TRUE(closestPointOnSegment(p, a, b) && closestPointOnTriangle(p, triangle) &&
                closestPointOnObb(p, box) && closestPointsSegmentSegment(p, a, b, c) &&
                sphereSphereContact(sphere, sphere) && sphereCapsuleContact(sphere, capsule) &&
                sphereObbContact(sphere, box) && sphereTriangleContact(sphere, triangle));
    for (const T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()}) {
        for (int component = 0; component < 3; ++component) {
            Vec3<T> badPoint = p;
            badPoint[component] = bad;
            EXPECT_FALSE(closestPointOnSegment(badPoint, a, b));
            EXPECT_FALSE(closestPointOnSegment(p, badPoint, b));
            EXPECT_FALSE(closestPointOnSegment(p, a, badPoint));
            EXPECT_FALSE(closestPointOnTriangle(badPoint, triangle));
            for (int vertex = 0; vertex < 3; ++vertex) {
                Triangle<T> badTriangle = triangle;
                (vertex == 0 ? badTriangle.a : vertex == 1 ? badTriangle.b : badTriangle.c) = badPoint;
                EXPECT_FALSE(closestPointOnTriangle(p, badTriangle));
                EXPECT_FALSE(sphereTriangleContact(sphere, badTriangle));
            }
            EXPECT_FALSE(closestPointsSegmentSegment(badPoint, a, b, c));
            EXPECT_FALSE(closestPointsSegmentSegment(p, badPoint, b, c));
            EXPECT_FALSE(closestPointsSegmentSegment(p, a, badPoint, c));
            EXPECT_FALSE(closestPointsSegmentSegment(p, a, b, badPoint));
            EXPECT_FALSE(closestPointOnObb(badPoint, box));
            for (int field = 0; field < 5; ++field) {
                Obb<T> badBox = box;
                if (field == 0) badBox.center = badPoint;
                if (field == 4) badBox.halfExtents = badPoint;
                if (field >= 1 && field <= 3) badBox.rotation[field - 1] = badPoint;
                EXPECT_FALSE(closestPointOnObb(p, badBox));
                EXPECT_FALSE(sphereObbContact(sphere, badBox));
            }
            const Sphere<T> badSphere{badPoint, T(5)};
            EXPECT_FALSE(sphereSphereContact(badSphere, sphere));
            EXPECT_FALSE(sphereSphereContact(sphere, badSphere));
            EXPECT_FALSE(sphereCapsuleContact(badSphere, capsule));
            EXPECT_FALSE(sphereCapsuleContact(sphere, Capsule<T>{badPoint, b, T(1)}));
            EXPECT_FALSE(sphereCapsuleContact(sphere, Capsule<T>{a, badPoint, T(1)}));
            EXPECT_FALSE(sphereObbContact(badSphere, box));
            EXPECT_FALSE(sphereTriangleContact(badSphere, triangle));
        }
        const Sphere<T> badRadius{p, bad};
        EXPECT_FALSE(sphereSphereContact(badRadius, sphere));
        EXPECT_FALSE(sphereSphereContact(sphere, badRadius));
        EXPECT_FALSE(sphereCapsuleContact(badRadius, capsule));
        EXPECT_FALSE(sphereCapsuleContact(sphere, Capsule<T>{a, b, bad}));
        EXPECT_FALSE(sphereObbContact(badRadius, box));
        EXPECT_FALSE(sphereTriangleContact(badRadius, triangle));
    }
    const Sphere<T> negative{p, T(-1)};
    EXPECT_FALSE(sphereSphereContact(negative, sphere));
    EXPECT_FALSE(sphereCapsuleContact(sphere, Capsule<T>{a, b, T(-1)}));
    EXPECT_FALSE(sphereObbContact(negative, box));
    EXPECT_FALSE(sphereTriangleContact(negative, triangle));
    EXPECT_FALSE(closestPointOnObb(p, Obb<T>{a, Mat3<T>(T(1)), {1, T(-1), 1}}));
    EXPECT_FALSE(sphereObbContact(sphere, Obb<T>{a, Mat3<T>(T(1)), {1, 1, T(-1)}}));
}

// Finite input whose squares overflow the scalar: no result rather than a NaN or infinity.
TYPED_TEST(InvalidInput, OverflowGivesNoResultOrFiniteResult) {
    using T = TypeParam;
    const T huge = std::numeric_limits<T>::max() / 4;
    const Vec3<T> p(huge, -huge, huge), a(-huge, huge, 0), b(huge, huge, -huge), c(0, -huge, huge);
    const auto expectFinite = [](const auto& result, auto&& check) {
        if (result) check(*result);
    };
    expectFinite(closestPointOnSegment(p, a, b), [](const auto& r) { EXPECT_TRUE(isFinite(r.point)); });
    expectFinite(closestPointOnTriangle(p, Triangle<T>{a, b, c}), [](const auto& r) {
        EXPECT_TRUE(isFinite(r.point));
        EXPECT_TRUE(isFinite(r.barycentric));
    });
    expectFinite(closestPointsSegmentSegment(p, a, b, c), [](const auto& r) {
        EXPECT_TRUE(isFinite(r.pointOnP) && isFinite(r.pointOnQ) && isFinite(r.s) && isFinite(r.t));
    });
    expectFinite(closestPointOnObb(p, Obb<T>{a, Mat3<T>(T(1)), {huge, huge, huge}}),
                 [](const auto& r) { EXPECT_TRUE(isFinite(r.point) && isFinite(r.nearestFaceDistance)); });
    const auto contactIsFinite = [](const auto& r) {
        EXPECT_TRUE(isFinite(r.pointOnB) && isFinite(r.normal) && isFinite(r.depth));
    };
    expectFinite(sphereSphereContact(Sphere<T>{p, huge}, Sphere<T>{a, huge}), contactIsFinite);
    expectFinite(sphereCapsuleContact(Sphere<T>{p, huge}, Capsule<T>{a, b, huge}), contactIsFinite);
    expectFinite(sphereObbContact(Sphere<T>{p, huge}, Obb<T>{a, Mat3<T>(T(1)), {huge, huge, huge}}),
                 contactIsFinite);
    expectFinite(sphereTriangleContact(Sphere<T>{p, huge}, Triangle<T>{a, b, c}),
                 [&](const auto& r) { contactIsFinite(r.contact); });
}

}  // namespace
}  // namespace analytic
