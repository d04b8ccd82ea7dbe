#include "viewer/viewer_state.h"

namespace rigview {

ViewerState initial_viewer_state(const Options& options) {
  ViewerState s;
  const auto all = rig::all_skinning_methods();
  s.compare_methods.assign(all.begin(), all.end());
  const std::vector<rig::SkinningMethod> methods = methods_to_draw(options);
  if (options.compare && methods.size() >= 2) {
    s.compare_methods = methods;
    s.method = methods.front();
    s.compare = true;
  } else if (!methods.empty()) {
    s.method = methods.front();
  }
  s.rest_pose = options.rest_pose;
  if (options.heatmap == "deflation") s.surface_view = SurfaceView::Deflation;
  if (options.heatmap == "difference") s.surface_view = SurfaceView::Difference;
  s.artefacts_open = !options.heatmap.empty();
  // --compressed: play the clips compressed at --tolerance, with the Compression panel open.
  s.compression_open = s.play_compressed = options.compressed;
  // The inspector opens on what the command line asked to see.
  if (s.artefacts_open) s.layout.tab = InspectorTab::Artefacts;
  if (s.compression_open) s.layout.tab = InspectorTab::Compression;
  s.tolerance_cm = static_cast<float>(options.tolerance_cm);
  s.show_skeleton = options.armature;
  s.look.studio = options.lights != SceneLights::Classic;
  s.look.settings = options.look;
  s.look.environment = options.environment_path;
  return s;
}

std::span<const rig::SkinningMethod> methods_shown(const ViewerState& state) {
  // A Learn mistake on: its right and wrong columns (viewer/mistakes.h).
  if (state.learn.mistake >= 0) return state.learn.mistake_columns;
  if (state.compare && state.compare_methods.size() >= 2) return state.compare_methods;
  return {&state.method, 1};
}

void select_method(ViewerState& state, size_t table_index) {
  const std::span<const rig::SkinningMethodInfo> table = rig::skinning_methods();
  if (table_index >= table.size()) return;
  if ((state.methods_preparing >> table_index) & 1u) {
    state.skinning_notice = std::string("preparing ") + table[table_index].label + "...";
    return;
  }
  state.method = table[table_index].method;
  state.compare = false;
}

void toggle_compare(ViewerState& state) {
  state.compare = !state.compare && state.compare_methods.size() >= 2;
}

void cycle_surface_view(ViewerState& state) {
  state.surface_view =
      static_cast<SurfaceView>((static_cast<int>(state.surface_view) + 1) % kSurfaceViewCount);
}

Rect scene_view(const ViewerState& state, float window_width, float window_height) {
  return workspace_regions(state.layout, window_width, window_height, state.panels_hidden).viewport;
}

double crowd_clock_step(bool playing, bool scrubbing, bool rest_pose, float dt, float speed,
                        TimelineFrame before, TimelineFrame now) {
  if (rest_pose) return 0.0;
  if (playing && !scrubbing) return double(dt) * double(speed);
  if (before.clip != now.clip) return 0.0;
  return double(now.time) - double(before.time);
}

}  // namespace rigview
