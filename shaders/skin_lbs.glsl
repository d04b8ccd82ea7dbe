// Linear blend skinning (table row "lbs"). Palette: PALETTE_ROWS_PER_JOINT (4) rows per joint,
// the columns of the skinning matrix (world x inverse bind). See skin_common.glsl.

mat4 lbs_matrix(int joint) {
  return mat4(joint_row(joint, 0), joint_row(joint, 1), joint_row(joint, 2), joint_row(joint, 3));
}

// Linear blend skinning: M = sum (w_i / sum w) M_i; zero weights and joints outside the skin
// are skipped; a vertex whose weights sum to 0 stays as it is. Returns false in that case.
bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  float inv = 1.0 / sum;
  mat4 m = mat4(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    if (w == 0.0 || int(joints[i]) >= joint_count) continue;
    m += lbs_matrix(int(joints[i])) * w;
  }
  out_p = vec3(m * vec4(p, 1.0));
  out_n = safe_normalize(transform_normal(mat3(m), n), n);
  return true;
}

