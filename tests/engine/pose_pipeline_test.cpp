// The pose pipeline's jobs (sampling with key cursors, layered blending, sub-range local→world)
// and the Character that runs them, against hand-worked values and brute-force references.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "anim/blending_job.h"
#include "anim/local_to_world_job.h"
#include "anim/sampling.h"
#include "anim/sampling_job.h"
#include "character/character.h"
#include "test_models.h"

namespace rig {
namespace {

using test::add_node;
using test::axis_angle;
using test::expect_vec3;

bool same_bits(const Transform& a, const Transform& b) {
  return std::memcmp(&a, &b, sizeof(Transform)) == 0;
}

// The key segment by definition: the last k with times[k] <= t, at most n − 2.
size_t segment_by_scan(const std::vector<float>& times, float t) {
  size_t k = 0;
  for (size_t i = 0; i + 1 < times.size(); ++i)
    if (times[i] <= t) k = i;
  return k;
}

TEST(SamplingCursor, FindsTheSegmentFromAnyCursor) {
  const std::vector<float> times = {0.0f, 0.1f, 0.15f, 0.4f, 0.41f, 1.0f, 2.5f, 2.6f};
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> time(0.0f, 2.5999f);
  std::uniform_int_distribution<uint32_t> any_cursor(0, 20);  // also past the last key
  for (int i = 0; i < 2000; ++i) {
    const float t = time(rng);
    uint32_t cursor = any_cursor(rng);
    const size_t want = segment_by_scan(times, t);
    EXPECT_EQ(find_key(times, t, cursor), want) << "t=" << t;
    EXPECT_EQ(cursor, want);
  }
  // Exactly on a key, from every cursor: the segment that starts there (the last one holds
  // the final key).
  for (size_t key = 0; key < times.size(); ++key)
    for (uint32_t start = 0; start < times.size() + 2; ++start) {
      uint32_t cursor = start;
      EXPECT_EQ(find_key(times, times[key], cursor), std::min(key, times.size() - 2));
    }
}

// Shoulder/elbow with the elbow turning about Z: keys every 0.1 s, 0° → 90° → 0° ...
Model keyed_arm() {
  Model m = test::shoulder_elbow_model();
  Clip clip;
  clip.name = "swing";
  std::vector<float> times;
  std::vector<glm::quat> keys;
  for (int k = 0; k <= 20; ++k) {
    times.push_back(0.1f * float(k));
    keys.push_back(axis_angle({0, 0, 1}, (k % 2) ? 90.0f : 0.0f));
  }
  clip.channels.push_back(test::rotation_channel(1, times, keys));
  clip.start = 0.0f;
  clip.end = 2.0f;
  m.clips.push_back(clip);
  return m;
}

TEST(SamplingJob, ForwardPlaybackWithCursorsEqualsFreshSamples) {
  const Model m = keyed_arm();
  const RawClipSource source(m, m.clips[0]);
  std::vector<Transform> rest = {m.nodes[0].rest, m.nodes[1].rest};
  std::vector<Transform> with_cursor(2), fresh(2);
  std::vector<uint32_t> cursors(source.cursor_count(), 0);
  SamplingJob job{&source, 0.0f, cursors, rest, {}, with_cursor, {}};
  // Forward at 30 Hz, then a jump back, then forward again: cursors must never change values.
  std::vector<float> times;
  for (int f = 0; f <= 60; ++f) times.push_back(f / 30.0f);
  times.push_back(0.05f);
  times.push_back(1.95f);
  times.push_back(0.25f);
  for (float t : times) {
    job.time = t;
    ASSERT_TRUE(job.run());
    std::copy(rest.begin(), rest.end(), fresh.begin());
    source.sample(t, {}, fresh, {});
    EXPECT_TRUE(same_bits(with_cursor[1], fresh[1])) << "t=" << t;
    EXPECT_TRUE(same_bits(with_cursor[0], rest[0]));  // not animated: the rest pose
  }
  // 0.05 s is halfway between 0° and 90°: 45° about Z.
  job.time = 0.05f;
  job.run();
  EXPECT_NEAR(test::angle_degrees(with_cursor[1].rotation), 45.0f, 1e-3f);
}

TEST(SamplingJob, ValidateRejectsWrongSizes) {
  const Model m = keyed_arm();
  const RawClipSource source(m, m.clips[0]);
  std::vector<Transform> rest(2), out(2), short_out(1);
  std::vector<uint32_t> cursors(source.cursor_count(), 0), no_cursors;
  EXPECT_TRUE((SamplingJob{&source, 0.5f, cursors, rest, {}, out, {}}).validate());
  EXPECT_FALSE((SamplingJob{nullptr, 0.5f, cursors, rest, {}, out, {}}).validate());
  EXPECT_FALSE((SamplingJob{&source, 0.5f, no_cursors, rest, {}, out, {}}).validate());
  const SamplingJob bad{&source, 0.5f, cursors, rest, {}, short_out, {}};
  short_out[0].translation = glm::vec3(7.0f);
  EXPECT_FALSE(bad.run());
  EXPECT_EQ(short_out[0].translation, glm::vec3(7.0f));  // nothing written
}

BlendLayer layer(const std::vector<Transform>& local, float weight,
                 const std::vector<float>& joint_weights = {}) {
  return BlendLayer{local, {}, weight, joint_weights};
}

TEST(BlendingJob, TwoLayersAreTheCrossfade) {
  std::vector<Transform> a(1), b(1), out(1);
  a[0].translation = {0, 0, 0};
  b[0].translation = {10, -4, 2};
  b[0].scale = {3, 1, 1};
  b[0].rotation = axis_angle({0, 0, 1}, 90.0f);
  const BlendLayer layers[] = {layer(a, 1.0f), layer(b, 0.3f)};
  ASSERT_TRUE((BlendingJob{layers, out, {}}).run());
  expect_vec3(out[0].translation, {3.0f, -1.2f, 0.6f});
  expect_vec3(out[0].scale, {1.6f, 1.0f, 1.0f});
  // Slerp 30% of the way from 0° to 90° about Z: 27°.
  EXPECT_NEAR(test::angle_degrees(out[0].rotation), 27.0f, 1e-3f);
  EXPECT_GT(out[0].rotation.z * out[0].rotation.w, 0.0f);  // about +Z
}

TEST(BlendingJob, LayersApplyInOrderOverTheResultSoFar) {
  std::vector<Transform> base(1), first(1), second(1), out(1);
  first[0].translation = {10, 0, 0};
  second[0].translation = {20, 0, 0};
  const BlendLayer layers[] = {layer(base, 1.0f), layer(first, 0.5f), layer(second, 0.5f)};
  ASSERT_TRUE((BlendingJob{layers, out, {}}).run());
  // 0 → halfway to 10 = 5 → halfway to 20 = 12.5.
  EXPECT_FLOAT_EQ(out[0].translation.x, 12.5f);
}

TEST(BlendingJob, JointWeightsMaskALayer) {
  std::vector<Transform> base(3), over(3), out(3);
  for (int i = 0; i < 3; ++i) {
    base[i].rotation = axis_angle({1, 0, 0}, 10.0f * float(i + 1));
    over[i].rotation = axis_angle({0, 0, 1}, 90.0f);
  }
  base[0].rotation = glm::quat(1, 0, 0, 0);
  const std::vector<float> mask = {0.5f, 0.0f, 1.0f};
  const BlendLayer layers[] = {layer(base, 1.0f), layer(over, 0.5f, mask)};
  ASSERT_TRUE((BlendingJob{layers, out, {}}).run());
  // Node 0: 0.5 × 0.5 = 25% of 90° from identity.
  EXPECT_NEAR(test::angle_degrees(out[0].rotation), 22.5f, 1e-3f);
  // Node 1: masked out, bit-identical to the base.
  EXPECT_TRUE(same_bits(out[1], base[1]));
  // Node 2: the layer weight alone, 0.5.
  EXPECT_TRUE(same_bits(out[2], blend_transforms(base[2], over[2], 0.5f)));
}

TEST(BlendingJob, ZeroWeightLeavesTheBaseBitIdentical) {
  std::vector<Transform> base(2), over(2), out(2);
  base[0].translation = {0.1f, 0.2f, 0.3f};
  base[1].rotation = glm::normalize(glm::quat(0.9f, 0.1f, 0.2f, 0.3f));
  over[0].translation = {5, 5, 5};
  const BlendLayer layers[] = {layer(base, 1.0f), layer(over, 0.0f)};
  ASSERT_TRUE((BlendingJob{layers, out, {}}).run());
  EXPECT_TRUE(same_bits(out[0], base[0]));
  EXPECT_TRUE(same_bits(out[1], base[1]));
}

TEST(BlendingJob, ValidateRejectsMismatchedLayers) {
  std::vector<Transform> two(2), one(1), out(2);
  const std::vector<float> bad_mask = {1.0f};
  const BlendLayer mismatched[] = {layer(two, 1.0f), layer(one, 0.5f)};
  const BlendLayer masked[] = {layer(two, 1.0f), layer(two, 0.5f, bad_mask)};
  EXPECT_FALSE((BlendingJob{mismatched, out, {}}).validate());
  EXPECT_FALSE((BlendingJob{masked, out, {}}).validate());
  EXPECT_FALSE((BlendingJob{{}, out, {}}).validate());
}

// root ─┬─ a ── a1        Added in the order root, a, b, a1: parents first but not depth
//       └─ b              first, so the hierarchy must find the subtree ranges itself.
Model branching_model() {
  Model m;
  const int root = add_node(m, "root", -1, {0, 0, 0});
  const int a = add_node(m, "a", root, {1, 0, 0});
  add_node(m, "b", root, {0, 0, 1});
  add_node(m, "a1", a, {1, 0, 0});
  return m;
}

TEST(LocalToWorldJob, SubtreeUpdateRecomputesOnlyTheSubtree) {
  const Model m = branching_model();
  const Skeleton s = Skeleton::build(m);
  EXPECT_EQ(s.hierarchy.order, (std::vector<int>{0, 1, 3, 2}));
  std::vector<Transform> local;
  for (const Node& n : m.nodes) local.push_back(n.rest);
  std::vector<glm::mat4> world(4);
  ASSERT_TRUE((LocalToWorldJob{&s, local, world, -1}).run());
  expect_vec3(glm::vec3(world[3][3]), {2, 0, 0});

  // Turn `a` 90° about Z, mark b's matrix, update a's subtree alone.
  local[1].rotation = axis_angle({0, 0, 1}, 90.0f);
  world[2] = glm::mat4(5.0f);
  ASSERT_TRUE((LocalToWorldJob{&s, local, world, 1}).run());
  expect_vec3(glm::vec3(world[1][3]), {1, 0, 0});
  expect_vec3(glm::vec3(world[3][3]), {1, 1, 0});  // a1 swings up
  EXPECT_EQ(world[2], glm::mat4(5.0f));            // b untouched
}

TEST(LocalToWorldJob, ValidateRejectsWrongSizesAndRoots) {
  const Model m = branching_model();
  const Skeleton s = Skeleton::build(m);
  Skeleton no_hierarchy = s;
  no_hierarchy.hierarchy = {};
  std::vector<Transform> local(4), short_local(3);
  std::vector<glm::mat4> world(4);
  EXPECT_FALSE((LocalToWorldJob{&s, short_local, world, -1}).validate());
  EXPECT_FALSE((LocalToWorldJob{&no_hierarchy, local, world, 1}).validate());  // no hierarchy
  EXPECT_FALSE((LocalToWorldJob{&s, local, world, 4}).validate());
  EXPECT_TRUE((LocalToWorldJob{&s, local, world, 3}).validate());
}

TEST(LocalToWorldJob, ShearFollowsTheEditedPose) {
  Model m;
  add_node(m, "sheared", -1, {1, 2, 3});
  m.nodes[0].has_shear = true;
  m.nodes[0].shear[1][0] = 0.5f;  // y axis → (0.5, 1, 0)
  std::vector<Transform> local = {m.nodes[0].rest};
  std::vector<glm::mat4> world(1);
  const Skeleton s = Skeleton::build(m);
  LocalToWorldJob job{&s, local, world, -1};
  ASSERT_TRUE(job.run());
  expect_vec3(glm::vec3(world[0] * glm::vec4(0, 2, 0, 1)), {2, 4, 3});
  // An edit of the node's pose applies on top of the shear: 90° about Z after it.
  local[0].translation = {0, 0, 0};
  local[0].rotation = axis_angle({0, 0, 1}, 90.0f);
  ASSERT_TRUE(job.run());
  expect_vec3(glm::vec3(world[0] * glm::vec4(0, 2, 0, 1)), {-2, 1, 0});
}

// Turns one node about Z by a fixed angle and refreshes its subtree.
class TurnJoint : public PoseConstraint {
 public:
  TurnJoint(int node, float degrees) : node_(node), degrees_(degrees) {}
  void apply(const ConstraintContext& c) override {
    c.local[size_t(node_)].rotation =
        axis_angle({0, 0, 1}, degrees_) * c.local[size_t(node_)].rotation;
    c.update_world(node_);
  }

