// The crowd's animated materials (Crowd::material_rows, character/crowd_materials.h): after an
// update, every instance's packed rows hold the values its own clips give at its own clip times
// (Crowd::selection), worked out here by hand from the keys of crowd_material_model.h and the
// crossfade a + (b − a)·w, and laid out row by row as the header documents.
#include <gtest/gtest.h>

#include <string>

#include "character/crowd.h"
#include "crowd_material_model.h"
#include "import/gltf_import.h"

namespace rig {
namespace {

// The animated material's values under one clip at time t (the model header's keys).
struct HandValues {
  glm::vec4 base;
  float metallic, roughness;
  glm::vec3 emissive;
  float strength, rotation;
  glm::vec2 offset;
};

HandValues clip_values(int clip, float t) {
  if (clip == 0)  // A
    return {{1 - t, 0, t, 1}, 0.5f, 0.2f + 0.4f * t, {t, t, 0}, 2.0f, t, {t, 2 * t}};
  // B: the file's values but base colour and metallic.
  return {{t / 2, 1, t / 2, 1}, 1 - t / 2, 0.9f, {0, 0, 0}, 1.0f, 0.0f, {0, 0}};
}

void expect_row(const glm::vec4& got, const glm::vec4& want, int k, int row) {
  for (int c = 0; c < 4; ++c)
    EXPECT_NEAR(got[c], want[c], 1e-5f) << "instance " << k << " row " << row << " comp " << c;
}

void expect_instances_hold_their_own_values(int threads) {
  const Model m = test::crowd_material_model();
  CrowdConfig config;
  config.count = 7;
  config.seed = 5;
  config.spacing = 1.0f;
  config.threads = threads;
  Crowd crowd(m, nullptr, config);
  ASSERT_EQ(crowd.animated_materials().size(), 1u);
  EXPECT_EQ(crowd.animated_materials()[0], 0);
  EXPECT_EQ(crowd.material_slot(0), 0);
  EXPECT_EQ(crowd.material_slot(1), -1);  // no clip animates it
  ASSERT_EQ(crowd.material_rows_per_instance(), 13u);
  ASSERT_EQ(crowd.material_rows().size(), 7u * 13u);
  bool some_blend = false, both_clips[2] = {false, false};
  for (float dt : {0.37f, 1.21f}) {
    crowd.update(dt);
    for (int k = 0; k < crowd.count(); ++k) {
      const PoseSelection sel = Crowd::selection(m, crowd.instance(k), crowd.time());
      ASSERT_GE(sel.clip, 0);
      ASSERT_GE(sel.blend_clip, 0);  // two clips: every instance crossfades into the other one
      both_clips[sel.clip] = true;
      some_blend = some_blend || (sel.blend_weight > 0.1f && sel.blend_weight < 0.9f);
      const HandValues a = clip_values(sel.clip, sel.time);
      const HandValues b = clip_values(sel.blend_clip, sel.blend_time);
      const float w = sel.blend_weight;
      auto mix = [w](auto x, auto y) { return x + (y - x) * w; };
      const glm::vec3 emissive = mix(a.emissive, b.emissive) * mix(a.strength, b.strength);
      const glm::vec4 want[13] = {
          mix(a.base, b.base),
          glm::vec4(emissive, mix(a.metallic, b.metallic)),
          glm::vec4(1, 1, 1, mix(a.roughness, b.roughness)),  // specular colour: the file's
          glm::vec4(0.5f, 1.0f, 1.0f, 1.5f),  // cutoff, normal scale, occlusion, ior: defaults
          glm::vec4(1, 0, 0, 0),              // specular 1; slots 0..2 not rotated
          glm::vec4(mix(a.rotation, b.rotation), 0, 0, 0),  // slot 3 (emissive) rotated
          glm::vec4(0, 0, 1, 1),
          glm::vec4(0, 0, 1, 1),
          glm::vec4(0, 0, 1, 1),
          glm::vec4(0, 0, 1, 1),
          glm::vec4(mix(a.offset, b.offset), 1, 1),  // slot 4 (normal) offset
          glm::vec4(0, 0, 1, 1),
          glm::vec4(0, 0, 1, 1)};
      for (int row = 0; row < 13; ++row)
        expect_row(crowd.material_rows()[size_t(k) * 13 + size_t(row)], want[row], k, row);
    }
  }
  // The check covered both clips as base and a real mix.
  EXPECT_TRUE(both_clips[0] && both_clips[1]);
  EXPECT_TRUE(some_blend);
}

TEST(CrowdMaterials, EachInstanceRowsAreItsOwnHandMixedValues) {
  expect_instances_hold_their_own_values(1);
}

TEST(CrowdMaterials, SeveralThreadsWriteTheSameRows) { expect_instances_hold_their_own_values(3); }

TEST(CrowdMaterials, NothingWhenNoClipAnimatesAMaterial) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
      << error;
  CrowdConfig config;
  config.count = 4;
  Crowd crowd(m, nullptr, config);
  crowd.update(0.5f);
  EXPECT_TRUE(crowd.animated_materials().empty());
  EXPECT_TRUE(crowd.material_rows().empty());
  EXPECT_EQ(crowd.material_rows_per_instance(), 0u);
  const Model still = test::crowd_material_model(/*animated=*/false);
  Crowd still_crowd(still, nullptr, config);
  EXPECT_TRUE(still_crowd.material_rows().empty());
  EXPECT_EQ(still_crowd.material_slot(0), -1);
}

}  // namespace
}  // namespace rig
