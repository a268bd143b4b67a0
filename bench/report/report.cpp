// SPDX-License-Identifier: Zlib
#include "report/report.hpp"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#include <stb/stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "report/font.hpp"
#include "support/json_string.hpp"

namespace analytic::bench::report {
namespace {

bool isSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

void skipSpace(std::string_view text, std::size_t& at) {
    while (at < text.size() && isSpace(text[at]))
        ++at;
}

// A JSON string starting at the quote at `at`; moves past its closing quote. \u escapes outside ASCII
// become '?' (the report's text is ASCII).
std::optional<std::string> parseString(std::string_view text, std::size_t& at, std::string& error) {
    std::string out;
    for (++at; at < text.size(); ++at) {
        const char c = text[at];
        if (c == '"') {
            ++at;
            return out;
        }
        if (c != '\\') {
            out += c;
            continue;
        }
        if (++at == text.size()) break;
        switch (text[at]) {
            case 'n':
                out += '\n';
                break;
            case 't':
                out += '\t';
                break;
            case 'r':
                out += '\r';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'u': {
                if (at + 4 >= text.size()) {
                    error = "a \\u escape is cut short";
                    return std::nullopt;
                }
                const std::string hex(text.substr(at + 1, 4));
                char* end = nullptr;
                const long code = std::strtol(hex.c_str(), &end, 16);
                if (end != hex.c_str() + 4) {
                    error = "a \\u escape is not 4 hex digits";
                    return std::nullopt;
                }
                out += code < 0x80 ? char(code) : '?';
                at += 4;
                break;
            }
            default:
                out += text[at];  // \" \\ \/
        }
    }
    error = "a string is not closed";
    return std::nullopt;
}

// Markdown table cells: no pipes or line breaks of their own.
std::string escapeCell(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (c == '|')
            out += "\\|";
        else
            out += c == '\n' || c == '\r' ? ' ' : c;
    }
    return out;
}

const std::string* stringOf(const FlatObject& object, std::string_view key) {
    for (const auto& [name, value] : object.strings)
        if (name == key) return &value;
    return nullptr;
}

// A row's figure under `key`; nothing, with the reason added to `problem`, when it is missing, null, not a
// number or not finite.
std::optional<double> figureOf(const FlatObject& object, std::string_view key, std::string& problem) {
    const auto note = [&](const std::string& reason) {
        if (problem.empty()) problem = reason;
        return std::nullopt;
    };
    const std::string name = "\"" + std::string(key) + "\"";
    if (stringOf(object, key)) return note(name + " is a string, not a number");
    for (const auto& [tokenKey, token] : object.tokens) {
        if (tokenKey != key) continue;
        if (token == "null") return note(name + " is null (not measured, or not finite when measured)");
        char* end = nullptr;
        const double value = std::strtod(token.c_str(), &end);
        if (token.empty() || end != token.c_str() + token.size())
            return note(name + " is not a number: " + token);
        if (!std::isfinite(value)) return note(name + " is not finite: " + token);
        return value;
    }
    return note("no " + name + " figure");
}

std::string formatRatio(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, ratio >= 100 ? "%.0fx" : ratio >= 0.1 ? "%.2fx" : "%.3gx", ratio);
    return text;
}

// ------------------------------------------------------------------------------------------------
// Drawing.

struct Color {
    std::uint8_t r, g, b;
};

constexpr Color kBackground{255, 255, 255};
constexpr Color kText{30, 30, 30};
constexpr Color kMuted{130, 130, 130};
constexpr Color kGrid{225, 225, 225};
constexpr Color kOneLine{60, 60, 60};
constexpr Color kFaster{46, 150, 70};
constexpr Color kSlower{205, 65, 60};
constexpr Color kGroup{25, 70, 150};

