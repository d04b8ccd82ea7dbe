#include "posed_character.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <glm/gtc/type_ptr.hpp>
#include <string_view>

#include "anim/joint_mask.h"
#include "character/fk_rotation.h"
#include "clip_files.h"
#include "compression_outputs.h"
#include "json_text.h"
#include "learn_pose.h"
#include "pose_options.h"
#include "rotation_centers_job.h"
#include "save_outputs.h"

namespace rigview {

namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t at = text.find(separator); at != std::string_view::npos;
       at = text.find(separator, start)) {
    parts.push_back(text.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(text.substr(start));
  return parts;
}

bool parse_number(std::string_view text, float& out) {
  const std::string s(text);
  char* end = nullptr;
  out = std::strtof(s.c_str(), &end);
  return !s.empty() && end && *end == '\0' && std::isfinite(out);
}

bool parse_point(std::string_view text, glm::vec3& out) {
  const std::vector<std::string_view> c = split(text, ',');
  return c.size() == 3 && parse_number(c[0], out.x) && parse_number(c[1], out.y) &&
         parse_number(c[2], out.z);
}

// A clip of the set by name, else by index.
int find_clip(const rig::ClipSet& clips, std::string_view text) {
  const int named = clips.find_name(text);
  if (named >= 0) return named;
  float index = 0.0f;
  if (parse_number(text, index) && index >= 0.0f && index == std::floor(index) &&
      size_t(index) < clips.size())
    return int(index);
  return -1;
}

int joint_node(const rig::Model& model, std::string_view name, const char* flag,
               std::string& error) {
  const int node = rig::find_node(model, name);
  if (node < 0) error = std::string(flag) + ": no node named '" + std::string(name) + "'";
  return node;
}

// CLIP:WEIGHT[:additive][:mask=JOINT,...][:time=T]; mask joint names may contain ':', and so
// may CLIP when it names a --clips clip ("walk:Run:0.5").
bool parse_layer(const rig::Model& model, const rig::ClipSet& clips, std::string_view text,
                 rig::LayerSetting& layer, std::string& error) {
  const std::vector<std::string_view> fields = split(text, ':');
  const std::string bad = "--layer '" + std::string(text) + "': ";
  if (fields.size() < 2) return error = bad + "expected CLIP:WEIGHT", false;
  size_t weight_field = 1;
  layer.clip = find_clip(clips, fields[0]);
  if (fields.size() >= 3) {
    const int named = clips.find_name(std::string(fields[0]) + ":" + std::string(fields[1]));
    if (named >= 0) layer.clip = named, weight_field = 2;
  }
  if (layer.clip < 0) return error = bad + "no clip '" + std::string(fields[0]) + "'", false;
  if (!parse_number(fields[weight_field], layer.weight) || layer.weight < 0.0f ||
      layer.weight > 1.0f)
    return error = bad + "WEIGHT must be a number in [0, 1]", false;
  layer.time = clips[size_t(layer.clip)].start;
  std::vector<std::string> mask;
  bool in_mask = false;
  for (size_t i = weight_field + 1; i < fields.size(); ++i) {
    const std::string_view f = fields[i];
    if (f == "additive") {
      layer.additive = true;
      in_mask = false;
    } else if (f.rfind("time=", 0) == 0) {
      if (!parse_number(f.substr(5), layer.time)) return error = bad + "time= needs seconds", false;
      in_mask = false;
    } else if (f.rfind("mask=", 0) == 0) {
      for (std::string_view name : split(f.substr(5), ',')) mask.emplace_back(name);
      in_mask = true;
    } else if (in_mask && !mask.empty()) {
      // A ':' inside a joint name (Mixamo's "mixamorig:LeftHand"): glue the pieces back.
      const std::vector<std::string_view> names = split(f, ',');
      mask.back() += ":" + std::string(names[0]);
      for (size_t n = 1; n < names.size(); ++n) mask.emplace_back(names[n]);
    } else {
      return error = bad + "unknown field '" + std::string(f) + "'", false;
    }
  }
  for (const std::string& name : mask) {
    const int node = joint_node(model, name, "--layer mask", error);
    if (node < 0) return false;
    layer.mask_roots.push_back(node);
  }
  return true;
}

// END=x,y,z[;pole=x,y,z][;weight=W][;mid=NAME][;root=NAME][;keep]
bool parse_ik(const rig::Model& model, std::string_view text, rig::TwoBoneIK& ik,
              std::string& error) {
  const std::vector<std::string_view> fields = split(text, ';');
  const std::string bad = "--ik '" + std::string(text) + "': ";
  const size_t eq = fields[0].rfind('=');
  if (eq == std::string_view::npos || !parse_point(fields[0].substr(eq + 1), ik.target))
    return error = bad + "expected END=x,y,z", false;
  const int end = joint_node(model, fields[0].substr(0, eq), "--ik", error);
  if (end < 0) return false;
  ik.chain = rig::two_bone_chain(model, end);
  for (size_t i = 1; i < fields.size(); ++i) {
    const std::string_view f = fields[i];
    const size_t at = f.find('=');
    const std::string_view key = f.substr(0, at), value = at == f.npos ? "" : f.substr(at + 1);
    if (key == "pole") {
      if (!parse_point(value, ik.pole)) return error = bad + "pole=x,y,z", false;
      ik.use_pole = true;
    } else if (key == "weight") {
      if (!parse_number(value, ik.weight) || ik.weight < 0.0f || ik.weight > 1.0f)
        return error = bad + "weight must be in [0, 1]", false;
    } else if (key == "keep" && at == f.npos) {
      ik.keep_end_rotation = true;
    } else if (key == "mid" || key == "root") {
      const int node = joint_node(model, value, "--ik", error);
      if (node < 0) return false;
      (key == "mid" ? ik.chain.mid : ik.chain.root) = node;
    } else {
      return error = bad + "unknown field '" + std::string(key) + "'", false;
    }
  }
  if (!ik.chain.valid()) return error = bad + "the joint has no parent and grandparent", false;
  return true;
}

// NAME=rx,ry,rz (degrees): a Delta FK edit q_X(rx)·q_Y(ry)·q_Z(rz). Split at the last '=' so a
// joint name may hold one.
bool parse_pose_joint(const rig::Model& model, std::string_view text, rig::FkEdit& edit,
                      std::string& error) {
  const size_t eq = text.rfind('=');
  glm::vec3 degrees(0.0f);
  if (eq == std::string_view::npos || eq == 0 || !parse_point(text.substr(eq + 1), degrees))
    return error = "--pose-joint expects NAME=rx,ry,rz (degrees), got '" + std::string(text) + "'",
           false;
  edit.node = joint_node(model, text.substr(0, eq), "--pose-joint", error);
  if (edit.node < 0) return false;
  edit.mode = rig::FkEditMode::Delta;
  edit.transform = rig::Transform{};
  edit.transform.rotation = rig::local_xyz_rotation(degrees);
  return true;
}

}  // namespace

