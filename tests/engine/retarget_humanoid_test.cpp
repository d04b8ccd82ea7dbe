// Retargeting between synthetic 65-joint humanoids (tests/support/retarget_humanoid.h): an
// armature with scale 0.01 and a Z-up rotation against a plain Y-up A-pose, the round trip, and
// the feet kept planted.
#include "retarget_humanoid.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "anim/pose.h"
#include "character/retarget.h"

namespace rig {
namespace {

namespace hm = humanoid;

glm::mat4 world_of(const Model& m, const std::vector<Transform>& local, int node) {
  const glm::mat4 own = trs_matrix(local[size_t(node)]);
  const int parent = m.nodes[size_t(node)].parent;
  return parent < 0 ? own : world_of(m, local, parent) * own;
}

std::vector<Transform> pose_at(const Model& m, const Clip& clip, float time) {
  Pose pose;
  init_rest_pose(m, pose);
  sample_clip(m, clip, time, pose);
  return pose.local;
}

double quat_gap_degrees(glm::quat a, glm::quat b) {
  const double d = std::min(1.0, std::abs(double(glm::dot(a, b))));
  return 2.0 * std::acos(d) * 180.0 / 3.14159265358979;
}

BoneMap reversed(const BoneMap& map) {
  BoneMap back;
  for (const BonePair& p : map.pairs) back.pairs.push_back({p.target, p.source, p.role});
  return back;
}

TEST(RetargetHumanoid, CentimetreZupArmatureOntoAPlainYupAPose) {
  hm::Spec zup;
  zup.armature = hm::turn({1, 0, 0}, -90);
  zup.armature_scale = 0.01f;
  const hm::Humanoid s = hm::make(zup);
  ASSERT_EQ(s.model.nodes.size(), 65u);
  hm::Spec apose;
  apose.size = 0.8f;
  apose.arm_down = 40.0f;
  apose.roll = 25.0f;
  const hm::Humanoid t = hm::make(apose);
  const BoneMap map = hm::pair_up(s, t);
  const Clip clip = hm::wave_clip(s, 2.0f, 30.0f);
  const RetargetRig rig = build_retarget_rig(s.model, t.model, map);
  // Both stand Y-up facing +Z in model space: no facing turn; hips 1 m and 0.8 m above the toes.
  EXPECT_LT(quat_gap_degrees(rig.facing, glm::quat(1, 0, 0, 0)), 1e-3);
  EXPECT_NEAR(rig.source.hip_height, 1.0f, 1e-4f);
  EXPECT_NEAR(rig.hip_ratio, 0.8f, 1e-4f);
  RetargetMeasures measures;
  const Clip out = retarget_clip(s.model, clip, t.model, rig, {}, &measures);
  EXPECT_EQ(measures.frames, 61u);
  EXPECT_LT(measures.max_direction_error_deg, 0.05f);
  EXPECT_LT(measures.hip_ratio_error, 1e-4f);
  // The hips by hand: the source's hips key moves in armature centimetres; model space sees it
  // turned by the armature and scaled by 0.01, the target by a further 0.8.
  const int sh = s.parts[HumanBone::Hips], th = t.parts[HumanBone::Hips];
  for (float time : {0.0f, 0.5f, 1.3f, 2.0f}) {
    const auto sl = pose_at(s.model, clip, time), tl = pose_at(t.model, out, time);
    const glm::vec3 key_moved =
        sl[size_t(sh)].translation - s.model.nodes[size_t(sh)].rest.translation;
    const glm::vec3 want = glm::vec3(0, 0.8f, 0) + 0.8f * (0.01f * (zup.armature * key_moved));
    const glm::vec3 got = glm::vec3(world_of(t.model, tl, th)[3]);
    EXPECT_LE(glm::length(got - want),
              1e-4f * std::max(glm::length(want - glm::vec3(0, 0.8f, 0)), 1e-2f))
        << time;
  }
  // And back onto the armature: the hips' local translation comes out in centimetres.
  RetargetMeasures back_measures;
  const Clip back = retarget_clip(t.model, out, s.model, reversed(map), {}, &back_measures);
  EXPECT_LT(back_measures.max_direction_error_deg, 0.05f);
  for (float time : {0.5f, 1.3f}) {
    const glm::vec3 want = pose_at(s.model, clip, time)[size_t(sh)].translation;
    const glm::vec3 got = pose_at(s.model, back, time)[size_t(sh)].translation;
    EXPECT_LE(glm::length(got - want), 1e-3f * glm::length(want)) << time;
  }
}

TEST(RetargetHumanoid, RoundTripWithinATenthOfADegree) {
  const hm::Humanoid s = hm::make({});
  hm::Spec other;
  other.size = 1.2f;
  other.arms = 0.9f;
  other.arm_down = 45.0f;
  other.roll = -30.0f;
  hm::Humanoid t = hm::make(other);
  // The whole target turned half round: it faces −Z, so G is a half turn about Y.
  t.model.nodes[0].rest.rotation = hm::turn({0, 1, 0}, 180);
  const BoneMap map = hm::pair_up(s, t);
  const RetargetRig rig = build_retarget_rig(s.model, t.model, map);
  EXPECT_LT(quat_gap_degrees(rig.facing, hm::turn({0, 1, 0}, 180)), 1e-3);
  const Clip clip = hm::wave_clip(s, 1.0f, 30.0f);
  RetargetMeasures there;
  const Clip mid = retarget_clip(s.model, clip, t.model, map, {}, &there);
  EXPECT_LT(there.max_direction_error_deg, 0.05f);
  EXPECT_LT(there.hip_ratio_error, 1e-4f);
  const Clip home = retarget_clip(t.model, mid, s.model, reversed(map), {}, nullptr);
  double worst = 0.0;
  for (float time : retarget_frame_times(clip)) {
    const auto want = pose_at(s.model, clip, time), got = pose_at(s.model, home, time);
    for (const BonePair& p : map.pairs)
      worst = std::max(
          worst, quat_gap_degrees(got[size_t(p.source)].rotation, want[size_t(p.source)].rotation));
  }
  EXPECT_LT(worst, 0.1);
}

// The source crouches on the spot: the hips bob and both legs bend so the ankles stay put (a
// planar two-bone solve by hand). The target's shins are shorter than its thighs, so copying
// directions alone makes its feet slide; planting must hold them.
Clip crouch_clip(const hm::Humanoid& h) {
  Clip clip;
  clip.name = "crouch";
  const float l1 = 0.45f, l2 = 0.47f, ankle = 0.08f;
  std::vector<float> times;
  for (int k = 0; k <= 60; ++k) times.push_back(float(k) / 30.0f);
  clip.start = 0.0f;
  clip.end = 2.0f;
  Channel hips;
  hips.node = h.parts[HumanBone::Hips];
  hips.path = TargetPath::Translation;
  hips.times = times;
  std::vector<Channel> legs(4);
  for (int c = 0; c < 4; ++c) {
    legs[size_t(c)].path = TargetPath::Rotation;
    legs[size_t(c)].components = 4;
    legs[size_t(c)].times = times;
  }
  legs[0].node = h.parts[HumanBone::LeftUpperLeg];
  legs[1].node = h.parts[HumanBone::LeftLowerLeg];
  legs[2].node = h.parts[HumanBone::RightUpperLeg];
  legs[3].node = h.parts[HumanBone::RightLowerLeg];
  for (float t : times) {
    const float height = 0.85f + 0.08f * std::sin(6.0f * t);  // hips, the legs' rest is 1.0
    const float d = height - ankle;
    const float thigh = std::acos((l1 * l1 + d * d - l2 * l2) / (2.0f * l1 * d));
    const float knee = 3.14159265f - std::acos((l1 * l1 + l2 * l2 - d * d) / (2.0f * l1 * l2));
    hips.values.insert(hips.values.end(), {0.0f, height, 0.0f});
    for (int side = 0; side < 2; ++side) {
      hm::append_rotation(legs[size_t(2 * side)], glm::angleAxis(-thigh, glm::vec3(1, 0, 0)));
      hm::append_rotation(legs[size_t(2 * side + 1)], glm::angleAxis(knee, glm::vec3(1, 0, 0)));
    }
  }
  clip.channels.push_back(hips);
  for (Channel& c : legs) clip.channels.push_back(c);
  return clip;
}

TEST(RetargetHumanoid, FeetKeptPlantedDuringSourceContacts) {
  const hm::Humanoid s = hm::make({});
  hm::Spec other;
  other.size = 0.9f;
  other.shins = 0.6f;
  const hm::Humanoid t = hm::make(other);
  const BoneMap map = hm::pair_up(s, t);
  const Clip clip = crouch_clip(s);
  // The source's ankles really stay put (the clip's own check).
  const int sf = s.parts[HumanBone::LeftFoot];
  const glm::vec3 start = glm::vec3(world_of(s.model, pose_at(s.model, clip, 0.0f), sf)[3]);
  const glm::vec3 later = glm::vec3(world_of(s.model, pose_at(s.model, clip, 0.7f), sf)[3]);
  ASSERT_LT(glm::length(later - start), 1e-5f);

  RetargetMeasures off, on;
  retarget_clip(s.model, clip, t.model, map, {}, &off);
  RetargetSettings settings;
  settings.keep_feet_planted = true;
  const Clip planted = retarget_clip(s.model, clip, t.model, map, settings, &on);
  EXPECT_GT(off.contact_frames, 50u);
  EXPECT_GT(off.max_foot_slide, 0.002f);  // the shorter shins slide without planting
  EXPECT_LE(on.max_foot_slide, 0.001f);   // ≤ 0.1% of the height with it
  std::printf("foot slide per frame / height: %.5f off, %.7f on\n", off.max_foot_slide,
              on.max_foot_slide);
  // Independently: the target's left ankle stays where frame 0 put it.
  const int tf = t.parts[HumanBone::LeftFoot];
  const glm::vec3 first = glm::vec3(world_of(t.model, pose_at(t.model, planted, 0.0f), tf)[3]);
  for (float time : {0.4f, 1.1f, 1.9f}) {
    const glm::vec3 p = glm::vec3(world_of(t.model, pose_at(t.model, planted, time), tf)[3]);
    EXPECT_LT(glm::length(p - first), 1e-3f * on.target_height) << time;
  }
}

}  // namespace
}  // namespace rig
