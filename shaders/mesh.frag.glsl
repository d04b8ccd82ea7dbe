// Mesh fragment shader, after material_values.glsl (what the shading reads of the material, a
// crowd instance's own values when animated), material_alpha.glsl (the base colour's inputs),
// shadow.glsl, brdf.glsl, tone_mapping.glsl and look.frag.glsl. The classic look: base colour (factor x sRGB
// texture), a key light (shadowed: shadow.glsl) plus hemispheric ambient, gamma-encoded output;
// or glTF shading (shade_reference): the reference scene's (u_lighting 1 or 2) or the studio
// look's (3, look.frag.glsl). u_flat_color draws the wireframe overlay in one colour;
// u_field_view swaps the base colour for a scalar field's colour (analysis/color_map.h; the
// lighting stays).

in vec3 v_world_position;
in vec3 v_world_normal;
in vec2 v_field; // (value, defined) of the scalar field, see mesh.vert
in vec4 v_world_tangent;   // TANGENT in world space (unit xyz, w handedness); zero without
in vec3 v_world_bitangent; // normalize(cross(N, T)) * w per vertex; zero without

uniform vec3 u_eye;
uniform vec3 u_key_direction; // unit, from the surface towards the light
uniform bool u_flat;
uniform vec4 u_flat_color;
// Scalar-field view (analysis/color_map.h), set per draw item: false draws the base colour.
uniform bool u_field_view;
uniform int u_color_map;           // 0 heat, 1 categorical, 2 diverging (analysis::ColorMap)
uniform vec2 u_field_range;        // (min, max)
uniform vec3 u_heat_stops[5];      // heat map at 0, 1/4, 1/2, 3/4, 1 of the range
uniform vec3 u_zero_color;         // heat map at or below the minimum
uniform vec3 u_category_colors[9]; // categorical, by whole value 0..8
uniform vec3 u_diverging_stops[3]; // min, middle, max
uniform vec3 u_undefined_color;    // undefined values

out vec4 frag_color;

// The reference scene's shading (u_lighting 1: its lights; 2: no lights), glTF metallic-
// roughness as three.js r18x's MeshStandardMaterial computes it (README "Reference scene
// renders"): GGX with height-correlated Smith visibility and Schlick's Fresnel (three's
// spherical-Gaussian form) times the multiple-scattering compensation for the direct
// specular, Lambert times (1 − F) for the direct diffuse, and the ambient light on the diffuse
// only, less what the specular lobe reflects (the DFG table), times the occlusion.
uniform int u_lighting; // 0 the classic look (above), 1 reference lights, 2 none, 3 studio
uniform float u_ambient;             // uniform irradiance, diffuse only
uniform mat3 u_view_rotation;        // world → view, for the normal's screen derivatives
uniform sampler2D u_dfg;             // (A, B) by (roughness, N·V): render/dfg_lut.h
uniform float u_metallic_factor;
uniform float u_roughness_factor;
uniform bool u_has_metallic_roughness;
uniform sampler2D u_metallic_roughness_texture; // linear: G roughness, B metalness
uniform bool u_has_occlusion;
uniform sampler2D u_occlusion_texture;          // linear: R
uniform float u_occlusion_strength;
uniform vec3 u_emissive;                        // emissive factor × KHR_materials_emissive_strength
uniform bool u_has_emissive;
uniform sampler2D u_emissive_texture;           // sRGB texture: sampling returns linear values
uniform bool u_has_normal;
uniform sampler2D u_normal_texture;             // linear tangent-space normal
uniform vec2 u_normal_scale;                    // (scale, scale): the material's normal scale
uniform bool u_unlit;                           // KHR_materials_unlit
uniform int u_alpha_mode;                       // 0 OPAQUE, 1 MASK, 2 BLEND
uniform bool u_flat_normals; // the primitive has no NORMAL: shade with the face normal
uniform float u_ior;                            // KHR_materials_ior (1.5 without)
uniform float u_specular_factor;                // KHR_materials_specular (1 without)
uniform vec3 u_specular_color_factor;           // KHR_materials_specular (white without)
uniform bool u_has_specular;
uniform sampler2D u_specular_texture;           // linear: A scales the specular factor
uniform bool u_has_specular_color;
uniform sampler2D u_specular_color_texture;     // sRGB texture: sampling returns linear values

