// SPDX-License-Identifier: Zlib
#include "analytic/ray_test.hpp"

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/geometry/ray_box.hpp"
#include "cast/ray_query.hpp"
#include "cast/world_walk.hpp"

namespace analytic {

void rayTest(const btCollisionWorld& world, const btVector3& from, const btVector3& to,
             btCollisionWorld::RayResultCallback& callback) {
    const cast::Segment segment{segmentRay(toGlm(from), toGlm(to)), from, to};
    if (!isValidRay(segment.ray)) return;  // a ray of length zero or with a non-finite end meets nothing
    // Made from the ends again, not copied out of the segment just written (a store-forwarding stall).
    const SlabRay<Scalar> slab = slabRayOf(segmentRay(toGlm(from), toGlm(to)));
    cast::castThroughWorld(world, cast::RayQuery{segment, callback}, slab);
}

}  // namespace analytic
