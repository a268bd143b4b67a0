// SPDX-License-Identifier: Zlib
// Fuzz target: capsule sweeps (capsule_sweep.hpp) against spheres, capsules, half-spaces, triangles, boxes
// and box-shaped convex polyhedra. Invariants: no crash or undefined behaviour; a hit has t in [0, maxT]
// (0 when it starts in contact), a finite point and a unit normal; the point lies on the target; at t the
// capsule's segment lies radius away from the target (it touches), and a hit after t = 0 starts clear of
// it; a miss neither starts in contact nor ends in it, nor overlaps it at the quarters of its path (no
// tunnelling); a zero half axis gives the sphere sweep's answer.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>

#include "analytic/geometry/capsule_sweep.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

// Distance between the segments p0-p1 and q0-q1: the distance from p0 + s (p1 - p0) to the other segment
// is convex in s, so a golden-section search finds its least value (to long double's rounding of the
// segments' lengths; the lines' normal equations would cancel for long, nearly parallel segments).
inline Real distanceSegmentSegment(const RVec& p0, const RVec& p1, const RVec& q0, const RVec& q1) {
    const auto at = [&](Real s) { return distanceToSegment(p0 + s * (p1 - p0), q0, q1); };
    const Real inverseGolden = (std::sqrt(Real(5)) - 1) / 2;
    Real low = 0, high = 1;
    Real x1 = high - inverseGolden * (high - low), x2 = low + inverseGolden * (high - low);
    Real f1 = at(x1), f2 = at(x2);
    Real best = std::min({at(0), at(1), f1, f2});
    for (int iteration = 0; iteration < 100; ++iteration) {
        if (f1 < f2) {
            high = x2, x2 = x1, f2 = f1;
            x1 = high - inverseGolden * (high - low), f1 = at(x1);
        } else {
            low = x1, x1 = x2, f1 = f2;
            x2 = low + inverseGolden * (high - low), f2 = at(x2);
        }
        best = std::min({best, f1, f2});
    }
    return best;
}

// The corners and edges of a box, for the segment's distance to it and for the polyhedron.
template <class T> std::array<Vec3<T>, 8> cornersOf(const Obb<T>& box) {
    std::array<Vec3<T>, 8> corners;
    for (int v = 0; v < 8; ++v) {
        const Vec3<T> local(v & 1 ? box.halfExtents.x : -box.halfExtents.x,
                            v & 2 ? box.halfExtents.y : -box.halfExtents.y,
                            v & 4 ? box.halfExtents.z : -box.halfExtents.z);
        corners[std::size_t(v)] = box.center + box.rotation * local;
    }
    return corners;
}

constexpr std::array<std::array<std::uint32_t, 2>, 12> boxEdges{
    {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3}, {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}}};

// The segment's distance to the solid box: 0 where it meets it, else the least of its ends' and of its
// distances to the box's edges.
template <class T> Real segmentToBox(const RVec& p0, const RVec& p1, const Obb<T>& box) {
    Real s0 = 0, s1 = 1;
    for (int k = 0; k < 3; ++k) {
        const RVec axis = wide(box.rotation[k]);
        const Real at = glm::dot(p0 - wide(box.center), axis), rate = glm::dot(p1 - p0, axis);
        const Real half = Real(box.halfExtents[k]);
        if (rate != 0) {
            const Real a = (-half - at) / rate, b = (half - at) / rate;
            s0 = std::max(s0, std::min(a, b));
            s1 = std::min(s1, std::max(a, b));
        } else if (std::abs(at) > half) {
            s1 = -1;
        }
    }
    if (s0 <= s1) return 0;
    Real best = std::min(std::max(Real(0), signedDistanceToObb(p0, box)),
                         std::max(Real(0), signedDistanceToObb(p1, box)));
    const auto corners = cornersOf(box);
    for (const auto& edge : boxEdges)
        best = std::min(best, distanceSegmentSegment(p0, p1, wide(corners[edge[0]]), wide(corners[edge[1]])));
    return best;
}

