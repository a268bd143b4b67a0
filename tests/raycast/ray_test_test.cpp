// SPDX-License-Identifier: Zlib
// analytic::rayTest (issue 4) in Bullet worlds, in the build's btScalar: the world classes answer
// rayTest through the virtual; random worlds of every exactly-met shape (sphere, box, capsule X/Y/Z,
// cylinder X/Y/Z, cone X/Y/Z grown by its margin, static plane) against a long double reference of the
// closest hit over all objects; parity with Bullet's own btCollisionWorld::rayTest where Bullet is within
// its own tolerance, and the cases where Bullet is wrong; the callback semantics (all hits, filtering,
// needsCollision, early termination, plane flags, mesh and compound fallbacks, invalid rays); the other
// broadphases; threads.
//
// Bounds, with u the unit roundoff of btScalar and S the scale of a ray and object (|from| + |to| +
// |object centre| + the object's reach from its centre; for the plane |from| + |to| + |plane offset|):
// - band: hit/miss and the closest object are compared wherever growing and shrinking every solid by
//   64 u S (and moving the ray's ends by as much) leaves the reference's answer unchanged; a plane is
//   undecided when an end of the ray lies within 64 u S of it.
// - fraction: the reported fraction lies between the first hits of the solid grown and shrunk by 8 u S
//   (that is 8 u S / cos(incidence) along the ray away from an edge; near an edge the worse of the two
//   faces' conditions), and for a plane moved by 32 u S (the core's on-plane tolerance); a ray whose
//   origin is inside the solid shrunk by the band hits at exactly 0. This is stated against S, not the
//   ray's length: a short ray far from the origin cannot be resolved better than its end points.
// - normal: within 32 u (1 + S / (r cos(incidence))) radians of the exact one, r the radius of the round
//   surface hit (the half height for a cylinder's cap, whose normal comes from its axis; infinite for a
//   box face or a plane), where the solid grown and shrunk by 64 u S is hit on the same feature; -unit
//   direction for origins inside.
// - point: ClosestRayResultCallback's m_hitPointWorld is within 2 u (|from| + |to|) of from + f (to - from).
#include <btBulletDynamicsCommon.h>
#include <gtest/gtest.h>

#include <BulletCollision/BroadphaseCollision/btAxisSweep3.h>
#include <BulletCollision/BroadphaseCollision/btDbvtBroadphase.h>
#include <BulletCollision/BroadphaseCollision/btSimpleBroadphase.h>
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "analytic/ellipsoid_shape.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/world.hpp"
#include "reference/ray_box_reference.hpp"
#include "reference/ray_cone_reference.hpp"
#include "reference/ray_round_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/grid_mesh.hpp"
#include "support/test_support.hpp"

namespace analytic::test {
namespace {

constexpr Real u = Real(unitRoundoff<btScalar>);
constexpr Real kInfinity = std::numeric_limits<Real>::infinity();
constexpr bool kDouble = sizeof(btScalar) == 8;

constexpr Real kBand = 64;           // hit/miss and closest object: solids grown and shrunk by kBand u S
constexpr Real kFraction = 8;        // fraction: between the solid grown and shrunk by kFraction u S
constexpr Real kPlaneFraction = 32;  // the plane's: the core's on-plane tolerance, 32 u S
constexpr Real kNormal = 32;         // normal: kNormal u (1 + S / (r cos))

constexpr int kRaysPerWorld = 100000;  // about 35 s in the Debug ASan+UBSan build, 3 s in Release

constexpr double kWorldExtent = 20;  // objects' centres in [-20, 20]^3

RealVec3 widen(const btVector3& v) { return {Real(v.x()), Real(v.y()), Real(v.z())}; }

btVector3 toBullet(const VecN<double, 3>& v) {
    return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z));
}

Real length(const RealVec3& v) { return std::sqrt(glm::dot(v, v)); }

// ---- Worlds ---------------------------------------------------------------------------------------

enum class Broadphase { Dbvt, Simple, AxisSweep };

// A world whose rayTest is ours (analytic::World over btCollisionWorld, or analytic::DiscreteDynamicsWorld),
// owning its shapes and objects; each object's user index is its position in the world.
class RayWorld {
public:
    explicit RayWorld(Broadphase broadphase = Broadphase::Dbvt, bool dynamics = false)
        : broadphase_(makeBroadphase(broadphase)) {
        if (dynamics)
            world_ = std::make_unique<DiscreteDynamicsWorld>(&dispatcher_, broadphase_.get(), &solver_,
                                                             &configuration_);
        else
            world_ =
                std::make_unique<World<btCollisionWorld>>(&dispatcher_, broadphase_.get(), &configuration_);
    }

    ~RayWorld() {
        for (const auto& object : objects_)
            world_->removeCollisionObject(object.get());
    }

    RayWorld(const RayWorld&) = delete;
    RayWorld& operator=(const RayWorld&) = delete;

    btCollisionWorld& world() { return *world_; }
    const btCollisionWorld& world() const { return *world_; }

    template <class Shape, class... Arguments> Shape& makeShape(Arguments&&... arguments) {
        auto shape = std::make_unique<Shape>(std::forward<Arguments>(arguments)...);
        Shape& made = *shape;
        shapes_.push_back(std::move(shape));
        return made;
    }

    btCollisionObject& add(btCollisionShape& shape, const btTransform& transform,
                           int group = btBroadphaseProxy::DefaultFilter,
                           int mask = btBroadphaseProxy::AllFilter) {
        auto object = std::make_unique<btCollisionObject>();
        object->setCollisionShape(&shape);
        object->setWorldTransform(transform);
        object->setUserIndex(int(objects_.size()));
        world_->addCollisionObject(object.get(), group, mask);
        objects_.push_back(std::move(object));
        return *objects_.back();
    }

    int size() const { return int(objects_.size()); }
    const btCollisionObject& object(int index) const { return *objects_[std::size_t(index)]; }

    // Every object's broadphase box updated, then the objects so far put to sleep and kept out of later
    // updates, so that btDbvtBroadphase moves them into its second (fixed) tree after two of its updates.
    void settle() {
        world_->updateAabbs();
        for (const auto& object : objects_)
            object->setActivationState(ISLAND_SLEEPING);
        world_->setForceUpdateAllAabbs(false);
        for (int i = 0; i < 3; ++i)
            world_->performDiscreteCollisionDetection();
    }

private:
    static std::unique_ptr<btBroadphaseInterface> makeBroadphase(Broadphase kind) {
        switch (kind) {
            case Broadphase::Simple:
                return std::make_unique<btSimpleBroadphase>();
            case Broadphase::AxisSweep:
                return std::make_unique<btAxisSweep3>(btVector3(-1000, -1000, -1000),
                                                      btVector3(1000, 1000, 1000));
            case Broadphase::Dbvt:
                break;
        }
        return std::make_unique<btDbvtBroadphase>();
    }

    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    std::unique_ptr<btBroadphaseInterface> broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    std::unique_ptr<btCollisionWorld> world_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btCollisionObject>> objects_;
};

// Bullet's own rayTest on the same world (the base class's, not the override).
void bulletRayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
                   btCollisionWorld::RayResultCallback& callback) {
    world.btCollisionWorld::rayTest(from, to, callback);
}

// ---- The exact solids, in long double, from what the Bullet shapes say of themselves ---------------

enum class Kind { Sphere, Box, Capsule, Cylinder, Cone, Plane };

struct Body {
    Kind kind;
    RealVec3 center;
    std::array<RealVec3, 3> axes;  // the transform's basis columns
    RealVec3 halfExtents;          // box
    int upAxis = 1;                // capsule, cylinder, cone (its apex at +halfHeight)
    Real radius = 0, halfHeight = 0;
    Real margin = 0;       // cone
    RealVec3 planeNormal;  // plane: dot(planeNormal, x) = planeOffset
    Real planeOffset = 0;
    Real reach = 0;  // largest distance of a point of the solid from its centre

    RealVec3 axisEnd(Real side) const { return center + side * halfHeight * axes[std::size_t(upAxis)]; }
    RealVec3 axis() const { return axes[std::size_t(upAxis)]; }
};

Body bodyOf(const btCollisionShape& shape, const btTransform& transform) {
    Body body{};
    body.center = widen(transform.getOrigin());
    for (int i = 0; i < 3; ++i)
        body.axes[std::size_t(i)] = widen(transform.getBasis().getColumn(i));
    switch (shape.getShapeType()) {
        case SPHERE_SHAPE_PROXYTYPE:
            body.kind = Kind::Sphere;
            body.radius = Real(static_cast<const btSphereShape&>(shape).getRadius());
            body.reach = body.radius;
            break;
        case BOX_SHAPE_PROXYTYPE:
            body.kind = Kind::Box;
            body.halfExtents = widen(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin());
            body.reach = length(body.halfExtents);
            break;
        case CAPSULE_SHAPE_PROXYTYPE: {
            const auto& capsule = static_cast<const btCapsuleShape&>(shape);
            body.kind = Kind::Capsule;
            body.upAxis = capsule.getUpAxis();
            body.radius = Real(capsule.getRadius());
            body.halfHeight = Real(capsule.getHalfHeight());
            body.reach = body.radius + body.halfHeight;
            break;
        }
        case CYLINDER_SHAPE_PROXYTYPE: {
            // Bullet's cylinders are round about the up axis with the radius of the first other axis.
            const auto& cylinder = static_cast<const btCylinderShape&>(shape);
            const RealVec3 half = widen(cylinder.getHalfExtentsWithMargin());
            body.kind = Kind::Cylinder;
            body.upAxis = cylinder.getUpAxis();
            body.radius = half[body.upAxis == 0 ? 1 : 0];
            body.halfHeight = half[body.upAxis];
            body.reach = std::hypot(body.radius, body.halfHeight);
            break;
        }
        case CONE_SHAPE_PROXYTYPE: {
            // Bullet's cone: apex at +height / 2 along the up axis, base at -height / 2, grown by the margin.
            const auto& cone = static_cast<const btConeShape&>(shape);
            body.kind = Kind::Cone;
            body.upAxis = cone.getConeUpIndex();
            body.radius = Real(cone.getRadius());
            body.halfHeight = Real(cone.getHeight()) / 2;
            body.margin = Real(cone.getMargin());
            // The rim's sharp corner (the grown base's edge) is the farthest point of the solid met.
            body.reach = std::hypot(body.radius + body.margin, body.halfHeight + body.margin);
            break;
        }
        case STATIC_PLANE_PROXYTYPE: {
            const auto& plane = static_cast<const btStaticPlaneShape&>(shape);
            const RealVec3 local = widen(plane.getPlaneNormal());
            body.kind = Kind::Plane;
            body.planeNormal = body.axes[0] * local.x + body.axes[1] * local.y + body.axes[2] * local.z;
            body.planeOffset = Real(plane.getPlaneConstant()) + glm::dot(body.planeNormal, body.center);
            body.reach = kInfinity;
            break;
        }
        default:
            ADD_FAILURE() << "no reference for shape type " << shape.getShapeType();
    }
    return body;
}

