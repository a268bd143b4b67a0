// SPDX-License-Identifier: Zlib
// A character controller that drops in where btKinematicCharacterController stands: the same constructor,
// the same btCharacterControllerInterface (added to a world with addAction, driven by setWalkDirection or
// setVelocityForTimeInterval, jump, warp), the same defaults, and no btGhostPairCallback to wire. The
// character is a sphere or an upright capsule moved by exact sweeps (analytic::sphereSweepTest's, and the
// capsule's own), keeping a skin (contact offset) from everything along the contact normals. It adds what
// Bullet's lacks: stairs, sticking to the floor, slope limits that hold, ground states with the ground's
// normal, object and velocity, riding kinematic platforms, pushing dynamic bodies, a room check when the
// shape changes, contact callbacks, and many characters updated at once on all cores
// (CharacterGroup). docs/character.md describes the behaviour and how it differs from Bullet's.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletDynamics/Character/btCharacterControllerInterface.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace analytic {

class CharacterController;

// What the character stands on, found at the end of each update.
struct GroundState {
    // Where the character is, as to the ground.
    enum class Kind : std::uint8_t {
        InAir,          // nothing within the skin below, or moving up (a jump, also at its apex)
        OnSteepGround,  // touching something below too steep to stand on (beyond the maximum slope)
        OnGround,       // standing: on a surface within the maximum slope, not moving up
    };
    Kind kind = Kind::InAir;  // where the character is
    // For OnGround and OnSteepGround: the surface's unit normal (for a character standing on an edge or
    // corner, the normal of the face under it), the point touched, the object (null in the air), and the
    // velocity of the ground at that point (a kinematic platform's from its motion since the last update, a
    // rigid body's from its velocity, zero for static objects).
    btVector3 normal{0, 0, 0};
    btVector3 point{0, 0, 0};                   // the point touched
    btVector3 velocity{0, 0, 0};                // the ground's, at point
    const btCollisionObject* object = nullptr;  // the ground; null in the air
};

// Optional hooks. shouldCollide is called from the thread that updates the character (from several at
// once in a CharacterGroup, so it must be safe to call concurrently); contactAdded and contactRemoved are
// called after the update, in the order of the group's characters, on the calling thread.
class CharacterListener {
public:
    virtual ~CharacterListener() = default;
    // Whether the object blocks the character (after the collision filter and the skipping of triggers).
    virtual bool shouldCollide(const CharacterController&, const btCollisionObject&) { return true; }
    // The character began touching the object (within its skin, or met by a move) in this update.
    virtual void contactAdded(CharacterController&, const btCollisionObject&, const btVector3& /*point*/,
                              const btVector3& /*normal*/) {}
    // The character no longer touches the object. The object may have been removed from the world and
    // deleted since: compare the pointer, do not use it.
    virtual void contactRemoved(CharacterController&, const btCollisionObject* /*object*/) {}
};

