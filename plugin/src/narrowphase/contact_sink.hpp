// SPDX-License-Identifier: Zlib
// Contacts from our kernels into Bullet's persistent manifold, with the observable semantics of
// btManifoldResult::addContactPoint and btManifoldResult::refreshContactPoints (every field of every
// point, bit for bit, and Bullet's global callbacks; tests/narrowphase/contact_writing_test.cpp), without
// their per-point overheads: what depends only on the pair (breaking threshold, body order, and the
// fields every new point shares: combined materials, flags, part ids, zero solver data) is prepared once
// per pair and copied into each point in one block, the lateral friction directions are made once per
// normal, a plane's contacts are written in one call, the manifold's point is written in place, and no
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

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <typeinfo>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/plane_tests.hpp"

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

// Bullet's library is built without fused multiply-adds; so that this arithmetic rounds as its own,
// the compiler must not fuse here either, which only a target with FMA instructions could (-march=native
// on such a machine). The pragma is set only then: GCC does not inline functions across a change of
// optimisation options, and the writer is worth inlining into the kernels. Within the writer, the
// per-point functions are always inlined: safe under the pragma too, as GCC keeps the options of the
// function they are inlined into, which is the writer's own (always_inline across the pragma's border
// would fuse).
#if defined(__FMA__) || defined(__FMA4__) || !(defined(__x86_64__) || defined(__i386__))
#define ANALYTIC_CONTACT_SINK_UNFUSED
#pragma GCC push_options
#pragma GCC optimize("fp-contract=off")
#endif

// Bullet's vector arithmetic as the writer needs it, with Bullet's results bit for bit: Lanes holds a
// btVector3's x, y, z, w (w is 0 in every vector Bullet makes).
namespace exact {

#ifdef BT_USE_DOUBLE_PRECISION
// In double, four lanes would fill two SSE2 registers (and a 32-byte vector argument changes the ABI
// without AVX); Bullet's scalar code is as short and is used as it is.
using Lanes = btVector3;

inline Lanes load(const btVector3& v) { return v; }

inline Lanes load(const Vec3<btScalar>& v) { return {v.x, v.y, v.z}; }

inline Lanes withZeroW(const Lanes& lanes) { return lanes; }  // btVector3's operations set w = 0

inline void store(btVector3& target, const Lanes& lanes) { target = lanes; }

inline btVector3 toVector(const Lanes& lanes) { return lanes; }

inline btScalar dot(const Lanes& a, const Lanes& b) { return a.dot(b); }

class Forward {
public:
    explicit Forward(const btTransform& transform) : transform_(transform) {}
    [[gnu::always_inline]] Lanes operator()(const Lanes& x) const { return transform_(x); }

private:
    const btTransform& transform_;
};

// btTransform::invXform (the transposed basis times x - origin), spelt out so that it is inlined.
class Inverse {
public:
    explicit Inverse(const btTransform& transform) : transform_(transform) {}
    [[gnu::always_inline]] Lanes operator()(const Lanes& x) const {
        const btVector3 v = x - transform_.getOrigin();
        const btMatrix3x3& basis = transform_.getBasis();
        return {basis.tdotx(v), basis.tdoty(v), basis.tdotz(v)};
    }

private:
    const btTransform& transform_;
};
#else
// In float, four lanes at a time (GCC's vector extension, one SSE2 register). Each lane takes the same
// operations in the same order as Bullet's scalar btVector3 and btTransform code, so the results are
// Bullet's, in fewer instructions.
using Lanes = float __attribute__((vector_size(16)));

inline Lanes load(const btVector3& v) {
    Lanes lanes;
    std::memcpy(&lanes, static_cast<const btScalar*>(v), sizeof lanes);
    return lanes;
}

inline Lanes load(const Vec3<btScalar>& v) { return Lanes{v.x, v.y, v.z, 0}; }

// Lane 3 cleared, as btVector3's constructor sets w, for lanes that may hold another value there.
inline Lanes withZeroW(Lanes lanes) {
    using Words = std::int32_t __attribute__((vector_size(16)));
    return Lanes(Words(lanes) & Words{-1, -1, -1, 0});
}

inline void store(btVector3& target, Lanes lanes) {
    std::memcpy(static_cast<btScalar*>(target), &lanes, sizeof lanes);
}

inline btVector3 toVector(Lanes lanes) { return {lanes[0], lanes[1], lanes[2]}; }

// btVector3::dot: (x x' + y y') + z z'.
inline btScalar dot(Lanes a, Lanes b) {
    const Lanes products = a * b;
    return (products[0] + products[1]) + products[2];
}

// btTransform's operator(): lane i is ((x0 basis[i][0] + x1 basis[i][1]) + x2 basis[i][2]) + origin[i]
// (btVector3::dot3, then the origin).
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