Body bodyOf(const btCollisionObject& object) {
    return bodyOf(*object.getCollisionShape(), object.getWorldTransform());
}

// Where the line origin + t direction is inside the solid grown by `grow` (shrunk when negative), and
// the entry's normal and surface feature (box face, cylinder side or cap).
struct LineThrough {
    Real entry, exit;
    RealVec3 entryNormal;
    int feature;
};

std::optional<LineThrough> lineThrough(const Body& body, const RealVec3& origin, const RealVec3& direction,
                                       Real grow) {
    const auto fromCrossing = [](const std::optional<ReferenceCrossing<3>>& crossing, int feature) {
        return crossing ? std::optional(LineThrough{crossing->entry.t, crossing->exit.t,
                                                    crossing->entry.normal, feature})
                        : std::nullopt;
    };
    switch (body.kind) {
        case Kind::Sphere:
            return fromCrossing(referenceLineSphere<3>(origin, direction, body.center, body.radius + grow),
                                0);
        case Kind::Capsule:
            return fromCrossing(referenceLineCapsule(origin, direction, body.axisEnd(-1), body.axisEnd(1),
                                                     body.radius + grow),
                                0);
        case Kind::Cylinder: {
            const auto crossing = referenceLineCylinder(origin, direction, body.axisEnd(-1), body.axisEnd(1),
                                                        body.radius, grow);
            if (!crossing) return std::nullopt;
            const bool cap = std::abs(glm::dot(crossing->entry.normal, body.axis())) > 0.5L;
            return fromCrossing(crossing, cap ? 1 : 0);
        }
        case Kind::Cone: {
            int solid = 0;  // the feature: which of the rounded cone's solids the entry lies on
            const auto crossing = referenceLineRoundedCone(
                origin, direction, ReferenceCone{body.axisEnd(1), body.axisEnd(-1), body.radius}, body.margin,
                grow, &solid);
            return fromCrossing(crossing, solid);
        }
        case Kind::Box: {
            const reference::SlabBox box{body.center,
                                         body.axes,
                                         {-body.halfExtents.x, -body.halfExtents.y, -body.halfExtents.z},
                                         {body.halfExtents.x, body.halfExtents.y, body.halfExtents.z}};
            const reference::LineCrossing crossing =
                reference::crossLine(reference::grown(box, direction, grow), origin, direction);
            if (!crossing.meets) return std::nullopt;
            return LineThrough{
                crossing.entry, crossing.exit,
                glm::normalize(reference::faceNormal(box, crossing.entryAxis, crossing.entryHigh)),
                2 * crossing.entryAxis + int(crossing.entryHigh)};
        }
        case Kind::Plane:
            break;
    }
    return std::nullopt;
}

// The first hit, under the hit-at-origin policy, of a line crossing restricted to t in [low, high]
// (+infinity: none).
Real firstHitWithin(const std::optional<LineThrough>& crossing, Real low, Real high) {
    if (!crossing || crossing->exit < low || crossing->entry > high) return kInfinity;
    return std::max(crossing->entry, Real(0));
}

// What the reference says of one object for one ray from -> to.
struct Expected {
    int index = -1;
    Real scale = 0;
    // Earliest possible and latest first hit when the solid may be grown or shrunk by the band (hi infinite:
    // it may be missed), and the same for the fraction's bound.
    Real lo = kInfinity, hi = kInfinity;
    Real fractionLo = kInfinity, fractionHi = kInfinity;
    // The exact first hit (grow 0) within [0, 1].
    bool hits = false;
    Real t = kInfinity;
    bool inside = false;
    RealVec3 normal{0};
    Real cosIncidence = 1;
    Real radius = kInfinity;  // of the surface hit, for the normal bound
    bool normalDecided = false;

    bool possible() const { return lo < kInfinity; }
    bool sure() const { return hi < kInfinity; }
};

struct Segment {
    RealVec3 from, to, direction;
    Real length;
};

Segment segmentOf(const btVector3& from, const btVector3& to) {
    const RealVec3 a = widen(from), b = widen(to);
    return {a, b, b - a, length(b - a)};
}

Expected expectPlane(const Body& body, const Segment& ray, Expected expected) {
    const Real d0 = glm::dot(body.planeNormal, ray.from) - body.planeOffset;
    const Real d1 = glm::dot(body.planeNormal, ray.to) - body.planeOffset;
    const bool crosses = (d0 > 0) != (d1 > 0) || d0 == 0 || d1 == 0;
    const auto interval = [&](Real margin, Real& lo, Real& hi) {
        const bool reaches = std::abs(d0) <= margin || std::abs(d1) <= margin || crosses;
        lo = !reaches ? kInfinity : std::abs(d0) <= margin ? 0 : (std::abs(d0) - margin) / std::abs(d0 - d1);
        const bool sure = std::abs(d0) > margin && std::abs(d1) > margin && crosses;
        hi = sure ? (std::abs(d0) + margin) / std::abs(d0 - d1) : kInfinity;
    };
    interval(kBand * u * expected.scale, expected.lo, expected.hi);
    interval(kPlaneFraction * u * expected.scale, expected.fractionLo, expected.fractionHi);
    if (crosses && d0 != d1) {
        expected.hits = true;
        expected.t = d0 / (d0 - d1);
        expected.normal = d0 > 0 ? body.planeNormal : -body.planeNormal;
        expected.cosIncidence = std::abs(d0 - d1) / ray.length;
    }
    expected.normalDecided = std::abs(d0) > kBand * u * expected.scale && expected.sure();
    return expected;
}

Expected expect(const Body& body, int index, const Segment& ray) {
    Expected expected;
    expected.index = index;
    expected.scale =
        length(ray.from) + length(ray.to) +
        (body.kind == Kind::Plane ? std::abs(body.planeOffset) : length(body.center) + body.reach);
    if (body.kind == Kind::Plane) return expectPlane(body, ray, expected);
    const Real band = kBand * u * expected.scale, fraction = kFraction * u * expected.scale;
    // Objects whose bounding ball the segment misses by more than the band: nothing to compute.
    const Real along = std::clamp(glm::dot(body.center - ray.from, ray.direction) / (ray.length * ray.length),
                                  Real(0), Real(1));
    if (length(ray.from + along * ray.direction - body.center) > body.reach * (1 + 1e-9L) + band)
        return expected;
    const auto grown = lineThrough(body, ray.from, ray.direction, band);
    const auto shrunk = lineThrough(body, ray.from, ray.direction, -band);
    expected.lo = firstHitWithin(grown, -band / ray.length, 1 + band / ray.length);
    expected.hi = firstHitWithin(shrunk, 0, 1 - band / ray.length);
    expected.fractionLo = firstHitWithin(lineThrough(body, ray.from, ray.direction, fraction),
                                         -fraction / ray.length, 1 + fraction / ray.length);
    expected.fractionHi =
        firstHitWithin(lineThrough(body, ray.from, ray.direction, -fraction), 0, 1 - fraction / ray.length);
    const auto exact = lineThrough(body, ray.from, ray.direction, 0);
    expected.t = firstHitWithin(exact, 0, 1);
    expected.hits = expected.t < kInfinity;
    if (!expected.hits) return expected;
    expected.inside = exact->entry < 0;
    expected.normal = expected.inside ? -ray.direction / ray.length : exact->entryNormal;
    expected.cosIncidence = std::abs(glm::dot(exact->entryNormal, ray.direction)) / ray.length;
    switch (body.kind) {
        case Kind::Sphere:
        case Kind::Capsule:
            expected.radius = body.radius;
            break;
        case Kind::Cylinder:
            expected.radius = exact->feature == 1 ? body.halfHeight : body.radius;
            break;
        case Kind::Cone:
            expected.radius = body.margin;  // the smallest radius of curvature of its surface (the apex's)
            break;
        default:
            break;
    }
    expected.normalDecided = grown && shrunk && grown->feature == shrunk->feature &&
                             (grown->entry < 0) == (shrunk->entry < 0) && grown->feature == exact->feature;
    return expected;
}

// The reference's view of one ray through a world: every object the ray may hit within the band.
struct RayExpectation {
    Segment ray;
    std::vector<Expected> possible;

    bool sureHit() const {
        return std::any_of(possible.begin(), possible.end(), [](const Expected& e) { return e.sure(); });
    }
    Real nearestSure() const {
        Real nearest = kInfinity;
        for (const Expected& e : possible)
            nearest = std::min(nearest, e.hi);
        return nearest;
    }
    const Expected* find(int index) const {
        for (const Expected& e : possible)
            if (e.index == index) return &e;
        return nullptr;
    }
    // The object that is the closest however the solids move within the band, if there is one.
    const Expected* decidedClosest() const {
        const Real nearest = nearestSure();
        const Expected* closest = nullptr;
        for (const Expected& e : possible) {
            if (e.lo > nearest) continue;
            if (closest) return nullptr;
            closest = &e;
        }
        return closest;
    }
};

RayExpectation expectRay(const std::vector<Body>& bodies, const btVector3& from, const btVector3& to,
                         const std::function<bool(int)>& considered = {}) {
    RayExpectation expectation{segmentOf(from, to), {}};
    for (int i = 0; i < int(bodies.size()); ++i) {
        if (considered && !considered(i)) continue;
        const Expected expected = expect(bodies[std::size_t(i)], i, expectation.ray);
        if (expected.possible()) expectation.possible.push_back(expected);
    }
    return expectation;
}

std::vector<Body> bodiesOf(const RayWorld& world) {
    std::vector<Body> bodies;
    for (int i = 0; i < world.size(); ++i)
        bodies.push_back(bodyOf(world.object(i)));
    return bodies;
}

// ---- Random worlds and rays ---------------------------------------------------------------------------

