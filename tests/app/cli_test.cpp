// The rigview command line: usage errors, --help/--version, --info's JSON, --export-obj layout.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "skin/skinning_method.h"
#include "test_support.h"

namespace {

using rig::test::quote;
using rig::test::run_rigview;

std::string tmp_path(const std::string& name) {
  return (rig::test::scratch_dir() / ("cli_" + name)).string();
}

// A tiny two-joint skinned strip as a .gltf with an embedded data: URI buffer, written by hand:
// 4 vertices along +X at x = 0, 1, 2, 3 (y = 0), joint 0 at the origin, joint 1 at x = 2
// (child of joint 0); vertices 0,1 → joint 0, vertices 2,3 → joint 1. One LINEAR clip "Bend"
// rotates joint 1 about Z from 0° (t = 1) to 90° (t = 3). Unnamed nodes on purpose.
std::string write_strip_gltf() {
  std::vector<float> pos = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0};
  std::vector<uint8_t> joints = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<float> weights = {1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0};
  std::vector<float> ibm = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0,  0, 0, 1,
                            1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -2, 0, 0, 1};
  std::vector<float> times = {1, 3};
  const float s = std::sqrt(0.5f);
  std::vector<float> rots = {0, 0, 0, 1, 0, 0, s, s};
  std::vector<uint16_t> indices = {0, 1, 2, 1, 3, 2};
  std::string bin;
  auto add = [&](const void* p, size_t n) {
    size_t off = bin.size();
    bin.append(static_cast<const char*>(p), n);
    while (bin.size() % 4) bin.push_back('\0');
    return off;
  };
  size_t o_pos = add(pos.data(), pos.size() * 4), o_j = add(joints.data(), joints.size()),
         o_w = add(weights.data(), weights.size() * 4), o_ibm = add(ibm.data(), ibm.size() * 4),
         o_t = add(times.data(), 8), o_r = add(rots.data(), 32), o_i = add(indices.data(), 12);
  static const char* b64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string enc;
  for (size_t i = 0; i < bin.size(); i += 3) {
    uint32_t v = uint8_t(bin[i]) << 16;
    if (i + 1 < bin.size()) v |= uint8_t(bin[i + 1]) << 8;
    if (i + 2 < bin.size()) v |= uint8_t(bin[i + 2]);
    enc += b64[(v >> 18) & 63];
    enc += b64[(v >> 12) & 63];
    enc += i + 1 < bin.size() ? b64[(v >> 6) & 63] : '=';
    enc += i + 2 < bin.size() ? b64[v & 63] : '=';
  }
  std::ostringstream j;
  auto view = [&](size_t off, size_t len) {
    return "{\"buffer\":0,\"byteOffset\":" + std::to_string(off) +
           ",\"byteLength\":" + std::to_string(len) + "}";
  };
  j << R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0,2]}],)"
    << R"("nodes":[{"children":[1]},{"translation":[2,0,0]},{"mesh":0,"skin":0,"translation":[50,0,0]}],)"
    << R"("skins":[{"joints":[0,1],"inverseBindMatrices":3}],)"
    << R"("meshes":[{"primitives":[{"attributes":{"POSITION":0,"JOINTS_0":1,"WEIGHTS_0":2},"indices":6}]}],)"
    << R"("animations":[{"name":"Bend","channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}}],)"
    << R"("samplers":[{"input":4,"output":5,"interpolation":"LINEAR"}]}],)"
    << "\"bufferViews\":[" << view(o_pos, 48) << "," << view(o_j, 16) << "," << view(o_w, 64) << ","
    << view(o_ibm, 128) << "," << view(o_t, 8) << "," << view(o_r, 32) << "," << view(o_i, 12)
    << "],"
    << R"("accessors":[)"
    << R"({"bufferView":0,"componentType":5126,"count":4,"type":"VEC3","min":[0,0,0],"max":[3,0,0]},)"
    << R"({"bufferView":1,"componentType":5121,"count":4,"type":"VEC4"},)"
    << R"({"bufferView":2,"componentType":5126,"count":4,"type":"VEC4"},)"
    << R"({"bufferView":3,"componentType":5126,"count":2,"type":"MAT4"},)"
    << R"({"bufferView":4,"componentType":5126,"count":2,"type":"SCALAR","min":[1],"max":[3]},)"
    << R"({"bufferView":5,"componentType":5126,"count":2,"type":"VEC4"},)"
    << R"({"bufferView":6,"componentType":5123,"count":6,"type":"SCALAR"}],)"
    << R"("buffers":[{"byteLength":)" << bin.size()
    << R"(,"uri":"data:application/octet-stream;base64,)" << enc << "\"}]}";
  std::string path = tmp_path("strip.gltf");
  std::ofstream(path) << j.str();
  return path;
}

std::vector<std::string> lines_starting(const std::string& file, const std::string& prefix) {
  std::vector<std::string> out;
  std::ifstream f(file);
  std::string line;
  while (std::getline(f, line))
    if (line.rfind(prefix, 0) == 0) out.push_back(line);
  return out;
}

