// KHR_animation_pointer channels → clip data. A pointer is a JSON pointer into the document
// (RFC 6901); the targets rigview draws are listed in the tables below, everything else is
// skipped with a warning naming the pointer. Cameras and KHR_lights_punctual lights are among
// those: rigview draws neither the file's cameras nor its lights.
#include <algorithm>
#include <string_view>

#include "import/import_context.h"

namespace rig::import {
namespace {

// Material properties, as the pointer's tail after /materials/M/.
struct MaterialTarget {
  std::string_view tail;
  MaterialProperty property;
  uint32_t components;
};
constexpr MaterialTarget kMaterialTargets[] = {
    {"pbrMetallicRoughness/baseColorFactor", MaterialProperty::BaseColorFactor, 4},
    {"pbrMetallicRoughness/metallicFactor", MaterialProperty::MetallicFactor, 1},
    {"pbrMetallicRoughness/roughnessFactor", MaterialProperty::RoughnessFactor, 1},
    {"emissiveFactor", MaterialProperty::EmissiveFactor, 3},
    {"alphaCutoff", MaterialProperty::AlphaCutoff, 1},
    {"normalTexture/scale", MaterialProperty::NormalScale, 1},
    {"occlusionTexture/strength", MaterialProperty::OcclusionStrength, 1},
    {"extensions/KHR_materials_emissive_strength/emissiveStrength",
     MaterialProperty::EmissiveStrength, 1},
    {"extensions/KHR_materials_ior/ior", MaterialProperty::Ior, 1},
    {"extensions/KHR_materials_specular/specularFactor", MaterialProperty::SpecularFactor, 1},
    {"extensions/KHR_materials_specular/specularColorFactor", MaterialProperty::SpecularColorFactor,
     3},
};

// Texture slots (textureInfo paths) whose KHR_texture_transform can be animated.
struct SlotPath {
  std::string_view path;
  TextureSlot slot;
};
constexpr SlotPath kSlotPaths[] = {
    {"pbrMetallicRoughness/baseColorTexture", TextureSlot::BaseColor},
    {"pbrMetallicRoughness/metallicRoughnessTexture", TextureSlot::MetallicRoughness},
    {"occlusionTexture", TextureSlot::Occlusion},
    {"emissiveTexture", TextureSlot::Emissive},
    {"normalTexture", TextureSlot::Normal},
    {"extensions/KHR_materials_specular/specularTexture", TextureSlot::Specular},
    {"extensions/KHR_materials_specular/specularColorTexture", TextureSlot::SpecularColor},
};
constexpr std::string_view kTransformInfix = "/extensions/KHR_texture_transform/";
constexpr MaterialTarget kTransformTargets[] = {
    {"offset", MaterialProperty::TextureOffset, 2},
    {"rotation", MaterialProperty::TextureRotation, 1},
    {"scale", MaterialProperty::TextureScale, 2},
};

// Node properties, as the pointer's tail after /nodes/N/ (the core channel paths).
constexpr std::string_view kNodeTails[] = {"translation", "rotation", "scale", "weights"};

ElementType element_type(uint32_t components) {
  switch (components) {
    case 1:
      return ElementType::Scalar;
    case 2:
      return ElementType::Vec2;
    case 3:
      return ElementType::Vec3;
    default:
      return ElementType::Vec4;
  }
}

// "/collection/index/tail" → its parts; false when the pointer does not have that shape or the
// index is not a plain non-negative integer (RFC 6901: no sign, no leading zero).
bool split_pointer(std::string_view pointer, std::string_view& collection, size_t& index,
                   std::string_view& tail) {
  if (pointer.size() < 2 || pointer[0] != '/') return false;
  const size_t second = pointer.find('/', 1);
  if (second == std::string_view::npos) return false;
  collection = pointer.substr(1, second - 1);
  const size_t third = pointer.find('/', second + 1);
  if (third == std::string_view::npos) return false;
  const std::string_view digits = pointer.substr(second + 1, third - second - 1);
  if (digits.empty() || digits.size() > 9 || (digits.size() > 1 && digits[0] == '0')) return false;
  index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return false;
    index = index * 10 + size_t(c - '0');
  }
  tail = pointer.substr(third + 1);
  return true;
}

// Looks `tail` up in the material tables; false when it names nothing rigview animates.
bool material_target(std::string_view tail, MaterialChannel& channel) {
  for (const MaterialTarget& t : kMaterialTargets) {
    if (tail == t.tail) {
      channel.property = t.property;
      channel.keys.components = t.components;
      return true;
    }
  }
  for (const SlotPath& s : kSlotPaths) {
    if (tail.substr(0, s.path.size()) != s.path) continue;
    const std::string_view rest = tail.substr(s.path.size());
    if (rest.substr(0, kTransformInfix.size()) != kTransformInfix) continue;
    const std::string_view name = rest.substr(kTransformInfix.size());
    for (const MaterialTarget& t : kTransformTargets) {
      if (name == t.tail) {
        channel.property = t.property;
        channel.slot = s.slot;
        channel.keys.components = t.components;
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool import_pointer_channels(ImportContext& context, size_t animation,
                             const tinygltf::Animation& source, Clip& clip,
                             std::vector<NodeChannelTarget>& node_targets,
                             std::set<std::string>& modes, float& start, float& end,
                             std::string& error) {
  if (!context.pointer_channels) return true;
  const Model& model = context.model;
  for (const PointerChannelSource& p : *context.pointer_channels) {
    if (p.animation != animation) continue;
    const std::string at =
        "animation " + std::to_string(animation) + " channel " + std::to_string(p.channel);
    // Warnings start with the pointer, so each distinct pointer gets one line (its count
    // says how many channels use it) whichever channel came first.
    const std::string subject = "pointer '" + p.pointer + "'";
    auto unsupported = [&]() {
      context.warnings.add_distinct(
          "ANIMATION_POINTER_UNSUPPORTED", subject, 1,
          subject + " is not something rigview draws (first: " + at + "; channel skipped)");
    };
    std::string_view collection, tail;
    size_t index = 0;
    if (!split_pointer(p.pointer, collection, index, tail)) {
      unsupported();
      continue;
    }
    auto invalid = [&](size_t count, const char* noun) {
      context.warnings.add_distinct(
          "ANIMATION_POINTER_INVALID", subject, 1,
          subject + " names " + std::string(noun) + " " + std::to_string(index) +
              ", which does not exist (the file has " + std::to_string(count) + "; first: " + at +
              "; channel skipped)");
    };
    if (collection == "nodes" &&
        std::find(std::begin(kNodeTails), std::end(kNodeTails), tail) != std::end(kNodeTails)) {
      if (index >= model.nodes.size()) {
        invalid(model.nodes.size(), "node");
        continue;
      }
      node_targets.push_back({int(index), std::string(tail), p.sampler, at + " (" + subject + ")"});
      continue;
    }
    if (collection == "meshes" && tail == "weights") {
      if (index >= model.meshes.size()) {
        invalid(model.meshes.size(), "mesh");
        continue;
      }
      // mesh.weights are the default of every node showing the mesh.
      for (size_t n = 0; n < model.nodes.size(); ++n)
        if (model.nodes[n].mesh == int(index))
          node_targets.push_back({int(n), "weights", p.sampler, at + " (" + subject + ")"});
      continue;
    }
    MaterialChannel channel;
    if (collection != "materials" || !material_target(tail, channel)) {
      unsupported();
      continue;
    }
    if (index >= context.document.materials.size()) {
      invalid(context.document.materials.size(), "material");
      continue;
    }
    channel.material = int(index);
    channel.pointer = p.pointer;
    std::string mode;
    const unsigned formats = kFloat | kByteNorm | kUByteNorm | kShortNorm | kUShortNorm;
    if (!read_channel_keys(context, source, animation, p.sampler,
                           element_type(channel.keys.components), formats, false, channel.keys,
                           mode, error)) {
      error = at + " (" + subject + "): " + error;
      return false;
    }
    start = std::min(start, channel.keys.times.front());
    end = std::max(end, channel.keys.times.back());
    modes.insert(mode);
    clip.material_channels.push_back(std::move(channel));
  }
  return true;
}

}  // namespace rig::import
