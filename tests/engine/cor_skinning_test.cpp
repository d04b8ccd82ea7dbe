// Centre-of-rotation skinning: the kernel against a float64 implementation of its formulas, the
// 180° twist (no candy wrapper, like DQS), the 90° bend (less bulge than DQS), single-joint
// meshes (exactly LBS), hemisphere alignment and the degenerate cases.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <iostream>
#include <memory>
#include <random>
#include <type_traits>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "skin/cor_kernel.h"
#include "skin/dual_quat.h"
#include "skin/rotation_centers.h"
#include "skin/skin_kernels.h"
#include "skin/skin_mesh.h"

namespace rig {
namespace {

constexpr float kPi = 3.14159265358979f;

// What a row of the skinning-method table needs.
static_assert(std::is_same_v<decltype(&skin_cor_kernel), SkinKernel>);
static_assert(std::is_same_v<decltype(&write_cor_palette), PaletteWriter>);
static_assert(kCorPaletteRows == kDualQuatPaletteRows);

struct Skinned {
  std::vector<glm::vec3> p, n;
};

Skinned run(SkinKernel kernel, PaletteWriter writer, uint32_t rows_per_joint, const SkinMesh& mesh,
            const std::vector<glm::mat4>& matrices, const std::vector<glm::vec3>& positions,
            const std::vector<glm::vec3>& normals) {
  std::vector<glm::vec4> rows(matrices.size() * rows_per_joint);
  writer(matrices, rows);
  Skinned s;
  s.p.resize(positions.size());
  s.n.resize(positions.size());
  kernel(mesh, rows, positions, normals, s.p, s.n);
  return s;
}
Skinned run_lbs(const SkinMesh& m, const std::vector<glm::mat4>& mats, const Primitive& p) {
  return run(skin_linear_kernel, write_linear_palette, kLinearPaletteRows, m, mats, p.positions,
             p.normals);
}
Skinned run_dqs(const SkinMesh& m, const std::vector<glm::mat4>& mats, const Primitive& p) {
  return run(skin_dual_quat_kernel, write_dual_quat_palette, kDualQuatPaletteRows, m, mats,
             p.positions, p.normals);
}
Skinned run_cor(const SkinMesh& m, const std::vector<glm::mat4>& mats, const Primitive& p) {
  return run(skin_cor_kernel, write_cor_palette, kCorPaletteRows, m, mats, p.positions, p.normals);
}

// A tube along +X from 0 to 2, radius 0.2, over joint 0 (origin) and joint 1 at (1,0,0):
// joint 1's weight is a smoothstep over x ∈ [0.7, 1.3], so the ring at x = 1 is exactly 50/50.
constexpr float kRadius = 0.2f;
Model arm_model() {
  Primitive p;
  p.mode = PrimitiveMode::Triangles;
  p.influences = 4;
  const int rings = 41, around = 24;
  for (int r = 0; r < rings; ++r) {
    const float x = float(r) / 20.0f;
    const float t = std::clamp((x - 0.7f) / 0.6f, 0.0f, 1.0f);
    const float w1 = t * t * (3.0f - 2.0f * t);
    for (int a = 0; a < around; ++a) {
      const float ang = 2.0f * kPi * float(a) / float(around);
      p.positions.push_back({x, kRadius * std::cos(ang), kRadius * std::sin(ang)});
      p.normals.push_back({0.0f, std::cos(ang), std::sin(ang)});
      p.joints.insert(p.joints.end(), {0, 1, 0, 0});
      p.weights.insert(p.weights.end(), {1.0f - w1, w1, 0.0f, 0.0f});
    }
  }
  for (int r = 0; r + 1 < rings; ++r)
    for (int a = 0; a < around; ++a) {
      const uint32_t i0 = uint32_t(r * around + a), i1 = uint32_t(r * around + (a + 1) % around);
      p.indices.insert(p.indices.end(), {i0, i1, i0 + uint32_t(around), i1, i1 + uint32_t(around),
                                         i0 + uint32_t(around)});
    }
  Model m;
  m.meshes.push_back({});
  m.meshes[0].primitives.push_back(std::move(p));
  return m;
}

// Joint 1 turned by `degrees` about `axis` through its position (1,0,0); joint 0 at rest.
std::vector<glm::mat4> arm_pose(glm::vec3 axis, float degrees) {
  const glm::vec3 c(1, 0, 0);
  const glm::mat4 m = glm::translate(glm::mat4(1), c) *
                      glm::rotate(glm::mat4(1), degrees * kPi / 180.0f, axis) *
                      glm::translate(glm::mat4(1), -c);
  return {glm::mat4(1), m};
}

struct Arm {
  Model model = arm_model();
  SkinMeshes meshes = prepare_skin_meshes(model);
  Arm() {
    CorOptions o;
    o.use_cache = false;
    EXPECT_TRUE(compute_rotation_centers(model, meshes, o));
  }
  const Primitive& prim() const { return model.meshes[0].primitives[0]; }
  const SkinMesh& mesh() const { return meshes.primitives[0]; }
};

TEST(CorSkinning, TwistOf180KeepsTheRingRadiusLikeDqs) {
  const Arm arm;
  const auto pose = arm_pose({1, 0, 0}, 180.0f);
  const Skinned lbs = run_lbs(arm.mesh(), pose, arm.prim());
  const Skinned dqs = run_dqs(arm.mesh(), pose, arm.prim());
  const Skinned cor = run_cor(arm.mesh(), pose, arm.prim());
  float lbs_r = 1e9f, dqs_r = 1e9f, cor_r = 1e9f, cor_r_max = 0.0f;
  for (uint32_t v = 0; v < arm.prim().vertex_count(); ++v) {
    if (arm.prim().positions[v].x != 1.0f) continue;  // the 50/50 ring
    // Its centre lies on the axis, at the joint.
    EXPECT_NEAR(arm.mesh().rotation_centers[v].x, 1.0f, 1e-4f);
    EXPECT_NEAR(std::hypot(arm.mesh().rotation_centers[v].y, arm.mesh().rotation_centers[v].z),
                0.0f, 1e-5f);
    auto radius = [](glm::vec3 q) { return std::hypot(q.y, q.z); };
    lbs_r = std::min(lbs_r, radius(lbs.p[v]));
    dqs_r = std::min(dqs_r, radius(dqs.p[v]));
    cor_r = std::min(cor_r, radius(cor.p[v]));
    cor_r_max = std::max(cor_r_max, radius(cor.p[v]));
  }
  std::cout << "[ CoR      ] 180° twist, 50/50 ring radius (rest 0.2): LBS " << lbs_r << ", DQS "
            << dqs_r << ", CoR " << cor_r << ".." << cor_r_max << "\n";
  EXPECT_LT(lbs_r, 1e-3f);  // the candy wrapper
  EXPECT_NEAR(dqs_r, kRadius, 1e-4f);
  EXPECT_NEAR(cor_r, kRadius, 1e-4f);
  EXPECT_NEAR(cor_r_max, kRadius, 1e-4f);
}

TEST(CorSkinning, BendOf90BulgesLessThanDqsAtTheJoint) {
  // Joint 1 bends +90° about Z: the outer side of the elbow is −Y before the joint and +X after.
  // Per ring of the blend region, the outer vertex's distance to the joint: DQS turns every
  // vertex about the joint, so it keeps its rest distance √(δ² + r²) (δ: offset along the arm
  // from the joint) — the bulge; CoR turns each ring about its own centre, which follows LBS
  // towards the joint, so its outer reach stays closer to the rest radius r.
  const Arm arm;
  const auto pose = arm_pose({0, 0, 1}, 90.0f);
  const Skinned dqs = run_dqs(arm.mesh(), pose, arm.prim());
  const Skinned cor = run_cor(arm.mesh(), pose, arm.prim());
  const Skinned lbs = run_lbs(arm.mesh(), pose, arm.prim());
  const glm::vec3 joint(1, 0, 0);
  const glm::vec3 bisector = glm::normalize(glm::vec3(1, -1, 0));
  double dqs_excess = 0.0, cor_excess = 0.0;
  float dqs_max = 0.0f, cor_max = 0.0f, dqs_bis = -1e9f, cor_bis = -1e9f, lbs_bis = -1e9f;
  int rings = 0;
  for (uint32_t v = 0; v < arm.prim().vertex_count(); ++v) {
    const glm::vec3 q = arm.prim().positions[v];
    dqs_bis = std::max(dqs_bis, glm::dot(dqs.p[v] - joint, bisector));
    cor_bis = std::max(cor_bis, glm::dot(cor.p[v] - joint, bisector));
    lbs_bis = std::max(lbs_bis, glm::dot(lbs.p[v] - joint, bisector));
    const float w1 = arm.mesh().weights[v * 4 + 1];
    if (!(q.y < -0.99f * kRadius) || w1 <= 0.0f || w1 >= 1.0f) continue;  // outer line, blend
    const float d_dqs = glm::distance(dqs.p[v], joint), d_cor = glm::distance(cor.p[v], joint);
    EXPECT_NEAR(d_dqs, glm::distance(q, joint), 1e-4f);
    EXPECT_LE(d_cor, d_dqs + 1e-5f) << "x = " << q.x;
    EXPECT_GE(d_cor, kRadius - 1e-4f) << "x = " << q.x;  // no collapse either
    dqs_excess += d_dqs - kRadius;
    cor_excess += d_cor - kRadius;
    dqs_max = std::max(dqs_max, d_dqs);
    cor_max = std::max(cor_max, d_cor);
    ++rings;
  }
  ASSERT_GT(rings, 5);
  dqs_excess /= rings;
  cor_excess /= rings;
  std::cout << "[ CoR      ] 90° bend, outer vertices of the " << rings
            << " blend rings, distance to the joint minus the rest radius 0.2: mean DQS "
            << dqs_excess << ", CoR " << cor_excess << "; max DQS " << dqs_max << ", CoR "
            << cor_max << "; reach along the outer bisector DQS " << dqs_bis << ", CoR " << cor_bis
            << ", LBS " << lbs_bis << "\n";
  EXPECT_LT(cor_excess, 0.9 * dqs_excess);
}

// ---------------------------------------------------------------------------------------------

glm::mat4 random_matrix(std::mt19937& rng, int kind) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  glm::mat4 m =
      glm::translate(glm::mat4(1), {u(rng), u(rng), u(rng)}) *
      glm::rotate(glm::mat4(1), u(rng) * 3.1f, glm::normalize(glm::vec3(u(rng), u(rng), 1)));
  if (kind == 1) m = m * glm::scale(glm::mat4(1), glm::vec3(1.5f));
  if (kind == 2) m = m * glm::scale(glm::mat4(1), {1.3f, 0.7f, 1.1f});
  if (kind == 3) m = m * glm::scale(glm::mat4(1), {-1.0f, 1.0f, 1.0f});  // mirror
  return m;
}

TEST(CorSkinning, SingleJointMeshesEqualLbs) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int kind = 0; kind < 4; ++kind) {
    SCOPED_TRACE(kind);
    Primitive p;
    p.influences = 4;
    for (int v = 0; v < 50; ++v) {
      p.positions.push_back({u(rng), u(rng), u(rng)});
      p.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
      // Joint 2 alone, sometimes over two slots.
      if (v % 2) {
        p.joints.insert(p.joints.end(), {2, 0, 2, 0});
        p.weights.insert(p.weights.end(), {0.25f, 0.0f, 0.75f, 0.0f});
      } else {
        p.joints.insert(p.joints.end(), {2, 1, 0, 0});
        p.weights.insert(p.weights.end(), {1.0f, 0.0f, 0.0f, 0.0f});
      }
    }
    SkinMesh mesh = prepare_skin_mesh(p);
    // Any centre gives the same result with one joint.
    for (int v = 0; v < 50; ++v) mesh.rotation_centers.push_back({u(rng), u(rng), u(rng)});
    const std::vector<glm::mat4> mats = {random_matrix(rng, 0), random_matrix(rng, 0),
                                         random_matrix(rng, kind)};
    const Skinned lbs = run_lbs(mesh, mats, p);
    const Skinned cor = run_cor(mesh, mats, p);
    for (int v = 0; v < 50; ++v) {
      EXPECT_LE(glm::distance(lbs.p[size_t(v)], cor.p[size_t(v)]), 2e-5f) << v;
      EXPECT_LE(glm::distance(lbs.n[size_t(v)], cor.n[size_t(v)]), 2e-5f) << v;
    }
  }
}

