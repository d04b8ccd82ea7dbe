#include "viewer/soak.h"

#include <malloc.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <ctime>

#include "viewer/actions.h"

namespace rigview {

namespace {

long resident_kb() {
  long pages = 0, resident = 0;
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  const int read = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return read == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

// Bytes the program holds from malloc (every arena, and the blocks malloc mmaps itself), KiB; -1
// where the C library cannot say (not glibc, or a sanitizer's allocator, whose mallinfo2 is 0).
// Unlike resident memory, this does not count pages malloc keeps after a free, nor the driver's
// and the loader's mappings: a leak shows here byte for byte.
long heap_in_use_kb() {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__)
  const struct mallinfo2 m = mallinfo2();
  const size_t bytes = m.uordblks + m.hblkhd;
  return bytes > 0 ? long(bytes / 1024) : -1;
#else
  return -1;
#endif
}

// CPU time of the calling (UI) thread, ms: the frame's own work (UI, pose, draw submission, and
// llvmpipe's vertex stage, which runs in the drawing thread), without background jobs (scans,
// compression, CoR centres) whose share of the process's CPU varies with what the soak just did.
double ui_thread_cpu_ms() {
  timespec t{};
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t) != 0) return 0.0;
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

constexpr int kFramesPerStep = 3;
// The creep windows at both ends (after warm-up): one whole cycle of the script's skinning-method
// choices each (every method and compare, which draws them all, for the same number of frames),
// so the two compare like with like wherever in the script they fall.
int window_frames() { return kFramesPerStep * 6 * (int(rig::skinning_methods().size()) + 1); }

// One cycle of the script's model reopens (one every 12 steps, every model once): which model is
// open, and how much of it is built, follows this cycle, so memory is compared as the floor (the
// least held) over one whole cycle at each end of the measured stretch, never at two instants (an
// instant after warm-up that fell low read as 9% and 22% growth in two clean-clone runs). A leak
// raises the floor by what it keeps; work in flight (scans, compression) only lifts the peaks.
int cycle_frames(size_t models) { return kFramesPerStep * 12 * int(std::max<size_t>(models, 1)); }

double warmup_seconds(double total) { return std::clamp(0.15 * total, 3.0, 60.0); }
// After warm-up the run goes on for at least this long (and to `seconds` at least), so that a
// slow machine, whose warm-up takes most of a short run, still measures a real stretch.
double measured_seconds(double total) { return std::max(20.0, 0.4 * total); }
// A warm-up that has not ended by then fails the run (something keeps it from reopening models).
double warmup_limit(double total) { return 5.0 * total; }

}  // namespace

Soak::Soak(double seconds, std::vector<std::string> models)
    : seconds_(seconds),
      models_(std::move(models)),
      heap_known_(heap_in_use_kb() >= 0),
      ring_memory_kb_(size_t(cycle_frames(models_.size())), 0),
      ring_ms_(size_t(window_frames()), 0.0),
      ring_cpu_ms_(size_t(window_frames()), 0.0) {}

void Soak::drive(ViewerState& state, const Document& doc, int frame) {
  if (frame % kFramesPerStep != 0) return;
  const int step = frame / kFramesPerStep;
  auto press = [&](int key) {
    KeyPress p;
    p.key = key;
    apply_key(state, p, false);
  };
  switch (step % 6) {
    case 0:  // the next skinning method, or compare
      press('1' + (step / 6) % int(rig::skinning_methods().size() + 1));
      break;
    case 1:  // the next surface colour (weights, counts, deflation, difference, compression)
      press('V');
      break;
    case 2:  // the next clip
      if (state.playback && !doc.character->clips().empty())
        state.playback->select_clip((state.playback->clip() + 1) %
                                    int(doc.character->clips().size()));
      break;
    case 3:  // a crossfade to another clip
      if (state.playback && doc.character->clips().size() > 1)
        state.playback->start_crossfade(
            (state.playback->clip() + 1) % int(doc.character->clips().size()), 0.3f, step % 2 == 0);
      break;
    case 4:  // bones, wireframe and the Artefacts/Compression work on and off
      press('B');
      press('W');
      state.artefacts_open = !state.artefacts_open;
      state.compression_open = (step / 6) % 3 == 0;
      break;
    case 5:  // every other time, reopen a model (a broken one keeps the current)
      if (!models_.empty() && (step / 6) % 2 == 1) {
        state.requests.open_path = models_[next_model_++ % models_.size()];
        ++opens_;
      }
      break;
  }
}

