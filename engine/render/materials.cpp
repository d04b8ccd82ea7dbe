#include "render/materials.h"

namespace rig::render::detail {

Lighting Lighting::for_camera(const Camera& camera) {
  Lighting lighting;
  lighting.key_direction =
      glm::normalize(glm::vec3(glm::inverse(camera.view) * glm::vec4(-0.45f, 0.75f, 0.55f, 0.0f)));
  return lighting;
}

namespace {

bool has_pixels(const rig::Image& image) {
  return image.width > 0 && image.height > 0 &&
         image.rgba.size() == size_t(image.width) * size_t(image.height) * 4;
}

GLuint upload_srgb_texture(const rig::Image& image) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glBindTexture(GL_TEXTURE_2D, texture);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, image.width, image.height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, image.rgba.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return texture;
}

}  // namespace

void MaterialTable::create(const rig::Model& model) {
  release();
  textures_.assign(model.images.size(), 0);
  materials_.resize(model.materials.size());
  for (size_t m = 0; m < model.materials.size(); ++m) {
    const rig::Material& source = model.materials[m];
    GpuMaterial& material = materials_[m];
    material.base_color_factor = source.base_color_factor;
    const int i = source.base_color.image;
    if (i < 0 || i >= int(model.images.size())) continue;
    GLuint& texture = textures_[size_t(i)];
    if (!texture && has_pixels(model.images[size_t(i)]))
      texture = upload_srgb_texture(model.images[size_t(i)]);
    material.base_color_texture = texture;
  }
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);  // the GL default, which the app's own uploads expect
  glBindTexture(GL_TEXTURE_2D, 0);
}

void MaterialTable::release() {
  for (GLuint t : textures_)
    if (t) glDeleteTextures(1, &t);
  textures_.clear();
  materials_.clear();
}

size_t MaterialTable::texture_count() const {
  size_t n = 0;
  for (GLuint t : textures_) n += t != 0;
  return n;
}

}  // namespace rig::render::detail
