// SPDX-License-Identifier: Zlib
// Character updates on a level of about 10,000 triangles (a bumpy 70 x 70 terrain mesh with stairs, ramps
// and walls): Bullet's btKinematicCharacterController beside analytic::CharacterController, 100 characters
// walking seeded random directions at 2-6 m/s at 60 Hz; only the controllers' updateAction calls are timed
// (the world's step between them is not), and the time reported is per character update: the updating
// thread's CPU time, which other processes do not inflate (the wall-clock time is a counter). Then 1,000 of
// ours updated in one CharacterGroup call on one thread and on all cores. The summary after the table gives
// the ratios.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "character/character_rigs.hpp"
#include "support/bench_support.hpp"

namespace analytic::bench {
namespace {

// Capsule runs (radius 0.3, half height 0.6): our constructor throws for capsules until they are supported;
// the runs are then skipped with a note.
constexpr bool kRunCapsules = true;
constexpr CharacterShape kSphere{btScalar(0.3), 0};
constexpr CharacterShape kCapsule{btScalar(0.3), btScalar(0.6)};

constexpr btScalar kDt = btScalar(1) / 60;
constexpr btScalar kStepHeight = btScalar(0.35);
constexpr int kWarmUpSteps = 120;  // the characters fall onto the level first
constexpr int kSegments = 64;

// Per-update figures of each run, for the summary: name -> one value per repetition.
std::map<std::string, std::vector<double>>& results() {
    static std::map<std::string, std::vector<double>> table;
    return table;
}

double threadSeconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

// Characters of one kind walking the benchmark level; their updates called one by one.
class Crowd {
public:
    Crowd(Controller kind, int count, const CharacterShape& shape) : bullet_(level_) {
        buildBenchLevel(level_);
        walkers_ = makeWalkers(count, kSegments, 1234);
        for (const Walker& walker : walkers_) {
            if (kind == Controller::Bullet) {
                btKinematicCharacterController& character =
                    bullet_.add(shape, walker.start, kStepHeight, false);
                controllers_.push_back(&character);
                ghosts_.push_back(character.getGhostObject());
            } else {
                CharacterController& character = level_.addCharacter(shape.make(), walker.start, kStepHeight);
                level_.world().removeAction(&character);  // updated by hand (or by a group)
                controllers_.push_back(&character);
                ours_.push_back(&character);
                ghosts_.push_back(character.getGhostObject());
            }
        }
        for (int i = 0; i < kWarmUpSteps; ++i) {
            drive();
            update();
            level_.step(kDt);
        }
    }

