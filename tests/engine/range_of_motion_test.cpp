// The range-of-motion sweep (analysis/range_of_motion.h) on a tube around a three-joint arm,
// where the twist's artefacts are known in closed form (the seed's twist figures): a vertex
// blended w / (1 − w) between a joint and its parent twisted by θ keeps
// |(1 − w) + w·e^{iθ}| of its radius, so h = ½ log2((1 − w)² + w² + 2w(1 − w) cos θ); at w = ½
// that is log2|cos(θ/2)|. Every expectation is that formula or a pose built independently.
#include "analysis/range_of_motion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>
#include <vector>

#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;

constexpr int kShoulder = 0, kElbow = 1, kWrist = 2;
constexpr int kRings = 17, kAround = 16;  // rings at x = 0, 0.125, ..., 2
constexpr float kRadius = 0.2f;

// The elbow's weight along the tube: 0 up to x = 0.75, 1 from x = 1.25, linear between.
float elbow_weight(float x) { return std::clamp((x - 0.75f) / 0.5f, 0.0f, 1.0f); }

// Shoulder (0,0,0) ─ elbow (1,0,0) ─ wrist (2,0,0), rest = bind, and an open tube of radius 0.2
// along x from 0 to 2 (rings every 0.125, two triangles per quad). Clip 0 turns the shoulder
// 90° about z over one second.
Model tube_arm() {
  Model m;
  add_node(m, "shoulder", -1, {0, 0, 0});
  add_node(m, "elbow", kShoulder, {1, 0, 0});
  add_node(m, "wrist", kElbow, {1, 0, 0});
  const int mesh_node = add_node(m, "tube", -1, {0, 0, 0});
  Skin skin;
  skin.joints = {kShoulder, kElbow, kWrist};
  skin.inverse_bind = {glm::mat4(1.0f), glm::translate(glm::mat4(1.0f), {-1, 0, 0}),
                       glm::translate(glm::mat4(1.0f), {-2, 0, 0})};
  skin.joint_parent = {-1, 0, 1};
  skin.order = {0, 1, 2};
  m.skins.push_back(skin);
  Primitive prim;
  prim.influences = 4;
  for (int r = 0; r < kRings; ++r) {
    const float x = 0.125f * float(r);
    const float w = elbow_weight(x);
    for (int k = 0; k < kAround; ++k) {
      const float a = float(k) * 2.0f * std::numbers::pi_v<float> / float(kAround);
      prim.positions.push_back({x, kRadius * std::cos(a), kRadius * std::sin(a)});
      prim.normals.push_back({0, std::cos(a), std::sin(a)});
      prim.joints.insert(prim.joints.end(), {uint16_t(kShoulder), uint16_t(kElbow), 0, 0});
      prim.weights.insert(prim.weights.end(), {1.0f - w, w, 0, 0});
    }
  }
  for (uint32_t r = 0; r + 1 < kRings; ++r)
    for (uint32_t k = 0; k < kAround; ++k) {
      const uint32_t a = r * kAround + k, b = r * kAround + (k + 1) % kAround;
      const uint32_t c = a + kAround, d = b + kAround;
      prim.indices.insert(prim.indices.end(), {a, b, d, a, d, c});
    }
  Mesh mesh;
  mesh.primitives.push_back(prim);
  m.meshes.push_back(mesh);
  m.nodes[size_t(mesh_node)].mesh = 0;
  m.nodes[size_t(mesh_node)].skin = 0;
  m.draws.push_back({mesh_node, 0, 0, 0});
  m.clips.push_back(test::make_clip({test::rotation_channel(
      kShoulder, {0, 1}, {glm::quat(1, 0, 0, 0), axis_angle({0, 0, 1}, 90)})}));
  return m;
}

// h of a vertex blended (1 − w, w) between a joint and its child twisted by θ degrees.
double twist_h(double w, double degrees) {
  const double c = std::cos(degrees * std::numbers::pi / 180.0);
  return 0.5 * std::log2((1 - w) * (1 - w) + w * w + 2 * w * (1 - w) * c);
}