bool Soak::measure(double frame_ms, double elapsed) {
  ++frames_;
  const double cpu_now = ui_thread_cpu_ms();
  const double cpu_ms = last_cpu_ms_ >= 0.0 ? cpu_now - last_cpu_ms_ : 0.0;
  last_cpu_ms_ = cpu_now;
  // Warm-up: every lazily built thing (analysis, compression, CoR centres, rig diagnoses, each
  // model's GPU resources) has been made once. Which ones a model builds depends on the panels
  // and views the script has on when it opens, so every model must have been opened three times
  // (about 36 scripted steps each), and a minimum time must have passed. Measuring before that
  // sees first builds as growth (58% within a minute, once, on a machine too slow to finish the
  // warm-up in 60% of the run; 30 minutes later the size was unchanged), so the run is extended
  // instead: it ends measured_seconds() after warm-up at the earliest.
  if (warm_at_ < 0.0) {
    if (elapsed >= warmup_seconds(seconds_) && opens_ > 3 * int(models_.size())) {
      warm_at_ = elapsed;
      warm_frame_ = frames_ - 1;  // this frame is the first measured
    } else
      return elapsed >= warmup_limit(seconds_);  // finish() then reports the failed warm-up
  }
  const double warm = warm_at_;
  const double end = std::max(seconds_, warm + measured_seconds(seconds_));
  const long rss = resident_kb();
  rss_peak_kb_ = std::max(rss_peak_kb_, rss);
  const long memory = heap_known_ ? heap_in_use_kb() : rss;
  const int window = window_frames(), cycle = int(ring_memory_kb_.size());
  const int since = frames_ - warm_frame_;  // frames measured, this one included
  if (since <= cycle) first_floor_kb_ = since == 1 ? memory : std::min(first_floor_kb_, memory);
  ring_memory_kb_[size_t((since - 1) % cycle)] = memory;
  if (since <= window) {
    first_window_ms_ += frame_ms;
    first_window_cpu_ms_ += cpu_ms;
    ++first_window_frames_;
  }
  // The last `window` frames, in a ring: the last window is whatever it holds at the end.
  ring_ms_[size_t((since - 1) % window)] = frame_ms;
  ring_cpu_ms_[size_t((since - 1) % window)] = cpu_ms;
  measured_frames_ = since;
  // Done at the end time, once both windows and both memory cycles are whole and apart.
  return elapsed >= end && since >= 2 * std::max(window, cycle);
}

int Soak::finish(uint64_t gl_errors) const {
  // The floor over the last cycle against the floor over the first (the ring: the last cycle).
  const int last_cycle_frames = std::min(measured_frames_, int(ring_memory_kb_.size()));
  long last_floor_kb = last_cycle_frames > 0 ? ring_memory_kb_[0] : 0;
  for (int i = 1; i < last_cycle_frames; ++i)
    last_floor_kb = std::min(last_floor_kb, ring_memory_kb_[size_t(i)]);
  const double growth = first_floor_kb_ > 0 ? 100.0 * double(last_floor_kb - first_floor_kb_) /
                                                  double(first_floor_kb_)
                                            : 0.0;
  auto mean = [](double sum, int frames) { return frames ? sum / frames : 0.0; };
  const double first = mean(first_window_ms_, first_window_frames_);
  double last_window_ms = 0.0, last_window_cpu_ms = 0.0;
  const int last_window_frames = std::min(measured_frames_, int(ring_ms_.size()));
  for (int i = 0; i < last_window_frames; ++i) {
    last_window_ms += ring_ms_[size_t(i)];
    last_window_cpu_ms += ring_cpu_ms_[size_t(i)];
  }
  const double last = mean(last_window_ms, last_window_frames);
  const double first_cpu = mean(first_window_cpu_ms_, first_window_frames_);
  const double last_cpu = mean(last_window_cpu_ms, last_window_frames);
  // Creep: the last window's mean CPU time per frame well above the first's (with slack for
  // noise). Wall-clock frame time follows whatever else runs on the machine, so it is reported
  // only.
  const bool creeping = first_cpu > 0.0 && last_cpu > 1.5 * first_cpu + 5.0;
  const bool warmed = warm_at_ >= 0.0;
  const bool ok = warmed && growth < 5.0 && gl_errors == 0 && !creeping;
  std::printf(
      "soak: %s seconds=%.0f warmup_s=%.1f frames=%d opens=%d memory=%s "
      "floor_first_cycle_kb=%ld floor_last_cycle_kb=%ld growth_percent=%.2f rss_peak_kb=%ld "
      "gl_errors=%llu frame_ms_first=%.2f frame_ms_last=%.2f cpu_ms_per_frame_first=%.2f "
      "cpu_ms_per_frame_last=%.2f\n",
      ok ? "ok" : "FAILED", seconds_, warm_at_, frames_, opens_, heap_known_ ? "heap" : "rss",
      first_floor_kb_, last_floor_kb, growth, rss_peak_kb_,
      static_cast<unsigned long long>(gl_errors), first, last, first_cpu, last_cpu);
  std::fflush(stdout);
  return ok ? 0 : 1;
}

}  // namespace rigview
