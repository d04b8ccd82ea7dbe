// The inspector driven by real X events (tests/app/xevents_harness.h), as a person uses it at
// llvmpipe's pace: the Compression tab's tolerance slider dragged and released, a Teaching aids
// bug chosen and then None clicked where it was, and a tour of every tab of every bundled model.
//
// Where to click is worked out by hand from Dear ImGui's default style, not read from the
// viewer: the default font (ProggyClean, 13 px) advances 7 px per character; a frame is 13 + 2 × 3
// = 19 px high; a window pads 8 px, a borderless child 0; a tab is its label + 2 × 4 px wide,
// 4 px from the next; the tab body starts 4 px under the 19 px tab bar.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include "test_support.h"
#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
constexpr int kFrameMs = 120;  // slow frames, so a press and its release land in different ones

// The inspector's tabs in the order shown (app/viewer/workspace_layout.h).
constexpr std::array<const char*, 8> kTabs = {"Display", "Artefacts", "Compression", "Rig health",
                                              "Posing",  "Joint",     "Vertex",      "Weights"};
constexpr int kPad = 8, kFrameHeight = 19, kGlyph = 7, kSpacingX = 8, kSpacingY = 4;

// The tab strip: buttons (label + 2 × 4 px wide, a frame high, 8 px apart) from the padding on,
// wrapping to a new row (4 px lower) when a button would pass the content's right edge.
struct TabStrip {
  std::array<int, kTabs.size()> centre_x{}, centre_y{};
  int body_top = 0;  // the tab body: under the last row, its spacing and the separator's
};
TabStrip tab_strip(int inspector_width) {
  TabStrip s;
  const int right = inspector_width - kPad;
  int x = kPad, y = kPad;
  for (size_t i = 0; i < kTabs.size(); ++i) {
    const int width = kGlyph * int(std::strlen(kTabs[i])) + 2 * 4;
    if (i > 0) {
      if (x + kSpacingX + width <= right) {
        x += kSpacingX;
      } else {
        x = kPad;
        y += kFrameHeight + kSpacingY;
      }
    }
    s.centre_x[i] = x + width / 2;
    s.centre_y[i] = y + kFrameHeight / 2;
    x += width;
  }
  s.body_top = y + kFrameHeight + 2 * kSpacingY;
  return s;
}

class ViewerXEventsTour : public rig::test::XViewerTest {
 protected:
  std::string start(const std::string& model, int width = 1280, int height = 720) {
    return new_session().start({model}, {}, kFrameMs, width, height);
  }
  // A person's click at a slow frame rate: the pointer rests, then the button goes down in one
  // frame and up in the next.
  ViewerProbe click(int x, int y) {
    session_->move(x, y);
    after_frames(1);
    session_->button(1, true);
    after_frames(1);
    session_->button(1, false);
    return after_frames(2);
  }
  // Frames (20 at most) until line `key` reads `value`: applying a simulated bug rebuilds the
  // document, which takes a machine under load more than one frame.
  ViewerProbe until(const std::string& key, const std::string& value) {
    ViewerProbe p = after_frames(1);
    for (int i = 0; i < 20 && p.text(key) != value; ++i) p = after_frames(1);
    return p;
  }
  // Clicks tab `i` of the inspector (its top-left corner read from the state file).
  ViewerProbe click_tab(const ViewerProbe& p, size_t i) {
    const std::vector<double> r = p.numbers("inspector");
    EXPECT_EQ(r.size(), 4u) << p.text("inspector");
    if (r.size() != 4u) return p;
    const TabStrip strip = tab_strip(int(r[2]));
    return click(int(r[0]) + strip.centre_x[i], int(r[1]) + strip.centre_y[i]);
  }
  // Where the open tab's body starts, below the strip.
  static int body_top(const std::vector<double>& inspector) {
    return int(inspector[1]) + tab_strip(int(inspector[2])).body_top;
  }
};

