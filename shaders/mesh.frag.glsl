// Mesh fragment shader: base colour (factor x sRGB texture), a key light plus hemispheric
// ambient, gamma-encoded output. u_flat_color draws the wireframe overlay in one colour;
// u_weight_view swaps the base colour for a skin-weight colour (the lighting stays).

in vec3 v_world_position;
in vec3 v_world_normal;
in vec2 v_texcoord;
in vec2 v_weight_info; // (weight of the chosen joint, usable influence count), see mesh.vert

uniform vec4 u_base_color_factor;
uniform sampler2D u_base_color_texture; // sRGB texture: sampling returns linear values
uniform bool u_has_texture;
uniform vec3 u_eye;
uniform vec3 u_key_direction; // unit, from the surface towards the light
uniform bool u_flat;
uniform vec4 u_flat_color;
// Skin-weight views (render/weight_colors.h): 0 off, 1 the chosen joint's weight as a heat
// map, 2 the influence count. Set per draw item: rigid items always draw with 0.
uniform int u_weight_view;
uniform vec3 u_heat_stops[5];      // weights 0, 1/4, 1/2, 3/4, 1
uniform vec3 u_zero_weight_color;  // weight exactly 0
uniform vec3 u_count_colors[9];    // by influence count; [0] marks an unskinnable vertex

out vec4 frag_color;

void main() {
  if (u_flat) {
    frag_color = u_flat_color;
    return;
  }
  vec4 base = u_base_color_factor;
  if (u_has_texture) base *= texture(u_base_color_texture, v_texcoord);
  if (u_weight_view != 0) {
    // Interpolated influence counts round to the nearest vertex's count, so regions keep crisp
    // borders; a triangle whose vertices all have weight 0 interpolates to exactly 0.
    int used = int(floor(v_weight_info.y + 0.5));
    vec3 display;
    if (used <= 0) {
      display = u_count_colors[0];
    } else if (u_weight_view == 2) {
      display = u_count_colors[min(used, 8)];
    } else if (v_weight_info.x <= 0.0) {
      display = u_zero_weight_color;
    } else {
      float x = clamp(v_weight_info.x, 0.0, 1.0) * 4.0;
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
  vec3 linear = base.rgb * (0.45 * ambient + 0.85 * key * vec3(1.0, 0.97, 0.92)) + spec;
  frag_color = vec4(pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
