// The optimized-glTF writer's choices (compress/gltf_writer.h): the byte count it optimizes, and
// per-track SHORT rotations on the bundled mannequin — only the shortest levers are rounded, the
// written file re-imports within the tolerance, and it is no larger than the all-float form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <random>
#include <set>

#include "anim/clip_source.h"
#include "compress/clip_compression.h"
#include "compress/clip_error.h"
#include "compress/gltf_writer.h"
#include "import/gltf_file.h"
#include "import/gltf_import.h"
#include "test_models.h"
#include "test_support.h"

namespace rig {
namespace {

TEST(GltfWriter, WrittenBytesCountSharedTimesAndOutputsOnceAndSixteenBitAtTwoBytes) {
  // Two rotation channels with different keys on the same 3 key times (one SHORT, one float)
  // and a translation on 2 other times: 3·4 + 2·4 (times) + 3·4·2 (SHORT) + 3·16 (float
  // rotation) + 2·12 = 116 bytes.
  const std::vector<float> t3 = {0.0f, 0.5f, 1.0f}, t2 = {0.0f, 1.0f};
  const std::vector<glm::quat> q(3, glm::quat(1, 0, 0, 0));
  const std::vector<glm::quat> turned(3, glm::angleAxis(0.5f, glm::vec3(0, 0, 1)));
  std::vector<Channel> channels = {
      test::rotation_channel(0, t3, q), test::rotation_channel(1, t3, turned),
      test::vec3_channel(0, TargetPath::Translation, t2, {{0, 0, 0}, {1, 0, 0}},
                         Interpolation::Linear)};
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0}), 116u);
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{0, 0, 0}), 140u);  // + 3·8
  // Flags on a translation are ignored (only rotations and weights can be 16-bit).
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{0, 0, 1}), 140u);
  // A third rotation track equal to the second is one more accessor only in another form.
  channels.push_back(test::rotation_channel(2, t3, turned));
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0, 0}), 116u);
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0, 1}), 116u + 3 * 8);
  // Two morph targets on t3 (6 weights): 6·4 as float, 6·2 flagged; out of [−1, 1] the flag is
  // ignored.
  Channel weights;
  weights.node = 0;
  weights.path = TargetPath::Weights;
  weights.components = 2;
  weights.times = t3;
  weights.values = {0.0f, 1.0f, 0.25f, 0.5f, 1.0f, 0.0f};
  channels.push_back(weights);
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0, 0, 0}), 116u + 24);
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0, 0, 1}), 116u + 12);
  channels.back().values[3] = 1.5f;
  EXPECT_FALSE(sixteen_bit_allowed(channels.back()));
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0, 0, 1}), 116u + 24);
}

TEST(GltfWriter, MorphWeightsRoundToTheSpecsSixteenBitSteps) {
  // In [0, 1]: UNSIGNED_SHORT, c = round(w·65535), decoded c/65535 (glTF's normalization table).
  Channel w;
  w.path = TargetPath::Weights;
  w.components = 3;
  w.times = {0.0f};
  w.values = {0.0f, 0.5f, 1.0f};
  std::vector<int16_t> words;
  EXPECT_EQ(round_weights(w, &words), TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  ASSERT_EQ(words.size(), 3u);
  EXPECT_EQ(uint16_t(words[0]), 0u);
  EXPECT_EQ(uint16_t(words[1]), 32768u);  // 0.5·65535 = 32767.5 rounds away from zero
  EXPECT_EQ(uint16_t(words[2]), 65535u);
  EXPECT_FLOAT_EQ(w.values[1], 32768.0f / 65535.0f);
  EXPECT_FLOAT_EQ(w.values[2], 1.0f);
  // One negative weight: SHORT for all, c = round(w·32767), decoded max(c/32767, −1).
  Channel s = w;
  s.values = {-1.0f, -0.25f, 0.75f};
  EXPECT_EQ(round_weights(s, &words), TINYGLTF_COMPONENT_TYPE_SHORT);
  EXPECT_EQ(words[0], -32767);
  EXPECT_EQ(words[1], -8192);  // −8191.75
  EXPECT_EQ(words[2], 24575);  // 24575.25
  EXPECT_FLOAT_EQ(s.values[1], -8192.0f / 32767.0f);
  // The rounding error is at most half a step of each type.
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f), u11(-1.0f, 1.0f);
  for (int trial = 0; trial < 1000; ++trial) {
    Channel a = w, b = w;
    for (float& v : a.values) v = u01(rng);
    for (float& v : b.values) v = u11(rng);
    b.values[0] = -std::abs(b.values[0]);
    Channel ra = a, rb = b;
    round_weights(ra);
    round_weights(rb);
    for (size_t i = 0; i < 3; ++i) {
      EXPECT_LE(std::abs(ra.values[i] - a.values[i]), 0.5f / 65535.0f + 1e-7f);
      EXPECT_LE(std::abs(rb.values[i] - b.values[i]), 0.5f / 32767.0f + 1e-7f);
    }
  }
}

