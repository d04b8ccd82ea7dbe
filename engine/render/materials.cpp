#include "render/materials.h"

#include <cmath>
#include <initializer_list>

#include "render/dfg_lut.h"

namespace rig::render::detail {

Lighting Lighting::for_camera(const Camera& camera, LightSetup setup) {
  Lighting lighting;
  lighting.setup = setup;
  lighting.view_rotation = glm::mat3(camera.view);
  lighting.key_direction =
      glm::normalize(glm::vec3(glm::inverse(camera.view) * glm::vec4(-0.45f, 0.75f, 0.55f, 0.0f)));
  return lighting;
}

Lighting Lighting::for_frame(const Camera& camera, LightSetup setup, glm::vec3 key_override) {
  Lighting l = for_camera(camera, setup);
  if (key_override != glm::vec3(0.0f)) l.key_direction = key_override;
  return l;
}

glm::mat3 texture_transform_matrix(const rig::TextureTransform& t) {
  // glm is column-major (m[column][row]); the extension's rotation matrix has rows (cos, sin)
  // and (−sin, cos).
  const float c = std::cos(t.rotation), s = std::sin(t.rotation);
  glm::mat3 translation(1.0f), rotation(1.0f), scale(1.0f);
  translation[2][0] = t.offset.x;
  translation[2][1] = t.offset.y;
  rotation[0][0] = c;
  rotation[1][0] = s;
  rotation[0][1] = -s;
  rotation[1][1] = c;
  scale[0][0] = t.scale.x;
  scale[1][1] = t.scale.y;
  return translation * rotation * scale;
}

namespace {

bool has_pixels(const rig::Image& image) {
  return image.width > 0 && image.height > 0 &&
         image.rgba.size() == size_t(image.width) * size_t(image.height) * 4;
}

GLuint upload_texture(const rig::Image& image, bool srgb) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, srgb ? GL_SRGB8_ALPHA8 : GL_RGBA8, image.width, image.height, 0,
               GL_RGBA, GL_UNSIGNED_BYTE, image.rgba.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return texture;
}

GLint valid_or(int value, std::initializer_list<int> valid, GLint fallback) {
  for (int v : valid)
    if (value == v) return GLint(value);
  return fallback;
}

}  // namespace

GLuint MaterialTable::sampler(const rig::TextureSampler& s) {
  const std::array<GLint, 4> key = {
      valid_or(s.mag_filter, {GL_NEAREST, GL_LINEAR}, GL_LINEAR),
      valid_or(s.min_filter,
               {GL_NEAREST, GL_LINEAR, GL_NEAREST_MIPMAP_NEAREST, GL_LINEAR_MIPMAP_NEAREST,
                GL_NEAREST_MIPMAP_LINEAR, GL_LINEAR_MIPMAP_LINEAR},
               GL_LINEAR_MIPMAP_LINEAR),
      valid_or(s.wrap_s, {GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT}, GL_REPEAT),
      valid_or(s.wrap_t, {GL_REPEAT, GL_CLAMP_TO_EDGE, GL_MIRRORED_REPEAT}, GL_REPEAT)};
  for (size_t i = 0; i < sampler_keys_.size(); ++i)
    if (sampler_keys_[i] == key) return samplers_[i];
  GLuint id = 0;
  glGenSamplers(1, &id);
  glSamplerParameteri(id, GL_TEXTURE_MAG_FILTER, key[0]);
  glSamplerParameteri(id, GL_TEXTURE_MIN_FILTER, key[1]);
  glSamplerParameteri(id, GL_TEXTURE_WRAP_S, key[2]);
  glSamplerParameteri(id, GL_TEXTURE_WRAP_T, key[3]);
  sampler_keys_.push_back(key);
  samplers_.push_back(id);
  return id;
}

