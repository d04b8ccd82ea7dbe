// Keys as an optimized glTF file holds them: rotations as normalized SHORT (the lattice point
// that is closest for both kinds of player), morph weights as normalized 16-bit integers, one
// hemisphere per rotation track, and the bytes a clip's accessors take (compress/gltf_writer.h
// writes them).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "anim/compressed_clip.h"
#include "model/model.h"

namespace rig {

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
