// Every shader program compiles and links, from the sources embedded at build time.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "render/gl_util.h"
#include "render/renderer.h"
#include "render/shader_sources.h"
#include "render/skin_programs.h"
#include "render_test_support.h"
#include "skin/skinning_method.h"

namespace rig::render {
namespace {

TEST(ShaderSources, EveryShaderFileIsEmbedded) {
  for (const char* name :
       {"skin_common.glsl", "skin_lbs.glsl", "skin_dqs.glsl", "mesh.vert.glsl", "mesh.frag.glsl",
        "brdf.glsl", "tone_mapping.glsl", "look.frag.glsl", "lines.vert.glsl", "lines.frag.glsl",
        "text.vert.glsl", "text.frag.glsl", "material_values.glsl"})
    EXPECT_FALSE(embedded_shader(name).empty()) << name;
  // Every row of the skinning-method table has its shader file, defining skin_vertex().
  for (const SkinningMethodInfo& m : skinning_methods()) {
    EXPECT_NE(embedded_shader(m.shader).find("bool skin_vertex("), std::string_view::npos)
        << m.shader;
  }
  EXPECT_TRUE(embedded_shader("no_such_shader.glsl").empty());
}

struct ProgramCase {
  std::vector<std::string_view> vertex, fragment;
  std::string defines;
  std::vector<const char*> feedback;
};

// The palette layout reaches GLSL through one generated header, from the table row and
// rig::kMaxInfluences.
TEST(ShaderPrograms, LayoutHeaderIsGeneratedFromTheMethodTable) {
  for (const SkinningMethodInfo& m : skinning_methods()) {
    const std::string ubo = detail::skinning_layout_header(&m, false, 4096);
    EXPECT_NE(ubo.find("#define MAX_INFLUENCES 8\n"), std::string::npos) << ubo;
    EXPECT_NE(ubo.find("#define PALETTE_ROWS_PER_JOINT " + std::to_string(m.palette_rows) + "\n"),
              std::string::npos)
        << ubo;
    EXPECT_NE(ubo.find("#define PALETTE_VEC4S 4096\n"), std::string::npos) << ubo;
    EXPECT_EQ(ubo.find("PALETTE_TBO"), std::string::npos) << ubo;
    const std::string tbo = detail::skinning_layout_header(&m, true, 4096);
    EXPECT_NE(tbo.find("#define PALETTE_TBO 1\n"), std::string::npos) << tbo;
    EXPECT_EQ(tbo.find("PALETTE_VEC4S"), std::string::npos) << tbo;
  }
  EXPECT_EQ(detail::skinning_layout_header(nullptr, false, 16), "#define MAX_INFLUENCES 8\n");
}

TEST(ShaderPrograms, EachProgramCompilesAndLinks) {
  RIG_REQUIRE_GL();
  const std::vector<const char*> feedback = {"v_world_position", "v_world_normal"};
  const std::vector<std::string_view> mesh_fs(detail::kMeshFragmentShaders.begin(),
                                              detail::kMeshFragmentShaders.end());
  std::vector<ProgramCase> cases = {
      {{"skin_common.glsl", "mesh.vert.glsl"},
       mesh_fs,
       detail::skinning_layout_header(nullptr, false, 16),
       {}},
      {{"skin_common.glsl", "mesh.vert.glsl"},
       mesh_fs,
       detail::skinning_layout_header(nullptr, false, 16),
       feedback},
      {{"lines.vert.glsl"}, {"lines.frag.glsl"}, "", {}},
      {{"text.vert.glsl"}, {"text.frag.glsl"}, "", {}},
      {{"shadow_catcher.vert.glsl"}, {"shadow.glsl", "shadow_catcher.frag.glsl"}, "", {}},
  };
  for (const SkinningMethodInfo& m : skinning_methods())
    for (bool tbo : {false, true})
      for (bool capture : {false, true})
        cases.push_back({{"skin_common.glsl", m.shader, "mesh.vert.glsl"},
                         mesh_fs,
                         detail::skinning_layout_header(&m, tbo, 4096),
                         capture ? feedback : std::vector<const char*>{}});
  for (const ProgramCase& c : cases) {
    std::string error;
    GLuint program = build_program(c.vertex, c.fragment, c.defines, c.feedback, error);
    EXPECT_NE(program, 0u) << c.vertex[c.vertex.size() - 2] << " " << c.defines << ": " << error;
    GLint linked = GL_FALSE;
    if (program) glGetProgramiv(program, GL_LINK_STATUS, &linked);
    EXPECT_EQ(linked, GL_TRUE);
    if (program) glDeleteProgram(program);
  }
}

// The renderer builds exactly one program per table row × palette storage × use, plus the
// rigid draw and capture programs, all linked and distinct.
TEST(ShaderPrograms, RendererHasOneLinkedProgramPerMethodRowStorageAndUse) {
  RIG_REQUIRE_GL();
  Renderer renderer;
  std::string error;
  ASSERT_TRUE(renderer.init(error)) << error;
  // Per table row: drawing and capture in both palette storages, and the depth pass's opaque
  // and alpha-tested stages in both storages (8); rigid: drawing, capture and both depth (4).
  EXPECT_EQ(renderer.mesh_program_count(), int(8 * skinning_methods().size() + 4));
  std::vector<uint32_t> ids;
  auto check = [&](const SkinningMethodInfo* m, bool tbo, bool capture) {
    const uint32_t id = renderer.mesh_program(m, tbo, capture);
    ASSERT_NE(id, 0u) << (m ? m->name : "rigid") << tbo << capture;
    GLint linked = GL_FALSE;
    glGetProgramiv(id, GL_LINK_STATUS, &linked);
    EXPECT_EQ(linked, GL_TRUE);
    // Only capture programs record the world-space varyings (position, normal, tangent).
    GLint varyings = -1;
    glGetProgramiv(id, GL_TRANSFORM_FEEDBACK_VARYINGS, &varyings);
    EXPECT_EQ(varyings, capture ? 3 : 0);
    // Skinned programs read a palette (uniform block or texture buffer); rigid ones do not.
    const bool block = glGetUniformBlockIndex(id, "Palette") != GL_INVALID_INDEX;
    const bool sampler = glGetUniformLocation(id, "u_palette_tbo") >= 0;
    EXPECT_EQ(block, m != nullptr && !tbo);
    EXPECT_EQ(sampler, m != nullptr && tbo);
    ids.push_back(id);
  };
  for (const SkinningMethodInfo& m : skinning_methods())
    for (bool tbo : {false, true})
      for (bool capture : {false, true}) check(&m, tbo, capture);
  for (bool capture : {false, true}) check(nullptr, false, capture);
  // The shadow's depth programs: linked, no colour output, the same palette storage; only the
  // alpha-tested ones read the base colour (its texture and cutoff).
  auto check_depth = [&](const SkinningMethodInfo* m, bool tbo, bool alpha) {
    const uint32_t id = renderer.depth_program(m, tbo, alpha);
    ASSERT_NE(id, 0u) << (m ? m->name : "rigid") << tbo << alpha;
    EXPECT_EQ(glGetUniformLocation(id, "u_base_color_texture") >= 0, alpha);
    EXPECT_EQ(glGetUniformLocation(id, "u_alpha_cutoff") >= 0, alpha);
    GLint linked = GL_FALSE;
    glGetProgramiv(id, GL_LINK_STATUS, &linked);
    EXPECT_EQ(linked, GL_TRUE);
    EXPECT_EQ(glGetFragDataLocation(id, "frag_color"), -1);
    EXPECT_EQ(glGetUniformBlockIndex(id, "Palette") != GL_INVALID_INDEX, m != nullptr && !tbo);
    ids.push_back(id);
  };
  for (bool alpha : {false, true}) {
    for (const SkinningMethodInfo& m : skinning_methods())
      for (bool tbo : {false, true}) check_depth(&m, tbo, alpha);
    check_depth(nullptr, false, alpha);
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
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
