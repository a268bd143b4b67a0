// SPDX-License-Identifier: Zlib
// The benchmark report (bench/report) on a fixed file of rows, good and hostile: the ratios, the markdown
// table, the JSON read back, and the chart decoded. Runs no benchmark.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>

#include "report/report.hpp"

namespace {

using namespace analytic::bench::report;

Parsed fixedRows() {
    std::ifstream input(REPORT_ROWS);
    EXPECT_TRUE(input) << REPORT_ROWS;
    return parseRows(input);
}

RunInfo fixedInfo(const std::vector<Row>& rows) {
    RunInfo info;
    info.date = "2026-11-27 12:00 UTC";
    info.cpu = "Test CPU";
    info.cores = 2;
    info.compiler = "g++ test";
    info.buildType = "Release";
    describeRows(rows, info);
    return info;
}

const Row* find(const std::vector<Row>& rows, const std::string& caseName) {
    for (const Row& row : rows)
        if (row.caseName == caseName) return &row;
    return nullptr;
}

TEST(BenchReport, RatiosAreBulletOverOursForTimesAndOursOverBulletForRates) {
    const Parsed parsed = fixedRows();
    ASSERT_EQ(parsed.rows.size(), 15u);
    const std::map<std::string, double> expected{{"sphere-box", 250.0 / 50},
                                                 {"box-plane", 90.0 / 120},
                                                 {"batch, 1 thread", 3.5 / 0.25},
                                                 {"pipe | and \"quote\"", 1.0 / 2},
                                                 {"ratio far beyond the scale", 1e6}};
    int withRatio = 0;
    for (const Row& row : parsed.rows) {
        const auto found = expected.find(row.caseName);
        if (found == expected.end()) {
            EXPECT_FALSE(row.ratio) << row.caseName;
            EXPECT_FALSE(row.problem.empty()) << row.caseName;
            continue;
        }
        ASSERT_TRUE(row.ratio) << row.caseName << ": " << row.problem;
        EXPECT_NEAR(*row.ratio, found->second, 1e-12 * found->second) << row.caseName;
        ++withRatio;
    }
    EXPECT_EQ(withRatio, 5);
    EXPECT_EQ(find(parsed.rows, "sphere-box")->group, "contact pairs");
    EXPECT_EQ(find(parsed.rows, "sphere-box")->unit, "ns per pair, median");
}

TEST(BenchReport, HostileRowsAreNamedInMessagesAndBadLinesLeftOut) {
    const Parsed parsed = fixedRows();
    ASSERT_EQ(parsed.messages.size(), 15u);
    std::string all;
    for (const std::string& message : parsed.messages)
        all += message + "\n";
    for (const char* expected :
         {"line 6 (hostile, NaN figure): n/a: \"bullet\" is not finite",
          "line 7 (hostile, null figure): n/a: \"ours\" is null", "line 8 (hostile, zero figure): n/a",
          "line 9 (hostile, negative figure): n/a: Bullet's figure is not positive",
          "line 10 (hostile, missing figure): n/a: no \"ours\" figure",
          "line 11 (hostile, unknown direction): n/a: \"better\" is neither",
          "line 12 (hostile, figure as text): n/a: \"bullet\" is a string",
          "line 13 (hostile, infinite figure): n/a: \"bullet\" is not finite",
          "line 14 (hostile, ratio overflows): n/a: the ratio is out of range",
          "line 16 (hostile, not a number): n/a: \"bullet\" is not a number: 12abc",
          "line 17: no \"group\" or \"case\" text; left out", "line 18: not a row", "line 19: not a row",
          "line 20: not a row (nested", "line 21: not a row"})
        EXPECT_NE(all.find(expected), std::string::npos) << expected << "\nin:\n" << all;
    // Rows without a ratio keep no figure that is not finite.
    for (const Row& row : parsed.rows) {
        EXPECT_TRUE(!row.bullet || std::isfinite(*row.bullet)) << row.caseName;
        EXPECT_TRUE(!row.ours || std::isfinite(*row.ours)) << row.caseName;
    }
}

TEST(BenchReport, EmptyInputGivesNoRowsAndAChartSayingSo) {
    std::istringstream input("\n  \n");
    const Parsed parsed = parseRows(input);
    EXPECT_TRUE(parsed.rows.empty());
    EXPECT_TRUE(parsed.messages.empty());
    const Image image = drawChart(parsed.rows, fixedInfo(parsed.rows));
    EXPECT_GT(image.width, 0);
    EXPECT_GT(image.height, 0);
    EXPECT_EQ(image.pixels.size(), std::size_t(image.width) * std::size_t(image.height) * 3);
}

TEST(BenchReport, MarkdownTableHasARowPerCaseAndNaWhereThereIsNoRatio) {
    const Parsed parsed = fixedRows();
    const RunInfo info = fixedInfo(parsed.rows);
    EXPECT_EQ(info.instructionSet, "SSE2 (generic x86-64)");
    EXPECT_EQ(info.scalar, "float");
    const std::string table = markdownTable(parsed.rows, info);
    for (const char* expected :
         {"| group | case | Bullet | ours | unit | ratio (> 1: ours faster) |",
          "| contact pairs | sphere-box | 250.0 | 50.00 | ns per pair, median | 5.00x |",
          "| contact pairs | box-plane | 90.00 | 120.0 | ns per pair, median | 0.75x |",
          "| rays, scene P | batch, 1 thread | 0.25 | 3.500 | M rays/s, median | 14.00x |",
          "| rays, scene P | pipe \\| and \"quote\" | 2.000 | 1.000 | M rays/s, median | 0.50x |",
          "| hostile | NaN figure | n/a | 1.000 | ms | n/a |",
          "| hostile | zero figure | 1.000 | 0 | ms | n/a |",
          "| hostile | ratio far beyond the scale | 1000000 | 1.000 | ms | 1000000x |",
          "2026-11-27 12:00 UTC", "Test CPU, 2 cores", "SSE2 (generic x86-64)"})
        EXPECT_NE(table.find(expected), std::string::npos) << expected << "\nin:\n" << table;
    // A header, its rule and a line per row.
    int tableLines = 0;
    std::istringstream lines(table);
    for (std::string line; std::getline(lines, line);)
        tableLines += line.rfind("| ", 0) == 0 || line.rfind("|---", 0) == 0;
    EXPECT_EQ(tableLines, 2 + 15);
}

TEST(BenchReport, JsonRowsReadBackWithTheirRatios) {
    const Parsed parsed = fixedRows();
    const std::string json = jsonReport(parsed.rows, fixedInfo(parsed.rows));
    for (const char* expected :
         {"\"date\": \"2026-11-27 12:00 UTC\"", "\"cpu\": \"Test CPU\", \"cores\": 2",
          "\"instruction_set\": \"SSE2 (generic x86-64)\"", "\"bullet_scalar\": \"float\"",
          "\"build_type\": \"Release\"", "\"rows\": ["})
        EXPECT_NE(json.find(expected), std::string::npos) << expected;
    // Each row is an object on its own line: read them back with the rows' own reader.
    std::istringstream lines(json);
    std::vector<FlatObject> rows;
    for (std::string line; std::getline(lines, line);) {
        if (line.rfind("    {", 0) != 0) continue;
        if (line.back() == ',') line.pop_back();
        std::string error;
        const std::optional<FlatObject> object = parseFlatObject(line, error);
        ASSERT_TRUE(object) << error << ": " << line;
        rows.push_back(*object);
    }
    ASSERT_EQ(rows.size(), parsed.rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        std::map<std::string, std::string> strings(rows[i].strings.begin(), rows[i].strings.end());
        std::map<std::string, std::string> tokens(rows[i].tokens.begin(), rows[i].tokens.end());
        // Every value that is not text is null or a finite number (JSON has no NaN or infinity).
        for (const auto& [key, token] : tokens) {
            char* end = nullptr;
            const double value = std::strtod(token.c_str(), &end);
            EXPECT_TRUE(token == "null" || (end == token.c_str() + token.size() && std::isfinite(value)))
                << key << ": " << token;
        }
        EXPECT_EQ(strings["group"], parsed.rows[i].group);
        EXPECT_EQ(strings["case"], parsed.rows[i].caseName);
        ASSERT_EQ(tokens.count("ratio"), 1u);
        if (parsed.rows[i].ratio)
            EXPECT_NEAR(std::strtod(tokens["ratio"].c_str(), nullptr), *parsed.rows[i].ratio,
                        1e-8 * *parsed.rows[i].ratio);
        else
            EXPECT_EQ(tokens["ratio"], "null");
    }
}

// Bars are the only pixels in the two bar colours: count the bars as runs of rows holding such pixels.
TEST(BenchReport, ChartDecodesWithABarPerRatioAndNoneForNa) {
    const Parsed parsed = fixedRows();
    const Image image = drawChart(parsed.rows, fixedInfo(parsed.rows));
    const std::filesystem::path path = std::filesystem::temp_directory_path() / "bench_report_test.png";
    ASSERT_TRUE(writePng(path.string(), image));
    int width = 0, height = 0, channels = 0;
    stbi_uc* decoded = stbi_load(path.string().c_str(), &width, &height, &channels, 3);
    ASSERT_NE(decoded, nullptr) << stbi_failure_reason();
    std::filesystem::remove(path);
    EXPECT_EQ(width, image.width);
    EXPECT_EQ(height, image.height);
    EXPECT_EQ(channels, 3);
    EXPECT_GE(width, 600);
    EXPECT_GE(height, 15 * 20);
    int dark = 0, bars = 0, green = 0, red = 0;
    bool previousRowHadBar = false;
    for (int y = 0; y < height; ++y) {
        bool rowHasBar = false;
        for (int x = 0; x < width; ++x) {
            const stbi_uc* p = decoded + (std::size_t(y) * std::size_t(width) + std::size_t(x)) * 3;
            dark += p[0] < 128 && p[1] < 128 && p[2] < 128;
            const bool isGreen = p[0] == 46 && p[1] == 150 && p[2] == 70;
            const bool isRed = p[0] == 205 && p[1] == 65 && p[2] == 60;
            green += isGreen;
            red += isRed;
            rowHasBar = rowHasBar || isGreen || isRed;
        }
        bars += rowHasBar && !previousRowHadBar;
        previousRowHadBar = rowHasBar;
    }
    stbi_image_free(decoded);
    EXPECT_GT(dark, 2000);  // text was drawn
    EXPECT_EQ(bars, 5);     // the five rows with a ratio; none for the n/a rows
    EXPECT_GT(green, 0);    // ours faster
    EXPECT_GT(red, 0);      // ours slower
}

// Mutations of a good row (characters deleted, inserted, replaced): every line is read or left out with
// a message, every ratio kept is finite and positive, and the outputs are made from whatever is kept.
TEST(BenchReport, MutatedRowsNeverGiveANonFiniteRatio) {
    const std::string good =
        "{\"group\": \"g\", \"case\": \"c\", \"unit\": \"ms\", \"better\": \"lower\", \"bullet\": 2.5e1, "
        "\"ours\": 5, \"scalar\": \"float\", \"instruction_set\": \"SSE2\"}";
    const std::string alphabet = "{}[]\":,.-+eE0123456789 naifnlowerhigh\\u\xc3\xa9\t";
    std::mt19937 random(7);
    const auto pick = [&](std::size_t count) { return std::size_t(random() % count); };
    std::string lines;
    for (int i = 0; i < 3000; ++i) {
        std::string line = good;
        for (int edits = 1 + int(pick(4)); edits > 0; --edits) {
            const std::size_t at = pick(line.size() + 1);
            const char c = alphabet[pick(alphabet.size())];
            switch (pick(3)) {
                case 0:
                    if (at < line.size()) line.erase(at, 1);
                    break;
                case 1:
                    line.insert(line.begin() + std::ptrdiff_t(at), c);
                    break;
                default:
                    if (at < line.size()) line[at] = c;
            }
        }
        lines += line + "\n";
    }
    std::istringstream input(lines);
    Parsed parsed = parseRows(input);
    EXPECT_GT(parsed.rows.size(), 100u);
    EXPECT_GT(parsed.messages.size(), 100u);
    for (const Row& row : parsed.rows) {
        EXPECT_TRUE(!row.ratio || (std::isfinite(*row.ratio) && *row.ratio > 0)) << row.caseName;
        EXPECT_TRUE(row.ratio || !row.problem.empty()) << row.caseName;
    }
    parsed.rows.resize(std::min<std::size_t>(parsed.rows.size(), 200));
    const RunInfo info = fixedInfo(parsed.rows);
    EXPECT_FALSE(markdownTable(parsed.rows, info).empty());
    EXPECT_FALSE(jsonReport(parsed.rows, info).empty());
    const Image image = drawChart(parsed.rows, info);
    EXPECT_EQ(image.pixels.size(), std::size_t(image.width) * std::size_t(image.height) * 3);
}

// Long names are cut to the label column; text outside ASCII is drawn as '?'.
TEST(BenchReport, LongAndNonAsciiNamesKeepTheChartsWidth) {
    std::istringstream shortNames(
        "{\"group\": \"g\", \"case\": \"c\", \"better\": \"lower\", \"bullet\": 2, \"ours\": 1}\n");
    std::istringstream longNames(
        "{\"group\": \"g\", \"case\": \"" + std::string(500, 'x') +
        " \u00b5s \xc2\xb5s\", \"better\": \"lower\", \"bullet\": 2, \"ours\": 1}\n");
    const Parsed a = parseRows(shortNames), b = parseRows(longNames);
    ASSERT_EQ(a.rows.size(), 1u);
    ASSERT_EQ(b.rows.size(), 1u);
    const Image small = drawChart(a.rows, fixedInfo(a.rows)), large = drawChart(b.rows, fixedInfo(b.rows));
    EXPECT_LE(large.width, small.width + 44 * 12);
    EXPECT_EQ(large.height, small.height);
}

}  // namespace
