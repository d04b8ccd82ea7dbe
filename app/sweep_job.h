// The viewer's range-of-motion Sweep (analysis/range_of_motion.h) of one joint on a worker
// thread, on a character of its own (a copy of the skin layer and of the clip set, so the UI's
// edits never reach it mid-sweep): the joint turned about each local axis from −D to +D on top of
// the pose the viewer shows, each step measured for each method. Destroying the job cancels the
// sweep and joins the thread; the model must outlive the job.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "analysis/range_of_motion.h"
#include "anim/clip_set.h"
#include "character/character.h"
#include "worker_job.h"

namespace rigview {

class SweepJob : public WorkerJob {
 public:
  ~SweepJob() override { cancel(); }

  // `layer` with centres of rotation when a method needs them; `clips` the character's clip set
  // (copied, raw sources); `base` the pose to sweep on (its compressed playback is dropped).
  void start(const rig::Model& model, const rig::SkinLayer& layer, const rig::ClipSet& clips,
             rig::PoseSettings base, int node, std::vector<rig::SkinningMethod> methods,
             float degrees, int steps);
  // Once done(): the job's layout (angles, index) and its samples.
  const rig::RangeOfMotionJob& job() const { return job_; }
  const std::vector<rig::RangeOfMotionSample>& samples() const { return samples_; }
  const std::vector<rig::SkinningMethod>& methods() const { return methods_; }

 private:
  int node_ = -1;
  std::vector<rig::SkinningMethod> methods_;
  rig::PoseSettings base_;
  rig::RangeOfMotionJob job_;
  std::vector<rig::RangeOfMotionSample> samples_;
};

}  // namespace rigview