struct Sweep {
  const Model model = tube_arm();
  Character character{model};
  PoseBuilder builder{character};
  ArtefactSetup setup = ArtefactSetup::build(model, character.skin_layer());
  PoseSettings base;
  std::vector<int> joints = {kElbow};
  std::vector<SkinningMethod> methods = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
  std::vector<RangeOfMotionSample> samples;
  RangeOfMotionJob job;

  Sweep(float degrees, int steps) {
    job.setup = &setup;
    job.builder = &builder;
    job.character = &character;
    job.base = &base;
    job.joints = joints;
    job.methods = methods;
    job.degrees = degrees;
    job.steps = steps;
  }
  bool run() {
    builder.build(base);
    samples.assign(job.sample_count(), {});
    job.out = samples;
    return job.run();
  }
  const RangeOfMotionSample& at(int axis, int step, size_t method) const {
    return samples[job.index(0, axis, step, method)];
  }
};

constexpr int kX = 0, kY = 1;
constexpr size_t kLbs = 0, kDqs = 1;

TEST(RangeOfMotion, AnglesRunFromMinusDToPlusDEvenly) {
  Sweep s(120.0f, 25);
  for (int k = 0; k < 25; ++k) EXPECT_FLOAT_EQ(s.job.angle(k), -120.0f + 10.0f * float(k)) << k;
  EXPECT_EQ(s.job.sample_count(), 1u * 3u * 25u * 2u);
}

TEST(RangeOfMotion, ElbowTwistMatchesTheClosedForm) {
  Sweep s(180.0f, 5);  // −180, −90, 0, 90, 180
  ASSERT_TRUE(s.run());
  for (int step = 0; step < 5; ++step) {
    const double angle = -180.0 + 90.0 * step;
    const RangeOfMotionSample& lbs = s.at(kX, step, kLbs);
    const RangeOfMotionSample& dqs = s.at(kX, step, kDqs);
    // The elbow's vertices: the ring at x = 1.125 (w = 0.75, its only deflating one), six more
    // interior rings and the end ring at x = 2 (half an interior ring's area, one side only),
    // all of equal triangles: score² = h² / 7.5.
    EXPECT_NEAR(lbs.score, std::abs(twist_h(0.75, angle)) / std::sqrt(7.5), 1e-5) << angle;
    EXPECT_NEAR(dqs.score, 0.0, 1e-5) << angle;
    // The worst vertex of the model is on the 50/50 ring at x = 1 (vertices 128..143), whose
    // dominant joint is the shoulder (the tie goes to the smaller index): log2|cos(θ/2)|,
    // clamped at −10 where cos(90°) = 0.
    if (step == 2) {
      EXPECT_NEAR(lbs.worst.value, 0.0, 1e-5);
      EXPECT_NEAR(lbs.volume_change_percent, 0.0, 1e-4);
      continue;
    }
    EXPECT_NEAR(lbs.worst.value, std::max(-10.0, twist_h(0.5, angle)), 1e-5) << angle;
    EXPECT_EQ(lbs.worst.draw, 0);
    EXPECT_GE(lbs.worst.vertex, 8 * kAround);
    EXPECT_LT(lbs.worst.vertex, 9 * kAround);
    EXPECT_EQ(lbs.worst.joint, kShoulder);
    EXPECT_NEAR(dqs.worst.value, 0.0, 1e-4) << angle;  // DQS keeps every radius in a twist
    // The collapsing rings lose LBS volume (the tube is measured from the origin on its axis).
    EXPECT_LT(lbs.volume_change_percent, dqs.volume_change_percent - 1.0) << angle;
  }
}

