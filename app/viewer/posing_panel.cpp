#include "viewer/posing_panel.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

#include "anim/joint_mask.h"

namespace rigview {

namespace {

constexpr ImU32 kFootColours[] = {IM_COL32(90, 160, 255, 255), IM_COL32(255, 150, 40, 255)};
constexpr ImU32 kSourceColour = IM_COL32(90, 160, 255, 255);
constexpr ImU32 kTargetColour = IM_COL32(255, 150, 40, 255);
constexpr ImU32 kLayerColour = IM_COL32(200, 120, 255, 255);

// A labelled separator (older ImGui has no SeparatorText).
void separator_text(const char* text) {
  ImGui::Separator();
  ImGui::TextDisabled("%s", text);
}

const char* label(const Document& doc, int node) {
  return node >= 0 && size_t(node) < doc.node_labels.size() ? doc.node_labels[size_t(node)].c_str()
                                                            : "(none)";
}

// The joint a look-at turns by default: one named "Head" (any case, any prefix such as
// "mixamorig:"), else the selected joint.
int head_joint(const Document& doc, int selected) {
  int loose = -1;
  for (int node : doc.joint_nodes) {
    std::string name = doc.model->nodes[size_t(node)].name;
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (name.size() >= 4 && name.compare(name.size() - 4, 4, "head") == 0) return node;
    if (loose < 0 && name.find("head") != std::string::npos) loose = node;
  }
  return loose >= 0 ? loose : selected;
}

bool clip_combo(const char* id, const Document& doc, int& clip) {
  bool changed = false;
  const int clips = static_cast<int>(doc.clip_labels.size());
  clip = std::clamp(clip, 0, clips - 1);
  if (ImGui::BeginCombo(id, doc.clip_labels[size_t(clip)].c_str())) {
    for (int c = 0; c < clips; ++c)
      if (!doc.clip_list_rows[size_t(c)].empty() &&  // not withdrawn by an undo
          ImGui::Selectable(doc.clip_list_rows[size_t(c)].c_str(), c == clip))
        clip = c, changed = true;
    ImGui::EndCombo();
  }
  return changed;
}

// "whole body", or "<joint> and below" for every joint: masks as subtrees.
bool mask_combo(const Document& doc, int& root) {
  bool changed = false;
  char preview[160];
  if (root < 0)
    std::snprintf(preview, sizeof preview, "whole body");
  else
    std::snprintf(preview, sizeof preview, "%s and below", label(doc, root));
  if (ImGui::BeginCombo("mask", preview)) {
    if (ImGui::Selectable("whole body", root < 0)) root = -1, changed = true;
    for (int node : doc.joint_nodes) {
      std::snprintf(preview, sizeof preview, "%s and below##%d", label(doc, node), node);
      if (ImGui::Selectable(preview, node == root)) root = node, changed = true;
    }
    ImGui::EndCombo();
  }
  return changed;
}

void draw_layers(ViewerState& state, Document& doc, Posing& posing) {
  (void)state;
  const rig::ClipSet& clips = doc.character->clips();
  separator_text("Layers");
  for (size_t i = 0; i < posing.layer_count(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    LayerSettings s = posing.layer(i);
    bool changed = false;
    ImGui::Text("L%zu", i + 1);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 70.0f);
    if (clip_combo("##clip", doc, s.clip)) {
      changed = true;
      s.time = clips[size_t(s.clip)].start;
    }
    ImGui::SameLine();
    const bool remove = ImGui::SmallButton("Remove");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    changed |= ImGui::SliderFloat("##weight", &s.weight, 0.0f, 1.0f, "weight %.2f");
    ImGui::SameLine();
    int mode = s.additive ? 1 : 0;
    ImGui::SetNextItemWidth(-FLT_MIN);
    if (ImGui::Combo("##mode", &mode, "override\0additive\0"))
      s.additive = mode == 1, changed = true;
    const rig::ClipEntry& clip = clips[size_t(s.clip)];
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    if (clip.end > clip.start)
      changed |= ImGui::SliderFloat("##time", &s.time, clip.start, clip.end, "at %.2f s");
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 40.0f);
    changed |= mask_combo(doc, s.mask_root);
    if (changed) posing.set_layer(i, s);
    ImGui::PopID();
    if (remove) {
      posing.remove_layer(i);
      break;
    }
  }
  if (clips.empty()) {
    ImGui::TextDisabled("Layers need an animation.");
  } else if (ImGui::Button("Add layer")) {
    LayerSettings s;
    s.clip = std::max(doc.playback.clip(), 0);
    s.time = clips[size_t(s.clip)].start;
    posing.add_layer(s);
  }
}

void draw_ik(ViewerState& state, Document& doc, Posing& posing) {
  separator_text("IK");
  for (size_t i = 0; i < posing.ik_count(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    rig::TwoBoneIK& ik = posing.ik(i);
    ImGui::Text("%s > %s > %s", label(doc, ik.chain.root), label(doc, ik.chain.mid),
                label(doc, ik.chain.end));
    ImGui::SameLine();
    const bool remove = ImGui::SmallButton("Remove");
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    ImGui::SliderFloat("##weight", &ik.weight, 0.0f, 1.0f, "weight %.2f");
    ImGui::SameLine();
    ImGui::Checkbox("pole", &ik.use_pole);
    ImGui::SameLine();
    ImGui::Checkbox("keep hand/foot", &ik.keep_end_rotation);
    ImGui::SetNextItemWidth(-FLT_MIN);
    ImGui::DragFloat3("##target", &ik.target.x, 0.005f, 0.0f, 0.0f, "%.3f");
    ImGui::PopID();
    if (remove) {
      posing.remove_ik_chain(i);
      break;
    }
  }
  const bool can_add = state.selected_node >= 0;
  if (!can_add) ImGui::BeginDisabled();
  char text[160];
  std::snprintf(text, sizeof text, "Add chain ending at %s",
                can_add ? label(doc, state.selected_node) : "the selected joint");
  if (ImGui::Button(text)) state.requests.make_ik_chain = state.selected_node;
  if (!can_add) ImGui::EndDisabled();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextWrapped(
      "Select a hand or foot (tree, or click it with bones on; or right-click it in the tree), "
      "add a chain, then drag its circle in the view; Ctrl+drag moves it in depth.");
  ImGui::PopStyleColor();
}

void draw_feet_look_root(ViewerState& state, Document& doc, Posing& posing) {
  separator_text("Feet, look-at, root motion");
  bool feet = posing.feet_on_ground();
  if (ImGui::Checkbox("Feet on ground", &feet) &&
      !posing.set_feet_on_ground(feet, state.posing_error))
    feet = false;
  if (posing.feet_on_ground()) {
    ImGui::SameLine();
    for (size_t f = 0; f < posing.feet_joints().size() && f < 2; ++f) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(kFootColours[f]), "%s",
                         label(doc, posing.feet_joints()[f]));
    }
  }
  bool look = posing.look_at();
  if (ImGui::Checkbox("Look at", &look))
    posing.set_look_at(look, head_joint(doc, state.selected_node), state.posing_error);
  if (posing.look_at()) {
    ImGui::SameLine();
    ImGui::TextDisabled("%s", label(doc, posing.look_at_joint()));
    ImGui::SameLine();
    int follow = posing.look_at_follows_camera ? 0 : 1;
    ImGui::RadioButton("camera", &follow, 0);
    ImGui::SameLine();
    ImGui::RadioButton("handle", &follow, 1);
    posing.look_at_follows_camera = follow == 0;
  }
  int root = static_cast<int>(posing.root_motion());
  ImGui::Text("Root motion");
  ImGui::SameLine();
  bool changed = ImGui::RadioButton("off", &root, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("in place", &root, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("extract", &root, 2);
  if (changed) posing.set_root_motion(static_cast<RootMotionChoice>(root));
  if (posing.root_motion() != RootMotionChoice::Extract) ImGui::BeginDisabled();
  ImGui::Checkbox("Follow camera", &posing.follow_camera);
  if (posing.root_motion() != RootMotionChoice::Extract) ImGui::EndDisabled();
}

int find_node_or_index(const rig::Model& model, std::string_view text) {
  return rig::find_node(model, text);
}

bool parse_floats(std::string_view text, float* out, int count) {
  const std::string s(text);
  const char* at = s.c_str();
  for (int i = 0; i < count; ++i) {
    char* end = nullptr;
    out[i] = std::strtof(at, &end);
    if (end == at || !std::isfinite(out[i])) return false;
    at = end;
    if (i + 1 < count) {
      if (*at != ',') return false;
      ++at;
    }
  }
  return *at == '\0';
}

}  // namespace

void draw_posing_panel(ViewerState& state, Document& doc) {
  if (!doc.posing) return;
  Posing& posing = *doc.posing;
  // A chain asked for from the Skeleton tree or the button below.
  if (state.requests.make_ik_chain >= 0) {
    if (posing.add_ik_chain(state.requests.make_ik_chain, state.posing_error))
      state.posing_error.clear();
    state.requests.make_ik_chain = -1;
    state.requests.open_posing_panel = true;
  }
  // Drawn only while the inspector's Posing tab is open; open_posing_panel brings it forward.
  if (!state.posing_error.empty()) {
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", state.posing_error.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("OK")) state.posing_error.clear();
  }
  draw_layers(state, doc, posing);
  draw_ik(state, doc, posing);
  draw_feet_look_root(state, doc, posing);
}

void draw_contact_marks(const Document& doc) {
  const rig::FootContacts* contacts = doc.posing ? doc.posing->contacts() : nullptr;
  if (!contacts || contacts->clip != doc.playback.clip() || contacts->times.empty()) return;
  const ImVec2 item_min = ImGui::GetItemRectMin(), item_max = ImGui::GetItemRectMax();
  // The slider's grab centre runs between these x (ImGui's slider: 2 px padding, grab size).
  const float inset = 2.0f + 0.5f * ImGui::GetStyle().GrabMinSize;
  const float x0 = item_min.x + inset, x1 = item_max.x - inset;
  const float span = std::max(contacts->end - contacts->start, 1e-6f);
  const float step = 1.0f / contacts->sample_rate;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const float row = 4.0f;
  for (size_t f = 0; f < contacts->feet.size() && f < 2; ++f) {
    const rig::FootContactTrack& track = contacts->feet[f];
    const float y = item_max.y + 2.0f + static_cast<float>(f) * (row + 1.0f);
    for (size_t s = 0; s < track.contact.size(); ++s) {
      if (!track.contact[s]) continue;
      size_t e = s;
      while (e + 1 < track.contact.size() && track.contact[e + 1]) ++e;
      const float a = (contacts->times[s] - contacts->start) / span;
      const float b = std::min((contacts->times[e] + step - contacts->start) / span, 1.0f);
      draw->AddRectFilled(ImVec2(x0 + a * (x1 - x0), y), ImVec2(x0 + b * (x1 - x0), y + row),
                          kFootColours[f]);
      s = e;
    }
  }
  ImGui::Dummy(ImVec2(1.0f, 2.0f * (row + 1.0f) + 2.0f));
}

void draw_crossfade_graph(const ViewerState& state, const Document& doc) {
  const rig::Playback& p = doc.playback;
  if (p.clip() < 0) return;
  const bool fading = p.fading();
  const float duration = fading ? p.fade_duration() : state.fade_duration;
  const float width = std::max(ImGui::GetContentRegionAvail().x, 100.0f), height = 64.0f;
  const ImVec2 o = ImGui::GetCursorScreenPos();
  ImDrawList* draw = ImGui::GetWindowDrawList();
  draw->AddRectFilled(o, ImVec2(o.x + width, o.y + height), IM_COL32(25, 27, 32, 255));
  auto at = [&](float x01, float w) {
    return ImVec2(o.x + x01 * width, o.y + (1.0f - w) * height);
  };
  // The weights over the fade: the target's rises linearly from 0 to 1 over the duration
  // (Playback::blend_weight), the source's is what is left. A zero-length fade is a step.
  constexpr int kPoints = 33;
  ImVec2 source[kPoints], target[kPoints];
  for (int i = 0; i < kPoints; ++i) {
    const float x = float(i) / float(kPoints - 1);
    const float w = duration > 0.0f ? x : (i == 0 ? 0.0f : 1.0f);
    target[i] = at(x, w);
    source[i] = at(x, 1.0f - w);
  }
  draw->AddPolyline(source, kPoints, kSourceColour, 0, 2.0f);
  draw->AddPolyline(target, kPoints, kTargetColour, 0, 2.0f);
  // Each layer's weight, flat over the fade.
  for (size_t i = 0; doc.posing && i < doc.posing->layer_count(); ++i) {
    const float w = doc.posing->layer(i).weight;
    draw->AddLine(at(0.0f, w), at(1.0f, w), kLayerColour, 1.0f);
    char text[24];
    std::snprintf(text, sizeof text, "L%zu", i + 1);
    draw->AddText(ImVec2(o.x + width - 22.0f, at(1.0f, w).y - 13.0f), kLayerColour, text);
  }
  if (fading) {
    const float w = p.blend_weight();
    draw->AddLine(at(w, 0.0f), at(w, 1.0f), IM_COL32(255, 255, 255, 220), 1.5f);
    draw->AddCircleFilled(at(w, w), 3.5f, kTargetColour);
    draw->AddCircleFilled(at(w, 1.0f - w), 3.5f, kSourceColour);
  }
  ImGui::Dummy(ImVec2(width, height));
  // The two clips' playheads, each on its own clip's timeline.
  const int target_clip = fading ? p.fade_target() : state.fade_target;
  const struct {
    int clip;
    float time;
    ImU32 colour;
  } heads[] = {{p.clip(), p.time(), kSourceColour},
               {target_clip,
                fading ? p.fade_target_time()
                       : (doc.character->clips().valid(target_clip)
                              ? doc.character->clips()[size_t(target_clip)].start
                              : 0.0f),
                kTargetColour}};
  for (const auto& h : heads) {
    if (!doc.character->clips().valid(h.clip)) continue;
    const rig::ClipEntry& clip = doc.character->clips()[size_t(h.clip)];
    const float x = clip.end > clip.start ? (h.time - clip.start) / (clip.end - clip.start) : 0.0f;
    const ImVec2 r = ImGui::GetCursorScreenPos();
    const float bar = width * 0.5f;
    draw->AddRectFilled(ImVec2(r.x, r.y + 5.0f), ImVec2(r.x + bar, r.y + 9.0f),
                        IM_COL32(60, 64, 72, 255));
    const float hx = r.x + std::clamp(x, 0.0f, 1.0f) * bar;
    draw->AddRectFilled(ImVec2(hx - 1.5f, r.y + 1.0f), ImVec2(hx + 1.5f, r.y + 13.0f), h.colour);
    ImGui::Dummy(ImVec2(bar, 14.0f));
    ImGui::SameLine();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(h.colour), "%s %.2f s",
                       doc.clip_labels[size_t(h.clip)].c_str(), static_cast<double>(h.time));
  }
}

