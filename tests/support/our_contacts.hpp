// SPDX-License-Identifier: Zlib
// The contact points our algorithms wrote, found in a world as Bullet keeps them (the algorithm cached on
// each overlapping pair, its manifolds), and what every one of them must be: finite, with a unit normal.
#pragma once

#include <btBulletDynamicsCommon.h>

#include <cmath>
#include <cstring>
#include <typeinfo>

namespace analytic::test {

inline bool isFiniteVector(const btVector3& v) {
    return std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z());
}

// Finite points and distance, a unit normal.
inline bool isWellFormed(const btManifoldPoint& point) {
    return isFiniteVector(point.getPositionWorldOnA()) && isFiniteVector(point.getPositionWorldOnB()) &&
           isFiniteVector(point.m_normalWorldOnB) && std::isfinite(point.getDistance()) &&
           std::abs(point.m_normalWorldOnB.length() - 1) < btScalar(1e-3);
}

// Calls visit(point) for every point of every manifold of a pair whose cached algorithm is ours (one of
// narrowphase::PairAlgorithm's), as they are after the last step.
template <class Visit> void forEachContactOfOurs(btBroadphaseInterface& broadphase, Visit visit) {
    btBroadphasePairArray& pairs = broadphase.getOverlappingPairCache()->getOverlappingPairArray();
    for (int p = 0; p < pairs.size(); ++p) {
        btCollisionAlgorithm* algorithm = pairs[p].m_algorithm;
        if (!algorithm || !std::strstr(typeid(*algorithm).name(), "PairAlgorithm")) continue;
        btManifoldArray manifolds;
        algorithm->getAllContactManifolds(manifolds);
        for (int m = 0; m < manifolds.size(); ++m)
            for (int c = 0; c < manifolds[m]->getNumContacts(); ++c)
                visit(manifolds[m]->getContactPoint(c));
    }
}

}  // namespace analytic::test
