// The per-frame update's fast paths against their readable forms:
//   RawClipSource (prepared layout: constants, shared timelines, batch slerp) against
//   sample_clip_channels, the channel-by-channel sampler (itself tested against the spec in
//   sampling_test.cpp), and against a float64 sampler written here;
//   the Character's crossfade against the readable sample + blend_transforms;
//   compute_skinning_matrices (SSE2) against glm's product.
//
// Bounds: translations, scales, STEP and CUBICSPLINE channels and interior LINEAR rotations are
// the readable sampler's bit for bit; rotations held at an end key or constant come back
// normalized, so they may differ from the file's key by its distance from unit length plus
// rounding: ≤ 4e-7 per component for keys normalized in float (|1 − |q|| ≤ 2.4e-7).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <vector>

#include "anim/blending_job.h"
#include "anim/clip_source.h"
#include "anim/local_to_world_job.h"
#include "anim/pose.h"
#include "anim/sampling.h"
#include "anim/sampling_job.h"
#include "character/character.h"
#include "test_models.h"

namespace rig {
namespace {

constexpr float kRotationBound = 4e-7f;

struct RandomClipModel {
  Model model;
  int clip_a = 0, clip_b = 1;  // drive different node sets, with some overlap
};

glm::quat random_quat(std::mt19937& rng) {
  std::normal_distribution<float> g(0.0f, 1.0f);
  return glm::normalize(glm::quat(g(rng), g(rng), g(rng), g(rng)));
}

// Key times: `n` strictly increasing from `start`, uneven gaps.
std::vector<float> key_times(std::mt19937& rng, size_t n, float start) {
  std::uniform_real_distribution<float> gap(0.02f, 0.2f);
  std::vector<float> t{start};
  while (t.size() < n) t.push_back(t.back() + gap(rng));
  return t;
}

// A clip over nodes [first, last): per node some of T/R/S, in every flavour the sampler
// distinguishes. Rotation keys include sign flips (q then −q-ish: hemisphere changes), nearly
// identical neighbours (the small-angle branch) and large steps (the polynomial branch).
Clip random_clip(std::mt19937& rng, int first, int last, const std::vector<float>& shared_times) {
  Clip clip;
  std::uniform_int_distribution<int> pick(0, 9);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int node = first; node < last; ++node) {
    const int kind = pick(rng);
    if (kind == 0) continue;  // not animated: keeps the rest pose
    // Mostly the clip's shared timeline; sometimes a channel of its own.
    const std::vector<float> times =
        pick(rng) < 7 ? shared_times
                      : key_times(rng, 2 + size_t(pick(rng)), 0.05f * float(pick(rng)));
    const size_t n = times.size();
    // Rotation.
    if (kind != 1) {
      std::vector<glm::quat> keys;
      glm::quat q = random_quat(rng);
      for (size_t k = 0; k < n; ++k) {
        const int step = pick(rng);
        if (step < 3)  // a tiny step: well inside the nlerp threshold
          q = glm::normalize(q * glm::angleAxis(1e-3f * u(rng), glm::vec3(0, 0, 1)));
        else if (step < 6)
          q = glm::normalize(
              q * glm::angleAxis(0.8f * u(rng), glm::normalize(glm::vec3(u(rng), u(rng), 1))));
        else
          q = random_quat(rng);
        keys.push_back(pick(rng) < 3 ? -q : q);  // hemisphere flips
      }
      if (kind == 2)  // constant: exporters write these for bones a clip leaves alone
        std::fill(keys.begin(), keys.end(), keys[0]);
      Interpolation mode = Interpolation::Linear;
      if (kind == 3) mode = Interpolation::Step;
      Channel c = test::rotation_channel(node, times, keys, mode);
      if (kind == 4) {  // CUBICSPLINE: in-tangent, value, out-tangent per key
        c.interpolation = Interpolation::CubicSpline;
        std::vector<float> values;
        for (size_t k = 0; k < n; ++k)
          for (int e = 0; e < 3; ++e)
            for (int i = 0; i < 4; ++i)
              values.push_back(e == 1 ? c.values[k * 4 + i] : 0.3f * u(rng));
        c.values = values;
      }
      if (kind == 5) {  // a single key
        c.times.resize(1);
        c.values.resize(4);
      }
      clip.channels.push_back(c);
    }
    // Translation.
    if (kind == 1 || kind >= 6) {
      std::vector<glm::vec3> keys;
      for (size_t k = 0; k < n; ++k) keys.push_back({u(rng), u(rng), u(rng)});
      if (kind == 7) std::fill(keys.begin(), keys.end(), keys[0]);
      clip.channels.push_back(
          test::vec3_channel(node, TargetPath::Translation, times, keys,
                             kind == 8 ? Interpolation::Step : Interpolation::Linear));
    }
    // Scale.
    if (kind == 1 || kind == 6 || kind == 9) {
      std::vector<glm::vec3> keys;
      for (size_t k = 0; k < n; ++k)
        keys.push_back(glm::vec3(1.0f) + 0.3f * glm::vec3(u(rng), u(rng), u(rng)));
      if (kind == 9) std::fill(keys.begin(), keys.end(), keys[0]);
      clip.channels.push_back(
          test::vec3_channel(node, TargetPath::Scale, times, keys, Interpolation::Linear));
    }
  }
  clip.start = 1e30f, clip.end = -1e30f;
  for (const Channel& c : clip.channels) {
    clip.start = std::min(clip.start, c.times.front());
    clip.end = std::max(clip.end, c.times.back());
  }
  return clip;
}

RandomClipModel random_model(uint32_t seed, int nodes = 40) {
  RandomClipModel r;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < nodes; ++i) {
    const int parent = i == 0 ? -1 : int(rng() % uint32_t(i));
    test::add_node(r.model, "n" + std::to_string(i), parent, {u(rng), u(rng), u(rng)},
                   random_quat(rng));
    r.model.nodes.back().rest.scale = glm::vec3(1.0f) + 0.2f * glm::vec3(u(rng), u(rng), u(rng));
  }
  Skin skin;
  for (int i = 0; i < nodes; i += 2) {
    skin.joints.push_back(i);
    skin.inverse_bind.push_back(glm::translate(glm::mat4(1.0f), {u(rng), u(rng), u(rng)}));
  }
  r.model.skins.push_back(skin);
  const std::vector<float> times_a = key_times(rng, 19, 0.0f), times_b = key_times(rng, 26, 0.1f);
  r.model.clips.push_back(random_clip(rng, 0, nodes * 2 / 3, times_a));
  r.model.clips.push_back(random_clip(rng, nodes / 2, nodes, times_b));
  return r;
}