bool apply_posing_steps(const std::string& steps, ViewerState& state, const Document& doc,
                        Posing& posing, PoseHandles* handles, glm::vec2 display,
                        std::string& error) {
  const rig::Model& model = *doc.model;
  size_t start = 0;
  while (start <= steps.size()) {
    const size_t end = std::min(steps.find(';', start), steps.size());
    const std::string step = steps.substr(start, end - start);
    start = end + 1;
    if (step.empty()) continue;
    const size_t eq = step.find('=');
    const std::string key = step.substr(0, eq),
                      value = eq == std::string::npos ? "" : step.substr(eq + 1);
    const std::string bad = "RIGVIEW_VIEWER_POSING: bad step '" + step + "'";
    if (key == "layer") {
      // CLIP,WEIGHT[,additive][,JOINT][,time=T]
      std::vector<std::string> f;
      for (size_t a = 0; a <= value.size();) {
        const size_t b = std::min(value.find(',', a), value.size());
        f.push_back(value.substr(a, b - a));
        a = b + 1;
      }
      LayerSettings s;
      float n[1];
      if (f.size() < 2 || !parse_floats(f[0], n, 1) || n[0] < 0 ||
          size_t(n[0]) >= doc.character->clips().size())
        return error = bad, false;
      s.clip = int(n[0]);
      s.time = doc.character->clips()[size_t(s.clip)].start;
      if (!parse_floats(f[1], &s.weight, 1)) return error = bad, false;
      for (size_t i = 2; i < f.size(); ++i) {
        if (f[i] == "additive") {
          s.additive = true;
        } else if (f[i].rfind("time=", 0) == 0) {
          if (!parse_floats(f[i].substr(5), &s.time, 1)) return error = bad, false;
        } else if ((s.mask_root = find_node_or_index(model, f[i])) < 0) {
          return error = bad + ": no joint '" + f[i] + "'", false;
        }
      }
      posing.add_layer(s);
    } else if (key == "ik") {
      const int node = rig::find_node(model, value);
      if (node < 0) return error = bad + ": no joint '" + value + "'", false;
      if (!posing.add_ik_chain(node, error)) return false;
      state.requests.open_posing_panel = true;
    } else if (key == "mouse") {
      float d[2];
      if (posing.ik_count() == 0) return error = bad + ": no IK chain yet", false;
      if (!parse_floats(value, d, 2)) return error = bad, false;
      if (handles)
        handles->queue_mouse_drag({HandleId::IkTarget, posing.ik_count() - 1}, {d[0], d[1]}, false);
    } else if (key == "drag" || key == "depth" || key == "pole") {
      float d[2] = {0.0f, 0.0f};
      if (posing.ik_count() == 0) return error = bad + ": no IK chain yet", false;
      if (key == "depth" ? !parse_floats(value, &d[1], 1) : !parse_floats(value, d, 2))
        return error = bad, false;
      const size_t last = posing.ik_count() - 1;
      if (key == "pole") posing.ik(last).use_pole = true;
      const HandleId id{key == "pole" ? HandleId::IkPole : HandleId::IkTarget, last};
      // depth=P: P pixels up the screen with Ctrl held (away from the camera).
      if (handles &&
          !handles->scripted_drag(posing, state, id, {d[0], key == "depth" ? -d[1] : d[1]},
                                  key == "depth", display))
        return error = bad + ": the handle is not in view", false;
    } else if (key == "weight" || key == "keep") {
      if (posing.ik_count() == 0) return error = bad + ": no IK chain yet", false;
      rig::TwoBoneIK& ik = posing.ik(posing.ik_count() - 1);
      if (key == "keep") {
        if (!value.empty()) return error = bad, false;
        ik.keep_end_rotation = true;
      } else if (!parse_floats(value, &ik.weight, 1) || !(ik.weight >= 0.0f) || ik.weight > 1.0f) {
        return error = bad, false;
      }
    } else if (key == "feet") {
      if (!posing.set_feet_on_ground(true, error)) return false;
    } else if (key == "look") {
      if (value != "camera" && value != "handle") return error = bad, false;
      if (!posing.set_look_at(true, head_joint(doc, state.selected_node), error)) return false;
      posing.look_at_follows_camera = value == "camera";
    } else if (key == "root") {
      if (value != "in-place" && value != "extract") return error = bad, false;
      posing.set_root_motion(value == "extract" ? RootMotionChoice::Extract
                                                : RootMotionChoice::InPlace);
    } else if (key == "follow") {
      posing.follow_camera = true;
    } else {
      return error = bad, false;
    }
  }
  return true;
}

}  // namespace rigview
