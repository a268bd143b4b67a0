// SPDX-License-Identifier: Zlib
// The simulation scenes S1 (1,000 spheres and 500 boxes dropped on a plane) and S2 (the same on scene M's
// terrain) of bench-scenes.md, Bullet's built-in algorithms beside ours (analytic::Plugin installed in an
// identical world), in one process: milliseconds per step, the part of it spent in contact generation,
// the 99th percentile of contact penetration over the last 60 steps, and bodies that fell through.
//
// The two worlds take turns step by step (which goes first alternates), so that load from other processes
// falls on both alike; each repetition builds both anew. Options: --steps=N (600), --repetitions=N (3),
// --scene=S1|S2 (both), --breakdown (instead: contact generation by kind of shape pair, one run).
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analytic/plugin.hpp"
#include "support/bench_scenes.hpp"
#include "support/bench_support.hpp"

namespace {

using analytic::bench::Ground;
using analytic::bench::median;
using analytic::bench::minimum;
using analytic::bench::parsePositive;
using analytic::bench::SimulationScene;
using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Bullet's world, timing its collision detection: contact generation is what remains of it once the
// AABB update and the broadphase are taken out (the dispatcher running every pair's algorithm).
class TimedWorld : public btDiscreteDynamicsWorld {
public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;

    void performDiscreteCollisionDetection() override {
        const Clock::time_point start = Clock::now();
        broadphaseSeconds_ = 0;
        btDiscreteDynamicsWorld::performDiscreteCollisionDetection();
        const double total = secondsSince(start);
        collisionDetectionSeconds += total;
        contactGenerationSeconds += total - broadphaseSeconds_;
    }

    void updateAabbs() override {
        const Clock::time_point start = Clock::now();
        btDiscreteDynamicsWorld::updateAabbs();
        broadphaseSeconds_ += secondsSince(start);
    }

    void computeOverlappingPairs() override {
        const Clock::time_point start = Clock::now();
        btDiscreteDynamicsWorld::computeOverlappingPairs();
        broadphaseSeconds_ += secondsSince(start);
    }

    double collisionDetectionSeconds = 0;
    double contactGenerationSeconds = 0;

private:
    double broadphaseSeconds_ = 0;
};

// Contact generation by kind of shape pair (shape types in ascending order), from a near callback that
// times Bullet's default one pair by pair. The clock reads add to what they measure, so runs with it
// report nothing else.
struct PairKindTimes {
    static constexpr int kTypes = MAX_BROADPHASE_COLLISION_TYPES;
    std::array<std::array<double, kTypes>, kTypes> seconds{};
    std::array<std::array<double, kTypes>, kTypes> algorithmSeconds{};  // in processCollision only
    std::array<std::array<long long, kTypes>, kTypes> pairs{};
    std::array<const char*, kTypes> names{};
};

// The near callback has no user data: each timed dispatcher finds its tally here.
std::map<const btCollisionDispatcher*, PairKindTimes*>& timedDispatchers() {
    static std::map<const btCollisionDispatcher*, PairKindTimes*> dispatchers;
    return dispatchers;
}

// Bullet's defaultNearCallback for discrete stepping, step by step, timing the pair's algorithm
// (processCollision) apart from the whole: what remains is Bullet's dispatch around it (filtering, the
// wrappers, the manifold result), the same for both sides.
void timedNearCallback(btBroadphasePair& pair, btCollisionDispatcher& dispatcher,
                       const btDispatcherInfo& info) {
    const Clock::time_point start = Clock::now();
    auto* object0 = static_cast<btCollisionObject*>(pair.m_pProxy0->m_clientObject);
    auto* object1 = static_cast<btCollisionObject*>(pair.m_pProxy1->m_clientObject);
    double algorithmSeconds = 0;
    if (dispatcher.needsCollision(object0, object1)) {
        const btCollisionObjectWrapper wrap0(nullptr, object0->getCollisionShape(), object0,
                                             object0->getWorldTransform(), -1, -1);
        const btCollisionObjectWrapper wrap1(nullptr, object1->getCollisionShape(), object1,
                                             object1->getWorldTransform(), -1, -1);
        if (!pair.m_algorithm)
            pair.m_algorithm = dispatcher.findAlgorithm(&wrap0, &wrap1, nullptr, BT_CONTACT_POINT_ALGORITHMS);
        if (pair.m_algorithm) {
            btManifoldResult result(&wrap0, &wrap1);
            const Clock::time_point algorithmStart = Clock::now();
            pair.m_algorithm->processCollision(&wrap0, &wrap1, info, &result);
            algorithmSeconds = secondsSince(algorithmStart);
        }
    }
    const double seconds = secondsSince(start);
    const btCollisionShape* a = object0->getCollisionShape();
    const btCollisionShape* b = object1->getCollisionShape();
    if (a->getShapeType() > b->getShapeType()) std::swap(a, b);
    PairKindTimes& times = *timedDispatchers().at(&dispatcher);
    const auto i = std::size_t(a->getShapeType()), j = std::size_t(b->getShapeType());
    times.seconds[i][j] += seconds;
    times.algorithmSeconds[i][j] += algorithmSeconds;
    ++times.pairs[i][j];
    times.names[i] = a->getName();
    times.names[j] = b->getName();
}

enum Side { kBullet, kAnalytic };
constexpr int kSides = 2;

// What one run of a scene measured on one side.
struct RunFigures {
    double stepMilliseconds = 0;  // means over the steps
    double collisionMilliseconds = 0;
    double contactMilliseconds = 0;
    double penetration99 = 0;  // metres, over the last 60 steps' manifold points
    double penetrationMax = 0;
    int contactPoints = 0;                     // after the last step
    std::map<std::string, int> touchingPairs;  // by shape pair, after the last step
    int fellThrough = 0;
};

// One world of the scene, Bullet's or ours.
struct SideWorld {
    SideWorld(Ground ground, const std::vector<analytic::bench::SimulationBody>& bodies, Side side,
              PairKindTimes* kindTimes)
        : scene(ground, bodies), kindTimes(kindTimes) {
        if (side == kAnalytic) plugin.emplace(scene.world());
        if (kindTimes) {
            timedDispatchers()[&scene.dispatcher()] = kindTimes;
            scene.dispatcher().setNearCallback(timedNearCallback);
        }
    }

