// SPDX-License-Identifier: Zlib
// A flat snapshot of what rays can hit in a world, made for one batch of rays: every object in the
// broadphase with its ray target (the shape placed in the world), under a four-wide bounding volume
// hierarchy of their boxes (wide_bvh.hpp), which a BatchCache keeps between batches while the boxes stay.
#pragma once

#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/sweep_batch.hpp"
#include "cast/box_lanes.hpp"
#include "cast/dbvt_walk.hpp"
#include "cast/mesh_tree.hpp"
#include "cast/placed_shape.hpp"
#include "cast/wide_bvh.hpp"

namespace analytic::cast {

class RayScene {
public:
    struct Item {
        Item() {}  // not zeroed first: the snapshot fills each in place

        const btCollisionObject* object;
        int group;  // the broadphase proxy's collision filter group and mask, read once
        int mask;
        // Where a ray must pass for its hits to count (rayBoxOf), as rayTest tests it (see castRay).
        Aabb<Scalar> gate;
        PlacedShape target;
    };

    // cache (null: none) gives the BVH meshes' targets their trees (mesh_tree.hpp), built when it has
    // none for a mesh's data, and is left with those of this world's meshes only; its tree over the
    // objects is used when their boxes are those it was built over, else built again and kept (see
    // BatchCache). The rays walked must have coordinates within rayReach (see WideBvh): batchReach gives
    // it for a batch. Trees are built on up to `threads` threads.
    RayScene(const btCollisionWorld& world, BatchCache* cache, Scalar rayReach, unsigned threads);

    // The largest origin coordinate plus largest direction component of the batch's rays (segments) that
    // the tree can walk (WideBvh::maxWalkReach).
    static Scalar batchReach(std::span<const Ray> rays);
    // The same for a batch of sweeps: their centres' paths' reach plus their radii.
    static Scalar batchReach(std::span<const Sweep> sweeps);

    // Whether walk takes the segment (usable, isValidRay): its coordinates within the tree's reach. The
    // others (coordinates beyond float's range, say) go through walkEvery.
    bool walks(const RayPath<Scalar>& segment) const { return tree_->covers(segment); }
    // Whether walkSwept takes a sphere's centre path (finite) for this radius.
    bool walks(const RayPath<Scalar>& path, Scalar radius) const { return tree_->covers(path, radius); }

    // Calls visit(item) for the items whose boxes the ray meets, in the tree's near-to-far order for the
    // ray's direction, skipping what it enters beyond the callback's closest hit so far; stops when visit
    // returns false. The ray must be one that walks takes.
    template <class Visit> void walk(const SlabRayLanes<float>& ray,
                                     const btCollisionWorld::RayResultCallback& callback, Visit visit) const {
        tree_->walk(
            ray, [&] { return callback.m_closestHitFraction; },
            [&](std::size_t item) { return visit(items_[item]); });
    }

    // For a ray that walk does not take: visit(item) for every item, in the tree's order, until visit
    // returns false (the caller culls by each item's gate box).
    template <class Visit> void walkEvery(Visit visit) const {
        for (const Item& item : items_)
            if (!visit(item)) return;
    }

    // A sphere's walk: visit(item) for the items other than static planes whose boxes, grown by the
    // radius (the lanes'), the centre's path meets, in the tree's near-to-far order, skipping what it
    // enters beyond `closest` (read again at every step); stops when visit returns false. The path must be
    // one walks takes with the radius. Static planes (their boxes in the tree are where a ray can hit
    // them, not the half-space a sphere meets) are visitHalfSpaces'.
    template <class Visit>
    void walkSwept(const GrownSlabLanes<float>& path, const Scalar& closest, Visit visit) const {
        tree_->walk(
            path, [&] { return closest; },
            [&](std::size_t item) {
                const Item& reached = items_[item];
                return std::holds_alternative<PlaneTarget>(reached.target) || visit(reached);
            });
    }
    // For a path walkSwept does not take: visit(item) for every item but the static planes.
    template <class Visit> void walkEverySwept(Visit visit) const {
        for (const Item& item : items_)
            if (!std::holds_alternative<PlaneTarget>(item.target) && !visit(item)) return;
    }
    // visit(item) for the static planes; false when visit stopped.
    template <class Visit> bool visitHalfSpaces(Visit visit) const {
        for (const std::size_t index : halfSpaces_)
            if (!visit(items_[index])) return false;
        return true;
    }

private:
    std::vector<Item> items_;              // in the tree's order
    std::vector<std::size_t> halfSpaces_;  // the items that are static planes
    std::shared_ptr<const WideBvh> tree_;  // shared with the cache, which may replace its own meanwhile
    std::vector<std::shared_ptr<const MeshTree>> meshTrees_;  // those the items' targets point to
};

}  // namespace analytic::cast

namespace analytic {

// What a BatchCache keeps between batches: RayScene reads and replaces it, under its mutex.
struct BatchCache::Kept {
    std::mutex mutex;
    const btCollisionWorld* world = nullptr;  // the world the rest was kept for
    std::unordered_map<const btStridingMeshInterface*, std::shared_ptr<const cast::MeshTree>> meshTrees;
    // The world's tree, the objects' boxes it was built over and the ray reach it covers.
    std::shared_ptr<const cast::WideBvh> worldTree;
    std::vector<Aabb<Scalar>> worldBoxes;
    Scalar worldReach = 0;
    std::size_t worldTreeBuilds = 0;
};

}  // namespace analytic
