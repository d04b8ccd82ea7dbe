// RIGVIEW_VIEWER_STATE: the viewer's state after a frame, for tests that drive the real window
// with X events (tests/app/viewer_xevents_test.cpp) and read back what the events did. One
// "key values..." line each; written to a scratch file and renamed, so a reader polling the file
// never sees half of it.
#include <cstdio>
#include <filesystem>

#include "viewer/clipped_content.h"
#include "viewer/source_ghost.h"
#include "viewer/viewer_app.h"

namespace rigview {

bool Viewer::write_self_test_state(int frame) {
  const std::string scratch = self_test_.state + ".part";
  std::FILE* f = std::fopen(scratch.c_str(), "w");
  if (!f) {
    std::fprintf(stderr, "rigview: error: %s: cannot write\n", scratch.c_str());
    return false;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const float width = io.DisplaySize.x, height = io.DisplaySize.y;
  const rig::render::OrbitCamera& c = state_.camera;
  std::fprintf(f, "frame %d\n", frame);
  std::fprintf(f, "window %.1f %.1f\n", double(width), double(height));
  std::fprintf(f, "camera yaw %.6f pitch %.6f distance %.6f eye_y %.6f floor %.6f\n", double(c.yaw),
               double(c.pitch), double(c.distance), double(c.eye().y), double(c.floor));
  std::fprintf(
      f, "selected %s\n",
      state_.selected_node >= 0 ? doc_.node_labels[size_t(state_.selected_node)].c_str() : "-");
  // The selected joint's hand rotation (x y z w) and where its rings are (the Joint tab's): the
  // centre and each ring's first point in pixels, and the ring being dragged.
  if (doc_.posing && state_.selected_node >= 0) {
    const glm::quat q = doc_.posing->joint_rotation(state_.selected_node);
    std::fprintf(f, "joint_rotation %.6f %.6f %.6f %.6f\n", double(q.x), double(q.y), double(q.z),
                 double(q.w));
  }
  if (RotationRings::shown(state_) &&
      size_t(state_.selected_node) < doc_.character->world().size()) {
    const Rect v = scene_view(state_, io.DisplaySize.x, io.DisplaySize.y);
    const rig::render::ScreenRect rect{v.x, v.y, v.width, v.height};
    const rig::render::Camera camera =
        view_orbit(state_, io.DisplaySize.x, io.DisplaySize.y).camera(v.width / v.height);
    const JointRings rings = joint_rings(doc_.character->world()[size_t(state_.selected_node)],
                                         camera, rect, kRingRadiusPixels);
    glm::vec2 c(-1.0f), p[3] = {glm::vec2(-1.0f), glm::vec2(-1.0f), glm::vec2(-1.0f)};
    rig::render::world_to_screen(camera, rect, rings.centre, c);
    for (int a = 0; a < 3; ++a)
      rig::render::world_to_screen(camera, rect, ring_point(rings, a, kRingSegments / 8), p[a]);
    std::fprintf(f, "rings centre %.1f %.1f x %.1f %.1f y %.1f %.1f z %.1f %.1f dragged %d\n",
                 double(c.x), double(c.y), double(p[0].x), double(p[0].y), double(p[1].x),
                 double(p[1].y), double(p[2].x), double(p[2].y), rings_.dragged_axis());
  }
  std::fprintf(f, "document %s\n", doc_.path.c_str());
  const int clip = doc_.playback.clip();
  std::fprintf(f, "clip %s\n",
               clip >= 0 && size_t(clip) < doc_.clip_labels.size()
                   ? doc_.clip_labels[size_t(clip)].c_str()
                   : "-");
  std::fprintf(f, "clips %zu\n", doc_.character ? doc_.character->clips().listed_count() : 0);
  size_t ghost_points = 0;
  source_ghost_frame(doc_, clip, doc_.playback.time(), ghost_points);
  std::fprintf(f, "source_ghost_points %zu\n", state_.bone_map.ghost ? ghost_points : 0);
  std::fprintf(f, "error_message %s\n", state_.error_message.c_str());
  // The look's environment ("-": the bundled studio), its background load (running, progress,
  // a result not yet taken by the renderer) and the last failure, for the drop tests.
  const ViewerLook& look = state_.look;
  std::fprintf(f,
               "environment %s\nenvironment_load loading %d progress %.3f pending %d\n"
               "environment_error %s\n",
               look.environment.empty() ? "-" : look.environment.c_str(), look.loading ? 1 : 0,
               double(look.progress), look_pending_ ? 1 : 0, look.error.c_str());
  std::fprintf(f, "open_field %s\n", state_.open_field.c_str());
  std::fprintf(f, "want_text_input %d\n", io.WantTextInput ? 1 : 0);

  // The inspector's region and open tab (the tour clicks each tab by its position), the
  // compression tolerance and what was asked of the session (the slider's value after release),
  // the simulated bug and where its choices start in the tab (the teaching aids' radio buttons).
  const Rect inspector =
      workspace_regions(state_.layout, width, height, state_.panels_hidden).inspector;
  std::fprintf(f, "inspector %.1f %.1f %.1f %.1f\ntab %s\n", double(inspector.x),
               double(inspector.y), double(inspector.width), double(inspector.height),
               inspector_tab_name(state_.layout.tab));
  const CompressedClips* compression = doc_.compression();
  std::fprintf(f,
               "compression tolerance_cm %.6f editing %d requested %.6f session %.6f running %d\n",
               double(state_.tolerance_cm), state_.tolerance_editing ? 1 : 0,
               compression ? compression->requested_tolerance : -1.0,
               compression ? compression->session.tolerance_cm() : -1.0,
               compression && compression->session.running() ? 1 : 0);
  std::fprintf(f, "simulated_bug %d\nteaching_choices_y %.1f\n", doc_.simulated_bug,
               double(state_.teaching_choices_y));
  // The skin edits: unsaved or not, the history, the questions asked, the last message.
  std::fprintf(f,
               "edits modified %d undo %zu redo %zu recover_prompt %d pending_open %d "
               "pending_quit %d\nedit_message %s\n",
               state_.edits.modified ? 1 : 0, editing_.history().position(),
               editing_.history().size() - editing_.history().position(),
               state_.edits.recover_prompt.empty() ? 0 : 1,
               state_.edits.pending_open.empty() ? 0 : 1, state_.edits.pending_quit ? 1 : 0,
               state_.edits.message.c_str());
  // The Vertex tab: the picked vertex, whether its inspection holds, its LBS position there and
  // its influence count; the live LBS point's pixel.
  {
    const VertexInspectorState& v = state_.vertex;
    const glm::vec3 lbs =
        v.valid ? v.inspection.positions[size_t(rig::SkinningMethod::Linear)] : glm::vec3(0.0f);
    std::fprintf(f, "vertex %d %d valid %d influences %zu lbs %.7g %.7g %.7g live %d\n",
                 v.picked.primitive, v.picked.vertex, v.valid ? 1 : 0,
                 v.valid ? v.inspection.influences.size() : size_t(0), double(lbs.x), double(lbs.y),
                 double(lbs.z), v.live_valid ? v.live.count : 0);
  }
  // The Joint tab's Sweep: its joint, state, playback position and every LBS score (axis by
  // axis, step by step).
  {
    const SweepView& w = state_.sweep;
    std::fprintf(f, "sweep node %d running %d steps %d play %.3f\nsweep_lbs", w.node,
                 w.running ? 1 : 0, w.scores.empty() ? 0 : w.steps, double(w.play));
    for (size_t m = 0; m < w.methods.size(); ++m) {
      if (w.methods[m] != rig::SkinningMethod::Linear) continue;
      for (int axis = 0; axis < 3; ++axis)
        for (int k = 0; k < w.steps; ++k) std::fprintf(f, " %.7g", double(w.score(axis, k, m)));
    }
    std::fprintf(f, "\n");
  }
  // The selected joint's pixel in the single view, and the brush circle (radius 0: none).
  {
    glm::vec2 pixel(-1.0f);
    const SingleView single = single_view(state_, width, height);
    if (state_.selected_node >= 0 && size_t(state_.selected_node) < doc_.character->world().size())
      rig::render::world_to_screen(
          single.camera, single.rect,
          glm::vec3(doc_.character->world()[size_t(state_.selected_node)][3]), pixel);
    std::fprintf(f, "selected_pixel %.1f %.1f\nbrush %.1f %.1f %.1f painting %d\n", double(pixel.x),
                 double(pixel.y), double(state_.weight_tools.brush_pixel.x),
                 double(state_.weight_tools.brush_pixel.y),
                 double(state_.weight_tools.brush_pixel_radius),
                 state_.weight_tools.painting ? 1 : 0);
  }
  std::fprintf(f, "question_buttons");
  for (const float(&b)[4] : state_.edits.question_buttons)
    std::fprintf(f, " %.1f %.1f %.1f %.1f", double(b[0]), double(b[1]), double(b[2]), double(b[3]));
  std::fprintf(f, "\n");
  // GL errors: the renderer's count (checked after each pass in debug builds) plus any still
  // pending now, drained here (take_gl_errors, as the soak does) so a release build's errors are
  // counted too.
  if (renderer_) probe_gl_errors_ += take_gl_errors(*renderer_) - renderer_->gl_error_count();
  std::fprintf(f, "gl_errors %llu\n",
               static_cast<unsigned long long>((renderer_ ? renderer_->gl_error_count() : 0) +
                                               probe_gl_errors_));

  // Labels, values and headers cut off by their window or table column
  // (viewer/clipped_content.h): a count, then where and by how many pixels.
  std::vector<ClippedContent> clipped;
  find_clipped_content(clipped);
  std::fprintf(f, "clipped %zu", clipped.size());
  for (const ClippedContent& c : clipped)
    std::fprintf(f, " [%s] %.1f", c.where.c_str(), double(c.pixels));
  std::fprintf(f, "\n");

  const Rect view = scene_view(state_, width, height);
  const int views = static_cast<int>(methods_shown(state_).size());
  const rig::render::OrbitCamera orbit = view_orbit(state_, width, height);
  const std::span<const glm::mat4> world = doc_.character->world();
  std::fprintf(f, "view %.1f %.1f %.1f %.1f\ncolumns %d\n", double(view.x), double(view.y),
               double(view.width), double(view.height), views);
  for (int v = 0; v < views && view.width > 0.0f && view.height > 0.0f; ++v) {
    const rig::render::ColumnSpan col = rig::render::compare_column(view.x, view.width, v, views);
    const rig::render::ScreenRect rect{col.x, view.y, col.width, view.height};
    const rig::render::Camera camera = orbit.camera(col.width / view.height);
    glm::vec2 lo(1e30f), hi(-1e30f);
    for (const int node : doc_.joint_nodes) {
      glm::vec2 pixel;
      if (!rig::render::world_to_screen(camera, rect, glm::vec3(world[size_t(node)][3]), pixel))
        continue;
      lo = glm::min(lo, pixel), hi = glm::max(hi, pixel);
    }
    std::fprintf(f, "column %d x %.1f width %.1f joints %.1f %.1f %.1f %.1f\n", v, double(col.x),
                 double(col.width), double(lo.x), double(lo.y), double(hi.x), double(hi.y));
    if (v != 0 || !doc_.posing) continue;
    for (size_t i = 0; i < doc_.posing->ik_count(); ++i) {
      const glm::vec3 t = doc_.posing->ik(i).target;
      glm::vec2 pixel(-1.0f);
      rig::render::world_to_screen(camera, rect, t, pixel);
      std::fprintf(f, "ik %zu target %.6f %.6f %.6f pixel %.1f %.1f\n", i, double(t.x), double(t.y),
                   double(t.z), double(pixel.x), double(pixel.y));
    }
  }
  // The Learn mistake on: its name, the method both columns skin with, each column's label,
  // the largest distance between the wrong and the right vertices, and its one-line caption.
  {
    const int m = state_.learn.mistake;
    char right[96] = "-", wrong[96] = "-";
    if (m >= 0) {
      mistake_label(m, 0, mistakes_.method(), right, sizeof right);
      mistake_label(m, 1, mistakes_.method(), wrong, sizeof wrong);
    }
    std::fprintf(f, "mistake %s drawn %d difference %.7g blend %d\n",
                 m >= 0 ? mistakes()[size_t(m)].name : "-", mistakes_.active() ? 1 : 0,
                 double(mistakes_.largest_difference()), mistakes_.added_blend_clip());
    std::fprintf(f, "mistake_column_0 %s\nmistake_column_1 %s\nmistake_caption %s\n", right, wrong,
                 m >= 0 ? mistakes()[size_t(m)].caption : "-");
  }
  const bool ok = std::fclose(f) == 0;
  std::error_code ec;
  std::filesystem::rename(scratch, self_test_.state, ec);
  return ok && !ec;
}

}  // namespace rigview