// The segment's distance to the triangle: to its edges, and where it crosses the plane or at its ends to
// the face. A degenerate triangle (the sine of its smallest angle below 16 roundings of T, as triangle.hpp
// decides) is its edges: the plane of a needle is noise, and so would be its face's distances.
template <class T> Real segmentToTriangle(const RVec& p0, const RVec& p1, const Triangle<T>& triangle) {
    const RVec a = wide(triangle.a), b = wide(triangle.b), c = wide(triangle.c);
    Real best = std::min({distanceSegmentSegment(p0, p1, a, b), distanceSegmentSegment(p0, p1, b, c),
                          distanceSegmentSegment(p0, p1, c, a)});
    const RVec normal = areaNormal(a, b, c);
    Real lengths[3] = {length(b - a), length(c - b), length(a - c)};
    std::sort(lengths, lengths + 3);
    if (!(length(normal) > 16 * roundoff<T> * lengths[1] * lengths[2])) return best;
    best = std::min({best, distanceToTriangle(p0, triangle), distanceToTriangle(p1, triangle)});
    const Real h0 = glm::dot(normal, p0 - a), h1 = glm::dot(normal, p1 - a);
    if (((h0 <= 0 && h1 >= 0) || (h0 >= 0 && h1 <= 0)) && h0 != h1)
        best = std::min(best, distanceToTriangle(p0 + (h0 / (h0 - h1)) * (p1 - p0), triangle));
    return best;
}

// distanceToTarget(p): from a point to the target's surface; segmentDistance(p0, p1): from the segment to
// the solid target (0 where they meet).
template <class T> void checkSweep(const std::optional<SphereSweepHit<T>>& hit, const RayPath<T>& path,
                                   const Vec3<T>& halfAxis, T radius, bool sane, Real targetScale,
                                   const std::function<Real(const RVec&)>& distanceToTarget,
                                   const std::function<Real(const RVec&, const RVec&)>& segmentDistance,
                                   Real grazing = 1) {
    describeMore = [&] {
        print("origin", path.origin);
        print("direction", path.direction);
        print("maxT", path.maxT);
        print("half axis", halfAxis);
        print("radius", radius);
        if (!hit) return;
        print("t", hit->t);
        print("point", hit->point);
        print("normal", hit->normal);
        print("starts in contact", hit->startsInContact);
        print("distance to target", distanceToTarget(wide(hit->point)));
    };
    if (hit) {
        FUZZ_CHECK(finite(hit->t) && hit->t >= T(0) && hit->t <= path.maxT);
        FUZZ_CHECK(finite(hit->point) && finite(hit->normal));
        // (A t that underflows to 0 is no contact at the start: only the one way.)
        if (hit->startsInContact) FUZZ_CHECK(hit->t == T(0));
    }
    if (!sane) return;
    if (hit) FUZZ_CHECK(isUnit(hit->normal));
    const Real reach = magnitude(path.direction) * (finite(path.maxT) ? Real(path.maxT) : Real(0));
    const Real scale = std::max({targetScale, magnitude(path.origin), magnitude(halfAxis), magnitude(radius),
                                 reach, hit ? magnitude(hit->point) : Real(0)});
    if (!Input::covered<T>(scale) || !Input::covered<T>(magnitude(path.direction)) ||
        !(radius == T(0) || Input::covered<T>(radius)) ||
        !(halfAxis == Vec3<T>(0) || Input::covered<T>(magnitude(halfAxis))))
        return;
    const Real tolerance = surfaceTolerance<T>(scale) +
                           magnitude(path.direction) * Real(std::numeric_limits<T>::denorm_min()) * 4;
    const RVec origin = wide(path.origin), direction = wide(path.direction), axis = wide(halfAxis);
    const auto gapAt = [&](Real t) {
        const RVec center = origin + t * direction;
        return segmentDistance(center - axis, center + axis) - Real(radius);
    };
    if (hit) {
        FUZZ_CHECK(distanceToTarget(wide(hit->point)) <= tolerance * grazing);
        if (!hit->startsInContact) {
            FUZZ_CHECK(std::abs(gapAt(Real(hit->t))) <= tolerance * grazing);
            FUZZ_CHECK(gapAt(0) >= -tolerance);
        } else {
            FUZZ_CHECK(gapAt(0) <= tolerance);
        }
        return;
    }
    if (!finite(path.maxT)) return;
    for (const Real quarter : {Real(0), Real(0.25), Real(0.5), Real(0.75), Real(1)})
        FUZZ_CHECK(gapAt(quarter * Real(path.maxT)) >= -tolerance);
}

