// Contacts from our kernels into Bullet's persistent manifold, with the observable semantics of
// btManifoldResult::addContactPoint and btManifoldResult::refreshContactPoints (every field of every
// point, bit for bit, and Bullet's global callbacks; tests/narrowphase/contact_writing_test.cpp), without
// their per-point overheads: what depends only on the pair (breaking threshold, body order, combined
// materials, flags) is found once per pair, the manifold's point is written in place, and no
// out-of-line Bullet function is called per point except where Bullet's own work is needed (a full
// manifold's reduction, user callbacks). The one difference a user could see: the material combiners
// (gCalculateCombined*Callback) are called once per pair where Bullet calls them per point, with the
// same arguments. Results of a derived class, and pairs with a contact-added callback, go through
// Bullet's own addContactPoint.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionObject.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>

#include <cstring>
#include <limits>
#include <optional>
#include <typeinfo>

#include "analytic/adapters/bullet_math.hpp"

namespace analytic::narrowphase {

// The part ids and indices a btManifoldResult gives its contacts (setShapeIdentifiersA/B) are protected
// members; a pointer to a protected member may be formed through a derived class.
struct ShapeIdentifiers {
    int partId0, index0, partId1, index1;
};

class ShapeIdentifiersOf : btManifoldResult {
public:
    ShapeIdentifiersOf() = delete;

    static ShapeIdentifiers read(const btManifoldResult& result) {
        return {result.*(&ShapeIdentifiersOf::m_partId0), result.*(&ShapeIdentifiersOf::m_index0),
                result.*(&ShapeIdentifiersOf::m_partId1), result.*(&ShapeIdentifiersOf::m_index1)};
    }
};

// What Bullet's addContactPoint gives every point of a pair from the two objects: the combined
// coefficients through Bullet's (user-replaceable) global combiners, called with the result's objects in
// the result's order, and the flags.
struct PairMaterials {
    PairMaterials(const btCollisionObject& body0, const btCollisionObject& body1)
        : friction(gCalculateCombinedFrictionCallback(&body0, &body1)),
          restitution(gCalculateCombinedRestitutionCallback(&body0, &body1)),
          rollingFriction(gCalculateCombinedRollingFrictionCallback(&body0, &body1)),
          spinningFriction(gCalculateCombinedSpinningFrictionCallback(&body0, &body1)) {
        const int objectFlags = body0.getCollisionFlags() | body1.getCollisionFlags();
        if (objectFlags & btCollisionObject::CF_HAS_CONTACT_STIFFNESS_DAMPING) {
            damping = gCalculateCombinedContactDampingCallback(&body0, &body1);
            stiffness = gCalculateCombinedContactStiffnessCallback(&body0, &body1);
            pointFlags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
        }
        if (objectFlags & btCollisionObject::CF_HAS_FRICTION_ANCHOR)
            pointFlags |= BT_CONTACT_FLAG_FRICTION_ANCHOR;
    }

    btScalar friction, restitution, rollingFriction, spinningFriction;
    btScalar damping = 0, stiffness = 0;  // m_contactERP and m_contactCFM share their storage; 0 otherwise
    int pointFlags = 0;
};

// Bullet's library is built without fused multiply-adds; so that this arithmetic rounds as its own,
// the compiler must not fuse here either (it would with -march=native on a machine with FMA).
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")

// btTransform's point mappings as the writer needs them, with Bullet's results bit for bit: transform(x)
// for the points of one transform, and transform.invXform(x).
namespace exact_transform {

#ifdef BT_USE_DOUBLE_PRECISION
// In double, four lanes would fill two SSE2 registers and Bullet's scalar code is as short: it is used
// as it is.
class Forward {
public:
    explicit Forward(const btTransform& transform) : transform_(transform) {}
    btVector3 operator()(const btVector3& x) const { return transform_(x); }

private:
    const btTransform& transform_;
};

inline btVector3 inverse(const btTransform& transform, const btVector3& x) { return transform.invXform(x); }
#else
// In float, four lanes at a time (GCC's vector extension, one SSE2 register). Each component takes the
// same operations in the same order as btTransform's operator() (btVector3::dot3, then the origin) and
// invXform (minus the origin, then the dot products with the transposed basis), so the results are
// Bullet's bit for bit, in fewer instructions.
using Lanes = float __attribute__((vector_size(16)));

inline Lanes load(const btVector3& v) {
    Lanes lanes;
    std::memcpy(&lanes, static_cast<const btScalar*>(v), sizeof lanes);
    return lanes;
}

inline btVector3 store(Lanes lanes) { return {lanes[0], lanes[1], lanes[2]}; }

class Forward {
public:
    // The basis's columns gathered once from its rows.
    explicit Forward(const btTransform& transform) : origin_(load(transform.getOrigin())) {
        const btMatrix3x3& basis = transform.getBasis();
        const Lanes row0 = load(basis[0]), row1 = load(basis[1]), row2 = load(basis[2]);
        const Lanes xy01 = __builtin_shufflevector(row0, row1, 0, 4, 1, 5);
        const Lanes z01 = __builtin_shufflevector(row0, row1, 2, 6, 2, 6);
        column0_ = __builtin_shufflevector(xy01, row2, 0, 1, 4, 4);
        column1_ = __builtin_shufflevector(xy01, row2, 2, 3, 5, 5);
        column2_ = __builtin_shufflevector(z01, row2, 0, 1, 6, 6);
    }

