#include "analysis/inverse_bind_repair.h"

#include <algorithm>
#include <cmath>

#include "analysis/rig_doctor.h"

namespace rig {

namespace {

// Node world matrices in the rest pose, in double: local = TRS(rest) · shear.
std::vector<glm::dmat4> rest_world_matrices(const Model& model) {
  std::vector<glm::dmat4> world(model.nodes.size(), glm::dmat4(1.0));
  for (int n : model.node_order) {
    const Node& node = model.nodes[size_t(n)];
    glm::dmat4 local(trs_matrix(node.rest));
    if (node.has_shear) local = local * glm::dmat4(node.shear);
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  return world;
}

bool finite(const glm::dmat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(m[c][r])) return false;
  return true;
}

std::string joint_name(const Model& model, int skin, size_t j) {
  const int node = model.skins[size_t(skin)].joints[j];
  const std::string& name = model.nodes[size_t(node)].name;
  return "joint " + std::to_string(j) + (name.empty() ? "" : " '" + name + "'");
}

}  // namespace

bool rest_pose_inverse_binds(const Model& model, int skin, std::vector<glm::mat4>& out,
                             std::string& error) {
  const Skin& s = model.skins[size_t(skin)];
  const std::vector<glm::dmat4> world = rest_world_matrices(model);
  out.assign(s.joints.size(), glm::mat4(1.0f));
  for (size_t j = 0; j < s.joints.size(); ++j) {
    const glm::dmat4& g = world[size_t(s.joints[j])];
    const glm::dmat3 a(g);
    // Relative to the matrix's own size, so that a tiny but well-shaped skeleton still inverts.
    const double size = glm::length(a[0]) * glm::length(a[1]) * glm::length(a[2]);
    const double det = glm::determinant(a);
    if (!finite(g) || !(size > 0.0) || !(std::abs(det) > 1e-12 * size)) {
      error = "skin " + std::to_string(skin) + " " + joint_name(model, skin, j) +
              ": its rest matrix is singular, so it has no inverse bind matrix";
      return false;
    }
    // [A t; 0 1]⁻¹ = [A⁻¹ −A⁻¹t; 0 1]: affine by construction.
    const glm::dmat3 inverse = glm::inverse(a);
    glm::dmat4 m(inverse);
    m[3] = glm::dvec4(-(inverse * glm::dvec3(g[3])), 1.0);
    out[j] = glm::mat4(m);
  }
  return true;
}

std::vector<InverseBindRepair> repair_inverse_binds(const Model& model, SkinLayer& layer,
                                                    InverseBindRepairScope scope) {
  std::vector<std::string> reasons(model.skins.size());
  if (scope == InverseBindRepairScope::All) {
    std::fill(reasons.begin(), reasons.end(), "all");
  } else {
    const RigDiagnosis diagnosis = examine_rig(model, layer);
    for (const char* code : {"IBM_MISSING", "IBM_SUSPECT"})
      for (const RigFinding& f : diagnosis.findings) {
        if (f.warning.code != code || f.skin < 0 || size_t(f.skin) >= reasons.size()) continue;
        std::string& reason = reasons[size_t(f.skin)];
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
    if (!rest_pose_inverse_binds(model, int(s), matrices, repair.problem)) {
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
