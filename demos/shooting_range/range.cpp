// SPDX-License-Identifier: Zlib
#include "range.hpp"

#include <btBulletDynamicsCommon.h>

#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <vector>

#include "analytic/character_controller.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/plane_test.hpp"
#include "analytic/plugin.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/sweep_test.hpp"
#include "analytic/world.hpp"
#include "image.hpp"

namespace range {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

constexpr btScalar kStep = btScalar(1) / 60;
constexpr btScalar kWater = btScalar(0.9);
// The thin wall the projectiles are fired at: z = kWallZ, x in [kWallX0, kWallX1], y in [0, kWallTop];
// a box 2 cm thick on the left of kWallSplit, a single-sided-thin triangle mesh (no thickness) on the right.
constexpr btScalar kWallZ = -12, kWallX0 = -6, kWallSplit = 5, kWallX1 = 14, kWallTop = 6;
constexpr btScalar kProjectileRadius = btScalar(0.05), kProjectileSpeed = 600;
// The mesh wall's floor runs from the wall to z = kApronZ.
constexpr btScalar kApronZ = -2;
// The terrain's rectangle (x, z): the water is drawn there.
constexpr btScalar kTerrainX0 = -30, kTerrainX1 = -6, kTerrainZ0 = -12, kTerrainZ1 = 12;
// The moving platform's top and centre.
constexpr btScalar kPlatformTop = btScalar(0.3), kPlatformX = btScalar(13.6);
// The character's capsule: radius and half height of its cylinder; its half height in all.
constexpr btScalar kCharacterRadius = btScalar(0.3), kCharacterCylinder = btScalar(0.45);
constexpr btScalar kCharacterHalfHeight = kCharacterRadius + kCharacterCylinder;

enum Kind : int {
    Ground,
    Terrain,
    Static,
    Wall,
    Platform,
    Box,
    Ball,
    Capsule,
    Ellipsoid,
    Character,
    Projectile
};

btScalar platformZ(btScalar time) { return btScalar(8) + 2 * std::cos(time * btScalar(0.8)); }

// A small deterministic generator, so both paths fire the same shots.
struct Random {
    std::uint64_t state;
    btScalar next(btScalar lo, btScalar hi) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        const double unit = double(state >> 11) * (1.0 / 9007199254740992.0);
        return lo + btScalar(unit) * (hi - lo);
    }
};

struct SweepProjectile {
    btVector3 at;
    btVector3 velocity;
    int age = 0;
};

struct CcdProjectile {
    btRigidBody* body;
    btVector3 last;
    int age = 0;
};

class Scene {
public:
    explicit Scene(const Options& options) : builtin_(options.builtin) {
        if (builtin_)
            world_ = std::make_unique<btDiscreteDynamicsWorld>(&dispatcher_, &broadphase_, &solver_,
                                                               &configuration_);
        else {
            world_ = std::make_unique<analytic::DiscreteDynamicsWorld>(&dispatcher_, &broadphase_, &solver_,
                                                                       &configuration_);
            plugin_ = std::make_unique<analytic::Plugin>(*world_);
        }
        world_->setGravity(btVector3(0, btScalar(-9.81), 0));
        build();
    }

    ~Scene() {
        if (ours_) world_->removeAction(ours_.get());
        if (bullets_) world_->removeAction(bullets_.get());
        for (int i = world_->getNumCollisionObjects() - 1; i >= 0; --i)
            world_->removeCollisionObject(world_->getCollisionObjectArray()[i]);
        if (builtin_) broadphase_.getOverlappingPairCache()->setInternalGhostPairCallback(nullptr);
    }

    Scene(const Scene&) = delete;
    Scene& operator=(const Scene&) = delete;

    btDiscreteDynamicsWorld& world() { return *world_; }
    bool builtin() const { return builtin_; }
    btCharacterControllerInterface& character() {
        return builtin_ ? static_cast<btCharacterControllerInterface&>(*bullets_) : *ours_;
    }
    btVector3 characterAt() const { return ghost_->getWorldTransform().getOrigin(); }
    const btCollisionObject* ghost() const { return ghost_; }
    btRigidBody& platform() { return *platform_; }
    const std::vector<btRigidBody*>& boxes() const { return boxes_; }
    const std::vector<btTransform>& boxStarts() const { return boxStarts_; }

