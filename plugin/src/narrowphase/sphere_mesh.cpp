// SPDX-License-Identifier: Zlib
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

using Candidate = TriangleCandidate;

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
        deepest_.offer(candidate);
    }

    std::span<const Candidate> kept() const { return deepest_.kept(); }

private:
    Sphere<Scalar> grown_;
    Scalar radius_;
    Scalar reach_;
    FrontSide front_;
    const SideHistory* twoSided_;
    DeepestCandidates<Candidate, SphereMesh::candidateCapacity, &Candidate::distanceOf> deepest_;
};

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
    int reported = 0;
    takeExternalContacts<candidateCapacity>(
        candidates.kept(), sink.manifold().getContactBreakingThreshold(), [&](const Candidate& candidate) {
            reporter.add(candidate.triangle, candidate.partId, candidate.triangleIndex, candidate.normal,
                         candidate.pointOnMesh, candidate.distance);
            return ++reported < reportedCapacity;
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
