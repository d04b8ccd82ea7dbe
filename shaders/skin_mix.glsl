// Per-joint LBS/DQS mix (table row "mix"). Palette: PALETTE_ROWS_PER_JOINT (10) rows per
// joint: the LBS rows (4) at 0, the DQS rows (5) at 4, then (m_j, 0, 0, 0) at 9. Mirrors
// engine/skin/mix_skinning.cpp (skin_mix_kernel): beta = clamp(sum w_i m_j, 0, 1) over the
// renormalized influences, v' = (1 - beta) v_LBS + beta v_DQS, n' = normalize of the same blend
// of the normals, t' the same blend of the tangents; beta 0 and 1 take one side as it is. Both
// sides are always computed, so the cost measurement (--bench-skinning) does not depend on the
// amounts.

bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
                 out vec3 out_t) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  float inv = 1.0 / sum;
  float weighted_amounts = 0.0;
  for (int i = 0; i < count; ++i) {
    int j = int(joints[i]);
    if (weights[i] * inv == 0.0 || j >= joint_count) continue;
    weighted_amounts += weights[i] * joint_row(j, 9).x;
  }
  float beta = clamp(weighted_amounts / sum, 0.0, 1.0);
  // A side that cannot place the vertex counts as its bind position (as on the CPU).
  vec3 rest_n = safe_normalize(n, n);
  vec3 lp = p, ln = rest_n, lt = t, dp = p, dn = rest_n, dt = t;
  if (!lbs_blend(0, joints, weights, count, joint_count, p, n, t, lp, ln, lt)) {
    lp = p;
    ln = rest_n;
    lt = t;
  }
  if (!dqs_blend(4, joints, weights, count, joint_count, p, n, t, dp, dn, dt)) {
    dp = p;
    dn = rest_n;
    dt = t;
  }
  if (beta <= 0.0) {
    out_p = lp;
    out_n = ln;
    out_t = lt;
  } else if (beta >= 1.0) {
    out_p = dp;
    out_n = dn;
    out_t = dt;
  } else {
    float a = 1.0 - beta;
    out_p = lp * a + dp * beta;
    out_n = safe_normalize(ln * a + dn * beta, ln);
    out_t = lt * a + dt * beta;
  }
  return true;
}
