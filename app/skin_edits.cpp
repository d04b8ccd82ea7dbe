#include "skin_edits.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "analysis/clip_pose_samples.h"
#include "anim/joint_mask.h"
#include "learn_pose.h"
#include "save_outputs.h"
#include "skin/weight_mirror.h"
#include "skin/weight_ops.h"
#include "skin/weight_refit.h"
#include "skin/weight_smooth.h"

namespace rigview {

namespace {

bool parse_number(std::string_view text, double& out) {
  const std::string s(text);
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return !s.empty() && end && *end == '\0' && std::isfinite(out);
}

bool parse_count(std::string_view text, uint32_t low, uint32_t high, uint32_t& out) {
  double v = 0.0;
  if (!parse_number(text, v) || v != std::floor(v) || v < low || v > high) return false;
  out = uint32_t(v);
  return true;
}

using Parse = bool (*)(std::string_view args, WeightsOp& op, std::string& why);
using Apply = bool (*)(const WeightsOp& op, const rig::Model& model,
                       const std::shared_ptr<rig::SkinLayer>& layer, rig::WeightEditResult& result,
                       std::string& error, const WeightsOpProgress& progress);

struct WeightsOpRow {
  std::string_view name;
  std::string_view form;  // "limit=N[:refit]"
  bool takes_args;
  Parse parse;
  Apply apply;
};

bool no_args(std::string_view, WeightsOp&, std::string&) { return true; }

bool parse_clean(std::string_view args, WeightsOp& op, std::string& why) {
  double t = 0.0;
  if (!parse_number(args, t) || t < 0.0 || t >= 1.0)
    return why = "T must be a weight in [0, 1)", false;
  op.value = float(t);
  return true;
}

bool parse_limit(std::string_view args, WeightsOp& op, std::string& why) {
  const size_t colon = args.find(':');
  if (colon != std::string_view::npos) {
    if (args.substr(colon + 1) != "refit") return why = "expected limit=N or limit=N:refit", false;
    op.refit = true;
  }
  if (!parse_count(args.substr(0, colon), 1, rig::kMaxInfluences, op.count))
    return why = "N must be a whole number from 1 to " + std::to_string(rig::kMaxInfluences), false;
  return true;
}

bool parse_smooth(std::string_view args, WeightsOp& op, std::string& why) {
  const size_t first = args.find(':');
  const size_t second = first == std::string_view::npos ? first : args.find(':', first + 1);
  double factor = 0.0;
  if (first == std::string_view::npos || !parse_number(args.substr(0, first), factor) ||
      factor < 0.0 || factor > 1.0)
    return why = "expected smooth=FACTOR:ITERATIONS[:JOINT,...] with FACTOR in [0, 1]", false;
  op.value = float(factor);
  const std::string_view iterations = args.substr(first + 1, second - first - 1);
  if (!parse_count(iterations, 1, 10000, op.count))
    return why = "ITERATIONS must be a whole number from 1 to 10000", false;
  if (second == std::string_view::npos) return true;
  // The rest is the joint list: names may contain ':' (mixamorig:LeftArm), never ','.
  std::string_view list = args.substr(second + 1);
  while (true) {
    const size_t comma = list.find(',');
    const std::string_view name = list.substr(0, comma);
    if (name.empty()) return why = "an empty joint name in the list", false;
    op.joints.emplace_back(name);
    if (comma == std::string_view::npos) break;
    list = list.substr(comma + 1);
  }
  return true;
}

bool apply_normalize(const WeightsOp&, const rig::Model&, const std::shared_ptr<rig::SkinLayer>& l,
                     rig::WeightEditResult& r, std::string&, const WeightsOpProgress&) {
  r = rig::normalize_weights(*l);
  return true;
}

bool apply_clean(const WeightsOp& op, const rig::Model&, const std::shared_ptr<rig::SkinLayer>& l,
                 rig::WeightEditResult& r, std::string&, const WeightsOpProgress&) {
  r = rig::clean_weights(*l, op.value);
  return true;
}

bool apply_limit(const WeightsOp& op, const rig::Model& model,
                 const std::shared_ptr<rig::SkinLayer>& l, rig::WeightEditResult& r, std::string&,
                 const WeightsOpProgress& progress) {
  if (!op.refit) {
    r = rig::limit_influences(*l, op.count);
    return true;
  }
  // Sampling the poses is the first third of the work, the refit the rest.
  struct Span {
    const WeightsOpProgress* to;
    float from, width;
    static bool report(void* user, float fraction) {
      const Span* s = static_cast<const Span*>(user);
      return !s->to->report || s->to->report(s->to->user, s->from + s->width * fraction);
    }
  };
  Span sampling{&progress, 0.0f, 1.0f / 3.0f}, refitting{&progress, 1.0f / 3.0f, 2.0f / 3.0f};
  bool stopped = false;
  const rig::SkinPoseSamples poses =
      rig::sample_clip_poses(model, l, rig::kRefitSampleRateHz, Span::report, &sampling, &stopped);
  if (stopped) {
    r.cancelled = true;
    return true;
  }
  r = rig::limit_influences_refit(*l, model, poses, op.count, Span::report, &refitting);
  return true;
}

bool apply_smooth(const WeightsOp& op, const rig::Model& model,
                  const std::shared_ptr<rig::SkinLayer>& l, rig::WeightEditResult& r,
                  std::string& error, const WeightsOpProgress&) {
  rig::SmoothOptions options;
  options.factor = op.value;
  options.iterations = int(op.count);
  for (const std::string& name : op.joints) {
    const int node = rig::find_node(model, name);
    const bool joint = std::any_of(model.skins.begin(), model.skins.end(), [&](const rig::Skin& s) {
      return std::find(s.joints.begin(), s.joints.end(), node) != s.joints.end();
    });
    if (node < 0 || !joint) {
      error = "--weights-op '" + op.text + "': no joint named '" + name + "'";
      return false;
    }
    options.joint_nodes.push_back(node);
  }
  r = rig::smooth_weights(*l, model, options);
  return true;
}

bool apply_mirror(const WeightsOp&, const rig::Model& model,
                  const std::shared_ptr<rig::SkinLayer>& l, rig::WeightEditResult& r, std::string&,
                  const WeightsOpProgress&) {
  r = rig::mirror_weights(*l, model);
  return true;
}

constexpr std::array<WeightsOpRow, 5> kWeightsOps = {{
    {"normalize", "normalize", false, no_args, apply_normalize},
    {"clean", "clean=T", true, parse_clean, apply_clean},
    {"limit", "limit=N[:refit]", true, parse_limit, apply_limit},
    {"smooth", "smooth=FACTOR:ITERATIONS[:JOINT,...]", true, parse_smooth, apply_smooth},
    {"mirror", "mirror", false, no_args, apply_mirror},
}};

}  // namespace

std::string weights_op_forms() {
  std::string forms;
  for (const WeightsOpRow& row : kWeightsOps)
    forms += (forms.empty() ? "" : ", ") + std::string(row.form);
  return forms;
}

bool parse_weights_op(std::string_view text, WeightsOp& out, std::string& error) {
  out = WeightsOp{};
  out.text = text;
  const size_t eq = text.find('=');
  const std::string_view name = text.substr(0, eq);
  const std::string bad = "--weights-op '" + std::string(text) + "': ";
  for (size_t r = 0; r < kWeightsOps.size(); ++r) {
    const WeightsOpRow& row = kWeightsOps[r];
    if (row.name != name) continue;
    if (row.takes_args != (eq != std::string_view::npos))
      return error = bad + "expected " + std::string(row.form), false;
    std::string why;
    if (!row.parse(eq == std::string_view::npos ? "" : text.substr(eq + 1), out, why))
      return error = bad + why, false;
    out.row = int(r);
    return true;
  }
  error = bad + "expected one of " + weights_op_forms();
  return false;
}

bool apply_weights_op(const WeightsOp& op, const rig::Model& model,
                      const std::shared_ptr<rig::SkinLayer>& layer, rig::WeightEditResult& result,
                      std::string& error, const WeightsOpProgress& progress) {
  if (op.row < 0 || size_t(op.row) >= kWeightsOps.size() || !layer)
    return error = "not a weights operation", false;
  return kWeightsOps[size_t(op.row)].apply(op, model, layer, result, error, progress);
}

int edited_skin_layer(const Options& options, const rig::Model& model,
                      std::shared_ptr<rig::SkinLayer>& out, std::string& error) {
  // The weight pitfalls (--pitfall raw-weights, four-influences) on the file's influences.
  out = pitfall_skin_layer(options, model);
  if (!out) out = std::make_shared<rig::SkinLayer>(model);
  // --repair-ibm first: the weight edits (a refit) then skin with the repaired matrices.
  for (const rig::InverseBindRepair& r : repair_from_options(options, model, *out, stderr))
    if (!r.repaired) {
      error = "--repair-ibm: " + r.problem;
      return 1;
    }
  for (const std::string& text : options.weights_ops) {
    WeightsOp op;
    if (!parse_weights_op(text, op, error)) return 2;
    rig::WeightEditResult result;
    if (!apply_weights_op(op, model, out, result, error)) return 2;
    std::fprintf(stderr, "rigview: --weights-op %s: %zu vertices changed", op.text.c_str(),
                 result.vertices_changed);
    if (kWeightsOps[size_t(op.row)].name == "mirror")
      std::fprintf(stderr, ", %zu without a mirror", result.unmatched.size());
    std::fputc('\n', stderr);
  }
  return fix_joint_from_options(options, model, out, error);
}

}  // namespace rigview
