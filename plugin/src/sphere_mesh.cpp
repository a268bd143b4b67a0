#include "narrowphase/sphere_mesh.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>
#include <utility>

#include "narrowphase/mesh_triangles.hpp"

namespace analytic::narrowphase {
namespace {

struct Candidate {
    Triangle<Scalar> triangle;  // in the mesh's frame, vertices in Bullet's order
    Vec3<Scalar> pointOnMesh;
    Vec3<Scalar> normal;  // unit, from the mesh toward the sphere
    Scalar distance;      // signed: negative when they overlap
    TriangleFeature feature;
    int partId;
    int triangleIndex;
};

int dimension(TriangleFeature feature) {
    return feature == TriangleFeature::Face ? 2 : feature <= TriangleFeature::Edge2 ? 1 : 0;
}

// The triangles touching the sphere (grown by the manifold's reach), as contacts with the sides
// settled; at most candidateCapacity, the deepest. One-sided meshes have no side history.
class Candidates {
public:
    Candidates(const Sphere<Scalar>& sphere, Scalar reach, FrontSide front, const SideHistory* twoSided)
        : grown_{sphere.center, sphere.radius + reach},
          radius_(sphere.radius),
          reach_(reach),
          front_(front),
          twoSided_(twoSided) {}

    void consider(const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
        const std::optional<TriangleContact<Scalar>> touch = sphereTriangleContact(grown_, triangle);
        if (!touch) return;
        Candidate candidate{triangle,
                            touch->contact.pointOnB,
                            touch->contact.normal,
                            reach_ - touch->contact.depth,
                            touch->feature,
                            partId,
                            triangleIndex};
        const Vec3<Scalar> areaNormal = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
        const Vec3<Scalar> frontNormal = front_.isCounterClockwise(areaNormal) ? areaNormal : -areaNormal;
        const bool centreInFront = glm::dot(candidate.normal, frontNormal) >= 0;
        if (candidate.feature == TriangleFeature::Face) {
            const bool outFront = twoSided_
                                      ? twoSided_->inFrontNearby(triangle, frontNormal, partId, triangleIndex)
                                            .value_or(centreInFront)
                                      : true;
            if (outFront != centreInFront) {
                // Out through the plane on the other side than the centre's: past it by the radius.
                const Scalar heightBehind = candidate.distance + radius_;
                if (heightBehind > radius_) return;  // the whole sphere is behind
                candidate.normal = -candidate.normal;
                candidate.distance = -heightBehind - radius_;
            }
        } else if (!twoSided_ && !centreInFront) {
            return;
        }
        keep(candidate);
    }

    std::span<const Candidate> kept() const { return {candidates_.data(), std::size_t(count_)}; }

private:
    void keep(const Candidate& candidate) {
        if (count_ < SphereMesh::candidateCapacity) {
            candidates_[count_++] = candidate;
            return;
        }
        Candidate& shallowest =
            *std::max_element(candidates_.begin(), candidates_.end(),
                              [](const Candidate& x, const Candidate& y) { return x.distance < y.distance; });
        if (candidate.distance < shallowest.distance) shallowest = candidate;
    }

