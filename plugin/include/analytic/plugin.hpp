// SPDX-License-Identifier: Zlib
// Installs the analytic collision algorithms into a Bullet dispatcher, replacing Bullet's own for the
// pairs below, and restores Bullet's when destroyed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

class btCollisionAlgorithmCreateFunc;
class btCollisionDispatcher;
class btCollisionWorld;

namespace analytic {

// The shape pairs the plugin can replace, each in both argument orders.
enum class Pair : std::uint32_t {
    SpherePlane = 1u << 0,     // btSphereShape - btStaticPlaneShape
    BoxPlane = 1u << 1,        // btBoxShape - btStaticPlaneShape: up to 4 points in one pass
    CapsulePlane = 1u << 2,    // btCapsuleShape (X, Y, Z) - btStaticPlaneShape: up to 2 points
    SphereSphere = 1u << 3,    // btSphereShape - btSphereShape
    SphereBox = 1u << 4,       // btSphereShape - btBoxShape
    SphereTriangle = 1u << 5,  // btSphereShape - btTriangleShape (what Bullet dispatches per mesh triangle)
    EllipsoidPlane = 1u << 6,  // analytic::EllipsoidShape (custom convex) - btStaticPlaneShape
    // btSphereShape - whole btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape or btHeightfieldTerrainShape
    // in one pass, without contacts on internal edges; one-sided with oneSidedMeshFlag
    SphereMesh = 1u << 7,
    // btBoxShape - the same meshes in one pass: separating-axis contacts, up to 4 points, internal edges
    // taken along the faces; one-sided with oneSidedMeshFlag
    BoxMesh = 1u << 8,
    // btCapsuleShape (X, Y, Z) - the same meshes in one pass: the axis's exact closest points with each
    // triangle, up to 2 points where it lies along a face, internal edges removed as the sphere's;
    // one-sided with oneSidedMeshFlag
    CapsuleMesh = 1u << 9,
    CapsuleBox = 1u << 10,     // btCapsuleShape - btBoxShape: up to 2 points where it lies along a face
    SphereCapsule = 1u << 11,  // btSphereShape - btCapsuleShape
};

// A mesh object whose collision flags include this bit (mesh.setCollisionFlags(mesh.getCollisionFlags()
// | oneSidedMeshFlag)) is one-sided for Pair::SphereMesh, Pair::BoxMesh and Pair::CapsuleMesh: a sphere whose
// centre is behind a triangle (a box pushed out along any axis, a capsule whose axis over the face is behind
// it) is pushed out through its front, or passes when entirely behind it. The front is the side the
// triangles' winding (counter-clockwise) faces, mirrored with the mesh by a negative scaling; a heightfield's
// front faces up its up axis. Bullet itself uses no such bit.
inline constexpr int oneSidedMeshFlag = 1 << 20;

class PairSet {
public:
    constexpr PairSet(Pair pair) : bits_(std::uint32_t(pair)) {}
    static constexpr PairSet all() { return PairSet((1u << 12) - 1); }
    constexpr PairSet operator|(PairSet other) const { return PairSet(bits_ | other.bits_); }
    constexpr bool contains(Pair pair) const { return (bits_ & std::uint32_t(pair)) != 0; }

private:
    constexpr explicit PairSet(std::uint32_t bits) : bits_(bits) {}
    std::uint32_t bits_;
};

constexpr PairSet operator|(Pair a, Pair b) { return PairSet(a) | b; }

// Registers our create functions in both of the dispatcher's tables (contact points, used by stepping
// and contactTest, and closest points, used by contactPairTest). Bullet caches an algorithm per
// overlapping pair, so pairs that already exist keep Bullet's until refreshed: construct the plugin
// from the world to have that done, or call refreshCachedAlgorithms. The destructor puts back the
// create functions of the dispatcher's collision configuration (and, given the world, refreshes its
// pairs again), so the plugin must outlive neither the dispatcher nor the world.
class Plugin {
public:
    explicit Plugin(btCollisionDispatcher& dispatcher, PairSet pairs = PairSet::all());
    explicit Plugin(btCollisionWorld& world, PairSet pairs = PairSet::all());
    ~Plugin();

    Plugin(const Plugin&) = delete;
    Plugin& operator=(const Plugin&) = delete;

    // Drops the algorithm cached on every overlapping pair of the world; the next step creates each
    // anew from the dispatcher's current tables. Contact points of those pairs are lost for one step.
    static void refreshCachedAlgorithms(btCollisionWorld& world);

private:
    struct Registration {
        int shapeType0;
        int shapeType1;
    };

    void install(PairSet pairs);

    btCollisionDispatcher& dispatcher_;
    btCollisionWorld* world_ = nullptr;
    std::vector<std::unique_ptr<btCollisionAlgorithmCreateFunc>> createFunctions_;
    std::vector<Registration> registrations_;
};

}  // namespace analytic
