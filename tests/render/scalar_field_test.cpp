// Scalar fields: the producers (no GL) give the renormalized weights and influence counts the
// skinning uses, NaN where a vertex cannot be skinned; any field renders through its colour map.
#include "analysis/scalar_field.h"

#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "character/character.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

// Four vertices on a two-joint chain: (0.5, 0.5); (0.2 on joint 1, 0.2 on joint 0 twice, 0.4 on
// joint 5 which is outside the skin); (1 on joint 1); all weights 0 (broken).
Model four_vertices() {
  std::vector<ChainJoint> chain(2);
  chain[1].translation = glm::vec3(0.0f, 1.0f, 0.0f);
  return test::chain_model(chain,
                           {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f),
                            glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(1.0f, 1.0f, 0.0f)},
                           std::vector<glm::vec3>(4, glm::vec3(0, 0, 1)), 4,
                           {0, 1, 0, 0, 1, 0, 0, 5, 1, 0, 0, 0, 0, 1, 0, 0},
                           {0.5f, 0.5f, 0, 0, 0.2f, 0.2f, 0.2f, 0.4f, 1, 0, 0, 0, 0, 0, 0, 0},
                           {0, 1, 2, 1, 3, 2});
}

TEST(ScalarField, JointWeightsAreRenormalizedLikeTheSkinningAndBrokenIsNaN) {
  const Model model = four_vertices();
  const SkinMeshes meshes = prepare_skin_meshes(model);
  analysis::ScalarField field;
  analysis::joint_weight_field(model, meshes, /*joint node*/ 2, field);  // joint 1
  ASSERT_EQ(field.values.size(), 1u);
  ASSERT_EQ(field.values[0].size(), 4u);
  EXPECT_FLOAT_EQ(field.values[0][0], 0.5f);
  // Divided by the sum over all slots (1.0), joint 5 skipped: 0.2 on joint 1.
  EXPECT_FLOAT_EQ(field.values[0][1], 0.2f * (1.0f / 1.0f));
  EXPECT_FLOAT_EQ(field.values[0][2], 1.0f);
  EXPECT_TRUE(std::isnan(field.values[0][3]));
  EXPECT_EQ(field.map, analysis::ColorMap::Heat);
  EXPECT_EQ(field.min, 0.0f);
  EXPECT_EQ(field.max, 1.0f);
  EXPECT_EQ(field.title, "weight of 'joint1'");
  const uint64_t revision = field.revision;
  analysis::joint_weight_field(model, meshes, 1, field);  // joint 0
  EXPECT_GT(field.revision, revision);
  EXPECT_FLOAT_EQ(field.values[0][0], 0.5f);
  EXPECT_FLOAT_EQ(field.values[0][1], 0.4f);  // two slots on joint 0
  EXPECT_FLOAT_EQ(field.values[0][2], 0.0f);
  analysis::joint_weight_field(model, meshes, 0, field);  // the mesh node: no joint
  EXPECT_EQ(field.values[0][0], 0.0f);
  EXPECT_TRUE(std::isnan(field.values[0][3]));
}

TEST(ScalarField, InfluenceCountsCountUsableNonZeroInfluences) {
  const Model model = four_vertices();
  analysis::ScalarField field;
  analysis::influence_count_field(model, prepare_skin_meshes(model), field);
  ASSERT_EQ(field.values.size(), 1u);
  EXPECT_EQ(field.values[0], (std::vector<float>{2.0f, 3.0f, 1.0f, 0.0f}));
  EXPECT_EQ(field.map, analysis::ColorMap::Categorical);
  EXPECT_EQ(field.max, 8.0f);
  // The categorical map: 0 is the broken colour, 1..8 the counts.
  EXPECT_EQ(analysis::color_map_color(field.map, 0.0f, 0, 8), analysis::kUndefinedColor);
  EXPECT_EQ(analysis::color_map_color(field.map, 2.4f, 0, 8), analysis::kCategoryColors[2]);
  EXPECT_EQ(analysis::color_map_color(field.map, 12.0f, 0, 8), analysis::kCategoryColors[8]);
}

