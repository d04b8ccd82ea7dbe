#include "sweep_job.h"

#include "character/pose_builder.h"

namespace rigview {

void SweepJob::start(const rig::Model& model, const rig::SkinLayer& layer,
                     const rig::ClipSet& clips, rig::PoseSettings base, int node,
                     std::vector<rig::SkinningMethod> methods, float degrees, int steps) {
  cancel();
  cancel_ = false;
  done_ = false;
  progress_ = 0.0f;
  succeeded_ = false;
  node_ = node;
  methods_ = std::move(methods);
  base_ = std::move(base);
  base_.compressed = false;
  // Copies made here, on the UI thread: what the UI edits later does not reach the sweep.
  auto own_layer = std::make_shared<rig::SkinLayer>(layer);
  auto own_clips = std::make_shared<rig::ClipSet>(clips);
  own_clips->restore_all();
  thread_ = std::thread([this, &model, own_layer, own_clips, degrees, steps]() {
    rig::Character character(model, own_layer, own_clips);
    rig::PoseBuilder builder(character);
    const rig::ArtefactSetup setup = rig::ArtefactSetup::build(model, *own_layer);
    job_ = rig::RangeOfMotionJob{};
    job_.setup = &setup;
    job_.builder = &builder;
    job_.character = &character;
    job_.base = &base_;
    job_.joints = {&node_, 1};
    job_.methods = methods_;
    job_.degrees = degrees;
    job_.steps = steps;
    samples_.assign(job_.sample_count(), {});
    job_.out = samples_;
    if (!job_.validate(error_)) {
      done_ = true;
      return;
    }
    auto report = [](void* user, float fraction) {
      auto* self = static_cast<SweepJob*>(user);
      self->progress_ = fraction;
      return !self->cancel_.load();
    };
    succeeded_ = job_.run(report, this);
    if (!succeeded_ && error_.empty()) error_ = "cancelled";
    // The setup, builder and character die with this scope: the job's pointers must not be read.
    job_.setup = nullptr, job_.builder = nullptr, job_.character = nullptr, job_.base = nullptr;
    done_ = true;
  });
}

void SweepJob::cancel() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

}  // namespace rigview
