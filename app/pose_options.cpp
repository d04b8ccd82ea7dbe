#include "pose_options.h"

#include <algorithm>

#include "anim/joint_mask.h"
#include "clip_files.h"

namespace rigview {

bool pose_selection_from_options(const Options& o, const rig::Model& model, rig::PoseSelection& out,
                                 std::string& error) {
  const std::shared_ptr<rig::ClipSet> set = clip_set_from_options(o, model, error);
  return set && pose_selection_from_options(o, *set, out, error);
}

bool pose_selection_from_options(const Options& o, const rig::ClipSet& set, rig::PoseSelection& out,
                                 std::string& error) {
  out = rig::PoseSelection{};
  const int clips = static_cast<int>(set.size());
  if (o.rest_pose) return true;
  if (clips == 0) {
    // A model without animations shows its rest pose; asking for a specific clip is an error.
    if (o.animation_index > 0 || o.blend_index >= 0) {
      error = "the model has no animations (asked for clip " +
              std::to_string(o.blend_index >= 0 ? o.blend_index : o.animation_index) + ")";
      return false;
    }
    return true;
  }
  if (o.animation_index >= clips) {
    error = "--animation-index " + std::to_string(o.animation_index) + " is out of range (" +
            std::to_string(clips) + " clips)";
    return false;
  }
  if (o.blend_index >= clips) {
    error = "--blend-index " + std::to_string(o.blend_index) + " is out of range (" +
            std::to_string(clips) + " clips)";
    return false;
  }
  const rig::ClipEntry& c = set[size_t(o.animation_index)];
  out.clip = o.animation_index;
  out.time = std::clamp(o.animation_time.value_or(c.start), c.start, c.end);
  if (o.blend_index >= 0) {
    const rig::ClipEntry& b = set[size_t(o.blend_index)];
    out.blend_clip = o.blend_index;
    out.blend_time = std::clamp(o.blend_time, b.start, b.end);
    out.blend_weight = o.blend_weight;
  }
  return true;
}

bool dqs_amounts_from_options(const Options& o, const rig::Model& model,
                              std::vector<float>& per_node, std::string& error) {
  std::vector<int> roots;
  for (const std::string& name : o.dqs_joints) {
    const int node = rig::find_node(model, name);
    if (node < 0) {
      error = "--dqs-joints: no node named '" + name + "'";
      return false;
    }
    roots.push_back(node);
  }
  per_node = rig::subtree_mask(model, roots, 1.0f);
  return true;
}

}  // namespace rigview
