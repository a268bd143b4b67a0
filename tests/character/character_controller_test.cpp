// SPDX-License-Identifier: Zlib
// The character controller in scripted levels, asserting numbers: resting, jumping, walls at any speed,
// sliding, corners, slopes, stairs, platforms, pushing, up axes, hostile input.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <vector>

#include "support/character_level.hpp"

namespace analytic::test {
namespace {

constexpr btScalar kRadius = btScalar(0.3);
constexpr btScalar kSkin = btScalar(0.02);
// Position tolerance of a resting or sliding character: the sweeps are exact; what is left is rounding
// of coordinates near 1 to 100.
constexpr btScalar kExact = sizeof(btScalar) == 4 ? btScalar(2e-5) : btScalar(1e-9);

// Each behaviour test runs for a sphere and for an upright capsule of the same radius (half height 0.6).
// Positions are those of the bottom sphere's centre (the feet's centre), which moves the same for both.
btScalar gHalfHeight = 0;

class CharacterShapes : public ::testing::TestWithParam<double> {
protected:
    void SetUp() override { gHalfHeight = btScalar(GetParam()); }
    void TearDown() override { gHalfHeight = 0; }
};
class CharacterGroupShapes : public CharacterShapes {};

// A character with its feet's centre at `feet` (level coordinates).
CharacterController& addCharacter(CharacterLevel& level, const btVector3& feet,
                                  btScalar stepHeight = btScalar(0.35)) {
    if (gHalfHeight == 0) return level.addSphereCharacter(kRadius, feet, stepHeight);
    return level.addCharacter(std::make_unique<btCapsuleShape>(kRadius, 2 * gHalfHeight),
                              feet + btVector3(0, gHalfHeight, 0), stepHeight);
}

btVector3 feet(const CharacterLevel& level, const CharacterController& character) {
    return level.at(character) - btVector3(0, gHalfHeight, 0);
}

btScalar height(const CharacterLevel& level, const CharacterController& character) {
    return feet(level, character).y();
}

TEST_P(CharacterShapes, RestsOnTheFloorAtTheSkinAndStaysThere) {
    CharacterLevel level;
    level.addBox(btVector3(20, 1, 20), btVector3(0, -1, 0));
    CharacterController& character = addCharacter(level, btVector3(0, 2, 0));
    for (int i = 0; i < 120; ++i)
        level.step(btScalar(1) / 60);
    ASSERT_TRUE(character.onGround());
    EXPECT_NEAR(height(level, character), kRadius + kSkin, kExact);
    EXPECT_NEAR(character.groundState().normal.y(), 1, kExact);
    const btVector3 rest = feet(level, character);
    for (int i = 0; i < 600; ++i) {
        level.step(btScalar(1) / 60);
        ASSERT_TRUE(character.onGround()) << i;
    }
    EXPECT_LT((feet(level, character) - rest).length(), btScalar(1e-7) + kExact / 10);
}

TEST_P(CharacterShapes, IsNotOnGroundAtTheApexOfAJumpAndIsAfterLanding) {
    CharacterLevel level;
    level.addPlane(btVector3(0, 1, 0), 0);
    CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
    level.step(btScalar(1) / 60);
    ASSERT_TRUE(character.onGround());
    ASSERT_TRUE(character.canJump());
    character.setJumpSpeed(5);
    character.jump();
    EXPECT_FALSE(character.onGround());
    btScalar previous = height(level, character), highest = previous;
    bool sawApex = false, landed = false;
    for (int i = 0; i < 200 && !landed; ++i) {
        level.step(btScalar(1) / 60);
        const btScalar now = height(level, character);
        if (now < previous && !sawApex) {
            sawApex = true;
            EXPECT_FALSE(character.onGround()) << "at the apex";
        }
        if (!sawApex) {
            EXPECT_FALSE(character.onGround()) << "rising, step " << i;
        }
        highest = std::max(highest, now);
        landed = sawApex && character.onGround();
        previous = now;
    }
    EXPECT_TRUE(sawApex);
    EXPECT_TRUE(landed);
    // v^2 / 2g = 1.274 above the start, less the first step's gravity.
    EXPECT_NEAR(highest - (kRadius + kSkin), btScalar(25 / (2 * 9.81)), btScalar(0.1));
    EXPECT_NEAR(height(level, character), kRadius + kSkin, kExact);
}

// At 1,000 m/s into a 1 cm wall: the character stops at the skin, every tick rate.
TEST_P(CharacterShapes, NeverPassesAThinWallAtAnySpeed) {
    for (const int hz : {30, 60, 360}) {
        CharacterLevel level;
        level.addBox(btVector3(20, 1, 20), btVector3(0, -1, 0));
        level.addBox(btVector3(btScalar(0.005), 2, 5), btVector3(3, 2, 0));
        CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / btScalar(hz);
        character.setWalkDirection(btVector3(1000 * dt, 0, 0));
        for (int i = 0; i < hz / 2; ++i) {
            level.step(dt);
            ASSERT_LT(feet(level, character).x(), btScalar(3 - 0.005) - kRadius) << hz << " Hz, step " << i;
        }
        EXPECT_NEAR(feet(level, character).x(), btScalar(3 - 0.005) - kRadius - kSkin, kExact * 10) << hz;
        EXPECT_TRUE(character.onGround());
    }
}

// Walking into a wall at angle theta from its normal slides along it at v cos(theta)... (the walk's part
// along the wall: v sin of the angle to the normal).
TEST_P(CharacterShapes, SlidesAlongAWallAtTheWalksPartAlongIt) {
    for (const int hz : {30, 60, 120, 360}) {
        for (const btScalar degrees : {btScalar(10), btScalar(30), btScalar(60), btScalar(85)}) {
            CharacterLevel level;
            level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
            level.addBox(btVector3(btScalar(0.5), 2, 50), btVector3(btScalar(1.5), 2, 0));
            CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, -20));
            const btScalar dt = btScalar(1) / btScalar(hz), speed = 4;
            // theta: between the walk and the wall (the wall runs along z, its normal along -x).
            const btScalar theta = btRadians(degrees);
            character.setWalkDirection(btVector3(std::sin(theta), 0, std::cos(theta)) * (speed * dt));
            for (int i = 0; i < hz; ++i)
                level.step(dt);  // reaches the wall within a second
            ASSERT_NEAR(feet(level, character).x(), 1 - kRadius - kSkin, kExact * 10) << hz << " " << degrees;
            const btVector3 before = feet(level, character);
            for (int i = 0; i < hz; ++i) {
                level.step(dt);
                ASSERT_TRUE(character.onGround());
            }
            const btScalar along = feet(level, character).z() - before.z();
            EXPECT_NEAR(along / (speed * std::cos(theta)), 1, btScalar(0.005)) << hz << " Hz, " << degrees;
            EXPECT_NEAR(feet(level, character).x(), 1 - kRadius - kSkin, kExact * 10);
        }
    }
}

