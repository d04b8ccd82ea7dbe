// Broken files given to `rigview --info`: each must end with exit status 1 and exactly one line
// on stderr, "rigview: error: <file>: <what and where>", never a crash or a hang.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../engine/import_test_gltf.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using rig::test::ByteBuffer;
using rig::test::fill_in;

// A valid skinned triangle animated by one translation channel; the cases below break one thing.
// Buffer layout: positions 0..36, joints 36..48, weights 48..96, key times 96..104,
// key values 104..128.
ByteBuffer valid_buffer() {
  ByteBuffer bin;
  bin.put<float>({0, 0, 0, 1, 0, 0, 0, 1, 0});
  bin.put<uint8_t>({0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0});
  bin.put<float>({1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0});
  bin.put<float>({0, 1});
  bin.put<float>({0, 0, 0, 0, 1, 0});
  return bin;
}

const char* kValidJson = R"({
  "asset":{"version":"2.0"},
  "buffers":[{"byteLength":128,"uri":"{URI}"}],
  "bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":{POSLEN}},
                 {"buffer":0,"byteOffset":36,"byteLength":12},
                 {"buffer":0,"byteOffset":48,"byteLength":48},
                 {"buffer":0,"byteOffset":96,"byteLength":8},
                 {"buffer":0,"byteOffset":104,"byteLength":24}],
  "accessors":[{"bufferView":0,"componentType":5126,"count":{POSCOUNT},"type":"VEC3"},
               {"bufferView":1,"componentType":5121,"count":3,"type":"VEC4"},
               {"bufferView":2,"componentType":5126,"count":3,"type":"VEC4"},
               {"bufferView":3,"componentType":5126,"count":2,"type":"SCALAR"},
               {"bufferView":4,"componentType":5126,"count":2,"type":"VEC3"}],
  "meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2}}]}],
  "skins":[{"joints":[1,2]}],
  "nodes":[{"mesh":0,"skin":0},{"children":[2]},{}],
  "scenes":[{"nodes":[0,1]}],
  "animations":[{"samplers":[{"input":3,"output":4}],
                 "channels":[{"sampler":0,"target":{"node":1,"path":"translation"}}]}]})";

std::string json_with(const std::string& uri, const std::string& position_length = "36",
                      const std::string& position_count = "3") {
  return fill_in(fill_in(fill_in(kValidJson, "URI", uri), "POSLEN", position_length), "POSCOUNT",
                 position_count);
}

fs::path folder() { return rig::test::temp_folder("bad_input"); }

// Writes a .gltf whose buffer is `bin` as an external .bin next to it.
fs::path write_gltf(const std::string& name, const ByteBuffer& bin, const std::string& json) {
  const fs::path dir = folder() / name;
  fs::create_directories(dir);
  rig::test::write_file(dir / "model.bin", bin.data);
  rig::test::write_file(dir / "model.gltf", json);
  return dir / "model.gltf";
}

// Runs --info and checks the one-line error; returns the message after the file name.
void expect_one_line_error(const fs::path& path, const std::string& phrase) {
  const rig::test::RunResult result =
      rig::test::run_rigview("--info " + rig::test::quote(path.string()));
  EXPECT_EQ(result.status, 1) << result.err;
  const std::string prefix = "rigview: error: " + path.string() + ": ";
  EXPECT_EQ(result.err.rfind(prefix, 0), 0u) << result.err;
  ASSERT_FALSE(result.err.empty());
  EXPECT_EQ(result.err.back(), '\n') << result.err;
  EXPECT_EQ(result.err.find('\n'), result.err.size() - 1) << "more than one line:\n" << result.err;
  EXPECT_NE(result.err.find(phrase), std::string::npos)
      << "expected \"" << phrase << "\" in: " << result.err;
}

TEST(BadInput, ValidFileLoads) {
  // The baseline every case below breaks: it must load.
  const fs::path path = write_gltf("valid", valid_buffer(), json_with("model.bin"));
  const rig::test::RunResult result =
      rig::test::run_rigview("--info " + rig::test::quote(path.string()));
  EXPECT_EQ(result.status, 0) << result.err;
}

