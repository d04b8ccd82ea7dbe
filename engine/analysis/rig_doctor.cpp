// The rig doctor's detectors. Thresholds (rig_doctor.h) were chosen on the shared corpus and on
// the simulated bugs (tests/engine/rig_doctor_corpus_test.cpp prints every measure and lists
// what every file gets):
//   kBindResidualInfo 1e-4: clean files whose rest pose is their bind pose leave a residual of at
//       most 8e-7 (float rounding); the legitimately posed AssetGenerator skins 0.037-0.077, girl
//       0.27, RobotExpressive 13.5 and 15.7 (its two skins are the hands, 0.023 units across,
//       whose finger joints rest far from their bind pose: large against so small a diagonal).
//   kMissingResidual 0.05: identity IBMs tear the mesh by 0.1 (mannequin) to 0.84 (CesiumMan);
//       Skin_04 (the corpus's deliberate skin without IBMs) by 0.185.
//   kMeanExcess 0.04: correctly weighted files reach 0.023 (QuaterniusRobot), greenman 0.020;
//       joint indices shifted by one give 0.057 (QuaterniusRobot) to 0.174 (greenman).
//       (The fraction of misplaced vertices separates worse: greenman 9.2 % clean, CesiumMan
//       13.9 % shifted, so it is reported, not used.)
//   kMedianBoneDistance 0.15 with kCollapsedSpread 1e-3, animated skins only: a collapsed bind
//       skeleton puts half the vertices 0.25 (Fox) to 0.66 (CesiumMan) diagonals from their bone;
//       clean characters 0.04-0.15 (greenman 0.153 has a spread skeleton, so it does not count).
//       The unanimated assimp edge-case files have collapsed skeletons on purpose (0.5-0.7) and
//       are not flagged: a collapsed skeleton only shows when it moves.
// The detectors live in rig_doctor_weights.cpp, rig_doctor_ibm.cpp and rig_doctor_joint_order.cpp.
#include "analysis/rig_doctor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <numeric>

#include "analysis/rig_doctor_internal.h"
#include "analysis/skinning_artefacts.h"