// The character controller. Its collision object (the "ghost", any btCollisionObject: Bullet's
// btPairCachingGhostObject works, and needs no btGhostPairCallback) carries its position and is skipped
// by its own queries; the shape is the ghost's, a btSphereShape or a btCapsuleShape (of any axis), used
// upright: the capsule's segment along the up axis. The character's position is its shape's centre.
//
// Each update (updateAction, which is preStep then playerStep, as Bullet's):
// 1. rides the ground: the platform it stood on (any object) has moved since the last update, so the
//    character is carried by the same rigid motion (turned with it about the up axis), as a swept move;
// 2. recovers from overlap: out of whatever it overlaps or comes within its skin of, along the contact
//    normals (spawned, warped, or pushed by a kinematic body);
// 3. walks: the per-step displacement (setWalkDirection) or the velocity over the time left
//    (setVelocityForTimeInterval), along the ground on walkable slopes, sliding along what it meets (at
//    most maxSlideIterations sweeps), steep slopes acting as walls; when blocked on the ground, steps up
//    to the step height, where there is room above and a walkable surface to land on;
// 4. falls or rises by its vertical velocity (gravity, jumps), sliding down steep slopes, stopping on
//    walkable ground and at ceilings; clamped to the fall speed;
// 5. sticks to the floor: having stood on ground before the update and not jumping, it is moved down onto
//    walkable ground within the step height (plus the drop a walkable slope makes over the walk);
// 6. finds its ground state, pushes the dynamic bodies it walked into, and calls the listener.
// No move passes through anything: every move is an exact sweep that stops at the skin.
//
// Hostile input: setters given NaN or infinite values, a zero up axis, or sizes outside their ranges (a
// radius, half height, step height or contact offset beyond [0, 1e6]) throw std::invalid_argument and
// change nothing; an update with a time step that is zero, negative or not finite moves nothing;
// displacements are limited to 1e6 a step; whatever the world holds, the character's position stays
// finite. The listener must not throw.
// Threads: one character's update reads the world and writes only its ghost; CharacterGroup updates many
// on several threads, with the same result whatever the number of threads.
class CharacterController : public btCharacterControllerInterface {
public:
    // As btKinematicCharacterController's: the ghost (the character's collision object; not owned), its
    // convex shape (the ghost's collision shape is set to it), the step height, and the up axis (Bullet's
    // default +X). The ghost is turned so the capsule's axis lies along up. Throws std::invalid_argument for
    // a null ghost, a shape that is not a btSphereShape or btCapsuleShape, a radius or half height outside
    // [0, 1e6], a step height outside [0, 1e6], or an up axis that is zero or not finite (any other
    // magnitude is taken as its direction).
    CharacterController(btCollisionObject* ghost, btConvexShape* shape, btScalar stepHeight,
                        const btVector3& up = btVector3(1, 0, 0));
    ~CharacterController() override;

    // ---- btActionInterface / btCharacterControllerInterface ----
    // One update (preStep, then playerStep), as the world calls it each step. A null world, or a time
    // step that is zero, negative or not finite, moves nothing.
    void updateAction(btCollisionWorld* world, btScalar timeStep) override;
    // Draws nothing.
    void debugDraw(btIDebugDraw* drawer) override;
    // A displacement applied every step, whatever the time step (Bullet's semantics); replaces a velocity.
    void setWalkDirection(const btVector3& walkDirection) override;
    // A velocity for the next timeInterval seconds (added to the time already left, as Bullet's); replaces a
    // walk direction. A negative or zero interval moves nothing.
    void setVelocityForTimeInterval(const btVector3& velocity, btScalar timeInterval) override;
    // Forgets velocities, walk, ground and contacts (world may be null).
    void reset(btCollisionWorld* world) override;
    // Moves the ghost to origin (keeping its rotation, unlike Bullet's, which resets it); an origin inside
    // geometry is recovered from by the next updates.
    void warp(const btVector3& origin) override;
    // Does nothing: the whole update is in playerStep (world may be null).
    void preStep(btCollisionWorld* world) override;
    // The update's steps 1 to 6 (above) over timeStep seconds: computeStep then finishStep. A null world, or
    // a time step that is zero, negative or not finite, moves nothing.
    void playerStep(btCollisionWorld* world, btScalar timeStep) override;
    // Whether a jump can start: onGround().
    bool canJump() const override;
    // Adds the launch velocity: (0,0,0) is the jump speed along up; another vector is taken as given (its
    // component along up sets the vertical velocity, the rest carries on until the character lands).
    void jump(const btVector3& launch = btVector3(0, 0, 0)) override;
    // Standing on walkable ground and not moving up: false in the air, at the apex of a jump, and on steep
    // ground.
    bool onGround() const override;
    void setUpInterpolate(bool value) override;  // kept for the interface; no effect

