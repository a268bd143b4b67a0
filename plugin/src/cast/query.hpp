// SPDX-License-Identifier: Zlib
// What every query of the cast pipeline shares: its path (a segment, swept by a sphere of some radius;
// 0 for a ray), how much the walks grow the boxes they test for it, Bullet's callback protocol per
// object, and how a compound's children report through the user's callback. A query (ray_query.hpp,
// sphere_query.hpp) adds only its tests at the leaves: against each solid, plane and triangle, and its
// fallback to Bullet; the walks (the world's and a compound's trees, meshes, heightfields) are written
// once, for every query (docs/extending.md says how to add one).
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <type_traits>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/primitives.hpp"
#include "cast/dbvt_walk.hpp"

namespace analytic::cast {

// The segment from -> to, as the core's path (t is Bullet's hit fraction) and as Bullet's points.
struct Segment {
    RayPath<Scalar> ray;
    btVector3 from, to;
};

// A box as a ray's walk tests it: unchanged (the ray is a point moving along the segment).
struct NoGrowth {
    Aabb<Scalar> operator()(const Aabb<Scalar>& box) const { return box; }
    RayPathEntry pathOf(const SlabRay<Scalar>& ray) const { return {ray}; }
};

// A box as a sphere's walk tests it: grown by the radius on every side, the box of the box swept by
// the sphere (a frame where the sphere is a sphere: the world, a compound's, a placed heightfield's).
struct Growth {
    Scalar radius;
    Aabb<Scalar> operator()(const Aabb<Scalar>& box) const { return {box.min - radius, box.max + radius}; }
    GrownPath pathOf(const SlabRay<Scalar>& ray) const { return {ray, radius}; }
};

// btSingleRayCallback::process (and btSingleSweepCallback::process) for an object whose broadphase box
// the path meets: false once the closest hit is at the path's origin (nothing can be nearer), else
// cast() when wanted() (the callback's needsCollision, or a batch's filter).
template <class Callback, class Wanted, class Cast>
bool visitObject(const Callback& callback, Wanted wanted, Cast cast) {
    if (callback.m_closestHitFraction == Scalar(0)) return false;
    if (wanted()) cast();
    return true;
}

// Bullet's compound queries pass each child's hits to the user's callback through one of these
// (LocalInfoAdder2 for rays, LocalInfoAdder for sweeps): a hit without shape information of its own gets
// part -1 and the child's index, and the user's closest fraction is followed.
template <class Callback, class Result> class ChildCallback final : public Callback {
public:
    ChildCallback(Callback& user, int childIndex) : user_(user), childIndex_(childIndex) {
        this->m_closestHitFraction = user.m_closestHitFraction;
        if constexpr (std::is_same_v<Callback, btCollisionWorld::RayResultCallback>)
            this->m_flags = user.m_flags;
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override { return user_.needsCollision(proxy); }

    btScalar addSingleResult(Result& result, bool normalInWorldSpace) override {
        btCollisionWorld::LocalShapeInfo childInfo{-1, childIndex_};
        if (!result.m_localShapeInfo) result.m_localShapeInfo = &childInfo;
        const btScalar answer = user_.addSingleResult(result, normalInWorldSpace);
        this->m_closestHitFraction = user_.m_closestHitFraction;
        return answer;
    }

private:
    Callback& user_;
    int childIndex_;
};

}  // namespace analytic::cast
