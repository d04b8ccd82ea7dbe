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

TEST(GltfWriter, WrittenBytesCountSharedTimesOnceAndShortRotationsAtTwoBytes) {
  // Two rotation channels on the same 3 key times (one SHORT, one float) and a translation on 2
  // other times: 3·4 + 2·4 (times) + 3·4·2 (SHORT) + 3·16 (float rotation) + 2·12 = 116 bytes.
  const std::vector<float> t3 = {0.0f, 0.5f, 1.0f}, t2 = {0.0f, 1.0f};
  const std::vector<glm::quat> q(3, glm::quat(1, 0, 0, 0));
  const std::vector<Channel> channels = {
      test::rotation_channel(0, t3, q), test::rotation_channel(1, t3, q),
      test::vec3_channel(0, TargetPath::Translation, t2, {{0, 0, 0}, {1, 0, 0}},
                         Interpolation::Linear)};
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{1, 0, 0}), 116u);
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{0, 0, 0}), 140u);  // + 3·8
  // Flags on a translation are ignored (only rotations can be SHORT).
  EXPECT_EQ(written_bytes(channels, std::vector<uint8_t>{0, 0, 1}), 140u);
}

TEST(GltfWriter, ShortRotationIsTheClosestInAngle) {
  std::mt19937 rng(11);
  std::normal_distribution<float> n;
  int better_than_nearest = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const glm::quat q = glm::normalize(glm::quat(n(rng), n(rng), n(rng), n(rng)));
    const float in[4] = {q.x, q.y, q.z, q.w};
    int16_t s[4];
    nearest_short_rotation(in, s);
    // Independent brute force over every integer 4-tuple within 2 of q·32767 (same set).
    auto closeness = [&](const double* c) {
      double len = 0.0, dot = 0.0;
      for (int i = 0; i < 4; ++i) len += c[i] * c[i], dot += c[i] * double(in[i]);
      return std::abs(dot) / std::sqrt(len);
    };
    double best = -1.0, nearest[4];
    for (int i = 0; i < 4; ++i) nearest[i] = std::round(double(in[i]) * 32767.0);
    for (int m = 0; m < 625; ++m) {
      double c[4];
      bool inside = true;
      for (int i = 0, r = m; i < 4; ++i, r /= 5) {
        c[i] = std::round(double(in[i]) * 32767.0) + double(r % 5 - 2);
        inside =
            inside && std::abs(c[i] - double(in[i]) * 32767.0) < 2.0 && std::abs(c[i]) <= 32767.0;
      }
      if (inside) best = std::max(best, closeness(c));
    }
    const double ours[4] = {double(s[0]), double(s[1]), double(s[2]), double(s[3])};
    EXPECT_NEAR(closeness(ours), best, 1e-15) << trial;
    EXPECT_GE(closeness(ours), closeness(nearest) - 1e-15);
    better_than_nearest += closeness(ours) > closeness(nearest) + 1e-15;
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
  // Rounding each component to nearest is often not the closest rotation.
  EXPECT_GT(better_than_nearest, 100);
  std::printf("closest-in-angle SHORT beat per-component rounding on %d of 2000 rotations\n",
              better_than_nearest);
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
  EXPECT_GE(check_optimized((root / "RobotExpressive/RobotExpressive.glb").string(), "robot"), 0);
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
  std::vector<unsigned char>& data = m.buffers[0].data;
  auto add = [&](const std::vector<float>& v, int type, size_t count, bool bounds) {
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
    if (bounds) a.minValues = {double(v.front())}, a.maxValues = {double(v.back())};
    m.accessors.push_back(a);
    return int(m.accessors.size()) - 1;
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

}  // namespace
}  // namespace rig