// The formulas of skin/cor_kernel.h in float64, from the skinning matrices.
glm::dvec3 reference_position(const std::vector<glm::mat4>& mats, const uint16_t* joints,
                              const float* weights, uint32_t k, glm::dvec3 v, glm::dvec3 center,
                              glm::dvec3 n, glm::dvec3& n_out) {
  struct J {
    glm::dquat q;
    glm::dmat3 s;
    glm::dvec3 t;
  };
  auto split = [&](int j) {
    const JointDualQuat jd = joint_dual_quat_from_matrix(mats[size_t(j)]);
    return J{glm::dquat(jd.rigid.real), glm::dmat3(jd.stretch),
             glm::dvec3(dual_quat_translation(jd.rigid))};
  };
  double sum = 0.0;
  for (uint32_t i = 0; i < k; ++i) sum += weights[i];
  // Pivot: largest summed weight per joint, first in slot order on ties.
  int pivot = -1;
  double best = -1.0;
  for (uint32_t i = 0; i < k; ++i) {
    double total = 0.0;
    for (uint32_t e = 0; e < k; ++e)
      if (joints[e] == joints[i]) total += weights[e] / sum;
    if (weights[i] > 0.0f && total > best) {
      best = total;
      pivot = int(i);
    }
  }
  const glm::dquat qp = split(joints[pivot]).q;
  glm::dquat q(0, 0, 0, 0);
  glm::dmat3 s(0.0), l(0.0);
  glm::dvec3 lt(0.0);
  for (uint32_t i = 0; i < k; ++i) {
    const double w = weights[i] / sum;
    if (w == 0.0) continue;
    const J j = split(joints[i]);
    q += j.q * (glm::dot(j.q, qp) < 0.0 ? -w : w);
    s += j.s * w;
    l += glm::mat3_cast(j.q) * j.s * w;
    lt += j.t * w;
  }
  const glm::dmat3 r = glm::mat3_cast(glm::normalize(q));
  n_out = glm::normalize(r * glm::transpose(glm::inverse(s)) * n);
  return r * s * (v - center) + l * center + lt;
}

