// A weights operation (skin_edits.h) on a worker thread, for the ones that take long (the
// Weights tab's Limit with refit, which samples every clip's poses): start() edits a copy of the
// skin layer; the UI polls progress() and, once done(), takes the edited copy as one undoable
// edit. Destroying the job (the document's derived product, dropped by any edit of what it read)
// cancels the operation and joins the thread, so the model must outlive the job.
#pragma once

#include <memory>

#include "skin_edits.h"
#include "worker_job.h"

namespace rigview {

class WeightsOpJob : public WorkerJob {
 public:
  ~WeightsOpJob() override { cancel(); }

  void start(const rig::Model& model, const rig::SkinLayer& layer, WeightsOp op);
  // Once done(): the op, what it did, and the edited copy of the layer.
  const WeightsOp& op() const { return op_; }
  const rig::WeightEditResult& result() const { return result_; }
  const rig::SkinLayer& edited() const { return *edited_; }

 private:
  WeightsOp op_;
  // Written by the worker before done().
  rig::WeightEditResult result_;
  std::shared_ptr<rig::SkinLayer> edited_;
};

}  // namespace rigview
