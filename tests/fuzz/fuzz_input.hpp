// SPDX-License-Identifier: Zlib
// Turns a fuzzer's bytes into the geometry core's inputs, hostile ones first: every scalar is picked by
// a byte among the values that break geometry code (zero, signed zero, NaN, infinities, subnormals, the
// extremes, the largest coordinates the contract covers), small multiples of 1/8 (which make exact
// degeneracies: coplanar points, parallel segments, shared edges), or a value of any magnitude. Running
// out of bytes reads zeros, so every input decodes.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>

#include "analytic/geometry/primitives.hpp"

namespace analytic::fuzz {

class Input {
public:
    Input(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) { logged = 0; }

    std::uint8_t byte() { return position_ < size_ ? data_[position_++] : 0; }
    bool flag() { return byte() & 1; }
    int below(int count) { return count > 0 ? int(byte() % unsigned(count)) : 0; }
    bool exhausted() const { return position_ >= size_; }

    // A value in [-1, 1) with 16 bits of mantissa.
    double unit() {
        const unsigned high = byte(), low = byte();
        return double(int((high << 8) | low) - 32768) / 32768.0;
    }

    // Every scalar decoded, in order, for describing a failing case.
    static constexpr int logCapacity = 256;
    inline static long double log[logCapacity];
    inline static int logged = 0;
    static void describeLog() {
        std::fprintf(stderr, "  scalars decoded, in order:");
        for (int i = 0; i < logged; ++i)
            std::fprintf(stderr, "%s%.21Lg", i % 4 ? ", " : "\n    ", log[i]);
        std::fprintf(stderr, "\n");
    }

    template <class T> T scalar() {
        const T value = decode<T>();
        if (logged < logCapacity) log[logged++] = value;
        return value;
    }

    template <class T> T decode() {
        using Limits = std::numeric_limits<T>;
        const std::uint8_t pick = byte();
        switch (pick) {
            case 0:
                return T(0);
            case 1:
                return -T(0);
            case 2:
                return Limits::quiet_NaN();
            case 3:
                return Limits::infinity();
            case 4:
                return -Limits::infinity();
            case 5:
                return Limits::denorm_min();
            case 6:
                return -Limits::denorm_min();
            case 7:
                return Limits::min();
            case 8:
                return Limits::max();
            case 9:
                return Limits::lowest();
            case 10:
                return Limits::epsilon();
            case 11:
                return largestCovered<T>();  // the contract's largest coordinate
            case 12:
                return -largestCovered<T>();
            case 13:
                return T(1e9);  // a ray 1e9 long
            case 14:
                return subnormal<T>();
            case 15:
                return T(1) + Limits::epsilon();
            default:
                break;
        }
        if (pick < 144) return T(int(pick) - 80) / T(8);  // -8 to 7.875 in steps of 1/8
        // Any magnitude within the scalar's range: 10^(-e .. +e) times a mantissa in [-1, 1).
        const int span = Limits::max_exponent10;
        const double exponent = double(int(byte() % unsigned(2 * span + 1)) - span);
        return T(unit() * std::pow(10.0, exponent));
    }

    // Scalars of ordinary size only (within 1e-3 .. 1e3 of magnitude, or the 1/8 grid), for the parts of
    // a case whose hostility is not the point.
    template <class T> T ordinary() {
        const std::uint8_t pick = byte();
        const T value =
            pick < 128 ? T(int(pick) - 64) / T(8) : T(unit() * std::pow(10.0, double(int(byte() % 7u) - 3)));
        if (logged < logCapacity) log[logged++] = value;
        return value;
    }

    template <class T> Vec3<T> vec3() { return {scalar<T>(), scalar<T>(), scalar<T>()}; }
    template <class T> Vec3<T> ordinaryVec3() { return {ordinary<T>(), ordinary<T>(), ordinary<T>()}; }

    // A rotation: mostly proper (from a normalised quaternion, or an axis permutation with signs, exact),
    // sometimes the raw unnormalised matrix of hostile components (what a caller passing garbage gives).
    template <class T> Mat3<T> rotation() {
        const Mat3<T> m = decodeRotation<T>();
        for (int c = 0; c < 3; ++c)
            for (int r = 0; r < 3 && logged < logCapacity; ++r)
                log[logged++] = m[c][r];
        return m;
    }

