// Writes a copy of a glTF file with its animations replaced by key-reduced keys
// (`--optimize-animations OUT.glb`). Everything else (meshes, skins, images, nodes) is the
// file's own.
//
// Per clip, each compressed track becomes one sampler + channel: input = the kept key times
// (float), output = translation / scale as float (core glTF allows nothing else), rotation as
// normalized SHORT VEC4 per track where that keeps the tolerance, else float, morph weights as
// normalized UNSIGNED_SHORT (all in [0, 1]) or SHORT (in [−1, 1]) where that keeps the morph
// tolerance, else float. Interpolation LINEAR, or STEP where the track steps. Channels with equal
// key times share one input accessor, and equal outputs share one output accessor (an instanced
// skeleton's tracks, written in one form for that: share_equal_tracks). A glTF player
// slerps between keys as CompressedClip does, but computes the segment fraction from the float
// key times; the 16-bit rounding adds to the compressor's error. The writer measures what the
// file will play and reports it (WrittenClip).
//
// The clips are the edits (write/document_edit.h: ReplaceClip) of the one glTF document writer
// (write/gltf_document.h): it starts from the file's own document and buffers, keeps the old
// animation accessors as accessors without a bufferView (zeros, as the spec allows), so no index
// elsewhere changes, removes the bufferViews nothing uses any more (and those the file left
// unused) and repacks the binary buffer, and writes atomically. Output is always GLB. The choice
// per clip is compress/written_choice.h's, the 16-bit key forms compress/written_keys.h's.
#pragma once

#include <string>
#include <vector>

#include "anim/compressed_clip.h"
#include "compress/written_choice.h"
#include "compress/written_keys.h"
#include "model/model.h"

namespace rig {

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
  bool not_smaller = false;    // kept because the optimized form was not smaller (see below)
  size_t optimized_bytes = 0;  // then: the bytes that form would have taken
};

// `clips`: one per Model::clips entry of `model` (imported from `in_path`), in order; nullptr
// keeps that animation as it is. Per clip the writer picks the smallest form whose keys, as the
// file will hold them (16-bit-rounded where chosen, renormalized, spec-sampled), keep E_max ≤
// tolerance_m — for a player that renormalizes SHORT keys and for one that does not (three.js;
// stored_length_e_max) — and the morph error ≤ morph_tolerance: the given keys, or keys
// recompressed at ½ and ¼ of the tolerances (room for rounding), each with its morph weights 16-bit
// where they fit and the rotation tracks of the shortest levers (rest_levers) as SHORT
// — all of them, or the longest prefix of that order that fits — and the rest as float. Tracks the
// file animates identically then take one form where that fits and is smaller (shared accessors).
// Should even all-float keys exceed it (a player's rounding differs from the runtime clip's),
// the clip is recompressed at 0.9×, 0.81×, 0.73× the tolerance, and failing that the file's own
// animation is kept. So every written clip measures ≤ tolerance_m. The file's own animation is
// kept too where its accessors are already no more bytes than the chosen form (an optimizer never
// grows a clip; WrittenClip::not_smaller): where clips share accessors (key times), a clip counts
// only the bytes that replacing it frees — an accessor a kept clip still uses frees nothing, one
// several replaced clips use is split between them — so the animations' bytes never grow. Written
// channels span the clip's time range as the file's did (a player's clip length), and a clip whose
// every track is at rest keeps one channel holding the rest value. Returns false with a one-line
// `error`. `report`: per clip, what was written. `sizes`: the bytes of the accessors the file's
// animations use, each accessor once, before and after. `warnings`: what the copy lacks that the
// file had (write::SourceDocument::warnings(): KHR_animation_pointer channels).
struct WrittenSizes {
  size_t before = 0;
  size_t after = 0;
};
bool write_optimized_gltf(const std::string& in_path, const Model& model,
                          const std::vector<const CompressedClip*>& clips,
                          const std::string& out_path, std::string& error,
                          const GltfWriteOptions& options = {},
                          std::vector<WrittenClip>* report = nullptr, WrittenSizes* sizes = nullptr,
                          std::vector<std::string>* warnings = nullptr);

}  // namespace rig
