// The material values the mesh shading and the alpha cut read (g_material, filled at the start
// of the stage's main(): mesh.frag.glsl material_values() from the uniforms; the alpha-tested
// depth pass only the base colour's part, material_alpha.glsl). Under CROWD, a material the
// crowd's clips animate reads this instance's rows of the crowd's material buffer instead
// (rig::Crowd::material_rows, laid out in engine/character/crowd_materials.h, whose row indices
// arrive as the generated CROWD_MATERIAL_* #defines).

struct MaterialValues {
  vec4 base_color_factor;
  float metallic;
  float roughness;
  vec3 emissive; // factor × KHR_materials_emissive_strength
  float alpha_cutoff;
  vec2 normal_scale; // (scale, scale)
  float occlusion_strength;
  float ior;
  float specular;
  vec3 specular_color;
  mat3 uv_transforms[7]; // per texture slot (rig::TextureSlot order)
};

MaterialValues g_material;

#ifdef CROWD
flat in int v_instance; // gl_InstanceID, from the vertex stage
uniform samplerBuffer u_material_tbo;
uniform int u_material_stride; // rows per instance (Crowd::material_rows_per_instance)
uniform int u_material_base;   // first row of this item's material; -1: not animated

// KHR_texture_transform's T·R·S (render/materials.cpp texture_transform_matrix), column-major.
mat3 crowd_uv_transform(vec2 offset, float rotation, vec2 scale) {
  float c = cos(rotation), s = sin(rotation);
  return mat3(c * scale.x, -s * scale.x, 0.0, s * scale.y, c * scale.y, 0.0, offset.x, offset.y,
              1.0);
}

void crowd_material_values(inout MaterialValues m) {
  if (u_material_base < 0) return;
  int row = v_instance * u_material_stride + u_material_base;
  m.base_color_factor = texelFetch(u_material_tbo, row + CROWD_MATERIAL_BASE_COLOR);
  vec4 emissive_metallic = texelFetch(u_material_tbo, row + CROWD_MATERIAL_EMISSIVE_METALLIC);
  vec4 specular_roughness = texelFetch(u_material_tbo, row + CROWD_MATERIAL_SPECULAR_ROUGHNESS);
  vec4 scalars = texelFetch(u_material_tbo, row + CROWD_MATERIAL_SCALARS);
  vec4 r0 = texelFetch(u_material_tbo, row + CROWD_MATERIAL_ROTATIONS);
  vec4 r1 = texelFetch(u_material_tbo, row + CROWD_MATERIAL_ROTATIONS + 1);
  m.emissive = emissive_metallic.rgb;
  m.metallic = emissive_metallic.a;
  m.specular_color = specular_roughness.rgb;
  m.roughness = specular_roughness.a;
  m.alpha_cutoff = scalars.x;
  m.normal_scale = vec2(scalars.y);
  m.occlusion_strength = scalars.z;
  m.ior = scalars.w;
  m.specular = r0.x;
  float rotations[7] = float[7](r0.y, r0.z, r0.w, r1.x, r1.y, r1.z, r1.w);
  for (int s = 0; s < 7; ++s) {
    vec4 t = texelFetch(u_material_tbo, row + CROWD_MATERIAL_TRANSFORMS + s);
    m.uv_transforms[s] = crowd_uv_transform(t.xy, rotations[s], t.zw);
  }
}
#endif
