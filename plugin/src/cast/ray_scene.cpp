// SPDX-License-Identifier: Zlib
#include "cast/ray_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "cast/mesh_cast.hpp"
#include "cast/worker_pool.hpp"

namespace analytic {

namespace cast {

Scalar RayScene::batchReach(std::span<const Ray> rays) {
    Scalar reach = 0;
    for (const Ray& ray : rays) {
        const Scalar rayReach = rayReachOf(segmentRay(toGlm(ray.from), toGlm(ray.to)));
        // The others are not walked: not usable, or cast with walkEvery.
        if (rayReach <= WideBvh::maxWalkReach) reach = std::max(reach, rayReach);
    }
    return reach;
}

Scalar RayScene::batchReach(std::span<const Sweep> sweeps) {
    Scalar reach = 0;
    for (const Sweep& sweep : sweeps) {
        const Scalar sweepReach = rayReachOf(segmentRay(toGlm(sweep.from), toGlm(sweep.to))) + sweep.radius;
        if (sweepReach <= WideBvh::maxWalkReach) reach = std::max(reach, sweepReach);  // NaN: not walked
    }
    return reach;
}

namespace {

// The snapshot's objects are shared among threads in chunks of this many.
constexpr std::size_t objectChunkSize = 256;

// The same boxes bit for bit (a NaN bound matches itself: the tree was built over it as it is).
static_assert(sizeof(Aabb<Scalar>) == 6 * sizeof(Scalar), "a box's bytes are its bounds, no padding");
bool sameBoxes(std::span<const Aabb<Scalar>> a, std::span<const Aabb<Scalar>> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

}  // namespace

RayScene::RayScene(const btCollisionWorld& world, BatchCache* cache, Scalar rayReach, unsigned threads) {
    std::unique_lock<std::mutex> cacheLock;
    if (cache) {
        cacheLock = std::unique_lock(cache->kept_->mutex);
        // Given another world, the cache starts afresh for it.
        BatchCache::Kept& kept = *cache->kept_;
        if (kept.world != &world) {
            kept.meshTrees.clear();
            kept.worldTree.reset();
            kept.worldBoxes.clear();
            kept.worldReach = 0;
            kept.world = &world;
        }
    }
    // The trees of this world's meshes, found in the cache (when their data are unchanged) or built.
    std::unordered_map<const btStridingMeshInterface*, std::shared_ptr<const MeshTree>> treeOf;
    const auto attachTree = [&](PlacedShape& target) {
        auto* mesh = std::get_if<MeshTarget>(&target);
        btVector3 scaling;
        const btBvhTriangleMeshShape* unscaled = mesh ? unscaledMeshOf(*mesh->shape, scaling) : nullptr;
        if (!unscaled) return;
        const btStridingMeshInterface* data = unscaled->getMeshInterface();
        std::shared_ptr<const MeshTree>& tree = treeOf[data];
        if (!tree) {
            auto& cached = cache->kept_->meshTrees;
            const auto found = cached.find(data);
            tree = found != cached.end() && found->second->matches(*data)
                       ? found->second
                       : std::make_shared<MeshTree>(*data, threads);
            meshTrees_.push_back(tree);
        }
        mesh->tree = tree.get();
    };
    // Each object read on its own, on the batch's threads (most of the snapshot's time when the cache
    // has the trees).
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    std::vector<const btCollisionObject*> inBroadphase(std::size_t(objects.size()));
    std::vector<Aabb<Scalar>> boxes(inBroadphase.size());
    forChunks(inBroadphase.size(), objectChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const btCollisionObject* object = objects[int(i)];
            // Not in the broadphase: no ray of Bullet's meets it either.
            inBroadphase[i] = object->getBroadphaseHandle() ? object : nullptr;
            if (inBroadphase[i]) boxes[i] = rayBoxOf(*object);
        }
    });
    if (std::find(inBroadphase.begin(), inBroadphase.end(), nullptr) != inBroadphase.end()) {
        std::size_t kept = 0;
        for (std::size_t i = 0; i < inBroadphase.size(); ++i)
            if (inBroadphase[i]) {
                inBroadphase[kept] = inBroadphase[i];
                boxes[kept++] = boxes[i];
            }
        inBroadphase.resize(kept);
        boxes.resize(kept);
    }
    if (cache) {
        BatchCache::Kept& kept = *cache->kept_;
        if (!kept.worldTree || kept.worldReach < rayReach || !sameBoxes(kept.worldBoxes, boxes)) {
            // Grown for rays reaching twice as far, so that the next batches' rays may reach a little
            // farther than this one's and still find it.
            kept.worldReach = 2 * rayReach;
            kept.worldTree = std::make_shared<const WideBvh>(boxes, kept.worldReach, threads);
            kept.worldBoxes = boxes;  // a copy: the items keep theirs
            ++kept.worldTreeBuilds;
        }
        tree_ = kept.worldTree;
    } else {
        tree_ = std::make_shared<const WideBvh>(boxes, rayReach, threads);
    }
    // The items in the tree's order, each made in place (a PlacedShape's move dispatches on its type), the
    // objects read in the world's order (in the tree's, they were cache misses again).
    std::vector<std::size_t> placeInTree(inBroadphase.size());
    for (std::size_t place = 0; place < placeInTree.size(); ++place)
        placeInTree[std::size_t(tree_->order()[place])] = place;
    items_.resize(inBroadphase.size());
    forChunks(items_.size(), objectChunkSize, threads, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const btCollisionObject& object = *inBroadphase[i];
            const btBroadphaseProxy& proxy = *object.getBroadphaseHandle();
            Item& item = items_[placeInTree[i]];
            item.object = &object;
            item.group = proxy.m_collisionFilterGroup;
            item.mask = proxy.m_collisionFilterMask;
            item.gate = boxes[i];
            placeShape(*object.getCollisionShape(), object.getWorldTransform(), item.target);
        }
    });
    for (std::size_t i = 0; i < items_.size(); ++i)
        if (std::holds_alternative<PlaneTarget>(items_[i].target)) halfSpaces_.push_back(i);
    if (cache) {
        for (Item& item : items_)
            attachTree(item.target);
        cache->kept_->meshTrees = std::move(treeOf);
    }
}

}  // namespace cast
}  // namespace analytic
