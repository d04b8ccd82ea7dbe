#include "viewer/mistakes.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "analysis/simulated_bugs.h"
#include "learn_pose.h"
#include "skin/pitfalls.h"

namespace rigview {

namespace {

constexpr rig::InputMask kMistakeInputs =
    rig::inputs({rig::Input::Model, rig::Input::SkinWeights, rig::Input::InverseBindMatrices,
                 rig::Input::ClipSet});

constexpr std::array<Mistake, kMistakeCount> kMistakes = {{
    {"lerp-quaternions", MistakeKind::Pitfall, int(rig::Pitfall::LerpQuaternions),
     "Rotation keys lerped, not slerped, and not normalized: between keys |q| < 1, and the unit "
     "formula then shrinks each limb across its axis by |q|^2."},
    {"average-matrices", MistakeKind::Pitfall, int(rig::Pitfall::AverageMatrices),
     "A crossfade that averages the finished world matrices entry by entry: an average of two "
     "rotations is no rotation, so limbs shrink half way."},
    {"no-hemisphere", MistakeKind::Pitfall, int(rig::Pitfall::NoHemisphere),
     "DQS blended without flipping each quaternion into the pivot's hemisphere: q and -q are one "
     "rotation, but they cancel in the sum and the skin turns the long way."},
    {"raw-weights", MistakeKind::Pitfall, int(rig::Pitfall::RawWeights),
     "The file's weights used without renormalizing: weights summing to 1.2 (0.7 + 0.5) scale "
     "the vertex 1.2 times about the origin under LBS."},
    {"four-influences", MistakeKind::Pitfall, int(rig::Pitfall::FourInfluences),
     "Each vertex keeps its 4 largest weights, renormalized: the colours are each vertex's "
     "distance from where the full set puts it."},
    {"no-ibm", MistakeKind::Bug, 0,
     "The skinning matrix without the inverse bind matrix: the bind offset is applied twice and "
     "the mesh flies apart."},
    {"translation-only-ibm", MistakeKind::Bug, 1,
     "An inverse bind matrix that only negates the bind translation: the joint's bind rotation "
     "is never taken out, so its vertices turn with it."},
    {"reversed-multiply", MistakeKind::Bug, 2,
     "IBM x world instead of world x IBM: the same in the bind pose, torn apart as soon as the "
     "joints move."},
    {"shifted-joints", MistakeKind::Bug, 3,
     "Joint indices off by one: every vertex follows the next joint's matrix."},
}};

float distance_between(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b,
                       std::vector<float>* out) {
  float largest = 0.0f;
  const size_t n = std::min(a.size(), b.size());
  for (size_t v = 0; v < n; ++v) {
    const float d = glm::length(a[v] - b[v]);
    largest = std::max(largest, d);
    if (out) (*out)[v] = d;
  }
  return largest;
}

}  // namespace

std::span<const Mistake> mistakes() { return kMistakes; }

int find_mistake(std::string_view name) {
  for (size_t i = 0; i < kMistakes.size(); ++i)
    if (name == kMistakes[i].name) return int(i);
  return -1;
}

void toggle_mistake(ViewerState& state, int mistake) {
  if (state.crowd_count > 0) return;
  const bool valid = mistake >= 0 && mistake < kMistakeCount;
  state.learn.mistake = valid && state.learn.mistake != mistake ? mistake : -1;
  if (state.learn.mistake >= 0) {
    const rig::SkinningMethod m = mistake_method(state.learn.mistake, state.method);
    state.learn.mistake_columns = {m, m};
  }
}

rig::SkinningMethod mistake_method(int mistake, rig::SkinningMethod shown) {
  if (mistake == int(rig::Pitfall::NoHemisphere)) return rig::SkinningMethod::DualQuaternion;
  if (mistake == int(rig::Pitfall::RawWeights)) return rig::SkinningMethod::Linear;
  return shown == rig::SkinningMethod::DualQuaternion ? shown : rig::SkinningMethod::Linear;
}

void mistake_label(int mistake, int column, rig::SkinningMethod method, char* out, size_t size) {
  const char* label = rig::method_info(method).label;
  if (mistake < 0 || mistake >= kMistakeCount)
    std::snprintf(out, size, "%s", label);
  else if (column == 0)
    std::snprintf(out, size, "right: %s", label);
  else
    std::snprintf(out, size, "wrong: %s (%s)", kMistakes[size_t(mistake)].name, label);
}

MistakeView::MistakeView() : made_(kMistakeInputs) {}
MistakeView::~MistakeView() { clear(); }

void MistakeView::clear() {
  // The builders point into their characters: gone first.
  right_builder_.reset();
  wrong_builder_.reset();
  right_.reset();
  wrong_.reset();
  bug_model_.reset();
  pristine_.reset();
  mistake_ = -1;
  made_.clear();
  with_field_ = false;
  largest_error_ = largest_difference_ = 0.0f;
  added_blend_ = -1;
}

void MistakeView::prepare(const Document& doc, int mistake) {
  if (mistake == mistake_ && made_.fresh(doc.revisions)) return;
  clear();
  if (mistake < 0 || mistake >= kMistakeCount || !doc.model || !doc.character || !doc.skin) return;
  const Mistake& m = kMistakes[size_t(mistake)];
  const rig::Model& model = *doc.model;
  if (m.kind == MistakeKind::Bug && doc.simulated_bug >= 0 && doc.pristine) {
    // The document shows a Teaching aids bug already: the right column is the file as opened.
    pristine_ = doc.pristine;
    right_ = std::make_unique<rig::Character>(*pristine_);
  } else {
    right_ = std::make_unique<rig::Character>(model, doc.skin, doc.character->shared_clips());
  }
  if (m.kind == MistakeKind::Bug) {
    // The bug simulated on the file as opened.
    bug_model_ = std::make_unique<rig::Model>(doc.pristine ? *doc.pristine : model);
    rig::simulate_bug(*bug_model_, rig::kSimulatedBugs[size_t(m.index)]);
    wrong_ = std::make_unique<rig::Character>(*bug_model_);
  } else {
    rig::Pitfalls pitfalls;
    pitfalls.set(rig::Pitfall(m.index));
    std::shared_ptr<const rig::SkinLayer> layer = doc.skin;
    if (pitfalls.has(rig::Pitfall::RawWeights) || pitfalls.has(rig::Pitfall::FourInfluences))
      layer = pitfall_skin_layer(pitfalls, model, doc.skin->meshes());
    wrong_ = std::make_unique<rig::Character>(model, layer, doc.character->shared_clips());
    wrong_->set_pitfalls(pitfalls);
  }
  right_builder_ = std::make_unique<rig::PoseBuilder>(*right_);
  wrong_builder_ = std::make_unique<rig::PoseBuilder>(*wrong_);
  const rig::Model& wrong_model = wrong_->model();
  const bool same_draws = wrong_model.draws.size() == model.draws.size() &&
                          right_->model().draws.size() == model.draws.size();
  for (int c = 0; c < 2; ++c) {
    pos_[size_t(c)].assign(model.draws.size(), {});
    nrm_[size_t(c)].assign(model.draws.size(), {});
    for (size_t d = 0; d < model.draws.size(); ++d) {
      const rig::DrawItem& item = model.draws[d];
      const size_t n =
          model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
      pos_[size_t(c)][d].assign(n, glm::vec3(0.0f));
      nrm_[size_t(c)][d].assign(n, glm::vec3(0.0f, 1.0f, 0.0f));
    }
  }
  if (!same_draws) return clear();
  with_field_ = mistake == int(rig::Pitfall::FourInfluences);
  field_.values.assign(model.draws.size(), {});
  if (with_field_)
    for (size_t d = 0; d < model.draws.size(); ++d)
      if (model.draws[d].skin >= 0) field_.values[d].assign(pos_[0][d].size(), 0.0f);
  field_.map = rig::analysis::ColorMap::Heat;
  field_.min = 0.0f;
  field_.title = "distance from the full set";
  mistake_ = mistake;
  made_.take(doc.revisions);
}

void MistakeView::update(const Document& doc, const rig::PoseSelection& selection,
                         rig::SkinningMethod shown) {
  if (!active()) return;
  method_ = mistake_method(mistake_, shown);
  if (doc.posing)
    settings_ = doc.posing->settings();
  else
    settings_ = rig::PoseSettings{};
  settings_.base = selection;
  settings_.compressed = false;  // the pitfalls act on raw keys; no compressed sources here
  added_blend_ = -1;
  const rig::ClipSet& clips = right_->clips();
  const rig::Model& right_model = right_->model();
  if (mistake_ == int(rig::Pitfall::AverageMatrices) && selection.clip >= 0 &&
      selection.blend_clip < 0 && clips.size() >= 2 && clips.valid(selection.clip)) {
    const int other = (selection.clip + 1) % int(clips.size());
    const rig::ClipEntry& a = clips[size_t(selection.clip)];
    const rig::ClipEntry& b = clips[size_t(other)];
    const float length = std::max(b.end - b.start, 1e-6f);
    settings_.base.blend_clip = other;
    settings_.base.blend_time =
        b.start + std::fmod(std::max(selection.time - a.start, 0.0f), length);
    settings_.base.blend_weight = 0.5f;
    added_blend_ = other;
  }
  // The bug's model plays the file's clips only: a clip added since poses the rest pose.
  const size_t playable = std::min(wrong_->clips().size(), clips.size());
  if (size_t(settings_.base.clip + 1) > playable ||
      size_t(settings_.base.blend_clip + 1) > playable)
    settings_.base = rig::PoseSelection{};
  right_builder_->build(settings_);
  wrong_builder_->build(settings_);
  const rig::Model& model = *doc.model;
  const rig::Model& wrong_model = wrong_->model();
  largest_error_ = largest_difference_ = 0.0f;
  for (size_t d = 0; d < model.draws.size(); ++d) {
    right_->skin_draw_item(right_model.draws[d], method_, pos_[0][d], nrm_[0][d]);
    wrong_->skin_draw_item(wrong_model.draws[d], method_, pos_[1][d], nrm_[1][d]);
    std::vector<float>* out =
        with_field_ && !field_.values[d].empty() ? &field_.values[d] : nullptr;
    largest_difference_ =
        std::max(largest_difference_, distance_between(pos_[1][d], pos_[0][d], out));
  }
  if (with_field_) {
    largest_error_ = largest_difference_;
    // The colour range follows the largest error, at least 0.1 mm, so sub-millimetre noise
    // never fills the scale.
    field_.max = std::max(largest_error_, 1e-4f);
    ++field_.revision;
  }
}

}  // namespace rigview
