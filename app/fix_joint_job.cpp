#include "fix_joint_job.h"

#include <memory>

namespace rigview {

void FixJointJob::start(const rig::Model& model, const rig::SkinLayer& layer,
                        rig::FixJointOptions options) {
  cancel();
  options_ = options;
  // The copy is made here, on the UI thread: edits after start() do not reach the search.
  auto copy = std::make_shared<rig::SkinLayer>(layer);
  launch([this, &model, copy, options](std::string& error) {
    return rig::fix_joint(model, *copy, options, fixed_, result_, error, report, report_user());
  });
}

}  // namespace rigview
