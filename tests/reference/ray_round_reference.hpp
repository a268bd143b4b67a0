// SPDX-License-Identifier: Zlib
// Long double references for rays against round solids (sphere and circle, capsule, cylinder), and the
// checker that compares the core with them on random cases. The references are the straightforward
// textbook formulations, independent of the core's: the quadratic with b^2 - 4ac for spheres; for capsule
// and cylinder, the ray expressed in an orthonormal frame of the axis, a circle quadratic across it and a
// range test along it (the core projects onto the axis instead and cuts the cylinder by its end spheres).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "analytic/geometry/first_hit.hpp"
#include "support/test_support.hpp"

namespace analytic::test {

template <int N> using RealVec = VecN<Real, N>;

template <class T, int N> RealVec<N> widenVec(const VecN<T, N>& v) { return RealVec<N>(v); }

constexpr Real kRealInfinity = std::numeric_limits<Real>::infinity();

// One point where the line meets the solid's surface. cosIncidence = |normal . unit direction|, whose
// inverse is the condition number of t. competingT is where the line meets the other surface that forms an
// edge with this one (the cylinder's rim), with that surface's cosIncidence; infinite without an edge.
template <int N> struct ReferenceHit {
    Real t;
    RealVec<N> normal;
    Real cosIncidence;
    Real competingT = kRealInfinity;
    Real competingCos = 1;
};

// Where the line enters and leaves the solid, before any restriction to the ray's [0, maxT].
template <int N> struct ReferenceCrossing {
    ReferenceHit<N> entry;
    ReferenceHit<N> exit;
};

template <int N> Real cosIncidence(const RealVec<N>& normal, const RealVec<N>& direction) {
    return std::abs(glm::dot(normal, direction)) / std::sqrt(glm::dot(direction, direction));
}

// The textbook: |o + t d - c|^2 = r^2 as a t^2 + b t + c = 0, roots (-b -+ sqrt(b^2 - 4ac)) / 2a.
template <int N>
std::optional<ReferenceCrossing<N>> referenceLineSphere(const RealVec<N>& origin, const RealVec<N>& direction,
                                                        const RealVec<N>& center, Real radius) {
    if (!(radius > 0)) return std::nullopt;
    const RealVec<N> offset = origin - center;
    const Real a = glm::dot(direction, direction);
    const Real b = 2 * glm::dot(offset, direction);
    const Real c = glm::dot(offset, offset) - radius * radius;
    const Real discriminant = b * b - 4 * a * c;
    if (discriminant < 0) return std::nullopt;
    const auto hitAt = [&](Real t) {
        const RealVec<N> normal = (offset + t * direction) / radius;
        return ReferenceHit<N>{t, normal, cosIncidence(normal, direction)};
    };
    return ReferenceCrossing<N>{hitAt((-b - std::sqrt(discriminant)) / (2 * a)),
                                hitAt((-b + std::sqrt(discriminant)) / (2 * a))};
}

// The ray in an orthonormal frame whose third axis runs from a to b: the circle across the axis is
// x^2 + y^2 = r^2, and the axis spans 0 <= z <= length.
struct AxisFrame {
    RealVec3 across1, across2, along;
    Real length;
    RealVec3 worldDirection;
    RealVec3 origin, direction;  // in the frame, origin relative to a

    AxisFrame(const RealVec3& worldOrigin, const RealVec3& rayDirection, const RealVec3& a, const RealVec3& b)
        : worldDirection(rayDirection) {
        length = glm::length(b - a);
        along = (b - a) / length;
        const RealVec3 helper = std::abs(along.x) < 0.6L ? RealVec3(1, 0, 0) : RealVec3(0, 1, 0);
        across1 = glm::normalize(glm::cross(along, helper));
        across2 = glm::cross(along, across1);
        origin = toFrame(worldOrigin - a);
        direction = toFrame(rayDirection);
    }

    RealVec3 toFrame(const RealVec3& v) const {
        return {glm::dot(v, across1), glm::dot(v, across2), glm::dot(v, along)};
    }
    RealVec3 radialNormal(Real t, Real radius) const {
        const RealVec3 p = origin + t * direction;
        return (p.x * across1 + p.y * across2) / radius;
    }
    Real alongAt(Real t) const { return origin.z + t * direction.z; }

