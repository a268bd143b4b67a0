// SPDX-License-Identifier: Zlib
// A pile of boxes, spheres and capsules dropped on a landscape mesh of 8 parts with the plugin
// installed: every contact point the box-mesh and sphere-mesh algorithms write, at every step, lies on
// the triangle it names, and its distance is one the geometry has. Checked right after the narrow phase
// (before the solver moves the bodies), against references computed here in long double:
//   - the point on the mesh lies on its triangle (part id and index of the point) within kOnTriangle;
//   - sphere: the distance is the centre's distance to the triangle less the radius, or, pushed out on
//     the side the centre is not on (the sphere came through the face), minus the radius and that distance;
//   - box, apart (distance >= 0): the distance is at least the box's exact distance to the triangle;
//   - box, overlapping: the depth is at most the box's penetration depth into the triangle (the
//     separating-axis depth, on the side the normal points to, with the kernel's axis bias of 2% of the
//     depth plus 0.1% of the size), or at most the farthest any point of the box moved over the step (a
//     box that was wholly in front of the plane and came in through the face is pushed back along the
//     normal, however deep: its points moved at least that far).
// 1,000 bodies over 600 steps in release builds, 250 over 150 in debug (sanitizer) builds.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "analytic/plugin.hpp"
#include "narrowphase/box_mesh.hpp"
#include "narrowphase/pair_algorithm.hpp"
#include "narrowphase/sphere_mesh.hpp"
#include "support/grid_mesh.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::GridMesh;
using test::Real;
using test::RealVec3;

RealVec3 widen(const btVector3& v) { return {Real(v.x()), Real(v.y()), Real(v.z())}; }

// ---------------------------------------------------------------------------------------------------
// References in long double.

struct RealTriangle {
    RealVec3 a, b, c;
};

struct RealBox {
    RealVec3 centre;
    std::array<RealVec3, 3> axes;  // unit
    RealVec3 half;

    RealVec3 corner(int i) const {
        return centre + axes[0] * (i & 1 ? half.x : -half.x) + axes[1] * (i & 2 ? half.y : -half.y) +
               axes[2] * (i & 4 ? half.z : -half.z);
    }
};

RealBox boxOf(const btTransform& transform, const btVector3& half) {
    const btMatrix3x3& basis = transform.getBasis();
    return {widen(transform.getOrigin()),
            {widen(basis.getColumn(0)), widen(basis.getColumn(1)), widen(basis.getColumn(2))},
            widen(half)};
}

// The closest point of the triangle to p (Ericson, Real-Time Collision Detection 5.1.5); inFace: p
// projects inside the triangle (its face region).
RealVec3 closestOnTriangle(const RealVec3& p, const RealTriangle& t, bool* inFace = nullptr) {
    if (inFace) *inFace = false;
    const RealVec3 ab = t.b - t.a, ac = t.c - t.a, ap = p - t.a;
    const Real d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return t.a;
    const RealVec3 bp = p - t.b;
    const Real d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return t.b;
    const Real vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return t.a + ab * (d1 / (d1 - d3));
    const RealVec3 cp = p - t.c;
    const Real d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return t.c;
    const Real vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return t.a + ac * (d2 / (d2 - d6));
    const Real va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0)
        return t.b + (t.c - t.b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    if (inFace) *inFace = true;
    const Real denominator = 1 / (va + vb + vc);
    return t.a + ab * (vb * denominator) + ac * (vc * denominator);
}

Real distanceToTriangle(const RealVec3& p, const RealTriangle& t) {
    return glm::length(p - closestOnTriangle(p, t));
}

Real distanceToBox(const RealVec3& p, const RealBox& box) {
    RealVec3 outside(0);
    for (int k = 0; k < 3; ++k) {
        const Real along = glm::dot(p - box.centre, box.axes[k]);
        outside[k] = std::max(Real(0), std::abs(along) - box.half[k]);
    }
    return glm::length(outside);
}