    // Lane i: ((x0 basis[i][0] + x1 basis[i][1]) + x2 basis[i][2]) + origin[i].
    btVector3 operator()(const btVector3& x) const {
        return store(((column0_ * x[0] + column1_ * x[1]) + column2_ * x[2]) + origin_);
    }

private:
    Lanes origin_;
    Lanes column0_, column1_, column2_;  // lane i of column j is basis[i][j]
};

// Lane i: (basis[0][i] v0 + basis[1][i] v1) + basis[2][i] v2, with v = x - origin.
inline btVector3 inverse(const btTransform& transform, const btVector3& x) {
    const btMatrix3x3& basis = transform.getBasis();
    const Lanes v = load(x) - load(transform.getOrigin());
    return store((load(basis[0]) * v[0] + load(basis[1]) * v[1]) + load(basis[2]) * v[2]);
}
#endif

}  // namespace exact_transform

// Receives a kernel's contacts in Bullet's manifold convention: the point on B, the unit normal on B
// pointing toward A, and the signed distance (negative when the shapes overlap). Contacts farther
// apart than reach are dropped, as Bullet's own algorithms drop them.
class ContactSink {
public:
    ContactSink(btManifoldResult& result, btScalar reach)
        : ContactSink(result, reach, result.getPersistentManifold()->getContactBreakingThreshold()) {}

    // breakingThreshold: the manifold's getContactBreakingThreshold(), when the caller has it already.
    ContactSink(btManifoldResult& result, btScalar reach, btScalar breakingThreshold)
        : result_(result),
          manifold_(*result.getPersistentManifold()),
          body0_(*result.getBody0Internal()),
          body1_(*result.getBody1Internal()),
          swapped_(manifold_.getBody0() != &body0_),
          // Bullet stores points in the manifold's body order and maps them with the objects' (not the
          // wrappers') transforms.
          transform0_((swapped_ ? body1_ : body0_).getWorldTransform()),
          transform1_((swapped_ ? body0_ : body1_).getWorldTransform()),
          reach_(reach),
          breakingThreshold_(breakingThreshold) {
        // A result of a derived class (contactTest's, a user's) sees every point through its own
        // addContactPoint, as do contact-added callbacks; those pairs take Bullet's path.
        const bool customMaterial =
            gContactAddedCallback && ((body0_.getCollisionFlags() | body1_.getCollisionFlags()) &
                                      btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK);
        direct_ = typeid(result) == typeid(btManifoldResult) && !customMaterial;
    }

    btScalar reach() const { return reach_; }

    btScalar breakingThreshold() const { return breakingThreshold_; }

    // The manifold the contacts go to, with the points earlier steps left in it.
    const btPersistentManifold& manifold() const { return manifold_; }

    void add(const Vec3<btScalar>& normalOnB, const Vec3<btScalar>& pointOnB, btScalar distance) {
        if (!(distance <= reach_)) return;
        if (direct_)
            write(toBullet(normalOnB), toBullet(pointOnB), distance);
        else
            result_.addContactPoint(toBullet(normalOnB), toBullet(pointOnB), distance);
    }

