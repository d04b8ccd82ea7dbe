// The viewer's skin edits driven by real X events (tests/app/xevents_harness.h): Ctrl+Z and
// Ctrl+Shift+Z walk the history, the title-bar mark and the journal follow the saved state,
// Ctrl+Q with unsaved edits asks instead of quitting, and after a SIGKILL the next start offers
// the journaled edits, which a click on Recover brings back. RIGVIEW_VIEWER_WEIGHTS_OPS makes
// the two edits (as the Weights tab's buttons would); everything after is keys and clicks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "import/gltf_import.h"
#include "test_support.h"
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

// Limit with refit in the running viewer samples every clip's poses in the background while
// frames go on (progress, Cancel), then lands as one undoable edit whose count of changed
// vertices is the command line's for the same op; the saved file's weights have at most one
// influences per vertex.
TEST_F(ViewerXEventsEdits, LimitWithRefitRunsInTheBackgroundAndIsOneUndoableEdit) {
  const std::string model = (dir_ / "mannequin.glb").string();
  fs::copy_file(kMannequin, model);
  const rig::test::RunResult cli =
      rig::test::run_rigview("--export-obj " + rig::test::quote((dir_ / "limited.obj").string()) +
                             " --weights-op limit=1:refit " + rig::test::quote(model));
  ASSERT_EQ(cli.status, 0) << cli.err;
  const std::string prefix = "rigview: --weights-op limit=1:refit: ";
  ASSERT_EQ(cli.err.rfind(prefix, 0), 0u) << cli.err;
  const std::string line = cli.err.substr(prefix.size(), cli.err.find('\n') - prefix.size());
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(
      new_session().start({model}, {cache, "RIGVIEW_VIEWER_WEIGHTS_OPS=limit=1:refit"}, kFrameMs),
      "");
  ViewerProbe p = after_frames(1);
  for (int i = 0; i < 400 && p.text("edits").rfind("modified 1 undo 1", 0) != 0; ++i)
    p = after_frames(1);
  ASSERT_EQ(p.text("edits").rfind("modified 1 undo 1", 0), 0u) << session_->viewer_log();
  EXPECT_EQ(p.text("edit_message"), "limit=1:refit: " + line);
  ctrl_tap(XK_s);
  until_edits("modified 0 undo 1 redo 0 recover_prompt 0 pending_open 0 pending_quit 0");
  rig::Model saved;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(model, saved, error)) << error;
  size_t vertices = 0;
  for (const rig::Mesh& mesh : saved.meshes)
    for (const rig::Primitive& prim : mesh.primitives)
      for (size_t v = 0; prim.influences > 0 && v < prim.positions.size(); ++v, ++vertices) {
        int nonzero = 0;
        for (uint32_t k = 0; k < prim.influences; ++k)
          nonzero += prim.weights[v * prim.influences + k] > 0.0f;
        EXPECT_LE(nonzero, 1) << "vertex " << v;
      }
  EXPECT_GT(vertices, 0u);
}

// The paint brush in the running viewer: with the Weights tab open and Paint on, a left drag
// across the selected joint adds its weight under the pointer (the camera stays), the release
// makes the stroke one undoable edit, and Ctrl+S saves it: the saved file has more vertices
// weighted to the joint than the original, every vertex still summing to 1.
TEST_F(ViewerXEventsEdits, APaintStrokeIsOneEditAndSaves) {
  const std::string model = (dir_ / "mannequin.glb").string();
  fs::copy_file(kMannequin, model);
  const std::string cache = "XDG_CACHE_HOME=" + (dir_ / "cache").string();
  ASSERT_EQ(new_session().start({model, "--weights", "LeftForeArm", "--animation-index", "0",
                                 "--animation-time", "0.5"},
                                {cache, "RIGVIEW_VIEWER_WEIGHTS_OPS=paint"}, kFrameMs),
            "");
  // The Weights tab: the strip's last button (the tour's layout: 8 px padding, 7 px glyphs).
  ViewerProbe p = after_frames(1);
  const std::vector<double> inspector = p.numbers("inspector");
  ASSERT_EQ(inspector.size(), 4u);
  // Where the tab strip puts "Weights" (the eighth tab) on a 400 px inspector: second row.
  int x = int(inspector[0]) + 8, y = 8;
  const char* tabs[] = {"Display", "Artefacts", "Compression", "Rig health",
                        "Posing",  "Joint",     "Vertex",      "Weights"};
  int cx = 0, cy = 0;
  for (int i = 0; i < 8; ++i) {
    const int w = 7 * int(std::strlen(tabs[i])) + 8;
    if (i > 0) {
      if (x + 8 + w <= int(inspector[0] + inspector[2]) - 8)
        x += 8;
      else
        x = int(inspector[0]) + 8, y += 19 + 4;
    }
    cx = x + w / 2, cy = y + 9;
    x += w;
  }
  session_->move(cx, cy);
  after_frames(1);
  session_->button(1, true);
  after_frames(1);
  session_->button(1, false);
  p = after_frames(2);
  ASSERT_EQ(p.text("tab"), "Weights") << "the tab click missed";
  const std::vector<double> joint = p.numbers("selected_pixel");
  ASSERT_EQ(joint.size(), 2u);
  const double yaw = p.number("camera", "yaw");
  // A stroke across the joint, 40 px, over several frames.
  session_->move(int(joint[0]) - 20, int(joint[1]));
  after_frames(1);
  session_->button(1, true);
  for (int k = -16; k <= 20; k += 6) {
    session_->move(int(joint[0]) + k, int(joint[1]));
    after_frames(1);
  }
  session_->button(1, false);
  p = until_edits("modified 1 undo 1 redo 0 recover_prompt 0 pending_open 0 pending_quit 0");
  EXPECT_DOUBLE_EQ(p.number("camera", "yaw"), yaw) << "the stroke turned the camera";
  ctrl_tap(XK_s);
  until_edits("modified 0 undo 1 redo 0 recover_prompt 0 pending_open 0 pending_quit 0");
  rig::Model before, after;
  std::string error;
  ASSERT_TRUE(rig::import_gltf(kMannequin, before, error)) << error;
  ASSERT_TRUE(rig::import_gltf(model, after, error)) << error;
  int joint_index = -1;
  for (size_t j = 0; j < before.skins[0].joints.size(); ++j)
    if (before.nodes[size_t(before.skins[0].joints[j])].name == "LeftForeArm") joint_index = int(j);
  ASSERT_GE(joint_index, 0);
  auto weighted = [&](const rig::Model& m) {
    int n = 0;
    for (const rig::Primitive& prim : m.meshes[0].primitives)
      for (size_t v = 0; v < prim.positions.size(); ++v) {
        float sum = 0.0f, w = 0.0f;
        for (uint32_t k = 0; k < prim.influences; ++k) {
          sum += prim.weights[v * prim.influences + k];
          if (prim.joints[v * prim.influences + k] == joint_index)
            w += prim.weights[v * prim.influences + k];
        }
        EXPECT_NEAR(sum, 1.0f, 2e-3f) << v;
        n += w > 0.5f;
      }
    return n;
  };
  EXPECT_GT(weighted(after), weighted(before));
}

}  // namespace
