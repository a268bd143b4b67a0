// SPDX-License-Identifier: Zlib
// The contacts our algorithms give inside a real world, against an exact long double reference written
// here and in reference/distance_reference.hpp: 10,000 random configurations per pair (random sizes,
// local scalings, rotations and places, separations around touching), each run four times: one
// narrow-phase pass as the world's near callback makes it (contact-points table, btManifoldResult,
// manifold refreshed) and contactPairTest (closest-points table), each with either object as body0.
// All four must match the same exact contact, so swapping the order gives the same physical contact.
// Sphere-sphere is also compared with Bullet's own algorithm, which is exact there.
#include <gtest/gtest.h>

#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/numeric.hpp"
#include "analytic/plugin.hpp"
#include "reference/distance_reference.hpp"
#include "reference/plane_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using test::BulletWorld;
using test::Random;
using test::Real;
using test::RealVec3;
using test::SeenContact;
using test::text;
using test::plane_reference::RealPlane;

// ---------------------------------------------------------------------------------------------------
// Stated bounds, in units of u * scale: u is btScalar's unit roundoff (float 6.0e-8, double 1.1e-16) and
// scale the largest coordinate magnitude of the case plus its largest size (a few units of 10 here).
// They cover the kernel's roundings and Bullet's own: it stores each point in its object's frame and
// the manifold's refresh maps it back and recomputes the distance from the two points.

// |distance - exact|.
constexpr Real kDistanceUnits = 32;
// |point on B - exact|, plus the normal's bound times how far the point was projected along a face
// normal; the point on A, which Bullet derives as pointOnB + distance * normal, gets the point on B's
// bound plus the distance's and |distance| times the normal's.
constexpr Real kPointUnits = 64;
// Angle of the normal, times lever / scale: a normal taken along an offset of length lever (sphere
// centre to its nearest point of B) is known to u * scale / lever; a plane's or a box face's normal
// has lever = scale, a triangle's face normal lever = its smallest altitude.
constexpr Real kNormalUnits = 32;
// Whether a contact exists is checked only outside this band around the contact's reach (the manifold's
// breaking threshold), and a sphere centre inside a box only outside this band of a tie between faces.
constexpr Real kBandUnits = 256;
constexpr int kCases = 10000;
constexpr double kMaxSkippedFraction = 0.001;

constexpr Real u = Real(unitRoundoff<btScalar>);

RealVec3 real(const btVector3& v) { return test::widen(toGlm(v)); }
Mat3<Real> realBasis(const btTransform& transform) { return test::widen(toGlm(transform.getBasis())); }
Real distance(const RealVec3& p, const RealVec3& q) { return glm::length(p - q); }

// ---------------------------------------------------------------------------------------------------
// The reference: every potential contact of the case, seen from A (the sphere, box or capsule).

struct ExactContact {
    RealVec3 pointOnA;
    RealVec3 pointOnB;
    RealVec3 normalOnB;
    Real distance;
    Real lever;
    // How far the point on B was projected along a face's normal (from A's centre or corner): its error
    // grows by this times the normal's.
    Real projected;
};

struct Reference {
    std::vector<ExactContact> candidates;
    Real scale = 0;
    bool ambiguous = false;  // the exact contact jumps within the band (a centre equally near two faces)
};

Real scaleOf(const btCollisionObject& a, const btCollisionObject& b, Real largestSize) {
    const RealVec3 origins[2] = {real(a.getWorldTransform().getOrigin()),
                                 real(b.getWorldTransform().getOrigin())};
    Real largest = 0;
    for (const RealVec3& origin : origins)
        largest = std::max({largest, std::abs(origin.x), std::abs(origin.y), std::abs(origin.z)});
    return largest + largestSize;
}

RealPlane worldPlane(const btCollisionObject& object) {
    const auto& shape = static_cast<const btStaticPlaneShape&>(*object.getCollisionShape());
    const RealVec3 normal = realBasis(object.getWorldTransform()) * real(shape.getPlaneNormal());
    const Real offset =
        Real(shape.getPlaneConstant()) + glm::dot(normal, real(object.getWorldTransform().getOrigin()));
    const Real length = glm::length(normal);
    return {normal / length, offset / length};
}

// A sphere (centre, radius) against a half-space: its lowest point and that point's projection.
ExactContact spherePlaneContact(const RealVec3& centre, Real radius, const RealPlane& plane, Real scale) {
    const Real height = test::plane_reference::signedDistance(centre, plane);
    return {centre - radius * plane.normal,
            centre - height * plane.normal,
            plane.normal,
            height - radius,
            scale,
            std::abs(height)};
}

// Sphere A against the nearest point of B, outside B: the contact along the offset between them.
ExactContact alongOffset(const RealVec3& centre, Real radius, const RealVec3& nearest) {
    const Real length = distance(centre, nearest);
    const RealVec3 normal = (centre - nearest) / length;
    return {centre - radius * normal, nearest, normal, length - radius, length, 0};
}

// The sizes come from the test, scaled by the shapes' local scaling here: they are not read back from
// Bullet's shapes, which the adapters read.