    btRigidBody& addBody(std::unique_ptr<btCollisionShape> shape, btScalar mass, const btTransform& transform,
                         Kind kind) {
        btVector3 inertia(0, 0, 0);
        if (mass > 0) shape->calculateLocalInertia(mass, inertia);
        states_.push_back(std::make_unique<btDefaultMotionState>(transform));
        bodies_.push_back(std::make_unique<btRigidBody>(mass, states_.back().get(), shape.get(), inertia));
        shapes_.push_back(std::move(shape));
        btRigidBody& body = *bodies_.back();
        body.setUserIndex(kind);
        world_->addRigidBody(&body);
        return body;
    }

    void removeBody(btRigidBody* body) {
        world_->removeRigidBody(body);
        const auto it =
            std::find_if(bodies_.begin(), bodies_.end(), [&](const auto& b) { return b.get() == body; });
        if (it != bodies_.end()) {
            btCollisionShape* shape = body->getCollisionShape();
            btMotionState* state = body->getMotionState();
            bodies_.erase(it);
            std::erase_if(shapes_, [&](const auto& s) { return s.get() == shape; });
            std::erase_if(states_, [&](const auto& s) { return s.get() == state; });
        }
    }

private:
    static btTransform at(const btVector3& origin) {
        return btTransform(btQuaternion::getIdentity(), origin);
    }

    void addBox(const btVector3& half, const btVector3& centre, Kind kind, btScalar mass = 0) {
        btRigidBody& body = addBody(std::make_unique<btBoxShape>(half), mass, at(centre), kind);
        if (kind == Box) {
            boxes_.push_back(&body);
            boxStarts_.push_back(body.getWorldTransform());
        }
    }

    btRigidBody& addMesh(std::unique_ptr<btTriangleMesh> mesh, Kind kind) {
        auto shape = std::make_unique<btBvhTriangleMeshShape>(mesh.get(), true);
        meshes_.push_back(std::move(mesh));
        return addBody(std::move(shape), 0, at(btVector3(0, 0, 0)), kind);
    }