    // The line's crossings with the infinite cylinder: textbook quadratic in x, y. A line parallel to the
    // axis is inside for all t or never.
    std::optional<std::pair<Real, Real>> cylinderRoots(Real radius) const {
        const Real a = direction.x * direction.x + direction.y * direction.y;
        const Real b = 2 * (origin.x * direction.x + origin.y * direction.y);
        const Real c = origin.x * origin.x + origin.y * origin.y - radius * radius;
        if (a == 0) {
            if (c > 0) return std::nullopt;
            return std::pair{-kRealInfinity, kRealInfinity};
        }
        const Real discriminant = b * b - 4 * a * c;
        if (discriminant < 0) return std::nullopt;
        return std::pair{(-b - std::sqrt(discriminant)) / (2 * a), (-b + std::sqrt(discriminant)) / (2 * a)};
    }
    ReferenceHit<3> sideHit(Real t, Real radius) const {
        const RealVec3 normal = radialNormal(t, radius);
        return {t, normal, cosIncidence(normal, worldDirection)};
    }
};

// Capsule: the union of the cylinder beside the axis and the two end spheres. The line enters the union
// where it first enters a piece (min over entries) and leaves where it last leaves one (max over exits).
inline std::optional<ReferenceCrossing<3>> referenceLineCapsule(const RealVec3& origin,
                                                                const RealVec3& direction, const RealVec3& a,
                                                                const RealVec3& b, Real radius) {
    std::optional<ReferenceHit<3>> entry, exit;
    const auto consider = [&](const ReferenceHit<3>& hit, bool entering) {
        auto& best = entering ? entry : exit;
        if (!best || (entering ? hit.t < best->t : hit.t > best->t)) best = hit;
    };
    for (const RealVec3& end : {a, b}) {
        if (const auto sphere = referenceLineSphere<3>(origin, direction, end, radius)) {
            consider(sphere->entry, true);
            consider(sphere->exit, false);
        }
    }
    if (a != b && radius > 0) {
        const AxisFrame frame(origin, direction, a, b);
        if (const auto roots = frame.cylinderRoots(radius)) {
            const auto besideAxis = [&](Real t) {
                return std::isfinite(t) && frame.alongAt(t) >= 0 && frame.alongAt(t) <= frame.length;
            };
            if (besideAxis(roots->first)) consider(frame.sideHit(roots->first, radius), true);
            if (besideAxis(roots->second)) consider(frame.sideHit(roots->second, radius), false);
        }
    }
    if (!entry || !exit) return std::nullopt;
    return ReferenceCrossing<3>{*entry, *exit};
}

// Solid cylinder with flat caps grown by `grow` in radius and at both ends: the line's stretch inside
// the infinite cylinder intersected with its stretch between the cap planes.
inline std::optional<ReferenceCrossing<3>> referenceLineCylinder(const RealVec3& origin,
                                                                 const RealVec3& direction, const RealVec3& a,
                                                                 const RealVec3& b, Real radius, Real grow) {
    if (a == b || !(radius + grow > 0)) return std::nullopt;
    const RealVec3 along = (b - a) / glm::length(b - a);
    const RealVec3 grownA = a - grow * along, grownB = b + grow * along;
    if (glm::dot(grownB - grownA, along) <= 0) return std::nullopt;
    const Real grownRadius = radius + grow;
    const AxisFrame frame(origin, direction, grownA, grownB);
    const auto side = frame.cylinderRoots(grownRadius);
    if (!side) return std::nullopt;
    Real slabEntry = -kRealInfinity, slabExit = kRealInfinity;
    if (frame.direction.z != 0) {
        slabEntry = std::min(-frame.origin.z / frame.direction.z,
                             (frame.length - frame.origin.z) / frame.direction.z);
        slabExit = std::max(-frame.origin.z / frame.direction.z,
                            (frame.length - frame.origin.z) / frame.direction.z);
    } else if (frame.origin.z < 0 || frame.origin.z > frame.length) {
        return std::nullopt;
    }
    const Real entry = std::max(side->first, slabEntry), exit = std::min(side->second, slabExit);
    if (entry > exit) return std::nullopt;
    const Real capCos = cosIncidence(frame.along, direction);
    const RealVec3 exitCapNormal = frame.direction.z > 0 ? frame.along : -frame.along;
    const auto hit = [&](bool onSide, Real t, Real competing, const RealVec3& capNormal) {
        ReferenceHit<3> result =
            onSide ? frame.sideHit(t, grownRadius) : ReferenceHit<3>{t, capNormal, capCos};
        if (std::isfinite(competing)) {
            result.competingT = competing;
            result.competingCos = onSide ? capCos : frame.sideHit(competing, grownRadius).cosIncidence;
        }
        return result;
    };
    return ReferenceCrossing<3>{
        hit(side->first >= slabEntry, entry, std::min(side->first, slabEntry), -exitCapNormal),
        hit(side->second <= slabExit, exit, std::max(side->second, slabExit), exitCapNormal)};
}

// ---- Random cases -------------------------------------------------------------------------------------

template <int N> VecN<double, N> randomUnit(Random& random) {
    if constexpr (N == 3) {
        return random.unitVector<double>();
    } else {
        const double angle = random.uniform(0, 2 * M_PI);
        return {std::cos(angle), std::sin(angle)};
    }
}

// Uniform in the unit ball.
template <int N> VecN<double, N> randomInBall(Random& random) {
    return randomUnit<N>(random) * std::pow(random.uniform(0, 1), 1.0 / N);
}

// A random unit vector perpendicular to the unit vector `normal`.
template <int N> VecN<double, N> randomTangent(Random& random, const VecN<double, N>& normal) {
    if constexpr (N == 2) {
        return VecN<double, 2>(-normal.y, normal.x) * (random.chance(0.5) ? 1.0 : -1.0);
    } else {
        VecN<double, N> tangent;
        do {
            const VecN<double, N> v = randomUnit<N>(random);
            tangent = v - glm::dot(v, normal) * normal;
        } while (glm::length(tangent) < 0.1);
        return glm::normalize(tangent);
    }
}

// The size of a case (log-uniform 1e-4 .. 1e6) and where it sits: near the world origin or far from it
// (up to 1e4 sizes away), where the scalar resolves the solid more coarsely.
template <int N> struct Placement {
    double size;
    VecN<double, N> position;
};

template <int N> Placement<N> randomPlacement(Random& random) {
    const double size = random.logUniform(1e-4, 1e6);
    const double distance = random.chance(0.5) ? random.uniform(0, 10) : random.logUniform(10, 1e4);
    return {size, randomUnit<N>(random) * (distance * size)};
}

// A ray from `origin` along the unit vector `heading`, with a direction of random length (t is in
// multiples of it) and a maxT that is infinite or ends the ray anywhere up to 2.5 times `reach`.
template <class T, int N> RayPath<T, N> randomRay(Random& random, const VecN<double, N>& origin,
                                                  const VecN<double, N>& heading, double reach, double size) {
    const double directionLength = size * random.logUniform(1e-3, 1e3);
    const double maxT = random.chance(0.4) ? std::numeric_limits<double>::infinity()
                                           : reach * random.uniform(0, 2.5) / directionLength;
    return {VecN<T, N>(origin), VecN<T, N>(heading * directionLength), T(maxT)};
}

// A point on a solid's surface, its outward normal, and a heading tangent to the surface there.
template <int N> struct SurfaceSample {
    VecN<double, N> point;
    VecN<double, N> normal;
    VecN<double, N> heading;
};

// A random ray near a solid about `center` of the given extent (its reach from the centre), of one of
// four kinds by kind % 4: aimed at a point inside (insidePoint()), grazing the surface (at a
// surfacePoint(), offset to either side by 1 to 1e6 roundoffs of T at this position), starting inside,
// or anywhere within 20 extents.
template <class T, int N, class InsidePoint, class SurfacePoint>
RayPath<T, N> randomRayNear(Random& random, int kind, const VecN<double, N>& center, double extent,
                            double size, const InsidePoint& insidePoint, const SurfacePoint& surfacePoint) {
    VecN<double, N> heading = randomUnit<N>(random);
    switch (kind % 4) {
        case 0: {
            const double reach = extent * random.logUniform(1e-2, 1e2);
            return randomRay<T, N>(random, insidePoint() - heading * reach, heading, reach, size);
        }
        case 1: {
            const SurfaceSample<N> sample = surfacePoint();
            const double resolution = unitRoundoff<T> * (glm::length(center) + extent);
            const double offset = (random.chance(0.5) ? 1 : -1) * resolution * random.logUniform(1, 1e6);
            const double reach = extent * random.logUniform(1e-2, 1e2);
            return randomRay<T, N>(random, sample.point + sample.normal * offset - sample.heading * reach,
                                   sample.heading, reach, size);
        }
        case 2:
            return randomRay<T, N>(random, insidePoint(), heading, extent, size);
        default:
            return randomRay<T, N>(random, center + randomInBall<N>(random) * (20 * extent), heading,
                                   20 * extent, size);
    }
}

// A scalar anywhere in T's range: zero, subnormal, tiny, huge, of either sign.
template <class T> T randomExtreme(Random& random) {
    if (random.chance(0.05)) return T(0);
    const int lowest = std::numeric_limits<T>::min_exponent - std::numeric_limits<T>::digits;
    const int exponent = int(random.uniform(lowest, std::numeric_limits<T>::max_exponent));
    const T magnitude = std::ldexp(T(random.uniform(0.5, 1)), exponent);
    return random.chance(0.5) ? magnitude : -magnitude;
}

template <class T, int N> VecN<T, N> randomExtremeVec(Random& random) {
    VecN<T, N> v;
    for (int i = 0; i < N; ++i)
        v[i] = randomExtreme<T>(random);
    return v;
}

// | |normal| - 1 | in units of the scalar's unit roundoff.
template <class T, int N> Real unitLengthError(const VecN<T, N>& normal) {
    return std::abs(std::sqrt(glm::dot(widenVec(normal), widenVec(normal))) - 1) / Real(unitRoundoff<T>);
}

// What any reported crossing must satisfy whatever the input: finite outputs, unit normals (within
// unitLength * u), entry no later than exit, and originInside exactly when entry.t < 0.
template <class T, int N> bool isSane(const RaySolidHit<T, N>& hit, Real unitLength) {
    for (const SurfaceHit<T, N>* h : {&hit.entry, &hit.exit})
        if (!isFinite(h->t) || !isFinite(h->point) || !isFinite(h->normal) ||
            !(unitLengthError(h->normal) <= unitLength))
            return false;
    return hit.entry.t <= hit.exit.t && hit.originInside == (hit.entry.t < T(0));
}

// ---- Comparing the core with the reference ------------------------------------------------------------

// Bounds in units of the scalar's unit roundoff u, relative to the case's scale (the sum of the input
// positions' magnitudes and the solid's size, so rounding of any input coordinate is covered).
struct RoundSolidBounds {
    // Hit/miss, "origin inside" and the crossing count are compared only where growing and shrinking the
    // solid by band * u * scale leaves the reference's answer unchanged (the tangency band).
    Real band;
    // |t - t_ref| * |direction| <= t * u * scale * condition, condition = 1 / cosIncidence (plus the other
    // surface's for hits within that tolerance of an edge).
    Real t;
    // |point - point_ref| <= point * u * scale * condition.
    Real point;
    // Angle between normals <= normal * u * (1 + scale * condition / radius); not compared near edges.
    Real normal;
    // | |normal| - 1 | <= unitLength * u.
    Real unitLength;
    // At most this fraction of the cases may fall in the tangency band.
    Real maxSkippedFraction;
};

// The bounds the round solids' tests state and meet (each test names them at its top).
constexpr RoundSolidBounds kRoundSolidBounds{
    .band = 16,                 // hit/miss compared outside +-16 u * scale of the surface
    .t = 8,                     // |t - t_ref| |d| <= 8 u * scale / cosIncidence
    .point = 8,                 // |point - point_ref| <= 8 u * scale / cosIncidence
    .normal = 8,                // angle <= 8 u * (1 + scale / (radius * cosIncidence))
    .unitLength = 4,            // | |normal| - 1 | <= 4 u
    .maxSkippedFraction = 0.08  // <= 8% in the band: most are the grazing quarter built to straddle it
};

// Accumulates the comparison of many random cases and reports the largest errors seen, in the units of
// the bounds, so that the stated bounds can be judged against what is observed.
template <class T, int N> class RoundSolidChecker {
public:
    explicit RoundSolidChecker(const RoundSolidBounds& bounds) : bounds_(bounds) {}

    // reference(grow) gives the long double line crossing of the solid grown by grow (shrunk if < 0).
    template <class Reference, class Describe>
    void check(const RayPath<T, N>& ray, const std::optional<RaySolidHit<T, N>>& core,
               const Reference& reference, Real scale, Real radius, const Describe& describeSolid) {
        ++cases_;
        Case c{ray, scale, radius};
        const Real band = bounds_.band * c.unit();
        const std::optional<ReferenceCrossing<N>> exact = reference(Real(0)), grown = reference(band),
                                                  shrunk = reference(-band);
        if (core) checkSane(c, *core);
        if (c.reaches(grown) != c.reaches(shrunk)) {
            ++skippedHitMiss_;
            return;
        }
        if (core.has_value() != c.reaches(exact)) {
            fail(c, describeSolid,
                 core.has_value() ? "core hits, reference misses" : "core misses, reference hits");
            return;
        }
        if (!core) return;
        ++hits_;
        if (c.startsInside(grown) == c.startsInside(shrunk)) {
            if (core->originInside != c.startsInside(exact)) fail(c, describeSolid, "originInside differs");
        } else {
            ++skippedInside_;
        }
        compareHit(c, core->entry, exact->entry, describeSolid, "entry");
        compareHit(c, core->exit, exact->exit, describeSolid, "exit");
        const int expectedCrossings = c.crossings(exact);
        if (c.crossings(grown) == expectedCrossings && c.crossings(shrunk) == expectedCrossings) {
            const SurfaceCrossings<T, N> crossings = surfaceCrossings(core, ray);
            if (crossings.count != expectedCrossings) fail(c, describeSolid, "crossing count differs");
            for (int i = 0; i < crossings.count; ++i) {
                const bool entering = i == 0 && exact->entry.t >= 0;
                if (crossings.entering[i] != entering ||
                    crossings.hits[i].t != (entering ? core->entry.t : core->exit.t))
                    fail(c, describeSolid, "crossing flagged wrongly");
            }
        }
    }

    // Expects no failures and few skipped cases, and prints what was observed.
    void finish(const std::string& name) const {
        std::cout << name << " (" << (sizeof(T) == 4 ? "float" : "double") << "): " << cases_ << " cases, "
                  << hits_ << " hits, " << skippedHitMiss_ << " in the tangency band, " << skippedInside_
                  << " with the origin within it, " << nearEdge_ << " hits near an edge; largest errors in "
                  << "units of the bounds: t " << worstT_ << ", point " << worstPoint_ << ", normal "
                  << worstNormal_ << ", unit length " << worstUnitLength_ << "\n";
        EXPECT_EQ(failures_, 0);
        EXPECT_LE(Real(skippedHitMiss_), bounds_.maxSkippedFraction * Real(cases_));
        EXPECT_GT(hits_, cases_ / 5) << "too few hits to judge the crossings";
    }

private:
    struct Case {
        const RayPath<T, N>& ray;
        Real scale;
        Real radius;

        Real unit() const { return Real(unitRoundoff<T>) * scale; }
        Real maxT() const { return Real(ray.maxT); }
        RealVec<N> origin() const { return widenVec(ray.origin); }
        RealVec<N> direction() const { return widenVec(ray.direction); }
        bool reaches(const std::optional<ReferenceCrossing<N>>& c) const {
            return c && c->exit.t >= 0 && c->entry.t <= maxT();
        }
        bool startsInside(const std::optional<ReferenceCrossing<N>>& c) const {
            return reaches(c) && c->entry.t < 0;
        }
        int crossings(const std::optional<ReferenceCrossing<N>>& c) const {
            return reaches(c) ? int(c->entry.t >= 0) + int(c->exit.t <= maxT()) : 0;
        }
    };

    void checkSane(const Case& c, const RaySolidHit<T, N>& core) {
        for (const SurfaceHit<T, N>* hit : {&core.entry, &core.exit})
            worstUnitLength_ = std::max(worstUnitLength_, unitLengthError(hit->normal) / bounds_.unitLength);
        if (!isSane(core, bounds_.unitLength))
            fail(
                c, [] { return std::string(); }, "output not sane");
    }

    template <class Describe> void compareHit(const Case& c, const SurfaceHit<T, N>& core,
                                              const ReferenceHit<N>& reference, const Describe& describeSolid,
                                              const char* which) {
        const Real directionLength = std::sqrt(glm::dot(c.direction(), c.direction()));
        Real condition = 1 / reference.cosIncidence;
        const bool nearEdge = std::abs(reference.t - reference.competingT) * directionLength <=
                              bounds_.t * c.unit() * (condition + 1 / reference.competingCos);
        if (nearEdge) {
            condition += 1 / reference.competingCos;
            ++nearEdge_;
        }
        const Real tError = std::abs(Real(core.t) - reference.t) * directionLength / (c.unit() * condition);
        const RealVec<N> referencePoint = c.origin() + reference.t * c.direction();
        const Real pointError = glm::length(widenVec(core.point) - referencePoint) / (c.unit() * condition);
        worstT_ = std::max(worstT_, tError / bounds_.t);
        worstPoint_ = std::max(worstPoint_, pointError / bounds_.point);
        if (tError > bounds_.t) fail(c, describeSolid, std::string(which) + " t out of bounds");
        if (pointError > bounds_.point) fail(c, describeSolid, std::string(which) + " point out of bounds");
        if (nearEdge) return;
        // Angle between unit vectors, accurate at any size: 2 atan(|a - b| / |a + b|).
        const RealVec<N> coreNormal = glm::normalize(widenVec(core.normal));
        const Real angle = 2 * std::atan2(glm::length(coreNormal - reference.normal),
                                          glm::length(coreNormal + reference.normal));
        const Real normalError = angle / (Real(unitRoundoff<T>) * (1 + c.scale * condition / c.radius));
        worstNormal_ = std::max(worstNormal_, normalError / bounds_.normal);
        if (normalError > bounds_.normal)
            fail(c, describeSolid, std::string(which) + " normal out of bounds");
    }

    template <class Describe>
    void fail(const Case& c, const Describe& describeSolid, const std::string& what) {
        if (++failures_ > 10) return;
        ADD_FAILURE() << what << "\n  ray origin " << text(c.origin()) << " direction " << text(c.direction())
                      << " maxT " << text(c.maxT()) << "\n  " << describeSolid();
    }

    RoundSolidBounds bounds_;
    long cases_ = 0, hits_ = 0, skippedHitMiss_ = 0, skippedInside_ = 0, nearEdge_ = 0, failures_ = 0;
    Real worstT_ = 0, worstPoint_ = 0, worstNormal_ = 0, worstUnitLength_ = 0;
};

// ---- Edge cases every round solid must pass ----------------------------------------------------------

// NaN, +inf or -inf in any one scalar of the ray or the solid gives no hit, except maxT = +inf (an
// unbounded ray). (ray, solid) must hit.
template <class T, int N, class Solid, class Intersect>
void expectNonFiniteInputGivesNoHit(const RayPath<T, N>& ray, const Solid& solid,
                                    const Intersect& intersect) {
    ASSERT_TRUE(intersect(ray, solid));
    for (const T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()}) {
        for (int i = 0; i < N; ++i) {
            RayPath<T, N> badOrigin = ray, badDirection = ray;
            badOrigin.origin[i] = bad;
            badDirection.direction[i] = bad;
            EXPECT_FALSE(intersect(badOrigin, solid)) << "origin " << i << " = " << bad;
            EXPECT_FALSE(intersect(badDirection, solid)) << "direction " << i << " = " << bad;
        }
        RayPath<T, N> badLength = ray;
        badLength.maxT = bad;
        EXPECT_EQ(intersect(badLength, solid).has_value(), bad == std::numeric_limits<T>::infinity());
    }
    forEachNonFiniteField<T>(solid, [&](const Solid& badSolid) { EXPECT_FALSE(intersect(ray, badSolid)); });
}