namespace rig {

namespace rig_doctor_detail {

std::string fmt(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", value);
  return text;
}

std::string skin_label(const Model& model, int s) {
  const Skin& skin = model.skins[size_t(s)];
  return "skin " + std::to_string(s) + (skin.name.empty() ? "" : " '" + skin.name + "'");
}

std::string joint_label(const Model& model, int s, int j) {
  const Skin& skin = model.skins[size_t(s)];
  const std::string& name = model.nodes[size_t(skin.joints[size_t(j)])].name;
  return name.empty() ? "joint " + std::to_string(j) : name;
}

// "a, b, c and 4 more" over the first joints of `joints`.
std::string joint_list(const Model& model, int s, const std::vector<int>& joints, size_t shown) {
  std::string text;
  for (size_t k = 0; k < joints.size() && k < shown; ++k) {
    if (k > 0) text += ", ";
    text += joint_label(model, s, joints[k]);
  }
  if (joints.size() > shown) text += " and " + std::to_string(joints.size() - shown) + " more";
  return text;
}

// Joint indices sorted by `score`, largest first, those with score > `floor` only.
std::vector<int> ranked(const std::vector<double>& score, double floor) {
  std::vector<int> order;
  for (size_t j = 0; j < score.size(); ++j) {
    if (score[j] > floor) order.push_back(int(j));
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return score[size_t(x)] > score[size_t(y)]; });
  if (order.size() > kMaxListedJoints) order.resize(kMaxListedJoints);
  return order;
}

std::vector<glm::dmat4> rest_world(const Model& model) {
  std::vector<glm::dmat4> world(model.nodes.size(), glm::dmat4(1.0));
  for (int n : model.node_order) {
    const Node& node = model.nodes[size_t(n)];
    glm::dmat4 local = glm::dmat4(trs_matrix(node.rest));
    if (node.has_shear) local = local * glm::dmat4(node.shear);
    world[size_t(n)] = node.parent >= 0 ? world[size_t(node.parent)] * local : local;
  }
  return world;
}

// Dominant influence slot of vertex v (largest weight, ties → smallest joint index), -1 if none.
int dominant_slot(const DoctorPrimitive& p, uint32_t v) {
  int best = -1;
  for (uint32_t i = 0; i < p.influences; ++i) {
    const size_t k = size_t(v) * p.influences + i;
    if (!(p.weights[k] > 0.0f)) continue;
    if (best < 0) {
      best = int(i);
      continue;
    }
    const size_t b = size_t(v) * p.influences + size_t(best);
    if (p.weights[k] > p.weights[b] || (p.weights[k] == p.weights[b] && p.joints[k] < p.joints[b]))
      best = int(i);
  }
  return best;
}

RigDiagnosis Doctor::run() {
  world_ = rest_world(model_);
  out_.heat.resize(model_.draws.size());
  out_.skins.resize(model_.skins.size());
  collect_skins();
  for (SkinWork& work : skins_) {
    if (work.draws.empty() || work.joint_count == 0) continue;
    weights(work);
    bind_pose(work);
    // Without IBMs the vertex-to-bone check sees the collapsed bind skeleton (and says so). A bug
    // the bind skeleton names makes it read wrong bones: its findings would misname it.
    if (work.ibm_missing || singular_ibms(work)) {
      joint_order(work);
      continue;
    }
    if (bind_skeleton(work)) continue;
    translation_only(work);
    joint_order(work);
  }
  std::stable_sort(
      out_.findings.begin(), out_.findings.end(),
      [](const RigFinding& a, const RigFinding& b) { return int(a.severity) > int(b.severity); });
  for (const RigFinding& finding : out_.findings) {
    if (finding.severity == RigSeverity::Info) continue;
    for (size_t d = 0; d < finding.affected.size(); ++d) {
      const std::vector<float>& a = finding.affected[d];
      if (a.empty()) continue;
      std::vector<float>& heat = out_.heat[d];
      if (heat.size() != a.size()) heat.assign(a.size(), 0.0f);
      for (size_t v = 0; v < a.size(); ++v) heat[v] = std::max(heat[v], a[v]);
    }
  }
  for (size_t d = 0; d < model_.draws.size(); ++d) {
    const DrawItem& item = model_.draws[d];
    if (item.skin >= 0 && out_.heat[d].empty())
      out_.heat[d].assign(primitive(int(d)).vertex_count(), 0.0f);
  }
  return std::move(out_);
}

RigFinding& Doctor::add(SkinWork& work, const std::string& code, RigSeverity severity,
                        uint64_t count, const std::string& message, double value,
                        std::vector<int> joints) {
  RigFinding finding;
  finding.warning = {code, skin_label(model_, work.s) + ": " + message, count};
  finding.severity = severity;
  finding.skin = work.s;
  finding.joints = std::move(joints);
  finding.value = value;
  finding.affected.resize(model_.draws.size());
  out_.findings.push_back(std::move(finding));
  return out_.findings.back();
}

void Doctor::collect_skins() {
  skins_.resize(model_.skins.size());
  for (size_t s = 0; s < model_.skins.size(); ++s) {
    SkinWork& work = skins_[s];
    const Skin& skin = model_.skins[s];
    work.s = int(s);
    work.joint_count = skin.joints.size();
    work.skinning.resize(work.joint_count);
    for (size_t j = 0; j < work.joint_count; ++j) {
      work.skinning[j] = world_[size_t(skin.joints[j])] * glm::dmat4(inverse_bind(int(s), j));
    }
    // Bone segments at bind time, as skinning_artefacts.h defines them.
    work.seg_a.resize(work.joint_count);
    work.seg_b.resize(work.joint_count);
    std::vector<int> child_count(work.joint_count, 0);
    std::vector<glm::dvec3> child_sum(work.joint_count, glm::dvec3(0.0));
    for (size_t j = 0; j < work.joint_count; ++j) {
      const glm::dmat4 bind = glm::inverse(glm::dmat4(inverse_bind(int(s), j)));
      work.seg_a[j] = glm::vec3(bind[3]);
    }
    for (size_t j = 0; j < work.joint_count; ++j) {
      const int p = skin.joint_parent[j];
      if (p < 0) continue;
      child_sum[size_t(p)] += glm::dvec3(work.seg_a[j]);
      ++child_count[size_t(p)];
    }
    for (size_t j = 0; j < work.joint_count; ++j) {
      work.seg_b[j] =
          child_count[j] > 0 ? glm::vec3(child_sum[j] / double(child_count[j])) : work.seg_a[j];
    }
  }
  for (size_t d = 0; d < model_.draws.size(); ++d) {
    const DrawItem& item = model_.draws[d];
    if (item.skin < 0 || size_t(item.skin) >= skins_.size()) continue;
    skins_[size_t(item.skin)].draws.push_back(int(d));
  }
  for (SkinWork& work : skins_) {
    glm::dvec3 lo(std::numeric_limits<double>::infinity()), hi(-lo);
    glm::dvec3 rlo = lo, rhi = hi;
    work.rest.resize(work.draws.size());
    for (size_t k = 0; k < work.draws.size(); ++k) {
      const DoctorPrimitive p = primitive(work.draws[k]);
      std::vector<glm::dvec3>& rest = work.rest[k];
      rest.resize(p.vertex_count());
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        const glm::dvec4 bind(glm::dvec3(p.positions[v]), 1.0);
        lo = glm::min(lo, glm::dvec3(bind));
        hi = glm::max(hi, glm::dvec3(bind));
        glm::dvec3 sum(0.0);
        double total = 0.0;
        for (uint32_t i = 0; i < p.influences; ++i) {
          const size_t slot = size_t(v) * p.influences + i;
          const double w = p.weights[slot];
          if (!(w > 0.0) || p.joints[slot] >= work.joint_count) continue;
          sum += w * glm::dvec3(work.skinning[p.joints[slot]] * bind);
          total += w;
        }
        rest[v] = total > 0.0 ? sum / total : glm::dvec3(bind);
        rlo = glm::min(rlo, rest[v]);
        rhi = glm::max(rhi, rest[v]);
      }
    }
    if (lo.x <= hi.x) {
      work.bind_min = lo;
      work.bind_max = hi;
      work.diagonal = glm::length(hi - lo);
      work.rest_diagonal = glm::length(rhi - rlo);
    }
    if (!(work.diagonal > 0.0) || !std::isfinite(work.diagonal)) work.diagonal = 1.0;
    if (!(work.rest_diagonal > 0.0) || !std::isfinite(work.rest_diagonal))
      work.rest_diagonal = work.diagonal;
  }
}