std::vector<Transform> rest_of(const Model& m) {
  std::vector<Transform> rest;
  for (const Node& n : m.nodes) rest.push_back(n.rest);
  return rest;
}

// fast vs readable: exact for everything but rotations, rotations within kRotationBound.
void expect_same_pose(std::span<const Transform> fast, std::span<const Transform> readable,
                      float rotation_bound, const char* what) {
  ASSERT_EQ(fast.size(), readable.size());
  for (size_t i = 0; i < fast.size(); ++i) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_EQ(fast[i].translation[c], readable[i].translation[c]) << what << " node " << i;
      EXPECT_EQ(fast[i].scale[c], readable[i].scale[c]) << what << " node " << i;
    }
    for (int c = 0; c < 4; ++c)
      EXPECT_NEAR(fast[i].rotation[c], readable[i].rotation[c], rotation_bound)
          << what << " node " << i << " component " << c;
  }
}

// Sample times: forward playback at 60 Hz from before the first key to past the last (cursors
// kept), then random jumps (stale cursors), then every key time exactly.
std::vector<float> sample_times(const Clip& clip, std::mt19937& rng) {
  std::vector<float> t;
  for (float s = clip.start - 0.1f; s < clip.end + 0.1f; s += 1.0f / 60.0f) t.push_back(s);
  std::uniform_real_distribution<float> any(clip.start - 0.2f, clip.end + 0.2f);
  for (int i = 0; i < 200; ++i) t.push_back(any(rng));
  for (const Channel& c : clip.channels) t.insert(t.end(), c.times.begin(), c.times.end());
  return t;
}

