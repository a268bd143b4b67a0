#include "raycast/ray_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <span>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analytic/geometry/plane_tests.hpp"
#include "raycast/mesh_raycast.hpp"

namespace analytic {

struct BatchCache::Kept {
    std::mutex mutex;
    std::unordered_map<const btStridingMeshInterface*, std::shared_ptr<const raycast::MeshTree>> meshTrees;
    // The world's tree, the objects' boxes it was built over and the ray reach it covers.
    std::shared_ptr<const raycast::WideBvh> worldTree;
    std::vector<Aabb<raycast::Scalar>> worldBoxes;
    raycast::Scalar worldReach = 0;
    std::size_t worldTreeBuilds = 0;
};

BatchCache::BatchCache() : kept_(std::make_unique<Kept>()) {}
BatchCache::~BatchCache() = default;

std::size_t BatchCache::meshTreeCount() const {
    const std::lock_guard lock(kept_->mutex);
    return kept_->meshTrees.size();
}

std::size_t BatchCache::worldTreeBuilds() const {
    const std::lock_guard lock(kept_->mutex);
    return kept_->worldTreeBuilds;
}

namespace raycast {

Scalar RayScene::batchReach(std::span<const Ray> rays) {
    Scalar reach = 0;
    for (const Ray& ray : rays) {
        const Scalar rayReach = rayReachOf(segmentRay(toGlm(ray.from), toGlm(ray.to)));
        if (std::isfinite(rayReach)) reach = std::max(reach, rayReach);  // the others are not walked
    }
    return reach;
}

namespace {

// The same boxes bit for bit (a NaN bound matches itself: the tree was built over it as it is).
static_assert(sizeof(Aabb<Scalar>) == 6 * sizeof(Scalar), "a box's bytes are its bounds, no padding");
bool sameBoxes(std::span<const Aabb<Scalar>> a, std::span<const Aabb<Scalar>> b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

// Where a ray must pass to hit the target whose shape has this box: the box, narrowed for a static plane
// to where its cast can hit (Bullet gives a plane's box as all of space, so every ray would test it; a
// ground plane's becomes a thin slab; castAgainstPlane tests with the default tolerance, as these bounds
// take it). The tree's growth covers the rounding of the segments.
Aabb<Scalar> rayBoxOf(const RayTarget& target, const Aabb<Scalar>& box) {
    const auto* plane = std::get_if<PlaneTarget>(&target);
    if (!plane) return box;
    const Aabb<Scalar> hits = boundsOfRayPlaneHits(plane->plane);
    return {glm::max(box.min, hits.min), glm::min(box.max, hits.max)};
}

}  // namespace

RayScene::RayScene(const btCollisionWorld& world, BatchCache* cache, Scalar rayReach, unsigned threads) {
    std::unique_lock<std::mutex> cacheLock;
    if (cache) cacheLock = std::unique_lock(cache->kept_->mutex);
    // The trees of this world's meshes, found in the cache (when their data are unchanged) or built.
    std::unordered_map<const btStridingMeshInterface*, std::shared_ptr<const MeshTree>> treeOf;
    const auto attachTree = [&](RayTarget& target) {
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
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    std::vector<Item> items;
    std::vector<Aabb<Scalar>> boxes;
    items.reserve(std::size_t(objects.size()));
    boxes.reserve(std::size_t(objects.size()));
    for (int i = 0; i < objects.size(); ++i) {
        btBroadphaseProxy* proxy = objects[i]->getBroadphaseHandle();
        if (!proxy) continue;  // not in the broadphase: no ray of Bullet's meets it either
        items.push_back({objects[i], proxy->m_collisionFilterGroup, proxy->m_collisionFilterMask,
                         rayTargetOf(*objects[i]->getCollisionShape(), objects[i]->getWorldTransform())});
        if (cache) attachTree(items.back().target);
        // From the shape's own box: btAxisSweep3 leaves its proxies' boxes unset until the next update.
        boxes.push_back(rayBoxOf(items.back().target, boxOf(*objects[i])));
    }
    if (cache) {
        BatchCache::Kept& kept = *cache->kept_;
        kept.meshTrees = std::move(treeOf);
        if (!kept.worldTree || kept.worldReach < rayReach || !sameBoxes(kept.worldBoxes, boxes)) {
            // Grown for rays reaching twice as far, so that the next batches' rays may reach a little
            // farther than this one's and still find it.
            kept.worldReach = 2 * rayReach;
            kept.worldTree = std::make_shared<const WideBvh>(boxes, kept.worldReach, threads);
            kept.worldBoxes = std::move(boxes);
            ++kept.worldTreeBuilds;
        }
        tree_ = kept.worldTree;
        cacheLock.unlock();  // the trees this scene uses stay alive in tree_ and meshTrees_
    } else {
        tree_ = std::make_shared<const WideBvh>(boxes, rayReach, threads);
    }
    items_.reserve(items.size());
    for (const std::int32_t i : tree_->order())
        items_.push_back(std::move(items[std::size_t(i)]));
}

}  // namespace raycast
}  // namespace analytic
