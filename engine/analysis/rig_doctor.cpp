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
#include "analysis/rig_doctor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <numeric>

#include "analysis/skinning_artefacts.h"

namespace rig {
namespace {

constexpr double kRotatedDegrees = 5.0;  // a joint frame rotated by more is "rotated"
constexpr size_t kMaxListedJoints = 16;
constexpr uint64_t kNearestBudget = uint64_t{1} << 26;

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
std::string joint_list(const Model& model, int s, const std::vector<int>& joints,
                       size_t shown = 4) {
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
int dominant_slot(const Primitive& p, uint32_t v) {
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

struct SkinWork {
  int s = -1;
  std::vector<int> draws;  // Model::draws indices deformed by this skin
  double diagonal = 0.0;   // D
  glm::dvec3 bind_min{0.0}, bind_max{0.0};
  std::vector<glm::dmat4> skinning;  // S_j at rest
  std::vector<glm::vec3> seg_a, seg_b;
  size_t joint_count = 0;
  // Per draw (parallel to draws): skinned rest positions v′.
  std::vector<std::vector<glm::dvec3>> rest;
  double rest_diagonal = 0.0;  // of v′
};

class Doctor {
 public:
  explicit Doctor(const Model& model) : model_(model) {}

  RigDiagnosis run() {
    world_ = rest_world(model_);
    out_.heat.resize(model_.draws.size());
    out_.skins.resize(model_.skins.size());
    collect_skins();
    for (SkinWork& work : skins_) {
      if (work.draws.empty() || work.joint_count == 0) continue;
      weights(work);
      bind_pose(work);
      ibm_checks(work);
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

 private:
  const Primitive& primitive(int d) const {
    const DrawItem& item = model_.draws[size_t(d)];
    return model_.meshes[size_t(item.mesh)].primitives[size_t(item.primitive)];
  }

  RigFinding& add(SkinWork& work, const std::string& code, RigSeverity severity, uint64_t count,
                  const std::string& message, double value, std::vector<int> joints) {
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

  void collect_skins() {
    skins_.resize(model_.skins.size());
    for (size_t s = 0; s < model_.skins.size(); ++s) {
      SkinWork& work = skins_[s];
      const Skin& skin = model_.skins[s];
      work.s = int(s);
      work.joint_count = skin.joints.size();
      work.skinning.resize(work.joint_count);
      for (size_t j = 0; j < work.joint_count; ++j) {
        work.skinning[j] = world_[size_t(skin.joints[j])] * glm::dmat4(skin.inverse_bind[j]);
      }
      // Bone segments at bind time, as skinning_artefacts.h defines them.
      work.seg_a.resize(work.joint_count);
      work.seg_b.resize(work.joint_count);
      std::vector<int> child_count(work.joint_count, 0);
      std::vector<glm::dvec3> child_sum(work.joint_count, glm::dvec3(0.0));
      for (size_t j = 0; j < work.joint_count; ++j) {
        const glm::dmat4 bind = glm::inverse(glm::dmat4(skin.inverse_bind[j]));
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
        const Primitive& p = primitive(work.draws[k]);
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

  // Histogram, WEIGHTS_TINY, WEIGHTS_NONE, WEIGHTS_SKIP_JOINT, JOINTS_UNUSED.
  void weights(SkinWork& work) {
    const Skin& skin = model_.skins[size_t(work.s)];
    std::vector<uint8_t> used(work.joint_count, 0);
    uint64_t tiny = 0, none = 0, skip = 0;
    std::vector<double> tiny_joint(work.joint_count, 0.0), skip_joint(work.joint_count, 0.0);
    std::vector<std::vector<float>> tiny_map(model_.draws.size()), none_map(model_.draws.size()),
        skip_map(model_.draws.size());
    std::vector<uint8_t> weighted(work.joint_count, 0);
    for (int d : work.draws) {
      const Primitive& p = primitive(d);
      tiny_map[size_t(d)].assign(p.vertex_count(), 0.0f);
      none_map[size_t(d)].assign(p.vertex_count(), 0.0f);
      skip_map[size_t(d)].assign(p.vertex_count(), 0.0f);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        uint32_t non_zero = 0;
        bool usable = false;
        for (uint32_t i = 0; i < p.influences; ++i) {
          const size_t slot = size_t(v) * p.influences + i;
          const float w = p.weights[slot];
          const uint16_t j = p.joints[slot];
          if (!(w > 0.0f)) continue;
          ++non_zero;
          if (j >= work.joint_count) continue;
          usable = true;
          used[j] = 1;
          weighted[j] = 1;
          if (w < kTinyWeight) {
            ++tiny;
            tiny_joint[j] += 1.0;
            tiny_map[size_t(d)][v] = 1.0f;
          }
        }
        if (out_.influence_histogram.size() <= non_zero)
          out_.influence_histogram.resize(non_zero + 1, 0);
        ++out_.influence_histogram[non_zero];
        if (!usable) {
          ++none;
          none_map[size_t(d)][v] = 1.0f;
          continue;
        }
        // A weighted joint whose nearest weighted skin ancestor is two or more levels up.
        bool skipped = false;
        for (uint32_t i = 0; i < p.influences && !skipped; ++i) {
          const size_t slot = size_t(v) * p.influences + i;
          if (!(p.weights[slot] > 0.0f) || p.joints[slot] >= work.joint_count) continue;
          const int x = p.joints[slot];
          const int parent = skin.joint_parent[size_t(x)];
          if (parent < 0 || weighted[size_t(parent)]) continue;
          int steps = 1;
          for (int y = skin.joint_parent[size_t(parent)]; y >= 0 && steps < 64;
               y = skin.joint_parent[size_t(y)], ++steps) {
            if (weighted[size_t(y)]) {
              skipped = true;
              skip_joint[size_t(parent)] += 1.0;
              break;
            }
          }
        }
        if (skipped) {
          ++skip;
          skip_map[size_t(d)][v] = 1.0f;
        }
        for (uint32_t i = 0; i < p.influences; ++i) {
          const size_t slot = size_t(v) * p.influences + i;
          if (p.joints[slot] < work.joint_count) weighted[p.joints[slot]] = 0;
        }
      }
    }
    uint64_t total = 0;
    for (int d : work.draws) total += primitive(d).vertex_count();
    if (tiny > 0) {
      RigFinding& f =
          add(work, "WEIGHTS_TINY", RigSeverity::Warning, tiny,
              std::to_string(tiny) + " influences have weights below " + fmt(kTinyWeight) +
                  " (most on " + joint_list(model_, work.s, ranked(tiny_joint, 0.0), 3) + ")",
              double(tiny), ranked(tiny_joint, 0.0));
      f.affected = std::move(tiny_map);
    }
    if (none > 0) {
      RigFinding& f = add(work, "WEIGHTS_NONE", RigSeverity::Warning, none,
                          std::to_string(none) + " of " + std::to_string(total) +
                              " skinned vertices have no usable weight (they stay at their bind "
                              "position)",
                          double(none) / double(std::max<uint64_t>(total, 1)), {});
      f.affected = std::move(none_map);
    }
    if (skip > 0) {
      RigFinding& f =
          add(work, "WEIGHTS_SKIP_JOINT", RigSeverity::Warning, skip,
              std::to_string(skip) +
                  " vertices are weighted to a joint and to an ancestor two or more levels up "
                  "but not to the joints in between (skipped: " +
                  joint_list(model_, work.s, ranked(skip_joint, 0.0), 3) + ")",
              double(skip), ranked(skip_joint, 0.0));
      f.affected = std::move(skip_map);
    }
    std::vector<int> unused;
    for (size_t j = 0; j < work.joint_count; ++j) {
      if (!used[j]) unused.push_back(int(j));
    }
    if (!unused.empty()) {
      add(work, "JOINTS_UNUSED", RigSeverity::Info, unused.size(),
          std::to_string(unused.size()) + " of " + std::to_string(work.joint_count) +
              " joints have no vertex weighted to them (" + joint_list(model_, work.s, unused) +
              ")",
          double(unused.size()),
          std::vector<int>(unused.begin(),
                           unused.begin() + std::min(unused.size(), kMaxListedJoints)));
    }
  }

  // BIND_POSE_DIFFERS (info) and IBM_MISSING (error).
  void bind_pose(SkinWork& work) {
    const Skin& skin = model_.skins[size_t(work.s)];
    const double D = work.diagonal;
    const glm::dvec3 center = 0.5 * (work.bind_min + work.bind_max);
    // Least squares A = B M⁻¹ on centred, scaled coordinates x = (v − c) / D.
    glm::dmat4 M(0.0);
    glm::dmat4 B(0.0);  // columns: Σ v′ xᵀ (rows 0..2 used)
    double raw = 0.0;
    uint64_t count = 0;
    for (size_t k = 0; k < work.draws.size(); ++k) {
      const Primitive& p = primitive(work.draws[k]);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        const glm::dvec4 x((glm::dvec3(p.positions[v]) - center) / D, 1.0);
        const glm::dvec3& r = work.rest[k][v];
        M += glm::outerProduct(x, x);
        B += glm::outerProduct(glm::dvec4(r, 0.0), x);
        raw = std::max(raw, glm::length(r - glm::dvec3(p.positions[v])));
        ++count;
      }
    }
    if (count == 0) return;
    // A tiny ridge keeps flat (planar) meshes solvable; it does not move the fit of their points.
    const double ridge = 1e-9 * double(count);
    for (int i = 0; i < 3; ++i) M[i][i] += ridge;
    const glm::dmat4 A = B * glm::inverse(M);
    double residual = 0.0;
    std::vector<double> joint_residual(work.joint_count, 0.0);
    std::vector<std::vector<float>> map(model_.draws.size());
    std::vector<std::vector<double>> per_vertex(work.draws.size());
    for (size_t k = 0; k < work.draws.size(); ++k) {
      const Primitive& p = primitive(work.draws[k]);
      per_vertex[k].resize(p.vertex_count());
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        const glm::dvec4 x((glm::dvec3(p.positions[v]) - center) / D, 1.0);
        const glm::dvec3 fit = glm::dvec3(A * x);
        const double r = glm::length(work.rest[k][v] - fit) / D;
        per_vertex[k][v] = r;
        residual = std::max(residual, r);
        const int slot = dominant_slot(p, v);
        if (slot < 0) continue;
        const uint16_t j = p.joints[size_t(v) * p.influences + size_t(slot)];
        if (j >= work.joint_count) continue;
        const glm::dvec3 moved =
            glm::dvec3(work.skinning[j] * glm::dvec4(glm::dvec3(p.positions[v]), 1.0));
        joint_residual[j] = std::max(joint_residual[j], glm::length(moved - fit) / D);
      }
    }
    if (!std::isfinite(residual)) residual = std::numeric_limits<double>::max();
    for (size_t k = 0; k < work.draws.size(); ++k) {
      std::vector<float>& m = map[size_t(work.draws[k])];
      m.resize(per_vertex[k].size());
      for (size_t v = 0; v < m.size(); ++v) {
        m[v] = residual > 0.0 ? float(std::clamp(per_vertex[k][v] / residual, 0.0, 1.0)) : 0.0f;
      }
    }
    work_residual_ = residual;
    out_.skins[size_t(work.s)].diagonal = D;
    out_.skins[size_t(work.s)].bind_displacement = raw / D;
    out_.skins[size_t(work.s)].bind_residual = residual;
    const std::vector<int> joints = ranked(joint_residual, kBindResidualInfo);

    bool all_identity = true;
    double joint_offset = 0.0;
    for (size_t j = 0; j < work.joint_count; ++j) {
      if (skin.inverse_bind[j] != glm::mat4(1.0f)) all_identity = false;
      joint_offset =
          std::max(joint_offset, glm::length(glm::dvec3(world_[size_t(skin.joints[j])][3])) / D);
    }
    out_.skins[size_t(work.s)].joint_offset = joint_offset;
    if (all_identity && joint_offset > 1e-3 && residual > kMissingResidual) {
      RigFinding& f = add(
          work, "IBM_MISSING", RigSeverity::Error, work.joint_count,
          "no inverse bind matrices (all identity) but the joints are up to " + fmt(joint_offset) +
              " diagonals from the origin: the character explodes, vertices torn apart by " +
              fmt(residual) + " diagonals (moved by up to " + fmt(raw / D) + "); worst joints " +
              joint_list(model_, work.s, joints),
          residual, joints);
      f.affected = map;
      return;
    }
    if (residual > kBindResidualInfo) {
      RigFinding& f =
          add(work, "BIND_POSE_DIFFERS", RigSeverity::Info, joints.size(),
              "the rest pose differs from the bind pose by " + fmt(residual) +
                  " diagonals beyond one global transform (raw displacement " + fmt(raw / D) +
                  "); joints farthest from the bind pose: " + joint_list(model_, work.s, joints),
              residual, joints);
      f.affected = std::move(map);
    }
  }

  // IBM_SUSPECT: singular or non-affine matrices; matrices that only negate a translation.
  void ibm_checks(SkinWork& work) {
    const Skin& skin = model_.skins[size_t(work.s)];
    const double D = work.diagonal;
    std::vector<int> bad;
    bool all_translation = true;
    for (size_t j = 0; j < work.joint_count; ++j) {
      const glm::dmat4 ibm(skin.inverse_bind[j]);
      const double det = glm::determinant(glm::dmat3(ibm));
      double scale = 0.0;
      for (int c = 0; c < 3; ++c) scale = std::max(scale, glm::length(glm::dvec3(ibm[c])));
      const bool affine = std::abs(ibm[0][3]) < 1e-5 && std::abs(ibm[1][3]) < 1e-5 &&
                          std::abs(ibm[2][3]) < 1e-5 && std::abs(ibm[3][3] - 1.0) < 1e-5;
      if (!affine || !(std::abs(det) > 1e-9 * scale * scale * scale) || scale == 0.0) {
        bad.push_back(int(j));
        continue;
      }
      for (int c = 0; c < 3; ++c)
        for (int k = 0; k < 3; ++k)
          all_translation = all_translation && std::abs(ibm[c][k] - (c == k ? 1.0 : 0.0)) < 1e-4;
    }
    if (!bad.empty()) {
      std::vector<int> joints = bad;
      if (joints.size() > kMaxListedJoints) joints.resize(kMaxListedJoints);
      RigFinding& f =
          add(work, "IBM_SUSPECT", RigSeverity::Error, bad.size(),
              std::to_string(bad.size()) + " inverse bind matrices are singular or not affine (" +
                  joint_list(model_, work.s, bad) + ")",
              double(bad.size()), joints);
      mark_dominant(work, f, bad);
      return;
    }
    // Translation-only IBMs: every IBM is a pure translation T(−a_j), the rest-pose joint
    // positions are the bind positions a_j up to one global affine map (so each IBM negates its
    // joint's translation), yet joints are rotated relative to their skin parents in the rest
    // pose. Then the bind pose the IBMs describe has every joint frame parallel while the
    // skeleton's are not: the rotation part of each IBM is not the inverse of its joint's.
    if (!all_translation || work.joint_count < 3) return;
    glm::dmat4 M(0.0), B(0.0);
    for (size_t j = 0; j < work.joint_count; ++j) {
      const glm::dvec4 x(glm::dvec3(work.seg_a[j]) / D, 1.0);
      const glm::dvec3 rest(world_[size_t(skin.joints[j])][3]);
      M += glm::outerProduct(x, x);
      B += glm::outerProduct(glm::dvec4(rest, 0.0), x);
    }
    for (int i = 0; i < 3; ++i) M[i][i] += 1e-9 * double(work.joint_count);
    const glm::dmat4 A = B * glm::inverse(M);
    double position_misfit = 0.0, rest_scale = 0.0;
    for (size_t j = 0; j < work.joint_count; ++j) {
      const glm::dvec4 x(glm::dvec3(work.seg_a[j]) / D, 1.0);
      position_misfit =
          std::max(position_misfit,
                   glm::length(glm::dvec3(A * x) - glm::dvec3(world_[size_t(skin.joints[j])][3])));
    }
    for (int c = 0; c < 3; ++c) rest_scale = std::max(rest_scale, glm::length(glm::dvec3(A[c])));
    if (!(position_misfit <= 1e-3 * std::max(rest_scale, 1e-12))) return;
    std::vector<int> rotated;
    for (size_t j = 0; j < work.joint_count; ++j) {
      const int parent = skin.joint_parent[j];
      if (parent < 0) continue;
      auto rotation = [&](int joint) {
        glm::dmat3 r(world_[size_t(skin.joints[size_t(joint)])]);
        for (int c = 0; c < 3; ++c) {
          const double length = glm::length(r[c]);
          if (length > 0.0) r[c] /= length;
        }
        return glm::normalize(glm::quat_cast(glm::mat3(r)));
      };
      const glm::quat relative = glm::inverse(rotation(parent)) * rotation(int(j));
      const double angle =
          glm::degrees(2.0 * std::acos(std::min(1.0, double(std::abs(relative.w)))));
      if (std::isfinite(angle) && angle > kRotatedDegrees) rotated.push_back(int(j));
    }
    if (rotated.size() < 2) return;
    std::vector<int> joints = rotated;
    if (joints.size() > kMaxListedJoints) joints.resize(kMaxListedJoints);
    RigFinding& f =
        add(work, "IBM_SUSPECT", RigSeverity::Error, rotated.size(),
            "the inverse bind matrices only negate each joint's translation: they carry no "
            "rotation while " +
                std::to_string(rotated.size()) + " of " + std::to_string(work.joint_count) +
                " joints are rotated relative to their parents (" +
                joint_list(model_, work.s, rotated) + "); the rest pose is torn by " +
                fmt(work_residual_) + " diagonals",
            double(rotated.size()), joints);
    mark_dominant(work, f, rotated);
  }

  void mark_dominant(SkinWork& work, RigFinding& f, const std::vector<int>& joints) {
    std::vector<uint8_t> flagged(work.joint_count, 0);
    for (int j : joints) flagged[size_t(j)] = 1;
    for (int d : work.draws) {
      const Primitive& p = primitive(d);
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

  // Mean excess distance (dominant segment vs nearest segment) over weighted vertices when the
  // dominant joint index is read as (d + shift) mod n; per-vertex excess in `excess` for shift 0.
  double order_cost(const SkinWork& work, int shift, std::vector<std::vector<double>>* excess,
                    uint64_t* misplaced, std::vector<double>* joint_misplaced) const {
    const double D = work.diagonal;
    const int n = int(work.joint_count);
    double sum = 0.0;
    uint64_t count = 0;
    // The nearest bone costs joints × vertices; past kNearestBudget pairs every stride-th vertex
    // is measured instead (a hostile file cannot make the doctor take minutes).
    uint64_t vertices = 0;
    for (int d : work.draws) vertices += primitive(d).vertex_count();
    const uint64_t stride = std::max<uint64_t>(1, vertices * uint64_t(n) / kNearestBudget + 1);
    for (size_t k = 0; k < work.draws.size(); ++k) {
      const Primitive& p = primitive(work.draws[k]);
      if (excess) (*excess)[k].assign(p.vertex_count(), 0.0);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        if (stride > 1 && v % stride != 0) continue;
        const int slot = dominant_slot(p, v);
        if (slot < 0) continue;
        const int file_joint = p.joints[size_t(v) * p.influences + size_t(slot)];
        if (file_joint >= n) continue;
        const int j = ((file_joint + shift) % n + n) % n;
        const glm::vec3 pos = p.positions[v];
        float nearest = std::numeric_limits<float>::infinity();
        for (int c = 0; c < n; ++c) {
          nearest = std::min(
              nearest, distance_to_segment(pos, work.seg_a[size_t(c)], work.seg_b[size_t(c)]));
        }
        const double e =
            (double(distance_to_segment(pos, work.seg_a[size_t(j)], work.seg_b[size_t(j)])) -
             double(nearest)) /
            D;
        if (!std::isfinite(e)) continue;
        sum += e;
        ++count;
        if (excess) (*excess)[k][v] = e;
        if (misplaced && e > kMisplacedExcess) {
          ++*misplaced;
          if (joint_misplaced) (*joint_misplaced)[size_t(j)] += 1.0;
        }
      }
    }
    return count > 0 ? sum / double(count) : 0.0;
  }

  // Whether a clip moves a joint of the skin (a channel on the joint or on an ancestor).
  bool animated(const SkinWork& work) const {
    std::vector<uint8_t> moved(model_.nodes.size(), 0);
    for (const Clip& clip : model_.clips) {
      for (const Channel& channel : clip.channels) {
        if (channel.path != TargetPath::Weights && channel.node >= 0 &&
            size_t(channel.node) < moved.size())
          moved[size_t(channel.node)] = 1;
      }
    }
    for (int joint : model_.skins[size_t(work.s)].joints) {
      for (int n = joint; n >= 0; n = model_.nodes[size_t(n)].parent) {
        if (moved[size_t(n)]) return true;
      }
    }
    return false;
  }

  // Largest distance between two bind joint positions, / D.
  double bind_spread(const SkinWork& work) const {
    glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-lo);
    for (const glm::vec3& a : work.seg_a) {
      lo = glm::min(lo, a);
      hi = glm::max(hi, a);
    }
    return work.seg_a.empty() ? 0.0 : double(glm::length(hi - lo)) / work.diagonal;
  }

  void joint_order(SkinWork& work) {
    if (work.joint_count < 2) return;
    std::vector<std::vector<double>> excess(work.draws.size());
    uint64_t misplaced = 0;
    std::vector<double> joint_misplaced(work.joint_count, 0.0);
    const double cost = order_cost(work, 0, &excess, &misplaced, &joint_misplaced);
    uint64_t weighted = 0;
    for (int d : work.draws) {
      const Primitive& p = primitive(d);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) weighted += dominant_slot(p, v) >= 0;
    }
    const double fraction = weighted > 0 ? double(misplaced) / double(weighted) : 0.0;
    // How far vertices are from the bones they follow, whatever the other bones do: the median
    // of dist(v, segment of d(v)) / D.
    std::vector<float> distances;
    distances.reserve(size_t(weighted));
    for (int d : work.draws) {
      const Primitive& p = primitive(d);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        const int slot = dominant_slot(p, v);
        if (slot < 0) continue;
        const uint16_t j = p.joints[size_t(v) * p.influences + size_t(slot)];
        if (j >= work.joint_count) continue;
        distances.push_back(
            float(double(distance_to_segment(p.positions[v], work.seg_a[j], work.seg_b[j])) /
                  work.diagonal));
      }
    }
    double median_distance = 0.0;
    if (!distances.empty()) {
      const size_t mid = distances.size() / 2;
      std::nth_element(distances.begin(), distances.begin() + std::ptrdiff_t(mid), distances.end());
      median_distance = distances[mid];
    }
    out_.skins[size_t(work.s)].median_bone_distance = median_distance;
    out_.skins[size_t(work.s)].misplaced_fraction = fraction;
    out_.skins[size_t(work.s)].mean_excess = cost;
    const double spread = bind_spread(work);
    out_.skins[size_t(work.s)].bind_joint_spread = spread;
    // A bind skeleton collapsed to one point (every IBM⁻¹ at the same place) with the mesh around
    // it: e.g. identity IBMs on a skeleton whose joints sit at the origin, or IBM · world.
    const bool far_from_bones = work.joint_count > 1 && spread < kCollapsedSpread &&
                                median_distance > kMedianBoneDistance && animated(work);
    if (!(cost > kMeanExcess) && !far_from_bones) return;
    int best_shift = 0;
    double best_cost = cost;
    for (int shift : {-1, 1, -2, 2}) {
      if (std::abs(shift) >= int(work.joint_count)) continue;
      const double c = order_cost(work, shift, nullptr, nullptr, nullptr);
      if (c < best_cost) {
        best_cost = c;
        best_shift = shift;
      }
    }
    if (!far_from_bones) {
      const std::vector<int> joints = ranked(joint_misplaced, 0.0);
      std::string message =
          "weights and skeleton disagree: vertices are on average " + fmt(cost) +
          " diagonals farther from the bone they mostly follow than from the nearest bone, " +
          std::to_string(misplaced) + " of " + std::to_string(weighted) + " (" +
          fmt(100.0 * fraction) + "%) by more than " + fmt(kMisplacedExcess) + "; worst at " +
          joint_list(model_, work.s, joints);
      if (best_shift != 0 && best_cost < 0.5 * cost && best_cost <= kMeanExcess) {
        message += "; reading every joint index j as j" + std::string(best_shift > 0 ? "+" : "") +
                   std::to_string(best_shift) + " fits far better (mean " + fmt(best_cost) +
                   "): the joint indices look shifted by " + std::to_string(-best_shift);
      }
      RigFinding& f =
          add(work, "JOINT_ORDER_SUSPECT", RigSeverity::Error, misplaced, message, cost, joints);
      for (size_t k = 0; k < work.draws.size(); ++k) {
        std::vector<float>& m = f.affected[size_t(work.draws[k])];
        m.resize(excess[k].size());
        for (size_t v = 0; v < m.size(); ++v) {
          m[v] = float(std::clamp(excess[k][v] / (2.0 * kMisplacedExcess), 0.0, 1.0));
        }
      }
      return;
    }
    // Collapsed bind skeleton: every vertex is far from "its" bone; list the joints that carry
    // the most distant vertices.
    std::vector<double> joint_far(work.joint_count, 0.0);
    uint64_t far = 0;
    std::vector<std::vector<float>> map(model_.draws.size());
    for (int d : work.draws) {
      const Primitive& p = primitive(d);
      map[size_t(d)].assign(p.vertex_count(), 0.0f);
      for (uint32_t v = 0; v < p.vertex_count(); ++v) {
        const int slot = dominant_slot(p, v);
        if (slot < 0) continue;
        const uint16_t j = p.joints[size_t(v) * p.influences + size_t(slot)];
        if (j >= work.joint_count) continue;
        const double r = double(distance_to_segment(p.positions[v], work.seg_a[j], work.seg_b[j])) /
                         work.diagonal;
        map[size_t(d)][v] = float(std::clamp(r / (2.0 * kMedianBoneDistance), 0.0, 1.0));
        if (r <= kMedianBoneDistance) continue;
        ++far;
        joint_far[j] += 1.0;
      }
    }
    const std::vector<int> joints = ranked(joint_far, 0.0);
    RigFinding& f = add(
        work, "JOINT_ORDER_SUSPECT", RigSeverity::Error, far,
        "weights and skeleton disagree: every joint is at the same point at bind time while " +
            std::to_string(far) + " of " + std::to_string(weighted) + " vertices are more than " +
            fmt(kMedianBoneDistance) + " diagonals from it (median " + fmt(median_distance) +
            "), so the parts will turn about that point rather than their joints (inverse bind "
            "matrices missing, or IBM x world in place of world x IBM?); most at " +
            joint_list(model_, work.s, joints),
        median_distance, joints);
    f.affected = std::move(map);
  }

  const Model& model_;
  std::vector<glm::dmat4> world_;
  std::vector<SkinWork> skins_;
  RigDiagnosis out_;
  double work_residual_ = 0.0;  // the current skin's bind residual (for IBM_SUSPECT's message)
};

}  // namespace

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

RigDiagnosis examine_rig(const Model& model) { return Doctor(model).run(); }

std::vector<ImportWarning> diagnose_rig(const Model& model) {
  return examine_rig(model).warnings();
}

}  // namespace rig
