// SPDX-License-Identifier: Zlib
#include "analytic/plugin.hpp"

#include <BulletCollision/BroadphaseCollision/btBroadphaseInterface.h>
#include <BulletCollision/BroadphaseCollision/btOverlappingPairCache.h>
#include <BulletCollision/CollisionDispatch/btCollisionWorld.h>

#include <stdexcept>

#include "narrowphase/box_mesh.hpp"
#include "narrowphase/capsule_mesh.hpp"
#include "narrowphase/kernels.hpp"
#include "narrowphase/sphere_mesh.hpp"

namespace analytic {
namespace {

// The tables the plugin installs in are btCollisionDispatcher's: any other btDispatcher has none.
btCollisionDispatcher& collisionDispatcherOf(btCollisionWorld& world) {
    auto* dispatcher = dynamic_cast<btCollisionDispatcher*>(world.getDispatcher());
    if (!dispatcher)
        throw std::invalid_argument(
            "analytic::Plugin: the world's dispatcher is not a btCollisionDispatcher");
    return *dispatcher;
}

}  // namespace

Plugin::Plugin(btCollisionDispatcher& dispatcher, PairSet pairs) : dispatcher_(dispatcher) { install(pairs); }

Plugin::Plugin(btCollisionWorld& world, PairSet pairs)
    : dispatcher_(collisionDispatcherOf(world)), world_(&world) {
    install(pairs);
    refreshCachedAlgorithms(world);
}

Plugin::~Plugin() {
    btCollisionConfiguration& defaults = *dispatcher_.getCollisionConfiguration();
    for (const Registration& r : registrations_) {
        dispatcher_.registerCollisionCreateFunc(
            r.shapeType0, r.shapeType1, defaults.getCollisionAlgorithmCreateFunc(r.shapeType0, r.shapeType1));
        dispatcher_.registerClosestPointsCreateFunc(
            r.shapeType0, r.shapeType1,
            defaults.getClosestPointsAlgorithmCreateFunc(r.shapeType0, r.shapeType1));
    }
    if (world_) refreshCachedAlgorithms(*world_);
}

void Plugin::refreshCachedAlgorithms(btCollisionWorld& world) {
    btOverlappingPairCache& cache = *world.getBroadphase()->getOverlappingPairCache();
    btBroadphasePairArray& pairs = cache.getOverlappingPairArray();
    for (int i = 0; i < pairs.size(); ++i)
        cache.cleanOverlappingPair(pairs[i], world.getDispatcher());
}

void Plugin::install(PairSet pairs) {
    const auto replace = [&]<class Kernel>(Pair pair, int shapeTypeA, int shapeTypeB, Kernel) {
        if (!pairs.contains(pair)) return;
        const auto registerBoth = [&](int type0, int type1, bool swapped) {
            // One create function per table, each with that table's default as its fallback for pairs
            // a selective kernel does not accept.
            const auto createFunction = [&](btCollisionAlgorithmCreateFunc* fallback) {
                createFunctions_.push_back(
                    std::make_unique<narrowphase::PairCreateFunction<Kernel>>(swapped, fallback));
                return createFunctions_.back().get();
            };
            btCollisionConfiguration& defaults = *dispatcher_.getCollisionConfiguration();
            dispatcher_.registerCollisionCreateFunc(
                type0, type1, createFunction(defaults.getCollisionAlgorithmCreateFunc(type0, type1)));
            dispatcher_.registerClosestPointsCreateFunc(
                type0, type1, createFunction(defaults.getClosestPointsAlgorithmCreateFunc(type0, type1)));
            registrations_.push_back({type0, type1});
        };
        registerBoth(shapeTypeA, shapeTypeB, false);
        if (shapeTypeA != shapeTypeB) registerBoth(shapeTypeB, shapeTypeA, true);
    };
    using namespace narrowphase;
    constexpr int meshTypes[] = {TRIANGLE_MESH_SHAPE_PROXYTYPE, SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE,
                                 TERRAIN_SHAPE_PROXYTYPE};
    // Every pair of the enumeration, each registered by its case: -Wswitch (an error here) names a pair
    // left without one.
    for (std::uint32_t index = 0; index < std::uint32_t(Pair::Count); ++index) {
        switch (const Pair pair = Pair(index)) {
            case Pair::SpherePlane:
                replace(pair, SPHERE_SHAPE_PROXYTYPE, STATIC_PLANE_PROXYTYPE, SpherePlane{});
                break;
            case Pair::BoxPlane:
                replace(pair, BOX_SHAPE_PROXYTYPE, STATIC_PLANE_PROXYTYPE, BoxPlane{});
                break;
            case Pair::CapsulePlane:
                replace(pair, CAPSULE_SHAPE_PROXYTYPE, STATIC_PLANE_PROXYTYPE, CapsulePlane{});
                break;
            case Pair::SphereSphere:
                replace(pair, SPHERE_SHAPE_PROXYTYPE, SPHERE_SHAPE_PROXYTYPE, SphereSphere{});
                break;
            case Pair::SphereBox:
                replace(pair, SPHERE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, SphereBox{});
                break;
            case Pair::SphereTriangle:
                replace(pair, SPHERE_SHAPE_PROXYTYPE, TRIANGLE_SHAPE_PROXYTYPE, SphereTriangle{});
                break;
            case Pair::EllipsoidPlane:
                replace(pair, CUSTOM_CONVEX_SHAPE_TYPE, STATIC_PLANE_PROXYTYPE, EllipsoidPlane{});
                break;
            case Pair::SphereMesh:
                for (const int meshType : meshTypes)
                    replace(pair, SPHERE_SHAPE_PROXYTYPE, meshType, SphereMesh{});
                break;
            case Pair::BoxMesh:
                for (const int meshType : meshTypes)
                    replace(pair, BOX_SHAPE_PROXYTYPE, meshType, BoxMesh{});
                break;
            case Pair::CapsuleMesh:
                for (const int meshType : meshTypes)
                    replace(pair, CAPSULE_SHAPE_PROXYTYPE, meshType, CapsuleMesh{});
                break;
            case Pair::CapsuleBox:
                replace(pair, CAPSULE_SHAPE_PROXYTYPE, BOX_SHAPE_PROXYTYPE, CapsuleBox{});
                break;
            case Pair::SphereCapsule:
                replace(pair, SPHERE_SHAPE_PROXYTYPE, CAPSULE_SHAPE_PROXYTYPE, SphereCapsule{});
                break;
            case Pair::Count:
                break;
        }
    }
}

}  // namespace analytic