bool pose_settings_from_options(const Options& options, const rig::Model& model,
                                const rig::ClipSet& clips, const rig::PoseSelection& selection,
                                rig::PoseSettings& out, std::string& error) {
  out = rig::PoseSettings{};
  out.base = selection;
  out.compressed = options.compressed;
  for (const std::string& text : options.layers) {
    rig::LayerSetting layer;
    if (!parse_layer(model, clips, text, layer, error)) return false;
    out.layers.push_back(std::move(layer));
  }
  for (const std::string& text : options.pose_joints) {
    rig::FkEdit edit;
    if (!parse_pose_joint(model, text, edit, error)) return false;
    out.fk_edits.push_back(edit);
  }
  if (!learn_fk_edits(options, model, out.fk_edits, error)) return false;
  if (!options.root_motion.empty())
    out.root_motion = options.root_motion == "in-place" ? rig::RootMotionMode::InPlace
                                                        : rig::RootMotionMode::Extract;
  for (const std::string& text : options.iks) {
    rig::TwoBoneIK ik;
    if (!parse_ik(model, text, ik, error)) return false;
    out.ik.push_back(ik);
  }
  if (options.feet_on_ground) {
    if (rig::find_feet(model).empty())
      return error =
                 "--feet-on-ground: no left and right foot joints (named like LeftFoot, "
                 "foot_l)",
             false;
    out.feet_on_ground = true;
  }
  if (!options.look_at.empty()) {
    const size_t eq = options.look_at.rfind('=');
    if (!parse_point(std::string_view(options.look_at).substr(eq + 1), out.look_at.aim.target))
      return error = "--look-at expects JOINT=x,y,z, got '" + options.look_at + "'", false;
    out.look_at.joint = joint_node(model, options.look_at.substr(0, eq), "--look-at", error);
    if (out.look_at.joint < 0) return false;
  }
  return rig::PoseBuilder::validate(model, clips, out, error);
}

