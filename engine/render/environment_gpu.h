// The studio look's environment on the GPU: the prefiltered specular levels as one mipmapped
// RGB16F texture (mip k = roughness k/(levels − 1); u repeats, v clamps), the irradiance SH
// coefficients, and the frame's look settings (render/look.h) as shader values.
#pragma once

#include <glad/gl.h>

#include <array>
#include <glm/glm.hpp>

#include "render/environment_prefilter.h"
#include "render/look.h"

namespace rig::render::detail {

class GpuEnvironment {
 public:
  GpuEnvironment() = default;
  GpuEnvironment(const GpuEnvironment&) = delete;
  GpuEnvironment& operator=(const GpuEnvironment&) = delete;
  ~GpuEnvironment() = default;  // GL objects go in release(), with the context current

  // Uploads `env` (replacing what was there). Allocates GPU memory; not per frame.
  void upload(const PrefilteredEnvironment& env);
  void release();
  bool ready() const { return texture_ != 0; }
  GLuint texture() const { return texture_; }
  float max_lod() const { return max_lod_; }
  const std::array<glm::vec3, 9>& irradiance_sh() const { return sh_; }
  uint64_t revision() const { return revision_; }

 private:
  GLuint texture_ = 0;
  float max_lod_ = 0.0f;
  std::array<glm::vec3, 9> sh_{};
  uint64_t revision_ = 0;
};

// What the mesh pass sets for the studio look: the environment and the look's settings.
struct StudioFrame {
  GLuint environment_texture = 0;
  float max_lod = 0.0f;
  std::array<glm::vec3, 9> irradiance_sh{};
  glm::mat3 environment_rotation{1.0f};  // world → environment
  float environment_intensity = 1.0f;
  float key_intensity = 0.0f;
  int tone_mapping = 0;  // look.frag.glsl's u_tone_mapping
  float exposure = 0.0f;
  static StudioFrame make(const GpuEnvironment& env, const LookSettings& look);
};

}  // namespace rig::render::detail