constexpr int kScale = 2;                             // font pixels per glyph cell
constexpr int kAdvance = (kGlyphWidth + 1) * kScale;  // a character's width with its gap
constexpr int kTextHeight = kGlyphHeight * kScale;    // including descenders
constexpr int kMargin = 16;
constexpr int kRowHeight = 24;
constexpr int kGroupHeight = 30;
constexpr int kBarHeight = 14;
constexpr int kBarWidth = 640;
constexpr int kMaxLabelChars = 44;
constexpr int kValueChars = 8;
constexpr int kLowestPower = -10, kHighestPower = 10;  // the scale's reach, powers of two

class Canvas {
public:
    Canvas(int width, int height) {
        image_.width = width;
        image_.height = height;
        image_.pixels.resize(std::size_t(width) * std::size_t(height) * 3);
        fill(0, 0, width, height, kBackground);
    }

    void fill(int x, int y, int width, int height, Color color) {
        const int x0 = std::max(x, 0), y0 = std::max(y, 0);
        const int x1 = std::min(x + width, image_.width), y1 = std::min(y + height, image_.height);
        for (int row = y0; row < y1; ++row)
            for (int column = x0; column < x1; ++column) {
                std::uint8_t* pixel =
                    &image_.pixels[(std::size_t(row) * std::size_t(image_.width) + std::size_t(column)) * 3];
                pixel[0] = color.r;
                pixel[1] = color.g;
                pixel[2] = color.b;
            }
    }

    // Text with its top left at (x, y), cut to maxChars (ending in ".." when cut); bold draws it twice, a
    // pixel apart. Returns the width drawn.
    int text(int x, int y, std::string_view text, Color color, std::size_t maxChars = 1000,
             bool bold = false) {
        std::string shown = asciiOf(text);
        if (shown.size() > maxChars) shown = shown.substr(0, maxChars >= 2 ? maxChars - 2 : 0) + "..";
        for (std::size_t i = 0; i < shown.size(); ++i) {
            const std::string_view glyph = glyphOf(shown[i]);
            for (int row = 0; row < kGlyphHeight; ++row)
                for (int column = 0; column < kGlyphWidth; ++column)
                    if (glyph[std::size_t(row * (kGlyphWidth + 1) + column)] == '#') {
                        const int px = x + int(i) * kAdvance + column * kScale, py = y + row * kScale;
                        fill(px, py, kScale + (bold ? 1 : 0), kScale, color);
                    }
        }
        return int(shown.size()) * kAdvance;
    }

    Image take() { return std::move(image_); }

private:
    // One '?' for each character outside printable ASCII (a UTF-8 sequence counts once).
    static std::string asciiOf(std::string_view text) {
        std::string out;
        for (const char c : text) {
            const auto code = static_cast<unsigned char>(c);
            if (code >= 0x80 && code < 0xC0) continue;  // a UTF-8 continuation byte
            out += code >= 32 && code < 127 ? c : '?';
        }
        return out;
    }

    Image image_;
};

std::string tickLabel(int power) {
    if (power >= 0) return std::to_string(1 << power) + "x";
    if (power == -1) return "0.5x";
    return "1/" + std::to_string(1 << -power) + "x";
}

}  // namespace

std::optional<FlatObject> parseFlatObject(std::string_view line, std::string& error) {
    FlatObject object;
    std::size_t at = 0;
    skipSpace(line, at);
    if (at == line.size() || line[at] != '{') {
        error = "not a JSON object";
        return std::nullopt;
    }
    ++at;
    skipSpace(line, at);
    if (at < line.size() && line[at] == '}') {
        ++at;
    } else {
        while (true) {
            skipSpace(line, at);
            if (at == line.size() || line[at] != '"') {
                error = "a key is not a string";
                return std::nullopt;
            }
            const std::optional<std::string> key = parseString(line, at, error);
            if (!key) return std::nullopt;
            skipSpace(line, at);
            if (at == line.size() || line[at] != ':') {
                error = "no ':' after a key";
                return std::nullopt;
            }
            ++at;
            skipSpace(line, at);
            if (at == line.size()) {
                error = "a key has no value";
                return std::nullopt;
            }
            if (line[at] == '"') {
                const std::optional<std::string> value = parseString(line, at, error);
                if (!value) return std::nullopt;
                object.strings.emplace_back(*key, *value);
            } else if (line[at] == '{' || line[at] == '[') {
                error = "nested objects and arrays are not read";
                return std::nullopt;
            } else {
                const std::size_t start = at;
                while (at < line.size() && line[at] != ',' && line[at] != '}' && !isSpace(line[at]))
                    ++at;
                if (at == start) {
                    error = "a key has no value";
                    return std::nullopt;
                }
                object.tokens.emplace_back(*key, std::string(line.substr(start, at - start)));
            }
            skipSpace(line, at);
            if (at < line.size() && line[at] == ',') {
                ++at;
                continue;
            }
            if (at < line.size() && line[at] == '}') {
                ++at;
                break;
            }
            error = "no ',' or '}' after a value";
            return std::nullopt;
        }
    }
    skipSpace(line, at);
    if (at != line.size()) {
        error = "text after the object";
        return std::nullopt;
    }
    return object;
}

