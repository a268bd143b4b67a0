// SPDX-License-Identifier: Zlib
// Uses only the installed geometry core (BulletAnalytic::geometry): GLM and the standard library, no
// Bullet. Every core header is included, so one that reached for Bullet would fail to compile here.
#if __has_include(<btBulletCollisionCommon.h>) || __has_include(<LinearMath/btScalar.h>)
#error "Bullet's headers are on the include path of a program that links only BulletAnalytic::geometry"
#endif

#include <cstdio>

#include "analytic/geometry/box_triangle.hpp"
#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/first_hit.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/primitives.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_convex.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_ellipsoid.hpp"
#include "analytic/geometry/ray_solids.hpp"
#include "analytic/geometry/ray_sphere.hpp"
#include "analytic/geometry/ray_triangle.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "analytic/geometry/support.hpp"
#include "analytic/geometry/triangle.hpp"

int main() {
    // A ray down the z axis onto a unit sphere 5 below its origin: it enters at t = 4, z = 1.
    const analytic::RayPath<double> ray{{0, 0, 5}, {0, 0, -1}, 10};
    const auto hit = analytic::intersectRaySphere(ray, analytic::Sphere<double>{{0, 0, 0}, 1});
    if (!hit) return 1;
    std::printf("installed geometry core works: entry t %g at z %g\n", hit->entry.t, hit->entry.point.z);
    return hit->entry.t == 4 && hit->entry.point.z == 1 ? 0 : 1;
}
