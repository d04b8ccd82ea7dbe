// The studio look (u_lighting 3, README "The look"): glTF metallic-roughness (brdf.glsl) under
// one key light (shadowed: shadow.glsl) and image-based lighting from a prefiltered environment
// (render/environment_prefilter.h), then exposure and tone mapping (tone_mapping.glsl).

uniform sampler2D u_environment;      // prefiltered specular: mip k = roughness k / max lod
uniform float u_environment_max_lod;  // levels − 1
uniform vec3 u_irradiance_sh[9];      // Â_l·L_lm: irradiance = Σ u_irradiance_sh[i]·Y_i(n)
uniform mat3 u_environment_rotation;  // world → environment (a turn about +Y)
uniform float u_environment_intensity;
uniform int u_tone_mapping;           // 0 PBR Neutral, 1 ACES, 2 none
uniform float u_exposure;             // EV

// The real SH basis of render/environment_prefilter.h (sh_basis), dotted with the coefficients.
vec3 environment_irradiance(vec3 d) {
  vec3 e = u_irradiance_sh[0] * 0.282095;
  e += u_irradiance_sh[1] * (0.488603 * d.y) + u_irradiance_sh[2] * (0.488603 * d.z) +
       u_irradiance_sh[3] * (0.488603 * d.x);
  e += u_irradiance_sh[4] * (1.092548 * d.x * d.y) + u_irradiance_sh[5] * (1.092548 * d.y * d.z) +
       u_irradiance_sh[6] * (0.315392 * (3.0 * d.z * d.z - 1.0)) +
       u_irradiance_sh[7] * (1.092548 * d.x * d.z) +
       u_irradiance_sh[8] * (0.546274 * (d.x * d.x - d.y * d.y));
  return max(e, 0.0);
}

// Equirectangular coordinates of render/environment_map.h.
vec2 environment_uv(vec3 d) {
  return vec2(0.5 + atan(d.x, -d.z) / (2.0 * PI), acos(clamp(d.y, -1.0, 1.0)) / PI);
}

// The studio's key light, its whole contribution (specular + diffuse) in this one place, hidden
// where a caster shadows the point (shadow.glsl).
vec3 studio_key_light(Surface s, vec3 world_position) {
  return direct_light(s, u_light_direction, u_light_intensity) *
         key_light_visibility(world_position, s.n);
}

// Split-sum image-based lighting: diffuse irradiance × (1 − E_dielectric)·diffuse colour / π and
// the prefiltered specular × E, with E = F0·A + F90·B from the DFG table; `occlusion` (the
// material's) darkens this indirect light only.
vec3 studio_environment_light(Surface s, vec2 dfg, float occlusion) {
  vec3 specular_albedo = s.f0 * dfg.x + s.f90 * dfg.y;
  vec3 dielectric_albedo = s.dielectric_f0 * dfg.x + s.f90 * dfg.y;
  vec3 irradiance = environment_irradiance(u_environment_rotation * s.n);
  vec3 r = u_environment_rotation * reflect(-s.v, s.n);
  vec3 prefiltered =
      textureLod(u_environment, environment_uv(r), s.roughness * u_environment_max_lod).rgb;
  vec3 diffuse = irradiance * s.diffuse_color / PI * (1.0 - dielectric_albedo);
  return (diffuse + prefiltered * specular_albedo) * (u_environment_intensity * occlusion);
}

vec3 studio_light(Surface s, vec2 dfg, float occlusion, vec3 world_position) {
  return studio_key_light(s, world_position) + studio_environment_light(s, dfg, occlusion);
}