    ~SideWorld() {
        if (kindTimes) timedDispatchers().erase(&scene.dispatcher());
    }

    SideWorld(const SideWorld&) = delete;
    SideWorld& operator=(const SideWorld&) = delete;

    void step() {
        const Clock::time_point start = Clock::now();
        scene.world().stepSimulation(btScalar(analytic::bench::kTimeStep), 0);
        stepSeconds += secondsSince(start);
    }

    // max(0, -distance) of every point of every manifold, as the last step left them.
    void collectPenetrations() {
        btCollisionDispatcher& dispatcher = scene.dispatcher();
        for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
            const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(m);
            for (int p = 0; p < manifold.getNumContacts(); ++p)
                penetrations.push_back(std::max(0.0, -double(manifold.getContactPoint(p).getDistance())));
        }
    }

    // The contact points of the manifolds, and how many manifolds with points each shape pair has.
    void countContacts(RunFigures& figures) {
        btCollisionDispatcher& dispatcher = scene.dispatcher();
        for (int m = 0; m < dispatcher.getNumManifolds(); ++m) {
            const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(m);
            if (manifold.getNumContacts() == 0) continue;
            figures.contactPoints += manifold.getNumContacts();
            const btCollisionShape* shapes[] = {manifold.getBody0()->getCollisionShape(),
                                                manifold.getBody1()->getCollisionShape()};
            if (shapes[0]->getShapeType() > shapes[1]->getShapeType()) std::swap(shapes[0], shapes[1]);
            ++figures.touchingPairs[std::string(shapes[0]->getName()) + "-" + shapes[1]->getName()];
        }
    }

    // Bodies more than 1 m below the ground under them.
    int fellThrough() const {
        int count = 0;
        for (int i = 0; i < scene.dynamicBodyCount(); ++i) {
            const btVector3& p = scene.dynamicBody(i).getWorldTransform().getOrigin();
            const bool fell = double(p.y()) < scene.groundHeight(double(p.x()), double(p.z())) - 1;
            if (fell)
                std::fprintf(stderr, "  fell through: body %d (%s) at (%.2f, %.2f, %.2f)\n", i,
                             scene.dynamicBody(i).getCollisionShape()->getName(), double(p.x()),
                             double(p.y()), double(p.z()));
            count += fell;
        }
        return count;
    }

    RunFigures figures(int steps) {
        RunFigures f;
        f.stepMilliseconds = 1e3 * stepSeconds / steps;
        f.collisionMilliseconds = 1e3 * scene.world().collisionDetectionSeconds / steps;
        f.contactMilliseconds = 1e3 * scene.world().contactGenerationSeconds / steps;
        if (!penetrations.empty()) {
            // Nearest rank.
            const std::size_t rank = (penetrations.size() * 99 + 99) / 100 - 1;
            std::nth_element(penetrations.begin(), penetrations.begin() + std::ptrdiff_t(rank),
                             penetrations.end());
            f.penetration99 = penetrations[rank];
            f.penetrationMax = *std::max_element(penetrations.begin(), penetrations.end());
        }
        countContacts(f);
        f.fellThrough = fellThrough();
        return f;
    }

