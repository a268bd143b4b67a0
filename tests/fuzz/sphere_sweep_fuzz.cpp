// SPDX-License-Identifier: Zlib
// Fuzz target: sphere sweeps against spheres, capsules, boxes, planes, triangles, cylinders, cones and
// ellipsoids. Invariants: no crash or undefined behaviour; a hit has t in [0, maxT] (0 when it starts in
// contact), a finite point and a unit normal; at t the moving sphere touches the target: its centre is
// radius away from the reported point, which lies on the target; a sweep of radius 0 against a sphere
// is the ray's first hit.
#include <cstddef>
#include <cstdint>
#include <functional>

#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

// distanceToTarget: distance from a point to the target (0 on and inside it), where cheap and sane.
// grazing: 1 / the cosine between the path and a flat target's normal, for targets whose contact point
// comes from a plane crossing (a triangle's face): at grazing incidence its rounding moves the point
// along the path by the tolerance over that cosine.
template <class T> void checkSweep(const std::optional<SphereSweepHit<T>>& hit, const RayPath<T>& path,
                                   T radius, bool sane, Real targetScale,
                                   const std::function<Real(const RVec&)>& distanceToTarget,
                                   Real grazing = 1) {
    if (!hit) return;
    describeMore = [&] {
        print("origin", path.origin);
        print("direction", path.direction);
        print("maxT", path.maxT);
        print("radius", radius);
        print("t", hit->t);
        print("point", hit->point);
        print("normal", hit->normal);
        print("starts in contact", hit->startsInContact);
        print("distance to target", distanceToTarget(wide(hit->point)));
    };
    FUZZ_CHECK(finite(hit->t) && hit->t >= T(0) && hit->t <= path.maxT);
    FUZZ_CHECK(finite(hit->point) && finite(hit->normal));
    if (hit->startsInContact) FUZZ_CHECK(hit->t == T(0));
    if (!sane) return;
    FUZZ_CHECK(isUnit(hit->normal));
    const RVec center = wide(path.origin) + Real(hit->t) * wide(path.direction);
    const Real scale = std::max({targetScale, magnitude(path.origin), magnitude(radius),
                                 magnitude(path.direction) * Real(hit->t), magnitude(hit->point)});
    if (!Input::covered<T>(scale) || !Input::covered<T>(magnitude(path.direction)) ||
        !(radius == T(0) || Input::covered<T>(radius)))
        return;
    const Real tolerance = surfaceTolerance<T>(scale) +
                           magnitude(path.direction) * Real(std::numeric_limits<T>::denorm_min()) * 4;
    FUZZ_CHECK(distanceToTarget(wide(hit->point)) <= tolerance * grazing);
    if (!hit->startsInContact)
        FUZZ_CHECK(std::abs(length(center - wide(hit->point)) - Real(radius)) <= tolerance);
}

template <class T> bool nonNegative(T x) { return finite(x) && x >= T(0); }
template <class T> bool positive(T x) { return finite(x) && x > T(0); }

// Distance from p to the solid cone (0 inside): in the half-plane through the axis, the distance to the
// triangle apex (0, 0), rim (radius, height), base centre (0, height), from its side and base edges.
template <class T> Real distanceToCone(const RVec& p, const Cone<T>& cone) {
    const RVec apex = wide(cone.apex), axis = wide(cone.base) - apex;
    const Real height = length(axis), radius = Real(cone.radius);
    const RVec unit = axis / height;
    const Real along = glm::dot(p - apex, unit);
    const Real across = length(p - apex - along * unit);
    if (along <= height && across * height <= along * radius) return 0;
    // The section as 3D points with z = 0, so distanceToSegment serves.
    const RVec q(across, along, 0), rim(radius, height, 0);
    return std::min(distanceToSegment(q, RVec(0), rim), distanceToSegment(q, rim, RVec(0, height, 0)));
}

