// Undo and redo of the skin layer's edits (weights and inverse bind matrices), and whether the
// layer differs from what was last saved. A step keeps, for each prepared primitive and each
// skin the edit changed, the whole before and after state, so undo and redo restore the layer
// bit for bit (a primitive widened from 4 to 8 slots goes back to 4). No ImGui: the viewer's
// Weights tab, its keys and the edit journal drive it.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <string>
#include <vector>

#include "skin/skin_layer.h"

namespace rigview {

// Everything a SkinLayer edit can change: per prepared primitive its slots, joints and
// weights; per skin its inverse bind matrices.
struct SkinState {
  std::vector<uint32_t> slots;
  std::vector<std::vector<uint16_t>> joints;
  std::vector<std::vector<float>> weights;
  std::vector<std::vector<glm::mat4>> inverse_bind;
};

// A copy of `layer`'s state (allocates: once per edit, not per frame).
SkinState capture_skin_state(const rig::SkinLayer& layer);
// Puts `state`'s influences (not its inverse bind matrices) into `layer`, which must have the
// same prepared primitives: a background job's edited copy taken back as an edit.
void restore_skin_influences(const SkinState& state, rig::SkinLayer& layer);

// One primitive's or one skin's state on either side of a step.
struct PrimitiveChange {
  uint32_t primitive = 0;
  uint32_t slots_before = 0, slots_after = 0;
  std::vector<uint16_t> joints_before, joints_after;
  std::vector<float> weights_before, weights_after;
};
struct SkinChange {
  uint32_t skin = 0;
  std::vector<glm::mat4> before, after;
};

// An edit of the clip set (viewer/clip_history.h) shares the history, so one Undo walks back
// through skin and clip edits in the order they were made.
struct ClipEditStep;

struct SkinEditStep {
  std::string label;  // "Normalize", "Smooth 0.5 × 10", … (the Undo item's text)
  std::vector<PrimitiveChange> primitives;
  std::vector<SkinChange> skins;
  std::shared_ptr<const ClipEditStep> clips;  // a clip edit instead (no skin change)
  bool empty() const { return primitives.empty() && skins.empty() && !clips; }
};

// The difference between `before` and `after` (bitwise: a weight rewritten with the same
// value is no change). `before` and `after` must come from the same layer.
SkinEditStep diff_skin_states(std::string label, const SkinState& before, const SkinState& after);

// Puts one side of `step` into `layer` (SkinLayer::restore_influences, set_inverse_bind).
// false + one-line error when the layer does not fit the step (then nothing is promised).
bool apply_skin_step(const SkinEditStep& step, bool after, rig::SkinLayer& layer,
                     std::string& error);

class SkinHistory {
 public:
  // At most this many steps are kept; the oldest is dropped first.
  static constexpr size_t kMaxSteps = 64;

  // Records what changed between `before` and the layer now as one step, dropping the steps
  // that could be redone. Returns false (nothing recorded) when nothing changed.
  bool record(std::string label, const SkinState& before, const rig::SkinLayer& now);
  // A step made elsewhere (a recovered journal): recorded as it is, unless empty.
  bool record(SkinEditStep step);

  bool can_undo() const { return position_ > 0; }
  bool can_redo() const { return position_ < steps_.size(); }
  // The step an undo (redo) would apply, for its label and for which inputs it touches.
  const SkinEditStep* next_undo() const { return can_undo() ? &steps_[position_ - 1] : nullptr; }
  const SkinEditStep* next_redo() const { return can_redo() ? &steps_[position_] : nullptr; }
  bool undo(rig::SkinLayer& layer, std::string& error);
  bool redo(rig::SkinLayer& layer, std::string& error);

  // Whether the layer differs from its state at the last mark_saved (or at the start).
  bool modified() const { return position_ != saved_; }
  void mark_saved() { saved_ = position_; }
  size_t size() const { return steps_.size(); }
  size_t position() const { return position_; }

 private:
  std::vector<SkinEditStep> steps_;
  size_t position_ = 0;  // steps_[0, position_) are applied
  // The position the layer was saved at; kUnreachable once that state was dropped.
  static constexpr size_t kUnreachable = ~size_t{0};
  size_t saved_ = 0;
};

}  // namespace rigview
