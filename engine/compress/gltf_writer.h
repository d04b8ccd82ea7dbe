// Writes a copy of a glTF file with its animations replaced by key-reduced keys (the future
// `--optimize-animations OUT.glb`). Everything else (meshes, skins, images, nodes) is the
// file's own. Output is always GLB.
//
// Per clip, each compressed track becomes one sampler + channel: input = the kept key times
// (float), output = translation / scale / weights as float, rotation as normalized SHORT VEC4
// (core glTF 2.0 allows it) where that keeps the tolerance, else float. Interpolation LINEAR, or
// STEP where the track steps; channels with equal key times share one input accessor. A glTF
// player slerps between keys as CompressedClip does, but computes the segment fraction from the
// float key times; the SHORT rounding adds to the compressor's error. The writer measures what
// the file will play and reports it (WrittenClip).
//
// The old animation accessors are kept as accessors without a bufferView (zeros, as the spec
// allows), so no index elsewhere changes; the bufferViews only they used are removed and the
// binary buffer repacked, when the file has a single buffer (else left in place).
#pragma once

#include <string>
#include <vector>

#include "anim/compressed_clip.h"
#include "model/model.h"

namespace rig {

struct GltfWriteOptions {
  bool short_rotations = true;  // normalized SHORT rotations where they keep the tolerance
  double tolerance_m = 1e-4;    // E_max allowed for what the file plays (SHORT or float)
  double morph_tolerance = 1e-3;
};

struct WrittenClip {
  bool short_rotations = false;  // the clip's rotations went out as normalized SHORT
  double e_max = 0.0;            // the metric of the written keys (as a glTF player samples them)
  bool replaced = false;         // false: the file's own animation was kept (see below)
};

// `clips`: one per Model::clips entry of `model` (imported from `in_path`), in order; nullptr
// keeps that animation as it is. Per clip, rotations are written as SHORT when the keys as the
// file will hold them (SHORT-rounded, renormalized, spec-sampled) keep E_max ≤ tolerance_m, else
// as float; should even those exceed it (a player's rounding differs from the runtime clip's),
// the clip is recompressed at 0.9×, 0.81×, 0.73× the tolerance, and failing that the file's own
// animation is kept. So every written clip measures ≤ tolerance_m.
// Returns false with a one-line `error`. `report`: per clip, what was written.
bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options = {},
                          std::vector<WrittenClip>* report = nullptr);

// The channels a written clip holds: reduced_channels with rotations SHORT-rounded (optional)
// and renormalized as the importer does.
std::vector<Channel> written_channels(const CompressedClip& clip, const Model& model,
                                      bool short_rotations);

}  // namespace rig
