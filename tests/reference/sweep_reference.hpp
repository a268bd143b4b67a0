// SPDX-License-Identifier: Zlib
// Exact oracle for swept spheres, in long double, independent of the core: no Minkowski sums, no ray
// tests. A sphere of radius r whose centre moves along c(t) = c0 + t v first touches a convex target
// at the first root of f(t) = distance(c(t), target) - r. f is convex in t (the distance to a convex
// set is convex and c(t) is affine) and |v|-Lipschitz, so a golden-section search for its minimum
// either meets a point where f < 0 or proves f > 0 on [0, maxT]; the root before that point is then
// unique and found by bracketing (Illinois regula falsi safeguarded by bisection).
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "support/test_support.hpp"

namespace analytic::reference {

using test::Real;

enum class SweepOutcome {
    Hit,        // f(0) <= -resolution, or f < -resolution somewhere in (0, maxT]: t is the first root
    Miss,       // f >= resolution on all of [0, maxT]
    Ambiguous,  // the decision depends on less than resolution: grazing, touching at 0 or at maxT
};

struct SweepReference {
    SweepOutcome outcome;
    Real t;           // the first root (0 when overlapping at t = 0); for Ambiguous, where f is smallest
    Real startValue;  // f(0)
};

// distanceAt(t): distance from c(t) to the target (0 inside a solid). speed = |v|. resolution: the
// band of f values around 0 that the caller treats as "touching" (it sets what Ambiguous means).
template <class DistanceAt> SweepReference firstTimeOfImpact(const DistanceAt& distanceAt, Real radius,
                                                             Real maxT, Real speed, Real resolution) {
    const auto f = [&](Real t) { return distanceAt(t) - radius; };
    const Real startValue = f(0);
    if (startValue <= -resolution) return {SweepOutcome::Hit, 0, startValue};
    if (startValue < resolution) return {SweepOutcome::Ambiguous, 0, startValue};

    // Golden-section search for the minimum of f on [0, maxT], stopping at the first clearly negative
    // value (f(maxT) included). Convexity keeps the minimiser inside [low, high], so the minimum is at
    // least min(f(x1), f(x2)) - speed * (high - low) for the interior points x1, x2.
    const Real inverseGolden = (std::sqrt(Real(5)) - 1) / 2;
    Real low = 0, high = maxT;
    Real x1 = high - inverseGolden * (high - low), x2 = low + inverseGolden * (high - low);
    Real f1 = f(x1), f2 = f(x2);
    const Real fHigh = f(high);
    Real negativeAt = -1, bestT = maxT, best = fHigh;
    for (int iteration = 0; iteration < 400; ++iteration) {
        for (const auto& [t, value] : {std::pair{x1, f1}, std::pair{x2, f2}, std::pair{maxT, fHigh}})
            if (value < best) best = value, bestT = t;
        if (best <= -resolution) {
            negativeAt = bestT;
            break;
        }
        const Real lowerBound = std::min(f1, f2) - speed * (high - low);
        if (lowerBound >= resolution) return {SweepOutcome::Miss, 0, startValue};
        if (lowerBound > -resolution && std::min(f1, f2) < resolution) break;  // the minimum is in the band
        if (high - low <= 8 * std::numeric_limits<Real>::epsilon() * maxT) break;
        if (f1 < f2) {
            high = x2, x2 = x1, f2 = f1;
            x1 = high - inverseGolden * (high - low), f1 = f(x1);
        } else {
            low = x1, x1 = x2, f1 = f2;
            x2 = low + inverseGolden * (high - low), f2 = f(x2);
        }
    }
    if (negativeAt < 0) return {SweepOutcome::Ambiguous, bestT, startValue};

    // f(a) > 0 >= f(b): one root in between. Illinois regula falsi (halving the retained end's value
    // when the same end is kept twice, which plain regula falsi on a convex function would do forever),
    // with every third step a bisection: where f is nearly flat (grazing) the secant creeps.
    Real a = 0, b = negativeAt, fa = startValue, fb = best;
    int movedEnd = 0;
    for (int iteration = 0; iteration < 400 && b - a > 4 * std::numeric_limits<Real>::epsilon() * b;
         ++iteration) {
        Real c = iteration % 3 == 2 ? (a + b) / 2 : (a * fb - b * fa) / (fb - fa);
        if (!(c > a && c < b)) c = (a + b) / 2;
        const Real fc = f(c);
        if (fc > 0) {
            a = c, fa = fc;
            if (movedEnd == -1) fb /= 2;
            movedEnd = -1;
        } else {
            b = c, fb = fc;
            if (movedEnd == 1) fa /= 2;
            movedEnd = 1;
        }
    }
    return {SweepOutcome::Hit, (a + b) / 2, startValue};
}

}  // namespace analytic::reference
