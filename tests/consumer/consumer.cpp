// SPDX-License-Identifier: Zlib
// Uses the installed headers and library: converts a Bullet sphere to the core's primitive, and casts a
// ray at it through a world whose rayTest is ours.
#include <btBulletCollisionCommon.h>

#include <cstdio>
#include <variant>

#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/analytic.hpp"

int main() {
    btSphereShape shape(2);
    const auto primitive =
        analytic::toPrimitive(shape, btTransform(btMatrix3x3::getIdentity(), btVector3(1, 2, 3)));
    if (!primitive || !std::holds_alternative<analytic::Sphere<btScalar>>(*primitive)) return 1;
    const auto& sphere = std::get<analytic::Sphere<btScalar>>(*primitive);
    std::printf("installed package works: sphere at (%g, %g, %g), radius %g\n", double(sphere.center.x),
                double(sphere.center.y), double(sphere.center.z), double(sphere.radius));
    if (sphere.radius != 2 || sphere.center.z != 3) return 1;

    btDefaultCollisionConfiguration configuration;
    btCollisionDispatcher dispatcher(&configuration);
    btDbvtBroadphase broadphase;
    analytic::World<btCollisionWorld> world(&dispatcher, &broadphase, &configuration);
    btCollisionObject object;
    object.setCollisionShape(&shape);
    object.getWorldTransform().setOrigin(btVector3(1, 2, 3));
    world.addCollisionObject(&object);
    world.updateAabbs();
    btCollisionWorld::ClosestRayResultCallback closest(btVector3(1, 2, 10), btVector3(1, 2, 0));
    world.rayTest(closest.m_rayFromWorld, closest.m_rayToWorld, closest);
    world.removeCollisionObject(&object);
    std::printf("ray hit at z %g\n", double(closest.m_hitPointWorld.z()));
    return closest.hasHit() && closest.m_hitPointWorld.z() == 5 ? 0 : 1;
}
