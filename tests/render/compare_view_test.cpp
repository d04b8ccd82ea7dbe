// The compare view: each column is exactly a single-method render with the column's camera and
// viewport (so columns cannot be swapped or squashed), the column aspect is analytic, and
// palettes are uploaded only for the methods drawn.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"
#include "skin/rotation_centers.h"
#include "skin/skin_layer.h"

namespace rig::render {
namespace {

using test::ChainJoint;

constexpr int kWidth = 320, kHeight = 240;
const glm::vec3 kBackground(0.2f, 0.4f, 0.6f);

using test::twisted_cylinder;

// A unit square in the XY plane centred on the origin, facing +Z, on one joint.
Model unit_square() {
  std::vector<ChainJoint> chain(1);
  const std::vector<glm::vec3> pos = {
      {-0.5f, -0.5f, 0.0f}, {0.5f, -0.5f, 0.0f}, {0.5f, 0.5f, 0.0f}, {-0.5f, 0.5f, 0.0f}};
  const std::vector<glm::vec3> nrm(4, glm::vec3(0, 0, 1));
  std::vector<uint16_t> ids(16, 0);
  std::vector<float> w = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  return test::chain_model(chain, pos, nrm, 4, ids, w, {0, 1, 2, 0, 2, 3});
}

// A renderer, a character at the rest pose (or `selection`) and a 320 x 240 target.
// The prepared meshes with their centres of rotation (no cache), so CoR columns are real CoR.
std::shared_ptr<const SkinLayer> meshes_with_centers(const Model& model) {
  auto meshes = std::make_shared<SkinMeshes>(prepare_skin_meshes(model));
  CorOptions options;
  options.use_cache = false;
  bool from_cache = false;
  EXPECT_TRUE(prepare_rotation_centers(model, *meshes, options, nullptr, nullptr, from_cache));
  return std::make_shared<const SkinLayer>(model, std::move(*meshes));
}

struct Scene {
  explicit Scene(const Model& m, const PoseSelection& selection = {})
      : model(m), character(m, meshes_with_centers(m)) {
    std::string error;
    EXPECT_TRUE(renderer.init(error)) << error;
    EXPECT_TRUE(renderer.set_model(model, character.shared_skin_layer(), error)) << error;
    EXPECT_TRUE(target.create(kWidth, kHeight, 1, error)) << error;
    character.evaluate(selection);
    renderer.update(character);
  }
  ~Scene() { glBindFramebuffer(GL_FRAMEBUFFER, 0); }
  std::vector<uint8_t> pixels() {
    std::vector<uint8_t> p;
    target.read_rgba(p);  // binds the default framebuffer: bind the target again
    target.bind();
    return p;
  }

