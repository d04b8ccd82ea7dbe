// KHR_animation_pointer: channels whose target is a JSON pointer, read from small files written
// here. Every expected value is computed by hand from the keys in the buffer (the glTF spec's
// LINEAR, STEP and CUBICSPLINE formulas), never from the importer or sampler's own output.
#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "character/character.h"
#include "import/gltf_import.h"
#include "import/pointer_source.h"
#include "import_test_files.h"

namespace {

using rig::test::ByteBuffer;
using rig::test::import_error;
using rig::test::import_ok;

// The keys (byte offsets in the comments are where the accessors below start):
//   0   times A  [0, 1, 2]
//   12  colours  (1,0,0,1) (0,1,0,1) (0,0,1,0.5)
//   60  times B  [0, 2]
//   68  moves    (0,0,0) (2,4,-6)
//   92  yfov     [0.5, 0.6]
//   100 times C  [0, 1]
//   108 angles   [0, 1.5707964]
//   116 cubic    in 0, value 0, out 0 | in 0, value 1, out 0
//   140 a triangle
ByteBuffer pointer_keys() {
  ByteBuffer b;
  b.put<float>({0, 1, 2});
  b.put<float>({1, 0, 0, 1, 0, 1, 0, 1, 0, 0, 1, 0.5f});
  b.put<float>({0, 2});
  b.put<float>({0, 0, 0, 2, 4, -6});
  b.put<float>({0.5f, 0.6f});
  b.put<float>({0, 1});
  b.put<float>({0, 1.5707964f});
  b.put<float>({0, 0, 0, 0, 1, 0});
  b.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
  return b;
}

const char* kAccessors = R"(
  "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
  "bufferViews":[{"buffer":0,"byteLength":176}],
  "accessors":[
    {"bufferView":0,"byteOffset":0,"componentType":5126,"count":3,"type":"SCALAR","min":[0],"max":[2]},
    {"bufferView":0,"byteOffset":12,"componentType":5126,"count":3,"type":"VEC4"},
    {"bufferView":0,"byteOffset":60,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[2]},
    {"bufferView":0,"byteOffset":68,"componentType":5126,"count":2,"type":"VEC3"},
    {"bufferView":0,"byteOffset":92,"componentType":5126,"count":2,"type":"SCALAR"},
    {"bufferView":0,"byteOffset":100,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},
    {"bufferView":0,"byteOffset":108,"componentType":5126,"count":2,"type":"SCALAR"},
    {"bufferView":0,"byteOffset":116,"componentType":5126,"count":6,"type":"SCALAR"},
    {"bufferView":0,"byteOffset":140,"componentType":5126,"count":3,"type":"VEC3",
     "min":[0,0,0],"max":[1,1,0]}],
  "materials":[{"pbrMetallicRoughness":{"baseColorFactor":[0.2,0.2,0.2,1],"roughnessFactor":0.9}}],
  "meshes":[{"primitives":[{"attributes":{"POSITION":8},"material":0}]}],
  "nodes":[{"mesh":0},{"name":"mover","translation":[9,9,9]}],
  "scenes":[{"nodes":[0,1]}],"scene":0,)";

std::string pointer_target(const std::string& pointer) {
  return R"({"path":"pointer","extensions":{"KHR_animation_pointer":{"pointer":")" + pointer +
         R"("}}})";
}

std::string file_with(const std::string& animations) {
  return R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],)" +
         std::string(kAccessors) + R"("animations":)" + animations + "}";
}

// Animation 0 by pointers; animation 1 the same translation as a core channel.
std::string pointer_file() {
  return file_with(
      R"([{"name":"pointers","samplers":[
           {"input":0,"output":1},
           {"input":2,"output":3},
           {"input":2,"output":4},
           {"input":5,"output":6,"interpolation":"STEP"},
           {"input":5,"output":7,"interpolation":"CUBICSPLINE"}],
          "channels":[
           {"sampler":0,"target":)" +
      pointer_target("/materials/0/pbrMetallicRoughness/baseColorFactor") + R"(},
           {"sampler":1,"target":)" +
      pointer_target("/nodes/1/translation") + R"(},
           {"sampler":2,"target":)" +
      pointer_target("/cameras/0/perspective/yfov") + R"(},
           {"sampler":3,"target":)" +
      pointer_target(
          "/materials/0/pbrMetallicRoughness/baseColorTexture/extensions/KHR_texture_transform/"
          "rotation") +
      R"(},
           {"sampler":4,"target":)" +
      pointer_target("/materials/0/pbrMetallicRoughness/roughnessFactor") + R"(},
           {"sampler":2,"target":)" +
      pointer_target("/cameras/0/perspective/yfov") + R"(}]},
         {"name":"core","samplers":[{"input":2,"output":3}],
          "channels":[{"sampler":0,"target":{"node":1,"path":"translation"}}]}])");
}

