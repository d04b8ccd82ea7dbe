// Learn mode's batch output: --cross-section FILE.json, the twist arm's middle ring under every
// skinning method at the chosen pose (schema in the README's "Learn: pitfalls and
// demonstrations").
#pragma once

#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"

namespace rigview {

// 0, or the exit status (2: usage, such as a model without the twist arm's joints; 1: the file
// cannot be written), with a one-line error on stderr. `skin`: the edited layer (pitfalls
// included), null for the model's own.
int write_cross_section(const Options& options, const rig::Model& model,
                        const rig::SkinLayer* skin);

}  // namespace rigview