TEST(RawClipSourceFast, MatchesTheReadableSamplerOnRandomClips) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    const RandomClipModel r = random_model(seed);
    const Model& m = r.model;
    const std::vector<Transform> rest = rest_of(m);
    for (const Clip& clip : m.clips) {
      const RawClipSource source(m, clip);
      std::vector<uint32_t> cursors(source.cursor_count(), 0), readable_cursors(cursors);
      std::mt19937 rng(seed);
      for (const float t : sample_times(clip, rng)) {
        std::vector<Transform> fast = rest, readable = rest;
        source.sample(t, cursors, fast, {});
        sample_clip_channels(m, clip, t, readable_cursors, readable, {});
        expect_same_pose(fast, readable, kRotationBound, "random clip");
        // Without cursors too (one-off samples).
        std::vector<Transform> fresh = rest;
        source.sample(t, {}, fresh, {});
        expect_same_pose(fresh, readable, kRotationBound, "no cursors");
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

// Every rotation the fast path writes is unit length and, where the readable sampler returns
// the file's key (outside the keys, constant channels), within the bound of it: the statement in
// clip_source.h. Interior LINEAR rotations are bit for bit.
TEST(RawClipSourceFast, InteriorLinearRotationsAreBitForBit) {
  Model m;
  test::add_node(m, "a", -1, {0, 0, 0});
  std::mt19937 rng(3);
  std::vector<float> times = key_times(rng, 30, 0.0f);
  std::vector<glm::quat> keys;
  for (size_t k = 0; k < times.size(); ++k)
    keys.push_back(k % 3 ? random_quat(rng) : -random_quat(rng));
  Clip clip;
  clip.channels.push_back(test::rotation_channel(0, times, keys));
  clip.start = times.front(), clip.end = times.back();
  m.clips.push_back(clip);
  const RawClipSource source(m, m.clips[0]);
  std::vector<uint32_t> cursors(1, 0);
  for (float t = clip.start + 1e-3f; t < clip.end; t += 0.013f) {
    Transform fast, readable;
    source.sample(t, cursors, std::span<Transform>(&fast, 1), {});
    sample_clip_channels(m, m.clips[0], t, {}, std::span<Transform>(&readable, 1), {});
    EXPECT_EQ(std::memcmp(&fast.rotation, &readable.rotation, sizeof(glm::quat)), 0) << t;
  }
}

// An independent float64 sampler for LINEAR and STEP channels (the spec's formulas, linear key
// search, acos/sin slerp) against the fast path: within 2e-6 per component (float keys and
// float interpolation weights; the readable sampler holds 1e-6 to the same maths).
void sample_f64(const Channel& c, double t, double out[4]) {
  const size_t n = c.times.size(), m = c.components;
  if (n == 1 || t <= c.times[0]) {
    for (size_t i = 0; i < m; ++i) out[i] = c.values[i];
    return;
  }
  if (t >= c.times[n - 1]) {
    for (size_t i = 0; i < m; ++i) out[i] = c.values[(n - 1) * m + i];
    return;
  }
  size_t k = 0;
  while (!(c.times[k] <= t && t < c.times[k + 1])) ++k;
  const double u = (t - c.times[k]) / (double(c.times[k + 1]) - c.times[k]);
  const float* a = &c.values[k * m];
  const float* b = &c.values[(k + 1) * m];
  if (c.interpolation == Interpolation::Step) {
    for (size_t i = 0; i < m; ++i) out[i] = a[i];
    return;
  }
  if (c.path != TargetPath::Rotation) {
    for (size_t i = 0; i < m; ++i) out[i] = a[i] + (double(b[i]) - a[i]) * u;
    return;
  }
  double d = 0.0;
  for (int i = 0; i < 4; ++i) d += double(a[i]) * b[i];
  const double sign = d < 0.0 ? -1.0 : 1.0;
  d = std::abs(d);
  double s0 = 1.0 - u, s1 = u;
  if (d < 1.0 - 1e-12) {
    const double th = std::acos(d);
    s0 = std::sin((1.0 - u) * th) / std::sin(th);
    s1 = std::sin(u * th) / std::sin(th);
  }
  double len = 0.0;
  for (int i = 0; i < 4; ++i) {
    out[i] = s0 * a[i] + sign * s1 * b[i];
    len += out[i] * out[i];
  }
  for (int i = 0; i < 4; ++i) out[i] /= std::sqrt(len);
}

TEST(RawClipSourceFast, MatchesAFloat64SamplerOnLinearAndStepChannels) {
  for (uint32_t seed = 20; seed < 26; ++seed) {
    const RandomClipModel r = random_model(seed);
    const Model& m = r.model;
    for (const Clip& clip : m.clips) {
      const RawClipSource source(m, clip);
      std::vector<uint32_t> cursors(source.cursor_count(), 0);
      std::mt19937 rng(seed);
      for (const float t : sample_times(clip, rng)) {
        std::vector<Transform> fast = rest_of(m);
        source.sample(t, cursors, fast, {});
        for (const Channel& c : clip.channels) {
          if (c.interpolation == Interpolation::CubicSpline) continue;
          double want[4];
          sample_f64(c, t, want);
          const Transform& got = fast[size_t(c.node)];
          for (uint32_t i = 0; i < c.components; ++i) {
            const float g = c.path == TargetPath::Translation ? got.translation[int(i)]
                            : c.path == TargetPath::Scale
                                ? got.scale[int(i)]
                                : (i < 3 ? got.rotation[int(i)] : got.rotation.w);
            // The double slerp may pick q or −q only at d = 0 exactly; never in these data.
            EXPECT_NEAR(g, want[i], 2e-6) << "t " << t << " node " << c.node;
          }
        }
        if (::testing::Test::HasFailure()) return;
      }
    }
  }
}

// The sampling job over the fast source: what the clip does not drive keeps the rest pose
// (nodes without channels, and the paths a node's channels leave alone).
TEST(RawClipSourceFast, UndrivenNodesAndPathsKeepTheRestPose) {
  const RandomClipModel r = random_model(5);
  const Model& m = r.model;
  const Clip& clip = m.clips[1];  // drives nodes from nodes/2 on only
  const RawClipSource source(m, clip);
  const std::vector<Transform> rest = rest_of(m);
  std::vector<uint32_t> cursors(source.cursor_count(), 0);
  Pose pose;
  init_rest_pose(m, pose);
  // Garbage in the output first: the job must start from the rest pose.
  for (Transform& t : pose.local) t.translation = glm::vec3(99.0f);
  const SamplingJob job{&source, 0.5f * (clip.start + clip.end), cursors, rest, {}, pose.local, {}};
  ASSERT_TRUE(job.run());
  std::vector<bool> driven_t(m.nodes.size()), driven_r(m.nodes.size()), driven_s(m.nodes.size());
  for (const Channel& c : clip.channels)
    (c.path == TargetPath::Translation ? driven_t
     : c.path == TargetPath::Rotation  ? driven_r
                                       : driven_s)[size_t(c.node)] = true;
  int undriven = 0;
  for (size_t i = 0; i < m.nodes.size(); ++i) {
    if (!driven_t[i]) {
      EXPECT_EQ(pose.local[i].translation, rest[i].translation) << i;
    }
    if (!driven_r[i]) {
      EXPECT_EQ(pose.local[i].rotation, rest[i].rotation) << i;
    }
    if (!driven_s[i]) {
      EXPECT_EQ(pose.local[i].scale, rest[i].scale) << i;
    }
    undriven += !driven_t[i] + !driven_r[i] + !driven_s[i];
  }
  EXPECT_GT(undriven, int(m.nodes.size()));  // the case is really exercised
}

// Two clips driving different node sets, crossfaded by the Character (fast source, batch blend,
// SSE2 skinning matrices), against the readable path written out here: sample_clip,
// blend_transforms per node, world by parent · trs, world × inverse bind by glm.
TEST(RawClipSourceFast, CharacterCrossfadeMatchesTheReadablePipeline) {
  const RandomClipModel r = random_model(9, 37);
  const Model& m = r.model;
  Character character(m);
  Pose a, b;
  init_rest_pose(m, a);
  init_rest_pose(m, b);
  for (float t = 0.0f; t < 2.0f; t += 1.0f / 60.0f) {
    const float w = 0.5f + 0.45f * std::sin(7.0f * t);
    PoseSelection sel;
    sel.clip = r.clip_a;
    sel.time = t;
    sel.blend_clip = r.clip_b;
    sel.blend_time = 0.7f * t;
    sel.blend_weight = w;
    character.evaluate(sel);
    sample_clip(m, m.clips[size_t(r.clip_a)], t, a);
    sample_clip(m, m.clips[size_t(r.clip_b)], 0.7f * t, b);
    std::vector<Transform> blended(m.nodes.size());
    for (size_t i = 0; i < m.nodes.size(); ++i)
      blended[i] = blend_transforms(a.local[i], b.local[i], w);
    // The blend of poses within the sampling bound: slerp is 1-Lipschitz in its ends, and the
    // renormalization adds rounding.
    // The blend of poses that differ within the sampling bound: slerp's sensitivity to its ends
    // is at most 1/sin θ... bounded here, since shortest-path pairs have θ ≤ π/2, by a few.
    expect_same_pose(character.pose().local, blended, 2e-6f, "crossfade");
    std::vector<glm::mat4> world(m.nodes.size());
    for (const int i : m.node_order) {
      const int p = m.nodes[size_t(i)].parent;
      world[size_t(i)] = p < 0 ? trs_matrix(blended[size_t(i)])
                               : world[size_t(p)] * trs_matrix(blended[size_t(i)]);
    }
    const std::span<const glm::mat4> skinning = character.skinning_matrices(0);
    const Skin& skin = m.skins[0];
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const glm::mat4 want = world[size_t(skin.joints[j])] * skin.inverse_bind[j];
      float scale = 1.0f;  // relative to the matrix's magnitude (chains of scaled nodes grow)
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k) scale = std::max(scale, std::abs(want[c][k]));
      for (int c = 0; c < 4; ++c)
        for (int k = 0; k < 4; ++k) EXPECT_NEAR(skinning[j][c][k], want[c][k], 1e-5f * scale) << j;
    }
    if (::testing::Test::HasFailure()) return;
  }
}