const rig::MaterialFactors& material_at(rig::Character& character, int clip, float time) {
  rig::PoseSelection selection;
  selection.clip = clip;
  selection.time = time;
  character.evaluate(selection);
  return character.material_pose().values[0];
}

void expect_vec4(const glm::vec4& got, const glm::vec4& want, const char* what) {
  for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[c], want[c], 1e-6f) << what << " component " << c;
}

TEST(AnimationPointer, BaseColorFactorAtTimeTIsTheHandInterpolatedValue) {
  const rig::Model model = import_ok("pointers", pointer_file(), pointer_keys());
  ASSERT_EQ(model.clips.size(), 2u);
  ASSERT_EQ(model.clips[0].material_channels.size(), 3u);
  EXPECT_EQ(model.clips[0].start, 0.0f);
  EXPECT_EQ(model.clips[0].end, 2.0f);
  // The file's material is untouched: animation is clip data.
  EXPECT_EQ(model.materials[0].base_color_factor, glm::vec4(0.2f, 0.2f, 0.2f, 1.0f));
  rig::Character character(model);
  // Between keys 0 and 1 at u = 0.5: (1,0,0,1)/2 + (0,1,0,1)/2.
  expect_vec4(material_at(character, 0, 0.5f).base_color, {0.5f, 0.5f, 0.0f, 1.0f}, "t = 0.5");
  // Between keys 1 and 2 at u = 0.25: 0.75·(0,1,0,1) + 0.25·(0,0,1,0.5).
  expect_vec4(material_at(character, 0, 1.25f).base_color, {0.0f, 0.75f, 0.25f, 0.875f},
              "t = 1.25");
  // Outside the keys the end values hold.
  expect_vec4(material_at(character, 0, 5.0f).base_color, {0.0f, 0.0f, 1.0f, 0.5f}, "t = 5");
  expect_vec4(material_at(character, 0, -1.0f).base_color, {1.0f, 0.0f, 0.0f, 1.0f}, "t = -1");
  // The rest pose (no clip) and the core clip, which has no material channel, show the file's.
  expect_vec4(material_at(character, -1, 0.5f).base_color, {0.2f, 0.2f, 0.2f, 1.0f}, "rest");
  expect_vec4(material_at(character, 1, 0.5f).base_color, {0.2f, 0.2f, 0.2f, 1.0f}, "core");
}

TEST(AnimationPointer, StepAndCubicSplineMaterialChannelsFollowTheSpecFormulas) {
  const rig::Model model = import_ok("pointers", pointer_file(), pointer_keys());
  rig::Character character(model);
  // CUBICSPLINE, td = 1, v0 = 0, v1 = 1, both tangents 0: p(u) = −2u³ + 3u².
  EXPECT_NEAR(material_at(character, 0, 0.25f).roughness, 3 * 0.0625 - 2 * 0.015625, 1e-6);
  EXPECT_NEAR(material_at(character, 0, 0.75f).roughness, 3 * 0.5625 - 2 * 0.421875, 1e-6);
  // STEP holds key 0 until key 1's time.
  const auto slot = size_t(rig::TextureSlot::BaseColor);
  EXPECT_EQ(material_at(character, 0, 0.99f).transforms[slot].rotation, 0.0f);
  EXPECT_NEAR(material_at(character, 0, 1.0f).transforms[slot].rotation, 1.5707964f, 1e-7f);
  // The slot had no KHR_texture_transform: offset and scale keep the extension's defaults.
  EXPECT_EQ(material_at(character, 0, 1.0f).transforms[slot].scale, glm::vec2(1.0f));
  EXPECT_EQ(material_at(character, 0, 1.0f).transforms[slot].offset, glm::vec2(0.0f));
}

TEST(AnimationPointer, NodeTranslationPointerEqualsTheSameCoreChannel) {
  const rig::Model model = import_ok("pointers", pointer_file(), pointer_keys());
  ASSERT_EQ(model.clips[0].channels.size(), 1u);
  EXPECT_EQ(model.clips[0].channels[0].node, 1);
  EXPECT_EQ(model.clips[0].channels[0].path, rig::TargetPath::Translation);
  rig::Character pointer(model), core(model);
  for (float t : {0.0f, 0.3f, 1.1f, 1.9f, 2.5f}) {
    rig::PoseSelection a, b;
    a.clip = 0;
    b.clip = 1;
    a.time = b.time = t;
    pointer.evaluate(a);
    core.evaluate(b);
    const glm::vec3 got = pointer.pose().local[1].translation;
    EXPECT_EQ(got, core.pose().local[1].translation) << "t = " << t;
    // By hand: (0,0,0) → (2,4,−6) over [0, 2], held after.
    const float u = std::min(t, 2.0f) / 2.0f;
    EXPECT_NEAR(got.x, 2 * u, 1e-6f);
    EXPECT_NEAR(got.y, 4 * u, 1e-6f);
    EXPECT_NEAR(got.z, -6 * u, 1e-6f);
  }
}