    // ---- The rest of btKinematicCharacterController's interface ----
    // setUp(v): the up axis (unit of v); gravity turns with it. setGravity(g): up = -g's direction, gravity
    // |g|; a zero g keeps the up axis and turns gravity off.
    void setUp(const btVector3& up);
    const btVector3& getUp() const { return up_; }
    // The gravity vector: -up times the gravity's magnitude (setUp above).
    void setGravity(const btVector3& gravity);
    btVector3 getGravity() const { return -gravity_ * up_; }
    // The velocity: its part along up is the vertical velocity, the rest the walk velocity (set both at
    // once; get their sum).
    void setLinearVelocity(const btVector3& velocity);
    btVector3 getLinearVelocity() const;
    // The angular velocity: the ghost turns about up by its up component.
    void setAngularVelocity(const btVector3& velocity);
    const btVector3& getAngularVelocity() const { return angularVelocity_; }
    // The linear damping, clamped to [0, 1].
    void setLinearDamping(btScalar damping);
    btScalar getLinearDamping() const { return linearDamping_; }
    // The angular damping, clamped to [0, 1].
    void setAngularDamping(btScalar damping);
    btScalar getAngularDamping() const { return angularDamping_; }
    // The highest step the character climbs, in [0, 1e6].
    void setStepHeight(btScalar height);
    btScalar getStepHeight() const { return stepHeight_; }
    // The fastest the character falls (the magnitude of the value given).
    void setFallSpeed(btScalar speed);
    btScalar getFallSpeed() const { return fallSpeed_; }
    // The vertical speed of jump() without a launch velocity.
    void setJumpSpeed(btScalar speed);
    btScalar getJumpSpeed() const { return jumpSpeed_; }
    void setMaxJumpHeight(btScalar height);  // kept for the interface (unused by Bullet's too)
    // The steepest walkable slope, radians in [0, pi/2] (Bullet's default 45 degrees).
    void setMaxSlope(btScalar slopeRadians);
    btScalar getMaxSlope() const { return maxSlope_; }
    // Kept for the interface: this controller recovers from any overlap, however shallow.
    void setMaxPenetrationDepth(btScalar depth);
    btScalar getMaxPenetrationDepth() const { return maxPenetrationDepth_; }
    // The character's collision object, as given to the constructor.
    btCollisionObject* getGhostObject() { return ghost_; }
    void setUseGhostSweepTest(bool) {}  // kept for the interface; no effect

    // ---- Added ----
    // The contact offset kept from every surface along its normal (default 0.02, in (0, 1e6]).
    void setContactOffset(btScalar offset);
    btScalar getContactOffset() const { return skin_; }
    // The most force the character pushes dynamic bodies with (newtons, default 100; 0 pushes nothing).
    void setPushStrength(btScalar newtons);
    btScalar getPushStrength() const { return pushStrength_; }
    // Sweeps per move of the collide-and-slide (default 8, at least 1).
    void setMaxSlideIterations(int iterations);
    int getMaxSlideIterations() const { return maxSlideIterations_; }
    // Whether it sticks to the floor walking down slopes and stairs (default on).
    void setStickToFloor(bool stick) { stickToFloor_ = stick; }
    // Changes the shape (crouch, stand) keeping the bottom of the shape where it is, if there is room: the
    // new shape at its place comes within the skin of nothing (the ghost's shape and position change);
    // else returns false and changes nothing. The world is needed to check for room. Throws
    // std::invalid_argument as the constructor does for the shape.
    bool setShape(const btCollisionWorld& world, btConvexShape* shape);
    btConvexShape* getShape() const { return shape_; }
    void setListener(CharacterListener* listener) { listener_ = listener; }  // not owned; null for none

    // What the character stood on at the end of the last update.
    const GroundState& groundState() const { return ground_; }
    // The velocity along up (positive rising, negative falling).
    btScalar getVerticalVelocity() const { return verticalVelocity_; }
    // The character's position: its ghost's origin, the centre of its shape.
    btVector3 getPosition() const;

    // How one update went (for tests and tools): the sweeps it made and whether it stepped up.
    struct UpdateStats {
        int sweeps = 0;          // sweeps made
        bool steppedUp = false;  // whether it stepped up
        bool recovered = false;  // whether it recovered from an overlap
    };
    // The last update's UpdateStats.
    const UpdateStats& lastUpdate() const { return stats_; }

