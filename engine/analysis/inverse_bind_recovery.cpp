#include "analysis/inverse_bind_recovery.h"

#include <cmath>
#include <utility>

#include "analysis/rig_doctor_internal.h"
#include "glm/gtc/quaternion.hpp"

namespace rig {

namespace {

using rig_doctor_detail::rest_world;

bool finite(const glm::dmat4& m) {
  for (int c = 0; c < 4; ++c)
    for (int r = 0; r < 4; ++r)
      if (!std::isfinite(m[c][r])) return false;
  return true;
}

}  // namespace

bool affine_inverse(const glm::dmat4& b, glm::dmat4& out) {
  const glm::dmat3 a(b);
  const double size = glm::length(a[0]) * glm::length(a[1]) * glm::length(a[2]);
  if (!finite(b) || !(size > 0.0) || !(std::abs(glm::determinant(a)) > 1e-12 * size)) return false;
  const glm::dmat3 inverse = glm::inverse(a);
  out = glm::dmat4(inverse);
  out[3] = glm::dvec4(-(inverse * glm::dvec3(b[3])), 1.0);
  return true;
}

namespace {

std::string singular(const Model& model, int skin, size_t j) {
  return rig_doctor_detail::joint_label(model, skin, int(j)) +
         ": its recovered bind matrix is singular, so it has no inverse";
}

// Eigenvector of the largest eigenvalue of the symmetric 4×4 `n` (cyclic Jacobi sweeps).
glm::dvec4 largest_eigenvector(glm::dmat4 n) {
  glm::dmat4 v(1.0);
  for (int sweep = 0; sweep < 32; ++sweep) {
    double off = 0.0;
    for (int p = 0; p < 4; ++p)
      for (int q = p + 1; q < 4; ++q) off += n[p][q] * n[p][q];
    if (off < 1e-30) break;
    for (int p = 0; p < 4; ++p) {
      for (int q = p + 1; q < 4; ++q) {
        if (std::abs(n[p][q]) < 1e-300) continue;
        const double theta = (n[q][q] - n[p][p]) / (2.0 * n[p][q]);
        const double t =
            (theta >= 0 ? 1.0 : -1.0) / (std::abs(theta) + std::sqrt(theta * theta + 1));
        const double c = 1.0 / std::sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < 4; ++k) {  // columns p and q of n·J
          const double a = n[k][p], b = n[k][q];
          n[k][p] = c * a - s * b;
          n[k][q] = s * a + c * b;
        }
        for (int k = 0; k < 4; ++k) {  // rows p and q of Jᵀ·n
          const double a = n[p][k], b = n[q][k];
          n[p][k] = c * a - s * b;
          n[q][k] = s * a + c * b;
        }
        for (int k = 0; k < 4; ++k) {
          const double a = v[k][p], b = v[k][q];
          v[k][p] = c * a - s * b;
          v[k][q] = s * a + c * b;
        }
      }
    }
  }
  int best = 0;
  for (int k = 1; k < 4; ++k)
    if (n[k][k] > n[best][best]) best = k;
  return {v[0][best], v[1][best], v[2][best], v[3][best]};
}

// Horn's closed form: the rotation R maximizing Σ b_i · R a_i, with the uniform scale
// s = Σ b_i · R a_i / Σ |a_i|²; returns s·R.
glm::dmat3 similarity_fit(const std::vector<std::pair<glm::dvec3, glm::dvec3>>& pairs) {
  glm::dmat3 s(0.0);  // s[x][y] = Σ a_x b_y
  double norm = 0.0;
  for (const auto& [a, b] : pairs) {
    for (int x = 0; x < 3; ++x)
      for (int y = 0; y < 3; ++y) s[x][y] += a[x] * b[y];
    norm += glm::dot(a, a);
  }
  const double xx = s[0][0], xy = s[0][1], xz = s[0][2], yx = s[1][0], yy = s[1][1], yz = s[1][2],
               zx = s[2][0], zy = s[2][1], zz = s[2][2];
  glm::dmat4 n;
  n[0] = {xx + yy + zz, yz - zy, zx - xz, xy - yx};
  n[1] = {yz - zy, xx - yy - zz, xy + yx, zx + xz};
  n[2] = {zx - xz, xy + yx, -xx + yy - zz, yz + zy};
  n[3] = {xy - yx, zx + xz, yz + zy, -xx - yy + zz};
  const glm::dvec4 e = largest_eigenvector(n);
  const glm::dmat3 r = glm::mat3_cast(glm::normalize(glm::dquat(e[0], e[1], e[2], e[3])));
  double along = 0.0;
  for (const auto& [a, b] : pairs) along += glm::dot(b, r * a);
  return (along / norm) * r;
}

// The shortest-arc rotation taking direction `from` onto `to` (unit vectors).
glm::dmat3 shortest_arc(const glm::dvec3& from, const glm::dvec3& to) {
  const double d = glm::dot(from, to);
  if (d < -1.0 + 1e-12) {  // opposite: half a turn about any axis perpendicular to `from`
    glm::dvec3 axis = glm::cross(from, glm::dvec3(1, 0, 0));
    if (glm::length(axis) < 1e-6) axis = glm::cross(from, glm::dvec3(0, 1, 0));
    return glm::mat3_cast(glm::angleAxis(glm::pi<double>(), glm::normalize(axis)));
  }
  const glm::dvec3 c = glm::cross(from, to);
  return glm::mat3_cast(glm::normalize(glm::dquat(1.0 + d, c.x, c.y, c.z)));
}

}  // namespace