// Capsule and Cylinder: the solids of a radius about the axis from a to b.
template <class Solid>
concept AxisSolid = requires(const Solid& solid) {
    solid.a;
    solid.b;
    solid.radius;
};

// The solid with every length times factor, for expectScaleInvariance.
template <class T, int N> Ball<T, N> scaled(const Ball<T, N>& ball, T factor) {
    return {ball.center * factor, ball.radius * factor};
}

template <AxisSolid Solid, class T> Solid scaled(const Solid& solid, T factor) {
    return {solid.a * factor, solid.b * factor, solid.radius * factor};
}

template <class T> Ellipsoid<T> scaled(const Ellipsoid<T>& ellipsoid, T factor) {
    return {ellipsoid.center * factor, ellipsoid.rotation, ellipsoid.radii * factor};
}

// Scaling every input by a power of two (2^-14 = 6e-5 up to 2^20 = 1e6) scales every product exactly: the
// same t, scaled points, the same normals. Scaling the direction alone only rescales t. (ray, solid) must
// hit.
template <class T, int N, class Solid, class Intersect>
void expectScaleInvariance(const RayPath<T, N>& ray, const Solid& solid, const Intersect& intersect) {
    const auto unitHit = intersect(ray, solid);
    ASSERT_TRUE(unitHit);
    for (const int exponent : {-14, -7, 10, 20}) {
        const T factor = std::ldexp(T(1), exponent);
        const auto hit = intersect(RayPath<T, N>{ray.origin * factor, ray.direction * factor, ray.maxT},
                                   scaled(solid, factor));
        ASSERT_TRUE(hit) << exponent;
        EXPECT_EQ(hit->entry.t, unitHit->entry.t);
        EXPECT_EQ(hit->exit.t, unitHit->exit.t);
        EXPECT_EQ(hit->entry.point, unitHit->entry.point * factor);
        EXPECT_EQ(hit->exit.point, unitHit->exit.point * factor);
        EXPECT_EQ(hit->entry.normal, unitHit->entry.normal);
        EXPECT_EQ(hit->exit.normal, unitHit->exit.normal);
        const auto slow =
            intersect(RayPath<T, N>{ray.origin, ray.direction / factor, ray.maxT * factor}, solid);
        ASSERT_TRUE(slow) << exponent;
        EXPECT_EQ(slow->entry.t, unitHit->entry.t * factor);
        EXPECT_EQ(slow->exit.t, unitHit->exit.t * factor);
    }
}

