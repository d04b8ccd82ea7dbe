// The GPU skinning shaders against the CPU reference (rig::Character::skin_draw_item): every
// skinned corpus model and hand-built models with scaled, mirrored joints and more than eight
// influences, every row of the skinning-method table, read back with transform feedback. The
// meshes carry their centres of rotation (skin/rotation_centers.h), shared by CPU and GPU, so
// the CoR row is tested with real centres.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "skin/rotation_centers.h"
#include "skin/skin_layer.h"
#include "skin/skin_mesh.h"
#include "test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr double kRelativeTolerance = 1e-5;  // of the bounding-box diagonal
constexpr float kNormalTolerance = 1e-4f;

const char* method_name(SkinningMethod m) { return method_info(m).label; }

// Every method of the table.
std::vector<SkinningMethod> all_methods() {
  std::vector<SkinningMethod> out;
  for (const SkinningMethodInfo& m : skinning_methods()) out.push_back(m.method);
  return out;
}

// The prepared meshes of `model` with their centres of rotation (cached next to the other test
// files, so reruns are quick).
std::shared_ptr<const SkinLayer> meshes_with_centers(const Model& model) {
  auto meshes = std::make_shared<SkinMeshes>(prepare_skin_meshes(model));
  CorOptions options;
  options.cache_dir = (rig::test::scratch_dir() / "rigview-gpu-skinning-test").string();
  bool from_cache = false;
  EXPECT_TRUE(prepare_rotation_centers(model, *meshes, options, nullptr, nullptr, from_cache));
  return std::make_shared<const SkinLayer>(model, std::move(*meshes));
}

struct Comparison {
  double max_position_error = 0.0;  // world units
  double diagonal = 0.0;            // of the CPU-skinned geometry
  float max_normal_error = 0.0f;
  size_t vertices = 0;
};

// Skins every draw item of `gpu_model` on the GPU and of `cpu_model` on the CPU (the same
// model, or for >8 influences a copy reduced by hand) under `selection`, both with `meshes`
// (gpu_model's prepared meshes with centres).
Comparison compare_gpu_cpu(const Model& gpu_model, const Model& cpu_model,
                           std::shared_ptr<const SkinLayer> meshes, const PoseSelection& selection,
                           SkinningMethod method, const RendererConfig& config = {}) {
  Comparison c;
  std::string error;
  Renderer renderer(config);
  EXPECT_TRUE(renderer.init(error)) << error;
  EXPECT_TRUE(renderer.set_model(gpu_model, meshes, error)) << error;
  Character gpu_animator(gpu_model, meshes), cpu_animator(cpu_model, meshes);
  // The mix with amounts 0, ½ and 1 over the nodes (all 0 would only test LBS again): β takes
  // fractional values, 0 and 1 on every model with a few joints.
  std::vector<float> amounts(gpu_model.nodes.size());
  for (size_t n = 0; n < amounts.size(); ++n) amounts[n] = float(n % 3) * 0.5f;
  gpu_animator.set_dqs_amounts(amounts);
  cpu_animator.set_dqs_amounts(amounts);
  gpu_animator.evaluate(selection);
  cpu_animator.evaluate(selection);
  renderer.update(gpu_animator);
  Bounds bounds;
  std::vector<std::vector<glm::vec3>> cpu_p(cpu_model.draws.size()), cpu_n(cpu_p.size());
  for (size_t d = 0; d < cpu_model.draws.size(); ++d) {
    const DrawItem& item = cpu_model.draws[d];
    const size_t n = cpu_model.meshes[item.mesh].primitives[item.primitive].vertex_count();
    cpu_p[d].resize(n);
    cpu_n[d].resize(n);
    cpu_animator.skin_draw_item(item, method, cpu_p[d], cpu_n[d]);
    for (const glm::vec3& p : cpu_p[d]) bounds.add(p);
  }
  c.diagonal = bounds.diagonal();
  for (size_t d = 0; d < gpu_model.draws.size(); ++d) {
    const size_t n = cpu_p[d].size();
    std::vector<glm::vec3> gp(n), gn(n);
    if (!renderer.read_back_skinned(d, method, gp, gn, error)) {
      ADD_FAILURE() << error;
      return c;
    }
    for (size_t v = 0; v < n; ++v) {
      c.max_position_error =
          std::max(c.max_position_error, double(glm::length(gp[v] - cpu_p[d][v])));
      c.max_normal_error = std::max(c.max_normal_error, glm::length(gn[v] - cpu_n[d][v]));
    }
    c.vertices += n;
  }
  return c;
}