void MaterialTable::create(const rig::Model& model) {
  release();
  textures_.assign(model.images.size(), 0);
  linear_textures_.assign(model.images.size(), 0);
  // Colour textures are sRGB (decoded to linear before filtering), data textures linear.
  auto texture = [&](const rig::TextureRef& ref, bool srgb) -> GLuint {
    const int i = ref.image;
    if (i < 0 || i >= int(model.images.size())) return 0;
    GLuint& t = (srgb ? textures_ : linear_textures_)[size_t(i)];
    if (!t && has_pixels(model.images[size_t(i)]))
      t = upload_texture(model.images[size_t(i)], srgb);
    return t;
  };
  materials_.resize(model.materials.size());
  for (size_t m = 0; m < model.materials.size(); ++m) {
    const rig::Material& source = model.materials[m];
    GpuMaterial& material = materials_[m];
    material.base_color_factor = source.base_color_factor;
    material.base_color_texture = texture(source.base_color, true);
    material.metallic = source.metallic_factor;
    material.roughness = source.roughness_factor;
    material.metallic_roughness_texture = texture(source.metallic_roughness, false);
    material.occlusion_texture = texture(source.occlusion, false);
    material.occlusion_strength = source.occlusion_strength;
    material.emissive = source.emissive_factor * source.emissive_strength;
    material.emissive_texture = texture(source.emissive, true);
    material.normal_texture = texture(source.normal, false);
    material.normal_scale = source.normal_scale;
    material.ior = source.ior;
    material.specular = source.specular_factor;
    material.specular_color = source.specular_color_factor;
    material.specular_texture = texture(source.specular, false);
    material.specular_color_texture = texture(source.specular_color, true);
    material.unlit = source.unlit;
    material.double_sided = source.double_sided;
    material.alpha_mode = source.alpha_mode;
    material.alpha_cutoff = source.alpha_cutoff;
    const auto slots = rig::texture_slots(source);
    for (size_t slot = 0; slot < rig::kTextureSlotCount; ++slot) {
      const rig::TextureRef& ref = *slots[slot];
      // Only two sets reach the GPU; a higher one reads TEXCOORD_0 rather than nothing.
      material.uv_sets[slot] = ref.effective_texcoord() == 1 ? 1 : 0;
      material.samplers[slot] = sampler(ref.sampler);
      material.uv_transforms[slot] =
          ref.has_transform ? texture_transform_matrix(ref.transform) : glm::mat3(1.0f);
    }
  }
  // The DFG table, sampled linearly and clamped as three.js samples its own.
  const std::vector<float> dfg = dfg_table();
  glGenTextures(1, &dfg_texture_);
  glBindTexture(GL_TEXTURE_2D, dfg_texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RG32F, kDfgTableSize, kDfgTableSize, 0, GL_RG, GL_FLOAT,
               dfg.data());
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // the GL default, which the app's own uploads expect
  glBindTexture(GL_TEXTURE_2D, 0);
}

void MaterialTable::apply(const rig::MaterialPose& pose) {
  if (!pose.any_animated || pose.values.size() != materials_.size()) return;
  for (size_t m = 0; m < materials_.size(); ++m) {
    if (!pose.animated[m]) continue;
    const rig::MaterialFactors& f = pose.values[m];
    GpuMaterial& material = materials_[m];
    const glm::mat3 base_transform = texture_transform_matrix(f.transforms[0]);
    if (material.base_color_factor.a != f.base_color.a || material.alpha_cutoff != f.alpha_cutoff ||
        material.uv_transforms[0] != base_transform)
      ++cast_revision_;
    material.base_color_factor = f.base_color;
    material.metallic = f.metallic;
    material.roughness = f.roughness;
    material.occlusion_strength = f.occlusion_strength;
    material.emissive = f.emissive * f.emissive_strength;
    material.normal_scale = f.normal_scale;
    material.ior = f.ior;
    material.specular = f.specular;
    material.specular_color = f.specular_color;
    material.alpha_cutoff = f.alpha_cutoff;
    // f.transforms is in TextureSlot order, which is GpuMaterial's slot order.
    for (size_t slot = 0; slot < rig::kTextureSlotCount; ++slot)
      material.uv_transforms[slot] = texture_transform_matrix(f.transforms[slot]);
  }
}

void MaterialTable::release() {
  for (GLuint t : textures_)
    if (t) glDeleteTextures(1, &t);
  for (GLuint t : linear_textures_)
    if (t) glDeleteTextures(1, &t);
  for (GLuint s : samplers_) glDeleteSamplers(1, &s);
  samplers_.clear();
  sampler_keys_.clear();
  if (dfg_texture_) glDeleteTextures(1, &dfg_texture_);
  dfg_texture_ = 0;
  textures_.clear();
  linear_textures_.clear();
  materials_.clear();
}

size_t MaterialTable::texture_count() const {
  size_t n = 0;
  for (GLuint t : textures_) n += t != 0;
  return n;
}

}  // namespace rig::render::detail
