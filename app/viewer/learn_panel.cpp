// The Learn tab: the lessons of viewer/lessons.h in the material's order, each with its text and
// Show me; the lesson shown on top with Leave lesson, and on the twist arm the demonstration's
// sliders and cross-section plot (viewer/learn_plot.cpp). Buttons post requests
// (state.learn); the frame loop serves them (viewer/viewer_learn.cpp).
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/trigonometric.hpp>

#include "viewer/exercises.h"
#include "viewer/glossary.h"
#include "viewer/lessons.h"
#include "viewer/mistakes.h"
#include "viewer/panels.h"

namespace rigview {

namespace {

// Each lesson's glossary term (its header's tooltip), in the lessons' order.
constexpr std::array<const char*, 12> kLessonTerms = {
    "Skeleton",    "Inverse bind matrix", "Skinning matrix",
    "LBS",         "Candy wrapper",       "DQS",
    "CoR",         "Crossfade",           "Two-bone IK",
    "Compression", "Skinning matrix",     "Weight"};

constexpr ImU32 kAxisColor = IM_COL32(110, 110, 110, 255);
constexpr ImU32 kAnalyticColor = IM_COL32(235, 235, 235, 255);

// A plot box of `size` at the cursor: angle -180..180 across, 0..top up. Returns its corner.
ImVec2 plot_box(ImDrawList* dl, ImVec2 size) {
  const ImVec2 p = ImGui::GetCursorScreenPos();
  dl->AddRect(p, ImVec2(p.x + size.x, p.y + size.y), kAxisColor);
  dl->AddLine(ImVec2(p.x + 0.5f * size.x, p.y), ImVec2(p.x + 0.5f * size.x, p.y + size.y),
              kAxisColor);
  return p;
}

ImVec2 plot_point(ImVec2 corner, ImVec2 size, float degrees, float value, float top) {
  return ImVec2(corner.x + (degrees + 180.0f) / 360.0f * size.x,
                corner.y + size.y * (1.0f - std::clamp(value / top, 0.0f, 1.0f)));
}

// The ring's outline per method over each other, then the LBS radius against the twist beside
// r cos(angle/2), then each method's outer reach against the bend. Fixed-size point arrays: no
// allocation.
void draw_cross_section(const TwistDemoView& v) {
  if (!v.valid || v.bind_radius <= 0.0f) return;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float avail = ImGui::GetContentRegionAvail().x;
  const float side = std::min(avail, 220.0f);
  const float r = v.bind_radius;

  ImGui::TextUnformatted("Middle ring, across the bone:");
  const ImVec2 c0 = ImGui::GetCursorScreenPos();
  const ImVec2 centre(c0.x + 0.5f * side, c0.y + 0.5f * side);
  const float scale = 0.4f * side / r;
  dl->AddRect(c0, ImVec2(c0.x + side, c0.y + side), kAxisColor);
  dl->AddCircle(centre, r * scale, kAxisColor, 48);  // the bind ring
  std::array<ImVec2, 128> pts;
  for (int m = 0; m < kDemoMethods; ++m) {
    const std::vector<glm::vec2>& ring = v.points[size_t(m)];
    const size_t n = std::min(ring.size(), pts.size());
    for (size_t i = 0; i < n; ++i)
      pts[i] = ImVec2(centre.x + ring[i].x * scale, centre.y - ring[i].y * scale);
    dl->AddPolyline(pts.data(), int(n), artefact_curve_color(static_cast<rig::SkinningMethod>(m)),
                    ImDrawFlags_Closed, 2.0f);
  }
  ImGui::Dummy(ImVec2(side, side));
  ImGui::Text("radius (mean)  LBS %.4f  DQS %.4f  CoR %.4f", v.radius[0].mean, v.radius[1].mean,
              v.radius[2].mean);
  ImGui::Text("r cos(twist/2) %.4f   bind r %.4f", r * std::cos(glm::radians(0.5f * v.twist_deg)),
              r);

  const ImVec2 size(std::min(avail, 320.0f), 110.0f);
  ImGui::TextUnformatted("LBS radius vs twist (line: r cos(angle/2), dots: measured):");
  ImVec2 p = plot_box(dl, size);
  for (int i = 0; i < kDemoBins; ++i) {
    const float deg = -180.0f + 5.0f * float(i);
    pts[size_t(i)] = plot_point(p, size, deg, r * std::cos(glm::radians(0.5f * deg)), 1.1f * r);
  }
  dl->AddPolyline(pts.data(), kDemoBins, kAnalyticColor, ImDrawFlags_None, 1.0f);
  const ImU32 lbs = artefact_curve_color(rig::SkinningMethod::Linear);
  for (int i = 0; i < kDemoBins; ++i)
    if (v.twist_radius[size_t(i)] >= 0.0f)
      dl->AddCircleFilled(
          plot_point(p, size, -180.0f + 5.0f * float(i), v.twist_radius[size_t(i)], 1.1f * r), 3.0f,
          lbs);
  dl->AddCircle(plot_point(p, size, v.twist_deg, v.radius[0].mean, 1.1f * r), 6.0f, lbs);
  ImGui::Dummy(size);

  ImGui::TextUnformatted("Outer reach vs bend (LBS, DQS, CoR):");
  p = plot_box(dl, size);
  for (int i = 0; i < kDemoBins; ++i)
    for (int m = 0; m < kDemoMethods; ++m)
      if (const float reach = v.bend_reach[size_t(i)][size_t(m)]; reach >= 0.0f)
        dl->AddCircleFilled(plot_point(p, size, -180.0f + 5.0f * float(i), reach, 1.3f * r), 2.5f,
                            artefact_curve_color(static_cast<rig::SkinningMethod>(m)));
  ImGui::Dummy(size);
  ImGui::Text("reach  LBS %.4f  DQS %.4f  CoR %.4f", v.reach[0], v.reach[1], v.reach[2]);
}

// The twist arm's sliders: ArmTwist's rotation, rest * q_Z(bend) * q_X(twist), with no clip;
// then the cross-section they give.
void draw_twist_demo(ViewerState& state, const Document& doc) {
  if (twist_arm_node(doc) < 0) return;
  ImGui::SliderFloat("Twist", &state.learn.twist_deg, -180.0f, 180.0f, "%.0f deg");
  ImGui::SliderFloat("Bend", &state.learn.bend_deg, -180.0f, 180.0f, "%.0f deg");
  draw_cross_section(state.learn.demo);
}

// The exercise "read the slerp at t = 0.25": the two keys, an angle field, and Check, which
// asks the engine's sampler.
void draw_slerp_exercise(LearnState& l) {
  ImGui::TextWrapped(
      "Exercise: a LINEAR rotation channel has key 0 at 0 s = identity (w 1, x 0) and key 1 at "
      "1 s = %.0f deg about X (w 0.5, x 0.866). What rotation about X does it play at t = %.2f s?",
      double(kSlerpKeyDegrees), double(kSlerpTime));
  ImGui::SetNextItemWidth(120.0f);
  ImGui::InputFloat("degrees about X", &l.slerp_answer_deg, 0.0f, 0.0f, "%.2f");
  ImGui::SameLine();
  if (ImGui::Button("Check")) {
    const SlerpCheck c = check_slerp_answer(l.slerp_answer_deg);
    l.slerp_verdict = c.right ? 1 : -1;
    l.slerp_expected_deg = c.sampled_degrees;
  }
  if (l.slerp_verdict > 0)
    ImGui::TextColored(ImVec4(0.5f, 1.0f, 0.5f, 1.0f),
                       "Right: %.2f deg. Slerp turns at a constant rate, so a quarter of the time "
                       "is a quarter of the angle.",
                       double(l.slerp_expected_deg));
  else if (l.slerp_verdict < 0)
    ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.4f, 1.0f),
                       "Not quite: the sampler plays %.2f deg. Lerping the components and "
                       "normalizing would give %.2f deg: it runs slow at the ends.",
                       double(l.slerp_expected_deg),
                       double(check_slerp_answer(0.0f).normalized_lerp_degrees));
}