  const Model& model;
  Character character;
  Renderer renderer;
  OffscreenTarget target;
  const Viewport viewport{0, 0, kWidth, kHeight};
};

// Pixels with any channel different, in columns [x0, x1).
size_t count_different(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b, int x0,
                       int x1) {
  size_t n = 0;
  for (int y = 0; y < kHeight; ++y)
    for (int x = x0; x < x1; ++x) {
      const size_t i = (size_t(y) * kWidth + x) * 4;
      if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ++n;
    }
  return n;
}

void expect_columns_are_single_renders(const std::vector<SkinningMethod>& methods) {
  // Twisted and bent: every pair of methods draws it differently (under a pure twist CoR and
  // DQS coincide; under the bend DQS bulges and CoR does not).
  const Model model = twisted_cylinder(glm::radians(170.0f), glm::radians(80.0f));
  Scene scene(model);
  // The mix half LBS, half DQS on every joint (β = 0.5): unlike every other method. (Its
  // default, every amount 0, would draw exactly LBS.)
  scene.character.set_dqs_amounts(std::vector<float>(model.nodes.size(), 0.5f));
  scene.renderer.update(scene.character);
  OrbitCamera orbit;
  orbit.frame(pose_bounds(scene.character));
  orbit.fit_width(scene.viewport.aspect() / float(methods.size()));
  const Camera camera = orbit.camera(scene.viewport.aspect());
  DrawOptions options;
  options.grid = false;
  scene.target.bind();
  scene.renderer.clear(scene.viewport, kBackground);
  scene.renderer.draw_compare(camera, scene.viewport, options, methods, false);
  const std::vector<uint8_t> split = scene.pixels();

  const int columns = int(methods.size());
  // Each table row's single render of every column, for the swap check below.
  std::vector<std::vector<std::vector<uint8_t>>> single(columns);
  for (int i = 0; i < columns; ++i) {
    const Viewport column = Renderer::compare_column(scene.viewport, i, columns);
    for (const SkinningMethodInfo& m : skinning_methods()) {
      DrawOptions o = options;
      o.method = m.method;
      scene.renderer.clear(scene.viewport, kBackground);
      scene.renderer.draw(camera.with_aspect(column.aspect()), column, o);
      single[i].push_back(scene.pixels());
    }
    // The divider covers 2 pixels around each inner edge: compared inside them.
    const int x0 = column.x + (i > 0 ? 2 : 0);
    const int x1 = column.x + column.width - (i + 1 < columns ? 2 : 0);
    SCOPED_TRACE("column " + std::to_string(i) + " " + method_info(methods[i]).label);
    EXPECT_EQ(count_different(split, single[i][size_t(methods[i])], x0, x1), 0u);
    // The other method draws this column differently, so a swap would be seen.
    for (const SkinningMethodInfo& m : skinning_methods()) {
      if (m.method == methods[i]) continue;
      EXPECT_GT(count_different(split, single[i][size_t(m.method)], x0, x1), 100u) << m.label;
    }
    // The column holds the model (not just background).
    EXPECT_GT(test::count_pixels_unlike(split, glm::ivec3(51, 102, 153), 3, x0, x1, kWidth), 500u);
  }
}

TEST(CompareView, EachColumnIsTheSingleMethodRenderOfItsColumn) {
  RIG_REQUIRE_GL();
  std::vector<SkinningMethod> table;  // every row, in table order (compare's default)
  for (const SkinningMethodInfo& m : skinning_methods()) table.push_back(m.method);
  expect_columns_are_single_renders(table);
}

TEST(CompareView, ThreeColumnsFollowTheGivenMethodList) {
  RIG_REQUIRE_GL();
  expect_columns_are_single_renders(
      {SkinningMethod::DualQuaternion, SkinningMethod::DualQuaternion, SkinningMethod::Linear});
}

TEST(CompareView, ColumnsSplitTheViewportIntoEqualParts) {
  const Viewport v{10, 20, 320, 240};
  for (int columns : {1, 2, 3, 7}) {
    int x = v.x;
    for (int i = 0; i < columns; ++i) {
      const Viewport c = Renderer::compare_column(v, i, columns);
      EXPECT_EQ(c.x, x);
      EXPECT_EQ(c.y, v.y);
      EXPECT_EQ(c.height, v.height);
      EXPECT_NEAR(c.width, double(v.width) / columns, 1.0);
      x += c.width;
    }
    EXPECT_EQ(x, v.x + v.width);
  }
}

// The layout the renderer draws with is the one picking uses: 1001 window pixels in four
// columns from x = 380 have edges at 380 + floor(1001·i/4) = 380, 630, 880, 1130, 1381 (the last
// column takes the odd pixel), and a point belongs to the column whose span holds it.
TEST(CompareView, PickingFindsTheColumnTheRendererDrawsThere) {
  const float edges[] = {380.0f, 630.0f, 880.0f, 1130.0f, 1381.0f};
  for (int i = 0; i < 4; ++i) {
    const ColumnSpan c = compare_column(380.0f, 1001.0f, i, 4);
    EXPECT_EQ(c.x, edges[i]);
    EXPECT_EQ(c.x + c.width, edges[i + 1]);
    EXPECT_EQ(compare_column_at(380.0f, 1001.0f, 4, edges[i]), i);             // left edge: in
    EXPECT_EQ(compare_column_at(380.0f, 1001.0f, 4, edges[i + 1] - 0.5f), i);  // just before next
  }
  EXPECT_EQ(compare_column_at(380.0f, 1001.0f, 4, 0.0f), 0);        // left of the views: clamped
  EXPECT_EQ(compare_column_at(380.0f, 1001.0f, 4, 5000.0f), 3);     // right of them
  const ColumnSpan single = compare_column(380.5f, 900.25f, 0, 1);  // one view: the whole span
  EXPECT_EQ(single.x, 380.5f);
  EXPECT_EQ(single.width, 900.25f);
  // The renderer's framebuffer columns are the same spans in whole pixels.
  const Viewport v{0, 0, 1001, 600};
  for (int i = 0; i < 4; ++i) {
    const Viewport c = Renderer::compare_column(v, i, 4);
    EXPECT_EQ(c.x, int(edges[i] - 380.0f));
    EXPECT_EQ(c.width, int(edges[i + 1] - edges[i]));
  }
}

// A unit square 4 units in front of a 45-degree camera spans 0.5 / (4 tan 22.5°) of the half
// height: 72.4 px of 240, in width too, in every column (a squashed column would be 36 px wide).
TEST(CompareView, ColumnsKeepTheVerticalFieldOfViewWithTheirOwnAspect) {
  RIG_REQUIRE_GL();
  const Model model = unit_square();
  Scene scene(model);
  OrbitCamera orbit;
  orbit.yaw = 0.0f;
  orbit.pitch = 0.0f;
  orbit.distance = 4.0f;
  orbit.scene_radius = 1.0f;
  const double expected = 0.5 / (4.0 * std::tan(0.5 * double(orbit.fov_y))) * kHeight;
  DrawOptions options;
  options.grid = false;
  for (int columns : {1, 2, 3}) {
    SCOPED_TRACE(std::to_string(columns) + " columns");
    const std::vector<SkinningMethod> methods(size_t(columns), SkinningMethod::Linear);
    scene.target.bind();
    scene.renderer.clear(scene.viewport, kBackground);
    scene.renderer.draw_compare(orbit.camera(scene.viewport.aspect()), scene.viewport, options,
                                methods, false);
    const std::vector<uint8_t> image = scene.pixels();
    for (int i = 0; i < columns; ++i) {
      const Viewport c = Renderer::compare_column(scene.viewport, i, columns);
      int x_min = kWidth, x_max = -1, y_min = kHeight, y_max = -1;
      for (int y = 0; y < kHeight; ++y)
        for (int x = c.x + 2; x < c.x + c.width - 2; ++x) {
          const uint8_t* p = &image[(size_t(y) * kWidth + x) * 4];
          if (std::abs(p[0] - 51) + std::abs(p[1] - 102) + std::abs(p[2] - 153) <= 6) continue;
          x_min = std::min(x_min, x);
          x_max = std::max(x_max, x);
          y_min = std::min(y_min, y);
          y_max = std::max(y_max, y);
        }
      EXPECT_NEAR(x_max - x_min + 1, expected, 2.0) << "column " << i;
      EXPECT_NEAR(y_max - y_min + 1, expected, 2.0) << "column " << i;
      // Centred in its column.
      EXPECT_NEAR(0.5 * (x_min + x_max + 1), c.x + 0.5 * c.width, 1.5) << "column " << i;
    }
  }
}

TEST(PaletteUploads, OnlyDrawnMethodsAreAskedForAndUploaded) {
  RIG_REQUIRE_GL();
  const Model model = twisted_cylinder(glm::radians(90.0f));
  Scene scene(model);  // update() done: every palette stale, none uploaded since
  const uint64_t lbs0 = scene.renderer.palette_uploads(SkinningMethod::Linear);
  const uint64_t dqs0 = scene.renderer.palette_uploads(SkinningMethod::DualQuaternion);
  auto uploads = [&](SkinningMethod m) {
    return scene.renderer.palette_uploads(m) - (m == SkinningMethod::Linear ? lbs0 : dqs0);
  };
  OrbitCamera orbit;
  orbit.frame(pose_bounds(scene.character));
  const Camera camera = orbit.camera(scene.viewport.aspect());
  DrawOptions options;
  scene.target.bind();
  scene.renderer.draw(camera, scene.viewport, options);  // LBS only: one skin
  EXPECT_EQ(uploads(SkinningMethod::Linear), 1u);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 0u);
  scene.renderer.draw(camera, scene.viewport, options);  // still current: no second upload
  std::vector<glm::vec3> p(model.meshes[0].primitives[0].vertex_count()), n(p.size());
  std::string error;
  ASSERT_TRUE(scene.renderer.read_back_skinned(0, SkinningMethod::Linear, p, n, error)) << error;
  EXPECT_EQ(uploads(SkinningMethod::Linear), 1u);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 0u);
  const SkinningMethod both[] = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
  scene.renderer.draw_compare(camera, scene.viewport, options, both, false);
  EXPECT_EQ(uploads(SkinningMethod::Linear), 1u);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 1u);
  // A new frame: nothing until drawn; update(character, methods) uploads those at once.
  scene.renderer.update(scene.character);
  EXPECT_EQ(uploads(SkinningMethod::Linear), 1u);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 1u);
  const SkinningMethod dqs[] = {SkinningMethod::DualQuaternion};
  scene.renderer.update(scene.character, dqs);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 2u);
  options.method = SkinningMethod::DualQuaternion;
  scene.renderer.draw(camera, scene.viewport, options);
  EXPECT_EQ(uploads(SkinningMethod::Linear), 1u);
  EXPECT_EQ(uploads(SkinningMethod::DualQuaternion), 2u);
  EXPECT_EQ(scene.renderer.gl_error_count(), 0u);
}

