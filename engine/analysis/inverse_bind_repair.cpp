#include "analysis/inverse_bind_repair.h"

#include <algorithm>
#include <cmath>

#include "analysis/inverse_bind_recovery.h"
#include "analysis/rig_doctor.h"
#include "analysis/rig_doctor_internal.h"

namespace rig {

namespace {

std::string joint_name(const Model& model, int skin, size_t j) {
  const int node = model.skins[size_t(skin)].joints[j];
  const std::string& name = model.nodes[size_t(node)].name;
  return "joint " + std::to_string(j) + (name.empty() ? "" : " '" + name + "'");
}

}  // namespace

bool rest_pose_inverse_binds(const Model& model, int skin, std::vector<glm::mat4>& out,
                             std::string& error) {
  const Skin& s = model.skins[size_t(skin)];
  const std::vector<glm::dmat4> world = rig_doctor_detail::rest_world(model);
  // The space the mesh is authored in: the world rest matrix of the first node drawing the skin.
  glm::dmat4 space(1.0);
  for (const DrawItem& d : model.draws)
    if (d.skin == skin && d.node >= 0 && size_t(d.node) < world.size()) {
      space = world[size_t(d.node)];
      break;
    }
  out.assign(s.joints.size(), glm::mat4(1.0f));
  for (size_t j = 0; j < s.joints.size(); ++j) {
    glm::dmat4 inverse;
    if (!affine_inverse(world[size_t(s.joints[j])], inverse)) {
      error = "skin " + std::to_string(skin) + " " + joint_name(model, skin, j) +
              ": its rest matrix is singular, so it has no inverse bind matrix";
      return false;
    }
    out[j] = glm::mat4(inverse * space);
  }
  return true;
}

std::vector<InverseBindRepair> repair_inverse_binds(const Model& model, SkinLayer& layer,
                                                    InverseBindRepairScope scope) {
  std::vector<std::string> reasons(model.skins.size());
  std::vector<IbmReading> readings(model.skins.size(), IbmReading::None);
  if (scope == InverseBindRepairScope::All) {
    std::fill(reasons.begin(), reasons.end(), "all");
  } else {
    const RigDiagnosis diagnosis = examine_rig(model, layer);
    for (const char* code : {"IBM_MISSING", "IBM_SUSPECT"})
      for (const RigFinding& f : diagnosis.findings) {
        if (f.warning.code != code || f.skin < 0 || size_t(f.skin) >= reasons.size()) continue;
        std::string& reason = reasons[size_t(f.skin)];
        if (f.ibm_reading != IbmReading::None) readings[size_t(f.skin)] = f.ibm_reading;
        if (reason.find(code) == std::string::npos)
          reason += (reason.empty() ? "" : "+") + f.warning.code;
      }
  }
  std::vector<InverseBindRepair> done;
  for (size_t s = 0; s < model.skins.size() && s < layer.skin_count(); ++s) {
    if (reasons[s].empty()) continue;
    InverseBindRepair repair;
    repair.skin = int(s);
    repair.reason = reasons[s];
    std::vector<glm::mat4> matrices;
    const IbmReading reading =
        scope == InverseBindRepairScope::Recover ? readings[s] : IbmReading::None;
    const std::span<const glm::mat4> file = layer.inverse_bind(s);
    bool made = false;
    if (reading == IbmReading::NegatedTranslation) {
      repair.method = "negated translation undone";
      made = invert_negated_bind_matrices(model, int(s), file, matrices, repair.problem);
    } else if (reading == IbmReading::TranslationOnly) {
      repair.method = "rotations rebuilt from bind positions";
      made = rebuild_translation_only_binds(model, int(s), file, matrices, repair.problem);
    } else {
      made = rest_pose_inverse_binds(model, int(s), matrices, repair.problem);
    }
    if (!made) {
      done.push_back(std::move(repair));
      continue;
    }
    for (size_t j = 0; j < matrices.size(); ++j) {
      const glm::mat4 old = layer.inverse_bind(s)[j];
      for (int c = 0; c < 4; ++c)
        for (int r = 0; r < 4; ++r)
          repair.largest_change =
              std::max(repair.largest_change, std::abs(double(matrices[j][c][r]) - old[c][r]));
      std::string error;  // the indices come from the layer's own sizes
      layer.set_inverse_bind(s, j, matrices[j], error);
    }
    repair.repaired = true;
    done.push_back(std::move(repair));
  }
  return done;
}

}  // namespace rig
