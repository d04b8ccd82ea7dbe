// The viewer's skin edits driven by real X events (tests/app/xevents_harness.h): Ctrl+Z and
// Ctrl+Shift+Z walk the history, the title-bar mark and the journal follow the saved state,
// Ctrl+Q with unsaved edits asks instead of quitting, and after a SIGKILL the next start offers
// the journaled edits, which a click on Recover brings back. RIGVIEW_VIEWER_WEIGHTS_OPS makes
// the two edits (as the Weights tab's buttons would); everything after is keys and clicks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;
namespace fs = std::filesystem;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
constexpr int kFrameMs = 150;

class ViewerXEventsEdits : public rig::test::XViewerTest {
 protected:
  // The journal files under the private cache folder.
  size_t journals() const {
    const fs::path dir = dir_ / "cache" / "rigview" / "journal";
    if (!fs::exists(dir)) return 0;
    size_t n = 0;
    for (const auto& e : fs::directory_iterator(dir)) n += e.path().extension() == ".journal";
    return n;
  }
  // Frames (30 at most) until the "edits" line reads `value`.
  ViewerProbe until_edits(const std::string& value) {
    ViewerProbe p = after_frames(1);
    for (int i = 0; i < 30 && p.text("edits") != value; ++i) p = after_frames(1);
    EXPECT_EQ(p.text("edits"), value) << session_->viewer_log();
    return p;
  }
  void ctrl_tap(KeySym key, bool shift = false) {
    at_frame_start();
    session_->key(XK_Control_L, true);
    if (shift) session_->key(XK_Shift_L, true);
    session_->tap(key);
    if (shift) session_->key(XK_Shift_L, false);
    session_->key(XK_Control_L, false);
  }
  // A click on question button `k` (0: Recover or Save, 1: Discard, 2: Cancel) where the probe
  // says it was drawn, a frame after the question appeared (a window sized to its content is
  // laid out on its first frame and shown from the next, as a person would see it).
  void click_question(int k) {
    const ViewerProbe p = after_frames(2);
    const std::vector<double> b = p.numbers("question_buttons");
    ASSERT_EQ(b.size(), 12u) << p.text("question_buttons");
    ASSERT_GT(b[size_t(4 * k + 2)], 0.0) << "button " << k << " is not drawn";
    const int x = int(b[size_t(4 * k)] + 0.5 * b[size_t(4 * k + 2)]);
    const int y = int(b[size_t(4 * k + 1)] + 0.5 * b[size_t(4 * k + 3)]);
    session_->move(x, y);
    after_frames(1);
    session_->button(1, true);
    after_frames(1);
    session_->button(1, false);
  }
};

TEST_F(ViewerXEventsEdits, UndoRedoAskBeforeQuitAndRecoverAfterAKill) {
  const std::string model = (dir_ / "mannequin.glb").string();
  fs::copy_file(kMannequin, model);
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(new_session().start({model}, {cache, "RIGVIEW_VIEWER_WEIGHTS_OPS=limit=1;smooth=0.5:2"},
                                kFrameMs),
            "");
  const std::string two = "modified 1 undo 2 redo 0 recover_prompt 0 pending_open 0 pending_quit 0";
  until_edits(two);
  EXPECT_EQ(journals(), 1u);

  ctrl_tap(XK_z);
  until_edits("modified 1 undo 1 redo 1 recover_prompt 0 pending_open 0 pending_quit 0");
  ctrl_tap(XK_z);
  until_edits("modified 0 undo 0 redo 2 recover_prompt 0 pending_open 0 pending_quit 0");
  EXPECT_EQ(journals(), 0u) << "back at the file's weights: nothing to recover";
  ctrl_tap(XK_z, true);
  until_edits("modified 1 undo 1 redo 1 recover_prompt 0 pending_open 0 pending_quit 0");
  ctrl_tap(XK_y);
  until_edits(two);
  EXPECT_EQ(journals(), 1u);

  // Ctrl+Q asks; Cancel keeps the viewer running with its edits.
  ctrl_tap(XK_q);
  until_edits("modified 1 undo 2 redo 0 recover_prompt 0 pending_open 0 pending_quit 1");
  click_question(2);
  until_edits(two);

  // A kill loses nothing: the next start asks, and Recover brings the edits back.
  session_->stop();
  ASSERT_EQ(new_session().start({model}, {cache}, kFrameMs), "");
  until_edits("modified 0 undo 0 redo 0 recover_prompt 1 pending_open 0 pending_quit 0");
  click_question(0);
  until_edits("modified 1 undo 1 redo 0 recover_prompt 0 pending_open 0 pending_quit 0");
  EXPECT_EQ(journals(), 1u);

  // Quit, discarding: the viewer exits 0 and leaves no journal.
  ctrl_tap(XK_q);
  until_edits("modified 1 undo 1 redo 0 recover_prompt 0 pending_open 0 pending_quit 1");
  click_question(1);
  EXPECT_EQ(session_->quit(), 0) << session_->viewer_log();
  EXPECT_EQ(journals(), 0u);
}

// Fix this joint in the running viewer: the search runs in the background while frames go on,
// lands as one undoable edit with its before and after in the message, and Ctrl+Z undoes it.
TEST_F(ViewerXEventsEdits, FixThisJointIsOneUndoableEdit) {
  const std::string model = (dir_ / "mannequin.glb").string();
  fs::copy_file(kMannequin, model);
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(new_session().start({model, "--animation-index", "5"},
                                {cache, "RIGVIEW_VIEWER_WEIGHTS_OPS=fix"}, kFrameMs),
            "");
  ViewerProbe p = after_frames(1);
  // The search takes seconds; frames keep coming meanwhile (at most 2 minutes here).
  for (int i = 0; i < 800 && p.text("edits").rfind("modified 1 undo 1", 0) != 0; ++i)
    p = after_frames(1);
  ASSERT_EQ(p.text("edits").rfind("modified 1 undo 1", 0), 0u) << session_->viewer_log();
  EXPECT_EQ(p.text("edit_message").rfind("Fix LeftForeArm: worst score ", 0), 0u)
      << p.text("edit_message");
  EXPECT_NE(p.text("edit_message").find("% lower"), std::string::npos);
  ctrl_tap(XK_z);
  until_edits("modified 0 undo 0 redo 1 recover_prompt 0 pending_open 0 pending_quit 0");
}

}  // namespace
