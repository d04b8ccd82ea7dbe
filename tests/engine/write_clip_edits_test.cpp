// The document writer's clip edits (write/document_edit.h: ReplaceClip, AddClip, RemoveClip), on
// the bundled mannequin (6 clips), read back with tinygltf and the importer against hand-made
// keys; and what every edit must leave alone.
#include <gtest/gtest.h>

#include <cmath>

#include "import/gltf_import.h"
#include "write/gltf_document.h"
#include "write_test_support.h"

namespace rig {
namespace {

using test::accessor_bytes;
using test::accessor_floats;
using test::read_document;
using test::scratch_file;

const std::string kMannequin = RIGVIEW_SOURCE_DIR "/assets/mannequin.glb";

// Node 1 (Spine) turning 90° about z over a second, and moving 1 m up over half of it.
write::ClipData spine_clip(const std::string& name) {
  const float s = std::sqrt(0.5f);
  write::ClipData clip;
  clip.name = name;
  const std::vector<float> times{0.0f, 1.0f}, half{0.0f, 0.5f};
  const std::vector<float> rotations{0, 0, 0, 1, 0, 0, s, s};
  const std::vector<float> translations{0, 0, 0, 0, 1, 0};
  clip.samplers.push_back(
      {write::key_times(times), write::float_accessor(rotations, write::kVec4, false), "LINEAR"});
  clip.samplers.push_back(
      {write::key_times(half), write::float_accessor(translations, write::kVec3, false), "STEP"});
  clip.channels.push_back({0, 1, "rotation"});
  clip.channels.push_back({1, 1, "translation"});
  return clip;
}

// What no clip edit may change: nodes, meshes, skins and their accessors' contents.
void expect_rest_unchanged(const tinygltf::Model& before, const tinygltf::Model& after) {
  ASSERT_EQ(after.nodes.size(), before.nodes.size());
  for (size_t n = 0; n < before.nodes.size(); ++n) {
    EXPECT_EQ(after.nodes[n].name, before.nodes[n].name);
    EXPECT_EQ(after.nodes[n].children, before.nodes[n].children);
  }
  ASSERT_EQ(after.meshes.size(), before.meshes.size());
  for (size_t m = 0; m < before.meshes.size(); ++m)
    for (size_t p = 0; p < before.meshes[m].primitives.size(); ++p) {
      const tinygltf::Primitive& a = after.meshes[m].primitives[p];
      const tinygltf::Primitive& b = before.meshes[m].primitives[p];
      EXPECT_EQ(a.attributes, b.attributes);
      EXPECT_EQ(a.indices, b.indices);
      for (const auto& [name, index] : b.attributes)
        EXPECT_EQ(accessor_bytes(after, index), accessor_bytes(before, index)) << name;
      EXPECT_EQ(accessor_bytes(after, a.indices), accessor_bytes(before, b.indices));
    }
  ASSERT_EQ(after.skins.size(), before.skins.size());
  for (size_t s = 0; s < before.skins.size(); ++s) {
    EXPECT_EQ(after.skins[s].joints, before.skins[s].joints);
    EXPECT_EQ(accessor_bytes(after, after.skins[s].inverseBindMatrices),
              accessor_bytes(before, before.skins[s].inverseBindMatrices));
  }
}

void expect_spine_clip(const tinygltf::Model& doc, const tinygltf::Animation& anim) {
  const float s = std::sqrt(0.5f);
  ASSERT_EQ(anim.channels.size(), 2u);
  ASSERT_EQ(anim.samplers.size(), 2u);
  EXPECT_EQ(anim.channels[0].target_node, 1);
  EXPECT_EQ(anim.channels[0].target_path, "rotation");
  EXPECT_EQ(anim.channels[1].target_path, "translation");
  EXPECT_EQ(anim.samplers[1].interpolation, "STEP");
  EXPECT_EQ(accessor_floats(doc, anim.samplers[0].input), (std::vector<float>{0, 1}));
  EXPECT_EQ(accessor_floats(doc, anim.samplers[0].output),
            (std::vector<float>{0, 0, 0, 1, 0, 0, s, s}));
  EXPECT_EQ(accessor_floats(doc, anim.samplers[1].input), (std::vector<float>{0, 0.5f}));
  EXPECT_EQ(accessor_floats(doc, anim.samplers[1].output), (std::vector<float>{0, 0, 0, 0, 1, 0}));
  const tinygltf::Accessor& input = doc.accessors[size_t(anim.samplers[1].input)];
  EXPECT_EQ(input.minValues, std::vector<double>{0.0});
  EXPECT_EQ(input.maxValues, std::vector<double>{0.5});
}

TEST(WriteClipEdits, ReplaceKeepsTheNameAndEverythingElse) {
  const std::string out = scratch_file("replace.glb");
  std::string error;
  const std::vector<write::DocumentEdit> edits{write::ReplaceClip{2, spine_clip("ignored")}};
  ASSERT_TRUE(write::write_document(kMannequin, edits, out, error)) << error;
  const tinygltf::Model before = read_document(kMannequin), after = read_document(out);
  ASSERT_EQ(after.animations.size(), 6u);
  EXPECT_EQ(after.animations[2].name, "Run");
  expect_spine_clip(after, after.animations[2]);
  // The other clips' accessors are the same ones, with the same keys.
  for (size_t a : {0u, 1u, 3u, 4u, 5u}) {
    ASSERT_EQ(after.animations[a].samplers.size(), before.animations[a].samplers.size());
    for (size_t s = 0; s < before.animations[a].samplers.size(); ++s) {
      EXPECT_EQ(after.animations[a].samplers[s].input, before.animations[a].samplers[s].input);
      EXPECT_EQ(accessor_bytes(after, after.animations[a].samplers[s].output),
                accessor_bytes(before, before.animations[a].samplers[s].output));
    }
  }
  // Run's old accessors keep their index without data.
  for (const tinygltf::AnimationSampler& s : before.animations[2].samplers) {
    EXPECT_EQ(after.accessors[size_t(s.input)].bufferView, -1);
    EXPECT_EQ(after.accessors[size_t(s.output)].bufferView, -1);
  }
  expect_rest_unchanged(before, after);
  Model model;
  ASSERT_TRUE(import_gltf(out, model, error)) << error;
  EXPECT_EQ(model.clips[2].name, "Run");
  EXPECT_FLOAT_EQ(model.clips[2].end, 1.0f);
}

TEST(WriteClipEdits, AddAppendsAClipAfterTheFilesOwn) {
  const std::string out = scratch_file("add.gltf");  // the .gltf form: one self-contained file
  std::string error;
  const std::vector<write::DocumentEdit> edits{write::AddClip{spine_clip("Nod")}};
  ASSERT_TRUE(write::write_document(kMannequin, edits, out, error)) << error;
  const std::string text = test::slurp(out);
  EXPECT_EQ(text.rfind("{", 0), 0u) << "not JSON";
  EXPECT_NE(text.find("data:application/octet-stream;base64,"), std::string::npos);
  const tinygltf::Model before = read_document(kMannequin), after = read_document(out);
  ASSERT_EQ(after.animations.size(), 7u);
  EXPECT_EQ(after.animations[6].name, "Nod");
  expect_spine_clip(after, after.animations[6]);
  expect_rest_unchanged(before, after);
  Model model;
  ASSERT_TRUE(import_gltf(out, model, error)) << error;
  ASSERT_EQ(model.clips.size(), 7u);
  EXPECT_EQ(model.clips[6].name, "Nod");
  EXPECT_EQ(model.clips[6].channels[0].values.back(), std::sqrt(0.5f));
}

TEST(WriteClipEdits, RemoveDropsOnlyThatClip) {
  const std::string out = scratch_file("remove.glb");
  std::string error;
  const std::vector<write::DocumentEdit> edits{write::RemoveClip{1}, write::RemoveClip{4}};
  ASSERT_TRUE(write::write_document(kMannequin, edits, out, error)) << error;
  const tinygltf::Model before = read_document(kMannequin), after = read_document(out);
  ASSERT_EQ(after.animations.size(), 4u);
  const std::vector<size_t> kept{0, 2, 3, 5};
  for (size_t k = 0; k < kept.size(); ++k) {
    const tinygltf::Animation& a = after.animations[k];
    const tinygltf::Animation& b = before.animations[kept[k]];
    EXPECT_EQ(a.name, b.name);
    ASSERT_EQ(a.samplers.size(), b.samplers.size());
    for (size_t s = 0; s < b.samplers.size(); ++s) {
      EXPECT_EQ(a.samplers[s].input, b.samplers[s].input);  // no index fixed
      EXPECT_EQ(a.samplers[s].output, b.samplers[s].output);
      EXPECT_EQ(accessor_bytes(after, a.samplers[s].output),
                accessor_bytes(before, b.samplers[s].output));
    }
  }
  EXPECT_EQ(after.accessors.size(), before.accessors.size());
  for (size_t r : {1u, 4u})
    for (const tinygltf::AnimationSampler& s : before.animations[r].samplers)
      EXPECT_EQ(after.accessors[size_t(s.output)].bufferView, -1);
  expect_rest_unchanged(before, after);
  // The removed clips' bytes are gone from the buffer.
  EXPECT_LT(after.buffers[0].data.size(), before.buffers[0].data.size());
}

TEST(WriteClipEdits, RefusesBadEditsAndWritesNothing) {
  const std::string out = scratch_file("bad_clip.glb");
  std::string error;
  write::ClipData bad = spine_clip("x");
  bad.channels[1].node = 99;
  for (const std::vector<write::DocumentEdit>& edits :
       {std::vector<write::DocumentEdit>{write::RemoveClip{6}},
        std::vector<write::DocumentEdit>{write::RemoveClip{1},
                                         write::ReplaceClip{1, spine_clip("")}},
        std::vector<write::DocumentEdit>{write::AddClip{bad}},
        std::vector<write::DocumentEdit>{write::AddClip{write::ClipData{}}}}) {
    error.clear();
    EXPECT_FALSE(write::write_document(kMannequin, edits, out, error));
    EXPECT_NE(error.find("edit "), std::string::npos) << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

}  // namespace
}  // namespace rig
