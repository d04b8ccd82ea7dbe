// Every shader program compiles and links, from the sources embedded at build time.
#include <gtest/gtest.h>

#include <string>

#include "render/gl_util.h"
#include "render/renderer.h"
#include "render/shader_sources.h"
#include "render_test_support.h"

namespace rig::render {
namespace {

TEST(ShaderSources, EveryShaderFileIsEmbedded) {
  for (const char* name : {"skinning.glsl", "mesh.vert.glsl", "mesh.frag.glsl", "lines.vert.glsl",
                           "lines.frag.glsl", "text.vert.glsl", "text.frag.glsl"})
    EXPECT_FALSE(embedded_shader(name).empty()) << name;
  EXPECT_TRUE(embedded_shader("no_such_shader.glsl").empty());
}

struct ProgramCase {
  std::vector<std::string_view> vertex, fragment;
  std::string defines;
  std::vector<const char*> feedback;
};

TEST(ShaderPrograms, EachProgramCompilesAndLinks) {
  RIG_REQUIRE_GL();
  const std::vector<std::string_view> mesh_vs = {"skinning.glsl", "mesh.vert.glsl"};
  const std::vector<ProgramCase> cases = {
      {mesh_vs, {"mesh.frag.glsl"}, "#define PALETTE_VEC4S 4096\n", {}},
      {mesh_vs, {"mesh.frag.glsl"}, "#define PALETTE_TBO 1\n", {}},
      {mesh_vs,
       {"mesh.frag.glsl"},
       "#define PALETTE_VEC4S 16\n",
       {"v_world_position", "v_world_normal"}},
      {mesh_vs,
       {"mesh.frag.glsl"},
       "#define PALETTE_TBO 1\n",
       {"v_world_position", "v_world_normal"}},
      {{"lines.vert.glsl"}, {"lines.frag.glsl"}, "", {}},
      {{"text.vert.glsl"}, {"text.frag.glsl"}, "", {}},
  };
  for (const ProgramCase& c : cases) {
    std::string error;
    GLuint program = build_program(c.vertex, c.fragment, c.defines, c.feedback, error);
    EXPECT_NE(program, 0u) << c.vertex.back() << " " << c.defines << ": " << error;
    GLint linked = GL_FALSE;
    if (program) glGetProgramiv(program, GL_LINK_STATUS, &linked);
    EXPECT_EQ(linked, GL_TRUE);
    if (program) glDeleteProgram(program);
  }
}

TEST(ShaderPrograms, MissingShaderFileIsAnErrorNotACrash) {
  RIG_REQUIRE_GL();
  std::string error;
  EXPECT_EQ(build_program({"missing.vert.glsl"}, {"mesh.frag.glsl"}, "", {}, error), 0u);
  EXPECT_NE(error.find("missing.vert.glsl"), std::string::npos) << error;
}

TEST(ShaderPrograms, RendererInitBuildsEverythingWithoutGlErrors) {
  RIG_REQUIRE_GL();
  const uint64_t errors_before = gl_error_count();
  Renderer renderer;
  std::string error;
  ASSERT_TRUE(renderer.init(error)) << error;
  EXPECT_EQ(gl_error_count(), errors_before);
}

}  // namespace
}  // namespace rig::render
