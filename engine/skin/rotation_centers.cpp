// Optimized centres of rotation: subdivision of Ω, the joint-pair index of its leaves, the
// per-weight-vector sums (vectorized, on all cores) and the on-disk cache.
#include "skin/rotation_centers.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "model/triangles.h"

namespace rig {

namespace {

// ---------------------------------------------------------------------------------------------
// Weight vectors.

void sparse_weights(const Primitive& prim, uint32_t v, CorWeights& out) {
  out.clear();
  const uint32_t k = prim.influences;
  if (k == 0 || (size_t(v) + 1) * k > prim.weights.size() ||
      (size_t(v) + 1) * k > prim.joints.size())
    return;
  for (uint32_t i = 0; i < k; ++i) {
    const float w = prim.weights[size_t(v) * k + i];
    if (!(w > 0.0f)) continue;  // zero-weight slots are ignored
    const uint32_t joint = prim.joints[size_t(v) * k + i];
    auto it = std::find_if(out.begin(), out.end(),
                           [joint](const CorWeight& e) { return e.joint == joint; });
    if (it != out.end())
      it->weight += double(w);  // a joint named in several slots: weights summed
    else
      out.push_back({joint, double(w)});
  }
  std::sort(out.begin(), out.end(),
            [](const CorWeight& a, const CorWeight& b) { return a.joint < b.joint; });
  double sum = 0.0;
  for (const CorWeight& e : out) sum += e.weight;
  if (!(sum > 0.0) || !std::isfinite(sum)) {
    out.clear();
    return;
  }
  for (CorWeight& e : out) e.weight /= sum;
}

// Sorted union of the joints of `lists`.
void joint_union(std::initializer_list<const CorWeights*> lists, std::vector<uint32_t>& out) {
  out.clear();
  for (const CorWeights* l : lists)
    for (const CorWeight& e : *l) out.push_back(e.joint);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

// Scatters sparse `w` into dense[u] over the sorted joints `joints`.
void densify(const CorWeights& w, const std::vector<uint32_t>& joints, double* dense) {
  std::fill(dense, dense + joints.size(), 0.0);
  size_t i = 0;
  for (const CorWeight& e : w) {
    while (joints[i] != e.joint) ++i;
    dense[i] = e.weight;
  }
}

double dense_distance(const double* a, const double* b, uint32_t u) {
  double s = 0.0;
  for (uint32_t i = 0; i < u; ++i) {
    const double d = a[i] - b[i];
    s += d * d;
  }
  return std::sqrt(s);
}

// ---------------------------------------------------------------------------------------------
// Subdivision (step 2) over dense weight vectors of the triangle's joint union: every leaf of a
// triangle has its joints among the corners' joints. `scratch` holds 3u doubles per level.

struct SubdivParams {
  double epsilon;
  int max_depth;
};

template <class Emit>
void subdivide(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c, const double* wa,
               const double* wb, const double* wc, uint32_t u, int depth, const SubdivParams& p,
               double* scratch, Emit& emit) {
  const bool split = depth < p.max_depth && (dense_distance(wa, wb, u) > p.epsilon ||
                                             dense_distance(wb, wc, u) > p.epsilon ||
                                             dense_distance(wc, wa, u) > p.epsilon);
  if (!split) {
    emit(a, b, c, wa, wb, wc, depth);
    return;
  }
  double* mab = scratch;
  double* mbc = scratch + u;
  double* mca = scratch + 2 * size_t(u);
  for (uint32_t i = 0; i < u; ++i) {
    mab[i] = (wa[i] + wb[i]) / 2.0;
    mbc[i] = (wb[i] + wc[i]) / 2.0;
    mca[i] = (wc[i] + wa[i]) / 2.0;
  }
  const glm::dvec3 pab = (a + b) / 2.0, pbc = (b + c) / 2.0, pca = (c + a) / 2.0;
  double* next = scratch + 3 * size_t(u);
  subdivide(a, pab, pca, wa, mab, mca, u, depth + 1, p, next, emit);
  subdivide(pab, b, pbc, mab, wb, mbc, u, depth + 1, p, next, emit);
  subdivide(pca, pbc, c, mca, mbc, wc, u, depth + 1, p, next, emit);
  subdivide(pab, pbc, pca, mab, mbc, mca, u, depth + 1, p, next, emit);
}

// Subdivides one triangle with sparse corner weights; emit(a, b, c, wa, wb, wc, depth, joints).
template <class Emit>
void subdivide_sparse(const glm::dvec3& a, const glm::dvec3& b, const glm::dvec3& c,
                      const CorWeights& wa, const CorWeights& wb, const CorWeights& wc,
                      const SubdivParams& p, std::vector<uint32_t>& joints,
                      std::vector<double>& buffer, Emit& emit) {
  joint_union({&wa, &wb, &wc}, joints);
  const uint32_t u = static_cast<uint32_t>(joints.size());
  const size_t levels = size_t(std::max(p.max_depth, 0)) + 1;
  buffer.resize(3 * size_t(u) + 3 * size_t(u) * levels);
  double* da = buffer.data();
  double* db = da + u;
  double* dc = db + u;
  densify(wa, joints, da);
  densify(wb, joints, db);
  densify(wc, joints, dc);
  subdivide(a, b, c, da, db, dc, u, 0, p, dc + u, emit);
}

// ---------------------------------------------------------------------------------------------
// Leaves indexed by joint pair (j < k): per leaf with w̄_j, w̄_k > 0 one entry
// x = w̄_j, y = w̄_k, m0 = x·y·A, m1..m3 = m0·c. Lists are padded with zero entries to a
// multiple of kPad so the vector loop has no tail.

constexpr size_t kPad = 8;

struct PairList {
  std::vector<double> x, y, m0, m1, m2, m3;
  size_t size() const { return x.size(); }
  void push(double xv, double yv, double m, const glm::dvec3& c) {
    x.push_back(xv);
    y.push_back(yv);
    m0.push_back(m);
    m1.push_back(m * c.x);
    m2.push_back(m * c.y);
    m3.push_back(m * c.z);
  }
  void append(const PairList& o) {
    x.insert(x.end(), o.x.begin(), o.x.end());
    y.insert(y.end(), o.y.begin(), o.y.end());
    m0.insert(m0.end(), o.m0.begin(), o.m0.end());
    m1.insert(m1.end(), o.m1.begin(), o.m1.end());
    m2.insert(m2.end(), o.m2.begin(), o.m2.end());
    m3.insert(m3.end(), o.m3.begin(), o.m3.end());
  }
  void pad() {
    const size_t n = (size() + kPad - 1) / kPad * kPad;
    for (std::vector<double>* v : {&x, &y, &m0, &m1, &m2, &m3}) v->resize(n, 0.0);
  }
};

uint64_t pair_key(uint32_t j, uint32_t k) { return (uint64_t(j) << 32) | k; }

struct PairIndex {
  std::unordered_map<uint64_t, uint32_t> index;
  std::vector<PairList> lists;
  double area = 0.0;
  uint64_t leaves = 0;
  uint64_t entries = 0;

  // Index of the list of `key` (created empty when new). References into `lists` do not
  // survive the creation of another list.
  uint32_t slot(uint64_t key) {
    auto [it, inserted] = index.try_emplace(key, static_cast<uint32_t>(lists.size()));
    if (inserted) lists.emplace_back();
    return it->second;
  }
  const PairList* find(uint64_t key) const {
    auto it = index.find(key);
    return it == index.end() ? nullptr : &lists[it->second];
  }
};

// ---------------------------------------------------------------------------------------------
// The sums of step 5 over one pair list for a vertex pair (a, b):
// out[0] = Σ e·m0, out[1..3] = Σ e·m1..3 with e = exp(−(a·y − b·x)² / σ²).
// exp is evaluated in float64 vector lanes: z = n·ln2 + r, |r| ≤ ln2/2, e^r by its degree-13
// Taylor polynomial (Estrin), 2^n through the exponent bits; relative error ~1e-16.

typedef double vd2 __attribute__((vector_size(16)));
typedef int64_t vl2 __attribute__((vector_size(16)));
typedef double vd4 __attribute__((vector_size(32)));
typedef int64_t vl4 __attribute__((vector_size(32)));
typedef double vd8 __attribute__((vector_size(64)));
typedef int64_t vl8 __attribute__((vector_size(64)));
template <int W>
struct Lanes;
template <>
struct Lanes<2> {
  typedef vd2 D;
  typedef vl2 L;
};
template <>
struct Lanes<4> {
  typedef vd4 D;
  typedef vl4 L;
};
template <>
struct Lanes<8> {
  typedef vd8 D;
  typedef vl8 L;
};

template <int W>
__attribute__((always_inline)) inline void pair_sums_impl(const PairList& list, double a, double b,
                                                          double inv_sigma2, double out[4]) {
  typedef typename Lanes<W>::D vd;
  typedef typename Lanes<W>::L vl;
  vd s0 = {}, s1 = {}, s2 = {}, s3 = {};
  const vd zero = {};
  const vd va = zero + a, vb = zero + b, vk = zero - inv_sigma2;
  const size_t n = list.size();
  const double *x = list.x.data(), *y = list.y.data(), *m0 = list.m0.data(), *m1 = list.m1.data(),
               *m2 = list.m2.data(), *m3 = list.m3.data();
  for (size_t i = 0; i < n; i += W) {
    vd X, Y, M0, M1, M2, M3;
    std::memcpy(&X, x + i, sizeof X);
    std::memcpy(&Y, y + i, sizeof Y);
    std::memcpy(&M0, m0 + i, sizeof M0);
    std::memcpy(&M1, m1 + i, sizeof M1);
    std::memcpy(&M2, m2 + i, sizeof M2);
    std::memcpy(&M3, m3 + i, sizeof M3);
    const vd d = va * Y - vb * X;
    vd z = vk * (d * d);
    z = z < -708.0 ? zero - 708.0 : z;               // e^-708 ≈ 3e-308: below it, 0 for our sums
    const vd t = z * 1.4426950408889634 + 0x1.8p52;  // n = round(z / ln2) in the low bits
    const vd nn = t - 0x1.8p52;
    const vd r = (z - nn * 6.93147180369123816490e-01) - nn * 1.90821492927058770002e-10;
    const vd r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
    const vd q0 = (1.0 + r) + r2 * (1.0 / 2 + r * (1.0 / 6));
    const vd q1 = (1.0 / 24 + r * (1.0 / 120)) + r2 * (1.0 / 720 + r * (1.0 / 5040));
    const vd q2 = (1.0 / 40320 + r * (1.0 / 362880)) + r2 * (1.0 / 3628800 + r * (1.0 / 39916800));
    const vd q3 = 1.0 / 479001600 + r * (1.0 / 6227020800.0);
    const vd poly = (q0 + r4 * q1) + r8 * (q2 + r4 * q3);
    vl bits;
    std::memcpy(&bits, &t, sizeof bits);
    bits = (bits << 52) + (int64_t(1023) << 52);
    vd scale;
    std::memcpy(&scale, &bits, sizeof scale);
    const vd e = poly * scale;
    s0 += e * M0;
    s1 += e * M1;
    s2 += e * M2;
    s3 += e * M3;
  }
  double r[4] = {0.0, 0.0, 0.0, 0.0};
  for (int l = 0; l < W; ++l) {
    r[0] += s0[l];
    r[1] += s1[l];
    r[2] += s2[l];
    r[3] += s3[l];
  }
  for (int c = 0; c < 4; ++c) out[c] = r[c];
}

using PairSums = void (*)(const PairList&, double, double, double, double*);

void pair_sums_generic(const PairList& list, double a, double b, double k, double* out) {
  pair_sums_impl<2>(list, a, b, k, out);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RIG_COR_X86 1
__attribute__((target("avx2,fma"), optimize("fp-contract=fast"))) void pair_sums_avx2(
    const PairList& list, double a, double b, double k, double* out) {
  pair_sums_impl<4>(list, a, b, k, out);
}
__attribute__((target("avx512f"), optimize("fp-contract=fast"))) void pair_sums_avx512(
    const PairList& list, double a, double b, double k, double* out) {
  pair_sums_impl<8>(list, a, b, k, out);
}
#endif

PairSums select_pair_sums() {
#ifdef RIG_COR_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return pair_sums_avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return pair_sums_avx2;
#endif
  return pair_sums_generic;
}

// ---------------------------------------------------------------------------------------------
// Work on all cores with progress and cancellation reported from the calling thread.

class Progress {
 public:
  Progress(CorProgress fn, void* user) : fn_(fn), user_(user) {}
  // False once cancelled. Rate-limited except for the final 1.
  bool report(float fraction, bool force = false) {
    if (cancelled_) return false;
    if (!fn_) return true;
    const auto now = std::chrono::steady_clock::now();
    if (!force && now - last_ < std::chrono::milliseconds(20)) return true;
    last_ = now;
    if (!fn_(user_, std::clamp(fraction, 0.0f, 1.0f))) cancelled_ = true;
    return !cancelled_;
  }
  bool cancelled() const { return cancelled_; }

 private:
  CorProgress fn_;
  void* user_;
  bool cancelled_ = false;
  std::chrono::steady_clock::time_point last_{};
};

// Runs fn(i) for i in [0, count) on `threads` threads (the caller is one of them); progress
// goes from base to base + span in proportion to cost[i]. False when cancelled.
bool parallel_for(unsigned threads, size_t count, const std::vector<double>& cost,
                  const std::function<void(size_t)>& fn, Progress& progress, float base,
                  float span) {
  if (count == 0) return progress.report(base + span);
  double total = 0.0;
  for (double c : cost) total += c;
  if (!(total > 0.0)) total = 1.0;
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<double> done{0.0};
  auto work = [&] {
    for (;;) {
      if (stop.load(std::memory_order_relaxed)) break;
      const size_t i = next.fetch_add(1);
      if (i >= count) break;
      fn(i);
      done.fetch_add(cost[i], std::memory_order_relaxed);
    }
  };
  const unsigned helpers = static_cast<unsigned>(std::min<size_t>(threads, count) - 1);
  std::vector<std::thread> pool;
  pool.reserve(helpers);
  std::mutex mutex;
  std::condition_variable finished;
  unsigned running = helpers;
  for (unsigned t = 0; t < helpers; ++t)
    pool.emplace_back([&] {
      work();
      std::lock_guard<std::mutex> lock(mutex);
      if (--running == 0) finished.notify_all();
    });
  // The calling thread works too, reporting between its items, then reports while it waits.
  for (;;) {
    if (stop.load()) break;
    const size_t i = next.fetch_add(1);
    if (i >= count) break;
    fn(i);
    done.fetch_add(cost[i], std::memory_order_relaxed);
    if (!progress.report(base + span * float(done.load() / total))) stop = true;
  }
  {
    std::unique_lock<std::mutex> lock(mutex);
    while (running > 0) {
      finished.wait_for(lock, std::chrono::milliseconds(20), [&] { return running == 0; });
      if (running == 0) break;
      lock.unlock();
      if (!progress.report(base + span * float(done.load() / total))) stop = true;
      lock.lock();
    }
  }
  for (std::thread& t : pool) t.join();
  if (stop.load() || progress.cancelled()) return false;
  return progress.report(base + span);
}

// ---------------------------------------------------------------------------------------------
// One mesh's work.

struct MeshWork {
  int mesh = -1;
  // Sparse weights of every vertex of every primitive: weights[p][v].
  std::vector<std::vector<CorWeights>> weights;
  // Triangles of Ω as (primitive, i0, i1, i2).
  std::vector<std::array<uint32_t, 4>> triangles;
  std::vector<PairIndex> chunks;  // per chunk of triangles, merged into `pairs`
  PairIndex pairs;
  // Distinct weight vectors with ≥ 2 joints and their centres (NaN x: use the vertex).
  std::vector<const CorWeights*> distinct;
  std::vector<glm::dvec3> centers;
};

constexpr size_t kChunkTriangles = 512;

struct WeightsHash {
  size_t operator()(const CorWeights* w) const {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    for (const CorWeight& e : *w) {
      uint64_t bits;
      std::memcpy(&bits, &e.weight, sizeof bits);
      h = (h ^ e.joint) * 0x100000001B3ull;
      h = (h ^ bits) * 0x100000001B3ull;
      h ^= h >> 29;
    }
    return size_t(h);
  }
};
struct WeightsEqual {
  bool operator()(const CorWeights* a, const CorWeights* b) const { return *a == *b; }
};

void build_chunk(const Model& model, MeshWork& work, size_t chunk, const SubdivParams& params) {
  PairIndex& out = work.chunks[chunk];
  const Mesh& mesh = model.meshes[size_t(work.mesh)];
  std::vector<uint32_t> joints;
  std::vector<double> buffer, wbar;
  std::vector<uint32_t> slot;
  const size_t first = chunk * kChunkTriangles;
  const size_t last = std::min(work.triangles.size(), first + kChunkTriangles);
  for (size_t t = first; t < last; ++t) {
    const auto& tri = work.triangles[t];
    const Primitive& prim = mesh.primitives[tri[0]];
    const std::vector<CorWeights>& w = work.weights[tri[0]];
    const glm::dvec3 a(prim.positions[tri[1]]), b(prim.positions[tri[2]]),
        c(prim.positions[tri[3]]);
    const CorWeights &wa = w[tri[1]], &wb = w[tri[2]], &wc = w[tri[3]];
    joint_union({&wa, &wb, &wc}, joints);
    const uint32_t u = static_cast<uint32_t>(joints.size());
    slot.assign(size_t(u) * u, 0);
    for (uint32_t i = 0; i < u; ++i)
      for (uint32_t j = i + 1; j < u; ++j)
        slot[size_t(i) * u + j] = out.slot(pair_key(joints[i], joints[j]));
    wbar.resize(u);
    auto emit = [&](const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc,
                    const double* da, const double* db, const double* dc, int) {
      const double area = 0.5 * glm::length(glm::cross(pb - pa, pc - pa));
      out.area += area;
      ++out.leaves;
      if (!(area > 0.0)) return;  // contributes exactly 0
      const glm::dvec3 centroid = (pa + pb + pc) / 3.0;
      for (uint32_t i = 0; i < u; ++i) wbar[i] = (da[i] + db[i] + dc[i]) / 3.0;
      for (uint32_t i = 0; i < u; ++i) {
        if (!(wbar[i] > 0.0)) continue;
        for (uint32_t j = i + 1; j < u; ++j) {
          if (!(wbar[j] > 0.0)) continue;
          out.lists[slot[size_t(i) * u + j]].push(wbar[i], wbar[j], wbar[i] * wbar[j] * area,
                                                  centroid);
          ++out.entries;
        }
      }
    };
    subdivide_sparse(a, b, c, wa, wb, wc, params, joints, buffer, emit);
  }
}

void merge_chunks(MeshWork& work) {
  PairIndex& all = work.pairs;
  for (PairIndex& chunk : work.chunks) {
    all.area += chunk.area;
    all.leaves += chunk.leaves;
    all.entries += chunk.entries;
    // Append in a fixed order (by key) so the merged lists do not depend on hashing.
    std::vector<std::pair<uint64_t, uint32_t>> keys(chunk.index.begin(), chunk.index.end());
    std::sort(keys.begin(), keys.end());
    for (const auto& [key, idx] : keys) {
      if (chunk.lists[idx].size() == 0) continue;
      all.lists[all.slot(key)].append(chunk.lists[idx]);
    }
    chunk = PairIndex();
  }
  for (PairList& l : all.lists) l.pad();
}

// Cost of one distinct weight vector: the entries it visits.
double vector_cost(const MeshWork& work, const CorWeights& w) {
  double cost = 0.0;
  for (size_t i = 0; i < w.size(); ++i)
    for (size_t j = i + 1; j < w.size(); ++j)
      if (const PairList* l = work.pairs.find(pair_key(w[i].joint, w[j].joint)))
        cost += double(l->size());
  return cost;
}

glm::dvec3 center_of(const MeshWork& work, const CorWeights& w, double inv_sigma2, PairSums sums) {
  double den = 0.0;
  glm::dvec3 num(0.0);
  for (size_t i = 0; i < w.size(); ++i)
    for (size_t j = i + 1; j < w.size(); ++j) {
      const PairList* l = work.pairs.find(pair_key(w[i].joint, w[j].joint));
      if (!l) continue;
      const double a = w[i].weight, b = w[j].weight;
      double s[4];
      sums(*l, a, b, inv_sigma2, s);
      const double ab = a * b;
      den += ab * s[0];
      num += ab * glm::dvec3(s[1], s[2], s[3]);
    }
  if (den > 1e-12 * work.pairs.area && std::isfinite(den)) {
    const glm::dvec3 c = num / den;
    if (std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z)) return c;
  }
  return glm::dvec3(std::nan(""));
}

}  // namespace

// -----------------------------------------------------------------------------------------------
// Public helpers.

CorWeights cor_vertex_weights(const Primitive& prim, uint32_t v) {
  CorWeights w;
  sparse_weights(prim, v, w);
  return w;
}

double cor_weight_distance(const CorWeights& a, const CorWeights& b) {
  std::vector<uint32_t> joints;
  joint_union({&a, &b}, joints);
  std::vector<double> da(joints.size()), db(joints.size());
  densify(a, joints, da.data());
  densify(b, joints, db.data());
  return dense_distance(da.data(), db.data(), static_cast<uint32_t>(joints.size()));
}

double cor_similarity(const CorWeights& p, const CorWeights& v, double sigma) {
  auto weight_of = [](const CorWeights& w, uint32_t joint) {
    for (const CorWeight& e : w)
      if (e.joint == joint) return e.weight;
    return 0.0;
  };
  double s = 0.0;
  for (size_t i = 0; i < p.size(); ++i)
    for (size_t j = i + 1; j < p.size(); ++j) {
      const double pj = p[i].weight, pk = p[j].weight;
      const double vj = weight_of(v, p[i].joint), vk = weight_of(v, p[j].joint);
      if (vj == 0.0 || vk == 0.0) continue;
      const double d = pj * vk - pk * vj;
      s += pj * pk * vj * vk * std::exp(-(d * d) / (sigma * sigma));
    }
  return s;
}

void subdivide_cor_triangle(const CorVertex& a, const CorVertex& b, const CorVertex& c,
                            const CorOptions& options, std::vector<CorSubTriangle>& out) {
  std::vector<uint32_t> joints;
  std::vector<double> buffer;
  const SubdivParams params{options.epsilon, options.max_depth};
  auto emit = [&](const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc,
                  const double* da, const double* db, const double* dc, int depth) {
    CorSubTriangle t;
    t.centroid = (pa + pb + pc) / 3.0;
    t.area = 0.5 * glm::length(glm::cross(pb - pa, pc - pa));
    t.depth = depth;
    for (size_t i = 0; i < joints.size(); ++i) {
      const double w = (da[i] + db[i] + dc[i]) / 3.0;
      if (w > 0.0) t.weights.push_back({joints[i], w});
    }
    out.push_back(std::move(t));
  };
  subdivide_sparse(a.position, b.position, c.position, a.weights, b.weights, c.weights, params,
                   joints, buffer, emit);
}

CorSurfaceStats cor_surface_stats(const Mesh& mesh, const CorOptions& options) {
  CorSurfaceStats stats;
  const SubdivParams params{options.epsilon, options.max_depth};
  std::vector<uint32_t> tris, joints;
  std::vector<double> buffer;
  auto emit = [&](const glm::dvec3& pa, const glm::dvec3& pb, const glm::dvec3& pc, const double*,
                  const double*, const double*, int depth) {
    stats.area += 0.5 * glm::length(glm::cross(pb - pa, pc - pa));
    ++stats.sub_triangles;
    stats.max_depth = std::max(stats.max_depth, depth);
  };
  for (const Primitive& prim : mesh.primitives) {
    if (!has_triangles(prim.mode)) continue;
    tris.clear();
    append_triangles(prim, tris);
    std::vector<CorWeights> w(prim.vertex_count());
    for (uint32_t v = 0; v < prim.vertex_count(); ++v) sparse_weights(prim, v, w[v]);
    for (size_t t = 0; t + 2 < tris.size(); t += 3) {
      if (tris[t] >= prim.vertex_count() || tris[t + 1] >= prim.vertex_count() ||
          tris[t + 2] >= prim.vertex_count())
        continue;
      ++stats.triangles;
      subdivide_sparse(glm::dvec3(prim.positions[tris[t]]), glm::dvec3(prim.positions[tris[t + 1]]),
                       glm::dvec3(prim.positions[tris[t + 2]]), w[tris[t]], w[tris[t + 1]],
                       w[tris[t + 2]], params, joints, buffer, emit);
    }
  }
  return stats;
}

// -----------------------------------------------------------------------------------------------
// The computation.

bool compute_rotation_centers(const Model& model, SkinMeshes& inout, const CorOptions& options,
                              CorProgress progress_fn, void* user, CorComputeStats* stats) {
  const auto start = std::chrono::steady_clock::now();
  Progress progress(progress_fn, user);
  unsigned threads = options.threads ? options.threads : std::thread::hardware_concurrency();
  threads = std::max(1u, threads);
  const SubdivParams params{options.epsilon, options.max_depth};
  const double inv_sigma2 = 1.0 / (options.sigma * options.sigma);
  static const PairSums sums = select_pair_sums();

  // Meshes that need centres: those with a skinned primitive.
  std::vector<MeshWork> works;
  for (size_t m = 0; m < model.meshes.size() && m < inout.first_of_mesh.size(); ++m) {
    const Mesh& mesh = model.meshes[m];
    bool skinned = false;
    for (const Primitive& prim : mesh.primitives) skinned = skinned || prim.skinned();
    if (!skinned) continue;
    MeshWork work;
    work.mesh = int(m);
    work.weights.resize(mesh.primitives.size());
    std::vector<uint32_t> tris;
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& prim = mesh.primitives[p];
      const uint32_t n = prim.vertex_count();
      work.weights[p].resize(n);
      for (uint32_t v = 0; v < n; ++v) sparse_weights(prim, v, work.weights[p][v]);
      if (!has_triangles(prim.mode)) continue;
      tris.clear();
      append_triangles(prim, tris);
      for (size_t t = 0; t + 2 < tris.size(); t += 3)
        if (tris[t] < n && tris[t + 1] < n && tris[t + 2] < n)
          work.triangles.push_back({uint32_t(p), tris[t], tris[t + 1], tris[t + 2]});
    }
    work.chunks.resize((work.triangles.size() + kChunkTriangles - 1) / kChunkTriangles);
    works.push_back(std::move(work));
  }

