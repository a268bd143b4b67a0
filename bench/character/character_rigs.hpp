// SPDX-License-Identifier: Zlib
// Characters of both controllers in CharacterLevel worlds, for the benchmark and the side-by-side
// comparison: Bullet's btKinematicCharacterController (with the btPairCachingGhostObject and the
// btGhostPairCallback it needs) and analytic::CharacterController, made with the same shape, step height,
// up axis and gravity, driven through btCharacterControllerInterface. Also the benchmark's level: a bumpy
// terrain mesh of about 10,000 triangles with stairs, ramps and walls.
#pragma once

#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <cmath>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "support/character_level.hpp"

namespace analytic::bench {

using test::CharacterLevel;

enum class Controller { Bullet, Ours };
inline const char* nameOf(Controller controller) {
    return controller == Controller::Bullet ? "Bullet KCC" : "ours";
}

constexpr btScalar kGravity = btScalar(9.81);

// The character's shape: a sphere for halfHeight 0, else an upright capsule.
struct CharacterShape {
    btScalar radius = btScalar(0.3);
    btScalar halfHeight = 0;
    std::unique_ptr<btConvexShape> make() const {
        if (halfHeight > 0) return std::make_unique<btCapsuleShape>(radius, 2 * halfHeight);
        return std::make_unique<btSphereShape>(radius);
    }
};

// Bullet's controllers added to a level: they own their ghosts, shapes and the level's ghost pair
// callback, and leave the world before the level goes.
class BulletCharacters {
public:
    explicit BulletCharacters(CharacterLevel& level) : level_(level) {
        level_.world().getPairCache()->setInternalGhostPairCallback(&ghostPairs_);
    }
    ~BulletCharacters() {
        for (auto& character : characters_)
            level_.world().removeAction(character.get());
        for (auto& ghost : ghosts_)
            level_.world().removeCollisionObject(ghost.get());
        level_.world().getPairCache()->setInternalGhostPairCallback(nullptr);
    }
    BulletCharacters(const BulletCharacters&) = delete;
    BulletCharacters& operator=(const BulletCharacters&) = delete;

    // center in level coordinates; added to the world as an action when asAction.
    btKinematicCharacterController& add(const CharacterShape& shape, const btVector3& center,
                                        btScalar stepHeight, bool asAction = true) {
        auto convex = shape.make();
        auto ghost = std::make_unique<btPairCachingGhostObject>();
        ghost->setWorldTransform(btTransform(btQuaternion::getIdentity(), level_.toWorld(center)));
        ghost->setCollisionShape(convex.get());
        ghost->setCollisionFlags(ghost->getCollisionFlags() | btCollisionObject::CF_CHARACTER_OBJECT);
        level_.world().addCollisionObject(ghost.get(), btBroadphaseProxy::CharacterFilter,
                                          btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
        auto character = std::make_unique<btKinematicCharacterController>(ghost.get(), convex.get(),
                                                                          stepHeight, level_.up());
        character->setGravity(level_.toWorldVector(btVector3(0, -kGravity, 0)));
        if (asAction) level_.world().addAction(character.get());
        shapes_.push_back(std::move(convex));
        ghosts_.push_back(std::move(ghost));
        characters_.push_back(std::move(character));
        return *characters_.back();
    }

private:
    CharacterLevel& level_;
    btGhostPairCallback ghostPairs_;
    std::vector<std::unique_ptr<btConvexShape>> shapes_;
    std::vector<std::unique_ptr<btPairCachingGhostObject>> ghosts_;
    std::vector<std::unique_ptr<btKinematicCharacterController>> characters_;
};

// One character of either kind in its own level (build the level through level(), then make()).
class Rig {
public:
    explicit Rig(Controller kind, const btTransform& frame = btTransform::getIdentity())
        : kind_(kind), level_(frame), bullet_(level_) {}

    CharacterLevel& level() { return level_; }
    Controller kind() const { return kind_; }

    // Throws std::invalid_argument when our controller refuses the shape.
    void make(const CharacterShape& shape, const btVector3& center, btScalar stepHeight) {
        if (kind_ == Controller::Bullet) {
            btKinematicCharacterController& bullet = bullet_.add(shape, center, stepHeight);
            controller_ = &bullet;
            ghost_ = bullet.getGhostObject();
        } else {
            CharacterController& ours = level_.addCharacter(shape.make(), center, stepHeight);
            controller_ = &ours;
            ghost_ = ours.getGhostObject();
        }
    }

    btCharacterControllerInterface& controller() { return *controller_; }
    btKinematicCharacterController* bullet() {
        return kind_ == Controller::Bullet ? static_cast<btKinematicCharacterController*>(controller_)
                                           : nullptr;
    }
    CharacterController* ours() {
        return kind_ == Controller::Ours ? static_cast<CharacterController*>(controller_) : nullptr;
    }