// Walls meeting at 30 to 150 degrees, walked into along the bisector for 10 s: never inside a wall, and
// still once settled.
TEST_P(CharacterShapes, SettlesInCornersWithoutJitter) {
    for (const bool mesh : {false, true})
        for (const btScalar degrees :
             {btScalar(30), btScalar(60), btScalar(90), btScalar(120), btScalar(150)}) {
            CharacterLevel level;
            level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
            // Two walls through the corner at the origin, each turned half the angle from the walk (+x):
            // boxes, or a mesh of their inside faces.
            const btScalar half = btRadians(degrees) / 2;
            std::vector<btVector3> corners;
            for (const btScalar side : {btScalar(1), btScalar(-1)}) {
                const btQuaternion turn(btVector3(0, 1, 0), side * (SIMD_HALF_PI - half));
                // The wall's face through the origin: its inside face is its -x face turned.
                const btVector3 across = quatRotate(turn, btVector3(1, 0, 0));
                if (mesh)
                    CharacterLevel::addQuad(corners, btVector3(0, 0, 0), quatRotate(turn, btVector3(0, 4, 0)),
                                            quatRotate(turn, btVector3(0, 4, side * -20)),
                                            quatRotate(turn, btVector3(0, 0, side * -20)));
                else
                    level.addBox(btVector3(btScalar(0.5), 2, 10),
                                 btTransform(turn, across * btScalar(0.5) +
                                                       quatRotate(turn, btVector3(0, 2, side * -10))));
            }
            if (mesh) level.addMesh(corners);
            CharacterController& character = addCharacter(level, btVector3(-5, kRadius + kSkin, 0));
            const btScalar dt = btScalar(1) / 60;
            character.setWalkDirection(btVector3(4 * dt, 0, 0));
            btVector3 previous = feet(level, character);
            btScalar settledMove = 0;
            for (int i = 0; i < 600; ++i) {
                level.step(dt);
                const btVector3 now = feet(level, character);
                if (i >= 300) settledMove = std::max(settledMove, (now - previous).length());
                previous = now;
            }
            EXPECT_LT(settledMove, btScalar(1e-5)) << degrees << (mesh ? " mesh" : " boxes");
            EXPECT_TRUE(character.onGround()) << degrees << (mesh ? " mesh" : " boxes");
            // Not inside: the distance to each wall's plane is at least the radius.
            for (const btScalar side : {btScalar(1), btScalar(-1)}) {
                const btQuaternion turn(btVector3(0, 1, 0), side * (SIMD_HALF_PI - half));
                const btVector3 inward = quatRotate(turn, btVector3(-1, 0, 0));
                EXPECT_GE(previous.dot(inward), kRadius + kSkin * btScalar(0.89))
                    << degrees << (mesh ? " mesh" : "");
            }
        }
}

// Ramps under a 45 degree limit: 44.5 degrees is climbed, 45.5 is not.
TEST_P(CharacterShapes, ClimbsSlopesWithinTheLimitOnly) {
    for (const btScalar degrees : {btScalar(44.5), btScalar(45.5)}) {
        CharacterLevel level;
        level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
        // Rising toward +x from x = 2 (its top face through (2 + 5 cos, 5 sin, 0)).
        const btScalar a = btRadians(degrees);
        level.addRamp(degrees, btVector3(2 + 5 * std::cos(a), 5 * std::sin(a), 0), btVector3(5, 1, 5));
        CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0), 0);
        const btScalar dt = btScalar(1) / 60;
        character.setWalkDirection(btVector3(3 * dt, 0, 0));
        for (int i = 0; i < 180; ++i)
            level.step(dt);
        if (degrees < 45) {
            EXPECT_GT(height(level, character), btScalar(2)) << degrees;
            EXPECT_TRUE(character.onGround()) << degrees;
        } else {
            EXPECT_LT(height(level, character), kRadius + kSkin + btScalar(0.2)) << degrees;
        }
    }
}

