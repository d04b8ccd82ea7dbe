// The command line's animation compression (engine/compress/): --compress-report FILE.json,
// --optimize-animations OUT.glb and --compressed, all at --tolerance CM (default 0.01 cm).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "character/character.h"
#include "compress/clip_compression.h"
#include "options.h"

namespace rigview {

// The model's clips compressed at the command line's tolerance: every clip, or only `only`
// (clip indices). A progress line goes to stderr once the work takes more than a second.
// Results are per Model::clips entry (null where not compressed). false + one-line error.
bool compress_clips(const rig::Model& model, double tolerance_cm, const std::vector<int>& only,
                    std::vector<std::unique_ptr<rig::CompressionResult>>& results,
                    std::string& error);

// --compress-report and --optimize-animations. Returns the exit status.
int run_compression_outputs(const Options& options, const rig::Model& model,
                            const std::string& model_path);

}  // namespace rigview
