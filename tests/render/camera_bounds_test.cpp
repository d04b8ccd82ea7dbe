// Bounds helpers, auto-framing, the GPU timer and the overlay toggles.
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

// A 2 x 1 x 0.5 box's eight corners, skinned to one joint translated by (10, 0, 0).
Model shifted_box() {
  std::vector<ChainJoint> chain(1);
  chain[0].translation = glm::vec3(10.0f, 0.0f, 0.0f);
  std::vector<glm::vec3> pos, nrm;
  std::vector<uint16_t> ids;
  std::vector<float> w;
  for (int i = 0; i < 8; ++i) {
    pos.push_back(glm::vec3(i & 1 ? 1.0f : -1.0f, i & 2 ? 1.0f : 0.0f, i & 4 ? 0.25f : -0.25f));
    nrm.push_back(glm::vec3(0, 1, 0));
    ids.insert(ids.end(), {0, 0, 0, 0});
    w.insert(w.end(), {1.0f, 0.0f, 0.0f, 0.0f});
  }
  std::vector<uint32_t> idx = {0, 1, 3, 0, 3, 2, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                               2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 3, 7, 1, 7, 5};
  return test::chain_model(chain, pos, nrm, 4, ids, w, idx);
}

TEST(Bounds, PoseBoundsAreTheSkinnedWorldBox) {
  const Model model = shifted_box();
  Character character(model);
  character.evaluate(PoseSelection{});
  const Bounds b = pose_bounds(character);
  ASSERT_TRUE(b.valid());
  EXPECT_NEAR(b.min.x, 9.0f, 1e-6f);
  EXPECT_NEAR(b.max.x, 11.0f, 1e-6f);
  EXPECT_NEAR(b.min.y, 0.0f, 1e-6f);
  EXPECT_NEAR(b.max.y, 1.0f, 1e-6f);
  EXPECT_NEAR(b.min.z, -0.25f, 1e-6f);
  EXPECT_NEAR(b.max.z, 0.25f, 1e-6f);
  EXPECT_NEAR(b.diagonal(), std::sqrt(4.0f + 1.0f + 0.25f), 1e-5f);
  EXPECT_FALSE(Bounds{}.valid());
}

TEST(Camera, FramedBoundsProjectInsideTheViewWithSaneDepthRange) {
  Bounds b;
  b.add(glm::vec3(9.0f, 0.0f, -0.25f));
  b.add(glm::vec3(11.0f, 1.0f, 0.25f));
  OrbitCamera orbit;
  orbit.frame(b);
  const Camera cam = orbit.camera(16.0f / 9.0f);
  for (int i = 0; i < 8; ++i) {
    const glm::vec3 corner(i & 1 ? b.max.x : b.min.x, i & 2 ? b.max.y : b.min.y,
                           i & 4 ? b.max.z : b.min.z);
    const glm::vec4 clip = cam.projection * cam.view * glm::vec4(corner, 1.0f);
    ASSERT_GT(clip.w, 0.0f);
    const glm::vec3 ndc = glm::vec3(clip) / clip.w;
    EXPECT_LT(std::abs(ndc.x), 1.0f) << i;
    EXPECT_LT(std::abs(ndc.y), 1.0f) << i;
    EXPECT_GT(ndc.z, -1.0f) << i;  // beyond the near plane
    EXPECT_LT(ndc.z, 1.0f) << i;   // before the far plane
  }
  // far / near from the projection: P[2][2] = -(f+n)/(f-n), P[3][2] = -2fn/(f-n).
  const float a = cam.projection[2][2], c = cam.projection[3][2];
  const float near_plane = c / (a - 1.0f), far_plane = c / (a + 1.0f);
  EXPECT_GT(near_plane, 0.0f);
  EXPECT_LT(far_plane / near_plane, 1000.0f);
}