    SimulationScene<TimedWorld> scene;
    std::optional<analytic::Plugin> plugin;  // declared after the scene: goes before its world
    PairKindTimes* kindTimes;                // or null
    double stepSeconds = 0;
    std::vector<double> penetrations;
};

constexpr int kPenetrationSteps = 60;

// kindTimes: null, or a tally for each side (--breakdown).
std::array<RunFigures, kSides> runScene(Ground ground,
                                        const std::vector<analytic::bench::SimulationBody>& bodies, int steps,
                                        std::array<PairKindTimes, kSides>* kindTimes = nullptr) {
    std::array<std::unique_ptr<SideWorld>, kSides> worlds{
        std::make_unique<SideWorld>(ground, bodies, kBullet, kindTimes ? &(*kindTimes)[kBullet] : nullptr),
        std::make_unique<SideWorld>(ground, bodies, kAnalytic,
                                    kindTimes ? &(*kindTimes)[kAnalytic] : nullptr)};
    for (int step = 0; step < steps; ++step) {
        for (int turn = 0; turn < kSides; ++turn) {
            SideWorld& world = *worlds[std::size_t((step + turn) % kSides)];
            world.step();
            if (step >= steps - kPenetrationSteps) world.collectPenetrations();
        }
    }
    return {worlds[kBullet]->figures(steps), worlds[kAnalytic]->figures(steps)};
}

struct SceneGoals {
    double stepSpeedup;                    // Bullet's ms per step / ours, at least
    std::optional<double> contactSpeedup;  // the same for contact generation
};

void reportScene(const char* name, const char* group, const SceneGoals& goals,
                 const std::vector<std::array<RunFigures, kSides>>& runs) {
    const auto series = [&](Side side, double RunFigures::*field) {
        std::vector<double> values;
        for (const auto& run : runs)
            values.push_back(run[side].*field);
        return values;
    };
    // Goals are judged on the minima: on a shared machine they vary least with the load.
    const auto timeRow = [&](const char* label, const char* caseName, double RunFigures::*field) {
        const double bullet = median(series(kBullet, field)), ours = median(series(kAnalytic, field));
        analytic::bench::recordRatio(group, caseName, "ms per step, median", analytic::bench::Better::Lower,
                                     bullet, ours);
        const double bulletMin = minimum(series(kBullet, field)), oursMin = minimum(series(kAnalytic, field));
        std::printf("  %-28s %9.3f [%9.3f] %9.3f [%9.3f] %6.2fx [%5.2fx]\n", label, bullet, bulletMin, ours,
                    oursMin, bullet / ours, bulletMin / oursMin);
        return bulletMin / oursMin;
    };
    // Deterministic: every repetition computes the same; the last one's is shown.
    const RunFigures& bullet = runs.back()[kBullet];
    const RunFigures& ours = runs.back()[kAnalytic];
    std::printf("%s, %zu repetitions: median [min]\n  %-28s %21s %21s %16s\n", name, runs.size(), "",
                "Bullet", "ours", "ratio");
    const double stepSpeedup = timeRow("ms per step", "whole step", &RunFigures::stepMilliseconds);
    const double contactSpeedup =
        timeRow("  contact generation ms", "contact generation", &RunFigures::contactMilliseconds);
    timeRow("  collision detection ms", "collision detection", &RunFigures::collisionMilliseconds);
    std::printf("  %-28s %21.5f %21.5f\n", "p99 penetration (m)", bullet.penetration99, ours.penetration99);
    std::printf("  %-28s %21.5f %21.5f\n", "max penetration (m)", bullet.penetrationMax, ours.penetrationMax);
    std::printf("  %-28s %21d %21d\n", "contact points, last step", bullet.contactPoints, ours.contactPoints);
    std::printf("  %-28s %21d %21d\n", "fell through", bullet.fellThrough, ours.fellThrough);
    for (const Side side : {kBullet, kAnalytic}) {
        std::printf("  %s touching pairs, last step:", side == kBullet ? "Bullet's" : "our");
        for (const auto& [pair, count] : runs.back()[side].touchingPairs)
            std::printf(" %s %d", pair.c_str(), count);
        std::printf("\n");
    }
    const auto verdict = [](bool met) { return met ? "met" : "NOT met"; };
    std::printf("  goals (issue 3), on the minima: %.1fx faster per step: %s", goals.stepSpeedup,
                verdict(stepSpeedup >= goals.stepSpeedup));
    if (goals.contactSpeedup)
        std::printf("; contact generation %.0fx faster: %s", *goals.contactSpeedup,
                    verdict(contactSpeedup >= *goals.contactSpeedup));
    std::printf("; p99 penetration no worse: %s; none fell through: %s\n\n",
                verdict(ours.penetration99 <= bullet.penetration99), verdict(ours.fellThrough == 0));
}