// Fills g_material (material_values.glsl): the uniforms, then under CROWD an animated
// material's values of this instance.
MaterialValues material_values() {
  MaterialValues m;
  material_alpha_values(m);
  m.metallic = u_metallic_factor;
  m.roughness = u_roughness_factor;
  m.emissive = u_emissive;
  m.normal_scale = u_normal_scale;
  m.occlusion_strength = u_occlusion_strength;
  m.ior = u_ior;
  m.specular = u_specular_factor;
  m.specular_color = u_specular_color_factor;
#ifdef CROWD
  crowd_material_values(m);
#endif
  return m;
}

float srgb_encode(float c) {
  c = clamp(c, 0.0, 1.0);
  return c < 0.0031308 ? 12.92 * c : 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

vec4 shade_reference(vec4 base) {
  if (u_alpha_mode == 1 && alpha_cut(base.a)) discard;
  float alpha = u_alpha_mode == 2 ? base.a : 1.0;
  vec3 emissive = g_material.emissive;
  if (u_has_emissive) emissive *= texture(u_emissive_texture, slot_uv(3)).rgb;
  vec3 color = base.rgb;
  if (!u_unlit) {
    // Back faces are drawn only for double-sided materials: they face the other way. Without
    // NORMAL the face normal from the position's screen derivatives (three.js's flat shading),
    // which faces the viewer on either side.
    vec3 n = u_flat_normals
                 ? normalize(cross(dFdx(v_world_position), dFdy(v_world_position)))
                 : normalize(v_world_normal) * (gl_FrontFacing ? 1.0 : -1.0);
    vec3 v = normalize(u_eye - v_world_position);
    vec3 geometry_normal = n;
    if (u_has_normal) {
      float face = gl_FrontFacing ? 1.0 : -1.0;
      vec2 normal_uv = slot_uv(4);
      // three.js r187 (normal_fragment_begin): with TANGENT and smooth normals the frame is the
      // interpolated tangent and bitangent, each normalized, not orthogonalized; a back face
      // negates both with the normal. Without TANGENT, or shading with the face normal (three.js
      // turns USE_TANGENT off for flat shading), the frame comes from the screen derivatives
      // of position and texture coordinates (getTangentFrame).
      bool has_tangent = dot(v_world_tangent.xyz, v_world_tangent.xyz) > 0.0;
      mat3 tbn;
      if (has_tangent && !u_flat_normals && dot(v_world_bitangent, v_world_bitangent) > 0.0) {
        tbn = mat3(normalize(v_world_tangent.xyz) * face, normalize(v_world_bitangent) * face, n);
      } else {
        vec3 q0 = dFdx(v_world_position), q1 = dFdy(v_world_position);
        vec2 st0 = dFdx(normal_uv), st1 = dFdy(normal_uv);
        vec3 q1perp = cross(q1, n), q0perp = cross(n, q0);
        vec3 t = q1perp * st0.x + q0perp * st1.x;
        vec3 b = q1perp * st0.y + q0perp * st1.y;
        float det = max(dot(t, t), dot(b, b));
        float scale = det == 0.0 ? 0.0 : inversesqrt(det);
        tbn = mat3(t * scale * face, b * scale * face, n);
      }
      vec3 map_n = texture(u_normal_texture, normal_uv).xyz * 2.0 - 1.0;
      // three.js's glTF loader negates the y scale for primitives without TANGENT, whose frame
      // it derives on screen (its derivative frame's bitangent points the other way).
      map_n.xy *= g_material.normal_scale * vec2(1.0, has_tangent ? 1.0 : -1.0);
      n = normalize(tbn * map_n);
    }
    float metallic = g_material.metallic, roughness = g_material.roughness;
    if (u_has_metallic_roughness) {
      vec4 mr = texture(u_metallic_roughness_texture, slot_uv(1));
      roughness *= mr.g;
      metallic *= mr.b;
    }
    // Geometric specular anti-aliasing: the normal's change across a pixel widens the lobe.
    vec3 view_normal = u_view_rotation * geometry_normal;
    vec3 dxy = max(abs(dFdx(view_normal)), abs(dFdy(view_normal)));
    roughness = min(max(roughness, 0.0525) + max(max(dxy.x, dxy.y), dxy.z), 1.0);
    vec3 diffuse_color = base.rgb * (1.0 - metallic);
    float specular = g_material.specular;
    vec3 specular_color = g_material.specular_color;
    if (u_has_specular) specular *= texture(u_specular_texture, slot_uv(5)).a;
    if (u_has_specular_color) specular_color *= texture(u_specular_color_texture, slot_uv(6)).rgb;
    vec3 f0, f0_dielectric;
    float f90;
    specular_reflectance(base.rgb, metallic, g_material.ior, specular, specular_color, f0, f0_dielectric,
                         f90);
    float n_dot_v = clamp(dot(n, v), 0.0, 1.0);
    vec2 dfg = texture(u_dfg, vec2(roughness, n_dot_v)).rg;
    float e_ss = dfg.x + dfg.y;
    vec3 compensation = 1.0 + f0 * (1.0 / e_ss - 1.0);

    Surface surface = Surface(n, v, diffuse_color, f0, f0_dielectric, f90, roughness, n_dot_v,
                              compensation);
    float occlusion = 1.0;
    if (u_has_occlusion)
      occlusion = (texture(u_occlusion_texture, slot_uv(2)).r - 1.0) * g_material.occlusion_strength + 1.0;
    if (u_lighting == 3) {
      color = studio_light(surface, dfg, occlusion, v_world_position);
    } else {
      // Ambient: the dielectric lobe's single and multiple scattering taken from the diffuse.
      vec3 fss_ess = f0_dielectric * dfg.x + f90 * dfg.y;
      float e_ms = 1.0 - e_ss;
      vec3 f_avg = f0_dielectric + (1.0 - f0_dielectric) * 0.047619;
      vec3 f_ms = fss_ess * f_avg / (1.0 - e_ms * f_avg);
      vec3 ambient = u_ambient * diffuse_color / PI * (1.0 - fss_ess - f_ms * e_ms);
      color = direct_light(surface, u_light_direction, u_light_intensity) + ambient * occlusion;
    }
  }
  color += emissive;
  if (u_lighting == 3) color = tone_map(color, u_tone_mapping, u_exposure);
  return vec4(srgb_encode(color.r), srgb_encode(color.g), srgb_encode(color.b), alpha);
}


void main() {
  if (u_flat) {
    frag_color = u_flat_color;
    return;
  }
  g_material = material_values();
  if (u_lighting != 0 && !u_field_view) {
    frag_color = shade_reference(material_base_color());
    return;
  }
  vec4 base = g_material.base_color_factor;
  // The viewer's look reads TEXCOORD_0 as it is, whatever the material's texture transform.
  if (u_has_texture) base *= texture(u_base_color_texture, v_texcoord);
  if (u_field_view) {
    // Interpolated definedness rounds to the nearest vertex's, so undefined vertices keep crisp
    // borders; a triangle whose vertices are all at the minimum interpolates to it exactly.
    float value = v_field.x;
    float t = u_field_range.y > u_field_range.x
                  ? (value - u_field_range.x) / (u_field_range.y - u_field_range.x)
                  : 0.0;
    vec3 display;
    if (v_field.y < 0.5) {
      display = u_undefined_color;
    } else if (u_color_map == 1) {
      display = u_category_colors[clamp(int(floor(value + 0.5)), 0, 8)];
    } else if (u_color_map == 2) {
      float x = clamp(t, 0.0, 1.0) * 2.0;
      int i = min(int(x), 1);
      display = mix(u_diverging_stops[i], u_diverging_stops[i + 1], x - float(i));
    } else if (value <= u_field_range.x) {
      display = u_zero_color;
    } else {
      float x = clamp(t, 0.0, 1.0) * 4.0;
      int i = min(int(x), 3);
      display = mix(u_heat_stops[i], u_heat_stops[i + 1], x - float(i));
    }
    // Display colours to linear, so after lighting and gamma they read as chosen.
    base = vec4(pow(display, vec3(2.2)), 1.0);
  }
  vec3 n = normalize(v_world_normal);
  vec3 to_eye = normalize(u_eye - v_world_position);
  // Two-sided lighting: back faces (double-sided materials, thin shells) face the viewer.
  if (dot(n, to_eye) < 0.0) n = -n;
  float key = max(dot(n, u_key_direction), 0.0);
  vec3 sky = vec3(0.62, 0.68, 0.78), ground = vec3(0.28, 0.24, 0.22);
  vec3 ambient = mix(ground, sky, 0.5 * n.y + 0.5);
  vec3 h = normalize(u_key_direction + to_eye);
  float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.15;
  // The key light's diffuse and specular, both hidden where a caster shadows the point.
  vec3 key_light = (base.rgb * 0.85 * key * vec3(1.0, 0.97, 0.92) + spec) *
                   key_light_visibility(v_world_position, n);
  vec3 linear = base.rgb * 0.45 * ambient + key_light;
  frag_color = vec4(pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
