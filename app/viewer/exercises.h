// The Learn tab's exercises with an answer to check (no ImGui, no GL): read the slerp between
// two keys, and pick the order of the parent and local matrices. The checks ask the engine
// (its channel sampler, the character's world matrices) rather than redo its maths, so what the
// user is told is right is what rigview does.
#pragma once

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "character/character.h"
#include "viewer/viewer_state.h"

namespace rigview {

// The slerp exercise's two keys: a LINEAR rotation channel with key 0 at 0 s the identity and
// key 1 at 1 s 120 degrees about X, read at t = 0.25 s. Its answer is the angle about X.
inline constexpr float kSlerpKeyDegrees = 120.0f;
inline constexpr float kSlerpTime = 0.25f;
inline constexpr float kSlerpToleranceDegrees = 0.5f;

struct SlerpCheck {
  bool right = false;
  float sampled_degrees = 0.0f;          // the engine sampler's rotation angle at kSlerpTime
  float normalized_lerp_degrees = 0.0f;  // what lerping the components and normalizing gives
};

// The engine's sample of the two keys at `time` (rig::sample_channel on a one-channel clip).
glm::quat sample_exercise_keys(float time);
// `answer_degrees` against the sampler's angle, within kSlerpToleranceDegrees.
SlerpCheck check_slerp_answer(float answer_degrees);

// The multiplication-order exercise: choice 0 is world = parent x local (right), 1 is
// world = local x parent. Measured on `character`'s current pose at `node` (a joint with a
// parent): the largest entry of |world - parent x local| and of |world - local x parent|.
struct OrderCheck {
  bool right = false;
  int node = -1;  // the joint measured; -1: the model has no joint with a parent
  float parent_local_error = 0.0f, local_parent_error = 0.0f;
};
OrderCheck check_multiplication_order(const rig::Character& character, int node, int choice);
// The first node with a parent, from `preferred` up (-1: none), the joint the check measures.
int order_exercise_node(const rig::Model& model, int preferred);

// Picking an order shows it: local x parent turns the reversed-multiply mistake on (the
// simulated bug of a product in the wrong order), parent x local turns it off again.
void choose_multiplication_order(ViewerState& state, int choice);

}  // namespace rigview
