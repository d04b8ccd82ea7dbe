#include "viewer/bone_map_edit.h"

#include "clip_retarget.h"
#include "viewer/source_ghost.h"

namespace rigview {

bool remap_bone_pair(Document& doc, size_t file, int source_node, int target_node,
                     std::string& error) {
  if (file >= doc.clip_files.size() || !doc.model) return error = "no such clip file", false;
  Document::AddedClipFile& added = doc.clip_files[file];
  if (!added.file.retargeted || !added.file.source)
    return error = added.file.stem + ": its clips play directly (same skeleton): no bone map",
           false;
  const rig::Model& source = *added.file.source;
  const rig::Model& target = *doc.model;
  if (source_node < 0 || size_t(source_node) >= source.nodes.size() ||
      target_node >= int(target.nodes.size()))
    return error = "no such joint", false;
  ClipFile edited = added.file;
  const std::string target_name = target_node >= 0 ? target.nodes[size_t(target_node)].name : "";
  if (!rig::apply_bone_map_override(edited.map, source, target,
                                    source.nodes[size_t(source_node)].name, target_name, &error))
    return false;
  if (!retarget_clips(source, target, edited, error)) return false;
  for (size_t k = 0; k < edited.clips.size() && k < added.clip_indices.size(); ++k)
    doc.replace_clip(added.clip_indices[k], std::move(edited.clips[k].keys));
  added.file = std::move(edited);
  source_ghost(target, added);
  return true;
}

}  // namespace rigview
