// SPDX-License-Identifier: Zlib
// The geometry of each replaced pair: Bullet shapes in, core queries, contacts out. Each kernel names
// its shapes in the order A, B that its contacts use (normal on B pointing toward A).
#pragma once

#include <BulletCollision/CollisionShapes/btTriangleShape.h>

#include <optional>
#include <span>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/capsule_contact.hpp"
#include "analytic/geometry/closest_point.hpp"
#include "analytic/geometry/plane_tests.hpp"
#include "analytic/geometry/sphere_sweep.hpp"
#include "narrowphase/pair_algorithm.hpp"

namespace analytic::narrowphase {

template <class Shape> const Shape& shapeOf(const btCollisionObjectWrapper& wrapper) {
    return static_cast<const Shape&>(*wrapper.getCollisionShape());
}

template <class Shape> const Shape& shapeOf(const btCollisionObject& object) {
    return static_cast<const Shape&>(*object.getCollisionShape());
}

inline Sphere<Scalar> sphereOf(const btCollisionObjectWrapper& wrapper) {
    return toSphere(shapeOf<btSphereShape>(wrapper), wrapper.getWorldTransform());
}

inline Plane<Scalar> planeOf(const btCollisionObjectWrapper& wrapper) {
    return toPlane(shapeOf<btStaticPlaneShape>(wrapper), wrapper.getWorldTransform());
}

inline Triangle<Scalar> triangleOf(const btTriangleShape& shape, const btTransform& transform) {
    return {toGlm(transform * shape.m_vertices1[0]), toGlm(transform * shape.m_vertices1[1]),
            toGlm(transform * shape.m_vertices1[2])};
}

// The core's sphere contacts report only touching shapes; Bullet also wants contacts up to reach apart.
// So the query runs with the sphere grown by reach, which moves neither the point on B nor the normal.
inline Sphere<Scalar> grownBy(const Sphere<Scalar>& sphere, Scalar reach) {
    return {sphere.center, sphere.radius + reach};
}

inline void addGrownContact(ContactSink& sink, const std::optional<Contact<Scalar>>& contact) {
    if (contact) sink.add(contact->normal, contact->pointOnB, sink.reach() - contact->depth);
}

// Time of impact of sphere A against B over the step from each object's world transform to its
// interpolation transform: A's centre moves relative to B, whose translation is subtracted (B's
// rotation over the step is not followed). 1 when they do not meet, like Bullet's algorithms.
template <class Sweep> Scalar sphereTimeOfImpact(const btCollisionObject& sphereObject,
                                                 const btCollisionObject& other, Sweep sweep) {
    const Vec3<Scalar> start = toGlm(sphereObject.getWorldTransform().getOrigin());
    const Vec3<Scalar> motion = toGlm(sphereObject.getInterpolationWorldTransform().getOrigin()) - start;
    const Vec3<Scalar> otherMotion =
        toGlm(other.getInterpolationWorldTransform().getOrigin() - other.getWorldTransform().getOrigin());
    const RayPath<Scalar> path{start, motion - otherMotion, Scalar(1)};
    if (path.direction == Vec3<Scalar>(0)) return Scalar(1);
    const Scalar radius = shapeOf<btSphereShape>(sphereObject).getRadius();
    const auto hit = sweep(path, radius, other);
    return hit ? hit->t : Scalar(1);
}

struct NoTimeOfImpact {
    static Scalar timeOfImpact(const btCollisionObject&, const btCollisionObject&) { return Scalar(1); }
};

// The one- and two-contact kernels are [[gnu::flatten]]: with every pair in one translation unit, GCC
// stops inlining the geometry core into them, which measured slower; box-plane is not, its 4-point path
// measured slower flattened.
struct SpherePlane {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const auto contact = collideSpherePlane(sphereOf(a), planeOf(b));
        if (contact) sink.addPlaneContacts(contact->normal, {&contact->deepest, 1});
    }
    static Scalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b) {
        return sphereTimeOfImpact(
            a, b, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& plane) {
                return sweepSpherePlane(
                    path, radius, toPlane(shapeOf<btStaticPlaneShape>(plane), plane.getWorldTransform()));
            });
    }
};

struct BoxPlane : NoTimeOfImpact {
    static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                        ContactSink& sink) {
        const Plane<Scalar> plane = planeOf(b);
        findObbPlaneContacts(toObb(shapeOf<btBoxShape>(a), a.getWorldTransform()), plane, sink.reach(),
                             [&](std::span<const PlaneContactPoint<Scalar>> points) {
                                 sink.addPlaneContacts(plane.normal, points);
                             });
    }
};