Reference spherePlaneReference(const btCollisionObject& sphere, const btCollisionObject& plane, Real radius) {
    Reference reference{{}, scaleOf(sphere, plane, radius)};
    reference.candidates.push_back(spherePlaneContact(real(sphere.getWorldTransform().getOrigin()), radius,
                                                      worldPlane(plane), reference.scale));
    return reference;
}

Reference boxPlaneReference(const btCollisionObject& box, const btCollisionObject& plane,
                            const RealVec3& halfExtents) {
    Reference reference{{}, scaleOf(box, plane, 2 * std::max({halfExtents.x, halfExtents.y, halfExtents.z}))};
    const RealPlane worldPlane_ = worldPlane(plane);
    const Mat3<Real> basis = realBasis(box.getWorldTransform());
    const RealVec3 centre = real(box.getWorldTransform().getOrigin());
    for (int corner = 0; corner < 8; ++corner) {
        RealVec3 point = centre;
        for (int axis = 0; axis < 3; ++axis)
            point += ((corner >> axis) & 1 ? 1 : -1) * halfExtents[axis] * basis[axis];
        reference.candidates.push_back(spherePlaneContact(point, 0, worldPlane_, reference.scale));
    }
    return reference;
}

Reference capsulePlaneReference(const btCollisionObject& capsule, const btCollisionObject& plane, Real radius,
                                Real halfHeight, int upAxis) {
    Reference reference{{}, scaleOf(capsule, plane, radius + halfHeight)};
    const RealVec3 axis = realBasis(capsule.getWorldTransform())[upAxis];
    const RealVec3 centre = real(capsule.getWorldTransform().getOrigin());
    for (const Real end : {-halfHeight, halfHeight})
        reference.candidates.push_back(
            spherePlaneContact(centre + end * axis, radius, worldPlane(plane), reference.scale));
    return reference;
}

Reference sphereSphereReference(const btCollisionObject& a, const btCollisionObject& b, Real radiusA,
                                Real radiusB) {
    const RealVec3 centreA = real(a.getWorldTransform().getOrigin());
    const RealVec3 centreB = real(b.getWorldTransform().getOrigin());
    Reference reference{{}, scaleOf(a, b, std::max(radiusA, radiusB))};
    const Real length = distance(centreA, centreB);
    const RealVec3 normal = (centreA - centreB) / length;
    reference.candidates.push_back({centreA - radiusA * normal, centreB + radiusB * normal, normal,
                                    length - radiusA - radiusB, length, 0});
    return reference;
}

// Outside the box: along the offset to its nearest point. Inside: out through the nearest face.
Reference sphereBoxReference(const btCollisionObject& sphere, const btCollisionObject& box, Real radius,
                             const RealVec3& halfExtents) {
    Reference reference{
        {}, scaleOf(sphere, box, std::max({radius, halfExtents.x, halfExtents.y, halfExtents.z}))};
    const RealVec3 centre = real(sphere.getWorldTransform().getOrigin());
    const RealVec3 boxCentre = real(box.getWorldTransform().getOrigin());
    const Mat3<Real> basis = realBasis(box.getWorldTransform());
    if (reference::signedDistancePointObb(centre, boxCentre, basis, halfExtents) > 0) {
        reference.candidates.push_back(
            alongOffset(centre, radius, reference::closestPointOnObb(centre, boxCentre, basis, halfExtents)));
        return reference;
    }
    RealVec3 local = reference::obbLocal(centre, boxCentre, basis);
    const RealVec3 slack = halfExtents - glm::abs(local);
    std::array<int, 3> axes{0, 1, 2};
    std::sort(axes.begin(), axes.end(), [&](int i, int j) { return slack[i] < slack[j]; });
    const int axis = axes[0];
    reference.ambiguous = slack[axes[1]] - slack[axis] <= kBandUnits * u * reference.scale;
    const Real side = local[axis] < 0 ? -1 : 1;
    local[axis] = side * halfExtents[axis];
    const RealVec3 normal = side * basis[axis];
    reference.candidates.push_back({centre - radius * normal, reference::obbWorld(local, boxCentre, basis),
                                    normal, -(radius + slack[axis]), reference.scale, 0});
    return reference;
}