std::optional<double> ratioOf(const std::optional<double>& bullet, const std::optional<double>& ours,
                              std::string_view better, std::string& problem) {
    const auto fail = [&](const char* reason) {
        if (problem.empty()) problem = reason;
        return std::nullopt;
    };
    if (!bullet || !std::isfinite(*bullet)) return fail("no Bullet figure");
    if (!ours || !std::isfinite(*ours)) return fail("no figure of ours");
    if (!(*bullet > 0)) return fail("Bullet's figure is not positive");
    if (!(*ours > 0)) return fail("our figure is not positive");
    double ratio;
    if (better == "lower")
        ratio = *bullet / *ours;
    else if (better == "higher")
        ratio = *ours / *bullet;
    else
        return fail("\"better\" is neither \"lower\" nor \"higher\"");
    if (!std::isfinite(ratio) || !(ratio > 0)) return fail("the ratio is out of range");
    return ratio;
}

Parsed parseRows(std::istream& input) {
    Parsed parsed;
    std::string line;
    for (int number = 1; std::getline(input, line); ++number) {
        if (std::all_of(line.begin(), line.end(), isSpace)) continue;
        const std::string where = "line " + std::to_string(number);
        std::string error;
        const std::optional<FlatObject> object = parseFlatObject(line, error);
        if (!object) {
            parsed.messages.push_back(where + ": not a row (" + error + "); left out");
            continue;
        }
        const std::string* group = stringOf(*object, "group");
        const std::string* caseName = stringOf(*object, "case");
        if (!group || !caseName || group->empty() || caseName->empty()) {
            parsed.messages.push_back(where + ": no \"group\" or \"case\" text; left out");
            continue;
        }
        Row row;
        row.group = *group;
        row.caseName = *caseName;
        const auto text = [&](std::string_view key) {
            const std::string* value = stringOf(*object, key);
            return value ? *value : std::string();
        };
        row.unit = text("unit");
        row.better = text("better");
        row.scalar = text("scalar");
        row.instructionSet = text("instruction_set");
        row.bullet = figureOf(*object, "bullet", row.problem);
        row.ours = figureOf(*object, "ours", row.problem);
        row.ratio = ratioOf(row.bullet, row.ours, row.better, row.problem);
        if (!row.ratio)
            parsed.messages.push_back(where + " (" + row.group + ", " + row.caseName +
                                      "): n/a: " + row.problem);
        parsed.rows.push_back(std::move(row));
    }
    return parsed;
}

void describeRows(const std::vector<Row>& rows, RunInfo& info) {
    const auto join = [&](std::string Row::*field) {
        std::vector<std::string> seen;
        for (const Row& row : rows)
            if (!(row.*field).empty() && std::find(seen.begin(), seen.end(), row.*field) == seen.end())
                seen.push_back(row.*field);
        std::string joined;
        for (const std::string& value : seen)
            joined += (joined.empty() ? "" : " / ") + value;
        return joined.empty() ? std::string("not recorded") : joined;
    };
    info.instructionSet = join(&Row::instructionSet);
    info.scalar = join(&Row::scalar);
}

