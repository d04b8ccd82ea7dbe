// The shadow catcher draws only the shadow: black at u_strength where the key light is hidden,
// transparent where it reaches the ground, so the background and the grid over it read as before.
in vec3 v_world_position;

uniform float u_strength;

out vec4 frag_color;

void main() {
  float shadow = u_strength * (1.0 - key_light_visibility(v_world_position, vec3(0.0, 1.0, 0.0)));
  if (shadow <= 0.0) discard;
  frag_color = vec4(0.0, 0.0, 0.0, shadow);
}