// Two-sided: the face normal toward the centre's side when the nearest point is inside the face. The
// world vertices Bullet computes carry roundings of the scale, so the face normal is known to
// u scale / (the triangle's smallest altitude); near the face's border the kernel may take either
// normal, so that bounds the edges' normals and points too.
Reference sphereTriangleReference(const btCollisionObject& sphere, const btCollisionObject& triangle,
                                  Real radius) {
    const auto& shape = static_cast<const btTriangleShape&>(*triangle.getCollisionShape());
    const Mat3<Real> basis = realBasis(triangle.getWorldTransform());
    const RealVec3 origin = real(triangle.getWorldTransform().getOrigin());
    std::array<RealVec3, 3> vertices;
    Real size = 0, longestEdge = 0;
    for (int i = 0; i < 3; ++i) {
        vertices[i] = origin + basis * real(shape.m_vertices1[i]);
        size = std::max(size, glm::length(real(shape.m_vertices1[i])));
    }
    for (int i = 0; i < 3; ++i)
        longestEdge = std::max(longestEdge, distance(vertices[i], vertices[(i + 1) % 3]));
    const RealVec3 areaNormal = glm::cross(vertices[1] - vertices[0], vertices[2] - vertices[0]);
    const Real smallestAltitude = glm::length(areaNormal) / longestEdge;
    Reference reference{{}, scaleOf(sphere, triangle, std::max(radius, size))};
    const RealVec3 centre = real(sphere.getWorldTransform().getOrigin());
    const reference::TrianglePoint nearest =
        reference::closestPointOnTriangle(centre, vertices[0], vertices[1], vertices[2]);
    ExactContact contact = alongOffset(centre, radius, nearest.point);
    if (nearest.feature == reference::TriangleFeature::Face) {
        const RealVec3 faceNormal = glm::normalize(areaNormal);
        const Real height = glm::dot(faceNormal, centre - vertices[0]);
        contact.normalOnB = height < 0 ? -faceNormal : faceNormal;
        contact.pointOnA = centre - radius * contact.normalOnB;
        contact.distance = std::abs(height) - radius;
        reference.ambiguous = std::abs(height) <= kBandUnits * u * reference.scale;
    }
    contact.lever = std::min(distance(centre, nearest.point), smallestAltitude);
    contact.projected = distance(centre, nearest.point);
    reference.candidates.push_back(contact);
    return reference;
}

// ---------------------------------------------------------------------------------------------------
// Comparison.

class Tally {
public:
    void add(const char* what, Real error, Real bound) {
        Real& worst = worst_[what];
        worst = std::max(worst, error / bound);
    }

    void print(const std::string& name) const {
        std::string line = name + ": contacts " + std::to_string(contacts) + ", worst error / bound:";
        for (const auto& [what, worst] : worst_)
            line += " " + what + " " + std::to_string(double(worst));
        std::printf("%s; skipped %d of %d\n", line.c_str(), skipped, kCases);
    }

    int contacts = 0;
    int skipped = 0;

private:
    std::map<std::string, Real> worst_;
};

std::string describe(const btCollisionObject& object) {
    std::ostringstream out;
    const btCollisionShape& shape = *object.getCollisionShape();
    out << shape.getName();
    switch (shape.getShapeType()) {
        case SPHERE_SHAPE_PROXYTYPE:
            out << " radius " << text(static_cast<const btSphereShape&>(shape).getRadius());
            break;
        case BOX_SHAPE_PROXYTYPE:
            out << " half extents "
                << text(toGlm(static_cast<const btBoxShape&>(shape).getHalfExtentsWithMargin()));
            break;
        case CAPSULE_SHAPE_PROXYTYPE: {
            const auto& capsule = static_cast<const btCapsuleShape&>(shape);
            out << " axis " << capsule.getUpAxis() << " radius " << text(capsule.getRadius())
                << " half height " << text(capsule.getHalfHeight());
            break;
        }
        case STATIC_PLANE_PROXYTYPE: {
            const auto& plane = static_cast<const btStaticPlaneShape&>(shape);
            out << " normal " << text(toGlm(plane.getPlaneNormal())) << " constant "
                << text(plane.getPlaneConstant());
            break;
        }
        case TRIANGLE_SHAPE_PROXYTYPE: {
            const auto& triangle = static_cast<const btTriangleShape&>(shape);
            for (int i = 0; i < 3; ++i)
                out << " " << text(toGlm(triangle.m_vertices1[i]));
            break;
        }
        default:
            break;
    }
    out << " scaling " << text(toGlm(shape.getLocalScaling()));
    const btTransform& transform = object.getWorldTransform();
    out << " at " << text(toGlm(transform.getOrigin())) << " basis columns";
    for (int i = 0; i < 3; ++i)
        out << " " << text(toGlm(transform.getBasis().getColumn(i)));
    return out.str();
}

std::string describe(const SeenContact& contact) {
    return "on A " + text(toGlm(contact.pointOnA)) + ", on B " + text(toGlm(contact.pointOnB)) + ", normal " +
           text(toGlm(contact.normalOnB)) + ", distance " + text(contact.distance);
}

