// A skin layer (skin/skin_layer.h) as document edits (write/document_edit.h), so that saving a
// file writes what the layer holds: its influences where they differ from the file's, and its
// inverse bind matrices where they differ from the file's. Nothing is written for what the layer
// left as the file had it, so a layer without edits gives no edits (the saved file is then the
// document writer's plain copy).
//
// Influences: per edited primitive, JOINTS_0/WEIGHTS_0 get the layer's first 4 (joint, weight)
// slots and JOINTS_1/WEIGHTS_1 slots 5–8, set 1 written when any vertex has a non-zero weight
// there or the file has a second set; sets the file has beyond those are written as zeros (joint
// 0, weight 0), since the layer skins with at most kMaxInfluences. The weights keep the file's
// component types (WeightEncoding::Keep: a new set takes set 0's), and the writer divides each
// vertex's weights over all sets by their sum and rounds normalized integers so that they sum to
// exactly 255 or 65535 across the sets.
#pragma once

#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"
#include "write/document_edit.h"

namespace rig {

struct SkinLayerEditOptions {
  // Write the influences of every skinned primitive, edited or not.
  bool every_skinned_primitive = false;
  // Write the inverse bind matrices of every skin, edited or not (a viewer saving over the file
  // it opened, whose bytes then no longer are the imported model's).
  bool every_skin = false;
};

struct SkinLayerEdits {
  std::vector<write::DocumentEdit> edits;  // SetSkinWeights first, then SetInverseBindMatrices
  size_t primitives = 0;                   // primitives whose influences are written
  size_t skins = 0;                        // skins whose inverse bind matrices are written
};

// Whether prepared primitive `mesh`/`primitive` of `layer` holds the influences the file gives
// it (as prepared from `model`: joints and weights bit for bit).
bool influences_as_in_file(const Model& model, const SkinLayer& layer, int mesh, int primitive);

// The edits that make the file `model` was imported from hold `layer`'s influences and inverse
// bind matrices. False with a one-line `error` when the layer does not fit the model.
bool skin_layer_edits(const Model& model, const SkinLayer& layer,
                      const SkinLayerEditOptions& options, SkinLayerEdits& out, std::string& error);

}  // namespace rig