btTransform randomTransform(Random& random, double extent) {
    return transformOf(random.rotation<btScalar>(), toBullet(VecN<double, 3>(random.point<double>(extent))));
}

// A solid of the kind, sized log-uniformly, rotated and placed at random; local scaling where Bullet's
// shape honours it (sphere uniformly, box per axis, cylinder along and across its axis).
btCollisionObject& addRandomSolid(RayWorld& world, Random& random, Kind kind) {
    const auto size = [&] { return btScalar(random.logUniform(0.05, 3)); };
    const auto scaling = [&] { return btScalar(random.uniform(0.5, 2)); };
    const int upAxis = int(random.uniform(0, 3));
    btCollisionShape* shape = nullptr;
    switch (kind) {
        case Kind::Sphere: {
            const btScalar s = scaling();
            shape = &world.makeShape<btSphereShape>(size());
            shape->setLocalScaling(btVector3(s, s, s));
            break;
        }
        case Kind::Box:
            shape = &world.makeShape<btBoxShape>(btVector3(size(), size(), size()));
            shape->setLocalScaling(btVector3(scaling(), scaling(), scaling()));
            break;
        case Kind::Capsule: {
            const btScalar radius = size(), height = 2 * size();
            if (upAxis == 0) shape = &world.makeShape<btCapsuleShapeX>(radius, height);
            if (upAxis == 1) shape = &world.makeShape<btCapsuleShape>(radius, height);
            if (upAxis == 2) shape = &world.makeShape<btCapsuleShapeZ>(radius, height);
            break;
        }
        case Kind::Cylinder: {
            const btScalar radius = size(), halfHeight = size(), across = scaling(), along = scaling();
            btVector3 half(radius, radius, radius), scale(across, across, across);
            half[upAxis] = halfHeight;
            scale[upAxis] = along;
            if (upAxis == 0) shape = &world.makeShape<btCylinderShapeX>(half);
            if (upAxis == 1) shape = &world.makeShape<btCylinderShape>(half);
            if (upAxis == 2) shape = &world.makeShape<btCylinderShapeZ>(half);
            shape->setLocalScaling(scale);
            break;
        }
        case Kind::Cone: {
            const btScalar radius = size(), height = 2 * size(), across = scaling(), along = scaling();
            btVector3 scale(across, across, across);
            scale[upAxis] = along;
            if (upAxis == 0) shape = &world.makeShape<btConeShapeX>(radius, height);
            if (upAxis == 1) shape = &world.makeShape<btConeShape>(radius, height);
            if (upAxis == 2) shape = &world.makeShape<btConeShapeZ>(radius, height);
            shape->setLocalScaling(scale);
            if (random.chance(0.5)) shape->setMargin(btScalar(random.logUniform(0.001, 0.2)));
            break;
        }
        case Kind::Plane: {
            shape = &world.makeShape<btStaticPlaneShape>(toBullet(random.unitVector<double>()),
                                                         btScalar(random.uniform(-5, 5)));
            break;
        }
    }
    return world.add(*shape, randomTransform(random, kind == Kind::Plane ? 5 : kWorldExtent));
}

// A world of `count` solids of the kinds given (cycled), half of them moved into btDbvtBroadphase's
// fixed tree, the other half left in its moving tree.
void fillRandomWorld(RayWorld& world, Random& random, const std::vector<Kind>& kinds, int count) {
    for (int i = 0; i < count; ++i) {
        addRandomSolid(world, random, kinds[std::size_t(i) % kinds.size()]);
        if (i == count / 2) world.settle();
    }
}

using Vec = VecN<double, 3>;

Vec toDouble(const RealVec3& v) { return Vec(double(v.x), double(v.y), double(v.z)); }

Vec randomTangent(Random& random, const Vec& normal) { return test::randomTangent<3>(random, normal); }

// A point inside the solid (not a plane).
Vec insidePoint(Random& random, const Body& body) {
    const Vec center = toDouble(body.center);
    const auto axis = [&](int i) { return toDouble(body.axes[std::size_t(i)]); };
    switch (body.kind) {
        case Kind::Sphere:
            return center + randomInBall<3>(random) * double(body.radius) * 0.95;
        case Kind::Box: {
            Vec point = center;
            for (int i = 0; i < 3; ++i)
                point += axis(i) * random.uniform(-0.95, 0.95) * double(body.halfExtents[i]);
            return point;
        }
        case Kind::Capsule:
            return center + axis(body.upAxis) * random.uniform(-1, 1) * double(body.halfHeight) +
                   randomInBall<3>(random) * double(body.radius) * 0.95;
        case Kind::Cylinder: {
            const Vec radial = randomTangent(random, axis(body.upAxis));
            return center + axis(body.upAxis) * random.uniform(-0.95, 0.95) * double(body.halfHeight) +
                   radial * std::sqrt(random.uniform(0, 1)) * double(body.radius) * 0.95;
        }
        case Kind::Cone: {
            // At a height along the axis, within the cone's radius there.
            const double along = random.uniform(-0.95, 0.95), halfHeight = double(body.halfHeight);
            const double radiusThere = double(body.radius) * (1 - along) / 2;
            return center + axis(body.upAxis) * (along * halfHeight) +
                   randomTangent(random, axis(body.upAxis)) *
                       (std::sqrt(random.uniform(0, 1)) * radiusThere * 0.95);
        }
        case Kind::Plane:
            break;
    }
    return center;
}

// A point on the solid's surface, its outward normal and a heading tangent to the surface there.
SurfaceSample<3> surfacePoint(Random& random, const Body& body) {
    const Vec center = toDouble(body.center);
    const auto axis = [&](int i) { return toDouble(body.axes[std::size_t(i)]); };
    const double radius = double(body.radius), halfHeight = double(body.halfHeight);
    switch (body.kind) {
        case Kind::Sphere: {
            const Vec normal = random.unitVector<double>();
            return {center + normal * radius, normal, randomTangent(random, normal)};
        }
        case Kind::Box: {
            const int face = int(random.uniform(0, 3));
            const double side = random.chance(0.5) ? 1 : -1;
            Vec point = center;
            for (int i = 0; i < 3; ++i)
                point += axis(i) * double(body.halfExtents[i]) * (i == face ? side : random.uniform(-1, 1));
            const Vec normal = axis(face) * side;
            return {point, normal, randomTangent(random, normal)};
        }
        case Kind::Capsule: {
            if (random.chance(0.5)) {
                const Vec normal = randomTangent(random, axis(body.upAxis));
                return {
                    center + axis(body.upAxis) * random.uniform(-halfHeight, halfHeight) + normal * radius,
                    normal, randomTangent(random, normal)};
            }
            const double end = random.chance(0.5) ? 1 : -1;
            Vec normal = random.unitVector<double>();
            if (glm::dot(normal, axis(body.upAxis)) * end < 0) normal = -normal;
            return {center + axis(body.upAxis) * (end * halfHeight) + normal * radius, normal,
                    randomTangent(random, normal)};
        }
        case Kind::Cylinder: {
            if (random.chance(0.5)) {
                const Vec normal = randomTangent(random, axis(body.upAxis));
                return {
                    center + axis(body.upAxis) * random.uniform(-halfHeight, halfHeight) + normal * radius,
                    normal, randomTangent(random, normal)};
            }
            const Vec normal = axis(body.upAxis) * (random.chance(0.5) ? 1.0 : -1.0);
            const Vec radial = randomTangent(random, normal) * (std::sqrt(random.uniform(0, 1)) * radius);
            return {center + normal * halfHeight + radial, normal, randomTangent(random, normal)};
        }
        case Kind::Cone: {
            // The cone's side or base moved out by the margin, the rim's cylinder beside the base, or the top
            // of the apex's sphere: points of the solid the cast meets.
            const Vec up = axis(body.upAxis), apex = center + up * halfHeight,
                      base = center - up * halfHeight;
            const double margin = double(body.margin);
            const Vec radial = randomTangent(random, up);
            switch (int(random.uniform(0, 4))) {
                case 0: {
                    const double slant = std::hypot(radius, 2 * halfHeight);
                    const Vec normal = (radial * (2 * halfHeight) + up * radius) / slant;
                    const Vec onSide = apex + (base + radial * radius - apex) * random.uniform(0, 1);
                    return {onSide + normal * margin, normal, randomTangent(random, normal)};
                }
                case 1:
                    return {base - up * margin + radial * (std::sqrt(random.uniform(0, 1)) * radius), -up,
                            randomTangent(random, up)};
                case 2:
                    return {base + radial * (radius + margin) - up * (margin * random.uniform(0, 1)), radial,
                            randomTangent(random, radial)};
                default:
                    return {apex + up * margin, up, randomTangent(random, up)};
            }
        }
        case Kind::Plane:
            break;
    }
    return {center, Vec(0, 1, 0), Vec(1, 0, 0)};
}

struct RaySpec {
    btVector3 from, to;
};

// A random ray at a random solid of the world, of one of four kinds by kind % 4: aimed through a point
// inside it, grazing its surface (1 to 1e6 roundoffs of the world's coordinates to either side), starting
// inside it, or between any two points of the world.
RaySpec randomRay(Random& random, const std::vector<Body>& bodies, int kind) {
    std::vector<int> solids;
    for (int i = 0; i < int(bodies.size()); ++i)
        if (bodies[std::size_t(i)].kind != Kind::Plane) solids.push_back(i);
    const Body& body = bodies[std::size_t(solids[std::size_t(random.uniform(0, double(solids.size())))])];
    const Vec heading = random.unitVector<double>();
    const double reach = random.logUniform(0.1, 3 * kWorldExtent);
    switch (kind % 4) {
        case 0: {
            const Vec from = insidePoint(random, body) - heading * reach;
            return {toBullet(from), toBullet(from + heading * (reach * random.uniform(0.3, 2.5)))};
        }
        case 1: {
            const SurfaceSample<3> sample = surfacePoint(random, body);
            const double resolution = double(u) * (glm::length(sample.point) + double(body.reach));
            const double offset = (random.chance(0.5) ? 1 : -1) * resolution * random.logUniform(1, 1e6);
            const Vec from = sample.point + sample.normal * offset - sample.heading * reach;
            return {toBullet(from), toBullet(from + sample.heading * (reach * random.uniform(0.3, 2.5)))};
        }
        case 2: {
            const Vec from = insidePoint(random, body);
            return {toBullet(from), toBullet(from + heading * reach)};
        }
        default:
            return {toBullet(random.point<double>(1.5 * kWorldExtent)),
                    toBullet(random.point<double>(1.5 * kWorldExtent))};
    }
}