// The contacts of one pass against the reference: each one matches the potential contact nearest to its
// point on B, within the bounds; each potential contact inside the reach is reported once, none beyond.
// Returns the failures' text, empty when it agrees.
std::string disagreement(const std::vector<SeenContact>& contacts, const Reference& reference, Real reach,
                         Tally& tally) {
    std::string failures;
    const Real scale = reference.scale, band = kBandUnits * u * scale;
    const Real distanceBound = kDistanceUnits * u * scale, pointBound = kPointUnits * u * scale;
    std::vector<int> reports(reference.candidates.size(), 0);
    for (const SeenContact& contact : contacts) {
        std::size_t nearest = 0;
        for (std::size_t i = 1; i < reference.candidates.size(); ++i)
            if (distance(real(contact.pointOnB), reference.candidates[i].pointOnB) <
                distance(real(contact.pointOnB), reference.candidates[nearest].pointOnB))
                nearest = i;
        const ExactContact& exact = reference.candidates[nearest];
        ++reports[nearest];
        ++tally.contacts;
        if (exact.distance > reach + band) failures += " contact beyond its reach;";
        const Real normalBound = kNormalUnits * u * scale / exact.lever;
        const auto check = [&](const char* what, Real error, Real bound) {
            tally.add(what, error, bound);
            if (!(error <= bound))
                failures += std::string(" ") + what + " off by " + text(error) + " > " + text(bound) + ";";
        };
        check("distance", std::abs(Real(contact.distance) - exact.distance), distanceBound);
        const Real pointOnBBound = pointBound + exact.projected * normalBound;
        check("pointOnB", distance(real(contact.pointOnB), exact.pointOnB), pointOnBBound);
        check("pointOnA", distance(real(contact.pointOnA), exact.pointOnA),
              pointOnBBound + distanceBound + std::abs(exact.distance) * normalBound);
        check("normal", test::angleBetween(real(contact.normalOnB), exact.normalOnB), normalBound);
    }
    for (std::size_t i = 0; i < reference.candidates.size(); ++i) {
        const Real exactDistance = reference.candidates[i].distance;
        if (exactDistance < reach - band && reports[i] != 1)
            failures += " contact at exact distance " + text(exactDistance) + " reported " +
                        std::to_string(reports[i]) + " times;";
        if (exactDistance > reach + band && reports[i] != 0) failures += " contact beyond reach reported;";
    }
    if (failures.empty()) return failures;
    std::string report = failures + " reach " + text(reach) + "; reported:";
    for (const SeenContact& contact : contacts)
        report += " [" + describe(contact) + "]";
    report += "; exact:";
    for (const ExactContact& exact : reference.candidates)
        report += " [on A " + text(exact.pointOnA) + ", on B " + text(exact.pointOnB) + ", normal " +
                  text(exact.normalOnB) + ", distance " + text(exact.distance) + "]";
    return report;
}

// ---------------------------------------------------------------------------------------------------
// The worlds: A (dynamic) and B (static) in a world with the plugin, for each case given new shapes and
// places. Bullet's own world gets the same objects for the comparison with its sphere-sphere.

class PairWorlds {
public:
    PairWorlds() {
        for (Side& side : sides_) {
            side.a = &side.world.addBody(placeholder_, btVector3(0, 0, 0), 1);
            side.b = &side.world.addBody(placeholder_, btVector3(0, 0, 0));
        }
        plugin_ = std::make_unique<Plugin>(sides_[0].world.world());
    }

    void setShapes(std::unique_ptr<btCollisionShape> a, std::unique_ptr<btCollisionShape> b) {
        for (Side& side : sides_) {
            side.a->setCollisionShape(a.get());
            side.b->setCollisionShape(b.get());
        }
        shapeA_ = std::move(a);
        shapeB_ = std::move(b);
    }

    void place(const btTransform& a, const btTransform& b) {
        for (Side& side : sides_) {
            side.a->setWorldTransform(a);
            side.b->setWorldTransform(b);
        }
    }

    btCollisionObject& a() { return *sides_[0].a; }
    btCollisionObject& b() { return *sides_[0].b; }

    // The four passes of ours, each seen from A.
    struct Passes {
        std::array<std::vector<SeenContact>, 4> contacts;
        std::array<const char*, 4> names{"step, A first", "step, B first", "contactPairTest, A first",
                                         "contactPairTest, B first"};
        Real reach = 0;
    };

    Passes ours() {
        Side& side = sides_[0];
        Passes passes;
        const test::PairPass aFirst = test::collideOnce(side.world.dispatcher(), *side.a, *side.b, *side.a);
        const test::PairPass bFirst = test::collideOnce(side.world.dispatcher(), *side.b, *side.a, *side.a);
        passes.contacts[0] = aFirst.contacts;
        passes.contacts[1] = bFirst.contacts;
        for (int i = 2; i < 4; ++i) {
            test::SeenContactsCallback callback(*side.a);
            if (i == 2) {
                side.world.world().contactPairTest(side.a, side.b, callback);
            } else {
                side.world.world().contactPairTest(side.b, side.a, callback);
            }
            passes.contacts[i] = callback.contacts;
        }
        passes.reach = aFirst.breakingThreshold;
        EXPECT_EQ(aFirst.breakingThreshold, bFirst.breakingThreshold);
        EXPECT_GT(passes.reach, 0);
        return passes;
    }

    std::vector<SeenContact> bullets() {
        Side& side = sides_[1];
        return test::collideOnce(side.world.dispatcher(), *side.a, *side.b, *side.a).contacts;
    }

    // contactPairTest(A, B) with a callback whose closest-point distance threshold is given, in the
    // world with the plugin or in Bullet's own.
    std::vector<SeenContact> pairTest(bool analytic, btScalar closestDistanceThreshold) {
        Side& side = sides_[analytic ? 0 : 1];
        test::SeenContactsCallback callback(*side.a);
        callback.m_closestDistanceThreshold = closestDistanceThreshold;
        side.world.world().contactPairTest(side.a, side.b, callback);
        return callback.contacts;
    }

private:
    struct Side {
        BulletWorld world;
        btRigidBody* a = nullptr;
        btRigidBody* b = nullptr;
    };

