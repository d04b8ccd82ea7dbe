// PoseBuilder (character/pose_builder.h): the one function from PoseSettings to a pose, for the
// command line and the viewer. On a model built in code whose root walks known straight lines,
// the expectations are worked out by hand from the clips' keys: the root-motion rule (every
// sampled clip, layers and additive references included, is made in place; the base alone puts
// the walk back), the FK edits' place in the order (after the layers, before the placement and
// the constraints), and that a builder edited step by step (the viewer) poses exactly as a
// fresh one (the command line).
#include "character/pose_builder.h"

#include <gtest/gtest.h>

#include <cmath>

#include "anim/root_motion.h"
#include "character/character.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

// root (0,1,0) ─ hips (0,0.5,0) ─ arm (1,0,0). Clip 0 "walk x": the root goes from (0,1,0) at
// t=0 to (2,1,0) at t=1. Clip 1 "walk z": from (5,1,0) to (5,1,3). Clip 2 "bend": hips turn
// 0 → 90° about z.
Model walker() {
  Model m;
  const int root = add_node(m, "root", -1, {0, 1, 0});
  const int hips = add_node(m, "hips", root, {0, 0.5f, 0});
  add_node(m, "arm", hips, {1, 0, 0});
  m.clips.push_back(test::make_clip({test::vec3_channel(
      root, TargetPath::Translation, {0, 1}, {{0, 1, 0}, {2, 1, 0}}, Interpolation::Linear)}));
  m.clips.push_back(test::make_clip({test::vec3_channel(
      root, TargetPath::Translation, {0, 1}, {{5, 1, 0}, {5, 1, 3}}, Interpolation::Linear)}));
  m.clips.push_back(test::make_clip(
      {test::rotation_channel(hips, {0, 1}, {glm::quat(1, 0, 0, 0), axis_angle({0, 0, 1}, 90)})}));
  return m;
}

constexpr int kRoot = 0, kHips = 1, kArm = 2;
constexpr int kWalkX = 0, kWalkZ = 1, kBend = 2;

glm::vec3 root_translation(const Character& c) { return c.pose().local[kRoot].translation; }
glm::vec3 world_position(const Character& c, int node) { return glm::vec3(c.world()[node][3]); }

void expect_near(glm::vec3 got, glm::vec3 want, const char* what) {
  EXPECT_NEAR(got.x, want.x, 1e-5f) << what;
  EXPECT_NEAR(got.y, want.y, 1e-5f) << what;
  EXPECT_NEAR(got.z, want.z, 1e-5f) << what;
}

PoseSettings walk_x_at_half() {
  PoseSettings s;
  s.base = {kWalkX, 0.5f};
  return s;
}

TEST(PoseBuilder, InPlaceHoldsTheRootOfAnOverrideLayerToo) {
  const Model m = walker();
  Character c(m);
  PoseBuilder builder(c);
  PoseSettings s = walk_x_at_half();
  s.root_motion = RootMotionMode::InPlace;
  s.layers.push_back({kWalkZ, 0.5f, false, 0.5f, {}});
  builder.build(s);
  // walk x in place: (0,1,0); walk z in place: (5,1,0), not (5,1,1.5); halfway between.
  expect_near(root_translation(c), {2.5f, 1, 0}, "override layer at 0.5");
  s.layers[0].weight = 1.0f;
  builder.build(s);
  expect_near(root_translation(c), {5, 1, 0}, "override layer at 1");
}

TEST(PoseBuilder, ExtractPutsTheBaseWalkBackAndAnAdditiveLayerAddsNoWalk) {
  const Model m = walker();
  Character c(m);
  PoseBuilder builder(c);
  PoseSettings s = walk_x_at_half();
  s.root_motion = RootMotionMode::Extract;
  s.layers.push_back({kWalkZ, 1.0f, true, 0.5f, {}});
  builder.build(s);
  // In place (0,1,0); walk z's difference from its first frame, both in place: 0; the base's
  // walk from t=0 to t=0.5 put back: +(1,0,0).
  expect_near(root_translation(c), {1, 1, 0}, "additive layer, extract");
  // A placement given by the caller (the viewer's accumulated walk) replaces the default one.
  s.placement = RigidMotion{{3, 0, 4}, 0.0f};
  builder.build(s);
  expect_near(root_translation(c), {3, 1, 4}, "given placement");
}

TEST(PoseBuilder, CrossfadeTargetIsInPlaceToo) {
  const Model m = walker();
  Character c(m);
  PoseBuilder builder(c);
  PoseSettings s = walk_x_at_half();
  s.base.blend_clip = kWalkZ;
  s.base.blend_time = 0.25f;
  s.base.blend_weight = 0.5f;
  s.root_motion = RootMotionMode::InPlace;
  builder.build(s);
  expect_near(root_translation(c), {2.5f, 1, 0}, "crossfade in place");
  s.root_motion = RootMotionMode::Keep;  // as authored: (1,1,0) and (5,1,0.75)
  builder.build(s);
  expect_near(root_translation(c), {3, 1, 0.375f}, "crossfade kept");
}

