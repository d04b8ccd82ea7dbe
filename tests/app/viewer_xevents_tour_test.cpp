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
#include <cstring>
#include <filesystem>
#include <string>

#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;

const std::string kMannequin = std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb";
const std::string kTwistArm = std::string(RIGVIEW_SOURCE_DIR) + "/assets/twist_arm.glb";
constexpr int kFrameMs = 120;  // slow frames, so a press and its release land in different ones

// The inspector's tabs in the order shown (app/viewer/workspace_layout.h).
constexpr std::array<const char*, 5> kTabs = {"Display", "Artefacts", "Compression", "Rig health",
                                              "Posing"};
constexpr int kPad = 8, kFrameHeight = 19, kGlyph = 7, kTabGap = 4;
constexpr int kBodyTop = kPad + kFrameHeight + 4;  // the tab body, below the tab bar

// Tab `i`'s centre relative to the inspector's top-left corner.
int tab_centre_x(size_t i) {
  int x = kPad;
  for (size_t t = 0; t < i; ++t) x += kGlyph * int(std::strlen(kTabs[t])) + 2 * 4 + kTabGap;
  return x + (kGlyph * int(std::strlen(kTabs[i])) + 2 * 4) / 2;
}
constexpr int kTabCentreY = kPad + kFrameHeight / 2;

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
    return click(int(r[0]) + tab_centre_x(i), int(r[1]) + kTabCentreY);
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
  const int left = int(r[0]) + kPad + 2 + 5, y = int(r[1]) + kBodyTop + kFrameHeight / 2;
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
  const int x0 = int(r[0]) + kPad, top = int(r[1]) + kBodyTop;
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

// Every tab of every bundled model, at 1280 x 720 and (the mannequin) 1920 x 1080: each click
// opens its tab, and after two frames on it the GL error count is still 0.
TEST_F(ViewerXEventsTour, EveryTabOfEveryModelDrawsWithoutAGlError) {
  struct Run {
    const std::string* model;
    int width, height;
  };
  const std::array<Run, 3> runs = {
      {{&kMannequin, 1280, 720}, {&kTwistArm, 1280, 720}, {&kMannequin, 1920, 1080}}};
  for (const Run& run : runs) {
    SCOPED_TRACE(*run.model + " at " + std::to_string(run.width) + "x" +
                 std::to_string(run.height));
    ASSERT_EQ(start(*run.model, run.width, run.height), "");
    ViewerProbe p = after_frames(1);
    ASSERT_EQ(p.text("gl_errors"), "0") << "GL errors before the tour";
    // Each tab, then back to the first: a tab's work stops as another opens.
    for (size_t i : {1, 2, 3, 4, 0}) {
      p = click_tab(p, i);
      EXPECT_EQ(p.text("tab"), kTabs[i]) << "the click did not open " << kTabs[i];
      p = after_frames(2);
      EXPECT_EQ(p.text("gl_errors"), "0") << "on the " << kTabs[i] << " tab";
    }
    EXPECT_EQ(session_->quit(), 0) << session_->viewer_log();
  }
}

}  // namespace
