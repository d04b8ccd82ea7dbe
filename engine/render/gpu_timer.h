// GPU time of a span of commands: GL_TIME_ELAPSED over a small ring of queries, so nothing
// stalls; the newest finished measurement is kept.
#pragma once

#include <glad/gl.h>

#include <array>

namespace rig::render::detail {

class GpuTimer {
 public:
  void init();
  void release();
  void begin();
  void end();
  double last_ms() const { return last_ms_; }  // < 0 before the first result

 private:
  static constexpr int kQueries = 4;
  void collect_finished();
  void store(int slot);

  std::array<GLuint, kQueries> queries_{};
  std::array<bool, kQueries> pending_{};
  int next_ = 0;
  bool active_ = false;
  bool created_ = false;
  double last_ms_ = -1.0;
};

}  // namespace rig::render::detail