    void build() {
        addBody(std::make_unique<btStaticPlaneShape>(btVector3(0, 1, 0), 0), 0, at(btVector3(0, 0, 0)),
                Ground);

        // The terrain: a bumpy grid, in part below the water (and below the ground plane).
        auto terrain = std::make_unique<btTriangleMesh>();
        const auto height = [](btScalar x, btScalar z) {
            return btScalar(0.9) +
                   btScalar(0.8) * std::sin(x * btScalar(0.4)) * std::cos(z * btScalar(0.35)) +
                   btScalar(0.3) * std::sin(z * btScalar(0.9) + x * btScalar(0.3));
        };
        const int cells = 24;
        for (int i = 0; i < cells; ++i)
            for (int j = 0; j < cells; ++j) {
                const btScalar x0 = kTerrainX0 + (kTerrainX1 - kTerrainX0) * btScalar(i) / cells;
                const btScalar x1 = kTerrainX0 + (kTerrainX1 - kTerrainX0) * btScalar(i + 1) / cells;
                const btScalar z0 = kTerrainZ0 + (kTerrainZ1 - kTerrainZ0) * btScalar(j) / cells;
                const btScalar z1 = kTerrainZ0 + (kTerrainZ1 - kTerrainZ0) * btScalar(j + 1) / cells;
                const btVector3 a(x0, height(x0, z0), z0), b(x1, height(x1, z0), z0);
                const btVector3 c(x1, height(x1, z1), z1), d(x0, height(x0, z1), z1);
                terrain->addTriangle(a, c, b);
                terrain->addTriangle(a, d, c);
            }
        addMesh(std::move(terrain), Terrain);

        // Stacks of boxes and a wall of boxes in front of the gun.
        const btScalar half = btScalar(0.4);
        for (int stack = 0; stack < 3; ++stack)
            for (int level = 0; level < 5; ++level)
                addBox(btVector3(half, half, half),
                       btVector3(btScalar(2 + 1.5 * stack), half + btScalar(level) * 2 * half, -4), Box, 1);
        for (int column = 0; column < 6; ++column)
            for (int level = 0; level < 4; ++level)
                addBox(btVector3(half, half, half),
                       btVector3(btScalar(-1 + 0.82 * column), half + btScalar(level) * 2 * half, -7), Box,
                       1);

        // Piles: spheres, capsules and ellipsoids dropped beside the boxes, and spheres onto the terrain.
        for (int i = 0; i < 48; ++i) {
            const btVector3 where(btScalar(8 + (i % 4) * 1.2), btScalar(1 + (i / 16) * 1.3),
                                  btScalar(-6 + (i / 4 % 4) * 1.2));
            std::unique_ptr<btCollisionShape> shape;
            Kind kind;
            switch (i % 3) {
                case 0:
                    shape = std::make_unique<btSphereShape>(btScalar(0.3));
                    kind = Ball;
                    break;
                case 1:
                    shape = std::make_unique<btCapsuleShape>(btScalar(0.2), btScalar(0.6));
                    kind = Capsule;
                    break;
                default:
                    shape = std::make_unique<analytic::EllipsoidShape>(
                        btVector3(btScalar(0.45), btScalar(0.25), btScalar(0.3)));
                    kind = Ellipsoid;
                    break;
            }
            addBody(std::move(shape), 1, at(where), kind);
        }
        for (int i = 0; i < 12; ++i)
            addBody(
                std::make_unique<btSphereShape>(btScalar(0.35)), 1,
                at(btVector3(btScalar(-22 + (i % 4) * 3), btScalar(4 + i / 4), btScalar(-4 + (i / 4) * 3))),
                Ball);

        // The character's course along z = 10: six steps of 25 cm up to a landing 1.5 m high, a ramp down
        // (16.7 degrees), then the moving platform (kinematic, 30 cm high, going to and fro along z).
        for (int step = 0; step < 6; ++step) {
            const btScalar top = btScalar(0.25) * btScalar(step + 1);
            addBox(btVector3(btScalar(0.3), top / 2, btScalar(1.5)),
                   btVector3(btScalar(0.6 * step + 0.3), top / 2, 10), Static);
        }
        addBox(btVector3(btScalar(1.5), btScalar(0.75), btScalar(1.5)),
               btVector3(btScalar(5.1), btScalar(0.75), 10), Static);
        const btScalar slope = std::atan2(btScalar(1.5), btScalar(5));
        btTransform ramp(btQuaternion(btVector3(0, 0, 1), -slope),
                         btVector3(btScalar(9.1) - btScalar(0.1) * std::sin(slope),
                                   btScalar(0.75) - btScalar(0.1) * std::cos(slope), 10));
        addBody(std::make_unique<btBoxShape>(btVector3(btScalar(2.61), btScalar(0.1), btScalar(1.5))), 0,
                ramp, Static);
        platform_ =
            &addBody(std::make_unique<btBoxShape>(btVector3(btScalar(1.2), kPlatformTop / 2, btScalar(1.2))),
                     0, at(btVector3(kPlatformX, kPlatformTop / 2, platformZ(0))), Platform);
        platform_->setCollisionFlags(platform_->getCollisionFlags() | btCollisionObject::CF_KINEMATIC_OBJECT);
        platform_->setActivationState(DISABLE_DEACTIVATION);

        // The thin wall: a box 2 cm thick, then a mesh of no thickness.
        addBox(btVector3((kWallSplit - kWallX0) / 2, kWallTop / 2, btScalar(0.01)),
               btVector3((kWallSplit + kWallX0) / 2, kWallTop / 2, kWallZ), Wall);
        auto wall = std::make_unique<btTriangleMesh>();
        wall->addTriangle(btVector3(kWallSplit, 0, kWallZ), btVector3(kWallX1, 0, kWallZ),
                          btVector3(kWallX1, kWallTop, kWallZ));
        wall->addTriangle(btVector3(kWallSplit, 0, kWallZ), btVector3(kWallX1, kWallTop, kWallZ),
                          btVector3(kWallSplit, kWallTop, kWallZ));
        // The mesh's floor in front of its wall, 2 mm above the ground: shots skim it into the wall.
        const btScalar apron = btScalar(0.002);
        for (int i = 0; i < 9; ++i)
            for (int j = 0; j < 10; ++j) {
                const btScalar x0 = kWallSplit + btScalar(i), x1 = x0 + 1, z0 = kWallZ + btScalar(j),
                               z1 = z0 + 1;
                wall->addTriangle(btVector3(x0, apron, z0), btVector3(x1, apron, z1),
                                  btVector3(x1, apron, z0));
                wall->addTriangle(btVector3(x0, apron, z0), btVector3(x0, apron, z1),
                                  btVector3(x1, apron, z1));
            }
        addMesh(std::move(wall), Wall);

        // The character: a capsule 1.5 m tall, step height 35 cm, up +y.
        characterShape_ = std::make_unique<btCapsuleShape>(kCharacterRadius, 2 * kCharacterCylinder);
        const btTransform start = at(btVector3(-2, btScalar(0.8), 10));
        if (builtin_) {
            auto ghost = std::make_unique<btPairCachingGhostObject>();
            broadphase_.getOverlappingPairCache()->setInternalGhostPairCallback(&ghostPairs_);
            ghost->setWorldTransform(start);
            ghost->setCollisionShape(characterShape_.get());
            ghost->setCollisionFlags(ghost->getCollisionFlags() | btCollisionObject::CF_CHARACTER_OBJECT);
            ghost_ = ghost.get();
            ghostObject_ = std::move(ghost);
            bullets_ = std::make_unique<btKinematicCharacterController>(
                static_cast<btPairCachingGhostObject*>(ghost_), characterShape_.get(), btScalar(0.35),
                btVector3(0, 1, 0));
            bullets_->setGravity(btVector3(0, btScalar(-9.81), 0));
        } else {
            ghostObject_ = std::make_unique<btCollisionObject>();
            ghost_ = ghostObject_.get();
            ghost_->setWorldTransform(start);
            ghost_->setCollisionShape(characterShape_.get());
            ghost_->setCollisionFlags(ghost_->getCollisionFlags() |
                                      btCollisionObject::CF_NO_CONTACT_RESPONSE);
            ours_ = std::make_unique<analytic::CharacterController>(ghost_, characterShape_.get(),
                                                                    btScalar(0.35), btVector3(0, 1, 0));
            ours_->setGravity(btVector3(0, btScalar(-9.81), 0));
        }
        ghost_->setUserIndex(Character);
        world_->addCollisionObject(ghost_, btBroadphaseProxy::CharacterFilter,
                                   btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
        world_->addAction(&character());
    }

    bool builtin_;
    btDefaultCollisionConfiguration configuration_;
    btCollisionDispatcher dispatcher_{&configuration_};
    btDbvtBroadphase broadphase_;
    btSequentialImpulseConstraintSolver solver_;
    btGhostPairCallback ghostPairs_;
    std::unique_ptr<btDiscreteDynamicsWorld> world_;
    std::unique_ptr<analytic::Plugin> plugin_;
    std::vector<std::unique_ptr<btTriangleMesh>> meshes_;
    std::vector<std::unique_ptr<btCollisionShape>> shapes_;
    std::vector<std::unique_ptr<btDefaultMotionState>> states_;
    std::vector<std::unique_ptr<btRigidBody>> bodies_;
    std::vector<btRigidBody*> boxes_;
    std::vector<btTransform> boxStarts_;
    btRigidBody* platform_ = nullptr;
    std::unique_ptr<btCapsuleShape> characterShape_;
    std::unique_ptr<btCollisionObject> ghostObject_;
    btCollisionObject* ghost_ = nullptr;
    std::unique_ptr<analytic::CharacterController> ours_;
    std::unique_ptr<btKinematicCharacterController> bullets_;
};

// Casts the rays: ours as one batch, Bullet's one rayTest each (the world's own, plain Bullet there).
void castRays(Scene& scene, const std::vector<analytic::Ray>& rays, std::vector<analytic::RayHit>& hits,
              const analytic::BatchOptions& options) {
    hits.assign(rays.size(), analytic::RayHit{});
    if (!scene.builtin()) {
        analytic::rayTestBatch(scene.world(), rays, hits, options);
        return;
    }
    for (std::size_t i = 0; i < rays.size(); ++i) {
        btCollisionWorld::ClosestRayResultCallback callback(rays[i].from, rays[i].to);
        scene.world().rayTest(rays[i].from, rays[i].to, callback);
        if (!callback.hasHit()) continue;
        hits[i].object = callback.m_collisionObject;
        hits[i].fraction = callback.m_closestHitFraction;
        hits[i].point = callback.m_hitPointWorld;
        hits[i].normal = callback.m_hitNormalWorld;
    }
}

// The fixed camera the pictures are taken from.
struct Camera {
    btVector3 eye{-13, 8, 17};
    btVector3 forward, right, up;
    btScalar tanHalf = btScalar(0.42);  // about 45 degrees vertically
    btScalar aspect;