    // The steps of playerStep that CharacterGroup runs apart: the move, which reads the world and writes
    // only this object (safe on many threads at once for different characters), and what it leaves to do
    // in order: the ghost's new transform, the pushes and the listener's calls.
    struct Pending;
    // The move over timeStep seconds (steps 1 to 5 and the ground state), kept for finishStep; the world is
    // only read. A time step that is zero, negative or not finite moves nothing.
    void computeStep(const btCollisionWorld& world, btScalar timeStep);
    // Applies what computeStep left: the ghost's transform (its box updated in the world, if not null), the
    // pushes and the listener's calls. Nothing after a computeStep that did not move.
    void finishStep(btCollisionWorld* world);

private:
    struct Shape {
        btScalar radius = 0;
        btScalar halfHeight = 0;  // 0 for a sphere
    };
    static Shape shapeOf(const btConvexShape* shape, const char* who);
    void alignGhost();

    btCollisionObject* ghost_;
    btConvexShape* shape_;
    Shape dims_;
    btVector3 up_{1, 0, 0};
    btScalar gravity_ = btScalar(9.8 * 3);
    btScalar fallSpeed_ = 55;
    btScalar jumpSpeed_ = 10;
    btScalar maxJumpHeight_ = 0;
    btScalar maxSlope_ = 0;
    btScalar maxSlopeCos_ = 0;
    btScalar maxPenetrationDepth_ = btScalar(0.2);
    btScalar stepHeight_ = 0;
    btScalar skin_ = btScalar(0.02);
    btScalar pushStrength_ = 100;
    int maxSlideIterations_ = 8;
    bool stickToFloor_ = true;
    btScalar linearDamping_ = 0, angularDamping_ = 0;
    btVector3 angularVelocity_{0, 0, 0};

    btVector3 walk_{0, 0, 0};
    bool useWalkDirection_ = true;
    btScalar velocityTimeLeft_ = 0;
    btScalar verticalVelocity_ = 0;
    btVector3 airVelocity_{0, 0, 0};  // a jump's sideways part, until landing
    bool jumped_ = false;

    GroundState ground_;
    // The platform ridden: the ground object, checked to be still in the world before it is read, and its
    // transform at the end of the last update.
    struct Riding {
        const btCollisionObject* object = nullptr;
        int worldIndex = -1;
        int proxyId = -1;
        btTransform transform = btTransform::getIdentity();
    } riding_;

    std::vector<const btCollisionObject*> touching_;  // sorted, as of the last update
    std::unique_ptr<Pending> pending_;
    CharacterListener* listener_ = nullptr;
    UpdateStats stats_;
};

// Many characters in one world updated together, on up to `threads` threads (0: all cores), with results
// identical for any thread count: each character's move reads the world as it was before the group's
// update (the other characters' ghosts where they stood), then the ghosts are moved, the pushes applied and
// the listeners called in the characters' order. Add the group to the world with addAction (not the
// characters), or call update() yourself. The characters are not owned and must outlive the group.
class CharacterGroup : public btActionInterface {
public:
    // An empty group updating on up to `threads` threads (0: one per core).
    explicit CharacterGroup(unsigned threads = 0) : threads_(threads) {}
    void add(CharacterController* character);  // throws std::invalid_argument for null or a repeat
    // Takes the character out of the group; one not in it (or null) is ignored.
    void remove(CharacterController* character);
    // The characters, in the order they were added (the order of the pushes and the listeners' calls).
    std::span<CharacterController* const> characters() const { return characters_; }
    // The most threads an update uses (0: one per core).
    void setThreads(unsigned threads) { threads_ = threads; }

    // Updates every character by timeStep seconds: each one's move (computeStep, on the threads), then in
    // the characters' order each one's finishStep. A time step that is zero, negative or not finite moves
    // nothing.
    void update(btCollisionWorld& world, btScalar timeStep);
    // update(*world, timeStep), as the world calls it each step; nothing for a null world.
    void updateAction(btCollisionWorld* world, btScalar timeStep) override {
        if (world) update(*world, timeStep);
    }
    // Draws nothing.
    void debugDraw(btIDebugDraw*) override {}

private:
    std::vector<CharacterController*> characters_;
    unsigned threads_;
};

}  // namespace analytic
