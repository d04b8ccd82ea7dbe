// Optimized centres of rotation (Le & Hodgins 2016, "Real-time Skeletal Skinning with Optimized
// Centers of Rotation"): the per-vertex centre p* that centre-of-rotation skinning
// (skin/cor_kernel.h) rotates about, precomputed once per model and cached on disk.
//
// The method, as rigview specifies it:
//  1. The surface Ω of a mesh: every triangle of every TRIANGLES / TRIANGLE_STRIP /
//     TRIANGLE_FAN primitive of the mesh (model/triangles.h), bind-space POSITION (no morph
//     targets). Each vertex carries its weight vector over the skin's joints, from all of the
//     primitive's influences: repeated joints summed, zero weights ignored, renormalized to sum 1
//     (a primitive without JOINTS, or a vertex whose weights are all 0, has the zero vector).
//  2. A triangle is split 1→4 at its edge midpoints (positions and weight vectors averaged) while
//     one of its edges has ‖w_a − w_b‖₂ > epsilon (strictly) and its depth < max_depth (the
//     original triangle has depth 0); each part is tested again.
//  3. Each leaf t: centroid c_t = (a+b+c)/3, area A_t = ½‖(b−a)×(c−a)‖, weight w̄_t = (a+b+c)/3.
//  4. Similarity s(w_p, w_v) = Σ_{j<k} w_pj w_pk w_vj w_vk exp(−(w_pj w_vk − w_pk w_vj)² / σ²).
//  5. p*_i = Σ_t s(w_i, w̄_t) A_t c_t / Σ_t s(w_i, w̄_t) A_t; when the denominator is
//     ≤ 1e-12 · Σ_t A_t (single-influence vertices, a mesh without triangles) p*_i = v_i.
//     Every skinned primitive of the mesh (lines and points included) uses the mesh's Ω, so
//     nodes sharing a mesh share its centres; primitives without JOINTS get none.
//
// The computation is exact (no truncation of the sum): p* is computed once per distinct weight
// vector of a mesh, visiting only the leaves that share a joint pair with it (s is exactly 0
// otherwise) through leaf lists indexed by joint pair; float64 throughout, on all cores.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_mesh.h"