// The distance between segments p0 p1 and q0 q1 (Ericson 5.1.9).
Real segmentDistance(const RealVec3& p0, const RealVec3& p1, const RealVec3& q0, const RealVec3& q1) {
    const RealVec3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
    const Real a = glm::dot(d1, d1), e = glm::dot(d2, d2), f = glm::dot(d2, r);
    Real s = 0, t = 0;
    if (e <= 0) {
        s = a > 0 ? std::clamp(-glm::dot(d1, r) / a, Real(0), Real(1)) : 0;
    } else {
        const Real c = glm::dot(d1, r), b = glm::dot(d1, d2), denominator = a * e - b * b;
        s = denominator > 0 ? std::clamp((b * f - c * e) / denominator, Real(0), Real(1)) : 0;
        t = (b * s + f) / e;
        if (t < 0) {
            t = 0;
            s = std::clamp(-c / a, Real(0), Real(1));
        } else if (t > 1) {
            t = 1;
            s = std::clamp((b - c) / a, Real(0), Real(1));
        }
    }
    return glm::length((p0 + d1 * s) - (q0 + d2 * t));
}

// The largest gap between the box and the triangle over the separating axes (the triangle's normal, the
// box's faces, the edge pairs; a pair of nearly parallel edges is skipped, which only lowers it): the
// penetration depth negated when <= 0. With a side (a unit normal of the triangle; zero for none), an
// axis pushes the box only toward the side (both ways when perpendicular to it, and the triangle's
// normal only to the side), as box_triangle.hpp's Front and Back do; where the two ways are too close
// to perpendicular to tell, the lower gap.
Real separation(const RealBox& box, const RealTriangle& t, const RealVec3& side) {
    const std::array<RealVec3, 3> vertices{t.a, t.b, t.c};
    const RealVec3 faceNormal = glm::normalize(glm::cross(t.b - t.a, t.c - t.a));
    const auto gap = [&](RealVec3 axis, bool isFace) {
        axis = glm::normalize(axis);
        const Real centre = glm::dot(axis, box.centre);
        Real radius = 0;
        for (int k = 0; k < 3; ++k)
            radius += box.half[k] * std::abs(glm::dot(axis, box.axes[k]));
        Real lowest = std::numeric_limits<Real>::infinity(), highest = -lowest;
        for (const RealVec3& v : vertices) {
            lowest = std::min(lowest, glm::dot(axis, v));
            highest = std::max(highest, glm::dot(axis, v));
        }
        const Real plus = centre - radius - highest, minus = lowest - centre - radius;
        const Real along = glm::dot(axis, side);
        if (isFace && side != RealVec3(0)) return along > 0 ? plus : minus;
        if (side == RealVec3(0)) return std::max(plus, minus);
        if (along > Real(1e-6)) return plus;
        if (along < Real(-1e-6)) return minus;
        return std::min(plus, minus);
    };
    Real largest = gap(faceNormal, true);
    for (int k = 0; k < 3; ++k)
        largest = std::max(largest, gap(box.axes[k], false));
    for (int j = 0; j < 3; ++j) {
        const RealVec3 edge = vertices[(j + 1) % 3] - vertices[j];
        for (int k = 0; k < 3; ++k) {
            const RealVec3 axis = glm::cross(box.axes[k], edge);
            if (glm::dot(axis, axis) > Real(1e-12) * glm::dot(edge, edge))
                largest = std::max(largest, gap(axis, false));
        }
    }
    return largest;
}

// The distance between box and triangle: 0 when they overlap, else that of the closest pair of features.
Real boxTriangleDistance(const RealBox& box, const RealTriangle& t) {
    if (separation(box, t, RealVec3(0)) <= 0) return 0;
    const std::array<RealVec3, 3> vertices{t.a, t.b, t.c};
    Real nearest = std::numeric_limits<Real>::infinity();
    for (int i = 0; i < 8; ++i)
        nearest = std::min(nearest, distanceToTriangle(box.corner(i), t));
    for (const RealVec3& v : vertices)
        nearest = std::min(nearest, distanceToBox(v, box));
    for (int i = 0; i < 8; ++i) {
        for (int k = 0; k < 3; ++k) {
            if (i & (1 << k)) continue;  // each edge once, from its corner on the low side of axis k
            for (int j = 0; j < 3; ++j)
                nearest = std::min(nearest, segmentDistance(box.corner(i), box.corner(i | (1 << k)),
                                                            vertices[j], vertices[(j + 1) % 3]));
        }
    }
    return nearest;
}