  // Phase 1: subdivision and the pair index, per chunk of triangles.
  std::vector<std::pair<uint32_t, uint32_t>> chunk_jobs;
  for (size_t w = 0; w < works.size(); ++w)
    for (size_t c = 0; c < works[w].chunks.size(); ++c)
      chunk_jobs.push_back({uint32_t(w), uint32_t(c)});
  std::vector<double> chunk_cost(chunk_jobs.size(), 1.0);
  if (!parallel_for(
          threads, chunk_jobs.size(), chunk_cost,
          [&](size_t i) {
            build_chunk(model, works[chunk_jobs[i].first], chunk_jobs[i].second, params);
          },
          progress, 0.0f, 0.1f))
    return false;
  std::vector<double> mesh_cost(works.size(), 1.0);
  if (!parallel_for(
          threads, works.size(), mesh_cost, [&](size_t i) { merge_chunks(works[i]); }, progress,
          0.1f, 0.05f))
    return false;

  // Phase 2: distinct weight vectors with at least one joint pair.
  struct Job {
    uint32_t work, vector;
    double cost;
  };
  std::vector<Job> jobs;
  for (size_t w = 0; w < works.size(); ++w) {
    MeshWork& work = works[w];
    std::unordered_map<const CorWeights*, uint32_t, WeightsHash, WeightsEqual> seen;
    for (const std::vector<CorWeights>& prim : work.weights)
      for (const CorWeights& v : prim) {
        if (v.size() < 2) continue;
        auto [it, inserted] = seen.try_emplace(&v, uint32_t(work.distinct.size()));
        if (inserted) work.distinct.push_back(&v);
      }
    work.centers.assign(work.distinct.size(), glm::dvec3(0.0));
    for (uint32_t d = 0; d < work.distinct.size(); ++d)
      jobs.push_back({uint32_t(w), d, vector_cost(work, *work.distinct[d])});
  }
  // Vectors that read the same lists run close together (cache reuse); big ones first.
  std::stable_sort(jobs.begin(), jobs.end(), [&](const Job& a, const Job& b) {
    if (a.work != b.work) return a.work < b.work;
    const CorWeights& wa = *works[a.work].distinct[a.vector];
    const CorWeights& wb = *works[b.work].distinct[b.vector];
    return std::lexicographical_compare(
        wa.begin(), wa.end(), wb.begin(), wb.end(),
        [](const CorWeight& x, const CorWeight& y) { return x.joint < y.joint; });
  });
  std::vector<double> job_cost(jobs.size());
  double visited = 0.0;
  for (size_t i = 0; i < jobs.size(); ++i) visited += job_cost[i] = jobs[i].cost + 1.0;
  // Phase 3: the centres.
  if (!parallel_for(
          threads, jobs.size(), job_cost,
          [&](size_t i) {
            MeshWork& work = works[jobs[i].work];
            work.centers[jobs[i].vector] =
                center_of(work, *work.distinct[jobs[i].vector], inv_sigma2, sums);
          },
          progress, 0.15f, 0.85f))
    return false;

