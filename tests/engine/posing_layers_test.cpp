// The layered pose stack: additive and override layers, joint masks, additive references, and
// Character::evaluate(PoseStack&) against the plain PoseSelection path.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "anim/blending_job.h"
#include "anim/joint_mask.h"
#include "character/character.h"
#include "character/pose_stack.h"
#include "import/gltf_import.h"
#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;

const Model& mannequin() {
  static const Model model = [] {
    Model m;
    std::string error;
    EXPECT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
        << error;
    return m;
  }();
  return model;
}

int clip_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.clips.size(); ++i)
    if (m.clips[i].name == name) return int(i);
  ADD_FAILURE() << "no clip " << name;
  return -1;
}

bool same_bits(const Transform& a, const Transform& b) {
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

// Same rotation (q and −q alike), translation and scale within `tol`.
void expect_same_transform(const Transform& got, const Transform& want, float tol,
                           const std::string& what) {
  EXPECT_GT(std::abs(glm::dot(got.rotation, want.rotation)), 1.0f - tol) << what;
  EXPECT_LT(glm::length(got.translation - want.translation), tol) << what;
  EXPECT_LT(glm::length(got.scale - want.scale), tol) << what;
}

TEST(PosingAdditive, DifferenceOnTheRightTranslationDifferenceScaleRatio) {
  Transform base, value, reference;
  base.rotation = axis_angle({1, 0, 0}, 30.0f);
  base.translation = {1, 2, 3};
  base.scale = {2, 1, 1};
  reference.rotation = axis_angle({0, 0, 1}, 10.0f);
  reference.translation = {0.5f, 0.5f, 0.5f};
  reference.scale = {1, 2, 1};
  value.rotation = axis_angle({0, 0, 1}, 40.0f);  // 30° about Z beyond the reference
  value.translation = {1.5f, 0.5f, -0.5f};
  value.scale = {4, 2, 1};
  const Transform half = add_transform_difference(base, value, reference, 0.5f);
  // base · (15° about Z): X then Z, in that order (the difference is applied on the right).
  const glm::quat want = axis_angle({1, 0, 0}, 30.0f) * axis_angle({0, 0, 1}, 15.0f);
  EXPECT_GT(std::abs(glm::dot(half.rotation, want)), 1.0f - 1e-6f);
  EXPECT_LT(std::abs(glm::dot(half.rotation,
                              axis_angle({0, 0, 1}, 15.0f) * axis_angle({1, 0, 0}, 30.0f))),
            1.0f - 1e-4f);
  EXPECT_LT(glm::length(half.translation - glm::vec3(1.5f, 2.0f, 2.5f)), 1e-6f);
  // Ratio 4 on x at half weight: × 2; ratio 1 on y and z.
  EXPECT_LT(glm::length(half.scale - glm::vec3(4.0f, 1.0f, 1.0f)), 1e-5f);
  const Transform none = add_transform_difference(base, value, reference, 0.0f);
  expect_same_transform(none, base, 1e-6f, "weight 0");
}

TEST(PosingAdditive, NonPositiveScaleRatiosFallBackToLinear) {
  Transform base, value, reference;
  value.scale = {-1.0f, 0.0f, 3.0f};
  reference.scale = {1.0f, 1.0f, 0.0f};
  const Transform out = add_transform_difference(base, value, reference, 0.5f);
  EXPECT_FLOAT_EQ(out.scale.x, 0.0f);  // 1 + (−1 − 1)·0.5
  EXPECT_FLOAT_EQ(out.scale.y, 0.5f);  // 1 + (0 − 1)·0.5
  EXPECT_FLOAT_EQ(out.scale.z, 1.0f);  // reference 0: ratio 1
}

TEST(PosingBlendingJob, AdditiveLayerNeedsAReference) {
  std::vector<Transform> base(2), add(2), ref(1), out(2);
  BlendLayer layers[2] = {{base, {}, 1.0f, {}}, {add, {}, 0.5f, {}}};
  layers[1].mode = BlendMode::Additive;
  EXPECT_FALSE((BlendingJob{layers, out, {}}).validate());
  layers[1].reference = ref;
  EXPECT_FALSE((BlendingJob{layers, out, {}}).validate());
  layers[1].reference = base;
  EXPECT_TRUE((BlendingJob{layers, out, {}}).validate());
}

TEST(PosingBlendingJob, AdditiveMorphWeightsAddTheirDifference) {
  std::vector<Transform> pose(1);
  std::vector<float> base = {0.2f}, add = {0.7f}, ref = {0.5f}, out(1);
  BlendLayer layers[2] = {{pose, base, 1.0f, {}}, {pose, add, 0.5f, {}}};
  layers[1].mode = BlendMode::Additive;
  layers[1].reference = pose;
  layers[1].reference_morph_weights = ref;
  std::vector<Transform> out_pose(1);
  ASSERT_TRUE((BlendingJob{layers, out_pose, out}).run());
  EXPECT_FLOAT_EQ(out[0], 0.3f);
}

TEST(PosingJointMask, SubtreeMasksCoverANodeAndItsDescendants) {
  const Model& m = mannequin();
  const std::vector<float> arm = subtree_mask(m, {"LeftArm"});
  const std::vector<std::string> in_arm = {"LeftArm", "LeftForeArm", "LeftForeArmTwist",
                                           "LeftHand"};
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const bool want = std::find(in_arm.begin(), in_arm.end(), m.nodes[i].name) != in_arm.end();
    EXPECT_EQ(arm[i], want ? 1.0f : 0.0f) << m.nodes[i].name;
  }
  std::vector<float> spine = subtree_mask(m, {"Spine"}, 0.5f);
  int covered = 0;
  for (size_t i = 0; i < m.nodes.size(); ++i)
    if (spine[i] > 0.0f) {
      ++covered;
      EXPECT_TRUE(is_in_subtree(m, int(i), find_node(m, "Spine"))) << m.nodes[i].name;
      EXPECT_EQ(spine[i], 0.5f);
    }
  // Spine, Spine1, Spine2, Neck, Head and both arms' Shoulder, Arm, ForeArm, ForeArmTwist, Hand.
  EXPECT_EQ(covered, 15);
  set_subtree_weight(m, find_node(m, "LeftHand"), 0.0f, spine);
  EXPECT_EQ(spine[size_t(find_node(m, "LeftHand"))], 0.0f);
  EXPECT_EQ(spine[size_t(find_node(m, "LeftForeArm"))], 0.5f);
  const std::vector<float> unknown = subtree_mask(m, {"NoSuchJoint"});
  EXPECT_EQ(std::count(unknown.begin(), unknown.end(), 0.0f), long(m.nodes.size()));
}

