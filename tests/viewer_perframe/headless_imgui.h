// A Dear ImGui context without a window (no backend, no GL) for the viewer's panel tests: a
// display size, a built font atlas, no ini file, and ImGui's allocations counted in `counter`
// when one is given (the allocation tests pass counting_new.h's g_allocations).
#pragma once

#include <imgui.h>

#include <atomic>
#include <cstdlib>

namespace rigview {

inline void* headless_imgui_alloc(size_t size, void* counter) {
  if (counter) static_cast<std::atomic<long>*>(counter)->fetch_add(1, std::memory_order_relaxed);
  return std::malloc(size);
}
inline void headless_imgui_free(void* p, void*) { std::free(p); }

struct HeadlessImGui {
  explicit HeadlessImGui(std::atomic<long>* counter = nullptr, float width = 1280.0f,
                         float height = 1400.0f) {
    ImGui::SetAllocatorFunctions(headless_imgui_alloc, headless_imgui_free, counter);
    ImGui::CreateContext();
    ImGuiIO& io = ImGui::GetIO();
    io.IniFilename = nullptr;
    io.DisplaySize = ImVec2(width, height);
    io.DeltaTime = 1.0f / 30.0f;
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  }
  ~HeadlessImGui() { ImGui::DestroyContext(); }
  HeadlessImGui(const HeadlessImGui&) = delete;
  HeadlessImGui& operator=(const HeadlessImGui&) = delete;
};

}  // namespace rigview
