// SPDX-License-Identifier: Zlib
// ContactSink writes our kernels' contacts into Bullet's manifold itself instead of calling
// btManifoldResult::addContactPoint per point and refreshContactPoints after. Here, on random cases, two
// copies of one manifold receive the same contacts, one through Bullet's calls and one through
// ContactSink, over one to three steps: after each step the two must be equal field by field, bit for
// bit, and Bullet's global callbacks (started, ended, destroyed, processed, added) must have seen the
// same calls with the same arguments in the same order. The cases cover empty and partly filled
// manifolds, new contacts near existing points (replacement keeps the warm-starting data), full
// manifolds (Bullet's reduction), the manifold's bodies in either order, part ids and indices (also per
// mesh piece), user combiners, contact stiffness and damping, friction anchors, contact-added callbacks,
// refreshed and unrefreshed manifolds, results of a derived class, and contacts given one by one or a
// plane's all in one call (addPlaneContacts); each must occur often enough.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "narrowphase/contact_sink.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using narrowphase::ContactSink;
using test::Random;
using Scalar = btScalar;

constexpr int kCases = 20000;

// ---------------------------------------------------------------------------------------------------
// Bullet's global callbacks, recorded. Each call becomes one line of text with its arguments' bits, so
// two runs compare as two lists of strings.

std::vector<std::string> gEvents;
const btPersistentManifold* gManifoldUnderTest = nullptr;

std::string bits(Scalar x) {
    std::uint64_t word = 0;
    std::memcpy(&word, &x, sizeof x);
    return std::to_string(word);
}

std::string describe(const btManifoldPoint& point) {
    return bits(point.m_distance1) + " " + bits(point.m_localPointA.x()) + " " +
           std::to_string(point.m_lifeTime) + " " +
           std::to_string(reinterpret_cast<std::uintptr_t>(point.m_userPersistentData)) + " " +
           std::to_string(point.m_partId0) + " " + std::to_string(point.m_index1);
}

void recordStarted(btPersistentManifold* const& manifold) {
    gEvents.push_back(std::string("started ") + (manifold == gManifoldUnderTest ? "this" : "other"));
}

void recordEnded(btPersistentManifold* const& manifold) {
    gEvents.push_back(std::string("ended ") + (manifold == gManifoldUnderTest ? "this" : "other"));
}

bool recordDestroyed(void* userPersistentData) {
    gEvents.push_back("destroyed " + std::to_string(reinterpret_cast<std::uintptr_t>(userPersistentData)));
    return true;
}

bool recordProcessed(btManifoldPoint& point, void* body0, void* body1) {
    gEvents.push_back("processed " + describe(point) + " " +
                      std::to_string(reinterpret_cast<std::uintptr_t>(body0)) + " " +
                      std::to_string(reinterpret_cast<std::uintptr_t>(body1)));
    return true;
}

// A contact-added callback that changes the point's material, as users do.
bool recordAdded(btManifoldPoint& point, const btCollisionObjectWrapper* wrapper0, int partId0, int index0,
                 const btCollisionObjectWrapper* wrapper1, int partId1, int index1) {
    point.m_combinedFriction = Scalar(0.25) + Scalar(partId0 & 3);
    gEvents.push_back("added " + describe(point) + " " +
                      std::to_string(reinterpret_cast<std::uintptr_t>(wrapper0->getCollisionObject())) + " " +
                      std::to_string(reinterpret_cast<std::uintptr_t>(wrapper1->getCollisionObject())) + " " +
                      std::to_string(partId0) + " " + std::to_string(index0) + " " + std::to_string(partId1) +
                      " " + std::to_string(index1));
    return true;
}

