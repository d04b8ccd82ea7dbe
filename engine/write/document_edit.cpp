#include "write/document_edit.h"

#include <algorithm>
#include <cstring>

#include "model/model.h"

namespace rig::write {

AccessorData float_accessor(std::span<const float> values, int type, bool bounds) {
  const size_t components = type == kScalar ? 1 : type == kMat4 ? 16 : size_t(type);
  AccessorData a;
  a.component_type = kFloat;
  a.type = type;
  a.count = values.size() / components;
  a.bytes.resize(a.count * components * sizeof(float));
  if (!a.bytes.empty()) std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
  if (bounds && a.count > 0) {
    a.min_values.assign(values.begin(), values.begin() + std::ptrdiff_t(components));
    a.max_values = a.min_values;
    for (size_t i = components; i < a.count * components; ++i) {
      a.min_values[i % components] = std::min(a.min_values[i % components], double(values[i]));
      a.max_values[i % components] = std::max(a.max_values[i % components], double(values[i]));
    }
  }
  return a;
}

AccessorData key_times(std::span<const float> times) {
  return float_accessor(times, kScalar, true);
}

ClipData clip_data(const Clip& clip) {
  static const char* const kInterpolation[] = {"STEP", "LINEAR", "CUBICSPLINE"};
  static const char* const kPath[] = {"translation", "rotation", "scale", "weights"};
  ClipData out;
  out.name = clip.name;
  for (const Channel& ch : clip.channels) {
    ClipSampler sampler;
    sampler.interpolation = kInterpolation[size_t(ch.interpolation)];
    sampler.input = key_times(ch.times);
    const int type = ch.path == TargetPath::Weights    ? kScalar
                     : ch.path == TargetPath::Rotation ? kVec4
                                                       : kVec3;
    sampler.output = float_accessor(ch.values, type, false);
    out.channels.push_back({int(out.samplers.size()), ch.node, kPath[size_t(ch.path)]});
    out.samplers.push_back(std::move(sampler));
  }
  return out;
}

}  // namespace rig::write
