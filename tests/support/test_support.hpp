// Shared by the geometry tests: the scalar types every test runs in, a seeded random source for
// shapes and rays, and the long double ("exact") space the references compute in.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>

#include "analytic/geometry/primitives.hpp"

namespace analytic::test {

using Scalars = ::testing::Types<float, double>;

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

}  // namespace analytic::test
