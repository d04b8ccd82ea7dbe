// Foot contacts of a clip: when each foot is planted, and where.
//
// detect_foot_contacts() samples the clip at a fixed rate (once, allocating; not per frame) and
// tracks the world position of each foot joint (the ankle) in model space, as the clip plays
// with the given root-motion handling. A clip played in place still walks over ground that slides
// backwards under it, so contacts are judged in the GROUND FRAME, which moves with the
// character at `ground_velocity`:
//   first guess g = −(median horizontal velocity of the feet over the samples where they are
//                     within height_tolerance of their lowest);
//   ground_velocity = the multiple s·g, s ∈ [0, 2] in steps of 0.05, under which the most samples
//                     are contacts (ties: nearest g) — a walk's stance speed is seldom constant,
//                     and the mode copes with that better than the median
// — about the walking speed for an in-place clip, about 0 for a clip whose root carries the
// motion. A sample is a contact when the foot is within height_tolerance of its lowest height in
// the clip AND its speed in the ground frame is below speed_threshold; runs of contacts shorter
// than min_contact_time are dropped.
//
// Contacts form runs (looping clips join a run across the end back to the start). Each run has
// one lock position: the mean ground-frame position of the foot over the run. The target for
// IK at clip time t inside a run is that lock moved back into model space,
//   lock − ground_velocity · (t − clip.start)   (t unrolled across the loop for a joined run),
// so the foot stands still on the ground for the whole run.
#pragma once

#include <cstdint>
#include <glm/glm.hpp>
#include <span>
#include <vector>

#include "anim/root_motion.h"
#include "model/model.h"

namespace rig {

// Thresholds are in LEG LENGTHS, so one setting fits a 1.8 m mannequin and a fox authored in
// centimetres alike: a foot's leg length is the length of its two-bone chain (grandparent →
// parent → foot) in the clip's first sample.
struct FootContactSettings {
  float sample_rate = 60.0f;       // samples per second over the clip
  float speed_threshold = 1.0f;    // leg lengths per second, in the ground frame
  float height_tolerance = 0.03f;  // leg lengths above the foot's lowest height in the clip
  float min_contact_time = 0.05f;  // seconds; shorter runs are dropped as noise
  glm::vec3 up{0.0f, 1.0f, 0.0f};  // model space
  bool looping = true;             // join a run at the end with one at the start
  // The clip as it will be played (InPlace or Extract make the pose in place first); nullptr
  // or Keep: as authored.
  const RootMotionClip* root_motion = nullptr;
};

struct FootContactTrack {
  int foot = -1;                     // node
  float lowest = 0.0f;               // lowest height over the clip
  float leg_length = 0.0f;           // model units (see FootContactSettings)
  std::vector<glm::vec3> positions;  // per sample, model space
  std::vector<uint8_t> contact;      // per sample: 1 in contact
  std::vector<int> run;              // per sample: index into runs, −1 outside contacts
  struct Run {
    int first = 0, count = 0;  // samples; a joined run may wrap past the last sample
    glm::vec3 lock{0.0f};      // ground-frame position (model space at the clip's start)
  };
  std::vector<Run> runs;
};

struct FootContacts {
  int clip = -1;
  float start = 0.0f, end = 0.0f, sample_rate = 60.0f;
  bool looping = true;  // samples cover [start, end) and runs may wrap
  glm::vec3 up{0.0f, 1.0f, 0.0f};
  glm::vec3 ground_velocity{0.0f};  // model space, per second
  std::vector<float> times;         // sample times (shared by every foot)
  std::vector<FootContactTrack> feet;

  // Ground-frame position of model-space point `p` at clip time `time`: p + v·(time − start).
  glm::vec3 to_ground(glm::vec3 p, float time) const {
    return p + ground_velocity * (time - start);
  }
  // Whether foot `f` is planted at `time`, and the model-space target that keeps it still.
  bool target(size_t f, float time, glm::vec3& out) const;
  // The same for a time `lead` seconds before the run begins or after it ends (for easing IK
  // in and out around a contact): the nearest run within `lead`, and how far from it (0 inside).
  bool nearest_target(size_t f, float time, float lead, glm::vec3& out, float& distance) const;
};

FootContacts detect_foot_contacts(const Model& model, int clip, std::span<const int> feet,
                                  const FootContactSettings& settings = {});

// Foot slip: how far a planted foot moves over the ground: the largest distance, over every run
// of every foot, between a contact sample's ground-frame position and that of the run's first
// sample, given model-space foot positions per sample (one vector per foot, contacts.times.size()
// each). Pass each track's own positions for the slip as animated.
float max_contact_slip(const FootContacts& contacts,
                       std::span<const std::vector<glm::vec3>> positions);

// Model-space world matrices of `clip` at `time` (sampled, root motion applied): a test and
// analysis helper, allocating.
std::vector<glm::mat4> clip_world_matrices(const Model& model, int clip, float time,
                                           const RootMotionClip* root_motion = nullptr);

}  // namespace rig
