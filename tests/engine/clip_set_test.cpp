// The clip set: the file's clips at their file indices, ids and names, substitution, and the
// issue's test: a clip added to a character's set at run time plays, blends, layers and
// compresses with no other change (the Character, its Playback and its PoseStack all made
// before the clip was added). Expectations are computed by hand from the clip's keys.
//
// The model: Shoulder at the origin, Elbow 1 along the shoulder's X. File clip 0 "Hold" keeps
// the shoulder at rest (identity). The added clip "Raise" turns the shoulder about Z by 45°·t,
// keyed every 0.05 s over [0, 2]; LINEAR keys of one axis slerp to exactly that angle. With the
// shoulder turned θ about Z the elbow's world position is (cos θ, sin θ, 0).
#include "anim/clip_set.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "anim/playback.h"
#include "anim/sampling_job.h"
#include "character/character.h"
#include "character/pose_stack.h"
#include "compress/clip_compression.h"
#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;
using test::kDeg;

constexpr float kKeyStep = 0.05f;

Model arm_with_hold_clip() {
  Model m = test::shoulder_elbow_model();
  Clip hold = test::make_clip(
      {test::rotation_channel(0, {0.0f, 1.0f}, {glm::quat(1, 0, 0, 0), glm::quat(1, 0, 0, 0)})});
  hold.name = "Hold";
  m.clips.push_back(hold);
  return m;
}

Clip raise_clip() {
  std::vector<float> times;
  std::vector<glm::quat> keys;
  for (int k = 0; k <= 40; ++k) {
    const float t = float(k) * kKeyStep;
    times.push_back(t);
    keys.push_back(axis_angle({0, 0, 1}, 45.0f * t));
  }
  Clip c = test::make_clip({test::rotation_channel(0, times, keys)});
  c.name = "Raise";
  return c;
}

glm::vec3 elbow(const Character& c) { return glm::vec3(c.world()[1][3]); }

glm::vec3 turned(float degrees) {
  return {std::cos(degrees * kDeg), std::sin(degrees * kDeg), 0.0f};
}

TEST(ClipSet, FileClipsKeepTheirIndicesAndAddedOnesGetNewIdsAndNames) {
  const Model m = arm_with_hold_clip();
  const std::shared_ptr<ClipSet> set = ClipSet::from_model(m);
  ASSERT_EQ(set->size(), 1u);
  EXPECT_EQ((*set)[0].name, "Hold");
  EXPECT_EQ((*set)[0].origin, ClipOrigin::File);
  EXPECT_EQ((*set)[0].file_clip, 0);
  ASSERT_NE((*set)[0].keys, nullptr);
  const uint64_t before = set->revision();
  const int raise = set->add(m, raise_clip());
  EXPECT_EQ(raise, 1);
  EXPECT_NE(set->revision(), before);
  const ClipEntry& e = (*set)[size_t(raise)];
  EXPECT_EQ(e.origin, ClipOrigin::Added);
  EXPECT_EQ(e.file_clip, -1);
  EXPECT_NE(e.id, (*set)[0].id);
  EXPECT_EQ(set->find(e.id), raise);
  EXPECT_EQ(set->find(e.id + 100), -1);
  EXPECT_EQ(set->find_name("Raise"), raise);
  EXPECT_EQ(set->find_name("Hold"), 0);
  EXPECT_EQ(set->find_name("Nope"), -1);
  EXPECT_FLOAT_EQ(e.start, 0.0f);
  EXPECT_FLOAT_EQ(e.end, 2.0f);
  // A sampler-only entry (no raw keys) takes its range from the source.
  const int only = set->add("Raise again", e.source);
  EXPECT_EQ((*set)[size_t(only)].keys, nullptr);
  EXPECT_FLOAT_EQ((*set)[size_t(only)].end, 2.0f);
  EXPECT_EQ(set->add("nothing", nullptr), -1);
  // Ids are never reused, even across entries with the same name.
  EXPECT_NE((*set)[size_t(only)].id, e.id);
}

TEST(ClipSet, SubstituteAndRestore) {
  const Model m = arm_with_hold_clip();
  const std::shared_ptr<ClipSet> set = ClipSet::from_model(m);
  const int raise = set->add(m, raise_clip());
  const ClipSource* own = (*set)[size_t(raise)].source.get();
  const RawClipSource other(m, m.clips[0]);
  set->substitute(raise, borrowed_source(&other));
  EXPECT_EQ((*set)[size_t(raise)].source.get(), &other);
  EXPECT_FLOAT_EQ((*set)[size_t(raise)].end, 2.0f);  // the clip's range stays the clip's
  set->restore(raise);
  EXPECT_EQ((*set)[size_t(raise)].source.get(), own);
  set->substitute(7, borrowed_source(&other));  // out of range: ignored
  EXPECT_EQ(set->size(), 2u);
}

