// Skinning shared by every mesh program. Mirrors the CPU reference (engine/skin/cpu_skinning.cpp
// and engine/anim/dual_quat.cpp) operation by operation, so the GPU read-back matches it to
// float rounding. Included after the #version line and the palette #defines.
//
// Palette layout (vec4 rows), per skin:
//   LBS: joint j at 4j .. 4j+3: the columns of the skinning matrix (world x inverse bind).
//   DQS: joint j at 5j .. 5j+4: rigid real (xyzw), rigid dual (xyzw), stretch S columns 0..2.
// The palette lives in a std140 uniform block when it fits (PALETTE_VEC4S rows), else in an
// RGBA32F texture buffer (PALETTE_TBO defined), which has no practical joint limit.

#ifdef PALETTE_TBO
uniform samplerBuffer u_palette_tbo;
vec4 palette_row(int i) { return texelFetch(u_palette_tbo, i); }
#else
layout(std140) uniform Palette { vec4 u_palette[PALETTE_VEC4S]; };
vec4 palette_row(int i) { return u_palette[i]; }
#endif

mat4 lbs_matrix(int joint) {
  int base = 4 * joint;
  return mat4(palette_row(base), palette_row(base + 1), palette_row(base + 2),
              palette_row(base + 3));
}

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

// Up to 8 influences per vertex (two joint/weight attribute sets, see mesh.vert.glsl).
const int kMaxInfluences = 8;

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

// Linear blend skinning: M = sum (w_i / sum w) M_i; zero weights and joints outside the skin
// are skipped; a vertex whose weights sum to 0 stays as it is. Returns false in that case.
bool skin_linear(uint joints[kMaxInfluences], float weights[kMaxInfluences], int count,
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

// Dual-quaternion skinning with the non-rigid split: blend the stretches S linearly and apply
// them first, then the normalized, hemisphere-aligned blend of the rigid dual quaternions.
bool skin_dual_quat(uint joints[kMaxInfluences], float weights[kMaxInfluences], int count,
                    int joint_count, vec3 p, vec3 n, out vec3 out_p, out vec3 out_n) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return false;
  // Reference: the largest weight, the first one among equals.
  int ref = 0;
  for (int i = 1; i < count; ++i)
    if (weights[i] > weights[ref]) ref = i;
  if (int(joints[ref]) >= joint_count) return false;
  vec4 pivot = palette_row(5 * int(joints[ref]));
  float inv = 1.0 / sum;
  vec4 real = vec4(0.0), dual = vec4(0.0);
  mat3 stretch = mat3(0.0);
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    int j = int(joints[i]);
    if (w == 0.0 || j >= joint_count) continue;
    int base = 5 * j;
    vec4 jr = palette_row(base);
    float sw = dot(jr, pivot) < 0.0 ? -w : w;
    real += jr * sw;
    dual += palette_row(base + 1) * sw;
    stretch += mat3(palette_row(base + 2).xyz, palette_row(base + 3).xyz,
                    palette_row(base + 4).xyz) * w;
  }
  float len = length(real);
  if (!(len > 0.0)) return false;
  real = real / len;
  dual = dual / len;
  out_p = quat_rotate(real, stretch * p) + dual_quat_translation(real, dual);
  out_n = safe_normalize(quat_rotate(real, transform_normal(stretch, n)), n);
  return true;
}

// What the weight views show for one vertex: (weight of `joint`, usable influence count).
// The same rules as skin_linear: weights divided by their sum over all `count` influences,
// zero weights and joints outside the skin skipped. A vertex whose weights sum to 0 (or whose
// influences all point outside the skin) has no usable influence: (0, 0).
vec2 weight_info(uint joints[kMaxInfluences], float weights[kMaxInfluences], int count,
                 int joint_count, int joint) {
  float sum = 0.0;
  for (int i = 0; i < count; ++i) sum += weights[i];
  if (!(sum > 0.0)) return vec2(0.0);
  float inv = 1.0 / sum;
  float weight = 0.0, used = 0.0;
  for (int i = 0; i < count; ++i) {
    float w = weights[i] * inv;
    if (w == 0.0 || int(joints[i]) >= joint_count) continue;
    used += 1.0;
    if (int(joints[i]) == joint) weight += w;
  }
  return vec2(weight, used);
}