// The layout's limits: more distinct timelines than the per-sample buffer holds (the extra
// channels go through sample_channel), and a clip targeting one node and path twice (the whole
// clip falls back to the readable sampler, where the later channel wins).
TEST(RawClipSourceFast, ManyTimelinesAndRepeatedTargetsStayExact) {
  std::mt19937 rng(17);
  Model m;
  for (int i = 0; i < 90; ++i) test::add_node(m, "n" + std::to_string(i), i == 0 ? -1 : 0, {});
  Clip many;
  for (int i = 0; i < 90; ++i) {
    const std::vector<float> times = key_times(rng, 3 + size_t(i % 5), 0.01f * float(i));
    std::vector<glm::quat> keys;
    for (size_t k = 0; k < times.size(); ++k) keys.push_back(random_quat(rng));
    many.channels.push_back(test::rotation_channel(i, times, keys));
  }
  Clip twice;
  twice.channels = {many.channels[3], many.channels[4]};
  twice.channels[1].node = 3;
  for (const Clip* clip : {&many, &twice}) {
    const RawClipSource source(m, *clip);
    std::vector<uint32_t> cursors(source.cursor_count(), 0);
    for (float t = -0.1f; t < 2.0f; t += 0.01f) {
      std::vector<Transform> fast = rest_of(m), readable = rest_of(m);
      source.sample(t, cursors, fast, {});
      sample_clip_channels(m, *clip, t, {}, readable, {});
      expect_same_pose(fast, readable, kRotationBound, clip == &many ? "many" : "twice");
      if (::testing::Test::HasFailure()) return;
    }
  }
}