// The farthest any point of the box moved from one placement to the other (at a corner: the motion is
// affine in the point, its length convex).
Real largestMotion(const RealBox& from, const RealBox& to) {
    Real largest = 0;
    for (int i = 0; i < 8; ++i)
        largest = std::max(largest, glm::length(to.corner(i) - from.corner(i)));
    return largest;
}

// ---------------------------------------------------------------------------------------------------
// The scene.

// Rolling hills with slopes up to about 55 degrees, ridges and hollows.
btScalar hillHeight(btScalar x, btScalar z) {
    const double u = double(x), w = double(z);
    return btScalar(2.5 * std::sin(0.21 * u) * std::cos(0.17 * w) + 1.2 * std::sin(0.37 * u + 0.29 * w) +
                    0.5 * std::cos(0.8 * u - 0.6 * w));
}

constexpr int kPartsX = 4, kPartsZ = 2, kQuadsX = 25, kQuadsZ = 20;
constexpr btScalar kCell = 1.25;
const btVector3 kMeshOrigin(0, -2, 0);

#ifdef NDEBUG
constexpr int kLayers = 4, kSteps = 600;  // 1,000 bodies, the scene
#else
constexpr int kLayers = 1, kSteps = 150;  // 250 bodies: sanitizer builds are slow
#endif
constexpr int kColumnsX = 25, kColumnsZ = 10;

// A world with the plugin whose dispatcher calls check() right after each narrow phase.
class CheckingDispatcher : public btCollisionDispatcher {
public:
    using btCollisionDispatcher::btCollisionDispatcher;

    void dispatchAllCollisionPairs(btOverlappingPairCache* pairs, const btDispatcherInfo& info,
                                   btDispatcher* dispatcher) override {
        // Points the algorithms leave as they were (refreshed, not written this step) keep the mark.
        for (int i = 0; i < getNumManifolds(); ++i) {
            btPersistentManifold& manifold = *getManifoldByIndexInternal(i);
            for (int j = 0; j < manifold.getNumContacts(); ++j) {
                EXPECT_EQ(manifold.getContactPoint(j).m_frictionCFM, 0);
                manifold.getContactPoint(j).m_frictionCFM = kMark;
            }
        }
        btCollisionDispatcher::dispatchAllCollisionPairs(pairs, info, dispatcher);
        if (check) check(*this);
        for (int i = 0; i < getNumManifolds(); ++i) {
            btPersistentManifold& manifold = *getManifoldByIndexInternal(i);
            for (int j = 0; j < manifold.getNumContacts(); ++j)
                manifold.getContactPoint(j).m_frictionCFM = 0;
        }
    }

    static bool isFresh(const btManifoldPoint& point) { return point.m_frictionCFM != kMark; }

    std::function<void(CheckingDispatcher&)> check;

private:
    static constexpr btScalar kMark = btScalar(12345);
};

struct Tally {
    long points = 0;
    long offTriangle = 0;
    long wrongDistance = 0;
    long deeperThan10cm = 0;
    Real farthestOffTriangle = 0;
    Real largestExcess = 0;  // of a distance beyond what the geometry allows
    Real deepest = 0;
};

