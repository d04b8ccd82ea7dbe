// The compressor and the runtime CompressedClip on hand-made clips: smallest-three bounds, the
// error guarantee, STEP and CUBICSPLINE behaviour, morph weights, minimal clips kept, progress.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "anim/compressed_clip.h"
#include "anim/sampling.h"
#include "character/character.h"
#include "compress/clip_compression.h"
#include "compressed_context_check.h"
#include "test_models.h"

namespace rig {
namespace {

using test::axis_angle;
using test::make_clip;
using test::rotation_channel;
using test::vec3_channel;

std::vector<float> grid(int count, float rate) {
  std::vector<float> t;
  for (int i = 0; i < count; ++i) t.push_back(float(i) / rate);
  return t;
}

// A five-joint chain, 10 cm apart, a smooth 30 Hz clip on every joint (rotation), and the root
// translating: plenty of redundancy for key reduction.
Model chain_model(int frames = 31) {
  Model m;
  int parent = -1;
  Skin s;
  for (int j = 0; j < 5; ++j) {
    parent = test::add_node(m, "j" + std::to_string(j), parent, {j == 0 ? 0.0f : 0.1f, 0, 0});
    s.joints.push_back(parent);
    s.inverse_bind.push_back(glm::mat4(1.0f));
    s.joint_parent.push_back(j - 1);
    s.order.push_back(j);
  }
  m.skins.push_back(s);
  std::vector<Channel> channels;
  const std::vector<float> t = grid(frames, 30.0f);
  for (int j = 0; j < 5; ++j) {
    std::vector<glm::quat> keys;
    for (float time : t)
      keys.push_back(axis_angle({0, 0.3f, 1}, 40.0f * std::sin(2.0f * time + float(j))));
    channels.push_back(rotation_channel(j, t, keys));
  }
  std::vector<glm::vec3> pos;
  for (float time : t) pos.push_back({0.5f * time, 0.02f * std::sin(6.0f * time), 0});
  channels.push_back(vec3_channel(0, TargetPath::Translation, t, pos, Interpolation::Linear));
  m.clips.push_back(make_clip(std::move(channels)));
  return m;
}

TEST(CompressSmallestThree, RoundTripsExactlyWithoutQuantization) {
  std::mt19937 rng(7);
  std::normal_distribution<float> n;
  for (int i = 0; i < 1000; ++i) {
    glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    const float in[4] = {q.x, q.y, q.z, q.w};
    float s[3], out[4];
    const uint32_t index = smallest_three_encode(in, s);
    for (float v : s) EXPECT_LE(std::abs(v), 0.7072f);
    smallest_three_decode(index, s, out);
    // The same rotation (q or −q).
    const float d = std::abs(in[0] * out[0] + in[1] * out[1] + in[2] * out[2] + in[3] * out[3]);
    EXPECT_NEAR(d, 1.0f, 1e-6f);
  }
}

TEST(CompressSmallestThree, QuantizedRoundTripWithinTheBoundOfItsBitWidth) {
  // Range reduction over the keys, b bits per component: each stored component is off by at
  // most half a step δ = extent / (2^b − 1) / 2; the dropped component (≥ 1/2) adds at most
  // √3·‖Δs‖, so ‖Δq‖ ≤ 2·√3·δ and the angle error ≤ 2·‖Δq‖ (first order, + float slack).
  std::mt19937 rng(11);
  std::normal_distribution<float> n;
  const int keys = 200;
  std::vector<float> values;
  for (int i = 0; i < keys; ++i) {
    glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    values.insert(values.end(), {q.x, q.y, q.z, q.w});
  }
  std::vector<uint32_t> frames(keys);
  for (int i = 0; i < keys; ++i) frames[size_t(i)] = uint32_t(i);
  for (uint32_t bits : {4u, 8u, 12u, 16u, 20u}) {
    CompressedClip clip;
    clip.set_frames(0.0f, float(keys - 1), keys, 1.0f, {});
    const uint8_t width[1] = {uint8_t(bits)};
    ASSERT_TRUE(clip.add_track(0, TargetPath::Rotation, false, 4, width, frames, values));
    // The stored extent is at most 2 · 0.70711 (16-bit minimum, log-scale extent, both rounded
    // outwards, the largest level being the whole smallest-three interval).
    const double delta = 2 * 0.70711 / double((1u << bits) - 1) / 2.0;
    const double bound = 4.0 * std::sqrt(3.0) * delta + 2e-6;
    double worst = 0.0;
    for (int k = 0; k < keys; ++k) {
      float out[4];
      clip.decode_key(0, uint32_t(k), out);
      const float* in = &values[size_t(k) * 4];
      // Angle between the rotations from the chord ‖q − ±q'‖ (acos near 1 loses the digits).
      double len = 0.0, minus = 0.0, plus = 0.0;
      for (int c = 0; c < 4; ++c) len += double(out[c]) * out[c];
      for (int c = 0; c < 4; ++c) {
        const double o = out[c] / std::sqrt(len);
        minus += (in[c] - o) * (in[c] - o);
        plus += (in[c] + o) * (in[c] + o);
      }
      const double angle = 4.0 * std::asin(std::sqrt(std::min(minus, plus)) / 2.0);
      worst = std::max(worst, angle);
    }
    EXPECT_LE(worst, bound) << bits << " bits";
    EXPECT_GT(worst, 0.0) << bits << " bits";
  }
}

TEST(CompressClip, GuaranteeHoldsAndKeysAreReduced) {
  Model model = chain_model();
  for (double tol : {1e-3, 1e-4, 1e-5}) {
    CompressionSettings s;
    s.tolerance_m = tol;
    const CompressionResult r = compress_clip(model, 0, s);
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_LE(r.report.e_max, tol);
    // At 0.001 cm so few keys go that their masks would cost more: every track is dense.
    if (tol >= 1e-4) {
      EXPECT_LT(r.kept_keys, r.dense_keys) << tol;
    }
    EXPECT_LT(r.sizes.compressed_bytes, r.sizes.file_bytes);
    EXPECT_EQ(r.sizes.raw_bytes, 40u * 5u * 31u);
    EXPECT_TRUE(r.report.vertices_measured);
    // An independent check through the Character: the same figure.
    const ClipErrorReport again = measure_clip_error(model, 0, r.clip, 0.0f, false);
    EXPECT_EQ(again.e_max, r.report.e_max);
  }
}

TEST(CompressClip, TighterToleranceNeverGrowsTheError) {
  Model model = chain_model();
  double previous = 1.0;
  size_t previous_bytes = 0;
  for (double tol : {1e-3, 1e-4, 1e-5}) {
    CompressionSettings s;
    s.tolerance_m = tol;
    s.measure_vertices = false;
    const CompressionResult r = compress_clip(model, 0, s);
    ASSERT_TRUE(r.ok);
    EXPECT_LE(r.report.e_max, previous);
    EXPECT_GE(r.sizes.compressed_bytes, previous_bytes);
    previous = r.report.e_max;
    previous_bytes = r.sizes.compressed_bytes;
  }
}

TEST(CompressClip, AClipAlreadyAtTheToleranceKeepsEveryKey) {
  // A zig-zag: every key is a turning point, so no key can go; only quantization may act, and
  // the played keys stay where the file has them.
  Model model = test::shoulder_elbow_model();
  const std::vector<float> t = grid(9, 10.0f);
  std::vector<glm::quat> keys;
  for (size_t i = 0; i < t.size(); ++i) keys.push_back(axis_angle({0, 0, 1}, i % 2 ? 30.0f : 0.0f));
  model.clips.push_back(make_clip({rotation_channel(0, t, keys)}));
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok);
  const std::vector<Channel> reduced = reduced_channels(r.clip, model);
  ASSERT_EQ(reduced.size(), 1u);
  ASSERT_EQ(reduced[0].times.size(), t.size());
  for (size_t i = 0; i < t.size(); ++i) EXPECT_NEAR(reduced[0].times[i], t[i], 1e-6f);
  EXPECT_LE(r.report.e_max, 1e-4);
}

TEST(CompressClip, ConstantAndRestTracksAreDroppedOrStoredOnce) {
  Model model = test::shoulder_elbow_model();
  const std::vector<float> t = grid(11, 10.0f);
  std::vector<glm::quat> rest(t.size(), glm::quat(1, 0, 0, 0));
  std::vector<glm::vec3> constant(t.size(), glm::vec3(1.0f, 0.25f, 0.0f));
  model.clips.push_back(
      make_clip({rotation_channel(0, t, rest),  // = the rest rotation: dropped
                 vec3_channel(1, TargetPath::Translation, t, constant, Interpolation::Linear)}));
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok);
  ASSERT_EQ(r.clip.tracks().size(), 1u);
  EXPECT_EQ(r.clip.tracks()[0].node, 1);
  EXPECT_EQ(r.clip.tracks()[0].key_count, 1);
  EXPECT_LE(r.report.e_max, 1e-4);
}