// Inputs anywhere in T's range (zero, subnormal, huge) mixed with ordinary ones: whatever the answer,
// never a NaN, an infinity or a normal that is not unit length. makeSolid(vector, radius) builds a solid
// from generators of such vectors and radii. Expects enough hits for this to mean something.
template <class T, class Intersect, class MakeSolid>
void expectSaneForExtremeInputs(const Intersect& intersect, const MakeSolid& makeSolid, Real unitLength) {
    Random random(3);
    int hits = 0;
    const auto vector = [&] {
        return random.chance(0.5) ? randomExtremeVec<T, 3>(random) : random.point<T>(2);
    };
    const auto radius = [&] { return random.chance(0.5) ? std::abs(randomExtreme<T>(random)) : T(1); };
    for (int i = 0; i < 200000; ++i) {
        const T maxT =
            random.chance(0.5) ? std::numeric_limits<T>::infinity() : std::abs(randomExtreme<T>(random));
        const RayPath<T> ray{vector(), vector(), maxT};
        const auto hit = intersect(ray, makeSolid(vector, radius));
        if (!hit) continue;
        ++hits;
        ASSERT_TRUE(isSane(*hit, unitLength)) << "case " << i;
    }
    EXPECT_GT(hits, 1000);
}

// expectSaneForExtremeInputs for axis solids whose end a and axis b - a are such vectors.
template <AxisSolid Solid, class Intersect>
void expectSaneForExtremeAxisSolids(const Intersect& intersect, Real unitLength) {
    using T = decltype(Solid::radius);
    const auto makeSolid = [](const auto& vector, const auto& radius) {
        const Vec3<T> a = vector();
        return Solid{a, a + vector(), radius()};
    };
    expectSaneForExtremeInputs<T>(intersect, makeSolid, unitLength);
}

