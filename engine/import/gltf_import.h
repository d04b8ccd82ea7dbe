// glTF 2.0 (.gltf with external or data: URIs, and .glb) → rig::Model.
#pragma once

#include <string>

#include "model/model.h"

namespace rig {

// Loads `path` into `out`. On failure returns false and sets `error` to one line saying what
// is wrong and where (e.g. "accessor 12 reads past the end of bufferView 3"), without the file
// name. Repairs (renormalized weights, normalized rotation keys, ...) land in out.warnings.
// Never reads out of bounds, whatever the file holds.
bool import_gltf(const std::string& path, Model& out, std::string& error);

}  // namespace rig
