// SPDX-License-Identifier: Zlib
#include "narrowphase/capsule_mesh.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <numeric>
#include <optional>
#include <span>

#include "narrowphase/mesh_triangles.hpp"

namespace analytic::narrowphase {
namespace {

struct Candidate : TriangleCandidate {
    Scalar s;  // the point's place along the capsule's axis
};

// The contact points with the triangles near the capsule, sides settled; at most candidateCapacity,
// the deepest. Triangles are queried farther than the reach (queryReach): a capsule that came from the
// other side of a face than its axis is now may be deep past it, and is pushed back however deep.
class Candidates {
public:
    Candidates(const Capsule<Scalar>& capsule, Scalar reach, Scalar queryReach, FrontSide front,
               const SideHistory& history, bool oneSided, const Vec3<Scalar>* previousCentre)
        : capsule_(capsule),
          reach_(reach),
          queryReach_(queryReach),
          front_(front),
          history_(history),
          oneSided_(oneSided),
          previousCentre_(previousCentre) {}

    void consider(const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
        std::optional<CapsuleTriangleContact<Scalar>> touch =
            capsuleTriangleContact(capsule_, triangle, queryReach_);
        if (!touch) return;
        const Vec3<Scalar> areaNormal = glm::cross(triangle.b - triangle.a, triangle.c - triangle.a);
        const Vec3<Scalar> frontNormal = front_.isCounterClockwise(areaNormal) ? areaNormal : -areaNormal;
        const bool axisInFront = glm::dot(touch->contact.normal, frontNormal) >= 0;
        if (touch->feature == TriangleFeature::Face) {
            // The side it belongs on, and whether an earlier step told it.
            bool outFront = true, told = false;
            if (oneSided_) {
                told = previousCentre_ && glm::dot(*previousCentre_ - triangle.a, frontNormal) > 0;
            } else if (const auto side = history_.inFront(triangle, frontNormal, partId, triangleIndex)) {
                outFront = *side;
                told = true;
            } else {
                outFront = axisInFront;
            }
            if (outFront != axisInFront) {
                // Wholly on the axis's side of the plane, and not known to have crossed it: no contact.
                if (!told && touch->contact.points[0].distance > 0) return;
                touch = capsuleTriangleContact(capsule_, triangle, queryReach_, true);
                if (!touch) return;
            }
        } else if (oneSided_ && !axisInFront) {
            return;
        }
        const CapsuleContact<Scalar>& contact = touch->contact;
        for (int k = 0; k < contact.pointCount; ++k) {
            const CapsulePoint<Scalar>& point = contact.points[k];
            if (point.distance <= reach_)
                deepest_.offer({{triangle, point.onB, contact.normal, point.distance, touch->feature, partId,
                                 triangleIndex},
                                point.s});
        }
    }

