// The studio look's settings (README "The look"): the environment's turn and intensity, the key
// light, exposure and tone mapping. Plain values: the viewer persists them, --output takes them
// from flags, the renderer reads them per frame (DrawOptions::look).
#pragma once

#include "render/tone_mapping.h"

namespace rig::render {

struct LookSettings {
  float environment_rotation_deg = 0.0f;  // the environment turned about +Y
  float environment_intensity = 1.0f;     // multiplies the environment's radiance
  float key_intensity = 2.0f;             // the key light's irradiance on a surface facing it
  ToneMapping tone_mapping = ToneMapping::Neutral;
  float exposure_ev = 0.0f;
};

}  // namespace rig::render
