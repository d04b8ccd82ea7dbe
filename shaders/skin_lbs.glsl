// Linear blend skinning (table row "lbs"). Palette: PALETTE_ROWS_PER_JOINT (4) rows per joint,
// the columns of the skinning matrix (world x inverse bind). The body is lbs_blend() in
// skin_common.glsl, shared with the mix (skin_mix.glsl).

bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
                 out vec3 out_t) {
  return lbs_blend(0, joints, weights, count, joint_count, p, n, t, out_p, out_n, out_t);
}
