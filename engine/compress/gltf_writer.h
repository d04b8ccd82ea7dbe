// Writes a copy of a glTF file with its animations replaced by key-reduced keys
// (`--optimize-animations OUT.glb`). Everything else (meshes, skins, images, nodes) is the
// file's own. Output is always GLB.
//
// Per clip, each compressed track becomes one sampler + channel: input = the kept key times
// (float), output = translation / scale as float (core glTF allows nothing else), rotation as
// normalized SHORT VEC4 per track where that keeps the tolerance, else float, morph weights as
// normalized UNSIGNED_SHORT (all in [0, 1]) or SHORT (in [−1, 1]) where that keeps the morph
// tolerance, else float. Interpolation LINEAR, or STEP where the track steps. Channels with equal
// key times share one input accessor, and equal outputs share one output accessor (an instanced
// skeleton's tracks, written in one form for that: share_equal_tracks in the .cpp). A glTF player
// slerps between keys as CompressedClip does, but computes the segment fraction from the float
// key times; the 16-bit rounding adds to the compressor's error. The writer measures what the
// file will play and reports it (WrittenClip).
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
  bool sixteen_bit = true;    // 16-bit rotations and morph weights where they keep the tolerance
  double tolerance_m = 1e-4;  // E_max allowed for what the file plays (SHORT or float)
  double morph_tolerance = 1e-3;
};

struct WrittenClip {
  bool short_rotations = false;  // some of the clip's rotation tracks went out as normalized SHORT
  int short_tracks = 0;          // rotation tracks stored as SHORT
  int rotation_tracks = 0;       // rotation tracks written
  double key_tolerance_m = 0.0;  // the tolerance the keys were reduced with (≤ tolerance_m)
  size_t bytes = 0;              // the clip's animation accessors (written_bytes)
  int weight_tracks = 0;         // morph-weight tracks written
  int sixteen_bit_weight_tracks = 0;  // of those, stored as normalized 16-bit integers
  int shared_outputs = 0;  // channels whose output accessor another channel wrote (any clip)
  double e_max = 0.0;      // the metric of the written keys as a glTF player samples them (the
                           // larger of a player that renormalizes SHORT keys and one that does not)
  bool replaced = false;   // false: the file's own animation was kept (see below)
};

// `clips`: one per Model::clips entry of `model` (imported from `in_path`), in order; nullptr
// keeps that animation as it is. Per clip the writer picks the smallest form whose keys, as the
// file will hold them (16-bit-rounded where chosen, renormalized, spec-sampled), keep E_max ≤
// tolerance_m — for a player that renormalizes SHORT keys and for one that does not (three.js;
// stored_length_e_max) — and the morph error ≤ morph_tolerance: the given keys, or keys
// recompressed at ½ and ¼ of the tolerances (room for rounding), each with its morph weights 16-bit
// where they fit and the rotation tracks of the shortest levers (rest_levers in the .cpp) as SHORT
// — all of them, or the longest prefix of that order that fits — and the rest as float. Tracks the
// file animates identically then take one form where that fits and is smaller (shared accessors).
// Should even all-float keys exceed it (a player's rounding differs from the runtime clip's),
// the clip is recompressed at 0.9×, 0.81×, 0.73× the tolerance, and failing that the file's own
// animation is kept. So every written clip measures ≤ tolerance_m. The file's own animation is
// kept too where its accessors are already no more bytes than the chosen form (an optimizer never
// grows a clip). Written channels span the clip's time range as the file's did (a player's clip
// length), and a clip whose every track is at rest keeps one channel holding the rest value.
// Returns false with a one-line `error`. `report`: per clip, what was written. `sizes`: the
// bytes of the accessors the file's animations use, each accessor once, before and after.
struct WrittenSizes {
  size_t before = 0;
  size_t after = 0;
};
bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options = {},
                          std::vector<WrittenClip>* report = nullptr,
                          WrittenSizes* sizes = nullptr);

// E_max of a written clip (`channels` as written_channels gives them: SHORT keys renormalized;
// `words`: the SHORT components of the rotation channels flagged in `sixteen_bit`) played by a
// player that builds matrices from the SHORT keys as stored, without renormalizing them
// (three.js): each such channel's sampled rotation is scaled back by its keys' length,
// interpolated linearly between keys (exact at the keys; between them, first order), so the
// metric sees s²R + (1 − s²)I. 0 when no rotation is SHORT.
double stored_length_e_max(const Model& model, int clip, std::span<const Channel> channels,
                           std::span<const uint8_t> sixteen_bit,
                           std::span<const std::vector<int16_t>> words);

// The channels a written clip holds: reduced_channels with the channels flagged in `sixteen_bit`
// (one flag per channel; missing flags = float; flags on tracks that cannot be 16-bit are
// ignored) rounded as the file will hold them, and every rotation renormalized as the importer
// does.
std::vector<Channel> written_channels(const CompressedClip& clip, const Model& model,
                                      std::span<const uint8_t> sixteen_bit);
// How far a SHORT rotation c (components k/32767) is from the unit quaternion q, in radians of
// lever: the angle of the rotation between them (what a player that renormalizes keys is off)
// plus 2|1 − |c|²|·sin(θ/2), θ = q's rotation angle (what a player that builds the matrix from c
// as it is, like three.js, adds: s²R + (1 − s²)I moves a point at distance d by
// |1 − s²|·2 sin(θ/2)·d at most).
double short_rotation_cost(const float* q, const double* c);
// The normalized SHORT rotation closest to the unit quaternion q by short_rotation_cost among
// the 256 whose components lie within 2 of q·32767 (rounding each component to nearest is often
// not it, and the closest in angle alone can be 4× further for a player that does not
// renormalize).
void nearest_short_rotation(const float* q, int16_t* out);
// Rounds one rotation channel's keys to their nearest SHORT rotation (optional; the SHORT
// components go to `shorts` when given), renormalizes them, as the importer will, and keeps
// them in one hemisphere (keep_one_hemisphere).
void round_rotations(Channel& ch, bool short_rotations, std::vector<int16_t>* shorts = nullptr);
// Negates every LINEAR or STEP rotation key whose 4D dot product with the key before it is
// negative (and its SHORT components, when given): the same rotations, but a player whose slerp
// does not take the shortest path (some do not) then plays them as one that does. Called by
// round_rotations. Other tracks are left alone.
void keep_one_hemisphere(Channel& ch, std::vector<int16_t>* shorts = nullptr);
// Whether a track may go out as normalized 16-bit integers: rotations always; morph weights
// (LINEAR or STEP) when every value lies in [−1, 1]; translation and scale never (core glTF).
bool sixteen_bit_allowed(const Channel& ch);
// Rounds a morph-weight track to normalized 16-bit values, held as the importer decodes them
// (c/65535, or max(c/32767, −1)): UNSIGNED_SHORT when no weight is negative, else SHORT (values
// clamped to the type's range). The words written go to `words` when given (UNSIGNED_SHORT's
// bits stored in int16_t). Returns the glTF component type.
int round_weights(Channel& ch, std::vector<int16_t>* words = nullptr);
// Bytes of a clip's animation accessors as the writer stores them: key times once per distinct
// set, equal outputs (same path, same form, same values) once, values as float, or 2 bytes per
// value for the tracks flagged in `sixteen_bit` that sixteen_bit_allowed.
size_t written_bytes(std::span<const Channel> channels, std::span<const uint8_t> sixteen_bit);

}  // namespace rig