TEST_P(CharacterShapes, StandsStillOnAWalkableSlope) {
    CharacterLevel level;
    level.addRamp(40, btVector3(0, 0, 0), btVector3(10, 1, 10));
    const btScalar a = btRadians(40);
    const btVector3 normal(-std::sin(a), std::cos(a), 0);
    CharacterController& character = addCharacter(level, normal * (kRadius + kSkin));
    level.step(btScalar(1) / 60);
    ASSERT_TRUE(character.onGround());
    const btVector3 start = feet(level, character);
    for (int i = 0; i < 600; ++i) {
        level.step(btScalar(1) / 60);
        ASSERT_TRUE(character.onGround()) << i;
    }
    EXPECT_LT((feet(level, character) - start).length(), btScalar(1e-4));
}

TEST_P(CharacterShapes, StaysGroundedWalkingDownA45DegreeSlopeAt10MetresASecond) {
    CharacterLevel level;
    // Falling toward +x.
    level.addRamp(-45, btVector3(0, 0, 0), btVector3(30, 1, 10));
    level.addBox(btVector3(50, 1, 50), btVector3(0, -30, 0));
    const btVector3 normal(std::sin(btRadians(45)), std::cos(btRadians(45)), 0);
    CharacterController& character = addCharacter(level, btVector3(-15, 15, 0) + normal * (kRadius + kSkin));
    const btScalar dt = btScalar(1) / 60;
    level.step(dt);
    ASSERT_TRUE(character.onGround());
    character.setWalkDirection(btVector3(10 * dt, 0, 0));
    for (int i = 0; i < 120; ++i) {
        level.step(dt);
        ASSERT_TRUE(character.onGround()) << "step " << i << " at " << feet(level, character).x();
    }
    EXPECT_GT(feet(level, character).x(), btScalar(0));
}

TEST(CharacterController, HostileInputThrowsOrChangesNothing) {
    CharacterLevel level;
    level.addBox(btVector3(20, 1, 20), btVector3(0, -1, 0));
    CharacterController& character = level.addSphereCharacter(kRadius, btVector3(0, 1, 0));
    const btScalar nan = std::numeric_limits<btScalar>::quiet_NaN();
    const btScalar inf = std::numeric_limits<btScalar>::infinity();
    EXPECT_THROW(character.setWalkDirection(btVector3(nan, 0, 0)), std::invalid_argument);
    EXPECT_THROW(character.setVelocityForTimeInterval(btVector3(0, inf, 0), 1), std::invalid_argument);
    EXPECT_THROW(character.warp(btVector3(0, nan, 0)), std::invalid_argument);
    EXPECT_THROW(character.jump(btVector3(inf, 0, 0)), std::invalid_argument);
    EXPECT_THROW(character.setUp(btVector3(0, 0, 0)), std::invalid_argument);
    EXPECT_THROW(character.setMaxSlope(nan), std::invalid_argument);
    EXPECT_THROW(character.setContactOffset(0), std::invalid_argument);
    EXPECT_THROW(character.setStepHeight(-1), std::invalid_argument);
    btBoxShape box(btVector3(1, 1, 1));
    btCollisionObject ghost;
    EXPECT_THROW(CharacterController(&ghost, &box, 0), std::invalid_argument);
    EXPECT_THROW(CharacterController(nullptr, &box, 0), std::invalid_argument);
    btSphereShape sphere(1);
    EXPECT_THROW(CharacterController(&ghost, &sphere, nan), std::invalid_argument);
    EXPECT_THROW(CharacterController(&ghost, &sphere, 0, btVector3(0, 0, 0)), std::invalid_argument);
    // Fuzz findings: an up axis with one NaN among finite components, sizes whose sums overflow.
    EXPECT_THROW(CharacterController(&ghost, &sphere, 0, btVector3(0, nan, -3)), std::invalid_argument);
    EXPECT_THROW(character.setUp(btVector3(nan, 0, 1)), std::invalid_argument);
    btSphereShape huge(btScalar(1e30));
    EXPECT_THROW(CharacterController(&ghost, &huge, 0), std::invalid_argument);
    EXPECT_THROW(character.setContactOffset(btScalar(1e30)), std::invalid_argument);
    EXPECT_THROW(character.setStepHeight(btScalar(1e30)), std::invalid_argument);
    // An up axis of any magnitude: tiny and huge components are a direction like any other.
    CharacterController tiny(&ghost, &sphere, 0, btVector3(0, btScalar(1e-30), 0));
    EXPECT_NEAR(tiny.getUp().y(), 1, 1e-6);
    CharacterController large(&ghost, &sphere, 0, btVector3(0, 0, btScalar(1e30)));
    EXPECT_NEAR(large.getUp().z(), 1, 1e-6);
    const btVector3 before = level.at(character);
    for (const btScalar dt : {btScalar(0), -btScalar(1), nan, inf}) {
        character.updateAction(&level.world(), dt);
        EXPECT_EQ(level.at(character), before);
    }
    // Huge walks move by at most 1e6 and stay finite.
    character.setWalkDirection(btVector3(btScalar(1e30), 0, 0));
    level.step(btScalar(1) / 60);
    const btVector3 after = level.at(character);
    EXPECT_TRUE(std::isfinite(after.x()) && std::isfinite(after.y()) && std::isfinite(after.z()));
    EXPECT_LE(after.x(), btScalar(1.01e6));
}

