#include "render/gl_util.h"

#include <atomic>
#include <cstdio>
#include <cstring>

#include "render/shader_sources.h"

namespace rig::render {

namespace {

std::atomic<uint64_t> g_gl_errors{0};

#ifdef RIGVIEW_GL_DEBUG
void GLAD_API_PTR debug_callback(GLenum, GLenum type, GLuint, GLenum severity, GLsizei,
                                 const GLchar* message, const void*) {
  if (type != GL_DEBUG_TYPE_ERROR && severity != GL_DEBUG_SEVERITY_HIGH) return;
  ++g_gl_errors;
  std::fprintf(stderr, "rigview: GL error: %s\n", message);
}
#endif

// First line of a shader's or program's info log: the first error, for a one-line message.
// get_iv/get_log: glGetShaderiv/glGetShaderInfoLog or glGetProgramiv/glGetProgramInfoLog.
template <typename GetIv, typename GetLog>
std::string info_log_first_line(GLuint object, GetIv get_iv, GetLog get_log) {
  GLint len = 0;
  get_iv(object, GL_INFO_LOG_LENGTH, &len);
  std::string log(static_cast<size_t>(len > 0 ? len : 1), '\0');
  get_log(object, static_cast<GLsizei>(log.size()), nullptr, log.data());
  log.resize(std::strlen(log.c_str()));
  const size_t end = log.find('\n');
  return end == std::string::npos ? log : log.substr(0, end);
}

GLuint compile(GLenum stage, const std::vector<std::string_view>& files, const std::string& defines,
               std::string& error) {
  std::string source = "#version 330 core\n" + defines;
  for (std::string_view f : files) {
    std::string_view text = embedded_shader(f);
    if (text.empty()) {
      error = "missing embedded shader " + std::string(f);
      return 0;
    }
    source += "#line 1\n";
    source += text;
    source += '\n';
  }
  GLuint shader = glCreateShader(stage);
  const char* src = source.c_str();
  glShaderSource(shader, 1, &src, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    error = "shader " + std::string(files.back()) +
            " does not compile: " + info_log_first_line(shader, glGetShaderiv, glGetShaderInfoLog);
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

GLuint build_program(const std::vector<std::string_view>& vertex_files,
                     const std::vector<std::string_view>& fragment_files,
                     const std::string& defines, const std::vector<const char*>& feedback_varyings,
                     std::string& error) {
  GLuint vs = compile(GL_VERTEX_SHADER, vertex_files, defines, error);
  if (!vs) return 0;
  GLuint fs = compile(GL_FRAGMENT_SHADER, fragment_files, defines, error);
  if (!fs) {
    glDeleteShader(vs);
    return 0;
  }
  GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  if (!feedback_varyings.empty())
    glTransformFeedbackVaryings(program, static_cast<GLsizei>(feedback_varyings.size()),
                                feedback_varyings.data(), GL_INTERLEAVED_ATTRIBS);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (!ok) {
    error = "program " + std::string(vertex_files.back()) + " + " +
            std::string(fragment_files.back()) +
            " does not link: " + info_log_first_line(program, glGetProgramiv, glGetProgramInfoLog);
    glDeleteProgram(program);
    return 0;
  }
  check_gl_errors("build_program");
  return program;
}

void install_gl_debug_output() {
#ifdef RIGVIEW_GL_DEBUG
  if (GLAD_GL_KHR_debug && glDebugMessageCallback) {
    glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
    glDebugMessageCallback(debug_callback, nullptr);
    glEnable(GL_DEBUG_OUTPUT);
  }
#endif
}

void check_gl_errors(const char* where) {
#ifdef RIGVIEW_GL_DEBUG
  for (GLenum e = glGetError(); e != GL_NO_ERROR; e = glGetError()) {
    ++g_gl_errors;
    std::fprintf(stderr, "rigview: GL error 0x%04x after %s\n", e, where);
  }
#else
  (void)where;
#endif
}

uint64_t gl_error_count() { return g_gl_errors.load(); }

void create_texture_buffer(uint64_t texels, GLuint& buffer, GLuint& texture) {
  glGenBuffers(1, &buffer);
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(texels * 16u), nullptr, GL_STREAM_DRAW);
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_BUFFER, texture);
  glTexBuffer(GL_TEXTURE_BUFFER, GL_RGBA32F, buffer);
  glBindTexture(GL_TEXTURE_BUFFER, 0);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

void stream_texture_buffer(GLuint buffer, const void* data, size_t bytes) {
  if (!buffer || bytes == 0) return;
  glBindBuffer(GL_TEXTURE_BUFFER, buffer);
  glBufferData(GL_TEXTURE_BUFFER, GLsizeiptr(bytes), nullptr, GL_STREAM_DRAW);
  glBufferSubData(GL_TEXTURE_BUFFER, 0, GLsizeiptr(bytes), data);
  glBindBuffer(GL_TEXTURE_BUFFER, 0);
}

}  // namespace rig::render
