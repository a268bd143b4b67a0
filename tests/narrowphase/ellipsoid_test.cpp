// SPDX-License-Identifier: Zlib
// analytic::EllipsoidShape in Bullet and the plugin's ellipsoid - static plane algorithm: the shape
// against the exact ellipsoid (support, AABB, inertia, margin bound), the dispatcher's choice (ours for
// ellipsoids, Bullet's for other custom convex shapes), contacts against the geometry core, a long double
// reference and Bullet's convex-plane algorithm on 10,000 random configurations, and real worlds: resting
// on a plane at the predicted height, on a box and a sphere through Bullet's GJK, and rayTest.
#include "analytic/ellipsoid_shape.hpp"

#include <gtest/gtest.h>

#include <BulletCollision/CollisionDispatch/btConvexConvexAlgorithm.h>
#include <BulletCollision/CollisionDispatch/btConvexPlaneCollisionAlgorithm.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <stdexcept>
#include <vector>

#include "analytic/geometry/plane_tests.hpp"
#include "analytic/plugin.hpp"
#include "narrowphase/kernels.hpp"
#include "reference/plane_reference.hpp"
#include "support/bullet_world.hpp"
#include "support/test_support.hpp"

namespace analytic {
namespace {

using Scalar = btScalar;
using test::Real;
using test::RealVec3;
using test::plane_reference::RealPlane;

constexpr Real kRoundoff = unitRoundoff<Scalar>;

btVector3 randomRadii(test::Random& random) {
    return btVector3(Scalar(random.logUniform(0.05, 5)), Scalar(random.logUniform(0.05, 5)),
                     Scalar(random.logUniform(0.05, 5)));
}

btVector3 randomScaling(test::Random& random) {
    return btVector3(Scalar(random.uniform(0.3, 3)), Scalar(random.uniform(0.3, 3)),
                     Scalar(random.uniform(0.3, 3)));
}

// Scaled half of the time.
EllipsoidShape randomEllipsoid(test::Random& random) {
    EllipsoidShape shape(randomRadii(random));
    if (random.chance(0.5)) shape.setLocalScaling(randomScaling(random));
    return shape;
}

btTransform randomTransform(test::Random& random, double extent) {
    return test::transformOf(random.rotation<Scalar>(), toBullet(random.point<Scalar>(extent)));
}

RealVec3 real(const btVector3& v) { return test::widen(toGlm(v)); }

Real largest(const btVector3& v) { return Real(v[v.maxAxis()]); }
Real smallest(const btVector3& v) { return Real(v[v.minAxis()]); }

// The exact support point of the ellipsoid of these radii placed by transform, in direction.
RealVec3 exactSupport(const btVector3& radii, const btTransform& transform, const Vec3<Scalar>& direction) {
    const RealPlane below{-glm::normalize(test::widen(direction)), 0};
    return test::plane_reference::ellipsoidSupport(
               real(transform.getOrigin()), test::widen(toGlm(transform.getBasis())), real(radii), below)
        .deepest;
}

// Local support function value h(d) = max over the shape of d . x, for a unit d.
Real supportValue(const btConvexShape& shape, const btVector3& unitDirection) {
    return Real(unitDirection.dot(shape.localGetSupportingVertex(unitDirection)));
}

Real exactSupportValue(const btVector3& radii, const btVector3& unitDirection) {
    const btVector3 stretched = radii * unitDirection;
    return std::sqrt(Real(stretched.x()) * Real(stretched.x()) + Real(stretched.y()) * Real(stretched.y()) +
                     Real(stretched.z()) * Real(stretched.z()));
}

TEST(EllipsoidShape, SupportIsTheExactEllipsoidPoint) {
    test::Random random(1);
    Real worst = 0;  // in units of roundoff times the case's scale
    constexpr int kCases = 20000;
    for (int i = 0; i < kCases; ++i) {
        EllipsoidShape shape = randomEllipsoid(random);
        const btTransform transform = randomTransform(random, 20);
        const Vec3<Scalar> direction =
            random.unitVector<Scalar>() * Scalar(random.logUniform(1e-3, 1e3));  // GJK's are not unit
        const btVector3 localDirection = toBullet(direction) * transform.getBasis();
        const btVector3 local = shape.localGetSupportingVertex(localDirection);
        const RealVec3 point = real(transform * local);
        const Real scale = largest(shape.getRadii()) + Real(transform.getOrigin().length());
        const Real error =
            glm::length(point - exactSupport(shape.getRadii(), transform, direction)) / (kRoundoff * scale);
        worst = std::max(worst, error);
        // Margin 0: the core is the shape, and the batched form is the same function.
        ASSERT_EQ(local, shape.localGetSupportingVertexWithoutMargin(localDirection));
        btVector3 batched;
        shape.batchedUnitVectorGetSupportingVertexWithoutMargin(&localDirection, &batched, 1);
        ASSERT_EQ(batched, local);
    }
    std::printf("support point: worst error %.1f u S over %d cases (u = %.2g)\n", double(worst), kCases,
                double(kRoundoff));
    EXPECT_LE(worst, 16);
}

// A zero direction or radius, and directions whose squared length underflows or overflows.
TEST(EllipsoidShape, DegenerateInputGivesTheRightPoints) {
    const EllipsoidShape shape(btVector3(2, 1, Scalar(0.5)));
    EXPECT_EQ(shape.localGetSupportingVertex(btVector3(0, 0, 0)), btVector3(0, 0, 0));
    const btScalar tiny = std::numeric_limits<btScalar>::min(), huge = std::numeric_limits<btScalar>::max();
    for (const btScalar length : {tiny, Scalar(1), huge / 4}) {
        const btVector3 point = shape.localGetSupportingVertex(btVector3(length, 0, 0));
        EXPECT_EQ(point, btVector3(2, 0, 0)) << length;
        const btVector3 diagonal = shape.localGetSupportingVertex(btVector3(length, length, length));
        EXPECT_NEAR(double(diagonal.dot(btVector3(1, 1, 1))), std::sqrt(4 + 1 + 0.25), 1e-6) << length;
    }
    const EllipsoidShape disc(btVector3(1, 0, 1));
    EXPECT_EQ(disc.localGetSupportingVertex(btVector3(0, 1, 0)), btVector3(0, 0, 0));
    EXPECT_EQ(disc.localGetSupportingVertex(btVector3(0, 1, 1)), btVector3(0, 0, 1));
}

TEST(EllipsoidShape, ScalingScalesTheRadii) {
    EllipsoidShape shape(btVector3(1, 2, 3));
    shape.setLocalScaling(btVector3(2, Scalar(0.5), -1));  // Bullet keeps the magnitude
    EXPECT_EQ(shape.getRadii(), btVector3(2, 1, 3));
    EXPECT_EQ(shape.getUnscaledRadii(), btVector3(1, 2, 3));
    EXPECT_EQ(shape.localGetSupportingVertex(btVector3(0, -1, 0)), btVector3(0, -1, 0));
    EXPECT_EQ(shape.localGetSupportingVertex(btVector3(1, 0, 0)), btVector3(2, 0, 0));
    EXPECT_STREQ(shape.getName(), "Ellipsoid");
    EXPECT_EQ(shape.getShapeType(), CUSTOM_CONVEX_SHAPE_TYPE);
    EXPECT_EQ(shape.getMargin(), 0);
}

// With a margin m the shape is the core (radii - m) grown by m: outside the ellipsoid by at most
// 2 m (rmax - rmin) / (rmax + rmin), and on it along the axes.
TEST(EllipsoidShape, AMarginKeepsTheShapeWithinTheStatedBound) {
    test::Random random(2);
    Real worstShare = 0;  // of the bound
    for (int i = 0; i < 2000; ++i) {
        EllipsoidShape shape = randomEllipsoid(random);
        const btVector3 radii = shape.getRadii();
        shape.setMargin(Scalar(random.uniform(0, 1) * smallest(radii)));
        const Real margin = Real(shape.getMargin());
        const Real bound =
            2 * margin * (largest(radii) - smallest(radii)) / (largest(radii) + smallest(radii));
        const Real tolerance = 8 * kRoundoff * largest(radii);
        for (int j = 0; j < 50; ++j) {
            const btVector3 direction = toBullet(random.unitVector<Scalar>());
            const Real excess = supportValue(shape, direction) - exactSupportValue(radii, direction);
            ASSERT_GE(excess, -tolerance);
            ASSERT_LE(excess, bound + tolerance);
            if (bound > 0) worstShare = std::max(worstShare, excess / bound);
        }
        for (int axis = 0; axis < 3; ++axis) {
            btVector3 direction(0, 0, 0);
            direction[axis] = 1;
            EXPECT_NEAR(double(supportValue(shape, direction)), double(radii[axis]), double(tolerance));
        }
    }
    std::printf("margin: largest excess over the ellipsoid %.2f of the bound\n", double(worstShare));
    EXPECT_GT(worstShare, 0.3);  // the bound is not loose by more than about 3x
}

// Misuse is told or ignored, never kept: radii that are not finite sizes are refused, and a NaN margin or
// a scaling that is not finite (or that makes a radius overflow) leaves the shape as it was, so support
// points and boxes stay finite.
TEST(EllipsoidShape, HostileRadiiMarginsAndScalingsNeverMakeItNaN) {
    const Scalar nan = std::numeric_limits<Scalar>::quiet_NaN();
    const Scalar infinity = std::numeric_limits<Scalar>::infinity();
    for (const btVector3& radii : {btVector3(nan, 1, 1), btVector3(1, infinity, 1),
                                   btVector3(1, 1, -infinity), btVector3(1, Scalar(-0.5), 1)})
        EXPECT_THROW(EllipsoidShape{radii}, std::invalid_argument);
    EllipsoidShape shape(btVector3(1, Scalar(0.5), 2));
    shape.setMargin(Scalar(0.1));
    shape.setMargin(nan);
    EXPECT_EQ(shape.getMargin(), Scalar(0.1));
    const Scalar huge = std::numeric_limits<Scalar>::max() / Scalar(1.5);
    for (const btVector3& scaling :
         {btVector3(nan, 1, 1), btVector3(1, infinity, 1), btVector3(1, 1, huge)}) {
        shape.setLocalScaling(scaling);
        EXPECT_EQ(shape.getLocalScaling(), btVector3(1, 1, 1));
        EXPECT_EQ(shape.getRadii(), btVector3(1, Scalar(0.5), 2));
        EXPECT_EQ(shape.getMargin(), Scalar(0.1));
    }
    // A large scaling whose radii fit is taken.
    shape.setLocalScaling(btVector3(1, 1, huge / 2));
    EXPECT_EQ(shape.getRadii().z(), huge);
    shape.setLocalScaling(btVector3(1, 1, 1));
    const btVector3 support = shape.localGetSupportingVertex(btVector3(1, 1, 1));
    EXPECT_TRUE(std::isfinite(support.x()) && std::isfinite(support.y()) && std::isfinite(support.z()));
    btVector3 low, high;
    shape.getAabb(btTransform::getIdentity(), low, high);
    EXPECT_EQ(high, btVector3(1, Scalar(0.5), 2));
    EXPECT_EQ(low, -high);
}

TEST(EllipsoidShape, TheMarginIsClampedToTheSmallestRadius) {
    EllipsoidShape shape(btVector3(1, Scalar(0.5), 2));
    shape.setMargin(Scalar(0.04));
    EXPECT_EQ(shape.getMargin(), Scalar(0.04));
    shape.setMargin(10);
    EXPECT_EQ(shape.getMargin(), Scalar(0.5));
    shape.setLocalScaling(btVector3(1, Scalar(0.1), 1));
    EXPECT_EQ(shape.getMargin(), Scalar(0.05));
    EXPECT_EQ(shape.localGetSupportingVertex(btVector3(0, 1, 0)), btVector3(0, Scalar(0.05), 0));
    shape.setMargin(-1);
    EXPECT_EQ(shape.getMargin(), 0);
}

TEST(EllipsoidShape, AabbIsExactAndContainsTheShape) {
    test::Random random(3);
    Real worst = 0;
    for (int i = 0; i < 5000; ++i) {
        EllipsoidShape shape = randomEllipsoid(random);
        if (random.chance(0.3)) shape.setMargin(Scalar(random.uniform(0, 0.5) * smallest(shape.getRadii())));
        const btTransform transform = randomTransform(random, 20);
        btVector3 aabbMin, aabbMax;
        shape.getAabb(transform, aabbMin, aabbMax);
        // The exact extent along each world axis: the core's support there plus the margin.
        const btVector3 core = shape.getRadii() - btVector3(1, 1, 1) * shape.getMargin();
        const Real scale = largest(shape.getRadii()) + Real(transform.getOrigin().length());
        for (int axis = 0; axis < 3; ++axis) {
            for (const Scalar sign : {Scalar(-1), Scalar(1)}) {
                Vec3<Scalar> direction(0);
                direction[axis] = sign;
                const Real exact = exactSupport(core, transform, direction)[axis] + sign * shape.getMargin();
                const Real bound = sign > 0 ? Real(aabbMax[axis]) : Real(aabbMin[axis]);
                worst = std::max(worst, std::abs(bound - exact) / (kRoundoff * scale));
            }
        }
        btVector3 slowMin, slowMax;
        shape.getAabbSlow(transform, slowMin, slowMax);
        ASSERT_EQ(slowMin, aabbMin);
        ASSERT_EQ(slowMax, aabbMax);
        // Every support point of the shape (what GJK can reach) is inside, up to rounding.
        const Scalar slack = Scalar(16 * kRoundoff * scale);
        for (int j = 0; j < 20; ++j) {
            const btVector3 point =
                transform * shape.localGetSupportingVertex(toBullet(random.unitVector<Scalar>()));
            for (int axis = 0; axis < 3; ++axis) {
                ASSERT_GE(point[axis], aabbMin[axis] - slack);
                ASSERT_LE(point[axis], aabbMax[axis] + slack);
            }
        }
    }
    std::printf("AABB: worst face error %.1f u S\n", double(worst));
    EXPECT_LE(worst, 16);
}

// The inertia against a midpoint quadrature over the solid (80^3 cells of its bounding box).
TEST(EllipsoidShape, InertiaIsTheSolidEllipsoids) {
    EllipsoidShape shape(btVector3(1, Scalar(0.5), Scalar(0.25)));
    shape.setLocalScaling(btVector3(Scalar(1.5), 1, 2));
    const btVector3 r = shape.getRadii();
    constexpr int kCells = 80;
    double sum[3] = {0, 0, 0};
    long inside = 0;
    for (int i = 0; i < kCells; ++i) {
        for (int j = 0; j < kCells; ++j) {
            for (int k = 0; k < kCells; ++k) {
                const double u = (i + 0.5) / kCells * 2 - 1, v = (j + 0.5) / kCells * 2 - 1,
                             w = (k + 0.5) / kCells * 2 - 1;
                if (u * u + v * v + w * w > 1) continue;
                const double x = u * r.x(), y = v * r.y(), z = w * r.z();
                sum[0] += y * y + z * z;
                sum[1] += x * x + z * z;
                sum[2] += x * x + y * y;
                ++inside;
            }
        }
    }
    const Scalar mass = 3;
    btVector3 inertia;
    shape.calculateLocalInertia(mass, inertia);
    for (int axis = 0; axis < 3; ++axis)
        EXPECT_NEAR(double(inertia[axis]), mass * sum[axis] / double(inside), 2e-3 * double(inertia[axis]));

    // A ball: the same as Bullet's sphere.
    const EllipsoidShape ball(btVector3(Scalar(0.7), Scalar(0.7), Scalar(0.7)));
    const btSphereShape sphere(Scalar(0.7));
    btVector3 ballInertia, sphereInertia;
    ball.calculateLocalInertia(mass, ballInertia);
    sphere.calculateLocalInertia(mass, sphereInertia);
    for (int axis = 0; axis < 3; ++axis)
        EXPECT_NEAR(double(ballInertia[axis]), double(sphereInertia[axis]), 4 * double(kRoundoff));
}

struct CountingDrawer : btIDebugDraw {
    void drawLine(const btVector3& from, const btVector3& to, const btVector3&) override {
        lines.push_back({from, to});
    }
    void drawContactPoint(const btVector3&, const btVector3&, btScalar, int, const btVector3&) override {}
    void reportErrorWarning(const char*) override {}
    void draw3dText(const btVector3&, const char*) override {}
    void setDebugMode(int mode) override { debugMode = mode; }
    int getDebugMode() const override { return debugMode; }

