// The viewer driven by real X events (tests/app/xevents_harness.h): pointer moves, presses,
// drags and key taps sent through XTEST to a real rigview window on its own Xvfb, at a hand's
// pace, while the viewer draws slow frames as Mesa llvmpipe does (3 to 4 per second here), so
// several events land in one frame as they do for a real user. What they did is read back from
// the RIGVIEW_VIEWER_STATE file and the window's pixels, and checked against values worked out
// by hand: orbit turns 0.008 rad per pixel, a dragged handle follows the pointer, compare
// columns tile the view right of the panel.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
constexpr int kSlowFrameMs = 300;  // llvmpipe's pace on a big window

class ViewerXEvents : public rig::test::XViewerTest {
 protected:
  void SetUp() override {
    XViewerTest::SetUp();
    if (!IsSkipped()) new_session();
  }
};

// The user moves onto the IK target and presses and starts dragging before the viewer draws
// again: the press grabs the handle where it happened, the handle follows the pointer, and the
// camera does not turn.
TEST_F(ViewerXEvents, PressOnAHandleWithNoPriorHoverGrabsIt) {
  ASSERT_EQ(session_->start({kMannequin}, {"RIGVIEW_VIEWER_POSING=ik=LeftHand"}, kSlowFrameMs), "");
  session_->move(860, 500);  // over the 3D view, far from every handle and joint
  const ViewerProbe before = after_frames(2);
  const std::vector<double> ik = before.numbers("ik");  // index, target xyz, pixel xy
  ASSERT_EQ(ik.size(), 6u) << before.text("ik");
  const int hx = int(std::lround(ik[4])), hy = int(std::lround(ik[5]));
  ASSERT_GT(hx, 400) << "the handle is not in the view";

  at_frame_start();
  session_->glide(860, 500, hx, hy, 4, 5);  // straight onto the handle, never resting on it
  session_->button(1, true, 15);
  session_->glide(hx, hy, hx + 60, hy + 30, 4, 10);  // and on, in the same frame
  after_frames(2);
  session_->button(1, false);
  const ViewerProbe after = after_frames(2);

  EXPECT_DOUBLE_EQ(after.number("camera", "yaw"), before.number("camera", "yaw"))
      << "the press turned the camera instead of grabbing the handle";
  EXPECT_DOUBLE_EQ(after.number("camera", "pitch"), before.number("camera", "pitch"));
  const std::vector<double> moved = after.numbers("ik");
  ASSERT_EQ(moved.size(), 6u);
  // Dragged on the plane facing the camera, the handle stays under the pointer.
  EXPECT_NEAR(moved[4], hx + 60, 2.0) << "handle not dragged: " << after.text("ik");
  EXPECT_NEAR(moved[5], hy + 30, 2.0) << after.text("ik");
}

// A click, even one whose approach the viewer sees in the same frame as the press, never turns
// the view; nor does a press that wobbles 2 px. A drag does: 100 px right turns the yaw by
// 100 × 0.008 rad the other way.
TEST_F(ViewerXEvents, AClickDoesNotTurnTheViewADragDoes) {
  ASSERT_EQ(session_->start({kMannequin}, {}, kSlowFrameMs), "");
  // Inside the workspace's 3D view (x 300..880, y 0..530 at 1280 x 720), far from the character.
  session_->move(800, 480);
  const ViewerProbe before = after_frames(2);
  const double yaw = before.number("camera", "yaw"), pitch = before.number("camera", "pitch");

  at_frame_start();
  session_->glide(800, 480, 840, 440, 4, 5);
  session_->button(1, true, 20);
  session_->button(1, false);
  ViewerProbe p = after_frames(3);
  EXPECT_DOUBLE_EQ(p.number("camera", "yaw"), yaw) << "a single click turned the view";
  EXPECT_DOUBLE_EQ(p.number("camera", "pitch"), pitch) << "a single click turned the view";

  session_->button(1, true);
  after_frames(1);
  session_->move(842, 441);
  after_frames(1);
  session_->button(1, false);
  p = after_frames(2);
  EXPECT_DOUBLE_EQ(p.number("camera", "yaw"), yaw) << "a 2 px wobble turned the view";

  session_->move(840, 440);
  after_frames(1);
  session_->button(1, true);
  after_frames(1);
  session_->glide(840, 440, 740, 440, 10, 20);
  after_frames(1);
  session_->button(1, false);
  p = after_frames(2);
  const double turned = std::remainder(p.number("camera", "yaw") - yaw, 2.0 * M_PI);
  EXPECT_NEAR(turned, 100 * 0.008, 1e-4) << "a 100 px drag left should turn yaw by +0.8 rad";
  EXPECT_DOUBLE_EQ(p.number("camera", "pitch"), pitch);
}

// O focuses the Open field; a tap of Enter (press and release between two frames) opens what
// it holds.
TEST_F(ViewerXEvents, AQuickEnterTapInTheOpenFieldOpensTheFile) {
  ASSERT_EQ(session_->start({kMannequin}, {"RIGVIEW_VIEWER_OPEN_FIELD=" + kTwistArm}, kSlowFrameMs),
            "");
  session_->move(1000, 400);  // key events go to the window under the pointer (no window manager)
  after_frames(1);
  session_->tap(XK_o);
  ViewerProbe p;
  for (int i = 0; i < 8 && p.text("want_text_input") != "1"; ++i) p = after_frames(1);
  ASSERT_EQ(p.text("want_text_input"), "1") << "O did not focus the Open field";
  EXPECT_EQ(p.text("document"), kMannequin);

  at_frame_start();
  session_->tap(XK_Return);
  p = after_frames(3);
  EXPECT_EQ(p.text("document"), kTwistArm) << "the Enter tap was dropped";
}