    Camera(int width, int height) : aspect(btScalar(width) / btScalar(std::max(height, 1))) {
        forward = (btVector3(1, btScalar(0.5), -2) - eye).normalized();
        right = forward.cross(btVector3(0, 1, 0)).normalized();
        up = right.cross(forward);
    }
    btVector3 direction(btScalar sx, btScalar sy) const {  // sx, sy in [-1, 1], y down
        return forward + right * (sx * tanHalf * aspect) - up * (sy * tanHalf);
    }
    // The pixel a point is seen at; false when behind the camera.
    bool project(const btVector3& point, int width, int height, int& x, int& y) const {
        const btVector3 d = point - eye;
        const btScalar depth = d.dot(forward);
        if (!(depth > btScalar(0.1))) return false;
        const btScalar sx = d.dot(right) / depth / (tanHalf * aspect), sy = d.dot(up) / depth / tanHalf;
        if (std::fabs(sx) > 8 || std::fabs(sy) > 8) return false;
        x = int(std::floor((sx + 1) / 2 * btScalar(width)));
        y = int(std::floor((1 - sy) / 2 * btScalar(height)));
        return true;
    }
};

Rgb kindColour(int kind, const btVector3& point) {
    switch (kind) {
        case Ground: {
            const bool dark = (int(std::floor(point.x())) + int(std::floor(point.z()))) % 2 != 0;
            return dark ? Rgb{120, 130, 110} : Rgb{150, 160, 135};
        }
        case Terrain:
            return {110, 150, 80};
        case Static:
            return {170, 170, 180};
        case Wall:
            return {200, 200, 210};
        case Platform:
            return {230, 200, 60};
        case Box:
            return {220, 130, 50};
        case Ball:
            return {70, 120, 220};
        case Capsule:
            return {160, 90, 200};
        case Ellipsoid:
            return {40, 190, 170};
        case Character:
            return {235, 40, 40};
        default:
            return {250, 250, 250};
    }
}

std::uint8_t mix(std::uint8_t a, std::uint8_t b, double t) {
    return std::uint8_t(double(a) + (double(b) - double(a)) * t);
}
Rgb mix(Rgb a, Rgb b, double t) { return {mix(a.r, b.r, t), mix(a.g, b.g, t), mix(a.b, b.b, t)}; }

void mark(Image& image, int x, int y, Rgb colour) {
    for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx)
            image.put(x + dx, y + dy, colour);
}

