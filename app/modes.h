// The ways rigview runs besides the report/export commands. Each lives in its own file(s):
// headless.cpp (offscreen PNG and GPU export, via EGL) and viewer/ (the interactive window).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "model/model.h"
#include "options.h"
#include "skin/skin_layer.h"
#include "skin/skin_mesh.h"

namespace rigview {

// `skin` (every mode): the skin layer to skin with (app/skin_edits.h: the --weights-op edits);
// null: the model's own influences.

// Renders one frame of the selected pose to options.output_png. Returns the exit status.
int run_headless_render(const Options& options, const rig::Model& model,
                        const rig::SkinLayer* skin);

// --bench-skinning N: GPU time of N draws of the model per method (methods_to_scan), printed
// per million skinned vertices and as a ratio to the table's first row (LBS).
int run_skinning_bench(const Options& options, const rig::Model& model, const rig::SkinLayer* skin);

// --crowd N with --output: renders N instances on their grid (app/crowd_modes.cpp).
int run_crowd_render(const Options& options, const rig::Model& model, const rig::SkinLayer* skin);

// --bench-crowd N: the crowd frame (update on every core, palette upload, GPU draw) for 1, 10,
// 100, ... characters up to N, printed as a table with the update time per character.
int run_crowd_bench(const Options& options, const rig::Model& model, const rig::SkinLayer* skin);

// GPU skinning through the real vertex shaders, read back with transform feedback. Fills
// positions/normals (world space) for every draw item of model.draws, in order, or returns
// false with a one-line `error`.
// Skins every draw item with the real shaders (read back); `meshes`: the model's prepared skin
// meshes (rotation_centers_job.h).
bool gpu_skin_draw_items(const Options& options, const rig::Model& model,
                         std::shared_ptr<const rig::SkinLayer> meshes,
                         std::vector<std::vector<float>>& positions,
                         std::vector<std::vector<float>>& normals, std::string& error);

// Opens the interactive viewer on `model_path`. Returns the exit status.
int run_viewer(const Options& options, const std::string& model_path);

}  // namespace rigview
