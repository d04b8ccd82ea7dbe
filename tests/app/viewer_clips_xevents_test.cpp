// Clips from other files in the running viewer (tests/app/xevents_harness.h): --clips adds them
// at start-up, after the model's own, and --animation-index plays one; a file added later
// (RIGVIEW_VIEWER_ADD_CLIPS; a real Shift+drop in viewer_drop_xevents_test.cpp) joins the clip
// list and starts playing; a file that cannot be used says so in the error line and leaves the
// clips as they were. Adding a file's
// clips is one undoable edit: Ctrl+Z takes them out of the list (and out of what Save writes),
// Ctrl+Y puts them back, and the document counts as modified in between.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "import/gltf_import.h"
#include "test_support.h"
#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;
namespace fs = std::filesystem;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
constexpr int kFrameMs = 150;

class ViewerXEventsClips : public rig::test::XViewerTest {
 protected:
  // The mannequin's clips under another file name: the same skeleton, so they play by name.
  std::string moves() {
    const std::string path = (dir_ / "moves.glb").string();
    fs::copy_file(kMannequin, path, fs::copy_options::overwrite_existing);
    return path;
  }
  ViewerProbe until_clips(const std::string& count) {
    ViewerProbe p = after_frames(1);
    for (int i = 0; i < 30 && p.text("clips") != count; ++i) p = after_frames(1);
    EXPECT_EQ(p.text("clips"), count) << session_->viewer_log();
    return p;
  }
};

TEST_F(ViewerXEventsClips, ClipsFlagAddsThemAfterTheModelsOwn) {
  ASSERT_EQ(
      new_session().start({kMannequin, "--clips", moves(), "--animation-index", "7"}, {}, kFrameMs),
      "");
  const ViewerProbe p = until_clips("12");
  EXPECT_EQ(p.text("clip"), "moves:Walk");  // the mannequin's clip 1 (Walk) is index 6 + 1
}

// Ctrl+S writes the added clips into the opened file as new animations after its own; a second
// save does not write them twice.
TEST_F(ViewerXEventsClips, SavingWritesTheAddedClipsOnce) {
  const std::string model = (dir_ / "character.glb").string();
  fs::copy_file(kMannequin, model);
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(new_session().start({model}, {cache, "RIGVIEW_VIEWER_ADD_CLIPS=" + moves()}, kFrameMs),
            "");
  until_clips("12");
  for (int save = 0; save < 2; ++save) {
    at_frame_start();
    session_->key(XK_Control_L, true);
    session_->tap(XK_s);
    session_->key(XK_Control_L, false);
    ViewerProbe p = after_frames(2);
    for (int i = 0; i < 30 && p.text("edit_message") != "saved " + model; ++i) p = after_frames(1);
    ASSERT_EQ(p.text("edit_message"), "saved " + model) << session_->viewer_log();
  }
  rig::Model saved;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(model, saved, error)) << error;
  ASSERT_EQ(saved.clips.size(), 12u);
  EXPECT_EQ(saved.clips[6].name, "moves:Idle");
  EXPECT_EQ(saved.clips[11].name, "moves:Bend");
}

// A file with another skeleton is retargeted: its clip plays on the mannequin, and the source
// skeleton plays beside it (the cyan ghost, drawn in the view's pixels).
TEST_F(ViewerXEventsClips, ARetargetedClipPlaysWithItsSourceGhostBeside) {
  const std::string apose = std::string(RIGVIEW_SOURCE_DIR) + "/assets/humanoid_apose.glb";
  ASSERT_EQ(
      new_session().start({kMannequin, "--clips", apose, "--animation-index", "6"}, {}, kFrameMs),
      "");
  const ViewerProbe p = until_clips("7");
  EXPECT_EQ(p.text("clip"), "humanoid_apose:ArmRaise");
  EXPECT_EQ(p.text("source_ghost_points"), "40");  // 20 bones of its 21 joints, two points each
  int w = 0, h = 0;
  const std::vector<unsigned char> rgb = session_->pixels(w, h);
  ASSERT_FALSE(rgb.empty());
  int cyan = 0;
  for (size_t i = 0; i + 2 < rgb.size(); i += 3)
    cyan += rgb[i] < 130 && rgb[i + 1] > 170 && rgb[i + 2] > 220;
  EXPECT_GT(cyan, 100) << "no ghost drawn";
}

TEST_F(ViewerXEventsClips, AFileThatCannotBeUsedLeavesTheClips) {
  ASSERT_EQ(new_session().start({kMannequin}, {"RIGVIEW_VIEWER_ADD_CLIPS=" + kTwistArm}, kFrameMs),
            "");
  ViewerProbe p = after_frames(3);
  for (int i = 0; i < 30 && p.text("error_message").empty(); ++i) p = after_frames(1);
  EXPECT_EQ(p.text("error_message").rfind(kTwistArm + ": ", 0), 0u) << p.text("error_message");
  EXPECT_EQ(p.text("clips"), "6");
  EXPECT_EQ(p.text("document"), kMannequin);
}

// Ctrl+Z after the add: the list is the model's 6 clips again, the playing clip gives way to
// the model's last, the add waits in the redo list and the document is no longer modified.
// Ctrl+Y lists them again (modified). A save after a second undo writes none of them.
TEST_F(ViewerXEventsClips, AddingClipsIsOneUndoableEdit) {
  const std::string model = (dir_ / "character.glb").string();
  fs::copy_file(kMannequin, model);
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(new_session().start({model}, {cache, "RIGVIEW_VIEWER_ADD_CLIPS=" + moves()}, kFrameMs),
            "");
  ViewerProbe p = until_clips("12");
  EXPECT_EQ(p.text("clip"), "moves:Idle");
  EXPECT_EQ(p.text("edits"),
            "modified 1 undo 1 redo 0 recover_prompt 0 pending_open 0 "
            "pending_quit 0");
  const auto chord = [&](KeySym key) {
    at_frame_start();
    session_->key(XK_Control_L, true);
    session_->tap(key);
    session_->key(XK_Control_L, false);
  };
  chord(XK_z);
  p = until_clips("6");
  EXPECT_EQ(p.text("clip"), "Bend");  // the mannequin's last clip, the nearest listed one
  EXPECT_EQ(p.text("edits"),
            "modified 0 undo 0 redo 1 recover_prompt 0 pending_open 0 "
            "pending_quit 0");
  chord(XK_y);
  p = until_clips("12");
  EXPECT_EQ(p.text("edits"),
            "modified 1 undo 1 redo 0 recover_prompt 0 pending_open 0 "
            "pending_quit 0");
  chord(XK_z);
  until_clips("6");
  chord(XK_s);
  p = after_frames(2);
  for (int i = 0; i < 30 && p.text("edit_message") != "saved " + model; ++i) p = after_frames(1);
  ASSERT_EQ(p.text("edit_message"), "saved " + model) << session_->viewer_log();
  rig::Model saved;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(model, saved, error)) << error;
  EXPECT_EQ(saved.clips.size(), 6u);
}

}  // namespace
