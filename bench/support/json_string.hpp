// SPDX-License-Identifier: Zlib
// JSON text for the benchmarks' rows (bench_support.hpp writes them, bench/report reads and writes them).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace analytic::bench {

// text as a JSON string, quotes included: quotes and backslashes escaped, control characters as \u00XX.
inline std::string jsonString(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\u%04x", unsigned(static_cast<unsigned char>(c)));
            out += escaped;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

}  // namespace analytic::bench