  // Results: reset every primitive, then fill the skinned primitives of meshes with centres.
  for (SkinMesh& sm : inout.primitives) sm.rotation_centers.clear();
  CorComputeStats st;
  for (MeshWork& work : works) {
    const Mesh& mesh = model.meshes[size_t(work.mesh)];
    std::unordered_map<const CorWeights*, uint32_t, WeightsHash, WeightsEqual> lookup;
    for (uint32_t d = 0; d < work.distinct.size(); ++d) lookup.emplace(work.distinct[d], d);
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& prim = mesh.primitives[p];
      const size_t index = inout.first_of_mesh[size_t(work.mesh)] + p;
      if (!prim.skinned() || index >= inout.primitives.size()) continue;
      std::vector<glm::vec3>& out = inout.primitives[index].rotation_centers;
      out.resize(prim.vertex_count());
      for (uint32_t v = 0; v < prim.vertex_count(); ++v) {
        const CorWeights& w = work.weights[p][v];
        glm::dvec3 c(std::nan(""));
        if (w.size() >= 2) c = work.centers[lookup.at(&w)];
        out[v] = std::isnan(c.x) ? prim.positions[v] : glm::vec3(c);
      }
    }
    ++st.meshes;
    st.sub_triangles += work.pairs.leaves;
    st.pair_entries += work.pairs.entries;
    st.distinct_weights += work.distinct.size();
  }
  st.visited = uint64_t(visited - double(jobs.size()));
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (stats) *stats = st;
  progress.report(1.0f, true);
  return true;
}

