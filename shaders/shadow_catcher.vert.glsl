// The ground's shadow catcher: a quad on the ground plane (four corners, no vertex buffer) where
// the key light's shadow can fall.
uniform mat4 u_view_proj;
uniform vec3 u_corners[4]; // world space, in triangle-strip order

out vec3 v_world_position;

void main() {
  v_world_position = u_corners[gl_VertexID];
  gl_Position = u_view_proj * vec4(v_world_position, 1.0);
}