// Compare on (5) from the single view, on the Twist clip: each column is reframed so the
// character's projected joints lie inside it; the columns tile the view right of the panel.
TEST_F(ViewerXEvents, EveryCompareColumnContainsTheCharactersJoints) {
  ASSERT_EQ(session_->start({kMannequin, "--animation-index", "4"}, {}, 150), "");
  session_->move(1000, 400);
  after_frames(1);
  session_->tap(XK_5);
  after_frames(2);
  for (int frame = 0; frame < 6; ++frame) {  // over a stretch of the twist
    const ViewerProbe p = after_frames(1);
    // The workspace's 3D view (between the outliner, the inspector and the timeline).
    const std::vector<double> view = p.numbers("view");
    ASSERT_EQ(view.size(), 4u) << p.text("view");
    const double left = view[0], top = view[1], width = view[2], height = view[3];
    ASSERT_EQ(p.text("columns"), "4");
    for (int c = 0; c < 4; ++c) {
      const std::vector<double> col = p.numbers("column", c);  // i, x, w, joint box (4)
      ASSERT_EQ(col.size(), 7u) << p.text("column");
      const double x0 = left + std::floor(width * c / 4.0);
      const double x1 = left + std::floor(width * (c + 1) / 4.0);
      EXPECT_DOUBLE_EQ(col[1], x0);
      EXPECT_DOUBLE_EQ(col[1] + col[2], x1);
      EXPECT_GE(col[3], x0) << "column " << c << " crops the character on the left";
      EXPECT_LE(col[5], x1) << "column " << c << " crops the character on the right";
      EXPECT_GE(col[4], top) << "column " << c << " crops the character at the top";
      EXPECT_LE(col[6], top + height) << "column " << c << " crops the character at the bottom";
    }
  }
  // And the window shows it: in each column, lit surface pixels around the joints.
  int w = 0, h = 0;
  const std::vector<unsigned char> rgb = session_->pixels(w, h);
  ASSERT_FALSE(rgb.empty());
  const ViewerProbe p = session_->read_state();
  for (int c = 0; c < 4; ++c) {
    const std::vector<double> col = p.numbers("column", c);
    int lit = 0;
    for (int y = int(col[4]); y < int(col[6]) && y < h; ++y)
      for (int x = int(col[3]); x < int(col[5]) && x < w; ++x) {
        const unsigned char* px = &rgb[(size_t(y) * w + x) * 3];
        lit += (px[0] + px[1] + px[2]) / 3 > 120;
      }
    EXPECT_GT(lit, 50) << "column " << c << " shows no character";
  }
  // The labels stay inside their columns: across the label row, each divider between two
  // columns is drawn as it is below the labels, not covered by a neighbour's long label.
  const std::vector<double> view = p.numbers("view");
  ASSERT_EQ(view.size(), 4u) << p.text("view");
  const int top = int(view[1]);
  for (int c = 1; c < 4; ++c) {
    const int edge = int(view[0] + std::floor(view[2] * c / 4.0));
    int line = edge, brightest = -1;  // the divider: the brightest pixel by the edge, below labels
    for (int x = edge - 1; x <= edge + 1; ++x) {
      const unsigned char* px = &rgb[(size_t(top + 60) * w + x) * 3];
      if (px[0] + px[1] + px[2] > brightest) brightest = px[0] + px[1] + px[2], line = x;
    }
    for (int y = top + 4; y < top + 36; ++y) {
      const unsigned char* px = &rgb[(size_t(y) * w + line) * 3];
      EXPECT_NEAR(px[0] + px[1] + px[2], brightest, 30)
          << "a label covers the divider at x " << line << ", y " << y;
      if (std::abs(px[0] + px[1] + px[2] - brightest) > 30) break;
    }
  }
}

// Dragging the view far up (the camera swings down) stops with the eye above the ground.
TEST_F(ViewerXEvents, TheCameraCannotOrbitBelowTheFloor) {
  ASSERT_EQ(session_->start({kMannequin}, {}, 150), "");
  session_->move(850, 20);  // in the 3D view (x 300..880, y 0..530), right of the character
  after_frames(1);
  session_->button(1, true);
  after_frames(1);
  session_->glide(850, 20, 850, 520, 12, 15);  // +500 px: pitch +4 rad asked
  after_frames(1);
  session_->button(1, false);
  ViewerProbe p = after_frames(1);
  EXPECT_GT(p.number("camera", "pitch"), 1.5);  // looking down from above: allowed
  session_->button(1, true);
  after_frames(1);
  session_->glide(850, 520, 850, 10, 12, 15);  // −510 px: far below the floor asked
  after_frames(1);
  session_->button(1, false);
  p = after_frames(1);
  EXPECT_GE(p.number("camera", "eye_y"), p.number("camera", "floor"))
      << "the eye went below the ground";
  EXPECT_LT(p.number("camera", "pitch"), 0.1) << "the drag did not swing the camera down";
}

}  // namespace