// The exercise "which multiplication order is right?": each choice is shown in the view (the
// reversed-multiply mistake on for local x parent) and checked on the character's pose.
void draw_order_exercise(ViewerState& state, const Document& doc) {
  LearnState& l = state.learn;
  ImGui::TextWrapped("Exercise: a joint's world matrix is which product?");
  if (ImGui::RadioButton("parent x local", l.order_choice == 0))
    choose_multiplication_order(state, 0);
  ImGui::SameLine();
  if (ImGui::RadioButton("local x parent", l.order_choice == 1))
    choose_multiplication_order(state, 1);
  if (l.order_choice < 0 || !doc.character) return;
  const OrderCheck c =
      check_multiplication_order(*doc.character, state.selected_node, l.order_choice);
  if (c.node < 0) return;
  ImGui::TextColored(c.right ? ImVec4(0.5f, 1.0f, 0.5f, 1.0f) : ImVec4(1.0f, 0.6f, 0.4f, 1.0f),
                     "%s",
                     c.right ? "Right: the parent's frame carries the child's local offset."
                             : "Wrong: that applies the parent inside the child's frame; "
                               "the view shows the reversed product torn apart.");
  ImGui::Text("%s: |world - parent x local| %.2g, |world - local x parent| %.2g",
              doc.node_labels[size_t(c.node)].c_str(), double(c.parent_local_error),
              double(c.local_parent_error));
}

