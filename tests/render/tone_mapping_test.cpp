// Exposure and tone mapping: the C++ operators against values worked by hand from the published
// formulas (Khronos PBR Neutral; three.js's ACESFilmicToneMapping), and the GLSL twin
// (shaders/tone_mapping.glsl) against the C++ over a rendered gradient.
#include "render/tone_mapping.h"

#include <glad/gl.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "render/shader_sources.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

void expect_near3(glm::vec3 got, glm::vec3 want, float tolerance) {
  EXPECT_NEAR(got.r, want.r, tolerance);
  EXPECT_NEAR(got.g, want.g, tolerance);
  EXPECT_NEAR(got.b, want.b, tolerance);
}

TEST(ToneMapping, NeutralBelowTheKneeOnlySubtractsTheOffset) {
  // min ≥ 0.08: offset 0.04; peak 0.46 < 0.76, so no compression.
  expect_near3(tone_map_neutral(glm::vec3(0.5f)), glm::vec3(0.46f), 1e-6f);
  // min 0.05 < 0.08: offset 0.05 − 6.25·0.05² = 0.034375.
  expect_near3(tone_map_neutral({0.05f, 0.2f, 0.3f}), {0.015625f, 0.165625f, 0.265625f}, 1e-6f);
}

TEST(ToneMapping, NeutralCompressesAndDesaturatesHighlights) {
  // (2, 1, 0.5) − 0.04 = (1.96, 0.96, 0.46); d = 0.24; new peak = 1 − 0.0576/1.44 = 0.96;
  // scaled by 0.96/1.96; g = 1 − 1/(0.15·1.0 + 1) = 0.130435; mixed towards 0.96.
  expect_near3(tone_map_neutral({2.0f, 1.0f, 0.5f}), {0.96f, 0.534091f, 0.321136f}, 2e-6f);
  // Grey 10 → 9.96: new peak 1 − 0.0576/9.44 = 0.993898.
  expect_near3(tone_map_neutral(glm::vec3(10.0f)), glm::vec3(0.993898f), 2e-6f);
}

TEST(ToneMapping, AcesMatchesTheFilmicFit) {
  // Grey stays grey (both matrices' rows sum to 1): 0.108/0.6 = 0.18 through
  // (v² + 0.0245786v − 0.000090537)/(0.983729v² + 0.432951v + 0.238081) = 0.036734/0.347885.
  expect_near3(tone_map_aces(glm::vec3(0.108f)), glm::vec3(0.105591f), 2e-6f);
  // v = 1: 1.024488/1.654761 (the blue row sums to 0.99999).
  expect_near3(tone_map_aces(glm::vec3(0.6f)), {0.619115f, 0.619115f, 0.619109f}, 2e-6f);
  // Pure red: the input matrix's first column (0.59719, 0.076, 0.0284) through the fit, then
  // the output matrix; green clamps at 0.
  expect_near3(tone_map_aces({0.6f, 0.0f, 0.0f}), {0.688028f, 0.0f, 0.002639f}, 2e-6f);
  expect_near3(tone_map_aces({3.0f, 1.0f, 0.2f}), {0.983855f, 0.784113f, 0.440388f}, 2e-6f);
}

TEST(ToneMapping, ExposureIsInStops) {
  EXPECT_FLOAT_EQ(exposure_scale(0.0f), 1.0f);
  EXPECT_FLOAT_EQ(exposure_scale(1.0f), 2.0f);
  EXPECT_FLOAT_EQ(exposure_scale(-2.0f), 0.25f);
  expect_near3(tone_map({0.1f, 0.2f, 0.3f}, ToneMapping::None, 1.0f), {0.2f, 0.4f, 0.6f}, 1e-7f);
  // 0.25·2² = 1 → neutral(1) = (0.96 → compressed) as computed by hand: peak 0.96,
  // new peak 1 − 0.0576/0.44 = 0.869091, g = 1 − 1/(0.15·0.090909 + 1) = 0.013453.
  expect_near3(tone_map(glm::vec3(0.25f), ToneMapping::Neutral, 2.0f), glm::vec3(0.869091f), 2e-6f);
}

TEST(ToneMapping, NamesRoundTrip) {
  for (ToneMapping t : {ToneMapping::Neutral, ToneMapping::Aces, ToneMapping::None})
    EXPECT_EQ(parse_tone_mapping(tone_mapping_name(t)), t);
  EXPECT_FALSE(parse_tone_mapping("filmic").has_value());
}

