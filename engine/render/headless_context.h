// A windowless OpenGL 3.3 core context through EGL's surfaceless platform (Mesa), for headless
// rendering and GPU read-back: no X server, no DISPLAY. Loads glad on success.
#pragma once

#include <string>

namespace rig::render {

class HeadlessContext {
 public:
  HeadlessContext() = default;
  ~HeadlessContext();
  HeadlessContext(const HeadlessContext&) = delete;
  HeadlessContext& operator=(const HeadlessContext&) = delete;

  // Creates the context, makes it current on this thread and loads the GL functions.
  // false + one-line error when EGL, the surfaceless platform or GL 3.3 core is missing.
  bool create(std::string& error);
  void destroy();
  bool valid() const { return context_ != nullptr; }
  // GL_RENDERER of the created context (e.g. "llvmpipe (LLVM 15.0.6, 256 bits)").
  const std::string& renderer_name() const { return renderer_name_; }

 private:
  void* display_ = nullptr;  // EGLDisplay
  void* context_ = nullptr;  // EGLContext
  std::string renderer_name_;
};

}  // namespace rig::render
