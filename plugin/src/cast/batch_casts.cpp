// SPDX-License-Identifier: Zlib
#include "cast/batch_casts.hpp"

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <algorithm>
#include <cmath>
#include <thread>
#include <vector>

#include "cast/placed_shape.hpp"
#include "cast/ray_query.hpp"
#include "cast/sphere_query.hpp"
#include "cast/worker_pool.hpp"

namespace analytic {
namespace {

// A batch query's filter (Bullet's default needsCollision with the query's group and mask) and shooter:
// Query is a Ray or a Sweep, Callback Bullet's callback for it.
template <class Callback, class Query> class BatchFilter : public Callback {
public:
    explicit BatchFilter(const Query& query) : query_(query) {
        this->m_collisionFilterGroup = query.group;
        this->m_collisionFilterMask = query.mask;
    }

    bool needsCollision(btBroadphaseProxy* proxy) const override {
        return accepts(static_cast<const btCollisionObject*>(proxy->m_clientObject),
                       proxy->m_collisionFilterGroup, proxy->m_collisionFilterMask);
    }

    // Bullet's default needsCollision with the query's group and mask, and not the shooter.
    bool accepts(const btCollisionObject* object, int objectGroup, int objectMask) const {
        return object != query_.ignore && (objectGroup & this->m_collisionFilterMask) != 0 &&
               (this->m_collisionFilterGroup & objectMask) != 0;
    }

protected:
    const Query& query_;
};

// A batch ray's filter and its gate (below).
class FilteredCallback : public BatchFilter<btCollisionWorld::RayResultCallback, Ray> {
public:
    using BatchFilter::BatchFilter;

    // The object about to be cast (an item the walk reached, with its gate box: rayBoxOf). Its hits count
    // only where the segment meets that box before the closest hit found so far, as rayTest tests it
    // before casting; tested at the object's first hit rather than before its cast (most objects the
    // tree reaches give none, and the test cost as much as their casts), with the same answer.
    void reach(const Aabb<Scalar>& gate, const SlabRay<Scalar>& slab) {
        gate_ = &gate;
        slab_ = &slab;
        gateFraction_ = m_closestHitFraction;
        gateState_ = GateState::Untested;
    }

protected:
    bool passesGate() {
        if (gateState_ == GateState::Untested)
            gateState_ =
                rayOverlapsAabb(*slab_, gateFraction_, *gate_) ? GateState::Passed : GateState::Failed;
        return gateState_ == GateState::Passed;
    }

    // The hit as ClosestRayResultCallback records it.
    RayHit hitOf(const btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) const {
        RayHit hit;
        hit.object = result.m_collisionObject;
        hit.fraction = result.m_hitFraction;
        hit.normal = normalInWorldSpace
                         ? result.m_hitNormalLocal
                         : result.m_collisionObject->getWorldTransform().getBasis() * result.m_hitNormalLocal;
        hit.point.setInterpolate3(query_.from, query_.to, result.m_hitFraction);
        if (result.m_localShapeInfo) {
            hit.partId = result.m_localShapeInfo->m_shapePart;
            hit.index = result.m_localShapeInfo->m_triangleIndex;
        }
        return hit;
    }

private:
    enum class GateState : unsigned char { Untested, Passed, Failed };
    const Aabb<Scalar>* gate_ = nullptr;
    const SlabRay<Scalar>* slab_ = nullptr;
    Scalar gateFraction_ = 1;
    GateState gateState_ = GateState::Passed;
};

class ClosestHitCallback final : public FilteredCallback {
public:
    ClosestHitCallback(const Ray& ray, RayHit& hit) : FilteredCallback(ray), hit_(hit) { hit_ = RayHit{}; }

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        if (!passesGate()) return m_closestHitFraction;
        hit_ = hitOf(result, normalInWorldSpace);
        m_closestHitFraction = result.m_hitFraction;
        return result.m_hitFraction;
    }

private:
    RayHit& hit_;
};

class AllHitsCallback final : public FilteredCallback {
public:
    AllHitsCallback(const Ray& ray, std::vector<RayHit>& hits) : FilteredCallback(ray), hits_(hits) {}

    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        if (!passesGate()) return m_closestHitFraction;
        hits_.push_back(hitOf(result, normalInWorldSpace));
        return m_closestHitFraction;
    }

private:
    std::vector<RayHit>& hits_;
};

