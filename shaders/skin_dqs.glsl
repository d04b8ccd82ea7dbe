// Dual-quaternion skinning (table row "dqs"). Palette: PALETTE_ROWS_PER_JOINT (5) rows per
// joint: rigid real (xyzw), rigid dual (xyzw), stretch S columns 0..2. See skin_common.glsl.

// Dual-quaternion skinning with the non-rigid split: blend the stretches S linearly and apply
// them first, then the normalized, hemisphere-aligned blend of the rigid dual quaternions.
bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  // Reference: the largest weight, the first one among equals.
  int ref = 0;
  for (int i = 1; i < count; ++i)
    if (weights[i] > weights[ref]) ref = i;
  if (int(joints[ref]) >= joint_count) return false;
  vec4 pivot = joint_row(int(joints[ref]), 0);
  float inv = 1.0 / sum;
  vec4 real = vec4(0.0), dual = vec4(0.0);
  mat3 stretch = mat3(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    int j = int(joints[i]);
    if (w == 0.0 || j >= joint_count) continue;
    vec4 jr = joint_row(j, 0);
    float sw = dot(jr, pivot) < 0.0 ? -w : w;
    real += jr * sw;
    dual += joint_row(j, 1) * sw;
    stretch += mat3(joint_row(j, 2).xyz, joint_row(j, 3).xyz, joint_row(j, 4).xyz) * w;
  }
  float len = length(real);
  if (!(len > 0.0)) return false;
  real = real / len;
  dual = dual / len;
  out_p = quat_rotate(real, stretch * p) + dual_quat_translation(real, dual);
  out_n = safe_normalize(quat_rotate(real, transform_normal(stretch, n)), n);
  return true;
}

