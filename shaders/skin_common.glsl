// Helpers shared by the skinning shaders (skin_<method>.glsl). Mirrors the CPU reference
// (engine/skin/) operation by operation, so the GPU read-back matches it to float rounding.
// Included after the #version line and the generated layout header (Renderer: skin_programs.cpp),
// which defines, from the skinning-method table and rig::kMaxInfluences:
//   MAX_INFLUENCES          influences a vertex keeps (two joint/weight attribute sets)
//   PALETTE_ROWS_PER_JOINT  vec4 rows per joint of this method's palette
//   PALETTE_VEC4S           rows of the std140 uniform block (uniform-block palettes), or
//   PALETTE_TBO             the palette is an RGBA32F texture buffer (no practical joint limit)
//   CROWD                   (with PALETTE_TBO) instanced crowd drawing: one texture buffer holds
//                           every instance's palettes, u_instance_stride rows per instance, this
//                           skin's rows from u_palette_base (engine/character/crowd.h layout)
// Every skin_<method>.glsl defines
//   bool skin_vertex(uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
//                    int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
//                    out vec3 out_t)
// returning false (outputs unset) for a vertex it cannot place. `t` is the tangent, a direction:
// it goes through the linear part of the skinning transform (not the inverse transpose, which is
// for normals), unnormalized; the caller normalizes it. Rigid programs have neither a
// palette nor skin_vertex().

#ifdef PALETTE_ROWS_PER_JOINT
#ifdef PALETTE_TBO
uniform samplerBuffer u_palette_tbo;
#ifdef CROWD
uniform int u_instance_stride;
uniform int u_palette_base;
vec4 palette_row(int i) {
  return texelFetch(u_palette_tbo, gl_InstanceID * u_instance_stride + u_palette_base + i);
}
#else
vec4 palette_row(int i) { return texelFetch(u_palette_tbo, i); }
#endif
#else
layout(std140) uniform Palette { vec4 u_palette[PALETTE_VEC4S]; };
vec4 palette_row(int i) { return u_palette[i]; }
#endif

// Row `row` of joint `joint`'s palette entry.
vec4 joint_row(int joint, int row) {
  return palette_row(PALETTE_ROWS_PER_JOINT * joint + row);
}
#endif

// glm's quat * vec3 (v + 2 (w (q x v) + q x (q x v))), written the same way.
vec3 quat_rotate(vec4 q, vec3 v) {
  vec3 qv = q.xyz;
  vec3 uv = cross(qv, v);
  vec3 uuv = cross(qv, uv);
  return v + ((uv * q.w) + uuv) * 2.0;
}

// Translation of a dual quaternion: vector part of 2 d conj(r).
vec3 dual_quat_translation(vec4 r, vec4 d) {
  return 2.0 * (r.w * d.xyz - d.w * r.xyz + cross(r.xyz, d.xyz));
}

// cpu_skinning.cpp transform_normal: the cofactor matrix (inverse transpose up to 1/det), its
// sign fixed by det so mirrors keep the outward side; defined for singular blends too.
vec3 transform_normal(mat3 m, vec3 n) {
  mat3 cof = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1]));
  float det = dot(m[0], cof[0]);
  vec3 r = cof * n;
  if (det < 0.0) r = -r;
  return r;
}

vec3 safe_normalize(vec3 v, vec3 fallback) {
  float len = length(v);
  return (len > 0.0 && !isinf(len) && !isnan(len)) ? v / len : fallback;
}


#ifdef PALETTE_ROWS_PER_JOINT
// The LBS and DQS vertex bodies, shared by skin_lbs.glsl, skin_dqs.glsl and skin_mix.glsl (which
// runs both): `base` is the first row of the method's rows inside each joint's palette entry
// (0 for the lbs and dqs rows themselves; see engine/skin/mix_kernel.h for the mix).

// Linear blend skinning: M = sum (w_i / sum w) M_i over the 4 rows at `base` (the skinning
// matrix's columns); zero weights and joints outside the skin are skipped; a vertex whose
// weights sum to 0 stays as it is. Returns false in that case.
bool lbs_blend(int base, uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
               int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
               out vec3 out_t) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  float inv = 1.0 / sum;
  mat4 m = mat4(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    int j = int(joints[i]);
    if (w == 0.0 || j >= joint_count) continue;
    m += mat4(joint_row(j, base), joint_row(j, base + 1), joint_row(j, base + 2),
              joint_row(j, base + 3)) * w;
  }
  out_p = vec3(m * vec4(p, 1.0));
  out_n = safe_normalize(transform_normal(mat3(m), n), n);
  out_t = mat3(m) * t;
  return true;
}

// Dual-quaternion skinning with the non-rigid split over the 5 rows at `base` (rigid real, rigid
// dual, stretch S columns 0..2): blend the stretches S linearly and apply them first, then the
// normalized, hemisphere-aligned blend of the rigid dual quaternions.
bool dqs_blend(int base, uint joints[MAX_INFLUENCES], float weights[MAX_INFLUENCES], int count,
               int joint_count, vec3 p, vec3 n, vec3 t, out vec3 out_p, out vec3 out_n,
               out vec3 out_t) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  // Reference: the largest weight, the first one among equals.
  int ref = 0;
  for (int i = 1; i < count; ++i)
    if (weights[i] > weights[ref]) ref = i;
  if (int(joints[ref]) >= joint_count) return false;
  vec4 pivot = joint_row(int(joints[ref]), base);
  float inv = 1.0 / sum;
  vec4 real = vec4(0.0), dual = vec4(0.0);
  mat3 stretch = mat3(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    int j = int(joints[i]);
    if (w == 0.0 || j >= joint_count) continue;
    vec4 jr = joint_row(j, base);
    float sw = dot(jr, pivot) < 0.0 ? -w : w;
    real += jr * sw;
    dual += joint_row(j, base + 1) * sw;
    stretch += mat3(joint_row(j, base + 2).xyz, joint_row(j, base + 3).xyz,
                    joint_row(j, base + 4).xyz) * w;
  }
  float len = length(real);
  if (!(len > 0.0)) return false;
  real = real / len;
  dual = dual / len;
  out_p = quat_rotate(real, stretch * p) + dual_quat_translation(real, dual);
  out_n = safe_normalize(quat_rotate(real, transform_normal(stretch, n)), n);
  out_t = quat_rotate(real, stretch * t);
  return true;
}
#endif
