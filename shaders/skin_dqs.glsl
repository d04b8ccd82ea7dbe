// Dual-quaternion skinning (table row "dqs"). Palette: PALETTE_ROWS_PER_JOINT (5) rows per
// joint: rigid real (xyzw), rigid dual (xyzw), stretch S columns 0..2. The body is dqs_blend()
// in skin_common.glsl, shared with the mix (skin_mix.glsl).

bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
                 out vec3 out_t) {
  return dqs_blend(0, joints, weights, count, joint_count, p, n, t, out_p, out_n, out_t);
}
