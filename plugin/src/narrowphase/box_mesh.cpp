// SPDX-License-Identifier: Zlib
#include "narrowphase/box_mesh.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <optional>
#include <span>

#include "analytic/geometry/box_triangle.hpp"
#include "narrowphase/mesh_triangles.hpp"

namespace analytic::narrowphase {
namespace {

struct TouchedTriangle {
    Triangle<Scalar> triangle;  // in the mesh's frame, vertices in Bullet's order
    BoxTriangleContact<Scalar> contact;
    TriangleSide side;
    int partId;
    int triangleIndex;
};

Scalar separationOf(const TouchedTriangle& hit) { return hit.contact.separation; }

// The triangles the box touches (within reach), sides settled; at most candidateCapacity, the deepest.
class Hits {
public:
    Hits(const Obb<Scalar>& box, const Obb<Scalar>* previousBox, Scalar reach, FrontSide front,
         const SideHistory* twoSided)
        : box_(box), previousBox_(previousBox), reach_(reach), front_(front), twoSided_(twoSided) {}

    void consider(const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
        const Vec3<Scalar> areaNormal = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
        const bool counterClockwiseFront = front_.isCounterClockwise(areaNormal);
        // The side the box belongs on, in the core's terms (Front: the side areaNormal points to).
        std::optional<bool> inFront = true;
        if (twoSided_)
            inFront = twoSided_->inFrontNearby(triangle, counterClockwiseFront ? areaNormal : -areaNormal,
                                               partId, triangleIndex);
        const TriangleSide side = !inFront                            ? TriangleSide::Either
                                  : *inFront == counterClockwiseFront ? TriangleSide::Front
                                                                      : TriangleSide::Back;
        const auto contact = cameThroughTheFace(triangle, areaNormal, side)
                                 ? collideObbTriangleAlongNormal(box_, triangle, reach_, side)
                                 : collideObbTriangle(box_, triangle, reach_, side);
        if (contact) deepest_.offer({triangle, *contact, side, partId, triangleIndex});
    }

    std::span<TouchedTriangle> kept() { return deepest_.kept(); }

private:
    // Whether the whole box was on the triangle's side of its plane at the previous step: then it came
    // in through the face, and the face pushes it back (an axis of less penetration, the box's face or
    // an edge pair against the triangle's edges, would push it sideways or through the mesh).
    bool cameThroughTheFace(const Triangle<Scalar>& triangle, const Vec3<Scalar>& areaNormal,
                            TriangleSide side) const {
        if (!previousBox_ || side == TriangleSide::Either) return false;
        const Vec3<Scalar> sideNormal = side == TriangleSide::Front ? areaNormal : -areaNormal;
        const Obb<Scalar>& previous = *previousBox_;
        Scalar reachAlongNormal = 0;
        for (int k = 0; k < 3; ++k)
            reachAlongNormal +=
                previous.halfExtents[k] * std::abs(glm::dot(sideNormal, previous.rotation[k]));
        return glm::dot(sideNormal, previous.center - triangle.a) > reachAlongNormal;
    }

