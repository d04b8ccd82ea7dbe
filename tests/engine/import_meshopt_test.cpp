// EXT_meshopt_compression + KHR_mesh_quantization: files written here with meshoptimizer's own
// encoders (and its filter encoders) from float originals. The expectations are those originals
// and the quantization step the glTF spec's normalized-integer formulas imply, never the
// importer's output; the broken files must give one line, never a crash or a huge allocation.
#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "import_test_files.h"

namespace {

using rig::test::ByteBuffer;
using rig::test::fill_in;

constexpr unsigned kVertices = 40;

struct Originals {
  std::vector<glm::vec3> positions;  // inside [-1, 1]
  std::vector<glm::vec2> uvs;        // inside [0, 1]
  std::vector<glm::vec3> normals;    // unit length
  std::vector<unsigned> indices;     // a triangle list
  std::vector<float> times;
  std::vector<glm::quat> rotations;     // unit
  std::vector<glm::vec3> translations;  // arbitrary floats
};

Originals originals() {
  Originals o;
  for (size_t i = 0; i < kVertices; ++i) {
    const float t = static_cast<float>(i);
    o.positions.push_back(
        {0.9f * std::sin(0.7f * t), 0.8f * std::cos(1.3f * t), 0.95f * std::sin(2.1f * t + 0.5f)});
    o.uvs.push_back({std::fmod(0.137f * t, 1.0f), std::fmod(0.291f * t + 0.05f, 1.0f)});
    o.normals.push_back(
        glm::normalize(glm::vec3(std::cos(t), std::sin(1.7f * t), 0.3f + 0.1f * t)));
  }
  for (unsigned i = 0; i + 2 < kVertices; ++i) {
    o.indices.insert(o.indices.end(), {i, (i + 1) % kVertices, (i + 7) % kVertices});
  }
  for (int k = 0; k < 6; ++k) {
    o.times.push_back(0.25f * static_cast<float>(k));
    o.rotations.push_back(glm::normalize(
        glm::angleAxis(0.4f * static_cast<float>(k), glm::normalize(glm::vec3(1, 2, 3 - k)))));
    o.translations.push_back({1.5f * k - 2.0f, 0.031f * k * k, -7.25f + 0.5f * k});
  }
  return o;
}

int16_t snorm16(float v) { return static_cast<int16_t>(std::lround(v * 32767.0f)); }
uint16_t unorm16(float v) { return static_cast<uint16_t>(std::lround(v * 65535.0f)); }

// One compressed stream in the BIN chunk, described by the bufferView JSON it needs.
struct Streams {
  ByteBuffer bin;
  std::string views;
  uint64_t fallback_length = 0;
  int view_count = 0;

  int add(const std::vector<unsigned char>& encoded, size_t count, size_t stride, const char* mode,
          const char* filter, bool vertex_stride) {
    const size_t offset = bin.size();
    bin.data.insert(bin.data.end(), encoded.begin(), encoded.end());
    bin.pad4();
    const int index = view_count++;
    if (!views.empty()) views += ",";
    views += "{\"buffer\":1,\"byteOffset\":" + std::to_string(fallback_length) +
             ",\"byteLength\":" + std::to_string(count * stride) +
             (vertex_stride ? ",\"byteStride\":" + std::to_string(stride) : std::string()) +
             ",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":" +
             std::to_string(offset) + ",\"byteLength\":" + std::to_string(encoded.size()) +
             ",\"byteStride\":" + std::to_string(stride) + ",\"count\":" + std::to_string(count) +
             ",\"mode\":\"" + mode + "\"" +
             (filter ? std::string(",\"filter\":\"") + filter + "\"" : std::string()) + "}}}";
    fallback_length += (count * stride + 3) / 4 * 4;
    return index;
  }

