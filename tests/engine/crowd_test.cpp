// The crowd (engine/character/crowd.h): the grid and each instance's clock checked against
// hand-computed values, and every instance's palettes against a single Character evaluated on
// its own at that instance's pose, bit for bit, with one thread and with several.
#include "character/crowd.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <string>

#include "character/character.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

Model load(const std::string& path) {
  Model m;
  std::string error;
  EXPECT_TRUE(import_gltf(path, m, error)) << error;
  return m;
}

std::string mannequin_path() { return std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb"; }

TEST(Crowd, GridIsCentredRowsOfCeilSqrtColumns) {
  // 5 instances: 3 columns, 2 rows; cells 2 apart, centred: x in {-2, 0, 2}, z in {-1, 1}.
  EXPECT_EQ(Crowd::grid_columns(5), 3);
  EXPECT_EQ(Crowd::grid_columns(1), 1);
  EXPECT_EQ(Crowd::grid_columns(100), 10);
  EXPECT_EQ(Crowd::grid_columns(101), 11);
  const glm::vec3 expected[5] = {{-2, 0, -1}, {0, 0, -1}, {2, 0, -1}, {-2, 0, 1}, {0, 0, 1}};
  for (int k = 0; k < 5; ++k) {
    const glm::vec3 o = Crowd::grid_offset(k, 5, 2.0f);
    EXPECT_FLOAT_EQ(o.x, expected[k].x) << k;
    EXPECT_FLOAT_EQ(o.y, expected[k].y) << k;
    EXPECT_FLOAT_EQ(o.z, expected[k].z) << k;
  }
  EXPECT_EQ(Crowd::grid_offset(0, 1, 3.0f), glm::vec3(0.0f));
}

// Characters sharing one clip set (what a crowd's instances do) pose exactly as characters
// with a set of their own; no set given means the file's clips.
TEST(Crowd, SharedClipSetPosesAsOwnOnes) {
  const Model m = load(mannequin_path());
  ASSERT_GE(m.clips.size(), 2u);
  const auto shared = ClipSet::from_model(m);
  ASSERT_EQ(shared->size(), m.clips.size());
  Character own(m), a(m, nullptr, shared), b(m, nullptr, shared);
  EXPECT_EQ(&a.clips(), &b.clips());
  EXPECT_NE(&a.clips(), &own.clips());
  Character fallback(m, nullptr, nullptr);
  for (float t = 0.0f; t < 1.0f; t += 0.1f) {
    const PoseSelection sel{0, t, 1, 0.5f * t, 0.3f};
    own.evaluate(sel);
    for (Character* c : {&a, &b, &fallback}) {
      c->evaluate(sel);
      ASSERT_EQ(c->pose().local.size(), own.pose().local.size());
      EXPECT_EQ(std::memcmp(c->pose().local.data(), own.pose().local.data(),
                            own.pose().local.size() * sizeof(Transform)),
                0)
          << t;
    }
  }
}

// What a crowd's thread does: one Character posing several instances in turn, each with its own
// key cursors, poses each exactly as a Character of its own (local pose, world and skinning
// matrices, bit for bit); cursor spans too short for the clips fall back on the Character's own.
// The twelve instances play twelve different clip pairs, more than the Character keeps crossfade
// node sets for, so sets are replaced and rebuilt as the instances come round.
TEST(Crowd, OneCharacterPosingInstancesInTurnMatchesOwnCharacters) {
  const Model m = load(mannequin_path());
  ASSERT_EQ(m.clips.size(), 6u);  // the pairs below are twelve different ones
  const auto shared = ClipSet::from_model(m);
  Character turn(m, nullptr, shared);
  const size_t n = turn.cursor_count();
  ASSERT_GT(n, 0u);
  constexpr int kInstances = 12;
  std::vector<std::unique_ptr<Character>> own;
  std::vector<uint32_t> cursors(kInstances * 2 * n, 0u);
  for (int k = 0; k < kInstances; ++k)
    own.push_back(std::make_unique<Character>(m, nullptr, shared));
  for (int frame = 0; frame < 12; ++frame) {
    for (int k = 0; k < kInstances; ++k) {
      const float t = 0.07f * float(frame) + 0.31f * float(k);
      const int clip = k % int(m.clips.size()), blend = (k + 1 + k / 2) % int(m.clips.size());
      const PoseSelection sel{clip, t, blend, 1.3f * t, 0.25f * float(k)};
      own[size_t(k)]->evaluate(sel);
      uint32_t* mine = cursors.data() + size_t(k) * 2 * n;
      if (k == 3)  // too short: the Character's own cursors
        turn.evaluate(sel, {}, std::span<uint32_t>(mine, n - 1));
      else
        turn.evaluate(sel, std::span<uint32_t>(mine, n), std::span<uint32_t>(mine + n, n));
      const Character& a = turn;
      const Character& b = *own[size_t(k)];
      ASSERT_EQ(a.pose().local.size(), b.pose().local.size());
      EXPECT_EQ(std::memcmp(a.pose().local.data(), b.pose().local.data(),
                            b.pose().local.size() * sizeof(Transform)),
                0)
          << "frame " << frame << " instance " << k;
      EXPECT_EQ(std::memcmp(a.world().data(), b.world().data(), b.world().size_bytes()), 0)
          << "frame " << frame << " instance " << k;
      for (int s = 0; s < int(m.skins.size()); ++s)
        EXPECT_EQ(std::memcmp(a.skinning_matrices(s).data(), b.skinning_matrices(s).data(),
                              b.skinning_matrices(s).size_bytes()),
                  0)
            << "frame " << frame << " instance " << k << " skin " << s;
    }
  }
  // The instances' cursors were used: playing forward left them past the first key somewhere.
  bool moved = false;
  for (uint32_t c : cursors) moved = moved || c != 0;
  EXPECT_TRUE(moved);
}

TEST(Crowd, SelectionLoopsEachClipAtTheInstanceSpeedAndPhase) {
  Model m;
  m.clips.resize(2);
  m.clips[0].start = 0.0f;
  m.clips[0].end = 2.0f;
  m.clips[1].start = 1.0f;
  m.clips[1].end = 4.0f;
  CrowdInstance in;
  in.clip = 0;
  in.phase = 0.5f;
  in.speed = 1.2f;
  in.blend_clip = 1;
  in.blend_phase = 0.25f;
  in.fade_period = 2.0f;
  in.fade_phase = 0.25f;
  // At t = 3 s: 3.6 s played. Clip 0: 0.5 + 3.6 = 4.1 → 0.1 in [0, 2). Clip 1 (3 s long):
  // 0.25 + 3.6 = 3.85 → 0.85 after its start 1 → 1.85. Fade: 3.6 / 2 + 0.25 = 2.05 cycles →
  // 0.5 - 0.5 cos(0.1 π) = 0.0244717.
  const PoseSelection sel = Crowd::selection(m, in, 3.0);
  EXPECT_EQ(sel.clip, 0);
  EXPECT_NEAR(sel.time, 0.1f, 1e-5f);
  EXPECT_EQ(sel.blend_clip, 1);
  EXPECT_NEAR(sel.blend_time, 1.85f, 1e-5f);
  EXPECT_NEAR(sel.blend_weight, 0.0244717f, 1e-6f);
  // Half a fade period later (1/1.2 · 1 s of wall time): the weight is 1 - that.
  const PoseSelection half = Crowd::selection(m, in, 3.0 + 1.0 / 1.2);
  EXPECT_NEAR(half.blend_weight, 1.0f - 0.0244717f, 1e-5f);
  // No clips: the rest pose.
  CrowdInstance rest;
  EXPECT_EQ(Crowd::selection(Model{}, rest, 1.0).clip, -1);
}

TEST(Crowd, InstancesDifferAndBlendTwoClips) {
  const Model m = load(mannequin_path());
  ASSERT_GE(m.clips.size(), 2u);
  CrowdConfig config;
  config.count = 40;
  config.seed = 7;
  Crowd crowd(m, nullptr, config);
  std::set<float> phases;
  for (int k = 0; k < crowd.count(); ++k) {
    const CrowdInstance& in = crowd.instance(k);
    ASSERT_GE(in.clip, 0);
    ASSERT_LT(in.clip, int(m.clips.size()));
    EXPECT_GE(in.blend_clip, 0);
    EXPECT_NE(in.blend_clip, in.clip);
    EXPECT_GE(in.speed, 0.75f);
    EXPECT_LE(in.speed, 1.25f);
    phases.insert(in.phase);
  }
  EXPECT_GT(phases.size(), 30u);  // its own phase each (a repeat is possible, not common)
  // The same seed gives the same crowd.
  Crowd again(m, nullptr, config);
  for (int k = 0; k < crowd.count(); ++k) {
    EXPECT_EQ(again.instance(k).clip, crowd.instance(k).clip);
    EXPECT_EQ(again.instance(k).phase, crowd.instance(k).phase);
  }
}

// Every instance's palettes of `methods` in the crowd buffer equal, bit for bit, those of a
// Character of its own evaluated at Crowd::selection(instance, time).
void expect_palettes_match_single_characters(const Model& m, const Crowd& crowd) {
  Character single(m, crowd.shared_skin_layer());
  for (int k = 0; k < crowd.count(); ++k) {
    single.evaluate(Crowd::selection(m, crowd.instance(k), crowd.time()));
    for (SkinningMethod method : crowd.methods()) {
      const std::span<const glm::vec4> all = crowd.palettes(method);
      ASSERT_EQ(all.size(), size_t(crowd.count()) * crowd.instance_rows(method));
      for (size_t s = 0; s < m.skins.size(); ++s) {
        const std::span<const glm::vec4> expected = single.palette(int(s), method);
        const size_t first =
            size_t(k) * crowd.instance_rows(method) + crowd.skin_first_row(int(s), method);
        ASSERT_LE(first + expected.size(), all.size());
        EXPECT_EQ(std::memcmp(all.data() + first, expected.data(), expected.size_bytes()), 0)
            << "instance " << k << " skin " << s << " " << method_info(method).label;
      }
    }
    // Rigid items' node matrices: the single character's world matrices, column by column.
    const std::span<const glm::vec4> rigid = crowd.rigid_matrices();
    ASSERT_EQ(rigid.size(), size_t(crowd.count()) * crowd.rigid_rows_per_instance());
    for (size_t i = 0; i < crowd.rigid_nodes().size(); ++i) {
      const glm::mat4& w = single.world()[size_t(crowd.rigid_nodes()[i])];
      for (int col = 0; col < 4; ++col)
        EXPECT_EQ(
            std::memcmp(&rigid[size_t(k) * crowd.rigid_rows_per_instance() + i * 4 + size_t(col)],
                        &w[col], sizeof(glm::vec4)),
            0)
            << "instance " << k << " rigid node " << crowd.rigid_nodes()[i];
    }
  }
}

TEST(Crowd, PalettesEqualASingleCharacterAtTheInstancePose) {
  const Model m = load(mannequin_path());
  CrowdConfig config;
  config.count = 23;  // not a multiple of the work chunk
  config.threads = 3;
  Crowd crowd(m, nullptr, config);
  const SkinningMethod methods[] = {SkinningMethod::Linear, SkinningMethod::DualQuaternion};
  crowd.set_methods(methods);
  for (float dt : {0.0f, 0.4f, 1.7f}) {
    crowd.update(dt);
    expect_palettes_match_single_characters(m, crowd);
  }
}

// The mix's per-joint DQS amounts reach every instance: its Mix palettes equal a single
// Character's with the same amounts, and differ from the crowd's without them.
TEST(Crowd, MixAmountsReachEveryInstance) {
  const Model m = load(mannequin_path());
  CrowdConfig config;
  config.count = 7;
  config.threads = 2;
  Crowd crowd(m, nullptr, config);
  const SkinningMethod methods[] = {SkinningMethod::Mix};
  crowd.set_methods(methods);
  crowd.update(0.5f);
  const std::vector<glm::vec4> without(crowd.palettes(SkinningMethod::Mix).begin(),
                                       crowd.palettes(SkinningMethod::Mix).end());
  std::vector<float> amounts(m.nodes.size(), 0.0f);
  for (size_t n = 0; n < amounts.size(); n += 2) amounts[n] = n % 4 == 0 ? 1.0f : 0.5f;
  crowd.set_dqs_amounts(amounts);
  crowd.update(0.0f);
  Character single(m, crowd.shared_skin_layer());
  single.set_dqs_amounts(amounts);
  const std::span<const glm::vec4> all = crowd.palettes(SkinningMethod::Mix);
  ASSERT_EQ(all.size(), without.size());
  EXPECT_NE(std::memcmp(all.data(), without.data(), all.size_bytes()), 0);
  for (int k = 0; k < crowd.count(); ++k) {
    single.evaluate(Crowd::selection(m, crowd.instance(k), crowd.time()));
    for (size_t s = 0; s < m.skins.size(); ++s) {
      const std::span<const glm::vec4> expected = single.palette(int(s), SkinningMethod::Mix);
      const size_t first = size_t(k) * crowd.instance_rows(SkinningMethod::Mix) +
                           crowd.skin_first_row(int(s), SkinningMethod::Mix);
      EXPECT_EQ(std::memcmp(all.data() + first, expected.data(), expected.size_bytes()), 0)
          << "instance " << k;
    }
  }
}

TEST(Crowd, OneThreadAndManyThreadsGiveIdenticalPalettes) {
  const Model m = load(mannequin_path());
  CrowdConfig config;
  config.count = 50;
  config.threads = 1;
  Crowd one(m, nullptr, config);
  config.threads = 4;
  Crowd many(m, nullptr, config);
  EXPECT_EQ(one.thread_count(), 1);
  EXPECT_EQ(many.thread_count(), 4);
  for (int frame = 0; frame < 5; ++frame) {
    one.update(0.3f);
    many.update(0.3f);
    const auto a = one.palettes(SkinningMethod::Linear);
    const auto b = many.palettes(SkinningMethod::Linear);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_EQ(std::memcmp(a.data(), b.data(), a.size_bytes()), 0) << "frame " << frame;
  }
}

TEST(Crowd, CorpusFoxPalettesEqualASingleCharacter) {
  RIG_REQUIRE_CORPUS(corpus);
  const Model m = load((corpus / "Fox/Fox.glb").string());
  CrowdConfig config;
  config.count = 17;
  Crowd crowd(m, nullptr, config);
  crowd.update(2.5f);
  expect_palettes_match_single_characters(m, crowd);
}

}  // namespace
}  // namespace rig