// Joint j0 world translation under `source` at time `t`.
glm::vec3 root_position(const Model& model, const ClipSource& source, float t) {
  Character c(model);
  c.set_clip_source(0, &source);
  c.evaluate(PoseSelection{0, t});
  return glm::vec3(c.world()[0][3]);
}

TEST(CompressClip, StepBehaviourSurvives) {
  Model model = test::shoulder_elbow_model();
  const std::vector<float> t{0.0f, 1.0f, 2.0f, 3.0f};
  model.clips.push_back(make_clip(
      {vec3_channel(0, TargetPath::Translation, t,
                    {{0, 0, 0}, {0.5f, 0, 0}, {0.5f, 0.2f, 0}, {0, 0, 0}}, Interpolation::Step)}));
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok);
  RawClipSource raw(model, model.clips[0]);
  for (float time : {0.0f, 0.5f, 0.99f, 1.0f, 1.01f, 1.5f, 1.999f, 2.0f, 2.5f, 2.99f, 3.0f, 4.0f})
    EXPECT_LE(glm::length(root_position(model, r.clip, time) - root_position(model, raw, time)),
              1e-4f)
        << time;
  ASSERT_EQ(r.clip.tracks().size(), 1u);
  EXPECT_TRUE(r.clip.tracks()[0].flags & CompressedClip::kStep);
  test::expect_context_matches_uncached(model, r.clip);
}