std::string formatFigure(double value) {
    if (!std::isfinite(value)) return "n/a";
    const double size = std::abs(value);
    char text[64];
    std::snprintf(text, sizeof text,
                  size >= 1e7    ? "%.3g"
                  : size >= 1000 ? "%.0f"
                  : size >= 100  ? "%.1f"
                  : size >= 10   ? "%.2f"
                  : size >= 1    ? "%.3f"
                                 : "%.3g",
                  value);
    return text;
}

std::string markdownTable(const std::vector<Row>& rows, const RunInfo& info) {
    std::string out = "Date: " + info.date + "; machine: " + info.cpu + ", " + std::to_string(info.cores) +
                      " cores; instruction set: " + info.instructionSet + "; Bullet " + info.scalar + "; " +
                      info.compiler + ", " + info.buildType +
                      ". Bullet's path and ours side by side in one process.\n\n"
                      "| group | case | Bullet | ours | unit | ratio (> 1: ours faster) |\n"
                      "|---|---|---|---|---|---|\n";
    for (const Row& row : rows) {
        const auto figure = [](const std::optional<double>& value) {
            return value ? formatFigure(*value) : std::string("n/a");
        };
        out += "| " + escapeCell(row.group) + " | " + escapeCell(row.caseName) + " | " + figure(row.bullet) +
               " | " + figure(row.ours) + " | " + escapeCell(row.unit) + " | " +
               (row.ratio ? formatRatio(*row.ratio) : std::string("n/a")) + " |\n";
    }
    out +=
        "\nratio: Bullet's figure / ours for times, ours / Bullet's for rates; > 1 means ours is faster.\n";
    return out;
}

std::string jsonReport(const std::vector<Row>& rows, const RunInfo& info) {
    const auto number = [](const std::optional<double>& value) {
        if (!value || !std::isfinite(*value)) return std::string("null");
        char text[32];
        std::snprintf(text, sizeof text, "%.9g", *value);
        return std::string(text);
    };
    std::string out = "{\n  \"date\": " + jsonString(info.date) +
                      ",\n  \"machine\": {\"cpu\": " + jsonString(info.cpu) +
                      ", \"cores\": " + std::to_string(info.cores) +
                      "},\n  \"instruction_set\": " + jsonString(info.instructionSet) +
                      ",\n  \"bullet_scalar\": " + jsonString(info.scalar) +
                      ",\n  \"compiler\": " + jsonString(info.compiler) +
                      ",\n  \"build_type\": " + jsonString(info.buildType) + ",\n  \"ratio\": " +
                      jsonString(
                          "Bullet's figure / ours for times, ours / Bullet's for rates: > 1 means "
                          "ours is faster") +
                      ",\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& row = rows[i];
        out += "    {\"group\": " + jsonString(row.group) + ", \"case\": " + jsonString(row.caseName) +
               ", \"unit\": " + jsonString(row.unit) + ", \"better\": " + jsonString(row.better) +
               ", \"bullet\": " + number(row.bullet) + ", \"ours\": " + number(row.ours) +
               ", \"ratio\": " + number(row.ratio) + ", \"scalar\": " + jsonString(row.scalar) +
               ", \"instruction_set\": " + jsonString(row.instructionSet) +
               ", \"problem\": " + jsonString(row.problem) + "}" + (i + 1 < rows.size() ? "," : "") + "\n";
    }
    return out + "  ]\n}\n";
}

