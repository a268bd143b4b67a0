// SPDX-License-Identifier: Zlib
#include "analytic/plane_test.hpp"

#include <BulletCollision/CollisionShapes/btCompoundShape.h>
#include <BulletCollision/CollisionShapes/btConcaveShape.h>
#include <BulletCollision/CollisionShapes/btConvexShape.h>
#include <BulletCollision/CollisionShapes/btHeightfieldTerrainShape.h>
#include <BulletCollision/CollisionShapes/btStaticPlaneShape.h>
#include <BulletCollision/CollisionShapes/btTriangleCallback.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <stdexcept>

#include "analytic/adapters/bullet_math.hpp"
#include "analytic/adapters/shape_primitives.hpp"
#include "analytic/ellipsoid_shape.hpp"
#include "analytic/geometry/support.hpp"
#include "cast/hull_faces.hpp"

namespace analytic {
namespace {

template <class... Cases> struct Overloaded : Cases... { using Cases::operator()...; };
template <class... Cases> Overloaded(Cases...) -> Overloaded<Cases...>;

Plane<Scalar> planeOf(const btVector3& normal, btScalar offset, const char* function) {
    const Scalar length = normal.length();
    if (!(length > 0) || !std::isfinite(length) || !std::isfinite(offset) || !std::isfinite(offset / length))
        throw std::invalid_argument(std::string("analytic::") + function +
                                    ": the plane's normal must be finite and not zero, its offset finite");
    return {toGlm(normal / length), offset / length};
}

bool accepts(const btBroadphaseProxy& proxy, int group, int mask) {
    return (proxy.m_collisionFilterGroup & mask) != 0 && (group & proxy.m_collisionFilterMask) != 0;
}

// The signed distances a shape's points take, lowest and highest (empty: +inf, -inf), and the scale of the
// numbers involved (for the tolerance).
struct Span {
    Scalar lowest = std::numeric_limits<Scalar>::infinity();
    Scalar highest = -std::numeric_limits<Scalar>::infinity();
    Scalar scale = 0;