bool invert_negated_bind_matrices(const Model& model, int skin,
                                  std::span<const glm::mat4> inverse_bind,
                                  std::vector<glm::mat4>& out, std::string& error) {
  out.assign(inverse_bind.size(), glm::mat4(1.0f));
  for (size_t j = 0; j < inverse_bind.size(); ++j) {
    glm::dmat4 bind(inverse_bind[j]), inverse;
    bind[3] = glm::dvec4(-glm::dvec3(bind[3]), 1.0);
    if (!affine_inverse(bind, inverse)) return error = singular(model, skin, j), false;
    out[j] = glm::mat4(inverse);
  }
  return true;
}

bool rebuild_translation_only_binds(const Model& model, int skin,
                                    std::span<const glm::mat4> inverse_bind,
                                    std::vector<glm::mat4>& out, std::string& error) {
  const Skin& s = model.skins[size_t(skin)];
  const size_t n = s.joints.size();
  if (inverse_bind.size() != n || s.joint_parent.size() != n || s.order.size() != n)
    return error = rig_doctor_detail::skin_label(model, skin) + ": joint lists disagree", false;
  const std::vector<glm::dmat4> world = rest_world(model);
  // Rest offsets and rotations relative to the skin parent, and the bind positions t_j.
  std::vector<glm::dmat4> relative(n);
  std::vector<glm::dvec3> position(n);
  double longest = 0.0;
  for (size_t j = 0; j < n; ++j) {
    const int p = s.joint_parent[j];
    const glm::dmat4& g = world[size_t(s.joints[j])];
    relative[j] = p >= 0 ? glm::inverse(world[size_t(s.joints[size_t(p)])]) * g : g;
    position[j] = -glm::dvec3(glm::dmat4(inverse_bind[j])[3]);
    if (p >= 0) longest = std::max(longest, glm::length(glm::dvec3(relative[j][3])));
  }
  std::vector<std::vector<int>> children(n);
  for (size_t j = 0; j < n; ++j) {
    const int p = s.joint_parent[j];
    // A child at its parent's origin has no direction to read.
    if (p >= 0 && glm::length(glm::dvec3(relative[j][3])) > 1e-6 * longest)
      children[size_t(p)].push_back(int(j));
  }
  std::vector<glm::dmat3> part(n, glm::dmat3(1.0));
  out.assign(n, glm::mat4(1.0f));
  for (int j : s.order) {
    const int p = s.joint_parent[size_t(j)];
    const glm::dmat3 guess = p >= 0 ? part[size_t(p)] * glm::dmat3(relative[size_t(j)])
                                    : glm::dmat3(relative[size_t(j)]);
    std::vector<std::pair<glm::dvec3, glm::dvec3>> pairs;
    for (int c : children[size_t(j)])
      pairs.emplace_back(glm::dvec3(relative[size_t(c)][3]),
                         position[size_t(c)] - position[size_t(j)]);
    glm::dmat3 m = guess;
    bool planar = false;
    for (size_t a = 0; a < pairs.size() && !planar; ++a)
      for (size_t b = a + 1; b < pairs.size() && !planar; ++b) {
        const glm::dvec3 u = glm::normalize(pairs[a].first), v = glm::normalize(pairs[b].first);
        planar = glm::length(glm::cross(u, v)) > 1e-3;
      }
    if (planar) {
      m = similarity_fit(pairs);
    } else if (!pairs.empty()) {
      glm::dvec3 from(0.0), to(0.0);
      for (const auto& [a, b] : pairs) {
        from += guess * a;
        to += b;
      }
      if (glm::length(from) > 0.0 && glm::length(to) > 0.0)
        m = (glm::length(to) / glm::length(from)) *
            shortest_arc(glm::normalize(from), glm::normalize(to)) * guess;
    }
    part[size_t(j)] = m;
    glm::dmat4 bind(m), inverse;
    bind[3] = glm::dvec4(position[size_t(j)], 1.0);
    if (!affine_inverse(bind, inverse)) return error = singular(model, skin, size_t(j)), false;
    out[size_t(j)] = glm::mat4(inverse);
  }
  return true;
}

}  // namespace rig
