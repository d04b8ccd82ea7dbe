#include "analysis/clip_pose_samples.h"

#include "analysis/skinning_artefacts.h"
#include "character/character.h"

namespace rig {

SkinPoseSamples sample_clip_poses(const Model& model, std::shared_ptr<const SkinLayer> layer,
                                  float rate_hz, EditProgress progress, void* user, bool* stopped) {
  SkinPoseSamples out;
  size_t total = 0;
  for (const Clip& clip : model.clips) total += clip_sample_times(clip, rate_hz).size();
  out.matrices.resize(model.skins.size());
  Character character(model, std::move(layer));
  auto keep = [&](const PoseSelection& selection) {
    character.evaluate(selection);
    for (size_t s = 0; s < model.skins.size(); ++s) {
      const std::span<const glm::mat4> m = character.skinning_matrices(int(s));
      out.matrices[s].insert(out.matrices[s].end(), m.begin(), m.end());
    }
    ++out.pose_count;
  };
  for (size_t c = 0; c < model.clips.size(); ++c) {
    for (float t : clip_sample_times(model.clips[c], rate_hz)) keep(PoseSelection{int(c), t});
    if (progress && !progress(user, float(double(out.pose_count) / double(total)))) {
      if (stopped) *stopped = true;
      return out;
    }
  }
  if (model.clips.empty()) keep(PoseSelection{});
  return out;
}

}  // namespace rig