// -----------------------------------------------------------------------------------------------
// The cache.

namespace {

class Hash128 {
 public:
  void word(uint64_t w) {
    h1_ = (std::rotl(h1_ ^ w, 27) + h2_) * 0x9E3779B97F4A7C15ull + 0x52DCE729ull;
    h2_ = (std::rotl(h2_ + w * 0x87C37B91114253D5ull, 31) ^ h1_) * 0x4CF5AD432745937Full;
    ++count_;
  }
  void bytes(const void* data, size_t size) {
    word(size);
    const unsigned char* p = static_cast<const unsigned char*>(data);
    size_t i = 0;
    for (; i + 8 <= size; i += 8) {
      uint64_t w;
      std::memcpy(&w, p + i, 8);
      word(w);
    }
    if (i < size) {
      uint64_t w = 0;
      std::memcpy(&w, p + i, size - i);
      word(w);
    }
  }
  template <class T>
  void vec(const std::vector<T>& v) {
    bytes(v.data(), v.size() * sizeof(T));
  }
  CorCacheKey finish() const {
    return {fmix(h1_ ^ count_) ^ fmix(h2_), fmix(h2_ + 0x2545F4914F6CDD1Dull * count_) + h1_};
  }

 private:
  static uint64_t fmix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xFF51AFD7ED558CCDull;
    x ^= x >> 33;
    x *= 0xC4CEB9FE1A85EC53ull;
    x ^= x >> 33;
    return x;
  }
  uint64_t h1_ = 0x243F6A8885A308D3ull, h2_ = 0x13198A2E03707344ull, count_ = 0;
};

