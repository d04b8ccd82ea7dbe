// Playback controller: loop wrap, clamping, stepping, crossfade timing and phase sync, against
// hand-computed times.
#include "anim/playback.h"

#include <gtest/gtest.h>

namespace {

constexpr float kEps = 1e-5f;

// A clip on [start, end] whose one channel has keys every `key_gap` seconds (0: two keys only).
rig::Clip make_clip(float start, float end, float key_gap = 0.0f) {
  rig::Clip clip;
  clip.start = start;
  clip.end = end;
  rig::Channel channel;
  channel.node = 0;
  if (key_gap > 0.0f) {
    for (float t = start; t <= end + 1e-6f; t += key_gap) channel.times.push_back(t);
  } else {
    channel.times = {start, end};
  }
  channel.values.assign(channel.times.size() * 3, 0.0f);
  clip.channels.push_back(channel);
  return clip;
}

rig::Model model_with(std::initializer_list<rig::Clip> clips) {
  rig::Model model;
  model.nodes.resize(1);
  model.clips = clips;
  return model;
}

TEST(Playback, StartsOnFirstClipAtItsStartPlayingAndLooping) {
  rig::Model model = model_with({make_clip(0.5f, 2.5f)});
  rig::Playback p(model);
  EXPECT_EQ(p.clip(), 0);
  EXPECT_FLOAT_EQ(p.time(), 0.5f);
  EXPECT_TRUE(p.playing());
  EXPECT_TRUE(p.looping());
  rig::PoseSelection s = p.selection();
  EXPECT_EQ(s.clip, 0);
  EXPECT_FLOAT_EQ(s.time, 0.5f);
  EXPECT_EQ(s.blend_clip, -1);
}

TEST(Playback, ModelWithoutClipsSelectsTheRestPose) {
  rig::Model model = model_with({});
  rig::Playback p(model);
  p.advance(0.5f);
  p.step_frames(1);
  EXPECT_EQ(p.selection().clip, -1);
  EXPECT_FALSE(p.start_crossfade(0, 1.0f, false));
}

TEST(Playback, LoopWrapsAroundTheEnd) {
  // Clip [1, 3]: 2.8 + 0.5 = 3.3 → wraps to 1 + 0.3 = 1.3.
  rig::Model model = model_with({make_clip(1.0f, 3.0f)});
  rig::Playback p(model);
  p.set_time(2.8f);
  p.advance(0.5f);
  EXPECT_NEAR(p.time(), 1.3f, kEps);
  EXPECT_TRUE(p.playing());
  // Several whole loops in one step: 1.3 + 4.25 = 5.55 → offset 4.55 mod 2 = 0.55 → 1.55.
  p.advance(4.25f);
  EXPECT_NEAR(p.time(), 1.55f, kEps);
}

TEST(Playback, DoubleSpeedAdvancesTwiceAsFar) {
  rig::Model model = model_with({make_clip(0.0f, 4.0f)});
  rig::Playback p(model);
  p.set_speed(2.0f);
  p.advance(0.25f);
  EXPECT_NEAR(p.time(), 0.5f, kEps);
  p.set_speed(5.0f);  // clamped to 2
  EXPECT_FLOAT_EQ(p.speed(), 2.0f);
  p.set_speed(-7.0f);
  EXPECT_FLOAT_EQ(p.speed(), -2.0f);
}

TEST(Playback, BackwardPlaybackWrapsAroundTheStart) {
  // Clip [1, 3], speed -1: 1.2 - 0.5 = 0.7 → wraps to 3 - 0.3 = 2.7.
  rig::Model model = model_with({make_clip(1.0f, 3.0f)});
  rig::Playback p(model);
  p.set_speed(-1.0f);
  p.set_time(1.2f);
  p.advance(0.5f);
  EXPECT_NEAR(p.time(), 2.7f, kEps);
  // Half speed backward: 2.7 - 0.5 * 0.4 = 2.5.
  p.set_speed(-0.5f);
  p.advance(0.4f);
  EXPECT_NEAR(p.time(), 2.5f, kEps);
}

TEST(Playback, WithoutLoopClampsAtTheEndAndStops) {
  rig::Model model = model_with({make_clip(0.0f, 2.0f)});
  rig::Playback p(model);
  p.set_looping(false);
  p.set_time(1.8f);
  p.advance(0.5f);
  EXPECT_FLOAT_EQ(p.time(), 2.0f);
  EXPECT_FALSE(p.playing());
  p.advance(0.5f);  // stopped: nothing moves
  EXPECT_FLOAT_EQ(p.time(), 2.0f);
}

TEST(Playback, WithoutLoopBackwardClampsAtTheStartAndStops) {
  rig::Model model = model_with({make_clip(0.5f, 2.0f)});
  rig::Playback p(model);
  p.set_looping(false);
  p.set_speed(-2.0f);
  p.set_time(0.9f);
  p.advance(0.1f);  // 0.9 - 0.2 = 0.7, still inside
  EXPECT_NEAR(p.time(), 0.7f, kEps);
  EXPECT_TRUE(p.playing());
  p.advance(0.5f);  // 0.7 - 1.0 → clamps at 0.5
  EXPECT_FLOAT_EQ(p.time(), 0.5f);
  EXPECT_FALSE(p.playing());
}

TEST(Playback, PauseFreezesTime) {
  rig::Model model = model_with({make_clip(0.0f, 2.0f)});
  rig::Playback p(model);
  p.toggle_playing();
  p.advance(0.5f);
  EXPECT_FLOAT_EQ(p.time(), 0.0f);
}

TEST(Playback, ScrubAndJumpsClampToTheClip) {
  rig::Model model = model_with({make_clip(0.5f, 2.0f)});
  rig::Playback p(model);
  p.set_time(5.0f);
  EXPECT_FLOAT_EQ(p.time(), 2.0f);
  p.set_time(-1.0f);
  EXPECT_FLOAT_EQ(p.time(), 0.5f);
  p.jump_to_end();
  EXPECT_FLOAT_EQ(p.time(), 2.0f);
  p.jump_to_start();
  EXPECT_FLOAT_EQ(p.time(), 0.5f);
}

TEST(Playback, FrameIsTheKeySpacingOfABakedClip) {
  // Keys every 1/24 s over 1 s: frame = 1/24, 25 frames (0..24).
  rig::Model model = model_with({make_clip(0.0f, 1.0f, 1.0f / 24.0f), make_clip(0.0f, 2.0f)});
  rig::Playback p(model);
  EXPECT_NEAR(p.frame_duration(0), 1.0f / 24.0f, kEps);
  EXPECT_EQ(p.frame_count(0), 25);
  // Two keys 2 s apart is not a frame rate: 1/30 s, 61 frames.
  EXPECT_FLOAT_EQ(p.frame_duration(1), 1.0f / 30.0f);
  EXPECT_EQ(p.frame_count(1), 61);
}

TEST(Playback, StepMovesOneFrameOnTheGridPausesAndClamps) {
  rig::Model model = model_with({make_clip(1.0f, 2.0f, 0.1f)});
  rig::Playback p(model);
  p.set_time(1.32f);  // nearest grid frame is 3 (1.3)
  p.step_frames(1);
  EXPECT_FALSE(p.playing());
  EXPECT_NEAR(p.time(), 1.4f, kEps);
  EXPECT_EQ(p.frame_index(), 4);
  p.step_frames(-1);
  p.step_frames(-1);
  EXPECT_NEAR(p.time(), 1.2f, kEps);
  p.jump_to_end();
  p.step_frames(1);  // never wraps: stays on the end
  EXPECT_FLOAT_EQ(p.time(), 2.0f);
  p.jump_to_start();
  p.step_frames(-1);
  EXPECT_FLOAT_EQ(p.time(), 1.0f);
}

TEST(Playback, CrossfadeWeightIsLinearOverTheDuration) {
  rig::Model model = model_with({make_clip(0.0f, 4.0f), make_clip(10.0f, 14.0f)});
  rig::Playback p(model);
  ASSERT_TRUE(p.start_crossfade(1, 0.8f, false));
  EXPECT_TRUE(p.fading());
  EXPECT_FLOAT_EQ(p.blend_weight(), 0.0f);
  p.advance(0.2f);  // 25% of 0.8 s
  EXPECT_NEAR(p.blend_weight(), 0.25f, kEps);
  rig::PoseSelection s = p.selection();
  EXPECT_EQ(s.clip, 0);
  EXPECT_EQ(s.blend_clip, 1);
  EXPECT_NEAR(s.blend_weight, 0.25f, kEps);
  p.advance(0.6f);  // 100%: the target is now the only clip
  EXPECT_FALSE(p.fading());
  s = p.selection();
  EXPECT_EQ(s.clip, 1);
  EXPECT_EQ(s.blend_clip, -1);
  EXPECT_NEAR(s.time, 10.8f, kEps);
}

TEST(Playback, BothClipsAdvanceDuringTheFade) {
  // Source [0, 4] at 1.0, target [10, 14] from its start, speed 1.5, fade 2 s.
  rig::Model model = model_with({make_clip(0.0f, 4.0f), make_clip(10.0f, 14.0f)});
  rig::Playback p(model);
  p.set_speed(1.5f);
  p.set_time(1.0f);
  ASSERT_TRUE(p.start_crossfade(1, 2.0f, false));
  EXPECT_FLOAT_EQ(p.fade_target_time(), 10.0f);
  p.advance(0.5f);  // both move by 0.75; fade clock 0.75 of 2.0
  EXPECT_NEAR(p.time(), 1.75f, kEps);
  EXPECT_NEAR(p.fade_target_time(), 10.75f, kEps);
  EXPECT_NEAR(p.blend_weight(), 0.375f, kEps);
  p.set_playing(false);
  p.advance(1.0f);  // paused: the fade freezes too
  EXPECT_NEAR(p.blend_weight(), 0.375f, kEps);
}

TEST(Playback, FadeProgressCanBeHeldAtAGivenWeight) {
  // A command-line blend: weight 0.4 of a 0.5 s fade, target at 11.5 s (clamped into [10, 14]).
  rig::Model model = model_with({make_clip(0.0f, 4.0f), make_clip(10.0f, 14.0f)});
  rig::Playback p(model);
  ASSERT_TRUE(p.start_crossfade(1, 0.5f, false));
  p.set_fade_progress(0.4f, 11.5f);
  EXPECT_NEAR(p.blend_weight(), 0.4f, kEps);
  EXPECT_FLOAT_EQ(p.fade_target_time(), 11.5f);
  p.set_fade_progress(2.0f, 20.0f);
  EXPECT_FLOAT_EQ(p.blend_weight(), 1.0f);
  EXPECT_FLOAT_EQ(p.fade_target_time(), 14.0f);
  // Remaining 60% of 0.5 s is 0.3 s: after 0.2 s the fade is still running at 0.8.
  p.set_fade_progress(0.4f, 11.5f);
  p.advance(0.2f);
  EXPECT_NEAR(p.blend_weight(), 0.8f, kEps);
  EXPECT_NEAR(p.fade_target_time(), 11.7f, kEps);
}

TEST(Playback, PhaseSyncMatchesNormalizedTime) {
  // Source [0, 2] at 0.5 → 25%; target [1, 5] → 1 + 0.25 * 4 = 2.
  rig::Model model = model_with({make_clip(0.0f, 2.0f), make_clip(1.0f, 5.0f)});
  rig::Playback p(model);
  p.set_time(0.5f);
  ASSERT_TRUE(p.start_crossfade(1, 1.0f, true));
  EXPECT_NEAR(p.fade_target_time(), 2.0f, kEps);
  // Without sync the target starts at its start.
  p.select_clip(0);
  p.set_time(0.5f);
  ASSERT_TRUE(p.start_crossfade(1, 1.0f, false));
  EXPECT_FLOAT_EQ(p.fade_target_time(), 1.0f);
}

TEST(Playback, ZeroDurationFadeSwitchesAtOnce) {
  rig::Model model = model_with({make_clip(0.0f, 2.0f), make_clip(1.0f, 5.0f)});
  rig::Playback p(model);
  p.set_time(1.0f);
  ASSERT_TRUE(p.start_crossfade(1, 0.0f, true));
  EXPECT_FALSE(p.fading());
  EXPECT_EQ(p.clip(), 1);
  EXPECT_NEAR(p.time(), 3.0f, kEps);  // 50% of [1, 5]
  EXPECT_FALSE(p.start_crossfade(7, 1.0f, false));
}

TEST(Playback, ZeroLengthClipNeverDividesByZero) {
  rig::Model model = model_with({make_clip(0.75f, 0.75f), make_clip(0.0f, 2.0f)});
  rig::Playback p(model);
  p.advance(0.5f);
  EXPECT_FLOAT_EQ(p.time(), 0.75f);
  EXPECT_FLOAT_EQ(p.normalized_time(0, 0.75f), 0.0f);
  EXPECT_EQ(p.frame_count(0), 1);
  p.step_frames(1);
  EXPECT_FLOAT_EQ(p.time(), 0.75f);
  // Phase sync from a zero-length source starts the target at its start.
  p.set_playing(true);
  ASSERT_TRUE(p.start_crossfade(1, 1.0f, true));
  EXPECT_FLOAT_EQ(p.fade_target_time(), 0.0f);
  p.advance(0.5f);
  EXPECT_FLOAT_EQ(p.time(), 0.75f);
  EXPECT_NEAR(p.fade_target_time(), 0.5f, kEps);
  // Fading into a zero-length clip with phase sync: stays on its only time.
  p.select_clip(1);
  p.set_time(1.0f);
  ASSERT_TRUE(p.start_crossfade(0, 0.5f, true));
  EXPECT_FLOAT_EQ(p.fade_target_time(), 0.75f);
  // Without loop a zero-length clip stops playback at once instead of spinning.
  p.select_clip(0);
  p.set_looping(false);
  p.set_playing(true);
  p.advance(0.1f);
  EXPECT_FALSE(p.playing());
  EXPECT_FLOAT_EQ(p.time(), 0.75f);
}

}  // namespace
