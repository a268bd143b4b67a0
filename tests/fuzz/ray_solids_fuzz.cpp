// SPDX-License-Identifier: Zlib
// Fuzz target: rays against the core's solids (sphere, circle, capsule, cylinder, box, oriented box,
// ellipsoid, convex planes, cone). Invariants: no crash or undefined behaviour; a reported crossing has
// entry.t <= exit.t and meets [0, maxT]; every point and normal it reports within the ray is finite, the
// normal unit and facing the ray where it enters; the point is where the ray is at t and lies on the
// solid's surface; an origin reported inside is inside; an origin deep inside is reported; the first hit
// is within [0, maxT].
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_convex.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_ellipsoid.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

// A solid's signed distance (negative inside) where the geometry is sane enough to compute it, and the
// scale of its parameters.
struct Solid {
    bool sane;
    Real scale;
    // Signed distance; for solids where only a lower bound of the distance is cheap, that bound.
    std::function<Real(const RVec&)> signedDistance;
    // Whether normals must be unit: not for a rotation that is not one (the core's precondition; its
    // output is then finite, and meaningless).
    bool properFrame = true;
    // Whether an origin deep inside must be reported (not where the core documents nullopt).
    bool reportsInside = true;
    // The radius of curvature that the normals' rounding is relative to (0: flat faces, exact normals).
    Real curvatureRadius = 0;
};

template <class T>
void checkSurfaceHit(const SurfaceHit<T>& hit, const RayPath<T>& ray, const Solid& solid, bool entering) {
    describeMore = [&] {
        print("origin", ray.origin);
        print("direction", ray.direction);
        print("maxT", ray.maxT);
        print(entering ? "entry t" : "exit t", hit.t);
        print("point", hit.point);
        print("normal", hit.normal);
    };
    FUZZ_CHECK(finite(hit.point) && finite(hit.normal));
    if (solid.properFrame) FUZZ_CHECK(isUnit(hit.normal));
    // Parameters whose squares overflow are documented as meaningless (see lineSphereRoots): a line
    // taken as parallel to a round solid's axis, whose crossings come from elsewhere.
    if (!solid.sane || !(std::abs(Real(hit.t)) < Real(1e-3) * std::sqrt(Real(std::numeric_limits<T>::max()))))
        return;
    const RVec expected = wide(ray.origin) + Real(hit.t) * wide(ray.direction);
    const Real scale = std::max({solid.scale, magnitude(ray.origin), magnitude(hit.point),
                                 magnitude(ray.direction) * std::abs(Real(hit.t))});
    // Beyond the covered magnitudes (a solid or a direction whose squares leave the normal numbers, or
    // sizes 1e12 apart in double) the core's intermediates lose their digits: outputs stay finite and in
    // range (checked above), but where they lie is not checked.
    const bool covered = Input::covered<T>(scale) && Input::covered<T>(magnitude(ray.direction)) &&
                         (solid.curvatureRadius == 0 || Input::covered<T>(solid.curvatureRadius));
    if (!covered) return;
    // t itself is rounded: near 0 to a subnormal step, which a long direction makes a long way.
    const Real tStep = magnitude(ray.direction) * Real(std::numeric_limits<T>::denorm_min()) * 4;
    const Real tolerance = surfaceTolerance<T>(scale) + tStep;
    FUZZ_CHECK(length(wide(hit.point) - expected) <= tolerance);
    FUZZ_CHECK(std::abs(solid.signedDistance(wide(hit.point))) <= tolerance);
    // Entering, the outward normal cannot point along the ray (tangent: about perpendicular).
    const Real along = glm::dot(wide(hit.normal), glm::normalize(wide(ray.direction)));
    // A normal computed from a point rounded at the scale S is off by about u S / radius.
    const Real normalError =
        solid.curvatureRadius > 0 ? 1024 * roundoff<T> * scale / solid.curvatureRadius : Real(0);
    if (entering) FUZZ_CHECK(along <= Real(1e-2) + normalError);
}