void castBatchRay(const cast::RayScene& scene, const Ray& ray, FilteredCallback& callback) {
    const cast::Segment segment{segmentRay(toGlm(ray.from), toGlm(ray.to)), ray.from, ray.to};
    if (!isValidRay(segment.ray)) return;  // a ray of length zero or with a non-finite end meets nothing
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    const auto visit = [&](const cast::RayScene::Item& item) {
        return cast::visitObject(
            callback, [&] { return callback.accepts(item.object, item.group, item.mask); },
            [&] {
                // The tree's boxes are in float, grown for the batch's farthest ray: rayTest's own test of
                // the shape's box decides whether the object's hits count (the same objects, the same hits).
                callback.reach(item.gate, slab);
                cast::castAgainstTarget(cast::RayQuery{segment, callback}, *item.object, item.target);
            });
    };
    if (!scene.walks(segment.ray))
        return scene.walkEvery([&](const cast::RayScene::Item& item) {
            // Without the tree's boxes, the gate culls before the cast too.
            return !rayOverlapsAabb(slab, callback.m_closestHitFraction, item.gate) || visit(item);
        });
    // The walk's lanes from the slab's reciprocal, computed once (lanesOf's values).
    scene.walk(cast::SlabRayLanes<float>(slab.origin, slab.inverseDirection), callback, visit);
}

// A batch sweep's filter.
class SweepFilter : public BatchFilter<btCollisionWorld::ConvexResultCallback, Sweep> {
public:
    using BatchFilter::BatchFilter;

protected:
    static SweepHit hitOf(const btCollisionWorld::LocalConvexResult& result) {
        SweepHit hit;
        hit.object = result.m_hitCollisionObject;
        hit.fraction = result.m_hitFraction;
        hit.normal = result.m_hitNormalLocal;  // the sweeps report it in world space
        hit.point = result.m_hitPointLocal;
        if (result.m_localShapeInfo) {
            hit.partId = result.m_localShapeInfo->m_shapePart;
            hit.index = result.m_localShapeInfo->m_triangleIndex;
        }
        return hit;
    }
};

class ClosestSweepCallback final : public SweepFilter {
public:
    ClosestSweepCallback(const Sweep& sweep, SweepHit& hit) : SweepFilter(sweep), hit_(hit) {
        hit_ = SweepHit{};
    }

    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
        hit_ = hitOf(result);
        m_closestHitFraction = result.m_hitFraction;
        return result.m_hitFraction;
    }

private:
    SweepHit& hit_;
};

class AllSweepsCallback final : public SweepFilter {
public:
    AllSweepsCallback(const Sweep& sweep, std::vector<SweepHit>& hits) : SweepFilter(sweep), hits_(hits) {}

    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
        hits_.push_back(hitOf(result));
        return m_closestHitFraction;
    }

private:
    std::vector<SweepHit>& hits_;
};

// A sphere's path through the scene: the static planes (half-spaces) first, then the tree's walk with
// its boxes grown by the radius; each object wanted(item) accepts is swept against when the path meets its
// gate (the snapshot's box grown by the radius; for a plane, Bullet's box of it grown).
template <class Wanted> void sweepThrough(const cast::RayScene& scene, const cast::Segment& segment,
                                          Scalar radius, btCollisionWorld::ConvexResultCallback& callback,
                                          Wanted wanted) {
    if (!isFinite(segment.ray.origin) || !isFinite(segment.ray.direction)) return;
    const cast::SphereQuery query{segment, radius, callback};
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    const auto visit = [&](const cast::RayScene::Item& item) {
        return cast::visitObject(
            callback, [&] { return wanted(item); },
            [&] {
                // A plane's snapshot box is where rays can hit it; its half-space's is Bullet's box of it, as
                // the world's walk tests it.
                const Aabb<Scalar> gate = std::holds_alternative<cast::PlaneTarget>(item.target)
                                              ? query.gateOf(*item.object)
                                              : query.grownGate(item.gate);
                if (!rayOverlapsAabb(slab, callback.m_closestHitFraction, gate)) return;
                cast::castAgainstTarget(query, *item.object, item.target);
            });
    };
    if (!scene.visitHalfSpaces(visit)) return;
    if (!scene.walks(segment.ray, radius)) return scene.walkEverySwept(visit);
    scene.walkSwept(cast::GrownSlabLanes<float>(segment.ray.origin, Scalar(1) / segment.ray.direction,
                                                Vec3<Scalar>(radius)),
                    callback.m_closestHitFraction, visit);
}

// A batch sweep: a miss for a radius that is negative or not finite.
void sweepOne(const cast::RayScene& scene, const Sweep& sweep, SweepFilter& callback) {
    if (!(sweep.radius >= 0) || !std::isfinite(sweep.radius)) return;
    const cast::Segment segment{segmentRay(toGlm(sweep.from), toGlm(sweep.to)), sweep.from, sweep.to};
    sweepThrough(scene, segment, sweep.radius, callback, [&](const cast::RayScene::Item& item) {
        return callback.accepts(item.object, item.group, item.mask);
    });
}

