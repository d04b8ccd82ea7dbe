// Learn mode's Mistakes in the running viewer (tests/app/xevents_harness.h): Ctrl+4 through the
// real window turns the raw-weights switch on, the probe then reports the two compare columns,
// right and wrong, with their labels and the one-line caption, and the wrong column's pixels
// differ from the right one's; Ctrl+4 again gives back the single view with the camera as it was.
#include <X11/keysym.h>
#include <gtest/gtest.h>

#include <string>

#include "test_support.h"
#include "viewer/mistakes.h"
#include "xevents_harness.h"

namespace {

using rig::test::ViewerProbe;

const std::string kRawWeights = std::string(RIGVIEW_SOURCE_DIR) + "/assets/raw_weights_example.glb";

class ViewerXEventsLearn : public rig::test::XViewerTest {
 protected:
  void ctrl_digit(KeySym digit) {
    session_->key(XK_Control_L, true);
    session_->tap(digit);
    session_->key(XK_Control_L, false);
  }
  ViewerProbe until_mistake(const std::string& name) {
    ViewerProbe p = after_frames(1);
    for (int i = 0; i < 30 && p.text("mistake").rfind(name + " ", 0) != 0; ++i) p = after_frames(1);
    EXPECT_EQ(p.text("mistake").rfind(name + " ", 0), 0u)
        << p.text("mistake") << session_->viewer_log();
    return p;
  }
};

// Pixels of the view's column `c` of 2 (window pixels, RGB rows): how many of the column's
// pixels differ by more than `tolerance` in some channel from the other column's at the same
// place in its column.
int differing_pixels(const std::vector<unsigned char>& rgb, int width, const ViewerProbe& p,
                     int tolerance) {
  const std::vector<double> view = p.numbers("view");  // x y width height
  const int x0 = int(view[0]), y0 = int(view[1]), w = int(view[2]) / 2, h = int(view[3]);
  int differ = 0;
  // The middle rows only: the labels and caption sit at the top, the overlays at the bottom.
  for (int y = y0 + h / 4; y < y0 + 3 * h / 4; ++y)
    for (int x = 4; x < w - 4; ++x) {
      const unsigned char* a = &rgb[(size_t(y) * width + size_t(x0 + x)) * 3];
      const unsigned char* b = &rgb[(size_t(y) * width + size_t(x0 + w + x)) * 3];
      for (int k = 0; k < 3; ++k)
        if (std::abs(int(a[k]) - int(b[k])) > tolerance) {
          ++differ;
          break;
        }
    }
  return differ;
}

TEST_F(ViewerXEventsLearn, RawWeightsSwitchDrawsRightBesideWrongAndOffRestoresTheView) {
  ASSERT_EQ(new_session().start({kRawWeights, "--animation-index", "0", "--animation-time", "0.5"},
                                {}, 150),
            "");
  ViewerProbe before = after_frames(2);
  EXPECT_EQ(before.text("mistake").rfind("- ", 0), 0u) << before.text("mistake");
  EXPECT_EQ(before.text("columns"), "1");

  at_frame_start();
  ctrl_digit(XK_4);  // the fourth row: raw-weights
  ViewerProbe on = until_mistake("raw-weights");
  on = after_frames(2);  // drawn at least once with the columns
  EXPECT_EQ(on.number("mistake", "drawn"), 1.0) << on.text("mistake");
  EXPECT_EQ(on.text("columns"), "2");
  EXPECT_EQ(on.text("mistake_column_0"), "right: LBS");
  EXPECT_EQ(on.text("mistake_column_1"), "wrong: raw-weights (LBS)");
  const int raw = rigview::find_mistake("raw-weights");
  ASSERT_GE(raw, 0);
  EXPECT_EQ(on.text("mistake_caption"), rigview::mistakes()[size_t(raw)].caption);
  // The shared vertices weigh 1.2 and stand about 1 m from the origin: raw LBS moves them
  // about 0.2 m (0.2 times their distance from the origin).
  EXPECT_GT(on.number("mistake", "difference"), 0.15) << on.text("mistake");
  EXPECT_LT(on.number("mistake", "difference"), 0.35) << on.text("mistake");

  int width = 0, height = 0;
  const std::vector<unsigned char> rgb = session_->pixels(width, height);
  ASSERT_FALSE(rgb.empty());
  EXPECT_GT(differing_pixels(rgb, width, on, 24), 200)
      << "the wrong column looks like the right one";

  at_frame_start();
  ctrl_digit(XK_4);
  ViewerProbe off = until_mistake("-");
  EXPECT_EQ(off.text("columns"), "1");
  EXPECT_EQ(off.text("camera"), before.text("camera"));
  EXPECT_EQ(off.text("clip"), before.text("clip"));
}

}  // namespace