TEST(PosingStack, BaseAloneMatchesThePoseSelectionPath) {
  const Model& m = mannequin();
  Character a(m), b(m);
  PoseStack stack(b);
  const PoseSelection sel{clip_index(m, "Walk"), 0.4f, clip_index(m, "Run"), 0.2f, 0.35f};
  stack.base = sel;
  a.evaluate(sel);
  b.evaluate(stack);
  for (size_t i = 0; i < m.nodes.size(); ++i)
    EXPECT_TRUE(same_bits(a.pose().local[i], b.pose().local[i])) << m.nodes[i].name;
  EXPECT_EQ(std::memcmp(a.world().data(), b.world().data(), m.nodes.size() * sizeof(glm::mat4)), 0);
}

TEST(PosingStack, ReferencePosePlusItsOwnClipReproducesTheClip) {
  const Model& m = mannequin();
  for (const char* name : {"Wave", "Walk", "Bend"}) {
    const int clip = clip_index(m, name);
    const Clip& c = m.clips[size_t(clip)];
    Character plain(m), layered(m);
    PoseStack stack(layered);
    stack.base = {clip, c.start};  // the reference pose: the clip's first frame
    PoseLayer add;
    add.clip = clip;
    add.mode = BlendMode::Additive;
    add.weight = 1.0f;
    const size_t l = stack.add_layer(add);
    for (float f : {0.1f, 0.37f, 0.5f, 0.93f}) {
      const float t = c.start + f * (c.end - c.start);
      stack.layer(l).time = t;
      layered.evaluate(stack);
      plain.evaluate(PoseSelection{clip, t});
      for (size_t i = 0; i < m.nodes.size(); ++i)
        expect_same_transform(layered.pose().local[i], plain.pose().local[i], 2e-6f,
                              std::string(name) + " " + m.nodes[i].name);
    }
  }
}

TEST(PosingStack, AChosenReferenceFrameOfAnotherClip) {
  // Reference = Idle at its start; base = the same Idle frame; additive Wave(t) at weight 1:
  // result = idle0 · idle0⁻¹ · wave(t) = wave(t).
  const Model& m = mannequin();
  const int idle = clip_index(m, "Idle"), wave = clip_index(m, "Wave");
  const float ref_time = m.clips[size_t(idle)].start + 0.5f;
  Character plain(m), layered(m);
  PoseStack stack(layered);
  stack.base = {idle, ref_time};
  PoseLayer add;
  add.clip = wave;
  add.time = 2.0f;
  add.mode = BlendMode::Additive;
  add.reference_clip = idle;
  add.reference_time = ref_time;
  stack.add_layer(add);
  layered.evaluate(stack);
  plain.evaluate(PoseSelection{wave, 2.0f});
  for (size_t i = 0; i < m.nodes.size(); ++i)
    expect_same_transform(layered.pose().local[i], plain.pose().local[i], 2e-6f, m.nodes[i].name);
  // Changing the reference frame resamples it: a later Idle frame as reference now differs.
  stack.layer(0).reference_time = ref_time + 1.0f;
  layered.evaluate(stack);
  bool differs = false;
  for (size_t i = 0; i < m.nodes.size(); ++i)
    differs |= std::abs(glm::dot(layered.pose().local[i].rotation,
                                 plain.pose().local[i].rotation)) < 1.0f - 1e-5f;
  EXPECT_TRUE(differs);
  stack.refresh_references();
  layered.evaluate(stack);  // same result again, from a fresh sample
}

