// SPDX-License-Identifier: Zlib
// Uses the installed headers and library: converts a Bullet sphere to the core's primitive.
#include <BulletCollision/CollisionShapes/btSphereShape.h>

#include <cstdio>
#include <variant>

#include "analytic/adapters/shape_primitives.hpp"

int main() {
    btSphereShape shape(2);
    const auto primitive =
        analytic::toPrimitive(shape, btTransform(btMatrix3x3::getIdentity(), btVector3(1, 2, 3)));
    if (!primitive || !std::holds_alternative<analytic::Sphere<btScalar>>(*primitive)) return 1;
    const auto& sphere = std::get<analytic::Sphere<btScalar>>(*primitive);
    std::printf("installed package works: sphere at (%g, %g, %g), radius %g\n", double(sphere.center.x),
                double(sphere.center.y), double(sphere.center.z), double(sphere.radius));
    return sphere.radius == 2 && sphere.center.z == 3 ? 0 : 1;
}
