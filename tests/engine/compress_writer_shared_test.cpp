// The optimized-glTF writer where clips share key times (as InterpolationTest's do): a clip may be
// rewritten only when its new accessors are fewer bytes than replacing it frees, and key times a
// kept clip still reads free nothing. The file is built here, the bytes counted by hand.
#include <gtest/gtest.h>
#include <tiny_gltf.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "compress/clip_compression.h"
#include "compress/gltf_writer.h"
#include "import/gltf_import.h"
#include "test_support.h"
#include "write_test_support.h"

namespace rig {
namespace {

int add_floats(tinygltf::Model& m, const std::vector<float>& v, int type, size_t count,
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
    a.minValues = {double(v.front())};
    a.maxValues = {double(v.back())};
  }
  m.accessors.push_back(a);
  return int(m.accessors.size()) - 1;
}

// Two clips of one node's translation over one shared input of 11 key times (44 B):
//   "zigzag": x = 0, 1, 0, 1, … — no key can go (132 B of output): its own form is already the
//             smallest, so it is kept, and with it the shared times;
//   "almost": the same zigzag but key 9 exactly between keys 8 and 10: key reduction drops it,
//             10 keys = 40 B of times + 120 B of values = 160 B, fewer than its accessors
//             (44 + 132 = 176 B) but more than replacing it frees (its 132 B of values: the
//             times stay for "zigzag"). Writing it would grow the animations from 308 to 336 B.
std::string write_shared_times_file(const std::filesystem::path& dir) {
  tinygltf::Model m;
  m.asset.version = "2.0";
  m.buffers.emplace_back();
  tinygltf::Node node;
  node.name = "box";
  m.nodes.push_back(node);
  m.scenes.emplace_back();
  m.scenes[0].nodes = {0};
  std::vector<float> times;
  for (int k = 0; k <= 10; ++k) times.push_back(float(k));
  const int input = add_floats(m, times, TINYGLTF_TYPE_SCALAR, 11, true);
  auto clip = [&](const std::string& name, const std::vector<float>& x) {
    std::vector<float> values;
    for (float v : x) values.insert(values.end(), {v, 0.0f, 0.0f});
    tinygltf::Animation a;
    a.name = name;
    tinygltf::AnimationSampler s;
    s.input = input;
    s.output = add_floats(m, values, TINYGLTF_TYPE_VEC3, x.size(), false);
    a.samplers.push_back(s);
    tinygltf::AnimationChannel c;
    c.sampler = 0;
    c.target_node = 0;
    c.target_path = "translation";
    a.channels.push_back(c);
    m.animations.push_back(a);
  };
  clip("zigzag", {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0});
  clip("almost", {0, 1, 0, 1, 0, 1, 0, 1, 0, 0.5f, 1});
  const std::string path = (dir / "shared_times.gltf").string();
  tinygltf::TinyGLTF writer;
  EXPECT_TRUE(writer.WriteGltfSceneToFile(&m, path, false, true, true, false));
  return path;
}

size_t animation_bytes(const tinygltf::Model& doc) {
  std::vector<int> used;
  for (const tinygltf::Animation& a : doc.animations)
    for (const tinygltf::AnimationSampler& s : a.samplers)
      used.insert(used.end(), {s.input, s.output});
  std::sort(used.begin(), used.end());
  used.erase(std::unique(used.begin(), used.end()), used.end());
  size_t bytes = 0;
  for (int i : used) {
    const tinygltf::Accessor& acc = doc.accessors[size_t(i)];
    bytes += acc.count * size_t(tinygltf::GetNumComponentsInType(uint32_t(acc.type))) *
             size_t(tinygltf::GetComponentSizeInBytes(uint32_t(acc.componentType)));
  }
  return bytes;
}

TEST(GltfWriter, AClipSharingKeyTimesWithAKeptClipIsKeptWhenReplacingItFreesLess) {
  const std::filesystem::path dir = test::scratch_dir() / "shared_times";
  std::filesystem::create_directories(dir);
  const std::string in = write_shared_times_file(dir);
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(in, model, error)) << error;
  ASSERT_EQ(model.clips.size(), 2u);
  std::vector<CompressionResult> results;
  std::vector<const CompressedClip*> clips;
  for (size_t c = 0; c < 2; ++c) {
    CompressionSettings s;
    s.measure_vertices = false;
    results.push_back(compress_clip(model, int(c), s));
    ASSERT_TRUE(results.back().ok) << results.back().error;
  }
  for (const CompressionResult& r : results) clips.push_back(&r.clip);
  const std::string out = (dir / "shared_times_opt.glb").string();
  std::vector<WrittenClip> written;
  WrittenSizes sizes;
  ASSERT_TRUE(write_optimized_gltf(in, model, clips, out, error, {}, &written, &sizes)) << error;
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(sizes.before, 308u);  // 44 + 132 + 132
  // Both kept: "zigzag" cannot shrink; "almost" would take 160 B to free 132.
  EXPECT_FALSE(written[0].replaced);
  EXPECT_FALSE(written[1].replaced);
  EXPECT_TRUE(written[1].not_smaller);
  EXPECT_EQ(written[1].optimized_bytes, 160u);
  const tinygltf::Model doc = test::read_document(out);
  EXPECT_EQ(animation_bytes(doc), 308u);
  EXPECT_EQ(sizes.after, 308u);
}

}  // namespace
}  // namespace rig
