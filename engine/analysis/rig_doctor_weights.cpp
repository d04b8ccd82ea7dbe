// The rig doctor's weight checks (thresholds: rig_doctor.h, chosen as rig_doctor.cpp says).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <numeric>

#include "analysis/rig_doctor_internal.h"
#include "analysis/skinning_artefacts.h"

namespace rig::rig_doctor_detail {

// Histogram, WEIGHTS_TINY, WEIGHTS_NONE, WEIGHTS_SKIP_JOINT, JOINTS_UNUSED.
void Doctor::weights(SkinWork& work) {
  const Skin& skin = model_.skins[size_t(work.s)];
  std::vector<uint8_t> used(work.joint_count, 0);
  uint64_t tiny = 0, none = 0, skip = 0;
  std::vector<double> tiny_joint(work.joint_count, 0.0), skip_joint(work.joint_count, 0.0);
  std::vector<std::vector<float>> tiny_map(model_.draws.size()), none_map(model_.draws.size()),
      skip_map(model_.draws.size());
  std::vector<uint8_t> weighted(work.joint_count, 0);
  for (int d : work.draws) {
    const DoctorPrimitive p = primitive(d);
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
            " joints have no vertex weighted to them (" + joint_list(model_, work.s, unused) + ")",
        double(unused.size()),
        std::vector<int>(unused.begin(),
                         unused.begin() + std::min(unused.size(), kMaxListedJoints)));
  }
}

}  // namespace rig::rig_doctor_detail
