// The structural humanoid finder (names ignored) and find_humanoid, which fills what the names
// missed from it. The rules are in README.md, "Retargeting: the bone map".
#include <algorithm>
#include <cmath>
#include <functional>

#include "character/bone_map.h"
#include "model/model.h"

namespace rig {
namespace {

// One skin's joints as a tree of their own (a joint's parent is its nearest joint ancestor),
// with rest-pose positions in model space (every ancestor's transform applied, armature
// nodes included).
struct Skeleton {
  std::vector<int> node;  // joint → node
  std::vector<int> parent;
  std::vector<std::vector<int>> children;
  std::vector<glm::vec3> pos;
  std::vector<char> twist;  // named like a twist or roll helper: passed over in chains
};

glm::mat4 rest_world(const Model& model, int node, std::vector<glm::mat4>& cache,
                     std::vector<char>& done) {
  if (done[size_t(node)]) return cache[size_t(node)];
  const Node& n = model.nodes[size_t(node)];
  glm::mat4 local = trs_matrix(n.rest);
  if (n.has_shear) local = local * n.shear;
  const bool has_parent = n.parent >= 0 && n.parent < int(model.nodes.size());
  cache[size_t(node)] = has_parent ? rest_world(model, n.parent, cache, done) * local : local;
  done[size_t(node)] = 1;
  return cache[size_t(node)];
}

Skeleton skeleton_of(const Model& model, int skin) {
  Skeleton sk;
  if (skin < 0) skin = 0;
  if (skin >= int(model.skins.size())) return sk;
  std::vector<int> joint_of(model.nodes.size(), -1);
  for (int node : model.skins[size_t(skin)].joints)
    if (node >= 0 && node < int(model.nodes.size()) && joint_of[size_t(node)] < 0) {
      joint_of[size_t(node)] = int(sk.node.size());
      sk.node.push_back(node);
    }
  const size_t n = sk.node.size();
  sk.parent.assign(n, -1);
  sk.children.resize(n);
  sk.pos.resize(n);
  sk.twist.resize(n);
  std::vector<glm::mat4> cache(model.nodes.size());
  std::vector<char> done(model.nodes.size(), 0);
  for (size_t j = 0; j < n; ++j) {
    int p = model.nodes[size_t(sk.node[j])].parent;
    while (p >= 0 && joint_of[size_t(p)] < 0) p = model.nodes[size_t(p)].parent;
    sk.parent[j] = p >= 0 ? joint_of[size_t(p)] : -1;
    if (sk.parent[j] >= 0) sk.children[size_t(sk.parent[j])].push_back(int(j));
    sk.pos[j] = glm::vec3(rest_world(model, sk.node[j], cache, done)[3]);
    sk.twist[j] = is_twist_joint_name(model.nodes[size_t(sk.node[j])].name);
  }
  return sk;
}

// Per joint, over its subtree (itself included): joint count and the extremes along `axis`.
struct Extent {
  std::vector<int> size;
  std::vector<float> lo, hi;
};

Extent extents(const Skeleton& sk, glm::vec3 axis) {
  const size_t n = sk.node.size();
  Extent e{std::vector<int>(n, 1), std::vector<float>(n), std::vector<float>(n)};
  std::function<void(int)> visit = [&](int j) {
    e.lo[size_t(j)] = e.hi[size_t(j)] = glm::dot(sk.pos[size_t(j)], axis);
    for (int c : sk.children[size_t(j)]) {
      visit(c);
      e.size[size_t(j)] += e.size[size_t(c)];
      e.lo[size_t(j)] = std::min(e.lo[size_t(j)], e.lo[size_t(c)]);
      e.hi[size_t(j)] = std::max(e.hi[size_t(j)], e.hi[size_t(c)]);
    }
  };
  for (size_t j = 0; j < n; ++j)
    if (sk.parent[j] < 0) visit(int(j));
  return e;
}

struct HipsChoice {
  int hips = -1, up = -1, down[2] = {-1, -1};
};

// The hips along `up`: a joint with a branch reaching above it and two branches reaching below
// it, each by more than a tenth of the skeleton's height; of those, the one whose three branches
// hold the most joints (the nearest the root on a tie).
HipsChoice find_hips(const Skeleton& sk, glm::vec3 up) {
  const Extent e = extents(sk, up);
  float lo = 0.0f, hi = 0.0f;
  for (size_t j = 0; j < sk.node.size(); ++j) {
    lo = j == 0 ? e.lo[j] : std::min(lo, e.lo[j]);
    hi = j == 0 ? e.hi[j] : std::max(hi, e.hi[j]);
  }
  const float margin = 0.1f * (hi - lo);
  HipsChoice best;
  int best_score = 0;
  // Parents before children, so the first of equal scores is the nearest the root.
  std::vector<int> order;
  for (size_t j = 0; j < sk.node.size(); ++j)
    if (sk.parent[j] < 0) order.push_back(int(j));
  for (size_t i = 0; i < order.size(); ++i)
    for (int c : sk.children[size_t(order[i])]) order.push_back(c);
  for (int j : order) {
    const std::vector<int>& kids = sk.children[size_t(j)];
    if (kids.size() < 3) continue;
    const float h = glm::dot(sk.pos[size_t(j)], up);
    int top = kids[0];
    for (int c : kids)
      if (e.hi[size_t(c)] > e.hi[size_t(top)]) top = c;
    if (e.hi[size_t(top)] - h <= margin) continue;
    int d0 = -1, d1 = -1;
    for (int c : kids) {
      if (c == top) continue;
      if (d0 < 0 || e.lo[size_t(c)] < e.lo[size_t(d0)]) {
        d1 = d0;
        d0 = c;
      } else if (d1 < 0 || e.lo[size_t(c)] < e.lo[size_t(d1)]) {
        d1 = c;
      }
    }
    if (d1 < 0 || h - e.lo[size_t(d0)] <= margin || h - e.lo[size_t(d1)] <= margin) continue;
    const int score = e.size[size_t(top)] + e.size[size_t(d0)] + e.size[size_t(d1)];
    if (score > best_score) {
      best_score = score;
      best = {j, top, {d0, d1}};
    }
  }
  return best;
}

float distance(const Skeleton& sk, int a, int b) {
  return glm::length(sk.pos[size_t(a)] - sk.pos[size_t(b)]);
}

// A limb's chain from `root`: on through single children, to the bigger branch at a fork of two
// (the farther-reaching on a tie), and no further where three or more branches leave (the
// fingers or toes spread from there). Twist helpers are dropped. A first joint much shorter than
// the next bone (under 0.6 of it: a clavicle, a pelvis joint at the hips) is returned apart.
std::vector<int> limb_chain(const Skeleton& sk, const Extent& e, int root, int* lead) {
  std::vector<int> chain;
  for (int j = root; j >= 0;) {
    if (!sk.twist[size_t(j)]) chain.push_back(j);
    const std::vector<int>& kids = sk.children[size_t(j)];
    if (kids.empty() || kids.size() >= 3) break;
    int next = kids[0];
    if (kids.size() == 2) {
      const int a = kids[0], b = kids[1];
      if (e.size[size_t(a)] != e.size[size_t(b)])
        next = e.size[size_t(a)] > e.size[size_t(b)] ? a : b;
      else
        next = distance(sk, j, a) >= distance(sk, j, b) ? a : b;
    }
    j = next;
  }
  *lead = -1;
  if (chain.size() >= 3 &&
      distance(sk, chain[0], chain[1]) < 0.6f * distance(sk, chain[1], chain[2])) {
    *lead = chain[0];
    chain.erase(chain.begin());
  }
  return chain;
}

glm::vec3 centroid(const Skeleton& sk, const std::vector<int>& joints) {
  glm::vec3 sum(0.0f);
  for (int j : joints) sum += sk.pos[size_t(j)];
  return joints.empty() ? sum : sum / float(joints.size());
}

glm::vec3 orthogonal_part(glm::vec3 v, glm::vec3 unit) { return v - glm::dot(v, unit) * unit; }

}  // namespace

HumanoidMap find_humanoid_by_structure(const Model& model, int skin) {
  HumanoidMap map;
  const Skeleton sk = skeleton_of(model, skin);
  if (sk.node.empty()) return map;
  // glTF is +Y up; the other axes are tried only when +Y finds no hips (a Z-up file whose
  // armature has no correcting rotation, a character lying down).
  const glm::vec3 axes[] = {{0, 1, 0}, {0, 0, 1}, {0, -1, 0}, {0, 0, -1}, {1, 0, 0}, {-1, 0, 0}};
  HipsChoice choice;
  glm::vec3 axis(0, 1, 0);
  for (glm::vec3 a : axes) {
    choice = find_hips(sk, a);
    axis = a;
    if (choice.hips >= 0) break;
  }
  if (choice.hips < 0) return map;
  const int hips = choice.hips;
  const Extent along_up = extents(sk, axis);

  // The spine chain: from the hips' upward branch, always to the child reaching highest.
  std::vector<int> spine;
  for (int j = choice.up; j >= 0;) {
    spine.push_back(j);
    int next = -1;
    for (int c : sk.children[size_t(j)])
      if (next < 0 || along_up.hi[size_t(c)] > along_up.hi[size_t(next)]) next = c;
    j = next;
  }
  const glm::vec3 up =
      glm::normalize(sk.pos[size_t(spine.back())] - sk.pos[size_t(hips)] + 1e-6f * axis);
  // A humanoid stands: its head within 45 degrees of straight above the hips (a quadruped's
  // spine runs level, and the Fox's legs hang from it like a humanoid's).
  if (glm::dot(up, axis) < 0.7071f) return map;

  // Legs: the two downward branches, each followed to its lowest reach.
  const Extent down = extents(sk, -up);
  std::vector<int> legs[2];
  for (int k = 0; k < 2; ++k) {
    int lead = -1;
    legs[k] = limb_chain(sk, down, choice.down[k], &lead);
  }

  // Facing: the feet's toes direction (foot → toes, across the up axis), else the glTF
  // convention (+Z forward). The character's left is up × forward (+X for +Y up, +Z forward).
  glm::vec3 forward(0.0f);
  if (legs[0].size() >= 4 && legs[1].size() >= 4)
    for (const std::vector<int>& leg : legs)
      forward += orthogonal_part(sk.pos[size_t(leg[3])] - sk.pos[size_t(leg[2])], up);
  if (glm::length(forward) < 1e-4f) forward = orthogonal_part(glm::vec3(0, 0, 1), up);
  if (glm::length(forward) < 1e-4f) forward = orthogonal_part(glm::vec3(1, 0, 0), up);
  forward = glm::normalize(forward);
  const glm::vec3 left = glm::cross(up, forward);

  map[HumanBone::Hips] = sk.node[size_t(hips)];
  const glm::vec3 hips_pos = sk.pos[size_t(hips)];
  const bool first_leg_left = glm::dot(centroid(sk, legs[0]) - hips_pos, left) >=
                              glm::dot(centroid(sk, legs[1]) - hips_pos, left);
  const HumanBone leg_parts[2][4] = {
      {HumanBone::LeftUpperLeg, HumanBone::LeftLowerLeg, HumanBone::LeftFoot, HumanBone::LeftToes},
      {HumanBone::RightUpperLeg, HumanBone::RightLowerLeg, HumanBone::RightFoot,
       HumanBone::RightToes}};
  for (int k = 0; k < 2; ++k) {
    const int side = (k == 0) == first_leg_left ? 0 : 1;
    for (size_t i = 0; i < legs[k].size() && i < 4; ++i)
      map[leg_parts[side][i]] = sk.node[size_t(legs[k][i])];
  }

  // Arms: of the branches leaving the spine chain, the one reaching farthest to the left and the
  // one reaching farthest to the right.
  const Extent lateral = extents(sk, left);
  const float centre = glm::dot(hips_pos, left);
  int arm[2] = {-1, -1}, arm_at[2] = {-1, -1};
  for (size_t i = 0; i < spine.size(); ++i)
    for (int c : sk.children[size_t(spine[i])]) {
      if (i + 1 < spine.size() && c == spine[i + 1]) continue;
      if (arm[0] < 0 || lateral.hi[size_t(c)] > lateral.hi[size_t(arm[0])]) {
        arm[0] = c;
        arm_at[0] = int(i);
      }
      if (arm[1] < 0 || lateral.lo[size_t(c)] < lateral.lo[size_t(arm[1])]) {
        arm[1] = c;
        arm_at[1] = int(i);
      }
    }
  int branch = -1;  // the spine chain index the arms leave from
  if (arm[0] >= 0 && arm[1] >= 0 && arm[0] != arm[1] && lateral.hi[size_t(arm[0])] > centre &&
      lateral.lo[size_t(arm[1])] < centre) {
    branch = std::max(arm_at[0], arm_at[1]);
    const HumanBone arm_parts[2][4] = {{HumanBone::LeftShoulder, HumanBone::LeftUpperArm,
                                        HumanBone::LeftLowerArm, HumanBone::LeftHand},
                                       {HumanBone::RightShoulder, HumanBone::RightUpperArm,
                                        HumanBone::RightLowerArm, HumanBone::RightHand}};
    for (int side = 0; side < 2; ++side) {
      const glm::vec3 out = side == 0 ? left : -left;
      int shoulder = -1;
      const std::vector<int> chain = limb_chain(sk, extents(sk, out), arm[side], &shoulder);
      if (shoulder >= 0) map[arm_parts[side][0]] = sk.node[size_t(shoulder)];
      for (size_t i = 0; i < chain.size() && i < 3; ++i)
        map[arm_parts[side][i + 1]] = sk.node[size_t(chain[i])];
    }
  } else {
    branch = int(spine.size()) - 1;  // no arms: the whole chain is torso
  }

  // Torso up to the arms: spine, chest, upper chest; above the arms: neck, head (a single
  // joint there is the head).
  std::vector<int> torso, above;
  for (size_t i = 0; i < spine.size(); ++i) {
    if (sk.twist[size_t(spine[i])]) continue;
    (int(i) <= branch ? torso : above).push_back(spine[i]);
  }
  const HumanBone torso_parts[] = {HumanBone::Spine, HumanBone::Chest, HumanBone::UpperChest};
  for (size_t i = 0; i < torso.size() && i < 3; ++i)
    map[torso_parts[i]] = sk.node[size_t(torso[i])];
  if (above.size() == 1) map[HumanBone::Head] = sk.node[size_t(above[0])];
  if (above.size() >= 2) {
    map[HumanBone::Neck] = sk.node[size_t(above[0])];
    map[HumanBone::Head] = sk.node[size_t(above[1])];
  }
  return map;
}

HumanoidMap find_humanoid(const Model& model, int skin) {
  HumanoidMap map = find_humanoid_by_name(model, skin);
  const HumanoidMap structure = find_humanoid_by_structure(model, skin);
  // The part each part hangs from, nearest first: a part is filled from the structural map only
  // where both maps give the first of these that the name map has the same joint.
  auto parents = [](HumanBone bone) -> std::vector<HumanBone> {
    using H = HumanBone;
    switch (bone) {
      case H::Hips:
        return {};
      case H::Spine:
        return {H::Hips};
      case H::Chest:
        return {H::Spine};
      case H::UpperChest:
        return {H::Chest};
      case H::Neck:
      case H::LeftShoulder:
      case H::RightShoulder:
        return {H::UpperChest, H::Chest};
      case H::Head:
        return {H::Neck, H::UpperChest, H::Chest};
      case H::LeftUpperArm:
        return {H::LeftShoulder, H::UpperChest, H::Chest};
      case H::RightUpperArm:
        return {H::RightShoulder, H::UpperChest, H::Chest};
      case H::LeftUpperLeg:
      case H::RightUpperLeg:
        return {H::Hips};
      default:  // lower arm, hand, lower leg, foot, toes: the part before it; fingers: none
        if (bone >= H::LeftThumb1) return {H::Count};
        return {HumanBone(size_t(bone) - 1)};
    }
  };
  for (size_t i = 0; i < kHumanBoneCount; ++i) {
    const HumanBone bone = HumanBone(i);
    const int candidate = structure[bone];
    if (map[bone] >= 0 || candidate < 0) continue;
    if (std::find(map.node.begin(), map.node.end(), candidate) != map.node.end()) continue;
    bool consistent = true;
    for (HumanBone parent : parents(bone)) {
      if (parent == HumanBone::Count) {
        consistent = false;
        break;
      }
      if (map[parent] < 0) continue;
      consistent = map[parent] == structure[parent];
      break;
    }
    if (consistent) map[bone] = candidate;
  }
  return map;
}

}  // namespace rig
