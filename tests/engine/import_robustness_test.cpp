// Robustness: corrupted copies of real files must import or be refused with one line — never
// crash, hang or read out of bounds (run under the asan preset to make the last one visible).
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <random>

#include "character/character.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

std::vector<char> slurp(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

// Whatever imports must also evaluate and skin without tripping over its own data.
void exercise(const Model& m) {
  Character anim(m);
  for (int c = -1; c < static_cast<int>(std::min<size_t>(m.clips.size(), 3)); ++c) {
    PoseSelection sel;
    sel.clip = c;
    sel.time = c >= 0 ? 0.5f * (m.clips[c].start + m.clips[c].end) : 0.0f;
    anim.evaluate(sel);
    std::vector<glm::vec3> p, n;
    for (const DrawItem& d : m.draws) {
      const Primitive& prim = m.meshes[d.mesh].primitives[d.primitive];
      p.resize(prim.vertex_count());
      n.resize(prim.vertex_count());
      anim.skin_draw_item(d, SkinningMethod::DualQuaternion, p, n);
      anim.skin_draw_item(d, SkinningMethod::Linear, p, n);
    }
  }
}

void corrupt_and_load(const std::filesystem::path& src, const std::string& ext, int rounds,
                      bool text) {
  const std::vector<char> original = slurp(src);
  ASSERT_FALSE(original.empty());
  std::mt19937 rng(1234);
  const auto dir =
      std::filesystem::temp_directory_path() / ("rigview_fuzz_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // Keep external .bin files resolvable for .gltf inputs.
  for (const auto& e : std::filesystem::directory_iterator(src.parent_path()))
    if (e.path().extension() == ".bin")
      std::filesystem::copy_file(e.path(), dir / e.path().filename(),
                                 std::filesystem::copy_options::overwrite_existing);
  int imported = 0, refused = 0;
  for (int round = 0; round < rounds; ++round) {
    std::vector<char> bytes = original;
    const int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % bytes.size();
      if (text) {
        // Digits are where JSON corruption hurts: indices, offsets, counts.
        static const char digits[] = "0123456789-9e";
        if (bytes[at] >= '0' && bytes[at] <= '9')
          bytes[at] = digits[rng() % 13];
        else
          bytes[at] = static_cast<char>(rng() % 2 ? bytes[at] : "0123456789"[rng() % 10]);
      } else {
        bytes[at] = static_cast<char>(rng());
      }
    }
    if (rng() % 10 == 0) bytes.resize(rng() % bytes.size());  // truncation
    const auto path = dir / ("case" + ext);
    std::ofstream(path, std::ios::binary)
        .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    Model m;
    std::string error;
    if (import_gltf(path.string(), m, error)) {
      ++imported;
      exercise(m);
    } else {
      ++refused;
      EXPECT_FALSE(error.empty());
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
  }
  std::filesystem::remove_all(dir);
  EXPECT_GT(refused, 0) << "corruption never detected: the test is not exercising anything";
  ::testing::Test::RecordProperty("imported", imported);
}

TEST(ImportRobustness, CorruptedCorpusGlbNeverCrashes) {
  RIG_REQUIRE_CORPUS(corpus);
  corrupt_and_load(corpus / "RiggedSimple/RiggedSimple.glb", ".glb", 300, false);
  corrupt_and_load(corpus / "Fox/Fox.glb", ".glb", 100, false);
}

TEST(ImportRobustness, CorruptedCorpusGltfJsonNeverCrashes) {
  RIG_REQUIRE_CORPUS(corpus);
  corrupt_and_load(corpus / "SimpleSkin/SimpleSkin.gltf", ".gltf", 300, true);
  corrupt_and_load(corpus / "AnimatedMorphCube/AnimatedMorphCube.gltf", ".gltf", 200, true);
  corrupt_and_load(corpus / "InterpolationTest/InterpolationTest.glb", ".glb", 100, false);
}

}  // namespace
}  // namespace rig