// ---- Checking a closest hit against the reference --------------------------------------------------

// The closest hit a ClosestRayResultCallback reported, by object index.
struct ClosestHit {
    int index = -1;  // -1: no hit
    btScalar fraction = 1;
    btVector3 normal{0, 0, 0};
    btVector3 point{0, 0, 0};
};

template <class Cast> ClosestHit castClosest(const btVector3& from, const btVector3& to, Cast cast) {
    btCollisionWorld::ClosestRayResultCallback callback(from, to);
    cast(from, to, callback);
    ClosestHit hit;
    if (!callback.hasHit()) return hit;
    hit.index = callback.m_collisionObject->getUserIndex();
    hit.fraction = callback.m_closestHitFraction;
    hit.normal = callback.m_hitNormalWorld;
    hit.point = callback.m_hitPointWorld;
    return hit;
}

Real angleBetweenUnit(const RealVec3& a, const RealVec3& b) {
    const RealVec3 unitA = a / length(a), unitB = b / length(b);
    return 2 * std::atan2(length(unitA - unitB), length(unitA + unitB));
}

struct Tally {
    long rays = 0, sureHits = 0, sureMisses = 0, undecidedHitMiss = 0, undecidedClosest = 0, insideHits = 0;
    long failures = 0;
    long wellConditioned = 0, wellConditionedWithinGoal = 0;  // cos >= 0.5 hits, and those within the goal
    Real worstFractionError = 0;     // |f - t| |to - from| cos / (u S), over decided hits
    Real worstFractionOfLength = 0;  // |f - t| over well-conditioned decided hits
    Real worstNormal = 0;            // in units of the normal bound

    void fail(const std::string& what, const RaySpec& ray) {
        if (++failures <= 10)
            ADD_FAILURE() << what << "\n  from " << text(widen(ray.from)) << " to " << text(widen(ray.to));
    }

    void print(const char* name) const {
        std::printf(
            "[ %s ] rays %ld: sure hits %ld (starting inside %ld), sure misses %ld, hit/miss undecided "
            "in band %ld, closest undecided %ld; worst |f - t| L cos / (u S) %.3g, worst normal / bound "
            "%.3g; cos >= 0.5 hits %ld, worst |f - t| %.3g of the ray, %ld within %.0e\n",
            name, rays, sureHits, insideHits, sureMisses, undecidedHitMiss, undecidedClosest,
            double(worstFractionError), double(worstNormal), wellConditioned, double(worstFractionOfLength),
            wellConditionedWithinGoal, kDouble ? 1e-12 : 1e-6);
    }
};

// Checks one reported hit of object `expected` (fraction, normal) against the reference.
void checkHitOn(const Expected& expected, const RayExpectation& expectation, btScalar fraction,
                const btVector3& normal, const RaySpec& ray, Tally& tally) {
    const Real f = Real(fraction);
    const bool inRange = expected.fractionHi < kInfinity
                             ? f >= expected.fractionLo && f <= expected.fractionHi
                             : f >= expected.fractionLo;
    if (!inRange)
        tally.fail("fraction " + text(f) + " outside [" + text(expected.fractionLo) + ", " +
                       text(expected.fractionHi) + "], exact " + text(expected.t),
                   ray);
    if (std::abs(length(widen(normal)) - 1) > 8 * u)
        tally.fail("normal not unit: " + text(widen(normal)), ray);
    if (!expected.hits || !expected.sure()) return;
    const Real error = std::abs(f - expected.t);
    if (expected.inside && expected.hi == 0) {
        ++tally.insideHits;
        if (f != 0) tally.fail("origin inside, fraction " + text(f), ray);
        const Real angle = angleBetweenUnit(widen(normal), expected.normal);
        if (angle >
            8 * u * (length(expectation.ray.from) + length(expectation.ray.to)) / expectation.ray.length)
            tally.fail("origin inside, normal " + text(widen(normal)) + " not against the direction", ray);
        return;
    }
    if (expected.inside) return;  // origin within the band of the surface
    tally.worstFractionError =
        std::max(tally.worstFractionError,
                 error * expectation.ray.length * expected.cosIncidence / (u * expected.scale));
    if (expected.cosIncidence >= 0.5L && expected.normalDecided) {
        ++tally.wellConditioned;
        tally.worstFractionOfLength = std::max(tally.worstFractionOfLength, error);
        if (error <= (kDouble ? 1e-12L : 1e-6L)) ++tally.wellConditionedWithinGoal;
    }
    if (!expected.normalDecided) return;
    const Real bound =
        kNormal * u * (1 + expected.scale / (expected.radius * std::max(expected.cosIncidence, Real(1e-30))));
    const Real angle = angleBetweenUnit(widen(normal), expected.normal);
    tally.worstNormal = std::max(tally.worstNormal, angle / bound);
    if (angle > bound) tally.fail("normal " + text(widen(normal)) + " off by " + text(angle) + " rad", ray);
}

// Checks a closest hit against the reference: hit/miss and object where decided, and the hit itself.
void checkClosest(const RayExpectation& expectation, const ClosestHit& hit, const RaySpec& ray,
                  Tally& tally) {
    ++tally.rays;
    if (expectation.possible.empty()) {
        ++tally.sureMisses;
        if (hit.index >= 0) tally.fail("false hit on object " + std::to_string(hit.index), ray);
        return;
    }
    if (!expectation.sureHit()) {
        ++tally.undecidedHitMiss;
    } else {
        ++tally.sureHits;
        if (hit.index < 0) {
            tally.fail("missed", ray);
            return;
        }
    }
    if (hit.index < 0) return;
    const Expected* expected = expectation.find(hit.index);
    if (!expected) {
        tally.fail("hit on object " + std::to_string(hit.index) + ", which the ray cannot reach", ray);
        return;
    }
    if (expected->lo > expectation.nearestSure())
        tally.fail("hit on object " + std::to_string(hit.index) + " behind a sure nearer hit", ray);
    const Expected* closest = expectation.decidedClosest();
    if (!closest && expectation.sureHit()) ++tally.undecidedClosest;
    if (closest && closest->index != hit.index)
        tally.fail(
            "hit object " + std::to_string(hit.index) + ", closest is " + std::to_string(closest->index),
            ray);
    checkHitOn(*expected, expectation, hit.fraction, hit.normal, ray, tally);
    // ClosestRayResultCallback's point: from + f (to - from), interpolated in btScalar.
    const RealVec3 point = expectation.ray.from + Real(hit.fraction) * expectation.ray.direction;
    if (length(widen(hit.point) - point) >
        2 * u * (length(expectation.ray.from) + length(expectation.ray.to)))
        tally.fail("hit point " + text(widen(hit.point)) + " is not from + f (to - from)", ray);
}

// ---- Bullet's answers against the exact ones ------------------------------------------------------

// Bullet's own tolerance: its subsimplex cast stops once the squared distance to the shape is below
// 1e-4, so its hits lie up to 0.01 before the surface, 0.01 / cos(incidence) along the ray; we allow it
// twice that (its cylinders are also rounded by their margin at the rims).
Real bulletTolerance(const Expected& expected) { return 0.02L / std::max(expected.cosIncidence, Real(0.05)); }

struct BulletTally {
    long withinTolerance = 0, missedTrueHit = 0, falseHit = 0, wrongObject = 0, fractionOff = 0,
         missedInside = 0;
    long disagreements = 0;  // ours differing from Bullet where Bullet is within its tolerance

    void print(const char* name) const {
        std::printf(
            "[ %s ] Bullet within its tolerance %ld; Bullet wrong: missed true hits %ld (of them starting "
            "inside %ld), false hits %ld, other object %ld, fraction off %ld\n",
            name, withinTolerance, missedTrueHit, missedInside, falseHit, wrongObject, fractionOff);
    }
};

void compareWithBullet(const RayExpectation& expectation, const ClosestHit& ours, const ClosestHit& bullet,
                       const RaySpec& ray, BulletTally& tally, Tally& failures) {
    bool bulletRight = false;
    const Expected* closest = expectation.decidedClosest();
    if (expectation.possible.empty()) {
        if (bullet.index >= 0) ++tally.falseHit;
        bulletRight = bullet.index < 0;
    } else if (expectation.sureHit() && closest) {
        if (bullet.index < 0) {
            ++tally.missedTrueHit;
            if (closest->inside) ++tally.missedInside;
        } else if (bullet.index != closest->index) {
            ++tally.wrongObject;
        } else if (std::abs(Real(bullet.fraction) - closest->t) * expectation.ray.length >
                   bulletTolerance(*closest)) {
            ++tally.fractionOff;
        } else {
            bulletRight = true;
        }
    }
    if (!bulletRight) return;
    ++tally.withinTolerance;
    const bool agree =
        ours.index == bullet.index &&
        (ours.index < 0 ||
         std::abs(Real(ours.fraction) - Real(bullet.fraction)) * expectation.ray.length <=
             bulletTolerance(*closest) + kFraction * u * closest->scale / closest->cosIncidence);
    if (!agree) {
        ++tally.disagreements;
        failures.fail("ours differs from Bullet's answer within its tolerance: ours object " +
                          std::to_string(ours.index) + " at " + text(ours.fraction) + ", Bullet's " +
                          std::to_string(bullet.index) + " at " + text(bullet.fraction),
                      ray);
    }
}

// ---- 1. World switch --------------------------------------------------------------------------------

// A ray starting inside a sphere: ours hits at fraction 0 with the normal against the ray, Bullet's
// convex cast reports nothing. Both world classes answer through btCollisionWorld's virtual rayTest.
template <class Make> void expectWorldAnswersWithOurs(Make makeWorld) {
    RayWorld world = makeWorld();
    auto& sphere = world.makeShape<btSphereShape>(btScalar(1));
    world.add(sphere, translation(0, 0, 0));
    const btVector3 from(btScalar(0.25), 0, 0), to(5, 0, 0);
    btCollisionWorld& base = world.world();
    const ClosestHit ours = castClosest(
        from, to, [&](const auto& a, const auto& b, auto& callback) { base.rayTest(a, b, callback); });
    ASSERT_EQ(ours.index, 0);
    EXPECT_EQ(ours.fraction, btScalar(0));
    EXPECT_EQ(ours.normal, btVector3(-1, 0, 0));
    const ClosestHit direct = castClosest(from, to, [&](const auto& a, const auto& b, auto& callback) {
        analytic::rayTest(base, a, b, callback);
    });
    EXPECT_EQ(direct.index, ours.index);
    EXPECT_EQ(direct.fraction, ours.fraction);
    const ClosestHit bullet = castClosest(
        from, to, [&](const auto& a, const auto& b, auto& callback) { bulletRayTest(base, a, b, callback); });
    EXPECT_FALSE(bullet.index == 0 && bullet.fraction == btScalar(0))
        << "Bullet's own rayTest answers as ours here: the case shows nothing";
}

