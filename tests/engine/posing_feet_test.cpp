// Feet on the ground: contact detection on a clip and IK chains locked to the contacts. The
// slip is measured from the world positions the Character produces, in the ground frame the
// detection reports (an in-place walk's ground slides back under it at ground_velocity).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "anim/foot_contacts.h"
#include "anim/joint_mask.h"
#include "character/character.h"
#include "character/feet_on_ground.h"
#include "character/pose_stack.h"
#include "import/gltf_import.h"
#include "test_support.h"

namespace rig {
namespace {

int clip_index(const Model& m, const std::string& name) {
  for (size_t i = 0; i < m.clips.size(); ++i)
    if (m.clips[i].name == name) return int(i);
  return -1;
}

struct Slip {
  float before = 0.0f, after = 0.0f;
  float worst_bone_change = 0.0f;
  size_t contact_samples = 0, samples = 0;
};

// Plays every detection sample through a Character with the feet IK on; returns the slip as
// animated and with IK, in model units.
Slip measure(const Model& m, int clip, const std::vector<int>& feet_nodes) {
  FeetOnGround feet(m, clip, feet_nodes);
  const FootContacts& contacts = feet.contacts();
  Character plain(m), character(m);
  std::vector<PoseConstraint*> constraints(feet.constraints().begin(), feet.constraints().end());
  character.set_constraints(constraints);
  std::vector<std::vector<glm::vec3>> with_ik(feet_nodes.size()), animated(feet_nodes.size());
  Slip s;
  for (float t : contacts.times) {
    feet.update(t);
    character.evaluate(PoseSelection{clip, t});
    plain.evaluate(PoseSelection{clip, t});
    for (size_t f = 0; f < feet_nodes.size(); ++f) {
      const int foot = feet_nodes[f];
      with_ik[f].push_back(glm::vec3(character.world()[size_t(foot)][3]));
      animated[f].push_back(glm::vec3(plain.world()[size_t(foot)][3]));
      // Bone lengths of the chain are the animated ones.
      const int mid = m.nodes[size_t(foot)].parent, root = m.nodes[size_t(mid)].parent;
      for (auto [a, b] : {std::pair{root, mid}, std::pair{mid, foot}}) {
        const float lengths[2] = {
            glm::length(
                glm::vec3(character.world()[size_t(a)][3] - character.world()[size_t(b)][3])),
            glm::length(glm::vec3(plain.world()[size_t(a)][3] - plain.world()[size_t(b)][3]))};
        s.worst_bone_change = std::max(s.worst_bone_change, std::abs(lengths[0] - lengths[1]));
      }
    }
  }
  s.before = max_contact_slip(contacts, animated);
  s.after = max_contact_slip(contacts, with_ik);
  s.samples = contacts.times.size() * feet_nodes.size();
  for (const FootContactTrack& t : contacts.feet)
    for (uint8_t c : t.contact) s.contact_samples += c;
  // The tracks' own positions are what the plain Character shows.
  for (size_t f = 0; f < feet_nodes.size(); ++f)
    for (size_t i = 0; i < animated[f].size(); ++i)
      EXPECT_LT(glm::length(animated[f][i] - contacts.feet[f].positions[i]), 1e-5f);
  return s;
}

TEST(PosingFeet, MannequinWalkFeetStayPutDuringContacts) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error))
      << error;
  const int walk = clip_index(m, "Walk");
  ASSERT_GE(walk, 0);
  const std::vector<int> feet = {find_node(m, "LeftFoot"), find_node(m, "RightFoot")};
  ASSERT_GE(feet[0], 0);
  ASSERT_GE(feet[1], 0);

  const FootContacts contacts = detect_foot_contacts(m, walk, feet);
  // An in-place walk towards +Z: the ground slides back, so the character moves forward.
  EXPECT_GT(contacts.ground_velocity.z, 0.3f);
  EXPECT_LT(std::abs(contacts.ground_velocity.x), 0.05f);
  for (const FootContactTrack& t : contacts.feet) {
    EXPECT_EQ(t.runs.size(), 1u) << "one stance per foot per cycle";
    size_t planted = 0;
    for (uint8_t c : t.contact) planted += c;
    // A stance phase, not a blip and not the whole cycle (this procedural walk's ankle is still
    // and low for about a quarter of the cycle, before the heel lifts).
    EXPECT_GT(planted, t.contact.size() / 5);
    EXPECT_LT(planted, t.contact.size() * 6 / 10);
  }
  // The feet alternate: no more than a brief double support.
  size_t both = 0;
  for (size_t i = 0; i < contacts.times.size(); ++i)
    both += contacts.feet[0].contact[i] && contacts.feet[1].contact[i];
  EXPECT_LT(both, contacts.times.size() / 4);

  const Slip s = measure(m, walk, feet);
  std::printf(
      "[ posing ] mannequin Walk: foot slip during contacts %.3f mm as animated, %.4f mm "
      "with feet-on-ground IK (%zu of %zu foot samples planted)\n",
      s.before * 1e3f, s.after * 1e3f, s.contact_samples, s.samples);
  RecordProperty("slip_before_mm", std::to_string(s.before * 1e3f));
  RecordProperty("slip_after_mm", std::to_string(s.after * 1e3f));
  EXPECT_LT(s.after, 1e-3f);  // < 1 mm
  EXPECT_GT(s.before, s.after);
  EXPECT_LT(s.worst_bone_change, 1e-5f);
}