TEST(PosingStack, ZeroMaskLeavesTheBaseUntouched) {
  const Model& m = mannequin();
  const PoseSelection base{clip_index(m, "Walk"), 0.3f};
  Character plain(m), layered(m);
  plain.evaluate(base);
  PoseStack stack(layered);
  stack.base = base;
  for (BlendMode mode : {BlendMode::Override, BlendMode::Additive}) {
    PoseLayer layer;
    layer.clip = clip_index(m, "Wave");
    layer.time = 2.0f;
    layer.mode = mode;
    layer.mask.assign(m.nodes.size(), 0.0f);
    stack.add_layer(layer);
  }
  layered.evaluate(stack);
  EXPECT_EQ(std::memcmp(plain.pose().local.data(), layered.pose().local.data(),
                        m.nodes.size() * sizeof(Transform)),
            0);
  EXPECT_EQ(
      std::memcmp(plain.world().data(), layered.world().data(), m.nodes.size() * sizeof(glm::mat4)),
      0);
}

TEST(PosingStack, MaskedOutJointsEqualTheBaseExactly) {
  const Model& m = mannequin();
  const PoseSelection base{clip_index(m, "Walk"), 0.3f};
  Character plain(m), layered(m), wave_only(m);
  plain.evaluate(base);
  wave_only.evaluate(PoseSelection{clip_index(m, "Wave"), 2.0f});
  PoseStack stack(layered);
  stack.base = base;
  PoseLayer wave;
  wave.clip = clip_index(m, "Wave");
  wave.time = 2.0f;
  wave.mask = subtree_mask(m, {"RightShoulder"});
  stack.add_layer(wave);
  PoseLayer nod;  // an additive layer on the head only, on top
  nod.clip = clip_index(m, "Idle");
  nod.time = 1.0f;
  nod.mode = BlendMode::Additive;
  nod.weight = 0.7f;
  nod.mask = subtree_mask(m, {"Head"});
  stack.add_layer(nod);
  layered.evaluate(stack);
  const int shoulder = find_node(m, "RightShoulder"), head = find_node(m, "Head");
  int changed = 0;
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    const Transform& got = layered.pose().local[i];
    if (is_in_subtree(m, int(i), shoulder)) {
      // Weight 1 override: the wave's own pose.
      expect_same_transform(got, wave_only.pose().local[i], 1e-6f, m.nodes[i].name);
      changed += !same_bits(got, plain.pose().local[i]);
    } else if (int(i) != head) {
      EXPECT_TRUE(same_bits(got, plain.pose().local[i])) << m.nodes[i].name;
    }
  }
  EXPECT_GE(changed, 3);
  EXPECT_FALSE(same_bits(layered.pose().local[size_t(head)], plain.pose().local[size_t(head)]));
}

TEST(PosingStack, LayersApplyInOrderAndZeroWeightOrNoClipIsFree) {
  const Model& m = mannequin();
  const PoseSelection base{clip_index(m, "Idle"), 0.5f};
  Character plain(m), layered(m);
  plain.evaluate(base);
  PoseStack stack(layered);
  stack.base = base;
  PoseLayer off;
  off.clip = clip_index(m, "Run");
  off.weight = 0.0f;
  stack.add_layer(off);
  PoseLayer none;
  none.clip = -1;
  stack.add_layer(none);
  layered.evaluate(stack);
  EXPECT_EQ(std::memcmp(plain.pose().local.data(), layered.pose().local.data(),
                        m.nodes.size() * sizeof(Transform)),
            0);
  // Override Run at 0.5 over Idle equals the crossfade Idle→Run at 0.5.
  stack.layer(0).weight = 0.5f;
  stack.layer(0).time = 0.2f;
  layered.evaluate(stack);
  plain.evaluate(PoseSelection{base.clip, base.time, off.clip, 0.2f, 0.5f});
  EXPECT_EQ(std::memcmp(plain.pose().local.data(), layered.pose().local.data(),
                        m.nodes.size() * sizeof(Transform)),
            0);
  stack.remove_layer(0);
  EXPECT_EQ(stack.layer_count(), 1u);
  stack.clear_layers();
  EXPECT_EQ(stack.layer_count(), 0u);
}

}  // namespace
}  // namespace rig
