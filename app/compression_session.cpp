#include "compression_session.h"

#include <algorithm>
#include <cstdio>

namespace rigview {

namespace {

// A copy of `clips` (or the file's clips) playing every entry raw.
std::shared_ptr<rig::ClipSet> raw_copy(const rig::Model& model, const rig::ClipSet* clips) {
  if (!clips) return rig::ClipSet::from_model(model);
  auto copy = std::make_shared<rig::ClipSet>(*clips);
  copy->restore_all();
  return copy;
}

}  // namespace

CompressionSession::CompressionSession(const rig::Model& model,
                                       std::shared_ptr<const rig::SkinLayer> skin,
                                       std::shared_ptr<const rig::ClipSet> clips)
    : model_(&model),
      clips_(raw_copy(model, clips.get())),
      raw_(model, skin, std::make_shared<rig::ClipSet>(*clips_)),
      lossy_(model, skin, std::make_shared<rig::ClipSet>(*clips_)) {
  raw_pos_.resize(model.draws.size());
  lossy_pos_.resize(model.draws.size());
  normals_.resize(model.draws.size());
  field_.values.resize(model.draws.size());
  for (size_t d = 0; d < model.draws.size(); ++d) {
    const rig::DrawItem& item = model.draws[d];
    const size_t n =
        model.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)].vertex_count();
    raw_pos_[d].resize(n);
    lossy_pos_[d].resize(n);
    normals_[d].resize(n);
    field_.values[d].assign(n, 0.0f);
  }
  field_.map = rig::analysis::ColorMap::Heat;
  field_.title = "raw - compressed displacement (cm, LBS)";
  field_.ticks.resize(2);
}

CompressionSession::~CompressionSession() { cancel(); }

void CompressionSession::join() {
  if (worker_.joinable()) worker_.join();
}

void CompressionSession::cancel() {
  cancel_.store(true, std::memory_order_relaxed);
  join();
  running_.store(false, std::memory_order_release);
  finished_.store(false, std::memory_order_release);
  tolerance_cm_ = -1.0;
  if (lossy_ready_) use_compressed(lossy_, false);  // before the results it points at go
  lossy_ready_ = false;
}

void CompressionSession::request(double tolerance_cm) {
  if (tolerance_cm == tolerance_cm_) return;
  cancel();
  tolerance_cm_ = tolerance_cm;
  cancel_.store(false, std::memory_order_relaxed);
  progress_.store(0.0f, std::memory_order_relaxed);
  running_.store(true, std::memory_order_release);
  worker_ = std::thread([this, tolerance_cm] {
    const rig::ClipSet& clips = *clips_;
    std::vector<std::unique_ptr<rig::CompressionResult>> out(clips.size());
    rig::CompressionSettings settings;
    settings.tolerance_m = tolerance_cm / 100.0;
    settings.measure_vertices = true;
    struct Progress {
      CompressionSession* self;
      float done, share;
    } p{this, 0.0f, clips.empty() ? 1.0f : 1.0f / float(clips.size())};
    bool ok = true;
    std::string error;
    for (size_t c = 0; c < clips.size() && ok; ++c) {
      p.done = float(c) * p.share;
      if (!clips[c].keys) continue;  // only a sampler: nothing to compress
      out[c] = std::make_unique<rig::CompressionResult>(rig::compress_clip(
          *model_, *clips[c].keys, settings,
          [](void* user, float fraction) {
            auto* q = static_cast<Progress*>(user);
            q->self->progress_.store(q->done + fraction * q->share, std::memory_order_relaxed);
            return !q->self->cancel_.load(std::memory_order_relaxed);
          },
          &p));
      if (!out[c]->ok) {
        ok = false;
        if (!out[c]->cancelled) error = clips[c].name + ": " + out[c]->error;
      }
    }
    if (ok) results_ = std::move(out);
    error_ = error;
    finished_.store(ok, std::memory_order_release);
    running_.store(false, std::memory_order_release);
  });
}

const std::vector<std::unique_ptr<rig::CompressionResult>>* CompressionSession::results() const {
  return finished_.load(std::memory_order_acquire) ? &results_ : nullptr;
}

void CompressionSession::use_compressed(rig::Character& character, bool compressed) const {
  const auto* r = results();
  for (size_t c = 0; c < character.clips().size(); ++c) {
    const bool have = compressed && r && c < r->size() && (*r)[c];
    character.set_clip_source(int(c), have ? &(*r)[c]->clip : nullptr);
  }
}

const rig::analysis::ScalarField& CompressionSession::displacement(
    const rig::PoseSelection& selection) {
  if (!lossy_ready_ && results()) {
    use_compressed(lossy_, true);
    lossy_ready_ = true;
  }
  raw_.evaluate(selection);
  lossy_.evaluate(selection);
  float largest = 0.0f;
  for (size_t d = 0; d < model_->draws.size(); ++d) {
    const rig::DrawItem& item = model_->draws[d];
    raw_.skin_draw_item(item, rig::SkinningMethod::Linear, raw_pos_[d], normals_[d]);
    lossy_.skin_draw_item(item, rig::SkinningMethod::Linear, lossy_pos_[d], normals_[d]);
    for (size_t v = 0; v < raw_pos_[d].size(); ++v) {
      const float cm = glm::length(raw_pos_[d][v] - lossy_pos_[d][v]) * 100.0f;
      field_.values[d][v] = cm;
      largest = std::max(largest, cm);
    }
  }
  field_.min = 0.0f;
  field_.max = std::max(largest, 1e-4f);
  field_.ticks[0].value = 0.0f;
  if (field_.ticks[0].label != "0") field_.ticks[0].label = "0";
  char top[24];
  std::snprintf(top, sizeof top, "%.3g cm", double(field_.max));
  field_.ticks[1].value = field_.max;
  field_.ticks[1].label = top;
  ++field_.revision;
  return field_;
}

}  // namespace rigview