    [[gnu::always_inline]] Lanes operator()(Lanes x) const {
        return ((column0_ * x[0] + column1_ * x[1]) + column2_ * x[2]) + origin_;
    }

private:
    Lanes origin_;
    Lanes column0_, column1_, column2_;  // lane i of column j is basis[i][j]
};

// btTransform::invXform, with the basis and origin loaded once: lane i is
// (basis[0][i] v0 + basis[1][i] v1) + basis[2][i] v2, with v = x - origin.
class Inverse {
public:
    explicit Inverse(const btTransform& transform)
        : origin_(load(transform.getOrigin())),
          row0_(load(transform.getBasis()[0])),
          row1_(load(transform.getBasis()[1])),
          row2_(load(transform.getBasis()[2])) {}

    [[gnu::always_inline]] Lanes operator()(Lanes x) const {
        const Lanes v = x - origin_;
        return (row0_ * v[0] + row1_ * v[1]) + row2_ * v[2];
    }

private:
    Lanes origin_;
    Lanes row0_, row1_, row2_;
};
#endif

}  // namespace exact

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
        addAll(normalOnB, 1, [&](int) { return Contact{pointOnB, distance}; });
    }

    // Contacts with a plane B, all along its normal: the points on the plane are the points on B, and
    // the distances the depths negated.
    void addPlaneContacts(const Vec3<btScalar>& normal, std::span<const PlaneContactPoint<btScalar>> points) {
        addAll(normal, int(points.size()), [&](int i) {
            return Contact{points[std::size_t(i)].onPlane, -points[std::size_t(i)].depth};
        });
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
            if (prepared_) takeIdentifiers(*prepared_);
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
        const exact::Forward transform0(transform0_), transform1(transform1_);
        for (int i = count - 1; i >= 0; --i) {
            btManifoldPoint& point = manifold.getContactPoint(i);
            const exact::Lanes onA = transform0(exact::load(point.m_localPointA));
            const exact::Lanes onB = transform1(exact::load(point.m_localPointB));
            exact::store(point.m_positionWorldOnA, exact::withZeroW(onA));
            exact::store(point.m_positionWorldOnB, exact::withZeroW(onB));
            point.m_distance1 = exact::dot(onA - onB, exact::load(point.m_normalWorldOnB));
            ++point.m_lifeTime;
        }
        const btScalar threshold = breakingThreshold_;
        for (int i = count - 1; i >= 0; --i) {
            btManifoldPoint& point = manifold.getContactPoint(i);
            if (!(point.m_distance1 <= threshold)) {  // NaN too, as Bullet's validContactDistance
                manifold.removeContactPoint(i);
                continue;
            }
            const exact::Lanes projected = exact::load(point.m_positionWorldOnA) -
                                           exact::load(point.m_normalWorldOnB) * point.m_distance1;
            const exact::Lanes drift = exact::load(point.m_positionWorldOnB) - projected;
            if (exact::dot(drift, drift) > threshold * threshold)
                manifold.removeContactPoint(i);
            else if (gContactProcessedCallback)
                gContactProcessedCallback(point, const_cast<btCollisionObject*>(manifold.getBody0()),
                                          const_cast<btCollisionObject*>(manifold.getBody1()));
        }
    }