// Warped into a box, the character is out within a few steps and never inside again.
TEST_P(CharacterShapes, RecoversFromBeingWarpedIntoGeometry) {
    CharacterLevel level;
    level.addBox(btVector3(20, 1, 20), btVector3(0, -1, 0));
    level.addBox(btVector3(1, 1, 1), btVector3(0, 1, 0));
    CharacterController& character = addCharacter(level, btVector3(btScalar(0.8), btScalar(1.2), 0));
    for (int i = 0; i < 3; ++i)
        level.step(btScalar(1) / 60);
    // Every point of the axis outside the box grown by the radius (the character does not overlap it),
    // sampled every 1/16 of the axis.
    for (int k = 0; k <= 16; ++k) {
        const btVector3 at = feet(level, character) + btVector3(0, 2 * gHalfHeight * btScalar(k) / 16, 0);
        const btVector3 nearest(std::clamp(at.x(), btScalar(-1), btScalar(1)),
                                std::clamp(at.y(), btScalar(0), btScalar(2)),
                                std::clamp(at.z(), btScalar(-1), btScalar(1)));
        EXPECT_GE((at - nearest).length(), kRadius + kSkin * btScalar(0.89)) << k;
    }
    EXPECT_GE(feet(level, character).y(), kRadius);
}

}  // namespace
}  // namespace analytic::test