// The viewer recipe for an in-place clip: move the character forward at the ground velocity
// (a placement on the root) and hand the same placement to the feet: planted feet then stand
// still in the world, over three loops.
TEST(PosingFeet, InPlaceWalkMovedAtGroundSpeedWalksOverAStillFloor) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error));
  const int walk = clip_index(m, "Walk");
  const std::vector<int> feet_nodes = {find_node(m, "LeftFoot"), find_node(m, "RightFoot")};
  FeetOnGround feet(m, walk, feet_nodes);
  const FootContacts& contacts = feet.contacts();
  Character character(m);
  std::vector<PoseConstraint*> constraints(feet.constraints().begin(), feet.constraints().end());
  character.set_constraints(constraints);
  PoseStack stack(character);
  stack.placement_node = default_root_motion_node(m);
  ASSERT_EQ(m.nodes[size_t(stack.placement_node)].name, "Hips");
  const float dt = 1.0f / contacts.sample_rate;
  const size_t n = contacts.times.size();
  // Where each foot was planted in the world when its current contact began.
  std::vector<glm::vec3> planted(feet_nodes.size());
  std::vector<bool> was_planted(feet_nodes.size(), false);
  float worst = 0.0f, travelled = 0.0f;
  for (size_t k = 0; k < 3 * n; ++k) {
    const size_t i = k % n;
    stack.placement.translation = contacts.ground_velocity * (dt * float(k));
    stack.base = {walk, contacts.times[i]};
    feet.update(contacts.times[i], &stack.placement);
    character.evaluate(stack);
    for (size_t f = 0; f < feet_nodes.size(); ++f) {
      const glm::vec3 p(character.world()[size_t(feet_nodes[f])][3]);
      const bool now = contacts.feet[f].contact[i] != 0;
      if (now && !was_planted[f]) planted[f] = p;
      if (now) worst = std::max(worst, glm::length(p - planted[f]));
      was_planted[f] = now;
    }
    travelled = glm::length(stack.placement.translation);
  }
  std::printf(
      "[ posing ] mannequin Walk moved at %.3f m/s: planted feet move %.4f mm in the "
      "world over %.2f m\n",
      glm::length(contacts.ground_velocity), worst * 1e3f, travelled);
  EXPECT_GT(travelled, 2.0f);
  EXPECT_LT(worst, 1e-3f);
}

TEST(PosingFeet, TurnedOffOrOutsideContactsThePoseIsUntouched) {
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf(std::string(RIGVIEW_SOURCE_DIR) + "/assets/mannequin.glb", m, error));
  const int walk = clip_index(m, "Walk");
  const std::vector<int> feet_nodes = {find_node(m, "LeftFoot"), find_node(m, "RightFoot")};
  FeetOnGround feet(m, walk, feet_nodes);
  feet.enabled = false;
  Character plain(m), character(m);
  std::vector<PoseConstraint*> constraints(feet.constraints().begin(), feet.constraints().end());
  character.set_constraints(constraints);
  for (float t : {0.1f, 0.5f, 0.9f}) {
    feet.update(t);
    character.evaluate(PoseSelection{walk, t});
    plain.evaluate(PoseSelection{walk, t});
    EXPECT_EQ(std::memcmp(plain.world().data(), character.world().data(),
                          m.nodes.size() * sizeof(glm::mat4)),
              0);
  }
}

TEST(PosingFeetCorpus, FoxWalkSlipBeforeAndAfter) {
  RIG_REQUIRE_CORPUS(corpus);
  Model m;
  std::string error;
  ASSERT_TRUE(import_gltf((corpus / "Fox" / "Fox.glb").string(), m, error)) << error;
  const int walk = clip_index(m, "Walk");
  ASSERT_GE(walk, 0);
  // Four paws: the hind legs' toe joints and the front legs' hands.
  const std::vector<int> feet = {find_node(m, "b_LeftFoot02_018"),
                                 find_node(m, "b_RightFoot02_022"), find_node(m, "b_LeftHand_011"),
                                 find_node(m, "b_RightHand_08")};
  for (int f : feet) ASSERT_GE(f, 0);
  const FootContacts contacts = detect_foot_contacts(m, walk, feet);
  for (const FootContactTrack& t : contacts.feet) EXPECT_GE(t.runs.size(), 1u);
  const Slip s = measure(m, walk, feet);
  const float leg = contacts.feet[0].leg_length;
  std::printf(
      "[ posing ] Fox Walk: ground speed %.2f units/s, leg %.2f units; foot slip during "
      "contacts %.4f units (%.2f%% of a leg) as animated, %.6f units with IK (%zu of %zu "
      "paw samples planted)\n",
      glm::length(contacts.ground_velocity), leg, s.before, 100.0f * s.before / leg, s.after,
      s.contact_samples, s.samples);
  RecordProperty("slip_before_units", std::to_string(s.before));
  RecordProperty("slip_after_units", std::to_string(s.after));
  EXPECT_LT(s.after, 1e-4f * leg);
  EXPECT_GT(s.before, s.after);
}

}  // namespace
}  // namespace rig