private:
    using Lanes = exact::Lanes;

    struct Contact {
        const Vec3<btScalar>& pointOnB;
        btScalar distance;
    };

    // The contacts contactAt(i), i < count, all along normalOnB, each as addContactPoint would add it;
    // what depends only on the normal and the transforms is found once.
    template <class ContactAt> void addAll(const Vec3<btScalar>& normalOnB, int count, ContactAt contactAt) {
        if (!direct_) {
            for (int i = 0; i < count; ++i) {
                const Contact contact = contactAt(i);
                if (contact.distance <= reach_)
                    result_.addContactPoint(toBullet(normalOnB), toBullet(contact.pointOnB),
                                            contact.distance);
            }
            return;
        }
        const Lanes normal = exact::load(normalOnB);
        const exact::Inverse toLocal0(transform0_), toLocal1(transform1_);
        for (int i = 0; i < count; ++i) {
            const Contact contact = contactAt(i);
            // Beyond reach the contact is dropped, beyond the breaking threshold addContactPoint rejects it
            // (as Bullet: a NaN distance passes that second test, but not the first).
            if (contact.distance <= reach_ && !(contact.distance > breakingThreshold_))
                write(normal, exact::load(contact.pointOnB), contact.distance, toLocal0, toLocal1);
        }
    }

    // btManifoldResult::addContactPoint past its threshold test, for a result of that very class and no
    // contact-added callback. normalOnB and pointOnB come with w = 0.
    [[gnu::always_inline]] void write(Lanes normalOnB, Lanes pointOnB, btScalar distance,
                                      const exact::Inverse& toLocal0, const exact::Inverse& toLocal1) {
        btPersistentManifold& manifold = manifold_;
        const int count = manifold.getNumContacts();
        const Lanes pointOnA = pointOnB + normalOnB * distance;
        const FreshPoint fresh{toLocal0(pointOnA), toLocal1(pointOnB), pointOnA,
                               pointOnB,           normalOnB,          distance};
        const btManifoldPoint& prepared = preparedFor(normalOnB);
        const int match = nearestPoint(fresh.localA);
        if (match >= 0) {
            replace(manifold.getContactPoint(match), prepared, fresh);
        } else if (count < MANIFOLD_CACHE_SIZE) {
            manifold.setNumContacts(count + 1);
            fill(manifold.getContactPoint(count), prepared, fresh);
        } else {
            addToFullManifold(prepared, fresh);
        }
        if (gContactStartedCallback && count == 0) gContactStartedCallback(&manifold);
    }

    // A new point as addContactPoint finds it, before the manifold decides where it goes.
    struct FreshPoint {
        Lanes localA, localB, worldA, worldB, normal;
        btScalar distance;
    };

    // The fields addContactPoint gives every new point of the pair, prepared once: the combined
    // materials through Bullet's (user-replaceable) global combiners, called with the result's objects in
    // the result's order; the flags; the result's part ids and indices; zero warm-starting data; and the
    // lateral friction directions (btPlaneSpace1) of the last normal, made again when the normal changes
    // (compared bit for bit).
    [[gnu::always_inline]] const btManifoldPoint& preparedFor(Lanes normal) {
        if (!prepared_)
            prepare();
        else if (std::memcmp(&normal, &lateralNormal_, 3 * sizeof(btScalar)) == 0)
            return *prepared_;
        lateralNormal_ = normal;
        btPlaneSpace1(exact::toVector(normal), prepared_->m_lateralFrictionDir1,
                      prepared_->m_lateralFrictionDir2);
        return *prepared_;
    }

    [[gnu::noinline]] void prepare() {
        // Zero warm-starting data and flags; only the fields from m_distance1 on are copied from here.
        btManifoldPoint& point = prepared_.emplace();
        point.m_distance1 = 0;
        point.m_lateralFrictionDir1 = point.m_lateralFrictionDir2 = btVector3(0, 0, 0);
        point.m_combinedFriction = gCalculateCombinedFrictionCallback(&body0_, &body1_);
        point.m_combinedRestitution = gCalculateCombinedRestitutionCallback(&body0_, &body1_);
        point.m_combinedRollingFriction = gCalculateCombinedRollingFrictionCallback(&body0_, &body1_);
        point.m_combinedSpinningFriction = gCalculateCombinedSpinningFrictionCallback(&body0_, &body1_);
        const int objectFlags = body0_.getCollisionFlags() | body1_.getCollisionFlags();
        if (objectFlags & btCollisionObject::CF_HAS_CONTACT_STIFFNESS_DAMPING) {
            point.m_combinedContactDamping1 = gCalculateCombinedContactDampingCallback(&body0_, &body1_);
            point.m_combinedContactStiffness1 = gCalculateCombinedContactStiffnessCallback(&body0_, &body1_);
            point.m_contactPointFlags |= BT_CONTACT_FLAG_CONTACT_STIFFNESS_DAMPING;
        }
        if (objectFlags & btCollisionObject::CF_HAS_FRICTION_ANCHOR)
            point.m_contactPointFlags |= BT_CONTACT_FLAG_FRICTION_ANCHOR;
        takeIdentifiers(point);
    }

    // The result's part ids and indices, in the manifold's body order.
    void takeIdentifiers(btManifoldPoint& point) const {
        const ShapeIdentifiers ids = ShapeIdentifiersOf::read(result_);
        point.m_partId0 = swapped_ ? ids.partId1 : ids.partId0;
        point.m_partId1 = swapped_ ? ids.partId0 : ids.partId1;
        point.m_index0 = swapped_ ? ids.index1 : ids.index0;
        point.m_index1 = swapped_ ? ids.index0 : ids.index1;
    }

    // btPersistentManifold::getCacheEntry: the point whose local point on body0 is nearest, closer than
    // the breaking threshold; -1 if none.
    [[gnu::always_inline]] int nearestPoint(Lanes localA) const {
        btScalar nearest = breakingThreshold_ * breakingThreshold_;
        int index = -1;
        for (int i = 0; i < manifold_.getNumContacts(); ++i) {
            const Lanes difference = exact::load(manifold_.getContactPoint(i).m_localPointA) - localA;
            const btScalar squared = exact::dot(difference, difference);
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
    [[gnu::always_inline]] void replace(btManifoldPoint& old, const btManifoldPoint& prepared,
                                        const FreshPoint& fresh) const {
        if (prepared.m_contactPointFlags & BT_CONTACT_FLAG_FRICTION_ANCHOR) {
            const btScalar lateral = old.m_appliedImpulseLateral1 * old.m_appliedImpulseLateral1 +
                                     old.m_appliedImpulseLateral2 * old.m_appliedImpulseLateral2;
            const btScalar cone = old.m_combinedFriction * old.m_appliedImpulse;
            if (!(lateral > cone * cone)) return;
        }
        void* const userPersistentData = old.m_userPersistentData;
        const btScalar appliedImpulse = old.m_appliedImpulse, prevRHS = old.m_prevRHS;
        const btScalar lateral1 = old.m_appliedImpulseLateral1, lateral2 = old.m_appliedImpulseLateral2;
        const int lifeTime = old.m_lifeTime;
        fill(old, prepared, fresh);
        old.m_userPersistentData = userPersistentData;
        old.m_appliedImpulse = appliedImpulse;
        old.m_prevRHS = prevRHS;
        old.m_appliedImpulseLateral1 = lateral1;
        old.m_appliedImpulseLateral2 = lateral2;
        old.m_lifeTime = lifeTime;
    }

    // A full manifold: Bullet's own reduction picks the point to drop and ends its user data.
    [[gnu::noinline]] void addToFullManifold(const btManifoldPoint& prepared, const FreshPoint& fresh) const {
        btManifoldPoint point;
        fill(point, prepared, fresh);
        manifold_.addManifoldPoint(point);
    }

    // Every field of a new point as Bullet's addContactPoint makes it: the prepared fields (from
    // m_distance1 on: one block copy), then the point's own.
    [[gnu::always_inline]] void fill(btManifoldPoint& point, const btManifoldPoint& prepared,
                                     const FreshPoint& fresh) const {
        constexpr std::size_t preparedFrom = offsetof(btManifoldPoint, m_distance1);
        std::memcpy(reinterpret_cast<char*>(&point) + preparedFrom,
                    reinterpret_cast<const char*>(&prepared) + preparedFrom, sizeof point - preparedFrom);
        exact::store(point.m_localPointA, exact::withZeroW(fresh.localA));
        exact::store(point.m_localPointB, exact::withZeroW(fresh.localB));
        exact::store(point.m_positionWorldOnB, fresh.worldB);
        exact::store(point.m_positionWorldOnA, exact::withZeroW(fresh.worldA));
        exact::store(point.m_normalWorldOnB, fresh.normal);
        point.m_distance1 = fresh.distance;
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
    std::optional<btManifoldPoint> prepared_;  // made when the first point is written
    Lanes lateralNormal_{};                    // the normal of prepared_'s lateral friction directions
};

#ifdef ANALYTIC_CONTACT_SINK_UNFUSED
#pragma GCC pop_options
#undef ANALYTIC_CONTACT_SINK_UNFUSED
#endif

}  // namespace analytic::narrowphase
