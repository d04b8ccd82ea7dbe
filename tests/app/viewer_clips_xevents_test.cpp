// Clips from other files in the running viewer (tests/app/xevents_harness.h): --clips adds them
// at start-up, after the model's own, and --animation-index plays one; a file added later
// (Shift+drop, RIGVIEW_VIEWER_ADD_CLIPS) joins the clip list and starts playing; a file that
// cannot be used says so in the error line and leaves the clips as they were.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

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

TEST_F(ViewerXEventsClips, AddedFileJoinsTheListAndPlays) {
  ASSERT_EQ(new_session().start({kMannequin}, {"RIGVIEW_VIEWER_ADD_CLIPS=" + moves()}, kFrameMs),
            "");
  const ViewerProbe p = until_clips("12");
  EXPECT_EQ(p.text("clip"), "moves:Idle");
  EXPECT_EQ(p.text("edit_message"), "6 clips added from moves");
  EXPECT_EQ(p.text("error_message"), "");
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

}  // namespace