TEST(GltfWriter, ShortRotationIsTheClosestForPlayersThatDoAndDoNotRenormalize) {
  std::mt19937 rng(11);
  std::normal_distribution<float> n;
  int better_than_nearest = 0;
  double worst = 0.0, worst_by_angle = 0.0;
  // The cost written independently: the rotation angle between c and q from the dot product
  // (acos, in long double; q's own length divided out, as float q is unit only to 1e-7, which
  // acos near 1 would magnify) plus 2|1 − |c|²|·sin(θ/2), sin(θ/2) = |q's vector part|.
  auto cost = [](const float* q, const double* c) {
    long double len2 = 0.0L, dot = 0.0L, q2 = 0.0L;
    for (int i = 0; i < 4; ++i) {
      len2 += (long double)c[i] * c[i];
      dot += (long double)c[i] * (long double)q[i];
      q2 += (long double)q[i] * (long double)q[i];
    }
    const long double cosine = std::min(1.0L, std::abs(dot) / std::sqrt(len2 * q2));
    const long double half_sine = std::sqrt(
        ((long double)q[0] * q[0] + (long double)q[1] * q[1] + (long double)q[2] * q[2]) / q2);
    return double(2.0L * std::acos(cosine) +
                  2.0L * std::abs(1.0L - len2 / (32767.0L * 32767.0L)) * half_sine);
  };
  for (int trial = 0; trial < 2000; ++trial) {
    const glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    const float in[4] = {q.x, q.y, q.z, q.w};
    int16_t s[4];
    nearest_short_rotation(in, s);
    // Brute force over every integer 4-tuple within 2 of q·32767 (the same set).
    double best = 1e30, best_angle_cos = -1.0, cost_of_best_angle = 0.0, nearest[4];
    for (int i = 0; i < 4; ++i) nearest[i] = std::round(double(in[i]) * 32767.0);
    for (int m = 0; m < 625; ++m) {
      double c[4];
      bool inside = true;
      for (int i = 0, r = m; i < 4; ++i, r /= 5) {
        c[i] = std::round(double(in[i]) * 32767.0) + double(r % 5 - 2);
        inside =
            inside && std::abs(c[i] - double(in[i]) * 32767.0) < 2.0 && std::abs(c[i]) <= 32767.0;
      }
      if (!inside) continue;
      best = std::min(best, cost(in, c));
      double len = 0.0, dot = 0.0;
      for (int i = 0; i < 4; ++i) len += c[i] * c[i], dot += c[i] * double(in[i]);
      if (std::abs(dot) / std::sqrt(len) > best_angle_cos)
        best_angle_cos = std::abs(dot) / std::sqrt(len), cost_of_best_angle = cost(in, c);
    }
    const double ours[4] = {double(s[0]), double(s[1]), double(s[2]), double(s[3])};
    EXPECT_NEAR(cost(in, ours), best, 1e-8) << trial;  // acos near 1 limits the comparison
    EXPECT_NEAR(short_rotation_cost(in, ours), cost(in, ours), 1e-8) << trial;
    better_than_nearest += cost(in, ours) < cost(in, nearest) - 1e-8;
    worst = std::max(worst, cost(in, ours));
    worst_by_angle = std::max(worst_by_angle, cost_of_best_angle);
    // round_rotations keeps those SHORTs and holds them renormalized, as the importer will.
    Channel ch = test::rotation_channel(0, {0.0f}, {q});
    std::vector<int16_t> kept;
    round_rotations(ch, true, &kept);
    const double len =
        std::sqrt(ours[0] * ours[0] + ours[1] * ours[1] + ours[2] * ours[2] + ours[3] * ours[3]);
    ASSERT_EQ(kept.size(), 4u);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(kept[size_t(i)], s[i]);
      EXPECT_NEAR(ch.values[size_t(i)], ours[i] / len, 1e-7);
    }
  }
  // Rounding each component to nearest is often not the closest; the closest in angle alone
  // costs a player that does not renormalize several times more at worst.
  EXPECT_GT(better_than_nearest, 100);
  EXPECT_LT(worst, 1.0e-4);
  EXPECT_GT(worst_by_angle, 2.0 * worst);
  std::printf(
      "SHORT rotations: worst cost %.3g rad (closest in angle alone: %.3g); beat "
      "per-component rounding on %d of 2000\n",
      worst, worst_by_angle, better_than_nearest);
}

