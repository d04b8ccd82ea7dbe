#include "anim/pose.h"

#include <algorithm>
#include <glm/gtc/matrix_transform.hpp>

#include "anim/sampling.h"

namespace rig {

void init_rest_pose(const Model& model, Pose& pose) {
  pose.local.resize(model.nodes.size());
  pose.morph_weights.resize(model.morph_weight_count);
  reset_to_rest(model, pose);
}

void reset_to_rest(const Model& model, Pose& pose) {
  for (size_t i = 0; i < model.nodes.size(); ++i) pose.local[i] = model.nodes[i].rest;
  std::copy(model.rest_morph_weights.begin(), model.rest_morph_weights.end(),
            pose.morph_weights.begin());
}

void sample_clip(const Model& model, const Clip& clip, float time, Pose& pose) {
  reset_to_rest(model, pose);
  for (const Channel& c : clip.channels) {
    if (c.node < 0 || static_cast<size_t>(c.node) >= pose.local.size()) continue;
    Transform& t = pose.local[c.node];
    float v[4];
    switch (c.path) {
      case TargetPath::Translation:
        sample_channel(c, time, v);
        t.translation = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Scale:
        sample_channel(c, time, v);
        t.scale = glm::vec3(v[0], v[1], v[2]);
        break;
      case TargetPath::Rotation:
        sample_channel(c, time, v);
        t.rotation = glm::quat(v[3], v[0], v[1], v[2]);
        break;
      case TargetPath::Weights: {
        const Node& node = model.nodes[c.node];
        if (node.morph_count != c.components) break;  // the importer rejects this; stay safe
        sample_channel(
            c, time,
            std::span<float>(pose.morph_weights).subspan(node.morph_offset, node.morph_count));
        break;
      }
    }
  }
}

void blend_poses(const Pose& a, const Pose& b, float w, Pose& out) {
  const size_t n = std::min({a.local.size(), b.local.size(), out.local.size()});
  for (size_t i = 0; i < n; ++i) {
    const Transform& ta = a.local[i];
    const Transform& tb = b.local[i];
    Transform& to = out.local[i];
    to.translation = ta.translation + (tb.translation - ta.translation) * w;
    to.scale = ta.scale + (tb.scale - ta.scale) * w;
    to.rotation = slerp_shortest(ta.rotation, tb.rotation, w);
  }
  const size_t m =
      std::min({a.morph_weights.size(), b.morph_weights.size(), out.morph_weights.size()});
  for (size_t i = 0; i < m; ++i)
    out.morph_weights[i] = a.morph_weights[i] + (b.morph_weights[i] - a.morph_weights[i]) * w;
}

glm::mat4 local_matrix(const Model& model, const Pose& pose, int node) {
  const Node& n = model.nodes[node];
  if (n.has_matrix) return n.matrix;
  const Transform& t = pose.local[node];
  // T * R * S, built directly (cheaper and exact compared with three mat4 products).
  glm::mat3 r = glm::mat3_cast(t.rotation);
  glm::mat4 m(1.0f);
  m[0] = glm::vec4(r[0] * t.scale.x, 0.0f);
  m[1] = glm::vec4(r[1] * t.scale.y, 0.0f);
  m[2] = glm::vec4(r[2] * t.scale.z, 0.0f);
  m[3] = glm::vec4(t.translation, 1.0f);
  return m;
}

void compute_world_matrices(const Model& model, const Pose& pose, std::span<glm::mat4> world) {
  for (int i : model.node_order) {
    const glm::mat4 local = local_matrix(model, pose, i);
    const int p = model.nodes[i].parent;
    world[i] = p < 0 ? local : world[p] * local;
  }
}

void compute_skinning_matrices(const Skin& skin, std::span<const glm::mat4> world,
                               std::span<glm::mat4> out) {
  for (size_t j = 0; j < skin.joints.size(); ++j)
    out[j] = world[skin.joints[j]] * skin.inverse_bind[j];
}

}  // namespace rig