TEST(RangeOfMotion, StepsOnAClipPoseMeasureTheSameAsOnTheRestPose) {
  // The clip turns the shoulder, and with it the whole arm, rigidly: no measure may change.
  Sweep rest(90.0f, 3);
  ASSERT_TRUE(rest.run());
  Sweep clip(90.0f, 3);
  clip.base.base = PoseSelection{0, 1.0f};
  ASSERT_TRUE(clip.run());
  for (int axis = 0; axis < 3; ++axis)
    for (int step = 0; step < 3; ++step)
      for (size_t m = 0; m < 2; ++m) {
        EXPECT_NEAR(clip.at(axis, step, m).score, rest.at(axis, step, m).score, 1e-5);
        EXPECT_NEAR(clip.at(axis, step, m).worst.value, rest.at(axis, step, m).worst.value, 1e-5);
      }
  EXPECT_NEAR(clip.at(kX, 2, kLbs).score, std::abs(twist_h(0.75, 90)) / std::sqrt(7.5), 1e-5);
}

TEST(RangeOfMotion, AStepIsTheFkPoseOfItsAngle) {
  Sweep s(120.0f, 7);  // −120, −80, ..., 120
  s.base.base = PoseSelection{0, 0.5f};
  ASSERT_TRUE(s.run());
  // The same pose built on its own: the clip at 0.5 s, then the elbow turned 40° about its
  // local y (glm's axis-angle, not the sweep's rotation helper), analysed directly.
  const Model m = tube_arm();
  Character character(m);
  PoseBuilder builder(character);
  PoseSettings settings;
  settings.base = PoseSelection{0, 0.5f};
  FkEdit edit{kElbow, FkEditMode::Delta, {}};
  edit.transform.rotation = glm::angleAxis(40.0f * test::kDeg, glm::vec3(0, 1, 0));
  settings.fk_edits.push_back(edit);
  builder.build(settings);
  const ArtefactSetup setup = ArtefactSetup::build(m, character.skin_layer());
  ArtefactFrame frame = ArtefactFrame::make(m);
  for (size_t method = 0; method < 2; ++method) {
    analyze_frame(setup, character, s.methods[method], frame);
    const RangeOfMotionSample& sample = s.at(kY, 4, method);
    EXPECT_NEAR(sample.score, frame.joint_scores[0][kElbow], 1e-5);
    EXPECT_NEAR(sample.worst.value, frame.max_abs_h.value, 1e-5);
    EXPECT_EQ(sample.worst.vertex, frame.max_abs_h.vertex);
    EXPECT_NEAR(sample.volume_change_percent, frame.volume_change_percent, 1e-4);
    EXPECT_GT(std::abs(frame.volume_change_percent), 1e-3);  // a bend that does something
  }
}

TEST(RangeOfMotion, RunLeavesTheBasePose) {
  Sweep s(60.0f, 3);
  s.base.base = PoseSelection{0, 0.25f};
  s.builder.build(s.base);
  const std::vector<glm::mat4> before(s.character.world().begin(), s.character.world().end());
  ASSERT_TRUE(s.run());
  for (size_t n = 0; n < before.size(); ++n) EXPECT_EQ(s.character.world()[n], before[n]) << n;
}

TEST(RangeOfMotion, ValidateRefusesBadInputs) {
  Sweep s(120.0f, 25);
  s.samples.assign(s.job.sample_count(), {});
  s.job.out = s.samples;
  std::string error;
  EXPECT_TRUE(s.job.validate(error)) << error;
  for (float d : {0.0f, -5.0f, 180.5f, std::nanf("")}) {
    RangeOfMotionJob j = s.job;
    j.degrees = d;
    EXPECT_FALSE(j.validate(error)) << d;
  }
  for (int n : {1, 0, kRangeOfMotionMaxSteps + 1}) {
    RangeOfMotionJob j = s.job;
    j.steps = n;
    EXPECT_FALSE(j.validate(error)) << n;
  }
  RangeOfMotionJob j = s.job;
  const std::vector<int> not_a_joint = {3};  // the tube's mesh node
  j.joints = not_a_joint;
  j.out = j.out.first(j.sample_count());
  EXPECT_FALSE(j.validate(error));
  EXPECT_EQ(error, "range of motion: node 3 is not a joint of any skin");
  j = s.job;
  j.out = j.out.first(j.out.size() - 1);
  EXPECT_FALSE(j.validate(error));
  EXPECT_FALSE(j.run());
}

}  // namespace
}  // namespace rig
