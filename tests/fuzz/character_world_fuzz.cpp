// SPDX-License-Identifier: Zlib
// Fuzz target: character controllers (spheres and capsules) in the small hostile worlds of fuzz_world.hpp,
// driven by hostile input: walks and velocities that are NaN, infinite or huge, time steps that are zero,
// negative or not finite, jumps, warps into geometry, any up axis, slope, step height, skin and shape change,
// a group update. Invariants: no crash or undefined behaviour; a setter throws std::invalid_argument exactly
// for the invalid values its contract names, and nothing else throws; the character's position stays finite;
// warped into one sane sphere or box and left still, it is out of it (at the skin) within three updates.
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>

#include "analytic/character_controller.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_world.hpp"

namespace analytic::fuzz {
namespace {

bool finiteScalar(Scalar x) { return std::isfinite(x); }

// A scalar: hostile one time in four, else a small multiple of 1/64.
Scalar amount(Input& in, Scalar unit) {
    if (in.below(4) == 0) return in.scalar<Scalar>();
    return Scalar(int(in.byte()) - 128) * unit / 64;
}

template <class Call> void expectThrowsExactly(bool invalid, Call call) {
    try {
        call();
        FUZZ_CHECK(!invalid);
    } catch (const std::invalid_argument&) {
        FUZZ_CHECK(invalid);
    }
}

// A sane sphere or box the character (radius r, skin s) can be warped into alone: the distance from the
// centre to its surface (negative inside).
Scalar distanceTo(const Scene::Checked& solid, const btVector3& center) {
    const btVector3 local = solid.object->getWorldTransform().invXform(center);
    if (solid.kind == 0) return local.length() - solid.radius;
    const btVector3 outside(std::max(std::abs(local.x()) - solid.half.x(), Scalar(0)),
                            std::max(std::abs(local.y()) - solid.half.y(), Scalar(0)),
                            std::max(std::abs(local.z()) - solid.half.z(), Scalar(0)));
    const Scalar inside =
        std::max({std::abs(local.x()) - solid.half.x(), std::abs(local.y()) - solid.half.y(),
                  std::abs(local.z()) - solid.half.z()});
    return inside > 0 ? outside.length() : inside;
}

void drive(Input& in, Scene& built, CharacterController& character, btCollisionObject& ghost) {
    const int steps = 1 + in.below(12);
    for (int s = 0; s < steps; ++s) {
        switch (in.below(10)) {
            case 0: {
                bool sane = true;
                const btVector3 walk = bullet(vector(in, sane, 2));
                expectThrowsExactly(!finiteVector(walk), [&] { character.setWalkDirection(walk); });
                break;
            }
            case 1: {
                bool sane = true;
                const btVector3 velocity = bullet(vector(in, sane, 20));
                const Scalar interval = amount(in, 1);
                expectThrowsExactly(!finiteVector(velocity) || !finiteScalar(interval),
                                    [&] { character.setVelocityForTimeInterval(velocity, interval); });
                break;
            }
            case 2: {
                bool sane = true;
                const btVector3 launch = in.flag() ? btVector3(0, 0, 0) : bullet(vector(in, sane, 20));
                expectThrowsExactly(!finiteVector(launch), [&] { character.jump(launch); });
                break;
            }
            case 3: {
                bool sane = true;
                const btVector3 to = bullet(vector(in, sane, 8));
                expectThrowsExactly(!finiteVector(to), [&] { character.warp(to); });
                break;
            }
            case 4: {
                bool sane = true;
                const btVector3 up = bullet(vector(in, sane, 1));
                expectThrowsExactly(!finiteVector(up) || up.isZero(), [&] { character.setUp(up); });
                break;
            }
            case 5: {
                const Scalar slope = amount(in, 1), height = amount(in, 1), skin = amount(in, Scalar(0.05));
                expectThrowsExactly(!(slope >= 0 && slope <= SIMD_HALF_PI),
                                    [&] { character.setMaxSlope(slope); });
                expectThrowsExactly(!(height >= 0 && height <= Scalar(1e6)),
                                    [&] { character.setStepHeight(height); });
                expectThrowsExactly(!(skin > 0 && skin <= Scalar(1e6)),
                                    [&] { character.setContactOffset(skin); });
                break;
            }
            case 6: {
                const Scalar radius = amount(in, 1);
                // A sphere, or a capsule of any axis (used upright) and a hostile half height.
                std::unique_ptr<btConvexShape> shape;
                const bool capsule = in.flag();
                const Scalar height =
                    capsule ? (in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.byte()) / 64) : Scalar(0);
                if (capsule)
                    shape = std::make_unique<btCapsuleShape>(radius, 2 * height);
                else
                    shape = std::make_unique<btSphereShape>(radius);
                bool changed = false;
                expectThrowsExactly(
                    !(radius >= 0 && radius <= Scalar(1e6) && height >= 0 && height <= Scalar(1e6)),
                    [&] { changed = character.setShape(built.world, shape.get()); });
                if (changed) built.shapes.push_back(std::move(shape));
                break;
            }
            default: {
                const Scalar dt = in.below(3) == 0 ? in.scalar<Scalar>() : Scalar(1 + in.below(8)) / 240;
                character.updateAction(&built.world, dt);
                FUZZ_CHECK(finiteVector(ghost.getWorldTransform().getOrigin()));
                break;
            }
        }
    }
}

void run(Input& in) {
    Scene built;
    buildWorld(in, built);
    const Scalar radius = in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.byte()) / 128;
    // A sphere, or a capsule of any axis (used upright) and a hostile half height.
    std::unique_ptr<btConvexShape> shape;
    const bool capsule = in.flag();
    const Scalar height =
        capsule ? (in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.byte()) / 64) : Scalar(0);
    if (capsule)
        shape = std::make_unique<btCapsuleShape>(radius, 2 * height);
    else
        shape = std::make_unique<btSphereShape>(radius);
    btCollisionObject ghost;
    ghost.setWorldTransform(btTransform(btQuaternion::getIdentity(), btVector3(0, 4, 0)));
    ghost.setCollisionShape(shape.get());
    const auto cleanUp = [&] {
        if (ghost.getBroadphaseHandle()) built.world.removeCollisionObject(&ghost);
    };
    if (in.flag())
        built.world.addCollisionObject(&ghost, btBroadphaseProxy::CharacterFilter,
                                       btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
    bool sane = true;
    const btVector3 up = bullet(vector(in, sane, 1));
    const Scalar step = amount(in, 1);
    std::unique_ptr<CharacterController> character;
    const bool validShape = radius >= 0 && radius <= Scalar(1e6) && height >= 0 && height <= Scalar(1e6);
    expectThrowsExactly(
        !validShape || !finiteVector(up) || up.isZero() || !(step >= 0 && step <= Scalar(1e6)),
        [&] { character = std::make_unique<CharacterController>(&ghost, shape.get(), step, up); });
    if (!character) return cleanUp();
    character->setGravity(btVector3(0, -9.81f, 0));
    drive(in, built, *character, ghost);

    // A group of one, on two threads, keeps the position finite too.
    CharacterGroup group(2);
    group.add(character.get());
    group.update(built.world, Scalar(1) / 60);
    FUZZ_CHECK(finiteVector(ghost.getWorldTransform().getOrigin()));

    // Warped into a sane sphere or box that nothing else is near, and left still: out within three updates.
    if (!built.checked.empty() && in.flag()) {
        const Scene::Checked& solid = built.checked[std::size_t(in.below(int(built.checked.size())))];
        const btVector3 inside = solid.object->getWorldTransform()(
            bullet(vector(in, sane, 1)) * Scalar(0.5) * (solid.kind == 0 ? solid.radius : Scalar(0)));
        character->reset(&built.world);
        character->setGravity(btVector3(0, 0, 0));
        character->setWalkDirection(btVector3(0, 0, 0));
        if (!finiteVector(inside)) return cleanUp();
        character->warp(inside);
        const Scalar r = radius;
        const Scalar skin = character->getContactOffset();
        bool alone =
            !capsule && character->getShape() == shape.get() && r > Scalar(1e-2) && r < 4 && skin < r;
        for (const auto& object : built.objects) {
            if (object.get() == solid.object) continue;
            btVector3 low, high;
            object->getCollisionShape()->getAabb(object->getWorldTransform(), low, high);
            const Scalar extent = solid.kind == 0 ? solid.radius : solid.half.length();
            const btVector3 reach(extent + 2 * r + 1, extent + 2 * r + 1, extent + 2 * r + 1);
            alone = alone && !(finiteVector(low) && finiteVector(high) && low.x() < inside.x() + reach.x() &&
                               high.x() > inside.x() - reach.x() && low.y() < inside.y() + reach.y() &&
                               high.y() > inside.y() - reach.y() && low.z() < inside.z() + reach.z() &&
                               high.z() > inside.z() - reach.z());
        }
        for (int i = 0; i < 3; ++i)
            character->updateAction(&built.world, Scalar(1) / 60);
        const btVector3 at = ghost.getWorldTransform().getOrigin();
        FUZZ_CHECK(finiteVector(at));
        if (alone) {
            const Scalar scale = std::max({Scalar(1), solid.radius, solid.half.length(),
                                           solid.object->getWorldTransform().getOrigin().length()});
            FUZZ_CHECK(distanceTo(solid, at) >= r + Scalar(0.89) * skin - 1e-4f * scale);
        }
    }
    cleanUp();
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_ONE_SCALAR(analytic::fuzz::run)