// For a ray whose line crosses a round solid in a circular cross-section (a sphere's great circle, or a
// capsule's or cylinder's section across the axis when the ray runs across it): that circle's centre is
// ray.origin + along * ray.direction + offset, with offset exactly perpendicular to the direction. Expects
// entry and exit within `bounds` of the crossing computed in long double from that construction, which
// needs no quadratic: the half chord is sqrt(r^2 - |offset|^2).
template <class T> void expectConstructedCrossing(const std::optional<RaySolidHit<T>>& hit,
                                                  const RayPath<T>& ray, T along, const Vec3<T>& offset,
                                                  T radius, Real scale, const RoundSolidBounds& bounds) {
    ASSERT_TRUE(hit);
    const RealVec3 d = widen(ray.direction), w = widen(offset);
    ASSERT_EQ(glm::dot(d, w), 0) << "the offset must be exactly perpendicular to the direction";
    const Real length = glm::length(d), r = Real(radius);
    const Real halfChord = std::sqrt(r * r - glm::dot(w, w));
    const Real cosIncidence = halfChord / r;
    for (const Real side : {-1.0L, 1.0L}) {
        const SurfaceHit<T>& core = side < 0 ? hit->entry : hit->exit;
        const Real t = Real(along) + side * halfChord / length;
        const RealVec3 normal = (side * halfChord / length * d - w) / r;
        EXPECT_LE(std::abs(Real(core.t) - t) * length, bounds.t * unitRoundoff<T> * scale / cosIncidence);
        EXPECT_LE(angleBetween(widen(core.normal), normal),
                  bounds.normal * unitRoundoff<T> * (1 + scale / (r * cosIncidence)));
    }
}

