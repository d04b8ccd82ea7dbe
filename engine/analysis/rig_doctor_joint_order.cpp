// The rig doctor's joint-order check: joint indices read as shifted, and a collapsed bind
// skeleton (thresholds: rig_doctor.h, chosen as rig_doctor.cpp says).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <numeric>

#include "analysis/rig_doctor_internal.h"
#include "analysis/skinning_artefacts.h"

namespace rig::rig_doctor_detail {

// Mean excess distance (dominant segment vs nearest segment) over weighted vertices when the
// dominant joint index is read as (d + shift) mod n; per-vertex excess in `excess` for shift 0.
double Doctor::order_cost(const SkinWork& work, int shift, std::vector<std::vector<double>>* excess,
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
    const DoctorPrimitive p = primitive(work.draws[k]);
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
        nearest = std::min(nearest,
                           distance_to_segment(pos, work.seg_a[size_t(c)], work.seg_b[size_t(c)]));
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
bool Doctor::animated(const SkinWork& work) const {
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
double Doctor::bind_spread(const SkinWork& work) const {
  glm::vec3 lo(std::numeric_limits<float>::infinity()), hi(-lo);
  for (const glm::vec3& a : work.seg_a) {
    lo = glm::min(lo, a);
    hi = glm::max(hi, a);
  }
  return work.seg_a.empty() ? 0.0 : double(glm::length(hi - lo)) / work.diagonal;
}

void Doctor::joint_order(SkinWork& work) {
  if (work.joint_count < 2) return;
  std::vector<std::vector<double>> excess(work.draws.size());
  uint64_t misplaced = 0;
  std::vector<double> joint_misplaced(work.joint_count, 0.0);
  const double cost = order_cost(work, 0, &excess, &misplaced, &joint_misplaced);
  uint64_t weighted = 0;
  for (int d : work.draws) {
    const DoctorPrimitive p = primitive(d);
    for (uint32_t v = 0; v < p.vertex_count(); ++v) weighted += dominant_slot(p, v) >= 0;
  }
  const double fraction = weighted > 0 ? double(misplaced) / double(weighted) : 0.0;
  // How far vertices are from the bones they follow, whatever the other bones do: the median
  // of dist(v, segment of d(v)) / D.
  std::vector<float> distances;
  distances.reserve(size_t(weighted));
  for (int d : work.draws) {
    const DoctorPrimitive p = primitive(d);
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
    const DoctorPrimitive p = primitive(d);
    map[size_t(d)].assign(p.vertex_count(), 0.0f);
    for (uint32_t v = 0; v < p.vertex_count(); ++v) {
      const int slot = dominant_slot(p, v);
      if (slot < 0) continue;
      const uint16_t j = p.joints[size_t(v) * p.influences + size_t(slot)];
      if (j >= work.joint_count) continue;
      const double r =
          double(distance_to_segment(p.positions[v], work.seg_a[j], work.seg_b[j])) / work.diagonal;
      map[size_t(d)][v] = float(std::clamp(r / (2.0 * kMedianBoneDistance), 0.0, 1.0));
      if (r <= kMedianBoneDistance) continue;
      ++far;
      joint_far[j] += 1.0;
    }
  }
  const std::vector<int> joints = ranked(joint_far, 0.0);
  RigFinding& f =
      add(work, "JOINT_ORDER_SUSPECT", RigSeverity::Error, far,
          "weights and skeleton disagree: every joint is at the same point at bind time while " +
              std::to_string(far) + " of " + std::to_string(weighted) + " vertices are more than " +
              fmt(kMedianBoneDistance) + " diagonals from it (median " + fmt(median_distance) +
              "), so the parts will turn about that point rather than their joints (inverse bind "
              "matrices missing, or IBM x world in place of world x IBM?); most at " +
              joint_list(model_, work.s, joints),
          median_distance, joints);
  f.affected = std::move(map);
}

}  // namespace rig::rig_doctor_detail
