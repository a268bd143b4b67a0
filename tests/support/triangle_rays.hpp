// SPDX-License-Identifier: Zlib
// What the ray-cast tests against Bullet's triangle shapes share (ray_mesh_test, ray_heightfield_test):
// each triangle the shape reports, in long double for the reference; a callback that records every
// report; the reference's view of the triangles near a segment (hit or miss decided outside a band,
// where the line crosses, the fraction and normal bounds); the checks of our all-hits and closest
// answers against it and of Bullet's closest where Bullet is within its tolerance, with their tally;
// the random segments, the watertightness, flags and degenerate-segment checks both make. Each test's
// opening comment states its bounds and the frame its reference works in.
#pragma once

#include <btBulletCollisionCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/numeric.hpp"
#include "reference/ray_triangle_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic::test {

// The bounds, in units of u S (u the unit roundoff of btScalar, S the scale of a segment).
inline constexpr Real u = Real(unitRoundoff<btScalar>);
inline constexpr Real kBand = 64;
inline constexpr Real kFraction = 16;
inline constexpr Real kNormal = 32;
// Bullet's band: this share of the longest edge, plus kBulletBand units.
inline constexpr Real kBulletEdgeShare = 1e-3;
inline constexpr Real kBulletBand = 1024;

inline RealVec3 widen(const btVector3& v) { return {Real(v.x()), Real(v.y()), Real(v.z())}; }

inline Real maxAbs(const RealVec3& v) { return std::max({std::abs(v.x), std::abs(v.y), std::abs(v.z)}); }

inline std::array<Real, 3> sortedEdges(const reference::RealTriangle& t) {
    std::array<Real, 3> edges{glm::length(t.b - t.a), glm::length(t.c - t.b), glm::length(t.a - t.c)};
    std::sort(edges.begin(), edges.end());
    return edges;
}

inline btTransform randomPlace(Random& random, double extent) {
    return transformOf(random.rotation<btScalar>(), toBullet(random.point<btScalar>(extent)));
}

// ---- Triangles ------------------------------------------------------------------------------------

// A triangle as the shape reports it (part id, triangle index), its vertices in the frame the
// reference works in, with its box.
struct ReportedTriangle {
    reference::RealTriangle local;
    int part;
    int index;
    RealVec3 boxMin, boxMax;
};

// A shape's triangles for the reference, with the largest vertex coordinate and the longest edge.
class TriangleSet {
public:
    void add(const reference::RealTriangle& local, int part, int index) {
        triangles_.push_back({local, part, index, glm::min(local.a, glm::min(local.b, local.c)),
                              glm::max(local.a, glm::max(local.b, local.c))});
        for (const RealVec3& v : {local.a, local.b, local.c})
            extent_ = std::max(extent_, maxAbs(v));
        longestEdge_ = std::max(longestEdge_, sortedEdges(local)[2]);
    }

    auto begin() const { return triangles_.begin(); }
    auto end() const { return triangles_.end(); }
    std::size_t size() const { return triangles_.size(); }
    const ReportedTriangle& operator[](std::size_t i) const { return triangles_[i]; }
    Real extent() const { return extent_; }  // the largest vertex coordinate
    Real longestEdge() const { return longestEdge_; }

private:
    std::vector<ReportedTriangle> triangles_;
    Real extent_ = 0, longestEdge_ = 0;
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

// Bullet's own ray test against the object's shape (for a heightfield: performRaycast unless the
// callback's flags disable the accelerator).
inline void castBullet(btCollisionObject& object, const btVector3& from, const btVector3& to,
                       btCollisionWorld::RayResultCallback& callback) {
    const btTransform fromTransform(btMatrix3x3::getIdentity(), from),
        toTransform(btMatrix3x3::getIdentity(), to);
    btCollisionWorld::rayTestSingle(fromTransform, toTransform, &object, object.getCollisionShape(),
                                    object.getWorldTransform(), callback);
}

// ---- Reference ------------------------------------------------------------------------------------

// An object's place in long double.
class RealPlace {
public:
    explicit RealPlace(const btTransform& place) : origin_(widen(place.getOrigin())) {
        const btMatrix3x3& basis = place.getBasis();
        for (int row = 0; row < 3; ++row)
            for (int column = 0; column < 3; ++column)
                basis_[column][row] = Real(basis[row][column]);
    }

