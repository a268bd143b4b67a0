// SPDX-License-Identifier: Zlib
// The tally of a random ray test that compares the core with a long double reference case by case
// (ray_box_test, ray_triangle_test): the first failures are reported with their case, and cases inside
// the tangency band, where the reference cannot decide hit or miss, are counted as skipped.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "support/test_support.hpp"

namespace analytic::test {

struct Agreement {
    int cases = 0;
    int skipped = 0;  // inside the tangency band
    int hits = 0;
    int failures = 0;
    Real worstDistanceUlps = 0;

    std::function<std::string()> describeCase;  // built only for a failure: formatting is slow

    void fail(const std::string& what) {
        if (failures++ < 5) ADD_FAILURE() << what << ": " << describeCase();
    }

    // The counts, to begin the line a test prints about what it observed.
    std::string counts() const {
        std::ostringstream out;
        out << "cases " << cases << ", hits " << hits << ", skipped in tangency band " << skipped;
        return out.str();
    }
};

// No failures, at most maxSkippedFraction of the cases skipped, and enough hits to judge the hit data
// (the generators aim most rays at the shape).
inline void expectAgreement(const Agreement& agreement, double maxSkippedFraction) {
    EXPECT_EQ(agreement.failures, 0);
    EXPECT_LE(agreement.skipped, maxSkippedFraction * agreement.cases);
    EXPECT_GE(agreement.hits, agreement.cases / 5);
}

}  // namespace analytic::test