// Combiners that tell the bodies apart, so a swapped call would show.
Scalar lopsidedFriction(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getFriction() + Scalar(0.5) * body1->getFriction();
}
Scalar lopsidedRestitution(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getRestitution() - Scalar(0.25) * body1->getRestitution();
}
Scalar lopsidedRollingFriction(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getRollingFriction() * Scalar(3) + body1->getSpinningFriction();
}
Scalar lopsidedSpinningFriction(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getSpinningFriction() - body1->getRollingFriction();
}
Scalar lopsidedDamping(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getContactDamping() * Scalar(2) + body1->getContactDamping();
}
Scalar lopsidedStiffness(const btCollisionObject* body0, const btCollisionObject* body1) {
    return body0->getContactStiffness() + Scalar(7) * body1->getContactStiffness();
}

// Bullet's globals as a case sets them; the defaults come back when the case ends.
class GlobalCallbacks {
public:
    GlobalCallbacks() = default;
    GlobalCallbacks(const GlobalCallbacks&) = delete;
    GlobalCallbacks& operator=(const GlobalCallbacks&) = delete;

    ~GlobalCallbacks() {
        gContactStartedCallback = nullptr;
        gContactEndedCallback = nullptr;
        gContactDestroyedCallback = nullptr;
        gContactProcessedCallback = nullptr;
        gContactAddedCallback = nullptr;
        gCalculateCombinedFrictionCallback = defaults_[0];
        gCalculateCombinedRestitutionCallback = defaults_[1];
        gCalculateCombinedRollingFrictionCallback = defaults_[2];
        gCalculateCombinedSpinningFrictionCallback = defaults_[3];
        gCalculateCombinedContactDampingCallback = defaults_[4];
        gCalculateCombinedContactStiffnessCallback = defaults_[5];
    }

    void draw(Random& random, bool& customCombiners) {
        if (random.chance(0.7)) gContactStartedCallback = recordStarted;
        if (random.chance(0.7)) gContactEndedCallback = recordEnded;
        if (random.chance(0.7)) gContactDestroyedCallback = recordDestroyed;
        if (random.chance(0.5)) gContactProcessedCallback = recordProcessed;
        if (random.chance(0.3)) gContactAddedCallback = recordAdded;
        customCombiners = random.chance(0.3);
        if (customCombiners) {
            gCalculateCombinedFrictionCallback = lopsidedFriction;
            gCalculateCombinedRestitutionCallback = lopsidedRestitution;
            gCalculateCombinedRollingFrictionCallback = lopsidedRollingFriction;
            gCalculateCombinedSpinningFrictionCallback = lopsidedSpinningFriction;
            gCalculateCombinedContactDampingCallback = lopsidedDamping;
            gCalculateCombinedContactStiffnessCallback = lopsidedStiffness;
        }
    }

private:
    CalculateCombinedCallback defaults_[6] = {
        gCalculateCombinedFrictionCallback,        gCalculateCombinedRestitutionCallback,
        gCalculateCombinedRollingFrictionCallback, gCalculateCombinedSpinningFrictionCallback,
        gCalculateCombinedContactDampingCallback,  gCalculateCombinedContactStiffnessCallback};
};

// ---------------------------------------------------------------------------------------------------
// Comparing manifolds.

