// SPDX-License-Identifier: Zlib
// Everything the plugin offers a Bullet user, in one include: the narrow-phase algorithms (Plugin), exact
// ray casts (rayTest, World), ray batches (rayTestBatch) and the ellipsoid shape. The engine-free
// geometry core is apart, under <analytic/geometry/...>.
#pragma once

#include "analytic/character_controller.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/plane_test.hpp"
#include "analytic/plugin.hpp"
#include "analytic/ray_batch.hpp"
#include "analytic/ray_test.hpp"
#include "analytic/sweep_test.hpp"
#include "analytic/world.hpp"