TEST(CorSkinning, KernelMatchesFloat64Formulas) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), w01(0.0f, 1.0f);
  std::uniform_int_distribution<int> pick(0, 5);
  for (uint32_t k : {4u, 8u}) {
    SCOPED_TRACE(k);
    std::vector<glm::mat4> mats;
    for (int j = 0; j < 6; ++j) mats.push_back(random_matrix(rng, j % 3));
    Primitive p;
    p.influences = k;
    SkinMesh mesh;
    for (int v = 0; v < 200; ++v) {
      p.positions.push_back({u(rng), u(rng), u(rng)});
      p.normals.push_back(glm::normalize(glm::vec3(u(rng), u(rng), u(rng)) + glm::vec3(0, 0, 2)));
      float sum = 0.0f;
      std::vector<float> w(k);
      for (uint32_t i = 0; i < k; ++i) {
        w[i] = i < 3 || w01(rng) < 0.5f ? w01(rng) + 0.05f : 0.0f;  // some zero slots
        sum += w[i];
      }
      for (uint32_t i = 0; i < k; ++i) {
        p.joints.push_back(uint16_t(pick(rng)));  // repeated joints happen
        p.weights.push_back(w[i] / sum);
      }
    }
    mesh = prepare_skin_mesh(p);
    for (int v = 0; v < 200; ++v) mesh.rotation_centers.push_back(0.8f * p.positions[size_t(v)]);
    const Skinned cor = run_cor(mesh, mats, p);
    for (uint32_t v = 0; v < 200; ++v) {
      glm::dvec3 n;
      const glm::dvec3 ref = reference_position(
          mats, &mesh.joints[v * k], &mesh.weights[v * k], k, glm::dvec3(p.positions[v]),
          glm::dvec3(mesh.rotation_centers[v]), glm::dvec3(p.normals[v]), n);
      EXPECT_LE(glm::distance(glm::dvec3(cor.p[v]), ref), 1e-4) << v;
      EXPECT_LE(glm::distance(glm::dvec3(cor.n[v]), n), 1e-4) << v;
    }
  }
}

