#include "viewer/timeline_scale.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace rigview {

float timeline_time_at(float x, float left, float width, float start, float end) {
  if (!(end > start) || !(width > 0.0f)) return start;
  const float u = std::clamp((x - left) / width, 0.0f, 1.0f);
  return start + u * (end - start);
}

float timeline_x_at(float time, float left, float width, float start, float end) {
  if (!(end > start)) return left;
  return left + std::clamp((time - start) / (end - start), 0.0f, 1.0f) * width;
}

const char* format_time_readout(char* out, size_t size, float time, float start, float end,
                                int frame_index, int frames) {
  const float shown = std::clamp(time, start, std::max(start, end)) - start;
  frames = std::max(frames, 1);
  const int frame = std::clamp(frame_index, 0, frames - 1) + 1;
  std::snprintf(out, size, "%.3f / %.3f s   frame %d / %d", double(shown),
                double(std::max(end - start, 0.0f)), frame, frames);
  return out;
}

size_t mark_key_columns(const rig::Clip& clip, std::span<unsigned char> columns) {
  std::fill(columns.begin(), columns.end(), static_cast<unsigned char>(0));
  const size_t n = columns.size();
  if (n == 0) return 0;
  const float start = clip.start, length = clip.end - clip.start;
  auto column_of = [&](float t) {
    if (!(length > 0.0f)) return size_t{0};
    const float u = std::clamp((t - start) / length, 0.0f, 1.0f);
    return std::min(static_cast<size_t>(u * static_cast<float>(n)), n - 1);
  };
  size_t marked = 0;
  for (const rig::Channel& channel : clip.channels) {
    auto it = channel.times.begin();
    while (it != channel.times.end()) {
      const size_t c = column_of(*it);
      if (!columns[c]) columns[c] = 1, ++marked;
      if (c + 1 >= n) break;
      // The first key of a later column: every key before it lands in column c.
      const float next = start + length * static_cast<float>(c + 1) / static_cast<float>(n);
      it = std::lower_bound(it + 1, channel.times.end(), next);
    }
  }
  return marked;
}

}  // namespace rigview