    int debugMode = DBG_DrawWireframe;
    std::vector<std::pair<btVector3, btVector3>> lines;
};

TEST(EllipsoidShape, DrawEllipsoidDrawsItsPrincipalEllipsesWhereBulletDrawsNothing) {
    test::Random random(4);
    EllipsoidShape shape(btVector3(1, Scalar(0.5), Scalar(0.25)));
    const btTransform transform = randomTransform(random, 5);
    CountingDrawer drawer;
    drawEllipsoid(drawer, shape, transform, btVector3(1, 0, 0));
    EXPECT_EQ(drawer.lines.size(), 3u * 36u);
    for (const auto& [from, to] : drawer.lines) {
        for (const btVector3& end : {from, to}) {
            const btVector3 local = transform.invXform(end) / shape.getRadii();
            EXPECT_NEAR(double(local.length()), 1, 1e-4);
        }
    }

    test::BulletWorld world;
    CountingDrawer worldDrawer;
    world.world().setDebugDrawer(&worldDrawer);
    world.world().debugDrawObject(transform, &shape, btVector3(1, 0, 0));
    EXPECT_TRUE(worldDrawer.lines.empty());  // as the header says
}

// Another shape in Bullet's custom convex slot: a ball made of margin alone.
class OtherCustomConvex final : public btConvexInternalShape {
public:
    explicit OtherCustomConvex(btScalar radius) {
        m_shapeType = CUSTOM_CONVEX_SHAPE_TYPE;
        m_collisionMargin = radius;
    }
    btVector3 localGetSupportingVertexWithoutMargin(const btVector3&) const override {
        return btVector3(0, 0, 0);
    }
    void batchedUnitVectorGetSupportingVertexWithoutMargin(const btVector3*, btVector3* points,
                                                           int count) const override {
        for (int i = 0; i < count; ++i)
            points[i].setZero();
    }
    void calculateLocalInertia(btScalar mass, btVector3& inertia) const override {
        const btScalar moment = mass * m_collisionMargin * m_collisionMargin * 2 / 5;
        inertia.setValue(moment, moment, moment);
    }
    const char* getName() const override { return "OtherCustomConvex"; }
};

using EllipsoidPlaneAlgorithm = narrowphase::PairAlgorithm<narrowphase::EllipsoidPlane>;

class EllipsoidDispatch : public ::testing::Test {
protected:
    EllipsoidDispatch()
        : plane(world.addBody(world.makeShape<btStaticPlaneShape>(btVector3(0, 1, 0), Scalar(0)),
                              btVector3(0, 0, 0))),
          ellipsoid(world.addBody(world.makeShape<EllipsoidShape>(btVector3(1, Scalar(0.5), Scalar(0.25))),
                                  btVector3(0, Scalar(0.45), 0), 1)),
          other(world.addBody(world.makeShape<OtherCustomConvex>(Scalar(0.5)), btVector3(3, Scalar(0.45), 0),
                              1)) {}