TEST(CorSkinning, QuaternionSignsInThePaletteDoNotMatter) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), w01(0.1f, 1.0f);
  Primitive p;
  p.influences = 4;
  for (int v = 0; v < 100; ++v) {
    p.positions.push_back({u(rng), u(rng), u(rng)});
    p.normals.push_back({0, 0, 1});
    const float a = w01(rng), b = w01(rng), c = w01(rng);
    p.joints.insert(p.joints.end(), {uint16_t(v % 3), uint16_t((v + 1) % 3), 3, 0});
    p.weights.insert(p.weights.end(), {a / (a + b + c), b / (a + b + c), c / (a + b + c), 0.0f});
  }
  SkinMesh mesh = prepare_skin_mesh(p);
  for (int v = 0; v < 100; ++v) mesh.rotation_centers.push_back(0.5f * p.positions[size_t(v)]);
  std::vector<glm::mat4> mats;
  for (int j = 0; j < 4; ++j) mats.push_back(random_matrix(rng, j == 2 ? 2 : 0));
  std::vector<glm::vec4> rows(mats.size() * kCorPaletteRows);
  write_cor_palette(mats, rows);
  std::vector<glm::vec4> flipped = rows;
  for (size_t j : {1u, 3u})
    for (int r = 0; r < 2; ++r) flipped[j * kCorPaletteRows + size_t(r)] *= -1.0f;
  std::vector<glm::vec3> a(100), an(100), b(100), bn(100);
  skin_cor_kernel(mesh, rows, p.positions, p.normals, a, an);
  skin_cor_kernel(mesh, flipped, p.positions, p.normals, b, bn);
  for (size_t v = 0; v < 100; ++v) {
    EXPECT_LE(glm::distance(a[v], b[v]), 1e-5f) << v;
    EXPECT_LE(glm::distance(an[v], bn[v]), 1e-5f) << v;
  }
}