TEST(Cli, HelpAndVersion) {
  auto h = run_rigview("--help");
  EXPECT_EQ(h.status, 0);
  EXPECT_NE(h.out.find("--export-obj"), std::string::npos);
  EXPECT_NE(h.out.find("--animation-time"), std::string::npos);
  auto v = run_rigview("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("rigview ", 0), 0u);
}

TEST(Cli, UsageErrorsExitTwoWithOneLine) {
  for (const char* args :
       {"--bogus", "--animation-index", "--animation-index -3", "--skinning sideways",
        "--skinning compare=lbs,nope", "--skinning compare=dqs,dqs", "--skinning compare=lbs",
        "--blend-weight 2 --blend-index 0", "--blend-time 1", "--resolution 0,5", "a.glb b.glb"}) {
    auto r = run_rigview(args);
    EXPECT_EQ(r.status, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
    EXPECT_EQ(r.err.rfind("rigview: ", 0), 0u) << r.err;
  }
}

TEST(Cli, BadSkinningNamesListTheTableAndExitTwo) {
  auto r = run_rigview("--skinning compare=lbs,nope");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.err, "rigview: --skinning compare: unknown method 'nope' (methods: " +
                       rig::skinning_method_names(", ") +
                       "), got 'compare=lbs,nope' (see rigview --help)\n");
  EXPECT_EQ(r.out, "");
}

TEST(Cli, InfoReportsSkinsClipsAndTimeline) {
  const std::string path = write_strip_gltf();
  auto r = run_rigview("--info " + quote(path));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("\"skins\":[{\"name\":\"\",\"joints\":2}]"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"meshes\":1"), std::string::npos);
  EXPECT_NE(r.out.find("\"vertices\":4"), std::string::npos);
  EXPECT_NE(r.out.find("{\"name\":\"Bend\",\"start\":1,\"end\":3,\"channels\":1,"
                       "\"interpolations\":[\"LINEAR\"],\"material_channels\":[]}"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\"warnings\":["), std::string::npos);
}

TEST(Cli, ExportObjPosesClampsAndIgnoresTheSkinnedNodeTransform) {
  const std::string path = write_strip_gltf();
  const std::string obj = tmp_path("strip.obj");
  // t = 2 is halfway: joint 1 turned 45°. Vertices 2, 3 at bind x = 2, 3 → (2,0,0) and
  // (2 + cos45°, sin45°, 0). The mesh node's translation (50,0,0) is ignored (spec).
  auto r = run_rigview("--export-obj " + quote(obj) + " --animation-time 2 " + quote(path));
  ASSERT_EQ(r.status, 0) << r.err;
  auto v = lines_starting(obj, "v ");
  ASSERT_EQ(v.size(), 4u);
  float x, y, z;
  std::sscanf(v[3].c_str(), "v %f %f %f", &x, &y, &z);
  EXPECT_NEAR(x, 2.0f + std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(y, std::sqrt(0.5f), 1e-5f);
  std::sscanf(v[0].c_str(), "v %f %f %f", &x, &y, &z);
  EXPECT_NEAR(x, 0.0f, 1e-6f);
  EXPECT_EQ(lines_starting(obj, "vn ").size(), 4u);
  auto o = lines_starting(obj, "o ");
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0], "o node2#0");
  auto f = lines_starting(obj, "f ");
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0], "f 1//1 2//2 3//3");
  EXPECT_EQ(f[1], "f 2//2 4//4 3//3");
  // Times past the clip's end clamp to it: 90°, vertex 3 at (2, 1, 0).
  r = run_rigview("--export-obj " + quote(obj) + " --animation-time 99 " + quote(path));
  ASSERT_EQ(r.status, 0);
  std::sscanf(lines_starting(obj, "v ")[3].c_str(), "v %f %f %f", &x, &y, &z);
  EXPECT_NEAR(x, 2.0f, 1e-5f);
  EXPECT_NEAR(y, 1.0f, 1e-5f);
  // The default time is the clip's start (t = 1 on this file's timeline): the bind pose.
  r = run_rigview("--export-obj " + quote(obj) + " " + quote(path));
  ASSERT_EQ(r.status, 0);
  std::sscanf(lines_starting(obj, "v ")[3].c_str(), "v %f %f %f", &x, &y, &z);
  EXPECT_NEAR(x, 3.0f, 1e-5f);
  EXPECT_NEAR(y, 0.0f, 1e-5f);
  // Crossfade with itself at another time: weight 0.5 between 0° (t=1) and 90° (t=3) is 45°.
  r = run_rigview("--export-obj " + quote(obj) +
                  " --animation-time 1 --blend-index 0 --blend-time 3 --blend-weight 0.5 " +
                  quote(path));
  ASSERT_EQ(r.status, 0) << r.err;
  std::sscanf(lines_starting(obj, "v ")[3].c_str(), "v %f %f %f", &x, &y, &z);
  EXPECT_NEAR(x, 2.0f + std::sqrt(0.5f), 1e-5f);
  EXPECT_NEAR(y, std::sqrt(0.5f), 1e-5f);
}

TEST(Cli, OutOfRangeClipIsAnError) {
  const std::string path = write_strip_gltf();
  auto r = run_rigview("--export-obj " + quote(tmp_path("x.obj")) + " --animation-index 3 " +
                       quote(path));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;
}

}  // namespace
