// The batch skinning kernels (skin/simd_skin.h: SSE2, and AVX2 + FMA where the processor has
// it) against the readable reference loops (skin/skin_reference.h) and the single-vertex oracle
// (skin/cpu_skinning.h), on random data and on the corpus.
//
// Bounds (the kernels differ from the reference by rounding only, see simd_skin.h):
//   positions: |fast − reference| ≤ 1e-5 × the diagonal of the reference output's bounding box
//     (the CPU/GPU and export tolerance);
//   normals (unit): |fast − reference| ≤ 1e-4 where the blend is well conditioned — the
//     cofactor's smallest-to-largest column ratio above 1e-2; near the candy-wrapper
//     singularity (det → 0) a normal's direction is ill-conditioned in any precision, and only
//     unit length is required there.
#include <gtest/gtest.h>

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <random>
#include <vector>

#include "anim/blending_job.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling.h"
#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/cpu_skinning.h"
#include "skin/dual_quat.h"
#include "skin/simd_skin.h"
#include "skin/skin_kernels.h"
#include "skin/skin_reference.h"
#include "test_support.h"

namespace rig {
namespace {

using simd_skin::Level;

float diagonal(std::span<const glm::vec3> p) {
  glm::vec3 lo(1e30f), hi(-1e30f);
  for (const glm::vec3& v : p) lo = glm::min(lo, v), hi = glm::max(hi, v);
  return glm::length(hi - lo);
}

std::vector<Level> levels() {
  std::vector<Level> l{Level::Sse2};
  if (simd_skin::supported(Level::Avx2)) l.push_back(Level::Avx2);
  return l;
}

struct RandomSkin {
  SkinMesh mesh;
  std::vector<glm::vec3> positions, normals;
  std::vector<glm::mat4> matrices;
};

// `rigid`: rotation + translation joints; otherwise with scale and shear too. Includes vertices
// with all-zero weights, zero weights, joints past the palette and zero normals. The vertex
// count is not a multiple of 4 (the padded tail). 37 vertices: too few for DQS's precomputed
// hemisphere-sign table, so the per-influence test runs.
RandomSkin random_skin(uint32_t k, bool rigid, uint32_t seed, uint32_t n = 1003) {
  RandomSkin r;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  const uint32_t joints = 40;
  std::uniform_int_distribution<int> j(0, joints + 1);  // 2 past the palette
  r.mesh.influences = k;
  r.mesh.vertex_count = n;
  for (uint32_t v = 0; v < n; ++v) {
    r.positions.push_back({u(rng) * 2.0f, u(rng) * 2.0f, u(rng) * 2.0f});
    r.normals.push_back(v % 97 == 5 ? glm::vec3(0.0f) : glm::vec3(u(rng), u(rng), u(rng)));
    for (uint32_t i = 0; i < k; ++i) {
      r.mesh.joints.push_back(uint16_t(j(rng)));
      const float w = (v % 53 == 7 || (i > 1 && v % 3 == 0)) ? 0.0f : std::abs(u(rng));
      r.mesh.weights.push_back(w);
    }
  }
  for (uint32_t b = 0; b < joints; ++b) {
    glm::mat4 m =
        glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
        glm::mat4_cast(glm::angleAxis(u(rng) * 3.1f, glm::normalize(glm::vec3(u(rng), u(rng), 1))));
    if (!rigid) {
      m = m * glm::scale(glm::mat4(1), glm::vec3(1.0f + 0.5f * u(rng), 1.0f + 0.5f * u(rng),
                                                 1.0f + 0.5f * u(rng)));
      m[1][0] += 0.2f * u(rng);  // shear
    }
    r.matrices.push_back(m);
  }
  return r;
}

// Smallest over largest cofactor column length of the LBS blend of vertex v: 0 at the
// singularity.
float lbs_conditioning(const SkinMesh& mesh, std::span<const glm::mat4> matrices, uint32_t v) {
  glm::mat3 m(0.0f);
  const uint32_t k = mesh.influences;
  for (uint32_t i = 0; i < k; ++i) {
    const uint16_t jt = mesh.joints[size_t(v) * k + i];
    if (jt < matrices.size()) m += glm::mat3(matrices[jt]) * mesh.weights[size_t(v) * k + i];
  }
  const float a = glm::length(glm::cross(m[1], m[2])), b = glm::length(glm::cross(m[2], m[0])),
              c = glm::length(glm::cross(m[0], m[1]));
  const float hi = std::max({a, b, c});
  return hi > 0.0f ? std::min({a, b, c}) / hi : 0.0f;
}

struct Errors {
  float position = 0.0f;  // over the diagonal
  float normal = 0.0f;    // well-conditioned vertices
  float unit = 0.0f;  // | |n| − |n_reference| | over all vertices (unit, or the input fallback)
};

Errors compare(SkinningMethod method, Level level, const SkinMesh& mesh,
               std::span<const glm::mat4> matrices, std::span<const glm::vec3> positions,
               std::span<const glm::vec3> normals) {
  const SkinningMethodInfo& info = method_info(method);
  std::vector<glm::vec4> palette(matrices.size() * info.palette_rows);
  info.write_palette(matrices, palette);
  const size_t n = positions.size();
  std::vector<glm::vec3> rp(n), rn(n), fp(n), fn(n), pp(n);
  const bool lbs = method == SkinningMethod::Linear;
  (lbs ? skin_linear_reference : skin_dual_quat_reference)(mesh, palette, positions, normals, rp,
                                                           rn);
  (lbs ? simd_skin::skin_linear : simd_skin::skin_dual_quat)(level, mesh, palette, positions,
                                                             normals, fp, fn);
  (lbs ? simd_skin::skin_linear : simd_skin::skin_dual_quat)(level, mesh, palette, positions, {},
                                                             pp, {});
  const float diag = std::max(diagonal(rp), 1e-6f);
  Errors e;
  for (size_t v = 0; v < n; ++v) {
    e.position = std::max(e.position, glm::length(fp[v] - rp[v]) / diag);
    e.position = std::max(e.position, glm::length(pp[v] - rp[v]) / diag);
    e.unit = std::max(e.unit, std::abs(glm::length(fn[v]) - glm::length(rn[v])));
    if (!lbs || lbs_conditioning(mesh, matrices, uint32_t(v)) > 1e-2f)
      e.normal = std::max(e.normal, glm::length(fn[v] - rn[v]));
  }
  return e;
}

TEST(SkinningSpeed, BatchKernelsMatchTheReferenceOnRandomData) {
  for (const Level level : levels())
    for (const uint32_t k : {4u, 8u})
      for (const bool rigid : {true, false})
        for (const uint32_t n : {1003u, 37u})
          for (const SkinningMethod method :
               {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
            const RandomSkin r = random_skin(k, rigid, 11 + k + (rigid ? 1 : 0), n);
            const Errors e = compare(method, level, r.mesh, r.matrices, r.positions, r.normals);
            SCOPED_TRACE(testing::Message() << "level " << int(level) << " k " << k << " rigid "
                                            << rigid << " method " << int(method));
            EXPECT_LE(e.position, 1e-5f);
            EXPECT_LE(e.normal, 1e-4f);
            EXPECT_LE(e.unit, 1e-5f);
          }
}

// The single-vertex oracle of cpu_skinning.h gives the same positions.
TEST(SkinningSpeed, BatchKernelsMatchTheSingleVertexOracle) {
  const RandomSkin r = random_skin(4, false, 5);
  std::vector<JointDualQuat> dqs(r.matrices.size());
  compute_joint_dual_quats(r.matrices, dqs);
  for (const SkinningMethod method : {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
    const SkinningMethodInfo& info = method_info(method);
    std::vector<glm::vec4> palette(r.matrices.size() * info.palette_rows);
    info.write_palette(r.matrices, palette);
    std::vector<glm::vec3> p(r.positions.size()), n(r.positions.size());
    info.skin(r.mesh, palette, r.positions, r.normals, p, n);
    const float diag = diagonal(p);
    for (uint32_t v = 0; v < r.mesh.vertex_count; ++v) {
      const uint16_t* j = &r.mesh.joints[size_t(v) * 4];
      const float* w = &r.mesh.weights[size_t(v) * 4];
      const glm::vec3 oracle = method == SkinningMethod::Linear
                                   ? skin_point_linear(r.matrices, j, w, 4, r.positions[v])
                                   : skin_point_dual_quat(dqs, j, w, 4, r.positions[v]);
      ASSERT_LE(glm::length(p[v] - oracle), 1e-5f * diag) << "vertex " << v;
    }
  }
}

// Every table row's kernels accept aliased in/out buffers (skinning in place).
TEST(SkinningSpeed, KernelsSkinInPlace) {
  const RandomSkin r = random_skin(8, false, 9);
  for (const SkinningMethodInfo& info : skinning_methods()) {
    std::vector<glm::vec4> palette(r.matrices.size() * info.palette_rows);
    info.write_palette(r.matrices, palette);
    std::vector<glm::vec3> p(r.positions.size()), n(r.positions.size());
    info.skin(r.mesh, palette, r.positions, r.normals, p, n);
    std::vector<glm::vec3> ip = r.positions, in = r.normals;
    info.skin(r.mesh, palette, ip, in, ip, in);
    EXPECT_EQ(ip, p) << info.name;
    EXPECT_EQ(in, n) << info.name;
    if (info.skin_positions) {
      std::vector<glm::vec3> q(r.positions.size()), iq = r.positions;
      info.skin_positions(r.mesh, palette, r.positions, q);
      info.skin_positions(r.mesh, palette, iq, iq);
      EXPECT_EQ(iq, q) << info.name;
    }
  }
}

TEST(SkinningSpeedCorpus, BatchKernelsMatchTheReferenceOnCorpusPoses) {
  RIG_REQUIRE_CORPUS(root);
  for (const char* file : {"Fox/Fox.glb", "KayKit_Knight/Knight.glb", "CesiumMan/CesiumMan.glb"}) {
    SCOPED_TRACE(file);
    Model model;
    std::string error;
    ASSERT_TRUE(import_gltf((root / file).string(), model, error)) << error;
    Character character(model);
    for (size_t c = 0; c < std::min<size_t>(model.clips.size(), 4); ++c) {
      const Clip& clip = model.clips[c];
      character.evaluate(PoseSelection{int(c), 0.5f * (clip.start + clip.end)});
      for (const DrawItem& item : model.draws) {
        if (item.skin < 0) continue;
        const SkinMesh& mesh = character.skin_meshes().get(item.mesh, item.primitive);
        if (!mesh.skinned()) continue;
        const Primitive& prim = model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
        for (const Level level : levels())
          for (const SkinningMethod method :
               {SkinningMethod::Linear, SkinningMethod::DualQuaternion}) {
            const Errors e = compare(method, level, mesh, character.skinning_matrices(item.skin),
                                     prim.positions, prim.normals);
            EXPECT_LE(e.position, 1e-5f) << "clip " << c << " method " << int(method);
            EXPECT_LE(e.normal, 1e-4f) << "clip " << c << " method " << int(method);
          }
      }
    }
  }
}

// The update's fast maths. slerp_shortest (single precision, inline; no division by sin θ:
// the weights' common scale cancels in the renormalization) against the double-precision
// acos/sin reference: within 1e-6 per component over random unit quaternion pairs at every angle
// (both hemispheres, nearly parallel included) and t in [0, 1].
TEST(UpdateSpeed, FastSlerpIsWithinItsBoundOfTheReference) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), t01(0.0f, 1.0f);
  float worst = 0.0f;
  for (int i = 0; i < 200000; ++i) {
    const glm::quat a = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    glm::quat b = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    if (i % 4 == 1)  // nearly parallel, around the reference's nlerp threshold
      b = glm::normalize(a + glm::quat(u(rng), u(rng), u(rng), u(rng)) * (0.05f * t01(rng)));
    if (i % 4 == 2) b = -b;
    const float t = i % 50 == 0 ? float(i / 50 % 2) : t01(rng);
    const glm::quat f = slerp_shortest(a, b, t), r = slerp_shortest_reference(a, b, t);
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(f[c] - r[c]));
  }
  EXPECT_LE(worst, 1e-6f);
}

// The blending job's four-at-a-time override blend is blend_transforms (scalar slerp_shortest)
// bit for bit, per node, with per-joint weights (0 included: those nodes stay untouched).
TEST(UpdateSpeed, OverrideBlendEqualsBlendTransformsBitForBit) {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), w01(0.0f, 1.0f);
  const size_t n = 31;
  std::vector<Transform> a(n), b(n), out(n);
  std::vector<float> joint_weights(n), none, morph;
  for (size_t i = 0; i < n; ++i) {
    for (Transform* t : {&a[i], &b[i]}) {
      t->translation = {u(rng), u(rng), u(rng)};
      t->rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
      t->scale = glm::vec3(1.0f) + 0.2f * glm::vec3(u(rng), u(rng), u(rng));
    }
    if (i % 3 == 0)  // nearly parallel: the normalized-lerp branch
      b[i].rotation = glm::normalize(a[i].rotation + 0.01f * glm::quat(u(rng), u(rng), 0, 0));
    joint_weights[i] = i % 5 == 0 ? 0.0f : w01(rng);
  }
  for (const bool masked : {false, true}) {
    const BlendLayer layers[2] = {
        {a, morph, 1.0f, {}},
        {b, morph, 0.7f,
         masked ? std::span<const float>(joint_weights) : std::span<const float>()}};
    BlendingJob job{layers, out, morph};
    ASSERT_TRUE(job.run());
    for (size_t i = 0; i < n; ++i) {
      const float w = masked ? 0.7f * joint_weights[i] : 0.7f;
      const Transform e = w == 0.0f ? a[i] : blend_transforms(a[i], b[i], w);
      for (int c = 0; c < 4; ++c) EXPECT_EQ(out[i].rotation[c], e.rotation[c]) << i;
      for (int c = 0; c < 3; ++c) {
        EXPECT_EQ(out[i].translation[c], e.translation[c]) << i;
        EXPECT_EQ(out[i].scale[c], e.scale[c]) << i;
      }
    }
  }
}

