// Planting on the bundled pair: the A-pose humanoid playing the mannequin's clips. Its legs are
// shorter than the hip ratio makes the mannequin's, so on some frames its leg cannot reach the
// foot's recorded position and the hips must move. Checked with world matrices of our own product:
// the hips move only on frames where a leg ends up at the end of its reach (fully stretched, or
// folded as far as it goes), so they move no more than the leg needs.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "anim/pose.h"
#include "character/bone_map.h"
#include "character/retarget.h"
#include "import/gltf_import.h"

namespace rig {
namespace {

Model load(const std::string& name) {
  Model model;
  std::string error;
  const std::filesystem::path path = std::filesystem::path(RIGVIEW_SOURCE_DIR) / "assets" / name;
  EXPECT_TRUE(import_gltf(path.string(), model, error)) << error;
  return model;
}

std::vector<glm::dvec3> positions_at(const Model& m, const Clip& clip, float time) {
  Pose pose;
  init_rest_pose(m, pose);
  sample_clip(m, clip, time, pose);
  std::vector<glm::dmat4> world(m.nodes.size());
  std::vector<glm::dvec3> out(m.nodes.size());
  for (int n : m.node_order) {
    const glm::dmat4 own(trs_matrix(pose.local[size_t(n)]));
    const int p = m.nodes[size_t(n)].parent;
    world[size_t(n)] = p < 0 ? own : world[size_t(p)] * own;
    out[size_t(n)] = glm::dvec3(world[size_t(n)][3]);
  }
  return out;
}

TEST(RetargetFeet, HipsMoveOnlyWhereALegIsAtTheEndOfItsReach) {
  const Model source = load("mannequin.glb"), target = load("humanoid_apose.glb");
  const BoneMap map =
      make_bone_map(source, find_humanoid(source, -1), target, find_humanoid(target, -1));
  ASSERT_TRUE(check_bone_map(source, target, map).empty());
  const RetargetRig rig = build_retarget_rig(source, target, map);
  using H = HumanBone;
  const H legs[2][3] = {{H::LeftUpperLeg, H::LeftLowerLeg, H::LeftFoot},
                        {H::RightUpperLeg, H::RightLowerLeg, H::RightFoot}};
  int chain[2][3];
  double l1[2], l2[2];
  const std::vector<glm::dvec3> rest = positions_at(target, Clip{}, 0.0f);
  for (int f = 0; f < 2; ++f) {
    for (int k = 0; k < 3; ++k) {
      const int b = rig.bone(legs[f][k]);
      ASSERT_GE(b, 0);
      chain[f][k] = rig.bones[size_t(b)].target;
    }
    l1[f] = glm::length(rest[size_t(chain[f][1])] - rest[size_t(chain[f][0])]);
    l2[f] = glm::length(rest[size_t(chain[f][2])] - rest[size_t(chain[f][1])]);
  }
  const int hips = rig.bones[size_t(rig.hips)].target;
  RetargetSettings off, on;
  on.keep_feet_planted = true;
  size_t moved = 0, solver_moved = 0;
  for (const Clip& clip : source.clips) {
    const Clip free = retarget_clip(source, clip, target, rig, off, nullptr);
    RetargetMeasures m;
    const Clip planted = retarget_clip(source, clip, target, rig, on, &m);
    EXPECT_EQ(m.feet_legs, 2u);
    EXPECT_LE(m.max_foot_slide, 1e-3f) << clip.name;
    solver_moved += m.feet_hips_frames;
    for (float time : retarget_frame_times(clip)) {
      const std::vector<glm::dvec3> a = positions_at(target, free, time);
      const std::vector<glm::dvec3> b = positions_at(target, planted, time);
      if (glm::length(b[size_t(hips)] - a[size_t(hips)]) <= 1e-6 * rig.target.height) continue;
      ++moved;
      bool at_end = false;
      for (int f = 0; f < 2; ++f) {
        const double d = glm::length(b[size_t(chain[f][2])] - b[size_t(chain[f][0])]);
        at_end = at_end || d >= (l1[f] + l2[f]) * (1.0 - 1e-4) ||
                 d <= std::abs(l1[f] - l2[f]) * (1.0 + 1e-4);
      }
      EXPECT_TRUE(at_end) << clip.name << " at " << time;
    }
  }
  EXPECT_GT(moved, 0u);
  EXPECT_LE(moved, solver_moved);
}

}  // namespace
}  // namespace rig