// A palette uploaded lazily is the one of the pose given to update(): the read-back after a
// DQS-only frame matches the CPU reference for both methods.
TEST(PaletteUploads, LazyPalettesFollowTheLatestUpdate) {
  RIG_REQUIRE_GL();
  const Model model = twisted_cylinder(glm::radians(120.0f));
  Scene scene(model);
  std::vector<glm::vec3> gp(model.meshes[0].primitives[0].vertex_count()), gn(gp.size()),
      cp(gp.size()), cn(gp.size());
  std::string error;
  for (SkinningMethod m : {SkinningMethod::DualQuaternion, SkinningMethod::Linear}) {
    ASSERT_TRUE(scene.renderer.read_back_skinned(0, m, gp, gn, error)) << error;
    scene.character.skin_draw_item(model.draws[0], m, cp, cn);
    float worst = 0.0f;
    for (size_t v = 0; v < gp.size(); ++v) worst = std::max(worst, glm::length(gp[v] - cp[v]));
    EXPECT_LT(worst, 1e-5f) << method_info(m).label;
  }
}

}  // namespace
}  // namespace rig::render

namespace rig::render {
namespace {

// CPU skinning (Learn mode's Mistakes): the character's own CPU skinning uploaded with
// upload_cpu_skinned and drawn with DrawOptions::cpu_skinned gives the GPU's LBS picture (up to
// the edge pixels where float rounding of the two skinning paths differs); vertices scaled 1.2
// times about the origin draw differently; with CPU skinning off the flag draws on the GPU.
TEST(CpuSkinning, UploadedCharacterVerticesDrawLikeTheGpuSkinning) {
  RIG_REQUIRE_GL();
  const Model model = test::twisted_cylinder(glm::radians(90.0f), glm::radians(40.0f));
  Scene scene(model);
  OrbitCamera orbit;
  orbit.frame(pose_bounds(scene.character));
  const Camera camera = orbit.camera(scene.viewport.aspect());
  DrawOptions options;
  options.grid = false;
  scene.target.bind();
  auto render = [&](bool cpu) {
    DrawOptions o = options;
    o.cpu_skinned = cpu;
    scene.renderer.clear(scene.viewport, kBackground);
    scene.renderer.draw(camera, scene.viewport, o);
    return scene.pixels();
  };
  const std::vector<uint8_t> gpu = render(false);
  EXPECT_EQ(count_different(gpu, render(true), 0, kWidth), 0u);  // off: still the GPU's
  scene.renderer.set_cpu_skinning(true);
  ASSERT_TRUE(scene.renderer.cpu_skinning());
  auto upload = [&](float scale) {
    for (size_t d = 0; d < model.draws.size(); ++d) {
      const Primitive& prim =
          model.meshes[size_t(model.draws[d].mesh)].primitives[size_t(model.draws[d].primitive)];
      std::vector<glm::vec3> p(prim.vertex_count()), n(prim.vertex_count());
      scene.character.skin_draw_item(model.draws[d], SkinningMethod::Linear, p, n);
      for (glm::vec3& v : p) v *= scale;
      scene.renderer.upload_cpu_skinned(d, p, n);
    }
  };
  upload(1.0f);
  const std::vector<uint8_t> cpu = render(true);
  EXPECT_GT(test::count_pixels_unlike(cpu, glm::ivec3(51, 102, 153), 3, 0, kWidth, kWidth), 500u);
  EXPECT_LT(count_different(gpu, cpu, 0, kWidth), size_t(kWidth * kHeight / 100));
  upload(1.2f);
  EXPECT_GT(count_different(gpu, render(true), 0, kWidth), 500u);
  scene.renderer.set_cpu_skinning(false);
  EXPECT_EQ(count_different(gpu, render(true), 0, kWidth), 0u);
}

}  // namespace
}  // namespace rig::render