// The local → world job's SIMD product is glm's parent · trs(local), bit for bit.
TEST(UpdateSpeed, LocalToWorldMatchesTheMatrixProduct) {
  Model model;
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 30; ++i) {
    Node n;
    n.parent = i == 0 ? -1 : int(rng() % uint32_t(i));
    model.nodes.push_back(n);
    model.node_order.push_back(i);
  }
  std::vector<Transform> local(model.nodes.size());
  for (Transform& t : local) {
    t.translation = {u(rng), u(rng), u(rng)};
    t.rotation = glm::normalize(glm::quat(u(rng), u(rng), u(rng), u(rng)));
    t.scale = glm::vec3(1.0f) + 0.3f * glm::vec3(u(rng), u(rng), u(rng));
  }
  std::vector<glm::mat4> world(model.nodes.size());
  const Skeleton skeleton = Skeleton::build(model);
  LocalToWorldJob job;
  job.skeleton = &skeleton;
  job.local = local;
  job.world = world;
  ASSERT_TRUE(job.run());
  for (size_t i = 0; i < model.nodes.size(); ++i) {
    const int p = model.nodes[i].parent;
    const glm::mat4 expected =
        p < 0 ? trs_matrix(local[i]) : world[size_t(p)] * trs_matrix(local[i]);
    for (int c = 0; c < 4; ++c)
      for (int r = 0; r < 4; ++r) EXPECT_EQ(world[i][c][r], expected[c][r]) << i;
  }
}

}  // namespace
}  // namespace rig