    Obb<Scalar> box_;
    const Obb<Scalar>* previousBox_;
    Scalar reach_;
    FrontSide front_;
    const SideHistory* twoSided_;
    DeepestCandidates<TouchedTriangle, BoxMesh::candidateCapacity, separationOf> deepest_;
};

// The internal-edge filter (see box_mesh.hpp), deepest triangle first: a contact on an edge or vertex
// whose vertices deeper triangles all have is taken along its triangle's normal (dropped if that gives
// none). Contacts on faces need nothing: most steps have no other.
void takeInternalEdgesAlongNormals(std::span<TouchedTriangle> hits, const Obb<Scalar>& box, Scalar reach) {
    const auto onFace = [](const TouchedTriangle& hit) {
        return hit.contact.feature == TriangleFeature::Face;
    };
    if (std::all_of(hits.begin(), hits.end(), onFace)) return;
    std::array<int, BoxMesh::candidateCapacity> order;
    const auto orderEnd = order.begin() + hits.size();
    std::iota(order.begin(), orderEnd, 0);
    std::sort(order.begin(), orderEnd, [&](int i, int j) {
        const TouchedTriangle &x = hits[i], &y = hits[j];
        if (x.contact.separation != y.contact.separation) return x.contact.separation < y.contact.separation;
        return onFace(x) && !onFace(y);
    });
    for (auto next = order.begin(); next != orderEnd; ++next) {
        TouchedTriangle& hit = hits[*next];
        const TriangleFeature feature = hit.contact.feature;
        if (feature == TriangleFeature::Face) continue;
        // Whether a triangle taken before this one has the vertex.
        const auto isVoided = [&](const Vec3<Scalar>& vertex) {
            return std::any_of(order.begin(), next, [&](int earlier) {
                const Triangle<Scalar>& triangle = hits[earlier].triangle;
                return triangle.a == vertex || triangle.b == vertex || triangle.c == vertex;
            });
        };
        const Vec3<Scalar> vertices[3] = {hit.triangle.a, hit.triangle.b, hit.triangle.c};
        bool internal;
        if (feature >= TriangleFeature::Vertex0) {
            internal = isVoided(vertices[int(feature) - int(TriangleFeature::Vertex0)]);
        } else {
            const int edge = int(feature) - int(TriangleFeature::Edge0);
            internal = isVoided(vertices[edge]) && isVoided(vertices[(edge + 1) % 3]);
        }
        if (!internal) continue;
        const auto alongNormal = collideObbTriangleAlongNormal(box, hit.triangle, reach, hit.side);
        if (!alongNormal) {
            hit.contact.pointCount = 0;
            continue;
        }
        // No deeper than the box and the triangle overlap, give or take the bias the core allows its
        // choice of axis: on a curved mesh the box reaches farther below a neighbour's plane than into
        // the neighbour. (With the bias, a point over a sliver of a triangle, where the box's side
        // overlaps least, keeps most of the face's depth, as resting boxes need.)
        const Scalar overlap = hit.contact.separation;
        const Triangle<Scalar>& t = hit.triangle;
        const Scalar size =
            box.halfExtents.x + box.halfExtents.y + box.halfExtents.z +
            std::sqrt(std::max({glm::dot(t.b - t.a, t.b - t.a), glm::dot(t.c - t.b, t.c - t.b),
                                glm::dot(t.a - t.c, t.a - t.c)}));
        const Scalar deepest = overlap > 0 ? overlap
                                           : overlap + (detail::box_triangle::biasRelative<Scalar> * overlap -
                                                        detail::box_triangle::biasOfSize<Scalar> * size);
        hit.contact = *alongNormal;
        for (int i = 0; i < hit.contact.pointCount; ++i)
            hit.contact.points[i].distance = std::max(hit.contact.points[i].distance, deepest);
    }
}

struct Candidate {
    Vec3<Scalar> onMesh;
    Scalar distance;
    const TouchedTriangle* hit;
};

// At most reportedCapacity of the points, spread as a manifold keeps them: the deepest, the farthest
// from it, and the farthest on either side of the line through those two. Points as deep as the deepest
// within depthTolerance (a box resting flat has all its points at one depth) are one: the farthest
// from the box's centre is taken among them, a corner, which stays the same point of the box from one
// step to the next (a point where a triangle's edge crosses the box's would slide along it).
template <class Report> void reportSpread(std::span<const TouchedTriangle> hits,
                                          const Vec3<Scalar>& boxCentre, Scalar depthTolerance,
                                          Report report) {
    std::array<Candidate, BoxMesh::candidateCapacity * 8> points;
    int count = 0;
    Scalar deepestDistance = std::numeric_limits<Scalar>::infinity();
    for (const TouchedTriangle& hit : hits) {
        for (int i = 0; i < hit.contact.pointCount; ++i) {
            const BoxTrianglePoint<Scalar>& point = hit.contact.points[i];
            points[count++] = {point.onTriangle, point.distance, &hit};
            deepestDistance = std::min(deepestDistance, point.distance);
        }
    }
    if (count <= BoxMesh::reportedCapacity) {
        for (int i = 0; i < count; ++i)
            report(points[i]);
        return;
    }
    // Each pick maximises a score over the points: the index of the best.
    const auto best = [&](auto score) {
        int chosen = 0;
        Scalar highest = score(points[0]);
        for (int i = 1; i < count; ++i) {
            const Scalar value = score(points[i]);
            if (value > highest) {
                highest = value;
                chosen = i;
            }
        }
        return chosen;
    };
    const auto squaredFrom = [](const Vec3<Scalar>& origin, const Candidate& p) {
        const Vec3<Scalar> offset = p.onMesh - origin;
        return glm::dot(offset, offset);
    };
    const Scalar deepEnough = deepestDistance + depthTolerance;
    const Candidate& deepest = points[best([&](const Candidate& p) {
        return p.distance <= deepEnough ? squaredFrom(boxCentre, p)
                                        : -std::numeric_limits<Scalar>::infinity();
    })];
    const Candidate& farthest =
        points[best([&](const Candidate& p) { return squaredFrom(deepest.onMesh, p); })];
    report(deepest);
    if (!(squaredFrom(deepest.onMesh, farthest) > 0)) return;  // every point at the deepest's place
    report(farthest);
    const Vec3<Scalar> line = farthest.onMesh - deepest.onMesh;
    const Vec3<Scalar>& normal = deepest.hit->contact.normal;
    const auto sideArea = [&](const Candidate& p) {
        return glm::dot(glm::cross(line, p.onMesh - deepest.onMesh), normal);
    };
    const Candidate& rightmost = points[best(sideArea)];
    const Candidate& leftmost = points[best([&](const Candidate& p) { return -sideArea(p); })];
    if (sideArea(rightmost) > 0) report(rightmost);
    if (sideArea(leftmost) < 0) report(leftmost);
}

}  // namespace

void BoxMesh::collide(const btCollisionObjectWrapper& box, const btCollisionObjectWrapper& mesh,
                      ContactSink& sink, State& state) {
    const auto& meshShape = shapeOf<btConcaveShape>(mesh);
    const btTransform& meshTransform = mesh.getWorldTransform();
    const Obb<Scalar> local =
        toObb(shapeOf<btBoxShape>(box), meshTransform.inverseTimes(box.getWorldTransform()));
    const SideHistory history(sink.manifold(), *mesh.getCollisionObject(), toGlm(meshTransform.getBasis()),
                              state.hasPrevious ? &state.previousCentre : nullptr);
    const Obb<Scalar> previous{state.previousCentre, state.previousRotation, local.halfExtents};
    Hits hits(local, state.hasPrevious ? &previous : nullptr, sink.reach(), frontSideOf(meshShape),
              isOneSided(*mesh.getCollisionObject()) ? nullptr : &history);
    // The box's bounds in the mesh's frame, grown by the reach.
    const Vec3<Scalar> extent = glm::abs(local.rotation[0]) * local.halfExtents.x +
                                glm::abs(local.rotation[1]) * local.halfExtents.y +
                                glm::abs(local.rotation[2]) * local.halfExtents.z +
                                Vec3<Scalar>(sink.reach());
    forTrianglesNear(meshShape, local.center - extent, local.center + extent,
                     [&](const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
                         hits.consider(triangle, partId, triangleIndex);
                     });
    state = {local.center, local.rotation, true};

    takeInternalEdgesAlongNormals(hits.kept(), local, sink.reach());
    const TriangleContactReporter reporter(box, mesh, sink);
    // A hundredth of the box's size: well below any tilt that matters, well above roundings.
    const Scalar depthTolerance =
        Scalar(0.01) * (local.halfExtents.x + local.halfExtents.y + local.halfExtents.z);
    reportSpread(hits.kept(), local.center, depthTolerance, [&](const Candidate& point) {
        const TouchedTriangle& hit = *point.hit;
        reporter.add(hit.triangle, hit.partId, hit.triangleIndex, hit.contact.normal, point.onMesh,
                     point.distance);
    });
}

}  // namespace analytic::narrowphase