TEST(RayTestWorld, CollisionWorldAnswersThroughTheVirtual) {
    expectWorldAnswersWithOurs([] { return RayWorld(Broadphase::Dbvt, false); });
}

TEST(RayTestWorld, DiscreteDynamicsWorldAnswersThroughTheVirtual) {
    expectWorldAnswersWithOurs([] { return RayWorld(Broadphase::Dbvt, true); });
}

// Our shape in Bullet's custom convex slot is cast exactly (its case in the ray targets), not through
// Bullet's cast of its support function: along an axis the fraction is the exact one, and from inside
// it hits at 0.
TEST(RayTestWorld, EllipsoidShapeIsCastExactly) {
    RayWorld world(Broadphase::Dbvt, false);
    auto& ellipsoid = world.makeShape<EllipsoidShape>(btVector3(2, 1, btScalar(0.5)));
    world.add(ellipsoid, translation(0, 0, 0));
    btCollisionWorld& base = world.world();
    const auto cast = [&](const btVector3& from, const btVector3& to) {
        return castClosest(from, to, [&](const auto& a, const auto& b, auto& callback) {
            analytic::rayTest(base, a, b, callback);
        });
    };
    // From x = 10 to x = -10: the surface at x = 2, fraction 0.4 within rounding, the normal exactly +x;
    // from inside, Bullet's cast reports nothing.
    const ClosestHit along = cast(btVector3(10, 0, 0), btVector3(-10, 0, 0));
    ASSERT_EQ(along.index, 0);
    EXPECT_NEAR(along.fraction, btScalar(0.4), 4 * std::numeric_limits<btScalar>::epsilon());
    EXPECT_EQ(along.normal, btVector3(1, 0, 0));
    const ClosestHit inside = cast(btVector3(0, 0, 0), btVector3(0, 0, 5));
    ASSERT_EQ(inside.index, 0);
    EXPECT_EQ(inside.fraction, btScalar(0));
}

// ---- 2 and 3. Exactness and Bullet parity on random worlds -------------------------------------------

void expectExactWorld(const char* name, const std::vector<Kind>& kinds, int count, std::uint64_t seed) {
    Random random(seed);
    RayWorld world;
    fillRandomWorld(world, random, kinds, count);
    const auto& dbvt = static_cast<const btDbvtBroadphase&>(*world.world().getBroadphase());
    ASSERT_TRUE(dbvt.m_sets[0].m_root && dbvt.m_sets[1].m_root) << "both trees must hold objects";
    const std::vector<Body> bodies = bodiesOf(world);
    Tally tally;
    BulletTally bullet;
    for (int i = 0; i < kRaysPerWorld; ++i) {
        const RaySpec ray = randomRay(random, bodies, i);
        const RayExpectation expectation = expectRay(bodies, ray.from, ray.to);
        const ClosestHit ours = castClosest(
            ray.from, ray.to,
            [&](const auto& a, const auto& b, auto& callback) { world.world().rayTest(a, b, callback); });
        checkClosest(expectation, ours, ray, tally);
        const ClosestHit theirs =
            castClosest(ray.from, ray.to, [&](const auto& a, const auto& b, auto& callback) {
                bulletRayTest(world.world(), a, b, callback);
            });
        compareWithBullet(expectation, ours, theirs, ray, bullet, tally);
    }
    tally.print(name);
    bullet.print(name);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_EQ(bullet.disagreements, 0);
    // The tangency band holds a small share of the rays: most of it is the grazing quarter, whose offsets
    // from the surface (1 to 1e6 roundoffs, log-uniform) put about a third of them inside the band. The
    // rays exercise hits, misses and origins inside.
    EXPECT_LE(tally.undecidedHitMiss + tally.undecidedClosest, tally.rays / 10);
    EXPECT_GE(tally.sureHits, tally.rays / 3);
    EXPECT_GE(tally.sureMisses, tally.rays / 20);
    EXPECT_GE(tally.insideHits, tally.rays / 10);
    EXPECT_GE(bullet.withinTolerance, tally.rays / 3);
}

TEST(RayTestExact, SphereWorld) { expectExactWorld("spheres", {Kind::Sphere}, 40, 11); }
TEST(RayTestExact, BoxWorld) { expectExactWorld("boxes", {Kind::Box}, 40, 12); }
TEST(RayTestExact, CapsuleWorld) { expectExactWorld("capsules", {Kind::Capsule}, 40, 13); }
TEST(RayTestExact, CylinderWorld) { expectExactWorld("cylinders", {Kind::Cylinder}, 40, 14); }
TEST(RayTestExact, ConeWorld) { expectExactWorld("cones", {Kind::Cone}, 40, 16); }
TEST(RayTestExact, MixedWorldWithPlane) {
    expectExactWorld("mixed with plane",
                     {Kind::Plane, Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}, 41, 15);
}

// ---- 3. Cases where Bullet is wrong and we are right ------------------------------------------------

// Searches rays from makeRay in a one-object world; where Bullet's closest hit is wrong in the way
// `bulletWrong` says (against the decided reference), ours must agree with the reference. Returns how
// many such cases were found (Bullet may be right in some builds: then they are counted, not failed).
template <class MakeRay, class BulletWrong> long searchBulletWrong(const char* name, RayWorld& world,
                                                                   int rays, std::uint64_t seed,
                                                                   MakeRay makeRay, BulletWrong bulletWrong) {
    Random random(seed);
    const std::vector<Body> bodies = bodiesOf(world);
    Tally tally;
    long found = 0;
    std::vector<Real> bulletErrors;
    for (int i = 0; i < rays; ++i) {
        const RaySpec ray = makeRay(random, bodies[0]);
        const RayExpectation expectation = expectRay(bodies, ray.from, ray.to);
        const ClosestHit ours = castClosest(
            ray.from, ray.to,
            [&](const auto& a, const auto& b, auto& callback) { world.world().rayTest(a, b, callback); });
        checkClosest(expectation, ours, ray, tally);
        const ClosestHit bullet =
            castClosest(ray.from, ray.to, [&](const auto& a, const auto& b, auto& callback) {
                bulletRayTest(world.world(), a, b, callback);
            });
        const std::optional<Real> error = bulletWrong(expectation, bullet);
        if (!error) continue;
        ++found;
        bulletErrors.push_back(*error);
        // Ours gives the reference's answer there.
        const Expected* closest = expectation.decidedClosest();
        if (!expectation.sureHit()) {
            EXPECT_LT(ours.index, 0) << "from " << text(widen(ray.from)) << " to " << text(widen(ray.to));
        } else {
            if (!closest) {
                ADD_FAILURE() << "the search must pick decided cases";
                continue;
            }
            EXPECT_EQ(ours.index, closest->index);
            EXPECT_GE(Real(ours.fraction), closest->fractionLo);
            EXPECT_LE(Real(ours.fraction), closest->fractionHi);
        }
    }
    std::sort(bulletErrors.begin(), bulletErrors.end());
    std::printf(
        "[ %s ] %ld of %d rays where Bullet is wrong (median error %.3g, largest %.3g); ours: %ld "
        "failures\n",
        name, found, rays, bulletErrors.empty() ? 0.0 : double(bulletErrors[bulletErrors.size() / 2]),
        bulletErrors.empty() ? 0.0 : double(bulletErrors.back()), tally.failures);
    EXPECT_EQ(tally.failures, 0);
    return found;
}

// Bullet #459, #4286: a ray that starts inside a solid. The reference hits at 0; ours does.
TEST(RayTestBulletWrong, RaysStartingInside) {
    for (const Kind kind : {Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}) {
        Random random(21 + int(kind));
        RayWorld world;
        addRandomSolid(world, random, kind);
        const long found = searchBulletWrong(
            "starting inside", world, 2000, 31 + int(kind),
            [](Random& r, const Body& body) {
                const Vec from = insidePoint(r, body);
                return RaySpec{toBullet(from),
                               toBullet(from + r.unitVector<double>() * r.logUniform(0.1, 50))};
            },
            [](const RayExpectation& e, const ClosestHit& bullet) -> std::optional<Real> {
                const Expected* closest = e.decidedClosest();
                if (!closest || !closest->inside || closest->hi != 0) return std::nullopt;
                if (bullet.index >= 0 && bullet.fraction == 0) return std::nullopt;
                return bullet.index < 0 ? Real(1) : Real(bullet.fraction);
            });
        EXPECT_GT(found, 0) << "Bullet answered every ray starting inside at 0";
    }
}

// Bullet's sphere hits come early (by its cast's tolerance): cases where Bullet's fraction is off by more
// than 10 times our bound.
TEST(RayTestBulletWrong, SphereHitsEarly) {
    RayWorld world;
    auto& sphere = world.makeShape<btSphereShape>(btScalar(1.5));
    world.add(sphere, translation(btScalar(3.25), btScalar(-1.5), btScalar(2)));
    searchBulletWrong(
        "sphere early", world, 5000, 41,
        [](Random& r, const Body& body) {
            const Vec target = insidePoint(r, body), heading = r.unitVector<double>();
            const double reach = r.uniform(5, 40);
            return RaySpec{toBullet(target - heading * reach), toBullet(target + heading * reach)};
        },
        [](const RayExpectation& e, const ClosestHit& bullet) -> std::optional<Real> {
            const Expected* closest = e.decidedClosest();
            if (!closest || closest->inside || !closest->sure() || bullet.index < 0) return std::nullopt;
            const Real early = (closest->t - Real(bullet.fraction)) * e.ray.length;
            const Real ourBound = kFraction * u * closest->scale / closest->cosIncidence;
            if (early <= 10 * ourBound) return std::nullopt;
            return early;
        });
}

