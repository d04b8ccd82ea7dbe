// Bounds helpers, auto-framing, the GPU timer and the overlay toggles.
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
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
  return test::box_on_chain(chain, {0, 1, 3, 0, 3, 2, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4,
                                    2, 3, 7, 2, 7, 6, 0, 2, 6, 0, 6, 4, 1, 3, 7, 1, 7, 5});
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

bool contains(const Bounds& outer, const Bounds& inner, float eps = 1e-5f) {
  return glm::all(glm::lessThanEqual(outer.min, inner.min + eps)) &&
         glm::all(glm::greaterThanEqual(outer.max, inner.max - eps));
}

// A joint that only translates moves its bind box exactly: the joint-box bounds are the exact
// skinned box.
TEST(Bounds, PosedJointBoxesOfATranslatedJointAreExact) {
  const Model model = shifted_box();
  Character character(model);
  character.evaluate(PoseSelection{});
  const Bounds b =
      posed_bounds(model, bind_boxes(model, character.skin_meshes()), character.world());
  EXPECT_NEAR(b.min.x, 9.0f, 1e-6f);
  EXPECT_NEAR(b.max.x, 11.0f, 1e-6f);
  EXPECT_NEAR(b.min.y, 0.0f, 1e-6f);
  EXPECT_NEAR(b.max.y, 1.0f, 1e-6f);
  EXPECT_NEAR(b.min.z, -0.25f, 1e-6f);
  EXPECT_NEAR(b.max.z, 0.25f, 1e-6f);
  // The rest pose without a Character: the same.
  const Bounds rest =
      posed_bounds(model, bind_boxes(model, character.skin_meshes()), rest_world_matrices(model));
  EXPECT_EQ(rest.min, b.min);
  EXPECT_EQ(rest.max, b.max);
}

// A box rotated 45° about Y: the moved box is the AABB of the rotated corners, which here is
// also the exact skinned box (the corners are vertices).
TEST(Bounds, TransformedBoxIsTheBoxOfTheMovedCorners) {
  Bounds b;
  b.add(glm::vec3(-1.0f, 0.0f, -0.25f));
  b.add(glm::vec3(1.0f, 1.0f, 0.25f));
  const glm::mat4 m = glm::rotate(glm::translate(glm::mat4(1.0f), glm::vec3(0, 2, 0)),
                                  glm::radians(45.0f), glm::vec3(0, 1, 0));
  const Bounds t = transform_bounds(m, b);
  const float h = std::sqrt(0.5f) * 1.25f;  // (1 + 0.25) / sqrt(2)
  EXPECT_NEAR(t.min.x, -h, 1e-5f);
  EXPECT_NEAR(t.max.x, h, 1e-5f);
  EXPECT_NEAR(t.min.z, -h, 1e-5f);
  EXPECT_NEAR(t.max.z, h, 1e-5f);
  EXPECT_NEAR(t.min.y, 2.0f, 1e-6f);
  EXPECT_NEAR(t.max.y, 3.0f, 1e-6f);
  EXPECT_FALSE(transform_bounds(m, Bounds{}).valid());
}

// Morph targets widen the boxes by their deltas (rigid item: the node's world matrix applies).
TEST(Bounds, MorphTargetDeltasWidenTheBindBoxes) {
  Model model = shifted_box();
  model.draws[0].skin = -1;
  model.nodes[0].skin = -1;
  MorphTarget target;
  target.positions.assign(8, glm::vec3(0.0f));
  target.positions[7] = glm::vec3(0.0f, 2.0f, 0.0f);
  target.positions[0] = glm::vec3(-0.5f, 0.0f, 0.0f);
  model.meshes[0].primitives[0].targets.push_back(target);
  const BindBoxes boxes = bind_boxes(model, prepare_skin_meshes(model));
  ASSERT_EQ(boxes.item.size(), 1u);
  EXPECT_FALSE(boxes.item_skinned[0]);
  EXPECT_NEAR(boxes.item[0].max.y, 3.0f, 1e-6f);   // vertex 7 at y 1, + 2
  EXPECT_NEAR(boxes.item[0].min.x, -1.5f, 1e-6f);  // vertex 0 at x -1, - 0.5
  std::vector<glm::mat4> world(model.nodes.size(), glm::mat4(1.0f));
  world[0] = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 5));
  const Bounds b = posed_bounds(model, boxes, world);
  EXPECT_NEAR(b.min.z, 4.75f, 1e-6f);
  EXPECT_NEAR(b.max.y, 3.0f, 1e-6f);
}