 private:
  int node_;
  float degrees_;
};

TEST(Character, ConstraintsRunAfterBlendingAndReachTheSkinningMatrices) {
  Model m = test::shoulder_elbow_model();
  add_node(m, "hand", 1, {1, 0, 0});
  Character character(m);
  TurnJoint turn(1, 90.0f);
  PoseConstraint* constraints[] = {&turn};
  character.set_constraints(constraints);
  character.evaluate(PoseSelection{});
  // Elbow at (1,0,0) turned 90°: the hand goes from (2,0,0) to (1,1,0).
  expect_vec3(glm::vec3(character.world()[2][3]), {1, 1, 0});
  // The elbow's skinning matrix carries the turn: the bind-space point (2,0,0) lands on the hand.
  const glm::mat4 elbow = character.skinning_matrices(0)[1];
  expect_vec3(glm::vec3(elbow * glm::vec4(2, 0, 0, 1)), {1, 1, 0});
}

TEST(Character, PalettesAreComputedOnlyForTheMethodsAskedFor) {
  const Model m = keyed_arm();
  Character character(m);
  character.evaluate(PoseSelection{0, 0.05f});
  for (const SkinningMethodInfo& info : skinning_methods())
    EXPECT_FALSE(character.palette_computed(info.method)) << info.name;
  const std::span<const glm::vec4> lbs = character.palette(0, SkinningMethod::Linear);
  EXPECT_TRUE(character.palette_computed(SkinningMethod::Linear));
  EXPECT_FALSE(character.palette_computed(SkinningMethod::DualQuaternion));
  // LBS rows are the skinning matrix's columns: the elbow's translation column at 45°.
  ASSERT_EQ(lbs.size(), 2u * 4u);
  const glm::mat4 elbow = character.skinning_matrices(0)[1];
  EXPECT_EQ(lbs[4 + 3], elbow[3]);
  character.evaluate(PoseSelection{0, 0.1f});
  EXPECT_FALSE(character.palette_computed(SkinningMethod::Linear));  // a new pose
}

TEST(Character, CrossfadeGoesThroughTheBlendingJob) {
  Model m = keyed_arm();
  Clip still = m.clips[0];
  still.name = "still";
  still.channels[0] =
      test::rotation_channel(1, {0.0f, 2.0f}, {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)});
  m.clips.push_back(still);
  Character character(m);
  // Clip 0 at 0.1 s is at 90°; clip 1 is at 0°; a 1/3 blend towards clip 1 is 60°.
  character.evaluate(PoseSelection{0, 0.1f, 1, 0.5f, 1.0f / 3.0f});
  EXPECT_NEAR(test::angle_degrees(character.pose().local[1].rotation), 60.0f, 1e-3f);
}

}  // namespace
}  // namespace rig
