// The compression error metric (compress/clip_error.h) on hand-made cases.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <numbers>

#include "anim/clip_source.h"
#include "compress/clip_error.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;
using test::kDeg;
using test::make_clip;
using test::rotation_channel;
using test::vec3_channel;

// Shoulder at the origin, elbow 1 m along x; the clip bends the elbow 0° → 90° over 1 s.
struct Arm {
  Model model = test::shoulder_elbow_model();
  Arm(float elbow_offset_deg, float root_scale = 1.0f) {
    model.nodes[0].rest.scale = glm::vec3(root_scale);
    model.nodes[1].rest.translation = glm::vec3(1.0f / root_scale, 0, 0);  // 1 m in world space
    model.clips.push_back(make_clip({rotation_channel(
        1, {0.0f, 0.5f, 1.0f},
        {axis_angle({0, 0, 1}, 0), axis_angle({0, 0, 1}, 45), axis_angle({0, 0, 1}, 90)})}));
    // The lossy clip: the same keys, each turned `elbow_offset_deg` further about z.
    lossy = make_clip({rotation_channel(
        1, {0.0f, 0.5f, 1.0f},
        {axis_angle({0, 0, 1}, 0 + elbow_offset_deg), axis_angle({0, 0, 1}, 45 + elbow_offset_deg),
         axis_angle({0, 0, 1}, 90 + elbow_offset_deg)})});
  }
  Clip lossy;
};

TEST(CompressMetric, OneDegreeOnAJointGivesTheChordAtThreeCentimetres) {
  Arm arm(1.0f);
  RawClipSource lossy(arm.model, arm.lossy);
  const ClipErrorReport r = measure_clip_error(arm.model, 0, lossy, 0.0f, false);
  const double expected = 2.0 * 0.03 * std::sin(0.5 * std::numbers::pi / 180.0);
  EXPECT_NEAR(r.e_max, expected, 1e-7);
  EXPECT_EQ(r.e_max_node, 1);
  // Keys at 0, 0.5, 1 s: a 2 Hz grid, N = 3 samples, both joints of the driven skin counted.
  EXPECT_FLOAT_EQ(r.rate_hz, 2.0f);
  EXPECT_EQ(r.times.size(), 3u);
  EXPECT_EQ(r.joints, (std::vector<int>{0, 1}));
  // The shoulder is exact: half of the 6 values are 0, the p99 is the elbow's.
  EXPECT_NEAR(r.e_p99, expected, 1e-7);
  EXPECT_DOUBLE_EQ(r.fraction_within_0_01cm, 0.5);  // 5.2e-4 m > 1e-4 m at the elbow
}

TEST(CompressMetric, ShellPointsStayThreeCentimetresUnderAScaledArmature) {
  // A centimetre armature (root scale 0.01 … 100): the shell is 3 cm in world space either way.
  for (float scale : {0.01f, 100.0f}) {
    Arm arm(1.0f, scale);
    RawClipSource lossy(arm.model, arm.lossy);
    const ClipErrorReport r = measure_clip_error(arm.model, 0, lossy, 0.0f, false);
    EXPECT_NEAR(r.e_max, 2.0 * 0.03 * std::sin(0.5 * std::numbers::pi / 180.0), 1e-6) << scale;
  }
}

TEST(CompressMetric, IdenticalClipHasNoError) {
  Arm arm(0.0f);
  RawClipSource lossy(arm.model, arm.model.clips[0]);
  const ClipErrorReport r = measure_clip_error(arm.model, 0, lossy, 0.0f, true);
  EXPECT_EQ(r.e_max, 0.0);
  EXPECT_EQ(r.fraction_within_0_01cm, 1.0);
  EXPECT_TRUE(r.vertices_measured);
  EXPECT_EQ(r.max_vertex_displacement, 0.0);
}

