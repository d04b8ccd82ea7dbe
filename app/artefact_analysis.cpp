#include "artefact_analysis.h"

#include <algorithm>
#include <cmath>

namespace rigview {

ArtefactAnalysis::ArtefactAnalysis(const rig::Model& model, const rig::SkinLayer& skin)
    : ArtefactAnalysis(model, std::make_shared<const rig::ArtefactSetup>(
                                  rig::ArtefactSetup::build(model, skin))) {}

ArtefactAnalysis::ArtefactAnalysis(const rig::Model& model,
                                   std::shared_ptr<const rig::ArtefactSetup> setup)
    : model_(&model), setup_(std::move(setup)) {
  difference_.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    difference_[d].assign(
        model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count(), 0.0f);
  }
  size_t joints = 0;
  for (const rig::Skin& s : model.skins) joints += s.joints.size();
  for (std::vector<RankedJoint>& r : ranked_) r.reserve(joints);
}

ArtefactAnalysis::~ArtefactAnalysis() { cancel_scan(); }

void ArtefactAnalysis::analyze(const rig::Character& character,
                               std::span<const rig::SkinningMethod> methods) {
  analysed_.fill(false);
  for (rig::SkinningMethod m : methods) {
    const size_t i = size_t(m);
    if (!frames_[i])
      frames_[i] = std::make_unique<rig::ArtefactFrame>(rig::ArtefactFrame::make(*model_));
    rig::analyze_frame(*setup_, character, m, *frames_[i]);
    analysed_[i] = true;
    std::vector<RankedJoint>& ranked = ranked_[i];
    ranked.clear();  // capacity kept: no allocation
    const rig::ArtefactFrame& f = *frames_[i];
    for (size_t s = 0; s < f.joint_scores.size(); ++s)
      for (size_t j = 0; j < f.joint_scores[s].size(); ++j)
        if (!std::isnan(f.joint_scores[s][j]))
          ranked.push_back({int(s), int(j), f.joint_scores[s][j]});
    std::sort(ranked.begin(), ranked.end(),
              [](const RankedJoint& a, const RankedJoint& b) { return a.score > b.score; });
  }
}

const rig::ArtefactFrame* ArtefactAnalysis::frame(rig::SkinningMethod method) const {
  const size_t i = size_t(method);
  return analysed_[i] ? frames_[i].get() : nullptr;
}

std::span<const RankedJoint> ArtefactAnalysis::ranked_joints(rig::SkinningMethod method) const {
  const size_t i = size_t(method);
  return analysed_[i] ? std::span<const RankedJoint>(ranked_[i]) : std::span<const RankedJoint>();
}

float ArtefactAnalysis::difference(rig::SkinningMethod a, rig::SkinningMethod b) {
  const rig::ArtefactFrame* fa = frame(a);
  const rig::ArtefactFrame* fb = frame(b);
  if (!fa || !fb) return 0.0f;
  return rig::method_difference(*setup_, *model_, *fa, *fb, difference_);
}

void ArtefactAnalysis::refresh_deflation_field(rig::SkinningMethod method) {
  if (const rig::ArtefactFrame* f = frame(method))
    rig::analysis::fill_deflation_field(*model_, *f, method, deflation_fields_[size_t(method)]);
}

void ArtefactAnalysis::refresh_difference_field() {
  const float largest = difference(kDifferenceA, kDifferenceB);
  rig::analysis::fill_difference_field(*model_, difference_, largest, kDifferenceA, kDifferenceB,
                                       difference_view_);
}

void ArtefactAnalysis::join() {
  if (worker_.joinable()) worker_.join();
}

void ArtefactAnalysis::cancel_scan() {
  cancel_.store(true, std::memory_order_relaxed);
  join();
  running_.store(false, std::memory_order_release);
  finished_.store(false, std::memory_order_release);
  scan_clip_ = -1;
}

void ArtefactAnalysis::request_scan(int clip, std::span<const float> dqs_amounts) {
  const bool same_amounts = std::equal(dqs_amounts.begin(), dqs_amounts.end(),
                                       scan_amounts_.begin(), scan_amounts_.end());
  if ((clip == scan_clip_ && same_amounts) || clip < 0 || size_t(clip) >= model_->clips.size())
    return;
  cancel_scan();
  scan_clip_ = clip;
  scan_amounts_.assign(dqs_amounts.begin(), dqs_amounts.end());
  cancel_.store(false, std::memory_order_relaxed);
  progress_.store(0.0f, std::memory_order_relaxed);
  running_.store(true, std::memory_order_release);
  worker_ = std::thread([this, clip, amounts = scan_amounts_] {
    rig::ClipScanOptions options;
    options.clip = clip;
    options.dqs_amounts = amounts;
    const auto all = rig::all_skinning_methods();
    options.methods.assign(all.begin(), all.end());
    const bool done = rig::scan_clip(
        *model_, *setup_, options, result_,
        [](void* user, float fraction) {
          auto* self = static_cast<ArtefactAnalysis*>(user);
          self->progress_.store(fraction, std::memory_order_relaxed);
          return !self->cancel_.load(std::memory_order_relaxed);
        },
        this);
    finished_.store(done, std::memory_order_release);
    running_.store(false, std::memory_order_release);
  });
}

const rig::ClipScan* ArtefactAnalysis::scan() const {
  return finished_.load(std::memory_order_acquire) ? &result_ : nullptr;
}

int focus_joint(const std::string& focus, const rig::Model& model, const ArtefactAnalysis* analysis,
                rig::SkinningMethod method, std::string& error) {
  if (focus == "worst") {
    const std::span<const RankedJoint> ranked =
        analysis ? analysis->ranked_joints(method) : std::span<const RankedJoint>();
    if (ranked.empty()) {
      error = "--focus worst: no joint has a deflation score (no skinned triangles?)";
      return -1;
    }
    return model.skins[size_t(ranked[0].skin)].joints[size_t(ranked[0].joint)];
  }
  std::vector<bool> is_joint(model.nodes.size(), false);
  for (const rig::Skin& skin : model.skins)
    for (int node : skin.joints)
      if (node >= 0 && size_t(node) < is_joint.size()) is_joint[size_t(node)] = true;
  for (size_t n = 0; n < model.nodes.size(); ++n)
    if (is_joint[n] && model.nodes[n].name == focus) return int(n);
  error = "--focus: no joint named '" + focus + "'";
  return -1;
}

}  // namespace rigview