// A round solid of radius 1e-4 about 1.3e6 away (double) or 1e-2 about 1e4 away (float), the ray along
// (3, 4, 0) passing its centre at 5 * step for offsets (-4, 3, 0) * step (exactly perpendicular and
// representable). makeSolid(centre, radius) builds the solid about that centre, extending `extent` from it
// at most along z. Cancellation in halfB^2 - a c would leave no correct digit of the discriminant here.
template <class T, class Intersect, class MakeSolid>
void expectTinyFarSolidCrossed(const Intersect& intersect, const MakeSolid& makeSolid, T extent,
                               const Vec3<T>& origin, const Vec3<T>& offset, const RoundSolidBounds& bounds) {
    const bool isDouble = sizeof(T) == 8;
    const T along = isDouble ? T(262144) : T(2048);
    const T radius = isDouble ? T(1e-4) : T(1e-2);
    const RayPath<T> ray{origin, {3, 4, 0}, std::numeric_limits<T>::infinity()};
    const Vec3<T> center = origin + along * ray.direction + offset;
    ASSERT_EQ(widen(center), widen(origin) + Real(along) * widen(ray.direction) + widen(offset))
        << "the construction must be exact in T";
    const Real scale =
        glm::length(widen(origin)) + glm::length(widen(center)) + Real(radius) + 2 * Real(extent);
    expectConstructedCrossing(intersect(ray, makeSolid(center, radius)), ray, along, offset, radius, scale,
                              bounds);
}

