// Every renderer call of the viewer, in one place: the ViewerState turned into DrawOptions and
// draw / draw_compare calls, the per-frame upload, and the window screenshot.
#pragma once

#include <memory>
#include <span>
#include <string>

#include "render/crowd_renderer.h"
#include "render/renderer.h"
#include "viewer/document.h"
#include "viewer/mistakes.h"
#include "viewer/viewer_state.h"

namespace rigview {

rig::render::WeightView render_weight_view(SurfaceView mode);
SurfaceView weights_mode(rig::render::WeightView view);

// Creates the renderer on the current context and gives it the document's model. false + one
// line in `error` on failure.
bool create_renderer(std::unique_ptr<rig::render::Renderer>& renderer, const Document& doc,
                     std::string& error);
// Swaps the renderer to `next`'s model; on failure restores `current`'s (or clears it).
bool switch_renderer_model(rig::render::Renderer& renderer, const Document& current,
                           const Document& next, std::string& error);

// Uploads the document's evaluated character (after character->evaluate): the palettes of the
// methods on screen only.
void update_renderer(rig::render::Renderer& renderer, const Document& doc,
                     const ViewerState& state);

// Measure cost: every method's skinning cost on the document's current pose, seen from the
// current camera, state.cost_draws draws per measurement (render/skinning_cost.h) into
// state.cost / state.cost_error. After update_renderer, outside render_scene. Blocks.
void measure_cost(rig::render::Renderer& renderer, const Document& doc, ViewerState& state);

// Draws the scene into the window's framebuffer (fb_* pixels; window_width in window pixels,
// to place the workspace's viewport, scene_view): grid, surfaces, wireframe, bones, weights or
// artefact heat maps (doc.artefacts' fields; each compare column its own method's deflation), the
// methods of methods_shown() side by side. While a Learn mistake is on (`mistake` active), its
// two columns instead: each uploaded from the CPU-skinned characters and drawn with
// DrawOptions::cpu_skinned, the wrong one with the four-influences error field. Times the GPU
// work.
void render_scene(rig::render::Renderer& renderer, const ViewerState& state, const Document& doc,
                  int fb_width, int fb_height, float window_width,
                  const MistakeView* mistake = nullptr);

// --crowd: the crowd's instanced draw (its first method on screen) instead of the single
// character, in the same view (grid per state.show_grid). Times the GPU work itself.
void render_crowd_scene(rig::render::Renderer& renderer, rig::render::CrowdRenderer& crowd,
                        const ViewerState& state, int fb_width, int fb_height, float window_width);

// OpenGL errors pending now (glGetError until clear) plus those the renderer counted (KHR_debug,
// debug builds' checks): the soak run's check.
uint64_t take_gl_errors(const rig::render::Renderer& renderer);

// The window's back buffer to a PNG (opaque). false after printing one line.
bool write_window_screenshot(const std::string& path, int fb_width, int fb_height);

}  // namespace rigview
