// Editing an added file's bone map in the viewer (the Bone map window): one pair changed, then
// every clip of that file retargeted again and replaced in place in the clip set (same indices,
// names and ids), and its source ghost worked out again. No ImGui.
#pragma once

#include <string>

#include "viewer/document.h"

namespace rigview {

// In doc.clip_files[file]'s map, `source_node` (a node of the file's model) drives
// `target_node` (of the character; -1 unmaps the source joint), as --bone-map's pairs do. false +
// one line, nothing changed, when the file is not retargeted or the new map cannot be used.
bool remap_bone_pair(Document& doc, size_t file, int source_node, int target_node,
                     std::string& error);

}  // namespace rigview