// animated_nodes(): exactly the nodes with a T/R/S channel, ascending, each once (a brute-force
// scan of the channels).
TEST(RawClipSourceFast, AnimatedNodesAreTheChannelsNodes) {
  const RandomClipModel r = random_model(14);
  for (const Clip& clip : r.model.clips) {
    const RawClipSource source(r.model, clip);
    std::vector<int> want;
    for (int node = 0; node < int(r.model.nodes.size()); ++node)
      for (const Channel& c : clip.channels)
        if (c.node == node) {
          want.push_back(node);
          break;
        }
    const std::span<const int> got = source.animated_nodes();
    EXPECT_EQ(std::vector<int>(got.begin(), got.end()), want);
    EXPECT_LT(want.size(), r.model.nodes.size());  // some nodes are left alone
  }
}

// A blend restricted to a node list: the listed nodes as the full blend gives them, bit for bit
// (masked and unmasked, override and additive), the others the base layer's values untouched;
// a list naming a node past the pose is rejected.
TEST(BlendingJobNodes, ListedNodesBlendAndTheOthersKeepTheBase) {
  std::mt19937 rng(21);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f), w01(0.0f, 1.0f);
  const size_t n = 23;
  std::vector<Transform> a(n), b(n), ref(n);
  std::vector<float> mask(n), morph;
  for (size_t i = 0; i < n; ++i) {
    for (Transform* t : {&a[i], &b[i], &ref[i]}) {
      t->translation = {u(rng), u(rng), u(rng)};
      t->rotation = random_quat(rng);
      t->scale = glm::vec3(1.0f) + 0.2f * glm::vec3(u(rng), u(rng), u(rng));
    }
    mask[i] = w01(rng);
  }
  const std::vector<int> nodes = {0, 2, 3, 7, 8, 9, 10, 11, 15, 22};  // 10: a short last batch
  for (const bool masked : {false, true})
    for (const BlendMode mode : {BlendMode::Override, BlendMode::Additive}) {
      BlendLayer top{b, morph, 0.6f,
                     masked ? std::span<const float>(mask) : std::span<const float>()};
      top.mode = mode;
      top.reference = ref;
      const BlendLayer layers[2] = {{a, morph, 1.0f, {}}, top};
      std::vector<Transform> full(n), partial(n);
      ASSERT_TRUE((BlendingJob{layers, full, morph}.run()));
      ASSERT_TRUE((BlendingJob{layers, partial, morph, nodes}.run()));
      for (size_t i = 0; i < n; ++i) {
        const bool listed = std::find(nodes.begin(), nodes.end(), int(i)) != nodes.end();
        const Transform& want = listed ? full[i] : a[i];
        EXPECT_EQ(std::memcmp(&partial[i], &want, sizeof(Transform)), 0)
            << "node " << i << (masked ? " masked" : "") << " mode " << int(mode);
      }
    }
  std::vector<Transform> out(n);
  const BlendLayer layers[2] = {{a, morph, 1.0f, {}}, {b, morph, 0.5f, {}}};
  const std::vector<int> bad = {1, int(n)};
  EXPECT_FALSE((BlendingJob{layers, out, morph, bad}.validate()));
}

