// SPDX-License-Identifier: Zlib
// Four values side by side, for testing a ray against four shapes at once (a four-wide tree's children,
// a mesh's triangles four at a time). The lanes are SSE2 registers (GCC's vector extension, 16 bytes:
// four floats, or two doubles, so two parts in double: wider vectors would be split by the compiler into
// scalar code without AVX). Lane arithmetic rounds as scalar arithmetic does, lane by lane: a test in
// lanes gives the scalar test's values bit for bit when it does the same operations.
#pragma once

#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace analytic::cast {
namespace detail {
template <class T> struct SseLanes;
template <> struct SseLanes<float> { using type = float __attribute__((vector_size(16))); };
template <> struct SseLanes<double> { using type = double __attribute__((vector_size(16))); };

// Bit i set when lane i's sign bit is (a comparison's true lanes).
inline unsigned signBits(SseLanes<float>::type lanes) {
#if defined(__SSE2__)
    return unsigned(_mm_movemask_ps(__m128(lanes)));
#else
    unsigned bits = 0;
    for (int lane = 0; lane < 4; ++lane)
        bits |= unsigned(std::signbit(lanes[lane])) << lane;
    return bits;
#endif
}
inline unsigned signBits(SseLanes<double>::type lanes) {
#if defined(__SSE2__)
    return unsigned(_mm_movemask_pd(__m128d(lanes)));
#else
    return unsigned(std::signbit(lanes[0])) | unsigned(std::signbit(lanes[1])) << 1;
#endif
}
}  // namespace detail

// Four values of T take `parts` registers of partLanes lanes each: value i is lane i % partLanes of part
// i / partLanes.
template <class T> struct FourLanes {
    using Lanes = typename detail::SseLanes<T>::type;
    static constexpr int partLanes = int(sizeof(Lanes) / sizeof(T));
    static constexpr int parts = 4 / partLanes;
};

}  // namespace analytic::cast
