// SPDX-License-Identifier: Zlib
// The same scripted levels run by Bullet's btKinematicCharacterController and by
// analytic::CharacterController (same shape, step height 0.35, gravity 9.81, max slope 45 degrees, 60 Hz,
// walks as per-step displacements), printed as one markdown table: a row per check, a column per
// controller, with the numbers measured. Not a test: Bullet's controller fails some of these by design,
// and the table records what each does.
#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "character/character_rigs.hpp"

namespace analytic::bench {
namespace {

// Capsule runs (radius 0.3, half height 0.6): our constructor throws for capsules until they are
// supported; the capsule table is then skipped with a note.
constexpr bool kRunCapsules = true;

constexpr btScalar kDt = btScalar(1) / 60;
constexpr btScalar kStepHeight = btScalar(0.35);
constexpr btScalar kSkin = btScalar(0.02);  // ours; Bullet's has none to keep

std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* pattern, ...) {
    char buffer[512];
    va_list arguments;
    va_start(arguments, pattern);
    std::vsnprintf(buffer, sizeof buffer, pattern, arguments);
    va_end(arguments);
    return buffer;
}

const char* yesNo(bool value) { return value ? "yes" : "no"; }

// A scenario's set-up shared by the checks: the rig, its shape, and the centre's height above the
// character's bottom.
struct Scene {
    Rig rig;
    CharacterShape shape;
    Scene(Controller kind, const CharacterShape& s, const btTransform& frame = btTransform::getIdentity())
        : rig(kind, frame), shape(s) {}
    btScalar lift() const { return shape.radius + shape.halfHeight; }
    // The character with its bottom at `feet` (level coordinates).
    void make(const btVector3& feet, btScalar stepHeight = kStepHeight) {
        rig.make(shape, feet + btVector3(0, lift(), 0), stepHeight);
        rig.setMaxSlope(btRadians(45));
    }
    btScalar bottom() { return rig.at().y() - lift(); }
    void steps(int count, const std::function<void(int)>& each = {}) {
        for (int i = 0; i < count; ++i) {
            rig.step(kDt);
            if (each) each(i);
        }
    }
    void floor() { rig.level().addBox(btVector3(50, 1, 50), btVector3(0, -1, 0)); }
};

// ---- The checks: each returns the cell for one controller ----

// A jump at `speed`, under a ceiling `ceiling` above the character's top when > 0: whether onGround() was
// true at the apex, and in how many airborne steps.
std::string jump(Controller kind, const CharacterShape& shape, btScalar speed, btScalar ceiling) {
    Scene scene(kind, shape);
    scene.floor();
    const btScalar under = 2 * scene.lift() + kSkin + ceiling;
    if (ceiling > 0) {
        scene.rig.level().addBox(btVector3(5, btScalar(0.5), 5), btVector3(0, under + btScalar(0.5), 0));
    }
    scene.make(btVector3(0, btScalar(0.05), 0));
    scene.steps(60);
    const bool couldJump = scene.rig.controller().canJump();
    const btScalar rest = scene.bottom();
    scene.rig.setJumpSpeed(speed);
    scene.rig.jump();
    btScalar highest = rest;
    bool groundAtApex = false;
    int airborne = 0, groundInAir = 0;
    scene.steps(120, [&](int) {
        const btScalar h = scene.bottom();
        if (h > highest) {
            highest = h;
            groundAtApex = scene.rig.onGround();
        }
        if (h > rest + btScalar(0.02)) {
            ++airborne;
            if (scene.rig.onGround()) ++groundInAir;
        }
    });
    const std::string into = ceiling > 0
                                 ? format("; into the ceiling %.3f m",
                                          double(std::max(highest + 2 * scene.lift() - under, btScalar(0))))
                                 : std::string();
    return format("onGround at apex: **%s**; onGround in %d of %d airborne steps; apex %.3f m%s%s",
                  yesNo(groundAtApex), groundInAir, airborne, double(highest - rest), into.c_str(),
                  couldJump ? "" : "; canJump() was false before the jump");
}

std::string jumpApex(Controller kind, const CharacterShape& shape) {
    return jump(kind, shape, 5, 0) + " (ideal 1.274)";
}
// 30 g dt: the vertical velocity comes back to zero (up to rounding) at the apex.
std::string jumpApexExact(Controller kind, const CharacterShape& shape) {
    return jump(kind, shape, 30 * kGravity * kDt, 0) + " (ideal 1.226)";
}
std::string jumpCeiling(Controller kind, const CharacterShape& shape) {
    return jump(kind, shape, 5, btScalar(0.5)) + " (ceiling 0.5 m above the head)";
}

std::string thinWall(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.floor();
    scene.rig.level().addBox(btVector3(btScalar(0.005), 2, 5), btVector3(3, 2, 0));
    scene.make(btVector3(0, kSkin, 0));
    scene.steps(10);
    scene.rig.walk(btVector3(1000 * kDt, 0, 0));
    bool through = false;
    scene.steps(30, [&](int) { through = through || scene.rig.at().x() > 3; });
    const btScalar x = scene.rig.at().x();
    return format("passes through: **%s**; final x %.3f (wall face at 2.995, at the skin %.3f)",
                  yesNo(through || x > 3), double(x), double(btScalar(2.995) - shape.radius - kSkin));
}

// Ten box steps of `rise` and 0.3 m treads from x = 1, the last one a landing to x = 8, 4 m wide.
void addStairs(CharacterLevel& level, btScalar rise, int count = 10) {
    for (int s = 0; s < count; ++s) {
        const btScalar top = rise * btScalar(s + 1);
        const btScalar x0 = 1 + btScalar(0.3) * btScalar(s), x1 = 8;
        level.addBox(btVector3((x1 - x0) / 2, top / 2, 2), btVector3((x0 + x1) / 2, top / 2, 0));
    }
}

std::string stairs(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.floor();
    addStairs(scene.rig.level(), btScalar(0.3));
    scene.make(btVector3(0, btScalar(0.05), 0));
    scene.steps(30);
    const btScalar speed = 2;
    scene.rig.walk(btVector3(speed * kDt, 0, 0));
    int climbing = 0, grounded = 0, reached = -1;
    btScalar maxDrop = 0, previous = scene.bottom();
    scene.steps(300, [&](int i) {
        const btScalar h = scene.bottom();
        if (reached < 0) maxDrop = std::max(maxDrop, previous - h);
        previous = h;
        if (reached < 0 && scene.rig.at().x() > btScalar(0.5)) {
            ++climbing;
            if (scene.rig.onGround()) ++grounded;
        }
        if (reached < 0 && h > btScalar(2.95)) reached = i + 1;
    });
    // The walk from x = 0 until the centre is over the top step's front edge (x = 3.7).
    const double ideal = 3.7 / double(speed);
    if (reached < 0)
        return format("top **not reached** in 5 s (bottom at %.2f m, x %.2f)", double(scene.bottom()),
                      double(scene.rig.at().x()));
    return format(
        "top in %.2f s (ideal %.2f s: %.2fx); grounded %d of %d steps (%.0f%%); largest drop in a step "
        "while climbing %.3f m",
        reached * double(kDt), ideal, reached * double(kDt) / ideal, grounded, climbing,
        100.0 * grounded / std::max(climbing, 1), double(maxDrop));
}

// Walks 3 s at 2 m/s into a riser (a box from x = 1); returns the highest the bottom got and the largest
// vertical move in a step after the first second.
std::pair<btScalar, btScalar> walkIntoRiser(Controller kind, const CharacterShape& shape, btScalar riser) {
    Scene scene(kind, shape);
    scene.floor();
    scene.rig.level().addBox(btVector3(3, riser / 2, 2), btVector3(4, riser / 2, 0));
    scene.make(btVector3(0, btScalar(0.05), 0));
    scene.steps(30);
    scene.rig.walk(btVector3(2 * kDt, 0, 0));
    btScalar highest = 0, jitter = 0, previous = scene.bottom();
    scene.steps(180, [&](int i) {
        const btScalar h = scene.bottom();
        highest = std::max(highest, h);
        if (i >= 60) jitter = std::max(jitter, std::abs(h - previous));
        previous = h;
    });
    return {highest, jitter};
}

// Down ten 0.3 m box steps (0.3 m treads, the top landing ending at x = 1.3) at `speed`: the share of steps
// on ground until the bottom (x = 4.3), or where it stopped in 6 s.
std::string stairsDownAt(Controller kind, const CharacterShape& shape, btScalar speed) {
    Scene scene(kind, shape);
    scene.floor();
    for (int s = 0; s < 10; ++s) {
        const btScalar top = btScalar(0.3) * btScalar(s + 1);
        const btScalar x0 = -8, x1 = btScalar(1.3) + btScalar(0.3) * btScalar(9 - s);
        scene.rig.level().addBox(btVector3((x1 - x0) / 2, top / 2, 2), btVector3((x0 + x1) / 2, top / 2, 0));
    }
    scene.make(btVector3(-1, btScalar(3.05), 0));
    scene.steps(30);
    scene.rig.walk(btVector3(speed * kDt, 0, 0));
    int grounded = 0, steps = 0;
    for (int i = 0; i < 360 && scene.rig.at().x() < btScalar(4.3); ++i) {
        scene.rig.step(kDt);
        ++steps;
        grounded += scene.rig.onGround() ? 1 : 0;
    }
    const bool down = scene.rig.at().x() >= btScalar(4.3);
    return format("%.0f m/s: %s, grounded %d of %d", double(speed),
                  down ? "down"
                       : format("**stopped** at x %.2f, bottom %.2f m", double(scene.rig.at().x()),
                                double(scene.bottom()))
                             .c_str(),
                  grounded, steps);
}

std::string stairsDown(Controller kind, const CharacterShape& shape) {
    std::string cell;
    for (const btScalar speed : {btScalar(1), btScalar(3), btScalar(6)})
        cell += (cell.empty() ? "" : "; ") + stairsDownAt(kind, shape, speed);
    return cell;
}

std::string highRiser(Controller kind, const CharacterShape& shape) {
    const auto [highest, jitter] = walkIntoRiser(kind, shape, btScalar(0.5));
    return format("blocked: **%s**; highest bottom %.3f m; largest vertical move in a step after 1 s %.4f m",
                  yesNo(highest < btScalar(0.4)), double(highest), double(jitter));
}

std::string tallestRiser(Controller kind, const CharacterShape& shape) {
    btScalar tallest = 0;
    for (int cm = 20; cm <= 100; cm += 2) {
        const btScalar riser = btScalar(cm) / 100;
        if (walkIntoRiser(kind, shape, riser).first > riser - btScalar(0.1)) tallest = riser;
    }
    return format("**%.2f m** (step height 0.35)", double(tallest));
}

std::string lowCeiling(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.floor();
    addStairs(scene.rig.level(), btScalar(0.3));
    // A ceiling with its underside 0.3 m above the character's top standing on the floor: room to walk
    // under it on the floor, none on the first step.
    const btScalar under = 2 * scene.lift() + kSkin + btScalar(0.3) * btScalar(0.7);
    scene.rig.level().addBox(btVector3(6, btScalar(0.5), 3), btVector3(2, under + btScalar(0.5), 0));
    scene.make(btVector3(0, btScalar(0.05), 0));
    scene.steps(30);
    scene.rig.walk(btVector3(2 * kDt, 0, 0));
    btScalar overlap = -1;
    scene.steps(180, [&](int) { overlap = std::max(overlap, scene.rig.at().y() + scene.lift() - under); });
    const btScalar bottom = scene.bottom();
    // Off the floor with its centre short of the first step (x = 1): held up by the step's edge.
    const bool hanging = bottom > btScalar(0.05) && scene.rig.at().x() < 1;
    return format(
        "ceiling %.2f m up; deepest into the ceiling %.3f m%s; ends at x %.2f, bottom %.2f m%s, onGround %s",
        double(under), double(std::max(overlap, btScalar(0))),
        overlap > 0 ? " (**inside**)" : " (never inside)", double(scene.rig.at().x()), double(bottom),
        hanging ? " (**hangs on the first step's edge**, its centre short of the step)" : "",
        yesNo(scene.rig.onGround()));
}

std::string standOnSlope(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.rig.level().addRamp(40, btVector3(0, 0, 0), btVector3(10, 1, 10));
    const btScalar a = btRadians(40);
    const btVector3 normal(-std::sin(a), std::cos(a), 0);
    // The bottom sphere's centre a skin off the slope.
    scene.rig.make(shape, normal * (shape.radius + kSkin) + btVector3(0, shape.halfHeight, 0), kStepHeight);
    scene.rig.setMaxSlope(btRadians(45));
    scene.steps(10);
    const btVector3 start = scene.rig.at();
    int grounded = 0;
    scene.steps(600, [&](int) { grounded += scene.rig.onGround() ? 1 : 0; });
    return format("drift in 10 s: **%.4f m**; onGround %d of 600 steps",
                  double((scene.rig.at() - start).length()), grounded);
}

std::string steepRamp(Controller kind, const CharacterShape& shape) {
    std::string cell;
    for (const btScalar stepHeight : {btScalar(0), kStepHeight}) {
        Scene scene(kind, shape);
        scene.floor();
        const btScalar a = btRadians(btScalar(45.5));
        scene.rig.level().addRamp(btScalar(45.5), btVector3(2 + 5 * std::cos(a), 5 * std::sin(a), 0),
                                  btVector3(5, 1, 5));
        scene.make(btVector3(0, btScalar(0.05), 0), stepHeight);
        scene.steps(30);
        scene.rig.walk(btVector3(3 * kDt, 0, 0));
        btScalar highest = 0;
        scene.steps(180, [&](int) { highest = std::max(highest, scene.bottom()); });
        cell += format("%sstep height %.2f: climbed **%s** (highest bottom %.2f m)", cell.empty() ? "" : "; ",
                       double(stepHeight), yesNo(highest > 1), double(highest));
    }
    return cell;
}

std::string corner(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.floor();
    const btScalar half = btRadians(45);
    btVector3 inward[2];
    for (int k = 0; k < 2; ++k) {
        const btScalar side = k == 0 ? 1 : -1;
        const btQuaternion turn(btVector3(0, 1, 0), side * (SIMD_HALF_PI - half));
        const btVector3 across = quatRotate(turn, btVector3(1, 0, 0));
        scene.rig.level().addBox(
            btVector3(btScalar(0.5), 2, 10),
            btTransform(turn, across * btScalar(0.5) + quatRotate(turn, btVector3(0, 2, side * -10))));
        inward[k] = quatRotate(turn, btVector3(-1, 0, 0));
    }
    scene.make(btVector3(-5, btScalar(0.05), 0));
    scene.rig.walk(btVector3(4 * kDt, 0, 0));
    btVector3 previous = scene.rig.at();
    btScalar settled = 0, closest = std::numeric_limits<btScalar>::max();
    scene.steps(600, [&](int i) {
        const btVector3 now = scene.rig.at();
        if (i >= 300) settled = std::max(settled, (now - previous).length());
        previous = now;
        for (const btVector3& n : inward)
            closest = std::min(closest, now.dot(n) - shape.radius);
    });
    return format("max step movement in the last 5 s %.2g m; closest to a wall %.4f m (%s)", double(settled),
                  double(closest), closest < 0 ? "**inside**" : "never inside");
}

std::string wallSlide(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.rig.level().addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    scene.rig.level().addBox(btVector3(btScalar(0.5), 2, 50), btVector3(btScalar(1.5), 2, 0));
    scene.make(btVector3(0, btScalar(0.05), -20));
    const btScalar theta = btRadians(30), speed = 4;
    scene.rig.walk(btVector3(std::sin(theta), 0, std::cos(theta)) * (speed * kDt));
    scene.steps(60);
    const btVector3 before = scene.rig.at();
    int grounded = 0;
    scene.steps(60, [&](int) { grounded += scene.rig.onGround() ? 1 : 0; });
    const btVector3 after = scene.rig.at();
    return format("speed / (v cos 30) = **%.4f**; distance off the wall %.4f m; onGround %d of 60",
                  double((after.z() - before.z()) / (speed * std::cos(theta))),
                  double(1 - after.x() - shape.radius), grounded);
}

std::string platform(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.rig.level().addBox(btVector3(50, 1, 50), btVector3(0, -11, 0));
    const btVector3 start(0, btScalar(0.75), 0);
    btRigidBody& body = scene.rig.level().addBox(btVector3(2, btScalar(0.25), 2),
                                                 btTransform(btQuaternion::getIdentity(), start), 0, true);
    scene.make(btVector3(0, 1 + btScalar(0.05), 0));
    scene.steps(30);
    const btScalar speed = 2;
    btVector3 platformAt = start;
    const btVector3 characterStart = scene.rig.at();
    int grounded = 0, steps = 0;
    btScalar lag = 0;
    bool fell = false;
    for (int i = 0; i < 180 && !fell; ++i) {
        platformAt += btVector3(speed * kDt, 0, 0);
        const btTransform moved =
            scene.rig.level().place(btTransform(btQuaternion::getIdentity(), platformAt));
        body.setWorldTransform(moved);
        body.setInterpolationWorldTransform(moved);
        body.setLinearVelocity(scene.rig.level().toWorldVector(btVector3(speed, 0, 0)));
        scene.rig.step(kDt);
        ++steps;
        grounded += scene.rig.onGround() ? 1 : 0;
        lag = (platformAt.x() - start.x()) - (scene.rig.at().x() - characterStart.x());
        fell = scene.bottom() < btScalar(0.5);
    }
    return format("stays on: **%s**%s; lag behind the platform %.3f m; onGround %d of %d steps", yesNo(!fell),
                  fell ? format(" (fell off after %.2f s)", steps * double(kDt)).c_str() : "", double(lag),
                  grounded, steps);
}

// A kinematic elevator (top at 1 m) going up at 1 m/s for 2 s, then down for 2 s: onGround and the gap
// between the character's bottom and the platform's top.
std::string elevator(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.rig.level().addBox(btVector3(50, 1, 50), btVector3(0, -11, 0));
    const btVector3 start(0, btScalar(0.75), 0);
    btRigidBody& body = scene.rig.level().addBox(btVector3(2, btScalar(0.25), 2),
                                                 btTransform(btQuaternion::getIdentity(), start), 0, true);
    scene.make(btVector3(0, 1 + btScalar(0.05), 0));
    scene.steps(30);
    btVector3 platformAt = start;
    int grounded[2] = {0, 0};
    btScalar gapLow[2] = {1e9, 1e9}, gapHigh[2] = {-1e9, -1e9};
    for (int i = 0; i < 240; ++i) {
        const int phase = i < 120 ? 0 : 1;
        const btScalar velocity = phase == 0 ? 1 : -1;
        platformAt += btVector3(0, velocity * kDt, 0);
        const btTransform moved =
            scene.rig.level().place(btTransform(btQuaternion::getIdentity(), platformAt));
        body.setWorldTransform(moved);
        body.setInterpolationWorldTransform(moved);
        body.setLinearVelocity(scene.rig.level().toWorldVector(btVector3(0, velocity, 0)));
        scene.rig.step(kDt);
        grounded[phase] += scene.rig.onGround() ? 1 : 0;
        const btScalar gap = scene.bottom() - (platformAt.y() + btScalar(0.25));
        gapLow[phase] = std::min(gapLow[phase], gap);
        gapHigh[phase] = std::max(gapHigh[phase], gap);
    }
    return format("up: onGround %d of 120, gap %.3f to %.3f m; down: onGround %d of 120, gap %.3f to %.3f m",
                  grounded[0], double(gapLow[0]), double(gapHigh[0]), grounded[1], double(gapLow[1]),
                  double(gapHigh[1]));
}

// The level-coordinate track of a walk through stairs and along a wall, under the frame.
std::vector<btVector3> track(Controller kind, const CharacterShape& shape, const btTransform& frame) {
    Scene scene(kind, shape, frame);
    scene.floor();
    addStairs(scene.rig.level(), btScalar(0.3));
    scene.rig.level().addBox(btVector3(10, 2, btScalar(0.5)), btVector3(4, 2, btScalar(-2.5)));
    scene.make(btVector3(-2, btScalar(0.05), -1));
    std::vector<btVector3> points;
    scene.rig.walk(btVector3(std::cos(btRadians(30)), 0, -std::sin(btRadians(30))) * (2 * kDt));
    scene.steps(240, [&](int) { points.push_back(scene.rig.at()); });
    return points;
}

std::string upAxis(Controller kind, const CharacterShape& shape) {
    const std::vector<btVector3> y = track(kind, shape, btTransform::getIdentity());
    // y up in the level is +z in the world.
    const std::vector<btVector3> z =
        track(kind, shape, btTransform(btQuaternion(btVector3(1, 0, 0), SIMD_HALF_PI), btVector3(0, 0, 0)));
    btScalar worst = 0;
    std::size_t at = 0;
    for (std::size_t i = 0; i < y.size(); ++i)
        if ((y[i] - z[i]).length() > worst) {
            worst = (y[i] - z[i]).length();
            at = i;
        }
    const btVector3 endY = y.back(), endZ = z.back();
    return format(
        "largest distance between the +Y and +Z tracks (4 s over stairs and along a wall) **%.3g m** (step "
        "%zu); ends (%.2f, %.2f, %.2f) vs (%.2f, %.2f, %.2f)",
        double(worst), at, double(endY.x()), double(endY.y()), double(endY.z()), double(endZ.x()),
        double(endZ.y()), double(endZ.z()));
}

std::string restOnMesh(Controller kind, const CharacterShape& shape) {
    Scene scene(kind, shape);
    scene.rig.level().addMesh(CharacterLevel::terrainTriangles(
        20, 1, btVector3(btScalar(0.37), 0, btScalar(0.21)), [](btScalar, btScalar) { return btScalar(0); }));
    scene.make(btVector3(0, btScalar(0.5), 0));
    scene.steps(120);
    btScalar low = std::numeric_limits<btScalar>::max(), high = -low;
    int grounded = 0;
    scene.steps(120, [&](int) {
        low = std::min(low, scene.bottom());
        high = std::max(high, scene.bottom());
        grounded += scene.rig.onGround() ? 1 : 0;
    });
    return format(
        "bottom %.4f to %.4f m above the mesh: **%.4f m into it**, %.4f m below our skin (0.02); onGround %d "
        "of "
        "120",
        double(low), double(high), double(std::max(-low, btScalar(0))),
        double(std::max(kSkin - low, btScalar(0))), grounded);
}

// Walking off a 1 m ledge (the box's edge at x = 1) at `speed` for 10 s: how far past the edge the centre
// got while the character still stood on the ledge (onGround at its height), and whether it got down.
std::pair<btScalar, bool> walkOffLedge(Controller kind, const CharacterShape& shape, btScalar speed) {
    Scene scene(kind, shape);
    scene.rig.level().addBox(btVector3(200, 1, 50), btVector3(0, -1, 0));
    scene.rig.level().addBox(btVector3(3, btScalar(0.5), 2), btVector3(-2, btScalar(0.5), 0));
    scene.make(btVector3(0, btScalar(1.05), 0));
    scene.steps(30);
    scene.rig.walk(btVector3(speed * kDt, 0, 0));
    btScalar pastEdge = -1;
    scene.steps(600, [&](int) {
        if (scene.rig.onGround() && scene.bottom() > btScalar(0.9))
            pastEdge = std::max(pastEdge, scene.rig.at().x() - 1);
    });
    return {pastEdge, scene.bottom() < btScalar(0.1)};
}

std::string ledge(Controller kind, const CharacterShape& shape) {
    std::string cell = format("stands with its centre up to **%.3f m** past the edge (1 m/s); got down at",
                              double(walkOffLedge(kind, shape, 1).first));
    for (const btScalar speed :
         {btScalar(0.15), btScalar(0.25), btScalar(0.5), btScalar(0.75), btScalar(1), btScalar(4)}) {
        const bool down = walkOffLedge(kind, shape, speed).second;
        cell += format(" %.2f m/s: %s;", double(speed), down ? "yes" : "**no (stuck on the edge)**");
    }
    cell.pop_back();
    return cell;
}

// 60 seeded random 2 s walks at 2-6 m/s on the benchmark's bumpy terrain mesh alone (slopes under 30
// degrees): how many keep under 80% of their walk across the ground or stop for a step.
std::string terrainWalks(Controller kind, const CharacterShape& shape) {
    std::mt19937 random(7);
    std::uniform_real_distribution<float> where(-25, 25), angle(0, float(SIMD_2_PI)), speed(2, 6);
    int bad = 0, stillSteps = 0;
    btScalar worst = 1;
    for (int walk = 0; walk < 60; ++walk) {
        const btScalar x = where(random), z = where(random), a = angle(random), v = speed(random);
        Scene scene(kind, shape);
        scene.rig.level().addMesh(
            CharacterLevel::terrainTriangles(kTerrainCells, kTerrainCell, btVector3(0, 0, 0), terrainHeight));
        scene.make(btVector3(x, terrainHeight(x, z) + shape.radius, z));
        scene.steps(30);
        const btVector3 direction(std::cos(a), 0, std::sin(a));
        scene.rig.walk(direction * (v * kDt));
        const btVector3 start = scene.rig.at();
        btVector3 previous = start;
        int still = 0;
        scene.steps(120, [&](int) {
            const btVector3 now = scene.rig.at();
            if ((now - previous).length() < btScalar(1e-6)) ++still;
            previous = now;
        });
        const btScalar progress = (previous - start).dot(direction) / (2 * v);
        worst = std::min(worst, progress);
        stillSteps += still;
        if (progress < btScalar(0.8) || still > 0) ++bad;
    }
    return format(
        "**%d of 60** walks under 80%% progress or stopping; worst progress %.0f%%; %d steps without moving",
        bad, 100 * double(worst), stillSteps);
}

// The benchmark's level and walkers (100 characters, 2 s segments of seeded random directions at 2-6 m/s,
// stairs, ramps and walls among the bumps): segments in which a character got less than a tenth of its
// walk's progress (walls and corners stop some legitimately).
std::string crowdWalks(Controller kind, const CharacterShape& shape) {
    CharacterLevel level;
    BulletCharacters bullet(level);
    buildBenchLevel(level);
    const int segments = 16;
    const std::vector<Walker> walkers = makeWalkers(100, segments, 1234);
    std::vector<btCharacterControllerInterface*> controllers;
    std::vector<btCollisionObject*> ghosts;
    for (const Walker& walker : walkers) {
        if (kind == Controller::Bullet) {
            btKinematicCharacterController& character = bullet.add(shape, walker.start, kStepHeight);
            character.setMaxSlope(btRadians(45));
            controllers.push_back(&character);
            ghosts.push_back(character.getGhostObject());
        } else {
            CharacterController& character = level.addCharacter(shape.make(), walker.start, kStepHeight);
            character.setMaxSlope(btRadians(45));
            controllers.push_back(&character);
            ghosts.push_back(character.getGhostObject());
        }
    }
    for (int i = 0; i < 120; ++i)
        level.step(kDt);
    int stuck = 0, total = 0;
    std::vector<btVector3> starts(walkers.size());
    for (long step = 0; step <= long(segments) * kSegmentSteps; ++step) {
        if (step % kSegmentSteps == 0) {
            for (std::size_t i = 0; i < walkers.size(); ++i) {
                const btVector3 at = ghosts[i]->getWorldTransform().getOrigin();
                if (step > 0) {
                    const btVector3 moved = at - starts[i];
                    const btVector3 wanted =
                        velocityAt(walkers[i], step - 1) * (kDt * btScalar(kSegmentSteps));
                    ++total;
                    if (btVector3(moved.x(), 0, moved.z()).length() < btScalar(0.1) * wanted.length())
                        ++stuck;
                }
                starts[i] = at;
            }
        }
        if (step == long(segments) * kSegmentSteps) break;
        for (std::size_t i = 0; i < walkers.size(); ++i)
            controllers[i]->setWalkDirection(velocityAt(walkers[i], step) * kDt);
        level.step(kDt);
    }
    return format("**%d of %d** segments under a tenth of the walk's progress", stuck, total);
}

struct Check {
    const char* name;
    std::string (*run)(Controller, const CharacterShape&);
};

const Check kChecks[] = {
    {"onGround() at the apex of a 5 m/s jump", jumpApex},
    {"onGround() at the apex of a 4.905 m/s jump (30 g dt)", jumpApexExact},
    {"onGround() in a 5 m/s jump into a ceiling", jumpCeiling},
    {"1,000 m/s walk into a 1 cm box wall (60 Hz)", thinWall},
    {"10 stairs, 0.30 m rise, 0.3 m tread, step height 0.35, 2 m/s", stairs},
    {"down 10 stairs, 0.30 m rise, 0.3 m tread, for 6 s", stairsDown},
    {"0.50 m riser, step height 0.35, 2 m/s for 3 s", highRiser},
    {"tallest riser climbed (0.20 to 1.00 m by 2 cm)", tallestRiser},
    {"0.30 m stairs under a ceiling 0.21 m above the head", lowCeiling},
    {"standing 10 s on a 40 degree slope", standOnSlope},
    {"45.5 degree ramp, 45 degree limit, 3 m/s for 3 s", steepRamp},
    {"walking 10 s into a 90 degree corner, 4 m/s", corner},
    {"sliding along a wall at 30 degrees, 4 m/s", wallSlide},
    {"kinematic platform moving 2 m/s for 3 s", platform},
    {"kinematic elevator, 1 m/s up for 2 s then down for 2 s", elevator},
    {"up axis +Z vs +Y, same level rotated", upAxis},
    {"at rest 2 s on a flat triangle mesh", restOnMesh},
    {"walking off a 1 m ledge for 10 s", ledge},
    {"60 random 2 s walks, 2-6 m/s, on the bumpy terrain mesh alone", terrainWalks},
    {"benchmark level: 100 walkers, 16 segments of 2 s", crowdWalks},
};

void table(const CharacterShape& shape) {
    std::printf("\n### %s\n\n", shape.halfHeight > 0
                                    ? format("Capsule, radius %.2f, half height %.2f", double(shape.radius),
                                             double(shape.halfHeight))
                                          .c_str()
                                    : format("Sphere, radius %.2f", double(shape.radius)).c_str());
    std::printf("| check | Bullet KCC | ours |\n|---|---|---|\n");
    for (const Check& check : kChecks) {
        std::string cells[2];
        for (const Controller kind : {Controller::Bullet, Controller::Ours}) {
            try {
                cells[kind == Controller::Bullet ? 0 : 1] = check.run(kind, shape);
            } catch (const std::invalid_argument& error) {
                cells[kind == Controller::Bullet ? 0 : 1] = std::string("not run: ") + error.what();
            }
        }
        std::printf("| %s | %s | %s |\n", check.name, cells[0].c_str(), cells[1].c_str());
        std::fflush(stdout);
    }
}

}  // namespace
}  // namespace analytic::bench

int main() {
    using namespace analytic::bench;
    std::printf(
        "Bullet's btKinematicCharacterController vs analytic::CharacterController: gravity 9.81, step height "
        "0.35, max slope 45 degrees, 60 Hz, walks as per-step displacements; Bullet in %s\n",
        sizeof(btScalar) == 8 ? "double" : "float");
    table(CharacterShape{btScalar(0.3), 0});
    if (kRunCapsules) {
        try {
            Rig probe(Controller::Ours);
            probe.make(CharacterShape{btScalar(0.3), btScalar(0.6)}, btVector3(0, 1, 0), kStepHeight);
            table(CharacterShape{btScalar(0.3), btScalar(0.6)});
        } catch (const std::invalid_argument& error) {
            std::printf("\nCapsules (0.3 / half height 0.6) skipped: our constructor throws: %s\n",
                        error.what());
        }
    }
    return 0;
}
