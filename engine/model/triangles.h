// The triangles of a primitive as vertex-index triples, as glTF 2.0 §3.7.2.1 assembles them:
// TRIANGLES in threes, TRIANGLE_STRIP p_i = {v_i, v_{i+(1+i%2)}, v_{i+(2−i%2)}}, TRIANGLE_FAN
// p_i = {v_{i+1}, v_{i+2}, v_0}; indices resolved. Lines and points have none.
#pragma once

#include <cstdint>
#include <vector>

#include "model/model.h"

namespace rig {

bool has_triangles(PrimitiveMode mode);

// Appends the triangles of `prim` to `out` (three vertex indices each). Allocates.
void append_triangles(const Primitive& prim, std::vector<uint32_t>& out);

}  // namespace rig
