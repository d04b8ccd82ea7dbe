#include "workbench_options.h"

#include <cmath>
#include <cstdlib>

#include "analysis/range_of_motion.h"
#include "learn_options.h"
#include "retarget_options.h"
#include "skin_edits.h"

namespace rigview {

namespace {

bool whole_number(std::string_view s, int& out) {
  if (s.empty() || s.size() > 10) return false;
  for (char c : s)
    if (c < '0' || c > '9') return false;
  const long v = std::strtol(std::string(s).c_str(), nullptr, 10);
  if (v > 1000000000L) return false;
  out = int(v);
  return true;
}

bool finite_float(std::string_view s, float& out) {
  if (s.empty()) return false;
  const std::string text(s);
  char* end = nullptr;
  out = std::strtof(text.c_str(), &end);
  return end && *end == '\0' && std::isfinite(out);
}

}  // namespace

void add_workbench_flags(std::vector<FlagInfo>& f) {
  f.push_back(
      {"--pose-joint NAME=rx,ry,rz",
       "turn joint NAME by rx, ry, rz degrees about its own local\n"
       "X, Y, Z axes on top of the pose: q_clip * qX * qY * qZ\n"
       "(repeatable; every output, --export-pose too)",
       "sets the joint's local rotation to q_clip · q_X(rx) · q_Y(ry) · q_Z(rz), q_A(θ) "
       "a rotation by θ degrees about the joint's own local axis A and q_clip its "
       "rotation in the pose (layers included); repeatable, applied in order; every "
       "output, `--export-pose` too. NAME is any node, split from the angles at the last `=`",
       "Rig workbench:"});
  f.push_back({"--range-of-motion JOINT[,JOINT...]",
               "sweep each joint about its local x, y and z axes from -D\n"
               "to +D on the rest pose (or the pose --animation-index,\n"
               "--animation-time, --blend-index choose) and measure each\n"
               "step like --report (needs --rom-report)",
               "turn each joint about each of its local axes from −D to +D (`--rom-degrees`, "
               "`--rom-steps`) on top of the rest pose, or of the pose that `--animation-index`, "
               "`--animation-time` or `--blend-index` choose (the other pose flags apply too), and "
               "measure every step as `--report` does, for each `--skinning` method (default: "
               "every method); needs `--rom-report` (schema below)",
               ""});
  f.push_back({"--rom-degrees D", "the sweep's half range, in (0, 180] (default 120)",
               "the sweep's half range D in degrees, in (0, 180] (default 120)", ""});
  f.push_back({"--rom-steps N",
               "angles per axis, -D to +D inclusive, 2 to " +
                   std::to_string(rig::kRangeOfMotionMaxSteps) + " (default 25)",
               "angles per axis, −D to +D inclusive, evenly spaced: 2 to " +
                   std::to_string(rig::kRangeOfMotionMaxSteps) + " (default 25)",
               ""});
  f.push_back({"--rom-report FILE.json", "write the range-of-motion report as JSON; exit",
               "write the `--range-of-motion` report (schema below)", ""});
  f.push_back({"--inspect-vertex PRIM:INDEX",
               "print JSON on one vertex at the pose: its influences,\n"
               "each joint's opinion M_j*v, every method's result, the\n"
               "CoR centre and h per method; exit",
               "print JSON on one vertex at the chosen pose: its bind position, each influence's "
               "joint, weight and opinion M_j · v, the LBS, DQS, CoR and mix results, the CoR "
               "centre and h under each method, in world space (schema below). PRIM counts the "
               "file's skinned primitives in document order (mesh, then primitive)",
               ""});
  f.push_back({"--weights-op OP",
               "edit the skin weights every output uses (repeatable, in\n"
               "order): " +
                   weights_op_forms(),
               "edit the skin weights before every output uses them (repeatable, applied in "
               "order): `normalize`; `clean=T` drops weights below T and renormalizes; `limit=N` "
               "keeps the N largest, `limit=N:refit` the N weights that best reproduce the "
               "deformation over every clip; `smooth=FACTOR:ITERATIONS[:JOINT,...]` Laplacian "
               "smoothing (of the listed joints only); `mirror` swaps left and right. One line "
               "per op on stderr (see *Weight edits* below)",
               "Skin weights:"});
  f.push_back({"--fix-joint JOINT|worst",
               "Fix this joint: search the weight smoothing that lowers\n"
               "JOINT's (or the worst joint's) worst score over the\n"
               "--animation-index clip; every output uses it",
               "Fix this joint: search the weight smoothing (factor, iterations, extent) that "
               "lowers JOINT's worst artefact score over the `--animation-index` clip (`worst`: "
               "the joint with the highest), under the first `--skinning` method, while no other "
               "joint's worst score rises by more than 5 %; applied after `--weights-op`, so every "
               "output and `--save` use it; one line on stderr (see *Fix this joint* below)",
               ""});
  f.push_back({"--fix-report FILE.json", "write what --fix-joint measured as JSON",
               "write what `--fix-joint` measured: every joint's worst score before and after, "
               "and every candidate tried (schema below)",
               ""});
  add_learn_flags(f);
  add_retarget_flags(f);
}

int parse_workbench_flag(std::string_view a, const FlagValue& value, Options& o,
                         std::string& error) {
  std::string_view v;
  if (a == "--pose-joint") {
    if (!value(v)) return -1;
    if (v.find('=') == std::string_view::npos)
      return error = "--pose-joint expects NAME=rx,ry,rz (degrees), got '" + std::string(v) + "'",
             -1;
    o.pose_joints.emplace_back(v);
  } else if (a == "--range-of-motion") {
    if (!value(v)) return -1;
    size_t start = 0;
    while (true) {
      const size_t comma = v.find(',', start);
      const std::string_view name = v.substr(start, comma - start);
      if (name.empty())
        return error = "--range-of-motion expects JOINT[,JOINT...], got '" + std::string(v) + "'",
               -1;
      o.rom_joints.emplace_back(name);
      if (comma == std::string_view::npos) break;
      start = comma + 1;
    }
  } else if (a == "--rom-degrees") {
    if (!value(v)) return -1;
    float d = 0.0f;
    if (!finite_float(v, d) || !(d > 0.0f) || d > rig::kRangeOfMotionMaxDegrees)
      return error = "--rom-degrees expects degrees in (0, 180], got '" + std::string(v) + "'", -1;
    o.rom_degrees = d;
  } else if (a == "--rom-steps") {
    if (!value(v)) return -1;
    int n = 0;
    if (!whole_number(v, n) || n < 2 || n > rig::kRangeOfMotionMaxSteps)
      return error = "--rom-steps expects a count between 2 and " +
                     std::to_string(rig::kRangeOfMotionMaxSteps) + ", got '" + std::string(v) + "'",
             -1;
    o.rom_steps = n;
  } else if (a == "--rom-report") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--rom-report needs a file name", -1;
    o.rom_report = v;
  } else if (a == "--inspect-vertex") {
    if (!value(v)) return -1;
    const size_t colon = v.find(':');
    if (colon == std::string_view::npos || !whole_number(v.substr(0, colon), o.inspect_primitive) ||
        !whole_number(v.substr(colon + 1), o.inspect_index))
      return error = "--inspect-vertex expects PRIM:INDEX (whole numbers >= 0), got '" +
                     std::string(v) + "'",
             -1;
  } else if (a == "--weights-op") {
    if (!value(v)) return -1;
    WeightsOp op;
    if (!parse_weights_op(v, op, error)) return -1;
    o.weights_ops.emplace_back(v);
  } else if (a == "--fix-joint") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--fix-joint expects a joint name or worst", -1;
    o.fix_joint = v;
  } else if (a == "--fix-report") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--fix-report needs a file name", -1;
    o.fix_report = v;
  } else if (a == "--save") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--save needs a file name", -1;
    o.save = v;
  } else if (const int learn = parse_learn_flag(a, value, o, error); learn != 0) {
    return learn;
  } else {
    return parse_retarget_flag(a, value, o, error);
  }
  return 1;
}

