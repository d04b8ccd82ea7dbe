// Broken copies of a skinned glTF file, written to disk as an independent script would write
// them: the file's own document with its skins edited (the joint list, the inverseBindMatrices
// accessor), nothing of rigview's model or doctor involved but the matrices' values. The classic
// bugs of the skeletal-animation material, each on every skin of the file:
//   NoIbm                  the skin loses its inverseBindMatrices;
//   ReversedJoints         skin.joints in reverse order, the IBMs and JOINTS_n indices kept;
//   TranslationOnlyIbm     IBM_j = T(−t_j), t_j the translation of the bind matrix B_j = IBM_j⁻¹;
//   NegatedTranslationIbm  IBM_j = B_j with only its translation negated.
// Optionally every scene root is scaled by `root_scale` first (an armature scaled by 0.01, as
// Mixamo exports are), in the original too.
#pragma once

#include <tiny_gltf.h>

#include <algorithm>
#include <glm/glm.hpp>
#include <string>
#include <vector>

#include "import/gltf_import.h"
#include "model/model.h"
#include "write/gltf_document.h"

namespace rig::test {

enum class BrokenForm {
  Original,
  NoIbm,
  ReversedJoints,
  TranslationOnlyIbm,
  NegatedTranslationIbm
};
inline constexpr BrokenForm kBrokenForms[] = {
    BrokenForm::Original, BrokenForm::NoIbm, BrokenForm::ReversedJoints,
    BrokenForm::TranslationOnlyIbm, BrokenForm::NegatedTranslationIbm};

inline const char* broken_form_name(BrokenForm form) {
  switch (form) {
    case BrokenForm::Original:
      return "original";
    case BrokenForm::NoIbm:
      return "no-ibm";
    case BrokenForm::ReversedJoints:
      return "reversed";
    case BrokenForm::TranslationOnlyIbm:
      return "transl-only";
    case BrokenForm::NegatedTranslationIbm:
      return "negated-t";
  }
  return "";
}

// The IBMs a bug form writes for one skin's file IBMs (column-major, as glm), computed in double.
inline std::vector<glm::mat4> broken_ibms(BrokenForm form, const std::vector<glm::mat4>& file) {
  std::vector<glm::mat4> out;
  for (const glm::mat4& ibm : file) {
    const glm::dmat4 bind = glm::inverse(glm::dmat4(ibm));
    glm::dmat4 m(1.0);
    if (form == BrokenForm::TranslationOnlyIbm) {
      m[3] = glm::dvec4(-glm::dvec3(bind[3]), 1.0);
    } else {
      m = bind;
      m[3] = glm::dvec4(-glm::dvec3(bind[3]), 1.0);
    }
    out.push_back(glm::mat4(m));
  }
  return out;
}

// Writes the copy of `in` with `form` applied to every skin to `out` (GLB). `model`: `in` as
// imported (its skins' IBMs are the file's). False with `error`.
inline bool write_broken_copy(const std::string& in, const Model& model, BrokenForm form,
                              double root_scale, const std::string& out, std::string& error) {
  write::SourceDocument source;
  if (!source.open(in, error)) return false;
  tinygltf::Model& doc = source.gltf();
  if (root_scale != 1.0) {
    const int scene = doc.defaultScene >= 0 ? doc.defaultScene : 0;
    if (size_t(scene) < doc.scenes.size()) {
      for (int root : doc.scenes[size_t(scene)].nodes) {
        tinygltf::Node& node = doc.nodes[size_t(root)];
        if (node.matrix.size() == 16) {
          for (size_t k = 0; k < 16; ++k)
            if (k % 4 != 3) node.matrix[k] *= root_scale;  // S · M: rows 0..2 scaled
        } else {
          if (node.scale.size() != 3) node.scale = {1.0, 1.0, 1.0};
          for (double& s : node.scale) s *= root_scale;
          for (double& t : node.translation) t *= root_scale;
        }
      }
    }
  }
  std::vector<write::DocumentEdit> edits;
  for (size_t s = 0; s < doc.skins.size() && s < model.skins.size(); ++s) {
    tinygltf::Skin& skin = doc.skins[s];
    switch (form) {
      case BrokenForm::Original:
        break;
      case BrokenForm::NoIbm:
        skin.inverseBindMatrices = -1;
        break;
      case BrokenForm::ReversedJoints:
        std::reverse(skin.joints.begin(), skin.joints.end());
        break;
      case BrokenForm::TranslationOnlyIbm:
      case BrokenForm::NegatedTranslationIbm:
        edits.push_back(
            write::SetInverseBindMatrices{int(s), broken_ibms(form, model.skins[s].inverse_bind)});
        break;
    }
  }
  if (!source.apply(edits, {}, error)) return false;
  return source.save(out, error, {}, write::OutputFormat::Glb);
}

}  // namespace rig::test