template <class T> void run(Input& in) {
    const RayPath<T> path = in.ray<T>();
    const T radius = in.flag() ? in.ordinary<T>() : in.scalar<T>();
    const bool saneSweep = isValidRay(path) && nonNegative(radius);
    const int target = in.below(9);
    Input::note(target);
    Input::note(-1);  // the target's scalars follow
    switch (target) {
        case 0: {
            const Sphere<T> sphere{in.vec3<T>(), in.scalar<T>()};
            const bool sane = saneSweep && finite(sphere.center) && nonNegative(sphere.radius);
            const auto hit = sweepSphereSphere(path, radius, sphere);
            checkSweep(hit, path, radius, sane, scaleOf(sphere.center, sphere.radius), [&](const RVec& p) {
                return std::max(Real(0), length(p - wide(sphere.center)) - Real(sphere.radius));
            });
            // Radius 0: the ray's first hit (t = 0 from inside), the same parameter.
            if (radius == T(0)) {
                const auto ray = firstHit(intersectRaySphere(path, sphere), path, StartInside::HitAtOrigin);
                if (hit && ray && sane && sphere.radius > T(0)) FUZZ_CHECK(hit->t == ray->t);
            }
            break;
        }
        case 1: {
            const Capsule<T> capsule{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            const bool sane =
                saneSweep && finite(capsule.a) && finite(capsule.b) && nonNegative(capsule.radius);
            checkSweep(sweepSphereCapsule(path, radius, capsule), path, radius, sane,
                       scaleOf(capsule.a, capsule.b, capsule.radius), [&](const RVec& p) {
                           return std::max(Real(0), distanceToSegment(p, wide(capsule.a), wide(capsule.b)) -
                                                        Real(capsule.radius));
                       });
            break;
        }
        case 2: {
            const Obb<T> box{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const bool sane = saneSweep && finite(box.center) && isOrthonormal(box.rotation) &&
                              finite(box.halfExtents) &&
                              glm::all(glm::greaterThanEqual(box.halfExtents, Vec3<T>(0)));
            checkSweep(sweepSphereObb(path, radius, box), path, radius, sane,
                       scaleOf(box.center, box.halfExtents),
                       [&](const RVec& p) { return std::max(Real(0), signedDistanceToObb(p, box)); });
            break;
        }
        case 3: {
            const Aabb<T> box{in.vec3<T>(), in.vec3<T>()};
            const Obb<T> asObb{(box.min + box.max) / T(2), Mat3<T>(T(1)), (box.max - box.min) / T(2)};
            const bool sane = saneSweep && finite(box.min) && finite(box.max) && finite(asObb.halfExtents) &&
                              glm::all(glm::lessThanEqual(box.min, box.max));
            checkSweep(
                sweepSphereAabb(path, radius, box), path, radius, sane, scaleOf(box.min, box.max),
                [&](const RVec& p) {
                    RVec outside(0);
                    for (int k = 0; k < 3; ++k)
                        outside[k] = std::max({Real(0), Real(box.min[k]) - p[k], p[k] - Real(box.max[k])});
                    return length(outside);
                });
            break;
        }
        case 4: {
            const Vec3<T> normal = in.vec3<T>();
            const Plane<T> plane{in.flag() ? normal : Vec3<T>(glm::normalize(wide(normal))), in.scalar<T>()};
            const bool sane = saneSweep && isUnit(plane.normal) && finite(plane.offset);
            const auto distance = [&](const RVec& p) {
                return std::abs(glm::dot(wide(plane.normal), p) - Real(plane.offset));
            };
            checkSweep(sweepSpherePlane(path, radius, plane), path, radius, sane, magnitude(plane.offset),
                       distance);
            checkSweep(sweepSphereTwoSidedPlane(path, radius, plane), path, radius, sane,
                       magnitude(plane.offset), distance);
            break;
        }
        case 5: {
            const Triangle<T> triangle{in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>(), in.ordinaryVec3<T>(),
                                       in.flag() ? in.vec3<T>() : in.ordinaryVec3<T>()};
            const bool sane = saneSweep && finite(triangle.a) && finite(triangle.b) && finite(triangle.c);
            const auto distance = [&](const RVec& p) { return distanceToTriangle(p, triangle); };
            const Real scale = scaleOf(triangle.a, triangle.b, triangle.c);
            const RVec normal =
                glm::cross(wide(triangle.b) - wide(triangle.a), wide(triangle.c) - wide(triangle.a));
            const Real cosine =
                length(normal) > 0 && length(wide(path.direction)) > 0
                    ? std::abs(glm::dot(glm::normalize(normal), glm::normalize(wide(path.direction))))
                    : Real(0);
            const Real grazing =
                cosine > 0 ? std::max(Real(1), 1 / cosine) : std::numeric_limits<Real>::infinity();
            checkSweep(sweepSphereTriangle(path, radius, triangle), path, radius, sane, scale, distance,
                       grazing);
            checkSweep(sweepSphereTriangle(path, radius, triangle, FaceCulling::BackFaces), path, radius,
                       sane, scale, distance, grazing);
            break;
        }
        case 6: {
            const Cylinder<T> cylinder{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            const bool sane = saneSweep && finite(cylinder.a) && finite(cylinder.b) &&
                              positive(cylinder.radius) && cylinder.a != cylinder.b;
            checkSweep(sweepSphereCylinder(path, radius, cylinder), path, radius, sane,
                       scaleOf(cylinder.a, cylinder.b, cylinder.radius),
                       [&](const RVec& p) { return std::abs(signedDistanceToCylinder(p, cylinder)); });
            break;
        }
        case 7: {
            const Cone<T> cone{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            const bool sane = saneSweep && finite(cone.apex) && finite(cone.base) && positive(cone.radius) &&
                              cone.apex != cone.base;
            checkSweep(sweepSphereCone(path, radius, cone), path, radius, sane,
                       scaleOf(cone.apex, cone.base, cone.radius),
                       [&](const RVec& p) { return distanceToCone(p, cone); });
            break;
        }
        default: {
            const Ellipsoid<T> ellipsoid{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const Vec3<T>& r = ellipsoid.radii;
            const bool sane = saneSweep && finite(ellipsoid.center) && isOrthonormal(ellipsoid.rotation) &&
                              positive(r.x) && positive(r.y) && positive(r.z);
            // |(|q| - 1) * smallest radius|, q the point in the unit-sphere frame, is at most the distance
            // to the surface: a point it puts off the surface is off it. (The cylinder's and this one are
            // taken from the surface, also inside: the point is the surface's.)
            const Real smallest = std::min({Real(r.x), Real(r.y), Real(r.z)});
            checkSweep(sweepSphereEllipsoid(path, radius, ellipsoid), path, radius, sane,
                       scaleOf(ellipsoid.center, ellipsoid.radii), [&](const RVec& p) {
                           const RVec offset = p - wide(ellipsoid.center);
                           RVec q;
                           for (int k = 0; k < 3; ++k)
                               q[k] = glm::dot(offset, wide(ellipsoid.rotation[k])) / Real(r[k]);
                           return std::abs((length(q) - 1) * smallest);
                       });
            break;
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