// The step for expectTinyFarSolidCrossed: offsets up to 15 steps are exact next to coordinates of 1e6
// (double) or 1e4 (float); 5 steps are below the radius, 15 above.
template <class T> T tinyFarStep() { return sizeof(T) == 8 ? std::ldexp(T(1), -17) : std::ldexp(T(1), -10); }

// expectTinyFarSolidCrossed for an axis solid reaching 1 from its centre along z, near the world origin and
// far from it.
template <AxisSolid Solid, class Intersect>
void expectTinyFarAxisSolidCrossed(const Intersect& intersect, const RoundSolidBounds& bounds) {
    using T = decltype(Solid::radius);
    const T step = tinyFarStep<T>();
    const auto solid = [](const Vec3<T>& center, T radius) {
        return Solid{center - Vec3<T>(0, 0, 1), center + Vec3<T>(0, 0, 1), radius};
    };
    for (const Vec3<T>& origin : {Vec3<T>(0, 0, 0), Vec3<T>(1000, -2000, 500)})
        expectTinyFarSolidCrossed(intersect, solid, T(1), origin, Vec3<T>(-4, 3, 0) * step, bounds);
}

// One random case of a solid about the axis from a to b (capsule, cylinder), of scale |origin| + |a| + |b|
// + radius. reference(origin, direction, a, b, radius, grow) is the long double crossing of the grown solid.
template <class T, class Solid, class Reference>
void checkAxisSolidCase(RoundSolidChecker<T, 3>& checker, const RayPath<T>& ray,
                        const std::optional<RaySolidHit<T>>& core, const Solid& solid, const char* name,
                        const Reference& reference) {
    const RealVec3 a = widen(solid.a), b = widen(solid.b);
    const Real radius = Real(solid.radius);
    const Real scale = glm::length(widen(ray.origin)) + glm::length(a) + glm::length(b) + radius;
    checker.check(
        ray, core,
        [&](Real grow) { return reference(widen(ray.origin), widen(ray.direction), a, b, radius, grow); },
        scale, radius,
        [&] { return std::string(name) + " a " + text(a) + " b " + text(b) + " radius " + text(radius); });
}