Image drawChart(const std::vector<Row>& rows, const RunInfo& info) {
    // The scale: whole powers of two spanning the ratios and 0.5x to 2x, within the reach.
    int lowPower = -1, highPower = 1;
    std::size_t longestLabel = 0;
    for (const Row& row : rows) {
        longestLabel = std::max(longestLabel, row.caseName.size() + 2);
        longestLabel = std::max(longestLabel, row.group.size());
        if (!row.ratio) continue;
        const double power = std::log2(*row.ratio);
        lowPower = std::min(lowPower, int(std::max(double(kLowestPower), std::floor(power))));
        highPower = std::max(highPower, int(std::min(double(kHighestPower), std::ceil(power))));
    }
    const int labelChars = int(std::min<std::size_t>(longestLabel, kMaxLabelChars));
    const int barLeft = kMargin + labelChars * kAdvance + kMargin;
    const int barRight = barLeft + kBarWidth;
    const int width = barRight + kMargin + kValueChars * kAdvance + kMargin;
    const int headerHeight = kMargin + 3 * kRowHeight + 8;
    int height = headerHeight;
    std::string group;
    for (const Row& row : rows) {
        if (row.group != group) height += kGroupHeight;
        group = row.group;
        height += kRowHeight;
    }
    if (rows.empty()) height += kRowHeight;
    const int axisTop = height;
    height += kRowHeight + kMargin;

    Canvas canvas(width, height);
    const std::size_t lineChars = std::size_t((width - 2 * kMargin) / kAdvance);
    canvas.text(kMargin, kMargin, "Ours against Bullet's path: speed ratio (> 1: ours faster), log scale",
                kText, lineChars, true);
    canvas.text(kMargin, kMargin + kRowHeight,
                info.date + ", " + info.cpu + ", " + std::to_string(info.cores) + " cores", kMuted,
                lineChars);
    canvas.text(
        kMargin, kMargin + 2 * kRowHeight,
        info.instructionSet + ", Bullet " + info.scalar + ", " + info.compiler + ", " + info.buildType,
        kMuted, lineChars);

    const auto xOf = [&](double ratio) {
        const double power = std::clamp(std::log2(ratio), double(lowPower), double(highPower));
        return barLeft + int(std::lround((power - lowPower) / (highPower - lowPower) * kBarWidth));
    };
    // Grid lines at each power of two, the 1x line darker, drawn over the rows' span.
    const int tickSpacing = kBarWidth / (highPower - lowPower);
    const int labelEvery = tickSpacing >= 7 * kAdvance ? 1 : tickSpacing >= 4 * kAdvance ? 2 : 4;
    for (int power = lowPower; power <= highPower; ++power) {
        const int x = xOf(std::exp2(power));
        canvas.fill(x, headerHeight, power == 0 ? 2 : 1, axisTop - headerHeight + 6,
                    power == 0 ? kOneLine : kGrid);
        if (power % labelEvery == 0) {
            const std::string label = tickLabel(power);
            canvas.text(x - int(label.size()) * kAdvance / 2, axisTop + 8, label,
                        power == 0 ? kText : kMuted);
        }
    }

    int y = headerHeight;
    group.clear();
    if (rows.empty()) canvas.text(kMargin, y + 3, "no rows", kMuted);
    for (const Row& row : rows) {
        if (row.group != group) {
            canvas.text(kMargin, y + kGroupHeight - kTextHeight - 2, row.group, kGroup,
                        std::size_t(labelChars), true);
            y += kGroupHeight;
            group = row.group;
        }
        canvas.text(kMargin + 2 * kAdvance, y + (kRowHeight - kTextHeight) / 2 + 2, row.caseName, kText,
                    std::size_t(labelChars - 2));
        const int valueX = barRight + kMargin;
        if (row.ratio) {
            const int one = xOf(1), end = xOf(*row.ratio);
            const int left = std::min(one, end), right = std::max(one, end);
            canvas.fill(left, y + (kRowHeight - kBarHeight) / 2, std::max(right - left, 2), kBarHeight,
                        *row.ratio >= 1 ? kFaster : kSlower);
            canvas.text(valueX, y + (kRowHeight - kTextHeight) / 2 + 2, formatRatio(*row.ratio), kText,
                        kValueChars);
        } else {
            canvas.text(valueX, y + (kRowHeight - kTextHeight) / 2 + 2, "n/a", kMuted);
        }
        y += kRowHeight;
    }
    return canvas.take();
}

bool writePng(const std::string& path, const Image& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.pixels.size() != std::size_t(image.width) * std::size_t(image.height) * 3)
        return false;
    return stbi_write_png(path.c_str(), image.width, image.height, 3, image.pixels.data(), image.width * 3) !=
           0;
}

}  // namespace analytic::bench::report
