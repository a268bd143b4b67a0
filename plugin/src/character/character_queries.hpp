// SPDX-License-Identifier: Zlib
// The world as a character controller asks it: the first contact of its shape (a sphere or an upright
// capsule, grown by some distance) moving along a segment, every obstacle within a distance of it where
// it stands, and a short ray. Each skips the character's own object, objects without contact response
// (triggers), objects its collision filter excludes and those its listener refuses; each goes through
// the cast pipeline's exact sweeps. Nothing here writes to the world, so many characters may ask at once.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <cstddef>
#include <optional>
#include <vector>

namespace analytic {
class CharacterController;
class CharacterListener;
}  // namespace analytic

namespace analytic::character {

// A sphere (halfHeight 0) or a capsule whose segment runs halfHeight either side of the centre along up.
struct Body {
    btScalar radius = 0;
    btScalar halfHeight = 0;
    btVector3 up{0, 1, 0};
};

struct Hit {
    btScalar fraction = 1;  // along from -> to
    btVector3 normal;       // unit, from the obstacle toward the character
    btVector3 point;        // on the obstacle
    const btCollisionObject* object = nullptr;
};

struct Contact {
    btVector3 normal;   // unit, from the obstacle toward the character
    btVector3 point;    // on the obstacle
    btScalar distance;  // from the obstacle to the body's surface along the normal (negative overlapping)
    const btCollisionObject* object;
};

// Which objects the character collides with: the ghost's broadphase group and mask (Bullet's
// CharacterFilter against StaticFilter | DefaultFilter when the ghost is in no broadphase), less itself,
// triggers and those the listener refuses.
struct Filter {
    const btCollisionObject* self = nullptr;
    int group = 0;
    int mask = 0;
    const CharacterController* character = nullptr;
    CharacterListener* listener = nullptr;

    static Filter of(const btCollisionObject& ghost, const CharacterController& character,
                     CharacterListener* listener);
    bool accepts(const btBroadphaseProxy& proxy) const;
};

class Queries {
public:
    Queries(const btCollisionWorld& world, const Filter& filter) : world_(world), filter_(filter) {}

    // The first contact of the body grown by `grow` with its centre moving from -> to (the fraction along
    // it), among contacts it moves into; nothing when from -> to meets nothing.
    std::optional<Hit> sweep(const Body& body, btScalar grow, const btVector3& from,
                             const btVector3& to) const;
    // Every obstacle within `reach` of the body centred at `at`: appended to out (at most `limit`, the
    // nearest kept).
    void contacts(const Body& body, btScalar reach, const btVector3& at, std::vector<Contact>& out,
                  std::size_t limit) const;
    // The first surface a ray from -> to meets.
    std::optional<Hit> ray(const btVector3& from, const btVector3& to) const;

    int count() const { return count_; }

private:
    const btCollisionWorld& world_;
    const Filter& filter_;
    mutable int count_ = 0;
};

}  // namespace analytic::character
