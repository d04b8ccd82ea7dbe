#include "clip_retarget.h"

#include <algorithm>
#include <fstream>
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
  for (rig::HumanBone b : bones)
    s += (s.empty() ? "" : ", ") + std::string(rig::human_bone_name(b));
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

// A JSON reader for exactly what a bone map holds: one object whose members are strings or null.
class BoneMapText {
 public:
  explicit BoneMapText(const std::string& text) : s_(text) {}
  bool parse(std::vector<std::pair<std::string, std::string>>& pairs, std::string& error) {
    space();
    if (!eat('{'))
      return error = "a bone map is a JSON object {\"source joint\": \"target joint\", ...}", false;
    space();
    if (eat('}')) return end(error);
    while (true) {
      std::string key, value;
      space();
      if (!string(key))
        return error = "expected a joint name in quotes at byte " + std::to_string(i_), false;
      space();
      if (!eat(':')) return error = "expected ':' at byte " + std::to_string(i_), false;
      space();
      if (s_.compare(i_, 4, "null") == 0) {
        i_ += 4;
      } else if (!string(value)) {
        return error = "the value of \"" + key + "\" is not a joint name or null", false;
      }
      pairs.emplace_back(std::move(key), std::move(value));
      space();
      if (eat('}')) return end(error);
      if (!eat(',')) return error = "expected ',' or '}' at byte " + std::to_string(i_), false;
    }
  }

 private:
  bool end(std::string& error) {
    space();
    return i_ == s_.size() ? true : (error = "text after the bone map's object", false);
  }
  void space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    if (i_ >= s_.size() || s_[i_] != c) return false;
    ++i_;
    return true;
  }
  bool hex4(uint32_t& out) {
    if (i_ + 4 > s_.size()) return false;
    out = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s_[i_++];
      out <<= 4;
      if (c >= '0' && c <= '9')
        out |= uint32_t(c - '0');
      else if (c >= 'a' && c <= 'f')
        out |= uint32_t(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F')
        out |= uint32_t(c - 'A' + 10);
      else
        return false;
    }
    return true;
  }
  void utf8(uint32_t c, std::string& out) {
    if (c < 0x80) {
      out += char(c);
    } else if (c < 0x800) {
      out += char(0xC0 | (c >> 6)), out += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += char(0xE0 | (c >> 12)), out += char(0x80 | ((c >> 6) & 0x3F));
      out += char(0x80 | (c & 0x3F));
    } else {
      out += char(0xF0 | (c >> 18)), out += char(0x80 | ((c >> 12) & 0x3F));
      out += char(0x80 | ((c >> 6) & 0x3F)), out += char(0x80 | (c & 0x3F));
    }
  }
  bool string(std::string& out) {
    if (!eat('"')) return false;
    while (i_ < s_.size()) {
      const char c = s_[i_++];
      if (c == '"') return true;
      if (static_cast<unsigned char>(c) < 0x20) return false;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= s_.size()) return false;
      const char e = s_[i_++];
      switch (e) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          uint32_t c1 = 0;
          if (!hex4(c1)) return false;
          if (c1 >= 0xD800 && c1 < 0xDC00) {  // a surrogate pair
            uint32_t c2 = 0;
            if (!eat('\\') || !eat('u') || !hex4(c2) || c2 < 0xDC00 || c2 >= 0xE000) return false;
            c1 = 0x10000 + ((c1 - 0xD800) << 10) + (c2 - 0xDC00);
          }
          utf8(c1, out);
          break;
        }
        default:
          return false;
      }
    }
    return false;
  }
  const std::string& s_;
  size_t i_ = 0;
};

// The core parts a retarget needs on both sides.
bool required(rig::HumanBone b) {
  using H = rig::HumanBone;
  return b != H::LeftHand && b != H::RightHand && b != H::Chest && b != H::Neck;
}

std::string role_name(rig::HumanBone role) {
  return role == rig::HumanBone::Count ? "" : rig::human_bone_name(role);
}

