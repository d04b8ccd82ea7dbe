// The skinning artefact measures as scalar fields for the heat-map display (analysis/
// scalar_field.h): deflation h per vertex (blue loss, white 0, red bulge, clamped at ±1, i.e. half
// and double the radius; undefined grey) and the method difference (heat map from 0). Refilling
// allocates nothing once the field has the model's shape.
#pragma once

#include <vector>

#include "analysis/scalar_field.h"
#include "analysis/skinning_artefacts.h"

namespace rig::analysis {

inline constexpr glm::vec3 kDeflationUndefinedColor = kZeroColor;  // grey: undefined h, not a heat

// h of `frame` (skinned items; rigid items keep their shading), titled with `method`'s label.
void fill_deflation_field(const Model& model, const ArtefactFrame& frame, SkinningMethod method,
                          ScalarField& out);

// ‖v′(a) − v′(b)‖ / D_rest per vertex (skinned items), over [0, max(largest, 1e-4)].
void fill_difference_field(const Model& model, const std::vector<std::vector<float>>& difference,
                           float largest, SkinningMethod a, SkinningMethod b, ScalarField& out);

}  // namespace rig::analysis