// A player that builds the matrix from a SHORT key as stored (three.js) rotates by s²R + (1 − s²)I:
// the seed's shoulder/elbow chain with the shoulder at 90° about z, stored as (0, 0, c, c) with
// c = 23178 (|q| = s = c·√2/32767 ≈ 1.00036), renormalized for the importer's player. The
// elbow's shell point 3 cm along x sits at v = (1.03, 0, 0) from the shoulder, and
// |(1 − s²)(I − R)·v| = |1 − s²|·1.03·√2 is the largest error; the renormalized keys play exactly.
TEST(GltfWriter, StoredLengthPlayerSeesTheShortKeysLength) {
  Model model = test::shoulder_elbow_model();
  const glm::quat quarter = glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 0, 1));
  model.clips.push_back(
      test::make_clip({test::rotation_channel(0, {0.0f, 1.0f}, {quarter, quarter})}));
  std::vector<Channel> channels = model.clips[0].channels;
  const int16_t c = 23178;
  const std::vector<std::vector<int16_t>> words = {{0, 0, c, c, 0, 0, c, c}};
  const double s2 = 2.0 * double(c) * double(c) / (32767.0 * 32767.0);
  const double expected = std::abs(1.0 - s2) * 1.03 * std::sqrt(2.0);
  EXPECT_NEAR(stored_length_e_max(model, 0, channels, std::vector<uint8_t>{1}, words), expected,
              1e-3 * expected);  // float s²: |1 − s²| keeps 4 digits
  EXPECT_GT(expected, 1e-3);     // a millimetre: far above float noise
  // Unflagged, or as the importer plays it (renormalized): nothing to add.
  EXPECT_EQ(stored_length_e_max(model, 0, channels, std::vector<uint8_t>{0}, words), 0.0);
  Clip played = model.clips[0];
  EXPECT_LT(measure_clip_error(model, 0, RawClipSource(model, played), 0.0f, false).e_max, 1e-6);
}

// Rest-pose lever of every node, written independently of the writer: the farthest descendant
// (itself included) plus 3 cm.
std::vector<double> levers(const Model& m) {
  std::vector<glm::dvec3> p(m.nodes.size());
  std::function<void(int, glm::dmat4)> walk = [&](int n, glm::dmat4 parent) {
    const Node& node = m.nodes[size_t(n)];
    glm::dmat4 local = glm::translate(glm::dmat4(1.0), glm::dvec3(node.rest.translation)) *
                       glm::mat4_cast(glm::dquat(node.rest.rotation)) *
                       glm::scale(glm::dmat4(1.0), glm::dvec3(node.rest.scale)) *
                       glm::dmat4(node.shear);
    const glm::dmat4 world = parent * local;
    p[size_t(n)] = glm::dvec3(world[3]);
    for (int c : node.children) walk(c, world);
  };
  for (size_t n = 0; n < m.nodes.size(); ++n)
    if (m.nodes[n].parent < 0) walk(int(n), glm::dmat4(1.0));
  std::vector<double> l(m.nodes.size(), 0.0);
  for (size_t n = 0; n < m.nodes.size(); ++n)
    for (int a = int(n); a >= 0; a = m.nodes[size_t(a)].parent)
      l[size_t(a)] = std::max(l[size_t(a)], glm::length(p[n] - p[size_t(a)]));
  for (double& v : l) v += 0.03;
  return l;
}

