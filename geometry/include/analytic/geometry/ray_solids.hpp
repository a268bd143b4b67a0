// SPDX-License-Identifier: Zlib
// The solids the core models, in one list, and the ray cast of each under one name. Code that handles
// every solid (the plugin's ray targets; the adapters are checked against it) takes the list from here:
// a solid added to the list without its ray cast does not compile.
#pragma once

#include <concepts>
#include <optional>
#include <type_traits>

#include "analytic/geometry/ray_box.hpp"
#include "analytic/geometry/ray_capsule.hpp"
#include "analytic/geometry/ray_cone.hpp"
#include "analytic/geometry/ray_cylinder.hpp"
#include "analytic/geometry/ray_ellipsoid.hpp"
#include "analytic/geometry/ray_sphere.hpp"

namespace analytic {

// A list of types, to be expanded where a variant or an overload set over them is wanted.
template <class... Types> struct TypeList {};

// Whether Type is one of the list's.
template <class Type, class List> struct InTypeList;
template <class Type, class... Types> struct InTypeList<Type, TypeList<Types...>>
    : std::bool_constant<(std::is_same_v<Type, Types> || ...)> {};

// The closed solids the core casts rays against (planes, triangles and convex polyhedra given by their
// planes have tests of their own, with other results).
template <class T> using Solids =
    TypeList<Sphere<T>, Obb<T>, Capsule<T>, Cylinder<T>, Cone<T>, RoundedCone<T>, Ellipsoid<T>>;

// Where the line of the ray enters and leaves the solid: each solid's own test, under one name. Each has
// that test's contract (its header): the direction need not be unit and t is in multiples of it; a
// crossing is reported when [entry.t, exit.t] overlaps [0, maxT], with originInside when the origin is
// inside; a miss and invalid input (non-finite values, sizes out of the test's range) give nullopt.
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Sphere<T>& sphere) {
    return intersectRaySphere(ray, sphere);
}
template <class T> std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Obb<T>& box) {
    return intersectRayObb(ray, box);
}
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Capsule<T>& capsule) {
    return intersectRayCapsule(ray, capsule);
}
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Cylinder<T>& cylinder) {
    return intersectRayCylinder(ray, cylinder);
}
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Cone<T>& cone) {
    return intersectRayCone(ray, cone);
}
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const RoundedCone<T>& cone) {
    return intersectRayRoundedCone(ray, cone);
}
template <class T>
std::optional<RaySolidHit<T>> intersectRaySolid(const RayPath<T>& ray, const Ellipsoid<T>& ellipsoid) {
    return intersectRayEllipsoid(ray, ellipsoid);
}

namespace detail {
template <class T, class Solid>
concept RayCastSolid = requires(const RayPath<T>& ray, const Solid& solid) {
    { intersectRaySolid(ray, solid) } -> std::same_as<std::optional<RaySolidHit<T>>>;
};
// Instantiated per solid, so that a failure names it (with Solid = ... in the compiler's message).
template <class T, class Solid> constexpr bool hasRayCast() {
    static_assert(RayCastSolid<T, Solid>, "a solid of Solids<T> has no intersectRaySolid: Solid names it");
    return true;
}
template <class T, class... Types> constexpr bool everyHasRayCast(TypeList<Types...>) {
    return (hasRayCast<T, Types>() && ...);
}
}  // namespace detail

static_assert(detail::everyHasRayCast<float>(Solids<float>{}) &&
              detail::everyHasRayCast<double>(Solids<double>{}));

}  // namespace analytic
