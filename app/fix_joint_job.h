// The viewer's "Fix this joint" (analysis/fix_joint.h) on a worker thread: start() searches on
// a copy of the skin layer; the UI polls progress() and, once done(), takes the fixed layer.
// Destroying the job (the document's derived product, dropped by any edit of what it read)
// cancels the search and joins the thread, so the model must outlive the job.
#pragma once

#include <string>

#include "analysis/fix_joint.h"
#include "worker_job.h"

namespace rigview {

class FixJointJob : public WorkerJob {
 public:
  ~FixJointJob() override { cancel(); }

  void start(const rig::Model& model, const rig::SkinLayer& layer, rig::FixJointOptions options);
  // Once done(): the result and the fixed layer (a copy of the original when nothing improved).
  const rig::FixJointResult& result() const { return result_; }
  const rig::SkinLayer& fixed() const { return fixed_; }
  const rig::FixJointOptions& options() const { return options_; }

 private:
  // Written by the worker before done().
  rig::FixJointResult result_;
  rig::SkinLayer fixed_;
  rig::FixJointOptions options_;
};

}  // namespace rigview
