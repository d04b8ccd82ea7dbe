#include "clip_retarget.h"

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "character/retarget.h"
#include "json_text.h"
#include "write/atomic_file.h"

namespace rigview {

namespace {

// A --bone-map file larger than this is not a bone map (a skeleton has at most thousands).
constexpr std::streamoff kMaxBoneMapBytes = 16 << 20;

std::string human_list(const std::vector<rig::HumanBone>& bones) {
  std::string s;
  for (rig::HumanBone b : bones) s += (s.empty() ? "" : ", ") + std::string(rig::human_bone_name(b));
  return s;
}

// The joints of `model`'s skins (every skin, in order, each once) no pair uses on `side`.
std::vector<std::string> unmapped(const rig::Model& model, const rig::BoneMap& map, bool source) {
  std::set<int> used;
  for (const rig::BonePair& p : map.pairs) used.insert(source ? p.source : p.target);
  std::vector<std::string> out;
  std::set<int> listed;
  for (const rig::Skin& skin : model.skins)
    for (int joint : skin.joints)
      if (!used.count(joint) && listed.insert(joint).second)
        out.push_back(model.nodes[size_t(joint)].name);
  return out;
}

std::string role_name(rig::HumanBone role) {
  return role == rig::HumanBone::Count ? "" : rig::human_bone_name(role);
}

}  // namespace

bool read_bone_map(const std::string& path, std::vector<std::pair<std::string, std::string>>& pairs,
                   std::string& error) {
  pairs.clear();
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return error = path + ": cannot read the bone map", false;
  const std::streamoff size = in.tellg();
  if (size > kMaxBoneMapBytes) return error = path + ": too large for a bone map", false;
  in.seekg(0);
  std::stringstream text;
  text << in.rdbuf();
  const nlohmann::json json = nlohmann::json::parse(text.str(), nullptr, false);
  if (json.is_discarded()) return error = path + ": not valid JSON", false;
  if (!json.is_object())
    return error = path + ": a bone map is a JSON object {\"source joint\": \"target joint\", ...}",
           false;
  for (auto it = json.begin(); it != json.end(); ++it) {
    if (it.value().is_null()) {
      pairs.emplace_back(it.key(), "");
    } else if (it.value().is_string()) {
      pairs.emplace_back(it.key(), it.value().get<std::string>());
    } else {
      return error = path + ": the value of \"" + it.key() + "\" is not a joint name or null",
             false;
    }
  }
  return true;
}

bool retarget_clip_file(const rig::Model& source, const rig::Model& target, const Options& options,
                        ClipFile& out, std::string& error) {
  const rig::HumanoidMap source_parts = rig::find_humanoid(source, -1);
  const rig::HumanoidMap target_parts = rig::find_humanoid(target, -1);
  // A side that lacks core parts cannot be retargeted unless --bone-map names every pair.
  bool neck = false;
  const std::vector<rig::HumanBone> source_missing = rig::missing_core_bones(source_parts, &neck);
  const std::vector<rig::HumanBone> target_missing = rig::missing_core_bones(target_parts, &neck);
  for (rig::HumanBone b : source_missing) out.missing_core.push_back("source " + role_name(b));
  for (rig::HumanBone b : target_missing) out.missing_core.push_back("target " + role_name(b));
  if (source.skins.empty())
    return error = "its skeleton differs and it has no skin to map as a humanoid", false;
  if (!source_missing.empty() && options.bone_map.empty())
    return error = "not a humanoid skeleton (its skeleton differs from " + target.file +
                   "'s, and retargeting needs these parts, found by neither name nor shape: " +
                   human_list(source_missing) + "; or give --bone-map)",
           false;
  if (!target_missing.empty() && options.bone_map.empty())
    return error = "cannot retarget onto " + target.file + ": it is not a humanoid skeleton "
                   "(no " + human_list(target_missing) + "; give --bone-map)",
           false;
  out.map = rig::make_bone_map(source, source_parts, target, target_parts);
  if (!options.bone_map.empty()) {
    std::vector<std::pair<std::string, std::string>> pairs;
    if (!read_bone_map(options.bone_map, pairs, error)) return false;
    for (const auto& [from, to] : pairs)
      if (!rig::apply_bone_map_override(out.map, source, target, from, to, &error))
        return error = options.bone_map + ": " + error, false;
  }
  if (!out.map.find(rig::HumanBone::Hips))
    return error = "the bone map has no hips pair (give one with --bone-map)", false;
  out.feet_planted = options.retarget_feet;
  return retarget_clips(source, target, out, error);
}

bool retarget_clips(const rig::Model& source, const rig::Model& target, ClipFile& out,
                    std::string& error) {
  if (const std::string problem = rig::check_bone_map(source, target, out.map); !problem.empty())
    return error = "the bone map cannot be used: " + problem, false;
  out.retargeted = true;
  out.clips.clear();
  out.source_names.clear();
  for (const rig::BonePair& pair : out.map.pairs)
    out.source_names.push_back(source.nodes[size_t(pair.source)].name);
  out.unmapped_source = unmapped(source, out.map, true);
  out.unmapped_target = unmapped(target, out.map, false);
  const rig::RetargetRig rig = rig::build_retarget_rig(source, target, out.map);
  out.source_hip_height = rig.source.hip_height;
  out.target_hip_height = rig.target.hip_height;
  rig::RetargetSettings settings;
  settings.keep_feet_planted = out.feet_planted;
  for (size_t c = 0; c < source.clips.size(); ++c) {
    FileClip clip;
    clip.name = file_clip_name(out.stem, source.clips[c], c);
    clip.source_clip = source.clips[c].name;
    clip.origin = rig::ClipOrigin::Retargeted;
    clip.keys = rig::retarget_clip(source, source.clips[c], target, rig, settings, &clip.measures);
    clip.keys.name = clip.name;
    out.clips.push_back(std::move(clip));
  }
  return true;
}

bool write_retarget_report(const std::string& path, const rig::Model& target,
                           const std::vector<ClipFile>& files, std::string& error) {
  auto names = [](const std::vector<std::string>& list) {
    std::string s = "[";
    for (size_t i = 0; i < list.size(); ++i) s += (i ? "," : "") + json_string(list[i]);
    return s + "]";
  };
  std::string j = "{\"target\":" + json_string(target.file) + ",\"files\":[";
  size_t index = target.clips.size();
  for (size_t f = 0; f < files.size(); ++f) {
    const ClipFile& file = files[f];
    j += std::string(f ? "," : "") + "{\"file\":" + json_string(file.path) +
         ",\"retargeted\":" + (file.retargeted ? "true" : "false") + ",\"map\":[";
    for (size_t p = 0; p < file.map.pairs.size(); ++p) {
      const rig::BonePair& pair = file.map.pairs[p];
      j += std::string(p ? "," : "") + "{\"source\":" + json_string(file.source_names[p]) +
           ",\"target\":" + json_string(target.nodes[size_t(pair.target)].name) +
           ",\"role\":" + json_string(role_name(pair.role)) + "}";
    }
    j += "],\"unmapped_source\":" + names(file.unmapped_source) +
         ",\"unmapped_target\":" + names(file.unmapped_target) +
         ",\"missing_core\":" + names(file.missing_core) +
         ",\"source_hip_height\":" + json_number(file.source_hip_height) +
         ",\"target_hip_height\":" + json_number(file.target_hip_height) + ",\"clips\":[";
    for (size_t c = 0; c < file.clips.size(); ++c, ++index) {
      const FileClip& clip = file.clips[c];
      const rig::RetargetMeasures& m = clip.measures;
      j += std::string(c ? "," : "") + "{\"name\":" + json_string(clip.name) +
           ",\"index\":" + std::to_string(index) +
           ",\"source_clip\":" + json_string(clip.source_clip) +
           ",\"start\":" + json_number(clip.keys.start) + ",\"end\":" + json_number(clip.keys.end);
      if (file.retargeted)
        j += ",\"frames\":" + std::to_string(m.frames) +
             ",\"direction_bones\":" + std::to_string(m.direction_bones) +
             ",\"direction_error_max_deg\":" + json_number(m.max_direction_error_deg) +
             ",\"direction_error_mean_deg\":" + json_number(m.mean_direction_error_deg) +
             ",\"hip_ratio\":" + json_number(m.hip_ratio) +
             ",\"hip_ratio_error\":" + json_number(m.hip_ratio_error) +
             ",\"target_height\":" + json_number(m.target_height) +
             ",\"contact_frames\":" + std::to_string(m.contact_frames) +
             ",\"foot_slide_max\":" + json_number(m.max_foot_slide) +
             ",\"feet_planted\":" + (file.feet_planted ? "true" : "false");
      j += "}";
    }
    j += "]}";
  }
  j += "]}\n";
  return rig::write::write_file_atomically(
      path, std::span(reinterpret_cast<const uint8_t*>(j.data()), j.size()), error);
}

}  // namespace rigview
