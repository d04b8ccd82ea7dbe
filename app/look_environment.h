// The studio look's environment for the app: the bundled studio (generated) or a Radiance .hdr
// file, prefiltered for the renderer (render/environment_prefilter.h). --output runs it before
// any GL work; the viewer runs it on a worker (app/viewer: LookEnvironmentJob).
#pragma once

#include <string>

#include "render/environment_prefilter.h"
#include "worker_job.h"

namespace rigview {

// Reads `path` (empty: the bundled studio environment). false + one-line error naming the file.
bool read_environment(const std::string& path, rig::render::EnvironmentMap& out,
                      std::string& error);

// Reads and prefilters. false + one-line error naming the file, or "cancelled".
bool prepare_environment(const std::string& path, rig::render::PrefilteredEnvironment& out,
                         std::string& error, rig::render::PrefilterProgress progress = nullptr,
                         void* user = nullptr);

// The viewer's: reads and prefilters `path` on the worker thread; the UI thread polls done()
// and takes result() once (then uploads it with Renderer::set_environment).
class LookEnvironmentJob : public WorkerJob {
 public:
  ~LookEnvironmentJob() override { cancel(); }
  void start(const std::string& path);
  const std::string& path() const { return path_; }
  rig::render::PrefilteredEnvironment& result() { return result_; }

 private:
  std::string path_;
  rig::render::PrefilteredEnvironment result_;
};

}  // namespace rigview
