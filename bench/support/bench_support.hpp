// Shared by the geometry benchmarks: each times one kernel over a fixed set of pre-generated random cases,
// reports the time per case, and is registered for float and double.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "support/test_support.hpp"

namespace analytic::bench {

// How many pre-generated cases each benchmark runs over.
constexpr int kCaseCount = 1024;

// kCaseCount cases, each drawn by makeCase(random) from one source seeded with seed.
template <class MakeCase> auto drawCases(std::uint64_t seed, const MakeCase& makeCase) {
    test::Random random(seed);
    std::vector<decltype(makeCase(random))> cases;
    for (int i = 0; i < kCaseCount; ++i)
        cases.push_back(makeCase(random));
    return cases;
}

// The ray of the prepared forms (one ray against many shapes), which scatter their shapes along it.
template <class T> const RayPath<T> kLongRay{Vec3<T>(-50, -3, 2), Vec3<T>(100, 6, -4), T(1)};

// Runs kernel(c) for every case c once per iteration. Each case counts as an item processed, and the
// counter named timePerCase (if not null) shows the time per case.
template <class Cases, class Kernel> void timeKernel(benchmark::State& state, const Cases& cases,
                                                     const Kernel& kernel,
                                                     const char* timePerCase = nullptr) {
    for (auto _ : state)
        for (const auto& c : cases)
            benchmark::DoNotOptimize(kernel(c));
    state.SetItemsProcessed(state.iterations() * std::int64_t(cases.size()));
    if (timePerCase)
        state.counters[timePerCase] =
            benchmark::Counter(double(state.iterations()) * double(cases.size()),
                               benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

// timeKernel for a kernel that reports a hit or a miss, with the counter hit_fraction: the fraction of the
// cases that hit, for comparing figures with other libraries.
template <class Cases, class Kernel> void timeHitOrMiss(benchmark::State& state, const Cases& cases,
                                                        const Kernel& kernel, const char* timePerCase) {
    int hits = 0;
    for (const auto& c : cases)
        hits += bool(kernel(c));
    timeKernel(state, cases, kernel, timePerCase);
    state.counters["hit_fraction"] = double(hits) / double(cases.size());
}

}  // namespace analytic::bench

// Registers bench<kernel>, a function template on the scalar, for float and double as BM_<kernel>Float and
// BM_<kernel>Double.
#define ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(kernel)                        \
    BENCHMARK_TEMPLATE(bench##kernel, float)->Name("BM_" #kernel "Float"); \
    BENCHMARK_TEMPLATE(bench##kernel, double)->Name("BM_" #kernel "Double")