TEST(CompressClip, CubicSplineBehaviourSurvives) {
  // Keys at 0, 1, 2 s (a 1 Hz grid): between them the cubic must still be followed, not only at
  // the keys the 1 Hz metric samples.
  Model model = test::shoulder_elbow_model();
  Channel c;
  c.node = 0;
  c.path = TargetPath::Translation;
  c.interpolation = Interpolation::CubicSpline;
  c.components = 3;
  c.times = {0.0f, 1.0f, 2.0f};
  // in-tangent, value, out-tangent per key.
  c.values = {0,     0, 0, 0,     0,     0, 0.1f, 0.05f, 0,  //
              0,     0, 0, 0.05f, 0.02f, 0, 0,    0,     0,  //
              -0.1f, 0, 0, 0,     0,     0, 0,    0,     0};
  model.clips.push_back(make_clip({c}));
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LE(r.report.e_max, 1e-4);
  // At 60 Hz (the frames the compressor keeps) within the tolerance; at 240 Hz the linear
  // segments between 60 Hz frames of this gentle curve stay within it too.
  EXPECT_LE(measure_clip_error(model, 0, r.clip, 60.0f, false).e_max, 1e-4);
  EXPECT_LE(measure_clip_error(model, 0, r.clip, 240.0f, false).e_max, 1e-4);
  test::expect_context_matches_uncached(model, r.clip);
}

TEST(CompressClip, KeysOffAnyGridPlayLinearlyInTime) {
  // Irregular key times: the frames are an explicit table (60 Hz samples ∪ the keys), and a kept
  // segment spanning several table frames still interpolates linearly in time: the raw linear
  // motion needs no key beyond the file's own.
  Model model = test::shoulder_elbow_model();
  const std::vector<float> t{0.0f, 0.137f, 0.5f, 0.91f, 1.3f};
  model.clips.push_back(
      make_clip({vec3_channel(0, TargetPath::Translation, t,
                              {{0, 0, 0}, {0.3f, 0, 0}, {0.3f, 0.4f, 0}, {0, 0.1f, 0}, {0, 0, 0}},
                              Interpolation::Linear)}));
  CompressionSettings s;
  s.quantize = false;  // keys only: the kept frames are exactly the file's key times
  const CompressionResult r = compress_clip(model, 0, s);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.report.rate_hz, 60.0f);
  const std::vector<Channel> reduced = reduced_channels(r.clip, model);
  ASSERT_EQ(reduced.size(), 1u);
  ASSERT_EQ(reduced[0].times.size(), t.size());
  for (size_t i = 0; i < t.size(); ++i) EXPECT_FLOAT_EQ(reduced[0].times[i], t[i]);
  RawClipSource raw(model, model.clips[0]);
  for (float time = 0.0f; time <= 1.3f; time += 0.01f)
    EXPECT_LE(glm::length(root_position(model, r.clip, time) - root_position(model, raw, time)),
              1e-6f)
        << time;
  test::expect_context_matches_uncached(model, r.clip);
}