// Compression tab, then the slider dragged from its grab to two thirds of its travel and
// released. The slider (200 px, logarithmic 0.001..1 cm) moves its 10 px grab over 200 − 2 × 2 −
// 10 = 186 px starting 2 + 5 px in; two thirds along is 0.001 × 1000^(2/3) = 0.1 cm, the start
// value 0.01 cm one third along. After the release the tolerance stays 0.1 and the document's
// compression is asked for 0.1.
TEST_F(ViewerXEventsTour, CompressionToleranceKeepsItsValueAfterADrag) {
  ASSERT_EQ(start(kMannequin), "");
  ViewerProbe p = click_tab(after_frames(1), 2);
  ASSERT_EQ(p.text("tab"), "Compression") << "the tab click missed";
  EXPECT_NEAR(p.number("compression", "tolerance_cm"), 0.01, 1e-6);

  const std::vector<double> r = p.numbers("inspector");
  ASSERT_EQ(r.size(), 4u);
  const int left = int(r[0]) + kPad + 2 + 5, y = body_top(r) + kFrameHeight / 2;
  const int from = left + 186 / 3, to = left + 186 * 2 / 3;
  session_->move(from, y);
  after_frames(1);
  session_->button(1, true);
  after_frames(1);
  session_->glide(from, y, to, y, 8, 20);  // a hand's drag, spread over a few frames
  p = after_frames(1);
  EXPECT_EQ(p.number("compression", "editing"), 1) << "the slider is not held during the drag";
  session_->button(1, false);
  p = after_frames(3);
  EXPECT_NEAR(p.number("compression", "tolerance_cm"), 0.1, 1e-3)
      << "the tolerance snapped back after the release";
  EXPECT_EQ(p.number("compression", "editing"), 0);
  EXPECT_NEAR(p.number("compression", "requested"), 0.1, 1e-3) << "nothing was recompressed";
  EXPECT_NEAR(p.number("compression", "session"), 0.1, 1e-3) << "the session did not restart";
  p = after_frames(3);  // and it stays
  EXPECT_NEAR(p.number("compression", "tolerance_cm"), 0.1, 1e-3);
}

// Rig health tab, Teaching aids opened, the second bug chosen with a click on its radio button;
// then None, clicked where it was before, restores the file: the choices did not move.
TEST_F(ViewerXEventsTour, TeachingAidChoicesStayInPlace) {
  ASSERT_EQ(start(kMannequin), "");
  ViewerProbe p = click_tab(after_frames(1), 3);
  ASSERT_EQ(p.text("tab"), "Rig health") << "the tab click missed";
  const std::vector<double> r = p.numbers("inspector");
  ASSERT_EQ(r.size(), 4u);
  const int x0 = int(r[0]) + kPad, top = body_top(r);
  p = click(x0 + 100, top + kFrameHeight / 2);  // the "Teaching aids" header
  const double choices_y = std::atof(p.text("teaching_choices_y").c_str());
  ASSERT_GT(choices_y, kFrameHeight) << "the Teaching aids header did not open";
  ASSERT_EQ(p.text("simulated_bug"), "-1");

  // Radio rows: one frame high, 4 px apart; the button's circle at the row's left.
  auto row_y = [&](int row) { return top + int(choices_y) + row * (kFrameHeight + 4) + 9; };
  click(x0 + 9, row_y(2));
  p = until("simulated_bug", "1");
  ASSERT_EQ(p.text("simulated_bug"), "1") << "the click did not choose the second bug";
  p = after_frames(2);
  EXPECT_EQ(std::atof(p.text("teaching_choices_y").c_str()), choices_y)
      << "the choices moved when a bug was chosen";
  click(x0 + 9, row_y(0));
  p = until("simulated_bug", "-1");
  EXPECT_EQ(p.text("simulated_bug"), "-1") << "None is no longer where it was";
}

// Joint tab: a press on the selected joint's Z ring (with no hover first) and a quarter turn of
// the pointer round the joint, counter-clockwise on screen in 15° steps, turn the joint a quarter
// turn about its own Z axis (a hand rotation over the clip: x and y of its quaternion stay 0);
// the camera does not move.
TEST_F(ViewerXEventsTour, DraggingAJointsRingTurnsItAboutThatAxis) {
  ASSERT_EQ(new_session().start({kMannequin, "--weights", "LeftForeArm"}, {}, kFrameMs), "");
  ViewerProbe p = click_tab(after_frames(1), 5);
  ASSERT_EQ(p.text("tab"), "Joint") << "the tab click missed";
  p = after_frames(1);
  const std::vector<double> r = p.numbers("rings");  // centre, X, Y and Z ring points, dragged
  ASSERT_EQ(r.size(), 9u) << p.text("rings");
  const double yaw = p.number("camera", "yaw");
  const double cx = r[0], cy = r[1], dx = r[6] - cx, dy = r[7] - cy;
  ASSERT_GT(std::hypot(dx, dy), 20.0) << "the Z ring is edge-on: " << p.text("rings");
  session_->move(int(std::lround(r[6])), int(std::lround(r[7])));
  session_->button(1, true, 15);
  after_frames(1);
  for (int k = 1; k <= 6; ++k) {
    // Counter-clockwise on screen (y down): the offset turned by −angle in window coordinates.
    const double a = k * M_PI / 12.0;
    const double x = cx + dx * std::cos(a) + dy * std::sin(a);
    const double y = cy - dx * std::sin(a) + dy * std::cos(a);
    session_->move(int(std::lround(x)), int(std::lround(y)));
    after_frames(1);
  }
  session_->button(1, false);
  p = after_frames(2);
  const std::vector<double> q = p.numbers("joint_rotation");  // x y z w
  ASSERT_EQ(q.size(), 4u) << p.text("joint_rotation");
  EXPECT_NEAR(q[0], 0.0, 1e-4) << p.text("joint_rotation");
  EXPECT_NEAR(q[1], 0.0, 1e-4) << p.text("joint_rotation");
  // 90° ± 2° (the pointer lands on whole pixels): |z| = sin 45°, |w| = cos 45°.
  const double angle = 2.0 * std::acos(std::min(1.0, std::abs(q[3]))) * 180.0 / M_PI;
  EXPECT_NEAR(angle, 90.0, 2.0) << p.text("joint_rotation");
  EXPECT_DOUBLE_EQ(p.number("camera", "yaw"), yaw) << "the drag turned the camera";
}