struct Renderer {
    Camera camera;
    int width, height;
    std::vector<analytic::Ray> rays;
    std::vector<analytic::RayHit> hits;

    Renderer(int w, int h) : camera(w, h), width(w), height(h) {
        rays.resize(std::size_t(w) * std::size_t(h));
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const btScalar sx = (btScalar(x) + btScalar(0.5)) / btScalar(w) * 2 - 1;
                const btScalar sy = (btScalar(y) + btScalar(0.5)) / btScalar(h) * 2 - 1;
                rays[std::size_t(y) * std::size_t(w) + std::size_t(x)] = {
                    camera.eye, camera.eye + camera.direction(sx, sy) * 150};
            }
    }

    Image render(Scene& scene, const analytic::BatchOptions& options, const std::vector<btVector3>& shots,
                 const std::vector<btVector3>& stops, const std::vector<analytic::PlaneSlice>& water) {
        castRays(scene, rays, hits, options);
        Image image(width, height);
        const btVector3 light = btVector3(btScalar(0.4), 1, btScalar(0.3)).normalized();
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                const analytic::RayHit& hit = hits[std::size_t(y) * std::size_t(width) + std::size_t(x)];
                const Rgb sky = mix(Rgb{120, 170, 230}, Rgb{225, 235, 245}, double(y) / double(height));
                if (!hit.object) {
                    image.at(x, y) = sky;
                    continue;
                }
                const Rgb base = kindColour(hit.object->getUserIndex(), hit.point);
                const double lit = 0.3 + 0.7 * std::max(0.0, double(hit.normal.dot(light)));
                Rgb colour{std::uint8_t(base.r * lit), std::uint8_t(base.g * lit),
                           std::uint8_t(base.b * lit)};
                const btVector3& p = hit.point;
                if (p.y() < kWater && p.x() > kTerrainX0 && p.x() < kTerrainX1 && p.z() > kTerrainZ0 &&
                    p.z() < kTerrainZ1)
                    colour = mix(colour, Rgb{30, 80, 170}, 0.6);
                const double distance = double(hit.fraction) * 150;
                colour = mix(colour, sky, std::clamp((distance - 20) / 60, 0.0, 0.7));
                image.at(x, y) = colour;
            }
        for (const analytic::PlaneSlice& slice : water)
            for (std::size_t i = 1; i < slice.points.size(); ++i) {
                int x0, y0, x1, y1;
                if (camera.project(slice.points[i - 1], width, height, x0, y0) &&
                    camera.project(slice.points[i], width, height, x1, y1))
                    image.line(x0, y0, x1, y1, Rgb{0, 255, 255});
            }
        for (const btVector3& p : stops) {
            int x, y;
            if (camera.project(p, width, height, x, y)) mark(image, x, y, Rgb{255, 0, 255});
        }
        for (const btVector3& p : shots) {
            int x, y;
            if (camera.project(p, width, height, x, y)) mark(image, x, y, Rgb{255, 240, 0});
        }
        return image;
    }
};