TEST(CorSkinning, WithoutCentresPositionsAreLbs) {
  const Arm arm;
  SkinMesh bare = arm.mesh();
  bare.rotation_centers.clear();
  const auto pose = arm_pose({0, 0, 1}, 60.0f);
  const Skinned lbs = run_lbs(bare, pose, arm.prim());
  const Skinned cor = run_cor(bare, pose, arm.prim());
  for (size_t v = 0; v < lbs.p.size(); ++v) EXPECT_LE(glm::distance(lbs.p[v], cor.p[v]), 1e-5f);
}

TEST(CorSkinning, DegenerateVerticesKeepTheirPositionAndInAndOutMayAlias) {
  Primitive p;
  p.influences = 4;
  p.positions = {{1, 2, 3}, {4, 5, 6}, {0, 1, 0}};
  p.normals = {{0, 0, 2}, {0, 3, 0}, {1, 0, 0}};
  p.joints = {0, 0, 0, 0, 7, 0, 0, 0, 0, 1, 0, 0};
  p.weights = {0, 0, 0, 0, 1, 0, 0, 0, 0.5f, 0.5f, 0, 0};  // all zero; joint past the palette
  SkinMesh mesh = prepare_skin_mesh(p);
  mesh.rotation_centers = {{0, 0, 0}, {0, 0, 0}, {0, 1, 0}};
  const std::vector<glm::mat4> mats = {glm::translate(glm::mat4(1), {0, 0, 1}),
                                       glm::translate(glm::mat4(1), {0, 0, 3})};
  std::vector<glm::vec4> rows(2 * kCorPaletteRows);
  write_cor_palette(mats, rows);
  std::vector<glm::vec3> pos = p.positions, nrm = p.normals;
  skin_cor_kernel(mesh, rows, pos, nrm, pos, nrm);
  EXPECT_EQ(pos[0], glm::vec3(1, 2, 3));
  EXPECT_EQ(nrm[0], glm::vec3(0, 0, 1));
  EXPECT_EQ(pos[1], glm::vec3(4, 5, 6));
  EXPECT_EQ(nrm[1], glm::vec3(0, 1, 0));
  EXPECT_LE(glm::distance(pos[2], glm::vec3(0, 1, 2)), 1e-6f);  // two translations blended
}

