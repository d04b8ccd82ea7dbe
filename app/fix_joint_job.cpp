#include "fix_joint_job.h"

namespace rigview {

void FixJointJob::start(const rig::Model& model, const rig::SkinLayer& layer,
                        rig::FixJointOptions options) {
  cancel();
  cancel_ = false;
  done_ = false;
  progress_ = 0.0f;
  succeeded_ = false;
  options_ = options;
  // The copy is made here, on the UI thread: edits after start() do not reach the search.
  auto copy = std::make_shared<rig::SkinLayer>(layer);
  thread_ = std::thread([this, &model, copy, options]() {
    auto report = [](void* user, float fraction) {
      auto* self = static_cast<FixJointJob*>(user);
      self->progress_ = fraction;
      return !self->cancel_.load();
    };
    succeeded_ = rig::fix_joint(model, *copy, options, fixed_, result_, error_, report, this);
    done_ = true;
  });
}

void FixJointJob::cancel() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace rigview