// Whether a sphere of this radius at the point touches the object (our exact overlap test).
bool touches(const btCollisionWorld& world, const btCollisionObject& object, const btVector3& point,
             btScalar radius) {
    struct Touch : btCollisionWorld::ConvexResultCallback {
        const btCollisionObject* target;
        bool found = false;
        explicit Touch(const btCollisionObject* t) : target(t) {}
        btScalar addSingleResult(btCollisionWorld::LocalConvexResult& result, bool) override {
            if (result.m_hitCollisionObject == target) found = true;
            return m_closestHitFraction;
        }
    } touch(&object);
    touch.m_collisionFilterGroup = btBroadphaseProxy::AllFilter;
    touch.m_collisionFilterMask = btBroadphaseProxy::AllFilter;
    analytic::sphereSweepTest(world, radius, point, point, touch);
    return touch.found;
}

// Whether the segment from a to b crosses the wall's plane inside the wall (going away from the gun).
bool crossesWall(const btVector3& a, const btVector3& b) {
    if (!(a.z() > kWallZ && b.z() < kWallZ - kProjectileRadius - btScalar(0.02))) return false;
    const btScalar t = (a.z() - kWallZ) / (a.z() - b.z());
    const btVector3 p = a + (b - a) * t;
    return p.x() > kWallX0 && p.x() < kWallX1 && p.y() > 0 && p.y() < kWallTop;
}

}  // namespace