    // Declared before the worlds, which hold pointers to them.
    btSphereShape placeholder_{1};
    std::unique_ptr<btCollisionShape> shapeA_, shapeB_;
    std::array<Side, 2> sides_;
    std::unique_ptr<Plugin> plugin_;
};

// How far apart a pair's contacts are reported: up to the manifold's breaking threshold, or only
// touching ones (up to the closest-point distance threshold, 0 in a step and in contactPairTest with a
// default callback), as for sphere-sphere, whose manifold is cleared and recomputed at every step.
enum class Reach { BreakingThreshold, Touching };

// Runs kCases cases: makeCase(random, worlds) gives the objects shapes and places and returns the
// reference; every pass of ours must agree with it. extraCheck(worlds, reference, passes) may compare more.
template <class MakeCase, class ExtraCheck> void checkRandomCases(const std::string& name, std::uint64_t seed,
                                                                  MakeCase makeCase, ExtraCheck extraCheck,
                                                                  Reach reach = Reach::BreakingThreshold) {
    Random random(seed);
    PairWorlds worlds;
    Tally tally;
    int failures = 0;
    for (int i = 0; i < kCases && failures < 5; ++i) {
        const Reference reference = makeCase(random, worlds);
        if (reference.ambiguous) {
            ++tally.skipped;
            continue;
        }
        const PairWorlds::Passes passes = worlds.ours();
        for (int pass = 0; pass < 4; ++pass) {
            const std::string failure = disagreement(passes.contacts[pass], reference,
                                                     reach == Reach::Touching ? 0 : passes.reach, tally);
            if (!failure.empty() && failures++ < 5)
                ADD_FAILURE() << name << " case " << i << ", " << passes.names[pass] << ":" << failure
                              << "\n  A: " << describe(worlds.a()) << "\n  B: " << describe(worlds.b());
        }
        extraCheck(worlds, reference, passes);
    }
    tally.print(name);
    EXPECT_LE(tally.skipped, kMaxSkippedFraction * kCases);
}

template <class MakeCase>
void checkRandomCases(const std::string& name, std::uint64_t seed, MakeCase makeCase) {
    checkRandomCases(name, seed, makeCase, [](PairWorlds&, const Reference&, const PairWorlds::Passes&) {});
}

// ---------------------------------------------------------------------------------------------------
// Random configurations. Sizes log-uniform in 0.05 .. 5, places within 10 of the origin, rotations
// uniform; separations from well inside to a little beyond the contacts' reach (about 2% of a size).

double randomSize(Random& random) { return random.logUniform(0.05, 5); }

btVector3 bullet(const Vec3<double>& v) { return btVector3(btScalar(v.x), btScalar(v.y), btScalar(v.z)); }

// A local scaling for 30% of the shapes: 0.5 .. 2 on each axis, or the same on all for a sphere.
btVector3 randomScaling(Random& random, bool uniform) {
    if (!random.chance(0.3)) return btVector3(1, 1, 1);
    const btScalar x = btScalar(random.uniform(0.5, 2));
    if (uniform) return btVector3(x, x, x);
    return btVector3(x, btScalar(random.uniform(0.5, 2)), btScalar(random.uniform(0.5, 2)));
}

// A size as the shape holds it (btScalar) times its scaling, exactly.
Real scaledSize(double size, btScalar scaling) { return Real(btScalar(size)) * Real(scaling); }

RealVec3 scaledSizes(const Vec3<double>& sizes, const btVector3& scaling) {
    return {scaledSize(sizes.x, scaling.x()), scaledSize(sizes.y, scaling.y()),
            scaledSize(sizes.z, scaling.z())};
}

template <class Shape>
std::unique_ptr<Shape> scaledShape(std::unique_ptr<Shape> shape, const btVector3& scaling) {
    shape->setLocalScaling(scaling);
    return shape;
}

// A sphere of a random size and scaling, and its radius as the reference takes it.
std::pair<std::unique_ptr<btSphereShape>, Real> randomSphere(Random& random) {
    const double radius = randomSize(random);
    const btVector3 scaling = randomScaling(random, true);
    return {scaledShape(std::make_unique<btSphereShape>(btScalar(radius)), scaling),
            scaledSize(radius, scaling.x())};
}

// A box of a random size, proportions (each half extent 0.3 .. 1 of the size) and scaling, and its half
// extents as the reference takes them.
std::pair<std::unique_ptr<btBoxShape>, RealVec3> randomBox(Random& random) {
    const double size = randomSize(random);
    const Vec3<double> unscaled(size * random.uniform(0.3, 1), size * random.uniform(0.3, 1),
                                size * random.uniform(0.3, 1));
    const btVector3 scaling = randomScaling(random, false);
    return {scaledShape(std::make_unique<btBoxShape>(bullet(unscaled)), scaling),
            scaledSizes(unscaled, scaling)};
}

btTransform randomTransform(Random& random, const Vec3<double>& origin) {
    return test::transformOf(Mat3<btScalar>(random.rotation<double>()), bullet(origin));
}