    // What the dispatcher makes for object - plane in both orders and both tables satisfies isExpected.
    template <class Expected> void expectAlgorithms(btCollisionObject& object) {
        for (const bool swapped : {false, true}) {
            for (const ebtDispatcherQueryType table :
                 {BT_CONTACT_POINT_ALGORITHMS, BT_CLOSEST_POINT_ALGORITHMS}) {
                SCOPED_TRACE(::testing::Message() << object.getCollisionShape()->getName()
                                                  << (swapped ? ", plane first" : "") << ", table " << table);
                const test::AlgorithmPointer algorithm =
                    swapped ? test::findAlgorithm(world.dispatcher(), plane, object, table)
                            : test::findAlgorithm(world.dispatcher(), object, plane, table);
                EXPECT_NE(dynamic_cast<Expected*>(algorithm.get()), nullptr);
            }
        }
    }

    void expectBullets() {
        expectAlgorithms<btConvexPlaneCollisionAlgorithm>(ellipsoid);
        expectAlgorithms<btConvexPlaneCollisionAlgorithm>(other);
    }

    test::BulletWorld world;
    btRigidBody& plane;
    btRigidBody& ellipsoid;
    btRigidBody& other;
};

TEST_F(EllipsoidDispatch, OursForEllipsoidsBulletsForOtherCustomConvexShapes) {
    expectBullets();
    {
        const Plugin plugin(world.world());
        expectAlgorithms<EllipsoidPlaneAlgorithm>(ellipsoid);
        expectAlgorithms<btConvexPlaneCollisionAlgorithm>(other);
        // The world's own pairs too, and both shapes touch the plane.
        world.step();
        EXPECT_NE(dynamic_cast<EllipsoidPlaneAlgorithm*>(world.findPair(ellipsoid, plane)->m_algorithm),
                  nullptr);
        EXPECT_NE(dynamic_cast<btConvexPlaneCollisionAlgorithm*>(world.findPair(other, plane)->m_algorithm),
                  nullptr);
        EXPECT_EQ(world.contacts(ellipsoid, plane).size(), 1u);
        EXPECT_EQ(world.contacts(other, plane).size(), 1u);
    }
    expectBullets();
    const Plugin withoutEllipsoids(world.dispatcher(), Pair::SpherePlane | Pair::BoxPlane);
    expectBullets();
}

// Random ellipsoids (a fifth with a margin) near random planes, from half the smallest radius deep to
// twice the contact breaking threshold apart, alternately ellipsoid and plane first: one narrow-phase pass
// as the world makes it and contactPairTest (closest-points table), against the core, a long double
// reference and, without a margin, Bullet's convex-plane algorithm on the shape's support function.
TEST(EllipsoidPlaneContact, AgreesWithTheCoreTheReferenceAndBulletOnRandomConfigurations) {
    test::Random random(5);
    test::BulletWorld ours, bullets;
    const Plugin plugin(ours.dispatcher());
    constexpr int kCases = 10000;
    int contacts = 0, comparedWithBullet = 0;
    Real worstCore = 0, worstReference = 0, worstBullet = 0;  // in units of roundoff times the scale
    for (int i = 0; i < kCases; ++i) {
        EllipsoidShape shape = randomEllipsoid(random);
        const bool withMargin = random.chance(0.2);
        if (withMargin) shape.setMargin(Scalar(random.uniform(0, 0.5) * smallest(shape.getRadii())));
        btStaticPlaneShape planeShape(toBullet(random.unitVector<Scalar>()), Scalar(random.uniform(-10, 10)));
        btCollisionObject ellipsoidObject, planeObject;
        ellipsoidObject.setCollisionShape(&shape);
        planeObject.setCollisionShape(&planeShape);
        planeObject.setWorldTransform(random.chance(0.5) ? randomTransform(random, 10)
                                                         : btTransform::getIdentity());
        const Plane<Scalar> plane = toPlane(planeShape, planeObject.getWorldTransform());

        // Place the centre at the wanted signed distance of the deepest point.
        btTransform transform = randomTransform(random, 20);
        const Scalar reach = shape.getContactBreakingThreshold(gContactBreakingThreshold);
        const Scalar gap = Scalar(random.uniform(-0.5 * smallest(shape.getRadii()), 2 * reach));
        const auto placed = collideEllipsoidPlane(toEllipsoid(shape, transform), plane);
        ASSERT_TRUE(placed);
        transform.getOrigin() += toBullet(plane.normal) * (gap - placed->span.nearestDistance());
        ellipsoidObject.setWorldTransform(transform);
        const auto core = collideEllipsoidPlane(toEllipsoid(shape, transform), plane);
        ASSERT_TRUE(core);
        const Scalar distance = -core->deepest.depth;
        if (std::abs(distance - reach) < Scalar(1e-3) * reach) continue;  // at the edge of reach

        const bool ellipsoidFirst = i % 2 == 0;
        const auto pass = [&](test::BulletWorld& world) {
            return ellipsoidFirst
                       ? test::collideOnce(world.dispatcher(), ellipsoidObject, planeObject, ellipsoidObject)
                       : test::collideOnce(world.dispatcher(), planeObject, ellipsoidObject, ellipsoidObject);
        };
        const test::PairPass ourPass = pass(ours);
        SCOPED_TRACE(::testing::Message() << "case " << i << (ellipsoidFirst ? "" : ", plane first"));
        ASSERT_EQ(ourPass.contacts.size(), distance < reach ? 1u : 0u) << "distance " << distance;
        if (ourPass.contacts.empty()) continue;
        ++contacts;
        const Real scale = largest(shape.getRadii()) + Real(transform.getOrigin().length()) +
                           Real(planeObject.getWorldTransform().getOrigin().length()) +
                           std::abs(Real(plane.offset));
        // Every field's difference, in units of roundoff times the scale.
        const auto errorOf = [&](const test::SeenContact& contact, const RealVec3& onA, const RealVec3& onB,
                                 const RealVec3& normal, Real d) {
            return std::max({glm::length(real(contact.pointOnA) - onA),
                             glm::length(real(contact.pointOnB) - onB),
                             glm::length(real(contact.normalOnB) - normal) * scale,
                             std::abs(Real(contact.distance) - d)}) /
                   (kRoundoff * scale);
        };
        const auto expectCore = [&](const test::SeenContact& contact) {
            return errorOf(contact, test::widen(core->deepest.onShape), test::widen(core->deepest.onPlane),
                           test::widen(core->normal), Real(distance));
        };
        const test::SeenContact& contact = ourPass.contacts[0];
        worstCore = std::max(worstCore, expectCore(contact));

        test::SeenContactsCallback closest(ellipsoidObject);
        if (ellipsoidFirst) {
            ours.world().contactPairTest(&ellipsoidObject, &planeObject, closest);
        } else {
            ours.world().contactPairTest(&planeObject, &ellipsoidObject, closest);
        }
        ASSERT_EQ(closest.contacts.size(), 1u);
        worstCore = std::max(worstCore, expectCore(closest.contacts[0]));

        const RealPlane realPlane = test::plane_reference::widen(plane);
        const auto exact = test::plane_reference::ellipsoidSupport(real(transform.getOrigin()),
                                                                   test::widen(toGlm(transform.getBasis())),
                                                                   real(shape.getRadii()), realPlane);
        const Real exactDistance = exact.centerDistance - exact.projectedRadius;
        worstReference = std::max(
            worstReference, errorOf(contact, exact.deepest, exact.deepest - exactDistance * realPlane.normal,
                                    realPlane.normal, exactDistance));

        // Bullet's convex-plane algorithm on the same support function: the same contact without a margin.
        if (!withMargin) {
            const test::PairPass bulletPass = pass(bullets);
            ASSERT_EQ(bulletPass.contacts.size(), 1u);
            const test::SeenContact& theirs = bulletPass.contacts[0];
            worstBullet = std::max(worstBullet, errorOf(contact, real(theirs.pointOnA), real(theirs.pointOnB),
                                                        real(theirs.normalOnB), Real(theirs.distance)));
            ++comparedWithBullet;
        }
    }
    std::printf(
        "ellipsoid-plane: %d configurations, %d contacts (%d compared with Bullet); worst error "
        "vs core %.1f, vs long double %.1f, vs Bullet %.1f u S\n",
        kCases, contacts, comparedWithBullet, double(worstCore), double(worstReference), double(worstBullet));
    EXPECT_GE(contacts, kCases / 2);
    EXPECT_LE(worstCore, 16);
    EXPECT_LE(worstReference, 64);
    EXPECT_LE(worstBullet, 64);
}

// Rest-height tests: radii (1, 0.5, 0.25), gravity against the ground's normal, 60 Hz, Bullet's default
// solver; deactivation is off so that "at rest" is measured, not declared by Bullet's sleeping.
class EllipsoidResting : public ::testing::Test {
protected:
    static constexpr btScalar kHeightTolerance = btScalar(1e-3);  // m
    const btVector3 radii{1, btScalar(0.5), btScalar(0.25)};

