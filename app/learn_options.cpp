#include "learn_options.h"

#include <cmath>
#include <cstdlib>

#include "skin/pitfalls.h"

namespace rigview {

namespace {

bool degrees_value(std::string_view s, float& out) {
  if (s.empty()) return false;
  const std::string text(s);
  char* end = nullptr;
  out = std::strtof(text.c_str(), &end);
  return end && *end == '\0' && std::isfinite(out) && std::abs(out) <= 720.0f;
}

// Outputs that pose and skin the character (the pitfalls and the demos reach all of them).
bool poses_an_output(const Options& o) {
  return !o.export_obj.empty() || !o.export_ply.empty() || !o.report.empty() ||
         !o.export_pose.empty() || !o.output_png.empty() || o.bench_skinning > 0 ||
         o.bench_crowd > 0 || !o.cross_section.empty();
}

}  // namespace

std::string pitfall_names(const char* separator) {
  std::string names;
  for (int p = 0; p < rig::kPitfallCount; ++p)
    names += (p ? separator : "") + std::string(rig::pitfall_name(rig::Pitfall(p)));
  return names;
}

void add_learn_flags(std::vector<FlagInfo>& f) {
  f.push_back(
      {"--pitfall " + pitfall_names("|"),
       "apply a classic skinning mistake to every output (repeatable):\n"
       "rotation keys lerped unnormalized, crossfaded matrices averaged,\n"
       "DQS without hemisphere flips, the file's raw weights, 4 influences",
       "teaching aid: apply a classic skinning mistake to every output that poses the "
       "character (repeatable): `lerp-quaternions` rotation keys sampled as (1−t)·q0 + t·q1 "
       "without normalization, turned into matrices with the unit-quaternion formula; "
       "`average-matrices` a crossfade (`--blend-index`) averages the two clips' world "
       "matrices entry by entry; `no-hemisphere` DQS blends without flipping to the "
       "pivot's hemisphere; `raw-weights` the file's weights without renormalization; "
       "`four-influences` each vertex keeps its 4 largest weights, renormalized (see "
       "*Learn: pitfalls and demonstrations*)",
       "Learn mode:"});
  f.push_back({"--twist-demo DEG",
               "set the twist arm's ArmTwist joint to DEG degrees about its\n"
               "bone axis (local X), no clip; every output",
               "sets the twist arm's `ArmTwist` local rotation to its rest rotation turned by DEG "
               "degrees about its bone axis (local X), whatever the clip says; every output; a "
               "model without `ArmRoot` and `ArmTwist` is refused",
               ""});
  f.push_back({"--bend-demo DEG",
               "bend the twist arm's ArmTwist joint by DEG degrees about its\n"
               "local Z (the elbow's bend), no clip; every output",
               "sets the twist arm's `ArmTwist` bend: DEG degrees about its local Z, applied after "
               "`--twist-demo`'s twist (rest · q_Z(bend) · q_X(twist)); every output; the same "
               "models as `--twist-demo`",
               ""});
  f.push_back({"--cross-section FILE.json",
               "write the twist arm's middle ring per skinning method as 2-D\n"
               "points in the plane across the bone, with radius min/max/mean",
               "write the outline of the twist arm's middle ring (the ring at `ArmTwist`) for "
               "every skinning method at the chosen pose: 2-D points in the plane across the "
               "bone, centred on the joint, and the radius min, max and mean per method, with the "
               "twist angle (schema in *Learn: pitfalls and demonstrations*)",
               ""});
}

int parse_learn_flag(std::string_view a, const FlagValue& value, Options& o, std::string& error) {
  std::string_view v;
  if (a == "--pitfall") {
    if (!value(v)) return -1;
    const std::optional<rig::Pitfall> p = rig::pitfall_from_name(v);
    if (!p)
      return error = "--pitfall expects one of " + pitfall_names(", ") + ", got '" +
                     std::string(v) + "'",
             -1;
    o.pitfalls.set(*p);
  } else if (a == "--twist-demo" || a == "--bend-demo") {
    if (!value(v)) return -1;
    float d = 0.0f;
    if (!degrees_value(v, d))
      return error =
                 std::string(a) + " expects degrees in [-720, 720], got '" + std::string(v) + "'",
             -1;
    (a == "--twist-demo" ? o.twist_demo : o.bend_demo) = d;
  } else if (a == "--cross-section") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--cross-section needs a file name", -1;
    o.cross_section = v;
  } else {
    return 0;
  }
  return 1;
}

bool check_learn_options(const Options& o, std::string& error) {
  const bool demo = o.twist_demo || o.bend_demo;
  if ((o.pitfalls.any() || demo) && !poses_an_output(o) && o.rom_report.empty() &&
      o.inspect_primitive < 0)
    return error = std::string(o.pitfalls.any() ? "--pitfall" : "--twist-demo/--bend-demo") +
                   " needs an output that poses: --export-obj, --export-ply, --report, "
                   "--export-pose, --output, --cross-section or a benchmark",
           false;
  return true;
}

}  // namespace rigview