int pose_from_options(const Options& options, const rig::Model& model, PosedCharacter& out,
                      std::string& error, std::shared_ptr<const rig::SkinLayer> meshes) {
  // The clips the flags name and the character plays: the file's, by index or name.
  const std::shared_ptr<rig::ClipSet> clips = clip_set_from_options(options, model, error);
  if (!clips) return 1;
  if (!pose_selection_from_options(options, *clips, out.selection, error)) return 2;
  if (!pose_settings_from_options(options, model, *clips, out.selection, out.settings, error))
    return 2;
  if (!meshes)
    meshes = repaired_from_options(options, model,
                                   prepared_skin_layer(model, methods_to_draw(options), true));
  std::vector<float> dqs_amounts;
  if (!dqs_amounts_from_options(options, model, dqs_amounts, error)) return 2;
  out.character = std::make_unique<rig::Character>(model, std::move(meshes), clips);
  rig::Character& character = *out.character;
  character.set_dqs_amounts(dqs_amounts);
  character.set_pitfalls(options.pitfalls);
  out.builder = std::make_unique<rig::PoseBuilder>(character);
  if (options.compressed) {
    // The clips the pose samples: the base, the crossfade target and the layers'.
    std::vector<int> used;
    for (int c : {out.selection.clip, out.selection.blend_clip})
      if (c >= 0) used.push_back(c);
    for (const rig::LayerSetting& layer : out.settings.layers) used.push_back(layer.clip);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    if (!used.empty() && !compress_clips(model, options.tolerance_cm, used, out.compressed, error))
      return 1;
    std::vector<const rig::ClipSource*> sources(clips->size(), nullptr);
    for (size_t c = 0; c < out.compressed.size() && c < sources.size(); ++c)
      if (out.compressed[c]) sources[c] = &out.compressed[c]->clip;
    out.builder->set_compressed_sources(std::move(sources));
  }
  out.pose();
  return 0;
}

bool write_pose_json(const std::string& path, const rig::Character& character, std::string& error) {
  const rig::Model& model = character.model();
  auto floats = [](const float* v, int n) {
    std::string s = "[";
    for (int i = 0; i < n; ++i) s += (i ? "," : "") + json_number(v[i]);
    return s + "]";
  };
  std::string j = "{\"nodes\":[";
  for (size_t n = 0; n < model.nodes.size(); ++n) {
    const rig::Transform& t = character.pose().local[n];
    const float rotation[4] = {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w};
    j += std::string(n ? "," : "") + "{\"name\":" + json_string(model.nodes[n].name) +
         ",\"translation\":" + floats(glm::value_ptr(t.translation), 3) +
         ",\"rotation\":" + floats(rotation, 4) +
         ",\"scale\":" + floats(glm::value_ptr(t.scale), 3) +
         ",\"world\":" + floats(glm::value_ptr(character.world()[n]), 16) + "}";
  }
  j += "],\"skins\":[";
  for (size_t s = 0; s < model.skins.size(); ++s) {
    j += std::string(s ? "," : "") + "{\"name\":" + json_string(model.skins[s].name) +
         ",\"joints\":[";
    for (size_t k = 0; k < model.skins[s].joints.size(); ++k)
      j += (k ? "," : "") + std::to_string(model.skins[s].joints[k]);
    j += "],\"skinning_matrices\":[";
    const std::span<const glm::mat4> m = character.skinning_matrices(int(s));
    for (size_t k = 0; k < m.size(); ++k) j += (k ? "," : "") + floats(glm::value_ptr(m[k]), 16);
    j += "]}";
  }
  j += "]}\n";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  const bool ok = f && std::fwrite(j.data(), 1, j.size(), f) == j.size();
  if ((f && std::fclose(f) != 0) || !ok) {
    error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace rigview
