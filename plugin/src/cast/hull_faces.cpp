// SPDX-License-Identifier: Zlib
#include "cast/hull_faces.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <mutex>
#include <numeric>
#include <optional>
#include <shared_mutex>
#include <typeinfo>
#include <unordered_map>
#include <utility>

namespace analytic::cast {
namespace {

// ---- Exact signs of determinants of doubles ----
// A number as a sum of doubles (an expansion): nonoverlapping, in increasing magnitude, no zero component,
// so its sign is its largest component's. Only reached when the double determinant's sign is uncertain.

void twoSum(double a, double b, double& sum, double& error) {
    sum = a + b;
    const double bVirtual = sum - a;
    const double aVirtual = sum - bVirtual;
    error = (a - aVirtual) + (b - bVirtual);
}

class Expansion {
public:
    // The largest: a 3x3 determinant of two-part differences, (2 * 2 * 2 * 2) * 2 parts per term, 3 terms.
    static constexpr int kCapacity = 200;

    Expansion() = default;
    explicit Expansion(double value) { add(value); }
    // Copies the parts in use only: the others are never written (no 1.6 KB clearing per number).
    Expansion(const Expansion& other) : size_(other.size_) {
        std::copy_n(other.parts_.begin(), size_, parts_.begin());
    }
    Expansion& operator=(const Expansion& other) {
        size_ = other.size_;
        std::copy_n(other.parts_.begin(), size_, parts_.begin());
        return *this;
    }
    static Expansion difference(double a, double b) {
        Expansion e;
        double sum, error;
        twoSum(a, -b, sum, error);
        e.add(error);
        e.add(sum);
        return e;
    }

    // Adds value exactly (Shewchuk's GROW-EXPANSION with zero elimination).
    void add(double value) {
        double carry = value;
        int kept = 0;
        for (int i = 0; i < size_; ++i) {
            double sum, error;
            twoSum(carry, parts_[i], sum, error);
            carry = sum;
            if (error != 0) parts_[kept++] = error;
        }
        if (carry != 0) parts_[kept++] = carry;
        size_ = kept;
    }
    void add(const Expansion& other, double sign) {
        for (int i = 0; i < other.size_; ++i)
            add(sign * other.parts_[i]);
    }
    Expansion times(const Expansion& other) const {
        Expansion product;
        for (int i = 0; i < size_; ++i)
            for (int j = 0; j < other.size_; ++j) {
                const double p = parts_[i] * other.parts_[j];
                product.add(std::fma(parts_[i], other.parts_[j], -p));
                product.add(p);
            }
        return product;
    }
    int sign() const { return size_ == 0 ? 0 : (parts_[size_ - 1] > 0 ? 1 : -1); }
    // The value, rounded (within a few roundings of it: the parts, smallest first).
    double estimate() const {
        double sum = 0;
        for (int i = 0; i < size_; ++i)
            sum += parts_[i];
        return sum;
    }

private:
    std::array<double, kCapacity> parts_;  // the first size_ only are set and read
    int size_ = 0;
};

using Point = std::array<double, 3>;

// Relative bound on the rounding of the double determinants below (Shewchuk's is under 8e-16 times the
// permanent); above it the double's sign is certain. Below the smallest permanent, underflow could matter.
constexpr double kFilter = 4e-15;
constexpr double kSmallestPermanent = 1e-250;

// The sign of det[b - a, c - a, d - a]: > 0 when d is above the plane of a, b, c, counter-clockwise seen
// from above.
int orient3d(const Point& a, const Point& b, const Point& c, const Point& d) {
    const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
    const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
    const double wx = d[0] - a[0], wy = d[1] - a[1], wz = d[2] - a[2];
    const double det = ux * (vy * wz - vz * wy) + uy * (vz * wx - vx * wz) + uz * (vx * wy - vy * wx);
    const double permanent = std::abs(ux) * (std::abs(vy * wz) + std::abs(vz * wy)) +
                             std::abs(uy) * (std::abs(vz * wx) + std::abs(vx * wz)) +
                             std::abs(uz) * (std::abs(vx * wy) + std::abs(vy * wx));
    if (permanent >= kSmallestPermanent && std::abs(det) > kFilter * permanent) return det > 0 ? 1 : -1;
    std::array<Expansion, 3> u, v, w;
    for (int k = 0; k < 3; ++k) {
        u[k] = Expansion::difference(b[k], a[k]);
        v[k] = Expansion::difference(c[k], a[k]);
        w[k] = Expansion::difference(d[k], a[k]);
    }
    Expansion total;
    for (int k = 0; k < 3; ++k) {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        Expansion minor = v[i].times(w[j]);
        minor.add(v[j].times(w[i]), -1);
        total.add(u[k].times(minor), 1);
    }
    return total.sign();
}

// The sign of det[b - a, c - a] in the coordinates i, j: > 0 for a left turn a, b, c.
int orient2d(const Point& a, const Point& b, const Point& c, int i, int j) {
    const double ux = b[i] - a[i], uy = b[j] - a[j], vx = c[i] - a[i], vy = c[j] - a[j];
    const double det = ux * vy - uy * vx;
    const double permanent = std::abs(ux * vy) + std::abs(uy * vx);
    if (permanent >= kSmallestPermanent && std::abs(det) > kFilter * permanent) return det > 0 ? 1 : -1;
    Expansion total = Expansion::difference(b[i], a[i]).times(Expansion::difference(c[j], a[j]));
    total.add(Expansion::difference(b[j], a[j]).times(Expansion::difference(c[i], a[i])), -1);
    return total.sign();
}

// ---- The hull ----
// Incremental, with a list of outside points per face (quickhull's order). Each step adds the farthest
// outside point of a face (the eye): the faces it sees strictly are replaced by a cone from the eye to their
// horizon. With exact signs the visible faces form a disc and its horizon one cycle; points coplanar with a
// face are never "outside" it, so the triangles of a flat facet stay coplanar and are merged afterwards.

struct Triangle {
    std::array<int, 3> v;
    std::array<int, 3> adjacent;  // the triangle across edge v[k] -> v[k + 1]
    std::vector<int> outside;
    int farthest = -1;
    double farthestDistance = 0;
    Point normal{};  // approximate, unit: only ranks outside points
    int seenStep = -1;
    bool visible = false;
    bool alive = true;
};

class HullBuilder {
public:
    explicit HullBuilder(std::span<const Point> points) : points_(points) {}

