// Optimized centres of rotation: the joint-pair index of the subdivision's leaves and the
// per-weight-vector sums (vectorized, on all cores). The subdivision itself is in
// rotation_centers_internal.h, the public per-vertex helpers in rotation_centers_similarity.cpp,
// the on-disk cache in rotation_centers_cache.cpp.
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
#include "skin/rotation_centers_internal.h"

namespace rig {

namespace {

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
    // The influences are the skin layer's (`inout`), as they are skinned.
    const size_t first = inout.first_of_mesh[m];
    for (size_t p = 0; p < mesh.primitives.size() && first + p < inout.primitives.size(); ++p)
      skinned = skinned || inout.primitives[first + p].skinned();
    if (!skinned) continue;
    MeshWork work;
    work.mesh = int(m);
    work.weights.resize(mesh.primitives.size());
    std::vector<uint32_t> tris;
    for (size_t p = 0; p < mesh.primitives.size(); ++p) {
      const Primitive& prim = mesh.primitives[p];
      const uint32_t n = prim.vertex_count();
      work.weights[p].resize(n);
      if (first + p < inout.primitives.size())
        for (uint32_t v = 0; v < n; ++v)
          sparse_weights(inout.primitives[first + p], v, work.weights[p][v]);
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

}  // namespace rig