TEST(AnimationPointer, AnUnsupportedPointerGivesExactlyOneWarningNamingIt) {
  const rig::Model model = import_ok("pointers", pointer_file(), pointer_keys());
  int unsupported = 0;
  for (const rig::ImportWarning& w : model.warnings) {
    if (w.code != "ANIMATION_POINTER_UNSUPPORTED") continue;
    ++unsupported;
    EXPECT_NE(w.message.find("/cameras/0/perspective/yfov"), std::string::npos) << w.message;
    EXPECT_EQ(w.count, 2u);  // two channels use it
  }
  EXPECT_EQ(unsupported, 1);
}

// Mesh 0 (two morph targets) shown by nodes 0 and 2; /meshes/0/weights animates both nodes'
// weights: keys (0, 0) at t = 0 and (1, 0.5) at t = 2 (the floats after the triangle, at 176).
TEST(AnimationPointer, MeshWeightsPointerAnimatesEveryNodeShowingTheMesh) {
  ByteBuffer keys = pointer_keys();
  keys.put<float>({0, 0, 1, 0.5f});
  const std::string json = R"({"asset":{"version":"2.0"},"extensionsUsed":["KHR_animation_pointer"],
    "buffers":[{"byteLength":{LEN},"uri":"{URI}"}],
    "bufferViews":[{"buffer":0,"byteLength":192}],
    "accessors":[
      {"bufferView":0,"byteOffset":60,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[2]},
      {"bufferView":0,"byteOffset":176,"componentType":5126,"count":4,"type":"SCALAR"},
      {"bufferView":0,"byteOffset":140,"componentType":5126,"count":3,"type":"VEC3",
       "min":[0,0,0],"max":[1,1,0]}],
    "meshes":[{"primitives":[{"attributes":{"POSITION":2},"targets":[{"POSITION":2},{"POSITION":2}]}]}],
    "nodes":[{"mesh":0},{},{"mesh":0}],
    "scenes":[{"nodes":[0,1,2]}],"scene":0,
    "animations":[{"samplers":[{"input":0,"output":1}],"channels":[{"sampler":0,"target":)" +
                           pointer_target("/meshes/0/weights") + "}]}]}";
  const rig::Model model = import_ok("mesh_weights", json, keys);
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(model.clips[0].channels.size(), 2u);
  rig::Character character(model);
  rig::PoseSelection selection;
  selection.clip = 0;
  selection.time = 1.0f;  // halfway: (0.5, 0.25)
  character.evaluate(selection);
  for (int node : {0, 2}) {
    const std::span<const float> w = character.morph_weights(node);
    ASSERT_EQ(w.size(), 2u) << "node " << node;
    EXPECT_NEAR(w[0], 0.5f, 1e-6f) << "node " << node;
    EXPECT_NEAR(w[1], 0.25f, 1e-6f) << "node " << node;
  }
}

std::string one_channel_file(const std::string& pointer, int sampler) {
  return file_with(R"([{"samplers":[{"input":0,"output":1},{"input":2,"output":3},
                                     {"input":2,"output":4}],
                        "channels":[{"sampler":)" +
                   std::to_string(sampler) + R"(,"target":)" + pointer_target(pointer) + "}]}]");
}

TEST(AnimationPointer, MalformedPointersAreWarningsOrOneLineErrorsNeverCrashes) {
  // Not a JSON pointer at all, and one into a collection rigview does not animate.
  for (const char* pointer : {"materials/0/emissiveFactor", "/", "/nodes/01/translation",
                              "/extensions/KHR_lights_punctual/lights/0/intensity"}) {
    const rig::Model model = import_ok("bad_pointer", one_channel_file(pointer, 2), pointer_keys());
    const rig::ImportWarning* w = rig::test::find_warning(model, "ANIMATION_POINTER_UNSUPPORTED");
    ASSERT_NE(w, nullptr) << pointer;
    EXPECT_NE(w->message.find(pointer), std::string::npos) << w->message;
    EXPECT_TRUE(model.clips[0].channels.empty() && model.clips[0].material_channels.empty());
  }
  // An index past the end.
  const rig::Model past =
      import_ok("past_end", one_channel_file("/materials/7/alphaCutoff", 2), pointer_keys());
  ASSERT_NE(rig::test::find_warning(past, "ANIMATION_POINTER_INVALID"), nullptr);
  // Wrong accessor type for the target: baseColorFactor is VEC4, the sampler gives VEC3.
  std::string error = import_error(
      "wrong_type", one_channel_file("/materials/0/pbrMetallicRoughness/baseColorFactor", 1),
      pointer_keys());
  EXPECT_NE(error.find("baseColorFactor"), std::string::npos) << error;
  // A sampler that does not exist.
  error = import_error("no_sampler", one_channel_file("/nodes/1/translation", 9), pointer_keys());
  EXPECT_NE(error.find("sampler 9"), std::string::npos) << error;
  // path "pointer" without the extension's pointer string.
  error = import_error("no_pointer", file_with(R"([{"samplers":[{"input":2,"output":3}],
      "channels":[{"sampler":0,"target":{"path":"pointer"}}]}])"),
                       pointer_keys());
  EXPECT_NE(error.find("KHR_animation_pointer"), std::string::npos) << error;
}

TEST(AnimationPointer, ARepeatedAnimationsMemberIsReadAsTinygltfReadsItTheLastOne) {
  // The first "animations" has a pointer channel without its pointer string (an error if read);
  // tinygltf keeps the last member of a repeated name, and the pointer channels must index into
  // that same array.
  std::string json = one_channel_file("/nodes/1/translation", 1);
  json.insert(json.rfind(R"("animations":)"),
              R"("animations":[{"samplers":[{"input":2,"output":3}],
                  "channels":[{"sampler":0,"target":{"path":"pointer"}}]}],)");
  const rig::Model model = import_ok("repeated_animations", json, pointer_keys());
  ASSERT_EQ(model.clips.size(), 1u);
  ASSERT_EQ(model.clips[0].channels.size(), 1u);
  EXPECT_EQ(model.clips[0].channels[0].node, 1);
}

