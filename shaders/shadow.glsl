// The key light's shadow: key_light_visibility() is 1 where the key light reaches a surface
// point and 0 where a caster hides it, filtered between (render/shadow_map.h). Shadings call it
// once and scale the key light's terms (diffuse and specular) by it; ambient stays.
//
// The map holds depth from the light's orthographic view, fitted each frame to the casters'
// bounds. Acne is kept off by a slope-scaled polygon offset in the depth pass and here by
// offsetting the looked-up point along its normal, further the more the surface grazes the light.

uniform bool u_shadow_enabled;
uniform mat4 u_shadow_matrix;         // world → (s, t, depth) in [0, 1] of the map
uniform sampler2DShadow u_shadow_map; // compare mode on, linear filter: 2 × 2 PCF per tap
uniform float u_shadow_texel;         // 1 / map size
uniform float u_shadow_normal_offset; // world size of one map texel
uniform vec3 u_shadow_direction;      // unit, from the surface towards the key light

float key_light_visibility(vec3 world_position, vec3 normal) {
  if (!u_shadow_enabled) return 1.0;
  float n_dot_l = dot(normal, u_shadow_direction);
  // A surface turned away from the light is unlit by the key anyway: no lookup.
  if (n_dot_l <= 0.0) return 1.0;
  float slope = sqrt(max(1.0 - n_dot_l * n_dot_l, 0.0));
  vec3 p = world_position + normal * (u_shadow_normal_offset * (0.5 + 1.5 * slope));
  vec4 s = u_shadow_matrix * vec4(p, 1.0);
  // Outside the map's square nothing casts (the frustum holds every caster): lit.
  if (s.x <= 0.0 || s.x >= 1.0 || s.y <= 0.0 || s.y >= 1.0) return 1.0;
  float depth = min(s.z, 1.0);
  // 2 × 2 taps half a texel either side of the point, each a bilinear 2 × 2 comparison: a tent
  // over 3 × 3 texels, soft over about two texels, for four lookups.
  float lit = 0.0;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 2; ++x)
      lit += texture(u_shadow_map, vec3(s.xy + (vec2(x, y) - 0.5) * u_shadow_texel, depth));
  return 0.25 * lit;
}
