// Animations → clips. Each channel keeps its own key times and values in the file's layout
// (CUBICSPLINE: in-tangent, value, out-tangent per key); everything the samplers rely on
// (finite, strictly increasing times, matching value counts, unit rotations) is checked here.
#include <cmath>
#include <limits>
#include <set>

#include "import/import_context.h"

namespace rig::import {
namespace {

// Output formats per path: glTF 2.0 "Animations" table, widened by KHR_mesh_quantization
// for translation and scale.
constexpr unsigned kVectorFormats =
    kFloat | kByte | kByteNorm | kUByte | kUByteNorm | kShort | kShortNorm | kUShort | kUShortNorm;
constexpr unsigned kNormalizedFormats = kFloat | kByteNorm | kUByteNorm | kShortNorm | kUShortNorm;
constexpr float kRotationTolerance = 1e-3f;

bool parse_path(const std::string& path, TargetPath& out) {
  if (path == "translation")
    out = TargetPath::Translation;
  else if (path == "rotation")
    out = TargetPath::Rotation;
  else if (path == "scale")
    out = TargetPath::Scale;
  else if (path == "weights")
    out = TargetPath::Weights;
  else
    return false;
  return true;
}

bool parse_interpolation(const std::string& name, Interpolation& out) {
  if (name == "LINEAR")
    out = Interpolation::Linear;
  else if (name == "STEP")
    out = Interpolation::Step;
  else if (name == "CUBICSPLINE")
    out = Interpolation::CubicSpline;
  else
    return false;
  return true;
}

bool read_key_times(ImportContext& context, int accessor, const std::string& at,
                    std::vector<float>& times, std::string& error) {
  if (!context.reader.read_floats(accessor, ElementType::Scalar, kFloat, times, error)) {
    error = at + " input: " + error;
    return false;
  }
  if (times.empty()) {
    error = at + " has no keys";
    return false;
  }
  if (times.size() > context.limits.max_channel_keys) {
    error = at + " has " + std::to_string(times.size()) + " keys, too many (limit " +
            std::to_string(context.limits.max_channel_keys) + " per channel)";
    return false;
  }
  context.total_keys += times.size();
  if (context.total_keys > context.limits.max_total_keys) {
    error = at + " brings the model to " + std::to_string(context.total_keys) +
            " keys, too many (limit " + std::to_string(context.limits.max_total_keys) +
            " per model)";
    return false;
  }
  for (size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k])) {
      error = at + ": key time " + std::to_string(k) + " is not finite";
      return false;
    }
    if (k > 0 && !(times[k] > times[k - 1])) {
      error = at + ": key times not increasing at key " + std::to_string(k) + " (" +
              number_text(times[k]) + " after " + number_text(times[k - 1]) + ")";
      return false;
    }
  }
  return true;
}

// Normalizes the rotation keys (only the value elements for CUBICSPLINE: tangents are not
// rotations). Returns how many keys were not unit length.
uint64_t normalize_rotations(Channel& channel) {
  // Every key value is normalized (slerp and the sampled pose assume unit quaternions); only
  // keys off by more than the tolerance count as repairs worth a warning. CUBICSPLINE tangents
  // are derivatives, not rotations, and stay as they are.
  const size_t stride = channel.interpolation == Interpolation::CubicSpline ? 3 : 1;
  const size_t first = channel.interpolation == Interpolation::CubicSpline ? 1 : 0;
  uint64_t repaired = 0;
  for (size_t element = first; element * 4 + 3 < channel.values.size(); element += stride) {
    float* q = channel.values.data() + element * 4;
    const double length = std::sqrt(double(q[0]) * q[0] + double(q[1]) * q[1] +
                                    double(q[2]) * q[2] + double(q[3]) * q[3]);
    if (std::abs(length - 1.0) > kRotationTolerance) ++repaired;
    if (length > 0.0) {
      for (int c = 0; c < 4; ++c) q[c] = static_cast<float>(q[c] / length);
    } else {
      q[0] = q[1] = q[2] = 0.0f;  // a zero quaternion is no rotation at all: use identity
      q[3] = 1.0f;
    }
  }
  return repaired;
}

}  // namespace

bool read_channel_keys(ImportContext& context, const tinygltf::Animation& source, size_t animation,
                       int sampler_index, ElementType type, unsigned formats, bool scalar_elements,
                       Channel& channel, std::string& mode, std::string& error) {
  const std::string at = "animation " + std::to_string(animation);
  if (sampler_index < 0 || static_cast<size_t>(sampler_index) >= source.samplers.size()) {
    error = at + " uses sampler " + std::to_string(sampler_index) +
            does_not_exist(source.samplers.size(), "", "the animation");
    return false;
  }
  const tinygltf::AnimationSampler& sampler = source.samplers[static_cast<size_t>(sampler_index)];
  const std::string sampler_at =
      "animation " + std::to_string(animation) + " sampler " + std::to_string(sampler_index);
  if (!parse_interpolation(sampler.interpolation, channel.interpolation)) {
    error = sampler_at + " has interpolation '" + sampler.interpolation +
            "' (glTF allows LINEAR, STEP, CUBICSPLINE)";
    return false;
  }
  if (!read_key_times(context, sampler.input, sampler_at, channel.times, error)) return false;

  if (!context.reader.read_floats(sampler.output, type, formats, channel.values, error)) {
    error = sampler_at + " output: " + error;
    return false;
  }
  const uint64_t per_key = channel.interpolation == Interpolation::CubicSpline ? 3 : 1;
  const uint64_t expected = channel.times.size() * per_key * channel.components;
  if (channel.values.size() != expected) {
    const uint64_t per_element = scalar_elements ? 1 : channel.components;
    error = sampler_at + ": output has " + std::to_string(channel.values.size() / per_element) +
            " elements, expected " + std::to_string(expected / per_element) + " (" +
            std::to_string(channel.times.size()) + " keys" +
            (per_key == 3 ? " x 3 for CUBICSPLINE" : "") +
            (scalar_elements ? " x " + std::to_string(channel.components) + " morph targets"
                             : std::string()) +
            ")";
    return false;
  }
  for (size_t v = 0; v < channel.values.size(); ++v) {
    if (!std::isfinite(channel.values[v])) {
      error = sampler_at + ": output value " + std::to_string(v) + " is not finite";
      return false;
    }
  }
  mode = sampler.interpolation;
  return true;
}

