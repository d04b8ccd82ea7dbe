// Clips from other files on the command line (--clips): a file with the same skeleton plays its
// clips by joint name, numbered after the model's own; --info lists them; --save writes them as
// new animations that play the same; a file that cannot be used is one line and a non-zero exit.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "export_conformance.h"
#include "json_reader.h"

namespace {

using namespace export_conformance;
using rig::test::Json;
using rig::test::parse_json;
using rig::test::quote;
using rig::test::run_rigview;
using rig::test::slurp;

std::string scratch(const std::string& name) {
  return (rig::test::scratch_dir() / ("clips_" + name)).string();
}

std::string write(const std::string& name, const std::string& text) {
  const std::string path = scratch(name);
  rig::test::write_file(path, text);
  return path;
}

// The character: Root with Bone one unit above it, and one clip of its own ("Still": Bone at
// rest from 0 to 1 s).
std::string character() {
  GltfWriter g;
  const int times = g.data<float>({0, 1}, 5126, "SCALAR", ",\"min\":[0],\"max\":[1]");
  const int still = g.floats({0, 0, 0, 1, 0, 0, 0, 1}, "VEC4");
  return g.json(fill(R"(
    "scenes":[{"nodes":[0]}],
    "nodes":[{"name":"Root","children":[1]},{"name":"Bone","translation":[0,1,0]}],
    "animations":[{"name":"Still","samplers":[{"input":{T},"output":{S}}],
                   "channels":[{"sampler":0,"target":{"node":1,"path":"rotation"}}]}])",
                     {{"T", times}, {"S", still}}));
}

// The same skeleton (its skin's joints) listed in another node order (Bone is node 0 here, 1 in
// the character), plus a node that is no joint and that the character lacks. "Turn" turns Bone from
// rest to 90° about Z over 1 s and moves Extra; unnamed animation 1 turns Bone 180° about X at once
// (STEP).
std::string clip_file() {
  GltfWriter g;
  const int times = g.data<float>({0, 1}, 5126, "SCALAR", ",\"min\":[0],\"max\":[1]");
  const int turn = g.floats({0, 0, 0, 1, 0, 0, float(M_SQRT1_2), float(M_SQRT1_2)}, "VEC4");
  const int move = g.floats({0, 0, 0, 5, 0, 0}, "VEC3");
  const int flip = g.floats({1, 0, 0, 0, 1, 0, 0, 0}, "VEC4");
  return g.json(fill(R"(
    "scenes":[{"nodes":[1,2]}],
    "nodes":[{"name":"Bone","translation":[0,1,0]},{"name":"Root","children":[0]},
             {"name":"Extra"}],
    "skins":[{"joints":[1,0]}],
    "animations":[{"name":"Turn","samplers":[{"input":{T},"output":{R}},{"input":{T},"output":{M}}],
                   "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}},
                               {"sampler":1,"target":{"node":2,"path":"translation"}}]},
                  {"samplers":[{"input":{T},"output":{F},"interpolation":"STEP"}],
                   "channels":[{"sampler":0,"target":{"node":0,"path":"rotation"}}]}])",
                     {{"T", times}, {"R", turn}, {"M", move}, {"F", flip}}));
}

Json export_pose(const std::string& model, const std::string& flags) {
  const std::string path = scratch("pose.json");
  std::filesystem::remove(path);
  const rig::test::RunResult r =
      run_rigview(quote(model) + " " + flags + " --export-pose " + quote(path));
  EXPECT_EQ(r.status, 0) << flags << ": " << r.err;
  return parse_json(slurp(path));
}

// Bone's local rotation (x, y, z, w) in an --export-pose file.
std::vector<double> bone_rotation(const Json& pose) {
  for (const Json& node : pose["nodes"].items)
    if (node["name"].text == "Bone") {
      std::vector<double> q;
      for (const Json& v : node["rotation"].items) q.push_back(v.number);
      return q;
    }
  ADD_FAILURE() << "no Bone";
  return {};
}

