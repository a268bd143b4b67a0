// SPDX-License-Identifier: Zlib
// The one table of the benchmarks' side-by-side figures (rows that bench_support.hpp's recordRatio
// appends as JSON lines): ratios, a markdown table, a JSON file and a bar chart. No Bullet here: the rows
// say which scalar and instruction set they were measured with.
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace analytic::bench::report {

// One row as read: a case of a group, Bullet's figure and ours in `unit`, which way is better.
struct Row {
    std::string group;
    std::string caseName;
    std::string unit;
    std::string better;  // "lower" (times) or "higher" (rates); anything else gives no ratio
    std::optional<double> bullet;
    std::optional<double> ours;
    std::string scalar;           // Bullet's: "float" or "double"
    std::string instructionSet;   // what our code was compiled for
    std::optional<double> ratio;  // > 1: ours faster; empty when the row's figures give none (n/a)
    std::string problem;          // why there is no ratio
};

// A JSON line's object: string values by key, and the keys whose value was not a string (numbers, null,
// true, false, or a bare token that is none of these: kept as its text). Returns nothing, with a reason in
// `error`, when the line is not a flat JSON object.
struct FlatObject {
    std::vector<std::pair<std::string, std::string>> strings;
    std::vector<std::pair<std::string, std::string>> tokens;
};
std::optional<FlatObject> parseFlatObject(std::string_view line, std::string& error);

// Bullet's figure over ours for a time, ours over Bullet's for a rate: > 1 means ours is faster. Nothing
// (with the reason in `problem`) when a figure is missing, not a finite positive number, `better` is
// neither "lower" nor "higher", or the quotient is not finite.
std::optional<double> ratioOf(const std::optional<double>& bullet, const std::optional<double>& ours,
                              std::string_view better, std::string& problem);

// The rows of a JSON-lines text, in order, their ratios computed. Blank lines are skipped. A line that is
// not a flat JSON object, or lacks a group or case, is left out with a message; a row whose figures give
// no ratio is kept (shown as n/a) with a message. Messages name the line.
struct Parsed {
    std::vector<Row> rows;
    std::vector<std::string> messages;
};
Parsed parseRows(std::istream& input);

// Where and how the rows were measured.
struct RunInfo {
    std::string date;            // UTC, ISO 8601
    std::string cpu;             // /proc/cpuinfo's model name
    unsigned cores = 0;          // what the machine offers
    std::string instructionSet;  // the rows' (joined if they differ)
    std::string scalar;          // the rows' Bullet scalar (joined if they differ)
    std::string compiler;
    std::string buildType;
};

// The rows' instruction sets and scalars, distinct ones joined by " / " in order of appearance.
void describeRows(const std::vector<Row>& rows, RunInfo& info);

// A figure with three or four significant digits (no exponent for the figures benchmarks give).
std::string formatFigure(double value);

// The table in markdown: a line on the run, then a row per case (group, case, Bullet, ours, unit, ratio);
// n/a where there is no ratio.
std::string markdownTable(const std::vector<Row>& rows, const RunInfo& info);

// The run and its rows as JSON (one row object per line; null for figures and ratios that are missing).
std::string jsonReport(const std::vector<Row>& rows, const RunInfo& info);

// An RGB image, 3 bytes a pixel, rows top to bottom.
struct Image {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;
};

// A horizontal bar chart of the ratios on a log scale with a line at 1x, a bar per row from 1x (green:
// ours faster, red: slower), its label and ratio written beside it; a row without a ratio gets "n/a" and no
// bar. Group names head their rows. The scale spans the ratios (at least 0.5x to 2x); bars beyond 1024x or
// below 1/1024x are cut at the edge (their text gives the ratio).
Image drawChart(const std::vector<Row>& rows, const RunInfo& info);

// Writes the image as a PNG; false if it cannot.
bool writePng(const std::string& path, const Image& image);

}  // namespace analytic::bench::report