constexpr char kMagic[8] = {'R', 'I', 'G', 'C', 'O', 'R', '\0', '\1'};

uint64_t checksum(const unsigned char* data, size_t size) {
  Hash128 h;
  h.bytes(data, size);
  const CorCacheKey k = h.finish();
  return k.hi ^ k.lo;
}

}  // namespace

std::string CorCacheKey::hex() const {
  char buf[33];
  std::snprintf(buf, sizeof buf, "%016llx%016llx", static_cast<unsigned long long>(hi),
                static_cast<unsigned long long>(lo));
  return buf;
}

CorCacheKey rotation_centers_key(const Model& model, const CorOptions& options) {
  Hash128 h;
  h.word(0x524947434F52ull);  // "RIGCOR"
  h.word(kRotationCentersVersion);
  for (double d : {options.epsilon, options.sigma}) {
    uint64_t bits;
    std::memcpy(&bits, &d, sizeof bits);
    h.word(bits);
  }
  h.word(uint64_t(int64_t(options.max_depth)));
  h.word(model.meshes.size());
  for (const Mesh& mesh : model.meshes) {
    h.word(mesh.primitives.size());
    for (const Primitive& prim : mesh.primitives) {
      h.word(uint64_t(prim.mode));
      h.word(prim.influences);
      h.vec(prim.positions);
      h.vec(prim.indices);
      h.vec(prim.joints);
      h.vec(prim.weights);
    }
  }
  return h.finish();
}

