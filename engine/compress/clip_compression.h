// Offline clip compression with a guaranteed error (the metric of compress/clip_error.h).
//
// 1. Frames. On a key grid (every key within ±1e-4 s of t_start + k/f) the frames are the
//    metric's sample times; otherwise (or for CUBICSPLINE keys on a grid slower than 30 Hz) an
//    explicit table: the metric's times ∪ every key time ∪ a 60 Hz grid when a channel is
//    CUBICSPLINE. Every channel is resampled exactly (spec sampling) at every frame, so the
//    frames hold the raw clip's values and every metric sample time is a frame. CUBICSPLINE
//    becomes LINEAR at these frames; STEP stays STEP.
// 2. Key reduction, per track, greedily, in object space: a key (or the whole track → the rest
//    value, or all but one key → a constant) is dropped only when the metric of the whole
//    current lossy skeleton — every track's reduction so far, accumulated down the chains —
//    stays within the stage's budget at every frame (checked at the metric's joints plus every
//    animated node). Budgets rise in stages (a share of the tolerance), so early tracks do not
//    eat it all.
// 3. Quantization: per track the fewest bits (one width for all components, 1…20, then each
//    component lowered on its own) that keep the same whole-skeleton check, range-reduced over
//    the track's keys; rotations smallest-three; float32 where that is smaller.
// 4. Three budget strategies (shares for the stages, parents or children first) are run and the
//    smallest result that holds is kept.
// 5. Guarantee: each runtime clip is measured with the metric (measure_clip_error); while E_max
//    exceeds the tolerance (float rounding between the check and the runtime, or the morph
//    bound), everything is redone with budgets scaled by 0.6; the last resort stores every
//    frame as float32, which reproduces the raw values at every sample time.
// Morph weights: tracks of their own, checked against morph_tolerance (largest |Δweight|).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "anim/compressed_clip.h"
#include "compress/clip_error.h"
#include "model/model.h"

namespace rig {

struct CompressionSettings {
  double tolerance_m = 1e-4;      // E_max bound, metres (default 0.01 cm)
  double morph_tolerance = 1e-3;  // largest |raw − lossy| morph weight
  bool measure_vertices = true;   // the report's LBS vertex displacement (a skinning pass/sample)
  bool quantize = true;           // false: key reduction only, float32 keys
};

struct ClipSizes {
  uint64_t raw_bytes = 0;         // 40 B × J × N (ACL's convention: 10 float32 per joint/sample)
  uint64_t file_bytes = 0;        // the clip's sampler accessors (clip_file_bytes)
  uint64_t compressed_bytes = 0;  // CompressedClip::byte_size()
  double ratio() const { return compressed_bytes ? double(raw_bytes) / compressed_bytes : 0.0; }
  double file_ratio() const {
    return compressed_bytes ? double(file_bytes) / compressed_bytes : 0.0;
  }
};

struct CompressionResult {
  bool ok = false;
  bool cancelled = false;
  std::string error;  // one line when !ok
  CompressedClip clip;
  ClipErrorReport report;  // the runtime clip measured with the metric
  ClipSizes sizes;
  double seconds = 0.0;  // wall time of compress_clip
  int attempts = 0;      // compress-and-measure rounds (1 when the first result held)
  uint32_t kept_keys = 0, dense_keys = 0;  // after key reduction, over all tracks
};

// Called with the fraction done in [0, 1]; returning false cancels (result.cancelled).
using CompressionProgress = bool (*)(void* user, float fraction);

// Compresses clip `clip` of `model`. Allocates; run it off the UI thread for long clips.
CompressionResult compress_clip(const Model& model, int clip,
                                const CompressionSettings& settings = {},
                                CompressionProgress progress = nullptr, void* user = nullptr);
// Compresses any clip's raw keys whose channels target `model`'s nodes (a clip set's entry that
// the file does not hold, say).
CompressionResult compress_clip(const Model& model, const Clip& clip,
                                const CompressionSettings& settings = {},
                                CompressionProgress progress = nullptr, void* user = nullptr);

// The bytes of the clip's sampler accessors, as the Model holds them: 4 bytes per float of
// `times` and `values` (CUBICSPLINE values hold 3 elements per key), a times array shared by
// several channels (same contents, as an exporter shares one input accessor) counted once. The
// file's own component types may be narrower (normalized integer rotations, KHR_mesh_quantization);
// this counts them as float.
uint64_t clip_file_bytes(const Clip& clip);

// The compressed keys as glTF channels (LINEAR, or STEP where the clip's track steps): times
// from the frames, values decoded exactly as the runtime decodes them. Dropped tracks (rest
// value) are absent; of two keys at one float time, the later is kept (glTF inputs increase). What
// a glTF writer (--optimize-animations) stores; a glTF player's slerp is not CompressedClip's
// float form bit for bit, so such a file must be re-measured.
std::vector<Channel> reduced_channels(const CompressedClip& clip, const Model& model);

}  // namespace rig
