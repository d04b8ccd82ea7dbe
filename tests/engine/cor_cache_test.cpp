// The on-disk cache of the centres of rotation: a second open reads them back (and equals the
// computed ones), corrupt or truncated files are ignored and recomputed, the key follows the
// data the centres depend on, and the cache folder follows XDG_CACHE_HOME / HOME.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "import/gltf_import.h"
#include "skin/rotation_centers.h"
#include "skin/skin_mesh.h"
#include "test_support.h"

namespace rig {
namespace {

namespace fs = std::filesystem;

// A small skinned strip over three joints.
Model strip_model() {
  Primitive p;
  p.mode = PrimitiveMode::TriangleStrip;
  p.influences = 4;
  for (int i = 0; i < 20; ++i) {
    const float x = float(i / 2) * 0.3f;
    p.positions.push_back({x, float(i % 2), 0.0f});
    p.normals.push_back({0, 0, 1});
    const float t = std::clamp(x / 2.7f, 0.0f, 1.0f);
    p.joints.insert(p.joints.end(), {0, 1, 2, 0});
    p.weights.insert(p.weights.end(), {(1 - t) * (1 - t), 2 * t * (1 - t), t * t, 0.0f});
  }
  Model m;
  m.meshes.push_back({});
  m.meshes[0].primitives.push_back(p);
  return m;
}

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = test::scratch_dir() / name;
  fs::remove_all(dir);
  return dir;
}

CorOptions cached_in(const fs::path& dir) {
  CorOptions o;
  o.cache_dir = dir.string();
  return o;
}

TEST(CorCache, SecondRunReadsTheComputedCentres) {
  const Model model = strip_model();
  const CorOptions options = cached_in(fresh_dir("second_run"));
  SkinMeshes first = prepare_skin_meshes(model), second = first;
  bool from_cache = true;
  ASSERT_TRUE(prepare_rotation_centers(model, first, options, nullptr, nullptr, from_cache));
  EXPECT_FALSE(from_cache);
  const std::string path =
      rotation_centers_cache_path(options.cache_dir, rotation_centers_key(model, options));
  EXPECT_TRUE(fs::is_regular_file(path));
  // The second open must not compute: a progress callback that cancels would make it fail.
  auto cancel = [](void*, float f) { return f >= 1.0f; };
  ASSERT_TRUE(prepare_rotation_centers(model, second, options, cancel, nullptr, from_cache));
  EXPECT_TRUE(from_cache);
  EXPECT_EQ(second.primitives[0].rotation_centers, first.primitives[0].rotation_centers);
  ASSERT_EQ(second.primitives[0].rotation_centers.size(), 20u);
  // And they are what a fresh computation gives.
  SkinMeshes computed = prepare_skin_meshes(model);
  CorOptions no_cache = options;
  no_cache.use_cache = false;
  ASSERT_TRUE(compute_rotation_centers(model, computed, no_cache));
  EXPECT_EQ(computed.primitives[0].rotation_centers, second.primitives[0].rotation_centers);
}

TEST(CorCache, MannequinSecondOpenComesFromTheCache) {
  Model model;
  std::string error;
  ASSERT_TRUE(import_gltf(RIGVIEW_SOURCE_DIR "/assets/mannequin.glb", model, error)) << error;
  const CorOptions options = cached_in(fresh_dir("mannequin"));
  SkinMeshes a = prepare_skin_meshes(model), b = a;
  bool from_cache = true;
  ASSERT_TRUE(prepare_rotation_centers(model, a, options, nullptr, nullptr, from_cache));
  EXPECT_FALSE(from_cache);
  ASSERT_TRUE(prepare_rotation_centers(model, b, options, nullptr, nullptr, from_cache));
  EXPECT_TRUE(from_cache);
  for (size_t p = 0; p < a.primitives.size(); ++p)
    EXPECT_EQ(a.primitives[p].rotation_centers, b.primitives[p].rotation_centers);
}

TEST(CorCache, CorruptOrTruncatedFilesAreIgnoredAndRecomputed) {
  const Model model = strip_model();
  const CorOptions options = cached_in(fresh_dir("corrupt"));
  const CorCacheKey key = rotation_centers_key(model, options);
  const std::string path = rotation_centers_cache_path(options.cache_dir, key);
  SkinMeshes good = prepare_skin_meshes(model);
  bool from_cache = false;
  ASSERT_TRUE(prepare_rotation_centers(model, good, options, nullptr, nullptr, from_cache));
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), {});
  }
  ASSERT_GT(bytes.size(), 100u);
  auto write = [&](const std::string& content) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << content;
  };
  std::string flipped = bytes;
  flipped[bytes.size() / 2] ^= 0x40;
  std::string bad_magic = bytes;
  bad_magic[0] = 'X';
  for (const std::string& damaged : {bytes.substr(0, bytes.size() - 1), bytes.substr(0, 10),
                                     std::string(), flipped, bad_magic, bytes + "x"}) {
    write(damaged);
    SkinMeshes meshes = prepare_skin_meshes(model);
    EXPECT_FALSE(load_rotation_centers(path, key, meshes));
    EXPECT_TRUE(meshes.primitives[0].rotation_centers.empty());
    ASSERT_TRUE(prepare_rotation_centers(model, meshes, options, nullptr, nullptr, from_cache));
    EXPECT_FALSE(from_cache);
    EXPECT_EQ(meshes.primitives[0].rotation_centers, good.primitives[0].rotation_centers);
    // ... and the rewritten file is good again.
    SkinMeshes again = prepare_skin_meshes(model);
    EXPECT_TRUE(load_rotation_centers(path, key, again));
  }
  // A valid file for another key is not used.
  CorCacheKey other = key;
  other.lo ^= 1;
  SkinMeshes meshes = prepare_skin_meshes(model);
  EXPECT_FALSE(load_rotation_centers(path, other, meshes));
  // Nor one whose primitives do not fit.
  Model bigger = strip_model();
  bigger.meshes.push_back(bigger.meshes[0]);
  SkinMeshes two = prepare_skin_meshes(bigger);
  EXPECT_FALSE(load_rotation_centers(path, key, two));
}

