#include "anim/playback.h"

#include <algorithm>
#include <cmath>

namespace rig {

namespace {

// The frame a clip was baked at: the smallest key gap of any channel when it looks like a frame
// rate (1 ms .. 100 ms); sparse hand-keyed clips fall back to 1/30 s.
float clip_frame_duration(const Clip& clip) {
  float smallest = 0.0f;
  for (const Channel& channel : clip.channels) {
    for (size_t k = 1; k < channel.times.size(); ++k) {
      const float gap = channel.times[k] - channel.times[k - 1];
      if (gap >= 1e-3f && (smallest == 0.0f || gap < smallest)) smallest = gap;
    }
  }
  if (smallest >= 1e-3f && smallest <= 0.1f + 1e-4f) return smallest;  // + float noise
  return Playback::kDefaultFrame;
}

}  // namespace

Playback::Playback(const Model& model) : model_(&model) {
  frame_durations_.reserve(model.clips.size());
  for (const Clip& clip : model.clips) frame_durations_.push_back(clip_frame_duration(clip));
  if (!model.clips.empty()) {
    clip_ = 0;
    time_ = model.clips[0].start;
  }
}

float Playback::clip_duration(int index) const {
  if (!model_ || index < 0 || index >= static_cast<int>(model_->clips.size())) return 0.0f;
  const Clip& clip = model_->clips[static_cast<size_t>(index)];
  return std::max(0.0f, clip.end - clip.start);
}

float Playback::frame_duration(int index) const {
  if (index < 0 || index >= static_cast<int>(frame_durations_.size())) return kDefaultFrame;
  return frame_durations_[static_cast<size_t>(index)];
}

int Playback::frame_count(int index) const {
  const float frame = frame_duration(index);
  // +1: a clip of N frame gaps shows frames 0..N. The epsilon absorbs float noise in end-start.
  return static_cast<int>(std::floor(clip_duration(index) / frame + 1e-3f)) + 1;
}

int Playback::frame_index() const {
  if (clip_ < 0) return 0;
  const float frame = frame_duration(clip_);
  const float from_start = time_ - model_->clips[static_cast<size_t>(clip_)].start;
  return static_cast<int>(std::lround(from_start / frame));
}

float Playback::normalized_time(int index, float time) const {
  const float duration = clip_duration(index);
  if (duration <= 0.0f) return 0.0f;
  const float start = model_->clips[static_cast<size_t>(index)].start;
  return std::clamp((time - start) / duration, 0.0f, 1.0f);
}

float Playback::blend_weight() const {
  if (fade_target_ < 0) return 0.0f;
  if (fade_duration_ <= 0.0f) return 1.0f;
  return std::clamp(fade_elapsed_ / fade_duration_, 0.0f, 1.0f);
}

void Playback::select_clip(int index) {
  if (!model_ || index < 0 || index >= static_cast<int>(model_->clips.size())) return;
  clip_ = index;
  time_ = model_->clips[static_cast<size_t>(index)].start;
  cancel_crossfade();
}

void Playback::set_time(float time) {
  if (clip_ < 0) return;
  const Clip& clip = model_->clips[static_cast<size_t>(clip_)];
  // NaN from a bad caller would stick forever; treat it as the start.
  time_ = std::isfinite(time) ? std::clamp(time, clip.start, clip.end) : clip.start;
}

void Playback::jump_to_start() {
  if (clip_ >= 0) time_ = model_->clips[static_cast<size_t>(clip_)].start;
}

void Playback::jump_to_end() {
  if (clip_ >= 0) time_ = model_->clips[static_cast<size_t>(clip_)].end;
}

void Playback::step_frames(int frames) {
  playing_ = false;
  if (clip_ < 0) return;
  const Clip& clip = model_->clips[static_cast<size_t>(clip_)];
  const float frame = frame_duration(clip_);
  const long current = std::lround((time_ - clip.start) / frame);
  set_time(clip.start + static_cast<float>(current + frames) * frame);
}

void Playback::set_speed(float speed) {
  speed_ = std::isfinite(speed) ? std::clamp(speed, kMinSpeed, kMaxSpeed) : 1.0f;
}

bool Playback::start_crossfade(int target, float duration, bool phase_sync) {
  if (clip_ < 0 || !model_ || target < 0 || target >= static_cast<int>(model_->clips.size()))
    return false;
  const Clip& to = model_->clips[static_cast<size_t>(target)];
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
  const Clip& target = model_->clips[static_cast<size_t>(fade_target_)];
  fade_elapsed_ = (std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f) * fade_duration_;
  fade_time_ =
      std::isfinite(target_time) ? std::clamp(target_time, target.start, target.end) : target.start;
}

bool Playback::advance_clip_time(int index, float delta, float& time) const {
  const Clip& clip = model_->clips[static_cast<size_t>(index)];
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
