// SPDX-License-Identifier: Zlib
// The shapes and query results of the geometry core. Engine-free: GLM only, templated on the scalar.
#pragma once

#include <glm/glm.hpp>

namespace analytic {

template <class T> using Vec2 = glm::vec<2, T, glm::defaultp>;
template <class T> using Vec3 = glm::vec<3, T, glm::defaultp>;
template <class T> using Mat3 = glm::mat<3, 3, T, glm::defaultp>;

template <class T, int N> using VecN = glm::vec<N, T, glm::defaultp>;

// A ray, or the path of a moving point (a sphere's centre in the sweeps): the points origin + t * direction
// for t in [0, maxT]. The direction need not be unit length: t is measured in multiples of it, so a
// segment from a to b is {a, b - a, 1} and t is Bullet's hit fraction. maxT may be +infinity for an
// unbounded ray. N = 2 serves the 2D tests. (analytic::Ray is the batch ray cast's, ray_batch.hpp.)
template <class T, int N = 3> struct RayPath {
    VecN<T, N> origin;
    VecN<T, N> direction;
    T maxT;

    VecN<T, N> at(T t) const { return origin + t * direction; }
};

template <class T> using RayPath2 = RayPath<T, 2>;

template <class T, int N> RayPath<T, N> segmentRay(const VecN<T, N>& from, const VecN<T, N>& to) {
    return {from, to - from, T(1)};
}

// A solid ball: the sphere in 3D, the disc bounded by a circle in 2D.
template <class T, int N = 3> struct Ball {
    VecN<T, N> center;
    T radius;
};

template <class T> using Sphere = Ball<T, 3>;
template <class T> using Circle = Ball<T, 2>;

// The points x with dot(normal, x) == offset; normal has unit length. Positive side: dot(normal, x) > offset.
template <class T> struct Plane {
    Vec3<T> normal;
    T offset;
};

template <class T> struct Aabb {
    Vec3<T> min;
    Vec3<T> max;
};

// The columns of rotation are the box's local axes in world space (orthonormal).
template <class T> struct Obb {
    Vec3<T> center;
    Mat3<T> rotation;
    Vec3<T> halfExtents;
};

// All points within radius of the segment from a to b.
template <class T> struct Capsule {
    Vec3<T> a;
    Vec3<T> b;
    T radius;
};

// Solid cylinder whose axis runs from the centre of cap a to the centre of cap b.
template <class T> struct Cylinder {
    Vec3<T> a;
    Vec3<T> b;
    T radius;
};

// Front face: the side that normal (b - a) x (c - a) points to (counter-clockwise seen from it).
template <class T> struct Triangle {
    Vec3<T> a;
    Vec3<T> b;
    Vec3<T> c;
};

// The smallest axis-aligned box holding the triangle (exact: min and max do not round).
template <class T> Aabb<T> boundsOf(const Triangle<T>& triangle) {
    return {glm::min(glm::min(triangle.a, triangle.b), triangle.c),
            glm::max(glm::max(triangle.a, triangle.b), triangle.c)};
}

// Columns of rotation are the axes of the three radii in world space (orthonormal).
template <class T> struct Ellipsoid {
    Vec3<T> center;
    Mat3<T> rotation;
    Vec3<T> radii;
};

// A point where a query meets a surface: parameter t along the ray or motion, the point, and the
// unit normal of the surface there, pointing out of the solid (or to the triangle's front side).
template <class T, int N = 3> struct SurfaceHit {
    T t;
    VecN<T, N> point;
    VecN<T, N> normal;
};

// Where the line of a ray enters and leaves a solid. entry.t is negative when the origin is inside;
// exit.t may exceed the ray's maxT. Returned only when [entry.t, exit.t] overlaps [0, maxT].
template <class T, int N = 3> struct RaySolidHit {
    SurfaceHit<T, N> entry;
    SurfaceHit<T, N> exit;
    bool originInside;
};

// What a ray that starts inside a solid reports: a hit at t = 0 (point = origin, normal opposing the
// direction, as PhysX does), the point where it leaves the solid, or nothing.
enum class StartInside { HitAtOrigin, HitExit, NoHit };

enum class FaceCulling { None, BackFaces };

}  // namespace analytic
