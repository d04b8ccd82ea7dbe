#include "anim/playback.h"

#include <algorithm>
#include <cmath>

namespace rig {

Playback::Playback(const Model& model) : Playback(ClipSet::from_model(model)) {}

Playback::Playback(std::shared_ptr<const ClipSet> clips) : clips_(std::move(clips)) {
  if (clips_ && !clips_->empty()) {
    clip_ = 0;
    time_ = (*clips_)[0].start;
  }
}

float Playback::clip_duration(int index) const {
  if (!clips_ || !clips_->valid(index)) return 0.0f;
  const ClipEntry& clip = (*clips_)[static_cast<size_t>(index)];
  return std::max(0.0f, clip.end - clip.start);
}

float Playback::frame_duration(int index) const {
  if (!clips_ || !clips_->valid(index)) return kDefaultFrame;
  return (*clips_)[static_cast<size_t>(index)].frame_duration;
}

int Playback::frame_count(int index) const {
  const float frame = frame_duration(index);
  // +1: a clip of N frame gaps shows frames 0..N. The epsilon absorbs float noise in end-start.
  return static_cast<int>(std::floor(clip_duration(index) / frame + 1e-3f)) + 1;
}

int Playback::frame_index() const {
  if (clip_ < 0) return 0;
  const float frame = frame_duration(clip_);
  const float from_start = time_ - (*clips_)[static_cast<size_t>(clip_)].start;
  return static_cast<int>(std::lround(from_start / frame));
}

float Playback::normalized_time(int index, float time) const {
  const float duration = clip_duration(index);
  if (duration <= 0.0f) return 0.0f;
  const float start = (*clips_)[static_cast<size_t>(index)].start;
  return std::clamp((time - start) / duration, 0.0f, 1.0f);
}

float Playback::blend_weight() const {
  if (fade_target_ < 0) return 0.0f;
  if (fade_duration_ <= 0.0f) return 1.0f;
  return std::clamp(fade_elapsed_ / fade_duration_, 0.0f, 1.0f);
}

void Playback::select_clip(int index) {
  if (!clips_ || !clips_->valid(index)) return;
  clip_ = index;
  time_ = (*clips_)[static_cast<size_t>(index)].start;
  cancel_crossfade();
}

void Playback::set_time(float time) {
  if (clip_ < 0) return;
  const ClipEntry& clip = (*clips_)[static_cast<size_t>(clip_)];
  // NaN from a bad caller would stick forever; treat it as the start.
  time_ = std::isfinite(time) ? std::clamp(time, clip.start, clip.end) : clip.start;
}

void Playback::jump_to_start() {
  if (clip_ >= 0) time_ = (*clips_)[static_cast<size_t>(clip_)].start;
}

void Playback::jump_to_end() {
  if (clip_ >= 0) time_ = (*clips_)[static_cast<size_t>(clip_)].end;
}

void Playback::step_frames(int frames) {
  playing_ = false;
  if (clip_ < 0) return;
  const ClipEntry& clip = (*clips_)[static_cast<size_t>(clip_)];
  const float frame = frame_duration(clip_);
  const long current = std::lround((time_ - clip.start) / frame);
  set_time(clip.start + static_cast<float>(current + frames) * frame);
}

void Playback::set_speed(float speed) {
  speed_ = std::isfinite(speed) ? std::clamp(speed, kMinSpeed, kMaxSpeed) : 1.0f;
}

bool Playback::start_crossfade(int target, float duration, bool phase_sync) {
  if (clip_ < 0 || !clips_ || !clips_->valid(target)) return false;
  const ClipEntry& to = (*clips_)[static_cast<size_t>(target)];
  float target_time = to.start;
  if (phase_sync) target_time = to.start + normalized_time(clip_, time_) * clip_duration(target);
  duration = std::isfinite(duration) ? std::clamp(duration, 0.0f, kMaxFadeDuration) : 0.0f;
  if (duration <= 0.0f) {
    clip_ = target;
    time_ = target_time;
    cancel_crossfade();
    return true;
  }
  fade_target_ = target;
  fade_time_ = target_time;
  fade_duration_ = duration;
  fade_elapsed_ = 0.0f;
  return true;
}

void Playback::cancel_crossfade() {
  fade_target_ = -1;
  fade_time_ = 0.0f;
  fade_duration_ = 0.0f;
  fade_elapsed_ = 0.0f;
}

void Playback::set_fade_progress(float weight, float target_time) {
  if (fade_target_ < 0) return;
  const ClipEntry& target = (*clips_)[static_cast<size_t>(fade_target_)];
  fade_elapsed_ = (std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f) * fade_duration_;
  fade_time_ =
      std::isfinite(target_time) ? std::clamp(target_time, target.start, target.end) : target.start;
}

bool Playback::advance_clip_time(int index, float delta, float& time) const {
  const ClipEntry& clip = (*clips_)[static_cast<size_t>(index)];
  const float duration = clip.end - clip.start;
  if (delta == 0.0f) return false;  // speed 0: nothing moves, nothing stops
  if (duration <= 0.0f) {
    time = clip.start;
    return !looping_;
  }
  if (looping_) {
    float offset = std::fmod(time - clip.start + delta, duration);
    if (offset < 0.0f) offset += duration;
    // fmod of a tiny negative number plus duration can round up to duration itself.
    if (offset >= duration) offset = 0.0f;
    time = clip.start + offset;
    return false;
  }
  time += delta;
  if (time >= clip.end && delta >= 0.0f) {
    time = clip.end;
    return true;
  }
  if (time <= clip.start && delta <= 0.0f) {
    time = clip.start;
    return true;
  }
  time = std::clamp(time, clip.start, clip.end);
  return false;
}

void Playback::advance(float dt) {
  if (!playing_ || clip_ < 0 || !std::isfinite(dt) || dt <= 0.0f) return;
  const float delta = dt * speed_;
  const bool current_clamped = advance_clip_time(clip_, delta, time_);
  if (fade_target_ < 0) {
    if (current_clamped) playing_ = false;
    return;
  }
  const bool target_clamped = advance_clip_time(fade_target_, delta, fade_time_);
  fade_elapsed_ += std::fabs(delta);
  if (fade_elapsed_ >= fade_duration_) {
    clip_ = fade_target_;
    time_ = fade_time_;
    cancel_crossfade();
    if (target_clamped) playing_ = false;
  }
}

PoseSelection Playback::selection() const {
  PoseSelection s;
  s.clip = clip_;
  s.time = time_;
  if (fade_target_ >= 0) {
    s.blend_clip = fade_target_;
    s.blend_time = fade_time_;
    s.blend_weight = blend_weight();
  }
  return s;
}

}  // namespace rig
