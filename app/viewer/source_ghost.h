// The source ghost: the skeleton a retargeted clip came from, playing its own clip beside the
// character, so the retarget can be judged against what drove it. Worked out once per file (or
// per bone-map edit) on the frame grid of the retarget, so drawing it allocates nothing. No
// ImGui: the Bone map window draws it (viewer/retarget_panel.cpp).
#pragma once

#include <glm/glm.hpp>
#include <vector>

#include "viewer/document.h"

namespace rigview {

// Fills added.ghost and added.ghost_bones: per clip of a retargeted file, per frame of its grid
// (character/retarget.h), the source's bones (each joint of its skins from its nearest ancestor
// joint) as point pairs in `target`'s model space: scaled by the hip ratio about the source's
// rest hips, turned by the facing alignment G onto the target's rest hips, and moved beside the
// character along its left axis by 0.75 of its height. Empty for a file played directly.
void source_ghost(const rig::Model& target, Document::AddedClipFile& added);

// The ghost's points for clip-set entry `clip` at `time` (the frame nearest it), nullptr when the
// entry is no retargeted clip.
const glm::vec3* source_ghost_frame(const Document& doc, int clip, float time, size_t& points);

}  // namespace rigview
