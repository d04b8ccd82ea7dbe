#include "viewer/skin_history.h"

#include <cstring>
#include <utility>

namespace rigview {

namespace {

template <typename T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

}  // namespace

SkinState capture_skin_state(const rig::SkinLayer& layer) {
  SkinState s;
  const std::vector<rig::SkinMesh>& primitives = layer.meshes().primitives;
  s.slots.reserve(primitives.size());
  for (const rig::SkinMesh& m : primitives) {
    s.slots.push_back(m.influences);
    s.joints.push_back(m.joints);
    s.weights.push_back(m.weights);
  }
  for (size_t k = 0; k < layer.skin_count(); ++k) {
    const std::span<const glm::mat4> ibm = layer.inverse_bind(k);
    s.inverse_bind.emplace_back(ibm.begin(), ibm.end());
  }
  return s;
}

SkinEditStep diff_skin_states(std::string label, const SkinState& before, const SkinState& after) {
  SkinEditStep step;
  step.label = std::move(label);
  const size_t primitives = std::min(before.slots.size(), after.slots.size());
  for (size_t p = 0; p < primitives; ++p) {
    if (before.slots[p] == after.slots[p] && same_bits(before.joints[p], after.joints[p]) &&
        same_bits(before.weights[p], after.weights[p]))
      continue;
    step.primitives.push_back({uint32_t(p), before.slots[p], after.slots[p], before.joints[p],
                               after.joints[p], before.weights[p], after.weights[p]});
  }
  const size_t skins = std::min(before.inverse_bind.size(), after.inverse_bind.size());
  for (size_t k = 0; k < skins; ++k) {
    if (same_bits(before.inverse_bind[k], after.inverse_bind[k])) continue;
    step.skins.push_back({uint32_t(k), before.inverse_bind[k], after.inverse_bind[k]});
  }
  return step;
}

void restore_skin_influences(const SkinState& state, rig::SkinLayer& layer) {
  std::string ignored;  // the same layout as the layer it was captured from: nothing refused
  for (size_t p = 0; p < state.slots.size(); ++p)
    layer.restore_influences(uint32_t(p), state.slots[p], state.joints[p], state.weights[p],
                             ignored);
}

bool apply_skin_step(const SkinEditStep& step, bool after, rig::SkinLayer& layer,
                     std::string& error) {
  for (const PrimitiveChange& c : step.primitives) {
    if (!layer.restore_influences(c.primitive, after ? c.slots_after : c.slots_before,
                                  after ? c.joints_after : c.joints_before,
                                  after ? c.weights_after : c.weights_before, error))
      return false;
  }
  for (const SkinChange& c : step.skins) {
    const std::vector<glm::mat4>& m = after ? c.after : c.before;
    for (size_t j = 0; j < m.size(); ++j)
      if (!layer.set_inverse_bind(c.skin, j, m[j], error)) return false;
  }
  return true;
}

bool SkinHistory::record(std::string label, const SkinState& before, const rig::SkinLayer& now) {
  return record(diff_skin_states(std::move(label), before, capture_skin_state(now)));
}

bool SkinHistory::record(SkinEditStep step) {
  if (step.empty()) return false;
  steps_.resize(position_);  // what could be redone is gone
  if (saved_ != kUnreachable && saved_ > position_) saved_ = kUnreachable;
  steps_.push_back(std::move(step));
  ++position_;
  if (steps_.size() > kMaxSteps) {
    steps_.erase(steps_.begin());
    --position_;
    saved_ = saved_ == 0 || saved_ == kUnreachable ? kUnreachable : saved_ - 1;
  }
  return true;
}

bool SkinHistory::undo(rig::SkinLayer& layer, std::string& error) {
  if (!can_undo()) return error = "nothing to undo", false;
  if (!apply_skin_step(steps_[position_ - 1], false, layer, error)) return false;
  --position_;
  return true;
}

bool SkinHistory::redo(rig::SkinLayer& layer, std::string& error) {
  if (!can_redo()) return error = "nothing to redo", false;
  if (!apply_skin_step(steps_[position_], true, layer, error)) return false;
  ++position_;
  return true;
}

}  // namespace rigview
