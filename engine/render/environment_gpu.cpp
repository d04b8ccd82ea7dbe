#include "render/environment_gpu.h"

#include <glm/gtc/matrix_transform.hpp>
#include <vector>

#include "render/gl_util.h"

namespace rig::render::detail {

void GpuEnvironment::upload(const PrefilteredEnvironment& env) {
  release();
  if (env.empty()) return;
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  const int levels = int(env.levels.size());
  for (int k = 0; k < levels; ++k) {
    const EnvironmentMap& m = env.levels[size_t(k)];
    glTexImage2D(GL_TEXTURE_2D, k, GL_RGB16F, m.width, m.height, 0, GL_RGB, GL_FLOAT,
                 m.texels.data());
  }
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_BASE_LEVEL, 0);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, levels - 1);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER,
                  levels > 1 ? GL_LINEAR_MIPMAP_LINEAR : GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glBindTexture(GL_TEXTURE_2D, 0);
  max_lod_ = float(levels - 1);
  sh_ = env.irradiance_sh;
  ++revision_;
  check_gl_errors("GpuEnvironment::upload");
}

void GpuEnvironment::release() {
  if (texture_) glDeleteTextures(1, &texture_);
  texture_ = 0;
}

StudioFrame StudioFrame::make(const GpuEnvironment& env, const LookSettings& look) {
  StudioFrame f;
  f.environment_texture = env.texture();
  f.max_lod = env.max_lod();
  f.irradiance_sh = env.irradiance_sh();
  // The environment turned by +θ about +Y: a world direction is looked up turned by −θ.
  f.environment_rotation = glm::mat3(glm::rotate(
      glm::mat4(1.0f), -glm::radians(look.environment_rotation_deg), glm::vec3(0, 1, 0)));
  f.environment_intensity = look.environment_intensity;
  f.key_intensity = look.key_intensity;
  f.tone_mapping = look.tone_mapping == ToneMapping::Neutral ? 0
                   : look.tone_mapping == ToneMapping::Aces  ? 1
                                                             : 2;
  f.exposure = look.exposure_ev;
  return f;
}

}  // namespace rig::render::detail