// A rotation whose columns are (tangent, normal, other tangent).
Mat3<double> frameAround(const Vec3<double>& normal) {
    const Vec3<double> helper = std::abs(normal.x) < 0.6 ? Vec3<double>(1, 0, 0) : Vec3<double>(0, 1, 0);
    const Vec3<double> tangent = glm::normalize(glm::cross(helper, normal));
    return Mat3<double>(tangent, normal, glm::cross(tangent, normal));
}

Mat3<double> rotationAbout(int axis, double angle) {
    Mat3<double> rotation(1);
    const int i = (axis + 1) % 3, j = (axis + 2) % 3;
    rotation[i][i] = std::cos(angle);
    rotation[i][j] = std::sin(angle);
    rotation[j][i] = -std::sin(angle);
    rotation[j][j] = std::cos(angle);
    return rotation;
}

// A random plane (normal and constant in a randomly placed frame) in B; returns its world normal and a
// world point on it near the origin.
struct PlacedPlane {
    Vec3<double> normal;
    Vec3<double> point;
};

PlacedPlane randomPlane(Random& random, PairWorlds& worlds, std::unique_ptr<btCollisionShape> shapeA) {
    const Vec3<double> localNormal = random.unitVector<double>();
    const double constant = random.uniform(-5, 5);
    const btTransform transform = randomTransform(random, random.point<double>(5));
    worlds.setShapes(std::move(shapeA),
                     std::make_unique<btStaticPlaneShape>(bullet(localNormal), btScalar(constant)));
    worlds.place(worlds.a().getWorldTransform(), transform);
    const Vec3<double> normal =
        glm::normalize(Vec3<double>(toGlm(transform.getBasis() * bullet(localNormal))));
    const double offset = constant + glm::dot(normal, Vec3<double>(toGlm(transform.getOrigin())));
    const Vec3<double> onPlane = random.point<double>(5);
    return {normal, onPlane - (glm::dot(normal, onPlane) - offset) * normal};
}

// A tilt for a shape meant to rest flat: mostly tiny (several corners or ends within reach), sometimes
// any angle.
double randomTilt(Random& random) {
    return random.chance(0.7) ? random.uniform(-0.02, 0.02) : random.uniform(-M_PI, M_PI);
}

TEST(ContactAgreement, SpherePlane) {
    checkRandomCases("sphere-plane", 1, [](Random& random, PairWorlds& worlds) {
        auto [shape, radius] = randomSphere(random);
        const PlacedPlane plane = randomPlane(random, worlds, std::move(shape));
        const Vec3<double> centre =
            plane.point + plane.normal * (double(radius) * (1 + random.uniform(-0.5, 0.06)));
        worlds.place(randomTransform(random, centre), worlds.b().getWorldTransform());
        return spherePlaneReference(worlds.a(), worlds.b(), radius);
    });
}

TEST(ContactAgreement, BoxPlane) {
    int fourPointCases = 0, twoPointCases = 0;
    checkRandomCases(
        "box-plane", 2,
        [](Random& random, PairWorlds& worlds) {
            auto [shape, halfExtents] = randomBox(random);
            const PlacedPlane plane = randomPlane(random, worlds, std::move(shape));
            // A face, an edge or a corner of the box down, near flat.
            const Mat3<double> rotation =
                frameAround(plane.normal) * rotationAbout(1, random.uniform(0, 2 * M_PI)) *
                rotationAbout(0, randomTilt(random)) * rotationAbout(2, randomTilt(random));
            double lowest = 0;
            for (int axis = 0; axis < 3; ++axis)
                lowest += double(halfExtents[axis]) * std::abs(glm::dot(plane.normal, rotation[axis]));
            const double smallest = double(std::min({halfExtents.x, halfExtents.y, halfExtents.z}));
            const Vec3<double> centre =
                plane.point + plane.normal * (lowest + smallest * random.uniform(-0.5, 0.1));
            worlds.place(test::transformOf(Mat3<btScalar>(rotation), bullet(centre)),
                         worlds.b().getWorldTransform());
            return boxPlaneReference(worlds.a(), worlds.b(), halfExtents);
        },
        [&](PairWorlds&, const Reference&, const PairWorlds::Passes& passes) {
            fourPointCases += passes.contacts[0].size() == 4;
            twoPointCases += passes.contacts[0].size() == 2;
        });
    std::printf("box-plane: %d cases with 4 points, %d with 2\n", fourPointCases, twoPointCases);
    EXPECT_GE(fourPointCases, kCases / 10);
    EXPECT_GE(twoPointCases, kCases / 20);
}