// Every tab of every bundled model at 1280 x 720 and 1920 x 1080: each click opens its tab, and
// after two frames on it the GL error count is still 0 and no label, value or header anywhere
// in the window is cut off by its window or table column (the state file's "clipped" line:
// app/viewer/clipped_content.h).
TEST_F(ViewerXEventsTour, EveryTabOfEveryModelDrawsWithoutAGlError) {
  struct Run {
    const std::string* model;
    int width, height;
  };
  const std::array<Run, 4> runs = {{{&kMannequin, 1280, 720},
                                    {&kTwistArm, 1280, 720},
                                    {&kMannequin, 1920, 1080},
                                    {&kTwistArm, 1920, 1080}}};
  for (const Run& run : runs) {
    SCOPED_TRACE(*run.model + " at " + std::to_string(run.width) + "x" +
                 std::to_string(run.height));
    ASSERT_EQ(start(*run.model, run.width, run.height), "");
    ViewerProbe p = after_frames(1);
    ASSERT_EQ(p.text("gl_errors"), "0") << "GL errors before the tour";
    EXPECT_EQ(p.text("clipped"), "0") << "on the first frame";
    // Each tab, then back to the first: a tab's work stops as another opens.
    for (size_t i : {1, 2, 3, 4, 5, 6, 7, 0}) {
      p = click_tab(p, i);
      EXPECT_EQ(p.text("tab"), kTabs[i]) << "the click did not open " << kTabs[i];
      p = after_frames(2);
      EXPECT_EQ(p.text("gl_errors"), "0") << "on the " << kTabs[i] << " tab";
      EXPECT_EQ(p.text("clipped"), "0") << "on the " << kTabs[i] << " tab";
    }
    EXPECT_EQ(session_->quit(), 0) << session_->viewer_log();
  }
}

// Vertex tab: a click on the character picks a vertex, whose inspection (at the paused start
// pose) is the one --inspect-vertex prints for that vertex at that pose, LBS position to 1e-5.
TEST_F(ViewerXEventsTour, ClickingTheSurfacePicksAVertexAndInspectsIt) {
  ASSERT_EQ(new_session().start({kMannequin, "--animation-index", "0", "--animation-time", "0.5"},
                                {}, kFrameMs),
            "");
  ViewerProbe p = click_tab(after_frames(1), 6);
  ASSERT_EQ(p.text("tab"), "Vertex") << "the tab click missed";
  const std::vector<double> column = p.numbers("column");  // index, x, width, joints box
  ASSERT_EQ(column.size(), 7u) << p.text("column");
  // The middle of the projected joints: the torso.
  const int x = int(0.5 * (column[3] + column[5])), y = int(0.5 * (column[4] + column[6]));
  p = click(x, y);
  for (int i = 0; i < 10 && p.numbers("vertex").size() < 8; ++i) p = after_frames(1);
  const std::vector<double> v = p.numbers("vertex");  // prim, index, valid, n, lbs xyz, live
  ASSERT_EQ(v.size(), 8u) << p.text("vertex");
  ASSERT_GE(v[0], 0.0) << "nothing picked at " << x << "," << y << ": " << p.text("vertex");
  EXPECT_EQ(v[2], 1.0) << p.text("vertex");
  EXPECT_GE(v[3], 1.0);
  EXPECT_EQ(v[7], v[3]) << "the live opinions, one per influence";
  const std::string which = std::to_string(int(v[0])) + ":" + std::to_string(int(v[1]));
  const rig::test::RunResult cli =
      rig::test::run_rigview(rig::test::quote(kMannequin) +
                             " --animation-index 0 --animation-time 0.5 --inspect-vertex " + which);
  ASSERT_EQ(cli.status, 0) << cli.err;
  const size_t at = cli.out.find("\"lbs\"");
  ASSERT_NE(at, std::string::npos) << cli.out;
  double lbs[3] = {0, 0, 0};
  ASSERT_EQ(std::sscanf(cli.out.c_str() + cli.out.find('[', at), "[%lf, %lf, %lf]", &lbs[0],
                        &lbs[1], &lbs[2]),
            3)
      << cli.out.substr(at, 80);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(v[size_t(4 + k)], lbs[k], 1e-5) << which << " " << k;
}

}  // namespace
