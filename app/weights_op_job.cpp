#include "weights_op_job.h"

namespace rigview {

void WeightsOpJob::start(const rig::Model& model, const rig::SkinLayer& layer, WeightsOp op) {
  cancel();
  op_ = std::move(op);
  result_ = {};
  // The copy is made here, on the UI thread: edits after start() do not reach the operation.
  edited_ = std::make_shared<rig::SkinLayer>(layer);
  launch([this, &model](std::string& error) {
    const WeightsOpProgress progress{report, report_user()};
    return apply_weights_op(op_, model, edited_, result_, error, progress) && !result_.cancelled;
  });
}

}  // namespace rigview