// The Mistakes: one switch per mistake (Ctrl+1..9), one at a time, each drawn right beside
// wrong in the compare columns with its caption.
void draw_mistakes(ViewerState& state) {
  if (!ImGui::CollapsingHeader("Mistakes")) return;
  ImGui::TextWrapped(
      "Each switch draws the wrong way (right column) beside the right way (left column), "
      "skinned on the CPU as --pitfall and --simulate-bug do. Off gives back your view.");
  const std::span<const Mistake> all = mistakes();
  for (size_t i = 0; i < all.size(); ++i) {
    bool on = state.learn.mistake == static_cast<int>(i);
    char label[64];
    std::snprintf(label, sizeof label, "%s (Ctrl+%d)", all[i].name, static_cast<int>(i) + 1);
    if (ImGui::Checkbox(label, &on)) toggle_mistake(state, static_cast<int>(i));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", all[i].caption);
  }
  if (state.learn.mistake >= 0) ImGui::TextWrapped("%s", all[size_t(state.learn.mistake)].caption);
}

}  // namespace

void glossary_tooltip(const char* term) {
  if (!ImGui::IsItemHovered()) return;
  if (const char* definition = glossary_definition(term))
    ImGui::SetTooltip("%s: %s", term, definition);
}

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
    if (std::strcmp(lesson.title, "Bind pose and inverse bind matrices") == 0 ||
        std::strcmp(lesson.title, "Skinning matrix") == 0) {
      ImGui::TextWrapped(
          "Exercise: in the bind pose every skinning matrix is the identity. "
          "Toggle the rest pose (R) and watch the largest deviation.");
      ImGui::Text("largest |S - I| now: %.3g (%s)", double(largest_skinning_deviation(doc)),
                  state.rest_pose ? "rest pose" : "posed");
    }
    if (std::strcmp(lesson.title, "Crossfade") == 0) draw_slerp_exercise(l);
    if (std::strcmp(lesson.title, "Skeleton and hierarchy") == 0) draw_order_exercise(state, doc);
    ImGui::Separator();
  } else if (l.pending >= 0 || l.restoring) {
    ImGui::TextDisabled("opening...");
  }
  if (!l.message.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.4f, 1.0f), "%s", l.message.c_str());
  draw_mistakes(state);
  ImGui::TextWrapped(
      "Lessons, in the order the material teaches them. Show me sets the viewer "
      "up; Leave lesson (or another lesson's Show me) puts back what you had.");
  for (size_t i = 0; i < all.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const bool open = ImGui::CollapsingHeader(all[i].title);
    if (i < kLessonTerms.size()) glossary_tooltip(kLessonTerms[i]);
    if (open) {
      ImGui::TextWrapped("%s", all[i].text);
      if (ImGui::Button("Show me")) l.show = static_cast<int>(i);
    }
    ImGui::PopID();
  }
}

}  // namespace rigview