// The bundled mannequin through the character pipeline: the Twist clip at 180° (the 50/50
// ForeArm/ForeArmTwist ring) and the Bend clip at 150° (elbows), CoR against LBS and DQS.
struct MannequinFrame {
  Model model;
  std::shared_ptr<SkinMeshes> meshes;
  std::shared_ptr<const SkinLayer> layer;  // the meshes as a skin layer, for the Character
  explicit MannequinFrame() {
    std::string error;
    EXPECT_TRUE(import_gltf(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", model, error)) << error;
    meshes = std::make_shared<SkinMeshes>(prepare_skin_meshes(model));
    CorOptions o;
    o.use_cache = false;
    EXPECT_TRUE(compute_rotation_centers(model, *meshes, o));
    layer = std::make_shared<const SkinLayer>(model, *meshes);
  }
  int clip(const char* name) const {
    for (size_t c = 0; c < model.clips.size(); ++c)
      if (model.clips[c].name == name) return int(c);
    return -1;
  }
  int joint(const char* name) const {
    for (size_t j = 0; j < model.skins[0].joints.size(); ++j)
      if (model.nodes[size_t(model.skins[0].joints[j])].name == name) return int(j);
    return -1;
  }
};

// For every skinned draw item: bind position, LBS/DQS/CoR outputs and the two largest weights'
// joints, through `visit(prim, mesh, v, lbs, dqs, cor, world)`.
template <class Visit>
void skin_frame(const MannequinFrame& f, const Character& c, Visit visit) {
  for (const DrawItem& item : f.model.draws) {
    if (item.skin < 0) continue;
    const Primitive& prim = f.model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
    const SkinMesh& mesh = f.meshes->get(item.mesh, item.primitive);
    if (!mesh.skinned()) continue;
    const std::vector<glm::mat4> mats(c.skinning_matrices(item.skin).begin(),
                                      c.skinning_matrices(item.skin).end());
    const Skinned lbs = run_lbs(mesh, mats, prim), dqs = run_dqs(mesh, mats, prim),
                  cor = run_cor(mesh, mats, prim);
    for (uint32_t v = 0; v < prim.vertex_count(); ++v)
      visit(prim, mesh, v, lbs.p[v], dqs.p[v], cor.p[v], mats);
  }
}

float weight_of(const SkinMesh& mesh, uint32_t v, int joint) {
  float w = 0.0f;
  for (uint32_t i = 0; i < mesh.influences; ++i)
    if (mesh.joints[v * mesh.influences + i] == joint) w += mesh.weights[v * mesh.influences + i];
  return w;
}

TEST(CorSkinning, MannequinTwistAndBend) {
  const MannequinFrame f;
  const int twist = f.clip("Twist"), bend = f.clip("Bend");
  const int fore = f.joint("LeftForeArm"), twist_joint = f.joint("LeftForeArmTwist");
  const int arm = f.joint("LeftArm");
  ASSERT_GE(twist, 0);
  ASSERT_GE(bend, 0);
  ASSERT_GE(fore, 0);
  ASSERT_GE(twist_joint, 0);
  ASSERT_GE(arm, 0);
  Character c(f.model, f.layer);
  // Twist at 180°: the ring's smallest distance to the twist joint (rest: its radius).
  c.evaluate(PoseSelection{twist, 1.0f});
  const glm::vec3 twist_bind =
      glm::vec3(glm::inverse(f.model.skins[0].inverse_bind[size_t(twist_joint)])[3]);
  float rest_r = 1e9f, lbs_r = 1e9f, dqs_r = 1e9f, cor_r = 1e9f;
  skin_frame(f, c,
             [&](const Primitive& prim, const SkinMesh& mesh, uint32_t v, glm::vec3 lbs,
                 glm::vec3 dqs, glm::vec3 cor, const std::vector<glm::mat4>& mats) {
               const float a = weight_of(mesh, v, fore), b = weight_of(mesh, v, twist_joint);
               if (std::abs(a - 0.5f) > 0.05f || std::abs(b - 0.5f) > 0.05f) return;
               const glm::vec3 joint =
                   glm::vec3(mats[size_t(twist_joint)] * glm::vec4(twist_bind, 1.0f));
               rest_r = std::min(rest_r, glm::distance(prim.positions[v], twist_bind));
               lbs_r = std::min(lbs_r, glm::distance(lbs, joint));
               dqs_r = std::min(dqs_r, glm::distance(dqs, joint));
               cor_r = std::min(cor_r, glm::distance(cor, joint));
             });
  ASSERT_LT(rest_r, 1.0f);
  std::cout << "[ CoR      ] mannequin Twist 180°, ForeArm/ForeArmTwist ring, nearest vertex to "
               "the twist joint (rest "
            << rest_r << "): LBS " << lbs_r << ", DQS " << dqs_r << ", CoR " << cor_r << "\n";
  EXPECT_LT(lbs_r, 0.5f * rest_r);
  EXPECT_GT(cor_r, 0.9f * rest_r);
  EXPECT_GT(dqs_r, 0.9f * rest_r);

  // Bend at 150°: mean distance to the elbow of the vertices blended between arm and forearm.
  c.evaluate(PoseSelection{bend, 1.5f});
  const glm::vec3 elbow_bind =
      glm::vec3(glm::inverse(f.model.skins[0].inverse_bind[size_t(fore)])[3]);
  double rest = 0.0, lbs_d = 0.0, dqs_d = 0.0, cor_d = 0.0;
  int n = 0;
  skin_frame(f, c,
             [&](const Primitive& prim, const SkinMesh& mesh, uint32_t v, glm::vec3 lbs,
                 glm::vec3 dqs, glm::vec3 cor, const std::vector<glm::mat4>& mats) {
               const float a = weight_of(mesh, v, arm), b = weight_of(mesh, v, fore);
               if (a < 0.1f || b < 0.1f) return;
               const glm::vec3 elbow = glm::vec3(mats[size_t(fore)] * glm::vec4(elbow_bind, 1.0f));
               rest += glm::distance(prim.positions[v], elbow_bind);
               lbs_d += glm::distance(lbs, elbow);
               dqs_d += glm::distance(dqs, elbow);
               cor_d += glm::distance(cor, elbow);
               ++n;
             });
  ASSERT_GT(n, 0);
  std::cout << "[ CoR      ] mannequin Bend 150°, " << n
            << " elbow vertices blended between Arm and ForeArm, mean distance to the elbow (rest "
            << rest / n << "): LBS " << lbs_d / n << ", DQS " << dqs_d / n << ", CoR " << cor_d / n
            << "\n";
  EXPECT_NEAR(dqs_d / n, rest / n, 0.02 * rest / n);  // DQS turns about the joint
  EXPECT_LT(cor_d, dqs_d);                            // CoR bulges less
  EXPECT_GT(cor_d, lbs_d);                            // and collapses less than LBS
}

}  // namespace
}  // namespace rig
