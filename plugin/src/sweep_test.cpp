// SPDX-License-Identifier: Zlib
#include "analytic/sweep_test.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/sphere_query.hpp"
#include "cast/world_walk.hpp"

namespace analytic {

void sphereSweepTest(const btCollisionWorld& world, btScalar radius, const btVector3& from,
                     const btVector3& to, btCollisionWorld::ConvexResultCallback& callback,
                     btScalar allowedCcdPenetration) {
    if (!(radius >= 0) || !std::isfinite(radius))
        throw std::invalid_argument("analytic::sphereSweepTest: the radius must be finite and >= 0");
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    if (!isFinite(segment.ray.origin) || !isFinite(segment.ray.direction)) return;
    if (!std::isfinite(allowedCcdPenetration)) allowedCcdPenetration = 0;
    const btScalar swept = std::max(radius - allowedCcdPenetration, btScalar(0));
    if (!std::isfinite(swept)) return;
    const SlabRay<Scalar> slab = slabRayOf(segment.ray);
    cast::castThroughWorld(world, cast::SphereQuery{segment, swept, callback}, slab);
}

}  // namespace analytic
