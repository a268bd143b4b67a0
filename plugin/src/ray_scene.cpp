#include "raycast/ray_scene.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "raycast/mesh_raycast.hpp"

namespace analytic {

struct MeshTreeCache::Trees {
    std::mutex mutex;
    std::unordered_map<const btStridingMeshInterface*, std::shared_ptr<const raycast::MeshTree>> byMesh;
};

MeshTreeCache::MeshTreeCache() : trees_(std::make_unique<Trees>()) {}
MeshTreeCache::~MeshTreeCache() = default;

std::size_t MeshTreeCache::size() const {
    const std::lock_guard lock(trees_->mutex);
    return trees_->byMesh.size();
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

RayScene::RayScene(const btCollisionWorld& world, MeshTreeCache* meshTrees, Scalar rayReach,
                   unsigned threads) {
    std::unique_lock<std::mutex> cacheLock;
    if (meshTrees) cacheLock = std::unique_lock(meshTrees->trees_->mutex);
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
            auto& cached = meshTrees->trees_->byMesh;
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
        if (meshTrees) attachTree(items.back().target);
        // The shape's own box: btAxisSweep3 leaves its proxies' boxes unset until the next update.
        boxes.push_back(boxOf(*objects[i]));
    }
    if (meshTrees) {
        meshTrees->trees_->byMesh = std::move(treeOf);
        cacheLock.unlock();  // the trees this scene uses stay alive in meshTrees_
    }
    tree_ = WideBvh(boxes, rayReach, threads);
    items_.reserve(items.size());
    for (const std::int32_t i : tree_.order())
        items_.push_back(std::move(items[std::size_t(i)]));
}

}  // namespace raycast
}  // namespace analytic
