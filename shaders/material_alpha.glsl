// The glTF material's base colour and alpha, read one way wherever they decide what is drawn:
// the glTF shading (mesh.frag.glsl's shade_reference) and the key light's alpha-tested depth
// pass (depth_alpha.frag.glsl), so a shadow is cut where the drawn surface is cut.
//
// base colour = factor × texture (its TEXCOORD set, KHR_texture_transform and the glTF sampler
// bound on its unit) × COLOR_0; a fragment whose alpha is below the cutoff is cut. The factor,
// the transforms and the cutoff are read from g_material (material_values.glsl, which comes
// first), which the stage's main() fills: material_alpha_values() puts this file's uniforms in.

in vec2 v_texcoord;
in vec2 v_texcoord1; // TEXCOORD_1 ((0, 0) without)
in vec4 v_color;     // COLOR_0, (1, 1, 1, 1) without

uniform vec4 u_base_color_factor;
uniform sampler2D u_base_color_texture; // sRGB texture: sampling returns linear values
uniform bool u_has_texture;
// Per texture slot (0 base colour, 1 metallic-roughness, 2 occlusion, 3 emissive, 4 normal,
// 5 specular, 6 specular colour: rig::TextureSlot): its TEXCOORD set (0 or 1) and
// KHR_texture_transform matrix (identity without one).
uniform int u_uv_sets[7];
uniform mat3 u_uv_transforms[7];
uniform float u_alpha_cutoff;

vec2 slot_uv(int slot) {
  vec2 uv = u_uv_sets[slot] == 1 ? v_texcoord1 : v_texcoord;
  return (g_material.uv_transforms[slot] * vec3(uv, 1.0)).xy;
}

vec4 material_base_color() {
  vec4 base = g_material.base_color_factor;
  if (u_has_texture) base *= texture(u_base_color_texture, slot_uv(0));
  return base * v_color;
}

// glTF's MASK: alpha at or above the cutoff is drawn opaque, below it nothing.
bool alpha_cut(float alpha) { return alpha < g_material.alpha_cutoff; }

// This file's part of the material values: the base colour factor, transforms and cutoff.
void material_alpha_values(inout MaterialValues m) {
  m.base_color_factor = u_base_color_factor;
  m.uv_transforms = u_uv_transforms;
  m.alpha_cutoff = u_alpha_cutoff;
}
