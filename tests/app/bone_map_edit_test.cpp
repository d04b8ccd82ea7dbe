// The viewer's Bone map edits without a window (viewer/bone_map_edit.h): the generated A-pose
// humanoid's clip retargeted onto the mannequin, then one pair remapped by joint: the clip-set
// entry keeps its index, id and name and now drives the picked joint instead, the file's map and
// unmapped lists say so, and the source ghost is worked out for every frame of the grid. The
// clip history (viewer/clip_history.h) puts either side of a remap or an add back.
#include "viewer/bone_map_edit.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "anim/joint_mask.h"
#include "character/retarget.h"
#include "clip_files.h"
#include "viewer/clip_history.h"
#include "viewer/document.h"
#include "viewer/source_ghost.h"

namespace rigview {
namespace {

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kApose = std::string(RIGVIEW_SOURCE_DIR) + "/assets/humanoid_apose.glb";

bool drives(const rig::Clip& clip, int node) {
  return std::any_of(clip.channels.begin(), clip.channels.end(), [&](const rig::Channel& c) {
    return c.node == node && c.path == rig::TargetPath::Rotation;
  });
}

TEST(BoneMapEdit, RemapRetargetsTheFilesClipsInPlace) {
  Options options;
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(kMannequin, options, doc, error)) << error;
  ClipFile file;
  ASSERT_TRUE(load_clip_file(kApose, *doc.model, options, file, error)) << error;
  ASSERT_TRUE(file.retargeted);
  const size_t clips = doc.character->clips().size();
  const int first = doc.add_clip_file(std::move(file));
  ASSERT_EQ(first, int(clips));
  const rig::ClipEntry before = doc.character->clips()[size_t(first)];
  const int left_arm = rig::find_node(*doc.model, "LeftArm");
  const int right_arm = rig::find_node(*doc.model, "RightArm");
  ASSERT_TRUE(drives(*before.keys, left_arm));
  ASSERT_TRUE(drives(*before.keys, right_arm));

  // The source's left upper arm now drives the mannequin's right one.
  const rig::Model& source = *doc.clip_files[0].file.source;
  const int upper_arm = rig::find_node(source, "upper_arm.L");
  ASSERT_GE(upper_arm, 0);
  ASSERT_TRUE(remap_bone_pair(doc, 0, upper_arm, right_arm, error)) << error;
  const rig::ClipEntry& after = doc.character->clips()[size_t(first)];
  EXPECT_EQ(after.id, before.id);
  EXPECT_EQ(after.name, before.name);
  EXPECT_EQ(doc.character->clips().size(), clips + 1);
  EXPECT_TRUE(drives(*after.keys, right_arm));
  EXPECT_FALSE(drives(*after.keys, left_arm));  // no pair drives it any more
  const ClipFile& edited = doc.clip_files[0].file;
  EXPECT_NE(std::find(edited.unmapped_target.begin(), edited.unmapped_target.end(), "LeftArm"),
            edited.unmapped_target.end());
  EXPECT_NE(std::find(edited.unmapped_source.begin(), edited.unmapped_source.end(), "upper_arm.R"),
            edited.unmapped_source.end());

  // Unmapping a joint that drives nothing else leaves the rest; an unknown node is refused.
  EXPECT_FALSE(remap_bone_pair(doc, 0, int(source.nodes.size()), right_arm, error));
  EXPECT_FALSE(remap_bone_pair(doc, 3, upper_arm, right_arm, error));