TEST(CompressMetric, ShellUsesTheRawColumnNorm) {
  // Raw scale 1, lossy scale 2 on the elbow: p_a = 0.03 e_a (raw norm 1), so the lossy point
  // lands at 0.06 and the error is 0.03 m. With the lossy norm it would read 0.015.
  Model model = test::shoulder_elbow_model();
  model.clips.push_back(make_clip({vec3_channel(
      1, TargetPath::Scale, {0.0f, 1.0f}, {glm::vec3(1), glm::vec3(1)}, Interpolation::Linear)}));
  const Clip lossy_clip = make_clip({vec3_channel(
      1, TargetPath::Scale, {0.0f, 1.0f}, {glm::vec3(2), glm::vec3(2)}, Interpolation::Linear)});
  RawClipSource lossy(model, lossy_clip);
  const ClipErrorReport r = measure_clip_error(model, 0, lossy, 0.0f, false);
  EXPECT_NEAR(r.e_max, 0.03, 1e-7);
}

TEST(CompressMetric, JointErrorOnMatrices) {
  // A translation error alone moves every shell point by it.
  const glm::mat4 raw(1.0f);
  const glm::mat4 moved = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0, 2e-4f));
  EXPECT_NEAR(joint_error(raw, moved), 2e-4, 1e-9);
  // Raw scaled by 10: the shell point is 3 cm in world space (0.003 along the axis).
  const glm::mat4 scaled = glm::scale(glm::mat4(1.0f), glm::vec3(10.0f));
  const glm::mat4 turned = scaled * glm::mat4_cast(glm::angleAxis(2.0f * kDeg, glm::vec3(0, 0, 1)));
  EXPECT_NEAR(joint_error(scaled, turned), 2.0 * 0.03 * std::sin(1.0 * std::numbers::pi / 180.0),
              1e-7);
}

TEST(CompressMetric, NearestRankPercentile) {
  std::vector<double> v;
  for (int i = 100; i >= 1; --i) v.push_back(i);
  EXPECT_EQ(nearest_rank_percentile(v, 99.0), 99.0);
  std::vector<double> w{5.0, 1.0, 3.0};
  EXPECT_EQ(nearest_rank_percentile(w, 99.0), 5.0);  // rank ceil(2.97) = 3
  std::vector<double> x(1000, 0.0);
  x[0] = 1.0;  // one outlier in 1000 stays above the 99th percentile
  EXPECT_EQ(nearest_rank_percentile(x, 99.0), 0.0);
}

TEST(CompressMetric, CountedJointsFollowDrivenSkins) {
  Model model = test::shoulder_elbow_model();
  // A second skin on a separate chain, and a prop node.
  const int root2 = add_node(model, "Root2", -1, {0, 0, 0});
  const int tip2 = add_node(model, "Tip2", root2, {0, 1, 0});
  const int prop = add_node(model, "Prop", -1, {0, 0, 5});
  Skin s;
  s.joints = {tip2};
  s.inverse_bind = {glm::mat4(1.0f)};
  s.joint_parent = {-1};
  s.order = {0};
  model.skins.push_back(s);
  // Animating Root2 (an ancestor of the second skin's joint, not a joint) drives that skin only.
  const Clip by_ancestor =
      make_clip({vec3_channel(root2, TargetPath::Translation, {0.0f, 1.0f},
                              {glm::vec3(0), glm::vec3(1)}, Interpolation::Linear)});
  EXPECT_EQ(counted_joints(model, by_ancestor), (std::vector<int>{tip2}));
  // A clip on the prop alone drives no skin: the animated nodes count.
  const Clip prop_only =
      make_clip({vec3_channel(prop, TargetPath::Translation, {0.0f, 1.0f},
                              {glm::vec3(0), glm::vec3(1)}, Interpolation::Linear)});
  EXPECT_EQ(counted_joints(model, prop_only), (std::vector<int>{prop}));
}

TEST(CompressMetric, SampleTimesFollowTheGridRule) {
  Arm arm(0.0f);
  // Keys off any grid → 60 Hz; N = ceil(1·60 − 1e-6) + 1 = 61, the last clamped to the end.
  arm.model.clips[0].channels[0].times = {0.0f, 0.37f, 1.0f};
  RawClipSource lossy(arm.model, arm.model.clips[0]);
  const ClipErrorReport r = measure_clip_error(arm.model, 0, lossy, 0.0f, false);
  EXPECT_FLOAT_EQ(r.rate_hz, 60.0f);
  ASSERT_EQ(r.times.size(), 61u);
  EXPECT_FLOAT_EQ(r.times.back(), 1.0f);
}

}  // namespace
}  // namespace rig