// The proxy of a snapshot's object, for a user's needsCollision: the object's own (it must still be in the
// world, as the scene's header says).
btBroadphaseProxy* proxyOf(const cast::RayScene::Item& item) {
    return const_cast<btCollisionObject*>(item.object)->getBroadphaseHandle();
}

}  // namespace

void cast::castClosestSweeps(const RayScene& scene, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                             std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        ClosestSweepCallback callback(sweeps[i], hits[i]);
        sweepOne(scene, sweeps[i], callback);
    }
}

void cast::castAllSweepHits(const RayScene& scene, const Sweep& sweep, std::vector<SweepHit>& hits) {
    AllSweepsCallback callback(sweep, hits);
    sweepOne(scene, sweep, callback);
}

void cast::castSweep(const RayScene& scene, btScalar radius, const btVector3& from, const btVector3& to,
                     btCollisionWorld::ConvexResultCallback& callback) {
    const Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    sweepThrough(scene, segment, radius, callback,
                 [&](const RayScene::Item& item) { return callback.needsCollision(proxyOf(item)); });
}

void cast::castRay(const RayScene& scene, const btVector3& from, const btVector3& to,
                   btCollisionWorld::RayResultCallback& callback) {
    const Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    if (!isValidRay(segment.ray)) return;
    const RayQuery query{segment, callback};
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    const auto visit = [&](const RayScene::Item& item) {
        return visitObject(
            callback, [&] { return callback.needsCollision(proxyOf(item)); },
            [&] {
                if (rayOverlapsAabb(slab, callback.m_closestHitFraction, item.gate))
                    castAgainstTarget(query, *item.object, item.target);
            });
    };
    if (!scene.walks(segment.ray)) return scene.walkEvery(visit);
    scene.walk(SlabRayLanes<float>(slab.origin, slab.inverseDirection), callback, visit);
}

void cast::castClosestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                           std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
        ClosestHitCallback callback(rays[i], hits[i]);
        castBatchRay(scene, rays[i], callback);
    }
}

void cast::castAllHits(const RayScene& scene, const Ray& ray, std::vector<RayHit>& hits) {
    AllHitsCallback callback(ray, hits);
    castBatchRay(scene, ray, callback);
}

// Fills an AllHits from each query's hits, sorted nearest first (equal fractions in the order found).
struct detail::AllHitsWriter {
    template <class Hit> static void write(std::vector<std::vector<Hit>>& perQuery, AllHits<Hit>& result) {
        result.hits_.clear();
        result.firstHit_.assign(1, 0);
        for (const std::vector<Hit>& hits : perQuery) {
            result.hits_.insert(result.hits_.end(), hits.begin(), hits.end());
            result.firstHit_.push_back(result.hits_.size());
        }
    }
};

namespace {

template <class Query, class Hit, class CastAll>
void allHitsOf(std::span<const Query> queries, AllHits<Hit>& result, unsigned threads, CastAll castAll) {
    std::vector<std::vector<Hit>> perQuery(queries.size());
    cast::forChunks(queries.size(), cast::batchChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            castAll(queries[i], perQuery[i]);
            std::stable_sort(perQuery[i].begin(), perQuery[i].end(),
                             [](const Hit& a, const Hit& b) { return a.fraction < b.fraction; });
        }
    });
    detail::AllHitsWriter::write(perQuery, result);
}

}  // namespace

unsigned cast::threadsFor(unsigned requested) {
    // glibc reads a file of the kernel's at every call.
    static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return requested ? requested : cores;
}

void cast::closestHits(const RayScene& scene, std::span<const Ray> rays, std::span<RayHit> hits,
                       unsigned threads) {
    forChunks(rays.size(), batchChunkSize, threads,
              [&](std::size_t begin, std::size_t end) { castClosestHits(scene, rays, hits, begin, end); });
}

void cast::closestHits(const RayScene& scene, std::span<const Sweep> sweeps, std::span<SweepHit> hits,
                       unsigned threads) {
    forChunks(sweeps.size(), batchChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        castClosestSweeps(scene, sweeps, hits, begin, end);
    });
}

void cast::allHits(const RayScene& scene, std::span<const Ray> rays, AllRayHits& result, unsigned threads) {
    allHitsOf(rays, result, threads,
              [&](const Ray& ray, std::vector<RayHit>& hits) { castAllHits(scene, ray, hits); });
}

void cast::allHits(const RayScene& scene, std::span<const Sweep> sweeps, AllSweepHits& result,
                   unsigned threads) {
    allHitsOf(sweeps, result, threads,
              [&](const Sweep& sweep, std::vector<SweepHit>& hits) { castAllSweepHits(scene, sweep, hits); });
}

}  // namespace analytic
