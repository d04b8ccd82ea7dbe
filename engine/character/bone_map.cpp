// Humanoid part names, joint-name normalization, the by-name humanoid finder and the source →
// target bone map with its overrides. The structural finder lives in humanoid_structure.cpp.
#include "character/bone_map.h"

#include <algorithm>
#include <cctype>
#include <climits>
#include <cstring>
#include <map>

#include "model/model.h"

namespace rig {
namespace {

constexpr const char* kBoneNames[kHumanBoneCount] = {
    "hips",          "spine",         "chest",         "upperChest",    "neck",
    "head",          "leftShoulder",  "leftUpperArm",  "leftLowerArm",  "leftHand",
    "rightShoulder", "rightUpperArm", "rightLowerArm", "rightHand",     "leftUpperLeg",
    "leftLowerLeg",  "leftFoot",      "leftToes",      "rightUpperLeg", "rightLowerLeg",
    "rightFoot",     "rightToes",     "leftThumb1",    "leftThumb2",    "leftThumb3",
    "leftIndex1",    "leftIndex2",    "leftIndex3",    "leftMiddle1",   "leftMiddle2",
    "leftMiddle3",   "leftRing1",     "leftRing2",     "leftRing3",     "leftLittle1",
    "leftLittle2",   "leftLittle3",   "rightThumb1",   "rightThumb2",   "rightThumb3",
    "rightIndex1",   "rightIndex2",   "rightIndex3",   "rightMiddle1",  "rightMiddle2",
    "rightMiddle3",  "rightRing1",    "rightRing2",    "rightRing3",    "rightLittle1",
    "rightLittle2",  "rightLittle3"};

bool is_separator(char c) { return c == ' ' || c == '_' || c == '.' || c == '-'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
char lower(char c) { return is_upper(c) ? char(c - 'A' + 'a') : c; }

std::string lowered(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = lower(c);
  return out;
}

bool starts_with_ci(std::string_view s, std::string_view prefix) {
  if (s.size() < prefix.size()) return false;
  for (size_t i = 0; i < prefix.size(); ++i)
    if (lower(s[i]) != prefix[i]) return false;
  return true;
}

// Drops namespaces and tool prefixes (split_joint_name's first steps).
std::string_view strip_prefixes(std::string_view name) {
  const size_t cut = name.find_last_of(":|");
  if (cut != std::string_view::npos) name.remove_prefix(cut + 1);
  if (starts_with_ci(name, "mixamorig")) {
    size_t i = 9;
    while (i < name.size() && is_digit(name[i])) ++i;
    if (i < name.size() && name[i] == '_') name.remove_prefix(i + 1);
  }
  for (std::string_view prefix : {"def-", "org-", "mch-", "armature_"})
    if (starts_with_ci(name, prefix) && name.size() > prefix.size()) {
      name.remove_prefix(prefix.size());
      break;
    }
  return name;
}

// Words of a name: separators, lower→upper changes, "LArm" → L Arm, letter↔digit changes.
std::vector<std::string> words_of(std::string_view name) {
  std::vector<std::string> words;
  std::string word;
  auto flush = [&] {
    if (!word.empty()) words.push_back(lowered(word));
    word.clear();
  };
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    if (is_separator(c)) {
      flush();
      continue;
    }
    if (!word.empty()) {
      const char prev = word.back();
      const bool next_lower = i + 1 < name.size() && is_lower(name[i + 1]);
      if ((is_upper(c) && (is_lower(prev) || is_digit(prev))) ||
          (is_upper(c) && is_upper(prev) && next_lower) || (is_digit(c) != is_digit(prev)))
        flush();
    }
    word += c;
  }
  flush();
  return words;
}

bool is_number(const std::string& w) { return !w.empty() && is_digit(w[0]); }

std::vector<int> joints_of(const Model& model, int skin) {
  if (skin < 0) skin = 0;
  if (skin >= int(model.skins.size())) return {};
  std::vector<int> joints;
  for (int node : model.skins[size_t(skin)].joints)
    if (node >= 0 && node < int(model.nodes.size())) joints.push_back(node);
  return joints;
}

// ---- Vocabulary --------------------------------------------------------------------------------

enum Limb : int { kShoulder, kUpperArm, kLowerArm, kHand, kUpperLeg, kLowerLeg, kFoot, kToes };

struct Word {
  const char* base;
  int limb;
  int priority;  // lower wins when two joints name the same part
};

// Sided limb words of every convention (README lists them by convention). KayKit has both
// "wrist" (the joint at the wrist) and "hand" (a palm joint below it): the wrist wins.
constexpr Word kLimbWords[] = {
    {"shoulder", kShoulder, 0}, {"clavicle", kShoulder, 1}, {"collar", kShoulder, 2},
    {"upperarm", kUpperArm, 0}, {"arm", kUpperArm, 1},      {"uparm", kUpperArm, 2},
    {"lowerarm", kLowerArm, 0}, {"forearm", kLowerArm, 1},  {"wrist", kHand, 0},
    {"hand", kHand, 1},         {"palm", kHand, 2},         {"upperleg", kUpperLeg, 0},
    {"upleg", kUpperLeg, 1},    {"thigh", kUpperLeg, 2},    {"lowerleg", kLowerLeg, 0},
    {"leg", kLowerLeg, 1},      {"calf", kLowerLeg, 2},     {"shin", kLowerLeg, 3},
    {"foot", kFoot, 0},         {"toes", kToes, 0},         {"toebase", kToes, 1},
    {"toe", kToes, 2},          {"ball", kToes, 3}};

HumanBone limb_bone(int limb, JointSide side) {
  static constexpr HumanBone kLeft[] = {HumanBone::LeftShoulder, HumanBone::LeftUpperArm,
                                        HumanBone::LeftLowerArm, HumanBone::LeftHand,
                                        HumanBone::LeftUpperLeg, HumanBone::LeftLowerLeg,
                                        HumanBone::LeftFoot,     HumanBone::LeftToes};
  static constexpr HumanBone kRight[] = {HumanBone::RightShoulder, HumanBone::RightUpperArm,
                                         HumanBone::RightLowerArm, HumanBone::RightHand,
                                         HumanBone::RightUpperLeg, HumanBone::RightLowerLeg,
                                         HumanBone::RightFoot,     HumanBone::RightToes};
  return side == JointSide::Left ? kLeft[limb] : kRight[limb];
}

// "thumb1", "handthumb2" (Mixamo), "findex1" (Rigify f_index.01), "indexproximal" (Unity),
// "pinky3", "thumb" (segment 1): the finger part, Count when the base names none.
HumanBone finger_bone(std::string base, JointSide side) {
  if (base.rfind("hand", 0) == 0) base.erase(0, 4);
  struct Finger {
    const char* word;
    int finger;
  };
  static constexpr Finger kFingers[] = {{"thumb", 0},  {"index", 1}, {"middle", 2}, {"ring", 3},
                                        {"little", 4}, {"pinky", 4}, {"pinkie", 4}};
  for (int pass = 0; pass < 2; ++pass) {
    for (const Finger& f : kFingers) {
      if (base.rfind(f.word, 0) != 0) continue;
      const std::string rest = base.substr(std::strlen(f.word));
      int segment = 0;
      if (rest.empty() || rest == "1" || rest == "proximal") segment = 1;
      if (rest == "2" || rest == "intermediate") segment = 2;
      if (rest == "3" || rest == "distal") segment = 3;
      if (segment == 0) return HumanBone::Count;
      const int first =
          int(side == JointSide::Left ? HumanBone::LeftThumb1 : HumanBone::RightThumb1);
      return HumanBone(first + f.finger * 3 + segment - 1);
    }
    // Rigify's finger bones: f_index.01.L, f_middle…, f_pinky….
    if (base.size() < 2 || base[0] != 'f') break;
    base.erase(0, 1);
  }
  return HumanBone::Count;
}

struct Match {
  HumanBone bone = HumanBone::Count;
  int priority = INT_MAX;
};

Match match_name(std::string_view name, bool rigify) {
  const JointNameParts parts = split_joint_name(name);
  const std::string& base = parts.base;
  if (parts.side == JointSide::None) {
    // Rigify deform spine: spine (the pelvis), .001 spine, .002 chest, .003 upper chest,
    // .004 neck, .005 upper neck (no part), .006 head.
    if (rigify && base.rfind("spine", 0) == 0) {
      const std::string n = base.substr(5);
      static constexpr HumanBone kRigify[] = {
          HumanBone::Hips, HumanBone::Spine, HumanBone::Chest, HumanBone::UpperChest,
          HumanBone::Neck, HumanBone::Count, HumanBone::Head};
      if (n.empty()) return {HumanBone::Hips, 0};
      if (n.size() == 1 && n[0] >= '1' && n[0] <= '6') return {kRigify[n[0] - '0'], 0};
      return {};
    }
    if (base == "hips") return {HumanBone::Hips, 0};
    if (base == "pelvis") return {HumanBone::Hips, 1};
    if (base == "hip") return {HumanBone::Hips, 2};
    if (base == "neck") return {HumanBone::Neck, 0};
    if (base == "neck1") return {HumanBone::Neck, 1};
    if (base == "head") return {HumanBone::Head, 0};
    return {};
  }
  for (const Word& word : kLimbWords)
    if (base == word.base) return {limb_bone(word.limb, parts.side), word.priority};
  return {finger_bone(base, parts.side), 0};
}

// Nearest skin joint that is `node` or an ancestor of it; -1 when none.
int joint_at_or_above(const Model& model, const std::vector<char>& is_joint, int node) {
  while (node >= 0 && !is_joint[size_t(node)]) node = model.nodes[size_t(node)].parent;
  return node;
}

bool is_ancestor(const Model& model, int ancestor, int node) {
  for (int n = model.nodes[size_t(node)].parent; n >= 0; n = model.nodes[size_t(n)].parent)
    if (n == ancestor) return true;
  return false;
}

int common_ancestor(const Model& model, const std::vector<char>& is_joint, int a, int b) {
  for (int n = model.nodes[size_t(a)].parent; n >= 0; n = model.nodes[size_t(n)].parent)
    if (n == b || is_ancestor(model, n, b)) return joint_at_or_above(model, is_joint, n);
  return -1;
}

}  // namespace

const char* human_bone_name(HumanBone bone) {
  return bone < HumanBone::Count ? kBoneNames[size_t(bone)] : "";
}

HumanBone human_bone_from_name(std::string_view name) {
  for (size_t i = 0; i < kHumanBoneCount; ++i)
    if (name == kBoneNames[i]) return HumanBone(i);
  return HumanBone::Count;
}

bool is_core_human_bone(HumanBone bone) {
  switch (bone) {
    case HumanBone::Hips:
    case HumanBone::Spine:
    case HumanBone::Chest:
    case HumanBone::Neck:
    case HumanBone::Head:
    case HumanBone::LeftUpperArm:
    case HumanBone::LeftLowerArm:
    case HumanBone::LeftHand:
    case HumanBone::RightUpperArm:
    case HumanBone::RightLowerArm:
    case HumanBone::RightHand:
    case HumanBone::LeftUpperLeg:
    case HumanBone::LeftLowerLeg:
    case HumanBone::LeftFoot:
    case HumanBone::RightUpperLeg:
    case HumanBone::RightLowerLeg:
    case HumanBone::RightFoot:
      return true;
    default:
      return false;
  }
}

std::vector<HumanBone> missing_core_bones(const HumanoidMap& map, bool* neck_missing) {
  std::vector<HumanBone> missing;
  for (size_t i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = HumanBone(i);
    if (!is_core_human_bone(bone) || map[bone] >= 0) continue;
    if (is_optional_core_bone(bone)) continue;
    missing.push_back(bone);
  }
  if (neck_missing != nullptr) *neck_missing = map[HumanBone::Neck] < 0;
  return missing;
}

JointNameParts split_joint_name(std::string_view name) {
  std::vector<std::string> words = words_of(strip_prefixes(name));
  JointNameParts parts;
  // VRM: J_Bip_C_Hips, J_Bip_L_UpperArm, J_Sec_…; 3ds Max Biped: "Bip01 L UpperArm".
  size_t first = 0;
  if (first < words.size() && words[first] == "j") ++first;
  if (first < words.size() && (words[first] == "bip" || words[first] == "sec")) {
    ++first;
    if (first < words.size() && is_number(words[first])) ++first;
  }
  if (first < words.size() && words[first] == "c") ++first;
  for (size_t i = first; i < words.size(); ++i) {
    std::string& w = words[i];
    if (parts.side == JointSide::None && words.size() - first > 1) {
      if (w == "l" || w == "left") {
        parts.side = JointSide::Left;
        continue;
      }
      if (w == "r" || w == "right") {
        parts.side = JointSide::Right;
        continue;
      }
    }
    if (is_number(w)) {
      const size_t nz = w.find_first_not_of('0');
      w = nz == std::string::npos ? "0" : w.substr(nz);
    }
    parts.base += w;
  }
  return parts;
}

std::string normalize_joint_name(std::string_view name) {
  const JointNameParts parts = split_joint_name(name);
  std::string out = parts.base;
  if (parts.side == JointSide::Left) out += "_l";
  if (parts.side == JointSide::Right) out += "_r";
  return out;
}

bool is_twist_joint_name(std::string_view name) {
  for (const std::string& w : words_of(name))
    if (w == "twist" || w == "roll") return true;
  return false;
}

HumanoidMap find_humanoid_by_name(const Model& model, int skin) {
  HumanoidMap map;
  const std::vector<int> joints = joints_of(model, skin);
  std::vector<char> is_joint(model.nodes.size(), 0);
  bool rigify = false;
  for (int node : joints) {
    is_joint[size_t(node)] = 1;
    if (lowered(model.nodes[size_t(node)].name).find("spine.00") != std::string::npos)
      rigify = true;
  }
  std::array<int, kHumanBoneCount> priority;
  priority.fill(INT_MAX);
  for (int node : joints) {
    const std::string& name = model.nodes[size_t(node)].name;
    if (is_twist_joint_name(name)) continue;
    const Match m = match_name(name, rigify);
    if (m.bone == HumanBone::Count || m.priority >= priority[size_t(m.bone)]) continue;
    priority[size_t(m.bone)] = m.priority;
    map[m.bone] = node;
  }
  const int left_leg = map[HumanBone::LeftUpperLeg], right_leg = map[HumanBone::RightUpperLeg];
  if (map[HumanBone::Hips] < 0 && left_leg >= 0 && right_leg >= 0)
    map[HumanBone::Hips] = common_ancestor(model, is_joint, left_leg, right_leg);

  // Spine parts: the joints strictly between the hips and the neck (else the head), or up to and
  // including the joint both arms hang from, bottom to top.
  const int hips = map[HumanBone::Hips];
  if (hips < 0 || map[HumanBone::Spine] >= 0) return map;
  int top = map[HumanBone::Neck] >= 0 ? map[HumanBone::Neck] : map[HumanBone::Head];
  bool top_included = false;
  if (top < 0) {
    const HumanBone left =
        map[HumanBone::LeftShoulder] >= 0 ? HumanBone::LeftShoulder : HumanBone::LeftUpperArm;
    const HumanBone right =
        map[HumanBone::RightShoulder] >= 0 ? HumanBone::RightShoulder : HumanBone::RightUpperArm;
    if (map[left] >= 0 && map[right] >= 0) {
      top = common_ancestor(model, is_joint, map[left], map[right]);
      top_included = true;
    }
  }
  if (top < 0 || !is_ancestor(model, hips, top)) return map;
  std::vector<int> path;
  for (int n = top_included ? top : model.nodes[size_t(top)].parent; n >= 0 && n != hips;
       n = model.nodes[size_t(n)].parent)
    if (is_joint[size_t(n)] && !is_twist_joint_name(model.nodes[size_t(n)].name)) path.push_back(n);
  std::reverse(path.begin(), path.end());
  const HumanBone segments[] = {HumanBone::Spine, HumanBone::Chest, HumanBone::UpperChest};
  for (size_t i = 0; i < path.size() && i < 3; ++i)
    if (map[segments[i]] < 0) map[segments[i]] = path[i];
  return map;
}

BoneMap make_bone_map(const Model& source, const HumanoidMap& source_map, const Model& target,
                      const HumanoidMap& target_map) {
  BoneMap map;
  std::vector<char> used_source(source.nodes.size(), 0), used_target(target.nodes.size(), 0);
  for (size_t i = 0; i < kHumanBoneCount; ++i) {
    const int s = source_map.node[i], t = target_map.node[i];
    if (s < 0 || t < 0 || s >= int(source.nodes.size()) || t >= int(target.nodes.size())) continue;
    map.pairs.push_back({s, t, HumanBone(i)});
    used_source[size_t(s)] = used_target[size_t(t)] = 1;
  }
  // Extras: normalized name → node, or -1 when the name is not unique on that side.
  auto by_name = [](const Model& model) {
    std::map<std::string, int> names;
    std::vector<char> seen(model.nodes.size(), 0);
    for (const Skin& skin : model.skins)
      for (int node : skin.joints) {
        if (node < 0 || node >= int(model.nodes.size()) || seen[size_t(node)]) continue;
        seen[size_t(node)] = 1;
        const std::string key = normalize_joint_name(model.nodes[size_t(node)].name);
        if (key.empty()) continue;
        auto [it, inserted] = names.emplace(key, node);
        if (!inserted) it->second = -1;
      }
    return names;
  };
  const std::map<std::string, int> source_names = by_name(source), target_names = by_name(target);
  for (const auto& [key, s] : source_names) {
    const auto it = target_names.find(key);
    if (s < 0 || it == target_names.end() || it->second < 0) continue;
    const int t = it->second;
    if (used_source[size_t(s)] || used_target[size_t(t)]) continue;
    map.pairs.push_back({s, t, HumanBone::Count});
    used_source[size_t(s)] = used_target[size_t(t)] = 1;
  }
  return map;
}

bool apply_bone_map_override(BoneMap& map, const Model& source, const Model& target,
                             std::string_view source_joint, std::string_view target_joint,
                             std::string* error) {
  auto find = [](const Model& model, std::string_view name) {
    for (size_t i = 0; i < model.nodes.size(); ++i)
      if (model.nodes[i].name == name) return int(i);
    return -1;
  };
  const int s = find(source, source_joint);
  if (s < 0) {
    if (error != nullptr)
      *error = "bone map: unknown source joint '" + std::string(source_joint) + "'";
    return false;
  }
  int t = -1;
  if (!target_joint.empty()) {
    t = find(target, target_joint);
    if (t < 0) {
      if (error != nullptr)
        *error = "bone map: unknown target joint '" + std::string(target_joint) + "'";
      return false;
    }
  }
  HumanBone role = HumanBone::Count, source_role = HumanBone::Count;
  for (const BonePair& pair : map.pairs) {
    if (t >= 0 && pair.target == t) role = pair.role;
    if (pair.source == s) source_role = pair.role;
  }
  if (role == HumanBone::Count) role = source_role;
  map.pairs.erase(std::remove_if(map.pairs.begin(), map.pairs.end(),
                                 [&](const BonePair& pair) {
                                   return pair.source == s || (t >= 0 && pair.target == t);
                                 }),
                  map.pairs.end());
  if (t >= 0) map.pairs.push_back({s, t, role});
  return true;
}

}  // namespace rig