    btRigidBody& dropEllipsoid(const btTransform& transform, btScalar angularDamping = 0) {
        btRigidBody& body = world.addBody(world.makeShape<EllipsoidShape>(radii), transform, 1);
        body.setActivationState(DISABLE_DEACTIVATION);
        body.setDamping(0, angularDamping);
        return body;
    }

    // Steps for seconds, then one more second over which it records, per body, the largest difference
    // between its height and the expected one (height(body) returns both) and its largest speeds.
    struct Watch {
        btScalar heightError = 0;
        btScalar speed = 0;
        btScalar angularSpeed = 0;
    };
    template <class Height>
    std::vector<Watch> settleAndWatch(const std::vector<btRigidBody*>& bodies, int seconds, Height height) {
        world.step(60 * seconds);
        std::vector<Watch> watches(bodies.size());
        for (int step = 0; step < 60; ++step) {
            world.step();
            for (std::size_t i = 0; i < bodies.size(); ++i) {
                const auto [measured, expected] = height(*bodies[i]);
                Watch& watch = watches[i];
                watch.heightError = std::max(watch.heightError, std::abs(measured - expected));
                watch.speed = std::max(watch.speed, bodies[i]->getLinearVelocity().length());
                watch.angularSpeed = std::max(watch.angularSpeed, bodies[i]->getAngularVelocity().length());
            }
        }
        return watches;
    }