class PileScene {
public:
    explicit PileScene(bool analytic) {
        for (int pz = 0; pz < kPartsZ; ++pz)
            for (int px = 0; px < kPartsX; ++px)
                mesh_.addGrid(kQuadsX, kQuadsZ, kCell,
                              btVector3(btScalar(-62.5 + px * kQuadsX * kCell), 0,
                                        btScalar(-25 + pz * kQuadsZ * kCell)),
                              hillHeight);
        world_.setGravity(btVector3(0, btScalar(-9.81), 0));
        meshShape_ = std::make_unique<btBvhTriangleMeshShape>(&mesh_.array(), true);
        meshObject_ = add(*meshShape_, btTransform(btQuaternion::getIdentity(), kMeshOrigin), 0);

        test::Random random(16);
        for (int layer = 0; layer < kLayers; ++layer) {
            for (int k = 0; k < kColumnsZ; ++k) {
                for (int i = 0; i < kColumnsX; ++i) {
                    const int n = int(shapes_.size());
                    std::unique_ptr<btCollisionShape> shape;
                    if (n % 3 == 0)
                        shape = std::make_unique<btBoxShape>(btVector3(btScalar(random.uniform(0.2, 0.6)),
                                                                       btScalar(random.uniform(0.2, 0.6)),
                                                                       btScalar(random.uniform(0.2, 0.6))));
                    else if (n % 3 == 1)
                        shape = std::make_unique<btSphereShape>(btScalar(random.uniform(0.25, 0.6)));
                    else
                        shape = std::make_unique<btCapsuleShape>(btScalar(random.uniform(0.15, 0.35)),
                                                                 btScalar(random.uniform(0.3, 0.9)));
                    const btScalar x = btScalar(-24 + 2 * i + random.uniform(-0.3, 0.3));
                    const btScalar z = btScalar(-9 + 2 * k + random.uniform(-0.3, 0.3));
                    const btScalar y = kMeshOrigin.y() + hillHeight(x, z) + btScalar(3 + 2.2 * layer);
                    const Mat3<double> r = random.rotation<double>();
                    btMatrix3x3 basis;
                    for (int row = 0; row < 3; ++row)
                        basis[row] = btVector3(btScalar(r[0][row]), btScalar(r[1][row]), btScalar(r[2][row]));
                    add(*shape, btTransform(basis, btVector3(x, y, z)), 1);
                    shapes_.push_back(std::move(shape));
                }
            }
        }
        if (analytic) plugin_ = std::make_unique<Plugin>(world_);
        dispatcher_.check = [this](CheckingDispatcher& dispatcher) { checkContacts(dispatcher); };
    }

    ~PileScene() {
        for (const auto& body : bodies_)
            world_.removeRigidBody(body.get());
    }

    void step() { world_.stepSimulation(btScalar(1) / 60, 0); }

    const Tally& boxes() const { return boxes_; }
    const Tally& spheres() const { return spheres_; }

    // How many box-mesh and sphere-mesh pairs the plugin's algorithms handle, and how many anything else.
    std::array<int, 2> meshPairsByOurs() {
        std::array<int, 2> counts{0, 0};
        btBroadphasePairArray& pairs = broadphase_.getOverlappingPairCache()->getOverlappingPairArray();
        for (int i = 0; i < pairs.size(); ++i) {
            const auto* a = static_cast<const btCollisionObject*>(pairs[i].m_pProxy0->m_clientObject);
            const auto* b = static_cast<const btCollisionObject*>(pairs[i].m_pProxy1->m_clientObject);
            if (a != meshObject_ && b != meshObject_) continue;
            const int type = (a == meshObject_ ? b : a)->getCollisionShape()->getShapeType();
            btCollisionAlgorithm* algorithm = pairs[i].m_algorithm;
            if (type == BOX_SHAPE_PROXYTYPE)
                ++counts[dynamic_cast<narrowphase::PairAlgorithm<narrowphase::BoxMesh>*>(algorithm) ? 0 : 1];
            if (type == SPHERE_SHAPE_PROXYTYPE)
                ++counts[dynamic_cast<narrowphase::PairAlgorithm<narrowphase::SphereMesh>*>(algorithm) ? 0
                                                                                                       : 1];
        }
        return counts;
    }

private:
    btRigidBody* add(btCollisionShape& shape, const btTransform& transform, btScalar mass) {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape.calculateLocalInertia(mass, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, &shape, inertia);
        info.m_startWorldTransform = transform;
        bodies_.push_back(std::make_unique<btRigidBody>(info));
        world_.addRigidBody(bodies_.back().get());
        return bodies_.back().get();
    }