// An added clip replaced (retargeted again) keeps its index, id and name and plays the new
// keys: the "Raise" keys halved turn the shoulder 22.5°·t. The file's clips cannot be replaced.
TEST(ClipSet, ReplaceKeepsTheEntryAndPlaysTheNewKeys) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  const int raise = c.clips().add(m, raise_clip());
  const uint32_t id = c.clips()[size_t(raise)].id;
  const uint64_t revision = c.clips().revision();
  Clip half = raise_clip();
  half.name = "ignored";
  for (size_t k = 0; k < half.channels[0].times.size(); ++k) {
    const glm::quat q = axis_angle({0, 0, 1}, 22.5f * half.channels[0].times[k]);
    std::memcpy(&half.channels[0].values[4 * k], &q, sizeof q);  // x, y, z, w in memory
  }
  ASSERT_TRUE(c.clips().replace(raise, m, half));
  EXPECT_EQ(c.clips()[size_t(raise)].id, id);
  EXPECT_EQ(c.clips()[size_t(raise)].name, "Raise");
  EXPECT_EQ(c.clips()[size_t(raise)].keys->name, "Raise");
  EXPECT_GT(c.clips().revision(), revision);
  PoseSelection s;
  s.clip = raise;
  s.time = 1.0f;
  c.evaluate(s);
  test::expect_vec3(elbow(c), turned(22.5f));
  EXPECT_FALSE(c.clips().replace(0, m, raise_clip()));  // the file's
  EXPECT_FALSE(c.clips().replace(9, m, raise_clip()));  // no such entry
}

// Withdrawing an added clip (an undone add) keeps every index and id where it was, lists one
// clip fewer, and still samples; putting it back lists it again. The file's clips stay.
TEST(ClipSet, WithdrawKeepsIndicesAndPutsBack) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  const int raise = c.clips().add(m, raise_clip());
  const int again = c.clips().add(m, raise_clip());
  const uint32_t id = c.clips()[size_t(again)].id;
  ASSERT_EQ(c.clips().listed_count(), 3u);
  const uint64_t revision = c.clips().revision();
  ASSERT_TRUE(c.clips().withdraw(raise, true));
  EXPECT_GT(c.clips().revision(), revision);
  EXPECT_TRUE(c.clips()[size_t(raise)].withdrawn);
  EXPECT_FALSE(c.clips()[size_t(again)].withdrawn);
  EXPECT_EQ(c.clips().size(), 3u);
  EXPECT_EQ(c.clips().listed_count(), 2u);
  EXPECT_EQ(c.clips().find(id), again);
  PoseSelection s;
  s.clip = raise;
  s.time = 1.0f;
  c.evaluate(s);  // a withdrawn entry a stale selection still names plays as before
  test::expect_vec3(elbow(c), turned(45.0f));
  ASSERT_TRUE(c.clips().withdraw(raise, false));
  EXPECT_EQ(c.clips().listed_count(), 3u);
  EXPECT_FALSE(c.clips().withdraw(0, true));  // the file's
  EXPECT_FALSE(c.clips().withdraw(7, true));  // no such entry
  EXPECT_EQ(c.clips().listed_count(), 3u);
}

// (1) plays: Playback selects the added clip, its frame grid is the clip's key spacing, and the
// pose at a time is the keys' rotation at that time.
TEST(ClipSetRuntimeClip, AddedClipPlays) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  Playback p(c.shared_clips());
  const int raise = c.clips().add(m, raise_clip());  // at run time, nothing else touched
  p.select_clip(raise);
  ASSERT_EQ(p.clip(), raise);
  EXPECT_FLOAT_EQ(p.time(), 0.0f);
  EXPECT_FLOAT_EQ(p.clip_duration(raise), 2.0f);
  EXPECT_NEAR(p.frame_duration(raise), kKeyStep, 1e-6f);
  EXPECT_EQ(p.frame_count(raise), 41);
  p.advance(0.5f);
  EXPECT_FLOAT_EQ(p.time(), 0.5f);
  c.evaluate(p.selection());
  test::expect_vec3(elbow(c), turned(22.5f));
  p.step_frames(3);  // 0.5 s + 3 frames of 0.05 s
  EXPECT_NEAR(p.time(), 0.65f, 1e-5f);
  c.evaluate(p.selection());
  test::expect_vec3(elbow(c), turned(45.0f * 0.65f));
}

