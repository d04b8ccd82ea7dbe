// Mesh vertex shader: rigid, LBS or DQS (u_skinning), world-space outputs. The same source is
// linked twice: for drawing, and with transform feedback capturing v_world_position and
// v_world_normal (the GPU export and its tests read those back).

layout(location = 0) in vec3 a_position;
layout(location = 1) in vec3 a_normal;
layout(location = 2) in vec2 a_texcoord;
layout(location = 3) in uvec4 a_joints0;
layout(location = 4) in uvec4 a_joints1;
layout(location = 5) in vec4 a_weights0;
layout(location = 6) in vec4 a_weights1;

uniform mat4 u_view_proj;
uniform mat4 u_model;         // rigid items: the node's world matrix
uniform mat3 u_normal_matrix; // rigid items: transpose(inverse(mat3(u_model)))
uniform int u_skinning;       // 0 rigid, 1 LBS, 2 DQS
uniform int u_influences;     // influences in use: 0, 4 or 8
uniform int u_joint_count;    // joints of the skin (indices at or above are ignored)
uniform int u_weight_joint;   // skin joint index whose weight v_weight_info.x carries, -1 none

out vec3 v_world_position;
out vec3 v_world_normal;
out vec2 v_texcoord;
// Skin-weight views: x = the weight of u_weight_joint after the skinning's renormalization,
// y = the number of usable non-zero influences (0: the vertex cannot be skinned). Both 0 for
// rigid items (the fragment shader does not colour those).
out vec2 v_weight_info;

void main() {
  vec3 p = a_position;
  vec3 n = a_normal;
  vec3 wp = p;
  vec3 wn = safe_normalize(n, n);
  v_weight_info = vec2(0.0);
  if (u_skinning == 0) {
    wp = vec3(u_model * vec4(p, 1.0));
    vec3 tn = u_normal_matrix * n;
    float len = length(tn);
    wn = len > 0.0 ? tn / len : n;
  } else {
    uint joints[kMaxInfluences];
    float weights[kMaxInfluences];
    for (int i = 0; i < 4; ++i) {
      joints[i] = a_joints0[i];
      weights[i] = a_weights0[i];
      joints[i + 4] = a_joints1[i];
      weights[i + 4] = a_weights1[i];
    }
    int count = min(u_influences, kMaxInfluences);
    v_weight_info = weight_info(joints, weights, count, u_joint_count, u_weight_joint);
    vec3 sp, sn;
    bool ok = u_skinning == 1
                  ? skin_linear(joints, weights, count, u_joint_count, p, n, sp, sn)
                  : skin_dual_quat(joints, weights, count, u_joint_count, p, n, sp, sn);
    if (ok) {
      wp = sp;
      wn = sn;
    }
  }
  v_world_position = wp;
  v_world_normal = wn;
  v_texcoord = a_texcoord;
  gl_Position = u_view_proj * vec4(wp, 1.0);
}