TEST(ScalarField, ColorMapsMatchTheirStops) {
  using analysis::ColorMap;
  EXPECT_EQ(analysis::color_map_color(ColorMap::Heat, 0.0f, 0, 1), analysis::kZeroColor);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Heat, 1.0f, 0, 1), analysis::kHeatStops[4]);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Heat, 0.5f, 0, 1), analysis::kHeatStops[2]);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Diverging, -2.0f, -2, 2),
            analysis::kDivergingStops[0]);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Diverging, 0.0f, -2, 2),
            analysis::kDivergingStops[1]);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Diverging, 2.0f, -2, 2),
            analysis::kDivergingStops[2]);
  EXPECT_EQ(analysis::color_map_color(ColorMap::Diverging, NAN, -2, 2), analysis::kUndefinedColor);
}

// A custom field (what a later producer such as deflation fills) drawn with the diverging map:
// a flat quad facing the camera, lit the same everywhere, shows blue, white and red columns in
// the stops' order, and magenta where the value is NaN.
TEST(ScalarField, CustomDivergingFieldRendersThroughTheColorMap) {
  RIG_REQUIRE_GL();
  // A 4 x 1 strip of quads, x in [-2, 2], each quad's four vertices carrying one value.
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  std::vector<uint32_t> idx;
  for (int q = 0; q < 4; ++q) {
    const float x0 = -2.0f + float(q), x1 = x0 + 1.0f;
    const uint32_t b = uint32_t(pos.size());
    for (glm::vec3 p : {glm::vec3(x0, -0.5f, 0), glm::vec3(x1, -0.5f, 0), glm::vec3(x1, 0.5f, 0),
                        glm::vec3(x0, 0.5f, 0)}) {
      pos.push_back(p);
      nrm.push_back(glm::vec3(0, 0, 1));
      ids.insert(ids.end(), {0, 0, 0, 0});
      w.insert(w.end(), {1, 0, 0, 0});
    }
    idx.insert(idx.end(), {b, b + 1, b + 2, b, b + 2, b + 3});
  }
  const Model model = test::chain_model(std::vector<ChainJoint>(1), pos, nrm, 4, ids, w, idx);
  analysis::ScalarField field;
  field.map = analysis::ColorMap::Diverging;
  field.min = -1.0f;
  field.max = 1.0f;
  field.values = {std::vector<float>(16)};
  const float per_quad[4] = {-1.0f, 0.0f, 1.0f, NAN};
  for (int v = 0; v < 16; ++v) field.values[0][size_t(v)] = per_quad[v / 4];
  field.revision = 1;

  std::string error;
  Renderer renderer;
  ASSERT_TRUE(renderer.init(error)) << error;
  ASSERT_TRUE(renderer.set_model(model, error)) << error;
  Character character(model);
  character.evaluate(PoseSelection{});
  renderer.update(character);
  OffscreenTarget target;
  ASSERT_TRUE(target.create(200, 50, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 200, 50};
  OrbitCamera orbit;
  orbit.yaw = 0.0f;
  orbit.pitch = 0.0f;
  // The strip's 4 units fill the 200 px width (aspect 4): half width 2 = d * 4 tan(fov / 2).
  orbit.distance = 2.0f / (4.0f * std::tan(0.5f * orbit.fov_y));
  DrawOptions options;
  options.grid = false;
  options.field = &field;
  renderer.clear(viewport, glm::vec3(0.0f));
  renderer.draw(orbit.camera(1.0f).with_aspect(viewport.aspect()), viewport, options);
  std::vector<uint8_t> px;
  target.read_rgba(px);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  auto at = [&](int x) {
    const uint8_t* p = &px[(size_t(25) * 200 + size_t(x)) * 4];
    return glm::ivec3(p[0], p[1], p[2]);
  };
  const glm::ivec3 blue = at(25), white = at(75), red = at(125), undefined = at(175);
  EXPECT_GT(blue.b, blue.r + 60) << blue.r << " " << blue.g << " " << blue.b;
  EXPECT_GT(red.r, red.b + 60) << red.r << " " << red.g << " " << red.b;
  EXPECT_GT(std::min({white.r, white.g, white.b}), 150) << white.r << " " << white.g;
  EXPECT_LT(std::abs(white.r - white.b), 12);
  EXPECT_GT(undefined.r, 150);
  EXPECT_GT(undefined.b, 150);
  EXPECT_LT(undefined.g, 60);
  EXPECT_EQ(renderer.gl_error_count(), 0u);
}

}  // namespace
}  // namespace rig::render
