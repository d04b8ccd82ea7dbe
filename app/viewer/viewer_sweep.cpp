// The Joint tab's Sweep (app/sweep_job.h): started for the selected joint on the pose shown,
// cancelled when what it read changes (the model, weights, inverse bind matrices, clips, CoR
// centres), its results copied into the state once, then played back through the joint's hand
// rotation (3 s per axis) or posed at a clicked angle.
#include "character/fk_rotation.h"
#include "viewer/viewer_app.h"

namespace rigview {

namespace {

constexpr float kSweepSecondsPerAxis = 3.0f;

}  // namespace

void Viewer::stop_sweep() {
  sweep_.reset();  // cancels and joins
  state_.sweep.running = false;
  if (state_.sweep.play >= 0.0f) restore_swept_joint();
  state_.sweep.play = -1.0f;
}

void Viewer::restore_swept_joint() {
  const int node = state_.sweep.node;
  if (!doc_.posing || node < 0) return;
  if (sweep_had_rotation_)
    doc_.posing->set_joint_rotation(node, sweep_saved_rotation_);
  else
    doc_.posing->reset_joint(node);
  state_.joint_euler_node = -1;
}

void Viewer::update_sweep(float dt) {
  ViewerRequests& r = state_.requests;
  SweepView& s = state_.sweep;
  if (sweep_ && !sweep_made_.fresh(doc_.revisions)) {
    stop_sweep();
    s.error = "the skin or the clips changed: sweep again";
  }
  if (r.cancel_sweep) {
    r.cancel_sweep = false;
    stop_sweep();
    s.error = "cancelled";
  }
  if (r.sweep) {
    r.sweep = false;
    stop_sweep();
    const int node = state_.selected_node;
    if (node >= 0 && doc_.posing) {
      std::vector<rig::SkinningMethod> methods;
      for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
        // CoR sweeps only once its centres are in the layer.
        if (m.uses_rotation_centers && (state_.methods_preparing >> uint32_t(m.method) & 1u))
          continue;
        methods.push_back(m.method);
      }
      s = SweepView{};
      s.node = node;
      s.running = true;
      sweep_ = std::make_unique<SweepJob>();
      // The pose shown: the posing's layers, IK and edits over the playback's selection (the
      // posing's own base is only filled while it has something to pose).
      rig::PoseSettings base = doc_.posing->settings();
      base.base = state_.rest_pose ? rig::PoseSelection{} : doc_.playback.selection();
      sweep_->start(*doc_.model, *doc_.skin, doc_.character->clips(), std::move(base), node,
                    methods, s.degrees, s.steps);
      sweep_made_.take(doc_.revisions);
    }
  }
  if (sweep_ && sweep_->done()) {
    if (sweep_->succeeded()) {
      const rig::RangeOfMotionJob& job = sweep_->job();
      s.methods = sweep_->methods();
      s.scores.assign(sweep_->samples().size(), 0.0f);
      s.score_max = 0.0f;
      for (size_t i = 0; i < s.scores.size(); ++i) {
        s.scores[i] = sweep_->samples()[i].score;
        if (std::isfinite(s.scores[i])) s.score_max = std::max(s.score_max, s.scores[i]);
      }
      s.steps = job.steps;
      s.degrees = job.degrees;
      r.play_sweep = true;  // the sweep animates once it is measured
    } else {
      s.error = sweep_->error();
    }
    s.running = false;
    sweep_.reset();
  }
  if (sweep_) s.progress = sweep_->progress();
  if (!doc_.posing || s.node < 0 || s.scores.empty()) return;
  if (r.play_sweep) {
    r.play_sweep = false;
    sweep_had_rotation_ = doc_.posing->has_joint_rotation(s.node);
    sweep_saved_rotation_ = doc_.posing->joint_rotation(s.node);
    s.play = 0.0f;
  }
  if (r.pose_sweep) {
    r.pose_sweep = false;
    if (s.play < 0.0f) {
      sweep_had_rotation_ = doc_.posing->has_joint_rotation(s.node);
      sweep_saved_rotation_ = doc_.posing->joint_rotation(s.node);
    }
    s.play = -1.0f;
    doc_.posing->set_joint_rotation(
        s.node, sweep_saved_rotation_ * rig::local_axis_rotation(s.posed_axis, s.posed_angle));
    state_.joint_euler_node = -1;
  }
  if (s.play >= 0.0f) {
    s.play += dt / kSweepSecondsPerAxis;
    if (s.play >= 3.0f) {
      s.play = -1.0f;
      restore_swept_joint();
      return;
    }
    const int axis = int(s.play);
    const float angle = -s.degrees + 2.0f * s.degrees * (s.play - float(axis));
    doc_.posing->set_joint_rotation(s.node,
                                    sweep_saved_rotation_ * rig::local_axis_rotation(axis, angle));
    state_.joint_euler_node = -1;
  }
}

}  // namespace rigview
