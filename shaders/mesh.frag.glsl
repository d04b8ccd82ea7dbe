// Mesh fragment shader: base colour (factor x sRGB texture), a key light plus hemispheric
// ambient, gamma-encoded output. u_flat_color draws the wireframe overlay in one colour.

in vec3 v_world_position;
in vec3 v_world_normal;
in vec2 v_texcoord;

uniform vec4 u_base_color_factor;
uniform sampler2D u_base_color_texture; // sRGB texture: sampling returns linear values
uniform bool u_has_texture;
uniform vec3 u_eye;
uniform vec3 u_key_direction; // unit, from the surface towards the light
uniform bool u_flat;
uniform vec4 u_flat_color;

out vec4 frag_color;

void main() {
  if (u_flat) {
    frag_color = u_flat_color;
    return;
  }
  vec4 base = u_base_color_factor;
  if (u_has_texture) base *= texture(u_base_color_texture, v_texcoord);
  vec3 n = normalize(v_world_normal);
  vec3 to_eye = normalize(u_eye - v_world_position);
  // Two-sided lighting: back faces (double-sided materials, thin shells) face the viewer.
  if (dot(n, to_eye) < 0.0) n = -n;
  float key = max(dot(n, u_key_direction), 0.0);
  vec3 sky = vec3(0.62, 0.68, 0.78), ground = vec3(0.28, 0.24, 0.22);
  vec3 ambient = mix(ground, sky, 0.5 * n.y + 0.5);
  vec3 h = normalize(u_key_direction + to_eye);
  float spec = pow(max(dot(n, h), 0.0), 48.0) * 0.15;
  vec3 linear = base.rgb * (0.45 * ambient + 0.85 * key * vec3(1.0, 0.97, 0.92)) + spec;
  frag_color = vec4(pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