    // A contact with one piece of B (a mesh's triangle), described by pieceOfB: its part id and index
    // go with the contact, and contact-added callbacks see pieceOfB as B's wrapper, as they do with
    // Bullet's per-triangle dispatch (btAdjustInternalEdgeContacts needs the triangle there).
    void add(const Vec3<btScalar>& normalOnB, const Vec3<btScalar>& pointOnB, btScalar distance,
             const btCollisionObjectWrapper& pieceOfB) {
        const bool pieceIsBody0 = &body0_ == pieceOfB.getCollisionObject();
        if (pieceIsBody0)
            result_.setShapeIdentifiersA(pieceOfB.m_partId, pieceOfB.m_index);
        else
            result_.setShapeIdentifiersB(pieceOfB.m_partId, pieceOfB.m_index);
        if (direct_) {  // nothing on the direct path looks at the wrappers beyond their objects
            add(normalOnB, pointOnB, distance);
            return;
        }
        const btCollisionObjectWrapper* whole =
            pieceIsBody0 ? result_.getBody0Wrap() : result_.getBody1Wrap();
        if (pieceIsBody0)
            result_.setBody0Wrap(&pieceOfB);
        else
            result_.setBody1Wrap(&pieceOfB);
        add(normalOnB, pointOnB, distance);
        if (pieceIsBody0)
            result_.setBody0Wrap(whole);
        else
            result_.setBody1Wrap(whole);
    }

    // btManifoldResult::refreshContactPoints: every point's world positions and distance again from the
    // objects' transforms, one more step of life; points beyond the breaking threshold along the normal
    // or drifted farther than it sideways are removed (last first, as Bullet), the others reported to
    // gContactProcessedCallback.
    void refresh() {
        btPersistentManifold& manifold = manifold_;
        const int count = manifold.getNumContacts();
        if (count == 0) return;
        const exact_transform::Forward transform0(transform0_), transform1(transform1_);
        for (int i = count - 1; i >= 0; --i) {
            btManifoldPoint& point = manifold.getContactPoint(i);
            point.m_positionWorldOnA = transform0(point.m_localPointA);
            point.m_positionWorldOnB = transform1(point.m_localPointB);
            point.m_distance1 =
                (point.m_positionWorldOnA - point.m_positionWorldOnB).dot(point.m_normalWorldOnB);
            ++point.m_lifeTime;
        }
        const btScalar threshold = breakingThreshold_;
        for (int i = count - 1; i >= 0; --i) {
            btManifoldPoint& point = manifold.getContactPoint(i);
            if (!(point.m_distance1 <= threshold)) {  // NaN too, as Bullet's validContactDistance
                manifold.removeContactPoint(i);
                continue;
            }
            const btVector3 projected = point.m_positionWorldOnA - point.m_normalWorldOnB * point.m_distance1;
            const btVector3 drift = point.m_positionWorldOnB - projected;
            if (drift.dot(drift) > threshold * threshold)
                manifold.removeContactPoint(i);
            else if (gContactProcessedCallback)
                gContactProcessedCallback(point, const_cast<btCollisionObject*>(manifold.getBody0()),
                                          const_cast<btCollisionObject*>(manifold.getBody1()));
        }
    }

private:
    // btManifoldResult::addContactPoint for a result of that very class and no contact-added callback.
    void write(const btVector3& normalOnB, const btVector3& pointOnB, btScalar distance) {
        if (distance > breakingThreshold_) return;  // as Bullet: a NaN distance is not rejected here
        btPersistentManifold& manifold = manifold_;
        const int count = manifold.getNumContacts();
        const btVector3 pointOnA = pointOnB + normalOnB * distance;
        const btVector3 localA = exact_transform::inverse(transform0_, pointOnA);
        if (!materials_) materials_.emplace(body0_, body1_);
        if (!(normalOnB == lateralNormal_)) {
            btPlaneSpace1(normalOnB, lateral1_, lateral2_);
            lateralNormal_ = normalOnB;
        }
        const FreshPoint fresh{localA, pointOnA, pointOnB, normalOnB, distance};
        const int match = nearestPoint(localA);
        if (match >= 0) {
            replace(manifold.getContactPoint(match), fresh);
        } else if (count < MANIFOLD_CACHE_SIZE) {
            manifold.setNumContacts(count + 1);
            btManifoldPoint& point = manifold.getContactPoint(count);
            fill(point, fresh);
            point.m_userPersistentData = nullptr;
            point.m_appliedImpulse = 0;
            point.m_prevRHS = 0;
            point.m_appliedImpulseLateral1 = 0;
            point.m_appliedImpulseLateral2 = 0;
            point.m_lifeTime = 0;
        } else {
            // A full manifold: Bullet's own reduction picks the point to drop and ends its user data.
            btManifoldPoint point;  // the warm-starting fields zero, the others filled
            fill(point, fresh);
            manifold.addManifoldPoint(point);
        }
        if (gContactStartedCallback && count == 0) gContactStartedCallback(&manifold);
    }

