// The artefact analysis's file outputs (formatting only; the measures are
// engine/analysis/skinning_artefacts.h):
//   --export-ply FILE.ply  the posed mesh as binary little-endian PLY with per-vertex float
//                          properties deflation, difference, dominant_joint, primitive;
//   --report FILE.json     every clip's scan for the chosen methods.
#pragma once

#include <string>
#include <vector>

#include "analysis/skinning_artefacts.h"
#include "character/character.h"
#include "model/model.h"

namespace rigview {

// `character` holds the pose to write (already evaluated). Vertices are those of --export-obj,
// in its order (Model::draws, primitives concatenated), skinned with `method`; faces are the
// triangles of triangle primitives (lines and points contribute vertices only). `difference`
// is LBS against DQS. false + one-line error on failure.
bool write_artefact_ply(const std::string& path, const rig::Character& character,
                        rig::SkinningMethod method, std::string& error);

// Scans every clip of `character.model()` for `methods` and writes the report (schema in the
// README). Progress goes to stderr when `progress` is set. `dqs_amounts`: the mix's per-node
// DQS amounts (rig::Character::set_dqs_amounts; empty: all 0). `skin`: the skin layer scanned
// (null: the model's influences); `pitfalls`: Learn mode's mistakes the scan makes. false +
// one-line error.
bool write_artefact_report(const std::string& path, const rig::Model& model,
                           const std::vector<rig::SkinningMethod>& methods, bool progress,
                           std::string& error, const std::vector<float>& dqs_amounts = {},
                           const rig::SkinLayer* skin = nullptr, rig::Pitfalls pitfalls = {});

}  // namespace rigview