  template <typename T>
  int attributes(const std::vector<T>& elements, const char* filter = nullptr) {
    const size_t stride = sizeof(T);
    std::vector<unsigned char> out(meshopt_encodeVertexBufferBound(elements.size(), stride));
    out.resize(meshopt_encodeVertexBuffer(out.data(), out.size(), elements.data(), elements.size(),
                                          stride));
    return add(out, elements.size(), stride, "ATTRIBUTES", filter, true);
  }
};

// The file: buffer 0 the GLB's BIN chunk (compressed), buffer 1 the fallback buffer (no data).
// Accessors: 0 positions (normalized SHORT, stride 8), 1 texcoords (normalized UNSIGNED_SHORT),
// 2 normals (normalized SHORT, OCTAHEDRAL), 3 indices (TRIANGLES), 4 the same indices (INDICES,
// UNSIGNED_INT), 5 key times (float), 6 rotations (normalized SHORT, QUATERNION), 7 translations
// (float, EXPONENTIAL).
std::vector<uint8_t> compressed_glb(const Originals& o, const std::string& extra_view = "") {
  Streams s;
  struct Short4 {
    int16_t v[4];
  };
  struct UShort2 {
    uint16_t v[2];
  };
  std::vector<Short4> positions;
  for (const glm::vec3& p : o.positions) {
    positions.push_back({{snorm16(p.x), snorm16(p.y), snorm16(p.z), 0}});
  }
  std::vector<UShort2> uvs;
  for (const glm::vec2& t : o.uvs) uvs.push_back({{unorm16(t.x), unorm16(t.y)}});
  std::vector<float> normal_input;
  for (const glm::vec3& n : o.normals) normal_input.insert(normal_input.end(), {n.x, n.y, n.z, 0});
  std::vector<Short4> normals(o.normals.size());
  meshopt_encodeFilterOct(normals.data(), normals.size(), 8, 12, normal_input.data());
  std::vector<float> quat_input;
  for (const glm::quat& q : o.rotations) quat_input.insert(quat_input.end(), {q.x, q.y, q.z, q.w});
  std::vector<Short4> rotations(o.rotations.size());
  meshopt_encodeFilterQuat(rotations.data(), rotations.size(), 8, 12, quat_input.data());
  struct Float3 {
    float v[3];
  };
  std::vector<float> exp_input;
  for (const glm::vec3& t : o.translations) exp_input.insert(exp_input.end(), {t.x, t.y, t.z});
  std::vector<Float3> translations(o.translations.size());
  meshopt_encodeFilterExp(translations.data(), translations.size(), 12, 15, exp_input.data());

  s.attributes(positions);
  s.attributes(uvs);
  s.attributes(normals, "OCTAHEDRAL");
  meshopt_encodeIndexVersion(1);
  std::vector<unsigned char> tri(meshopt_encodeIndexBufferBound(o.indices.size(), kVertices));
  tri.resize(meshopt_encodeIndexBuffer(tri.data(), tri.size(), o.indices.data(), o.indices.size()));
  s.add(tri, o.indices.size(), 2, "TRIANGLES", nullptr, false);
  std::vector<unsigned char> seq(meshopt_encodeIndexSequenceBound(o.indices.size(), kVertices));
  seq.resize(
      meshopt_encodeIndexSequence(seq.data(), seq.size(), o.indices.data(), o.indices.size()));
  s.add(seq, o.indices.size(), 4, "INDICES", nullptr, false);
  s.attributes(o.times);
  s.attributes(rotations, "QUATERNION");
  s.attributes(translations, "EXPONENTIAL");
  if (!extra_view.empty()) s.views += "," + extra_view;

  std::string json = R"({
    "asset":{"version":"2.0"},
    "extensionsUsed":["EXT_meshopt_compression","KHR_mesh_quantization"],
    "extensionsRequired":["EXT_meshopt_compression","KHR_mesh_quantization"],
    "buffers":[{"byteLength":{BIN}},
               {"byteLength":{FALLBACK},"extensions":{"EXT_meshopt_compression":{"fallback":true}}}],
    "bufferViews":[{VIEWS}],
    "accessors":[
      {"bufferView":0,"componentType":5122,"normalized":true,"count":{N},"type":"VEC3",
       "min":[-1,-1,-1],"max":[1,1,1]},
      {"bufferView":1,"componentType":5123,"normalized":true,"count":{N},"type":"VEC2"},
      {"bufferView":2,"componentType":5122,"normalized":true,"count":{N},"type":"VEC3"},
      {"bufferView":3,"componentType":5123,"count":{I},"type":"SCALAR"},
      {"bufferView":4,"componentType":5125,"count":{I},"type":"SCALAR"},
      {"bufferView":5,"componentType":5126,"count":6,"type":"SCALAR","min":[0],"max":[1.25]},
      {"bufferView":6,"componentType":5122,"normalized":true,"count":6,"type":"VEC4"},
      {"bufferView":7,"componentType":5126,"count":6,"type":"VEC3"}],
    "meshes":[{"primitives":[
      {"attributes":{"POSITION":0,"TEXCOORD_0":1,"NORMAL":2},"indices":3},
      {"attributes":{"POSITION":0},"indices":4}]}],
    "nodes":[{"mesh":0}],
    "scenes":[{"nodes":[0]}],
    "animations":[{"samplers":[{"input":5,"output":6},{"input":5,"output":7}],
      "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}},
                  {"sampler":1,"target":{"node":0,"path":"translation"}}]}]})";
  json = fill_in(json, "BIN", std::to_string(s.bin.size()));
  json = fill_in(json, "FALLBACK", std::to_string(s.fallback_length));
  json = fill_in(json, "VIEWS", s.views);
  json = fill_in(json, "N", std::to_string(kVertices));
  json = fill_in(json, "I", std::to_string(o.indices.size()));
  return rig::test::make_glb(json, s.bin.data);
}

