#include "anim/local_to_world_job.h"

#include <emmintrin.h>

#include <algorithm>

namespace rig {

NodeHierarchy NodeHierarchy::build(const Model& model) {
  NodeHierarchy h;
  const size_t n = model.nodes.size();
  h.order.reserve(n);
  h.position.assign(n, 0);
  h.subtree_end.assign(n, 0);
  std::vector<int> stack;
  for (size_t root = 0; root < n; ++root) {
    if (model.nodes[root].parent >= 0) continue;
    stack.push_back(static_cast<int>(root));
    while (!stack.empty()) {
      const int node = stack.back();
      stack.pop_back();
      h.position[size_t(node)] = static_cast<uint32_t>(h.order.size());
      h.order.push_back(node);
      const std::vector<int>& children = model.nodes[size_t(node)].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(*it);
    }
  }
  // A subtree ends where its last descendant does: walking backwards, each node's end is the
  // largest of its own next position and its children's ends.
  for (size_t i = h.order.size(); i-- > 0;) {
    const int node = h.order[i];
    uint32_t end = static_cast<uint32_t>(i + 1);
    for (int child : model.nodes[size_t(node)].children)
      end = std::max(end, h.subtree_end[size_t(child)]);
    h.subtree_end[size_t(node)] = end;
  }
  return h;
}

namespace {

// world = parent · trs(local), four columns at a time (SSE2). The same products and sums, in
// the same order, as glm's scalar mat4 product (Σ_k parent[k] · local[j][k], k = 0..3 left to
// right), minus the terms of local's last row (0, 0, 0, 1), which add exact zeros and ones:
// the result is glm's bit for bit (but for the sign of a zero).
inline __m128 load(const glm::vec4& v) { return _mm_loadu_ps(&v.x); }

inline __m128 column(const __m128 p[4], const glm::vec3& c) {
  __m128 r = _mm_mul_ps(p[0], _mm_set1_ps(c.x));
  r = _mm_add_ps(r, _mm_mul_ps(p[1], _mm_set1_ps(c.y)));
  return _mm_add_ps(r, _mm_mul_ps(p[2], _mm_set1_ps(c.z)));
}

void parent_times_trs(const glm::mat4& parent, const Transform& t, glm::mat4& out) {
  const glm::mat3 r = glm::mat3_cast(t.rotation);
  const __m128 p[4] = {load(parent[0]), load(parent[1]), load(parent[2]), load(parent[3])};
  _mm_storeu_ps(&out[0].x, column(p, r[0] * t.scale.x));
  _mm_storeu_ps(&out[1].x, column(p, r[1] * t.scale.y));
  _mm_storeu_ps(&out[2].x, column(p, r[2] * t.scale.z));
  _mm_storeu_ps(&out[3].x, _mm_add_ps(column(p, t.translation), p[3]));
}

}  // namespace

bool LocalToWorldJob::validate() const {
  if (!model || local.size() != model->nodes.size() || world.size() != model->nodes.size())
    return false;
  if (root < 0) return true;
  return hierarchy && size_t(root) < model->nodes.size() &&
         hierarchy->position.size() == model->nodes.size() &&
         hierarchy->order.size() == model->nodes.size();
}

bool LocalToWorldJob::run() const {
  if (!validate()) return false;
  const Model& m = *model;
  // The whole model in the importer's parents-first order, or one subtree as a range of the
  // depth-first order.
  std::span<const int> nodes = m.node_order;
  if (root >= 0)
    nodes = std::span<const int>(hierarchy->order)
                .subspan(hierarchy->position[size_t(root)],
                         hierarchy->subtree_end[size_t(root)] - hierarchy->position[size_t(root)]);
  for (const int i : nodes) {
    const Node& node = m.nodes[size_t(i)];
    if (node.parent >= 0 && !node.has_shear) {
      parent_times_trs(world[size_t(node.parent)], local[size_t(i)], world[size_t(i)]);
      continue;
    }
    glm::mat4 l = trs_matrix(local[size_t(i)]);
    if (node.has_shear) l = l * node.shear;
    world[size_t(i)] = node.parent < 0 ? l : world[size_t(node.parent)] * l;
  }
  return true;
}

}  // namespace rig
