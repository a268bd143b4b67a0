// SPDX-License-Identifier: Zlib
// The core's list of solids (ray_solids.hpp): every solid of the list is cast through intersectRaySolid,
// which gives its own test's answer bit for bit. A solid added to the list needs its sample below (the
// build names the one missing) and its intersectRaySolid.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <typeinfo>

#include "analytic/geometry/ray_solids.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

template <class T> class RaySolidsTest : public ::testing::Test {};
TYPED_TEST_SUITE(RaySolidsTest, test::Scalars);

// One solid of each kind about (1, 2, 3), within 1 of it, and its own test.
template <class T> Vec3<T> centre() { return {1, 2, 3}; }
template <class T> Sphere<T> sample(std::type_identity<Sphere<T>>) { return {centre<T>(), 1}; }
template <class T> Obb<T> sample(std::type_identity<Obb<T>>) { return {centre<T>(), Mat3<T>(1), Vec3<T>(1)}; }
template <class T> Capsule<T> sample(std::type_identity<Capsule<T>>) {
    return {centre<T>() - Vec3<T>(0, T(0.5), 0), centre<T>() + Vec3<T>(0, T(0.5), 0), T(0.5)};
}
template <class T> Cylinder<T> sample(std::type_identity<Cylinder<T>>) {
    return {centre<T>() - Vec3<T>(0, 1, 0), centre<T>() + Vec3<T>(0, 1, 0), 1};
}
template <class T> Cone<T> sample(std::type_identity<Cone<T>>) {
    return {centre<T>() + Vec3<T>(0, 1, 0), centre<T>() - Vec3<T>(0, 1, 0), 1};
}
template <class T> RoundedCone<T> sample(std::type_identity<RoundedCone<T>>) {
    return {{centre<T>() + Vec3<T>(0, 1, 0), centre<T>() - Vec3<T>(0, 1, 0), T(0.75)}, T(0.25)};
}
template <class T> Ellipsoid<T> sample(std::type_identity<Ellipsoid<T>>) {
    return {centre<T>(), Mat3<T>(1), Vec3<T>(1, T(0.5), T(0.75))};
}

template <class T> auto ownTest(const RayPath<T>& ray, const Sphere<T>& s) {
    return intersectRaySphere(ray, s);
}
template <class T> auto ownTest(const RayPath<T>& ray, const Obb<T>& s) { return intersectRayObb(ray, s); }
template <class T> auto ownTest(const RayPath<T>& ray, const Capsule<T>& s) {
    return intersectRayCapsule(ray, s);
}
template <class T> auto ownTest(const RayPath<T>& ray, const Cylinder<T>& s) {
    return intersectRayCylinder(ray, s);
}
template <class T> auto ownTest(const RayPath<T>& ray, const Cone<T>& s) { return intersectRayCone(ray, s); }
template <class T> auto ownTest(const RayPath<T>& ray, const RoundedCone<T>& s) {
    return intersectRayRoundedCone(ray, s);
}
template <class T> auto ownTest(const RayPath<T>& ray, const Ellipsoid<T>& s) {
    return intersectRayEllipsoid(ray, s);
}

template <class T, class Solid> void checkSolid() {
    SCOPED_TRACE(typeid(Solid).name());
    const Solid solid = sample<T>(std::type_identity<Solid>{});
    // Through the centre along x, from outside; then from inside; then a miss; then a NaN origin.
    const RayPath<T> through{centre<T>() - Vec3<T>(5, 0, 0), Vec3<T>(10, 0, 0), 1};
    const auto hit = intersectRaySolid(through, solid);
    ASSERT_TRUE(hit);
    EXPECT_FALSE(hit->originInside);
    EXPECT_GT(hit->entry.t, T(0.35));
    EXPECT_LT(hit->entry.t, T(0.5));
    EXPECT_GT(hit->exit.t, T(0.5));
    const auto own = ownTest(through, solid);
    ASSERT_TRUE(own);
    // Bit for bit, field by field (the struct's padding after originInside is not part of the answer).
    static_assert(sizeof(SurfaceHit<T>) == 7 * sizeof(T), "a surface hit's bytes are its values");
    EXPECT_EQ(std::memcmp(&hit->entry, &own->entry, sizeof(SurfaceHit<T>)), 0);
    EXPECT_EQ(std::memcmp(&hit->exit, &own->exit, sizeof(SurfaceHit<T>)), 0);
    EXPECT_EQ(hit->originInside, own->originInside);
    const auto inside = intersectRaySolid(RayPath<T>{centre<T>(), Vec3<T>(0, 0, 1), 5}, solid);
    ASSERT_TRUE(inside);
    EXPECT_TRUE(inside->originInside);
    EXPECT_FALSE(intersectRaySolid(RayPath<T>{centre<T>() + Vec3<T>(0, 0, 5), Vec3<T>(1, 0, 0), 10}, solid));
    const T nan = std::numeric_limits<T>::quiet_NaN();
    EXPECT_FALSE(intersectRaySolid(RayPath<T>{Vec3<T>(nan, 2, 3), Vec3<T>(1, 0, 0), 10}, solid));
}

template <class T, class... Listed> void checkEvery(TypeList<Listed...>) { (checkSolid<T, Listed>(), ...); }

TYPED_TEST(RaySolidsTest, EverySolidOfTheListIsCastAsItsOwnTestCastsIt) {
    using T = TypeParam;
    checkEvery<T>(Solids<T>{});
    static_assert(InTypeList<Sphere<T>, Solids<T>>::value && !InTypeList<Plane<T>, Solids<T>>::value);
}

}  // namespace
}  // namespace analytic