std::vector<std::filesystem::path> corpus_models(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    const std::string ext = e.path().extension().string();
    if (e.is_regular_file() && (ext == ".gltf" || ext == ".glb")) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(GpuSkinning, MatchesTheCpuReferenceOnEveryCorpusModel) {
  RIG_REQUIRE_CORPUS(corpus);
  RIG_REQUIRE_GL();
  size_t skinned_models = 0;
  std::vector<double> worst_relative(kSkinningMethodCount, 0.0);
  std::vector<float> worst_normal(kSkinningMethodCount, 0.0f);
  for (const std::filesystem::path& file : corpus_models(corpus)) {
    Model model;
    std::string error;
    // Models without skins run too: rigid draw items (node matrices) and morph targets.
    if (!import_gltf(file.string(), model, error) || model.draws.empty()) continue;
    if (!model.skins.empty()) ++skinned_models;
    // The rest pose, and the first clips (a model may have dozens) at a third of their length.
    std::vector<PoseSelection> poses(1);
    for (int c = 0; c < std::min<int>(3, int(model.clips.size())); ++c) {
      PoseSelection s;
      s.clip = c;
      s.time = model.clips[c].start + (model.clips[c].end - model.clips[c].start) / 3.0f;
      poses.push_back(s);
    }
    const std::shared_ptr<const SkinLayer> meshes = meshes_with_centers(model);
    for (const PoseSelection& pose : poses)
      for (SkinningMethod method : all_methods()) {
        const Comparison c = compare_gpu_cpu(model, model, meshes, pose, method);
        SCOPED_TRACE(file.filename().string() + " clip " + std::to_string(pose.clip) + " " +
                     method_name(method));
        ASSERT_GT(c.vertices, 0u);
        const size_t m = size_t(method);
        worst_relative[m] = std::max(worst_relative[m], c.max_position_error / c.diagonal);
        worst_normal[m] = std::max(worst_normal[m], c.max_normal_error);
        EXPECT_LE(c.max_position_error, kRelativeTolerance * c.diagonal)
            << "diagonal " << c.diagonal;
        EXPECT_LE(c.max_normal_error, kNormalTolerance);
      }
  }
  for (const SkinningMethodInfo& m : skinning_methods())
    std::printf(
        "GPU vs CPU %s over %zu skinned corpus models: worst position error %.3g of the "
        "bbox diagonal, worst normal error %.3g\n",
        m.label, skinned_models, worst_relative[size_t(m.method)],
        double(worst_normal[size_t(m.method)]));
  // The corpus README lists 28 skinned models (mixed_skin_joints may be refused on import).
  EXPECT_GE(skinned_models, 27u);
}

// Joints with non-uniform scale, a mirror and shear-free rotations, 8 influences per vertex.
Model scaled_mirrored_model() {
  std::vector<ChainJoint> chain(4);
  chain[0].rotation = glm::angleAxis(0.3f, glm::normalize(glm::vec3(1, 2, 0.5f)));
  chain[0].scale = glm::vec3(1.5f, 0.7f, 1.2f);
  chain[1].translation = glm::vec3(0.0f, 1.0f, 0.0f);
  chain[1].rotation = glm::angleAxis(1.1f, glm::normalize(glm::vec3(0.2f, 1, -0.4f)));
  chain[1].scale = glm::vec3(-1.0f, 1.3f, 0.9f);  // mirror
  chain[2].translation = glm::vec3(0.2f, 1.0f, 0.1f);
  chain[2].rotation = glm::angleAxis(2.6f, glm::normalize(glm::vec3(1, 0, 1)));
  chain[3].translation = glm::vec3(0.0f, 0.8f, -0.3f);
  chain[3].rotation = glm::angleAxis(-2.9f, glm::normalize(glm::vec3(0, 1, 0.3f)));
  chain[3].scale = glm::vec3(2.0f, 2.0f, 0.5f);
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  for (int v = 0; v < 24; ++v) {
    const float a = float(v) * 0.7f;
    pos.push_back(glm::vec3(std::cos(a) * 0.4f, float(v) * 0.15f, std::sin(a) * 0.4f));
    nrm.push_back(glm::normalize(glm::vec3(std::cos(a), 0.2f, std::sin(a))));
    float raw[8];
    float sum = 0.0f;
    for (int i = 0; i < 8; ++i) {
      raw[i] = 1.0f + float((v * 7 + i * 3) % 5);
      sum += raw[i];
      ids.push_back(static_cast<uint16_t>((v + i) % 4));
    }
    for (int i = 0; i < 8; ++i) w.push_back(raw[i] / sum);
  }
  std::vector<glm::mat4> inverse_bind(4);
  for (int j = 0; j < 4; ++j)
    inverse_bind[j] = glm::inverse(glm::translate(glm::mat4(1.0f), glm::vec3(0, float(j), 0)));
  return test::chain_model(chain, pos, nrm, 8, ids, w, {}, inverse_bind);
}

TEST(GpuSkinning, ScaledAndMirroredJointsMatchTheCpuReference) {
  RIG_REQUIRE_GL();
  const Model model = scaled_mirrored_model();
  const std::shared_ptr<const SkinLayer> meshes = meshes_with_centers(model);
  for (SkinningMethod method : all_methods()) {
    SCOPED_TRACE(method_name(method));
    const Comparison c = compare_gpu_cpu(model, model, meshes, PoseSelection{}, method);
    EXPECT_EQ(c.vertices, 24u);
    EXPECT_GT(c.diagonal, 1.0);
    EXPECT_LE(c.max_position_error, kRelativeTolerance * c.diagonal);
    EXPECT_LE(c.max_normal_error, kNormalTolerance);
    // Same through the texture-buffer palette.
    const Comparison t = compare_gpu_cpu(model, model, meshes, PoseSelection{}, method, {64});
    EXPECT_LE(t.max_position_error, kRelativeTolerance * t.diagonal);
  }
}

TEST(GpuSkinning, MoreThanEightInfluencesKeepTheEightLargestRenormalized) {
  RIG_REQUIRE_GL();
  // One vertex with 12 influences on a chain of 12 translated joints (identity inverse binds:
  // each skinning matrix is the joint's world translation T_j, so both methods place the vertex
  // at p + sum w_j T_j exactly). The four smallest weights (slots 1, 3, 6, 11) are dropped and
  // the eight kept, 0.90 in all, are divided by 0.90.
  const std::vector<float> w12 = {0.23f, 0.01f, 0.15f, 0.02f, 0.12f, 0.10f,
                                  0.03f, 0.09f, 0.08f, 0.07f, 0.06f, 0.04f};
  const std::vector<uint32_t> kept = {0, 2, 4, 5, 7, 8, 9, 10};
  std::vector<ChainJoint> chain(12);
  std::vector<glm::dvec3> world_t(12);
  glm::dvec3 t(0.0);
  for (int j = 0; j < 12; ++j) {
    chain[j].translation =
        glm::vec3(0.3f * std::cos(float(j)), 0.2f * std::sin(float(j)), 0.05f * float(j));
    t += glm::dvec3(chain[j].translation);
    world_t[j] = t;
  }
  std::vector<uint16_t> ids(12);
  std::iota(ids.begin(), ids.end(), uint16_t(0));
  const glm::vec3 p(0.5f, -0.25f, 1.0f);
  const Model model = test::chain_model(chain, {p}, {glm::vec3(0, 0, 1)}, 12, ids, w12, {0, 0, 0});
  // The prepared mesh, shared by CPU and GPU: exactly the kept slots, in file order.
  const SkinMesh mesh = prepare_skin_mesh(model.meshes[0].primitives[0]);
  ASSERT_EQ(mesh.influences, 8u);
  for (size_t i = 0; i < kept.size(); ++i) {
    EXPECT_EQ(mesh.joints[i], kept[i]);
    EXPECT_NEAR(mesh.weights[i], w12[kept[i]] / 0.90f, 1e-6f);
  }
  glm::dvec3 expected(p), all_twelve(p);
  for (uint32_t i : kept) expected += double(w12[i]) / 0.90 * world_t[i];
  for (uint32_t i = 0; i < 12; ++i) all_twelve += double(w12[i]) * world_t[i];
  ASSERT_GT(glm::length(expected - all_twelve), 0.01);  // the truncation is visible
  std::string error;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, error)) << error;
  Character character(model);
  character.evaluate(PoseSelection{});
  renderer.update(character);
  // A lone vertex has no triangles: CoR rotates it about itself, so all three agree here.
  for (SkinningMethod method : all_methods()) {
    SCOPED_TRACE(method_name(method));
    std::vector<glm::vec3> gp(1), gn(1), cp(1), cn(1);
    ASSERT_TRUE(renderer.read_back_skinned(0, method, gp, gn, error)) << error;
    character.skin_draw_item(model.draws[0], method, cp, cn);
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(gp[0][c], expected[c], 1e-5) << c;
      EXPECT_NEAR(cp[0][c], expected[c], 1e-5) << c;
    }
  }
}

