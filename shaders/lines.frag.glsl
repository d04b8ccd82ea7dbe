// Lines: the vertex colour. Points (u_round): round markers with a dark rim.
in vec4 v_color;

uniform bool u_round;
uniform vec4 u_override_color; // used instead of the vertex colour when alpha > 0

out vec4 frag_color;

void main() {
  vec4 c = u_override_color.a > 0.0 ? u_override_color : v_color;
  if (u_round) {
    vec2 d = gl_PointCoord * 2.0 - 1.0;
    float r = dot(d, d);
    if (r > 1.0) discard;
    if (r > 0.55) c.rgb *= 0.25;
  }
  frag_color = c;
}