std::string default_rotation_centers_cache_dir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && xdg[0] == '/') return (std::filesystem::path(xdg) / "rigview").string();
  const char* home = std::getenv("HOME");
  if (home && home[0]) return (std::filesystem::path(home) / ".cache" / "rigview").string();
  return {};
}

std::string rotation_centers_cache_path(const std::string& cache_dir, const CorCacheKey& key) {
  const std::string dir = cache_dir.empty() ? default_rotation_centers_cache_dir() : cache_dir;
  if (dir.empty()) return {};
  return (std::filesystem::path(dir) / "rotation_centers" / (key.hex() + ".bin")).string();
}

bool load_rotation_centers(const std::string& path, const CorCacheKey& key, SkinMeshes& inout) {
  if (path.empty()) return false;
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  const size_t header = sizeof kMagic + 4 + 4 + 16 + 8;
  const size_t prims = inout.primitives.size();
  if (size < 0 || size_t(size) < header + prims * 8 + 8) return false;
  std::vector<unsigned char> data(static_cast<size_t>(size));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char*>(data.data()), size)) return false;
  size_t at = 0;
  auto take = [&](void* dst, size_t n) {
    if (at + n > data.size()) return false;
    std::memcpy(dst, data.data() + at, n);
    at += n;
    return true;
  };
  char magic[8];
  uint32_t version = 0, reserved = 0;
  CorCacheKey stored;
  uint64_t count = 0;
  if (!take(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) return false;
  if (!take(&version, 4) || version != kRotationCentersVersion || !take(&reserved, 4)) return false;
  if (!take(&stored.hi, 8) || !take(&stored.lo, 8) || !(stored == key)) return false;
  if (!take(&count, 8) || count != prims) return false;
  std::vector<uint64_t> counts(prims);
  uint64_t total = 0;
  for (size_t p = 0; p < prims; ++p) {
    if (!take(&counts[p], 8)) return false;
    const SkinMesh& sm = inout.primitives[p];
    if (counts[p] != (sm.skinned() ? sm.vertex_count : 0u)) return false;
    total += counts[p];
  }
  if (data.size() != at + total * 12 + 8) return false;
  uint64_t sum = 0;
  std::memcpy(&sum, data.data() + data.size() - 8, 8);
  if (sum != checksum(data.data(), data.size() - 8)) return false;
  std::vector<std::vector<glm::vec3>> centers(prims);
  for (size_t p = 0; p < prims; ++p) {
    centers[p].resize(counts[p]);
    if (counts[p] && !take(centers[p].data(), counts[p] * 12)) return false;
    for (const glm::vec3& c : centers[p])
      if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z)) return false;
  }
  for (size_t p = 0; p < prims; ++p) inout.primitives[p].rotation_centers = std::move(centers[p]);
  return true;
}