TEST(CompressClip, ZeroLengthClipIsOneFrame) {
  Model model = test::shoulder_elbow_model();
  model.clips.push_back(make_clip({vec3_channel(0, TargetPath::Translation, {0.5f},
                                                {{0.25f, 0.5f, 0}}, Interpolation::Linear)}));
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.report.times.size(), 1u);
  EXPECT_EQ(r.clip.frame_count(), 1u);
  EXPECT_LE(r.report.e_max, 1e-4);
  RawClipSource raw(model, model.clips[0]);
  for (float time : {0.0f, 0.5f, 2.0f}) {
    EXPECT_LE(glm::length(root_position(model, r.clip, time) - root_position(model, raw, time)),
              1e-6f);
    EXPECT_LE(glm::length(root_position(model, r.clip, time) - glm::vec3(0.25f, 0.5f, 0)), 1e-6f);
  }
}

// A track that can spare only a key or two of 64 is stored dense: its 8-byte frame mask would
// cost more than those keys. The rotation turns by pseudo-random steps (nearly every key needed;
// reduction spares 2 here) and frame 10 is the exact midpoint of frames 9 and 11, which
// interpolation reproduces. The sizes are checked by building the dense form and the form
// sparing frame 10 alone with the same widths through CompressedClip itself.
TEST(CompressClip, ATrackThatSparesOnlyOneKeyIsStoredDense) {
  Model model;
  test::add_node(model, "j", -1, {0, 0, 0});
  const std::vector<float> t = grid(64, 30.0f);
  std::vector<glm::quat> keys;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> step(-25.0f, 25.0f);
  float angle = 0.0f;
  for (size_t i = 0; i < t.size(); ++i) {
    angle += step(rng);
    keys.push_back(axis_angle({0, 0.3f, 1}, angle));
  }
  keys[10] = glm::slerp(keys[9], keys[11], 0.5f);
  model.clips.push_back(make_clip({rotation_channel(0, t, keys)}));
  CompressionSettings s;
  s.measure_vertices = false;
  const CompressionResult r = compress_clip(model, 0, s);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.clip.tracks().size(), 1u);
  const CompressedClip::Track& track = r.clip.tracks()[0];
  EXPECT_EQ(track.key_count, 64u);
  EXPECT_TRUE(track.flags & CompressedClip::kDense);
  const std::span<const uint8_t> widths = r.clip.track_bits(0);
  ASSERT_EQ(widths.size(), 3u);  // quantized (smallest three)
  std::vector<uint32_t> all(64), spared;
  std::vector<float> all_values, spared_values;
  for (uint32_t i = 0; i < 64; ++i) {
    all[i] = i;
    const float q[4] = {keys[i].x, keys[i].y, keys[i].z, keys[i].w};
    all_values.insert(all_values.end(), q, q + 4);
    if (i == 10) continue;
    spared.push_back(i);
    spared_values.insert(spared_values.end(), q, q + 4);
  }
  CompressedClip dense, sparse;
  dense.set_frames(0.0f, t.back(), 64, 30.0f, {});
  sparse.set_frames(0.0f, t.back(), 64, 30.0f, {});
  const std::vector<uint8_t> bits(widths.begin(), widths.end());
  ASSERT_TRUE(dense.add_track(0, TargetPath::Rotation, false, 4, bits, all, all_values));
  ASSERT_TRUE(sparse.add_track(0, TargetPath::Rotation, false, 4, bits, spared, spared_values));
  EXPECT_LT(dense.byte_size(), sparse.byte_size());
  EXPECT_EQ(r.clip.byte_size(), dense.byte_size());
  EXPECT_LE(r.report.e_max, s.tolerance_m);
}

