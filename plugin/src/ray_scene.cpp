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

// Where a ray must pass to hit the target whose shape has this box: the box, except for a static plane
// square to an axis (Bullet gives a plane's box as all of space, so every ray would test it). Its cast
// (intersectRayPlane with the default tolerance) hits only points within that relative tolerance of
// the plane, a band whose half width there is tolerance (|p| + |offset|) = 2 tolerance |offset|: the
// box is narrowed on the axis to 4 times that, for the rounding of the test. The tree's growth
// covers the rounding of the walk's own test.
Aabb<Scalar> rayBoxOf(const RayTarget& target, Aabb<Scalar> box) {
    const auto* plane = std::get_if<PlaneTarget>(&target);
    if (!plane) return box;
    const Vec3<Scalar>& normal = plane->plane.normal;
    for (int axis = 0; axis < 3; ++axis) {
        const int other = (axis + 1) % 3, last = (axis + 2) % 3;
        if (std::abs(normal[axis]) != 1 || normal[other] != 0 || normal[last] != 0) continue;
        const Scalar at = plane->plane.offset * normal[axis];  // the plane's coordinate on the axis
        const Scalar halfWidth = 4 * defaultPlaneTolerance<Scalar> * 2 * std::abs(at);
        box.min[axis] = std::max(box.min[axis], at - halfWidth);
        box.max[axis] = std::min(box.max[axis], at + halfWidth);
    }
    return box;
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
