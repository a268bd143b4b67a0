// SPDX-License-Identifier: Zlib
// The one table of the benchmarks' ratios (scripts/bench.sh runs it after the benchmarks): reads the rows
// that the benchmarks appended to a JSON-lines file (bench_support.hpp: recordRatio), prints the table, and
// writes it as ratios.md, ratios.json and a bar chart, ratios.png, with the date, the machine, the
// instruction set, the compiler and the build.
//
// Usage: bench_report ROWS.jsonl [OUTPUT FOLDER (default: the rows' folder)]
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "report/report.hpp"

#ifndef ANALYTIC_BUILD_TYPE
#define ANALYTIC_BUILD_TYPE "build type not recorded"
#endif

namespace {

using namespace analytic::bench::report;

std::string utcNow() {
    const std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &utc);
    return text;
}

std::string cpuModel() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line))
        if (line.rfind("model name", 0) == 0) {
            const std::size_t colon = line.find(':');
            if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
        }
    return "CPU model not found in /proc/cpuinfo";
}

std::string compiler() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("g++ ") + __VERSION__;
#else
    return "compiler not recorded";
#endif
}

bool writeText(const std::filesystem::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::binary);
    file << text;
    return bool(file.flush());
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::cerr << "usage: " << argv[0] << " ROWS.jsonl [OUTPUT FOLDER (default: the rows' folder)]\n";
        return 2;
    }
    const std::filesystem::path rowsPath = argv[1];
    std::ifstream input(rowsPath);
    if (!input) {
        std::cerr << "cannot read " << rowsPath << "\n";
        return 2;
    }
    const Parsed parsed = parseRows(input);
    for (const std::string& message : parsed.messages)
        std::cerr << rowsPath.string() << ": " << message << "\n";
    if (parsed.rows.empty()) {
        std::cerr << rowsPath.string() << ": no rows; nothing written\n";
        return 1;
    }

    RunInfo info;
    info.date = utcNow();
    info.cpu = cpuModel();
    info.cores = std::max(1u, std::thread::hardware_concurrency());
    info.compiler = compiler();
    info.buildType = ANALYTIC_BUILD_TYPE;
    describeRows(parsed.rows, info);

    const std::filesystem::path output = argc == 3 ? std::filesystem::path(argv[2]) : rowsPath.parent_path();
    std::error_code error;
    if (!output.empty()) std::filesystem::create_directories(output, error);
    const std::string table = markdownTable(parsed.rows, info);
    std::cout << table << "\n";
    const auto md = output / "ratios.md", json = output / "ratios.json", png = output / "ratios.png";
    bool written = writeText(md, table);
    written = writeText(json, jsonReport(parsed.rows, info)) && written;
    written = writePng(png.string(), drawChart(parsed.rows, info)) && written;
    if (!written) {
        std::cerr << "could not write every file into " << (output.empty() ? "." : output.string()) << "\n";
        return 2;
    }
    std::cout << "table: " << md.string() << "\nJSON: " << json.string() << "\nchart: " << png.string()
              << "\n";
    return 0;
}