TEST(ContactAgreement, CapsulePlane) {
    int twoPointCases = 0;
    checkRandomCases(
        "capsule-plane", 3,
        [](Random& random, PairWorlds& worlds) {
            const double unscaledRadius = randomSize(random);
            const double unscaledHalfHeight = unscaledRadius * random.uniform(0.3, 3);
            const int upAxis = int(random.uniform(0, 3));
            const btScalar r = btScalar(unscaledRadius), height = btScalar(2 * unscaledHalfHeight);
            std::unique_ptr<btCapsuleShape> shape = upAxis == 0 ? std::make_unique<btCapsuleShapeX>(r, height)
                                                    : upAxis == 1
                                                        ? std::make_unique<btCapsuleShape>(r, height)
                                                        : std::make_unique<btCapsuleShapeZ>(r, height);
            // Bullet scales the radius by the scaling of the axis after next and the height by the up axis's.
            const btVector3 scaling = randomScaling(random, false);
            const Real radius = scaledSize(unscaledRadius, scaling[(upAxis + 2) % 3]);
            const Real halfHeight = Real(height / 2) * Real(scaling[upAxis]);
            const PlacedPlane plane = randomPlane(random, worlds, scaledShape(std::move(shape), scaling));
            // The axis lying along the plane, near flat, or standing at any angle.
            const Mat3<double> lying = frameAround(plane.normal) *
                                       rotationAbout(1, random.uniform(0, 2 * M_PI)) *
                                       rotationAbout(2, randomTilt(random) + M_PI / 2);
            const Vec3<double> axis = lying[1];
            Mat3<double> rotation;
            rotation[upAxis] = axis;
            rotation[(upAxis + 1) % 3] = frameAround(axis)[0];
            rotation[(upAxis + 2) % 3] = glm::cross(axis, rotation[(upAxis + 1) % 3]);
            const double lowest =
                double(radius) + double(halfHeight) * std::abs(glm::dot(plane.normal, axis));
            const Vec3<double> centre =
                plane.point + plane.normal * (lowest + double(radius) * random.uniform(-0.5, 0.06));
            worlds.place(test::transformOf(Mat3<btScalar>(rotation), bullet(centre)),
                         worlds.b().getWorldTransform());
            return capsulePlaneReference(worlds.a(), worlds.b(), radius, halfHeight, upAxis);
        },
        [&](PairWorlds&, const Reference&, const PairWorlds::Passes& passes) {
            twoPointCases += passes.contacts[0].size() == 2;
        });
    std::printf("capsule-plane: %d cases with 2 points\n", twoPointCases);
    EXPECT_GE(twoPointCases, kCases / 10);
}

// Only touching or overlapping spheres give a contact in a step, as with Bullet's sphere-sphere: both
// decide on the same rounded distance, so they report the same pairs, and where Bullet's reports one,
// ours agrees with it within the bounds above. contactPairTest with a closest-point distance threshold
// reports spheres up to that far apart, as Bullet's does.
TEST(ContactAgreement, SphereSphereAlsoAgreesWithBullet) {
    int comparedWithBullet = 0, nearButApart = 0;
    checkRandomCases(
        "sphere-sphere", 4,
        [](Random& random, PairWorlds& worlds) {
            auto [shapeA, radiusA] = randomSphere(random);
            auto [shapeB, radiusB] = randomSphere(random);
            worlds.setShapes(std::move(shapeA), std::move(shapeB));
            const Vec3<double> centreB = random.point<double>(10);
            const double sum = double(radiusA + radiusB), smaller = double(std::min(radiusA, radiusB));
            // Mostly around touching, some deep.
            const double gap =
                random.chance(0.8) ? smaller * random.uniform(-0.5, 0.06) : -sum * random.uniform(0.5, 0.95);
            const Vec3<double> centreA = centreB + random.unitVector<double>() * (sum + gap);
            worlds.place(randomTransform(random, centreA), randomTransform(random, centreB));
            return sphereSphereReference(worlds.a(), worlds.b(), radiusA, radiusB);
        },
        [&](PairWorlds& worlds, const Reference& reference, const PairWorlds::Passes& passes) {
            const std::vector<SeenContact> bullets = worlds.bullets();
            const Real band = kBandUnits * u * reference.scale;
            const Real exactDistance = reference.candidates[0].distance;
            if (exactDistance < -band) {
                EXPECT_EQ(bullets.size(), 1u);
            }
            EXPECT_EQ(passes.contacts[0].size(), bullets.size());
            EXPECT_EQ(passes.contacts[1].size(), bullets.size());
            // The breaking threshold as the callback's threshold: a distance of the pair's scale.
            const btScalar threshold = btScalar(passes.reach);
            const std::vector<SeenContact> ourNear = worlds.pairTest(true, threshold);
            Tally unused;
            EXPECT_EQ(disagreement(ourNear, reference, Real(threshold), unused), "");
            if (std::abs(exactDistance - Real(threshold)) > band) {
                EXPECT_EQ(ourNear.size(), worlds.pairTest(false, threshold).size());
            }
            nearButApart += exactDistance > band && !ourNear.empty();
            if (bullets.empty()) return;
            ++comparedWithBullet;
            Reference bulletsAnswer = reference;
            const SeenContact& contact = bullets[0];
            bulletsAnswer.candidates[0] = {real(contact.pointOnA),        real(contact.pointOnB),
                                           real(contact.normalOnB),       Real(contact.distance),
                                           reference.candidates[0].lever, 0};
            EXPECT_EQ(disagreement(passes.contacts[0], bulletsAnswer, 0, unused), "");
        },
        Reach::Touching);
    std::printf("sphere-sphere: %d cases compared with Bullet's own, %d apart but within the threshold\n",
                comparedWithBullet, nearButApart);
    EXPECT_GE(comparedWithBullet, kCases / 2);
    EXPECT_GE(nearButApart, kCases / 100);
}