void reportBreakdown(const char* name, int steps, const std::array<PairKindTimes, kSides>& times) {
    std::printf("%s: contact generation by shape pair (timed pair by pair)\n  %-30s %8s %17s %8s %17s %7s\n",
                name, "", "pairs B", "Bullet ms (alg)", "pairs", "ours ms (alg)", "ratio");
    double totals[kSides] = {}, algorithmTotals[kSides] = {};
    const auto perStep = [steps](double seconds) { return 1e3 * seconds / steps; };
    for (std::size_t i = 0; i < PairKindTimes::kTypes; ++i)
        for (std::size_t j = i; j < PairKindTimes::kTypes; ++j) {
            if (!times[kBullet].pairs[i][j] && !times[kAnalytic].pairs[i][j]) continue;
            const PairKindTimes& named = times[kBullet].pairs[i][j] ? times[kBullet] : times[kAnalytic];
            const std::string kind = std::string(named.names[i]) + "-" + named.names[j];
            double ms[kSides], algorithmMs[kSides];
            for (const Side side : {kBullet, kAnalytic}) {
                ms[side] = perStep(times[side].seconds[i][j]);
                algorithmMs[side] = perStep(times[side].algorithmSeconds[i][j]);
                totals[side] += ms[side];
                algorithmTotals[side] += algorithmMs[side];
            }
            std::printf("  %-30s %8.0f %8.3f (%6.3f) %8.0f %8.3f (%6.3f) %6.2fx\n", kind.c_str(),
                        double(times[kBullet].pairs[i][j]) / steps, ms[kBullet], algorithmMs[kBullet],
                        double(times[kAnalytic].pairs[i][j]) / steps, ms[kAnalytic], algorithmMs[kAnalytic],
                        ms[kBullet] / ms[kAnalytic]);
        }
    std::printf("  %-30s %8s %8.3f (%6.3f) %8s %8.3f (%6.3f) %6.2fx\n", "all", "", totals[kBullet],
                algorithmTotals[kBullet], "", totals[kAnalytic], algorithmTotals[kAnalytic],
                totals[kBullet] / totals[kAnalytic]);
    std::printf(
        "  (pairs: AABB-overlapping pairs per step; ms per step; alg: in the pair's processCollision, the "
        "rest is Bullet's dispatch around it)\n\n");
}

}  // namespace

int main(int argc, char** argv) {
    int steps = analytic::bench::kSimulationSteps, repetitions = 3;
    bool runS1 = true, runS2 = true, breakdown = false;
    for (int i = 1; i < argc; ++i) {
        const std::string argument = argv[i];
        if (argument.rfind("--steps=", 0) == 0) {
            steps = parsePositive(argv[i] + std::strlen("--steps="), "--steps");
        } else if (argument.rfind("--repetitions=", 0) == 0) {
            repetitions = parsePositive(argv[i] + std::strlen("--repetitions="), "--repetitions");
        } else if (argument == "--scene=S1" || argument == "--scene=S2") {
            runS1 = argument == "--scene=S1";
            runS2 = !runS1;
        } else if (argument == "--breakdown") {
            breakdown = true;
        } else {
            std::fprintf(stderr, "usage: %s [--steps=N] [--repetitions=N] [--scene=S1|S2] [--breakdown]\n",
                         argv[0]);
            return 2;
        }
    }
    const analytic::bench::BenchScenes scenes = analytic::bench::generateBenchScenes();
    std::printf(
        "Bullet %s precision, our code compiled for %s; %d steps of 1/60 s; contact generation: collision "
        "detection less AABB update and broadphase; penetration over the last %d steps' manifold points\n\n",
        analytic::bench::bulletScalar(), analytic::bench::instructionSet(), steps,
        std::min(steps, kPenetrationSteps));
    const auto measure = [&](Ground ground, const char* name, const char* group, const SceneGoals& goals) {
        if (breakdown) {
            auto times = std::make_unique<std::array<PairKindTimes, kSides>>();
            runScene(ground, scenes.bodies, steps, times.get());
            reportBreakdown(name, steps, *times);
            return;
        }
        std::vector<std::array<RunFigures, kSides>> runs;
        for (int r = 0; r < repetitions; ++r)
            runs.push_back(runScene(ground, scenes.bodies, steps));
        reportScene(name, group, goals, runs);
    };
    if (runS1) measure(Ground::Plane, "S1 (plane)", "simulation S1 (plane)", {1.1, 3.0});
    if (runS2) measure(Ground::Terrain, "S2 (terrain mesh)", "simulation S2 (terrain)", {1.5, std::nullopt});
    return 0;
}