template <class T> void checkCrossing(const std::optional<RaySolidHit<T>>& crossing, const RayPath<T>& ray,
                                      const Solid& solid, bool checkSurface = true) {
    const bool validRay = isValidRay(ray);
    if (!crossing) {
        // An origin deep inside a sane solid must be reported.
        if (validRay && solid.sane && checkSurface && solid.reportsInside) {
            const Real scale = std::max(solid.scale, magnitude(ray.origin));
            if (Input::covered<T>(scale) && Input::covered<T>(magnitude(ray.direction)))
                FUZZ_CHECK(!(solid.signedDistance(wide(ray.origin)) < -surfaceTolerance<T>(scale)));
        }
        return;
    }
    FUZZ_CHECK(validRay);
    FUZZ_CHECK(crossing->entry.t <= crossing->exit.t);
    FUZZ_CHECK(crossing->exit.t >= T(0) && crossing->entry.t <= ray.maxT);
    Solid surfaceChecked = solid;
    surfaceChecked.sane = solid.sane && checkSurface;
    if (crossing->originInside) {
        FUZZ_CHECK(crossing->entry.t <= T(0));
        if (surfaceChecked.sane) {
            const Real scale = std::max(solid.scale, magnitude(ray.origin));
            FUZZ_CHECK(solid.signedDistance(wide(ray.origin)) <= surfaceTolerance<T>(scale));
        }
    } else {
        FUZZ_CHECK(crossing->entry.t >= T(0));
        checkSurfaceHit(crossing->entry, ray, surfaceChecked, true);
    }
    if (crossing->exit.t <= ray.maxT) checkSurfaceHit(crossing->exit, ray, surfaceChecked, false);
    for (const StartInside policy : {StartInside::HitAtOrigin, StartInside::HitExit, StartInside::NoHit}) {
        const std::optional<SurfaceHit<T>> first = firstHit(crossing, ray, policy);
        if (!first) continue;
        FUZZ_CHECK(first->t >= T(0) && first->t <= ray.maxT);
        FUZZ_CHECK(finite(first->point) && finite(first->normal));
        if (solid.properFrame) FUZZ_CHECK(isUnit(first->normal));
    }
}

template <class T> bool positive(T x) { return finite(x) && x > T(0); }