bool import_animations(ImportContext& context, std::string& error) {
  const auto& animations = context.document.animations;
  Model& model = context.model;
  model.clips.resize(animations.size());
  uint64_t rotations_repaired = 0;
  std::string first_rotation_repair;
  std::vector<bool> node_animated(model.nodes.size(), false);  // matrix nodes already reported
  for (size_t a = 0; a < animations.size(); ++a) {
    const tinygltf::Animation& source = animations[a];
    Clip& clip = model.clips[a];
    clip.name = source.name;
    const std::string animation = "animation " + std::to_string(a);
    std::set<std::string> modes;  // sorted: reports list them in a stable order
    float start = std::numeric_limits<float>::infinity();
    float end = -std::numeric_limits<float>::infinity();
    // The node channels: the core ones, then the KHR_animation_pointer ones that point at a
    // node's TRS or weights (the material ones go straight into the clip).
    std::vector<NodeChannelTarget> targets;
    for (size_t c = 0; c < source.channels.size(); ++c) {
      const tinygltf::AnimationChannel& channel_source = source.channels[c];
      // No target node: the spec lets extensions define the target. KHR_animation_pointer's
      // channels come from the file's JSON instead (tinygltf drops those without a node).
      if (channel_source.target_node < 0 || channel_source.target_path == "pointer") continue;
      targets.push_back({channel_source.target_node, channel_source.target_path,
                         channel_source.sampler, animation + " channel " + std::to_string(c)});
    }
    if (!import_pointer_channels(context, a, source, clip, targets, modes, start, end, error))
      return false;
    for (const NodeChannelTarget& target : targets) {
      const std::string& at = target.at;
      if (static_cast<size_t>(target.node) >= model.nodes.size()) {
        error = at + " targets node " + std::to_string(target.node) +
                does_not_exist(model.nodes.size(), " nodes");
        return false;
      }
      Channel channel;
      channel.node = target.node;
      if (!parse_path(target.path, channel.path)) {
        context.warnings.add(
            "ANIMATION_PATH_UNSUPPORTED", 1,
            at + " animates '" + target.path + "', which is not supported (channel skipped)");
        continue;
      }
      Node& node = model.nodes[static_cast<size_t>(channel.node)];
      ElementType type = ElementType::Vec3;
      unsigned formats = kVectorFormats;
      switch (channel.path) {
        case TargetPath::Translation:
        case TargetPath::Scale:
          channel.components = 3;
          break;
        case TargetPath::Rotation:
          channel.components = 4;
          type = ElementType::Vec4;
          formats = kNormalizedFormats;
          break;
        case TargetPath::Weights:
          if (node.morph_count == 0) {
            error = at + " animates the weights of node " + std::to_string(channel.node) +
                    ", which has no morph targets";
            return false;
          }
          channel.components = node.morph_count;
          type = ElementType::Scalar;
          formats = kNormalizedFormats;
          break;
      }
      std::string mode;
      if (!read_channel_keys(context, source, a, target.sampler, type, formats,
                             channel.path == TargetPath::Weights, channel, mode, error))
        return false;
      if (channel.path == TargetPath::Rotation) {
        const uint64_t repaired = normalize_rotations(channel);
        if (repaired > 0 && first_rotation_repair.empty())
          first_rotation_repair = animation + " sampler " + std::to_string(target.sampler);
        rotations_repaired += repaired;
      }
      // A matrix cannot be animated piecewise: the node is its decomposed TRS alone.
      if (channel.path != TargetPath::Weights && node.from_matrix &&
          !node_animated[size_t(channel.node)]) {
        node_animated[size_t(channel.node)] = true;
        node.has_shear = false;
        node.shear = glm::mat4(1.0f);
        context.warnings.add("MATRIX_NODE_ANIMATED", 1,
                             at + " animates node " + std::to_string(channel.node) +
                                 ", which has a matrix; its decomposed TRS is used instead");
      }
      start = std::min(start, channel.times.front());
      end = std::max(end, channel.times.back());
      modes.insert(mode);
      clip.channels.push_back(std::move(channel));
    }
    const bool empty = clip.channels.empty() && clip.material_channels.empty();
    clip.start = empty ? 0.0f : start;
    clip.end = empty ? 0.0f : end;
    clip.interpolations.assign(modes.begin(), modes.end());
  }
  context.warnings.add("ROTATION_NOT_NORMALIZED", rotations_repaired,
                       "rotation keys were not unit length and were normalized (first: " +
                           first_rotation_repair + ")");
  return true;
}

}  // namespace rig::import
