// An edit of the skin layer reaches both skinning paths at the edited vertex and nowhere else:
// the CPU kernels (Character skins with the layer) and the GPU (Renderer::update uploads only the
// edited vertex range), read back with transform feedback. The edited vertex is checked against
// an independent expectation: with all its weight on joint j, it is S_j · p.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "skin/skin_layer.h"

namespace rig::render {
namespace {

struct Skinned {
  std::vector<std::vector<glm::vec3>> cpu, gpu;  // per draw item
};

Skinned skin_everything(const Model& model, const Character& character, Renderer& renderer) {
  Skinned out;
  std::string error;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const DrawItem& item = model.draws[d];
    const size_t n =
        model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
    std::vector<glm::vec3> normals(n);
    out.cpu.emplace_back(n);
    out.gpu.emplace_back(n);
    character.skin_draw_item(item, SkinningMethod::Linear, out.cpu.back(), normals);
    EXPECT_TRUE(
        renderer.read_back_skinned(d, SkinningMethod::Linear, out.gpu.back(), normals, error))
        << error;
  }
  return out;
}

class SkinLayerUpload : public ::testing::Test {
 protected:
  void SetUp() override {
    RIG_REQUIRE_GL();
    std::string error;
    ASSERT_TRUE(
        import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb", model_, error))
        << error;
    ASSERT_FALSE(model_.clips.empty());
    layer_ = std::make_shared<SkinLayer>(model_);
    character_ = std::make_unique<Character>(model_, layer_);
    ASSERT_TRUE(renderer_.init(error)) << error;
    ASSERT_TRUE(renderer_.set_model(model_, layer_, error)) << error;
    // Mid-clip: the joints have turned, so where a vertex goes depends on its weights.
    selection_.clip = 0;
    selection_.time = 0.5f * (model_.clips[0].start + model_.clips[0].end);
  }
  void frame() {
    character_->evaluate(selection_);
    renderer_.update(*character_);
  }

  Model model_;
  std::shared_ptr<SkinLayer> layer_;
  std::unique_ptr<Character> character_;
  Renderer renderer_;
  PoseSelection selection_;
};

TEST_F(SkinLayerUpload, OneVertexEditChangesThatVertexAloneOnTheCpuAndTheGpu) {
  frame();
  const Skinned before = skin_everything(model_, *character_, renderer_);

  // The first skinned draw item; its vertex whose position moves most when all its weight goes
  // to one joint of the skin, and that joint.
  size_t d = 0;
  while (d < model_.draws.size() &&
         !(model_.draws[d].skin >= 0 &&
           layer_->get(model_.draws[d].mesh, model_.draws[d].primitive).skinned()))
    ++d;
  ASSERT_LT(d, model_.draws.size());
  const DrawItem& item = model_.draws[d];
  const Primitive& prim = model_.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
  const std::span<const glm::mat4> skinning = character_->skinning_matrices(item.skin);
  uint32_t vertex = 0;
  uint16_t joint = 0;
  float moved = 0.0f;
  for (uint32_t v = 0; v < prim.vertex_count(); ++v)
    for (size_t j = 0; j < skinning.size(); ++j) {
      const glm::vec3 to(skinning[j] * glm::vec4(prim.positions[v], 1.0f));
      if (glm::distance(to, before.cpu[d][v]) > moved) {
        moved = glm::distance(to, before.cpu[d][v]);
        vertex = v;
        joint = uint16_t(j);
      }
    }
  ASSERT_GT(moved, 1e-2f);
  const glm::vec3 expected(skinning[joint] * glm::vec4(prim.positions[vertex], 1.0f));

  const uint64_t uploaded = renderer_.influence_vertices_uploaded();
  const uint32_t primitive =
      layer_->meshes().first_of_mesh[size_t(item.mesh)] + uint32_t(item.primitive);
  const uint16_t joints[] = {joint};
  const float weights[] = {1.0f};
  std::string error;
  ASSERT_TRUE(layer_->set_influences(primitive, vertex, joints, weights, error)) << error;
  frame();
  // One vertex per draw item drawing the edited primitive, not the whole mesh.
  size_t items = 0;
  for (const DrawItem& other : model_.draws)
    items += other.mesh == item.mesh && other.primitive == item.primitive;
  EXPECT_EQ(renderer_.influence_vertices_uploaded() - uploaded, items);

  const Skinned after = skin_everything(model_, *character_, renderer_);
  const float tolerance = 1e-4f * std::max(1.0f, glm::length(expected));
  EXPECT_NEAR(glm::distance(after.cpu[d][vertex], expected), 0.0f, tolerance);
  EXPECT_NEAR(glm::distance(after.gpu[d][vertex], expected), 0.0f, tolerance);
  size_t changed_cpu = 0, changed_gpu = 0;
  for (size_t k = 0; k < model_.draws.size(); ++k)
    for (size_t v = 0; v < before.cpu[k].size(); ++v) {
      if (k == d && v == vertex) continue;
      changed_cpu += after.cpu[k][v] != before.cpu[k][v];
      changed_gpu += after.gpu[k][v] != before.gpu[k][v];
    }
  EXPECT_EQ(changed_cpu, 0u);
  EXPECT_EQ(changed_gpu, 0u);
  EXPECT_EQ(renderer_.gl_error_count(), 0u);
}

// An inverse bind matrix edit moves every vertex bound to that joint the same way on both paths:
// a translation t appended to joint j's inverse bind matrix moves a vertex wholly on j by S_j's
// rotation-scale part applied to t.
TEST_F(SkinLayerUpload, AnInverseBindEditReachesBothPaths) {
  frame();
  const Skinned before = skin_everything(model_, *character_, renderer_);
  const glm::vec3 t(0.0f, 0.0f, 0.25f);
  const glm::mat4 ibm = layer_->inverse_bind(0)[0];
  const glm::mat4 moved = glm::translate(glm::mat4(1.0f), t) * ibm;
  const glm::mat4 s0 = character_->skinning_matrices(0)[0];
  std::string error;
  ASSERT_TRUE(layer_->set_inverse_bind(0, 0, moved, error)) << error;
  frame();
  const Skinned after = skin_everything(model_, *character_, renderer_);
  const glm::vec3 shift(s0 * glm::vec4(t, 0.0f));
  size_t checked = 0;
  for (size_t d = 0; d < model_.draws.size(); ++d) {
    const DrawItem& item = model_.draws[d];
    if (item.skin != 0) continue;
    const SkinMesh& mesh = layer_->get(item.mesh, item.primitive);
    for (uint32_t v = 0; v < mesh.vertex_count; ++v) {
      float on_joint = 0.0f, total = 0.0f;
      for (uint32_t s = 0; s < mesh.influences; ++s) {
        total += mesh.vertex_weights(v)[s];
        if (mesh.vertex_joints(v)[s] == 0) on_joint += mesh.vertex_weights(v)[s];
      }
      if (total <= 0.0f || on_joint != total) continue;
      ++checked;
      EXPECT_NEAR(glm::distance(after.cpu[d][v], before.cpu[d][v] + shift), 0.0f, 1e-4f);
      EXPECT_NEAR(glm::distance(after.gpu[d][v], before.gpu[d][v] + shift), 0.0f, 1e-4f);
    }
  }
  EXPECT_GT(checked, 0u);
}

}  // namespace
}  // namespace rig::render
