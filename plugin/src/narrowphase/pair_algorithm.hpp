// SPDX-License-Identifier: Zlib
// One collision algorithm class for every shape pair: it owns or shares the manifold, puts the pair in
// the kernel's order and lets the kernel report contacts. Kernels hold the geometry calls only.
#pragma once

#include <BulletCollision/BroadphaseCollision/btCollisionAlgorithm.h>
#include <BulletCollision/BroadphaseCollision/btDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionConfiguration.h>
#include <BulletCollision/CollisionDispatch/btCollisionCreateFunc.h>
#include <BulletCollision/CollisionDispatch/btCollisionDispatcher.h>
#include <BulletCollision/CollisionDispatch/btCollisionObjectWrapper.h>
#include <BulletCollision/CollisionDispatch/btManifoldResult.h>
#include <BulletCollision/NarrowPhaseCollision/btPersistentManifold.h>
#include <LinearMath/btPoolAllocator.h>

#include <concepts>
#include <new>

#include "narrowphase/contact_sink.hpp"

namespace analytic::narrowphase {

// A kernel that remembers something about its pair from one step to the next declares it as State;
// each algorithm (Bullet caches one per overlapping pair) keeps one, value-initialised, and passes it
// to collide as a fourth argument.
template <class Kernel>
concept StatefulKernel = requires {
    typename Kernel::State;
};

// A kernel that finds its pair's one contact exactly at every step declares
//   static constexpr bool recomputesEveryStep = true;
// and its algorithm does as Bullet's sphere-sphere, whose semantics users expect: it clears the
// manifold it owns before the kernel runs instead of refreshing it after (nothing older is worth
// keeping), and contacts reach only the closest-point distance threshold, not the breaking threshold.
template <class Kernel>
concept RecomputingKernel = requires {
    requires Kernel::recomputesEveryStep;
};

struct NoState {};
template <class Kernel> struct StateOf { using type = NoState; };
template <StatefulKernel Kernel> struct StateOf<Kernel> { using type = typename Kernel::State; };

// A Kernel provides
//   static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b, ContactSink&);
//   static btScalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b);
// for its shapes A and B in that order; swapped is set when Bullet hands the pair over as (B, A).
template <class Kernel> class PairAlgorithm final : public btCollisionAlgorithm {
public:
    PairAlgorithm(const btCollisionAlgorithmConstructionInfo& info, bool swapped)
        : btCollisionAlgorithm(info), manifold_(info.m_manifold), swapped_(swapped) {}

    ~PairAlgorithm() override {
        if (ownsManifold_) m_dispatcher->releaseManifold(manifold_);
    }

    void processCollision(const btCollisionObjectWrapper* body0, const btCollisionObjectWrapper* body1,
                          const btDispatcherInfo&, btManifoldResult* result) override {
        const btCollisionObjectWrapper& a = swapped_ ? *body1 : *body0;
        const btCollisionObjectWrapper& b = swapped_ ? *body0 : *body1;
        // Top-level pairs own a manifold made in the kernel's order; a mesh's triangles share the mesh's.
        if (!manifold_) {
            manifold_ = m_dispatcher->getNewManifold(a.getCollisionObject(), b.getCollisionObject());
            ownsManifold_ = true;
        }
        result->setPersistentManifold(manifold_);
        constexpr bool recomputes = RecomputingKernel<Kernel>;
        if (recomputes && ownsManifold_) manifold_->clearManifold();
        const btScalar closest = result->m_closestPointDistanceThreshold;
        const btScalar threshold = manifold_->getContactBreakingThreshold();
        ContactSink sink(*result, recomputes ? closest : threshold + closest, threshold);
        if constexpr (StatefulKernel<Kernel>)
            Kernel::collide(a, b, sink, state_);
        else
            Kernel::collide(a, b, sink);
        if (!recomputes && ownsManifold_) sink.refresh();
    }

    btScalar calculateTimeOfImpact(btCollisionObject* body0, btCollisionObject* body1,
                                   const btDispatcherInfo&, btManifoldResult*) override {
        return swapped_ ? Kernel::timeOfImpact(*body1, *body0) : Kernel::timeOfImpact(*body0, *body1);
    }

    void getAllContactManifolds(btManifoldArray& manifolds) override {
        if (ownsManifold_) manifolds.push_back(manifold_);
    }

private:
    btPersistentManifold* manifold_;
    bool ownsManifold_ = false;
    bool swapped_;
    [[no_unique_address]] typename StateOf<Kernel>::type state_{};
};

// Memory for an algorithm from the dispatcher's pool when it fits the pool's elements. Bullet's pool
// does not check sizes in release builds, so a larger algorithm would overwrite its neighbour;
// freeCollisionAlgorithm recognises memory from outside the pool and frees it with btAlignedFree.
inline void* allocateAlgorithm(btDispatcher& dispatcher, std::size_t size) {
    auto* collisionDispatcher = dynamic_cast<btCollisionDispatcher*>(&dispatcher);
    btPoolAllocator* pool =
        collisionDispatcher ? collisionDispatcher->getCollisionConfiguration()->getCollisionAlgorithmPool()
                            : nullptr;
    if (pool && std::size_t(pool->getElementSize()) >= size)
        return dispatcher.allocateCollisionAlgorithm(int(size));
    return btAlignedAlloc(size, 16);
}

// A kernel whose shape type is a slot other shapes share (Bullet's custom convex type) also provides
//   static bool accepts(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b);
// and pairs it does not accept get the fallback: the collision configuration's create function for the cell.
template <class Kernel>
concept SelectiveKernel = requires(const btCollisionObjectWrapper& wrapper) {
    { Kernel::accepts(wrapper, wrapper) } -> std::convertible_to<bool>;
};

template <class Kernel> class PairCreateFunction final : public btCollisionAlgorithmCreateFunc {
public:
    explicit PairCreateFunction(bool swapped, btCollisionAlgorithmCreateFunc* fallback = nullptr)
        : fallback_(fallback) {
        m_swapped = swapped;
    }

    btCollisionAlgorithm* CreateCollisionAlgorithm(btCollisionAlgorithmConstructionInfo& info,
                                                   const btCollisionObjectWrapper* body0,
                                                   const btCollisionObjectWrapper* body1) override {
        if constexpr (SelectiveKernel<Kernel>) {
            if (!(m_swapped ? Kernel::accepts(*body1, *body0) : Kernel::accepts(*body0, *body1)))
                return fallback_ ? fallback_->CreateCollisionAlgorithm(info, body0, body1) : nullptr;
        }
        void* memory = allocateAlgorithm(*info.m_dispatcher1, sizeof(PairAlgorithm<Kernel>));
        return new (memory) PairAlgorithm<Kernel>(info, m_swapped);
    }

private:
    btCollisionAlgorithmCreateFunc* fallback_;
};

}  // namespace analytic::narrowphase