// The JSON text and the BIN chunk of a GLB written by make_glb.
void split_glb(const std::vector<uint8_t>& glb, std::string& json, std::vector<uint8_t>& bin) {
  const uint32_t length = glb[12] | glb[13] << 8 | glb[14] << 16 | uint32_t{glb[15]} << 24;
  json.assign(glb.begin() + 20, glb.begin() + 20 + length);
  bin.assign(glb.begin() + 28 + length, glb.end());
}

// Each triangle rotated so that its smallest index comes first (the winding unchanged).
std::vector<unsigned> rotated_to_smallest_first(std::vector<unsigned> indices) {
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    while (indices[t] > indices[t + 1] || indices[t] > indices[t + 2]) {
      std::rotate(indices.begin() + static_cast<long>(t),
                  indices.begin() + static_cast<long>(t) + 1,
                  indices.begin() + static_cast<long>(t) + 3);
    }
  }
  return indices;
}

bool import_bytes(const std::string& name, const std::vector<uint8_t>& bytes, rig::Model& model,
                  std::string& error) {
  const auto path = rig::test::temp_folder("meshopt") / (name + ".glb");
  rig::test::write_file(path, bytes);
  return rig::import_gltf(path.string(), model, error);
}

TEST(ImportMeshopt, QuantizedCompressedAttributesMatchTheFloatOriginals) {
  const Originals o = originals();
  rig::Model model;
  std::string error;
  ASSERT_TRUE(import_bytes("all_modes", compressed_glb(o), model, error)) << error;
  ASSERT_EQ(model.meshes.size(), 1u);
  ASSERT_EQ(model.meshes[0].primitives.size(), 2u);
  const rig::Primitive& p = model.meshes[0].primitives[0];
  ASSERT_EQ(p.positions.size(), kVertices);
  // Normalized SHORT: c / 32767 (spec); rounding to the nearest c leaves half a step, plus the
  // float rounding of the division.
  const float position_step = 1.0f / 32767.0f;
  const float uv_step = 1.0f / 65535.0f;
  for (size_t i = 0; i < kVertices; ++i) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(p.positions[i][c], o.positions[i][c], 0.5f * position_step + 1e-7f) << i;
    }
    ASSERT_EQ(p.texcoords0.size(), kVertices);
    for (int c = 0; c < 2; ++c) {
      EXPECT_NEAR(p.texcoords0[i][c], o.uvs[i][c], 0.5f * uv_step + 1e-7f) << i;
    }
    // 12-bit octahedral encoding: each of its two coordinates within 1/2047 of the original's,
    // the vector within about 2/2047 once normalized.
    EXPECT_GT(glm::dot(glm::normalize(p.normals[i]), o.normals[i]), std::cos(3.0f / 2047.0f)) << i;
  }
  // TRIANGLES mode keeps every triangle and its winding (it may rotate a triangle's corners);
  // INDICES mode is bit-exact.
  EXPECT_EQ(rotated_to_smallest_first(p.indices), rotated_to_smallest_first(o.indices));
  EXPECT_EQ(model.meshes[0].primitives[1].indices, o.indices);

  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(model.clips[0].channels.size(), 2u);
  for (const rig::Channel& channel : model.clips[0].channels) {
    EXPECT_EQ(channel.times, o.times);  // no filter: bit-exact
    ASSERT_EQ(channel.values.size(), channel.components * o.times.size());
    for (size_t k = 0; k < o.times.size(); ++k) {
      const float* v = channel.values.data() + k * channel.components;
      if (channel.path == rig::TargetPath::Rotation) {
        // 12-bit quaternion encoding: the three smallest components within ~1/2047 each.
        const glm::quat q(v[3], v[0], v[1], v[2]);
        EXPECT_GT(std::abs(glm::dot(glm::normalize(q), o.rotations[k])), 1.0f - 1e-5f) << k;
      } else {
        // 15-bit signed mantissas under one exponent per vector: a step of 2^-14 of the
        // largest component.
        const glm::vec3& t = o.translations[k];
        const float scale = std::max({std::abs(t.x), std::abs(t.y), std::abs(t.z)});
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(v[c], t[c], scale / 16384.0f) << k;
      }
    }
  }
}