    // A world point in the object's frame.
    RealVec3 toLocal(const btVector3& point) const {
        return glm::transpose(basis_) * (widen(point) - origin_);
    }

    const Mat3<Real>& basis() const { return basis_; }
    const RealVec3& origin() const { return origin_; }

private:
    Mat3<Real> basis_;
    RealVec3 origin_;
};

// The reference's view of one triangle for one segment.
struct Crossing {
    const ReportedTriangle* triangle;
    bool decided;  // hit or miss, with the band
    bool hit;      // the segment crosses it at t in [0, 1)
    Real t;        // where the line crosses its plane (NaN when parallel)
    Real fractionTolerance;
    Real normalTolerance;  // radians
    RealVec3 normal;       // the expected reported normal (turned toward the origin), in world space
};

struct Expectation {
    std::vector<Crossing> near;  // the triangles whose boxes the segment comes near
    Real scale;                  // S
};

// The bound on a reported normal's angle for a triangle; condition widens it for a scaling applied to
// the reference's frame.
inline Real normalTolerance(const reference::RealTriangle& triangle, Real condition) {
    const std::array<Real, 3> edges = sortedEdges(triangle);
    const Real area2 = glm::length(glm::cross(triangle.b - triangle.a, triangle.c - triangle.a));
    return kNormal * u * condition * (1 + edges[1] * edges[2] / area2);
}

// The triangles whose boxes come within the band (bandUnits u S) of the segment from origin to end, in
// the triangles' frame, S its scale, each seen by the reference. frontNormal maps a triangle's unit
// normal (its front side, where (b - a) x (c - a) points) to the world direction reported from the front.
template <class FrontNormal> Expectation crossTriangles(const TriangleSet& triangles, const RealVec3& origin,
                                                        const RealVec3& end, Real scale, Real bandUnits,
                                                        Real normalCondition, FrontNormal frontNormal) {
    const RealVec3 direction = end - origin;
    Expectation expectation;
    expectation.scale = scale;
    const Real band = bandUnits * u * scale;
    const RealVec3 low = glm::min(origin, end) - band, high = glm::max(origin, end) + band;
    for (const ReportedTriangle& triangle : triangles) {
        if (glm::any(glm::lessThan(triangle.boxMax, low)) ||
            glm::any(glm::greaterThan(triangle.boxMin, high)))
            continue;
        const reference::LineTriangleCrossing line = reference::crossLine(triangle.local, origin, direction);
        const RealVec3 areaNormal =
            glm::cross(triangle.local.b - triangle.local.a, triangle.local.c - triangle.local.a);
        const RealVec3 unit = areaNormal / glm::length(areaNormal);
        const Real approach = glm::dot(unit, direction);
        Crossing crossing;
        crossing.triangle = &triangle;
        crossing.t = approach != 0 ? glm::dot(unit, triangle.local.a - origin) / approach
                                   : std::numeric_limits<Real>::quiet_NaN();
        crossing.hit = line.crosses && line.t >= 0 && line.t < 1;
        crossing.decided = reference::distanceToAmbiguity(triangle.local, origin, direction, 1) > band;
        crossing.normalTolerance = normalTolerance(triangle.local, normalCondition);
        crossing.fractionTolerance =
            (kFraction * u * scale + crossing.normalTolerance * sortedEdges(triangle.local)[2]) /
            std::abs(approach);
        const bool fromFront = glm::dot(areaNormal, origin - triangle.local.a) > 0;
        const RealVec3 front = frontNormal(unit);
        crossing.normal = fromFront ? front : -front;
        expectation.near.push_back(crossing);
    }
    return expectation;
}

// The closest decided hit when it is clear (no other triangle crossed within the fraction bounds of
// it); nullopt when unclear; a null crossing when the reference is sure nothing is hit.
inline std::optional<const Crossing*> clearClosest(const Expectation& expectation) {
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

inline bool allDecided(const Expectation& expectation) {
    return std::all_of(expectation.near.begin(), expectation.near.end(),
                       [](const Crossing& crossing) { return crossing.decided; });
}

// How many triangles the segment crosses.
inline std::size_t hitCount(const Expectation& expectation) {
    return std::size_t(std::count_if(expectation.near.begin(), expectation.near.end(),
                                     [](const Crossing& crossing) { return crossing.hit; }));
}

inline Real angleTo(const btVector3& normal, const RealVec3& expected) {
    return angleBetween(widen(normal), expected);
}

// ---- Comparison -----------------------------------------------------------------------------------

// What a run of random segments compared.
struct Tally {
    long rays = 0, closestCompared = 0, sureMisses = 0, decidedHits = 0, failures = 0;
    long bulletCompared = 0, bulletDisagreements = 0;

    // The counts for the line a test prints, whose naming the Bullet path compared.
    std::string counts(const char* whose) const {
        char buffer[400];
        std::snprintf(
            buffer, sizeof buffer,
            "%ld rays; closest compared on %ld, sure misses %ld; decided hits %ld; failures %ld; %s "
            "within tolerance on %ld, disagreeing on %ld",
            rays, closestCompared, sureMisses, decidedHits, failures, whose, bulletCompared,
            bulletDisagreements);
        return buffer;
    }
};

// Checks our two answers for one segment against the reference. all (an all-hits cast from
// startFraction): every decided hit before it reported once, within the fraction and normal bounds, no
// decided miss, no triangle twice, every fraction in [0, start). closest (a closest cast): each report
// nearer than the last, the last the reference's closest when that is clear. The first ten failures
// of the tally are reported.
inline void checkAgainstReference(const Expectation& expectation, const Recorder& all,
                                  const Recorder& closest, const btVector3& from, const btVector3& to,
                                  btScalar startFraction, Tally& tally) {
    ++tally.rays;
    const auto fail = [&](const std::string& what) {
        if (++tally.failures <= 10)
            ADD_FAILURE() << what << ": from " << text(toGlm(from)) << " to " << text(toGlm(to)) << ", start "
                          << startFraction;
    };
    const auto fractionFailure = [](const Report& report, const Crossing& crossing) {
        const reference::RealTriangle& t = crossing.triangle->local;
        return "fraction " + text(report.fraction) + ", reference " + text(crossing.t) + " +- " +
               text(crossing.fractionTolerance) + " (triangle " + text(t.a) + " " + text(t.b) + " " +
               text(t.c) + ")";
    };

    std::map<std::pair<int, int>, int> reportCounts;
    for (const Report& report : all.reports) {
        if (!(report.fraction >= 0 && report.fraction < startFraction)) fail("fraction outside [0, start)");
        if (++reportCounts[{report.part, report.index}] == 2) fail("a triangle reported twice");
    }
    for (const Crossing& crossing : expectation.near) {
        int reported = 0;
        for (const Report& report : all.reports) {
            if (report.part != crossing.triangle->part || report.index != crossing.triangle->index) continue;
            ++reported;
            if (crossing.decided && crossing.hit) {
                if (std::abs(Real(report.fraction) - crossing.t) > crossing.fractionTolerance)
                    fail(fractionFailure(report, crossing));
                if (angleTo(report.normal, crossing.normal) > crossing.normalTolerance) fail("normal");
            }
        }
        if (!crossing.decided) continue;
        const bool beforeStart = crossing.t < Real(startFraction) - crossing.fractionTolerance;
        const bool afterStart = crossing.t > Real(startFraction) + crossing.fractionTolerance;
        if (crossing.hit && beforeStart && reported != 1) fail("a decided hit not reported");
        if ((!crossing.hit || afterStart) && reported != 0) fail("a decided miss reported");
        tally.decidedHits += crossing.hit && beforeStart;
    }

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
}

// The band in which Bullet's triangle test may decide otherwise than the reference, in units of u S.
inline Real bulletBandUnits(Real longestEdge, Real scale) {
    return kBulletBand + kBulletEdgeShare * longestEdge / (u * scale);
}

// Bullet is within its tolerance for a segment when every triangle near it is decided with Bullet's
// band (wide) and the closest is clear.
inline bool bulletWithinTolerance(const Expectation& wide) {
    return allDecided(wide) && clearClosest(wide).has_value();
}

// Bullet's closest answer (by the path named whose) names our closest triangle, or both miss; the first
// ten disagreements of the tally are reported.
inline void compareClosestWithBullet(const Recorder& bullet, const Recorder& ours, const char* whose,
                                     const btVector3& from, const btVector3& to, Tally& tally) {
    ++tally.bulletCompared;
    const Report *b = bullet.closest(), *o = ours.closest();
    const bool same = (!b && !o) || (b && o && b->part == o->part && b->index == o->index);
    if (!same && ++tally.bulletDisagreements <= 10)
        ADD_FAILURE() << whose << " names another closest triangle: from " << text(toGlm(from)) << " to "
                      << text(toGlm(to));
}

// No failures, Bullet agreeing wherever compared, and enough closest answers compared and decided hits
// out of rays.
inline void expectGoodReferenceTally(const Tally& tally, int rays) {
    EXPECT_EQ(tally.failures, 0);
    EXPECT_EQ(tally.bulletDisagreements, 0);
    EXPECT_GE(tally.closestCompared, rays * 7 / 10);
    EXPECT_GE(tally.decidedHits, rays / 4);
}

// ---- Random segments ------------------------------------------------------------------------------

// A point of a random triangle's plane in the triangles' frame: on the triangle, its edges and corners
// included, or just beyond it.
inline RealVec3 randomAimAt(const TriangleSet& triangles, Random& random) {
    const ReportedTriangle& triangle = triangles[std::size_t(random.uniform(0, double(triangles.size())))];
    double weightB = random.uniform(-0.05, 1.05), weightC = random.uniform(-0.05, 1.05);
    if (random.chance(0.2)) weightB = 0;  // on an edge or at a corner
    if (random.chance(0.2)) weightC = 1 - weightB;
    return triangle.local.a + Real(weightB) * (triangle.local.b - triangle.local.a) +
           Real(weightC) * (triangle.local.c - triangle.local.a);
}

// A segment through an aim: its heading, how far before the aim it starts and after it ends (negative:
// it stops short, by up to a fifth of before).
struct Approach {
    Vec3<double> heading;
    double before, after;
};

inline Approach randomApproach(Random& random, double reach) {
    Approach approach;
    approach.heading = random.unitVector<double>();
    approach.before = random.logUniform(0.05, reach);
    approach.after = random.uniform(-0.2, 1) * approach.before;
    return approach;
}

// A random point within 1.2 reach of a place's origin, along its axes.
inline btVector3 randomPointAround(Random& random, const btTransform& place, double reach) {
    const Vec3<double> p = random.point<double>(1.2 * reach);
    return place * btVector3(btScalar(p.x), btScalar(p.y), btScalar(p.z));
}

// A quarter of the all-hits casts start from a fraction below 1.
inline btScalar randomStartFraction(Random& random) {
    return random.chance(0.25) ? btScalar(random.uniform(0.2, 1)) : btScalar(1);
}

// ---- Watertightness, flags, all hits, degenerate segments ------------------------------------------

// Calls aim with every vertex of every triangle and with each edge's midpoint and a random point of it.
template <class Aim> void aimAtVerticesAndEdges(const TriangleSet& triangles, Random& random, Aim aim) {
    for (const ReportedTriangle& triangle : triangles) {
        const reference::RealTriangle& t = triangle.local;
        for (const RealVec3& vertex : {t.a, t.b, t.c})
            aim(vertex);
        for (const auto& [p, q] : {std::pair{t.a, t.b}, std::pair{t.b, t.c}, std::pair{t.c, t.a}}) {
            aim((p + q) / Real(2));
            aim(p + Real(random.uniform(0, 1)) * (q - p));
        }
    }
}

// A segment through aim along direction, reaching from 0.01 to 100 beyond it on each side.
inline std::pair<btVector3, btVector3> segmentThrough(const btVector3& aim, const btVector3& direction,
                                                      Random& random) {
    const btScalar length = btScalar(random.logUniform(0.01, 100));
    return {aim + length * direction, aim - length * direction};
}

// Segments that must hit, and how many of them our closest and all-hits casts missed; the first five
// slipping through are reported.
struct Misses {
    long segments = 0, closest = 0, allHits = 0;

    void count(const Recorder& closestCast, const Recorder& allHitsCast, const btVector3& from,
               const btVector3& to) {
        ++segments;
        closest += closestCast.reports.empty();
        allHits += allHitsCast.reports.empty();
        if (closestCast.reports.empty() && closest <= 5)
            ADD_FAILURE() << "slipped through: from " << text(toGlm(from)) << " to " << text(toGlm(to));
    }

    void expectNone() const {
        EXPECT_EQ(closest, 0);
        EXPECT_EQ(allHits, 0);
    }
};

// Each combination of the back-face flags.
inline constexpr unsigned kFlagSets[] = {
    0, btTriangleRaycastCallback::kF_FilterBackfaces, btTriangleRaycastCallback::kF_KeepUnflippedNormal,
    btTriangleRaycastCallback::kF_FilterBackfaces | btTriangleRaycastCallback::kF_KeepUnflippedNormal};

// A closest cast with flags across a flat shape, from its front or from behind: from the front, the
// front's normal; from behind, nothing with kF_FilterBackfaces, else the normal turned toward the
// origin unless kF_KeepUnflippedNormal.
inline void expectFlaggedAnswer(const Recorder& ours, unsigned flags, bool fromFront,
                                const btVector3& front) {
    const bool filtered = !fromFront && (flags & btTriangleRaycastCallback::kF_FilterBackfaces);
    const bool unflipped = fromFront || (flags & btTriangleRaycastCallback::kF_KeepUnflippedNormal);
    ASSERT_EQ(ours.reports.size(), filtered ? 0u : 1u);
    if (filtered) return;
    const btVector3 expected = unflipped ? front : -front;
    EXPECT_GT(ours.reports[0].normal.dot(expected), 1 - 64 * u);
}

// Our all-hits answer and Bullet's each have the hits expected, at the same fractions.
inline void expectHitsAsBullet(const btCollisionWorld::AllHitsRayResultCallback& ours,
                               const btCollisionWorld::AllHitsRayResultCallback& bullet, std::size_t hits) {
    ASSERT_EQ(std::size_t(ours.m_hitFractions.size()), hits);
    ASSERT_EQ(std::size_t(bullet.m_hitFractions.size()), hits);
    std::vector<btScalar> oursSorted, bulletSorted;
    for (int k = 0; k < int(hits); ++k) {
        oursSorted.push_back(ours.m_hitFractions[k]);
        bulletSorted.push_back(bullet.m_hitFractions[k]);
    }
    std::sort(oursSorted.begin(), oursSorted.end());
    std::sort(bulletSorted.begin(), bulletSorted.end());
    for (std::size_t k = 0; k < hits; ++k)
        EXPECT_NEAR(oursSorted[k], bulletSorted[k], 1e3 * u);
}

// A segment of length zero or with a non-finite end gets nothing from castOurs(from, to, recorder).
template <class CastOurs> void expectNothingFromDegenerateSegments(CastOurs castOurs) {
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN(),
                   inf = std::numeric_limits<btScalar>::infinity();
    const std::pair<btVector3, btVector3> segments[] = {{btVector3(0, 0, 0), btVector3(0, 0, 0)},
                                                        {btVector3(0, 5, 0), btVector3(nan, -5, 0)},
                                                        {btVector3(0, inf, 0), btVector3(0, -5, 0)},
                                                        {btVector3(0, 5, 0), btVector3(0, -inf, 0)}};
    for (const auto& [from, to] : segments) {
        Recorder all(Mode::AllHits);
        castOurs(from, to, all);
        EXPECT_TRUE(all.reports.empty());
    }
}

}  // namespace analytic::test
