// The Learn tab's Mistakes: each classic skinning mistake (the pitfalls of skin/pitfalls.h and
// the simulated rigging bugs of analysis/simulated_bugs.h) drawn beside the right way in two
// compare columns, right on the left, wrong on the right, each captioned, with one line of what
// went wrong and why. Both columns are skinned on the CPU by rig::Character::skin_draw_item, the
// path --pitfall and --simulate-bug take on the command line, from two characters posed with the
// document's pose settings: the right one on the document's model and skin layer (for a bug, the
// file as opened when the document shows a Teaching aids bug), the wrong one making the mistake
// (Character::set_pitfalls; the weight pitfalls' layer of app/learn_pose.h; a copy of the model
// with the bug simulated). No ImGui, no GL.
#pragma once

#include <array>
#include <cstdint>
#include <glm/glm.hpp>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "analysis/scalar_field.h"
#include "character/character.h"
#include "character/pose_builder.h"
#include "model/revisions.h"
#include "viewer/document.h"
#include "viewer/viewer_state.h"

namespace rigview {

enum class MistakeKind : uint8_t { Pitfall, Bug };

struct Mistake {
  const char* name;  // the --pitfall or --simulate-bug name
  MistakeKind kind;
  int index;            // a rig::Pitfall, or an index in rig::kSimulatedBugs
  const char* caption;  // one line: what went wrong and why (plain ASCII: the viewer's font)
};

inline constexpr int kMistakeCount = 9;
// The five pitfalls in skin/pitfalls.h's order, then the four simulated bugs in theirs. Row i
// is switched by Ctrl+(i+1) (viewer/actions.h).
std::span<const Mistake> mistakes();
int find_mistake(std::string_view name);  // -1: none of that name

// Row `mistake` on, or off when it is the one on (one at a time; -1 switches every one off).
// Nothing else of the state changes, so switching off gives back exactly the view before. The
// crowd draws no compare columns: nothing then.
void toggle_mistake(ViewerState& state, int mistake);

// The method both columns skin with: no-hemisphere DQS, raw-weights LBS (where each acts);
// otherwise the single view's method when it is LBS or DQS, else LBS.
rig::SkinningMethod mistake_method(int mistake, rig::SkinningMethod shown);

// The two compare columns' labels: "right: LBS", "wrong: lerp-quaternions (LBS)". No allocation.
void mistake_label(int mistake, int column, rig::SkinningMethod method, char* out, size_t size);

// The two posed, CPU-skinned characters of the mistake on.
class MistakeView {
 public:
  MistakeView();
  ~MistakeView();
  MistakeView(const MistakeView&) = delete;
  MistakeView& operator=(const MistakeView&) = delete;

  // Makes the characters for `mistake` on `doc` when the mistake or the document's model,
  // weights, inverse bind matrices or clips changed since (allocating); nothing otherwise.
  void prepare(const Document& doc, int mistake);
  void clear();
  // Per frame, after the document's pose: both characters posed as the document's character is
  // (its Posing settings over `selection`; average-matrices adds a crossfade to the next clip at
  // weight 0.5 when none runs, since without one there is nothing to average), then skinned on
  // the CPU with mistake_method. The four-influences error field refilled. No allocation.
  void update(const Document& doc, const rig::PoseSelection& selection, rig::SkinningMethod shown);

  bool active() const { return mistake_ >= 0; }
  int mistake() const { return mistake_; }
  rig::SkinningMethod method() const { return method_; }
  // Column 0 (right) or 1 (wrong): draw item d's world-space positions and unit normals.
  std::span<const glm::vec3> positions(int column, size_t d) const { return pos_[column][d]; }
  std::span<const glm::vec3> normals(int column, size_t d) const { return nrm_[column][d]; }
  size_t draw_count() const { return pos_[0].size(); }
  // four-influences: per vertex |wrong - right| (metres) as a heat map from 0 to the largest;
  // null for the others.
  const rig::analysis::ScalarField* error_field() const { return with_field_ ? &field_ : nullptr; }
  float largest_error() const { return largest_error_; }
  // The crossfade average-matrices added (-1: none), and the largest |wrong - right| over every
  // vertex this frame (metres), the figure the probe reports for every mistake.
  int added_blend_clip() const { return added_blend_; }
  float largest_difference() const { return largest_difference_; }

 private:
  int mistake_ = -1;
  rig::RevisionStamp made_;
  rig::SkinningMethod method_ = rig::SkinningMethod::Linear;
  std::unique_ptr<rig::Model> bug_model_;       // a simulated bug's copy of the model
  std::shared_ptr<const rig::Model> pristine_;  // the right column's model when not the document's
  std::unique_ptr<rig::Character> right_, wrong_;
  std::unique_ptr<rig::PoseBuilder> right_builder_, wrong_builder_;
  rig::PoseSettings settings_;  // assigned per frame: its vectors keep their capacity
  std::array<std::vector<std::vector<glm::vec3>>, 2> pos_, nrm_;
  rig::analysis::ScalarField field_;
  bool with_field_ = false;
  float largest_error_ = 0.0f, largest_difference_ = 0.0f;
  int added_blend_ = -1;
};

}  // namespace rigview
