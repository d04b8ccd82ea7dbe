// The material module (render/materials.h) and the program variants (render/skin_programs.h)
// both renderers draw with. Expected values are worked out by hand or taken from the model
// built here, never from the module's own output.
#include "render/materials.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <set>

#include "render/camera.h"
#include "render/skin_programs.h"
#include "render_test_support.h"
#include "skin/skinning_method.h"

namespace rig::render {
namespace {

// The key light is fixed in view space at (-0.45, 0.75, 0.55), normalized: with the identity
// view that is its world direction; a camera turned 90° about +Y turns it with the camera.
TEST(Lighting, KeyLightIsFixedInViewSpace) {
  Camera camera;
  camera.view = glm::mat4(1.0f);
  const float length = std::sqrt(0.45f * 0.45f + 0.75f * 0.75f + 0.55f * 0.55f);
  const glm::vec3 expected(-0.45f / length, 0.75f / length, 0.55f / length);
  const glm::vec3 key = detail::Lighting::for_camera(camera).key_direction;
  EXPECT_NEAR(key.x, expected.x, 1e-6f);
  EXPECT_NEAR(key.y, expected.y, 1e-6f);
  EXPECT_NEAR(key.z, expected.z, 1e-6f);
  // A view turned -90° about Y: its inverse, +90° about Y, maps (x, y, z) to (z, y, -x).
  camera.view = glm::rotate(glm::mat4(1.0f), glm::radians(-90.0f), glm::vec3(0, 1, 0));
  const glm::vec3 turned = detail::Lighting::for_camera(camera).key_direction;
  EXPECT_NEAR(turned.x, expected.z, 1e-6f);
  EXPECT_NEAR(turned.y, expected.y, 1e-6f);
  EXPECT_NEAR(turned.z, -expected.x, 1e-6f);
}

// Images 0 and 2 are base colours (2 twice), image 1 only a normal map (material 4 has nothing
// else), image 3 a base colour without pixels: two textures, each material's own factor, the
// neutral grey without one.
TEST(MaterialTable, BaseColourTexturesAndFactorsPerMaterial) {
  RIG_REQUIRE_GL();
  Model model;
  model.images.resize(4);
  for (int i = 0; i < 3; ++i) {
    model.images[size_t(i)].width = 2;
    model.images[size_t(i)].height = 2;
    model.images[size_t(i)].rgba.assign(16, uint8_t(40 * i));
  }
  model.materials.resize(5);
  model.materials[0].base_color_factor = glm::vec4(0.5f, 0.25f, 1.0f, 1.0f);
  model.materials[0].base_color.texture = 0;
  model.materials[0].base_color.image = 0;
  model.materials[0].normal.texture = 1;
  model.materials[0].normal.image = 1;
  model.materials[1].base_color.image = 2;
  model.materials[2].base_color.image = 2;
  model.materials[3].base_color.image = 3;
  model.materials[3].base_color_factor = glm::vec4(0.1f, 0.2f, 0.3f, 0.4f);
  model.materials[4].normal.texture = 1;
  model.materials[4].normal.image = 1;

  detail::MaterialTable table;
  table.create(model);
  EXPECT_EQ(table.texture_count(), 2u);
  EXPECT_EQ(table.get(0).base_color_factor, glm::vec4(0.5f, 0.25f, 1.0f, 1.0f));
  EXPECT_NE(table.get(0).base_color_texture, 0u);
  EXPECT_NE(table.get(1).base_color_texture, 0u);
  EXPECT_EQ(table.get(1).base_color_texture, table.get(2).base_color_texture);  // one upload
  EXPECT_NE(table.get(0).base_color_texture, table.get(1).base_color_texture);
  EXPECT_EQ(table.get(1).base_color_factor, glm::vec4(1.0f));  // the spec's default
  EXPECT_EQ(table.get(3).base_color_texture, 0u);              // no pixels: untextured
  EXPECT_EQ(table.get(3).base_color_factor, glm::vec4(0.1f, 0.2f, 0.3f, 0.4f));
  EXPECT_EQ(table.get(4).base_color_texture, 0u);  // a normal map is no base colour
  for (int none : {-1, 5}) {
    EXPECT_EQ(table.get(none).base_color_factor, glm::vec4(0.8f, 0.8f, 0.8f, 1.0f));
    EXPECT_EQ(table.get(none).base_color_texture, 0u);
  }
  GLint sized = 0;
  glBindTexture(GL_TEXTURE_2D, table.get(0).base_color_texture);
  glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_INTERNAL_FORMAT, &sized);
  EXPECT_EQ(sized, GL_SRGB8_ALPHA8);
  glBindTexture(GL_TEXTURE_2D, 0);
  table.release();
  EXPECT_EQ(table.texture_count(), 0u);
}

// Instanced (crowd) variants: one per table row and use plus the rigid ones, every one linked,
// distinct, and reading the crowd's grid; the plain ones have no grid. Both have the shadow's
// depth pass opaque and alpha-tested.
TEST(ProgramVariants, CrowdAndPlainVariantsAreBuiltInOnePlace) {
  RIG_REQUIRE_GL();
  std::string error;
  detail::SkinPrograms crowd, plain;
  ASSERT_TRUE(crowd.build(detail::Instancing::Crowd, 0, error)) << error;
  ASSERT_TRUE(plain.build(detail::Instancing::Off, 1024, error)) << error;
  const int rows = int(skinning_methods().size());
  // Drawing, capture and the shadow's depth pass opaque and alpha-tested (the studio look cuts
  // the crowd's MASK and BLEND casts by alpha too), per row and rigid.
  EXPECT_EQ(crowd.program_count(), 4 * rows + 4);
  // The plain programs have the shadow's depth pass opaque and alpha-tested (two palette
  // storages per row and the rigid one, each).
  EXPECT_EQ(plain.program_count(), 8 * rows + 4);
  for (bool alpha : {false, true}) {
    const detail::MeshProgram& depth = plain.get({nullptr, 0, false, false, true, alpha});
    EXPECT_NE(depth.id, 0u);
    EXPECT_EQ(depth.alpha_tested_depth, alpha);
  }
  for (bool alpha : {false, true}) {
    const detail::MeshProgram& crowd_depth = crowd.get({nullptr, 0, false, false, true, alpha});
    EXPECT_NE(crowd_depth.id, 0u);
    EXPECT_GE(crowd_depth.grid_columns, 0);
    EXPECT_EQ(crowd_depth.alpha_tested_depth, alpha);
    for (const SkinningMethodInfo& m : skinning_methods())
      EXPECT_NE(crowd.get({&m, 0, true, false, true, alpha}).id, 0u) << m.name;
  }
  EXPECT_NE(plain.get({nullptr, 0, false, false, true, true}).id,
            plain.get({nullptr, 0, false, false, true, false}).id);
  std::set<GLuint> ids;
  for (bool capture : {false, true}) {
    const detail::MeshProgram& rigid = crowd.get(nullptr, false, capture);
    EXPECT_GE(rigid.grid_columns, 0);
    EXPECT_GE(rigid.rigid_base, 0);
    ids.insert(rigid.id);
    for (const SkinningMethodInfo& m : skinning_methods()) {
      const detail::MeshProgram& p = crowd.get(&m, true, capture);
      EXPECT_NE(p.id, 0u);
      EXPECT_GE(p.grid_columns, 0) << m.name;
      EXPECT_GE(p.palette_base, 0) << m.name;
      EXPECT_EQ(crowd.get(&m, false, capture).id, p.id);  // one storage when instanced
      EXPECT_EQ(plain.get(&m, false, capture).grid_columns, -1) << m.name;
      ids.insert(p.id);
    }
  }
  EXPECT_EQ(ids.size(), size_t(2 * rows + 2));
  crowd.release();
  plain.release();
  EXPECT_EQ(crowd.program_count(), 0);
}

}  // namespace
}  // namespace rig::render