    Sphere<Scalar> grown_;
    Scalar radius_;
    Scalar reach_;
    FrontSide front_;
    const SideHistory* twoSided_;
    std::array<Candidate, SphereMesh::candidateCapacity> candidates_;
    int count_ = 0;
};

// The internal-edge filter (see sphere_mesh.hpp): calls report(candidate) for at most reportedCapacity
// candidates, deepest first. A candidate whose point on the sphere is within sameContact of one
// reported is left out: the manifold would take it for that one (as two triangles' faces meeting at
// the point the centre projects to report it twice).
template <class Report>
void reportWithoutInternalEdges(std::span<const Candidate> candidates, Scalar sameContact, Report report) {
    std::array<int, SphereMesh::candidateCapacity> order;
    const auto orderEnd = order.begin() + candidates.size();
    std::iota(order.begin(), orderEnd, 0);
    std::sort(order.begin(), orderEnd, [&](int i, int j) {
        const Candidate &x = candidates[i], &y = candidates[j];
        if (x.distance != y.distance) return x.distance < y.distance;
        return dimension(x.feature) > dimension(y.feature);
    });
    std::array<Vec3<Scalar>, 3 * SphereMesh::candidateCapacity> voided;
    int voidedCount = 0;
    const auto isVoided = [&](const Vec3<Scalar>& vertex) {
        return std::find(voided.begin(), voided.begin() + voidedCount, vertex) !=
               voided.begin() + voidedCount;
    };
    std::array<Vec3<Scalar>, SphereMesh::reportedCapacity> reportedOnSphere;
    int reported = 0;
    const auto isReported = [&](const Vec3<Scalar>& onSphere) {
        return std::any_of(reportedOnSphere.begin(), reportedOnSphere.begin() + reported,
                           [&](const Vec3<Scalar>& other) {
                               const Vec3<Scalar> apart = onSphere - other;
                               return glm::dot(apart, apart) < sameContact * sameContact;
                           });
    };
    for (auto next = order.begin(); next != orderEnd && reported < SphereMesh::reportedCapacity; ++next) {
        const Candidate& candidate = candidates[*next];
        const Vec3<Scalar> vertices[3] = {candidate.triangle.a, candidate.triangle.b, candidate.triangle.c};
        bool internal = false;
        if (candidate.feature >= TriangleFeature::Vertex0) {
            internal = isVoided(vertices[int(candidate.feature) - int(TriangleFeature::Vertex0)]);
        } else if (candidate.feature != TriangleFeature::Face) {
            const int edge = int(candidate.feature) - int(TriangleFeature::Edge0);
            internal = isVoided(vertices[edge]) && isVoided(vertices[(edge + 1) % 3]);
        }
        const Vec3<Scalar> onSphere = candidate.pointOnMesh + candidate.distance * candidate.normal;
        if (!internal && !isReported(onSphere)) {
            report(candidate);
            reportedOnSphere[reported++] = onSphere;
        }
        for (const Vec3<Scalar>& vertex : vertices)
            if (!isVoided(vertex)) voided[voidedCount++] = vertex;
    }
}

}  // namespace

void SphereMesh::collide(const btCollisionObjectWrapper& sphere, const btCollisionObjectWrapper& mesh,
                         ContactSink& sink, State& state) {
    const auto& meshShape = shapeOf<btConcaveShape>(mesh);
    const btTransform& meshTransform = mesh.getWorldTransform();
    const Sphere<Scalar> local{toGlm(meshTransform.invXform(sphere.getWorldTransform().getOrigin())),
                               shapeOf<btSphereShape>(sphere).getRadius()};
    const Mat3<Scalar> basis = toGlm(meshTransform.getBasis());
    const SideHistory history(sink.manifold(), *mesh.getCollisionObject(), basis,
                              state.hasPrevious ? &state.previousCentre : nullptr);
    Candidates candidates(local, sink.reach(), frontSideOf(meshShape),
                          isOneSided(*mesh.getCollisionObject()) ? nullptr : &history);
    const Vec3<Scalar> extent(local.radius + sink.reach());
    forTrianglesNear(meshShape, local.center - extent, local.center + extent,
                     [&](const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
                         candidates.consider(triangle, partId, triangleIndex);
                     });
    state = {local.center, true};

    const TriangleContactReporter reporter(sphere, mesh, sink);
    reportWithoutInternalEdges(candidates.kept(), sink.manifold().getContactBreakingThreshold(),
                               [&](const Candidate& candidate) {
                                   reporter.add(candidate.triangle, candidate.partId, candidate.triangleIndex,
                                                candidate.normal, candidate.pointOnMesh, candidate.distance);
                               });
}

Scalar SphereMesh::timeOfImpact(const btCollisionObject& sphere, const btCollisionObject& mesh) {
    return sphereTimeOfImpact(
        sphere, mesh, [](const RayPath<Scalar>& path, Scalar radius, const btCollisionObject& meshObject) {
            const auto& meshShape = shapeOf<btConcaveShape>(meshObject);
            const btTransform& meshTransform = meshObject.getWorldTransform();
            const RayPath<Scalar> local{toGlm(meshTransform.invXform(toBullet(path.origin))),
                                        toGlm(toBullet(path.direction) * meshTransform.getBasis()),
                                        path.maxT};
            const FrontSide front = frontSideOf(meshShape);
            const FaceCulling culling = isOneSided(meshObject) ? FaceCulling::BackFaces : FaceCulling::None;
            const Vec3<Scalar> end = local.at(local.maxT);
            std::optional<SphereSweepHit<Scalar>> earliest;
            forTrianglesNear(meshShape, glm::min(local.origin, end) - radius,
                             glm::max(local.origin, end) + radius, [&](Triangle<Scalar> triangle, int, int) {
                                 // The sweep's front is the counter-clockwise side.
                                 if (!front.isCounterClockwise(
                                         glm::cross(triangle.b - triangle.a, triangle.c - triangle.a)))
                                     std::swap(triangle.b, triangle.c);
                                 const auto hit = sweepSphereTriangle(local, radius, triangle, culling);
                                 if (hit && (!earliest || hit->t < earliest->t)) earliest = hit;
                             });
            return earliest;
        });
}

}  // namespace analytic::narrowphase
