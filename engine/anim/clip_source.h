// What the sampling job samples: an interface, so a compressed runtime clip can stand in for the
// file's raw keys without touching any caller. `Clip` (model/model.h) stays what the file says.
#pragma once

#include <cstdint>
#include <span>

#include "model/model.h"

namespace rig {

class ClipSource {
 public:
  virtual ~ClipSource() = default;
  virtual float start() const = 0;  // seconds on the file's timeline
  virtual float end() const = 0;
  // Cursor slots the source may use to remember where the previous sample was (the sampling
  // job owns them, one set per playing clip). Any content is valid: a stale cursor costs a
  // search, never a wrong value.
  virtual size_t cursor_count() const = 0;
  // Writes the clip's values at `time` over `local` (one per node) and `morph_weights`
  // (Model::morph_weight_count), which hold the rest pose on entry; what the clip does not
  // animate is left alone. Times outside the keys hold the end values. No allocation.
  virtual void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
                      std::span<float> morph_weights) const = 0;
};

// The file's own keys, sampled exactly as glTF 2.0 Appendix C says (anim/sampling.h).
class RawClipSource final : public ClipSource {
 public:
  RawClipSource(const Model& model, const Clip& clip) : model_(&model), clip_(&clip) {}
  float start() const override { return clip_->start; }
  float end() const override { return clip_->end; }
  size_t cursor_count() const override { return clip_->channels.size(); }
  void sample(float time, std::span<uint32_t> cursors, std::span<Transform> local,
              std::span<float> morph_weights) const override;
  const Clip& clip() const { return *clip_; }

 private:
  const Model* model_;
  const Clip* clip_;
};

}  // namespace rig