// A capsule touches a plane with its end spheres only.
struct CapsulePlane : NoTimeOfImpact {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const Capsule<Scalar> capsule = toCapsule(shapeOf<btCapsuleShape>(a), a.getWorldTransform());
        const Plane<Scalar> plane = planeOf(b);
        for (const Vec3<Scalar>& end : {capsule.a, capsule.b}) {
            const auto contact = collideSpherePlane(Sphere<Scalar>{end, capsule.radius}, plane);
            if (contact) sink.addPlaneContacts(contact->normal, {&contact->deepest, 1});
        }
    }
};

struct SphereSphere {
    static constexpr bool recomputesEveryStep = true;
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        addGrownContact(sink, sphereSphereContact(grownBy(sphereOf(a), sink.reach()), sphereOf(b)));
    }
    static Scalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b) {
        return sphereTimeOfImpact(
            a, b, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& sphere) {
                return sweepSphereSphere(
                    path, radius, toSphere(shapeOf<btSphereShape>(sphere), sphere.getWorldTransform()));
            });
    }
};

struct SphereBox {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const Obb<Scalar> box = toObb(shapeOf<btBoxShape>(b), b.getWorldTransform());
        addGrownContact(sink, sphereObbContact(grownBy(sphereOf(a), sink.reach()), box));
    }
    static Scalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b) {
        return sphereTimeOfImpact(
            a, b, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& box) {
                return sweepSphereObb(path, radius, toObb(shapeOf<btBoxShape>(box), box.getWorldTransform()));
            });
    }
};

struct SphereTriangle {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const Triangle<Scalar> triangle = triangleOf(shapeOf<btTriangleShape>(b), b.getWorldTransform());
        const auto contact = sphereTriangleContact(grownBy(sphereOf(a), sink.reach()), triangle);
        if (contact) addGrownContact(sink, contact->contact);
    }
    static Scalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b) {
        return sphereTimeOfImpact(
            a, b, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& triangle) {
                return sweepSphereTriangle(
                    path, radius,
                    triangleOf(shapeOf<btTriangleShape>(triangle), triangle.getWorldTransform()));
            });
    }
};

// The capsule's radius is its whole margin, as Bullet's capsule uses it; getRadius and getHalfHeight
// carry its local scaling. Up to 2 points where it lies along a face of the box, farther apart on the
// capsule than the breaking threshold.
struct CapsuleBox : NoTimeOfImpact {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const auto contact =
            capsuleObbContact(toCapsule(shapeOf<btCapsuleShape>(a), a.getWorldTransform()),
                              toObb(shapeOf<btBoxShape>(b), b.getWorldTransform()), sink.reach());
        if (!contact) return;
        int count = contact->pointCount;
        // A second point within the breaking threshold of the first (on the capsule) would take its place
        // in the manifold.
        if (count == 2) {
            const Vec3<Scalar> apart =
                (contact->points[1].onB - contact->points[0].onB) +
                (contact->points[1].distance - contact->points[0].distance) * contact->normal;
            if (glm::dot(apart, apart) < sink.breakingThreshold() * sink.breakingThreshold()) count = 1;
        }
        for (int k = 0; k < count; ++k)
            sink.add(contact->normal, contact->points[k].onB, contact->points[k].distance);
    }
};

struct SphereCapsule {
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const Capsule<Scalar> capsule = toCapsule(shapeOf<btCapsuleShape>(b), b.getWorldTransform());
        addGrownContact(sink, sphereCapsuleContact(grownBy(sphereOf(a), sink.reach()), capsule));
    }
    static Scalar timeOfImpact(const btCollisionObject& a, const btCollisionObject& b) {
        return sphereTimeOfImpact(
            a, b, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& capsule) {
                return sweepSphereCapsule(
                    path, radius, toCapsule(shapeOf<btCapsuleShape>(capsule), capsule.getWorldTransform()));
            });
    }
};

// The custom convex slot holds users' shapes too: only EllipsoidShape is ours (PairCreateFunction
// hands the others to Bullet). One contact, at the ellipsoid's deepest point.
struct EllipsoidPlane : NoTimeOfImpact {
    static bool accepts(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper&) {
        return dynamic_cast<const EllipsoidShape*>(a.getCollisionShape()) != nullptr;
    }
    [[gnu::flatten]] static void collide(const btCollisionObjectWrapper& a, const btCollisionObjectWrapper& b,
                                         ContactSink& sink) {
        const auto contact =
            collideEllipsoidPlane(toEllipsoid(shapeOf<EllipsoidShape>(a), a.getWorldTransform()), planeOf(b));
        if (contact) sink.addPlaneContacts(contact->normal, {&contact->deepest, 1});
    }
};

}  // namespace analytic::narrowphase