    std::span<const Candidate> kept() const { return deepest_.kept(); }

private:
    Capsule<Scalar> capsule_;
    Scalar reach_;
    Scalar queryReach_;
    FrontSide front_;
    const SideHistory& history_;
    bool oneSided_;
    const Vec3<Scalar>* previousCentre_;
    DeepestCandidates<Candidate, CapsuleMesh::candidateCapacity, &Candidate::distanceOf> deepest_;
};

// The contacts that are not at internal edges (takeExternalContacts); then report(candidate) for at most
// reportedCapacity of them: the deepest, the ones lowest and highest along the axis, and the one whose
// normal turns farthest from the deepest's.
template <class Report>
void reportWithoutInternalEdges(std::span<const Candidate> candidates, Scalar sameContact, Report report) {
    std::array<const Candidate*, CapsuleMesh::candidateCapacity> kept;
    int keptCount = 0;
    takeExternalContacts<CapsuleMesh::candidateCapacity>(candidates, sameContact,
                                                         [&](const Candidate& candidate) {
                                                             kept[std::size_t(keptCount++)] = &candidate;
                                                             return true;
                                                         });
    if (keptCount == 0) return;
    const Candidate& deepest = *kept[0];
    report(deepest);
    int lowest = -1, highest = -1;
    for (int i = 1; i < keptCount; ++i) {
        const Candidate& candidate = *kept[std::size_t(i)];
        if (candidate.s < deepest.s && (lowest < 0 || candidate.s < kept[std::size_t(lowest)]->s)) lowest = i;
        if (candidate.s > deepest.s && (highest < 0 || candidate.s > kept[std::size_t(highest)]->s))
            highest = i;
    }
    if (lowest >= 0) report(*kept[std::size_t(lowest)]);
    if (highest >= 0) report(*kept[std::size_t(highest)]);
    // And the contact whose normal turns farthest from the deepest's (the other slope of a valley the
    // capsule lies along), unless all are within a degree of it.
    int turned = -1;
    Scalar leastAligned = Scalar(0.99985);
    for (int i = 1; i < keptCount; ++i) {
        if (i == lowest || i == highest) continue;
        const Scalar alignment = glm::dot(kept[std::size_t(i)]->normal, deepest.normal);
        if (alignment < leastAligned) {
            leastAligned = alignment;
            turned = i;
        }
    }
    if (turned >= 0) report(*kept[std::size_t(turned)]);
}

// A point goes where the manifold holds one within the breaking threshold of it (on the manifold's
// body0), else into a free place; a full manifold lets Bullet choose the point it drops, which may be one
// added a moment before (its choice maximises an area, and a capsule's points lie on a line: a rolling
// capsule would lose one end at every other step). So the manifold's points that none of this step's
// replaces are removed, least deep first, until this step's fit. Only in a manifold of the pair alone
// (a compound's children share theirs).
void makeRoom(ContactSink& sink, const btCollisionObjectWrapper& capsule,
              const btCollisionObjectWrapper& mesh, std::span<const Candidate* const> reported) {
    // The manifold is the pair's own; the sink only reads it.
    auto& manifold = const_cast<btPersistentManifold&>(sink.manifold());
    const Scalar threshold = manifold.getContactBreakingThreshold();
    const bool capsuleIsBody0 = manifold.getBody0() == capsule.getCollisionObject();
    const btTransform& body0 = manifold.getBody0()->getWorldTransform();
    const btTransform& meshTransform = mesh.getWorldTransform();
    std::array<bool, MANIFOLD_CACHE_SIZE> replaced{};
    int added = 0;
    for (const Candidate* candidate : reported) {
        const btVector3 onMesh = meshTransform * toBullet(candidate->pointOnMesh);
        const btVector3 onCapsule =
            onMesh + (meshTransform.getBasis() * toBullet(candidate->normal)) * candidate->distance;
        const btVector3 local = body0.invXform(capsuleIsBody0 ? onCapsule : onMesh);
        int nearest = -1;
        Scalar nearestSquared = threshold * threshold;
        for (int i = 0; i < manifold.getNumContacts(); ++i) {
            const Scalar squared = (manifold.getContactPoint(i).m_localPointA - local).length2();
            if (squared < nearestSquared) {
                nearestSquared = squared;
                nearest = i;
            }
        }
        if (nearest >= 0)
            replaced[std::size_t(nearest)] = true;
        else
            ++added;
    }
    while (manifold.getNumContacts() + added > MANIFOLD_CACHE_SIZE) {
        int shallowest = -1;
        for (int i = 0; i < manifold.getNumContacts(); ++i)
            if (!replaced[std::size_t(i)] &&
                (shallowest < 0 || manifold.getContactPoint(i).getDistance() >
                                       manifold.getContactPoint(shallowest).getDistance()))
                shallowest = i;
        if (shallowest < 0) return;
        // removeContactPoint moves the last point into the freed place.
        const int last = manifold.getNumContacts() - 1;
        replaced[std::size_t(shallowest)] = replaced[std::size_t(last)];
        manifold.removeContactPoint(shallowest);
    }
}

}  // namespace

void CapsuleMesh::collide(const btCollisionObjectWrapper& capsule, const btCollisionObjectWrapper& mesh,
                          ContactSink& sink, State& state) {
    const auto& meshShape = shapeOf<btConcaveShape>(mesh);
    const btTransform& meshTransform = mesh.getWorldTransform();
    const Capsule<Scalar> local =
        toCapsule(shapeOf<btCapsuleShape>(capsule), meshTransform.inverseTimes(capsule.getWorldTransform()));
    // Nothing to find for an invalid capsule: the tree is not walked with a box of NaNs.
    if (!detail::allFinite(local.a, local.b, local.radius) || !(local.radius >= 0) || !(sink.reach() >= 0))
        return;
    const Vec3<Scalar> centre = (local.a + local.b) * Scalar(0.5);
    const Vec3<Scalar>* previousCentre = state.hasPrevious ? &state.previousCentre : nullptr;
    // A capsule that crossed a face during the step is at most as far past it as it moved, up to its
    // own size (a body moving farther per step than its size is beyond what steps can follow).
    const Scalar size = 2 * local.radius + glm::length(local.b - local.a);
    const Scalar moved = previousCentre ? std::min(glm::length(centre - *previousCentre), size) : Scalar(0);
    const Scalar queryReach = sink.reach() + (moved >= 0 ? moved : Scalar(0));
    const Scalar extent = local.radius + queryReach;
    if (!detail::allFinite(extent)) return;
    const SideHistory history(sink.manifold(), *mesh.getCollisionObject(), toGlm(meshTransform.getBasis()),
                              previousCentre);
    Candidates candidates(local, sink.reach(), queryReach, frontSideOf(meshShape), history,
                          isOneSided(*mesh.getCollisionObject()), previousCentre);
    forTrianglesNear(meshShape, glm::min(local.a, local.b) - extent, glm::max(local.a, local.b) + extent,
                     [&](const Triangle<Scalar>& triangle, int partId, int triangleIndex) {
                         candidates.consider(triangle, partId, triangleIndex);
                     });
    state = {centre, true};

    std::array<const Candidate*, reportedCapacity> reported;
    int reportedCount = 0;
    reportWithoutInternalEdges(candidates.kept(), sink.manifold().getContactBreakingThreshold(),
                               [&](const Candidate& candidate) { reported[reportedCount++] = &candidate; });
    const bool topLevel = capsule.getCollisionShape() == capsule.getCollisionObject()->getCollisionShape() &&
                          mesh.getCollisionShape() == mesh.getCollisionObject()->getCollisionShape();
    if (topLevel) makeRoom(sink, capsule, mesh, {reported.data(), std::size_t(reportedCount)});
    const TriangleContactReporter reporter(capsule, mesh, sink);
    for (const Candidate* candidate : std::span(reported.data(), std::size_t(reportedCount)))
        reporter.add(candidate->triangle, candidate->partId, candidate->triangleIndex, candidate->normal,
                     candidate->pointOnMesh, candidate->distance);
}

}  // namespace analytic::narrowphase