    // The character's centre in level coordinates.
    btVector3 at() const { return level_.toLevel(ghost_->getWorldTransform().getOrigin()); }
    bool onGround() const { return controller_->onGround(); }
    // A per-step displacement in level coordinates.
    void walk(const btVector3& perStep) { controller_->setWalkDirection(level_.toWorldVector(perStep)); }
    void setJumpSpeed(btScalar speed) {
        if (auto* b = bullet()) b->setJumpSpeed(speed);
        if (auto* o = ours()) o->setJumpSpeed(speed);
    }
    void setMaxSlope(btScalar radians) {
        if (auto* b = bullet()) b->setMaxSlope(radians);
        if (auto* o = ours()) o->setMaxSlope(radians);
    }
    void jump() { controller_->jump(btVector3(0, 0, 0)); }
    void step(btScalar dt) { level_.step(dt); }

private:
    Controller kind_;
    CharacterLevel level_;
    BulletCharacters bullet_;
    btCharacterControllerInterface* controller_ = nullptr;
    btCollisionObject* ghost_ = nullptr;
};

// ---- The benchmark's level ----

// The terrain's height at (x, z): bumps of up to about 0.6 m, slopes up to about 25 degrees.
inline btScalar terrainHeight(btScalar x, btScalar z) {
    return btScalar(0.3) * std::sin(btScalar(0.45) * x) * std::cos(btScalar(0.37) * z) +
           btScalar(0.15) * std::sin(btScalar(1.1) * x + btScalar(0.7) * z) +
           btScalar(0.08) * std::cos(btScalar(2.3) * z - btScalar(0.4) * x);
}

constexpr int kTerrainCells = 70;     // 9,800 triangles
constexpr btScalar kTerrainCell = 1;  // 70 m square, centred at the origin

// The level: the terrain mesh, walls around it, and box stairs, ramps and walls on it.
inline void buildBenchLevel(CharacterLevel& level) {
    level.addMesh(
        CharacterLevel::terrainTriangles(kTerrainCells, kTerrainCell, btVector3(0, 0, 0), terrainHeight));
    const btScalar half = btScalar(kTerrainCells) * kTerrainCell / 2;
    // The border.
    for (const btScalar side : {btScalar(-1), btScalar(1)}) {
        level.addBox(btVector3(btScalar(0.5), 3, half), btVector3(side * (half - btScalar(0.5)), 1, 0));
        level.addBox(btVector3(half, 3, btScalar(0.5)), btVector3(0, 1, side * (half - btScalar(0.5))));
    }
    // Four flights of 8 box stairs (0.25 m rise, 0.4 m tread, 3 m wide) climbing toward +x, from the ground.
    for (int flight = 0; flight < 4; ++flight) {
        btVector3 foot(btScalar(-25 + 14 * flight), 0, btScalar(-20 + 12 * flight));
        foot.setY(terrainHeight(foot.x(), foot.z()));
        for (int s = 0; s < 8; ++s) {
            const btScalar top = btScalar(0.25) * btScalar(s + 1);
            level.addBox(btVector3(btScalar(0.2) * btScalar(8 - s), (top + 2) / 2, btScalar(1.5)),
                         foot + btVector3(btScalar(0.4) * btScalar(s) + btScalar(0.2) * btScalar(8 - s),
                                          (top - 2) / 2, 0));
        }
    }
    // Ramps of 15, 25, 35 and 50 degrees (the last one too steep) and free-standing walls.
    const btScalar degrees[] = {15, 25, 35, 50};
    for (int r = 0; r < 4; ++r) {
        const btVector3 at(btScalar(-20 + 12 * r), btScalar(0.8), btScalar(15));
        level.addRamp(degrees[r], at, btVector3(3, btScalar(0.5), 2));
    }
    for (int w = 0; w < 8; ++w) {
        const btQuaternion turn(btVector3(0, 1, 0), btScalar(0.4) * btScalar(w));
        level.addBox(
            btVector3(3, btScalar(1.5), btScalar(0.2)),
            btTransform(turn, btVector3(btScalar(-28 + 8 * w), btScalar(0.5), btScalar(28 - 7 * (w % 3)))));
    }
}

// Where character i starts and how it walks: seeded, the same for both controllers.
struct Walker {
    btVector3 start;
    std::vector<btVector3> velocities;  // one per segment (m/s, level coordinates)
};
constexpr int kSegmentSteps = 120;  // a new direction every 2 s at 60 Hz

inline std::vector<Walker> makeWalkers(int count, int segments, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_real_distribution<float> where(-30, 30), angle(0, float(SIMD_2_PI)), speed(2, 6);
    std::vector<Walker> walkers(static_cast<std::size_t>(count));
    for (Walker& walker : walkers) {
        const btScalar x = where(random), z = where(random);
        walker.start = btVector3(x, terrainHeight(x, z) + btScalar(4), z);
        for (int s = 0; s < segments; ++s) {
            const btScalar a = angle(random), v = speed(random);
            walker.velocities.push_back(btVector3(std::cos(a), 0, std::sin(a)) * v);
        }
    }
    return walkers;
}

inline const btVector3& velocityAt(const Walker& walker, long step) {
    return walker.velocities[std::size_t(step / kSegmentSteps) % walker.velocities.size()];
}

}  // namespace analytic::bench