// A zero direction, a negative maxT, a zero or negative radius: no hit. (ray, solid) must hit.
template <class T, class Solid, class Intersect>
void expectDegenerateInputGivesNoHit(const RayPath<T>& ray, const Solid& solid, const Intersect& intersect) {
    const auto withRadius = [](Solid copy, T radius) {
        copy.radius = radius;
        return copy;
    };
    ASSERT_TRUE(intersect(ray, solid));
    EXPECT_FALSE(intersect(RayPath<T>{ray.origin, Vec3<T>(0), ray.maxT}, solid));
    EXPECT_FALSE(intersect(RayPath<T>{ray.origin, ray.direction, T(-1)}, solid));
    EXPECT_FALSE(intersect(ray, withRadius(solid, T(0))));
    EXPECT_FALSE(intersect(ray, withRadius(solid, T(-1))));
}

// Exact cases shared by the solids about the axis from (0, 0, 0) to (0, 0, 4) with radius 1 (`upright`):
// across the side at z = 2, the ray's reach deciding the hit, and a parallel ray beside it.
template <class T, class Solid, class Intersect>
void expectUprightSideCases(const Solid& upright, const Intersect& intersect) {
    constexpr T infinity = std::numeric_limits<T>::infinity();
    const auto hit = intersect(RayPath<T>{{-3, 0, 2}, {0.5, 0, 0}, infinity}, upright);
    ASSERT_TRUE(hit);
    EXPECT_EQ(hit->entry.t, T(4));
    EXPECT_EQ(hit->exit.t, T(8));
    EXPECT_EQ(hit->entry.point, Vec3<T>(-1, 0, 2));
    EXPECT_EQ(hit->entry.normal, Vec3<T>(-1, 0, 0));
    EXPECT_EQ(hit->exit.normal, Vec3<T>(1, 0, 0));
    EXPECT_FALSE(hit->originInside);
    EXPECT_FALSE(intersect(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, T(1.999)}, upright));
    EXPECT_TRUE(intersect(RayPath<T>{{-3, 0, 2}, {1, 0, 0}, T(2)}, upright));
    EXPECT_FALSE(intersect(RayPath<T>{{2, 0, -3}, {0, 0, 1}, infinity}, upright));
    const auto inside = intersect(RayPath<T>{{0.5, 0, 2}, {1, 0, 0}, infinity}, upright);
    ASSERT_TRUE(inside);
    EXPECT_TRUE(inside->originInside);
    EXPECT_EQ(inside->entry.t, T(-1.5));
    EXPECT_EQ(inside->exit.t, T(0.5));
}

}  // namespace analytic::test
