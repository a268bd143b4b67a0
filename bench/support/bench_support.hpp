// SPDX-License-Identifier: Zlib
// Shared by the benchmarks: the geometry benchmarks each time one kernel over a fixed set of pre-generated
// random cases, report the time per case, and are registered for float and double; the scene benchmarks
// take medians and minima of repetitions and parse their options. Every benchmark with Bullet's path beside
// ours records its side-by-side figures with recordRatio, for scripts/bench.sh's one table.
#pragma once

#include <LinearMath/btScalar.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "support/json_string.hpp"
#include "support/test_support.hpp"

namespace analytic::bench {

// What the compiler targeted for our code (Bullet is Debian's library, built for generic x86-64).
inline const char* instructionSet() {
#if defined(__AVX512F__)
    return "AVX-512F";
#elif defined(__AVX2__) && defined(__FMA__)
    return "AVX2 + FMA";
#elif defined(__AVX2__)
    return "AVX2";
#elif defined(__AVX__)
    return "AVX";
#elif defined(__SSE4_2__)
    return "SSE4.2";
#elif defined(__SSE4_1__)
    return "SSE4.1";
#elif defined(__SSE3__)
    return "SSE3";
#elif defined(__SSE2__)
    return "SSE2 (generic x86-64)";
#else
    return "no SSE2 (not x86-64?)";
#endif
}

// Bullet's scalar, as the figures name it: "float" or "double".
inline const char* bulletScalar() { return sizeof(btScalar) == sizeof(double) ? "double" : "float"; }

// Which way a unit is better: times are better lower, rates higher.
enum class Better { Lower, Higher };

// One row of the side-by-side table that bench/report (scripts/bench.sh) turns into ratios: the figure of
// Bullet's path and of ours for one case of a group, in `unit`. When the environment variable
// ANALYTIC_BENCH_RESULTS names a file, appends the row to it as one JSON line, with Bullet's scalar and the
// instruction set our code was compiled for; does nothing otherwise. A non-finite figure is written as null
// (the report shows the row as n/a). Prints a message and carries on if the file cannot be opened.
inline void recordRatio(std::string_view group, std::string_view caseName, std::string_view unit,
                        Better better, double bullet, double ours) {
    const char* path = std::getenv("ANALYTIC_BENCH_RESULTS");
    if (!path || !*path) return;
    const auto number = [](double value) {
        char text[32] = "null";
        if (std::isfinite(value)) std::snprintf(text, sizeof text, "%.9g", value);
        return std::string(text);
    };
    const std::string line = "{\"group\": " + jsonString(group) + ", \"case\": " + jsonString(caseName) +
                             ", \"unit\": " + jsonString(unit) + ", \"better\": \"" +
                             (better == Better::Lower ? "lower" : "higher") +
                             "\", \"bullet\": " + number(bullet) + ", \"ours\": " + number(ours) +
                             ", \"scalar\": " + jsonString(bulletScalar()) +
                             ", \"instruction_set\": " + jsonString(instructionSet()) + "}\n";
    std::FILE* file = std::fopen(path, "a");
    if (!file) {
        std::fprintf(stderr, "recordRatio: cannot open %s for appending; the row is not recorded\n", path);
        return;
    }
    std::fputs(line.c_str(), file);
    std::fclose(file);
}

inline double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

inline double minimum(const std::vector<double>& values) {
    return *std::min_element(values.begin(), values.end());
}

// A command line option's positive number; exits with a message otherwise.
inline int parsePositive(const char* text, const char* flag) {
    const int value = std::atoi(text);
    if (value <= 0) {
        std::fprintf(stderr, "%s needs a positive number\n", flag);
        std::exit(2);
    }
    return value;
}

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

// Ours beside Bullet's counterpart for one kernel, by the names of the two benchmarks (with their
// arguments, e.g. "BM_RayTrianglePreparedFloat/100").
struct KernelPair {
    const char* caseName;
    std::string bullet;
    std::string ours;
};

// The name of our kernel's benchmark registered by ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE in Bullet's scalar.
inline std::string inBulletScalar(const std::string& kernel) {
    return "BM_" + kernel + (sizeof(btScalar) == sizeof(double) ? "Double" : "Float");
}

// The console's report, keeping for each benchmark the median over repetitions (or the single run's
// value) of its counter `counter` (a time per case, from timeKernel).
class CounterReporter : public benchmark::ConsoleReporter {
public:
    explicit CounterReporter(std::string counter) : counter_(std::move(counter)) {}

    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            const auto value = run.counters.find(counter_);
            if (run.error_occurred || value == run.counters.end()) continue;
            const bool single = run.run_type == Run::RT_Iteration && run.repetitions <= 1;
            if (!single && run.aggregate_name != "median") continue;
            const std::string& arguments = run.run_name.args;
            values_[run.run_name.function_name + (arguments.empty() ? "" : "/" + arguments)] = value->second;
        }
    }

    // The kept value, or NaN for a benchmark that did not run.
    double value(const std::string& name) const {
        const auto found = values_.find(name);
        return found == values_.end() ? std::nan("") : found->second;
    }

private:
    std::string counter_;
    std::map<std::string, double> values_;
};

// main() for a kernel benchmark with Bullet's counterparts: runs the benchmarks the command line selects
// (their time per case in the counter timePerCase), then prints ours beside Bullet's for each pair (ns per
// case, the median over repetitions) and records them with recordRatio (group "kernels").
inline int runKernelBenchmarks(int argc, char** argv, const std::vector<KernelPair>& pairs,
                               const char* timePerCase = "ns_per_test") {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    CounterReporter reporter(timePerCase);
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    std::printf(
        "\nns per test, median over repetitions, Bullet %s; our code compiled for %s\n%-38s %10s %10s %8s\n",
        bulletScalar(), instructionSet(), "kernel", "Bullet", "ours", "ratio");
    for (const KernelPair& pair : pairs) {
        const double bullet = 1e9 * reporter.value(pair.bullet), ours = 1e9 * reporter.value(pair.ours);
        if (std::isnan(bullet) || std::isnan(ours)) continue;
        std::printf("%-38s %10.2f %10.2f %7.2fx\n", pair.caseName, bullet, ours, bullet / ours);
        recordRatio("kernels", pair.caseName, "ns per test, median", Better::Lower, bullet, ours);
    }
    std::printf("ratio: Bullet's time / ours\n");
    return 0;
}

}  // namespace analytic::bench

// Registers bench<kernel>, a function template on the scalar, for float and double as BM_<kernel>Float and
// BM_<kernel>Double.
#define ANALYTIC_BENCHMARK_FLOAT_AND_DOUBLE(kernel)                        \
    BENCHMARK_TEMPLATE(bench##kernel, float)->Name("BM_" #kernel "Float"); \
    BENCHMARK_TEMPLATE(bench##kernel, double)->Name("BM_" #kernel "Double")
