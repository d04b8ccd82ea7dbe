#include "character/pose_stack.h"

#include "character/character.h"

namespace rig {

PoseStack::PoseStack(const Character& character)
    : model_(&character.model()),
      clips_(character.shared_clips()),
      cursor_count_(character.cursor_count()) {
  root_motion_.resize(clips_->size());
  blend_layers_.resize(2);
}

size_t PoseStack::add_layer(const PoseLayer& layer) {
  LayerState s;
  s.layer = layer;
  init_rest_pose(*model_, s.pose);
  init_rest_pose(*model_, s.reference);
  s.cursors.assign(cursor_count_, 0);
  s.reference_cursors.assign(cursor_count_, 0);
  layers_.push_back(std::move(s));
  blend_layers_.resize(layers_.size() + 2);
  return layers_.size() - 1;
}

void PoseStack::remove_layer(size_t index) {
  if (index >= layers_.size()) return;
  layers_.erase(layers_.begin() + std::ptrdiff_t(index));
  blend_layers_.resize(layers_.size() + 2);
}

void PoseStack::clear_layers() {
  layers_.clear();
  blend_layers_.resize(2);
}

void PoseStack::refresh_references() {
  for (LayerState& s : layers_) s.cached_reference_clip = -2;
}

void PoseStack::set_root_motion(int clip, const RootMotionSettings& settings) {
  if (!clips_->valid(clip)) return;
  if (size_t(clip) >= root_motion_.size()) root_motion_.resize(clips_->size());  // a clip added
  root_motion_[size_t(clip)] = RootMotionClip(*model_, (*clips_)[size_t(clip)].keys, settings);
}

}  // namespace rig