// Bullet reports hits for rays passing outside a box: rays grazing a face, an edge or a corner from
// outside by 1e-3 to 0.3.
TEST(RayTestBulletWrong, BoxFalseHitsOutside) {
    RayWorld world;
    auto& box = world.makeShape<btBoxShape>(btVector3(2, btScalar(0.5), 1));
    Random placement(51);
    world.add(box, transformOf(placement.rotation<btScalar>(), btVector3(1, 2, 3)));
    searchBulletWrong(
        "box false hits", world, 20000, 52,
        [](Random& r, const Body& body) {
            const SurfaceSample<3> sample = surfacePoint(r, body);
            // Pushed out along the face normal and, half the time, past an edge along the heading's side.
            const Vec from = sample.point + sample.normal * r.logUniform(1e-3, 0.3) - sample.heading * 30.0;
            return RaySpec{toBullet(from), toBullet(from + sample.heading * 60.0)};
        },
        [](const RayExpectation& e, const ClosestHit& bullet) -> std::optional<Real> {
            if (!e.possible.empty() || bullet.index < 0) return std::nullopt;
            return Real(bullet.fraction);
        });
}

// Bullet in double misses true capsule hits: rays aimed through capsules, deep inside them.
TEST(RayTestBulletWrong, CapsuleMissesTrueHits) {
    long found = 0;
    for (int capsule = 0; capsule < 8; ++capsule) {
        Random random(61 + capsule);
        RayWorld world;
        addRandomSolid(world, random, Kind::Capsule);
        found += searchBulletWrong(
            "capsule misses", world, 2000, 71 + capsule,
            [](Random& r, const Body& body) {
                const Vec target = toDouble(body.center) +
                                   toDouble(body.axis()) * r.uniform(-1, 1) * double(body.halfHeight) +
                                   randomInBall<3>(r) * double(body.radius) * 0.5;
                const Vec heading = r.unitVector<double>();
                const double reach = r.uniform(2, 40);
                return RaySpec{toBullet(target - heading * reach), toBullet(target + heading * reach)};
            },
            [](const RayExpectation& e, const ClosestHit& bullet) -> std::optional<Real> {
                const Expected* closest = e.decidedClosest();
                if (!closest || !e.sureHit() || closest->inside || bullet.index >= 0) return std::nullopt;
                return Real(1);
            });
    }
    std::printf("[ capsule misses ] %ld in all (%s)\n", found, kDouble ? "double" : "float");
}

// ---- 4. Callback semantics ------------------------------------------------------------------------

// Every object the reference says the ray surely crosses is reported once, with its first hit's fraction;
// nothing is reported that the ray cannot reach.
TEST(RayTestCallbacks, AllHitsFindsEveryCrossedObject) {
    Random random(81);
    RayWorld world;
    fillRandomWorld(world, random, {Kind::Plane, Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}, 41);
    const std::vector<Body> bodies = bodiesOf(world);
    Tally tally;
    long multiple = 0;
    for (int i = 0; i < kRaysPerWorld / 10; ++i) {
        const RaySpec ray = randomRay(random, bodies, i % 2 == 0 ? 3 : i);
        const RayExpectation expectation = expectRay(bodies, ray.from, ray.to);
        btCollisionWorld::AllHitsRayResultCallback callback(ray.from, ray.to);
        world.world().rayTest(ray.from, ray.to, callback);
        std::vector<int> seen;
        for (int k = 0; k < callback.m_collisionObjects.size(); ++k) {
            const int index = callback.m_collisionObjects[k]->getUserIndex();
            if (std::find(seen.begin(), seen.end(), index) != seen.end())
                tally.fail("object " + std::to_string(index) + " reported twice", ray);
            seen.push_back(index);
            const Expected* expected = expectation.find(index);
            if (!expected) {
                tally.fail("object " + std::to_string(index) + " reported, which the ray cannot reach", ray);
                continue;
            }
            checkHitOn(*expected, expectation, callback.m_hitFractions[k], callback.m_hitNormalWorld[k], ray,
                       tally);
        }
        long sure = 0;
        for (const Expected& expected : expectation.possible) {
            if (!expected.sure()) continue;
            ++sure;
            if (std::find(seen.begin(), seen.end(), expected.index) == seen.end())
                tally.fail("object " + std::to_string(expected.index) + " crossed but not reported", ray);
        }
        multiple += sure >= 2;
    }
    std::printf("[ all hits ] %ld rays surely crossing two objects or more; %ld failures\n", multiple,
                tally.failures);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GE(multiple, kRaysPerWorld / 100);
}

// Objects in groups 1, 2, 4 (each object's mask: every group but its own's neighbour) and callbacks of
// random group and mask: the closest hit is the reference's over the objects needsCollision accepts.
TEST(RayTestCallbacks, GroupAndMaskFiltering) {
    Random random(91);
    RayWorld world;
    std::vector<std::pair<int, int>> filters;
    for (int i = 0; i < 40; ++i) {
        const int group = 1 << (i % 3), mask = 7 & ~(1 << ((i + 1) % 3));
        const Kind kind =
            std::array{Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}[std::size_t(i % 4)];
        btCollisionObject& object = addRandomSolid(world, random, kind);
        // Re-added with its filter (addRandomSolid adds with the default filter).
        world.world().removeCollisionObject(&object);
        world.world().addCollisionObject(&object, group, mask);
        filters.emplace_back(group, mask);
    }
    const std::vector<Body> bodies = bodiesOf(world);
    Tally tally;
    long filteredOut = 0;
    for (int i = 0; i < kRaysPerWorld / 10; ++i) {
        const RaySpec ray = randomRay(random, bodies, i % 2 == 0 ? 0 : 3);
        const int group = 1 << int(random.uniform(0, 3)), mask = 1 + int(random.uniform(0, 7));
        const auto accepted = [&](int index) {
            const auto [objectGroup, objectMask] = filters[std::size_t(index)];
            return (objectGroup & mask) != 0 && (group & objectMask) != 0;
        };
        const RayExpectation expectation = expectRay(bodies, ray.from, ray.to, accepted);
        const ClosestHit hit =
            castClosest(ray.from, ray.to, [&](const auto& a, const auto& b, auto& callback) {
                callback.m_collisionFilterGroup = group;
                callback.m_collisionFilterMask = mask;
                world.world().rayTest(a, b, callback);
            });
        checkClosest(expectation, hit, ray, tally);
        const RayExpectation unfiltered = expectRay(bodies, ray.from, ray.to);
        const Expected* nearest = unfiltered.decidedClosest();
        filteredOut += nearest && !accepted(nearest->index);
    }
    std::printf("[ filtering ] %ld rays whose unfiltered closest object is filtered out; %ld failures\n",
                filteredOut, tally.failures);
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GE(filteredOut, kRaysPerWorld / 100);
}

// A callback of the user's own that rejects odd objects in needsCollision.
struct EvenObjectsCallback : btCollisionWorld::ClosestRayResultCallback {
    using ClosestRayResultCallback::ClosestRayResultCallback;
    bool needsCollision(btBroadphaseProxy* proxy) const override {
        const auto* object = static_cast<const btCollisionObject*>(proxy->m_clientObject);
        return object->getUserIndex() % 2 == 0 && ClosestRayResultCallback::needsCollision(proxy);
    }
};

TEST(RayTestCallbacks, UserNeedsCollisionOverride) {
    Random random(101);
    RayWorld world;
    fillRandomWorld(world, random, {Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}, 40);
    const std::vector<Body> bodies = bodiesOf(world);
    Tally tally;
    for (int i = 0; i < kRaysPerWorld / 10; ++i) {
        const RaySpec ray = randomRay(random, bodies, i);
        const RayExpectation expectation =
            expectRay(bodies, ray.from, ray.to, [](int index) { return index % 2 == 0; });
        EvenObjectsCallback callback(ray.from, ray.to);
        world.world().rayTest(ray.from, ray.to, callback);
        ClosestHit hit;
        if (callback.hasHit())
            hit = {callback.m_collisionObject->getUserIndex(), callback.m_closestHitFraction,
                   callback.m_hitNormalWorld, callback.m_hitPointWorld};
        checkClosest(expectation, hit, ray, tally);
    }
    tally.print("needsCollision");
    EXPECT_EQ(tally.failures, 0);
    EXPECT_GE(tally.sureHits, kRaysPerWorld / 40);
}

// A callback that stops the search at its first result (sets m_closestHitFraction to 0) gets no further
// call, though the ray crosses several objects.
struct FirstResultOnlyCallback : btCollisionWorld::RayResultCallback {
    int calls = 0;
    btScalar addSingleResult(btCollisionWorld::LocalRayResult&, bool) override {
        ++calls;
        m_closestHitFraction = 0;
        return 0;
    }
};

TEST(RayTestCallbacks, EarlyTerminationStopsTheSearch) {
    RayWorld world;
    auto& sphere = world.makeShape<btSphereShape>(btScalar(0.5));
    auto& plane = world.makeShape<btStaticPlaneShape>(btVector3(1, 0, 0), btScalar(9));
    for (int i = 0; i < 8; ++i)
        world.add(sphere, translation(btScalar(i), 0, 0));
    world.add(plane, translation(0, 0, 0));
    world.settle();
    for (const bool reversed : {false, true}) {
        const btVector3 a(-2, btScalar(0.1), 0), b(12, btScalar(-0.1), btScalar(0.05));
        const btVector3 from = reversed ? b : a, to = reversed ? a : b;
        btCollisionWorld::AllHitsRayResultCallback all(from, to);
        world.world().rayTest(from, to, all);
        EXPECT_EQ(all.m_collisionObjects.size(), 9);
        FirstResultOnlyCallback first;
        world.world().rayTest(from, to, first);
        EXPECT_EQ(first.calls, 1);
    }
}

// What a callback receives for each result: object, LocalShapeInfo (copied), normal, fraction.
struct RecordedResult {
    int object;
    bool hasShapeInfo;
    int shapePart, triangleIndex;
    btVector3 normal;
    btScalar fraction;
    bool normalInWorldSpace;

    bool operator==(const RecordedResult&) const = default;
};

struct RecordingCallback : btCollisionWorld::RayResultCallback {
    explicit RecordingCallback(bool closestOnly) : closestOnly(closestOnly) {}
    bool closestOnly;
    std::vector<RecordedResult> results;
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        const btCollisionWorld::LocalShapeInfo* info = result.m_localShapeInfo;
        results.push_back({result.m_collisionObject->getUserIndex(), info != nullptr,
                           info ? info->m_shapePart : -1, info ? info->m_triangleIndex : -1,
                           result.m_hitNormalLocal, result.m_hitFraction, normalInWorldSpace});
        if (closestOnly) m_closestHitFraction = result.m_hitFraction;
        m_collisionObject = result.m_collisionObject;
        return m_closestHitFraction;
    }
};

