// Writes a copy of a glTF file with its animations replaced by key-reduced keys (the future
// `--optimize-animations OUT.glb`). Everything else (meshes, skins, images, nodes) is the
// file's own. Output is always GLB.
//
// Per clip, each compressed track becomes one sampler + channel: input = the kept key times
// (float), output = translation / scale / weights as float, rotation as normalized SHORT VEC4
// (core glTF 2.0 allows it) per track where that keeps the tolerance, else float. Interpolation
// LINEAR, or STEP where the track steps; channels with equal key times share one input accessor. A
// glTF player slerps between keys as CompressedClip does, but computes the segment fraction from
// the float key times; the SHORT rounding adds to the compressor's error. The writer measures what
// the file will play and reports it (WrittenClip).
//
// The old animation accessors are kept as accessors without a bufferView (zeros, as the spec
// allows), so no index elsewhere changes; the bufferViews only they used are removed and the
// binary buffer repacked, when the file has a single buffer (else left in place).
#pragma once

#include <cstdint>
#include <span>
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
  bool short_rotations = false;  // some of the clip's rotation tracks went out as normalized SHORT
  int short_tracks = 0;          // rotation tracks stored as SHORT
  int rotation_tracks = 0;       // rotation tracks written
  double key_tolerance_m = 0.0;  // the tolerance the keys were reduced with (≤ tolerance_m)
  size_t bytes = 0;              // the clip's animation accessors (written_bytes)
  double e_max = 0.0;            // the metric of the written keys (as a glTF player samples them)
  bool replaced = false;         // false: the file's own animation was kept (see below)
};

// `clips`: one per Model::clips entry of `model` (imported from `in_path`), in order; nullptr
// keeps that animation as it is. Per clip the writer picks the smallest form whose keys, as the
// file will hold them (SHORT-rounded where chosen, renormalized, spec-sampled), keep E_max ≤
// tolerance_m: the given keys, or keys recompressed at ½ and ¼ of the tolerance (room for SHORT
// rounding), each with the rotation tracks of the shortest levers (rest_levers in the .cpp) as
// SHORT — all of them, or the longest prefix of that order that fits — and the rest as float.
// Should even all-float keys exceed it (a player's rounding differs from the runtime clip's),
// the clip is recompressed at 0.9×, 0.81×, 0.73× the tolerance, and failing that the file's own
// animation is kept. So every written clip measures ≤ tolerance_m. The file's own animation is
// kept too where its accessors are already no more bytes than the chosen form (an optimizer never
// grows a clip). Written channels span the clip's time range as the file's did (a player's clip
// length), and a clip whose every track is at rest keeps one channel holding the rest value.
// Returns false with a one-line `error`. `report`: per clip, what was written.
bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options = {},
                          std::vector<WrittenClip>* report = nullptr);

// The channels a written clip holds: reduced_channels with the rotations of the channels flagged
// in `short_rotation` (one flag per channel; missing flags = float) SHORT-rounded, and every
// rotation renormalized as the importer does.
std::vector<Channel> written_channels(const CompressedClip& clip, const Model& model,
                                      std::span<const uint8_t> short_rotation);
// The normalized SHORT rotation (k/32767 per component) closest in angle to the unit quaternion
// q among the 256 whose components lie within 2 of q·32767 (rounding each component to nearest
// is often not it).
void nearest_short_rotation(const float* q, int16_t* out);
// Rounds one rotation channel's keys to their nearest SHORT rotation (optional; the SHORT
// components go to `shorts` when given) and renormalizes them, as the importer will.
void round_rotations(Channel& ch, bool short_rotations, std::vector<int16_t>* shorts = nullptr);
// Bytes of a clip's animation accessors as the writer stores them: key times once per distinct
// set, values as float, rotations flagged in `short_rotation` as SHORT.
size_t written_bytes(std::span<const Channel> channels, std::span<const uint8_t> short_rotation);

}  // namespace rig