    RealTriangle triangle(int part, int index) {
        const unsigned char *vertexBase, *indexBase;
        int vertexCount, vertexStride, indexStride, triangleCount;
        PHY_ScalarType vertexType, indexType;
        const btTriangleIndexVertexArray& array = mesh_.array();
        array.getLockedReadOnlyVertexIndexBase(&vertexBase, vertexCount, vertexType, vertexStride, &indexBase,
                                               indexStride, triangleCount, indexType, part);
        EXPECT_LT(index, triangleCount);
        const int* indices = reinterpret_cast<const int*>(indexBase + index * indexStride);
        std::array<RealVec3, 3> v;
        for (int j = 0; j < 3; ++j) {
            const auto* xyz = reinterpret_cast<const btScalar*>(vertexBase + indices[j] * vertexStride);
            v[j] = RealVec3(Real(xyz[0]), Real(xyz[1]), Real(xyz[2])) + widen(kMeshOrigin);
        }
        array.unLockReadOnlyVertexBase(part);
        return {v[0], v[1], v[2]};
    }

    void checkContacts(CheckingDispatcher& dispatcher);

    GridMesh mesh_;
    btDefaultCollisionConfiguration configuration_;
    CheckingDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btDiscreteDynamicsWorld world_{&dispatcher_, &broadphase_, &solver_, &configuration_};
    std::unique_ptr<btBvhTriangleMeshShape> meshShape_;
    btRigidBody* meshObject_ = nullptr;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
    std::unique_ptr<Plugin> plugin_;
    std::map<const btCollisionObject*, btTransform> previous_;  // each body where it was at the last step
    Tally boxes_, spheres_;
    int failuresShown_ = 0;
};

// Rounding allowed, on the triangle and in a distance: 16 roundings of the scene's largest coordinates
// (64 m) in the scalar, 0.12 mm in float, 2.3e-13 m in double. The kernels work in the box's or the
// sphere's frame, from offsets of vertices that far out, and go back: a few roundings there, and a few
// relative to the body's size in the clipping.
const Real kScale = 64;
const Real kOnTriangle = 16 * Real(std::numeric_limits<btScalar>::epsilon()) * kScale;
const Real kDistanceTolerance = kOnTriangle;

