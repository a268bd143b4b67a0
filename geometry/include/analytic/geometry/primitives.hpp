// SPDX-License-Identifier: Zlib
// The shapes and query results of the geometry core. Engine-free: GLM only, templated on the scalar.
#pragma once

#include <glm/glm.hpp>

namespace analytic {

// GLM's 2-vector of T.
template <class T> using Vec2 = glm::vec<2, T, glm::defaultp>;
// GLM's 3-vector of T.
template <class T> using Vec3 = glm::vec<3, T, glm::defaultp>;
// GLM's 3x3 matrix of T (columns are vectors).
template <class T> using Mat3 = glm::mat<3, 3, T, glm::defaultp>;

// GLM's N-vector of T: the 2D (N = 2) and 3D (N = 3) forms of the tests.
template <class T, int N> using VecN = glm::vec<N, T, glm::defaultp>;

// A ray, or the path of a moving point (a sphere's centre in the sweeps): the points origin + t * direction
// for t in [0, maxT]. The direction need not be unit length: t is measured in multiples of it, so a
// segment from a to b is {a, b - a, 1} and t is Bullet's hit fraction. N = 2 serves the 2D tests.
// (analytic::Ray is the batch ray cast's, ray_batch.hpp.)
// Valid for the ray casts (isValidRay): origin and direction finite, direction not zero, maxT >= 0
// (+infinity allowed; NaN is not). The round solids (sphere, capsule, cylinder, cone, ellipsoid) also
// need |direction|^2 to be a normal number: |direction| between about 1.1e-19 and 1.8e19 in float,
// 1.5e-154 and 1.3e154 in double. The sweeps also take a zero direction (a sphere that does not move).
// Every query that takes a RayPath answers an invalid one with no hit; the prepared rays (SlabRay,
// WatertightRay) are not checked again.
template <class T, int N = 3> struct RayPath {
    VecN<T, N> origin;     // the point at t = 0
    VecN<T, N> direction;  // t is measured in multiples of it; need not be unit
    T maxT;                // the largest t of the path, >= 0 (may be +infinity)

    // origin + t * direction, as computed (no check: it overflows to infinity for t or a direction
    // reaching beyond the scalar's range).
    VecN<T, N> at(T t) const { return origin + t * direction; }
};

// A ray in the plane (the 2D tests).
template <class T> using RayPath2 = RayPath<T, 2>;

// The segment from `from` to `to` as a ray: direction to - from, maxT 1, so t is the fraction along it.
// No check: from == to gives a zero direction (no hit for the ray casts; a sphere at rest for the sweeps),
// and a difference that overflows an infinite one, which every query answers with no hit.
template <class T, int N> RayPath<T, N> segmentRay(const VecN<T, N>& from, const VecN<T, N>& to) {
    return {from, to - from, T(1)};
}

// A solid ball: the sphere in 3D, the disc bounded by a circle in 2D: the points within radius of center.
// Valid: center and radius finite, radius >= 0. The ray cast needs radius > 0 with radius^2 a normal
// number (about 1.1e-19 to 1.8e19 in float, 1.5e-154 to 1.3e154 in double); a radius of 0 is a point
// for the closest-point and contact tests. Others get no hit (nullopt).
template <class T, int N = 3> struct Ball {
    VecN<T, N> center;  // the centre
    T radius;           // the distance from the centre to the surface
};

// A solid sphere.
template <class T> using Sphere = Ball<T, 3>;
// A disc (the circle and its inside).
template <class T> using Circle = Ball<T, 2>;

// The points x with dot(normal, x) == offset. Positive side (outside, for a convex solid's face):
// dot(normal, x) > offset. Valid: finite, normal of unit length. The plane tests reject a normal whose
// squared length is off 1 by more than unitNormalTolerance; the convex ray cast takes any length (its t
// does not depend on it) but reports the normal as given.
template <class T> struct Plane {
    Vec3<T> normal;  // unit
    T offset;        // dot(normal, x) of the plane's points
};

// The axis-aligned box min <= x <= max, closed (its faces belong to it). Valid: min <= max on every
// axis; min == max on an axis is a flat box, min > max an empty one (no hit). intersectRayAabb needs
// finite bounds; the broadphase tests (rayEntryIntoAabb, rayOverlapsAabb) also take infinite ones.
template <class T> struct Aabb {
    Vec3<T> min;  // the least corner
    Vec3<T> max;  // the greatest corner
};

// The box center + rotation * x for -halfExtents <= x <= halfExtents, closed. The columns of rotation
// are the box's local axes in world space and must be orthonormal: this is not checked, and another
// matrix gives wrong points, t and normals. Valid: all finite, halfExtents >= 0 (0 on an axis: a flat
// box). A negative half extent is an empty box for the ray cast and invalid (nullopt) for the contact
// tests.
template <class T> struct Obb {
    Vec3<T> center;       // the box's centre
    Mat3<T> rotation;     // columns: the box's axes in world space (orthonormal)
    Vec3<T> halfExtents;  // along the box's own axes, >= 0
};

// All points within radius of the segment from a to b. Valid: a, b and radius finite, radius >= 0
// (0: the segment, for the contact tests; the ray cast needs radius > 0 with radius^2 a normal number).
// a == b is the sphere about a (for the ray cast, so is an axis whose square is below the smallest
// normal number).
template <class T> struct Capsule {
    Vec3<T> a;  // one end of the axis
    Vec3<T> b;  // the other end of the axis
    T radius;   // the distance from the axis to the surface
};

// Solid cylinder with flat caps, whose axis runs from the centre of cap a to the centre of cap b.
// Valid: a, b and radius finite, radius > 0, and radius^2 and |b - a|^2 normal numbers (so a != b);
// others get no hit.
template <class T> struct Cylinder {
    Vec3<T> a;  // the centre of one cap
    Vec3<T> b;  // the centre of the other cap
    T radius;   // the caps' radius
};

// A triangle, one-sided only for the queries that cull back faces. Front face: the side that the normal
// (b - a) x (c - a) points to (a, b, c counter-clockwise seen from it). Valid: finite vertices. A
// degenerate triangle (triangle.hpp: the sine of its smallest angle below 16 unit roundoffs, so a point,
// collinear vertices or a needle) gets no ray hit, no contact and no plane cut; closest points and sweeps
// meet it at its edges.
template <class T> struct Triangle {
    Vec3<T> a;  // first vertex
    Vec3<T> b;  // second vertex
    Vec3<T> c;  // third vertex
};

// The smallest axis-aligned box holding the triangle (exact: min and max do not round). For finite
// vertices; a NaN coordinate gives a NaN bound or is ignored, depending on the vertex it is in.
template <class T> Aabb<T> boundsOf(const Triangle<T>& triangle) {
    return {glm::min(glm::min(triangle.a, triangle.b), triangle.c),
            glm::max(glm::max(triangle.a, triangle.b), triangle.c)};
}

// The solid ellipsoid center + rotation * (radii * u) for |u| <= 1. Columns of rotation are the axes of
// the three radii in world space and must be orthonormal (not checked: another matrix gives wrong
// answers). Valid: all finite, radii > 0 for the ray cast (>= 0 for the plane tests).
template <class T> struct Ellipsoid {
    Vec3<T> center;    // the centre
    Mat3<T> rotation;  // columns: the axes of the radii in world space (orthonormal)
    Vec3<T> radii;     // the semi-axes along the rotation's columns
};

// Solid right circular cone: the apex, the centre of the base disc, and the disc's radius (the base
// included). Valid for the ray cast: all finite, radius > 0, and radius^2, |base - apex|^2 and
// |base - apex|^2 + radius^2 normal numbers (so apex != base); others get no hit.
template <class T> struct Cone {
    Vec3<T> apex;  // the tip
    Vec3<T> base;  // the centre of the base disc
    T radius;      // the base disc's
};

// A solid cone grown by a margin, as Bullet's btConeShape is (its support point moved out by the collision
// margin: every point within the margin of the cone). Its surface: the side and the base each moved out by
// the margin, the apex rounded by the margin's sphere, and (in place of the torus about the base's rim) the
// cylinder of radius radius + margin: exact but near the rim, where the surface lies up to 0.42 margins
// outside the exact one (the corners of three tangent planes about a quarter circle and less).
// Valid for the ray cast: a cone as above (radius > 0 and finite, |base - apex|^2 a normal number) and a
// finite margin >= 0; a margin of 0 is the cone. Others get no hit.
template <class T> struct RoundedCone {
    Cone<T> cone;  // the cone grown
    T margin;      // how far it is grown, >= 0
};

// A point where a query meets a surface: parameter t along the ray or motion (in multiples of its
// direction), the point, and the unit normal of the surface there, pointing out of the solid (or to the
// triangle's front side). Exceptions are said where they occur: the convex cast's unbounded ends lie at
// infinity, and it reports a plane's normal as given.
template <class T, int N = 3> struct SurfaceHit {
    T t;                // along the ray or motion, in multiples of its direction
    VecN<T, N> point;   // where it meets the surface
    VecN<T, N> normal;  // unit, out of the solid (or to a triangle's front)
};

// Where the line of a ray enters and leaves a solid: entry.t <= exit.t, both finite except for the
// convex cast's unbounded ends. entry.t is negative when the origin is inside (originInside is
// entry.t < 0); exit.t may exceed the ray's maxT. Returned only when [entry.t, exit.t] overlaps
// [0, maxT]. An origin on the surface: entry.t = 0 (not inside) when the ray goes in, exit.t = 0
// (inside) when it goes out, within the rounding of t. A line that only touches: entry.t == exit.t.
template <class T, int N = 3> struct RaySolidHit {
    SurfaceHit<T, N> entry;  // where the line enters the solid
    SurfaceHit<T, N> exit;   // where it leaves it
    bool originInside;       // entry.t < 0
};

// What a ray that starts inside a solid reports: a hit at t = 0 (point = origin, normal opposing the
// direction, as PhysX does), the point where it leaves the solid, or nothing.
enum class StartInside { HitAtOrigin, HitExit, NoHit };

// Whether a triangle is hit from both sides (None) or only from the side its normal points to (BackFaces).
enum class FaceCulling { None, BackFaces };

}  // namespace analytic
