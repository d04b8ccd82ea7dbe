// Repairing a skin's inverse bind matrices from the rest pose: IBM_j = G_j⁻¹ · W, G_j joint j's
// node world matrix in the node rest pose (Node::rest, shear kept) and W the world rest matrix
// of the first node that draws the skin (the space its mesh is authored in, the identity for a
// mesh at the root without a transform, the usual case; without W a mesh under an armature
// scaled by 0.01 would come out 100 times its skeleton's size). Afterwards the rest-pose
// skinning matrices G_j · IBM_j are all W, so the rest pose is the bind pose and the rig
// doctor's IBM_MISSING and IBM_SUSPECT no longer apply. The repair suits the files those
// codes describe (identity IBMs, IBMs that only negate a translation): their rest pose is the
// pose the mesh was bound in. A file posed on purpose in its rest pose (the doctor's
// BIND_POSE_DIFFERS) keeps that pose as its new bind pose.
//
// The matrices go into a SkinLayer (SkinLayer::set_inverse_bind), so the character, the
// renderer, the rig doctor and the document writer (analysis/skin_layer_edits.h) all see them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/model.h"
#include "skin/skin_layer.h"

namespace rig {

enum class InverseBindRepairScope : uint8_t {
  Flagged,  // the skins the rig doctor flags with IBM_MISSING or IBM_SUSPECT (on the layer)
  All,      // every skin
  // The flagged skins, each from what its broken matrices still hold where the doctor's reading
  // says (inverse_bind_recovery.h: negated-translation and translation-only IBMs keep the file's
  // bind pose), from the rest pose otherwise.
  Recover,
};

// What happened to one skin.
struct InverseBindRepair {
  int skin = -1;
  std::string reason;  // "IBM_MISSING", "IBM_SUSPECT", both joined by '+', or "all"
  // How: "rest pose", "negated translation undone" or "rotations rebuilt from bind positions".
  std::string method = "rest pose";
  bool repaired = false;
  std::string problem;  // why not, when not repaired (a singular joint rest matrix)
  // Largest |new − old| over every matrix element of the skin (0 when not repaired).
  double largest_change = 0.0;
};

// Skin `skin`'s inverse bind matrices from the rest pose, one per joint in the skin's order,
// computed in double (an affine inverse: the last row is exactly 0 0 0 1). False with a one-line
// `error` naming the joint when a joint's rest matrix is singular or not finite.
bool rest_pose_inverse_binds(const Model& model, int skin, std::vector<glm::mat4>& out,
                             std::string& error);

// Repairs the skins of `scope` in `layer` (a layer over `model`), in skin order. Skins out of
// scope are not listed.
std::vector<InverseBindRepair> repair_inverse_binds(const Model& model, SkinLayer& layer,
                                                    InverseBindRepairScope scope);

}  // namespace rig