void PileScene::checkContacts(CheckingDispatcher& dispatcher) {
    for (int i = 0; i < dispatcher.getNumManifolds(); ++i) {
        const btPersistentManifold& manifold = *dispatcher.getManifoldByIndexInternal(i);
        const bool meshIs1 = manifold.getBody1() == meshObject_;
        if (!meshIs1 && manifold.getBody0() != meshObject_) continue;
        const btCollisionObject& body = *(meshIs1 ? manifold.getBody0() : manifold.getBody1());
        const int type = body.getCollisionShape()->getShapeType();
        if (type != BOX_SHAPE_PROXYTYPE && type != SPHERE_SHAPE_PROXYTYPE) continue;
        const bool isBox = type == BOX_SHAPE_PROXYTYPE;
        Tally& tally = isBox ? boxes_ : spheres_;
        for (int j = 0; j < manifold.getNumContacts(); ++j) {
            const btManifoldPoint& point = manifold.getContactPoint(j);
            if (!CheckingDispatcher::isFresh(point)) continue;
            ++tally.points;
            const RealTriangle t = meshIs1 ? triangle(point.m_partId1, point.m_index1)
                                           : triangle(point.m_partId0, point.m_index0);
            const RealVec3 onMesh =
                widen(meshIs1 ? point.getPositionWorldOnB() : point.getPositionWorldOnA());
            const RealVec3 normal = widen(point.m_normalWorldOnB) * Real(meshIs1 ? 1 : -1);  // mesh to body
            const Real distance = Real(point.getDistance());
            const Real offTriangle = distanceToTriangle(onMesh, t);
            Real excess = 0;  // beyond what the geometry allows
            if (isBox) {
                const auto& shape = static_cast<const btBoxShape&>(*body.getCollisionShape());
                const RealBox box = boxOf(body.getWorldTransform(), shape.getHalfExtentsWithMargin());
                if (distance >= 0) {
                    excess = boxTriangleDistance(box, t) - distance;
                } else {
                    const RealVec3 faceNormal = glm::normalize(glm::cross(t.b - t.a, t.c - t.a));
                    const Real alongFace = glm::dot(normal, faceNormal);
                    const auto depthOnSide = [&](const RealVec3& side) {
                        return std::max(Real(0), -separation(box, t, side));
                    };
                    // Normals within 30 degrees of the plane are taken on either side.
                    const Real penetration =
                        2 * std::abs(alongFace) >= 1
                            ? depthOnSide(alongFace > 0 ? faceNormal : -faceNormal)
                            : std::max(depthOnSide(faceNormal), depthOnSide(-faceNormal));
                    const Real size =
                        box.half.x + box.half.y + box.half.z +
                        std::max({glm::length(t.b - t.a), glm::length(t.c - t.b), glm::length(t.a - t.c)});
                    Real allowed = (penetration + Real(1e-3) * size) / Real(0.98);
                    const auto previous = previous_.find(&body);
                    if (previous != previous_.end())
                        allowed = std::max(
                            allowed,
                            largestMotion(boxOf(previous->second, shape.getHalfExtentsWithMargin()), box));
                    excess = -distance - allowed;
                }
            } else {
                const RealVec3 centre = widen(body.getWorldTransform().getOrigin());
                const Real radius =
                    Real(static_cast<const btSphereShape&>(*body.getCollisionShape()).getRadius());
                bool inFace;
                const RealVec3 nearest = closestOnTriangle(centre, t, &inFace);
                const Real centreDistance = glm::length(centre - nearest);
                const Real outside = std::abs(distance - (centreDistance - radius));
                // Pushed out on the other side than the centre's: only from the face region.
                const Real throughFace = inFace && glm::dot(normal, centre - nearest) < 0
                                             ? std::abs(distance + radius + centreDistance)
                                             : std::numeric_limits<Real>::infinity();
                excess = std::min(outside, throughFace);
                excess = std::max(excess, glm::length(onMesh - nearest));
            }
            if (-distance > Real(0.1)) ++tally.deeperThan10cm;
            tally.deepest = std::max(tally.deepest, -distance);
            tally.farthestOffTriangle = std::max(tally.farthestOffTriangle, offTriangle);
            tally.largestExcess = std::max(tally.largestExcess, excess);
            const bool off = offTriangle > kOnTriangle, wrong = excess > kDistanceTolerance;
            tally.offTriangle += off;
            tally.wrongDistance += wrong;
            if ((off || wrong) && failuresShown_ < 12) {
                ++failuresShown_;
                std::printf(
                    "[ phantom ] %s: part %d triangle %d, distance %.6Lf, %.3Le off the triangle, "
                    "%.3Le beyond the geometry\n",
                    isBox ? "box" : "sphere", meshIs1 ? point.m_partId1 : point.m_partId0,
                    meshIs1 ? point.m_index1 : point.m_index0, distance, offTriangle, excess);
            }
        }
    }
    for (const auto& rigid : bodies_)
        previous_[rigid.get()] = rigid->getWorldTransform();
}

void print(const char* name, const Tally& tally) {
    std::printf(
        "[ contacts ] %s-mesh: %ld points, %ld off their triangle (farthest %.3Le), %ld with a distance "
        "the geometry has not (largest excess %.3Le), %ld deeper than 10 cm (deepest %.4Lf)\n",
        name, tally.points, tally.offTriangle, tally.farthestOffTriangle, tally.wrongDistance,
        tally.largestExcess, tally.deeperThan10cm, tally.deepest);
}

TEST(MeshPileContacts, EveryBoxAndSphereContactLiesOnItsTriangleAtADistanceTheGeometryHas) {
    PileScene scene(true);
    for (int i = 0; i < kSteps; ++i)
        scene.step();
    print("box", scene.boxes());
    print("sphere", scene.spheres());
    const std::array<int, 2> pairs = scene.meshPairsByOurs();
    EXPECT_GT(pairs[0], 0);
    EXPECT_EQ(pairs[1], 0);
    EXPECT_GT(scene.boxes().points, 1000);
    EXPECT_GT(scene.spheres().points, 1000);
    for (const Tally* tally : {&scene.boxes(), &scene.spheres()}) {
        EXPECT_EQ(tally->offTriangle, 0);
        EXPECT_EQ(tally->wrongDistance, 0);
    }
}

}  // namespace
}  // namespace analytic
