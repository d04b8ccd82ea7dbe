// glTF metallic-roughness BRDF pieces shared by the reference shading and the studio look
// (mesh.frag.glsl, look.frag.glsl): GGX with height-correlated Smith visibility and Schlick's
// Fresnel (three.js's spherical-Gaussian form) times the multiple-scattering compensation for
// the direct specular, Lambert times (1 − F) for the direct diffuse.

const float PI = 3.141592653589793;

uniform vec3 u_light_direction;   // unit, towards the directional light
uniform float u_light_intensity;  // irradiance on a surface facing it

// The shading point: unit normal and view direction, the material's diffuse colour, F0 (the
// dielectric's mixed towards the base colour by metalness), the dielectric F0 alone (from
// KHR_materials_ior and KHR_materials_specular: 0.04 without them), F90, roughness (after
// specular anti-aliasing), N·V and the direct specular's multiple-scattering compensation.
struct Surface {
  vec3 n, v, diffuse_color, f0, dielectric_f0;
  float f90, roughness, n_dot_v;
  vec3 compensation;
};

// three.js's MeshPhysicalMaterial (r187) from the glTF material: the dielectric F0
// min(((ior − 1)/(ior + 1))² · specular colour, 1) · specular, blended to the base colour by
// metalness, and F90 = mix(specular, 1, metalness).
void specular_reflectance(vec3 base_color, float metallic, float ior, float specular,
                          vec3 specular_color, out vec3 f0, out vec3 dielectric_f0,
                          out float f90) {
  float r = (ior - 1.0) / (ior + 1.0);
  dielectric_f0 = min(vec3(r * r) * specular_color, vec3(1.0)) * specular;
  f0 = mix(dielectric_f0, base_color, metallic);
  f90 = mix(specular, 1.0, metallic);
}

vec3 fresnel_schlick(vec3 f0, float f90, float v_dot_h) {
  float fresnel = exp2((-5.55473 * v_dot_h - 6.98316) * v_dot_h);
  return f0 * (1.0 - fresnel) + f90 * fresnel;
}

// Radiance towards the eye from a directional light towards unit `l` with irradiance
// `intensity` on a surface facing it: specular + diffuse.
vec3 direct_light(Surface s, vec3 l, float intensity) {
  float n_dot_l = clamp(dot(s.n, l), 0.0, 1.0);
  float irradiance = n_dot_l * intensity;
  vec3 h = normalize(l + s.v);
  float n_dot_h = clamp(dot(s.n, h), 0.0, 1.0);
  float v_dot_h = clamp(dot(s.v, h), 0.0, 1.0);
  float a = s.roughness * s.roughness, a2 = a * a;
  float gv = n_dot_l * sqrt(a2 + (1.0 - a2) * s.n_dot_v * s.n_dot_v);
  float gl = s.n_dot_v * sqrt(a2 + (1.0 - a2) * n_dot_l * n_dot_l);
  float visibility = 0.5 / max(gv + gl, 1e-6);
  float denom = n_dot_h * n_dot_h * (a2 - 1.0) + 1.0;
  float distribution = a2 / (PI * denom * denom);
  vec3 specular = irradiance * fresnel_schlick(s.f0, s.f90, v_dot_h) * visibility *
                  distribution * s.compensation;
  vec3 diffuse = irradiance * s.diffuse_color / PI *
                 (1.0 - fresnel_schlick(s.dielectric_f0, s.f90, v_dot_h));
  return specular + diffuse;
}
