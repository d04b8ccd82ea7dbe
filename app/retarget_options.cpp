#include "retarget_options.h"

namespace rigview {

void add_retarget_flags(std::vector<FlagInfo>& f) {
  f.push_back({"--clips FILE",
               "add FILE's animations to the clip set (repeatable), named\n"
               "stem:clip and numbered after the model's own; retargeted\n"
               "when FILE's skeleton differs",
               "add the animations of another glTF/GLB to the character's clip set (repeatable), "
               "named `FILE-stem:clip-name` and numbered after the model's own clips (and the "
               "earlier `--clips` files') for `--animation-index`, `--blend-index` and `--layer`; "
               "played directly when FILE's skeleton has the same joint names and rest pose, "
               "otherwise retargeted through the humanoid bone map (see *Retargeting*)",
               "Clips from other files and retargeting:"});
  f.push_back({"--bone-map FILE.json",
               "source → target joint pairs that override the automatic\n"
               "humanoid map: {\"source joint\": \"target joint\", ...}",
               "a JSON object `{\"source joint\": \"target joint\", …}` whose pairs override the "
               "automatic bone map of every retargeted `--clips` file (`null` or `\"\"` unmaps "
               "the source joint); unknown joint names are an error",
               ""});
  f.push_back({"--retarget-report FILE.json",
               "write the bone map used, the unmapped joints and per-clip\n"
               "direction error, hip ratio and foot slide as JSON",
               "write, per `--clips` file, the bone map used, the joints left unmapped on each "
               "side and per clip the measures of *Retargeting* (direction error, hip ratio, "
               "foot slide) as JSON (schema below)",
               ""});
  f.push_back({"--retarget-feet",
               "keep the target's feet planted where the source's are\n"
               "(foot contacts + two-bone IK) when retargeting",
               "when retargeting, keep the target's foot planted (two-bone IK) wherever the "
               "source's foot contact detection finds the source's foot planted",
               ""});
}

int parse_retarget_flag(std::string_view a, const FlagValue& value, Options& o,
                        std::string& error) {
  std::string_view v;
  if (a == "--clips") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--clips needs a file name", -1;
    o.clip_files.emplace_back(v);
  } else if (a == "--bone-map") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--bone-map needs a file name", -1;
    o.bone_map = v;
  } else if (a == "--retarget-report") {
    if (!value(v)) return -1;
    if (v.empty()) return error = "--retarget-report needs a file name", -1;
    o.retarget_report = v;
  } else if (a == "--retarget-feet") {
    o.retarget_feet = true;
  } else {
    return 0;
  }
  return 1;
}

bool check_retarget_options(const Options& o, std::string& error) {
  if (o.clip_files.empty() &&
      (!o.bone_map.empty() || !o.retarget_report.empty() || o.retarget_feet))
    return error = "--bone-map, --retarget-report and --retarget-feet need --clips FILE", false;
  return true;
}

}  // namespace rigview
