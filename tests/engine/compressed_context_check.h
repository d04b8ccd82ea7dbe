// The CompressedClip's playback context against its readable form: sampling with a context (the
// cached, four-tracks-at-a-time path) must give the bits of sampling without one (every track
// located and decoded), whatever the context held before: forward playback, jumps backwards,
// random times, and contexts left by another clip or full of garbage.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "anim/compressed_clip.h"
#include "model/model.h"

namespace rig::test {

inline void expect_context_matches_uncached(const Model& model, const CompressedClip& clip,
                                            const CompressedClip* other = nullptr,
                                            const std::string& where = {}) {
  const size_t n = model.nodes.size();
  std::vector<Transform> with(n), without(n);
  std::vector<float> morph_with(model.morph_weight_count), morph_without(model.morph_weight_count);
  std::vector<uint32_t> context(clip.cursor_count(), 0);
  const float start = clip.start(), span = clip.end() - clip.start();
  std::vector<float> times;
  for (int i = -3; i <= 243; ++i) times.push_back(start + span * float(i) / 240.0f);    // forward
  for (int i = 240; i >= 0; i -= 7) times.push_back(start + span * float(i) / 240.0f);  // back
  for (int loop = 0; loop < 2; ++loop)  // looping playback: the end, then the start again
    for (int i = 0; i <= 240; i += 3) times.push_back(start + span * float(i) / 240.0f);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> any(start - 0.1f, start + span + 0.1f);
  for (int i = 0; i < 200; ++i) times.push_back(any(rng));
  for (uint32_t f = 0; f < clip.frame_count(); ++f) times.push_back(clip.frame_time(f));
  size_t mismatches = 0;
  for (size_t i = 0; i < times.size(); ++i) {
    if (i == times.size() / 3 && other) {  // a context another clip left behind
      std::vector<uint32_t> theirs(other->cursor_count(), 0);
      std::vector<Transform> scratch(n);
      std::vector<float> scratch_morph(model.morph_weight_count);
      other->sample(other->end() * 0.5f, theirs, scratch, scratch_morph);
      std::fill(context.begin(), context.end(), 0u);
      std::copy_n(theirs.begin(), std::min(theirs.size(), context.size()), context.begin());
    }
    if (i == 2 * times.size() / 3)  // garbage
      for (uint32_t& w : context) w = uint32_t(rng());
    for (size_t k = 0; k < n; ++k) with[k] = without[k] = model.nodes[k].rest;
    std::copy(model.rest_morph_weights.begin(), model.rest_morph_weights.end(), morph_with.begin());
    std::copy(model.rest_morph_weights.begin(), model.rest_morph_weights.end(),
              morph_without.begin());
    clip.sample(times[i], context, with, morph_with);
    clip.sample(times[i], {}, without, morph_without);
    // Bit for bit (memcmp: empty vectors may hold null pointers, which memcmp must not see).
    const bool same =
        (n == 0 || std::memcmp(with.data(), without.data(), n * sizeof(Transform)) == 0) &&
        (morph_with.empty() || std::memcmp(morph_with.data(), morph_without.data(),
                                           morph_with.size() * sizeof(float)) == 0);
    if (!same && ++mismatches <= 3) ADD_FAILURE() << where << ": time " << times[i] << " differs";
  }
  EXPECT_EQ(mismatches, 0u) << where;
}

}  // namespace rig::test