// Writes `in` optimized at 0.01 cm and checks it from the file: every clip re-imports within the
// tolerance, SHORT tracks are exactly the reported ones and a prefix of the lever order, and no
// clip is larger than its keys with float rotations. Returns the clips with a SHORT/float mix.
int check_optimized(const std::string& in, const std::string& name) {
  Model model;
  std::string error;
  if (!import_gltf(in, model, error)) {
    ADD_FAILURE() << error;
    return 0;
  }
  std::vector<CompressionResult> results;
  std::vector<const CompressedClip*> clips;
  for (size_t c = 0; c < model.clips.size(); ++c) {
    CompressionSettings s;
    s.measure_vertices = false;
    results.push_back(compress_clip(model, int(c), s));
    if (!results.back().ok) ADD_FAILURE() << name << " clip " << c;
  }
  for (const CompressionResult& r : results) clips.push_back(&r.clip);
  const std::string out = (test::scratch_dir() / (name + "_opt.glb")).string();
  std::vector<WrittenClip> written;
  Model again;
  import::GltfSource doc;
  if (!write_optimized_gltf(in, model, clips, out, error, {}, &written) ||
      !import_gltf(out, again, error) ||
      !import::load_gltf_source(out, ImportOptions{}, doc, error)) {
    ADD_FAILURE() << name << ": " << error;
    return 0;
  }
  const std::vector<double> lever = levers(model);
  int mixed_clips = 0, short_total = 0;
  for (size_t c = 0; c < model.clips.size(); ++c) {
    EXPECT_TRUE(written[c].replaced) << name << " clip " << c;
    if (!written[c].replaced) continue;
    RawClipSource reimported(again, again.clips[c]);
    const ClipErrorReport r = measure_clip_error(model, int(c), reimported, 0.0f, false);
    EXPECT_LE(r.e_max, 1e-4) << "clip " << c;
    // From the file itself: which rotation tracks are SHORT, and their levers.
    const tinygltf::Animation& anim = doc.document.animations[c];
    double longest_short = 0.0, shortest_float = 1e30;
    int shorts = 0, rotations = 0;
    for (const tinygltf::AnimationChannel& ch : anim.channels) {
      if (ch.target_path != "rotation") continue;
      const tinygltf::Accessor& a =
          doc.document.accessors[size_t(anim.samplers[size_t(ch.sampler)].output)];
      const double l = lever[size_t(ch.target_node)];
      ++rotations;
      if (a.componentType == TINYGLTF_COMPONENT_TYPE_SHORT) {
        EXPECT_TRUE(a.normalized);
        ++shorts;
        longest_short = std::max(longest_short, l);
      } else {
        EXPECT_EQ(a.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
        shortest_float = std::min(shortest_float, l);
      }
    }
    EXPECT_EQ(shorts, written[c].short_tracks);
    EXPECT_EQ(rotations, written[c].rotation_tracks);
    // Rounded tracks are a prefix of the lever order (ties may fall either side).
    if (shorts > 0 && shorts < rotations) {
      ++mixed_clips;
      EXPECT_LE(longest_short, shortest_float + 1e-9) << "clip " << c;
    }
    short_total += shorts;
    // Never larger than writing these keys with float rotations.
    std::vector<Channel> as_float = again.clips[c].channels;
    EXPECT_LE(written[c].bytes, written_bytes(as_float, {})) << "clip " << c;
    std::printf(
        "%s clip %zu: %d of %d rotation tracks SHORT, keys at %.4f cm, %zu B, "
        "E_max %.5f cm\n",
        name.c_str(), c, shorts, rotations, written[c].key_tolerance_m * 100.0, written[c].bytes,
        r.e_max * 100.0);
  }
  EXPECT_GT(short_total, 0) << name << ": no rotation track went out as SHORT";
  std::printf("%s: %d clips with a per-track SHORT/float mix\n", name.c_str(), mixed_clips);
  return mixed_clips;
}

TEST(GltfWriter, MannequinRoundsTheShortestLeversToShortAndStaysWithinTheTolerance) {
  check_optimized(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", "mannequin");
}

// The Fox is 100 units (metres) long, so at 0.01 cm most of its rotations cannot be SHORT: the
// per-track choice must mix, and RobotExpressive's too.
TEST(GltfWriterCorpus, FoxAndRobotMixShortAndFloatTracksByLever) {
  RIG_REQUIRE_CORPUS(root);
  EXPECT_GT(check_optimized((root / "Fox/Fox.glb").string(), "fox"), 0);
  EXPECT_GT(check_optimized((root / "RobotExpressive/RobotExpressive.glb").string(), "robot"), 0);
}

// Appends float values to buffer 0 of `m` as a new bufferView and accessor (with per-component
// min/max when `bounds`, as glTF requires for inputs and POSITION); returns the accessor.
int add_float_accessor(tinygltf::Model& m, const std::vector<float>& v, int type, size_t count,
                       bool bounds) {
  std::vector<unsigned char>& data = m.buffers[0].data;
  tinygltf::BufferView view;
  view.buffer = 0;
  view.byteOffset = data.size();
  view.byteLength = v.size() * 4;
  data.resize(data.size() + v.size() * 4);
  std::memcpy(data.data() + view.byteOffset, v.data(), v.size() * 4);
  m.bufferViews.push_back(view);
  tinygltf::Accessor a;
  a.bufferView = int(m.bufferViews.size()) - 1;
  a.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  a.type = type;
  a.count = count;
  if (bounds) {
    const size_t n = size_t(tinygltf::GetNumComponentsInType(uint32_t(type)));
    a.minValues.assign(n, 1e30);
    a.maxValues.assign(n, -1e30);
    for (size_t i = 0; i < v.size(); ++i) {
      a.minValues[i % n] = std::min(a.minValues[i % n], double(v[i]));
      a.maxValues[i % n] = std::max(a.maxValues[i % n], double(v[i]));
    }
  }
  m.accessors.push_back(a);
  return int(m.accessors.size()) - 1;
}

// A small .gltf written here (tinygltf), three clips on one node, and a PNG beside it named with a
// space (URI "tex%20one.png"): what the writer must keep as it was while it rewrites the clips.
//   0 "rest":  translation keys all at the node's rest value: every track drops, yet the
//              animation stays (glTF requires a channel) and still lasts 0–2 s;
//   1 "holds": a turn over 0–1 s, then the same key at 1.5, 2 and 3 s: key reduction drops the
//              trailing keys, yet the written clip must still end at 3 s (its length in a player);
//   2 "cubic": two CUBICSPLINE keys (a curve over 2 s, 80 B): linear keys within 0.01 cm cost
//              more, so the file's own sampler stays.
std::string write_span_test_file(const std::filesystem::path& dir) {
  static const unsigned char kPng[] = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48,
      0x44, 0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00,
      0x00, 0x90, 0x77, 0x53, 0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x08,
      0xd7, 0x63, 0xf8, 0xcf, 0xc0, 0x00, 0x00, 0x03, 0x01, 0x01, 0x00, 0x18, 0xdd, 0x8d,
      0xb0, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  std::ofstream(dir / "tex one.png", std::ios::binary)
      .write(reinterpret_cast<const char*>(kPng), sizeof kPng);
  tinygltf::Model m;
  m.asset.version = "2.0";
  m.buffers.emplace_back();
  auto add = [&](const std::vector<float>& v, int type, size_t count, bool bounds) {
    return add_float_accessor(m, v, type, count, bounds);
  };
  tinygltf::Node node;
  node.name = "box";
  node.translation = {1.0, 2.0, 3.0};
  m.nodes.push_back(node);
  m.scenes.emplace_back();
  m.scenes[0].nodes = {0};
  auto animation = [&](const std::string& name, const std::string& path, const char* mode,
                       int input, int output) {
    tinygltf::Animation a;
    a.name = name;
    tinygltf::AnimationSampler s;
    s.input = input;
    s.output = output;
    s.interpolation = mode;
    a.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = 0;
    c.target_node = 0;
    c.target_path = path;
    a.channels.push_back(c);
    m.animations.push_back(a);
  };
  animation("rest", "translation", "LINEAR", add({0.0f, 1.0f, 2.0f}, TINYGLTF_TYPE_SCALAR, 3, true),
            add({1, 2, 3, 1, 2, 3, 1, 2, 3}, TINYGLTF_TYPE_VEC3, 3, false));
  const glm::quat turned = glm::angleAxis(glm::radians(40.0f), glm::vec3(0, 1, 0));
  std::vector<float> holds{0, 0, 0, 1};
  for (int k = 0; k < 4; ++k) holds.insert(holds.end(), {turned.x, turned.y, turned.z, turned.w});
  animation("holds", "rotation", "LINEAR",
            add({0.0f, 1.0f, 1.5f, 2.0f, 3.0f}, TINYGLTF_TYPE_SCALAR, 5, true),
            add(holds, TINYGLTF_TYPE_VEC4, 5, false));
  // in-tangent, value, out-tangent per key (units per second).
  animation(
      "cubic", "translation", "CUBICSPLINE", add({0.0f, 2.0f}, TINYGLTF_TYPE_SCALAR, 2, true),
      add({0, 0, 0, 1, 2, 3, 0, 3, 0, 0, -3, 0, 1, 2, 3, 0, 0, 0}, TINYGLTF_TYPE_VEC3, 6, false));
  tinygltf::Image image;
  image.uri = "tex%20one.png";
  m.images.push_back(image);
  const std::string path = (dir / "span.gltf").string();
  tinygltf::TinyGLTF writer;
  EXPECT_TRUE(writer.WriteGltfSceneToFile(&m, path, false, true, true, false));
  return path;
}

TEST(GltfWriter, KeepsEveryClipAndItsSpanEmbedsImagesAndNeverGrowsAClip) {
  const std::filesystem::path dir = test::scratch_dir() / "span";
  std::filesystem::create_directories(dir);
  const std::string in = write_span_test_file(dir);
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(in, model, error)) << error;
  ASSERT_EQ(model.clips.size(), 3u);
  std::vector<CompressionResult> results;
  std::vector<const CompressedClip*> clips;
  for (size_t c = 0; c < 3; ++c) {
    CompressionSettings s;
    s.measure_vertices = false;
    results.push_back(compress_clip(model, int(c), s));
    ASSERT_TRUE(results.back().ok) << results.back().error;
  }
  for (const CompressionResult& r : results) clips.push_back(&r.clip);
  EXPECT_TRUE(results[0].clip.tracks().empty());  // the rest clip: nothing stored at runtime
  const std::string out = (std::filesystem::path(test::scratch_dir()) / "span_opt.glb").string();
  std::vector<WrittenClip> written;
  ASSERT_TRUE(write_optimized_gltf(in, model, clips, out, error, {}, &written)) << error;
  import::GltfSource file;
  ASSERT_TRUE(import::load_gltf_source(out, ImportOptions{}, file, error)) << error;
  const tinygltf::Model& doc = file.document;
  ASSERT_EQ(doc.animations.size(), 3u);
  auto span = [&](const tinygltf::Animation& a) {
    float lo = 1e30f, hi = -1e30f;
    for (const tinygltf::AnimationSampler& s : a.samplers) {
      lo = std::min(lo, float(doc.accessors[size_t(s.input)].minValues[0]));
      hi = std::max(hi, float(doc.accessors[size_t(s.input)].maxValues[0]));
    }
    return std::pair<float, float>{lo, hi};
  };
  // 0: one channel, holding the rest translation from 0 to 2 s.
  EXPECT_TRUE(written[0].replaced);
  ASSERT_EQ(doc.animations[0].channels.size(), 1u);
  EXPECT_EQ(doc.animations[0].channels[0].target_node, 0);
  EXPECT_EQ(span(doc.animations[0]), (std::pair<float, float>{0.0f, 2.0f}));
  // 1: fewer keys than the file's five, still 0 to 3 s.
  EXPECT_TRUE(written[1].replaced);
  EXPECT_EQ(span(doc.animations[1]), (std::pair<float, float>{0.0f, 3.0f}));
  EXPECT_LT(doc.accessors[size_t(doc.animations[1].samplers[0].input)].count, 5u);
  // 2: the file's own two cubic keys.
  EXPECT_FALSE(written[2].replaced);
  ASSERT_EQ(doc.animations[2].samplers.size(), 1u);
  EXPECT_EQ(doc.animations[2].samplers[0].interpolation, "CUBICSPLINE");
  EXPECT_EQ(doc.accessors[size_t(doc.animations[2].samplers[0].input)].count, 2u);
  // Every clip re-imports with the original's span, within the tolerance.
  Model again;
  ASSERT_TRUE(import_gltf(out, again, error)) << error;
  ASSERT_EQ(again.clips.size(), 3u);
  for (size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(again.clips[c].start, model.clips[c].start) << c;
    EXPECT_EQ(again.clips[c].end, model.clips[c].end) << c;
    const ClipErrorReport r =
        measure_clip_error(model, int(c), RawClipSource(again, again.clips[c]), 0.0f, false);
    EXPECT_LE(r.e_max, 1e-4) << c;
  }
  // The PNG travels inside the GLB, byte for byte.
  ASSERT_EQ(doc.images.size(), 1u);
  EXPECT_TRUE(doc.images[0].uri.empty());
  EXPECT_EQ(doc.images[0].mimeType, "image/png");
  ASSERT_GE(doc.images[0].bufferView, 0);
  const tinygltf::BufferView& view = doc.bufferViews[size_t(doc.images[0].bufferView)];
  std::ifstream png(dir / "tex one.png", std::ios::binary);
  const std::vector<unsigned char> expected((std::istreambuf_iterator<char>(png)),
                                            std::istreambuf_iterator<char>());
  ASSERT_EQ(view.byteLength, expected.size());
  EXPECT_TRUE(std::equal(expected.begin(), expected.end(),
                         doc.buffers[size_t(view.buffer)].data.begin() + view.byteOffset));
}

// Two two-joint chains driven by equal tracks (each in its own accessors, as exporters write
// them), one with 0.5 m bones, one with 3 m bones (so the per-track choice differs between
// them), and a triangle with two morph targets whose weights are animated.
std::string write_instanced_test_file(const std::filesystem::path& dir) {
  tinygltf::Model m;
  m.asset.version = "2.0";
  m.buffers.emplace_back();
  auto add = [&](const std::vector<float>& v, int type, size_t count, bool bounds) {
    return add_float_accessor(m, v, type, count, bounds);
  };
  // Nodes 0-1 and 2-3: two chains; node 4: the morphed triangle.
  for (int chain = 0; chain < 2; ++chain) {
    tinygltf::Node root, tip;
    root.translation = {double(chain) * 2.0, 0.0, 0.0};
    root.children = {int(m.nodes.size()) + 1};
    tip.translation = {0.0, chain == 0 ? 0.5 : 3.0, 0.0};  // equal tracks, unequal levers
    m.nodes.push_back(root);
    m.nodes.push_back(tip);
  }
  tinygltf::Primitive triangle;
  triangle.attributes["POSITION"] = add({0, 0, 0, 1, 0, 0, 0, 1, 0}, TINYGLTF_TYPE_VEC3, 3, true);
  for (int t = 0; t < 2; ++t)
    triangle.targets.push_back(
        {{"POSITION", add({0, 0, 0, 0, 0, float(t + 1), 0, 0, 0}, TINYGLTF_TYPE_VEC3, 3, true)}});
  tinygltf::Mesh mesh;
  mesh.primitives.push_back(triangle);
  mesh.weights = {0.0, 0.0};
  m.meshes.push_back(mesh);
  tinygltf::Node morphed;
  morphed.mesh = 0;
  m.nodes.push_back(morphed);
  m.scenes.emplace_back();
  m.scenes[0].nodes = {0, 2, 4};
  // 1 s at 30 Hz: a swing about z on the roots, a twist about y on the tips, two weights in
  // [0, 1].
  std::vector<float> times, swing, twist, weights;
  for (int k = 0; k <= 30; ++k) {
    const float t = float(k) / 30.0f;
    times.push_back(t);
    const glm::quat a = glm::angleAxis(0.6f * std::sin(6.2831853f * t), glm::vec3(0, 0, 1));
    // Every other twist key negated: the same rotations, in alternating hemispheres.
    const glm::quat b = glm::angleAxis(2.4f * t * t, glm::vec3(0, -1, 0)) * (k % 2 ? -1.0f : 1.0f);
    swing.insert(swing.end(), {a.x, a.y, a.z, a.w});
    twist.insert(twist.end(), {b.x, b.y, b.z, b.w});
    weights.insert(weights.end(), {0.5f - 0.5f * std::cos(6.2831853f * t), t * t});
  }
  tinygltf::Animation anim;
  anim.name = "instanced";
  auto channel = [&](int node, const std::string& path, const std::vector<float>& values, int type,
                     size_t count) {
    tinygltf::AnimationSampler s;
    s.input = add(times, TINYGLTF_TYPE_SCALAR, times.size(), true);  // one per sampler
    s.output = add(values, type, count, false);
    s.interpolation = "LINEAR";
    anim.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = int(anim.samplers.size()) - 1;
    c.target_node = node;
    c.target_path = path;
    anim.channels.push_back(c);
  };
  for (int root : {0, 2}) {
    channel(root, "rotation", swing, TINYGLTF_TYPE_VEC4, times.size());
    channel(root + 1, "rotation", twist, TINYGLTF_TYPE_VEC4, times.size());
  }
  channel(4, "weights", weights, TINYGLTF_TYPE_SCALAR, weights.size());
  m.animations.push_back(anim);
  const std::string path = (dir / "instanced.gltf").string();
  tinygltf::TinyGLTF writer;
  EXPECT_TRUE(writer.WriteGltfSceneToFile(&m, path, false, true, true, false));
  return path;
}

TEST(GltfWriter, EqualTracksShareOneAccessorAndMorphWeightsGoSixteenBit) {
  const std::filesystem::path dir = test::scratch_dir() / "instanced";
  std::filesystem::create_directories(dir);
  const std::string in = write_instanced_test_file(dir);
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(in, model, error)) << error;
  ASSERT_EQ(model.clips.size(), 1u);
  CompressionSettings settings;
  settings.measure_vertices = false;
  const CompressionResult result = compress_clip(model, 0, settings);
  ASSERT_TRUE(result.ok) << result.error;
  const std::string out = (test::scratch_dir() / "instanced_opt.glb").string();
  std::vector<WrittenClip> written;
  ASSERT_TRUE(write_optimized_gltf(in, model, {&result.clip}, out, error, {}, &written)) << error;
  ASSERT_TRUE(written[0].replaced);
  import::GltfSource file;
  ASSERT_TRUE(import::load_gltf_source(out, ImportOptions{}, file, error)) << error;
  const tinygltf::Model& doc = file.document;
  const tinygltf::Animation& anim = doc.animations[0];
  std::map<std::pair<int, std::string>, int> output;  // (node, path) → output accessor
  for (const tinygltf::AnimationChannel& c : anim.channels)
    output[{c.target_node, c.target_path}] = anim.samplers[size_t(c.sampler)].output;
  ASSERT_EQ(output.size(), 5u);
  // The second chain's tracks are the first's accessors.
  auto accessor_of = [&](int node, const char* path) { return output[{node, path}]; };
  EXPECT_EQ(accessor_of(0, "rotation"), accessor_of(2, "rotation"));
  EXPECT_EQ(accessor_of(1, "rotation"), accessor_of(3, "rotation"));
  EXPECT_NE(accessor_of(0, "rotation"), accessor_of(1, "rotation"));
  EXPECT_EQ(written[0].shared_outputs, 2);
  // Written rotation keys stay in one hemisphere (a player without shortest-path slerp would
  // turn the long way between the file's alternating twist keys).
  for (const tinygltf::AnimationChannel& c : anim.channels) {
    if (c.target_path != "rotation") continue;
    const tinygltf::Accessor& a = doc.accessors[size_t(anim.samplers[size_t(c.sampler)].output)];
    const tinygltf::BufferView& v = doc.bufferViews[size_t(a.bufferView)];
    const unsigned char* bytes = doc.buffers[size_t(v.buffer)].data.data() + v.byteOffset;
    auto component = [&](size_t k, size_t i) {
      if (a.componentType == TINYGLTF_COMPONENT_TYPE_SHORT) {
        int16_t x;
        std::memcpy(&x, bytes + (k * 4 + i) * 2, 2);
        return double(x);
      }
      float x;
      std::memcpy(&x, bytes + (k * 4 + i) * 4, 4);
      return double(x);
    };
    for (size_t k = 1; k < a.count; ++k) {
      double dot = 0.0;
      for (size_t i = 0; i < 4; ++i) dot += component(k - 1, i) * component(k, i);
      EXPECT_GE(dot, 0.0) << "node " << c.target_node << " key " << k;
    }
  }
  // Weights in [0, 1]: normalized UNSIGNED_SHORT, two per key.
  const tinygltf::Accessor& w = doc.accessors[size_t(accessor_of(4, "weights"))];
  EXPECT_EQ(w.componentType, TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT);
  EXPECT_TRUE(w.normalized);
  EXPECT_EQ(w.type, TINYGLTF_TYPE_SCALAR);
  EXPECT_EQ(written[0].weight_tracks, 1);
  EXPECT_EQ(written[0].sixteen_bit_weight_tracks, 1);
  // Animation accessors, each counted once: the file's 5 inputs (31·4 B) and outputs (4·31·16 +
  // 62·4 B) against what was written; sharing alone halves the rotations.
  std::set<int> used;
  for (const tinygltf::AnimationSampler& s : anim.samplers) used.insert({s.input, s.output});
  size_t bytes = 0;
  for (int a : used) {
    const tinygltf::Accessor& x = doc.accessors[size_t(a)];
    bytes += x.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(x.type))) *
             size_t(tinygltf::GetComponentSizeInBytes(uint32_t(x.componentType)));
  }
  const size_t original = 5 * 31 * 4 + 4 * 31 * 16 + 62 * 4;
  EXPECT_EQ(bytes, written[0].bytes);
  EXPECT_LE(bytes * 2, original) << bytes << " of " << original;
  std::printf("instanced: animation accessors %zu -> %zu B\n", original, bytes);
  // What the file plays keeps both tolerances.
  Model again;
  ASSERT_TRUE(import_gltf(out, again, error)) << error;
  const ClipErrorReport r =
      measure_clip_error(model, 0, RawClipSource(again, again.clips[0]), 0.0f, false);
  EXPECT_LE(r.e_max, 1e-4);
  EXPECT_LE(r.morph_max, 1e-3);
  EXPECT_GT(r.morph_max, 0.0);  // the weights did change (rounding at least)
}

}  // namespace
}  // namespace rig
