// The optimized glTF writer's choice per clip (compress/gltf_writer.h): which keys, which tracks
// as 16-bit integers, which tracks share one form, measured as a glTF player will play them.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/compressed_clip.h"
#include "model/model.h"

namespace rig {

struct GltfWriteOptions {
  bool sixteen_bit = true;    // 16-bit rotations and morph weights where they keep the tolerance
  double tolerance_m = 1e-4;  // E_max allowed for what the file plays (SHORT or float)
  double morph_tolerance = 1e-3;
};

// One clip as it will be written.
struct WrittenChoice {
  bool fits = false;
  std::vector<Channel> channels;
  std::vector<uint8_t> sixteen_bit;         // per channel: outputs as normalized 16-bit integers
  std::vector<int> component_type;          // per channel: FLOAT, SHORT or UNSIGNED_SHORT
  std::vector<std::vector<int16_t>> words;  // per channel: the 16-bit words when flagged
  double e_max = 0.0;
  double key_tolerance_m = 0.0;
  size_t bytes = 0;
};

// How far a rotation error at each node reaches: the largest rest-pose distance from the node to
// itself or any descendant, plus the metric's 3 cm shell. A SHORT-rounded rotation (up to about
// 9e-5 rad off, its length error included) moves points by about that much times the lever, so
// short levers (feet, fingers, tail tips) are the tracks to round first.
std::vector<double> rest_levers(const Model& model);

// The smallest written form of clip `clip` that keeps the tolerance (write_optimized_gltf in
// compress/gltf_writer.h says how it is chosen); fits = false when none does.
WrittenChoice choose_written_keys(const Model& model, int clip, const CompressedClip& given,
                                  const std::vector<double>& levers,
                                  const GltfWriteOptions& options);

// Tracks the file animates identically written in one form, where that measures within the
// tolerance and is smaller (so they can share one output accessor).
void share_equal_tracks(WrittenChoice& best, const Model& model, int clip,
                        const std::vector<double>& levers, const GltfWriteOptions& options);

// E_max of a written clip (`channels` as written_channels gives them: SHORT keys renormalized;
// `words`: the SHORT components of the rotation channels flagged in `sixteen_bit`) played by a
// player that builds matrices from the SHORT keys as stored, without renormalizing them
// (three.js): each such channel's sampled rotation is scaled back by its keys' length,
// interpolated linearly between keys (exact at the keys; between them, first order), so the
// metric sees s²R + (1 − s²)I. 0 when no rotation is SHORT.
double stored_length_e_max(const Model& model, int clip, std::span<const Channel> channels,
                           std::span<const uint8_t> sixteen_bit,
                           std::span<const std::vector<int16_t>> words);

}  // namespace rig
