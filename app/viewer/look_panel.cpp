// The Look section of the Display tab (README "The look"): studio or classic; the studio look's
// environment (the bundled studio or a dropped .hdr, loaded in the background with progress and
// Cancel), its turn and intensity, the key light, tone mapping and exposure.
#include <imgui.h>

#include "viewer/panels.h"

namespace rigview {

void draw_look_section(ViewerState& state) {
  ViewerLook& look = state.look;
  int choice = look.studio ? 0 : 1;
  ImGui::RadioButton("Studio", &choice, 0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("glTF metallic-roughness under a key light and an environment, tone mapped");
  ImGui::SameLine();
  ImGui::RadioButton("Classic", &choice, 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("The earlier look: base colour, key light, sky");
  look.studio = choice == 0;
  if (!look.studio) return;

  // A pointer, not a copy: a frame must not allocate.
  const char* shown = look.environment.empty() ? "Studio (bundled)" : look.environment.c_str();
  ImGui::TextDisabled("Environment: %s", shown);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Drop a Radiance .hdr onto the window to use it");
  if (look.loading) {
    ImGui::ProgressBar(look.progress, ImVec2(-70.0f, 0.0f), "prefiltering...");
    ImGui::SameLine();
    if (ImGui::Button("Cancel##look")) look.cancel_requested = true;
  } else if (!look.environment.empty() && ImGui::Button("Use the bundled studio")) {
    look.load_requested = true;
    look.load_path.clear();
  }
  if (!look.error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.5f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", look.error.c_str());
    ImGui::PopStyleColor();
  }
  rig::render::LookSettings& s = look.settings;
  ImGui::SetNextItemWidth(170.0f);
  ImGui::SliderFloat("Rotation", &s.environment_rotation_deg, -180.0f, 180.0f, "%.0f deg");
  ImGui::SetNextItemWidth(170.0f);
  ImGui::SliderFloat("Intensity", &s.environment_intensity, 0.0f, 4.0f, "%.2f");
  ImGui::SetNextItemWidth(170.0f);
  ImGui::SliderFloat("Key light", &s.key_intensity, 0.0f, 8.0f, "%.2f");
  int tone = static_cast<int>(s.tone_mapping);
  ImGui::SetNextItemWidth(170.0f);
  ImGui::Combo("Tone mapping", &tone, "PBR Neutral\0ACES filmic\0None\0");
  s.tone_mapping = static_cast<rig::render::ToneMapping>(tone);
  ImGui::SetNextItemWidth(170.0f);
  ImGui::SliderFloat("Exposure", &s.exposure_ev, -4.0f, 4.0f, "%.1f EV");
  if (ImGui::Button("Reset look")) s = rig::render::LookSettings{};
}

}  // namespace rigview
