#include "options.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string_view>

#include "analysis/simulated_bugs.h"
#include "markdown_text.h"
#include "scene_options.h"
#include "skin/skinning_method.h"
#include "workbench_options.h"

namespace rigview {
namespace {

bool parse_int(std::string_view s, int& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::string tmp(s);
  long v = std::strtol(tmp.c_str(), &end, 10);
  if (*end != '\0' || v < -1000000000L || v > 1000000000L) return false;
  out = static_cast<int>(v);
  return true;
}

// Double where the value travels on as one (--tolerance: 0.01 stays 0.01, not 0.00999999978).
bool parse_double(std::string_view s, double& out) {
  if (s.empty()) return false;
  std::string tmp(s);
  char* end = nullptr;
  const double v = std::strtod(tmp.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return false;
  out = v;
  return true;
}

bool parse_float(std::string_view s, float& out) {
  double v = 0.0;
  if (!parse_double(s, v) || std::abs(v) > double(std::numeric_limits<float>::max())) return false;
  out = float(v);
  return true;
}

// "lbs, dqs": every table name, for error messages.
std::string method_list() { return rig::skinning_method_names(", "); }

// --skinning VALUE: a table name, "compare" (every table method, in table order) or
// "compare=a,b[,...]" (at least two table names, no duplicates).
bool parse_skinning(std::string_view v, Options& o, std::string& error) {
  const std::string got = "got '" + std::string(v) + "'";
  if (const rig::SkinningMethodInfo* m = rig::find_skinning_method(v)) {
    o.skinning_methods = {m->method};
    o.compare = false;
    return true;
  }
  constexpr std::string_view kCompare = "compare";
  if (v.substr(0, kCompare.size()) != kCompare) {
    error = "--skinning expects " + rig::skinning_method_names("|") +
            ", compare or compare=" + "METHOD,METHOD[,...] (methods: " + method_list() + "), " +
            got;
    return false;
  }
  std::vector<rig::SkinningMethod> methods;
  if (v == kCompare) {
    const auto all = rig::all_skinning_methods();
    methods.assign(all.begin(), all.end());
  } else if (v.size() > kCompare.size() && v[kCompare.size()] == '=') {
    std::string_view list = v.substr(kCompare.size() + 1);
    while (true) {
      const size_t comma = list.find(',');
      const std::string_view name = list.substr(0, comma);
      const rig::SkinningMethodInfo* m = rig::find_skinning_method(name);
      if (!m) {
        error = "--skinning compare: unknown method '" + std::string(name) +
                "' (methods: " + method_list() + "), " + got;
        return false;
      }
      for (rig::SkinningMethod seen : methods)
        if (seen == m->method) {
          error = "--skinning compare: '" + std::string(name) + "' is listed twice, " + got;
          return false;
        }
      methods.push_back(m->method);
      if (comma == std::string_view::npos) break;
      list = list.substr(comma + 1);
    }
    if (methods.size() < 2) {
      error =
          "--skinning compare= needs at least two methods (methods: " + method_list() + "), " + got;
      return false;
    }
  } else {
    error = "--skinning expects " + rig::skinning_method_names("|") +
            ", compare or compare=METHOD,METHOD[,...] (methods: " + method_list() + "), " + got;
    return false;
  }
  o.skinning_methods = std::move(methods);
  o.compare = true;
  return true;
}

}  // namespace

std::vector<rig::SkinningMethod> methods_to_draw(const Options& options) {
  if (options.compare || options.skinning_methods.empty()) return options.skinning_methods;
  return {options.skinning_methods.front()};
}

namespace {

static_assert(rig::kSkinningMethodCount >= 2, "compare needs two skinning methods");

std::vector<FlagInfo> build_flags() {
  // --skinning: one line per skinning-method row.
  std::string methods_help =
      "skinning method (default " + std::string(rig::skinning_methods()[0].name) + "):\n";
  std::string methods_readme;
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods()) {
    std::string row = std::string("  ") + m.name;
    row.resize(std::max<size_t>(row.size() + 1, 8), ' ');
    methods_help += row + m.label + " (" + m.description + ")\n";
    methods_readme += std::string(methods_readme.empty() ? "" : ", ") + "`" + m.name + "` " +
                      m.label + " (" + m.description + ")";
  }
  methods_help +=
      "compare: the methods side by side, left to right\n"
      "(LIST: at least two names, no repeats; default " +
      rig::skinning_method_names(",") + ")";
  std::string in_order;  // "LBS, DQS, CoR"
  for (const rig::SkinningMethodInfo& m : rig::skinning_methods())
    in_order += (in_order.empty() ? "" : ", ") + std::string(m.label);

