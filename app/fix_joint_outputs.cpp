// --fix-joint and --fix-report: the "Fix this joint" search (analysis/fix_joint.h) on the
// command line's skin layer, its one stderr line and its JSON report.
#include <cstdio>
#include <fstream>

#include "analysis/fix_joint.h"
#include "anim/joint_mask.h"
#include "json_text.h"
#include "skin_edits.h"

namespace rigview {

namespace {

std::string joint_name(const rig::Model& model, int skin, int joint) {
  return model.nodes[size_t(model.skins[size_t(skin)].joints[size_t(joint)])].name;
}

bool write_fix_report(const std::string& path, const rig::Model& model,
                      const rig::FixJointOptions& options, const rig::FixJointResult& r,
                      std::string& error) {
  std::string j =
      "{\n  \"clip\": " + std::to_string(options.clip) +
      ",\n  \"method\": " + json_string(rig::method_info(options.method).name) +
      ",\n  \"joint\": " + json_string(joint_name(model, r.skin, r.joint)) +
      ",\n  \"skin\": " + std::to_string(r.skin) + ",\n  \"before\": " + json_number(r.before) +
      ",\n  \"after\": " + json_number(r.after) +
      ",\n  \"improved\": " + (r.improved ? "true" : "false") +
      ",\n  \"smooth\": {\"factor\": " + json_number(r.smooth.factor) +
      ", \"iterations\": " + std::to_string(r.smooth.iterations) +
      ", \"extent\": " + std::to_string(r.extent) +
      "},\n  \"largest_other_rise\": " + json_number(r.largest_other_rise) + ",\n  \"joints\": [";
  for (size_t i = 0; i < r.joints.size(); ++i) {
    const rig::JointWorst& w = r.joints[i];
    j += std::string(i ? "," : "") + "\n    {\"skin\": " + std::to_string(w.skin) +
         ", \"joint\": " + std::to_string(w.joint) +
         ", \"name\": " + json_string(joint_name(model, w.skin, w.joint)) +
         ", \"before\": " + json_number(w.before) + ", \"after\": " + json_number(w.after) + "}";
  }
  j += "\n  ],\n  \"candidates\": [";
  for (size_t i = 0; i < r.tried.size(); ++i) {
    const rig::FixJointResult::Tried& t = r.tried[i];
    j += std::string(i ? "," : "") + "\n    {\"factor\": " + json_number(t.factor) +
         ", \"iterations\": " + std::to_string(t.iterations) +
         ", \"extent\": " + std::to_string(t.extent) + ", \"score\": " + json_number(t.score) +
         ", \"largest_other_rise\": " + json_number(t.other_rise) + "}";
  }
  j += "\n  ]\n}\n";
  std::ofstream out(path, std::ios::binary);
  out << j;
  out.close();
  if (!out) return error = path + ": cannot write the fix report", false;
  return true;
}

}  // namespace

int fix_joint_from_options(const Options& options, const rig::Model& model,
                           std::shared_ptr<rig::SkinLayer>& layer, std::string& error) {
  if (options.fix_joint.empty()) return 0;
  rig::FixJointOptions fix;
  fix.clip = options.animation_index;
  fix.method = options.skinning_methods.empty() ? rig::SkinningMethod::Linear
                                                : options.skinning_methods.front();
  if (fix.method != rig::SkinningMethod::Linear &&
      fix.method != rig::SkinningMethod::DualQuaternion)
    return error = "--fix-joint lowers an LBS or DQS score: choose --skinning lbs or dqs", 2;
  if (options.fix_joint != "worst") {
    const int node = rig::find_node(model, options.fix_joint);
    for (size_t s = 0; s < model.skins.size() && fix.joint < 0; ++s)
      for (size_t j = 0; j < model.skins[s].joints.size(); ++j)
        if (model.skins[s].joints[j] == node) {
          fix.skin = int(s), fix.joint = int(j);
          break;
        }
    if (fix.joint < 0) return error = "--fix-joint: no joint named '" + options.fix_joint + "'", 2;
  }
  rig::SkinLayer fixed;
  rig::FixJointResult r;
  if (!rig::fix_joint(model, *layer, fix, fixed, r, error)) {
    error = "--fix-joint: " + error;
    return 2;
  }
  if (r.improved) {
    std::fprintf(stderr,
                 "rigview: --fix-joint %s: worst %s score over clip %d %.6g -> %.6g (%.1f%% lower) "
                 "by smoothing %.2f x %d at extent %d; largest rise of another joint %.1f%%; %zu "
                 "candidates\n",
                 joint_name(model, r.skin, r.joint).c_str(), rig::method_info(fix.method).label,
                 fix.clip, double(r.before), double(r.after),
                 100.0 * (1.0 - double(r.after) / double(r.before)), double(r.smooth.factor),
                 r.smooth.iterations, r.extent, 100.0 * double(r.largest_other_rise), r.candidates);
  } else {
    std::fprintf(stderr,
                 "rigview: --fix-joint %s: worst %s score over clip %d %.6g; no smoothing lowered "
                 "it without raising another joint's by more than 5%% (%zu candidates); weights "
                 "unchanged\n",
                 joint_name(model, r.skin, r.joint).c_str(), rig::method_info(fix.method).label,
                 fix.clip, double(r.before), r.candidates);
  }
  if (!options.fix_report.empty() && !write_fix_report(options.fix_report, model, fix, r, error))
    return 1;
  *layer = std::move(fixed);
  return 0;
}

}  // namespace rigview
