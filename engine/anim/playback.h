// Playback controller: which clip plays, where its time is, and crossfades between clips.
// Pure logic over a clip set's clip ranges (anim/clip_set.h) (no GL, no UI); the viewer drives it
// once per frame and feeds its PoseSelection to the Character.
//
// Conventions:
// - Times are seconds on the file's timeline, always inside [clip.start, clip.end].
// - Speed is a signed multiplier in [-2, 2]; negative plays backward. One advance(dt) moves
//   the clip(s) by dt * speed seconds.
// - Loop on: time wraps inside [start, end) in both directions (reaching `end` exactly lands
//   on `start`). Loop off: time clamps at `end` (forward) or `start` (backward) and playback
//   stops once the clip that is shown at the end (the fade target while fading) is clamped.
// - Crossfade: both clips advance with the same signed delta; the fade's own clock advances by
//   |dt * speed| (playback time, so slow motion slows the fade and speed 0 freezes it). The
//   blend weight rises linearly from 0 to 1 over the duration; when it reaches 1 the target
//   becomes the current clip and the fade ends. Pause freezes everything.
// - A frame (for stepping and the frame number shown) is the clip's key spacing when the clip
//   looks baked at a frame rate: the smallest gap between consecutive keys of any channel, if
//   it lies in [1/1000 s, 1/10 s]; otherwise 1/30 s. Stepping pauses, snaps to that frame grid
//   measured from clip.start, and clamps at the ends (it never wraps).
// - Zero-length clips (start == end) hold their single time; normalized time is 0.
#pragma once

#include <memory>

#include "anim/clip_set.h"
#include "anim/pose_selection.h"
#include "model/model.h"

namespace rig {

class Playback {
 public:
  static constexpr float kMinSpeed = -2.0f;
  static constexpr float kMaxSpeed = 2.0f;
  static constexpr float kMaxFadeDuration = 2.0f;
  static constexpr float kDefaultFrame = kDefaultClipFrame;

  Playback() = default;
  // Starts on clip 0 at its start (no clip: the selection is the rest pose), playing, looping.
  // Clips added to the set later can be selected as soon as they are there.
  explicit Playback(std::shared_ptr<const ClipSet> clips);
  // Over the file's clips alone (a set of its own; allocates the clips' prepared sources).
  explicit Playback(const Model& model);
  const ClipSet* clips() const { return clips_.get(); }

  // Moves time forward by dt wall-clock seconds (scaled by speed). No allocation.
  void advance(float dt);

  // --- current clip and time ---
  int clip() const { return clip_; }
  float time() const { return time_; }
  // Selects clip `index` (ignored when out of range) at its start and cancels any fade.
  void select_clip(int index);
  // Scrubs the current clip; clamped to [start, end].
  void set_time(float time);
  void jump_to_start();
  void jump_to_end();
  // Pauses and moves `frames` frames (negative: backward) on the frame grid, clamped.
  void step_frames(int frames);

  // --- transport ---
  bool playing() const { return playing_; }
  void set_playing(bool playing) { playing_ = playing; }
  void toggle_playing() { playing_ = !playing_; }
  bool looping() const { return looping_; }
  void set_looping(bool looping) { looping_ = looping; }
  float speed() const { return speed_; }
  void set_speed(float speed);  // clamped to [kMinSpeed, kMaxSpeed]

  // --- crossfade ---
  // Starts fading from the current clip to `target` over `duration` seconds (clamped to
  // [0, kMaxFadeDuration]; 0 switches at once). The target starts at its start, or, with
  // `phase_sync`, at the same normalized time as the current clip. Returns false (nothing
  // changes) when there is no current clip or `target` is out of range.
  bool start_crossfade(int target, float duration, bool phase_sync);
  void cancel_crossfade();
  // Holds a running fade at `weight` (clamped to [0, 1]) of its duration and puts its target at
  // `target_time` (clamped to the target clip), e.g. to show a blend given on the command line.
  void set_fade_progress(float weight, float target_time);
  bool fading() const { return fade_target_ >= 0; }
  int fade_target() const { return fade_target_; }
  float fade_target_time() const { return fade_time_; }
  float fade_duration() const { return fade_duration_; }
  float blend_weight() const;  // 0 at the start of the fade, 1 at its end (0 when not fading)

  // --- clip facts ---
  float clip_duration(int index) const;   // end - start, 0 for an invalid index
  float frame_duration(int index) const;  // see the header comment
  int frame_index() const;                // current time's frame on the current clip's grid
  int frame_count(int index) const;       // frames on the clip's grid, at least 1
  float normalized_time(int index, float time) const;  // (time - start) / duration, 0 when 0

  // What the Character should show now.
  PoseSelection selection() const;

 private:
  // Moves `time` on clip `index` by `delta`; returns true when it was clamped at an end
  // (only without looping).
  bool advance_clip_time(int index, float delta, float& time) const;

  std::shared_ptr<const ClipSet> clips_;  // each entry's range and frame grid
  int clip_ = -1;
  float time_ = 0.0f;
  bool playing_ = true;
  bool looping_ = true;
  float speed_ = 1.0f;
  int fade_target_ = -1;
  float fade_time_ = 0.0f;
  float fade_duration_ = 0.0f;
  float fade_elapsed_ = 0.0f;
};

}  // namespace rig