// How --retarget-feet drove the file's feet: "off" without it; "none" when a foot cannot be
// planted (the source lacks a mapped pair of feet, or a target leg is not a chain); otherwise
// "legs" when two-bone IK drove feet, "+hips" when on some frame the hips moved so a leg could
// reach its planted foot, "placed" / "+placed" when feet that do not hang from their lower legs
// were placed by their own translation: legs, legs+hips, placed, legs+placed, legs+hips+placed.
std::string feet_drive(const ClipFile& file) {
  if (!file.retargeted || !file.feet_planted) return "off";
  bool hips = false, legs = false, placed = false;
  for (const FileClip& clip : file.clips) {
    if (clip.measures.feet_legs + clip.measures.feet_placed < 2) return "none";
    hips = hips || clip.measures.feet_hips_frames > 0;
    legs = legs || clip.measures.feet_legs > 0;
    placed = placed || clip.measures.feet_placed > 0;
  }
  std::string drive = legs ? (hips ? "legs+hips" : "legs") : "";
  if (placed) drive += drive.empty() ? "placed" : "+placed";
  return drive.empty() ? "none" : drive;
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
  const std::string content = text.str();
  if (!BoneMapText(content).parse(pairs, error)) return error = path + ": " + error, false;
  return true;
}

bool retarget_clip_file(const rig::Model& source, const rig::Model& target, const Options& options,
                        ClipFile& out, std::string& error) {
  const rig::HumanoidMap source_parts = rig::find_humanoid(source, -1);
  const rig::HumanoidMap target_parts = rig::find_humanoid(target, -1);
  // Core parts not found are listed; a side that lacks one the retarget cannot do without (the
  // hips, the spine and head, the limbs down to the feet and the lower arms) is refused unless
  // --bone-map is given. Hands and the chest may be missing (the Quaternius robots' lower arms
  // end in one palm joint per finger): those bones keep their rest pose.
  bool neck = false;
  std::vector<rig::HumanBone> source_missing, target_missing;
  for (rig::HumanBone b : rig::missing_core_bones(source_parts, &neck)) {
    out.missing_core.push_back("source " + role_name(b));
    if (required(b)) source_missing.push_back(b);
  }
  for (rig::HumanBone b : rig::missing_core_bones(target_parts, &neck)) {
    out.missing_core.push_back("target " + role_name(b));
    if (required(b)) target_missing.push_back(b);
  }
  if (source.skins.empty())
    return error = "its skeleton differs and it has no skin to map as a humanoid", false;
  if (!source_missing.empty() && options.bone_map.empty())
    return error = "not a humanoid skeleton (its skeleton differs from " + target.file +
                   "'s, and retargeting needs these parts, found by neither name nor shape: " +
                   human_list(source_missing) + "; or give --bone-map)",
           false;
  if (!target_missing.empty() && options.bone_map.empty())
    return error = "cannot retarget onto " + target.file +
                   ": it is not a humanoid skeleton "
                   "(no " +
                   human_list(target_missing) + "; give --bone-map)",
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
           ",\"role\":" + json_string(role_name(pair.role)) +
           ",\"source_node\":" + std::to_string(pair.source) +
           ",\"target_node\":" + std::to_string(pair.target) + "}";
    }
    j += "],\"unmapped_source\":" + names(file.unmapped_source) +
         ",\"unmapped_target\":" + names(file.unmapped_target) +
         ",\"missing_core\":" + names(file.missing_core) +
         ",\"source_hip_height\":" + json_number(file.source_hip_height) +
         ",\"target_hip_height\":" + json_number(file.target_hip_height) +
         ",\"feet_drive\":" + json_string(feet_drive(file)) + ",\"clips\":[";
    for (size_t c = 0; c < file.clips.size(); ++c, ++index) {
      const FileClip& clip = file.clips[c];
      const rig::RetargetMeasures& m = clip.measures;
      j += std::string(c ? "," : "") + "{\"name\":" + json_string(clip.name) +
           ",\"index\":" + std::to_string(index) +
           ",\"source_clip\":" + json_string(clip.source_clip) +
           ",\"start\":" + json_number(clip.keys.start) + ",\"end\":" + json_number(clip.keys.end);
      if (file.retargeted)
        j += ",\"frames\":" + std::to_string(m.frames) +
             ",\"frame_duration\":" + json_number(m.frame_duration) +
             ",\"direction_bones\":" + std::to_string(m.direction_bones) +
             ",\"direction_error_max_deg\":" + json_number(m.max_direction_error_deg) +
             ",\"direction_error_mean_deg\":" + json_number(m.mean_direction_error_deg) +
             ",\"hip_ratio\":" + json_number(m.hip_ratio) +
             ",\"hip_ratio_error\":" + json_number(m.hip_ratio_error) +
             ",\"target_height\":" + json_number(m.target_height) +
             ",\"contact_frames\":" + std::to_string(m.contact_frames) +
             ",\"foot_slide_max\":" + json_number(m.max_foot_slide) +
             ",\"feet_hips_frames\":" + std::to_string(m.feet_hips_frames) +
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