// Centres anywhere in the box grown by the radius: face, edge and corner regions and inside.
TEST(ContactAgreement, SphereBox) {
    checkRandomCases("sphere-box", 5, [](Random& random, PairWorlds& worlds) {
        auto [sphere, radius] = randomSphere(random);
        auto [box, halfExtents] = randomBox(random);
        worlds.setShapes(std::move(sphere), std::move(box));
        const btTransform boxPlace = randomTransform(random, random.point<double>(10));
        const Vec3<double> reach = Vec3<double>(halfExtents) + double(radius) * 1.05;
        const Vec3<double> local(random.uniform(-reach.x, reach.x), random.uniform(-reach.y, reach.y),
                                 random.uniform(-reach.z, reach.z));
        worlds.place(randomTransform(random, Vec3<double>(toGlm(boxPlace * bullet(local)))), boxPlace);
        return sphereBoxReference(worlds.a(), worlds.b(), radius, halfExtents);
    });
}

// Centres over the face, or beside an edge or vertex, on either side.
TEST(ContactAgreement, SphereTriangle) {
    checkRandomCases("sphere-triangle", 6, [](Random& random, PairWorlds& worlds) {
        auto [sphere, radius] = randomSphere(random);
        const double size = randomSize(random);
        std::array<Vec3<double>, 3> vertices;
        Vec3<double> normal;
        do {
            for (Vec3<double>& vertex : vertices)
                vertex = random.point<double>(size);
            normal = glm::cross(vertices[1] - vertices[0], vertices[2] - vertices[0]);
        } while (glm::length(normal) < 0.2 * size * size);
        worlds.setShapes(
            std::move(sphere),
            std::make_unique<btTriangleShape>(bullet(vertices[0]), bullet(vertices[1]), bullet(vertices[2])));
        const btTransform triangle = randomTransform(random, random.point<double>(10));
        const double s = random.uniform(-0.3, 1.3), t = random.uniform(-0.3, 1.3 - s);
        const Vec3<double> onPlane =
            vertices[0] + s * (vertices[1] - vertices[0]) + t * (vertices[2] - vertices[0]);
        const double height =
            (random.chance(0.5) ? 1 : -1) * double(radius) * (1 + random.uniform(-0.5, 0.06));
        const Vec3<double> local = onPlane + glm::normalize(normal) * height;
        worlds.place(randomTransform(random, Vec3<double>(toGlm(triangle * bullet(local)))), triangle);
        return sphereTriangleReference(worlds.a(), worlds.b(), radius);
    });
}

// A box resting flat on a plane gets its 4 corners in one pass, in either order.
TEST(ContactAgreement, BoxRestingFlatGetsFourPointsInOnePass) {
    PairWorlds worlds;
    worlds.setShapes(std::make_unique<btBoxShape>(btVector3(1, btScalar(0.5), 2)),
                     std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), btScalar(0)));
    worlds.place(
        btTransform(btQuaternion(btVector3(0, 1, 0), btScalar(0.3)), btVector3(2, btScalar(0.499), -1)),
        btTransform::getIdentity());
    const PairWorlds::Passes passes = worlds.ours();
    for (int pass = 0; pass < 4; ++pass) {
        SCOPED_TRACE(passes.names[pass]);
        ASSERT_EQ(passes.contacts[pass].size(), 4u);
        for (const SeenContact& contact : passes.contacts[pass]) {
            EXPECT_NEAR(contact.distance, -0.001, 1e-5);
            EXPECT_NEAR(contact.pointOnB.y(), 0, 1e-6);
            EXPECT_EQ(contact.normalOnB, btVector3(0, 1, 0));
        }
    }
    // Bullet's convex-plane algorithm finds one corner per pass.
    EXPECT_EQ(worlds.bullets().size(), 1u);
}

// Coincident centres have no direction between them: ours, like Bullet's, pushes body0 out along +x.
TEST(ContactAgreement, CoincidentSphereCentres) {
    PairWorlds worlds;
    worlds.setShapes(std::make_unique<btSphereShape>(btScalar(0.5)),
                     std::make_unique<btSphereShape>(btScalar(1)));
    worlds.place(btTransform::getIdentity(), btTransform::getIdentity());
    const PairWorlds::Passes passes = worlds.ours();
    const std::vector<SeenContact> bullets = worlds.bullets();
    ASSERT_EQ(bullets.size(), 1u);
    EXPECT_EQ(bullets[0].normalOnB, btVector3(1, 0, 0));
    for (int pass = 0; pass < 4; ++pass) {
        SCOPED_TRACE(passes.names[pass]);
        ASSERT_EQ(passes.contacts[pass].size(), 1u);
        const SeenContact& contact = passes.contacts[pass][0];
        const bool aFirst = pass % 2 == 0;
        // Seen from A: B is pushed along +x when it is body0.
        EXPECT_EQ(contact.normalOnB, btVector3(aFirst ? 1 : -1, 0, 0));
        EXPECT_NEAR(contact.distance, -1.5, 1e-6);
        EXPECT_NEAR((contact.pointOnB - contact.normalOnB).length(), 0, 1e-6);
    }
}

}  // namespace
}  // namespace analytic
