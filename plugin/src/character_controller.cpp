// SPDX-License-Identifier: Zlib
#include "analytic/character_controller.hpp"

#include <BulletCollision/CollisionShapes/btCapsuleShape.h>
#include <BulletCollision/CollisionShapes/btSphereShape.h>
#include <BulletDynamics/Dynamics/btRigidBody.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>

#include "cast/batch_casts.hpp"
#include "cast/worker_pool.hpp"
#include "character/character_queries.hpp"

namespace analytic {

using character::Body;
using CharacterContact = character::Contact;
using character::Hit;
using character::Queries;

namespace {

constexpr btScalar kMaxMove = btScalar(1e6);  // the longest displacement of one step
constexpr btScalar kMaxSize = btScalar(1e6);  // the largest radius, half height, step height and skin
constexpr int kMaxContacts = 64;              // contacts the recovery weighs

bool finite(btScalar x) { return std::isfinite(x); }
bool finite(const btVector3& v) { return finite(v.x()) && finite(v.y()) && finite(v.z()); }

// The unit vector along v, whatever its magnitude (scaled first, so that no square overflows or
// underflows); nothing for a zero or non-finite v.
std::optional<btVector3> unitOf(const btVector3& v) {
    if (!finite(v)) return std::nullopt;
    const btScalar largest = std::max({std::abs(v.x()), std::abs(v.y()), std::abs(v.z())});
    if (!(largest > 0)) return std::nullopt;
    const btVector3 scaled = v / largest;
    return scaled / scaled.length();
}

void require(bool ok, const char* what) {
    if (!ok) throw std::invalid_argument(std::string("analytic::CharacterController: ") + what);
}

btVector3 limited(const btVector3& move) {
    const btScalar length = move.length();
    if (!finite(length)) return btVector3(0, 0, 0);
    return length > kMaxMove ? move * (kMaxMove / length) : move;
}

// What one collide-and-slide move met.
struct Move {
    btVector3 end;
    bool blocked = false;        // a contact cut the move short (a wall, or a steep slope while walking)
    bool landed = false;         // it stopped on ground that supports the character
    bool ceiling = false;        // it met something facing down
    std::optional<Hit> support;  // the ground it landed on (landed), with the supporting normal
};

}  // namespace

// The deferred part of an update: the ghost's new transform, the pushes, the listener's calls.
struct CharacterController::Pending {
    struct Push {
        btRigidBody* body;
        btVector3 impulse, at;
    };
    struct Added {
        const btCollisionObject* object;
        btVector3 point, normal;
    };
    btTransform transform;
    bool move = false;
    std::vector<Push> pushes;
    std::vector<Added> added;
    std::vector<const btCollisionObject*> removed;
    // This update's touches (object, point, normal): contacts met by moves and found by the recovery.
    std::vector<Added> touched;
    // Kept between updates only to reuse their storage: the moves' contacts, the recovery's, and the
    // objects touched (swapped with the controller's list of the last update).
    std::vector<character::Hit> hits;
    std::vector<CharacterContact> contacts;
    std::vector<const btCollisionObject*> touching;
};

namespace {

// One update of one character: the moves, in the order the header gives, against the world as queries
// see it. Reads the controller's settings; returns its new state.
class Stepper {
public:
    Stepper(const Queries& queries, const Body& body, btScalar skin, btScalar maxSlopeCos, int iterations,
            std::vector<Hit>& hits)
        : hits(hits),
          queries_(queries),
          body_(body),
          up_(body.up),
          skin_(skin),
          maxSlopeCos_(maxSlopeCos),
          iterations_(iterations) {}

    std::vector<Hit>& hits;   // every contact the moves met (empty at the start)
    btVector3 onto{0, 0, 0};  // the walk's sideways direction this update (unit, or zero)

    // Whether a surface of this normal is walkable.
    bool walkable(const btVector3& normal) const { return normal.dot(up_) >= maxSlopeCos_ - btScalar(1e-5); }

