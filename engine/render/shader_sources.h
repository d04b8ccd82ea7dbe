// GLSL sources from shaders/*.glsl, embedded at build time (see embed_shaders.cmake).
#pragma once

#include <string_view>

namespace rig::render {

// Source of shaders/<name> (e.g. "mesh.vert.glsl"); empty when there is no such file.
std::string_view embedded_shader(std::string_view name);

}  // namespace rig::render