  // The ghost: every frame of the retarget's grid, two points per source bone, and the arm
  // raise moves it.
  const Document::AddedClipFile& added = doc.clip_files[0];
  ASSERT_EQ(added.ghost.size(), 1u);
  const size_t frames = rig::retarget_frame_times(source.clips[0]).size();
  ASSERT_GT(added.ghost_bones, 10u);
  ASSERT_EQ(added.ghost[0].size(), frames * 2 * added.ghost_bones);
  size_t points = 0;
  const glm::vec3* start = source_ghost_frame(doc, first, source.clips[0].start, points);
  const glm::vec3* middle =
      source_ghost_frame(doc, first, 0.5f * (source.clips[0].start + source.clips[0].end), points);
  ASSERT_TRUE(start && middle);
  float moved = 0.0f;
  for (size_t i = 0; i < points; ++i) moved = std::max(moved, glm::length(middle[i] - start[i]));
  EXPECT_GT(moved, 0.05f);
  EXPECT_EQ(source_ghost_frame(doc, 0, 0.0f, points), nullptr);  // a file clip: no ghost
}

// Undo of a remap gives back the keys and the map it replaced (the same channels, bit for bit)
// at the same index; redo the remapped ones. Undo of the add withdraws the file's clips: the
// list loses them, the playing clip gives way to the file's last, and redo lists them again.
TEST(BoneMapEdit, ClipStepsPutEitherSideBack) {
  Options options;
  Document doc;
  std::string error;
  ASSERT_TRUE(load_document(kMannequin, options, doc, error)) << error;
  ClipFile file;
  ASSERT_TRUE(load_clip_file(kApose, *doc.model, options, file, error)) << error;
  const size_t clips = doc.character->clips().size();
  const int first = doc.add_clip_file(std::move(file));
  const ClipEditStep add = clip_add_step(0);
  const rig::Clip keys_before = *doc.character->clips()[size_t(first)].keys;
  const size_t pairs_before = doc.clip_files[0].file.map.pairs.size();
  const int right_arm = rig::find_node(*doc.model, "RightArm");
  const int left_arm = rig::find_node(*doc.model, "LeftArm");
  const int upper_arm = rig::find_node(*doc.clip_files[0].file.source, "upper_arm.L");

  ClipEditStep remap = clip_remap_before(doc, 0);
  ASSERT_TRUE(remap_bone_pair(doc, 0, upper_arm, right_arm, error)) << error;
  clip_remap_after(doc, remap);
  ASSERT_TRUE(drives(*doc.character->clips()[size_t(first)].keys, right_arm));
  ASSERT_FALSE(drives(*doc.character->clips()[size_t(first)].keys, left_arm));

  ASSERT_TRUE(apply_clip_step(remap, false, doc, error)) << error;
  const rig::Clip& undone = *doc.character->clips()[size_t(first)].keys;
  ASSERT_EQ(undone.channels.size(), keys_before.channels.size());
  for (size_t c = 0; c < undone.channels.size(); ++c) {
    EXPECT_EQ(undone.channels[c].node, keys_before.channels[c].node);
    EXPECT_EQ(undone.channels[c].values, keys_before.channels[c].values);
  }
  EXPECT_TRUE(drives(undone, left_arm));
  EXPECT_EQ(doc.clip_files[0].file.map.pairs.size(), pairs_before);
  ASSERT_TRUE(apply_clip_step(remap, true, doc, error)) << error;
  EXPECT_TRUE(drives(*doc.character->clips()[size_t(first)].keys, right_arm));
  EXPECT_FALSE(drives(*doc.character->clips()[size_t(first)].keys, left_arm));

  doc.playback.select_clip(first);
  ASSERT_TRUE(apply_clip_step(add, false, doc, error)) << error;
  EXPECT_EQ(doc.character->clips().size(), clips + 1);  // indices stay
  EXPECT_EQ(doc.character->clips().listed_count(), clips);
  EXPECT_TRUE(doc.clip_list_rows[size_t(first)].empty());
  EXPECT_EQ(doc.playback.clip(), int(clips) - 1);
  size_t points = 0;
  EXPECT_EQ(source_ghost_frame(doc, first, 0.0f, points), nullptr);  // no ghost while withdrawn
  ASSERT_TRUE(apply_clip_step(add, true, doc, error)) << error;
  EXPECT_EQ(doc.character->clips().listed_count(), clips + 1);
  EXPECT_FALSE(doc.clip_list_rows[size_t(first)].empty());
  EXPECT_FALSE(apply_clip_step(clip_add_step(4), false, doc, error));  // no such file
}

}  // namespace
}  // namespace rigview
