#include "anim/material_blend.h"

#include <algorithm>

namespace rig {

namespace {

// Calls f(out.x, in.x...) for every blendable value x of a material: the one list of the
// values, so a new animatable property is added here once and every blend takes it.
template <class F, class... In>
void each_value(F&& f, MaterialFactors& out, const In&... in) {
  f(out.base_color, in.base_color...);
  f(out.metallic, in.metallic...);
  f(out.roughness, in.roughness...);
  f(out.emissive, in.emissive...);
  f(out.emissive_strength, in.emissive_strength...);
  f(out.alpha_cutoff, in.alpha_cutoff...);
  f(out.normal_scale, in.normal_scale...);
  f(out.occlusion_strength, in.occlusion_strength...);
  f(out.ior, in.ior...);
  f(out.specular, in.specular...);
  f(out.specular_color, in.specular_color...);
  for (size_t s = 0; s < kTextureSlotCount; ++s) {
    f(out.transforms[s].offset, in.transforms[s].offset...);
    f(out.transforms[s].rotation, in.transforms[s].rotation...);
    f(out.transforms[s].scale, in.transforms[s].scale...);
  }
}

// BlendLayer's rule: [0, 1], NaN → 0.
float clamp_weight(float w) { return !(w > 0.0f) ? 0.0f : std::min(w, 1.0f); }

bool same_shape(const MaterialPose& a, const MaterialPose& b) {
  return a.values.size() == b.values.size() && a.animated.size() == b.animated.size() &&
         a.values.size() == a.animated.size();
}

// max(x, lo) and min(., hi) written so that NaN gives lo.
float at_least(float x, float lo) { return x > lo ? x : lo; }
float within(float x, float lo, float hi) { return x > lo ? std::min(x, hi) : lo; }

template <int N>
glm::vec<N, float> at_least(const glm::vec<N, float>& v, float lo) {
  glm::vec<N, float> r;
  for (int c = 0; c < N; ++c) r[c] = at_least(v[c], lo);
  return r;
}

template <int N>
glm::vec<N, float> within(const glm::vec<N, float>& v, float lo, float hi) {
  glm::vec<N, float> r;
  for (int c = 0; c < N; ++c) r[c] = within(v[c], lo, hi);
  return r;
}

}  // namespace

void blend_material_poses(const MaterialPose& a, const MaterialPose& b, float weight,
                          MaterialPose& out) {
  if (!same_shape(a, out) || !same_shape(b, out)) return;
  const float w = clamp_weight(weight);
  for (size_t m = 0; m < out.values.size(); ++m) {
    if (!out.animated[m]) continue;
    each_value([w](auto& o, const auto& x, const auto& y) { o = x + (y - x) * w; }, out.values[m],
               a.values[m], b.values[m]);
  }
}

void add_material_difference(const MaterialPose& base, const MaterialPose& value,
                             const MaterialPose& reference, float weight, MaterialPose& out) {
  if (!same_shape(base, out) || !same_shape(value, out) || !same_shape(reference, out)) return;
  const float w = clamp_weight(weight);
  for (size_t m = 0; m < out.values.size(); ++m) {
    if (!out.animated[m]) continue;
    each_value([w](auto& o, const auto& x, const auto& v, const auto& r) { o = x + (v - r) * w; },
               out.values[m], base.values[m], value.values[m], reference.values[m]);
  }
}

void clamp_material_factors(MaterialFactors& f) {
  f.base_color = within(f.base_color, 0.0f, 1.0f);
  f.metallic = within(f.metallic, 0.0f, 1.0f);
  f.roughness = within(f.roughness, 0.0f, 1.0f);
  f.occlusion_strength = within(f.occlusion_strength, 0.0f, 1.0f);
  f.emissive = at_least(f.emissive, 0.0f);
  f.emissive_strength = at_least(f.emissive_strength, 0.0f);
  f.alpha_cutoff = at_least(f.alpha_cutoff, 0.0f);
  f.specular = at_least(f.specular, 0.0f);
  f.specular_color = at_least(f.specular_color, 0.0f);
  f.ior = at_least(f.ior, 1.0f);
}

void clamp_material_pose(MaterialPose& pose) {
  if (!pose.any_animated || pose.values.size() != pose.animated.size()) return;
  for (size_t m = 0; m < pose.values.size(); ++m)
    if (pose.animated[m]) clamp_material_factors(pose.values[m]);
}

void copy_material_pose(const MaterialPose& from, MaterialPose& to) {
  if (!same_shape(from, to)) return;
  for (size_t m = 0; m < to.values.size(); ++m)
    if (to.animated[m]) to.values[m] = from.values[m];
}

}  // namespace rig
