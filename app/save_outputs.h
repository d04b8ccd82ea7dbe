// --repair-ibm and --save: the skin layer's inverse bind matrices repaired from the rest pose
// (analysis/inverse_bind_repair.h), and the file written with the layer's edits
// (analysis/skin_layer_edits.h) through the document writer (write/gltf_document.h), everything
// the edits do not name kept as the file had it.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "analysis/inverse_bind_repair.h"
#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"

namespace rigview {

// --repair-ibm: repairs `layer` as the flag says (nothing without it). With `log`, one line per
// skin it looked at ("rigview: skin 0 'Armature': ..."), or one saying that nothing was flagged.
std::vector<rig::InverseBindRepair> repair_from_options(const Options& options,
                                                        const rig::Model& model,
                                                        rig::SkinLayer& layer, std::FILE* log);

// `layer` with --repair-ibm applied, silently (the outputs that pose or draw the character).
std::shared_ptr<rig::SkinLayer> repaired_from_options(const Options& options,
                                                      const rig::Model& model,
                                                      std::shared_ptr<rig::SkinLayer> layer);

// --save: the document of `model_path` (the file `model` was imported from) with `layer`'s edits
// written to options.save. 0, or 1 with one line on stderr naming the file (the previous file
// at options.save is then as it was).
int save_document(const Options& options, const rig::Model& model, const rig::SkinLayer& layer,
                  const std::string& model_path);

}  // namespace rigview