TEST(AnimationPointer, ChannelSourcesFromHostileJsonAreOneLineErrorsOrNothing) {
  using rig::import::read_pointer_channels;
  std::vector<rig::import::PointerChannelSource> out;
  std::string error;
  const std::string head = R"({"extensionsUsed":["KHR_animation_pointer"],"animations":)";
  // 200,000 nested arrays: no recursion in the parse or in freeing the tree, nothing found.
  const std::string deep = head + std::string(200000, '[') + std::string(200000, ']') + "}";
  EXPECT_TRUE(read_pointer_channels(deep, UINT32_MAX, out, error)) << error;
  EXPECT_TRUE(out.empty());
  // The same text under the importer's depth limit (128): refused, naming the limit.
  EXPECT_FALSE(read_pointer_channels(deep, 128, out, error));
  EXPECT_NE(error.find("nested too deeply (more than 128 levels)"), std::string::npos) << error;
  // Invalid UTF-8 in a string, and a number past double's range: not JSON.
  for (const std::string& bad :
       {head + "[{\"name\":\"\xC3\x28\"}]}", head + "[1e400]}", head + "[]} trailing",
        std::string(R"(["KHR_animation_pointer"])")}) {
    error.clear();
    EXPECT_FALSE(read_pointer_channels(bad, 128, out, error)) << bad;
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  // Samplers: integral numbers in int's range however written; anything else is -1.
  const std::string target = pointer_target("/nodes/1/translation");
  const std::string samplers =
      head + R"([{"channels":[)" + R"({"sampler":2,"target":)" + target + "}," +
      R"({"sampler":3.0,"target":)" + target + "}," + R"({"sampler":2.5,"target":)" + target +
      "}," + R"({"sampler":-1,"target":)" + target + "}," + R"({"sampler":2147483648,"target":)" +
      target + "}," + R"({"sampler":123456789012345678901234567890,"target":)" + target + "}," +
      R"({"sampler":"1","target":)" + target + "}]}]}";
  ASSERT_TRUE(read_pointer_channels(samplers, 128, out, error)) << error;
  const int want[] = {2, 3, -1, -1, -1, -1, -1};
  ASSERT_EQ(out.size(), std::size(want));
  for (size_t c = 0; c < out.size(); ++c) {
    EXPECT_EQ(out[c].channel, c);
    EXPECT_EQ(out[c].sampler, want[c]) << "channel " << c;
    EXPECT_EQ(out[c].pointer, "/nodes/1/translation");
  }
}

}  // namespace
