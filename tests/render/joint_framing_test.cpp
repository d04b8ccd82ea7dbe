// Framing the joints a rig-doctor finding names (render::skin_joints_bounds), checked against
// boxes computed by hand from the synthetic model's numbers, and their highlight in the skeleton
// overlay (DrawOptions::highlighted_joint_nodes).
#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "character/character.h"
#include "render/camera.h"
#include "render/offscreen.h"
#include "render/renderer.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

using test::ChainJoint;

// Joint 0 at (10, 0, 0) carries a 2 x 1 x 0.5 box (x -1..1, y 0..1, z -0.25..0.25, identity
// inverse bind matrices); joint 1, its child at (0, 5, 0) (world (10, 5, 0)), moves no vertex.
Model box_and_bare_joint() {
  std::vector<ChainJoint> chain(2);
  chain[0].translation = glm::vec3(10.0f, 0.0f, 0.0f);
  chain[1].translation = glm::vec3(0.0f, 5.0f, 0.0f);
  return test::box_on_chain(chain, {0, 1, 3, 0, 3, 2});
}

void expect_box(const Bounds& b, glm::vec3 min, glm::vec3 max) {
  ASSERT_TRUE(b.valid());
  for (int a = 0; a < 3; ++a) {
    EXPECT_NEAR(b.min[a], min[a], 1e-5f) << "min axis " << a;
    EXPECT_NEAR(b.max[a], max[a], 1e-5f) << "max axis " << a;
  }
}

TEST(JointFraming, TheJointsBoxesMovedByTheirSkinningMatricesPlusBareJointPositions) {
  const Model model = box_and_bare_joint();
  Character character(model);
  character.evaluate(PoseSelection{});
  const BindBoxes boxes = bind_boxes(model, character.skin_meshes());

  // Joint 0 alone: its bind box moved by (10, 0, 0); every axis already wider than the minimum.
  const int first[] = {0};
  expect_box(skin_joints_bounds(model, boxes, character, 0, first), {9.0f, 0.0f, -0.25f},
             {11.0f, 1.0f, 0.25f});

  // Both: the bare joint adds its world position (10, 5, 0).
  const int both[] = {0, 1};
  expect_box(skin_joints_bounds(model, boxes, character, 0, both), {9.0f, 0.0f, -0.25f},
             {11.0f, 5.0f, 0.25f});

  // The bare joint alone is a point, widened to ± a tenth of the rest size on every axis: the
  // rest size is the bind box's radius, half its diagonal sqrt(2² + 1² + 0.5²).
  const float r = 0.1f * 0.5f * std::sqrt(4.0f + 1.0f + 0.25f);
  const int bare[] = {1};
  expect_box(skin_joints_bounds(model, boxes, character, 0, bare), {10.0f - r, 5.0f - r, -r},
             {10.0f + r, 5.0f + r, r});

  // Out-of-range indices are skipped; nothing in range gives no bounds.
  const int mixed[] = {-1, 0, 7};
  expect_box(skin_joints_bounds(model, boxes, character, 0, mixed), {9.0f, 0.0f, -0.25f},
             {11.0f, 1.0f, 0.25f});
  const int none[] = {5};
  EXPECT_FALSE(skin_joints_bounds(model, boxes, character, 0, none).valid());
  EXPECT_FALSE(skin_joints_bounds(model, boxes, character, 3, first).valid());
}

// Framing those bounds: the orbit camera looks at their centre.
TEST(JointFraming, TheFramedCameraTargetsTheJointsCentre) {
  const Model model = box_and_bare_joint();
  Character character(model);
  character.evaluate(PoseSelection{});
  const BindBoxes boxes = bind_boxes(model, character.skin_meshes());
  const int both[] = {0, 1};
  OrbitCamera camera;
  camera.frame(skin_joints_bounds(model, boxes, character, 0, both));
  EXPECT_NEAR(camera.target.x, 10.0f, 1e-5f);
  EXPECT_NEAR(camera.target.y, 2.5f, 1e-5f);
  EXPECT_NEAR(camera.target.z, 0.0f, 1e-5f);
  // The bounding sphere (radius half the diagonal of 2 x 5 x 0.5) fills the vertical field of
  // view with frame()'s 5 % margin.
  const float radius = 0.5f * std::sqrt(4.0f + 25.0f + 0.25f);
  EXPECT_NEAR(camera.distance, radius / std::sin(0.5f * camera.fov_y) * 1.05f, 1e-4f);
}