// The same file with one compressed stream cut short or corrupted: one line naming the
// bufferView, whatever the damage.
TEST(ImportMeshopt, TruncatedOrCorruptDataIsAOneLineError) {
  const Originals o = originals();
  const std::vector<uint8_t> good = compressed_glb(o);
  std::string json;
  std::vector<uint8_t> bin;
  split_glb(good, json, bin);
  // Shorten the positions' compressed byteLength by 8: the tail block is no longer found.
  const std::string key = R"("EXT_meshopt_compression":{"buffer":0,"byteOffset":0,"byteLength":)";
  const size_t at = json.find(key) + key.size();
  const size_t length = std::stoul(json.substr(at));
  std::string shorter = json;
  shorter.replace(at, std::to_string(length).size(), std::to_string(length - 8));
  rig::Model model;
  std::string error;
  EXPECT_FALSE(import_bytes("truncated", rig::test::make_glb(shorter, bin), model, error));
  EXPECT_NE(error.find("bufferView 0: EXT_meshopt_compression data is corrupt or truncated"),
            std::string::npos)
      << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
  // A wrong header byte (the attribute codec's stream starts with 0xa0).
  std::vector<uint8_t> corrupt = good;
  corrupt[good.size() - bin.size()] = 0x55;
  EXPECT_FALSE(import_bytes("corrupt", corrupt, model, error));
  EXPECT_NE(error.find("corrupt or truncated"), std::string::npos) << error;
}

// A few bytes claiming 2^30 elements of 16 bytes: refused by the decode budget before anything
// is allocated.
TEST(ImportMeshopt, HugeDecodedSizeIsRefusedBeforeAllocating) {
  const uint64_t count = uint64_t{1} << 30;
  const std::string view =
      "{\"buffer\":1,\"byteLength\":" + std::to_string(count * 16) +
      ",\"byteStride\":16,\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,"
      "\"byteLength\":4,\"byteStride\":16,\"count\":" +
      std::to_string(count) + ",\"mode\":\"ATTRIBUTES\"}}}";
  rig::Model model;
  std::string error;
  EXPECT_FALSE(import_bytes("huge", compressed_glb(originals(), view), model, error));
  EXPECT_NE(error.find("bufferView 8 (EXT_meshopt_compression) would decode 17179869184 bytes"),
            std::string::npos)
      << error;
}