    // A new point as addContactPoint finds it, before the manifold decides where it goes.
    struct FreshPoint {
        const btVector3& localA;
        const btVector3& worldA;
        const btVector3& worldB;
        const btVector3& normal;
        btScalar distance;
    };

    // btPersistentManifold::getCacheEntry: the point whose local point on body0 is nearest, closer than
    // the breaking threshold; -1 if none.
    int nearestPoint(const btVector3& localA) const {
        btScalar nearest = breakingThreshold_ * breakingThreshold_;
        int index = -1;
        for (int i = 0; i < manifold_.getNumContacts(); ++i) {
            const btVector3 difference = manifold_.getContactPoint(i).m_localPointA - localA;
            const btScalar squared = difference.dot(difference);
            if (squared < nearest) {
                nearest = squared;
                index = i;
            }
        }
        return index;
    }

    // btPersistentManifold::replaceContactPoint: the new point takes the old one's place and keeps its
    // warm-starting data (impulses, previous right-hand side, lifetime, user data); with friction
    // anchors, an old point whose friction stayed inside the Coulomb cone is kept whole instead.
    void replace(btManifoldPoint& old, const FreshPoint& fresh) const {
        if (materials_->pointFlags & BT_CONTACT_FLAG_FRICTION_ANCHOR) {
            const btScalar lateral = old.m_appliedImpulseLateral1 * old.m_appliedImpulseLateral1 +
                                     old.m_appliedImpulseLateral2 * old.m_appliedImpulseLateral2;
            const btScalar cone = old.m_combinedFriction * old.m_appliedImpulse;
            if (!(lateral > cone * cone)) return;
        }
        fill(old, fresh);
    }

    // Every field Bullet's addContactPoint sets on a new point, except the warm-starting ones.
    void fill(btManifoldPoint& point, const FreshPoint& fresh) const {
        const ShapeIdentifiers ids = ShapeIdentifiersOf::read(result_);
        const PairMaterials& materials = *materials_;
        point.m_localPointA = fresh.localA;
        point.m_localPointB = exact_transform::inverse(transform1_, fresh.worldB);
        point.m_positionWorldOnB = fresh.worldB;
        point.m_positionWorldOnA = fresh.worldA;
        point.m_normalWorldOnB = fresh.normal;
        point.m_distance1 = fresh.distance;
        point.m_combinedFriction = materials.friction;
        point.m_combinedRollingFriction = materials.rollingFriction;
        point.m_combinedSpinningFriction = materials.spinningFriction;
        point.m_combinedRestitution = materials.restitution;
        point.m_partId0 = swapped_ ? ids.partId1 : ids.partId0;
        point.m_partId1 = swapped_ ? ids.partId0 : ids.partId1;
        point.m_index0 = swapped_ ? ids.index1 : ids.index0;
        point.m_index1 = swapped_ ? ids.index0 : ids.index1;
        point.m_contactPointFlags = materials.pointFlags;
        point.m_contactMotion1 = 0;
        point.m_contactMotion2 = 0;
        point.m_combinedContactStiffness1 = materials.stiffness;
        point.m_combinedContactDamping1 = materials.damping;
        point.m_frictionCFM = 0;
        point.m_lateralFrictionDir1 = lateral1_;
        point.m_lateralFrictionDir2 = lateral2_;
    }

    btManifoldResult& result_;
    btPersistentManifold& manifold_;
    const btCollisionObject& body0_;  // the result's objects, in the result's order
    const btCollisionObject& body1_;
    bool swapped_;                   // the manifold's body0 is the result's body1
    const btTransform& transform0_;  // the world transforms of the manifold's body0 and body1
    const btTransform& transform1_;
    btScalar reach_;
    btScalar breakingThreshold_;
    bool direct_;
    std::optional<PairMaterials> materials_;  // combined when the first point is written
    // The normal lateral1_, lateral2_ were made for (btPlaneSpace1); NaN matches no normal.
    btVector3 lateralNormal_{std::numeric_limits<btScalar>::quiet_NaN(), 0, 0};
    btVector3 lateral1_{0, 0, 0};  // btPlaneSpace1 sets x, y, z; w stays 0 as in Bullet's new point
    btVector3 lateral2_{0, 0, 0};
};

#pragma GCC pop_options

}  // namespace analytic::narrowphase