    // Sets each character's walk for this step.
    void drive() {
        for (std::size_t i = 0; i < controllers_.size(); ++i)
            controllers_[i]->setWalkDirection(velocityAt(walkers_[i], step_) * kDt);
        ++step_;
    }
    // Every character's updateAction; returns the seconds they took, on the clock and in this thread's CPU
    // time (which other processes on the machine do not inflate).
    struct Took {
        double wall, cpu;
    };
    Took update() {
        const double cpuBegin = threadSeconds();
        const auto begin = std::chrono::steady_clock::now();
        for (btCharacterControllerInterface* controller : controllers_)
            controller->updateAction(&level_.world(), kDt);
        const auto end = std::chrono::steady_clock::now();
        return {std::chrono::duration<double>(end - begin).count(), threadSeconds() - cpuBegin};
    }
    btScalar totalSweeps() const {
        btScalar sum = 0;
        for (const CharacterController* character : ours_)
            sum += btScalar(character->lastUpdate().sweeps);
        return sum;
    }
    btVector3 position(std::size_t i) const { return ghosts_[i]->getWorldTransform().getOrigin(); }
    std::size_t size() const { return controllers_.size(); }
    CharacterLevel& level() { return level_; }
    const std::vector<CharacterController*>& ours() const { return ours_; }

private:
    CharacterLevel level_;
    BulletCharacters bullet_;
    std::vector<Walker> walkers_;
    std::vector<btCharacterControllerInterface*> controllers_;
    std::vector<CharacterController*> ours_;
    std::vector<btCollisionObject*> ghosts_;
    long step_ = 0;
};

void characterUpdates(benchmark::State& state, Controller kind, CharacterShape shape) {
    const int count = int(state.range(0));
    std::unique_ptr<Crowd> crowd;
    try {
        crowd = std::make_unique<Crowd>(kind, count, shape);
    } catch (const std::invalid_argument& error) {
        state.SkipWithError(
            (std::string("skipped: the controller refuses the shape: ") + error.what()).c_str());
        for (auto _ : state) {
        }
        return;
    }
    double seconds = 0, cpuSeconds = 0, sweeps = 0, moved = 0, worldSeconds = 0;
    long updates = 0;
    std::vector<btVector3> before(crowd->size());
    for (auto _ : state) {
        crowd->drive();
        for (std::size_t i = 0; i < crowd->size(); ++i)
            before[i] = crowd->position(i);
        const Crowd::Took took = crowd->update();
        state.SetIterationTime(took.cpu / double(crowd->size()));
        seconds += took.wall;
        cpuSeconds += took.cpu;
        sweeps += double(crowd->totalSweeps());
        for (std::size_t i = 0; i < crowd->size(); ++i)
            moved += double((crowd->position(i) - before[i]).length());
        updates += long(crowd->size());
        const auto begin = std::chrono::steady_clock::now();
        crowd->level().step(kDt);
        worldSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    }
    const double perUpdate = cpuSeconds / double(updates);
    state.counters["us/update"] = perUpdate * 1e6;
    state.counters["wall_us/update"] = seconds / double(updates) * 1e6;
    state.counters["m/update"] = moved / double(updates);
    // The world's step between updates (not timed above), per character: its broadphase and narrow phase
    // for the ghosts, which Bullet's controller reads its overlapping pairs from.
    state.counters["world_us/char"] = worldSeconds / double(updates) * 1e6;
    if (kind == Controller::Ours) state.counters["sweeps/update"] = sweeps / double(updates);
    results()[std::string(nameOf(kind)) + (shape.halfHeight > 0 ? " capsule" : " sphere")].push_back(
        perUpdate);
}

// 1,000 of ours updated by one CharacterGroup call a step, on `threads` threads (0: all cores).
void groupUpdates(benchmark::State& state) {
    const unsigned threads = unsigned(state.range(0));
    Crowd crowd(Controller::Ours, 1000, kSphere);
    CharacterGroup group(threads);
    for (CharacterController* character : crowd.ours())
        group.add(character);
    double seconds = 0;
    long steps = 0;
    for (auto _ : state) {
        crowd.drive();
        const auto begin = std::chrono::steady_clock::now();
        group.update(crowd.level().world(), kDt);  // on the clock: the threads' time is what it saves
        const double elapsed =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
        state.SetIterationTime(elapsed);
        seconds += elapsed;
        ++steps;
        crowd.level().step(kDt);
    }
    const double rate = double(steps) * double(crowd.size()) / seconds;
    state.counters["updates/s"] = rate;
    results()[threads == 1 ? "group 1 thread" : "group all cores"].push_back(rate);
}

// The group's update on one thread split into its parts, in this thread's CPU time: the moves
// (computeStep, which CharacterGroup spreads over the threads) and what follows them in order (finishStep:
// the ghosts' transforms, pushes, listeners). The serial part bounds the speed-up on n cores by Amdahl's
// law, whatever else runs on the machine.
void groupParts(benchmark::State& state) {
    Crowd crowd(Controller::Ours, 1000, kSphere);
    double moves = 0, finishes = 0;
    long steps = 0;
    for (auto _ : state) {
        crowd.drive();
        const double begin = threadSeconds();
        for (CharacterController* character : crowd.ours())
            character->computeStep(crowd.level().world(), kDt);
        const double middle = threadSeconds();
        for (CharacterController* character : crowd.ours())
            character->finishStep(&crowd.level().world());
        const double end = threadSeconds();
        state.SetIterationTime(end - begin);
        moves += middle - begin;
        finishes += end - middle;
        ++steps;
        crowd.level().step(kDt);
    }
    const double serial = finishes / (moves + finishes);
    state.counters["serial_fraction"] = serial;
    state.counters["amdahl_2_cores"] = 1 / (serial + (1 - serial) / 2);
    results()["group serial fraction"].push_back(serial);
}

void registerAll() {
    for (const bool capsule : {false, true}) {
        if (capsule && !kRunCapsules) continue;
        const CharacterShape shape = capsule ? kCapsule : kSphere;
        const std::string what = capsule ? "capsule" : "sphere";
        for (const Controller kind : {Controller::Bullet, Controller::Ours})
            benchmark::RegisterBenchmark(
                ("CharacterUpdate/" + std::string(kind == Controller::Bullet ? "BulletKCC/" : "Ours/") + what)
                    .c_str(),
                [kind, shape](benchmark::State& state) { characterUpdates(state, kind, shape); })
                ->Arg(100)
                ->Iterations(600)
                ->UseManualTime()
                ->Unit(benchmark::kMicrosecond);
    }
    benchmark::RegisterBenchmark("CharacterGroup/1000/parts", groupParts)
        ->Iterations(300)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("CharacterGroup/1000/threads", groupUpdates)
        ->Arg(1)
        ->Arg(0)
        ->Iterations(300)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
}

// The machine's load (other processes share the cores and slow the wall-clock figures).
std::string loadAverage() {
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

void summary() {
    auto& table = results();
    std::printf(
        "\nSummary (medians over repetitions; per-update times are the updating thread's CPU time; our code "
        "compiled for %s)\n",
        instructionSet());
    for (const char* shape : {" sphere", " capsule"}) {
        const auto bullet = table.find(std::string("Bullet KCC") + shape);
        const auto ours = table.find(std::string("ours") + shape);
        if (bullet == table.end() || ours == table.end()) {
            std::printf("  %s: not run%s\n", shape + 1,
                        std::string(shape) == " capsule"
                            ? " (skipped while our constructor throws for capsules)"
                            : "");
            continue;
        }
        const double b = median(bullet->second), o = median(ours->second);
        std::printf(
            "  %s, 100 characters, 9,800-triangle terrain + boxes: Bullet KCC %.2f us/update, ours %.2f "
            "us/update: ours %.2fx faster (goal 3x)\n",
            shape + 1, b * 1e6, o * 1e6, b / o);
        recordRatio("character", std::string(shape + 1) + ", 100 characters walking", "us per update, median",
                    Better::Lower, b * 1e6, o * 1e6);
    }
    const auto one = table.find("group 1 thread"), all = table.find("group all cores");
    if (one != table.end() && all != table.end()) {
        const double r1 = median(one->second), ra = median(all->second);
        const double b1 = *std::max_element(one->second.begin(), one->second.end());
        const double ba = *std::max_element(all->second.begin(), all->second.end());
        std::printf(
            "  CharacterGroup, 1,000 characters (wall clock): 1 thread %.0f updates/s, all cores (%u) %.0f "
            "updates/s: %.2fx; best runs %.0f and %.0f: %.2fx (goal 1.8x on two cores)\n",
            r1, std::thread::hardware_concurrency(), ra, ra / r1, b1, ba, ba / b1);
    }
    if (const auto parts = table.find("group serial fraction"); parts != table.end()) {
        const double serial = median(parts->second);
        std::printf(
            "  CharacterGroup, the part after the moves, done in order on the calling thread: %.1f%% of one "
            "thread's CPU time: at most %.2fx on two cores (Amdahl)\n",
            100 * serial, 1 / (serial + (1 - serial) / 2));
    }
    std::printf("  load average at the end: %s\n", loadAverage().c_str());
}

}  // namespace
}  // namespace analytic::bench

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    std::printf("Build: our code compiled for %s, Bullet in %s\n", analytic::bench::instructionSet(),
                sizeof(btScalar) == 8 ? "double" : "float");
    std::printf("Load average at the start: %s\n", analytic::bench::loadAverage().c_str());
    analytic::bench::registerAll();
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    analytic::bench::summary();
    return 0;
}
