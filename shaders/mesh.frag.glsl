// Mesh fragment shader: base colour (factor x sRGB texture), a key light plus hemispheric
// ambient, gamma-encoded output. u_flat_color draws the wireframe overlay in one colour;
// u_field_view swaps the base colour for a scalar field's colour (analysis/color_map.h; the
// lighting stays).

in vec3 v_world_position;
in vec3 v_world_normal;
in vec2 v_texcoord;
in vec2 v_field; // (value, defined) of the scalar field, see mesh.vert

uniform vec4 u_base_color_factor;
uniform sampler2D u_base_color_texture; // sRGB texture: sampling returns linear values
uniform bool u_has_texture;
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

void main() {
  if (u_flat) {
    frag_color = u_flat_color;
    return;
  }
  vec4 base = u_base_color_factor;
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
  vec3 linear = base.rgb * (0.45 * ambient + 0.85 * key * vec3(1.0, 0.97, 0.92)) + spec;
  frag_color = vec4(pow(clamp(linear, 0.0, 1.0), vec3(1.0 / 2.2)), 1.0);
}