  std::vector<FlagInfo> f;
  f.push_back(
      {"--info", "print a JSON report of the model and exit",
       "print a JSON report: file, skins (name, joints), meshes, vertices, animations "
       "(name, start, end, channels, interpolations, material_channels), warnings (code, message, "
       "count)",
       ""});
  f.push_back({"--export-obj FILE", "write the posed mesh as Wavefront OBJ and exit",
               "write the posed mesh as Wavefront OBJ (world-space `v`, `vn`, 1-based `f`; one "
               "`o <node>#<primitive>` per drawn primitive in scene order)",
               ""});
  f.push_back({"--export-ply FILE.ply",
               "write the posed mesh as binary PLY with per-vertex\n"
               "deflation, difference, dominant_joint, primitive; exit",
               "write the posed mesh as binary little-endian PLY: the `--export-obj` vertices in "
               "its order (primitives concatenated, triangles as faces) with float properties "
               "`deflation` (h, NaN where undefined), `difference` (LBS vs DQS / rest diagonal), "
               "`dominant_joint` (skin joint index, −1 rigid) and `primitive` (OBJ order)",
               ""});
  f.push_back({"--report FILE.json",
               "scan every clip for skinning artefacts (the --skinning\n"
               "methods, default all) and write the JSON report; exit",
               "scan every clip at its key rate (30 Hz off-grid) for each `--skinning` method "
               "(default: every method) and write the artefact report (schema below)",
               ""});
  f.push_back({"--write-copy OUT.glb|OUT.gltf",
               "write the model's own document unchanged, self-contained\n"
               "(GLB, or .gltf with embedded data); exit",
               "write the file's glTF document unchanged as a self-contained copy: GLB, or a "
               "`.gltf` with its buffer and images embedded (converts .gltf ↔ .glb); written "
               "atomically (a temporary beside OUT renamed over it)",
               ""});
  f.push_back({"--repair-ibm [all|recover]",
               "recompute inverse bind matrices from the rest pose: skins\n"
               "flagged IBM_MISSING/IBM_SUSPECT, or all; recover: from what\nbroken IBMs keep",
               "recompute the inverse bind matrices of the skins the rig doctor flags "
               "`IBM_MISSING` or `IBM_SUSPECT` (`all`, also spelled `--repair-ibm=all`: every "
               "skin) from the rest pose: each joint's inverse world rest matrix; `recover`: "
               "the flagged skins from what their broken matrices keep of the bind pose "
               "(negated-translation IBMs inverted, translation-only IBMs' rotations rebuilt; "
               "see *Rig doctor*), from the rest pose otherwise; one line per skin on stderr; "
               "`--save`, `--export-obj`, `--export-ply`, `--export-pose` and `--output` use them",
               ""});
  f.push_back({"--save OUT.glb|OUT.gltf",
               "write the file with the edited skin (weights, inverse bind\n"
               "matrices), everything else kept; exit",
               "write the file with the skin's edits (`--repair-ibm`): the edited primitives' "
               "JOINTS_n/WEIGHTS_n in their component types, the changed inverse bind matrices; "
               "everything else as `--write-copy` keeps it (atomic: a failed save leaves OUT as "
               "it was)",
               ""});
  f.push_back({"--backend cpu|gpu", "skinning used by --export-obj (default cpu)",
               "skinning used by `--export-obj`: the CPU reference or the real vertex shaders "
               "read back with transform feedback",
               ""});
  f.push_back({"--output FILE.png", "render one frame headless to a PNG and exit",
               "render one frame headless (EGL, no X server needed) and exit", ""});
  f.push_back({"--bench-skinning N",
               "time N draws of the model per skinning method on the GPU\n"
               "(the --skinning methods, default all) and exit",
               "GPU cost of skinning: draws the model's draw items N times per measurement for "
               "each `--skinning` method (default: every method; headless, behind the eye so "
               "only the vertex stage counts; GPU timer queries, or on a software rasterizer such "
               "as llvmpipe the wall clock to `glFinish`; 7 rounds over the methods, median) and "
               "prints ms per million skinned vertices and the ratio to LBS",
               ""});
  f.push_back({"--crowd N",
               "N instances of the model on a grid, each its own clip,\n"
               "phase, speed and crossfade (viewer and --output)",
               "N instances of the model on a grid (1 to 10000), each playing its own clip at its "
               "own phase and speed with its own crossfade into a second clip (drawn from a fixed "
               "seed); one instanced draw per primitive, the update on every core. `--output` "
               "renders the grid at crowd time `--animation-time` (default 0); the viewer shows "
               "it with a stats panel (characters, update, upload and GPU ms)",
               ""});
  f.push_back({"--bench-crowd N",
               "time the crowd frame for 1, 10, 100, ... characters up\n"
               "to N (update, palette upload, GPU ms) and exit",
               "crowd frame figures for 1, 10, 100, 1000, … characters up to N (and N itself when "
               "it is not a power of ten): the update on every core (wall ms, and CPU ms summed "
               "over its threads), the palette upload (ms), the instanced draw at `--resolution` "
               "(GPU ms, timer queries) and the update CPU time per character (µs); median of 30 "
               "frames; the first `--skinning` method; headless",
               ""});
  add_scene_flags(f);
  f.push_back({"--armature", "draw the skeleton in --output renders",
               "draw the skeleton in `--output` renders", ""});
  f.push_back({"--weights JOINT|influences",
               "colour skinned surfaces by JOINT's skin weights, or by\n"
               "each vertex's number of influences (--output renders and\n"
               "the viewer's first frame)",
               "colour skinned surfaces by JOINT's weights (heat map: blue 0 → red 1, grey "
               "exactly 0, magenta unusable) or by each vertex's influence count; `--output` and "
               "the viewer",
               ""});
  f.push_back({"--heatmap deflation|difference",
               "colour skinned surfaces by deflation h (each method its\n"
               "own, blue loss, white 0, red bulge, clamped at +-1) or by\n"
               "the LBS-DQS difference (--output and the viewer)",
               "colour skinned surfaces by the artefact measures: `deflation` h = log2(r_pose / "
               "r_rest) of each view's method (blue loss, white 0, red bulge, clamped at ±1; "
               "grey undefined) or the LBS-DQS `difference` over the rest diagonal; `--output` "
               "and the viewer's start",
               ""});
  f.push_back({"--focus JOINT|worst",
               "frame the camera on a joint, or on the joint with the\n"
               "worst deflation score in the pose and method",
               "frame the camera on JOINT's part of the mesh, or on the joint whose deflation "
               "score is worst for the chosen pose and (first) method; `--output` and the viewer",
               ""});
  f.push_back({"--animation-index N", "clip to sample (default 0)",
               "clip to sample (default 0; a model without clips shows its rest pose)",
               "Pose selection (export, render and the viewer's first frame):"});
  f.push_back({"--animation-time T",
               "seconds on the file's timeline, clamped to the clip\n"
               "(default: the clip's start)",
               "seconds on the file's timeline, clamped to the clip (default: the clip's start)",
               ""});
  f.push_back({"--skinning " + rig::skinning_method_names("|") + "|compare[=LIST]", methods_help,
               "skinning method: " + methods_readme + "; default `" +
                   rig::skinning_methods()[0].name + "`. `compare` draws every method side by " +
                   "side (" + in_order +
                   ", left to right); `compare=LIST` those of the comma-separated LIST " +
                   "(at least two, no repeats), left to right",
               ""});
  f.push_back({"--dqs-joints NAME[,NAME...]",
               "the mix's DQS joints: each named joint and its whole\n"
               "subtree get DQS amount 1, the others 0 (needs mix among\n"
               "the --skinning methods; without it the mix is LBS)",
               "`mix` only: the named joints and their whole node subtrees get DQS amount m = 1, "
               "every other joint 0; a vertex blends LBS and DQS by β = Σ w·m (see *The per-joint "
               "mix* below). "
               "Needs `mix` among the `--skinning` methods (the default method list "
               "of `--report` and `--bench-skinning` has it); without it every m is 0 and the mix "
               "is LBS",
               ""});
  f.push_back({"--blend-index M", "crossfade target clip", "crossfade target clip M", ""});
  f.push_back({"--layer CLIP:WEIGHT[:additive][:mask=J,...][:time=T]",
               "a clip layered over the pose (repeatable): override or\n"
               "additive (minus its first frame), masked to the subtrees\n"
               "of the joints J, at time T (default the clip's start)",
               "a clip (index or name) layered over the base pose, in order (repeatable): "
               "override layers blend towards it by WEIGHT, `additive` ones add (clip(T) ⊖ its "
               "first frame) × WEIGHT; `mask=` limits it to the listed joints and their subtrees",
               ""});
  f.push_back({"--ik END=x,y,z[;pole=x,y,z][;weight=W][;mid=N][;root=N][;keep]",
               "two-bone IK putting joint END at the world point (the\n"
               "chain is END's parent and grandparent unless named;\n"
               "repeatable)",
               "two-bone IK: joint END reaches the world point x,y,z (an unreachable one "
               "straightens the chain towards it); the pole point sets the bend plane; `keep`: END "
               "keeps its world rotation; repeatable; joint names may contain `:`",
               ""});
  f.push_back({"--look-at JOINT=x,y,z", "JOINT's +Z axis turns towards the point (80° limit)",
               "JOINT's local +Z axis turns towards the world point, at most 80° from its "
               "animated direction",
               ""});
  f.push_back({"--root-motion in-place|extract",
               "remove the root's horizontal motion, or keep it\n"
               "accumulated so the character walks away",
               "`in-place`: the root's horizontal translation is removed; `extract`: the root "
               "moves by the clip's accumulated motion (the skin's top joint is the root)",
               ""});
  f.push_back({"--feet-on-ground",
               "lock the feet to where the clip plants them (two-bone\n"
               "IK on the left and right foot)",
               "two-bone IK chains on the left and right foot (joints named like `LeftFoot`, "
               "`foot_l`) locked to where each foot is planted in the clip (the viewer's Feet on "
               "ground)",
               ""});
  f.push_back({"--export-pose FILE.json",
               "write the final pose (every layer, constraint and root\n"
               "motion applied) as JSON and exit",
               "write the final pose as JSON: per node (glTF order) name, translation, rotation "
               "(x,y,z,w), scale and world matrix; per skin its joints and skinning matrices "
               "(column-major)",
               ""});
  f.push_back(
      {"--blend-time T2", "time in the target clip", "time in clip M (needs `--blend-index`)", ""});
  f.push_back({"--blend-weight W", "0 = clip N, 1 = clip M",
               "crossfade pose: W=0 is clip N, W=1 is clip M (needs `--blend-index`)", ""});
  f.push_back(
      {"--rest-pose", "ignore animations, show the bind/rest pose", "ignore animations", ""});
  add_workbench_flags(f);
  f.push_back({"--simulate-bug no-ibm|translation-only-ibm|reversed-multiply|shifted-joints",
               "teaching aid: apply a classic skinning bug to the model\n"
               "(every output and the viewer; the rig doctor names it)",
               "teaching aid: apply a classic rigging bug to a correct file: the skinning matrix "
               "without the IBM, an IBM that only negates the translation, IBM·world instead of "
               "world·IBM, or joint indices off by one; `--info` and the viewer's Rig health "
               "panel show what the rig doctor finds (the viewer's Teaching aids panel switches "
               "them live)",
               "Rig doctor and batch safety:"});
  f.push_back({"--confine",
               "refuse any URI that resolves outside the model's folder\n"
               "(after .., %-decoding and symlinks): batch use on untrusted files",
               "refuse any buffer or image URI that resolves outside the model's folder after "
               "`..`, percent-decoding and symbolic links (batch use on untrusted files)",
               ""});
  f.push_back({"--compress-report FILE.json",
               "compress every clip (--tolerance) and write sizes and\n"
               "errors as JSON; exit",
               "compress every clip within `--tolerance` and write the error metric and sizes "
               "per clip (schema below)",
               "Animation compression:"});
  f.push_back({"--optimize-animations OUT.glb",
               "write a copy of the model whose clips are key-reduced\n"
               "within --tolerance (rotations and morph weights as\n"
               "normalized 16-bit where that holds), print the sizes; exit",
               "write a GLB copy whose clips are key-reduced within `--tolerance`, rotations and "
               "morph weights as normalized 16-bit integers where that holds, equal tracks "
               "sharing one accessor; everything else as it was. Prints the animation "
               "accessors' bytes before and after",
               ""});
  f.push_back({"--tolerance CM", "compression error bound in cm (default 0.01)",
               "largest error of a compressed clip, in cm at 3 cm from each joint (default 0.01)",
               ""});
  f.push_back({"--compressed", "pose flags and exports sample the compressed clips",
               "`--export-obj`, `--export-ply`, `--output` and the pose flags sample the clips "
               "compressed within `--tolerance`",
               ""});
  f.push_back({"--help", "this text", "this text", " "});
  f.push_back({"--version", "print the version", "print the version", ""});
  f.push_back({"--print-controls-markdown", "print the viewer's controls as the README's table",
               "print the viewer's controls as the README's table (below)", ""});
  f.push_back(
      {"--print-cli-markdown", "print this list as the README's table", "print this table", ""});
  return f;
}

}  // namespace

const std::vector<FlagInfo>& command_line_flags() {
  static const std::vector<FlagInfo> flags = build_flags();
  return flags;
}

std::string usage_text() {
  constexpr size_t kColumn = 28;  // where the help text starts
  std::string usage =
      "usage: rigview [options] [MODEL.gltf|MODEL.glb]\n"
      "\n"
      "Opens MODEL (default: the bundled mannequin) in the viewer, or with one of these\n"
      "prints, exports or renders it and exits.\n"
      "\n";
  for (const FlagInfo& f : command_line_flags()) {
    if (!f.section.empty()) {
      usage += "\n";
      if (f.section != " ") usage += f.section + "\n";
    }
    std::string line = "  " + f.syntax;
    if (line.size() + 1 > kColumn) {
      usage += line + "\n";
      line.clear();
    }
    size_t start = 0;
    while (start <= f.help.size()) {
      const size_t end = std::min(f.help.find('\n', start), f.help.size());
      line.resize(kColumn, ' ');
      usage += line + f.help.substr(start, end - start) + "\n";
      line.clear();
      start = end + 1;
    }
  }
  return usage;
}

std::string cli_flags_markdown() {
  const auto cell = markdown_cell;
  std::string md =
      "<!-- generated by `rigview --print-cli-markdown` from app/options.cpp; "
      "tests/app/options_test.cpp checks this copy -->\n"
      "| flag | meaning |\n|---|---|\n";
  for (const FlagInfo& f : command_line_flags())
    md += "| `" + cell(f.syntax) + "` | " + cell(f.readme) + " |\n";
  return md;
}

bool parse_options(int argc, char** argv, Options& o, std::string& error) {
  auto need_value = [&](int& i, std::string_view flag, std::string_view& value) {
    if (i + 1 >= argc) {
      error = std::string(flag) + " needs a value";
      return false;
    }
    value = argv[++i];
    return true;
  };
  bool blend_time_set = false, blend_weight_set = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view a = argv[i];
    std::string_view v;
    // Accept --flag=value as well as --flag value.
    std::string_view inline_value;
    bool has_inline = false;
    if (a.size() > 2 && a.substr(0, 2) == "--") {
      auto eq = a.find('=');
      if (eq != std::string_view::npos) {
        inline_value = a.substr(eq + 1);
        a = a.substr(0, eq);
        has_inline = true;
      }
    }
    auto value = [&](std::string_view& out) {
      if (has_inline) {
        out = inline_value;
        return true;
      }
      return need_value(i, a, out);
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--version") {
      o.version = true;
    } else if (a == "--print-controls-markdown") {
      o.print_controls_markdown = true;
    } else if (a == "--print-cli-markdown") {
      o.print_cli_markdown = true;
    } else if (a == "--info") {
      o.info = true;
    } else if (a == "--armature") {
      o.armature = true;
    } else if (a == "--layer" || a == "--ik") {
      if (!value(v)) return false;
      if (v.empty()) return error = std::string(a) + " needs a value", false;
      (a == "--layer" ? o.layers : o.iks).emplace_back(v);
    } else if (a == "--look-at") {
      if (!value(v)) return false;
      if (v.find('=') == std::string_view::npos)
        return error = "--look-at expects JOINT=x,y,z, got '" + std::string(v) + "'", false;
      o.look_at = v;
    } else if (a == "--root-motion") {
      if (!value(v)) return false;
      if (v != "in-place" && v != "extract")
        return error = "--root-motion expects in-place or extract, got '" + std::string(v) + "'",
               false;
      o.root_motion = v;
    } else if (a == "--export-pose") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--export-pose needs a file name", false;
      o.export_pose = v;
    } else if (a == "--simulate-bug") {
      if (!value(v)) return false;
      if (!rig::find_simulated_bug(v))
        return error =
                   "--simulate-bug expects no-ibm, translation-only-ibm, reversed-multiply or "
                   "shifted-joints, got '" +
                   std::string(v) + "'",
               false;
      o.simulate_bug = v;
    } else if (a == "--confine") {
      o.confine = true;
    } else if (a == "--compress-report") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--compress-report needs a file name", false;
      o.compress_report = v;
    } else if (a == "--write-copy") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--write-copy needs a file name", false;
      o.write_copy = v;
    } else if (a == "--repair-ibm") {
      // An optional value: --repair-ibm=all, or the word all (flagged) right after it.
      const std::string_view next = i + 1 < argc ? argv[i + 1] : "";
      const bool word = !has_inline && (next == "all" || next == "flagged" || next == "recover");
      i += word ? 1 : 0;
      v = has_inline ? inline_value : word ? next : "flagged";
      if (v != "all" && v != "flagged" && v != "recover")
        return error = "--repair-ibm expects all, flagged or recover: '" + std::string(v) + "'",
               false;
      o.repair_ibm = v;
    } else if (a == "--optimize-animations") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--optimize-animations needs a file name", false;
      o.optimize_animations = v;
    } else if (a == "--tolerance") {
      if (!value(v)) return false;
      double cm = 0.0;
      if (!parse_double(v, cm) || !(cm >= 1e-4) || cm > 100.0)
        return error =
                   "--tolerance expects centimetres in [0.0001, 100], got '" + std::string(v) + "'",
               false;
      o.tolerance_cm = cm;
    } else if (a == "--compressed") {
      o.compressed = true;
    } else if (a == "--feet-on-ground") {
      o.feet_on_ground = true;
    } else if (a == "--rest-pose") {
      o.rest_pose = true;
    } else if (a == "--weights") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--weights expects a joint name or 'influences'", false;
      o.weights_view = v;
    } else if (a == "--heatmap") {
      if (!value(v)) return false;
      if (v != "deflation" && v != "difference")
        return error = "--heatmap expects deflation or difference, got '" + std::string(v) + "'",
               false;
      o.heatmap = v;
    } else if (a == "--focus") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--focus expects a joint name or 'worst'", false;
      o.focus = v;
    } else if (a == "--export-obj") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--export-obj needs a file name", false;
      o.export_obj = v;
    } else if (a == "--export-ply") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--export-ply needs a file name", false;
      o.export_ply = v;
    } else if (a == "--report") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--report needs a file name", false;
      o.report = v;
    } else if (a == "--output") {
      if (!value(v)) return false;
      if (v.empty()) return error = "--output needs a file name", false;
      o.output_png = v;
    } else if (a == "--bench-skinning") {
      if (!value(v)) return false;
      int n = 0;
      if (!parse_int(v, n) || n < 1 || n > 100000)
        return error = "--bench-skinning expects a count between 1 and 100000, got '" +
                       std::string(v) + "'",
               false;
      o.bench_skinning = n;
    } else if (a == "--crowd" || a == "--bench-crowd") {
      if (!value(v)) return false;
      // Every instance owns its pose buffers (about 10 KB for a 25-joint character), and the
      // palettes must fit one texture buffer: 10,000 keeps both sane.
      int n = 0;
      if (!parse_int(v, n) || n < 1 || n > 10000)
        return error = std::string(a) + " expects a count between 1 and 10000, got '" +
                       std::string(v) + "'",
               false;
      (a == "--crowd" ? o.crowd : o.bench_crowd) = n;
    } else if (const int scene = parse_scene_flag(a, value, o, error); scene != 0) {
      if (scene < 0) return false;
    } else if (a == "--animation-index") {
      if (!value(v)) return false;
      if (!parse_int(v, o.animation_index) || o.animation_index < 0)
        return error = "--animation-index expects a clip index >= 0, got '" + std::string(v) + "'",
               false;
      o.animation_index_given = true;
    } else if (a == "--animation-time") {
      if (!value(v)) return false;
      float t = 0;
      if (!parse_float(v, t))
        return error = "--animation-time expects seconds, got '" + std::string(v) + "'", false;
      o.animation_time = t;
    } else if (a == "--skinning") {
      if (!value(v)) return false;
      if (!parse_skinning(v, o, error)) return false;
      o.skinning_given = true;
    } else if (a == "--dqs-joints") {
      if (!value(v)) return false;
      o.dqs_joints.clear();
      size_t start = 0;
      while (true) {
        const size_t comma = v.find(',', start);
        const std::string_view name = v.substr(start, comma - start);
        if (name.empty())
          return error = "--dqs-joints expects NAME[,NAME...], got '" + std::string(v) + "'", false;
        o.dqs_joints.emplace_back(name);
        if (comma == std::string_view::npos) break;
        start = comma + 1;
      }
    } else if (a == "--backend") {
      if (!value(v)) return false;
      if (v == "cpu")
        o.backend = Backend::Cpu;
      else if (v == "gpu")
        o.backend = Backend::Gpu;
      else
        return error = "--backend expects cpu or gpu, got '" + std::string(v) + "'", false;
    } else if (a == "--blend-index") {
      if (!value(v)) return false;
      if (!parse_int(v, o.blend_index) || o.blend_index < 0)
        return error = "--blend-index expects a clip index >= 0, got '" + std::string(v) + "'",
               false;
    } else if (a == "--blend-time") {
      if (!value(v)) return false;
      if (!parse_float(v, o.blend_time))
        return error = "--blend-time expects seconds, got '" + std::string(v) + "'", false;
      blend_time_set = true;
    } else if (a == "--blend-weight") {
      if (!value(v)) return false;
      if (!parse_float(v, o.blend_weight) || o.blend_weight < 0.0f || o.blend_weight > 1.0f)
        return error = "--blend-weight expects a number in [0, 1], got '" + std::string(v) + "'",
               false;
      blend_weight_set = true;
    } else if (const int workbench = parse_workbench_flag(a, value, o, error); workbench != 0) {
      if (workbench < 0) return false;
    } else if (a.size() > 1 && a[0] == '-') {
      error = "unknown option '" + std::string(a) + "'";
      return false;
    } else {
      if (!o.model_path.empty()) {
        error = "more than one model given ('" + o.model_path + "' and '" + std::string(a) + "')";
        return false;
      }
      o.model_path = a;
    }
  }
  if ((blend_time_set || blend_weight_set) && o.blend_index < 0) {
    error = "--blend-time and --blend-weight need --blend-index";
    return false;
  }
  if (o.compare && !o.export_obj.empty()) {
    error = "--skinning compare applies to --output renders, not to --export-obj";
    return false;
  }
  if (!o.heatmap.empty() && !o.weights_view.empty()) {
    error = "--heatmap and --weights both colour the surfaces: choose one";
    return false;
  }
  if (!o.dqs_joints.empty()) {
    // Only the methods with per-joint amounts (the mix) read them: naming joints for a run that
    // draws none of them is a mistake. --report and --bench-skinning without --skinning run
    // every method, those too.
    // --rom-report scans every method as --report does; --inspect-vertex shows every method.
    const bool every_method = (!o.skinning_given && (o.bench_skinning > 0 || !o.report.empty() ||
                                                     !o.rom_report.empty())) ||
                              o.inspect_primitive >= 0;
    const bool amounts_read =
        o.skinning_given &&
        std::any_of(o.skinning_methods.begin(), o.skinning_methods.end(),
                    [](rig::SkinningMethod m) { return rig::method_info(m).write_joint_amounts; });
    if (!every_method && !amounts_read) {
      const std::string names = rig::joint_amount_method_names("|");
      error = "--dqs-joints needs --skinning " + names + " (or a compare list with " + names + ")";
      return false;
    }
  }
  if (o.compare && !o.export_ply.empty()) {
    error = "--skinning compare applies to --output renders and --report, not to --export-ply";
    return false;
  }
  return check_scene_options(o, error) && check_workbench_options(o, error);
}

std::vector<rig::SkinningMethod> methods_to_scan(const Options& options) {
  if (options.skinning_given) return options.skinning_methods;
  const auto all = rig::all_skinning_methods();
  return {all.begin(), all.end()};
}

std::string default_model_path(const char* argv0) {
  namespace fs = std::filesystem;
  std::error_code ec;
  // Next to the executable first (an installed layout), then the source tree.
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec && argv0) exe = fs::path(argv0);
  for (const fs::path& dir : {exe.parent_path() / "assets", fs::path(RIGVIEW_ASSET_DIR)}) {
    if (fs::exists(dir / "mannequin.glb", ec)) return (dir / "mannequin.glb").string();
  }
  return (fs::path(RIGVIEW_ASSET_DIR) / "mannequin.glb").string();
}

}  // namespace rigview
