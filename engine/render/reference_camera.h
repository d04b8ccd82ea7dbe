// The reference scene's default camera (shared reference-scene.md, section 5; README "Reference
// scene renders"), for `--output` renders under `--lights reference|none` without `--camera`:
// a sphere around the posed bounds, seen from +Z so that it fills 1/1.3 of a 45° view.
#pragma once

#include "render/camera.h"

namespace rig::render {

// target = centre of `posed` (the world box of every vertex after morphs and skinning);
// r = half its diagonal; yfov = 45°; d = 1.3·r / sin(yfov/2); eye = target + (0, 0, d);
// near = d/100, far = d·100. An empty or degenerate box (one point) gives r = 1 around its
// centre, so a camera exists for any model.
Camera reference_default_camera(const Bounds& posed, float aspect);

}  // namespace rig::render
