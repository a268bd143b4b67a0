// SPDX-License-Identifier: Zlib
// Fuzz target: sphereSweepTest (closest and all contacts, allowed penetration), a QueryScene of the world,
// the sweep batch and the plane queries on the small hostile worlds
// of fuzz_world.hpp, with hostile radii, ends (NaN, infinite, huge, equal: an overlap test) and sweeps
// 1e9 long. Invariants: no crash or undefined behaviour; an invalid radius throws invalid_argument and
// nothing else does; every contact has a fraction in [0, 1], a finite point and a unit normal that opposes
// the motion (or any, for a zero-length sweep); the closest callback's contact is the all-contacts'
// nearest; the scene and the batch give sphereSweepTest's contact; a contact with a sane sphere or box at a
// fraction above 0 is at the radius from the centre.
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <vector>

#include "analytic/plane_test.hpp"
#include "analytic/query_scene.hpp"
#include "analytic/sweep_batch.hpp"
#include "analytic/sweep_test.hpp"
#include "fuzz_checks.hpp"
#include "fuzz_world.hpp"

namespace analytic::fuzz {
namespace {

struct Recorded {
    const btCollisionObject* object;
    Scalar fraction;
    btVector3 normal, point;
};

struct Every : btCollisionWorld::ConvexResultCallback {
    std::vector<Recorded> contacts;
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool normalInWorldSpace) override {
        FUZZ_CHECK(normalInWorldSpace);
        contacts.push_back({result.m_hitCollisionObject, result.m_hitFraction, result.m_hitNormalLocal,
                            result.m_hitPointLocal});
        return m_closestHitFraction;
    }
};

void checkContact(const Recorded& contact, const btVector3& from, const btVector3& to) {
    FUZZ_CHECK(contact.object != nullptr);
    FUZZ_CHECK(std::isfinite(contact.fraction) && contact.fraction >= 0 && contact.fraction <= 1);
    FUZZ_CHECK(!std::signbit(contact.fraction));
    FUZZ_CHECK(finiteVector(contact.point) && finiteVector(contact.normal));
    FUZZ_CHECK(std::abs(contact.normal.length() - 1) < Scalar(1e-3));
    const btVector3 motion = to - from;
    if (finiteVector(motion) && !motion.fuzzyZero()) {
        FUZZ_CHECK(contact.normal.dot(motion) <= 0);
    }
}

// planeTest and sliceMeshes with a fuzzed plane: an invalid one throws, nothing else does; every object in
// the broadphase classified; slice points finite.
void planeQueries(Input& in, Scene& built) {
    bool sane = true;
    const btVector3 normal = bullet(vector(in, sane, 1));
    const Scalar offset = in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.below(33)) - 16;
    const Scalar length = normal.length();
    const bool valid =
        length > 0 && std::isfinite(length) && std::isfinite(offset) && std::isfinite(offset / length);
    std::vector<PlaneObject> objects;
    std::vector<PlaneSlice> slices;
    try {
        planeTest(built.world, normal, offset, objects);
        sliceMeshes(built.world, normal, offset, slices);
        FUZZ_CHECK(valid);
    } catch (const std::invalid_argument&) {
        FUZZ_CHECK(!valid);
        return;
    }
    FUZZ_CHECK(objects.size() == std::size_t(built.world.getNumCollisionObjects()));
    for (const PlaneSlice& slice : slices) {
        FUZZ_CHECK(slice.points.size() >= 2);
        for (const btVector3& point : slice.points) {
            FUZZ_CHECK(finiteVector(point));
        }
    }
}

void run(Input& in) {
    Scene built;
    buildWorld(in, built);
    const QueryScene snapshot(built.world);
    planeQueries(in, built);
    const int sweeps = 1 + in.below(6);
    for (int s = 0; s < sweeps; ++s) {
        bool sane = true;
        btVector3 from = bullet(vector(in, sane, 16));
        btVector3 to = in.below(8) == 0 ? from : bullet(vector(in, sane, 16));
        if (in.below(8) == 0) to = from + (to - from) * Scalar(1e9);
        Scalar radius = in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(in.byte()) / 64;
        const Scalar allowed = in.below(4) == 0 ? in.scalar<Scalar>() : Scalar(0);
        const bool validRadius = std::isfinite(radius) && radius >= 0;
        Every every;
        btCollisionWorld::ClosestConvexResultCallback closest(from, to);
        try {
            sphereSweepTest(built.world, radius, from, to, every, allowed);
            sphereSweepTest(built.world, radius, from, to, closest, allowed);
            FUZZ_CHECK(validRadius);
        } catch (const std::invalid_argument&) {
            FUZZ_CHECK(!validRadius);
            continue;
        }
        for (const Recorded& contact : every.contacts)
            checkContact(contact, from, to);
        if (closest.m_hitCollisionObject) {
            checkContact({closest.m_hitCollisionObject, closest.m_closestHitFraction,
                          closest.m_hitNormalWorld, closest.m_hitPointWorld},
                         from, to);
            Scalar nearest = std::numeric_limits<Scalar>::infinity();
            for (const Recorded& contact : every.contacts)
                nearest = std::min(nearest, contact.fraction);
            FUZZ_CHECK(nearest == closest.m_closestHitFraction);
        }
        // The world's snapshot answers as the world; the batch too (a bad radius: a miss there).
        btCollisionWorld::ClosestConvexResultCallback fromScene(from, to);
        snapshot.sphereSweepTest(radius, from, to, fromScene, allowed);
        FUZZ_CHECK(fromScene.m_hitCollisionObject == closest.m_hitCollisionObject ||
                   closest.m_closestHitFraction == 0);
        if (closest.m_hitCollisionObject) {
            FUZZ_CHECK(fromScene.m_closestHitFraction == closest.m_closestHitFraction);
        }
        const Sweep sweep{from, to, std::isfinite(allowed) ? std::max(radius - allowed, Scalar(0)) : radius};
        SweepHit batchHit;
        sphereSweepBatch(built.world, std::span(&sweep, 1), std::span(&batchHit, 1), {1});
        FUZZ_CHECK(bool(batchHit.object) == bool(closest.m_hitCollisionObject));
        if (batchHit.object) {
            FUZZ_CHECK(batchHit.fraction == closest.m_closestHitFraction);
        }
        // On a sane sphere or box, a contact after the start is at the radius from the centre.
        const Scalar swept = std::isfinite(allowed) ? std::max(radius - allowed, Scalar(0)) : radius;
        for (const Scene::Checked& solid : built.checked) {
            if (closest.m_hitCollisionObject != solid.object || !(closest.m_closestHitFraction > 0)) continue;
            const btVector3 centre = from.lerp(to, closest.m_closestHitFraction);
            const Real scale = std::max(
                {Real(16), Real(solid.object->getWorldTransform().getOrigin().length()), Real(solid.radius),
                 Real(solid.half.length()), Real((to - from).length()), Real(swept)});
            FUZZ_CHECK(std::abs(Real((closest.m_hitPointWorld - centre).length()) - Real(swept)) <=
                       4096 * roundoff<Scalar> * scale);
        }
    }
}

}  // namespace
}  // namespace analytic::fuzz

ANALYTIC_FUZZ_ONE_SCALAR(analytic::fuzz::run)