// The model framed on both joints, skeleton only, 160 x 120.
std::vector<uint8_t> draw_skeleton(const DrawOptions& options) {
  const Model model = box_and_bare_joint();
  std::string error;
  test::RendererWithModel setup(model);
  Renderer& renderer = setup.renderer;
  const Character& character = setup.character;
  const int both[] = {0, 1};
  OrbitCamera orbit;
  orbit.frame(
      skin_joints_bounds(model, bind_boxes(model, character.skin_meshes()), character, 0, both));
  OffscreenTarget target;
  EXPECT_TRUE(target.create(160, 120, 1, error)) << error;
  target.bind();
  const Viewport viewport{0, 0, 160, 120};
  renderer.clear(viewport, glm::vec3(0.0f));
  renderer.draw(orbit.camera(viewport.aspect()), viewport, options);
  std::vector<uint8_t> pixels;
  target.read_rgba(pixels);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return pixels;
}

size_t differing(const std::vector<uint8_t>& a, const std::vector<uint8_t>& b) {
  size_t n = 0;
  for (size_t i = 0; i + 3 < a.size(); i += 4)
    n += a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2];
  return n;
}

TEST(JointFraming, AFindingsOtherJointsGetASmallerHighlight) {
  RIG_REQUIRE_GL();
  DrawOptions bones;
  bones.grid = false;
  bones.surfaces = false;
  bones.skeleton = true;
  bones.selected_joint_node = 1;  // joint 0
  const int top[] = {2};          // joint 1's node, at (10, 5, 0)
  DrawOptions highlighted = bones;
  highlighted.highlighted_joint_nodes = top;
  const int selected_or_not_a_joint[] = {1, 0};  // the selection itself; the mesh node
  DrawOptions nothing_more = bones;
  nothing_more.highlighted_joint_nodes = selected_or_not_a_joint;
  const std::vector<uint8_t> a = draw_skeleton(bones), b = draw_skeleton(highlighted),
                             c = draw_skeleton(nothing_more);
  // A round point 1.4 x the 5 px marker (viewport height 120 / 120, clamped to 5): a disk of
  // diameter 7 covers pi 3.5^2 = 38.5 pixel centres, give or take its rim.
  EXPECT_NEAR(double(differing(a, b)), 3.14159 * 3.5 * 3.5, 8.0);
  EXPECT_EQ(differing(a, c), 0u);
}

// "Select and frame it" frames the joint with its parent and children: joint 1 (node 2) of a
// chain whose joint 0 carries the box at (10, 0, 0) and whose joints 1, 2 sit bare at
// (10, 5, 0) and (10, 6, 0). Framed alone, joint 1 would be a point widened to ± a tenth of the
// rest size; with its neighbours it spans the box up to its child.
TEST(JointFraming, AJointIsFramedWithItsParentAndChildren) {
  std::vector<ChainJoint> chain(3);
  chain[0].translation = glm::vec3(10.0f, 0.0f, 0.0f);
  chain[1].translation = glm::vec3(0.0f, 5.0f, 0.0f);
  chain[2].translation = glm::vec3(0.0f, 1.0f, 0.0f);
  const Model model = test::box_on_chain(chain, {0, 1, 3, 0, 3, 2});
  Character character(model);
  character.evaluate(PoseSelection{});
  const BindBoxes boxes = bind_boxes(model, character.skin_meshes());

  expect_box(joint_neighbourhood_bounds(model, boxes, character, 2), {9.0f, 0.0f, -0.25f},
             {11.0f, 6.0f, 0.25f});
  // The leaf joint 2 (node 3): itself and its parent, two points 1 apart on y, widened on x
  // and z to ± a tenth of the rest size (half the box's diagonal sqrt(2² + 1² + 0.5²)).
  const float r = 0.1f * 0.5f * std::sqrt(4.0f + 1.0f + 0.25f);
  expect_box(joint_neighbourhood_bounds(model, boxes, character, 3), {10.0f - r, 5.0f, -r},
             {10.0f + r, 6.0f, r});
  EXPECT_FALSE(joint_neighbourhood_bounds(model, boxes, character, 99).valid());
}

}  // namespace
}  // namespace rig::render