    test::BulletWorld world;
};

// The height of the centre over the plane and the height the radii predict: the projected radius along
// the normal for the body's orientation.
std::pair<btScalar, btScalar> heightOver(const btRigidBody& body, const Plane<Scalar>& plane) {
    const auto& shape = static_cast<const EllipsoidShape&>(*body.getCollisionShape());
    const auto contact = collideEllipsoidPlane(toEllipsoid(shape, body.getWorldTransform()), plane);
    return {contact->span.centerDistance, contact->span.projectedRadius};
}

// On a tilted plane: a stable pose (shortest axis along the normal) turned about the normal, and three
// tumbling drops from random orientations. Rolling on a plane is conservative, and a single smooth
// contact has no spinning resistance, so the tumbling ones get angular damping 0.5 to come to rest.
TEST_F(EllipsoidResting, OnAPlaneAtTheHeightItsRadiiPredict) {
    test::Random random(6);
    const btVector3 normal = btVector3(Scalar(0.2), 1, Scalar(-0.3)).normalized();
    const Scalar constant = Scalar(0.7);
    world.addBody(world.makeShape<btStaticPlaneShape>(normal, constant), btVector3(0, 0, 0));
    const Plane<Scalar> plane{toGlm(normal), constant};
    world.world().setGravity(normal * Scalar(-9.81));
    const Plugin plugin(world.world());
    const btQuaternion shortAxisAlongNormal = shortestArcQuat(btVector3(0, 0, 1), normal);
    std::vector<btRigidBody*> bodies{&dropEllipsoid(btTransform(
        btQuaternion(normal, Scalar(0.9)) * shortAxisAlongNormal, normal * (constant + Scalar(0.35))))};
    const btVector3 along = normal.cross(btVector3(1, 0, 0)).normalized();
    for (int i = 1; i <= 3; ++i)
        bodies.push_back(
            &dropEllipsoid(test::transformOf(random.rotation<Scalar>(),
                                             normal * (constant + Scalar(1.2)) + along * Scalar(3 * i)),
                           Scalar(0.5)));
    const std::vector<Watch> watches =
        settleAndWatch(bodies, 30, [&](const btRigidBody& body) { return heightOver(body, plane); });
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        SCOPED_TRACE(i == 0 ? "stable pose" : "tumbling drop");
        const auto [height, predicted] = heightOver(*bodies[i], plane);
        std::printf(
            "on the plane: rest height %.6f (predicted %.6f), over the last second height error "
            "%.2g, speed %.2g, angular %.2g\n",
            double(height), double(predicted), double(watches[i].heightError), double(watches[i].speed),
            double(watches[i].angularSpeed));
        EXPECT_LE(watches[i].heightError, kHeightTolerance);
        EXPECT_NEAR(height, radii.z(), kHeightTolerance);  // at rest on its shortest axis
        EXPECT_LT(watches[i].speed, Scalar(1e-3));
        EXPECT_LT(watches[i].angularSpeed, Scalar(1e-2));
    }
}

// Through Bullet's GJK (pairs not replaced), shortest axis up: on a static box, and on top of a static
// sphere of radius 2 (a stable balance: the ellipsoid's smaller radius of curvature at its pole is 1).
// In float, GJK finds the witness point on the nearly flat pole (radius of curvature 4 along x) only as
// well as its direction converges, so on the box the ellipsoid keeps jittering in place at up to 2 cm/s
// (in double it rests); on the sphere (a point core with a margin for GJK) it rests in both.
TEST_F(EllipsoidResting, OnABoxAndOnASphereThroughBulletsGjk) {
    const Plugin plugin(world.world());
    btRigidBody& box = world.addBody(world.makeShape<btBoxShape>(btVector3(5, 1, 5)), btVector3(0, -1, 0));
    btRigidBody& ball = world.addBody(world.makeShape<btSphereShape>(Scalar(2)), btVector3(20, -2, 0));
    const btQuaternion shortAxisUp =
        btQuaternion(btVector3(0, 1, 0), Scalar(0.6)) * btQuaternion(btVector3(1, 0, 0), SIMD_HALF_PI);
    const btVector3 boxTop(0, 0, 0), ballTop(20, 0, 0);
    btRigidBody& onBox = dropEllipsoid(btTransform(shortAxisUp, boxTop + btVector3(0, Scalar(0.4), 0)));
    btRigidBody& onBall = dropEllipsoid(btTransform(shortAxisUp, ballTop + btVector3(0, Scalar(0.4), 0)));
    const std::vector<Watch> watches = settleAndWatch({&onBox, &onBall}, 8, [&](const btRigidBody& body) {
        return std::pair{body.getWorldTransform().getOrigin().y(), radii.z()};
    });
    EXPECT_NE(dynamic_cast<btConvexConvexAlgorithm*>(world.findPair(onBox, box)->m_algorithm), nullptr);
    EXPECT_NE(dynamic_cast<btConvexConvexAlgorithm*>(world.findPair(onBall, ball)->m_algorithm), nullptr);
    const struct {
        const char* ground;
        btRigidBody& body;
        btVector3 top;
        Watch watch;
        btScalar speedLimit;
    } cases[] = {{"box", onBox, boxTop, watches[0], Scalar(sizeof(Scalar) == 4 ? 0.03 : 1e-3)},
                 {"sphere", onBall, ballTop, watches[1], Scalar(1e-3)}};
    for (const auto& c : cases) {
        SCOPED_TRACE(c.ground);
        const btVector3 offset = c.body.getWorldTransform().getOrigin() - c.top;
        const btScalar aside = btVector3(offset.x(), 0, offset.z()).length();
        std::printf("on the %s: over the last second height error %.2g, speed %.2g; %.2g m aside\n", c.ground,
                    double(c.watch.heightError), double(c.watch.speed), double(aside));
        EXPECT_LE(c.watch.heightError, kHeightTolerance);
        EXPECT_LT(c.watch.speed, c.speedLimit);
        EXPECT_LT(aside, Scalar(0.01));
    }
}

// Bullet's rayTest casts at convex shapes with its subsimplex GJK cast on localGetSupportingVertex,
// which stops at a tolerance: its hits come early (measured here: float up to 4.5 mm short of the
// surface along its normal, normals up to 9 degrees off; double 2.4e-5 m and 0.9 degrees). The bounds
// asserted are 1 cm and 10 degrees; rays clear of the ellipsoid grown by 5% must miss.
TEST(EllipsoidRay, BulletsRayTestHitsNearTheExactPoint) {
    test::Random random(7);
    test::BulletWorld world;
    EllipsoidShape& shape = world.makeShape<EllipsoidShape>(btVector3(1, Scalar(0.5), Scalar(0.25)));
    shape.setLocalScaling(btVector3(Scalar(1.5), 1, 2));
    const btTransform transform = randomTransform(random, 3);
    world.addBody(shape, transform);
    world.world().updateAabbs();
    const btVector3 radii = shape.getRadii();
    // The ray from -> to in the ellipsoid's unit-ball space, where |p| = 1 is its surface.
    const auto toBall = [&](const btVector3& p) { return test::widen(toGlm(transform.invXform(p) / radii)); };
    Real worstShort = 0, worstLate = 0;  // of the surface along its normal; along the ray
    std::vector<Real> angles;            // between Bullet's normal and the exact one, degrees
    for (int i = 0; i < 2000; ++i) {
        const btVector3 from = transform.getOrigin() + toBullet(random.unitVector<Scalar>()) * Scalar(6);
        const bool aimed = i % 2 == 0;
        const btVector3 target =
            aimed
                ? transform * (toBullet(random.unitVector<Scalar>()) * radii * Scalar(random.uniform(0, 0.9)))
                : transform.getOrigin() + toBullet(random.unitVector<Scalar>()) * Scalar(4);
        // Long enough to pass the whole ellipsoid (it lies within 1.5 of its centre, 6 from the start).
        const btVector3 to = from + (target - from).normalized() * Scalar(12);
        const RealVec3 start = toBall(from), step = toBall(to) - start;
        const Real a = glm::dot(step, step), halfB = glm::dot(start, step), c = glm::dot(start, start) - 1;
        const Real discriminant = halfB * halfB - a * c;
        btCollisionWorld::ClosestRayResultCallback callback(from, to);
        world.world().rayTest(from, to, callback);
        // Misses are compared only for rays that stay clear of the ellipsoid grown by 5%.
        const Real grownDiscriminant = discriminant + a * Real(1.05 * 1.05 - 1);
        if (grownDiscriminant < 0 || halfB >= 0) {
            EXPECT_FALSE(callback.hasHit()) << "ray " << i;
            continue;
        }
        if (discriminant < 0) continue;
        ASSERT_TRUE(callback.hasHit()) << "ray " << i;
        const Real exactFraction = (-halfB - std::sqrt(discriminant)) / a;
        const RealVec3 onBall = start + exactFraction * step;
        const RealVec3 exactNormal =
            glm::normalize(test::widen(toGlm(transform.getBasis())) * (onBall / test::widen(toGlm(radii))));
        const RealVec3 ray = test::widen(toGlm(to - from));
        const Real early = (exactFraction - Real(callback.m_closestHitFraction)) * glm::length(ray);
        worstShort = std::max(worstShort, early * std::abs(glm::dot(exactNormal, glm::normalize(ray))));
        worstLate = std::max(worstLate, -early);
        angles.push_back(test::angleBetween(exactNormal, test::widen(toGlm(callback.m_hitNormalWorld))) *
                         180 / Real(M_PI));
    }
    std::sort(angles.begin(), angles.end());
    std::printf(
        "rayTest: %zu hits; worst %.2g m short of the surface along its normal, %.2g m late; "
        "normal off by %.2g deg (median), %.2g deg (worst)\n",
        angles.size(), double(worstShort), double(worstLate), double(angles[angles.size() / 2]),
        double(angles.back()));
    EXPECT_GE(angles.size(), 900u);
    EXPECT_LE(worstShort, 0.01);
    EXPECT_LE(worstLate, 1e-5);
    EXPECT_LE(angles.back(), 10);
}

}  // namespace
}  // namespace analytic