// Local → world by depth (a hierarchy given) against the readable recursion world(parent) ·
// trs(local) · shear written here, with sheared nodes (roots and children), bit for bit.
TEST(UpdateSpeed, LocalToWorldByDepthMatchesTheRecursionWithShear) {
  RandomClipModel r = random_model(31, 45);
  Model& m = r.model;
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-0.3f, 0.3f);
  for (size_t i = 0; i < m.nodes.size(); i += 4) {
    Node& n = m.nodes[i];
    n.has_shear = true;
    n.shear = glm::mat4(1.0f);
    n.shear[1][0] = u(rng), n.shear[2][1] = u(rng);
  }
  std::vector<Transform> local = rest_of(m);
  for (Transform& t : local) t.rotation = random_quat(rng);
  const Skeleton s = Skeleton::build(m);
  ASSERT_EQ(s.hierarchy.by_depth.size(), m.nodes.size());
  std::vector<glm::mat4> world(m.nodes.size());
  ASSERT_TRUE((LocalToWorldJob{&s, local, world, -1}.run()));
  std::vector<glm::mat4> want(m.nodes.size());
  std::vector<bool> done(m.nodes.size(), false);
  // Recursion by hand: each node after its parent, whatever order the job used.
  for (size_t pass = 0; pass < m.nodes.size(); ++pass)
    for (size_t i = 0; i < m.nodes.size(); ++i) {
      const Node& n = m.nodes[i];
      if (done[i] || (n.parent >= 0 && !done[size_t(n.parent)])) continue;
      glm::mat4 l = trs_matrix(local[i]);
      if (n.has_shear) l = l * n.shear;
      want[i] = n.parent < 0 ? l : want[size_t(n.parent)] * l;
      done[i] = true;
    }
  for (size_t i = 0; i < m.nodes.size(); ++i)
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(world[i][c][k], want[i][c][k]) << i;
}

// The SSE2 world × inverse bind is glm's product bit for bit (== compares −0 and +0 equal), for
// affine inverse binds (the shortcut) and general ones.
TEST(UpdateSpeed, SkinningMatricesAreGlmsProductBitForBit) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  Skin skin;
  std::vector<glm::mat4> world(9);
  for (glm::mat4& w : world)
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) w[c][k] = u(rng);
  for (int j = 0; j < 13; ++j) {
    skin.joints.push_back(int(rng() % 9));
    glm::mat4 ibm;
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) ibm[c][k] = u(rng);
    if (j % 2 == 0) ibm[0][3] = ibm[1][3] = ibm[2][3] = 0.0f, ibm[3][3] = 1.0f;  // affine
    skin.inverse_bind.push_back(ibm);
  }
  std::vector<glm::mat4> out(skin.joints.size());
  compute_skinning_matrices(skin, world, out);
  for (size_t j = 0; j < out.size(); ++j) {
    const glm::mat4 want = world[size_t(skin.joints[j])] * skin.inverse_bind[j];
    for (int c = 0; c < 4; ++c)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(out[j][c][k], want[c][k]) << j;
  }
}

}  // namespace
}  // namespace rig