    void add(Scalar distance, Scalar size) {
        lowest = std::min(lowest, distance);
        highest = std::max(highest, distance);
        scale = std::max(scale, size);
    }
    void add(const Span& other) {
        lowest = std::min(lowest, other.lowest);
        highest = std::max(highest, other.highest);
        scale = std::max(scale, other.scale);
    }
    SolidPlaneSide side(const Plane<Scalar>& plane) const {
        const Scalar tolerance = defaultPlaneTolerance<Scalar> * (scale + std::abs(plane.offset));
        if (!(lowest <= highest)) return SolidPlaneSide::Crossing;  // nothing, or NaN: anywhere
        if (lowest > tolerance) return SolidPlaneSide::Front;
        if (highest < -tolerance) return SolidPlaneSide::Back;
        return SolidPlaneSide::Crossing;
    }
};

Scalar distanceOf(const Plane<Scalar>& plane, const Vec3<Scalar>& point) {
    return glm::dot(plane.normal, point) - plane.offset;
}

// A convex solid spanning center -+ reach along the normal.
void addCentred(Span& span, const Plane<Scalar>& plane, const Vec3<Scalar>& center, Scalar reach) {
    const Scalar distance = distanceOf(plane, center);
    const Scalar size = maxAbsComponent(center) + reach;
    span.add(distance - reach, size);
    span.add(distance + reach, size);
}

// How far a disc of the radius across the axis (unit) reaches along the normal.
Scalar discReach(const Vec3<Scalar>& normal, const Vec3<Scalar>& axis, Scalar radius) {
    const Scalar along = glm::dot(normal, axis);
    return radius * std::sqrt(std::max(Scalar(0), 1 - along * along));
}

// The triangles of a concave shape in the world (placed by transform), to visit(triangle).
template <class Visit> class WorldTriangles final : public btTriangleCallback {
public:
    WorldTriangles(const btTransform& transform, Visit& visit) : transform_(transform), visit_(visit) {}
    void processTriangle(btVector3* triangle, int, int) override {
        visit_(Triangle<Scalar>{toGlm(transform_(triangle[0])), toGlm(transform_(triangle[1])),
                                toGlm(transform_(triangle[2]))});
    }

private:
    const btTransform& transform_;
    Visit& visit_;
};

template <class Visit>
void forEachTriangle(const btConcaveShape& shape, const btTransform& transform, Visit visit) {
    btVector3 low, high;
    shape.getAabb(btTransform::getIdentity(), low, high);
    WorldTriangles<Visit> triangles(transform, visit);
    // processAllTriangles takes the shape non-const; it only reads it.
    const_cast<btConcaveShape&>(shape).processAllTriangles(&triangles, low, high);
}

// The span of the shape placed by transform; false when the query cannot model it (then its box decides).
bool spanOf(const btCollisionShape& shape, const btTransform& transform, const Plane<Scalar>& plane,
            Span& span) {
    const Vec3<Scalar>& n = plane.normal;
    bool modelled = true;
    const bool primitive = visitPrimitive(
        shape, transform,
        Overloaded{
            [&](const Sphere<Scalar>& sphere) { addCentred(span, plane, sphere.center, sphere.radius); },
            [&](const Obb<Scalar>& box) {
                const Vec3<Scalar> reaches = glm::abs(n * box.rotation) * box.halfExtents;
                addCentred(span, plane, box.center, reaches.x + reaches.y + reaches.z);
            },
            [&](const Capsule<Scalar>& capsule) {
                addCentred(span, plane, capsule.a, capsule.radius);
                addCentred(span, plane, capsule.b, capsule.radius);
            },
            [&](const Cylinder<Scalar>& cylinder) {
                const Vec3<Scalar> axis = unitVector(cylinder.b - cylinder.a);
                addCentred(span, plane, cylinder.a, discReach(n, axis, cylinder.radius));
                addCentred(span, plane, cylinder.b, discReach(n, axis, cylinder.radius));
            },
            [&](const RoundedCone<Scalar>& rounded) {
                const Cone<Scalar>& cone = rounded.cone;
                const Vec3<Scalar> axis = unitVector(cone.base - cone.apex);
                addCentred(span, plane, cone.apex, rounded.margin);
                addCentred(span, plane, cone.base, discReach(n, axis, cone.radius) + rounded.margin);
            },
            [&](const Plane<Scalar>& other) {
                // Parallel (or opposite) planes are apart by their offsets; any other pair crosses.
                const Scalar along = glm::dot(n, other.normal);
                if (std::abs(std::abs(along) - 1) > unitNormalTolerance<Scalar>) {
                    span.add(-1, 0);
                    span.add(1, 0);
                    return;
                }
                const Scalar distance =
                    along > 0 ? other.offset - plane.offset : -other.offset - plane.offset;
                span.add(distance, std::abs(other.offset));
                // The half-space behind the other plane reaches to infinity the other way.
                span.add(along > 0 ? -std::numeric_limits<Scalar>::max() : std::numeric_limits<Scalar>::max(),
                         std::abs(other.offset));
            }});
    if (primitive) return true;
    switch (shape.getShapeType()) {
        case COMPOUND_SHAPE_PROXYTYPE: {
            const auto& compound = static_cast<const btCompoundShape&>(shape);
            for (int i = 0; i < compound.getNumChildShapes() && modelled; ++i)
                modelled = spanOf(*compound.getChildShape(i), transform * compound.getChildTransform(i),
                                  plane, span);
            return modelled;
        }
        case CUSTOM_CONVEX_SHAPE_TYPE:
            if (const auto* ellipsoid = dynamic_cast<const EllipsoidShape*>(&shape)) {
                const Ellipsoid<Scalar> placed = toEllipsoid(*ellipsoid, transform);
                addCentred(span, plane, placed.center,
                           ellipsoidSupport(placed.radii, n * placed.rotation).reach);
                return true;
            }
            break;
        default:
            break;
    }
    if (const std::shared_ptr<const cast::HullFaces> faces = cast::hullFacesOf(shape)) {
        const Scalar margin = static_cast<const btConvexShape&>(shape).getMargin();
        for (const Vec3<Scalar>& vertex : faces->vertices)
            addCentred(span, plane, toGlm(transform(toBullet(vertex))), std::max(margin, Scalar(0)));
        return true;
    }
    if (shape.isConcave()) {
        forEachTriangle(static_cast<const btConcaveShape&>(shape), transform,
                        [&](const Triangle<Scalar>& triangle) {
                            for (const Vec3<Scalar>& vertex : {triangle.a, triangle.b, triangle.c})
                                span.add(distanceOf(plane, vertex), maxAbsComponent(vertex));
                        });
        return true;
    }
    if (shape.isConvex()) {
        // Bullet's support function, its margin included, in the shape's frame.
        const auto& convex = static_cast<const btConvexShape&>(shape);
        const btVector3 local = transform.getBasis().transpose() * toBullet(n);
        for (const btVector3& direction : {local, -local}) {
            const Vec3<Scalar> point = toGlm(transform(convex.localGetSupportingVertex(direction)));
            span.add(distanceOf(plane, point), maxAbsComponent(point));
        }
        return true;
    }
    return false;
}

SolidPlaneSide sideOf(const btCollisionObject& object, const Plane<Scalar>& plane) {
    btVector3 low, high;
    object.getCollisionShape()->getAabb(object.getWorldTransform(), low, high);
    if (!isFinite(toGlm(low)) || !isFinite(toGlm(high))) return SolidPlaneSide::Crossing;
    // The box first: a shape lies within it.
    Span box;
    const Vec3<Scalar> center = toGlm((low + high) / 2), half = toGlm((high - low) / 2);
    const Vec3<Scalar> reaches = glm::abs(plane.normal) * half;
    addCentred(box, plane, center, reaches.x + reaches.y + reaches.z);
    const SolidPlaneSide byBox = box.side(plane);
    if (byBox != SolidPlaneSide::Crossing) return byBox;
    Span span;
    if (!spanOf(*object.getCollisionShape(), object.getWorldTransform(), plane, span)) return byBox;
    return span.side(plane);
}

// The cut segments of one object's meshes and heightfields (its own shape, or its compound's children).
void collectCuts(const btCollisionShape& shape, const btTransform& transform, const Plane<Scalar>& plane,
                 std::vector<std::array<Vec3<Scalar>, 2>>& cuts) {
    if (shape.getShapeType() == COMPOUND_SHAPE_PROXYTYPE) {
        const auto& compound = static_cast<const btCompoundShape&>(shape);
        for (int i = 0; i < compound.getNumChildShapes(); ++i)
            collectCuts(*compound.getChildShape(i), transform * compound.getChildTransform(i), plane, cuts);
        return;
    }
    const int type = shape.getShapeType();
    if (type != TRIANGLE_MESH_SHAPE_PROXYTYPE && type != SCALED_TRIANGLE_MESH_SHAPE_PROXYTYPE &&
        type != TERRAIN_SHAPE_PROXYTYPE)
        return;
    forEachTriangle(
        static_cast<const btConcaveShape&>(shape), transform, [&](const Triangle<Scalar>& triangle) {
            const auto cut = intersectTrianglePlane(triangle, plane);
            if (cut &&
                (cut->kind == TrianglePlaneCut::Crossing || cut->kind == TrianglePlaneCut::EdgeInPlane) &&
                isFinite(cut->segment[0]) && isFinite(cut->segment[1]) && cut->segment[0] != cut->segment[1])
                cuts.push_back(cut->segment);
        });
}

// A point's exact bits, as a key.
using PointKey = std::array<std::uint64_t, 3>;
PointKey keyOf(const Vec3<Scalar>& point) {
    PointKey key{};
    for (int axis = 0; axis < 3; ++axis) {
        Scalar value = point[axis] + Scalar(0);  // -0 as +0
        std::memcpy(&key[std::size_t(axis)], &value, sizeof value);
    }
    return key;
}

// The cuts joined into polylines at end points shared by exactly two cuts.
void joinCuts(const btCollisionObject& object, const std::vector<std::array<Vec3<Scalar>, 2>>& cuts,
              std::vector<PlaneSlice>& result) {
    std::map<PointKey, std::vector<std::size_t>> at;  // the cuts ending at a point
    for (std::size_t i = 0; i < cuts.size(); ++i)
        for (const Vec3<Scalar>& end : cuts[i])
            at[keyOf(end)].push_back(i);
    std::vector<bool> used(cuts.size(), false);
    // The other cut at the point, when exactly two end there and it is unused.
    const auto next = [&](const Vec3<Scalar>& point, std::size_t from) -> std::size_t {
        const std::vector<std::size_t>& ending = at[keyOf(point)];
        if (ending.size() != 2) return cuts.size();
        const std::size_t other = ending[0] == from ? ending[1] : ending[0];
        return used[other] ? cuts.size() : other;
    };
    // Follows the chain from `start` (a cut) out through its end `end`, appending points.
    const auto extend = [&](std::size_t start, int end, std::vector<Vec3<Scalar>>& points) {
        std::size_t current = start;
        Vec3<Scalar> tip = cuts[start][std::size_t(end)];
        for (;;) {
            const std::size_t following = next(tip, current);
            if (following == cuts.size()) return;
            used[following] = true;
            tip = keyOf(cuts[following][0]) == keyOf(tip) ? cuts[following][1] : cuts[following][0];
            points.push_back(tip);
            current = following;
        }
    };
    for (std::size_t i = 0; i < cuts.size(); ++i) {
        if (used[i]) continue;
        used[i] = true;
        std::vector<Vec3<Scalar>> forward{cuts[i][0], cuts[i][1]}, backward;
        extend(i, 1, forward);
        const bool closed = forward.size() > 2 && keyOf(forward.back()) == keyOf(forward.front());
        if (!closed) extend(i, 0, backward);
        PlaneSlice slice{&object, {}, closed};
        for (auto point = backward.rbegin(); point != backward.rend(); ++point)
            slice.points.push_back(toBullet(*point));
        for (const Vec3<Scalar>& point : forward)
            slice.points.push_back(toBullet(point));
        result.push_back(std::move(slice));
    }
}

}  // namespace

void planeTest(const btCollisionWorld& world, const btVector3& normal, btScalar offset,
               std::vector<PlaneObject>& result, int group, int mask) {
    const Plane<Scalar> plane = planeOf(normal, offset, "planeTest");
    result.clear();
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    for (int i = 0; i < objects.size(); ++i) {
        const btCollisionObject& object = *objects[i];
        const btBroadphaseProxy* proxy = object.getBroadphaseHandle();
        if (!proxy || !accepts(*proxy, group, mask)) continue;
        result.push_back({&object, sideOf(object, plane)});
    }
}

void sliceMeshes(const btCollisionWorld& world, const btVector3& normal, btScalar offset,
                 std::vector<PlaneSlice>& result, int group, int mask) {
    const Plane<Scalar> plane = planeOf(normal, offset, "sliceMeshes");
    result.clear();
    const btCollisionObjectArray& objects = world.getCollisionObjectArray();
    std::vector<std::array<Vec3<Scalar>, 2>> cuts;
    for (int i = 0; i < objects.size(); ++i) {
        const btCollisionObject& object = *objects[i];
        const btBroadphaseProxy* proxy = object.getBroadphaseHandle();
        if (!proxy || !accepts(*proxy, group, mask)) continue;
        btVector3 low, high;
        object.getCollisionShape()->getAabb(object.getWorldTransform(), low, high);
        if (!isFinite(toGlm(low)) || !isFinite(toGlm(high))) continue;
        Span box;
        const Vec3<Scalar> reaches = glm::abs(plane.normal) * toGlm((high - low) / 2);
        addCentred(box, plane, toGlm((low + high) / 2), reaches.x + reaches.y + reaches.z);
        if (box.side(plane) != SolidPlaneSide::Crossing) continue;
        cuts.clear();
        collectCuts(*object.getCollisionShape(), object.getWorldTransform(), plane, cuts);
        joinCuts(object, cuts, result);
    }
}

}  // namespace analytic
