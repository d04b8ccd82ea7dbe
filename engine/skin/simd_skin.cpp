#include "skin/simd_skin.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "skin/skin_reference.h"

namespace rig::simd_skin {

namespace {
// DQS hemisphere signs precomputed per palette up to this many joints (2 KiB on the stack).
constexpr size_t kSignJoints = 128;
constexpr size_t kSignWords = kSignJoints / 64;
// LBS palettes up to this many joints are read from a 64-byte-aligned copy (16 KiB of stack).
constexpr size_t kAlignedJoints = 256;
}  // namespace

// The kernels' vector maths is templated on the register type (__m128, __m256); GCC warns that
// the template argument drops the type's may_alias attribute, which only matters for pointers
// to it (the kernels load through intrinsics).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
namespace sse2 {
#define RIG_SIMD_AVX2 0
#include "skin/simd_skin_impl.h"
#undef RIG_SIMD_AVX2
}  // namespace sse2

// The AVX2 + FMA copy is compiled for that target whatever the build's own flags; the dispatch
// below only calls it on processors that have both.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
namespace avx2 {
#define RIG_SIMD_AVX2 1
#include "skin/simd_skin_impl.h"
#undef RIG_SIMD_AVX2
}  // namespace avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#pragma GCC diagnostic pop

namespace {

const float* floats(std::span<const glm::vec3> v) { return v.empty() ? nullptr : &v[0].x; }
float* floats(std::span<glm::vec3> v) { return v.empty() ? nullptr : &v[0].x; }

// signs[p] bit j: dot(real_j, real_p) < 0, summed as glm sums a quaternion dot, (w·w' + x·x') +
// (y·y' + z·z'), so that the sign is the reference's own, bit for bit.
void hemisphere_signs(const float* palette, size_t joints, uint64_t (*signs)[kSignWords]) {
  for (size_t p = 0; p < joints; ++p) {
    const float* a = palette + p * 20;
    for (size_t w = 0; w < kSignWords; ++w) signs[p][w] = 0;
    for (size_t j = 0; j < joints; ++j) {
      const float* b = palette + j * 20;
      const float d = (a[3] * b[3] + a[0] * b[0]) + (a[1] * b[1] + a[2] * b[2]);
      if (d < 0.0f) signs[p][j >> 6] |= uint64_t(1) << (j & 63);
    }
  }
}

// Whether every joint's stretch rows are exactly I (what joint_dual_quat_from_matrix writes for
// a rigid skinning matrix).
bool all_rigid(const float* palette, size_t joints) {
  static constexpr float kIdentity[12] = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0};
  for (size_t j = 0; j < joints; ++j)
    if (!std::equal(kIdentity, kIdentity + 12, palette + j * 20 + 8)) return false;
  return true;
}

}  // namespace

bool supported(Level level) {
  if (level == Level::Sse2) return true;
  // __builtin_cpu_init: safe even when first asked from a static initializer.
  static const bool avx2 =
      (__builtin_cpu_init(), __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"));
  return avx2;
}

Level best_level() { return supported(Level::Avx2) ? Level::Avx2 : Level::Sse2; }

void skin_linear(Level level, const SkinMesh& mesh, std::span<const glm::vec4> palette,
                 std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                 std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const size_t joints = palette.size() / 4;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  if (joints == 0 || (mesh.influences != 4 && mesh.influences != 8) || !supported(level)) {
    skin_linear_reference(mesh, palette, positions, normals, out_positions, out_normals);
    return;
  }
  const float* pal = &palette[0].x;
  // A joint's 16 floats on one cache line: a vector<vec4> is only 16-byte aligned, and a row
  // read across two lines costs a second access on every influence.
  alignas(64) float aligned[kAlignedJoints * 16];
  if (joints <= kAlignedJoints && reinterpret_cast<uintptr_t>(pal) % 64 != 0) {
    std::copy(pal, pal + joints * 16, aligned);
    pal = aligned;
  }
  const float* n = with_normals ? floats(normals) : nullptr;
  float* on = with_normals ? floats(out_normals) : nullptr;
  const float* p = floats(positions);
  float* op = floats(out_positions);
  if (level == Level::Avx2) {
    if (mesh.influences == 4)
      avx2::skin_linear_k<4>(mesh, pal, joints, p, n, op, on);
    else
      avx2::skin_linear_k<8>(mesh, pal, joints, p, n, op, on);
  } else {
    if (mesh.influences == 4)
      sse2::skin_linear_k<4>(mesh, pal, joints, p, n, op, on);
    else
      sse2::skin_linear_k<8>(mesh, pal, joints, p, n, op, on);
  }
}

void skin_dual_quat(Level level, const SkinMesh& mesh, std::span<const glm::vec4> palette,
                    std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
                    std::span<glm::vec3> out_positions, std::span<glm::vec3> out_normals) {
  const size_t joints = palette.size() / 5;
  const bool with_normals = !normals.empty() && !out_normals.empty();
  if (joints == 0 || (mesh.influences != 4 && mesh.influences != 8) || !supported(level)) {
    skin_dual_quat_reference(mesh, palette, positions, normals, out_positions, out_normals);
    return;
  }
  const float* pal = &palette[0].x;
  const float* n = with_normals ? floats(normals) : nullptr;
  float* on = with_normals ? floats(out_normals) : nullptr;
  const float* p = floats(positions);
  float* op = floats(out_positions);
  // The sign table costs joints² dots; worth it when that is below the per-influence tests.
  uint64_t table[kSignJoints][kSignWords];
  uint64_t(*signs)[kSignWords] = nullptr;
  // With the table, a palette of rigid joints takes the rigid batches (simd_skin_impl.h,
  // dqs_rigid_batch): per joint its real and dual parts and their negations, one aligned
  // 32-byte read per influence, the sign picked by an offset instead of a multiply.
  alignas(64) float rigid[kSignJoints * 16];
  uint8_t flip[kSignJoints][kSignJoints];
  const float* rigid_rows = nullptr;
  if (joints <= kSignJoints && joints * joints <= size_t(mesh.vertex_count) * mesh.influences) {
    hemisphere_signs(pal, joints, table);
    signs = table;
    if (all_rigid(pal, joints)) {
      for (size_t j = 0; j < joints; ++j) {
        for (int c = 0; c < 8; ++c) {
          rigid[j * 16 + size_t(c)] = pal[j * 20 + size_t(c)];
          rigid[j * 16 + 8 + size_t(c)] = -pal[j * 20 + size_t(c)];
        }
        for (size_t i = 0; i < joints; ++i)
          flip[j][i] = uint8_t((table[j][i >> 6] >> (i & 63)) & 1 ? 8 : 0);
      }
      rigid_rows = rigid;
    }
  }
  if (level == Level::Avx2) {
    if (mesh.influences == 4)
      avx2::skin_dual_quat_k<4>(mesh, pal, joints, signs, rigid_rows, flip, p, n, op, on);
    else
      avx2::skin_dual_quat_k<8>(mesh, pal, joints, signs, rigid_rows, flip, p, n, op, on);
  } else {
    if (mesh.influences == 4)
      sse2::skin_dual_quat_k<4>(mesh, pal, joints, signs, rigid_rows, flip, p, n, op, on);
    else
      sse2::skin_dual_quat_k<8>(mesh, pal, joints, signs, rigid_rows, flip, p, n, op, on);
  }
}

}  // namespace rig::simd_skin