// An animal animated by whole-body morph targets: ten targets each lifting the top corner by 2,
// one of them on. The cheap bounds widen by all ten (1 + 10 × 2 = 21 high) and frame it tiny;
// the exact ones hold the shape as it is drawn (1 + 2 = 3).
TEST(Bounds, ExactClipBoundsApplyTheMorphWeightsInsteadOfEveryTarget) {
  Model model = shifted_box();
  model.draws[0].skin = -1;
  model.nodes[0].skin = -1;
  MorphTarget target;
  target.positions.assign(8, glm::vec3(0.0f));
  target.positions[7] = glm::vec3(0.0f, 2.0f, 0.0f);
  model.meshes[0].primitives[0].targets.assign(10, target);
  model.meshes[0].default_weights.assign(10, 0.0f);
  model.nodes[0].morph_offset = 0;
  model.nodes[0].morph_count = 10;
  model.morph_weight_count = 10;
  model.rest_morph_weights.assign(10, 0.0f);
  model.rest_morph_weights[3] = 1.0f;
  ASSERT_TRUE(has_morph_targets(model));
  EXPECT_FALSE(has_morph_targets(shifted_box()));
  Character character(model);
  const Bounds exact = exact_clip_bounds(character, PoseSelection{});
  ASSERT_TRUE(exact.valid());
  EXPECT_NEAR(exact.max.y, 3.0f, 1e-5f);
  EXPECT_NEAR(exact.min.y, 0.0f, 1e-5f);
  EXPECT_NEAR(exact.max.x, 1.0f, 1e-5f);
  EXPECT_NEAR(clip_bounds(character, PoseSelection{}).max.y, 21.0f, 1e-5f);
}

// Framing a clip from joint boxes: it holds the exact skinned bounds of every sampled pose, is
// not much larger, and leaves the character at the selection.
TEST(Bounds, ClipBoundsHoldEverySampledPoseAndLeaveTheCharacterAtTheSelection) {
  Model model;
  std::string error;
  ASSERT_TRUE(
      import_gltf((std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets" / "mannequin.glb").string(),
                  model, error))
      << error;
  ASSERT_FALSE(model.clips.empty());
  Character character(model);
  for (int c = 0; c < int(model.clips.size()); ++c) {
    SCOPED_TRACE(model.clips[c].name);
    PoseSelection selection;
    selection.clip = c;
    selection.time = model.clips[c].start;
    const Bounds framed = clip_bounds(character, selection, 24);
    const std::vector<glm::mat4> world(character.world().begin(), character.world().end());
    Bounds exact;
    for (int i = 0; i < 24; ++i) {
      PoseSelection s = selection;
      s.time =
          model.clips[c].start + (model.clips[c].end - model.clips[c].start) * float(i) / 23.0f;
      character.evaluate(s);
      const Bounds pose = pose_bounds(character);
      EXPECT_TRUE(contains(framed, pose)) << i;
      exact.add(pose);
    }
    EXPECT_LT(framed.diagonal(), 1.25f * exact.diagonal());
    // The character was left evaluated at `selection`.
    character.evaluate(selection);
    for (size_t n = 0; n < world.size(); ++n) EXPECT_EQ(world[n], character.world()[n]) << n;
  }
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
  // The highlight is a round point 1.8 x the 5 px marker (viewport height 120 / 120, clamped
  // to 5): a disk of diameter 9 covers pi 4.5^2 = 63.6 pixel centres, give or take its rim.
  EXPECT_NEAR(double(differing(a, b)), 3.14159 * 4.5 * 4.5, 8.0);
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