bool check_workbench_options(const Options& o, std::string& error) {
  if (!o.save.empty() && !o.simulate_bug.empty())
    return error = "--save writes the file's document; --simulate-bug only the model in memory",
           false;
  if (!o.weights_ops.empty() && o.export_obj.empty() && o.export_ply.empty() && o.report.empty() &&
      o.export_pose.empty() && o.output_png.empty() && o.bench_skinning == 0 &&
      o.bench_crowd == 0 && o.save.empty())
    return error =
               "--weights-op needs an output that skins or --save: --export-obj, --export-ply, "
               "--report, --export-pose, --output, a benchmark or --save",
           false;
  if (!o.fix_report.empty() && o.fix_joint.empty())
    return error = "--fix-report needs --fix-joint JOINT|worst", false;
  if (!o.fix_joint.empty() && !o.animation_index_given)
    return error = "--fix-joint needs --animation-index CLIP: the clip whose scores it lowers",
           false;
  if (!o.fix_joint.empty() && o.export_obj.empty() && o.export_ply.empty() && o.report.empty() &&
      o.export_pose.empty() && o.output_png.empty() && o.save.empty() && o.fix_report.empty())
    return error =
               "--fix-joint needs an output: --fix-report, --save, --export-obj, --export-ply, "
               "--report, --export-pose or --output",
           false;
  if (!o.rom_report.empty() && o.rom_joints.empty())
    return error = "--rom-report needs --range-of-motion JOINT[,JOINT...]", false;
  if (o.rom_report.empty() && !o.rom_joints.empty())
    return error = "--range-of-motion needs --rom-report FILE.json", false;
  if (o.rom_joints.empty() &&
      (o.rom_steps != Options{}.rom_steps || o.rom_degrees != Options{}.rom_degrees))
    return error = "--rom-degrees and --rom-steps need --range-of-motion", false;
  return check_learn_options(o, error) && check_retarget_options(o, error);
}

}  // namespace rigview