TEST(GpuSkinning, RigidDrawItemsUseTheNodeWorldMatrix) {
  RIG_REQUIRE_GL();
  Model model = scaled_mirrored_model();
  // Turn the mesh node rigid and put it under joint 1 (mirrored, scaled).
  model.draws[0].skin = -1;
  model.nodes[0].skin = -1;
  model.nodes[0].parent = 2;
  model.nodes[2].children.push_back(0);
  model.scene_roots = {1};
  model.node_order = {1, 2, 0, 3, 4};
  Character character(model);
  character.evaluate(PoseSelection{});
  const glm::mat4 world = character.world()[0];
  std::string error;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, error)) << error;
  renderer.update(character);
  const Primitive& prim = model.meshes[0].primitives[0];
  std::vector<glm::vec3> p(prim.vertex_count()), n(prim.vertex_count());
  ASSERT_TRUE(renderer.read_back_skinned(0, SkinningMethod::Linear, p, n, error)) << error;
  for (size_t v = 0; v < p.size(); ++v) {
    const glm::vec3 expected = glm::vec3(world * glm::vec4(prim.positions[v], 1.0f));
    EXPECT_NEAR(p[v].x, expected.x, 1e-5f);
    EXPECT_NEAR(p[v].y, expected.y, 1e-5f);
    EXPECT_NEAR(p[v].z, expected.z, 1e-5f);
    // Normals: the inverse transpose of the node's linear part, unit length.
    const glm::vec3 en =
        glm::normalize(glm::transpose(glm::inverse(glm::mat3(world))) * prim.normals[v]);
    EXPECT_NEAR(glm::length(n[v] - en), 0.0f, 1e-5f) << "vertex " << v;
  }
}

}  // namespace
}  // namespace rig::render