TEST(ClipsCli, SameSkeletonClipsPlayByNameAfterTheModelsOwn) {
  const std::string model = write("character.gltf", character());
  const std::string clips = write("moves.gltf", clip_file());
  // Index 1 is the clip file's "Turn" (the character has one clip): at 0.5 s, 45° about Z.
  const double s = std::sin(M_PI / 8), c = std::cos(M_PI / 8);
  std::vector<double> q = bone_rotation(
      export_pose(model, "--clips " + quote(clips) + " --animation-index 1 --animation-time 0.5"));
  ASSERT_EQ(q.size(), 4u);
  EXPECT_NEAR(q[0], 0.0, 1e-6);
  EXPECT_NEAR(q[1], 0.0, 1e-6);
  EXPECT_NEAR(q[2], s, 1e-6);
  EXPECT_NEAR(q[3], c, 1e-6);
  // Index 2, the file's unnamed STEP clip: 180° about X from its first key on.
  q = bone_rotation(
      export_pose(model, "--clips " + quote(clips) + " --animation-index 2 --animation-time 0.5"));
  ASSERT_EQ(q.size(), 4u);
  EXPECT_NEAR(std::abs(q[0]), 1.0, 1e-6);
  // A layer names the added clip by its name (which holds a ':'): full weight at 1 s is 90°.
  q = bone_rotation(
      export_pose(model, "--clips " + quote(clips) + " --layer clips_moves:Turn:1:time=1"));
  ASSERT_EQ(q.size(), 4u);
  EXPECT_NEAR(q[2], M_SQRT1_2, 1e-6);
  EXPECT_NEAR(q[3], M_SQRT1_2, 1e-6);
}

TEST(ClipsCli, InfoListsTheAddedClipsWithTheirSource) {
  const std::string model = write("character.gltf", character());
  const std::string clips = write("moves.gltf", clip_file());
  const rig::test::RunResult r = run_rigview(quote(model) + " --clips " + quote(clips) + " --info");
  ASSERT_EQ(r.status, 0) << r.err;
  const Json info = parse_json(r.out);
  const Json& added = info["added_clips"];
  ASSERT_EQ(added.items.size(), 2u);
  EXPECT_EQ(added.items[0]["index"].number, 1);
  EXPECT_EQ(added.items[0]["name"].text, "clips_moves:Turn");
  EXPECT_EQ(added.items[0]["origin"].text, "added");
  EXPECT_EQ(added.items[0]["file"].text, clips);
  EXPECT_EQ(added.items[0]["channels"].number, 1);  // Extra's channel has no node here
  EXPECT_EQ(added.items[1]["name"].text, "clips_moves:1");
  // Without --clips, --info has no such list.
  const rig::test::RunResult plain = run_rigview(quote(model) + " --info");
  EXPECT_EQ(plain.out.find("added_clips"), std::string::npos);
}

TEST(ClipsCli, SavedClipsAreNewAnimationsThatPlayTheSame) {
  const std::string model = write("character.gltf", character());
  const std::string clips = write("moves.gltf", clip_file());
  const std::string saved = scratch("saved.glb");
  std::filesystem::remove(saved);
  const rig::test::RunResult r =
      run_rigview(quote(model) + " --clips " + quote(clips) + " --save " + quote(saved));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("2 animations added"), std::string::npos) << r.out;
  const rig::test::RunResult info = run_rigview(quote(saved) + " --info");
  ASSERT_EQ(info.status, 0) << info.err;
  const Json animations = parse_json(info.out)["animations"];
  ASSERT_EQ(animations.items.size(), 3u);
  EXPECT_EQ(animations.items[0]["name"].text, "Still");
  EXPECT_EQ(animations.items[1]["name"].text, "clips_moves:Turn");
  EXPECT_EQ(animations.items[2]["interpolations"].items[0].text, "STEP");
  // The saved file's clip 1 at 0.5 s is the same 45° as the added clip's.
  const std::vector<double> q =
      bone_rotation(export_pose(saved, "--animation-index 1 --animation-time 0.5"));
  ASSERT_EQ(q.size(), 4u);
  EXPECT_NEAR(q[2], std::sin(M_PI / 8), 1e-6);
  EXPECT_NEAR(q[3], std::cos(M_PI / 8), 1e-6);
}

TEST(ClipsCli, AFileThatCannotBeUsedIsOneLineNamingIt) {
  const std::string model = write("character.gltf", character());
  const std::string missing = scratch("missing.glb");
  const std::string empty = write("no_animations.gltf", R"({"asset":{"version":"2.0"}})");
  for (const std::string& bad : {missing, empty}) {
    const rig::test::RunResult r = run_rigview(quote(model) + " --clips " + quote(bad) + " --info");
    EXPECT_EQ(r.status, 1) << bad;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
  }
  // The flags that need --clips say so.
  for (const char* flag : {"--bone-map map.json", "--retarget-report r.json", "--retarget-feet"}) {
    const rig::test::RunResult r = run_rigview(quote(model) + " --info " + flag);
    EXPECT_EQ(r.status, 2) << flag;
    EXPECT_NE(r.err.find("--clips"), std::string::npos) << r.err;
  }
}

}  // namespace