RecordingCallback recordOurs(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
                             bool closestOnly, unsigned flags = 0) {
    RecordingCallback callback(closestOnly);
    callback.m_flags = flags;
    world.rayTest(from, to, callback);
    return callback;
}

RecordingCallback recordBullet(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
                               bool closestOnly, unsigned flags = 0) {
    RecordingCallback callback(closestOnly);
    callback.m_flags = flags;
    bulletRayTest(world, from, to, callback);
    return callback;
}

// A plane y = 1 (normal (0, 1, 0) rotated and moved by the object's transform), rays from its front and
// its back, under each flag: exact fraction, LocalShapeInfo {0, 0}, the front (normal side) kept by
// kF_FilterBackfaces, the normal facing the ray's origin unless kF_KeepUnflippedNormal.
TEST(RayTestCallbacks, PlaneFlagsFromBothSides) {
    Random random(111);
    for (int i = 0; i < 200; ++i) {
        RayWorld world;
        auto& plane = world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(1));
        const btCollisionObject& object = world.add(plane, randomTransform(random, 10));
        const Body body = bodyOf(object);
        const Vec onPlane = toDouble(body.planeNormal * body.planeOffset) +
                            randomTangent(random, toDouble(body.planeNormal)) * random.uniform(0, 20);
        const Vec normal = toDouble(body.planeNormal);
        const Vec heading = glm::normalize(normal * random.uniform(0.2, 1) + randomTangent(random, normal));
        const double before = random.logUniform(0.01, 20), after = random.logUniform(0.01, 20);
        for (const bool fromFront : {true, false}) {
            const Vec along = fromFront ? -heading : heading;
            const btVector3 from = toBullet(onPlane - along * before), to = toBullet(onPlane + along * after);
            const Segment segment = segmentOf(from, to);
            const Real d0 = glm::dot(body.planeNormal, segment.from) - body.planeOffset;
            const Real d1 = glm::dot(body.planeNormal, segment.to) - body.planeOffset;
            ASSERT_EQ(d0 > 0, fromFront);
            ASSERT_EQ(d1 > 0, !fromFront);
            const Real t = d0 / (d0 - d1);
            const Real scale = length(segment.from) + length(segment.to) + std::abs(body.planeOffset);
            const Real tolerance = kPlaneFraction * u * scale / std::abs(d0 - d1);
            using Flags = btTriangleRaycastCallback::EFlags;
            for (const unsigned flags :
                 {0u, unsigned(Flags::kF_FilterBackfaces), unsigned(Flags::kF_KeepUnflippedNormal),
                  unsigned(Flags::kF_FilterBackfaces | Flags::kF_KeepUnflippedNormal)}) {
                SCOPED_TRACE(::testing::Message()
                             << "case " << i << (fromFront ? " from the front" : " from behind") << ", flags "
                             << flags);
                const RecordingCallback ours = recordOurs(world.world(), from, to, false, flags);
                if (!fromFront && (flags & Flags::kF_FilterBackfaces)) {
                    EXPECT_TRUE(ours.results.empty());
                    continue;
                }
                ASSERT_EQ(ours.results.size(), 1u);
                const RecordedResult& hit = ours.results[0];
                EXPECT_NEAR(Real(hit.fraction), t, tolerance);
                EXPECT_TRUE(hit.hasShapeInfo);
                EXPECT_EQ(hit.shapePart, 0);
                EXPECT_EQ(hit.triangleIndex, 0);
                EXPECT_TRUE(hit.normalInWorldSpace);
                const bool unflipped = flags & Flags::kF_KeepUnflippedNormal;
                const RealVec3 expectedNormal = unflipped || fromFront ? body.planeNormal : -body.planeNormal;
                EXPECT_LE(angleBetweenUnit(widen(hit.normal), expectedNormal), 8 * u);
            }
        }
    }
}

// A ray starting exactly on the plane hits it at fraction 0 (Bullet's triangles report nothing there).
TEST(RayTestCallbacks, RayStartingOnThePlane) {
    RayWorld world;
    auto& plane = world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0));
    world.add(plane, translation(0, 0, 0));
    for (const btScalar y : {btScalar(-3), btScalar(3)}) {
        const btVector3 from(1, 0, 2), to(btScalar(1.5), y, 2);
        const RecordingCallback ours = recordOurs(world.world(), from, to, false);
        ASSERT_EQ(ours.results.size(), 1u) << "toward y = " << y;
        EXPECT_EQ(ours.results[0].fraction, btScalar(0));
        // Against the ray's direction across the plane: the side it came from.
        EXPECT_EQ(ours.results[0].normal, btVector3(0, y < 0 ? 1 : -1, 0));
        const RecordingCallback unflipped =
            recordOurs(world.world(), from, to, false, btTriangleRaycastCallback::kF_KeepUnflippedNormal);
        ASSERT_EQ(unflipped.results.size(), 1u);
        EXPECT_EQ(unflipped.results[0].normal, btVector3(0, 1, 0));
    }
    // Into the back from on the plane: a front hit, kept by kF_FilterBackfaces.
    const RecordingCallback filtered = recordOurs(world.world(), btVector3(1, 0, 2), btVector3(1, -3, 2),
                                                  false, btTriangleRaycastCallback::kF_FilterBackfaces);
    ASSERT_EQ(filtered.results.size(), 1u);
    EXPECT_EQ(filtered.results[0].fraction, btScalar(0));
}

// A two-part bumpy mesh (btBvhTriangleMeshShape, ours exact and watertight: ray_mesh_test.cpp checks
// it against a long double reference): the closest hit's part and triangle index, its object and flags
// as Bullet's, the fraction within Bullet's rounding; all hits, every crossed triangle as Bullet's. Rays
// through an edge or a vertex may be given to either neighbour by either side (Bullet widens its
// triangles by a tolerance; ours are watertight): up to 1% may differ.
TEST(RayTestCallbacks, MeshReportsPartAndTriangleAsBullet) {
    GridMesh data;
    const auto bumps = [](btScalar x, btScalar z) {
        return btScalar(0.3 * std::sin(1.3 * x) * std::cos(0.7 * z));
    };
    data.addGrid(12, 10, 1, btVector3(-6, 0, -5), bumps);
    data.addGrid(6, 6, btScalar(0.5), btVector3(-1, 1, -1), bumps);
    RayWorld world;
    auto& mesh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    world.add(mesh, transformOf(Random(121).rotation<btScalar>(), btVector3(1, 2, 3)));
    const btTransform& transform = world.object(0).getWorldTransform();
    Random random(122);
    constexpr int kRays = 2000;
    int hits = 0, closestDiffering = 0, allHitsDiffering = 0, secondPart = 0;
    for (int i = 0; i < kRays; ++i) {
        const btVector3 target =
            transform * btVector3(btScalar(random.uniform(-6, 6)), 0, btScalar(random.uniform(-5, 5)));
        const Vec heading = random.unitVector<double>();
        const btVector3 from = target - toBullet(heading * 10.0), to = target + toBullet(heading * 10.0);
        const RecordingCallback ours = recordOurs(world.world(), from, to, true);
        const RecordingCallback bullet = recordBullet(world.world(), from, to, true);
        ASSERT_EQ(ours.results.empty(), bullet.results.empty())
            << text(widen(from)) << " to " << text(widen(to));
        if (ours.results.empty()) continue;
        ++hits;
        const RecordedResult &a = ours.results.back(), &b = bullet.results.back();
        EXPECT_EQ(a.object, b.object);
        EXPECT_TRUE(a.hasShapeInfo && b.hasShapeInfo && a.normalInWorldSpace && b.normalInWorldSpace);
        secondPart += a.shapePart == 1;
        const bool same = a.shapePart == b.shapePart && a.triangleIndex == b.triangleIndex &&
                          std::abs(Real(a.fraction) - Real(b.fraction)) <= 64 * u &&
                          angleBetweenUnit(widen(a.normal), widen(b.normal)) <= 1e-3L;
        closestDiffering += !same;
        const RecordingCallback oursAll = recordOurs(world.world(), from, to, false);
        const RecordingCallback bulletAll = recordBullet(world.world(), from, to, false);
        const auto crossed = [](const RecordingCallback& all) {
            std::vector<std::pair<int, int>> triangles;
            for (const RecordedResult& result : all.results)
                triangles.emplace_back(result.shapePart, result.triangleIndex);
            std::sort(triangles.begin(), triangles.end());
            return triangles;
        };
        allHitsDiffering += crossed(oursAll) != crossed(bulletAll);
    }
    std::printf(
        "[ mesh ] %d rays hit (%d on the second part); differing from Bullet: closest %d, all hits %d\n",
        hits, secondPart, closestDiffering, allHitsDiffering);
    EXPECT_GE(hits, 1500);
    EXPECT_GT(secondPart, 50);
    EXPECT_LE(closestDiffering, hits / 100);
    EXPECT_LE(allHitsDiffering, hits / 100);
}

// ClosestRayResultCallback that also keeps the closest result's LocalShapeInfo.
struct ClosestWithShapeInfo : btCollisionWorld::ClosestRayResultCallback {
    using ClosestRayResultCallback::ClosestRayResultCallback;
    bool hasShapeInfo = false;
    int shapePart = 0, triangleIndex = 0;
    btScalar addSingleResult(btCollisionWorld::LocalRayResult& result, bool normalInWorldSpace) override {
        hasShapeInfo = result.m_localShapeInfo != nullptr;
        if (hasShapeInfo) {
            shapePart = result.m_localShapeInfo->m_shapePart;
            triangleIndex = result.m_localShapeInfo->m_triangleIndex;
        }
        return ClosestRayResultCallback::addSingleResult(result, normalInWorldSpace);
    }
};

