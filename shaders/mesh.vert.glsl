// Mesh vertex shader, world-space outputs. Linked once per skinning-method row (skin_vertex()
// from that row's skin_<name>.glsl, SKINNED defined) and once rigid (u_model), each for drawing
// and with transform feedback capturing v_world_position, v_world_normal and v_world_tangent (the
// GPU export and its tests read those back). MAX_INFLUENCES comes from the generated layout
// header.

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_texcoord;
layout(location = 3) in uvec4 a_joints0;
layout(location = 4) in uvec4 a_joints1;
layout(location = 5) in vec4 a_weights0;
layout(location = 6) in vec4 a_weights1;
// Scalar-field view: (value, 1) per vertex, (0, 0) where the value is undefined; a constant
// (0, 0) when the item has no field.
layout(location = 7) in vec2 a_field;
layout(location = 9) in vec4 a_color;  // COLOR_0 (white without)
layout(location = 10) in vec2 a_texcoord1;  // TEXCOORD_1 ((0, 0) without)
// TANGENT (xyz, w the bitangent's handedness); (0, 0, 0, 0) without, and (0, 0, 0, 1), the GL's
// value for a disabled attribute, where a vertex array leaves it out (CPU skinning): a zero xyz
// tells the fragment shader to build the tangent frame from screen derivatives instead.
layout(location = 11) in vec4 a_tangent;

uniform mat4 u_view_proj;
// Sub-pixel snapping (DrawOptions::subpixel_bits): the viewport's width and height in pixels and
// the grid steps per pixel; z = 0 leaves positions as the GL rasterises them. A rasteriser snaps
// each vertex's window position to its own sub-pixel grid (SwiftShader: 1/16 pixel, llvmpipe and
// most GPUs: 1/256) before it decides which pixel centres a triangle covers. Snapping here to a
// coarser grid first reproduces the coarser rasteriser's coverage exactly, since the finer grid
// holds every point of the coarser one.
uniform vec3 u_subpixel_grid;

vec4 snap_to_subpixel_grid(vec4 clip) {
  if (u_subpixel_grid.z <= 0.0 || clip.w <= 0.0) return clip;  // behind the eye: clipped anyway
  vec2 half_size = 0.5 * u_subpixel_grid.xy;
  vec2 window = (clip.xy / clip.w + 1.0) * half_size;  // pixels from the viewport's corner
  window = floor(window * u_subpixel_grid.z + 0.5) / u_subpixel_grid.z;  // to the nearest step
  return vec4((window / half_size - 1.0) * clip.w, clip.zw);
}
#ifdef SKINNED
uniform int u_influences;     // influences in use: 4 or 8
uniform int u_joint_count;    // joints of the skin (indices at or above are ignored)
#else
#ifdef CROWD
// Instanced crowd: each instance's world matrix of this item's node, 4 columns in a texture
// buffer (rig::Crowd::rigid_matrices: u_rigid_stride rows per instance, this node's from
// u_rigid_base).
uniform samplerBuffer u_rigid_tbo;
uniform int u_rigid_stride;
uniform int u_rigid_base;
#else
uniform mat4 u_model;         // the node's world matrix
uniform mat3 u_normal_matrix; // transpose(inverse(mat3(u_model)))
#endif
#endif

#ifdef CROWD
// Instanced crowd drawing: instance gl_InstanceID stands on a grid (rig::Crowd::grid_offset,
// the same arithmetic), columns × rows cells u_grid_spacing apart, centred on the origin.
uniform int u_grid_columns;
uniform int u_grid_rows;
uniform float u_grid_spacing;
vec3 crowd_offset() {
  float x = float(gl_InstanceID % u_grid_columns) - 0.5 * float(u_grid_columns - 1);
  float z = float(gl_InstanceID / u_grid_columns) - 0.5 * float(u_grid_rows - 1);
  return vec3(x * u_grid_spacing, 0.0, z * u_grid_spacing);
}
#endif

#ifdef CROWD
// The instance, for the fragment stage's animated materials (material_values.glsl).
flat out int v_instance;
#endif
out vec3 v_world_position;
out vec3 v_world_normal;
out vec2 v_texcoord;
out vec2 v_texcoord1;
out vec2 v_field;
out vec4 v_color;
// World tangent (unit xyz, w the handedness) and bitangent normalize(cross(N, T)) * w, both zero
// without TANGENT. The bitangent is made per vertex and interpolated, as three.js does.
out vec4 v_world_tangent;
out vec3 v_world_bitangent;

void main() {
  vec3 p = a_position;
  vec3 n = a_normal;
  vec3 t = a_tangent.xyz;
#ifdef SKINNED
  vec3 wp = p;
  vec3 wn = safe_normalize(n, n);
  vec3 wt = t;
  uint joints[MAX_INFLUENCES];
  float weights[MAX_INFLUENCES];
  for (int i = 0; i < 4; ++i) {
    joints[i] = a_joints0[i];
    weights[i] = a_weights0[i];
    joints[i + 4] = a_joints1[i];
    weights[i + 4] = a_weights1[i];
  }
  int count = min(u_influences, MAX_INFLUENCES);
  vec3 sp, sn, st;
  if (skin_vertex(joints, weights, count, u_joint_count, p, n, t, sp, sn, st)) {
    wp = sp;
    wn = sn;
    wt = st;
  }
#else
#ifdef CROWD
  int row = gl_InstanceID * u_rigid_stride + u_rigid_base;
  mat4 model = mat4(texelFetch(u_rigid_tbo, row), texelFetch(u_rigid_tbo, row + 1),
                    texelFetch(u_rigid_tbo, row + 2), texelFetch(u_rigid_tbo, row + 3));
  mat3 normal_matrix = transpose(inverse(mat3(model)));
#else
  mat4 model = u_model;
  mat3 normal_matrix = u_normal_matrix;
#endif
  vec3 wp = vec3(model * vec4(p, 1.0));
  vec3 tn = normal_matrix * n;
  float len = length(tn);
  vec3 wn = len > 0.0 ? tn / len : n;
  // A direction: the model matrix's linear part, not the normal matrix.
  vec3 wt = mat3(model) * t;
#endif
#ifdef CROWD
  wp += crowd_offset();
#endif
#ifdef CROWD
  v_instance = gl_InstanceID;
#endif
  v_world_position = wp;
  v_world_normal = wn;
  bool has_tangent = dot(t, t) > 0.0;
  vec3 ut = safe_normalize(wt, vec3(0.0));
  v_world_tangent = has_tangent ? vec4(ut, a_tangent.w) : vec4(0.0);
  v_world_bitangent =
      has_tangent ? safe_normalize(cross(wn, ut) * a_tangent.w, vec3(0.0)) : vec3(0.0);
  v_texcoord = a_texcoord;
  v_texcoord1 = a_texcoord1;
  v_field = a_field;
  v_color = a_color;
  gl_Position = snap_to_subpixel_grid(u_view_proj * vec4(wp, 1.0));
}