TEST(CompressClip, MorphWeightsHaveTheirOwnTolerance) {
  Model model = test::shoulder_elbow_model();
  model.nodes[1].morph_count = 2;
  model.nodes[1].morph_offset = 0;
  model.morph_weight_count = 2;
  model.rest_morph_weights = {0.0f, 0.0f};
  Channel w;
  w.node = 1;
  w.path = TargetPath::Weights;
  w.components = 2;
  w.times = grid(61, 30.0f);
  for (float time : w.times)
    w.values.insert(w.values.end(), {0.5f + 0.5f * std::sin(3 * time), time / 2});
  model.clips.push_back(make_clip({w}));
  for (double mt : {1e-2, 1e-3, 1e-4}) {
    CompressionSettings s;
    s.morph_tolerance = mt;
    const CompressionResult r = compress_clip(model, 0, s);
    ASSERT_TRUE(r.ok);
    EXPECT_LE(r.report.morph_max, mt);
    EXPECT_GT(r.report.morph_max, 0.0);  // something was compressed
    ASSERT_EQ(r.clip.tracks().size(), 1u);
    if (mt >= 1e-2) {  // at 1e-3 the few keys it spares cost less than its mask (dense)
      EXPECT_LT(r.clip.tracks()[0].key_count, 61);
    }
    test::expect_context_matches_uncached(model, r.clip);
  }
}

TEST(CompressClip, ImpossiblyTightToleranceFallsBackToExactFrames) {
  Model model = chain_model();
  CompressionSettings s;
  s.tolerance_m = 1e-12;
  s.measure_vertices = false;
  const CompressionResult r = compress_clip(model, 0, s);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_LE(r.report.e_max, 1e-12);
}

TEST(CompressClip, ProgressAndCancel) {
  Model model = chain_model();
  struct Log {
    std::vector<float> fractions;
    bool cancel = false;
  } log;
  auto cb = [](void* user, float f) {
    auto* l = static_cast<Log*>(user);
    l->fractions.push_back(f);
    return !(l->cancel && l->fractions.size() > 3);
  };
  CompressionResult r = compress_clip(model, 0, {}, cb, &log);
  ASSERT_TRUE(r.ok);
  ASSERT_GT(log.fractions.size(), 2u);
  EXPECT_TRUE(std::is_sorted(log.fractions.begin(), log.fractions.end()));
  EXPECT_EQ(log.fractions.back(), 1.0f);
  log = Log{};
  log.cancel = true;
  r = compress_clip(model, 0, {}, cb, &log);
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.cancelled);
  EXPECT_EQ(log.fractions.size(), 4u);
}

TEST(CompressClip, SamplingMatchesDecodedKeysAndHoldsOutsideTheClip) {
  Model model = chain_model();
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok);
  // The reduced channels, sampled by the spec sampler, agree with the runtime clip at the key
  // times (same values there); the runtime clip holds its end values outside [start, end].
  const std::vector<Channel> reduced = reduced_channels(r.clip, model);
  std::vector<Transform> local(model.nodes.size()), before(model.nodes.size()),
      after(model.nodes.size()), end(model.nodes.size());
  std::vector<float> morph;
  std::vector<uint32_t> cursors(r.clip.cursor_count(), 0);
  for (const Channel& c : reduced) {
    for (size_t k = 0; k < c.times.size(); ++k) {
      for (size_t i = 0; i < local.size(); ++i) local[i] = model.nodes[i].rest;
      r.clip.sample(c.times[k], cursors, local, morph);
      float v[4];
      sample_channel(c, c.times[k], v);
      const Transform& tr = local[size_t(c.node)];
      if (c.path == TargetPath::Rotation) {
        EXPECT_NEAR(std::abs(glm::dot(tr.rotation, glm::quat(v[3], v[0], v[1], v[2]))), 1.0f,
                    1e-6f);
      } else if (c.path == TargetPath::Translation) {
        EXPECT_LE(glm::length(tr.translation - glm::vec3(v[0], v[1], v[2])), 1e-6f);
      }
    }
  }
  r.clip.sample(r.clip.end(), cursors, end, morph);
  EXPECT_GT(r.clip.cursor_count(), CompressedClip::kContextHeader);
  r.clip.sample(r.clip.end() + 5.0f, cursors, after, morph);
  for (size_t i = 0; i < end.size(); ++i) EXPECT_EQ(end[i].translation, after[i].translation);
  (void)before;
}

