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

// The shape pairs the plugin can replace, each in both argument orders. This enumeration is the one list of
// them: PairSet::all() holds every value before Count, and Plugin registers each (the compiler checks
// that every pair has its registration).
enum class Pair : std::uint32_t {
    SpherePlane,     // btSphereShape - btStaticPlaneShape
    BoxPlane,        // btBoxShape - btStaticPlaneShape: up to 4 points in one pass
    CapsulePlane,    // btCapsuleShape (X, Y, Z) - btStaticPlaneShape: up to 2 points
    SphereSphere,    // btSphereShape - btSphereShape
    SphereBox,       // btSphereShape - btBoxShape
    SphereTriangle,  // btSphereShape - btTriangleShape (what Bullet dispatches per mesh triangle)
    EllipsoidPlane,  // analytic::EllipsoidShape (custom convex) - btStaticPlaneShape
    // btSphereShape - whole btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape or btHeightfieldTerrainShape
    // in one pass, without contacts on internal edges; one-sided with oneSidedMeshFlag
    SphereMesh,
    // btBoxShape - the same meshes in one pass: separating-axis contacts, up to 4 points, internal edges
    // taken along the faces; one-sided with oneSidedMeshFlag
    BoxMesh,
    // btCapsuleShape (X, Y, Z) - the same meshes in one pass: the axis's exact closest points with each
    // triangle, up to 2 points where it lies along a face, internal edges removed as the sphere's;
    // one-sided with oneSidedMeshFlag
    CapsuleMesh,
    CapsuleBox,     // btCapsuleShape - btBoxShape: up to 2 points where it lies along a face
    SphereCapsule,  // btSphereShape - btCapsuleShape
    Count           // not a pair: the number of pairs above
};

// A mesh object whose collision flags include this bit (mesh.setCollisionFlags(mesh.getCollisionFlags()
// | oneSidedMeshFlag)) is one-sided for Pair::SphereMesh, Pair::BoxMesh and Pair::CapsuleMesh: a sphere whose
// centre is behind a triangle (a box pushed out along any axis, a capsule whose axis over the face is behind
// it) is pushed out through its front, or passes when entirely behind it. The front is the side the
// triangles' winding (counter-clockwise) faces, mirrored with the mesh by a negative scaling; a heightfield's
// front faces up its up axis. Bullet itself uses no such bit.
inline constexpr int oneSidedMeshFlag = 1 << 20;

// The pairs a Plugin replaces: a set of Pair values, made from one and joined with |.
class PairSet {
public:
    // The set of that one pair (implicit, so a Pair passes where a PairSet is asked). Pair::Count, or a
    // value cast to Pair from an integer that names no pair, gives a set that installs nothing.
    constexpr PairSet(Pair pair) : bits_(bitOf(pair)) {}
    // Every pair of the enumeration above, the Plugin's default.
    static constexpr PairSet all() { return PairSet(bitOf(Pair::Count) - 1); }
    // The union of the two sets.
    constexpr PairSet operator|(PairSet other) const { return PairSet(bits_ | other.bits_); }
    // Whether the set holds the pair.
    constexpr bool contains(Pair pair) const { return (bits_ & bitOf(pair)) != 0; }

private:
    static_assert(std::uint32_t(Pair::Count) < 32, "a PairSet holds one bit per pair in 32 bits");
    static constexpr std::uint32_t bitOf(Pair pair) {
        return std::uint32_t(pair) < std::uint32_t(Pair::Count) ? 1u << std::uint32_t(pair) : 0u;
    }
    constexpr explicit PairSet(std::uint32_t bits) : bits_(bits) {}
    std::uint32_t bits_;
};

// The set of both pairs.
constexpr PairSet operator|(Pair a, Pair b) { return PairSet(a) | b; }

// Our collision algorithms installed in a Bullet dispatcher for as long as the object lives.
// - Replaces: for each pair of the set, in both argument orders (and for the mesh pairs, against each of
//   btBvhTriangleMeshShape, btScaledBvhTriangleMeshShape and btHeightfieldTerrainShape), the create
//   function in both of the dispatcher's tables (contact points, used by stepping and contactTest;
//   closest points, used by contactPairTest), whatever it held: Bullet's default or a user's own. For
//   EllipsoidPlane the custom convex slot is shared: other custom convex shapes against a plane get the
//   collision configuration's create function.
// - Existing pairs: Bullet caches an algorithm per overlapping pair, so pairs that already exist keep the
//   one they have until refreshed: construct the plugin from the world to have that done, or call
//   refreshCachedAlgorithms.
// - Destructor: puts back, for every table cell it wrote, the create function of the dispatcher's
//   collision configuration (not what the cell held before the plugin: a user's own is not restored),
//   and, given the world, refreshes its pairs again. Constructed from the dispatcher alone, pairs that
//   hold one of our algorithms keep it (it needs nothing of the plugin) until Bullet drops the pair or
//   refreshCachedAlgorithms runs.
// - Misuse: the plugin must outlive neither the dispatcher nor the world it was given (its destructor
//   writes to them: undefined behaviour otherwise). Two plugins on one dispatcher: the later one's
//   functions are used while both live, and destroying either puts back the configuration's functions in
//   its cells, replacing the other's there while it still lives. Construct and destroy it between steps, not
//   while the world is being stepped or queried on another thread.
class Plugin {
public:
    // Installs the pairs in the dispatcher; the pairs that already exist keep their algorithms.
    explicit Plugin(btCollisionDispatcher& dispatcher, PairSet pairs = PairSet::all());
    // Installs the pairs in the world's dispatcher, which must be a btCollisionDispatcher (or derived),
    // and refreshes the world's existing pairs. Misuse: another btDispatcher (or none) throws
    // std::invalid_argument("analytic::Plugin: the world's dispatcher is not a btCollisionDispatcher"),
    // before anything is installed.
    explicit Plugin(btCollisionWorld& world, PairSet pairs = PairSet::all());
    // Puts back the configuration's create functions (and refreshes the world's pairs, given the world).
    ~Plugin();

    Plugin(const Plugin&) = delete;
    Plugin& operator=(const Plugin&) = delete;

    // Drops the algorithm cached on every overlapping pair of the world's broadphase (and the manifold it
    // owns); the next step creates each anew from the dispatcher's current tables. Contact points of
    // those pairs are lost for one step. A world without pairs: nothing to do. Misuse: calling it during
    // a step (from a callback of the narrow phase) frees algorithms in use: undefined behaviour.
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
