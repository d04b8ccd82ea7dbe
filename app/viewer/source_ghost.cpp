#include "viewer/source_ghost.h"

#include <algorithm>
#include <cmath>

#include "character/retarget.h"

namespace rigview {

void source_ghost(const rig::Model& target, Document::AddedClipFile& added) {
  added.ghost.clear();
  added.ghost_bones = 0;
  const ClipFile& file = added.file;
  if (!file.retargeted || !file.source) return;
  const rig::Model& source = *file.source;
  // The bones: each skin joint from its nearest ancestor that is a joint.
  std::vector<char> joint(source.nodes.size(), 0);
  for (const rig::Skin& skin : source.skins)
    for (int j : skin.joints) joint[size_t(j)] = 1;
  std::vector<std::pair<int, int>> bones;
  for (size_t n = 0; n < source.nodes.size(); ++n) {
    if (!joint[n]) continue;
    int parent = source.nodes[n].parent;
    while (parent >= 0 && !joint[size_t(parent)]) parent = source.nodes[size_t(parent)].parent;
    if (parent >= 0) bones.emplace_back(parent, int(n));
  }
  const rig::RetargetRig rig = rig::build_retarget_rig(source, target, file.map);
  const glm::vec3 beside = rig.target.left * (0.75f * rig.target.height);
  rig::Character character(source);
  added.ghost_bones = bones.size();
  for (const rig::Clip& clip : source.clips) {
    std::vector<glm::vec3> points;
    for (float time : rig::retarget_frame_times(clip)) {
      rig::PoseSelection selection;
      selection.clip = int(&clip - source.clips.data());
      selection.time = time;
      character.evaluate(selection);
      for (const auto& [a, b] : bones)
        for (int n : {a, b}) {
          const glm::vec3 p(character.world()[size_t(n)][3]);
          points.push_back(rig.target.hips + beside +
                           rig.facing * ((p - rig.source.hips) * rig.hip_ratio));
        }
    }
    added.ghost.push_back(std::move(points));
  }
}

const glm::vec3* source_ghost_frame(const Document& doc, int clip, float time, size_t& points) {
  points = 0;
  for (const Document::AddedClipFile& added : doc.clip_files) {
    if (added.withdrawn) continue;
    const auto it = std::find(added.clip_indices.begin(), added.clip_indices.end(), clip);
    if (it == added.clip_indices.end()) continue;
    const size_t k = size_t(it - added.clip_indices.begin());
    if (k >= added.ghost.size() || added.ghost_bones == 0 || !added.file.source) return nullptr;
    const std::vector<glm::vec3>& ghost = added.ghost[k];
    const size_t per_frame = 2 * added.ghost_bones;
    const size_t frames = ghost.size() / per_frame;
    if (frames == 0) return nullptr;
    const rig::Clip& source_clip = added.file.source->clips[k];
    const float step = rig::clip_frame_duration(source_clip);
    const float f = step > 0.0f ? std::round((time - source_clip.start) / step) : 0.0f;
    const size_t frame = size_t(std::clamp(f, 0.0f, float(frames - 1)));
    points = per_frame;
    return ghost.data() + frame * per_frame;
  }
  return nullptr;
}

}  // namespace rigview
