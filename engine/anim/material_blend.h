// Blending of material poses (anim/material_pose.h), the material side of what BlendingJob does
// for node poses: every animatable value of a material (the factors and each texture slot's
// offset, rotation and scale) is a vector of floats, blended component by component:
//
//   crossfade / override  out = a + (b − a)·w          (w = 0 gives a back bit for bit)
//   additive              out = base + (value − reference)·w
//
// linearly for every value, texture rotation (radians) and scale included: a texture transform
// is drawn from its offset, rotation and scale, so blending those gives what a clip keyed
// between the two would show. Only the materials a pose marks animated are written; the others
// hold the file's values in every pose of one model anyway. The weight is clamped to [0, 1]
// (NaN reads 0), as BlendLayer's. A texture slot's texCoord override is not animatable: out
// keeps its own.
//
// An additive difference can leave the ranges glTF allows; clamp_material_pose() puts the values
// back (Character calls it after the whole material stage, whichever path made the values).
//
// Every pose passed must come from init_material_pose for the same model and clip set (same
// size, same animated flags). Pure, no allocation.
#pragma once

#include "anim/material_pose.h"

namespace rig {

// out = a + (b − a)·weight per animated material. `out` may be `a` or `b`.
void blend_material_poses(const MaterialPose& a, const MaterialPose& b, float weight,
                          MaterialPose& out);

// out = base + (value − reference)·weight per animated material. `out` may be any of the inputs.
void add_material_difference(const MaterialPose& base, const MaterialPose& value,
                             const MaterialPose& reference, float weight, MaterialPose& out);

// Puts `f` in the ranges the renderer and glTF expect: base colour, metallic, roughness and
// occlusion strength in [0, 1]; emissive factor, emissive strength, alpha cutoff, specular and
// specular colour >= 0; ior >= 1 (a sampled ior of 0 is already 1000). The normal scale and the
// texture transforms have no range. NaN reads as the range's lower end.
void clamp_material_factors(MaterialFactors& f);

// clamp_material_factors on every animated material of `pose`.
void clamp_material_pose(MaterialPose& pose);

// Copies the values of every animated material of `from` into `to` (no allocation: both from
// init_material_pose for one model): the starting point of an override layer, so a value its
// clip does not animate is the result so far, which the blend then gives back unchanged.
void copy_material_pose(const MaterialPose& from, MaterialPose& to);

}  // namespace rig