namespace rig {

// Bumped whenever the centres a model gets could change: part of the cache key.
inline constexpr uint32_t kRotationCentersVersion = 1;

struct CorOptions {
  double epsilon = 0.1;  // split while an edge's weight distance is > epsilon
  double sigma = 0.1;    // similarity kernel width
  int max_depth = 10;    // original triangles are depth 0; a triangle splits only below this
  unsigned threads = 0;  // worker threads; 0 = std::thread::hardware_concurrency()
  // prepare_rotation_centers(): whether to read and write the cache, and where (empty: the
  // default folder, default_rotation_centers_cache_dir()).
  bool use_cache = true;
  std::string cache_dir;
};

// Progress in [0, 1], called on the calling thread only; returning false cancels.
using CorProgress = bool (*)(void* user, float fraction);

// A sparse weight vector: (joint, weight) sorted by joint, no zero weights.
struct CorWeight {
  uint32_t joint = 0;
  double weight = 0.0;
  bool operator==(const CorWeight&) const = default;
};
using CorWeights = std::vector<CorWeight>;

// Vertex v's weight vector as Ω uses it (step 1); empty when the primitive has no JOINTS or
// the vertex's weights are all 0.
CorWeights cor_vertex_weights(const Primitive& prim, uint32_t v);
// ‖a − b‖₂ over the union of joints, in the order the subdivision computes it.
double cor_weight_distance(const CorWeights& a, const CorWeights& b);
// s(w_p, w_v) of step 4.
double cor_similarity(const CorWeights& p, const CorWeights& v, double sigma);

// One corner of a triangle of Ω, and one leaf of its subdivision.
struct CorVertex {
  glm::dvec3 position{0.0};
  CorWeights weights;
};
struct CorSubTriangle {
  glm::dvec3 centroid{0.0};
  double area = 0.0;
  CorWeights weights;  // w̄_t over the corners' joints (those with w̄_tj > 0)
  int depth = 0;
};
// Subdivides triangle (a, b, c) as step 2 does (weights taken as given, not renormalized),
// appending its leaves depth first, children in the order (a, ab, ca), (ab, b, bc),
// (ca, bc, c), (ab, bc, ca). Allocates.
void subdivide_cor_triangle(const CorVertex& a, const CorVertex& b, const CorVertex& c,
                            const CorOptions& options, std::vector<CorSubTriangle>& out);

// What Ω of one mesh looks like after subdivision (reports, tests); no leaves are stored.
struct CorSurfaceStats {
  uint64_t triangles = 0;      // original triangles
  uint64_t sub_triangles = 0;  // leaves
  int max_depth = 0;           // deepest leaf
  double area = 0.0;           // Σ_t A_t over the leaves
};
CorSurfaceStats cor_surface_stats(const Mesh& mesh, const CorOptions& options);

// What one compute_rotation_centers() call did (timings, reports).
struct CorComputeStats {
  uint64_t meshes = 0;            // meshes with centres
  uint64_t sub_triangles = 0;     // leaves over those meshes
  uint64_t pair_entries = 0;      // leaf × joint-pair entries indexed
  uint64_t distinct_weights = 0;  // distinct vertex weight vectors, ≥ 2 joints
  uint64_t visited = 0;           // (weight vector, pair entry) terms evaluated
  double seconds = 0.0;
};

// Fills SkinMesh::rotation_centers (bind space, one per vertex) of every skinned primitive of
// `inout` (prepared from `model`, maybe with edited influences: a skin layer's meshes) from
// `inout`'s influences and `model`'s geometry; other primitives get none. Returns false
// when cancelled through `progress` (then `inout` is unchanged). Allocates; blocks.
bool compute_rotation_centers(const Model& model, SkinMeshes& inout, const CorOptions& options = {},
                              CorProgress progress = nullptr, void* user = nullptr,
                              CorComputeStats* stats = nullptr);

// The cache. Files live in <dir>/rotation_centers/<key>.bin; the key is a 128-bit content hash
// of what the centres depend on (every mesh's primitive structure, modes, indices, bind
// positions, joints and weights, the options that change results, kRotationCentersVersion).
struct CorCacheKey {
  uint64_t hi = 0, lo = 0;
  std::string hex() const;  // 32 lower-case hex digits
  bool operator==(const CorCacheKey&) const = default;
};
CorCacheKey rotation_centers_key(const Model& model, const CorOptions& options = {});
// The key of centres computed from `meshes`' influences (a skin layer's, maybe edited) on
// `model`'s geometry; the form above uses prepare_skin_meshes(model).
CorCacheKey rotation_centers_key(const Model& model, const SkinMeshes& meshes,
                                 const CorOptions& options = {});
// $XDG_CACHE_HOME/rigview when XDG_CACHE_HOME is an absolute path, else $HOME/.cache/rigview;
// empty (no cache) when neither is set.
std::string default_rotation_centers_cache_dir();
// The cache file for `key` under `cache_dir` (empty cache_dir: the default; empty result when
// there is no cache folder).
std::string rotation_centers_cache_path(const std::string& cache_dir, const CorCacheKey& key);
// Reads centres written for `key` into `inout`. False (and `inout` unchanged) when the file is
// missing, truncated, corrupt, for another key or does not fit `inout`.
bool load_rotation_centers(const std::string& path, const CorCacheKey& key, SkinMeshes& inout);
// Writes the centres of `meshes` for `key` (through a temporary file and a rename, creating
// folders). False when it could not be written.
bool store_rotation_centers(const std::string& path, const CorCacheKey& key,
                            const SkinMeshes& meshes);

// The viewer's entry point: centres from the cache when options.use_cache and a valid file
// exists (from_cache = true), else computed and stored (from_cache = false). False only when
// cancelled.
bool prepare_rotation_centers(const Model& model, SkinMeshes& inout, const CorOptions& options,
                              CorProgress progress, void* user, bool& from_cache,
                              CorComputeStats* stats = nullptr);

}  // namespace rig
