#include "render/gpu_timer.h"

namespace rig::render::detail {

void GpuTimer::init() {
  glGenQueries(kQueries, queries_.data());
  created_ = true;
}

void GpuTimer::release() {
  if (created_) glDeleteQueries(kQueries, queries_.data());
  queries_ = {};
  pending_ = {};
  active_ = false;
  created_ = false;
}

void GpuTimer::store(int slot) {
  GLuint64 ns = 0;
  glGetQueryObjectui64v(queries_[slot], GL_QUERY_RESULT, &ns);
  last_ms_ = double(ns) * 1e-6;
  pending_[slot] = false;
}

// Oldest first (next_ is the oldest slot), so the newest finished result is the one kept.
// Queries finish in order: the first one not yet available ends the scan.
void GpuTimer::collect_finished() {
  for (int k = 0; k < kQueries; ++k) {
    const int slot = (next_ + k) % kQueries;
    if (!pending_[slot]) continue;
    GLint available = 0;
    glGetQueryObjectiv(queries_[slot], GL_QUERY_RESULT_AVAILABLE, &available);
    if (!available) break;
    store(slot);
  }
}

void GpuTimer::begin() {
  if (!created_ || active_) return;
  collect_finished();
  if (pending_[next_]) store(next_);  // ring full: wait for the oldest
  glBeginQuery(GL_TIME_ELAPSED, queries_[next_]);
  active_ = true;
}

void GpuTimer::end() {
  if (!active_) return;
  glEndQuery(GL_TIME_ELAPSED);
  pending_[next_] = true;
  next_ = (next_ + 1) % kQueries;
  active_ = false;
  collect_finished();
}

}  // namespace rig::render::detail
