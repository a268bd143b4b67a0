// SPDX-License-Identifier: Zlib
#include "analytic/adapters/shape_primitives.hpp"

namespace analytic {

std::optional<Primitive> toPrimitive(const btCollisionShape& shape, const btTransform& transform) {
    std::optional<Primitive> primitive;
    visitPrimitive(shape, transform, [&](const auto& made) { primitive = made; });
    return primitive;
}

}  // namespace analytic