TEST(ImportMeshopt, SpecRulesOnTheExtensionObjectAreChecked) {
  struct Case {
    const char* extension;
    const char* expected;
  };
  const Case cases[] = {
      {R"("buffer":0,"byteLength":4,"byteStride":6,"count":2,"mode":"ATTRIBUTES")",
       "byteStride 6 is not a multiple of 4"},
      {R"("buffer":0,"byteLength":4,"byteStride":4,"count":2,"mode":"TRIANGLES")",
       "count 2 is not a multiple of 3"},
      {R"("buffer":0,"byteLength":4,"byteStride":4,"count":3,"mode":"INDICES","filter":"EXPONENTIAL")",
       "filter EXPONENTIAL is only allowed with mode ATTRIBUTES"},
      {R"("buffer":0,"byteLength":4,"byteStride":4,"count":2,"mode":"ATTRIBUTES","filter":"QUATERNION")",
       "byteStride 4 does not suit filter QUATERNION"},
      {R"("buffer":0,"byteLength":4,"byteStride":4,"count":2,"mode":"POINTS")",
       "mode 'POINTS' is unknown"},
      {R"("buffer":1,"byteLength":4,"byteStride":4,"count":2,"mode":"ATTRIBUTES")",
       "reads buffer 1, a fallback buffer that holds no data"},
      {R"("buffer":0,"byteOffset":100000,"byteLength":4,"byteStride":4,"count":2,"mode":"ATTRIBUTES")",
       "data reads past the end of buffer 0"},
  };
  for (const Case& c : cases) {
    const std::string stride =
        std::string(c.extension).find("\"byteStride\":6") != std::string::npos ? "6" : "4";
    const std::string count =
        std::string(c.extension).find("\"count\":3") != std::string::npos ? "3" : "2";
    const std::string view =
        "{\"buffer\":1,\"byteLength\":" + std::to_string(std::stoi(stride) * std::stoi(count)) +
        ",\"extensions\":{\"EXT_meshopt_compression\":{" + c.extension + "}}}";
    rig::Model model;
    std::string error;
    EXPECT_FALSE(import_bytes("rules", compressed_glb(originals(), view), model, error)) << view;
    EXPECT_NE(error.find(std::string("bufferView 8: EXT_meshopt_compression ") + c.expected),
              std::string::npos)
        << error;
  }
  // The parent bufferView's byteLength must be count * byteStride.
  rig::Model model;
  std::string error;
  EXPECT_FALSE(import_bytes(
      "length",
      compressed_glb(
          originals(),
          R"({"buffer":1,"byteLength":12,"extensions":{"EXT_meshopt_compression":)"
          R"({"buffer":0,"byteLength":4,"byteStride":4,"count":2,"mode":"ATTRIBUTES"}}})"),
      model, error));
  EXPECT_NE(error.find("bufferView 8 has byteLength 12 but its EXT_meshopt_compression data "
                       "decodes to count 2 x byteStride 4 = 8 bytes"),
            std::string::npos)
      << error;
}

// A plain bufferView may not read a fallback buffer: it holds no data.
TEST(ImportMeshopt, PlainBufferViewOnAFallbackBufferIsAnError) {
  rig::Model model;
  std::string error;
  EXPECT_FALSE(import_bytes("plain", compressed_glb(originals(), R"({"buffer":1,"byteLength":8})"),
                            model, error));
  EXPECT_NE(error.find("bufferView 8 reads buffer 1, which holds no data"), std::string::npos)
      << error;
}

// A .gltf whose compressed data is a data: URI and whose placeholder buffer has neither a URI
// nor the fallback flag (the spec allows that when the extension is required).
TEST(ImportMeshopt, JsonFileWithAPlaceholderBufferWithoutUri) {
  const Originals o = originals();
  std::string json;
  std::vector<uint8_t> bin;
  split_glb(compressed_glb(o), json, bin);
  const std::string first = "\"buffers\":[{\"byteLength\":";
  json.replace(json.find(first), first.size(),
               "\"buffers\":[{\"uri\":\"" + rig::test::data_uri(bin) + "\",\"byteLength\":");
  const std::string flag = ",\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}";
  json.erase(json.find(flag), flag.size());
  const auto path = rig::test::temp_folder("meshopt_json") / "placeholder.gltf";
  rig::test::write_file(path, json);
  rig::Model model;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(path.string(), model, error)) << error;
  EXPECT_EQ(model.meshes[0].primitives[1].indices, o.indices);
}

}  // namespace