template <class Value> bool sameBits(const Value& a, const Value& b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameVector(const btVector3& a, const btVector3& b) {
    for (int i = 0; i < 4; ++i)
        if (!sameBits(a.m_floats[i], b.m_floats[i])) return false;
    return true;
}

// Every field of every point; "" when equal, else the first difference.
std::string difference(const btPersistentManifold& bullet, const btPersistentManifold& ours) {
    if (bullet.getNumContacts() != ours.getNumContacts())
        return "point count " + std::to_string(bullet.getNumContacts()) + " vs " +
               std::to_string(ours.getNumContacts());
    for (int i = 0; i < bullet.getNumContacts(); ++i) {
        const btManifoldPoint& b = bullet.getContactPoint(i);
        const btManifoldPoint& o = ours.getContactPoint(i);
        const std::string at = " of point " + std::to_string(i);
        const std::pair<const char*, bool> fields[] = {
            {"m_localPointA", sameVector(b.m_localPointA, o.m_localPointA)},
            {"m_localPointB", sameVector(b.m_localPointB, o.m_localPointB)},
            {"m_positionWorldOnB", sameVector(b.m_positionWorldOnB, o.m_positionWorldOnB)},
            {"m_positionWorldOnA", sameVector(b.m_positionWorldOnA, o.m_positionWorldOnA)},
            {"m_normalWorldOnB", sameVector(b.m_normalWorldOnB, o.m_normalWorldOnB)},
            {"m_distance1", sameBits(b.m_distance1, o.m_distance1)},
            {"m_combinedFriction", sameBits(b.m_combinedFriction, o.m_combinedFriction)},
            {"m_combinedRollingFriction", sameBits(b.m_combinedRollingFriction, o.m_combinedRollingFriction)},
            {"m_combinedSpinningFriction",
             sameBits(b.m_combinedSpinningFriction, o.m_combinedSpinningFriction)},
            {"m_combinedRestitution", sameBits(b.m_combinedRestitution, o.m_combinedRestitution)},
            {"m_partId0", b.m_partId0 == o.m_partId0},
            {"m_partId1", b.m_partId1 == o.m_partId1},
            {"m_index0", b.m_index0 == o.m_index0},
            {"m_index1", b.m_index1 == o.m_index1},
            {"m_userPersistentData", b.m_userPersistentData == o.m_userPersistentData},
            {"m_contactPointFlags", b.m_contactPointFlags == o.m_contactPointFlags},
            {"m_appliedImpulse", sameBits(b.m_appliedImpulse, o.m_appliedImpulse)},
            {"m_prevRHS", sameBits(b.m_prevRHS, o.m_prevRHS)},
            {"m_appliedImpulseLateral1", sameBits(b.m_appliedImpulseLateral1, o.m_appliedImpulseLateral1)},
            {"m_appliedImpulseLateral2", sameBits(b.m_appliedImpulseLateral2, o.m_appliedImpulseLateral2)},
            {"m_contactMotion1", sameBits(b.m_contactMotion1, o.m_contactMotion1)},
            {"m_contactMotion2", sameBits(b.m_contactMotion2, o.m_contactMotion2)},
            {"m_contactCFM (m_combinedContactStiffness1)", sameBits(b.m_contactCFM, o.m_contactCFM)},
            {"m_contactERP (m_combinedContactDamping1)", sameBits(b.m_contactERP, o.m_contactERP)},
            {"m_frictionCFM", sameBits(b.m_frictionCFM, o.m_frictionCFM)},
            {"m_lifeTime", b.m_lifeTime == o.m_lifeTime},
            {"m_lateralFrictionDir1", sameVector(b.m_lateralFrictionDir1, o.m_lateralFrictionDir1)},
            {"m_lateralFrictionDir2", sameVector(b.m_lateralFrictionDir2, o.m_lateralFrictionDir2)},
        };
        for (const auto& [name, same] : fields)
            if (!same) return name + at;
    }
    return "";
}

// ---------------------------------------------------------------------------------------------------
// Random cases.

struct Contact {
    Vec3<Scalar> normalOnB;
    Vec3<Scalar> pointOnB;
    Scalar distance;
    int piece;  // -1: the whole of B; else the part id and index of a piece (of B, or of A when pieceOfA)
    bool pieceOfA;
};

// How often each kind of event happened in Bullet's run, to show the cases reach them.
struct Coverage {
    int replaced = 0, added = 0, reduced = 0, anchorKept = 0, rejected = 0, removedByRefresh = 0;
    int swapped = 0, pieces = 0, stiffness = 0, customCombiners = 0, customMaterial = 0, sharedNormals = 0;
    int planeBatches = 0;
};

btTransform randomTransform(Random& random) {
    return test::transformOf(random.rotation<Scalar>(), toBullet(random.point<Scalar>(10)));
}

// The transform moved by a small rotation and translation: the next step's.
btTransform moved(Random& random, const btTransform& transform, Scalar size) {
    const btVector3 axis = toBullet(random.unitVector<Scalar>());
    const btQuaternion turn(axis, Scalar(random.uniform(0, 0.05)));
    return btTransform(btMatrix3x3(turn) * transform.getBasis(),
                       transform.getOrigin() + toBullet(random.point<Scalar>(size)));
}

void drawMaterial(Random& random, btCollisionObject& object, Coverage& coverage) {
    object.setFriction(Scalar(random.uniform(0, 4)));  // products above 10 are clamped
    object.setRestitution(Scalar(random.uniform(0, 1)));
    object.setRollingFriction(Scalar(random.uniform(0, 0.5)));
    object.setSpinningFriction(Scalar(random.uniform(0, 0.5)));
    if (random.chance(0.2)) {
        object.setContactStiffnessAndDamping(Scalar(random.logUniform(1e2, 1e7)),
                                             Scalar(random.uniform(0, 10)));
        ++coverage.stiffness;
    }
    if (random.chance(0.2))
        object.setCollisionFlags(object.getCollisionFlags() | btCollisionObject::CF_HAS_FRICTION_ANCHOR);
}

// A point a manifold holds from earlier steps: anywhere near the contact region, with solver data.
btManifoldPoint earlierPoint(Random& random, const btVector3& region, const btTransform& transform0,
                             const btTransform& transform1) {
    const btVector3 onA = region + toBullet(random.point<Scalar>(0.3));
    const btVector3 onB = onA + toBullet(random.point<Scalar>(0.03));
    btManifoldPoint point(transform0.invXform(onA), transform1.invXform(onB),
                          toBullet(random.unitVector<Scalar>()), Scalar(random.uniform(-0.05, 0.05)));
    point.m_positionWorldOnA = onA;
    point.m_positionWorldOnB = onB;
    point.m_combinedFriction = Scalar(random.uniform(0, 2));
    point.m_appliedImpulse = Scalar(random.uniform(0, 3));
    point.m_prevRHS = Scalar(random.uniform(-1, 1));
    point.m_appliedImpulseLateral1 = Scalar(random.uniform(-2, 2));
    point.m_appliedImpulseLateral2 = Scalar(random.uniform(-2, 2));
    point.m_lifeTime = int(random.uniform(0, 100));
    point.m_contactPointFlags = int(random.uniform(0, 32));
    point.m_partId0 = int(random.uniform(-1, 5));
    point.m_index1 = int(random.uniform(-1, 500));
    static std::uintptr_t nextUserData = 0x1000;
    if (random.chance(0.6)) point.m_userPersistentData = reinterpret_cast<void*>(nextUserData += 16);
    return point;
}

// A step's new contacts: near the manifold's points (as a resting pair finds them again: closer or
// farther than the breaking threshold) or anywhere in the region, some farther apart than the threshold.
std::vector<Contact> newContacts(Random& random, const btPersistentManifold& manifold,
                                 const btVector3& region, const btTransform& manifoldTransform0,
                                 Scalar threshold, bool pieces, Coverage& coverage) {
    std::vector<Contact> contacts(std::size_t(random.uniform(1, 7)));
    const bool sharedNormal = random.chance(0.5);
    coverage.sharedNormals += sharedNormal;
    const Vec3<Scalar> firstNormal = random.unitVector<Scalar>();
    for (Contact& contact : contacts) {
        contact.normalOnB = sharedNormal ? firstNormal : random.unitVector<Scalar>();
        contact.distance = Scalar(random.uniform(-0.05, 0.05));
        if (random.chance(0.15)) contact.distance = threshold * Scalar(random.uniform(0.9, 1.5));
        btVector3 onA = region + toBullet(random.point<Scalar>(0.3));
        if (manifold.getNumContacts() > 0 && random.chance(0.6)) {
            const btManifoldPoint& near =
                manifold.getContactPoint(int(random.uniform(0, manifold.getNumContacts())));
            onA = manifoldTransform0(near.m_localPointA) +
                  toBullet(random.unitVector<Scalar>() * threshold * Scalar(random.uniform(0, 2)));
        }
        contact.pointOnB = toGlm(onA) - contact.normalOnB * contact.distance;
        contact.piece = pieces ? int(random.uniform(0, 1000)) : -1;
        contact.pieceOfA = random.chance(0.3);
    }
    return contacts;
}

// ---------------------------------------------------------------------------------------------------
// The two ways of writing.

// What Bullet's algorithms do with a result (and what ContactSink replaced): addContactPoint per contact
// within reach, a piece's identifiers and wrapper set around its contact, refreshContactPoints after.
void writeWithBullet(btManifoldResult& result, const std::vector<Contact>& contacts, Scalar reach,
                     const btCollisionObjectWrapper& pieceOfA, const btCollisionObjectWrapper& pieceOfB,
                     bool refresh, Coverage& coverage, Scalar threshold) {
    btPersistentManifold& manifold = *result.getPersistentManifold();
    for (const Contact& contact : contacts) {
        // Bullet's per-triangle dispatch gives the result each triangle's identifiers before its test.
        if (contact.piece >= 0) {
            if (contact.pieceOfA)
                result.setShapeIdentifiersA(contact.piece, contact.piece * 3);
            else
                result.setShapeIdentifiersB(contact.piece, contact.piece * 3);
        }
        if (!(contact.distance <= reach)) continue;
        const btVector3 normal = toBullet(contact.normalOnB), point = toBullet(contact.pointOnB);
        // Which way Bullet will go, for the coverage counts.
        if (contact.distance > threshold) {
            ++coverage.rejected;
        } else {
            const bool swapped = manifold.getBody0() != result.getBody0Internal();
            const btTransform& transform0 =
                (swapped ? result.getBody1Internal() : result.getBody0Internal())->getWorldTransform();
            const btManifoldPoint probe(transform0.invXform(point + normal * contact.distance),
                                        btVector3(0, 0, 0), normal, contact.distance);
            const int match = manifold.getCacheEntry(probe);
            const bool anchors = (result.getBody0Internal()->getCollisionFlags() |
                                  result.getBody1Internal()->getCollisionFlags()) &
                                 btCollisionObject::CF_HAS_FRICTION_ANCHOR;
            if (match >= 0) {
                const btManifoldPoint& old = manifold.getContactPoint(match);
                const Scalar lateral = old.m_appliedImpulseLateral1 * old.m_appliedImpulseLateral1 +
                                       old.m_appliedImpulseLateral2 * old.m_appliedImpulseLateral2;
                const Scalar cone = old.m_combinedFriction * old.m_appliedImpulse;
                ++(anchors && !(lateral > cone * cone) ? coverage.anchorKept : coverage.replaced);
            } else {
                ++(manifold.getNumContacts() == MANIFOLD_CACHE_SIZE ? coverage.reduced : coverage.added);
            }
        }
        if (contact.piece < 0) {
            result.addContactPoint(normal, point, contact.distance);
            continue;
        }
        ++coverage.pieces;
        if (contact.pieceOfA) {
            const btCollisionObjectWrapper* whole = result.getBody0Wrap();
            result.setBody0Wrap(&pieceOfA);
            result.addContactPoint(normal, point, contact.distance);
            result.setBody0Wrap(whole);
        } else {
            const btCollisionObjectWrapper* whole = result.getBody1Wrap();
            result.setBody1Wrap(&pieceOfB);
            result.addContactPoint(normal, point, contact.distance);
            result.setBody1Wrap(whole);
        }
    }
    if (refresh) {
        const int before = manifold.getNumContacts();
        result.refreshContactPoints();
        coverage.removedByRefresh += before - manifold.getNumContacts();
    }
}

// Whether the contacts can go to addPlaneContacts as one plane's: whole B, one normal (bit for bit).
bool onePlane(const std::vector<Contact>& contacts) {
    return std::all_of(contacts.begin(), contacts.end(), [&](const Contact& contact) {
        return contact.piece < 0 &&
               std::memcmp(&contact.normalOnB, &contacts.front().normalOnB, sizeof contact.normalOnB) == 0;
    });
}

// batched: contacts of one plane go through addPlaneContacts in one call (the box-plane kernel's way),
// as points on the plane with depths; the others one by one.
void writeWithSink(btManifoldResult& result, const std::vector<Contact>& contacts, Scalar reach,
                   const btCollisionObjectWrapper& pieceOfA, const btCollisionObjectWrapper& pieceOfB,
                   bool refresh, bool batched, Coverage& coverage) {
    ContactSink sink(result, reach);
    if (batched && onePlane(contacts)) {
        ++coverage.planeBatches;
        std::vector<PlaneContactPoint<Scalar>> points;
        for (const Contact& contact : contacts)
            points.push_back({Vec3<Scalar>(0), contact.pointOnB, -contact.distance});
        sink.addPlaneContacts(contacts.front().normalOnB, points);
        if (refresh) sink.refresh();
        return;
    }
    for (const Contact& contact : contacts) {
        if (contact.piece < 0) {
            sink.add(contact.normalOnB, contact.pointOnB, contact.distance);
            continue;
        }
        // The piece's wrapper carries its identifiers, as Bullet's per-triangle dispatch makes them.
        const btCollisionObjectWrapper& whole = contact.pieceOfA ? pieceOfA : pieceOfB;
        const btCollisionObjectWrapper piece(whole.m_parent, whole.getCollisionShape(),
                                             whole.getCollisionObject(), whole.getWorldTransform(),
                                             contact.piece, contact.piece * 3);
        sink.add(contact.normalOnB, contact.pointOnB, contact.distance, piece);
    }
    if (refresh) sink.refresh();
}

// A result of a derived class, as contactTest's: every point must reach its addContactPoint.
class CountingResult : public btManifoldResult {
public:
    using btManifoldResult::btManifoldResult;
    void addContactPoint(const btVector3& normalOnB, const btVector3& pointOnB, Scalar distance) override {
        ++calls;
        btManifoldResult::addContactPoint(normalOnB, pointOnB, distance);
    }
    int calls = 0;
};

// One random case, Bullet's way and ours; fails the test at the first difference.
void runCase(std::uint64_t seed, Coverage& coverage) {
    Random random(seed);
    GlobalCallbacks globals;
    bool customCombiners = false;
    globals.draw(random, customCombiners);
    coverage.customCombiners += customCombiners;

    btSphereShape shape(1);
    btCollisionObject body0, body1;
    body0.setCollisionShape(&shape);
    body1.setCollisionShape(&shape);
    body0.setWorldTransform(randomTransform(random));
    body1.setWorldTransform(randomTransform(random));
    drawMaterial(random, body0, coverage);
    drawMaterial(random, body1, coverage);
    if (gContactAddedCallback && random.chance(0.5)) {
        btCollisionObject& custom = random.chance(0.5) ? body0 : body1;
        custom.setCollisionFlags(custom.getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
        ++coverage.customMaterial;
    }

    const Scalar threshold = Scalar(random.uniform(0.005, 0.1));
    const bool swapped = random.chance(0.5);
    coverage.swapped += swapped;
    const btCollisionObject& manifoldBody0 = swapped ? body1 : body0;
    const btCollisionObject& manifoldBody1 = swapped ? body0 : body1;
    btPersistentManifold bullet(&manifoldBody0, &manifoldBody1, 0, threshold, threshold);
    const btVector3 region = body0.getWorldTransform().getOrigin();
    const int earlier = int(random.uniform(0, MANIFOLD_CACHE_SIZE + 1));
    bullet.setNumContacts(earlier);
    for (int i = 0; i < earlier; ++i)
        bullet.getContactPoint(i) = earlierPoint(random, region, manifoldBody0.getWorldTransform(),
                                                 manifoldBody1.getWorldTransform());
    btPersistentManifold ours = bullet;

    const bool derivedResult = random.chance(0.1);
    const bool pieces = random.chance(0.3);
    const int steps = int(random.uniform(1, 4));
    for (int step = 0; step < steps; ++step) {
        const test::ObjectWrapper wrapper0(body0), wrapper1(body1);
        const Scalar reach = random.chance(0.8) ? threshold : threshold * Scalar(random.uniform(1, 2));
        const bool refresh = random.chance(0.8);
        const bool batched = random.chance(0.5);
        const std::vector<Contact> contacts = newContacts(
            random, bullet, region, manifoldBody0.getWorldTransform(), threshold, pieces, coverage);
        const int partId0 = int(random.uniform(-1, 4)), index0 = int(random.uniform(-1, 100));
        const int partId1 = int(random.uniform(-1, 4)), index1 = int(random.uniform(-1, 100));

        std::vector<std::string> eventsByRun[2];
        int derivedCalls[2] = {0, 0};
        for (const bool withSink : {false, true}) {
            btPersistentManifold& manifold = withSink ? ours : bullet;
            gManifoldUnderTest = &manifold;
            gEvents.clear();
            CountingResult counting(&wrapper0, &wrapper1);
            btManifoldResult plain(&wrapper0, &wrapper1);
            btManifoldResult& result = derivedResult ? counting : plain;
            result.setPersistentManifold(&manifold);
            result.setShapeIdentifiersA(partId0, index0);
            result.setShapeIdentifiersB(partId1, index1);
            if (withSink)
                writeWithSink(result, contacts, reach, wrapper0, wrapper1, refresh, batched, coverage);
            else
                writeWithBullet(result, contacts, reach, wrapper0, wrapper1, refresh, coverage, threshold);
            eventsByRun[withSink] = gEvents;
            derivedCalls[withSink] = counting.calls;
        }
        const std::string where = "case seed " + std::to_string(seed) + ", step " + std::to_string(step);
        const std::string differs = difference(bullet, ours);
        ASSERT_EQ(differs, "") << where;
        ASSERT_EQ(eventsByRun[0], eventsByRun[1]) << where;
        ASSERT_EQ(derivedCalls[0], derivedCalls[1]) << where;

        // The solver's work on the kept points, the same in both, and the bodies' motion to the next step.
        for (int i = 0; i < bullet.getNumContacts(); ++i) {
            btManifoldPoint& point = bullet.getContactPoint(i);
            point.m_appliedImpulse = Scalar(random.uniform(0, 3));
            point.m_appliedImpulseLateral1 = Scalar(random.uniform(-2, 2));
            point.m_appliedImpulseLateral2 = Scalar(random.uniform(-2, 2));
            ours.getContactPoint(i).m_appliedImpulse = point.m_appliedImpulse;
            ours.getContactPoint(i).m_appliedImpulseLateral1 = point.m_appliedImpulseLateral1;
            ours.getContactPoint(i).m_appliedImpulseLateral2 = point.m_appliedImpulseLateral2;
        }
        body0.setWorldTransform(moved(random, body0.getWorldTransform(), threshold));
        body1.setWorldTransform(moved(random, body1.getWorldTransform(), threshold));
    }
}

TEST(ContactWriting, SameManifoldAndCallbacksAsBulletsAddContactPoint) {
    Coverage coverage;
    for (int i = 0; i < kCases; ++i) {
        runCase(std::uint64_t(i) + 1, coverage);
        if (HasFatalFailure()) return;
    }
    // Each path must have been taken often enough for the comparison to mean something.
    const std::pair<const char*, int> counts[] = {
        {"replaced", coverage.replaced},
        {"added", coverage.added},
        {"reduced (full manifold)", coverage.reduced},
        {"kept by friction anchor", coverage.anchorKept},
        {"rejected beyond the threshold", coverage.rejected},
        {"removed by the refresh", coverage.removedByRefresh},
        {"swapped manifolds", coverage.swapped},
        {"piece contacts", coverage.pieces},
        {"stiffness and damping", coverage.stiffness},
        {"custom combiners", coverage.customCombiners},
        {"custom material callbacks", coverage.customMaterial},
        {"shared normals", coverage.sharedNormals},
        {"plane contacts in one call", coverage.planeBatches},
    };
    for (const auto& [name, count] : counts) {
        EXPECT_GE(count, 200) << name;
        std::printf("%-32s %d\n", name, count);
    }
}

}  // namespace
}  // namespace analytic
