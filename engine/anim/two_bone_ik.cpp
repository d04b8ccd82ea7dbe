#include "anim/two_bone_ik.h"

#include <algorithm>
#include <cmath>

#include "anim/sampling.h"

namespace rig {

namespace {

glm::vec3 position(const glm::mat4& m) { return glm::vec3(m[3]); }

bool is_ancestor(const Skeleton& s, int ancestor, int node) {
  for (int n = s.parent[size_t(node)]; n >= 0; n = s.parent[size_t(n)])
    if (n == ancestor) return true;
  return false;
}

// Any unit vector perpendicular to unit `v`.
glm::vec3 any_perpendicular(glm::vec3 v) {
  const glm::vec3 other = std::abs(v.x) < 0.9f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
  return glm::normalize(glm::cross(v, other));
}

}  // namespace

TwoBoneChain two_bone_chain(const Model& model, int end) {
  TwoBoneChain c;
  if (end < 0 || size_t(end) >= model.nodes.size()) return c;
  const int mid = model.nodes[size_t(end)].parent;
  if (mid < 0) return c;
  const int root = model.nodes[size_t(mid)].parent;
  if (root < 0) return c;
  return {root, mid, end};
}

glm::quat rotation_between(glm::vec3 from, glm::vec3 to) {
  const float lf = glm::length(from), lt = glm::length(to);
  if (!(lf > 0.0f) || !(lt > 0.0f)) return glm::quat(1, 0, 0, 0);
  from /= lf;
  to /= lt;
  const float d = glm::dot(from, to);
  if (d < -0.999999f) return glm::angleAxis(glm::pi<float>(), any_perpendicular(from));
  // Half-way quaternion: (1 + d, from × to) normalized; accurate for small angles.
  const glm::vec3 c = glm::cross(from, to);
  return glm::normalize(glm::quat(1.0f + d, c.x, c.y, c.z));
}

glm::quat world_rotation(const glm::mat4& world) {
  glm::mat3 r(world);
  for (int i = 0; i < 3; ++i) {
    const float l = glm::length(r[i]);
    if (l > 0.0f) r[i] /= l;
  }
  if (glm::determinant(r) < 0.0f) r[0] = -r[0];
  return glm::normalize(glm::quat_cast(r));
}

void rotate_local_in_world(Transform& local, const glm::mat4* parent_world,
                           const glm::quat& delta) {
  glm::quat d = delta;
  if (parent_world) {
    const glm::mat3 p(*parent_world);
    const glm::mat3 conj = glm::inverse(p) * glm::mat3_cast(delta) * p;
    d = world_rotation(glm::mat4(conj));
  }
  local.rotation = glm::normalize(d * local.rotation);
}

bool TwoBoneIKJob::validate() const {
  if (!skeleton || local.size() != skeleton->size() || world.size() != skeleton->size() ||
      skeleton->hierarchy.position.size() != skeleton->size())
    return false;
  const int n = static_cast<int>(skeleton->size());
  if (!ik.chain.valid() || ik.chain.root >= n || ik.chain.mid >= n || ik.chain.end >= n)
    return false;
  return is_ancestor(*skeleton, ik.chain.root, ik.chain.mid) &&
         is_ancestor(*skeleton, ik.chain.mid, ik.chain.end);
}

bool TwoBoneIKJob::run() const {
  if (!validate()) return false;
  const float w = std::clamp(ik.weight, 0.0f, 1.0f);
  if (w == 0.0f) return true;  // bit-identical: nothing read back, nothing written
  const Skeleton& s = *skeleton;
  const glm::vec3 a = position(world[size_t(ik.chain.root)]);
  const glm::vec3 b = position(world[size_t(ik.chain.mid)]);
  const glm::vec3 c = position(world[size_t(ik.chain.end)]);
  const float l1 = glm::length(b - a), l2 = glm::length(c - b);
  const float reach = l1 + l2;
  if (!(l1 > 0.0f) || !(l2 > 0.0f)) return true;

  glm::vec3 to_target = ik.target - a;
  float d = glm::length(to_target);
  glm::vec3 dir = d > 1e-6f * reach ? to_target / d : glm::normalize(c - a);
  if (ik.soften > 0.0f) {
    const float band = std::min(ik.soften, 0.999f) * reach;
    const float start = reach - band;
    if (d > start) d = start + band * (1.0f - std::exp(-(d - start) / band));
  }
  const float d_eff = std::clamp(d, std::abs(l1 - l2), reach);

  // The bend direction: perpendicular to the root→target line, on the pole's side. Without a
  // pole, the side the chain bends to now: the mid joint's offset from the root→END line (the
  // chain's own bend, whatever the target), faded into the hinge's bend direction (the way a
  // positive turn about mid_axis moves the mid joint) as the chain straightens, so the plane
  // never flips.
  glm::vec3 side;
  if (ik.use_pole) {
    side = ik.pole - a;
  } else {
    const float cl = glm::length(c - a);
    const glm::vec3 chain_axis = cl > 0.0f ? (c - a) / cl : dir;
    side = (b - a) - chain_axis * glm::dot(b - a, chain_axis);
    const float fade = 0.05f * l1;
    const float straightness = std::max(0.0f, 1.0f - glm::length(side) / fade);
    if (straightness > 0.0f) {
      const glm::vec3 hinge = glm::mat3(world[size_t(ik.chain.mid)]) * ik.mid_axis;
      const glm::vec3 hinge_bend = glm::cross(chain_axis, hinge);
      const float hl = glm::length(hinge_bend);
      if (hl > 0.0f) side += hinge_bend * (straightness * fade / hl);
    }
  }
  glm::vec3 bend = side - dir * glm::dot(side, dir);
  float bl = glm::length(bend);
  if (!(bl > 1e-9f * reach)) {
    bend = any_perpendicular(dir);
    bl = 1.0f;
  }
  bend /= bl;
  if (ik.twist != 0.0f) bend = glm::angleAxis(ik.twist, dir) * bend;

  // Triangle a, mid', end' with sides l1, l2, d_eff.
  const float x = (l1 * l1 - l2 * l2 + d_eff * d_eff) / (2.0f * d_eff);
  const float h = std::sqrt(std::max(0.0f, l1 * l1 - x * x));
  const glm::vec3 mid_goal = a + dir * x + bend * h;
  const glm::vec3 end_goal = a + dir * d_eff;

  const glm::quat r1 = rotation_between(b - a, mid_goal - a);
  const glm::vec3 mid_new = a + r1 * (b - a);
  const glm::vec3 end_after_r1 = a + r1 * (c - a);
  const glm::quat r2 = rotation_between(end_after_r1 - mid_new, end_goal - mid_new);

  // World deltas → local rotations. The mid joint's parent has turned by r1 already, so its
  // own world delta r2 is taken in the parent's turned frame: r1⁻¹·r2·r1 in the old one.
  const int root_parent = s.parent[size_t(ik.chain.root)];
  const int mid_parent = s.parent[size_t(ik.chain.mid)];
  const int end_parent = s.parent[size_t(ik.chain.end)];
  const Transform root_old = local[size_t(ik.chain.root)];
  const Transform mid_old = local[size_t(ik.chain.mid)];
  const Transform end_old = local[size_t(ik.chain.end)];
  Transform root_new = root_old, mid_new_local = mid_old, end_new = end_old;
  rotate_local_in_world(root_new, root_parent >= 0 ? &world[size_t(root_parent)] : nullptr, r1);
  rotate_local_in_world(mid_new_local, &world[size_t(mid_parent)], glm::inverse(r1) * r2 * r1);
  if (ik.keep_end_rotation)
    rotate_local_in_world(end_new, &world[size_t(end_parent)], glm::inverse(r2 * r1));

  if (w < 1.0f) {
    root_new.rotation = slerp_shortest(root_old.rotation, root_new.rotation, w);
    mid_new_local.rotation = slerp_shortest(mid_old.rotation, mid_new_local.rotation, w);
    end_new.rotation = slerp_shortest(end_old.rotation, end_new.rotation, w);
  }
  local[size_t(ik.chain.root)].rotation = root_new.rotation;
  local[size_t(ik.chain.mid)].rotation = mid_new_local.rotation;
  if (ik.keep_end_rotation) local[size_t(ik.chain.end)].rotation = end_new.rotation;

  LocalToWorldJob to_world;
  to_world.skeleton = skeleton;
  to_world.local = local;
  to_world.world = world;
  to_world.root = ik.chain.root;
  return to_world.run();
}

}  // namespace rig
