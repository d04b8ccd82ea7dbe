// Skinning artefact analysis of one model for the app: the live measures of the current pose for
// the methods on screen (the viewer runs it every frame while the Artefacts panel or an artefact
// heat map is shown; --output renders once), the heat-map fields, and a background scan of a
// clip with progress and cancel (the viewer's curves).
#pragma once

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include "analysis/artefact_fields.h"
#include "analysis/skinning_artefacts.h"
#include "character/character.h"

namespace rigview {

struct RankedJoint {
  int skin = 0, joint = 0;  // skin joint index
  float score = 0.0f;
};

class ArtefactAnalysis {
 public:
  // Builds the per-model constants (segments, areas, welding, rest pose). Allocates.
  ArtefactAnalysis(const rig::Model& model, const rig::SkinLayer& skin);
  // With constants made before: they read only the model and the inverse bind matrices, so a
  // weight edit need not rebuild them (Document::artefact_setup keeps them).
  ArtefactAnalysis(const rig::Model& model, std::shared_ptr<const rig::ArtefactSetup> setup);
  ~ArtefactAnalysis();  // cancels and joins a running scan
  ArtefactAnalysis(const ArtefactAnalysis&) = delete;
  ArtefactAnalysis& operator=(const ArtefactAnalysis&) = delete;

  // The current pose, for each of `methods`. Allocates only the first time a method is seen.
  void analyze(const rig::Character& character, std::span<const rig::SkinningMethod> methods);
  // The last analysis of `method`, or null when it was not among the last analyze()'s methods.
  const rig::ArtefactFrame* frame(rig::SkinningMethod method) const;
  // Joints with a score under `method` in the last analysis, worst first.
  std::span<const RankedJoint> ranked_joints(rig::SkinningMethod method) const;
  // Per draw item, per vertex: ‖v′(a) − v′(b)‖ / D_rest from the last analysis (both methods must
  // have been analysed), and its largest value.
  float difference(rig::SkinningMethod a, rig::SkinningMethod b);
  const std::vector<std::vector<float>>& difference_field() const { return difference_; }

  // Background scan of `clip` for every method, the mix with `dqs_amounts` (per node,
  // rig::Character::set_dqs_amounts; empty: all 0). Restarts (cancelling the running one) when
  // the clip or the amounts differ from the last request; otherwise keeps the running or
  // finished scan. Comparing the amounts allocates nothing.
  void request_scan(int clip, std::span<const float> dqs_amounts = {});
  void cancel_scan();
  bool scanning() const { return running_.load(std::memory_order_acquire); }
  float scan_progress() const { return progress_.load(std::memory_order_relaxed); }
  // The finished scan of the last requested clip, null while it runs or after a cancel.
  const rig::ClipScan* scan() const;
  int scan_clip() const { return scan_clip_; }

  const rig::ArtefactSetup& setup() const { return *setup_; }

  // Heat maps of the last analysis: each method's deflation, and the difference of the first two
  // table methods (LBS vs DQS). Refilled by refresh_fields(); no allocation once shaped.
  void refresh_deflation_field(rig::SkinningMethod method);
  void refresh_difference_field();
  const rig::analysis::ScalarField& deflation_field(rig::SkinningMethod m) const {
    return deflation_fields_[size_t(m)];
  }
  const rig::analysis::ScalarField& difference_field_view() const { return difference_view_; }
  static constexpr rig::SkinningMethod kDifferenceA = rig::SkinningMethod::Linear;
  static constexpr rig::SkinningMethod kDifferenceB = rig::SkinningMethod::DualQuaternion;

 private:
  void join();

  const rig::Model* model_;
  std::shared_ptr<const rig::ArtefactSetup> setup_;
  std::array<std::unique_ptr<rig::ArtefactFrame>, rig::kSkinningMethodCount> frames_;
  std::array<bool, rig::kSkinningMethodCount> analysed_{};
  std::array<std::vector<RankedJoint>, rig::kSkinningMethodCount> ranked_;
  std::vector<std::vector<float>> difference_;
  std::array<rig::analysis::ScalarField, rig::kSkinningMethodCount> deflation_fields_;
  rig::analysis::ScalarField difference_view_;

  std::thread worker_;
  std::atomic<bool> cancel_{false}, running_{false}, finished_{false};
  std::atomic<float> progress_{0.0f};
  int scan_clip_ = -1;
  std::vector<float> scan_amounts_;  // the dqs_amounts of the last request
  rig::ClipScan result_;             // written by the worker, read once finished_ is set
};

// --focus: the node of the joint named `focus` (the first node, in node order, with that name
// that is a joint of some skin), or for "worst" the joint `analysis` ranks first for `method`
// (after analysis->analyze(character, {method}); needed for "worst" only). -1 and a one-line
// error when there is none.
int focus_joint(const std::string& focus, const rig::Model& model, const ArtefactAnalysis* analysis,
                rig::SkinningMethod method, std::string& error);

}  // namespace rigview
