// SPDX-License-Identifier: Zlib
#include "analytic/geometry/ray_cone.hpp"
using namespace analytic;
int main(){ const RoundedCone<double> cone{{{-5.125, -5.125, -5.125}, {0, 0, 0}, 2}, 0};
 auto c = intersectRayRoundedCone(RayPath<double>{{0, 0, 0}, {-5.125, -5.125, -5.125}, 1e9}, cone);
 printf("exit n %g %g %g\n", c->exit.normal.x, c->exit.normal.y, c->exit.normal.z);}
