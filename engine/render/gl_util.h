// Small GL helpers shared by the renderer: program building from embedded sources and error
// checking. Debug builds (RIGVIEW_GL_DEBUG) install KHR_debug output when the context has it
// and otherwise poll glGetError after the renderer's GL work.
#pragma once

#include <glad/gl.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rig::render {

// Compiles "#version 330 core" + `defines` + the named embedded files (shaders/*.glsl, in
// order) for each stage and links them. `feedback_varyings` (may be empty) are captured
// interleaved. Returns 0 and sets error (with the info log's first line) on failure.
GLuint build_program(const std::vector<std::string_view>& vertex_files,
                     const std::vector<std::string_view>& fragment_files,
                     const std::string& defines, const std::vector<const char*>& feedback_varyings,
                     std::string& error);

// Installs the KHR_debug callback when available (once per context). Errors it reports and
// errors found by check_gl_errors are counted and printed to stderr.
void install_gl_debug_output();

// Polls glGetError (debug builds only; a no-op otherwise), reporting `where` on each error.
void check_gl_errors(const char* where);

uint64_t gl_error_count();

// An RGBA32F texture buffer of `texels` texels whose contents are written per frame
// (stream_texture_buffer): the buffer and the texture that reads it.
void create_texture_buffer(uint64_t texels, GLuint& buffer, GLuint& texture);

// Orphans `buffer` (the driver hands out fresh storage instead of waiting for draws that still
// read the last frame's contents), then writes `bytes` bytes from `data`. Nothing when `buffer`
// is 0 or `bytes` 0. No allocation on our side.
void stream_texture_buffer(GLuint buffer, const void* data, size_t bytes);

}  // namespace rig::render