    // The hull's triangles (alive ones), or false when the points are coplanar or a consistency check fails.
    bool build();

    const std::vector<Triangle>& triangles() const { return triangles_; }

private:
    int orient(const Triangle& t, int p) const {
        return orient3d(points_[t.v[0]], points_[t.v[1]], points_[t.v[2]], points_[p]);
    }
    bool initialTetrahedron();
    int addTriangle(int a, int b, int c);
    void assign(int point, std::span<const int> candidates);
    bool addPoint(int face);

    std::span<const Point> points_;
    std::vector<Triangle> triangles_;
    std::vector<int> pending_;
    std::vector<int> horizonFrom_;  // per point: its horizon edge's index in the current step, or -1
    int step_ = 0;
};

int HullBuilder::addTriangle(int a, int b, int c) {
    Triangle t;
    t.v = {a, b, c};
    t.adjacent = {-1, -1, -1};
    const Point& pa = points_[a];
    const Point& pb = points_[b];
    const Point& pc = points_[c];
    const double ux = pb[0] - pa[0], uy = pb[1] - pa[1], uz = pb[2] - pa[2];
    const double vx = pc[0] - pa[0], vy = pc[1] - pa[1], vz = pc[2] - pa[2];
    Point n{uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx};
    const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    if (length > 0 && std::isfinite(length))
        for (double& x : n)
            x /= length;
    t.normal = n;
    triangles_.push_back(std::move(t));
    return int(triangles_.size()) - 1;
}

// Gives the point to the first candidate that sees it strictly; a point no candidate sees is inside (or on)
// the hull from now on.
void HullBuilder::assign(int point, std::span<const int> candidates) {
    for (const int f : candidates) {
        Triangle& t = triangles_[f];
        if (orient(t, point) <= 0) continue;
        const Point& p = points_[point];
        const Point& a = points_[t.v[0]];
        const double distance =
            t.normal[0] * (p[0] - a[0]) + t.normal[1] * (p[1] - a[1]) + t.normal[2] * (p[2] - a[2]);
        if (t.outside.empty() || distance > t.farthestDistance) {
            t.farthest = point;
            t.farthestDistance = distance;
        }
        t.outside.push_back(point);
        return;
    }
}

bool HullBuilder::initialTetrahedron() {
    const int count = int(points_.size());
    auto squared = [](const Point& a, const Point& b) {
        return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
    };
    // The farthest apart of the six extreme points along the axes.
    std::array<int, 6> extremes{};
    for (int i = 0; i < count; ++i)
        for (int k = 0; k < 3; ++k) {
            if (points_[i][k] < points_[extremes[2 * k]][k]) extremes[2 * k] = i;
            if (points_[i][k] > points_[extremes[2 * k + 1]][k]) extremes[2 * k + 1] = i;
        }
    int i0 = extremes[0], i1 = extremes[1];
    double best = -1;
    for (const int a : extremes)
        for (const int b : extremes)
            if (const double d = squared(points_[a], points_[b]); d > best) best = d, i0 = a, i1 = b;
    if (!(best > 0)) return false;
    // The farthest from their line.
    int i2 = -1;
    best = 0;
    const Point& p0 = points_[i0];
    const Point u{points_[i1][0] - p0[0], points_[i1][1] - p0[1], points_[i1][2] - p0[2]};
    for (int i = 0; i < count; ++i) {
        const Point v{points_[i][0] - p0[0], points_[i][1] - p0[1], points_[i][2] - p0[2]};
        const Point c{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        if (const double d = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]; d > best) best = d, i2 = i;
    }
    if (i2 < 0) return false;
    // The farthest from their plane; any point off it (exactly) will do if the farthest is not.
    int i3 = -1;
    best = 0;
    const Point& p1 = points_[i1];
    const Point& p2 = points_[i2];
    const Point v{p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
    const Point n{u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    for (int i = 0; i < count; ++i) {
        const double d = std::abs(n[0] * (points_[i][0] - p0[0]) + n[1] * (points_[i][1] - p0[1]) +
                                  n[2] * (points_[i][2] - p0[2]));
        if (d > best) best = d, i3 = i;
    }
    if (i3 < 0 || orient3d(p0, p1, p2, points_[i3]) == 0) {
        i3 = -1;
        for (int i = 0; i < count && i3 < 0; ++i)
            if (orient3d(p0, p1, p2, points_[i]) != 0) i3 = i;
    }
    if (i3 < 0) return false;
    // Base i0, i1, i2 counter-clockwise seen from outside: i3 below it.
    if (orient3d(p0, p1, p2, points_[i3]) > 0) std::swap(i1, i2);
    const std::array<std::array<int, 3>, 4> faces{{{i0, i1, i2}, {i0, i3, i1}, {i1, i3, i2}, {i2, i3, i0}}};
    for (const auto& f : faces)
        addTriangle(f[0], f[1], f[2]);
    for (int f = 0; f < 4; ++f)
        for (int k = 0; k < 3; ++k) {
            const int a = faces[f][k], b = faces[f][(k + 1) % 3];
            for (int g = 0; g < 4; ++g)
                for (int m = 0; m < 3; ++m)
                    if (faces[g][m] == b && faces[g][(m + 1) % 3] == a) triangles_[f].adjacent[k] = g;
        }
    const std::array<int, 4> all{0, 1, 2, 3};
    for (int i = 0; i < count; ++i)
        if (i != i0 && i != i1 && i != i2 && i != i3) assign(i, all);
    for (int f = 0; f < 4; ++f)
        if (!triangles_[f].outside.empty()) pending_.push_back(f);
    return true;
}

bool HullBuilder::addPoint(int face) {
    const int eye = triangles_[face].farthest;
    ++step_;
    // The faces the eye sees, from the one whose point it is, across edges.
    std::vector<int> visible{face};
    triangles_[face].seenStep = step_;
    triangles_[face].visible = true;
    for (std::size_t i = 0; i < visible.size(); ++i)
        for (const int g : triangles_[visible[i]].adjacent) {
            Triangle& t = triangles_[g];
            if (t.seenStep == step_) continue;
            t.seenStep = step_;
            t.visible = orient(t, eye) > 0;
            if (t.visible) visible.push_back(g);
        }
    // The horizon: the visible faces' edges to faces not visible, chained into one cycle.
    struct HorizonEdge {
        int from, to, beyond;
    };
    std::vector<HorizonEdge> horizon;
    bool simple = true;
    for (const int f : visible) {
        const Triangle& t = triangles_[f];
        for (int k = 0; k < 3; ++k)
            if (!triangles_[t.adjacent[k]].visible) {
                const int from = t.v[k];
                if (horizonFrom_[from] >= 0) simple = false;
                horizonFrom_[from] = int(horizon.size());
                horizon.push_back({from, t.v[(k + 1) % 3], t.adjacent[k]});
            }
    }
    std::vector<int> cycle;
    if (simple && !horizon.empty()) {
        int at = 0;
        do {
            cycle.push_back(at);
            at = horizonFrom_[horizon[at].to];
        } while (at >= 0 && at != 0 && cycle.size() <= horizon.size());
        simple = at == 0 && cycle.size() == horizon.size();
    }
    for (const HorizonEdge& e : horizon)
        horizonFrom_[e.from] = -1;
    for (const int f : visible)
        triangles_[f].visible = false;
    // (A point sees some face but never all of them: an empty horizon would be a broken hull.)
    if (!simple || horizon.empty()) return false;
    // The cone from the eye to the horizon, each new face linked to the face beyond its horizon edge and
    // to its neighbours in the cone.
    const int first = int(triangles_.size());
    const int n = int(cycle.size());
    for (int j = 0; j < n; ++j) {
        const HorizonEdge& e = horizon[cycle[j]];
        const int f = addTriangle(e.from, e.to, eye);
        Triangle& t = triangles_[f];
        t.adjacent = {e.beyond, first + (j + 1) % n, first + (j + n - 1) % n};
        Triangle& beyond = triangles_[e.beyond];
        for (int k = 0; k < 3; ++k)
            if (beyond.v[k] == e.to && beyond.v[(k + 1) % 3] == e.from) beyond.adjacent[k] = f;
    }
    std::vector<int> cone(n);
    std::iota(cone.begin(), cone.end(), first);
    for (const int f : visible) {
        std::vector<int> outside = std::move(triangles_[f].outside);
        triangles_[f].outside = {};
        triangles_[f].alive = false;
        for (const int p : outside)
            if (p != eye) assign(p, cone);
    }
    for (const int f : cone)
        if (!triangles_[f].outside.empty()) pending_.push_back(f);
    return true;
}

bool HullBuilder::build() {
    if (points_.size() < 4 || !initialTetrahedron()) return false;
    horizonFrom_.assign(points_.size(), -1);
    while (!pending_.empty()) {
        const int f = pending_.back();
        pending_.pop_back();
        if (!triangles_[f].alive || triangles_[f].outside.empty()) continue;
        if (!addPoint(f)) return false;
    }
    return true;
}

// ---- From triangles to faces ----

int find(std::vector<int>& parent, int i) {
    while (parent[i] != i)
        i = parent[i] = parent[parent[i]];
    return i;
}

struct Loops {
    std::vector<std::vector<int>> faces;  // point indices, counter-clockwise seen from outside
};

// Merges the exactly coplanar neighbouring triangles into one polygon each and drops the vertices exactly on
// a straight run of a polygon's boundary; nullopt if a polygon's boundary is not one convex cycle. With a
// tolerance > 0, also merges into each facet (largest first) its neighbours whose every vertex lies within
// the tolerance of its plane: the faces of points rounded off a common plane (a rotated box's in btScalar).
std::optional<Loops> mergeCoplanar(std::span<const Point> points, const std::vector<Triangle>& triangles,
                                   double tolerance) {
    const int count = int(triangles.size());
    std::vector<int> parent(count);
    std::iota(parent.begin(), parent.end(), 0);
    for (int f = 0; f < count; ++f) {
        const Triangle& t = triangles[f];
        if (!t.alive) continue;
        for (int k = 0; k < 3; ++k) {
            const int g = t.adjacent[k];
            if (g < f) continue;
            const Triangle& u = triangles[g];
            int apex = u.v[0];
            for (const int x : u.v)
                if (x != t.v[k] && x != t.v[(k + 1) % 3]) apex = x;
            if (orient3d(points[t.v[0]], points[t.v[1]], points[t.v[2]], points[apex]) == 0)
                parent[find(parent, g)] = find(parent, f);
        }
    }
    std::vector<int> regionOf(count, -1);
    for (int f = 0; f < count; ++f)
        if (triangles[f].alive) regionOf[f] = find(parent, f);
    // The regions' area vectors (twice the area along the normal), for their normals.
    std::vector<Point> area(count, Point{0, 0, 0});
    for (int f = 0; f < count; ++f) {
        if (!triangles[f].alive) continue;
        const Point& a = points[triangles[f].v[0]];
        const Point& b = points[triangles[f].v[1]];
        const Point& c = points[triangles[f].v[2]];
        const double ux = b[0] - a[0], uy = b[1] - a[1], uz = b[2] - a[2];
        const double vx = c[0] - a[0], vy = c[1] - a[1], vz = c[2] - a[2];
        Point& sum = area[regionOf[f]];
        sum[0] += uy * vz - uz * vy;
        sum[1] += uz * vx - ux * vz;
        sum[2] += ux * vy - uy * vx;
    }
    auto dot = [](const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; };
    // Each region's largest triangle (by its rounded area).
    std::vector<int> representative(count, -1);
    std::vector<double> largestArea(count, -1);
    auto updateRepresentative = [&](int region, int f) {
        const Point& a = points[triangles[f].v[0]];
        const Point& b = points[triangles[f].v[1]];
        const Point& c = points[triangles[f].v[2]];
        const Point u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w{c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const Point cross{u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        if (const double size = dot(cross, cross); size > largestArea[region] || representative[region] < 0) {
            largestArea[region] = size;
            representative[region] = f;
        }
    };
    if (tolerance > 0) {
        std::vector<std::vector<int>> members(count), corners(count);
        std::vector<int> roots;
        for (int f = 0; f < count; ++f) {
            if (!triangles[f].alive) continue;
            const int r = regionOf[f];
            if (members[r].empty()) roots.push_back(r);
            members[r].push_back(f);
            corners[r].insert(corners[r].end(), triangles[f].v.begin(), triangles[f].v.end());
        }
        for (const int r : roots) {
            std::sort(corners[r].begin(), corners[r].end());
            corners[r].erase(std::unique(corners[r].begin(), corners[r].end()), corners[r].end());
        }
        std::sort(roots.begin(), roots.end(),
                  [&](int a, int b) { return dot(area[a], area[a]) > dot(area[b], area[b]); });
        std::vector<int> group(count, -1);
        for (const int seed : roots) {
            if (group[seed] >= 0) continue;
            group[seed] = seed;
            const double length = std::sqrt(dot(area[seed], area[seed]));
            if (!(length > 0) || !std::isfinite(length)) continue;
            const Point n{area[seed][0] / length, area[seed][1] / length, area[seed][2] / length};
            double offset = -std::numeric_limits<double>::infinity();
            for (const int v : corners[seed])
                offset = std::max(offset, dot(n, points[v]));
            std::vector<int> queue{seed};
            for (std::size_t q = 0; q < queue.size(); ++q)
                for (const int f : members[queue[q]])
                    for (const int g : triangles[f].adjacent) {
                        const int r = regionOf[g];
                        if (group[r] >= 0) continue;
                        const bool near = std::all_of(corners[r].begin(), corners[r].end(), [&](int v) {
                            return std::abs(dot(n, points[v]) - offset) <= tolerance;
                        });
                        if (!near) continue;
                        group[r] = seed;
                        queue.push_back(r);
                    }
        }
        for (int f = 0; f < count; ++f)
            if (triangles[f].alive) regionOf[f] = group[regionOf[f]];
        std::fill(representative.begin(), representative.end(), -1);
        std::vector<Point> merged(count, Point{0, 0, 0});
        for (const int r : roots)
            for (int k = 0; k < 3; ++k)
                merged[group[r]][k] += area[r][k];
        area = std::move(merged);
    }
    for (int f = 0; f < count; ++f)
        if (triangles[f].alive) updateRepresentative(regionOf[f], f);
    // Each region's boundary edges, grouped by region.
    struct Boundary {
        int region, from, to;
    };
    std::vector<Boundary> boundary;
    for (int f = 0; f < count; ++f) {
        const Triangle& t = triangles[f];
        if (!t.alive) continue;
        const int region = regionOf[f];
        for (int k = 0; k < 3; ++k)
            if (regionOf[t.adjacent[k]] != region) boundary.push_back({region, t.v[k], t.v[(k + 1) % 3]});
    }
    std::sort(boundary.begin(), boundary.end(), [](const Boundary& a, const Boundary& b) {
        return a.region != b.region ? a.region < b.region : a.from < b.from;
    });
    Loops loops;
    struct Projection {
        int i, j, turn;
    };
    std::vector<Projection> projections;
    for (std::size_t begin = 0; begin < boundary.size();) {
        std::size_t end = begin;
        while (end < boundary.size() && boundary[end].region == boundary[begin].region)
            ++end;
        const std::span<const Boundary> edges(boundary.data() + begin, end - begin);
        const int region = boundary[begin].region;
        begin = end;
        // Walk the cycle: the region is a convex polygon, so each vertex starts one boundary edge.
        for (std::size_t i = 1; i < edges.size(); ++i)
            if (edges[i].from == edges[i - 1].from) return std::nullopt;
        std::vector<int> loop;
        int at = edges[0].from;
        do {
            loop.push_back(at);
            const auto next = std::lower_bound(edges.begin(), edges.end(), at,
                                               [](const Boundary& e, int from) { return e.from < from; });
            if (next == edges.end() || next->from != at) return std::nullopt;
            at = next->to;
        } while (at != edges[0].from && loop.size() <= edges.size());
        if (loop.size() != edges.size() || loop.size() < 3) return std::nullopt;
        // A projection along an axis the plane is not parallel to keeps turns and collinearity: the largest
        // component of the (rounded) area vector, unless the exact orientation of the region's largest
        // triangle (outward, counter-clockwise) seen along it is 0 (a sliver's rounded normal can be wrong).
        const Point& normal = area[region];
        const Triangle& largest = triangles[representative[region]];
        std::array<int, 3> axes{0, 1, 2};
        std::sort(axes.begin(), axes.end(),
                  [&](int a, int b) { return std::abs(normal[a]) > std::abs(normal[b]); });
        int i = 0, j = 0, turn = 0;  // a convex turn's sign, seen along the axis
        for (const int axis : axes) {
            i = (axis + 1) % 3;
            j = (axis + 2) % 3;
            turn = orient2d(points[largest.v[0]], points[largest.v[1]], points[largest.v[2]], i, j);
            if (turn != 0) break;
        }
        if (turn == 0) return std::nullopt;
        for (bool removed = true; removed && loop.size() > 3;) {
            removed = false;
            for (std::size_t m = 0; m < loop.size() && loop.size() > 3; ++m) {
                const std::size_t size = loop.size();
                const int side = orient2d(points[loop[(m + size - 1) % size]], points[loop[m]],
                                          points[loop[(m + 1) % size]], i, j);
                if (side == 0) {
                    loop.erase(loop.begin() + std::ptrdiff_t(m));
                    removed = true;
                    --m;
                }
            }
        }
        loops.faces.push_back(std::move(loop));
        projections.push_back({i, j, turn});
    }
    if (tolerance > 0) {
        // A vertex between two merged faces only, within the tolerance of the line through its neighbours,
        // is a rounding off a straight edge: dropped from both loops.
        std::vector<int> faces(points.size(), 0);
        for (const std::vector<int>& loop : loops.faces)
            for (const int v : loop)
                ++faces[v];
        std::vector<char> dropped(points.size(), 0);
        for (const std::vector<int>& loop : loops.faces)
            for (std::size_t m = 0; m < loop.size(); ++m) {
                const int v = loop[m];
                if (faces[v] != 2) continue;
                const Point& a = points[loop[(m + loop.size() - 1) % loop.size()]];
                const Point& b = points[v];
                const Point& c = points[loop[(m + 1) % loop.size()]];
                const Point u{c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                    w{b[0] - a[0], b[1] - a[1], b[2] - a[2]};
                const Point cross{u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2],
                                  u[0] * w[1] - u[1] * w[0]};
                if (std::sqrt(dot(cross, cross)) <= tolerance * std::sqrt(dot(u, u))) dropped[v] = 1;
            }
        for (std::vector<int>& loop : loops.faces)
            std::erase_if(loop, [&](int v) { return dropped[v] != 0; });
    }
    // Every loop a strictly convex polygon, counter-clockwise seen from outside.
    for (std::size_t f = 0; f < loops.faces.size(); ++f) {
        const std::vector<int>& loop = loops.faces[f];
        const auto [i, j, turn] = projections[f];
        const std::size_t size = loop.size();
        if (size < 3) return std::nullopt;
        for (std::size_t m = 0; m < size; ++m)
            if (orient2d(points[loop[m]], points[loop[(m + 1) % size]], points[loop[(m + 2) % size]], i, j) !=
                turn)
                return std::nullopt;
    }
    return loops;
}

using Wide = long double;

// At most this many point-plane evaluations in the check (about a second): 10,000 points on a sphere
// (20,000 faces) fit.
constexpr double kCheckBudget = double(1 << 28);

// The sign of dot(normal, p) - value, exactly.
int exactDotMinus(const Vec3<btScalar>& normal, const btVector3& p, btScalar value) {
    Expansion sum(-double(value));
    for (int k = 0; k < 3; ++k) {
        const double a = normal[k], b = p[k];
        const double product = a * b;
        sum.add(std::fma(a, b, -product));
        sum.add(product);
    }
    return sum.sign();
}

// The btScalar nearest above value (value finite); +infinity above the largest btScalar.
btScalar roundUp(double value) {
    constexpr double largest = double(std::numeric_limits<btScalar>::max());
    if (value > largest) return std::numeric_limits<btScalar>::infinity();
    if (value <= -largest) return -std::numeric_limits<btScalar>::max();
    btScalar rounded = btScalar(value);
    if (double(rounded) < value) rounded = std::nextafter(rounded, std::numeric_limits<btScalar>::infinity());
    return rounded;
}

// A face's normal (not unit), from its first vertex, the vertex farthest from it and the vertex farthest from
// their line: their cross product exactly, then rounded, so that the normal of a planar face is right
// however thin the face (a sliver's, computed in floating point, can point anywhere).
Point faceNormal(std::span<const Point> points, const std::vector<int>& loop) {
    const Point& o = points[loop[0]];
    auto minus = [&](const Point& p) { return Point{p[0] - o[0], p[1] - o[1], p[2] - o[2]}; };
    int a = loop[1], b = loop[2];
    double best = -1;
    for (const int v : loop) {
        const Point d = minus(points[v]);
        if (const double size = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]; size > best) best = size, a = v;
    }
    const Point u = minus(points[a]);
    best = -1;
    for (const int v : loop) {
        const Point w = minus(points[v]);
        const Point c{u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        if (const double size = c[0] * c[0] + c[1] * c[1] + c[2] * c[2]; size > best) best = size, b = v;
    }
    // Counter-clockwise seen from outside along the loop: a before b, or the cross product is reversed.
    const auto at = [&](int v) { return std::find(loop.begin(), loop.end(), v) - loop.begin(); };
    if (at(a) > at(b)) std::swap(a, b);
    Point normal;
    for (int k = 0; k < 3; ++k) {
        const int i = (k + 1) % 3, j = (k + 2) % 3;
        Expansion component =
            Expansion::difference(points[a][i], o[i]).times(Expansion::difference(points[b][j], o[j]));
        component.add(
            Expansion::difference(points[a][j], o[j]).times(Expansion::difference(points[b][i], o[i])), -1);
        normal[k] = component.estimate();
    }
    return normal;
}

// The faces' planes and the checks of the header, for the given loops; null if a check fails.
std::shared_ptr<const HullFaces> facesOf(std::span<const btVector3> scaled, std::span<const Point> normalized,
                                         const std::optional<Loops>& loops) {
    if (!loops || loops->faces.size() < 4) return nullptr;

    auto hull = std::make_shared<HullFaces>();
    std::vector<std::uint32_t> index(scaled.size(), std::numeric_limits<std::uint32_t>::max());
    std::vector<std::array<std::uint32_t, 2>> directed;
    hull->faceStarts.push_back(0);
    for (const std::vector<int>& loop : loops->faces) {
        for (const int p : loop) {
            if (index[p] == std::numeric_limits<std::uint32_t>::max()) {
                index[p] = std::uint32_t(hull->vertices.size());
                hull->vertices.emplace_back(scaled[p].x(), scaled[p].y(), scaled[p].z());
            }
            hull->loopVertices.push_back(index[p]);
        }
        hull->faceStarts.push_back(std::uint32_t(hull->loopVertices.size()));
        for (std::size_t m = 0; m < loop.size(); ++m)
            directed.push_back({index[loop[m]], index[loop[(m + 1) % loop.size()]]});
    }
    // Every edge once each way (a closed surface), then V - E + F = 2 (a sphere's).
    std::sort(directed.begin(), directed.end());
    if (std::adjacent_find(directed.begin(), directed.end()) != directed.end()) return nullptr;
    for (const auto& e : directed) {
        if (!std::binary_search(directed.begin(), directed.end(), std::array{e[1], e[0]})) return nullptr;
        if (e[0] < e[1]) hull->edges.push_back(e);
    }
    const std::size_t vertexCount = hull->vertices.size(), faceCount = loops->faces.size();
    if (vertexCount + faceCount != hull->edges.size() + 2) return nullptr;
    // The check below costs faces times points.
    if (double(faceCount) * double(scaled.size()) > kCheckBudget) return nullptr;

    // S: the largest distance of a point from the origin; the tolerances are relative to it.
    Wide reach = 0;
    for (const btVector3& p : scaled)
        reach = std::max(reach, std::sqrt(Wide(p.x()) * p.x() + Wide(p.y()) * p.y() + Wide(p.z()) * p.z()));
    const Wide tolerance = Wide(kHullFacesTolerance) * std::numeric_limits<btScalar>::epsilon() * reach;

    std::vector<double> upper(scaled.size());
    // Each face's plane: the normal through three of its vertices, exact then rounded to btScalar, its offset
    // the smallest btScalar no point is above.
    for (std::size_t f = 0; f < faceCount; ++f) {
        const std::vector<int>& loop = loops->faces[f];
        const Point n = faceNormal(normalized, loop);
        const Wide nx = n[0], ny = n[1], nz = n[2];
        const Wide length = std::sqrt(nx * nx + ny * ny + nz * nz);
        if (!(length > 0) || !std::isfinite(length)) return nullptr;
        const Vec3<btScalar> normal(btScalar(nx / length), btScalar(ny / length), btScalar(nz / length));
        // Every point inside: the offset bounds dot(normal, p) from above for every point (its double value
        // plus a bound of its rounding, products included, and of underflow), rounded up to btScalar.
        double highest = -std::numeric_limits<double>::infinity();
        double lowest = std::numeric_limits<double>::infinity();
        double largest = -std::numeric_limits<double>::infinity();
        const double mx = normal.x, my = normal.y, mz = normal.z;
        for (std::size_t i = 0; i < scaled.size(); ++i) {
            const btVector3& p = scaled[i];
            const double x = mx * double(p.x()), y = my * double(p.y()), z = mz * double(p.z());
            const double d = x + y + z;
            const double slack =
                4 * std::numeric_limits<double>::epsilon() * (std::abs(x) + std::abs(y) + std::abs(z)) +
                8 * std::numeric_limits<double>::denorm_min();
            upper[i] = d + slack;
            if (!std::isfinite(upper[i]))
                return nullptr;  // beyond double (coordinates near a double's largest)
            highest = std::max(highest, upper[i]);
            largest = std::max(largest, d);
            lowest = std::min(lowest, d);
        }
        btScalar offset = roundUp(highest);  // +infinity when beyond btScalar: then only a candidate will do
        // Tighter when no point is exactly above it: the computed largest dot product rounded up, or one of
        // the next few btScalars, so that a face whose points are exactly on a representable offset (a
        // box's) gets that offset, not one a few roundings up.
        btScalar candidate = roundUp(largest);
        for (int tries = 0; tries < 4 && candidate < offset;
             ++tries, candidate = std::nextafter(candidate, offset)) {
            bool holds = true;
            for (std::size_t i = 0; i < scaled.size() && holds; ++i)
                if (upper[i] > double(candidate)) holds = exactDotMinus(normal, scaled[i], candidate) <= 0;
            if (holds) {
                offset = candidate;
                break;
            }
        }
        if (!std::isfinite(offset)) return nullptr;
        // The check against the points: a point farther out than the tolerance beyond the face's own plane
        // (a hull that missed it) leaves the face's vertices that far below the offset.
        for (const int p : loop) {
            const btVector3& v = scaled[p];
            if (Wide(offset) - (Wide(normal.x) * v.x() + Wide(normal.y) * v.y() + Wide(normal.z) * v.z()) >
                tolerance)
                return nullptr;
        }
        // Solid: at least 4 tolerances thick along the normal.
        if (Wide(offset) - lowest < 4 * tolerance) return nullptr;
        hull->planes.push_back({normal, offset});
    }
    return hull;
}

}  // namespace

std::shared_ptr<const HullFaces> buildHullFaces(std::span<const btVector3> unscaledPoints,
                                                const btVector3& scaling) {
    if (unscaledPoints.size() < 4 || unscaledPoints.size() > kHullFacesMaxPoints) return nullptr;
    std::vector<btVector3> scaled(unscaledPoints.size());
    double largest = 0;
    for (std::size_t i = 0; i < unscaledPoints.size(); ++i) {
        scaled[i] = unscaledPoints[i] * scaling;
        for (int k = 0; k < 3; ++k) {
            if (!std::isfinite(scaled[i][k])) return nullptr;
            largest = std::max(largest, std::abs(double(scaled[i][k])));
        }
    }
    if (!(largest > 0)) return nullptr;
    // Scaled by a power of two (exact) so that every coordinate is below 1 in magnitude: the determinants'
    // products neither overflow nor, for any but extreme spreads of magnitude, underflow.
    const int exponent = std::ilogb(largest) + 1;
    std::vector<Point> normalized(scaled.size());
    for (std::size_t i = 0; i < scaled.size(); ++i)
        for (int k = 0; k < 3; ++k)
            normalized[i][k] = std::ldexp(double(scaled[i][k]), -exponent);
    HullBuilder builder(normalized);
    if (!builder.build()) return nullptr;
    // Nearly coplanar facets merged within a quarter of the tolerance (in the normalized points' units), so
    // that the plane of the merged face stays within the whole tolerance; if that fails a check, the exact
    // facets.
    double reach = 0;
    for (const Point& p : normalized)
        reach = std::max(reach, std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]));
    const double mergeTolerance =
        double(kHullFacesTolerance) / 4 * std::numeric_limits<btScalar>::epsilon() * reach;
    if (auto hull =
            facesOf(scaled, normalized, mergeCoplanar(normalized, builder.triangles(), mergeTolerance)))
        return hull;
    return facesOf(scaled, normalized, mergeCoplanar(normalized, builder.triangles(), 0));
}

// ---- The cache ----
namespace {

// The bits of a btScalar, so that the comparison is exact (and NaN-free input compares as itself).
using Bits = std::conditional_t<sizeof(btScalar) == 4, std::uint32_t, std::uint64_t>;

Bits bitsOf(btScalar x) { return std::bit_cast<Bits>(x); }

// 16 bytes of bits (GCC's and Clang's vector extension, one SSE or NEON register): a float btVector3 is one,
// a double one two, so that the comparison of the points below is one or two vector operations a point.
using Chunk = std::uint64_t __attribute__((vector_size(16)));
constexpr std::size_t kChunks = sizeof(btVector3) / sizeof(Chunk);
static_assert(sizeof(btVector3) == 4 * sizeof(Bits) && kChunks * sizeof(Chunk) == sizeof(btVector3));

struct Entry {
    // What the hull depends on: the unscaled points' x, y, z (the w lane stored 0, never compared) and the
    // scaling.
    std::vector<std::array<Bits, 4>> points;
    std::array<Bits, 3> scaling;
    std::shared_ptr<const HullFaces> hull;
    std::size_t bytes = 0;
    mutable std::atomic<std::uint64_t> lastUse{0};

    // Bit for bit, x, y and z of every point. All four lanes are compared, w (unused by Bullet, maybe
    // never set) is left out of the answer.
    bool matches(std::span<const btVector3> unscaled, const btVector3& scale) const {
        if (points.size() != unscaled.size()) return false;
        if ((bitsOf(scale.x()) ^ scaling[0]) | (bitsOf(scale.y()) ^ scaling[1]) |
            (bitsOf(scale.z()) ^ scaling[2]))
            return false;
        std::array<Chunk, kChunks> differ{};
        for (std::size_t i = 0; i < points.size(); ++i) {
            const auto* given = reinterpret_cast<const unsigned char*>(unscaled[i].m_floats);
            const auto* kept = reinterpret_cast<const unsigned char*>(points[i].data());
            for (std::size_t c = 0; c < kChunks; ++c) {
                Chunk a, b;
                std::memcpy(&a, given + c * sizeof(Chunk), sizeof(Chunk));
                std::memcpy(&b, kept + c * sizeof(Chunk), sizeof(Chunk));
                differ[c] |= a ^ b;
            }
        }
        std::array<Bits, 4> lanes;
        std::memcpy(lanes.data(), differ.data(), sizeof(lanes));
        return (lanes[0] | lanes[1] | lanes[2]) == 0;
    }
};

std::size_t bytesOf(const HullFaces* hull) {
    if (!hull) return 0;
    return sizeof(HullFaces) + hull->planes.size() * sizeof(Plane<btScalar>) +
           hull->vertices.size() * sizeof(Vec3<btScalar>) +
           (hull->faceStarts.size() + hull->loopVertices.size()) * sizeof(std::uint32_t) +
           hull->edges.size() * sizeof(hull->edges[0]);
}

class Cache {
public:
    std::shared_ptr<const HullFaces> lookup(const void* shape, std::span<const btVector3> unscaled,
                                            const btVector3& scaling) {
        {
            std::shared_lock lock(mutex_);
            const auto found = entries_.find(shape);
            if (found != entries_.end() && found->second->matches(unscaled, scaling)) {
                touch(*found->second);
                return found->second->hull;
            }
        }
        // Built outside the lock: other shapes' lookups go on meanwhile.
        auto entry = std::make_unique<Entry>();
        entry->hull = buildHullFaces(unscaled, scaling);
        entry->points.reserve(unscaled.size());
        for (const btVector3& p : unscaled)
            entry->points.push_back({bitsOf(p.x()), bitsOf(p.y()), bitsOf(p.z()), 0});
        entry->scaling = {bitsOf(scaling.x()), bitsOf(scaling.y()), bitsOf(scaling.z())};
        entry->bytes =
            sizeof(Entry) + entry->points.size() * sizeof(entry->points[0]) + bytesOf(entry->hull.get());
        std::shared_ptr<const HullFaces> hull = entry->hull;

        std::unique_lock lock(mutex_);
        ++clock_;
        touch(*entry);
        auto [at, inserted] = entries_.try_emplace(shape);
        if (!inserted) bytes_ -= at->second->bytes;
        bytes_ += entry->bytes;
        at->second = std::move(entry);
        evict(shape);
        return hull;
    }

    std::size_t size() {
        std::shared_lock lock(mutex_);
        return entries_.size();
    }

private:
    void touch(const Entry& entry) const {
        const std::uint64_t now = clock_.load(std::memory_order_relaxed);
        // Written only when it changes: hits on a shape read its entry without writing to it.
        if (entry.lastUse.load(std::memory_order_relaxed) != now)
            entry.lastUse.store(now, std::memory_order_relaxed);
    }

    // Drops the least recently used entries (never the one just made) while over a bound.
    void evict(const void* keep) {
        while (entries_.size() > kHullFacesCacheEntries ||
               (bytes_ > kHullFacesCacheBytes && entries_.size() > 1)) {
            auto oldest = entries_.end();
            for (auto it = entries_.begin(); it != entries_.end(); ++it)
                if (it->first != keep &&
                    (oldest == entries_.end() || it->second->lastUse.load(std::memory_order_relaxed) <
                                                     oldest->second->lastUse.load(std::memory_order_relaxed)))
                    oldest = it;
            if (oldest == entries_.end()) return;
            bytes_ -= oldest->second->bytes;
            entries_.erase(oldest);
        }
    }

    std::shared_mutex mutex_;
    std::unordered_map<const void*, std::unique_ptr<Entry>> entries_;
    std::size_t bytes_ = 0;
    // Advances on every insertion: an entry's lastUse is the insertion count at its last hit.
    std::atomic<std::uint64_t> clock_{0};
};

// Never destroyed: lookups from other static destructors stay valid.
Cache& cache() {
    static Cache* const instance = new Cache;
    return *instance;
}

}  // namespace

std::shared_ptr<const HullFaces> hullFacesOf(const btConvexHullShape& shape) {
    if (shape.getNumPoints() < 4) return nullptr;
    return cache().lookup(&shape, std::span(shape.getUnscaledPoints(), std::size_t(shape.getNumPoints())),
                          shape.getLocalScaling());
}

std::shared_ptr<const HullFaces> hullFacesOf(const btConvexPointCloudShape& shape) {
    const btVector3* points = shape.getUnscaledPoints();
    if (!points || shape.getNumPoints() < 4) return nullptr;
    return cache().lookup(&shape, std::span(points, std::size_t(shape.getNumPoints())),
                          shape.getLocalScaling());
}

std::shared_ptr<const HullFaces> hullFacesOf(const btCollisionShape& shape) {
    switch (shape.getShapeType()) {
        case CONVEX_HULL_SHAPE_PROXYTYPE:
            if (typeid(shape) != typeid(btConvexHullShape)) return nullptr;
            return hullFacesOf(static_cast<const btConvexHullShape&>(shape));
        case CONVEX_POINT_CLOUD_SHAPE_PROXYTYPE:
            if (typeid(shape) != typeid(btConvexPointCloudShape)) return nullptr;
            return hullFacesOf(static_cast<const btConvexPointCloudShape&>(shape));
        default:
            return nullptr;
    }
}

std::size_t hullFacesCacheSize() { return cache().size(); }

}  // namespace analytic::cast
