// Centre-of-rotation skinning (table row "cor", Le & Hodgins 2016). Palette:
// PALETTE_ROWS_PER_JOINT (5) rows per joint, the DQS layout: rigid real quaternion (xyzw), rigid
// dual quaternion (xyzw), stretch S columns 0..2. See skin_common.glsl. Mirrors
// engine/skin/cor_skinning.cpp (skin_cor_kernel) operation by operation.

// The vertex's precomputed centre of rotation p* (bind space) in xyz; w = 1 when the mesh has
// centres (SkinMesh::rotation_centers), 0 when not (then p* = p: the LBS position).
layout(location = 8) in vec4 a_rotation_center;

// glm::mat3_cast of a unit quaternion (x, y, z, w), written the same way.
mat3 cor_quat_matrix(vec4 q) {
  float qxx = q.x * q.x, qyy = q.y * q.y, qzz = q.z * q.z;
  float qxz = q.x * q.z, qxy = q.x * q.y, qyz = q.y * q.z;
  float qwx = q.w * q.x, qwy = q.w * q.y, qwz = q.w * q.z;
  mat3 m;
  m[0][0] = 1.0 - 2.0 * (qyy + qzz);
  m[0][1] = 2.0 * (qxy + qwz);
  m[0][2] = 2.0 * (qxz - qwy);
  m[1][0] = 2.0 * (qxy - qwz);
  m[1][1] = 1.0 - 2.0 * (qxx + qzz);
  m[1][2] = 2.0 * (qyz + qwx);
  m[2][0] = 2.0 * (qxz + qwy);
  m[2][1] = 2.0 * (qyz - qwx);
  m[2][2] = 1.0 - 2.0 * (qxx + qyy);
  return m;
}

// v' = R S̄ (v - p*) + L p*, n' = normalize(R cofactor(S̄) n): R the normalized, hemisphere-aligned
// quaternion blend (pivot: the largest weight after summing repeated joints, the first among
// equals), S̄ the blended stretch, L the LBS matrix Σ w [R_j S_j | t_j]. The tangent takes the
// linear part acting on v (p* is fixed per vertex): t' = R S̄ t.
bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
                 int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
                 out vec3 out_t) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  float inv = 1.0 / sum;
  // Pivot: the largest weight after summing the slots of a repeated joint.
  int pivot = -1;
  float best = 0.0;
  for (int i = 0; i < count; ++i) {
    if (weights[i] * inv == 0.0 || int(joints[i]) >= joint_count) continue;
    bool repeated = false;
    for (int e = 0; e < i && !repeated; ++e)
      repeated = joints[e] == joints[i] && weights[e] * inv != 0.0;
    if (repeated) continue;  // counted with its first slot
    float total = 0.0;
    for (int e = i; e < count; ++e)
      if (joints[e] == joints[i]) total += weights[e] * inv;
    if (pivot < 0 || total > best) {
      pivot = i;
      best = total;
    }
  }
  if (pivot < 0) return false;
  vec4 qp = joint_row(int(joints[pivot]), 0);
  vec4 q = vec4(0.0);
  mat3 stretch = mat3(0.0), lbs3 = mat3(0.0);
  vec3 lbs_t = vec3(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    int j = int(joints[i]);
    if (w == 0.0 || j >= joint_count) continue;
    vec4 qj = joint_row(j, 0);
    mat3 sj = mat3(joint_row(j, 2).xyz, joint_row(j, 3).xyz, joint_row(j, 4).xyz);
    q += qj * (dot(qj, qp) < 0.0 ? -w : w);
    stretch += sj * w;
    // M_j = [R_j S_j | t_j], rebuilt from the palette.
    lbs3 += (cor_quat_matrix(qj) * sj) * w;
    lbs_t += dual_quat_translation(qj, joint_row(j, 1)) * w;
  }
  float len = length(q);
  if (!(len > 0.0)) return false;
  vec4 rot = q / len;
  vec3 center = a_rotation_center.w > 0.5 ? a_rotation_center.xyz : p;
  out_p = quat_rotate(rot, stretch * (p - center)) + (lbs3 * center + lbs_t);
  out_n = safe_normalize(quat_rotate(rot, transform_normal(stretch, n)), n);
  out_t = quat_rotate(rot, stretch * t);
  return true;
}
