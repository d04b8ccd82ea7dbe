// Asset → tinygltf::Model → .glb (one buffer, embedded PNG, no unused objects).
#pragma once

#include <string>

#include "asset.h"

namespace rig::gen {

// Writes `asset` to `path` as binary glTF. Throws std::runtime_error on failure.
void write_glb(const Asset& asset, const std::string& path);

}  // namespace rig::gen