    // The normal of the ground a contact below the character stands it on: the contact's own when
    // walkable; for a contact at an edge or corner (the character overhangs it) while it walks, the normal
    // of the face beyond the edge, found by a short ray down just past it, when walkable. Nothing for a
    // steep surface or a contact not below the character.
    std::optional<Hit> support(const btVector3& center, const Hit& hit) const {
        const btScalar rise = hit.normal.dot(up_);
        if (!(rise > btScalar(0.05))) return std::nullopt;
        if (walkable(hit.normal)) return hit;
        // The bottom sphere's centre, and the horizontal direction from the contact toward it.
        const btVector3 bottom = center - up_ * body_.halfHeight;
        btVector3 away = bottom - hit.point;
        away -= up_ * away.dot(up_);
        const btScalar awayLength = away.length();
        if (!(awayLength > 0)) return std::nullopt;
        away /= awayLength;
        // Only while walking (onto a step, or off one onto the next): standing still, a character slides off
        // an edge steeper than the slope limit.
        if (onto.length2() == 0) return std::nullopt;
        const btScalar reach = body_.radius + skin_;
        const btScalar step = btScalar(1e-3) * reach;
        const btScalar height = (bottom - hit.point).dot(up_);
        const btVector3 start = hit.point - away * step + up_ * height;
        const std::optional<Hit> face = queries_.ray(start, start - up_ * (height + reach));
        if (!face || !walkable(face->normal)) return std::nullopt;
        Hit ground = hit;
        ground.normal = face->normal;
        return ground;
    }

    enum class Mode {
        Walk,     // sideways on ground: steep slopes are walls, walkable ones are climbed
        Air,      // any direction in the air: slides along everything
        Fall,     // down: stops on supporting ground, slides down steep slopes
        Rise,     // up: slides along what it meets
        Straight  // no sliding: stops at the first contact
    };

    // Collide and slide from `from` by `move`: at most iterations sweeps; each contact's plane (made a wall
    // for steep slopes when walking) is kept, and the rest of the move is clipped to all of them.
    Move slide(const btVector3& from, btVector3 move, Mode mode) {
        Move result{from, false, false, false, std::nullopt};
        const btVector3 intended = move;
        btVector3 planes[4];
        int planeCount = 0;
        btVector3 at = from;
        for (int i = 0; i < iterations_ && move.length2() > 0; ++i) {
            const std::optional<Hit> hit = queries_.sweep(body_, skin_, at, at + move);
            if (!hit) {
                at += move;
                break;
            }
            hits.push_back(*hit);
            at += move * hit->fraction;
            move *= btScalar(1) - hit->fraction;
            btVector3 normal = hit->normal;
            if (normal.dot(up_) < btScalar(-0.05)) result.ceiling = true;
            if (mode != Mode::Walk) result.blocked = true;
            if (mode == Mode::Straight) break;
            if (mode == Mode::Fall) {
                if (const std::optional<Hit> ground = support(at, *hit)) {
                    result.landed = true;
                    result.support = ground;
                    break;
                }
            }
            if (mode == Mode::Walk) {
                if (walkable(normal)) {
                    // Climb it, keeping the move's sideways part: lifted onto the slope.
                    const btScalar into = normal.dot(move);
                    if (into < 0) move -= up_ * (into / normal.dot(up_));
                } else {
                    result.blocked = true;
                    // A wall: only its sideways part counts, so the slope is not climbed.
                    btVector3 side = normal - up_ * normal.dot(up_);
                    const btScalar length = side.length();
                    if (length > btScalar(1e-6)) normal = side / length;
                }
            }
            if (planeCount < 4) planes[planeCount++] = normal;
            move = clip(move, planes, planeCount);
            if (move.dot(intended) <= 0) break;  // never turned back against the intended move
        }
        result.end = at;
        return result;
    }

    // The move with its part into each plane taken away: along the newest plane; along the crease of two
    // when it still goes into another; none when three hold it.
    static btVector3 clip(const btVector3& move, const btVector3* planes, int count) {
        const btVector3& newest = planes[count - 1];
        btVector3 result = move - newest * std::min(newest.dot(move), btScalar(0));
        for (int i = 0; i < count - 1; ++i) {
            if (planes[i].dot(result) >= -btScalar(1e-7) * result.length()) continue;
            btVector3 crease = planes[i].cross(newest);
            const btScalar length = crease.length();
            if (!(length > btScalar(1e-6))) return btVector3(0, 0, 0);
            crease /= length;
            result = crease * crease.dot(move);
            for (int j = 0; j < count - 1; ++j)
                if (j != i && planes[j].dot(result) < -btScalar(1e-7) * result.length())
                    return btVector3(0, 0, 0);
            break;
        }
        return result;
    }