// The gradient drawn on the GPU: pixel (x, y) of a W × 4 float target has the radiance
// (x + 0.5)/W · 8 times row y's tint.
constexpr int kWidth = 256;
const glm::vec3 kTints[4] = {
    {1.0f, 1.0f, 1.0f}, {1.0f, 0.5f, 0.25f}, {0.2f, 0.6f, 1.0f}, {1.0f, 0.0f, 0.05f}};

GLuint compile(GLenum stage, const std::string& source) {
  const GLuint s = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(s, 1, &text, nullptr);
  glCompileShader(s);
  GLint ok = GL_FALSE;
  glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
  if (!ok) {
    char log[1024] = {};
    glGetShaderInfoLog(s, sizeof log, nullptr, log);
    ADD_FAILURE() << log;
  }
  return s;
}

TEST(ToneMapping, ShaderMatchesTheCppOnARenderedGradient) {
  RIG_REQUIRE_GL();
  const std::string vs =
      "#version 330 core\nvoid main() { vec2 p = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);"
      " gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n";
  const std::string fs = "#version 330 core\n" + std::string(embedded_shader("tone_mapping.glsl")) +
                         "uniform int u_mode; uniform float u_ev; uniform vec3 u_tints[4];\n"
                         "out vec4 o;\n"
                         "void main() { float x = gl_FragCoord.x / " +
                         std::to_string(kWidth) +
                         ".0 * 8.0; vec3 c = x * u_tints[int(gl_FragCoord.y)];\n"
                         " o = vec4(tone_map(c, u_mode, u_ev), 1.0); }\n";
  ASSERT_FALSE(embedded_shader("tone_mapping.glsl").empty());
  const GLuint program = glCreateProgram();
  const GLuint v = compile(GL_VERTEX_SHADER, vs), f = compile(GL_FRAGMENT_SHADER, fs);
  glAttachShader(program, v);
  glAttachShader(program, f);
  glLinkProgram(program);
  GLint linked = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &linked);
  ASSERT_EQ(linked, GL_TRUE);

  GLuint fbo = 0, color = 0, vao = 0;
  glGenTextures(1, &color);
  glBindTexture(GL_TEXTURE_2D, color);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, kWidth, 4, 0, GL_RGBA, GL_FLOAT, nullptr);
  glGenFramebuffers(1, &fbo);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, color, 0);
  ASSERT_EQ(glCheckFramebufferStatus(GL_FRAMEBUFFER), GLenum(GL_FRAMEBUFFER_COMPLETE));
  glGenVertexArrays(1, &vao);
  glBindVertexArray(vao);
  glViewport(0, 0, kWidth, 4);
  glDisable(GL_DEPTH_TEST);
  glUseProgram(program);
  glUniform3fv(glGetUniformLocation(program, "u_tints"), 4, &kTints[0].x);

  const struct {
    ToneMapping mapping;
    int mode;
    float ev;
  } cases[] = {{ToneMapping::Neutral, 0, 0.0f},
               {ToneMapping::Aces, 1, 0.0f},
               {ToneMapping::None, 2, -1.0f},
               {ToneMapping::Neutral, 0, 1.5f},
               {ToneMapping::Aces, 1, -0.5f}};
  std::vector<float> pixels(size_t(kWidth) * 4 * 4);
  for (const auto& c : cases) {
    glUniform1i(glGetUniformLocation(program, "u_mode"), c.mode);
    glUniform1f(glGetUniformLocation(program, "u_ev"), c.ev);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    glReadPixels(0, 0, kWidth, 4, GL_RGBA, GL_FLOAT, pixels.data());
    float worst = 0.0f;
    for (int y = 0; y < 4; ++y)
      for (int x = 0; x < kWidth; ++x) {
        const glm::vec3 radiance = (float(x) + 0.5f) / float(kWidth) * 8.0f * kTints[y];
        const glm::vec3 want = tone_map(radiance, c.mapping, c.ev);
        const float* got = &pixels[(size_t(y) * kWidth + size_t(x)) * 4];
        for (int k = 0; k < 3; ++k) worst = std::max(worst, std::abs(got[k] - want[k]));
      }
    EXPECT_LT(worst, 1e-4f) << tone_mapping_name(c.mapping) << " at EV " << c.ev;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers(1, &fbo);
  glDeleteTextures(1, &color);
  glDeleteVertexArrays(1, &vao);
  glDeleteProgram(program);
  glDeleteShader(v);
  glDeleteShader(f);
}

}  // namespace
}  // namespace rig::render