    template <class T> Mat3<T> decodeRotation() {
        const std::uint8_t pick = byte();
        if (pick < 16) {  // garbage
            Mat3<T> m;
            for (int c = 0; c < 3; ++c)
                m[c] = {decode<T>(), decode<T>(), decode<T>()};
            return m;
        }
        if (pick < 96) {  // exact: a signed permutation of the axes
            const int permutation = below(6);
            static constexpr int orders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                                 {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
            Mat3<T> m(T(0));
            for (int c = 0; c < 3; ++c)
                m[c][orders[permutation][c]] = flag() ? T(1) : T(-1);
            if (glm::determinant(m) < T(0)) m[2] = -m[2];
            return m;
        }
        double q[4] = {unit(), unit(), unit(), unit()};
        double norm = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
        if (norm < 1e-3) {
            q[0] = 1;
            norm = 1;
        }
        const double w = q[0] / norm, x = q[1] / norm, y = q[2] / norm, z = q[3] / norm;
        Mat3<T> m;
        m[0] = Vec3<T>(T(1 - 2 * (y * y + z * z)), T(2 * (x * y + w * z)), T(2 * (x * z - w * y)));
        m[1] = Vec3<T>(T(2 * (x * y - w * z)), T(1 - 2 * (x * x + z * z)), T(2 * (y * z + w * x)));
        m[2] = Vec3<T>(T(2 * (x * z + w * y)), T(2 * (y * z - w * x)), T(1 - 2 * (x * x + y * y)));
        return m;
    }

    // A ray: segment, unbounded, or long; its parts hostile or ordinary.
    template <class T> RayPath<T> ray() {
        const bool hostile = flag();
        const Vec3<T> origin = hostile ? vec3<T>() : ordinaryVec3<T>();
        const Vec3<T> direction = hostile ? vec3<T>() : ordinaryVec3<T>();
        T maxT;
        switch (below(4)) {
            case 0:
                maxT = T(1);
                break;
            case 1:
                maxT = std::numeric_limits<T>::infinity();
                break;
            case 2:
                maxT = scalar<T>();
                break;
            default:
                maxT = T(1e9);
                break;
        }
        return {origin, direction, maxT};
    }

    template <class T> static constexpr T largestCovered() { return sizeof(T) == 4 ? T(1e7) : T(1e15); }
    // Whether a magnitude lies in the range the contract covers for geometry (not only for safety): up
    // to the largest coordinate, down to where squares and products of such values stay normal numbers.
    template <class T> static bool covered(long double magnitude) {
        const long double smallest = sizeof(T) == 4 ? 1e-6L : 1e-12L;
        const long double largest = sizeof(T) == 4 ? 1e9L : 1e15L;  // coordinates, and rays 1e9 long
        return magnitude >= smallest && magnitude <= largest;
    }
    // Records a value (a case's choice) among the decoded scalars.
    static void note(long double value) {
        if (logged < logCapacity) log[logged++] = value;
    }

    // A subnormal of middling size (the smallest is case 5).
    template <class T> static T subnormal() {
        if constexpr (sizeof(T) == 4)
            return T(1e-40);
        else
            return T(1e-310);
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t position_ = 0;
};

// What the case being run is, printed when an invariant breaks: the scalars decoded, and what the target
// sets describeMore to print (its primitives, its result).
inline void (*describeCase)() = &Input::describeLog;
inline std::function<void()> describeMore;

// A broken invariant: says which and where, and the case, then aborts, which libFuzzer reports with the
// input.
[[noreturn]] inline void fail(const char* what, const char* file, int line) {
    std::fprintf(stderr, "fuzz invariant broken: %s (%s:%d)\n", what, file, line);
    if (describeCase) describeCase();
    if (describeMore) describeMore();
    std::abort();
}

inline void print(const char* name, long double x) { std::fprintf(stderr, "  %s = %.21Lg\n", name, x); }
template <class T> void print(const char* name, const Vec3<T>& v) {
    std::fprintf(stderr, "  %s = (%.21Lg, %.21Lg, %.21Lg)\n", name, (long double)v.x, (long double)v.y,
                 (long double)v.z);
}

}  // namespace analytic::fuzz

#define FUZZ_CHECK(condition)                                                     \
    do {                                                                          \
        if (!(condition)) ::analytic::fuzz::fail(#condition, __FILE__, __LINE__); \
    } while (false)

// The entry point of a target whose run<T>(Input&) takes float or double from the first byte.
#define ANALYTIC_FUZZ_FLOAT_AND_DOUBLE(run)                                             \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
        ::analytic::fuzz::Input in(data, size);                                         \
        ::analytic::fuzz::describeMore = nullptr;                                       \
        if (in.flag())                                                                  \
            run<double>(in);                                                            \
        else                                                                            \
            run<float>(in);                                                             \
        return 0;                                                                       \
    }

// The entry point of a target whose run(Input&) has one scalar (the world targets: Bullet's).
#define ANALYTIC_FUZZ_ONE_SCALAR(run)                                                   \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) { \
        ::analytic::fuzz::Input in(data, size);                                         \
        ::analytic::fuzz::describeMore = nullptr;                                       \
        run(in);                                                                        \
        return 0;                                                                       \
    }
