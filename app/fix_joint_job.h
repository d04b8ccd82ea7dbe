// The viewer's "Fix this joint" (analysis/fix_joint.h) on a worker thread: start() searches on
// a copy of the skin layer; the UI polls progress() and, once done(), takes the fixed layer.
// Destroying the job (the document's derived product, dropped by any edit of what it read)
// cancels the search and joins the thread, so the model must outlive the job.
#pragma once

#include <atomic>
#include <memory>
#include <string>
#include <thread>

#include "analysis/fix_joint.h"

namespace rigview {

class FixJointJob {
 public:
  FixJointJob() = default;
  ~FixJointJob() { cancel(); }
  FixJointJob(const FixJointJob&) = delete;
  FixJointJob& operator=(const FixJointJob&) = delete;

  void start(const rig::Model& model, const rig::SkinLayer& layer, rig::FixJointOptions options);
  void cancel();
  bool running() const { return thread_.joinable() && !done_.load(); }
  bool done() const { return done_.load(); }
  float progress() const { return progress_.load(); }
  // Once done(): whether the search finished (not cancelled, no error), its one-line error, the
  // result and the fixed layer (a copy of the original when nothing improved).
  bool succeeded() const { return done() && succeeded_; }
  const std::string& error() const { return error_; }
  const rig::FixJointResult& result() const { return result_; }
  const rig::SkinLayer& fixed() const { return fixed_; }
  const rig::FixJointOptions& options() const { return options_; }

 private:
  std::thread thread_;
  std::atomic<bool> cancel_{false}, done_{false};
  std::atomic<float> progress_{0.0f};
  // Written by the worker before done_.
  bool succeeded_ = false;
  std::string error_;
  rig::FixJointResult result_;
  rig::SkinLayer fixed_;
  rig::FixJointOptions options_;
};

}  // namespace rigview