TEST(CorCache, KeyFollowsTheDataTheCentresDependOn) {
  const Model base = strip_model();
  const CorCacheKey key = rotation_centers_key(base);
  EXPECT_EQ(rotation_centers_key(strip_model()), key);
  EXPECT_EQ(key.hex().size(), 32u);
  auto changed = [&](auto edit) {
    Model m = strip_model();
    edit(m);
    return !(rotation_centers_key(m) == key);
  };
  EXPECT_TRUE(changed([](Model& m) { m.meshes[0].primitives[0].positions[3].x += 1e-6f; }));
  EXPECT_TRUE(changed([](Model& m) { m.meshes[0].primitives[0].weights[5] += 1e-6f; }));
  EXPECT_TRUE(changed([](Model& m) { m.meshes[0].primitives[0].joints[1] = 2; }));
  EXPECT_TRUE(changed([](Model& m) { m.meshes[0].primitives[0].mode = PrimitiveMode::Triangles; }));
  EXPECT_TRUE(changed([](Model& m) { m.meshes[0].primitives[0].indices = {0, 1, 2}; }));
  EXPECT_TRUE(changed([](Model& m) { m.meshes.push_back({}); }));
  CorOptions eps;
  eps.epsilon = 0.05;
  EXPECT_FALSE(rotation_centers_key(base, eps) == key);
  // What the centres do not depend on: normals, morph targets, threads, the cache folder.
  EXPECT_FALSE(changed([](Model& m) { m.meshes[0].primitives[0].normals[0] = {1, 0, 0}; }));
  EXPECT_FALSE(changed([](Model& m) { m.meshes[0].primitives[0].targets.resize(2); }));
  CorOptions other;
  other.threads = 1;
  other.cache_dir = "/elsewhere";
  EXPECT_EQ(rotation_centers_key(base, other), key);
}

// Sets (or unsets, with nullopt) an environment variable for the scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value->c_str(), 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(CorCache, FolderFollowsXdgCacheHomeThenHome) {
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg-cache");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(default_rotation_centers_cache_dir(), "/tmp/xdg-cache/rigview");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", "relative/is/ignored");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(default_rotation_centers_cache_dir(), "/home/someone/.cache/rigview");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(default_rotation_centers_cache_dir(), "/home/someone/.cache/rigview");
    const CorCacheKey key{0x0123456789abcdefull, 0xfedcba9876543210ull};
    EXPECT_EQ(rotation_centers_cache_path("", key),
              "/home/someone/.cache/rigview/rotation_centers/"
              "0123456789abcdeffedcba9876543210.bin");
  }
  {
    ScopedEnv xdg("XDG_CACHE_HOME", std::nullopt);
    ScopedEnv home("HOME", std::nullopt);
    EXPECT_EQ(default_rotation_centers_cache_dir(), "");
    EXPECT_EQ(rotation_centers_cache_path("", CorCacheKey{}), "");
    // No cache: computed every time, nothing written.
    const Model model = strip_model();
    SkinMeshes meshes = prepare_skin_meshes(model);
    bool from_cache = true;
    ASSERT_TRUE(prepare_rotation_centers(model, meshes, {}, nullptr, nullptr, from_cache));
    EXPECT_FALSE(from_cache);
    ASSERT_TRUE(prepare_rotation_centers(model, meshes, {}, nullptr, nullptr, from_cache));
    EXPECT_FALSE(from_cache);
    EXPECT_EQ(meshes.primitives[0].rotation_centers.size(), 20u);
  }
  {
    // The default folder is where prepare_rotation_centers() writes.
    const fs::path dir = fresh_dir("xdg");
    ScopedEnv xdg("XDG_CACHE_HOME", dir.string());
    const Model model = strip_model();
    SkinMeshes meshes = prepare_skin_meshes(model);
    bool from_cache = true;
    ASSERT_TRUE(prepare_rotation_centers(model, meshes, {}, nullptr, nullptr, from_cache));
    EXPECT_FALSE(from_cache);
    EXPECT_TRUE(fs::is_regular_file(dir / "rigview" / "rotation_centers" /
                                    (rotation_centers_key(model).hex() + ".bin")));
    ASSERT_TRUE(prepare_rotation_centers(model, meshes, {}, nullptr, nullptr, from_cache));
    EXPECT_TRUE(from_cache);
  }
}

}  // namespace
}  // namespace rig