namespace analytic::test {
namespace {

// Ten stairs of 0.30 m rise and tread from x = 2, as boxes, and the floor.
void addStairs(CharacterLevel& level, btScalar rise = btScalar(0.3), int count = 10) {
    level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    for (int k = 0; k < count; ++k) {
        const btScalar top = rise * btScalar(k + 1), start = 2 + btScalar(0.3) * btScalar(k);
        const btScalar end = 2 + btScalar(0.3) * btScalar(count) + 5;
        level.addBox(btVector3((end - start) / 2, top / 2, 3), btVector3((start + end) / 2, top / 2, 0));
    }
}

TEST_P(CharacterShapes, ClimbsAndDescendsStairsGroundedWithinATimeOfTheIdeal) {
    for (const int hz : {30, 60, 120, 240, 360}) {
        CharacterLevel level;
        addStairs(level);
        CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / btScalar(hz), speed = 4;
        level.step(dt);
        character.setWalkDirection(btVector3(speed * dt, 0, 0));
        // Up: from x = 0 to past the last riser (x = 5) on the top tread.
        const btScalar goal = btScalar(5.3);
        const int ideal = int(std::ceil(goal / (speed * dt)));
        int steps = 0, grounded = 0;
        while (feet(level, character).x() < goal && steps < 3 * ideal) {
            level.step(dt);
            ++steps;
            grounded += character.onGround();
        }
        EXPECT_LE(steps, int(btScalar(1.2) * btScalar(ideal))) << hz << " Hz";
        EXPECT_EQ(grounded, steps) << hz << " Hz";
        EXPECT_NEAR(height(level, character), 3 + kRadius + kSkin, kExact * 10) << hz;
        // Down: turn round and walk back to the floor.
        character.setWalkDirection(btVector3(-speed * dt, 0, 0));
        steps = grounded = 0;
        while (feet(level, character).x() > 1 && steps < 3 * ideal) {
            level.step(dt);
            ++steps;
            grounded += character.onGround();
        }
        EXPECT_LE(steps, int(btScalar(1.2) * btScalar(ideal))) << hz << " Hz, down";
        EXPECT_EQ(grounded, steps) << hz << " Hz, down";
        EXPECT_NEAR(height(level, character), kRadius + kSkin, kExact * 10) << hz;
    }
}

TEST_P(CharacterShapes, ARiserAboveTheStepHeightBlocksWithoutJitter) {
    CharacterLevel level;
    addStairs(level, btScalar(0.5), 1);
    CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
    const btScalar dt = btScalar(1) / 60;
    character.setWalkDirection(btVector3(4 * dt, 0, 0));
    btScalar lowest = 1e9f, highest = -1e9f;
    for (int i = 0; i < 180; ++i) {
        level.step(dt);
        ASSERT_TRUE(character.onGround()) << i;
        if (i > 60) {
            lowest = std::min(lowest, height(level, character));
            highest = std::max(highest, height(level, character));
        }
    }
    EXPECT_NEAR(feet(level, character).x(), 2 - kRadius - kSkin, kExact * 10);
    EXPECT_LT(highest - lowest, btScalar(1e-6));
    EXPECT_NEAR(highest, kRadius + kSkin, kExact);
}

TEST_P(CharacterShapes, DoesNotStepUpUnderALowCeiling) {
    CharacterLevel level;
    addStairs(level, btScalar(0.3), 1);
    // A ceiling over the step leaving 0.5 m above the tread: the character (0.64 m and the capsule's
    // axis) cannot stand there.
    level.addBox(btVector3(5, btScalar(0.5), 5),
                 btVector3(btScalar(1.9) + 5, btScalar(0.8) + btScalar(0.5) + 2 * gHalfHeight, 0));
    CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
    const btScalar dt = btScalar(1) / 60;
    character.setWalkDirection(btVector3(4 * dt, 0, 0));
    for (int i = 0; i < 120; ++i) {
        level.step(dt);
        ASSERT_LT(feet(level, character).y(), btScalar(0.8) - kRadius) << i;
    }
    EXPECT_NEAR(height(level, character), kRadius + kSkin, kExact);
    // At the riser's edge, 0.02 below the centre.
    EXPECT_NEAR(feet(level, character).x(), 2 - std::sqrt(kRadius * kRadius + 2 * kRadius * kSkin),
                kExact * 10);
}

// Flat ground of 1 cm triangles, and two heightfields side by side: the height never changes.
TEST_P(CharacterShapes, WalksOverSmallTrianglesAndHeightfieldSeamsAtConstantHeight) {
    {
        CharacterLevel level;
        std::vector<btVector3> corners;
        for (int i = 0; i < 150; ++i)
            for (int k = 0; k < 60; ++k) {
                const btScalar x = btScalar(i) / 100 - btScalar(0.5), z = btScalar(k) / 100 - btScalar(0.3);
                CharacterLevel::addQuad(corners, btVector3(x, 0, z), btVector3(x, 0, z + btScalar(0.01)),
                                        btVector3(x + btScalar(0.01), 0, z + btScalar(0.01)),
                                        btVector3(x + btScalar(0.01), 0, z));
            }
        level.addMesh(corners);
        CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / 60;
        level.step(dt);
        character.setWalkDirection(btVector3(btScalar(0.7) * dt, 0, btScalar(0.1) * dt));
        for (int i = 0; i < 60; ++i) {
            level.step(dt);
            ASSERT_TRUE(character.onGround()) << i;
            ASSERT_NEAR(height(level, character), kRadius + kSkin, btScalar(1e-5)) << i;
        }
        EXPECT_GT(feet(level, character).x(), btScalar(0.65));
    }
    {
        CharacterLevel level;
        for (const btScalar x : {btScalar(-4), btScalar(4)})
            level.addHeightfield(8, 1, btVector3(x, 0, 0), [](int, int) { return btScalar(0); });
        CharacterController& character = addCharacter(level, btVector3(-2, kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / 60;
        level.step(dt);
        character.setWalkDirection(btVector3(3 * dt, 0, btScalar(0.5) * dt));
        for (int i = 0; i < 90; ++i) {
            level.step(dt);
            ASSERT_TRUE(character.onGround()) << i;
            ASSERT_NEAR(height(level, character), kRadius + kSkin, btScalar(1e-5)) << i;
        }
        EXPECT_GT(feet(level, character).x(), btScalar(2));
    }
}

// A kinematic platform moving at 2 m/s and one turning at 1 rev/s: the character keeps its place on
// each, no step behind.
TEST_P(CharacterShapes, RidesMovingAndRotatingPlatformsWithNoLag) {
    for (const bool rotating : {false, true}) {
        CharacterLevel level;
        btRigidBody& platform =
            level.addBox(btVector3(5, btScalar(0.5), 5), btTransform::getIdentity(), 0, /*kinematic=*/true);
        CharacterController& character =
            addCharacter(level, btVector3(3, btScalar(0.5) + kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / 60;
        level.step(dt);
        ASSERT_TRUE(character.onGround());
        const btVector3 onPlatform = platform.getWorldTransform().invXform(feet(level, character));
        btScalar worst = 0;
        for (int i = 1; i <= 120; ++i) {
            const btScalar t = btScalar(i) * dt;
            btTransform place = btTransform::getIdentity();
            if (rotating)
                place.setRotation(btQuaternion(btVector3(0, 1, 0), SIMD_2_PI * t));
            else
                place.setOrigin(btVector3(2 * t, 0, 0));
            platform.setWorldTransform(place);
            platform.setInterpolationWorldTransform(place);
            level.step(dt);
            ASSERT_TRUE(character.onGround()) << i;
            worst = std::max(worst, (place.invXform(feet(level, character)) - onPlatform).length());
        }
        EXPECT_LT(worst, btScalar(1e-4)) << (rotating ? "rotating" : "moving");
    }
}

TEST_P(CharacterShapes, PushesADynamicBox) {
    CharacterLevel level;
    level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    btRigidBody& box =
        level.addBox(btVector3(btScalar(0.5), btScalar(0.5), btScalar(0.5)),
                     btTransform(btQuaternion::getIdentity(), btVector3(2, btScalar(0.5), 0)), 10);
    CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
    const btScalar dt = btScalar(1) / 60;
    for (int i = 0; i < 30; ++i)
        level.step(dt);  // the box settles
    const btScalar start = box.getCenterOfMassPosition().x();
    character.setWalkDirection(btVector3(2 * dt, 0, 0));
    for (int i = 0; i < 180; ++i)
        level.step(dt);
    EXPECT_GT(box.getCenterOfMassPosition().x() - start, btScalar(1));
    // Pushing nothing with strength 0: the box stays.
    character.setPushStrength(0);
    for (int i = 0; i < 60; ++i)
        level.step(dt);  // the box stops sliding
    const btScalar stopped = box.getCenterOfMassPosition().x();
    for (int i = 0; i < 60; ++i)
        level.step(dt);
    EXPECT_NEAR(box.getCenterOfMassPosition().x(), stopped, btScalar(1e-3));
}

// The stairs and a slope under every up axis: the same path, turned.
TEST_P(CharacterShapes, BehavesTheSameUnderAnyUpAxis) {
    auto run = [](const btTransform& frame) {
        CharacterLevel level(frame);
        addStairs(level, btScalar(0.3), 3);
        level.addRamp(30, btVector3(-4, 0, 0), btVector3(2, btScalar(0.2), 2));
        CharacterController& character = addCharacter(level, btVector3(-1, 1, btScalar(0.2)));
        const btScalar dt = btScalar(1) / 60;
        std::vector<btVector3> path;
        character.setWalkDirection(level.toWorldVector(btVector3(3 * dt, 0, btScalar(0.3) * dt)));
        for (int i = 0; i < 150; ++i) {
            level.step(dt);
            path.push_back(feet(level, character));
        }
        character.setWalkDirection(level.toWorldVector(btVector3(-3 * dt, 0, 0)));
        for (int i = 0; i < 200; ++i) {
            level.step(dt);
            path.push_back(feet(level, character));
        }
        return path;
    };
    const std::vector<btVector3> reference = run(btTransform::getIdentity());
    EXPECT_GT(reference[149].y(), btScalar(0.8));  // it climbed
    const btQuaternion frames[] = {
        btQuaternion(btVector3(0, 0, 1), -SIMD_HALF_PI),  // up +x
        btQuaternion(btVector3(1, 0, 0), SIMD_HALF_PI),   // up +z
        btQuaternion(btVector3(1, 0, 0), SIMD_PI),        // up -y
        btQuaternion(btVector3(1, 2, 3).normalized(), 1),
    };
    for (const btQuaternion& turn : frames) {
        const std::vector<btVector3> path = run(btTransform(turn, btVector3(10, -20, 30)));
        btScalar worst = 0;
        for (std::size_t i = 0; i < path.size(); ++i)
            worst = std::max(worst, (path[i] - reference[i]).length());
        // Rounding only (double: 5e-13): the turned levels sit 40 m from the origin, where each of the 350
        // steps rounds the float position by up to 2e-6.
        EXPECT_LT(worst, sizeof(btScalar) == 4 ? btScalar(3e-3) : btScalar(1e-9))
            << turn.getAxis().x() << " " << turn.getAxis().y();
    }
}

// 100 characters walking about a level with walls and steps, updated as a group on 1, 2 and 8 threads:
// the same positions, bit for bit.
TEST_P(CharacterGroupShapes, GivesTheSameResultsOnAnyNumberOfThreads) {
    auto run = [](unsigned threads) {
        CharacterLevel level;
        addStairs(level, btScalar(0.2), 5);
        level.addBox(btVector3(btScalar(0.2), 1, 8), btVector3(-3, 1, 0));
        CharacterGroup group(threads);
        std::vector<CharacterController*> characters;
        for (int i = 0; i < 100; ++i) {
            CharacterController& character =
                addCharacter(level, btVector3(btScalar(i % 10) - 5, 1, btScalar(i / 10) - 5));
            level.world().removeAction(&character);
            group.add(&character);
            characters.push_back(&character);
        }
        level.world().addAction(&group);
        const btScalar dt = btScalar(1) / 60;
        std::vector<btVector3> positions;
        for (int step = 0; step < 120; ++step) {
            if (step % 30 == 0)
                for (int i = 0; i < 100; ++i) {
                    const btScalar angle = btScalar(i * 37 + step) * btScalar(0.1);
                    characters[std::size_t(i)]->setWalkDirection(
                        btVector3(std::cos(angle), 0, std::sin(angle)) * (3 * dt));
                }
            level.step(dt);
        }
        for (CharacterController* character : characters)
            positions.push_back(feet(level, *character));
        level.world().removeAction(&group);
        return positions;
    };
    const std::vector<btVector3> one = run(1);
    for (const unsigned threads : {2u, 8u}) {
        const std::vector<btVector3> many = run(threads);
        for (std::size_t i = 0; i < one.size(); ++i)
            ASSERT_TRUE(one[i] == many[i]) << threads << " threads, character " << i;
    }
}

class CountingListener : public CharacterListener {
public:
    bool shouldCollide(const CharacterController&, const btCollisionObject& object) override {
        return &object != ignored;
    }
    void contactAdded(CharacterController&, const btCollisionObject& object, const btVector3&,
                      const btVector3& normal) override {
        added.push_back(&object);
        EXPECT_NEAR(normal.length(), 1, 1e-5);
    }
    void contactRemoved(CharacterController&, const btCollisionObject* object) override {
        removed.push_back(object);
    }
    const btCollisionObject* ignored = nullptr;
    std::vector<const btCollisionObject*> added, removed;
};

TEST_P(CharacterShapes, ReportsContactsSkipsTriggersAndFollowsItsFilter) {
    CharacterLevel level;
    btRigidBody& floor = level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    btRigidBody& trigger = level.addBox(btVector3(btScalar(0.5), 2, 2), btVector3(2, 2, 0));
    trigger.setCollisionFlags(trigger.getCollisionFlags() | btCollisionObject::CF_NO_CONTACT_RESPONSE);
    btRigidBody& ignoredWall = level.addBox(btVector3(btScalar(0.1), 2, 2), btVector3(4, 2, 0));
    btRigidBody& wall = level.addBox(btVector3(btScalar(0.1), 2, 2), btVector3(6, 2, 0));
    CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
    CountingListener listener;
    listener.ignored = &ignoredWall;
    character.setListener(&listener);
    const btScalar dt = btScalar(1) / 60;
    level.step(dt);
    ASSERT_EQ(listener.added.size(), 1u);
    EXPECT_EQ(listener.added[0], &floor);
    character.setWalkDirection(btVector3(3 * dt, 0, 0));
    for (int i = 0; i < 120; ++i)
        level.step(dt);
    // Through the trigger and the refused wall, stopped by the last.
    EXPECT_NEAR(feet(level, character).x(), btScalar(5.9) - kRadius - kSkin, kExact * 10);
    ASSERT_EQ(listener.added.size(), 2u);
    EXPECT_EQ(listener.added[1], &wall);
    // Jumping: the floor's contact ends, the wall's goes on; walking away from the wall ends it.
    character.setWalkDirection(btVector3(0, 0, 0));
    character.jump();
    for (int i = 0; i < 4; ++i)
        level.step(dt);
    ASSERT_EQ(listener.removed.size(), 1u);
    EXPECT_EQ(listener.removed[0], &floor);
    character.setWalkDirection(btVector3(btScalar(-0.1), 0, 0));
    level.step(dt);
    ASSERT_EQ(listener.removed.size(), 2u);
    EXPECT_EQ(listener.removed[1], &wall);
    character.setListener(nullptr);
}

TEST(CharacterController, RefusesToGrowWhereThereIsNoRoom) {
    CharacterLevel level;
    level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    level.addBox(btVector3(2, btScalar(0.5), 2),
                 btVector3(0, btScalar(0.8) + btScalar(0.5), 0));  // ceiling at 0.8
    CharacterController& character = level.addSphereCharacter(kRadius, btVector3(0, kRadius + kSkin, 0));
    level.step(btScalar(1) / 60);
    btSphereShape big(btScalar(0.5)), small(btScalar(0.2));
    const btVector3 before = level.at(character);
    EXPECT_FALSE(character.setShape(level.world(), &big));
    EXPECT_EQ(level.at(character), before);
    EXPECT_TRUE(character.setShape(level.world(), &small));
    EXPECT_NEAR(height(level, character), btScalar(0.2) + kSkin, kExact);  // the bottom stayed
    character.warp(btVector3(5, btScalar(0.2) + kSkin, 0));
    EXPECT_TRUE(character.setShape(level.world(), &big));
    EXPECT_NEAR(height(level, character), btScalar(0.5) + kSkin, kExact);
    EXPECT_THROW(character.setShape(level.world(), nullptr), std::invalid_argument);
}

}  // namespace
}  // namespace analytic::test

namespace analytic::test {
namespace {

enum class RampKind { Box, Plane, Mesh, Heightfield, Hull };

// A slope rising toward +x at `degrees` through the origin, as the given kind of shape, and the
// character standing on it at x = -1 (on the slope's normal through that point).
CharacterController& slopeLevel(CharacterLevel& level, RampKind kind, btScalar degrees) {
    const btScalar a = btRadians(degrees), rise = std::tan(a);
    const btVector3 normal(-std::sin(a), std::cos(a), 0);
    switch (kind) {
        case RampKind::Box:
            level.addRamp(degrees, btVector3(0, 0, 0), btVector3(20, 1, 10));
            break;
        case RampKind::Plane:
            level.addPlane(normal, 0);
            break;
        case RampKind::Mesh: {
            std::vector<btVector3> corners;
            CharacterLevel::addQuad(corners, btVector3(-10, -10 * rise, -10), btVector3(-10, -10 * rise, 10),
                                    btVector3(10, 10 * rise, 10), btVector3(10, 10 * rise, -10));
            level.addMesh(corners);
            break;
        }
        case RampKind::Heightfield:
            level.addHeightfield(40, btScalar(0.5), btVector3(0, 0, 0),
                                 [&](int i, int) { return (btScalar(i) - 20) * btScalar(0.5) * rise; });
            break;
        case RampKind::Hull: {
            // A wedge: its top face is the slope.
            auto hull = std::make_unique<btConvexHullShape>();
            for (const btScalar z : {btScalar(-10), btScalar(10)}) {
                hull->addPoint(btVector3(-10, -10 * rise, z), false);
                hull->addPoint(btVector3(10, 10 * rise, z), false);
                hull->addPoint(btVector3(10, -10 * rise - 1, z), false);
                hull->addPoint(btVector3(-10, -10 * rise - 1, z), false);
            }
            hull->recalcLocalAabb();
            hull->setMargin(0);
            level.addShape(std::move(hull), btTransform::getIdentity());
            break;
        }
    }
    const btVector3 foot(-1, -rise, 0);
    return addCharacter(level, foot + normal * (kRadius + kSkin), 0);
}

TEST_P(CharacterShapes, TheSlopeLimitHoldsOnEveryShapeType) {
    for (const RampKind kind :
         {RampKind::Box, RampKind::Plane, RampKind::Mesh, RampKind::Heightfield, RampKind::Hull}) {
        for (const btScalar degrees : {btScalar(44.5), btScalar(45.5)}) {
            CharacterLevel level;
            CharacterController& character = slopeLevel(level, kind, degrees);
            const btScalar dt = btScalar(1) / 60;
            const btScalar start = height(level, character);
            character.setWalkDirection(btVector3(3 * dt, 0, 0));
            for (int i = 0; i < 120; ++i)
                level.step(dt);
            const btScalar gained = height(level, character) - start;
            if (degrees < 45) {
                EXPECT_GT(gained, btScalar(4)) << int(kind) << " " << degrees;
                EXPECT_TRUE(character.onGround()) << int(kind);
            } else {
                EXPECT_LT(gained, btScalar(1e-3)) << int(kind) << " " << degrees;
                EXPECT_FALSE(character.onGround()) << int(kind);
            }
        }
    }
}

// Down a 30 degree ramp onto the floor and back up: the vertical speed goes between the ramp's and 0
// with no spike past either.
TEST_P(CharacterShapes, NoVerticalSpikeAtARampToFloorTransition) {
    CharacterLevel level;
    level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    // The ramp falls toward +x and meets the floor at x = 0.
    const btScalar a = btRadians(30);
    std::vector<btVector3> corners;
    CharacterLevel::addQuad(corners, btVector3(-10, 10 * std::tan(a), -5),
                            btVector3(-10, 10 * std::tan(a), 5), btVector3(0, 0, 5), btVector3(0, 0, -5));
    level.addMesh(corners);
    const btVector3 normal(std::sin(a), std::cos(a), 0);
    CharacterController& character =
        addCharacter(level, btVector3(-5, 5 * std::tan(a), 0) + normal * (kRadius + kSkin));
    const btScalar dt = btScalar(1) / 60, speed = 4, slopeRate = speed * std::tan(a);
    level.step(dt);
    for (const btScalar direction : {btScalar(1), btScalar(-1)}) {
        character.setWalkDirection(btVector3(direction * speed * dt, 0, 0));
        btScalar previous = height(level, character);
        for (int i = 0; i < 150; ++i) {
            level.step(dt);
            const btScalar rate = (height(level, character) - previous) / dt;
            previous = height(level, character);
            ASSERT_TRUE(character.onGround()) << direction << " " << i;
            ASSERT_LE(rate * direction, btScalar(0.05)) << direction << " step " << i;
            ASSERT_GE(rate * direction, -slopeRate - btScalar(0.05)) << direction << " step " << i;
        }
    }
}

// A kinematic wall moving into a standing character pushes it: never inside, however it comes.
TEST_P(CharacterShapes, IsPushedOutByKinematicBodies) {
    CharacterLevel level;
    level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
    btRigidBody& wall = level.addBox(btVector3(btScalar(0.5), 1, 2), btTransform::getIdentity(), 0, true);
    CharacterController& character = addCharacter(level, btVector3(1, kRadius + kSkin, 0));
    const btScalar dt = btScalar(1) / 60;
    for (int i = 1; i <= 120; ++i) {
        const btTransform place(btQuaternion::getIdentity(), btVector3(-2 + btScalar(i) * 2 * dt, 1, 0));
        wall.setWorldTransform(place);
        level.step(dt);
        const btScalar gap = feet(level, character).x() - (place.getOrigin().x() + btScalar(0.5));
        ASSERT_GE(gap, kRadius + btScalar(0.89) * kSkin) << i;
        ASSERT_TRUE(character.onGround()) << i;
    }
    EXPECT_GT(feet(level, character).x(), btScalar(2));
}

}  // namespace
}  // namespace analytic::test

namespace analytic::test {
namespace {

// Cylinders and cones block the character too: exactly for a sphere, by Bullet's convex cast of a
// btCapsuleShape for a capsule (within Bullet's millimetre). Walked into at 5 m/s for 2 s, never passed.
TEST_P(CharacterShapes, IsBlockedByCylindersAndCones) {
    for (const bool cone : {false, true}) {
        CharacterLevel level;
        level.addBox(btVector3(50, 1, 50), btVector3(0, -1, 0));
        std::unique_ptr<btConvexShape> post;
        if (cone)
            post = std::make_unique<btConeShape>(btScalar(1), btScalar(4));
        else
            post = std::make_unique<btCylinderShape>(btVector3(1, 2, 1));
        level.addShape(std::move(post), btTransform(btQuaternion::getIdentity(), btVector3(3, 2, 0)));
        CharacterController& character = addCharacter(level, btVector3(0, kRadius + kSkin, 0));
        const btScalar dt = btScalar(1) / 60;
        character.setWalkDirection(btVector3(5 * dt, 0, 0));
        for (int i = 0; i < 120; ++i) {
            level.step(dt);
            // The feet's distance from the post's outline in the plane z = 0 (the character's): the
            // cylinder's side x = 2, the cone's side from (2, 0) up to its apex (3, 4).
            const btVector3 at = feet(level, character);
            const btScalar gap =
                cone ? (btScalar(4) * (btScalar(2) - at.x()) + (at.y() - 0)) / std::sqrt(btScalar(17))
                     : btScalar(2) - at.x();
            ASSERT_GT(gap, kRadius - btScalar(1e-3)) << cone << " " << i;
        }
        EXPECT_GT(feet(level, character).x(), btScalar(1)) << cone;
    }
}

}  // namespace
}  // namespace analytic::test

namespace analytic::test {
namespace {

INSTANTIATE_TEST_SUITE_P(SphereAndCapsule, CharacterShapes, ::testing::Values(0.0, 0.6));
INSTANTIATE_TEST_SUITE_P(SphereAndCapsule, CharacterGroupShapes, ::testing::Values(0.0, 0.6));

}  // namespace
}  // namespace analytic::test