TEST(PoseBuilder, FkEditsComeAfterTheLayersAndBeforeThePlacement) {
  const Model m = walker();
  Character c(m);
  PoseBuilder builder(c);
  PoseSettings s;  // the rest pose: root (0,1,0), hips (0,1.5,0), arm (1,1.5,0)
  s.fk_edits.push_back(
      {kHips, FkEditMode::Delta, {{0, 0, 0}, axis_angle({0, 0, 1}, 90), {1, 1, 1}}});
  builder.build(s);
  expect_near(world_position(c, kArm), {0, 2.5f, 0}, "hips turned 90° about z");
  // Over a layer that already turned the hips 45° (bend at t=0.5): 45° + 90° = 135°.
  s.layers.push_back({kBend, 1.0f, false, 0.5f, {}});
  builder.build(s);
  const float r = std::sqrt(0.5f);
  expect_near(world_position(c, kArm), {-r, 1.5f + r, 0}, "after the layer");
  // An override of the arm's local transform, then of the root under an extracted walk: the
  // placement (+1 along x at t=0.5) still moves the overridden root.
  s.layers.clear();
  s.fk_edits.push_back({kArm, FkEditMode::Override, {{2, 0, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  builder.build(s);
  expect_near(world_position(c, kArm), {0, 3.5f, 0}, "arm overridden");
  s.base = {kWalkX, 0.5f};
  s.root_motion = RootMotionMode::Extract;
  s.fk_edits.push_back(
      {kRoot, FkEditMode::Override, {{7, 1, 0}, glm::quat(1, 0, 0, 0), {1, 1, 1}}});
  builder.build(s);
  expect_near(root_translation(c), {8, 1, 0}, "root overridden, then placed");
}

TEST(PoseBuilder, FkEditsComeBeforeTheConstraints) {
  const Model m = walker();
  Character c(m);
  PoseBuilder builder(c);
  PoseSettings s;
  s.fk_edits.push_back(
      {kHips, FkEditMode::Delta, {{0, 0, 0}, axis_angle({0, 0, 1}, 60), {1, 1, 1}}});
  TwoBoneIK ik;
  ik.chain = {kRoot, kHips, kArm};
  ik.target = {0.5f, 1.2f, 0.3f};  // within reach: |target − root| < 0.5 + 1
  s.ik.push_back(ik);
  builder.build(s);
  expect_near(world_position(c, kArm), ik.target, "IK after the edit");
}

// The viewer edits one builder step by step; the command line makes a fresh one. Same pose.
TEST(PoseBuilder, AnEditedBuilderPosesAsAFreshOne) {
  const Model m = walker();
  Character edited(m), fresh(m);
  PoseBuilder step(edited);
  PoseSettings s = walk_x_at_half();
  s.root_motion = RootMotionMode::Extract;
  step.build(s);
  s.layers.push_back({kWalkZ, 0.5f, false, 0.75f, {}});
  step.build(s);
  s.layers.push_back({kBend, 0.5f, true, 0.5f, {kHips}});
  s.base.time = 0.75f;
  step.build(s);
  PoseBuilder once(fresh);
  once.build(s);
  for (size_t n = 0; n < m.nodes.size(); ++n) {
    const Transform &a = edited.pose().local[n], &b = fresh.pose().local[n];
    EXPECT_EQ(a.translation, b.translation) << n;
    EXPECT_EQ(a.rotation, b.rotation) << n;
    EXPECT_EQ(a.scale, b.scale) << n;
  }
  // walk z in place at (5,1,0) half over walk x in place (0,1,0), then the walk to t=0.75.
  expect_near(root_translation(fresh), {2.5f + 1.5f, 1, 0}, "fresh");
}

TEST(PoseBuilder, ValidateNamesWhatDoesNotFit) {
  const Model m = walker();
  std::string error;
  PoseSettings s;
  EXPECT_TRUE(PoseBuilder::validate(m, s, error)) << error;
  s.layers.push_back({7, 1.0f, false, 0.0f, {}});
  EXPECT_FALSE(PoseBuilder::validate(m, s, error));
  EXPECT_NE(error.find("layer clip 7"), std::string::npos) << error;
  s.layers.clear();
  s.fk_edits.push_back({9, FkEditMode::Delta, {}});
  EXPECT_FALSE(PoseBuilder::validate(m, s, error));
  s.fk_edits.clear();
  s.feet_on_ground = true;  // no foot joints in this model
  EXPECT_FALSE(PoseBuilder::validate(m, s, error));
  // build() skips what does not fit rather than read out of range.
  s.feet_on_ground = false;
  s.fk_edits.push_back({9, FkEditMode::Delta, {}});
  s.layers.push_back({7, 1.0f, false, 0.0f, {42}});
  Character c(m);
  PoseBuilder builder(c);
  builder.build(s);
  expect_near(root_translation(c), {0, 1, 0}, "rest");
}

}  // namespace
}  // namespace rig