template <class T> void run(Input& in) {
    const RayPath<T> ray = in.ray<T>();
    const int solid = in.below(9);
    Input::note(solid);
    switch (solid) {
        case 0: {
            const Sphere<T> sphere{in.vec3<T>(), in.scalar<T>()};
            const bool sane = finite(sphere.center) && positive(sphere.radius);
            checkCrossing(
                intersectRaySphere(ray, sphere), ray,
                {sane, scaleOf(sphere.center, sphere.radius),
                 [&](const RVec& p) { return length(p - wide(sphere.center)) - Real(sphere.radius); }, true,
                 true, Real(sphere.radius)});
            break;
        }
        case 1: {  // the 2D solver (circle), checked through its own invariants
            const RayPath2<T> ray2{
                {ray.origin.x, ray.origin.y}, {ray.direction.x, ray.direction.y}, ray.maxT};
            const Circle<T> circle{{in.scalar<T>(), in.scalar<T>()}, in.scalar<T>()};
            const auto crossing = intersectRaySphere(ray2, circle);
            if (crossing) {
                FUZZ_CHECK(isValidRay(ray2) && crossing->entry.t <= crossing->exit.t);
                const auto first = firstHit(crossing, ray2, StartInside::HitAtOrigin);
                FUZZ_CHECK(first && first->t >= T(0) && first->t <= ray2.maxT);
                FUZZ_CHECK(std::isfinite(first->point.x) && std::isfinite(first->point.y));
                const Real n = std::hypot(Real(first->normal.x), Real(first->normal.y));
                FUZZ_CHECK(std::abs(n - 1) <= 256 * roundoff<T>);
            }
            break;
        }
        case 2: {
            const Capsule<T> capsule{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            const bool sane = finite(capsule.a) && finite(capsule.b) && positive(capsule.radius);
            checkCrossing(intersectRayCapsule(ray, capsule), ray,
                          {sane, scaleOf(capsule.a, capsule.b, capsule.radius),
                           [&](const RVec& p) {
                               return distanceToSegment(p, wide(capsule.a), wide(capsule.b)) -
                                      Real(capsule.radius);
                           },
                           true, true, Real(capsule.radius)});
            break;
        }
        case 3: {
            const Cylinder<T> cylinder{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()};
            const bool sane = finite(cylinder.a) && finite(cylinder.b) && positive(cylinder.radius) &&
                              cylinder.a != cylinder.b;
            checkCrossing(intersectRayCylinder(ray, cylinder), ray,
                          {sane, scaleOf(cylinder.a, cylinder.b, cylinder.radius),
                           [&](const RVec& p) { return signedDistanceToCylinder(p, cylinder); }, true, true,
                           Real(cylinder.radius)});
            break;
        }
        case 4: {
            const Aabb<T> box{in.vec3<T>(), in.vec3<T>()};
            const bool sane =
                finite(box.min) && finite(box.max) && glm::all(glm::lessThanEqual(box.min, box.max));
            const Obb<T> asObb{(box.min + box.max) / T(2), Mat3<T>(T(1)), (box.max - box.min) / T(2)};
            checkCrossing(intersectRayAabb(ray, box), ray,
                          {sane && finite(asObb.halfExtents), scaleOf(box.min, box.max), [&](const RVec& p) {
                               RVec outside(0);
                               Real deepest = -std::numeric_limits<Real>::infinity();
                               for (int k = 0; k < 3; ++k) {
                                   const Real d = std::max(Real(box.min[k]) - p[k], p[k] - Real(box.max[k]));
                                   outside[k] = std::max(d, Real(0));
                                   deepest = std::max(deepest, d);
                               }
                               return deepest > 0 ? length(outside) : deepest;
                           }});
            break;
        }
        case 5: {
            const Obb<T> box{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const bool sane = finite(box.center) && isOrthonormal(box.rotation) && finite(box.halfExtents) &&
                              glm::all(glm::greaterThanEqual(box.halfExtents, Vec3<T>(0)));
            checkCrossing(
                intersectRayObb(ray, box), ray,
                {sane, scaleOf(box.center, box.halfExtents),
                 [&](const RVec& p) { return signedDistanceToObb(p, box); }, isOrthonormal(box.rotation)});
            break;
        }
        case 6: {
            const Ellipsoid<T> ellipsoid{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const Vec3<T>& r = ellipsoid.radii;
            const bool sane = finite(ellipsoid.center) && isOrthonormal(ellipsoid.rotation) &&
                              positive(r.x) && positive(r.y) && positive(r.z);
            // (|q| - 1) * smallest radius, q the point in the unit-sphere frame, is at most the distance.
            const Real smallest = std::min({Real(r.x), Real(r.y), Real(r.z)});
            checkCrossing(intersectRayEllipsoid(ray, ellipsoid), ray,
                          {sane, scaleOf(ellipsoid.center, ellipsoid.radii),
                           [&](const RVec& p) {
                               const RVec offset = p - wide(ellipsoid.center);
                               RVec q;
                               for (int k = 0; k < 3; ++k)
                                   q[k] = glm::dot(offset, wide(ellipsoid.rotation[k])) / Real(r[k]);
                               return (length(q) - 1) * smallest;
                           },
                           isOrthonormal(ellipsoid.rotation), true, smallest});
            break;
        }
        case 7: {
            std::vector<Plane<T>> planes(std::size_t(in.below(9)));
            bool sane = true;
            Real scale = 0;
            for (Plane<T>& plane : planes) {
                const Vec3<T> normal = in.vec3<T>();
                plane = {in.flag() ? normal : Vec3<T>(glm::normalize(wide(normal))), in.scalar<T>()};
                sane = sane && isUnit(plane.normal) && finite(plane.offset);
                scale = std::max(scale, magnitude(plane.offset));
            }
            // max over the planes of the plane distance: exact inside, a lower bound outside.
            const auto signedDistance = [&](const RVec& p) {
                Real largest = -std::numeric_limits<Real>::infinity();
                for (const Plane<T>& plane : planes)
                    largest = std::max(largest, glm::dot(wide(plane.normal), p) - Real(plane.offset));
                return largest;
            };
            const auto crossing = intersectRayConvexPlanes(ray, std::span<const Plane<T>>(planes));
            // An unbounded solid reports ends at infinity: only finite ends have a surface.
            if (crossing && (!finite(crossing->entry.t) || !finite(crossing->exit.t))) {
                FUZZ_CHECK(crossing->entry.t <= crossing->exit.t);
                const auto first = firstHit(crossing, ray, StartInside::HitAtOrigin);
                FUZZ_CHECK(first && first->t >= T(0) && first->t <= ray.maxT && finite(first->point));
                if (sane) FUZZ_CHECK(isUnit(first->normal));
                // Never leaving through an end at infinity: no exit there, and no crossing.
                const auto exit = firstHit(crossing, ray, StartInside::HitExit);
                FUZZ_CHECK(!exit || (finite(exit->t) && finite(exit->point)));
                const SurfaceCrossings<T, 3> crossings = surfaceCrossings(crossing, ray);
                for (int i = 0; i < crossings.count; ++i)
                    FUZZ_CHECK(finite(crossings.hits[i].t) && finite(crossings.hits[i].point));
                break;
            }
            // Documented: no hit where a plane's crossing leaves the scalar's range (a line all but
            // parallel to it), or its point within [0, maxT] does (a direction 1e-308 across a plane puts
            // the crossing 1e308 along the ray).
            bool crossingsInRange = true;
            const Real largest = Real(std::numeric_limits<T>::max()) / 2;
            for (const Plane<T>& plane : planes) {
                const Real approach = glm::dot(wide(plane.normal), wide(ray.direction));
                const Real t =
                    (Real(plane.offset) - glm::dot(wide(plane.normal), wide(ray.origin))) / approach;
                if (approach == 0) continue;
                const bool pointOutOfRange =
                    t >= 0 && t <= Real(ray.maxT) &&
                    !(magnitude(wide(ray.origin) + t * wide(ray.direction)) < largest);
                if (!(std::abs(t) < largest) || pointOutOfRange) crossingsInRange = false;
            }
            describeMore = [&] {
                print("origin", ray.origin);
                print("direction", ray.direction);
                print("maxT", ray.maxT);
                for (const Plane<T>& plane : planes) {
                    print("plane normal", plane.normal);
                    print("plane offset", plane.offset);
                    print("origin's distance",
                          glm::dot(wide(plane.normal), wide(ray.origin)) - Real(plane.offset));
                }
                if (crossing) {
                    print("entry t", crossing->entry.t);
                    print("exit t", crossing->exit.t);
                }
            };
            checkCrossing(crossing, ray,
                          {sane && !planes.empty(), scale, signedDistance, sane, crossingsInRange});
            break;
        }
        default: {
            const RoundedCone<T> cone{{in.vec3<T>(), in.vec3<T>(), in.scalar<T>()},
                                      in.flag() ? T(0) : in.scalar<T>()};
            // No cheap exact distance to a rounded cone: the crossing's own invariants only.
            checkCrossing(intersectRayRoundedCone(ray, cone), ray, {false, 0, nullptr}, false);
            break;
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
