// The viewer's soak run (RIGVIEW_VIEWER_SOAK=SECONDS, tests/soak/): for that long, in real time,
// it keeps switching clips, crossfades, skinning methods and surface colours (weights, artefact
// heat maps) and reopens models (RIGVIEW_VIEWER_SOAK_MODELS, ':'-separated, a broken one among
// them), then prints one summary line and exits non-zero when the memory held grew by 5% or more
// after warm-up (malloc's bytes in use: the floor over the last cycle of model reopens against
// the floor over the first), any OpenGL error was reported, or the frame time crept up. That
// floor swings by about 10% between cycles with what the GL driver caches (three clean 60 s runs
// here read −12%), so only a large leak fails the soak: a planted 4 MB per reopen read −5%.
// Leaks in our own per-model work, down to 2 KB per reopen, are caught by the test
// BackgroundJobs.ReopeningAModelWithAllItsJobsHoldsNoMoreMemory. Creep is judged on the UI thread's
// CPU time per frame (background jobs excluded), which other load on the machine barely changes;
// the wall-clock frame time is reported beside it. Measuring starts after a warm-up (every model
// reopened three times), and a run whose warm-up takes long goes on past SECONDS until it has
// measured at least max(20 s, 40% of SECONDS); a warm-up that never ends (5 × SECONDS) fails.
#pragma once

#include <string>
#include <vector>

#include "viewer/document.h"
#include "viewer/viewer_state.h"

namespace rigview {

class Soak {
 public:
  Soak() = default;
  Soak(double seconds, std::vector<std::string> models);
  bool active() const { return seconds_ > 0.0; }

  // Before the frame's UI: one scripted step every few frames.
  void drive(ViewerState& state, const Document& doc, int frame);
  // After the frame: its duration (ms) and the time since the start (s). True when done.
  bool measure(double frame_ms, double elapsed_seconds);
  // Prints the summary line (stdout); returns the exit status.
  int finish(uint64_t gl_errors) const;

 private:
  double seconds_ = 0.0;
  std::vector<std::string> models_;
  size_t next_model_ = 0;
  // Memory held: malloc's bytes in use (resident memory where the C library cannot tell). The
  // floor over the first model cycle after warm-up, and the last cycle's frames (a ring, made
  // once); the resident peak over the whole run is reported beside it.
  bool heap_known_ = true;
  long first_floor_kb_ = 0, rss_peak_kb_ = 0;
  std::vector<long> ring_memory_kb_;
  double first_window_ms_ = 0.0;               // wall clock
  double first_window_cpu_ms_ = 0.0;           // UI-thread CPU time
  std::vector<double> ring_ms_, ring_cpu_ms_;  // the last window's frames (made once)
  double last_cpu_ms_ = -1.0;                  // UI-thread CPU time at the previous measure()
  int first_window_frames_ = 0, frames_ = 0, opens_ = 0;
  int warm_frame_ = 0, measured_frames_ = 0;
  double warm_at_ = -1.0;  // seconds into the run when warm-up ended
};

}  // namespace rigview
