// The Learn tab: the lessons of viewer/lessons.h in the material's order, each with its text and
// Show me; the lesson shown on top with Leave lesson, and on the twist arm the demonstration's
// sliders and cross-section plot (viewer/learn_plot.cpp). Buttons post requests
// (state.learn); the frame loop serves them (viewer/viewer_learn.cpp).
#include <imgui.h>

#include "viewer/lessons.h"
#include "viewer/panels.h"

namespace rigview {

namespace {

// The twist arm's sliders: ArmTwist's rotation, rest * q_Z(bend) * q_X(twist), with no clip.
void draw_twist_demo(ViewerState& state, const Document& doc) {
  if (twist_arm_node(doc) < 0) return;
  ImGui::SliderFloat("Twist", &state.learn.twist_deg, -180.0f, 180.0f, "%.0f deg");
  ImGui::SliderFloat("Bend", &state.learn.bend_deg, -180.0f, 180.0f, "%.0f deg");
}

}  // namespace

void draw_learn_tab(ViewerState& state, Document& doc) {
  LearnState& l = state.learn;
  const std::span<const Lesson> all = lessons();
  if (l.active >= 0 && size_t(l.active) < all.size()) {
    const Lesson& lesson = all[size_t(l.active)];
    ImGui::Text("Lesson: %s", lesson.title);
    if (ImGui::Button("Leave lesson")) l.leave = true;
    ImGui::SameLine();
    ImGui::TextDisabled("(puts back what you had)");
    ImGui::TextWrapped("%s", lesson.text);
    if (lesson.sliders) draw_twist_demo(state, doc);
    ImGui::Separator();
  } else if (l.pending >= 0 || l.restoring) {
    ImGui::TextDisabled("opening...");
  }
  if (!l.message.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", l.message.c_str());
  ImGui::TextWrapped(
      "Lessons, in the order the material teaches them. Show me sets the viewer "
      "up; Leave lesson (or another lesson's Show me) puts back what you had.");
  for (size_t i = 0; i < all.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::CollapsingHeader(all[i].title)) {
      ImGui::TextWrapped("%s", all[i].text);
      if (ImGui::Button("Show me")) l.show = static_cast<int>(i);
    }
    ImGui::PopID();
  }
}

}  // namespace rigview
