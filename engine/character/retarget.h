// Retargeting: a clip of one skeleton (the source) played by another (the target), through a
// bone map (character/bone_map.h), with rest-pose differences (A-pose against T-pose, bone
// rolls, armature scales and axes) corrected, the hips' motion scaled to the target's size, and
// optionally the feet kept planted where the source's are.
//
// Per output frame t, for each mapped pair (rest data and the child rule: retarget_rig.h):
//   T(t) = G · D(t) · G⁻¹ · A · T0,   D(t) = S(t) · S0⁻¹
// S the source joint's world rotation (S0 at rest), T0 the target's rest world rotation, G the
// facing alignment, A the rest swing taking the target's rest direction joint → mapped child onto
// G · the source's. So the target's bone points along G · the source's bone at every frame, and
// its twist about the bone follows the source's twist relative to its rest. Where the source's
// child does not stay put in its joint's frame (an animated in-between joint, a translated
// child), a further minimal swing turns G·D·(source rest direction) onto G·(source direction
// now), so the directions still agree. Bones without a mapped child: A = identity. Target local
// rotations follow through the target's hierarchy; unmapped target joints keep their rest local
// transform.
//
// Hips: world position = target rest hips + G · (source hips − source rest hips) · hip_ratio,
// turned back into the hips' local translation through its parent (armature scale included).
//
// Frames: the source clip's frame grid, frame_duration = clip_frame_duration(source clip),
// times start + i·frame_duration for i = 0 .. count−2 and the last frame exactly at end
// (count = ceil((end − start)/frame_duration − 0.05) + 1, so float noise in the key times
// adds no sliver of a frame; one frame for a clip of no length).
//
// Feet (RetargetSettings::keep_feet_planted): the source's foot contacts (anim/foot_contacts.h,
// sampled at the frame grid; feet = the LeftFoot / RightFoot pairs). On the first frame of a
// source contact the target foot's position is recorded in the target's ground frame (which
// moves at hip_ratio · G · the source's ground velocity, so an in-place walk stays in place);
// on the following frames of that contact two-bone IK (upper leg, lower leg, foot of the map;
// the foot keeps its world rotation) holds the foot there. Where a leg cannot reach (its root
// farther from the foot than the two bones' length, or nearer than their difference) and hangs
// from the hips, the hips move first by the shortfall, so the foot still lands: the target's legs
// may be shorter than ratio · the source's, as the ratio is taken at the hips. Contacts switch on
// and off at once (no easing). A foot whose target joint does not hang from its lower leg
// (Quaternius's IK-target feet, children of the root) is not a two-bone chain the IK can move:
// it is placed instead. During a contact its own local translation (through its parent's world
// matrix) puts it at the recorded position, its world rotation as retargeted; outside contacts
// it keeps its rest translation. Its lower leg is not made to follow (the rig's own IK would).
//
// The result is an ordinary Clip on the TARGET's node indices: LINEAR, one rotation channel per
// mapped target joint, a translation channel for the hips and one per placed foot, keyed on the
// frame grid, named as the source clip.
#pragma once

#include <vector>

#include "anim/foot_contacts.h"
#include "character/bone_map.h"
#include "character/retarget_rig.h"
#include "model/model.h"

namespace rig {

struct RetargetSettings {
  bool keep_feet_planted = false;
  // Thresholds for the source's contacts; sample_rate and up are set by the retarget (the
  // frame grid, the source's up).
  FootContactSettings contacts;
};

// Measured on the result, by sampling the produced clip on the target through the ordinary
// sampling and local → world path (not from the solver's numbers); see measure_retarget.
struct RetargetMeasures {
  size_t frames = 0;
  float frame_duration = 0.0f;
  // World-direction error between target (joint → mapped child) and G · source, over every
  // mapped bone with a mapped child and every frame, in degrees.
  size_t direction_bones = 0;
  float max_direction_error_deg = 0.0f;
  float mean_direction_error_deg = 0.0f;
  // The applied hip ratio, and the largest deviation of the target hips' displacement from
  // hip_ratio · G · the source's, relative to the larger of the largest such expected
  // displacement and the target's hip height. With keep_feet_planted it includes the hips'
  // moves that let a short leg reach its planted foot (below).
  float hip_ratio = 1.0f;
  float hip_ratio_error = 0.0f;
  // Foot slide: per frame, the largest displacement since the previous frame of a target foot
  // (in the target's ground frame) while the source foot is in the same contact on both frames,
  // as a fraction of the target's height; 0 outside contacts.
  float target_height = 0.0f;  // model units: RetargetRest::height
  std::vector<float> foot_slide;
  float max_foot_slide = 0.0f;
  size_t contact_frames = 0;  // frames with a source foot in contact
  // From the solver, not measured: frames on which the hips moved so a leg could reach its
  // planted foot (keep_feet_planted only; 0 when the legs reach on their own).
  size_t feet_hips_frames = 0;
  // From the solver: how many feet (0–2) planting drives through their legs (keep_feet_planted
  // only; a foot that does not hang from its lower leg is placed instead, below).
  size_t feet_legs = 0;
  // From the solver: how many feet (0–2) planting places by their own translation (a foot
  // joint that does not hang from its lower leg; keep_feet_planted only).
  size_t feet_placed = 0;
};

// The frame grid above, for `clip`.
std::vector<float> retarget_frame_times(const Clip& clip);

// Retargets `source_clip` (node indices of `source`) onto `target`. An empty clip (no channels)
// when `map` fails check_bone_map. `measures`, when given, are filled by measure_retarget.
// Allocates the output and its buffers once; the per-frame loop allocates nothing.
Clip retarget_clip(const Model& source, const Clip& source_clip, const Model& target,
                   const BoneMap& map, const RetargetSettings& settings,
                   RetargetMeasures* measures);
// The same on a rig built once (build_retarget_rig) for many clips of one pairing.
Clip retarget_clip(const Model& source, const Clip& source_clip, const Model& target,
                   const RetargetRig& rig, const RetargetSettings& settings,
                   RetargetMeasures* measures);

// The source's foot contacts on the frame grid, for the LeftFoot / RightFoot pairs of `rig`
// (both needed: an empty FootContacts otherwise). Allocates.
FootContacts retarget_foot_contacts(const Model& source, const Clip& source_clip,
                                    const RetargetRig& rig, const RetargetSettings& settings);

// The contact run (index into FootContactTrack::runs) foot `foot` is in at `time`, -1 when none:
// the contact sample nearest `time`.
int contact_run(const FootContacts& contacts, size_t foot, float time);

// The measures of `target_clip` (a retarget of `source_clip`) on the two models, sampling both
// clips at the frame grid of `source_clip`. `contacts`: the source's (retarget_foot_contacts),
// or empty for no foot slide.
RetargetMeasures measure_retarget(const Model& source, const Clip& source_clip, const Model& target,
                                  const Clip& target_clip, const RetargetRig& rig,
                                  const FootContacts& contacts);

}  // namespace rig