// (2) blends: a crossfade from the file clip (identity) to the added clip at 45° by weight
// 0.25 slerps a quarter of the way: 11.25°.
TEST(ClipSetRuntimeClip, AddedClipBlends) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  Playback p(c.shared_clips());
  const int raise = c.clips().add(m, raise_clip());
  ASSERT_TRUE(p.start_crossfade(raise, 1.0f, false));
  p.set_fade_progress(0.25f, 1.0f);
  const PoseSelection sel = p.selection();
  EXPECT_EQ(sel.clip, 0);
  EXPECT_EQ(sel.blend_clip, raise);
  EXPECT_FLOAT_EQ(sel.blend_weight, 0.25f);
  c.evaluate(sel);
  test::expect_vec3(elbow(c), turned(11.25f));
  // The other way round: from the added clip at 90° back to the file clip, weight 0.25.
  c.evaluate(PoseSelection{raise, 2.0f, 0, 0.5f, 0.25f});
  test::expect_vec3(elbow(c), turned(67.5f));
}

// (3) layers: an override layer of the added clip at 90°, weight 0.5, over the file clip gives
// 45°; an additive layer of it at 2 s (90° from its first frame, identity), weight 0.5, over
// the added clip itself at 1 s (45°) adds 45°: 90°. The stack was made before the clip existed.
TEST(ClipSetRuntimeClip, AddedClipLayers) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  PoseStack stack(c);
  const int raise = c.clips().add(m, raise_clip());
  stack.base = PoseSelection{0, 0.5f};
  PoseLayer over;
  over.clip = raise;
  over.time = 2.0f;
  over.weight = 0.5f;
  const size_t i = stack.add_layer(over);
  c.evaluate(stack);
  test::expect_vec3(elbow(c), turned(45.0f));

  stack.layer(i).mode = BlendMode::Additive;
  stack.base = PoseSelection{raise, 1.0f};
  c.evaluate(stack);
  test::expect_vec3(elbow(c), turned(90.0f));
  // Root motion settings reach the added clip too (its shoulder does not translate: no change).
  stack.set_root_motion(raise, RootMotionSettings{RootMotionMode::InPlace});
  c.evaluate(stack);
  test::expect_vec3(elbow(c), turned(90.0f), 1e-4f);
}

// (4) compresses: the entry's raw keys compress within the tolerance, and the compressed clip
// substituted for the entry plays within it of the hand-computed pose; restored, the raw keys
// play again.
TEST(ClipSetRuntimeClip, AddedClipCompresses) {
  const Model m = arm_with_hold_clip();
  Character c(m);
  const int raise = c.clips().add(m, raise_clip());
  ASSERT_NE(c.clips()[size_t(raise)].keys, nullptr);
  CompressionSettings settings;
  settings.tolerance_m = 1e-4;
  const CompressionResult r = compress_clip(m, *c.clips()[size_t(raise)].keys, settings);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LE(r.report.e_max, settings.tolerance_m);
  EXPECT_FALSE(r.report.times.empty());
  EXPECT_FLOAT_EQ(r.clip.start(), 0.0f);
  EXPECT_FLOAT_EQ(r.clip.end(), 2.0f);
  EXPECT_LT(r.sizes.compressed_bytes, r.sizes.file_bytes);
  c.clips().substitute(raise, borrowed_source(&r.clip));
  std::vector<uint32_t> cursors(r.clip.cursor_count(), 0);
  std::vector<Transform> direct(m.nodes.size());
  for (const float t : {0.3f, 1.1f, 1.975f}) {
    c.evaluate(PoseSelection{raise, t});
    // What plays is the compressed clip: its own sample, taken directly, bit for bit.
    const std::vector<Transform> rest = {m.nodes[0].rest, m.nodes[1].rest};
    ASSERT_TRUE((SamplingJob{&r.clip, t, cursors, rest, {}, direct, {}}.run()));
    EXPECT_EQ(std::memcmp(&direct[0], &c.pose().local[0], sizeof(Transform)), 0) << t;
    // The metric bounds the elbow joint's own position by the tolerance (1e-4 m); a wrong clip
    // is off by decimetres.
    test::expect_vec3(elbow(c), turned(45.0f * t), 2e-4f);
  }
  c.clips().restore(raise);
  c.evaluate(PoseSelection{raise, 1.1f});
  test::expect_vec3(elbow(c), turned(49.5f));
}

}  // namespace
}  // namespace rig
