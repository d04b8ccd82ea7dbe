// The lighting a frame is drawn under: the classic look (Viewer: base colour, a key light and a
// hemisphere ambient), the studio look (glTF metallic-roughness under a key light and an
// environment, tone mapped: README "The look"), or the reference scene's lights (shared
// reference-scene.md, section 6: README "Reference scene renders") with glTF metallic-roughness
// shading, or no lights at all (only unlit and emissive surfaces show).
#pragma once

namespace rig::render {

enum class LightSetup { Viewer, Reference, None, Studio };

// The reference scene's directional light, towards the light: normalize(2, 4, 5) = (2, 4, 5)/√45.
inline constexpr float kReferenceLightDirection[3] = {0.298142397f, 0.596284794f, 0.745355992f};
inline constexpr float kReferenceLightIntensity = 3.0f;  // irradiance on a surface facing it
inline constexpr float kReferenceAmbient = 0.3f;         // uniform irradiance, diffuse only

}  // namespace rig::render