template <class T> bool nonNegative(T x) { return finite(x) && x >= T(0); }

template <class T, class A, class B> void expectSame(const A& capsule, const B& sphere) {
    FUZZ_CHECK(capsule.has_value() == sphere.has_value());
    if (capsule && sphere)
        FUZZ_CHECK(capsule->t == sphere->t && capsule->point == sphere->point &&
                   capsule->normal == sphere->normal && capsule->startsInContact == sphere->startsInContact);
}

template <class T> void run(Input& in) {
    const RayPath<T> path = in.ray<T>();
    const Vec3<T> halfAxis = in.below(8) == 0 ? Vec3<T>(0) : in.flag() ? in.ordinaryVec3<T>() : in.vec3<T>();
    const T radius = in.flag() ? in.ordinary<T>() : in.scalar<T>();
    const bool saneSweep = isValidRay(path) && nonNegative(radius) && finite(halfAxis);
    const int target = in.below(6);
    Input::note(target);
    Input::note(-1);  // the target's scalars follow
    switch (target) {
        case 0: {
            const Sphere<T> sphere{in.vec3<T>(), in.scalar<T>()};
            const bool sane = saneSweep && finite(sphere.center) && nonNegative(sphere.radius);
            const auto hit = sweepCapsuleSphere(path, halfAxis, radius, sphere);
            checkSweep(
                hit, path, halfAxis, radius, sane, scaleOf(sphere.center, sphere.radius),
                [&](const RVec& p) {
                    return std::abs(length(p - wide(sphere.center)) - Real(sphere.radius));
                },
                [&](const RVec& p0, const RVec& p1) {
                    return std::max(Real(0),
                                    distanceToSegment(wide(sphere.center), p0, p1) - Real(sphere.radius));
                });
            if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSphereSphere(path, radius, sphere));
            break;
        }
        case 1: {
            const Capsule<T> capsule{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            // A zero axis is the sphere-capsule sweep, checked here for being it, bit for bit: its geometry
            // is sphere_sweep_fuzz's. (Its start in contact, sphereCapsuleContact, puts the point off a
            // capsule of radius 1e9 by the rounding of the offset's direction times that radius, and
            // along the axis for a centre a subnormal step beside its end: reported, left to its owner.)
            const bool sane = saneSweep && finite(capsule.a) && finite(capsule.b) &&
                              nonNegative(capsule.radius) && halfAxis != Vec3<T>(0);
            const auto hit = sweepCapsuleCapsule(path, halfAxis, radius, capsule);
            const RVec a = wide(capsule.a), b = wide(capsule.b);
            checkSweep(
                hit, path, halfAxis, radius, sane, scaleOf(capsule.a, capsule.b, capsule.radius),
                [&](const RVec& p) { return std::abs(distanceToSegment(p, a, b) - Real(capsule.radius)); },
                [&](const RVec& p0, const RVec& p1) {
                    return std::max(Real(0), distanceSegmentSegment(p0, p1, a, b) - Real(capsule.radius));
                });
            if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSphereCapsule(path, radius, capsule));
            break;
        }
        case 2: {
            const Vec3<T> normal = in.vec3<T>();
            const Plane<T> plane{in.flag() ? normal : Vec3<T>(glm::normalize(wide(normal))), in.scalar<T>()};
            const bool sane = saneSweep && isUnit(plane.normal) && finite(plane.offset);
            const RVec n = wide(plane.normal);
            const auto height = [&](const RVec& p) { return glm::dot(n, p) - Real(plane.offset); };
            const auto hit = sweepCapsulePlane(path, halfAxis, radius, plane);
            checkSweep(
                hit, path, halfAxis, radius, sane, magnitude(plane.offset),
                [&](const RVec& p) { return std::abs(height(p)); },
                [&](const RVec& p0, const RVec& p1) {
                    return std::max(Real(0), std::min(height(p0), height(p1)));
                });
            if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSpherePlane(path, radius, plane));
            break;
        }
        case 3: {
            const Triangle<T> triangle{in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(), in.ordinaryVec3<T>(),
                                       in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>()};
            const bool sane = saneSweep && finite(triangle.a) && finite(triangle.b) && finite(triangle.c);
            // A face contact's time comes from a plane crossing: at grazing incidence its rounding moves
            // along the path by the tolerance over the cosine.
            const RVec normal = areaNormal(wide(triangle.a), wide(triangle.b), wide(triangle.c));
            const Real cosine =
                length(normal) > 0 && length(wide(path.direction)) > 0
                    ? std::abs(glm::dot(glm::normalize(normal), glm::normalize(wide(path.direction))))
                    : Real(0);
            const Real grazing =
                cosine > 0 ? std::max(Real(1), 1 / cosine) : std::numeric_limits<Real>::infinity();
            const auto hit = sweepCapsuleTriangle(path, halfAxis, radius, triangle);
            checkSweep(
                hit, path, halfAxis, radius, sane, scaleOf(triangle.a, triangle.b, triangle.c),
                [&](const RVec& p) { return distanceToTriangle(p, triangle); },
                [&](const RVec& p0, const RVec& p1) { return segmentToTriangle(p0, p1, triangle); }, grazing);
            if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSphereTriangle(path, radius, triangle));
            break;
        }
        default: {
            const Obb<T> box{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const bool sane = saneSweep && finite(box.center) && isOrthonormal(box.rotation) &&
                              finite(box.halfExtents) &&
                              glm::all(glm::greaterThanEqual(box.halfExtents, Vec3<T>(0)));
            const auto surface = [&](const RVec& p) { return std::abs(signedDistanceToObb(p, box)); };
            const auto segment = [&](const RVec& p0, const RVec& p1) { return segmentToBox(p0, p1, box); };
            if (target == 4) {
                const auto hit = sweepCapsuleObb(path, halfAxis, radius, box);
                checkSweep(hit, path, halfAxis, radius, sane, scaleOf(box.center, box.halfExtents), surface,
                           segment);
                if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSphereObb(path, radius, box));
                break;
            }
            // The box as a convex polyhedron: its six planes, corners and edges.
            std::array<Plane<T>, 6> planes;
            for (int k = 0; k < 3; ++k) {
                const Vec3<T> axis = box.rotation[k];
                planes[std::size_t(2 * k)] = {axis, glm::dot(axis, box.center) + box.halfExtents[k]};
                planes[std::size_t(2 * k + 1)] = {-axis, -glm::dot(axis, box.center) + box.halfExtents[k]};
            }
            const auto corners = cornersOf(box);
            const ConvexPolyhedron<T> solid{planes, corners, boxEdges};
            const auto hit = sweepCapsuleConvexPolyhedron(path, halfAxis, radius, solid);
            // A zero axis is the sphere sweep, whose tolerances take the speed into the case's size.
            const Real speed = halfAxis == Vec3<T>(0) ? magnitude(path.direction) : Real(0);
            checkSweep(hit, path, halfAxis, radius, sane && finite(corners[7]),
                       std::max(speed, scaleOf(box.center, box.halfExtents)), surface, segment);
            if (halfAxis == Vec3<T>(0)) expectSame<T>(hit, sweepSphereConvexPolyhedron(path, radius, solid));
            break;
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