Report run(const Options& options) {
    Report report;
    report.builtin = options.builtin;
    Scene scene(options);
    btDiscreteDynamicsWorld& world = scene.world();
    analytic::BatchCache cache;
    analytic::BatchOptions batch;
    batch.threads = options.threads;
    batch.cache = &cache;

    const int frames = std::clamp(options.frames, 1, 100000);
    const int every = std::max(options.every, 1);
    const bool pictures = options.pictures && options.width > 0 && options.height > 0;
    std::unique_ptr<Renderer> renderer;
    std::unique_ptr<GifWriter> gif;
    if (pictures) {
        std::error_code error;
        std::filesystem::create_directories(options.output, error);
        if (error)
            throw std::runtime_error("cannot make the output folder " + options.output + ": " +
                                     error.message());
        renderer = std::make_unique<Renderer>(std::min(options.width, 1920), std::min(options.height, 1920));
        report.gifPath = (std::filesystem::path(options.output) / "run.gif").string();
        gif = std::make_unique<GifWriter>(report.gifPath, renderer->width, renderer->height,
                                          std::max(2, every * 100 / 60));
        if (!gif->ok()) report.gifPath.clear();
    }

    // The water line: where the water's plane cuts the terrain (our plane query; static, so once).
    std::vector<analytic::PlaneSlice> water;
    if (!options.builtin) {
        analytic::sliceMeshes(world, btVector3(0, 1, 0), kWater, water);
        std::erase_if(water,
                      [](const analytic::PlaneSlice& s) { return s.object->getUserIndex() != Terrain; });
        report.waterPolylines = int(water.size());
        for (const auto& slice : water)
            report.waterPoints += int(slice.points.size());
    }

    const btVector3 gun(3, btScalar(2.2), 14);
    Random random{12345};
    std::vector<analytic::Ray> shots;
    std::vector<analytic::RayHit> shotHits;
    std::vector<btVector3> shotPoints, stopPoints;
    std::vector<SweepProjectile> sweeps;
    std::vector<CcdProjectile> ccds;
    btSphereShape projectileShape(kProjectileRadius);

    // The character's walk: waypoints along the course, the last one on the platform.
    const btScalar walkSpeed = 3;
    const btVector3 waypoints[] = {btVector3(6, 0, 10), btVector3(btScalar(11.8), 0, 10)};
    std::size_t waypoint = 0;
    btVector3 lastAt = scene.characterAt();

    for (int frame = 0; frame < frames; ++frame) {
        const btScalar time = btScalar(frame) * kStep;
        // The platform moves (kinematic: its motion state is read by the world).
        btTransform platformAt(btQuaternion::getIdentity(),
                               btVector3(kPlatformX, kPlatformTop / 2, platformZ(time + kStep)));
        scene.platform().getMotionState()->setWorldTransform(platformAt);

        // The character walks to the next waypoint, then to the platform's centre, where it stops.
        const btVector3 at = scene.characterAt();
        btVector3 target =
            waypoint < std::size(waypoints) ? waypoints[waypoint] : btVector3(kPlatformX, 0, platformZ(time));
        btVector3 toTarget(target.x() - at.x(), 0, target.z() - at.z());
        if (waypoint < std::size(waypoints) && toTarget.length() < btScalar(0.2)) {
            ++waypoint;
            target = waypoint < std::size(waypoints) ? waypoints[waypoint]
                                                     : btVector3(kPlatformX, 0, platformZ(time));
            toTarget = btVector3(target.x() - at.x(), 0, target.z() - at.z());
        }
        const bool walking = waypoint < std::size(waypoints) || toTarget.length() > btScalar(0.5);
        const btVector3 walk = walking ? toTarget.normalized() * (walkSpeed * kStep) : btVector3(0, 0, 0);
        scene.character().setWalkDirection(walk);

        auto start = Clock::now();
        world.stepSimulation(kStep, 0);
        report.stepSeconds += secondsSince(start);
        // The broadphase's boxes are from before the step's integration: brought up to date so that the
        // queries below (Bullet's, and our sweeps, which cull by them) see the bodies where they are.
        world.updateAabbs();

        const btVector3 now = scene.characterAt();
        const btVector3 moved(now.x() - lastAt.x(), 0, now.z() - lastAt.z());
        report.characterDistance += double(moved.length());
        const bool onGround = scene.character().onGround();
        if (frame > 30 && !onGround) ++report.characterAirFrames;
        if (frame > 30 && walking && moved.length() < walk.length() * btScalar(0.1))
            ++report.characterStuckFrames;
        lastAt = now;
        // How far the upright capsule's bottom is below the floor under it (one exact ray down, past the
        // character's own ghost): Bullet's controller turns its ghost for the up axis, laying a capsule down.
        {
            const analytic::Ray down{now + btVector3(0, btScalar(0.5), 0), now - btVector3(0, 3, 0),
                                     btBroadphaseProxy::DefaultFilter, btBroadphaseProxy::AllFilter,
                                     scene.ghost()};
            analytic::RayHit floor;
            analytic::rayTestBatch(world, std::span(&down, 1), std::span(&floor, 1), {1, nullptr});
            if (frame > 10 && floor.object && floor.normal.y() > btScalar(0.5))
                report.characterSinkMax = std::max(
                    report.characterSinkMax, double(floor.point.y() - (now.y() - kCharacterHalfHeight)));
        }
        const btVector3 platformCentre = scene.platform().getWorldTransform().getOrigin();
        if (std::fabs(now.x() - platformCentre.x()) < btScalar(1.2) &&
            std::fabs(now.z() - platformCentre.z()) < btScalar(1.2) && now.y() > kPlatformTop + btScalar(0.6))
            report.characterReachedPlatform = true;

        // The gun: 64 rays a frame (pellets) at the boxes and piles; a hit on a dynamic body pushes it there.
        shots.clear();
        for (int i = 0; i < 64; ++i) {
            const btVector3 aim(random.next(-2, 14), random.next(0, 4), random.next(-8, -2));
            shots.push_back({gun, gun + (aim - gun) * 3});
        }
        start = Clock::now();
        castRays(scene, shots, shotHits, batch);
        report.raySeconds += secondsSince(start);
        shotPoints.clear();
        for (std::size_t i = 0; i < shots.size(); ++i) {
            ++report.shots;
            const analytic::RayHit& hit = shotHits[i];
            if (!options.builtin) {
                // The same ray through Bullet's own rayTest, in the same world at the same moment.
                btCollisionWorld::ClosestRayResultCallback bullet(shots[i].from, shots[i].to);
                world.btCollisionWorld::rayTest(shots[i].from, shots[i].to, bullet);
                const btScalar length = (shots[i].to - shots[i].from).length();
                if (hit.object && !bullet.m_collisionObject)
                    ++report.rayMissed;
                else if (bullet.m_collisionObject != hit.object)
                    ++report.rayOther;
                else if (hit.object &&
                         std::fabs(bullet.m_closestHitFraction - hit.fraction) * length > btScalar(1e-3))
                    ++report.rayOff;
                if (bullet.m_collisionObject &&
                    !touches(world, *bullet.m_collisionObject, bullet.m_hitPointWorld, btScalar(0.01)))
                    ++report.rayFalse;
            }
            if (!hit.object) continue;
            ++report.hits;
            shotPoints.push_back(hit.point);
            btRigidBody* body = const_cast<btRigidBody*>(btRigidBody::upcast(hit.object));
            if (body && body->getInvMass() > 0) {
                ++report.bodyHits;
                body->activate(true);
                body->applyImpulse((shots[i].to - shots[i].from).normalized() * btScalar(0.1),
                                   hit.point - body->getCenterOfMassPosition());
            }
        }

        // Projectiles, one moved by sphere sweeps and one CCD body each time: every sixth frame from the
        // gun at the thin wall; three frames later skimming the mesh wall's floor into its wall (the swept
        // sphere grazes the floor, 2.5 cm a step down, on its way).
        if (frame % 3 == 0) {
            btVector3 from, velocity;
            if (frame % 6 == 0) {
                const btVector3 aim(random.next(kWallX0 + 1, kWallX1 - 1),
                                    random.next(btScalar(0.5), kWallTop - 1), kWallZ);
                from = gun + btVector3(0, btScalar(-0.5), 0);
                velocity = (aim - from).normalized() * kProjectileSpeed;
            } else {
                from = btVector3(random.next(kWallSplit + 1, kWallX1 - 1),
                                 btScalar(0.002) + kProjectileRadius * btScalar(0.9), kApronZ - 1);
                velocity = btVector3(random.next(-30, 30), btScalar(-1.5), -kProjectileSpeed);
            }
            sweeps.push_back({from, velocity});
            ++report.sweepProjectiles;
            btRigidBody& body =
                scene.addBody(std::make_unique<btSphereShape>(kProjectileRadius), btScalar(0.05),
                              btTransform(btQuaternion::getIdentity(), from), Projectile);
            body.setLinearVelocity(velocity);
            body.setCcdMotionThreshold(kProjectileRadius / 2);
            body.setCcdSweptSphereRadius(kProjectileRadius * btScalar(0.8));
            ccds.push_back({&body, from});
            ++report.ccdProjectiles;
        }
        start = Clock::now();
        for (SweepProjectile& p : sweeps) {
            const btVector3 to = p.at + p.velocity * kStep;
            btCollisionWorld::ClosestConvexResultCallback callback(p.at, to);
            if (options.builtin)
                world.convexSweepTest(&projectileShape, btTransform(btQuaternion::getIdentity(), p.at),
                                      btTransform(btQuaternion::getIdentity(), to), callback);
            else
                analytic::sphereSweepTest(world, kProjectileRadius, p.at, to, callback);
            ++p.age;
            if (callback.hasHit()) {
                ++report.sweepStopped;
                stopPoints.push_back(p.at.lerp(to, callback.m_closestHitFraction));
                p.age = -1;
                continue;
            }
            if (crossesWall(p.at, to)) {
                ++report.sweepTunnelled;
                p.age = -1;
                continue;
            }
            p.at = to;
            if (p.age > 30) p.age = -1;
        }
        report.sweepSeconds += secondsSince(start);
        std::erase_if(sweeps, [](const SweepProjectile& p) { return p.age < 0; });
        for (CcdProjectile& p : ccds) {
            const btVector3 now = p.body->getWorldTransform().getOrigin();
            const bool through = crossesWall(p.last, now);
            if (through) ++report.ccdTunnelled;
            p.last = now;
            if (through || ++p.age > 90) {
                scene.removeBody(p.body);
                p.age = -1;
            }
        }
        std::erase_if(ccds, [](const CcdProjectile& p) { return p.age < 0; });

        if (renderer && (frame % every == 0 || frame == frames - 1)) {
            start = Clock::now();
            Image image = renderer->render(scene, batch, shotPoints, stopPoints, water);
            report.renderSeconds += secondsSince(start);
            char name[32];
            std::snprintf(name, sizeof name, "frame_%04d.png", report.pictures);
            if (writePng((std::filesystem::path(options.output) / name).string(), image)) ++report.pictures;
            if (gif) gif->add(image);
        }
        if (options.progress && (frame % 5 == 0 || frame == frames - 1)) {
            const int width = 40, done = (frame + 1) * width / frames;
            std::fprintf(stderr, "\r  %s [%.*s%*s] %d/%d", options.builtin ? "Bullet's" : "ours    ", done,
                         "########################################", width - done, "", frame + 1, frames);
            std::fflush(stderr);
        }
    }
    if (options.progress) std::fprintf(stderr, "\n");
    if (gif && !gif->close()) report.gifPath.clear();

    report.boxes = int(scene.boxes().size());
    for (std::size_t i = 0; i < scene.boxes().size(); ++i) {
        const btTransform& now = scene.boxes()[i]->getWorldTransform();
        const btTransform& was = scene.boxStarts()[i];
        const btScalar upright = now.getBasis().getColumn(1).dot(btVector3(0, 1, 0));
        if (upright < btScalar(0.7071) || (now.getOrigin() - was.getOrigin()).length() > 1)
            ++report.knockedOver;
    }
    return report;
}

}  // namespace range