TEST(Camera, FitWidthBacksOffOnlyForViewsNarrowerThanTall) {
  OrbitCamera orbit;
  orbit.fov_y = glm::radians(90.0f);
  Bounds b;
  b.add(glm::vec3(-3.0f, -4.0f, 0.0f));
  b.add(glm::vec3(3.0f, 4.0f, 0.0f));  // radius 5
  orbit.frame(b);
  // Vertical fit: 5 / sin(45°) x 1.05 margin.
  EXPECT_NEAR(orbit.distance, 5.0f / std::sqrt(0.5f) * 1.05f, 1e-4f);
  const float vertical = orbit.distance;
  orbit.fit_width(16.0f / 9.0f);  // wider than tall: the vertical fit already holds
  EXPECT_EQ(orbit.distance, vertical);
  // Aspect 1/2: tan(half fov x) = 1/2, sin(half fov x) = 1/sqrt(5).
  orbit.fit_width(0.5f);
  EXPECT_NEAR(orbit.distance, 5.0f * std::sqrt(5.0f) * 1.05f, 1e-4f);
  const float narrow = orbit.distance;
  orbit.fit_width(0.8f);  // never moves closer
  EXPECT_EQ(orbit.distance, narrow);
}

TEST(Skeleton, SkinJointNodesListEachJointNodeOnceInSkinOrder) {
  Model m;
  m.nodes.resize(5);
  m.skins.resize(2);
  m.skins[0].joints = {3, 1};
  m.skins[1].joints = {1, 4, 7, -1};  // 1 shared with skin 0; 7 and -1 are no nodes
  const SkinJointNodes joints = skin_joint_nodes(m);
  EXPECT_EQ(joints.nodes, (std::vector<int>{3, 1, 4}));
  EXPECT_EQ(joints.slot_of_node, (std::vector<int>{-1, 1, -1, 0, 2}));
  EXPECT_TRUE(skin_joint_nodes(Model{}).nodes.empty());
}

std::vector<uint8_t> draw_box(const DrawOptions& options, Renderer* timed = nullptr) {
  const Model model = shifted_box();
  std::string error;
  Renderer local;
  Renderer& renderer = timed ? *timed : local;
  EXPECT_TRUE(renderer.init(error)) << error;
  EXPECT_TRUE(renderer.set_model(model, error)) << error;
  Character character(model);
  character.evaluate(PoseSelection{});
  renderer.update(character);
  OrbitCamera orbit;
  orbit.frame(pose_bounds(character));
  OffscreenTarget target;
  EXPECT_TRUE(target.create(160, 120, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 160, 120};
  renderer.begin_gpu_timer();
  renderer.clear(viewport, glm::vec3(0.0f));
  renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
  renderer.end_gpu_timer();
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return pixels;
}

size_t differing(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = 0;
  for (size_t i = 0; i + 3 < a.size(); i += 4)
    if (a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2]) ++n;
  return n;
}

TEST(Overlays, WireframeAndGridEachChangeTheImage) {
  RIG_REQUIRE_GL();
  DrawOptions plain;
  plain.grid = false;
  DrawOptions wire = plain;
  wire.wireframe = true;
  DrawOptions grid = plain;
  grid.grid = true;
  const std::vector<uint8_t> a = draw_box(plain), b = draw_box(wire), c = draw_box(grid);
  EXPECT_GT(differing(a, b), 50u);
  EXPECT_GT(differing(a, c), 50u);
}

TEST(Overlays, SelectedJointIsHighlighted) {
  RIG_REQUIRE_GL();
  DrawOptions bones;
  bones.grid = false;
  bones.skeleton = true;
  DrawOptions selected = bones;
  selected.selected_joint_node = 1;  // the box's only joint
  DrawOptions other = bones;
  other.selected_joint_node = 0;  // the mesh node: not a joint, nothing to highlight
  const std::vector<uint8_t> a = draw_box(bones), b = draw_box(selected), c = draw_box(other);
  EXPECT_GT(differing(a, b), 20u);
  EXPECT_EQ(differing(a, c), 0u);
}

TEST(GpuTimer, ReportsAnElapsedTimeOnceQueriesFinish) {
  RIG_REQUIRE_GL();
  Renderer renderer;
  EXPECT_LT(renderer.gpu_time_ms(), 0.0);
  DrawOptions options;
  draw_box(options, &renderer);
  glFinish();
  renderer.begin_gpu_timer();  // collects the finished query
  renderer.end_gpu_timer();
  EXPECT_GE(renderer.gpu_time_ms(), 0.0);
}

}  // namespace
}  // namespace rig::render
