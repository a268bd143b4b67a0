#include "raycast/ray_scene.hpp"

#include <cstdint>
#include <utility>
#include <vector>

namespace analytic::raycast {

RayScene::RayScene(const btCollisionWorld& world) {
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
        // The shape's own box: btAxisSweep3 leaves its proxies' boxes unset until the next update.
        boxes.push_back(boxOf(*objects[i]));
    }
    tree_ = WideBvh(boxes);
    items_.reserve(items.size());
    for (const std::int32_t i : tree_.order())
        items_.push_back(std::move(items[std::size_t(i)]));
}

}  // namespace analytic::raycast
