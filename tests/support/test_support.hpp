// SPDX-License-Identifier: Zlib
// Shared by the geometry tests: the scalar types every test runs in, a seeded random source for
// shapes and rays, the long double ("exact") space the references compute in, full-precision text for
// messages, and the non-finite variants of an input.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <concepts>
#include <cstdint>
#include <cstring>
#include <iomanip>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "analytic/geometry/primitives.hpp"

namespace analytic::test {

using Scalars = ::testing::Types<float, double>;

// The random tests' case counts are divided by this in unoptimized builds (the sanitizers' Debug build runs
// them many times slower): the same kinds of cases, fewer of them, so that the test command stays within
// its time.
#ifdef NDEBUG
inline constexpr int kCaseDivisor = 1;
#else
inline constexpr int kCaseDivisor = 5;
#endif

// References evaluate in long double (64-bit mantissa): 2^11 times finer than double's rounding.
using Real = long double;
using RealVec3 = Vec3<Real>;

template <class T> RealVec3 widen(const Vec3<T>& v) { return {Real(v.x), Real(v.y), Real(v.z)}; }

template <class T> Mat3<Real> widen(const Mat3<T>& m) { return {widen(m[0]), widen(m[1]), widen(m[2])}; }

// Angle in radians between two non-zero vectors, accurate for small angles.
inline Real angleBetween(const RealVec3& a, const RealVec3& b) {
    return std::atan2(glm::length(glm::cross(a, b)), glm::dot(a, b));
}

class Random {
public:
    explicit Random(std::uint64_t seed) : engine_(seed) {}

    double uniform(double low, double high) {
        return low + (high - low) * (double(engine_() >> 11) * 0x1.0p-53);
    }

    // Spread evenly over orders of magnitude between low and high (both > 0).
    double logUniform(double low, double high) { return std::exp(uniform(std::log(low), std::log(high))); }

    bool chance(double probability) { return uniform(0, 1) < probability; }

    template <class T> Vec3<T> point(double extent) {
        return Vec3<T>(T(uniform(-extent, extent)), T(uniform(-extent, extent)), T(uniform(-extent, extent)));
    }

    template <class T> Vec3<T> unitVector() {
        const double z = uniform(-1, 1);
        const double phi = uniform(0, 2 * M_PI);
        const double s = std::sqrt(std::max(0.0, 1 - z * z));
        return Vec3<T>(T(s * std::cos(phi)), T(s * std::sin(phi)), T(z));
    }

    // A uniformly random rotation (Shoemake), orthonormal to the scalar's precision.
    template <class T> Mat3<T> rotation() {
        const double u1 = uniform(0, 1), u2 = uniform(0, 2 * M_PI), u3 = uniform(0, 2 * M_PI);
        const double s1 = std::sqrt(1 - u1), s2 = std::sqrt(u1);
        const double x = s1 * std::sin(u2), y = s1 * std::cos(u2), z = s2 * std::sin(u3),
                     w = s2 * std::cos(u3);
        const Vec3<double> c0(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y));
        const Vec3<double> c1(2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x));
        const Vec3<double> c2(2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y));
        return Mat3<T>(Vec3<T>(c0), Vec3<T>(c1), Vec3<T>(c2));
    }

private:
    std::mt19937_64 engine_;
};

// Full precision (21 significant digits, enough for long double), for messages about failed cases.
inline std::string text(std::floating_point auto x) {
    std::ostringstream out;
    out << std::setprecision(21) << x;
    return out.str();
}

template <class S, int N> std::string text(const VecN<S, N>& v) {
    std::string result = "(";
    for (int i = 0; i < N; ++i)
        result += text(v[i]) + (i + 1 < N ? ", " : ")");
    return result;
}

template <class T, int N> std::string text(const RayPath<T, N>& ray) {
    return "ray " + text(ray.origin) + " + t " + text(ray.direction) + ", maxT " + text(ray.maxT);
}

// Calls check(copy) for copies of value with one of its scalars replaced by NaN, +inf or -inf, skipping
// those that allowed(index, replacement) accepts as legal input. Value must consist of T's only.
template <class T, class Value, class Allowed, class Check>
void forEachNonFiniteField(const Value& value, Allowed allowed, Check check) {
    constexpr int count = sizeof(Value) / sizeof(T);
    static_assert(count * sizeof(T) == sizeof(Value));
    constexpr std::array<T, 3> replacements{std::numeric_limits<T>::quiet_NaN(),
                                            std::numeric_limits<T>::infinity(),
                                            -std::numeric_limits<T>::infinity()};
    for (int index = 0; index < count; ++index) {
        for (const T replacement : replacements) {
            if (allowed(index, replacement)) continue;
            std::array<T, count> scalars;
            std::memcpy(scalars.data(), &value, sizeof(Value));
            scalars[index] = replacement;
            Value copy;
            std::memcpy(&copy, scalars.data(), sizeof(Value));
            SCOPED_TRACE(::testing::Message() << "scalar " << index << " = " << replacement);
            check(copy);
        }
    }
}

template <class T, class Value, class Check> void forEachNonFiniteField(const Value& value, Check check) {
    forEachNonFiniteField<T>(
        value, [](int, T) { return false; }, check);
}

}  // namespace analytic::test
