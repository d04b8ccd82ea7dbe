#include "sweep_job.h"

#include "character/pose_builder.h"

namespace rigview {

void SweepJob::start(const rig::Model& model, const rig::SkinLayer& layer,
                     const rig::ClipSet& clips, rig::PoseSettings base, int node,
                     std::vector<rig::SkinningMethod> methods, float degrees, int steps) {
  cancel();
  node_ = node;
  methods_ = std::move(methods);
  base_ = std::move(base);
  base_.compressed = false;
  // Copies made here, on the UI thread: what the UI edits later does not reach the sweep.
  auto own_layer = std::make_shared<rig::SkinLayer>(layer);
  auto own_clips = std::make_shared<rig::ClipSet>(clips);
  own_clips->restore_all();
  launch([this, &model, own_layer, own_clips, degrees, steps](std::string& error) {
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
    const bool ran = job_.validate(error) && job_.run(report, report_user());
    // The setup, builder and character die with this scope: the job's pointers must not be read.
    job_.setup = nullptr, job_.builder = nullptr, job_.character = nullptr, job_.base = nullptr;
    return ran;
  });
}

}  // namespace rigview