TEST(CompressClip, PlaybackContextGivesTheBitsOfTheReadableSampler) {
  // Every kind of track in one clip: quantized and float rotations, one-key and dense tracks,
  // translations, a STEP track and morph weights; then the context path against the readable
  // one, also after another clip's context and garbage.
  Model model = chain_model();
  model.nodes[2].morph_count = 2;
  model.nodes[2].morph_offset = 0;
  model.morph_weight_count = 2;
  model.rest_morph_weights = {0.0f, 0.0f};
  const std::vector<float> t = grid(31, 30.0f);
  Channel w;
  w.node = 2;
  w.path = TargetPath::Weights;
  w.components = 2;
  w.times = t;
  for (float time : t) w.values.insert(w.values.end(), {0.5f + 0.5f * std::sin(3 * time), time});
  model.clips[0].channels.push_back(w);
  std::vector<glm::vec3> steps;
  for (float time : t) steps.push_back({0, 0, std::floor(time * 4.0f) * 0.05f});
  model.clips[0].channels.push_back(
      vec3_channel(3, TargetPath::Scale, t, std::vector<glm::vec3>(steps.size(), glm::vec3(1.0f)),
                   Interpolation::Linear));
  model.clips[0].channels.push_back(
      vec3_channel(4, TargetPath::Translation, t, steps, Interpolation::Step));
  model.clips[0].end = t.back();
  const CompressionResult r = compress_clip(model, 0);
  ASSERT_TRUE(r.ok) << r.error;
  const CompressedClip other = compress_clip(chain_model(), 0).clip;
  test::expect_context_matches_uncached(model, r.clip, &other, "reduced and quantized");
  // Hand-built: every frame a key (dense), a float32 rotation, a one-key rotation.
  CompressedClip built;
  built.set_frames(0.0f, 1.0f, 31, 30.0f, {});
  std::vector<uint32_t> frames;
  std::vector<float> rot, rot_sparse;
  std::vector<uint32_t> sparse{0, 4, 5, 17, 30};
  for (uint32_t f = 0; f < 31; ++f) {
    frames.push_back(f);
    const glm::quat q = axis_angle({1, 0.2f, 0}, 170.0f * std::sin(0.3f * float(f)));
    rot.insert(rot.end(), {q.x, q.y, q.z, q.w});
  }
  for (uint32_t f : sparse)
    rot_sparse.insert(rot_sparse.end(), rot.begin() + 4 * f, rot.begin() + 4 * f + 4);
  const uint8_t twelve[] = {12}, floats[] = {32};
  ASSERT_TRUE(built.add_track(0, TargetPath::Rotation, false, 4, twelve, frames, rot));
  ASSERT_TRUE(built.add_track(1, TargetPath::Rotation, false, 4, floats, sparse, rot_sparse));
  ASSERT_TRUE(built.add_track(2, TargetPath::Rotation, false, 4, twelve, std::vector<uint32_t>{3},
                              std::span<const float>(rot).subspan(12, 4)));
  ASSERT_TRUE(built.add_track(3, TargetPath::Rotation, true, 4, twelve, sparse, rot_sparse));
  ASSERT_TRUE(built.add_track(4, TargetPath::Rotation, false, 4, twelve, sparse, rot_sparse));
  test::expect_context_matches_uncached(model, built, &r.clip, "hand-built");
  // A context sized for fewer tracks is not used (the readable form runs instead).
  std::vector<Transform> local(model.nodes.size());
  std::vector<float> morph(2);
  std::vector<uint32_t> small(built.cursor_count() - 1, 0xffffffffu);
  built.sample(0.5f, small, local, morph);
  EXPECT_TRUE(
      std::all_of(small.begin() + 1, small.end(), [](uint32_t v) { return v == 0xffffffffu; }));
}

}  // namespace
}  // namespace rig