void Doctor::mark_dominant(SkinWork& work, RigFinding& f, const std::vector<int>& joints) {
  std::vector<uint8_t> flagged(work.joint_count, 0);
  for (int j : joints) flagged[size_t(j)] = 1;
  for (int d : work.draws) {
    const DoctorPrimitive p = primitive(d);
    std::vector<float>& m = f.affected[size_t(d)];
    m.assign(p.vertex_count(), 0.0f);
    for (uint32_t v = 0; v < p.vertex_count(); ++v) {
      float sum = 0.0f;
      for (uint32_t i = 0; i < p.influences; ++i) {
        const size_t slot = size_t(v) * p.influences + i;
        if (p.joints[slot] < work.joint_count && flagged[p.joints[slot]]) sum += p.weights[slot];
      }
      m[v] = std::min(sum, 1.0f);
    }
  }
}

}  // namespace rig_doctor_detail

const char* severity_name(RigSeverity severity) {
  switch (severity) {
    case RigSeverity::Info:
      return "info";
    case RigSeverity::Warning:
      return "warning";
    case RigSeverity::Error:
      return "error";
  }
  return "info";
}

bool RigDiagnosis::has_errors() const {
  for (const RigFinding& f : findings) {
    if (f.severity == RigSeverity::Error) return true;
  }
  return false;
}

std::vector<ImportWarning> RigDiagnosis::warnings() const {
  std::vector<ImportWarning> out;
  out.reserve(findings.size());
  for (const RigFinding& f : findings) out.push_back(f.warning);
  return out;
}

const RigFinding* RigDiagnosis::find(const std::string& code) const {
  for (const RigFinding& f : findings) {
    if (f.warning.code == code) return &f;
  }
  return nullptr;
}

RigDiagnosis examine_rig(const Model& model) {
  return rig_doctor_detail::Doctor(model, nullptr).run();
}

RigDiagnosis examine_rig(const Model& model, const SkinLayer& skin) {
  return rig_doctor_detail::Doctor(model, &skin).run();
}

std::vector<ImportWarning> diagnose_rig(const Model& model) {
  return examine_rig(model).warnings();
}

}  // namespace rig
