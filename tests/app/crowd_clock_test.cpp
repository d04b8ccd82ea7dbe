// The crowd's clock follows the viewer's timeline as the single character does: it plays with
// play (at the playback speed), stops with pause, and moves with a scrub or a frame step.
#include <gtest/gtest.h>

#include "viewer/viewer_state.h"

namespace rigview {
namespace {

TEST(CrowdClock, FollowsPlayPauseScrubAndSteps) {
  const float dt = 1.0f / 30.0f;
  const TimelineFrame at_1{0, 1.0f}, at_1_5{0, 1.5f}, at_0_2{0, 0.2f};
  // Playing at 2x: two frames' worth of playback time, whatever the timeline did (a looping
  // clip wraps from its end to its start; the crowd plays on).
  EXPECT_DOUBLE_EQ(crowd_clock_step(true, false, false, dt, 2.0f, at_1, at_0_2), double(dt) * 2.0);
  // Paused, the timeline still: the crowd stands still.
  EXPECT_EQ(crowd_clock_step(false, false, false, dt, 1.0f, at_1, at_1), 0.0);
  // A scrub (playing or not) moves it as far as the timeline moved, backwards too.
  EXPECT_DOUBLE_EQ(crowd_clock_step(true, true, false, dt, 1.0f, at_1, at_1_5), 0.5);
  EXPECT_DOUBLE_EQ(crowd_clock_step(false, true, false, dt, 1.0f, at_1_5, at_1), -0.5);
  // A frame step or Home while paused: the same.
  EXPECT_DOUBLE_EQ(crowd_clock_step(false, false, false, dt, 1.0f, at_1, at_0_2),
                   double(0.2f) - 1.0);
  // Another clip's time says nothing about the crowd's; the rest pose holds it.
  EXPECT_EQ(crowd_clock_step(false, false, false, dt, 1.0f, at_1, TimelineFrame{3, 0.0f}), 0.0);
  EXPECT_EQ(crowd_clock_step(true, false, true, dt, 1.0f, at_1, at_1_5), 0.0);
}

}  // namespace
}  // namespace rigview