bool store_rotation_centers(const std::string& path, const CorCacheKey& key,
                            const SkinMeshes& meshes) {
  if (path.empty()) return false;
  std::vector<unsigned char> data;
  auto put = [&](const void* src, size_t n) {
    const unsigned char* p = static_cast<const unsigned char*>(src);
    data.insert(data.end(), p, p + n);
  };
  const uint32_t version = kRotationCentersVersion, reserved = 0;
  const uint64_t count = meshes.primitives.size();
  put(kMagic, 8);
  put(&version, 4);
  put(&reserved, 4);
  put(&key.hi, 8);
  put(&key.lo, 8);
  put(&count, 8);
  for (const SkinMesh& sm : meshes.primitives) {
    const uint64_t n = sm.skinned() ? sm.vertex_count : 0u;
    if (n && sm.rotation_centers.size() != n) return false;
    put(&n, 8);
  }
  for (const SkinMesh& sm : meshes.primitives)
    if (sm.skinned()) put(sm.rotation_centers.data(), sm.rotation_centers.size() * 12);
  const uint64_t sum = checksum(data.data(), data.size());
  put(&sum, 8);

  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  fs::create_directories(target.parent_path(), ec);
  static std::atomic<unsigned> counter{0};
  const fs::path tmp = target.string() + ".tmp" + std::to_string(::getpid()) + "_" +
                       std::to_string(counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out.write(reinterpret_cast<const char*>(data.data()), std::streamsize(data.size()));
    out.close();
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, target, ec);
  if (ec) {
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

bool prepare_rotation_centers(const Model& model, SkinMeshes& inout, const CorOptions& options,
                              CorProgress progress, void* user, bool& from_cache,
                              CorComputeStats* stats) {
  from_cache = false;
  std::string path;
  CorCacheKey key;
  if (options.use_cache) {
    key = rotation_centers_key(model, options);
    path = rotation_centers_cache_path(options.cache_dir, key);
    if (!path.empty() && load_rotation_centers(path, key, inout)) {
      from_cache = true;
      if (progress) progress(user, 1.0f);
      return true;
    }
  }
  if (!compute_rotation_centers(model, inout, options, progress, user, stats)) return false;
  if (!path.empty()) store_rotation_centers(path, key, inout);
  return true;
}

}  // namespace rig