TEST(BadInput, TruncatedGlb) {
  // In a GLB the buffer without "uri" is the BIN chunk.
  std::string json = json_with("");
  const std::string uri = R"(,"uri":"")";
  json.erase(json.find(uri), uri.size());
  const std::vector<uint8_t> glb = rig::test::make_glb(json, valid_buffer().data);
  const fs::path dir = folder();
  rig::test::write_file(dir / "whole.glb", glb);
  const rig::test::RunResult whole =
      rig::test::run_rigview("--info " + rig::test::quote((dir / "whole.glb").string()));
  EXPECT_EQ(whole.status, 0) << "the uncut GLB must load: " << whole.err;
  const fs::path cut = dir / "truncated.glb";
  rig::test::write_file(
      cut, std::vector<uint8_t>(glb.begin(), glb.begin() + static_cast<long>(glb.size() - 40)));
  expect_one_line_error(cut, "truncated GLB");
  const fs::path header_only = dir / "header_only.glb";
  rig::test::write_file(header_only, std::vector<uint8_t>(glb.begin(), glb.begin() + 7));
  expect_one_line_error(header_only, "truncated GLB");
}

TEST(BadInput, BadJson) {
  const fs::path path = folder() / "bad.gltf";
  rig::test::write_file(path, std::string(R"({"asset": {"version": "2.0"}, "nodes": [ {"name": )"));
  expect_one_line_error(path, "invalid JSON");
}

TEST(BadInput, AccessorPastTheEndOfItsBufferView) {
  const fs::path path =
      write_gltf("accessor_range", valid_buffer(), json_with("model.bin", "36", "4"));
  expect_one_line_error(path, "accessor 0 reads past the end of bufferView 0");
}

TEST(BadInput, BufferViewPastTheEndOfItsBuffer) {
  const fs::path path = write_gltf("view_range", valid_buffer(), json_with("model.bin", "400"));
  expect_one_line_error(
      path, "bufferView 0 reads past the end of buffer 0 (byteOffset 0 + byteLength 400 > 128)");
}

TEST(BadInput, MissingBin) {
  const fs::path dir = folder() / "missing_bin";
  fs::create_directories(dir);
  rig::test::write_file(dir / "model.gltf", json_with("nothere.bin"));
  expect_one_line_error(dir / "model.gltf", "buffer 0: cannot read 'nothere.bin'");
}

TEST(BadInput, NanKeyTime) {
  ByteBuffer bin = valid_buffer();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(bin.data.data() + 100, &nan, 4);  // second key time
  expect_one_line_error(write_gltf("nan_time", bin, json_with("model.bin")),
                        "animation 0 sampler 0: key time 1 is not finite");
}

TEST(BadInput, NanKeyValue) {
  ByteBuffer bin = valid_buffer();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::memcpy(bin.data.data() + 104 + 16, &nan, 4);  // key 1, y
  expect_one_line_error(write_gltf("nan_value", bin, json_with("model.bin")),
                        "animation 0 sampler 0: output value 4 is not finite");
}

TEST(BadInput, DecreasingKeyTimes) {
  ByteBuffer bin = valid_buffer();
  const float times[2] = {1.5f, 0.5f};
  std::memcpy(bin.data.data() + 96, times, 8);
  expect_one_line_error(write_gltf("decreasing", bin, json_with("model.bin")),
                        "key times not increasing at key 1");
}

TEST(BadInput, JointIndexOutOfRange) {
  ByteBuffer bin = valid_buffer();
  bin.data[36 + 8] = 7;  // vertex 2, first joint
  expect_one_line_error(
      write_gltf("joint_range", bin, json_with("model.bin")),
      "mesh 0 primitive 0: JOINTS_0 vertex 2 uses joint 7 but skin 0 has 2 joints");
}

TEST(BadInput, AbsurdAccessorCount) {
  expect_one_line_error(
      write_gltf("absurd_count", valid_buffer(), json_with("model.bin", "36", "4000000000")),
      "accessor 0 has count 4000000000, too large");
}

TEST(BadInput, MissingModelFile) {
  expect_one_line_error(folder() / "does_not_exist.glb", "file not found");
}

}  // namespace
