// SPDX-License-Identifier: Zlib
// Fuzz target: the plane tests (ray, point, sphere, ellipsoid, triangle, box against a plane).
// Invariants: no crash or undefined behaviour; every output finite; a ray's hit within [0, maxT], on the
// plane, inside the bounds boundsOfRayPlaneHits gives; contacts carry the plane's normal, and their
// points on the plane lie on it and below the shape's points by the depth.
#include <cstddef>
#include <cstdint>

#include "analytic/geometry/plane_tests.hpp"
#include "fuzz_checks.hpp"

namespace analytic::fuzz {
namespace {

template <class T> Real planeDistance(const Plane<T>& plane, const Vec3<T>& p) {
    return glm::dot(wide(plane.normal), wide(p)) - Real(plane.offset);
}

template <class T> void checkPoint(const PlaneContactPoint<T>& point, const Plane<T>& plane, Real scale) {
    FUZZ_CHECK(finite(point.onShape) && finite(point.onPlane) && finite(point.depth));
    if (!Input::covered<T>(scale)) return;
    const Real tolerance = surfaceTolerance<T>(scale);
    FUZZ_CHECK(std::abs(planeDistance(plane, point.onPlane)) <= tolerance);
    FUZZ_CHECK(std::abs(planeDistance(plane, point.onShape) + Real(point.depth)) <= tolerance);
}

template <class T> void run(Input& in) {
    const Vec3<T> normal = in.vec3<T>();
    const Plane<T> plane{in.flag() ? normal : Vec3<T>(glm::normalize(wide(normal))), in.scalar<T>()};
    const bool sanePlane = isUnit(plane.normal) && finite(plane.offset);
    const int query = in.below(7);
    Input::note(query);
    switch (query) {
        case 0: {
            const RayPath<T> ray = in.ray<T>();
            const auto crossing = intersectRayPlane(ray, plane);
            if (!crossing || crossing->outcome != RayPlaneOutcome::Hit) break;
            const SurfaceHit<T>& hit = crossing->hit;
            describeMore = [&] {
                print("normal", plane.normal);
                print("offset", plane.offset);
                print("origin", ray.origin);
                print("direction", ray.direction);
                print("maxT", ray.maxT);
                print("t", hit.t);
                print("point", hit.point);
                const Aabb<T> bounds = boundsOfRayPlaneHits(plane);
                print("bounds min", bounds.min);
                print("bounds max", bounds.max);
            };
            FUZZ_CHECK(hit.t >= T(0) && hit.t <= ray.maxT && finite(hit.point) && isUnit(hit.normal));
            const Aabb<T> bounds = boundsOfRayPlaneHits(plane);
            // Up to the rounding of the ray's own coordinates (see boundsOfRayPlaneHits).
            // (And t's own rounding near 0, a subnormal step that a long direction makes a long way.)
            const Real slack =
                8 * roundoff<T> *
                    (magnitude(ray.origin) + magnitude(ray.direction) * Real(hit.t) + magnitude(hit.point)) +
                4 * magnitude(ray.direction) * Real(std::numeric_limits<T>::denorm_min());
            for (int k = 0; k < 3; ++k) {
                FUZZ_CHECK(Real(hit.point[k]) >= Real(bounds.min[k]) - slack &&
                           Real(hit.point[k]) <= Real(bounds.max[k]) + slack);
            }
            const Real scale =
                std::max({magnitude(ray.origin), magnitude(hit.point), magnitude(plane.offset)});
            if (Input::covered<T>(scale) && Input::covered<T>(magnitude(ray.direction)))
                FUZZ_CHECK(std::abs(planeDistance(plane, hit.point)) <= surfaceTolerance<T>(scale));
            break;
        }
        case 1: {
            const Vec3<T> p = in.vec3<T>();
            const auto classification = classifyPointPlane(p, plane);
            if (classification) FUZZ_CHECK(finite(classification->signedDistance));
            break;
        }
        case 2: {
            const Sphere<T> sphere{in.vec3<T>(), in.scalar<T>()};
            const auto contact = collideSpherePlane(sphere, plane);
            if (!contact) break;
            FUZZ_CHECK(isUnit(contact->normal));
            checkPoint(contact->deepest, plane, scaleOf(sphere.center, sphere.radius, plane.offset));
            break;
        }
        case 3: {
            const Ellipsoid<T> ellipsoid{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const auto contact = collideEllipsoidPlane(ellipsoid, plane);
            if (!contact) break;
            FUZZ_CHECK(finite(contact->normal));
            if (!isOrthonormal(ellipsoid.rotation)) {
                FUZZ_CHECK(finite(contact->deepest.onShape) && finite(contact->deepest.onPlane));
                break;
            }
            checkPoint(contact->deepest, plane, scaleOf(ellipsoid.center, ellipsoid.radii, plane.offset));
            break;
        }
        case 4: {
            const Triangle<T> triangle{in.vec3<T>(), in.vec3<T>(), in.vec3<T>()};
            const auto cut = intersectTrianglePlane(triangle, plane);
            if (!cut) break;
            FUZZ_CHECK(finite(cut->vertexDistances) && finite(cut->segment[0]) && finite(cut->segment[1]));
            break;
        }
        case 5: {
            const Aabb<T> box{in.vec3<T>(), in.vec3<T>()};
            const auto classification = classifyAabbPlane(box, plane);
            if (!classification) break;
            FUZZ_CHECK(finite(classification->nearestVertex) && finite(classification->farthestVertex));
            FUZZ_CHECK(finite(classification->span.centerDistance) &&
                       finite(classification->span.projectedRadius));
            break;
        }
        default: {
            const Obb<T> box{in.vec3<T>(), in.rotation<T>(), in.vec3<T>()};
            const T margin = in.flag() ? T(0) : in.scalar<T>();
            const auto contact = collideObbPlane(box, plane, margin);
            if (!contact) break;
            FUZZ_CHECK(contact->pointCount >= 0 && contact->pointCount <= 4 && finite(contact->normal));
            const bool proper = isOrthonormal(box.rotation) && sanePlane;
            for (int i = 0; i < contact->pointCount; ++i) {
                if (proper)
                    checkPoint(contact->points[std::size_t(i)], plane,
                               scaleOf(box.center, box.halfExtents, plane.offset));
                else
                    FUZZ_CHECK(finite(contact->points[std::size_t(i)].onShape) &&
                               finite(contact->points[std::size_t(i)].depth));
            }
            break;
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(analytic::fuzz::run)