    // Out of overlaps: the least displacement putting every contact within reach at the skin, by a few
    // rounds of projection, taken as a straight sweep. Returns whether it moved.
    bool recover(btVector3& at, std::vector<CharacterContact>& contacts) {
        contacts.clear();
        // Within twice the skin: those the character touches, for the listener, besides those to push.
        queries_.contacts(body_, 2 * skin_, at, contacts, kMaxContacts);
        btVector3 push(0, 0, 0);
        bool any = false;
        for (int round = 0; round < 4; ++round) {
            bool changed = false;
            for (const CharacterContact& contact : contacts) {
                const btScalar need = skin_ - contact.distance - contact.normal.dot(push);
                // Within a tenth of the skin is resting, not overlapping: rounding never moves it.
                if (!(need > btScalar(0.1) * skin_)) continue;
                push += contact.normal * need;
                changed = any = true;
            }
            if (!changed) break;
        }
        if (!any || !finite(push)) return false;
        const Move out = slide(at, limited(push), Mode::Straight);
        at = out.end;
        return true;
    }

    // The ground under the character: a short sweep down.
    std::optional<Hit> probe(const btVector3& at) const {
        return queries_.sweep(body_, skin_, at, at - up_ * skin_);
    }

    const btVector3& up() const { return up_; }

private:
    const Queries& queries_;
    const Body& body_;
    btVector3 up_;
    btScalar skin_;
    btScalar maxSlopeCos_;
    int iterations_;
};

// The rotation about up that `rotation` makes (its twist).
btQuaternion twistAbout(const btQuaternion& rotation, const btVector3& up) {
    const btVector3 axis(rotation.x(), rotation.y(), rotation.z());
    const btVector3 along = up * axis.dot(up);
    btQuaternion twist(along.x(), along.y(), along.z(), rotation.w());
    const btScalar length = twist.length();
    if (!(length > btScalar(1e-9))) return btQuaternion::getIdentity();
    return twist / length;
}

}  // namespace

// ---- Construction and settings ----

CharacterController::Shape CharacterController::shapeOf(const btConvexShape* shape, const char* who) {
    require(shape != nullptr, who);
    Shape dims;
    if (shape->getShapeType() == SPHERE_SHAPE_PROXYTYPE) {
        dims.radius = static_cast<const btSphereShape*>(shape)->getRadius();
    } else if (shape->getShapeType() == CAPSULE_SHAPE_PROXYTYPE) {
        const auto* capsule = static_cast<const btCapsuleShape*>(shape);
        dims.radius = capsule->getRadius();
        dims.halfHeight = capsule->getHalfHeight();
    } else {
        require(false, "the shape must be a btSphereShape or a btCapsuleShape");
    }
    require(
        dims.radius >= 0 && dims.radius <= kMaxSize && dims.halfHeight >= 0 && dims.halfHeight <= kMaxSize,
        "the shape's radius and half height must be in [0, 1e6]");
    return dims;
}

CharacterController::CharacterController(btCollisionObject* ghost, btConvexShape* shape, btScalar stepHeight,
                                         const btVector3& up)
    : ghost_(ghost), shape_(shape), pending_(std::make_unique<Pending>()) {
    require(ghost != nullptr, "the ghost object is null");
    dims_ = shapeOf(shape, "the shape is null");
    require(stepHeight >= 0 && stepHeight <= kMaxSize, "the step height must be in [0, 1e6]");
    stepHeight_ = stepHeight;
    const std::optional<btVector3> unit = unitOf(up);
    require(unit.has_value(), "the up axis must be finite and not zero");
    up_ = *unit;
    setMaxSlope(btRadians(45));
    ghost_->setCollisionShape(shape_);
    alignGhost();
}

CharacterController::~CharacterController() = default;

void CharacterController::alignGhost() {
    if (dims_.halfHeight == 0) return;
    // The capsule's axis in the ghost's frame, turned onto up by the shortest arc.
    const int axis = static_cast<const btCapsuleShape*>(shape_)->getUpAxis();
    btTransform transform = ghost_->getWorldTransform();
    const btVector3 current = transform.getBasis().getColumn(axis);
    if (!finite(current) || current.length2() == 0) return;
    const btVector3 from = current.normalized();
    if ((from - up_).length2() < btScalar(1e-12)) return;
    btQuaternion turn;
    if (from.dot(up_) < btScalar(-0.999999)) {
        btVector3 p, q;  // opposite: half a turn about any axis across them
        btPlaneSpace1(from, p, q);
        turn = btQuaternion(p, SIMD_PI);
    } else {
        turn = shortestArcQuat(from, up_);
    }
    transform.setRotation(turn * transform.getRotation());
    ghost_->setWorldTransform(transform);
}

void CharacterController::setWalkDirection(const btVector3& walkDirection) {
    require(finite(walkDirection), "setWalkDirection: not finite");
    walk_ = walkDirection;
    useWalkDirection_ = true;
    velocityTimeLeft_ = 0;
}

void CharacterController::setVelocityForTimeInterval(const btVector3& velocity, btScalar timeInterval) {
    require(finite(velocity) && finite(timeInterval), "setVelocityForTimeInterval: not finite");
    walk_ = velocity;
    useWalkDirection_ = false;
    velocityTimeLeft_ = std::max(velocityTimeLeft_ + timeInterval, btScalar(0));
}

void CharacterController::reset(btCollisionWorld*) {
    walk_.setZero();
    airVelocity_.setZero();
    verticalVelocity_ = 0;
    velocityTimeLeft_ = 0;
    jumped_ = false;
    ground_ = GroundState{};
    riding_ = Riding{};
    touching_.clear();
}

void CharacterController::warp(const btVector3& origin) {
    require(finite(origin), "warp: the origin is not finite");
    btTransform transform = ghost_->getWorldTransform();
    transform.setOrigin(origin);
    ghost_->setWorldTransform(transform);
    ground_ = GroundState{};
    riding_ = Riding{};
}

void CharacterController::preStep(btCollisionWorld*) {}

bool CharacterController::canJump() const { return onGround(); }

void CharacterController::jump(const btVector3& launch) {
    require(finite(launch), "jump: not finite");
    const btVector3 velocity = launch.length2() == 0 ? up_ * jumpSpeed_ : launch;
    verticalVelocity_ = velocity.dot(up_);
    airVelocity_ = velocity - up_ * verticalVelocity_;
    jumped_ = true;
    if (verticalVelocity_ > 0) ground_.kind = GroundState::Kind::InAir;
}

bool CharacterController::onGround() const { return ground_.kind == GroundState::Kind::OnGround; }

void CharacterController::setUpInterpolate(bool) {}

void CharacterController::setUp(const btVector3& up) {
    const std::optional<btVector3> unit = unitOf(up);
    require(unit.has_value(), "setUp: the up axis must be finite and not zero");
    up_ = *unit;
    alignGhost();
}

void CharacterController::setGravity(const btVector3& gravity) {
    require(finite(gravity), "setGravity: not finite");
    const btScalar length = gravity.length();
    require(finite(length), "setGravity: too large");
    if (length > 0) setUp(-gravity);
    gravity_ = length;
}

void CharacterController::setLinearVelocity(const btVector3& velocity) {
    require(finite(velocity), "setLinearVelocity: not finite");
    verticalVelocity_ = velocity.dot(up_);
    walk_ = velocity - up_ * verticalVelocity_;
    airVelocity_.setZero();
}

btVector3 CharacterController::getLinearVelocity() const { return walk_ + up_ * verticalVelocity_; }

void CharacterController::setAngularVelocity(const btVector3& velocity) {
    require(finite(velocity), "setAngularVelocity: not finite");
    angularVelocity_ = velocity;
}

void CharacterController::setLinearDamping(btScalar damping) {
    require(finite(damping), "setLinearDamping: not finite");
    linearDamping_ = std::clamp(damping, btScalar(0), btScalar(1));
}

void CharacterController::setAngularDamping(btScalar damping) {
    require(finite(damping), "setAngularDamping: not finite");
    angularDamping_ = std::clamp(damping, btScalar(0), btScalar(1));
}

void CharacterController::setStepHeight(btScalar height) {
    require(height >= 0 && height <= kMaxSize, "setStepHeight: must be in [0, 1e6]");
    stepHeight_ = height;
}

void CharacterController::setFallSpeed(btScalar speed) {
    require(finite(speed), "setFallSpeed: not finite");
    fallSpeed_ = std::abs(speed);
}

void CharacterController::setJumpSpeed(btScalar speed) {
    require(finite(speed), "setJumpSpeed: not finite");
    jumpSpeed_ = speed;
}

void CharacterController::setMaxJumpHeight(btScalar height) {
    require(finite(height), "setMaxJumpHeight: not finite");
    maxJumpHeight_ = height;
}

void CharacterController::setMaxSlope(btScalar slopeRadians) {
    require(finite(slopeRadians) && slopeRadians >= 0 && slopeRadians <= SIMD_HALF_PI,
            "setMaxSlope: must be in [0, pi/2] radians");
    maxSlope_ = slopeRadians;
    maxSlopeCos_ = std::cos(slopeRadians);
}

void CharacterController::setMaxPenetrationDepth(btScalar depth) {
    require(finite(depth), "setMaxPenetrationDepth: not finite");
    maxPenetrationDepth_ = depth;
}

void CharacterController::setContactOffset(btScalar offset) {
    require(offset > 0 && offset <= kMaxSize, "setContactOffset: must be in (0, 1e6]");
    skin_ = offset;
}

void CharacterController::setPushStrength(btScalar newtons) {
    require(newtons >= 0 && finite(newtons), "setPushStrength: must be finite and >= 0");
    pushStrength_ = newtons;
}

void CharacterController::setMaxSlideIterations(int iterations) {
    require(iterations >= 1, "setMaxSlideIterations: must be at least 1");
    maxSlideIterations_ = iterations;
}

btVector3 CharacterController::getPosition() const { return ghost_->getWorldTransform().getOrigin(); }

bool CharacterController::setShape(const btCollisionWorld& world, btConvexShape* shape) {
    const Shape dims = shapeOf(shape, "setShape: the shape is null");
    const btVector3 at = getPosition();
    // The bottom stays: the centre moves by the change of the distance from centre to bottom.
    const btVector3 center = at + up_ * ((dims.radius + dims.halfHeight) - (dims_.radius + dims_.halfHeight));
    const character::Filter filter = character::Filter::of(*ghost_, *this, listener_);
    const Queries queries(world, filter);
    std::vector<CharacterContact> contacts;
    queries.contacts(Body{dims.radius, dims.halfHeight, up_}, skin_, center, contacts, kMaxContacts);
    for (const CharacterContact& contact : contacts)
        if (contact.distance < btScalar(0.9) * skin_) return false;
    shape_ = shape;
    dims_ = dims;
    ghost_->setCollisionShape(shape);
    btTransform transform = ghost_->getWorldTransform();
    transform.setOrigin(center);
    ghost_->setWorldTransform(transform);
    alignGhost();
    return true;
}

void CharacterController::debugDraw(btIDebugDraw*) {}

// ---- The update ----

void CharacterController::updateAction(btCollisionWorld* world, btScalar timeStep) {
    preStep(world);
    playerStep(world, timeStep);
}

void CharacterController::playerStep(btCollisionWorld* world, btScalar timeStep) {
    if (!world) return;
    computeStep(*world, timeStep);
    finishStep(world);
}

void CharacterController::computeStep(const btCollisionWorld& world, btScalar dt) {
    Pending& pending = *pending_;
    pending.move = false;
    pending.pushes.clear();
    pending.added.clear();
    pending.removed.clear();
    pending.touched.clear();
    stats_ = {};
    btTransform transform = ghost_->getWorldTransform();
    pending.transform = transform;
    btVector3 at = transform.getOrigin();
    if (!(dt > 0) || !finite(dt) || !finite(at)) return;
    pending.move = true;

    const character::Filter filter = character::Filter::of(*ghost_, *this, listener_);
    const Queries queries(world, filter);
    const Body body{dims_.radius, dims_.halfHeight, up_};
    pending.hits.clear();
    Stepper stepper(queries, body, skin_, maxSlopeCos_, maxSlideIterations_, pending.hits);

    // Turning (Bullet's angular velocity, about up only: the capsule stays upright).
    if (angularVelocity_.length2() > 0) {
        angularVelocity_ *= std::pow(btScalar(1) - angularDamping_, dt);
        const btScalar turn = angularVelocity_.dot(up_) * dt;
        if (finite(turn) && turn != 0)
            transform.setRotation(btQuaternion(up_, turn) * transform.getRotation());
    }

    // 1. Ride the platform stood on: carried by its motion since the last update.
    btVector3 platformVelocity(0, 0, 0);
    if (riding_.object) {
        const btCollisionObjectArray& objects = world.getCollisionObjectArray();
        const btCollisionObject* object = riding_.object;
        int index = riding_.worldIndex;
        if (!(index >= 0 && index < objects.size() && objects[index] == object)) {
            index = -1;
            for (int i = 0; i < objects.size(); ++i)
                if (objects[i] == object) index = i;
        }
        const bool alive = index >= 0 && object->getBroadphaseHandle() &&
                           object->getBroadphaseHandle()->m_uniqueId == riding_.proxyId;
        if (alive) {
            const btTransform& now = object->getWorldTransform();
            const btTransform motion = now * riding_.transform.inverse();
            const btVector3 carried = motion(at);
            if (finite(carried) && finite(motion.getOrigin())) {
                const btVector3 move = limited(carried - at);
                platformVelocity = move / dt;
                if (move.length2() > 0) at = stepper.slide(at, move, Stepper::Mode::Air).end;
                const btQuaternion twist = twistAbout(motion.getRotation(), up_);
                transform.setRotation(twist * transform.getRotation());
            }
        }
    }

    // 2. Out of overlaps.
    std::vector<CharacterContact>& contacts = pending.contacts;
    const btVector3 measuredAt = at;
    stats_.recovered = stepper.recover(at, contacts);

    // 3. The walk.
    btVector3 walk = walk_;
    if (!useWalkDirection_) {
        const btScalar moving = std::min(dt, velocityTimeLeft_);
        velocityTimeLeft_ = std::max(velocityTimeLeft_ - dt, btScalar(0));
        walk = moving > 0 ? walk_ * moving : btVector3(0, 0, 0);
    }
    if (linearDamping_ > 0) {
        const btScalar keep = std::pow(btScalar(1) - linearDamping_, dt);
        walk_ *= keep;
        verticalVelocity_ *= keep;
    }
    walk = limited(walk + airVelocity_ * dt);
    const bool wasOnGround = ground_.kind == GroundState::Kind::OnGround && !jumped_;
    if (const btVector3 sideways = walk - up_ * walk.dot(up_); sideways.length2() > 0)
        stepper.onto = sideways.normalized();
    const btVector3 groundNormal = ground_.normal;

    btScalar vertical = verticalVelocity_ - gravity_ * dt;
    if (vertical < -fallSpeed_) vertical = -fallSpeed_;
    if (!finite(vertical)) vertical = 0;

    if (walk.length2() > 0) {
        btVector3 along = walk;
        if (wasOnGround && stepper.walkable(groundNormal)) {
            // Along the ground: the walk's sideways part kept, lifted or lowered onto the slope.
            const btVector3 sideways = walk - up_ * walk.dot(up_);
            along =
                sideways - up_ * (groundNormal.dot(sideways) / groundNormal.dot(up_)) + up_ * walk.dot(up_);
        }
        Move moved = stepper.slide(at, along, Stepper::Mode::Walk);
        if (moved.blocked && wasOnGround && stepHeight_ > 0 && vertical <= 0) {
            // Step up: rise (no higher than the room above allows), walk, come down onto walkable ground;
            // taken when it gets further along the walk than the blocked move did.
            const btVector3 rise = stepper.slide(at, up_ * stepHeight_, Stepper::Mode::Straight).end;
            const btScalar lifted = (rise - at).dot(up_);
            if (lifted > btScalar(0.1) * skin_) {
                const btVector3 sideways = walk - up_ * walk.dot(up_);
                const Move over = stepper.slide(rise, sideways, Stepper::Mode::Walk);
                const Move down = stepper.slide(over.end, -up_ * (lifted + skin_), Stepper::Mode::Fall);
                const btVector3 direction = sideways.length2() > 0 ? sideways.normalized() : sideways;
                const btScalar gained = (down.end - at).dot(direction) - (moved.end - at).dot(direction);
                // The step's top no higher than the step height above the feet, and cleared by the rise:
                // where a ceiling stopped the rise short of it, there is no room to stand on the step.
                const btVector3 feet = at - up_ * (dims_.halfHeight + dims_.radius + skin_);
                const btScalar top = down.support ? (down.support->point - feet).dot(up_) : btScalar(0);
                const bool low = down.support && top <= stepHeight_ && top <= lifted;
                if (down.landed && low && gained > btScalar(1e-3) * skin_) {
                    moved = down;
                    stats_.steppedUp = true;
                }
            }
        }
        at = moved.end;
    }

    // 4. Fall or rise.
    bool landed = false;
    std::optional<Hit> landing;  // the ground a fall or the stick to the floor came down on
    const btVector3 drop = limited(up_ * (vertical * dt));
    if (vertical < 0) {
        const Move fell = stepper.slide(at, drop, Stepper::Mode::Fall);
        at = fell.end;
        if (fell.landed) {
            landed = true;
            landing = fell.support;
            vertical = 0;
        }
    } else if (vertical > 0) {
        const Move rose = stepper.slide(at, drop, Stepper::Mode::Rise);
        at = rose.end;
        if (rose.ceiling) vertical = 0;
    }

    // 5. Stick to the floor: down onto walkable ground within the step height and the drop a walkable
    // slope makes over the walk.
    if (stickToFloor_ && wasOnGround && !landed && vertical <= 0) {
        const btVector3 sideways = walk - up_ * walk.dot(up_);
        const btScalar slopeDrop =
            maxSlopeCos_ > btScalar(1e-3)
                ? sideways.length() *
                      std::sqrt(std::max(btScalar(1) - maxSlopeCos_ * maxSlopeCos_, btScalar(0))) /
                      maxSlopeCos_
                : btScalar(0);
        const btScalar reach = std::min(stepHeight_ + slopeDrop + skin_, kMaxMove);
        const Move stuck = stepper.slide(at, -up_ * reach, Stepper::Mode::Fall);
        if (stuck.landed) {
            at = stuck.end;
            landed = true;
            landing = stuck.support;
            vertical = 0;
        }
    }

    // 6. The ground state.
    GroundState ground;
    if (landing) {
        // Come down onto supporting ground at the skin: that is the ground (no probe needed).
        ground.kind = GroundState::Kind::OnGround;
        ground.object = landing->object;
        ground.point = landing->point;
        ground.normal = landing->normal;
    } else if (!(vertical > 0)) {
        if (const std::optional<Hit> below = stepper.probe(at)) {
            stepper.hits.push_back(*below);
            ground.object = below->object;
            ground.point = below->point;
            if (const std::optional<Hit> support = stepper.support(at, *below)) {
                ground.kind = GroundState::Kind::OnGround;
                ground.normal = support->normal;
                // Standing: down onto it, at the skin.
                at -= up_ * (skin_ * below->fraction);
            } else if (below->normal.dot(up_) > btScalar(0.05)) {
                ground.kind = GroundState::Kind::OnSteepGround;
                ground.normal = below->normal;
            } else {
                ground.object = nullptr;
                ground.point.setZero();
            }
        }
    }
    if (ground.kind == GroundState::Kind::OnGround) {
        vertical = 0;
        airVelocity_.setZero();
    }

    // The ground's velocity and the platform to ride next time.
    const btCollisionObject* rodeOn = riding_.object;
    riding_ = Riding{};
    if (ground.object) {
        if (ground.object == rodeOn) ground.velocity = platformVelocity;
        if (const btRigidBody* rigid = btRigidBody::upcast(ground.object);
            rigid && !rigid->isStaticOrKinematicObject())
            ground.velocity = rigid->getVelocityInLocalPoint(ground.point - rigid->getCenterOfMassPosition());
        if (ground.object->getBroadphaseHandle()) {
            riding_.object = ground.object;
            riding_.worldIndex = ground.object->getWorldArrayIndex();
            riding_.proxyId = ground.object->getBroadphaseHandle()->m_uniqueId;
            riding_.transform = ground.object->getWorldTransform();
        }
    }
    ground_ = ground;
    verticalVelocity_ = vertical;
    jumped_ = false;

    // Pushes: each dynamic body walked into gets an impulse along the contact, no more than the push
    // strength over the step.
    const btScalar most = pushStrength_ * dt;
    for (const Hit& hit : stepper.hits) {
        pending.touched.push_back({hit.object, hit.point, hit.normal});
        if (!(most > 0)) continue;
        btRigidBody* target = btRigidBody::upcast(const_cast<btCollisionObject*>(hit.object));
        if (!target || target->isStaticOrKinematicObject() || !(target->getInvMass() > 0)) continue;
        if (hit.normal.dot(up_) > btScalar(0.7)) continue;  // standing on it
        const btVector3 push = -hit.normal;
        const btVector3 relative = hit.point - target->getCenterOfMassPosition();
        const btScalar speed = walk.dot(push) / dt - target->getVelocityInLocalPoint(relative).dot(push);
        if (!(speed > 0)) continue;
        const btScalar impulse = std::min(speed / target->getInvMass(), most);
        pending.pushes.push_back({target, push * impulse, relative});
    }

    // Contacts begun and ended: this update's touches (what its moves met, and what the recovery found
    // still within twice the skin where the character ends, each contact taken as its plane) against the
    // last one's.
    for (const CharacterContact& contact : contacts)
        if (contact.distance + contact.normal.dot(at - measuredAt) < 2 * skin_)
            pending.touched.push_back({contact.object, contact.point, contact.normal});
    std::vector<const btCollisionObject*>& touching = pending.touching;
    touching.clear();
    for (const Pending::Added& touch : pending.touched)
        touching.push_back(touch.object);
    std::sort(touching.begin(), touching.end());
    touching.erase(std::unique(touching.begin(), touching.end()), touching.end());
    for (const Pending::Added& touch : pending.touched)
        if (!std::binary_search(touching_.begin(), touching_.end(), touch.object) &&
            std::none_of(pending.added.begin(), pending.added.end(),
                         [&](const Pending::Added& added) { return added.object == touch.object; }))
            pending.added.push_back(touch);
    for (const btCollisionObject* object : touching_)
        if (!std::binary_search(touching.begin(), touching.end(), object)) pending.removed.push_back(object);
    touching_.swap(touching);

    stats_.sweeps = queries.count();
    transform.setOrigin(at);
    pending.transform = transform;
}

void CharacterController::finishStep(btCollisionWorld* world) {
    Pending& pending = *pending_;
    if (!pending.move) return;
    ghost_->setWorldTransform(pending.transform);
    if (world && ghost_->getBroadphaseHandle()) world->updateSingleAabb(ghost_);
    for (const Pending::Push& push : pending.pushes) {
        push.body->activate(true);
        push.body->applyImpulse(push.impulse, push.at);
    }
    if (listener_) {
        for (const Pending::Added& added : pending.added)
            listener_->contactAdded(*this, *added.object, added.point, added.normal);
        for (const btCollisionObject* object : pending.removed)
            listener_->contactRemoved(*this, object);
    }
    pending.move = false;
}

// ---- Many characters ----

void CharacterGroup::add(CharacterController* character) {
    if (!character) throw std::invalid_argument("analytic::CharacterGroup::add: null character");
    if (std::find(characters_.begin(), characters_.end(), character) != characters_.end())
        throw std::invalid_argument("analytic::CharacterGroup::add: the character is in the group already");
    characters_.push_back(character);
}

void CharacterGroup::remove(CharacterController* character) {
    characters_.erase(std::remove(characters_.begin(), characters_.end(), character), characters_.end());
}

void CharacterGroup::update(btCollisionWorld& world, btScalar timeStep) {
    const unsigned threads = cast::threadsFor(threads_);
    cast::forChunks(characters_.size(), 8, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            characters_[i]->computeStep(world, timeStep);
    });
    for (CharacterController* character : characters_)
        character->finishStep(&world);
}

}  // namespace analytic