// A compound of every exactly-met kind of child: the closest hit is the reference's over the children
// (placed by the object's transform times the child's), reported as Bullet reports a compound child (part
// -1, child index in m_triangleIndex); where Bullet is within its tolerance, ours names the same child.
TEST(RayTestCallbacks, CompoundChildrenExactAndIndexedAsBullet) {
    RayWorld world;
    auto& compound = world.makeShape<btCompoundShape>();
    Random random(131);
    const std::array kinds{Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder};
    // The children's shapes are made (and owned) by `world`, whose objects are taken out of it again.
    for (int i = 0; i < 12; ++i) {
        btCollisionObject& made = addRandomSolid(world, random, kinds[std::size_t(i % 4)]);
        compound.addChildShape(transformOf(random.rotation<btScalar>(), toBullet(random.point<double>(3))),
                               made.getCollisionShape());
        world.world().removeCollisionObject(&made);
    }
    RayWorld compoundWorld;
    const btTransform placement = transformOf(random.rotation<btScalar>(), btVector3(-1, 2, 1));
    compoundWorld.add(compound, placement);
    std::vector<Body> children;
    for (int i = 0; i < compound.getNumChildShapes(); ++i)
        children.push_back(bodyOf(*compound.getChildShape(i), placement * compound.getChildTransform(i)));
    Tally tally;
    BulletTally bullet;
    long wrongShapeInfo = 0;
    for (int i = 0; i < kRaysPerWorld / 10; ++i) {
        RaySpec ray = randomRay(random, children, i);
        if (i % 4 == 3) ray.to = btVector3(-1, 2, 1) + toBullet(random.point<double>(4));
        const RayExpectation expectation = expectRay(children, ray.from, ray.to);
        std::array<ClosestHit, 2> answers;
        for (const bool ours : {true, false}) {
            ClosestWithShapeInfo callback(ray.from, ray.to);
            if (ours)
                compoundWorld.world().rayTest(ray.from, ray.to, callback);
            else
                bulletRayTest(compoundWorld.world(), ray.from, ray.to, callback);
            if (!callback.hasHit()) continue;
            wrongShapeInfo += !callback.hasShapeInfo || callback.shapePart != -1;
            answers[ours ? 0 : 1] = {callback.triangleIndex, callback.m_closestHitFraction,
                                     callback.m_hitNormalWorld, callback.m_hitPointWorld};
        }
        checkClosest(expectation, answers[0], ray, tally);
        compareWithBullet(expectation, answers[0], answers[1], ray, bullet, tally);
    }
    tally.print("compound");
    bullet.print("compound");
    EXPECT_EQ(tally.failures, 0);
    EXPECT_EQ(wrongShapeInfo, 0);
    EXPECT_EQ(bullet.disagreements, 0);
    EXPECT_GE(tally.sureHits, kRaysPerWorld / 40);
    EXPECT_GE(bullet.withinTolerance, kRaysPerWorld / 40);
}

// A zero-length ray and rays with a NaN or infinite coordinate give no result and do not crash, in a
// world of every kind of object (exact, plane, mesh and compound fallbacks).
TEST(RayTestCallbacks, DegenerateRaysGiveNoHit) {
    Random random(141);
    RayWorld world;
    fillRandomWorld(world, random, {Kind::Plane, Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}, 10);
    GridMesh data;
    data.addFlatGrid(4, 4, 1, btVector3(-2, 0, -2));
    auto& mesh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    world.add(mesh, translation(0, 0, 0));
    auto& compound = world.makeShape<btCompoundShape>();
    auto& sphere = world.makeShape<btSphereShape>(btScalar(1));
    compound.addChildShape(translation(0, 0, 0), &sphere);
    world.add(compound, translation(0, 0, 0));
    const btVector3 inside(0, btScalar(0.1), 0);
    ASSERT_FALSE(recordOurs(world.world(), inside, btVector3(0, 1, 0), false).results.empty());
    EXPECT_TRUE(recordOurs(world.world(), inside, inside, false).results.empty());
    const btVector3 outside(40, 40, 40);
    EXPECT_TRUE(recordOurs(world.world(), outside, outside, false).results.empty());
    constexpr btScalar nan = std::numeric_limits<btScalar>::quiet_NaN(),
                       inf = std::numeric_limits<btScalar>::infinity();
    for (const btScalar bad : {nan, inf, -inf}) {
        for (int end = 0; end < 2; ++end) {
            for (int axis = 0; axis < 3; ++axis) {
                btVector3 from = inside - btVector3(0, 5, 0), to = inside + btVector3(0, 5, 0);
                (end == 0 ? from : to)[axis] = bad;
                EXPECT_TRUE(recordOurs(world.world(), from, to, false).results.empty())
                    << "end " << end << " axis " << axis << " = " << bad;
                EXPECT_TRUE(recordOurs(world.world(), from, to, true).results.empty());
            }
        }
    }
}

// ---- 5. Other broadphases ---------------------------------------------------------------------------

// The same objects in btSimpleBroadphase and btAxisSweep3 worlds give the DBVT world's closest hits, bit
// for bit (a different object only at an exactly equal fraction). updateAabbs: whether the worlds have
// updated their objects' broadphase boxes since the last objects were added (a step does).
void expectBroadphasesAgree(bool updateAabbs) {
    const std::vector<Kind> kinds{Kind::Plane, Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder};
    std::array<std::unique_ptr<RayWorld>, 3> worlds{std::make_unique<RayWorld>(Broadphase::Dbvt),
                                                    std::make_unique<RayWorld>(Broadphase::Simple),
                                                    std::make_unique<RayWorld>(Broadphase::AxisSweep)};
    for (auto& world : worlds) {
        Random random(151);
        fillRandomWorld(*world, random, kinds, 41);
        if (updateAabbs) world->world().updateAabbs();
    }
    const std::vector<Body> bodies = bodiesOf(*worlds[0]);
    Random random(152);
    long hits = 0;
    std::array<long, 3> differences{};
    for (int i = 0; i < kRaysPerWorld / 5; ++i) {
        const RaySpec ray = randomRay(random, bodies, i);
        std::array<ClosestHit, 3> answers;
        for (std::size_t w = 0; w < worlds.size(); ++w)
            answers[w] = castClosest(ray.from, ray.to, [&](const auto& a, const auto& b, auto& callback) {
                worlds[w]->world().rayTest(a, b, callback);
            });
        hits += answers[0].index >= 0;
        for (std::size_t w = 1; w < worlds.size(); ++w) {
            const bool tie =
                answers[w].index != answers[0].index && answers[w].index >= 0 && answers[0].index >= 0;
            const bool same =
                answers[w].fraction == answers[0].fraction &&
                (tie || (answers[w].index == answers[0].index && answers[w].normal == answers[0].normal));
            if (same || differences[w]++ >= 3) continue;
            const ClosestHit bullet =
                castClosest(ray.from, ray.to, [&](const auto& a, const auto& b, auto& callback) {
                    bulletRayTest(worlds[w]->world(), a, b, callback);
                });
            ADD_FAILURE() << (w == 1 ? "btSimpleBroadphase" : "btAxisSweep3")
                          << " (Bullet's own rayTest there: object " << bullet.index << " at "
                          << text(bullet.fraction) << "): object " << answers[w].index << " at "
                          << text(answers[w].fraction) << ", the DBVT world's " << answers[0].index << " at "
                          << text(answers[0].fraction) << "\n  from " << text(widen(ray.from)) << " to "
                          << text(widen(ray.to));
        }
    }
    std::printf(
        "[ broadphases ] %ld of %d rays hit; differing from DBVT: btSimpleBroadphase %ld, btAxisSweep3 %ld\n",
        hits, kRaysPerWorld / 5, differences[1], differences[2]);
    EXPECT_GE(hits, kRaysPerWorld / 20);
}

TEST(RayTestBroadphases, SimpleAndAxisSweepMatchDbvt) { expectBroadphasesAgree(true); }

// Right after objects are added, before any step: btAxisSweep3 sets a proxy's m_aabbMin / m_aabbMax only
// in setAabb (its createProxy leaves them unset), while Bullet's own rayTest goes through its raycast
// accelerator, whose boxes are set at creation.
TEST(RayTestBroadphases, SimpleAndAxisSweepMatchDbvtBeforeAnyStep) { expectBroadphasesAgree(false); }

// ---- 6. Threads -------------------------------------------------------------------------------------

// Eight threads cast different rays at one world at once (exact shapes, plane, mesh and compound
// fallbacks): every answer equals the sequential one, bit for bit.
TEST(RayTestThreads, ConcurrentCastsEqualSequential) {
    Random random(161);
    RayWorld world;
    fillRandomWorld(world, random, {Kind::Plane, Kind::Sphere, Kind::Box, Kind::Capsule, Kind::Cylinder}, 41);
    const std::vector<Body> bodies = bodiesOf(world);
    GridMesh data;
    data.addGrid(10, 10, 2, btVector3(-10, 0, -10),
                 [](btScalar x, btScalar z) { return btScalar(0.5 * std::sin(x) * std::cos(z)); });
    auto& mesh = world.makeShape<btBvhTriangleMeshShape>(&data.array(), true);
    world.add(mesh, translation(0, 3, 0));
    auto& compound = world.makeShape<btCompoundShape>();
    auto& sphere = world.makeShape<btSphereShape>(btScalar(2));
    compound.addChildShape(translation(1, 0, 0), &sphere);
    compound.addChildShape(translation(-1, 0, 0), &sphere);
    world.add(compound, translation(5, 5, 5));
    constexpr int kThreads = 8;
    const int perThread = kRaysPerWorld / 50;
    std::vector<RaySpec> rays;
    for (int i = 0; i < kThreads * perThread; ++i)
        rays.push_back(randomRay(random, bodies, i));
    const auto cast = [&](const RaySpec& ray) {
        RecordingCallback closest = recordOurs(world.world(), ray.from, ray.to, true);
        RecordingCallback all = recordOurs(world.world(), ray.from, ray.to, false);
        closest.results.insert(closest.results.end(), all.results.begin(), all.results.end());
        return closest.results;
    };
    std::vector<std::vector<RecordedResult>> sequential, concurrent(rays.size());
    for (const RaySpec& ray : rays)
        sequential.push_back(cast(ray));
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int i = t * perThread; i < (t + 1) * perThread; ++i)
                concurrent[std::size_t(i)] = cast(rays[std::size_t(i)]);
        });
    for (std::thread& thread : threads)
        thread.join();
    long hits = 0;
    for (std::size_t i = 0; i < rays.size(); ++i) {
        ASSERT_EQ(concurrent[i], sequential[i]) << "ray " << i;
        hits += !sequential[i].empty();
    }
    EXPECT_GE(hits, long(rays.size()) / 3);
}

}  // namespace
}  // namespace analytic::test
