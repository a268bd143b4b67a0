// SPDX-License-Identifier: Zlib
// The benchmark scenes are the ones of bench-scenes.md: every check value it lists, to its printed digits,
// the terrain's layout, and the ray hit counts Bullet 3.24 gave on the same scenes elsewhere.
#include "../../bench/support/bench_scenes.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

namespace analytic::bench {
namespace {

// value printed with as many decimals as `printed` has, as the document prints it.
std::string printedLike(double value, const std::string& printed) {
    const std::size_t point = printed.find('.');
    const int decimals = point == std::string::npos ? 0 : int(printed.size() - point - 1);
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, value);
    return text;
}

#define EXPECT_PRINTED(value, printed) EXPECT_EQ(printedLike(value, printed), printed) << #value

#define EXPECT_PRINTED_VEC3(v, px, py, pz) \
    EXPECT_PRINTED((v).x, px);             \
    EXPECT_PRINTED((v).y, py);             \
    EXPECT_PRINTED((v).z, pz)

#define EXPECT_PRINTED_QUATERNION(q, px, py, pz, pw) \
    EXPECT_PRINTED((q).x, px);                       \
    EXPECT_PRINTED((q).y, py);                       \
    EXPECT_PRINTED((q).z, pz);                       \
    EXPECT_PRINTED((q).w, pw)

class BenchScenesTest : public ::testing::Test {
protected:
    static void SetUpTestSuite() { scenes_ = new BenchScenes(generateBenchScenes()); }
    static void TearDownTestSuite() { delete scenes_; }
    static const BenchScenes& scenes() { return *scenes_; }

private:
    static inline BenchScenes* scenes_ = nullptr;
};

TEST_F(BenchScenesTest, HasTheDocumentsCounts) {
    EXPECT_EQ(scenes().objectsP.size(), 10'000u);
    EXPECT_EQ(scenes().raysP.size(), 100'000u);
    EXPECT_EQ(scenes().raysM.size(), 100'000u);
    EXPECT_EQ(scenes().bodies.size(), 1'500u);
    for (int i = 0; i < 1'500; ++i)
        EXPECT_EQ(scenes().bodies[std::size_t(i)].shape, i < 1'000 ? BodyShape::Sphere : BodyShape::Box);
}

TEST_F(BenchScenesTest, ScenePObjectsMatchTheCheckValues) {
    const SceneObject& sphere = scenes().objectsP[0];
    EXPECT_EQ(sphere.shape, ObjectShape::Sphere);
    EXPECT_PRINTED_VEC3(sphere.position, "-25.091977138", "59.308596840", "90.142862312");
    EXPECT_PRINTED(sphere.radius, "0.775152182");

    const SceneObject& box = scenes().objectsP[1];
    EXPECT_EQ(box.shape, ObjectShape::Box);
    EXPECT_PRINTED_VEC3(box.position, "46.398787666", "55.938199488", "19.731697254");
    EXPECT_PRINTED_VEC3(box.halfExtents, "1.395275242", "0.734027958", "1.168749136");
    EXPECT_PRINTED_QUATERNION(box.rotation, "0.539879837", "0.743327140", "0.140962787", "0.368949883");

    const SceneObject& capsule = scenes().objectsP[2];
    EXPECT_EQ(capsule.shape, ObjectShape::Capsule);
    EXPECT_PRINTED_VEC3(capsule.position, "-8.150222432", "73.235229729", "-33.258277737");
    EXPECT_PRINTED(capsule.radius, "0.720780508");
    EXPECT_PRINTED(capsule.halfHeight, "0.714300221");
    EXPECT_PRINTED_QUATERNION(capsule.rotation, "-0.438880440", "-0.315137083", "0.108529443", "0.834442292");

    double sum = 0;
    for (const SceneObject& o : scenes().objectsP)
        sum += o.radius + o.halfExtents.x + o.halfExtents.y + o.halfExtents.z + o.halfHeight;
    EXPECT_PRINTED(sum, "23017.390486");
}

TEST_F(BenchScenesTest, RaysMatchTheCheckValues) {
    const SceneRay& rayP = scenes().raysP[0];
    EXPECT_PRINTED_VEC3(rayP.origin, "-1.504144026", "80.938362703", "-96.778711677");
    EXPECT_PRINTED_VEC3(rayP.direction, "-0.755835152", "0.617127404", "-0.218785260");
    const SceneRay& rayM = scenes().raysM[0];
    EXPECT_PRINTED_VEC3(rayM.origin, "-15.433173208", "33.314802879", "-98.716886109");
    EXPECT_PRINTED_VEC3(rayM.direction, "0.142684289", "-0.621527552", "-0.770288710");

    double sum = 0;
    for (const auto* rays : {&scenes().raysP, &scenes().raysM})
        for (const SceneRay& r : *rays)
            sum += r.origin.x + r.origin.y + r.origin.z + r.direction.x + r.direction.y + r.direction.z;
    EXPECT_PRINTED(sum, "2992787.394475");

    for (const SceneRay& r : scenes().raysM) {
        EXPECT_LE(r.direction.y, 0);
        EXPECT_EQ(r.length, 200);
    }
}

TEST_F(BenchScenesTest, SimulationBodiesMatchTheCheckValues) {
    const SimulationBody& sphere = scenes().bodies[0];
    EXPECT_PRINTED_VEC3(sphere.position, "-19.587175101", "38.510915895", "-13.218840715");
    const SimulationBody& box = scenes().bodies[1'000];
    EXPECT_PRINTED_VEC3(box.position, "0.803449648", "43.900074199", "-5.989183923");
    EXPECT_PRINTED_QUATERNION(box.rotation, "-0.379861646", "-0.398538803", "-0.196613883", "-0.811304464");

    double positionSum = 0, rotationSum = 0;
    for (const SimulationBody& b : scenes().bodies) {
        positionSum += b.position.x + b.position.y + b.position.z;
        if (b.shape == BodyShape::Box)
            rotationSum += b.rotation.x + b.rotation.y + b.rotation.z + b.rotation.w;
    }
    EXPECT_PRINTED(positionSum, "47120.539877");
    EXPECT_PRINTED(rotationSum, "6.861340");
}

TEST(TerrainTest, TrianglesTileTheSquareFacingUp) {
    EXPECT_EQ(kTerrainTriangleCount, 131'072);
    EXPECT_EQ(terrainTriangle(0),
              (std::array{terrainVertexIndex(0, 0), terrainVertexIndex(0, 1), terrainVertexIndex(1, 0)}));
    const int lastCell = 256 * 255 + 255;
    EXPECT_EQ(terrainTriangle(2 * lastCell + 1),
              (std::array{terrainVertexIndex(256, 255), terrainVertexIndex(255, 256),
                          terrainVertexIndex(256, 256)}));
    EXPECT_EQ(terrainVertex(256, 256).x, 100);
    EXPECT_EQ(terrainVertex(0, 256).z, 100);
    double projectedArea = 0;
    for (int t = 0; t < kTerrainTriangleCount; ++t) {
        const auto [a, b, c] = terrainTriangle(t);
        const auto vertex = [](int index) {
            return terrainVertex(index % kTerrainVerticesPerSide, index / kTerrainVerticesPerSide);
        };
        const Vec3d normal = glm::cross(vertex(b) - vertex(a), vertex(c) - vertex(a));
        ASSERT_GT(normal.y, 0) << "triangle " << t;
        projectedArea += normal.y / 2;
    }
    EXPECT_DOUBLE_EQ(projectedArea, 200.0 * 200.0);
}

// Counts the rays of the list that Bullet's rayTest hits (closest hit) in the scene.
template <class Scene> int bulletRayHits(Scene& scene, const std::vector<SceneRay>& rays) {
    int hits = 0;
    for (const SceneRay& ray : rays) {
        const btVector3 from = toBulletVector(ray.origin), to = toBulletVector(ray.end());
        btCollisionWorld::ClosestRayResultCallback callback(from, to);
        scene.world().rayTest(from, to, callback);
        hits += callback.hasHit();
    }
    return hits;
}

// Counts the sphere sweeps along the first rays of the list that Bullet's convexSweepTest hits.
template <class Scene> int bulletSweepHits(Scene& scene, const std::vector<SceneRay>& rays) {
    const btSphereShape sphere{btScalar(kSweepRadius)};
    int hits = 0;
    for (int i = 0; i < kSweepCount; ++i) {
        const SceneRay& ray = rays[std::size_t(i)];
        const btVector3 from = toBulletVector(ray.origin);
        const btVector3 to = toBulletVector(ray.origin + kSweepLength * ray.direction);
        btCollisionWorld::ClosestConvexResultCallback callback(from, to);
        scene.world().convexSweepTest(&sphere, btTransform(btQuaternion::getIdentity(), from),
                                      btTransform(btQuaternion::getIdentity(), to), callback);
        hits += callback.hasHit();
    }
    return hits;
}

// Bullet 3.24's hit counts as the document quotes them check the whole chain: the rays, the objects and
// the terrain as Bullet objects. One wrong draw or vertex changes a count. Bullet's scene-P ray count
// is quoted for float; in double Bullet hits 59,615 of those rays.
TEST_F(BenchScenesTest, BulletHitsAsManyAsQuoted) {
    const auto sceneP = makeSceneP(scenes().objectsP);
    EXPECT_EQ(bulletRayHits(*sceneP, scenes().raysP), sizeof(btScalar) == sizeof(float) ? 59'853 : 59'615);
    EXPECT_EQ(bulletSweepHits(*sceneP, scenes().raysP), 4'881);
    TerrainMesh terrain;
    const auto sceneM = makeSceneM(terrain);
    EXPECT_EQ(bulletRayHits(*sceneM, scenes().raysM), 59'437);
    EXPECT_EQ(bulletSweepHits(*sceneM, scenes().raysM), 3'627);
}

TEST_F(BenchScenesTest, SimulationScenesStartAsGenerated) {
    for (const Ground ground : {Ground::Plane, Ground::Terrain}) {
        SimulationScene<> scene(ground, scenes().bodies);
        ASSERT_EQ(scene.dynamicBodyCount(), 1'500);
        EXPECT_EQ(scene.world().getNumCollisionObjects(), 1'501);
        const double raise = ground == Ground::Terrain ? 5 : 0;
        for (const int index : {0, 1'000, 1'499}) {
            const btRigidBody& body = scene.dynamicBody(index);
            const SimulationBody& expected = scenes().bodies[std::size_t(index)];
            EXPECT_EQ(body.getWorldTransform().getOrigin(),
                      toBulletVector(expected.position + Vec3d(0, raise, 0)));
            EXPECT_EQ(body.getInvMass(), 1);
            EXPECT_EQ(body.getCollisionShape()->getShapeType(),
                      expected.shape == BodyShape::Sphere ? SPHERE_SHAPE_PROXYTYPE : BOX_SHAPE_PROXYTYPE);
        }
        EXPECT_EQ(scene.groundHeight(10, 0), ground == Ground::Plane ? 0 : 5 * std::sin(1.0));
    }
}

}  // namespace
}  // namespace analytic::bench
